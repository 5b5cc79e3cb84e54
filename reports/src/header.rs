//! The report header shared by the human-readable formats: who ran what, and whether the
//! inputs were verified. Untrusted names are sanitized here once.

use crate::sanitize;
use crate::{ManifestStatus, Report};

/// Longest seal or qset name shown.
const NAME_MAX: usize = 80;

/// Header facts as `(name, value)` pairs, values already sanitized to one plain line.
pub(crate) fn header_fields(report: &Report) -> Vec<(&'static str, String)> {
    let m = &report.meta;
    let s = &report.summary;
    let clean = |t: &str| sanitize::excerpt(t, NAME_MAX);
    let mut out = vec![
        (
            "harness",
            format!(
                "{} · scorer {} · lexicon {}",
                clean(&m.harness_version),
                clean(&m.scorer_fingerprint),
                clean(&m.lexicon_version)
            ),
        ),
        ("qset", clean(&m.qset_name)),
        (
            "seal",
            match &m.seal_name {
                Some(n) => clean(n),
                None => "none (CTRL-only round)".to_string(),
            },
        ),
        (
            "agent",
            format!(
                "{} · model {}",
                clean(&m.agent),
                m.model
                    .as_deref()
                    .map(clean)
                    .unwrap_or_else(|| "(agent default)".into())
            ),
        ),
        (
            "design",
            format!(
                "arms {} · reps {} · deliver {} · isolation {}",
                clean(&m.arms),
                m.reps,
                if m.deliver { "yes" } else { "no" },
                clean(&m.isolation)
            ),
        ),
        ("base", clean(&m.base_sha)),
        (
            "time",
            format!("{} → {}", clean(&m.started), clean(&m.finished)),
        ),
        (
            "manifest",
            match m.manifest {
                ManifestStatus::Match => {
                    "match (qset, seal, protocol, base and scorer verified)".into()
                }
                ManifestStatus::Unverified => {
                    "UNVERIFIED: no manifest was given; the inputs were not \
                                               checked against a pre-registration"
                        .into()
                }
            },
        ),
        (
            "contamination",
            if m.contaminated {
                "OVERRIDDEN: a qset token occurs in what the agent sees; CTRL's ceiling is contaminated"
                    .into()
            } else {
                "gate passed".into()
            },
        ),
        (
            "verdict",
            format!("{} (exit {})", s.verdict_display(), s.verdict.exit_code()),
        ),
    ];
    out.push((
        "watermark",
        match &s.watermark {
            Some(w) => format!("[{w}] on every number line and row below"),
            None => "none".into(),
        },
    ));
    out
}
