//! The round record (`round.json`) and the per-dispatch records (`dispatches/<label>_r<n>.json`):
//! what a round ran with, so `rescore`, `report` and `--resume` can trust it. No label mapping in
//! it. Also where a round keeps its per-dispatch files ([`dispatch_dir`]).

use crate::gates::start::Axis;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The round record's format.
pub const ROUND_FORMAT: &str = "harness-round/1";

/// Where a round's phase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundStatus {
    /// Dispatching.
    Running,
    /// Stopped by Ctrl-C; `--resume` finishes it.
    Interrupted,
    /// Scored and marked.
    Done,
}

/// One sealed or used input.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InputRecord {
    /// qset, seal, protocol.
    pub role: String,
    /// The path as given.
    pub path: String,
    /// sha256 of the content.
    pub sha256: String,
}

/// The manifest comparison of this round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ManifestRecord {
    /// `match` or `UNVERIFIED` (a mismatch never starts a round).
    pub status: String,
    /// The manifest file, when given.
    pub path: Option<String>,
    /// One line per compared thing.
    pub checks: Vec<String>,
    /// The manifest sealed the round's design too (agent, arms, reps, mode, sandbox, timeout,
    /// retries, judge) and it matched; false without a manifest or with one from before.
    #[serde(default)]
    pub design_sealed: bool,
    /// The design the manifest sealed, when it sealed one: what `rejudge` and `rescore --judge`
    /// compare their judge with after the round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed: Option<crate::gates::manifest::Design>,
    /// Set when the answers were read by a judge other than the sealed one (`rejudge` or
    /// `rescore --judge` with `--accept-change judge`): what differs. The status is then
    /// [`JUDGE_CHANGED`], never `match`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_changed: Option<String>,
}

/// The manifest status of a round whose answers a judge other than the sealed one read.
pub const JUDGE_CHANGED: &str = "JUDGE_CHANGED";

/// The base commit of the round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BaseRecord {
    /// The repository (or `embedded:demo`).
    pub repo: String,
    /// The commit sha.
    pub sha: String,
    /// The ref given, if any.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// The user's working tree had uncommitted changes (the round used the commit).
    pub dirty: bool,
}

/// Per-status dispatch counts.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Counts {
    /// Dispatches planned: questions × arms × reps.
    pub planned: usize,
    /// Answer files present (`<label>_r<digits>.txt`).
    pub answered: usize,
    /// `.err` files present: checkout, start, timeout, kill, structured error.
    pub failed: usize,
}

/// `round.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RoundRecord {
    /// Format version.
    pub format: String,
    /// The harness that ran the round.
    pub harness_version: String,
    /// The scorer that scored it.
    pub scorer_fingerprint: String,
    /// Its lexicon version.
    pub lexicon_version: String,
    /// `deliver` or `discover` for the shipped demo.
    pub demo: Option<String>,
    /// qset, seal and protocol with hashes.
    pub inputs: Vec<InputRecord>,
    /// The seal's planted name.
    pub seal_name: Option<String>,
    /// Manifest status.
    pub manifest: ManifestRecord,
    /// The base.
    pub base: BaseRecord,
    /// The agent spec as given.
    pub agent: String,
    /// The agent's command template as resolved (preset, `harness.toml` override or template):
    /// the same name can run another command, so `--resume` compares this.
    #[serde(default)]
    pub agent_command: Vec<String>,
    /// What the preset changed from the CLI's defaults, and the files carried into each home.
    #[serde(default)]
    pub agent_notes: Vec<String>,
    /// The agent CLI's `--version` line when the agent is a preset CLI found on PATH; `None`
    /// for a built-in or `command:` agent, and for rounds recorded before it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_version: Option<String>,
    /// The preflight's result, `None` when skipped with `--no-preflight`.
    #[serde(default)]
    pub preflight: Option<String>,
    /// `--prompt-stdin`.
    #[serde(default)]
    pub prompt_stdin: bool,
    /// `--sandbox` as requested.
    #[serde(default)]
    pub sandbox: String,
    /// The model, if given.
    pub model: Option<String>,
    /// Repetitions.
    pub reps: u32,
    /// ARM, CTRL or both.
    pub arms: String,
    /// Whether ARM's prompt named the seal.
    pub deliver: bool,
    /// Where the seal is planted in a checkout.
    pub plant_path: String,
    /// Parallel dispatches.
    pub jobs: usize,
    /// Per-dispatch timeout.
    pub timeout_secs: u64,
    /// Infrastructure retries allowed.
    pub retries: u32,
    /// `--pass-env` names.
    pub pass_env: Vec<String>,
    /// Names (never values) of the variables an agent received.
    pub env_names: Vec<String>,
    /// `--allow-contaminated` was given.
    pub contamination_override: bool,
    /// The contamination axis was refused and overridden: every number is watermarked.
    pub contaminated: bool,
    /// The start gate's axes.
    pub gate: Vec<Axis>,
    /// The isolation level agents ran under.
    pub isolation: String,
    /// How the dispatches' checkouts were made (`overlay`, `copy`, or `MIXED: …`); empty
    /// before any dispatch ran.
    #[serde(default)]
    pub checkout: String,
    /// Where the dispatches' time went, phase by phase (median and max; issue 23); empty for
    /// rounds recorded before phases were timed.
    #[serde(default)]
    pub phases: Vec<reports::PhaseStat>,
    /// Start time (RFC 3339).
    pub started: String,
    /// End time, when finished.
    pub finished: Option<String>,
    /// Phase.
    pub status: RoundStatus,
    /// Dispatch counts.
    pub counts: Counts,
    /// The seed of the dispatch order (`round::order`): blocks of one (question, rep) holding
    /// every arm, shuffled. `None` for rounds recorded before the order was shuffled (they ran
    /// in qset order, and resume so).
    #[serde(default)]
    pub order_seed: Option<u64>,
    /// Changes of what the answers depend on (program, home files, harness.toml values) that
    /// a resume accepted with `--accept-change`, each with its time and both hashes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepted_changes: Vec<String>,
    /// Every dispatch's arm and start/end times (from its record), for the report's arm × time
    /// section; empty for rounds recorded before dispatch times were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<reports::timeline::DispatchSpan>,
    /// Every answered dispatch's effort (its agent's reported turns, tokens, cost and tool
    /// calls, and the harness's wall time), for the report's effort section; empty for rounds
    /// recorded before effort was kept. Never read by a verdict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effort: Vec<reports::effort::DispatchEffort>,
    /// The second reader that last read the round's answers (`rejudge`, `run --judge`): who
    /// (spec, model, rubric), under which sandbox and limits, when, and what the pass cost.
    /// Absent for rounds no judge read and for rounds recorded before it was (they load as
    /// `None` and every report says "no judge").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<reports::judge::JudgeInfo>,
    /// `--ledger`: `strict` (rounds before the flag) or `report`.
    #[serde(default = "ledger_strict")]
    pub ledger: String,
    /// Under `--ledger report`: the positive qids the seal does not carry, as the gate found them.
    #[serde(default)]
    pub uncarried: Vec<String>,
    /// The agent configuration every checkout carries (the tree at base): settings, hooks, MCP
    /// servers, permission allow-lists and instruction files, each with its sha256. `None` for
    /// rounds recorded before it was (reports say "not recorded"); empty when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo_agent_config: Option<Vec<crate::agents::repo_config::RepoAgentFile>>,
    /// `--allow-repo-hooks` was given.
    #[serde(default)]
    pub allow_repo_hooks: bool,
}

/// The ledger of a round recorded before `--ledger` existed.
fn ledger_strict() -> String {
    reports::LEDGER_STRICT.into()
}

impl RoundRecord {
    /// The input of a role.
    pub fn input(&self, role: &str) -> Option<&InputRecord> {
        self.inputs.iter().find(|i| i.role == role)
    }

    /// What differs from an earlier record in the things `--resume` must keep equal.
    pub fn resume_differences(&self, old: &RoundRecord) -> Vec<String> {
        let mut d = Vec::new();
        let hashes = |r: &RoundRecord| {
            let mut v: Vec<(String, String)> = r
                .inputs
                .iter()
                .map(|i| (i.role.clone(), i.sha256.clone()))
                .collect();
            v.sort();
            v
        };
        if hashes(self) != hashes(old) {
            d.push("input hashes differ".into());
        }
        if self.base.sha != old.base.sha {
            d.push("base differs".into());
        }
        if self.agent != old.agent {
            d.push("agent differs".into());
        }
        if self.model != old.model {
            d.push("model differs".into());
        }
        if self.reps != old.reps {
            d.push("reps differ".into());
        }
        if self.arms != old.arms {
            d.push("arms differ".into());
        }
        if self.deliver != old.deliver {
            d.push("--deliver differs".into());
        }
        if self.agent_command != old.agent_command {
            d.push("agent command differs (harness.toml or template)".into());
        }
        if self.prompt_stdin != old.prompt_stdin {
            d.push("--prompt-stdin differs".into());
        }
        if self.sandbox != old.sandbox {
            d.push("--sandbox differs".into());
        }
        if self.timeout_secs != old.timeout_secs {
            d.push("--timeout differs".into());
        }
        if self.pass_env != old.pass_env {
            d.push("--pass-env differs".into());
        }
        if self.plant_path != old.plant_path {
            d.push("plant path differs".into());
        }
        if self.scorer_fingerprint != old.scorer_fingerprint {
            d.push("scorer differs (use harness rescore after the round)".into());
        }
        d
    }
}

/// Writes `round.json` atomically.
pub fn save_round(out: &Path, record: &RoundRecord) -> Result<()> {
    let json = serde_json::to_vec_pretty(record)?;
    crate::gates::manifest::write_atomic(&out.join("round.json"), &json, true)
}

/// Reads `round.json`.
pub fn load_round(out: &Path) -> Result<RoundRecord> {
    let p = out.join("round.json");
    let bytes = std::fs::read(&p).with_context(|| format!("reading {}", p.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!("{}:{}: not a round record: {e}", p.display(), e.line()),
        )
        .into()
    })
}

/// How a dispatch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DispatchStatus {
    /// Not finished (the record of a dispatch that never got far).
    Pending,
    /// The answer file was written.
    Answered,
    /// Checkout, start, timeout, kill or structured error: a `.err` file says why.
    Failed,
    /// Stopped by Ctrl-C.
    Cancelled,
}

/// `<label>_r<n>.json` (in [`dispatch_dir`]): one dispatch's facts, never its qid or arm.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DispatchRecord {
    /// `<label>_r<n>`.
    pub stem: String,
    /// How it ended.
    pub status: DispatchStatus,
    /// Why it failed, when it did.
    pub reason: Option<String>,
    /// Exit code of the agent, when it exited.
    pub exit_code: Option<i32>,
    /// Signal that ended it, when killed.
    pub signal: Option<i32>,
    /// The timeout fired.
    pub timed_out: bool,
    /// Wall time in seconds.
    pub duration_secs: f64,
    /// Start (ms since the epoch).
    pub started_unix_ms: u64,
    /// End (ms since the epoch).
    pub ended_unix_ms: u64,
    /// Names of the variables the agent received.
    pub env_names: Vec<String>,
    /// Earlier attempts that failed for infrastructure reasons.
    pub retries: Vec<String>,
    /// The checkout's verification record.
    pub treediff: Option<serde_json::Value>,
    /// The isolation level the sandbox wrapper reported for this dispatch.
    pub isolation: Option<String>,
    /// sha256 of the answer file, recorded before the answer is written: `report`, `rescore`
    /// and `--resume` compare it with the file, so an edited answer is seen, never scored.
    #[serde(default)]
    pub answer_sha256: Option<String>,
    /// Processes the agent left running when it ended (`pid N (comm)`), each killed by the
    /// dispatch's reaper or found holding its output.
    #[serde(default)]
    pub stray_processes: Vec<String>,
    /// What the agent's structured output says it did (turns, tokens, cost, denials, tool
    /// errors); absent for text agents' unreported fields.
    #[serde(default)]
    pub activity: Option<runners::AgentActivity>,
    /// How the checkout was made: `overlay` (mounted in the sandbox) or `copy` (issue 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkout: Option<String>,
    /// When the unit began this dispatch (ms since the epoch): before the checkout, so a
    /// dispatch whose agent never started still has a time. `None` in older records.
    #[serde(default)]
    pub dispatch_started_unix_ms: Option<u64>,
    /// When the unit finished it (after the last attempt).
    #[serde(default)]
    pub dispatch_ended_unix_ms: Option<u64>,
    /// Where the last attempt's wall time went, phase by phase (issue 23); absent in records
    /// written before phases were timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<PhaseTimings>,
}

/// One dispatch attempt's wall time split into the harness's phases, in milliseconds, so a
/// user sees which part of a round's time is the instrument's own and whether it grows with
/// the repository. A phase the attempt never reached, or whose clock the sandbox did not
/// report, is `None` (never 0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseTimings {
    /// A fresh dispatch folder, the checkout (overlay layers or a copy), the plant and the
    /// treediff of what the checkout holds beyond the base.
    pub checkout_ms: Option<f64>,
    /// The fresh home: credentials copied in, the agent's settings, the prompt file.
    pub home_ms: Option<f64>,
    /// From starting the sandbox wrapper to the agent's exec: namespaces, `/proc`, the
    /// overlay mount and Landlock.
    pub sandbox_ms: Option<f64>,
    /// The agent's own run, from its exec until it and what it started were gone.
    pub agent_ms: Option<f64>,
    /// From the agent's end until the runner saw the wrapper exit: the namespaces' teardown
    /// (the overlay's unmount among it).
    pub teardown_ms: Option<f64>,
    /// After the run: the stderr file, the dispatch folder's removal, reading the answer.
    pub cleanup_ms: Option<f64>,
}

impl PhaseTimings {
    /// The phases by name, in the order a dispatch goes through them.
    pub fn named(&self) -> [(&'static str, Option<f64>); 6] {
        [
            ("checkout", self.checkout_ms),
            ("home", self.home_ms),
            ("sandbox", self.sandbox_ms),
            ("agent", self.agent_ms),
            ("teardown", self.teardown_ms),
            ("cleanup", self.cleanup_ms),
        ]
    }

    /// Splits the runner's observed process time (`spawn_us`..`end_us`) at the wrapper's
    /// exec and agent-end stamps. A stamp outside that span (a clock step) is not used: the
    /// phases it bounds are `None` and the whole span is the agent's.
    pub fn split_process(
        &mut self,
        spawn_us: u64,
        end_us: u64,
        exec_us: Option<u64>,
        agent_end_us: Option<u64>,
    ) {
        let ms = |a: u64, b: u64| (b.saturating_sub(a)) as f64 / 1000.0;
        let inside = |t: u64| spawn_us <= t && t <= end_us;
        match (exec_us, agent_end_us) {
            (Some(x), Some(e)) if inside(x) && inside(e) && x <= e => {
                self.sandbox_ms = Some(ms(spawn_us, x));
                self.agent_ms = Some(ms(x, e));
                self.teardown_ms = Some(ms(e, end_us));
            }
            (Some(x), _) if inside(x) => {
                self.sandbox_ms = Some(ms(spawn_us, x));
                self.agent_ms = Some(ms(x, end_us));
            }
            _ => self.agent_ms = Some(ms(spawn_us, end_us)),
        }
    }
}

impl DispatchRecord {
    /// A pending record.
    pub fn new(stem: &str) -> Self {
        DispatchRecord {
            stem: stem.into(),
            status: DispatchStatus::Pending,
            reason: None,
            exit_code: None,
            signal: None,
            timed_out: false,
            duration_secs: 0.0,
            started_unix_ms: 0,
            ended_unix_ms: 0,
            env_names: Vec::new(),
            retries: Vec::new(),
            treediff: None,
            isolation: None,
            answer_sha256: None,
            stray_processes: Vec::new(),
            activity: None,
            checkout: None,
            dispatch_started_unix_ms: None,
            dispatch_ended_unix_ms: None,
            phases: None,
        }
    }

    /// Copies what the process runner observed.
    pub fn fill_from(&mut self, o: &runners::RunOutcome) {
        self.exit_code = o.exit_code;
        self.signal = o.signal;
        self.timed_out = o.timed_out;
        self.duration_secs = o.duration.as_secs_f64();
        self.started_unix_ms = o.started_unix_ms;
        self.ended_unix_ms = o.ended_unix_ms;
        self.env_names = o.env_names.clone();
        self.stray_processes = o.stray_processes.clone();
    }
}

/// Now, in ms since the epoch (0 for a clock before 1970).
pub fn now_unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Whether a file name is an answer file by the strict pattern `<label>_r<digits>.txt`
/// (a label is 10 characters of a–z and 2–7). Sidecars (`.prompt`, `.stderr`) never count.
pub fn is_answer_file(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".txt") else {
        return false;
    };
    let Some((label, rep)) = stem.rsplit_once("_r") else {
        return false;
    };
    label.len() == 10
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'2'..=b'7').contains(&b))
        && !rep.is_empty()
        && rep.bytes().all(|b| b.is_ascii_digit())
}

/// The folder of a new round's per-dispatch files, inside its out-dir.
pub const DISPATCH_DIR: &str = "dispatches";

/// The extensions of a dispatch's files: answer, record, prompt, stderr, raw output, failure.
const DISPATCH_EXTS: [&str; 6] = ["txt", "json", "prompt", "stderr", "raw", "err"];

/// Where the round in `out` keeps its per-dispatch files (`<stem>.txt`, `.json`, `.prompt`,
/// `.stderr`, `.raw`, `.err`). It exists so that one place decides the layout, for writers and
/// readers alike: `<out>/dispatches` when that folder exists; else `out` itself when `out`
/// already holds a dispatch's file at its top level (a round from before the folder, read and
/// resumed in its own layout, never half-moved); else `<out>/dispatches` (a new round: the
/// folder is created by the first write).
pub fn dispatch_dir(out: &Path) -> PathBuf {
    let folder = out.join(DISPATCH_DIR);
    if folder.is_dir() || !holds_flat_dispatch_files(out) {
        return folder;
    }
    out.to_path_buf()
}

/// The path of dispatch `stem`'s file with extension `ext` (no dot) in the round in `out`, in
/// that round's layout ([`dispatch_dir`]): every reader and writer of a dispatch's files builds
/// its path here.
pub fn dispatch_file(out: &Path, stem: &str, ext: &str) -> PathBuf {
    dispatch_dir(out).join(format!("{stem}.{ext}"))
}

/// Whether `out`'s top level holds a file of a dispatch: an answer file, or a `<stem>.<ext>`
/// of the stem shape (`<anything>_r<digits>`, which also covers the seed's `<qid>_<ARM>_r<n>`).
fn holds_flat_dispatch_files(out: &Path) -> bool {
    let Ok(rd) = std::fs::read_dir(out) else {
        return false;
    };
    rd.flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        is_answer_file(&name) || is_stem_shaped(&name)
    })
}

/// `<anything>_r<digits>.<ext>` for a dispatch file's extension.
fn is_stem_shaped(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let Some((head, rep)) = stem.rsplit_once("_r") else {
        return false;
    };
    DISPATCH_EXTS.contains(&ext)
        && !head.is_empty()
        && !rep.is_empty()
        && rep.bytes().all(|b| b.is_ascii_digit())
}

/// The records of every planned dispatch that has one (`<stem>.json`), this run's or an earlier
/// one's (`--resume`): the round's isolation and environment names come from all of them.
pub fn dispatch_records<'a>(
    out: &Path,
    stems: impl IntoIterator<Item = &'a str>,
) -> Vec<DispatchRecord> {
    stems
        .into_iter()
        .filter_map(|stem| std::fs::read(dispatch_file(out, stem, "json")).ok())
        .filter_map(|b| serde_json::from_slice(&b).ok())
        .collect()
}

/// Each answered dispatch's effort, from its record: what its agent reported (the last
/// attempt's; a retried dispatch's failed attempts are not in it) and the wall time the runner
/// measured. A dispatch without a record or not answered has none (it has no row either).
pub fn dispatch_efforts(
    plan: &[crate::round::journal::Dispatch],
    records: &[DispatchRecord],
) -> Vec<reports::effort::DispatchEffort> {
    plan.iter()
        .filter_map(|d| {
            let stem = d.stem();
            let r = records
                .iter()
                .find(|r| r.stem == stem && r.status == DispatchStatus::Answered)?;
            let a = r.activity.clone().unwrap_or_default();
            Some(reports::effort::DispatchEffort {
                qid: d.qid.clone(),
                arm: d.arm,
                rep: d.rep,
                turns: a.turns,
                input_tokens: a.input_tokens,
                output_tokens: a.output_tokens,
                cost_usd: a.cost_usd,
                tool_calls: a.tool_calls,
                wall_secs: r.duration_secs,
            })
        })
        .collect()
}

/// Counts the answer files and `.err` files of the round in `out`, against `planned` dispatches.
pub fn count_dispatches(out: &Path, planned: usize) -> Counts {
    let mut answered = 0;
    let mut failed = 0;
    if let Ok(rd) = std::fs::read_dir(dispatch_dir(out)) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if is_answer_file(&name) {
                answered += 1;
            } else if name.ends_with(".err") {
                failed += 1;
            }
        }
    }
    Counts {
        planned,
        answered,
        failed,
    }
}

/// Each phase's median and maximum over the answered dispatches' records (a failed attempt's
/// partial phases would drag the medians toward whatever it reached).
pub fn phase_stats(records: &[DispatchRecord]) -> Vec<reports::PhaseStat> {
    let timed: Vec<[(&'static str, Option<f64>); 6]> = records
        .iter()
        .filter(|r| r.status == DispatchStatus::Answered)
        .filter_map(|r| r.phases.as_ref().map(PhaseTimings::named))
        .collect();
    reports::phases::summarize(timed.iter().map(|p| p.as_slice()))
}

/// The round's checkout method from its dispatches' records: one value when they agree.
pub fn checkout_methods(records: &[DispatchRecord]) -> String {
    let mut m: Vec<&str> = records
        .iter()
        .filter_map(|r| r.checkout.as_deref())
        .collect();
    m.sort();
    m.dedup();
    match m.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        many => format!("MIXED: {}", many.join(" | ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_time_splits_at_the_wrappers_stamps_and_a_stamp_outside_it_is_not_used() {
        let mut p = PhaseTimings::default();
        p.split_process(1_000_000, 1_100_000, Some(1_020_000), Some(1_090_000));
        assert_eq!(p.sandbox_ms, Some(20.0));
        assert_eq!(p.agent_ms, Some(70.0));
        assert_eq!(p.teardown_ms, Some(10.0));
        // No end stamp (a wrapper killed by the timeout): setup and the rest.
        let mut p = PhaseTimings::default();
        p.split_process(1_000_000, 1_100_000, Some(1_020_000), None);
        assert_eq!(
            (p.sandbox_ms, p.agent_ms, p.teardown_ms),
            (Some(20.0), Some(80.0), None)
        );
        // A stamp before the spawn (the wall clock stepped back): not split, nothing invented.
        let mut p = PhaseTimings::default();
        p.split_process(1_000_000, 1_100_000, Some(900_000), Some(1_090_000));
        assert_eq!(
            (p.sandbox_ms, p.agent_ms, p.teardown_ms),
            (None, Some(100.0), None)
        );
    }

    #[test]
    fn only_strict_answer_names_count() {
        assert!(is_answer_file("abcdefgh23_r1.txt"));
        assert!(is_answer_file("abcdefgh23_r12.txt"));
        assert!(!is_answer_file("abcdefgh23_r1.prompt"));
        assert!(!is_answer_file("abcdefgh23_r1.stderr.txt"));
        assert!(!is_answer_file("abcdefgh23_rx.txt"));
        assert!(!is_answer_file("q1_ARM_r1.txt"));
        assert!(!is_answer_file("ABCDEFGH23_r1.txt"));
    }

    #[test]
    fn a_round_keeps_its_dispatch_files_where_it_began() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path();
        let folder = out.join(DISPATCH_DIR);
        // A new round (nothing, or only the round's own files): the folder, made by the writer.
        assert_eq!(dispatch_dir(out), folder);
        for name in ["round.json", "summary.json", "report.md", "ROUND_DONE"] {
            std::fs::write(out.join(name), "").unwrap();
        }
        std::fs::create_dir(out.join("journal")).unwrap();
        assert_eq!(dispatch_dir(out), folder);
        assert_eq!(
            dispatch_file(out, "abcdefgh23_r1", "txt"),
            folder.join("abcdefgh23_r1.txt")
        );
        // An older round: any dispatch file at the top level keeps the flat layout.
        for name in [
            "abcdefgh23_r1.txt",
            "abcdefgh23_r1.prompt",
            "abcdefgh23_r2.json",
            "abcdefgh23_r1.err",
            "q1_ARM_r1.txt",
        ] {
            std::fs::write(out.join(name), "").unwrap();
            assert_eq!(dispatch_dir(out), out, "{name}");
            std::fs::remove_file(out.join(name)).unwrap();
        }
        assert_eq!(dispatch_dir(out), folder);
        // Once the folder exists it wins, whatever else is there.
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(out.join("abcdefgh23_r1.txt"), "").unwrap();
        assert_eq!(dispatch_dir(out), folder);
    }
}
