//! A person's decisions carry the round's guarantees: only the row's kind's classes, checks
//! before the first write, the round's locks, crash-safe re-derivation (kill -9 at each step),
//! the folder named is the round, every reader shown, and a decision settled once for every
//! later round of the same qset.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// One finished round of [`UndeterminedDesign`] (exit 14: its CTRL negative is undetermined)
/// in `env`, at `<dir>/<name>`.
fn round(env: &TestEnv, dir: &Path, name: &str) -> PathBuf {
    let d = UndeterminedDesign::write(dir);
    let out = dir.join(name);
    env.harness()
        .args(["run", "--quiet", "--reps", "1", "--sandbox", "none"])
        .args(["--agent", &d.agent])
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    out
}

/// (qid, arm) → label, from the round's plan.
fn label(out: &Path, qid: &str, arm: &str) -> String {
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("journal/plan.json")).unwrap()).unwrap();
    plan["dispatches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["qid"] == qid && d["arm"] == arm)
        .unwrap_or_else(|| panic!("no {qid} {arm} in {plan}"))["label"]
        .as_str()
        .unwrap()
        .to_string()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn show(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Copies a folder (a round) with `cp -a`.
fn copy(from: &Path, to: &Path) {
    let st = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(st.success());
}

/// What the derived files of a round say now: ROUND_DONE's verdict line and summary.json's
/// verdict name (each `None` when the file is absent).
fn verdicts(out: &Path) -> (Option<String>, Option<String>) {
    let done = std::fs::read_to_string(out.join("ROUND_DONE"))
        .ok()
        .map(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("verdict: "))
                .unwrap_or("")
                .to_string()
        });
    let sum = std::fs::read_to_string(out.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .map(|v| v["verdict"]["name"].as_str().unwrap_or("").to_string());
    (done, sum)
}

#[test]
fn only_the_rows_kinds_classes_are_accepted_and_a_refusal_writes_nothing() {
    let env = TestEnv::new();
    let dir = env.tmp().join("k");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let (neg, pos) = (label(&out, "q2", "CTRL"), label(&out, "q1", "ARM"));
    let done = read(&out.join("ROUND_DONE"));
    let refused = |args: &[String], names: &str| {
        let a = env
            .harness()
            .arg("review")
            .arg(&out)
            .args(["--reviewer", "tester"])
            .args(args)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains(names), "{err}");
        assert!(!out.join("review.jsonl").exists(), "{err}");
        assert!(!out.join("journal/rederive.pending").exists());
        assert_eq!(read(&out.join("ROUND_DONE")), done);
    };
    // A negative is never PRIOR_WON or VOID; a positive is never HALLUCINATED.
    refused(
        &["--set".into(), format!("{neg}:1=PRIOR_WON")],
        "allowed: PASS, HALLUCINATED, REFUSED_WITH_TOKEN, FAIL",
    );
    refused(
        &["--set".into(), format!("{neg}:1=VOID")],
        "allowed: PASS, HALLUCINATED, REFUSED_WITH_TOKEN, FAIL",
    );
    refused(
        &["--set".into(), format!("{pos}:1=HALLUCINATED")],
        "allowed: PASS, REFUSED_WITH_TOKEN, FAIL",
    );
    // A good line before a bad one is not written either; a label the round lacks is refused.
    let from = dir.join("decisions.txt");
    std::fs::write(&from, format!("{neg}:1=PASS\n{pos}:1=CONFLICT_FOLLOWED\n")).unwrap();
    refused(
        &["--from".into(), from.display().to_string()],
        "allowed: PASS, REFUSED_WITH_TOKEN, FAIL",
    );
    refused(
        &[
            "--set".into(),
            format!("{neg}:1=PASS"),
            "--set".into(),
            "zz9zz9:1=PASS".into(),
        ],
        "the round has no row zz9zz9:1",
    );
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "tester", "--set", &format!("{neg}:1=PASS")])
        .assert()
        .code(0);
    assert_eq!(read(&out.join("review.jsonl")).lines().count(), 1);
}

#[test]
fn the_reviewer_is_named_or_the_review_is_refused() {
    let env = TestEnv::new();
    let dir = env.tmp().join("who");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let neg = label(&out, "q2", "CTRL");
    let set = format!("{neg}:1=PASS");
    // No --reviewer, no git user.name, no $USER: refused with the fix, nothing written.
    let a = env
        .harness()
        .arg("review")
        .arg(&out)
        .args(["--set", &set])
        .env_remove("USER")
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("--reviewer NAME"), "{err}");
    assert!(!out.join("review.jsonl").exists());
    // $USER.
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--set", &set])
        .env("USER", "from-user-var")
        .assert()
        .code(0);
    assert!(read(&out.join("review.jsonl")).contains("\"reviewer\":\"from-user-var\""));
    // git's user.name before $USER.
    std::fs::write(
        env.home().join(".gitconfig"),
        "[user]\n\tname = Ada Reviewer\n",
    )
    .unwrap();
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--set", &set])
        .env("USER", "from-user-var")
        .assert()
        .code(0);
    assert!(read(&out.join("review.jsonl")).contains("\"reviewer\":\"Ada Reviewer\""));
}

/// What the guide says: the reviewer's name comes from the global git configuration, never
/// from a repository's own `.git/config`, not even when review runs inside that repository
/// (the round folder is outside it).
#[test]
fn a_repositorys_own_user_name_is_not_the_reviewer() {
    let env = TestEnv::new();
    let dir = env.tmp().join("local");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let neg = label(&out, "q2", "CTRL");
    let repo = env.tmp().join("clone");
    let r = git2::Repository::init(&repo).unwrap();
    r.config()
        .unwrap()
        .set_str("user.name", "Repo Local")
        .unwrap();
    assert!(read(&repo.join(".git/config")).contains("Repo Local"));
    env.harness()
        .current_dir(&repo)
        .arg("review")
        .arg(&out)
        .args(["--set", &format!("{neg}:1=PASS")])
        .env("USER", "from-user-var")
        .assert()
        .code(0);
    let review = read(&out.join("review.jsonl"));
    assert!(
        review.contains("\"reviewer\":\"from-user-var\""),
        "{review}"
    );
    assert!(!review.contains("Repo Local"), "{review}");
}

#[test]
fn a_refusing_review_or_rejudge_writes_nothing_tampered_running_or_locked() {
    let env = TestEnv::new();
    let dir = env.tmp().join("t");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let neg = label(&out, "q2", "CTRL");
    let set = format!("{neg}:1=PASS");
    let round_json = read(&out.join("round.json"));
    let nothing_written = |what: &str| {
        assert!(!out.join("review.jsonl").exists(), "{what}");
        assert!(!out.join("judge.jsonl").exists(), "{what}");
        assert!(!out.join("journal/rederive.pending").exists(), "{what}");
        assert!(
            !out.join("journal/rejudge.progress.jsonl").exists(),
            "{what}"
        );
        assert_eq!(read(&out.join("round.json")), round_json, "{what}");
    };
    let judge = format!(
        "command:{} reader {{prompt_file}}",
        agents_dir().join("judge.sh").display()
    );

    // An edited answer: review and rejudge refuse (exit 10) before deciding anything.
    let answer = dispatch_file(&out, &format!("{neg}_r1"), "txt");
    let original = std::fs::read(&answer).unwrap();
    std::fs::write(&answer, "It is eu-west-3.\n").unwrap();
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "t", "--set", &set])
        .assert()
        .code(10);
    nothing_written("review on a tampered round");
    env.harness()
        .arg("rejudge")
        .arg(&out)
        .args(["--judge", &judge, "--judge-sandbox", "none"])
        .assert()
        .code(10);
    nothing_written("rejudge on a tampered round");
    std::fs::write(&answer, &original).unwrap();

    // A unit still running (it holds the round-level lock shared, as `harness unit` does).
    use std::os::unix::process::CommandExt;
    let mut holder = std::process::Command::new("flock")
        .arg("-s")
        .arg(out.join("journal/units.lock"))
        .args(["sleep", "60"])
        .process_group(0)
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    for args in [
        vec!["review", "--reviewer", "t", "--set", set.as_str()],
        vec![
            "rejudge",
            "--judge",
            judge.as_str(),
            "--judge-sandbox",
            "none",
        ],
        vec!["rescore"],
    ] {
        let o = env
            .harness()
            .arg(args[0])
            .arg(&out)
            .args(&args[1..])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("refused"),
            "{}",
            show(&o)
        );
        nothing_written(args[0]);
        assert!(
            !std::fs::read_dir(&out)
                .unwrap()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("rescore-")),
            "{}",
            args[0]
        );
    }
    // The holder and its sleep, as one process group.
    std::process::Command::new("kill")
        .args(["-9", "--", &format!("-{}", holder.id())])
        .status()
        .unwrap();
    holder.wait().unwrap();

    // The restored round is reviewed as it was.
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "t", "--set", &set])
        .assert()
        .code(0);
    assert_eq!(summary(&out)["verdict"]["name"], "OK");
}

#[test]
fn two_reviews_at_once_never_lose_a_recorded_decision_nor_write_a_refused_one() {
    let env = TestEnv::new();
    let dir = env.tmp().join("c");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let (neg, pos) = (label(&out, "q2", "CTRL"), label(&out, "q1", "CTRL"));
    let mut refused = 0;
    for i in 0..8 {
        let spawn = |set: String, who: String| {
            let mut c = env.command(env!("CARGO_BIN_EXE_harness"));
            c.arg("review")
                .arg(&out)
                .args(["--reviewer", &who, "--set", &set])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            (c.spawn().unwrap(), who)
        };
        let a = spawn(format!("{neg}:1=PASS"), format!("a{i}"));
        let b = spawn(format!("{pos}:1=FAIL"), format!("b{i}"));
        for (child, who) in [a, b] {
            let o = child.wait_with_output().unwrap();
            let written =
                read(&out.join("review.jsonl")).contains(&format!("\"reviewer\":\"{who}\""));
            match o.status.code() {
                Some(2) => {
                    refused += 1;
                    assert!(!written, "refused yet written: {}", show(&o));
                }
                Some(0) | Some(14) => {
                    assert!(
                        String::from_utf8_lossy(&o.stdout).contains("1 decision recorded"),
                        "{}",
                        show(&o)
                    );
                    assert!(written, "reported recorded, not on disk: {}", show(&o));
                }
                _ => panic!("{}", show(&o)),
            }
        }
        assert!(!out.join("journal/rederive.pending").exists());
        let (done, sum) = verdicts(&out);
        assert!(done.is_some());
        assert_eq!(done.unwrap().split(' ').next(), sum.as_deref());
    }
    eprintln!("{refused} of 16 reviews refused by the other's lock");
}

/// Kills a `review --set` by SIGKILL at `step` (the harness's test-only fault hook), checks the
/// files never disagree while ROUND_DONE is there, and that the next `report` finishes it.
#[test]
fn a_review_killed_at_each_step_of_rederivation_is_finished_by_the_next_report() {
    let env = TestEnv::new();
    let dir = env.tmp().join("kill");
    std::fs::create_dir_all(&dir).unwrap();
    let pristine = round(&env, &dir, "pristine");
    let neg = label(&pristine, "q2", "CTRL");
    for (i, step) in [
        "review:recorded",
        "rederive:marked",
        "rederive:unmarked-done",
        "rederive:round.json",
        "report:verdicts.csv",
        "report:summary.json",
        "report:report.md",
        "report:report.html",
        "rederive:ROUND_DONE",
    ]
    .iter()
    .enumerate()
    {
        let out = dir.join(format!("killed-{i}"));
        copy(&pristine, &out);
        let o = env
            .harness()
            .arg("review")
            .arg(&out)
            .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
            .env("HARNESS_FAULT_KILL_AT", step)
            .output()
            .unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(o.status.signal(), Some(9), "{step}: {}", show(&o));
        assert!(
            out.join("journal/rederive.pending").exists(),
            "{step}: a killed re-derivation is detectable"
        );
        let (done, sum) = verdicts(&out);
        if let Some(d) = &done {
            assert_eq!(
                Some(d.split(' ').next().unwrap().to_string()),
                sum,
                "{step}: ROUND_DONE and summary.json disagree"
            );
        }
        let o = env
            .harness()
            .args(["report", "--format", "json"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{step}: {}", show(&o));
        assert!(!out.join("journal/rederive.pending").exists(), "{step}");
        let (done, sum) = verdicts(&out);
        assert_eq!(done.as_deref(), Some("OK"), "{step}");
        assert_eq!(sum.as_deref(), Some("OK"), "{step}");
        let md = read(&out.join("report.md"));
        assert!(md.contains("| person |"), "{step}: {md}");
    }
}

#[test]
fn a_killed_rejudge_keeps_the_readings_it_paid_for_and_resumes() {
    let env = TestEnv::new();
    let dir = env.tmp().join("rj");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let log = dir.join("judge.log");
    let judge = format!(
        "command:{} reader {{prompt_file}} {}",
        agents_dir().join("judge.sh").display(),
        log.display()
    );
    let calls = || read(&log).matches("----- BEGIN ANSWER").count();
    let o = env
        .harness()
        .arg("rejudge")
        .arg(&out)
        .args([
            "--judge",
            &judge,
            "--judge-sandbox",
            "none",
            "--judge-jobs",
            "1",
        ])
        .env("HARNESS_FAULT_KILL_AT", "rejudge:reading")
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), Some(9), "{}", show(&o));
    assert_eq!(calls(), 1, "one reading before the kill");
    // Killed while reading, nothing derived had changed: the round needs no re-derivation,
    // only the progress file that lets the next pass keep what it paid for.
    assert!(!out.join("journal/rederive.pending").exists());
    assert!(out.join("journal/rejudge.progress.jsonl").exists());
    let o = env
        .harness()
        .arg("rejudge")
        .arg(&out)
        .args([
            "--judge",
            &judge,
            "--judge-sandbox",
            "none",
            "--judge-jobs",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("1 read by the same judge before the last pass stopped, kept"),
        "{}",
        show(&o)
    );
    assert_eq!(calls(), 4, "the resumed pass asked only for the 3 others");
    assert_eq!(read(&out.join("judge.jsonl")).lines().count(), 4);
    assert!(!out.join("journal/rejudge.progress.jsonl").exists());
    assert!(!out.join("journal/rederive.pending").exists());
    assert_eq!(summary(&out)["verdict"]["name"], "OK");
}

#[test]
fn copied_and_moved_rounds_are_reviewed_rejudged_and_reported_in_place() {
    let env = TestEnv::new();
    let dir = env.tmp().join("cp");
    std::fs::create_dir_all(&dir).unwrap();
    let original = round(&env, &dir, "original");
    let neg = label(&original, "q2", "CTRL");
    let before = read(&original.join("summary.json"));
    let judge = format!(
        "command:{} reader {{prompt_file}}",
        agents_dir().join("judge.sh").display()
    );

    // A copy: its decision takes effect in the copy, and nowhere else.
    let copied = dir.join("copied");
    copy(&original, &copied);
    env.harness()
        .arg("review")
        .arg(&copied)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
        .assert()
        .code(0);
    assert_eq!(summary(&copied)["verdict"]["name"], "OK");
    assert_eq!(read(&original.join("summary.json")), before);
    assert!(!original.join("review.jsonl").exists());
    env.harness().arg("report").arg(&copied).assert().code(0);

    // A moved round (the recorded folder is gone): rejudge, review, report and rescore work.
    let moved = dir.join("moved");
    std::fs::rename(&original, &moved).unwrap();
    env.harness()
        .arg("rejudge")
        .arg(&moved)
        .args(["--judge", &judge, "--judge-sandbox", "none"])
        .assert()
        .code(0);
    assert_eq!(read(&moved.join("judge.jsonl")).lines().count(), 4);
    env.harness()
        .arg("review")
        .arg(&moved)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
        .assert()
        .code(0);
    env.harness().arg("report").arg(&moved).assert().code(0);
    env.harness().arg("rescore").arg(&moved).assert().code(0);
    assert!(!original.exists());
}

#[test]
fn a_persons_decisions_show_in_every_renderer_and_keep_the_rounds_time() {
    let env = TestEnv::new();
    let dir = env.tmp().join("r");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let neg = label(&out, "q2", "CTRL");
    let finished = |out: &Path| {
        let r: serde_json::Value = serde_json::from_str(&read(&out.join("round.json"))).unwrap();
        r["finished"].clone()
    };
    let time_before = finished(&out);
    env.harness()
        .arg("review")
        .arg(&out)
        .args([
            "--reviewer",
            "Grace Tester",
            "--set",
            &format!("{neg}:1=PASS"),
        ])
        .assert()
        .code(0);
    assert_eq!(finished(&out), time_before, "review moved the round's time");
    let md = read(&out.join("report.md"));
    assert!(md.contains("| decided by |"), "{md}");
    assert!(md.contains("| person |"), "{md}");
    assert!(md.contains("Readers"), "the Readers section: {md}");
    assert!(
        md.contains("Grace Tester"),
        "the header names the reviewer: {md}"
    );
    let html = read(&out.join("report.html"));
    assert!(html.contains("<th>decided by</th>"), "{html}");
    assert!(html.contains("<td>person</td>"), "{html}");
    assert!(html.contains("Grace Tester"));
    let csv = read(&out.join("verdicts.csv"));
    assert!(
        csv.lines().next().unwrap().ends_with(",decided_by"),
        "{csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.contains(&neg) && l.ends_with(",person")),
        "{csv}"
    );
    let s = summary(&out);
    let row = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == neg.as_str())
        .unwrap()
        .clone();
    assert_eq!(row["decided_by"], "person", "{row}");
    assert_eq!(s["meta"]["reviewers"][0], "Grace Tester", "{s}");
    // `report` renders the same.
    let a = env
        .harness()
        .args(["report", "--format", "md"])
        .arg(&out)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        text.contains("| person |") && text.contains("Grace Tester"),
        "{text}"
    );
}

#[test]
fn a_second_round_of_the_same_qset_ends_ok_by_reusing_a_decision() {
    let env = TestEnv::new();
    let dir = env.tmp().join("again");
    std::fs::create_dir_all(&dir).unwrap();
    let first = round(&env, &dir, "first");
    let neg = label(&first, "q2", "CTRL");
    env.harness()
        .arg("review")
        .arg(&first)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
        .assert()
        .code(0);
    // The same inputs again (new labels, byte-identical answers): OK with no review.
    let second = dir.join("second");
    let a = env
        .harness()
        .args(["run", "--quiet", "--reps", "1", "--sandbox", "none"])
        .args([
            "--agent",
            &format!("command:sh {} {{prompt}}", dir.join("agent.sh").display()),
        ])
        .arg("--qset")
        .arg(dir.join("q.tsv"))
        .arg("--seal")
        .arg(dir.join("handoff.md"))
        .arg("--repo")
        .arg(dir.join("repo"))
        .arg("--out")
        .arg(&second)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        text.contains("1 row settled by a person's decision reused from an earlier round"),
        "{text}"
    );
    let s = summary(&second);
    assert_eq!(s["verdict"]["name"], "OK", "{s}");
    assert_eq!(s["readers"]["decided_by"]["person"], 1, "{s}");
    let md = read(&second.join("report.md"));
    assert!(md.contains("person (reused from first)"), "{md}");
    let review = read(&second.join("review.jsonl"));
    assert!(review.contains("\"reused_from\":\"first\""), "{review}");
}

#[test]
fn an_export_is_refused_in_a_work_tree_and_read_back_by_from_and_lexicon_eval() {
    let env = TestEnv::new();
    let dir = env.tmp().join("x");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let neg = label(&out, "q2", "CTRL");
    env.harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
        .assert()
        .code(0);
    // Inside the repository's work tree: refused, nothing written.
    let inside = dir.join("repo").join("corpus.jsonl");
    let a = env
        .harness()
        .arg("review")
        .arg(&out)
        .arg("--export")
        .arg(&inside)
        .assert()
        .code(2);
    assert!(!inside.exists());
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("not git-ignored"), "{err}");
    // Git-ignored (the repository ignores tracks/) and outside: written.
    let ignored = dir.join("repo").join("tracks").join("corpus.jsonl");
    std::fs::create_dir_all(ignored.parent().unwrap()).unwrap();
    env.harness()
        .arg("review")
        .arg(&out)
        .arg("--export")
        .arg(&ignored)
        .assert()
        .code(0);
    let outside = dir.join("corpus.jsonl");
    env.harness()
        .arg("review")
        .arg(&out)
        .arg("--export")
        .arg(&outside)
        .assert()
        .code(0);
    assert_eq!(read(&outside).lines().count(), 4);
    let people = read(&outside)
        .lines()
        .filter(|l| l.contains("\"decided_by\":\"person\""))
        .count();
    assert_eq!(people, 1, "{}", read(&outside));
    let o = env
        .harness()
        .args(["lexicon", "eval"])
        .arg(&outside)
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("not a corpus") && o.status.code() == Some(0),
        "{}",
        show(&o)
    );
    // Only the person's row is measured; the lexicon's own three are set aside, said.
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        text.contains(": 1 row\n")
            && text.contains("not counted         3 rows labelled by the lexicon itself"),
        "{text}"
    );
    // Read back into another user's round of the same design (no decision of theirs to
    // reuse): the person's rows settle it.
    let env2 = TestEnv::new();
    let fresh = round(&env2, &env2.tmp().join("fresh"), "out");
    let a = env2
        .harness()
        .arg("review")
        .arg(&fresh)
        .args(["--reviewer", "t", "--from"])
        .arg(&outside)
        .assert();
    let o = a.get_output();
    assert!(matches!(o.status.code(), Some(0)), "{}", show(o));
    assert_eq!(summary(&fresh)["verdict"]["name"], "OK");
}

/// A real terminal (a tmux pane): one key decides, without Enter; a key of another kind's
/// class is refused; the decision is echoed and written once; the seal's line that carries
/// the token is shown for a positive row.
#[test]
fn interactive_review_takes_one_key_of_the_rows_kind_without_enter() {
    let env = TestEnv::new();
    let dir = env.tmp().join("tty");
    std::fs::create_dir_all(&dir).unwrap();
    let out = round(&env, &dir, "out");
    let sock = dir.join("tmux.sock");
    let tmux = |args: &[&str]| {
        env.command("tmux")
            .env("TERM", "xterm")
            .arg("-S")
            .arg(&sock)
            .args(["-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs")
    };
    let pane =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-S", "-"]).stdout).into_owned();
    let wait_for = |what: &str| {
        let t0 = Instant::now();
        while !pane().contains(what) {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "no '{what}' in the pane:\n{}",
                pane()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    // The command line itself carries the marker: the line that starts with it is the end.
    let wait_for_line = |prefix: &str| {
        let t0 = Instant::now();
        while !pane().lines().any(|l| l.starts_with(prefix)) {
            assert!(
                t0.elapsed() < Duration::from_secs(60),
                "no line '{prefix}…' in the pane:\n{}",
                pane()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    assert!(tmux(&["new-session", "-d", "-x", "200", "-y", "50", "sh"])
        .status
        .success());
    let line = format!(
        "{} review {} --reviewer tty; echo REVIEW-ENDED-$?",
        env!("CARGO_BIN_EXE_harness"),
        out.display()
    );
    tmux(&["send-keys", &line, "Enter"]);
    wait_for("keys: p PASS · h HALLUCINATED · w REFUSED_WITH_TOKEN · f FAIL · s skip");
    assert!(!pane().contains("c CONFLICT_FOLLOWED"), "{}", pane());
    // The row names the round folder it belongs to, on its own line under the row's header.
    let shown_out = out.display().to_string();
    assert!(
        pane()
            .lines()
            .any(|l| l.starts_with("round:") && l.trim_end().ends_with(shown_out.as_str())),
        "{}",
        pane()
    );
    // A conflict class on a negative: refused, nothing written; no Enter is sent after it.
    tmux(&["send-keys", "-l", "c"]);
    wait_for("'c' is not a key of a negative row");
    assert!(!out.join("review.jsonl").exists());
    tmux(&["send-keys", "-l", "p"]);
    wait_for_line("REVIEW-ENDED-");
    let text = pane();
    assert!(text.contains("→ PASS (recorded)"), "{text}");
    assert!(text.contains("REVIEW-ENDED-0"), "{text}");
    assert_eq!(read(&out.join("review.jsonl")).lines().count(), 1);
    assert_eq!(summary(&out)["verdict"]["name"], "OK");

    // --all: the positive row shows the seal's line with the token; q quits.
    tmux(&["send-keys", "clear", "Enter"]);
    let line = format!(
        "{} review {} --reviewer tty --all; echo ALL-ENDED-$?",
        env!("CARGO_BIN_EXE_harness"),
        out.display()
    );
    tmux(&["send-keys", &line, "Enter"]);
    wait_for("keys:");
    let t0 = Instant::now();
    while !pane().contains("seal:") {
        assert!(t0.elapsed() < Duration::from_secs(60), "{}", pane());
        tmux(&["send-keys", "-l", "s"]);
        std::thread::sleep(Duration::from_millis(300));
    }
    let text = pane();
    assert!(
        text.lines()
            .any(|l| l.starts_with("seal:") && l.contains("The release codename is")),
        "{text}"
    );
    // Ctrl-C is a key here: it quits as q does, and the round stays derived as it was.
    tmux(&["send-keys", "C-c"]);
    wait_for_line("ALL-ENDED-");
    let text = pane();
    assert!(text.lines().any(|l| l == "ALL-ENDED-0"), "{text}");
    tmux(&["kill-server"]);
    assert!(!out.join("journal/rederive.pending").exists());
    assert_eq!(verdicts(&out), (Some("OK".into()), Some("OK".into())));
    assert_eq!(read(&out.join("review.jsonl")).lines().count(), 1);
}

/// A CTRL positive answered "I could not find any record of that." is a refusal (the
/// glossary's reading, and the answer's own): the export says `refuses: true` for it, and
/// where the refusal came from, so `lexicon eval` on the export is not told it asserts.
#[test]
fn an_export_marks_a_refusing_positive_as_a_refusal() {
    let env = TestEnv::new();
    let dir = env.tmp().join("x");
    std::fs::create_dir_all(&dir).unwrap();
    let d = UndeterminedDesign::write(&dir);
    // CTRL refuses both questions in words the lexicon knows.
    let script = dir.join("agent.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nseal=tracks/_meta/compaction/*\nif [ -f $seal ]; then\n  case \"$1\" in *codename*) grep codename $seal; exit 0 ;; esac\nfi\necho 'I could not find any record of that.'\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = env
        .harness()
        .args(["run", "--quiet", "--reps", "1", "--sandbox", "none"])
        .args(["--agent", &d.agent])
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(out.join("summary.json").exists(), "{}", show(&o));
    let file = dir.join("corpus.jsonl");
    env.harness()
        .arg("review")
        .arg(&out)
        .arg("--export")
        .arg(&file)
        .assert()
        .code(0);
    let rows: Vec<serde_json::Value> = read(&file)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ctrl_pos = rows
        .iter()
        .find(|r| {
            r["kind"] == "positive" && r["note"].as_str().is_some_and(|n| n.contains(" CTRL "))
        })
        .unwrap_or_else(|| panic!("no CTRL positive in {rows:?}"));
    assert_eq!(ctrl_pos["class"], "FAIL", "{ctrl_pos}");
    assert_eq!(ctrl_pos["refuses"], true, "{ctrl_pos}");
    let arm_pos = rows
        .iter()
        .find(|r| {
            r["kind"] == "positive" && r["note"].as_str().is_some_and(|n| n.contains(" ARM "))
        })
        .unwrap_or_else(|| panic!("no ARM positive in {rows:?}"));
    assert_eq!(arm_pos["refuses"], false, "{arm_pos}");
    // Every row says who decided it; here no person did: the labels are the lexicon's own
    // readings, and lexicon eval on them measures nothing (never an agreement of 1.000).
    assert!(
        rows.iter()
            .all(|r| r["decided_by"] == "lexicon" || r["decided_by"] == "both"),
        "{rows:?}"
    );
    let o = env
        .harness()
        .args(["lexicon", "eval"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(!text.contains("1.000"), "{text}");
    assert!(
        text.contains("class agreement     UNMEASURED (0/0)")
            && text.contains(&format!("UNMEASURED: no row is labelled by a person or a judge: all {} rows are labelled by the lexicon itself", rows.len())),
        "{text}"
    );
    // A floor is missed by a figure that was not measured.
    env.harness()
        .args(["lexicon", "eval", "--min-agreement", "0.5"])
        .arg(&file)
        .assert()
        .code(1);
    let json: serde_json::Value = serde_json::from_slice(
        &env.harness()
            .args(["lexicon", "eval", "--format", "json"])
            .arg(&file)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(json["total"]["rows"], 0, "{json}");
    assert_eq!(
        json["corpora"][0]["not_counted"]["rows"],
        rows.len(),
        "{json}"
    );
    assert!(json["unmeasured"].is_string(), "{json}");
}

/// Three reps of one question with byte-identical answers: a decision on the first applies to
/// the other two, and every output says it came from this round, never from an earlier one.
#[test]
fn a_decision_on_identical_answers_in_this_round_is_said_to_be_from_this_round() {
    let env = TestEnv::new();
    let dir = env.tmp().join("same");
    std::fs::create_dir_all(&dir).unwrap();
    let d = UndeterminedDesign::write(&dir);
    let out = dir.join("r5");
    env.harness()
        .args(["run", "--quiet", "--reps", "3", "--sandbox", "none"])
        .args(["--agent", &d.agent])
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    let neg = label(&out, "q2", "CTRL");
    let answers: Vec<Vec<u8>> = (1..=3)
        .map(|r| std::fs::read(common::dispatch_file(&out, &format!("{neg}_r{r}"), "txt")).unwrap())
        .collect();
    assert!(
        answers.iter().all(|a| *a == answers[0]),
        "the three reps answer alike"
    );
    let o = env
        .harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=PASS")])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(!text.contains("earlier round"), "{text}");
    assert!(
        text.contains(
            "2 rows settled by a person's decision on the same answer bytes in this round"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("{neg}_r2 as {neg}_r1")),
        "the terminal names the rows the decision was applied to: {text}"
    );
    let md = read(&out.join("report.md"));
    assert!(!md.contains("reused from r5"), "{md}");
    assert!(!md.contains("earlier round"), "{md}");
    assert_eq!(
        md.matches("person (reused from a decision on the same answer in this round)")
            .count(),
        2,
        "{md}"
    );
    assert!(
        md.contains("2 rows settled by a decision on the same answer in this round"),
        "{md}"
    );
    let s = summary(&out);
    assert_eq!(s["readers"]["decided_by"]["person"], 3, "{s}");
    assert!(s["meta"].get("reused_from").is_none(), "{s}");

    // The person changes the first row's decision: the rows it was applied to follow it.
    let o = env
        .harness()
        .arg("review")
        .arg(&out)
        .args(["--reviewer", "t", "--set", &format!("{neg}:1=HALLUCINATED")])
        .output()
        .unwrap();
    assert!(o.status.code().is_some(), "{}", show(&o));
    let s = summary(&out);
    let classes: Vec<String> = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["label"] == neg.as_str())
        .map(|r| r["verdict"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(classes, ["HALLUCINATED"; 3], "{}", show(&o));
}
