//! `harness compare A B`: two finished rounds on the same sealed qset and base, paired by item
//! (the comparison itself is `reports::compare`). A or B may be a folder of finished rounds of
//! one design: their rows are pooled per item (reps renumbered across rounds), items stay the
//! unit of every test, and a folder holding one round twice is refused. Exit 0 with a result,
//! never a verdict code; exit 10 naming the field when the rounds are not comparable; exit 2
//! when A and B are one round (the same folder or a byte copy).

use crate::exit::{Exit, Fail};
use crate::round::record;
use anyhow::Result;
use reports::compare::{self, Refusal, RoundIdentity, RoundVerdict};
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
    // The record's bytes name the run (its start, order seed and labels): a copy has the same.
    let fingerprint = crate::files::sha256_hex(&std::fs::read(out.join("round.json"))?);
    let report = crate::commands::rescore::derived_report(out)?;
    let qset = rec.input("qset").map(|i| i.sha256.clone()).ok_or_else(|| {
        Fail::new(
            Exit::ManifestMismatch,
            format!("{}: round.json records no qset hash", out.display()),
        )
    })?;
    let name = out.display().to_string();
    let judge = rec.judge.as_ref().map(|j| {
        format!(
            "{}{} (rubric {} sha256 {})",
            j.spec,
            j.model
                .as_deref()
                .map(|m| format!(", model {m}"))
                .unwrap_or_default(),
            j.rubric_version,
            j.rubric_sha256
        )
    });
    Ok((
        RoundIdentity {
            name: name.clone(),
            qset_sha256: qset,
            base_sha: rec.base.sha.clone(),
            seal_name: rec.seal_name.clone(),
            seal_sha256: rec.input("seal").map(|i| i.sha256.clone()),
            agent: rec.agent.clone(),
            agent_version: rec.agent_version.clone(),
            model: rec.model.clone(),
            harness_version: rec.harness_version.clone(),
            protocol_sha256: rec.input("protocol").map(|i| i.sha256.clone()),
            timeout_secs: rec.timeout_secs,
            reps: rec.reps,
            sandbox: rec.sandbox.clone(),
            scorer: rec.scorer_fingerprint.clone(),
            judge,
            deliver: rec.deliver,
            rounds: 1,
            fingerprints: vec![fingerprint],
            verdicts: vec![RoundVerdict {
                round: name,
                verdict: report.summary.verdict,
            }],
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

/// The rounds of one folder as one side: refused (exit 2) when it holds one round twice (a
/// copy would count its items' rows twice), and (exit 10, naming the field and the two rounds)
/// unless every round ran the same design; then each item's rows are pooled, reps renumbered
/// round after round. Items stay the unit of every test: pooling makes an item's rate finer,
/// never adds items.
fn pool(folder: &Path, rounds: Vec<(RoundIdentity, Report)>) -> Result<(RoundIdentity, Report)> {
    for (i, (x, _)) in rounds.iter().enumerate() {
        if let Some((y, _)) = rounds[..i]
            .iter()
            .find(|(y, _)| y.fingerprints == x.fingerprints)
        {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "{}: {} and {} are the same round (round.json sha256 {}); a folder pools distinct rounds only — remove the copy",
                    folder.display(),
                    crate::text::clean_line(&y.name, 200),
                    crate::text::clean_line(&x.name, 200),
                    x.fingerprints.join(", ")
                ),
            )
            .into());
        }
    }
    let design = |(i, r): &(RoundIdentity, Report)| -> Vec<(&'static str, String)> {
        vec![
            ("qset", i.qset_sha256.clone()),
            ("base", i.base_sha.clone()),
            ("seal sha256", i.seal_sha256.clone().unwrap_or_default()),
            ("agent", i.agent.clone()),
            ("CLI version", i.agent_version.clone().unwrap_or_default()),
            ("model", i.model.clone().unwrap_or_default()),
            ("harness version", i.harness_version.clone()),
            ("protocol", i.protocol_sha256.clone().unwrap_or_default()),
            ("timeout", i.timeout_secs.to_string()),
            ("reps", i.reps.to_string()),
            ("sandbox", i.sandbox.clone()),
            ("scorer", i.scorer.clone()),
            ("judge", i.judge.clone().unwrap_or_default()),
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
    id.fingerprints.clear();
    id.verdicts.clear();
    let mut meta = rounds[0].1.meta.clone();
    let mut rows = Vec::new();
    meta.timeline.clear();
    meta.effort.clear();
    for (k, (rid, r)) in rounds.into_iter().enumerate() {
        id.fingerprints.extend(rid.fingerprints);
        id.verdicts.extend(rid.verdicts);
        meta.timeline.extend(r.meta.timeline.iter().copied());
        meta.effort
            .extend(r.meta.effort.iter().cloned().map(|mut e| {
                e.rep += k as u32 * id.reps;
                e
            }));
        for mut row in r.rows {
            row.rep += k as u32 * id.reps;
            rows.push(row);
        }
    }
    Ok((id, Report::new(meta, rows)))
}

/// The comparison's output with the A→B difference of ARM's effort added in the same format:
/// a block after the text or Markdown, an `effort` key in the JSON, a section in the HTML.
fn with_effort(out: String, format: &str, shift: &reports::effort::EffortShift) -> Result<String> {
    let lines = shift.lines();
    Ok(match format {
        "json" => {
            let mut doc: serde_json::Value = serde_json::from_str(&out)?;
            doc["effort"] = shift.json();
            let mut s = serde_json::to_string_pretty(&doc)?;
            s.push('\n');
            s
        }
        "md" => {
            let mut s = out;
            s.push_str("\n## Effort (ARM, A → B)\n\n");
            for l in lines {
                s.push_str(&format!("- {}\n", reports::sanitize::markdown_escape(&l)));
            }
            s
        }
        "html" => {
            let mut block = String::from("<h2>Effort (ARM, A → B)</h2>\n<ul class=\"effort\">\n");
            for l in lines {
                block.push_str(&format!(
                    "<li>{}</li>\n",
                    reports::sanitize::html_escape(&l)
                ));
            }
            block.push_str("</ul>\n");
            match out.rfind("</body>") {
                Some(i) => format!("{}{block}{}", &out[..i], &out[i..]),
                None => out + &block,
            }
        }
        _ => {
            let mut s = out;
            s.push_str("\n── effort (ARM, A → B) ──\n");
            for l in lines {
                s.push_str(&format!("{}\n", reports::sanitize::terminal(&l, 600)));
            }
            s
        }
    })
}

/// Compares round (or folder of rounds) `a` with `b` and prints the result in `format`
/// (`table`, `md`, `json`, `html`).
pub fn compare(a: &Path, b: &Path, format: &str) -> Result<Exit> {
    if let (Ok(x), Ok(y)) = (a.canonicalize(), b.canonicalize()) {
        if x == y {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "A and B are the same folder ({}); a round compared with itself shows nothing — give two rounds",
                    x.display()
                ),
            )
            .into());
        }
    }
    let (ia, ra) = load_side(a, format == "table")?;
    let (ib, rb) = load_side(b, format == "table")?;
    let c = compare::compare(&ia, &ra, &ib, &rb).map_err(|e| match e {
        Refusal::Incomparable { field, a, b } => Fail::new(
            Exit::ManifestMismatch,
            format!(
                "not comparable: {field} differs (A {a} vs B {b}); compare runs only on the same sealed qset and base"
            ),
        ),
        Refusal::SameRound { why } => Fail::new(
            Exit::Usage,
            format!("not compared: {}", crate::text::clean_line(&why, 600)),
        ),
    })?;
    let out = match format {
        "table" => compare::text(&c),
        "md" => compare::markdown(&c),
        "json" => compare::json(&c),
        "html" => compare::html(&c),
        other => return Err(Fail::new(Exit::Usage, format!("unknown format {other}")).into()),
    };
    let out = with_effort(out, format, &reports::effort::shift(&ra, &rb))?;
    print!("{out}");
    Ok(Exit::Ok)
}
