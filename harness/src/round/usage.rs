//! Per-arm totals of what the agents reported doing (issue 11): tokens, cost and time, and the
//! rows whose agent had a tool use denied ("could not look" is not "did not look"). Printed
//! after the verdict and written to `usage.json`; a total no dispatch reported is
//! `UNMEASURED`, never 0.

use crate::round::record::DispatchRecord;
use anyhow::Result;
use scorer::Arm;
use serde::Serialize;
use std::path::Path;

/// One arm's totals.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct ArmUsage {
    /// Dispatches with a record.
    pub dispatches: usize,
    /// Sum of input tokens, `None` when no dispatch reported any.
    pub input_tokens: Option<u64>,
    /// Sum of output tokens, `None` when no dispatch reported any.
    pub output_tokens: Option<u64>,
    /// Sum of reported cost in USD, `None` when no dispatch reported one.
    pub cost_usd: Option<f64>,
    /// Dispatches whose agent reported a cost (the sum covers these only).
    pub cost_reported: usize,
    /// Dispatches with failed attempts before their last (those attempts' usage is not in
    /// the sums: each attempt starts a fresh record).
    pub retried: usize,
    /// Sum of wall time in seconds (the harness's own measure).
    pub wall_secs: f64,
    /// Dispatches with at least one permission denial.
    pub with_denials: usize,
    /// Dispatches with at least one tool error.
    pub with_tool_errors: usize,
}

fn add_u(slot: &mut Option<u64>, v: Option<u64>) {
    if let Some(v) = v {
        *slot = Some(slot.unwrap_or(0) + v);
    }
}

/// Totals per arm from the dispatch records of `plan`.
pub fn totals(
    out: &Path,
    plan: &[crate::round::journal::Dispatch],
) -> Vec<(Arm, ArmUsage, Vec<String>)> {
    let mut res: Vec<(Arm, ArmUsage, Vec<String>)> = Vec::new();
    for d in plan {
        let Some(rec) = std::fs::read(crate::round::record::dispatch_file(out, &d.stem(), "json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<DispatchRecord>(&b).ok())
        else {
            continue;
        };
        let i = match res.iter().position(|(a, _, _)| *a == d.arm) {
            Some(i) => i,
            None => {
                res.push((d.arm, ArmUsage::default(), Vec::new()));
                res.len() - 1
            }
        };
        let (_, u, flagged) = &mut res[i];
        u.dispatches += 1;
        u.wall_secs += rec.duration_secs;
        if !rec.retries.is_empty() {
            u.retried += 1;
        }
        if let Some(a) = &rec.activity {
            add_u(&mut u.input_tokens, a.input_tokens);
            add_u(&mut u.output_tokens, a.output_tokens);
            if let Some(c) = a.cost_usd {
                u.cost_usd = Some(u.cost_usd.unwrap_or(0.0) + c);
                u.cost_reported += 1;
            }
            if !a.permission_denials.is_empty() {
                u.with_denials += 1;
                flagged.push(format!(
                    "{} {} {} r{}: {} permission denial(s)",
                    d.stem(),
                    d.qid,
                    d.arm,
                    d.rep,
                    a.permission_denials.len()
                ));
            }
            if !a.tool_errors.is_empty() {
                u.with_tool_errors += 1;
            }
        }
    }
    res
}

fn show_u(v: Option<u64>) -> String {
    v.map(|v| v.to_string())
        .unwrap_or_else(|| "UNMEASURED".into())
}

/// The agents' reported cost over the round (`$0.1234`), when any dispatch reported one; a
/// sum over only some dispatches says so, and so do retried attempts left out of it.
pub fn cost_text(out: &Path, plan: &[crate::round::journal::Dispatch]) -> Option<String> {
    let t = totals(out, plan);
    let costs: Vec<f64> = t.iter().filter_map(|(_, u, _)| u.cost_usd).collect();
    if costs.is_empty() {
        return None;
    }
    let reported: usize = t.iter().map(|(_, u, _)| u.cost_reported).sum();
    let retried: usize = t.iter().map(|(_, u, _)| u.retried).sum();
    let mut s = format!("${:.4}", costs.iter().sum::<f64>());
    if reported < plan.len() {
        s.push_str(&format!(
            " (reported by {reported} of {} dispatches)",
            plan.len()
        ));
    }
    if retried > 0 {
        s.push_str(&format!(
            " (failed attempts of {retried} retried dispatch(es) not included)"
        ));
    }
    Some(s)
}

/// Prints (when `print`) the per-arm lines and flagged rows, and writes `usage.json`.
pub fn report(out: &Path, plan: &[crate::round::journal::Dispatch], print: bool) -> Result<()> {
    let t = totals(out, plan);
    if t.is_empty() {
        return Ok(());
    }
    let measured = t.iter().any(|(_, u, f)| {
        u.input_tokens.is_some()
            || u.output_tokens.is_some()
            || u.cost_usd.is_some()
            || !f.is_empty()
    });
    if measured && print {
        print_lines(&t);
    }
    let json: Vec<serde_json::Value> = t
        .iter()
        .map(|(arm, u, flagged)| {
            serde_json::json!({"arm": arm.to_string(), "totals": u, "rows_with_denials": flagged})
        })
        .collect();
    crate::gates::manifest::write_atomic(
        &out.join("usage.json"),
        &serde_json::to_vec_pretty(&json)?,
        true,
    )
}

fn print_lines(t: &[(Arm, ArmUsage, Vec<String>)]) {
    println!("── agent usage (as the agents reported it) ──");
    for (arm, u, _) in t {
        println!(
            "{arm:<5} dispatches {}  tokens in {} out {}  cost {}  wall {:.1}s  with denials {}  with tool errors {}",
            u.dispatches,
            show_u(u.input_tokens),
            show_u(u.output_tokens),
            u.cost_usd
                .map(|c| format!("${c:.4}"))
                .unwrap_or_else(|| "UNMEASURED".into()),
            u.wall_secs,
            u.with_denials,
            u.with_tool_errors
        );
    }
    for (_, _, flagged) in t {
        for f in flagged {
            println!("  DENIED {f}");
        }
    }
}
