//! The one error type of the `runners` crate: the git side (base, corpus, search, checkouts)
//! and the process side (agents, processes, sandbox).
//!
//! Rule for every variant: its Display and Debug carry paths, object ids and counts, never a needle
//! (a qset token). Stderr becomes logs, and logs become corpus.

use std::path::PathBuf;

use crate::checkout::Treediff;

/// Everything that can go wrong in the runners crate. The binary maps variants to exit codes
/// (e.g. [`Error::BaseMismatch`] and [`Error::Usage`] to exit 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No git repository was found at or above the given path.
    #[error("no git repository at or above {path} (run harness inside your repository, or pass --repo DIR): {source}")]
    NoRepository {
        /// The path the discovery started from.
        path: PathBuf,
        /// What libgit2 said.
        source: git2::Error,
    },

    /// The repository is bare: there is no working tree to report on.
    #[error("repository at {path} is bare; a repository with a working tree is needed")]
    BareRepository {
        /// The git dir of the bare repository.
        path: PathBuf,
    },

    /// `--base-ref` did not resolve to a commit.
    #[error("--base-ref '{reference}' does not resolve to a commit: {source}")]
    BadRef {
        /// The ref as given.
        reference: String,
        /// What libgit2 said.
        source: git2::Error,
    },

    /// `--base-sha` is not a full or abbreviated commit id present in the repository.
    #[error("--base-sha '{sha}' does not name a commit: {reason}")]
    BadSha {
        /// The sha as given.
        sha: String,
        /// Why it was refused.
        reason: String,
    },

    /// `--base-ref` and `--base-sha` were both given and name different commits.
    #[error("--base-ref '{reference}' is {ref_sha}, but --base-sha says {sha}: they must name the same commit")]
    BaseMismatch {
        /// The ref as given.
        reference: String,
        /// The commit the ref resolves to.
        ref_sha: String,
        /// The commit `--base-sha` resolves to.
        sha: String,
    },

    /// A tree entry's path is not UTF-8. Paths are identities here (treediff, hit lists,
    /// reports), and a lossy conversion could make two paths one, so such trees are refused.
    #[error("tree at {commit} has a path that is not UTF-8 ({lossy}); such repositories are not supported")]
    NonUtf8Path {
        /// The base commit.
        commit: String,
        /// The path with invalid bytes replaced, for the reader only.
        lossy: String,
    },

    /// A tree entry whose name git would refuse to check out (`.`, `..`, `.git`, a separator or
    /// NUL inside a name) or a path that occurs twice: materializing it could escape the checkout.
    #[error("tree at {commit} has an unsafe path {path}")]
    UnsafePath {
        /// The base commit.
        commit: String,
        /// The offending path.
        path: String,
    },

    /// A tree entry has a mode git does not produce (not file, executable, symlink, tree or submodule).
    #[error("tree entry {path} has unsupported mode {mode:o}")]
    UnsupportedMode {
        /// The entry path.
        path: String,
        /// Its mode.
        mode: u32,
    },

    /// An object of the corpus could not be read (missing, corrupt, unreadable).
    /// A search that hits this has not searched: it is never "0 hits".
    #[error("cannot read object {oid} ({path}): {source}")]
    ObjectRead {
        /// The path in the tree, or a description of the object.
        path: String,
        /// The object id.
        oid: String,
        /// What libgit2 said.
        source: git2::Error,
    },

    /// Any other libgit2 failure, with what was being done.
    #[error("git: {context}: {source}")]
    Git {
        /// What the runner was doing.
        context: String,
        /// What libgit2 said.
        source: git2::Error,
    },

    /// A filesystem operation failed on a named path.
    #[error("{op} {path}: {source}")]
    Io {
        /// The operation ("write", "copy", "create dir", ...).
        op: &'static str,
        /// The path it failed on.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },

    /// The needle automaton could not be built (too large, or similar).
    #[error("cannot build the search automaton for {count} needles: {reason}")]
    Automaton {
        /// How many needles were given (never the needles).
        count: usize,
        /// What aho-corasick said.
        reason: String,
    },

    /// An empty needle would match every file; it is refused rather than reported as a hit everywhere.
    #[error("needle #{index} is empty")]
    EmptyNeedle {
        /// Index of the needle in the given list.
        index: usize,
    },

    /// A plant folder or seal name that is not a clean relative path inside the checkout.
    #[error("bad plant location '{value}': {reason}")]
    BadPlant {
        /// The value given.
        value: String,
        /// Why it was refused.
        reason: &'static str,
    },

    /// The seal would land on a path the corpus already has.
    #[error("the planted seal path {path} collides with a path tracked at base")]
    PlantCollision {
        /// The colliding path.
        path: String,
    },

    /// The checkout's file listing is not the expected one; the dispatch must be refused.
    #[error("treediff at {checkout}: {} extra, {} missing, {} changed (first: {})",
        .treediff.extra.len(), .treediff.missing.len(), .treediff.changed.len(), .treediff.first_problem())]
    TreediffMismatch {
        /// The checkout folder.
        checkout: PathBuf,
        /// The full record, to be written to the dispatch's record.
        treediff: Box<Treediff>,
    },

    /// The checkout's `.git` is not what an isolated checkout must be (history, remote, alternates, wrong tree).
    #[error("checkout {checkout} is not isolated: {reason}")]
    NotIsolated {
        /// The checkout folder.
        checkout: PathBuf,
        /// What was found.
        reason: String,
    },

    /// The temp root would be inside a folder the agent must not share (the out-dir or the repo).
    #[error("temp root {root} is inside {inside}; set TMPDIR elsewhere")]
    TempRootInside {
        /// The would-be temp root.
        root: PathBuf,
        /// The folder it lies in.
        inside: PathBuf,
    },

    /// A label that does not have the fixed shape.
    #[error("'{0}' is not a label (10 characters of a-z, 2-7)")]
    BadLabel(String),

    /// `--agent` names neither a preset, a baseline nor `command:<template>`.
    #[error("unknown agent `{0}` (expected claude, codex, gemini, baseline-grep, baseline-grep-all or command:<template>)")]
    UnknownAgent(String),

    /// An agent command template could not be split or uses an unknown placeholder.
    #[error("agent template `{template}`: {reason}")]
    Template {
        /// The template as given.
        template: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A variable was asked to be passed to an agent that must not reach it: a
    /// `HARNESS_*` variable (the harness's own, whoever asks) or one the runner sets
    /// itself for isolation (`HOME`, `TMPDIR`, `XDG_*`…).
    #[error("refusing to pass `{name}` to an agent: {reason}")]
    ForbiddenEnv {
        /// The refused variable name.
        name: String,
        /// Why it is refused.
        reason: &'static str,
    },

    /// A variable name that cannot be an environment variable name.
    #[error("invalid environment variable name `{name}`")]
    InvalidEnvName {
        /// The offending name.
        name: String,
    },

    /// The agent process could not be started.
    #[error("cannot start agent `{program}`: {source}")]
    Spawn {
        /// argv\[0\] of the agent.
        program: String,
        /// The OS error.
        source: std::io::Error,
    },

    /// A process-level operation (pipes, waiting, signals) failed.
    #[error("{what}: {source}")]
    Os {
        /// What was being done.
        what: String,
        /// The OS error.
        source: std::io::Error,
    },

    /// The agent produced structured output that marks the run as failed, or output
    /// that cannot be read: a dispatch failure, never an answer.
    #[error("agent `{agent}` did not produce an answer: {reason}")]
    AgentFailed {
        /// The agent's name.
        agent: String,
        /// Why the output is not an answer.
        reason: String,
    },

    /// A credential file the preset copies into the fresh home exists but could not
    /// be copied.
    #[error("credential file {path}: {source}")]
    Credential {
        /// The source credential file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },

    /// `--sandbox full` was asked for and at least one isolation layer is missing.
    #[error("sandbox `full` refused: missing {}", missing.join(", "))]
    SandboxIncomplete {
        /// The layers that could not be applied, each with its reason.
        missing: Vec<String>,
    },

    /// A sandbox layer failed in a way no mode tolerates (bad arguments, a report that
    /// cannot be written, a wrapper that died before the agent started).
    #[error("sandbox: {0}")]
    Sandbox(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps a libgit2 error with what was being done.
    pub(crate) fn git(context: impl Into<String>, source: git2::Error) -> Self {
        Error::Git {
            context: context.into(),
            source,
        }
    }

    /// Wraps an I/O error with the path it is about (the operation is in the path's context).
    pub fn io_at(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            op: "access",
            path: path.into(),
            source,
        }
    }

    /// Wraps an OS error with a short description of the operation.
    pub fn os(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Os {
            what: what.into(),
            source,
        }
    }

    /// Wraps an I/O error with the operation and the path.
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            op,
            path: path.into(),
            source,
        }
    }
}
