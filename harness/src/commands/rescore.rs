//! `harness rescore OUT`: the answers already in a round, scored again with today's scorer. No
//! agent runs and no gate runs: re-running would give other answers, and the effect of a rule
//! change would mix with the arms' nondeterminism. Same files, new rule: one variable moves.

use crate::exit::{Exit, Fail};
use crate::round::collect::{self as finish, Entry};
use crate::round::journal::{self, labelmap_path, read_labelmap, AnswerState};
use crate::round::record::{self, RoundRecord};
use crate::text::clean_line;
use anyhow::{Context, Result};
use reports::Report;
use scorer::{Arm, Qset};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Options of `harness rescore`.
#[derive(Debug, Clone)]
pub struct RescoreOptions {
    /// The round's out-dir.
    pub out: PathBuf,
    /// A qset to use instead of the recorded one.
    pub qset: Option<PathBuf>,
    /// Accept a qset whose hash differs from the record.
    pub accept_qset_change: bool,
    /// `--judge`: after re-scoring, every answer is read by this judge (the pass of
    /// `harness rejudge`), `judge_jobs` calls at once.
    pub judge: Option<crate::reading::judge::Judge>,
    /// `--judge-jobs`.
    pub judge_jobs: usize,
    /// `--accept-change judge`: a judge other than the sealed one reads, and the rescore's
    /// reports say the design differs.
    pub accept_judge_change: bool,
}

impl RescoreOptions {
    /// The options that only read a round as it was recorded: its own qset, no judge.
    fn as_recorded(out: &Path) -> RescoreOptions {
        RescoreOptions {
            out: out.to_path_buf(),
            qset: None,
            accept_qset_change: false,
            judge: None,
            judge_jobs: 1,
            accept_judge_change: false,
        }
    }
}

/// Finds the qset: `--qset`, else the recorded path, else the embedded demo's; its hash must be
/// the recorded one unless the user accepts the change.
fn qset_for(record: Option<&RoundRecord>, opts: &RescoreOptions) -> Result<(Qset, String)> {
    let recorded = record.and_then(|r| r.input("qset"));
    let (bytes, shown) = match (&opts.qset, recorded, record.and_then(|r| r.demo.as_ref())) {
        (Some(p), _, _) => (
            std::fs::read(p).with_context(|| format!("reading {}", p.display()))?,
            p.display().to_string(),
        ),
        (None, Some(_), Some(_)) => (
            crate::demo::demo()?.qset.to_vec(),
            "the embedded demo qset".to_string(),
        ),
        (None, Some(rec), None) => {
            let p = PathBuf::from(&rec.path);
            let b = std::fs::read(&p).map_err(|e| {
                Fail::new(
                    Exit::Usage,
                    format!(
                        "the recorded qset {} cannot be read ({e}){}; pass --qset",
                        p.display(),
                        if p.is_relative() {
                            " (a round made before paths were recorded resolved keeps the path as typed, relative to where it was started)"
                        } else {
                            ""
                        }
                    ),
                )
            })?;
            (b, p.display().to_string())
        }
        (None, None, _) => {
            return Err(Fail::new(
                Exit::Usage,
                "no round.json in the out-dir: pass --qset (a round recorded without one: answer files only)",
            )
            .into())
        }
    };
    if let Some(rec) = recorded {
        let now = crate::gates::manifest::sha256_hex(&bytes);
        if now != rec.sha256 && !opts.accept_qset_change {
            return Err(Fail::new(
                Exit::ManifestMismatch,
                format!("qset {shown} (sha256 {}) is not the one the round ran with ({}); pass --accept-qset-change to score with it anyway", &now[..12], rec.sha256.get(..12).unwrap_or("")),
            )
            .into());
        }
    }
    let qset =
        scorer::qset::parse(&bytes, &shown).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    Ok((qset, shown))
}

/// The answers of a round and what could not be trusted among them.
pub struct Answers {
    /// One entry per answer to score.
    pub entries: Vec<Entry>,
    /// `stem (qid arm rep): why` for every answer that is not the one the harness wrote.
    pub tampered: Vec<String>,
    /// The answers could not be checked (a round from before answer hashes).
    pub unverified: bool,
}

/// The answers of a round: from its journal (each checked against its dispatch record's
/// hash), or from a labelmap beside it (rounds before the journal), or from the seed's names.
pub fn entries_of(out: &Path, qset: &Qset) -> Result<Answers> {
    let mut answers = if journal::plan_path(out).is_file() {
        journal_entries(out)?
    } else if labelmap_path(out).is_file() {
        Answers {
            entries: labelmap_entries(out)?,
            tampered: Vec::new(),
            unverified: true,
        }
    } else {
        Answers {
            entries: seed_entries(out, qset)?,
            tampered: Vec::new(),
            unverified: true,
        }
    };
    answers
        .entries
        .sort_by(|a, b| (&a.qid, a.arm, a.rep).cmp(&(&b.qid, b.arm, b.rep)));
    if answers.entries.is_empty() && answers.tampered.is_empty() {
        return Err(Fail::new(
            Exit::Unmeasured,
            format!("UNMEASURED: no answer files in {}", out.display()),
        )
        .into());
    }
    Ok(answers)
}

/// The entries of the round's dispatch folder ([`record::dispatch_dir`]): none when it does
/// not exist (a round no dispatch has written to yet).
fn read_dispatch_dir(out: &Path) -> Result<Vec<std::fs::DirEntry>> {
    let dir = record::dispatch_dir(out);
    match std::fs::read_dir(&dir) {
        Ok(rd) => Ok(rd.flatten().collect()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir != out => Ok(Vec::new()),
        Err(e) => Err(anyhow::Error::new(e).context(format!("reading {}", dir.display()))),
    }
}

/// From the journal: every planned dispatch whose answer is kept; an answer file the plan does
/// not know is an error, an answer that is not the recorded one is tampered.
fn journal_entries(out: &Path) -> Result<Answers> {
    let plan = journal::load_plan(out)?;
    let stems: std::collections::BTreeSet<String> =
        plan.dispatches.iter().map(|d| d.stem()).collect();
    for e in read_dispatch_dir(out)? {
        let name = e.file_name().to_string_lossy().into_owned();
        if record::is_answer_file(&name) && !stems.contains(name.trim_end_matches(".txt")) {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "{}: answer {name} is not a dispatch of the round's plan",
                    journal::plan_path(out).display()
                ),
            )
            .into());
        }
    }
    let mut entries = Vec::new();
    let mut tampered = Vec::new();
    for d in &plan.dispatches {
        let entry = Entry {
            stem: d.stem(),
            label: d.label.as_str().to_string(),
            qid: d.qid.clone(),
            arm: d.arm,
            rep: d.rep,
        };
        match journal::answer_state(out, &entry.stem) {
            AnswerState::Kept => entries.push(entry),
            AnswerState::Missing => {}
            AnswerState::Tampered(why) => tampered.push(format!(
                "{} ({} {} r{}): {why}",
                entry.stem, entry.qid, entry.arm, entry.rep
            )),
        }
    }
    Ok(Answers {
        entries,
        tampered,
        unverified: false,
    })
}

/// From a labelmap beside the out-dir (rounds before the journal).
fn labelmap_entries(out: &Path) -> Result<Vec<Entry>> {
    let lm = labelmap_path(out);
    let map = read_labelmap(&lm)?;
    let by_label: BTreeMap<String, (String, Arm)> = map
        .iter()
        .map(|((q, a), l)| (l.as_str().to_string(), (q.clone(), *a)))
        .collect();
    let mut entries = Vec::new();
    for e in read_dispatch_dir(out)? {
        let name = e.file_name().to_string_lossy().into_owned();
        if !record::is_answer_file(&name) {
            continue;
        }
        let stem = name.trim_end_matches(".txt");
        let (label, rep) = stem.rsplit_once("_r").expect("answer names have _r");
        let Some((qid, arm)) = by_label.get(label) else {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "{}: answer {name} has no entry in the labelmap",
                    lm.display()
                ),
            )
            .into());
        };
        entries.push(Entry {
            stem: stem.into(),
            label: label.into(),
            qid: qid.clone(),
            arm: *arm,
            rep: rep.parse().unwrap_or(0),
        });
    }
    Ok(entries)
}

/// The seed's rounds: `<qid>_<ARM|CTRL>_r<n>.txt`, no labelmap.
fn seed_entries(out: &Path, qset: &Qset) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for e in read_dispatch_dir(out)? {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".txt") else {
            continue;
        };
        let Some((head, rep)) = stem.rsplit_once("_r") else {
            continue;
        };
        if rep.is_empty() || !rep.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Some((qid, arm)) = head.rsplit_once('_') else {
            continue;
        };
        let Ok(arm) = arm.parse::<Arm>() else {
            continue;
        };
        if qset.questions.iter().all(|q| q.qid != qid) {
            continue;
        }
        entries.push(Entry {
            stem: stem.into(),
            label: head.into(),
            qid: qid.into(),
            arm,
            rep: rep.parse().unwrap_or(0),
        });
    }
    Ok(entries)
}

/// Refuses (exit 10) when any answer is not the one the harness wrote, naming each.
fn refuse_tampered(out: &Path, tampered: &[String], what: &str) -> Result<()> {
    if tampered.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = tampered
        .iter()
        .map(|t| format!("  TAMPERED {}", clean_line(t, 200)))
        .collect();
    Err(Fail::new(
        Exit::ManifestMismatch,
        format!(
            "{}: {} answer(s) are not the ones the harness wrote (their sha256 differs from the dispatch records); no {what} is made from them:\n{}",
            out.display(),
            tampered.len(),
            lines.join("\n")
        ),
    )
    .into())
}

/// The out-dir of a round, locked for this command (one writer at a time).
fn lock_out_dir(out: &Path) -> Result<(Option<journal::UnitsLock>, journal::Lock)> {
    require_out_dir(out)?;
    // A planned round is rescored only once none of its units runs: an answer landing midway
    // would be in one reading of the round and not in the other.
    let units = if journal::plan_path(out).is_file() {
        Some(journal::no_unit_runs(out, "rescore")?)
    } else {
        None
    };
    Ok((units, journal::Lock::acquire(out)?))
}

/// Refuses (usage) a path that is not a directory, before anything reads or writes in it;
/// said plainly, with where out-dirs come from.
fn require_out_dir(out: &Path) -> Result<()> {
    let why = match std::fs::metadata(out) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => "is not a folder",
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist",
        Err(_) => "cannot be read",
    };
    Err(Fail::new(
        Exit::Usage,
        format!(
            "{} {why}; give the out-dir of a round (the `files:` line `harness run` printed)",
            out.display()
        ),
    )
    .into())
}

/// The round's record, when the out-dir has one (the seed's rounds do not).
fn round_record(out: &Path) -> Result<Option<RoundRecord>> {
    if out.join("round.json").is_file() {
        Ok(Some(record::load_round(out)?))
    } else {
        Ok(None)
    }
}

/// A finished round's answers scored with this process's reading, with the qset they answer
/// (the recorded one). For `harness lexicon suggest`: writes nothing (so takes no lock), refuses
/// tampered answers.
pub fn scored_rows(out: &Path) -> Result<(Qset, Vec<reports::Row>)> {
    let (qset, _, entries) = round_answers(out)?;
    let rows = finish::score_entries(out, &qset, &entries)?;
    Ok((qset, rows))
}

/// A finished round's recorded qset, its record (when it has one) and its answers, tampered
/// answers refused. Reads only.
pub fn round_answers(out: &Path) -> Result<(Qset, Option<RoundRecord>, Vec<Entry>)> {
    require_out_dir(out)?;
    let record = round_record(out)?;
    let opts = RescoreOptions::as_recorded(out);
    let (qset, _) = qset_for(record.as_ref(), &opts)?;
    let answers = entries_of(out, &qset)?;
    refuse_tampered(out, &answers.tampered, "suggestion")?;
    Ok((qset, record, answers.entries))
}

/// Runs `harness rescore`.
pub fn rescore(opts: &RescoreOptions) -> Result<Exit> {
    let out = &opts.out;
    let _lock = lock_out_dir(out)?;
    let record = round_record(out)?;
    // A judge other than the sealed one is refused before anything is read or written.
    let against = match (&opts.judge, &record) {
        (Some(j), Some(r)) => {
            crate::reading::sealed::check(r, j, opts.accept_judge_change, "rescore --judge")?
        }
        _ => crate::reading::sealed::Against::NotSealed,
    };
    let record_present = record.is_some();
    let (qset, shown) = qset_for(record.as_ref(), opts)?;
    let answers = entries_of(out, &qset)?;
    refuse_tampered(out, &answers.tampered, "rescore")?;
    if answers.unverified {
        println!("answers UNVERIFIED: a round from before answer hashes; an edited answer cannot be told from the agent's");
    }
    let entries = answers.entries;
    // Without --judge the round's readings that still apply (same answer bytes, same rubric)
    // are kept; with it the answers are read again, into the rescore's own folder.
    let earlier = crate::reading::judge::load(out)?;
    let mut no_reading = None;
    let (judged, pass_info) = match &opts.judge {
        Some(j) => {
            let j = j
                .clone()
                .for_round(record.as_ref(), &std::path::absolute(out)?)
                .map_err(|e| Fail::new(Exit::GateRefused, format!("{e:#}")))?;
            let pass = crate::commands::rejudge::read_round(
                out,
                &qset,
                &entries,
                earlier,
                &j,
                opts.judge_jobs,
            )?;
            pass.refuse_if_read_nothing("no rescore folder was written")?;
            no_reading = pass.no_reading_line();
            (pass.records, Some(pass.info))
        }
        None => (earlier, None),
    };
    let rows = finish::score_entries_with(out, &qset, &entries, &judged)?;

    let old: BTreeMap<(String, Arm, u32), String> =
        match std::fs::read_to_string(out.join("verdicts.csv")) {
            Ok(text) => reports::csv::read_rows(&text, "verdicts.csv")
                .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?
                .into_iter()
                .map(|r| {
                    let shown = reports::reading::shown(&r);
                    ((r.qid, r.arm, r.rep), shown)
                })
                .collect(),
            Err(_) => BTreeMap::new(),
        };

    let mut rec = match record {
        Some(r) => r,
        None => legacy_record(&shown, &entries),
    };
    let old_fp = rec.scorer_fingerprint.clone();
    rec.scorer_fingerprint = crate::reading::active().fingerprint();
    rec.lexicon_version = crate::reading::active().version();
    // The manifest sealed the round's scorer; a rescore with another one is no longer that
    // pre-registration, so its report must not say "match".
    if old_fp != rec.scorer_fingerprint && rec.manifest.status == "match" {
        rec.manifest.status = "UNVERIFIED".into();
        println!(
            "manifest: UNVERIFIED for this rescore (the sealed scorer was {}; this one differs)",
            old_fp.get(..12).unwrap_or(&old_fp)
        );
    }
    if let Some(info) = &pass_info {
        rec.judge = Some(info.clone());
    }
    crate::reading::sealed::mark(&mut rec, &against);
    if let crate::reading::sealed::Against::Changed(what) = &against {
        println!("{} ({what})", reports::JUDGE_DIFFERS);
    }
    let meta = finish::with_reviewers(finish::meta_of(&rec, &qset), out, &rows)?;
    let report = Report::new(meta, rows);

    let dir = out.join(format!(
        "rescore-{}",
        chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ")
    ));
    std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
    if let Some(info) = &pass_info {
        // The round's own judge.jsonl stays as it was: this pass belongs to the rescore.
        crate::reading::judge::store(&dir, &judged)?;
        println!(
            "{} of {} answers read by the judge ({} no reading), recorded in {}",
            info.totals.read,
            info.totals.calls,
            info.totals.no_reading,
            dir.join(crate::reading::judge::FILE).display()
        );
        if let Some(line) = &no_reading {
            println!("{line}; see {}", crate::reading::judge::FILE);
        }
        println!(
            "judge: {} · {}",
            clean_line(&info.spec, 60),
            info.totals.line()
        );
    }
    // The full tables go to the files (and `harness report`); the terminal gets what moved.
    finish::write_reports(&dir, &report, &qset)?;

    let mut moved = Vec::new();
    for r in &report.rows {
        // A row that became UNDETERMINED moved: its class is no longer decided.
        let now = reports::reading::shown(r);
        match old.get(&(r.qid.clone(), r.arm, r.rep)) {
            Some(before) if *before != now => {
                moved.push(format!("{} {} r{}: {before} → {now}", r.qid, r.arm, r.rep))
            }
            None if !old.is_empty() => moved.push(format!(
                "{} {} r{}: (not in verdicts.csv) → {now}",
                r.qid, r.arm, r.rep
            )),
            _ => {}
        }
    }
    let mut summary = String::new();
    let reading = crate::reading::active();
    summary.push_str(&format!(
        "scorer then: {old_fp}\nscorer now:  {} (lexicon {})\n",
        reading.fingerprint(),
        reading.version()
    ));
    if old.is_empty() {
        summary.push_str("no verdicts.csv in the out-dir: nothing to compare; every row is new\n");
    } else {
        summary.push_str(&format!("rows moved: {}\n", moved.len()));
        for m in &moved {
            summary.push_str(&format!("  {}\n", clean_line(m, 200)));
        }
    }
    crate::gates::manifest::write_atomic(&dir.join("moved.txt"), summary.as_bytes(), false)?;
    print!("{summary}");
    let s = &report.summary;
    println!(
        "{}Instrument verdict: {} (exit {})",
        s.watermark_prefix(),
        s.verdict_display(),
        s.verdict.exit_code()
    );
    println!(
        "rescore written to {} (the original files are untouched; full tables in its report.md and report.html)",
        dir.display()
    );
    match completion(out, record_present) {
        Completion::Complete => Ok(finish::exit_of_verdict(report.summary.verdict)),
        Completion::Unknown => {
            println!("completeness UNVERIFIED: a round of answer files only, without a completion marker; the verdict above assumes every answer is here");
            Ok(finish::exit_of_verdict(report.summary.verdict))
        }
        Completion::Incomplete(why) => {
            println!(
                "ROUND INCOMPLETE ({why}): the rows above are re-scored, but no verdict is claimed"
            );
            Ok(Exit::Incomplete)
        }
    }
}

/// Whether the round being re-scored finished: read from its marker only, never from a count.
enum Completion {
    Complete,
    Unknown,
    Incomplete(String),
}

fn completion(out: &Path, record_present: bool) -> Completion {
    for name in ["ROUND_DONE", "_ROUND_DONE"] {
        if let Ok(text) = std::fs::read_to_string(out.join(name)) {
            return if text.lines().any(|l| l.starts_with("complete: yes")) {
                Completion::Complete
            } else {
                Completion::Incomplete(format!("{name} does not say complete: yes"))
            };
        }
    }
    if record_present {
        Completion::Incomplete("round.json but no ROUND_DONE: the round never finished".into())
    } else {
        Completion::Unknown
    }
}

fn legacy_record(qset_shown: &str, entries: &[Entry]) -> RoundRecord {
    RoundRecord {
        format: record::ROUND_FORMAT.into(),
        harness_version: "unknown (a round of answer files only)".into(),
        scorer_fingerprint: "unknown (a round of answer files only)".into(),
        lexicon_version: String::new(),
        demo: None,
        inputs: vec![record::InputRecord {
            role: "qset".into(),
            path: qset_shown.into(),
            sha256: String::new(),
        }],
        seal_name: None,
        manifest: record::ManifestRecord {
            status: "UNVERIFIED".into(),
            path: None,
            checks: Vec::new(),
            design_sealed: false,
            sealed: None,
            judge_changed: None,
        },
        base: record::BaseRecord {
            repo: String::new(),
            sha: String::new(),
            reference: None,
            dirty: false,
        },
        agent: "unknown".into(),
        agent_command: Vec::new(),
        agent_notes: Vec::new(),
        agent_version: None,
        preflight: None,
        prompt_stdin: false,
        sandbox: "unknown".into(),
        model: None,
        reps: entries.iter().map(|e| e.rep).max().unwrap_or(0),
        arms: "both".into(),
        deliver: false,
        plant_path: String::new(),
        jobs: 0,
        timeout_secs: 0,
        retries: 0,
        pass_env: Vec::new(),
        env_names: Vec::new(),
        contamination_override: false,
        contaminated: false,
        gate: Vec::new(),
        isolation: "unknown (a round of answer files only)".into(),
        checkout: String::new(),
        phases: Vec::new(),
        started: String::new(),
        finished: None,
        status: record::RoundStatus::Done,
        counts: Default::default(),
        order_seed: None,
        accepted_changes: Vec::new(),
        ledger: reports::LEDGER_STRICT.into(),
        uncarried: Vec::new(),
        timeline: Vec::new(),
        effort: Vec::new(),
        judge: None,
        repo_agent_config: None,
        allow_repo_hooks: false,
    }
}

/// The report as a terminal may show it: tokens masked with the round's qset; when that qset
/// cannot be read, every excerpt is withheld rather than risk printing a token.
pub(crate) fn masked_for_terminal(out: &Path, report: &Report) -> Report {
    let record = record::load_round(out).ok();
    let opts = RescoreOptions::as_recorded(out);
    match qset_for(record.as_ref(), &opts) {
        Ok((qset, _)) => finish::masked_for_terminal(report, &qset),
        Err(_) => {
            let mut r = report.clone();
            for row in &mut r.rows {
                row.excerpt = "‹withheld: the round's qset is not readable to mask tokens›".into();
            }
            r
        }
    }
}

/// `harness report OUT`: renders a finished round, every row derived again from its answer
/// files and its record. `summary.json` is an output, never read as an input: an edited
/// summary changes nothing, an edited answer refuses the report (exit 10).
pub fn report(out: &Path, format: &str) -> Result<Exit> {
    require_out_dir(out)?;
    // A look at the round: it removes nothing (a running unit's in-flight write included)...
    let _lock = if journal::rederive_pending(out) {
        // ...unless a re-derivation of its reports was stopped midway: finished first, so the
        // report, summary.json and ROUND_DONE say the same again.
        let units = journal::no_unit_runs(out, "report")?;
        let lock = journal::Lock::acquire(out)?;
        let plan = journal::load_plan(out)?;
        crate::round::plan::activate_reading(&plan.options)?;
        eprintln!(
            "harness: the round's reports were being derived again when that stopped; finishing that first"
        );
        finish::rederive(
            out,
            finish::Show {
                silent: true,
                ..Default::default()
            },
            &units,
            &lock,
        )?;
        lock
    } else {
        journal::Lock::acquire(out)?
    };
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).map_err(|_| {
        Fail::new(
            Exit::Incomplete,
            format!(
                "{} has no ROUND_DONE: the round did not finish; no report (finish it with: {})",
                out.display(),
                crate::round::resume_command(out)
            ),
        )
    })?;
    if !done.lines().any(|l| l.starts_with("complete: yes")) {
        return Err(Fail::new(
            Exit::Incomplete,
            format!(
                "{}: ROUND_DONE says the round is incomplete; no verdict is claimed",
                out.display()
            ),
        )
        .into());
    }
    let report = derived_report(out)?;
    warn_if_summary_differs(out, &report);
    use reports::Render;
    let rendered = match format {
        "table" => finish::terminal().render(&masked_for_terminal(out, &report)),
        "csv" => reports::csv::Csv.render(&report),
        "json" => reports::json::Json.render(&report),
        "md" => reports::markdown::Markdown.render(&report),
        "html" => reports::html::Html.render(&report),
        other => return Err(Fail::new(Exit::Usage, format!("unknown format {other}")).into()),
    };
    print!("{rendered}");
    Ok(finish::exit_of_verdict(report.summary.verdict))
}

/// The report of a finished round from its answers and record, with the scorer it was scored
/// with (another scorer is `harness rescore`'s job): every planned answer present and the one
/// the harness wrote, or refused.
pub(crate) fn derived_report(out: &Path) -> Result<Report> {
    let record = record::load_round(out)?;
    if record.scorer_fingerprint != crate::reading::active().fingerprint() {
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "{} was scored by scorer {}; this harness carries {}: its report would not be the round's. harness rescore {} scores it again and lists the rows that move",
                out.display(),
                record.scorer_fingerprint.get(..12).unwrap_or(&record.scorer_fingerprint),
                crate::reading::active().fingerprint().get(..12).unwrap_or(""),
                out.display()
            ),
        )
        .into());
    }
    let (qset, _) = qset_for(
        Some(&record),
        &RescoreOptions {
            out: out.to_path_buf(),
            qset: None,
            accept_qset_change: false,
            judge: None,
            judge_jobs: 1,
            accept_judge_change: false,
        },
    )?;
    let answers = entries_of(out, &qset)?;
    refuse_tampered(out, &answers.tampered, "report")?;
    if answers.unverified {
        eprintln!("harness: answers UNVERIFIED: a round from before answer hashes");
    }
    if answers.entries.len() != record.counts.planned {
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "TAMPERED: {} holds {} answers the harness wrote; its round planned and recorded {}. No report",
                out.display(),
                answers.entries.len(),
                record.counts.planned
            ),
        )
        .into());
    }
    let rows = finish::score_entries(out, &qset, &answers.entries)?;
    let meta = finish::with_reviewers(finish::meta_of(&record, &qset), out, &rows)?;
    Ok(Report::new(meta, rows))
}

/// A `summary.json` that is not what the answers give was changed after the round: said on
/// stderr (the report printed is the derived one).
fn warn_if_summary_differs(out: &Path, report: &Report) {
    use reports::Render;
    if let Ok(text) = std::fs::read_to_string(out.join("summary.json")) {
        if text != reports::json::Json.render(report) {
            eprintln!(
                "harness: note: {}/summary.json is not what the round's answers give (changed after the round?); this report is derived from the answers, not from it",
                out.display()
            );
        }
    }
}
