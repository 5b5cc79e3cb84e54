//! The one counting rule every number of a round obeys, in every consumer (the report's lines,
//! `summary.json`, the HTML bars, `compare`): **decided rows only**. A row no reader decided
//! (`UNDETERMINED`, `CONTESTED`) is outside every count, never scored at its guess, and is
//! listed beside the number it would have entered.

use crate::summary::Proportion;
use crate::Row;

/// Whether a row enters the counts: a reader (or a person) decided its class.
pub fn counts(row: &Row) -> bool {
    row.standing.decided()
}

/// The rows that enter the counts.
pub fn decided(rows: &[Row]) -> Vec<Row> {
    rows.iter().filter(|r| counts(r)).cloned().collect()
}

/// `k/n` over the decided rows matching `of`, `k` those matching `hit`, with the interval over
/// items (see [`Proportion`]).
pub fn proportion(
    rows: &[Row],
    of: impl Fn(&Row) -> bool,
    hit: impl Fn(&Row) -> bool,
) -> Proportion {
    Proportion::count(rows.iter(), |r| counts(r) && of(r), hit)
}

/// `n` and the noun, singular for exactly one: `1 item`, `3 items`.
pub fn n_of(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The rows matching `of` that are left out of the count: no reader decided them.
pub fn left_out(rows: &[Row], of: impl Fn(&Row) -> bool) -> Vec<&Row> {
    rows.iter().filter(|r| !counts(r) && of(r)).collect()
}
