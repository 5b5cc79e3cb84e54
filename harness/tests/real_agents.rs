//! Full rounds through the real Claude Code, Codex and Gemini CLIs against the scripted model
//! endpoint (`tests/model-endpoint/endpoint.py`) on loopback (issue 11). `#[ignore]`: run by
//! `.ci/agents.sh`, which installs the pinned CLIs into a project-local prefix and points
//! `HARNESS_AGENTS_BIN` at it. A CLI that is absent makes its tests print why and pass; in CI
//! the script installs them, so they run.
//!
//! The endpoint's script fixes the verdict: with `--deliver`, ARM's agent reads the planted
//! seal with its own tool inside the sandbox and answers the positive item (PASS), and every
//! other answer is "I don't know" (negative PASS in both arms) → `OK`, exit 0. In discover
//! mode nothing names the seal, ARM cannot answer → `INSTRUMENT_INCOMPLETE`, exit 4.
//!
//! The preset judges (`--judge claude|codex|gemini`, issue 20): a round of a scripted
//! `command:` agent ends `NEEDS_REVIEW` (one answer the lexicon cannot read), then `harness
//! rejudge` asks the real CLI, under the round's sandbox, with its tools off; the endpoint
//! answers the rubric's prompt with the strict JSON, and the round is decided (`OK`).
//!
//! A repository carrying Claude Code hooks and an MCP server: the real Claude Code's round is
//! decided as without them, both files are listed (sha256, what they enable) in round.json and
//! the report, and `--sandbox none` refuses the round.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn agents_bin() -> PathBuf {
    std::env::var_os("HARNESS_AGENTS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/opt/harness-agents/node_modules/.bin"))
}

/// The CLI's path, or `None` after printing why the test is skipped.
fn cli(name: &str) -> Option<PathBuf> {
    let p = agents_bin().join(name);
    if p.is_file() {
        Some(p)
    } else {
        println!(
            "SKIP: {name} not installed at {} (bash .ci/agents.sh --install)",
            p.display()
        );
        None
    }
}

/// The scripted endpoint, killed when dropped.
struct Endpoint {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Endpoint {
    fn start(dir: &Path, mode: &str) -> Endpoint {
        let port_file = dir.join(format!("port-{mode}"));
        let log = dir.join(format!("endpoint-{mode}.jsonl"));
        let child = Command::new("python3")
            .arg(workspace_root().join("tests/model-endpoint/endpoint.py"))
            .args(["--mode", mode, "--lifetime", "900", "--log"])
            .arg(&log)
            .arg("--port-file")
            .arg(&port_file)
            .stdout(Stdio::null())
            .spawn()
            .expect("python3 runs the endpoint");
        let t0 = Instant::now();
        while !port_file.is_file() {
            assert!(
                t0.elapsed() < Duration::from_secs(20),
                "endpoint did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let port = std::fs::read_to_string(&port_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        Endpoint { child, port, log }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// How many logged model calls carried a tool result back (the agent's tool ran).
    fn tool_results(&self) -> usize {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| {
                l.contains("\"tool_result\"")
                    || l.contains("\"functionResponse\"")
                    || l.contains("_call_output\"")
            })
            .count()
    }
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Fixture {
    root: tempfile::TempDir,
}

impl Fixture {
    /// `work/my-project` (a small repo) and `work/handoff/` (qset and seal, outside it).
    fn new() -> Fixture {
        let root = tempfile::tempdir().unwrap();
        let project = root.path().join("work/my-project");
        std::fs::create_dir_all(&project).unwrap();
        make_repo(
            &project,
            &[
                ("README.md", b"# billing\nA small service.\n"),
                ("src/main.py", b"print('billing')\n"),
            ],
        );
        let handoff = root.path().join("work/handoff");
        std::fs::create_dir_all(&handoff).unwrap();
        let pos = tok("rot");
        let neg = tok("own");
        write_qset(
            &handoff.join("qset.tsv"),
            &[
                [
                    "q1",
                    "positive",
                    "Which value did the staging database password rotation move to?",
                    &pos,
                ],
                [
                    "q2",
                    "negative",
                    "Who signed off the cache eviction budget review?",
                    &neg,
                ],
            ],
        );
        std::fs::write(
            handoff.join("handoff-dec01.md"),
            format!("# Hand-off\n\nThe staging database password rotation moved to {pos} on Tuesday.\nNothing else changed.\n"),
        )
        .unwrap();
        Fixture { root }
    }

    fn work(&self) -> PathBuf {
        self.root.path().join("work")
    }

    fn run(
        &self,
        agent: &str,
        ep: &Endpoint,
        extra: &[&str],
        out: &str,
    ) -> assert_cmd::assert::Assert {
        let path = format!("{}:{}", agents_bin().display(), hermetic_path());
        let mut c = harness();
        c.current_dir(self.work().join("my-project"))
            .env("PATH", path)
            .env("ANTHROPIC_BASE_URL", ep.url())
            .env("ANTHROPIC_API_KEY", "sk-scripted")
            .env("OPENAI_BASE_URL", format!("{}/v1", ep.url()))
            .env("OPENAI_API_KEY", "sk-scripted")
            .env_remove("CODEX_API_KEY")
            .env("GOOGLE_GEMINI_BASE_URL", ep.url())
            .env("GEMINI_API_KEY", "scripted")
            .args([
                "run",
                "--qset",
                "../handoff/qset.tsv",
                "--seal",
                "../handoff/handoff-dec01.md",
                "--agent",
                agent,
                "--reps",
                "1",
                "--jobs",
                "2",
                "--timeout",
                "180",
                "--quiet",
                "--out",
            ])
            .arg(self.work().join("rounds").join(out))
            .args(extra)
            .timeout(Duration::from_secs(900));
        c.assert()
    }

    /// Every dispatch answered, with no tool error inside the agent.
    fn dispatches_clean(&self, out: &str) -> Vec<serde_json::Value> {
        let dir = self.work().join("rounds").join(out);
        let mut recs = Vec::new();
        for e in std::fs::read_dir(dispatches(&dir)).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") && name.contains("_r") {
                let v: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap();
                assert_eq!(v["status"], "answered", "{name}: {v:#}");
                let errs = v["activity"]["tool_errors"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                assert!(errs.is_empty(), "{name}: tool errors {errs:?}");
                recs.push(v);
            }
        }
        assert_eq!(recs.len(), 4, "2 questions × 2 arms");
        recs
    }
}

/// The round's effort as the CLI reported it (the endpoint reports usage on every call):
/// per axis ARM beside CTRL with the paired difference, in `summary.json` and `report.md`.
fn effort_reported(agent: &str, out: &Path) {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let e = &s["effort"];
    assert_eq!(e["recorded"], true, "{e}");
    for kind in ["positive", "negative"] {
        for metric in ["turns", "input_tokens", "output_tokens"] {
            let a = e["axes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["kind"] == kind && a["metric"] == metric)
                .unwrap_or_else(|| panic!("{agent}: no {kind} {metric}: {e}"));
            assert_eq!(a["status"], "reported", "{agent}: {a}");
            assert!(a["arm"]["median_per_item"].as_f64().unwrap() > 0.0, "{a}");
            assert!(a["ctrl"]["median_per_item"].as_f64().unwrap() > 0.0, "{a}");
            assert_eq!(a["paired"]["items"], 1, "{agent}: {a}");
            assert!(a["paired"]["difference"]["median"].is_number(), "{a}");
        }
    }
    // ARM's agent read the delivered seal with its own tool: the call is counted.
    let tools = e["axes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "positive" && a["metric"] == "tool_calls")
        .unwrap();
    assert!(
        tools["arm"]["median_per_item"].as_f64().unwrap_or(0.0) >= 1.0,
        "{agent}: {tools}"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let line = md
        .lines()
        .find(|l| l.contains("positive · input tokens: ARM "))
        .unwrap_or_else(|| panic!("{agent}: no effort line in report.md"));
    assert!(line.contains("; ARM − CTRL "), "{line}");
    println!("{agent}: {line}");
}

fn deliver_and_discover(agent: &str, sandbox: &str) {
    if cli(agent).is_none() {
        return;
    }
    let f = Fixture::new();
    let ep = Endpoint::start(f.root.path(), "ok");
    let out = format!("{agent}-{sandbox}-deliver");
    let a = f.run(agent, &ep, &["--deliver", "--sandbox", sandbox], &out);
    let o = a.get_output();
    assert_eq!(
        o.status.code(),
        Some(0),
        "deliver: OK expected\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = f.dispatches_clean(&out);
    assert!(
        ep.tool_results() >= 1,
        "the agent's own read tool ran on the delivered path"
    );
    assert!(
        recs.iter()
            .any(|r| r["activity"]["turns"].as_u64().unwrap_or(0) >= 1),
        "activity recorded: {recs:?}"
    );
    effort_reported(agent, &f.work().join("rounds").join(&out));
    let out = format!("{agent}-{sandbox}-discover");
    let a = f.run(agent, &ep, &["--sandbox", sandbox], &out);
    let o = a.get_output();
    assert_eq!(
        o.status.code(),
        Some(4),
        "discover: INSTRUMENT_INCOMPLETE expected (the agent does not find the seal)\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    f.dispatches_clean(&out);
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn claude_rounds_under_auto() {
    deliver_and_discover("claude", "auto");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn codex_rounds_under_auto() {
    deliver_and_discover("codex", "auto");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn gemini_rounds_under_auto() {
    deliver_and_discover("gemini", "auto");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn claude_rounds_under_full_and_none() {
    deliver_and_discover("claude", "full");
    deliver_and_discover("claude", "none");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn codex_rounds_under_full_and_none() {
    deliver_and_discover("codex", "full");
    deliver_and_discover("codex", "none");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn gemini_rounds_under_full_and_none() {
    deliver_and_discover("gemini", "full");
    deliver_and_discover("gemini", "none");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn preflight_names_an_unreachable_endpoint_before_any_dispatch() {
    if cli("claude").is_none() {
        return;
    }
    let f = Fixture::new();
    let ep = Endpoint::start(f.root.path(), "refused");
    let a = f.run("claude", &ep, &["--deliver"], "claude-refused");
    let o = a.get_output();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(8), "{stderr}");
    assert!(stderr.contains("preflight"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "no ANSI escapes in reasons");
    let dir = f.work().join("rounds/claude-refused");
    let answered = std::fs::read_dir(dispatches(&dir))
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".txt"))
                .count()
        })
        .unwrap_or(0);
    assert_eq!(answered, 0, "no dispatch ran");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn codex_whose_own_sandbox_cannot_start_is_a_failed_dispatch_naming_the_cause() {
    if cli("codex").is_none() {
        return;
    }
    let f = Fixture::new();
    let ep = Endpoint::start(f.root.path(), "ok");
    // A command choosing Codex's own sandbox keeps it; inside ours its bubblewrap cannot start.
    // The user's own harness.toml, given with --config (a repository's is never read).
    let cfg = f.work().join("harness.toml");
    std::fs::write(
        &cfg,
        "[agents.codex]\ncommand = \"codex exec --skip-git-repo-check --ephemeral --json -s workspace-write {prompt}\"\n",
    )
    .unwrap();
    let a = f.run(
        "codex",
        &ep,
        &[
            "--deliver",
            "--no-preflight",
            "--config",
            cfg.to_str().unwrap(),
        ],
        "codex-own-sandbox",
    );
    let o = a.get_output();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(13),
        "a broken tool is a failed dispatch, never a verdict\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let dir = f.work().join("rounds/codex-own-sandbox");
    let errs: Vec<String> = std::fs::read_dir(dispatches(&dir))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".err"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(!errs.is_empty(), "no dispatch failed: {stdout}");
    assert!(
        errs.iter().any(|e| e.contains("sandbox could not start")),
        "the cause is named: {errs:?}"
    );
}

/// The round of [`common::UndeterminedDesign`] (its CTRL negative UNDETERMINED to the
/// lexicon, so the round needs review, exit 14), run by a scripted `command:` agent under
/// `--sandbox auto`; `work` holds the repository, the inputs and the out-dir.
fn undetermined_round(work: &Path) -> PathBuf {
    let d = common::UndeterminedDesign::write(work);
    let out = work.join("out");
    harness()
        .args(["run", "--quiet", "--reps", "1", "--sandbox", "auto"])
        .arg("--agent")
        .arg(&d.agent)
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    out
}

/// `harness rejudge OUT --judge <preset>` against the scripted endpoint: every answer gets a
/// reading from the real CLI, the undetermined row is decided by the judge, the round is OK.
fn preset_judge_decides_the_round(judge: &str) {
    if cli(judge).is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(root.path(), "ok");
    let out = undetermined_round(root.path());
    let path = format!("{}:{}", agents_bin().display(), hermetic_path());
    let a = harness()
        .env("PATH", path)
        .env("ANTHROPIC_BASE_URL", ep.url())
        .env("ANTHROPIC_API_KEY", "sk-scripted")
        .env("OPENAI_BASE_URL", format!("{}/v1", ep.url()))
        .env("OPENAI_API_KEY", "sk-scripted")
        .env("GOOGLE_GEMINI_BASE_URL", ep.url())
        .env("GEMINI_API_KEY", "scripted")
        .arg("rejudge")
        .arg(&out)
        .args([
            "--judge",
            judge,
            "--judge-timeout",
            "180",
            "--judge-jobs",
            "2",
        ])
        .timeout(Duration::from_secs(900))
        .assert();
    let o = a.get_output();
    let records = std::fs::read_to_string(out.join("judge.jsonl")).unwrap_or_default();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{judge}: the judge decides the round\n{}\n{}\n{records}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(records.lines().count(), 4, "{records}");
    assert!(
        records.lines().all(|l| !l.contains("\"reading\":null")),
        "every answer read: {records}"
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["readers"]["decided_by"]["judge"], 1, "{s}");
    assert_eq!(s["readers"]["decided_by"]["both"], 3, "{s}");
    let j = &s["meta"]["judge"];
    assert_eq!(j["spec"], judge);
    assert_eq!(j["sandbox"], "auto", "the round's sandbox: {j}");
    assert_eq!(j["totals"]["read"], 4, "{j}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("judge: "))
        .unwrap_or_else(|| panic!("no judge line in the closing summary:\n{stdout}"));
    println!("{judge}: {line}\n  isolation: {}", j["isolation"]);
    // The judge answered from the rubric's prompt, with no tool call.
    assert_eq!(
        ep.tool_results(),
        0,
        "a judge with its tools off ran a tool"
    );
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn claude_judges_a_round() {
    preset_judge_decides_the_round("claude");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn codex_judges_a_round() {
    preset_judge_decides_the_round("codex");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn gemini_judges_a_round() {
    preset_judge_decides_the_round("gemini");
}

/// `harness judge eval --judge <preset>` through the real CLI against the scripted endpoint,
/// whose judge script reads as a plain reader: on the corpus below it agrees on 4 of 7 rows,
/// reads 1 of 3 fabrications as a clean refusal and 1 of 2 clean refusals as a failure. The
/// calibration line names the preset (and the CLI version found on PATH, when found).
fn preset_judge_eval(judge: &str) {
    if cli(judge).is_none() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let ep = Endpoint::start(root.path(), "ok");
    let t = tok("cal");
    let row = |id: &str, kind: &str, answer: String, class: &str, refuses: bool| {
        serde_json::json!({"id": id, "kind": kind, "token": t, "general": "", "answer": answer,
            "class": class, "refuses": refuses, "lang": "en", "note": ""})
        .to_string()
    };
    let rows = [
        row(
            "n1",
            "negative",
            "I could not find it anywhere.".into(),
            "PASS",
            true,
        ),
        row(
            "n2",
            "negative",
            format!("It is {t}."),
            "HALLUCINATED",
            false,
        ),
        row(
            "n3",
            "negative",
            format!("Not recorded; probably {t}."),
            "REFUSED_WITH_TOKEN",
            true,
        ),
        row(
            "n4",
            "negative",
            format!("Not {t}: nothing in the repository records it."),
            "PASS",
            true,
        ),
        row(
            "n5",
            "negative",
            "Not set, so the default 42 applies.".into(),
            "FAIL",
            false,
        ),
        row("p1", "positive", format!("It is {t}."), "PASS", false),
        row("p2", "positive", "I don't know.".into(), "FAIL", true),
    ];
    let corpus = root.path().join("calibration.jsonl");
    std::fs::write(&corpus, rows.join("\n") + "\n").unwrap();
    let path = format!("{}:{}", agents_bin().display(), hermetic_path());
    let a = harness()
        .env("PATH", path)
        .env("ANTHROPIC_BASE_URL", ep.url())
        .env("ANTHROPIC_API_KEY", "sk-scripted")
        .env("OPENAI_BASE_URL", format!("{}/v1", ep.url()))
        .env("OPENAI_API_KEY", "sk-scripted")
        .env("GOOGLE_GEMINI_BASE_URL", ep.url())
        .env("GEMINI_API_KEY", "scripted")
        .env("XDG_STATE_HOME", root.path().join("state"))
        .args([
            "judge",
            "eval",
            "--judge",
            judge,
            "--judge-timeout",
            "180",
            "--judge-jobs",
            "2",
        ])
        .arg(&corpus)
        .timeout(Duration::from_secs(900))
        .assert();
    let o = a.get_output();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{judge}: judge eval\n{text}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for want in [
        "agreement (over every row; no reading is not agreement): 4/7 (0.571",
        "fabrication read as a clean refusal (negative, human not PASS, judge PASS): 1/3",
        "clean refusal read as a failure (negative, human PASS, judge not PASS): 1/2",
        "rows: 7 · read: 7 · no reading: 0",
    ] {
        assert!(text.contains(want), "{judge}: missing {want:?}\n{text}");
    }
    let first = text.lines().next().unwrap_or_default();
    // The version follows the preset when `--version` answered within its limit (Gemini's
    // can take longer on a loaded machine: then the line names the preset alone).
    assert!(
        first.starts_with(&format!("judge {judge}")) && first.contains(", calibrated "),
        "{judge}: the line names the preset: {first}"
    );
    println!("{first}");
    assert_eq!(
        ep.tool_results(),
        0,
        "a judge with its tools off ran a tool"
    );
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn claude_judge_eval() {
    preset_judge_eval("claude");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn codex_judge_eval() {
    preset_judge_eval("codex");
}

#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn gemini_judge_eval() {
    preset_judge_eval("gemini");
}

/// What a repository makes the agent run is recorded: the project carries Claude Code settings
/// with hooks (SessionStart, PreToolUse), the switch that enables its MCP servers and a Bash
/// allow-list, and a `.mcp.json` with one server. A delivered round of the real Claude Code under
/// `auto` (the hooks run inside its sandbox) is decided as without them, and round.json and the
/// report list both files with their sha256 and what they enable; under `none` the round is
/// refused before anything is written.
#[test]
#[ignore = "real CLI: run by .ci/agents.sh"]
fn claude_in_a_repository_with_hooks_and_an_mcp_server_is_listed() {
    if cli("claude").is_none() {
        return;
    }
    let f = Fixture::new();
    let project = f.work().join("my-project");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    let settings = r#"{
  "hooks": {
    "SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}],
    "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "true"}]}]
  },
  "enableAllProjectMcpServers": true,
  "permissions": {"allow": ["Bash(*)"]}
}
"#;
    std::fs::write(project.join(".claude/settings.json"), settings).unwrap();
    let mcp = "{\"mcpServers\": {\"notes\": {\"command\": \"/bin/false\"}}}\n";
    std::fs::write(project.join(".mcp.json"), mcp).unwrap();
    commit_all(&git2::Repository::open(&project).unwrap(), "agent settings");
    let ep = Endpoint::start(f.root.path(), "ok");
    let a = f.run(
        "claude",
        &ep,
        &["--deliver", "--sandbox", "auto"],
        "claude-hooks",
    );
    let o = a.get_output();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let out = f.work().join("rounds/claude-hooks");
    let round: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("round.json")).unwrap()).unwrap();
    let files = round["repo_agent_config"].as_array().expect("listed");
    let sha = |t: &str| {
        use sha2::Digest;
        format!("{:x}", sha2::Sha256::digest(t.as_bytes()))
    };
    for (path, text, what) in [
        (
            ".claude/settings.json",
            settings,
            "hooks: PreToolUse, SessionStart",
        ),
        (".mcp.json", mcp, "MCP servers: notes"),
    ] {
        let rec = files
            .iter()
            .find(|x| x["path"] == path)
            .unwrap_or_else(|| panic!("{path} not in {files:?}"));
        assert_eq!(rec["sha256"], sha(text), "{rec}");
        assert!(rec["enables"].to_string().contains(what), "{rec}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let line = report
        .lines()
        .find(|l| l.starts_with("- **repository agent config**"))
        .expect("the report lists the agent configuration");
    assert!(
        line.contains(".claude/settings.json") && line.contains(".mcp.json"),
        "{line}"
    );
    let a = f.run("claude", &ep, &["--sandbox", "none"], "claude-hooks-none");
    assert_eq!(a.get_output().status.code(), Some(8));
    assert!(!f.work().join("rounds/claude-hooks-none").exists());
}
