//! The statistics of the reports, each formula written once: Wilson score intervals (over items,
//! with the Korn–Graubard degrees-of-freedom factor), the paired t-interval, the exact McNemar
//! and sign tests (and the interval the sign test inverts to), Fisher's exact test, Holm, and the
//! power of the item tests. Distributions come from `statrs`.
//!
//! Items are the unit: callers average repeats within an item before anything here sees them,
//! or hand the per-item counts to [`wilson_items`], which widens the interval by the items'
//! design effect. Every interval is 95% two-sided and unadjusted; [`holm`] adjusts a family of
//! p-values where a family is printed.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
use statrs::function::factorial::ln_binomial;

/// A two-sided 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// The raw interval overshot the range the quantity can take and was cut to it: the printed
    /// bound is the range's end, not the formula's.
    #[serde(default)]
    pub clipped: bool,
}

impl Interval {
    /// An interval cut to `[min, max]`, remembering whether the cut changed anything.
    pub fn clip(lo: f64, hi: f64, min: f64, max: f64) -> Interval {
        // Wilson's bounds sit on 0 or 1 up to rounding; only a real overshoot counts as clipped.
        const EPS: f64 = 1e-12;
        Interval {
            lo: lo.max(min),
            hi: hi.min(max),
            clipped: lo < min - EPS || hi > max + EPS,
        }
    }

    /// Zero width: every item gave the same value, so the formula has no spread to work with.
    /// Printed as `DEGENERATE`, never as certainty.
    pub fn degenerate(&self) -> bool {
        (self.hi - self.lo).abs() < 1e-12
    }

    /// `[lo, hi]` with the markers a reader needs: `clipped` and `DEGENERATE (zero width)`.
    pub fn display(&self, signed: bool) -> String {
        let f = |x: f64| {
            if signed {
                format!("{x:+.3}")
            } else {
                format!("{x:.3}")
            }
        };
        let mut s = format!("[{}, {}]", f(self.lo), f(self.hi));
        if self.degenerate() {
            s.push_str(" DEGENERATE (zero width)");
        } else if self.clipped {
            s.push_str(" clipped");
        }
        s
    }
}

/// The two-sided 95% normal quantile (≈ 1.95996), from statrs rather than a typed constant.
pub fn z95() -> f64 {
    Normal::new(0.0, 1.0)
        .expect("standard normal parameters are valid")
        .inverse_cdf(0.975)
}

/// Wilson score interval for `k` successes in `n` trials (Wilson 1927; Newcombe 1998 method 3).
/// `None` when `n == 0`: a proportion of nothing has no interval.
pub fn wilson(k: u64, n: u64) -> Option<Interval> {
    if n == 0 || k > n {
        return None;
    }
    let z = z95();
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval::clip(centre - half, centre + half, 0.0, 1.0))
}

/// Wilson's formula at a proportion `p` and a real-valued sample size `n` (the effective size
/// of a clustered sample; Korn & Graubard 1998). `None` when `n` is not positive.
fn wilson_real(p: f64, n: f64) -> Option<Interval> {
    if n.is_nan() || n <= 0.0 || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let z = z95();
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval::clip(centre - half, centre + half, 0.0, 1.0))
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom, `None` at 0 df.
/// Quantiles up to 200 df are computed once and kept (the coverage check asks for thousands).
pub fn t975(df: u64) -> Option<f64> {
    use std::sync::OnceLock;
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let at = |df: u64| {
        StudentsT::new(0.0, 1.0, df as f64)
            .expect("df >= 1 is valid")
            .inverse_cdf(0.975)
    };
    match df {
        0 => None,
        1..=200 => Some(TABLE.get_or_init(|| (1..=200).map(at).collect())[df as usize - 1]),
        _ => Some(at(df)),
    }
}

/// A proportion's interval over items: the per-item counts are clusters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ItemInterval {
    /// The effective sample size before the degrees-of-freedom factor: `p(1−p) / V`, `V` the
    /// cluster-robust variance of `k/n` over items, never more than the item count (items are
    /// the unit: reps of one item add no independent information an interval may count on).
    /// Equal to the item count when every item's reps agree, whatever the number of reps.
    pub n_eff: f64,
    /// The size the interval was computed at: `n_eff·(z/t_{m−1})²` (Korn & Graubard 1998's
    /// degrees-of-freedom factor, `m` items); 0 with one item (no spread between items can
    /// be seen, so the interval is the whole range).
    #[serde(default)]
    pub n_kg: f64,
    /// Wilson's interval at `k/n` and `n_kg`.
    pub interval: Interval,
}

/// `p(1−p)/V` uncapped (see [`wilson_items`]); `None` when it is undefined (no rows, `p` at 0
/// or 1, or `V = 0`).
fn cluster_n_eff(items: &[(u64, u64)]) -> Option<f64> {
    let (k, n) = items
        .iter()
        .fold((0u64, 0u64), |(k, n), &(ki, ni)| (k + ki, n + ni));
    if n == 0 || k > n {
        return None;
    }
    let p = k as f64 / n as f64;
    let total = n as f64;
    let v = items
        .iter()
        .map(|&(ki, ni)| (ki as f64 - p * ni as f64).powi(2))
        .sum::<f64>()
        / (total * total);
    let spread = p * (1.0 - p);
    (spread > 0.0 && v > 0.0).then(|| spread / v)
}

/// The 95% interval of `Σk / Σn` with items as the unit (`items` = per-item `(k, n)`): Wilson's
/// score interval at the Korn–Graubard effective sample size (Korn & Graubard 1998).
///
/// `n_eff = min(p(1−p)/V, m)`, where `V = Σ(kᵢ − p·nᵢ)² / (Σnᵢ)²` is the cluster-robust
/// (sandwich) variance of the ratio estimate (the same `V` as statsmodels' OLS on a constant
/// with `cov_type="cluster"`, `use_correction=False`) and `m` the item count; when `p` is 0 or
/// 1, or `V = 0`, `n_eff = m`. The interval is Wilson's at `p` and `n_eff·(z/t_{m−1})²`.
///
/// Capping at `m` means reps never stand in for items: a deviating rep can only lower `p`
/// towards ½ at the same size, so it widens the interval and never moves it up (29/30 over 3
/// items is never narrower or higher than 30/30). The factor `(z/t_{m−1})²` carries the few
/// items' uncertainty about `V` itself; with it the interval covers at least 0.93 from 3 items
/// up in the seeded simulation of this module's tests. One item gives `[0, 1]`; `None` when
/// there are no rows.
pub fn wilson_items(items: &[(u64, u64)]) -> Option<ItemInterval> {
    let items: Vec<(u64, u64)> = items.iter().copied().filter(|&(_, n)| n > 0).collect();
    let (k, n) = items
        .iter()
        .fold((0u64, 0u64), |(k, n), &(ki, ni)| (k + ki, n + ni));
    if n == 0 || k > n {
        return None;
    }
    let m = items.len() as f64;
    let p = k as f64 / n as f64;
    let n_eff = cluster_n_eff(&items).map_or(m, |e| e.min(m));
    let Some(t) = t975(items.len() as u64 - 1) else {
        return Some(ItemInterval {
            n_eff,
            n_kg: 0.0,
            interval: Interval {
                lo: 0.0,
                hi: 1.0,
                clipped: false,
            },
        });
    };
    let n_kg = n_eff * (z95() / t).powi(2);
    Some(ItemInterval {
        n_eff,
        n_kg,
        interval: wilson_real(p, n_kg)?,
    })
}

/// An exact McNemar test on item-level outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// Items good in ARM and not good in CTRL.
    pub b: u64,
    /// Items not good in ARM and good in CTRL.
    pub c: u64,
    /// Exact two-sided p (binomial, p = ½ on the b+c discordant items); `None` when b+c = 0.
    pub p: Option<f64>,
    /// The smallest p any split of these b+c items could give (`min(1, 2·½^(b+c))`): below
    /// 0.05 only from b+c = 6 on. `None` when b+c = 0.
    #[serde(default)]
    pub min_p: Option<f64>,
}

/// `ln P[X ≤ k]` for `X ~ Binomial(n, ½)`, `k ≤ n/2`, summed in log space from `k` down.
///
/// The terms `C(n, i)/2ⁿ` grow with `i` up to `k`, so the sum is taken relative to the largest
/// (`i = k`) and stops once what is left (bounded by a geometric series in the current term
/// ratio `i/(n−i+1)`) cannot change it in the 17th digit. Each term comes from its neighbour by
/// that ratio, so no factorial is ever formed.
fn ln_binomial_half_tail(n: u64, k: u64) -> f64 {
    debug_assert!(2 * k <= n);
    let ln_top = ln_binomial(n, k) - n as f64 * std::f64::consts::LN_2;
    let (mut sum, mut term) = (1.0f64, 1.0f64);
    let mut i = k;
    while i > 0 {
        let ratio = i as f64 / (n - i + 1) as f64;
        term *= ratio;
        sum += term;
        i -= 1;
        // Every further ratio is smaller than this one, so the rest is below term·r/(1−r).
        let r = i as f64 / (n - i + 1) as f64;
        if term * r / (1.0 - r) < sum * 1e-17 {
            break;
        }
    }
    ln_top + sum.ln()
}

/// A probability as printed, to 4 decimals, by one rule for every p and smallest-reachable p:
/// half rounds up, after float noise below 1e-9 of a unit in the last place is dropped, so the
/// same value computed two ways (0.03125 exactly, or summed to 0.031250000000000006) prints the
/// same text.
pub fn p_text(p: f64) -> String {
    if !p.is_finite() {
        return format!("{p}");
    }
    let units = p * 1e4;
    let snapped = (units * 1e9).round() / 1e9;
    format!("{:.4}", snapped.round() / 1e4)
}

/// An exact test's p beside its smallest reachable p, printed by [`p_text`]: p is never shown
/// below the smallest p its count can reach (float noise cannot put it there either).
pub fn p_and_min_text(p: f64, min_p: f64) -> (String, String) {
    (p_text(p.max(min_p)), p_text(min_p))
}

/// Exact McNemar: `p = min(1, 2·P[X ≤ min(b, c)])`, `X ~ Binomial(b + c, ½)`, the tail summed in
/// log space so it holds for any count (0 ≤ p ≤ 1 always; `b = c` gives exactly 1).
pub fn mcnemar_exact(b: u64, c: u64) -> McNemar {
    let n = b + c;
    let (p, min_p) = if n == 0 {
        (None, None)
    } else {
        let k = b.min(c);
        let p = if 2 * k == n {
            1.0
        } else {
            (std::f64::consts::LN_2 + ln_binomial_half_tail(n, k))
                .exp()
                .min(1.0)
        };
        // 2·½ⁿ = ½ⁿ⁻¹, a power of two (underflows to 0 past n ≈ 1075, which is right).
        let min_p = 0.5f64.powi((n - 1).min(i32::MAX as u64) as i32);
        assert!((0.0..=1.0).contains(&p), "McNemar p {p} outside [0, 1]");
        (Some(p), Some(min_p))
    };
    McNemar { b, c, p, min_p }
}

/// `2·P[X ≤ k]`, `X ~ Binomial(n, ½)`, capped at 1: the two-sided exact sign-test tail.
fn sign_tail(n: u64, k: u64) -> f64 {
    if 2 * k >= n {
        return 1.0;
    }
    (std::f64::consts::LN_2 + ln_binomial_half_tail(n, k))
        .exp()
        .min(1.0)
}

/// The paired item differences of an axis, summarised by one method: the exact sign test and
/// the interval it inverts to (the order-statistic interval for the median difference), so the
/// interval excludes 0 exactly when `p < 0.05`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SignSummary {
    /// Items with a difference.
    pub items: u64,
    /// Items with a positive difference.
    pub up: u64,
    /// Items with a negative difference.
    pub down: u64,
    /// Items with a zero difference.
    pub unchanged: u64,
    /// Mean item difference (descriptive; no test attaches to it).
    pub mean: f64,
    /// Median item difference.
    pub median: f64,
    /// 95% interval of the median difference: `[d₍ⱼ₎, d₍ₘ₊₁₋ⱼ₎]` with the largest `j` whose
    /// coverage `1 − 2·P[X ≤ j−1]` is at least 0.95; the whole range when no such `j` exists
    /// (fewer than 6 items).
    pub interval: Interval,
    /// No order-statistic interval reaches 95% with this many items: the interval is the range.
    pub whole_range: bool,
    /// Exact two-sided p against "no shift": `2·P[X ≤ a]`, `a` the items not on the side of the
    /// majority direction (unchanged items count against it, as they do in the interval).
    pub p: f64,
    /// The smallest p these many items could give (`2·½ᵐ`): below 0.05 only from 6 items.
    pub min_p: f64,
}

/// See [`SignSummary`]; `range` is what a difference can take (`(-1, 1)` for rates). `None`
/// with no items.
pub fn sign_summary(diffs: &[f64], range: (f64, f64)) -> Option<SignSummary> {
    let m = diffs.len() as u64;
    if m == 0 {
        return None;
    }
    let mut d = diffs.to_vec();
    d.sort_by(f64::total_cmp);
    let up = d.iter().filter(|&&x| x > 0.0).count() as u64;
    let down = d.iter().filter(|&&x| x < 0.0).count() as u64;
    let unchanged = m - up - down;
    let median = if m % 2 == 1 {
        d[(m / 2) as usize]
    } else {
        (d[(m / 2 - 1) as usize] + d[(m / 2) as usize]) / 2.0
    };
    // Largest j (1-based) with coverage ≥ 0.95: the tail 2·P[X ≤ j−1] grows with j.
    let j = (1..=m.div_ceil(2))
        .take_while(|&j| sign_tail(m, j - 1) <= 0.05)
        .last();
    let (interval, whole_range) = match j {
        Some(j) => (
            Interval {
                lo: d[(j - 1) as usize],
                hi: d[(m - j) as usize],
                clipped: false,
            },
            false,
        ),
        None => (
            Interval {
                lo: range.0,
                hi: range.1,
                clipped: false,
            },
            true,
        ),
    };
    let against = match up.cmp(&down) {
        std::cmp::Ordering::Greater => down + unchanged,
        std::cmp::Ordering::Less => up + unchanged,
        std::cmp::Ordering::Equal => m,
    };
    Some(SignSummary {
        items: m,
        up,
        down,
        unchanged,
        mean: d.iter().sum::<f64>() / m as f64,
        median,
        interval,
        whole_range,
        p: sign_tail(m, against),
        min_p: sign_tail(m, 0),
    })
}

/// The fewest of `m` items that must move one way, with every other item against, for the
/// exact sign test to reach p < 0.05; `None` when no result of `m` items can (`m` < 6).
pub fn items_needed(m: u64) -> Option<u64> {
    (1..=m).find(|&u| sign_tail(m, m - u) < 0.05)
}

/// Holm's step-down adjustment (Holm 1979) of a family of p-values; `None`s stay `None` and are
/// not counted in the family.
pub fn holm(ps: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut idx: Vec<usize> = (0..ps.len()).filter(|&i| ps[i].is_some()).collect();
    idx.sort_by(|&a, &b| ps[a].unwrap().total_cmp(&ps[b].unwrap()));
    let m = idx.len();
    let mut out = vec![None; ps.len()];
    let mut running = 0.0f64;
    for (rank, &i) in idx.iter().enumerate() {
        let adj = ((m - rank) as f64 * ps[i].unwrap()).min(1.0);
        running = running.max(adj);
        out[i] = Some(running);
    }
    out
}

/// Fisher's exact test, two-sided, on the 2×2 table `[[a, b], [c, d]]` (rows: ARM good/not,
/// CTRL good/not): the sum of the probabilities of every table with the same margins that is no
/// more likely than the observed one (scipy's definition, relative tolerance 1e-7). `None` when
/// a margin is empty.
pub fn fisher_exact(a: u64, b: u64, c: u64, d: u64) -> Option<f64> {
    let (r1, r2, c1) = (a + b, c + d, a + c);
    let n = r1 + r2;
    if r1 == 0 || r2 == 0 {
        return None;
    }
    let ln_p = |x: u64| ln_binomial(r1, x) + ln_binomial(r2, c1 - x) - ln_binomial(n, c1);
    let lo = c1.saturating_sub(r2);
    let hi = c1.min(r1);
    let observed = ln_p(a);
    let mut p = 0.0;
    for x in lo..=hi {
        let lp = ln_p(x);
        if lp <= observed + 1e-7 {
            p += lp.exp();
        }
    }
    Some(p.clamp(0.0, 1.0))
}

/// The fewest of `m` items that must move one way, the rest unchanged, for the exact McNemar
/// on item majorities (binomial on the items that moved) to reach p < 0.05: 6, whatever `m`
/// (`2·½⁶ = 0.031`); `None` below 6 items.
pub fn moved_needed(m: u64) -> Option<u64> {
    (m >= 6).then_some(6)
}

/// `P[X ≥ u]`, `X ~ Binomial(m, q)`.
fn binomial_upper(m: u64, q: f64, u: u64) -> f64 {
    if u == 0 {
        return 1.0;
    }
    if q <= 0.0 {
        return 0.0;
    }
    if q >= 1.0 {
        return 1.0;
    }
    (u..=m)
        .map(|x| (ln_binomial(m, x) + x as f64 * q.ln() + (m - x) as f64 * (1.0 - q).ln()).exp())
        .sum::<f64>()
        .min(1.0)
}

/// The power of an item test that rejects when at least `needed` of `m` items move one way,
/// when each item moves that way with probability `q` (and otherwise stays unchanged): the
/// smallest `q` reaching 80% power, found by bisection. `q` is then the difference of item
/// rates the design can detect (items moving from all-bad to all-good).
pub fn detectable_share(m: u64, needed: u64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if binomial_upper(m, mid, needed) >= 0.8 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// What a design of `items` items can detect with the exact item tests the reports use (80%
/// power, two-sided α = 0.05), each `None` when no result of that many items can reach
/// p < 0.05. Reps do not enter: items are the unit, more reps only make each item's rate finer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ItemPower {
    /// Items of the axis.
    pub items: u64,
    /// McNemar on item majorities (ARM−CTRL in a round's report; binomial on the items that
    /// moved): the smallest share of items that must move one way.
    pub arm_ctrl: Option<f64>,
    /// The sign test over all items, unchanged ones counting against (ARM−CTRL in a round's
    /// report and A−B in `compare`): the same.
    pub a_b: Option<f64>,
}

/// See [`ItemPower`].
pub fn item_power(items: u64) -> ItemPower {
    ItemPower {
        items,
        arm_ctrl: moved_needed(items).map(|u| detectable_share(items, u)),
        a_b: items_needed(items).map(|u| detectable_share(items, u)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_published_values() {
        // 8/10 from the brief; the rest from Newcombe (1998a), Table I, method 3.
        for (k, n, lo, hi) in [
            (8, 10, 0.490, 0.943),
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let w = wilson(k, n).unwrap();
            assert!(close(w.lo, lo, 6e-4), "{k}/{n} lo {} vs {lo}", w.lo);
            assert!(close(w.hi, hi, 6e-4), "{k}/{n} hi {} vs {hi}", w.hi);
        }
        assert_eq!(wilson(0, 0), None);
    }

    #[test]
    fn mcnemar_exact_binomial_tail() {
        // 2 · (1 + 10) / 1024
        assert!(close(mcnemar_exact(1, 9).p.unwrap(), 22.0 / 1024.0, 1e-12));
        // 2 · (1 + 11 + 55 + 165) / 2048
        assert!(close(mcnemar_exact(8, 3).p.unwrap(), 464.0 / 2048.0, 1e-12));
        assert_eq!(mcnemar_exact(2, 2).p, Some(1.0));
        assert_eq!(mcnemar_exact(0, 0).p, None);
    }

    /// Expected values from scipy 1.x, `min(1, 2*scipy.stats.binom.cdf(min(b,c), b+c, 0.5))`
    /// (script: /tmp/stats21.py in the session that wrote this; the command is the formula).
    #[test]
    fn mcnemar_matches_scipy_at_any_count() {
        for (b, c, want, rel) in [
            (1u64, 9u64, 0.021484375, 1e-12),
            (8, 3, 0.2265625, 1e-12),
            (0, 6, 0.03125, 1e-12),
            (10, 30, 0.0022214337732293643, 1e-10),
            (400, 600, 2.728464156065947e-10, 1e-9),
            (20000, 20500, 0.013153825113144245, 1e-8),
            // statrs' beta_reg gave a negative p from b+c ≈ 4·10⁷ on.
            (30_000_000, 30_010_000, 0.1967876779596333, 1e-5),
            (250_000_000, 250_020_000, 0.3711268558676681, 1e-5),
        ] {
            let p = mcnemar_exact(b, c).p.unwrap();
            assert!((p - want).abs() <= want * rel, "({b},{c}): {p} vs {want}");
            assert_eq!(mcnemar_exact(c, b).p, Some(p), "symmetric");
        }
        assert_eq!(mcnemar_exact(500_000_000, 500_000_000).p, Some(1.0));
        for (b, c) in [(0, 1), (0, 2_000_000_000), (1, 3_000_000_000), (7, 0)] {
            let p = mcnemar_exact(b, c).p.unwrap();
            assert!((0.0..=1.0).contains(&p), "({b},{c}): {p}");
        }
    }

    #[test]
    fn smallest_reachable_p_is_stated() {
        // 2·½⁵ = 0.0625: five discordant items can never reach 0.05; six can (0.03125).
        assert_eq!(mcnemar_exact(5, 0).min_p, Some(0.0625));
        assert_eq!(mcnemar_exact(3, 2).min_p, Some(0.0625));
        assert_eq!(mcnemar_exact(6, 0).min_p, Some(0.03125));
        assert_eq!(mcnemar_exact(1, 0).min_p, Some(1.0));
        assert_eq!(mcnemar_exact(0, 0).min_p, None);
    }

    /// The sign summary's test and interval come from one method: the interval excludes 0 exactly
    /// when p < 0.05, for every split of up to 12 items into up, down and unchanged. Expected
    /// values: `2*scipy.stats.binom.cdf(k, n, .5)`.
    #[test]
    fn sign_interval_and_p_never_disagree() {
        for m in 1u64..=12 {
            for up in 0..=m {
                for down in 0..=(m - up) {
                    let mut d = vec![1.0; up as usize];
                    d.extend(vec![-1.0; down as usize]);
                    d.extend(vec![0.0; (m - up - down) as usize]);
                    let s = sign_summary(&d, (-1.0, 1.0)).unwrap();
                    let excludes = s.interval.lo > 0.0 || s.interval.hi < 0.0;
                    assert_eq!(excludes, s.p < 0.05, "{m} items, +{up} −{down}: {s:?}");
                    assert!(s.p >= s.min_p - 1e-15);
                }
            }
        }
        // 5 items all down: the smallest p there is, 0.0625, and no interval but the range.
        let s = sign_summary(&[-1.0; 5], (-1.0, 1.0)).unwrap();
        assert!(close(s.p, 0.0625, 1e-12) && close(s.min_p, 0.0625, 1e-12) && s.whole_range);
        // 6 items all down: 0.03125, interval [d(1), d(6)] = [−1, −1].
        let s = sign_summary(&[-1.0; 6], (-1.0, 1.0)).unwrap();
        assert!(close(s.p, 0.03125, 1e-12));
        assert_eq!((s.interval.lo, s.interval.hi), (-1.0, -1.0));
        // 10 items, 8 up, 2 unchanged: 2·P[X ≤ 2 | 10] = 2·56/1024.
        let mut d = vec![0.5; 8];
        d.extend([0.0, 0.0]);
        let s = sign_summary(&d, (-1.0, 1.0)).unwrap();
        assert!(close(s.p, 112.0 / 1024.0, 1e-12), "{}", s.p);
        assert_eq!(items_needed(5), None);
        assert_eq!(items_needed(6), Some(6));
        assert_eq!(items_needed(10), Some(9));
        assert_eq!(sign_summary(&[], (-1.0, 1.0)), None);
    }

    /// Expected: `scipy.stats.fisher_exact([[a, b], [c, d]]).pvalue` (two-sided).
    #[test]
    fn fisher_matches_scipy() {
        for (t, want) in [
            ((3, 0, 0, 3), 0.10000000000000002),
            ((2, 1, 1, 2), 1.0),
            ((3, 0, 1, 2), 0.4000000000000001),
            ((10, 2, 3, 9), 0.012278137799742322),
            ((0, 5, 5, 0), 0.007936507936507938),
            ((4, 6, 4, 6), 1.0),
        ] {
            let p = fisher_exact(t.0, t.1, t.2, t.3).unwrap();
            assert!(close(p, want, 1e-12), "{t:?}: {p} vs {want}");
        }
        assert_eq!(fisher_exact(0, 0, 1, 2), None);
    }

    /// Expected: `statsmodels.stats.multitest.multipletests(ps, method="holm")[1]`.
    #[test]
    fn holm_matches_statsmodels() {
        let ps = [
            Some(0.01),
            Some(0.04),
            None,
            Some(0.03),
            Some(0.2),
            Some(0.005),
        ];
        let want = [
            Some(0.04),
            Some(0.09),
            None,
            Some(0.09),
            Some(0.2),
            Some(0.025),
        ];
        for (got, want) in holm(&ps).iter().zip(want) {
            match (got, want) {
                (Some(g), Some(w)) => assert!(close(*g, w, 1e-12), "{g} vs {w}"),
                (g, w) => assert_eq!(*g, w),
            }
        }
    }

    /// The cluster variance: statsmodels `OLS(y, ones).fit(cov_type="cluster", cov_kwds={"groups":
    /// item, "use_correction": False})`, `p(1−p)/bse²` = 7.2 and 8.571 here. Both exceed the item
    /// count, so the interval is taken at the items (4, 5) times `(z/t_{m−1})²`, t from scipy
    /// (`t.ppf(.975, 3)` = 3.182446, `t.ppf(.975, 4)` = 2.776445), then Wilson's formula.
    #[test]
    fn item_interval_uses_the_cluster_variance_capped_at_the_items() {
        assert!(close(
            cluster_n_eff(&[(3, 3), (1, 3), (0, 3), (2, 3)]).unwrap(),
            7.199999999999994,
            1e-9
        ));
        assert!(close(
            cluster_n_eff(&[(1, 2), (2, 2), (0, 2), (2, 2), (1, 2)]).unwrap(),
            8.571428571428575,
            1e-9
        ));
        for (cells, n_eff, n_kg, lo, hi) in [
            (
                vec![(3, 3), (1, 3), (0, 3), (2, 3)],
                4.0,
                1.5171691512139864,
                0.07665806359331295,
                0.923341936406687,
            ),
            (
                vec![(1, 2), (2, 2), (0, 2), (2, 2), (1, 2)],
                5.0,
                2.491655546239362,
                0.1530075024560763,
                0.9256790773804987,
            ),
        ] {
            let got = wilson_items(&cells).unwrap();
            assert!(close(got.n_eff, n_eff, 1e-12), "{cells:?}: {}", got.n_eff);
            assert!(close(got.n_kg, n_kg, 1e-6), "{cells:?}: {}", got.n_kg);
            assert!(
                close(got.interval.lo, lo, 1e-6),
                "{cells:?}: lo {}",
                got.interval.lo
            );
            assert!(
                close(got.interval.hi, hi, 1e-6),
                "{cells:?}: hi {}",
                got.interval.hi
            );
        }
        // Two heavy items that disagree: fewer effective items than items, uncapped.
        let cells = [(30, 30), (0, 30), (1, 1), (0, 1)];
        let got = wilson_items(&cells).unwrap();
        assert!(got.n_eff < 4.0 && close(got.n_eff, cluster_n_eff(&cells).unwrap(), 1e-12));
        // One item: nothing is known about the spread between items.
        let one = wilson_items(&[(3, 3)]).unwrap().interval;
        assert_eq!((one.lo, one.hi), (0.0, 1.0));
        assert_eq!(wilson_items(&[]), None);
    }

    /// An agent that answers every item the same way on every rep: 12 items, 9 good. The interval
    /// over items is Wilson's at `12·(z/t₁₁)²` = 9.5158 (t from scipy, 2.200985) = [0.43501,
    /// 0.92119] at 1, 3, 10 or 30 reps; rows change, the interval does not.
    #[test]
    fn item_interval_does_not_narrow_with_repeated_identical_answers() {
        for reps in [1u64, 3, 10, 30] {
            let cells: Vec<(u64, u64)> = (0..12)
                .map(|i| (if i < 9 { reps } else { 0 }, reps))
                .collect();
            let got = wilson_items(&cells).unwrap();
            assert!(
                close(got.n_eff, 12.0, 1e-9),
                "reps {reps}: n_eff {}",
                got.n_eff
            );
            assert!(close(got.n_kg, 9.515753849825867, 1e-6), "reps {reps}");
            assert!(
                close(got.interval.lo, 0.4350101835963376, 1e-6),
                "reps {reps}"
            );
            assert!(
                close(got.interval.hi, 0.9211926442147218, 1e-6),
                "reps {reps}"
            );
        }
        // All good: every item one repeated answer, n_eff = items, never zero width.
        let all: Vec<(u64, u64)> = (0..12).map(|_| (5, 5)).collect();
        let got = wilson_items(&all).unwrap();
        assert_eq!(got.n_eff, 12.0);
        assert!(close(got.interval.lo, 0.7124056556221188, 1e-6));
        assert!(!got.interval.degenerate());
    }

    /// One deviating rep can only widen the interval over items: at the top (29/30 against
    /// 30/30) its lower bound is never higher and its width never smaller; at the bottom (1/30
    /// against 0/30, LUCKY) its upper bound is never lower and its width never smaller. For 3
    /// items × 10 reps: 30/30 gives [0.139, 1.000] (Wilson at 3·(z/t₂)² = 0.6225).
    #[test]
    fn a_deviating_rep_never_narrows_or_raises_the_item_interval() {
        let width = |i: Interval| i.hi - i.lo;
        for m in 2u64..=20 {
            for reps in [1u64, 2, 3, 5, 10, 30] {
                for which in 0..m {
                    let top: Vec<(u64, u64)> = (0..m).map(|_| (reps, reps)).collect();
                    let mut dev = top.clone();
                    dev[which as usize].0 -= 1;
                    let (a, d) = (
                        wilson_items(&top).unwrap().interval,
                        wilson_items(&dev).unwrap().interval,
                    );
                    assert!(d.lo <= a.lo + 1e-12, "{m}x{reps}: {d:?} above {a:?}");
                    assert!(
                        width(d) >= width(a) - 1e-12,
                        "{m}x{reps}: {d:?} narrower than {a:?}"
                    );
                    let bottom: Vec<(u64, u64)> = (0..m).map(|_| (0, reps)).collect();
                    let mut dev = bottom.clone();
                    dev[which as usize].0 += 1;
                    let (a, d) = (
                        wilson_items(&bottom).unwrap().interval,
                        wilson_items(&dev).unwrap().interval,
                    );
                    assert!(d.hi >= a.hi - 1e-12, "{m}x{reps}: {d:?} below {a:?}");
                    assert!(
                        width(d) >= width(a) - 1e-12,
                        "{m}x{reps}: {d:?} narrower than {a:?}"
                    );
                }
            }
        }
        let i = wilson_items(&[(10, 10); 3]).unwrap().interval;
        assert!(
            close(i.lo, 0.13945172824791413, 1e-6) && i.hi == 1.0,
            "{i:?}"
        );
    }

    /// SplitMix64 (Steele, Lea & Flood 2014): a seeded generator for the coverage check.
    struct SplitMix(u64);

    impl SplitMix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in [0, 1).
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// How item rates vary in the coverage check.
    #[derive(Debug, Clone, Copy)]
    enum Spread {
        /// Every item's reps agree: an item is good on every rep (with probability μ) or on none.
        Identical,
        /// Every rep of every item an independent draw at μ.
        Independent,
        /// Item rates `U^a` with `a = 1/μ − 1` (mean μ), reps independent within an item.
        Mixed,
    }

    /// The coverage of the 95% interval over items at true mean rate `mu`: `m` items, each with
    /// 1 to `max_reps` reps (uniform), `sims` samples.
    fn coverage(
        rng: &mut SplitMix,
        m: usize,
        max_reps: u64,
        spread: Spread,
        mu: f64,
        sims: u32,
    ) -> f64 {
        let mut hit = 0u32;
        let mut cells = Vec::with_capacity(m);
        for _ in 0..sims {
            cells.clear();
            for _ in 0..m {
                let reps = 1 + rng.next() % max_reps;
                let p = match spread {
                    Spread::Identical => f64::from(u8::from(rng.unit() < mu)),
                    Spread::Independent => mu,
                    Spread::Mixed => rng.unit().powf(1.0 / mu - 1.0),
                };
                let k = (0..reps).filter(|_| rng.unit() < p).count() as u64;
                cells.push((k, reps));
            }
            let i = wilson_items(&cells).unwrap().interval;
            if i.lo <= mu && mu <= i.hi {
                hit += 1;
            }
        }
        f64::from(hit) / f64::from(sims)
    }

    /// The coverage check the documentation quotes: for 3 to 20 items with 1 to 3 or 1 to 10
    /// reps per item, items whose reps agree, independent reps and items of varying rates, at
    /// true rates 0.1, 0.3, 0.5, 0.7 and 0.9 (seeded; 800 samples each), the interval over
    /// items covers the true rate at least 0.93 of the time averaged over the rates, and at
    /// least 0.90 at every single rate. Printed with `--nocapture`.
    #[test]
    fn item_interval_covers_at_least_093_from_three_items() {
        let mut rng = SplitMix(0x5EED_0036);
        let mut worst_mean = (1.0f64, String::new());
        let mut worst_one = (1.0f64, String::new());
        for m in [3usize, 4, 5, 6, 8, 10, 12, 15, 20] {
            for max_reps in [3u64, 10] {
                for spread in [Spread::Identical, Spread::Independent, Spread::Mixed] {
                    let mut sum = 0.0;
                    let mut line = format!("{m:>2} items, 1–{max_reps:>2} reps, {spread:?}:");
                    for mu in [0.1, 0.3, 0.5, 0.7, 0.9] {
                        let c = coverage(&mut rng, m, max_reps, spread, mu, 800);
                        line.push_str(&format!(" {c:.3}"));
                        sum += c;
                        if c < worst_one.0 {
                            worst_one = (
                                c,
                                format!("{m} items, 1–{max_reps} reps, {spread:?}, μ {mu}"),
                            );
                        }
                    }
                    let mean = sum / 5.0;
                    println!("{line}  mean {mean:.3}");
                    if mean < worst_mean.0 {
                        worst_mean = (mean, format!("{m} items, 1–{max_reps} reps, {spread:?}"));
                    }
                }
            }
        }
        println!("lowest mean {worst_mean:?}; lowest single {worst_one:?}");
        assert!(worst_mean.0 >= 0.93, "coverage {worst_mean:?}");
        assert!(worst_one.0 >= 0.90, "coverage {worst_one:?}");
    }

    /// The power of the item tests: below 6 items none can reach p < 0.05; from 6 on, the share
    /// of items that must move is where `P[Binomial(m, q) ≥ u] = 0.8` (u = 6 for the report's
    /// tests; `items_needed(m)` for compare's). Expected: at m = 6 both need all 6, `q⁶ = 0.8`,
    /// q = 0.8^(1/6) = 0.963492; at m = 12, `Σ_{x≥u} C(12,x) qˣ(1−q)¹²⁻ˣ = 0.8` solved with
    /// exact integer binomials (Python `math.comb`, bisection): u = 6 → 0.577939, u = 10
    /// (compare) → 0.869284.
    #[test]
    fn item_power_is_for_the_tests_that_are_used() {
        for m in 0..6 {
            assert_eq!(item_power(m).arm_ctrl, None);
            assert_eq!(item_power(m).a_b, None);
        }
        let p = item_power(6);
        assert!(
            close(p.arm_ctrl.unwrap(), 0.9634924839989961, 1e-9),
            "{p:?}"
        );
        assert!(close(p.a_b.unwrap(), 0.9634924839989961, 1e-9), "{p:?}");
        let p = item_power(12);
        assert!(close(binomial_upper(12, p.arm_ctrl.unwrap(), 6), 0.8, 1e-9));
        assert!(
            close(p.arm_ctrl.unwrap(), 0.5779388568649758, 1e-9),
            "{p:?}"
        );
        assert!(close(p.a_b.unwrap(), 0.8692843469235999, 1e-9), "{p:?}");
        assert_eq!(items_needed(12), Some(10));
        assert!(close(binomial_upper(12, p.a_b.unwrap(), 10), 0.8, 1e-9));
    }

    #[test]
    fn clipped_and_degenerate_intervals_are_marked() {
        let i = Interval::clip(-1.4, 0.6, -1.0, 1.0);
        assert!(i.clipped && i.lo == -1.0);
        assert!(i.display(true).ends_with("clipped"), "{}", i.display(true));
        let i = Interval::clip(1.0, 1.0, -1.0, 1.0);
        assert!(i.degenerate());
        assert_eq!(i.display(true), "[+1.000, +1.000] DEGENERATE (zero width)");
        let i = Interval::clip(0.1, 0.3, -1.0, 1.0);
        assert!(!i.clipped && !i.degenerate());
    }
}
