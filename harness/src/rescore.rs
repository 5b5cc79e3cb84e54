//! `harness rescore OUT`: the answers already in a round, scored again with today's scorer. No
//! agent runs and no gate runs: re-running would give other answers, and the effect of a rule
//! change would mix with the arms' nondeterminism. Same files, new rule: one variable moves.

use crate::exit::{Exit, Fail};
use crate::journal::{labelmap_path, read_labelmap};
use crate::record::{self, RoundRecord};
use crate::round::collect::{self as finish, Entry};
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
                        "the recorded qset {} cannot be read ({e}); pass --qset",
                        p.display()
                    ),
                )
            })?;
            (b, p.display().to_string())
        }
        (None, None, _) => {
            return Err(Fail::new(
                Exit::Usage,
                "no round.json in the out-dir: pass --qset (a seed-style round)",
            )
            .into())
        }
    };
    if let Some(rec) = recorded {
        let now = crate::manifest::sha256_hex(&bytes);
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

/// The answers of a round: from the labelmap, or from the seed's legacy names.
pub fn entries_of(out: &Path, qset: &Qset, reps: Option<u32>) -> Result<Vec<Entry>> {
    let lm = labelmap_path(out);
    let mut entries = Vec::new();
    if lm.is_file() {
        let map = read_labelmap(&lm)?;
        let by_label: BTreeMap<String, (String, Arm)> = map
            .iter()
            .map(|((q, a), l)| (l.as_str().to_string(), (q.clone(), *a)))
            .collect();
        let mut seen_labels = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(out)?.flatten() {
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
            seen_labels.insert(label.to_string());
            entries.push(Entry {
                stem: stem.into(),
                label: label.into(),
                qid: qid.clone(),
                arm: *arm,
                rep: rep.parse().unwrap_or(0),
            });
        }
        let _ = reps;
    } else {
        // The seed's rounds: `<qid>_<ARM|CTRL>_r<n>.txt`, no labelmap.
        for e in std::fs::read_dir(out)?.flatten() {
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
    }
    entries.sort_by(|a, b| (&a.qid, a.arm, a.rep).cmp(&(&b.qid, b.arm, b.rep)));
    if entries.is_empty() {
        return Err(Fail::new(
            Exit::Unmeasured,
            format!("UNMEASURED: no answer files in {}", out.display()),
        )
        .into());
    }
    Ok(entries)
}

/// Runs `harness rescore`.
pub fn rescore(opts: &RescoreOptions) -> Result<Exit> {
    let out = &opts.out;
    if !out.is_dir() {
        return Err(Fail::new(
            Exit::Usage,
            format!("{} is not a round's out-dir", out.display()),
        )
        .into());
    }
    let record = if out.join("round.json").is_file() {
        Some(record::load_round(out)?)
    } else {
        None
    };
    let record_present = record.is_some();
    let (qset, shown) = qset_for(record.as_ref(), opts)?;
    let entries = entries_of(out, &qset, record.as_ref().map(|r| r.reps))?;
    let rows = finish::score_entries(out, &qset, &entries)?;

    let old: BTreeMap<(String, Arm, u32), String> =
        match std::fs::read_to_string(out.join("verdicts.csv")) {
            Ok(text) => reports::csv::read_rows(&text, "verdicts.csv")
                .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?
                .into_iter()
                .map(|r| ((r.qid, r.arm, r.rep), r.verdict.to_string()))
                .collect(),
            Err(_) => BTreeMap::new(),
        };

    let mut rec = match record {
        Some(r) => r,
        None => legacy_record(&shown, &entries),
    };
    let old_fp = rec.scorer_fingerprint.clone();
    rec.scorer_fingerprint = scorer::fingerprint();
    rec.lexicon_version = scorer::LEXICON_VERSION.into();
    // The manifest sealed the round's scorer; a rescore with another one is no longer that
    // pre-registration, so its report must not say "match".
    if old_fp != rec.scorer_fingerprint && rec.manifest.status == "match" {
        rec.manifest.status = "UNVERIFIED".into();
        println!(
            "manifest: UNVERIFIED for this rescore (the sealed scorer was {}; this one differs)",
            old_fp.get(..12).unwrap_or(&old_fp)
        );
    }
    let meta = finish::meta_of(&rec, &qset);
    let report = Report::new(meta, rows);

    let dir = out.join(format!(
        "rescore-{}",
        chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ")
    ));
    std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let text = finish::write_reports(&dir, &report, &qset)?;
    print!("{text}");

    let mut moved = Vec::new();
    for r in &report.rows {
        let now = r.verdict.to_string();
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
    summary.push_str(&format!(
        "scorer then: {old_fp}\nscorer now:  {}\n",
        scorer::fingerprint()
    ));
    if old.is_empty() {
        summary.push_str("no verdicts.csv in the out-dir: nothing to compare; every row is new\n");
    } else {
        summary.push_str(&format!("rows moved: {}\n", moved.len()));
        for m in &moved {
            summary.push_str(&format!("  {}\n", clean_line(m, 200)));
        }
    }
    crate::manifest::write_atomic(&dir.join("moved.txt"), summary.as_bytes(), false)?;
    println!();
    print!("{summary}");
    println!(
        "rescore written to {} (the original files are untouched)",
        dir.display()
    );
    match completion(out, record_present) {
        Completion::Complete => Ok(finish::exit_of_verdict(report.summary.verdict)),
        Completion::Unknown => {
            println!("completeness UNVERIFIED: a seed-style round without a completion marker; the verdict above assumes every answer is here");
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
        harness_version: "unknown (seed-style round)".into(),
        scorer_fingerprint: "unknown (seed-style round)".into(),
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
        },
        base: record::BaseRecord {
            repo: String::new(),
            sha: String::new(),
            reference: None,
            dirty: false,
        },
        agent: "unknown".into(),
        agent_command: Vec::new(),
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
        isolation: "unknown (seed-style round)".into(),
        started: String::new(),
        finished: None,
        status: record::RoundStatus::Done,
        counts: Default::default(),
    }
}

/// `harness report OUT`: re-renders a finished round from its files.
pub fn report(out: &Path, format: &str) -> Result<Exit> {
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).map_err(|_| {
        Fail::new(
            Exit::Incomplete,
            format!(
                "{} has no ROUND_DONE: the round did not finish; no report",
                out.display()
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
    let text = std::fs::read_to_string(out.join("summary.json"))
        .with_context(|| format!("reading {}/summary.json", out.display()))?;
    let report = Report::from_json(&text, "summary.json")
        .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    use reports::Render;
    let rendered = match format {
        "table" => finish::terminal().render(&report),
        "csv" => reports::csv::Csv.render(&report),
        "json" => reports::json::Json.render(&report),
        "md" => reports::markdown::Markdown.render(&report),
        "html" => reports::html::Html.render(&report),
        other => return Err(Fail::new(Exit::Usage, format!("unknown format {other}")).into()),
    };
    print!("{rendered}");
    Ok(finish::exit_of_verdict(report.summary.verdict))
}
