//! `--executor slurm`: the units as one Slurm array job (`sbatch --array=…%M`), each task
//! running `harness unit --out OUT --index $SLURM_ARRAY_TASK_ID`. The harness waits with a
//! progress bar over the tasks' states (`squeue`), and Ctrl-C cancels the array (`scancel`).
//!
//! If the harness itself dies while waiting, the array keeps running: the units write into the
//! out-dir on their own, and `harness collect --out OUT` (or `run --out OUT --resume`) finishes
//! the round from what they wrote.

use super::{ranges, Ended, Units};
use crate::config::SlurmConfig;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What the array job asks Slurm for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlurmOptions {
    /// `--partition`, if any.
    pub partition: Option<String>,
    /// `--time`: given, or derived from the agent timeout (see [`SlurmOptions::resolve`]).
    pub time: String,
    /// `--mem`, if any.
    pub mem: Option<String>,
    /// More `sbatch` options, config's first, then the flags'.
    pub extra: Vec<String>,
}

impl SlurmOptions {
    /// Flags over `harness.toml`. Without a time limit anywhere, a task gets the agent's
    /// timeout for every attempt plus ten minutes for the checkout: a limit below that would
    /// kill units Slurm-side that the harness would have let finish.
    pub fn resolve(
        config: &SlurmConfig,
        partition: Option<String>,
        time: Option<String>,
        mem: Option<String>,
        extra: Vec<String>,
        agent_timeout: Duration,
        retries: u32,
    ) -> SlurmOptions {
        let derived = || {
            let secs = agent_timeout.as_secs() * (u64::from(retries) + 1) + 600;
            secs.div_ceil(60).to_string()
        };
        SlurmOptions {
            partition: partition.or_else(|| config.partition.clone()),
            time: time.or_else(|| config.time.clone()).unwrap_or_else(derived),
            mem: mem.or_else(|| config.mem.clone()),
            extra: config.extra.iter().cloned().chain(extra).collect(),
        }
    }

    /// The `sbatch` arguments for an array over `indices`, `jobs` at a time.
    pub fn sbatch_args(&self, units: &Units<'_>) -> Vec<String> {
        let logs = units.log_dir();
        let mut a = vec![
            "--parsable".to_string(),
            // A name that says what runs, never which arm or question.
            "--job-name=harness-unit".to_string(),
            format!("--array={}%{}", ranges(units.indices), units.jobs.max(1)),
            format!("--output={}/slurm-%A_%a.log", logs.display()),
            format!("--chdir={}", units.out.display()),
            format!("--time={}", self.time),
        ];
        if let Some(p) = &self.partition {
            a.push(format!("--partition={p}"));
        }
        if let Some(m) = &self.mem {
            a.push(format!("--mem={m}"));
        }
        a.extend(self.extra.iter().cloned());
        a
    }
}

/// The batch script: one unit, chosen by the task's index. Paths are shell-quoted.
pub fn batch_script(units: &Units<'_>) -> String {
    format!(
        "#!/bin/sh\n# One unit of the harness round in this out-dir, chosen by the array index.\nexec {} unit --out {} --index \"$SLURM_ARRAY_TASK_ID\"\n",
        shell_words::quote(&units.harness_exe.to_string_lossy()),
        shell_words::quote(&units.out.to_string_lossy()),
    )
}

/// Submits the array, waits for every task to end (or Ctrl-C, which cancels it).
pub fn run(opts: &SlurmOptions, units: &Units<'_>) -> Result<Ended> {
    let logs = units.log_dir();
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let job = submit(opts, units)?;
    eprintln!(
        "slurm: array job {job}: {} units, at most {} at once; task logs in {}",
        units.indices.len(),
        units.jobs,
        logs.display()
    );
    let states = wait(&job, units)?;
    let mut ended = Ended {
        interrupted: units.cancel.load(Ordering::SeqCst),
        notes: Vec::new(),
    };
    for (index, state) in &states {
        if state != "COMPLETED" {
            ended.notes.push(format!(
                "unit {index}: Slurm task {job}_{index} ended {state}; its log: {}",
                logs.join(format!("slurm-{job}_{index}.log")).display()
            ));
        }
    }
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for s in states.values() {
        *tally.entry(s.as_str()).or_default() += 1;
    }
    let tally: Vec<String> = tally.iter().map(|(s, n)| format!("{n} {s}")).collect();
    eprintln!("slurm: array job {job} ended: {}", tally.join(", "));
    Ok(ended)
}

fn submit(opts: &SlurmOptions, units: &Units<'_>) -> Result<String> {
    let args = opts.sbatch_args(units);
    let mut child = Command::new("sbatch")
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            crate::exit::Fail::new(
                crate::exit::Exit::Usage,
                format!("--executor slurm: cannot run sbatch ({e}); is Slurm's client installed and on PATH?"),
            )
        })?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(batch_script(units).as_bytes())?;
    let out = child.wait_with_output()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "sbatch refused the array ({}): {}\n  sbatch {}",
                out.status,
                crate::text::clean_line(&stderr, 500),
                shell_words::join(&args)
            ),
        )
        .into());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let job = stdout.trim().split(';').next().unwrap_or("").to_string();
    if job.is_empty() || !job.bytes().all(|b| b.is_ascii_digit()) {
        anyhow::bail!("sbatch did not print a job id (stdout: {stdout:?}, stderr: {stderr:?})");
    }
    Ok(job)
}

/// A task state Slurm may still change on its own.
fn is_active(state: &str) -> bool {
    matches!(
        state,
        "PENDING"
            | "RUNNING"
            | "CONFIGURING"
            | "COMPLETING"
            | "SUSPENDED"
            | "REQUEUED"
            | "REQUEUE_HOLD"
            | "REQUEUE_FED"
            | "RESIZING"
            | "SIGNALING"
            | "STAGE_OUT"
            | "STOPPED"
            | "RESV_DEL_HOLD"
    )
}

/// One look at the array: index → (state, pending reason). `None` when Slurm no longer knows
/// the job (every task ended and was purged).
fn poll(job: &str) -> Result<Option<BTreeMap<usize, (String, String)>>> {
    let out = Command::new("squeue")
        .args(["--noheader", "--array", "--states=all", "--format=%K|%T|%r"])
        .arg(format!("--jobs={job}"))
        .stdin(Stdio::null())
        .output()
        .context("running squeue")?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        if stderr.contains("Invalid job id") {
            return Ok(None);
        }
        anyhow::bail!("squeue failed ({}): {}", out.status, stderr.trim());
    }
    let mut seen = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let mut f = line.splitn(3, '|');
        let (Some(k), Some(state)) = (f.next(), f.next()) else {
            continue;
        };
        let reason = f.next().unwrap_or("").trim().to_string();
        if let Ok(index) = k.trim().parse::<usize>() {
            seen.insert(index, (state.trim().to_string(), reason));
        }
    }
    Ok(Some(seen))
}

/// Polls until no task is active; returns each task's last known state. Ctrl-C cancels the
/// array and keeps polling until Slurm has stopped every task.
fn wait(job: &str, units: &Units<'_>) -> Result<BTreeMap<usize, String>> {
    let bar = bar(units.indices.len() as u64, units.quiet);
    let mut last: BTreeMap<usize, String> = units
        .indices
        .iter()
        .map(|&i| (i, "PENDING".to_string()))
        .collect();
    let mut cancelled = false;
    let mut failing_since: Option<Instant> = None;
    loop {
        if units.cancel.load(Ordering::SeqCst) && !cancelled {
            cancelled = true;
            bar.set_message("Ctrl-C: cancelling the array");
            let s = Command::new("scancel").arg(job).status();
            if !matches!(s, Ok(st) if st.success()) {
                eprintln!("harness: scancel {job} failed ({s:?}); cancel it yourself");
            }
        }
        match poll(job) {
            Ok(None) => {
                // Purged: every task ended. Those never seen ending keep "ENDED".
                for s in last.values_mut() {
                    if is_active(s) {
                        *s = "ENDED (purged before its state was seen)".into();
                    }
                }
                break;
            }
            Ok(Some(seen)) => {
                failing_since = None;
                // A task missing from squeue has ended and been purged (MinJobAge).
                for (i, s) in last.iter_mut() {
                    match seen.get(i) {
                        Some((state, _)) => *s = state.clone(),
                        None if is_active(s) => {
                            *s = "ENDED (purged before its state was seen)".into()
                        }
                        None => {}
                    }
                }
                let active = last.values().filter(|s| is_active(s)).count();
                let running = last.values().filter(|s| *s == "RUNNING").count();
                let bad = last
                    .values()
                    .filter(|s| !is_active(s) && *s != "COMPLETED")
                    .count();
                let reason = seen
                    .values()
                    .find(|(s, r)| s == "PENDING" && !r.is_empty() && r != "None")
                    .map(|(_, r)| format!(", pending: {r}"))
                    .unwrap_or_default();
                bar.set_position((last.len() - active) as u64);
                bar.set_message(format!(
                    "{running} running, {} pending, {bad} not completed{reason}",
                    active - running
                ));
                if active == 0 {
                    break;
                }
            }
            Err(e) => {
                let since = *failing_since.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(120) {
                    bar.finish_and_clear();
                    return Err(e.context(format!(
                        "squeue has failed for 2 minutes; array job {job} may still be running (its units write into the out-dir on their own): finish with `harness collect --out {}` once it ends, or `scancel {job}`",
                        units.out.display()
                    )));
                }
            }
        }
        std::thread::sleep(Duration::from_millis(if cancelled { 250 } else { 1000 }));
    }
    bar.finish_and_clear();
    Ok(last)
}

fn bar(total: u64, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} slurm tasks ended {msg}",
            )
            .expect("static template")
            .progress_chars("=> "),
        );
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn units<'a>(indices: &'a [usize], cancel: &'a Arc<AtomicBool>) -> Units<'a> {
        Units {
            out: Path::new("/shared/rounds/it's here"),
            indices,
            harness_exe: Path::new("/opt/harness bin/harness"),
            jobs: 8,
            quiet: true,
            cancel,
        }
    }

    #[test]
    fn flags_override_the_config_and_the_time_limit_covers_every_attempt() {
        let config = SlurmConfig {
            partition: Some("cpu".into()),
            time: None,
            mem: Some("2G".into()),
            extra: vec!["--account=lab".into()],
        };
        let o = SlurmOptions::resolve(
            &config,
            Some("gpu".into()),
            None,
            None,
            vec!["--qos=low".into()],
            Duration::from_secs(600),
            2,
        );
        assert_eq!(o.partition.as_deref(), Some("gpu"));
        assert_eq!(o.mem.as_deref(), Some("2G"));
        // 3 attempts × 10 min + 10 min for the checkout.
        assert_eq!(o.time, "40");
        assert_eq!(o.extra, ["--account=lab", "--qos=low"]);
        let cancel = Arc::new(AtomicBool::new(false));
        let a = o.sbatch_args(&units(&[0, 1, 2, 5], &cancel));
        assert!(a.contains(&"--array=0-2,5%8".to_string()), "{a:?}");
        assert!(a.contains(&"--partition=gpu".to_string()), "{a:?}");
        assert!(a.contains(&"--time=40".to_string()), "{a:?}");
    }

    #[test]
    fn the_batch_script_quotes_paths_so_they_stay_one_word() {
        let cancel = Arc::new(AtomicBool::new(false));
        let s = batch_script(&units(&[0], &cancel));
        let exec = s.lines().last().unwrap();
        let words = shell_words::split(exec).unwrap();
        assert_eq!(
            words,
            [
                "exec",
                "/opt/harness bin/harness",
                "unit",
                "--out",
                "/shared/rounds/it's here",
                "--index",
                "$SLURM_ARRAY_TASK_ID"
            ]
        );
    }

    /// A stand-in for `harness unit`: records its index, fails on index 1.
    fn fake_harness(dir: &Path) -> std::path::PathBuf {
        let exe = dir.join("fake-harness");
        std::fs::write(
            &exe,
            "#!/bin/sh\n# unit --out OUT --index N\n[ \"$5\" = 1 ] && exit 3\necho \"$1 $5\" > \"$3/ran-$5\"\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    #[test]
    #[ignore = "needs a Slurm cluster: .ci/slurm.sh"]
    fn an_array_runs_every_listed_index_once_and_names_the_task_that_failed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out dir");
        std::fs::create_dir_all(&out).unwrap();
        let exe = fake_harness(dir.path());
        let cancel = Arc::new(AtomicBool::new(false));
        let indices = [0, 1, 2, 5];
        let units = Units {
            out: &out,
            indices: &indices,
            harness_exe: &exe,
            jobs: 2,
            quiet: true,
            cancel: &cancel,
        };
        let opts = SlurmOptions {
            time: "5".into(),
            ..Default::default()
        };
        let ended = run(&opts, &units).unwrap();
        assert!(!ended.interrupted);
        for i in [0, 2, 5] {
            let ran = std::fs::read_to_string(out.join(format!("ran-{i}"))).unwrap();
            assert_eq!(ran, format!("unit {i}\n"));
        }
        assert!(!out.join("ran-3").exists() && !out.join("ran-1").exists());
        assert_eq!(ended.notes.len(), 1, "{:?}", ended.notes);
        assert!(
            ended.notes[0].starts_with("unit 1: Slurm task ") && ended.notes[0].contains("FAILED"),
            "{:?}",
            ended.notes
        );
    }
}
