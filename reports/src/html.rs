//! `report.html`: one self-contained file (inline CSS and SVG, no script, no network) with the
//! ARM/CTRL bars per axis and their intervals, the per-item D chart, every number, the rows and
//! the sanitized answers.
//!
//! In a watermarked round every number row and every dispatch row begins with a `[VOID]` cell
//! and carries `data-watermark`; the charts carry it in their caption.
//!
//! Read at a glance: a verdict badge coloured by verdict opens the page, the charts take the
//! page's width with labels a person can read, a zero bar shows as an empty track with a tick at
//! zero (not a whisker), verdict cells are coloured, and each row opens to its whole answer.

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
overflow-wrap:anywhere}td.ans pre{white-space:pre-wrap;margin:.3em 0;max-height:30em;overflow:auto}\
figure{margin:0 0 1.5em}figure svg{display:block;width:100%;height:auto}\
svg text{font-family:system-ui,sans-serif}\
.badge{display:inline-block;padding:.35em .9em;border-radius:.3em;color:#fff;font-size:2em;\
font-weight:bold;margin:.2em 0 .6em}.badge small{font-size:.5em;font-weight:normal;margin-left:.6em}\
.v-OK{background:#1a7f37}.v-FINDING{background:#9a6700}\
.v-VOID,.v-INSTRUMENT_INCOMPLETE,.v-CARRIER_UNREAD{background:#c62828}.v-unclaimed{background:#57606a}\
td.good{background:#dafbe1}td.bad{background:#ffd7d5}td.unclear{background:#fff1c2}\
td.undecided{background:#eaeef2}tr.fired td:first-child{border-left:4px solid #c62828}\
.tick-arm{fill:#0969da}.tick-ctrl{fill:#8250df}pre.timeline{margin:.3em 0 1.5em}";

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

/// Chart geometry, in viewBox units; the SVG is drawn at the page's width.
const VIEW_W: f64 = 1000.0;
/// Where bars start, and their length for a proportion of 1.
const BAR_X: f64 = 110.0;
const BAR_W: f64 = 600.0;
/// Label size in viewBox units (about 16–20 px on a usual page).
const FONT: f64 = 18.0;

fn bar(svg: &mut String, y: f64, name: &str, p: &Proportion) {
    let _ = write!(
        svg,
        "<text x=\"10\" y=\"{:.0}\" font-size=\"{FONT}\">{name}</text>\
         <rect x=\"{BAR_X}\" y=\"{y:.0}\" width=\"{BAR_W}\" height=\"22\" fill=\"#eeeeee\"/>",
        y + 17.0
    );
    match (p.p(), p.interval()) {
        (Some(v), Some(i)) => {
            let fill = if name == "ARM" { "#3a6bc0" } else { "#7a7a7a" };
            // A zero is an empty track with a dark tick at 0, so it reads as zero, not as missing.
            let _ = write!(
                svg,
                "<rect x=\"{BAR_X}\" y=\"{y:.0}\" width=\"{:.1}\" height=\"22\" fill=\"{fill}\"/>\
                 <rect x=\"{BAR_X}\" y=\"{:.0}\" width=\"3\" height=\"26\" fill=\"#222\"/>\
                 <line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.0}\" y2=\"{:.0}\" stroke=\"#000\" stroke-width=\"2\"/>\
                 <text x=\"{:.0}\" y=\"{:.0}\" font-size=\"{FONT}\">{}</text>",
                v * BAR_W,
                y - 2.0,
                BAR_X + i.lo * BAR_W,
                BAR_X + i.hi * BAR_W,
                y + 11.0,
                y + 11.0,
                BAR_X + BAR_W + 12.0,
                y + 17.0,
                esc(&p.display())
            );
        }
        _ => {
            let _ = write!(
                svg,
                "<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"{FONT}\">{}</text>",
                BAR_X + 8.0,
                y + 17.0,
                esc(&p.display())
            );
        }
    }
}

fn axis_bars(report: &Report) -> String {
    let mut svg = String::new();
    let block = 100.0;
    let h = Kind::ALL.len() as f64 * block;
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {VIEW_W} {h:.0}\" role=\"img\">"
    );
    for (a, kind) in Kind::ALL.iter().enumerate() {
        let y = a as f64 * block;
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{:.0}\" font-size=\"{FONT}\" font-weight=\"bold\">{} (bars count {})</text>",
            y + 20.0,
            kind,
            good_name(*kind)
        );
        for (j, arm) in Arm::BOTH.iter().enumerate() {
            let p = good_rate(&report.rows, *kind, *arm);
            bar(&mut svg, y + 32.0 + j as f64 * 32.0, arm.as_str(), &p);
        }
    }
    svg.push_str("</svg>");
    svg
}

fn d_chart(report: &Report) -> String {
    let items = &report.summary.items;
    let (x0, w) = (250.0, 560.0);
    let x = |d: f64| x0 + (d + 1.0) / 2.0 * w;
    let row = 32.0;
    let h = 40.0 + items.len() as f64 * row;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {VIEW_W} {h:.0}\" role=\"img\">\
         <line x1=\"{:.0}\" x2=\"{:.0}\" y1=\"20\" y2=\"{h:.0}\" stroke=\"#999\" stroke-dasharray=\"4\"/>\
         <text x=\"{:.0}\" y=\"16\" font-size=\"{FONT}\">−1</text><text x=\"{:.0}\" y=\"16\" font-size=\"{FONT}\">0</text>\
         <text x=\"{:.0}\" y=\"16\" font-size=\"{FONT}\">+1</text>",
        x(0.0),
        x(0.0),
        x(-1.0),
        x(0.0) + 4.0,
        x(1.0) - 24.0
    );
    for (n, i) in items.iter().enumerate() {
        let y = 44.0 + n as f64 * row;
        let _ = write!(
            svg,
            "<text x=\"0\" y=\"{:.0}\" font-size=\"{FONT}\">{} ({})</text>",
            y + 6.0,
            sanitize::html(&i.qid, 16),
            i.kind
        );
        match i.d {
            Some(d) => {
                let _ = write!(
                    svg,
                    "<circle cx=\"{:.1}\" cy=\"{y:.0}\" r=\"6\" fill=\"#3a6bc0\"/>\
                     <text x=\"{:.0}\" y=\"{:.0}\" font-size=\"{FONT}\">{:+.2}</text>",
                    x(d),
                    x0 + w + 16.0,
                    y + 6.0,
                    d
                );
            }
            _ => {
                // Rows awaiting a reader are rows: said apart from an arm that has none.
                let waiting = (i.arm.n == 0 && i.arm_undecided > 0)
                    || (i.ctrl.n == 0 && i.ctrl_undecided > 0);
                let why = if waiting {
                    "an arm's rows await review"
                } else {
                    "an arm has no rows"
                };
                let _ = write!(
                    svg,
                    "<text x=\"{x0:.0}\" y=\"{:.0}\" font-size=\"{FONT}\">UNMEASURED ({why})</text>",
                    y + 6.0
                );
            }
        }
    }
    svg.push_str("</svg>");
    svg
}

/// The badge's class: the verdict's name, or `unclaimed` when nothing was there to claim it from.
fn badge_class(report: &Report) -> &'static str {
    if report.summary.verdict_claimed {
        report.summary.verdict.name()
    } else {
        "unclaimed"
    }
}

/// An id a row can be linked by: `row-<qid>-<ARM>-r<rep>`, the qid reduced to characters an
/// id and a URL fragment take as they are (others as `_xx` hex).
fn row_id(qid: &str, arm: Arm, rep: u32) -> String {
    let mut id = String::from("row-");
    for b in qid.bytes().take(60) {
        if b.is_ascii_alphanumeric() || b == b'-' {
            id.push(b as char);
        } else {
            let _ = write!(id, "_{b:02x}");
        }
    }
    let _ = write!(id, "-{}-r{rep}", arm.as_str());
    id
}

/// Reps of one (question, arm) with the same reading and the same answer, shown as one row.
struct Collapsed<'a> {
    first: &'a crate::Row,
    reps: Vec<u32>,
}

/// The rows with identical reps collapsed, in first-seen order.
fn collapse(rows: &[crate::Row]) -> Vec<Collapsed<'_>> {
    let mut out: Vec<Collapsed<'_>> = Vec::new();
    for r in rows {
        let same = |c: &Collapsed<'_>| {
            c.first.qid == r.qid
                && c.first.arm == r.arm
                && c.first.verdict == r.verdict
                && c.first.standing == r.standing
                && c.first.clarify == r.clarify
                && c.first.excerpt == r.excerpt
        };
        match out.iter_mut().find(|c| same(c)) {
            Some(c) => c.reps.push(r.rep),
            None => out.push(Collapsed {
                first: r,
                reps: vec![r.rep],
            }),
        }
    }
    out
}

/// The filters of the rows table: radio buttons and CSS only (the page runs no script). Each
/// filter hides the rows without its class.
const FILTERS: [(&str, &str, &str); 9] = [
    ("f-all", "all rows", ""),
    ("f-fired", "fired the verdict", "fired"),
    ("f-good", "good", "m-good"),
    ("f-expected", "expected", "m-expected"),
    ("f-bad", "bad", "m-bad"),
    ("f-unclear", "unclear", "m-unclear"),
    ("f-undecided", "undecided", "m-undecided"),
    ("f-arm", "ARM only", "a-ARM"),
    ("f-ctrl", "CTRL only", "a-CTRL"),
];

/// The CSS rules that make [`FILTERS`] work.
fn filter_css() -> String {
    let mut css = String::from(".filters input{margin-left:1em}");
    for (id, _, class) in FILTERS.iter().filter(|f| !f.2.is_empty()) {
        let _ = write!(
            css,
            "#{id}:checked~table.rows tr.r:not(.{class}){{display:none}}"
        );
    }
    css
}

/// The rows table: one line per distinct answer of a (question, arm) with its reps, the
/// meaning of its class for its arm and kind, an anchor per rep, filters above it.
fn rows_table(h: &mut String, report: &Report, wm: &Option<String>) {
    let fired = |r: &crate::Row| {
        report.summary.fired_by.as_ref().is_some_and(|f| {
            f.rows
                .iter()
                .any(|n| n.qid == r.qid && n.arm == r.arm && n.reps.contains(&r.rep))
        })
    };
    let groups = collapse(&report.rows);
    let _ = writeln!(
        h,
        "<h2>Rows</h2>\n<p>{} as {} (identical reps of one question and arm shown once). {}</p>",
        crate::counting::n_of(report.rows.len() as u64, "row", "rows"),
        crate::counting::n_of(groups.len() as u64, "line", "lines"),
        esc(crate::meaning::LEGEND)
    );
    h.push_str("<div class=\"filters\">show:");
    for (n, (id, label, _)) in FILTERS.iter().enumerate() {
        let _ = write!(
            h,
            "<input type=\"radio\" name=\"rowfilter\" id=\"{id}\"{}><label for=\"{id}\">{label}</label>",
            if n == 0 { " checked" } else { "" }
        );
    }
    // The radios must be the table's siblings for the CSS filters; the div closes after it.
    let _ = writeln!(
        h,
        "\n<table class=\"rows\"><tr>{}<th>qid</th><th>kind</th><th>arm</th><th>reps</th>\
         <th>verdict</th><th>decided by</th><th>meaning</th><th>clarify</th><th>label</th><th>answer (excerpt; open for the whole answer)</th></tr>",
        wm_cell(wm, "th")
    );
    for g in &groups {
        let r = g.first;
        let meaning = crate::meaning::of(r);
        let is_fired = g
            .reps
            .iter()
            .any(|&rep| fired(&crate::Row { rep, ..r.clone() }));
        let anchors: String = g
            .reps
            .iter()
            .map(|&rep| format!("<a id=\"{}\"></a>", row_id(&r.qid, r.arm, rep)))
            .collect();
        let reps = g
            .reps
            .iter()
            .map(|rep| format!("r{rep}"))
            .collect::<Vec<_>>()
            .join(",");
        let _ = writeln!(
            h,
            "<tr class=\"r m-{meaning} a-{}{}\"{}>{}<td>{anchors}{}</td><td>{}</td><td>{}</td><td>{reps}{}</td>\
             <td class=\"{meaning}\">{}</td><td>{}</td><td class=\"{meaning}\">{meaning}{}</td><td>{}</td><td>{}</td>\
             <td class=\"ans\"><details><summary>{}</summary><pre>{}</pre></details></td></tr>",
            r.arm.as_str(),
            if is_fired { " fired" } else { "" },
            wm_attr(wm),
            wm_cell(wm, "td"),
            sanitize::html(&r.qid, 40),
            r.kind,
            r.arm,
            if g.reps.len() > 1 {
                format!(" ({} identical)", g.reps.len())
            } else {
                String::new()
            },
            crate::reading::shown_with_cues(r, sanitize::html),
            esc(&crate::reading::decided_by_cell(r, &report.meta)),
            if is_fired { " (fired the verdict)" } else { "" },
            if r.clarify { "yes" } else { "" },
            sanitize::html(&r.label, 40),
            sanitize::html(&r.excerpt, sanitize::EXCERPT_MAX),
            sanitize::html_block(&r.excerpt, sanitize::FULL_ANSWER_MAX)
        );
    }
    h.push_str("</table>\n</div>\n");
}

/// The verdict's fired rows as links into the rows table.
fn fired_links(h: &mut String, report: &Report) {
    let Some(f) = &report.summary.fired_by else {
        return;
    };
    let _ = writeln!(
        h,
        "<p>{} (each row below links to it in the rows table):</p>\n<ul class=\"fired\">",
        esc(&crate::rules::rule_sentence(&report.summary, f))
    );
    for n in &f.rows {
        let _ = writeln!(
            h,
            "<li><a href=\"#{}\">{}</a></li>",
            row_id(&n.qid, n.arm, n.reps[0]),
            sanitize::html(&n.sentence(), 200)
        );
    }
    h.push_str("</ul>\n");
}

/// One numbers table (a section of number lines).
fn numbers_table(h: &mut String, wm: &Option<String>, lines: &[&crate::NumberLine]) {
    let _ = writeln!(
        h,
        "<table class=\"numbers\"><tr>{}<th>number</th><th>value</th><th>note</th></tr>",
        wm_cell(wm, "th")
    );
    for l in lines {
        let _ = writeln!(
            h,
            "<tr{}>{}<td>{}</td><td>{}</td><td>{}</td></tr>",
            wm_attr(wm),
            wm_cell(wm, "td"),
            sanitize::html(&l.label, 80),
            esc(&l.value.display()),
            esc(&l.note)
        );
    }
    h.push_str("</table>\n");
}

/// Whether a number section is the per-item D one (shown once, with its chart).
/// The arm × time section: the start strip and the per-bucket counts, or "not recorded".
fn arm_time(h: &mut String, report: &Report, wm: &Option<String>) {
    let spans = &report.meta.timeline;
    let _ = writeln!(
        h,
        "<h2>Arm × time (dispatch starts)</h2>\n<figure{}><figcaption>{}ticks: each dispatch's start, \
         ARM above CTRL, on the round's time axis</figcaption>",
        wm_attr(wm),
        wm_cell(wm, "span")
    );
    if let Some(svg) = crate::timeline::svg(spans) {
        h.push_str(&svg);
        h.push('\n');
    }
    let lines = crate::timeline::lines(spans);
    let _ = writeln!(
        h,
        "<pre class=\"timeline\">{}</pre></figure>",
        esc(&lines.join("\n"))
    );
}

/// The effort section: ARM relative to CTRL per axis and measure (a dot and its interval), the
/// per-axis lines and the per-item table; "not recorded" or "not reported" where so.
fn effort(h: &mut String, report: &Report, wm: &Option<String>) {
    let e = crate::effort::summarize(report);
    let lines = e.lines();
    let _ = writeln!(
        h,
        "<h2>Effort (ARM vs CTRL)</h2>\n<figure{}><figcaption>{}{}</figcaption>{}</figure>",
        wm_attr(wm),
        wm_cell(wm, "span"),
        esc(lines.first().map(String::as_str).unwrap_or_default()),
        e.svg().unwrap_or_default()
    );
    if lines.len() < 2 {
        return;
    }
    h.push_str("<table class=\"effort\">\n");
    for l in lines.iter().skip(1) {
        let _ = writeln!(
            h,
            "<tr{}>{}<td>{}</td></tr>",
            wm_attr(wm),
            wm_cell(wm, "td"),
            esc(l)
        );
    }
    h.push_str("</table>\n");
    if e.items.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<table class=\"effort-items\"><tr>{}<th>qid</th><th>kind</th>",
        wm_cell(wm, "th")
    );
    for m in crate::effort::Metric::ALL {
        let _ = write!(h, "<th>{} (ARM / CTRL)</th>", esc(m.label()));
    }
    h.push_str("</tr>\n");
    for r in e.item_rows() {
        let _ = write!(h, "<tr{}>{}", wm_attr(wm), wm_cell(wm, "td"));
        for c in r {
            let _ = write!(h, "<td>{}</td>", esc(&c));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

fn is_items_section(section: &str) -> bool {
    section.starts_with("Per-item D")
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
             <title>harness round report</title><style>{CSS}{}</style></head><body>\n\
             <h1>harness round report</h1>\n",
            filter_css()
        );
        let _ = writeln!(
            h,
            "<div class=\"badge v-{cls}\" data-verdict=\"{cls}\">{}<small>exit {}</small></div>\n\
             <table class=\"header\">",
            esc(&s.verdict_display()),
            s.verdict.exit_code(),
            cls = badge_class(report)
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
            esc(&s.verdict_reason)
        );
        fired_links(&mut h, report);

        let _ = writeln!(
            h,
            "<h2>ARM / CTRL per axis (good rate; 95% over items, per bar, unadjusted)</h2>\n<figure{}><figcaption>{prefix}\
             bars are good rows of all rows of the axis in each arm; whiskers are 95% intervals over items \
             (Wilson at the items' effective sample size), not over rows</figcaption>{}</figure>",
            wm_attr(wm),
            axis_bars(report)
        );
        let lines = s.number_lines();
        let items: Vec<&crate::NumberLine> = lines
            .iter()
            .filter(|l| is_items_section(l.section))
            .collect();
        let _ = writeln!(
            h,
            "<h2>{}</h2>\n<figure{}><figcaption>{prefix}\
             each item's D (its Fisher p is in the table below; the intervals are the paired ones over items)</figcaption>{}</figure>",
            esc(crate::summary::ITEMS_SECTION),
            wm_attr(wm),
            d_chart(report)
        );
        numbers_table(&mut h, wm, &items);

        let mut i = 0;
        while i < lines.len() {
            let section = lines[i].section;
            let mut group = Vec::new();
            while i < lines.len() && lines[i].section == section {
                group.push(&lines[i]);
                i += 1;
            }
            if is_items_section(section) {
                continue;
            }
            let _ = writeln!(h, "<h2>{}</h2>", esc(section));
            numbers_table(&mut h, wm, &group);
        }

        arm_time(&mut h, report, wm);
        effort(&mut h, report, wm);

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

        rows_table(&mut h, report, wm);
        h.push_str("<h2>What this does not measure</h2>\n<ul>\n");
        for l in DOES_NOT_MEASURE {
            let _ = writeln!(
                h,
                "<li><strong>{}</strong>: {}</li>",
                esc(l.title),
                esc(l.text)
            );
        }
        h.push_str("</ul>\n</body></html>\n");
        h
    }

    fn file_name(&self) -> &'static str {
        "report.html"
    }
}
