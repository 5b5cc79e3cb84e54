//! Where units run. Input: a [`Plan`], the indices still to run, and a [`Runtime`]. Output:
//! every one of those units run (or skipped after Ctrl-C) on a bounded local pool, with a
//! progress bar on stderr. Other executors (Slurm, `command:`) hand the same indices to
//! `harness unit` processes instead.

use crate::exit::{Exit, Fail};
use crate::progress::Outcome;
use crate::round::journal::{self, AnswerState, Plan};
use crate::round::record::DispatchStatus;
use crate::round::unit::{self, Runtime};
use anyhow::Result;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Which dispatches still need to run: those without a kept answer (on `--resume`, a dispatch
/// whose answer is kept never runs again). Their stale `.err` files are removed, so a failure
/// file always belongs to this run. An answer that is not the one recorded refuses the resume
/// (exit 10): running it again would hide the edit, scoring it would score the edit.
pub fn todo(plan: &Plan) -> Result<Vec<usize>> {
    let mut todo = Vec::new();
    let mut tampered = Vec::new();
    for (i, d) in plan.dispatches.iter().enumerate() {
        match journal::answer_state(&plan.out, &d.stem()) {
            AnswerState::Kept => {}
            AnswerState::Missing => todo.push(i),
            AnswerState::Tampered(why) => tampered.push(format!("  {}.txt: {why}", d.stem())),
        }
    }
    if !tampered.is_empty() {
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "TAMPERED: answers in {} are not the ones the harness wrote; the round is not resumed:\n{}",
                plan.out.display(),
                tampered.join("\n")
            ),
        )
        .into());
    }
    for &i in &todo {
        let stem = plan.dispatches[i].stem();
        let _ = std::fs::remove_file(crate::round::record::dispatch_file(&plan.out, &stem, "err"));
    }
    Ok(todo)
}

/// Runs `indices` on `jobs` threads. Ctrl-C raises the runtime's cancel flag: the handler does
/// nothing else, each unit's runner stops its own process group while it still holds the
/// unreaped leader (so no recycled group id can be signalled), and no new unit starts.
pub fn run_local(
    plan: &Plan,
    rt: &Runtime,
    indices: &[usize],
    jobs: usize,
    quiet: bool,
) -> Result<()> {
    {
        let cancel = rt.cancel.clone();
        let _ = ctrlc::set_handler(move || {
            cancel.store(true, Ordering::SeqCst);
        });
    }
    let progress = crate::progress::Progress::new(indices.len() as u64, quiet);
    // Plain threads taking the next index from one counter: a unit blocks for as long as its
    // agent runs, and a work-stealing pool (rayon) may leave a queued unit unstarted while
    // every thread that could steal it waits on an agent, so fewer than --jobs would run.
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, indices.len().max(1)) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&i) = indices.get(k) else { break };
                if rt.cancelled() {
                    break;
                }
                // The counts come from the dispatch's own record: its outcome and its retries.
                let rec = unit::run(plan, i, rt).ok();
                if rec.as_ref().is_some_and(|r| !r.retries.is_empty()) {
                    progress.retried();
                }
                progress.record(match rec.map(|r| r.status) {
                    Some(DispatchStatus::Answered) => Outcome::Answered,
                    Some(DispatchStatus::Cancelled) => Outcome::Cancelled,
                    _ => Outcome::Failed,
                });
            });
        }
    });
    progress.set_phase("report");
    progress.finish();
    Ok(())
}
