//! Pre-registration (DESIGN §6.5): the manifest records, before a round, the sha256 of the qset,
//! seal and protocol, the base and the scorer fingerprint. A round or `verify` compares by
//! content, never by path: the seed once sealed round 1's questions and ran round 2's, and a
//! path comparison passed it.

use crate::exit::{Exit, Fail};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

/// The manifest format this build writes and reads. Format 2 added the integrity record.
pub const FORMAT: &str = "harness-manifest/2";

/// The key of the integrity record inside a manifest's JSON object.
const INTEGRITY: &str = "integrity";

/// What a manifest records. Written by `harness seal`, read by `verify` and `run --manifest`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    /// Format version; a manifest of another format is refused.
    pub format: String,
    /// The harness version that wrote it.
    pub harness_version: String,
    /// When it was written (RFC 3339, UTC).
    pub created: String,
    /// The scorer that will classify the answers.
    pub scorer: ScorerStamp,
    /// The commit the round runs on.
    pub base: BaseStamp,
    /// Each sealed input with its role, path as given and content hash.
    pub inputs: Vec<Input>,
    /// The round's design (agent, arms, reps, deliver/discover, sandbox, timeout, retries,
    /// judge): what the numbers are read against. Absent in manifests sealed before designs
    /// were recorded; a round against one says "design not sealed".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub design: Option<Design>,
}

/// What a judge field records while no judge reads the answers: the scorer's reading alone.
pub const NO_JUDGE: &str = "none";

/// A round's design as pre-registered by `harness seal` and compared by `run --manifest`:
/// a round of another design (1 rep instead of 3, discover instead of deliver, another agent)
/// is another experiment, and its numbers cannot be read against this registration.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Design {
    /// The agent as given to `--agent`: a preset (`claude`), a built-in (`baseline-grep`) or a
    /// `command:` template.
    pub agent: String,
    /// The preset CLI's `--version` line found when sealing; `None` for a built-in or a
    /// template, or when the CLI was not on PATH (then a round's version is not compared).
    pub agent_version: Option<String>,
    /// `--model`; `None` is the CLI's own default.
    pub model: Option<String>,
    /// `both`, `ARM` or `CTRL`.
    pub arms: String,
    /// Repetitions per (question, arm).
    pub reps: u32,
    /// `deliver` (ARM's prompt names the planted seal) or `discover` (nothing does).
    pub mode: String,
    /// The sandbox level asked for (`auto`, `full`, `landlock`, `none`).
    pub sandbox: String,
    /// Per-dispatch time limit, seconds.
    pub timeout_s: u64,
    /// Retries of a dispatch that failed for the instrument's reasons.
    pub retries: u32,
    /// Who reads the answers beside the scorer; [`NO_JUDGE`] until a judge is chosen.
    pub judge: String,
    /// The judge's preset CLI `--version` line found when sealing (as for the agent); `None`
    /// without a judge, for a `command:` or `openai:` judge, or when the CLI was not on PATH
    /// (then a round's version is not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_version: Option<String>,
    /// The judge's rubric, `v1 sha256:<hex>`; `None` without a judge (and in designs sealed
    /// before it was recorded: then not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_rubric: Option<String>,
    /// `--ledger`: `strict` (the seal carries every positive) or `report` (a thinner seal,
    /// its missing positives listed). Manifests sealed before the flag are strict.
    #[serde(default = "ledger_strict")]
    pub ledger: String,
}

/// The ledger of a design sealed before `--ledger` existed.
fn ledger_strict() -> String {
    reports::LEDGER_STRICT.into()
}

impl Design {
    /// The design a round's options describe; `agent_version` and `judge_version` are the
    /// preset CLIs' versions found now (see [`crate::agents::cli_version`]).
    pub fn of_run(
        opts: &crate::options::RunOptions,
        agent_version: Option<String>,
        judge_version: Option<String>,
    ) -> Design {
        Design {
            agent: opts.agent.clone().unwrap_or_else(|| "baseline-grep".into()),
            agent_version,
            model: opts.model.clone(),
            arms: opts.arms.as_str().into(),
            reps: opts.reps,
            mode: if opts.deliver { "deliver" } else { "discover" }.into(),
            sandbox: opts.sandbox.name().into(),
            timeout_s: opts.timeout.as_secs(),
            retries: opts.retries,
            judge: judge_of(opts),
            judge_version: opts.judge.as_ref().and(judge_version),
            judge_rubric: opts.judge.as_ref().map(|_| rubric_name()),
            ledger: opts.ledger.as_str().into(),
        }
    }

    /// Every field as (name, value) in the order `verify` shows them.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let opt = |v: &Option<String>, none: &str| {
            v.as_deref()
                .map(|s| crate::text::clean_line(s, 120))
                .unwrap_or_else(|| none.to_string())
        };
        // The built-in agents are the harness's own offline stand-ins: no CLI, no model.
        let builtin = runners::BaselineKind::from_name(&self.agent).is_some();
        let (no_version, no_model) = if builtin {
            (
                "none: the built-in offline stand-in (a search of the checkout) has no CLI version",
                "none: the built-in offline stand-in uses no model",
            )
        } else {
            (
                "not recorded (not a preset CLI, or not on PATH when sealed)",
                "the CLI's default",
            )
        };
        vec![
            ("agent", crate::text::clean_line(&self.agent, 160)),
            ("agent_version", opt(&self.agent_version, no_version)),
            ("model", opt(&self.model, no_model)),
            ("arms", crate::text::clean_line(&self.arms, 20)),
            ("reps", self.reps.to_string()),
            ("mode", crate::text::clean_line(&self.mode, 20)),
            ("sandbox", crate::text::clean_line(&self.sandbox, 20)),
            ("timeout_s", self.timeout_s.to_string()),
            ("retries", self.retries.to_string()),
            ("judge", crate::text::clean_line(&self.judge, 80)),
            (
                "judge_version",
                opt(
                    &self.judge_version,
                    "not recorded (no judge, not a preset CLI, or not on PATH when sealed)",
                ),
            ),
            (
                "judge_rubric",
                opt(&self.judge_rubric, "not recorded (no judge)"),
            ),
            ("ledger", crate::text::clean_line(&self.ledger, 20)),
        ]
    }

    /// One [`Check`] per field: `match`, or MISMATCH naming both values. The CLI version is
    /// compared only when both sides found one.
    pub fn compare(&self, now: &Design) -> Vec<Check> {
        let sealed = self.fields();
        let current = now.fields();
        sealed
            .into_iter()
            .zip(current)
            .map(|((name, was), (_, is))| {
                let unknown = match name {
                    "agent_version" => self.agent_version.is_none() || now.agent_version.is_none(),
                    "judge_version" => self.judge_version.is_none() || now.judge_version.is_none(),
                    "judge_rubric" => self.judge_rubric.is_none() || now.judge_rubric.is_none(),
                    _ => false,
                };
                if unknown {
                    Check {
                        what: name.into(),
                        status: Status::NotUsed,
                        detail: format!("not compared: sealed {was}, this run {is}"),
                    }
                } else if was == is {
                    Check {
                        what: name.into(),
                        status: Status::Match,
                        detail: was,
                    }
                } else {
                    Check {
                        what: name.into(),
                        status: Status::Mismatch,
                        detail: format!("sealed {was}, this run {is}"),
                    }
                }
            })
            .collect()
    }
}

/// How a design names the judge's rubric: its version and sha256.
pub fn rubric_name() -> String {
    format!(
        "{} sha256:{}",
        scorer::rubric::RUBRIC_VERSION,
        scorer::rubric::sha256()
    )
}

/// The judge a round's options choose (`--judge`, as [`crate::reading::judge::recorded_name`]
/// names it), or [`NO_JUDGE`]; `seal --judge` records the same value.
pub fn judge_of(opts: &crate::options::RunOptions) -> String {
    opts.judge.clone().unwrap_or_else(|| NO_JUDGE.into())
}

/// The scorer's identity: a different lexicon classifies differently.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ScorerStamp {
    /// sha256 over the lexicon patterns.
    pub fingerprint: String,
    /// Human-readable lexicon version.
    pub lexicon_version: String,
    /// How tokens are found (`word` or `exact`), in its own field so a reader sees the rule
    /// without decoding the fingerprint. Absent in manifests written before it was recorded;
    /// the fingerprint, which covers the rule, still decides the comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_match: Option<String>,
}

/// The pinned base commit.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BaseStamp {
    /// The full commit sha.
    pub sha: String,
    /// The ref it was resolved from, when one was given.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// The repository as given (a path, or `embedded:demo` for the shipped demo).
    pub repo: String,
}

/// The role an input plays in a round.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The question set.
    Qset,
    /// The carrier planted in ARM.
    Seal,
    /// The typed-answer instructions appended to every prompt.
    Protocol,
}

impl Role {
    /// Lowercase name, as in the JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Qset => "qset",
            Role::Seal => "seal",
            Role::Protocol => "protocol",
        }
    }
}

/// One sealed file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Input {
    /// What the file is for.
    pub role: Role,
    /// The path as it was given to `seal` (resolved against the manifest's folder, then the cwd).
    pub path: String,
    /// sha256 of the content, lowercase hex.
    pub sha256: String,
}

impl Manifest {
    /// The input of a role, if sealed.
    pub fn input(&self, role: Role) -> Option<&Input> {
        self.inputs.iter().find(|i| i.role == role)
    }
}

pub use crate::files::sha256_hex;

/// Reads a manifest. Missing, empty, unparsable or of another format: exit 10, naming the file.
pub fn load(path: &Path) -> Result<Manifest> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            return Err(Fail::new(
                Exit::ManifestMismatch,
                format!("manifest {}: cannot read it: {e}", path.display()),
            )
            .into())
        }
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "manifest {}: it is empty; nothing can be compared",
                path.display()
            ),
        )
        .into());
    }
    let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
        Fail::new(
            Exit::ManifestMismatch,
            format!(
                "manifest {}: not a manifest (line {}, column {}): {e}",
                path.display(),
                e.line(),
                e.column()
            ),
        )
    })?;
    let format = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
    if format != FORMAT {
        let hint = if format == "harness-manifest/1" {
            " (written before manifests carried an integrity record; seal again with this harness)"
        } else {
            ""
        };
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "manifest {}: format '{}' is not '{FORMAT}'{hint}",
                path.display(),
                crate::text::clean_line(format, 40)
            ),
        )
        .into());
    }
    let body = check_integrity(value).map_err(|why| {
        Fail::new(
            Exit::ManifestMismatch,
            format!(
                "manifest {}: {why}; the manifest is not the one `harness seal` wrote (seal again)",
                path.display()
            ),
        )
    })?;
    let m: Manifest = serde_json::from_value(body).map_err(|e| {
        Fail::new(
            Exit::ManifestMismatch,
            format!("manifest {}: not a manifest: {e}", path.display()),
        )
    })?;
    Ok(m)
}

/// The sealed form of a manifest: its JSON with an integrity record holding the sha256 of every
/// field and a sha256 over those, so an edit to any field (the harness version included) is
/// caught by `verify` and `run --manifest`, naming the field.
pub fn to_sealed_json(m: &Manifest) -> Result<Vec<u8>> {
    let mut value = serde_json::to_value(m)?;
    let serde_json::Value::Object(map) = &mut value else {
        anyhow::bail!("a manifest serializes to a JSON object");
    };
    let fields: serde_json::Map<String, serde_json::Value> = map
        .iter()
        .map(|(k, v)| (k.clone(), field_hash(v).into()))
        .collect();
    let all = record_hash(&fields);
    map.insert(
        INTEGRITY.into(),
        serde_json::json!({ "fields": fields, "sha256": all }),
    );
    let mut json = serde_json::to_vec_pretty(&value)?;
    json.push(b'\n');
    Ok(json)
}

/// sha256 of one field's value in canonical JSON (object keys sorted, no whitespace).
fn field_hash(v: &serde_json::Value) -> String {
    sha256_hex(canonical(v).as_bytes())
}

/// sha256 over the per-field hashes, so the record itself cannot be edited to agree.
fn record_hash(fields: &serde_json::Map<String, serde_json::Value>) -> String {
    sha256_hex(canonical(&serde_json::Value::Object(fields.clone())).as_bytes())
}

/// JSON with object keys sorted at every level: one text per value, whatever the key order.
fn canonical(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::Value::String((*k).clone()),
                        canonical(&map[*k])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        serde_json::Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", parts.join(","))
        }
        other => other.to_string(),
    }
}

/// Checks a manifest's integrity record against its fields and returns the fields without it.
/// The error names the first field that differs from what was sealed.
fn check_integrity(value: serde_json::Value) -> std::result::Result<serde_json::Value, String> {
    let serde_json::Value::Object(mut map) = value else {
        return Err("not a JSON object".into());
    };
    let Some(record) = map.remove(INTEGRITY) else {
        return Err("it has no integrity record".into());
    };
    let fields = record
        .get("fields")
        .and_then(|f| f.as_object())
        .ok_or("its integrity record has no field hashes")?;
    let sealed_all = record.get("sha256").and_then(|s| s.as_str()).unwrap_or("");
    if record_hash(fields) != sealed_all {
        return Err("its integrity record was edited after sealing".into());
    }
    let mut names: Vec<&String> = map.keys().chain(fields.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let shown = crate::text::clean_line(name, 40);
        match (map.get(name.as_str()), fields.get(name.as_str())) {
            (Some(v), Some(h)) if h.as_str() == Some(field_hash(v).as_str()) => {}
            (Some(_), Some(_)) => return Err(format!("field `{shown}` was edited after sealing")),
            (Some(_), None) => return Err(format!("field `{shown}` was added after sealing")),
            (None, _) => return Err(format!("field `{shown}` was removed after sealing")),
        }
    }
    Ok(serde_json::Value::Object(map))
}

/// Writes `bytes` to `path` through a temp file in the same folder and a rename, so a file that
/// exists is whole. Refuses to replace an existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    if !force && path.exists() {
        return Err(Fail::new(
            Exit::Usage,
            format!("{} exists; pass --force to replace it", path.display()),
        )
        .into());
    }
    crate::files::write_atomic(path, bytes)
}

/// Where a manifest's recorded path points: the manifest's folder first, then the cwd.
pub fn resolve_input_path(manifest_path: &Path, recorded: &str) -> Option<PathBuf> {
    let rec = Path::new(recorded);
    if rec.is_absolute() {
        return rec.exists().then(|| rec.to_path_buf());
    }
    let dir = manifest_path.parent().unwrap_or(Path::new(""));
    let beside = dir.join(rec);
    if beside.exists() {
        return Some(beside);
    }
    rec.exists().then(|| rec.to_path_buf())
}

/// The outcome of comparing one thing with the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Status {
    /// Same content (or same sha, fingerprint).
    #[serde(rename = "match")]
    Match,
    /// Different content.
    #[serde(rename = "MISMATCH")]
    Mismatch,
    /// The file, or the manifest's entry, is not there.
    #[serde(rename = "MISSING")]
    Missing,
    /// Neither sealed nor given (a round without a protocol): nothing to compare, nothing wrong.
    #[serde(rename = "none")]
    NotUsed,
}

impl Status {
    /// Whether this comparison lets a round start: a match, or nothing used on either side.
    pub fn is_ok(self) -> bool {
        matches!(self, Status::Match | Status::NotUsed)
    }

    /// As printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Match => "match",
            Status::Mismatch => "MISMATCH",
            Status::Missing => "MISSING",
            Status::NotUsed => "none",
        }
    }
}

/// One line of a comparison: what, status, detail.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// `qset`, `seal`, `protocol`, `base`, `scorer`.
    pub what: String,
    /// The outcome.
    pub status: Status,
    /// Paths and shortened hashes; never file content.
    pub detail: String,
}

/// Compares a file's content with the manifest's entry for `role`.
pub fn check_file(
    manifest: &Manifest,
    role: Role,
    actual: Option<&Path>,
    manifest_path: &Path,
) -> Check {
    let entry = manifest.input(role);
    let path = match (actual, entry) {
        (Some(p), _) => Some(p.to_path_buf()),
        (None, Some(e)) => resolve_input_path(manifest_path, &e.path),
        (None, None) => None,
    };
    match (entry, path) {
        (None, None) => Check {
            what: role.as_str().into(),
            status: Status::NotUsed,
            detail: "not sealed and not given".into(),
        },
        (None, Some(p)) => Check {
            what: role.as_str().into(),
            status: Status::Missing,
            detail: format!(
                "{} is given but the manifest seals no {}",
                p.display(),
                role.as_str()
            ),
        },
        (Some(e), None) => Check {
            what: role.as_str().into(),
            status: Status::Missing,
            detail: format!(
                "sealed as {} but no such file",
                crate::text::clean_line(&e.path, 120)
            ),
        },
        (Some(e), Some(p)) => match fs::read(&p) {
            Err(err) => Check {
                what: role.as_str().into(),
                status: Status::Missing,
                detail: format!("{}: cannot read: {err}", p.display()),
            },
            Ok(bytes) => {
                let now = sha256_hex(&bytes);
                if now == e.sha256 {
                    Check {
                        what: role.as_str().into(),
                        status: Status::Match,
                        detail: format!("{} sha256 {}", p.display(), &now[..12]),
                    }
                } else {
                    Check {
                        what: role.as_str().into(),
                        status: Status::Mismatch,
                        detail: format!(
                            "{}: sealed {} now {}",
                            p.display(),
                            &e.sha256.get(..12).unwrap_or(&e.sha256),
                            &now[..12]
                        ),
                    }
                }
            }
        },
    }
}

/// For a round: like [`check_file`], but an input the manifest seals that this run does not
/// use is MISSING — a sealed protocol left off the command line would otherwise still "match"
/// through its recorded path while no prompt carries it.
pub fn check_used(
    manifest: &Manifest,
    role: Role,
    actual: Option<&Path>,
    manifest_path: &Path,
) -> Check {
    match (manifest.input(role), actual) {
        (Some(e), None) => Check {
            what: role.as_str().into(),
            status: Status::Missing,
            detail: format!(
                "sealed as {} but not given to this run",
                crate::text::clean_line(&e.path, 120)
            ),
        },
        _ => check_file(manifest, role, actual, manifest_path),
    }
}

/// Compares bytes already in hand (the embedded demo) with the manifest's entry.
pub fn check_bytes(manifest: &Manifest, role: Role, bytes: Option<&[u8]>, shown: &str) -> Check {
    let what = role.as_str().to_string();
    match (manifest.input(role), bytes) {
        (None, None) => Check {
            what,
            status: Status::NotUsed,
            detail: "not sealed and not given".into(),
        },
        (None, Some(_)) => Check {
            what,
            status: Status::Missing,
            detail: format!("{shown} is given but not sealed"),
        },
        (Some(_), None) => Check {
            what,
            status: Status::Missing,
            detail: "sealed but not given".into(),
        },
        (Some(e), Some(b)) => {
            let now = sha256_hex(b);
            let status = if now == e.sha256 {
                Status::Match
            } else {
                Status::Mismatch
            };
            Check {
                what,
                status,
                detail: format!("{shown} sha256 {}", &now[..12]),
            }
        }
    }
}

/// Compares the scorer this binary carries with the manifest's.
pub fn check_scorer(manifest: &Manifest) -> Check {
    let now = crate::reading::active().fingerprint();
    let status = if manifest.scorer.fingerprint == now {
        Status::Match
    } else {
        Status::Mismatch
    };
    let mut detail = format!(
        "sealed {} ({}), this build {} ({})",
        manifest
            .scorer
            .fingerprint
            .get(..12)
            .unwrap_or(&manifest.scorer.fingerprint),
        crate::text::clean_line(&manifest.scorer.lexicon_version, 40),
        &now[..12.min(now.len())],
        crate::reading::active().version()
    );
    detail.push_str(&token_rule_note(manifest, status));
    Check {
        what: "scorer".into(),
        status,
        detail,
    }
}

/// On a scorer mismatch, names the token rule when the manifest records one and this run reads
/// tokens another way (the fingerprint alone does not say which part of the reading moved).
fn token_rule_note(manifest: &Manifest, status: Status) -> String {
    let now = crate::reading::active().token_match.as_str();
    match manifest.scorer.token_match.as_deref() {
        Some(sealed) if status == Status::Mismatch && sealed != now => format!(
            "; token rule differs: sealed {sealed}, this run {now} (--token-match {sealed} reads as sealed)",
            sealed = crate::text::clean_line(sealed, 20)
        ),
        _ => String::new(),
    }
}

/// Compares a resolved base sha with the manifest's.
pub fn check_base(manifest: &Manifest, sha: &str) -> Check {
    let status = if manifest.base.sha == sha {
        Status::Match
    } else {
        Status::Mismatch
    };
    Check {
        what: "base".into(),
        status,
        detail: format!(
            "sealed {} now {}",
            manifest.base.sha.get(..12).unwrap_or(&manifest.base.sha),
            sha.get(..12).unwrap_or(sha)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn empty_and_missing_manifests_are_exit_10() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        let e = load(&p).unwrap_err();
        assert_eq!(crate::exit::exit_of(&e), Exit::ManifestMismatch);
        fs::write(&p, "  \n").unwrap();
        let e = load(&p).unwrap_err();
        assert_eq!(crate::exit::exit_of(&e), Exit::ManifestMismatch);
    }

    #[test]
    fn atomic_write_refuses_to_overwrite_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.json");
        write_atomic(&p, b"one", false).unwrap();
        assert!(write_atomic(&p, b"two", false).is_err());
        write_atomic(&p, b"two", true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
    }
}
