//! The scorer crate's one error type: every malformed qset and every unusable lexicon pattern.

use thiserror::Error;

/// Why the scorer refused its input. Qset variants name the file (`file`, the path the caller passed as `source`), the line and the
/// rule broken, so an author can fix the row without guessing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// The qset is not UTF-8; `line` is where the first invalid byte sits.
    #[error("{file}:{line}: invalid UTF-8 (byte offset {offset}); the qset must be UTF-8")]
    InvalidUtf8 {
        file: String,
        line: usize,
        offset: usize,
    },
    /// A row has fewer than 4 or more than 6 tab-separated cells. A tab inside a value shows
    /// up here, as one cell too many.
    #[error("{file}:{line}: wrong column count: {found} (expected 4 to 6: qid, kind, question, token, [general], [probe]; a tab inside a value adds a column){}", if *.spaced { "; this line looks separated by spaces: columns are separated by tabs" } else { "" })]
    ColumnCount {
        file: String,
        line: usize,
        found: usize,
        /// Too few cells, and the line splits into enough words at spaces: an editor turned
        /// the tabs into spaces.
        spaced: bool,
    },
    /// The qid is empty or holds a character outside `[A-Za-z0-9_-]`. The value is not echoed:
    /// a shifted row can put a token in the qid column, and errors become logs.
    #[error("{file}:{line}: bad qid in column 1 (a value of {} characters; must match [A-Za-z0-9_-]+)", .qid.chars().count())]
    BadQid {
        file: String,
        line: usize,
        qid: String,
    },
    /// The same qid appears twice.
    #[error("{file}:{line}: duplicate qid '{qid}' (first on line {first_line})")]
    DuplicateQid {
        file: String,
        line: usize,
        qid: String,
        first_line: usize,
    },
    /// The kind is not `positive`, `negative` or `conflict` (exact, lowercase). The value is not
    /// echoed: a shifted row puts the question or the token in the kind column.
    #[error("{file}:{line}: unknown kind in column 2 ({}; expected positive, negative or conflict)", kind_shown(.kind))]
    UnknownKind {
        file: String,
        line: usize,
        kind: String,
    },
    /// The question cell is empty.
    #[error("{file}:{line}: empty question")]
    EmptyQuestion { file: String, line: usize },
    /// The token cell is empty: nothing to score against.
    #[error("{file}:{line}: empty token")]
    EmptyToken { file: String, line: usize },
    /// A token or general value has leading or trailing whitespace, which is invisible in an
    /// editor but would have to appear verbatim in the answer.
    #[error("{file}:{line}: {column} has leading or trailing whitespace (it would have to appear verbatim in the answer)")]
    PaddedValue {
        file: String,
        line: usize,
        column: &'static str,
    },
    /// A value holds a tab, carriage return or newline (only possible for a CR in TSV, or for
    /// values checked outside the parser).
    #[error("{file}:{line}: {column} holds a {what}; values must be single-line without tabs")]
    ControlInValue {
        file: String,
        line: usize,
        column: &'static str,
        what: &'static str,
    },
    /// `general` given on a non-conflict row. Rejected rather than ignored: the seed's worst
    /// qset failure was a silently shifted column, and a stray general is what one looks like.
    #[error("{file}:{line}: general is only meaningful for kind conflict, but this row is {kind} (a shifted column?)")]
    GeneralOnNonConflict {
        file: String,
        line: usize,
        kind: String,
    },
    /// The CSV reader itself failed (should not happen with quoting off; kept, never hidden).
    #[error("{file}:{line}: unreadable row: {message}")]
    Read {
        file: String,
        line: usize,
        message: String,
    },
    /// The qset parsed but holds zero scoreable rows: nothing can be measured (exit 12).
    #[error("{file}: UNMEASURED: zero scoreable rows (only comments, blank lines or a header)")]
    Unmeasured { file: String },
    /// A corpus line is not a labelled answer (bad JSON, a missing field, an unknown kind).
    #[error("{file}:{line}: not a corpus row: {message}")]
    Corpus {
        file: String,
        line: usize,
        message: String,
    },
    /// A `harness score --batch` line is not an answer to score.
    #[error("{file}:{line}: not a batch row: {message}")]
    Batch {
        file: String,
        line: usize,
        message: String,
    },
    /// A `--lexicon` file is unusable: bad TOML, a pattern that does not compile, or a pattern
    /// that does not match its own observed example.
    #[error("{file}:{line}: {message}")]
    Extension {
        file: String,
        line: usize,
        message: String,
    },
    /// A judge's reply is not a reading under the rubric (not the strict JSON object, a class
    /// the kind does not allow, a contradicting `refuses`, a reason that is not one line).
    #[error("judge reply is no reading: {message}")]
    Judgement { message: String },
    /// A lexicon pattern failed to compile; `index` is its position in `list`.
    #[error("{list} pattern #{index} `{pattern}` does not compile: {message}")]
    Pattern {
        list: &'static str,
        index: usize,
        pattern: String,
        message: String,
    },
}

impl Error {
    /// True for the zero-scoreable-rows case, which the binary maps to exit 12 (not 2).
    pub fn is_unmeasured(&self) -> bool {
        matches!(self, Error::Unmeasured { .. })
    }

    /// The qset line the error names, when there is one.
    pub fn line(&self) -> Option<usize> {
        match self {
            Error::InvalidUtf8 { line, .. }
            | Error::ColumnCount { line, .. }
            | Error::BadQid { line, .. }
            | Error::DuplicateQid { line, .. }
            | Error::UnknownKind { line, .. }
            | Error::EmptyQuestion { line, .. }
            | Error::EmptyToken { line, .. }
            | Error::PaddedValue { line, .. }
            | Error::ControlInValue { line, .. }
            | Error::GeneralOnNonConflict { line, .. }
            | Error::Read { line, .. }
            | Error::Corpus { line, .. }
            | Error::Batch { line, .. }
            | Error::Extension { line, .. } => Some(*line),
            Error::Unmeasured { .. } | Error::Pattern { .. } | Error::Judgement { .. } => None,
        }
    }
}

/// An unknown kind as an error shows it: a near-spelling of a kind (`negtive`, `Positive`) is a
/// typo and is shown with the kind it misspells; anything else may be a shifted token and is
/// described by its length only.
fn kind_shown(kind: &str) -> String {
    let lower = kind.to_lowercase();
    let near = ["positive", "negative", "conflict"]
        .into_iter()
        .map(|k| (edit_distance(&lower, k), k))
        .filter(|(d, _)| *d <= 2)
        .min();
    match near {
        Some((_, k)) if kind.chars().all(|c| c.is_ascii_alphabetic()) => {
            format!("`{kind}`: did you mean {k}?")
        }
        _ => format!("a value of {} characters", kind.chars().count()),
    }
}

/// Levenshtein distance over characters: how many one-character edits turn `a` into `b`. For
/// "did you mean" hints across the workspace.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
