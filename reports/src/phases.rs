//! Where a round's time went (issue 23): each dispatch phase's median and maximum over the
//! dispatches that timed it, so a user sees which part is the instrument's own cost and
//! whether it grows with the repository. Pure: the binary hands in the per-dispatch numbers.

use serde::{Deserialize, Serialize};

/// One phase over a round's dispatches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseStat {
    /// The phase's name (`checkout`, `home`, `sandbox`, `agent`, `teardown`, `cleanup`).
    pub phase: String,
    /// Dispatches whose record timed this phase (the median and maximum are over these).
    pub dispatches: usize,
    /// Median, in microseconds (whole numbers keep the report's types comparable).
    pub median_us: u64,
    /// Maximum, in microseconds.
    pub max_us: u64,
}

/// The per-phase statistics from each dispatch's `(phase, ms)` pairs, phases in the order the
/// first dispatch lists them. A phase no dispatch timed is left out (never shown as 0 ms).
pub fn summarize<'a>(
    dispatches: impl IntoIterator<Item = &'a [(&'static str, Option<f64>)]>,
) -> Vec<PhaseStat> {
    let mut by_phase: Vec<(&'static str, Vec<f64>)> = Vec::new();
    for phases in dispatches {
        for (name, ms) in phases {
            let i = match by_phase.iter().position(|(n, _)| n == name) {
                Some(i) => i,
                None => {
                    by_phase.push((name, Vec::new()));
                    by_phase.len() - 1
                }
            };
            if let Some(ms) = ms.filter(|v| v.is_finite()) {
                by_phase[i].1.push(ms);
            }
        }
    }
    by_phase
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(name, mut v)| {
            v.sort_by(f64::total_cmp);
            let n = v.len();
            let median = if n % 2 == 1 {
                v[n / 2]
            } else {
                (v[n / 2 - 1] + v[n / 2]) / 2.0
            };
            PhaseStat {
                phase: name.to_string(),
                dispatches: n,
                median_us: (median * 1000.0).round() as u64,
                max_us: (v[n - 1] * 1000.0).round() as u64,
            }
        })
        .collect()
}

/// The header line: `checkout 3.1 / 5.0 ms · agent 40.2 / 61.0 ms … (median / max over N
/// dispatches)`, or what is missing when no dispatch record timed its phases.
pub fn line(stats: &[PhaseStat]) -> String {
    if stats.is_empty() {
        return "not recorded (no dispatch record timed its phases: a round run before \
                per-phase timings, or no dispatch ran)"
            .into();
    }
    let most = stats.iter().map(|s| s.dispatches).max().unwrap_or(0);
    let parts: Vec<String> = stats
        .iter()
        .map(|s| {
            let mut p = format!("{} {} / {} ms", s.phase, ms(s.median_us), ms(s.max_us));
            if s.dispatches != most {
                p.push_str(&format!(" (over {})", s.dispatches));
            }
            p
        })
        .collect();
    format!(
        "{} (median / max over {})",
        parts.join(" · "),
        crate::counting::n_of(most as u64, "dispatch", "dispatches")
    )
}

fn ms(us: u64) -> String {
    let v = us as f64 / 1000.0;
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_maxima_per_phase_over_the_dispatches_that_timed_it() {
        let a: Vec<(&'static str, Option<f64>)> =
            vec![("checkout", Some(2.0)), ("agent", Some(10.0))];
        let b = vec![("checkout", Some(4.0)), ("agent", None)];
        let c = vec![("checkout", Some(3.0)), ("agent", Some(30.0))];
        let s = summarize([a.as_slice(), b.as_slice(), c.as_slice()]);
        assert_eq!(
            s,
            vec![
                PhaseStat {
                    phase: "checkout".into(),
                    dispatches: 3,
                    median_us: 3000,
                    max_us: 4000
                },
                PhaseStat {
                    phase: "agent".into(),
                    dispatches: 2,
                    median_us: 20000,
                    max_us: 30000
                },
            ]
        );
        assert_eq!(
            line(&s),
            "checkout 3.0 / 4.0 ms · agent 20.0 / 30.0 ms (over 2) (median / max over 3 dispatches)"
        );
    }

    #[test]
    fn nothing_timed_is_said_never_zero() {
        let a: Vec<(&'static str, Option<f64>)> = vec![("checkout", None)];
        let s = summarize([a.as_slice()]);
        assert!(s.is_empty());
        assert!(line(&s).starts_with("not recorded"), "{}", line(&s));
        assert!(!line(&s).contains("0 ms"));
    }
}
