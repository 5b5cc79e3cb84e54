//! The one error type of the `runners` crate (process side: agents, processes, sandbox).

use std::path::PathBuf;

/// Everything that can go wrong while preparing or running one agent invocation.
///
/// Each variant names the file (or agent, or variable) it is about, so a dispatch's
/// `.err` file says what to fix without a stack trace.
#[derive(Debug, thiserror::Error)]
pub enum Error {
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

    /// A file or directory operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
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

/// Result alias for the crate's process side.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps an I/O error with the path it is about.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
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
}
