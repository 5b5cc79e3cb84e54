//! `reports::compare`: paired A→B comparison of two rounds, its refusals and its four formats.

mod common;

use common::*;
use reports::compare::{self, Flip, RoundIdentity};
use reports::Report;
use scorer::{Arm, Class, Kind};

fn id(name: &str, seal: &str) -> RoundIdentity {
    RoundIdentity {
        name: name.into(),
        qset_sha256: "q".repeat(64),
        base_sha: "b".repeat(40),
        seal_sha256: Some(seal.repeat(64)),
        agent: "baseline-grep".into(),
        model: None,
        harness_version: "0.1.0".into(),
        reps: 2,
        sandbox: "auto".into(),
        scorer: "f".repeat(16),
        deliver: true,
        rounds: 1,
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
    assert_eq!(c.differences[0].0, "seal sha256");
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
    // Item diffs −1, 0, −1: mean −2/3; sd 0.57735, t(2 df) = 4.3026527 (scipy.stats.t.ppf(0.975, 2)):
    // half-width 4.302653·0.57735/√3 = 1.434218, so [−2.1009, +0.7676] → clipped at −1.
    let d = pos.diff.unwrap();
    assert!((d.mean + 2.0 / 3.0).abs() < 1e-12);
    let i = d.interval.unwrap();
    assert_eq!(i.lo, -1.0);
    assert!(i.clipped);
    assert!((i.hi - (-2.0 / 3.0 + 1.434218)).abs() < 1e-5, "{}", i.hi);
    assert_eq!((pos.sign.b, pos.sign.c, pos.unchanged), (0, 2, 1));
    assert_eq!((pos.mcnemar.b, pos.mcnemar.c), (0, 2));
    assert_eq!(pos.mcnemar.p, Some(0.5));
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
    let mut b = id("B", "1");
    b.qset_sha256 = "z".repeat(64);
    let e = compare::compare(&id("A", "1"), &ok_round(), &b, &ok_round()).unwrap_err();
    assert_eq!(e.field, "qset");
    let mut b = id("B", "1");
    b.base_sha = "c".repeat(40);
    let e = compare::compare(&id("A", "1"), &ok_round(), &b, &ok_round()).unwrap_err();
    assert_eq!(e.field, "base");
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

/// Per item: a Fisher exact p of A's rows against B's (reps as independent draws, labelled) and
/// Holm over the items, each its own column in every format.
#[test]
fn per_item_p_and_holm_are_their_own_columns() {
    let c = compare::compare(&id("A", "1"), &ok_round(), &id("B", "2"), &thinner()).unwrap();
    let p1 = c.items.iter().find(|i| i.qid == "p1").unwrap();
    // scipy.stats.fisher_exact([[2, 0], [0, 2]]) → p = 0.3333333 (two-sided).
    assert!((p1.p.unwrap() - 1.0 / 3.0).abs() < 1e-12, "{:?}", p1.p);
    // Holm over 7 items: the smallest p (1/3) is multiplied by 7 and capped at 1.
    assert_eq!(p1.p_holm, Some(1.0));
    let p2 = c.items.iter().find(|i| i.qid == "p2").unwrap();
    assert_eq!(p2.p, Some(1.0));
    let text = compare::text(&c);
    assert!(
        text.lines()
            .any(|l| l.starts_with("p1 positive A 2/2 → B 0/2  -1.000  p 0.3333  Holm 1.0000")),
        "{text}"
    );
    assert!(compare::markdown(&c).contains("| p (unadjusted) | Holm p |"));
    assert!(compare::html(&c).contains("<th>p (unadjusted)</th><th>Holm p</th>"));
    let j: serde_json::Value = serde_json::from_str(&compare::json(&c)).unwrap();
    let item = j["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["qid"] == "p1")
        .unwrap();
    assert_eq!(item["p_holm"], 1.0);
}
