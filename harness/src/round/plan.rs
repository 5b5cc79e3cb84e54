//! The plan phase: inputs, manifest check, start gate, agent, labels, and the journal.
//! Input: [`RunOptions`]. Output: a [`Planned`] round whose [`Plan`] is on disk in the out-dir
//! (with `round.json`) before any agent starts; nothing is dispatched here.

use crate::agents::RoundAgent;
use crate::demo;
use crate::exit::{Exit, Fail};
use crate::gates::manifest::{self, Role};
use crate::gates::start::{self as gate, GateInput, GateReport, Phase};
use crate::options::{Arms, DemoMode, RunOptions};
use crate::prompt::compose_prompt;
use crate::round::journal::{self, Dispatch, Plan, PlannedAgent, PlannedBase, PlannedSeal};
use crate::round::record::{self, InputRecord, ManifestRecord, RoundRecord, RoundStatus};
use anyhow::{Context, Result};
use rand::Rng;
use runners::{Corpus, Label, Plant, Seal};
use scorer::{Arm, Qset};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A planned round: the plan (also on disk) and what this process already holds, so a local
/// round neither reads the base twice nor re-parses its inputs.
pub struct Planned {
    /// The plan, as written to `<out>/journal/plan.json`.
    pub plan: Plan,
    /// The parsed qset.
    pub qset: Qset,
    /// `round.json` as written (status running).
    pub record: RoundRecord,
    /// The tree at base.
    pub corpus: Corpus,
    /// The seal planted in ARM.
    pub seal: Option<Seal>,
    /// The agent.
    pub agent: RoundAgent,
    /// The demo's temp folders, alive as long as the round needs them.
    pub demo_dirs: Option<DemoDirs>,
    /// The out-dir's lock, held for the whole round.
    pub lock: journal::Lock,
    /// The round-level units lock, held exclusively: no `harness unit` runs (nor starts) while
    /// this is held. A round whose units run elsewhere drops it before they start.
    pub units: journal::UnitsLock,
}

/// The demo's repository and inputs, rebuilt from the binary into one temp folder that carries
/// an owner marker (a killed round's copy, seal included, is swept by the next round).
pub struct DemoDirs {
    _dir: tempfile::TempDir,
}

impl DemoDirs {
    /// Builds the demo repository and writes its inputs; returns the folders' keeper, the
    /// repository and the inputs.
    pub fn build() -> Result<(DemoDirs, PathBuf, demo::DemoInputs)> {
        let d = demo::demo()?;
        let dir = tempfile::Builder::new().prefix("harness-demo-").tempdir()?;
        runners::temproot::write_owner(dir.path())?;
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo)?;
        d.build_repo(&repo)?;
        let inputs = d.write_inputs(&dir.path().join("inputs"))?;
        Ok((DemoDirs { _dir: dir }, repo, inputs))
    }
}

/// The inputs as read: what the gate judges and the record hashes are these bytes.
struct Inputs {
    qset_path: PathBuf,
    qset: Qset,
    qset_bytes: Vec<u8>,
    seal_bytes: Option<Vec<u8>>,
    seal_name: Option<String>,
    seal: Option<Seal>,
    protocol: Option<String>,
}

/// Every check `plan` makes before it writes anything: inputs, base, manifest, gate, agent.
struct Checked {
    opts: RunOptions,
    recorded: RunOptions,
    demo_dirs: Option<DemoDirs>,
    inputs: Inputs,
    base: runners::Base,
    manifest_status: ManifestRecord,
    corpus: Corpus,
    out: PathBuf,
    agent: RoundAgent,
    override_template: Option<String>,
    depends: Vec<journal::Dependency>,
    planted_path: Option<String>,
    gate: GateReport,
    repo_config: Vec<crate::agents::repo_config::RepoAgentFile>,
}

/// What `run --dry-run` found: the round would start, and how many dispatches it would make.
pub struct DryRun {
    /// The parsed qset (for the power line).
    pub qset: Qset,
    /// Dispatches the round would make (questions × arms × reps).
    pub dispatches: usize,
    /// Arms the round would run.
    pub arms: usize,
    /// Reps per (question, arm).
    pub reps: u32,
}

/// `run --dry-run`: every check that can refuse the round (inputs, base, manifest and design,
/// the start gate, the agent's resolution), then stops: no journal, no out-dir, no dispatch.
pub fn dry_run(opts: RunOptions) -> Result<DryRun> {
    let c = checks(opts)?;
    let arms = c.opts.arms.list().len();
    Ok(DryRun {
        dispatches: c.inputs.qset.questions.len() * arms * c.opts.reps as usize,
        arms,
        reps: c.opts.reps,
        qset: c.inputs.qset,
    })
}

fn checks(opts: RunOptions) -> Result<Checked> {
    let recorded = recorded_options(&opts)?;
    let (opts, demo_dirs) = resolve_demo(opts)?;
    let inputs = read_inputs(&opts)?;
    let base = resolve_base(
        opts.repo.as_deref(),
        opts.base_ref.as_deref(),
        opts.base_sha.as_deref(),
    )?;
    if base.dirty {
        eprintln!("harness: note: the working tree of {} has uncommitted changes; the round runs on the committed tree at {}", base.workdir.display(), &base.commit[..12]);
    }
    let manifest_status = check_manifest(&opts, &inputs.qset_path, &base)?;
    let corpus = Corpus::load(&base).map_err(|e| {
        Fail::new(
            Exit::GateRefused,
            format!("cannot enumerate the tree at base: {e}"),
        )
    })?;
    let repo_config = repo_agent_config(&opts, &corpus)?;
    let plant = Plant::new(&opts.plant_dir).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    let (out, out_name) = resolve_out(&opts)?;
    // Usage problems are reported before the gate's table, not after it.
    crate::outdir::check_outside_repo(&out, &base.workdir)?;
    crate::outdir::check_writable(&out)?;
    if !opts.resume && std::fs::read_dir(&out).is_ok_and(|mut rd| rd.next().is_some()) {
        if journal::dir(&out).join("lock").is_file() {
            // A running round names its pid; a finished one is simply not empty.
            drop(journal::Lock::acquire(&out)?);
        }
        return Err(not_empty(&out));
    }
    if opts.out.is_none() && !opts.dry_run {
        eprintln!("harness: round records go to {}", out.display());
    }
    let (agent, override_template, depends) = resolve_agent(&opts, &base)?;
    let planted_path = inputs.seal.as_ref().map(|s| plant.seal_path(s));
    let gate = start_gate(
        &opts,
        &inputs,
        &corpus,
        &plant,
        planted_path.as_deref(),
        (&out, out_name),
    )?;
    Ok(Checked {
        opts,
        recorded,
        demo_dirs,
        inputs,
        base,
        manifest_status,
        corpus,
        out,
        agent,
        override_template,
        depends,
        planted_path,
        gate,
        repo_config,
    })
}

/// The agent configuration the tree at base carries (every checkout is that tree), said on
/// stderr when there is any. Under `--sandbox none` hooks and MCP servers would run with the
/// user's rights: refused (exit 8, nothing written) unless `--allow-repo-hooks`.
fn repo_agent_config(
    opts: &RunOptions,
    corpus: &Corpus,
) -> Result<Vec<crate::agents::repo_config::RepoAgentFile>> {
    use crate::agents::repo_config;
    let files = repo_config::scan(corpus).map_err(|e| {
        Fail::new(
            Exit::GateRefused,
            format!("reading the repository's agent configuration: {e:#}"),
        )
    })?;
    let running = repo_config::running(&files);
    if opts.sandbox == runners::SandboxMode::None && !running.is_empty() && !opts.allow_repo_hooks {
        let list: Vec<String> = running.iter().map(|f| f.line()).collect();
        return Err(Fail::new(
            Exit::GateRefused,
            format!(
                "the repository carries agent hooks or MCP servers, which under --sandbox none would run with your rights (reading your home, every round and the seal): {}. Run under --sandbox auto (they then run inside the agent's sandbox), or give --allow-repo-hooks to run them anyway (recorded in the round)",
                list.join(", ")
            ),
        )
        .into());
    }
    if !files.is_empty() && !opts.dry_run {
        eprintln!(
            "harness: note: the repository carries agent configuration every agent reads (listed in round.json and the report): {}",
            files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(files)
}

/// Plans a round: every check that can refuse it runs first (`checks`), and the journal is
/// written last.
pub fn plan(opts: RunOptions) -> Result<Planned> {
    let Checked {
        opts,
        recorded,
        demo_dirs,
        inputs,
        base,
        manifest_status,
        corpus,
        out,
        agent,
        override_template,
        depends,
        planted_path,
        gate,
        repo_config,
    } = checks(opts)?;
    let mut record = round_record(
        &opts,
        &inputs,
        &base,
        manifest_status,
        &gate,
        &agent,
        planted_path.clone(),
    );
    record.repo_agent_config = Some(repo_config);
    let (lock, units) = open_out(&opts, &out, &mut record)?;
    crate::outdir::register(&out);
    crate::outdir::register_inputs(
        opts.qset
            .iter()
            .chain(opts.seal.iter())
            .map(PathBuf::as_path),
    );
    if opts.resume {
        check_dependencies(&opts, &out, &depends, &mut record)?;
    }
    let dispatches = make_dispatches(&opts, &inputs, &out, planted_path.as_deref())?;
    let dispatches = match record.order_seed {
        Some(seed) => super::order::interleave(dispatches, seed),
        None => dispatches,
    };
    let forbid = forbidden_paths(&opts, &out, &corpus);
    crate::agents::sandbox::SandboxPlan::new(opts.sandbox, forbid.clone())
        .map_err(|e| Fail::new(Exit::GateRefused, format!("sandbox: {e:#}")))?;
    record.isolation = format!("{} (requested)", opts.sandbox.name());
    if opts.sandbox == runners::SandboxMode::None {
        eprintln!("note: --sandbox none: agents can read the round's journal in {} (labels, questions, prompts, answers); the report header says so", journal::dir(&out).display());
    }
    record::save_round(&out, &record)?;
    let plan = Plan {
        format: journal::PLAN_FORMAT.into(),
        out,
        demo: recorded.demo,
        options: recorded,
        base: PlannedBase {
            repo: base.workdir.clone(),
            sha: base.commit.clone(),
        },
        seal: match (&opts.seal, &inputs.seal, &inputs.seal_bytes) {
            (Some(p), Some(s), Some(b)) => Some(PlannedSeal {
                path: std::path::absolute(p)?,
                name: s.name().to_string(),
                sha256: manifest::sha256_hex(b),
            }),
            _ => None,
        },
        agent: PlannedAgent {
            name: opts.agent.clone().unwrap_or_else(|| "baseline-grep".into()),
            override_template,
            template: agent.spec.template.clone(),
            // As the agent resolved it: the flag, or `prompt_stdin = true` in harness.toml.
            prompt_stdin: agent.spec.prompt_stdin,
        },
        forbid,
        dispatches,
        depends,
    };
    journal::save_plan(&plan)?;
    Ok(Planned {
        plan,
        qset: inputs.qset,
        record,
        corpus,
        seal: inputs.seal,
        agent,
        demo_dirs,
        lock,
        units,
    })
}

/// Chooses the reading the round scores with (`--lexicon`, `--token-match`, recorded with its
/// options), before anything records a fingerprint.
pub fn activate_reading(opts: &RunOptions) -> Result<()> {
    crate::reading::activate(opts.lexicon.as_deref(), opts.token_match)
}

/// `--resume`: the round's own recorded options, read from its journal, so `--out` alone is
/// enough. A flag that would change what is measured must be absent or equal to the record
/// (checked here); `--jobs`, `--quiet`, `--verbose`, `--format` and `--keep-checkouts` are this run's to choose. A
/// restated round (`--qset` given) is taken as given and compared with `round.json` instead.
pub fn resume_options(given: RunOptions) -> Result<RunOptions> {
    let Some(out) = given.out.clone() else {
        return Err(Fail::new(
            Exit::Usage,
            "--resume needs --out DIR: the out-dir of the round to finish",
        )
        .into());
    };
    if given.qset.is_some() {
        return Ok(given);
    }
    let out = std::path::absolute(&out)?;
    let recorded = journal::load_plan(&out)?.options;
    let conflicts = resume_conflicts(&given, &recorded);
    if !conflicts.is_empty() {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "--resume finishes the round as it was planned; these flags differ from its record: {} (drop them: harness run --out {} --resume)",
                conflicts.join(", "),
                out.display()
            ),
        )
        .into());
    }
    Ok(RunOptions {
        resume: true,
        out: Some(out),
        jobs: given.jobs,
        quiet: given.quiet,
        keep_checkouts: given.keep_checkouts,
        no_preflight: given.no_preflight,
        verbose: given.verbose,
        json: given.json,
        accept_change: given.accept_change,
        ..recorded
    })
}

/// The flags given with `--resume` that name something other than the record (a flag left at
/// its default is not a request).
fn resume_conflicts(given: &RunOptions, rec: &RunOptions) -> Vec<String> {
    let d = RunOptions::defaults();
    let mut c = Vec::new();
    let abs = |p: &Option<PathBuf>| p.as_ref().and_then(|p| std::path::absolute(p).ok());
    let mut path = |name: &str, g: &Option<PathBuf>, r: &Option<PathBuf>| {
        if g.is_some() && abs(g) != abs(r) {
            c.push(name.to_string());
        }
    };
    path("--seal", &given.seal, &rec.seal);
    path("--repo", &given.repo, &rec.repo);
    path("--protocol", &given.protocol, &rec.protocol);
    path("--manifest", &given.manifest, &rec.manifest);
    path("--lexicon", &given.lexicon, &rec.lexicon);
    path("--config", &given.config, &rec.config);
    let mut other = |name: &str, is_default: bool, equal: bool| {
        if !is_default && !equal {
            c.push(name.to_string());
        }
    };
    other(
        "--base-ref",
        given.base_ref.is_none(),
        given.base_ref == rec.base_ref,
    );
    other(
        "--base-sha",
        given.base_sha.is_none(),
        given.base_sha == rec.base_sha,
    );
    other("--agent", given.agent.is_none(), given.agent == rec.agent);
    other("--model", given.model.is_none(), given.model == rec.model);
    // The judge that reads the answers is part of the plan: a resume reads with it.
    other("--judge", given.judge.is_none(), given.judge == rec.judge);
    other("--demo", given.demo.is_none(), given.demo == rec.demo);
    // A flag at its default was not given; otherwise it must be the recorded value.
    macro_rules! flag {
        ($name:expr, $field:ident) => {
            other($name, given.$field == d.$field, given.$field == rec.$field)
        };
    }
    flag!("--arms", arms);
    flag!("--reps", reps);
    flag!("--deliver", deliver);
    flag!("--timeout", timeout);
    flag!("--retries", retries);
    flag!("--pass-env", pass_env);
    flag!("--prompt-stdin", prompt_stdin);
    flag!("--plant-dir", plant_dir);
    flag!("--allow-contaminated", allow_contaminated);
    flag!("--sandbox", sandbox);
    flag!("--token-match", token_match);
    flag!("--ledger", ledger);
    c
}

/// The options as the journal records them: absolute paths (a resume may start elsewhere) and
/// the demo's mode made explicit when no qset is given.
fn recorded_options(opts: &RunOptions) -> Result<RunOptions> {
    let abs = |p: &Option<PathBuf>| -> Result<Option<PathBuf>> {
        Ok(match p {
            Some(p) => Some(std::path::absolute(p)?),
            None => None,
        })
    };
    let mut r = opts.clone();
    r.qset = abs(&opts.qset)?;
    r.seal = abs(&opts.seal)?;
    r.repo = match &opts.repo {
        Some(p) => Some(std::path::absolute(p)?),
        None if opts.qset.is_some() => Some(std::env::current_dir()?),
        None => None,
    };
    r.protocol = abs(&opts.protocol)?;
    r.manifest = abs(&opts.manifest)?;
    r.lexicon = abs(&opts.lexicon)?;
    r.config = abs(&opts.config)?;
    r.out = abs(&opts.out)?;
    r.resume = false;
    if r.qset.is_none() {
        r.demo = Some(opts.demo.unwrap_or(DemoMode::Deliver));
    }
    Ok(r)
}

/// Without `--qset` the shipped demo runs: its repository and inputs are rebuilt into temp
/// folders and the options point at them.
fn resolve_demo(mut opts: RunOptions) -> Result<(RunOptions, Option<DemoDirs>)> {
    if opts.qset.is_some() {
        if opts.demo.is_some() {
            return Err(Fail::new(
                Exit::Usage,
                "--demo runs the shipped demo; it cannot be combined with --qset",
            )
            .into());
        }
        return Ok((opts, None));
    }
    if opts.seal.is_some()
        || opts.repo.is_some()
        || opts.base_ref.is_some()
        || opts.base_sha.is_some()
    {
        return Err(Fail::new(Exit::Usage, "--seal, --repo and --base-* need --qset; without --qset the shipped demo runs with its own").into());
    }
    let mode = opts.demo.unwrap_or(DemoMode::Deliver);
    let (dirs, repo, inputs) = DemoDirs::build()?;
    opts.qset = Some(inputs.qset);
    opts.seal = Some(inputs.seal);
    if opts.manifest.is_none() {
        // Each demo question is its own sealed design (deliver or discover).
        opts.manifest = match mode {
            DemoMode::Deliver => inputs.manifest,
            DemoMode::Discover => inputs.manifest_discover,
        };
    }
    opts.repo = Some(repo);
    if opts.agent.is_none() {
        opts.agent = Some("baseline-grep".into());
    }
    opts.deliver = mode == DemoMode::Deliver;
    opts.demo = Some(mode);
    Ok((opts, Some(dirs)))
}

fn read_input(path: &Path, what: &str) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| {
        Fail::new(
            Exit::Usage,
            format!("{what} {}: cannot read it: {e}", path.display()),
        )
        .into()
    })
}

/// Parses a qset file; malformed → exit 2 naming file and line, no scoreable rows → exit 12.
pub fn load_qset(path: &Path) -> Result<(Qset, Vec<u8>)> {
    let bytes = read_input(path, "qset")?;
    match scorer::qset::parse(&bytes, &path.display().to_string()) {
        Ok(q) => Ok((q, bytes)),
        Err(e) if e.is_unmeasured() => {
            Err(Fail::new(Exit::Unmeasured, format!("UNMEASURED: {e}")).into())
        }
        Err(e) => Err(Fail::new(Exit::Usage, e.to_string()).into()),
    }
}

/// Resolves the base; refs that disagree or do not resolve are bad input (exit 2).
pub fn resolve_base(
    repo: Option<&Path>,
    base_ref: Option<&str>,
    base_sha: Option<&str>,
) -> Result<runners::Base> {
    let start = match repo {
        Some(r) => r.to_path_buf(),
        None => std::env::current_dir()?,
    };
    runners::resolve_base(&start, base_ref, base_sha)
        .map_err(|e| Fail::new(Exit::Usage, e.to_string()).into())
}

/// Reads the qset, the seal (required unless CTRL only) and the protocol.
fn read_inputs(opts: &RunOptions) -> Result<Inputs> {
    let qset_path = opts.qset.clone().expect("qset resolved");
    let (qset, qset_bytes) = load_qset(&qset_path)?;
    let seal_bytes = match (&opts.seal, opts.arms) {
        (Some(p), _) => Some(read_input(p, "seal")?),
        (None, Arms::Ctrl) => None,
        (None, _) => {
            return Err(Fail::new(
                Exit::Usage,
                "--seal is required unless --arms CTRL (the eligibility run before sealing)",
            )
            .into())
        }
    };
    let seal_name = opts
        .seal
        .as_ref()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    let seal = match (&seal_name, &seal_bytes) {
        (Some(n), Some(b)) => {
            Some(Seal::new(n, b.clone()).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?)
        }
        _ => None,
    };
    let protocol = read_protocol(opts.protocol.as_deref())?;
    if opts.deliver && seal.is_none() {
        return Err(Fail::new(
            Exit::Usage,
            "--deliver names the planted seal; there is no seal in a CTRL-only round",
        )
        .into());
    }
    Ok(Inputs {
        qset_path,
        qset,
        qset_bytes,
        seal_bytes,
        seal_name,
        seal,
        protocol,
    })
}

/// The protocol file: missing → exit 11, not UTF-8 → exit 2.
fn read_protocol(path: Option<&Path>) -> Result<Option<String>> {
    let Some(p) = path else {
        return Ok(None);
    };
    match std::fs::read(p) {
        Ok(b) => Ok(Some(String::from_utf8(b).map_err(|_| {
            Fail::new(Exit::Usage, format!("protocol {}: not UTF-8", p.display()))
        })?)),
        Err(e) => Err(Fail::new(
            Exit::ProtocolMissing,
            format!("protocol file {}: {e}", p.display()),
        )
        .into()),
    }
}

/// The manifest, compared by content before anything is dispatched; no manifest is UNVERIFIED.
fn check_manifest(
    opts: &RunOptions,
    qset_path: &Path,
    base: &runners::Base,
) -> Result<ManifestRecord> {
    let Some(mp) = &opts.manifest else {
        return Ok(ManifestRecord {
            status: "UNVERIFIED".into(),
            path: None,
            checks: Vec::new(),
            design_sealed: false,
            sealed: None,
            judge_changed: None,
        });
    };
    let m = manifest::load(mp)?;
    let mut checks = vec![
        manifest::check_file(&m, Role::Qset, Some(qset_path), mp),
        manifest::check_used(&m, Role::Seal, opts.seal.as_deref(), mp),
        manifest::check_used(&m, Role::Protocol, opts.protocol.as_deref(), mp),
        manifest::check_base(&m, &base.commit),
        manifest::check_scorer(&m),
    ];
    if opts.arms == Arms::Ctrl && opts.seal.is_none() {
        checks.retain(|c| c.what != "seal");
    }
    // The design: each field compared; the CLI's version only when the manifest has one.
    let design_sealed = m.design.is_some();
    if let Some(sealed) = &m.design {
        let version = sealed
            .agent_version
            .as_ref()
            .and_then(|_| crate::agents::cli_version(opts.agent.as_deref().unwrap_or("")));
        let judge_version = sealed.judge_version.as_ref().and_then(|_| {
            opts.judge_call
                .as_ref()
                .and_then(|j| crate::agents::cli_version(&j.spec))
        });
        let now = manifest::Design::of_run(opts, version, judge_version);
        let design = sealed.compare(&now);
        let differs: Vec<String> = design
            .iter()
            .filter(|c| !c.status.is_ok())
            .map(|c| format!("{} ({})", c.what, c.detail))
            .collect();
        // The shipped demo run with other flags (`--reps 1`, another agent) is a variation the
        // shipped manifest does not register: said, and run as unsealed, never as "match".
        if !differs.is_empty() && opts.demo.is_some() && m.base.repo == crate::demo::EMBEDDED_REPO {
            eprintln!(
                "harness: note: the shipped demo manifest {} seals another design: {}; this round runs without it (manifest UNVERIFIED, design not sealed)",
                mp.display(),
                differs.join("; ")
            );
            return Ok(ManifestRecord {
                status: "UNVERIFIED".into(),
                path: None,
                checks: Vec::new(),
                design_sealed: false,
                sealed: None,
                judge_changed: None,
            });
        }
        checks.extend(design);
    }
    let bad: Vec<_> = checks.iter().filter(|c| !c.status.is_ok()).collect();
    if !bad.is_empty() {
        let lines: Vec<String> = bad
            .iter()
            .map(|c| format!("  {:<9} {:<9} {}", c.what, c.status.as_str(), c.detail))
            .collect();
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "the inputs or the design are not the ones sealed in {}; the round does not start:\n{}",
                mp.display(),
                lines.join("\n")
            ),
        )
        .into());
    }
    Ok(ManifestRecord {
        status: "match".into(),
        path: Some(mp.display().to_string()),
        checks: checks
            .iter()
            .map(|c| format!("{} {} {}", c.what, c.status.as_str(), c.detail))
            .collect(),
        design_sealed,
        sealed: m.design.clone(),
        judge_changed: None,
    })
}

/// `<per-user state folder>/<date>-<random>`: outside every repository (see [`crate::outdir`]).
pub fn default_out() -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    let suffix: String = (0..6)
        .map(|_| {
            let n = rand::thread_rng().gen_range(0..32u8);
            (if n < 26 { b'a' + n } else { b'2' + n - 26 }) as char
        })
        .collect();
    crate::outdir::default_root().join(format!("{stamp}-{suffix}"))
}

/// The out-dir (absolute) and its own folder name, which the name-leak gate checks.
fn resolve_out(opts: &RunOptions) -> Result<(PathBuf, String)> {
    let out = std::path::absolute(opts.out.clone().unwrap_or_else(default_out))?;
    let out_name = match out.file_name() {
        Some(n)
            if !matches!(
                out.components().next_back(),
                Some(std::path::Component::ParentDir)
            ) =>
        {
            n.to_string_lossy().into_owned()
        }
        _ => {
            return Err(Fail::new(
                Exit::Usage,
                format!(
                    "--out {} has no folder name of its own; name a new folder",
                    out.display()
                ),
            )
            .into())
        }
    };
    let out = crate::outdir::resolved(&out)?;
    if out.exists() && !out.is_dir() {
        return Err(Fail::new(
            Exit::Usage,
            format!("--out {} exists and is not a folder", out.display()),
        )
        .into());
    }
    Ok((out, out_name))
}

/// What a tracked link must not lead to besides the qset and the seal: the manifest, the
/// out-dir and its labelmap.
fn protected_paths(opts: &RunOptions, out: &Path) -> Vec<(String, PathBuf)> {
    let mut p = vec![
        ("out-dir".to_string(), out.to_path_buf()),
        (
            "labelmap".to_string(),
            crate::round::journal::labelmap_path(out),
        ),
    ];
    if let Some(m) = &opts.manifest {
        p.push(("manifest".to_string(), m.clone()));
    }
    p
}

/// The start gate over exactly what an agent will see; prints its table; refuses → its exit.
fn start_gate(
    opts: &RunOptions,
    inputs: &Inputs,
    corpus: &Corpus,
    plant: &Plant,
    planted_path: Option<&str>,
    (out, out_name): (&Path, String),
) -> Result<GateReport> {
    let (extra_corpus, mut visible_names) = gate::seen_besides_tree(
        &inputs.qset,
        inputs.protocol.as_deref().map(str::as_bytes),
        plant,
        planted_path,
    );
    visible_names.push(("out-dir name".to_string(), out_name));
    let phase = if opts.arms == Arms::Ctrl && inputs.seal.is_none() {
        Phase::Pre
    } else {
        Phase::Post
    };
    let gate = gate::check(&GateInput {
        qset: &inputs.qset,
        qset_path: &inputs.qset_path,
        seal: opts.seal.as_deref().zip(inputs.seal_bytes.as_deref()),
        seal_name: inputs.seal_name.as_deref(),
        corpus,
        extra_corpus,
        visible_names,
        plant_dir: plant.dir(),
        protected: protected_paths(opts, out),
        phase,
        allow_contaminated: opts.allow_contaminated,
        ledger: opts.ledger,
    })?;
    // Under --format json stdout is one document: the gate's table goes to stderr.
    let table = format!(
        "── start gate (phase {}) ──\n{}",
        if phase == Phase::Pre { "pre" } else { "post" },
        gate.table_seen(&gate::shape_seen(&inputs.qset_bytes, opts.verbose))
    );
    if opts.json {
        eprint!("{table}");
    } else {
        print!("{table}");
    }
    match gate.exit() {
        Exit::Ok => Ok(gate),
        Exit::GatePartial if opts.arms == Arms::Ctrl => {
            eprintln!("gate: partial (ledger UNCHECKED) accepted for a CTRL-only eligibility run; seal, then run both arms");
            Ok(gate)
        }
        other => Err(Fail::new(
            other,
            format!(
                "the start gate refused; no dispatch was made ({})",
                other.meaning()
            ),
        )
        .into()),
    }
}

/// The round's agent (preset or template, `harness.toml` overrides, the preset's setup for this
/// sandbox and delivery) and the command override it used. A template that never carries the
/// prompt, or names an unknown placeholder, fails the same way for every dispatch: refused
/// here, before anything is dispatched.
fn resolve_agent(
    opts: &RunOptions,
    base: &runners::Base,
) -> Result<(RoundAgent, Option<String>, Vec<journal::Dependency>)> {
    let agent_name = opts.agent.clone().unwrap_or_else(|| "baseline-grep".into());
    let config = crate::config::load(opts.config.as_deref(), Some(&base.workdir))?;
    let override_tpl = config
        .config
        .agent_for(&agent_name)
        .and_then(|a| a.command.clone());
    let agent = crate::agents::resolve(
        &agent_name,
        &config,
        opts.prompt_stdin,
        opts.sandbox != runners::SandboxMode::None,
        opts.deliver,
    )?;
    let spec = &agent.spec;
    name_carried_files(spec);
    runners::check_pass_env(&opts.pass_env).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    spec.argv(&runners::Invocation {
        prompt: "",
        prompt_file: Path::new("prompt.txt"),
        model: opts.model.as_deref(),
        workdir: Path::new("."),
        harness_exe: Path::new("harness"),
    })
    .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    let depends = crate::agents::dependencies(&agent, &config);
    Ok((agent, override_tpl, depends))
}

/// `--resume`: what the answers depend on must be what the plan hashed, unless the user
/// accepts the change of that field (`--accept-change FIELD`), which `round.json` records.
fn check_dependencies(
    opts: &RunOptions,
    out: &Path,
    now: &[journal::Dependency],
    record: &mut RoundRecord,
) -> Result<()> {
    let planned = journal::load_plan(out)?.depends;
    if planned.is_empty() {
        eprintln!("harness: note: this round's plan predates dependency hashes; the agent's program and home files are not compared");
        return Ok(());
    }
    let changes = journal::dependency_changes(&planned, now);
    let refused: Vec<&(String, String)> = changes
        .iter()
        .filter(|(field, _)| !opts.accept_change.contains(field))
        .collect();
    if !refused.is_empty() {
        let mut fields: Vec<&str> = refused.iter().map(|(f, _)| f.as_str()).collect();
        fields.dedup();
        return Err(Fail::new(
            Exit::ManifestMismatch,
            format!(
                "--resume refused: what the round's answers depend on changed since it was planned (its answers would mix two agents):\n{}\nRestore it, or accept it for this round with: {} --accept-change {}",
                refused
                    .iter()
                    .map(|(_, c)| format!("  {}", crate::text::clean_line(c, 300)))
                    .collect::<Vec<_>>()
                    .join("\n"),
                crate::round::resume_command(out),
                fields.join(" --accept-change ")
            ),
        )
        .into());
    }
    let stamp = chrono::Utc::now().to_rfc3339();
    for (_, c) in &changes {
        eprintln!(
            "harness: accepted change (recorded in round.json): {}",
            crate::text::clean_line(c, 300)
        );
        record
            .accepted_changes
            .push(format!("{stamp} --accept-change {c}"));
    }
    Ok(())
}

/// Names, at start, every file of the user's home that each agent's fresh home will carry:
/// the preset's credential files found, and `home_files`.
fn name_carried_files(spec: &runners::AgentSpec) {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let present = |rel: &str| home.as_ref().is_some_and(|h| h.join(rel).is_file());
    for f in &spec.credential_files {
        if present(f) {
            eprintln!(
                "harness: each agent's fresh home carries ~/{f} (the login of {})",
                spec.name
            );
        }
    }
    for f in &spec.home_files {
        let state = if present(f) {
            ""
        } else {
            " (not there now: nothing is copied)"
        };
        eprintln!("harness: each agent's fresh home carries ~/{f} (home_files){state}");
    }
}

/// Labels read back from the round's journal on `--resume`, else none (fresh ones are drawn).
fn known_labels(opts: &RunOptions, out: &Path) -> Result<Option<BTreeMap<(String, Arm), Label>>> {
    if !opts.resume {
        return Ok(None);
    }
    Ok(Some(journal::load_plan(out)?.labels()))
}

/// Every (question × arm × rep), with labels generated or (on resume) read back.
fn make_dispatches(
    opts: &RunOptions,
    inputs: &Inputs,
    out: &Path,
    planted_path: Option<&str>,
) -> Result<Vec<Dispatch>> {
    let arms = opts.arms.list();
    let known = known_labels(opts, out)?;
    let mut fresh = runners::unique_labels(inputs.qset.questions.len() * arms.len()).into_iter();
    let mut plan = Vec::new();
    for q in &inputs.qset.questions {
        for &arm in &arms {
            let label = match &known {
                Some(map) => map.get(&(q.qid.clone(), arm)).cloned().ok_or_else(|| {
                    Fail::new(
                        Exit::Usage,
                        format!(
                            "--resume: the round's plan has no label for {} {arm}",
                            q.qid
                        ),
                    )
                })?,
                None => fresh.next().expect("enough labels"),
            };
            let deliver_path = if opts.deliver && arm == Arm::Arm {
                planted_path
            } else {
                None
            };
            let prompt = compose_prompt(&q.question, inputs.protocol.as_deref(), deliver_path);
            for rep in 1..=opts.reps {
                plan.push(Dispatch {
                    label: label.clone(),
                    qid: q.qid.clone(),
                    kind: q.kind,
                    arm,
                    rep,
                    prompt: prompt.clone(),
                });
            }
        }
    }
    Ok(plan)
}

/// An input's path as `round.json` records it: resolved, so `report` and `rescore` find it from
/// any working directory (a path as typed, `../handoff/qset.tsv`, meant something only where the
/// round was started).
fn recorded_path(p: &Path) -> String {
    std::fs::canonicalize(p)
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The inputs with their hashes, as `round.json` records them.
fn input_records(opts: &RunOptions, inputs: &Inputs) -> Vec<InputRecord> {
    let mut v = vec![InputRecord {
        role: "qset".into(),
        path: recorded_path(&inputs.qset_path),
        sha256: manifest::sha256_hex(&inputs.qset_bytes),
    }];
    if let (Some(p), Some(b)) = (&opts.seal, &inputs.seal_bytes) {
        v.push(InputRecord {
            role: "seal".into(),
            path: recorded_path(p),
            sha256: manifest::sha256_hex(b),
        });
    }
    if let (Some(p), Some(t)) = (&opts.protocol, &inputs.protocol) {
        v.push(InputRecord {
            role: "protocol".into(),
            path: recorded_path(p),
            sha256: manifest::sha256_hex(t.as_bytes()),
        });
    }
    v
}

/// `round.json` as the round starts (status running).
fn round_record(
    opts: &RunOptions,
    inputs: &Inputs,
    base: &runners::Base,
    manifest: ManifestRecord,
    gate: &GateReport,
    agent: &RoundAgent,
    planted_path: Option<String>,
) -> RoundRecord {
    let demo_label = opts.demo.map(DemoMode::as_str);
    RoundRecord {
        format: record::ROUND_FORMAT.into(),
        harness_version: env!("CARGO_PKG_VERSION").into(),
        scorer_fingerprint: crate::reading::active().fingerprint(),
        lexicon_version: crate::reading::active().version(),
        demo: demo_label.map(String::from),
        inputs: input_records(opts, inputs),
        seal_name: inputs.seal_name.clone(),
        manifest,
        base: record::BaseRecord {
            repo: if demo_label.is_some() {
                demo::EMBEDDED_REPO.into()
            } else {
                base.workdir.display().to_string()
            },
            sha: base.commit.clone(),
            reference: base.reference.clone(),
            dirty: base.dirty,
        },
        agent: opts.agent.clone().unwrap_or_else(|| "baseline-grep".into()),
        agent_command: agent.spec.template.clone(),
        agent_notes: agent.notes(),
        agent_version: crate::agents::cli_version(opts.agent.as_deref().unwrap_or("")),
        preflight: None,
        prompt_stdin: agent.spec.prompt_stdin,
        sandbox: opts.sandbox.name().into(),
        model: opts.model.clone(),
        reps: opts.reps,
        arms: opts.arms.as_str().into(),
        deliver: opts.deliver,
        plant_path: planted_path.unwrap_or_else(|| opts.plant_dir.clone()),
        jobs: opts.jobs,
        timeout_secs: opts.timeout.as_secs(),
        retries: opts.retries,
        pass_env: opts.pass_env.clone(),
        env_names: Vec::new(),
        contamination_override: opts.allow_contaminated,
        contaminated: gate.contaminated,
        gate: gate.axes.clone(),
        isolation: String::new(),
        checkout: String::new(),
        phases: Vec::new(),
        started: chrono::Utc::now().to_rfc3339(),
        finished: None,
        status: RoundStatus::Running,
        counts: Default::default(),
        order_seed: Some(super::order::fresh_seed()),
        accepted_changes: Vec::new(),
        ledger: opts.ledger.as_str().into(),
        uncarried: gate.uncarried.clone(),
        timeline: Vec::new(),
        effort: Vec::new(),
        judge: None,
        repo_agent_config: None,
        allow_repo_hooks: opts.allow_repo_hooks,
    }
}

/// The out-dir, locked for the round: new (or empty), or the round being resumed with the same
/// inputs. A resumed round is re-opened: its completion marker and reports go first, so nothing
/// claims a verdict while dispatches run again. A resume is refused while any unit of the round
/// still runs (naming it): it would run that unit a second time, and its sweep of leftover
/// writes would take the running unit's in-flight answer.
fn open_out(
    opts: &RunOptions,
    out: &Path,
    record: &mut RoundRecord,
) -> Result<(journal::Lock, journal::UnitsLock)> {
    let has_entries = |p: &Path| std::fs::read_dir(p).is_ok_and(|mut rd| rd.next().is_some());
    if !opts.resume && has_entries(out) {
        if journal::dir(out).join("lock").is_file() {
            // A running round names its pid; a finished one is simply not empty.
            drop(journal::Lock::acquire(out)?);
        }
        return Err(not_empty(out));
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let lock = journal::Lock::acquire(out)?;
    let role = if opts.resume { "resume" } else { "plan" };
    let units = journal::no_unit_runs(out, role)?;
    journal::sweep_partials(out, &units);
    if !opts.resume {
        if journal::plan_path(out).exists() {
            return Err(not_empty(out));
        }
        return Ok((lock, units));
    }
    let old = record::load_round(out)?;
    let diffs = record.resume_differences(&old);
    if !diffs.is_empty() {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "--resume refused: the round in {} ran with other inputs: {}",
                out.display(),
                diffs.join("; ")
            ),
        )
        .into());
    }
    record.started = old.started.clone();
    // The recorded seed gives the recorded order: a resumed round runs in the order it began.
    record.order_seed = old.order_seed;
    record.accepted_changes = old.accepted_changes.clone();
    for name in REPORT_FILES {
        let _ = std::fs::remove_file(out.join(name));
    }
    Ok((lock, units))
}

/// Every file that states a round's result, `ROUND_DONE` first: removed when a round reopens.
pub const REPORT_FILES: [&str; 5] = [
    "ROUND_DONE",
    "summary.json",
    "report.md",
    "report.html",
    "verdicts.csv",
];

/// The refusal of an out-dir that is not empty, saying what it holds: a finished round (its
/// results are there to read; a new round needs another folder), a round that did not finish
/// (`--resume` finishes it), or no round at all.
fn not_empty(out: &Path) -> anyhow::Error {
    let shown = out.display();
    let message = if out.join("ROUND_DONE").is_file() {
        format!(
            "out-dir {shown} holds a finished round (ROUND_DONE); a new round needs another --out (a new or empty folder). To read this round's results: harness report {shown}"
        )
    } else if journal::plan_path(out).exists() || out.join("round.json").exists() {
        format!(
            "out-dir {shown} exists and is not empty: it holds a round that did not finish; choose another --out, or finish that round with: harness run --out {shown} --resume"
        )
    } else {
        format!(
            "out-dir {shown} exists and is not empty and holds no round; choose another --out (a new or empty folder)"
        )
    };
    Fail::new(Exit::Usage, message).into()
}

/// What no sandboxed agent may read: the repository, the out-dir (and its journal), the inputs,
/// and every round's state and out-dir ([`crate::outdir::protected`]).
fn forbidden_paths(opts: &RunOptions, out: &Path, corpus: &Corpus) -> Vec<PathBuf> {
    let mut forbid = vec![corpus.base.workdir.clone(), out.to_path_buf()];
    forbid.extend(
        opts.qset
            .iter()
            .chain(opts.seal.iter())
            .filter_map(|p| std::path::absolute(p).ok()),
    );
    for p in crate::outdir::protected() {
        if !forbid.contains(&p) {
            forbid.push(p);
        }
    }
    forbid
}
