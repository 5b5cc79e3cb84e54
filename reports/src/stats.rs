//! The statistics of §7.2, each formula written once: Wilson score intervals, Newcombe's hybrid
//! score interval for a difference of proportions, the item-clustered paired t-interval and the
//! exact McNemar test. Distributions come from `statrs`.
//!
//! Items are the unit: callers average repeats within an item before anything here sees them.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// A two-sided 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
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
    Some(Interval {
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// Newcombe's hybrid score interval (1998, method 10) for `k1/n1 − k2/n2`, two independent
/// samples. `None` when either sample is empty.
pub fn newcombe_diff(k1: u64, n1: u64, k2: u64, n2: u64) -> Option<Interval> {
    let w1 = wilson(k1, n1)?;
    let w2 = wilson(k2, n2)?;
    let p1 = k1 as f64 / n1 as f64;
    let p2 = k2 as f64 / n2 as f64;
    let d = p1 - p2;
    let lo = d - ((p1 - w1.lo).powi(2) + (w2.hi - p2).powi(2)).sqrt();
    let hi = d + ((w1.hi - p1).powi(2) + (p2 - w2.lo).powi(2)).sqrt();
    Some(Interval {
        lo: lo.max(-1.0),
        hi: hi.min(1.0),
    })
}

/// The paired ARM−CTRL contrast over items: mean item difference and its t-interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedContrast {
    /// Items that had rows in both arms.
    pub items: usize,
    /// Mean over items of (ARM good rate − CTRL good rate).
    pub mean: f64,
    /// 95% t-interval with `items − 1` df; `None` with fewer than two items.
    pub interval: Option<Interval>,
}

/// Mean and 95% t-interval (n−1 df) of per-item differences in [-1, 1], clipped to [-1, 1].
/// `None` when there are no items.
pub fn paired_contrast(diffs: &[f64]) -> Option<PairedContrast> {
    let n = diffs.len();
    if n == 0 {
        return None;
    }
    let mean = diffs.iter().sum::<f64>() / n as f64;
    let interval = if n >= 2 {
        let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
            .expect("df >= 1 is valid")
            .inverse_cdf(0.975);
        // A difference of two rates lies in [-1, 1]; a t-interval over few items can overshoot.
        Some(Interval {
            lo: (mean - t * se).max(-1.0),
            hi: (mean + t * se).min(1.0),
        })
    } else {
        None
    };
    Some(PairedContrast {
        items: n,
        mean,
        interval,
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
}

/// Exact McNemar: `p = min(1, 2·P[X ≤ min(b, c)])`, `X ~ Binomial(b + c, ½)`.
pub fn mcnemar_exact(b: u64, c: u64) -> McNemar {
    let n = b + c;
    let p = if n == 0 {
        None
    } else {
        let tail = Binomial::new(0.5, n)
            .expect("p = 0.5 is valid")
            .cdf(b.min(c));
        Some((2.0 * tail).min(1.0))
    };
    McNemar { b, c, p }
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
    fn newcombe_matches_published_values() {
        // Newcombe (1998b), Table II, method 10.
        for (k1, n1, k2, n2, lo, hi) in [
            (56, 70, 48, 80, 0.0524, 0.3339),
            (9, 10, 3, 10, 0.1705, 0.8090),
            (6, 7, 2, 7, 0.0582, 0.8062),
            (5, 56, 0, 29, -0.0381, 0.1926),
            (0, 10, 0, 20, -0.1611, 0.2775),
            (10, 10, 0, 20, 0.6791, 1.0),
        ] {
            let i = newcombe_diff(k1, n1, k2, n2).unwrap();
            assert!(close(i.lo, lo, 6e-4), "{k1}/{n1}-{k2}/{n2} lo {}", i.lo);
            assert!(close(i.hi, hi, 6e-4), "{k1}/{n1}-{k2}/{n2} hi {}", i.hi);
        }
        assert_eq!(newcombe_diff(1, 2, 0, 0), None);
    }

    #[test]
    fn t_interval_uses_n_minus_one_df() {
        // df = 9: t(0.975) = 2.262157; diffs 0..=9 / 10 → mean 0.45, sd 0.302765.
        let diffs: Vec<f64> = (0..10).map(|i| i as f64 / 10.0).collect();
        let c = paired_contrast(&diffs).unwrap();
        assert!(close(c.mean, 0.45, 1e-12));
        let half = 2.262157 * 0.302765 / 10f64.sqrt();
        let i = c.interval.unwrap();
        assert!(close(i.lo, 0.45 - half, 1e-5) && close(i.hi, 0.45 + half, 1e-5));
        // df = 1: t(0.975) = 12.7062.
        let i = paired_contrast(&[0.0, 0.1]).unwrap().interval.unwrap();
        assert!(close(i.hi, 0.05 + 12.7062 * 0.05, 1e-4));
        // …and clipped to the range a difference of rates can take.
        let i = paired_contrast(&[0.0, 1.0]).unwrap().interval.unwrap();
        assert_eq!((i.lo, i.hi), (-1.0, 1.0));
        assert_eq!(paired_contrast(&[0.3]).unwrap().interval, None);
        assert_eq!(paired_contrast(&[]), None);
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
}
