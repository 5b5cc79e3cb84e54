//! `harness.toml`: per-agent command overrides (`[agents.NAME] command = "…"`), looked up in the
//! repository root, then in the user's config folder. Only the command template is read.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The parsed file. Unknown keys are refused so a typo does not silently do nothing.
#[derive(Debug, Default, Deserialize)]
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
#[derive(Debug, Deserialize)]
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

/// The candidate files, in lookup order.
pub fn candidates(repo_root: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(r) = repo_root {
        out.push(r.join("harness.toml"));
    }
    let user_dir = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    if let Some(d) = user_dir {
        out.push(d.join("harness").join("harness.toml"));
    }
    out
}

/// Reads the first config that exists. A config that exists but does not parse is an error
/// naming the file and line, never silently ignored.
pub fn load(repo_root: Option<&Path>) -> Result<Loaded> {
    for p in candidates(repo_root) {
        if p.is_file() {
            let text =
                std::fs::read_to_string(&p).with_context(|| format!("reading {}", p.display()))?;
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
            return Ok(Loaded {
                path: Some(p),
                config,
            });
        }
    }
    Ok(Loaded {
        path: None,
        config: Config::default(),
    })
}

/// The `[slurm]` table of `harness.toml`: site defaults, overridden by the `--slurm-*` flags.
#[derive(Debug, Default, Clone, Deserialize, PartialEq, Eq)]
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
    fn repo_config_overrides_and_typos_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.claude]\ncommand = \"claude -p {prompt}\"\n",
        )
        .unwrap();
        let l = load(Some(dir.path())).unwrap();
        assert_eq!(
            l.config.agents["claude"].command.as_deref(),
            Some("claude -p {prompt}")
        );
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.command]\nprompt_stdin = true\n",
        )
        .unwrap();
        let l = load(Some(dir.path())).unwrap();
        assert!(l.config.agent_for("command:sh x.sh").unwrap().prompt_stdin);
        std::fs::write(
            dir.path().join("harness.toml"),
            "[agents.claude]\ncomand = \"x\"\n",
        )
        .unwrap();
        let err = load(Some(dir.path())).err().unwrap();
        assert!(
            err.to_string().contains("harness.toml:2:"),
            "the typo is on line 2: {err}"
        );
    }
}
