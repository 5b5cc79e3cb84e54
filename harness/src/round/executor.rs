//! Where units run. Input: a [`Plan`], the indices still to run, and a [`Runtime`]. Output:
//! every one of those units run (or skipped after Ctrl-C) on a bounded local pool, with a
//! progress bar on stderr. Other executors (Slurm, `command:`) hand the same indices to
//! `harness unit` processes instead.

use super::unit::{self, Runtime};
use crate::journal::Plan;
use crate::record::DispatchStatus;
use anyhow::Result;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Which dispatches still need to run: all of them, or on `--resume` those without a whole
/// answer. Their stale `.err` files are removed, so a failure file always belongs to this run.
pub fn todo(plan: &Plan, resume: bool) -> Vec<usize> {
    let todo: Vec<usize> = (0..plan.dispatches.len())
        .filter(|&i| {
            !(resume && crate::record::dispatch_is_whole(&plan.out, &plan.dispatches[i].stem()))
        })
        .collect();
    for &i in &todo {
        let _ = std::fs::remove_file(plan.out.join(format!("{}.err", plan.dispatches[i].stem())));
    }
    todo
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
    let failures = AtomicUsize::new(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    pool.install(|| {
        use rayon::prelude::*;
        indices.par_iter().for_each(|&i| {
            if rt.cancelled() {
                return;
            }
            let ok =
                matches!(unit::run(plan, i, rt), Ok(r) if r.status == DispatchStatus::Answered);
            if !ok {
                failures.fetch_add(1, Ordering::SeqCst);
            }
            progress.tick(failures.load(Ordering::SeqCst));
        });
    });
    progress.finish();
    Ok(())
}
