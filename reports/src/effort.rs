//! Effort per arm: does the hand-off save work, not only answers? Each answered dispatch's
//! turns, input and output tokens, cost and tool calls as its agent reported them, and its wall
//! time as the harness measured it, set side by side for ARM and CTRL per item and per axis,
//! with the paired ARM−CTRL difference over items; and, between two rounds, the A→B difference
//! of ARM's effort the same way.
//!
//! Items are the unit: a dispatch's reps are averaged within its item first (over the reps that
//! reported the measure), then each item gives one paired difference. The summary of those
//! differences is their **median** with a **distribution-free 95% interval for the median**
//! from order statistics (the binomial / sign-test interval: `[x₍ₖ₎, x₍ₙ₊₁₋ₖ₎]` with the largest
//! `k` whose two-sided tail `2·P(Bin(n, ½) ≤ k−1)` is at most 0.05, so its coverage is at least
//! 95%; the exact coverage is recorded). It assumes nothing about the shape of the
//! differences, which for tokens and costs are skewed; with fewer than 6 items no such interval
//! reaches 95% and none is printed. The relative difference is the median over items of
//! `ARM/CTRL − 1` (order statistics commute with that monotone map, so its interval is the same
//! interval on the ratios); it is printed only when CTRL used some of the measure on every
//! paired item, else the absolute difference stands alone.
//!
//! A measure no dispatch reported is `not reported`, never 0; a measure only some dispatches
//! reported says how many did. Effort never enters a verdict: nothing in
//! [`crate::summary::summarize`] reads it. Pure: a round's [`crate::RoundMeta::effort`] in,
//! numbers and text out.

use crate::sanitize;
use crate::summary::is_good;
use crate::Report;
use scorer::{Arm, Kind};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as J};
use std::collections::BTreeMap;
use std::fmt::Write;

/// What one answered dispatch cost, as its record has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DispatchEffort {
    /// The question it answered.
    pub qid: String,
    /// Its arm.
    pub arm: Arm,
    /// Its rep.
    pub rep: u32,
    /// Model turns the agent reported; `None`: not reported.
    pub turns: Option<u64>,
    /// Input tokens the agent reported (cached ones included).
    pub input_tokens: Option<u64>,
    /// Output tokens the agent reported.
    pub output_tokens: Option<u64>,
    /// Cost in USD the agent reported.
    pub cost_usd: Option<f64>,
    /// Tool calls the agent's output showed.
    pub tool_calls: Option<u64>,
    /// Wall time of the agent's run in seconds, measured by the harness (always present).
    pub wall_secs: f64,
}

/// One measure of effort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Model turns.
    Turns,
    /// Input tokens.
    InputTokens,
    /// Output tokens.
    OutputTokens,
    /// Reported cost, USD.
    CostUsd,
    /// Tool calls.
    ToolCalls,
    /// Wall time, seconds (the harness's own clock).
    WallSecs,
}

impl Metric {
    /// Every measure, in the order reports list them.
    pub const ALL: [Metric; 6] = [
        Metric::Turns,
        Metric::InputTokens,
        Metric::OutputTokens,
        Metric::CostUsd,
        Metric::ToolCalls,
        Metric::WallSecs,
    ];

    /// The order a one-line headline looks for a measure with a paired result: what an agent
    /// reports first, the harness's wall time last.
    const HEADLINE: [Metric; 6] = [
        Metric::InputTokens,
        Metric::Turns,
        Metric::CostUsd,
        Metric::OutputTokens,
        Metric::ToolCalls,
        Metric::WallSecs,
    ];

    /// The key in `summary.json`.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Turns => "turns",
            Metric::InputTokens => "input_tokens",
            Metric::OutputTokens => "output_tokens",
            Metric::CostUsd => "cost_usd",
            Metric::ToolCalls => "tool_calls",
            Metric::WallSecs => "wall_secs",
        }
    }

    /// The words reports print.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Turns => "turns",
            Metric::InputTokens => "input tokens",
            Metric::OutputTokens => "output tokens",
            Metric::CostUsd => "cost",
            Metric::ToolCalls => "tool calls",
            Metric::WallSecs => "wall time",
        }
    }

    /// Whether the agent reports it (every measure but wall time, which the harness measures).
    pub fn agent_reported(self) -> bool {
        self != Metric::WallSecs
    }

    /// The dispatch's value, `None` when its agent did not report it.
    pub fn of(self, d: &DispatchEffort) -> Option<f64> {
        match self {
            Metric::Turns => d.turns.map(|v| v as f64),
            Metric::InputTokens => d.input_tokens.map(|v| v as f64),
            Metric::OutputTokens => d.output_tokens.map(|v| v as f64),
            Metric::CostUsd => d.cost_usd,
            Metric::ToolCalls => d.tool_calls.map(|v| v as f64),
            Metric::WallSecs => Some(d.wall_secs),
        }
    }

    /// A value in the measure's unit (`1234`, `2.5`, `$0.0123`, `1.20 s`); `signed` puts a
    /// `+` or `−` in front.
    pub fn show(self, v: f64, signed: bool) -> String {
        let sign = if !signed || v == 0.0 {
            ""
        } else if v < 0.0 {
            "−"
        } else {
            "+"
        };
        let a = if signed { v.abs() } else { v };
        let body = match self {
            Metric::InputTokens | Metric::OutputTokens => format!("{a:.0}"),
            Metric::Turns | Metric::ToolCalls => trim(format!("{a:.1}")),
            Metric::CostUsd => format!("${a:.4}"),
            Metric::WallSecs if a < 1.0 => format!("{:.0} ms", a * 1000.0),
            Metric::WallSecs if a < 10.0 => format!("{a:.2} s"),
            Metric::WallSecs => format!("{a:.1} s"),
        };
        format!("{sign}{body}")
    }

    /// "41% fewer input tokens" (or "41% less wall time"), for `rel` = −0.41; "as many input
    /// tokens" at 0.
    fn amount(self, rel: f64) -> String {
        let pct = (rel.abs() * 100.0).round();
        let countable = !matches!(self, Metric::CostUsd | Metric::WallSecs);
        if pct == 0.0 {
            return if countable {
                format!("as many {}", self.label())
            } else {
                format!("as much {}", self.label())
            };
        }
        let word = match (rel < 0.0, countable) {
            (true, true) => "fewer",
            (true, false) => "less",
            (false, true) | (false, false) => "more",
        };
        format!("{pct:.0}% {word} {}", self.label())
    }

    /// "2 more tool calls" for an absolute difference `d`.
    fn absolute(self, d: f64) -> String {
        let countable = !matches!(self, Metric::CostUsd | Metric::WallSecs);
        let word = match (d < 0.0, countable) {
            _ if d == 0.0 => return self.amount(0.0),
            (true, true) => "fewer",
            (true, false) => "less",
            (false, _) => "more",
        };
        format!("{} {word} {}", self.show(d.abs(), false), self.label())
    }
}

/// `2.0` → `2`, `2.5` → `2.5`.
fn trim(s: String) -> String {
    match s.strip_suffix(".0") {
        Some(t) => t.to_string(),
        None => s,
    }
}

/// A percentage of a relative difference (`−41%`, `+12%`).
fn pct(rel: f64) -> String {
    let p = (rel * 100.0).round();
    if p == 0.0 {
        "0%".into()
    } else if p < 0.0 {
        format!("−{:.0}%", -p)
    } else {
        format!("+{p:.0}%")
    }
}

/// `[lo, hi]` as shown, marked when every item gave the same value (zero width).
fn bracket(lo: f64, hi: f64, show: impl Fn(f64) -> String) -> String {
    let mut s = format!("[{}, {}]", show(lo), show(hi));
    if (hi - lo).abs() < 1e-12 {
        s.push_str(" DEGENERATE (zero width)");
    }
    s
}

/// The plural of a kind in sentences.
fn kinds(kind: Kind) -> &'static str {
    match kind {
        Kind::Positive => "positives",
        Kind::Negative => "negatives",
        Kind::Conflict => "conflicts",
    }
}

/// The fewest items with which an order-statistic interval for the median reaches 95%.
pub const MIN_ITEMS_FOR_INTERVAL: usize = 6;

/// `P(Bin(n, ½) ≤ j)`, summed exactly in log space.
fn binom_half_cdf(n: u64, j: u64) -> f64 {
    let ln2 = std::f64::consts::LN_2;
    (0..=j.min(n))
        .map(|i| (statrs::function::factorial::ln_binomial(n, i) - n as f64 * ln2).exp())
        .sum::<f64>()
        .min(1.0)
}

/// The median of `xs` with its distribution-free 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MedianInterval {
    /// The median (the mean of the two middle values for an even count).
    pub median: f64,
    /// `[x₍ₖ₎, x₍ₙ₊₁₋ₖ₎]`; `None` with fewer than [`MIN_ITEMS_FOR_INTERVAL`] values.
    pub lo: Option<f64>,
    /// The upper bound.
    pub hi: Option<f64>,
    /// The interval's exact coverage (at least 0.95); `None` without an interval.
    pub coverage: Option<f64>,
}

/// The median of `xs` and the order-statistic interval for it; `None` for no values.
pub fn median_interval(xs: &[f64]) -> Option<MedianInterval> {
    if xs.is_empty() {
        return None;
    }
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    // The largest k (1-based) whose two tails of Bin(n, ½) below k together hold at most 5%.
    let mut best = None;
    for k in 1..=n / 2 {
        let tail = 2.0 * binom_half_cdf(n as u64, (k - 1) as u64);
        if tail <= 0.05 {
            best = Some((k, 1.0 - tail));
        } else {
            break;
        }
    }
    let (lo, hi, coverage) = match best {
        Some((k, cov)) => (Some(v[k - 1]), Some(v[n - k]), Some(cov)),
        None => (None, None, None),
    };
    Some(MedianInterval {
        median,
        lo,
        hi,
        coverage,
    })
}

/// One arm's effort on one axis and measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmEffort {
    /// Answered dispatches of the arm on the axis.
    pub dispatches: usize,
    /// Of those, the ones whose agent reported the measure.
    pub reported: usize,
    /// Items with at least one reported dispatch.
    pub items: usize,
    /// The median over those items of the item's mean; `None`: not reported.
    pub median_per_item: Option<f64>,
}

/// The paired difference over items (ARM − CTRL in a round, B − A between rounds).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Paired {
    /// Items where both sides reported the measure.
    pub items: usize,
    /// Median of the per-item differences, in the measure's unit.
    pub difference: MedianInterval,
    /// Median of the per-item `x/y − 1`; `None` when `y` was 0 on some item.
    pub relative: Option<MedianInterval>,
    /// Items where the reference side (CTRL, or round A) used none of the measure.
    pub reference_zero: usize,
}

impl Paired {
    fn of(pairs: &[(f64, f64)]) -> Option<Paired> {
        let diffs: Vec<f64> = pairs.iter().map(|(x, y)| x - y).collect();
        let difference = median_interval(&diffs)?;
        let reference_zero = pairs.iter().filter(|(_, y)| *y <= 0.0).count();
        let relative = if reference_zero == 0 {
            let r: Vec<f64> = pairs.iter().map(|(x, y)| x / y - 1.0).collect();
            median_interval(&r)
        } else {
            None
        };
        Some(Paired {
            items: pairs.len(),
            difference,
            relative,
            reference_zero,
        })
    }

    /// `−2800 [−3100, −2000], −70% [−78%, −50%] over 6 items`.
    fn display(&self, m: Metric) -> String {
        let d = &self.difference;
        let mut s = m.show(d.median, true);
        if let (Some(lo), Some(hi)) = (d.lo, d.hi) {
            let _ = write!(s, " {}", bracket(lo, hi, |x| m.show(x, true)));
        }
        match &self.relative {
            Some(r) => {
                let _ = write!(s, ", {}", pct(r.median));
                if let (Some(lo), Some(hi)) = (r.lo, r.hi) {
                    let _ = write!(s, " {}", bracket(lo, hi, pct));
                }
            }
            None => {
                let _ = write!(
                    s,
                    " (no relative difference: the reference used none on {} item(s))",
                    self.reference_zero
                );
            }
        }
        let _ = write!(s, " over {} item(s)", self.items);
        if d.lo.is_none() {
            let _ = write!(
                s,
                " (no 95% interval with fewer than {MIN_ITEMS_FOR_INTERVAL} items)"
            );
        }
        s
    }

    /// ("41% fewer input tokens", " [−55%, −22%], 12 items"): the relative difference when it
    /// exists, else the absolute one, then its interval and item count, with a note when the
    /// interval includes no difference.
    fn phrase(&self, m: Metric) -> (String, String) {
        let (head, iv) = match &self.relative {
            Some(r) => (
                m.amount(r.median),
                r.lo.zip(r.hi)
                    .map(|(lo, hi)| (bracket(lo, hi, pct), lo, hi)),
            ),
            None => {
                let d = &self.difference;
                (
                    m.absolute(d.median),
                    d.lo.zip(d.hi)
                        .map(|(lo, hi)| (bracket(lo, hi, |x| m.show(x, true)), lo, hi)),
                )
            }
        };
        let rest = match iv {
            Some((text, lo, hi)) => {
                let mut r = format!(" {text}, {} items", self.items);
                if lo <= 0.0 && hi >= 0.0 {
                    r.push_str("; the interval includes no difference");
                }
                r
            }
            None => format!(
                ", {} item(s) (too few for a 95% interval: it needs {MIN_ITEMS_FOR_INTERVAL})",
                self.items
            ),
        };
        (head, rest)
    }
}

/// ARM and CTRL effort on one axis and measure, with their paired difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AxisEffort {
    /// The axis.
    pub kind: Kind,
    /// The measure.
    pub metric: Metric,
    /// ARM's side.
    pub arm: ArmEffort,
    /// CTRL's side.
    pub ctrl: ArmEffort,
    /// ARM − CTRL over items where both reported it; `None` when no item has both.
    pub paired: Option<Paired>,
}

impl AxisEffort {
    /// The measure no dispatch of either arm reported.
    pub fn not_reported(&self) -> bool {
        self.arm.reported == 0 && self.ctrl.reported == 0
    }

    /// `reported`, `partly reported` (some dispatches did not) or `not reported`.
    pub fn status(&self) -> &'static str {
        let total = self.arm.dispatches + self.ctrl.dispatches;
        match self.arm.reported + self.ctrl.reported {
            0 => "not reported",
            k if k < total => "partly reported",
            _ => "reported",
        }
    }

    /// The line every human format prints for it.
    pub fn display(&self) -> String {
        let m = self.metric;
        let total = self.arm.dispatches + self.ctrl.dispatches;
        if self.not_reported() {
            return format!("not reported (by none of {total} dispatches)");
        }
        let side = |a: &ArmEffort| match a.median_per_item {
            Some(v) => m.show(v, false),
            None if a.dispatches == 0 => "no dispatches".into(),
            None => "not reported".into(),
        };
        let mut s = format!(
            "ARM {} vs CTRL {} (median per item)",
            side(&self.arm),
            side(&self.ctrl)
        );
        match &self.paired {
            Some(p) => {
                let _ = write!(s, "; ARM − CTRL {}", p.display(m));
            }
            None => s.push_str("; no item has both arms: no paired difference"),
        }
        let reported = self.arm.reported + self.ctrl.reported;
        if reported < total {
            let _ = write!(
                s,
                "; reported by {} of {} ARM and {} of {} CTRL dispatches",
                self.arm.reported, self.arm.dispatches, self.ctrl.reported, self.ctrl.dispatches
            );
        }
        s
    }

    /// "ARM used 41% fewer input tokens than CTRL on positives [−55%, −22%], 12 items".
    pub fn sentence(&self) -> Option<String> {
        let p = self.paired.as_ref()?;
        let (head, tail) = p.phrase(self.metric);
        let verb = if self.metric == Metric::CostUsd {
            "spent"
        } else if self.metric == Metric::WallSecs {
            "took"
        } else {
            "used"
        };
        let than = if head.starts_with("as ") {
            "as"
        } else {
            "than"
        };
        let mut s = format!(
            "ARM {verb} {head} {than} CTRL on {}{tail}",
            kinds(self.kind)
        );
        let reported = self.arm.reported + self.ctrl.reported;
        let total = self.arm.dispatches + self.ctrl.dispatches;
        if reported < total {
            let _ = write!(s, " (reported by {reported} of {total} dispatches)");
        }
        Some(s)
    }
}

/// One item's effort per measure, ARM and CTRL side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemEffort {
    /// The question.
    pub qid: String,
    /// Its kind.
    pub kind: Kind,
    /// Per measure (in [`Metric::ALL`] order): ARM's and CTRL's mean over the reps that
    /// reported it (`None`: not reported or no dispatch), and how many reps reported each.
    pub cells: Vec<ItemCell>,
}

/// One item's value of one measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemCell {
    /// The measure.
    pub metric: Metric,
    /// ARM's mean over its reporting reps.
    pub arm: Option<f64>,
    /// CTRL's mean over its reporting reps.
    pub ctrl: Option<f64>,
    /// ARM reps that reported it, of ARM reps.
    pub arm_reported: (usize, usize),
    /// CTRL reps that reported it, of CTRL reps.
    pub ctrl_reported: (usize, usize),
}

/// A round's effort: per axis and measure, and per item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffortSummary {
    /// The round's records carry effort (rounds recorded before effort was kept do not).
    pub recorded: bool,
    /// Answered dispatches with an effort record.
    pub dispatches: usize,
    /// Per axis (kinds present, in kind order) and measure.
    pub axes: Vec<AxisEffort>,
    /// Per item, in qset order.
    pub items: Vec<ItemEffort>,
}

/// An item's mean of one measure in one arm, with (reporting reps, reps).
type Side = (Option<f64>, (usize, usize));

/// `(reported, dispatches, mean)` of one measure over one item's dispatches of one arm.
fn cell<'a>(
    ds: impl Iterator<Item = &'a DispatchEffort>,
    m: Metric,
) -> (usize, usize, Option<f64>) {
    let (mut n, mut k, mut sum) = (0, 0, 0.0);
    for d in ds {
        n += 1;
        if let Some(v) = m.of(d) {
            k += 1;
            sum += v;
        }
    }
    (k, n, (k > 0).then(|| sum / k as f64))
}

/// The effort of `report`'s round, from [`crate::RoundMeta::effort`].
pub fn summarize(report: &Report) -> EffortSummary {
    let meta = &report.meta;
    let kind_of = |qid: &str| meta.questions.iter().find(|q| q.qid == qid).map(|q| q.kind);
    let mut qids: Vec<&str> = meta.questions.iter().map(|q| q.qid.as_str()).collect();
    for e in &meta.effort {
        if !qids.contains(&e.qid.as_str()) && kind_of(&e.qid).is_some() {
            qids.push(&e.qid);
        }
    }
    let of = |qid: &str, arm: Arm| -> Vec<&DispatchEffort> {
        meta.effort
            .iter()
            .filter(|e| e.qid == qid && e.arm == arm)
            .collect()
    };
    let mut items = Vec::new();
    for qid in &qids {
        let Some(kind) = kind_of(qid) else { continue };
        let (arm_ds, ctrl_ds) = (of(qid, Arm::Arm), of(qid, Arm::Ctrl));
        if arm_ds.is_empty() && ctrl_ds.is_empty() {
            continue;
        }
        let cells = Metric::ALL
            .iter()
            .map(|&m| {
                let (ak, an, a) = cell(arm_ds.iter().copied(), m);
                let (ck, cn, c) = cell(ctrl_ds.iter().copied(), m);
                ItemCell {
                    metric: m,
                    arm: a,
                    ctrl: c,
                    arm_reported: (ak, an),
                    ctrl_reported: (ck, cn),
                }
            })
            .collect();
        items.push(ItemEffort {
            qid: qid.to_string(),
            kind,
            cells,
        });
    }
    let mut axes = Vec::new();
    for kind in Kind::ALL {
        let of_kind: Vec<&ItemEffort> = items.iter().filter(|i| i.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        for (mi, &m) in Metric::ALL.iter().enumerate() {
            let side = |pick: fn(&ItemCell) -> Side| {
                let vals: Vec<Side> = of_kind.iter().map(|i| pick(&i.cells[mi])).collect();
                let means: Vec<f64> = vals.iter().filter_map(|(v, _)| *v).collect();
                ArmEffort {
                    dispatches: vals.iter().map(|(_, (_, n))| n).sum(),
                    reported: vals.iter().map(|(_, (k, _))| k).sum(),
                    items: means.len(),
                    median_per_item: median_interval(&means).map(|m| m.median),
                }
            };
            let arm = side(|c| (c.arm, c.arm_reported));
            let ctrl = side(|c| (c.ctrl, c.ctrl_reported));
            let pairs: Vec<(f64, f64)> = of_kind
                .iter()
                .filter_map(|i| i.cells[mi].arm.zip(i.cells[mi].ctrl))
                .collect();
            axes.push(AxisEffort {
                kind,
                metric: m,
                arm,
                ctrl,
                paired: Paired::of(&pairs),
            });
        }
    }
    EffortSummary {
        recorded: !meta.effort.is_empty(),
        dispatches: meta.effort.len(),
        axes,
        items,
    }
}

/// Said where a round's records carry no effort at all.
const NOT_RECORDED: &str =
    "not recorded: this round's records carry no per-dispatch effort (recorded before effort was kept)";

/// Said once beside every effort section.
pub const NEVER_A_VERDICT: &str = "effort never enters a verdict";

/// What the interval is, said beside every effort section.
pub const METHOD: &str = "every answered dispatch counts, whatever its class; items are the unit (reps averaged within an item first); median of the per-item differences with a distribution-free 95% order-statistic interval for the median (none below 6 items); relative = median of ARM/CTRL − 1 per item; unadjusted";

impl EffortSummary {
    /// The one line of the brief: the first measure with a paired difference, positives
    /// first; `not reported` when the agent reported no measure.
    pub fn headline(&self) -> String {
        if !self.recorded {
            return NOT_RECORDED.to_string();
        }
        let agent_reported = self
            .axes
            .iter()
            .any(|a| a.metric.agent_reported() && !a.not_reported());
        let pick = |agent: bool| {
            Metric::HEADLINE
                .iter()
                .filter(|m| m.agent_reported() == agent)
                .find_map(|m| {
                    Kind::ALL.iter().find_map(|k| {
                        self.axes
                            .iter()
                            .find(|a| a.kind == *k && a.metric == *m)
                            .and_then(AxisEffort::sentence)
                    })
                })
        };
        let wall = pick(false)
            .map(|s| format!("wall time: {s}"))
            .unwrap_or_else(|| "one arm only: no ARM − CTRL difference".into());
        if !agent_reported {
            return format!("not reported by the agent (turns, tokens, cost, tool calls) · {wall}");
        }
        match pick(true) {
            Some(s) => s,
            None => "one arm only: no ARM − CTRL difference".into(),
        }
    }

    /// The section's lines (terminal and Markdown): the method, then one line per axis and
    /// measure.
    pub fn lines(&self) -> Vec<String> {
        if !self.recorded {
            return vec![NOT_RECORDED.to_string()];
        }
        let mut out = vec![format!("{}; {NEVER_A_VERDICT}", METHOD)];
        for a in &self.axes {
            out.push(format!(
                "{} · {}: {}",
                a.kind,
                a.metric.label(),
                a.display()
            ));
        }
        out
    }

    /// The `effort` object of `summary.json`.
    pub fn json(&self) -> J {
        let side = |a: &ArmEffort| {
            json!({
                "dispatches": a.dispatches,
                "reported": a.reported,
                "items": a.items,
                "median_per_item": a.median_per_item,
            })
        };
        let mi = |m: &MedianInterval| json!({"median": m.median, "lo": m.lo, "hi": m.hi, "coverage": m.coverage});
        json!({
            "recorded": self.recorded,
            "dispatches": self.dispatches,
            "unit": "items",
            "method": METHOD,
            "enters_verdict": false,
            "headline": self.headline(),
            "axes": self.axes.iter().map(|a| json!({
                "kind": a.kind,
                "metric": a.metric.key(),
                "status": a.status(),
                "arm": side(&a.arm),
                "ctrl": side(&a.ctrl),
                "paired": a.paired.as_ref().map(|p| json!({
                    "items": p.items,
                    "difference": mi(&p.difference),
                    "relative": p.relative.as_ref().map(mi),
                    "reference_zero_items": p.reference_zero,
                })),
                "display": a.display(),
                "sentence": a.sentence(),
            })).collect::<Vec<_>>(),
            "items": self.items.iter().map(|i| {
                let mut o = json!({"qid": sanitize::excerpt(&i.qid, 200), "kind": i.kind});
                for c in &i.cells {
                    o[c.metric.key()] = json!({
                        "arm": c.arm, "ctrl": c.ctrl,
                        "arm_reported": c.arm_reported.0, "arm_dispatches": c.arm_reported.1,
                        "ctrl_reported": c.ctrl_reported.0, "ctrl_dispatches": c.ctrl_reported.1,
                    });
                }
                o
            }).collect::<Vec<_>>(),
        })
    }

    /// The per-item table: one row per item, one `ARM / CTRL` cell per measure.
    pub fn item_rows(&self) -> Vec<Vec<String>> {
        self.items
            .iter()
            .map(|i| {
                let mut r = vec![sanitize::excerpt(&i.qid, 40), i.kind.to_string()];
                for c in &i.cells {
                    let v = |x: Option<f64>, (k, n): (usize, usize)| match x {
                        Some(v) if k < n => format!("{} ({k} of {n})", c.metric.show(v, false)),
                        Some(v) => c.metric.show(v, false),
                        None if n == 0 => "–".into(),
                        None => "not reported".into(),
                    };
                    r.push(format!(
                        "{} / {}",
                        v(c.arm, c.arm_reported),
                        v(c.ctrl, c.ctrl_reported)
                    ));
                }
                r
            })
            .collect()
    }

    /// A small inline SVG: per axis and measure with a relative difference, its median as a
    /// dot and its interval as a whisker on a −100%…+100% scale (beyond is drawn at the edge
    /// and marked). `None` when no measure has one.
    pub fn svg(&self) -> Option<String> {
        let shown: Vec<(&AxisEffort, &MedianInterval)> = self
            .axes
            .iter()
            .filter_map(|a| a.paired.as_ref()?.relative.as_ref().map(|r| (a, r)))
            .collect();
        if shown.is_empty() {
            return None;
        }
        let (left, w, row) = (260.0, 600.0, 26.0);
        let h = shown.len() as f64 * row + 40.0;
        let x = |r: f64| left + (r.clamp(-1.0, 1.0) + 1.0) / 2.0 * w;
        let mut s = format!(
            "<svg class=\"effort\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {h:.0}\" role=\"img\" \
             aria-label=\"ARM relative to CTRL per axis and measure, median over items with its 95% interval\">",
            left + w + 80.0
        );
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"0\" y2=\"{1:.0}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>",
            x(0.0),
            h - 20.0
        );
        for (i, (a, r)) in shown.iter().enumerate() {
            let y = i as f64 * row + 16.0;
            let _ = write!(
                s,
                "<text x=\"0\" y=\"{:.0}\" font-size=\"14\">{} · {}</text>",
                y + 5.0,
                a.kind,
                a.metric.label()
            );
            if let (Some(lo), Some(hi)) = (r.lo, r.hi) {
                let _ = write!(
                    s,
                    "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.0}\" y2=\"{y:.0}\" stroke=\"#000\" stroke-width=\"2\"/>",
                    x(lo),
                    x(hi)
                );
            }
            let clipped = r.median.abs() > 1.0
                || r.lo.is_some_and(|l| l < -1.0)
                || r.hi.is_some_and(|h| h > 1.0);
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{y:.0}\" r=\"5\" fill=\"#3a6bc0\"/><text x=\"{:.0}\" y=\"{:.0}\" font-size=\"14\">{}{}</text>",
                x(r.median),
                left + w + 8.0,
                y + 5.0,
                pct(r.median),
                if clipped { " (beyond the scale)" } else { "" }
            );
        }
        let _ = write!(
            s,
            "<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"13\">−100%</text><text x=\"{:.0}\" y=\"{:.0}\" font-size=\"13\" text-anchor=\"middle\">ARM = CTRL</text><text x=\"{:.0}\" y=\"{:.0}\" font-size=\"13\" text-anchor=\"end\">+100%</text></svg>",
            left,
            h - 4.0,
            x(0.0),
            h - 4.0,
            left + w,
            h - 4.0
        );
        Some(s)
    }
}

/// Round A's and round B's ARM effort on one axis and measure, paired by item (B − A).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmShift {
    /// The axis.
    pub kind: Kind,
    /// The measure.
    pub metric: Metric,
    /// A's ARM.
    pub a: ArmEffort,
    /// B's ARM.
    pub b: ArmEffort,
    /// B − A over items where both reported it.
    pub paired: Option<Paired>,
}

/// The A→B difference of ARM's effort, with whether ARM's item outcomes stayed the same.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffortShift {
    /// Both rounds' records carry effort.
    pub recorded: bool,
    /// Items whose ARM outcome (the share of decided good rows) differs between A and B.
    pub changed_items: Vec<String>,
    /// Per axis and measure.
    pub axes: Vec<ArmShift>,
}

/// Per item, the share of ARM's decided rows that were good (`None`: no decided ARM row).
fn arm_outcomes(report: &Report) -> BTreeMap<String, Option<(usize, usize)>> {
    let mut m: BTreeMap<String, Option<(usize, usize)>> = BTreeMap::new();
    for r in report.rows.iter().filter(|r| r.arm == Arm::Arm) {
        let e = m.entry(r.qid.clone()).or_insert(None);
        if r.standing.decided() {
            let (g, n) = e.get_or_insert((0, 0));
            *n += 1;
            *g += is_good(r) as usize;
        }
    }
    m
}

/// Compares ARM's effort of round `b` with round `a`'s, item by item.
pub fn shift(a: &Report, b: &Report) -> EffortShift {
    let (ea, eb) = (summarize(a), summarize(b));
    let (oa, ob) = (arm_outcomes(a), arm_outcomes(b));
    let mut changed_items: Vec<String> = oa
        .keys()
        .chain(ob.keys())
        .filter(|q| {
            let rate = |o: &BTreeMap<String, Option<(usize, usize)>>| {
                o.get(*q)
                    .copied()
                    .flatten()
                    .map(|(g, n)| g as f64 / n as f64)
            };
            rate(&oa) != rate(&ob)
        })
        .cloned()
        .collect();
    changed_items.sort();
    changed_items.dedup();
    let mut axes = Vec::new();
    for kind in Kind::ALL {
        for (mi, &m) in Metric::ALL.iter().enumerate() {
            let arm_of = |s: &EffortSummary| -> BTreeMap<String, Side> {
                s.items
                    .iter()
                    .filter(|i| i.kind == kind)
                    .map(|i| (i.qid.clone(), (i.cells[mi].arm, i.cells[mi].arm_reported)))
                    .collect()
            };
            let (xa, xb) = (arm_of(&ea), arm_of(&eb));
            if xa.is_empty() && xb.is_empty() {
                continue;
            }
            let side = |x: &BTreeMap<String, Side>| {
                let means: Vec<f64> = x.values().filter_map(|(v, _)| *v).collect();
                ArmEffort {
                    dispatches: x.values().map(|(_, (_, n))| n).sum(),
                    reported: x.values().map(|(_, (k, _))| k).sum(),
                    items: means.len(),
                    median_per_item: median_interval(&means).map(|m| m.median),
                }
            };
            let pairs: Vec<(f64, f64)> = xb
                .iter()
                .filter_map(|(q, (vb, _))| vb.zip(xa.get(q).and_then(|(va, _)| *va)))
                .collect();
            axes.push(ArmShift {
                kind,
                metric: m,
                a: side(&xa),
                b: side(&xb),
                paired: Paired::of(&pairs),
            });
        }
    }
    EffortShift {
        recorded: ea.recorded && eb.recorded,
        changed_items,
        axes,
    }
}

impl ArmShift {
    fn not_reported(&self) -> bool {
        self.a.reported == 0 && self.b.reported == 0
    }

    /// The line every format prints for it.
    pub fn display(&self) -> String {
        let m = self.metric;
        let total = self.a.dispatches + self.b.dispatches;
        if self.not_reported() {
            return format!("not reported (by none of {total} ARM dispatches)");
        }
        let side = |a: &ArmEffort| match a.median_per_item {
            Some(v) => m.show(v, false),
            None => "not reported".into(),
        };
        let mut s = format!(
            "A {} vs B {} (ARM, median per item)",
            side(&self.a),
            side(&self.b)
        );
        match &self.paired {
            Some(p) => {
                // The median over items of each item's B − A: not B's median minus A's.
                let _ = write!(s, "; median paired difference B − A {}", p.display(m));
            }
            None => s.push_str("; no item reported in both rounds: no paired difference"),
        }
        let reported = self.a.reported + self.b.reported;
        if reported < total {
            let _ = write!(
                s,
                "; reported by {} of {} ARM dispatches in A and {} of {} in B",
                self.a.reported, self.a.dispatches, self.b.reported, self.b.dispatches
            );
        }
        s
    }
}

impl EffortShift {
    /// "B carried the same answers with 30% fewer turns on positives [−45%, −10%], 12 items".
    pub fn headline(&self) -> String {
        if !self.recorded {
            return "effort: not recorded in both rounds (a round recorded before effort was kept)"
                .into();
        }
        let answers = if self.changed_items.is_empty() {
            "B carried the same answers".to_string()
        } else {
            format!(
                "B's ARM answers differ from A's on {} item(s) ({})",
                self.changed_items.len(),
                self.changed_items
                    .iter()
                    .take(8)
                    .map(|q| sanitize::excerpt(q, 40))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let agent = self
            .axes
            .iter()
            .any(|a| a.metric.agent_reported() && !a.not_reported());
        let pick = |agent: bool| {
            Metric::HEADLINE
                .iter()
                .filter(|m| m.agent_reported() == agent)
                .find_map(|m| {
                    Kind::ALL.iter().find_map(|k| {
                        let a = self.axes.iter().find(|a| a.kind == *k && a.metric == *m)?;
                        let p = a.paired.as_ref()?;
                        let (head, tail) = p.phrase(*m);
                        Some(format!("{head} on {}{tail}", kinds(*k)))
                    })
                })
        };
        let joiner = if self.changed_items.is_empty() {
            " with"
        } else {
            "; ARM used"
        };
        match (agent.then(|| pick(true)).flatten(), pick(false)) {
            (Some(s), _) => format!("{answers}{joiner} {s}"),
            (None, Some(w)) if !agent => format!(
                "{answers}; effort not reported by the agents (turns, tokens, cost, tool calls); B took {w}"
            ),
            (None, Some(w)) => format!("{answers}; B took {w}"),
            (None, None) => format!("{answers}; no item has ARM effort in both rounds"),
        }
    }

    /// The block's lines (text and Markdown).
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![self.headline()];
        if !self.recorded {
            return out;
        }
        out.push(format!(
            "{} (B − A of ARM); {NEVER_A_VERDICT}",
            METHOD.replace("ARM/CTRL", "B/A")
        ));
        for a in &self.axes {
            out.push(format!(
                "{} · {}: {}",
                a.kind,
                a.metric.label(),
                a.display()
            ));
        }
        out
    }

    /// The `effort` object of the comparison's JSON.
    pub fn json(&self) -> J {
        json!({
            "recorded": self.recorded,
            "headline": self.headline(),
            "changed_items": self.changed_items.iter().map(|q| sanitize::excerpt(q, 200)).collect::<Vec<_>>(),
            "enters_verdict": false,
            "axes": self.axes.iter().map(|a| json!({
                "kind": a.kind,
                "metric": a.metric.key(),
                "a": a.a, "b": a.b,
                "paired": a.paired,
                "display": a.display(),
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::{fixture_meta, verdict_fixtures};
    use crate::{QuestionInfo, Report, RoundMeta};

    fn d(qid: &str, arm: Arm, rep: u32, input: Option<u64>, turns: Option<u64>) -> DispatchEffort {
        DispatchEffort {
            qid: qid.into(),
            arm,
            rep,
            turns,
            input_tokens: input,
            output_tokens: None,
            cost_usd: None,
            tool_calls: None,
            wall_secs: 1.5,
        }
    }

    fn meta(items: &[(&str, Kind)], effort: Vec<DispatchEffort>) -> RoundMeta {
        let mut m = fixture_meta();
        m.questions = items
            .iter()
            .map(|(q, k)| QuestionInfo {
                qid: q.to_string(),
                kind: *k,
                question: "?".into(),
            })
            .collect();
        m.effort = effort;
        m
    }

    fn axis(s: &EffortSummary, kind: Kind, m: Metric) -> &AxisEffort {
        s.axes
            .iter()
            .find(|a| a.kind == kind && a.metric == m)
            .unwrap()
    }

    #[test]
    fn the_median_interval_is_the_binomial_order_statistic_one() {
        // n = 12: P(Bin(12, ½) ≤ 2) = 79/4096, twice that ≤ 0.05; ≤ 3 is 299/4096, twice > 0.05:
        // k = 3, [x₍₃₎, x₍₁₀₎], coverage 1 − 158/4096.
        let xs: Vec<f64> = (1..=12).rev().map(f64::from).collect();
        let m = median_interval(&xs).unwrap();
        assert_eq!(m.median, 6.5);
        assert_eq!((m.lo, m.hi), (Some(3.0), Some(10.0)));
        assert!((m.coverage.unwrap() - (1.0 - 158.0 / 4096.0)).abs() < 1e-12);
        // n = 6: k = 1 (2/64 ≤ 0.05), the whole range; n = 5: 2/32 > 0.05, no interval.
        let m = median_interval(&[5.0, 1.0, 3.0, 2.0, 4.0, 6.0]).unwrap();
        assert_eq!((m.median, m.lo, m.hi), (3.5, Some(1.0), Some(6.0)));
        let m = median_interval(&[5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
        assert_eq!((m.median, m.lo, m.hi, m.coverage), (3.0, None, None, None));
        assert!(median_interval(&[]).is_none());
    }

    #[test]
    fn reps_are_averaged_within_an_item_and_items_are_the_unit() {
        // Six positive items; ARM reps 1000 and 2000 (mean 1500), CTRL 2500 or 3000: ratios
        // 0.6 and 0.5. A seventh item whose CTRL never reported is not paired.
        let mut e = Vec::new();
        let mut items = Vec::new();
        let names: Vec<String> = (1..=7).map(|i| format!("p{i}")).collect();
        for (i, q) in names.iter().enumerate() {
            items.push((q.as_str(), Kind::Positive));
            e.push(d(q, Arm::Arm, 1, Some(1000), Some(2)));
            e.push(d(q, Arm::Arm, 2, Some(2000), Some(2)));
            let ctrl = if i == 6 {
                None
            } else if i % 2 == 0 {
                Some(2500)
            } else {
                Some(3000)
            };
            e.push(d(q, Arm::Ctrl, 1, ctrl, Some(4)));
        }
        let r = Report::new(meta(&items, e), Vec::new());
        let s = summarize(&r);
        let a = axis(&s, Kind::Positive, Metric::InputTokens);
        assert_eq!((a.arm.reported, a.arm.dispatches), (14, 14));
        assert_eq!((a.ctrl.reported, a.ctrl.dispatches), (6, 7));
        assert_eq!(a.arm.median_per_item, Some(1500.0));
        let p = a.paired.as_ref().unwrap();
        assert_eq!(p.items, 6, "items, not dispatches");
        let rel = p.relative.unwrap();
        assert!((rel.median - (-0.45)).abs() < 1e-9, "{rel:?}");
        assert_eq!((rel.lo, rel.hi), (Some(-0.5), Some(-0.4)));
        let line = a.sentence().unwrap();
        assert_eq!(
            line,
            "ARM used 45% fewer input tokens than CTRL on positives [−50%, −40%], 6 items (reported by 20 of 21 dispatches)"
        );
        assert!(a
            .display()
            .contains("reported by 14 of 14 ARM and 6 of 7 CTRL"));
        assert_eq!(a.status(), "partly reported");
        assert_eq!(
            s.headline(),
            line,
            "input tokens on positives lead the brief"
        );
        // Turns: 2 vs 4 on every item, half as many; the interval is degenerate but shown.
        let t = axis(&s, Kind::Positive, Metric::Turns);
        assert_eq!(t.paired.as_ref().unwrap().items, 7);
        assert!(t
            .sentence()
            .unwrap()
            .starts_with("ARM used 50% fewer turns than CTRL"));
    }

    #[test]
    fn an_agent_that_reports_nothing_is_not_reported_never_zero() {
        let e = vec![
            d("p1", Arm::Arm, 1, None, None),
            d("p1", Arm::Ctrl, 1, None, None),
        ];
        let r = Report::new(meta(&[("p1", Kind::Positive)], e), Vec::new());
        let s = summarize(&r);
        for m in Metric::ALL.iter().filter(|m| m.agent_reported()) {
            let a = axis(&s, Kind::Positive, *m);
            assert!(a.not_reported());
            assert_eq!(a.arm.median_per_item, None);
            assert!(a.paired.is_none());
            assert!(a.display().starts_with("not reported"), "{}", a.display());
        }
        assert!(s.headline().starts_with("not reported by the agent"));
        for row in s.item_rows() {
            assert!(
                row[2..7].iter().all(|c| c == "not reported / not reported"),
                "{row:?}"
            );
            assert!(!row
                .iter()
                .any(|c| c.contains('0') && !c.contains("ms") && !c.contains(" s")));
        }
        // Wall time is the harness's own clock: measured, even here.
        let w = axis(&s, Kind::Positive, Metric::WallSecs);
        assert_eq!(w.arm.median_per_item, Some(1.5));
        assert!(
            w.sentence()
                .unwrap()
                .starts_with("ARM took as much wall time as CTRL on positives, 1 item(s)"),
            "{:?}",
            w.sentence()
        );
        let j = s.json();
        let turns = &j["axes"][0];
        assert_eq!(turns["status"], "not reported");
        assert!(turns["arm"]["median_per_item"].is_null());
        // A round recorded before effort was kept says so.
        let r = Report::new(meta(&[("p1", Kind::Positive)], Vec::new()), Vec::new());
        assert!(summarize(&r).headline().starts_with("not recorded"));
    }

    #[test]
    fn a_control_that_used_none_gives_the_absolute_difference_only() {
        let mut e = Vec::new();
        for q in ["p1", "p2"] {
            let mut a = d(q, Arm::Arm, 1, None, None);
            a.tool_calls = Some(3);
            let mut c = d(q, Arm::Ctrl, 1, None, None);
            c.tool_calls = Some(if q == "p1" { 0 } else { 1 });
            e.extend([a, c]);
        }
        let items = [("p1", Kind::Positive), ("p2", Kind::Positive)];
        let s = summarize(&Report::new(meta(&items, e), Vec::new()));
        let a = axis(&s, Kind::Positive, Metric::ToolCalls);
        let p = a.paired.as_ref().unwrap();
        assert_eq!((p.relative, p.reference_zero), (None, 1));
        assert_eq!(
            a.sentence().unwrap(),
            "ARM used 2.5 more tool calls than CTRL on positives, 2 item(s) (too few for a 95% interval: it needs 6)"
        );
    }

    #[test]
    fn effort_never_changes_a_verdict() {
        // Same rows, effort wildly different between the arms: every fixture's summary (verdict,
        // numbers, watermark) is the same as with no effort at all.
        for f in verdict_fixtures() {
            let plain = Report::new(fixture_meta(), f.rows.clone());
            let mut m = fixture_meta();
            for r in &f.rows {
                let cheap = r.arm == Arm::Arm;
                m.effort.push(DispatchEffort {
                    qid: r.qid.clone(),
                    arm: r.arm,
                    rep: r.rep,
                    turns: Some(if cheap { 1 } else { 40 }),
                    input_tokens: Some(if cheap { 10 } else { 90_000 }),
                    output_tokens: Some(5),
                    cost_usd: Some(if cheap { 0.001 } else { 3.0 }),
                    tool_calls: Some(if cheap { 0 } else { 25 }),
                    wall_secs: if cheap { 0.1 } else { 300.0 },
                });
            }
            let costly = Report::new(m, f.rows.clone());
            assert_eq!(plain.summary, costly.summary, "{}", f.name);
            assert_eq!(costly.summary.verdict, f.expected, "{}", f.name);
            if f.rows.iter().any(|r| r.arm == Arm::Arm) {
                assert!(
                    summarize(&costly).headline().contains("fewer"),
                    "{}",
                    f.name
                );
            }
        }
    }

    /// The B − A figure is the median of the per-item differences, which need not equal B's
    /// median minus A's: the line says which it is.
    #[test]
    fn compare_labels_its_difference_as_the_median_paired_difference() {
        let items: Vec<(String, Kind)> =
            (1..=5).map(|i| (format!("p{i}"), Kind::Positive)).collect();
        let items: Vec<(&str, Kind)> = items.iter().map(|(q, k)| (q.as_str(), *k)).collect();
        let round = |turns: [u64; 5]| {
            let e = items
                .iter()
                .zip(turns)
                .map(|((q, _), t)| d(q, Arm::Arm, 1, None, Some(t)))
                .collect();
            let rows = items
                .iter()
                .map(|(q, k)| crate::lanes::fixture_row(q, *k, Arm::Arm, 1, scorer::Class::Pass))
                .collect();
            Report::new(meta(&items, e), rows)
        };
        // A's median 3, B's median 3; the per-item differences 4, −1, −1, −1, 5: median −1.
        let c = shift(&round([1, 2, 3, 4, 5]), &round([5, 1, 2, 3, 10]));
        let line = c
            .axes
            .iter()
            .find(|a| a.kind == Kind::Positive && a.metric == Metric::Turns)
            .unwrap()
            .display();
        assert!(
            line.starts_with(
                "A 3 vs B 3 (ARM, median per item); median paired difference B − A −1"
            ),
            "{line}"
        );
    }

    #[test]
    fn compare_pairs_arm_effort_by_item_and_says_whether_answers_held() {
        let items: Vec<(String, Kind)> =
            (1..=6).map(|i| (format!("p{i}"), Kind::Positive)).collect();
        let items: Vec<(&str, Kind)> = items.iter().map(|(q, k)| (q.as_str(), *k)).collect();
        let round = |turns: u64| {
            let e = items
                .iter()
                .map(|(q, _)| d(q, Arm::Arm, 1, None, Some(turns)))
                .collect();
            let rows = items
                .iter()
                .map(|(q, k)| crate::lanes::fixture_row(q, *k, Arm::Arm, 1, scorer::Class::Pass))
                .collect();
            Report::new(meta(&items, e), rows)
        };
        let c = shift(&round(10), &round(7));
        assert!(c.changed_items.is_empty());
        assert_eq!(
            c.headline(),
            "B carried the same answers with 30% fewer turns on positives [−30%, −30%] DEGENERATE (zero width), 6 items"
        );
        let mut b = round(7);
        b.rows[0].verdict.class = scorer::Class::Fail;
        let b = Report::new(b.meta, b.rows);
        let c = shift(&round(10), &b);
        assert_eq!(c.changed_items, vec!["p1".to_string()]);
        assert!(
            c.headline().starts_with(
                "B's ARM answers differ from A's on 1 item(s) (p1); ARM used 30% fewer turns"
            ),
            "{}",
            c.headline()
        );
    }
}
