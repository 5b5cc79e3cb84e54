//! The terminal report: comfy-table tables sized to a given width, colour only when asked.
//!
//! Layout: a header block, one blank line, then the body. In a watermarked round every non-blank
//! body line, table borders included, starts with the watermark prefix (`[VOID] `), so any line
//! copied alone carries its status.

use crate::header::header_fields;
use crate::sanitize;
use crate::summary::DOES_NOT_MEASURE;
use crate::{Render, Report};
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

/// Excerpt cap in the terminal rows table (the files keep more).
const TERMINAL_EXCERPT_MAX: usize = 60;

/// Renders for a terminal. The binary decides `color` (off under `NO_COLOR` or when not a
/// terminal) and `width` (the terminal's columns, or a fixed default).
#[derive(Debug, Clone, Copy)]
pub struct Terminal {
    /// Colour the verdict line with ANSI escapes.
    pub color: bool,
    /// Total columns available, watermark prefix included.
    pub width: u16,
}

struct Body {
    prefix: String,
    lines: Vec<String>,
}

impl Body {
    fn line(&mut self, text: &str) {
        self.lines.push(format!("{}{}", self.prefix, text));
    }
    fn blank(&mut self) {
        self.lines.push(String::new());
    }
    fn table(&mut self, table: &Table) {
        for l in table.to_string().lines() {
            self.line(l);
        }
    }
}

impl Terminal {
    fn table(&self, prefix_width: usize, header: &[&str]) -> Table {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .force_no_tty()
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(self.width.saturating_sub(prefix_width as u16).max(40))
            .set_header(header.to_vec());
        t
    }

    fn paint(&self, text: &str, verdict: crate::InstrumentVerdict) -> String {
        crate::brief::paint(text, crate::brief::verdict_style(verdict), self.color)
    }

    /// A cell coloured by what the row means for its arm and kind, not by its class: green
    /// good, red bad, yellow unclear, plain for what is expected or undecided; colour only when
    /// asked (the meaning word is always printed beside it).
    fn meaning_cell(&self, r: &crate::Row, text: String) -> comfy_table::Cell {
        use crate::meaning::Meaning;
        use comfy_table::{Cell, Color};
        let cell = Cell::new(text);
        if !self.color {
            return cell;
        }
        match crate::meaning::of(r) {
            Meaning::Good => cell.fg(Color::Green),
            Meaning::Bad => cell.fg(Color::Red),
            Meaning::Unclear => cell.fg(Color::Yellow),
            Meaning::Expected | Meaning::Undecided => cell,
        }
    }
}

impl Render for Terminal {
    fn render(&self, report: &Report) -> String {
        let s = &report.summary;
        let mut out = vec!["harness round report".to_string()];
        for (name, value) in header_fields(report, crate::header::TERMINAL_ANSWERS) {
            out.push(format!("  {name:<13} {value}"));
        }
        out.push(String::new());

        let prefix = s.watermark_prefix();
        let pw = prefix.chars().count();
        let mut b = Body {
            prefix,
            lines: Vec::new(),
        };
        let verdict = format!(
            "Instrument verdict: {} (exit {})",
            s.verdict_display(),
            s.verdict.exit_code()
        );
        b.line(&self.paint(&verdict, s.verdict));
        b.line(&format!("  {}", s.verdict_reason));
        if let Some(f) = &s.fired_by {
            b.line(&format!("  {}:", crate::rules::rule_sentence(s, f)));
            for n in &f.rows {
                b.line(&format!("    {}", sanitize::terminal(&n.sentence(), 200)));
            }
        }

        let lines = s.number_lines();
        let mut i = 0;
        while i < lines.len() {
            let section = lines[i].section;
            b.blank();
            b.line(&format!("── {section} ──"));
            let mut t = self.table(pw, &["number", "value", "note"]);
            while i < lines.len() && lines[i].section == section {
                let l = &lines[i];
                t.add_row(vec![l.label.clone(), l.value.display(), l.note.clone()]);
                i += 1;
            }
            b.table(&t);
        }

        b.blank();
        b.line("── Arm × time ──");
        for l in crate::timeline::lines(&report.meta.timeline) {
            b.line(&format!("  {l}"));
        }

        b.blank();
        b.line("── Effort (ARM vs CTRL) ──");
        for l in crate::effort::summarize(report).lines() {
            b.line(&format!("  {}", sanitize::terminal(&l, 600)));
        }

        b.blank();
        b.line("── Questions ──");
        let mut t = self.table(pw, &["qid", "kind", "question"]);
        for q in &report.meta.questions {
            t.add_row(vec![
                sanitize::terminal(&q.qid, 40),
                q.kind.to_string(),
                sanitize::terminal(&q.question, sanitize::EXCERPT_MAX),
            ]);
        }
        b.table(&t);

        b.blank();
        b.line("── Rows ──");
        b.line(&format!("  {}", crate::meaning::LEGEND));
        let mut t = self.table(
            pw,
            &[
                "qid", "kind", "arm", "rep", "verdict", "meaning", "clarify", "label", "answer",
            ],
        );
        if self.color {
            t.enforce_styling();
        }
        for r in &report.rows {
            use comfy_table::Cell;
            t.add_row(vec![
                Cell::new(sanitize::terminal(&r.qid, 40)),
                Cell::new(r.kind.to_string()),
                Cell::new(r.arm.to_string()),
                Cell::new(r.rep.to_string()),
                self.meaning_cell(r, crate::reading::shown(r)),
                self.meaning_cell(r, crate::meaning::of(r).to_string()),
                Cell::new(if r.clarify { "yes" } else { "" }),
                Cell::new(sanitize::terminal(&r.label, 40)),
                Cell::new(sanitize::terminal(&r.excerpt, TERMINAL_EXCERPT_MAX)),
            ]);
        }
        b.table(&t);

        b.blank();
        b.line("── What this does not measure ──");
        for l in DOES_NOT_MEASURE {
            b.line(&format!("  {}: {}", l.title, l.text));
        }

        out.extend(b.lines);
        let mut text = out.join("\n");
        text.push('\n');
        text
    }

    fn file_name(&self) -> &'static str {
        "report.txt"
    }
}
