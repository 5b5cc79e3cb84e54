//! Agent specs: what `--agent` names, how its argv is built, which credentials it may
//! carry into a fresh home, and how its answer is read from what it printed (DESIGN §4).
//!
//! An agent is always a real child process. Presets are the documented non-interactive
//! modes of the agent CLIs; `command:<template>` is any program; the baseline agents run
//! as `<harness exe> __agent baseline-grep[-all]` so they go through the same runner,
//! timeout and sandbox as every other agent.
//!
//! Sources for the preset invocations and credentials (looked up 2026; re-check when a
//! CLI changes):
//! - Claude Code: `claude -p … --output-format json` prints one JSON object whose
//!   `result` is the final answer and whose `is_error`/`subtype` mark failed runs
//!   (Claude Code headless docs, "Run Claude Code programmatically"). Credentials:
//!   `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`, `CLAUDE_CODE_OAUTH_TOKEN` (from
//!   `claude setup-token`); on Linux the login lives in `~/.claude/.credentials.json`,
//!   and `CLAUDE_CONFIG_DIR` moves the whole `~/.claude` folder.
//! - Codex: `codex exec` is the non-interactive mode; `--json` prints JSONL events whose
//!   `item.completed` items of type `agent_message` carry the answer and `turn.failed`/
//!   `error` events mark failure; `--skip-git-repo-check` drops the git-repo requirement
//!   (developers.openai.com/codex/noninteractive, codex-rs/exec/src/exec_events.rs).
//!   Credentials: `CODEX_API_KEY` (documented for `exec`), `OPENAI_API_KEY`,
//!   `CODEX_ACCESS_TOKEN`; the login lives in `$CODEX_HOME/auth.json` (default
//!   `~/.codex`; the folder must exist before Codex starts).
//! - Gemini CLI: `gemini -p/--prompt … --output-format json` prints one object with
//!   `response` and, on failure, `error` (geminicli.com/docs/cli/headless). Credentials:
//!   `GEMINI_API_KEY`, `GOOGLE_API_KEY`, Vertex selection variables; the Google login
//!   lives in `~/.gemini/oauth_creds.json` and is used headless only when
//!   `~/.gemini/settings.json` selects it (`security.auth.selectedType`, formerly
//!   `selectedAuthType`), so only that one setting is carried over.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The agent CLIs the harness knows how to drive without a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Anthropic's Claude Code.
    Claude,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
}

/// Which built-in baseline agent (DESIGN §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaselineKind {
    /// Searches like a gitignore-respecting tool (`baseline-grep`).
    Grep,
    /// Searches every file like a plain `grep -r` (`baseline-grep-all`).
    GrepAll,
}

impl BaselineKind {
    /// The name used on the command line and in the hidden `__agent` subcommand.
    pub fn name(self) -> &'static str {
        match self {
            BaselineKind::Grep => "baseline-grep",
            BaselineKind::GrepAll => "baseline-grep-all",
        }
    }

    /// Parses the name given to the hidden `__agent` subcommand.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "baseline-grep" => Some(BaselineKind::Grep),
            "baseline-grep-all" => Some(BaselineKind::GrepAll),
            _ => None,
        }
    }

    /// Whether this baseline honours `.gitignore` and `.git/info/exclude`.
    pub fn respects_ignore(self) -> bool {
        matches!(self, BaselineKind::Grep)
    }
}

/// What kind of agent a spec describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    /// A known agent CLI (possibly with an overriding template from config).
    Preset(Preset),
    /// `command:<template>`.
    Command,
    /// A built-in baseline agent.
    Baseline(BaselineKind),
}

/// How the answer is read from the agent's stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// stdout is the answer.
    Text,
    /// Claude Code `--output-format json` (or `stream-json`: the last line is the result).
    ClaudeJson,
    /// Codex `exec --json` JSONL events.
    CodexJsonl,
    /// Gemini CLI `--output-format json`.
    GeminiJson,
}

/// A parsed `--agent` value: everything needed to build one invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name as recorded in the round (`claude`, `command`, `baseline-grep`…).
    pub name: String,
    /// What kind of agent this is.
    pub kind: AgentKind,
    /// The argv template, already split; placeholders are substituted per element.
    pub template: Vec<String>,
    /// Feed the prompt on stdin instead of `/dev/null`.
    pub prompt_stdin: bool,
    /// How the answer is read from stdout.
    pub output: OutputFormat,
    /// Credential variables the agent may receive from the harness's environment.
    pub credential_env: Vec<String>,
    /// Credential files (relative to a home folder) copied into the fresh home.
    pub credential_files: Vec<String>,
    /// Other non-memory files (a provider config) copied into the fresh home: the
    /// explicit `home_files` list of `harness.toml`, recorded in the round.
    pub home_files: Vec<String>,
}

/// The per-dispatch values substituted into a template.
#[derive(Debug, Clone, Copy)]
pub struct Invocation<'a> {
    /// The full prompt (deliver prefix, question, protocol).
    pub prompt: &'a str,
    /// Where the runner writes the prompt for `{prompt_file}` (inside the dispatch tmp).
    pub prompt_file: &'a Path,
    /// `--model`, if given.
    pub model: Option<&'a str>,
    /// The checkout the agent runs in.
    pub workdir: &'a Path,
    /// The harness executable (for the baseline agents' `__agent` subcommand).
    pub harness_exe: &'a Path,
}

const PLACEHOLDERS: [&str; 4] = ["prompt", "prompt_file", "model", "workdir"];

/// The CLI versions the presets were checked against: (preset, npm package, version). The
/// flags, output formats and variables below were read from these versions' `--help` and
/// shipped code, and `.ci/agents.sh` installs exactly these for the real-CLI tests.
pub const CHECKED_VERSIONS: [(Preset, &str, &str); 3] = [
    (Preset::Claude, "@anthropic-ai/claude-code", "2.1.328"),
    (Preset::Codex, "@openai/codex", "0.169.0"),
    (Preset::Gemini, "@google/gemini-cli", "0.61.0"),
];

// Claude: stream-json (which needs --verbose) is the only headless format that shows tool
// results, so a tool error is visible; its last line is the same result object as `json`.
// --no-session-persistence: no transcript is written into the fresh home.
const CLAUDE_TEMPLATE: &str = "claude -p --output-format stream-json --verbose --no-session-persistence --model {model} -- {prompt}";
// Codex: --ephemeral writes no session files.
const CODEX_TEMPLATE: &str =
    "codex exec --skip-git-repo-check --ephemeral --json --model {model} -- {prompt}";
// Gemini: headless Gemini refuses an untrusted folder (exit 55) without --skip-trust.
const GEMINI_TEMPLATE: &str =
    "gemini --output-format json --skip-trust -m {model} --prompt={prompt}";

impl Preset {
    /// The preset's name on the command line and in `harness.toml` `[agents.NAME]`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Claude => "claude",
            Preset::Codex => "codex",
            Preset::Gemini => "gemini",
        }
    }

    /// The documented non-interactive invocation, as a template.
    pub fn default_template(self) -> &'static str {
        match self {
            Preset::Claude => CLAUDE_TEMPLATE,
            Preset::Codex => CODEX_TEMPLATE,
            Preset::Gemini => GEMINI_TEMPLATE,
        }
    }

    /// Environment variables that carry this agent's credentials.
    pub fn credential_env(self) -> &'static [&'static str] {
        match self {
            Preset::Claude => &[
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_AUTH_TOKEN",
                "CLAUDE_CODE_OAUTH_TOKEN",
            ],
            Preset::Codex => &["CODEX_API_KEY", "OPENAI_API_KEY", "CODEX_ACCESS_TOKEN"],
            Preset::Gemini => &[
                "GEMINI_API_KEY",
                "GOOGLE_API_KEY",
                "GOOGLE_GENAI_USE_VERTEXAI",
                "GOOGLE_CLOUD_PROJECT",
                "GOOGLE_CLOUD_LOCATION",
            ],
        }
    }

    /// Variables naming the model endpoint, passed when set (names recorded, values are
    /// not secrets). Codex ignores `OPENAI_BASE_URL`; [`Preset::setup`] turns it into
    /// `-c openai_base_url=…`.
    pub fn endpoint_env(self) -> &'static [&'static str] {
        match self {
            Preset::Claude => &["ANTHROPIC_BASE_URL"],
            Preset::Codex => &["OPENAI_BASE_URL"],
            Preset::Gemini => &["GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL"],
        }
    }

    /// The version this preset was checked against (see [`CHECKED_VERSIONS`]).
    pub fn checked_version(self) -> (&'static str, &'static str) {
        CHECKED_VERSIONS
            .iter()
            .find(|(p, _, _)| *p == self)
            .map(|(_, pkg, v)| (*pkg, *v))
            .unwrap_or(("", ""))
    }

    /// How a user installs the checked version.
    pub fn install_hint(self) -> String {
        let (pkg, v) = self.checked_version();
        format!("npm install -g {pkg}@{v}")
    }

    /// What the preset needs per dispatch beyond its template (see [`PresetSetup`]).
    /// `env` reads the harness's environment.
    pub fn setup(self, input: &SetupInput<'_>) -> PresetSetup {
        let mut s = PresetSetup::default();
        let get = |k: &str| (input.env)(k).filter(|v| !v.is_empty());
        match self {
            Preset::Claude => {
                // Without a cap Claude retries an unreachable endpoint for minutes; the
                // harness has --retries for infrastructure. No telemetry, no auto-update:
                // nothing leaves the machine but the model calls.
                for (k, v) in [
                    ("CLAUDE_CODE_MAX_RETRIES", "2"),
                    ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
                    ("DISABLE_AUTOUPDATER", "1"),
                ] {
                    if get(k).is_none() {
                        s.env.push((k.into(), v.into()));
                    }
                }
            }
            Preset::Codex => {
                if input.sandboxed {
                    // Codex's own sandbox (bubblewrap) cannot start inside ours: every shell
                    // command would fail. Ours is the boundary.
                    s.args
                        .push("--dangerously-bypass-approvals-and-sandbox".into());
                }
                if let Some(url) = get("OPENAI_BASE_URL") {
                    s.args.push("-c".into());
                    s.args.push(format!("openai_base_url={url}"));
                }
                // Its code-mode shell results appear only in this log (on stderr): where
                // its own sandbox failing to start shows (see activity.rs).
                s.env
                    .push(("RUST_LOG".into(), "error,codex_otel=info".into()));
                if get("CODEX_API_KEY").is_none() {
                    if let Some(key) = get("OPENAI_API_KEY") {
                        // `codex exec` sends only CODEX_API_KEY (0.169.0).
                        s.env.push(("CODEX_API_KEY".into(), key));
                    }
                }
            }
            Preset::Gemini => {
                let mut settings = serde_json::json!({
                    "privacy": {"usageStatisticsEnabled": false},
                });
                // GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type, which
                // headless 0.61.0 refuses ("Invalid auth method selected"): name the key's.
                let selected = if get("GOOGLE_GENAI_USE_VERTEXAI").as_deref() == Some("true") {
                    Some("vertex-ai")
                } else if get("GEMINI_API_KEY").is_some() {
                    Some("gemini-api-key")
                } else {
                    None
                };
                if let Some(sel) = selected {
                    settings["security"] = serde_json::json!({"auth": {"selectedType": sel}});
                }
                if input.deliver {
                    // The plant folder is git-ignored, and Gemini's read_file refuses ignored
                    // files: a seal the agent is told about but cannot open measures nothing.
                    // Only in deliver mode, both arms alike; discover keeps the CLI's defaults.
                    settings["context"] =
                        serde_json::json!({"fileFiltering": {"respectGitIgnore": false}});
                    s.notes.push(
                        "gemini: context.fileFiltering.respectGitIgnore=false (deliver)".into(),
                    );
                }
                s.settings = Some((PathBuf::from(".gemini/settings.json"), settings));
            }
        }
        s
    }

    /// Credential files, relative to a home folder. Only credentials: never memory,
    /// history, instructions, projects or sessions.
    pub fn credential_files(self) -> &'static [&'static str] {
        match self {
            Preset::Claude => &[".claude/.credentials.json"],
            Preset::Codex => &[".codex/auth.json"],
            Preset::Gemini => &[".gemini/oauth_creds.json"],
        }
    }

    fn output_of(self, template: &[String]) -> OutputFormat {
        let has_pair = |flag: &str, value: &str| {
            template.windows(2).any(|w| w[0] == flag && w[1] == value)
                || template.iter().any(|a| *a == format!("{flag}={value}"))
        };
        match self {
            Preset::Claude if has_pair("--output-format", "json") => OutputFormat::ClaudeJson,
            Preset::Claude if has_pair("--output-format", "stream-json") => {
                OutputFormat::ClaudeJson
            }
            Preset::Codex
                if template
                    .iter()
                    .any(|a| a == "--json" || a == "--experimental-json") =>
            {
                OutputFormat::CodexJsonl
            }
            Preset::Gemini if has_pair("--output-format", "json") || has_pair("-o", "json") => {
                OutputFormat::GeminiJson
            }
            _ => OutputFormat::Text,
        }
    }
}

/// What a dispatch knows that a preset's setup depends on.
pub struct SetupInput<'a> {
    /// The agent runs inside the harness's sandbox (`--sandbox` other than `none`).
    pub sandboxed: bool,
    /// `--deliver`: the prompt names a planted path the agent must be able to read.
    pub deliver: bool,
    /// The harness's environment.
    pub env: &'a dyn Fn(&str) -> Option<String>,
}

/// What a preset adds to one dispatch: flags (inserted before the prompt), variables the
/// runner sets in the agent's environment, and a settings file merged into the fresh home.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PresetSetup {
    /// Flags inserted before `--`/the prompt.
    pub args: Vec<String>,
    /// Variables set in the agent's environment.
    pub env: Vec<(String, String)>,
    /// A JSON settings file (relative to the fresh home) merged over what is there.
    pub settings: Option<(PathBuf, serde_json::Value)>,
    /// What was changed from the CLI's defaults, for the round record.
    pub notes: Vec<String>,
}

/// Memory, instructions and hooks never go into a fresh home: they would tell CTRL what
/// only ARM should know, or run the user's code.
const NEVER_CARRIED: [&str; 5] = [
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    "hooks",
    "settings.json",
];

/// What `home_files` may carry: agents' provider and model settings, which hold no memory,
/// instructions, hooks or credentials (credentials come through the presets, or variables).
pub const HOME_FILES_ALLOWED: [&str; 5] = [
    ".codex/config.toml",
    ".aider.conf.yml",
    ".aider.model.settings.yml",
    ".aider.model.metadata.json",
    ".config/opencode/opencode.json",
];

/// Credential stores: never carried, whatever the allowlist says (a token in the agent's home
/// is readable by the agent, and with the network open it can leave).
const CREDENTIAL_STORES: [&str; 22] = [
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".config/gh",
    ".config/hub",
    ".config/gcloud",
    ".password-store",
    ".local/share/keyrings",
    ".claude/.credentials.json",
    ".claude.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".gemini/.env",
];

/// Checks a `home_files` entry of `harness.toml`: relative, inside the home, and not memory,
/// instructions, hooks or a settings file (which can hold hooks).
pub fn check_home_file(rel: &str) -> Result<()> {
    let bad = |reason: &str| Error::Template {
        template: rel.to_string(),
        reason: format!("home_files: {reason}"),
    };
    let p = Path::new(rel);
    if rel.is_empty() || p.is_absolute() {
        return Err(bad("must be a path relative to the home folder"));
    }
    if p.components()
        .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        return Err(bad("must stay inside the home folder (no `..`)"));
    }
    for c in p.components() {
        let name = c.as_os_str().to_string_lossy();
        if NEVER_CARRIED.iter().any(|n| name.eq_ignore_ascii_case(n)) {
            return Err(bad(&format!(
                "`{name}` is memory, instructions or hooks; it never goes into a fresh home"
            )));
        }
    }
    let lower = rel.to_ascii_lowercase();
    if let Some(store) = CREDENTIAL_STORES
        .iter()
        .find(|s| lower == **s || lower.starts_with(&format!("{s}/")))
    {
        return Err(bad(&format!(
            "`{store}` is a credential store; it never goes into an agent's home (the agent could read it, and send it). Give an agent's key as a variable with --pass-env"
        )));
    }
    if !HOME_FILES_ALLOWED.contains(&rel) {
        return Err(bad(&format!(
            "not on the allowlist of files an agent's home may carry: {}",
            HOME_FILES_ALLOWED.join(", ")
        )));
    }
    Ok(())
}

/// Inserts `extra` flags before the prompt: before a `--` element or the first element that
/// carries `{prompt}`/`{prompt_file}`, else at the end.
pub fn insert_args(template: &[String], extra: &[String]) -> Vec<String> {
    if extra.is_empty() {
        return template.to_vec();
    }
    let at = template
        .iter()
        .position(|a| a == "--" || a.contains("{prompt}") || a.contains("{prompt_file}"))
        .unwrap_or(template.len())
        .max(1);
    let mut out = template[..at].to_vec();
    out.extend(extra.iter().cloned());
    out.extend(template[at..].iter().cloned());
    out
}

/// Merges `value` over the JSON object in `path` (created when missing), mode 0600.
pub fn merge_settings(path: &Path, value: &serde_json::Value) -> Result<()> {
    fn merge(into: &mut serde_json::Value, from: &serde_json::Value) {
        match (into, from) {
            (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
                for (k, v) in b {
                    merge(a.entry(k.clone()).or_insert(serde_json::Value::Null), v);
                }
            }
            (slot, v) => *slot = v.clone(),
        }
    }
    let mut current = fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .filter(|v| v.is_object())
        .unwrap_or_else(|| serde_json::json!({}));
    merge(&mut current, value);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| Error::io_at(parent, e))?;
    }
    write_private(path, current.to_string().as_bytes())
}

/// Splits a template with shell rules (no shell ever runs it) and checks placeholders.
pub fn split_template(template: &str) -> Result<Vec<String>> {
    let bad = |reason: String| Error::Template {
        template: template.to_string(),
        reason,
    };
    let argv = shell_words::split(template).map_err(|e| bad(e.to_string()))?;
    if argv.is_empty() {
        return Err(bad("empty command".into()));
    }
    for arg in &argv {
        for seg in segments(arg) {
            if let Segment::Placeholder(name) = seg {
                if !PLACEHOLDERS.contains(&name) {
                    return Err(bad(format!(
                        "unknown placeholder {{{name}}} (known: {{prompt}}, {{prompt_file}}, {{model}}, {{workdir}})"
                    )));
                }
            }
        }
    }
    Ok(argv)
}

enum Segment<'a> {
    Text(&'a str),
    Placeholder(&'a str),
}

/// Cuts one argv element into literal text and `{name}` placeholders (`name` =
/// lowercase letters and `_`); other braces (JSON, say) stay literal.
fn segments(arg: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(after.len());
        if name_len > 0 && after[name_len..].starts_with('}') {
            if open > 0 {
                out.push(Segment::Text(&rest[..open]));
            }
            out.push(Segment::Placeholder(&after[..name_len]));
            rest = &after[name_len + 1..];
        } else {
            out.push(Segment::Text(&rest[..=open]));
            rest = after;
        }
    }
    if !rest.is_empty() {
        out.push(Segment::Text(rest));
    }
    out
}

impl AgentSpec {
    /// Parses `--agent`. `override_template` is the `harness.toml` `[agents.NAME] command`
    /// for a preset (ignored for `command:` and refused for baselines, which have no
    /// command line of their own to replace).
    pub fn parse(agent: &str, override_template: Option<&str>) -> Result<Self> {
        if let Some(template) = agent.strip_prefix("command:") {
            let argv = split_template(template)?;
            return Ok(AgentSpec {
                name: "command".into(),
                kind: AgentKind::Command,
                template: argv,
                prompt_stdin: false,
                output: OutputFormat::Text,
                credential_env: Vec::new(),
                credential_files: Vec::new(),
                home_files: Vec::new(),
            });
        }
        if let Some(kind) = BaselineKind::from_name(agent) {
            if override_template.is_some() {
                return Err(Error::Template {
                    template: override_template.unwrap_or_default().into(),
                    reason: format!("{agent} is built in and takes no command override"),
                });
            }
            return Ok(AgentSpec {
                name: kind.name().into(),
                kind: AgentKind::Baseline(kind),
                template: Vec::new(),
                prompt_stdin: true,
                output: OutputFormat::Text,
                credential_env: Vec::new(),
                credential_files: Vec::new(),
                home_files: Vec::new(),
            });
        }
        let preset = match agent {
            "claude" => Preset::Claude,
            "codex" => Preset::Codex,
            "gemini" => Preset::Gemini,
            other => return Err(Error::UnknownAgent(other.into())),
        };
        let argv = split_template(override_template.unwrap_or(preset.default_template()))?;
        Ok(AgentSpec {
            name: preset.name().into(),
            kind: AgentKind::Preset(preset),
            output: preset.output_of(&argv),
            template: argv,
            prompt_stdin: false,
            credential_env: preset
                .credential_env()
                .iter()
                .chain(preset.endpoint_env())
                .map(|s| s.to_string())
                .collect(),
            credential_files: preset
                .credential_files()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            home_files: Vec::new(),
        })
    }

    /// Applies `harness.toml`'s `extra_args` (inserted before the prompt) and `home_files`
    /// (checked: never memory, instructions or hooks).
    pub fn with_config(mut self, extra_args: &[String], home_files: &[String]) -> Result<Self> {
        if matches!(self.kind, AgentKind::Baseline(_)) {
            if extra_args.is_empty() && home_files.is_empty() {
                return Ok(self);
            }
            return Err(Error::Template {
                template: self.name.clone(),
                reason: "a built-in agent takes no extra_args or home_files".into(),
            });
        }
        for f in home_files {
            check_home_file(f)?;
        }
        self.template = insert_args(&self.template, extra_args);
        if let AgentKind::Preset(p) = self.kind {
            self.output = p.output_of(&self.template);
        }
        self.home_files = home_files.to_vec();
        Ok(self)
    }

    /// Sets the `prompt_stdin` option (config `prompt_stdin = true`): the prompt is fed
    /// on stdin instead of the template carrying it.
    pub fn with_prompt_stdin(mut self, on: bool) -> Self {
        if !matches!(self.kind, AgentKind::Baseline(_)) {
            self.prompt_stdin = on;
        }
        self
    }

    /// Whether the template names `{prompt_file}`, so the runner must write it.
    pub fn uses_prompt_file(&self) -> bool {
        self.template.iter().any(|a| {
            segments(a)
                .iter()
                .any(|s| matches!(s, Segment::Placeholder("prompt_file")))
        })
    }

    /// The bytes to feed on stdin: the prompt when `prompt_stdin`, else none (`/dev/null`).
    pub fn stdin_bytes(&self, prompt: &str) -> Option<Vec<u8>> {
        self.prompt_stdin.then(|| prompt.as_bytes().to_vec())
    }

    /// Builds the argv of one invocation. Placeholders are substituted inside each
    /// element, once, from the template only (a prompt containing `{workdir}` stays
    /// literal). With no model, an element that is exactly `{model}` is dropped together
    /// with a preceding flag (`--model {model}`), and an element embedding `{model}`
    /// (`--model={model}`) is dropped.
    pub fn argv(&self, inv: &Invocation<'_>) -> Result<Vec<OsString>> {
        if let AgentKind::Baseline(kind) = self.kind {
            return Ok(vec![
                inv.harness_exe.as_os_str().to_owned(),
                OsString::from("__agent"),
                OsString::from(kind.name()),
            ]);
        }
        let mentions = |name: &str| {
            self.template.iter().any(|a| {
                segments(a)
                    .iter()
                    .any(|s| matches!(s, Segment::Placeholder(n) if *n == name))
            })
        };
        if !self.prompt_stdin && !mentions("prompt") && !mentions("prompt_file") {
            return Err(Error::Template {
                template: shell_words::join(&self.template),
                reason: "the prompt never reaches the agent: put {prompt} or {prompt_file} in the command, or pass --prompt-stdin (or `prompt_stdin = true` under [agents.NAME] in harness.toml)".into(),
            });
        }
        let mut out: Vec<OsString> = Vec::with_capacity(self.template.len());
        for (i, arg) in self.template.iter().enumerate() {
            let segs = segments(arg);
            let has_model = segs
                .iter()
                .any(|s| matches!(s, Segment::Placeholder("model")));
            if has_model && inv.model.is_none() {
                let exact = arg == "{model}";
                if exact && i > 0 && self.template[i - 1].starts_with('-') && !out.is_empty() {
                    out.pop();
                }
                continue;
            }
            let mut el = OsString::new();
            for seg in segs {
                match seg {
                    Segment::Text(t) => el.push(t),
                    Segment::Placeholder("prompt") => el.push(inv.prompt),
                    Segment::Placeholder("prompt_file") => el.push(inv.prompt_file),
                    Segment::Placeholder("workdir") => el.push(inv.workdir),
                    Segment::Placeholder("model") => el.push(inv.model.unwrap_or_default()),
                    Segment::Placeholder(other) => {
                        return Err(Error::Template {
                            template: arg.clone(),
                            reason: format!("unknown placeholder {{{other}}}"),
                        })
                    }
                }
            }
            out.push(el);
        }
        Ok(out)
    }
}

fn excerpt(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    cleaned
}

/// Reads the answer from an agent's raw stdout. For text agents it is stdout itself;
/// for structured output it is the final result, and a result marked as an error is a
/// dispatch failure ([`Error::AgentFailed`]), never an answer. The caller keeps the raw
/// bytes (`<label>_r<n>.raw`) and still checks the exit status.
pub fn extract_answer(spec: &AgentSpec, raw_stdout: &[u8]) -> Result<Vec<u8>> {
    let fail = |reason: String| Error::AgentFailed {
        agent: spec.name.clone(),
        reason,
    };
    match spec.output {
        OutputFormat::Text => Ok(raw_stdout.to_vec()),
        OutputFormat::ClaudeJson => {
            let v = last_json_object(raw_stdout)
                .ok_or_else(|| fail("stdout holds no JSON result object".into()))?;
            let is_error = v.get("is_error").and_then(|x| x.as_bool()).unwrap_or(false);
            let subtype = v.get("subtype").and_then(|x| x.as_str());
            if is_error || subtype.is_some_and(|s| s != "success") {
                let detail = v.get("result").and_then(|x| x.as_str()).unwrap_or("");
                return Err(fail(format!(
                    "result marked as error (is_error={is_error}, subtype={}): {}",
                    subtype.unwrap_or("-"),
                    excerpt(detail)
                )));
            }
            match v.get("result").and_then(|x| x.as_str()) {
                Some(r) => Ok(r.as_bytes().to_vec()),
                None => Err(fail("result object has no string `result` field".into())),
            }
        }
        OutputFormat::GeminiJson => {
            let v = last_json_object(raw_stdout)
                .ok_or_else(|| fail("stdout holds no JSON object".into()))?;
            if let Some(e) = v.get("error").filter(|e| !e.is_null()) {
                let msg = e
                    .get("message")
                    .and_then(|m| m.as_str())
                    .map(str::to_string)
                    .unwrap_or_else(|| e.to_string());
                return Err(fail(format!("error reported: {}", excerpt(&msg))));
            }
            match v.get("response").and_then(|x| x.as_str()) {
                Some(r) => Ok(r.as_bytes().to_vec()),
                None => Err(fail("JSON output has no string `response` field".into())),
            }
        }
        OutputFormat::CodexJsonl => {
            let text = String::from_utf8_lossy(raw_stdout);
            let mut answer: Option<String> = None;
            let mut failure: Option<String> = None;
            for line in text.lines() {
                let Ok(v) = serde_json::from_str::<serde_json::Value>(line.trim()) else {
                    continue;
                };
                match v.get("type").and_then(|t| t.as_str()) {
                    Some("item.completed") => {
                        let item = v.get("item");
                        let ty = item.and_then(|i| i.get("type")).and_then(|t| t.as_str());
                        if ty == Some("agent_message") {
                            if let Some(t) =
                                item.and_then(|i| i.get("text")).and_then(|t| t.as_str())
                            {
                                answer = Some(t.to_string());
                            }
                        }
                    }
                    Some("turn.failed") => {
                        let msg = v
                            .pointer("/error/message")
                            .and_then(|m| m.as_str())
                            .unwrap_or("turn failed");
                        failure = Some(format!("turn.failed: {}", excerpt(msg)));
                    }
                    Some("error") if failure.is_none() => {
                        let msg = v.get("message").and_then(|m| m.as_str()).unwrap_or("error");
                        failure = Some(format!("error event: {}", excerpt(msg)));
                    }
                    _ => {}
                }
            }
            match (answer, failure) {
                (_, Some(f)) if f.starts_with("turn.failed") => Err(fail(f)),
                (Some(a), _) => Ok(a.into_bytes()),
                (None, Some(f)) => Err(fail(f)),
                (None, None) => Err(fail("no agent_message item in the JSONL events".into())),
            }
        }
    }
}

/// The whole stdout as one JSON object, or else its last line that is one
/// (`stream-json` ends with the result object).
fn last_json_object(raw: &[u8]) -> Option<serde_json::Value> {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(raw) {
        if v.is_object() {
            return Some(v);
        }
    }
    let text = String::from_utf8_lossy(raw);
    text.lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .find_map(|l| {
            serde_json::from_str::<serde_json::Value>(l.trim())
                .ok()
                .filter(|v| v.is_object())
        })
}

/// Copies the preset's credential files from `user_home` into `fresh_home` (mode 0600)
/// and returns the relative paths copied. Missing files are skipped (the agent may use
/// a variable instead). For Gemini, when the Google login is copied, the one setting
/// that selects it is carried into a new `settings.json`; nothing else of the user's
/// settings is.
pub fn install_credentials(
    spec: &AgentSpec,
    user_home: &Path,
    fresh_home: &Path,
) -> Result<Vec<PathBuf>> {
    let mut copied = Vec::new();
    for rel in spec.credential_files.iter().chain(&spec.home_files) {
        let src = user_home.join(rel);
        if !src.is_file() {
            continue;
        }
        // A carried file that is a link could lead anywhere (`~/.ssh/id_ed25519`): refused.
        if spec.home_files.contains(rel)
            && fs::canonicalize(&src).ok() != fs::canonicalize(user_home).ok().map(|h| h.join(rel))
        {
            return Err(Error::Template {
                template: rel.clone(),
                reason: format!(
                    "home_files: {} is or passes through a link; only a plain file in the home is carried",
                    src.display()
                ),
            });
        }
        let dst = fresh_home.join(rel);
        if let Some(parent) = dst.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io_at(parent, e))?;
        }
        let bytes = fs::read(&src).map_err(|e| Error::Credential {
            path: src.clone(),
            source: e,
        })?;
        write_private(&dst, &bytes)?;
        copied.push(PathBuf::from(rel));
    }
    if spec.kind == AgentKind::Preset(Preset::Gemini)
        && copied.iter().any(|p| p.ends_with("oauth_creds.json"))
    {
        let settings = user_home.join(".gemini/settings.json");
        if let Ok(text) = fs::read_to_string(&settings) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
                let selected = v
                    .pointer("/security/auth/selectedType")
                    .or_else(|| v.get("selectedAuthType"))
                    .and_then(|s| s.as_str());
                if let Some(sel) = selected {
                    let minimal = serde_json::json!({"security": {"auth": {"selectedType": sel}}});
                    let rel = PathBuf::from(".gemini/settings.json");
                    write_private(&fresh_home.join(&rel), minimal.to_string().as_bytes())?;
                    copied.push(rel);
                }
            }
        }
    }
    Ok(copied)
}

fn write_private(dst: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(dst)
        .map_err(|e| Error::io_at(dst, e))?;
    f.write_all(bytes).map_err(|e| Error::io_at(dst, e))
}
