//! `--executor command:'…{index}…'`: any engine that runs numbered tasks (GNU parallel over
//! ssh, `kubectl` creating an Indexed Job, Nomad, a cloud batch CLI). The harness runs the
//! template once per index, `--jobs` at a time, and reads the units' results from the out-dir.
//!
//! The template is split into words once (shell rules, like `--agent command:`) and never run
//! through a shell: `{index}`, `{out}` and `{harness}` are replaced inside each word, so an
//! out-dir path with spaces or quotes stays one argument and can never become code. A
//! template that wants a shell says so itself (`sh -c '…'`), and then owns its quoting.

use super::{Ended, Units};
use crate::progress::Outcome;
use anyhow::{Context, Result};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The placeholders a command template may use.
const PLACEHOLDERS: [&str; 3] = ["{index}", "{out}", "{harness}"];

/// A parsed `command:` template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandTemplate {
    words: Vec<String>,
}

impl CommandTemplate {
    /// Splits and checks a template: it must name `{index}` (or every command would run the
    /// same unit) and no placeholder it does not know (a typo would run a literal `{idx}`).
    pub fn parse(template: &str) -> Result<Self, String> {
        let words = shell_words::split(template)
            .map_err(|e| format!("--executor command:{template}: {e}"))?;
        if words.is_empty() {
            return Err(
                "--executor command: needs a command, e.g. command:'harness unit --out {out} --index {index}'"
                    .into(),
            );
        }
        for w in &words {
            let mut rest = w.as_str();
            while let Some(start) = rest.find('{') {
                let tail = &rest[start..];
                let Some(end) = tail.find('}') else { break };
                let name = &tail[..=end];
                if !PLACEHOLDERS.contains(&name) {
                    return Err(format!(
                        "--executor command: unknown placeholder {name}; known: {}",
                        PLACEHOLDERS.join(", ")
                    ));
                }
                rest = &tail[end + 1..];
            }
        }
        if !words.iter().any(|w| w.contains("{index}")) {
            return Err(format!(
                "--executor command:{template}: the template never names {{index}}, so every command would run the same unit"
            ));
        }
        Ok(CommandTemplate { words })
    }

    /// The template as one line (for records and messages).
    pub fn as_string(&self) -> String {
        shell_words::join(&self.words)
    }

    /// The argv for one index.
    pub fn argv(&self, index: usize, out: &Path, harness: &Path) -> Vec<String> {
        let out = out.to_string_lossy();
        let harness = harness.to_string_lossy();
        self.words
            .iter()
            .map(|w| {
                w.replace("{index}", &index.to_string())
                    .replace("{out}", &out)
                    .replace("{harness}", &harness)
            })
            .collect()
    }
}

/// How long a command gets between SIGTERM and SIGKILL after Ctrl-C.
const GRACE: Duration = Duration::from_secs(5);

/// Runs the template for every index, `jobs` at a time; each command's output goes to
/// `executor/command-<index>.log` in the out-dir.
pub fn run(template: &CommandTemplate, units: &Units<'_>) -> Result<Ended> {
    let logs = units.log_dir();
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let progress = crate::progress::Progress::new(units.indices.len() as u64, units.quiet);
    // The stems of the units, to read each one's recorded retries after its command ends.
    let plan = crate::round::journal::load_plan(units.out).ok();
    let next = AtomicUsize::new(0);
    let notes = Mutex::new(Vec::new());
    let workers = units.jobs.clamp(1, units.indices.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                if units.cancel.load(Ordering::SeqCst) {
                    return;
                }
                let Some(&index) = units.indices.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let log = logs.join(format!("command-{index}.log"));
                let outcome_note = run_one(template, units, index, &log);
                if retried(plan.as_ref(), units.out, index) {
                    progress.retried();
                }
                if let Some(note) = outcome_note {
                    notes.lock().expect("notes").push(note);
                    progress.record(if units.cancel.load(Ordering::SeqCst) {
                        Outcome::Cancelled
                    } else {
                        Outcome::Failed
                    });
                } else {
                    progress.record(Outcome::Answered);
                }
            });
        }
    });
    progress.set_phase("report");
    progress.finish();
    let mut notes = notes.into_inner().expect("notes");
    notes.sort();
    Ok(Ended {
        interrupted: units.cancel.load(Ordering::SeqCst),
        notes,
    })
}

/// Whether unit `index`'s dispatch record lists an infrastructure retry (the unit's own
/// `--retries`, recorded by the `harness unit` process).
fn retried(plan: Option<&crate::round::journal::Plan>, out: &Path, index: usize) -> bool {
    let Some(stem) = plan.and_then(|p| p.dispatch(index).ok()).map(|d| d.stem()) else {
        return false;
    };
    crate::round::record::dispatch_records(out, [stem.as_str()])
        .first()
        .is_some_and(|r| !r.retries.is_empty())
}

/// Runs one command to its end (or until Ctrl-C); `Some(note)` when it did not exit 0.
fn run_one(
    template: &CommandTemplate,
    units: &Units<'_>,
    index: usize,
    log: &Path,
) -> Option<String> {
    let argv = template.argv(index, units.out, units.harness_exe);
    let child = std::fs::File::create(log).and_then(|f| {
        let err = f.try_clone()?;
        Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::null())
            .stdout(f)
            .stderr(err)
            // Its own process group, so Ctrl-C here can stop everything the command started.
            .process_group(0)
            .spawn()
    });
    let child = match child {
        Ok(c) => c,
        Err(e) => return Some(format!("unit {index}: `{}` did not start: {e}", argv[0])),
    };
    match wait_or_cancel(child, units) {
        Ok(status) if status.success() => None,
        Ok(status) => Some(format!(
            "unit {index}: the command ended with {status}; its output: {}",
            log.display()
        )),
        Err(e) => Some(format!("unit {index}: {e}")),
    }
}

/// Waits for a command; on Ctrl-C sends its process group SIGTERM, then SIGKILL after [`GRACE`].
fn wait_or_cancel(
    mut child: Child,
    units: &Units<'_>,
) -> std::io::Result<std::process::ExitStatus> {
    let pgid = child.id() as i32;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if units.cancel.load(Ordering::SeqCst) {
            // SAFETY: kill(2) with a negative pid signals the group this command leads; the
            // child is not reaped yet, so the group id cannot have been reused.
            unsafe { libc::kill(-pgid, libc::SIGTERM) };
            let deadline = std::time::Instant::now() + GRACE;
            while std::time::Instant::now() < deadline {
                if let Some(status) = child.try_wait()? {
                    return Ok(status);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            // SAFETY: as above.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
            return child.wait();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_replaced_inside_words_never_split_by_a_shell() {
        let t = CommandTemplate::parse("ssh node -- {harness} unit --out {out} --index={index}")
            .unwrap();
        let argv = t.argv(7, Path::new("/r/a b;rm -rf ~"), Path::new("/bin/h"));
        assert_eq!(
            argv,
            [
                "ssh",
                "node",
                "--",
                "/bin/h",
                "unit",
                "--out",
                "/r/a b;rm -rf ~",
                "--index=7"
            ]
        );
    }

    #[test]
    fn a_template_without_index_or_with_an_unknown_placeholder_is_refused() {
        let e = CommandTemplate::parse("harness unit --out {out}").unwrap_err();
        assert!(e.contains("never names {index}"), "{e}");
        let e = CommandTemplate::parse("run {idx} {index}").unwrap_err();
        assert!(e.contains("unknown placeholder {idx}"), "{e}");
        assert!(CommandTemplate::parse("").is_err());
        assert!(CommandTemplate::parse("run 'unterminated {index}").is_err());
    }
}
