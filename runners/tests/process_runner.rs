//! The process runner with real child processes (the sh scripts in `tests/agents/`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use runners::error::Error;
use runners::process::{
    allowlisted_env, check_pass_env, run, DispatchHome, ProcessGroups, RunSpec,
};

fn script(name: &str) -> OsString {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/agents")
        .join(name)
        .into_os_string()
}

fn spec(argv: Vec<OsString>, timeout: Duration) -> (tempfile::TempDir, RunSpec) {
    let root = tempfile::tempdir().unwrap();
    let checkout = root.path().join("checkout");
    std::fs::create_dir_all(&checkout).unwrap();
    let home = DispatchHome::create(&root.path().join("dispatch")).unwrap();
    let mut s = RunSpec::new(argv, checkout, home, timeout);
    s.grace = Duration::from_millis(500);
    (root, s)
}

fn sh(cmd: &str) -> Vec<OsString> {
    vec!["sh".into(), "-c".into(), cmd.into()]
}

/// Alive = exists and not a zombie (a reparented zombie waits for init to reap it).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("");
            state != "Z" && state != "X"
        }
        Err(_) => false,
    }
}

fn grandchild_pid(stdout: &[u8]) -> i32 {
    let text = String::from_utf8_lossy(stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("grandchild: "))
        .expect("sleeper prints its grandchild pid")
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn env_is_built_from_scratch() {
    let root = tempfile::tempdir().unwrap();
    let home = DispatchHome::create(root.path()).unwrap();
    let parent: Vec<(OsString, OsString)> = [
        ("PATH", "/usr/bin"),
        ("LANG", "C.UTF-8"),
        ("LC_ALL", "C"),
        ("HARNESS_SECRET", "s"),
        ("SOME_VAR", "v"),
        ("ANTHROPIC_API_KEY", "k"),
        ("HOME", "/root"),
    ]
    .iter()
    .map(|(k, v)| (OsString::from(k), OsString::from(v)))
    .collect();
    let env = allowlisted_env(parent, &["ANTHROPIC_API_KEY".to_string()], &home).unwrap();
    let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(get("PATH"), Some("/usr/bin".into()));
    assert_eq!(get("LC_ALL"), Some("C".into()));
    assert_eq!(get("ANTHROPIC_API_KEY"), Some("k".into()));
    assert_eq!(get("HARNESS_SECRET"), None);
    assert_eq!(get("SOME_VAR"), None);
    assert_eq!(get("HOME"), Some(home.home.clone().into_os_string()));
    assert_eq!(get("TMPDIR"), Some(home.tmp.clone().into_os_string()));
    assert_eq!(
        get("CODEX_HOME"),
        Some(home.home.join(".codex").into_os_string())
    );
    assert_eq!(
        get("CLAUDE_CONFIG_DIR"),
        Some(home.home.join(".claude").into_os_string())
    );
    assert_eq!(
        get("XDG_CONFIG_HOME"),
        Some(home.home.join(".config").into_os_string())
    );
}

#[test]
fn harness_and_runner_variables_are_refused_as_pass_env() {
    for bad in ["HARNESS_X", "harness_token", "HOME", "TMPDIR", "CODEX_HOME"] {
        assert!(
            matches!(
                check_pass_env(&[bad.to_string()]),
                Err(Error::ForbiddenEnv { .. })
            ),
            "{bad} must be refused"
        );
    }
    assert!(matches!(
        check_pass_env(&["A=B".to_string()]),
        Err(Error::InvalidEnvName { .. })
    ));
    assert!(check_pass_env(&["SSL_CERT_FILE".to_string()]).is_ok());
    let (_root, mut s) = spec(sh("true"), Duration::from_secs(5));
    s.pass_env = vec!["HARNESS_X".into()];
    assert!(matches!(
        run(&s, &ProcessGroups::new()),
        Err(Error::ForbiddenEnv { .. })
    ));
}

#[test]
fn agent_runs_in_its_checkout_with_null_stdin_and_fresh_home() {
    let (_root, s) = spec(
        sh("pwd; echo \"home=$HOME\"; ls -A \"$HOME\" | tr '\\n' ' '; echo; wc -c < /dev/stdin"),
        Duration::from_secs(10),
    );
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert!(out.succeeded(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        PathBuf::from(lines[0]),
        std::fs::canonicalize(&s.cwd).unwrap()
    );
    assert_eq!(lines[1], format!("home={}", s.home.home.display()));
    assert!(lines[2].contains(".codex") && lines[2].contains(".claude"));
    assert_eq!(lines[3].trim(), "0", "stdin is /dev/null");
    assert!(out.started_unix_ms <= out.ended_unix_ms);
}

#[test]
fn prompt_can_be_fed_on_stdin() {
    let (_root, mut s) = spec(sh("cat"), Duration::from_secs(10));
    s.stdin = Some(b"the question".to_vec());
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert_eq!(out.stdout, b"the question");
}

#[test]
fn failing_agent_reports_its_exit_status_and_both_streams() {
    let (_root, s) = spec(vec![script("failer.sh")], Duration::from_secs(10));
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert_eq!(out.exit_code, Some(3));
    assert!(!out.succeeded());
    assert_eq!(out.failure_reason().as_deref(), Some("exit status 3"));
    assert_eq!(out.stdout, b"partial output before failing\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("something went wrong"));
}

#[test]
fn missing_program_is_a_spawn_error() {
    let (_root, s) = spec(
        vec!["/nonexistent/agent-binary".into()],
        Duration::from_secs(5),
    );
    assert!(matches!(
        run(&s, &ProcessGroups::new()),
        Err(Error::Spawn { .. })
    ));
}

#[test]
fn timeout_kills_the_whole_process_group() {
    let (_root, s) = spec(vec![script("sleeper.sh")], Duration::from_millis(800));
    let t0 = Instant::now();
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert!(out.timed_out, "{out:?}");
    assert!(!out.succeeded());
    assert!(
        t0.elapsed() < Duration::from_secs(10),
        "took {:?}",
        t0.elapsed()
    );
    let gc = grandchild_pid(&out.stdout);
    // Give init a moment to reap the reparented grandchild.
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(gc) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(gc), "grandchild {gc} survived the timeout");
}

#[test]
fn cancel_flag_stops_the_dispatch_and_its_group() {
    let (_root, mut s) = spec(vec![script("sleeper.sh")], Duration::from_secs(120));
    let flag = Arc::new(AtomicBool::new(false));
    s.cancel = Some(flag.clone());
    let setter = {
        let flag = flag.clone();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(500));
            flag.store(true, Ordering::SeqCst);
        })
    };
    let t0 = Instant::now();
    let out = run(&s, &ProcessGroups::new()).unwrap();
    setter.join().unwrap();
    assert!(out.cancelled && !out.timed_out, "{out:?}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    let gc = grandchild_pid(&out.stdout);
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(gc) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(gc), "grandchild {gc} survived the cancel");
}

#[test]
fn kill_all_ends_every_running_group() {
    let groups = ProcessGroups::new();
    let (_root, s) = spec(vec![script("sleeper.sh")], Duration::from_secs(120));
    let g = groups.clone();
    let handle = thread::spawn(move || run(&s, &g).unwrap());
    let deadline = Instant::now() + Duration::from_secs(5);
    while groups.running() == 0 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(groups.running(), 1);
    thread::sleep(Duration::from_millis(200));
    groups.kill_all(Duration::from_millis(200));
    let out = handle.join().unwrap();
    assert!(out.signal.is_some(), "{out:?}");
    assert!(!out.timed_out);
    assert_eq!(groups.running(), 0);
}

#[test]
fn large_output_on_both_streams_does_not_deadlock() {
    let n = 20_000_000;
    let (_root, s) = spec(
        sh(&format!(
            "head -c {n} /dev/zero >&2 & head -c {n} /dev/zero; wait"
        )),
        Duration::from_secs(60),
    );
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert!(out.succeeded(), "{:?}", out.failure_reason());
    assert_eq!(out.stdout.len(), n);
    assert_eq!(out.stderr.len(), n);
    assert!(!out.stdout_truncated);
}

#[test]
fn output_over_the_cap_is_cut_and_recorded_while_the_agent_finishes() {
    let (_root, mut s) = spec(
        sh("head -c 5000000 /dev/zero; echo done >&2"),
        Duration::from_secs(30),
    );
    s.max_output = 1000;
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout.len(), 1000);
    assert!(out.stdout_truncated && !out.stderr_truncated);
}

#[test]
fn normal_exit_leaves_nothing_running_in_the_group() {
    let (_root, s) = spec(
        sh("sleep 300 & echo \"grandchild: $!\""),
        Duration::from_secs(30),
    );
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert_eq!(out.exit_code, Some(0));
    let gc = grandchild_pid(&out.stdout);
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(gc) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(gc), "a background process outlived its dispatch");
}

/// Issue 12 (1): well-behaved fast agents run many at a time, as `--jobs 64` does. The runner
/// used to give the stderr reader a fixed 100 ms after the agent's exit to reach end of file;
/// on a loaded machine the reader thread is not scheduled in time and a clean dispatch was
/// recorded as "output incomplete".
#[test]
fn many_fast_agents_in_parallel_never_fail_spuriously() {
    let jobs = 64;
    let per_thread = 8;
    let groups = ProcessGroups::new();
    let failures = Arc::new(std::sync::Mutex::new(Vec::new()));
    let handles: Vec<_> = (0..jobs)
        .map(|_| {
            let groups = groups.clone();
            let failures = failures.clone();
            thread::spawn(move || {
                for _ in 0..per_thread {
                    let (_root, s) = spec(vec![script("fast.sh")], Duration::from_secs(60));
                    let out = run(&s, &groups).unwrap();
                    if !out.succeeded() || out.stdout != b"answer\n" {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{:?}", out.failure_reason()));
                    }
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let failures = failures.lock().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {}: {:?}",
        failures.len(),
        jobs * per_thread,
        *failures
    );
}

/// Issue 12 (1, 7): a process that left the agent's group (`setsid`) and keeps its stdout
/// is found through `/proc` as the holder of the pipe, killed and named; the agent's own
/// exit and output decide the outcome, and the dispatch does not wait for the stray.
#[test]
fn stray_holding_the_pipes_is_found_killed_and_named() {
    let (_root, s) = spec(
        // The agent exits only once its child has left the group (it is `sleep` only after
        // setsid(2)): before that, the group kill at the agent's exit would take it, and there
        // would be no stray to find (CI saw that race).
        sh("setsid sleep 3172 & gc=$!; n=0; \
            while [ \"$(cat /proc/$gc/comm 2>/dev/null)\" != sleep ] && [ $n -lt 500 ]; do \
            sleep 0.01; n=$((n + 1)); done; \
            echo \"grandchild: $gc\"; echo answer"),
        Duration::from_secs(60),
    );
    let t0 = Instant::now();
    let out = run(&s, &ProcessGroups::new()).unwrap();
    assert!(out.succeeded(), "{:?} {out:?}", out.failure_reason());
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    let gc = grandchild_pid(&out.stdout);
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("answer\n"));
    assert_eq!(out.stray_processes, vec![format!("pid {gc} (sleep)")]);
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(gc) && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(gc), "the stray {gc} outlived its dispatch");
}

/// Issue 12 (3): what `--retries` may run again. The agent's own answer, even with a
/// non-zero exit, is never retried; a silent failure, a kill, a timeout are; Ctrl-C is not.
#[test]
fn infrastructure_failures_are_told_apart_from_the_agents_answer() {
    let run_sh = |cmd: &str, timeout_ms: u64| {
        let (_root, s) = spec(sh(cmd), Duration::from_millis(timeout_ms));
        run(&s, &ProcessGroups::new()).unwrap()
    };
    assert_eq!(run_sh("echo answer", 10_000).infra_failure(), None);
    assert_eq!(
        run_sh("echo partial; exit 3", 10_000).infra_failure(),
        None,
        "a failing agent that answered is the agent's result"
    );
    assert_eq!(
        run_sh("echo 'no key' >&2; exit 3", 10_000)
            .infra_failure()
            .as_deref(),
        Some("exit status 3 and no output")
    );
    assert_eq!(
        run_sh("kill -9 $$", 10_000).infra_failure().as_deref(),
        Some("killed by signal 9")
    );
    let slow = run_sh("sleep 30", 300);
    assert!(slow.timed_out);
    assert!(slow
        .infra_failure()
        .is_some_and(|r| r.starts_with("timed out")));
    let (_root, mut s) = spec(sh("sleep 30"), Duration::from_secs(30));
    let flag = Arc::new(AtomicBool::new(true));
    s.cancel = Some(flag);
    let cancelled = run(&s, &ProcessGroups::new()).unwrap();
    assert!(cancelled.cancelled);
    assert_eq!(cancelled.infra_failure(), None, "Ctrl-C is never retried");
}
