//! `harness run`: gates → dispatch every (question × arm × rep) in isolated checkouts, in
//! parallel → score → report → completion marker (DESIGN §4, §7.7).

use crate::demo;
use crate::exit::{Exit, Fail};
use crate::gate::{self, GateInput, Phase};
use crate::manifest::{self, Role};
use crate::record::{self, DispatchRecord, DispatchStatus, InputRecord, RoundRecord, RoundStatus};
use crate::retry::AgentsOwn;
use crate::text::clean_line;
use anyhow::{Context, Result};
use rand::Rng;
use runners::{AgentSpec, Corpus, Label, Plant, ProcessGroups, Seal, TempRoot, Template};
use scorer::{Arm, Kind, Qset};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Which arms a round runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arms {
    /// ARM only.
    Arm,
    /// CTRL only (the eligibility run; needs no seal).
    Ctrl,
    /// Both, paired.
    Both,
}

impl Arms {
    /// The arms to dispatch.
    pub fn list(self) -> Vec<Arm> {
        match self {
            Arms::Arm => vec![Arm::Arm],
            Arms::Ctrl => vec![Arm::Ctrl],
            Arms::Both => vec![Arm::Arm, Arm::Ctrl],
        }
    }

    /// As recorded: `ARM`, `CTRL`, `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            Arms::Arm => "ARM",
            Arms::Ctrl => "CTRL",
            Arms::Both => "both",
        }
    }
}

/// The demo's two questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoMode {
    /// ARM's prompt names the planted path.
    Deliver,
    /// Nothing tells the agent the seal exists.
    Discover,
}

/// Everything `harness run` takes, free of the command-line types.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The qset; `None` runs the demo.
    pub qset: Option<PathBuf>,
    /// The seal.
    pub seal: Option<PathBuf>,
    /// The repository.
    pub repo: Option<PathBuf>,
    /// `--base-ref`.
    pub base_ref: Option<String>,
    /// `--base-sha`.
    pub base_sha: Option<String>,
    /// Arms to run.
    pub arms: Arms,
    /// Repetitions.
    pub reps: u32,
    /// `--agent`.
    pub agent: Option<String>,
    /// `--model`.
    pub model: Option<String>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--deliver`.
    pub deliver: bool,
    /// `--protocol`.
    pub protocol: Option<PathBuf>,
    /// `--manifest`.
    pub manifest: Option<PathBuf>,
    /// `--jobs`.
    pub jobs: usize,
    /// `--timeout`.
    pub timeout: Duration,
    /// `--retries`.
    pub retries: u32,
    /// `--resume`.
    pub resume: bool,
    /// `--pass-env`.
    pub pass_env: Vec<String>,
    /// `--prompt-stdin`.
    pub prompt_stdin: bool,
    /// `--plant-dir`.
    pub plant_dir: String,
    /// `--keep-checkouts`.
    pub keep_checkouts: bool,
    /// `--allow-contaminated`.
    pub allow_contaminated: bool,
    /// `--sandbox`.
    pub sandbox: runners::SandboxMode,
    /// `--quiet`.
    pub quiet: bool,
    /// `--demo`.
    pub demo: Option<DemoMode>,
}

/// One planned dispatch: what it asks, in which arm, which rep, under which label.
#[derive(Debug, Clone)]
pub struct Dispatch {
    /// The label of its (qid, arm); files are `<label>_r<rep>.*`.
    pub label: Label,
    /// The question id.
    pub qid: String,
    /// The question kind.
    pub kind: Kind,
    /// The arm.
    pub arm: Arm,
    /// 1-based repetition.
    pub rep: u32,
    /// The full prompt the agent gets.
    pub prompt: String,
}

impl Dispatch {
    /// `<label>_r<rep>`: the stem of every file of this dispatch.
    pub fn stem(&self) -> String {
        format!("{}_r{}", self.label.as_str(), self.rep)
    }
}

/// The deliver prefix: what a hook would hand over, in front of the accumulated prompt.
pub fn deliver_prefix(planted: &str) -> String {
    format!("[Hand-off from the previous session: {planted} — open it if you need it]\n\n")
}

/// Question → protocol text appended after it (both arms) → deliver prefix in front (ARM only).
pub fn compose_prompt(
    question: &str,
    protocol: Option<&str>,
    deliver_path: Option<&str>,
) -> String {
    let mut p = question.to_string();
    if let Some(proto) = protocol {
        p.push_str("\n\n");
        p.push_str(proto);
    }
    match deliver_path {
        Some(path) => format!("{}{p}", deliver_prefix(path)),
        None => p,
    }
}

/// `rounds/<date>-<random>` in the current folder.
pub fn default_out() -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%d-%H%M%S");
    let suffix: String = (0..6)
        .map(|_| {
            let n = rand::thread_rng().gen_range(0..32u8);
            (if n < 26 { b'a' + n } else { b'2' + n - 26 }) as char
        })
        .collect();
    PathBuf::from("rounds").join(format!("{stamp}-{suffix}"))
}

/// The labelmap lives beside the out-dir, never inside it, and is written only after every
/// dispatch has ended: a file that does not exist while agents run cannot be read by one.
pub fn labelmap_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "round".into());
    out.with_file_name(format!("{name}.labelmap"))
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

/// The labelmap's lines: `label|qid|ARM` (the seed's format).
pub fn read_labelmap(path: &Path) -> Result<BTreeMap<(String, Arm), Label>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut map = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split('|').collect();
        let bad = || {
            Fail::new(
                Exit::Usage,
                format!(
                    "{}:{}: not a labelmap line (label|qid|arm)",
                    path.display(),
                    i + 1
                ),
            )
        };
        if parts.len() != 3 {
            return Err(bad().into());
        }
        let label = Label::parse(parts[0]).map_err(|_| bad())?;
        let arm: Arm = parts[2].parse().map_err(|_| bad())?;
        map.insert((parts[1].to_string(), arm), label);
    }
    Ok(map)
}

fn write_labelmap(path: &Path, plan: &[Dispatch]) -> Result<()> {
    let mut seen = std::collections::BTreeSet::new();
    let mut text = String::new();
    for d in plan {
        if seen.insert((d.qid.clone(), d.arm)) {
            text.push_str(&format!("{}|{}|{}\n", d.label.as_str(), d.qid, d.arm));
        }
    }
    manifest::write_atomic(path, text.as_bytes(), true)
}

/// Writes one file of a dispatch into the out-dir through a temp name and a rename.
fn put(out: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    manifest::write_atomic(&out.join(name), bytes, true)
}

struct Ctx<'a> {
    out: &'a Path,
    template: &'a Template,
    temp_root: &'a TempRoot,
    seal: Option<&'a Seal>,
    spec: &'a AgentSpec,
    model: Option<&'a str>,
    harness_exe: &'a Path,
    timeout: Duration,
    retries: u32,
    pass_env: &'a [String],
    keep_checkouts: bool,
    sandbox: &'a crate::sandbox::SandboxPlan,
    groups: &'a ProcessGroups,
    cancel: &'a Arc<AtomicBool>,
    user_home: Option<PathBuf>,
}

/// Runs one dispatch end to end and writes its files. Never panics on agent misbehaviour: every
/// failure becomes a `.err` file and a record.
fn execute(d: &Dispatch, ctx: &Ctx<'_>) -> DispatchRecord {
    let stem = d.stem();
    let mut rec = DispatchRecord::new(&stem);
    let mut retries = Vec::new();
    let cancelled = || ctx.cancel.load(Ordering::SeqCst);
    let result = crate::retry::with_retries(ctx.retries, cancelled, &mut retries, |_| {
        rec = DispatchRecord::new(&stem);
        execute_inner(d, ctx, &mut rec)
    });
    rec.retries = retries;
    if let Err(e) = result {
        rec.status = if ctx.cancel.load(Ordering::SeqCst) {
            DispatchStatus::Cancelled
        } else {
            DispatchStatus::Failed
        };
        rec.reason = Some(clean_line(&format!("{e:#}"), 500));
        let _ = put(
            ctx.out,
            &format!("{stem}.err"),
            format!("{}\n", rec.reason.as_deref().unwrap_or("")).as_bytes(),
        );
    }
    if let Ok(json) = serde_json::to_vec_pretty(&rec) {
        let _ = put(ctx.out, &format!("{stem}.json"), &json);
    }
    rec
}

fn execute_inner(d: &Dispatch, ctx: &Ctx<'_>, rec: &mut DispatchRecord) -> Result<()> {
    let stem = d.stem();
    put(ctx.out, &format!("{stem}.prompt"), d.prompt.as_bytes())?;
    let dir = ctx.temp_root.fresh_dir()?;
    let work = dir.join("work");
    let seal = if d.arm == Arm::Arm { ctx.seal } else { None };
    let checkout = ctx.template.checkout(&work, seal).context("checkout")?;
    rec.treediff = Some(serde_json::to_value(&checkout.treediff)?);
    let home = runners::DispatchHome::create(&dir)?;
    if let Some(user_home) = &ctx.user_home {
        runners::install_credentials(ctx.spec, user_home, &home.home)?;
    }
    let prompt_file = home.write_prompt_file(&d.prompt)?;
    let inv = runners::Invocation {
        prompt: &d.prompt,
        prompt_file: &prompt_file,
        model: ctx.model,
        workdir: &work,
        harness_exe: ctx.harness_exe,
    };
    let agent_argv = ctx.spec.argv(&inv)?;
    let report = dir.join("sandbox.json");
    let argv = ctx
        .sandbox
        .wrap(ctx.harness_exe, &work, &home, &report, agent_argv);
    let mut spec = runners::RunSpec::new(argv, work.clone(), home.clone(), ctx.timeout);
    spec.stdin = ctx.spec.stdin_bytes(&d.prompt);
    let mut pass: Vec<String> = ctx.pass_env.to_vec();
    pass.extend(ctx.spec.credential_env.iter().cloned());
    spec.pass_env = pass;
    spec.cancel = Some(ctx.cancel.clone());
    let outcome = runners::run_process(&spec, ctx.groups).context("starting the agent")?;
    rec.fill_from(&outcome);
    rec.isolation = Some(ctx.sandbox.level_of(&report));
    rec.stray_processes.extend(ctx.sandbox.strays_of(&report));
    put(ctx.out, &format!("{stem}.stderr"), &outcome.stderr)?;
    if let Some(why) = ctx.sandbox.failure(&report, outcome.exit_code) {
        let stderr = clean_line(&String::from_utf8_lossy(&outcome.stderr), 300);
        anyhow::bail!(
            "{why}{}",
            if stderr.is_empty() {
                String::new()
            } else {
                format!(": {stderr}")
            }
        );
    }
    if !ctx.keep_checkouts {
        let _ = runners::remove_tree(&dir);
    }
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
    if ctx.spec.output != runners::OutputFormat::Text {
        put(ctx.out, &format!("{stem}.raw"), &outcome.stdout)?;
    }
    // A non-zero exit with output is recorded (in the .json) and the answer kept; with no
    // output at all the agent never answered (a missing script, a refused key), and scoring
    // that as an empty answer would blame the model for the infrastructure.
    if outcome.exit_code != Some(0) && outcome.stdout.iter().all(|b| b.is_ascii_whitespace()) {
        let stderr = clean_line(&String::from_utf8_lossy(&outcome.stderr), 300);
        anyhow::bail!(
            "{} and no output{}",
            outcome
                .failure_reason()
                .unwrap_or_else(|| "the agent failed".into()),
            if stderr.is_empty() {
                String::new()
            } else {
                format!(": {stderr}")
            }
        );
    }
    let answer = runners::extract_answer(ctx.spec, &outcome.stdout)
        .map_err(|e| AgentsOwn(format!("reading the agent's result: {e}")))?;
    // The answer is written last: a `.txt` that exists is a finished dispatch.
    put(ctx.out, &format!("{stem}.txt"), &answer)?;
    rec.status = DispatchStatus::Answered;
    Ok(())
}

/// Everything resolved before dispatch: the inputs, the gate and the plan.
struct Prepared {
    qset: Qset,
    seal: Option<Seal>,
    record: RoundRecord,
    corpus: Corpus,
    plant: Plant,
    plan: Vec<Dispatch>,
    spec: AgentSpec,
    out: PathBuf,
}

/// Runs a round. Returns the exit the round ends with.
pub fn run(mut opts: RunOptions) -> Result<Exit> {
    // A Landlock-only sandbox leaves /proc visible: a non-dumpable harness keeps an agent of
    // the same (non-root) user from reading its environment and memory through /proc.
    // SAFETY: prctl with PR_SET_DUMPABLE takes plain integers and touches no memory of ours.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    // Keeps the demo's temp folders alive for the round.
    let mut _demo_dirs: Vec<tempfile::TempDir> = Vec::new();
    let mut demo_label = None;
    if opts.qset.is_none() {
        if opts.seal.is_some()
            || opts.repo.is_some()
            || opts.base_ref.is_some()
            || opts.base_sha.is_some()
        {
            return Err(Fail::new(Exit::Usage, "--seal, --repo and --base-* need --qset; without --qset the shipped demo runs with its own").into());
        }
        let mode = opts.demo.unwrap_or(DemoMode::Deliver);
        let d = demo::demo()?;
        let repo_dir = tempfile::Builder::new()
            .prefix("harness-demo-repo-")
            .tempdir()?;
        d.build_repo(repo_dir.path())?;
        let inputs_dir = tempfile::Builder::new()
            .prefix("harness-demo-inputs-")
            .tempdir()?;
        let inputs = d.write_inputs(inputs_dir.path())?;
        opts.qset = Some(inputs.qset);
        opts.seal = Some(inputs.seal);
        if opts.manifest.is_none() {
            opts.manifest = inputs.manifest;
        }
        opts.repo = Some(repo_dir.path().to_path_buf());
        if opts.agent.is_none() {
            opts.agent = Some("baseline-grep".into());
        }
        opts.deliver = mode == DemoMode::Deliver;
        demo_label = Some(match mode {
            DemoMode::Deliver => "deliver",
            DemoMode::Discover => "discover",
        });
        _demo_dirs.push(repo_dir);
        _demo_dirs.push(inputs_dir);
    } else if opts.demo.is_some() {
        return Err(Fail::new(
            Exit::Usage,
            "--demo runs the shipped demo; it cannot be combined with --qset",
        )
        .into());
    }
    let prepared = prepare(&opts, demo_label)?;
    dispatch_and_score(&opts, prepared)
}

fn prepare(opts: &RunOptions, demo_label: Option<&str>) -> Result<Prepared> {
    let qset_path = opts.qset.clone().expect("qset resolved");
    let (qset, qset_bytes) = load_qset(&qset_path)?;

    // Seal: required unless CTRL only.
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
    let protocol = match &opts.protocol {
        Some(p) => match std::fs::read(p) {
            Ok(b) => Some(String::from_utf8(b).map_err(|_| {
                Fail::new(Exit::Usage, format!("protocol {}: not UTF-8", p.display()))
            })?),
            Err(e) => {
                return Err(Fail::new(
                    Exit::ProtocolMissing,
                    format!("protocol file {}: {e}", p.display()),
                )
                .into())
            }
        },
        None => None,
    };
    if opts.deliver && seal.is_none() {
        return Err(Fail::new(
            Exit::Usage,
            "--deliver names the planted seal; there is no seal in a CTRL-only round",
        )
        .into());
    }

    let base = resolve_base(
        opts.repo.as_deref(),
        opts.base_ref.as_deref(),
        opts.base_sha.as_deref(),
    )?;
    if base.dirty {
        eprintln!("harness: note: the working tree of {} has uncommitted changes; the round runs on the committed tree at {}", base.workdir.display(), &base.commit[..12]);
    }

    // Manifest: by content, before anything is dispatched.
    let manifest_status = match &opts.manifest {
        None => record::ManifestRecord {
            status: "UNVERIFIED".into(),
            path: None,
            checks: Vec::new(),
        },
        Some(mp) => {
            let m = manifest::load(mp)?;
            let mut checks = vec![
                manifest::check_file(&m, Role::Qset, Some(&qset_path), mp),
                manifest::check_used(&m, Role::Seal, opts.seal.as_deref(), mp),
                manifest::check_used(&m, Role::Protocol, opts.protocol.as_deref(), mp),
                manifest::check_base(&m, &base.commit),
                manifest::check_scorer(&m),
            ];
            if opts.arms == Arms::Ctrl && opts.seal.is_none() {
                checks.retain(|c| c.what != "seal");
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
                        "the inputs are not the ones sealed in {}; the round does not start:\n{}",
                        mp.display(),
                        lines.join("\n")
                    ),
                )
                .into());
            }
            record::ManifestRecord {
                status: "match".into(),
                path: Some(mp.display().to_string()),
                checks: checks
                    .iter()
                    .map(|c| format!("{} {} {}", c.what, c.status.as_str(), c.detail))
                    .collect(),
            }
        }
    };

    let corpus = Corpus::load(&base).map_err(|e| {
        Fail::new(
            Exit::GateRefused,
            format!("cannot enumerate the tree at base: {e}"),
        )
    })?;
    let plant = Plant::new(&opts.plant_dir).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;

    let out = std::path::absolute(opts.out.clone().unwrap_or_else(default_out))?;
    let out_name = match out.file_name() {
        Some(n) if !matches!(out.components().next_back(), Some(std::path::Component::ParentDir)) => {
            n.to_string_lossy().into_owned()
        }
        _ => {
            return Err(Fail::new(
                Exit::Usage,
                format!("--out {} has no folder name of its own; the labelmap goes beside it, so name a new folder", out.display()),
            )
            .into())
        }
    };
    if out.exists() && !out.is_dir() {
        return Err(Fail::new(
            Exit::Usage,
            format!("--out {} exists and is not a folder", out.display()),
        )
        .into());
    }

    // Prompts, composed once; the gate searches them and checks them for leaks.
    let planted_path = seal.as_ref().map(|s| plant.seal_path(s));
    let (extra_corpus, mut visible_names) = gate::seen_besides_tree(
        &qset,
        protocol.as_deref().map(str::as_bytes),
        &plant,
        planted_path.as_deref(),
    );
    visible_names.push(("out-dir name".to_string(), out_name.clone()));
    let phase = if opts.arms == Arms::Ctrl && seal.is_none() {
        Phase::Pre
    } else {
        Phase::Post
    };
    let gate = gate::check(&GateInput {
        qset: &qset,
        qset_path: &qset_path,
        seal: opts.seal.as_deref().zip(seal_bytes.as_deref()),
        seal_name: seal_name.as_deref(),
        corpus: &corpus,
        extra_corpus,
        visible_names,
        phase,
        allow_contaminated: opts.allow_contaminated,
    })?;
    println!(
        "── start gate (phase {}) ──",
        if phase == Phase::Pre { "pre" } else { "post" }
    );
    print!("{}", gate.table());
    match gate.exit() {
        Exit::Ok => {}
        Exit::GatePartial if opts.arms == Arms::Ctrl => {
            println!("gate: partial (ledger UNCHECKED) accepted for a CTRL-only eligibility run; seal, then run both arms");
        }
        other => {
            return Err(Fail::new(
                other,
                format!(
                    "the start gate refused; no dispatch was made ({})",
                    other.meaning()
                ),
            )
            .into())
        }
    }

    // Agent.
    let agent_name = opts.agent.clone().unwrap_or_else(|| "baseline-grep".into());
    let config = crate::config::load(Some(&base.workdir))?;
    let override_tpl = config
        .config
        .agents
        .get(&agent_name)
        .map(|a| a.command.clone());
    let spec = AgentSpec::parse(&agent_name, override_tpl.as_deref())
        .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?
        .with_prompt_stdin(opts.prompt_stdin);
    runners::check_pass_env(&opts.pass_env).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    // A template that never carries the prompt, or names an unknown placeholder, fails the
    // same way for every dispatch: refuse it here, before anything is dispatched.
    spec.argv(&runners::Invocation {
        prompt: "",
        prompt_file: Path::new("prompt.txt"),
        model: opts.model.as_deref(),
        workdir: Path::new("."),
        harness_exe: Path::new("harness"),
    })
    .map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;

    // Plan, with labels generated or (on resume) read back.
    let arms = opts.arms.list();
    let known = if opts.resume {
        let lm = labelmap_path(&out);
        if !lm.is_file() {
            return Err(Fail::new(
                Exit::Usage,
                format!("--resume: no labelmap at {}", lm.display()),
            )
            .into());
        }
        Some(read_labelmap(&lm)?)
    } else {
        None
    };
    let mut fresh = runners::unique_labels(qset.questions.len() * arms.len()).into_iter();
    let mut plan = Vec::new();
    for q in &qset.questions {
        for &arm in &arms {
            let label = match &known {
                Some(map) => map.get(&(q.qid.clone(), arm)).cloned().ok_or_else(|| {
                    Fail::new(
                        Exit::Usage,
                        format!("--resume: the labelmap has no entry for {} {arm}", q.qid),
                    )
                })?,
                None => fresh.next().expect("enough labels"),
            };
            let deliver_path = if opts.deliver && arm == Arm::Arm {
                planted_path.as_deref()
            } else {
                None
            };
            let prompt = compose_prompt(&q.question, protocol.as_deref(), deliver_path);
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

    let mut inputs = vec![InputRecord {
        role: "qset".into(),
        path: qset_path.display().to_string(),
        sha256: manifest::sha256_hex(&qset_bytes),
    }];
    if let (Some(p), Some(b)) = (&opts.seal, &seal_bytes) {
        inputs.push(InputRecord {
            role: "seal".into(),
            path: p.display().to_string(),
            sha256: manifest::sha256_hex(b),
        });
    }
    if let (Some(p), Some(t)) = (&opts.protocol, &protocol) {
        inputs.push(InputRecord {
            role: "protocol".into(),
            path: p.display().to_string(),
            sha256: manifest::sha256_hex(t.as_bytes()),
        });
    }
    let record = RoundRecord {
        format: record::ROUND_FORMAT.into(),
        harness_version: env!("CARGO_PKG_VERSION").into(),
        scorer_fingerprint: scorer::fingerprint(),
        lexicon_version: scorer::LEXICON_VERSION.into(),
        demo: demo_label.map(String::from),
        inputs,
        seal_name: seal_name.clone(),
        manifest: manifest_status,
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
        agent: agent_name,
        agent_command: spec.template.clone(),
        prompt_stdin: opts.prompt_stdin,
        sandbox: opts.sandbox.name().into(),
        model: opts.model.clone(),
        reps: opts.reps,
        arms: opts.arms.as_str().into(),
        deliver: opts.deliver,
        plant_path: planted_path
            .clone()
            .unwrap_or_else(|| opts.plant_dir.clone()),
        jobs: opts.jobs,
        timeout_secs: opts.timeout.as_secs(),
        retries: opts.retries,
        pass_env: opts.pass_env.clone(),
        env_names: Vec::new(),
        contamination_override: opts.allow_contaminated,
        contaminated: gate.contaminated,
        gate: gate.axes.clone(),
        isolation: String::new(),
        started: chrono::Utc::now().to_rfc3339(),
        finished: None,
        status: RoundStatus::Running,
        counts: Default::default(),
    };
    Ok(Prepared {
        qset,
        seal,
        record,
        corpus,
        plant,
        plan,
        spec,
        out,
    })
}

fn dispatch_and_score(opts: &RunOptions, p: Prepared) -> Result<Exit> {
    let Prepared {
        qset,
        seal,
        mut record,
        corpus,
        plant,
        plan,
        spec,
        out,
        ..
    } = p;
    // Out-dir: new (or empty), or the round being resumed.
    if opts.resume {
        let old = record::load_round(&out)?;
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
    } else if out.exists() && std::fs::read_dir(&out)?.next().is_some() {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "out-dir {} exists and is not empty; choose another --out or pass --resume",
                out.display()
            ),
        )
        .into());
    }
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let labelmap = labelmap_path(&out);
    if !opts.resume && labelmap.exists() {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{} already exists; it belongs to another round",
                labelmap.display()
            ),
        )
        .into());
    }

    let out_abs = std::path::absolute(&out)?;
    let mut forbid = vec![corpus.base.workdir.clone(), out_abs.clone()];
    forbid.extend(
        opts.qset
            .iter()
            .chain(opts.seal.iter())
            .filter_map(|p| std::path::absolute(p).ok()),
    );
    let temp_root = TempRoot::create(&[&out_abs, &corpus.base.workdir])?;
    forbid.push(temp_root.path().to_path_buf());
    // On --resume the labelmap already exists while agents run: no sandboxed agent may read it.
    forbid.push(labelmap.clone());
    let sandbox = crate::sandbox::SandboxPlan::new(opts.sandbox, forbid)
        .map_err(|e| Fail::new(Exit::GateRefused, format!("sandbox: {e:#}")))?;
    record.isolation = format!("{} (requested)", opts.sandbox.name());
    record::save_round(&out, &record)?;

    // Which dispatches still need to run.
    let todo: Vec<&Dispatch> = plan
        .iter()
        .filter(|d| !(opts.resume && record::dispatch_is_whole(&out, &d.stem())))
        .collect();
    for d in &todo {
        let _ = std::fs::remove_file(out.join(format!("{}.err", d.stem())));
    }

    let template_dir = temp_root.fresh_dir()?;
    let template = Template::build(&corpus, &plant, &template_dir)?;
    let harness_exe = std::env::current_exe()?;
    let groups = ProcessGroups::new();
    let cancel = Arc::new(AtomicBool::new(false));
    {
        // The handler only raises the flag: each dispatch's runner stops its own process group
        // while it still holds the unreaped leader, so no recycled group id can be signalled.
        let cancel = cancel.clone();
        let _ = ctrlc::set_handler(move || {
            cancel.store(true, Ordering::SeqCst);
        });
    }
    let progress = crate::progress::Progress::new(todo.len() as u64, opts.quiet);
    let failures = AtomicUsize::new(0);
    let ctx = Ctx {
        out: &out,
        template: &template,
        temp_root: &temp_root,
        seal: seal.as_ref(),
        spec: &spec,
        model: opts.model.as_deref(),
        harness_exe: &harness_exe,
        timeout: opts.timeout,
        retries: opts.retries,
        pass_env: &opts.pass_env,
        keep_checkouts: opts.keep_checkouts,
        sandbox: &sandbox,
        groups: &groups,
        cancel: &cancel,
        user_home: std::env::var_os("HOME").map(PathBuf::from),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .build()?;
    pool.install(|| {
        use rayon::prelude::*;
        todo.par_iter().for_each(|d| {
            if cancel.load(Ordering::SeqCst) {
                return;
            }
            let rec = execute(d, &ctx);
            if rec.status != DispatchStatus::Answered {
                failures.fetch_add(1, Ordering::SeqCst);
            }
            progress.tick(failures.load(Ordering::SeqCst));
        });
    });
    progress.finish();
    // Every dispatch has ended (or was stopped): only now may the labelmap exist.
    write_labelmap(&labelmap, &plan)?;
    // Every planned dispatch's record, this run's and (on --resume) the earlier ones'.
    let records = record::dispatch_records(&out, &plan);
    let mut names: Vec<String> = records
        .iter()
        .flat_map(|r| r.env_names.iter().cloned())
        .collect();
    names.sort();
    names.dedup();
    record.env_names = names;
    let levels: Vec<String> = records.iter().filter_map(|r| r.isolation.clone()).collect();
    record.isolation = crate::sandbox::round_level(opts.sandbox, &levels);
    println!("isolation: {}", record.isolation);
    if opts.keep_checkouts {
        println!("checkouts kept under {}", temp_root.path().display());
    } else {
        let _ = temp_root.remove();
    }

    if cancel.load(Ordering::SeqCst) {
        record.status = RoundStatus::Interrupted;
        record.finished = Some(chrono::Utc::now().to_rfc3339());
        record.counts = record::count_dispatches(&out, &plan);
        record::save_round(&out, &record)?;
        eprintln!("harness: interrupted; running agents were stopped and the labelmap written to {}. Finish with: harness run … --out {} --resume", labelmap.display(), out.display());
        return Ok(Exit::Incomplete);
    }

    let finish = crate::finish::finish_round(&out, &qset, &plan, &mut record)?;
    Ok(finish)
}
