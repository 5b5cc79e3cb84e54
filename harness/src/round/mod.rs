//! `harness run`: plan → executor → collect (DESIGN §4, §7.7, §11). Input: [`RunOptions`].
//! Output: the round's files in its out-dir and the exit it ends with.
//!
//! - [`plan`]: gates, manifest check, labels, the journal (RunOptions → Plan on disk)
//! - [`order`]: the seeded shuffle that interleaves the arms in time
//! - [`unit`](mod@unit): one dispatch (Plan, index → DispatchRecord)
//! - [`executor`]: where units run (the local pool, Slurm, `command:`)
//! - [`collect`]: score every answer, report, `ROUND_DONE` (out-dir → Exit)
//! - [`journal`], [`record`]: the plan and the records on disk; [`retry`], [`usage`],
//!   [`clean`]: what a dispatch retries, what the agents reported, dead rounds' temp folders

pub mod clean;
pub mod collect;
pub mod executor;
pub mod journal;
pub mod order;
pub mod plan;
pub mod record;
pub mod retry;
pub mod unit;
pub mod usage;

pub use crate::options::{Arms, DemoMode, RunOptions};

use crate::exit::Exit;
use anyhow::Result;
use record::RoundStatus;

/// Runs a round in this process. Returns the exit the round ends with.
pub fn run(opts: RunOptions) -> Result<Exit> {
    // A Landlock-only sandbox leaves /proc visible: a non-dumpable harness keeps an agent of
    // the same (non-root) user from reading its environment and memory through /proc.
    // (macOS has no such switch; its Seatbelt profile hides other processes from the agent.)
    // SAFETY: prctl with PR_SET_DUMPABLE takes plain integers and touches no memory of ours.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    crate::round::clean::sweep_before_round();
    let opts = if opts.resume {
        plan::resume_options(opts)?
    } else {
        opts
    };
    plan::activate_reading(&opts)?;
    let (jobs, quiet, keep) = (opts.jobs, opts.quiet, opts.keep_checkouts);
    let show = collect::Show {
        verbose: opts.verbose,
        json: opts.json,
        ..Default::default()
    };
    let plan::Planned {
        plan,
        qset,
        mut record,
        corpus,
        seal,
        agent,
        demo_dirs,
        lock: _lock,
        units: _units,
    } = plan::plan(opts)?;
    let todo = executor::local::todo(&plan)?;
    journal::fault_point("planned");
    let rt = unit::Runtime::new(&plan, &corpus, seal, agent, demo_dirs)?;
    if !todo.is_empty() {
        record.preflight = rt.preflight(&plan)?;
        record::save_round(&plan.out, &record)?;
    }
    executor::local::run_local(&plan, &rt, &todo, jobs, quiet)?;
    collect::settle(&plan, &mut record);
    let cancelled = rt.cancelled();
    rt.close(keep);
    if cancelled {
        return interrupted(&plan, &mut record);
    }
    journal::fault_point("dispatched");
    collect::finish(&plan, &qset, &mut record, show)
}

/// Ctrl-C: the round record says interrupted, and the user is told the one command that
/// finishes it (every kept answer stays; only the missing ones run).
fn interrupted(plan: &journal::Plan, record: &mut record::RoundRecord) -> Result<Exit> {
    record.status = RoundStatus::Interrupted;
    record.finished = Some(chrono::Utc::now().to_rfc3339());
    record.counts = record::count_dispatches(&plan.out, plan.dispatches.len());
    record::save_round(&plan.out, record)?;
    eprintln!(
        "harness: interrupted; running agents were stopped. {} of {} answers are kept. Finish the round with:\n  {}",
        record.counts.answered,
        record.counts.planned,
        resume_command(&plan.out)
    );
    Ok(Exit::Incomplete)
}

/// `harness run --out DIR --resume`, with DIR quoted for a POSIX shell when it needs it.
pub fn resume_command(out: &std::path::Path) -> String {
    let s = out.display().to_string();
    let plain = s
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%,".contains(&b));
    let shown = if plain && !s.is_empty() {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    };
    format!("harness run --out {shown} --resume")
}
