//! Isolated checkouts, planting, agents and the dispatch pool of `harness`.
//!
//! The git side makes what an agent sees (the corpus of a base, its contamination search, the
//! per-dispatch checkout); the process side runs the agent (specs, the process runner with its
//! allowlisted environment and fresh home, the baseline agents, the sandbox).

pub mod activity;
pub mod agent;
pub mod base;
pub mod baseline;
pub mod checkout;
pub mod corpus;
pub mod error;
pub mod label;
pub mod overlay;
mod pack;
mod platform;
pub mod process;
pub mod reap;
pub mod sandbox;
pub mod search;
pub mod seatbelt;
#[cfg(target_os = "linux")]
pub mod seccomp;
pub mod temproot;

pub use activity::{infrastructure_failure, read_activity, AgentActivity};
pub use agent::{
    extract_answer, install_credentials, AgentKind, AgentSpec, BaselineKind, Invocation,
    OutputFormat, Preset, PresetSetup, SetupInput, CHECKED_VERSIONS,
};
pub use base::{resolve_base, Base};
pub use checkout::{copy_tree, remove_tree, Checkout, Plant, Seal, Template, Treediff};
pub use corpus::{links_out, tracked_at_base, Corpus, Entry, EntryKind, LinkOut, TrackedCheck};
pub use error::{Error, Result};
pub use label::{unique_labels, unique_labels_with, Label, LABEL_LEN};
pub use overlay::{OverlayLayers, METHOD_COPY, METHOD_OVERLAY};
pub use process::{
    check_pass_env, resolve_program, run as run_process, DispatchHome, ProcessGroups, RunOutcome,
    RunSpec,
};
pub use sandbox::{probe as sandbox_probe, unix_now_us, SandboxMode};
pub use search::{search_needles, NeedleSet, SearchReport};
pub use temproot::{sweep_stale, DispatchDirs, TempRoot};
