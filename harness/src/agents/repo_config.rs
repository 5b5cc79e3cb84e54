//! What a repository makes an agent run (DESIGN §4): the agent configuration a checkout carries
//! — Claude Code's `.claude/` (settings with hooks, MCP switches and permission allow-lists,
//! commands, agents), `.mcp.json`, Codex's `.codex/`, Gemini's `.gemini/`, and the instruction
//! files `CLAUDE.md`, `CLAUDE.local.md`, `AGENTS.md`, `GEMINI.md` at any depth — each with its
//! sha256 and what it enables, read from the tree at base (every checkout is that tree).
//!
//! Under `--sandbox auto` a hook runs inside the agent's sandbox; under `none` it runs with the
//! user's rights, so a repository that carries hooks or MCP servers is refused there unless
//! `--allow-repo-hooks` is given.

use anyhow::Result;
use runners::{Corpus, EntryKind};
use serde::{Deserialize, Serialize};

/// One agent configuration file of the tree at base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoAgentFile {
    /// Repository-relative path.
    pub path: String,
    /// sha256 hex of its bytes (of the link text for a symlink).
    pub sha256: String,
    /// What it enables, each a short phrase naming the setting (`hooks: PreToolUse`,
    /// `MCP servers: notes`, `permissions.allow: Bash(*)`, `instructions`, `file`).
    pub enables: Vec<String>,
    /// It defines hooks or other commands the CLI runs by itself (a status line, a key helper,
    /// Codex's `notify`), or could not be read and may.
    pub runs_commands: bool,
    /// It defines or switches on MCP servers (or could not be read and may).
    pub mcp: bool,
}

impl RepoAgentFile {
    /// `path (sha256 0123456789ab; hooks: …; …)`, for headers.
    pub fn line(&self) -> String {
        format!(
            "{} (sha256 {}; {})",
            self.path,
            &self.sha256[..12.min(self.sha256.len())],
            self.enables.join("; ")
        )
    }
}

/// The instruction files agent CLIs read from a checkout, at any depth.
const INSTRUCTION_FILES: [&str; 4] = ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md"];

/// The agent configuration folders at the root of a checkout.
const CONFIG_DIRS: [&str; 3] = [".claude/", ".codex/", ".gemini/"];

fn is_agent_config(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path == ".mcp.json"
        || CONFIG_DIRS.iter().any(|d| path.starts_with(d))
        || INSTRUCTION_FILES.contains(&name)
}

/// Every agent configuration file of the tree at base, sorted by path.
pub fn scan(corpus: &Corpus) -> Result<Vec<RepoAgentFile>> {
    let repo = corpus.base.open()?;
    let mut out = Vec::new();
    for e in corpus.entries.iter().filter(|e| is_agent_config(&e.path)) {
        if !e.has_blob() {
            continue;
        }
        let bytes = repo.find_blob(e.oid)?.content().to_vec();
        out.push(describe(
            &e.path,
            matches!(e.kind, EntryKind::Symlink { .. }),
            &bytes,
        ));
    }
    Ok(out)
}

/// One file's record from its path and bytes.
pub fn describe(path: &str, symlink: bool, bytes: &[u8]) -> RepoAgentFile {
    let mut f = RepoAgentFile {
        path: path.to_string(),
        sha256: crate::files::sha256_hex(bytes),
        enables: Vec::new(),
        runs_commands: false,
        mcp: false,
    };
    let name = path.rsplit('/').next().unwrap_or(path);
    if symlink {
        // The CLI follows the link to whatever it names: what that holds is unknown here.
        f.enables.push(format!(
            "symlink to {} (not read: may define hooks or MCP servers)",
            crate::text::clean_line(&String::from_utf8_lossy(bytes), 120)
        ));
        f.runs_commands = is_settings(path);
        f.mcp = is_settings(path);
        return f;
    }
    if INSTRUCTION_FILES.contains(&name) {
        f.enables.push("instructions".into());
        return f;
    }
    if path.ends_with(".json") && is_settings(path) {
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(v) => json_enables(&v, &mut f),
            Err(e) => unreadable(&mut f, &e.to_string()),
        }
    } else if path.ends_with(".toml") && is_settings(path) {
        match std::str::from_utf8(bytes)
            .map_err(|e| e.to_string())
            .and_then(|t| t.parse::<toml::Table>().map_err(|e| e.to_string()))
        {
            Ok(t) => toml_enables(&t, &mut f),
            Err(e) => unreadable(&mut f, &e),
        }
    }
    if f.enables.is_empty() {
        f.enables.push("file".into());
    }
    f
}

/// A file a CLI reads as settings: `.mcp.json`, `.claude/settings*.json`, and the JSON or TOML
/// files at the top of `.codex/` and `.gemini/`.
fn is_settings(path: &str) -> bool {
    path == ".mcp.json"
        || path.starts_with(".claude/settings")
        || [".codex/", ".gemini/"]
            .iter()
            .any(|d| path.strip_prefix(d).is_some_and(|rest| !rest.contains('/')))
}

fn unreadable(f: &mut RepoAgentFile, why: &str) {
    f.enables.push(format!(
        "not readable as settings ({}): may define hooks or MCP servers",
        crate::text::clean_line(why, 80)
    ));
    f.runs_commands = true;
    f.mcp = true;
}

/// Keys of a JSON object, comma-joined and cleaned.
fn keys(v: &serde_json::Value) -> Option<String> {
    let o = v.as_object()?;
    Some(
        o.keys()
            .map(|k| crate::text::clean_line(k, 40))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// Strings of a JSON array, comma-joined and cleaned.
fn strings(v: &serde_json::Value) -> Option<String> {
    let a = v.as_array()?;
    Some(
        a.iter()
            .map(|s| crate::text::clean_line(s.as_str().unwrap_or("?"), 60))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

fn json_enables(v: &serde_json::Value, f: &mut RepoAgentFile) {
    if let Some(k) = v.get("hooks").and_then(keys).filter(|k| !k.is_empty()) {
        f.enables.push(format!("hooks: {k}"));
        f.runs_commands = true;
    }
    for (key, what) in [
        ("statusLine", "statusLine command"),
        ("apiKeyHelper", "apiKeyHelper command"),
    ] {
        if v.get(key).is_some_and(|x| !x.is_null()) {
            f.enables.push(what.into());
            f.runs_commands = true;
        }
    }
    if let Some(k) = v.get("mcpServers").and_then(keys).filter(|k| !k.is_empty()) {
        f.enables.push(format!("MCP servers: {k}"));
        f.mcp = true;
    }
    if v.get("enableAllProjectMcpServers") == Some(&serde_json::Value::Bool(true)) {
        f.enables.push("enableAllProjectMcpServers".into());
        f.mcp = true;
    }
    if let Some(s) = v.get("enabledMcpjsonServers").and_then(strings) {
        f.enables.push(format!("enabledMcpjsonServers: {s}"));
        f.mcp = true;
    }
    for (ptr, name) in [
        ("/permissions/allow", "permissions.allow"),
        ("/permissions/defaultMode", "permissions.defaultMode"),
        ("/allowedTools", "allowedTools"),
        ("/tools/allowed", "tools.allowed"),
        ("/autoAccept", "autoAccept"),
    ] {
        if let Some(x) = v.pointer(ptr) {
            let shown = strings(x).unwrap_or_else(|| crate::text::clean_line(&x.to_string(), 60));
            f.enables.push(format!("{name}: {shown}"));
        }
    }
}

fn toml_enables(t: &toml::Table, f: &mut RepoAgentFile) {
    if let Some(servers) = t.get("mcp_servers").and_then(|s| s.as_table()) {
        let k: Vec<String> = servers
            .keys()
            .map(|k| crate::text::clean_line(k, 40))
            .collect();
        f.enables.push(format!("MCP servers: {}", k.join(", ")));
        f.mcp = true;
    }
    for key in ["notify", "hooks"] {
        if t.contains_key(key) {
            f.enables.push(format!("{key} command"));
            f.runs_commands = true;
        }
    }
    for key in ["approval_policy", "sandbox_mode"] {
        if let Some(v) = t.get(key) {
            f.enables.push(format!(
                "{key}: {}",
                crate::text::clean_line(&v.to_string(), 40)
            ));
        }
    }
}

/// The files that make the CLI run something by itself (hooks, MCP servers): what
/// `--sandbox none` refuses without `--allow-repo-hooks`.
pub fn running(files: &[RepoAgentFile]) -> Vec<&RepoAgentFile> {
    files.iter().filter(|f| f.runs_commands || f.mcp).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_hooks_mcp_and_allow_lists_are_named() {
        let f = describe(
            ".claude/settings.json",
            false,
            br#"{"hooks":{"SessionStart":[],"PreToolUse":[]},"enableAllProjectMcpServers":true,"permissions":{"allow":["Bash(*)"]}}"#,
        );
        assert!(f.runs_commands && f.mcp, "{f:?}");
        // Keys in sorted order, whatever the file's.
        assert!(
            f.enables
                .contains(&"hooks: PreToolUse, SessionStart".to_string()),
            "{f:?}"
        );
        assert!(
            f.enables
                .contains(&"permissions.allow: Bash(*)".to_string()),
            "{f:?}"
        );
        let m = describe(
            ".mcp.json",
            false,
            br#"{"mcpServers":{"notes":{"command":"x"}}}"#,
        );
        assert!(m.mcp && !m.runs_commands);
        assert_eq!(m.enables, ["MCP servers: notes"]);
        let c = describe(
            ".codex/config.toml",
            false,
            b"notify = [\"x\"]\n[mcp_servers.db]\ncommand = \"y\"\n",
        );
        assert!(c.mcp && c.runs_commands, "{c:?}");
        let i = describe("docs/CLAUDE.md", false, b"read ../../");
        assert_eq!(i.enables, ["instructions"]);
        assert!(!i.mcp && !i.runs_commands);
        let bad = describe(".claude/settings.local.json", false, b"{not json");
        assert!(bad.runs_commands && bad.mcp, "{bad:?}");
        let plain = describe(".claude/settings.json", false, b"{\"model\":\"x\"}");
        assert!(!plain.runs_commands && !plain.mcp);
        assert_eq!(plain.enables, ["file"]);
        assert!(!is_agent_config("src/main.rs") && is_agent_config("a/b/AGENTS.md"));
    }
}
