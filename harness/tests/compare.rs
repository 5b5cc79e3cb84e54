//! `harness compare A B` end to end on real rounds: the demo handed over (A) against the demo
//! left to be discovered (B), the same setup twice (the noise floor), and two rounds on
//! different qsets (refused, exit 10, naming the qset).

mod common;

use common::*;
use std::path::Path;

fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    harness()
        .args(args)
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn compare_reports_flips_and_noise_floor_on_demo_rounds() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for (out, mode) in [("a", "deliver"), ("a2", "deliver"), ("b", "discover")] {
        let o = run_in(dir, &["run", "--quiet", "--demo", mode, "--out", out]);
        assert!(
            dir.join(out).join("ROUND_DONE").is_file(),
            "{}",
            text(&o.stderr)
        );
    }
    let o = run_in(dir, &["compare", "a", "b"]);
    let s = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{s}{}", text(&o.stderr));
    // What differs comes first.
    assert!(
        s.lines()
            .nth(1)
            .unwrap()
            .starts_with("A and B differ in: deliver"),
        "{s}"
    );
    let q01 = s
        .lines()
        .find(|l| l.starts_with("q01 positive A 3/3 → B 0/3  -1.000  p "))
        .unwrap_or_else(|| panic!("no q01 line: {s}"));
    assert!(
        q01.contains("Holm ") && q01.ends_with("FLIPPED good→bad"),
        "{q01}"
    );
    assert!(
        s.contains("B−A    -1.000 [-1.000, -1.000] DEGENERATE (zero width) over 5 items"),
        "{s}"
    );
    // The terminal never prints a token (the demo's q01 answer holds one).
    assert!(s.contains("‹token›"), "{s}");
    for format in ["md", "json", "html"] {
        let o = run_in(dir, &["compare", "a", "b", "--format", format]);
        assert_eq!(o.status.code(), Some(0), "{format}");
        assert!(text(&o.stdout).contains("good"), "{format}");
    }
    let o = run_in(dir, &["compare", "a", "a2", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["noise_floor"], true);
    assert!(v["headline"].as_str().unwrap().starts_with("NOISE FLOOR"));
    // Exit 0 even when B's round is INSTRUMENT_INCOMPLETE: a comparison is a result, not a verdict.
    let o = run_in(dir, &["compare", "b", "a"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn rounds_on_different_qsets_are_refused_naming_the_qset() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let repo = dir.join("repo");
    make_repo(&repo, &[("README.md", b"A small service.\n")]);
    let t1 = tok("cq");
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let seal = inputs.join("handoff.md");
    std::fs::write(&seal, format!("# Hand-off\nrelease codename: {t1}\n")).unwrap();
    for (name, question) in [
        ("q1.tsv", "What is the release codename?"),
        ("q2.tsv", "Which codename did the release get?"),
    ] {
        write_qset(&inputs.join(name), &[["Q1", "positive", question, &t1]]);
    }
    for (out, qset) in [("r1", "q1.tsv"), ("r2", "q2.tsv")] {
        let q = inputs.join(qset);
        let o = run_in(
            dir,
            &[
                "run",
                "--quiet",
                "--agent",
                "baseline-grep",
                "--reps",
                "1",
                "--deliver",
                "--arms",
                "both",
                "--qset",
                q.to_str().unwrap(),
                "--seal",
                seal.to_str().unwrap(),
                "--repo",
                repo.to_str().unwrap(),
                "--out",
                out,
            ],
        );
        assert!(
            dir.join(out).join("ROUND_DONE").is_file(),
            "{}{}",
            text(&o.stdout),
            text(&o.stderr)
        );
    }
    let o = run_in(dir, &["compare", "r1", "r2"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(10), "{err}");
    assert!(err.contains("not comparable: qset differs"), "{err}");
}

/// `harness plan` states the power line before a token is spent: the demo's 5 positive and 4
/// negative items at 3 reps. Expected values: scipy, `(norm.ppf(.975) + norm.ppf(.8)) *
/// sqrt(0.5 / n)` at n = 5, 15, 4, 12 → 0.886, 0.511, 0.991, 0.572.
#[test]
fn plan_prints_the_smallest_detectable_difference() {
    let d = tempfile::tempdir().unwrap();
    let o = run_in(d.path(), &["plan", "--out", "p"]);
    let s = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{s}{}", text(&o.stderr));
    assert!(s.contains("power (80%, two-sided α=0.05"), "{s}");
    assert!(s.contains("DELIVERY 5 items × 3 reps: 0.89 if each item's reps agree, 0.51 if reps are independent"), "{s}");
    assert!(s.contains("HUI      4 items × 3 reps: 0.99 if each item's reps agree, 0.57 if reps are independent"), "{s}");
}

/// A side may be a folder of finished rounds of one design: items are pooled across its rounds
/// (rows add up, reps renumbered), the pooling is stated, and a folder mixing designs is
/// refused (exit 10) naming the field.
#[test]
fn a_folder_of_rounds_is_pooled_by_item_and_a_mixed_folder_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for (out, mode) in [
        ("A/r1", "deliver"),
        ("A/r2", "deliver"),
        ("b", "discover"),
        ("mixed/r1", "deliver"),
        ("mixed/r2", "discover"),
    ] {
        let o = run_in(
            dir,
            &[
                "run", "--quiet", "--demo", mode, "--reps", "1", "--out", out,
            ],
        );
        assert!(
            dir.join(out).join("ROUND_DONE").is_file(),
            "{}",
            text(&o.stderr)
        );
    }
    let o = run_in(dir, &["compare", "A", "b"]);
    let s = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{s}{}", text(&o.stderr));
    assert!(s.contains("rounds pooled: A 2 → B 1"), "{s}");
    assert!(
        s.lines()
            .any(|l| l.starts_with("q01 positive A 2/2 → B 0/1")),
        "{s}"
    );
    let j = run_in(dir, &["compare", "A", "b", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(v["a"]["rounds"], 2);
    let o = run_in(dir, &["compare", "mixed", "b"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(10), "{err}");
    assert!(err.contains("the rounds differ in deliver"), "{err}");
}
