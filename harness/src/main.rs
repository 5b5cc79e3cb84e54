//! The `harness` binary: parses the command line and hands each command to the library.

mod cli;

use clap::Parser;
use cli::{
    ArmsArg, Command, DemoArg, FormatArg, KindArg, PhaseArg, ReportFormat, SandboxArg, ScoreFormat,
};
use harness::commands::{self, GateArgs, VerifyArgs};
use harness::exit::{exit_of, Exit};
use harness::gates::manifest::Design;
use harness::gates::start::Phase;
use harness::round::executor::{ExecutorChoice, ExecutorSpec};
use harness::round::{Arms, DemoMode, RunOptions};
use std::time::Duration;

/// clap suggests a subcommand only when it is very close (`repot` gets `report`, `rnu` gets
/// nothing): a first word that is no subcommand, within two edits of one, is refused here with
/// the names it could be (exit 2, as clap would).
fn misspelt_subcommand_hint() {
    use clap::CommandFactory;
    // args_os: a first word that is not UTF-8 is clap's to report, never a panic here.
    let Some(first) = std::env::args_os()
        .nth(1)
        .and_then(|a| a.into_string().ok())
    else {
        return;
    };
    if first.starts_with('-') {
        return;
    }
    let cmd = cli::Cli::command();
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    if names.contains(&first) || first == "help" {
        return;
    }
    let mut near: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (reports::glossary::distance(&first.to_lowercase(), n), n))
        .filter(|(d, _)| *d <= 2)
        .collect();
    near.sort();
    if near.is_empty() {
        return;
    }
    let shown: Vec<String> = near.iter().map(|(_, n)| format!("'{n}'")).collect();
    eprintln!(
        "error: unrecognized subcommand '{}'\n\n  tip: did you mean {}?\n\nUsage: harness [OPTIONS] <COMMAND>\n\nFor more information, try '--help'.",
        harness::text::clean_line(&first, 60),
        shown.join(" or ")
    );
    std::process::exit(Exit::Usage.code());
}

/// Ends the process as a program with the default SIGPIPE action would on writing to a closed
/// pipe: quietly, by the signal (`harness … | head -1` then ends as `head` expects). Every command
/// that re-derives a round is crash-safe, so ending here mid-way leaves it resumable.
fn end_by_closed_output() -> ! {
    // SAFETY: resetting one signal's action and raising it; no Rust state is touched.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    std::process::exit(Exit::Internal.code())
}

/// Whether `msg` is the standard library's panic on printing to a closed stdout or stderr.
fn is_closed_output_panic(msg: &str) -> bool {
    (msg.starts_with("failed printing to stdout") || msg.starts_with("failed printing to stderr"))
        && msg.contains("Broken pipe")
}

/// A closed stdout or stderr never panics: `println!` on a closed pipe ends the process quietly
/// by SIGPIPE. SIGPIPE itself stays ignored, so a write to a child's closed stdin (an executor's
/// `sbatch`) is still an error the caller handles, never the end of the harness.
fn quiet_on_closed_output() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_closed_output_panic(msg) {
            end_by_closed_output();
        }
        default(info)
    }));
}

/// Whether `err` comes from writing to a closed pipe while this process's stdout is one (its
/// reader gone): a broken pipe to a child process is an ordinary error, reported as such.
fn is_closed_stdout(err: &anyhow::Error) -> bool {
    let broken = err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if !broken {
        return false;
    }
    let mut fd = libc::pollfd {
        fd: 1,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd, no wait; poll reports POLLERR on a pipe whose reader closed.
    let n = unsafe { libc::poll(&mut fd, 1, 0) };
    n == 1 && fd.revents & libc::POLLERR != 0
}

fn main() {
    quiet_on_closed_output();
    misspelt_subcommand_hint();
    let cli = cli::Cli::parse();
    harness::color::set_choice(match cli.color {
        cli::ColorArg::Auto => harness::color::ColorChoice::Auto,
        cli::ColorArg::Always => harness::color::ColorChoice::Always,
        cli::ColorArg::Never => harness::color::ColorChoice::Never,
    });
    let code = match dispatch(cli) {
        Ok(exit) => exit,
        Err(err) if is_closed_stdout(&err) => end_by_closed_output(),
        Err(err) => {
            let exit = exit_of(&err);
            eprintln!(
                "harness: {}",
                harness::text::without_git_codes(&format!("{err:#}"))
            );
            if exit != Exit::Internal {
                eprintln!("harness: {}", exit);
            }
            exit
        }
    };
    std::process::exit(code.code());
}

fn kind(k: KindArg) -> scorer::Kind {
    match k {
        KindArg::Positive => scorer::Kind::Positive,
        KindArg::Negative => scorer::Kind::Negative,
        KindArg::Conflict => scorer::Kind::Conflict,
    }
}

fn token_match(t: cli::TokenMatchArg) -> scorer::TokenMatch {
    match t {
        cli::TokenMatchArg::Word => scorer::TokenMatch::Word,
        cli::TokenMatchArg::Exact => scorer::TokenMatch::Exact,
    }
}

fn sandbox(s: SandboxArg) -> runners::SandboxMode {
    match s {
        SandboxArg::Auto => runners::SandboxMode::Auto,
        SandboxArg::Full => runners::SandboxMode::Full,
        SandboxArg::Landlock => runners::SandboxMode::Landlock,
        SandboxArg::None => runners::SandboxMode::None,
    }
}

fn ledger(l: cli::LedgerArg) -> harness::options::LedgerMode {
    match l {
        cli::LedgerArg::Strict => harness::options::LedgerMode::Strict,
        cli::LedgerArg::Report => harness::options::LedgerMode::Report,
    }
}

fn phase(p: PhaseArg) -> Phase {
    match p {
        PhaseArg::Pre => Phase::Pre,
        PhaseArg::Post => Phase::Post,
    }
}

fn activate(r: &cli::ReadingArgs) -> anyhow::Result<()> {
    harness::reading::activate(r.lexicon.as_deref(), token_match(r.token_match))
}

/// `harness run`'s (and `plan`'s) flags as the library takes them: the round's options, and
/// where its units run.
fn arms(a: ArmsArg) -> Arms {
    match a {
        ArmsArg::Arm => Arms::Arm,
        ArmsArg::Ctrl => Arms::Ctrl,
        ArmsArg::Both => Arms::Both,
    }
}

/// The design `seal` records: its flags as the round's options would carry them, and the
/// preset CLI's version found now. `seal` without `--agent` is refused (except the demo's).
/// The judge `--judge` chooses, or none; a bad spec is a usage error (exit 2).
fn judge_of(a: &cli::JudgeArgs) -> anyhow::Result<Option<harness::reading::judge::Judge>> {
    let Some(spec) = &a.judge else {
        return Ok(None);
    };
    let mut judge = harness::reading::judge::Judge::parse(
        spec,
        a.judge_model.clone(),
        std::time::Duration::from_secs(a.judge_timeout),
        a.judge_retries,
    )
    .map_err(|e| harness::exit::Fail::new(harness::exit::Exit::Usage, format!("{e:#}")))?;
    // Unset: auto, whatever the round's --sandbox (Judge::for_round).
    judge.sandbox = a.judge_sandbox.map(sandbox);
    // A judge whose program is not here is refused before any round, call or write.
    judge.require_program()?;
    Ok(Some(judge))
}

/// The judge a round was planned with (`run --judge`, recorded in its journal), rebuilt for a
/// `--resume` given no `--judge`, with its planned `--judge-jobs`; `None` when the round has
/// no judge or no journal (the resume itself then says what is wrong).
fn planned_judge(
    out: &std::path::Path,
) -> anyhow::Result<Option<(harness::reading::judge::Judge, usize)>> {
    let Ok(out) = std::path::absolute(out) else {
        return Ok(None);
    };
    let Ok(plan) = harness::round::journal::load_plan(&out) else {
        return Ok(None);
    };
    let Some(p) = plan.options.judge_call else {
        return Ok(None);
    };
    let mut judge = harness::reading::judge::Judge::parse(
        &p.spec,
        p.model.clone(),
        std::time::Duration::from_secs(p.timeout_secs),
        p.retries,
    )
    .map_err(|e| harness::exit::Fail::new(Exit::Usage, format!("the planned judge: {e:#}")))?;
    judge.sandbox = p.sandbox;
    judge.require_program()?;
    Ok(Some((judge, p.jobs as usize)))
}

fn sealed_design(d: &cli::DesignArgs, embedded_demo: bool) -> anyhow::Result<Design> {
    let agent =
        match (&d.agent, embedded_demo) {
            (Some(a), _) => a.clone(),
            (None, true) => "baseline-grep".into(),
            (None, false) => return Err(harness::exit::Fail::new(
                Exit::Usage,
                "seal needs --agent: the manifest seals the round's design (agent, arms, reps, \
                 --deliver, sandbox, timeout, retries) with its inputs; name the agent the round \
                 will run (claude, codex, gemini, baseline-grep, baseline-grep-all or \
                 command:<template>)",
            )
            .into()),
        };
    let mut opts = RunOptions::defaults();
    opts.agent = Some(agent.clone());
    opts.model = d.model.clone();
    opts.arms = arms(d.arms);
    opts.reps = d.reps;
    opts.deliver = d.deliver;
    opts.sandbox = sandbox(d.sandbox);
    opts.timeout = Duration::from_secs(d.timeout);
    opts.retries = d.retries;
    opts.judge = d
        .judge
        .as_deref()
        .map(|j| harness::reading::judge::recorded_name(j, d.judge_model.as_deref()));
    opts.ledger = ledger(d.ledger);
    // The judge's preset CLI version, found now, as the agent's is.
    let judge_version = d.judge.as_deref().and_then(harness::agents::cli_version);
    Ok(Design::of_run(
        &opts,
        harness::agents::cli_version(&agent),
        judge_version,
    ))
}

fn run_options(a: cli::RunArgs) -> (RunOptions, ExecutorChoice) {
    let exec = ExecutorChoice {
        spec: a.executor,
        slurm_partition: a.slurm_partition,
        slurm_time: a.slurm_time,
        slurm_mem: a.slurm_mem,
        slurm_opt: a.slurm_opt,
    };
    let opts = RunOptions {
        qset: a.qset,
        seal: a.seal,
        repo: a.base.repo,
        base_ref: a.base.base_ref,
        base_sha: a.base.base_sha,
        arms: arms(a.arms),
        reps: a.reps,
        agent: a.agent,
        model: a.model,
        out: a.out,
        deliver: a.deliver,
        protocol: a.protocol,
        manifest: a.manifest,
        jobs: a.jobs as usize,
        timeout: Duration::from_secs(a.timeout),
        retries: a.retries,
        resume: a.resume,
        pass_env: a.pass_env,
        judge: a
            .judge
            .judge
            .as_deref()
            .map(|j| harness::reading::judge::recorded_name(j, a.judge.judge_model.as_deref())),
        judge_call: a
            .judge
            .judge
            .as_ref()
            .map(|spec| harness::options::PlannedJudge {
                spec: spec.clone(),
                model: a.judge.judge_model.clone(),
                timeout_secs: a.judge.judge_timeout,
                retries: a.judge.judge_retries,
                jobs: a.judge.judge_jobs,
                sandbox: a.judge.judge_sandbox.map(sandbox),
            }),
        prompt_stdin: a.prompt_stdin,
        plant_dir: a.plant_dir,
        keep_checkouts: a.keep_checkouts,
        allow_contaminated: a.allow_contaminated,
        allow_repo_hooks: a.allow_repo_hooks,
        sandbox: sandbox(a.sandbox),
        quiet: a.quiet,
        demo: a.demo.map(|d| match d {
            DemoArg::Deliver => DemoMode::Deliver,
            DemoArg::Discover => DemoMode::Discover,
        }),
        no_preflight: a.no_preflight,
        lexicon: a.reading.lexicon,
        token_match: token_match(a.reading.token_match),
        config: a.config,
        accept_change: a.accept_change,
        ledger: ledger(a.ledger),
        dry_run: a.dry_run,
        verbose: a.verbose,
        json: a.format == FormatArg::Json,
    };
    (opts, exec)
}

/// The demo may default its agent; a user's round may not: a forgotten --agent used to run a
/// grep and report a clean OK. Checked for `run` and `plan` before any gate or write.
fn require_agent(a: &cli::RunArgs) -> anyhow::Result<()> {
    if a.qset.is_some() && a.agent.is_none() {
        return Err(harness::exit::Fail::new(
            Exit::Usage,
            "--agent is required with --qset: name the agent to measure \
             (claude, codex, gemini, baseline-grep, baseline-grep-all or command:<template>); \
             only the demo (harness run without --qset) picks one itself",
        )
        .into());
    }
    Ok(())
}

fn dispatch(cli: cli::Cli) -> anyhow::Result<Exit> {
    match &cli.command {
        Command::Rescore(a) => activate(&a.reading)?,
        Command::Seal(a) => activate(&a.reading)?,
        Command::Score(a) => activate(&a.reading)?,
        Command::Verify(a) => activate(&a.reading)?,
        _ => {}
    }
    match cli.command {
        Command::Run(a) => {
            require_agent(&a)?;
            let judge = judge_of(&a.judge)?;
            if judge.is_some() && a.out.is_none() {
                return Err(harness::exit::Fail::new(
                    Exit::Usage,
                    "run --judge needs --out DIR: the judge reads the round's answers there once it is collected",
                )
                .into());
            }
            let mut jobs = a.judge.judge_jobs as usize;
            let (opts, exec) = run_options(*a);
            if opts.dry_run {
                return harness::units::dry_run_cmd(opts);
            }
            // A resume reads the answers with the judge the round was planned with (another
            // `--judge` is refused by the resume's own check).
            let judge = match (judge, &opts.out) {
                (None, Some(out)) if opts.resume => match planned_judge(out)? {
                    Some((j, planned_jobs)) => {
                        jobs = planned_jobs;
                        Some(j)
                    }
                    None => None,
                },
                (j, _) => j,
            };
            let out = opts.out.clone();
            let exit = harness::units::run(opts, exec)?;
            match (judge, out) {
                // The round is complete: the judge reads every answer, the round is re-derived.
                (Some(judge), Some(out)) if out.join("ROUND_DONE").is_file() => {
                    harness::commands::rejudge::judge_finished_run(&out, &judge, jobs)
                }
                _ => Ok(exit),
            }
        }
        Command::Plan(a) => {
            require_agent(&a)?;
            if a.executor != ExecutorSpec::Local
                || a.slurm_partition.is_some()
                || a.slurm_time.is_some()
                || a.slurm_mem.is_some()
                || !a.slurm_opt.is_empty()
            {
                return Err(harness::exit::Fail::new(
                    Exit::Usage,
                    "harness plan runs no unit: --executor and --slurm-* belong to harness run",
                )
                .into());
            }
            if a.judge.judge.is_some() {
                return Err(harness::exit::Fail::new(
                    Exit::Usage,
                    "harness plan runs no unit and reads no answer: --judge belongs to run (or rejudge after collect)",
                )
                .into());
            }
            if a.dry_run {
                return Err(harness::exit::Fail::new(
                    Exit::Usage,
                    "harness plan runs no agent already; --dry-run belongs to harness run",
                )
                .into());
            }
            harness::units::plan_cmd(run_options(*a).0)
        }
        Command::Unit(a) => harness::units::unit_cmd(&a.out, a.index),
        Command::Collect(a) => harness::units::collect_cmd(
            &a.out,
            harness::round::collect::Show {
                verbose: a.verbose,
                json: a.format == FormatArg::Json,
                ..Default::default()
            },
        ),
        Command::Rejudge(a) => {
            let Some(judge) = judge_of(&a.judge)? else {
                return Err(harness::exit::Fail::new(
                    harness::exit::Exit::Usage,
                    "rejudge needs --judge AGENT (claude, codex, gemini, command:…, openai:URL)",
                )
                .into());
            };
            harness::commands::rejudge::rejudge(
                &a.out,
                &judge,
                a.judge.judge_jobs as usize,
                a.accept_change.iter().any(|f| f == "judge"),
            )
        }
        Command::Review(a) => {
            harness::commands::review::review(&harness::commands::review::ReviewOptions {
                out: a.out,
                set: a.set,
                from: a.from,
                export: a.export,
                reviewer: a.reviewer,
                all: a.all,
            })
        }
        Command::Rescore(a) => {
            harness::commands::rescore::rescore(&harness::commands::rescore::RescoreOptions {
                judge: judge_of(&a.judge)?,
                judge_jobs: a.judge.judge_jobs as usize,
                accept_judge_change: a.accept_change.iter().any(|f| f == "judge"),
                out: a.out.or(a.out_flag).expect("clap requires OUT or --out"),
                qset: a.qset,
                accept_qset_change: a.accept_qset_change,
            })
        }
        Command::SelfTest(a) => {
            let (_, failed) =
                harness::commands::selftest::run(a.repo.as_deref(), a.format == FormatArg::Json)?;
            Ok(if failed == 0 {
                Exit::Ok
            } else {
                Exit::Internal
            })
        }
        Command::Seal(a) => {
            let design = sealed_design(&a.design, a.embedded_demo)?;
            // The demo's base is rebuilt from the binary; its folder lives only for this command.
            let demo_dir = if a.embedded_demo {
                Some(harness::demo::build_temp_repo()?)
            } else {
                None
            };
            commands::seal_cmd(
                &GateArgs {
                    qset: &a.qset,
                    seal: Some(&a.seal),
                    repo: demo_dir
                        .as_ref()
                        .map(|d| d.path())
                        .or(a.base.repo.as_deref()),
                    base_ref: a.base.base_ref.as_deref(),
                    base_sha: a.base.base_sha.as_deref(),
                    phase: Phase::Post,
                    plant_dir: &a.plant_dir,
                    protocol: a.protocol.as_deref(),
                    ledger: ledger(a.design.ledger),
                    verbose: false,
                },
                &a.output,
                a.force,
                a.embedded_demo,
                design,
            )
        }
        Command::Verify(a) => commands::verify_cmd(&VerifyArgs {
            manifest: &a.manifest.or(a.manifest_pos).ok_or_else(|| {
                harness::exit::Fail::new(
                    Exit::Usage,
                    "verify needs the manifest: harness verify --manifest FILE",
                )
            })?,
            qset: a.qset.as_deref(),
            seal: a.seal.as_deref(),
            protocol: a.protocol.as_deref(),
            repo: a.repo.as_deref(),
            allow_scorer_change: a.allow_scorer_change,
            json: a.format == FormatArg::Json,
        }),
        Command::Gate(a) => commands::gate_cmd(
            &GateArgs {
                qset: &a.qset,
                seal: a.seal.as_deref(),
                repo: a.base.repo.as_deref(),
                base_ref: a.base.base_ref.as_deref(),
                base_sha: a.base.base_sha.as_deref(),
                phase: phase(a.phase),
                plant_dir: &a.plant_dir,
                protocol: None,
                ledger: ledger(a.ledger),
                verbose: a.verbose,
            },
            a.format == FormatArg::Json,
        ),
        Command::Score(a) => {
            let input = match (&a.batch, a.kind, &a.token) {
                (Some(b), _, _) => commands::ScoreInput::Batch(b),
                (None, Some(k), Some(t)) => commands::ScoreInput::Files {
                    kind: kind(k),
                    token: t,
                    general: a.general.as_deref(),
                    files: &a.file,
                },
                _ => unreachable!("clap requires --kind and --token without --batch"),
            };
            // No round here: the judge's process runs under --judge-sandbox, else auto.
            let judge = match judge_of(&a.judge)? {
                Some(j) => {
                    let mode = j.sandbox.unwrap_or(runners::SandboxMode::Auto);
                    Some(j.sandboxed(mode, Vec::new()).map_err(|e| {
                        harness::exit::Fail::new(Exit::GateRefused, format!("{e:#}"))
                    })?)
                }
                None => None,
            };
            commands::score(
                input,
                a.question.as_deref(),
                judge.as_ref(),
                a.judge.judge_jobs as usize,
                a.format == ScoreFormat::Json,
            )
        }
        Command::Report(a) => harness::commands::rescore::report(
            &a.out.or(a.out_flag).expect("clap requires OUT or --out"),
            match a.format {
                ReportFormat::Table => "table",
                ReportFormat::Csv => "csv",
                ReportFormat::Json => "json",
                ReportFormat::Md => "md",
                ReportFormat::Html => "html",
            },
        ),
        Command::Compare(a) => commands::compare::compare(
            &a.a,
            &a.b,
            match a.format {
                ReportFormat::Table => "table",
                ReportFormat::Md => "md",
                ReportFormat::Json => "json",
                ReportFormat::Html => "html",
                ReportFormat::Csv => {
                    return Err(harness::exit::Fail::new(
                        harness::exit::Exit::Usage,
                        "compare has no csv format (table, md, json, html)",
                    )
                    .into())
                }
            },
        ),
        Command::Doctor(a) => commands::doctor(
            a.format == FormatArg::Json,
            (a.preflight || !a.agents.is_empty()).then(|| commands::PreflightAsk {
                agents: a.agents.clone(),
                timeout: std::time::Duration::from_secs(a.preflight_timeout),
            }),
        ),
        Command::Lexicon(cli::LexiconCommand::Eval(a)) => {
            harness::commands::lexicon::eval(&harness::commands::lexicon::EvalOptions {
                corpora: a.corpora,
                json: a.format == ScoreFormat::Json,
                token_match: token_match(a.token_match),
                lexicon: a.lexicon,
                min_agreement: a.min_agreement,
                min_precision: a.min_precision,
                min_recall: a.min_recall,
                min_decided_precision: a.min_decided_precision,
                min_coverage: a.min_coverage,
            })
        }
        Command::Lexicon(cli::LexiconCommand::Suggest(a)) => {
            harness::commands::lexicon::suggest(&a.out, a.lexicon.as_deref())
        }
        Command::Judge(cli::JudgeCommand::Eval(a)) => {
            let judge = match judge_of(&a.judge)? {
                Some(j) => {
                    let mode = j.sandbox.unwrap_or(runners::SandboxMode::Auto);
                    j.sandboxed(mode, Vec::new()).map_err(|e| {
                        harness::exit::Fail::new(Exit::GateRefused, format!("{e:#}"))
                    })?
                }
                None => return Err(harness::exit::Fail::new(
                    Exit::Usage,
                    "judge eval needs --judge AGENT (claude, codex, gemini, command:…, openai:URL)",
                )
                .into()),
            };
            harness::commands::judge_eval::eval(&harness::commands::judge_eval::JudgeEvalOptions {
                judge,
                jobs: a.judge.judge_jobs as usize,
                corpora: a.corpora,
                json: a.format == ScoreFormat::Json,
                min_agreement: a.min_agreement,
            })
        }
        Command::Explain(a) => commands::explain::explain(a.term.as_deref()),
        Command::Clean => harness::round::clean::clean(),
        Command::Agent(a) => commands::agent_cmd(&a.name, a.prompt.as_deref()),
        Command::Sandbox(a) => {
            let code = runners::reap::reaper_main(&a.args);
            std::process::exit(code);
        }
    }
}
