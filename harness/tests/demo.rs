//! The shipped demo end to end (issue: embedded default): a fresh machine, no network, no keys.

mod common;
use common::*;

fn round_done(out: &std::path::Path) -> String {
    std::fs::read_to_string(out.join("ROUND_DONE")).expect("ROUND_DONE written")
}

#[test]
fn demo_round_runs_completes_and_rescores_without_moving_rows() {
    let dir = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let a = harness()
        .args(["run", "--quiet"])
        .current_dir(dir.path())
        .env("XDG_STATE_HOME", state.path())
        .assert();
    let out_text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    let err_text = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert_eq!(
        a.get_output().status.code(),
        Some(0),
        "{out_text}\n{err_text}"
    );
    // The verdict and the headline numbers are where the eye lands: the last 12 lines.
    let lines: Vec<&str> = out_text.lines().collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    assert!(tail.contains("Instrument verdict: OK (exit 0)"), "{tail}");
    for n in ["DELIVERY (ARM)", "HUI (ARM)", "HUI (CTRL)", "LUCKY (CTRL)"] {
        assert!(tail.contains(n), "{n} not in the last 12 lines:\n{tail}");
    }
    // The default out-dir is the per-user state folder, said at start; nothing in the cwd.
    let root = state.path().join("harness").join("rounds");
    assert!(err_text.contains(&root.display().to_string()), "{err_text}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let rounds: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .collect();
    assert_eq!(rounds.len(), 1);
    let out = rounds[0].path();
    let done = round_done(&out);
    assert!(done.contains("complete: yes"), "{done}");
    assert!(done.contains("verdict: OK"), "{done}");
    assert!(
        done.contains("manifest: match"),
        "the demo runs against its shipped manifest:\n{done}"
    );
    for f in [
        "verdicts.csv",
        "summary.json",
        "report.md",
        "report.html",
        "round.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // The labels are in the round's journal, inside the out-dir (which the sandbox forbids).
    assert!(out.join("journal").join("plan.json").is_file());

    let a = harness()
        .arg("rescore")
        .arg(&out)
        .current_dir(dir.path())
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("rows moved: 0"), "{text}");
    // The moved rows and the new verdict, not the whole report again (issue 13 item 1).
    assert!(
        text.lines().count() <= 15,
        "{} lines:\n{text}",
        text.lines().count()
    );
    assert!(text.contains("Instrument verdict: OK (exit 0)"), "{text}");
}

#[test]
fn demo_discover_is_instrument_incomplete_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let a = harness()
        .args(["run", "--quiet", "--demo", "discover", "--out", "disc"])
        .current_dir(dir.path())
        .assert()
        .code(4);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("INSTRUMENT_INCOMPLETE"), "{text}");
    let done = round_done(&dir.path().join("disc"));
    assert!(
        done.contains("complete: yes") && done.contains("INSTRUMENT_INCOMPLETE"),
        "{done}"
    );
}

#[test]
fn shipped_demo_manifest_verifies() {
    harness()
        .args(["verify", "manifests/demo.json"])
        .current_dir(workspace_root())
        .assert()
        .code(0);
}

#[test]
fn the_terminal_report_never_prints_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let a = harness()
        .args(["run", "--quiet", "--out", "tok"])
        .current_dir(dir.path())
        .assert()
        .code(0);
    let mut out = String::from_utf8_lossy(&a.get_output().stdout).to_string()
        + &String::from_utf8_lossy(&a.get_output().stderr);
    // `harness report DIR` prints the same tables: masked the same way.
    let r = harness()
        .args(["report", "tok"])
        .current_dir(dir.path())
        .assert()
        .code(0);
    let report = String::from_utf8_lossy(&r.get_output().stdout).to_string();
    assert!(report.contains("‹token›"), "{report}");
    // A conflict's true value in an answer (CTRL's httpx pin, PRIOR_WON) is masked as the true
    // value, never as the planted token: the reader is not told the planted value was given.
    assert!(
        report.contains("pinned to ‹general›") && !report.contains("pinned to ‹token›"),
        "{report}"
    );
    // The gate's list of where a true value occurs in the repository marks it the same way.
    let g = harness()
        .args(["run", "--out", "gate-shown"])
        .current_dir(dir.path())
        .assert()
        .code(0);
    let gate = String::from_utf8_lossy(&g.get_output().stdout).to_string();
    assert!(
        gate.contains("\"httpx==‹general›\"") && !gate.contains("httpx==‹token›"),
        "{gate}"
    );
    out.push_str(&report);
    let demo = harness::demo::demo().unwrap();
    let qset = scorer::qset::parse(demo.qset, "demo").unwrap();
    // Purely numeric values (a batch size, a version) also occur in the report's own numbers
    // and timestamps; those are checked on the answer-excerpt lines only.
    let numeric = |t: &str| t.chars().all(|c| c.is_ascii_digit() || c == '.');
    // The excerpts are in the Rows tables (the number tables' wrapped lines hold p-values
    // such as 0.5000, which would read as a batch size of 500).
    let mut in_rows = false;
    let excerpt_lines: String = out
        .lines()
        .filter(|l| {
            if l.starts_with("── ") {
                in_rows = l.starts_with("── Rows");
            }
            in_rows && l.contains("┆")
        })
        .collect::<Vec<_>>()
        .join("\n");
    for q in &qset.questions {
        let values = std::iter::once(q.token.as_str()).chain(q.general.as_deref());
        for v in values {
            let hay = if numeric(v) { &excerpt_lines } else { &out };
            assert!(!hay.contains(v), "{} value printed", q.qid);
        }
    }
    assert!(
        out.contains("‹token›"),
        "the excerpts are masked, not dropped"
    );
    // The out-dir keeps the answers whole: they are the answers.
    let md = std::fs::read_to_string(dir.path().join("tok/report.md")).unwrap();
    assert!(qset.questions.iter().any(|q| md.contains(&q.token)));
}
