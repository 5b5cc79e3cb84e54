//! Arm × time: when each arm's dispatches started, from the times every dispatch record carries.
//! The dispatch order is a seeded shuffle so that provider drift, rate limits and warm caches
//! cannot fall on one arm; this is how a reader checks that they did not, in the round at hand.
//! Pure: spans in, counts and text out.

use scorer::Arm;
use serde::{Deserialize, Serialize};

/// Time buckets the round's span is cut into.
pub const BUCKETS: usize = 12;

/// Longest start-order sequence shown (one letter a dispatch).
const SEQUENCE_MAX: usize = 96;

/// One dispatch's place in time: its arm and when the unit began and finished it (ms since the
/// epoch, as the dispatch record has them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchSpan {
    /// The dispatch's arm.
    pub arm: Arm,
    /// When the unit began it.
    pub started_ms: u64,
    /// When the unit finished it; `None` when the record has no end.
    pub ended_ms: Option<u64>,
}

/// Start times per arm, counted per time bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// The first start (ms since the epoch).
    pub first_ms: u64,
    /// Width of one bucket, ms (at least 1).
    pub bucket_ms: u64,
    /// ARM starts per bucket.
    pub arm: Vec<u64>,
    /// CTRL starts per bucket.
    pub ctrl: Vec<u64>,
    /// Arms in start order (`A` ARM, `C` CTRL), capped at a few dozen letters.
    pub sequence: String,
    /// Dispatches in the sequence beyond the cap.
    pub sequence_more: usize,
    /// ARM starts in the first half of the round's span, of all ARM starts.
    pub arm_first_half: (u64, u64),
    /// CTRL starts in the first half, of all CTRL starts.
    pub ctrl_first_half: (u64, u64),
}

/// The timeline of `spans`, or `None` when no dispatch recorded a start (older rounds): never
/// an empty timeline that reads like "no dispatch ran".
pub fn timeline(spans: &[DispatchSpan]) -> Option<Timeline> {
    let first = spans.iter().map(|s| s.started_ms).min()?;
    let last = spans.iter().map(|s| s.started_ms).max()?;
    let width = last - first;
    let bucket_ms = (width / BUCKETS as u64 + 1).max(1);
    let (mut arm, mut ctrl) = (vec![0; BUCKETS], vec![0; BUCKETS]);
    let half = first + width / 2;
    let (mut af, mut an, mut cf, mut cn) = (0, 0, 0, 0);
    for s in spans {
        let b = (((s.started_ms - first) / bucket_ms) as usize).min(BUCKETS - 1);
        let early = s.started_ms <= half;
        match s.arm {
            Arm::Arm => {
                arm[b] += 1;
                an += 1;
                af += early as u64;
            }
            Arm::Ctrl => {
                ctrl[b] += 1;
                cn += 1;
                cf += early as u64;
            }
        }
    }
    let mut ordered: Vec<&DispatchSpan> = spans.iter().collect();
    ordered.sort_by_key(|s| s.started_ms);
    let letters: String = ordered
        .iter()
        .map(|s| if s.arm == Arm::Arm { 'A' } else { 'C' })
        .collect();
    let sequence: String = letters.chars().take(SEQUENCE_MAX).collect();
    Some(Timeline {
        first_ms: first,
        bucket_ms,
        arm,
        ctrl,
        sequence_more: letters.chars().count() - sequence.chars().count(),
        sequence,
        arm_first_half: (af, an),
        ctrl_first_half: (cf, cn),
    })
}

/// Milliseconds as a short duration (`850 ms`, `12.3 s`, `4.2 min`).
fn duration(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms < 120_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{:.1} min", ms as f64 / 60_000.0)
    }
}

/// The section as plain lines (terminal and Markdown): per-arm start counts per bucket, each
/// arm's share in the first half, and the start order.
pub fn lines(spans: &[DispatchSpan]) -> Vec<String> {
    let Some(t) = timeline(spans) else {
        return vec![
            "not recorded: this round's dispatch records carry no start times (recorded before they did)"
                .to_string(),
        ];
    };
    let row = |counts: &[u64]| {
        counts
            .iter()
            .map(|c| format!("{c:>3}"))
            .collect::<Vec<_>>()
            .join("")
    };
    let half = |(k, n): (u64, u64)| format!("{k} of {n}");
    let mut out = vec![
        format!(
            "dispatch starts per arm in {BUCKETS} buckets of {} from the first start (the order is a seeded shuffle; see order_seed in round.json)",
            duration(t.bucket_ms)
        ),
        format!("  ARM  {}", row(&t.arm)),
        format!("  CTRL {}", row(&t.ctrl)),
        format!(
            "  started in the first half of the round: ARM {}, CTRL {}",
            half(t.arm_first_half),
            half(t.ctrl_first_half)
        ),
        format!(
            "  start order (A = ARM, C = CTRL): {}{}",
            t.sequence,
            if t.sequence_more > 0 {
                format!(" … and {} more", t.sequence_more)
            } else {
                String::new()
            }
        ),
    ];
    if t.arm.iter().sum::<u64>() == 0 || t.ctrl.iter().sum::<u64>() == 0 {
        out.push("  one arm only: there is no arm × time balance to read".to_string());
    }
    out
}

/// The section as an inline SVG strip (HTML): one tick per dispatch start, ARM above CTRL, on
/// the round's time axis.
pub fn svg(spans: &[DispatchSpan]) -> Option<String> {
    let t = timeline(spans)?;
    let last = spans.iter().map(|s| s.started_ms).max()?;
    let width = (last - t.first_ms).max(1) as f64;
    let (w, left) = (600.0, 50.0);
    let mut svg = format!(
        "<svg class=\"timeline\" role=\"img\" viewBox=\"0 0 {} 70\" width=\"{}\" height=\"70\" \
         aria-label=\"dispatch starts over time, ARM above CTRL\">\n\
         <text x=\"0\" y=\"22\">ARM</text><text x=\"0\" y=\"52\">CTRL</text>\n",
        w + left + 10.0,
        w + left + 10.0
    );
    for s in spans {
        let x = left + (s.started_ms - t.first_ms) as f64 / width * w;
        let (y, class) = match s.arm {
            Arm::Arm => (10.0, "tick-arm"),
            Arm::Ctrl => (40.0, "tick-ctrl"),
        };
        svg.push_str(&format!(
            "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{y}\" width=\"2\" height=\"16\"/>\n"
        ));
    }
    svg.push_str(&format!(
        "<text x=\"{left}\" y=\"68\">0</text><text x=\"{}\" y=\"68\" text-anchor=\"end\">{}</text>\n</svg>",
        left + w,
        duration(last - t.first_ms)
    ));
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(arm: Arm, started_ms: u64) -> DispatchSpan {
        DispatchSpan {
            arm,
            started_ms,
            ended_ms: Some(started_ms + 5),
        }
    }

    #[test]
    fn counts_each_arms_starts_per_bucket_and_half() {
        // Hand-counted: span 0..=1100 ms, buckets of 1100/12+1 = 92 ms.
        let spans = [
            span(Arm::Arm, 1_000),
            span(Arm::Ctrl, 1_050),
            span(Arm::Ctrl, 1_600),
            span(Arm::Arm, 2_100),
        ];
        let t = timeline(&spans).unwrap();
        assert_eq!(t.bucket_ms, 92);
        assert_eq!(t.arm, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(t.ctrl, [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(t.sequence, "ACCA");
        assert_eq!(t.arm_first_half, (1, 2));
        assert_eq!(t.ctrl_first_half, (1, 2));
    }

    #[test]
    fn no_start_times_is_not_recorded_never_empty() {
        assert!(timeline(&[]).is_none());
        assert!(lines(&[])[0].starts_with("not recorded"));
        assert!(svg(&[]).is_none());
    }
}
