//! Issue 12, the process side: nothing an agent starts outlives its dispatch or the harness,
//! under every `--sandbox` mode, checked through `/proc` with real scripts
//! (`tests/agents/detacher.sh`) and the real binary.

mod common;

use common::{agents_dir, dispatches, harness, make_repo, tok, write_qset, TestEnv};
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Round {
    dir: tempfile::TempDir,
    repo: PathBuf,
    qset: PathBuf,
    seal: PathBuf,
    out: PathBuf,
}

/// A committed repository, `n` questions (alternately positive with a seal line, and
/// negative) and the seal, all in a temp folder.
fn round(n: usize) -> Round {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo, &[("README.md", b"A small service.\n")]);
    let inputs = dir.path().join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let tokens: Vec<String> = (0..n).map(|i| tok(&format!("p{i}q"))).collect();
    let questions: Vec<String> = (0..n)
        .map(|i| format!("What is item number {i} about?"))
        .collect();
    let ids: Vec<String> = (0..n).map(|i| format!("Q{i:04}")).collect();
    let rows: Vec<[&str; 4]> = (0..n)
        .map(|i| {
            let kind = if i % 2 == 0 { "positive" } else { "negative" };
            [
                ids[i].as_str(),
                kind,
                questions[i].as_str(),
                tokens[i].as_str(),
            ]
        })
        .collect();
    let qset = inputs.join("questions.tsv");
    write_qset(&qset, &rows);
    let mut seal_text = String::from("# Hand-off\n");
    for (i, t) in tokens.iter().enumerate().step_by(2) {
        seal_text.push_str(&format!("item {i} value: {t}\n"));
    }
    let seal = inputs.join("handoff.md");
    std::fs::write(&seal, seal_text).unwrap();
    let out = dir.path().join("results").join("r1");
    Round {
        dir,
        repo,
        qset,
        seal,
        out,
    }
}

impl Round {
    fn args(&self, flags: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = vec!["run".into(), "--qset".into()];
        v.push(self.qset.display().to_string());
        v.push("--seal".into());
        v.push(self.seal.display().to_string());
        v.push("--repo".into());
        v.push(self.repo.display().to_string());
        v.push("--out".into());
        v.push(self.out.display().to_string());
        v.push("--quiet".into());
        v.extend(flags.iter().map(|s| s.to_string()));
        v
    }

    /// `harness run` with `agent` at `--jobs jobs` under `--sandbox sandbox`, one rep, plus
    /// `extra`; returns ROUND_DONE (empty when missing) and the first lines of stderr.
    fn run(
        &self,
        agent: &str,
        jobs: &str,
        sandbox: &str,
        extra: &[&str],
        limit: Duration,
    ) -> (String, String) {
        let mut flags = vec![
            "--agent",
            agent,
            "--reps",
            "1",
            "--jobs",
            jobs,
            "--sandbox",
            sandbox,
        ];
        flags.extend_from_slice(extra);
        let o = harness()
            .env("HOME", self.home())
            .args(self.args(&flags))
            .timeout(limit)
            .output()
            .unwrap();
        let stderr: Vec<String> = String::from_utf8_lossy(&o.stderr)
            .lines()
            .take(40)
            .map(str::to_string)
            .collect();
        let done = std::fs::read_to_string(self.out.join("ROUND_DONE")).unwrap_or_default();
        (done, format!("stderr:\n{}", stderr.join("\n")))
    }

    fn home(&self) -> PathBuf {
        let h = self.dir.path().join("userhome");
        std::fs::create_dir_all(&h).unwrap();
        h
    }
}

/// Every dispatch's `<label>_r<n>.json` in the out-dir.
fn dispatch_records(out: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_dir(dispatches(out))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            let name = p.file_name()?.to_str()?.to_string();
            (name.ends_with(".json") && name.contains("_r"))
                .then(|| serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap())
        })
        .collect()
}

/// `command:<abs script> {prompt} <more…>`: the script as argv[0], so the sandbox allows it.
fn agent(script: &str, more: &[&str]) -> String {
    let mut s = format!("command:{} {{prompt}}", agents_dir().join(script).display());
    for m in more {
        s.push(' ');
        s.push_str(m);
    }
    s
}

/// A sleep length no other test (or run of this one) uses.
fn mark(salt: u32) -> String {
    (40_000 + (std::process::id() * 7 + salt) % 20_000).to_string()
}

/// Whether `pid` is a live process (a zombie is not).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => {
            let state = s
                .rsplit_once(')')
                .map(|(_, r)| r.trim_start())
                .unwrap_or("");
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Live processes whose command line is exactly `sleep <mark>`, found in /proc.
fn sleepers(mark: &str) -> Vec<i32> {
    let want = [b"sleep\0".as_slice(), mark.as_bytes(), b"\0"].concat();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == want))
        .filter(|pid| alive(*pid))
        .collect()
}

/// Kills what a failed check left running (the test's own leftovers), then reports them.
fn none_left(mark: &str, what: &str) {
    let left = sleepers(mark);
    for p in &left {
        // SAFETY: cleaning up processes this test started through the harness.
        unsafe {
            libc::kill(*p, libc::SIGKILL);
        }
    }
    assert!(left.is_empty(), "{what}: still running: {left:?}");
}

/// What a round that never got going left to read: the harness's exit, its stderr, and the
/// reasons of failed dispatches.
fn why_not_going(child: &mut std::process::Child, r: &Round) -> String {
    let status = child.try_wait().ok().flatten();
    let stderr = std::fs::read_to_string(r.dir.path().join("harness.stderr")).unwrap_or_default();
    let errs: Vec<String> = std::fs::read_dir(dispatches(&r.out))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".err"))
                .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    format!("harness exit {status:?}; failed dispatches {errs:?}; stderr:\n{stderr}")
}

fn wait_for_sleepers(child: &mut std::process::Child, r: &Round, mark: &str, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while sleepers(mark).len() < n {
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let why = why_not_going(child, r);
            let _ = child.kill();
            none_left(mark, &format!("setup ({why})"));
            panic!("the agents never got going: {why}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn detached_children_end_with_their_dispatch(sandbox: &str, salt: u32) {
    let r = round(2);
    let m = mark(salt);
    let spec = agent("detacher.sh", &[&m]);
    let (done, ctx) = r.run(&spec, "2", sandbox, &[], Duration::from_secs(120));
    none_left(&m, &format!("after a --sandbox {sandbox} round\n{ctx}"));
    if sandbox == "none" {
        // Without a PID namespace nothing but the reaper ends them: each record names its
        // three (in the group, setsid, nohup'd double fork).
        for rec in dispatch_records(&r.out) {
            let strays = rec["stray_processes"].as_array().expect("strays recorded");
            assert_eq!(strays.len(), 3, "{rec}");
        }
    }
    assert!(done.contains("answers: 4"), "{done}\n{ctx}");
}

#[test]
fn detached_children_end_with_their_dispatch_without_sandbox() {
    detached_children_end_with_their_dispatch("none", 1);
}

#[test]
fn detached_children_end_with_their_dispatch_under_sandbox_auto() {
    detached_children_end_with_their_dispatch("auto", 2);
}

fn agents_die_with_the_harness(sandbox: &str, salt: u32) {
    let r = round(2);
    let m = mark(salt);
    let spec = agent("detacher.sh", &[&m, "stay"]);
    let mut child = TestEnv::kept()
        .command(assert_cmd::cargo::cargo_bin("harness"))
        .env("HOME", r.home())
        .args(r.args(&[
            "--agent",
            &spec,
            "--reps",
            "1",
            "--jobs",
            "4",
            "--sandbox",
            sandbox,
        ]))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(r.dir.path().join("harness.stderr")).unwrap())
        .spawn()
        .unwrap();
    // Four dispatches, each: the agent itself, one in its group, one setsid, one nohup.
    wait_for_sleepers(&mut child, &r, &m, 16);
    child.kill().unwrap();
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(1);
    while !sleepers(&m).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    none_left(
        &m,
        &format!("1 s after SIGKILL of the harness (--sandbox {sandbox})"),
    );
}

#[test]
fn agents_die_within_a_second_of_the_harness_sigkill_without_sandbox() {
    agents_die_with_the_harness("none", 3);
}

#[test]
fn agents_die_within_a_second_of_the_harness_sigkill_under_sandbox_auto() {
    agents_die_with_the_harness("auto", 4);
}

/// Issue 12's bar: 2,000 dispatches of a fast, well-behaved agent at `--jobs 64` end with
/// zero failed dispatches (they used to fail 17–29 in 500 at random). Heavy: run by
/// `.ci/procs.sh` (`cargo test --release -p harness --test procs -- --ignored`). The sandbox
/// mode is `HARNESS_STRESS_SANDBOX` (default `auto`).
#[test]
#[ignore = "heavy: 2,000 dispatches; run by .ci/procs.sh"]
fn two_thousand_fast_dispatches_at_jobs_64_never_fail() {
    let sandbox = std::env::var("HARNESS_STRESS_SANDBOX").unwrap_or_else(|_| "auto".into());
    let r = round(1000);
    let spec = agent("fast.sh", &[]);
    let t0 = Instant::now();
    let (done, ctx) = r.run(&spec, "64", &sandbox, &[], Duration::from_secs(1500));
    let wall = t0.elapsed();
    let errs: Vec<String> = std::fs::read_dir(dispatches(&r.out))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "err").then(|| std::fs::read_to_string(&p).unwrap_or_default())
        })
        .collect();
    eprintln!(
        "stress: 2000 dispatches, --jobs 64, --sandbox {sandbox}: {:.1} s wall, {} failed",
        wall.as_secs_f64(),
        errs.len()
    );
    assert!(
        errs.is_empty(),
        "{} failed dispatches: {:?}\n{ctx}",
        errs.len(),
        &errs[..errs.len().min(10)]
    );
    assert!(done.contains("complete: yes"), "{done}\n{ctx}");
    assert!(done.contains("answers: 2000"), "{done}\n{ctx}");
}

/// Issue 12 (3): a start that fails for the infrastructure (here: a silent exit 1, as a
/// refused request looks) is retried under `--retries`, and the dispatch record keeps how
/// many attempts failed and why. It used to be retried only for kills and timeouts.
#[test]
fn infrastructure_failures_are_retried_and_recorded() {
    let r = round(2);
    let state = r.dir.path().join("state");
    std::fs::create_dir_all(&state).unwrap();
    let spec = agent("flaky.sh", &[&state.display().to_string()]);
    let retries = ["--retries", "1"];
    let (done, ctx) = r.run(&spec, "1", "none", &retries, Duration::from_secs(120));
    assert!(done.contains("answers: 4"), "{done}\n{ctx}");
    let records = dispatch_records(&r.out);
    assert_eq!(records.len(), 4, "{ctx}");
    for rec in &records {
        let retries = rec["retries"].as_array().expect("retries recorded");
        assert_eq!(retries.len(), 1, "{rec}");
        let why = retries[0].as_str().unwrap();
        assert!(
            why.starts_with("attempt 1:")
                && why.contains("exit status 1")
                && why.contains("rate limited"),
            "{why}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        8,
        "two starts each"
    );
}
