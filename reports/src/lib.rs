//! Round aggregation, statistics, the instrument verdict, the watermark and the renderers
//! (DESIGN §7).
//!
//! Everything here is pure: a round's [`Row`]s and its [`RoundMeta`] go in, a [`Summary`] and
//! rendered text come out. Writing files is the binary's job.

#![warn(missing_docs)]

pub mod agreement;
pub mod brief;
pub mod calibration;
pub mod compare;
pub mod counting;
pub mod csv;
pub mod effort;
pub mod glossary;
mod header;
pub mod html;
pub mod json;
pub mod judge;
pub mod lanes;
pub mod markdown;
pub mod meaning;
pub mod phases;
pub mod reading;
pub mod rules;
pub mod sanitize;
pub mod stats;
pub mod summary;
pub mod terminal;
pub mod timeline;

use scorer::{Arm, Kind, Verdict};
use serde::{Deserialize, Serialize};

pub use lanes::{fixture_meta, verdict_fixtures, watermark_ok, VerdictFixture};
pub use phases::PhaseStat;
pub use stats::{Interval, McNemar, SignSummary};
pub use summary::{
    summarize, AxisContrast, ConflictCounts, InstrumentVerdict, ItemD, NumberLine, Proportion,
    Summary, Value, NO_ARM_ARM, WATERMARK_NAMES,
};

/// The one error type of this crate: reading a stored round back (JSON or CSV) can fail.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `summary.json` did not parse or does not have the expected shape.
    #[error("{file}: {source}")]
    Json {
        /// The file (or a description of the input) that failed.
        file: String,
        /// What serde_json said, with line and column.
        source: serde_json::Error,
    },
    /// `summary.json` was written by a schema version this code does not read.
    #[error("{file}: schema version {found} is not supported (this build reads {expected})")]
    Schema {
        /// The file that carried the version.
        file: String,
        /// The version found in the file.
        found: u32,
        /// The version this build writes and reads.
        expected: u32,
    },
    /// `verdicts.csv` had a bad record; `line` is the 1-based line in the file.
    #[error("{file}:{line}: {message}")]
    Csv {
        /// The file that failed.
        file: String,
        /// 1-based line of the bad record (0 when the reader could not tell).
        line: u64,
        /// What was wrong.
        message: String,
    },
}

/// One dispatch's outcome: the unit every number of §7.2 is counted from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The question this dispatch answered.
    pub qid: String,
    /// The question's kind (decides which class is "good").
    pub kind: Kind,
    /// Which arm the dispatch ran in.
    pub arm: Arm,
    /// Repeat number within the (question, arm) cell, 1-based.
    pub rep: u32,
    /// The scorer's class, with the typed-path flag.
    pub verdict: Verdict,
    /// The clarify lexicon matched ("ask-back" answer): a counter, never a denominator.
    pub clarify: bool,
    /// The opaque dispatch label (the answer file is `dispatches/<label>_r<rep>.txt` in the out-dir).
    pub label: String,
    /// Raw answer text. Untrusted: every renderer passes it through [`sanitize`].
    pub excerpt: String,
    /// Who decided the class (DESIGN §5.1); rows recorded before readers existed were decided
    /// by the lexicon.
    #[serde(default)]
    pub standing: reading::Standing,
    /// What the two readers read, when a judge read this answer (for agreement and Cohen's κ);
    /// `None` when no judge reading exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<reading::Readings>,
}

/// Whether the round's inputs were checked against a pre-registered manifest (§6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ManifestStatus {
    /// `--manifest` was given and every hash matched.
    #[serde(rename = "match")]
    Match,
    /// No `--manifest`: nothing was verified; never rendered as a pass.
    #[serde(rename = "UNVERIFIED")]
    Unverified,
    /// The inputs matched the manifest, but the answers were read by a judge other than the
    /// sealed one (accepted with `--accept-change judge`): the design is not the sealed one,
    /// and every report says so ([`JUDGE_DIFFERS`]); never rendered as `match`.
    #[serde(rename = "JUDGE_CHANGED")]
    JudgeChanged,
}

/// What every report, the brief and `ROUND_DONE` say of a round read by another judge than
/// the sealed one.
pub const JUDGE_DIFFERS: &str = "design: judge differs from the sealed one";

impl ManifestStatus {
    /// The word written in headers and `summary.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            ManifestStatus::Match => "match",
            ManifestStatus::Unverified => "UNVERIFIED",
            ManifestStatus::JudgeChanged => "JUDGE_CHANGED",
        }
    }
}

/// A question as the report header and the per-item lines show it (no token: tokens are never printed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionInfo {
    /// The question id.
    pub qid: String,
    /// Its kind.
    pub kind: Kind,
    /// The question text. Untrusted: sanitized wherever shown.
    pub question: String,
}

/// What the report header needs to know about a round besides its rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundMeta {
    /// Version of the harness binary that ran the round.
    pub harness_version: String,
    /// The scorer's fingerprint (recorded in manifests).
    pub scorer_fingerprint: String,
    /// The refusal lexicon version.
    pub lexicon_version: String,
    /// The qset's file name.
    pub qset_name: String,
    /// The seal's file name; `None` for CTRL-only rounds. Untrusted text.
    pub seal_name: Option<String>,
    /// The questions of the qset, in qset order.
    pub questions: Vec<QuestionInfo>,
    /// The agent preset or command name.
    pub agent: String,
    /// The model, when one was given.
    pub model: Option<String>,
    /// Repeats per (question, arm).
    pub reps: u32,
    /// `ARM`, `CTRL` or `both`.
    pub arms: String,
    /// The ARM prompt named the planted path (question ⓑ) rather than leaving it to be found (ⓐ).
    pub deliver: bool,
    /// Manifest check result.
    pub manifest: ManifestStatus,
    /// The manifest sealed the round's design (agent, arms, reps, mode, sandbox, timeout,
    /// retries, judge) and it matched. Without it every header says "design not sealed".
    #[serde(default)]
    pub design_sealed: bool,
    /// The round ran with the contamination override: every number is watermarked.
    pub contaminated: bool,
    /// The isolation level the runner recorded.
    pub isolation: String,
    /// The pinned base commit.
    pub base_sha: String,
    /// Start time (as the binary formats it).
    pub started: String,
    /// End time.
    pub finished: String,
    /// Where the dispatches' time went, phase by phase (empty: not recorded).
    #[serde(default)]
    pub phases: Vec<PhaseStat>,
    /// How the ledger gate treated positives the seal does not carry: `strict` (refused; every
    /// round before `--ledger` existed) or `report` (listed in [`RoundMeta::uncarried`], run).
    #[serde(default = "ledger_strict")]
    pub ledger: String,
    /// Under `--ledger report`: the positive items whose token the seal does not carry. DELIVERY
    /// and INSTRUMENT_INCOMPLETE judge the other positives; a second DELIVERY line counts all.
    #[serde(default)]
    pub uncarried: Vec<String>,
    /// Whether a protocol file was given (`--protocol`); `None` for rounds recorded without
    /// saying. Only a protocol asks answers for a typed tag.
    #[serde(default)]
    pub protocol_given: Option<bool>,
    /// Every dispatch's arm and start/end times, for the arm × time section (empty: the
    /// records carry no times, said as "not recorded").
    #[serde(default)]
    pub timeline: Vec<timeline::DispatchSpan>,
    /// The second reader that last read the round's answers, with that pass's totals; `None`
    /// for a round no judge read (and every round recorded before judges were recorded).
    #[serde(default)]
    pub judge: Option<judge::JudgeInfo>,
    /// Every answered dispatch's effort (turns, tokens, cost, tool calls as its agent
    /// reported them; wall time as the harness measured it), for the effort section. Empty:
    /// not recorded (rounds recorded before effort was kept). Never read by a verdict.
    #[serde(default)]
    pub effort: Vec<effort::DispatchEffort>,
    /// Who decided rows by `harness review` (in this round or, reused, in an earlier one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviewers: Vec<String>,
    /// Rows whose person's decision was made in an earlier round of the same sealed qset on
    /// the same answer bytes: `<label>_r<rep>` → that round's folder name.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub reused_from: std::collections::BTreeMap<String, String>,
    /// Rows whose person's decision was made in this round on another row of the same question
    /// with the same answer bytes: `<label>_r<rep>`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub reused_here: std::collections::BTreeSet<String>,
    /// The agent configuration the repository carries, one line a file (path, sha256, what it
    /// enables); `None` for rounds recorded before it was ("not recorded"), empty when none.
    #[serde(default)]
    pub repo_agent_config: Option<Vec<String>>,
}

/// The ledger word of rounds recorded before `--ledger` existed: they were all strict.
fn ledger_strict() -> String {
    LEDGER_STRICT.to_string()
}

/// [`RoundMeta::ledger`] of a round whose seal had to carry every positive.
pub const LEDGER_STRICT: &str = "strict";
/// [`RoundMeta::ledger`] of a round run with `--ledger report`.
pub const LEDGER_REPORT: &str = "report";

impl RoundMeta {
    /// The round ran under `--ledger report`: DELIVERY has two lines (carried, all positives).
    pub fn ledger_reports(&self) -> bool {
        self.ledger == LEDGER_REPORT
    }

    /// Whether the round ran an ARM arm at all (`--arms CTRL`, a CTRL-only eligibility run,
    /// did not: it has no ARM rows to count, by design).
    pub fn runs_arm(&self) -> bool {
        !self.arms.eq_ignore_ascii_case("ctrl")
    }
}

/// A whole round as the renderers see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The header facts.
    pub meta: RoundMeta,
    /// One row per dispatch.
    pub rows: Vec<Row>,
    /// Every number, derived from `rows` and `meta` by [`summarize`].
    pub summary: Summary,
}

impl Report {
    /// Builds a report, computing the summary from the rows so the two can never disagree.
    /// Rows are put in qset order (then arm, then rep), so every renderer and every command
    /// lists them the same way; a qid the qset lacks goes last.
    pub fn new(meta: RoundMeta, mut rows: Vec<Row>) -> Report {
        let position = |qid: &str| {
            meta.questions
                .iter()
                .position(|q| q.qid == qid)
                .unwrap_or(usize::MAX)
        };
        rows.sort_by_cached_key(|r| (position(&r.qid), r.arm, r.rep));
        let summary = summarize(&rows, &meta);
        Report {
            meta,
            rows,
            summary,
        }
    }

    /// Reads a `summary.json` written by [`json::Json`] back into a report.
    ///
    /// Only `meta` and `rows` are taken from the file; the summary is recomputed, so a hand-edited
    /// number in the file cannot survive a re-render.
    pub fn from_json(text: &str, file: &str) -> Result<Report, Error> {
        json::read(text, file)
    }
}

/// One output format. Each format lives in its own module.
pub trait Render {
    /// The whole rendered document.
    fn render(&self, report: &Report) -> String;
    /// The file name this format is written to in a round's out-dir.
    fn file_name(&self) -> &'static str;
}
