//! The round's agent, resolved once (preset or template, `harness.toml` overrides, the
//! preset's per-round setup) and applied per dispatch (fresh-home settings, variables), and
//! what an invocation's output says the agent did (issue 11).

pub mod preflight;
pub mod repo_config;
pub mod sandbox;

use crate::config::Loaded;
use crate::exit::{Exit, Fail};
use anyhow::Result;
use runners::{AgentActivity, AgentKind, AgentSpec, PresetSetup, RunOutcome};
use std::path::Path;

/// The agent as the round runs it: the spec (with extra flags already in its template) and
/// what each dispatch adds.
#[derive(Debug, Clone)]
pub struct RoundAgent {
    /// The spec, preset flags and `extra_args` inserted.
    pub spec: AgentSpec,
    /// Variables and the settings file each dispatch gets.
    pub setup: PresetSetup,
}

/// Resolves `--agent` with `harness.toml` and the preset's setup for this sandbox and
/// delivery mode. Bad templates, extra_args or home_files are usage errors (exit 2).
pub fn resolve(
    agent: &str,
    config: &Loaded,
    prompt_stdin: bool,
    sandboxed: bool,
    deliver: bool,
) -> Result<RoundAgent> {
    let usage = |e: runners::Error| Fail::new(Exit::Usage, e.to_string());
    let over = config.config.agent_for(agent);
    // `prompt_stdin = true` in harness.toml is the file's spelling of `--prompt-stdin`.
    let mut spec = AgentSpec::parse(agent, over.and_then(|o| o.command.as_deref()))
        .map_err(usage)?
        .with_prompt_stdin(prompt_stdin || over.is_some_and(|o| o.prompt_stdin));
    let env = |k: &str| std::env::var(k).ok();
    let setup = match spec.kind {
        AgentKind::Preset(p) => p.setup(&runners::SetupInput {
            sandboxed,
            deliver,
            env: &env,
        }),
        _ => PresetSetup::default(),
    };
    let mut setup = setup;
    // A command that chooses Codex's own sandbox keeps it: the user asked for it.
    let chooses_sandbox = spec
        .template
        .iter()
        .any(|a| a == "-s" || a.starts_with("--sandbox") || a.starts_with("--dangerously-bypass"));
    if chooses_sandbox {
        setup
            .args
            .retain(|a| a != "--dangerously-bypass-approvals-and-sandbox");
    }
    spec = spec.with_config(&setup.args, &[]).map_err(usage)?;
    if let Some(o) = over {
        spec = spec
            .with_config(&o.extra_args, &o.home_files)
            .map_err(usage)?;
    }
    Ok(RoundAgent { spec, setup })
}

impl RoundAgent {
    /// Writes the preset's settings into a fresh home (after the credentials were copied).
    pub fn prepare_home(&self, home: &Path) -> Result<()> {
        if let Some((rel, value)) = &self.setup.settings {
            runners::agent::merge_settings(&home.join(rel), value)?;
        }
        Ok(())
    }

    /// What the round records besides the command: changed defaults and carried files.
    pub fn notes(&self) -> Vec<String> {
        let mut n = self.setup.notes.clone();
        n.extend(
            self.setup
                .env
                .iter()
                .map(|(k, _)| format!("{}: sets {k}", self.spec.name)),
        );
        n.extend(
            self.spec
                .home_files
                .iter()
                .map(|f| format!("home_files: {f}")),
        );
        n
    }
}

/// What a round's answers depend on besides its inputs (issue 24): the agent's program file
/// (resolved on PATH, through links) and every other file its command names, the files carried
/// into its home, and harness.toml's values for this round. Hashed at plan time, compared by
/// `--resume` and by every unit.
pub fn dependencies(agent: &RoundAgent, config: &Loaded) -> Vec<crate::round::journal::Dependency> {
    use crate::round::journal::{file_sha256, Dependency};
    let mut out = Vec::new();
    let path_var = std::env::var_os("PATH");
    let mut seen = std::collections::BTreeSet::new();
    for (i, word) in agent.spec.template.iter().enumerate() {
        if word.contains('{') {
            continue;
        }
        let file = if i == 0 {
            runners::resolve_program(std::ffi::OsStr::new(word), path_var.as_deref())
                .filter(|p| p.is_file())
        } else if word.contains('/') && Path::new(word).is_file() {
            Some(std::path::PathBuf::from(word))
        } else {
            None
        };
        let Some(file) = file else {
            if i == 0 {
                out.push(Dependency {
                    field: "program".into(),
                    what: word.clone(),
                    sha256: "absent".into(),
                });
            }
            continue;
        };
        let file = std::fs::canonicalize(&file).unwrap_or(file);
        if seen.insert(file.clone()) {
            out.push(Dependency {
                field: "program".into(),
                what: file.display().to_string(),
                sha256: file_sha256(&file),
            });
        }
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    for f in &agent.spec.home_files {
        out.push(Dependency {
            field: "home_files".into(),
            what: format!("~/{f}"),
            sha256: home
                .as_ref()
                .map(|h| file_sha256(&h.join(f)))
                .unwrap_or_else(|| "absent".into()),
        });
    }
    let effective = serde_json::json!({
        "agent": config.config.agent_for(&agent.spec.name),
        "slurm": config.config.slurm,
    });
    out.push(Dependency {
        field: "config".into(),
        // One key whatever the file's path on this machine: its values are what count.
        what: "harness.toml values for this agent and [slurm]".into(),
        sha256: crate::files::sha256_hex(effective.to_string().as_bytes()),
    });
    out
}

/// What the agent's structured output says it did, and whether a tool of its failed for
/// the instrument's reasons (then the dispatch fails and is retried, never scored).
pub fn assess(
    spec: &AgentSpec,
    outcome: &RunOutcome,
    delivered: Option<&str>,
) -> (AgentActivity, Option<String>) {
    let activity = runners::read_activity(spec, &outcome.stdout, &outcome.stderr);
    let infra = runners::infrastructure_failure(&activity, delivered);
    (activity, infra)
}

/// The `--version` line of the preset CLI `agent` names, found on PATH now; `None` for a
/// built-in or a `command:` template, or when the CLI is not there or does not answer. `seal`
/// records it in the design and `run --manifest` compares it.
pub fn cli_version(agent: &str) -> Option<String> {
    let (preset, _, _) = runners::CHECKED_VERSIONS
        .iter()
        .find(|(p, _, _)| p.name() == agent)?;
    let path = std::env::var_os("PATH");
    let exe = runners::resolve_program(std::ffi::OsStr::new(preset.name()), path.as_deref())?;
    let v = capture(&exe, &["--version"]).ok()?;
    let line = crate::text::clean_line(v.lines().next().unwrap_or("").trim(), 80);
    (!line.is_empty()).then_some(line)
}

/// `harness doctor`'s lines for the preset CLIs: found where, which version (and the one
/// checked), whether every flag the preset passes appears in that version's `--help`, and
/// which credentials are present (names only, never values). `only` (the `--agent` names of
/// `doctor`) limits the list to those presets; empty lists every one.
pub fn doctor_lines(only: &[String]) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    let path = std::env::var_os("PATH");
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    for (preset, pkg, checked) in runners::CHECKED_VERSIONS {
        let name = preset.name();
        if !only.is_empty() && !only.iter().any(|o| o.eq_ignore_ascii_case(name)) {
            continue;
        }
        let Some(exe) = runners::resolve_program(std::ffi::OsStr::new(name), path.as_deref())
        else {
            lines.push((
                format!("agent {name}"),
                format!("not on PATH (install: {})", preset.install_hint()),
            ));
            continue;
        };
        let version = capture(&exe, &["--version"])
            .map(|v| crate::text::clean_line(v.lines().next().unwrap_or(""), 80))
            .unwrap_or_else(|e| format!("UNKNOWN ({e})"));
        lines.push((
            format!("agent {name}"),
            format!(
                "{} — version {version} (checked: {pkg}@{checked})",
                exe.display()
            ),
        ));
        let help_args: &[&str] = match preset {
            runners::Preset::Codex => &["exec", "--help"],
            _ => &["--help"],
        };
        let flags = preset_flags(preset);
        lines.push((
            "  preset flags".into(),
            match capture(&exe, help_args) {
                Ok(help) => {
                    let missing: Vec<&String> = flags
                        .iter()
                        .filter(|f| !help.contains(f.as_str()))
                        .collect();
                    if missing.is_empty() {
                        format!("accepted ({} flags found in --help)", flags.len())
                    } else {
                        format!(
                            "NOT in this version's --help: {}",
                            missing
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(" ")
                        )
                    }
                }
                Err(e) => format!("UNCHECKED (--help failed: {e})"),
            },
        ));
        let creds = credentials_found(preset, home.as_deref());
        lines.push((
            "  credentials".into(),
            if creds.is_empty() {
                "NONE found (the preflight of a round would stop here)".into()
            } else {
                creds.join(", ")
            },
        ));
    }
    lines.push((
        "preflight".into(),
        "runs at the start of every round (one READY call under the chosen sandbox); harness doctor --preflight runs it here".into(),
    ));
    lines
}

/// The credentials of `preset` present here, by name (`ANTHROPIC_API_KEY`, `~/.codex/auth.json`),
/// never by value: an empty list means its CLI cannot log in, whatever its error says.
pub fn credentials_found(preset: runners::Preset, home: Option<&std::path::Path>) -> Vec<String> {
    let mut creds: Vec<String> = preset
        .credential_env()
        .iter()
        .filter(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
        .map(|k| k.to_string())
        .collect();
    if let Some(h) = home {
        creds.extend(
            preset
                .credential_files()
                .iter()
                .filter(|f| h.join(f).is_file())
                .map(|f| format!("~/{f}")),
        );
    }
    creds
}

/// The `--flags` a preset passes (template and sandboxed setup), for checking a CLI's help.
fn preset_flags(preset: runners::Preset) -> Vec<String> {
    let tpl = runners::agent::split_template(preset.default_template()).unwrap_or_default();
    let env = |_: &str| None;
    let setup = preset.setup(&runners::SetupInput {
        sandboxed: true,
        deliver: false,
        env: &env,
    });
    let mut flags: Vec<String> = tpl
        .iter()
        .chain(&setup.args)
        .filter(|a| a.starts_with("--") && a.len() > 2)
        .map(|a| a.split('=').next().unwrap_or(a).to_string())
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// Runs a CLI briefly (15 s at most) and returns its stdout.
fn capture(exe: &Path, args: &[&str]) -> std::result::Result<String, String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let t0 = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed() > std::time::Duration::from_secs(15) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("no answer in 15 s".into());
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(50)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let mut out = String::new();
    use std::io::Read;
    if let Some(mut s) = child.stdout.take() {
        let _ = s.read_to_string(&mut out);
    }
    Ok(out)
}
