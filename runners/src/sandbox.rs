//! The `--sandbox` wrapper (DESIGN §4, issue 7; Linux).
//!
//! A real agent explores with a shell, so a checkout alone is not isolation: `ps` shows
//! the harness's command line, the user's repo holds the seal in its ignored folder,
//! sibling checkouts hold ARM seals, the out-dir holds other answers. Each agent
//! therefore runs as `<harness exe> __sandbox … -- <agent argv>`, and the hidden
//! subcommand calls [`wrapper_main`], which:
//!
//! 1. clones a child into fresh user + PID + mount namespaces (falling back to PID +
//!    mount without a user namespace when privileged, then to no namespaces), maps the
//!    caller's uid/gid to themselves, and in the child (PID 1 of its namespace) makes
//!    `/` private and mounts a fresh `/proc`, so `ps` shows only the agent's own tree;
//! 2. applies a Landlock ruleset: read+execute on system folders (`/usr`, `/bin`,
//!    `/sbin`, `/lib*`, `/etc`), `/proc` and `/sys` read-only, the agent's program and
//!    runtime folders (argv\[0\] resolved on `PATH` with symlinks followed, its `#!`
//!    interpreter likewise, each widened to its install prefix), the script file an
//!    interpreter is given as an absolute argument (that file only), read/write on a few
//!    device files, and read/write on the checkout, the fresh home and the private
//!    TMPDIR — nothing else. Signals and abstract UNIX sockets are scoped to the sandbox
//!    where the kernel supports it (ABI ≥ 6). The network is left alone;
//! 3. execs the agent, waits for it and exits with its status. What was applied is
//!    written as JSON to the report file (outside the sandbox) before the wrapper exits.
//!
//! The child after `clone` only makes system calls until `exec` (plus the Landlock
//! crate's rule calls), so the wrapper is also usable from a threaded process.

#[cfg(target_os = "linux")]
use std::ffi::CString;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{Read, Write};
#[cfg(target_os = "linux")]
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
#[cfg(target_os = "linux")]
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
use landlock::{
    path_beneath_rules, Access, AccessFs, PathBeneath, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::process::resolve_program;
// macOS: the same interface, with Seatbelt in place of namespaces, Landlock and seccomp.
#[cfg(target_os = "macos")]
pub use crate::seatbelt::{landlock_abi, probe, probe_overlay, run_sandboxed_with};

/// The ABI this harness's rules are written for; newer kernels are used at this level,
/// older ones get the subset they know (best effort, reported as partial).
#[cfg(target_os = "linux")]
const TARGET_ABI: ABI = ABI::V6;

/// Exit code of the wrapper when it refused to start the agent (e.g. `full` with a
/// layer missing) or failed before `exec`; the report says why.
pub const EXIT_SANDBOX_REFUSED: i32 = 125;

/// Exit code of the wrapper when `exec` of the agent failed.
pub const EXIT_EXEC_FAILED: i32 = 127;

/// `--sandbox` modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// The strongest isolation available; says which layer is missing.
    Auto,
    /// Every layer or refuse.
    Full,
    /// Landlock only (no namespaces).
    Landlock,
    /// No isolation beyond the runner's own (env, home, cwd).
    None,
}

impl SandboxMode {
    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SandboxMode::Auto => "auto",
            SandboxMode::Full => "full",
            SandboxMode::Landlock => "landlock",
            SandboxMode::None => "none",
        }
    }

    #[cfg(target_os = "linux")]
    fn wants_namespaces(self) -> bool {
        matches!(self, SandboxMode::Auto | SandboxMode::Full)
    }

    #[cfg(target_os = "linux")]
    fn wants_landlock(self) -> bool {
        !matches!(self, SandboxMode::None)
    }
}

impl std::str::FromStr for SandboxMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(SandboxMode::Auto),
            "full" => Ok(SandboxMode::Full),
            "landlock" => Ok(SandboxMode::Landlock),
            "none" => Ok(SandboxMode::None),
            other => Err(Error::Sandbox(format!(
                "unknown sandbox mode `{other}` (auto, full, landlock, none)"
            ))),
        }
    }
}

/// What one sandboxed invocation may touch, and where the wrapper reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxRequest {
    /// Requested mode.
    pub mode: SandboxMode,
    /// The checkout (read/write).
    pub checkout: PathBuf,
    /// The fresh home (read/write).
    pub home: PathBuf,
    /// The private TMPDIR (read/write).
    pub tmp: PathBuf,
    /// Where the wrapper writes its [`Isolation`] report (must be outside the sandbox).
    pub report: PathBuf,
    /// Folders no read rule may cover, contain or sit inside (the user's repo, the
    /// out-dir, the checkouts' temp root): a guard against a runtime folder or `PATH`
    /// entry that happens to be an ancestor of the seal. The read/write folders are
    /// exempt (the checkout lives under the temp root).
    pub forbid: Vec<PathBuf>,
    /// An overlay checkout the sandbox child mounts at `checkout` before the agent starts
    /// (issue 14); `None` when the checkout is a full copy already in place.
    pub overlay: Option<crate::overlay::OverlayLayers>,
}

/// Landlock as applied to one invocation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandlockApplied {
    /// ABI the ruleset was enforced at (0 when not enforced).
    pub abi: i32,
    /// `fully_enforced`, `partially_enforced` or `not_enforced`.
    pub status: String,
}

/// Per layer, what the wrapper applied; recorded in the round and printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Isolation {
    /// The requested mode.
    pub mode: SandboxMode,
    /// A new user namespace was entered.
    pub userns: bool,
    /// A new PID namespace was entered (the agent is PID 1 of it).
    pub pidns: bool,
    /// A fresh `/proc` is mounted in a private mount namespace.
    pub mountns_proc: bool,
    /// Landlock result, `None` when not attempted.
    pub landlock: Option<LandlockApplied>,
    /// The system-call filter ([`crate::seccomp`]: no UNIX sockets, no `TIOCSTI`, no
    /// io_uring) was installed; asked for by `auto` and `full`.
    #[serde(default)]
    pub seccomp: bool,
    /// macOS: the agent ran under a generated Seatbelt profile (`sandbox-exec`).
    #[serde(default)]
    pub seatbelt: bool,
    /// `full`, `landlock`, `seatbelt`, `none` or `partial: missing …`.
    pub level: String,
    /// Layers asked for and not applied, each with its reason.
    pub missing: Vec<String>,
    /// Set when the wrapper refused to start the agent (`full` with a layer missing).
    pub refused: bool,
    /// Set when `exec` of the agent failed, with the reason.
    pub exec_error: Option<String>,
    /// Processes still running when the agent exited (`pid N (comm)`), each killed by the
    /// dispatch's reaper ([`crate::reap::supervise`]).
    #[serde(default)]
    pub stray_processes: Vec<String>,
    /// Why the agent's program got no read rule, when it did not.
    #[serde(default)]
    pub program_refusals: Vec<String>,
    /// When the agent's program was executed (µs since the epoch): the end of the sandbox's
    /// setup (namespaces, mounts, Landlock), so a dispatch's time splits into setup and agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec_unix_us: Option<u64>,
    /// When the agent (with whatever it left running) was seen gone (µs since the epoch):
    /// what follows until the runner sees the wrapper exit is the namespace's teardown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_end_unix_us: Option<u64>,
}

/// Now, in microseconds since the epoch (0 on a clock before it).
pub fn unix_now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0)
}

impl Isolation {
    /// Nothing applied yet, for `mode`.
    pub(crate) fn requested(mode: SandboxMode) -> Isolation {
        Isolation {
            mode,
            userns: false,
            pidns: false,
            mountns_proc: false,
            landlock: None,
            seccomp: false,
            seatbelt: false,
            level: String::new(),
            missing: Vec::new(),
            refused: false,
            exec_error: None,
            stray_processes: Vec::new(),
            program_refusals: Vec::new(),
            exec_unix_us: None,
            agent_end_unix_us: None,
        }
    }

    #[cfg(target_os = "linux")]
    fn compute_level(&mut self) {
        let ll_full = self
            .landlock
            .as_ref()
            .is_some_and(|l| l.status == "fully_enforced");
        let ll_any = self
            .landlock
            .as_ref()
            .is_some_and(|l| l.status != "not_enforced");
        let ns_none = !self.userns && !self.pidns && !self.mountns_proc && !self.seccomp;
        self.level = if self.userns && self.pidns && self.mountns_proc && ll_full && self.seccomp {
            "full".into()
        } else if ns_none && ll_full && self.mode == SandboxMode::Landlock {
            "landlock".into()
        } else if ns_none && !ll_any {
            "none".into()
        } else {
            let mut missing: Vec<&str> = Vec::new();
            if !self.userns {
                missing.push("userns");
            }
            if !self.pidns {
                missing.push("pidns");
            }
            if !self.mountns_proc {
                missing.push("proc");
            }
            if !ll_full {
                missing.push(if ll_any {
                    "landlock(partial)"
                } else {
                    "landlock"
                });
            }
            if !self.seccomp && self.mode.wants_namespaces() {
                missing.push("seccomp");
            }
            format!("partial: missing {}", missing.join(", "))
        };
    }
}

/// What the kernel offers, for `harness doctor` and for refusing `full` before a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// The kernel's Landlock ABI version, `None` when Landlock is unavailable.
    pub landlock_abi: Option<i32>,
    /// Why Landlock is unavailable, if it is.
    pub landlock_error: Option<String>,
    /// A user namespace (with PID + mount) could be entered by this process.
    pub userns: bool,
    /// A PID + mount namespace could be entered (with or without a user namespace).
    pub pidns: bool,
    /// A fresh `/proc` could be mounted inside it.
    pub mount_proc: bool,
    /// Reasons for each namespace layer that failed.
    pub namespace_errors: Vec<String>,
    /// The system-call filter ([`crate::seccomp`]) installs and refuses `socket(AF_UNIX)`
    /// here (tried in a short-lived child).
    #[serde(default)]
    pub seccomp: bool,
    /// Why the filter does not work here, if it does not.
    #[serde(default)]
    pub seccomp_error: Option<String>,
    /// macOS: `sandbox-exec` applies a profile here (tried with a short-lived child).
    #[serde(default)]
    pub seatbelt: bool,
    /// Why Seatbelt is unavailable, if it is (always set on Linux).
    #[serde(default)]
    pub seatbelt_error: Option<String>,
}

/// The Landlock ABI that scopes abstract UNIX sockets and signals to the sandbox.
pub const LANDLOCK_SCOPE_ABI: i32 = 6;

impl Capabilities {
    /// The layers `full` needs that are missing here.
    pub fn missing_for_full(&self) -> Vec<String> {
        if cfg!(target_os = "macos") {
            return crate::seatbelt::missing_for_full(self);
        }
        let mut m = Vec::new();
        if !self.userns {
            m.push("user namespace".to_string());
        }
        if !self.pidns {
            m.push("PID namespace".to_string());
        }
        if !self.mount_proc {
            m.push("fresh /proc mount".to_string());
        }
        match self.landlock_abi {
            None => m.push(format!(
                "Landlock ({})",
                self.landlock_error.as_deref().unwrap_or("unavailable")
            )),
            Some(abi) if abi < LANDLOCK_SCOPE_ABI => m.push(format!(
                "Landlock ABI {LANDLOCK_SCOPE_ABI} (scoping of abstract UNIX sockets and signals; this kernel has ABI {abi})"
            )),
            Some(_) => {}
        }
        if !self.seccomp {
            m.push(format!(
                "seccomp filter for UNIX sockets and TIOCSTI ({})",
                self.seccomp_error.as_deref().unwrap_or("unavailable")
            ));
        }
        m
    }
}

/// Refuses a mode this machine cannot honour, before any dispatch: `full` needs every
/// layer, `landlock` needs Landlock. `auto` and `none` always pass.
pub fn preflight(mode: SandboxMode, caps: &Capabilities) -> Result<()> {
    let missing = match mode {
        SandboxMode::Full => caps.missing_for_full(),
        SandboxMode::Landlock if caps.landlock_abi.is_none() => vec![format!(
            "Landlock ({})",
            caps.landlock_error.as_deref().unwrap_or("unavailable")
        )],
        _ => Vec::new(),
    };
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::SandboxIncomplete { missing })
    }
}

/// The kernel's Landlock ABI version, or why there is none.
#[cfg(target_os = "linux")]
pub fn landlock_abi() -> std::result::Result<i32, String> {
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only
    // returns the ABI version; no memory is passed.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    if v >= 1 {
        Ok(v as i32)
    } else {
        let err = std::io::Error::last_os_error();
        Err(match err.raw_os_error() {
            Some(libc::ENOSYS) => "not built into this kernel (ENOSYS)".into(),
            Some(libc::EOPNOTSUPP) => "built in but not enabled at boot (EOPNOTSUPP)".into(),
            _ => format!("landlock_create_ruleset failed: {err}"),
        })
    }
}

// ---------------------------------------------------------------------------------
// Low-level process plumbing shared by `probe` and the wrapper.

#[cfg(target_os = "linux")]
fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// clone(2) used like fork(2), with namespace flags. Returns 0 in the child.
#[cfg(target_os = "linux")]
fn clone_with(flags: libc::c_int) -> std::io::Result<libc::pid_t> {
    // SAFETY: a fork-style clone (no new stack, no CLONE_VM): the child continues on a
    // copy of the caller's address space, exactly like fork.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_clone,
            (flags | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    if rc < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(rc as libc::pid_t)
    }
}

#[cfg(target_os = "linux")]
fn pipe_cloexec() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 fills two fds which we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both fds were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Writes uid/gid maps for a child in a new user namespace: the caller's ids map to
/// themselves, so files keep their owners and the agent is not root unless the
/// caller was.
#[cfg(target_os = "linux")]
fn write_id_maps(pid: libc::pid_t) -> std::io::Result<()> {
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let base = format!("/proc/{pid}");
    match fs::write(format!("{base}/setgroups"), "deny") {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    fs::write(format!("{base}/uid_map"), format!("{uid} {uid} 1\n"))?;
    fs::write(format!("{base}/gid_map"), format!("{gid} {gid} 1\n"))?;
    Ok(())
}

fn wait_status(pid: libc::pid_t) -> std::io::Result<libc::c_int> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on our own child.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        if rc == pid {
            return Ok(status);
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

#[cfg(target_os = "linux")]
fn kill_and_reap(pid: libc::pid_t) {
    // SAFETY: signalling and reaping our own child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
    let _ = wait_status(pid);
}

/// Private `/` then a fresh `/proc`. Returns (errno of the private remount, errno of
/// the proc mount); 0 means success. Only system calls: safe after clone.
#[cfg(target_os = "linux")]
fn mount_fresh_proc() -> (i32, i32) {
    let root = c"/";
    let proc_src = c"proc";
    let proc_dir = c"/proc";
    // SAFETY: plain mount(2) calls with static C strings.
    let private = unsafe {
        libc::mount(
            std::ptr::null(),
            root.as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        )
    };
    if private != 0 {
        return (errno().max(1), libc::ECANCELED);
    }
    // SAFETY: as above.
    let proc_rc = unsafe {
        libc::mount(
            proc_src.as_ptr(),
            proc_dir.as_ptr(),
            proc_src.as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        )
    };
    (0, if proc_rc == 0 { 0 } else { errno().max(1) })
}

#[cfg(target_os = "linux")]
fn read_full(fd: &OwnedFd, buf: &mut [u8]) -> usize {
    let mut got = 0;
    while got < buf.len() {
        // SAFETY: reading into our own buffer.
        let n = unsafe {
            libc::read(
                fd.as_raw_fd(),
                buf[got..].as_mut_ptr() as *mut libc::c_void,
                buf.len() - got,
            )
        };
        if n > 0 {
            got += n as usize;
        } else if n == 0 || errno() != libc::EINTR {
            break;
        }
    }
    got
}

#[cfg(target_os = "linux")]
fn write_all_raw(fd: libc::c_int, buf: &[u8]) {
    let mut off = 0;
    while off < buf.len() {
        // SAFETY: writing from our own buffer.
        let n = unsafe {
            libc::write(
                fd,
                buf[off..].as_ptr() as *const libc::c_void,
                buf.len() - off,
            )
        };
        if n > 0 {
            off += n as usize;
        } else if n < 0 && errno() == libc::EINTR {
            continue;
        } else {
            break;
        }
    }
}

#[cfg(target_os = "linux")]
fn describe_errno(e: i32) -> String {
    std::io::Error::from_raw_os_error(e).to_string()
}

#[cfg(target_os = "linux")]
const NS_FULL: libc::c_int = libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWNS;
#[cfg(target_os = "linux")]
const NS_PRIV: libc::c_int = libc::CLONE_NEWPID | libc::CLONE_NEWNS;

/// Probes what this process can do: the Landlock ABI, and by actually trying it in a
/// short-lived child, whether user + PID + mount namespaces and a fresh `/proc` work.
#[cfg(target_os = "linux")]
pub fn probe() -> Capabilities {
    let (landlock_abi, landlock_error) = match landlock_abi() {
        Ok(v) => (Some(v), None),
        Err(e) => (None, Some(e)),
    };
    let mut caps = Capabilities {
        landlock_abi,
        landlock_error,
        userns: false,
        pidns: false,
        mount_proc: false,
        namespace_errors: Vec::new(),
        seccomp: false,
        seccomp_error: None,
        seatbelt: false,
        seatbelt_error: Some("Seatbelt is macOS's sandbox; this is Linux".into()),
    };
    match crate::seccomp::probe() {
        Ok(()) => caps.seccomp = true,
        Err(e) => caps.seccomp_error = Some(e),
    }
    for flags in [NS_FULL, NS_PRIV] {
        let with_user = flags & libc::CLONE_NEWUSER != 0;
        let label = if with_user {
            "user+pid+mount namespaces"
        } else {
            "pid+mount namespaces"
        };
        match probe_once(flags) {
            Ok(proc_ok) => {
                caps.userns |= with_user;
                caps.pidns = true;
                caps.mount_proc = proc_ok.is_ok();
                if let Err(e) = proc_ok {
                    caps.namespace_errors
                        .push(format!("{label}: fresh /proc: {e}"));
                }
                if caps.mount_proc {
                    break;
                }
            }
            Err(e) => caps.namespace_errors.push(format!("{label}: {e}")),
        }
    }
    caps
}

/// One namespace attempt: Ok(proc result) when the namespaces were entered.
#[cfg(target_os = "linux")]
fn probe_once(flags: libc::c_int) -> std::result::Result<std::result::Result<(), String>, String> {
    let (sync_r, sync_w) = pipe_cloexec().map_err(|e| format!("pipe: {e}"))?;
    let (st_r, st_w) = pipe_cloexec().map_err(|e| format!("pipe: {e}"))?;
    let pid = clone_with(flags).map_err(|e| format!("clone: {e}"))?;
    if pid == 0 {
        let mut b = [0u8; 1];
        if read_full(&sync_r, &mut b) != 1 {
            // SAFETY: leaving the forked child without running destructors.
            unsafe { libc::_exit(2) };
        }
        let (p, m) = mount_fresh_proc();
        let mut rec = [0u8; 8];
        rec[..4].copy_from_slice(&p.to_ne_bytes());
        rec[4..].copy_from_slice(&m.to_ne_bytes());
        write_all_raw(st_w.as_raw_fd(), &rec);
        // SAFETY: as above.
        unsafe { libc::_exit(0) };
    }
    drop(sync_r);
    drop(st_w);
    if flags & libc::CLONE_NEWUSER != 0 {
        if let Err(e) = write_id_maps(pid) {
            kill_and_reap(pid);
            return Err(format!("uid/gid map: {e}"));
        }
    }
    write_all_raw(sync_w.as_raw_fd(), &[1]);
    drop(sync_w);
    let mut rec = [0u8; 8];
    let got = read_full(&st_r, &mut rec);
    let _ = wait_status(pid);
    if got != 8 {
        return Ok(Err("probe child ended without reporting".into()));
    }
    let p = i32::from_ne_bytes(rec[..4].try_into().unwrap_or_default());
    let m = i32::from_ne_bytes(rec[4..].try_into().unwrap_or_default());
    Ok(if p != 0 {
        Err(format!("making / private: {}", describe_errno(p)))
    } else if m != 0 {
        Err(format!("mounting proc: {}", describe_errno(m)))
    } else {
        Ok(())
    })
}

// ---------------------------------------------------------------------------------
// Paths the agent may reach.

/// The folders one sandboxed agent may reach, by kind of access.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedPaths {
    /// Read + execute (system folders, the agent's runtime).
    pub read_exec: Vec<PathBuf>,
    /// Read only (`/sys`). `/proc` is added by the child after it mounts its own.
    pub read_only: Vec<PathBuf>,
    /// Device files opened read/write.
    pub devices: Vec<PathBuf>,
    /// Full access: checkout, home, tmp.
    pub read_write: Vec<PathBuf>,
    /// Why the agent's program (or its interpreter) got no rule at all.
    pub program_refusals: Vec<String>,
}

const SYSTEM_DIRS: [&str; 9] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/lib32",
    "/libx32",
    "/etc",
    "/run/current-system",
];
/// Device files an agent may open. Never `/dev/tty` or `/dev/pts` (issue 25): the terminal
/// the harness was started from is the user's, and whatever is written to it or pushed into
/// its input queue lands outside every sandbox.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// The package a resolved (link-free) program belongs to, when it has one: the
/// `node_modules` folder of an npm install (a package and its hoisted dependencies), or `X`
/// for `X/bin/name` (a venv, an nvm node, a self-contained prefix). `None` for a lone file
/// (`~/.local/share/claude/versions/V`, `~/bin/agent`): its read rule is the file alone.
/// [`holds_user_data`] then refuses a package folder that holds a home, state or config.
fn install_prefix(program: &Path) -> Option<PathBuf> {
    let comps: Vec<_> = program.components().collect();
    if let Some(i) = comps.iter().position(|c| c.as_os_str() == "node_modules") {
        let p: PathBuf = comps[..=i].iter().collect();
        return Some(p);
    }
    let dir = program.parent()?;
    if dir.file_name() == Some(OsStr::new("bin")) {
        return dir.parent().map(Path::to_path_buf);
    }
    None
}

/// What a user's home holds and a program's package never does (issue 24): a folder that
/// contains one of these is a home (or `~/.local`, with the round state under
/// `~/.local/state/harness/rounds`), never a runtime.
const HOME_MARKERS: [&str; 11] = [
    ".ssh", ".gnupg", ".config", ".cache", ".local", ".aws", ".kube", ".docker", ".netrc",
    ".bashrc", ".profile",
];

/// Whether a read rule on `p` would cover a user's home, state or config: `p` contains a
/// home marker ([`HOME_MARKERS`], an agent memory folder), holds a `state` folder (as `~/.local`
/// does, with `state/harness`), or holds a `harness/rounds` folder (past rounds' answers). A
/// second line only: what a round protects is denied by its path ([`SandboxRequest::forbid`]).
fn holds_user_data(p: &Path) -> bool {
    HOME_MARKERS.iter().any(|m| p.join(m).exists())
        || AGENT_MEMORY_DIRS.iter().any(|m| p.join(m).exists())
        || p.join("harness/rounds").exists()
        || p.join("state").is_dir()
}

/// `#!` interpreter of a script (`/usr/bin/env node` → `node` resolved on PATH).
fn interpreter_of(program: &Path, path_var: Option<&OsStr>) -> Option<PathBuf> {
    let mut head = [0u8; 256];
    let n = fs::File::open(program).ok()?.read(&mut head).ok()?;
    let head = &head[..n];
    if !head.starts_with(b"#!") {
        return None;
    }
    let line = head[2..].split(|b| *b == b'\n').next()?;
    let line = String::from_utf8_lossy(line);
    let mut parts = line.split_whitespace();
    let interp = parts.next()?;
    if interp.ends_with("/env") {
        let next = parts.find(|p| !p.starts_with('-'))?;
        return resolve_program(OsStr::new(next), path_var);
    }
    Some(PathBuf::from(interp))
}

/// Folders where agent CLIs keep a user's global memory and instructions.
const AGENT_MEMORY_DIRS: [&str; 3] = [".claude", ".codex", ".gemini"];

/// `/`, a top-level folder other than the system ones, or a folder holding an agent's
/// memory folder: a user's home, never a runtime. (The wrapper cannot compare with the
/// user's `HOME`: the runner has already pointed `HOME` at the fresh home, so a `PATH`
/// entry naming the real home was allowed and its `.claude/CLAUDE.md` readable.)
fn is_too_broad(p: &Path) -> bool {
    p == Path::new("/")
        || p.parent() == Some(Path::new("/"))
            && !SYSTEM_DIRS.iter().any(|s| Path::new(s) == p)
            && p != Path::new("/opt")
        || !SYSTEM_DIRS.iter().any(|s| p.starts_with(s)) && holds_user_data(p)
}

/// Computes the allowed folders for one agent: system folders, the runtime of
/// `agent_argv[0]` (and of its `#!` interpreter), absolute `PATH` entries other than
/// `/` and the home folder itself, the script files named by absolute arguments, a few
/// devices, and the request's read/write folders.
pub fn allowed_paths(
    req: &SandboxRequest,
    agent_argv: &[OsString],
    path_var: Option<&OsStr>,
) -> AllowedPaths {
    let mut a = AllowedPaths::default();
    let forbidden: Vec<PathBuf> = req.forbid.iter().map(|f| resolved(f)).collect();
    let clashes = |p: &Path| {
        forbidden
            .iter()
            .any(|f| f.starts_with(p) || p.starts_with(f))
    };
    let push = |v: &mut Vec<PathBuf>, p: PathBuf| {
        if p.exists() && !clashes(&p) && !v.contains(&p) {
            v.push(p);
        }
    };
    for d in SYSTEM_DIRS {
        push(&mut a.read_exec, PathBuf::from(d));
    }
    let user_home = std::env::var_os("HOME").map(PathBuf::from);
    if let Some(pv) = path_var {
        for d in std::env::split_paths(pv) {
            if d.is_absolute() && d != Path::new("/") && Some(&d) != user_home.as_ref() {
                if let Ok(c) = fs::canonicalize(&d) {
                    if !is_too_broad(&c) {
                        push(&mut a.read_exec, c);
                    }
                }
            }
        }
    }
    if let Some(first) = agent_argv.first() {
        if let Some(prog) = resolve_program(first, path_var) {
            let mut chain = vec![prog.clone()];
            if let Ok(c) = fs::canonicalize(&prog) {
                chain.push(c);
            }
            let targets: Vec<PathBuf> = chain.clone();
            for t in targets {
                if let Some(i) = interpreter_of(&t, path_var) {
                    chain.push(i.clone());
                    if let Ok(c) = fs::canonicalize(&i) {
                        chain.push(c);
                    }
                }
            }
            for p in chain {
                // Rules follow links: a link itself needs none (exec and open resolve it).
                let Ok(p) = fs::canonicalize(&p) else {
                    continue;
                };
                // The program's package when it has one that holds no user data, else the
                // file alone: never its folder (`~/bin` holds the user's other scripts), never
                // a prefix holding the home (`~` for `~/bin/x`, `~/.local` for
                // `~/.local/bin/x`). A rule dropped for a clash is said, never silent.
                let candidates = [
                    install_prefix(&p).filter(|x| !is_too_broad(x)),
                    Some(p.clone()),
                ];
                match candidates.into_iter().flatten().find(|c| !clashes(c)) {
                    Some(c) => push(&mut a.read_exec, c),
                    None => {
                        let why = format!(
                            "{} clashes with the forbidden path {}: no rule may admit it",
                            p.display(),
                            forbidden
                                .iter()
                                .find(|f| {
                                    p.starts_with(f) || p.parent().is_some_and(|d| f.starts_with(d))
                                })
                                .map(|f| f.display().to_string())
                                .unwrap_or_else(|| "?".into())
                        );
                        if !a.program_refusals.contains(&why) {
                            a.program_refusals.push(why);
                        }
                    }
                }
            }
        }
    }
    // An interpreter takes its program as an argument (`sh agent.sh`, `python3 agent.py`):
    // an absolute argument naming an existing regular file may be read, that file alone
    // (a relative one lies in the checkout, which is allowed already).
    // The script an interpreter runs is part of the program: one in a denied path is said (and
    // refused under `full`); any other argument in one simply gets no rule.
    let script = script_of(agent_argv).and_then(|p| fs::canonicalize(p).ok());
    for arg in agent_argv.iter().skip(1) {
        let p = Path::new(arg);
        if p.is_absolute() && p.is_file() {
            if let Ok(c) = fs::canonicalize(p) {
                match forbidden.iter().find(|f| c.starts_with(f)) {
                    Some(f) if script.as_ref() == Some(&c) => {
                        let why = format!(
                            "{} clashes with the forbidden path {}: no rule may admit it",
                            c.display(),
                            f.display()
                        );
                        if !a.program_refusals.contains(&why) {
                            a.program_refusals.push(why);
                        }
                    }
                    _ => push(&mut a.read_exec, c),
                }
            }
        }
    }
    push(&mut a.read_only, PathBuf::from("/sys"));
    for d in DEVICES {
        push(&mut a.devices, PathBuf::from(d));
    }
    for d in [&req.checkout, &req.home, &req.tmp] {
        if d.exists() && !a.read_write.contains(d) {
            a.read_write.push(d.clone());
        }
    }
    a
}

/// Programs that run a script named by their first argument.
const INTERPRETERS: [&str; 12] = [
    "sh", "bash", "dash", "zsh", "ksh", "python", "node", "perl", "ruby", "deno", "bun", "env",
];

/// The script file an interpreter (`sh`, `python3`, `node`, …) is given as its first operand,
/// when that is an absolute path to a file.
fn script_of(agent_argv: &[OsString]) -> Option<PathBuf> {
    let name = Path::new(agent_argv.first()?)
        .file_name()?
        .to_string_lossy();
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !INTERPRETERS.contains(&base) {
        return None;
    }
    let first = agent_argv[1..]
        .iter()
        .find(|a| !a.to_string_lossy().starts_with('-'))?;
    let p = Path::new(first);
    (p.is_absolute() && p.is_file()).then(|| p.to_path_buf())
}

/// `path` absolute, with the links of its longest existing part resolved and the rest appended:
/// a denied folder not made yet is compared by where it will be.
fn resolved(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.ancestors()
        .find_map(|a| {
            fs::canonicalize(a)
                .ok()
                .map(|c| c.join(abs.strip_prefix(a).unwrap_or(Path::new(""))))
        })
        .unwrap_or(abs)
}

#[cfg(target_os = "linux")]
fn build_ruleset(allowed: &AllowedPaths) -> std::result::Result<RulesetCreated, String> {
    let abi = TARGET_ABI;
    let dev_access = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::IoctlDev;
    Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(|r| r.create())
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                &allowed.read_exec,
                AccessFs::from_read(abi),
            ))
        })
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                &allowed.read_only,
                AccessFs::ReadFile | AccessFs::ReadDir,
            ))
        })
        .and_then(|r| r.add_rules(path_beneath_rules(&allowed.devices, dev_access)))
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                &allowed.read_write,
                AccessFs::from_all(abi),
            ))
        })
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------
// The wrapper.

/// Builds the argv that runs `agent_argv` through the harness's `__sandbox` wrapper.
pub fn wrap_argv(
    harness_exe: &Path,
    req: &SandboxRequest,
    agent_argv: &[OsString],
) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec![
        harness_exe.as_os_str().to_owned(),
        "__sandbox".into(),
        "--mode".into(),
        req.mode.name().into(),
        "--checkout".into(),
        req.checkout.clone().into_os_string(),
        "--home".into(),
        req.home.clone().into_os_string(),
        "--tmp".into(),
        req.tmp.clone().into_os_string(),
        "--report".into(),
        req.report.clone().into_os_string(),
    ];
    for f in &req.forbid {
        v.push("--forbid".into());
        v.push(f.clone().into_os_string());
    }
    push_overlay_args(&mut v, req.overlay.as_ref());
    v.push("--".into());
    v.extend(agent_argv.iter().cloned());
    v
}

/// Parses the wrapper's arguments (everything after `__sandbox`).
pub fn parse_wrapper_args(args: &[OsString]) -> Result<(SandboxRequest, Vec<OsString>)> {
    let mut mode = None;
    let (mut checkout, mut home, mut tmp, mut report) = (None, None, None, None);
    let mut forbid = Vec::new();
    let mut overlay_args: Vec<(String, PathBuf)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--" {
            let agent: Vec<OsString> = args[i + 1..].to_vec();
            if agent.is_empty() {
                return Err(Error::Sandbox("no agent command after `--`".into()));
            }
            let checkout_path = checkout.clone();
            let need = |v: Option<PathBuf>, n: &str| {
                v.ok_or_else(|| Error::Sandbox(format!("missing --{n}")))
            };
            let req = SandboxRequest {
                mode: mode.ok_or_else(|| Error::Sandbox("missing --mode".into()))?,
                checkout: need(checkout, "checkout")?,
                home: need(home, "home")?,
                tmp: need(tmp, "tmp")?,
                report: need(report, "report")?,
                forbid,
                overlay: overlay_from_args(&overlay_args, checkout_path)?,
            };
            return Ok((req, agent));
        }
        let value = args
            .get(i + 1)
            .ok_or_else(|| Error::Sandbox(format!("{a} needs a value")))?;
        match a.as_ref() {
            "--mode" => mode = Some(value.to_string_lossy().parse::<SandboxMode>()?),
            "--checkout" => checkout = Some(PathBuf::from(value)),
            "--home" => home = Some(PathBuf::from(value)),
            "--tmp" => tmp = Some(PathBuf::from(value)),
            "--report" => report = Some(PathBuf::from(value)),
            "--forbid" => forbid.push(PathBuf::from(value)),
            o if o.starts_with("--overlay-") => {
                overlay_args.push((o.to_string(), PathBuf::from(value)))
            }
            other => {
                return Err(Error::Sandbox(format!(
                    "unknown wrapper argument `{other}`"
                )))
            }
        }
        i += 2;
    }
    Err(Error::Sandbox(
        "missing `--` before the agent command".into(),
    ))
}

/// Reads the report a wrapper wrote.
pub fn read_report(path: &Path) -> Result<Isolation> {
    let text = fs::read_to_string(path).map_err(|e| Error::io_at(path, e))?;
    serde_json::from_str(&text).map_err(|e| Error::Sandbox(format!("{}: {e}", path.display())))
}

/// Writes a wrapper's report through a temp name and a rename.
pub(crate) fn write_report(path: &Path, iso: &Isolation) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let json = serde_json::to_vec_pretty(iso).map_err(|e| Error::Sandbox(e.to_string()))?;
    fs::write(&tmp, json).map_err(|e| Error::io_at(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| Error::io_at(path, e))
}

#[cfg(target_os = "linux")]
fn cstring(s: &OsStr) -> Result<CString> {
    CString::new(s.as_bytes())
        .map_err(|_| Error::Sandbox(format!("NUL byte in `{}`", s.to_string_lossy())))
}

/// What the sandbox child reports through its status pipe before it execs the agent: one
/// fixed-size record of native-endian `i32`s, written with plain system calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg(target_os = "linux")]
struct ChildRecord {
    /// errno of making `/` private (0: done).
    private_errno: i32,
    /// errno of mounting the fresh `/proc` (0: done).
    proc_errno: i32,
    /// Landlock: 0 not attempted, 1 full, 2 partial, 3 not enforced, 4 error.
    landlock_code: i32,
    /// The ABI Landlock was enforced at.
    landlock_abi: i32,
    /// errno of a failed `restrict_self`.
    landlock_errno: i32,
    /// 1 when the child refused to start the agent.
    refused: i32,
    /// 0 mounted or not asked, else [`crate::overlay::describe_code`].
    overlay_code: i32,
    /// The system-call filter: [`SECCOMP_NOT_ASKED`], 0 installed, else the errno.
    seccomp: i32,
}

/// [`ChildRecord::seccomp`] when the mode does not ask for the filter.
#[cfg(target_os = "linux")]
const SECCOMP_NOT_ASKED: i32 = -1;

#[cfg(target_os = "linux")]
const REC_FIELDS: usize = 8;
#[cfg(target_os = "linux")]
const REC_LEN: usize = REC_FIELDS * 4;

#[cfg(target_os = "linux")]
impl ChildRecord {
    fn fields(&self) -> [i32; REC_FIELDS] {
        [
            self.private_errno,
            self.proc_errno,
            self.landlock_code,
            self.landlock_abi,
            self.landlock_errno,
            self.refused,
            self.overlay_code,
            self.seccomp,
        ]
    }

    fn to_bytes(self) -> [u8; REC_LEN] {
        let mut rec = [0u8; REC_LEN];
        for (i, v) in self.fields().iter().enumerate() {
            rec[i * 4..i * 4 + 4].copy_from_slice(&v.to_ne_bytes());
        }
        rec
    }

    fn from_bytes(rec: &[u8; REC_LEN]) -> ChildRecord {
        let f = |i: usize| i32::from_ne_bytes(rec[i * 4..i * 4 + 4].try_into().unwrap_or_default());
        ChildRecord {
            private_errno: f(0),
            proc_errno: f(1),
            landlock_code: f(2),
            landlock_abi: f(3),
            landlock_errno: f(4),
            refused: f(5),
            overlay_code: f(6),
            seccomp: f(7),
        }
    }
}

/// The agent's program and its argv/envp as C arrays, built before the clone (the child
/// makes no allocation).
#[cfg(target_os = "linux")]
struct AgentExec {
    program: PathBuf,
    prog_c: CString,
    _argv_c: Vec<CString>,
    _envp_c: Vec<CString>,
    argv_p: Vec<*const libc::c_char>,
    envp_p: Vec<*const libc::c_char>,
}

#[cfg(target_os = "linux")]
impl AgentExec {
    /// Resolves `agent_argv[0]` on `PATH` and builds the exec arrays from this process's
    /// environment (the runner's allowlisted one).
    fn prepare(agent_argv: &[OsString], path_var: Option<&OsStr>) -> Result<AgentExec> {
        let program = resolve_program(&agent_argv[0], path_var).ok_or_else(|| {
            Error::Sandbox(format!(
                "agent program `{}` not found on PATH",
                agent_argv[0].to_string_lossy()
            ))
        })?;
        let prog_c = cstring(program.as_os_str())?;
        let argv_c: Vec<CString> = agent_argv
            .iter()
            .map(|a| cstring(a))
            .collect::<Result<_>>()?;
        let envp_c: Vec<CString> = std::env::vars_os()
            .map(|(k, v)| {
                let mut kv = k;
                kv.push("=");
                kv.push(v);
                cstring(&kv)
            })
            .collect::<Result<_>>()?;
        let mut argv_p: Vec<*const libc::c_char> = argv_c.iter().map(|c| c.as_ptr()).collect();
        argv_p.push(std::ptr::null());
        let mut envp_p: Vec<*const libc::c_char> = envp_c.iter().map(|c| c.as_ptr()).collect();
        envp_p.push(std::ptr::null());
        Ok(AgentExec {
            program,
            prog_c,
            _argv_c: argv_c,
            _envp_c: envp_c,
            argv_p,
            envp_p,
        })
    }
}

/// What the sandbox child is to do between `clone` and `exec`, fixed before the clone.
#[cfg(target_os = "linux")]
struct ChildPlan<'a> {
    flags: libc::c_int,
    /// `full`: any layer missing refuses the agent.
    strict: bool,
    /// Landlock was asked for and its ruleset could not even be built.
    landlock_failed_before: bool,
    /// Install the system-call filter ([`crate::seccomp`]): `auto` and `full`.
    seccomp: bool,
    overlay: Option<&'a crate::overlay::PreparedOverlay>,
    exec: &'a AgentExec,
}

/// The sandbox child just started by [`start_sandbox_child`].
#[cfg(target_os = "linux")]
struct StartedChild {
    pid: libc::pid_t,
    flags: libc::c_int,
    /// Read end of the child's status pipe ([`ChildRecord`], then an exec errno).
    status: OwnedFd,
}

/// The wrapper body: enters the layers the mode asks for, runs the agent, writes the
/// report and returns the exit code to exit with (the agent's, or 128+signal,
/// [`EXIT_SANDBOX_REFUSED`], [`EXIT_EXEC_FAILED`]).
pub fn run_sandboxed(req: &SandboxRequest, agent_argv: &[OsString]) -> Result<i32> {
    run_sandboxed_with(req, agent_argv, wait_status)
}

/// [`run_sandboxed`], waiting for the agent with `wait_agent` (pid -> wait status): the
/// per-dispatch reaper waits for the agent's whole tree ([`crate::reap::supervise`]).
#[cfg(target_os = "linux")]
pub fn run_sandboxed_with(
    req: &SandboxRequest,
    agent_argv: &[OsString],
    wait_agent: fn(libc::pid_t) -> std::io::Result<libc::c_int>,
) -> Result<i32> {
    let path_var = std::env::var_os("PATH");
    let exec = AgentExec::prepare(agent_argv, path_var.as_deref())?;
    let mut iso = Isolation::requested(req.mode);
    let mut ruleset = landlock_ruleset_for(req, agent_argv, path_var.as_deref(), &mut iso);
    let overlay = req
        .overlay
        .as_ref()
        .map(crate::overlay::OverlayLayers::prepare)
        .transpose()?;
    let landlock_failed_before = req.mode.wants_landlock() && ruleset.is_none();
    let plan = |flags| ChildPlan {
        flags,
        strict: req.mode == SandboxMode::Full,
        landlock_failed_before,
        seccomp: req.mode.wants_namespaces(),
        overlay: overlay.as_ref(),
        exec: &exec,
    };
    let child = start_sandbox_child(req.mode, plan, &mut ruleset, &mut iso)?;
    drop(ruleset);
    record_namespaces(&mut iso, req.mode, child.flags);

    let (record, exec_errno) = read_child_status(&child.status);
    // The pipe closes on exec (close-on-exec) or carries exec's errno: either way setup is over.
    let setup_done_us = unix_now_us();
    drop(child.status);
    let wait = || {
        wait_agent(child.pid)
            .map_err(|e| Error::os(format!("waiting for sandbox child {}", child.pid), e))
    };
    let Some(record) = record else {
        wait()?;
        iso.refused = true;
        iso.missing
            .push("sandbox child ended before reporting".into());
        iso.compute_level();
        write_report(&req.report, &iso)?;
        return Ok(EXIT_SANDBOX_REFUSED);
    };
    record_child_layers(&mut iso, req.mode, child.flags, &record);
    match exec_errno {
        Some(errno) => record_exec_failure(&mut iso, &exec.program, errno),
        None => iso.exec_unix_us = Some(setup_done_us),
    }
    iso.compute_level();
    // Written before the wait: the agent is running by now, and a wrapper killed by a
    // timeout must still leave the level its agent ran under.
    write_report(&req.report, &iso)?;
    let status = wait()?;
    iso.agent_end_unix_us = Some(unix_now_us());
    write_report(&req.report, &iso)?;
    Ok(exit_code_of(status))
}

/// Phase 1: the Landlock ruleset for this agent (`None` when the mode asks for none or it
/// cannot be built; the reason goes into `iso`).
#[cfg(target_os = "linux")]
fn landlock_ruleset_for(
    req: &SandboxRequest,
    agent_argv: &[OsString],
    path_var: Option<&OsStr>,
    iso: &mut Isolation,
) -> Option<RulesetCreated> {
    if !req.mode.wants_landlock() {
        return None;
    }
    if let Err(e) = landlock_abi() {
        iso.missing.push(format!("landlock: {e}"));
        return None;
    }
    let allowed = allowed_paths(req, agent_argv, path_var);
    iso.program_refusals = allowed.program_refusals.clone();
    if req.mode == SandboxMode::Full && !allowed.program_refusals.is_empty() {
        // A read rule the agent needs would expose a denied path: `full` never runs it.
        for why in &allowed.program_refusals {
            iso.missing.push(format!("read rule refused: {why}"));
        }
        return None;
    }
    match build_ruleset(&allowed) {
        Ok(r) => Some(r),
        Err(e) => {
            iso.missing.push(format!("landlock: {e}"));
            None
        }
    }
}

/// Phase 2: clones the sandbox child, trying user + PID + mount namespaces, then PID +
/// mount, then none (`auto`/`full`; other modes: none only), maps its ids and lets it go.
#[cfg(target_os = "linux")]
fn start_sandbox_child<'a>(
    mode: SandboxMode,
    plan: impl Fn(libc::c_int) -> ChildPlan<'a>,
    ruleset: &mut Option<RulesetCreated>,
    iso: &mut Isolation,
) -> Result<StartedChild> {
    let attempts: &[libc::c_int] = if mode.wants_namespaces() {
        &[NS_FULL, NS_PRIV, 0]
    } else {
        &[0]
    };
    for &flags in attempts {
        let (sync_r, sync_w) = pipe_cloexec().map_err(|e| Error::os("pipe", e))?;
        let (st_r, st_w) = pipe_cloexec().map_err(|e| Error::os("pipe", e))?;
        let pid = match clone_with(flags) {
            Ok(p) => p,
            Err(e) if flags != 0 => {
                iso.missing.push(format!("{}: clone: {e}", ns_label(flags)));
                continue;
            }
            Err(e) => return Err(Error::os("fork of the sandbox child", e)),
        };
        if pid == 0 {
            drop(sync_w);
            drop(st_r);
            sandbox_child(&plan(flags), ruleset, &sync_r, &st_w);
        }
        drop(sync_r);
        drop(st_w);
        if flags & libc::CLONE_NEWUSER != 0 {
            if let Err(e) = write_id_maps(pid) {
                kill_and_reap(pid);
                iso.missing
                    .push(format!("{}: uid/gid map: {e}", ns_label(flags)));
                continue;
            }
        }
        write_all_raw(sync_w.as_raw_fd(), &[1]);
        return Ok(StartedChild {
            pid,
            flags,
            status: st_r,
        });
    }
    Err(Error::Sandbox("no sandbox child could be started".into()))
}

/// The sandbox child, from `clone` to `exec`: only system calls (plus the Landlock
/// crate's rule calls). Never returns.
#[cfg(target_os = "linux")]
fn sandbox_child(
    plan: &ChildPlan<'_>,
    ruleset: &mut Option<RulesetCreated>,
    go: &OwnedFd,
    status: &OwnedFd,
) -> ! {
    die_with_the_wrapper();
    let mut b = [0u8; 1];
    if read_full(go, &mut b) != 1 {
        // SAFETY: leave the child without unwinding into the parent's code.
        unsafe { libc::_exit(EXIT_SANDBOX_REFUSED) };
    }
    let mut rec = ChildRecord::default();
    if plan.flags & libc::CLONE_NEWNS != 0 {
        (rec.private_errno, rec.proc_errno) = mount_fresh_proc();
    }
    rec.overlay_code = mount_overlay_in_child(plan.overlay, plan.flags, rec.private_errno);
    if let Some(rs) = ruleset.take() {
        (rec.landlock_code, rec.landlock_abi, rec.landlock_errno) =
            restrict_self_in_child(rs, plan.overlay, rec.overlay_code);
    }
    rec.seccomp = if plan.seccomp {
        crate::seccomp::install()
    } else {
        SECCOMP_NOT_ASKED
    };
    let ns_missing = plan.flags != NS_FULL || rec.private_errno != 0 || rec.proc_errno != 0;
    let layer_missing =
        ns_missing || plan.landlock_failed_before || rec.landlock_code != 1 || rec.seccomp != 0;
    // An overlay checkout that is not mounted is an empty folder: never run in it.
    let refused = plan.strict && layer_missing || rec.overlay_code != 0;
    rec.refused = refused as i32;
    write_all_raw(status.as_raw_fd(), &rec.to_bytes());
    if refused {
        // SAFETY: as above.
        unsafe { libc::_exit(EXIT_SANDBOX_REFUSED) };
    }
    // SAFETY: argv/envp are NUL-terminated arrays of valid C strings built before the clone.
    unsafe {
        libc::execve(
            plan.exec.prog_c.as_ptr(),
            plan.exec.argv_p.as_ptr(),
            plan.exec.envp_p.as_ptr(),
        )
    };
    let e = errno();
    write_all_raw(status.as_raw_fd(), &e.to_ne_bytes());
    // SAFETY: as above.
    unsafe { libc::_exit(EXIT_EXEC_FAILED) };
}

/// In the child: the agent dies with the wrapper. The runner's timeout signals the
/// wrapper's process group, which an agent leaves with `setsid`; as PID 1 of its own
/// namespace it would then outlive the round. Set before the go-ahead read: a wrapper that
/// died earlier shows as EOF there.
#[cfg(target_os = "linux")]
fn die_with_the_wrapper() {
    // SAFETY: prctl with integer arguments only.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) };
}

/// In the child: adds the rule on the fresh `/proc` (and the mounted overlay) and
/// restricts itself. Returns (code, ABI, errno) as in [`ChildRecord`].
#[cfg(target_os = "linux")]
fn restrict_self_in_child(
    rs: RulesetCreated,
    overlay: Option<&crate::overlay::PreparedOverlay>,
    overlay_code: i32,
) -> (i32, i32, i32) {
    // SAFETY: open(2) with a static path; the fd is handed to the rule.
    let fd = unsafe { libc::open(c"/proc".as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    let rs = if fd >= 0 {
        // SAFETY: fd was just opened and is owned here.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        rs.add_rule(PathBeneath::new(
            owned,
            AccessFs::ReadFile | AccessFs::ReadDir,
        ))
    } else {
        Ok(rs)
    };
    let rs = rs.and_then(|r| allow_mounted_overlay(r, overlay, overlay_code));
    match rs.and_then(|r| r.restrict_self()) {
        Ok(st) => (
            match st.ruleset {
                RulesetStatus::FullyEnforced => 1,
                RulesetStatus::PartiallyEnforced => 2,
                RulesetStatus::NotEnforced => 3,
            },
            ABI::from(st.landlock) as i32,
            0,
        ),
        Err(_) => (4, 0, errno()),
    }
}

/// Phase 3: reads the child's record and, after it, the errno of a failed exec (none when
/// the exec succeeded and closed the pipe).
#[cfg(target_os = "linux")]
fn read_child_status(fd: &OwnedFd) -> (Option<ChildRecord>, Option<i32>) {
    let mut rec = [0u8; REC_LEN];
    if read_full(fd, &mut rec) != REC_LEN {
        return (None, None);
    }
    let mut exec_errno = [0u8; 4];
    let errno = (read_full(fd, &mut exec_errno) == 4).then(|| i32::from_ne_bytes(exec_errno));
    (Some(ChildRecord::from_bytes(&rec)), errno)
}

/// Which namespaces the started child entered.
#[cfg(target_os = "linux")]
fn record_namespaces(iso: &mut Isolation, mode: SandboxMode, flags: libc::c_int) {
    iso.userns = flags & libc::CLONE_NEWUSER != 0;
    iso.pidns = flags & libc::CLONE_NEWPID != 0;
    if !iso.userns && mode.wants_namespaces() && !iso.missing.iter().any(|m| m.starts_with("user"))
    {
        iso.missing.push("user namespace: not entered".into());
    }
}

/// Phase 4: what the child applied, from its record, into the report.
#[cfg(target_os = "linux")]
fn record_child_layers(
    iso: &mut Isolation,
    mode: SandboxMode,
    flags: libc::c_int,
    rec: &ChildRecord,
) {
    if rec.overlay_code != 0 {
        iso.missing.push(format!(
            "overlay checkout: {}",
            crate::overlay::describe_code(rec.overlay_code)
        ));
    }
    if flags & libc::CLONE_NEWNS != 0 {
        if rec.private_errno != 0 {
            iso.missing.push(format!(
                "fresh /proc: making / private: {}",
                describe_errno(rec.private_errno)
            ));
        } else if rec.proc_errno != 0 {
            iso.missing.push(format!(
                "fresh /proc: mount: {}",
                describe_errno(rec.proc_errno)
            ));
        } else {
            iso.mountns_proc = true;
        }
    } else if mode.wants_namespaces() {
        iso.missing.push("fresh /proc: no mount namespace".into());
    }
    if mode.wants_landlock() {
        iso.landlock = Some(LandlockApplied {
            abi: rec.landlock_abi,
            status: match rec.landlock_code {
                1 => "fully_enforced",
                2 => "partially_enforced",
                _ => "not_enforced",
            }
            .into(),
        });
        match rec.landlock_code {
            2 => iso.missing.push(format!(
                "landlock: partially enforced at ABI {} (ABI 6 scopes abstract UNIX sockets and signals)",
                rec.landlock_abi
            )),
            3 => iso
                .missing
                .push("landlock: not enforced by this kernel".into()),
            4 => iso.missing.push(format!(
                "landlock: restrict_self: {}",
                describe_errno(rec.landlock_errno)
            )),
            _ => {}
        }
    }
    match rec.seccomp {
        SECCOMP_NOT_ASKED => {}
        0 => iso.seccomp = true,
        e => iso.missing.push(format!(
            "seccomp (UNIX sockets, TIOCSTI): {}",
            describe_errno(e)
        )),
    }
    iso.refused = rec.refused != 0;
}

/// Why `exec` of the agent failed, with the Landlock rule that explains an `EACCES`.
#[cfg(target_os = "linux")]
fn record_exec_failure(iso: &mut Isolation, program: &Path, errno: i32) {
    let rule = if iso.program_refusals.is_empty() {
        if errno == libc::EACCES && iso.landlock.is_some() {
            " (Landlock: the program's folder got no read+execute rule; run it from a folder outside the repository, the out-dir and the inputs, or use --sandbox none)".to_string()
        } else {
            String::new()
        }
    } else {
        format!(
            " (Landlock: {}; move it out of that folder, or use --sandbox none)",
            iso.program_refusals.join("; ")
        )
    };
    iso.exec_error = Some(format!(
        "exec {}: {}{rule}",
        program.display(),
        describe_errno(errno)
    ));
}

/// The wrapper's exit code for the agent's wait status.
pub(crate) fn exit_code_of(status: libc::c_int) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else if libc::WIFSIGNALED(status) {
        128 + libc::WTERMSIG(status)
    } else {
        EXIT_SANDBOX_REFUSED
    }
}

#[cfg(target_os = "linux")]
fn ns_label(flags: libc::c_int) -> &'static str {
    if flags & libc::CLONE_NEWUSER != 0 {
        "user namespace"
    } else {
        "pid+mount namespace"
    }
}

/// Entry point of the hidden `harness __sandbox` subcommand: parses `args` (everything
/// after `__sandbox`), runs the agent sandboxed and returns the exit code. Setup errors
/// go to stderr with [`EXIT_SANDBOX_REFUSED`].
pub fn wrapper_main(args: &[OsString]) -> i32 {
    let run = || -> Result<i32> {
        let (req, agent) = parse_wrapper_args(args)?;
        run_sandboxed(&req, &agent)
    };
    match run() {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "harness sandbox: {e}");
            EXIT_SANDBOX_REFUSED
        }
    }
}

// ---------------------------------------------------------------------------------
// Overlay checkouts (issue 14): kept apart from the wrapper's body.

fn push_overlay_args(v: &mut Vec<OsString>, overlay: Option<&crate::overlay::OverlayLayers>) {
    if let Some(o) = overlay {
        for (flag, p) in [
            ("--overlay-lower", &o.lower),
            ("--overlay-stage", &o.stage),
            ("--overlay-upper", &o.upper),
            ("--overlay-work", &o.work),
        ] {
            v.push(flag.into());
            v.push(p.clone().into_os_string());
        }
    }
}

fn overlay_from_args(
    args: &[(String, PathBuf)],
    checkout: Option<PathBuf>,
) -> Result<Option<crate::overlay::OverlayLayers>> {
    if args.is_empty() {
        return Ok(None);
    }
    let get = |n: &str| {
        args.iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| Error::Sandbox(format!("missing {n}")))
    };
    Ok(Some(crate::overlay::OverlayLayers {
        lower: get("--overlay-lower")?,
        stage: get("--overlay-stage")?,
        upper: get("--overlay-upper")?,
        work: get("--overlay-work")?,
        target: checkout.ok_or_else(|| Error::Sandbox("missing --checkout".into()))?,
    }))
}

/// In the sandbox child: mounts the overlay checkout when one was asked for. Needs the private
/// mount namespace the child has just made; without one it is refused (code 5000).
#[cfg(target_os = "linux")]
fn mount_overlay_in_child(
    overlay: Option<&crate::overlay::PreparedOverlay>,
    flags: libc::c_int,
    priv_e: i32,
) -> i32 {
    match overlay {
        None => 0,
        Some(_) if flags & libc::CLONE_NEWNS == 0 || priv_e != 0 => 5000 + libc::EPERM,
        Some(o) => o.mount_in_child(),
    }
}

/// Whether an overlay can be mounted in a sandbox here: tried for real, in a short-lived child
/// in fresh user + mount namespaces, on layers made under `scratch` (removed after).
#[cfg(target_os = "linux")]
pub fn probe_overlay(scratch: &Path) -> std::result::Result<(), String> {
    let dir = scratch.join("overlay-probe");
    let _ = crate::checkout::remove_tree(&dir);
    fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = probe_overlay_in(&dir);
    let _ = crate::checkout::remove_tree(&dir);
    result
}

#[cfg(target_os = "linux")]
fn probe_overlay_in(dir: &Path) -> std::result::Result<(), String> {
    let lower = dir.join("lower");
    fs::create_dir(&lower).map_err(|e| e.to_string())?;
    fs::write(lower.join("f"), b"x").map_err(|e| e.to_string())?;
    let target = dir.join("t");
    let layers =
        crate::overlay::OverlayLayers::create(&lower, dir, &target).map_err(|e| e.to_string())?;
    let prepared = layers.prepare().map_err(|e| e.to_string())?;
    let check = CString::new(target.join("f").as_os_str().as_bytes()).map_err(|e| e.to_string())?;
    let (sync_r, sync_w) = pipe_cloexec().map_err(|e| format!("pipe: {e}"))?;
    let (st_r, st_w) = pipe_cloexec().map_err(|e| format!("pipe: {e}"))?;
    let pid = clone_with(NS_FULL).map_err(|e| format!("clone: {e}"))?;
    if pid == 0 {
        let mut b = [0u8; 1];
        if read_full(&sync_r, &mut b) != 1 {
            // SAFETY: leaving the forked child without running destructors.
            unsafe { libc::_exit(2) };
        }
        let (p, _) = mount_fresh_proc();
        let mut code = mount_overlay_in_child(Some(&prepared), NS_FULL, p);
        // SAFETY: access(2) on a C string built before the clone.
        if code == 0 && unsafe { libc::access(check.as_ptr(), libc::R_OK) } != 0 {
            code = 6000 + errno();
        }
        write_all_raw(st_w.as_raw_fd(), &code.to_ne_bytes());
        // SAFETY: as above.
        unsafe { libc::_exit(0) };
    }
    drop(sync_r);
    drop(st_w);
    if let Err(e) = write_id_maps(pid) {
        kill_and_reap(pid);
        return Err(format!("uid/gid map: {e}"));
    }
    write_all_raw(sync_w.as_raw_fd(), &[1]);
    drop(sync_w);
    let mut rec = [0u8; 4];
    let got = read_full(&st_r, &mut rec);
    let _ = wait_status(pid);
    match (got, i32::from_ne_bytes(rec)) {
        (4, 0) => Ok(()),
        (4, code) => Err(crate::overlay::describe_code(code)),
        _ => Err("probe child ended without reporting".into()),
    }
}

/// Landlock skips the folder a mount covers when it walks up a path, so the rule on the
/// checkout folder (opened before the overlay was mounted on it) does not reach the overlay:
/// the child adds the same rule on the mounted overlay's root. Between `clone` and `exec`.
#[cfg(target_os = "linux")]
fn allow_mounted_overlay(
    rs: RulesetCreated,
    overlay: Option<&crate::overlay::PreparedOverlay>,
    ovl_code: i32,
) -> std::result::Result<RulesetCreated, landlock::RulesetError> {
    let Some(o) = overlay.filter(|_| ovl_code == 0) else {
        return Ok(rs);
    };
    // SAFETY: open(2) of a C string built before the clone; the fd is handed to the rule.
    let fd = unsafe { libc::open(o.target().as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if fd < 0 {
        return Ok(rs);
    }
    // SAFETY: fd was just opened and is owned here.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    rs.add_rule(PathBeneath::new(owned, AccessFs::from_all(TARGET_ABI)))
}
