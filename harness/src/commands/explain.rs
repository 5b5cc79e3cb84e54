//! `harness explain [TERM]`: the glossary (`reports::glossary`) on the terminal.

use crate::exit::Exit;
use anyhow::Result;
use reports::glossary;

/// Prints one term, or every term with one line each. A word not in the glossary is a usage
/// error (exit 2) that says so in its own words: the unknown term, the closest names, and how
/// to list them all (not the generic exit line, which speaks of qsets and flags).
pub fn explain(term: Option<&str>) -> Result<Exit> {
    let Some(word) = term else {
        print!("{}", glossary::index());
        return Ok(Exit::Ok);
    };
    if let Some(t) = glossary::find(word) {
        print!("{}", glossary::explain(t));
        return Ok(Exit::Ok);
    }
    eprintln!("{}", unknown_term(word));
    Ok(Exit::Usage)
}

/// What `harness explain WORD` says of a word the glossary does not hold: the word (made one
/// plain line: it is the user's input), the closest names, and how to list every term.
fn unknown_term(word: &str) -> String {
    let shown = crate::text::clean_line(word, 60);
    let near = glossary::closest(word);
    let mut s = format!("harness: unknown term '{shown}'");
    if !near.is_empty() {
        s.push_str(&format!("; did you mean {}?", near.join(", ")));
    }
    s.push_str("\nharness: `harness explain` with no term lists every term");
    s
}
