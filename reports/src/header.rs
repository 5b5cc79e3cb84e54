//! The report header shared by the human-readable formats: who ran what, and whether the
//! inputs were verified. Untrusted names are sanitized here once.

use crate::sanitize;
use crate::{ManifestStatus, Report};

/// Longest seal or qset name shown.
const NAME_MAX: usize = 80;

/// What the terminal header says about the answers it shows: the binary masks every token
/// before it renders for a terminal (stdout becomes logs, logs become corpus).
pub(crate) const TERMINAL_ANSWERS: &str =
    "excerpts cut short; every qset token shown as ‹token›, every conflict's true (general) value as ‹general› (the out-dir files hold the answers whole)";

/// What the file formats say about the answers they hold: whole, tokens in clear.
pub(crate) const FILE_ANSWERS: &str =
    "answers in full, qset tokens in clear (not masked): keep this file out of any repository an agent reads";

/// The `design` field's last word, as `ROUND_DONE` says it: sealed, not sealed, or (after a
/// judge other than the sealed one read the round) that the judge differs from the sealed one.
fn design_word(m: &crate::RoundMeta) -> &'static str {
    match m.manifest {
        ManifestStatus::JudgeChanged => crate::JUDGE_DIFFERS,
        _ if m.design_sealed => "sealed in the manifest",
        _ => "design not sealed",
    }
}

/// Header facts as `(name, value)` pairs, values already sanitized to one plain line.
/// `answers` states the renderer's masking rule, so a reader knows what the excerpts hide.
pub(crate) fn header_fields(report: &Report, answers: &str) -> Vec<(&'static str, String)> {
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
                "arms {} · reps {} · deliver {} · isolation {} · {}",
                clean(&m.arms),
                m.reps,
                if m.deliver { "yes" } else { "no" },
                clean(&m.isolation),
                design_word(m)
            ),
        ),
        ("ledger", ledger_field(m)),
        (
            "repository agent config",
            match &m.repo_agent_config {
                None => "not recorded".to_string(),
                Some(files) if files.is_empty() => "none carried".to_string(),
                Some(files) => files
                    .iter()
                    .map(|f| sanitize::excerpt(f, 300))
                    .collect::<Vec<_>>()
                    .join(" · "),
            },
        ),
        (
            "judge",
            match &m.judge {
                Some(j) => j.who(&scorer::rubric::sha256()),
                None => crate::judge::NO_JUDGE.to_string(),
            },
        ),
    ];
    if let Some(j) = &m.judge {
        out.push(("judge pass", j.totals.line()));
    }
    if !m.reviewers.is_empty() {
        let names: Vec<String> = m
            .reviewers
            .iter()
            .map(|r| sanitize::excerpt(r, NAME_MAX))
            .collect();
        let reused = m.reused_from.len();
        let here = m.reused_here.len();
        let mut why = Vec::new();
        if reused > 0 {
            why.push(format!(
                "{reused} row{} settled by a decision reused from an earlier round of this qset on the same answer",
                if reused == 1 { "" } else { "s" }
            ));
        }
        if here > 0 {
            why.push(format!(
                "{here} row{} settled by a decision on the same answer in this round",
                if here == 1 { "" } else { "s" }
            ));
        }
        out.push((
            "reviewed by",
            if why.is_empty() {
                names.join(", ")
            } else {
                format!("{} ({})", names.join(", "), why.join("; "))
            },
        ));
    }
    out.extend([
        ("base", clean(&m.base_sha)),
        (
            "time",
            format!("{} → {}", clean(&m.started), clean(&m.finished)),
        ),
        ("per dispatch", crate::phases::line(&m.phases)),
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
                ManifestStatus::JudgeChanged => format!(
                    "JUDGE_CHANGED: the inputs matched the manifest, but {}: the answers were read by another judge than it sealed",
                    crate::JUDGE_DIFFERS
                ),
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
    ]);
    out.push(("answers", answers.to_string()));
    out.push((
        "watermark",
        match &s.watermark {
            Some(w) => format!("[{w}] on every number line and row below"),
            None => "none".into(),
        },
    ));
    out
}

/// The header's ledger line: strict (the gate refused any positive the seal lacks), or
/// `--ledger report` with the uncarried positives listed; a round with no seal has no ledger
/// to check and says so (never that a seal carries anything).
fn ledger_field(m: &crate::RoundMeta) -> String {
    if m.seal_name.is_none() {
        return "does not apply: no seal was given (a CTRL-only round)".into();
    }
    if !m.ledger_reports() {
        return "strict: the seal carries every positive (the gate refuses one that does not)"
            .into();
    }
    let list: Vec<String> = m
        .uncarried
        .iter()
        .map(|q| sanitize::excerpt(q, NAME_MAX))
        .collect();
    if list.is_empty() {
        "report (--ledger report): the seal carries every positive".into()
    } else {
        format!(
            "report (--ledger report): the seal does not carry {} positive(s), listed not refused: {}; \
             DELIVERY counts the carried positives, DELIVERY (all positives) beside it",
            list.len(),
            list.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design_of(manifest: ManifestStatus, sealed: bool) -> String {
        let mut meta = crate::lanes::fixture_meta();
        meta.manifest = manifest;
        meta.design_sealed = sealed;
        let report = Report::new(meta, Vec::new());
        header_fields(&report, FILE_ANSWERS)
            .into_iter()
            .find(|(k, _)| *k == "design")
            .map(|(_, v)| v)
            .expect("a design field")
    }

    #[test]
    fn a_judge_changed_round_says_the_judge_differs_not_that_nothing_was_sealed() {
        // As the round's ROUND_DONE says it: the design was sealed, its judge differs.
        let changed = design_of(ManifestStatus::JudgeChanged, false);
        assert!(changed.ends_with(crate::JUDGE_DIFFERS), "{changed}");
        assert!(!changed.contains("not sealed"), "{changed}");
        assert!(design_of(ManifestStatus::Match, true).ends_with("sealed in the manifest"));
        assert!(design_of(ManifestStatus::Unverified, false).ends_with("design not sealed"));
    }
}
