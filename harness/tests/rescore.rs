//! `harness rescore` and `harness report`: the same answer files, today's scorer, no agent.

mod common;
use common::*;
use std::path::{Path, PathBuf};

struct Round {
    _dir: tempfile::TempDir,
    out: PathBuf,
    qset: PathBuf,
}

/// A tiny real round: two questions, both arms, one rep, answered by the seal-reading agent.
fn tiny_round() -> Round {
    tiny_round_from(false)
}

/// The tiny round, its inputs named by absolute paths, or (`relative`) as a user types them
/// from the folder holding them.
fn tiny_round_from(relative: bool) -> Round {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(
        &repo,
        &[
            ("README.md", b"A small service.\n"),
            (".gitignore", b"tracks/\n"),
        ],
    );
    let pos = tok("cod");
    let neg = tok("reg");
    let qset = dir.path().join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the release codename?", &pos],
            [
                "q2",
                "negative",
                "Which cloud region hosts production?",
                &neg,
            ],
        ],
    );
    let seal = dir.path().join("handoff.md");
    std::fs::write(&seal, format!("The release codename is {pos}.\n")).unwrap();
    let out = dir.path().join("out1");
    let agent = format!(
        "command:sh {} {{prompt}}",
        agents_dir().join("sealreader.sh").display()
    );
    let shown = |p: &Path| -> PathBuf {
        if relative {
            p.strip_prefix(dir.path()).unwrap().to_path_buf()
        } else {
            p.to_path_buf()
        }
    };
    harness()
        .current_dir(dir.path())
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--agent",
            &agent,
            "--qset",
        ])
        .arg(shown(&qset))
        .arg("--seal")
        .arg(shown(&seal))
        .arg("--repo")
        .arg(shown(&repo))
        .arg("--out")
        .arg(shown(&out))
        .assert()
        .code(0);
    Round {
        _dir: dir,
        out,
        qset,
    }
}

/// Every file of the out-dir's top level and of its dispatches' folder, by name, with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let files = |d: &Path, prefix: &str| -> Vec<(String, Vec<u8>)> {
        std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| {
                (
                    format!("{prefix}{}", e.file_name().to_string_lossy()),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
    };
    let mut v = files(dir, "");
    v.extend(files(&dispatches(dir), "dispatches/"));
    v.sort();
    v
}

#[test]
fn rescore_moves_exactly_the_rows_whose_verdict_changed_and_touches_nothing() {
    let r = tiny_round();
    // Stand in for an older scorer: it had classified q2 CTRL r1 differently.
    let csv_path = r.out.join("verdicts.csv");
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let idx = lines
        .iter()
        // By column: a random label ("ct2q2dpdgo") may hold "q2" too.
        .position(|l| {
            let cols: Vec<&str> = l.split(',').collect();
            cols.get(1) == Some(&"q2") && cols.get(3) == Some(&"CTRL")
        })
        .expect("q2 CTRL row");
    assert!(
        lines[idx].contains(",PASS,") || lines[idx].contains(",PASS"),
        "{}",
        lines[idx]
    );
    lines[idx] = lines[idx].replacen("PASS", "HALLUCINATED", 1);
    std::fs::write(&csv_path, lines.join("\n") + "\n").unwrap();
    let before = snapshot(&r.out);

    let a = harness().arg("rescore").arg(&r.out).assert().code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("rows moved: 1"), "{text}");
    assert!(text.contains("q2 CTRL r1: HALLUCINATED → PASS"), "{text}");
    assert!(
        text.contains("scorer then:") && text.contains("scorer now:"),
        "{text}"
    );
    assert_eq!(
        snapshot(&r.out),
        before,
        "rescore must not touch the original files"
    );
    let dirs: Vec<_> = std::fs::read_dir(&r.out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("rescore-"))
        .collect();
    assert_eq!(dirs.len(), 1);
    for f in [
        "verdicts.csv",
        "summary.json",
        "report.md",
        "report.html",
        "moved.txt",
    ] {
        assert!(dirs[0].path().join(f).is_file(), "{f}");
    }
}

#[test]
fn rescore_refuses_a_changed_qset_unless_accepted() {
    let r = tiny_round();
    let mut q = std::fs::read_to_string(&r.qset).unwrap();
    q.push_str("# a comment changes the hash\n");
    std::fs::write(&r.qset, q).unwrap();
    harness().arg("rescore").arg(&r.out).assert().code(10);
    harness()
        .arg("rescore")
        .arg(&r.out)
        .arg("--accept-qset-change")
        .assert()
        .code(0);
}

#[test]
fn rescore_reads_seed_style_legacy_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("old");
    std::fs::create_dir_all(&out).unwrap();
    let pos = tok("leg");
    let qset = dir.path().join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the codename?", &pos],
            ["q2", "negative", "Which region?", &tok("r")],
        ],
    );
    std::fs::write(
        out.join("q1_ARM_r1.txt"),
        format!("The codename is {pos}.\n"),
    )
    .unwrap();
    std::fs::write(
        out.join("q1_CTRL_r1.txt"),
        "I could not find any record of that.\n",
    )
    .unwrap();
    std::fs::write(out.join("q2_ARM_r1.txt"), "그 정보는 기록에 없습니다.\n").unwrap();
    std::fs::write(
        out.join("q2_CTRL_r1.txt"),
        "I could not find any record of that.\n",
    )
    .unwrap();
    std::fs::write(out.join("q1_ARM_r1.prompt"), "sidecars never count\n").unwrap();
    // Without --qset there is nothing to score against.
    harness().arg("rescore").arg(&out).assert().code(2);
    let a = harness()
        .arg("rescore")
        .arg(&out)
        .arg("--qset")
        .arg(&qset)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("OK"), "{text}");
    let dir = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("rescore-"))
        .unwrap();
    let csv = std::fs::read_to_string(dir.path().join("verdicts.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
}

#[test]
fn an_answer_the_plan_does_not_know_is_an_error_not_a_skip() {
    let r = tiny_round();
    let p = r.out.join("journal").join("plan.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    v["dispatches"].as_array_mut().unwrap().remove(0);
    std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let a = harness().arg("rescore").arg(&r.out).assert().code(2);
    assert!(String::from_utf8_lossy(&a.get_output().stderr)
        .contains("not a dispatch of the round's plan"));
}

/// A round started with relative paths is reported from any folder: `round.json` records its
/// inputs resolved (a walkthrough found `report` failing outside the folder it ran in).
#[test]
fn a_round_started_with_relative_paths_is_reported_from_anywhere() {
    let r = tiny_round_from(true);
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(r.out.join("round.json")).unwrap()).unwrap();
    let inputs = record["inputs"].as_array().expect("inputs");
    assert!(
        inputs
            .iter()
            .all(|i| Path::new(i["path"].as_str().unwrap()).is_absolute()),
        "{inputs:?}"
    );
    let elsewhere = tempfile::tempdir().unwrap();
    harness()
        .current_dir(elsewhere.path())
        .arg("report")
        .arg(&r.out)
        .assert()
        .code(0);
}

#[test]
fn report_renders_every_format_of_a_finished_round() {
    let r = tiny_round();
    for (fmt, needle) in [
        ("table", "Instrument verdict"),
        ("csv", "qid"),
        ("json", "\"schema"),
        ("md", "#"),
        ("html", "<html"),
    ] {
        let a = harness()
            .arg("report")
            .arg(&r.out)
            .args(["--format", fmt])
            .assert()
            .code(0);
        let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        assert!(text.contains(needle), "{fmt}: {text}");
    }
}

#[test]
fn rescore_of_an_incomplete_round_claims_no_verdict() {
    let r = tiny_round();
    let done = r.out.join("ROUND_DONE");
    let text = std::fs::read_to_string(&done)
        .unwrap()
        .replace("complete: yes", "complete: NO");
    std::fs::write(&done, text).unwrap();
    let a = harness().arg("rescore").arg(&r.out).assert().code(13);
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("ROUND INCOMPLETE"));
}

#[test]
fn a_rescore_with_another_scorer_does_not_claim_the_manifest() {
    let r = tiny_round();
    // Stand in for a round sealed and scored by an older lexicon.
    let p = r.out.join("round.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    v["manifest"]["status"] = "match".into();
    v["scorer_fingerprint"] = "0123456789abcdef-older-scorer".into();
    std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let a = harness().arg("rescore").arg(&r.out).assert().code(0);
    assert!(String::from_utf8_lossy(&a.get_output().stdout)
        .contains("manifest: UNVERIFIED for this rescore"));
    let dir = std::fs::read_dir(&r.out)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("rescore-"))
        .unwrap();
    let summary = std::fs::read_to_string(dir.path().join("summary.json")).unwrap();
    assert!(summary.contains("\"UNVERIFIED\""), "{summary}");
}

/// The `rows moved` block of `moved.txt` in the round's latest `rescore-*` folder, as lines
/// (`qid ARM|CTRL rN: old → new`), in the order written.
fn moved_rows(out: &Path) -> Vec<String> {
    let latest = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("rescore-"))
        })
        .max()
        .expect("a rescore folder");
    let text = std::fs::read_to_string(latest.join("moved.txt")).unwrap();
    let mut lines = text.lines().skip_while(|l| !l.starts_with("rows moved:"));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no rows moved line: {text}"));
    let rows: Vec<String> = lines.map(|l| l.trim().to_string()).collect();
    assert_eq!(head, format!("rows moved: {}", rows.len()), "{text}");
    rows
}

/// A round run for real with `run_args` added: q1 positive (the seal line the agent quotes
/// names its token in UPPER case), q2 negative; answered by an agent script written here.
fn round_read_as(agent_script: &str, run_args: &[&str], want_exit: i32) -> Round {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(
        &repo,
        &[
            ("README.md", b"A small service.\n"),
            (".gitignore", b"tracks/\n"),
        ],
    );
    let pos = tok("cod");
    let neg = tok("reg");
    let qset = dir.path().join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the release codename?", &pos],
            [
                "q2",
                "negative",
                "Which cloud region hosts production?",
                &neg,
            ],
        ],
    );
    // The ledger gate wants the token as written in the seal; the line the agent quotes names
    // it in UPPER case.
    let seal = dir.path().join("handoff.md");
    std::fs::write(
        &seal,
        format!(
            "Tracker key: {pos}.\nThe release codename is {}.\n",
            pos.to_uppercase()
        ),
    )
    .unwrap();
    let script = dir.path().join("agent.sh");
    std::fs::write(&script, agent_script).unwrap();
    let out = dir.path().join("out1");
    let agent = format!("command:sh {} {{prompt}}", script.display());
    harness()
        .args([
            "run",
            "--quiet",
            "--reps",
            "2",
            "--sandbox",
            "none",
            "--agent",
            &agent,
        ])
        .args(run_args)
        .arg("--qset")
        .arg(&qset)
        .arg("--seal")
        .arg(&seal)
        .arg("--repo")
        .arg(&repo)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(want_exit);
    Round {
        _dir: dir,
        out,
        qset,
    }
}

/// Answers the codename question with the planted seal's codename line (as written there,
/// upper case) and says `refusal` to everything else, and to everything in CTRL.
fn agent_saying(refusal: &str) -> String {
    format!(
        "#!/bin/sh\nseal=tracks/_meta/compaction/*\ncase \"$1\" in\n  *codename*) [ -f $seal ] && grep codename $seal && exit 0 ;;\nesac\necho '{refusal}'\n"
    )
}

#[test]
fn rescore_of_a_round_read_the_old_way_lists_the_rows_the_new_token_rule_moves() {
    // Scored byte-exactly (the seed's reading), ARM's `ZZCOD693` is not the token `zzcod693`:
    // every ARM positive is a FAIL and the round is INSTRUMENT_INCOMPLETE (exit 4).
    let r = round_read_as(
        &agent_saying("I could not find any record of that."),
        &["--token-match", "exact"],
        4,
    );
    let before = snapshot(&r.out);

    // Today's reading (case-insensitive words) reads the same files: both ARM reps move, and
    // nothing else does; the round becomes OK (exit 0).
    let a = harness().arg("rescore").arg(&r.out).assert().code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert_eq!(
        moved_rows(&r.out),
        ["q1 ARM r1: FAIL → PASS", "q1 ARM r2: FAIL → PASS"],
        "{text}"
    );
    assert!(text.contains("rows moved: 2"), "{text}");
    assert!(text.contains("q1 ARM r1: FAIL → PASS"), "{text}");
    // The originals are untouched: same names, same bytes (the rescore has its own folder).
    let after: Vec<_> = snapshot(&r.out);
    assert_eq!(after, before, "rescore must not touch the original files");

    // Read the old way again, the same answers give the recorded classes: nothing moves.
    harness()
        .arg("rescore")
        .arg(&r.out)
        .args(["--token-match", "exact"])
        .assert()
        .code(4);
    assert_eq!(moved_rows(&r.out), Vec::<String>::new());
}

#[test]
fn rescore_with_a_user_lexicon_lists_the_rows_its_pattern_moves() {
    // "Beats me" is not a refusal the standard lexicon knows: every negative is UNDETERMINED
    // (an everyday refusal is never a certain FAIL), and read as a fabrication CTRL would void
    // the round, so it needs review (exit 14).
    let r = round_read_as(&agent_saying("Beats me, honestly."), &[], 14);
    let before = snapshot(&r.out);
    let lex = r.out.parent().unwrap().join("beats.toml");
    std::fs::write(
        &lex,
        "[[refusal]]\npattern = '\\bbeats me\\b'\nexample = 'Beats me, honestly.'\nlang = 'en'\n",
    )
    .unwrap();
    let a = harness()
        .arg("rescore")
        .arg(&r.out)
        .arg("--lexicon")
        .arg(&lex)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    // Both arms, both reps of the negative move; the positives (ARM answers the token, CTRL
    // says "beats me" to a positive: FAIL either way) stay.
    assert_eq!(
        moved_rows(&r.out),
        [
            "q2 ARM r1: UNDETERMINED (guess FAIL) → PASS",
            "q2 ARM r2: UNDETERMINED (guess FAIL) → PASS",
            "q2 CTRL r1: UNDETERMINED (guess FAIL) → PASS",
            "q2 CTRL r2: UNDETERMINED (guess FAIL) → PASS",
        ],
        "{text}"
    );
    // The extension is named where the rescore says which scorer read the answers.
    assert!(text.contains("+ext:"), "{text}");
    assert_eq!(
        snapshot(&r.out),
        before,
        "rescore must not touch the original files"
    );
}
