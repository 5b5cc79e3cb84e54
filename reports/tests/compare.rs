//! `reports::compare`: paired A→B comparison of two rounds, its refusals and its four formats.

mod common;

use common::*;
use reports::compare::{self, Flip, Refusal, RoundIdentity, RoundVerdict};
use reports::reading::{DecidedBy, Standing};
use reports::{InstrumentVerdict, Report};
use scorer::{Arm, Class, Kind};

fn id(name: &str, seal: &str) -> RoundIdentity {
    RoundIdentity {
        name: name.into(),
        qset_sha256: "q".repeat(64),
        base_sha: "b".repeat(40),
        seal_name: Some("handoff.md".into()),
        seal_sha256: Some(seal.repeat(64)),
        agent: "baseline-grep".into(),
        agent_version: None,
        model: None,
        harness_version: "0.1.0".into(),
        protocol_sha256: None,
        timeout_secs: 600,
        reps: 2,
        sandbox: "auto".into(),
        scorer: "f".repeat(16),
        judge: None,
        deliver: true,
        rounds: 1,
        fingerprints: vec![format!("{name}-round-json")],
        verdicts: vec![RoundVerdict {
            round: name.into(),
            verdict: InstrumentVerdict::Ok,
        }],
    }
}

/// B's hand-off lost p1 and p3 (ARM FAIL on both reps) and gained nothing; its answers are
/// hostile text that must not change any format's structure.
fn thinner() -> Report {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && (r.qid == "p1" || r.qid == "p3") {
            r.verdict.class = Class::Fail;
            r.excerpt = "</pre></details><script>x</script> | # not here\n## fake".into();
        }
    }
    Report::new(meta(&QS), rows)
}

#[test]
fn flipped_items_and_paired_difference_over_items() {
    let (a, b) = (ok_round(), thinner());
    let c = compare::compare(&id("A", "1"), &a, &id("B", "2"), &b).unwrap();
    assert!(!c.noise_floor);
    assert_eq!(c.differences.len(), 1);
    assert_eq!(c.differences[0].0, "seal");
    let flipped: Vec<(&str, Flip)> = c
        .items
        .iter()
        .filter_map(|i| i.flip.map(|f| (i.qid.as_str(), f)))
        .collect();
    assert_eq!(
        flipped,
        vec![("p1", Flip::GoodToBad), ("p3", Flip::GoodToBad)]
    );
    let pos = c.axes.iter().find(|x| x.kind == Kind::Positive).unwrap();
    // Item diffs −1, 0, −1 over 3 items: median −1, mean −2/3; no 95% order-statistic interval
    // exists below 6 items, so the interval is the whole range and p is 2·P[X ≤ 1 | 3] = 1.
    let s = pos.sign.unwrap();
    assert!((s.mean + 2.0 / 3.0).abs() < 1e-12);
    assert_eq!((s.median, s.interval.lo, s.interval.hi), (-1.0, -1.0, 1.0));
    assert!(s.whole_range);
    assert_eq!((s.up, s.down, s.unchanged), (0, 2, 1));
    assert!((s.p - 1.0).abs() < 1e-12 && (s.min_p - 0.25).abs() < 1e-12);
    assert_eq!(
        c.bottom_line,
        "B carried 2 fewer positives than A (p1, p3), none more; with 3 items no difference can reach p < 0.05"
    );
}

#[test]
fn same_setup_twice_is_the_noise_floor() {
    let c = compare::compare(&id("A", "1"), &ok_round(), &id("A2", "1"), &ok_round()).unwrap();
    assert!(c.noise_floor);
    assert!(c.headline().starts_with("NOISE FLOOR"));
    for f in [compare::text(&c), compare::markdown(&c), compare::html(&c)] {
        assert!(f.contains("NOISE FLOOR"), "{f}");
    }
    assert!(compare::json(&c).contains("\"noise_floor\": true"));
}

#[test]
fn another_qset_or_base_is_refused_naming_the_field() {
    let field = |e: Refusal| match e {
        Refusal::Incomparable { field, .. } => field,
        other => panic!("{other:?}"),
    };
    let mut b = id("B", "1");
    b.qset_sha256 = "z".repeat(64);
    let e = compare::compare(&id("A", "1"), &ok_round(), &b, &ok_round()).unwrap_err();
    assert_eq!(field(e), "qset");
    let mut b = id("B", "1");
    b.base_sha = "c".repeat(40);
    let e = compare::compare(&id("A", "1"), &ok_round(), &b, &ok_round()).unwrap_err();
    assert_eq!(field(e), "base");
}

/// A round against itself (or a byte copy: the same round.json) shows nothing and is refused.
#[test]
fn the_same_round_twice_is_refused() {
    let a = id("A", "1");
    let mut copy = id("copy-of-A", "1");
    copy.fingerprints = a.fingerprints.clone();
    match compare::compare(&a, &ok_round(), &copy, &ok_round()) {
        Err(Refusal::SameRound { why }) => assert!(why.contains("same round"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// Rounds that differ in protocol, timeout, judge, CLI version or a person's review are named,
/// and never called a noise floor.
#[test]
fn any_design_difference_is_named_and_is_never_a_noise_floor() {
    let base = id("A", "1");
    let mut reviewed = ok_rows();
    reviewed[0].standing = Standing::Decided {
        by: DecidedBy::Person,
    };
    let reviewed = Report::new(meta(&QS), reviewed);
    type Change = fn(&mut RoundIdentity);
    let cases: [(&str, Change); 4] = [
        ("protocol", |b| b.protocol_sha256 = Some("p".repeat(64))),
        ("timeout", |b| b.timeout_secs = 60),
        ("judge", |b| b.judge = Some("claude (rubric v1)".into())),
        ("CLI version", |b| b.agent_version = Some("2.0.1".into())),
    ];
    for (field, change) in cases {
        let mut b = id("B", "1");
        change(&mut b);
        let c = compare::compare(&base, &ok_round(), &b, &ok_round()).unwrap();
        assert!(!c.noise_floor, "{field}");
        assert_eq!(c.differences.len(), 1, "{field}: {:?}", c.differences);
        assert_eq!(c.differences[0].0, field);
        for f in [compare::text(&c), compare::markdown(&c), compare::html(&c)] {
            assert!(!f.contains("NOISE FLOOR"), "{field}: {f}");
        }
    }
    let c = compare::compare(&base, &ok_round(), &id("B", "1"), &reviewed).unwrap();
    assert!(!c.noise_floor);
    assert_eq!(
        c.differences,
        vec![(
            "person review".to_string(),
            "no".to_string(),
            "yes".to_string()
        )]
    );
}

/// A round whose own verdict says its numbers are not claims is named before any number.
#[test]
fn a_void_or_incomplete_round_is_named_before_any_number() {
    let mut b = id("B", "2");
    b.verdicts[0].verdict = InstrumentVerdict::InstrumentIncomplete;
    let c = compare::compare(&id("A", "1"), &ok_round(), &b, &thinner()).unwrap();
    let t = compare::text(&c);
    let caution = t
        .find("CAUTION: B round B is INSTRUMENT_INCOMPLETE")
        .expect(&t);
    assert!(caution < t.find("rows").unwrap(), "{t}");
}

/// Each consumer counts what the round's own report counts: decided rows only. An
/// UNDETERMINED ARM positive and a CONTESTED ARM conflict row are outside compare's rates
/// exactly as they are outside the report's, and listed beside them.
#[test]
fn compare_counts_the_rows_each_report_counts() {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && r.qid == "p2" && r.rep == 1 {
            r.standing = Standing::Undetermined {
                cues: vec![],
                for_person: None,
            };
            r.verdict.class = Class::Fail;
        }
        if r.arm == Arm::Arm && r.qid == "c1" {
            r.standing = Standing::Contested {
                judge: Class::PriorWon,
            };
        }
    }
    let a = Report::new(meta(&QS), rows);
    let c = compare::compare(&id("A", "1"), &a, &id("B", "2"), &thinner()).unwrap();
    let axis = |k: Kind| c.axes.iter().find(|x| x.kind == k).unwrap();
    assert_eq!(axis(Kind::Positive).a, a.summary.delivery_arm);
    assert_eq!(axis(Kind::Negative).a, a.summary.hui_arm);
    assert_eq!(
        axis(Kind::Conflict).a,
        a.summary.conflict_rates_arm.followed
    );
    assert_eq!((axis(Kind::Positive).a.k, axis(Kind::Positive).a.n), (5, 5));
    assert_eq!(axis(Kind::Positive).left_out, (1, 0));
    assert_eq!(axis(Kind::Conflict).left_out, (2, 0));
    for i in &c.items {
        let d = a.summary.items.iter().find(|d| d.qid == i.qid).unwrap();
        if i.kind != Kind::Negative {
            assert_eq!(i.a, d.arm, "{}", i.qid);
        }
    }
    let c1 = c.items.iter().find(|i| i.qid == "c1").unwrap();
    assert_eq!((c1.a.n, c1.diff), (0, None));
    assert_eq!(c1.left_out_a.len(), 2);
    assert!(compare::text(&c).contains("undecided rows outside the counts: A 2, B 0"));
}

#[test]
fn snapshots_of_the_four_formats() {
    let c = compare::compare(&id("A", "1"), &ok_round(), &id("B", "2"), &thinner()).unwrap();
    insta::assert_snapshot!("compare_text", compare::text(&c));
    insta::assert_snapshot!("compare_markdown", compare::markdown(&c));
    insta::assert_snapshot!("compare_json", compare::json(&c));
    insta::assert_snapshot!("compare_html", compare::html(&c));
    // Hostile answers stay text: no raw tag, no line that a Markdown reader takes as a heading.
    let html = compare::html(&c);
    assert!(!html.contains("<script>"));
    assert_eq!(
        html.matches("<details").count(),
        2,
        "one click per flipped item"
    );
    assert!(!compare::markdown(&c)
        .lines()
        .any(|l| l.starts_with("## fake")));
}

/// The bottom line on a pair like the demo: six positive items, B carried three more.
#[test]
fn the_bottom_line_names_the_items_and_the_limit() {
    use Class::*;
    let qs: Vec<(&str, Kind)> = ["p01", "p02", "p03", "p04", "p05", "p06"]
        .iter()
        .map(|q| (*q, Kind::Positive))
        .collect();
    let round = |carried: &[&str]| {
        let mut rows = Vec::new();
        for (q, _) in &qs {
            let class = if carried.contains(q) { Pass } else { Fail };
            cell(&mut rows, q, Kind::Positive, Arm::Arm, &[class, class]);
            cell(&mut rows, q, Kind::Positive, Arm::Ctrl, &[Fail, Fail]);
        }
        Report::new(meta(&qs), rows)
    };
    let a = round(&["p01", "p02"]);
    let b = round(&["p01", "p02", "p03", "p05", "p06"]);
    let c = compare::compare(&id("A", "1"), &a, &id("B", "2"), &b).unwrap();
    assert_eq!(
        c.bottom_line,
        "B carried 3 more positives than A (p03, p05, p06), none fewer; exact sign test over 6 items \
         p = 1.0000; p < 0.05 needs at least 6 of 6 items moving one way and none of the rest against"
    );
    assert!(compare::text(&c).contains(&format!("Did B carry more than A? {}.", c.bottom_line)));
    // Five items: the limit is said instead of a p.
    let qs5 = &qs[..5];
    let round5 = |carried: &[&str]| {
        let mut rows = Vec::new();
        for (q, _) in qs5 {
            let class = if carried.contains(q) { Pass } else { Fail };
            cell(&mut rows, q, Kind::Positive, Arm::Arm, &[class, class]);
        }
        Report::new(meta(qs5), rows)
    };
    let c = compare::compare(
        &id("A", "1"),
        &round5(&[]),
        &id("B", "2"),
        &round5(&["p01", "p02", "p03", "p04", "p05"]),
    )
    .unwrap();
    assert_eq!(
        c.bottom_line,
        "B carried 5 more positives than A (p01, p02, p03, p04, p05), none fewer; with 5 items no difference can reach p < 0.05"
    );
    assert!(c
        .small_sample
        .iter()
        .any(|n| n.contains("DELIVERY (ARM): 5 items paired")));
}

/// Every per-item line reads the same way: A and B count the rows good for the item's kind.
/// In the healthy round ARM abstains on every negative and carries every positive, so both
/// read full (2/2), never a negative at 0/2 beside a positive at 2/2.
#[test]
fn per_item_lines_count_the_good_outcome_of_every_kind() {
    let c = compare::compare(&id("A", "1"), &ok_round(), &id("B", "2"), &thinner()).unwrap();
    for i in &c.items {
        if i.qid == "n1" || i.qid == "p2" {
            assert_eq!((i.a.k, i.a.n, i.b.k, i.b.n), (2, 2, 2, 2), "{}", i.qid);
        }
    }
    let md = compare::markdown(&c);
    assert!(
        md.contains("| A good | B good | B−A (towards good) |"),
        "{md}"
    );
    let n1 = md.lines().find(|l| l.starts_with("| n1 |")).unwrap();
    assert!(n1.contains("| 2/2 | 2/2 |"), "{n1}");
    let t = compare::text(&c);
    let n1 = t.lines().find(|l| l.starts_with("n1 ")).unwrap();
    assert!(n1.contains("good A 2/2 → B 2/2"), "{n1}");
}

/// One item or one row is said in the singular: never "1 items", "1 rows", "1 lines".
#[test]
fn one_item_is_singular() {
    use scorer::Kind;
    let only = |r: Report| {
        let rows = r.rows.into_iter().filter(|x| x.qid == "p1").collect();
        Report::new(meta(&[("p1", Kind::Positive)]), rows)
    };
    let c = compare::compare(
        &id("A", "1"),
        &only(ok_round()),
        &id("B", "2"),
        &only(thinner()),
    )
    .unwrap();
    let one_row = Report::new(
        meta(&[("p1", Kind::Positive)]),
        ok_rows()
            .into_iter()
            .filter(|x| x.qid == "p1")
            .take(1)
            .collect(),
    );
    let html = reports::Render::render(&reports::html::Html, &one_row);
    for text in [
        compare::text(&c),
        compare::markdown(&c),
        compare::html(&c),
        html,
    ] {
        for bad in ["1 items", "1 rows", "1 lines", "1 dispatches"] {
            assert!(!text.contains(&format!(" {bad}")), "{bad} in {text}");
        }
    }
}

/// A round run against a manifest that sealed its design and one run without a manifest are
/// not one setup twice: the difference is named ("sealed") in every format and the pair is never
/// a noise floor.
#[test]
fn a_sealed_round_and_an_unsealed_one_differ_in_sealed() {
    let mut unsealed = meta(&QS);
    unsealed.manifest = reports::ManifestStatus::Unverified;
    unsealed.design_sealed = false;
    let b = Report::new(unsealed, ok_rows());
    let c = compare::compare(&id("A", "1"), &ok_round(), &id("B", "1"), &b).unwrap();
    assert!(!c.noise_floor);
    assert_eq!(
        c.differences,
        vec![(
            "sealed".to_string(),
            "yes (manifest matched, design sealed)".to_string(),
            "no (run without a manifest: UNVERIFIED)".to_string()
        )]
    );
    for f in [compare::text(&c), compare::markdown(&c), compare::html(&c)] {
        assert!(!f.contains("NOISE FLOOR"), "{f}");
        assert!(f.contains("run without a manifest"), "{f}");
    }
    assert!(compare::json(&c).contains("\"field\": \"sealed\""));
}
