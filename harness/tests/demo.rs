//! The shipped demo end to end (issue: embedded default): a fresh machine, no network, no keys.

mod common;
use common::*;

fn round_done(out: &std::path::Path) -> String {
    std::fs::read_to_string(out.join("ROUND_DONE")).expect("ROUND_DONE written")
}

#[test]
fn demo_round_runs_completes_and_rescores_without_moving_rows() {
    let dir = tempfile::tempdir().unwrap();
    let a = harness()
        .args(["run", "--quiet"])
        .current_dir(dir.path())
        .assert();
    let out_text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert_eq!(
        a.get_output().status.code(),
        Some(0),
        "{out_text}\n{}",
        String::from_utf8_lossy(&a.get_output().stderr)
    );
    let rounds: Vec<_> = std::fs::read_dir(dir.path().join("rounds"))
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
    // The labelmap is a sibling of the out-dir, never inside it.
    assert!(out
        .with_file_name(format!(
            "{}.labelmap",
            out.file_name().unwrap().to_string_lossy()
        ))
        .is_file());

    let a = harness()
        .arg("rescore")
        .arg(&out)
        .current_dir(dir.path())
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("rows moved: 0"), "{text}");
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
