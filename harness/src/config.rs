//! `harness.toml`: per-agent command overrides (`[agents.NAME] command = "…"`) and Slurm site
//! defaults, read only from the user: the file given with `--config FILE`, else
//! `$XDG_CONFIG_HOME/harness/harness.toml` (`~/.config/harness/harness.toml`). A `harness.toml`
//! in the repository under test is never read: configuration can run code (a command) and
//! carry files into the agent's home, and a cloned repository must not choose either.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The parsed file. Unknown keys are refused so a typo does not silently do nothing.
#[derive(Debug, Default, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Overrides per agent preset name.
    #[serde(default)]
    pub agents: BTreeMap<String, AgentOverride>,
    /// `[slurm]`: site defaults for `--executor slurm` (partition, time, mem, extra options).
    #[serde(default)]
    pub slurm: SlurmConfig,
}

/// One agent's settings: `[agents.NAME]`, where NAME is a preset (`claude`, …) or `command`
/// for every `command:` agent.
#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct AgentOverride {
    /// A command template, split with shell-words, with {prompt}, {prompt_file}, {model}, {workdir}.
    pub command: Option<String>,
    /// Flags inserted before the prompt (e.g. `["-c", "openai_base_url=…"]`), recorded.
    #[serde(default)]
    pub extra_args: Vec<String>,
    /// Non-memory files (relative to the user's home, e.g. a provider config) copied into each
    /// fresh home, recorded; memory, instructions, hooks and settings files are refused.
    #[serde(default)]
    pub home_files: Vec<String>,
    /// Feed the prompt on stdin (the file's spelling of `--prompt-stdin`).
    #[serde(default)]
    pub prompt_stdin: bool,
}

impl Config {
    /// The settings for `--agent NAME`: `[agents.NAME]`, or `[agents.command]` for a
    /// `command:` agent.
    pub fn agent_for(&self, agent: &str) -> Option<&AgentOverride> {
        let key = if agent.starts_with("command:") {
            "command"
        } else {
            agent
        };
        self.agents.get(key)
    }
}

/// Where a config was found, and what it says.
pub struct Loaded {
    /// The file read, if any.
    pub path: Option<PathBuf>,
    /// Its content (empty when no file exists).
    pub config: Config,
}

/// The user's own configuration file: `$XDG_CONFIG_HOME/harness/harness.toml`, else
/// `~/.config/harness/harness.toml`.
pub fn user_file() -> Option<PathBuf> {
    let user_dir = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    user_dir.map(|d| d.join("harness").join("harness.toml"))
}

/// Says once per process that the repository's own `harness.toml` was not read.
fn note_ignored_repo_file(repo_root: Option<&Path>) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let Some(p) = repo_root.map(|r| r.join("harness.toml")) else {
        return;
    };
    if p.is_file() && !SAID.swap(true, std::sync::atomic::Ordering::SeqCst) {
        eprintln!(
            "harness: note: {} is not read: configuration comes only from {} or --config FILE (a repository under test cannot choose the agent, its command or the files carried into its home)",
            p.display(),
            user_file()
                .map(|u| u.display().to_string())
                .unwrap_or_else(|| "$XDG_CONFIG_HOME/harness/harness.toml".into())
        );
    }
}

/// Reads the user's configuration: `explicit` (`--config FILE`, which must exist), else the
/// user's config folder ([`user_file`]). `repo_root` is only looked at to say that its
/// `harness.toml`, if any, is not read. A config that exists but does not parse is an error
/// naming the file and line, never silently ignored.
pub fn load(explicit: Option<&Path>, repo_root: Option<&Path>) -> Result<Loaded> {
    note_ignored_repo_file(repo_root);
    let path = match explicit {
        Some(p) => {
            if !p.is_file() {
                return Err(crate::exit::Fail::new(
                    crate::exit::Exit::Usage,
                    format!("--config {}: no such file", p.display()),
                )
                .into());
            }
            Some(p.to_path_buf())
        }
        None => user_file().filter(|p| p.is_file()),
    };
    let Some(p) = path else {
        return Ok(Loaded {
            path: None,
            config: Config::default(),
        });
    };
    let text = std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
    let config: Config = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start].matches('\n').count() + 1)
            .unwrap_or(0);
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!("{}:{line}: {}", p.display(), e.message()),
        )
    })?;
    Ok(Loaded {
        path: Some(p),
        config,
    })
}

/// The `[slurm]` table of `harness.toml`: site defaults, overridden by the `--slurm-*` flags.
#[derive(Debug, Default, Clone, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SlurmConfig {
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time` (Slurm's formats: minutes, `HH:MM:SS`, `D-HH:MM`).
    pub time: Option<String>,
    /// `--mem` per task (e.g. `2G`).
    pub mem: Option<String>,
    /// More `sbatch` options, each one word (e.g. `--account=lab`).
    #[serde(default)]
    pub extra: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_config_is_read_and_typos_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("harness.toml");
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.claude]\ncommand = \"claude -p {prompt}\"\n",
        )
        .unwrap();
        let l = load(Some(&file), None).unwrap();
        assert_eq!(
            l.config.agents["claude"].command.as_deref(),
            Some("claude -p {prompt}")
        );
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.command]\nprompt_stdin = true\n",
        )
        .unwrap();
        let l = load(Some(&file), None).unwrap();
        assert!(l.config.agent_for("command:sh x.sh").unwrap().prompt_stdin);
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.claude]\ncomand = \"x\"\n",
        )
        .unwrap();
        let err = load(Some(&file), None).err().unwrap();
        assert!(
            err.to_string().contains("harness.toml:2:"),
            "the typo is on line 2: {err}"
        );
    }
}
