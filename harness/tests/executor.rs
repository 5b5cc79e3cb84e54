//! The round as plan → unit N → collect, run by hand and through `--executor command:`, against
//! the same round run locally: same rows, same verdict, same counts (a deterministic agent).
//! No Slurm needed; the Slurm executor's tests are in tests/slurm.rs.

mod executor_support;
use executor_support::*;

/// The command executor: every unit in its own `harness unit` process.
const UNIT_CMD: &str = "command:{harness} unit --out {out} --index {index}";

#[test]
fn the_command_executor_gives_the_local_round() {
    let r = Round::new();
    let agent = agent("sealreader.sh");
    let common = ["--agent", agent.as_str(), "--reps", "2", "--jobs", "2"];
    let local = r.out("local");
    let o = r.run(&local, &common, 120);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let remote = r.out("command");
    let mut extra = common.to_vec();
    extra.extend(["--executor", UNIT_CMD]);
    let o = r.run(&remote, &extra, 120);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(rows(&remote), rows(&local));
    assert_eq!(outcome(&remote), outcome(&local));
    assert_eq!(round_done(&remote)["complete"], "yes");
    // Each unit ran as its own command, and left its log.
    let logs = std::fs::read_dir(remote.join("executor")).unwrap().count();
    assert_eq!(logs, 12, "one log per unit");
}

#[test]
fn plan_then_units_by_hand_then_collect_and_a_unit_run_twice_does_nothing() {
    let r = Round::new();
    let out = r.out("byhand");
    let agent = agent("sealreader.sh");
    let o = r
        .cmd("plan", &out, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("6 units"), "{}", shown(&o));
    assert_eq!(answer_count(&out), 0, "plan runs no agent");

    // Collect before the units: nothing claimed, every missing unit named.
    let o = harness()
        .args(["collect", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(13), "{}", shown(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    for i in 0..6 {
        assert!(
            stdout.contains(&format!("unit {i} ")),
            "unit {i} not named: {}",
            shown(&o)
        );
    }
    assert_eq!(round_done(&out)["complete"], "NO");

    for i in 0..6 {
        let o = harness()
            .args(["unit", "--out"])
            .arg(&out)
            .args(["--index", &i.to_string()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "unit {i}: {}", shown(&o));
    }
    assert_eq!(answer_count(&out), 6);
    // Again: already answered, nothing rewritten.
    let answers = |out: &std::path::Path| {
        let mut v: Vec<_> = std::fs::read_dir(dispatches(out))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "json"))
            .map(|p| {
                (
                    p.clone(),
                    std::fs::metadata(&p).unwrap().modified().unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = answers(&out);
    let o = harness()
        .args(["unit", "--out"])
        .arg(&out)
        .args(["--index", "3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("already answered"),
        "{}",
        shown(&o)
    );
    assert_eq!(answers(&out), before, "a recorded unit was run again");

    let o = harness()
        .args(["collect", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let done = round_done(&out);
    assert_eq!(done["complete"], "yes", "{done:?}");
    assert_eq!(done["answers"], "6");

    // The same round run locally in one process agrees row for row.
    let local = r.out("local");
    let o = r.run(&local, &["--agent", &agent, "--reps", "1"], 120);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(rows(&out), rows(&local));
    assert_eq!(outcome(&out), outcome(&local));
}

#[test]
fn a_unit_outside_the_plan_is_refused_and_commands_that_fail_leave_the_round_incomplete() {
    let r = Round::new();
    let out = r.out("failing");
    let agent = agent("sealreader.sh");
    let o = r
        .cmd("plan", &out, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let o = harness()
        .args(["unit", "--out"])
        .arg(&out)
        .args(["--index", "6"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));

    // An engine whose tasks never run the unit: no answer is invented, exit 13, each named.
    let out = r.out("false");
    let o = r.run(
        &out,
        &[
            "--agent",
            &agent,
            "--reps",
            "1",
            "--executor",
            "command:false {index}",
        ],
        60,
    );
    assert_eq!(o.status.code(), Some(13), "{}", shown(&o));
    assert_eq!(answer_count(&out), 0);
    let done = round_done(&out);
    assert_eq!(done["complete"], "NO", "{done:?}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("unit 5 "), "{}", shown(&o));
    // Bad templates never start a round.
    let o = r.run(
        &r.out("bad"),
        &["--agent", &agent, "--executor", "command:run-one {idx}"],
        60,
    );
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    assert!(!r.out("bad").exists());
}

/// The reading chosen at plan time (`--token-match`, `--lexicon`) is the round's: a `collect`
/// in another process scores with it, never with the default.
#[test]
fn collect_in_another_process_scores_with_the_planned_token_rule() {
    let r = Round::new();
    let out = r.out("exact");
    let agent = agent("sealreader.sh");
    let o = r
        .cmd(
            "plan",
            &out,
            &["--agent", &agent, "--reps", "1", "--token-match", "exact"],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    for i in 0..6 {
        let o = harness()
            .args(["unit", "--out"])
            .arg(&out)
            .args(["--index", &i.to_string()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "unit {i}: {}", shown(&o));
    }
    let o = harness()
        .args(["collect", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    for file in ["round.json", "summary.json"] {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(
            text.contains("+token:exact"),
            "{file} does not name the planned token rule: {text}"
        );
    }
}
