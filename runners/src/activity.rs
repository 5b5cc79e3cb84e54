//! What an agent did during one dispatch, read from its structured output (issue 11): turns,
//! tokens, cost, permission denials and tool errors. "The agent could not look" must be
//! told apart from "the agent did not look", and a tool broken by the infrastructure (a
//! sandbox that cannot start, a delivered path it may not read) from a scored answer.
//!
//! Formats read (checked against the versions in [`crate::agent::CHECKED_VERSIONS`]):
//! - Claude Code `--output-format stream-json --verbose`: one JSON object a line; `user`
//!   messages carry `tool_result` blocks with `is_error`; the last line is the `result`
//!   object with `num_turns`, `usage`, `total_cost_usd`, `duration_ms`,
//!   `permission_denials`. Plain `--output-format json` gives the result object alone.
//! - Codex `exec --json`: `turn.completed` events with `usage`; `item.completed` items of
//!   type `command_execution` with `exit_code` and `aggregated_output`.
//! - Gemini CLI `--output-format json`: `stats.models.*.tokens`, `stats.tools.totalFail`,
//!   `stats.tools.totalDecisions.reject`; the failing tool's message is only on stderr
//!   (`Error executing tool NAME: MESSAGE`).

use serde::{Deserialize, Serialize};

use crate::agent::{AgentKind, AgentSpec, OutputFormat, Preset};

/// What the agent reported about its own run. `None` means the CLI does not report it
/// (never zero: "not measured" is not "none").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentActivity {
    /// Model turns (Claude `num_turns`, Codex completed turns, Gemini main-role requests).
    pub turns: Option<u64>,
    /// Input tokens, cached and cache-written ones included.
    pub input_tokens: Option<u64>,
    /// Output tokens.
    pub output_tokens: Option<u64>,
    /// Cost in USD as the CLI computed it (Claude only).
    pub cost_usd: Option<f64>,
    /// The agent's own duration in milliseconds, when it reports one.
    pub duration_ms: Option<u64>,
    /// Tool calls the agent made (Claude `tool_use` blocks of a stream, Codex tool items or
    /// logged tool results, Gemini `stats.tools.totalCalls`); `None` when the output does
    /// not show them (Claude's plain `json` result, a text agent) and in older records.
    #[serde(default)]
    pub tool_calls: Option<u64>,
    /// Tool uses the CLI denied for want of permission, one line each.
    pub permission_denials: Vec<String>,
    /// Tool calls that failed inside the agent, one line each.
    pub tool_errors: Vec<String>,
}

fn excerpt(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut in_escape = false;
    for c in s.chars() {
        // ANSI CSI sequences: ESC [ … final byte in @..~.
        if in_escape {
            if ('@'..='~').contains(&c) && c != '[' {
                in_escape = false;
            }
            continue;
        }
        if c == '\u{1b}' {
            in_escape = true;
            continue;
        }
        if out.chars().count() >= max {
            out.push('…');
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out.trim().to_string()
}

fn u(v: &serde_json::Value, ptr: &str) -> Option<u64> {
    v.pointer(ptr).and_then(|x| x.as_u64())
}

/// Reads the activity from an agent's raw stdout (and stderr, where a CLI puts tool errors
/// only there). Text agents report nothing: every field stays unmeasured.
pub fn read_activity(spec: &AgentSpec, stdout: &[u8], stderr: &[u8]) -> AgentActivity {
    let text = String::from_utf8_lossy(stdout);
    match (spec.kind, spec.output) {
        (_, OutputFormat::ClaudeJson) => claude(&text),
        (_, OutputFormat::CodexJsonl) => codex(&text, &String::from_utf8_lossy(stderr)),
        (AgentKind::Preset(Preset::Gemini), OutputFormat::GeminiJson) => {
            gemini(&text, &String::from_utf8_lossy(stderr))
        }
        _ => AgentActivity::default(),
    }
}

fn json_lines(text: &str) -> impl Iterator<Item = serde_json::Value> + '_ {
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l.trim()).ok())
}

fn claude(text: &str) -> AgentActivity {
    let mut a = AgentActivity::default();
    let mut result = None;
    let whole = serde_json::from_str::<serde_json::Value>(text.trim()).ok();
    let lines: Vec<serde_json::Value> = match whole {
        Some(v) if v.is_object() => vec![v],
        _ => json_lines(text).collect(),
    };
    // Tool calls are seen only in a stream (`stream-json`): the plain result object does not
    // list them, so without an assistant message they stay unmeasured.
    let mut tool_calls: Option<u64> = None;
    for v in lines {
        match v.get("type").and_then(|t| t.as_str()) {
            Some("assistant") => {
                let blocks = v.pointer("/message/content").and_then(|c| c.as_array());
                let uses = blocks
                    .into_iter()
                    .flatten()
                    .filter(|b| b.get("type").and_then(|t| t.as_str()) == Some("tool_use"))
                    .count() as u64;
                tool_calls = Some(tool_calls.unwrap_or(0) + uses);
            }
            Some("user") => {
                let blocks = v.pointer("/message/content").and_then(|c| c.as_array());
                for b in blocks.into_iter().flatten() {
                    if b.get("type").and_then(|t| t.as_str()) == Some("tool_result")
                        && b.get("is_error").and_then(|e| e.as_bool()) == Some(true)
                    {
                        let content = match b.get("content") {
                            Some(serde_json::Value::String(s)) => s.clone(),
                            Some(other) => other.to_string(),
                            None => String::new(),
                        };
                        a.tool_errors.push(excerpt(&content, 300));
                    }
                }
            }
            Some("result") => result = Some(v),
            _ => {}
        }
    }
    a.tool_calls = tool_calls;
    if let Some(r) = result {
        a.turns = u(&r, "/num_turns");
        let input = [
            "/usage/input_tokens",
            "/usage/cache_creation_input_tokens",
            "/usage/cache_read_input_tokens",
        ]
        .iter()
        .map(|p| u(&r, p))
        .collect::<Vec<_>>();
        if input[0].is_some() {
            a.input_tokens = Some(input.iter().flatten().sum());
        }
        a.output_tokens = u(&r, "/usage/output_tokens");
        a.cost_usd = r.get("total_cost_usd").and_then(|c| c.as_f64());
        a.duration_ms = u(&r, "/duration_ms");
        if let Some(denials) = r.get("permission_denials").and_then(|d| d.as_array()) {
            for d in denials {
                let tool = d.get("tool_name").and_then(|t| t.as_str()).unwrap_or("?");
                let input = d
                    .get("tool_input")
                    .map(|i| i.to_string())
                    .unwrap_or_default();
                a.permission_denials
                    .push(format!("{tool}: {}", excerpt(&input, 200)));
            }
        }
    }
    a
}

fn codex(text: &str, stderr: &str) -> AgentActivity {
    let mut a = AgentActivity::default();
    // Codex's code-mode `exec` tool runs its shell out of sight of `--json` (0.169.0): its
    // results reach only the tool-result log on stderr (the preset sets RUST_LOG for it),
    // where Codex's own sandbox failing to start shows in its own words.
    let mut after_output = false;
    // Tool results the log recorded (code mode runs its shell out of sight of `--json`).
    let mut logged_tools = 0u64;
    for line in stderr.lines().map(str::trim) {
        if line.contains("event.name=\"codex.tool_result\"") {
            logged_tools += 1;
        }
        // Only the first line of a tool result's output (the log's `Output:` block): a file
        // the agent printed further down is not Codex speaking.
        if after_output && sandbox_failure(line).is_some() {
            let e = format!("codex's sandbox: {}", excerpt(line, 300));
            if !a.tool_errors.contains(&e) {
                a.tool_errors.push(e);
            }
        }
        after_output = line == "Output:";
    }
    let (mut turns, mut input, mut output) = (0u64, None::<u64>, None::<u64>);
    let mut tool_items = 0u64;
    for v in json_lines(text) {
        match v.get("type").and_then(|t| t.as_str()) {
            Some("turn.completed") => {
                turns += 1;
                if let Some(i) = u(&v, "/usage/input_tokens") {
                    input = Some(input.unwrap_or(0) + i);
                }
                if let Some(o) = u(&v, "/usage/output_tokens") {
                    output = Some(output.unwrap_or(0) + o);
                }
            }
            Some("item.completed") => {
                let Some(item) = v.get("item") else { continue };
                let kind = item.get("type").and_then(|t| t.as_str());
                if matches!(
                    kind,
                    Some("command_execution" | "mcp_tool_call" | "file_change" | "web_search")
                ) {
                    tool_items += 1;
                }
                if kind != Some("command_execution") {
                    continue;
                }
                let failed = item.get("status").and_then(|s| s.as_str()) == Some("failed")
                    || item
                        .get("exit_code")
                        .and_then(|c| c.as_i64())
                        .is_some_and(|c| c != 0);
                if failed {
                    let cmd = item.get("command").and_then(|c| c.as_str()).unwrap_or("");
                    let out = item
                        .get("aggregated_output")
                        .and_then(|c| c.as_str())
                        .unwrap_or("");
                    a.tool_errors.push(format!(
                        "{} (exit {}): {}",
                        excerpt(cmd, 120),
                        item.get("exit_code")
                            .map(|c| c.to_string())
                            .unwrap_or_else(|| "?".into()),
                        excerpt(out, 300)
                    ));
                }
            }
            _ => {}
        }
    }
    a.turns = (turns > 0).then_some(turns);
    // Counted only where the run was seen at all (a completed turn); the log and the events
    // can show the same call, so the larger count stands, never their sum.
    a.tool_calls = (turns > 0).then_some(tool_items.max(logged_tools));
    a.input_tokens = input;
    a.output_tokens = output;
    a
}

fn gemini(text: &str, stderr: &str) -> AgentActivity {
    let mut a = AgentActivity::default();
    let Some(v) = serde_json::from_str::<serde_json::Value>(text.trim())
        .ok()
        .or_else(|| json_lines(text).last())
    else {
        return a;
    };
    if let Some(models) = v.pointer("/stats/models").and_then(|m| m.as_object()) {
        let (mut i, mut o, mut main) = (0, 0, 0);
        for m in models.values() {
            i += u(m, "/tokens/prompt").unwrap_or(0);
            o += u(m, "/tokens/candidates").unwrap_or(0) + u(m, "/tokens/thoughts").unwrap_or(0);
            main += u(m, "/roles/main/totalRequests").unwrap_or(0);
        }
        if !models.is_empty() {
            a.input_tokens = Some(i);
            a.output_tokens = Some(o);
            a.turns = Some(main);
        }
    }
    a.tool_calls = u(&v, "/stats/tools/totalCalls");
    let failed = u(&v, "/stats/tools/totalFail").unwrap_or(0) as usize;
    for line in stderr.lines() {
        if let Some(rest) = line.trim().strip_prefix("Error executing tool ") {
            a.tool_errors.push(excerpt(rest, 300));
        }
    }
    if failed > a.tool_errors.len() {
        let more = failed - a.tool_errors.len();
        a.tool_errors
            .push(format!("{more} tool call(s) failed (no message on stderr)"));
    }
    let rejected = u(&v, "/stats/tools/totalDecisions/reject").unwrap_or(0);
    for _ in 0..rejected {
        a.permission_denials
            .push("a tool call was rejected (Gemini CLI reports only the count)".into());
    }
    a
}

/// Tool errors that are the instrument's fault, not the agent's: the agent's own sandbox
/// could not start inside the harness's, or the path the prompt delivered could not be
/// read. Such a dispatch is failed (and retried), never scored: the verdict would blame
/// the carrier for a broken tool.
pub fn infrastructure_failure(a: &AgentActivity, delivered: Option<&str>) -> Option<String> {
    // Judged by the failure's own message, never by the command or a substring of what it
    // printed: `grep landlock src` finding nothing, or `grep X <delivered seal>` exiting 1, is
    // the agent's own search. The reason names the message kind only, no tool output (it can
    // hold the seal's tokens).
    for e in &a.tool_errors {
        for line in e.lines().map(str::trim) {
            if let Some(mark) = sandbox_failure(line) {
                return Some(format!(
                    "a tool failed because a sandbox could not start ({mark})"
                ));
            }
        }
        if let Some(p) = delivered.filter(|p| !p.is_empty() && e.contains(*p)) {
            if let Some(why) = READ_REFUSED.iter().find(|m| e.contains(*m)) {
                return Some(format!(
                    "the agent could not read the delivered path {p} ({why})"
                ));
            }
        }
    }
    None
}

/// A tool's read refused or failed, in the words the CLIs use: the delivered path named with
/// one of these is a broken instrument, not the carrier's fault.
const READ_REFUSED: [&str; 7] = [
    "is ignored by",
    "No such file",
    "does not exist",
    "Permission denied",
    "Operation not permitted",
    "outside the allowed",
    "not in the workspace",
];

/// Which sandbox-start failure a line reports, in the sandbox's own words: Codex's
/// bubblewrap builder, or bubblewrap itself refused a namespace.
fn sandbox_failure(line: &str) -> Option<&'static str> {
    let line = line.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    if line.contains("error building bubblewrap command") {
        return Some("error building bubblewrap command");
    }
    if line.starts_with("bwrap: ")
        && ["namespace", "Permission denied", "Operation not permitted"]
            .iter()
            .any(|m| line.contains(m))
    {
        return Some("bwrap could not set up its namespaces");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> AgentSpec {
        AgentSpec::parse(name, None).unwrap()
    }

    #[test]
    fn claude_stream_json_gives_turns_tokens_cost_denials_and_tool_errors() {
        let out = concat!(
            r#"{"type":"system","subtype":"init"}"#,
            "\n",
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t1","name":"Read","input":{}}]}}"#,
            "\n",
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{}}]}}"#,
            "\n",
            r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"File does not exist.","is_error":true}]}}"#,
            "\n",
            r#"{"type":"result","subtype":"success","num_turns":3,"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":7},"total_cost_usd":0.25,"duration_ms":900,"permission_denials":[{"tool_name":"Bash","tool_input":{"command":"ls"}}],"result":"x"}"#,
        );
        let a = read_activity(&spec("claude"), out.as_bytes(), b"");
        assert_eq!(a.turns, Some(3));
        assert_eq!(a.input_tokens, Some(15));
        assert_eq!(a.output_tokens, Some(7));
        assert_eq!(a.cost_usd, Some(0.25));
        assert_eq!(a.duration_ms, Some(900));
        assert_eq!(a.permission_denials, vec![r#"Bash: {"command":"ls"}"#]);
        assert_eq!(a.tool_errors, vec!["File does not exist."]);
        assert_eq!(a.tool_calls, Some(2));
        // The plain `json` result alone does not list tool calls: unmeasured, never 0.
        let result_only = out.lines().last().unwrap();
        let a = read_activity(&spec("claude"), result_only.as_bytes(), b"");
        assert_eq!((a.turns, a.tool_calls), (Some(3), None));
    }

    #[test]
    fn codex_failed_commands_are_tool_errors_and_bubblewrap_is_infrastructure() {
        let out = concat!(
            r#"{"type":"item.completed","item":{"type":"command_execution","command":"bash -lc 'cat x'","aggregated_output":"error building bubblewrap command: Permission denied","exit_code":1,"status":"failed"}}"#,
            "\n",
            r#"{"type":"turn.completed","usage":{"input_tokens":300,"output_tokens":28}}"#,
        );
        let a = read_activity(&spec("codex"), out.as_bytes(), b"");
        assert_eq!(a.turns, Some(1));
        assert_eq!(a.input_tokens, Some(300));
        assert_eq!(a.cost_usd, None, "codex reports no cost: unmeasured, not 0");
        assert_eq!(a.tool_calls, Some(1));
        assert_eq!(a.tool_errors.len(), 1);
        let why = infrastructure_failure(&a, None).expect("infrastructure");
        assert!(why.contains("bubblewrap"), "{why}");
    }

    #[test]
    fn codex_code_mode_sandbox_failures_come_from_its_tool_result_log() {
        // 0.169.0 under its own sandbox inside ours: --json shows only the answer, the
        // tool-result log on stderr shows why the shell never ran.
        let out = concat!(
            r#"{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"I could not find any record of that."}}"#,
            "\n",
            r#"{"type":"turn.completed","usage":{"input_tokens":300,"output_tokens":28}}"#,
        );
        let err = "2026-12-02T01:04:04Z  INFO codex_otel.log_only: event.name=\"codex.tool_result\" tool_name=exec_command output=Chunk ID: 6af8b4\nProcess exited with code 1\nOutput:\nerror building bubblewrap command: Permission denied (os error 13)\n";
        let a = read_activity(&spec("codex"), out.as_bytes(), err.as_bytes());
        assert_eq!(a.tool_calls, Some(1), "the logged tool result is a call");
        assert_eq!(
            a.tool_errors,
            vec!["codex's sandbox: error building bubblewrap command: Permission denied (os error 13)"]
        );
        assert!(infrastructure_failure(&a, None).is_some());
        // A file the agent printed that talks about bubblewrap is not a failure.
        let err =
            "Output:\nWe sandbox builds with bubblewrap (bwrap) on CI.\nbwrap: see docs/ci.md\n";
        let a = read_activity(&spec("codex"), out.as_bytes(), err.as_bytes());
        assert!(a.tool_errors.is_empty(), "{:?}", a.tool_errors);
    }

    #[test]
    fn an_agents_own_failed_search_is_never_infrastructure_and_reasons_carry_no_output() {
        let failed = |cmd: &str, out: &str| {
            format!(
                r#"{{"type":"item.completed","item":{{"type":"command_execution","command":"{cmd}","aggregated_output":"{out}","exit_code":1,"status":"failed"}}}}"#
            )
        };
        let seal = "tracks/_meta/compaction/h.md";
        // grep of the delivered seal finding nothing, a search for sandbox words finding nothing.
        for out in [
            failed(&format!("grep -n AUTH {seal}"), ""),
            failed("rg landlock src", ""),
            failed("cat notes.md", "We build with bubblewrap (bwrap) on CI."),
        ] {
            let a = read_activity(&spec("codex"), out.as_bytes(), b"");
            assert_eq!(a.tool_errors.len(), 1, "{out}");
            assert_eq!(infrastructure_failure(&a, Some(seal)), None, "{out}");
        }
        // A read of it refused is; the reason names the kind of failure, not what was printed.
        let out = failed(
            &format!("cat {seal}"),
            &format!("cat: {seal}: Permission denied SECRET-LINE"),
        );
        let a = read_activity(&spec("codex"), out.as_bytes(), b"");
        let why = infrastructure_failure(&a, Some(seal)).expect("a refused read");
        assert!(why.contains("Permission denied"), "{why}");
        assert!(!why.contains("SECRET-LINE"), "{why}");
    }

    #[test]
    fn gemini_tool_errors_come_from_stderr_and_a_denied_delivered_path_is_infrastructure() {
        let out = r#"{"response":"x","stats":{"models":{"m":{"tokens":{"prompt":390,"candidates":33},"roles":{"main":{"totalRequests":2}}}},"tools":{"totalCalls":3,"totalFail":1,"totalDecisions":{"reject":0}}}}"#;
        let err = "Error executing tool read_file: File path '/w/tracks/_meta/compaction/h.md' is ignored by configured ignore patterns.\n";
        let a = read_activity(&spec("gemini"), out.as_bytes(), err.as_bytes());
        assert_eq!(
            (a.input_tokens, a.output_tokens, a.turns),
            (Some(390), Some(33), Some(2))
        );
        assert_eq!(a.tool_calls, Some(3));
        assert_eq!(a.tool_errors.len(), 1);
        assert!(infrastructure_failure(&a, Some("tracks/_meta/compaction/h.md")).is_some());
        assert!(
            infrastructure_failure(&a, None).is_none(),
            "an ignored file the agent was not told about is the agent's own search"
        );
    }

    #[test]
    fn escapes_never_reach_a_recorded_reason() {
        assert_eq!(excerpt("\u{1b}[31mred\u{1b}[0m text", 80), "red text");
    }
}
