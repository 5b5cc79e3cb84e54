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
    // B's own verdict comes first, then what differs, then the numbers.
    let lines: Vec<&str> = s.lines().collect();
    assert!(
        lines[1].starts_with("CAUTION: B round b is INSTRUMENT_INCOMPLETE"),
        "{s}"
    );
    assert!(
        lines[2].starts_with("A and B differ in: deliver (not a noise floor"),
        "{s}"
    );
    let q01 = s
        .lines()
        .find(|l| l.starts_with("q01 positive good A 3/3 → B 0/3  -1.000"))
        .unwrap_or_else(|| panic!("no q01 line: {s}"));
    assert!(q01.ends_with("FLIPPED good→bad"), "{q01}");
    // Five positive items: the limit is said, not a p that cannot be reached.
    assert!(
        s.contains("Did B carry more than A? B carried 5 fewer positives than A (q01, q02, q03, q04, q05), none more; with 5 items no difference can reach p < 0.05."),
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

/// `(k, n)` of a number line of a round's summary.json.
fn number(out: &Path, key: &str) -> (u64, u64) {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let line = v["numbers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {}", out.display()));
    (
        line["value"]["k"].as_u64().unwrap(),
        line["value"]["n"].as_u64().unwrap(),
    )
}

/// compare's rates per axis and round, as `(k, n)`, with the undecided rows it left out.
fn compared(dir: &Path, a: &str, b: &str) -> serde_json::Value {
    let o = run_in(dir, &["compare", a, b, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn axis_counts(v: &serde_json::Value, name: &str, side: &str) -> (u64, u64, u64) {
    let a = v["axes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap();
    (
        a[side]["k"].as_u64().unwrap(),
        a[side]["n"].as_u64().unwrap(),
        a["undecided"][side].as_u64().unwrap(),
    )
}

/// compare counts exactly what each round's own report counts: decided rows only. The
/// delivered demo has three UNDETERMINED ARM conflict rows (its report: CARRIER-READ 6/6 rows
/// over 2 items); a round of the undetermined design read by a judge that contradicts the
/// lexicon has a CONTESTED ARM negative (its report: HUI (ARM) 0/0). Both stay out of compare's
/// rates and are listed beside them.
#[test]
fn compare_counts_what_each_rounds_report_counts() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    for (out, mode) in [("a", "deliver"), ("b", "discover")] {
        run_in(dir, &["run", "--quiet", "--demo", mode, "--out", out]);
        assert!(dir.join(out).join("ROUND_DONE").is_file());
    }
    let v = compared(dir, "a", "b");
    for (side, out) in [("a", "a"), ("b", "b")] {
        for (name, key) in [
            ("DELIVERY (ARM)", "delivery_arm"),
            ("HUI (ARM)", "hui_arm"),
            ("CARRIER-READ (ARM)", "carrier_read_arm"),
        ] {
            let (k, n, _) = axis_counts(&v, name, side);
            assert_eq!((k, n), number(&dir.join(out), key), "{side} {name}");
        }
    }
    assert_eq!(axis_counts(&v, "CARRIER-READ (ARM)", "a"), (6, 6, 3));

    let design = common::UndeterminedDesign::write(dir);
    let contest = format!(
        "command:{} reply {{prompt_file}} HALLUCINATED false",
        agents_dir().join("judge.sh").display()
    );
    for (out, judge) in [("plain", None), ("judged", Some(contest.as_str()))] {
        let mut args: Vec<std::ffi::OsString> = [
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--agent",
        ]
        .iter()
        .map(Into::into)
        .collect();
        args.push(design.agent.clone().into());
        args.extend(design.inputs());
        args.extend(["--out".into(), out.into()]);
        if let Some(j) = judge {
            args.extend(["--judge".into(), j.into()]);
        }
        let o = harness()
            .args(&args)
            .current_dir(dir)
            .env("HOME", dir.join("home"))
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .output()
            .unwrap();
        assert!(
            dir.join(out).join("ROUND_DONE").is_file(),
            "{}",
            text(&o.stderr)
        );
    }
    let v = compared(dir, "plain", "judged");
    for (side, out) in [("a", "plain"), ("b", "judged")] {
        for (name, key) in [("DELIVERY (ARM)", "delivery_arm"), ("HUI (ARM)", "hui_arm")] {
            let (k, n, _) = axis_counts(&v, name, side);
            assert_eq!((k, n), number(&dir.join(out), key), "{side} {name}");
        }
    }
    assert_eq!(axis_counts(&v, "HUI (ARM)", "b"), (0, 0, 1));
    let q2 = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["qid"] == "q2")
        .unwrap();
    assert_eq!(q2["undecided_b"][0], "q2 ARM r1 CONTESTED");
    assert!(q2["diff"].is_null());
}

/// A round is never compared with itself or a byte copy of itself, and a folder never pools a
/// round twice: each is refused with exit 2 and the reason.
#[test]
fn a_round_against_itself_or_its_copy_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    run_in(
        dir,
        &[
            "run", "--quiet", "--demo", "deliver", "--reps", "1", "--out", "pool/a",
        ],
    );
    assert!(dir.join("pool/a/ROUND_DONE").is_file());
    let copy = |from: &Path, to: &Path| {
        for e in walkdir(from) {
            let rel = e.strip_prefix(from).unwrap();
            let dest = to.join(rel);
            if e.is_dir() {
                std::fs::create_dir_all(&dest).unwrap();
            } else {
                std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                std::fs::copy(&e, &dest).unwrap();
            }
        }
    };
    copy(&dir.join("pool/a"), &dir.join("copy"));
    let o = run_in(dir, &["compare", "pool/a", "pool/a"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("same folder"),
        "{}",
        text(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    let o = run_in(dir, &["compare", "pool/a", "copy"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("same round"),
        "{}",
        text(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    copy(&dir.join("pool/a"), &dir.join("pool/b"));
    let o = run_in(dir, &["compare", "pool", "copy"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("are the same round")
            && text(&o.stderr).contains("remove the copy"),
        "{}",
        text(&o.stderr)
    );
}

/// Every file and folder under `root`, parents first.
fn walkdir(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        if out[i].is_dir() {
            let mut kids: Vec<_> = std::fs::read_dir(&out[i])
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            kids.sort();
            out.extend(kids);
        }
        i += 1;
    }
    out
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

/// `harness plan` and `run --dry-run` state, before a token is spent, what the item tests can
/// show: the demo's 5 positive, 4 negative and 3 conflict items can reach p < 0.05 with no
/// test, whatever the reps; a qset of 12 positives needs 0.58 of them to move one way for
/// McNemar, 0.87 for the sign test over all items (exact binomials; see reports::stats).
#[test]
fn plan_and_dry_run_say_what_the_item_tests_can_reach() {
    let d = tempfile::tempdir().unwrap();
    let o = run_in(d.path(), &["plan", "--out", "p"]);
    let s = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{s}{}", text(&o.stderr));
    assert!(
        s.contains("power (80%, two-sided α=0.05, the exact item tests"),
        "{s}"
    );
    assert!(s.contains("DELIVERY     5 items: no test can reach p < 0.05 with 5 items (the smallest p is 0.0625); add items, not reps"), "{s}");
    assert!(
        s.contains("HUI          4 items: no test can reach p < 0.05 with 4 items"),
        "{s}"
    );
    let o = run_in(d.path(), &["run", "--dry-run", "--reps", "10"]);
    let s = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{s}{}", text(&o.stderr));
    assert!(
        s.contains("DELIVERY     5 items: no test can reach p < 0.05 with 5 items"),
        "{s}"
    );
    let repo = d.path().join("repo");
    make_repo(&repo, &[("README.md", b"A small service.\n")]);
    let qset = d.path().join("q.tsv");
    let toks: Vec<String> = (0..12).map(|i| tok(&format!("p{i}"))).collect();
    let rows: Vec<[&str; 4]> = (0..12)
        .map(|i| {
            [
                [
                    "P00", "P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08", "P09", "P10",
                    "P11",
                ][i],
                "positive",
                "What is the value?",
                toks[i].as_str(),
            ]
        })
        .collect();
    write_qset(&qset, &rows);
    let o = run_in(
        d.path(),
        &[
            "run",
            "--dry-run",
            "--arms",
            "CTRL",
            "--agent",
            "baseline-grep",
            "--qset",
            qset.to_str().unwrap(),
            "--repo",
            repo.to_str().unwrap(),
        ],
    );
    let s = text(&o.stdout);
    assert!(
        s.contains("DELIVERY     12 items: 0.58 by McNemar on the items that moved (ARM−CTRL), 0.87 by the sign test over all items (ARM−CTRL and A−B)"),
        "{s}{}",
        text(&o.stderr)
    );
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
            .any(|l| l.starts_with("q01 positive good A 2/2 → B 0/1")),
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
