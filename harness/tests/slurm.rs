//! `--executor slurm` on a real cluster: `.ci/slurm.sh` starts the one-node cluster of
//! tests/slurm/start.sh, exports SLURM_CONF and runs these with `-- --ignored`.
//! By hand: `tests/slurm/start.sh && export SLURM_CONF=/tmp/harness-slurm/slurm.conf &&
//! cargo test -p harness --test slurm -- --ignored --test-threads 1; tests/slurm/stop.sh`.

mod executor_support;
use executor_support::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Refuses to run without a cluster: these tests are only run when one was asked for.
fn need_cluster() {
    let ok = Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .map(|o| o.status.success() && !o.stdout.is_empty())
        .unwrap_or(false);
    assert!(
        ok,
        "no Slurm cluster answers (sinfo); start tests/slurm/start.sh and export SLURM_CONF"
    );
}

#[test]
#[ignore = "needs a Slurm cluster: .ci/slurm.sh"]
fn a_slurm_round_gives_the_local_round() {
    need_cluster();
    let r = Round::new();
    let agent = agent("sealreader.sh");
    let common = ["--agent", agent.as_str(), "--reps", "2", "--jobs", "2"];
    let local = r.out("local");
    let o = r.run(&local, &common, 300);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let slurm = r.out("slurm");
    let mut extra = common.to_vec();
    extra.extend(["--executor", "slurm", "--slurm-time", "10"]);
    let o = r.run(&slurm, &extra, 600);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("slurm: array job"),
        "{}",
        shown(&o)
    );
    assert_eq!(rows(&slurm), rows(&local));
    assert_eq!(outcome(&slurm), outcome(&local));
    assert_eq!(round_done(&slurm)["complete"], "yes");
    // Each unit ran as a Slurm task and left its log there.
    let logs = std::fs::read_dir(slurm.join("executor"))
        .unwrap()
        .filter(|e| {
            let n = e.as_ref().unwrap().file_name();
            n.to_string_lossy().starts_with("slurm-")
        })
        .count();
    assert_eq!(logs, 12);
}

/// The running tasks of the harness's array jobs, as `JOB_INDEX`.
fn running_tasks() -> Vec<String> {
    let o = Command::new("squeue")
        .args([
            "-h",
            "-r",
            "--name=harness-unit",
            "-t",
            "RUNNING",
            "-o",
            "%i",
        ])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Files named `started.*` in `gate`: agents of tests/agents/gatedreader.sh now mid-run.
fn started(gate: &Path) -> usize {
    std::fs::read_dir(gate)
        .unwrap()
        .filter(|e| {
            let n = e.as_ref().unwrap().file_name();
            n.to_string_lossy().starts_with("started.")
        })
        .count()
}

/// Waits (at most `secs`) until `done()` holds, saying `what` if it never does.
fn wait_until(secs: u64, what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(secs), "{what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "needs a Slurm cluster: .ci/slurm.sh"]
fn a_unit_cancelled_mid_run_is_run_again_on_resume_and_scored_once() {
    need_cluster();
    let r = Round::new();
    let out = r.out("preempted");
    // Every agent waits at a gate this test opens, so the cancel lands while the victim's
    // agent runs, whatever the machine's load (a fixed sleep once lost that race in CI).
    let gate = r.dir.path().join("gate");
    std::fs::create_dir_all(&gate).unwrap();
    let agent = format!(
        "command:{} {} {{prompt}}",
        agents_dir().join("gatedreader.sh").display(),
        gate.display()
    );
    let run = spawn_slurm_round(&r, &out, &agent, &["--sandbox", "none"]);
    // At most two tasks run at once (%2): both are in their agents when two have started.
    wait_until(120, "no two agents ever started", || {
        started(&gate) >= 2 && running_tasks().len() >= 2
    });
    let victim = running_tasks().into_iter().next().unwrap();
    let st = Command::new("scancel").arg(&victim).status().unwrap();
    assert!(st.success(), "scancel {victim}");
    wait_until(60, "the cancelled task never ended", || {
        !running_tasks().contains(&victim)
    });
    std::fs::write(gate.join("open"), b"").unwrap();
    let o = run.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(13), "{}", shown(&o));
    let index: usize = victim.rsplit_once('_').unwrap().1.parse().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&format!("unit {index} ")),
        "the cancelled unit is not named: {}",
        shown(&o)
    );
    assert_eq!(round_done(&out)["complete"], "NO");
    assert_eq!(answer_count(&out), 11);

    // Resume: the one missing unit runs again, and every row is scored once.
    let o = r
        .cmd(
            "run",
            &out,
            &[
                "--agent",
                &agent,
                "--reps",
                "2",
                "--jobs",
                "2",
                "--executor",
                "slurm",
                "--sandbox",
                "none",
                "--resume",
            ],
        )
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(": 1 units"),
        "only the missing unit is submitted: {}",
        shown(&o)
    );
    let done = round_done(&out);
    assert_eq!(done["complete"], "yes", "{done:?}");
    assert_eq!(done["answers"], "12");
    assert_eq!(done["dispatch_errors"], "0");
    let rows = rows(&out);
    assert_eq!(rows.len(), 12);
    let mut keys: Vec<_> = rows.iter().map(|r| (&r.0, &r.2, r.3)).collect();
    keys.dedup();
    assert_eq!(keys.len(), 12, "a row was scored twice: {rows:?}");
    // And it agrees with the same round run locally.
    let local = r.out("local");
    let o = r.run(
        &local,
        &[
            "--agent",
            &agent,
            "--reps",
            "2",
            "--jobs",
            "2",
            "--sandbox",
            "none",
        ],
        300,
    );
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(rows, executor_support::rows(&local));
}

/// `harness run --executor slurm` in the background, 12 units two at a time.
fn spawn_slurm_round(r: &Round, out: &Path, agent: &str, more: &[&str]) -> std::process::Child {
    let mut extra = vec![
        "--agent",
        agent,
        "--reps",
        "2",
        "--jobs",
        "2",
        "--executor",
        "slurm",
    ];
    extra.extend(more);
    TestEnv::kept()
        .command(assert_cmd::cargo::cargo_bin("harness"))
        .args(r.args("run", out, &extra))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn field<'a>(answer: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    answer
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("probe answer lacks {key}:\n{answer}"))
        .trim()
}

#[test]
#[ignore = "needs a Slurm cluster: .ci/slurm.sh"]
fn the_probe_agent_as_a_slurm_task_sees_what_it_sees_locally() {
    need_cluster();
    let r = Round::new();
    let out = r.out("probe");
    let parent = out.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&parent).unwrap();
    // The probe looks into the out-dir (the journal), beside it (where a labelmap was once
    // written) and /tmp (where
    // every task's checkouts are made).
    let agent = format!(
        "{} {} {} /tmp",
        agent("probe.sh"),
        out.display(),
        parent.display()
    );
    let o = r.run(
        &out,
        &[
            "--agent",
            &agent,
            "--reps",
            "1",
            "--jobs",
            "2",
            "--executor",
            "slurm",
            "--sandbox",
            "auto",
        ],
        600,
    );
    // The probe answers nothing the scorer accepts: an instrument verdict, never exit 13.
    assert_ne!(o.status.code(), Some(13), "{}", shown(&o));
    let done = round_done(&out);
    assert_eq!(done["complete"], "yes", "{done:?}");
    assert_ne!(done["isolation"], "none", "{done:?}");
    // Issue 24: labels live in the round's journal for every executor, never beside the
    // out-dir (a volume's parent may be read-only).
    assert!(
        !parent.join("probe.labelmap").exists(),
        "a labelmap was written beside the out-dir"
    );
    let plan: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("journal").join("plan.json")).unwrap(),
    )
    .unwrap();
    let mut seen = 0;
    for d in plan["dispatches"].as_array().expect("dispatches") {
        let s = |k: &str| d[k].as_str().unwrap();
        let (label, qid, arm) = (s("label"), s("qid"), s("arm"));
        let answer =
            std::fs::read_to_string(dispatch_file(&out, &format!("{label}_r1"), "txt")).unwrap();
        let ctx = format!("{qid} {arm}:\n{answer}");
        seen += 1;
        check(&r, &out, qid, arm, &answer, &ctx);
    }
    assert_eq!(seen, 6);
}

/// What a sandboxed probe may see, the same checks as the local probe round (tests/run.rs).
fn check(r: &Round, out: &Path, qid: &str, arm: &str, answer: &str, ctx: &str) {
    let cwd = field(answer, "cwd");
    let words: Vec<String> = cwd
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| p.to_ascii_lowercase())
        .collect();
    for bad in [
        "arm", "ctrl", "control", "positive", "negative", "q", "deploy", "port", "cat",
    ] {
        assert!(!words.iter().any(|p| p == bad), "cwd names {bad}: {ctx}");
    }
    assert!(!cwd.contains(qid), "{ctx}");
    assert!(
        !cwd.starts_with(&r.dir.path().display().to_string()),
        "the checkout is beside the user's repo: {ctx}"
    );
    assert!(!cwd.starts_with(&out.display().to_string()), "{ctx}");
    assert_eq!(field(answer, "remotes"), "0", "{ctx}");
    assert_eq!(field(answer, "commits"), "1", "{ctx}");
    let want = if arm == "ARM" { "present" } else { "absent" };
    assert_eq!(field(answer, "seal"), want, "{ctx}");
    let env = field(answer, "env");
    assert!(
        !env.contains("SLURM"),
        "Slurm's variables reached the agent: {ctx}"
    );
    assert!(!env.contains("HARNESS_"), "{ctx}");
    assert_eq!(field(answer, "labelmap_above"), "none", "{ctx}");
    let watches: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.strip_prefix("watch: "))
        .collect();
    assert_eq!(watches.len(), 3, "{ctx}");
    for w in watches {
        assert!(
            w.ends_with(": unreadable"),
            "the sandbox let a Slurm task look: {ctx}"
        );
    }
}

#[test]
#[ignore = "needs a Slurm cluster: .ci/slurm.sh"]
fn ctrl_c_cancels_the_array_and_leaves_the_round_resumable() {
    need_cluster();
    let r = Round::new();
    let out = r.out("interrupted");
    let agent = agent("slowreader.sh");
    let run = spawn_slurm_round(&r, &out, &agent, &[]);
    let start = Instant::now();
    while running_tasks().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no task ever ran"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // SAFETY: kill(2) on the pid of a child this test spawned and has not reaped.
    unsafe { libc::kill(run.id() as i32, libc::SIGINT) };
    let o = run.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(13), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--resume --executor slurm"),
        "{}",
        shown(&o)
    );
    // Nothing of the array is left queued or running.
    let left = Command::new("squeue")
        .args([
            "-h",
            "-r",
            "--name=harness-unit",
            "-t",
            "PENDING,RUNNING,COMPLETING",
            "-o",
            "%i",
        ])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&left.stdout)
    );
    assert!(
        answer_count(&out) < 12,
        "the array ran to its end despite Ctrl-C"
    );
    assert!(
        !out.join("ROUND_DONE").exists(),
        "an interrupted round claims to be done"
    );
}
