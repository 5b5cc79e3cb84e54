//! Finding and ending what an agent left behind (issue 12): the processes that still hold
//! a dispatch's output pipes after the agent ended, and the descendants a per-dispatch
//! reaper must kill before it exits. Everything here reads `/proc`, so what it decides
//! rests on which processes exist, never on how long a thread took to be scheduled.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[cfg(target_os = "macos")]
use crate::platform::parent_is_harness;
use crate::sandbox::{parse_wrapper_args, run_sandboxed_with, EXIT_SANDBOX_REFUSED};

/// Pause the reaper gives its tree between SIGTERM and SIGKILL when asked to stop (a
/// timeout or Ctrl-C reaches it as SIGTERM). Shorter than the runner's grace
/// ([`crate::process::DEFAULT_GRACE`]), so the runner's own SIGKILL of the group never
/// finds the reaper still waiting: a reaper killed outright could not end its tree.
pub const REAPER_GRACE: Duration = Duration::from_secs(1);

/// Set by SIGTERM/SIGINT: end the tree gracefully.
static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);
/// Set by SIGHUP, the parent-death signal: the harness is gone, end the tree now.
static PARENT_GONE: AtomicBool = AtomicBool::new(false);
/// What [`supervise`] killed after the agent exited, for the wrapper's report.
static STRAYS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A process that holds the write end of one of a dispatch's pipes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipeHolder {
    /// Its pid.
    pub pid: i32,
    /// Its parent's pid.
    pub ppid: i32,
    /// Its command name (`/proc/<pid>/comm`).
    pub comm: String,
}

impl PipeHolder {
    /// `pid 123 (sleep)`, for records and reasons.
    pub fn describe(&self) -> String {
        format!("pid {} ({})", self.pid, self.comm)
    }
}

/// The pipe inode behind a file descriptor (both ends of a pipe share it), or `None`.
pub fn pipe_inode(fd: &impl AsRawFd) -> Option<u64> {
    // SAFETY: fstat fills a plain struct for a descriptor we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::fstat(fd.as_raw_fd(), &mut st) };
    (rc == 0 && st.st_mode & libc::S_IFMT == libc::S_IFIFO).then_some(st.st_ino as u64)
}

/// Every process (other than this one) holding a write end of one of the pipes `inodes`,
/// read from `/proc/*/fd` and `/proc/*/fdinfo`. Processes whose descriptors this user
/// cannot read are not listed.
pub fn pipe_write_holders(inodes: &[u64]) -> Vec<PipeHolder> {
    let me = std::process::id() as i32;
    let wanted: Vec<String> = inodes.iter().map(|i| format!("pipe:[{i}]")).collect();
    let Ok(procs) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in procs.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(fds) = fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        let holds = fds.flatten().any(|fd| {
            let target = fs::read_link(fd.path()).unwrap_or_default();
            let target = target.to_string_lossy();
            wanted.iter().any(|w| *w == target)
                && is_write_end(&entry.path().join("fdinfo").join(fd.file_name()))
        });
        if holds {
            out.push(PipeHolder {
                pid,
                ppid: stat_field(pid, 1).unwrap_or(0),
                comm: fs::read_to_string(entry.path().join("comm"))
                    .map(|c| c.trim().to_string())
                    .unwrap_or_default(),
            });
        }
    }
    out
}

fn is_write_end(fdinfo: &std::path::Path) -> bool {
    fs::read_to_string(fdinfo)
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("flags:")
                    .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            })
        })
        .is_some_and(|flags| flags & libc::O_ACCMODE as u32 != libc::O_RDONLY as u32)
}

/// Field `n` (0 = state) after the `(comm)` of `/proc/<pid>/stat`, as a number.
fn stat_field(pid: i32, n: usize) -> Option<i32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(n)?
        .parse()
        .ok()
}

/// The direct children of `pid` (every thread's), from `/proc/<pid>/task/*/children`.
pub fn children_of(pid: i32) -> Vec<i32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut kids: Vec<i32> = tasks
        .flatten()
        .filter_map(|t| fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|s| {
            s.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<i32>>()
        })
        .collect();
    kids.sort_unstable();
    kids.dedup();
    kids
}

/// Every live descendant of `pid`, parents before children.
pub fn descendants_of(pid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let mut frontier = vec![pid];
    while let Some(p) = frontier.pop() {
        for c in children_of(p) {
            if !out.contains(&c) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}

/// Sends `sig` to one process.
pub fn signal(pid: i32, sig: i32) {
    if pid > 1 {
        // SAFETY: kill(2) with a positive pid; no memory involved.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// Entry point of the `harness __sandbox` process (every dispatch runs its agent through
/// it, under every `--sandbox` mode including `none`): becomes the per-dispatch reaper
/// ([`become_reaper`]), then runs the agent in the requested sandbox and waits for its
/// whole tree ([`supervise`]). Returns the exit code (the agent's, or 128+signal, or
/// [`EXIT_SANDBOX_REFUSED`] with the reason on stderr).
pub fn reaper_main(args: &[OsString]) -> i32 {
    let run = || -> crate::error::Result<i32> {
        let (req, agent) = parse_wrapper_args(args)?;
        become_reaper().map_err(crate::error::Error::Sandbox)?;
        let code = run_sandboxed_with(&req, &agent, supervise)?;
        record_strays(&req.report)?;
        Ok(code)
    };
    match run() {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "harness sandbox: {e}");
            EXIT_SANDBOX_REFUSED
        }
    }
}

/// Adds what [`supervise`] killed after the agent's exit to the wrapper's report.
fn record_strays(report: &std::path::Path) -> crate::error::Result<()> {
    let strays = std::mem::take(&mut *STRAYS.lock().unwrap_or_else(|p| p.into_inner()));
    if strays.is_empty() || !report.exists() {
        return Ok(());
    }
    let mut iso = crate::sandbox::read_report(report)?;
    iso.stray_processes = strays;
    crate::sandbox::write_report(report, &iso)
}

extern "C" fn on_stop(_: libc::c_int) {
    STOP_REQUESTED.store(true, Ordering::SeqCst);
}

extern "C" fn on_parent_death(_: libc::c_int) {
    PARENT_GONE.store(true, Ordering::SeqCst);
}

/// Does nothing; installed so SIGCHLD interrupts the reaper's sleep.
extern "C" fn on_child(_: libc::c_int) {}

fn handle(sig: libc::c_int, f: extern "C" fn(libc::c_int)) -> std::io::Result<()> {
    // SAFETY: a zeroed sigaction with an empty mask and a handler that only stores an
    // atomic is valid; no SA_RESTART, so the reaper's sleep is interrupted.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = f as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        if libc::sigaction(sig, &sa, std::ptr::null_mut()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Makes this process the reaper of one dispatch: a child subreaper, so whatever the agent
/// starts — even with `setsid`, `nohup` or a double fork — stays its descendant and is
/// reparented to it rather than to init; SIGTERM/SIGINT ask it to end the tree; and
/// SIGHUP arrives when the harness dies (`PR_SET_PDEATHSIG`), however it dies. Refuses
/// when the harness is already gone (its death came before the request for the signal).
pub fn become_reaper() -> std::result::Result<(), String> {
    #[cfg(target_os = "linux")]
    let err = |what: &str| format!("{what}: {}", std::io::Error::last_os_error());
    for (sig, f) in [
        (libc::SIGTERM, on_stop as extern "C" fn(libc::c_int)),
        (libc::SIGINT, on_stop),
        (libc::SIGHUP, on_parent_death),
        (libc::SIGCHLD, on_child),
    ] {
        handle(sig, f).map_err(|e| format!("sigaction({sig}): {e}"))?;
    }
    // macOS has neither a subreaper nor a parent-death signal: the parent is watched instead
    // (see `supervise`), and the runner's kill of the process group ends the agent's tree.
    #[cfg(target_os = "macos")]
    crate::platform::remember_parent();
    // SAFETY: prctl with integer arguments only.
    #[cfg(target_os = "linux")]
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
        return Err(err("prctl(PR_SET_CHILD_SUBREAPER)"));
    }
    // SAFETY: as above.
    #[cfg(target_os = "linux")]
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGHUP, 0, 0, 0) } != 0 {
        return Err(err("prctl(PR_SET_PDEATHSIG)"));
    }
    if !parent_is_harness() {
        return Err("the harness that started this dispatch has already ended".into());
    }
    Ok(())
}

/// Whether this process's parent runs the same executable (the harness re-execs itself as
/// the wrapper); after the harness died the parent is init or some other subreaper.
#[cfg(target_os = "linux")]
fn parent_is_harness() -> bool {
    // SAFETY: getppid cannot fail.
    let ppid = unsafe { libc::getppid() };
    let exe = |p: &str| {
        fs::read_link(p).ok().map(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_suffix(" (deleted)")
                .map(str::to_string)
                .unwrap_or(l)
        })
    };
    let mine = exe("/proc/self/exe");
    mine.is_some() && exe(&format!("/proc/{ppid}/exe")) == mine
}

/// Waits for the agent `agent` and then for its whole tree, as the dispatch's reaper:
/// when the agent exits, every descendant still running (it left the agent's group, or
/// outlived a PID namespace's init as a zombie) is killed and reaped; SIGTERM/SIGINT end
/// the tree with SIGTERM, then SIGKILL after [`REAPER_GRACE`]; the harness's death
/// (SIGHUP) ends it with SIGKILL at once. Returns the agent's wait status once this
/// process has no child left, so the reaper's exit means nothing of the dispatch runs —
/// and nothing holds its pipes.
pub fn supervise(agent: libc::pid_t) -> std::io::Result<libc::c_int> {
    let me = std::process::id() as i32;
    let mut agent_status: Option<libc::c_int> = None;
    let mut term_deadline: Option<Instant> = None;
    loop {
        match reap_ended(agent, &mut agent_status)? {
            Reaped::NoChildLeft => {
                return agent_status.ok_or_else(|| {
                    std::io::Error::other(format!("agent {agent} vanished unreaped"))
                })
            }
            Reaped::SomeRunning => {}
        }
        #[cfg(target_os = "macos")]
        if crate::platform::parent_changed() {
            PARENT_GONE.store(true, Ordering::SeqCst);
        }
        let kill_now = agent_status.is_some()
            || PARENT_GONE.load(Ordering::SeqCst)
            || term_deadline.is_some_and(|d| Instant::now() >= d);
        if kill_now {
            for p in descendants_of(me) {
                signal(p, libc::SIGKILL);
                if agent_status.is_some() {
                    note_stray(p);
                }
            }
        } else if term_deadline.is_none() && STOP_REQUESTED.load(Ordering::SeqCst) {
            for p in descendants_of(me) {
                signal(p, libc::SIGTERM);
            }
            term_deadline = Some(Instant::now() + REAPER_GRACE);
        }
        // A signal (SIGCHLD included) cuts the sleep short.
        let nap = if kill_now { 5 } else { 100 };
        let ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: nap * 1_000_000,
        };
        // SAFETY: nanosleep with a valid timespec; EINTR is the point.
        unsafe { libc::nanosleep(&ts, std::ptr::null_mut()) };
    }
}

fn note_stray(pid: i32) {
    let comm = fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
    let d = format!("pid {pid} ({})", comm.trim());
    let mut strays = STRAYS.lock().unwrap_or_else(|p| p.into_inner());
    if !strays.iter().any(|s| s.starts_with(&format!("pid {pid} "))) {
        strays.push(d);
    }
}

enum Reaped {
    NoChildLeft,
    SomeRunning,
}

/// Reaps every child that has ended, keeping the agent's status.
fn reap_ended(
    agent: libc::pid_t,
    agent_status: &mut Option<libc::c_int>,
) -> std::io::Result<Reaped> {
    loop {
        let mut status = 0;
        // SAFETY: waitpid on our own children.
        let rc = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if rc == agent {
            *agent_status = Some(status);
        } else if rc == 0 {
            return Ok(Reaped::SomeRunning);
        } else if rc < 0 {
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EINTR) => {}
                Some(libc::ECHILD) => return Ok(Reaped::NoChildLeft),
                _ => return Err(e),
            }
        }
    }
}
