//! A batch of answers to score in one process (`harness score --batch`): one JSON object per
//! line, so a script that scores thousands of answers pays for the lexicon's compilation once
//! instead of once per answer.

use serde::Deserialize;

use crate::error::Error;
use crate::model::Kind;

/// One answer to score, with the question it answers.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRow {
    /// The caller's name for the row, echoed in the output (the line number when absent).
    #[serde(default)]
    pub id: Option<String>,
    /// The question kind.
    pub kind: Kind,
    /// The token (a fixed string).
    pub token: String,
    /// The true value of a conflict item.
    #[serde(default)]
    pub general: Option<String>,
    /// The answer text.
    pub answer: String,
    /// The question as asked, shown to a judge (`--judge`); optional.
    #[serde(default)]
    pub question: Option<String>,
}

/// A parsed row and the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    /// 1-based line number in the batch file.
    pub line: usize,
    /// The row.
    pub row: BatchRow,
}

/// The longest id a row may carry (it is echoed on every output line).
pub const MAX_ID: usize = 200;

/// serde_json's message without its own "at line 1 column N" (a batch line is always its line 1),
/// with the column kept.
pub fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let own = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&own) {
        Some(msg) => format!("{msg} (column {})", e.column()),
        None => text,
    }
}

/// Parses a JSONL batch; `file` names it in errors. Blank lines are skipped; every other line
/// must be one row whose token (and general) is neither empty nor padded, like a qset's. Ids, when
/// given, are on every row, unique, at most [`MAX_ID`] characters and free of control
/// characters, so each output line names exactly one row.
pub fn parse(file: &str, text: &str) -> Result<Vec<Numbered>, Error> {
    let bad = |line: usize, message: String| Error::Batch {
        file: file.to_string(),
        line,
        message,
    };
    let mut rows: Vec<Numbered> = Vec::new();
    let mut ids: std::collections::BTreeMap<String, usize> = Default::default();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let mut row: BatchRow =
            serde_json::from_str(raw).map_err(|e| bad(line, json_message(&e)))?;
        if row.general.as_deref() == Some("") {
            row.general = None;
        }
        check_values(&row).map_err(|m| bad(line, m.into()))?;
        if let Some(first) = rows.first() {
            if first.row.id.is_some() != row.id.is_some() {
                return Err(bad(
                    line,
                    format!(
                        "ids on some rows only (line {} has {}): give every row an id or none",
                        first.line,
                        if first.row.id.is_some() {
                            "one"
                        } else {
                            "none"
                        }
                    ),
                ));
            }
        }
        if let Some(id) = &row.id {
            check_id(id).map_err(|m| bad(line, m.into()))?;
            if let Some(first) = ids.insert(id.clone(), line) {
                return Err(bad(line, format!("duplicate id (first on line {first})")));
            }
        }
        rows.push(Numbered { line, row });
    }
    Ok(rows)
}

fn check_values(row: &BatchRow) -> Result<(), &'static str> {
    if row.token.trim().is_empty() {
        return Err("empty token");
    }
    if row.token.trim() != row.token {
        return Err("the token has leading or trailing whitespace");
    }
    match &row.general {
        Some(_) if row.kind != Kind::Conflict => Err("`general` is given only on a conflict row"),
        Some(g) if g.trim() != g => Err("`general` has leading or trailing whitespace"),
        _ => Ok(()),
    }
}

fn check_id(id: &str) -> Result<(), &'static str> {
    if id.is_empty() {
        Err("empty id")
    } else if id.chars().count() > MAX_ID {
        Err("id longer than 200 characters")
    } else if id.chars().any(char::is_control) {
        Err("id holds a control character (tab, newline, …)")
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_line_numbers_past_blank_lines() {
        let text = "{\"id\":\"a\",\"kind\":\"positive\",\"token\":\"K1\",\"answer\":\"K1\"}\n\n\
                    {\"id\":\"b\",\"kind\":\"negative\",\"token\":\"N\",\"answer\":\"모릅니다\"}\n";
        let rows = parse("b.jsonl", text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].line, rows[0].row.id.as_deref()), (1, Some("a")));
        assert_eq!((rows[1].line, rows[1].row.id.as_deref()), (3, Some("b")));
        assert_eq!(rows[1].row.kind, Kind::Negative);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let row = |extra: &str| {
            format!("{{\"kind\":\"positive\",\"token\":\"t\",\"answer\":\"x\"{extra}}}")
        };
        for (text, needle) in [
            (
                "{\"kind\":\"positive\",\"token\":\"\",\"answer\":\"x\"}".to_string(),
                "empty token",
            ),
            (
                "{\"kind\":\"positive\",\"token\":\"  \",\"answer\":\"x\"}".to_string(),
                "empty token",
            ),
            (
                "{\"kind\":\"positive\",\"token\":\" t\",\"answer\":\"x\"}".to_string(),
                "whitespace",
            ),
            (
                "{\"kind\":\"positive\",\"token\":\"t\",\"anwser\":\"x\"}".to_string(),
                "anwser",
            ),
            (
                "{\"kind\":\"maybe\",\"token\":\"t\",\"answer\":\"x\"}".to_string(),
                "maybe",
            ),
            (row(",\"general\":\"g\""), "conflict"),
            (row(",\"id\":\"\""), "empty id"),
            (row(",\"id\":\"a\\tb\""), "control"),
            (row(&format!(",\"id\":\"{}\"", "i".repeat(201))), "longer"),
            ("not json".to_string(), "(column 2)"),
        ] {
            let text = format!("\n{text}\n");
            let e = parse("b.jsonl", &text).unwrap_err().to_string();
            assert!(e.starts_with("b.jsonl:2: "), "{e}");
            assert!(e.contains(needle), "{e} lacks {needle}");
            assert!(!e.contains("line 1"), "serde's own line number leaked: {e}");
        }
    }

    #[test]
    fn an_empty_general_is_no_general() {
        let rows = parse(
            "b",
            "{\"kind\":\"positive\",\"token\":\"t\",\"general\":\"\",\"answer\":\"x\"}",
        )
        .unwrap();
        assert_eq!(rows[0].row.general, None);
    }

    #[test]
    fn ids_are_on_every_row_or_none_and_unique() {
        let with = |id: &str| {
            format!("{{\"id\":\"{id}\",\"kind\":\"negative\",\"token\":\"t\",\"answer\":\"x\"}}")
        };
        let without = "{\"kind\":\"negative\",\"token\":\"t\",\"answer\":\"x\"}";
        let e = parse("b", &format!("{}\n{without}\n", with("a"))).unwrap_err();
        assert!(
            e.to_string().starts_with("b:2: ") && e.to_string().contains("line 1 has one"),
            "{e}"
        );
        let e = parse("b", &format!("{without}\n{}\n", with("a"))).unwrap_err();
        assert!(e.to_string().contains("line 1 has none"), "{e}");
        let e = parse("b", &format!("{}\n\n{}\n", with("a"), with("a"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "b:3: not a batch row: duplicate id (first on line 1)"
        );
        assert_eq!(
            parse("b", &format!("{}\n{}\n", with("a"), with("b")))
                .unwrap()
                .len(),
            2
        );
    }
}
