//! `verdicts.csv`: one row per dispatch (§7.1), and the reader that takes it back.
//!
//! Columns: `status,qid,kind,arm,rep,verdict,clarify,label,excerpt`. `status` is the watermark
//! (`VOID`, `CONTAMINATED`, `VOID+CONTAMINATED`, …) on every row of a watermarked round and empty
//! otherwise; it is first so a row copied alone carries it. The excerpt is sanitized (one line,
//! capped) and quoted by the csv crate.
//!
//! Every cell passes through [`neutralise`]: an answer excerpt starting with `=` would run as a
//! formula when a reviewer opens the file in a spreadsheet (OWASP "CSV injection").

use crate::sanitize;
use crate::{Error, Render, Report, Row};

/// The header, in order.
pub const COLUMNS: [&str; 10] = [
    "status",
    "qid",
    "kind",
    "arm",
    "rep",
    "verdict",
    "clarify",
    "label",
    "excerpt",
    "decided_by",
];

/// Renders `verdicts.csv`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Csv;

impl Render for Csv {
    fn render(&self, report: &Report) -> String {
        let status = report.summary.watermark.clone().unwrap_or_default();
        let mut w = ::csv::WriterBuilder::new()
            .terminator(::csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        w.write_record(COLUMNS)
            .expect("writing to a Vec cannot fail");
        for r in &report.rows {
            let cells = [
                status.clone(),
                sanitize::excerpt(&r.qid, 200),
                r.kind.as_str().to_string(),
                r.arm.as_str().to_string(),
                r.rep.to_string(),
                crate::reading::shown(r),
                if r.clarify { "yes" } else { "no" }.to_string(),
                sanitize::excerpt(&r.label, 200),
                sanitize::excerpt(&r.excerpt, sanitize::EXCERPT_MAX),
                crate::reading::decided_by_cell(r, &report.meta),
            ];
            w.write_record(cells.iter().map(|c| neutralise(c).into_owned()))
                .expect("writing to a Vec cannot fail");
        }
        let bytes = w.into_inner().expect("flushing a Vec cannot fail");
        String::from_utf8(bytes).expect("every field is a Rust string")
    }

    fn file_name(&self) -> &'static str {
        "verdicts.csv"
    }
}

/// A cell as written: prefixed with `'` when a spreadsheet would evaluate it (it starts with
/// `=`, `+`, `-`, `@`, a tab or a carriage return, as OWASP lists), or when it already starts
/// with `'` — so [`restore`] can undo the prefix without guessing.
pub fn neutralise(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '\'') => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

/// The text [`neutralise`] was given.
pub fn restore(cell: &str) -> &str {
    cell.strip_prefix('\'').unwrap_or(cell)
}

/// Reads the rows of a `verdicts.csv` back (the `status` column is ignored: the watermark is
/// recomputed from the rows, never trusted from a file). `file` names the input in errors.
pub fn read_rows(text: &str, file: &str) -> Result<Vec<Row>, Error> {
    let mut rdr = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let err = |line: u64, message: String| Error::Csv {
        file: file.to_string(),
        line,
        message,
    };
    let headers = rdr.headers().map_err(|e| err(1, e.to_string()))?.clone();
    // Files written before the `decided_by` column have the first nine columns only.
    let names = headers.iter().collect::<Vec<_>>();
    if names != COLUMNS && names != COLUMNS[..9] {
        return Err(err(1, format!("header is not `{}`", COLUMNS.join(","))));
    }
    let mut rows = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            err(line, e.to_string())
        })?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        let field = |i: usize| restore(rec.get(i).unwrap_or_default());
        let clarify = match field(6) {
            "yes" => true,
            "no" => false,
            other => return Err(err(line, format!("clarify '{other}' is not yes or no"))),
        };
        rows.push(Row {
            qid: field(1).to_string(),
            kind: field(2).parse().map_err(|e| err(line, e))?,
            arm: field(3).parse().map_err(|e| err(line, e))?,
            rep: field(4)
                .parse()
                .map_err(|_| err(line, format!("rep '{}' is not a number", field(4))))?,
            verdict: crate::reading::parse_shown(field(5))
                .map_err(|e| err(line, e))?
                .0,
            standing: match (
                crate::reading::parse_shown(field(5))
                    .map_err(|e| err(line, e))?
                    .1,
                crate::reading::parse_decided_by(field(9)),
            ) {
                (crate::reading::Standing::Decided { .. }, Some(by)) => {
                    crate::reading::Standing::Decided { by }
                }
                (s, _) => s,
            },
            clarify,
            label: field(7).to_string(),
            excerpt: field(8).to_string(),
            readings: None,
        });
    }
    Ok(rows)
}
