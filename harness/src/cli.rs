//! The command line: clap derive types only. The logic they configure lives in the library
//! modules; `main.rs` maps one to the other.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const ABOUT: &str = "Measures context continuity of coding agents.

Holding only the hand-off document (the \"seal\"), can an isolated fresh agent session \
answer pre-registered questions about what came before, and does it say \"I don't know\" where the \
hand-off is silent? harness runs paired arms (ARM: seal planted; CTRL: no seal) in isolated checkouts \
and scores the answers with a deliberately conservative scorer guarded by gates.

It measures whether the hand-off suffices, not \"how much compaction lost\".";

const AFTER: &str = "Start here:
  harness run                     the shipped demo round (no network, no API keys)
  harness run --demo discover     the same without --deliver: is the seal discoverable?
  harness self-test               the scorer's lanes and the instrument lanes";

/// `harness`: the whole CLI.
#[derive(Debug, Parser)]
#[command(name = "harness", version = harness::version_line(), about = ABOUT,
          after_help = AFTER, after_long_help = harness::long_after_help())]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Colour on the terminal: auto (only on a terminal, off under NO_COLOR), always, never.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    pub color: ColorArg,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Gates, then dispatch every (question × arm × rep) in parallel, score, report, and write
    /// the completion marker. With no flags: the shipped demo round.
    Run(Box<RunArgs>),
    /// Re-score the answers of a finished round with today's scorer. Runs no agent, no gate.
    Rescore(RescoreArgs),
    /// The scorer's fixture lanes and the instrument lanes; exit 1 on any failure. Runs anywhere:
    /// outside the harness checkout the source-tree lanes (L13) are skipped and counted apart.
    #[command(name = "self-test")]
    SelfTest(SelfTestArgs),
    /// Pre-registration: run the start gate (phase post), then write the manifest.
    Seal(SealArgs),
    /// Compare files, base and scorer fingerprint with a manifest; exit 10 on any mismatch.
    Verify(VerifyArgs),
    /// The start gate alone, for authors writing a qset.
    Gate(GateArgs),
    /// Classify answers: one file, many files to one question, or a JSONL batch.
    Score(ScoreArgs),
    /// Render an existing round.
    Report(ReportArgs),
    /// Did round B's hand-off carry more than round A's? Two finished rounds on the same sealed
    /// qset and base (or two folders of rounds, pooled per item), paired by item: per axis the
    /// A→B difference of ARM rates over items, by the exact sign test over items and the 95%
    /// interval of the median difference it inverts to; per item each round's rate and B−A (no
    /// per-item test: an item's reps are not independent items); the items that flipped, with
    /// their answers; the smallest p this many items can reach; effort. What differs between the
    /// rounds is stated first; two rounds of the same setup are the noise floor and say so. Exit 0
    /// with a result (never a verdict code); exit 10 naming the field when the qset or base differ.
    Compare(CompareArgs),
    /// What a round needs on this machine, and whether it is there.
    Doctor(DoctorArgs),
    /// The refusal lexicon: measure it against human labels, find what a round could not read.
    #[command(subcommand)]
    Lexicon(LexiconCommand),
    /// The second reader: measure a judge against human labels (its calibration).
    #[command(subcommand)]
    Judge(JudgeCommand),
    /// What a report's words mean: every number, verdict and class (DELIVERY, HUI, LUCKY, MR,
    /// D, TYPED, VOID, FINDING, PASS, PRIOR_WON, ...) in a user's words, with what to expect
    /// from ARM and from CTRL. Without TERM: every term, one line each.
    Explain(ExplainArgs),
    /// Remove the temp folders (checkouts, seal copies) of rounds whose harness is gone.
    /// Folders of running rounds are left alone. `harness run` does this itself at start.
    Clean,
    /// Plan a round without running it: gates, manifest check and the journal in --out; prints
    /// the number of units. Takes the flags of `run`. Then `harness unit` for each index (on
    /// any machine that shares the out-dir) and `harness collect`.
    Plan(Box<RunArgs>),
    /// Run one unit (dispatch) of a planned round. Idempotent: a unit whose answer is already
    /// recorded does nothing, so retries and preempted tasks are safe to run again.
    Unit(UnitArgs),
    /// Score a round whose units have run: checks every unit, scores, writes the reports and
    /// ROUND_DONE. Missing units are listed and the exit is 13, as for failed dispatches.
    Collect(CollectArgs),
    /// A person settles the rows no reader decided (UNDETERMINED, CONTESTED), then the round's
    /// reports, summary.json and ROUND_DONE are re-derived (ROUND_DONE last). In a terminal:
    /// one row at a time, one key per class of the row's kind (no Enter), s to skip, q or
    /// Ctrl-C to quit (decisions are saved as made; run again to resume). For scripts: --set
    /// LABEL:REP=CLASS (repeatable) or --from FILE. Only the classes of the row's kind are
    /// accepted, in any case (pass = PASS): positive: PASS, REFUSED_WITH_TOKEN, FAIL; negative:
    /// PASS, HALLUCINATED, REFUSED_WITH_TOKEN, FAIL; conflict: CONFLICT_FOLLOWED,
    /// ABSTAINED_ON_CONFLICT, PRIOR_WON (only where the question has a general value),
    /// UNCLASSIFIED. Decisions go to review.jsonl in the out-dir with reviewer, time and the sha256
    /// of the answer read; a decision on an answer that changed since is refused. Holds the
    /// round's locks; refuses (writing nothing) while a unit runs or an answer is not the one
    /// the harness wrote. Exits with the round's verdict.
    Review(ReviewArgs),
    /// Add a judge's readings to a finished round without re-running any agent: every
    /// non-empty answer is read by --judge with the scorer's rubric (never told its arm); the
    /// readings go to judge.jsonl in the out-dir (atomically; rows judged again replace
    /// their earlier reading); then reports, summary.json and ROUND_DONE are re-derived and
    /// each row says who decided it (lexicon, both, judge, person) or that it is CONTESTED or
    /// UNDETERMINED. Exits with the round's verdict (14 NEEDS_REVIEW when undecided rows decide it).
    Rejudge(RejudgeArgs),
    /// Built-in deterministic agents (used by `--agent baseline-grep`).
    #[command(name = "__agent", hide = true)]
    Agent(AgentArgs),
    /// The sandbox wrapper every agent runs through (`--sandbox`).
    #[command(name = "__sandbox", hide = true)]
    Sandbox(SandboxArgs),
}

/// `harness explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The word, as a report prints it (case does not matter), e.g. HUI, "LUCKY (CTRL)", PRIOR_WON.
    #[arg(value_name = "TERM")]
    pub term: Option<String>,
}

/// Where the base comes from: a repository and a pinned commit.
#[derive(Debug, Args, Clone, Default)]
pub struct BaseArgs {
    /// The git repository the agent works in [default: the one the command runs in].
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// The ref of the base commit (e.g. main). With --base-sha, both must name the same commit.
    #[arg(long, value_name = "REF")]
    pub base_ref: Option<String>,
    /// The sha of the base commit. Refs move; a sha does not.
    #[arg(long, value_name = "SHA")]
    pub base_sha: Option<String>,
}

/// Which reading of the answers: extra lexicon patterns and the token rule. Both join the
/// scorer fingerprint recorded in manifests, round.json and reports.
#[derive(Debug, Args, Clone)]
pub struct ReadingArgs {
    /// Extra refusal / clarify / conflict-flag patterns (TOML), each with its observed example.
    #[arg(long, value_name = "FILE")]
    pub lexicon: Option<PathBuf>,
    /// How tokens are found: word (default) or exact (byte-exact, as rounds scored before lexicon
    /// 2.0.0 were read).
    #[arg(long, value_enum, default_value = "word")]
    pub token_match: TokenMatchArg,
}

/// The second reader (`--judge`): an LLM reading each answer with the scorer's rubric. A call
/// that fails, times out or answers anything but the rubric's strict JSON is no reading.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Second reader")]
pub struct JudgeArgs {
    /// The judge: claude, codex or gemini (run with tools off in an empty temp folder with a
    /// fresh home, under --judge-sandbox), command:TEMPLATE ({prompt} or {prompt_file},
    /// {model}; prints the JSON on stdout; also sandboxed), or openai:URL (an
    /// OpenAI-compatible endpoint over plain http, e.g. openai:http://127.0.0.1:8080/v1;
    /// needs --judge-model).
    #[arg(long, value_name = "AGENT")]
    pub judge: Option<String>,
    /// The model the judge is asked for ({model} in a template; required for openai:).
    #[arg(long, value_name = "NAME", requires = "judge")]
    pub judge_model: Option<String>,
    /// Seconds one judge call may take before it is no reading.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..), requires = "judge")]
    pub judge_timeout: u64,
    /// Extra attempts after a call that gave no reading.
    #[arg(long, default_value_t = 1, requires = "judge")]
    pub judge_retries: u32,
    /// Judge calls run at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256), requires = "judge")]
    pub judge_jobs: u32,
    /// The sandbox a preset or command: judge runs in, as an agent's --sandbox (its checkout
    /// is the empty folder: it reads neither your home, nor the repository, nor the out-dir)
    /// [default: auto, whatever the round's --sandbox]. An openai: judge runs no process
    /// here: nothing to sandbox.
    #[arg(long, value_enum, value_name = "MODE", requires = "judge")]
    pub judge_sandbox: Option<SandboxArg>,
}

/// `--ledger`: what the ledger gate does with a positive the seal does not carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LedgerArg {
    /// Refuse the seal (exit 8): it must carry every positive.
    Strict,
    /// List the missing positives and run: DELIVERY over the carried positives, and beside it
    /// over all positives (the hand-off's coverage); INSTRUMENT_INCOMPLETE judges the carried
    /// ones only. A negative or true value in the seal, or a missing planted value, still
    /// refuses. Recorded in the manifest and every report header.
    Report,
}

/// Which arms to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArmsArg {
    /// ARM only (seal planted).
    #[value(name = "ARM")]
    Arm,
    /// CTRL only: the eligibility run before sealing; needs no seal.
    #[value(name = "CTRL")]
    Ctrl,
    /// Both arms, paired.
    #[value(name = "both")]
    Both,
}

/// The demo's two questions: is the seal discoverable, and is it enough when handed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DemoArg {
    /// "Is it enough when handed over?": ARM's prompt names the planted path.
    Deliver,
    /// "Is it discoverable?": nothing tells the agent the seal exists.
    Discover,
}

/// Isolation levels for agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SandboxArg {
    /// The strongest this kernel allows; says which layer is missing.
    Auto,
    /// Namespaces and Landlock; refuse to start (exit 8) if any layer is missing.
    Full,
    /// Landlock only.
    Landlock,
    /// No sandbox: the agent sees whatever its user can read.
    None,
}

/// `harness run`.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// The question set (TSV). Without --qset, the shipped demo runs.
    #[arg(long, value_name = "FILE")]
    pub qset: Option<PathBuf>,
    /// The hand-off planted into ARM. Required unless --arms CTRL.
    #[arg(long, value_name = "FILE")]
    pub seal: Option<PathBuf>,
    /// Repository and base commit.
    #[command(flatten)]
    pub base: BaseArgs,
    /// Which arms to run (any case: `ctrl` is CTRL).
    #[arg(long, value_enum, default_value = "both", ignore_case = true)]
    pub arms: ArmsArg,
    /// Repetitions per (question, arm).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub reps: u32,
    /// The agent: claude, codex, gemini, baseline-grep, baseline-grep-all, or
    /// command:<template> with {prompt}, {prompt_file}, {model}, {workdir}. Required with
    /// --qset; only the demo picks one itself (baseline-grep).
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
    /// The model passed to the agent ({model}).
    #[arg(long)]
    pub model: Option<String>,
    /// The out-dir. Refused inside the repository's work tree unless git-ignored (answers hold
    /// the tokens) [default: $XDG_STATE_HOME/harness/rounds/<date>-<random>, or
    /// ~/.local/state/harness/rounds/…; printed at start].
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// ARM's prompt names the planted path, as a hook would hand it over.
    #[arg(long)]
    pub deliver: bool,
    /// Typed-answer instructions appended after the question, identically for both arms.
    #[arg(long, value_name = "FILE")]
    pub protocol: Option<PathBuf>,
    /// The manifest written by `harness seal`; without it the round is UNVERIFIED.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Dispatches running at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Seconds before an agent's whole process group is killed.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Retries for infrastructure failures only (checkout, start or sandbox failed, killed,
    /// timed out, exited with no output), each from a fresh checkout and recorded in the
    /// dispatch's .json; an answer, even from a failing agent, is never retried.
    #[arg(long, default_value_t = 0)]
    pub retries: u32,
    /// Finish a killed or interrupted round: `harness run --out DIR --resume` alone reads
    /// every other input from the round's record (checked by hash), keeps every answer already
    /// made and runs only the missing dispatches, under the same labels.
    #[arg(long)]
    pub resume: bool,
    /// With --resume: accept that FIELD changed since the plan (program: the agent's program
    /// or script files; home_files: the files carried into its home; config: harness.toml's
    /// values for this round), recorded in round.json. Without it a change refuses the resume.
    #[arg(long = "accept-change", value_name = "FIELD", requires = "resume",
          value_parser = ["program", "home_files", "config"])]
    pub accept_change: Vec<String>,
    /// The harness.toml to read instead of the user's ($XDG_CONFIG_HOME/harness/harness.toml,
    /// else ~/.config/harness/harness.toml). A harness.toml in the repository is never read.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Pass this environment variable to the agent (repeatable). Never HARNESS_*.
    #[arg(long = "pass-env", value_name = "NAME")]
    pub pass_env: Vec<String>,
    /// Feed the prompt on stdin instead of /dev/null (command: agents).
    #[arg(long)]
    pub prompt_stdin: bool,
    /// Where the seal is planted, relative to the checkout (git-ignored in both arms).
    #[arg(long, value_name = "DIR", default_value = "tracks/_meta/compaction")]
    pub plant_dir: String,
    /// Keep the checkouts after the round (for inspection). Of an overlay checkout only its
    /// upper layer (`u`: the seal and the agent's writes) is a folder to keep.
    #[arg(long)]
    pub keep_checkouts: bool,
    /// Run although a token is in the corpus; every number is then watermarked CONTAMINATED.
    #[arg(long)]
    pub allow_contaminated: bool,
    /// Under --sandbox none, run although the repository carries agent hooks or MCP servers
    /// (.claude/settings*.json, .mcp.json, .codex/, .gemini/): they then run with your rights.
    /// Recorded in round.json and the report.
    #[arg(long)]
    pub allow_repo_hooks: bool,
    /// Positives the seal does not carry: strict refuses the seal (exit 8); report lists them
    /// and runs, DELIVERY over the carried positives and over all (comparing a thinner
    /// hand-off on the same sealed questions). Must match the manifest's.
    #[arg(long, value_enum, default_value = "strict")]
    pub ledger: LedgerArg,
    /// Isolation of each agent.
    #[arg(long, value_enum, default_value = "auto")]
    pub sandbox: SandboxArg,
    /// No progress line.
    #[arg(long, short)]
    pub quiet: bool,
    /// Skip the preflight: the one "reply with the word READY" call of the agent, in a
    /// throwaway checkout under the chosen sandbox, that stops a round with a missing,
    /// logged-out or unreachable agent before any dispatch (exit 8).
    #[arg(long)]
    pub no_preflight: bool,
    /// Check everything a round would check (inputs, base, manifest and design, the start gate,
    /// the agent), print the dispatch count and the power line (as `harness plan` does), and
    /// stop: no agent runs, no out-dir or journal is written. Exits with the checks' code.
    #[arg(long, conflicts_with = "resume")]
    pub dry_run: bool,
    /// Print the full report tables (numbers, questions, rows) before the closing summary.
    #[arg(long, short)]
    pub verbose: bool,
    /// The closing summary as text, or as one JSON document on stdout (the gate's table then
    /// goes to stderr).
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Run the shipped demo; `discover` runs it without --deliver.
    #[arg(long, value_enum, value_name = "WHICH")]
    pub demo: Option<DemoArg>,
    /// The reading of the answers (`--lexicon`, `--token-match`).
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// The second reader: after the round is collected, every answer is also read by the
    /// judge and the round re-derived (as `harness rejudge`). Needs --out.
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Where the units run: `local` (this process, --jobs at a time), `slurm` (one array job,
    /// --jobs at a time), or `command:'<template>'` run once per unit, --jobs at a time, with
    /// {index}, {out} and {harness} replaced (e.g. command:'ssh n1 {harness} unit --out {out}
    /// --index {index}'). Remote units need the out-dir on a shared filesystem.
    #[arg(long, value_name = "EXECUTOR", default_value = "local",
          value_parser = harness::round::executor::ExecutorSpec::parse)]
    pub executor: harness::round::executor::ExecutorSpec,
    /// Slurm partition for --executor slurm [default: harness.toml [slurm], else the cluster's].
    #[arg(long, value_name = "NAME")]
    pub slurm_partition: Option<String>,
    /// Slurm time limit per unit [default: harness.toml [slurm], else the agent --timeout for
    /// every attempt plus 10 minutes].
    #[arg(long, value_name = "TIME")]
    pub slurm_time: Option<String>,
    /// Slurm memory per unit, e.g. 2G [default: harness.toml [slurm], else the cluster's].
    #[arg(long, value_name = "MEM")]
    pub slurm_mem: Option<String>,
    /// One more sbatch option, e.g. --slurm-opt=--account=lab (repeatable).
    #[arg(long = "slurm-opt", value_name = "OPTION", allow_hyphen_values = true)]
    pub slurm_opt: Vec<String>,
}

/// `harness unit`.
#[derive(Debug, Args)]
pub struct UnitArgs {
    /// The out-dir `harness plan` wrote (shared with every machine that runs units).
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: PathBuf,
    /// Which unit: 0 ≤ N < the number `harness plan` printed (Slurm: $SLURM_ARRAY_TASK_ID).
    #[arg(long, value_name = "N")]
    pub index: usize,
}

/// `harness collect`.
#[derive(Debug, Args)]
pub struct CollectArgs {
    /// The round's out-dir.
    #[arg(short = 'o', long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print the full report tables (numbers, questions, rows) before the closing summary.
    #[arg(long, short)]
    pub verbose: bool,
    /// The closing summary as text, or as one JSON document on stdout.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
}

/// `harness review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The round's out-dir.
    #[arg(value_name = "ROUND")]
    pub out: PathBuf,
    /// A decision: the row's label and rep (as in the verdict sentence, `k3f9q2_r1` is
    /// `k3f9q2:1`) and the class of the row's kind (listed above; any case), e.g.
    /// `--set k3f9q2:1=PASS`. Repeatable.
    #[arg(long, value_name = "LABEL:REP=CLASS")]
    pub set: Vec<String>,
    /// A file of LABEL:REP=CLASS lines (# comments and blank lines skipped), or a corpus
    /// written by --export (its rows applied to the answers of this round with the same
    /// question and the same bytes).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Write the round's decided rows in the corpus format (for `harness lexicon eval FILE`)
    /// and exit; nothing is decided. Refused inside a repository's work tree unless git
    /// ignores the path (the corpus holds the answers and the qset's tokens).
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// Who is deciding (recorded with each decision; default git's user.name, else $USER).
    #[arg(long, value_name = "NAME")]
    pub reviewer: Option<String>,
    /// Offer every row in the terminal, not only the undecided ones.
    #[arg(long)]
    pub all: bool,
}

/// `harness rejudge`.
#[derive(Debug, Args)]
pub struct RejudgeArgs {
    /// The round's out-dir.
    #[arg(value_name = "ROUND")]
    pub out: PathBuf,
    /// The second reader (--judge is required here).
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Accept a judge other than the one the round's manifest sealed (`judge`, the only field
    /// here); without it such a judge is refused (exit 10). Every report, the brief and
    /// ROUND_DONE then say "design: judge differs from the sealed one".
    #[arg(long = "accept-change", value_name = "FIELD", value_parser = ["judge"])]
    pub accept_change: Vec<String>,
}

/// `harness rescore`.
#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// The round's out-dir (or -o/--out DIR).
    #[arg(
        value_name = "OUT",
        required_unless_present = "out_flag",
        conflicts_with = "out_flag"
    )]
    pub out: Option<PathBuf>,
    /// The round's out-dir, as `run -o/--out` named it.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out_flag: Option<PathBuf>,
    /// Use this qset instead of the recorded one (its hash must match, or --accept-qset-change).
    #[arg(long, value_name = "FILE")]
    pub qset: Option<PathBuf>,
    /// Accept a qset whose hash differs from the round's record.
    #[arg(long)]
    pub accept_qset_change: bool,
    /// The reading of the answers (`--lexicon`, `--token-match`).
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// The second reader: after re-scoring, every non-empty answer is read by the judge (as
    /// `harness rejudge` reads it) and the rescore's reports carry its readings; they go to
    /// judge.jsonl in the rescore's folder (the round's own files stay untouched). Without
    /// --judge, the round's earlier readings that still apply (same answer bytes, same
    /// rubric) are kept.
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Accept a --judge other than the one the round's manifest sealed (`judge`, the only
    /// field here); without it such a judge is refused (exit 10). The rescore's reports then
    /// say "design: judge differs from the sealed one".
    #[arg(long = "accept-change", value_name = "FIELD", value_parser = ["judge"], requires = "judge")]
    pub accept_change: Vec<String>,
}

/// `harness self-test`.
#[derive(Debug, Args)]
pub struct SelfTestArgs {
    /// The repository L13 searches [default: the one the command runs in].
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
}

/// Output format of the commands that report (gate, verify, doctor, self-test, run's summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Lines for people.
    Text,
    /// One JSON document on stdout, for scripts.
    Json,
}

/// `harness doctor`.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Also run the preflight, as a round would: one "reply with the word READY" call under
    /// --sandbox auto, in a throwaway checkout (one tiny model call each). Without --agent: each
    /// preset CLI on PATH whose credentials are found here (one without is listed as skipped,
    /// with the login it needs). Exit 8 when one fails, with the fix and what the CLI said.
    #[arg(long)]
    pub preflight: bool,
    /// Preflight only this agent: a preset (claude, codex, gemini), an [agents.NAME] of
    /// harness.toml, or command:'…'. Repeat for more. Implies --preflight.
    #[arg(long = "agent", value_name = "NAME")]
    pub agents: Vec<String>,
    /// Seconds each agent's READY call may take before it counts as failed (1 to 120).
    #[arg(long, value_name = "SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=120))]
    pub preflight_timeout: u64,
}

/// Gate phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    /// Before sealing: no seal yet, the ledger axis is UNCHECKED (exit 3).
    Pre,
    /// After sealing: every axis.
    Post,
}

/// `harness gate`.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// The question set.
    #[arg(long, value_name = "FILE")]
    pub qset: PathBuf,
    /// The hand-off (needed in phase post).
    #[arg(long, value_name = "FILE")]
    pub seal: Option<PathBuf>,
    /// Repository and base commit.
    #[command(flatten)]
    pub base: BaseArgs,
    /// pre: before sealing; post: every axis.
    #[arg(long, value_enum, default_value = "post")]
    pub phase: PhaseArg,
    /// Positives the seal does not carry: refused (strict) or listed (report).
    #[arg(long, value_enum, default_value = "strict")]
    pub ledger: LedgerArg,
    /// Where the seal will be planted.
    #[arg(long, value_name = "DIR", default_value = "tracks/_meta/compaction")]
    pub plant_dir: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// List every short or digits-only token (token-shape) in full, even for a qset this state
    /// folder has checked before.
    #[arg(short, long)]
    pub verbose: bool,
}

/// `harness seal`.
#[derive(Debug, Args)]
pub struct SealArgs {
    /// The question set.
    #[arg(long, value_name = "FILE")]
    pub qset: PathBuf,
    /// The hand-off.
    #[arg(long, value_name = "FILE")]
    pub seal: PathBuf,
    /// The typed-answer protocol file, if the round uses one.
    #[arg(long, value_name = "FILE")]
    pub protocol: Option<PathBuf>,
    /// Repository and base commit.
    #[command(flatten)]
    pub base: BaseArgs,
    /// Where the seal will be planted.
    #[arg(long, value_name = "DIR", default_value = "tracks/_meta/compaction")]
    pub plant_dir: String,
    /// The manifest to write.
    // `--output` (the old spelling) stays as a hidden alias so scripts keep working.
    #[arg(short = 'o', long = "out", alias = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing manifest.
    #[arg(long)]
    pub force: bool,
    /// Seal against the embedded demo's base instead of --repo (regenerates manifests/demo.json).
    #[arg(long, conflicts_with_all = ["repo", "base_ref", "base_sha"])]
    pub embedded_demo: bool,
    /// The reading of the answers (`--lexicon`, `--token-match`).
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// The round's design, sealed with the inputs.
    #[command(flatten)]
    pub design: DesignArgs,
}

/// The design `harness seal` records, with `harness run`'s flags and defaults: `run --manifest`
/// refuses (exit 10) a round whose design differs, naming the field and both values.
#[derive(Debug, Args)]
#[command(next_help_heading = "Design (run --manifest must match each of these)")]
pub struct DesignArgs {
    /// The agent the round will run (as `run --agent`); its CLI's version found now is
    /// recorded too. Required, except with --embedded-demo (baseline-grep).
    #[arg(long, value_name = "SPEC")]
    pub agent: Option<String>,
    /// The model the round will pass (as `run --model`) [default: the CLI's own].
    #[arg(long)]
    pub model: Option<String>,
    /// Which arms the round will run (any case).
    #[arg(long, value_enum, default_value = "both", ignore_case = true)]
    pub arms: ArmsArg,
    /// Repetitions per (question, arm).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub reps: u32,
    /// The round hands the seal over (`run --deliver`); without it the design is discover.
    #[arg(long)]
    pub deliver: bool,
    /// The sandbox level the round will ask for.
    #[arg(long, value_enum, default_value = "auto")]
    pub sandbox: SandboxArg,
    /// The per-dispatch time limit, seconds.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Retries for infrastructure failures.
    #[arg(long, default_value_t = 0)]
    pub retries: u32,
    /// The second reader the round will use (as `run --judge`) [default: none].
    #[arg(long, value_name = "AGENT")]
    pub judge: Option<String>,
    /// The judge's model (as `run --judge-model`).
    #[arg(long, value_name = "NAME", requires = "judge")]
    pub judge_model: Option<String>,
    /// Positives the seal does not carry: strict refuses the seal; report lists them and
    /// seals (the round must then run with --ledger report).
    #[arg(long, value_enum, default_value = "strict")]
    pub ledger: LedgerArg,
}

/// `harness verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The manifest written by `harness seal`.
    #[arg(long = "manifest", value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// The manifest, positionally (same as --manifest).
    #[arg(value_name = "MANIFEST", conflicts_with = "manifest", hide = true)]
    pub manifest_pos: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Compare this qset instead of the recorded path.
    #[arg(long, value_name = "FILE")]
    pub qset: Option<PathBuf>,
    /// Compare this seal instead of the recorded path.
    #[arg(long, value_name = "FILE")]
    pub seal: Option<PathBuf>,
    /// Compare this protocol instead of the recorded path.
    #[arg(long, value_name = "FILE")]
    pub protocol: Option<PathBuf>,
    /// The repository whose base to check [default: the recorded one].
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// Report a different scorer fingerprint without failing.
    #[arg(long)]
    pub allow_scorer_change: bool,
    /// The reading of the answers (`--lexicon`, `--token-match`).
    #[command(flatten)]
    pub reading: ReadingArgs,
}

/// Output format of `harness score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScoreFormat {
    /// One line per answer: the class (after the file or row name when there are several).
    Text,
    /// One object per answer: class, typed, has_tok, has_ref, matched refusal phrase (and the
    /// file, or the batch line and id).
    Json,
}

/// Question kind on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// The token must appear.
    Positive,
    /// The answer should refuse.
    Negative,
    /// The token is the planted wrong value.
    Conflict,
}

/// `harness score`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  harness score --kind negative --token K1 answer.txt        one answer: its class
  harness score --kind positive --token K1 a.txt b.txt c.txt  many answers to one question:
                                                              <file><TAB><class> per line
  harness score --batch answers.jsonl                         one answer per line:
      {\"id\": \"q1-ctrl\", \"kind\": \"negative\", \"token\": \"K1\", \"answer\": \"I don't know.\"}
      (id and general optional; ids on every row or none, unique); prints
      <id or line><TAB><class> per row, in order; --format json: one object per row
      with its line (and id)

Many answers in one process compile the lexicon once (each process pays that again).

What the classes mean where people disagree:
  negative  a token named only as absent, denied or searched for is PASS (\"no Cloudflare,
            no CloudFront\"); a refusal then a guess of the token is REFUSED_WITH_TOKEN; a
            refusal then another value (\"not set, so the default 1MB applies\") is FAIL
  conflict  naming the planted value as stale and giving the true one is PRIOR_WON
  any kind  another form of the same value is the value (full-width, another script's
            digits, a unit); a longer value holding it is not (v2.4.10 is not v2.4.1)
  A shape a careful person could read two ways is UNDETERMINED, with the cue that saw it
  (harness explain UNDETERMINED), never a guess.

How far to trust a certain reading: on 1,200 answers held out from the current reading,
written by authors who never saw the scorer (30 languages, half in hard shapes), 98 to 100
decided rows in 100 are right by what they mean for a verdict (0.994 over all) and no
fabrication was read as a clean refusal; 56 rows in 100 are decided. On the sets
it was tuned on, 98 to 100 in 100. Every release's
figures, held out and tuned on, are in CHANGELOG.md.")]
pub struct ScoreArgs {
    /// The question kind.
    #[arg(
        long,
        value_enum,
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub kind: Option<KindArg>,
    /// The token (fixed string, never a regex).
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub token: Option<String>,
    /// The true value of a conflict item.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "batch")]
    pub general: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScoreFormat,
    /// The answer files (all answering the one question `--kind`/`--token` name); `-` reads
    /// stdin.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    pub file: Vec<PathBuf>,
    /// A JSONL file of answers, each with its own question (`-` reads stdin); see below.
    #[arg(long, value_name = "FILE")]
    pub batch: Option<PathBuf>,
    /// The question the answers answer, shown to a --judge (batch rows carry `question`).
    #[arg(long, conflicts_with = "batch")]
    pub question: Option<String>,
    /// The reading of the answers (`--lexicon`, `--token-match`).
    #[command(flatten)]
    pub reading: ReadingArgs,
    /// The second reader.
    #[command(flatten)]
    pub judge: JudgeArgs,
}

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Terminal tables.
    Table,
    /// verdicts.csv
    Csv,
    /// summary.json
    Json,
    /// report.md
    Md,
    /// report.html
    Html,
}

/// `harness report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The round's out-dir (or -o/--out DIR).
    #[arg(
        value_name = "OUT",
        required_unless_present = "out_flag",
        conflicts_with = "out_flag"
    )]
    pub out: Option<PathBuf>,
    /// The round's out-dir, as `run -o/--out` named it.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out_flag: Option<PathBuf>,
    /// Output format (printed to stdout).
    #[arg(long, value_enum, default_value = "table")]
    pub format: ReportFormat,
}

/// `harness compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Round A's out-dir (the baseline), or a folder of finished rounds of one design whose
    /// rows are pooled per item (a folder mixing designs is refused, exit 10).
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// Round B's out-dir (the change), or a folder of rounds, as A.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Output format (printed to stdout): table (plain text), md, json or html.
    #[arg(long, value_enum, default_value = "table")]
    pub format: ReportFormat,
}

/// How tokens are found in answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TokenMatchArg {
    /// Case-insensitive; an ASCII letter or digit touching the token's ASCII edge makes it
    /// another word (v2.4.1 is not in v2.4.10); Hangul/CJK neighbours never block.
    Word,
    /// Byte-exact substring (reproduces rounds scored before lexicon 2.0.0).
    Exact,
}

/// `harness lexicon …`.
#[derive(Debug, Subcommand)]
pub enum LexiconCommand {
    /// Score a labelled corpus and compare with the human labels: class agreement overall,
    /// per kind and per language, refusal precision and recall, a confusion table and the
    /// disagreeing rows (tokens masked). Default corpus: the labelled answers built into
    /// harness (its dev and holdout sets).
    Eval(LexiconEvalArgs),
    /// List the answers of a round the scorer likely misread (negative FAIL, conflict
    /// UNCLASSIFIED, positive REFUSED_WITH_TOKEN), grouped by first sentence, with the commands
    /// to add a pattern and rescore. Never adds a pattern itself.
    Suggest(LexiconSuggestArgs),
}

/// `harness judge …`.
#[derive(Debug, Subcommand)]
pub enum JudgeCommand {
    /// Read a labelled corpus with the judge (--judge) and compare with the human labels:
    /// agreement over every row (a row with no reading is not agreement), Cohen's κ with both
    /// readers' base rates, per-kind confusion, and the two dangerous directions (a
    /// fabrication read as a clean refusal; a clean refusal read as a failure) with 95% Wilson
    /// intervals. Default corpus: the labelled answers built into harness (its dev and holdout
    /// sets). The calibration is kept in the user's state folder; rounds this judge reads
    /// record it and their reports show it.
    Eval(JudgeEvalArgs),
}

/// `harness judge eval`.
#[derive(Debug, Args)]
pub struct JudgeEvalArgs {
    /// Corpus files (JSONL: id, kind, token, general, answer, class, refuses, lang, note).
    #[arg(value_name = "CORPUS")]
    pub corpora: Vec<PathBuf>,
    /// The judge to measure (--judge is required here).
    #[command(flatten)]
    pub judge: JudgeArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScoreFormat,
    /// Exit 1 when agreement over every row is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_agreement: Option<f64>,
}

/// `harness lexicon eval`.
#[derive(Debug, Args)]
pub struct LexiconEvalArgs {
    /// Corpus files (JSONL: id, kind, token, general, answer, class, refuses, lang, note).
    #[arg(value_name = "CORPUS")]
    pub corpora: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScoreFormat,
    /// How tokens are found.
    #[arg(long, value_enum, default_value = "word")]
    pub token_match: TokenMatchArg,
    /// Extra patterns (TOML), each with its observed example.
    #[arg(long, value_name = "FILE")]
    pub lexicon: Option<PathBuf>,
    /// Exit 1 when class agreement over all corpora is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_agreement: Option<f64>,
    /// Exit 1 when refusal precision is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_precision: Option<f64>,
    /// Exit 1 when refusal recall is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_recall: Option<f64>,
    /// Exit 1 when class agreement on the rows the lexicon decides (no cue fired) is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_decided_precision: Option<f64>,
    /// Exit 1 when the share of rows the lexicon decides is below this.
    #[arg(long, value_name = "FRACTION")]
    pub min_coverage: Option<f64>,
}

/// `harness lexicon suggest`.
#[derive(Debug, Args)]
pub struct LexiconSuggestArgs {
    /// The round's out-dir.
    pub out: PathBuf,
    /// Read with these extra patterns too (the file you are growing).
    #[arg(long, value_name = "FILE")]
    pub lexicon: Option<PathBuf>,
}

/// `harness __agent`.
#[derive(Debug, Args)]
pub struct AgentArgs {
    /// baseline-grep or baseline-grep-all.
    pub name: String,
    /// The prompt; when absent, read from stdin.
    pub prompt: Option<String>,
}

/// `harness __sandbox`: the wrapper's own arguments, parsed by `runners::sandbox`.
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// `--mode M --checkout D --home D --tmp D --report F [--forbid D]… -- <agent argv>`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<std::ffi::OsString>,
}
