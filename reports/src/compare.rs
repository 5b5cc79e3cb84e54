//! `harness compare A B`: did round B's hand-off carry more than round A's, on the same sealed
//! questions? Pure: two reports and what their records say about them go in, a [`Comparison`]
//! and its four renderings (text, Markdown, JSON, HTML) come out.
//!
//! Items are the unit and the two rounds are paired by item: per axis the A→B difference is the
//! mean over items of (B's ARM rate − A's ARM rate), with a t-interval over items, an exact sign
//! test on the items' difference signs and an exact McNemar on item majorities. Only ARM is
//! compared: it is the arm the hand-off reaches. Two rounds are comparable only on the same
//! sealed qset and the same base; anything else is refused naming the field.

use crate::sanitize;
use crate::stats::{self, McNemar, PairedContrast};
use crate::summary::is_good;
use crate::{Proportion, Report, Row};
use scorer::{Arm, Kind};
use serde::Serialize;
use serde_json::json;
use std::fmt::Write;

/// What a round's record says about how it ran: the fields a comparison checks or states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundIdentity {
    /// How the round is named on the command line (its out-dir).
    pub name: String,
    /// sha256 of the qset bytes.
    pub qset_sha256: String,
    /// The base commit.
    pub base_sha: String,
    /// sha256 of the seal bytes; `None` for a CTRL-only round.
    pub seal_sha256: Option<String>,
    /// The agent.
    pub agent: String,
    /// The model, when given.
    pub model: Option<String>,
    /// The harness version that ran it.
    pub harness_version: String,
    /// Reps per (question, arm).
    pub reps: u32,
    /// The sandbox mode.
    pub sandbox: String,
    /// The scorer's fingerprint.
    pub scorer: String,
    /// `--deliver`.
    pub deliver: bool,
    /// How many rounds of this one design were pooled (1 for a single round; a folder of
    /// rounds pools its items' rows across rounds).
    pub rounds: u32,
}

/// A round's ledger as a comparison states it: `strict`, or `report` with the positives its
/// seal does not carry (a thinner hand-off is what a comparison often measures).
fn ledger_word(m: &crate::RoundMeta) -> String {
    if !m.ledger_reports() {
        return crate::LEDGER_STRICT.into();
    }
    if m.uncarried.is_empty() {
        "report (every positive carried)".into()
    } else {
        format!("report (seal lacks {})", m.uncarried.join(", "))
    }
}

/// Why two rounds cannot be compared: the field and its two values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incomparable {
    /// `qset` or `base`.
    pub field: &'static str,
    /// A's value.
    pub a: String,
    /// B's value.
    pub b: String,
}

/// Which way an item's majority outcome moved from A to B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flip {
    /// Good in A (more than half the reps), not good in B.
    GoodToBad,
    /// Not good in A, good in B.
    BadToGood,
}

/// One item, A against B (ARM rows).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemComparison {
    /// The item.
    pub qid: String,
    /// Its kind.
    pub kind: Kind,
    /// A's ARM rows of the item: the axis's rate (DELIVERY good, HUI not-good, CARRIER-READ good).
    pub a: Proportion,
    /// B's.
    pub b: Proportion,
    /// `rate B − rate A`; `None` when a side has no ARM rows for the item.
    pub diff: Option<f64>,
    /// The majority flip, when there is one.
    pub flip: Option<Flip>,
    /// Two-sided Fisher exact p of A's k/n against B's, treating the item's reps as
    /// independent draws of one answer distribution per round; per line, unadjusted. `None`
    /// when a side has no rows.
    pub p: Option<f64>,
    /// Holm-adjusted `p` over the family of items with a `p`.
    pub p_holm: Option<f64>,
    /// A's answers (untrusted; sanitized by every renderer).
    pub answers_a: Vec<String>,
    /// B's answers.
    pub answers_b: Vec<String>,
}

/// One axis, A against B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AxisComparison {
    /// The axis.
    pub kind: Kind,
    /// What is compared (`DELIVERY (ARM)`, `HUI (ARM)`, `CARRIER-READ (ARM)`).
    pub name: &'static str,
    /// A's rate over all its ARM rows of the axis, interval over items.
    pub a: Proportion,
    /// B's.
    pub b: Proportion,
    /// Mean over paired items of (B − A), t-interval over items; `None` with no paired item.
    pub diff: Option<PairedContrast>,
    /// Exact sign test on item differences: `b` items up, `c` items down.
    pub sign: McNemar,
    /// Items whose difference is exactly 0.
    pub unchanged: u64,
    /// Exact McNemar on item majorities of the axis's rate: `b` = items whose rate crossed
    /// above half from A to B, `c` = below.
    pub mcnemar: McNemar,
    /// Items with a tied majority (half the reps) on a side, not in McNemar.
    pub ties: u64,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Round A.
    pub a: RoundIdentity,
    /// Round B.
    pub b: RoundIdentity,
    /// What differs between the rounds: `(field, A, B)`, stated first in every format.
    pub differences: Vec<(String, String, String)>,
    /// Nothing differs but the run itself: the result is the noise floor of this setup.
    pub noise_floor: bool,
    /// Per axis.
    pub axes: Vec<AxisComparison>,
    /// Per item, in A's qset order.
    pub items: Vec<ItemComparison>,
}

/// The axis's name and whether its rate counts the good rows (`true`) or the not-good (HUI).
fn axis(kind: Kind) -> (&'static str, bool) {
    match kind {
        Kind::Positive => ("DELIVERY (ARM)", true),
        Kind::Negative => ("HUI (ARM)", false),
        Kind::Conflict => ("CARRIER-READ (ARM)", true),
    }
}

fn arm_rows<'a>(rows: &'a [Row], qid: &'a str) -> impl Iterator<Item = &'a Row> + Clone {
    rows.iter()
        .filter(move |r| r.arm == Arm::Arm && r.qid == qid)
}

fn hit(kind: Kind) -> impl Fn(&Row) -> bool {
    let (_, good) = axis(kind);
    move |r| is_good(r) == good
}

/// Compares two rounds, or says which field makes them incomparable.
pub fn compare(
    a: &RoundIdentity,
    ra: &Report,
    b: &RoundIdentity,
    rb: &Report,
) -> Result<Comparison, Incomparable> {
    if a.qset_sha256 != b.qset_sha256 {
        return Err(Incomparable {
            field: "qset",
            a: a.qset_sha256.clone(),
            b: b.qset_sha256.clone(),
        });
    }
    if a.base_sha != b.base_sha {
        return Err(Incomparable {
            field: "base",
            a: a.base_sha.clone(),
            b: b.base_sha.clone(),
        });
    }
    let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "(none)".into());
    let mut differences = Vec::new();
    for (field, x, y) in [
        ("seal sha256", opt(&a.seal_sha256), opt(&b.seal_sha256)),
        ("agent", a.agent.clone(), b.agent.clone()),
        ("model", opt(&a.model), opt(&b.model)),
        (
            "harness version",
            a.harness_version.clone(),
            b.harness_version.clone(),
        ),
        ("reps", a.reps.to_string(), b.reps.to_string()),
        ("rounds pooled", a.rounds.to_string(), b.rounds.to_string()),
        ("sandbox", a.sandbox.clone(), b.sandbox.clone()),
        ("scorer", a.scorer.clone(), b.scorer.clone()),
        ("deliver", a.deliver.to_string(), b.deliver.to_string()),
        ("ledger", ledger_word(&ra.meta), ledger_word(&rb.meta)),
    ] {
        if x != y {
            differences.push((field.to_string(), x, y));
        }
    }
    let noise_floor = differences.is_empty();

    let mut items = Vec::new();
    for q in &ra.meta.questions {
        let kind = q.kind;
        let count = |rows: &[Row]| {
            let mut k = 0;
            let mut n = 0;
            for r in arm_rows(rows, &q.qid) {
                n += 1;
                if hit(kind)(r) {
                    k += 1;
                }
            }
            Proportion::from_items(&[(k, n)])
        };
        let (pa, pb) = (count(&ra.rows), count(&rb.rows));
        let diff = match (pa.p(), pb.p()) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        };
        let majority = |p: &Proportion| match (2 * p.k).cmp(&p.n) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        };
        let (_, good_is_hit) = axis(kind);
        let good = |p: &Proportion| majority(p).map(|m| m == good_is_hit);
        let flip = match (pa.n > 0 && pb.n > 0, good(&pa), good(&pb)) {
            (true, Some(true), Some(false)) => Some(Flip::GoodToBad),
            (true, Some(false), Some(true)) => Some(Flip::BadToGood),
            _ => None,
        };
        let answers = |rows: &[Row]| arm_rows(rows, &q.qid).map(|r| r.excerpt.clone()).collect();
        items.push(ItemComparison {
            qid: q.qid.clone(),
            kind,
            a: pa,
            b: pb,
            diff,
            flip,
            p: stats::fisher_exact(pa.k, pa.n - pa.k, pb.k, pb.n - pb.k),
            p_holm: None,
            answers_a: answers(&ra.rows),
            answers_b: answers(&rb.rows),
        });
    }

    let family: Vec<Option<f64>> = items.iter().map(|i| i.p).collect();
    for (i, adj) in items.iter_mut().zip(stats::holm(&family)) {
        i.p_holm = adj;
    }
    let axes = Kind::ALL
        .iter()
        .map(|&kind| axis_comparison(kind, ra, rb, &items))
        .collect();
    Ok(Comparison {
        a: a.clone(),
        b: b.clone(),
        differences,
        noise_floor,
        axes,
        items,
    })
}

fn axis_comparison(
    kind: Kind,
    ra: &Report,
    rb: &Report,
    items: &[ItemComparison],
) -> AxisComparison {
    let rate = |rows: &[Row]| {
        Proportion::count(
            rows.iter(),
            |r| r.arm == Arm::Arm && r.kind == kind,
            hit(kind),
        )
    };
    let of: Vec<&ItemComparison> = items.iter().filter(|i| i.kind == kind).collect();
    let diffs: Vec<f64> = of.iter().filter_map(|i| i.diff).collect();
    let up = diffs.iter().filter(|&&d| d > 0.0).count() as u64;
    let down = diffs.iter().filter(|&&d| d < 0.0).count() as u64;
    let (mut b, mut c, mut ties) = (0u64, 0u64, 0u64);
    for i in of.iter().filter(|i| i.diff.is_some()) {
        let m = |p: &Proportion| match (2 * p.k).cmp(&p.n) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        };
        match (m(&i.a), m(&i.b)) {
            (Some(false), Some(true)) => b += 1,
            (Some(true), Some(false)) => c += 1,
            (Some(_), Some(_)) => {}
            _ => ties += 1,
        }
    }
    AxisComparison {
        kind,
        name: axis(kind).0,
        a: rate(&ra.rows),
        b: rate(&rb.rows),
        diff: stats::paired_contrast(&diffs),
        sign: stats::sign_test(up, down),
        unchanged: diffs.len() as u64 - up - down,
        mcnemar: stats::mcnemar_exact(b, c),
        ties,
    }
}

fn p_text(t: &McNemar) -> String {
    match (t.p, t.min_p) {
        (Some(p), Some(m)) => format!("p={p:.4} (smallest reachable {m:.4})"),
        _ => "p=UNMEASURED (no item moved)".into(),
    }
}

impl AxisComparison {
    /// `+0.250 [−0.1, +0.6] over 4 items`, or why there is none.
    pub fn diff_display(&self) -> String {
        match &self.diff {
            None => "UNMEASURED (no item with ARM rows in both rounds)".into(),
            Some(c) => match c.interval {
                Some(i) => format!("{:+.3} {} over {} items", c.mean, i.display(true), c.items),
                None => format!("{:+.3} over 1 item, no interval", c.mean),
            },
        }
    }

    /// The sign test as printed.
    pub fn sign_display(&self) -> String {
        format!(
            "up {} · down {} · unchanged {} · {}",
            self.sign.b,
            self.sign.c,
            self.unchanged,
            p_text(&self.sign)
        )
    }

    /// McNemar as printed.
    pub fn mcnemar_display(&self) -> String {
        format!(
            "b={} c={} ties={} · {}",
            self.mcnemar.b,
            self.mcnemar.c,
            self.ties,
            p_text(&self.mcnemar)
        )
    }
}

impl Comparison {
    /// The first thing every format says: the noise floor, or what differs.
    pub fn headline(&self) -> String {
        if self.noise_floor {
            "NOISE FLOOR: A and B ran the same seal, agent, model, harness, reps, sandbox and \
             scorer; every difference below is run-to-run noise of this setup"
                .into()
        } else {
            let fields: Vec<&str> = self.differences.iter().map(|d| d.0.as_str()).collect();
            format!("A and B differ in: {}", fields.join(", "))
        }
    }

    fn flipped(&self) -> impl Iterator<Item = &ItemComparison> {
        self.items.iter().filter(|i| i.flip.is_some())
    }
}

/// Every interval here is 95%, per line, unadjusted.
const METHOD: &str = "A→B difference = mean over paired items of (B's ARM rate − A's ARM rate), \
                      95% t-interval over items (per line, unadjusted); exact sign test on item \
                      difference signs; exact McNemar on item majorities (ties counted, not tested). \
                      Rates: 95% over items.";

fn flip_name(f: Flip) -> &'static str {
    match f {
        Flip::GoodToBad => "good→bad",
        Flip::BadToGood => "bad→good",
    }
}

/// Plain text for a terminal.
pub fn text(c: &Comparison) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "harness compare\n{}", c.headline());
    for (f, x, y) in &c.differences {
        let _ = writeln!(
            s,
            "  {f}: A {} → B {}",
            sanitize::terminal(x, 80),
            sanitize::terminal(y, 80)
        );
    }
    let _ = writeln!(s, "A: {}", sanitize::terminal(&c.a.name, 200));
    let _ = writeln!(s, "B: {}", sanitize::terminal(&c.b.name, 200));
    let _ = writeln!(
        s,
        "same qset {} · same base {}",
        &c.a.qset_sha256, &c.a.base_sha
    );
    let _ = writeln!(s, "\n── per axis ({METHOD}) ──");
    for a in &c.axes {
        let _ = writeln!(s, "{}", a.name);
        let _ = writeln!(s, "  A      {}", a.a.display());
        let _ = writeln!(s, "  B      {}", a.b.display());
        let _ = writeln!(s, "  B−A    {}", a.diff_display());
        let _ = writeln!(s, "  sign   {}", a.sign_display());
        let _ = writeln!(s, "  McNemar {}", a.mcnemar_display());
    }
    let _ = writeln!(
        s,
        "\n── per item (ARM; B−A of the axis's rate; {ITEM_P}) ──"
    );
    for i in &c.items {
        let d = i
            .diff
            .map(|d| format!("{d:+.3}"))
            .unwrap_or("UNMEASURED".into());
        let _ = writeln!(
            s,
            "{} {} A {}/{} → B {}/{}  {d}  p {}  Holm {}{}",
            sanitize::terminal(&i.qid, 60),
            i.kind,
            i.a.k,
            i.a.n,
            i.b.k,
            i.b.n,
            pval(i.p),
            pval(i.p_holm),
            i.flip
                .map(|f| format!("  FLIPPED {}", flip_name(f)))
                .unwrap_or_default()
        );
    }
    let _ = writeln!(s, "\n── flipped items ──");
    let mut any = false;
    for i in c.flipped() {
        any = true;
        let _ = writeln!(
            s,
            "{} ({})",
            sanitize::terminal(&i.qid, 60),
            flip_name(i.flip.unwrap())
        );
        for a in &i.answers_a {
            let _ = writeln!(s, "  A: {}", sanitize::terminal(a, 120));
        }
        for b in &i.answers_b {
            let _ = writeln!(s, "  B: {}", sanitize::terminal(b, 120));
        }
    }
    if !any {
        s.push_str("none\n");
    }
    s
}

/// What the per-item p and Holm columns are, said wherever they are shown.
const ITEM_P: &str =
    "p: Fisher exact of A's rows against B's, treating an item's reps as independent \
                      draws, per line, unadjusted; Holm: adjusted over the items";

/// A p-value as the per-item columns show it, `UNMEASURED` when there is none.
fn pval(p: Option<f64>) -> String {
    p.map(|p| format!("{p:.4}")).unwrap_or("UNMEASURED".into())
}

/// GitHub-flavoured Markdown.
pub fn markdown(c: &Comparison) -> String {
    let md = |t: &str| sanitize::markdown(t, 200);
    let mut s = String::new();
    let _ = writeln!(s, "# harness compare\n\n**{}**\n", c.headline());
    if !c.differences.is_empty() {
        s.push_str("| field | A | B |\n|---|---|---|\n");
        for (f, x, y) in &c.differences {
            let _ = writeln!(s, "| {f} | {} | {} |", md(x), md(y));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "- A: {}\n- B: {}\n- same qset `{}`, same base `{}`\n",
        md(&c.a.name),
        md(&c.b.name),
        c.a.qset_sha256,
        c.a.base_sha
    );
    let _ = writeln!(s, "## Per axis\n\n{METHOD}\n");
    s.push_str("| axis | A | B | B−A | sign test | McNemar |\n|---|---|---|---|---|---|\n");
    for a in &c.axes {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            a.name,
            a.a.display(),
            a.b.display(),
            a.diff_display(),
            a.sign_display(),
            a.mcnemar_display()
        );
    }
    let _ = write!(
        s,
        "\n## Per item\n\n{ITEM_P}.\n\n| qid | kind | A | B | B−A | p (unadjusted) | Holm p | flip |\n|---|---|---|---|---|---|---|---|\n"
    );
    for i in &c.items {
        let _ = writeln!(
            s,
            "| {} | {} | {}/{} | {}/{} | {} | {} | {} | {} |",
            md(&i.qid),
            i.kind,
            i.a.k,
            i.a.n,
            i.b.k,
            i.b.n,
            i.diff
                .map(|d| format!("{d:+.3}"))
                .unwrap_or("UNMEASURED".into()),
            pval(i.p),
            pval(i.p_holm),
            i.flip.map(flip_name).unwrap_or("")
        );
    }
    s.push_str("\n## Flipped items\n\n");
    let mut any = false;
    for i in c.flipped() {
        any = true;
        let _ = writeln!(s, "### {} ({})\n", md(&i.qid), flip_name(i.flip.unwrap()));
        for a in &i.answers_a {
            let _ = writeln!(s, "- A: {}", md(a));
        }
        for b in &i.answers_b {
            let _ = writeln!(s, "- B: {}", md(b));
        }
        s.push('\n');
    }
    if !any {
        s.push_str("none\n");
    }
    s
}

/// One JSON document (`compare_schema_version: 1`).
pub fn json(c: &Comparison) -> String {
    let clean = |t: &str| sanitize::excerpt(t, 500);
    let prop = |p: &Proportion| {
        let i = p.interval();
        json!({"k": p.k, "n": p.n, "items": p.items, "p": p.p(),
               "lo": i.map(|i| i.lo), "hi": i.map(|i| i.hi), "interval_over": "items"})
    };
    let test = |t: &McNemar| json!({"b": t.b, "c": t.c, "p": t.p, "min_p": t.min_p});
    let id = |r: &RoundIdentity| {
        json!({"name": clean(&r.name), "qset_sha256": r.qset_sha256, "base_sha": r.base_sha,
               "seal_sha256": r.seal_sha256, "agent": clean(&r.agent),
               "model": r.model.as_deref().map(clean), "harness_version": r.harness_version,
               "reps": r.reps, "rounds": r.rounds, "sandbox": r.sandbox, "scorer": r.scorer, "deliver": r.deliver})
    };
    let doc = json!({
        "compare_schema_version": 1,
        "headline": c.headline(),
        "noise_floor": c.noise_floor,
        "differences": c.differences.iter().map(|(f, x, y)| json!({"field": f, "a": clean(x), "b": clean(y)})).collect::<Vec<_>>(),
        "a": id(&c.a),
        "b": id(&c.b),
        "method": METHOD,
        "axes": c.axes.iter().map(|a| json!({
            "kind": a.kind, "name": a.name, "a": prop(&a.a), "b": prop(&a.b),
            "diff": a.diff.map(|d| json!({"items": d.items, "mean": d.mean,
                "lo": d.interval.map(|i| i.lo), "hi": d.interval.map(|i| i.hi),
                "clipped": d.interval.map(|i| i.clipped), "degenerate": d.interval.map(|i| i.degenerate())})),
            "sign": test(&a.sign), "unchanged": a.unchanged,
            "mcnemar": test(&a.mcnemar), "ties": a.ties,
        })).collect::<Vec<_>>(),
        "items": c.items.iter().map(|i| json!({
            "qid": clean(&i.qid), "kind": i.kind, "a": prop(&i.a), "b": prop(&i.b),
            "diff": i.diff, "flip": i.flip, "p": i.p, "p_holm": i.p_holm,
            "answers_a": i.answers_a.iter().map(|t| clean(t)).collect::<Vec<_>>(),
            "answers_b": i.answers_b.iter().map(|t| clean(t)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("a JSON value serializes");
    s.push('\n');
    s
}

/// One self-contained page (no script, no network): the headline, the axes, the items; each
/// flipped item opens to both rounds' answers (one click, `<details>`).
pub fn html(c: &Comparison) -> String {
    let e = sanitize::html_escape;
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>harness compare</title><style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
         table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}\
         .headline{font-size:1.3em;font-weight:bold;padding:.4em;background:#eef}\
         .noise{background:#ffe9b3}tr.flip td{background:#fff1c2}pre{white-space:pre-wrap;margin:.2em 0}</style></head><body>\n\
         <h1>harness compare</h1>\n",
    );
    let _ = writeln!(
        h,
        "<p class=\"headline{}\" data-noise-floor=\"{}\">{}</p>",
        if c.noise_floor { " noise" } else { "" },
        c.noise_floor,
        e(&c.headline())
    );
    if !c.differences.is_empty() {
        h.push_str("<table class=\"differences\"><tr><th>field</th><th>A</th><th>B</th></tr>\n");
        for (f, x, y) in &c.differences {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                e(f),
                sanitize::html(x, 200),
                sanitize::html(y, 200)
            );
        }
        h.push_str("</table>\n");
    }
    let _ = writeln!(
        h,
        "<p>A: {}<br>B: {}<br>same qset <code>{}</code>, same base <code>{}</code></p>",
        sanitize::html(&c.a.name, 200),
        sanitize::html(&c.b.name, 200),
        e(&c.a.qset_sha256),
        e(&c.a.base_sha)
    );
    let _ = writeln!(h, "<h2>Per axis</h2>\n<p>{}</p>", e(METHOD));
    h.push_str("<table class=\"axes\"><tr><th>axis</th><th>A</th><th>B</th><th>B−A</th><th>sign test</th><th>McNemar</th></tr>\n");
    for a in &c.axes {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            e(a.name),
            e(&a.a.display()),
            e(&a.b.display()),
            e(&a.diff_display()),
            e(&a.sign_display()),
            e(&a.mcnemar_display())
        );
    }
    let _ = writeln!(
        h,
        "</table>\n<h2>Per item</h2>\n<p>{}.</p>\n<table class=\"items\"><tr><th>qid</th><th>kind</th><th>A</th><th>B</th><th>B−A</th><th>p (unadjusted)</th><th>Holm p</th><th>flip and answers</th></tr>",
        e(ITEM_P)
    );
    for i in &c.items {
        let answers = |v: &[String], side: &str| {
            v.iter()
                .map(|t| format!("<pre>{side}: {}</pre>", sanitize::html_block(t, 4000)))
                .collect::<String>()
        };
        let cell = match i.flip {
            Some(f) => format!(
                "<details class=\"flip\"><summary>{}</summary>{}{}</details>",
                flip_name(f),
                answers(&i.answers_a, "A"),
                answers(&i.answers_b, "B")
            ),
            None => String::new(),
        };
        let _ = writeln!(
            h,
            "<tr{}><td>{}</td><td>{}</td><td>{}/{}</td><td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td><td>{cell}</td></tr>",
            if i.flip.is_some() { " class=\"flip\"" } else { "" },
            sanitize::html(&i.qid, 200),
            i.kind,
            i.a.k,
            i.a.n,
            i.b.k,
            i.b.n,
            i.diff.map(|d| format!("{d:+.3}")).unwrap_or("UNMEASURED".into()),
            pval(i.p),
            pval(i.p_holm)
        );
    }
    h.push_str("</table>\n</body></html>\n");
    h
}
