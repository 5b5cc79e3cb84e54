//! Runs one agent invocation as a child process: allowlisted environment, fresh home,
//! its own session and process group (no controlling terminal; stdin a pipe or
//! `/dev/null`), a timeout and a cancel flag that kill the whole group, and stdout/stderr
//! drained on threads so a chatty agent cannot deadlock the harness (DESIGN §4).

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::reap;

/// Default pause between SIGTERM and SIGKILL of a dispatch's process group.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(3);

/// Default cap on kept stdout/stderr bytes per stream; output beyond it is drained and
/// dropped (and the truncation recorded), so a runaway agent cannot exhaust memory.
pub const DEFAULT_MAX_OUTPUT: usize = 64 * 1024 * 1024;

/// How long the output pipes may stay open after the agent ended when no process holding
/// them can be found (one this user cannot see): then the output is recorded incomplete.
/// A process that can be found is ended at once instead (see [`RunOutcome::stray_processes`]).
pub const DRAIN_CAP: Duration = Duration::from_secs(30);

/// After the agent ended, how long the readers may take to reach end of file before the
/// runner looks in `/proc` for who holds the pipes. Only a liveness knob: when nobody
/// holds them, end of file is certain and the runner keeps waiting.
const HOLDER_SCAN_EVERY: Duration = Duration::from_millis(250);

/// Variables passed from the harness's environment to every agent when set.
pub const BASE_ENV: [&str; 4] = ["PATH", "LANG", "TERM", "TZ"];

/// Variables the runner sets itself; passing them from the parent would undo the fresh
/// home, so they are refused as `--pass-env` names.
pub const RUNNER_SET_ENV: [&str; 8] = [
    "HOME",
    "TMPDIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
];

/// The per-dispatch fresh home and private temp folder. Agent CLIs read global memory
/// and instructions from the home; a fresh one per dispatch keeps CTRL from learning
/// what only ARM should know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchHome {
    /// The agent's `HOME`.
    pub home: PathBuf,
    /// The agent's `TMPDIR`.
    pub tmp: PathBuf,
}

impl DispatchHome {
    /// Creates `<root>/home` (with the config folders the agent CLIs expect to exist,
    /// e.g. `CODEX_HOME` must exist beforehand) and `<root>/tmp`.
    pub fn create(root: &Path) -> Result<Self> {
        let home = root.join("home");
        let tmp = root.join("tmp");
        for dir in [
            home.clone(),
            home.join(".claude"),
            home.join(".codex"),
            home.join(".config"),
            home.join(".cache"),
            home.join(".local/share"),
            home.join(".local/state"),
            tmp.clone(),
        ] {
            fs::create_dir_all(&dir).map_err(|e| Error::io_at(&dir, e))?;
        }
        Ok(DispatchHome { home, tmp })
    }

    /// Writes the prompt where `{prompt_file}` points: inside the private tmp, which the
    /// sandbox lets the agent read (the out-dir copy is out of its reach). The file is the
    /// user's alone (0600): a prompt can hold a token (a judge's holds the answer).
    pub fn write_prompt_file(&self, prompt: &str) -> Result<PathBuf> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = self.tmp.join("prompt.txt");
        fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&path)
            .and_then(|mut f| f.write_all(prompt.as_bytes()))
            .map_err(|e| Error::io_at(&path, e))?;
        Ok(path)
    }
}

/// Checks `--pass-env` names: well-formed, not `HARNESS_*`, not one the runner sets.
pub fn check_pass_env(names: &[String]) -> Result<()> {
    for name in names {
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            return Err(Error::InvalidEnvName { name: name.clone() });
        }
        if name.to_ascii_uppercase().starts_with("HARNESS_") {
            return Err(Error::ForbiddenEnv {
                name: name.clone(),
                reason: "HARNESS_* variables are the harness's own and never reach an agent",
            });
        }
        if RUNNER_SET_ENV.contains(&name.as_str()) {
            return Err(Error::ForbiddenEnv {
                name: name.clone(),
                reason: "the runner sets it per dispatch (fresh home, private tmp)",
            });
        }
    }
    Ok(())
}

/// Builds an agent's environment from scratch: `PATH`, `LANG`, `LC_*`, `TERM`, `TZ` and
/// the `pass` names (preset credentials plus `--pass-env`) when set in `parent`, then
/// `HOME`, the XDG folders, `CLAUDE_CONFIG_DIR`, `CODEX_HOME` and `TMPDIR` pointing into
/// the dispatch's own folders. Never a `HARNESS_*` variable.
pub fn allowlisted_env<I>(
    parent: I,
    pass: &[String],
    home: &DispatchHome,
) -> Result<Vec<(OsString, OsString)>>
where
    I: IntoIterator<Item = (OsString, OsString)>,
{
    check_pass_env(pass)?;
    let mut out: Vec<(OsString, OsString)> = Vec::new();
    for (k, v) in parent {
        let Some(name) = k.to_str() else { continue };
        if name.to_ascii_uppercase().starts_with("HARNESS_") {
            continue;
        }
        let allowed =
            BASE_ENV.contains(&name) || name.starts_with("LC_") || pass.iter().any(|p| p == name);
        if allowed {
            out.push((k, v));
        }
    }
    let h = &home.home;
    let set: [(&str, PathBuf); 8] = [
        ("HOME", h.clone()),
        ("XDG_CONFIG_HOME", h.join(".config")),
        ("XDG_DATA_HOME", h.join(".local/share")),
        ("XDG_CACHE_HOME", h.join(".cache")),
        ("XDG_STATE_HOME", h.join(".local/state")),
        ("CLAUDE_CONFIG_DIR", h.join(".claude")),
        ("CODEX_HOME", h.join(".codex")),
        ("TMPDIR", home.tmp.clone()),
    ];
    for (k, v) in set {
        out.push((OsString::from(k), v.into_os_string()));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The process groups of running dispatches, so a Ctrl-C can end every one of them.
#[derive(Debug, Clone, Default)]
pub struct ProcessGroups {
    inner: Arc<Mutex<BTreeSet<i32>>>,
}

impl ProcessGroups {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    fn add(&self, pgid: i32) {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(pgid);
    }

    fn remove(&self, pgid: i32) {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&pgid);
    }

    /// How many dispatch groups are running now.
    pub fn running(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Sends SIGTERM to every registered group, waits `grace`, then SIGKILL. Each
    /// dispatch's own runner then reaps its child and reports it as cancelled when its
    /// cancel flag is set.
    pub fn kill_all(&self, grace: Duration) {
        let groups: Vec<i32> = self
            .inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .copied()
            .collect();
        for g in &groups {
            signal_group(*g, libc::SIGTERM);
        }
        if !groups.is_empty() {
            thread::sleep(grace);
        }
        for g in &groups {
            signal_group(*g, libc::SIGKILL);
        }
    }
}

fn signal_group(pgid: i32, sig: i32) {
    if pgid > 1 {
        // SAFETY: kill(2) with a negative pid signals a process group; no memory involved.
        unsafe {
            libc::kill(-pgid, sig);
        }
    }
}

/// One agent invocation to run.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The full argv (possibly wrapped by the sandbox).
    pub argv: Vec<OsString>,
    /// The checkout.
    pub cwd: PathBuf,
    /// Bytes for stdin, or `None` for `/dev/null`.
    pub stdin: Option<Vec<u8>>,
    /// Fresh home and private tmp.
    pub home: DispatchHome,
    /// Names passed from the harness's environment beyond the base allowlist.
    pub pass_env: Vec<String>,
    /// Wall-clock limit.
    pub timeout: Duration,
    /// Pause between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// Set to stop the dispatch early (Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Cap on kept bytes per stream.
    pub max_output: usize,
    /// Variables the runner sets with these values (a preset's own settings, e.g. a retry
    /// cap); never `HOME` or another runner-set name.
    pub set_env: Vec<(String, String)>,
}

impl RunSpec {
    /// A spec with the default grace and output cap, no stdin, no cancel flag.
    pub fn new(argv: Vec<OsString>, cwd: PathBuf, home: DispatchHome, timeout: Duration) -> Self {
        RunSpec {
            argv,
            cwd,
            stdin: None,
            home,
            pass_env: Vec::new(),
            timeout,
            grace: DEFAULT_GRACE,
            cancel: None,
            max_output: DEFAULT_MAX_OUTPUT,
            set_env: Vec::new(),
        }
    }
}

/// What happened to one invocation. Written (minus the output bytes) into the
/// dispatch's `.json` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// Captured stdout (the raw answer).
    pub stdout: Vec<u8>,
    /// Captured stderr.
    pub stderr: Vec<u8>,
    /// Exit code, when the agent exited normally.
    pub exit_code: Option<i32>,
    /// Terminating signal, when it was killed.
    pub signal: Option<i32>,
    /// The timeout fired.
    pub timed_out: bool,
    /// The cancel flag stopped it.
    pub cancelled: bool,
    /// Wall-clock run time.
    pub duration: Duration,
    /// Start, milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// End, milliseconds since the Unix epoch.
    pub ended_unix_ms: u64,
    /// Names (never values) of the variables the agent received.
    pub env_names: Vec<String>,
    /// stdout went over the cap and was cut.
    pub stdout_truncated: bool,
    /// stderr went over the cap and was cut.
    pub stderr_truncated: bool,
    /// The output pipes were still open [`DRAIN_CAP`] after the agent ended, held by a
    /// process the runner could neither find nor end, so the output may be incomplete.
    pub output_incomplete: bool,
    /// Processes that had left the agent's group and still held its output pipes after it
    /// ended (`pid N (comm)`); each was killed so the dispatch could end.
    pub stray_processes: Vec<String>,
}

impl RunOutcome {
    /// Exited on its own with status 0, within time, output whole.
    pub fn succeeded(&self) -> bool {
        self.exit_code == Some(0) && !self.timed_out && !self.cancelled && !self.output_incomplete
    }

    /// Why this attempt failed for a reason of the infrastructure rather than of the
    /// agent's answer, so `--retries` may run it again: killed by a signal (the OOM killer,
    /// a kill from outside), timed out, output left incomplete, or a non-zero exit with no
    /// output at all (the agent never got to answer: a missing runtime, a refused key, a
    /// network error). `None` when cancelled (Ctrl-C is never retried) and when the agent
    /// answered, even badly: a non-zero exit with output is the agent's own result.
    pub fn infra_failure(&self) -> Option<String> {
        if self.cancelled {
            return None;
        }
        let silent = self.stdout.iter().all(|b| b.is_ascii_whitespace());
        let failed = self.timed_out
            || self.signal.is_some()
            || self.output_incomplete
            || (self.exit_code != Some(0) && silent);
        if !failed {
            return None;
        }
        let reason = self
            .failure_reason()
            .unwrap_or_else(|| "agent failed".into());
        Some(if self.exit_code.is_some_and(|c| c != 0) && silent {
            format!("{reason} and no output")
        } else {
            reason
        })
    }

    /// A short human reason when it did not succeed (for `.err` files and logs).
    pub fn failure_reason(&self) -> Option<String> {
        if self.cancelled {
            Some("cancelled".into())
        } else if self.timed_out {
            Some(format!(
                "timed out after {:.1}s",
                self.duration.as_secs_f64()
            ))
        } else if let Some(sig) = self.signal {
            Some(format!("killed by signal {sig}"))
        } else if let Some(code) = self.exit_code.filter(|c| *c != 0) {
            Some(format!("exit status {code}"))
        } else if self.output_incomplete {
            Some(format!(
                "output incomplete: the output pipes were still open {}s after the agent \
                 ended, held by a process the harness could not find or end",
                DRAIN_CAP.as_secs()
            ))
        } else {
            None
        }
    }
}

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// What a reader thread has collected so far: bytes kept, truncated, finished.
type Sink = Arc<Mutex<(Vec<u8>, bool, bool)>>;

fn drain<R: Read + Send + 'static>(mut r: R, cap: usize) -> Sink {
    let sink: Sink = Arc::new(Mutex::new((Vec::new(), false, false)));
    let out = sink.clone();
    thread::spawn(move || {
        let mut buf = [0u8; 64 * 1024];
        loop {
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let mut g = sink.lock().unwrap_or_else(|p| p.into_inner());
                    let room = cap.saturating_sub(g.0.len());
                    if n > room {
                        g.1 = true;
                    }
                    g.0.extend_from_slice(&buf[..n.min(room)]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
        }
        sink.lock().unwrap_or_else(|p| p.into_inner()).2 = true;
    });
    out
}

/// Takes what a reader collected: (bytes, truncated).
fn take(sink: &Sink) -> (Vec<u8>, bool) {
    let mut g = sink.lock().unwrap_or_else(|p| p.into_inner());
    (std::mem::take(&mut g.0), g.1)
}

fn at_eof(sink: &Sink) -> bool {
    sink.lock().unwrap_or_else(|p| p.into_inner()).2
}

/// How a dispatch's pipes ended after its agent did.
struct Drained {
    /// Both readers reached end of file.
    complete: bool,
    /// Processes found holding a pipe and killed.
    strays: Vec<String>,
}

/// Waits until every reader reaches end of file. Whether the output is whole is decided by
/// who holds the pipes, not by a clock: the readers used to get a fixed 100 ms after the
/// agent's exit, and on a loaded machine (`--jobs 64` on two cores) the reader thread was
/// simply not scheduled in time, so a clean dispatch was recorded as "output incomplete"
/// while no process held the pipe at all (issue 12). Now, while end of file has not come,
/// `/proc` is asked who holds the write ends: nobody means end of file is certain and the
/// wait goes on; this process's own children between fork and exec hold copies only until
/// exec closes them; anyone else left the agent's group and outlived it, and is killed.
/// Only a holder this user cannot see makes the wait end at `cap`, incomplete.
fn await_eof(sinks: &[(&Sink, Option<u64>)], cap: Duration) -> Drained {
    let t0 = Instant::now();
    let mut next_scan = t0 + HOLDER_SCAN_EVERY;
    let mut strays: Vec<String> = Vec::new();
    loop {
        let open: Vec<u64> = sinks
            .iter()
            .filter(|(s, _)| !at_eof(s))
            .filter_map(|(_, ino)| *ino)
            .collect();
        if sinks.iter().all(|(s, _)| at_eof(s)) {
            return Drained {
                complete: true,
                strays,
            };
        }
        let now = Instant::now();
        if now >= t0 + cap {
            return Drained {
                complete: false,
                strays,
            };
        }
        if now >= next_scan {
            for h in reap::pipe_write_holders(&open) {
                if is_own_child_before_exec(&h) {
                    continue;
                }
                reap::signal(h.pid, libc::SIGKILL);
                let d = h.describe();
                if !strays.contains(&d) {
                    strays.push(d);
                }
            }
            next_scan = Instant::now() + HOLDER_SCAN_EVERY;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// A child of this process that has not yet exec'd (it still runs this executable) holds
/// copies of every pipe this process had open; they are close-on-exec, so it lets go by
/// itself. (The sandbox wrapper is this executable too, but after exec it holds only its
/// own dispatch's pipes, whose agent has ended by now.)
fn is_own_child_before_exec(h: &reap::PipeHolder) -> bool {
    let me = std::process::id() as i32;
    h.ppid == me
        && fs::read_link(format!("/proc/{}/exe", h.pid)).ok()
            == fs::read_link("/proc/self/exe").ok()
}

/// Whether `pid` has exited, without reaping it: while the zombie leader is not reaped
/// its pid (= the group id) cannot be reused, so signalling the group stays safe.
/// Waits for a child's exit without polling: its pidfd (Linux 5.3+) turns readable the moment
/// it exits, so the wait ends then instead of at the next poll. Backed-off polls alone caught an
/// agent that took 36 ms at 75 ms, doubling the harness's per-dispatch overhead at random.
/// Without a pidfd, a plain sleep (the old polling).
struct ExitWaiter {
    fd: Option<std::os::fd::OwnedFd>,
}

impl ExitWaiter {
    fn new(pid: i32) -> ExitWaiter {
        #[cfg(target_os = "linux")]
        // SAFETY: pidfd_open(2) takes a pid and flags and returns a new fd or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        // No pidfd on macOS: the plain sleep below.
        #[cfg(not(target_os = "linux"))]
        let fd: libc::c_long = {
            let _ = pid;
            -1
        };
        ExitWaiter {
            fd: (fd >= 0).then(|| {
                // SAFETY: a fresh fd this process owns and nothing else closes.
                unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd as i32) }
            }),
        }
    }

    /// Returns when the child may have exited or after `max`, whichever is first.
    fn wait(&self, max: Duration) {
        use std::os::fd::AsRawFd;
        let Some(fd) = &self.fd else {
            thread::sleep(max);
            return;
        };
        let mut p = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = max.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: poll(2) on one valid pollfd; EINTR only shortens the wait.
        unsafe { libc::poll(&mut p, 1, ms) };
    }
}

fn exited_nowait(pid: i32) -> Result<bool> {
    // SAFETY: siginfo_t is plain data; waitid fills it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if rc != 0 {
        let err = std::io::Error::last_os_error();
        if err.kind() == std::io::ErrorKind::Interrupted {
            return Ok(false);
        }
        return Err(Error::os(format!("waitid({pid})"), err));
    }
    // SAFETY: si_pid is valid for the WEXITED result of waitid.
    Ok(unsafe { info.si_pid() } != 0)
}

/// Runs one agent invocation (see the module doc). The child is its own process-group
/// leader; on timeout or cancel the whole group gets SIGTERM, then SIGKILL after the
/// grace. When the agent exits on its own, whatever it left running in its group is
/// killed too: a dispatch leaves nothing behind. Spawn failures are errors; everything
/// after spawn is reported in the [`RunOutcome`].
pub fn run(spec: &RunSpec, groups: &ProcessGroups) -> Result<RunOutcome> {
    let program = spec
        .argv
        .first()
        .ok_or_else(|| Error::Sandbox("empty argv".into()))?;
    let mut env = allowlisted_env(std::env::vars_os(), &spec.pass_env, &spec.home)?;
    for (k, v) in &spec.set_env {
        check_pass_env(std::slice::from_ref(k))?;
        env.retain(|(name, _)| name != k.as_str());
        env.push((OsString::from(k), OsString::from(v)));
    }
    env.sort_by(|a, b| a.0.cmp(&b.0));
    let env_names: Vec<String> = env
        .iter()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();

    let mut cmd = Command::new(program);
    cmd.args(&spec.argv[1..])
        .current_dir(&spec.cwd)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k.as_os_str(), v.as_os_str())))
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A new session (issue 25), not only a new process group: without a controlling
    // terminal the agent cannot open `/dev/tty`, and `TIOCSTI` (pushing a command into the
    // input of the terminal the harness was started from, which the user's shell runs once
    // the round ends) needs the terminal to be the caller's own. The session leader is also
    // the group leader, so the timeout still signals the whole group by its pid.
    // SAFETY: setsid(2) is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }

    let started = SystemTime::now();
    let t0 = Instant::now();
    let mut child = cmd.spawn().map_err(|e| Error::Spawn {
        program: program.to_string_lossy().into_owned(),
        source: e,
    })?;
    let pid = child.id() as i32;
    groups.add(pid);

    if let (Some(bytes), Some(mut sin)) = (spec.stdin.clone(), child.stdin.take()) {
        thread::spawn(move || {
            let _ = sin.write_all(&bytes);
        });
    }
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let inodes = (reap::pipe_inode(&stdout), reap::pipe_inode(&stderr));
    let out_sink = drain(stdout, spec.max_output);
    let err_sink = drain(stderr, spec.max_output);

    let mut timed_out = false;
    let mut cancelled = false;
    let waiter = ExitWaiter::new(pid);
    let mut poll = Duration::from_millis(5);
    let wait_result = loop {
        match exited_nowait(pid) {
            Ok(true) => break Ok(()),
            Ok(false) => {}
            Err(e) => break Err(e),
        }
        if spec
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::SeqCst))
        {
            cancelled = true;
            break Ok(());
        }
        if t0.elapsed() >= spec.timeout {
            timed_out = true;
            break Ok(());
        }
        waiter.wait(poll.min(spec.timeout.saturating_sub(t0.elapsed())));
        poll = (poll * 2).min(Duration::from_millis(50));
    };

    if timed_out || cancelled {
        signal_group(pid, libc::SIGTERM);
        let deadline = Instant::now() + spec.grace;
        while Instant::now() < deadline {
            if exited_nowait(pid).unwrap_or(true) {
                break;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
    // Sweep the group: stragglers of a normal exit, or what ignored SIGTERM.
    signal_group(pid, libc::SIGKILL);
    let status = child.wait();
    groups.remove(pid);
    let drained = await_eof(&[(&out_sink, inodes.0), (&err_sink, inodes.1)], DRAIN_CAP);
    let duration = t0.elapsed();
    let ended = SystemTime::now();
    wait_result?;
    let status = status.map_err(|e| Error::os(format!("waiting for agent pid {pid}"), e))?;

    let (stdout, stdout_truncated) = take(&out_sink);
    let (stderr, stderr_truncated) = take(&err_sink);

    Ok(RunOutcome {
        stdout,
        stderr,
        exit_code: status.code(),
        signal: status.signal(),
        timed_out,
        cancelled,
        duration,
        started_unix_ms: unix_ms(started),
        ended_unix_ms: unix_ms(ended),
        env_names,
        stdout_truncated,
        stderr_truncated,
        output_incomplete: !drained.complete,
        stray_processes: drained.strays,
    })
}

/// Resolves a program name against a `PATH` value the way `execvp` would (first
/// executable match); a name with a `/` is taken as is.
pub fn resolve_program(program: &OsStr, path_var: Option<&OsStr>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let p = Path::new(program);
    if program.to_string_lossy().contains('/') {
        return Some(p.to_path_buf());
    }
    let path_var = path_var?;
    std::env::split_paths(path_var)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(p))
        .find(|c| {
            fs::metadata(c)
                .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_waiter_wakes_when_the_child_exits_not_at_its_deadline() {
        let mut child = Command::new("sleep").arg("0.2").spawn().unwrap();
        let waiter = ExitWaiter::new(child.id() as i32);
        assert!(waiter.fd.is_some(), "pidfd_open failed on this kernel");
        let t0 = Instant::now();
        waiter.wait(Duration::from_secs(10));
        let took = t0.elapsed();
        assert!(
            exited_nowait(child.id() as i32).unwrap(),
            "woke before the exit"
        );
        assert!(
            took < Duration::from_secs(5),
            "waited {took:?}: the deadline, not the exit"
        );
        child.wait().unwrap();
    }
}
