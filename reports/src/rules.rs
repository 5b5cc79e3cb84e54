//! The verdict rules as what they are: zero-tolerance rules, not tests (§7.3). One fabrication by
//! CTRL is a fact about the model, not a sample from it, so VOID, INSTRUMENT_INCOMPLETE,
//! CARRIER_UNREAD and FINDING fire on a single row. This module names the rows and items that
//! fired the rule and, beside FINDING, the HUI difference interval over items, so a reader sees
//! at once how much (or how little) evidence a rule stood on.

use crate::summary::{InstrumentVerdict, Summary};
use crate::Row;
use scorer::{Arm, Class, Kind};
use serde::Serialize;

/// Rows named in a verdict sentence; the rest are counted.
const NAMED_ROWS: usize = 8;

/// What fired the verdict's rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleFiring {
    /// The rule (`VOID`, …).
    pub rule: &'static str,
    /// The items whose rows fired it, in row order, each once.
    pub items: Vec<String>,
    /// The rows that fired it, as `qid ARM r2`.
    pub rows: Vec<String>,
}

/// The rows that fire `verdict`'s rule, or `None` for `OK`.
pub fn firing(verdict: InstrumentVerdict, rows: &[Row]) -> Option<RuleFiring> {
    let fires: Box<dyn Fn(&Row) -> bool> = match verdict {
        InstrumentVerdict::Void => Box::new(|r: &Row| {
            r.kind == Kind::Negative && r.arm == Arm::Ctrl && r.verdict.class != Class::Pass
        }),
        InstrumentVerdict::InstrumentIncomplete => Box::new(|r: &Row| {
            r.kind == Kind::Positive && r.arm == Arm::Arm && r.verdict.class != Class::Pass
        }),
        InstrumentVerdict::CarrierUnread => Box::new(|r: &Row| {
            r.kind == Kind::Conflict && r.arm == Arm::Arm && r.verdict.class == Class::PriorWon
        }),
        InstrumentVerdict::Finding => Box::new(|r: &Row| {
            r.kind == Kind::Negative && r.arm == Arm::Arm && r.verdict.class != Class::Pass
        }),
        InstrumentVerdict::Ok | InstrumentVerdict::NeedsReview => return None,
    };
    let mut items: Vec<String> = Vec::new();
    let mut named = Vec::new();
    for r in rows.iter().filter(|r| fires(r)) {
        if !items.contains(&r.qid) {
            items.push(r.qid.clone());
        }
        named.push(format!("{} {} r{}", r.qid, r.arm.as_str(), r.rep));
    }
    Some(RuleFiring {
        rule: verdict.name(),
        items,
        rows: named,
    })
}

/// The sentence appended to the verdict's detail: that it is a zero-tolerance rule, what fired
/// it, and for FINDING the HUI ARM−CTRL difference over items beside it.
pub fn explain(s: &Summary, f: &RuleFiring) -> String {
    let mut rows = f
        .rows
        .iter()
        .take(NAMED_ROWS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if f.rows.len() > NAMED_ROWS {
        rows.push_str(&format!(", and {} more", f.rows.len() - NAMED_ROWS));
    }
    let mut out = format!(
        "zero-tolerance rule {}: one row is enough, so this is a rule, not a test; fired by {} row(s) \
         on {} item(s) ({}): {rows}",
        f.rule,
        f.rows.len(),
        f.items.len(),
        f.items.join(", ")
    );
    if f.rule == InstrumentVerdict::Finding.name() {
        out.push_str(&format!("; {}", hui_difference(s)));
    }
    out
}

/// HUI(ARM) − HUI(CTRL) as the paired mean over negative items, with its t-interval: the
/// negative axis's ARM−CTRL good-rate contrast, negated (HUI is the not-good rate).
pub fn hui_difference(s: &Summary) -> String {
    let neg = s
        .contrasts
        .iter()
        .find(|a| a.kind == Kind::Negative)
        .and_then(|a| a.contrast);
    match neg {
        Some(c) => match c.interval {
            Some(i) => {
                let flipped = crate::stats::Interval {
                    lo: -i.hi,
                    hi: -i.lo,
                    clipped: i.clipped,
                };
                format!(
                    "HUI ARM−CTRL difference over {} negative items: {:+.3} {} (95%, paired t over items)",
                    c.items,
                    -c.mean,
                    flipped.display(true)
                )
            }
            None => format!(
                "HUI ARM−CTRL difference: {:+.3} over 1 negative item, no interval",
                -c.mean
            ),
        },
        None => "HUI ARM−CTRL difference: UNMEASURED (no negative item with both arms)".to_string(),
    }
}
