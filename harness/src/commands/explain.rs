//! `harness explain [TERM]`: the glossary (`reports::glossary`) on the terminal.

use crate::exit::{Exit, Fail};
use anyhow::Result;
use reports::glossary;

/// Prints one term, or every term with one line each; a word not in the glossary is exit 2
/// with the closest names.
pub fn explain(term: Option<&str>) -> Result<Exit> {
    let Some(word) = term else {
        print!("{}", glossary::index());
        return Ok(Exit::Ok);
    };
    if let Some(t) = glossary::find(word) {
        print!("{}", glossary::explain(t));
        return Ok(Exit::Ok);
    }
    let shown = crate::text::clean_line(word, 60);
    let near = glossary::closest(word);
    let hint = if near.is_empty() {
        "`harness explain` lists every term".to_string()
    } else {
        format!(
            "did you mean {}? (`harness explain` lists every term)",
            near.join(", ")
        )
    };
    Err(Fail::new(
        Exit::Usage,
        format!("no term `{shown}` in the glossary; {hint}"),
    )
    .into())
}
