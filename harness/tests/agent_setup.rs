//! Agents as users keep them (issue 11), in the default suite: a `command:` script kept beside
//! the repository runs under `--sandbox auto`, and a preset whose CLI is not installed stops
//! at the preflight (exit 8) saying how to install it or choose another agent.

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// `<root>/work/my-project` (a repo), `<root>/work/handoff/` (qset, seal).
fn world(root: &Path) -> PathBuf {
    let work = root.join("work");
    let project = work.join("my-project");
    std::fs::create_dir_all(&project).unwrap();
    make_repo(&project, &[("README.md", b"# billing service\n")]);
    let handoff = work.join("handoff");
    std::fs::create_dir_all(&handoff).unwrap();
    let pos = tok("rot");
    write_qset(
        &handoff.join("qset.tsv"),
        &[[
            "q1",
            "positive",
            "Which value did the staging password rotation move to?",
            &pos,
        ]],
    );
    std::fs::write(
        handoff.join("handoff-dec01.md"),
        format!("The staging password rotation moved to {pos}.\n"),
    )
    .unwrap();
    work
}

fn run(work: &Path, agent: &str, path: Option<&str>) -> std::process::Output {
    let mut c = harness();
    c.current_dir(work.join("my-project")).args([
        "run",
        "--qset",
        "../handoff/qset.tsv",
        "--seal",
        "../handoff/handoff-dec01.md",
        "--deliver",
        "--reps",
        "1",
        "--quiet",
        "--sandbox",
        "auto",
        "--agent",
        agent,
        "--out",
        "../rounds/r1",
    ]);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().unwrap()
}

fn show(o: &std::process::Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn an_agent_script_beside_the_repository_runs_under_the_default_sandbox() {
    let root = tempfile::tempdir().unwrap();
    let work = world(root.path());
    // `~/work/agent.sh` beside `~/work/my-project`; its folder holds the repository, the
    // inputs and the out-dir, so no rule may cover the folder: the file alone is admitted.
    let script = work.join("agent.sh");
    std::fs::copy(agents_dir().join("sealreader.sh"), &script).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = run(
        &work,
        &format!("command:{} {{prompt}}", script.display()),
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("preflight: agent `command` starts"),
        "{stdout}"
    );
}

#[test]
fn a_preset_whose_cli_is_missing_stops_before_any_dispatch_saying_how_to_install_it() {
    let root = tempfile::tempdir().unwrap();
    let work = world(root.path());
    let empty = root.path().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    // The host's PATH (without any agent CLI: a user's machine may have one installed).
    let path = path_with(&[&empty]);
    let o = run(&work, "claude", Some(&path));
    assert_eq!(o.status.code(), Some(8), "{}", show(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("npm install -g @anthropic-ai/claude-code@"),
        "names the install: {stderr}"
    );
    assert!(
        stderr.contains("--agent"),
        "names the other agents: {stderr}"
    );
    assert!(
        !dispatches(&work.join("rounds/r1"))
            .read_dir()
            .map(|mut d| d.any(|e| {
                e.map(|e| e.file_name().to_string_lossy().ends_with(".txt"))
                    .unwrap_or(false)
            }))
            .unwrap_or(false),
        "no dispatch ran"
    );
}

/// A stand-in `claude` in its own bin folder: prints Claude Code's final stream-json event with
/// `answer` as its result, or fails the way a logged-out CLI does.
fn stand_in_claude(dir: &Path, answer: Option<&str>) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let body = match answer {
        Some(a) => format!(
            "#!/bin/sh\nprintf '%s\\n' '{{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"{a}\"}}'\n"
        ),
        None => "#!/bin/sh\necho 'Invalid API key · Please run /login' >&2\nexit 1\n".to_string(),
    };
    let p = bin.join("claude");
    std::fs::write(&p, body).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn doctor_preflight(bin: &Path) -> std::process::Output {
    // Only the stand-in's folder: a CLI installed on this machine is not called.
    harness()
        .args(["doctor", "--preflight"])
        .env("PATH", bin)
        .env("ANTHROPIC_API_KEY", "sk-stand-in")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

#[test]
fn doctor_preflight_calls_each_cli_found_and_says_whether_a_round_would_start() {
    let root = tempfile::tempdir().unwrap();
    let o = doctor_preflight(&stand_in_claude(&root.path().join("ok"), Some("READY")));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        out.lines().any(|l| l.starts_with("preflight claude")
            && l.contains("pass: agent `claude` answered READY")),
        "{out}"
    );
    // Logged out: the line says so and how to log in; exit 8, as a round would stop.
    let o = doctor_preflight(&stand_in_claude(&root.path().join("out"), None));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{}", show(&o));
    let line = out
        .lines()
        .find(|l| l.starts_with("preflight claude"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("FAIL: ") && line.contains("not logged in"),
        "{line}"
    );
    // No CLI at all: said, never an empty pass.
    let empty = root.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = doctor_preflight(&empty);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("not run: no preset CLI (claude, codex, gemini) on PATH"),
        "{out}"
    );
}

/// A stand-in CLI named `name` in `dir/bin` running `body` (a shell script).
/// `--version` and `--help` (what plain `doctor` asks) answer at once; any other call runs it.
fn stand_in(dir: &Path, name: &str, body: &str) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = bin.join(name);
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\ncase \"$*\" in *--version*|*--help*) echo 0.0.1; exit 0 ;; esac\n{body}\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Issue 22 item 8: without `--agent`, a CLI without credentials is listed as skipped, never
/// called; `--agent codex` checks that one alone, blames the missing login (not the network
/// the CLI's retry loop complains about) and quotes what the CLI said.
#[test]
fn doctor_preflight_checks_only_the_agents_asked_for_or_credentialed() {
    let root = tempfile::tempdir().unwrap();
    let bin = stand_in_claude(root.path(), Some("READY"));
    stand_in(
        root.path(),
        "codex",
        "echo 'ERROR: stream disconnected before completion: error sending request' >&2\nexit 1",
    );
    // The stand-ins first, then the host's tools (never its agent CLIs).
    let path = path_with(&[&bin]);
    let doctor = |extra: &[&str]| {
        harness()
            .args(["doctor", "--preflight"])
            .args(extra)
            .env("PATH", &path)
            .env("ANTHROPIC_API_KEY", "sk-stand-in")
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap()
    };
    let o = doctor(&[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let line = |out: &str, name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("preflight {name}")))
            .unwrap_or_else(|| panic!("no preflight {name} line:\n{out}"))
            .to_string()
    };
    assert!(
        line(&out, "codex").contains("skipped: no credentials found"),
        "{out}"
    );
    assert!(line(&out, "claude").contains("pass: "), "{out}");

    let o = doctor(&["--agent", "codex"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{}", show(&o));
    let codex = line(&out, "codex");
    assert!(
        codex.contains("not logged in: no credentials found") && !codex.contains("cannot reach"),
        "{codex}"
    );
    assert!(
        codex.contains("The CLI said: \"ERROR: stream disconnected"),
        "{codex}"
    );
    assert!(
        !out.lines().any(|l| l.starts_with("preflight claude")),
        "only the agent asked for: {out}"
    );
    // Nor is the other CLI run for its version or flags.
    assert!(
        !out.lines().any(|l| l.starts_with("agent claude")) && out.contains("agent codex"),
        "only the agent asked for is listed: {out}"
    );
}

/// Issue 22 item 8: each READY call has its own time limit.
#[test]
fn doctor_preflight_stops_an_agent_at_its_time_limit() {
    let root = tempfile::tempdir().unwrap();
    let bin = stand_in(root.path(), "claude", "sleep 60");
    let started = std::time::Instant::now();
    let o = harness()
        .args(["doctor", "--agent", "claude", "--preflight-timeout", "2"])
        .env("PATH", path_with(&[&bin]))
        .env("ANTHROPIC_API_KEY", "sk-stand-in")
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let took = started.elapsed();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{}", show(&o));
    assert!(
        out.lines()
            .any(|l| l.starts_with("preflight claude") && l.contains("gave no answer within 2s")),
        "{out}"
    );
    assert!(took < std::time::Duration::from_secs(40), "took {took:?}");
}
