//! `harness compare A B`: two finished rounds on the same sealed qset and base, paired by item
//! (the comparison itself is `reports::compare`). A or B may be a folder of finished rounds of
//! one design: their rows are pooled per item (reps renumbered across rounds). Exit 0 with a result, never a verdict code;
//! exit 10 naming the field when the rounds are not comparable.

use crate::exit::{Exit, Fail};
use crate::round::record;
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
    let report = crate::commands::rescore::derived_report(out)?;
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
            rounds: 1,
        },
        report,
    ))
}

/// One side of a comparison: a finished round, or a folder whose sub-folders are finished
/// rounds of one design, pooled. `mask` masks tokens for a terminal, round by round.
fn load_side(path: &Path, mask: bool) -> Result<(RoundIdentity, Report)> {
    let one = |out: &Path| -> Result<(RoundIdentity, Report)> {
        let (id, r) = load(out)?;
        // As `harness report`: a terminal never shows a qset token (the files may).
        let r = if mask {
            crate::commands::rescore::masked_for_terminal(out, &r)
        } else {
            r
        };
        Ok((id, r))
    };
    if path.join("ROUND_DONE").exists() || path.join("round.json").exists() {
        return one(path);
    }
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(path)
        .map_err(|e| Fail::new(Exit::Usage, format!("{}: {e}", path.display())))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("ROUND_DONE").exists() || p.join("round.json").exists())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(Fail::new(
            Exit::Incomplete,
            format!(
                "{} is neither a finished round (no ROUND_DONE) nor a folder of rounds; nothing to compare",
                path.display()
            ),
        )
        .into());
    }
    let rounds: Vec<(RoundIdentity, Report)> =
        dirs.iter().map(|d| one(d)).collect::<Result<_>>()?;
    pool(path, rounds)
}

/// The rounds of one folder as one side: refused (exit 10, naming the field and the two rounds)
/// unless every round ran the same qset, base, seal, agent, model, harness, reps, sandbox,
/// scorer, mode and ledger; then each item's rows are pooled, reps renumbered round after round.
fn pool(folder: &Path, rounds: Vec<(RoundIdentity, Report)>) -> Result<(RoundIdentity, Report)> {
    let design = |(i, r): &(RoundIdentity, Report)| -> Vec<(&'static str, String)> {
        vec![
            ("qset", i.qset_sha256.clone()),
            ("base", i.base_sha.clone()),
            ("seal sha256", i.seal_sha256.clone().unwrap_or_default()),
            ("agent", i.agent.clone()),
            ("model", i.model.clone().unwrap_or_default()),
            ("harness version", i.harness_version.clone()),
            ("reps", i.reps.to_string()),
            ("sandbox", i.sandbox.clone()),
            ("scorer", i.scorer.clone()),
            ("deliver", i.deliver.to_string()),
            ("ledger", r.meta.ledger.clone()),
        ]
    };
    let first = design(&rounds[0]);
    for other in &rounds[1..] {
        for ((field, x), (_, y)) in first.iter().zip(design(other)) {
            if *x != y {
                return Err(Fail::new(
                    Exit::ManifestMismatch,
                    format!(
                        "{}: the rounds differ in {field} ({} has {}, {} has {}); a folder pools rounds of one design only",
                        folder.display(),
                        rounds[0].0.name,
                        crate::text::clean_line(x, 80),
                        other.0.name,
                        crate::text::clean_line(&y, 80)
                    ),
                )
                .into());
            }
        }
    }
    let n = rounds.len() as u32;
    let mut id = rounds[0].0.clone();
    id.name = format!("{} ({n} rounds pooled)", folder.display());
    id.rounds = n;
    let mut meta = rounds[0].1.meta.clone();
    let mut rows = Vec::new();
    meta.timeline.clear();
    for (k, (_, r)) in rounds.into_iter().enumerate() {
        meta.timeline.extend(r.meta.timeline.iter().copied());
        for mut row in r.rows {
            row.rep += k as u32 * id.reps;
            rows.push(row);
        }
    }
    Ok((id, Report::new(meta, rows)))
}

/// Compares round (or folder of rounds) `a` with `b` and prints the result in `format`
/// (`table`, `md`, `json`, `html`).
pub fn compare(a: &Path, b: &Path, format: &str) -> Result<Exit> {
    let (ia, ra) = load_side(a, format == "table")?;
    let (ib, rb) = load_side(b, format == "table")?;
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
