//! `harness rejudge ROUND --judge AGENT`: adds a judge's readings to a finished round without
//! running any agent. Every non-empty answer (planned, untampered) is read by the judge; the
//! readings go to `judge.jsonl` in the out-dir (rewritten atomically: the rows judged now
//! replace their earlier readings, others are kept), who the judge was and what the pass cost
//! go to `round.json` (`judge`); then the reports, `summary.json` and `ROUND_DONE` are
//! re-derived from the out-dir, as `harness collect` derives them, so every row's `decided_by`
//! follows the decision rule. Answers and dispatch records are never touched. Each reading is
//! appended to `journal/rejudge.progress.jsonl` as it arrives, so a pass killed midway keeps
//! what it paid for and the next `rejudge` with the same judge asks only for the rest.
//!
//! [`read_round`] is the judge pass itself, shared with `harness rescore --judge`.

use crate::exit::Exit;
use crate::reading::judge::{self, Judge, JudgeCall, JudgeRecord};
use crate::round::collect::{Entry, Show};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What one judge pass over a round's answers left: every judge record of the round (the
/// earlier ones of rows not read now, then the new ones) and the record of the pass.
pub struct Pass {
    /// The records to store.
    pub records: Vec<JudgeRecord>,
    /// Who read, how, when, and the pass's totals (for `round.json` and the reports).
    pub info: reports::judge::JudgeInfo,
    /// Why this pass's calls gave no reading: each reason with its count, most common first.
    pub no_reading: Vec<(String, u64)>,
}

/// The most reasons [`Pass::no_reading_line`] names; the rest are counted together.
const REASONS_SHOWN: usize = 3;

impl Pass {
    /// Whether the judge was asked and read nothing: such a pass changes nothing.
    pub fn read_nothing(&self) -> bool {
        self.info.totals.calls > 0 && self.info.totals.read == 0
    }

    /// `90 no reading: the judge failed: exit status 126 (90)`: the most common reasons a call
    /// gave no reading, with counts (sanitized); `None` when every call gave a reading.
    pub fn no_reading_line(&self) -> Option<String> {
        if self.no_reading.is_empty() {
            return None;
        }
        let total: u64 = self.no_reading.iter().map(|(_, n)| n).sum();
        let mut parts: Vec<String> = self
            .no_reading
            .iter()
            .take(REASONS_SHOWN)
            .map(|(why, n)| format!("{why} ({n})"))
            .collect();
        let rest = &self.no_reading[self.no_reading.len().min(REASONS_SHOWN)..];
        if !rest.is_empty() {
            let n: u64 = rest.iter().map(|(_, n)| n).sum();
            parts.push(format!(
                "{} other reason{} ({n})",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ));
        }
        Some(format!("{total} no reading: {}", parts.join("; ")))
    }

    /// The refusal of a pass that read nothing: the round (or the rescore) is left as it was.
    pub fn refuse_if_read_nothing(&self, what: &str) -> Result<()> {
        if !self.read_nothing() {
            return Ok(());
        }
        let calls = self.info.totals.calls;
        Err(crate::exit::Fail::new(
            Exit::Unmeasured,
            format!(
                "the judge read none of the {calls} answer{} it was sent ({}); {what}",
                if calls == 1 { "" } else { "s" },
                self.no_reading_line()
                    .unwrap_or_else(|| format!("{calls} no reading"))
            ),
        )
        .into())
    }
}

/// Why the calls that gave no reading failed, each reason (sanitized, one line) with its
/// count, most common first (ties by reason).
fn no_reading_reasons(calls: &[JudgeCall]) -> Vec<(String, u64)> {
    let mut counts: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for c in calls.iter().filter(|c| c.reading.is_none()) {
        let why = c
            .failure
            .as_deref()
            .map(|f| crate::text::clean_line(f, 160))
            .unwrap_or_else(|| "no reason recorded".to_string());
        *counts.entry(why).or_default() += 1;
    }
    let mut v: Vec<(String, u64)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
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
    read_round_kept(out, qset, entries, earlier, judge, jobs, None)
}

/// `<out>/journal/rejudge.progress.jsonl`: each reading of a `rejudge` pass, appended as it
/// arrives (first line: the judge and rubric the pass reads with). A pass killed midway leaves
/// it; the next `rejudge` with the same judge keeps those readings and asks only for the rest.
/// Removed once the pass is stored in `judge.jsonl`.
pub fn progress_path(out: &Path) -> PathBuf {
    crate::round::journal::dir(out).join("rejudge.progress.jsonl")
}

/// The progress file's first line.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct ProgressHead {
    judge: String,
    rubric_sha256: String,
}

/// The readings an interrupted pass of this judge (same rubric) already paid for; a file of
/// another judge, or a torn last line, keeps nothing of it.
fn kept_readings(path: &Path, judge: &Judge) -> Vec<JudgeRecord> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut lines = text.lines();
    let head: Option<ProgressHead> = lines.next().and_then(|l| serde_json::from_str(l).ok());
    let want = ProgressHead {
        judge: judge.describe(),
        rubric_sha256: scorer::rubric::sha256(),
    };
    if head.as_ref() != Some(&want) {
        return Vec::new();
    }
    lines
        .filter_map(|l| serde_json::from_str::<JudgeRecord>(l).ok())
        .filter(|r| r.judge == want.judge && r.rubric_sha256 == want.rubric_sha256)
        .collect()
}

/// Appends one line to the progress file in one write (a kill leaves whole lines and at most
/// one torn last line, which [`kept_readings`] skips).
fn append_line(file: &std::sync::Mutex<std::fs::File>, line: &str) -> Result<()> {
    let mut f = file.lock().expect("progress file");
    f.write_all(format!("{line}\n").as_bytes())?;
    f.sync_data()?;
    Ok(())
}

/// [`read_round`], each reading appended to `progress` as it arrives when given, and the
/// readings an interrupted pass of the same judge left there reused instead of asked again.
#[allow(clippy::too_many_arguments)]
fn read_round_kept(
    out: &Path,
    qset: &scorer::Qset,
    entries: &[Entry],
    earlier: Vec<JudgeRecord>,
    judge: &Judge,
    jobs: usize,
    progress: Option<&Path>,
) -> Result<Pass> {
    let kept = progress
        .map(|p| kept_readings(p, judge))
        .unwrap_or_default();
    let mut asks = Vec::new();
    let mut judged = Vec::new();
    let mut reused: Vec<JudgeRecord> = Vec::new();
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
        let sha = crate::reading::review::sha256_hex(&bytes);
        if let Some(r) = kept
            .iter()
            .rev()
            .find(|r| r.label == e.label && r.rep == e.rep && r.answer_sha256 == sha)
        {
            reused.push(r.clone());
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
        judged.push((e.label.clone(), e.rep, sha));
    }
    eprintln!(
        "judge: {} answer{} to read with {} (sandbox {}){}",
        asks.len(),
        if asks.len() == 1 { "" } else { "s" },
        crate::text::clean_line(&judge.describe(), 120),
        judge.sandbox_name(),
        if reused.is_empty() {
            String::new()
        } else {
            format!(
                "; {} read by the same judge before the last pass stopped, kept",
                reused.len()
            )
        }
    );
    // The progress file starts again with the readings kept, so it always holds the pass.
    let file = match progress {
        Some(p) => {
            let mut text = serde_json::to_string(&ProgressHead {
                judge: judge.describe(),
                rubric_sha256: scorer::rubric::sha256(),
            })?;
            text.push('\n');
            for r in &reused {
                text.push_str(&serde_json::to_string(r)?);
                text.push('\n');
            }
            crate::files::write_atomic(p, text.as_bytes())?;
            Some(std::sync::Mutex::new(
                std::fs::OpenOptions::new().append(true).open(p)?,
            ))
        }
        None => None,
    };
    let started = std::time::Instant::now();
    let calls = read_each(judge, &asks, &judged, jobs, file.as_ref())?;
    let mut all_calls: Vec<JudgeCall> = reused.iter().map(|r| r.call.clone()).collect();
    all_calls.extend(calls.iter().cloned());
    let info = judge.info(&all_calls, jobs, started.elapsed());
    let no_reading = no_reading_reasons(&all_calls);
    let mut records: Vec<JudgeRecord> = earlier
        .into_iter()
        .filter(|r| {
            !judged
                .iter()
                .any(|(l, rep, _)| *l == r.label && *rep == r.rep)
                && !reused.iter().any(|k| k.label == r.label && k.rep == r.rep)
        })
        .collect();
    records.extend(reused);
    for ((label, rep, sha), call) in judged.into_iter().zip(calls) {
        records.push(record_of(judge, label, rep, sha, call));
    }
    Ok(Pass {
        records,
        info,
        no_reading,
    })
}

fn record_of(judge: &Judge, label: String, rep: u32, sha: String, call: JudgeCall) -> JudgeRecord {
    JudgeRecord {
        label,
        rep,
        answer_sha256: sha,
        rubric_sha256: scorer::rubric::sha256(),
        judge: judge.describe(),
        call,
    }
}

/// Every ask read by `judge`, `jobs` at once, each reading appended to `file` (when given) the
/// moment it arrives.
fn read_each(
    judge: &Judge,
    asks: &[(scorer::rubric::Item<'_>, String)],
    rows: &[(String, u32, String)],
    jobs: usize,
    file: Option<&std::sync::Mutex<std::fs::File>>,
) -> Result<Vec<JudgeCall>> {
    let Some(file) = file else {
        return Ok(judge.read_all(asks, jobs));
    };
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<JudgeCall>>> =
        std::sync::Mutex::new(vec![None; asks.len()]);
    let failed: std::sync::Mutex<Option<anyhow::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(asks.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let (Some((item, answer)), Some((label, rep, sha))) = (asks.get(i), rows.get(i))
                else {
                    break;
                };
                let call = judge.read(item, answer);
                let rec = record_of(judge, label.clone(), *rep, sha.clone(), call.clone());
                let line = serde_json::to_string(&rec).map_err(anyhow::Error::from);
                if let Err(e) = line.and_then(|l| append_line(file, &l)) {
                    *failed.lock().expect("judge pass") = Some(e);
                    break;
                }
                crate::round::journal::fault_point("rejudge:reading");
                done.lock().expect("judge pass")[i] = Some(call);
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("judge pass") {
        return Err(e.context("keeping a judge reading"));
    }
    Ok(done
        .into_inner()
        .expect("judge pass")
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect())
}

/// Runs `harness rejudge`. The judge's process runs under `--judge-sandbox`, else the round's
/// recorded `--sandbox` ([`Judge::for_round`]). Both of the round's locks are held from the
/// start; every check (running units, answers that are not the harness's, decisions on other
/// bytes, a judge other than the sealed one) runs before the first write. A judge other than
/// the one the round's manifest sealed is refused (exit 10) unless `accept_change`
/// (`--accept-change judge`); then the round says its design differs.
pub fn rejudge(out: &Path, judge: &Judge, jobs: usize, accept_change: bool) -> Result<Exit> {
    judge_round(out, judge, jobs, accept_change, Unread::Refuse)
}

/// What a judge pass that read none of the answers it was sent does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// `harness rejudge`: nothing is written, the round is left as it was (exit 12).
    Refuse,
    /// The pass of `harness run --judge`: recorded all the same, since the round planned this
    /// judge and its reports must say it read nothing.
    Record,
}

/// The judge pass that ends `harness run --judge`: as [`rejudge`], a pass that read nothing
/// recorded as such.
pub fn judge_finished_run(out: &Path, judge: &Judge, jobs: usize) -> Result<Exit> {
    judge_round(out, judge, jobs, false, Unread::Record)
}

fn judge_round(
    out: &Path,
    judge: &Judge,
    jobs: usize,
    accept_change: bool,
    unread: Unread,
) -> Result<Exit> {
    // A judge whose program is not here could only give "no reading": refused before
    // anything is written (the round keeps its readings and its manifest status).
    judge.require_program()?;
    let out = std::path::absolute(out)?;
    let plan = crate::round::journal::load_plan(&out)?;
    crate::round::plan::activate_reading(&plan.options)?;
    let units = crate::round::journal::no_unit_runs(&out, "rejudge")?;
    let lock = crate::round::journal::Lock::acquire(&out)?;
    let (qset, record, entries) = crate::commands::rescore::round_answers(&out)?;
    crate::round::collect::refuse_unplanned(&out, &entries)?;
    // A person's decision on bytes that changed refuses here, not after the judge was paid.
    crate::round::collect::score_entries(&out, &qset, &entries)?;
    let against = match &record {
        Some(r) => crate::reading::sealed::check(r, judge, accept_change, "rejudge")?,
        None => crate::reading::sealed::Against::NotSealed,
    };
    let judge = judge
        .clone()
        .for_round(record.as_ref(), &out)
        .map_err(|e| crate::exit::Fail::new(crate::exit::Exit::GateRefused, format!("{e:#}")))?;
    let progress = progress_path(&out);
    let pass = read_round_kept(
        &out,
        &qset,
        &entries,
        judge::load(&out)?,
        &judge,
        jobs,
        Some(&progress),
    )?;
    crate::round::journal::fault_point("rejudge:read");
    if unread == Unread::Refuse && pass.read_nothing() {
        // Nothing to keep: the next pass asks every answer again.
        std::fs::remove_file(&progress)?;
        pass.refuse_if_read_nothing(&format!(
            "the round is unchanged ({} and its reports are as they were)",
            judge::FILE
        ))?;
    }
    // The round's reports change from here: a kill past this point is finished by the next
    // `report`, `review` or `collect`. A pass killed while reading changed nothing derived; its
    // progress file lets the next `rejudge` keep what it paid for.
    crate::round::journal::mark_rederiving(&out, "rejudge")?;
    judge::store(&out, &pass.records)?;
    crate::round::journal::fault_point("rejudge:stored");
    let t = &pass.info.totals;
    println!(
        "{} of {} answers read by the judge ({} no reading), recorded in {}; re-deriving the round's reports",
        t.read,
        t.calls,
        t.no_reading,
        judge::FILE
    );
    if let Some(line) = pass.no_reading_line() {
        println!("{line}; see {}", judge::FILE);
    }
    if let crate::reading::sealed::Against::Changed(what) = &against {
        println!("{} ({what})", reports::JUDGE_DIFFERS);
    }
    if let Some(mut rec) = record {
        crate::reading::sealed::mark(&mut rec, &against);
        rec.judge = Some(pass.info);
        crate::round::record::save_round(&out, &rec)?;
    }
    std::fs::remove_file(&progress)?;
    crate::round::collect::rederive(&out, Show::default(), &units, &lock)
}
