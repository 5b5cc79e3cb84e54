//! A person's decisions (`harness review`, DESIGN §5.1): `review.jsonl` in the out-dir, one
//! decision a line, each with the sha256 of the answer the person read. Answers and dispatch
//! records are never touched; a decision whose answer changed since is refused.

use crate::exit::{Exit, Fail};
use anyhow::Result;
use scorer::Class;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The file beside the round's answers.
pub const FILE: &str = "review.jsonl";

/// One person's class for one row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// The dispatch label.
    pub label: String,
    /// The rep.
    pub rep: u32,
    /// The class the person gave.
    pub class: Class,
    /// Who (`--reviewer`, else `$USER`).
    pub reviewer: String,
    /// When (RFC 3339, UTC).
    pub time: String,
    /// sha256 hex of the answer bytes the person read.
    pub answer_sha256: String,
    /// Set when the decision was made in an earlier round of the same qset on the same answer
    /// bytes and applied here: that round's folder name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused_from: Option<String>,
    /// Set when the decision was made in this round on another row with the same answer
    /// bytes and applied here as well: that row (`<label>_r<rep>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_answer_as: Option<String>,
}

/// One decision as the user's state folder keeps it, for every later round of the same qset:
/// no answer text (hashes only), so nothing of a token is in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settled {
    /// sha256 of the qset the question belongs to.
    pub qset_sha256: String,
    /// The question.
    pub qid: String,
    /// sha256 hex of the answer bytes decided on.
    pub answer_sha256: String,
    /// The class the person gave.
    pub class: Class,
    /// Who.
    pub reviewer: String,
    /// When (RFC 3339, UTC).
    pub time: String,
    /// The folder name of the round it was decided in.
    pub round: String,
}

/// `$XDG_STATE_HOME/harness/decisions.jsonl` (else under `~/.local/state`): every person's
/// decision, keyed by (qset sha256, qid, answer sha256).
pub fn settled_path() -> std::path::PathBuf {
    let rounds = crate::outdir::default_root();
    rounds
        .parent()
        .map(|p| p.join("decisions.jsonl"))
        .unwrap_or_else(|| rounds.join("decisions.jsonl"))
}

/// Every decision of the user's state folder (none when absent; unreadable lines skipped: the
/// file only ever offers decisions, each checked against the answer's hash).
pub fn settled() -> Vec<Settled> {
    std::fs::read_to_string(settled_path())
        .map(|t| {
            t.lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Adds decisions to the user's state folder (appended, one line each in one write).
pub fn remember(rows: &[Settled]) -> Result<()> {
    use std::io::Write;
    if rows.is_empty() {
        return Ok(());
    }
    let path = settled_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        }
    }
    let mut text = String::new();
    for r in rows {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    f.write_all(text.as_bytes())?;
    f.sync_data()?;
    Ok(())
}

/// sha256 hex of an answer.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every decision in the out-dir's `review.jsonl` (none when the file is absent); a bad line
/// is an error naming file and line.
pub fn load(out: &Path) -> Result<Vec<Decision>> {
    let path = out.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Fail::new(Exit::Usage, format!("{}: {e}", path.display())).into()),
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let d: Decision = serde_json::from_str(line).map_err(|e| {
            Fail::new(
                Exit::Usage,
                format!("{}:{}: not a review decision: {e}", path.display(), i + 1),
            )
        })?;
        out.push(d);
    }
    Ok(out)
}

/// Appends decisions to `review.jsonl` (the whole file rewritten atomically, so a crash leaves
/// the old file or the new one, never half a line).
pub fn append(out: &Path, new: &[Decision]) -> Result<()> {
    let mut all = load(out)?;
    all.extend(new.iter().cloned());
    let mut text = String::new();
    for d in &all {
        text.push_str(&serde_json::to_string(d)?);
        text.push('\n');
    }
    crate::files::write_atomic(&out.join(FILE), text.as_bytes())
}

/// The person's class for this row: the last decision for (label, rep). A decision made on
/// other answer bytes is refused (exit 2), naming the row: the person read another answer.
pub fn class_for(
    decisions: &[Decision],
    label: &str,
    rep: u32,
    answer: &[u8],
) -> Result<Option<Class>> {
    let Some(d) = decisions
        .iter()
        .rev()
        .find(|d| d.label == label && d.rep == rep)
    else {
        return Ok(None);
    };
    let now = sha256_hex(answer);
    if d.answer_sha256 != now {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{FILE}: the decision on {label}_r{rep} was made on an answer with sha256 {}, the answer now has {}; refused (review it again)",
                &d.answer_sha256.get(..12).unwrap_or(&d.answer_sha256),
                &now[..12]
            ),
        )
        .into());
    }
    Ok(Some(d.class))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decision_on_changed_bytes_is_refused() {
        let d = Decision {
            label: "abc".into(),
            rep: 1,
            class: Class::Pass,
            reviewer: "r".into(),
            time: "t".into(),
            answer_sha256: sha256_hex(b"I don't know."),
            reused_from: None,
            same_answer_as: None,
        };
        let ds = vec![d];
        assert_eq!(
            class_for(&ds, "abc", 1, b"I don't know.").unwrap(),
            Some(Class::Pass)
        );
        assert_eq!(class_for(&ds, "abc", 2, b"x").unwrap(), None);
        assert!(class_for(&ds, "abc", 1, b"It is X.").is_err());
    }
}
