//! A small round for the executor tests (tests/executor.rs, tests/slurm.rs): a real git
//! repository, a qset whose tokens are assembled at run time, a seal, and readers for what a
//! round leaves in its out-dir. Two rounds of the same fixture have different labels, so they
//! are compared by (qid, kind, arm, rep, verdict) rows and by ROUND_DONE's counts.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;
pub use common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

/// One round's inputs in a temp folder.
pub struct Round {
    pub dir: tempfile::TempDir,
    pub repo: PathBuf,
    pub qset: PathBuf,
    pub seal: PathBuf,
}

impl Round {
    /// Two positives the seal answers, one negative it is silent on.
    pub fn new() -> Round {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        make_repo(
            &repo,
            &[
                ("README.md", b"A small service.\n"),
                ("src/main.sh", b"#!/bin/sh\necho service\n"),
            ],
        );
        let inputs = dir.path().join("inputs");
        std::fs::create_dir_all(&inputs).unwrap();
        let (t1, t2, t3) = (tok("dq"), tok("pz"), tok("ng"));
        let qset = inputs.join("questions.tsv");
        write_qset(
            &qset,
            &[
                ["Q_deploy", "positive", "What is the deploy codename?", &t1],
                [
                    "Q_port",
                    "positive",
                    "Which port does the staging proxy listen on?",
                    &t2,
                ],
                [
                    "Q_cat",
                    "negative",
                    "Which colour does the office cat have?",
                    &t3,
                ],
            ],
        );
        let seal = inputs.join("handoff.md");
        std::fs::write(
            &seal,
            format!("# Hand-off\ndeploy codename: {t1}\nstaging proxy port: {t2}\n"),
        )
        .unwrap();
        Round {
            dir,
            repo,
            qset,
            seal,
        }
    }

    /// A new out-dir path under the fixture.
    pub fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("rounds").join(name)
    }

    /// The arguments of `harness <cmd>` with this round's inputs and `extra` flags.
    pub fn args(&self, cmd: &str, out: &Path, extra: &[&str]) -> Vec<std::ffi::OsString> {
        let mut a: Vec<std::ffi::OsString> =
            vec![cmd.into(), "--qset".into(), self.qset.clone().into()];
        a.extend(["--seal".into(), self.seal.clone().into()]);
        a.extend(["--repo".into(), self.repo.clone().into()]);
        a.extend(["--out".into(), out.into(), "--quiet".into()]);
        a.extend(extra.iter().map(|e| e.into()));
        a
    }

    /// `harness <cmd>` with this round's inputs and `extra` flags.
    pub fn cmd(&self, cmd: &str, out: &Path, extra: &[&str]) -> assert_cmd::Command {
        let mut c = harness();
        c.args(self.args(cmd, out, extra));
        c
    }

    /// `harness run` to its end (at most `secs`).
    pub fn run(&self, out: &Path, extra: &[&str], secs: u64) -> Output {
        let mut c = self.cmd("run", out, extra);
        c.timeout(Duration::from_secs(secs));
        c.output().unwrap()
    }
}

/// `command:<abs script> {prompt}`.
pub fn agent(script: &str) -> String {
    format!("command:{} {{prompt}}", agents_dir().join(script).display())
}

/// The round's verdict rows as (qid, kind, arm, rep, verdict), sorted: labels left out, since
/// two rounds of the same fixture get different ones.
pub fn rows(out: &Path) -> Vec<(String, String, String, u32, String)> {
    let text = std::fs::read_to_string(out.join("verdicts.csv")).expect("verdicts.csv");
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("status,qid,kind,arm,rep,verdict,"),
        "verdicts.csv header changed: {header}"
    );
    let mut v: Vec<_> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.splitn(9, ',').collect();
            (
                f[1].to_string(),
                f[2].to_string(),
                f[3].to_string(),
                f[4].parse().unwrap(),
                f[5].to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

/// ROUND_DONE as key → the value's first word (`complete: yes (answers == rows …)` → `yes`).
pub fn round_done(out: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(out.join("ROUND_DONE"))
        .unwrap_or_else(|e| panic!("{}/ROUND_DONE: {e}", out.display()));
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| {
            let first = v.split_whitespace().next().unwrap_or("");
            (k.to_string(), first.to_string())
        })
        .collect()
}

/// The ROUND_DONE lines two runs of one round must agree on, whatever ran the units.
pub fn outcome(out: &Path) -> Vec<(String, String)> {
    let done = round_done(out);
    [
        "complete",
        "answers",
        "rows",
        "dispatch_errors",
        "verdict",
        "claimed",
        "manifest",
        "reps",
        "arms",
    ]
    .iter()
    .map(|k| {
        (
            k.to_string(),
            done.get(*k)
                .unwrap_or_else(|| panic!("ROUND_DONE lacks {k}: {done:?}"))
                .clone(),
        )
    })
    .collect()
}

/// Answer files (`<label>_r<n>.txt`) of the round in `out` (none before the first is written).
pub fn answer_count(out: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dispatches(out)) else {
        return 0;
    };
    rd.filter(|e| {
        let n = e
            .as_ref()
            .unwrap()
            .file_name()
            .to_string_lossy()
            .into_owned();
        n.ends_with(".txt") && n.contains("_r")
    })
    .count()
}

/// stdout and stderr of a finished command, for assertion messages.
pub fn shown(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
