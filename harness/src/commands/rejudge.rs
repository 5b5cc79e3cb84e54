//! `harness rejudge ROUND --judge AGENT`: adds a judge's readings to a finished round without
//! running any agent. Every non-empty answer (planned, untampered) is read by the judge; the
//! readings go to `judge.jsonl` in the out-dir (rewritten atomically: the rows judged now
//! replace their earlier readings, others are kept); then the reports, `summary.json` and
//! `ROUND_DONE` are re-derived from the out-dir, as `harness collect` derives them, so every
//! row's `decided_by` follows the decision rule. Answers and dispatch records are never touched.

use crate::exit::Exit;
use crate::reading::judge::{self, Judge, JudgeRecord};
use crate::round::collect::Show;
use anyhow::Result;
use std::path::Path;

/// Runs `harness rejudge`.
pub fn rejudge(out: &Path, judge: &Judge, jobs: usize) -> Result<Exit> {
    let out = std::path::absolute(out)?;
    let plan = crate::journal::load_plan(&out)?;
    crate::round::plan::activate_reading(&plan.options)?;
    let (qset, rows) = crate::rescore::scored_rows(&out)?;
    let mut asks = Vec::new();
    let mut judged = Vec::new();
    for r in &rows {
        let Some(q) = qset.questions.iter().find(|q| q.qid == r.qid) else {
            continue;
        };
        let path = crate::record::dispatch_file(&out, &format!("{}_r{}", r.label, r.rep), "txt");
        let bytes =
            std::fs::read(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
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
        // The judge gets the question, the values and the answer: never the arm or the label.
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
            r.label.clone(),
            r.rep,
            crate::reading::review::sha256_hex(&bytes),
        ));
    }
    eprintln!(
        "rejudge: {} answer{} to read with {}",
        asks.len(),
        if asks.len() == 1 { "" } else { "s" },
        crate::text::clean_line(&judge.describe(), 120)
    );
    let calls = judge.read_all(&asks, jobs);
    let read = calls.iter().filter(|c| c.reading.is_some()).count();
    let mut records: Vec<JudgeRecord> = judge::load(&out)?
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
    judge::store(&out, &records)?;
    println!(
        "{read} of {} answers read by the judge ({} no reading), recorded in {}; re-deriving the round's reports",
        asks.len(),
        asks.len() - read,
        judge::FILE
    );
    crate::units::collect_cmd(&out, Show::default())
}
