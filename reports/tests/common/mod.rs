//! Fixed rounds shared by the integration tests and snapshots.
#![allow(dead_code)]

use reports::{ManifestStatus, QuestionInfo, Report, RoundMeta, Row};
use scorer::{Arm, Class, Kind, Verdict};

pub fn meta(questions: &[(&str, Kind)]) -> RoundMeta {
    RoundMeta {
        harness_version: "0.1.0".into(),
        scorer_fingerprint: "sha256:feedc0de".into(),
        lexicon_version: "lex-3".into(),
        qset_name: "demo.tsv".into(),
        seal_name: Some("handoff.md".into()),
        questions: questions
            .iter()
            .map(|(qid, kind)| QuestionInfo {
                qid: qid.to_string(),
                kind: *kind,
                question: format!("What does the record say about {qid}?"),
            })
            .collect(),
        agent: "baseline-grep".into(),
        model: None,
        reps: 2,
        arms: "both".into(),
        deliver: true,
        manifest: ManifestStatus::Match,
        design_sealed: true,
        contaminated: false,
        isolation: "checkout+fresh-home".into(),
        base_sha: "0123456789abcdef0123456789abcdef01234567".into(),
        started: "2026-01-01T00:00:00Z".into(),
        finished: "2026-01-01T00:05:00Z".into(),
        phases: vec![
            reports::PhaseStat {
                phase: "checkout".into(),
                dispatches: 12,
                median_us: 2_150,
                max_us: 4_900,
            },
            reports::PhaseStat {
                phase: "agent".into(),
                dispatches: 12,
                median_us: 812_000,
                max_us: 1_402_500,
            },
        ],
        ledger: reports::LEDGER_STRICT.into(),
        uncarried: Vec::new(),
        protocol_given: None,
        timeline: Vec::new(),
        judge: None,
        effort: Vec::new(),
        reviewers: Vec::new(),
        reused_from: Default::default(),
        reused_here: Default::default(),
        repo_agent_config: Some(Vec::new()),
    }
}

pub fn row(qid: &str, kind: Kind, arm: Arm, rep: u32, class: Class, typed: bool) -> Row {
    Row {
        standing: Default::default(),
        readings: None,
        qid: qid.into(),
        kind,
        arm,
        rep,
        verdict: Verdict { class, typed },
        clarify: false,
        label: format!("L{}{}{rep}", qid.len(), arm.as_str().len()),
        excerpt: format!("answer {class} for {qid}"),
    }
}

/// Both reps of a (qid, arm) cell with the given classes.
pub fn cell(rows: &mut Vec<Row>, qid: &str, kind: Kind, arm: Arm, classes: &[Class]) {
    for (i, c) in classes.iter().enumerate() {
        rows.push(row(qid, kind, arm, i as u32 + 1, *c, i % 2 == 0));
    }
}

use Arm::{Arm as A, Ctrl as C};
use Class::*;
use Kind::*;

pub const QS: [(&str, Kind); 7] = [
    ("p1", Positive),
    ("p2", Positive),
    ("p3", Positive),
    ("n1", Negative),
    ("n2", Negative),
    ("c1", Conflict),
    ("c2", Conflict),
];

/// Healthy round: ARM reads the carrier, CTRL abstains and keeps its prior.
pub fn ok_rows() -> Vec<Row> {
    let mut r = Vec::new();
    for q in ["p1", "p2", "p3"] {
        cell(&mut r, q, Positive, A, &[Pass, Pass]);
    }
    cell(&mut r, "p1", Positive, C, &[Fail, Fail]);
    cell(&mut r, "p2", Positive, C, &[Pass, Fail]);
    cell(&mut r, "p3", Positive, C, &[Fail, Fail]);
    for q in ["n1", "n2"] {
        cell(&mut r, q, Negative, A, &[Pass, Pass]);
        cell(&mut r, q, Negative, C, &[Pass, Pass]);
    }
    cell(
        &mut r,
        "c1",
        Conflict,
        A,
        &[ConflictFollowed, ConflictFollowed],
    );
    cell(&mut r, "c2", Conflict, A, &[ConflictFollowed, Unclassified]);
    cell(&mut r, "c1", Conflict, C, &[PriorWon, PriorWon]);
    cell(&mut r, "c2", Conflict, C, &[AbstainedOnConflict, PriorWon]);
    r[0].clarify = true;
    r
}

pub fn ok_round() -> Report {
    let rows = ok_rows();
    let mut m = meta(&QS);
    // Start times as an interleaved order gives them: ARM and CTRL alternate, 700 ms apart.
    m.timeline = rows
        .iter()
        .enumerate()
        .map(|(i, r)| reports::timeline::DispatchSpan {
            arm: if i % 2 == 0 { r.arm } else { other(r.arm) },
            started_ms: 1_767_225_600_000 + 700 * i as u64,
            ended_ms: Some(1_767_225_600_000 + 700 * i as u64 + 650),
        })
        .collect();
    Report::new(m, rows)
}

fn other(a: Arm) -> Arm {
    match a {
        Arm::Arm => Arm::Ctrl,
        Arm::Ctrl => Arm::Arm,
    }
}

/// CTRL fabricates on a negative and leaves one empty answer: VOID.
pub fn void_round() -> Report {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.qid == "n2" && r.arm == C {
            if r.rep == 1 {
                r.verdict.class = Hallucinated;
                r.excerpt = "The owner was recorded as someone else entirely.".into();
            } else {
                r.verdict.class = Void;
                r.excerpt = String::new();
            }
        }
    }
    let mut m = meta(&QS);
    m.manifest = ManifestStatus::Unverified;
    Report::new(m, rows)
}

/// Healthy rows, but the contamination override was used.
pub fn contaminated_round() -> Report {
    let mut m = meta(&QS);
    m.contaminated = true;
    Report::new(m, ok_rows())
}

/// No conflict items: CARRIER-READ is UNMEASURED and the labels are withheld.
pub fn no_conflict_round() -> Report {
    let rows = ok_rows()
        .into_iter()
        .filter(|r| r.kind != Conflict)
        .collect();
    Report::new(meta(&QS[..5]), rows)
}

/// CTRL-only eligibility run.
pub fn ctrl_only_round() -> Report {
    let rows = ok_rows().into_iter().filter(|r| r.arm == C).collect();
    let mut m = meta(&QS);
    m.arms = "CTRL".into();
    m.seal_name = None;
    Report::new(m, rows)
}

/// The healthy round run under `--ledger report` with a thinner seal: three more positives
/// (p4, p5, p6) the seal does not carry, which ARM (like CTRL) cannot answer.
pub fn ledger_report_round() -> Report {
    let mut qs = QS.to_vec();
    qs.extend([("p4", Positive), ("p5", Positive), ("p6", Positive)]);
    let mut m = meta(&qs);
    m.ledger = reports::LEDGER_REPORT.into();
    m.uncarried = vec!["p4".into(), "p5".into(), "p6".into()];
    let mut rows = ok_rows();
    for q in ["p4", "p5", "p6"] {
        cell(&mut rows, q, Positive, A, &[Fail, Fail]);
        cell(&mut rows, q, Positive, C, &[Fail, Fail]);
    }
    Report::new(m, rows)
}
