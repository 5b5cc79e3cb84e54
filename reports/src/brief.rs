//! The few lines a person reads after a round: the verdict with its reason, the headline
//! numbers with their intervals, what happened to the dispatches, and where the files are.
//! Printed as the LAST lines of `run` (a 48-row table used to push the verdict 200 lines up);
//! the full tables live in the out-dir and in `harness report DIR`.

use crate::sanitize;
use crate::{InstrumentVerdict, Report};
use anstyle::{AnsiColor, Style};
use serde::Serialize;

/// The number lines shown in the brief, by key, in order.
/// (`delivery_all_arm` appears only under `--ledger report`.)
pub const HEADLINE_KEYS: [&str; 6] = [
    "delivery_arm",
    "delivery_all_arm",
    "hui_arm",
    "hui_ctrl",
    "lucky_ctrl",
    "mr",
];

/// What the round did besides its rows: the binary knows these, the report does not.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RunFacts {
    /// Dispatches planned.
    pub planned: usize,
    /// Dispatches that left an answer.
    pub answered: usize,
    /// Dispatches that failed (no answer).
    pub failed: usize,
    /// Dispatches retried after an infrastructure failure, when known.
    pub retried: Option<usize>,
    /// The agents' reported cost, when any agent reported one.
    pub cost: Option<String>,
    /// The out-dir, as shown.
    pub out_dir: String,
}

/// The style of a verdict: green OK, yellow FINDING, red for the rest.
pub fn verdict_style(v: InstrumentVerdict) -> Style {
    let c = match v {
        InstrumentVerdict::Ok => AnsiColor::Green,
        InstrumentVerdict::NeedsReview => AnsiColor::Yellow,
        InstrumentVerdict::Finding => AnsiColor::Yellow,
        _ => AnsiColor::Red,
    };
    Style::new().bold().fg_color(Some(c.into()))
}

/// `text` wrapped in `style` when `color`, else unchanged.
pub fn paint(text: &str, style: Style, color: bool) -> String {
    if color {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// The brief as text lines (no trailing blank line). A complete round gets its verdict and
/// headline numbers; an incomplete one says that no verdict is claimed.
pub fn render(report: &Report, facts: &RunFacts, color: bool) -> String {
    let s = &report.summary;
    let complete = facts.failed == 0 && facts.answered == facts.planned;
    let prefix = s.watermark_prefix();
    let prefix_painted = paint(
        &prefix,
        Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
        color,
    );
    let mut out = vec!["── result ──".to_string()];
    if complete {
        let verdict = format!(
            "Instrument verdict: {} (exit {})",
            s.verdict_display(),
            s.verdict.exit_code()
        );
        out.push(format!(
            "{prefix_painted}{}",
            paint(&verdict, verdict_style(s.verdict), color)
        ));
        out.push(format!(
            "{prefix_painted}  {}",
            sanitize::excerpt(&s.verdict_reason, 600)
        ));
        // The label decision the number lines of report.md and report.html print: the brief
        // says it too, from the same field, unless the reason above already does.
        if let Some(why) = &s.label_withheld {
            if !s.verdict_reason.contains(crate::summary::WITHHELD) {
                out.push(format!(
                    "{prefix_painted}  {}, because {}",
                    crate::summary::WITHHELD,
                    sanitize::excerpt(why, 300)
                ));
            }
        }
        if let Some(f) = &s.fired_by {
            out.push(format!(
                "{prefix_painted}  fired by {} row(s) on {}: a zero-tolerance rule, one row is enough",
                f.row_count(),
                f.items.iter().map(|q| sanitize::excerpt(q, 40)).collect::<Vec<_>>().join(", ")
            ));
            for n in f.rows.iter().take(crate::rules::NAMED_ROWS) {
                out.push(format!(
                    "{prefix_painted}    {}",
                    sanitize::excerpt(&n.sentence(), 160)
                ));
            }
            if f.rows.len() > crate::rules::NAMED_ROWS {
                out.push(format!(
                    "{prefix_painted}    … and {} more (report.txt lists every row)",
                    f.rows.len() - crate::rules::NAMED_ROWS
                ));
            }
        }
        let lines = s.number_lines();
        for key in HEADLINE_KEYS {
            if let Some(l) = lines.iter().find(|l| l.key == key) {
                // Rows no reader decided stand beside the count, never inside it.
                let undecided = match l.undetermined {
                    0 => String::new(),
                    n => format!(
                        ", {}",
                        crate::summary::undecided_words(n - l.contested, l.contested, false)
                    ),
                };
                out.push(format!(
                    "{prefix_painted}  {:<16} {}{undecided}",
                    l.label,
                    l.value.display()
                ));
            }
        }
    } else {
        out.push(paint(
            "ROUND INCOMPLETE: no verdict is claimed",
            Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
            color,
        ));
    }
    out.push(format!(
        "dispatches: {} of {} answered · {} failed · {} · cost: {}",
        facts.answered,
        facts.planned,
        facts.failed,
        match facts.retried {
            Some(n) => format!("{n} retried"),
            None => "retries unknown (not every dispatch record could be read)".into(),
        },
        facts
            .cost
            .as_deref()
            .map(|c| sanitize::excerpt(c, 60))
            .unwrap_or_else(|| "not reported".into()),
    ));
    // Effort per arm (never part of the verdict): one line, the full table in report.md; a
    // number line, so it carries the watermark when the round has one.
    out.push(format!(
        "{prefix_painted}effort: {}",
        sanitize::excerpt(&crate::effort::summarize(report).headline(), 400)
    ));
    // The second reader's last pass, when one read the round: its totals beside the agents'.
    if let Some(j) = &report.meta.judge {
        out.push(format!(
            "judge: {} · {}",
            sanitize::excerpt(&j.spec, 60),
            j.totals.line()
        ));
    }
    out.push(format!(
        "manifest: {}{}",
        s.manifest.as_str(),
        if s.manifest == crate::ManifestStatus::JudgeChanged {
            format!(" ({})", crate::JUDGE_DIFFERS)
        } else if s.design_sealed {
            String::new()
        } else {
            " (design not sealed)".into()
        }
    ));
    out.push(format!(
        "files: {}  (full tables: harness report {} · report.html)",
        facts.out_dir, facts.out_dir
    ));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The brief as one JSON document (`run --format json`): the same facts, for scripts. `exit` is
/// the process's exit code, decided by the binary.
pub fn json(report: &Report, facts: &RunFacts, exit: i32) -> serde_json::Value {
    let s = &report.summary;
    let lines = s.number_lines();
    let headline: Vec<serde_json::Value> = HEADLINE_KEYS
        .iter()
        .filter_map(|k| lines.iter().find(|l| l.key == *k))
        .map(|l| {
            serde_json::json!({
                "key": l.key,
                "label": l.label,
                "value": l.value.display(),
            })
        })
        .collect();
    let complete = facts.failed == 0 && facts.answered == facts.planned;
    serde_json::json!({
        "complete": complete,
        "verdict": if complete { serde_json::Value::from(s.verdict.name()) } else { serde_json::Value::Null },
        "verdict_claimed": complete && s.verdict_claimed,
        "exit": exit,
        "reason": s.verdict_detail,
        "fired_by": if complete { serde_json::json!(s.fired_by) } else { serde_json::Value::Null },
        "watermark": s.watermark,
        "manifest": s.manifest.as_str(),
        "design_sealed": s.design_sealed,
        "headline": headline,
        "dispatches": facts,
        "judge": report.meta.judge.as_ref().map(|j| j.cleaned()),
        "effort": crate::effort::summarize(report).headline(),
    })
}
