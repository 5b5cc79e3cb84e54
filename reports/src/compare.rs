//! `harness compare A B`: did round B's hand-off carry more than round A's, on the same sealed
//! questions? Pure: two reports and what their records say about them go in, a [`Comparison`]
//! and its four renderings (text, Markdown, JSON, HTML) come out.
//!
//! It counts exactly the rows each round's own report counts ([`crate::counting`]: decided rows
//! only; rows no reader decided are listed, never scored at a guess). Items are the unit of
//! every test and interval, and the two rounds are paired by item: per axis the A→B item
//! differences of ARM rates are summarised by one method, the exact sign test over items and
//! the median-difference interval it inverts to (so the interval excludes 0 exactly when
//! p < 0.05). Only ARM is compared: it is the arm the hand-off reaches. Two rounds are
//! comparable only on the same sealed qset and the same base; a round is never compared with
//! itself or a byte copy of itself.

use crate::counting;
use crate::sanitize;
use crate::stats::{self, SignSummary};
use crate::summary::{is_good, InstrumentVerdict};
use crate::{Proportion, Report, Row};
use scorer::{Arm, Kind};
use serde::Serialize;
use serde_json::json;
use std::fmt::Write;

/// One round's own instrument verdict, as its report gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundVerdict {
    /// The round (its out-dir).
    pub round: String,
    /// Its verdict.
    pub verdict: InstrumentVerdict,
}

/// What a round's record says about how it ran: the fields a comparison checks or states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundIdentity {
    /// How the round is named on the command line (its out-dir).
    pub name: String,
    /// sha256 of the qset bytes.
    pub qset_sha256: String,
    /// The base commit.
    pub base_sha: String,
    /// The seal's file name; `None` for a CTRL-only round. Untrusted text.
    pub seal_name: Option<String>,
    /// sha256 of the seal bytes; `None` for a CTRL-only round.
    pub seal_sha256: Option<String>,
    /// The agent.
    pub agent: String,
    /// The agent CLI's `--version` line when the round recorded one.
    pub agent_version: Option<String>,
    /// The model, when given.
    pub model: Option<String>,
    /// The harness version that ran it.
    pub harness_version: String,
    /// sha256 of the protocol file; `None` when the round ran without one.
    pub protocol_sha256: Option<String>,
    /// Per-dispatch timeout, seconds.
    pub timeout_secs: u64,
    /// Reps per (question, arm).
    pub reps: u32,
    /// The sandbox mode.
    pub sandbox: String,
    /// The scorer's fingerprint.
    pub scorer: String,
    /// The judge that read the answers (spec, model, rubric); `None` when none did.
    pub judge: Option<String>,
    /// `--deliver`.
    pub deliver: bool,
    /// How many rounds of this one design were pooled (1 for a single round).
    pub rounds: u32,
    /// sha256 of each pooled round's `round.json`: two rounds with one of these in common are
    /// the same round (a byte copy records the same start, seed and labels).
    pub fingerprints: Vec<String>,
    /// Each pooled round's own verdict.
    pub verdicts: Vec<RoundVerdict>,
}

/// A round's ledger as a comparison states it: `strict`, or `report` with the positives its
/// seal does not carry (a thinner hand-off is what a comparison often measures).
fn ledger_word(m: &crate::RoundMeta) -> String {
    if !m.ledger_reports() {
        return crate::LEDGER_STRICT.into();
    }
    if m.uncarried.is_empty() {
        "report (every positive carried)".into()
    } else {
        format!("report (seal lacks {})", m.uncarried.join(", "))
    }
}

/// Whether the round ran against a manifest, and whether it sealed the design too: a sealed
/// round and an unsealed one are not one setup twice.
fn sealed_word(m: &crate::RoundMeta) -> String {
    match m.manifest {
        crate::ManifestStatus::Match if m.design_sealed => {
            "yes (manifest matched, design sealed)".into()
        }
        crate::ManifestStatus::Match => {
            "inputs only (manifest matched; the design was not sealed)".into()
        }
        crate::ManifestStatus::Unverified => "no (run without a manifest: UNVERIFIED)".into(),
        crate::ManifestStatus::JudgeChanged => {
            "no (read by another judge than the sealed one: JUDGE_CHANGED)".into()
        }
    }
}

/// Why two rounds are not compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// They ran other questions or another base: the field and its two values.
    Incomparable {
        /// `qset` or `base`.
        field: &'static str,
        /// A's value.
        a: String,
        /// B's value.
        b: String,
    },
    /// A and B are one round (the same folder, or a byte copy): there is nothing to compare.
    SameRound {
        /// Which rounds, and how that was seen.
        why: String,
    },
}

/// Which way an item's majority outcome moved from A to B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flip {
    /// Good in A (more than half the decided reps), not good in B.
    GoodToBad,
    /// Not good in A, good in B.
    BadToGood,
}

/// One item, A against B (decided ARM rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemComparison {
    /// The item.
    pub qid: String,
    /// Its kind.
    pub kind: Kind,
    /// A's decided ARM rows of the item that are good for its kind (a positive's PASS, a
    /// negative's PASS (it abstained), a conflict's CONFLICT_FOLLOWED), of its decided ARM
    /// rows: every kind reads the same way, higher is better.
    pub a: Proportion,
    /// B's.
    pub b: Proportion,
    /// `good rate B − good rate A` (a drop in HUI is a rise here); `None` when a side has no
    /// decided ARM rows for the item.
    pub diff: Option<f64>,
    /// The majority flip, when there is one.
    pub flip: Option<Flip>,
    /// A's ARM rows of the item no reader decided (`qid ARM rN STATE`), outside every count.
    pub left_out_a: Vec<String>,
    /// B's.
    pub left_out_b: Vec<String>,
    /// A's answers (untrusted; sanitized by every renderer); undecided ones marked.
    pub answers_a: Vec<String>,
    /// B's answers.
    pub answers_b: Vec<String>,
}

/// One axis, A against B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AxisComparison {
    /// The axis.
    pub kind: Kind,
    /// What is compared (`DELIVERY (ARM)`, `HUI (ARM)`, `CARRIER-READ (ARM)`).
    pub name: &'static str,
    /// A's rate over its decided ARM rows of the axis, interval over items: the same number
    /// A's own report prints.
    pub a: Proportion,
    /// B's.
    pub b: Proportion,
    /// Rows of the axis no reader decided, A then B.
    pub left_out: (usize, usize),
    /// The items' B−A differences (towards good), by the exact sign test and its interval;
    /// `None` with no item measured on both sides.
    pub sign: Option<SignSummary>,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Round A.
    pub a: RoundIdentity,
    /// Round B.
    pub b: RoundIdentity,
    /// Rounds whose own verdict says their numbers are not claims (VOID, INSTRUMENT_INCOMPLETE,
    /// CARRIER_UNREAD) or are not settled (NEEDS_REVIEW): named before any number.
    pub cautions: Vec<String>,
    /// What differs between the rounds: `(field, A, B)`, stated first in every format.
    pub differences: Vec<(String, String, String)>,
    /// Every design field is equal: the result is the noise floor of this setup.
    pub noise_floor: bool,
    /// Per axis.
    pub axes: Vec<AxisComparison>,
    /// Per item, in A's qset order.
    pub items: Vec<ItemComparison>,
    /// The one sentence that answers "did B carry more than A?".
    pub bottom_line: String,
    /// What so few items can and cannot show.
    pub small_sample: Vec<String>,
}

/// The axis's name and whether its rate counts the good rows (`true`) or the not-good (HUI).
fn axis(kind: Kind) -> (&'static str, bool) {
    match kind {
        Kind::Positive => ("DELIVERY (ARM)", true),
        Kind::Negative => ("HUI (ARM)", false),
        Kind::Conflict => ("CARRIER-READ (ARM)", true),
    }
}

fn hit(kind: Kind) -> impl Fn(&Row) -> bool {
    let (_, good) = axis(kind);
    move |r| is_good(r) == good
}

/// A verdict whose numbers a comparison must not pass off as claims.
fn caution(v: InstrumentVerdict) -> Option<&'static str> {
    match v {
        InstrumentVerdict::Void => {
            Some("its control fabricated on a negative; its numbers are not claims")
        }
        InstrumentVerdict::InstrumentIncomplete => {
            Some("its known-positive ARM was not perfect; its numbers are not claims")
        }
        InstrumentVerdict::CarrierUnread => {
            Some("ARM gave the repository's own value more often than the planted one; its DELIVERY cannot be quoted as what the hand-off delivered")
        }
        InstrumentVerdict::NeedsReview => {
            Some("its verdict depends on rows no reader decided (`harness review`)")
        }
        _ => None,
    }
}

fn seal_word(r: &RoundIdentity) -> String {
    match (&r.seal_name, &r.seal_sha256) {
        (Some(n), Some(s)) => format!("{n} (sha256 {s})"),
        (None, Some(s)) => format!("(unnamed) (sha256 {s})"),
        (_, None) => "(none)".into(),
    }
}

/// Whether a person settled any of the round's rows (`harness review`).
fn person_word(r: &Report) -> String {
    if r.summary.decided_by.get("person").copied().unwrap_or(0) > 0 {
        "yes".into()
    } else {
        "no".into()
    }
}

/// Compares two rounds, or says why not.
pub fn compare(
    a: &RoundIdentity,
    ra: &Report,
    b: &RoundIdentity,
    rb: &Report,
) -> Result<Comparison, Refusal> {
    if let Some(f) = a.fingerprints.iter().find(|f| b.fingerprints.contains(f)) {
        return Err(Refusal::SameRound {
            why: format!(
                "A ({}) and B ({}) hold the same round (round.json sha256 {f}); a round compared with itself or a copy of itself shows nothing",
                a.name, b.name
            ),
        });
    }
    if a.qset_sha256 != b.qset_sha256 {
        return Err(Refusal::Incomparable {
            field: "qset",
            a: a.qset_sha256.clone(),
            b: b.qset_sha256.clone(),
        });
    }
    if a.base_sha != b.base_sha {
        return Err(Refusal::Incomparable {
            field: "base",
            a: a.base_sha.clone(),
            b: b.base_sha.clone(),
        });
    }
    let opt = |o: &Option<String>, none: &str| o.clone().unwrap_or_else(|| none.into());
    let mut differences = Vec::new();
    for (field, x, y) in [
        ("seal", seal_word(a), seal_word(b)),
        ("sealed", sealed_word(&ra.meta), sealed_word(&rb.meta)),
        ("agent", a.agent.clone(), b.agent.clone()),
        (
            "CLI version",
            opt(&a.agent_version, "(not recorded)"),
            opt(&b.agent_version, "(not recorded)"),
        ),
        ("model", opt(&a.model, "(none)"), opt(&b.model, "(none)")),
        (
            "harness version",
            a.harness_version.clone(),
            b.harness_version.clone(),
        ),
        (
            "protocol",
            opt(&a.protocol_sha256, "(none)"),
            opt(&b.protocol_sha256, "(none)"),
        ),
        (
            "timeout",
            format!("{}s", a.timeout_secs),
            format!("{}s", b.timeout_secs),
        ),
        ("reps", a.reps.to_string(), b.reps.to_string()),
        ("rounds pooled", a.rounds.to_string(), b.rounds.to_string()),
        ("sandbox", a.sandbox.clone(), b.sandbox.clone()),
        ("scorer", a.scorer.clone(), b.scorer.clone()),
        ("judge", opt(&a.judge, "(none)"), opt(&b.judge, "(none)")),
        ("person review", person_word(ra), person_word(rb)),
        ("deliver", a.deliver.to_string(), b.deliver.to_string()),
        ("ledger", ledger_word(&ra.meta), ledger_word(&rb.meta)),
    ] {
        if x != y {
            differences.push((field.to_string(), x, y));
        }
    }
    let noise_floor = differences.is_empty();
    let mut cautions = Vec::new();
    for (side, id) in [("A", a), ("B", b)] {
        for v in &id.verdicts {
            if let Some(why) = caution(v.verdict) {
                cautions.push(format!(
                    "{side} round {} is {}: {why}",
                    v.round,
                    v.verdict.name()
                ));
            }
        }
    }

    let mut items = Vec::new();
    for q in &ra.meta.questions {
        let kind = q.kind;
        let of = |r: &Row| r.arm == Arm::Arm && r.qid == q.qid;
        // Every kind's rows count the good outcome of that kind (a negative's is an
        // abstention, not HUI's fabrication), so every per-item line reads the same way.
        let count = |rows: &[Row]| counting::proportion(rows, of, is_good);
        let (pa, pb) = (count(&ra.rows), count(&rb.rows));
        let diff = match (pa.p(), pb.p()) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        };
        let majority = |p: &Proportion| match (2 * p.k).cmp(&p.n) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        };
        let good = |p: &Proportion| majority(p);
        let flip = match (pa.n > 0 && pb.n > 0, good(&pa), good(&pb)) {
            (true, Some(true), Some(false)) => Some(Flip::GoodToBad),
            (true, Some(false), Some(true)) => Some(Flip::BadToGood),
            _ => None,
        };
        let left = |rows: &[Row]| {
            counting::left_out(rows, of)
                .iter()
                .map(|r| {
                    format!(
                        "{} {} r{} {}",
                        r.qid,
                        r.arm,
                        r.rep,
                        r.standing.undecided_name().unwrap_or("UNDETERMINED")
                    )
                })
                .collect::<Vec<_>>()
        };
        let answers = |rows: &[Row]| {
            rows.iter()
                .filter(|r| of(r))
                .map(|r| match r.standing.undecided_name() {
                    None => r.excerpt.clone(),
                    Some(s) => format!("[{s}: not counted] {}", r.excerpt),
                })
                .collect()
        };
        items.push(ItemComparison {
            qid: q.qid.clone(),
            kind,
            a: pa,
            b: pb,
            diff,
            flip,
            left_out_a: left(&ra.rows),
            left_out_b: left(&rb.rows),
            answers_a: answers(&ra.rows),
            answers_b: answers(&rb.rows),
        });
    }
    let axes: Vec<AxisComparison> = Kind::ALL
        .iter()
        .map(|&kind| axis_comparison(kind, ra, rb, &items))
        .collect();
    let bottom_line = bottom_line(&axes, &items);
    let small_sample = small_sample(&axes);
    Ok(Comparison {
        a: a.clone(),
        b: b.clone(),
        cautions,
        differences,
        noise_floor,
        axes,
        items,
        bottom_line,
        small_sample,
    })
}

fn axis_comparison(
    kind: Kind,
    ra: &Report,
    rb: &Report,
    items: &[ItemComparison],
) -> AxisComparison {
    let of = |r: &Row| r.arm == Arm::Arm && r.kind == kind;
    let diffs: Vec<f64> = items
        .iter()
        .filter(|i| i.kind == kind)
        .filter_map(|i| i.diff)
        .collect();
    AxisComparison {
        kind,
        name: axis(kind).0,
        a: counting::proportion(&ra.rows, of, hit(kind)),
        b: counting::proportion(&rb.rows, of, hit(kind)),
        left_out: (
            counting::left_out(&ra.rows, of).len(),
            counting::left_out(&rb.rows, of).len(),
        ),
        sign: stats::sign_summary(&diffs, (-1.0, 1.0)),
    }
}

/// What `m` items can show: the limit of the exact sign test at that many.
fn limit(m: u64, p: Option<f64>) -> String {
    match stats::items_needed(m) {
        None => format!(
            "with {m} item{} no difference can reach p < 0.05",
            if m == 1 { "" } else { "s" }
        ),
        Some(u) => format!(
            "exact sign test over {m} items p = {}; p < 0.05 needs at least {u} of {m} items moving one way and none of the rest against",
            crate::stats::p_text(p.unwrap_or(1.0))
        ),
    }
}

fn qids(items: &[&ItemComparison]) -> String {
    items
        .iter()
        .map(|i| sanitize::excerpt(&i.qid, 60))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one sentence that answers "did B carry more than A?", on the positives: which items
/// B carried that A did not (and the reverse), and what that many items can show.
fn bottom_line(axes: &[AxisComparison], items: &[ItemComparison]) -> String {
    let pos: Vec<&ItemComparison> = items.iter().filter(|i| i.kind == Kind::Positive).collect();
    let sign = axes
        .iter()
        .find(|a| a.kind == Kind::Positive)
        .and_then(|a| a.sign);
    let Some(sign) = sign else {
        return "Whether B carried more than A is not measured: no positive item has decided ARM rows in both rounds".into();
    };
    let more: Vec<&ItemComparison> = pos
        .iter()
        .copied()
        .filter(|i| i.diff.is_some_and(|d| d > 0.0))
        .collect();
    let fewer: Vec<&ItemComparison> = pos
        .iter()
        .copied()
        .filter(|i| i.diff.is_some_and(|d| d < 0.0))
        .collect();
    let list = |v: &[&ItemComparison]| match v.len() {
        0 => "none".to_string(),
        n => format!("{n} ({})", qids(v)),
    };
    let unmeasured = pos.iter().filter(|i| i.diff.is_none()).count();
    let head = match (more.len(), fewer.len()) {
        (0, 0) => "B carried the same positives as A, none more and none fewer".to_string(),
        (_, 0) => format!(
            "B carried {} more positive{} than A ({}), none fewer",
            more.len(),
            if more.len() == 1 { "" } else { "s" },
            qids(&more)
        ),
        (0, _) => format!(
            "B carried {} fewer positive{} than A ({}), none more",
            fewer.len(),
            if fewer.len() == 1 { "" } else { "s" },
            qids(&fewer)
        ),
        _ => format!(
            "B carried more than A on {} and less on {}",
            list(&more),
            list(&fewer)
        ),
    };
    let gap = if unmeasured > 0 {
        format!(
            " ({unmeasured} positive item{} without decided rows on a side not counted)",
            if unmeasured == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    };
    format!("{head}{gap}; {}", limit(sign.items, Some(sign.p)))
}

fn small_sample(axes: &[AxisComparison]) -> Vec<String> {
    let mut notes = Vec::new();
    for a in axes {
        if let Some(s) = a.sign {
            if s.items < crate::summary::SMALL_SAMPLE {
                notes.push(format!(
                    "{}: {} item{} paired; {}",
                    a.name,
                    s.items,
                    if s.items == 1 { "" } else { "s" },
                    if s.whole_range {
                        format!(
                            "no 95% interval narrower than the whole range exists and the smallest p any result can give is {}",
                            crate::stats::p_text(s.min_p)
                        )
                    } else {
                        format!(
                            "the smallest p any result can give is {}",
                            crate::stats::p_text(s.min_p)
                        )
                    }
                ));
            }
        }
    }
    if !notes.is_empty() {
        notes.push(
            "Small samples: items, not reps or rounds, are the unit; more reps make each item's rate finer but never add items. Per line 95%, unadjusted across the three axes."
                .into(),
        );
    }
    notes
}

impl AxisComparison {
    /// `mean −0.667, median −1.000 [−1.000, +0.000] over 3 items`, or why there is none.
    pub fn diff_display(&self) -> String {
        match &self.sign {
            None => "UNMEASURED (no item with decided ARM rows in both rounds)".into(),
            Some(s) => format!(
                "mean {:+.3}, median {:+.3}, 95% interval of the median {}{} over {} item{}",
                s.mean,
                s.median,
                s.interval.display(true),
                if s.whole_range {
                    " (whole range: too few items for a narrower one)"
                } else {
                    ""
                },
                s.items,
                if s.items == 1 { "" } else { "s" }
            ),
        }
    }

    /// The sign test as printed.
    pub fn sign_display(&self) -> String {
        match &self.sign {
            None => "UNMEASURED (no item measured in both rounds)".into(),
            Some(s) => {
                let (p, min_p) = crate::stats::p_and_min_text(s.p, s.min_p);
                format!(
                    "up {} · down {} · unchanged {} · p={p} (smallest reachable with {} {min_p})",
                    s.up,
                    s.down,
                    s.unchanged,
                    crate::counting::n_of(s.items, "item", "items"),
                )
            }
        }
    }

    /// The rows left out, as printed beside the rates (empty when none).
    pub fn left_out_display(&self) -> String {
        match self.left_out {
            (0, 0) => String::new(),
            (x, y) => {
                format!("undecided rows outside the counts: A {x}, B {y} (never scored at a guess)")
            }
        }
    }
}

impl ItemComparison {
    /// `good A 3/3 → B 0/3`.
    fn counts(&self) -> String {
        format!(
            "good A {}/{} → B {}/{}",
            self.a.k, self.a.n, self.b.k, self.b.n
        )
    }

    /// `+1.000` or `UNMEASURED`.
    fn diff_text(&self) -> String {
        self.diff
            .map(|d| format!("{d:+.3}"))
            .unwrap_or("UNMEASURED".into())
    }

    /// The undecided rows of the item, as printed (empty when none).
    fn left_out_text(&self) -> String {
        let all: Vec<&String> = self.left_out_a.iter().chain(&self.left_out_b).collect();
        if all.is_empty() {
            return String::new();
        }
        let side = |v: &[String], s: &str| (!v.is_empty()).then(|| format!("{s} {}", v.len()));
        let parts: Vec<String> = [side(&self.left_out_a, "A"), side(&self.left_out_b, "B")]
            .into_iter()
            .flatten()
            .collect();
        format!("undecided, not counted: {}", parts.join(", "))
    }
}

impl Comparison {
    /// The first thing every format says after any caution: the noise floor, or what differs.
    pub fn headline(&self) -> String {
        if self.noise_floor {
            "NOISE FLOOR: A and B ran the same seal, sealed design, agent, CLI version, model, \
             harness, protocol, timeout, reps, sandbox, scorer, judge and person review; every \
             difference below is run-to-run noise of this setup"
                .into()
        } else {
            let fields: Vec<&str> = self.differences.iter().map(|d| d.0.as_str()).collect();
            format!(
                "A and B differ in: {} (not a noise floor: every difference below may come from these)",
                fields.join(", ")
            )
        }
    }

    fn flipped(&self) -> impl Iterator<Item = &ItemComparison> {
        self.items.iter().filter(|i| i.flip.is_some())
    }
}

/// How the per-axis numbers are computed, said wherever they are shown.
const METHOD: &str = "rates count decided rows only, 95% interval over items; B−A = the items' \
                      differences of ARM rates towards good (HUI reversed), summarised by the \
                      exact sign test over items and the median-difference interval it inverts \
                      to (unchanged items count against a direction), so the interval excludes 0 \
                      exactly when p < 0.05; the mean is descriptive; per line, unadjusted";

/// What the per-item lines are.
const ITEM_NOTE: &str = "ARM rows decided by a reader; A and B count the rows good for the \
                         item's kind (positive PASS, negative PASS = abstained, conflict \
                         CONFLICT_FOLLOWED), so every line reads the same way: higher is better \
                         and B−A > 0 is towards good; no per-item test: an item's reps are not \
                         independent items";

fn flip_name(f: Flip) -> &'static str {
    match f {
        Flip::GoodToBad => "good→bad",
        Flip::BadToGood => "bad→good",
    }
}

/// Plain text for a terminal.
pub fn text(c: &Comparison) -> String {
    let t = |x: &str, n: usize| sanitize::terminal(x, n);
    let mut s = String::new();
    s.push_str("harness compare\n");
    for w in &c.cautions {
        let _ = writeln!(s, "CAUTION: {}", t(w, 400));
    }
    let _ = writeln!(s, "{}", c.headline());
    for (f, x, y) in &c.differences {
        let _ = writeln!(s, "  {f}: A {} → B {}", t(x, 120), t(y, 120));
    }
    let _ = writeln!(s, "A: {}", t(&c.a.name, 200));
    let _ = writeln!(s, "B: {}", t(&c.b.name, 200));
    let _ = writeln!(s, "seal A: {}", t(&seal_word(&c.a), 200));
    let _ = writeln!(s, "seal B: {}", t(&seal_word(&c.b), 200));
    let _ = writeln!(
        s,
        "same qset {} · same base {}",
        &c.a.qset_sha256, &c.a.base_sha
    );
    let _ = writeln!(s, "\nDid B carry more than A? {}.", t(&c.bottom_line, 2000));
    let _ = writeln!(s, "\n── per axis ({METHOD}) ──");
    for a in &c.axes {
        let _ = writeln!(s, "{}", a.name);
        let _ = writeln!(s, "  A      {}", a.a.display());
        let _ = writeln!(s, "  B      {}", a.b.display());
        let lo = a.left_out_display();
        if !lo.is_empty() {
            let _ = writeln!(s, "  note   {lo}");
        }
        let _ = writeln!(s, "  B−A    {}", a.diff_display());
        let _ = writeln!(s, "  sign   {}", a.sign_display());
    }
    let _ = writeln!(s, "\n── per item ({ITEM_NOTE}) ──");
    for i in &c.items {
        let lo = i.left_out_text();
        let _ = writeln!(
            s,
            "{} {} {}  {}{}{}",
            t(&i.qid, 60),
            i.kind,
            i.counts(),
            i.diff_text(),
            i.flip
                .map(|f| format!("  FLIPPED {}", flip_name(f)))
                .unwrap_or_default(),
            if lo.is_empty() {
                String::new()
            } else {
                format!("  ({lo})")
            }
        );
    }
    let _ = writeln!(s, "\n── flipped items ──");
    let mut any = false;
    for i in c.flipped() {
        any = true;
        let _ = writeln!(s, "{} ({})", t(&i.qid, 60), flip_name(i.flip.unwrap()));
        for a in &i.answers_a {
            let _ = writeln!(s, "  A: {}", t(a, 120));
        }
        for b in &i.answers_b {
            let _ = writeln!(s, "  B: {}", t(b, 120));
        }
    }
    if !any {
        s.push_str("none\n");
    }
    if !c.small_sample.is_empty() {
        s.push_str("\n── small samples ──\n");
        for n in &c.small_sample {
            let _ = writeln!(s, "{n}");
        }
    }
    s
}

/// GitHub-flavoured Markdown.
pub fn markdown(c: &Comparison) -> String {
    let md = |t: &str| sanitize::markdown(t, 200);
    let mut s = String::new();
    s.push_str("# harness compare\n\n");
    for w in &c.cautions {
        let _ = writeln!(s, "**CAUTION:** {}\n", sanitize::markdown(w, 400));
    }
    let _ = writeln!(s, "**{}**\n", c.headline());
    if !c.differences.is_empty() {
        s.push_str("| field | A | B |\n|---|---|---|\n");
        for (f, x, y) in &c.differences {
            let _ = writeln!(s, "| {f} | {} | {} |", md(x), md(y));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "- A: {}\n- B: {}\n- seal A: {}\n- seal B: {}\n- same qset `{}`, same base `{}`\n",
        md(&c.a.name),
        md(&c.b.name),
        md(&seal_word(&c.a)),
        md(&seal_word(&c.b)),
        c.a.qset_sha256,
        c.a.base_sha
    );
    let _ = writeln!(
        s,
        "**Did B carry more than A?** {}.\n",
        sanitize::markdown(&c.bottom_line, 2000)
    );
    let _ = writeln!(s, "## Per axis\n\n{METHOD}\n");
    s.push_str("| axis | A | B | undecided | B−A | sign test |\n|---|---|---|---|---|---|\n");
    for a in &c.axes {
        let _ = writeln!(
            s,
            "| {} | {} | {} | A {} · B {} | {} | {} |",
            a.name,
            a.a.display(),
            a.b.display(),
            a.left_out.0,
            a.left_out.1,
            a.diff_display(),
            a.sign_display()
        );
    }
    let _ = write!(
        s,
        "\n## Per item\n\n{ITEM_NOTE}.\n\n| qid | kind | A good | B good | B−A (towards good) | flip | undecided |\n|---|---|---|---|---|---|---|\n"
    );
    for i in &c.items {
        let _ = writeln!(
            s,
            "| {} | {} | {}/{} | {}/{} | {} | {} | {} |",
            md(&i.qid),
            i.kind,
            i.a.k,
            i.a.n,
            i.b.k,
            i.b.n,
            i.diff_text(),
            i.flip.map(flip_name).unwrap_or(""),
            i.left_out_text()
        );
    }
    s.push_str("\n## Flipped items\n\n");
    let mut any = false;
    for i in c.flipped() {
        any = true;
        let _ = writeln!(s, "### {} ({})\n", md(&i.qid), flip_name(i.flip.unwrap()));
        for a in &i.answers_a {
            let _ = writeln!(s, "- A: {}", md(a));
        }
        for b in &i.answers_b {
            let _ = writeln!(s, "- B: {}", md(b));
        }
        s.push('\n');
    }
    if !any {
        s.push_str("none\n");
    }
    if !c.small_sample.is_empty() {
        s.push_str("\n## Small samples\n\n");
        for n in &c.small_sample {
            let _ = writeln!(s, "- {}", sanitize::markdown(n, 1000));
        }
    }
    s
}

/// One JSON document (`compare_schema_version: 2`).
pub fn json(c: &Comparison) -> String {
    let clean = |t: &str| sanitize::excerpt(t, 500);
    let prop = |p: &Proportion| {
        let i = p.interval();
        json!({"k": p.k, "n": p.n, "items": p.items, "p": p.p(),
               "lo": i.map(|i| i.lo), "hi": i.map(|i| i.hi), "interval_over": "items",
               "counted": "decided rows only"})
    };
    let id = |r: &RoundIdentity| {
        json!({"name": clean(&r.name), "qset_sha256": r.qset_sha256, "base_sha": r.base_sha,
               "seal_name": r.seal_name.as_deref().map(clean), "seal_sha256": r.seal_sha256,
               "agent": clean(&r.agent), "agent_version": r.agent_version.as_deref().map(clean),
               "model": r.model.as_deref().map(clean), "harness_version": r.harness_version,
               "protocol_sha256": r.protocol_sha256, "timeout_secs": r.timeout_secs,
               "reps": r.reps, "rounds": r.rounds, "sandbox": r.sandbox, "scorer": r.scorer,
               "judge": r.judge.as_deref().map(clean), "deliver": r.deliver,
               "round_json_sha256": r.fingerprints,
               "verdicts": r.verdicts.iter().map(|v| json!({"round": clean(&v.round), "verdict": v.verdict.name()})).collect::<Vec<_>>()})
    };
    let doc = json!({
        "compare_schema_version": 2,
        "cautions": c.cautions.iter().map(|w| clean(w)).collect::<Vec<_>>(),
        "headline": c.headline(),
        "noise_floor": c.noise_floor,
        "differences": c.differences.iter().map(|(f, x, y)| json!({"field": f, "a": clean(x), "b": clean(y)})).collect::<Vec<_>>(),
        "a": id(&c.a),
        "b": id(&c.b),
        "bottom_line": clean(&c.bottom_line),
        "method": METHOD,
        "axes": c.axes.iter().map(|a| json!({
            "kind": a.kind, "name": a.name, "a": prop(&a.a), "b": prop(&a.b),
            "undecided": {"a": a.left_out.0, "b": a.left_out.1},
            "sign": a.sign.map(|s| json!({"items": s.items, "up": s.up, "down": s.down,
                "unchanged": s.unchanged, "mean": s.mean, "median": s.median,
                "lo": s.interval.lo, "hi": s.interval.hi, "whole_range": s.whole_range,
                "p": s.p, "min_p": s.min_p})),
        })).collect::<Vec<_>>(),
        "items": c.items.iter().map(|i| json!({
            "qid": clean(&i.qid), "kind": i.kind, "a": prop(&i.a), "b": prop(&i.b),
            "diff": i.diff, "flip": i.flip,
            "undecided_a": i.left_out_a.iter().map(|t| clean(t)).collect::<Vec<_>>(),
            "undecided_b": i.left_out_b.iter().map(|t| clean(t)).collect::<Vec<_>>(),
            "answers_a": i.answers_a.iter().map(|t| clean(t)).collect::<Vec<_>>(),
            "answers_b": i.answers_b.iter().map(|t| clean(t)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "small_sample": c.small_sample,
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("a JSON value serializes");
    s.push('\n');
    s
}

/// One self-contained page (no script, no network): cautions, the headline, the bottom line,
/// the axes, the items; each flipped item opens to both rounds' answers (one click,
/// `<details>`).
pub fn html(c: &Comparison) -> String {
    let e = sanitize::html_escape;
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>harness compare</title><style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
         table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}\
         .headline{font-size:1.3em;font-weight:bold;padding:.4em;background:#eef}.caution{background:#f7c6c6;padding:.4em;font-weight:bold}\
         .noise{background:#ffe9b3}tr.flip td{background:#fff1c2}pre{white-space:pre-wrap;margin:.2em 0}</style></head><body>\n\
         <h1>harness compare</h1>\n",
    );
    for w in &c.cautions {
        let _ = writeln!(
            h,
            "<p class=\"caution\">CAUTION: {}</p>",
            sanitize::html(w, 400)
        );
    }
    let _ = writeln!(
        h,
        "<p class=\"headline{}\" data-noise-floor=\"{}\">{}</p>",
        if c.noise_floor { " noise" } else { "" },
        c.noise_floor,
        e(&c.headline())
    );
    if !c.differences.is_empty() {
        h.push_str("<table class=\"differences\"><tr><th>field</th><th>A</th><th>B</th></tr>\n");
        for (f, x, y) in &c.differences {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                e(f),
                sanitize::html(x, 200),
                sanitize::html(y, 200)
            );
        }
        h.push_str("</table>\n");
    }
    let _ = writeln!(
        h,
        "<p>A: {}<br>B: {}<br>seal A: {}<br>seal B: {}<br>same qset <code>{}</code>, same base <code>{}</code></p>",
        sanitize::html(&c.a.name, 200),
        sanitize::html(&c.b.name, 200),
        sanitize::html(&seal_word(&c.a), 200),
        sanitize::html(&seal_word(&c.b), 200),
        e(&c.a.qset_sha256),
        e(&c.a.base_sha)
    );
    let _ = writeln!(
        h,
        "<p class=\"bottom-line\"><b>Did B carry more than A?</b> {}.</p>",
        sanitize::html(&c.bottom_line, 2000)
    );
    let _ = writeln!(h, "<h2>Per axis</h2>\n<p>{}</p>", e(METHOD));
    h.push_str("<table class=\"axes\"><tr><th>axis</th><th>A</th><th>B</th><th>undecided</th><th>B−A</th><th>sign test</th></tr>\n");
    for a in &c.axes {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>A {} · B {}</td><td>{}</td><td>{}</td></tr>",
            e(a.name),
            e(&a.a.display()),
            e(&a.b.display()),
            a.left_out.0,
            a.left_out.1,
            e(&a.diff_display()),
            e(&a.sign_display())
        );
    }
    let _ = writeln!(
        h,
        "</table>\n<h2>Per item</h2>\n<p>{}.</p>\n<table class=\"items\"><tr><th>qid</th><th>kind</th><th>A good</th><th>B good</th><th>B−A (towards good)</th><th>undecided</th><th>flip and answers</th></tr>",
        e(ITEM_NOTE)
    );
    for i in &c.items {
        let answers = |v: &[String], side: &str| {
            v.iter()
                .map(|t| format!("<pre>{side}: {}</pre>", sanitize::html_block(t, 4000)))
                .collect::<String>()
        };
        let cell = match i.flip {
            Some(f) => format!(
                "<details class=\"flip\"><summary>{}</summary>{}{}</details>",
                flip_name(f),
                answers(&i.answers_a, "A"),
                answers(&i.answers_b, "B")
            ),
            None => String::new(),
        };
        let _ = writeln!(
            h,
            "<tr{}><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{cell}</td></tr>",
            if i.flip.is_some() { " class=\"flip\"" } else { "" },
            sanitize::html(&i.qid, 200),
            i.kind,
            i.a.k,
            i.a.n,
            i.b.k,
            i.b.n,
            i.diff_text(),
            e(&i.left_out_text())
        );
    }
    h.push_str("</table>\n");
    if !c.small_sample.is_empty() {
        h.push_str("<h2>Small samples</h2>\n<ul>\n");
        for n in &c.small_sample {
            let _ = writeln!(h, "<li>{}</li>", e(n));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("</body></html>\n");
    h
}
