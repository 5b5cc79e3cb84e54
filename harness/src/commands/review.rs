//! `harness review ROUND`: a person settles the rows no reader decided (and may re-read any
//! row). Interactive in a terminal, one row at a time; `--set LABEL:REP=CLASS` and `--from
//! FILE` for scripts; `--export FILE` writes the decided rows in the corpus format. Decisions
//! go to `review.jsonl`; then the round's reports, `summary.json` and `ROUND_DONE` are
//! re-derived from the out-dir, as `harness collect` derives them.

use crate::exit::{Exit, Fail};
use crate::reading::review::{self, Decision};
use crate::round::collect::Show;
use crate::text::clean_line;
use anyhow::Result;
use scorer::Class;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Options of `harness review`.
pub struct ReviewOptions {
    /// The round's out-dir.
    pub out: PathBuf,
    /// `LABEL:REP=CLASS` decisions.
    pub set: Vec<String>,
    /// A file of `LABEL:REP=CLASS` lines (`#` comments, blank lines skipped).
    pub from: Option<PathBuf>,
    /// Write the decided rows as a corpus JSONL file and exit.
    pub export: Option<PathBuf>,
    /// The reviewer's name (`$USER` when not given).
    pub reviewer: Option<String>,
    /// Offer every row, not only the undecided ones (interactive).
    pub all: bool,
}

/// One planned row of the round with its answer bytes.
struct Planned {
    label: String,
    rep: u32,
    bytes: Option<Vec<u8>>,
}

fn planned(out: &Path) -> Result<Vec<Planned>> {
    let plan = crate::round::journal::load_plan(out)?;
    Ok(plan
        .dispatches
        .iter()
        .map(|d| Planned {
            label: d.label.as_str().to_string(),
            rep: d.rep,
            bytes: std::fs::read(crate::round::record::dispatch_file(out, &d.stem(), "txt")).ok(),
        })
        .collect())
}

/// Parses `LABEL:REP=CLASS` (`where_` names the source in errors).
fn parse_set(s: &str, where_: &str) -> Result<(String, u32, Class)> {
    let bad = |why: &str| {
        Fail::new(
            Exit::Usage,
            format!(
                "{where_}: '{}' {why} (expected LABEL:REP=CLASS, e.g. k3f9q2:1=PASS)",
                clean_line(s, 80)
            ),
        )
    };
    let (row, class) = s.split_once('=').ok_or_else(|| bad("has no '='"))?;
    let (label, rep) = row.rsplit_once(':').ok_or_else(|| bad("has no ':REP'"))?;
    let rep: u32 = rep
        .trim_start_matches('r')
        .parse()
        .map_err(|_| bad("has a REP that is not a number"))?;
    let class: Class = class.trim().parse().map_err(|e: String| bad(&e))?;
    Ok((label.trim().to_string(), rep, class))
}

fn reviewer(opts: &ReviewOptions) -> String {
    opts.reviewer
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

fn decision(p: &Planned, class: Class, who: &str) -> Result<Decision> {
    let Some(bytes) = &p.bytes else {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{}_r{} has no answer file: nothing to review",
                p.label, p.rep
            ),
        )
        .into());
    };
    Ok(Decision {
        label: p.label.clone(),
        rep: p.rep,
        class,
        reviewer: who.to_string(),
        time: chrono::Utc::now().to_rfc3339(),
        answer_sha256: review::sha256_hex(bytes),
    })
}

/// `harness review`.
pub fn review(opts: &ReviewOptions) -> Result<Exit> {
    let out = opts.out.as_path();
    let plan = crate::round::journal::load_plan(out)?;
    crate::round::plan::activate_reading(&plan.options)?;
    let rows = planned(out)?;
    if let Some(file) = &opts.export {
        return export(out, file);
    }
    let who = reviewer(opts);
    let mut sets: Vec<(String, u32, Class, String)> = Vec::new();
    for s in &opts.set {
        let (l, r, c) = parse_set(s, "--set")?;
        sets.push((l, r, c, "--set".into()));
    }
    if let Some(f) = &opts.from {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Fail::new(Exit::Usage, format!("{}: {e}", f.display())))?;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let at = format!("{}:{}", f.display(), i + 1);
            let (l, r, c) = parse_set(t, &at)?;
            sets.push((l, r, c, at));
        }
    }
    let mut new = Vec::new();
    if sets.is_empty() {
        new = interactive(out, &rows, &who, opts.all)?;
        if new.is_empty() {
            println!("no decisions made; the round is unchanged");
            return Ok(Exit::Ok);
        }
    } else {
        for (label, rep, class, at) in &sets {
            let p = rows
                .iter()
                .find(|p| &p.label == label && p.rep == *rep)
                .ok_or_else(|| {
                    Fail::new(
                        Exit::Usage,
                        format!("{at}: the round has no row {}:{rep}", clean_line(label, 40)),
                    )
                })?;
            new.push(decision(p, *class, &who)?);
        }
    }
    review::append(out, &new)?;
    println!(
        "{} decision{} recorded in {}; re-deriving the round's reports",
        new.len(),
        if new.len() == 1 { "" } else { "s" },
        review::FILE
    );
    crate::units::collect_cmd(out, Show::default())
}

/// The interactive loop: the undecided rows (or every row with `all`), one at a time.
fn interactive(out: &Path, rows: &[Planned], who: &str, all: bool) -> Result<Vec<Decision>> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return Err(Fail::new(
            Exit::Usage,
            "harness review needs a terminal, or --set LABEL:REP=CLASS / --from FILE",
        )
        .into());
    }
    let report = crate::commands::rescore::scored_rows(out)?;
    let (qset, scored) = report;
    let pending: Vec<&reports::Row> = scored
        .iter()
        .filter(|r| all || !r.standing.decided())
        .collect();
    let keys: [(char, Class); 8] = [
        ('p', Class::Pass),
        ('f', Class::Fail),
        ('h', Class::Hallucinated),
        ('w', Class::RefusedWithToken),
        ('c', Class::ConflictFollowed),
        ('a', Class::AbstainedOnConflict),
        ('o', Class::PriorWon),
        ('u', Class::Unclassified),
    ];
    let mut made = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    for (n, r) in pending.iter().enumerate() {
        let q = qset.questions.iter().find(|q| q.qid == r.qid);
        let mut o = std::io::stdout().lock();
        writeln!(
            o,
            "\n── row {}/{}: {} {} r{} ({}_r{}) · {}",
            n + 1,
            pending.len(),
            clean_line(&r.qid, 40),
            r.arm,
            r.rep,
            clean_line(&r.label, 40),
            r.rep,
            r.kind
        )?;
        if let Some(q) = q {
            writeln!(o, "question: {}", clean_line(&q.question, 300))?;
            writeln!(o, "token:    {}", clean_line(&q.token, 120))?;
            if let Some(g) = &q.general {
                writeln!(o, "general:  {}", clean_line(g, 120))?;
            }
        }
        writeln!(
            o,
            "answer:   {}",
            reports::sanitize::excerpt(&r.excerpt, 2000)
        )?;
        let reading = match &r.standing {
            reports::reading::Standing::Undetermined { cues } => {
                format!(
                    "lexicon UNDETERMINED (guess {}; cues {})",
                    r.verdict,
                    cues.join(", ")
                )
            }
            _ => reports::reading::shown(r),
        };
        writeln!(o, "reading:  {reading}")?;
        writeln!(o, "keys: p PASS · f FAIL · h HALLUCINATED · w REFUSED_WITH_TOKEN · c CONFLICT_FOLLOWED · a ABSTAINED_ON_CONFLICT · o PRIOR_WON · u UNCLASSIFIED · s skip · q quit (decisions so far are kept)")?;
        o.flush()?;
        drop(o);
        loop {
            let Some(line) = lines.next() else {
                return Ok(made);
            };
            let key = line?.trim().chars().next().unwrap_or(' ');
            if key == 'q' {
                return Ok(made);
            }
            if key == 's' {
                break;
            }
            if let Some((_, class)) = keys.iter().find(|(k, _)| *k == key) {
                let p = rows
                    .iter()
                    .find(|p| p.label == r.label && p.rep == r.rep)
                    .ok_or_else(|| anyhow::anyhow!("row {} not in the plan", r.label))?;
                let d = decision(p, *class, who)?;
                // Saved at once: quitting (or a crash) later loses nothing decided.
                review::append(out, std::slice::from_ref(&d))?;
                made.push(d);
                break;
            }
            println!("unknown key '{key}'; one of p f h w c a o u, s or q");
        }
    }
    Ok(made)
}

/// `--export FILE`: the decided rows in the corpus format (`lexicon eval FILE` reads it).
fn export(out: &Path, file: &Path) -> Result<Exit> {
    let (qset, rows) = crate::commands::rescore::scored_rows(out)?;
    let mut text = String::new();
    let mut n = 0;
    for r in rows.iter().filter(|r| r.standing.decided()) {
        let Some(q) = qset.questions.iter().find(|q| q.qid == r.qid) else {
            continue;
        };
        let refuses = matches!(
            (r.kind, r.verdict.class),
            (scorer::Kind::Negative, Class::Pass)
                | (_, Class::RefusedWithToken)
                | (_, Class::AbstainedOnConflict)
        );
        let by = r.standing.decided_by().map_or("", |b| b.as_str());
        let row = serde_json::json!({
            "id": format!("{}_r{}", r.label, r.rep),
            "kind": r.kind,
            "token": q.token,
            "general": q.general.clone().unwrap_or_default(),
            "answer": r.excerpt,
            "class": r.verdict.class,
            "refuses": refuses,
            "lang": "und",
            "note": format!("{} {} r{}; decided by {by}", r.qid, r.arm, r.rep),
        });
        text.push_str(&serde_json::to_string(&row)?);
        text.push('\n');
        n += 1;
    }
    crate::round::journal::write_atomic(file, text.as_bytes())?;
    println!(
        "{n} decided rows written to {}",
        clean_line(&file.display().to_string(), 200)
    );
    Ok(Exit::Ok)
}
