//! Aggregation (§7.2), the instrument verdict (§7.3), the watermark (§7.4) and label
//! withholding (§7.5): pure functions of a round's rows and meta.
//!
//! Every number is its own value with its own numerator and denominator. No field or function
//! here combines two of them (typed × fallback, DELIVERY × HUI): a product of two numbers reads
//! like a measurement and is none.

use crate::stats::{self, Interval, McNemar, SignSummary};
use crate::{ManifestStatus, RoundMeta, Row};
use scorer::{Arm, Class, Kind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Below this many items an axis contrast is descriptive only; below this many discordant items
/// McNemar is underpowered; below this MR denominator MR is flagged.
pub const SMALL_SAMPLE: u64 = 10;

/// `k` of `n` rows, drawn from `items` items. A proportion of nothing (`n == 0`) is
/// `UNMEASURED`, never 0.
///
/// Its interval is over items (reps of one item are not independent trials): see
/// [`stats::wilson_items`]. A row-level Wilson interval is never printed for it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Proportion {
    /// Numerator (rows).
    pub k: u64,
    /// Denominator (rows).
    pub n: u64,
    /// Distinct items the `n` rows came from.
    #[serde(default)]
    pub items: u64,
    /// The 95% interval over items and its effective sample size; `None` when `n == 0`.
    #[serde(default)]
    pub over_items: Option<stats::ItemInterval>,
}

impl Proportion {
    /// Counts the rows matching `hit` among the rows matching `of`, per item, and takes the
    /// interval over those items.
    pub(crate) fn count<'a>(
        rows: impl Iterator<Item = &'a Row> + Clone,
        of: impl Fn(&Row) -> bool,
        hit: impl Fn(&Row) -> bool,
    ) -> Proportion {
        let mut per_item: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
        for r in rows.filter(|r| of(r)) {
            let e = per_item.entry(r.qid.as_str()).or_default();
            e.1 += 1;
            if hit(r) {
                e.0 += 1;
            }
        }
        let cells: Vec<(u64, u64)> = per_item.values().copied().collect();
        Proportion::from_items(&cells)
    }

    /// A proportion from per-item `(k, n)` counts.
    pub fn from_items(cells: &[(u64, u64)]) -> Proportion {
        let (k, n) = cells
            .iter()
            .fold((0, 0), |(k, n), &(ki, ni)| (k + ki, n + ni));
        Proportion {
            k,
            n,
            items: cells.iter().filter(|c| c.1 > 0).count() as u64,
            over_items: stats::wilson_items(cells),
        }
    }

    /// `k / n`, or `None` when nothing was measured.
    pub fn p(&self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }

    /// The 95% interval over items, or `None` when nothing was measured.
    pub fn interval(&self) -> Option<Interval> {
        self.over_items.map(|i| i.interval)
    }

    /// `k/n rows, m items (p, [lo, hi])`, or `UNMEASURED (0/0 rows)`.
    pub fn display(&self) -> String {
        let items = if self.items == 1 { "item" } else { "items" };
        match (self.p(), self.interval()) {
            (Some(p), Some(i)) => format!(
                "{}/{} rows, {} {items} ({:.3}, {})",
                self.k,
                self.n,
                self.items,
                p,
                i.display(false)
            ),
            _ => format!("UNMEASURED ({}/{} rows)", self.k, self.n),
        }
    }
}

/// The round's instrument verdict (§7.3): is the instrument alive, and may the numbers be cited?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum InstrumentVerdict {
    /// CTRL failed to abstain on some negative: the model cannot say "absent" at all.
    Void,
    /// Known-positive ARM is not perfect.
    InstrumentIncomplete,
    /// Conflict: the repository's own value won more often than the planted value.
    CarrierUnread,
    /// ARM fails negatives more than CTRL: a result, not a broken instrument.
    Finding,
    /// None of the above held.
    Ok,
    /// The verdict differs depending on how rows no reader decided are read (§7.3).
    NeedsReview,
}

impl InstrumentVerdict {
    /// The upper-case name used everywhere (`VOID`, `INSTRUMENT_INCOMPLETE`, …).
    pub fn name(&self) -> &'static str {
        match self {
            InstrumentVerdict::Void => "VOID",
            InstrumentVerdict::InstrumentIncomplete => "INSTRUMENT_INCOMPLETE",
            InstrumentVerdict::CarrierUnread => "CARRIER_UNREAD",
            InstrumentVerdict::Finding => "FINDING",
            InstrumentVerdict::Ok => "OK",
            InstrumentVerdict::NeedsReview => "NEEDS_REVIEW",
        }
    }

    /// The process exit code this verdict maps to (§9).
    pub fn exit_code(&self) -> i32 {
        match self {
            InstrumentVerdict::Void => 3,
            InstrumentVerdict::InstrumentIncomplete => 4,
            InstrumentVerdict::CarrierUnread => 6,
            InstrumentVerdict::Finding | InstrumentVerdict::Ok => 0,
            InstrumentVerdict::NeedsReview => 14,
        }
    }

    /// Whether this verdict watermarks every number line and row (§7.4).
    pub fn watermarks(&self) -> bool {
        matches!(
            self,
            InstrumentVerdict::Void
                | InstrumentVerdict::InstrumentIncomplete
                | InstrumentVerdict::CarrierUnread
        )
    }
}

/// Every watermark word: the three verdicts that watermark, and the contamination override.
/// A watermark is one of these or a verdict word joined with `+CONTAMINATED`.
pub const WATERMARK_NAMES: [&str; 4] = [
    "VOID",
    "INSTRUMENT_INCOMPLETE",
    "CARRIER_UNREAD",
    "CONTAMINATED",
];

/// Class tallies of the conflict rows of one arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ConflictCounts {
    /// All conflict rows of the arm (the denominator of every line below).
    pub rows: u64,
    /// `CONFLICT_FOLLOWED`: the planted value was given (CARRIER-READ).
    pub followed: u64,
    /// `PRIOR_WON`: the true value was given and seen (asserted only).
    pub prior_won: u64,
    /// `ABSTAINED_ON_CONFLICT`.
    pub abstained: u64,
    /// `UNCLASSIFIED`: nothing could be asserted; shown, never folded away.
    pub unclassified: u64,
    /// `VOID`: empty answers.
    pub empty: u64,
}

impl ConflictCounts {
    fn of(rows: &[Row], arm: Arm) -> ConflictCounts {
        let mut c = ConflictCounts::default();
        for r in rows
            .iter()
            .filter(|r| r.kind == Kind::Conflict && r.arm == arm)
        {
            c.rows += 1;
            match r.verdict.class {
                Class::ConflictFollowed => c.followed += 1,
                Class::PriorWon => c.prior_won += 1,
                Class::AbstainedOnConflict => c.abstained += 1,
                Class::Unclassified => c.unclassified += 1,
                Class::Void => c.empty += 1,
                _ => {}
            }
        }
        c
    }
}

/// Per-class rates of one arm's conflict rows, each with its interval over items.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ConflictRates {
    /// `CONFLICT_FOLLOWED` of the arm's conflict rows.
    pub followed: Proportion,
    /// `PRIOR_WON` of the arm's conflict rows.
    pub prior_won: Proportion,
    /// `ABSTAINED_ON_CONFLICT` of the arm's conflict rows.
    pub abstained: Proportion,
    /// `UNCLASSIFIED` of the arm's conflict rows.
    pub unclassified: Proportion,
}

impl ConflictRates {
    fn of(rows: &[Row], arm: Arm) -> ConflictRates {
        let of = |r: &Row| r.kind == Kind::Conflict && r.arm == arm;
        let class = |c: Class| Proportion::count(rows.iter(), of, move |r| r.verdict.class == c);
        ConflictRates {
            followed: class(Class::ConflictFollowed),
            prior_won: class(Class::PriorWon),
            abstained: class(Class::AbstainedOnConflict),
            unclassified: class(Class::Unclassified),
        }
    }
}

/// One item's context sensitivity `D = P_ARM − P_CTRL` (§7.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemD {
    /// The item.
    pub qid: String,
    /// Its kind (decides "good").
    pub kind: Kind,
    /// Good ARM reps of ARM reps.
    pub arm: Proportion,
    /// Good CTRL reps of CTRL reps.
    pub ctrl: Proportion,
    /// `P_ARM − P_CTRL`; `None` when either arm has no rows for the item.
    pub d: Option<f64>,
    /// Fisher's exact two-sided p on the item's 2×2 (arm × good), treating the item's reps as
    /// independent draws of one answer distribution; unadjusted. The line carries no interval:
    /// an interval from another method (Newcombe's) could exclude 0 beside a Fisher p above
    /// 0.05, and one line never says two things.
    #[serde(default)]
    pub p: Option<f64>,
    /// `p` Holm-adjusted over the family of items that have one.
    #[serde(default)]
    pub p_holm: Option<f64>,
    /// ARM rows of the item no reader decided yet (UNDETERMINED or CONTESTED): outside `arm`,
    /// awaiting review.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub arm_undecided: u64,
    /// CTRL rows of the item no reader decided yet: outside `ctrl`, awaiting review.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ctrl_undecided: u64,
}

/// For serde: a count of zero is left out of the JSON.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl ItemD {
    /// One arm's side of the D line: `ARM 2/3`, or with rows no reader decided yet
    /// `ARM 0/0 decided; 3 rows await review` (rows awaiting a reader are rows, not none).
    fn side(name: &str, p: Proportion, undecided: u64) -> String {
        match undecided {
            0 => format!("{name} {}/{}", p.k, p.n),
            1 => format!("{name} {}/{} decided; 1 row awaits review", p.k, p.n),
            u => format!("{name} {}/{} decided; {u} rows await review", p.k, p.n),
        }
    }

    /// Why D is not measured: which arm has no decided rows, and whether its rows await review
    /// or it has none at all. Empty when D is measured.
    pub fn unmeasured_reason(&self) -> String {
        let mut why = Vec::new();
        for (name, p, u) in [
            ("ARM", self.arm, self.arm_undecided),
            ("CTRL", self.ctrl, self.ctrl_undecided),
        ] {
            if p.n > 0 {
                continue;
            }
            why.push(if u > 0 {
                format!("{name}'s rows for this item all await review (`harness review`)")
            } else {
                format!("{name} has no rows for this item")
            });
        }
        why.join("; ")
    }
}

/// One axis's paired ARM−CTRL contrast over items (§7.2, "beyond the seed").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AxisContrast {
    /// The axis.
    pub kind: Kind,
    /// The items' D by one method: the exact sign test and the median interval it inverts to
    /// (with the mean, descriptive); `None` when no item has both arms.
    pub contrast: Option<SignSummary>,
    /// Exact McNemar on item-level majority outcomes.
    pub mcnemar: McNemar,
    /// Items left out of McNemar because exactly half their reps were good in an arm.
    pub ties: u64,
    /// The exact sign test of [`AxisContrast::contrast`] (positive D as `b`, negative as `c`;
    /// items with D = 0 count against the majority direction): it keeps the tied items McNemar
    /// drops.
    pub sign: McNemar,
    /// Items with D = 0 exactly (no sign; counted, not tested).
    pub zero_d: u64,
    /// Small-sample warnings for this axis.
    pub warnings: Vec<String>,
}

/// What a number line holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Value {
    /// A proportion with its Wilson interval.
    Proportion(Proportion),
    /// A plain count (never a denominator).
    Count {
        /// The count.
        count: u64,
    },
    /// A per-item D.
    ItemD(ItemD),
    /// A paired ARM−CTRL contrast over an axis's items: median difference, the interval the
    /// sign test inverts to, and the mean (descriptive).
    Contrast {
        /// `None` when no item of the axis has both arms.
        contrast: Option<SignSummary>,
    },
    /// An exact McNemar test on an axis's item-level outcomes.
    McNemar(McNemar),
    /// An exact sign test on an axis's item D signs.
    Sign {
        /// Positive D as `b`, negative as `c`.
        test: McNemar,
        /// Items with D = 0.
        zero_d: u64,
    },
    /// Two readers' agreement on one kind: rows, rows agreeing, Cohen's κ (`None`: undefined).
    Agreement {
        /// Rows both read.
        n: u64,
        /// Rows with the same class.
        agree: u64,
        /// Cohen's κ.
        kappa: Option<f64>,
    },
    /// Nothing could be measured; the note says why.
    Unmeasured,
}

impl Value {
    /// The value as it is printed in every human-readable format.
    pub fn display(&self) -> String {
        match self {
            Value::Proportion(p) => p.display(),
            Value::Count { count } => count.to_string(),
            Value::ItemD(i) => match i.d {
                Some(d) => format!(
                    "D={:+.3} (ARM {}/{} · CTRL {}/{}) Fisher p={} Holm p={}",
                    d,
                    i.arm.k,
                    i.arm.n,
                    i.ctrl.k,
                    i.ctrl.n,
                    p_text(i.p),
                    p_text(i.p_holm)
                ),
                _ => format!(
                    "D=UNMEASURED ({} · {})",
                    ItemD::side("ARM", i.arm, i.arm_undecided),
                    ItemD::side("CTRL", i.ctrl, i.ctrl_undecided)
                ),
            },
            Value::Contrast { contrast } => match contrast {
                None => "UNMEASURED (0 items with both arms)".to_string(),
                Some(c) => format!(
                    "median {:+.3} {}{} over {} item{}; mean {:+.3}",
                    c.median,
                    c.interval.display(true),
                    if c.whole_range {
                        " (whole range: no narrower 95% interval below 6 items)"
                    } else {
                        ""
                    },
                    c.items,
                    if c.items == 1 { "" } else { "s" },
                    c.mean
                ),
            },
            Value::McNemar(m) => match (m.p, m.min_p) {
                (Some(p), Some(min_p)) => {
                    let (p, min_p) = stats::p_and_min_text(p, min_p);
                    format!(
                        "b={} c={} p={p} (smallest reachable at b+c={}: {min_p})",
                        m.b,
                        m.c,
                        m.b + m.c
                    )
                }
                _ => format!("b={} c={} p=UNMEASURED (no discordant items)", m.b, m.c),
            },
            Value::Sign { test, zero_d } => match (test.p, test.min_p) {
                (Some(p), Some(min_p)) => {
                    let (p, min_p) = stats::p_and_min_text(p, min_p);
                    format!(
                        "+{} −{} ={} p={p} (smallest reachable: {min_p})",
                        test.b, test.c, zero_d
                    )
                }
                _ => format!(
                    "+{} −{} ={} p=UNMEASURED (no item with a nonzero D)",
                    test.b, test.c, zero_d
                ),
            },
            Value::Agreement { n, agree, kappa } => {
                let share = if *n == 0 {
                    "UNMEASURED".to_string()
                } else {
                    format!("{:.3}", *agree as f64 / *n as f64)
                };
                match kappa {
                    Some(k) => format!("{agree}/{n} rows agree ({share}), Cohen's κ={k:.3}"),
                    None => format!(
                        "{agree}/{n} rows agree ({share}), Cohen's κ UNMEASURED (one class only: chance agreement is 1)"
                    ),
                }
            }
            Value::Unmeasured => "UNMEASURED".to_string(),
        }
    }
}

/// A p-value as printed, `—` when there is none.
fn p_text(p: Option<f64>) -> String {
    p.map(stats::p_text).unwrap_or_else(|| "—".to_string())
}

/// One printed number: every human-readable format prints exactly these, one per line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumberLine {
    /// Stable machine key (`delivery_arm`, `item_d:<qid>`, …; listed in `SCHEMA.md`).
    pub key: String,
    /// The section heading the line is printed under.
    pub section: &'static str,
    /// The printed name (`DELIVERY (ARM)`).
    pub label: String,
    /// The value.
    pub value: Value,
    /// Interpretation, label withholding or warning printed beside the value.
    pub note: String,
    /// Rows of this line's population no reader decided (UNDETERMINED or CONTESTED): outside
    /// the count, shown beside it in the brief. In JSON they are under `readers`.
    #[serde(skip)]
    pub undetermined: usize,
    /// Of `undetermined`, the rows whose readers disagree (CONTESTED), named apart.
    #[serde(skip)]
    pub contested: usize,
}

/// How undecided rows are named beside a count or in a verdict's sentence: UNDETERMINED rows
/// as "undetermined", CONTESTED rows as "contested" (`row` adds the noun: "3 rows
/// undetermined"). Empty when there are none.
pub fn undecided_words(undetermined: usize, contested: usize, row: bool) -> String {
    let noun = |n: usize| match (row, n) {
        (false, _) => "",
        (true, 1) => " row",
        (true, _) => " rows",
    };
    match (undetermined, contested) {
        (0, 0) => String::new(),
        (u, 0) => format!("{u}{} undetermined", noun(u)),
        (0, c) => format!("{c}{} contested", noun(c)),
        (u, c) => format!("{u}{} undetermined, {c} contested", noun(u)),
    }
}

/// Every number of a round, the instrument verdict and the watermark.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// All rows.
    pub rows: u64,
    /// Rows that took the typed path, of all rows.
    pub typed: Proportion,
    /// Whether the round gave the agents a protocol (the only thing that asks for a typed
    /// tag); `None` when the round's record does not say. Decides what typed 0 means.
    pub protocol_given: Option<bool>,
    /// Rows that took the fallback (prose) path, of all rows.
    pub fallback: Proportion,
    /// Positive ARM `PASS` of positive ARM rows; under `--ledger report` of the positives the
    /// seal carries only ([`crate::RoundMeta::uncarried`] left out).
    pub delivery_arm: Proportion,
    /// Under `--ledger report`: positive ARM `PASS` of every positive ARM row, the uncarried
    /// included (the hand-off's coverage of the qset). `None` under the strict ledger, where
    /// it is [`Summary::delivery_arm`].
    pub delivery_all_arm: Option<Proportion>,
    /// The positive items the seal does not carry (`--ledger report`), in qset order.
    pub uncarried: Vec<String>,
    /// Negative ARM rows that are not `PASS`, of negative ARM rows.
    pub hui_arm: Proportion,
    /// Negative CTRL rows that are not `PASS`, of negative CTRL rows: the survival line.
    pub hui_ctrl: Proportion,
    /// Positive CTRL `PASS` of positive CTRL rows: answered without the carrier.
    pub lucky_ctrl: Proportion,
    /// Rows the clarify lexicon matched (a counter, never a denominator).
    pub clarify: u64,
    /// Of which ARM.
    pub clarify_arm: u64,
    /// Of which CTRL.
    pub clarify_ctrl: u64,
    /// Rows with an empty answer (class `VOID`); they stay in every denominator as not-good.
    pub empty_answers: u64,
    /// Positive ARM rows that did not abstain (not `FAIL`/`REFUSED_WITH_TOKEN`), of positive ARM rows.
    pub positive_coverage_arm: Proportion,
    /// Positive ARM `PASS` of the positive ARM rows that did not abstain.
    pub positive_accuracy_arm: Proportion,
    /// Negative ARM `PASS` of negative ARM rows.
    pub negative_abstained_arm: Proportion,
    /// Negative ARM non-`PASS` of negative ARM rows (every answer here is wrong by definition).
    pub negative_answered_arm: Proportion,
    /// Conflict tallies, ARM.
    pub conflict_arm: ConflictCounts,
    /// Conflict tallies, CTRL (the control's survival line).
    pub conflict_ctrl: ConflictCounts,
    /// Conflict class rates with intervals over items, ARM.
    pub conflict_rates_arm: ConflictRates,
    /// Conflict class rates with intervals over items, CTRL.
    pub conflict_rates_ctrl: ConflictRates,
    /// Memorization ratio (Longpre et al. 2021): ARM READ / (READ + PRIOR_WON).
    pub mr: Proportion,
    /// The conflict axis stands (§7.5): ARM followed the plant at least once and CTRL gave the prior at least once.
    pub conflict_axis_stands: bool,
    /// Why the interpretive labels are withheld, when they are: the conflict axis does not stand,
    /// or the verdict watermarks the round.
    pub label_withheld: Option<String>,
    /// Per-item D, in qset order.
    pub items: Vec<ItemD>,
    /// Per-axis paired contrasts, positive, negative, conflict.
    pub contrasts: Vec<AxisContrast>,
    /// The instrument verdict.
    pub verdict: InstrumentVerdict,
    /// `false` when the verdict is `OK` by default only (missing arm or axis): exit stays 0,
    /// the report says the verdict is not claimed.
    pub verdict_claimed: bool,
    /// The sentence explaining the verdict, the rows that fired its rule named at its end.
    pub verdict_detail: String,
    /// The same sentence without the fired rows, for a brief that lists them one per line.
    pub verdict_reason: String,
    /// The rows and items that fired the verdict's zero-tolerance rule; `None` for `OK`.
    pub fired_by: Option<crate::rules::RuleFiring>,
    /// `VOID`, `CONTAMINATED`, `VOID+CONTAMINATED`, …; `None` for clean OK/FINDING rounds.
    pub watermark: Option<String>,
    /// Manifest status (UNVERIFIED goes in the header, not on every line).
    pub manifest: ManifestStatus,
    /// The manifest sealed the round's design too ([`crate::RoundMeta::design_sealed`]).
    pub design_sealed: bool,
    /// The round ran an ARM arm ([`crate::RoundMeta::runs_arm`]): a CTRL-only round's ARM lines
    /// say there is no ARM arm, never what ARM did.
    #[serde(skip)]
    pub runs_arm: bool,
    /// Rows no reader decided (`UNDETERMINED`, `CONTESTED`): outside every number above,
    /// taken each way for the verdict.
    pub undecided: Vec<UndecidedRow>,
    /// Rows by who decided them (`lexicon`, `both`, `judge`, `person`).
    pub decided_by: BTreeMap<String, u64>,
    /// Lexicon-vs-judge agreement and Cohen's κ per kind, on the rows a judge read (empty
    /// without a judge).
    pub agreement: Vec<crate::agreement::Agreement>,
    /// The judge that read the round, with its last calibration (`None`: not calibrated);
    /// `None` when no judge read the round.
    pub judge_calibration: Option<JudgeCalibration>,
}

/// What the Readers section says of the judge's calibration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeCalibration {
    /// Rows of the calibration corpus, rows agreeing with the labels, Cohen's κ; `None` when
    /// the judge was never calibrated.
    pub figures: Option<(u64, u64, Option<f64>)>,
    /// The line: `judge …, calibrated … on N rows: agreement A, κ K…` or `not calibrated`.
    pub line: String,
}

/// A row no reader decided, as the verdict and the reports name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UndecidedRow {
    /// The question.
    pub qid: String,
    /// Its kind.
    pub kind: Kind,
    /// The arm.
    pub arm: Arm,
    /// The rep.
    pub rep: u32,
    /// The dispatch label (`harness review --set LABEL:REP=CLASS`).
    pub label: String,
    /// `UNDETERMINED` or `CONTESTED`.
    pub state: &'static str,
    /// The strict reading's class.
    pub guess: Class,
    /// The row is one whose reading decides the verdict.
    pub decides_verdict: bool,
    /// Why only a person may decide it (its answer addresses a grader), when that is so.
    pub for_person: Option<String>,
}

impl UndecidedRow {
    /// `qid ARM r1 (label_r1)`: how a sentence names the row.
    pub fn name(&self) -> String {
        format!(
            "{} {} r{} ({}_r{})",
            self.qid, self.arm, self.rep, self.label, self.rep
        )
    }
}

/// The class an undecided row is read as, at one end: good (PASS; CONFLICT_FOLLOWED on
/// conflict) or bad (FAIL; PRIOR_WON on conflict, the end that counts against the carrier).
fn extreme(kind: Kind, good: bool) -> Class {
    match (kind, good) {
        (Kind::Conflict, true) => Class::ConflictFollowed,
        (Kind::Conflict, false) => Class::PriorWon,
        (_, true) => Class::Pass,
        (_, false) => Class::Fail,
    }
}

/// Whether a row is the good outcome for its kind (PASS; CONFLICT_FOLLOWED for conflict).
/// Empty answers (`VOID`) are never good.
pub fn is_good(row: &Row) -> bool {
    match row.kind {
        Kind::Positive | Kind::Negative => row.verdict.class == Class::Pass,
        Kind::Conflict => row.verdict.class == Class::ConflictFollowed,
    }
}

fn item_order(rows: &[Row], meta: &RoundMeta) -> Vec<(String, Kind)> {
    let mut seen: Vec<(String, Kind)> = Vec::new();
    for q in &meta.questions {
        if !seen.iter().any(|(id, _)| id == &q.qid) {
            seen.push((q.qid.clone(), q.kind));
        }
    }
    let mut extra: BTreeMap<String, Kind> = BTreeMap::new();
    for r in rows {
        if !seen.iter().any(|(id, _)| id == &r.qid) {
            extra.entry(r.qid.clone()).or_insert(r.kind);
        }
    }
    seen.extend(extra);
    seen
}

fn item_d(rows: &[Row], qid: &str, kind: Kind) -> ItemD {
    let of = |arm: Arm| {
        Proportion::count(
            rows.iter(),
            |r| r.qid == qid && r.arm == arm && r.kind == kind,
            is_good,
        )
    };
    let (arm, ctrl) = (of(Arm::Arm), of(Arm::Ctrl));
    let d = match (arm.p(), ctrl.p()) {
        (Some(a), Some(c)) => Some(a - c),
        _ => None,
    };
    ItemD {
        qid: qid.to_string(),
        kind,
        arm,
        ctrl,
        d,
        p: stats::fisher_exact(arm.k, arm.n - arm.k, ctrl.k, ctrl.n - ctrl.k),
        p_holm: None,
        arm_undecided: 0,
        ctrl_undecided: 0,
    }
}

/// Item-level majority outcome: good when more than half the reps were good, `None` on a tie.
fn majority(p: Proportion) -> Option<bool> {
    use std::cmp::Ordering::*;
    match (2 * p.k).cmp(&p.n) {
        Greater => Some(true),
        Less => Some(false),
        Equal => None,
    }
}

fn axis_contrast(kind: Kind, items: &[ItemD]) -> AxisContrast {
    let paired: Vec<&ItemD> = items
        .iter()
        .filter(|i| i.kind == kind && i.d.is_some())
        .collect();
    let diffs: Vec<f64> = paired.iter().filter_map(|i| i.d).collect();
    let (mut b, mut c, mut ties) = (0u64, 0u64, 0u64);
    for i in &paired {
        match (majority(i.arm), majority(i.ctrl)) {
            (Some(true), Some(false)) => b += 1,
            (Some(false), Some(true)) => c += 1,
            (Some(_), Some(_)) => {}
            _ => ties += 1,
        }
    }
    let mut warnings = Vec::new();
    if (paired.len() as u64) < SMALL_SAMPLE {
        warnings.push(format!(
            "descriptive only: {} item(s) with both arms (< {SMALL_SAMPLE})",
            paired.len()
        ));
    }
    if b + c < SMALL_SAMPLE {
        warnings.push(format!(
            "McNemar underpowered: b+c = {} (< {SMALL_SAMPLE})",
            b + c
        ));
    }
    let mcnemar = stats::mcnemar_exact(b, c);
    if let Some(min_p) = mcnemar.min_p {
        if min_p > 0.05 {
            warnings.push(format!(
                "McNemar cannot reach p < 0.05 at b+c = {}: the smallest possible p is {}",
                b + c,
                stats::p_text(min_p)
            ));
        }
    }
    if ties > 0 {
        warnings.push(format!(
            "{ties} tied item(s) (exactly half their reps good in an arm) not in McNemar; \
             the sign test below counts them"
        ));
    }
    let contrast = stats::sign_summary(&diffs, (-1.0, 1.0));
    let sign = match contrast {
        Some(s) => McNemar {
            b: s.up,
            c: s.down,
            p: Some(s.p),
            min_p: Some(s.min_p),
        },
        None => stats::mcnemar_exact(0, 0),
    };
    AxisContrast {
        kind,
        contrast,
        mcnemar,
        ties,
        sign,
        zero_d: contrast.map_or(0, |s| s.unchanged),
        warnings,
    }
}

/// What the verdict sentence and the brief say when the interpretive labels are withheld.
pub const WITHHELD: &str =
    "these numbers describe this round but cannot be quoted as what the hand-off delivered";

/// The instrument verdict, first rule that holds (§7.3), with whether it is claimed and its sentence.
fn instrument_verdict(s: &Summary) -> (InstrumentVerdict, bool, String) {
    let (ca, hui_a, hui_c, del) = (&s.conflict_arm, s.hui_arm, s.hui_ctrl, s.delivery_arm);
    if hui_c.n > 0 && hui_c.k > 0 {
        return (
            InstrumentVerdict::Void,
            true,
            format!(
                "CTRL fails to abstain on negatives ({}/{}): the model cannot say \"absent\" at all; \
                 this is about the model, not the hand-off, and these numbers are not claims",
                hui_c.k, hui_c.n
            ),
        );
    }
    if del.n > 0 && del.k < del.n {
        return (
            InstrumentVerdict::InstrumentIncomplete,
            true,
            format!(
                "known-positive ARM is not perfect ({}/{}{}): ARM may be failing to read the hand-off \
                 rather than the hand-off lacking the values",
                del.k,
                del.n,
                if s.uncarried.is_empty() {
                    ""
                } else {
                    " rows the seal carries; the uncarried positives are not judged"
                }
            ),
        );
    }
    if ca.rows > 0 && ca.prior_won > ca.followed {
        return (
            InstrumentVerdict::CarrierUnread,
            true,
            format!(
                "on the conflict items ARM gave the repository's own value ({}/{}) more often than the \
                 value planted in the hand-off ({}/{}): ARM did not take its answers from the \
                 hand-off, so DELIVERY cannot be quoted as what the hand-off delivered",
                ca.prior_won, ca.rows, ca.followed, ca.rows
            ),
        );
    }
    // Compared as rates (cross-multiplied) so unequal row counts cannot fake a difference.
    if hui_a.n > 0 && hui_c.n > 0 && hui_a.k * hui_c.n > hui_c.k * hui_a.n {
        return (
            InstrumentVerdict::Finding,
            true,
            format!(
                "CTRL abstains on negatives but ARM does not (HUI ARM {}/{} vs CTRL {}/{}): \
                 if DELIVERY rises and HUI rises with it, this hand-off is not an improvement",
                hui_a.k, hui_a.n, hui_c.k, hui_c.n
            ),
        );
    }
    let arm_rows = s.delivery_arm.n + s.hui_arm.n + ca.rows;
    let mut missing = Vec::new();
    if arm_rows == 0 {
        missing.push("no ARM rows (CTRL-only eligibility run)");
    } else if del.n == 0 {
        missing.push("no known-positive ARM rows, so INSTRUMENT_INCOMPLETE could not be checked");
    }
    if hui_c.n == 0 {
        missing.push("no negative CTRL rows, so the survival line HUI (CTRL) is unmeasured");
    }
    if missing.is_empty() {
        // Whether the numbers may be read as the hand-off's is the label decision's to say (the
        // same `label_withheld` the number lines print), never this sentence's own.
        let reading = match &s.label_withheld {
            None => "from here the numbers point at what the hand-off delivered".to_string(),
            Some(why) => format!("{WITHHELD}, because {why}"),
        };
        (
            InstrumentVerdict::Ok,
            true,
            format!(
                "instrument alive: CTRL abstains on every negative and known-positive ARM is \
                 perfect; {reading}"
            ),
        )
    } else {
        (
            InstrumentVerdict::Ok,
            false,
            format!(
                "instrument verdict not claimed: {}; no VOID, INSTRUMENT_INCOMPLETE, CARRIER_UNREAD or \
                 FINDING rule fired on the rows there are",
                missing.join("; ")
            ),
        )
    }
}

/// What ARM's lines say in a round that ran no ARM arm (`--arms CTRL`).
pub const NO_ARM_ARM: &str = "no ARM arm in this round (a CTRL-only round): not measured";

/// HUI (ARM)'s label when the round may name its cause: a claim of overconfidence only when
/// ARM answered a negative it should have abstained on; at 0 it says there was none.
fn hui_arm_label(hui: Proportion) -> &'static str {
    if hui.n == 0 {
        "no negative ARM rows: not measured"
    } else if hui.k == 0 {
        "no overconfidence: ARM abstained on every negative"
    } else {
        "overconfidence caused by the hand-off"
    }
}

/// Why the interpretive labels of §7.5 are withheld, or `None` when the conflict axis stands.
/// A round without an ARM arm says that, not that ARM's rows went missing; an arm whose
/// conflict rows all await a reader says that, not that it has none. `waiting` is the count of
/// undecided conflict rows of (ARM, CTRL).
fn label_withheld(
    ca: &ConflictCounts,
    cc: &ConflictCounts,
    runs_arm: bool,
    waiting: (u64, u64),
) -> Option<String> {
    if ca.rows == 0 && cc.rows == 0 && waiting == (0, 0) {
        return Some("no conflict items".to_string());
    }
    let none = |arm: &str, waiting: u64| {
        if waiting > 0 {
            format!(
                "no decided {arm} conflict rows ({} {} review)",
                crate::counting::n_of(waiting, "row", "rows"),
                if waiting == 1 { "awaits" } else { "await" }
            )
        } else {
            format!("no {arm} conflict rows")
        }
    };
    let mut why = Vec::new();
    if !runs_arm {
        why.push("no ARM arm in this round: a CTRL-only round".to_string());
    } else if ca.rows == 0 {
        why.push(none("ARM", waiting.0));
    } else if ca.followed == 0 {
        why.push(format!(
            "ARM never followed the planted value (CONFLICT_FOLLOWED 0/{})",
            ca.rows
        ));
    }
    if cc.rows == 0 {
        why.push(none("CTRL", waiting.1));
    } else if cc.prior_won == 0 {
        why.push(format!(
            "CTRL never gave the repository's own value (PRIOR_WON 0/{})",
            cc.rows
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// Computes every number of §7.2 from the decided rows, the verdict with the undecided rows
/// taken each way (§7.3: each rule is monotone in each (kind, arm) cell's count of good rows,
/// so the ends of every cell reach every verdict the rows can give), the watermark and the
/// label decision.
pub fn summarize(rows: &[Row], meta: &RoundMeta) -> Summary {
    let decided: Vec<Row> = crate::counting::decided(rows);
    let mut by: BTreeMap<String, u64> = BTreeMap::new();
    for r in rows {
        if let Some(b) = r.standing.decided_by() {
            *by.entry(b.as_str().to_string()).or_default() += 1;
        }
    }
    if decided.len() == rows.len() {
        let mut s = summarize_decided(rows, meta);
        s.decided_by = by;
        s.agreement = crate::agreement::agreement(rows);
        name_firing(&mut s, rows, meta);
        return s;
    }
    let undecided: Vec<&Row> = crate::counting::left_out(rows, |_| true);
    let mut cells: Vec<(Kind, Arm)> = undecided.iter().map(|r| (r.kind, r.arm)).collect();
    cells.sort();
    cells.dedup();
    // One outcome per assignment of an end to each cell.
    let outcome = |mask: usize| {
        let mut all = decided.clone();
        for r in &undecided {
            let i = cells
                .iter()
                .position(|c| *c == (r.kind, r.arm))
                .unwrap_or(0);
            let mut x = (*r).clone();
            x.verdict.class = extreme(r.kind, mask & (1 << i) != 0);
            x.standing = Default::default();
            all.push(x);
        }
        let s = summarize_decided(&all, meta);
        (s.verdict, s.verdict_claimed)
    };
    let outcomes: Vec<(InstrumentVerdict, bool)> =
        (0..1usize << cells.len()).map(outcome).collect();
    // A cell decides the verdict when flipping its end alone changes it somewhere.
    let deciding: Vec<bool> = (0..cells.len())
        .map(|i| (0..outcomes.len()).any(|m| outcomes[m] != outcomes[m ^ (1 << i)]))
        .collect();
    let mut s = summarize_decided(&decided, meta);
    s.rows = rows.len() as u64;
    s.decided_by = by;
    s.agreement = crate::agreement::agreement(rows);
    s.undecided = undecided
        .iter()
        .map(|r| {
            let i = cells
                .iter()
                .position(|c| *c == (r.kind, r.arm))
                .unwrap_or(0);
            UndecidedRow {
                qid: r.qid.clone(),
                kind: r.kind,
                arm: r.arm,
                rep: r.rep,
                label: r.label.clone(),
                state: r.standing.undecided_name().unwrap_or("UNDETERMINED"),
                guess: r.verdict.class,
                decides_verdict: deciding[i],
                for_person: match &r.standing {
                    crate::reading::Standing::Undetermined { for_person, .. } => for_person.clone(),
                    _ => None,
                },
            }
        })
        .collect();
    for i in &mut s.items {
        let waiting = |arm: Arm| {
            s.undecided
                .iter()
                .filter(|u| u.qid == i.qid && u.arm == arm)
                .count() as u64
        };
        i.arm_undecided = waiting(Arm::Arm);
        i.ctrl_undecided = waiting(Arm::Ctrl);
    }
    let n_contested = s
        .undecided
        .iter()
        .filter(|u| u.state == "CONTESTED")
        .count();
    let n_undetermined = s.undecided.len() - n_contested;
    let first = outcomes[0];
    if outcomes.iter().all(|o| *o == first) {
        // The sentence counts the decided rows, as the headline numbers do, when they alone
        // give the verdict every reading gives; else it is the all-bad end's, and says so
        // (an undetermined row is never silently counted as a failure).
        let (detail, counted) = if s.verdict == first.0 {
            (s.verdict_detail.clone(), "")
        } else {
            let mut all = decided.clone();
            for r in &undecided {
                let mut x = (*r).clone();
                x.verdict.class = extreme(r.kind, false);
                all.push(x);
            }
            (
                summarize_decided(&all, meta).verdict_detail,
                " (the counts above take them as failures)",
            )
        };
        s.verdict = first.0;
        s.verdict_claimed = first.1;
        s.verdict_detail = format!(
            "{detail}; {}{counted}; the verdict holds either way",
            undecided_words(n_undetermined, n_contested, true)
        );
        name_firing(&mut s, rows, meta);
    } else {
        let mut reached: Vec<&'static str> = outcomes.iter().map(|o| o.0.name()).collect();
        reached.sort();
        reached.dedup();
        let names: Vec<String> = s
            .undecided
            .iter()
            .filter(|u| u.decides_verdict)
            .map(|u| format!("{} {}", u.name(), u.state))
            .collect();
        s.verdict = InstrumentVerdict::NeedsReview;
        s.verdict_claimed = true;
        s.verdict_detail = format!(
            "the verdict depends on rows no reader decided: read one way it is {}; the rows that decide it: {}; settle them with `harness review`",
            reached.join(", the other way "),
            names.join(", ")
        );
        name_firing(&mut s, rows, meta);
    }
    finish_marks(&mut s, meta);
    s
}

/// Names the decided rows that fired the final verdict's rule in `fired_by` and at the end of
/// its sentence. Undetermined rows never fire a rule: the either-way reading already said
/// whether they could.
fn name_firing(s: &mut Summary, rows: &[Row], meta: &RoundMeta) {
    let judged: Vec<Row> = rows
        .iter()
        .filter(|r| !(r.kind == Kind::Positive && meta.uncarried.contains(&r.qid)))
        .cloned()
        .collect();
    s.fired_by = crate::rules::firing(s.verdict, &judged);
    s.verdict_reason = s.verdict_detail.clone();
    if let Some(f) = &s.fired_by {
        s.verdict_detail = format!("{}. {}", s.verdict_detail, crate::rules::explain(s, f));
    }
}

/// The label decision and the watermark, from the final verdict.
fn finish_marks(s: &mut Summary, meta: &RoundMeta) {
    let verdict = s.verdict;
    let waiting = |arm: Arm| {
        s.undecided
            .iter()
            .filter(|u| u.kind == Kind::Conflict && u.arm == arm)
            .count() as u64
    };
    let waiting = (waiting(Arm::Arm), waiting(Arm::Ctrl));
    s.label_withheld = label_withheld(&s.conflict_arm, &s.conflict_ctrl, meta.runs_arm(), waiting);
    s.conflict_axis_stands = s.label_withheld.is_none();
    if verdict.watermarks() {
        let why = format!("the instrument verdict is {}", verdict.name());
        s.label_withheld = Some(match s.label_withheld.take() {
            Some(axis) => format!("{axis}; {why}"),
            None => why,
        });
    }
    let mut marks: Vec<&str> = Vec::new();
    if verdict.watermarks() {
        marks.push(verdict.name());
    }
    if meta.contaminated {
        marks.push("CONTAMINATED");
    }
    s.watermark = (!marks.is_empty()).then(|| marks.join("+"));
}

/// [`summarize`] over rows every one of which a reader decided.
fn summarize_decided(rows: &[Row], meta: &RoundMeta) -> Summary {
    let all = rows.iter();
    let cell = |kind: Kind, arm: Arm| move |r: &Row| r.kind == kind && r.arm == arm;
    let pass = |r: &Row| r.verdict.class == Class::Pass;
    let not_pass = |r: &Row| r.verdict.class != Class::Pass;
    let abstained_pos = |r: &Row| matches!(r.verdict.class, Class::Fail | Class::RefusedWithToken);

    let typed = Proportion::count(all.clone(), |_| true, |r| r.verdict.typed);
    let fallback = Proportion::count(all.clone(), |_| true, |r| !r.verdict.typed);
    // Under `--ledger report` a positive the seal does not carry cannot be delivered: DELIVERY
    // (and INSTRUMENT_INCOMPLETE with it) judges the carried ones, a second line all of them.
    let carried = |r: &Row| !(r.kind == Kind::Positive && meta.uncarried.contains(&r.qid));
    let delivery_arm = Proportion::count(
        all.clone(),
        |r| cell(Kind::Positive, Arm::Arm)(r) && carried(r),
        pass,
    );
    let delivery_all_arm = meta
        .ledger_reports()
        .then(|| Proportion::count(all.clone(), cell(Kind::Positive, Arm::Arm), pass));
    let positive_coverage_arm =
        Proportion::count(all.clone(), cell(Kind::Positive, Arm::Arm), |r| {
            !abstained_pos(r)
        });
    let positive_accuracy_arm = Proportion::count(
        all.clone(),
        |r| cell(Kind::Positive, Arm::Arm)(r) && !abstained_pos(r),
        pass,
    );
    let conflict_arm = ConflictCounts::of(rows, Arm::Arm);
    let conflict_ctrl = ConflictCounts::of(rows, Arm::Ctrl);
    let mut items: Vec<ItemD> = item_order(rows, meta)
        .into_iter()
        .map(|(qid, kind)| item_d(rows, &qid, kind))
        .collect();
    let family: Vec<Option<f64>> = items.iter().map(|i| i.p).collect();
    for (i, adj) in items.iter_mut().zip(stats::holm(&family)) {
        i.p_holm = adj;
    }
    let contrasts = Kind::ALL
        .iter()
        .map(|&k| axis_contrast(k, &items))
        .collect();
    // Decided rows only here: the undecided ones are named by `finish_marks`.
    let label = label_withheld(&conflict_arm, &conflict_ctrl, meta.runs_arm(), (0, 0));

    let mut s = Summary {
        rows: rows.len() as u64,
        typed,
        protocol_given: meta.protocol_given,
        fallback,
        delivery_arm,
        delivery_all_arm,
        uncarried: item_order(rows, meta)
            .into_iter()
            .filter(|(q, k)| *k == Kind::Positive && meta.uncarried.contains(q))
            .map(|(q, _)| q)
            .collect(),
        hui_arm: Proportion::count(all.clone(), cell(Kind::Negative, Arm::Arm), not_pass),
        hui_ctrl: Proportion::count(all.clone(), cell(Kind::Negative, Arm::Ctrl), not_pass),
        lucky_ctrl: Proportion::count(all.clone(), cell(Kind::Positive, Arm::Ctrl), pass),
        clarify: rows.iter().filter(|r| r.clarify).count() as u64,
        clarify_arm: rows
            .iter()
            .filter(|r| r.clarify && r.arm == Arm::Arm)
            .count() as u64,
        clarify_ctrl: rows
            .iter()
            .filter(|r| r.clarify && r.arm == Arm::Ctrl)
            .count() as u64,
        empty_answers: rows
            .iter()
            .filter(|r| r.verdict.class == Class::Void)
            .count() as u64,
        positive_coverage_arm,
        positive_accuracy_arm,
        negative_abstained_arm: Proportion::count(
            all.clone(),
            cell(Kind::Negative, Arm::Arm),
            pass,
        ),
        negative_answered_arm: Proportion::count(all, cell(Kind::Negative, Arm::Arm), not_pass),
        conflict_arm,
        conflict_ctrl,
        conflict_rates_arm: ConflictRates::of(rows, Arm::Arm),
        conflict_rates_ctrl: ConflictRates::of(rows, Arm::Ctrl),
        mr: Proportion::count(
            rows.iter(),
            |r| {
                r.kind == Kind::Conflict
                    && r.arm == Arm::Arm
                    && matches!(r.verdict.class, Class::ConflictFollowed | Class::PriorWon)
            },
            |r| r.verdict.class == Class::ConflictFollowed,
        ),
        conflict_axis_stands: label.is_none(),
        label_withheld: label,
        items,
        contrasts,
        verdict: InstrumentVerdict::Ok,
        verdict_claimed: false,
        verdict_detail: String::new(),
        verdict_reason: String::new(),
        fired_by: None,
        watermark: None,
        manifest: meta.manifest,
        design_sealed: meta.design_sealed,
        runs_arm: meta.runs_arm(),
        undecided: Vec::new(),
        decided_by: BTreeMap::new(),
        agreement: Vec::new(),
        judge_calibration: meta.judge.as_ref().map(|j| JudgeCalibration {
            figures: j
                .calibration
                .as_ref()
                .map(|c| (c.figures.rows, c.figures.agreement.k, c.figures.kappa)),
            line: j.calibration_line(),
        }),
    };
    let (verdict, claimed, detail) = instrument_verdict(&s);
    s.verdict = verdict;
    s.verdict_claimed = claimed;
    s.verdict_detail = detail;
    // §7.5 names the conflict axis as the condition; a round whose verdict says its numbers are
    // not claims cannot carry an interpretive label either.
    if verdict.watermarks() {
        let why = format!("the instrument verdict is {}", verdict.name());
        s.label_withheld = Some(match s.label_withheld.take() {
            Some(axis) => format!("{axis}; {why}"),
            None => why,
        });
    }
    let mut marks: Vec<&str> = Vec::new();
    if verdict.watermarks() {
        marks.push(verdict.name());
    }
    if meta.contaminated {
        marks.push("CONTAMINATED");
    }
    s.watermark = (!marks.is_empty()).then(|| marks.join("+"));
    s
}

impl Summary {
    /// The verdict as printed: `VOID`, …, or `OK (not claimed)` when nothing was there to claim it from.
    pub fn verdict_display(&self) -> String {
        if self.verdict_claimed {
            self.verdict.name().to_string()
        } else {
            format!("{} (not claimed)", self.verdict.name())
        }
    }

    /// The prefix every number line and row carries (`[VOID] `), or `""` when none applies.
    pub fn watermark_prefix(&self) -> String {
        self.watermark
            .as_deref()
            .map(|w| format!("[{w}] "))
            .unwrap_or_default()
    }

    /// Every number line, in print order. All human-readable renderers print exactly these, so
    /// a number cannot be in one format and missing from another. Built in named phases, one
    /// per printed section group.
    pub fn number_lines(&self) -> Vec<NumberLine> {
        let mut out = Lines::default();
        self.path_lines(&mut out);
        self.headline_lines(&mut out);
        self.three_class_lines(&mut out);
        self.conflict_lines(&mut out);
        self.item_lines(&mut out);
        self.contrast_lines(&mut out);
        self.reader_lines(&mut out);
        let mut lines = out.0;
        self.note_undecided(&mut lines);
        lines
    }

    /// Typed and fallback answer paths: two numbers of all rows, never multiplied.
    fn path_lines(&self, out: &mut Lines) {
        const PATHS: &str =
            "Answer paths (two numbers, never multiplied; 95% over items, per line, unadjusted)";
        let mut typed_note = String::from("rows that carried a recognised typed tag");
        if self.rows > 0 && self.typed.k == 0 {
            typed_note = match self.protocol_given {
                // Nothing asked for a tag: 0 is what such a round looks like, not a warning.
                Some(false) => {
                    "no protocol was given, so no answer was asked for a typed tag".into()
                }
                Some(true) => {
                    "WARNING typed 0: a protocol was given and every answer ignored it".into()
                }
                None => {
                    "WARNING typed 0: either no protocol was given or every answer ignored it; \
                          those are different facts"
                        .into()
                }
            };
        }
        out.prop("typed", PATHS, "TYPED path", self.typed, typed_note);
        let mut fb_note = String::from("rows classified from prose alone");
        if self.rows > 0 && self.fallback.k == 0 {
            fb_note =
                "WARNING fallback 0: \"all complied\" and \"fallback not wired\" print the same; \
                       only a revert probe tells them apart"
                    .to_string();
        }
        out.prop("fallback", PATHS, "FALLBACK path", self.fallback, fb_note);
    }

    /// DELIVERY, HUI, LUCKY and the counters.
    fn headline_lines(&self, out: &mut Lines) {
        const NUMBERS: &str = "Numbers (95% over items, per line, unadjusted)";
        let (lbl_d, lbl_h) = match self.label_withheld.as_ref() {
            None => (
                "carried by the hand-off".to_string(),
                hui_arm_label(self.hui_arm).to_string(),
            ),
            Some(why) => (
                format!(
                    "describes this round but cannot be quoted as what the hand-off delivered, \
                     because {why}"
                ),
                "cannot be quoted as the hand-off's effect either: same reason".to_string(),
            ),
        };
        match self.delivery_all_arm {
            None => out.prop(
                "delivery_arm",
                NUMBERS,
                "DELIVERY (ARM)",
                self.delivery_arm,
                lbl_d,
            ),
            Some(all) => {
                let missing = if self.uncarried.is_empty() {
                    "the seal carries every positive".to_string()
                } else {
                    format!(
                        "the seal does not carry {} positive(s): {}",
                        self.uncarried.len(),
                        self.uncarried.join(", ")
                    )
                };
                out.prop(
                    "delivery_arm",
                    NUMBERS,
                    "DELIVERY (ARM, carried positives)",
                    self.delivery_arm,
                    format!("over the positives the seal carries (--ledger report); {lbl_d}"),
                );
                out.prop(
                    "delivery_all_arm",
                    NUMBERS,
                    "DELIVERY (ARM, all positives)",
                    all,
                    format!("the hand-off's coverage of the qset: {missing}"),
                );
            }
        }
        out.prop("hui_arm", NUMBERS, "HUI (ARM)", self.hui_arm, lbl_h);
        out.prop(
            "hui_ctrl",
            NUMBERS,
            "HUI (CTRL)",
            self.hui_ctrl,
            "instrument survival line".to_string(),
        );
        out.prop(
            "lucky_ctrl",
            NUMBERS,
            "LUCKY (CTRL)",
            self.lucky_ctrl,
            "answered without the hand-off".to_string(),
        );
        for (key, label, count) in [
            ("clarify", "CLARIFY", self.clarify),
            ("clarify_arm", "CLARIFY (ARM)", self.clarify_arm),
            ("clarify_ctrl", "CLARIFY (CTRL)", self.clarify_ctrl),
        ] {
            out.push(
                key,
                NUMBERS,
                label,
                Value::Count { count },
                "ask-back answers: a counter, never a denominator".to_string(),
            );
        }
        out.push(
            "empty_answers",
            NUMBERS,
            "EMPTY answers",
            Value::Count {
                count: self.empty_answers,
            },
            "class VOID: kept in every denominator as not-good".to_string(),
        );
    }

    /// The positive and negative 3-class breakdown of ARM.
    fn three_class_lines(&self, out: &mut Lines) {
        const THREE: &str = "3-class (ARM; 95% over items, per line, unadjusted)";
        out.prop(
            "positive_coverage_arm",
            THREE,
            "positive coverage",
            self.positive_coverage_arm,
            "did not abstain (FAIL and REFUSED_WITH_TOKEN count as abstaining)".to_string(),
        );
        let acc_note = if self.positive_accuracy_arm.n == 0 {
            "nothing was answered: accuracy is 0/0, not 0".to_string()
        } else {
            "PASS of the answered".to_string()
        };
        out.prop(
            "positive_accuracy_arm",
            THREE,
            "positive accuracy",
            self.positive_accuracy_arm,
            acc_note,
        );
        out.prop(
            "negative_abstained_arm",
            THREE,
            "negative abstained",
            self.negative_abstained_arm,
            "the right behaviour here".to_string(),
        );
        out.prop(
            "negative_answered_arm",
            THREE,
            "negative answered",
            self.negative_answered_arm,
            "every answer here is wrong by definition: no accuracy is given".to_string(),
        );
    }

    /// The conflict control, both arms, or its absence stated as unmeasured.
    fn conflict_lines(&self, out: &mut Lines) {
        let (ca, cc) = (&self.conflict_arm, &self.conflict_ctrl);
        if ca.rows == 0 && cc.rows == 0 {
            const NOC: &str = "Conflict";
            out.push(
                "carrier_read_arm",
                NOC,
                "CARRIER-READ",
                Value::Unmeasured,
                "no conflict items: not 0, not measured".to_string(),
            );
            out.push(
                "delivery_carrier_borne",
                NOC,
                "DELIVERY from the hand-off?",
                Value::Unmeasured,
                "unverified: without conflict items DELIVERY may come from the repository or \
                 general knowledge rather than the hand-off"
                    .to_string(),
            );
            return;
        }
        const CA: &str = "Conflict (ARM)";
        let (ra, rc) = (&self.conflict_rates_arm, &self.conflict_rates_ctrl);
        // Without ARM conflict rows every ARM line is 0/0: say why, never what ARM did.
        let no_arm = if !self.runs_arm {
            Some(NO_ARM_ARM.to_string())
        } else if ca.rows == 0 {
            Some("no decided ARM conflict rows: not measured".to_string())
        } else {
            None
        };
        let arm_note = |note: String| no_arm.clone().unwrap_or(note);
        out.prop(
            "carrier_read_arm",
            CA,
            "CARRIER-READ",
            ra.followed,
            arm_note(
                "followed the value planted in the hand-off: the hand-off was read".to_string(),
            ),
        );
        out.prop(
            "prior_won_arm",
            CA,
            "PRIOR_WON",
            ra.prior_won,
            arm_note(if ca.prior_won > 0 {
                "gave the repository's own value (the qset's general value) instead of the planted one"
                    .to_string()
            } else {
                "ARM never gave the repository's own value instead of the planted one".to_string()
            }),
        );
        out.prop(
            "abstained_arm",
            CA,
            "ABSTAINED",
            ra.abstained,
            arm_note(String::new()),
        );
        out.prop(
            "unclassified_arm",
            CA,
            "UNCLASSIFIED",
            ra.unclassified,
            arm_note("none of the three could be asserted: a person reads these".to_string()),
        );
        let mut mr_note = "READ / (READ + PRIOR_WON), abstained and unclassified excluded \
                           (Longpre et al. 2021)"
            .to_string();
        if let Some(why) = &no_arm {
            mr_note = why.clone();
        } else if self.mr.n < SMALL_SAMPLE {
            mr_note.push_str(&format!(
                "; WARNING small denominator ({} < {SMALL_SAMPLE})",
                self.mr.n
            ));
        }
        out.prop("mr", CA, "MR (ARM)", self.mr, mr_note);

        const CC: &str = "Conflict (CTRL): the control's survival line";
        let read_note = if cc.followed > 0 {
            "ANOMALY: CTRL gave the planted value without the hand-off".to_string()
        } else {
            "should stay 0: CTRL never sees the hand-off".to_string()
        };
        out.prop(
            "carrier_read_ctrl",
            CC,
            "CARRIER-READ",
            rc.followed,
            read_note,
        );
        out.prop(
            "prior_won_ctrl",
            CC,
            "PRIOR_WON",
            rc.prior_won,
            "CTRL's normal behaviour".to_string(),
        );
        out.prop(
            "abstained_ctrl",
            CC,
            "ABSTAINED",
            rc.abstained,
            String::new(),
        );
        out.prop(
            "unclassified_ctrl",
            CC,
            "UNCLASSIFIED",
            rc.unclassified,
            "CTRL's unclassified are shown too".to_string(),
        );
    }

    /// Per-item D, one line per item, with the Holm-adjusted p of the item family.
    fn item_lines(&self, out: &mut Lines) {
        for i in &self.items {
            let note = match i.d {
                Some(_) => match i.kind {
                    Kind::Conflict => {
                        format!("{} (P counts {}: hand-off read)", i.kind, good_name(i.kind))
                    }
                    _ => format!("{} (P counts {})", i.kind, good_name(i.kind)),
                },
                None => format!("{}: {}", i.kind, i.unmeasured_reason()),
            };
            out.push(
                &format!("item_d:{}", i.qid),
                ITEMS_SECTION,
                &i.qid,
                Value::ItemD(i.clone()),
                note,
            );
        }
    }

    /// Per-axis paired contrast, McNemar and sign test over items.
    fn contrast_lines(&self, out: &mut Lines) {
        const AX: &str =
            "Paired ARM−CTRL contrast per axis (items are the unit; per line 95%, unadjusted)";
        for a in &self.contrasts {
            out.push(
                &format!("contrast:{}", a.kind),
                AX,
                &format!("{} ARM−CTRL over items", a.kind),
                Value::Contrast {
                    contrast: a.contrast,
                },
                a.warnings
                    .iter()
                    .filter(|w| w.starts_with("descriptive"))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; "),
            );
            out.push(
                &format!("mcnemar:{}", a.kind),
                AX,
                &format!("{} McNemar (exact)", a.kind),
                Value::McNemar(a.mcnemar),
                a.warnings
                    .iter()
                    .filter(|w| !w.starts_with("descriptive"))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; "),
            );
            out.push(
                &format!("sign:{}", a.kind),
                AX,
                &format!("{} sign test (exact)", a.kind),
                Value::Sign {
                    test: a.sign,
                    zero_d: a.zero_d,
                },
                "items with D > 0 vs D < 0, items with D = 0 counting against the direction: \
                 the test the interval above inverts to (one method)"
                    .to_string(),
            );
        }
    }
}

/// The per-item D section heading (renderers find it by this prefix).
pub const ITEMS_SECTION: &str =
    "Per-item D = P_ARM − P_CTRL (context sensitivity; Fisher's exact p, \
     treating each item's reps as independent draws of one answer distribution; per line \
     unadjusted, Holm column over the item family; the paired tests over items are below)";

/// The number lines being built, in print order.
#[derive(Default)]
struct Lines(Vec<NumberLine>);

impl Lines {
    fn push(&mut self, key: &str, section: &'static str, label: &str, value: Value, note: String) {
        self.0.push(NumberLine {
            key: key.to_string(),
            section,
            label: label.to_string(),
            value,
            note,
            undetermined: 0,
            contested: 0,
        });
    }

    fn prop(&mut self, key: &str, section: &'static str, label: &str, p: Proportion, note: String) {
        self.push(key, section, label, Value::Proportion(p), note);
    }
}

impl Summary {
    /// Who decided the rows, and how far the two readers agree: printed once a judge read any
    /// row (a round read by the lexicon alone says so in its rows' `decided_by`).
    fn reader_lines(&self, out: &mut Lines) {
        const RD: &str =
            "Readers: who decided each row (decided_by: lexicon, both, judge or person); undecided rows are outside every number";
        let for_person: Vec<String> = self
            .undecided
            .iter()
            .filter_map(|u| {
                u.for_person
                    .as_deref()
                    .map(|why| format!("{}: {}", u.name(), crate::sanitize::excerpt(why, 160)))
            })
            .collect();
        if !for_person.is_empty() {
            out.push(
                "for_person",
                RD,
                "left to a person (the answer addresses a grader; no reader decides it)",
                Value::Count {
                    count: for_person.len() as u64,
                },
                format!("{}; settle with `harness review`", for_person.join("; ")),
            );
        }
        if let Some(c) = &self.judge_calibration {
            out.push(
                "judge_calibration",
                RD,
                "judge calibration (labelled corpus)",
                match c.figures {
                    Some((n, agree, kappa)) => Value::Agreement { n, agree, kappa },
                    None => Value::Unmeasured,
                },
                c.line.clone(),
            );
        }
        // Shown whenever a reader besides the lexicon decided a row (a judge, both, a person).
        let others = ["both", "judge", "person"]
            .iter()
            .any(|by| self.decided_by.get(*by).is_some_and(|n| *n > 0));
        if self.agreement.is_empty() && !others {
            return;
        }
        for by in ["lexicon", "both", "judge", "person"] {
            out.push(
                &format!("decided_by:{by}"),
                RD,
                &format!("rows decided by {by}"),
                Value::Count {
                    count: self.decided_by.get(by).copied().unwrap_or(0),
                },
                String::new(),
            );
        }
        for a in &self.agreement {
            out.push(
                &format!("agreement:{}", a.kind),
                RD,
                &format!("{} lexicon vs judge", a.kind),
                Value::Agreement {
                    n: a.n,
                    agree: a.agree,
                    kappa: a.kappa,
                },
                "the lexicon's class (certain or its guess) against the judge's, on rows the judge read".into(),
            );
        }
        let contested: Vec<String> = self
            .undecided
            .iter()
            .filter(|u| u.state == "CONTESTED")
            .map(|u| u.name())
            .collect();
        out.push(
            "contested",
            RD,
            "CONTESTED (lexicon certain, judge differs)",
            Value::Count {
                count: contested.len() as u64,
            },
            if contested.is_empty() {
                String::new()
            } else {
                format!("{}; settle with `harness review`", contested.join(", "))
            },
        );
    }

    /// Beside each headline number, the rows of its cell no reader decided: the number counts
    /// decided rows only, and "not decided" is never a pass or a fail.
    fn note_undecided(&self, lines: &mut [NumberLine]) {
        if self.undecided.is_empty() {
            return;
        }
        // (undetermined, contested) rows of one cell; `carried` keeps only the positives the
        // seal carries (DELIVERY under `--ledger report` counts those alone).
        let count = |kind: Kind, arm: Option<Arm>, carried_only: bool| {
            let rows: Vec<&UndecidedRow> = self
                .undecided
                .iter()
                .filter(|u| u.kind == kind && arm.is_none_or(|a| u.arm == a))
                .filter(|u| !carried_only || !self.uncarried.contains(&u.qid))
                .collect();
            let c = rows.iter().filter(|u| u.state == "CONTESTED").count();
            (rows.len() - c, c)
        };
        for l in lines.iter_mut() {
            let (u, c) = match l.key.as_str() {
                "delivery_arm" => count(Kind::Positive, Some(Arm::Arm), true),
                "delivery_all_arm" | "positive_coverage_arm" | "positive_accuracy_arm" => {
                    count(Kind::Positive, Some(Arm::Arm), false)
                }
                "hui_arm" | "negative_abstained_arm" | "negative_answered_arm" => {
                    count(Kind::Negative, Some(Arm::Arm), false)
                }
                "hui_ctrl" => count(Kind::Negative, Some(Arm::Ctrl), false),
                "lucky_ctrl" => count(Kind::Positive, Some(Arm::Ctrl), false),
                "mr" | "carrier_read_arm" | "prior_won_arm" | "abstained_arm"
                | "unclassified_arm" => count(Kind::Conflict, Some(Arm::Arm), false),
                "carrier_read_ctrl" | "prior_won_ctrl" | "abstained_ctrl" | "unclassified_ctrl" => {
                    count(Kind::Conflict, Some(Arm::Ctrl), false)
                }
                k => k.strip_prefix("item_d:").map_or((0, 0), |qid| {
                    let rows: Vec<&UndecidedRow> =
                        self.undecided.iter().filter(|u| u.qid == qid).collect();
                    let c = rows.iter().filter(|u| u.state == "CONTESTED").count();
                    (rows.len() - c, c)
                }),
            };
            if u + c == 0 {
                continue;
            }
            let decided = match &l.value {
                Value::Proportion(p) => format!("{}/{} decided, ", p.k, p.n),
                _ => String::new(),
            };
            l.undetermined = u + c;
            l.contested = c;
            let extra = format!(
                "{decided}{} (outside the count, neither pass nor fail)",
                undecided_words(u, c, false)
            );
            l.note = if l.note.is_empty() {
                extra
            } else {
                format!("{extra}; {}", l.note)
            };
        }
    }
}

/// The class that counts as good for a kind, as printed.
pub fn good_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Positive | Kind::Negative => "PASS",
        Kind::Conflict => "CONFLICT_FOLLOWED",
    }
}

/// The block every human-readable report carries (§7.6): what this round does not measure.
pub const DOES_NOT_MEASURE: [Limit; 3] = [
    Limit {
        id: "R1 proxy",
        title: "A PASS is not proof that compaction kept anything",
        text:
            "PASS means the hand-off ARM was given (the seal) held enough to answer this question; \
               it does not show that compacting a session preserved anything.",
    },
    Limit {
        id: "R2 coverage",
        title: "Only the questions asked",
        text: "the known question-and-answer pairs show the least a hand-off must carry; \
               context no question asks about is not measured.",
    },
    Limit {
        id: "R3 author bias",
        title: "Who wrote the questions",
        text: "whoever writes both the seal and the qset chooses what can pass.",
    },
];

/// One limit of every round, said in plain words in the human reports; `id` is the stable
/// key scripts read in summary.json, never printed for a person.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Stable key in summary.json's `does_not_measure`.
    pub id: &'static str,
    /// The limit in a few plain words, as the human reports head it.
    pub title: &'static str,
    /// The limit said in full.
    pub text: &'static str,
}

/// Good rows of one axis in one arm (the bars of the HTML report; D's two sides summed over
/// items), counted by the one rule of [`crate::counting`]: decided rows only.
pub fn good_rate(rows: &[Row], kind: Kind, arm: Arm) -> Proportion {
    crate::counting::proportion(rows, |r| r.kind == kind && r.arm == arm, is_good)
}
