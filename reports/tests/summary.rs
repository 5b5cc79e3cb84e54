//! Aggregation, verdict and watermark behaviour on fixed rounds.

mod common;

use common::*;
use reports::{summarize, verdict_fixtures, InstrumentVerdict, Proportion, Render};
use scorer::{Arm, Class, Kind};

#[test]
fn ok_round_numbers_are_counted_as_the_seed_counts_them() {
    let s = ok_round().summary;
    assert_eq!(s.rows, 28);
    assert_eq!((s.typed.k, s.typed.n), (14, 28));
    assert_eq!((s.fallback.k, s.fallback.n), (14, 28));
    assert_eq!((s.delivery_arm.k, s.delivery_arm.n), (6, 6));
    assert_eq!((s.hui_arm.k, s.hui_arm.n), (0, 4));
    assert_eq!((s.hui_ctrl.k, s.hui_ctrl.n), (0, 4));
    assert_eq!((s.lucky_ctrl.k, s.lucky_ctrl.n), (1, 6));
    assert_eq!((s.clarify, s.clarify_arm, s.clarify_ctrl), (1, 1, 0));
    assert_eq!(s.conflict_arm.followed, 3);
    assert_eq!(s.conflict_arm.unclassified, 1);
    assert_eq!(s.conflict_ctrl.prior_won, 3);
    assert_eq!((s.mr.k, s.mr.n), (3, 3));
    assert!(s.conflict_axis_stands);
    assert_eq!(s.verdict, InstrumentVerdict::Ok);
    assert!(s.verdict_claimed);
    assert_eq!(s.watermark, None);
    let p2 = s.items.iter().find(|i| i.qid == "p2").unwrap();
    assert_eq!(p2.d, Some(0.5));
}

#[test]
fn unmeasured_is_never_zero() {
    let p = Proportion::from_items(&[]);
    assert_eq!(p.display(), "UNMEASURED (0/0 rows)");
    assert_eq!(p.p(), None);
    // One rep per item: the interval over items is Wilson's on the items at the Korn–Graubard
    // size 10·(z/t₉)² = 7.507 (t from scipy, 2.262157), wider than Wilson's [0.490, 0.943].
    let one_rep: Vec<(u64, u64)> = (0..10).map(|i| (u64::from(i < 8), 1)).collect();
    assert_eq!(
        Proportion::from_items(&one_rep).display(),
        "8/10 rows, 10 items (0.800, [0.445, 0.952])"
    );
    // Positive ARM all abstained: coverage 0/n, accuracy UNMEASURED (not 0).
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.kind == Kind::Positive && r.arm == Arm::Arm {
            r.verdict.class = Class::Fail;
        }
    }
    let s = summarize(&rows, &meta(&QS));
    assert_eq!(
        (s.positive_coverage_arm.k, s.positive_coverage_arm.n),
        (0, 6)
    );
    assert_eq!(s.positive_accuracy_arm.display(), "UNMEASURED (0/0 rows)");
}

#[test]
fn ctrl_only_round_claims_no_ok_and_leaves_arm_numbers_unmeasured() {
    let s = ctrl_only_round().summary;
    assert_eq!(s.verdict, InstrumentVerdict::Ok);
    assert_eq!(s.verdict.exit_code(), 0);
    assert!(!s.verdict_claimed);
    assert!(s.verdict_detail.contains("CTRL-only eligibility run"));
    assert_eq!(s.verdict_display(), "OK (not claimed)");
    for p in [s.delivery_arm, s.hui_arm, s.mr, s.positive_accuracy_arm] {
        assert_eq!(p.n, 0);
        assert!(p.display().starts_with("UNMEASURED"));
    }
    assert!(s.items.iter().all(|i| i.d.is_none()));
    let text = reports::terminal::Terminal {
        color: false,
        width: 120,
    }
    .render(&ctrl_only_round());
    assert!(text.contains("OK (not claimed)"));
    assert!(text.contains("DELIVERY (ARM)"));
    assert!(!text.contains("DELIVERY (ARM)     │ 0/0"));
}

#[test]
fn ctrl_only_round_where_ctrl_fabricates_is_void() {
    let mut r = ctrl_only_round();
    for row in r.rows.iter_mut() {
        if row.qid == "n1" {
            row.verdict.class = Class::Hallucinated;
        }
    }
    assert_eq!(summarize(&r.rows, &r.meta).verdict, InstrumentVerdict::Void);
}

#[test]
fn every_verdict_fixture_gives_its_verdict() {
    let meta = reports::fixture_meta();
    let fixtures = verdict_fixtures();
    for v in [
        InstrumentVerdict::Void,
        InstrumentVerdict::InstrumentIncomplete,
        InstrumentVerdict::CarrierUnread,
        InstrumentVerdict::Finding,
        InstrumentVerdict::Ok,
    ] {
        assert!(
            fixtures.iter().any(|f| f.expected == v),
            "no lane for {v:?}"
        );
    }
    for f in fixtures {
        let s = summarize(&f.rows, &meta);
        assert_eq!(s.verdict, f.expected, "{}", f.name);
        assert_eq!(s.verdict_claimed, f.claimed, "{}", f.name);
        assert!(!s.verdict_detail.is_empty());
    }
}

#[test]
fn exit_codes_and_names() {
    use InstrumentVerdict::*;
    let got: Vec<_> = [Void, InstrumentIncomplete, CarrierUnread, Finding, Ok]
        .iter()
        .map(|v| (v.name(), v.exit_code(), v.watermarks()))
        .collect();
    assert_eq!(
        got,
        [
            ("VOID", 3, true),
            ("INSTRUMENT_INCOMPLETE", 4, true),
            ("CARRIER_UNREAD", 6, true),
            ("FINDING", 0, false),
            ("OK", 0, false)
        ]
    );
}

#[test]
fn watermark_words() {
    assert_eq!(void_round().summary.watermark.as_deref(), Some("VOID"));
    assert_eq!(
        contaminated_round().summary.watermark.as_deref(),
        Some("CONTAMINATED")
    );
    let mut r = void_round();
    r.meta.contaminated = true;
    assert_eq!(
        summarize(&r.rows, &r.meta).watermark.as_deref(),
        Some("VOID+CONTAMINATED")
    );
    // FINDING carries none.
    let mut rows = ok_rows();
    rows.iter_mut()
        .filter(|r| r.qid == "n1" && r.arm == Arm::Arm)
        .for_each(|r| r.verdict.class = Class::Fail);
    let s = summarize(&rows, &meta(&QS));
    assert_eq!(s.verdict, InstrumentVerdict::Finding);
    assert_eq!(s.watermark, None);
}

#[test]
fn labels_are_withheld_unless_the_conflict_axis_stands() {
    let ok = ok_round().summary;
    let lines = ok.number_lines();
    let note =
        |k: &str, s: &Vec<reports::NumberLine>| s.iter().find(|l| l.key == k).unwrap().note.clone();
    assert_eq!(note("delivery_arm", &lines), "carried by the hand-off");
    // HUI (ARM) is 0 here: its label says there was none, never that the hand-off caused any.
    assert_eq!(ok.hui_arm.k, 0);
    assert_eq!(
        note("hui_arm", &lines),
        "no overconfidence: ARM abstained on every negative"
    );

    let nc = no_conflict_round().summary;
    let lines = nc.number_lines();
    assert!(note("delivery_arm", &lines)
        .starts_with("describes this round but cannot be quoted as what the hand-off delivered"));
    assert!(note("delivery_arm", &lines).contains("no conflict items"));
    let cr = lines.iter().find(|l| l.key == "carrier_read_arm").unwrap();
    assert_eq!(cr.value.display(), "UNMEASURED");
    assert!(lines.iter().any(|l| l.key == "delivery_carrier_borne"));

    // The seed's code tested both counts on ARM; §7.5 asks for ARM followed and CTRL prior.
    // ARM has both FOLLOWED and PRIOR_WON but CTRL never gives the prior: withheld.
    let mut rows = ok_rows();
    for r in rows.iter_mut().filter(|r| r.kind == Kind::Conflict) {
        r.verdict.class = match (r.arm, r.rep) {
            (Arm::Arm, 1) => Class::ConflictFollowed,
            (Arm::Arm, _) => Class::PriorWon,
            (Arm::Ctrl, _) => Class::AbstainedOnConflict,
        };
    }
    let s = summarize(&rows, &meta(&QS));
    assert!(!s.conflict_axis_stands);
    assert!(s
        .label_withheld
        .unwrap()
        .contains("CTRL never gave the repository's own value"));
}

/// An arm whose conflict rows all await a reader has rows: the withheld label says they await
/// review, never that the arm has no conflict rows (a new user met "no CTRL conflict rows"
/// beside three undecided ones).
#[test]
fn a_withheld_label_says_conflict_rows_await_review_not_that_there_are_none() {
    use reports::reading::Standing;
    let mut rows = ok_rows();
    let mut waiting = 0;
    for r in rows
        .iter_mut()
        .filter(|r| r.kind == Kind::Conflict && r.arm == Arm::Ctrl)
    {
        r.standing = Standing::Undetermined {
            cues: vec![],
            for_person: None,
        };
        waiting += 1;
    }
    assert!(
        waiting >= 2,
        "the fixture has CTRL conflict rows: {waiting}"
    );
    let s = summarize(&rows, &meta(&QS));
    let why = s
        .label_withheld
        .expect("no decided CTRL conflict row: withheld");
    assert!(
        why.contains(&format!(
            "no decided CTRL conflict rows ({waiting} rows await review)"
        )),
        "{why}"
    );
    assert!(!why.contains("no CTRL conflict rows"), "{why}");
}

#[test]
fn conflict_ctrl_read_is_flagged_and_mr_small_sample_is_flagged() {
    let mut rows = ok_rows();
    rows.iter_mut()
        .filter(|r| r.qid == "c1" && r.arm == Arm::Ctrl && r.rep == 1)
        .for_each(|r| r.verdict.class = Class::ConflictFollowed);
    let s = summarize(&rows, &meta(&QS));
    let lines = s.number_lines();
    let read = lines.iter().find(|l| l.key == "carrier_read_ctrl").unwrap();
    assert!(read.note.starts_with("ANOMALY"));
    let mr = lines.iter().find(|l| l.key == "mr").unwrap();
    assert!(mr.note.contains("small denominator"));
}

#[test]
fn typed_and_fallback_warnings() {
    let mut rows = ok_rows();
    rows.iter_mut().for_each(|r| r.verdict.typed = true);
    let s = summarize(&rows, &meta(&QS));
    let fb = s
        .number_lines()
        .into_iter()
        .find(|l| l.key == "fallback")
        .unwrap();
    assert!(fb.note.contains("fallback not wired"));
    rows.iter_mut().for_each(|r| r.verdict.typed = false);
    let s = summarize(&rows, &meta(&QS));
    let t = s
        .number_lines()
        .into_iter()
        .find(|l| l.key == "typed")
        .unwrap();
    assert!(t.note.starts_with("WARNING typed 0"));
}

#[test]
fn axis_contrasts_use_items_and_warn_on_small_samples() {
    let s = ok_round().summary;
    let pos = &s.contrasts[0];
    assert_eq!(pos.kind, Kind::Positive);
    let c = pos.contrast.unwrap();
    assert_eq!(c.items, 3); // items, not the 12 positive rows
    assert!((c.mean - (1.0 + 0.5 + 1.0) / 3.0).abs() < 1e-12);
    // p2 CTRL is 1/2 good: a tie, left out of McNemar.
    assert_eq!((pos.mcnemar.b, pos.mcnemar.c, pos.ties), (2, 0, 1));
    assert!(pos
        .warnings
        .iter()
        .any(|w| w.starts_with("descriptive only")));
    assert!(pos
        .warnings
        .iter()
        .any(|w| w.starts_with("McNemar underpowered")));
    // Negative: identical arms → mean 0, no discordant items → p UNMEASURED, not 1 or 0.
    let neg = &s.contrasts[1];
    assert_eq!(neg.contrast.unwrap().mean, 0.0);
    assert_eq!(neg.mcnemar.p, None);
}

/// No field or number line of the summary is a product of two numbers (typed × fallback,
/// DELIVERY × HUI). The round is built so that those products equal no legitimate value.
#[test]
fn summary_holds_no_product_of_two_numbers() {
    let mut rows = Vec::new();
    // typed 7, fallback 11 (of 18); DELIVERY 3/7; HUI ARM 2/5 (CTRL clean, so FINDING).
    for i in 0..7u32 {
        let class = if i < 3 { Class::Pass } else { Class::Fail };
        rows.push(row(
            &format!("p{i}"),
            Kind::Positive,
            Arm::Arm,
            1,
            class,
            true,
        ));
    }
    for i in 0..5u32 {
        let class = if i < 2 {
            Class::Hallucinated
        } else {
            Class::Pass
        };
        rows.push(row(
            &format!("n{i}"),
            Kind::Negative,
            Arm::Arm,
            1,
            class,
            false,
        ));
    }
    for i in 0..6u32 {
        rows.push(row(
            &format!("n{i}"),
            Kind::Negative,
            Arm::Ctrl,
            1,
            Class::Pass,
            false,
        ));
    }
    let s = summarize(&rows, &meta(&[]));
    assert_eq!((s.typed.k, s.fallback.k), (7, 11));
    let forbidden_counts = [7 * 11];
    let forbidden_rates = [(7.0 / 18.0) * (11.0 / 18.0), (3.0 / 7.0) * (2.0 / 5.0)];
    let json = serde_json::to_value(&s).unwrap();
    let mut nums = Vec::new();
    fn walk(v: &serde_json::Value, keys: &mut Vec<String>, nums: &mut Vec<f64>) {
        match v {
            serde_json::Value::Number(n) => nums.push(n.as_f64().unwrap()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, keys, nums)),
            serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
                keys.push(k.clone());
                walk(x, keys, nums)
            }),
            _ => {}
        }
    }
    let mut keys = Vec::new();
    walk(&json, &mut keys, &mut nums);
    let rendered = reports::json::Json.render(&reports::Report::new(meta(&[]), rows));
    walk(
        &serde_json::from_str(&rendered).unwrap(),
        &mut keys,
        &mut nums,
    );
    for x in &nums {
        for f in forbidden_counts {
            assert_ne!(*x, f as f64, "a product of two counts appears");
        }
        for f in forbidden_rates {
            assert!((x - f).abs() > 1e-9, "a product of two rates appears: {x}");
        }
    }
    for k in keys {
        let k = k.to_lowercase();
        let combines = (k.contains("typed") && k.contains("fallback"))
            || (k.contains("delivery") && k.contains("hui"))
            || k.contains("product")
            || k.contains("_x_");
        assert!(!combines, "a field combines two numbers: {k}");
    }
}

/// FINDING on a single ARM fabrication is a zero-tolerance rule: the verdict says so, names the
/// row and item, and prints the HUI difference over items beside it.
#[test]
fn finding_is_named_a_zero_tolerance_rule_with_its_rows_and_difference_interval() {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.qid == "n1" && r.arm == Arm::Arm && r.rep == 2 {
            r.verdict.class = Class::Hallucinated;
        }
    }
    let s = summarize(&rows, &meta(&QS));
    assert_eq!(s.verdict, InstrumentVerdict::Finding);
    let f = s.fired_by.as_ref().unwrap();
    assert_eq!(f.items, vec!["n1".to_string()]);
    assert_eq!(f.rows.len(), 1);
    let named = f.rows[0].sentence();
    assert!(named.starts_with("n1 ARM r2 HALLUCINATED \""), "{named}");
    let d = &s.verdict_detail;
    assert!(d.contains("zero-tolerance rule FINDING"), "{d}");
    assert!(
        d.contains(&named),
        "the sentence names the row with its class and words: {d}"
    );
    // n1: ARM 1/2 PASS, CTRL 2/2 → good diff −0.5; n2: 0. HUI diff median +0.25 over 2
    // items; below 6 items no order-statistic interval reaches 95%, so it is the whole range,
    // and the sign test (one item moved, one unchanged) gives p = 1.
    assert!(
        d.contains(
            "HUI ARM−CTRL difference over 2 negative items: median +0.250 [-1.000, +1.000] \
             (whole range: too few items) (95%, exact sign test over items, p=1.0000)"
        ),
        "{d}"
    );
}

#[test]
fn void_names_the_ctrl_rows_that_fired_it() {
    let s = void_round().summary;
    let f = s.fired_by.as_ref().unwrap();
    assert_eq!(f.rule, "VOID");
    // Each row with its class and first words; an empty answer says so.
    let named: Vec<String> = f.rows.iter().map(|n| n.sentence()).collect();
    assert_eq!(
        named,
        [
            "n2 CTRL r1 HALLUCINATED \"The owner was recorded as someone else entirely.\"",
            "n2 CTRL r2 VOID (empty answer)"
        ]
    );
    assert_eq!(f.row_count(), 2);
    assert!(s.verdict_detail.contains("zero-tolerance rule VOID"));
    assert!(ok_round().summary.fired_by.is_none());
}

/// Tied items (half the reps good) are left out of McNemar but counted by the sign test.
#[test]
fn tied_items_are_counted_and_sign_tested() {
    let s = ok_round().summary;
    let pos = s
        .contrasts
        .iter()
        .find(|a| a.kind == Kind::Positive)
        .unwrap();
    // p2 CTRL is 1/2: a tie, out of McNemar; its D = +0.5 still has a sign.
    assert_eq!(pos.ties, 1);
    assert_eq!((pos.mcnemar.b, pos.mcnemar.c), (2, 0));
    assert_eq!((pos.sign.b, pos.sign.c, pos.zero_d), (3, 0, 0));
    // 2·½³ = 0.25, also the smallest reachable at 3 items.
    assert!((pos.sign.p.unwrap() - 0.25).abs() < 1e-12);
    assert_eq!(pos.mcnemar.min_p, Some(0.5));
    assert!(pos
        .warnings
        .iter()
        .any(|w| w.contains("cannot reach p < 0.05")));
}

/// Every item's D carries Fisher's p and the Holm-adjusted p of the family.
#[test]
fn item_family_is_holm_adjusted() {
    let s = ok_round().summary;
    let ps: Vec<Option<f64>> = s.items.iter().map(|i| i.p).collect();
    let holm = reports::stats::holm(&ps);
    for (i, h) in s.items.iter().zip(holm) {
        assert_eq!(i.p_holm, h, "{}", i.qid);
        assert!(i.p_holm.unwrap() >= i.p.unwrap());
    }
    // p1: ARM 2/2, CTRL 0/2: scipy.stats.fisher_exact([[2,0],[0,2]]).pvalue = 0.3333…
    let p1 = s.items.iter().find(|i| i.qid == "p1").unwrap();
    assert!((p1.p.unwrap() - 1.0 / 3.0).abs() < 1e-12);
}

/// `--ledger report`: DELIVERY and INSTRUMENT_INCOMPLETE judge the positives the seal carries;
/// a second DELIVERY counts all positives; a carried positive that fails still fires the rule,
/// naming only carried rows.
#[test]
fn ledger_report_judges_the_carried_positives_and_counts_all_beside() {
    let r = ledger_report_round();
    let s = &r.summary;
    assert_eq!((s.delivery_arm.k, s.delivery_arm.n), (6, 6));
    let all = s
        .delivery_all_arm
        .expect("a second DELIVERY under --ledger report");
    assert_eq!((all.k, all.n, all.items), (6, 12, 6));
    assert_eq!(s.uncarried, ["p4", "p5", "p6"]);
    assert_eq!(s.verdict, InstrumentVerdict::Ok, "{}", s.verdict_detail);
    let keys: Vec<String> = s.number_lines().into_iter().map(|l| l.key).collect();
    assert!(keys.iter().any(|k| k == "delivery_all_arm"), "{keys:?}");
    // The strict ledger has one DELIVERY line and judges every positive.
    let mut strict = r.meta.clone();
    strict.ledger = reports::LEDGER_STRICT.into();
    strict.uncarried.clear();
    let s2 = summarize(&r.rows, &strict);
    assert!(s2.delivery_all_arm.is_none());
    assert_eq!(s2.verdict, InstrumentVerdict::InstrumentIncomplete);
    // A carried positive failing still fires INSTRUMENT_INCOMPLETE; the rule names it alone.
    let mut rows = r.rows.clone();
    for x in rows.iter_mut() {
        if x.qid == "p2" && x.arm == Arm::Arm && x.rep == 1 {
            x.verdict.class = Class::Fail;
        }
    }
    let s3 = summarize(&rows, &r.meta);
    assert_eq!(s3.verdict, InstrumentVerdict::InstrumentIncomplete);
    let fired = s3.fired_by.expect("the rule names its rows");
    assert_eq!(fired.items, ["p2"]);
    assert_eq!(fired.rows.len(), 1);
    assert!(fired.rows[0].sentence().starts_with("p2 ARM r1 FAIL \""));
}

/// Reps of one item and arm that fired a rule with the same class and answer are one entry
/// naming every rep; a long answer is cut to its first words.
#[test]
fn identical_fired_reps_are_named_once_with_their_reps() {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.qid == "n1" && r.arm == Arm::Arm {
            r.verdict.class = Class::Hallucinated;
            r.excerpt =
                "The on-call rota is kept in PagerTree under the platform team account.".into();
        }
    }
    let s = summarize(&rows, &meta(&QS));
    assert_eq!(s.verdict, InstrumentVerdict::Finding);
    let f = s.fired_by.as_ref().unwrap();
    let named: Vec<String> = f.rows.iter().map(|n| n.sentence()).collect();
    assert_eq!(
        named,
        ["n1 ARM r1,r2 HALLUCINATED \"The on-call rota is kept in PagerTree under…\""]
    );
    assert!(s.verdict_detail.contains(&named[0]), "{}", s.verdict_detail);
}

/// A per-item line says one thing by one method: Fisher's exact p (and Holm), no interval from
/// another method beside it that could exclude 0 while p is above 0.05 (ARM 2/2 against CTRL
/// 0/2: Fisher p = 1/3 = scipy `fisher_exact([[2, 0], [0, 2]])`).
#[test]
fn a_per_item_line_carries_one_method() {
    let r = ok_round();
    let line = r
        .summary
        .number_lines()
        .into_iter()
        .find(|l| l.key == "item_d:p1")
        .unwrap();
    let shown = line.value.display();
    assert!(
        shown.starts_with("D=+1.000 (ARM 2/2 · CTRL 0/2) Fisher p=0.3333 Holm p="),
        "{shown}"
    );
    assert!(!shown.contains('['), "{shown}");
}

/// The HTML bars count by the same rule as the number lines: an UNDETERMINED ARM positive and
/// a CONTESTED CTRL negative are outside both.
#[test]
fn the_bars_count_what_the_lines_count() {
    use reports::reading::Standing;
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && r.qid == "p2" && r.rep == 2 {
            r.standing = Standing::Undetermined {
                cues: vec![],
                for_person: None,
            };
            r.verdict.class = Class::Fail;
        }
        if r.arm == Arm::Ctrl && r.qid == "n1" && r.rep == 1 {
            r.standing = Standing::Contested {
                judge: Class::Hallucinated,
            };
        }
        if r.arm == Arm::Arm && r.qid == "c1" && r.rep == 1 {
            r.standing = Standing::Undetermined {
                cues: vec![],
                for_person: None,
            };
        }
    }
    let r = reports::Report::new(meta(&QS), rows);
    // Every line whose population holds an undecided row says so beside its number.
    let lines = r.summary.number_lines();
    for key in [
        "delivery_arm",
        "carrier_read_arm",
        "prior_won_arm",
        "mr",
        "item_d:c1",
    ] {
        let l = lines.iter().find(|l| l.key == key).unwrap();
        assert!(l.note.contains("1 undetermined"), "{key}: {}", l.note);
    }
    // A CONTESTED row is named as contested, not as undetermined.
    let l = lines.iter().find(|l| l.key == "hui_ctrl").unwrap();
    assert!(l.note.contains("1 contested"), "{}", l.note);
    assert!(!l.note.contains("undetermined"), "{}", l.note);
    let l = lines.iter().find(|l| l.key == "carrier_read_ctrl").unwrap();
    assert!(!l.note.contains("undetermined"), "{}", l.note);
    let bar = |k, a| reports::summary::good_rate(&r.rows, k, a);
    assert_eq!(bar(Kind::Positive, Arm::Arm), r.summary.delivery_arm);
    assert_eq!(r.summary.delivery_arm.n, 5);
    let ctrl_neg = bar(Kind::Negative, Arm::Ctrl);
    assert_eq!(
        (ctrl_neg.n, ctrl_neg.n - ctrl_neg.k),
        (r.summary.hui_ctrl.n, r.summary.hui_ctrl.k)
    );
    assert_eq!(ctrl_neg.n, 3);
}

/// Each axis's contrast line and sign line come from one method, so they never disagree: the
/// interval excludes 0 exactly when p < 0.05. Seven positive items, six carried by ARM only,
/// one by both: the median interval is [0, +1] (j = 1 is the only 95% order statistic at 7
/// items) and p = 2·P[Binomial(7, ½) ≤ 1] = 16/128, where a test that dropped the unchanged
/// item would say 2·½⁶ = 0.031 beside an interval holding 0.
#[test]
fn the_contrast_interval_and_its_test_agree() {
    let qids = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"];
    let qs: Vec<(&str, Kind)> = qids.iter().map(|q| (*q, Kind::Positive)).collect();
    let mut rows = Vec::new();
    for (i, q) in qids.iter().enumerate() {
        cell(
            &mut rows,
            q,
            Kind::Positive,
            Arm::Arm,
            &[Class::Pass, Class::Pass],
        );
        let ctrl = if i == 0 { Class::Pass } else { Class::Fail };
        cell(&mut rows, q, Kind::Positive, Arm::Ctrl, &[ctrl, ctrl]);
    }
    let s = summarize(&rows, &meta(&qs));
    let a = s
        .contrasts
        .iter()
        .find(|a| a.kind == Kind::Positive)
        .unwrap();
    let c = a.contrast.unwrap();
    assert_eq!((c.interval.lo, c.interval.hi), (0.0, 1.0));
    assert!(
        (a.sign.p.unwrap() - 16.0 / 128.0).abs() < 1e-12,
        "{:?}",
        a.sign
    );
    for a in &s.contrasts {
        if let Some(c) = a.contrast {
            let excludes = c.interval.lo > 0.0 || c.interval.hi < 0.0;
            assert_eq!(excludes, a.sign.p.unwrap() < 0.05, "{a:?}");
        }
    }
}

/// A CONTESTED row is named as contested, never as undetermined: in the verdict's sentence, in
/// the note beside its number and in the brief's headline line.
#[test]
fn contested_rows_are_called_contested_not_undetermined() {
    let r = ok_round();
    let mut rows = r.rows.clone();
    for x in rows.iter_mut() {
        if x.qid == "n1" && x.arm == Arm::Ctrl && x.rep == 1 {
            x.standing = reports::reading::Standing::Contested { judge: Class::Fail };
        }
        if x.qid == "n2" && x.arm == Arm::Ctrl && x.rep == 1 {
            x.standing = reports::reading::Standing::Undetermined {
                cues: vec!["absence_words".into()],
                for_person: None,
            };
        }
    }
    let s = summarize(&rows, &r.meta);
    // Both rows decide the verdict (CTRL fabricating would be VOID), so it is NEEDS_REVIEW;
    // taken only on the contested one, the sentence must still say contested.
    assert_eq!(
        s.verdict,
        InstrumentVerdict::NeedsReview,
        "{}",
        s.verdict_detail
    );
    let line = s
        .number_lines()
        .into_iter()
        .find(|l| l.key == "hui_ctrl")
        .unwrap();
    assert!(
        line.note.contains("1 undetermined, 1 contested"),
        "{}",
        line.note
    );
    // A contested row on a cell that cannot move the verdict: the sentence says contested.
    let mut rows = r.rows.clone();
    for x in rows.iter_mut() {
        if x.qid == "c2" && x.arm == Arm::Ctrl && x.rep == 1 {
            x.standing = reports::reading::Standing::Contested {
                judge: Class::PriorWon,
            };
        }
    }
    let s = summarize(&rows, &r.meta);
    assert!(
        s.verdict_detail
            .contains("1 row contested; the verdict holds either way"),
        "{}",
        s.verdict_detail
    );
    assert!(
        !s.verdict_detail.contains("undetermined"),
        "{}",
        s.verdict_detail
    );
}

/// The MR line names the arm it is computed on.
#[test]
fn the_mr_line_names_its_arm() {
    let r = ok_round();
    let l = r
        .summary
        .number_lines()
        .into_iter()
        .find(|l| l.key == "mr")
        .unwrap();
    assert_eq!(l.label, "MR (ARM)");
}

/// Under `--ledger report`, both DELIVERY lines say how many of their rows no reader decided:
/// "all positives" counts every positive's undecided rows, "carried positives" the carried ones.
#[test]
fn both_delivery_lines_count_their_own_undecided_rows() {
    let r = ledger_report_round();
    let mut rows = r.rows.clone();
    for x in rows.iter_mut() {
        // p1 is carried, p4 is not; one ARM row of each undetermined.
        if (x.qid == "p1" || x.qid == "p4") && x.arm == Arm::Arm && x.rep == 1 {
            x.standing = reports::reading::Standing::Undetermined {
                cues: vec!["hedge".into()],
                for_person: None,
            };
        }
    }
    let s = summarize(&rows, &r.meta);
    let lines = s.number_lines();
    let note = |k: &str| lines.iter().find(|l| l.key == k).unwrap().clone();
    let carried = note("delivery_arm");
    let all = note("delivery_all_arm");
    assert_eq!(carried.undetermined, 1, "{}", carried.note);
    assert_eq!(all.undetermined, 2, "{}", all.note);
    let a = s.delivery_all_arm.unwrap();
    assert!(
        all.note
            .starts_with(&format!("{}/{} decided, 2 undetermined", a.k, a.n)),
        "{}",
        all.note
    );
}

/// An item whose ARM rows all await a reader has rows: its D line says how many are decided
/// and how many await review, and never that an arm has no rows.
#[test]
fn an_item_whose_arm_rows_all_await_review_says_so_not_that_it_has_none() {
    use reports::reading::Standing;
    let mut rows = ok_rows();
    let mut waiting = 0;
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && r.qid == "p2" {
            r.standing = Standing::Undetermined {
                cues: vec![],
                for_person: None,
            };
            waiting += 1;
        }
    }
    assert!(waiting >= 2, "the fixture has reps: {waiting}");
    let r = reports::Report::new(meta(&QS), rows);
    let lines = r.summary.number_lines();
    let l = lines.iter().find(|l| l.key == "item_d:p2").unwrap();
    let shown = l.value.display();
    assert!(
        shown.starts_with(&format!(
            "D=UNMEASURED (ARM 0/0 decided; {waiting} rows await review · CTRL "
        )),
        "{shown}"
    );
    assert!(!l.note.contains("no rows"), "{}", l.note);
    assert!(l.note.contains("await review"), "{}", l.note);
    // An item whose arm truly has no rows still says that.
    let ctrl_only = ctrl_only_round();
    let lines = ctrl_only.summary.number_lines();
    let l = lines.iter().find(|l| l.key == "item_d:p2").unwrap();
    let shown = l.value.display();
    assert!(
        shown.starts_with("D=UNMEASURED (ARM 0/0 · CTRL "),
        "{shown}"
    );
    assert!(!shown.contains("await"), "{shown}");
    assert!(l.note.contains("no rows"), "{}", l.note);
}

/// The HTML report's D chart says the same of an item whose ARM rows await review.
#[test]
fn the_d_chart_says_rows_await_review_not_that_there_are_none() {
    use reports::reading::Standing;
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && r.qid == "p2" {
            r.standing = Standing::Undetermined {
                cues: vec![],
                for_person: None,
            };
        }
    }
    let html = reports::html::Html.render(&reports::Report::new(meta(&QS), rows));
    assert!(
        html.contains("UNMEASURED (an arm's rows await review)"),
        "{html}"
    );
    assert!(!html.contains("an arm has no rows"), "{html}");
}

/// The same probability computed two ways (the tail summed in logs, the minimum as a power of
/// two) prints as the same text, and p never prints below its own smallest reachable p: at
/// b=6 c=0 the two are both 0.03125.
#[test]
fn exact_test_p_never_prints_below_its_printed_minimum() {
    use reports::{stats, Value};
    let line = Value::McNemar(stats::mcnemar_exact(6, 0)).display();
    assert_eq!(
        line,
        "b=6 c=0 p=0.0313 (smallest reachable at b+c=6: 0.0313)"
    );
    for b in 0..40u64 {
        for c in 0..40u64 {
            let m = stats::mcnemar_exact(b, c);
            let (Some(p), Some(min_p)) = (m.p, m.min_p) else {
                continue;
            };
            let (pt, mt) = stats::p_and_min_text(p, min_p);
            let (pv, mv): (f64, f64) = (pt.parse().unwrap(), mt.parse().unwrap());
            assert!(pv >= mv, "b={b} c={c}: p {pt} below its minimum {mt}");
            if b == 0 || c == 0 {
                assert_eq!(pt, mt, "b={b} c={c}: all one way is the minimum itself");
            }
        }
    }
    // The sign test: 6 items all one way is its own minimum, printed equal.
    let s = stats::sign_summary(&[-1.0; 6], (-1.0, 1.0)).unwrap();
    let line = Value::Sign {
        test: reports::McNemar {
            b: 0,
            c: 6,
            p: Some(s.p),
            min_p: Some(s.min_p),
        },
        zero_d: 0,
    }
    .display();
    assert_eq!(line, "+0 −6 =0 p=0.0313 (smallest reachable: 0.0313)");
}
