//! The round's three steps as commands of their own, and `harness run` over any executor
//! (DESIGN §4): `harness plan` (gates + journal), `harness unit --index N` (one dispatch, in
//! whatever process or machine it lands on), `harness collect` (score, report, `ROUND_DONE`).
//! Input: [`RunOptions`] or an out-dir. Output: the round's files and the exit it ends with.
//! `--executor local` is the same plan → unit → collect path in one process.

use crate::exit::{Exit, Fail};
use crate::round::collect::{self, Show};
use crate::round::executor::{
    self, slurm::SlurmOptions, Ended, ExecutorChoice, ExecutorSpec, Units,
};
use crate::round::journal::{self, Plan};
use crate::round::record::{self, DispatchStatus, RoundStatus};
use crate::round::{plan, unit, RunOptions};
use crate::text::clean_line;
use anyhow::{Context, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How long an ended executor's units may take to release their locks before collect refuses.
const UNIT_EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

/// A harness that dumps core or lets `/proc/<pid>/environ` be read would show a Landlock-only
/// agent of the same user what the round holds; every step runs non-dumpable.
fn not_dumpable() {
    // SAFETY: prctl with PR_SET_DUMPABLE takes plain integers and touches no memory of ours.
    // (macOS has no such switch; its Seatbelt profile hides other processes from the agent.)
    #[cfg(target_os = "linux")]
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// Raised by Ctrl-C (and SIGTERM, which is how Slurm preempts or cancels a task).
fn cancel_flag() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let c = cancel.clone();
    let _ = ctrlc::set_handler(move || c.store(true, Ordering::SeqCst));
    cancel
}

/// `harness plan`: every check that can refuse the round, and the journal; no agent runs.
pub fn plan_cmd(opts: RunOptions) -> Result<Exit> {
    not_dumpable();
    plan::activate_reading(&opts)?;
    let json = opts.json;
    let planned = plan::plan(opts)?;
    let p = &planned.plan;
    let n = p.dispatches.len();
    if json {
        let v = serde_json::json!({
            "out": p.out.display().to_string(),
            "units": n,
            "unit": format!("harness unit --out {} --index N", p.out.display()),
            "collect": format!("harness collect --out {}", p.out.display()),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(Exit::Ok);
    }
    println!(
        "planned: {n} units (indices 0 to {}) in {}",
        n.saturating_sub(1),
        p.out.display()
    );
    for line in power_lines(&planned.qset, p.options.reps) {
        println!("{line}");
    }
    println!(
        "next: harness unit --out {} --index N for every N (on machines sharing the out-dir), then harness collect --out {}",
        p.out.display(),
        p.out.display()
    );
    Ok(Exit::Ok)
}

/// `harness run --dry-run`: the round's checks (gate table included), the dispatch count and
/// the same power line as `harness plan`; nothing is dispatched or written.
pub fn dry_run_cmd(opts: RunOptions) -> Result<Exit> {
    not_dumpable();
    plan::activate_reading(&opts)?;
    let json = opts.json;
    let d = plan::dry_run(opts)?;
    let power = power_lines(&d.qset, d.reps);
    if json {
        let v = serde_json::json!({
            "dry_run": true,
            "dispatches": d.dispatches,
            "questions": d.qset.questions.len(),
            "arms": d.arms,
            "reps": d.reps,
            "power": power,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(Exit::Ok);
    }
    println!(
        "dry run: the checks pass; the round would make {} dispatches ({} questions × {} arm(s) × {} reps); nothing was dispatched or written",
        d.dispatches,
        d.qset.questions.len(),
        d.arms,
        d.reps
    );
    for line in power {
        println!("{line}");
    }
    Ok(Exit::Ok)
}

/// The power lines: for the qset's item counts, what the exact item tests the reports use can
/// detect at 80% power (two-sided α = 0.05), ARM−CTRL in a round's report and A−B in
/// `compare`, or that no test can reach p < 0.05 with that many items. Reps do not enter:
/// items are the unit.
pub fn power_lines(qset: &scorer::qset::Qset, reps: u32) -> Vec<String> {
    let mut out = vec![format!(
        "power (80%, two-sided α=0.05, the exact item tests the reports use; items are the unit, so {reps} rep(s) per item do not add to it): smallest detectable difference, as the share of items that must move one way"
    )];
    for (name, kind) in [
        ("DELIVERY", scorer::Kind::Positive),
        ("HUI", scorer::Kind::Negative),
        ("CARRIER-READ", scorer::Kind::Conflict),
    ] {
        let items = qset.questions.iter().filter(|q| q.kind == kind).count() as u64;
        let p = reports::stats::item_power(items);
        let share = |x: Option<f64>| match x {
            Some(q) => format!("{q:.2}"),
            None => "none".into(),
        };
        out.push(if items == 0 {
            format!("  {name:<12} UNMEASURED: the qset has no {kind} items")
        } else if p.arm_ctrl.is_none() {
            format!(
                "  {name:<12} {items} item{}: no test can reach p < 0.05 with {items} item{} (the smallest p is {:.4}); add items, not reps",
                if items == 1 { "" } else { "s" },
                if items == 1 { "" } else { "s" },
                0.5f64.powi(items as i32 - 1).min(1.0)
            )
        } else {
            format!(
                "  {name:<12} {items} item{}: {} by McNemar on the items that moved (ARM−CTRL), {} by the sign test over all items (ARM−CTRL and A−B)",
                if items == 1 { "" } else { "s" },
                share(p.arm_ctrl),
                share(p.a_b)
            )
        });
    }
    out
}

/// `harness unit --out DIR --index N`: runs dispatch N unless its answer is already recorded.
/// Exit 0 when it answered (now or before), 13 when it failed (the `.err` says why).
pub fn unit_cmd(out: &Path, index: usize) -> Result<Exit> {
    not_dumpable();
    let out = std::path::absolute(out)?;
    let plan = journal::load_plan(&out)?;
    let stem = plan.dispatch(index)?.stem();
    // Never while the round is being scored or run by one process: its answer would land
    // after collect counted the round, or a resume would run this unit a second time.
    let _round = match journal::UnitsLock::try_shared(&out)? {
        Ok(lock) => lock,
        Err(holder) => {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "unit {index} not run: {} holds the round ({}); run it again once that has ended, then collect again",
                    holder.0,
                    journal::UnitsLock::path(&out).display()
                ),
            )
            .into());
        }
    };
    // One process per unit at a time: a requeued task may start while the old one still ends.
    let Some(_lock) = journal::UnitLock::try_take(&out, index)? else {
        eprintln!("harness: unit {index} is being run by another process; nothing to do");
        return Ok(Exit::Ok);
    };
    match journal::answer_state(&out, &stem) {
        journal::AnswerState::Kept => {
            eprintln!("harness: unit {index} is already answered; nothing to do");
            return Ok(Exit::Ok);
        }
        journal::AnswerState::Tampered(why) => {
            return Err(Fail::new(
                Exit::ManifestMismatch,
                format!("TAMPERED: unit {index} ({stem}.txt): {why}; it is not run again (that would hide the edit)"),
            )
            .into());
        }
        journal::AnswerState::Missing => {}
    }
    // A failure file of an earlier attempt must not outlive this one.
    let _ = std::fs::remove_file(crate::round::record::dispatch_file(&out, &stem, "err"));
    let rt = unit::Runtime::open(&plan)?;
    {
        let c = rt.cancel.clone();
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::SeqCst));
    }
    let rec = unit::run(&plan, index, &rt)?;
    rt.close(plan.options.keep_checkouts);
    if rec.status == DispatchStatus::Answered {
        Ok(Exit::Ok)
    } else {
        eprintln!(
            "harness: unit {index} did not answer: {}",
            rec.reason.as_deref().unwrap_or("no reason recorded")
        );
        Ok(Exit::Incomplete)
    }
}

/// `harness collect --out DIR`: refuses while a unit still runs; lists the units without an
/// answer; then scores, reports and writes `ROUND_DONE` (exit 13 when any is missing).
pub fn collect_cmd(out: &Path, show: Show) -> Result<Exit> {
    not_dumpable();
    let out = std::path::absolute(out)?;
    let plan = journal::load_plan(&out)?;
    plan::activate_reading(&plan.options)?;
    // Held until the round is scored: a unit that starts now refuses instead of finishing
    // unscored beside a `complete: yes`.
    let units = journal::no_unit_runs(&out, "collect")?;
    list_missing(&plan, show);
    collect::collect(&out, show, &units)
}

/// Prints every unit without a kept answer, with the reason its `.err` gives or, when there is
/// none, what that means: the one kind of failure a unit cannot report itself.
pub fn list_missing(plan: &Plan, show: Show) {
    let missing: Vec<(usize, String)> = plan
        .dispatches
        .iter()
        .enumerate()
        .map(|(i, d)| (i, d.stem()))
        .filter(|(_, stem)| journal::answer_state(&plan.out, stem) != journal::AnswerState::Kept)
        .collect();
    if missing.is_empty() {
        return;
    }
    show.say(&format!(
        "missing: {} of {} units have no answer:",
        missing.len(),
        plan.dispatches.len()
    ));
    for (i, stem) in missing {
        let why = match std::fs::read_to_string(crate::round::record::dispatch_file(&plan.out, &stem, "err")) {
            Ok(reason) => clean_line(reason.trim(), 200),
            Err(_) => "no answer and no error file: the unit never ran, or was killed before it could write one".into(),
        };
        show.say(&format!("  unit {i} ({stem}): {why}"));
    }
    show.say(&format!(
        "  run them again with: harness unit --out {} --index N, or harness run --out {} --resume --executor …",
        plan.out.display(),
        plan.out.display()
    ));
}

/// `harness run`: plan, the units on the chosen executor, collect.
pub fn run(opts: RunOptions, exec: ExecutorChoice) -> Result<Exit> {
    if exec.spec == ExecutorSpec::Local {
        return crate::round::run(opts);
    }
    not_dumpable();
    crate::round::clean::sweep_before_round();
    let opts = if opts.resume {
        plan::resume_options(opts)?
    } else {
        opts
    };
    plan::activate_reading(&opts)?;
    let (jobs, quiet) = (opts.jobs, opts.quiet);
    let (timeout, retries) = (opts.timeout, opts.retries);
    let show = Show {
        verbose: opts.verbose,
        json: opts.json,
        ..Default::default()
    };
    let planned = plan::plan(opts)?;
    let (plan, qset, mut record) = (planned.plan, planned.qset, planned.record);
    // The units rebuild the base themselves; this process keeps nothing of it, nor the
    // round-level lock they take shared.
    drop((planned.corpus, planned.seal, planned.agent, planned.units));
    let _demo = planned.demo_dirs;
    let todo = crate::round::executor::local::todo(&plan)?;
    // The preflight checks this machine's agent; the units run on others.
    let preflight = format!(
        "not run: --executor {} runs the units on other machines (check one with harness doctor there)",
        exec.spec.name()
    );
    show.say(&format!("preflight: {preflight}"));
    record.preflight = Some(preflight);
    let config = crate::config::load(plan.options.config.as_deref(), None)?;
    let slurm = SlurmOptions::resolve(
        &config.config.slurm,
        exec.slurm_partition,
        exec.slurm_time,
        exec.slurm_mem,
        exec.slurm_opt,
        timeout,
        retries,
    );
    let cancel = cancel_flag();
    let harness_exe = std::env::current_exe().context("locating the harness binary")?;
    let units = Units {
        out: &plan.out,
        indices: &todo,
        harness_exe: &harness_exe,
        jobs,
        quiet,
        cancel: &cancel,
    };
    let ended = executor::run(&exec.spec, &slurm, &units)?;
    // Scored only once no unit runs (a requeued straggler refuses from here on); a unit the
    // scheduler just reported ended may still be exiting.
    let _units = journal::no_unit_runs_after(&plan.out, "collect", UNIT_EXIT_GRACE)?;
    report_ended(&ended, show);
    collect::settle(&plan, &mut record);
    if ended.interrupted {
        record.status = RoundStatus::Interrupted;
        record.finished = Some(chrono::Utc::now().to_rfc3339());
        record.counts = record::count_dispatches(&plan.out, plan.dispatches.len());
        record::save_round(&plan.out, &record)?;
        eprintln!(
            "harness: interrupted; the executor's units were stopped. Finish with: harness run --out {} --resume --executor {}",
            plan.out.display(),
            exec.spec.name()
        );
        return Ok(Exit::Incomplete);
    }
    list_missing(&plan, show);
    collect::finish(&plan, &qset, &mut record, show)
}

/// The executor's own account of units that ended badly.
fn report_ended(ended: &Ended, show: Show) {
    for n in &ended.notes {
        show.say(&format!("executor: {}", clean_line(n, 400)));
    }
}
