//! The brief `run` ends with: the verdict and headline numbers in at most 12 lines, watermarked
//! like every number line, coloured only when asked.

mod common;

use common::*;
use reports::brief::{self, RunFacts};

fn facts(failed: usize) -> RunFacts {
    RunFacts {
        planned: 28,
        answered: 28 - failed,
        failed,
        retried: Some(1),
        cost: None,
        out_dir: "/tmp/r1".into(),
    }
}

#[test]
fn the_brief_holds_the_verdict_and_headline_numbers_in_twelve_lines() {
    let r = ok_round();
    let text = brief::render(&r, &facts(0), false);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 12, "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Instrument verdict: OK (exit 0)")),
        "{text}"
    );
    for l in ["DELIVERY (ARM)", "HUI (ARM)", "HUI (CTRL)", "LUCKY (CTRL)"] {
        let line = lines
            .iter()
            .find(|x| x.contains(l))
            .unwrap_or_else(|| panic!("{l}: {text}"));
        assert!(
            line.contains('[') && line.contains('/'),
            "no interval: {line}"
        );
    }
    assert!(
        text.contains("1 retried") && text.contains("files: /tmp/r1"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "colour without being asked");
    assert!(brief::render(&r, &facts(0), true).contains("\x1b["));
}

#[test]
fn a_void_brief_watermarks_every_number_and_an_incomplete_one_claims_nothing() {
    let r = void_round();
    let text = brief::render(&r, &facts(0), false);
    for l in text
        .lines()
        .filter(|l| l.contains("(ARM)") || l.contains("(CTRL)"))
    {
        assert!(l.starts_with("[VOID] "), "{l}");
    }
    let text = brief::render(&ok_round(), &facts(2), false);
    assert!(
        text.contains("ROUND INCOMPLETE") && !text.contains("Instrument verdict"),
        "{text}"
    );
    let j = brief::json(&ok_round(), &facts(2), 13);
    assert_eq!(j["verdict"], serde_json::Value::Null);
    assert_eq!(j["exit"], 13);
}

#[test]
fn the_terminal_report_colours_verdict_cells_only_when_asked() {
    use reports::Render;
    let on = reports::terminal::Terminal {
        color: true,
        width: 160,
    }
    .render(&void_round());
    let off = reports::terminal::Terminal {
        color: false,
        width: 160,
    }
    .render(&void_round());
    assert!(!off.contains('\x1b'));
    // a red HALLUCINATED cell and a green PASS cell
    let hall = on
        .lines()
        .find(|l| l.contains("┆ negative ┆") && l.contains("HALLUCINATED"))
        .unwrap();
    assert!(
        hall.contains("\x1b[38;5;9m") || hall.contains("\x1b[31m") || hall.contains("\x1b[91m"),
        "{hall:?}"
    );
    let pass = on
        .lines()
        .find(|l| l.contains("┆ positive ┆ ARM") && l.contains("PASS"))
        .unwrap();
    assert!(
        pass.contains("\x1b[38;5;10m") || pass.contains("\x1b[32m") || pass.contains("\x1b[92m"),
        "{pass:?}"
    );
}

/// Issue 22 item 6: a row's meaning is printed beside its class, and the colour follows the
/// meaning: CTRL not knowing a positive is expected (no colour), ARM not knowing it is bad.
#[test]
fn rows_read_as_expected_bad_or_good_for_their_arm() {
    use reports::Render;
    let mut r = void_round();
    for x in r
        .rows
        .iter_mut()
        .filter(|x| x.kind == scorer::Kind::Positive)
    {
        x.verdict.class = scorer::Class::Fail;
    }
    let on = reports::terminal::Terminal {
        color: true,
        width: 200,
    }
    .render(&r);
    let off = reports::terminal::Terminal {
        color: false,
        width: 200,
    }
    .render(&r);
    let line = |t: &str, arm: &str| {
        t.lines()
            .find(|l| l.contains(&format!("┆ positive ┆ {arm}")))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no positive {arm} row:\n{t}"))
    };
    assert!(
        line(&off, "CTRL").contains("┆ expected"),
        "{}",
        line(&off, "CTRL")
    );
    assert!(line(&off, "ARM").contains("┆ bad"), "{}", line(&off, "ARM"));
    assert!(
        !line(&on, "CTRL").contains('\x1b'),
        "expected is not painted: {:?}",
        line(&on, "CTRL")
    );
    assert!(line(&on, "ARM").contains('\x1b'), "{:?}", line(&on, "ARM"));
    for render in [
        reports::markdown::Markdown.render(&r),
        reports::html::Html.render(&r),
    ] {
        assert!(
            render.contains("expected") && render.contains("meaning"),
            "{render}"
        );
    }
}

/// A judge record as `harness rejudge` writes it: a hostile spec, nothing reported.
fn judged(mut r: reports::Report) -> reports::Report {
    r.meta.judge = Some(reports::judge::JudgeInfo {
        spec: "command:./j.sh \x1b[31m{prompt_file}".into(),
        model: None,
        rubric_version: "v1".into(),
        rubric_sha256: scorer::rubric::sha256(),
        timeout_secs: 120,
        retries: 1,
        jobs: 4,
        sandbox: "auto".into(),
        isolation: "full".into(),
        last_read: "2026-01-02T03:04:05Z".into(),
        totals: reports::judge::JudgeTotals {
            calls: 4,
            read: 3,
            no_reading: 1,
            attempts: 5,
            wall_ms: 1_200,
            ..Default::default()
        },
        calibration: None,
    });
    r
}

#[test]
fn a_judged_rounds_brief_states_the_judges_totals_never_a_zero_cost() {
    let r = judged(ok_round());
    let text = brief::render(&r, &facts(0), false);
    let line = text
        .lines()
        .find(|l| l.starts_with("judge: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.ends_with(
            "4 calls: 3 read, 1 no reading · 5 attempts (1 retries) · tokens not reported · cost not reported · wall 1.2s"
        ),
        "{line}"
    );
    assert!(!text.contains('\x1b'), "the spec is sanitized: {text}");
    let v = brief::json(&r, &facts(0), 0);
    assert_eq!(v["judge"]["totals"]["calls"], 4);
    assert!(v["judge"]["totals"]["cost_usd"].is_null());
    assert!(!v["judge"]["spec"].as_str().unwrap().contains('\x1b'));
    // Without a judge: no judge line, `judge: null`.
    let text = brief::render(&ok_round(), &facts(0), false);
    assert!(!text.contains("judge:"), "{text}");
    assert!(brief::json(&ok_round(), &facts(0), 0)["judge"].is_null());
}

/// CTRL never gave the repository's own value: the reports withhold the label, so the brief
/// the terminal closes with must say so and never that the numbers point at the hand-off.
#[test]
fn the_brief_withholds_the_label_whenever_the_reports_do() {
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.kind == scorer::Kind::Conflict && r.arm == scorer::Arm::Ctrl {
            r.verdict.class = scorer::Class::AbstainedOnConflict;
        }
    }
    let r = reports::Report::new(meta(&QS), rows);
    let why = r
        .summary
        .label_withheld
        .clone()
        .expect("the reports withhold the label");
    assert!(why.contains("PRIOR_WON 0/"), "{why}");
    let md = reports::Render::render(&reports::markdown::Markdown, &r);
    assert!(
        md.contains("cannot be quoted as what the hand-off delivered"),
        "{md}"
    );
    let text = brief::render(&r, &facts(0), false);
    assert!(
        text.contains("these numbers describe this round but cannot be quoted as what the hand-off delivered, because")
            && text.contains("PRIOR_WON 0/"),
        "{text}"
    );
    assert!(
        !text.contains("point at what the hand-off delivered"),
        "{text}"
    );
    let term = reports::Render::render(
        &reports::terminal::Terminal {
            color: false,
            width: 120,
        },
        &r,
    );
    assert!(
        !term.contains("point at what the hand-off delivered"),
        "{term}"
    );
    assert!(!md.contains("point at what the hand-off delivered"), "{md}");
}
