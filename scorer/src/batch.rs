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
}

/// A parsed row and the line it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    /// 1-based line number in the batch file.
    pub line: usize,
    /// The row.
    pub row: BatchRow,
}

/// Parses a JSONL batch; `file` names it in errors. Blank lines are skipped; every other line
/// must be one row with a non-empty token, and `general` only on a conflict row.
pub fn parse(file: &str, text: &str) -> Result<Vec<Numbered>, Error> {
    let bad = |line: usize, message: String| Error::Batch {
        file: file.to_string(),
        line,
        message,
    };
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let row: BatchRow = serde_json::from_str(raw).map_err(|e| bad(line, e.to_string()))?;
        if row.token.is_empty() {
            return Err(bad(line, "empty token".into()));
        }
        if row.general.is_some() && row.kind != Kind::Conflict {
            return Err(bad(
                line,
                "`general` is given only on a conflict row".into(),
            ));
        }
        rows.push(Numbered { line, row });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_line_numbers_past_blank_lines() {
        let text = "{\"kind\":\"positive\",\"token\":\"K1\",\"answer\":\"K1\"}\n\n\
                    {\"id\":\"b\",\"kind\":\"negative\",\"token\":\"N\",\"answer\":\"모릅니다\"}\n";
        let rows = parse("b.jsonl", text).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].line, rows[0].row.id.as_deref()), (1, None));
        assert_eq!((rows[1].line, rows[1].row.id.as_deref()), (3, Some("b")));
        assert_eq!(rows[1].row.kind, Kind::Negative);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        for (text, needle) in [
            (
                "{\"kind\":\"positive\",\"token\":\"\",\"answer\":\"x\"}",
                "empty token",
            ),
            (
                "{\"kind\":\"positive\",\"token\":\"t\",\"anwser\":\"x\"}",
                "anwser",
            ),
            (
                "{\"kind\":\"maybe\",\"token\":\"t\",\"answer\":\"x\"}",
                "maybe",
            ),
            (
                "{\"kind\":\"positive\",\"token\":\"t\",\"general\":\"g\",\"answer\":\"x\"}",
                "conflict",
            ),
            ("not json", "expected"),
        ] {
            let text = format!("\n{text}\n");
            let e = parse("b.jsonl", &text).unwrap_err().to_string();
            assert!(e.starts_with("b.jsonl:2: "), "{e}");
            assert!(e.contains(needle), "{e} lacks {needle}");
        }
    }
}
