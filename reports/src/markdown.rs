//! `report.md`: the same content as the terminal report, as GitHub-flavoured Markdown.
//!
//! Layout: header lines up to the first blank line, then the body. In a watermarked round every
//! body heading reads `## [VOID] …`, every paragraph starts with `[VOID] `, and every table has a
//! first column holding `[VOID]` in its header and in every row (a table delimiter row carries
//! nothing). Untrusted text is escaped so it can neither split a cell nor open markup.

use crate::header::header_fields;
use crate::sanitize;
use crate::summary::DOES_NOT_MEASURE;
use crate::{Render, Report};

/// The harness's own text (numbers, notes): only a pipe or what opens HTML could disturb a
/// table; escaped so a future note cannot break the layout, `(< 10)` and `D > 0` kept as typed.
fn own(text: &str) -> String {
    sanitize::markdown_own(text)
}

/// Renders `report.md`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markdown;

struct Body {
    wm: Option<String>,
    out: Vec<String>,
}

impl Body {
    fn prefix(&self) -> String {
        self.wm
            .as_ref()
            .map(|w| format!("[{w}] "))
            .unwrap_or_default()
    }
    fn heading(&mut self, text: &str) {
        let p = self.prefix();
        self.out.push(format!("## {p}{text}"));
        self.out.push(String::new());
    }
    fn para(&mut self, text: &str) {
        let p = self.prefix();
        self.out.push(format!("{p}{text}"));
        self.out.push(String::new());
    }
    /// Cells must already be escaped.
    fn table(&mut self, header: &[&str], rows: Vec<Vec<String>>) {
        let mut head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        if let Some(w) = &self.wm {
            head.insert(0, format!("[{w}]"));
        }
        self.out.push(format!("| {} |", head.join(" | ")));
        self.out.push(format!("|{}", "---|".repeat(head.len())));
        for mut r in rows {
            if let Some(w) = &self.wm {
                r.insert(0, format!("[{w}]"));
            }
            self.out.push(format!("| {} |", r.join(" | ")));
        }
        self.out.push(String::new());
    }
}

impl Render for Markdown {
    fn render(&self, report: &Report) -> String {
        let s = &report.summary;
        let esc = sanitize::markdown_escape;
        let mut out = vec!["# harness round report".to_string()];
        for (name, value) in header_fields(report, crate::header::FILE_ANSWERS) {
            out.push(format!("- **{name}**: {}", esc(&value)));
        }
        out.push(String::new());

        let mut b = Body {
            wm: s.watermark.clone(),
            out: Vec::new(),
        };
        b.heading("Instrument verdict");
        b.para(&format!(
            "**{}** (exit {}): {}",
            esc(&s.verdict_display()),
            s.verdict.exit_code(),
            own(&s.verdict_reason)
        ));
        if let Some(f) = &s.fired_by {
            b.para(&format!("{}:", own(&crate::rules::rule_sentence(s, f))));
            for n in &f.rows {
                b.para(&format!("→ {}", sanitize::markdown(&n.sentence(), 200)));
            }
        }

        let lines = s.number_lines();
        let mut i = 0;
        while i < lines.len() {
            let section = lines[i].section;
            b.heading(&own(section));
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].section == section {
                let l = &lines[i];
                rows.push(vec![esc(&l.label), own(&l.value.display()), own(&l.note)]);
                i += 1;
            }
            b.table(&["number", "value", "note"], rows);
        }

        b.heading("Arm × time");
        let rows = crate::timeline::lines(&report.meta.timeline)
            .into_iter()
            .map(|l| vec![format!("`{}`", l.trim_start())])
            .collect();
        b.table(&["dispatch starts"], rows);

        let effort = crate::effort::summarize(report);
        b.heading("Effort (ARM vs CTRL)");
        let mut lines = effort.lines().into_iter();
        if let Some(first) = lines.next() {
            b.para(&esc(&first));
        }
        let rows: Vec<Vec<String>> = lines.map(|l| vec![esc(&l)]).collect();
        if !rows.is_empty() {
            b.table(&["per axis and measure"], rows);
        }
        if !effort.items.is_empty() {
            let mut head = vec!["qid".to_string(), "kind".to_string()];
            head.extend(
                crate::effort::Metric::ALL
                    .iter()
                    .map(|m| format!("{} (ARM / CTRL)", m.label())),
            );
            let head: Vec<&str> = head.iter().map(String::as_str).collect();
            let rows = effort
                .item_rows()
                .into_iter()
                .map(|r| r.iter().map(|c| esc(c)).collect())
                .collect();
            b.table(&head, rows);
        }

        b.heading("Questions");
        let rows = report
            .meta
            .questions
            .iter()
            .map(|q| {
                vec![
                    sanitize::markdown(&q.qid, 40),
                    q.kind.to_string(),
                    sanitize::markdown(&q.question, sanitize::EXCERPT_MAX),
                ]
            })
            .collect();
        b.table(&["qid", "kind", "question"], rows);

        b.heading("Rows");
        b.para(&esc(crate::meaning::LEGEND));
        let rows = report
            .rows
            .iter()
            .map(|r| {
                vec![
                    sanitize::markdown(&r.qid, 40),
                    r.kind.to_string(),
                    r.arm.to_string(),
                    r.rep.to_string(),
                    crate::reading::shown_with_cues(r, sanitize::markdown),
                    esc(&crate::reading::decided_by_cell(r, &report.meta)),
                    crate::meaning::of(r).to_string(),
                    if r.clarify { "yes" } else { "" }.to_string(),
                    sanitize::markdown(&r.label, 40),
                    sanitize::markdown(&r.excerpt, sanitize::EXCERPT_MAX),
                ]
            })
            .collect();
        b.table(
            &[
                "qid",
                "kind",
                "arm",
                "rep",
                "verdict",
                "decided by",
                "meaning",
                "clarify",
                "label",
                "answer",
            ],
            rows,
        );

        b.heading("What this does not measure");
        for l in DOES_NOT_MEASURE {
            b.para(&format!("**{}**: {}", esc(l.title), esc(l.text)));
        }

        out.extend(b.out);
        while out.last().is_some_and(|l| l.is_empty()) {
            out.pop();
        }
        let mut text = out.join("\n");
        text.push('\n');
        text
    }

    fn file_name(&self) -> &'static str {
        "report.md"
    }
}
