//! One dispatch: a fresh view of the base, the seal planted in ARM, the agent in its sandbox,
//! the answer written last. Input: a [`Plan`] (in memory or loaded from the out-dir), an index
//! into it, and this process's [`Runtime`]. Output: the dispatch's files in the out-dir and its
//! [`DispatchRecord`]. Idempotent per index: a unit writes only its own `<label>_r<n>.*`.

use crate::agents::sandbox::SandboxPlan;
use crate::agents::RoundAgent;
use crate::exit::{Exit, Fail};
use crate::round::journal::{Dispatch, Plan};
use crate::round::record::{DispatchRecord, DispatchStatus, PhaseTimings};
use crate::round::retry::AgentsOwn;
use crate::text::clean_line;
use anyhow::{Context, Result};
use runners::{Corpus, Plant, ProcessGroups, RunOutcome, Seal, TempRoot, Template};
use scorer::Arm;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What one process needs to run units of a plan: the base's template, the seal, the agent,
/// the sandbox and a temp root of its own. Built once, shared by every unit it runs.
pub struct Runtime {
    template: Template,
    temp_root: TempRoot,
    seal: Option<Seal>,
    agent: RoundAgent,
    /// The planted path ARM's prompt names (`--deliver`), for telling a denied read of it.
    delivered: Option<String>,
    sandbox: SandboxPlan,
    harness_exe: PathBuf,
    groups: ProcessGroups,
    user_home: Option<PathBuf>,
    /// Raised on Ctrl-C: running agents are stopped and no new unit starts.
    pub cancel: Arc<AtomicBool>,
    _demo: Option<super::plan::DemoDirs>,
}

impl Runtime {
    /// From what the plan phase of this process already holds.
    pub fn new(
        plan: &Plan,
        corpus: &Corpus,
        seal: Option<Seal>,
        agent: RoundAgent,
        demo: Option<super::plan::DemoDirs>,
    ) -> Result<Runtime> {
        let temp_root = TempRoot::create(&[&plan.out, &corpus.base.workdir])?;
        let mut forbid = plan.forbid.clone();
        forbid.push(temp_root.path().to_path_buf());
        let sandbox = SandboxPlan::new(plan.options.sandbox, forbid)
            .map_err(|e| Fail::new(Exit::GateRefused, format!("sandbox: {e:#}")))?
            .with_overlay(temp_root.path());
        let plant = Plant::new(&plan.options.plant_dir)
            .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
        let template_dir = temp_root.fresh_dir()?;
        let template = Template::build(corpus, &plant, &template_dir)?;
        let delivered = match (&seal, plan.options.deliver) {
            (Some(s), true) => Some(plant.seal_path(s)),
            _ => None,
        };
        Ok(Runtime {
            template,
            temp_root,
            seal,
            agent,
            delivered,
            sandbox,
            harness_exe: std::env::current_exe()?,
            groups: ProcessGroups::new(),
            user_home: std::env::var_os("HOME").map(PathBuf::from),
            cancel: Arc::new(AtomicBool::new(false)),
            _demo: demo,
        })
    }

    /// From a plan read back from the out-dir (a unit run elsewhere, or `--resume`): the base,
    /// the seal and the agent are rebuilt and each is checked against what the plan recorded.
    pub fn open(plan: &Plan) -> Result<Runtime> {
        let (repo, seal_path, demo) = match plan.demo {
            Some(_) => {
                let (dirs, repo, inputs) = super::plan::DemoDirs::build()?;
                (repo, Some(inputs.seal), Some(dirs))
            }
            None => (
                plan.base.repo.clone(),
                plan.seal.as_ref().map(|s| s.path.clone()),
                None,
            ),
        };
        let base = super::plan::resolve_base(Some(&repo), None, Some(&plan.base.sha))?;
        let corpus = Corpus::load(&base).map_err(|e| {
            Fail::new(
                Exit::GateRefused,
                format!("cannot enumerate the tree at base: {e}"),
            )
        })?;
        let seal = match (&plan.seal, seal_path) {
            (Some(s), Some(p)) => Some(read_planned_seal(s, &p)?),
            _ => None,
        };
        let agent = planned_agent(plan)?;
        Runtime::new(plan, &corpus, seal, agent, demo)
    }

    /// The temp root: kept for inspection (`--keep-checkouts`, said on stdout) or removed.
    pub fn close(self, keep: bool) {
        if keep {
            println!("checkouts kept under {}", self.temp_root.path().display());
        } else {
            let _ = self.temp_root.remove();
        }
    }

    /// The one "reply READY" call of the agent in a throwaway checkout under the round's
    /// sandbox, before any dispatch (exit 8 when it fails); `None` under `--no-preflight`.
    pub fn preflight(&self, plan: &Plan) -> Result<Option<String>> {
        crate::agents::preflight::run_unless(
            plan.options.no_preflight,
            &crate::agents::preflight::Input {
                agent: &self.agent,
                sandbox: &self.sandbox,
                template: &self.template,
                temp_root: &self.temp_root,
                harness_exe: &self.harness_exe,
                pass_env: &plan.options.pass_env,
                model: plan.options.model.as_deref(),
                timeout: plan.options.timeout,
                user_home: self.user_home.clone(),
            },
            plan.options.json,
        )
    }

    /// Whether Ctrl-C was pressed.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }
}

/// Reads the planted seal back and refuses one whose bytes are not the planned ones.
fn read_planned_seal(s: &crate::round::journal::PlannedSeal, path: &Path) -> Result<Seal> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("reading the seal {} the plan names", path.display()))?;
    let sha = crate::gates::manifest::sha256_hex(&bytes);
    if sha != s.sha256 {
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "the seal {} changed since the round was planned (sha256 {} ≠ {})",
                path.display(),
                &sha[..12],
                s.sha256.get(..12).unwrap_or("")
            ),
        )
        .into());
    }
    Seal::new(&s.name, bytes).map_err(|e| Fail::new(Exit::Usage, e.to_string()).into())
}

/// The agent resolved again as the plan did (same `harness.toml`, sandbox and delivery); a
/// command that resolves differently now is refused.
fn planned_agent(plan: &Plan) -> Result<RoundAgent> {
    let a = &plan.agent;
    let config = crate::config::load(plan.options.config.as_deref(), None)?;
    let agent = crate::agents::resolve(
        &a.name,
        &config,
        a.prompt_stdin,
        plan.options.sandbox != runners::SandboxMode::None,
        plan.options.deliver,
    )?;
    if agent.spec.template != a.template {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "agent {} now resolves to another command than the plan's",
                clean_line(&a.name, 60)
            ),
        )
        .into());
    }
    // The same program, home files and harness.toml values on every node, or no answer.
    if !plan.depends.is_empty() {
        let now = crate::agents::dependencies(&agent, &config);
        let changes = crate::round::journal::dependency_changes(&plan.depends, &now);
        if !changes.is_empty() {
            return Err(Fail::new(
                Exit::ManifestMismatch,
                format!(
                    "what the answers depend on differs here from the plan; this unit does not run:\n{}",
                    changes
                        .iter()
                        .map(|(_, c)| format!("  {}", clean_line(c, 300)))
                        .collect::<Vec<_>>()
                        .join("\n")
                ),
            )
            .into());
        }
    }
    Ok(agent)
}

/// Writes file `<stem>.<ext>` of a dispatch into the round's dispatch folder (created by the
/// first write) through a temp name and a rename.
fn put(out: &Path, stem: &str, ext: &str, bytes: &[u8]) -> Result<()> {
    crate::round::journal::write_atomic(&crate::round::record::dispatch_file(out, stem, ext), bytes)
}

/// Runs dispatch `index` of the plan end to end and writes its files. Never panics on agent
/// misbehaviour: every failure becomes a `.err` file and a record.
pub fn run(plan: &Plan, index: usize, rt: &Runtime) -> Result<DispatchRecord> {
    let d = plan.dispatch(index)?;
    Ok(execute(plan, d, rt))
}

fn execute(plan: &Plan, d: &Dispatch, rt: &Runtime) -> DispatchRecord {
    let stem = d.stem();
    let mut rec = DispatchRecord::new(&stem);
    let began = crate::round::record::now_unix_ms();
    // Each attempt starts from a fresh record and checkout; the failed ones stay as reasons.
    let mut retries = Vec::new();
    let result = crate::round::retry::with_retries(
        plan.options.retries,
        || rt.cancelled(),
        &mut retries,
        |_| {
            rec = DispatchRecord::new(&stem);
            execute_inner(plan, d, rt, &mut rec)
        },
    );
    rec.retries = retries;
    // The whole dispatch, checkout and retries included, even when no agent ever started
    // (whose own start and end stay 0): what an arm × time reading needs.
    rec.dispatch_started_unix_ms = Some(began);
    rec.dispatch_ended_unix_ms = Some(crate::round::record::now_unix_ms());
    let result = result.and_then(|answer| {
        // The record (with the answer's hash) is written before the answer: an answer file
        // that exists always has a record saying it was answered and what it holds.
        rec.status = DispatchStatus::Answered;
        rec.answer_sha256 = Some(crate::round::journal::sha256_hex(&answer));
        put(&plan.out, &stem, "json", &serde_json::to_vec_pretty(&rec)?)?;
        put(&plan.out, &stem, "txt", &answer)
    });
    if let Err(e) = result {
        rec.status = if rt.cancelled() {
            DispatchStatus::Cancelled
        } else {
            DispatchStatus::Failed
        };
        rec.answer_sha256 = None;
        rec.reason = Some(clean_line(&format!("{e:#}"), 500));
        let _ = put(
            &plan.out,
            &stem,
            "err",
            format!("{}\n", rec.reason.as_deref().unwrap_or("")).as_bytes(),
        );
        if let Ok(json) = serde_json::to_vec_pretty(&rec) {
            let _ = put(&plan.out, &stem, "json", &json);
        }
    }
    rec
}

/// Everything up to the answer: checkout, plant, agent, judgement. Returns the answer bytes.
fn execute_inner(
    plan: &Plan,
    d: &Dispatch,
    rt: &Runtime,
    rec: &mut DispatchRecord,
) -> Result<Vec<u8>> {
    let out = &plan.out;
    let stem = d.stem();
    put(out, &stem, "prompt", d.prompt.as_bytes())?;
    let mut phases = PhaseTimings::default();
    let clock = Instant::now();
    let dir = rt.temp_root.fresh_dir()?;
    let work = dir.join("work");
    let seal = if d.arm == Arm::Arm {
        rt.seal.as_ref()
    } else {
        None
    };
    let (checkout, overlay, method) = rt
        .sandbox
        .checkout(&rt.template, &dir, &work, seal)
        .context("checkout")?;
    rec.checkout = Some(method.into());
    rec.treediff = Some(serde_json::to_value(&checkout.treediff)?);
    phases.checkout_ms = Some(ms_since(clock));
    rec.phases = Some(phases.clone());
    let clock = Instant::now();
    let home = runners::DispatchHome::create(&dir)?;
    if let Some(user_home) = &rt.user_home {
        runners::install_credentials(&rt.agent.spec, user_home, &home.home)?;
    }
    rt.agent.prepare_home(&home.home)?;
    let prompt_file = home.write_prompt_file(&d.prompt)?;
    phases.home_ms = Some(ms_since(clock));
    rec.phases = Some(phases.clone());
    let run = run_agent(
        plan,
        d,
        rt,
        &dir,
        &work,
        overlay.as_ref(),
        &home,
        &prompt_file,
    )?;
    let clock = Instant::now();
    let outcome = run.outcome;
    let report = dir.join("sandbox.json");
    let (exec_us, agent_end_us) = rt.sandbox.stamps_of(&report);
    phases.split_process(run.spawn_us, run.end_us, exec_us, agent_end_us);
    rec.phases = Some(phases.clone());
    rec.fill_from(&outcome);
    rec.isolation = Some(rt.sandbox.level_of(&report));
    rec.stray_processes.extend(rt.sandbox.strays_of(&report));
    put(out, &stem, "stderr", &outcome.stderr)?;
    if let Some(why) = rt.sandbox.failure(&report, outcome.exit_code) {
        anyhow::bail!("{why}{}", stderr_tail(&outcome));
    }
    if !plan.options.keep_checkouts {
        let _ = runners::remove_tree(&dir);
    }
    judge_outcome(&outcome)?;
    if rt.agent.spec.output != runners::OutputFormat::Text {
        put(out, &stem, "raw", &outcome.stdout)?;
    }
    // A tool that failed for the instrument's reasons (a sandbox the CLI could not start, a
    // denied read of the delivered path) fails the attempt, retried, never scored.
    let (activity, tool_infra) =
        crate::agents::assess(&rt.agent.spec, &outcome, rt.delivered.as_deref());
    rec.activity = Some(activity);
    if let Some(why) = tool_infra {
        anyhow::bail!("{why}");
    }
    let answer = runners::extract_answer(&rt.agent.spec, &outcome.stdout)
        .map_err(|e| AgentsOwn(format!("reading the agent's result: {e}")))?;
    phases.cleanup_ms = Some(ms_since(clock));
    rec.phases = Some(phases);
    Ok(answer)
}

/// Milliseconds since `t`, with microsecond resolution.
fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// The agent's process as the runner saw it, with the wall-clock span it ran in (µs since
/// the epoch), which the wrapper's own stamps split into setup, agent and teardown.
struct AgentRun {
    outcome: RunOutcome,
    spawn_us: u64,
    end_us: u64,
}

/// Runs the agent once in its sandbox (`--retries` is [`execute`]'s, around the whole attempt).
#[allow(clippy::too_many_arguments)]
fn run_agent(
    plan: &Plan,
    d: &Dispatch,
    rt: &Runtime,
    dir: &Path,
    work: &Path,
    overlay: Option<&runners::OverlayLayers>,
    home: &runners::DispatchHome,
    prompt_file: &Path,
) -> Result<AgentRun> {
    let opts = &plan.options;
    let inv = runners::Invocation {
        prompt: &d.prompt,
        prompt_file,
        model: opts.model.as_deref(),
        workdir: work,
        harness_exe: &rt.harness_exe,
    };
    let agent_argv = rt.agent.spec.argv(&inv)?;
    let report = dir.join("sandbox.json");
    let argv = rt
        .sandbox
        .wrap(&rt.harness_exe, work, home, &report, overlay, agent_argv);
    let mut spec = runners::RunSpec::new(argv, work.to_path_buf(), home.clone(), opts.timeout);
    spec.stdin = rt.agent.spec.stdin_bytes(&d.prompt);
    let mut pass: Vec<String> = opts.pass_env.to_vec();
    pass.extend(rt.agent.spec.credential_env.iter().cloned());
    spec.pass_env = pass;
    spec.cancel = Some(rt.cancel.clone());
    spec.set_env = rt.agent.setup.env.clone();
    let spawn_us = runners::unix_now_us();
    let outcome = runners::run_process(&spec, &rt.groups).context("starting the agent")?;
    Ok(AgentRun {
        outcome,
        spawn_us,
        end_us: runners::unix_now_us(),
    })
}

/// Whether the agent's run produced an answer to score; the reason when it did not.
fn judge_outcome(outcome: &RunOutcome) -> Result<()> {
    if outcome.cancelled {
        anyhow::bail!("cancelled (Ctrl-C) before the agent finished");
    }
    if outcome.timed_out || outcome.signal.is_some() || outcome.output_incomplete {
        anyhow::bail!(
            "{}",
            outcome
                .failure_reason()
                .unwrap_or_else(|| "agent failed".into())
        );
    }
    if outcome.stdout_truncated {
        return Err(AgentsOwn(
            "the agent's output went over the cap and was cut; a cut answer is not scored".into(),
        )
        .into());
    }
    // A non-zero exit with output is recorded (in the .json) and the answer kept; with no
    // output at all the agent never answered (a missing script, a refused key), and scoring
    // that as an empty answer would blame the model for the infrastructure.
    if outcome.exit_code != Some(0) && outcome.stdout.iter().all(|b| b.is_ascii_whitespace()) {
        anyhow::bail!(
            "{} and no output{}",
            outcome
                .failure_reason()
                .unwrap_or_else(|| "the agent failed".into()),
            stderr_tail(outcome)
        );
    }
    Ok(())
}

/// `: <stderr>` (cleaned, its last 300 characters: a CLI's log lines come first and its
/// reason for stopping last), or nothing when the agent said nothing on stderr.
fn stderr_tail(outcome: &RunOutcome) -> String {
    tail_of(&outcome.stderr)
}

fn tail_of(stderr: &[u8]) -> String {
    // Cleaned first, so an escape cut in half cannot survive and escapes use none of the 300.
    let clean = clean_line(String::from_utf8_lossy(stderr).trim_end(), usize::MAX);
    let start = clean.char_indices().rev().nth(299).map_or(0, |(i, _)| i);
    match (clean.is_empty(), start) {
        (true, _) => String::new(),
        (false, 0) => format!(": {clean}"),
        (false, _) => format!(": …{}", &clean[start..]),
    }
}

#[cfg(test)]
mod tests {
    use super::tail_of;

    #[test]
    fn the_stderr_tail_keeps_the_last_words_not_the_log_before_them() {
        assert_eq!(tail_of(b""), "");
        assert_eq!(tail_of(b"  \n"), "");
        assert_eq!(tail_of(b"no key\n"), ": no key");
        let mut long = "INFO codex_otel: event\n".repeat(40);
        long.push_str("error: 401 Unauthorized\n");
        let t = tail_of(long.as_bytes());
        assert!(t.starts_with(": …"), "{t}");
        assert!(t.ends_with("error: 401 Unauthorized"), "{t}");
        assert!(t.chars().count() <= 304, "{}", t.chars().count());
        // An escape is removed whole wherever the cut falls.
        let mut coloured = "x".repeat(297);
        coloured.push_str("\u{1b}[31mred\u{1b}[0m");
        assert_eq!(
            tail_of(coloured.as_bytes()),
            format!(": {}red", "x".repeat(297))
        );
        // Multi-byte text is cut on a character boundary.
        let ko = "오류".repeat(400);
        assert!(tail_of(ko.as_bytes()).ends_with("오류"));
    }
}
