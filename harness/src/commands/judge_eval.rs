//! `harness judge eval --judge SPEC [CORPUS…]`: the judge's calibration, measured. The judge
//! reads every row of a labelled corpus (the shipped one by default; the JSONL format of
//! `harness lexicon eval`) with the rubric a round uses, and its classes are compared with the
//! human labels: agreement, Cohen's κ with both base rates, per-kind confusion, and the two
//! dangerous directions with Wilson intervals. A row the judge gave no reading for is counted,
//! never read as agreement. The calibration is kept in the user's state folder: a round the
//! judge reads records it and its reports show it.

use crate::exit::{Exit, Fail};
use crate::reading::judge::Judge;
use crate::text::clean_line;
use anyhow::Result;
use reports::calibration::{self, Calibration, Figures};
use scorer::corpus;
use std::path::PathBuf;

/// Options of `harness judge eval`.
pub struct JudgeEvalOptions {
    /// The judge (sandboxed already).
    pub judge: Judge,
    /// Calls at once.
    pub jobs: usize,
    /// Corpus files; empty means the shipped corpus.
    pub corpora: Vec<PathBuf>,
    /// JSON instead of text.
    pub json: bool,
    /// `--min-agreement`: exit 1 when agreement over every row is below (or unmeasured).
    pub min_agreement: Option<f64>,
}

/// What a corpus row is asked as: corpus rows carry no question.
const NO_QUESTION: &str = "(not given: a row of a labelled corpus)";

/// Runs `harness judge eval`.
pub fn eval(opts: &JudgeEvalOptions) -> Result<Exit> {
    let sources = crate::commands::lexicon::corpus_sources(&opts.corpora)?;
    let mut rows = Vec::new();
    let mut corpus_ids = Vec::new();
    for (name, text) in &sources {
        let parsed =
            corpus::parse(name, text).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
        corpus_ids.push((
            name.clone(),
            crate::reading::review::sha256_hex(text.as_bytes()),
        ));
        rows.extend(parsed);
    }
    let asks: Vec<(scorer::rubric::Item<'_>, String)> = rows
        .iter()
        .map(|r| {
            (
                scorer::rubric::Item {
                    kind: r.kind,
                    question: NO_QUESTION,
                    token: &r.token,
                    general: (!r.general.is_empty()).then_some(r.general.as_str()),
                },
                r.answer.clone(),
            )
        })
        .collect();
    eprintln!(
        "judge eval: {} rows to read with {} (sandbox {})",
        asks.len(),
        clean_line(&opts.judge.describe(), 120),
        opts.judge.sandbox_name()
    );
    let calls = opts.judge.read_all(&asks, opts.jobs);
    let reads: Vec<calibration::Read> = rows
        .iter()
        .zip(&calls)
        .map(|(r, c)| (r.kind, r.class, c.reading.as_ref().map(|j| j.class)))
        .collect();
    let figures = calibration::figures(&reads);
    let cal = Calibration {
        judge: opts.judge.describe(),
        version: crate::agents::cli_version(&opts.judge.spec),
        rubric_sha256: scorer::rubric::sha256(),
        date: chrono::Utc::now().to_rfc3339(),
        corpus: corpus_ids,
        figures,
    };
    crate::reading::calibration::keep(&cal)?;
    if opts.json {
        let failures: Vec<serde_json::Value> = rows
            .iter()
            .zip(&calls)
            .filter(|(_, c)| c.reading.is_none())
            .map(|(r, c)| {
                serde_json::json!({
                    "id": clean_line(&r.id, 80),
                    "failure": c.failure.as_deref().map(|f| clean_line(f, 200)),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "calibration": cal,
                "line": cal.line(&scorer::rubric::sha256()),
                "no_reading": failures,
                "kept_in": crate::reading::calibration::path().display().to_string(),
            }))?
        );
    } else {
        print!("{}", text(&cal));
        println!(
            "kept in {} (rounds this judge reads record it)",
            crate::reading::calibration::path().display()
        );
    }
    floor(opts.min_agreement, &cal.figures)
}

fn text(c: &Calibration) -> String {
    let f = &c.figures;
    let mut o = String::new();
    let share = |m: &std::collections::BTreeMap<String, f64>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    o.push_str(&format!("{}\n", c.line(&scorer::rubric::sha256())));
    o.push_str(&format!(
        "corpus: {}\n",
        c.corpus
            .iter()
            .map(|(n, _)| clean_line(n, 120))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    o.push_str(&format!(
        "rows: {} · read: {} · no reading: {}\n",
        f.rows,
        f.read,
        f.rows - f.read
    ));
    o.push_str(&format!(
        "agreement (over every row; no reading is not agreement): {}\n",
        f.agreement.display()
    ));
    o.push_str(&format!(
        "Cohen's κ (over the rows read): {}\n",
        f.kappa
            .map_or("UNMEASURED (undefined)".to_string(), |k| format!("{k:.3}"))
    ));
    o.push_str(&format!(
        "base rates, human labels: {}\n",
        share(&f.human_base)
    ));
    o.push_str(&format!("base rates, judge: {}\n", share(&f.judge_base)));
    o.push_str(&format!(
        "fabrication read as a clean refusal (negative, human not PASS, judge PASS): {}\n",
        f.fabrication_as_refusal.display()
    ));
    o.push_str(&format!(
        "clean refusal read as a failure (negative, human PASS, judge not PASS): {}\n",
        f.refusal_as_failure.display()
    ));
    for (kind, table) in &f.confusion {
        o.push_str(&format!("confusion, {kind} (human → judge):\n"));
        for (human, row) in table {
            let cells = row
                .iter()
                .map(|(j, n)| format!("{j} {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            o.push_str(&format!("  {human:<22} → {cells}\n"));
        }
    }
    o
}

fn floor(min: Option<f64>, f: &Figures) -> Result<Exit> {
    let Some(min) = min else {
        return Ok(Exit::Ok);
    };
    match f.agreement.value() {
        Some(v) if v >= min => Ok(Exit::Ok),
        Some(v) => {
            eprintln!("harness: judge eval below floor: agreement {v:.3} < {min:.3}");
            Ok(Exit::Internal)
        }
        None => {
            eprintln!(
                "harness: judge eval below floor: agreement UNMEASURED (0/0), floor {min:.3}"
            );
            Ok(Exit::Internal)
        }
    }
}
