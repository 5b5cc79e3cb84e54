//! `harness compare A B`: two finished rounds on the same sealed qset and base, paired by item
//! (the comparison itself is `reports::compare`). Exit 0 with a result, never a verdict code;
//! exit 10 naming the field when the rounds are not comparable.

use crate::exit::{Exit, Fail};
use crate::record;
use anyhow::Result;
use reports::compare::{self, RoundIdentity};
use reports::Report;
use std::path::Path;

/// A finished round's report and identity, or why it cannot be compared.
fn load(out: &Path) -> Result<(RoundIdentity, Report)> {
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).map_err(|_| {
        Fail::new(
            Exit::Incomplete,
            format!(
                "{} has no ROUND_DONE: not a finished round; nothing to compare",
                out.display()
            ),
        )
    })?;
    if !done.lines().any(|l| l.starts_with("complete: yes")) {
        return Err(Fail::new(
            Exit::Incomplete,
            format!(
                "{}: ROUND_DONE says the round is incomplete; it is not compared",
                out.display()
            ),
        )
        .into());
    }
    let rec = record::load_round(out)?;
    let report = crate::rescore::derived_report(out)?;
    let qset = rec.input("qset").map(|i| i.sha256.clone()).ok_or_else(|| {
        Fail::new(
            Exit::ManifestMismatch,
            format!("{}: round.json records no qset hash", out.display()),
        )
    })?;
    Ok((
        RoundIdentity {
            name: out.display().to_string(),
            qset_sha256: qset,
            base_sha: rec.base.sha.clone(),
            seal_sha256: rec.input("seal").map(|i| i.sha256.clone()),
            agent: rec.agent.clone(),
            model: rec.model.clone(),
            harness_version: rec.harness_version.clone(),
            reps: rec.reps,
            sandbox: rec.sandbox.clone(),
            scorer: rec.scorer_fingerprint.clone(),
            deliver: rec.deliver,
        },
        report,
    ))
}

/// Compares round `a` with round `b` and prints the result in `format` (`table`, `md`, `json`,
/// `html`).
pub fn compare(a: &Path, b: &Path, format: &str) -> Result<Exit> {
    let (ia, mut ra) = load(a)?;
    let (ib, mut rb) = load(b)?;
    if format == "table" {
        // As `harness report`: a terminal never shows a qset token (the files may).
        ra = crate::rescore::masked_for_terminal(a, &ra);
        rb = crate::rescore::masked_for_terminal(b, &rb);
    }
    let c = compare::compare(&ia, &ra, &ib, &rb).map_err(|e| {
        Fail::new(
            Exit::ManifestMismatch,
            format!(
                "not comparable: {} differs (A {} vs B {}); compare runs only on the same sealed qset and base",
                e.field, e.a, e.b
            ),
        )
    })?;
    let out = match format {
        "table" => compare::text(&c),
        "md" => compare::markdown(&c),
        "json" => compare::json(&c),
        "html" => compare::html(&c),
        other => return Err(Fail::new(Exit::Usage, format!("unknown format {other}")).into()),
    };
    print!("{out}");
    Ok(Exit::Ok)
}
