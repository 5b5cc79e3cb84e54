//! `harness rejudge ROUND --judge AGENT`: adds a judge's readings to a finished round without
//! running any agent. Every non-empty answer (planned, untampered) is read by the judge; the
//! readings go to `judge.jsonl` in the out-dir (rewritten atomically: the rows judged now
//! replace their earlier readings, others are kept), who the judge was and what the pass cost
//! go to `round.json` (`judge`); then the reports, `summary.json` and `ROUND_DONE` are
//! re-derived from the out-dir, as `harness collect` derives them, so every row's `decided_by`
//! follows the decision rule. Answers and dispatch records are never touched.
//!
//! [`read_round`] is the judge pass itself, shared with `harness rescore --judge`.

use crate::exit::Exit;
use crate::reading::judge::{self, Judge, JudgeRecord};
use crate::round::collect::{Entry, Show};
use anyhow::Result;
use std::path::Path;

/// What one judge pass over a round's answers left: every judge record of the round (the
/// earlier ones of rows not read now, then the new ones) and the record of the pass.
pub struct Pass {
    /// The records to store.
    pub records: Vec<JudgeRecord>,
    /// Who read, how, when, and the pass's totals (for `round.json` and the reports).
    pub info: reports::judge::JudgeInfo,
}

/// Reads every non-empty answer of `entries` with `judge` (`jobs` calls at once). The judge
/// gets the question, the values and the answer: never the arm or the label. `earlier` are
/// the round's records so far; a row read now replaces its earlier record.
pub fn read_round(
    out: &Path,
    qset: &scorer::Qset,
    entries: &[Entry],
    earlier: Vec<JudgeRecord>,
    judge: &Judge,
    jobs: usize,
) -> Result<Pass> {
    let mut asks = Vec::new();
    let mut judged = Vec::new();
    for e in entries {
        let Some(q) = qset.questions.iter().find(|q| q.qid == e.qid) else {
            continue;
        };
        let path = crate::round::record::dispatch_file(out, &e.stem, "txt");
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            // A planned answer that is not there is a missing answer, never a row to read.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => anyhow::bail!("reading {}: {err}", path.display()),
        };
        let reading = crate::reading::active();
        let ev = scorer::evaluate_as(
            &reading.lexicon,
            reading.token_match,
            &bytes,
            q.kind,
            &q.token,
            q.general.as_deref(),
        );
        if ev.verdict.class == scorer::Class::Void {
            continue;
        }
        asks.push((
            scorer::rubric::Item {
                kind: q.kind,
                question: &q.question,
                token: &q.token,
                general: q.general.as_deref(),
            },
            String::from_utf8_lossy(&bytes).into_owned(),
        ));
        judged.push((
            e.label.clone(),
            e.rep,
            crate::reading::review::sha256_hex(&bytes),
        ));
    }
    eprintln!(
        "judge: {} answer{} to read with {} (sandbox {})",
        asks.len(),
        if asks.len() == 1 { "" } else { "s" },
        crate::text::clean_line(&judge.describe(), 120),
        judge.sandbox_name()
    );
    let started = std::time::Instant::now();
    let calls = judge.read_all(&asks, jobs);
    let info = judge.info(&calls, jobs, started.elapsed());
    let mut records: Vec<JudgeRecord> = earlier
        .into_iter()
        .filter(|r| {
            !judged
                .iter()
                .any(|(l, rep, _)| *l == r.label && *rep == r.rep)
        })
        .collect();
    for ((label, rep, sha), call) in judged.into_iter().zip(calls) {
        records.push(JudgeRecord {
            label,
            rep,
            answer_sha256: sha,
            rubric_sha256: scorer::rubric::sha256(),
            judge: judge.describe(),
            call,
        });
    }
    Ok(Pass { records, info })
}

/// Runs `harness rejudge`. The judge's process runs under `--judge-sandbox`, else the round's
/// recorded `--sandbox` ([`Judge::for_round`]).
pub fn rejudge(out: &Path, judge: &Judge, jobs: usize) -> Result<Exit> {
    let out = std::path::absolute(out)?;
    let plan = crate::round::journal::load_plan(&out)?;
    crate::round::plan::activate_reading(&plan.options)?;
    let (qset, record, entries) = crate::commands::rescore::round_answers(&out)?;
    let judge = judge
        .clone()
        .for_round(record.as_ref(), &out)
        .map_err(|e| crate::exit::Fail::new(crate::exit::Exit::GateRefused, format!("{e:#}")))?;
    let pass = read_round(&out, &qset, &entries, judge::load(&out)?, &judge, jobs)?;
    judge::store(&out, &pass.records)?;
    let t = &pass.info.totals;
    println!(
        "{} of {} answers read by the judge ({} no reading), recorded in {}; re-deriving the round's reports",
        t.read,
        t.calls,
        t.no_reading,
        judge::FILE
    );
    if let Some(mut rec) = record {
        rec.judge = Some(pass.info);
        crate::round::record::save_round(&out, &rec)?;
    }
    crate::units::collect_cmd(&out, Show::default())
}
