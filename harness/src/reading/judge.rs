//! The second reader (DESIGN §5.1): an LLM asked, with the scorer's versioned rubric, what one
//! answer does. Three transports: a preset (`claude`, `codex`, `gemini`, run with its tools off
//! in an empty temp folder with a fresh home, never a checkout), `command:TEMPLATE` (the same
//! template forms as `--agent`: `{prompt}`, `{prompt_file}`, `{model}`; the program prints the
//! JSON object on stdout) and `openai:URL` (an OpenAI-compatible chat-completions endpoint over
//! plain HTTP, e.g. a llama.cpp, Ollama or vLLM server on loopback; `--judge-model`).
//!
//! A call that fails to start, times out, exits non-zero or answers anything but the rubric's
//! strict JSON is **no reading**: never a class. It is retried (`--judge-retries`) like a
//! dispatch. The judge is shown the question, the values and the answer, never the arm.
//!
//! A preset or `command:` judge runs through the same sandbox wrapper as the round's agents
//! (`harness __sandbox`, `--judge-sandbox`, by default `auto` whatever the round's `--sandbox`),
//! with the empty folder as its checkout, and the agents' allowlisted environment: it cannot
//! read the user's home, the repository, the out-dir or any round's state. Its folder (prompt,
//! fresh home) is the user's alone (0700, the prompt 0600) and carries an owner marker, so
//! `harness clean` and the next run sweep it when the harness that made it is gone. An `openai:` judge is an HTTP call from the harness itself;
//! no process of the judge's runs here, so there is nothing to sandbox.

use anyhow::{anyhow, bail, Result};
use runners::{AgentKind, AgentSpec, SandboxMode};
use scorer::rubric::{self, Item, Judgement};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a judge is reached.
#[derive(Debug, Clone)]
enum Transport {
    /// A preset CLI or a `command:` template, run as a child process, with what its preset
    /// adds to every run (variables, a settings file; empty for a template).
    Process(Box<(AgentSpec, runners::PresetSetup)>),
    /// An OpenAI-compatible chat-completions endpoint.
    OpenAi {
        /// `http://host:port/path` as given (the base; `/chat/completions` is appended).
        base: String,
    },
}

/// A judge chosen by `--judge`, with its model, time limit and retries.
#[derive(Debug, Clone)]
pub struct Judge {
    /// The `--judge` value as given (recorded in rounds and manifests).
    pub spec: String,
    transport: Transport,
    /// `--judge-model`.
    pub model: Option<String>,
    /// Per call.
    pub timeout: Duration,
    /// Extra attempts after a call that gave no reading.
    pub retries: u32,
    /// `--judge-sandbox`; `None` until a command chooses (`auto` unless the user names
    /// another, whatever the round's `--sandbox`: see [`Judge::for_round`]).
    pub sandbox: Option<SandboxMode>,
    /// Folders no read rule of the judge's sandbox may cover (the round's repository, out-dir
    /// and inputs), as for the round's agents.
    forbid: Vec<PathBuf>,
}

/// How manifests, designs and judge records name a judge: the `--judge` spec, and the model
/// when `--judge-model` was given.
pub fn recorded_name(spec: &str, model: Option<&str>) -> String {
    match model {
        Some(m) => format!("{spec} (model {m})"),
        None => spec.to_string(),
    }
}

/// What one judged answer came to: a reading, or why there is none, with what it cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeCall {
    /// The validated reading; `None` is no reading (never a class).
    pub reading: Option<Judgement>,
    /// Why the last attempt gave no reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Attempts made (1 + retries used).
    pub attempts: u32,
    /// Input tokens over all attempts, when the transport reported them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens over all attempts, when reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Cost in USD over all attempts, when the transport computed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Wall time over all attempts, milliseconds.
    pub duration_ms: u64,
    /// The isolation the sandbox wrapper reported for the last attempt's process (`None` for
    /// an `openai:` call, which runs no process).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isolation: Option<String>,
}

/// What one attempt reported beside its reply.
#[derive(Default)]
struct Spent {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    cost_usd: Option<f64>,
}

fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(0) + y.unwrap_or(0)),
    }
}

/// What a preset adds to every run of it as a judge (the same as for a round's agent: its
/// endpoint and key variables, Gemini's settings file), its flags inserted. A command that
/// chooses Codex's own sandbox keeps it, as `--agent` does: the judge's `--sandbox read-only`
/// (from [`tools_off`]) is such a choice, so Codex's bypass flag is never added.
fn preset_setup(agent: &mut AgentSpec) -> Result<runners::PresetSetup> {
    let AgentKind::Preset(p) = agent.kind else {
        return Ok(runners::PresetSetup::default());
    };
    let env = |k: &str| std::env::var(k).ok();
    let mut setup = p.setup(&runners::agent::SetupInput {
        sandboxed: true,
        deliver: false,
        env: &env,
    });
    if agent
        .template
        .iter()
        .any(|a| a == "-s" || a.starts_with("--sandbox"))
    {
        setup
            .args
            .retain(|a| a != "--dangerously-bypass-approvals-and-sandbox");
    }
    *agent = agent
        .clone()
        .with_config(&setup.args, &[])
        .map_err(|e| anyhow!("--judge {}: {e}", agent.name))?;
    Ok(setup)
}

/// The flags that turn a preset's tools off (inserted right after its subcommand), so a judge
/// reads only its prompt. Claude: an empty tool list; Codex: a read-only sandbox (in an empty
/// folder there is nothing to read); Gemini: the default approval mode, in which a headless
/// run refuses every tool that needs approval.
fn tools_off(spec: &mut AgentSpec) {
    let (at, args): (usize, &[&str]) = match spec.kind {
        AgentKind::Preset(runners::Preset::Claude) => (2, &["--tools", ""]),
        AgentKind::Preset(runners::Preset::Codex) => (2, &["--sandbox", "read-only"]),
        AgentKind::Preset(runners::Preset::Gemini) => (1, &["--approval-mode", "default"]),
        _ => return,
    };
    let at = at.min(spec.template.len());
    for (i, a) in args.iter().enumerate() {
        spec.template.insert(at + i, a.to_string());
    }
}

impl Judge {
    /// Parses `--judge`: `claude`, `codex`, `gemini`, `command:TEMPLATE` or `openai:URL`
    /// (`openai:` needs `--judge-model`). A baseline agent is refused: it cannot read meaning.
    pub fn parse(
        spec: &str,
        model: Option<String>,
        timeout: Duration,
        retries: u32,
    ) -> Result<Judge> {
        let transport = if let Some(url) = spec.strip_prefix("openai:") {
            if !url.starts_with("http://") {
                bail!("--judge openai:URL takes a plain http:// URL (e.g. openai:http://127.0.0.1:8080/v1); https is not supported");
            }
            if model.as_deref().is_none_or(str::is_empty) {
                bail!(
                    "--judge openai:URL needs --judge-model (the model name the endpoint serves)"
                );
            }
            Transport::OpenAi {
                base: url.trim_end_matches('/').to_string(),
            }
        } else {
            let mut agent = AgentSpec::parse(spec, None)
                .map_err(|e| anyhow!("--judge {}: {e}", crate::text::clean_line(spec, 80)))?;
            if matches!(agent.kind, AgentKind::Baseline(_)) {
                bail!("--judge: a baseline agent cannot read an answer's meaning; use claude, codex, gemini, command:… or openai:URL");
            }
            // A judge runs in an empty temp folder: a relative program path (`./judge.sh`) is
            // the one the user meant, from where they ran the harness.
            if let Some(program) = agent.template.first_mut() {
                let p = std::path::Path::new(program.as_str());
                if program.contains('/') && p.is_relative() {
                    *program = std::env::current_dir()?.join(p).display().to_string();
                }
            }
            tools_off(&mut agent);
            let setup = preset_setup(&mut agent)?;
            Transport::Process(Box::new((agent, setup)))
        };
        Ok(Judge {
            spec: spec.to_string(),
            transport,
            model,
            timeout,
            retries,
            sandbox: None,
            forbid: Vec::new(),
        })
    }

    /// Refuses (exit 8, a refused start) a preset or `command:` judge whose program cannot be
    /// found here, naming the program and how to check, so no command writes anything or
    /// makes a call that could only give no reading. An `openai:` judge runs no program.
    pub fn require_program(&self) -> std::result::Result<(), crate::exit::Fail> {
        let Transport::Process(p) = &self.transport else {
            return Ok(());
        };
        let agent = &p.0;
        let Some(why) = program_missing(agent) else {
            return Ok(());
        };
        let fix = match agent.kind {
            AgentKind::Preset(preset) => format!(
                "Install it ({}), or choose another judge (command:'<program> {{prompt_file}}' or openai:URL)",
                preset.install_hint()
            ),
            _ => "Give the program's full path in --judge command:'…'".to_string(),
        };
        Err(crate::exit::Fail::new(
            crate::exit::Exit::GateRefused,
            format!(
                "--judge {}: {why}; nothing was read and nothing was written. {fix}. `harness doctor` shows which agent programs are found here.",
                crate::text::clean_line(&self.spec, 80)
            ),
        ))
    }

    /// Runs the judge's process under `mode` with `forbid` and every round's state and out-dir
    /// ([`crate::outdir::protected`]) kept out of every read rule. `full` on a kernel missing a
    /// layer is refused here, before any call.
    pub fn sandboxed(mut self, mode: SandboxMode, mut forbid: Vec<PathBuf>) -> Result<Judge> {
        self.require_program()?;
        if matches!(self.transport, Transport::Process(..)) {
            runners::sandbox::preflight(mode, &runners::sandbox_probe())
                .map_err(|e| anyhow!("--judge-sandbox {}: {e}", mode.name()))?;
        }
        for p in crate::outdir::protected() {
            if !forbid.contains(&p) {
                forbid.push(p);
            }
        }
        self.sandbox = Some(mode);
        self.forbid = forbid;
        Ok(self)
    }

    /// The judge of a finished round: `--judge-sandbox` when given, else `auto` — never the
    /// round's `--sandbox`: a round run under `none` still has a sandboxed judge, which reads
    /// neither its plan nor its answers nor its seal. The round's repository, out-dir and
    /// inputs are forbidden as they were to its agents.
    pub fn for_round(
        self,
        record: Option<&crate::round::record::RoundRecord>,
        out: &Path,
    ) -> Result<Judge> {
        let mode = self.sandbox.unwrap_or(SandboxMode::Auto);
        let mut forbid = vec![out.to_path_buf()];
        if let Some(r) = record {
            if !r.base.repo.is_empty() {
                forbid.push(PathBuf::from(&r.base.repo));
            }
            forbid.extend(
                r.inputs
                    .iter()
                    .filter(|i| !i.path.is_empty())
                    .filter_map(|i| std::path::absolute(&i.path).ok()),
            );
        }
        self.sandboxed(mode, forbid)
    }

    /// The sandbox mode as records name it: the mode, or that an endpoint runs no process.
    pub fn sandbox_name(&self) -> String {
        match self.transport {
            Transport::OpenAi { .. } => {
                "not applicable (HTTP endpoint: no judge process runs here)".into()
            }
            Transport::Process(..) => self.mode().name().into(),
        }
    }

    fn mode(&self) -> SandboxMode {
        self.sandbox.unwrap_or(SandboxMode::Auto)
    }

    /// The record of a pass of this judge over a round's answers: who, how, when, and the
    /// totals of `calls` (made `jobs` at once, taking `wall` in all).
    pub fn info(
        &self,
        calls: &[JudgeCall],
        jobs: usize,
        wall: Duration,
    ) -> reports::judge::JudgeInfo {
        let mut t = reports::judge::JudgeTotals {
            calls: calls.len() as u64,
            wall_ms: wall.as_millis() as u64,
            ..Default::default()
        };
        let mut levels = Vec::new();
        for c in calls {
            t.attempts += u64::from(c.attempts);
            if c.reading.is_some() {
                t.read += 1;
            } else {
                t.no_reading += 1;
            }
            if c.input_tokens.is_some() || c.output_tokens.is_some() {
                t.tokens_reported += 1;
            }
            t.input_tokens = add(t.input_tokens, c.input_tokens);
            t.output_tokens = add(t.output_tokens, c.output_tokens);
            if let Some(cost) = c.cost_usd {
                t.cost_usd = Some(t.cost_usd.unwrap_or(0.0) + cost);
                t.cost_reported += 1;
            }
            if let Some(l) = &c.isolation {
                levels.push(l.clone());
            }
        }
        let isolation = if levels.is_empty() {
            String::new()
        } else {
            crate::agents::sandbox::round_level(self.mode(), &levels)
        };
        reports::judge::JudgeInfo {
            spec: self.spec.clone(),
            model: self.model.clone(),
            rubric_version: rubric::RUBRIC_VERSION.to_string(),
            rubric_sha256: rubric::sha256(),
            timeout_secs: self.timeout.as_secs(),
            retries: self.retries,
            jobs: jobs as u32,
            sandbox: self.sandbox_name(),
            isolation,
            last_read: chrono::Utc::now().to_rfc3339(),
            totals: t,
            calibration: crate::reading::calibration::last(&self.describe()),
        }
    }

    /// What records name this judge by: its spec, and its model when one was given.
    pub fn describe(&self) -> String {
        recorded_name(&self.spec, self.model.as_deref())
    }

    /// Reads one answer. An empty answer is never sent (it is `VOID`, the lexicon's). Every
    /// failure is retried up to `retries` times; the last failure is kept when none read.
    pub fn read(&self, item: &Item<'_>, answer: &str) -> JudgeCall {
        let prompt = rubric::prompt(item, answer);
        let mut call = JudgeCall::default();
        let started = Instant::now();
        for _ in 0..=self.retries {
            call.attempts += 1;
            let mut spent = Spent::default();
            let reply = match &self.transport {
                Transport::Process(p) => {
                    self.run_process(&p.0, &p.1, &prompt, &mut spent, &mut call.isolation)
                }
                Transport::OpenAi { base } => self.post_openai(base, &prompt, &mut spent),
            };
            call.input_tokens = add(call.input_tokens, spent.input_tokens);
            call.output_tokens = add(call.output_tokens, spent.output_tokens);
            call.cost_usd = match (call.cost_usd, spent.cost_usd) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
            };
            match reply.and_then(|text| {
                rubric::parse_judgement(&text, item.kind, item.general.is_some())
                    .map_err(anyhow::Error::from)
            }) {
                Ok(j) => {
                    call.reading = Some(j);
                    call.failure = None;
                    break;
                }
                Err(e) => call.failure = Some(crate::text::clean_line(&format!("{e:#}"), 300)),
            }
        }
        call.duration_ms = started.elapsed().as_millis() as u64;
        call
    }

    /// Reads every answer, `jobs` calls at once, results in input order.
    pub fn read_all(&self, items: &[(Item<'_>, String)], jobs: usize) -> Vec<JudgeCall> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Mutex;
        let next = AtomicUsize::new(0);
        let out: Mutex<Vec<JudgeCall>> = Mutex::new(vec![JudgeCall::default(); items.len()]);
        std::thread::scope(|s| {
            for _ in 0..jobs.max(1).min(items.len().max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((item, answer)) = items.get(i) else {
                        break;
                    };
                    let call = self.read(item, answer);
                    out.lock().expect("judge results")[i] = call;
                });
            }
        });
        out.into_inner().expect("judge results")
    }

    fn run_process(
        &self,
        agent: &AgentSpec,
        setup: &runners::PresetSetup,
        prompt: &str,
        spent: &mut Spent,
        isolation: &mut Option<String>,
    ) -> Result<String> {
        // An empty folder to run in and a fresh home: the judge sees no checkout, no memory.
        // Made like a round's temp root (0700, owner marker): another user cannot read the
        // prompt (it holds the token and the answer), and a harness killed mid-call leaves a
        // folder `harness clean` and the next run sweep.
        let root = JudgeDir(Some(runners::TempRoot::create(&[])?));
        let root = root.0.as_ref().expect("just made");
        let work = root.path().join("work");
        std::fs::create_dir(&work)?;
        let home = runners::process::DispatchHome::create(&root.path().join("d"))?;
        if let Some(user_home) = std::env::var_os("HOME").map(PathBuf::from) {
            runners::agent::install_credentials(agent, &user_home, &home.home)?;
        }
        if let Some((rel, value)) = &setup.settings {
            runners::agent::merge_settings(&home.home.join(rel), value)?;
        }
        let prompt_file = home.write_prompt_file(prompt)?;
        // A program that is not there is said to be missing, not blamed on the sandbox.
        if let Some(why) = program_missing(agent) {
            bail!("{why}");
        }
        let exe = std::env::current_exe()?;
        let argv = agent.argv(&runners::agent::Invocation {
            prompt,
            prompt_file: &prompt_file,
            model: self.model.as_deref(),
            workdir: &work,
            harness_exe: &exe,
        })?;
        // The round's agents' wrapper, with the empty folder as the checkout: no read rule
        // reaches the user's home, the repository or the out-dir.
        let report = root.path().join("sandbox.json");
        let plan = crate::agents::sandbox::SandboxPlan {
            mode: self.mode(),
            forbid: self.forbid.clone(),
            overlay: false,
        };
        let argv = plan.wrap(&exe, &work, &home, &report, None, argv);
        let mut run = runners::process::RunSpec::new(argv, work.clone(), home, self.timeout);
        run.pass_env = agent.credential_env.clone();
        run.set_env = setup.env.clone();
        if agent.prompt_stdin {
            run.stdin = Some(prompt.as_bytes().to_vec());
        }
        let groups = runners::process::ProcessGroups::new();
        let out = runners::process::run(&run, &groups)?;
        *isolation = Some(plan.level_of(&report));
        if let Some(why) = plan.failure(&report, out.exit_code) {
            bail!("the judge's sandbox: {why}");
        }
        let activity = runners::read_activity(agent, &out.stdout, &out.stderr);
        spent.input_tokens = activity.input_tokens;
        spent.output_tokens = activity.output_tokens;
        spent.cost_usd = activity.cost_usd;
        if out.timed_out {
            bail!("the judge timed out after {}s", self.timeout.as_secs());
        }
        if let Some(reason) = out.failure_reason() {
            bail!("the judge failed: {reason}");
        }
        let answer = runners::agent::extract_answer(agent, &out.stdout)?;
        String::from_utf8(answer).map_err(|_| anyhow!("the judge's stdout is not UTF-8"))
    }

    fn post_openai(&self, base: &str, prompt: &str, spent: &mut Spent) -> Result<String> {
        let url = format!("{base}/chat/completions");
        let body = serde_json::json!({
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "user", "content": prompt}],
        })
        .to_string();
        let reply = http_post_json(&url, &body, self.timeout)?;
        let v: serde_json::Value = serde_json::from_str(&reply)
            .map_err(|e| anyhow!("the endpoint's reply is not JSON: {e}"))?;
        if let Some(u) = v.get("usage") {
            spent.input_tokens = u.get("prompt_tokens").and_then(|x| x.as_u64());
            spent.output_tokens = u.get("completion_tokens").and_then(|x| x.as_u64());
        }
        v.pointer("/choices/0/message/content")
            .and_then(|c| c.as_str())
            .map(str::to_string)
            .ok_or_else(|| anyhow!("the endpoint's reply has no choices[0].message.content"))
    }
}

/// Why `agent`'s program cannot be run here (`None` when it is found): not on `PATH`, or a
/// path to no executable file.
fn program_missing(agent: &AgentSpec) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let program = agent.template.first().map(String::as_str).unwrap_or("");
    let shown = crate::text::clean_line(program, 200);
    if program.contains('/') {
        return match std::fs::metadata(program) {
            Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => None,
            Ok(_) => Some(format!(
                "the judge's program `{shown}` is not an executable file"
            )),
            Err(_) => Some(format!("the judge's program `{shown}` does not exist")),
        };
    }
    let path = std::env::var_os("PATH");
    match runners::resolve_program(program.as_ref(), path.as_deref()) {
        Some(_) => None,
        None => Some(format!(
            "the judge's program `{shown}` is not installed here (not found on PATH)"
        )),
    }
}

/// A judge call's folder, removed however the call ends.
struct JudgeDir(Option<runners::TempRoot>);

impl Drop for JudgeDir {
    fn drop(&mut self) {
        if let Some(root) = self.0.take() {
            let _ = root.remove();
        }
    }
}

/// One HTTP/1.1 POST over plain TCP with `Connection: close`, the whole exchange bounded by
/// `timeout`. Returns the body of a 200 reply; any other status is an error naming it.
fn http_post_json(url: &str, body: &str, timeout: Duration) -> Result<String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow!("not an http:// URL"))?;
    let (hostport, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let addr = if hostport.contains(':') {
        hostport.to_string()
    } else {
        format!("{hostport}:80")
    };
    let deadline = Instant::now() + timeout;
    let sock = addr
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| anyhow!("{hostport}: no address"))?;
    let mut stream = TcpStream::connect_timeout(&sock, timeout)
        .map_err(|e| anyhow!("connecting to {hostport}: {e}"))?;
    let left = |d: Instant| {
        d.checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| anyhow!("the endpoint timed out after {}s", timeout.as_secs()))
    };
    stream.set_write_timeout(Some(left(deadline)?))?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()?;
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        stream.set_read_timeout(Some(left(deadline)?))?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                bail!("the endpoint timed out after {}s", timeout.as_secs())
            }
            Err(e) => return Err(e.into()),
        }
        if raw.len() > 16 << 20 {
            bail!("the endpoint's reply is larger than 16 MiB");
        }
    }
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| anyhow!("the endpoint's reply is not HTTP"))?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let status_line = head.lines().next().unwrap_or("");
    let status = status_line.split_whitespace().nth(1).unwrap_or("");
    let mut payload = raw[split + 4..].to_vec();
    if head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:") && l.contains("chunked"))
    {
        payload = dechunk(&payload)?;
    }
    if status != "200" {
        bail!(
            "the endpoint answered {}",
            crate::text::clean_line(status_line, 80)
        );
    }
    String::from_utf8(payload).map_err(|_| anyhow!("the endpoint's reply is not UTF-8"))
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or_else(|| anyhow!("bad chunked reply"))?;
        let size_text = String::from_utf8_lossy(&data[..eol]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| anyhow!("bad chunk size"))?;
        data = &data[eol + 2..];
        if size == 0 {
            return Ok(out);
        }
        if data.len() < size {
            bail!("truncated chunked reply");
        }
        out.extend_from_slice(&data[..size]);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
}

/// The judge readings of a round, beside its answers (`harness rejudge`, `run --judge`).
pub const FILE: &str = "judge.jsonl";

/// One judge call on one answer of a round: which row, the bytes it read (sha256), the rubric
/// it read them with, the judge, and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeRecord {
    /// The dispatch label.
    pub label: String,
    /// The rep.
    pub rep: u32,
    /// sha256 hex of the answer bytes the judge read.
    pub answer_sha256: String,
    /// sha256 of the rubric the prompt was built from.
    pub rubric_sha256: String,
    /// The judge as [`Judge::describe`] names it.
    pub judge: String,
    /// The reading, or why there is none, and what it cost.
    pub call: JudgeCall,
}

/// Every judge record of the out-dir (none when the file is absent); a bad line is an error
/// naming file and line.
pub fn load(out: &std::path::Path) -> Result<Vec<JudgeRecord>> {
    let path = out.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => bail!("{}: {e}", path.display()),
    };
    let mut all = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // Derived readers refuse a key given twice (`"class"` twice is no reading) and, with
        // `deny_unknown_fields`, any key a judge record does not have.
        let r: JudgeRecord = serde_json::from_str(line).map_err(|e| {
            crate::exit::Fail::new(
                crate::exit::Exit::Usage,
                format!("{}:{}: not a judge record: {e}", path.display(), i + 1),
            )
        })?;
        all.push(r);
    }
    Ok(all)
}

/// Replaces the out-dir's judge records with `records` (the whole file written to a temp name
/// and renamed: a crash leaves the old file or the new one).
pub fn store(out: &std::path::Path, records: &[JudgeRecord]) -> Result<()> {
    let mut text = String::new();
    for r in records {
        text.push_str(&serde_json::to_string(r)?);
        text.push('\n');
    }
    crate::files::write_atomic(&out.join(FILE), text.as_bytes())
}

/// The judge's class for this row: the last record for (label, rep) made on these answer bytes
/// with this build's rubric, when it gave a reading. A record on other bytes or another rubric
/// is not a reading of this answer (`None`, as with no judge). A stored reading is validated
/// as a reply is (its class allowed for the question's `kind`, `refuses` consistent with it,
/// a one-line reason): one that fails was not written by a judge through this harness, and is
/// refused (exit 2), naming the row.
pub fn class_for(
    records: &[JudgeRecord],
    label: &str,
    rep: u32,
    answer: &[u8],
    kind: scorer::Kind,
    has_general: bool,
) -> Result<Option<scorer::Class>> {
    let Some(r) = records
        .iter()
        .rev()
        .find(|r| r.label == label && r.rep == rep)
    else {
        return Ok(None);
    };
    if r.answer_sha256 != crate::reading::review::sha256_hex(answer)
        || r.rubric_sha256 != rubric::sha256()
    {
        return Ok(None);
    }
    let Some(j) = &r.call.reading else {
        return Ok(None);
    };
    let j = rubric::validate(j, kind, has_general).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{FILE}: the reading of {}_r{rep} is not one a judge may give: {}; refused (run `harness rejudge` again)",
                crate::text::clean_line(label, 40),
                crate::text::clean_line(&e.to_string(), 200)
            ),
        )
    })?;
    Ok(Some(j.class))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=1\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"9\r\nabc").is_err());
    }

    #[test]
    fn specs_parse_and_refuse() {
        let t = Duration::from_secs(5);
        assert!(Judge::parse("openai:http://127.0.0.1:1/v1", None, t, 0).is_err());
        assert!(Judge::parse("openai:https://x/v1", Some("m".into()), t, 0).is_err());
        assert!(Judge::parse("baseline-grep", None, t, 0).is_err());
        let j = Judge::parse("claude", None, t, 0).unwrap();
        let Transport::Process(p) = &j.transport else {
            panic!()
        };
        let a = &p.0;
        assert_eq!(&a.template[..4], ["claude", "-p", "--tools", ""]);
        assert!(Judge::parse("command:echo {prompt}", None, t, 0).is_ok());
    }

    #[test]
    fn a_call_of_a_program_that_does_not_exist_says_so() {
        let t = Duration::from_secs(5);
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("no-such-judge");
        let j = Judge::parse(
            &format!("command:{} {{prompt}}", gone.display()),
            None,
            t,
            1,
        )
        .unwrap();
        let refusal = j.require_program().unwrap_err();
        assert_eq!(refusal.exit, crate::exit::Exit::GateRefused);
        assert!(
            refusal.message.contains("does not exist")
                && refusal.message.contains("harness doctor"),
            "{refusal}"
        );
        let item = Item {
            kind: scorer::Kind::Negative,
            question: "Which region?",
            token: "eu-west-9",
            general: None,
        };
        let call = j.read(&item, "I could not find it.");
        let failure = call.failure.unwrap_or_default();
        assert!(call.reading.is_none());
        assert!(failure.contains("does not exist"), "{failure}");
        assert!(!failure.contains("sandbox"), "{failure}");
        assert_eq!(call.attempts, 2);
    }
}
