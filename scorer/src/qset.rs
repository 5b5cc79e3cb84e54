//! The qset: pre-registered questions, one a TSV line (DESIGN §3).
//!
//! Format: UTF-8 (a leading BOM is stripped), LF or CRLF line ends, tab-separated cells with
//! no quoting, 4 to 6 cells a row: `qid kind question token [general] [probe]`. Lines whose
//! first non-blank character is `#` are comments; lines holding only spaces and tabs are blank.
//! One optional header line (`qid\tkind\tquestion\ttoken[\tgeneral[\tprobe]]`) may come before
//! the first question. Empty cells stay empty: the seed once read a row with bash
//! `IFS=$'\t' read`, which folds empty cells and shifts every later value one column left.
//!
//! Choices this parser makes where DESIGN leaves room:
//! - `general` on a non-conflict row is an error, not silently ignored: a stray general is
//!   what a shifted column looks like.
//! - a token or general with leading or trailing whitespace is an error: the padding is
//!   invisible but would have to appear verbatim in the answer.
//! - any invalid UTF-8, comments included, is an error: the file is in the wrong encoding.

use serde::Serialize;
use std::collections::HashMap;

use crate::error::Error;
use crate::model::Kind;

/// The header names, in column order; a header line is any prefix of 4 to 6 of them.
pub const HEADER: [&str; 6] = ["qid", "kind", "question", "token", "general", "probe"];

/// One pre-registered question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Question {
    /// Unique id, `[A-Za-z0-9_-]+`. Never shown to the agent.
    pub qid: String,
    /// Decides how the answer is classified.
    pub kind: Kind,
    /// The text put to the agent.
    pub question: String,
    /// positive: must appear; negative: what a fabrication would contain; conflict: the
    /// planted (wrong) value in the seal.
    pub token: String,
    /// Conflict only: the true value; `PRIOR_WON` is asserted only when it is given and seen.
    pub general: Option<String>,
    /// Free text for authors; never scored.
    pub probe: Option<String>,
    /// 1-based line in the qset file, for error messages and reports.
    pub line: usize,
}

/// A parsed, validated qset: at least one question, unique qids, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Qset {
    /// The questions in file order.
    pub questions: Vec<Question>,
}

impl Qset {
    /// The question with this qid, if any.
    pub fn get(&self, qid: &str) -> Option<&Question> {
        self.questions.iter().find(|q| q.qid == qid)
    }

    /// Number of questions of one kind (reports need per-kind denominators).
    pub fn count(&self, kind: Kind) -> usize {
        self.questions.iter().filter(|q| q.kind == kind).count()
    }

    /// Questions of one kind, in file order.
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Question> {
        self.questions.iter().filter(move |q| q.kind == kind)
    }

    /// Number of questions (never zero for a parsed qset).
    pub fn len(&self) -> usize {
        self.questions.len()
    }

    /// Always false for a qset that came out of [`parse`]; kept for API completeness.
    pub fn is_empty(&self) -> bool {
        self.questions.is_empty()
    }
}

fn valid_qid(qid: &str) -> bool {
    !qid.is_empty()
        && qid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn is_blank(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Reject a tab, CR, newline, NUL or any other control character inside a value. Only a CR can reach here from TSV (a tab splits
/// the cell, a newline ends the row), but the rule is the value's, not the parser's.
fn check_control(file: &str, line: usize, column: &'static str, value: &str) -> Result<(), Error> {
    let what = if value.contains('\r') {
        "carriage return"
    } else if value.contains('\n') {
        "newline"
    } else if value.contains('\t') {
        "tab"
    } else if value.contains('\0') {
        "NUL"
    } else if value.chars().any(char::is_control) {
        // An escape sequence or any other control character: it would reach every prompt
        // and terminal, and fails a dispatch half-way through a round.
        "control character"
    } else {
        return Ok(());
    };
    Err(Error::ControlInValue {
        file: file.to_string(),
        line,
        column,
        what,
    })
}

/// Line numbers for increasing byte offsets, counting each newline once (linear overall).
#[derive(Default)]
struct LineCounter {
    offset: usize,
    newlines: usize,
}

impl LineCounter {
    fn advance(&mut self, bytes: &[u8], to: usize) -> usize {
        let to = to.min(bytes.len());
        if to >= self.offset {
            self.newlines += bytes[self.offset..to]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.offset = to;
            self.newlines + 1
        } else {
            line_of_offset(bytes, to)
        }
    }
}

fn line_of_offset(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Parse and validate a qset. `source` is the path shown in errors; no file is read here.
pub fn parse(bytes: &[u8], source: &str) -> Result<Qset, Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Err(e) = std::str::from_utf8(bytes) {
        let offset = e.valid_up_to();
        return Err(Error::InvalidUtf8 {
            file: source.to_string(),
            line: line_of_offset(bytes, offset),
            offset,
        });
    }

    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .quoting(false)
        .has_headers(false)
        .flexible(true)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_reader(bytes);

    let mut questions: Vec<Question> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut header_allowed = true;
    let mut record = csv::StringRecord::new();
    let mut lines = LineCounter::default();
    loop {
        let line_hint = reader.position().line() as usize;
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize).unwrap_or(line_hint);
                return Err(Error::Read {
                    file: source.to_string(),
                    line,
                    message: e.to_string(),
                });
            }
        }
        // csv reports a record's position from before the empty lines it skipped, so step
        // over those newlines and count lines from the offset ourselves.
        let line = match record.position() {
            Some(p) => {
                let mut at = p.byte() as usize;
                while bytes.get(at) == Some(&b'\n') {
                    at += 1;
                }
                lines.advance(bytes, at)
            }
            None => line_hint,
        };
        let mut cells: Vec<&str> = record.iter().collect();
        // CRLF: the CR is the line end's, not the last value's.
        if let Some(last) = cells.last_mut() {
            *last = last.strip_suffix('\r').unwrap_or(last);
        }
        if cells.iter().all(|c| is_blank(c)) {
            continue;
        }
        if cells[0].trim_start().starts_with('#') {
            continue;
        }
        if header_allowed {
            header_allowed = false;
            if (4..=6).contains(&cells.len()) && cells.iter().zip(HEADER).all(|(c, h)| *c == h) {
                continue;
            }
        }
        questions.push(row(source, line, &cells, &mut seen)?);
    }
    if questions.is_empty() {
        return Err(Error::Unmeasured {
            file: source.to_string(),
        });
    }
    Ok(Qset { questions })
}

fn row(
    file: &str,
    line: usize,
    cells: &[&str],
    seen: &mut HashMap<String, usize>,
) -> Result<Question, Error> {
    let f = || file.to_string();
    if !(4..=6).contains(&cells.len()) {
        return Err(Error::ColumnCount {
            file: f(),
            line,
            found: cells.len(),
            spaced: cells.len() < 4 && cells.join(" ").split_whitespace().count() >= 4,
        });
    }
    for (value, column) in cells.iter().zip(HEADER) {
        check_control(file, line, column, value)?;
    }
    let (qid, kind, question, token) = (cells[0], cells[1], cells[2], cells[3]);
    let general = cells.get(4).copied().filter(|s| !s.is_empty());
    let probe = cells.get(5).copied().filter(|s| !s.is_empty());

    if !valid_qid(qid) {
        return Err(Error::BadQid {
            file: f(),
            line,
            qid: qid.to_string(),
        });
    }
    let kind: Kind = kind.parse().map_err(|_| Error::UnknownKind {
        file: f(),
        line,
        kind: kind.to_string(),
    })?;
    if question.trim().is_empty() {
        return Err(Error::EmptyQuestion { file: f(), line });
    }
    if token.trim().is_empty() {
        return Err(Error::EmptyToken { file: f(), line });
    }
    for (column, value) in [("token", Some(token)), ("general", general)] {
        if let Some(v) = value {
            if v.trim() != v {
                return Err(Error::PaddedValue {
                    file: f(),
                    line,
                    column,
                });
            }
        }
    }
    if general.is_some() && kind != Kind::Conflict {
        return Err(Error::GeneralOnNonConflict {
            file: f(),
            line,
            kind: kind.to_string(),
        });
    }
    if let Some(&first_line) = seen.get(qid) {
        return Err(Error::DuplicateQid {
            file: f(),
            line,
            qid: qid.to_string(),
            first_line,
        });
    }
    seen.insert(qid.to_string(), line);
    Ok(Question {
        qid: qid.to_string(),
        kind,
        question: question.to_string(),
        token: token.to_string(),
        general: general.map(str::to_string),
        probe: probe.map(str::to_string),
        line,
    })
}

#[cfg(test)]
mod tests {
    /// Issue 24: a NUL or any other control character in a cell is refused at parse time with
    /// file and line (it used to pass the gate and fail every dispatch of its question).
    #[test]
    fn nul_and_control_characters_in_any_cell_are_refused_with_file_and_line() {
        for (cell, what) in [
            ("a\u{0}b", "NUL"),
            ("a\u{1b}[31mb", "control character"),
            ("a\u{7f}", "control character"),
        ] {
            let text = format!("qid\tkind\tquestion\ttoken\nq1\tpositive\tWhat {cell}?\tzzx1\n");
            let e = parse(text.as_bytes(), "q.tsv").expect_err(cell);
            let shown = e.to_string();
            assert!(shown.starts_with("q.tsv:2:"), "{shown}");
            assert!(shown.contains(what), "{shown}");
        }
    }

    use super::*;

    fn ok(text: &str) -> Qset {
        parse(text.as_bytes(), "q.tsv").unwrap_or_else(|e| panic!("{e}"))
    }

    fn err(bytes: &[u8]) -> Error {
        parse(bytes, "q.tsv").expect_err("should be rejected")
    }

    #[test]
    fn parses_rows_with_empty_cells_preserved() {
        // The seed's IFS=$'\t' read shifted E into column 4 here; the probe must stay in 6.
        let q = ok("a\tconflict\tq?\ttok\t\tE\n");
        let row = &q.questions[0];
        assert_eq!(row.general, None);
        assert_eq!(row.probe.as_deref(), Some("E"));
        assert_eq!(row.kind, Kind::Conflict);
        assert_eq!(row.line, 1);
    }

    #[test]
    fn four_five_and_six_columns() {
        let q = ok("a\tpositive\tq?\tt1\nb\tconflict\tq?\tt2\tg\nc\tnegative\tq?\tt3\t\tp\n");
        assert_eq!(q.len(), 3);
        assert_eq!(q.questions[1].general.as_deref(), Some("g"));
        assert_eq!(q.questions[2].probe.as_deref(), Some("p"));
        assert_eq!(q.count(Kind::Negative), 1);
        assert_eq!(q.get("b").unwrap().token, "t2");
        assert_eq!(q.of_kind(Kind::Positive).count(), 1);
    }

    #[test]
    fn comments_blank_lines_and_header_keep_line_numbers() {
        let text = "# a comment\n\nqid\tkind\tquestion\ttoken\tgeneral\tprobe\n   \n  # indented comment\na\tpositive\tq?\tt\n\t\t\nb\tnegative\tq?\tt\n";
        let q = ok(text);
        assert_eq!(q.len(), 2);
        assert_eq!(q.questions[0].line, 6);
        assert_eq!(q.questions[1].line, 8);
    }

    #[test]
    fn runs_of_empty_lines_are_counted() {
        let q = ok("\n\n\na\tpositive\tq?\tt\n\n\r\n\nb\tpositive\tq?\tt\n");
        assert_eq!(q.questions[0].line, 4);
        assert_eq!(q.questions[1].line, 8);
        let e = err(b"\n\na\tpositive\tq?\tt\n\n\n\nb\tbogus\tq?\tt\n");
        assert_eq!(e.line(), Some(7), "{e}");
    }

    #[test]
    fn short_header_is_accepted_but_only_first() {
        let q = ok("qid\tkind\tquestion\ttoken\na\tpositive\tq?\tt\n");
        assert_eq!(q.len(), 1);
        let e = err(b"a\tpositive\tq?\tt\nqid\tkind\tquestion\ttoken\n");
        assert!(matches!(e, Error::UnknownKind { line: 2, .. }), "{e}");
    }

    #[test]
    fn bom_is_stripped_and_crlf_accepted() {
        let q = ok("\u{feff}a\tpositive\tq?\ttok\r\nb\tconflict\tq?\tt\tgen\r\n");
        assert_eq!(q.questions[0].qid, "a");
        assert_eq!(q.questions[0].token, "tok");
        assert_eq!(q.questions[1].general.as_deref(), Some("gen"));
        // BOM before a header too.
        let q = ok("\u{feff}qid\tkind\tquestion\ttoken\r\na\tpositive\tq?\ttok\r\n");
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn wrong_column_count_names_line() {
        let e = err(b"# c\na\tpositive\tq?\n");
        assert!(
            matches!(
                e,
                Error::ColumnCount {
                    line: 2,
                    found: 3,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string().starts_with("q.tsv:2: wrong column count: 3"),
            "{e}"
        );
        assert!(!e.to_string().contains("spaces"), "{e}");
        let e = err(b"a\tpositive\tq?\tt\tg\tp\textra\n");
        assert!(matches!(e, Error::ColumnCount { found: 7, .. }), "{e}");
        // An editor that turned the tabs into spaces: one cell, and the hint says so.
        let e = err(b"q1   positive   What is it?   zzx1\n");
        assert!(matches!(e, Error::ColumnCount { found: 1, .. }), "{e}");
        assert!(e.to_string().contains("separated by spaces"), "{e}");
    }

    #[test]
    fn unknown_kind() {
        let e = err(b"a\tPositive\tq?\tt\n");
        assert!(matches!(e, Error::UnknownKind { line: 1, .. }), "{e}");
        assert!(e.to_string().contains("unknown kind in column 2"), "{e}");
        // A shifted row can put a token in the kind column: the message never echoes it.
        let e = err(b"a\tsecretish\tq?\tt\n");
        assert!(!e.to_string().contains("secretish"), "{e}");
        assert!(e.to_string().contains("a value of 9 characters"), "{e}");
        // A near-spelling of a kind is a typo, shown with the kind it misspells.
        let e = err(b"a\tnegtive\tq?\tt\n");
        assert!(
            e.to_string().contains("`negtive`: did you mean negative?"),
            "{e}"
        );
        let e = err(b"a\tPositive\tq?\tt\n");
        assert!(e.to_string().contains("did you mean positive?"), "{e}");
    }

    #[test]
    fn empty_token_and_question() {
        let e = err(b"a\tpositive\tq?\t\n");
        assert!(matches!(e, Error::EmptyToken { line: 1, .. }), "{e}");
        let e = err(b"a\tpositive\t\tt\n");
        assert!(matches!(e, Error::EmptyQuestion { line: 1, .. }), "{e}");
        let e = err(b"a\tpositive\t  \tt\n");
        assert!(matches!(e, Error::EmptyQuestion { .. }), "{e}");
    }

    #[test]
    fn duplicate_qid_names_both_lines() {
        let e = err(b"a\tpositive\tq?\tt\n\na\tnegative\tq?\tu\n");
        assert!(
            matches!(
                e,
                Error::DuplicateQid {
                    line: 3,
                    first_line: 1,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("first on line 1"));
    }

    #[test]
    fn bad_qid() {
        for bad in ["a b", "a.b", "ä", "a/b"] {
            let e = err(format!("{bad}\tpositive\tq?\tt\n").as_bytes());
            assert!(matches!(e, Error::BadQid { .. }), "{bad}: {e}");
        }
        let e = err(b"\tpositive\tq?\tt\n");
        assert!(matches!(e, Error::BadQid { .. }), "{e}");
        ok("A-z_09\tpositive\tq?\tt\n");
    }

    #[test]
    fn control_characters_in_values() {
        let e = err(b"a\tpositive\tq\r?\tt\n");
        assert!(
            matches!(
                e,
                Error::ControlInValue {
                    line: 1,
                    column: "question",
                    what: "carriage return",
                    ..
                }
            ),
            "{e}"
        );
        // A lone CR in the last value (not a CRLF line end) is still a value CR.
        let e = err(b"a\tpositive\tq?\tt\r\r\n");
        assert!(
            matches!(
                e,
                Error::ControlInValue {
                    column: "token",
                    ..
                }
            ),
            "{e}"
        );
        // A tab inside a value shows up as one column too many.
        let e = err(b"a\tpositive\tq\t?\tt\tg\tp\n");
        assert!(matches!(e, Error::ColumnCount { found: 7, .. }), "{e}");
        assert!(check_control("f", 1, "token", "a\nb").is_err());
        assert!(check_control("f", 1, "token", "a\tb").is_err());
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let e = err(b"a\tpositive\tq?\tt\nb\tpositive\tq?\t\xff\n");
        assert!(matches!(e, Error::InvalidUtf8 { line: 2, .. }), "{e}");
        assert!(e.to_string().starts_with("q.tsv:2: invalid UTF-8"));
        let e = err(b"# comment \xc3\x28\na\tpositive\tq?\tt\n");
        assert!(matches!(e, Error::InvalidUtf8 { line: 1, .. }), "{e}");
    }

    #[test]
    fn general_only_for_conflict() {
        let e = err(b"a\tpositive\tq?\tt\tg\n");
        assert!(
            matches!(e, Error::GeneralOnNonConflict { line: 1, .. }),
            "{e}"
        );
        ok("a\tconflict\tq?\tt\tg\n");
    }

    #[test]
    fn padded_token_or_general() {
        let e = err(b"a\tpositive\tq?\t t\n");
        assert!(
            matches!(
                e,
                Error::PaddedValue {
                    column: "token",
                    ..
                }
            ),
            "{e}"
        );
        let e = err(b"a\tconflict\tq?\tt\tg \n");
        assert!(
            matches!(
                e,
                Error::PaddedValue {
                    column: "general",
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn zero_scoreable_rows_is_unmeasured() {
        for text in [
            "",
            "\n\n",
            "# only comments\n",
            "qid\tkind\tquestion\ttoken\n",
            "\u{feff}",
        ] {
            let e = err(text.as_bytes());
            assert!(e.is_unmeasured(), "{text:?}: {e}");
            assert_eq!(e.line(), None);
        }
        assert!(!err(b"a\tpositive\tq?\n").is_unmeasured());
    }

    #[test]
    fn tokens_are_kept_verbatim() {
        let q = ok("a\tpositive\tq?\ta.b*c\nb\tnegative\t\"quoted\" q\t-x9\n");
        assert_eq!(q.questions[0].token, "a.b*c");
        assert_eq!(q.questions[1].question, "\"quoted\" q");
        assert_eq!(q.questions[1].token, "-x9");
    }

    #[test]
    fn last_line_without_newline() {
        let q = ok("a\tpositive\tq?\tt");
        assert_eq!(q.questions[0].token, "t");
    }
}
