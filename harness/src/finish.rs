//! After every dispatch has ended: score every answer, render the report, and write the
//! completion marker last (DESIGN §7.7). "Done" is read from `ROUND_DONE` only, never from a
//! file count.

use crate::exit::Exit;
use crate::record::{self, RoundRecord, RoundStatus};
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
    let reading = crate::reading::active();
    let mut rows = Vec::new();
    for e in entries {
        let Some(q) = qset.questions.iter().find(|q| q.qid == e.qid) else {
            anyhow::bail!(
                "answer {} names question {} which the qset does not have",
                e.stem,
                e.qid
            );
        };
        let path = out.join(format!("{}.txt", e.stem));
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
        rows.push(Row {
            qid: e.qid.clone(),
            kind: q.kind,
            arm: e.arm,
            rep: e.rep,
            verdict: ev.verdict,
            clarify: ev.clarify,
            label: e.label.clone(),
            excerpt: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    Ok(rows)
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
        manifest: if record.manifest.status == "match" {
            ManifestStatus::Match
        } else {
            ManifestStatus::Unverified
        },
        contaminated: record.contaminated,
        isolation: record.isolation.clone(),
        base_sha: record.base.sha.clone(),
        started: record.started.clone(),
        finished: record.finished.clone().unwrap_or_default(),
    }
}

/// The exit code of an instrument verdict (one table: [`Exit`]).
pub fn exit_of_verdict(v: InstrumentVerdict) -> Exit {
    match v {
        InstrumentVerdict::Void => Exit::Void,
        InstrumentVerdict::InstrumentIncomplete => Exit::InstrumentIncomplete,
        InstrumentVerdict::CarrierUnread => Exit::CarrierUnread,
        InstrumentVerdict::Finding | InstrumentVerdict::Ok => Exit::Ok,
    }
}

/// The report as the terminal shows it: every qset token and true value in the answer
/// excerpts replaced by `‹token›`. The out-dir's files keep the answers whole (they are the
/// answers); stdout becomes logs, and logs must never carry a token back into a repository.
pub fn masked_for_terminal(report: &Report, qset: &Qset) -> Report {
    let mut needles: Vec<&str> = qset.questions.iter().map(|q| q.token.as_str()).collect();
    needles.extend(qset.questions.iter().filter_map(|q| q.general.as_deref()));
    let masker = crate::gate::Masker::new(&needles);
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
        crate::manifest::write_atomic(&dir.join(r.file_name()), r.render(report).as_bytes(), true)?;
    }
    Ok(terminal().render(&masked_for_terminal(report, qset)))
}

/// The terminal renderer for this process: colour only on a terminal without `NO_COLOR`.
pub fn terminal() -> reports::terminal::Terminal {
    use std::io::IsTerminal;
    let tty = std::io::stdout().is_terminal();
    let color = tty && std::env::var_os("NO_COLOR").is_none();
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(120);
    reports::terminal::Terminal { color, width }
}

/// Scores a finished round, writes its reports and, last, `ROUND_DONE`. Returns the exit.
pub fn finish_round(
    out: &Path,
    qset: &Qset,
    plan: &[crate::round::Dispatch],
    record: &mut RoundRecord,
) -> Result<Exit> {
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
    let rows = score_entries(out, qset, &entries)?;
    record.finished = Some(chrono::Utc::now().to_rfc3339());
    record.counts = record::count_dispatches(out, plan);
    record.status = RoundStatus::Done;
    record::save_round(out, record)?;

    let counts = record.counts.clone();
    let complete = counts.answered == counts.planned && counts.failed == 0;
    let meta = meta_of(record, qset);
    let report = Report::new(meta, rows);
    let (verdict_line, exit) = if complete {
        let text = write_reports(out, &report, qset)?;
        print!("{text}");
        let v = report.summary.verdict;
        (report.summary.verdict_display(), exit_of_verdict(v))
    } else {
        crate::manifest::write_atomic(
            &out.join(reports::csv::Csv.file_name()),
            reports::csv::Csv.render(&report).as_bytes(),
            true,
        )?;
        println!(
            "ROUND INCOMPLETE: {} of {} dispatches answered, {} failed; no verdict is claimed.",
            counts.answered, counts.planned, counts.failed
        );
        for d in plan {
            let err = out.join(format!("{}.err", d.stem()));
            if let Ok(reason) = std::fs::read_to_string(&err) {
                println!(
                    "  {} {} {} r{}: {}",
                    d.stem(),
                    d.qid,
                    d.arm,
                    d.rep,
                    clean_line(reason.trim(), 200)
                );
            }
        }
        ("none (round incomplete)".to_string(), Exit::Incomplete)
    };
    write_round_done(out, record, &report, complete, &verdict_line)?;
    println!();
    println!("files: {}", out.display());
    if record.manifest.status != "match" {
        println!("manifest: UNVERIFIED (no --manifest: the inputs were not compared with a pre-registration)");
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
    text.push_str(&format!(
        "scorer_fingerprint: {}\n",
        record.scorer_fingerprint
    ));
    crate::manifest::write_atomic(&out.join("ROUND_DONE"), text.as_bytes(), true)
}

/// Which kind a qid has (for legacy names).
pub fn kind_of(qset: &Qset, qid: &str) -> Option<Kind> {
    qset.questions.iter().find(|q| q.qid == qid).map(|q| q.kind)
}
