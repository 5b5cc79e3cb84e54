//! The round's on-disk record, written before the first agent starts: the plan (every
//! dispatch's label, question, arm, rep and prompt, and what a unit needs to run one), read back
//! by `unit`, `collect` and `--resume`. Also the one way files are written (temp + rename in the
//! same folder). Input: a [`Plan`] or an out-dir. Output: files under `<out>/journal/`.

pub use crate::files::{file_sha256, sha256_hex, write_atomic, PARTIAL_PREFIX};
use crate::options::{DemoMode, RunOptions};
use crate::round::record::{DispatchRecord, DispatchStatus};
use anyhow::{Context, Result};
use runners::Label;
use scorer::{Arm, Kind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The plan file's format.
pub const PLAN_FORMAT: &str = "harness-plan/1";

/// One planned dispatch: what it asks, in which arm, which rep, under which label.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Dispatch {
    /// The label of its (qid, arm); files are `<label>_r<rep>.*` (in `record::dispatch_dir`).
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

/// The base a unit rebuilds its view from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedBase {
    /// The repository's working tree (a temp folder for the demo, rebuilt from the binary).
    pub repo: PathBuf,
    /// The commit every dispatch sees.
    pub sha: String,
}

/// The seal a unit plants in ARM, checked by hash when read back.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedSeal {
    /// Where it was read (absolute; a temp file for the demo).
    pub path: PathBuf,
    /// Its planted name.
    pub name: String,
    /// sha256 of its bytes.
    pub sha256: String,
}

/// The agent a unit runs: re-parsed from the name and override, then compared with `template`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlannedAgent {
    /// `--agent` as resolved.
    pub name: String,
    /// The `harness.toml` command override, if any.
    pub override_template: Option<String>,
    /// The resolved argv template.
    pub template: Vec<String>,
    /// `--prompt-stdin`.
    pub prompt_stdin: bool,
}

/// A planned round: everything `unit N` and `collect` need, read from the out-dir alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_FORMAT`].
    pub format: String,
    /// The out-dir (absolute).
    pub out: PathBuf,
    /// What `harness run` was asked (absolute paths; the demo's mode made explicit).
    pub options: RunOptions,
    /// The demo this round runs, when it does: its inputs are rebuilt from the binary.
    pub demo: Option<DemoMode>,
    /// The base.
    pub base: PlannedBase,
    /// The seal, unless CTRL only.
    pub seal: Option<PlannedSeal>,
    /// The agent.
    pub agent: PlannedAgent,
    /// Folders and files no sandboxed agent may read (the repository, the out-dir, the inputs).
    pub forbid: Vec<PathBuf>,
    /// Every dispatch, in a fixed order; a unit is an index into it.
    pub dispatches: Vec<Dispatch>,
    /// What the answers depend on besides the inputs, hashed at plan time (the agent's program
    /// files, the files carried into its home, harness.toml's values for this round): a resume
    /// or a unit that finds another refuses, naming it.
    #[serde(default)]
    pub depends: Vec<Dependency>,
}

/// One thing a round's answers depend on, as hashed at plan time.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Dependency {
    /// `program`, `home_files` or `config`: the name `--accept-change` takes.
    pub field: String,
    /// Which one (a path, or `~/<file>`).
    pub what: String,
    /// sha256 of its bytes, or `absent`.
    pub sha256: String,
}

impl Dependency {
    /// How a change of it reads: `program /x/agent.sh: sha256 1234… → 5678…`.
    pub fn change(old: Option<&Dependency>, new: Option<&Dependency>) -> String {
        let short = |d: Option<&Dependency>| match d {
            Some(d) => d.sha256.get(..12).unwrap_or(&d.sha256).to_string(),
            None => "not there".into(),
        };
        let d = new.or(old).expect("one side");
        format!("{} {}: {} → {}", d.field, d.what, short(old), short(new))
    }
}

/// The changes between the plan's dependencies and today's, each as [`Dependency::change`]
/// with its field.
pub fn dependency_changes(planned: &[Dependency], now: &[Dependency]) -> Vec<(String, String)> {
    let key = |d: &Dependency| (d.field.clone(), d.what.clone());
    let old: BTreeMap<_, _> = planned.iter().map(|d| (key(d), d)).collect();
    let new: BTreeMap<_, _> = now.iter().map(|d| (key(d), d)).collect();
    let mut out = Vec::new();
    for (k, o) in &old {
        match new.get(k) {
            Some(n) if n.sha256 == o.sha256 => {}
            n => out.push((k.0.clone(), Dependency::change(Some(o), n.copied()))),
        }
    }
    for (k, n) in &new {
        if !old.contains_key(k) {
            out.push((k.0.clone(), Dependency::change(None, Some(n))));
        }
    }
    out
}

impl Plan {
    /// The dispatch at `index`, or an error naming the range.
    pub fn dispatch(&self, index: usize) -> Result<&Dispatch> {
        self.dispatches.get(index).ok_or_else(|| {
            crate::exit::Fail::new(
                crate::exit::Exit::Usage,
                format!(
                    "unit {index}: the plan in {} has {} dispatches (0..{})",
                    self.out.display(),
                    self.dispatches.len(),
                    self.dispatches.len()
                ),
            )
            .into()
        })
    }

    /// label → (qid, arm), one entry per (question, arm).
    pub fn labels(&self) -> BTreeMap<(String, Arm), Label> {
        self.dispatches
            .iter()
            .map(|d| ((d.qid.clone(), d.arm), d.label.clone()))
            .collect()
    }
}

/// `<out>/journal`: inside the out-dir, which the sandbox forbids to every agent.
pub fn dir(out: &Path) -> PathBuf {
    out.join("journal")
}

/// `<out>/journal/plan.json`.
pub fn plan_path(out: &Path) -> PathBuf {
    dir(out).join("plan.json")
}

/// Writes the plan atomically.
pub fn save_plan(plan: &Plan) -> Result<()> {
    let json = serde_json::to_vec_pretty(plan)?;
    write_atomic(&plan_path(&plan.out), &json)
}

/// Reads the plan of the round in `out`.
pub fn load_plan(out: &Path) -> Result<Plan> {
    let p = plan_path(out);
    let bytes = std::fs::read(&p).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{}: cannot read the round's plan ({e}); is {} a round's out-dir?",
                p.display(),
                out.display()
            ),
        )
    })?;
    let mut plan: Plan = serde_json::from_slice(&bytes).map_err(|e| {
        crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!("{}:{}: not a round plan: {e}", p.display(), e.line()),
        )
    })?;
    if plan.format != PLAN_FORMAT {
        return Err(crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{}: plan format {} is not {PLAN_FORMAT}",
                p.display(),
                plan.format
            ),
        )
        .into());
    }
    // The folder named is the round: a copied or moved round is read and written where it is
    // now, never at the path recorded when it was planned (that one is only a hint).
    let here = std::path::absolute(out)?;
    if plan.out != here {
        for f in plan.forbid.iter_mut() {
            if *f == plan.out {
                *f = here.clone();
            }
        }
        plan.out = here;
    }
    Ok(plan)
}

/// `<out>/journal/rederive.pending`: written before a command first changes what a round's
/// reports are derived from (a decision, a judge reading) or rewrites them, removed after
/// `ROUND_DONE`. Found by the next `report`, `review` or `collect`, which finish the
/// re-derivation before anything else.
pub fn rederive_marker(out: &Path) -> PathBuf {
    dir(out).join("rederive.pending")
}

/// Marks the round's reports as being re-derived (see [`rederive_marker`]), saying who does it.
pub fn mark_rederiving(out: &Path, by: &str) -> Result<()> {
    write_atomic(
        &rederive_marker(out),
        format!("{by} (pid {})\n", std::process::id()).as_bytes(),
    )
}

/// Whether a re-derivation of the round's reports began and never ended.
pub fn rederive_pending(out: &Path) -> bool {
    rederive_marker(out).is_file()
}

/// Where rounds from before the journal kept their labelmap: beside the out-dir. No round
/// writes one now (labels live in `<out>/journal/plan.json` for every executor, so a round
/// whose out-dir is a volume with a read-only parent finishes); rescore still reads old ones.
pub fn labelmap_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "round".into());
    out.with_file_name(format!("{name}.labelmap"))
}

/// The labelmap's lines: `label|qid|ARM` (the seed's format).
pub fn read_labelmap(path: &Path) -> Result<BTreeMap<(String, Arm), Label>> {
    use crate::exit::{Exit, Fail};
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

/// What the out-dir holds for one planned dispatch, judged against its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerState {
    /// No answer file (never answered, failed, or killed before the answer was written).
    Missing,
    /// The answer file is the one the dispatch record hashed: kept, never re-run.
    Kept,
    /// The answer file is not the one the harness wrote (edited, replaced, or without a record
    /// saying it was answered): why.
    Tampered(String),
}

/// Judges `<stem>.txt` against `<stem>.json`. The record is written before the answer, so a
/// whole answer always has a record naming its hash.
pub fn answer_state(out: &Path, stem: &str) -> AnswerState {
    let answer = match std::fs::read(crate::round::record::dispatch_file(out, stem, "txt")) {
        Ok(b) => b,
        Err(_) => return AnswerState::Missing,
    };
    let record: Option<DispatchRecord> =
        std::fs::read(crate::round::record::dispatch_file(out, stem, "json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
    let Some(record) = record else {
        return AnswerState::Tampered("an answer without a dispatch record".into());
    };
    if record.status != DispatchStatus::Answered {
        return AnswerState::Tampered(format!(
            "an answer, but the dispatch record says {:?}",
            record.status
        ));
    }
    let now = sha256_hex(&answer);
    match record.answer_sha256 {
        None => AnswerState::Tampered("the dispatch record holds no answer hash".into()),
        Some(h) if h == now => AnswerState::Kept,
        Some(h) => AnswerState::Tampered(format!(
            "answer sha256 {} is not the recorded {}",
            &now[..12],
            h.get(..12).unwrap_or("")
        )),
    }
}

/// Removes the leftovers of killed writes ([`PARTIAL_PREFIX`]) in the out-dir, its journal, its
/// dispatches' folder and its rescore folders. It takes the round's [`UnitsLock`] held exclusively, so no running
/// unit's in-flight answer can be among them. Returns how many.
pub fn sweep_partials(out: &Path, no_unit_runs: &UnitsLock) -> usize {
    if !no_unit_runs.exclusive {
        return 0;
    }
    let mut dirs = vec![out.to_path_buf(), dir(out)];
    let dispatches = crate::round::record::dispatch_dir(out);
    if dispatches != out {
        dirs.push(dispatches);
    }
    if let Ok(rd) = std::fs::read_dir(out) {
        dirs.extend(
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("rescore-"))
                .map(|e| e.path()),
        );
    }
    let mut removed = 0;
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            if e.file_name().to_string_lossy().starts_with(PARTIAL_PREFIX)
                && std::fs::remove_file(e.path()).is_ok()
            {
                removed += 1;
            }
        }
    }
    removed
}

/// The out-dir's exclusive lock (`flock` on `<out>/journal/lock`, which holds the holder's
/// pid): one writer at a time, for a round, a resume, a rescore or a report. Released when
/// dropped or when the process dies, however it dies. It says nothing about units of a
/// distributed round (they never take it): [`UnitsLock`] does.
#[derive(Debug)]
pub struct Lock {
    _file: std::fs::File,
}

impl Lock {
    /// Takes the lock or fails at once (exit 2) naming the pid that holds it. Removes nothing:
    /// leftovers are swept by [`sweep_partials`], under the [`UnitsLock`].
    pub fn acquire(out: &Path) -> Result<Lock> {
        use std::os::fd::AsRawFd;
        let path = dir(out).join("lock");
        std::fs::create_dir_all(dir(out))
            .with_context(|| format!("creating {}", dir(out).display()))?;
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        // SAFETY: flock takes a valid open descriptor (owned by `file`) and plain flags.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() == Some(libc::EWOULDBLOCK) {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                return Err(crate::exit::Fail::new(
                    crate::exit::Exit::Usage,
                    format!(
                        "{} is in use by another harness (pid {}): one round, rescore or report writes into an out-dir at a time; wait for it or stop it",
                        out.display(),
                        match holder.trim() {
                            "" => "unknown",
                            pid => pid,
                        }
                    ),
                )
                .into());
            }
            return Err(err).with_context(|| format!("locking {}", path.display()));
        }
        file.set_len(0)?;
        writeln!(file, "{}", std::process::id())?;
        Ok(Lock { _file: file })
    }
}

/// Opens (creating) a lock file under the journal.
fn open_lock_file(path: &Path) -> Result<std::fs::File> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

/// `flock(fd, how | LOCK_NB)`: `Ok(true)` taken, `Ok(false)` held elsewhere.
fn try_flock(file: &std::fs::File, how: libc::c_int, path: &Path) -> Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor `file` owns; no memory is passed.
    if unsafe { libc::flock(file.as_raw_fd(), how | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e).with_context(|| format!("locking {}", path.display()))
    }
}

/// The round-level lock of a distributed round (`flock` on `<out>/journal/units.lock`): every
/// running unit (`harness unit`) holds it shared for its whole run; whoever scores the round
/// or runs its units itself (`collect`, the local `run` and `run --resume`, `plan --resume`)
/// holds it exclusively. So a unit that starts while collect scores refuses instead of
/// finishing unscored beside a `complete: yes`, and collect or a resume never starts while a
/// unit runs (nor sweeps its in-flight files).
#[derive(Debug)]
pub struct UnitsLock {
    _file: std::fs::File,
    exclusive: bool,
}

/// Who holds a lock someone else wanted, as its holder wrote it (`collect (pid 123)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Holder(pub String);

impl UnitsLock {
    /// `<out>/journal/units.lock`.
    pub fn path(out: &Path) -> PathBuf {
        dir(out).join("units.lock")
    }

    /// Taken exclusively by `role` (`collect`, `run`), or `None` while any unit holds it.
    pub fn try_exclusive(out: &Path, role: &str) -> Result<Option<UnitsLock>> {
        let path = UnitsLock::path(out);
        let mut file = open_lock_file(&path)?;
        if !try_flock(&file, libc::LOCK_EX, &path)? {
            return Ok(None);
        }
        file.set_len(0)?;
        writeln!(file, "{role} (pid {})", std::process::id())?;
        Ok(Some(UnitsLock {
            _file: file,
            exclusive: true,
        }))
    }

    /// Taken shared by a unit, or the [`Holder`] that holds it exclusively.
    pub fn try_shared(out: &Path) -> Result<std::result::Result<UnitsLock, Holder>> {
        let path = UnitsLock::path(out);
        let file = open_lock_file(&path)?;
        if try_flock(&file, libc::LOCK_SH, &path)? {
            return Ok(Ok(UnitsLock {
                _file: file,
                exclusive: false,
            }));
        }
        let who = std::fs::read_to_string(&path).unwrap_or_default();
        Ok(Err(Holder(match who.trim() {
            "" => "another harness".into(),
            w => crate::text::clean_line(w, 80),
        })))
    }
}

/// An exclusive `flock` on `journal/units/<index>.lock`: held while a unit runs, so a second
/// process for the same index (a retry racing a slow first attempt) does nothing, and
/// `collect` or a resume can name a running unit. Released when the process ends, however it
/// ends.
#[derive(Debug)]
pub struct UnitLock {
    _file: std::fs::File,
}

impl UnitLock {
    /// Taken, or `None` while another process runs unit `index`.
    pub fn try_take(out: &Path, index: usize) -> Result<Option<UnitLock>> {
        let path = dir(out).join("units").join(format!("{index}.lock"));
        let file = open_lock_file(&path)?;
        Ok(try_flock(&file, libc::LOCK_EX, &path)?.then_some(UnitLock { _file: file }))
    }
}

/// The units whose lock (`journal/units/<index>.lock`) another process holds now: the units
/// running, by index.
pub fn running_units(out: &Path) -> Result<Vec<usize>> {
    let mut running = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir(out).join("units")) else {
        return Ok(running);
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(i) = name.strip_suffix(".lock").and_then(|i| i.parse().ok()) else {
            continue;
        };
        if UnitLock::try_take(out, i)?.is_none() {
            running.push(i);
        }
    }
    running.sort();
    Ok(running)
}

/// Takes the round-level [`UnitsLock`] exclusively for `role`, or refuses (exit 2) naming the
/// units that run now (by their unit locks: `unit 3`), so nothing is scored, resumed or swept
/// under a running unit. Also refuses when a unit holds the round lock but has not yet taken
/// its own (the instant after it started).
pub fn no_unit_runs(out: &Path, role: &str) -> Result<UnitsLock> {
    let held = UnitsLock::try_exclusive(out, role)?;
    // Checked after the round lock is held too: a unit of an older harness (no round lock)
    // still shows by its own.
    let running = running_units(out)?;
    match held {
        Some(lock) if running.is_empty() => Ok(lock),
        _ => Err(crate::exit::Fail::new(
            crate::exit::Exit::Usage,
            format!(
                "{role} refused: {} still running in {} (harness unit holds {}); {role} once every unit has ended",
                if running.is_empty() {
                    "a unit is".to_string()
                } else {
                    running
                        .iter()
                        .map(|i| format!("unit {i}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                        + if running.len() == 1 { " is" } else { " are" }
                },
                out.display(),
                if running.is_empty() {
                    UnitsLock::path(out).display().to_string()
                } else {
                    format!("{}/units/<index>.lock", dir(out).display())
                }
            ),
        )
        .into()),
    }
}

/// [`no_unit_runs`] after an executor said every unit ended: a unit its scheduler reported
/// ended (`CANCELLED` after Ctrl-C) may still be releasing its lock as it exits, so the check
/// is retried for up to `grace` before it refuses.
pub fn no_unit_runs_after(out: &Path, role: &str, grace: std::time::Duration) -> Result<UnitsLock> {
    let until = std::time::Instant::now() + grace;
    loop {
        match no_unit_runs(out, role) {
            Ok(lock) => return Ok(lock),
            Err(e) if std::time::Instant::now() >= until => return Err(e),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(200)),
        }
    }
}

/// The environment variable naming a point where the harness kills itself (SIGKILL), for the
/// fault-injection suites (`harness/tests/faults.rs`, `harness/tests/review_guarantees.rs`): a
/// crash exactly there, not a simulation. Test-only and harmless: unset, nothing happens; set,
/// the process dies as `kill -9` would kill it, which every write path must survive anyway.
/// Points: `planned`, `dispatched`, `review:recorded`, `rederive:marked`,
/// `rederive:unmarked-done`, `rederive:round.json`, `report:<file>`, `rederive:ROUND_DONE`,
/// `rejudge:reading` (after each kept reading), `rejudge:read`, `rejudge:stored`.
pub const FAULT_VAR: &str = "HARNESS_FAULT_KILL_AT";

/// Dies by SIGKILL if [`FAULT_VAR`] names `point`; otherwise does nothing.
pub fn fault_point(point: &str) {
    if std::env::var(FAULT_VAR).is_ok_and(|v| v == point) {
        // SAFETY: kill with our own pid and a signal number touches no memory.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}
