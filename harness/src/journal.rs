//! The round's on-disk record, written before the first agent starts: the plan (every
//! dispatch's label, question, arm, rep and prompt, and what a unit needs to run one), read back
//! by `unit`, `collect` and `--resume`. Also the one way files are written (temp + rename in the
//! same folder). Input: a [`Plan`] or an out-dir. Output: files under `<out>/journal/`.

use crate::round::options::{DemoMode, RunOptions};
use anyhow::{Context, Result};
use runners::Label;
use scorer::{Arm, Kind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The plan file's format.
pub const PLAN_FORMAT: &str = "harness-plan/1";

/// One planned dispatch: what it asks, in which arm, which rep, under which label.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Dispatch {
    /// The label of its (qid, arm); files are `<label>_r<rep>.*`.
    pub label: Label,
    /// The question id.
    pub qid: String,
    /// The question kind.
    pub kind: Kind,
    /// The arm.
    pub arm: Arm,
    /// 1-based repetition.
    pub rep: u32,
    /// The full prompt the agent gets.
    pub prompt: String,
}

impl Dispatch {
    /// `<label>_r<rep>`: the stem of every file of this dispatch.
    pub fn stem(&self) -> String {
        format!("{}_r{}", self.label.as_str(), self.rep)
    }
}

/// The base a unit rebuilds its view from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedBase {
    /// The repository's working tree (a temp folder for the demo, rebuilt from the binary).
    pub repo: PathBuf,
    /// The commit every dispatch sees.
    pub sha: String,
}

/// The seal a unit plants in ARM, checked by hash when read back.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedSeal {
    /// Where it was read (absolute; a temp file for the demo).
    pub path: PathBuf,
    /// Its planted name.
    pub name: String,
    /// sha256 of its bytes.
    pub sha256: String,
}

/// The agent a unit runs: re-parsed from the name and override, then compared with `template`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedAgent {
    /// `--agent` as resolved.
    pub name: String,
    /// The `harness.toml` command override, if any.
    pub override_template: Option<String>,
    /// The resolved argv template.
    pub template: Vec<String>,
    /// `--prompt-stdin`.
    pub prompt_stdin: bool,
}

/// A planned round: everything `unit N` and `collect` need, read from the out-dir alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// The out-dir (absolute).
    pub out: PathBuf,
    /// What `harness run` was asked (absolute paths; the demo's mode made explicit).
    pub options: RunOptions,
    /// The demo this round runs, when it does: its inputs are rebuilt from the binary.
    pub demo: Option<DemoMode>,
    /// The base.
    pub base: PlannedBase,
    /// The seal, unless CTRL only.
    pub seal: Option<PlannedSeal>,
    /// The agent.
    pub agent: PlannedAgent,
    /// Folders and files no sandboxed agent may read (the repository, the out-dir, the inputs).
    pub forbid: Vec<PathBuf>,
    /// Every dispatch, in a fixed order; a unit is an index into it.
    pub dispatches: Vec<Dispatch>,
}

impl Plan {
    /// The dispatch at `index`, or an error naming the range.
    pub fn dispatch(&self, index: usize) -> Result<&Dispatch> {
        self.dispatches.get(index).ok_or_else(|| {
            crate::exit::Fail::new(
                crate::exit::Exit::Usage,
                format!(
                    "unit {index}: the plan in {} has {} dispatches (0..{})",
                    self.out.display(),
                    self.dispatches.len(),
                    self.dispatches.len()
                ),
            )
            .into()
        })
    }

    /// label → (qid, arm), one entry per (question, arm).
    pub fn labels(&self) -> BTreeMap<(String, Arm), Label> {
        self.dispatches
            .iter()
            .map(|d| ((d.qid.clone(), d.arm), d.label.clone()))
            .collect()
    }
}

/// `<out>/journal`: inside the out-dir, which the sandbox forbids to every agent.
pub fn dir(out: &Path) -> PathBuf {
    out.join("journal")
}

/// `<out>/journal/plan.json`.
pub fn plan_path(out: &Path) -> PathBuf {
    dir(out).join("plan.json")
}

/// Writes the plan atomically.
pub fn save_plan(plan: &Plan) -> Result<()> {
    let json = serde_json::to_vec_pretty(plan)?;
    write_atomic(&plan_path(&plan.out), &json)
}

/// Reads the plan of the round in `out`.
pub fn load_plan(out: &Path) -> Result<Plan> {
    let p = plan_path(out);
    let bytes = std::fs::read(&p).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{}: cannot read the round's plan ({e}); is {} a round's out-dir?",
                p.display(),
                out.display()
            ),
        )
    })?;
    let plan: Plan = serde_json::from_slice(&bytes).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!("{}:{}: not a round plan: {e}", p.display(), e.line()),
        )
    })?;
    if plan.format != PLAN_FORMAT {
        return Err(crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{}: plan format {} is not {PLAN_FORMAT}",
                p.display(),
                plan.format
            ),
        )
        .into());
    }
    Ok(plan)
}

/// The labelmap lives beside the out-dir, never inside it, and is written only after every
/// dispatch has ended: a file that does not exist while agents run cannot be read by one.
pub fn labelmap_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "round".into());
    out.with_file_name(format!("{name}.labelmap"))
}

/// The labelmap's lines: `label|qid|ARM` (the seed's format).
pub fn read_labelmap(path: &Path) -> Result<BTreeMap<(String, Arm), Label>> {
    use crate::exit::{Exit, Fail};
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut map = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split('|').collect();
        let bad = || {
            Fail::new(
                Exit::Usage,
                format!(
                    "{}:{}: not a labelmap line (label|qid|arm)",
                    path.display(),
                    i + 1
                ),
            )
        };
        if parts.len() != 3 {
            return Err(bad().into());
        }
        let label = Label::parse(parts[0]).map_err(|_| bad())?;
        let arm: Arm = parts[2].parse().map_err(|_| bad())?;
        map.insert((parts[1].to_string(), arm), label);
    }
    Ok(map)
}

/// Writes the labelmap of a plan: one line per (question, arm).
pub fn write_labelmap(path: &Path, plan: &[Dispatch]) -> Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    let mut text = String::new();
    for d in plan {
        if seen.insert((d.qid.clone(), d.arm)) {
            text.push_str(&format!("{}|{}|{}\n", d.label.as_str(), d.qid, d.arm));
        }
    }
    write_atomic(path, text.as_bytes())
}

/// Writes `bytes` to `path` through a temp file in the same folder and a rename, so a file that
/// exists is whole.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temp file in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)
        .with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}
