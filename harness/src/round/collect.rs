//! After every dispatch has ended: score every answer, render the report, and write the
//! completion marker last (DESIGN §7.7). "Done" is read from `ROUND_DONE` only, never from a
//! file count. Input: the out-dir (its plan, round record and answers). Output: `verdicts.csv`,
//! `summary.json`, `report.md`, `report.html`, then `ROUND_DONE`, and the round's exit.

use crate::exit::{Exit, Fail};
use crate::round::journal::{self, Plan};
use crate::round::record::{self, RoundRecord, RoundStatus};
use crate::text::clean_line;
use anyhow::Result;
use reports::{InstrumentVerdict, ManifestStatus, QuestionInfo, Render, Report, RoundMeta, Row};
use scorer::{Arm, Kind, Qset};
use std::path::Path;

/// One answer to score: its file stem and what it answered.
#[derive(Debug, Clone)]
pub struct Entry {
    /// `<label>_r<n>` (or a legacy `<qid>_<ARM>_r<n>`).
    pub stem: String,
    /// The label part.
    pub label: String,
    /// The question.
    pub qid: String,
    /// The arm.
    pub arm: Arm,
    /// The rep.
    pub rep: u32,
}

/// Scores every entry whose answer file exists; entries without one are skipped (they are
/// counted as missing answers by the marker, never as a class).
pub fn score_entries(out: &Path, qset: &Qset, entries: &[Entry]) -> Result<Vec<Row>> {
    let judged = crate::reading::judge::load(out)?;
    score_entries_with(out, qset, entries, &judged)
}

/// [`score_entries`] with these judge records instead of the out-dir's `judge.jsonl` (a
/// `rescore --judge` reads into its own folder and leaves the round's file alone).
pub fn score_entries_with(
    out: &Path,
    qset: &Qset,
    entries: &[Entry],
    judged: &[crate::reading::judge::JudgeRecord],
) -> Result<Vec<Row>> {
    let reading = crate::reading::active();
    let decisions = crate::reading::review::load(out)?;
    let mut rows = Vec::new();
    for e in entries {
        let Some(q) = qset.questions.iter().find(|q| q.qid == e.qid) else {
            anyhow::bail!(
                "answer {} names question {} which the qset does not have",
                e.stem,
                e.qid
            );
        };
        let path = record::dispatch_file(out, &e.stem, "txt");
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            Err(err) => anyhow::bail!("reading {}: {err}", path.display()),
        };
        let ev = scorer::evaluate_as(
            &reading.lexicon,
            reading.token_match,
            &bytes,
            q.kind,
            &q.token,
            q.general.as_deref(),
        );
        let person = crate::reading::review::class_for(&decisions, &e.label, e.rep, &bytes)?;
        let judge = crate::reading::judge::class_for(
            judged,
            &e.label,
            e.rep,
            &bytes,
            q.kind,
            q.general.is_some(),
        )?;
        let readings = judge.map(|j| reports::reading::Readings {
            lexicon: ev.verdict.class,
            lexicon_certain: ev.certain(),
            judge: j,
        });
        let mut verdict = ev.verdict;
        let standing = match person {
            Some(class) => {
                verdict.class = class;
                reports::reading::Standing::Decided {
                    by: reports::reading::DecidedBy::Person,
                }
            }
            None => {
                let cues: Vec<String> = ev.cues.iter().map(|c| c.as_str().to_string()).collect();
                let (class, standing) = reports::reading::decide(
                    ev.verdict.class,
                    ev.certain(),
                    &cues,
                    judge,
                    ev.for_person().as_deref(),
                );
                verdict.class = class;
                standing
            }
        };
        rows.push(Row {
            qid: e.qid.clone(),
            kind: q.kind,
            arm: e.arm,
            rep: e.rep,
            verdict,
            clarify: ev.clarify,
            label: e.label.clone(),
            excerpt: String::from_utf8_lossy(&bytes).into_owned(),
            standing,
            readings,
        });
    }
    Ok(rows)
}

/// The people whose decisions the round's rows carry, and the rows whose decision was reused
/// from an earlier round, from the out-dir's `review.jsonl`: for the report header and the
/// `decided by` column.
pub fn with_reviewers(mut meta: RoundMeta, out: &Path, rows: &[Row]) -> Result<RoundMeta> {
    let decisions = crate::reading::review::load(out)?;
    let mut reviewers: Vec<String> = Vec::new();
    for r in rows {
        if r.standing.decided_by() != Some(reports::reading::DecidedBy::Person) {
            continue;
        }
        let Some(d) = decisions
            .iter()
            .rev()
            .find(|d| d.label == r.label && d.rep == r.rep)
        else {
            continue;
        };
        if !reviewers.contains(&d.reviewer) {
            reviewers.push(d.reviewer.clone());
        }
        if let Some(from) = &d.reused_from {
            meta.reused_from
                .insert(format!("{}_r{}", r.label, r.rep), from.clone());
        } else if d.same_answer_as.is_some() {
            meta.reused_here.insert(format!("{}_r{}", r.label, r.rep));
        }
    }
    meta.reviewers = reviewers;
    Ok(meta)
}

/// Decisions for answers of this round that no decision of its own covers: first a decision
/// of this round on another row of the same question with the same answer bytes (marked
/// `same_answer_as`), else one the user's state folder holds from another round: the same
/// qset (sha256), question and answer bytes (sha256), a class of the row's kind (marked
/// `reused_from`). A decision of this round is never said to come from an earlier one. Read
/// only.
fn reusable(
    out: &Path,
    record: &RoundRecord,
    qset: &Qset,
    entries: &[Entry],
) -> Result<Vec<crate::reading::review::Decision>> {
    let qset_sha = record.input("qset").map(|i| i.sha256.clone());
    let settled = crate::reading::review::settled();
    let own = crate::reading::review::load(out)?;
    // This round's own decisions (not those applied from another row), by question.
    let qid_of = |label: &str| {
        entries
            .iter()
            .find(|e| e.label == label)
            .map(|e| e.qid.as_str())
    };
    let mut found = Vec::new();
    for e in entries {
        // The row's latest decision: its own (or one reused from an earlier round) covers it;
        // one applied from another row of this round is looked at again below, so a changed
        // decision on that row reaches this one too.
        let latest = own
            .iter()
            .rev()
            .find(|d| d.label == e.label && d.rep == e.rep);
        if latest.is_some_and(|d| d.same_answer_as.is_none()) {
            continue;
        }
        let Some(q) = qset.questions.iter().find(|q| q.qid == e.qid) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(record::dispatch_file(out, &e.stem, "txt")) else {
            continue;
        };
        let sha = crate::reading::review::sha256_hex(&bytes);
        let allowed = scorer::rubric::allowed(q.kind, q.general.is_some());
        if let Some(d) = own.iter().rev().find(|d| {
            d.reused_from.is_none()
                && d.same_answer_as.is_none()
                && d.answer_sha256 == sha
                && qid_of(&d.label) == Some(e.qid.as_str())
                && allowed.contains(&d.class)
        }) {
            let applied = crate::reading::review::Decision {
                label: e.label.clone(),
                rep: e.rep,
                class: d.class,
                reviewer: d.reviewer.clone(),
                time: d.time.clone(),
                answer_sha256: sha,
                reused_from: None,
                same_answer_as: Some(format!("{}_r{}", d.label, d.rep)),
            };
            // Already applied, unchanged: nothing to add.
            if latest != Some(&applied) {
                found.push(applied);
            }
            continue;
        }
        if latest.is_some() {
            continue;
        }
        let Some(qset_sha) = &qset_sha else {
            continue;
        };
        // A decision remembered from this round is one of `own` (matched above, or on bytes
        // no row of this question has now): never offered as an earlier round's.
        let of_this_round = |s: &crate::reading::review::Settled| {
            own.iter().any(|d| {
                d.answer_sha256 == s.answer_sha256
                    && d.time == s.time
                    && d.reviewer == s.reviewer
                    && d.class == s.class
            })
        };
        if let Some(s) = settled
            .iter()
            .rev()
            .filter(|s| !of_this_round(s))
            .find(|s| {
                s.qset_sha256 == *qset_sha
                    && s.qid == e.qid
                    && s.answer_sha256 == sha
                    && allowed.contains(&s.class)
            })
        {
            found.push(crate::reading::review::Decision {
                label: e.label.clone(),
                rep: e.rep,
                class: s.class,
                reviewer: s.reviewer.clone(),
                time: s.time.clone(),
                answer_sha256: sha,
                reused_from: Some(s.round.clone()),
                same_answer_as: None,
            });
        }
    }
    Ok(found)
}

/// The report header's facts, from the round record.
pub fn meta_of(record: &RoundRecord, qset: &Qset) -> RoundMeta {
    let qset_name = record
        .input("qset")
        .map(|i| {
            Path::new(&i.path)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .unwrap_or_default();
    RoundMeta {
        harness_version: record.harness_version.clone(),
        scorer_fingerprint: crate::reading::active().fingerprint(),
        lexicon_version: crate::reading::active().version(),
        qset_name,
        seal_name: record.seal_name.clone(),
        questions: qset
            .questions
            .iter()
            .map(|q| QuestionInfo {
                qid: q.qid.clone(),
                kind: q.kind,
                question: q.question.clone(),
            })
            .collect(),
        agent: record.agent.clone(),
        model: record.model.clone(),
        reps: record.reps,
        arms: record.arms.clone(),
        deliver: record.deliver,
        manifest: match record.manifest.status.as_str() {
            "match" => ManifestStatus::Match,
            record::JUDGE_CHANGED => ManifestStatus::JudgeChanged,
            _ => ManifestStatus::Unverified,
        },
        design_sealed: record.manifest.status == "match" && record.manifest.design_sealed,
        contaminated: record.contaminated,
        isolation: isolation_header(record),
        base_sha: record.base.sha.clone(),
        started: record.started.clone(),
        finished: record.finished.clone().unwrap_or_default(),
        phases: record.phases.clone(),
        ledger: record.ledger.clone(),
        uncarried: record.uncarried.clone(),
        protocol_given: Some(record.input("protocol").is_some()),
        timeline: record.timeline.clone(),
        judge: record.judge.clone(),
        effort: record.effort.clone(),
        reviewers: Vec::new(),
        reused_from: Default::default(),
        reused_here: Default::default(),
        repo_agent_config: record.repo_agent_config.as_ref().map(|files| {
            let mut lines: Vec<String> = files.iter().map(|f| f.line()).collect();
            if record.allow_repo_hooks && record.sandbox == "none" {
                lines.push(
                    "--allow-repo-hooks: its hooks and MCP servers ran with the user's rights"
                        .into(),
                );
            }
            lines
        }),
    }
}

/// The isolation the report header shows. Under `--sandbox none` nothing kept an agent out of
/// the out-dir, where the journal (labels, questions, prompts) and other answers are: said.
fn isolation_header(record: &RoundRecord) -> String {
    // The checkout method (issue 14) before the note: the header cuts long values.
    let level = if record.checkout.is_empty() {
        record.isolation.clone()
    } else {
        format!("{} · checkout {}", record.isolation, record.checkout)
    };
    if record.sandbox == "none" {
        format!("{level} (agents could read the round's journal: labels, prompts, answers)")
    } else {
        level
    }
}

/// The exit code of an instrument verdict (one table: [`Exit`]).
pub fn exit_of_verdict(v: InstrumentVerdict) -> Exit {
    match v {
        InstrumentVerdict::Void => Exit::Void,
        InstrumentVerdict::InstrumentIncomplete => Exit::InstrumentIncomplete,
        InstrumentVerdict::CarrierUnread => Exit::CarrierUnread,
        InstrumentVerdict::NeedsReview => Exit::NeedsReview,
        InstrumentVerdict::Finding | InstrumentVerdict::Ok => Exit::Ok,
    }
}

/// The report as the terminal shows it: every qset token in the answer excerpts replaced by
/// `‹token›` and every conflict's true value by `‹general›` (an answer that gave the true value
/// is not shown as one that gave the planted one). The out-dir's files keep the answers whole
/// (they are the answers); stdout becomes logs, and logs must never carry a token back into a
/// repository.
pub fn masked_for_terminal(report: &Report, qset: &Qset) -> Report {
    let tokens: Vec<&str> = qset.questions.iter().map(|q| q.token.as_str()).collect();
    let generals: Vec<&str> = qset
        .questions
        .iter()
        .filter_map(|q| q.general.as_deref())
        .collect();
    let masker = crate::gates::start::Masker::labelled(&tokens, &generals);
    let mut masked = report.clone();
    for r in &mut masked.rows {
        r.excerpt = masker.mask(&r.excerpt);
    }
    masked
}

/// Writes the four report files into `dir` and returns the terminal rendering (tokens masked).
pub fn write_reports(dir: &Path, report: &Report, qset: &Qset) -> Result<String> {
    let files: [&dyn Render; 4] = [
        &reports::csv::Csv,
        &reports::json::Json,
        &reports::markdown::Markdown,
        &reports::html::Html,
    ];
    for r in files {
        journal::write_atomic(&dir.join(r.file_name()), r.render(report).as_bytes())?;
        journal::fault_point(&format!("report:{}", r.file_name()));
    }
    Ok(terminal().render(&masked_for_terminal(report, qset)))
}

/// The terminal renderer for this process: colour as `--color`, `NO_COLOR` and the terminal say.
pub fn terminal() -> reports::terminal::Terminal {
    let color = crate::color::stdout();
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(120);
    reports::terminal::Terminal { color, width }
}

/// `harness collect --out DIR`: everything read from the out-dir alone (the plan, the round
/// record, the dispatch records, the answers); the qset is read back and checked by hash.
/// `units` is the round-level lock held exclusively: no unit runs, so leftovers are swept.
pub fn collect(out: &Path, show: Show, units: &journal::UnitsLock) -> Result<Exit> {
    let lock = journal::Lock::acquire(out)?;
    rederive(out, show, units, &lock)
}

/// [`collect`] with both of the round's locks already held (by `review`, `rejudge`, `report`):
/// the reports, `summary.json` and `ROUND_DONE` derived again from the answers, `judge.jsonl`
/// and `review.jsonl`, `ROUND_DONE` last.
pub fn rederive(
    out: &Path,
    show: Show,
    units: &journal::UnitsLock,
    _lock: &journal::Lock,
) -> Result<Exit> {
    journal::sweep_partials(out, units);
    let plan = journal::load_plan(out)?;
    let mut record = record::load_round(&plan.out)?;
    let qset = planned_qset(&plan, &record)?;
    settle(&plan, &mut record);
    finish(&plan, &qset, &mut record, show)
}

/// The qset the round ran with: the embedded demo's, or the planned file if its bytes are still
/// the recorded ones.
pub fn planned_qset(plan: &Plan, record: &RoundRecord) -> Result<Qset> {
    let (bytes, shown) = match (&plan.demo, &plan.options.qset) {
        (Some(_), _) => (
            crate::demo::demo()?.qset.to_vec(),
            "the embedded demo qset".to_string(),
        ),
        (None, Some(p)) => (
            std::fs::read(p).map_err(|e| {
                Fail::new(
                    Exit::Usage,
                    format!("the round's qset {} cannot be read: {e}", p.display()),
                )
            })?,
            p.display().to_string(),
        ),
        (None, None) => {
            return Err(Fail::new(Exit::Usage, "the plan names no qset").into());
        }
    };
    let now = crate::gates::manifest::sha256_hex(&bytes);
    if let Some(rec) = record.input("qset") {
        if rec.sha256 != now {
            return Err(Fail::new(
                Exit::ManifestMismatch,
                format!(
                    "qset {shown} changed since the round ran (sha256 {} ≠ {})",
                    &now[..12],
                    rec.sha256.get(..12).unwrap_or("")
                ),
            )
            .into());
        }
    }
    scorer::qset::parse(&bytes, &shown).map_err(|e| Fail::new(Exit::Usage, e.to_string()).into())
}

/// Fills what the round record learns from every dispatch record (this run's and, on
/// `--resume`, the earlier ones'): the variable names agents received and the isolation level.
pub fn settle(plan: &Plan, record: &mut RoundRecord) {
    let stems: Vec<String> = plan.dispatches.iter().map(|d| d.stem()).collect();
    let records = record::dispatch_records(&plan.out, stems.iter().map(String::as_str));
    let mut names: Vec<String> = records
        .iter()
        .flat_map(|r| r.env_names.iter().cloned())
        .collect();
    names.sort();
    names.dedup();
    record.env_names = names;
    let levels: Vec<String> = records.iter().filter_map(|r| r.isolation.clone()).collect();
    record.isolation = crate::agents::sandbox::round_level(plan.options.sandbox, &levels);
    record.checkout = record::checkout_methods(&records);
    record.phases = record::phase_stats(&records);
    // Arm × time: each planned dispatch's arm with the times its record carries.
    record.timeline = plan
        .dispatches
        .iter()
        .filter_map(|d| {
            let stem = d.stem();
            let r = records.iter().find(|r| r.stem == stem)?;
            Some(reports::timeline::DispatchSpan {
                arm: d.arm,
                started_ms: r.dispatch_started_unix_ms?,
                ended_ms: r.dispatch_ended_unix_ms,
            })
        })
        .collect();
    record.effort = record::dispatch_efforts(&plan.dispatches, &records);
}

/// Refuses (exit 10) to score a round holding an answer file its plan does not know (another
/// round's, copied in under the same naming scheme): it would be counted as an answer.
pub(crate) fn refuse_unplanned(out: &Path, entries: &[Entry]) -> Result<()> {
    let planned: std::collections::BTreeSet<&str> =
        entries.iter().map(|e| e.stem.as_str()).collect();
    let dir = record::dispatch_dir(out);
    let mut foreign: Vec<String> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        // A round no dispatch has written to yet has no folder, and no foreign answer.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir != out => return Ok(()),
        Err(e) => anyhow::bail!("reading {}: {e}", dir.display()),
    }
    .flatten()
    .map(|e| e.file_name().to_string_lossy().into_owned())
    .filter(|n| record::is_answer_file(n) && !planned.contains(n.trim_end_matches(".txt")))
    .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    foreign.sort();
    Err(Fail::new(
        Exit::ManifestMismatch,
        format!(
            "answer files in {} are not dispatches of the round's plan; the round is not scored:\n{}",
            dir.display(),
            foreign
                .iter()
                .map(|n| format!("  NOT PLANNED {}", clean_line(n, 120)))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )
    .into())
}

/// Refuses (exit 10) to score a round holding an answer that is not the one its dispatch wrote.
pub(crate) fn refuse_tampered(out: &Path, entries: &[Entry]) -> Result<()> {
    let bad: Vec<String> = entries
        .iter()
        .filter_map(|e| match journal::answer_state(out, &e.stem) {
            journal::AnswerState::Tampered(why) => Some(format!(
                "  TAMPERED {} ({} {} r{}): {why}",
                e.stem, e.qid, e.arm, e.rep
            )),
            _ => None,
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(Fail::new(
        Exit::ManifestMismatch,
        format!(
            "answers in {} are not the ones the harness wrote; the round is not scored:\n{}",
            out.display(),
            bad.join("\n")
        ),
    )
    .into())
}

/// What a finished round prints besides its files: the brief always, as its last lines.
#[derive(Debug, Clone, Copy, Default)]
pub struct Show {
    /// The full report tables before the brief (`run --verbose`, `collect --verbose`).
    pub verbose: bool,
    /// The brief as one JSON document instead of text (`--format json`); every other line of
    /// the round then goes to stderr.
    pub json: bool,
    /// Nothing printed (a `report` finishing an interrupted re-derivation before it renders).
    pub silent: bool,
}

impl Show {
    /// A line for people: stdout, or stderr when stdout carries the JSON document.
    pub fn say(&self, line: &str) {
        if self.silent {
            return;
        }
        if self.json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
}

/// Dispatches whose record lists at least one infrastructure retry (main's `--retries` records
/// them per dispatch); `None` unless every record could be read (a count over some records
/// could say 0 while an unread one retried).
fn retried_dispatches(out: &Path, plan: &[journal::Dispatch]) -> Option<usize> {
    let stems: Vec<String> = plan.iter().map(|d| d.stem()).collect();
    let records = record::dispatch_records(out, stems.iter().map(String::as_str));
    (records.len() == plan.len()).then(|| records.iter().filter(|r| !r.retries.is_empty()).count())
}

/// Scores a finished round, writes its reports and, last, `ROUND_DONE`. Returns the exit.
/// The terminal gets the brief as its last lines; the tables are in the files (and with
/// `verbose` before the brief).
pub fn finish(plan: &Plan, qset: &Qset, record: &mut RoundRecord, show: Show) -> Result<Exit> {
    let out = plan.out.as_path();
    let plan = plan.dispatches.as_slice();
    let entries: Vec<Entry> = plan
        .iter()
        .map(|d| Entry {
            stem: d.stem(),
            label: d.label.as_str().to_string(),
            qid: d.qid.clone(),
            arm: d.arm,
            rep: d.rep,
        })
        .collect();
    refuse_unplanned(out, &entries)?;
    refuse_tampered(out, &entries)?;
    let mut rows = score_entries(out, qset, &entries)?;
    let reused = reusable(out, record, qset, &entries)?;
    // Everything is checked; from here the round's derived files are rewritten as a set. The
    // marker says so until `ROUND_DONE` is written again: a crash in between leaves no
    // `ROUND_DONE` (the round reads as not finished) and a marker the next command finishes.
    // (A round's first derivation needs no marker: without ROUND_DONE it is not finished, and
    // `report` sends the user to resume, which derives it.)
    if !journal::rederive_pending(out) && out.join("ROUND_DONE").exists() {
        journal::mark_rederiving(out, "collect")?;
    }
    journal::fault_point("rederive:marked");
    if !reused.is_empty() {
        crate::reading::review::append(out, &reused)?;
        rows = score_entries(out, qset, &entries)?;
        let here: Vec<&crate::reading::review::Decision> = reused
            .iter()
            .filter(|d| d.same_answer_as.is_some())
            .collect();
        let earlier = reused.len() - here.len();
        if !here.is_empty() {
            show.say(&format!(
                "{} row{} settled by a person's decision on the same answer bytes in this round (marked `person ({})`): {}",
                here.len(),
                if here.len() == 1 { "" } else { "s" },
                reports::reading::REUSED_HERE,
                here.iter()
                    .map(|d| format!(
                        "{}_r{} as {}",
                        d.label,
                        d.rep,
                        d.same_answer_as.as_deref().unwrap_or_default()
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if earlier > 0 {
            show.say(&format!(
                "{earlier} row{} settled by a person's decision reused from an earlier round of this qset on the same answer bytes (marked `person (reused from ROUND)`)",
                if earlier == 1 { "" } else { "s" }
            ));
        }
    }
    match std::fs::remove_file(out.join("ROUND_DONE")) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    journal::fault_point("rederive:unmarked-done");
    let counts = record::count_dispatches(out, plan.len());
    // A round derived again (a review, a judge pass) keeps the time its dispatches ended.
    let was_complete = record.status == RoundStatus::Done
        && record.finished.is_some()
        && record.counts == counts
        && counts.answered == counts.planned
        && counts.failed == 0;
    if !was_complete {
        record.finished = Some(chrono::Utc::now().to_rfc3339());
    }
    record.counts = counts;
    record.status = RoundStatus::Done;
    record::save_round(out, record)?;
    journal::fault_point("rederive:round.json");

    let counts = record.counts.clone();
    let complete = counts.answered == counts.planned && counts.failed == 0;
    let meta = with_reviewers(meta_of(record, qset), out, &rows)?;
    let report = Report::new(meta, rows);
    let (verdict_line, exit) = if complete {
        let text = write_reports(out, &report, qset)?;
        if show.verbose && !show.json {
            print!("{text}");
            println!("isolation: {}", record.isolation);
            if !record.checkout.is_empty() {
                println!("checkout: {}", record.checkout);
            }
        }
        let v = report.summary.verdict;
        (report.summary.verdict_display(), exit_of_verdict(v))
    } else {
        journal::write_atomic(
            &out.join(reports::csv::Csv.file_name()),
            reports::csv::Csv.render(&report).as_bytes(),
        )?;
        let say = |line: String| show.say(&line);
        say(format!(
            "ROUND INCOMPLETE: {} of {} dispatches answered, {} failed; no verdict is claimed.",
            counts.answered, counts.planned, counts.failed
        ));
        for d in plan {
            let err = record::dispatch_file(out, &d.stem(), "err");
            if let Ok(reason) = std::fs::read_to_string(&err) {
                say(format!(
                    "  {} {} {} r{}: {}",
                    d.stem(),
                    d.qid,
                    d.arm,
                    d.rep,
                    clean_line(reason.trim(), 200)
                ));
            }
        }
        ("none (round incomplete)".to_string(), Exit::Incomplete)
    };
    crate::round::usage::report(out, plan, !show.json && !show.silent)?;
    write_round_done(out, record, &report, complete, &verdict_line)?;
    journal::fault_point("rederive:ROUND_DONE");
    match std::fs::remove_file(journal::rederive_marker(out)) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    if show.silent {
        return Ok(exit);
    }
    let facts = reports::brief::RunFacts {
        planned: counts.planned,
        answered: counts.answered,
        failed: counts.failed,
        retried: retried_dispatches(out, plan),
        cost: crate::round::usage::cost_text(out, plan),
        out_dir: crate::outdir::shown(out),
    };
    if show.json {
        let v = reports::brief::json(&report, &facts, exit.code());
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!();
        print!(
            "{}",
            reports::brief::render(&report, &facts, crate::color::stdout())
        );
    }
    Ok(exit)
}

/// `ROUND_DONE`: written last; says what it guarantees.
pub fn write_round_done(
    out: &Path,
    record: &RoundRecord,
    report: &Report,
    complete: bool,
    verdict: &str,
) -> Result<()> {
    let c = &record.counts;
    let mut text = String::new();
    text.push_str("round: finished (every dispatch ended and every answer was scored)\n");
    text.push_str(&format!(
        "complete: {} (answers == rows and dispatch_errors == 0)\n",
        if complete { "yes" } else { "NO" }
    ));
    text.push_str(&format!("answers: {}\n", c.answered));
    text.push_str(&format!("rows: {}\n", c.planned));
    text.push_str(&format!("dispatch_errors: {}\n", c.failed));
    text.push_str(&format!("verdict: {verdict}\n"));
    text.push_str(&format!(
        "claimed: {}\n",
        if complete && report.summary.verdict_claimed {
            "yes"
        } else {
            "no"
        }
    ));
    if complete {
        if let Some(w) = &report.summary.watermark {
            text.push_str(&format!("watermark: {w}\n"));
        }
    }
    text.push_str(&format!("manifest: {}\n", record.manifest.status));
    if record.manifest.status == record::JUDGE_CHANGED {
        text.push_str(&format!("{}\n", reports::JUDGE_DIFFERS));
    } else {
        text.push_str(&format!(
            "design: {}\n",
            design_word(record.manifest.status == "match" && record.manifest.design_sealed)
        ));
    }
    text.push_str(&format!(
        "seal: {}\n",
        record
            .seal_name
            .as_deref()
            .map(|s| clean_line(s, 120))
            .unwrap_or_else(|| "none (CTRL only)".into())
    ));
    text.push_str(&format!(
        "qset: {}\n",
        clean_line(&report.meta.qset_name, 120)
    ));
    text.push_str(&format!("reps: {}\n", record.reps));
    text.push_str(&format!("arms: {}\n", record.arms));
    text.push_str(&format!("isolation: {}\n", record.isolation));
    if !record.checkout.is_empty() {
        text.push_str(&format!("checkout: {}\n", record.checkout));
    }
    text.push_str(&format!(
        "scorer_fingerprint: {}\n",
        record.scorer_fingerprint
    ));
    journal::write_atomic(&out.join("ROUND_DONE"), text.as_bytes())
}

/// Which kind a qid has (for legacy names).
pub fn kind_of(qset: &Qset, qid: &str) -> Option<Kind> {
    qset.questions.iter().find(|q| q.qid == qid).map(|q| q.kind)
}

/// ROUND_DONE's `design:` word: whether the manifest sealed the round's design.
fn design_word(sealed: bool) -> &'static str {
    if sealed {
        "sealed"
    } else {
        "design not sealed"
    }
}
