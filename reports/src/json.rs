//! `summary.json`: the whole round, machine-readable, one versioned schema (see `SCHEMA.md`).
//!
//! Every number object and every row carries a `watermark` field (a string in a watermarked
//! round, `null` otherwise). [`read`] takes `meta` and `rows` back; numbers are recomputed.

use crate::sanitize;
use crate::summary::{Value, DOES_NOT_MEASURE};
use crate::{Error, Proportion, Render, Report, RoundMeta, Row};
use serde::Deserialize;
use serde_json::{json, Value as J};

/// The schema version this build writes and reads. Bump on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// Longest question text kept in `meta.questions`.
const QUESTION_MAX: usize = 500;

/// Renders `summary.json`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

fn num(x: Option<f64>) -> J {
    x.map(|v| json!(v)).unwrap_or(J::Null)
}

fn proportion(p: &Proportion) -> J {
    let i = p.interval();
    json!({
        "k": p.k, "n": p.n, "items": p.items, "p": num(p.p()),
        "lo": num(i.map(|i| i.lo)), "hi": num(i.map(|i| i.hi)),
        "interval_over": "items",
        "n_eff": num(p.over_items.map(|o| o.n_eff)),
        "n_kg": num(p.over_items.map(|o| o.n_kg)),
        "clipped": i.map(|i| i.clipped),
        "degenerate": i.map(|i| i.degenerate()),
    })
}

fn mcnemar(m: &crate::McNemar) -> J {
    json!({"b": m.b, "c": m.c, "p": num(m.p), "min_p": num(m.min_p)})
}

fn value(v: &Value) -> J {
    match v {
        Value::Proportion(p) => {
            let mut o = proportion(p);
            o["type"] = json!("proportion");
            o
        }
        Value::Count { count } => json!({"type": "count", "count": count}),
        Value::ItemD(i) => json!({
            "type": "item_d",
            "qid": sanitize::excerpt(&i.qid, 200),
            "kind": i.kind,
            "arm": proportion(&i.arm),
            "ctrl": proportion(&i.ctrl),
            "d": num(i.d),
            "p": num(i.p),
            "p_holm": num(i.p_holm),
        }),
        Value::Contrast { contrast } => json!({
            "type": "contrast",
            "items": contrast.map(|c| c.items).unwrap_or(0),
            "interval_of": "median item difference (exact sign-test inversion)",
            "median": num(contrast.map(|c| c.median)),
            "mean": num(contrast.map(|c| c.mean)),
            "lo": num(contrast.map(|c| c.interval.lo)),
            "hi": num(contrast.map(|c| c.interval.hi)),
            "whole_range": contrast.map(|c| c.whole_range),
            "p": num(contrast.map(|c| c.p)),
        }),
        Value::McNemar(m) => {
            let mut o = mcnemar(m);
            o["type"] = json!("mcnemar");
            o
        }
        Value::Sign { test, zero_d } => {
            let mut o = mcnemar(test);
            o["type"] = json!("sign");
            o["zero_d"] = json!(zero_d);
            o
        }
        Value::Agreement { n, agree, kappa } => {
            json!({"type": "agreement", "n": n, "agree": agree, "kappa": kappa})
        }
        Value::Unmeasured => json!({"type": "unmeasured"}),
    }
}

/// The meta as written: untrusted names and question texts sanitized.
fn clean_meta(meta: &RoundMeta) -> RoundMeta {
    let mut m = meta.clone();
    m.seal_name = m.seal_name.map(|s| sanitize::excerpt(&s, 200));
    m.qset_name = sanitize::excerpt(&m.qset_name, 200);
    m.ledger = sanitize::excerpt(&m.ledger, 20);
    m.judge = m.judge.map(|j| j.cleaned());
    for q in &mut m.uncarried {
        *q = sanitize::excerpt(q, 200);
    }
    for r in &mut m.reviewers {
        *r = sanitize::excerpt(r, 80);
    }
    for from in m.reused_from.values_mut() {
        *from = sanitize::excerpt(from, 80);
    }
    m.reused_here = m
        .reused_here
        .iter()
        .map(|r| sanitize::excerpt(r, 80))
        .collect();
    for q in &mut m.questions {
        q.qid = sanitize::excerpt(&q.qid, 200);
        q.question = sanitize::excerpt(&q.question, QUESTION_MAX);
    }
    m
}

impl Render for Json {
    fn render(&self, report: &Report) -> String {
        let s = &report.summary;
        let wm = s.watermark.clone();
        let numbers: Vec<J> = s
            .number_lines()
            .iter()
            .map(|l| {
                json!({
                    "watermark": wm,
                    "key": sanitize::excerpt(&l.key, 220),
                    "section": l.section,
                    "label": sanitize::excerpt(&l.label, 200),
                    "display": l.value.display(),
                    "value": value(&l.value),
                    "note": l.note,
                })
            })
            .collect();
        let rows: Vec<J> = report
            .rows
            .iter()
            .map(|r| {
                let mut row = json!({
                    "watermark": wm,
                    "qid": sanitize::excerpt(&r.qid, 200),
                    "kind": r.kind,
                    "arm": r.arm,
                    "rep": r.rep,
                    "verdict": crate::reading::shown(r),
                    "meaning": crate::meaning::of(r),
                    "decided_by": r.standing.decided_by().map(|b| b.as_str()),
                    "decided_by_shown": crate::reading::decided_by_cell(r, &report.meta),
                    "standing": r.standing,
                    "clarify": r.clarify,
                    "label": sanitize::excerpt(&r.label, 200),
                    "excerpt": sanitize::excerpt(&r.excerpt, sanitize::EXCERPT_MAX),
                });
                // Both readers' classes, only on rows a judge read.
                if let Some(readings) = &r.readings {
                    row["readings"] = json!(readings);
                }
                row
            })
            .collect();
        let mut doc = json!({
            "schema_version": SCHEMA_VERSION,
            "manifest": report.meta.manifest,
            "verdict": {
                "name": s.verdict.name(),
                "exit_code": s.verdict.exit_code(),
                "claimed": s.verdict_claimed,
                "detail": s.verdict_detail,
                "fired_by": s.fired_by,
            },
            "watermark": wm,
            "readers": {
                "decided_by": s.decided_by,
                "undecided": s.undecided.iter().map(|u| json!({
                    "qid": sanitize::excerpt(&u.qid, 200),
                    "kind": u.kind,
                    "arm": u.arm,
                    "rep": u.rep,
                    "label": sanitize::excerpt(&u.label, 200),
                    "state": u.state,
                    "guess": u.guess.as_str(),
                    "decides_verdict": u.decides_verdict,
                    "for_person": u.for_person.as_deref().map(|w| sanitize::excerpt(w, 300)),
                })).collect::<Vec<_>>(),
            },
            "conflict_axis_stands": s.conflict_axis_stands,
            "label_withheld": s.label_withheld,
            "meta": clean_meta(&report.meta),
            "numbers": numbers,
            "rows": rows,
            "does_not_measure": DOES_NOT_MEASURE
                .iter()
                .map(|l| json!({"id": l.id, "title": l.title, "text": l.text}))
                .collect::<Vec<_>>(),
        });
        // Effort per arm: beside the numbers, never one of them (no verdict reads it).
        doc["effort"] = crate::effort::summarize(report).json();
        // Lexicon-vs-judge agreement and Cohen's κ per kind, once a judge read any row.
        if !s.agreement.is_empty() {
            doc["readers"]["agreement"] = json!(s.agreement);
        }
        let mut text = serde_json::to_string_pretty(&doc).expect("a json! value always serializes");
        text.push('\n');
        text
    }

    fn file_name(&self) -> &'static str {
        "summary.json"
    }
}

#[derive(Deserialize)]
struct StoredRow {
    qid: String,
    kind: scorer::Kind,
    arm: scorer::Arm,
    rep: u32,
    verdict: String,
    clarify: bool,
    label: String,
    excerpt: String,
    #[serde(default)]
    standing: Option<crate::reading::Standing>,
    #[serde(default)]
    readings: Option<crate::reading::Readings>,
}

#[derive(Deserialize)]
struct Stored {
    schema_version: u32,
    meta: RoundMeta,
    rows: Vec<StoredRow>,
}

/// Reads a `summary.json` back into a [`Report`]; the summary is recomputed from its rows.
pub fn read(text: &str, file: &str) -> Result<Report, Error> {
    let jerr = |source| Error::Json {
        file: file.to_string(),
        source,
    };
    let version: J = serde_json::from_str(text).map_err(jerr)?;
    let found = version["schema_version"].as_u64().unwrap_or(0) as u32;
    if found != SCHEMA_VERSION {
        return Err(Error::Schema {
            file: file.to_string(),
            found,
            expected: SCHEMA_VERSION,
        });
    }
    let stored: Stored = serde_json::from_value(version).map_err(jerr)?;
    debug_assert_eq!(stored.schema_version, SCHEMA_VERSION);
    let mut rows = Vec::with_capacity(stored.rows.len());
    for (i, r) in stored.rows.into_iter().enumerate() {
        let (verdict, shown_standing) =
            crate::reading::parse_shown(&r.verdict).map_err(|e: String| {
                jerr(serde::de::Error::custom(format!("rows[{i}].verdict: {e}")))
            })?;
        rows.push(Row {
            qid: r.qid,
            kind: r.kind,
            arm: r.arm,
            rep: r.rep,
            verdict,
            clarify: r.clarify,
            label: r.label,
            excerpt: r.excerpt,
            standing: r.standing.unwrap_or(shown_standing),
            readings: r.readings,
        });
    }
    Ok(Report::new(stored.meta, rows))
}
