//! What `harness run` was asked, free of the command-line types (a leaf: the journal records it
//! and the round reads it, and it imports neither). Input: the parsed command
//! line. Output: [`RunOptions`], which the plan phase reads and the journal records (so
//! `--resume` with only `--out` can plan the same round again).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// Which arms a round runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arms {
    /// ARM only.
    Arm,
    /// CTRL only (the eligibility run; needs no seal).
    Ctrl,
    /// Both, paired.
    Both,
}

impl Arms {
    /// The arms to dispatch.
    pub fn list(self) -> Vec<scorer::Arm> {
        match self {
            Arms::Arm => vec![scorer::Arm::Arm],
            Arms::Ctrl => vec![scorer::Arm::Ctrl],
            Arms::Both => vec![scorer::Arm::Arm, scorer::Arm::Ctrl],
        }
    }

    /// As recorded: `ARM`, `CTRL`, `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            Arms::Arm => "ARM",
            Arms::Ctrl => "CTRL",
            Arms::Both => "both",
        }
    }
}

/// The demo's two questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DemoMode {
    /// ARM's prompt names the planted path.
    Deliver,
    /// Nothing tells the agent the seal exists.
    Discover,
}

impl DemoMode {
    /// As recorded in `round.json`: `deliver` or `discover`.
    pub fn as_str(self) -> &'static str {
        match self {
            DemoMode::Deliver => "deliver",
            DemoMode::Discover => "discover",
        }
    }
}

/// How the ledger gate treats a positive whose token the seal does not carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LedgerMode {
    /// Refused (exit 8): the seal must carry every positive.
    #[default]
    Strict,
    /// Listed, not refused, so a thinner hand-off can run on the same sealed questions;
    /// DELIVERY is reported over the carried positives and over all. Negative and planted-value
    /// checks still refuse.
    Report,
}

impl LedgerMode {
    /// As recorded in manifests, `round.json` and report headers: `strict` or `report`.
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerMode::Strict => reports::LEDGER_STRICT,
            LedgerMode::Report => reports::LEDGER_REPORT,
        }
    }
}

/// Everything `harness run` takes, free of the command-line types.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunOptions {
    /// The qset; `None` runs the demo.
    pub qset: Option<PathBuf>,
    /// The seal.
    pub seal: Option<PathBuf>,
    /// The repository.
    pub repo: Option<PathBuf>,
    /// `--base-ref`.
    pub base_ref: Option<String>,
    /// `--base-sha`.
    pub base_sha: Option<String>,
    /// Arms to run.
    pub arms: Arms,
    /// Repetitions.
    pub reps: u32,
    /// `--agent`.
    pub agent: Option<String>,
    /// `--model`.
    pub model: Option<String>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--deliver`.
    pub deliver: bool,
    /// `--protocol`.
    pub protocol: Option<PathBuf>,
    /// `--manifest`.
    pub manifest: Option<PathBuf>,
    /// `--jobs`.
    pub jobs: usize,
    /// `--timeout`.
    pub timeout: Duration,
    /// `--retries`.
    pub retries: u32,
    /// `--resume`.
    pub resume: bool,
    /// `--pass-env`.
    pub pass_env: Vec<String>,
    /// The judge as records name it (`--judge`, with `--judge-model`): sealed in the design.
    #[serde(default)]
    pub judge: Option<String>,
    /// How the judge is called (`--judge` and its flags), planned with the round: a `--resume`
    /// reads the answers with this judge, and refuses another.
    #[serde(default)]
    pub judge_call: Option<PlannedJudge>,
    /// `--prompt-stdin`.
    pub prompt_stdin: bool,
    /// `--plant-dir`.
    pub plant_dir: String,
    /// `--keep-checkouts`.
    pub keep_checkouts: bool,
    /// `--allow-contaminated`.
    pub allow_contaminated: bool,
    /// `--allow-repo-hooks`: under `--sandbox none`, run although the repository carries agent
    /// hooks or MCP servers.
    #[serde(default)]
    pub allow_repo_hooks: bool,
    /// `--sandbox`.
    pub sandbox: runners::SandboxMode,
    /// `--quiet`.
    pub quiet: bool,
    /// `--demo`.
    pub demo: Option<DemoMode>,
    /// `--no-preflight` (this run's choice, like `--jobs`: not carried into a resume).
    #[serde(default)]
    pub no_preflight: bool,
    /// `--lexicon`: the user's extension of the standard lexicon (recorded, so a resumed or
    /// collected round reads its answers as planned).
    #[serde(default)]
    pub lexicon: Option<PathBuf>,
    /// `--token-match`.
    #[serde(default)]
    pub token_match: scorer::TokenMatch,
    /// `--config FILE`: the user's `harness.toml` for this round, instead of the one in the
    /// user's config folder (recorded, so units and a resume read the same file).
    #[serde(default)]
    pub config: Option<PathBuf>,
    /// `--accept-change FIELD` (with `--resume`): what the answers depend on that may differ
    /// from the plan's hashes (`program`, `home_files`, `config`); each acceptance is recorded.
    #[serde(default)]
    pub accept_change: Vec<String>,
    /// `--ledger`: strict (default) or report.
    #[serde(default)]
    pub ledger: LedgerMode,
    /// `--dry-run`: every check, the dispatch count and the power line; nothing dispatched or
    /// written (this run's choice: never recorded).
    #[serde(skip)]
    pub dry_run: bool,
    /// `--verbose`: the full report tables before the closing brief (this run's choice, like
    /// `--quiet`: not recorded, so `harness collect` and a resume choose their own).
    #[serde(skip)]
    pub verbose: bool,
    /// `--format json`: the closing brief as one JSON document on stdout (this run's choice).
    #[serde(skip)]
    pub json: bool,
}

/// A round's judge as planned: the `--judge` spec and the flags of its calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedJudge {
    /// `--judge` as given.
    pub spec: String,
    /// `--judge-model`.
    pub model: Option<String>,
    /// `--judge-timeout`, seconds.
    pub timeout_secs: u64,
    /// `--judge-retries`.
    pub retries: u32,
    /// `--judge-jobs`.
    pub jobs: u32,
    /// `--judge-sandbox`, when given (else the round's `--sandbox`).
    pub sandbox: Option<runners::SandboxMode>,
}

impl RunOptions {
    /// The command line's defaults (`harness run --help`): `--resume` with only `--out` treats
    /// a flag left at its default as not given. A test keeps these equal to clap's.
    pub fn defaults() -> RunOptions {
        RunOptions {
            qset: None,
            seal: None,
            repo: None,
            base_ref: None,
            base_sha: None,
            arms: Arms::Both,
            reps: 3,
            agent: None,
            model: None,
            out: None,
            deliver: false,
            protocol: None,
            manifest: None,
            jobs: 4,
            timeout: Duration::from_secs(600),
            retries: 0,
            resume: false,
            pass_env: Vec::new(),
            judge: None,
            judge_call: None,
            prompt_stdin: false,
            plant_dir: "tracks/_meta/compaction".into(),
            keep_checkouts: false,
            allow_contaminated: false,
            allow_repo_hooks: false,
            sandbox: runners::SandboxMode::Auto,
            quiet: false,
            demo: None,
            no_preflight: false,
            lexicon: None,
            token_match: scorer::TokenMatch::Word,
            config: None,
            accept_change: Vec::new(),
            ledger: LedgerMode::Strict,
            dry_run: false,
            verbose: false,
            json: false,
        }
    }
}
