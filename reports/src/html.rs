//! `report.html`: one self-contained file (inline CSS and SVG, no script, no network) with the
//! ARM/CTRL bars per axis and their intervals, the per-item D chart, every number, the rows and
//! the sanitized answers.
//!
//! In a watermarked round every number row and every dispatch row begins with a `[VOID]` cell
//! and carries `data-watermark`; the charts carry it in their caption.

use crate::header::header_fields;
use crate::sanitize::{self, html_escape as esc};
use crate::summary::{good_name, good_rate, DOES_NOT_MEASURE};
use crate::{Proportion, Render, Report};
use scorer::{Arm, Kind};
use std::fmt::Write;

/// Renders `report.html`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Html;

const CSS: &str = "body{font-family:system-ui,sans-serif;margin:2em;max-width:80em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .5em;\
text-align:left;vertical-align:top}th{background:#f4f4f4}.wm{color:#b00;font-weight:bold}\
.banner{background:#fdd;border:2px solid #b00;padding:.5em;font-weight:bold}\
.unverified{background:#ffe9b3;padding:.3em}td.ans{font-family:monospace;font-size:90%;max-width:40em;\
overflow-wrap:anywhere}svg text{font-size:12px;font-family:system-ui,sans-serif}";

/// Bar chart scale: pixels for a proportion of 1.
const BAR_W: f64 = 300.0;

fn wm_cell(wm: &Option<String>, tag: &str) -> String {
    match wm {
        Some(w) => format!("<{tag} class=\"wm\">[{}]</{tag}>", esc(w)),
        None => String::new(),
    }
}

fn wm_attr(wm: &Option<String>) -> String {
    match wm {
        Some(w) => format!(" data-watermark=\"{}\"", esc(w)),
        None => String::new(),
    }
}

fn bar(svg: &mut String, y: f64, name: &str, p: &Proportion) {
    let _ = write!(svg, "<text x=\"0\" y=\"{:.0}\">{name}</text>", y + 13.0);
    match (p.p(), p.interval()) {
        (Some(v), Some(i)) => {
            let _ = write!(
                svg,
                "<rect x=\"50\" y=\"{y:.0}\" width=\"{:.1}\" height=\"16\" fill=\"{}\"/>\
                 <line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.0}\" y2=\"{:.0}\" stroke=\"#000\"/>\
                 <text x=\"{:.0}\" y=\"{:.0}\">{}</text>",
                v * BAR_W,
                if name == "ARM" { "#4a7bd0" } else { "#a0a0a0" },
                50.0 + i.lo * BAR_W,
                50.0 + i.hi * BAR_W,
                y + 8.0,
                y + 8.0,
                60.0 + BAR_W,
                y + 13.0,
                esc(&p.display())
            );
        }
        _ => {
            let _ = write!(
                svg,
                "<text x=\"50\" y=\"{:.0}\">{}</text>",
                y + 13.0,
                esc(&p.display())
            );
        }
    }
}

fn axis_bars(report: &Report) -> String {
    let mut svg = String::new();
    let h = 3.0 * 70.0;
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"{h:.0}\" role=\"img\">"
    );
    for (a, kind) in Kind::ALL.iter().enumerate() {
        let y = a as f64 * 70.0;
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{:.0}\" font-weight=\"bold\">{} (good = {})</text>",
            y + 14.0,
            kind,
            good_name(*kind)
        );
        for (j, arm) in Arm::BOTH.iter().enumerate() {
            let p = good_rate(&report.rows, *kind, *arm);
            bar(&mut svg, y + 22.0 + j as f64 * 22.0, arm.as_str(), &p);
        }
    }
    svg.push_str("</svg>");
    svg
}

fn d_chart(report: &Report) -> String {
    let items = &report.summary.items;
    let (x0, w) = (160.0, 400.0);
    let x = |d: f64| x0 + (d + 1.0) / 2.0 * w;
    let h = 30.0 + items.len() as f64 * 20.0;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"{h:.0}\" role=\"img\">\
         <line x1=\"{:.0}\" x2=\"{:.0}\" y1=\"0\" y2=\"{h:.0}\" stroke=\"#999\" stroke-dasharray=\"3\"/>\
         <text x=\"{:.0}\" y=\"12\">−1</text><text x=\"{:.0}\" y=\"12\">0</text>\
         <text x=\"{:.0}\" y=\"12\">+1</text>",
        x(0.0),
        x(0.0),
        x(-1.0),
        x(0.0) + 3.0,
        x(1.0) - 14.0
    );
    for (n, i) in items.iter().enumerate() {
        let y = 30.0 + n as f64 * 20.0;
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{:.0}\">{} ({})</text>",
            y + 4.0,
            sanitize::html(&i.qid, 16),
            i.kind
        );
        match (i.d, i.interval) {
            (Some(d), Some(iv)) => {
                let _ = write!(
                    svg,
                    "<line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.0}\" y2=\"{y:.0}\" stroke=\"#000\"/>\
                     <circle cx=\"{:.1}\" cy=\"{y:.0}\" r=\"4\" fill=\"#4a7bd0\"/>\
                     <text x=\"{:.0}\" y=\"{:.0}\">{:+.2}</text>",
                    x(iv.lo),
                    x(iv.hi),
                    x(d),
                    x0 + w + 10.0,
                    y + 4.0,
                    d
                );
            }
            _ => {
                let _ = write!(
                    svg,
                    "<text x=\"{x0:.0}\" y=\"{:.0}\">UNMEASURED (an arm has no rows)</text>",
                    y + 4.0
                );
            }
        }
    }
    svg.push_str("</svg>");
    svg
}

impl Render for Html {
    fn render(&self, report: &Report) -> String {
        let s = &report.summary;
        let wm = &s.watermark;
        let prefix = esc(&s.watermark_prefix());
        let mut h = String::new();
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
             <title>harness round report</title><style>{CSS}</style></head><body>\n\
             <h1>harness round report</h1>\n<table class=\"header\">\n"
        );
        for (name, value) in header_fields(report, crate::header::FILE_ANSWERS) {
            let cls = if name == "manifest" && value.starts_with("UNVERIFIED") {
                " class=\"unverified\""
            } else {
                ""
            };
            let _ = writeln!(h, "<tr><th>{name}</th><td{cls}>{}</td></tr>", esc(&value));
        }
        h.push_str("</table>\n");
        if let Some(w) = wm {
            let _ = writeln!(
                h,
                "<p class=\"banner\"{}>[{}] every number and row of this round carries this status</p>",
                wm_attr(wm),
                esc(w)
            );
        }
        let _ = writeln!(
            h,
            "<h2>Instrument verdict</h2>\n<p{}>{prefix}<strong>{}</strong> (exit {}): {}</p>",
            wm_attr(wm),
            esc(&s.verdict_display()),
            s.verdict.exit_code(),
            esc(&s.verdict_detail)
        );

        let _ = writeln!(
            h,
            "<h2>ARM / CTRL per axis (good rate, 95% Wilson)</h2>\n<figure{}><figcaption>{prefix}\
             bars are good rows of all rows of the axis in each arm; whiskers are the intervals</figcaption>{}</figure>",
            wm_attr(wm),
            axis_bars(report)
        );
        let _ = writeln!(
            h,
            "<h2>Per-item D = P_ARM − P_CTRL (Newcombe 95%)</h2>\n<figure{}><figcaption>{prefix}\
             context sensitivity per item</figcaption>{}</figure>",
            wm_attr(wm),
            d_chart(report)
        );

        let lines = s.number_lines();
        let mut i = 0;
        while i < lines.len() {
            let section = lines[i].section;
            let _ = writeln!(
                h,
                "<h2>{}</h2>\n<table class=\"numbers\"><tr>{}<th>number</th><th>value</th><th>note</th></tr>",
                esc(section),
                wm_cell(wm, "th")
            );
            while i < lines.len() && lines[i].section == section {
                let l = &lines[i];
                let _ = writeln!(
                    h,
                    "<tr{}>{}<td>{}</td><td>{}</td><td>{}</td></tr>",
                    wm_attr(wm),
                    wm_cell(wm, "td"),
                    sanitize::html(&l.label, 80),
                    esc(&l.value.display()),
                    esc(&l.note)
                );
                i += 1;
            }
            h.push_str("</table>\n");
        }

        let _ = writeln!(
            h,
            "<h2>Questions</h2>\n<table class=\"questions\"><tr><th>qid</th><th>kind</th><th>question</th></tr>"
        );
        for q in &report.meta.questions {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                sanitize::html(&q.qid, 40),
                q.kind,
                sanitize::html(&q.question, sanitize::EXCERPT_MAX)
            );
        }
        h.push_str("</table>\n");

        let _ = writeln!(
            h,
            "<h2>Rows</h2>\n<table class=\"rows\"><tr>{}<th>qid</th><th>kind</th><th>arm</th><th>rep</th>\
             <th>verdict</th><th>clarify</th><th>label</th><th>answer (sanitized excerpt)</th></tr>",
            wm_cell(wm, "th")
        );
        for r in &report.rows {
            let _ = writeln!(
                h,
                "<tr{}>{}<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td class=\"ans\">{}</td></tr>",
                wm_attr(wm),
                wm_cell(wm, "td"),
                sanitize::html(&r.qid, 40),
                r.kind,
                r.arm,
                r.rep,
                r.verdict,
                if r.clarify { "yes" } else { "" },
                sanitize::html(&r.label, 40),
                sanitize::html(&r.excerpt, sanitize::EXCERPT_MAX)
            );
        }
        h.push_str("</table>\n<h2>What this does not measure</h2>\n<ul>\n");
        for (id, text) in DOES_NOT_MEASURE {
            let _ = writeln!(h, "<li><strong>{id}</strong>: {}</li>", esc(text));
        }
        h.push_str("</ul>\n</body></html>\n");
        h
    }

    fn file_name(&self) -> &'static str {
        "report.html"
    }
}
