//! Rows no reader decided: a round whose verdict depends on one ends NEEDS_REVIEW (exit 14),
//! naming the row; `harness review --set` settles it and the round is re-derived.

mod common;
use common::{
    dispatch_file, harness, make_repo, tok, write_qset, UndeterminedDesign, UNCERTAIN_REFUSAL,
};

#[test]
fn one_undetermined_ctrl_negative_needs_review_and_a_person_settles_it() {
    let dir = tempfile::tempdir().unwrap();
    // ARM reads the seal and refuses in words the lexicon knows; CTRL refuses in everyday
    // words it does not ([`UNCERTAIN_REFUSAL`]): UNDETERMINED, never FAIL.
    let d = UndeterminedDesign::write(dir.path());
    let out = dir.path().join("out");
    let agent = d.agent.clone();
    let a = harness()
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--agent",
            &agent,
        ])
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("NEEDS_REVIEW"), "{text}");
    let summary = common::summary(&out);
    let und = summary["readers"]["undecided"].as_array().unwrap().clone();
    assert_eq!(und.len(), 1, "{summary}");
    assert_eq!(und[0]["qid"], "q2");
    assert_eq!(und[0]["arm"], "CTRL");
    assert_eq!(und[0]["decides_verdict"], true);
    let label = und[0]["label"].as_str().unwrap().to_string();
    assert!(
        summary["verdict"]["detail"]
            .as_str()
            .unwrap()
            .contains(&label),
        "the verdict names the row: {summary}"
    );
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).unwrap();
    assert!(done.contains("NEEDS_REVIEW"), "{done}");
    // The closing summary names the deciding row in full and shows the undecided row beside
    // its headline number, never inside it.
    assert!(text.contains(&label), "the brief names the row: {text}");
    assert!(
        text.lines()
            .any(|l| l.contains("HUI (CTRL)") && l.ends_with(", 1 undetermined")),
        "{text}"
    );

    // A row the plan does not have is refused; the real one settles the round.
    harness()
        .args(["review"])
        .arg(&out)
        .args(["--set", "nosuch:1=PASS"])
        .assert()
        .code(2);
    harness()
        .args(["review"])
        .arg(&out)
        .args(["--set", &format!("{label}:1=PASS"), "--reviewer", "tester"])
        .assert()
        .code(0);
    let summary = common::summary(&out);
    assert_eq!(summary["verdict"]["name"], "OK", "{summary}");
    assert_eq!(summary["readers"]["decided_by"]["person"], 1, "{summary}");
    assert!(summary["readers"]["undecided"]
        .as_array()
        .unwrap()
        .is_empty());
    let review = std::fs::read_to_string(out.join("review.jsonl")).unwrap();
    assert!(review.contains("\"reviewer\":\"tester\""), "{review}");

    // Nothing left to review: said plainly (how many rows, decided by whom), exit 0, and the
    // out-dir is byte for byte what it was (but the lock files, which name the pid that last
    // held the round while it was read).
    // No reviewer is named anywhere (no --reviewer, no git user.name, no $USER): a round with
    // nothing to decide needs none.
    let before = tree_bytes(&out);
    let a = harness()
        .args(["review"])
        .arg(&out)
        .env_remove("USER")
        .assert()
        .code(0);
    let said = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        said.contains("nothing awaits review: all 4 rows of this round are decided")
            && said.contains("1 by a person")
            && said.contains("by the lexicon alone"),
        "{said}"
    );
    let after = tree_bytes(&out);
    let changed: Vec<&String> = before
        .keys()
        .chain(after.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert!(
        changed.is_empty(),
        "review wrote into the round: {changed:?}"
    );

    // The answer changes under the decision: the round is refused, the decision never applied
    // to other bytes (the journal's hash check fires first; review.jsonl's is the unit test's).
    let answer = dispatch_file(&out, &format!("{label}_r1"), "txt");
    std::fs::write(&answer, "It is somewhere else.\n").unwrap();
    harness()
        .args(["collect", "--out"])
        .arg(&out)
        .assert()
        .code(10);
}

/// A verdict that holds either way counts in its sentence the rows that were decided, as the
/// headline numbers do: an undetermined CTRL negative is not a failure in "CTRL fails to abstain
/// (k/n)" (a walkthrough saw 2/3 beside `HUI (CTRL) 1/2 rows, 1 undetermined`).
#[test]
fn a_verdict_that_holds_either_way_counts_only_decided_rows() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(&repo, &[("README.md", b"A small service.\n")]);
    let qset = dir.path().join("q.tsv");
    let (region, pager) = (tok("reg"), tok("pag"));
    write_qset(
        &qset,
        &[
            [
                "q1",
                "negative",
                "Which cloud region hosts production?",
                &region,
            ],
            ["q2", "negative", "Which pager tool is on call?", &pager],
        ],
    );
    // Every answer: q1 asserts another value (decided FAIL), q2 refuses in everyday words
    // (UNDETERMINED). CTRL fails q1 whatever q2 is: VOID either way.
    let script = dir.path().join("agent.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ncase \"$1\" in *region*) echo 'Production runs in eu-west-3.' ;; *) echo '{UNCERTAIN_REFUSAL}' ;; esac\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let a = harness()
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--arms",
            "ctrl",
        ])
        .arg("--agent")
        .arg(format!("command:sh {} {{prompt}}", script.display()))
        .arg("--qset")
        .arg(&qset)
        .arg("--repo")
        .arg(&repo)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(3);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        text.contains("CTRL fails to abstain on negatives (1/1)")
            && text.contains("1 row undetermined; the verdict holds either way"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.contains("HUI (CTRL)")
            && l.contains("1/1 rows")
            && l.ends_with(", 1 undetermined")),
        "{text}"
    );
}

/// Every file under `dir` with its bytes, by relative path.
fn tree_bytes(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                if rel.starts_with("journal/") && rel.ends_with("lock") {
                    continue;
                }
                out.insert(rel, std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

/// A class is read in any case; an unknown one is refused with the classes the row's kind
/// allows (or every kind's, when the row is not the round's); `review --help` lists the classes
/// of each kind; and `review` without a terminal says how to decide without one.
#[test]
fn review_reads_classes_in_any_case_and_lists_the_allowed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = UndeterminedDesign::write(dir.path());
    let out = dir.path().join("out");
    harness()
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--agent",
            &d.agent,
        ])
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    let summary = common::summary(&out);
    let label = summary["readers"]["undecided"][0]["label"]
        .as_str()
        .unwrap()
        .to_string();
    let flat = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let negative = "PASS, HALLUCINATED, REFUSED_WITH_TOKEN, FAIL";

    // Not a terminal: refused, saying how to decide without one, with the classes.
    let a = harness()
        .args(["review", "--reviewer", "t"])
        .arg(&out)
        .assert()
        .code(2);
    let err = flat(&a.get_output().stderr);
    assert!(
        err.contains("Without a terminal")
            && err.contains("--set LABEL:REP=CLASS")
            && err.contains("--from FILE")
            && err.contains(&format!("negative: {negative}")),
        "{err}"
    );
    // An unknown class on a row of the round: the classes of its kind (a negative row).
    let a = harness()
        .args(["review"])
        .arg(&out)
        .args(["--set", &format!("{label}:1=ABSTAINED"), "--reviewer", "t"])
        .assert()
        .code(2);
    let err = flat(&a.get_output().stderr);
    assert!(
        err.contains("unknown class 'ABSTAINED'")
            && err.contains(&format!("a negative row (q2) allows: {negative}")),
        "{err}"
    );
    // On a row the round does not have: every kind's classes.
    let a = harness()
        .args(["review"])
        .arg(&out)
        .args(["--set", "nosuch:1=bogus", "--reviewer", "t"])
        .assert()
        .code(2);
    let err = flat(&a.get_output().stderr);
    assert!(
        err.contains("positive: PASS, REFUSED_WITH_TOKEN, FAIL")
            && err.contains(&format!("negative: {negative}"))
            && err.contains("conflict: CONFLICT_FOLLOWED, ABSTAINED_ON_CONFLICT"),
        "{err}"
    );
    // The help lists each kind's classes.
    let a = harness().args(["review", "--help"]).assert().code(0);
    let help = flat(&a.get_output().stdout);
    for want in [
        "positive: PASS, REFUSED_WITH_TOKEN, FAIL".to_string(),
        format!("negative: {negative}"),
        "conflict: CONFLICT_FOLLOWED, ABSTAINED_ON_CONFLICT, PRIOR_WON".to_string(),
    ] {
        assert!(help.contains(&want), "{want}: {help}");
    }
    // Lower case is the same class: it settles the round.
    harness()
        .args(["review"])
        .arg(&out)
        .args(["--set", &format!("{label}:1=pass"), "--reviewer", "t"])
        .assert()
        .code(0);
    let summary = common::summary(&out);
    assert_eq!(summary["verdict"]["name"], "OK", "{summary}");
}
