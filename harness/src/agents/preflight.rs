//! Preflight (issue 11): after the gate and before the first dispatch, one tiny call of the
//! chosen agent ("reply with the word READY") in a throwaway checkout, under the round's
//! sandbox, environment and fresh home. A missing agent, a missing login, an unreachable
//! endpoint or a sandbox refusing the program then stops the round with one message naming
//! the fix (exit 8), instead of failing every dispatch one at a time (exit 13).
//!
//! Presets get the full round trip. A `command:` agent is any program, which may not
//! answer a READY prompt at all, so for it only the start is checked (it is found, and the
//! sandbox lets it run). Built-in agents need no check.

use crate::agents::sandbox::SandboxPlan;
use crate::agents::RoundAgent;
use crate::exit::{Exit, Fail};
use crate::text::clean_line;
use anyhow::Result;
use runners::{AgentKind, Preset, ProcessGroups, TempRoot, Template};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The preflight prompt.
pub const PROMPT: &str =
    "This is a connectivity check. Reply with the word READY and nothing else.";

/// The longest a preflight waits for an answer.
pub const MAX_WAIT: Duration = Duration::from_secs(120);

/// What the preflight needs from the round.
pub struct Input<'a> {
    /// The round's agent.
    pub agent: &'a RoundAgent,
    /// The round's sandbox.
    pub sandbox: &'a SandboxPlan,
    /// The round's template (the throwaway checkout is made from it, with no seal).
    pub template: &'a Template,
    /// Where the throwaway checkout and home go.
    pub temp_root: &'a TempRoot,
    /// This executable (sandbox wrapper, baselines).
    pub harness_exe: &'a Path,
    /// `--pass-env`.
    pub pass_env: &'a [String],
    /// `--model`.
    pub model: Option<&'a str>,
    /// `--timeout` (the preflight waits at most [`MAX_WAIT`]).
    pub timeout: Duration,
    /// The user's home (credentials are copied from it).
    pub user_home: Option<PathBuf>,
}

/// The round's call: `None` when skipped (`--no-preflight`), else the recorded line; prints it
/// (on stderr when stdout carries `--format json`'s one document).
pub fn run_unless(skip: bool, input: &Input<'_>, to_stderr: bool) -> Result<Option<String>> {
    let say = |line: &str| {
        if to_stderr {
            eprintln!("preflight: {line}");
        } else {
            println!("preflight: {line}");
        }
    };
    if skip {
        say("skipped (--no-preflight)");
        return Ok(None);
    }
    let line = check(input)?;
    say(&line);
    Ok(Some(line))
}

/// Runs the preflight. `Ok` carries the line the round records; a failure is exit 8 with the
/// cause and its fix.
pub fn check(input: &Input<'_>) -> Result<String> {
    let spec = &input.agent.spec;
    let preset = match spec.kind {
        AgentKind::Baseline(_) => return Ok("skipped: built-in agent".into()),
        AgentKind::Preset(p) => Some(p),
        AgentKind::Command => None,
    };
    let refuse = |why: String| -> anyhow::Error {
        Fail::new(
            Exit::GateRefused,
            format!(
                "preflight: {}; no dispatch was made (skip this check with --no-preflight)",
                clean_line(&why, 900)
            ),
        )
        .into()
    };
    let program = spec.template.first().cloned().unwrap_or_default();
    let path_var = std::env::var_os("PATH");
    if runners::resolve_program(program.as_ref(), path_var.as_deref()).is_none() {
        return Err(refuse(missing(&spec.name, &program, preset)));
    }

    let dir = input.temp_root.fresh_dir()?;
    let work = dir.join("work");
    // The dispatches' own kind of checkout (overlay or copy), so a failing mount shows here.
    let (_, overlay, _) = input.sandbox.checkout(input.template, &dir, &work, None)?;
    let home = runners::DispatchHome::create(&dir)?;
    if let Some(user_home) = &input.user_home {
        runners::install_credentials(spec, user_home, &home.home)?;
    }
    input.agent.prepare_home(&home.home)?;
    let prompt_file = home.write_prompt_file(PROMPT)?;
    let argv = spec.argv(&runners::Invocation {
        prompt: PROMPT,
        prompt_file: &prompt_file,
        model: input.model,
        workdir: &work,
        harness_exe: input.harness_exe,
    })?;
    let report = dir.join("sandbox.json");
    let argv = input.sandbox.wrap(
        input.harness_exe,
        &work,
        &home,
        &report,
        overlay.as_ref(),
        argv,
    );
    let mut run = runners::RunSpec::new(
        argv,
        work.clone(),
        home.clone(),
        input.timeout.min(MAX_WAIT),
    );
    run.stdin = spec.stdin_bytes(PROMPT);
    run.pass_env = input.pass_env.to_vec();
    run.pass_env.extend(spec.credential_env.iter().cloned());
    run.set_env = input.agent.setup.env.clone();
    let cancel = Arc::new(AtomicBool::new(false));
    run.cancel = Some(cancel.clone());
    if preset.is_none() {
        stop_once_started(
            &cancel,
            &report,
            input.sandbox.mode == runners::SandboxMode::None,
        );
    }
    let outcome = runners::run_process(&run, &ProcessGroups::new());
    let verdict = judge(input, preset, &report, outcome);
    let _ = runners::remove_tree(&dir);
    verdict.map_err(refuse)
}

/// For a `command:` agent: stop it as soon as it is known to have started (the sandbox
/// wrote its report, which happens after a successful exec; at once without a sandbox).
fn stop_once_started(cancel: &Arc<AtomicBool>, report: &Path, unsandboxed: bool) {
    if unsandboxed {
        cancel.store(true, Ordering::SeqCst);
        return;
    }
    let cancel = cancel.clone();
    let report = report.to_path_buf();
    std::thread::spawn(move || {
        for _ in 0..200 {
            if report.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // The report is written before the wrapper waits; give it a moment to land whole.
        std::thread::sleep(Duration::from_millis(100));
        cancel.store(true, Ordering::SeqCst);
    });
}

fn judge(
    input: &Input<'_>,
    preset: Option<Preset>,
    report: &Path,
    outcome: runners::Result<runners::RunOutcome>,
) -> std::result::Result<String, String> {
    let spec = &input.agent.spec;
    let name = &spec.name;
    let outcome = match outcome {
        Ok(o) => o,
        Err(e) => {
            return Err(format!(
                "agent `{name}` could not be started: {e}. {}",
                choose_another()
            ))
        }
    };
    if let Some(why) = input.sandbox.failure(report, outcome.exit_code) {
        return Err(format!(
            "the sandbox ({}) refused agent `{name}`: {why}",
            input.sandbox.mode.name()
        ));
    }
    let Some(preset) = preset else {
        return Ok(format!(
            "agent `{name}` starts under --sandbox {}",
            input.sandbox.mode.name()
        ));
    };
    let stderr = String::from_utf8_lossy(&outcome.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
    let creds = crate::agents::credentials_found(preset, input.user_home.as_deref());
    if outcome.timed_out {
        return Err(format!(
            "agent `{name}` gave no answer within {}s: {} {}",
            outcome.duration.as_secs(),
            if creds.is_empty() {
                format!(
                    "no credentials found, so it cannot log in: {}.",
                    login_fix(preset)
                )
            } else {
                unreachable_fix(preset).to_string()
            },
            cli_said(&stdout, &stderr)
        ));
    }
    let answer = runners::extract_answer(spec, &outcome.stdout);
    match (&answer, outcome.exit_code) {
        (Ok(a), Some(0)) => {
            let a = String::from_utf8_lossy(a);
            Ok(if a.to_uppercase().contains("READY") {
                format!("agent `{name}` answered READY")
            } else {
                format!(
                    "agent `{name}` answered, without READY: {}",
                    clean_line(&a, 80)
                )
            })
        }
        _ => {
            let detail = match &answer {
                Err(e) => format!("{e} {}", tail(&stderr)),
                Ok(_) => format!(
                    "{} {}",
                    outcome.failure_reason().unwrap_or_default(),
                    tail(&stderr)
                ),
            };
            let all = format!("{stdout}\n{stderr}\n{detail}").to_lowercase();
            let said = cli_said(&stdout, &stderr);
            // A CLI without any credential retries its endpoint and often reports a network
            // error: the missing login is the cause, whatever the message.
            Err(if creds.is_empty() {
                format!(
                    "agent `{name}` is not logged in: no credentials found; {}. {said}",
                    login_fix(preset)
                )
            } else if is_auth(&all) {
                format!(
                    "agent `{name}` is not logged in: {}. {detail}",
                    login_fix(preset)
                )
            } else if is_unreachable(&all) {
                format!(
                    "agent `{name}` cannot reach its model endpoint: {} {detail}",
                    unreachable_fix(preset)
                )
            } else {
                format!("agent `{name}` failed its READY call: {detail}")
            })
        }
    }
}

/// What the CLI itself printed last, quoted: its error, in its words (stderr, else stdout).
/// A JSON event line (Claude Code's stream-json) is quoted by its message (`result`, `error`,
/// `message`); a bookkeeping event (the `system` init record) says nothing and is skipped.
fn cli_said(stdout: &str, stderr: &str) -> String {
    let words = |line: &str| -> Option<String> {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            return Some(line.to_string());
        };
        if !v.is_object() {
            return Some(line.to_string());
        }
        for key in ["result", "error", "message"] {
            match v.get(key) {
                Some(serde_json::Value::String(t)) if !t.trim().is_empty() => {
                    return Some(t.trim().to_string())
                }
                Some(serde_json::Value::Object(o)) => {
                    if let Some(t) = o.get("message").and_then(|m| m.as_str()) {
                        return Some(t.trim().to_string());
                    }
                }
                _ => {}
            }
        }
        None
    };
    let last = |s: &str| -> String {
        let lines: Vec<String> = s
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .filter_map(words)
            .collect();
        lines[lines.len().saturating_sub(3)..].join(" | ")
    };
    let text = match last(stderr) {
        t if t.is_empty() => last(stdout),
        t => t,
    };
    if text.is_empty() {
        "The CLI printed nothing.".to_string()
    } else {
        format!("The CLI said: \"{}\"", clean_line(&text, 300))
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    let t = lines[start..].join(" | ");
    if t.is_empty() {
        String::new()
    } else {
        format!("(stderr: {})", clean_line(&t, 300))
    }
}

fn is_auth(s: &str) -> bool {
    [
        "401",
        "403",
        "unauthorized",
        "authentication",
        "invalid api key",
        "invalid x-api-key",
        "api key",
        "not logged in",
        "please run /login",
        "login",
        "auth method",
        "credentials",
    ]
    .iter()
    .any(|m| s.contains(m))
}

fn is_unreachable(s: &str) -> bool {
    [
        "connection refused",
        "econnrefused",
        "unable to connect",
        "fetch failed",
        "error sending request",
        "stream disconnected",
        "connection error",
        "network",
        "timed out",
        "timeout",
        "dns",
        "reconnecting",
    ]
    .iter()
    .any(|m| s.contains(m))
}

fn choose_another() -> &'static str {
    "Or choose another agent: --agent claude|codex|gemini|command:'<program> {prompt}'|baseline-grep"
}

fn missing(name: &str, program: &str, preset: Option<Preset>) -> String {
    match preset {
        Some(p) => format!(
            "agent `{name}` is not installed (`{program}` is not on PATH). Install it: {} (the version this harness was checked against), or point [agents.{name}] command in harness.toml at it. {}",
            p.install_hint(),
            choose_another()
        ),
        None => format!(
            "the agent program `{program}` is not on PATH and is not a path to a file. Give its full path in --agent command:'…'"
        ),
    }
}

fn login_fix(p: Preset) -> &'static str {
    match p {
        Preset::Claude => "set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`), or log in with `claude` so ~/.claude/.credentials.json exists",
        Preset::Codex => "set CODEX_API_KEY or OPENAI_API_KEY, or log in with `codex login` so ~/.codex/auth.json exists",
        Preset::Gemini => "set GEMINI_API_KEY (or GOOGLE_API_KEY with the Vertex variables), or log in with `gemini` so ~/.gemini/oauth_creds.json exists",
    }
}

fn unreachable_fix(p: Preset) -> &'static str {
    match p {
        Preset::Claude => "check the network and ANTHROPIC_BASE_URL if you set one.",
        Preset::Codex => {
            "check the network and OPENAI_BASE_URL if you set one (passed as -c openai_base_url=…)."
        }
        Preset::Gemini => "check the network and GOOGLE_GEMINI_BASE_URL if you set one.",
    }
}

/// The preflight outside a round (`harness doctor --preflight`): the same READY call of the
/// agent `name` under `--sandbox auto`, in a checkout of a one-file repository made for it, so
/// a user learns before planning a round whether the CLI, its login and its endpoint work here.
/// `Ok` is the line a round would record; `Err` the refusal a round would stop with. The call
/// waits at most `timeout` (and never more than [`MAX_WAIT`]).
pub fn standalone(name: &str, timeout: Duration) -> Result<std::result::Result<String, String>> {
    let scratch = tempfile::tempdir()?;
    let repo_dir = scratch.path().join("preflight");
    throwaway_repo(&repo_dir)?;
    let base = runners::resolve_base(&repo_dir, None, None)?;
    let corpus = runners::Corpus::load(&base)?;
    let temp_root = RemovedOnDrop(Some(TempRoot::create(&[&repo_dir])?));
    let temp_root = temp_root.0.as_ref().expect("just made");
    let plant = runners::Plant::new(runners::Plant::DEFAULT_DIR)?;
    let template = Template::build(&corpus, &plant, &temp_root.fresh_dir()?)?;
    let sandbox = SandboxPlan::new(
        runners::SandboxMode::Auto,
        vec![temp_root.path().to_path_buf(), repo_dir.clone()],
    )?
    .with_overlay(temp_root.path());
    let config = crate::config::load(None, None)?;
    let agent = crate::agents::resolve(name, &config, false, true, false)?;
    let verdict = check(&Input {
        agent: &agent,
        sandbox: &sandbox,
        template: &template,
        temp_root,
        harness_exe: &std::env::current_exe()?,
        pass_env: &[],
        model: None,
        timeout,
        user_home: std::env::var_os("HOME").map(PathBuf::from),
    });
    Ok(verdict.map_err(|e| format!("{e:#}")))
}

/// A temp root removed however the function holding it ends (`?` included).
struct RemovedOnDrop(Option<TempRoot>);

impl Drop for RemovedOnDrop {
    fn drop(&mut self) {
        if let Some(t) = self.0.take() {
            let _ = t.remove();
        }
    }
}

/// A repository with one committed file, for a checkout that holds nothing of the user's.
fn throwaway_repo(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let repo = git2::Repository::init(dir)?;
    std::fs::write(
        dir.join("README.md"),
        "A throwaway repository for the preflight.\n",
    )?;
    let mut index = repo.index()?;
    index.add_path(Path::new("README.md"))?;
    index.write()?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let sig = git2::Signature::new("harness", "harness@localhost", &git2::Time::new(0, 0))?;
    repo.commit(Some("HEAD"), &sig, &sig, "preflight", &tree, &[])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::cli_said;

    #[test]
    fn a_stream_json_cli_is_quoted_by_its_message_not_its_init_record() {
        let stdout = concat!(
            r#"{"type":"system","subtype":"init","cwd":"/tmp/x","tools":["Read"],"model":"m"}"#,
            "\n",
            r#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login"}"#,
            "\n"
        );
        let said = cli_said(stdout, "");
        assert_eq!(
            said,
            "The CLI said: \"Invalid API key · Please run /login\""
        );
        // Plain text is quoted as it is.
        assert_eq!(
            cli_said("", "error: unknown option\n"),
            "The CLI said: \"error: unknown option\""
        );
    }
}
