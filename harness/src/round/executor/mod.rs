//! Where a round's units run (DESIGN §4, "one path for one machine or many"). A round is
//! `plan` → `unit N` for every index → `collect`; an executor only decides where the units run:
//! in this process on a bounded pool (`local`), as one Slurm array job (`slurm`), or as one
//! user-given command per index (`command:…{index}…`). Whatever runs them, the out-dir is the
//! truth: `collect` reads every unit's answer and record from it, so an executor never decides
//! that a unit answered.

pub mod command;
pub mod local;
pub mod slurm;

use anyhow::Result;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Which executor `--executor` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecutorSpec {
    /// Units in this process on a pool of `--jobs` threads (the default).
    Local,
    /// One Slurm array job; `--jobs` is its `%M` throttle.
    Slurm,
    /// One command per index, `--jobs` at a time.
    Command(command::CommandTemplate),
}

impl ExecutorSpec {
    /// Parses `local`, `slurm` or `command:<template>`; an error says what is accepted.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "local" => Ok(ExecutorSpec::Local),
            "slurm" => Ok(ExecutorSpec::Slurm),
            _ => match s.strip_prefix("command:") {
                Some(t) => command::CommandTemplate::parse(t).map(ExecutorSpec::Command),
                None => Err(format!(
                    "unknown executor '{s}': use local, slurm, or command:'<template with {{index}}>'"
                )),
            },
        }
    }

    /// As recorded and printed.
    pub fn name(&self) -> String {
        match self {
            ExecutorSpec::Local => "local".into(),
            ExecutorSpec::Slurm => "slurm".into(),
            ExecutorSpec::Command(t) => format!("command:{}", t.as_string()),
        }
    }
}

/// `--executor` and its Slurm options, beside the round's own options.
pub struct ExecutorChoice {
    /// Which executor.
    pub spec: ExecutorSpec,
    /// `--slurm-*` flags, not yet merged with `harness.toml`.
    pub slurm_partition: Option<String>,
    /// `--slurm-time`.
    pub slurm_time: Option<String>,
    /// `--slurm-mem`.
    pub slurm_mem: Option<String>,
    /// `--slurm-opt`.
    pub slurm_opt: Vec<String>,
}

/// The units an executor is asked to run, and where they write.
pub struct Units<'a> {
    /// The round's out-dir (absolute; on a shared filesystem for remote executors).
    pub out: &'a Path,
    /// The indices still to run (those without a kept answer), ascending.
    pub indices: &'a [usize],
    /// The `harness` binary that runs `harness unit` (the same path on every node).
    pub harness_exe: &'a Path,
    /// How many units at once.
    pub jobs: usize,
    /// No progress bar.
    pub quiet: bool,
    /// Raised by Ctrl-C: stop starting units and stop the running ones.
    pub cancel: &'a Arc<AtomicBool>,
}

impl Units<'_> {
    /// The folder for the executor's own logs (Slurm task output, one log per command); beside
    /// the units' files, never mistaken for an answer (DESIGN §7.7 counts by strict name).
    pub fn log_dir(&self) -> PathBuf {
        self.out.join("executor")
    }
}

/// How an executor ended. Whether each unit answered is read from the out-dir afterwards.
#[derive(Debug, Default)]
pub struct Ended {
    /// Ctrl-C stopped it; the units not yet run are left for `--resume` or `collect`.
    pub interrupted: bool,
    /// Units that the executor saw end badly (a Slurm state, a command's exit), with where to
    /// look: printed beside `collect`'s list of missing units.
    pub notes: Vec<String>,
}

/// Runs the units on a remote executor (`slurm`, `command:`); `local` units run in the
/// harness's own pool (`round::executor`), never here.
pub fn run(spec: &ExecutorSpec, slurm: &slurm::SlurmOptions, units: &Units<'_>) -> Result<Ended> {
    if units.indices.is_empty() {
        return Ok(Ended::default());
    }
    match spec {
        ExecutorSpec::Local => anyhow::bail!("the local executor runs units in round::executor"),
        ExecutorSpec::Slurm => slurm::run(slurm, units),
        ExecutorSpec::Command(t) => command::run(t, units),
    }
}

/// `0-4,7,9-12`: indices as the ranges Slurm's `--array` and people read.
pub fn ranges(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        let mut end = start;
        while i + 1 < indices.len() && indices[i + 1] == end + 1 {
            i += 1;
            end = indices[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_compress_runs_and_keep_singles() {
        assert_eq!(ranges(&[0, 1, 2, 3, 4, 7, 9, 10, 11, 12]), "0-4,7,9-12");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "");
        assert_eq!(ranges(&[1, 3]), "1,3");
    }

    #[test]
    fn executor_names_parse_and_unknown_ones_say_what_is_accepted() {
        assert_eq!(ExecutorSpec::parse("local").unwrap(), ExecutorSpec::Local);
        assert_eq!(ExecutorSpec::parse("slurm").unwrap(), ExecutorSpec::Slurm);
        assert!(matches!(
            ExecutorSpec::parse("command:run-one {index}").unwrap(),
            ExecutorSpec::Command(_)
        ));
        let e = ExecutorSpec::parse("k8s").unwrap_err();
        assert!(e.contains("local, slurm, or command:"), "{e}");
    }
}
