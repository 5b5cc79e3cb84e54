//! Renderers: snapshots of fixed rounds, watermarks in every format, round-trips.

mod common;

use common::*;
use reports::csv::Csv;
use reports::html::Html;
use reports::json::Json;
use reports::markdown::Markdown;
use reports::terminal::Terminal;
use reports::{watermark_ok, Render, Report};

const TERM: Terminal = Terminal {
    color: false,
    width: 140,
};

fn rounds() -> Vec<(&'static str, Report)> {
    vec![
        ("ok", ok_round()),
        ("void", void_round()),
        ("contaminated", contaminated_round()),
        ("no_conflict", no_conflict_round()),
        ("ctrl_only", ctrl_only_round()),
        ("ledger_report", ledger_report_round()),
    ]
}

#[test]
fn snapshots() {
    for (name, r) in rounds() {
        insta::assert_snapshot!(format!("{name}_terminal"), TERM.render(&r));
        insta::assert_snapshot!(format!("{name}_csv"), Csv.render(&r));
        insta::assert_snapshot!(format!("{name}_json"), Json.render(&r));
        insta::assert_snapshot!(format!("{name}_markdown"), Markdown.render(&r));
        insta::assert_snapshot!(format!("{name}_html"), Html.render(&r));
    }
}

#[test]
fn watermark_exactly_when_it_should_in_terminal_and_markdown() {
    for (name, r) in rounds() {
        let wm = r.summary.watermark.as_deref();
        let expected = match name {
            "void" => Some("VOID"),
            "contaminated" => Some("CONTAMINATED"),
            _ => None,
        };
        assert_eq!(wm, expected, "{name}");
        for text in [
            TERM.render(&r),
            Terminal {
                color: true,
                width: 80,
            }
            .render(&r),
            Markdown.render(&r),
        ] {
            watermark_ok(&text, wm).unwrap_or_else(|e| panic!("{name}: {e}"));
            // and the check is not vacuous: the opposite claim fails
            let wrong = if wm.is_some() { None } else { Some("VOID") };
            assert!(
                watermark_ok(&text, wrong).is_err(),
                "{name}: check passed both ways"
            );
        }
    }
}

#[test]
fn watermark_ok_catches_a_missing_prefix_on_one_line() {
    let text = TERM.render(&void_round());
    let broken = text.replacen("[VOID] │ HUI (CTRL)", "│ HUI (CTRL)", 1);
    assert_ne!(text, broken);
    let e = watermark_ok(&broken, Some("VOID")).unwrap_err();
    assert!(e.contains("HUI (CTRL)"), "{e}");
    let md = Markdown.render(&void_round());
    let broken = md.replacen("| [VOID] | HUI (CTRL)", "| HUI (CTRL)", 1);
    assert!(watermark_ok(&broken, Some("VOID")).is_err());
    // a watermark on an OK round is caught as well
    let ok = TERM.render(&ok_round());
    let forged = ok.replacen("│ DELIVERY", "[VOID] │ DELIVERY", 1);
    assert!(watermark_ok(&forged, None).is_err());
}

#[test]
fn combined_watermark_reaches_every_format() {
    let mut r = void_round();
    r.meta.contaminated = true;
    let r = Report::new(r.meta, r.rows);
    let wm = "VOID+CONTAMINATED";
    watermark_ok(&TERM.render(&r), Some(wm)).unwrap();
    watermark_ok(&Markdown.render(&r), Some(wm)).unwrap();
    let csv = Csv.render(&r);
    assert!(csv
        .lines()
        .skip(1)
        .all(|l| l.starts_with("VOID+CONTAMINATED,")));
    let html = Html.render(&r);
    let row_lines = html.matches("<tr class=\"r ").count();
    assert!(row_lines > 0 && row_lines <= r.rows.len());
    assert_eq!(
        html.matches(
            "data-watermark=\"VOID+CONTAMINATED\"><td class=\"wm\">[VOID+CONTAMINATED]</td>"
        )
        .count(),
        row_lines + r.summary.number_lines().len()
    );
    let json: serde_json::Value = serde_json::from_str(&Json.render(&r)).unwrap();
    for key in ["numbers", "rows"] {
        for x in json[key].as_array().unwrap() {
            assert_eq!(x["watermark"], wm);
        }
    }
}

#[test]
fn clean_rounds_carry_no_watermark_in_any_format() {
    let r = ok_round();
    assert!(Csv.render(&r).lines().skip(1).all(|l| l.starts_with(',')));
    assert!(!Html.render(&r).contains("data-watermark"));
    let json: serde_json::Value = serde_json::from_str(&Json.render(&r)).unwrap();
    assert!(json["watermark"].is_null());
    for key in ["numbers", "rows"] {
        for x in json[key].as_array().unwrap() {
            assert!(x["watermark"].is_null());
        }
    }
}

#[test]
fn unverified_is_in_the_header_and_summary_not_on_every_line() {
    let mut r = ok_round();
    r.meta.manifest = reports::ManifestStatus::Unverified;
    let r = Report::new(r.meta, r.rows);
    let t = TERM.render(&r);
    let header: Vec<&str> = t.lines().take_while(|l| !l.is_empty()).collect();
    assert!(header.iter().any(|l| l.contains("UNVERIFIED")));
    assert_eq!(t.matches("UNVERIFIED").count(), 1);
    watermark_ok(&t, None).unwrap();
    let json: serde_json::Value = serde_json::from_str(&Json.render(&r)).unwrap();
    assert_eq!(json["manifest"], "UNVERIFIED");
    assert!(Markdown.render(&r).contains("**manifest**: UNVERIFIED"));
}

#[test]
fn does_not_measure_block_and_labels_in_every_human_format() {
    for (name, r) in rounds() {
        for text in [TERM.render(&r), Markdown.render(&r), Html.render(&r)] {
            for l in reports::summary::DOES_NOT_MEASURE {
                assert!(text.contains(l.title), "{name}: {} missing", l.title);
            }
            if r.summary.label_withheld.is_some() {
                assert!(text.contains("cannot be quoted as"), "{name}");
                assert!(!text.contains("carried by the hand-off"), "{name}");
            } else {
                assert!(text.contains("carried by the hand-off"), "{name}");
            }
        }
    }
}

#[test]
fn terminal_respects_width_and_color() {
    let r = ok_round();
    let narrow = Terminal {
        color: false,
        width: 80,
    }
    .render(&r);
    let body: Vec<&str> = narrow.lines().skip_while(|l| !l.is_empty()).collect();
    for l in &body {
        if l.starts_with('┌') || l.starts_with('│') || l.starts_with('└') {
            assert!(l.chars().count() <= 80, "too wide: {l}");
        }
    }
    assert!(!narrow.contains('\x1b'));
    let coloured = Terminal {
        color: true,
        width: 80,
    }
    .render(&r);
    let green_verdict = format!(
        "{}Instrument verdict: OK",
        reports::brief::verdict_style(reports::InstrumentVerdict::Ok)
    );
    assert!(coloured.contains(&green_verdict), "{coloured}");
    assert!(green_verdict.contains("32m"), "{green_verdict:?}");
}

#[test]
fn json_round_trips_to_the_same_report() {
    for (name, r) in rounds() {
        let text = Json.render(&r);
        let back = Report::from_json(&text, "summary.json").unwrap();
        assert_eq!(back.summary, r.summary, "{name}");
        assert_eq!(back.rows, r.rows, "{name}");
        assert_eq!(back.meta, r.meta, "{name}");
        assert_eq!(Json.render(&back), text, "{name}");
    }
}

#[test]
fn json_from_another_schema_is_refused() {
    let text =
        Json.render(&ok_round())
            .replacen("\"schema_version\": 1", "\"schema_version\": 2", 1);
    let e = Report::from_json(&text, "round/summary.json").unwrap_err();
    assert!(e.to_string().contains("round/summary.json"));
    assert!(e.to_string().contains("schema version 2"));
    let e = Report::from_json("{ \"schema_version\": 1, ", "x.json").unwrap_err();
    assert!(e.to_string().starts_with("x.json: "));
}

#[test]
fn csv_round_trips_rows_and_names_bad_lines() {
    for (name, r) in rounds() {
        let back = reports::csv::read_rows(&Csv.render(&r), "verdicts.csv").unwrap();
        assert_eq!(back, r.rows, "{name}");
    }
    let mut text = Csv.render(&ok_round());
    text = text.replacen(",TYPED_PASS,", ",TYPED_MAYBE,", 1);
    let e = reports::csv::read_rows(&text, "verdicts.csv").unwrap_err();
    assert!(e.to_string().starts_with("verdicts.csv:2:"), "{e}");
}

/// The HTML report reads at a glance (issue 13 item 11): a badge coloured by verdict first, one
/// per-item D view, coloured verdict cells, each row opening to its whole (escaped) answer, and
/// charts that scale to the page.
#[test]
fn html_opens_with_a_verdict_badge_and_rows_open_to_their_answers() {
    for (r, cls) in [(ok_round(), "v-OK"), (void_round(), "v-VOID")] {
        let h = Html.render(&r);
        let badge = h.find("class=\"badge ").expect("a badge");
        assert!(
            h[badge..].starts_with(&format!("class=\"badge {cls}\"")),
            "{cls}"
        );
        assert!(
            badge < h.find("<table").unwrap(),
            "the badge comes before every table"
        );
        assert_eq!(
            h.matches("<h2>Per-item D").count(),
            1,
            "one per-item D view"
        );
        // One line per distinct answer of a (question, arm), each opening to its answer.
        assert_eq!(
            h.matches("<details>").count(),
            h.matches("<tr class=\"r ").count()
        );
        // CTRL's FAIL on positives is expected (plain), ARM's PASS good (green).
        assert!(
            h.contains("<td class=\"good\">PASS") && h.contains("<td class=\"expected\">FAIL"),
            "{cls}"
        );
        assert!(
            h.contains("viewBox=\"0 0 1000 ")
                && !h.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" width=")
        );
    }
    // The whole answer, newlines kept, escaped.
    let mut r = ok_round();
    r.rows[0].excerpt = "line one\nline <two> & \"three\"\r\nend".into();
    let r = Report::new(r.meta, r.rows);
    let h = Html.render(&r);
    assert!(
        h.contains("<pre>line one\nline &lt;two&gt; &amp; &quot;three&quot;\nend</pre>"),
        "{h}"
    );
}

/// A proportion of zero is drawn as an empty track with a tick at zero, never as nothing.
#[test]
fn html_zero_bars_are_visible_as_zero() {
    let r = ok_round();
    let h = Html.render(&r);
    // every measured bar has its zero tick
    let ticks = h.matches("width=\"3\" height=\"26\"").count();
    let bars = h.matches("fill=\"#eeeeee\"").count();
    assert_eq!(bars, 6, "three axes × two arms have a track");
    assert_eq!(ticks, bars, "each measured bar has its zero tick");
}

/// A CTRL-only round has no seal and no ARM arm: its header says the ledger does not apply
/// (it never claims the seal carries anything), and the conflict label is withheld because the
/// round has no ARM arm, said in those words, in every human format.
#[test]
fn ctrl_only_round_says_the_ledger_does_not_apply_and_why_the_label_is_withheld() {
    let r = ctrl_only_round();
    let texts = [
        ("terminal", TERM.render(&r)),
        ("markdown", Markdown.render(&r)),
        ("html", Html.render(&r)),
    ];
    for (name, text) in &texts {
        assert!(!text.contains("seal carries every"), "{name}:\n{text}");
        assert!(
            text.contains("does not apply: no seal was given (a CTRL-only round)"),
            "{name}:\n{text}"
        );
        assert!(!text.contains("no ARM conflict rows"), "{name}:\n{text}");
        assert!(
            text.contains("because no ARM arm in this round: a CTRL-only round"),
            "{name}:\n{text}"
        );
    }
    // A round with both arms keeps its strict ledger line.
    let md = Markdown.render(&ok_round());
    assert!(
        md.contains("strict: the seal carries every positive"),
        "{md}"
    );
}

/// A CTRL-only round's ARM conflict lines say the round has no ARM arm, in every format, and
/// never what ARM did ("ARM never gave the repository's own value") beside a 0/0.
#[test]
fn ctrl_only_round_arm_conflict_lines_say_there_is_no_arm_arm() {
    let r = ctrl_only_round();
    assert!(
        r.summary.conflict_ctrl.rows > 0,
        "the fixture has CTRL conflict rows"
    );
    let texts = [
        ("terminal", TERM.render(&r)),
        ("markdown", Markdown.render(&r)),
        ("html", Html.render(&r)),
        ("json", Json.render(&r)),
    ];
    for (name, text) in &texts {
        assert!(!text.contains("ARM never gave"), "{name}:\n{text}");
        assert!(text.contains(reports::NO_ARM_ARM), "{name}:\n{text}");
    }
    for key in [
        "carrier_read_arm",
        "prior_won_arm",
        "abstained_arm",
        "unclassified_arm",
        "mr",
    ] {
        let line = r
            .summary
            .number_lines()
            .into_iter()
            .find(|l| l.key == key)
            .unwrap_or_else(|| panic!("no {key} line"));
        assert_eq!(line.note, reports::NO_ARM_ARM, "{key}");
    }
    // A round with both arms keeps its own words.
    let md = Markdown.render(&ok_round());
    assert!(!md.contains(reports::NO_ARM_ARM), "{md}");
}

/// HUI (ARM) at 0 is labelled as no overconfidence, never as "overconfidence caused by the
/// hand-off", in every format and in summary.json's note (its key unchanged).
#[test]
fn hui_arm_at_zero_claims_no_overconfidence() {
    let r = ok_round();
    assert_eq!(r.summary.hui_arm.k, 0);
    assert!(r.summary.hui_arm.n > 0);
    assert!(
        r.summary.label_withheld.is_none(),
        "the fixture's labels stand"
    );
    for (name, text) in [
        ("terminal", TERM.render(&r)),
        ("markdown", Markdown.render(&r)),
        ("html", Html.render(&r)),
        ("json", Json.render(&r)),
    ] {
        assert!(!text.contains("overconfidence caused"), "{name}:\n{text}");
        assert!(
            text.contains("no overconfidence: ARM abstained on every negative"),
            "{name}:\n{text}"
        );
    }
    let line = r
        .summary
        .number_lines()
        .into_iter()
        .find(|l| l.key == "hui_arm")
        .expect("hui_arm line");
    assert_eq!(line.label, "HUI (ARM)");
    // One negative ARM answer that does not abstain: the label claims overconfidence again.
    let mut rows = r.rows.clone();
    let row = rows
        .iter_mut()
        .find(|x| x.kind == scorer::Kind::Negative && x.arm == scorer::Arm::Arm)
        .unwrap();
    row.verdict.class = scorer::Class::Hallucinated;
    let hot = Report::new(r.meta.clone(), rows);
    assert!(
        hot.summary.label_withheld.is_none(),
        "{:?}",
        hot.summary.label_withheld
    );
    assert!(Markdown
        .render(&hot)
        .contains("overconfidence caused by the hand-off"));
}

/// An undetermined row names, in report.md and report.html, the cues that made it so (recorded
/// per row), sanitized: a cue name read back from summary.json is untrusted text.
#[test]
fn undetermined_rows_name_their_cues_in_markdown_and_html() {
    use reports::reading::Standing;
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == scorer::Arm::Arm && r.qid == "p2" && r.rep == 2 {
            r.verdict.class = scorer::Class::Pass;
            r.standing = Standing::Undetermined {
                cues: vec![
                    "hedge_after_value".into(),
                    "evil|cell\n<script>x</script>".into(),
                ],
                for_person: None,
            };
        }
    }
    let r = Report::new(meta(&QS), rows);
    let md = Markdown.render(&r);
    let line = md
        .lines()
        .find(|l| l.contains("UNDETERMINED (guess PASS)"))
        .unwrap_or_else(|| panic!("{md}"));
    assert!(
        line.contains("cues: hedge\\_after\\_value, evil\\|cell⏎"),
        "{line}"
    );
    assert_eq!(
        line.matches(" | ").count(),
        md.lines()
            .find(|l| l.starts_with("| qid | kind | arm | rep | verdict"))
            .unwrap()
            .matches(" | ")
            .count(),
        "a cue broke the table: {line}"
    );
    let html = Html.render(&r);
    assert!(
        html.contains("cues: hedge_after_value, evil|cell⏎&lt;script&gt;"),
        "{html}"
    );
    assert!(!html.contains("<script>x"), "{html}");
}

/// The limits a person reads are in plain words: no internal names (R1 proxy, R2 coverage, R3
/// author bias) and no "ledger" (a gate axis) for the hand-off.
#[test]
fn the_limits_are_said_in_plain_words() {
    for (name, r) in rounds() {
        for text in [TERM.render(&r), Markdown.render(&r), Html.render(&r)] {
            let limits = &text[text.rfind("does not measure").expect(name)..];
            for word in ["R1", "R2", "R3", "proxy", "author bias", "ledger"] {
                assert!(!limits.contains(word), "{name}: {word} in {limits}");
            }
        }
    }
}

/// report.md's own notes read as plain text in a terminal: `(< 10)` and `D > 0`, never the
/// entities `&lt;`/`&gt;`; nothing in the harness's own text opens HTML.
#[test]
fn markdown_notes_read_as_plain_text() {
    let md = Markdown.render(&ok_round());
    assert!(md.contains("(< 10)"), "{md}");
    assert!(md.contains("items with D > 0 vs D < 0"), "{md}");
    assert!(!md.contains("&lt;") && !md.contains("&gt;"), "{md}");
}
