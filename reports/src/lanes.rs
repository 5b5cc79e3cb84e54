//! Pure checks the binary's `self-test` runs as instrument lanes (§8): fixed rows for each
//! instrument verdict, and a check that watermarks appear exactly where they should.

use crate::summary::WATERMARK_NAMES;
use crate::{InstrumentVerdict, ManifestStatus, QuestionInfo, RoundMeta, Row};
use scorer::{Arm, Class, Kind, Verdict};

/// One verdict lane: these rows, under [`fixture_meta`], must give `expected`.
#[derive(Debug, Clone)]
pub struct VerdictFixture {
    /// The lane's name, printed by `self-test`.
    pub name: &'static str,
    /// The rows.
    pub rows: Vec<Row>,
    /// The verdict [`crate::summarize`] must return.
    pub expected: InstrumentVerdict,
    /// Whether the verdict must be claimed (`false` only for the OK-by-absence lanes).
    pub claimed: bool,
}

/// A fixture row: one dispatch with the given class, decided by the lexicon.
pub fn fixture_row(qid: &str, kind: Kind, arm: Arm, rep: u32, class: Class) -> Row {
    row(qid, kind, arm, rep, class)
}

fn row(qid: &str, kind: Kind, arm: Arm, rep: u32, class: Class) -> Row {
    Row {
        standing: Default::default(),
        readings: None,
        qid: qid.to_string(),
        kind,
        arm,
        rep,
        verdict: Verdict {
            class,
            typed: false,
        },
        clarify: false,
        label: format!("lane{rep}{}", arm.as_str().to_lowercase()),
        excerpt: format!("fixture answer classified {class}"),
    }
}

/// A healthy two-arm round: one item per axis, two reps; CTRL abstains, ARM reads the carrier.
fn healthy() -> Vec<Row> {
    let mut rows = Vec::new();
    for rep in 1..=2 {
        rows.push(row("p1", Kind::Positive, Arm::Arm, rep, Class::Pass));
        rows.push(row("p1", Kind::Positive, Arm::Ctrl, rep, Class::Fail));
        rows.push(row("n1", Kind::Negative, Arm::Arm, rep, Class::Pass));
        rows.push(row("n1", Kind::Negative, Arm::Ctrl, rep, Class::Pass));
        rows.push(row(
            "c1",
            Kind::Conflict,
            Arm::Arm,
            rep,
            Class::ConflictFollowed,
        ));
        rows.push(row("c1", Kind::Conflict, Arm::Ctrl, rep, Class::PriorWon));
    }
    rows
}

fn set(rows: &mut [Row], qid: &str, arm: Arm, rep: u32, class: Class) {
    for r in rows.iter_mut() {
        if r.qid == qid && r.arm == arm && r.rep == rep {
            r.verdict.class = class;
        }
    }
}

/// The meta the fixtures are summarized under: both arms, two reps, manifest matched, clean.
pub fn fixture_meta() -> RoundMeta {
    RoundMeta {
        harness_version: "self-test".into(),
        scorer_fingerprint: "self-test".into(),
        lexicon_version: "self-test".into(),
        qset_name: "lanes.tsv".into(),
        seal_name: Some("lanes.md".into()),
        questions: [
            ("p1", Kind::Positive),
            ("n1", Kind::Negative),
            ("c1", Kind::Conflict),
        ]
        .into_iter()
        .map(|(qid, kind)| QuestionInfo {
            qid: qid.into(),
            kind,
            question: format!("{kind} lane question"),
        })
        .collect(),
        agent: "fixture".into(),
        model: None,
        reps: 2,
        arms: "both".into(),
        deliver: false,
        manifest: ManifestStatus::Match,
        design_sealed: true,
        contaminated: false,
        isolation: "none".into(),
        base_sha: "0".repeat(40),
        started: "start".into(),
        finished: "end".into(),
        phases: Vec::new(),
        ledger: crate::LEDGER_STRICT.into(),
        uncarried: Vec::new(),
        protocol_given: None,
        timeline: Vec::new(),
        effort: Vec::new(),
        judge: None,
        reviewers: Vec::new(),
        reused_from: Default::default(),
        reused_here: Default::default(),
        repo_agent_config: Some(Vec::new()),
    }
}

/// One fixed set of rows per rule of §7.3 (and the edges between them), with the verdict each must give.
pub fn verdict_fixtures() -> Vec<VerdictFixture> {
    let mut out = Vec::new();
    let mut add = |name, rows, expected, claimed| {
        out.push(VerdictFixture {
            name,
            rows,
            expected,
            claimed,
        })
    };
    let mut r = healthy();
    set(&mut r, "n1", Arm::Ctrl, 2, Class::Hallucinated);
    add(
        "VOID: CTRL fabricates on a negative",
        r,
        InstrumentVerdict::Void,
        true,
    );
    let mut r = healthy();
    set(&mut r, "n1", Arm::Ctrl, 1, Class::Fail);
    add(
        "VOID: CTRL's different fabricated string (FAIL) is not abstaining",
        r,
        InstrumentVerdict::Void,
        true,
    );
    let mut r = healthy();
    set(&mut r, "n1", Arm::Ctrl, 1, Class::Void);
    add(
        "VOID: CTRL's empty answer on a negative is not abstaining",
        r,
        InstrumentVerdict::Void,
        true,
    );
    let mut r = healthy();
    set(&mut r, "n1", Arm::Ctrl, 1, Class::Hallucinated);
    set(&mut r, "p1", Arm::Arm, 1, Class::Fail);
    add(
        "VOID comes before INSTRUMENT_INCOMPLETE",
        r,
        InstrumentVerdict::Void,
        true,
    );
    let mut r = healthy();
    set(&mut r, "p1", Arm::Arm, 2, Class::RefusedWithToken);
    add(
        "INSTRUMENT_INCOMPLETE: known-positive ARM not perfect",
        r,
        InstrumentVerdict::InstrumentIncomplete,
        true,
    );
    let mut r = healthy();
    set(&mut r, "c1", Arm::Arm, 1, Class::PriorWon);
    set(&mut r, "c1", Arm::Arm, 2, Class::PriorWon);
    add(
        "CARRIER_UNREAD: the repository's own value beats the planted one",
        r,
        InstrumentVerdict::CarrierUnread,
        true,
    );
    let mut r = healthy();
    set(&mut r, "c1", Arm::Arm, 1, Class::Unclassified);
    set(&mut r, "c1", Arm::Arm, 2, Class::Unclassified);
    add(
        "UNCLASSIFIED is not counted as PRIOR_WON",
        r,
        InstrumentVerdict::Ok,
        true,
    );
    let mut r = healthy();
    set(&mut r, "n1", Arm::Arm, 1, Class::Hallucinated);
    add(
        "FINDING: ARM fabricates where CTRL abstains",
        r,
        InstrumentVerdict::Finding,
        true,
    );
    add(
        "OK: healthy two-arm round",
        healthy(),
        InstrumentVerdict::Ok,
        true,
    );
    let r: Vec<Row> = healthy()
        .into_iter()
        .filter(|r| r.arm == Arm::Ctrl)
        .collect();
    add(
        "OK not claimed: CTRL-only eligibility run",
        r,
        InstrumentVerdict::Ok,
        false,
    );
    let r: Vec<Row> = healthy()
        .into_iter()
        .filter(|r| r.kind != Kind::Negative)
        .collect();
    add(
        "OK not claimed: no negatives, survival line unmeasured",
        r,
        InstrumentVerdict::Ok,
        false,
    );
    out
}

/// Removes ANSI CSI escapes (`ESC [ … final`), so a coloured rendering checks like a plain one.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn is_md_delimiter(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.len() > 1 && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

/// The part of a line a watermark must lead: after a Markdown heading's `#…# ` or a table's `| `.
fn lead(line: &str) -> &str {
    let t = line.trim_start_matches('#');
    if t.len() != line.len() {
        return t.trim_start();
    }
    line.strip_prefix("| ").unwrap_or(line)
}

/// The watermark a line leads with (`[VOID] …` → `VOID`), if it is one.
fn leading_watermark(line: &str) -> Option<&str> {
    let rest = lead(line).strip_prefix('[')?;
    let end = rest.find(']')?;
    let word = &rest[..end];
    let valid = !word.is_empty() && word.split('+').all(|p| WATERMARK_NAMES.contains(&p));
    valid.then_some(word)
}

/// Checks a terminal or Markdown rendering: every number line carries `watermark` exactly when
/// it is given, and no line carries any watermark when it is not.
///
/// Definition: the header is every line before the first blank line. A *number line* is every
/// non-blank line after it except a Markdown table delimiter row; this is a superset of the
/// lines holding numbers and rows, so nothing numeric can slip past. A line *carries* `W` when,
/// after ANSI escapes are removed and a Markdown heading marker (`## `) or table opener (`| `)
/// is skipped, it starts with `[W] `. Untrusted text never starts a line (newlines in it are
/// shown as `⏎`), so a forged watermark inside an answer cannot satisfy or break this check.
pub fn watermark_ok(rendered: &str, watermark: Option<&str>) -> Result<(), String> {
    let lines: Vec<String> = rendered.lines().map(strip_ansi).collect();
    let header_end = lines
        .iter()
        .position(|l| l.trim().is_empty())
        .ok_or("no blank line ends the header: cannot tell header from body")?;
    let body: Vec<(usize, &String)> = lines
        .iter()
        .enumerate()
        .skip(header_end + 1)
        .filter(|(_, l)| !l.trim().is_empty() && !is_md_delimiter(l))
        .collect();
    if body.is_empty() {
        return Err("the rendering has no number lines".into());
    }
    match watermark {
        Some(w) => {
            let want = format!("[{w}] ");
            for (n, l) in &body {
                if !lead(l).starts_with(&want) {
                    return Err(format!("line {} lacks the watermark [{w}]: {l}", n + 1));
                }
            }
        }
        None => {
            for (n, l) in lines.iter().enumerate() {
                if let Some(found) = leading_watermark(l) {
                    return Err(format!(
                        "line {} carries watermark [{found}] in a round that has none: {l}",
                        n + 1
                    ));
                }
            }
        }
    }
    Ok(())
}
