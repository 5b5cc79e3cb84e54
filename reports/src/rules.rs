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
pub const NAMED_ROWS: usize = 8;

/// Words of an answer shown beside a fired row: enough to recognise it without the table.
const FIRST_WORDS: usize = 8;

/// What fired the verdict's rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleFiring {
    /// The rule (`VOID`, …).
    pub rule: &'static str,
    /// The items whose rows fired it, in row order, each once.
    pub items: Vec<String>,
    /// The rows that fired it, identical answers of one cell collapsed into one entry.
    pub rows: Vec<FiredRows>,
}

impl RuleFiring {
    /// How many rows fired the rule (every rep counted).
    pub fn row_count(&self) -> usize {
        self.rows.iter().map(|r| r.reps.len()).sum()
    }
}

/// Reps of one question in one arm that fired a rule with the same class and the same answer
/// opening: what a reader needs to find them without scanning the rows table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FiredRows {
    /// The question.
    pub qid: String,
    /// The arm.
    pub arm: Arm,
    /// The reps, ascending.
    pub reps: Vec<u32>,
    /// The class the rows carry.
    pub class: Class,
    /// The answer's first words (sanitized: one line, no control characters).
    pub first_words: String,
}

impl FiredRows {
    /// `n1 CTRL r1,r2 HALLUCINATED "Production runs in eu-west-3…"`.
    pub fn sentence(&self) -> String {
        let reps: Vec<String> = self.reps.iter().map(|r| format!("r{r}")).collect();
        let words = if self.first_words.is_empty() {
            "(empty answer)".to_string()
        } else {
            format!("\"{}\"", self.first_words)
        };
        format!(
            "{} {} {} {} {words}",
            crate::sanitize::excerpt(&self.qid, 40),
            self.arm.as_str(),
            reps.join(","),
            self.class,
        )
    }
}

/// The first [`FIRST_WORDS`] words of an answer on one clean line, `…` when there are more.
pub fn first_words(answer: &str) -> String {
    let line = crate::sanitize::excerpt(answer.trim(), 400);
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = words
        .iter()
        .take(FIRST_WORDS)
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if words.len() > FIRST_WORDS || line.ends_with(crate::sanitize::ELLIPSIS) {
        out.push(crate::sanitize::ELLIPSIS);
    }
    out
}

/// The rows that fire `verdict`'s rule, or `None` for `OK` and `NEEDS_REVIEW`. `rows` are the
/// decided rows the rule judges.
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
    let mut named: Vec<FiredRows> = Vec::new();
    for r in rows.iter().filter(|r| r.standing.decided() && fires(r)) {
        if !items.contains(&r.qid) {
            items.push(r.qid.clone());
        }
        let words = first_words(&r.excerpt);
        match named.iter_mut().find(|n| {
            n.qid == r.qid && n.arm == r.arm && n.class == r.verdict.class && n.first_words == words
        }) {
            Some(n) => n.reps.push(r.rep),
            None => named.push(FiredRows {
                qid: r.qid.clone(),
                arm: r.arm,
                reps: vec![r.rep],
                class: r.verdict.class,
                first_words: words,
            }),
        }
    }
    for n in &mut named {
        n.reps.sort_unstable();
    }
    Some(RuleFiring {
        rule: verdict.name(),
        items,
        rows: named,
    })
}

/// The rule's own words (no answer text in them): that it is a zero-tolerance rule, how many
/// rows on which items fired it, and for FINDING the HUI ARM−CTRL difference over items.
pub fn rule_sentence(s: &Summary, f: &RuleFiring) -> String {
    let mut out = format!(
        "zero-tolerance rule {}: one row is enough, so this is a rule, not a test; fired by {} row(s) \
         on {} item(s) ({})",
        f.rule,
        f.row_count(),
        f.items.len(),
        f.items
            .iter()
            .map(|q| crate::sanitize::excerpt(q, 40))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if f.rule == InstrumentVerdict::Finding.name() {
        out.push_str(&format!("; {}", hui_difference(s)));
    }
    out
}

/// The sentence appended to the verdict's detail: [`rule_sentence`], then the rows that fired
/// it (item, arm, reps, class and the answer's first words), at most [`NAMED_ROWS`] of them.
pub fn explain(s: &Summary, f: &RuleFiring) -> String {
    let mut rows = f
        .rows
        .iter()
        .take(NAMED_ROWS)
        .map(FiredRows::sentence)
        .collect::<Vec<_>>()
        .join("; ");
    if f.rows.len() > NAMED_ROWS {
        rows.push_str(&format!("; and {} more", f.rows.len() - NAMED_ROWS));
    }
    format!("{}: {rows}", rule_sentence(s, f))
}

/// HUI(ARM) − HUI(CTRL) over negative items: the median item difference with the interval the
/// exact sign test inverts to, and its p (one method), negated from the negative axis's
/// good-rate contrast (HUI is the not-good rate).
pub fn hui_difference(s: &Summary) -> String {
    let neg = s
        .contrasts
        .iter()
        .find(|a| a.kind == Kind::Negative)
        .and_then(|a| a.contrast);
    match neg {
        Some(c) => {
            let flipped = crate::stats::Interval {
                lo: -c.interval.hi,
                hi: -c.interval.lo,
                clipped: c.interval.clipped,
            };
            format!(
                "HUI ARM−CTRL difference over {} negative item{}: median {:+.3} {}{} (95%, exact sign test over items, p={:.4})",
                c.items,
                if c.items == 1 { "" } else { "s" },
                -c.median,
                flipped.display(true),
                if c.whole_range { " (whole range: too few items)" } else { "" },
                c.p
            )
        }
        None => "HUI ARM−CTRL difference: UNMEASURED (no negative item with both arms)".to_string(),
    }
}
