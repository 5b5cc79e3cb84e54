//! The macOS sandbox: a Seatbelt profile generated per dispatch and applied by
//! `/usr/bin/sandbox-exec -p PROFILE -D NAME=PATH … program args…`.
//!
//! The generator ([`profile`]) is pure and compiled on every platform, so what a profile
//! allows and denies is tested on Linux too. Every path reaches Seatbelt as a `-D`
//! parameter, named in the profile by `(param "NAME")`: no path is ever spliced into the
//! profile's text, so quotes, backslashes, parentheses and non-ASCII in a path cannot
//! change the profile. Running an agent under it is macOS-only (the end of this file).
//!
//! Seatbelt applies the **last** rule that matches an operation, so the profile is written
//! in tiers, each overriding the ones before it:
//! 1. nothing (`deny default`); process basics; metadata (`stat`) anywhere, as Landlock
//!    leaves it on Linux; a few devices; IP networking; the system's DNS and log sockets;
//! 2. read + execute on the system folders;
//! 3. the user's home denied (contents, writes, exec);
//! 4. read + execute on the agent's runtime (which may lie inside the home);
//! 5. the rounds' state, out-dirs, inputs and the checkouts' temp root denied;
//! 6. read + write + execute on the dispatch's checkout, fresh home and private temp.
//!
//! Seatbelt cannot filter the network by host (the agent reaches any IP address, as on
//! Linux) and matches Unix-socket connects by path only: the profile allows none besides
//! the system's DNS and log sockets.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The program that applies a profile and execs the agent.
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The level a dispatch records when its agent ran under the profile.
pub const LEVEL_SEATBELT: &str = "seatbelt";

/// What one agent may reach and what it must never reach, as absolute, link-free paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatbeltLayout {
    /// System folders: read + execute.
    pub system: Vec<PathBuf>,
    /// The agent's runtime (its package, its interpreter's): read + execute, even inside
    /// the user's home.
    pub runtime: Vec<PathBuf>,
    /// The user's home: denied, except runtime folders inside it.
    pub private: Vec<PathBuf>,
    /// Never readable, writable or executable: the rounds' state, out-dirs, qset, seal,
    /// the checkouts' temp root (other checkouts).
    pub denied: Vec<PathBuf>,
    /// The dispatch's checkout, fresh home and private temp: read + write + execute.
    pub read_write: Vec<PathBuf>,
}

/// A generated profile: its text and the `-D` parameters its `(param …)` names stand for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatbeltProfile {
    /// The SBPL text (`sandbox-exec -p`).
    pub text: String,
    /// `(name, path)` pairs (`sandbox-exec -D name=path`).
    pub params: Vec<(String, String)>,
    /// Runtime folders left out, each with why (they would re-open a denied path).
    pub dropped: Vec<String>,
}

impl SeatbeltProfile {
    /// The argv that runs `program args…` under this profile.
    pub fn sandbox_exec_argv(&self, program: &Path, args: &[OsString]) -> Vec<OsString> {
        let mut v: Vec<OsString> = vec![SANDBOX_EXEC.into(), "-p".into(), self.text.clone().into()];
        for (k, p) in &self.params {
            v.push("-D".into());
            v.push(format!("{k}={p}").into());
        }
        v.push(program.as_os_str().to_owned());
        v.extend(args.iter().cloned());
        v
    }
}

/// The rules every profile starts with: process basics, the services a Node, Python or Go
/// runtime asks for at start (user lookup, TLS trust, DNS configuration, logging), devices,
/// IP networking. Constant text: no path of the layout appears here.
const BASE: &str = r#"(version 1)
(deny default)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow user-preference-read)
(allow mach-host*)
(allow ipc-posix-sem)
(allow ipc-posix-shm-read* (ipc-posix-name "apple.shm.notification_center"))
(allow sysctl-read
  (sysctl-name-prefix "hw.")
  (sysctl-name-prefix "machdep.cpu.")
  (sysctl-name-prefix "kern.os")
  (sysctl-name-prefix "kern.proc.pid.")
  (sysctl-name "kern.argmax")
  (sysctl-name "kern.hostname")
  (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.secure_kernel")
  (sysctl-name "kern.usrstack64")
  (sysctl-name "kern.version")
  (sysctl-name "sysctl.proc_cputype")
  (sysctl-name "vm.loadavg"))
(allow mach-lookup
  (global-name "com.apple.bsd.dirhelper")
  (global-name "com.apple.cfprefsd.agent")
  (global-name "com.apple.cfprefsd.daemon")
  (global-name "com.apple.logd")
  (global-name "com.apple.networkd")
  (global-name "com.apple.ocspd")
  (global-name "com.apple.PowerManagement.control")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.system.DirectoryService.libinfo_v1")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.trustd")
  (global-name "com.apple.trustd.agent"))
(allow file-read-metadata)
(allow file-read* file-write-data
  (literal "/dev/null")
  (literal "/dev/zero"))
(allow file-read*
  (literal "/dev/random")
  (literal "/dev/urandom"))
(allow file-read-data file-write-data (subpath "/dev/fd"))
(allow system-socket)
(allow network-outbound (remote ip "*:*"))
(allow network-bind network-inbound (local ip "*:*"))
(allow network-outbound
  (literal "/private/var/run/mDNSResponder")
  (literal "/private/var/run/syslog"))
"#;

/// Operations a denied folder loses (metadata stays, as under Landlock).
const DENY_OPS: &str =
    "file-read-data file-read-xattr file-write* process-exec file-map-executable";
/// Operations a system or runtime folder gets.
const READ_EXEC_OPS: &str = "file-read* process-exec file-map-executable";
/// Operations the dispatch's own folders get.
const READ_WRITE_OPS: &str = "file-read* file-write* process-exec file-map-executable";

/// Whether `inner` is `outer` or lies below it (component-wise, never by string prefix).
fn within(inner: &Path, outer: &Path) -> bool {
    inner.starts_with(outer)
}

/// The path as text for a `-D` parameter: absolute, UTF-8 and free of NUL, or an error
/// naming it.
fn param_value(p: &Path) -> Result<String> {
    let s = p.to_str().ok_or_else(|| {
        Error::Sandbox(format!(
            "Seatbelt parameters are text: `{}` is not UTF-8",
            p.display()
        ))
    })?;
    if !p.is_absolute() || s.contains('\0') {
        return Err(Error::Sandbox(format!(
            "Seatbelt needs an absolute path without NUL, got `{}`",
            p.display()
        )));
    }
    Ok(s.to_string())
}

/// Generates the profile for `layout` (see the module doc for its tiers). Refuses a layout
/// whose read/write folders would contain a denied path or the user's home (tier 6 would
/// re-open it); leaves out, with the reason, runtime folders that would contain the home or
/// touch a denied path.
pub fn profile(layout: &SeatbeltLayout) -> Result<SeatbeltProfile> {
    let mut text = String::from(BASE);
    let mut params: Vec<(String, String)> = Vec::new();
    let mut dropped = Vec::new();
    for rw in &layout.read_write {
        if let Some(d) = layout
            .denied
            .iter()
            .chain(&layout.private)
            .find(|d| within(d, rw))
        {
            return Err(Error::Sandbox(format!(
                "the writable folder {} holds the denied path {}",
                rw.display(),
                d.display()
            )));
        }
    }
    let runtime: Vec<PathBuf> = layout
        .runtime
        .iter()
        .filter(|r| {
            let clash = layout
                .private
                .iter()
                .find(|h| within(h, r))
                .or_else(|| layout.denied.iter().find(|d| within(d, r) || within(r, d)));
            if let Some(c) = clash {
                dropped.push(format!(
                    "runtime folder {} left out: it would open {}",
                    r.display(),
                    c.display()
                ));
            }
            clash.is_none()
        })
        .cloned()
        .collect();
    let tiers: [(&str, &[PathBuf], &str, &str); 5] = [
        ("S", &layout.system, "allow", READ_EXEC_OPS),
        ("P", &layout.private, "deny", DENY_OPS),
        ("X", &runtime, "allow", READ_EXEC_OPS),
        ("D", &layout.denied, "deny", DENY_OPS),
        ("W", &layout.read_write, "allow", READ_WRITE_OPS),
    ];
    for (prefix, paths, verb, ops) in tiers {
        let mut names = Vec::new();
        for p in paths {
            let value = param_value(p)?;
            if let Some((name, _)) = params
                .iter()
                .find(|(n, v)| n.starts_with(prefix) && *v == value)
            {
                names.push(name.clone());
                continue;
            }
            let name = format!("{prefix}{}", names.len());
            params.push((name.clone(), value));
            names.push(name);
        }
        names.dedup();
        if names.is_empty() {
            continue;
        }
        text.push_str(&format!("({verb} {ops}"));
        for n in names {
            text.push_str(&format!("\n  (subpath (param \"{n}\"))"));
        }
        text.push_str(")\n");
    }
    Ok(SeatbeltProfile {
        text,
        params,
        dropped,
    })
}

/// The layers `--sandbox full` needs on macOS that are missing (Seatbelt is the only one).
pub fn missing_for_full(caps: &crate::sandbox::Capabilities) -> Vec<String> {
    if caps.seatbelt {
        Vec::new()
    } else {
        vec![format!(
            "Seatbelt ({})",
            caps.seatbelt_error.as_deref().unwrap_or("unavailable")
        )]
    }
}

#[cfg(target_os = "macos")]
pub use macos::{landlock_abi, probe, probe_overlay, run_sandboxed_with};

/// Running agents under the profile (macOS only).
#[cfg(target_os = "macos")]
mod macos {
    use std::ffi::{OsStr, OsString};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use super::{profile, SeatbeltLayout, LEVEL_SEATBELT, SANDBOX_EXEC};
    use crate::error::{Error, Result};
    use crate::process::resolve_program;
    use crate::sandbox::{
        allowed_paths, exit_code_of, unix_now_us, write_report, Capabilities, Isolation,
        SandboxMode, SandboxRequest, EXIT_EXEC_FAILED, EXIT_SANDBOX_REFUSED,
    };

    /// System folders an agent reads and executes from on macOS: `/usr/bin/git` and friends
    /// are shims that run the Command Line Tools chosen by `xcode_select_link`.
    const SYSTEM_DIRS: [&str; 11] = [
        "/usr",
        "/bin",
        "/sbin",
        "/System",
        "/Library/Apple",
        "/Library/Developer/CommandLineTools",
        "/private/etc",
        "/private/var/db/timezone",
        "/private/var/db/xcode_select_link",
        "/private/var/select",
        "/opt/homebrew",
    ];

    /// Landlock is a Linux kernel interface.
    pub fn landlock_abi() -> std::result::Result<i32, String> {
        Err("Landlock is a Linux kernel feature (the sandbox here is Seatbelt)".into())
    }

    /// Overlay mounts need Linux mount namespaces: checkouts here are copies.
    pub fn probe_overlay(_scratch: &Path) -> std::result::Result<(), String> {
        Err("overlay checkouts are Linux-only; checkouts here are copies".into())
    }

    /// Whether `sandbox-exec` applies a profile here: tried with a short-lived child (it
    /// fails inside another sandbox, where profiles cannot nest).
    fn seatbelt_works() -> std::result::Result<(), String> {
        if !Path::new(SANDBOX_EXEC).exists() {
            return Err(format!("{SANDBOX_EXEC} not found"));
        }
        let out = Command::new(SANDBOX_EXEC)
            .args(["-p", "(version 1)(allow default)", "/usr/bin/true"])
            .output()
            .map_err(|e| format!("{SANDBOX_EXEC}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{SANDBOX_EXEC} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// What this Mac offers: Seatbelt or not; the Linux layers never.
    pub fn probe() -> Capabilities {
        let linux_only = |what: &str| Some(format!("{what} is Linux-only"));
        let (seatbelt, seatbelt_error) = match seatbelt_works() {
            Ok(()) => (true, None),
            Err(e) => (false, Some(e)),
        };
        Capabilities {
            landlock_abi: None,
            landlock_error: landlock_abi().err(),
            userns: false,
            pidns: false,
            mount_proc: false,
            namespace_errors: Vec::new(),
            seccomp: false,
            seccomp_error: linux_only("the seccomp filter"),
            seatbelt,
            seatbelt_error,
        }
    }

    /// The user's real home (the runner has pointed `HOME` at the fresh one).
    fn user_home() -> Option<PathBuf> {
        let mut buf = vec![0 as libc::c_char; 16 * 1024];
        // SAFETY: getpwuid_r fills `pwd` with pointers into `buf`, which outlives their use.
        unsafe {
            let mut pwd: libc::passwd = std::mem::zeroed();
            let mut found: *mut libc::passwd = std::ptr::null_mut();
            let rc = libc::getpwuid_r(
                libc::getuid(),
                &mut pwd,
                buf.as_mut_ptr(),
                buf.len(),
                &mut found,
            );
            if rc != 0 || found.is_null() || pwd.pw_dir.is_null() {
                return None;
            }
            let dir = std::ffi::CStr::from_ptr(pwd.pw_dir);
            Some(PathBuf::from(
                <OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(dir.to_bytes()),
            ))
        }
    }

    fn canonical(paths: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = Vec::new();
        for p in paths {
            let c = std::fs::canonicalize(&p).unwrap_or(p);
            if !v.contains(&c) {
                v.push(c);
            }
        }
        v
    }

    /// The layout of one dispatch: the shared path logic ([`allowed_paths`]) for the runtime
    /// and the dispatch's folders, the macOS system folders, the request's forbidden folders
    /// and the user's home, all in their link-free forms (Seatbelt sees `/private/var`, not
    /// `/var`).
    fn layout_for(
        req: &SandboxRequest,
        agent: &[OsString],
        path_var: Option<&OsStr>,
    ) -> (SeatbeltLayout, Vec<String>) {
        let allowed = allowed_paths(req, agent, path_var);
        let layout = SeatbeltLayout {
            // A link (`/var/db/xcode_select_link`) and where it leads: reading the link is a
            // read of its own path.
            system: canonical(SYSTEM_DIRS.iter().map(PathBuf::from).filter(|p| p.exists()))
                .into_iter()
                .chain(
                    SYSTEM_DIRS
                        .iter()
                        .map(PathBuf::from)
                        .filter(|p| p.is_symlink()),
                )
                .collect(),
            runtime: canonical(allowed.read_exec),
            private: canonical(user_home()),
            denied: canonical(req.forbid.iter().cloned()),
            read_write: canonical(allowed.read_write),
        };
        (layout, allowed.program_refusals)
    }

    /// Runs the agent under the mode's sandbox (Seatbelt for `auto` and `full`, nothing for
    /// `none`; `landlock` is refused), waits with `wait_agent` and writes the report. Same
    /// contract as the Linux wrapper: the agent stays in the wrapper's process group, which
    /// the runner's timeout signals.
    pub fn run_sandboxed_with(
        req: &SandboxRequest,
        agent_argv: &[OsString],
        wait_agent: fn(libc::pid_t) -> std::io::Result<libc::c_int>,
    ) -> Result<i32> {
        let path_var = std::env::var_os("PATH");
        let program = resolve_program(&agent_argv[0], path_var.as_deref()).ok_or_else(|| {
            Error::Sandbox(format!(
                "agent program `{}` not found on PATH",
                agent_argv[0].to_string_lossy()
            ))
        })?;
        let mut iso = Isolation::requested(req.mode);
        let mut argv: Vec<OsString> = vec![program.clone().into_os_string()];
        argv.extend(agent_argv[1..].iter().cloned());
        match req.mode {
            SandboxMode::None => {}
            SandboxMode::Landlock => iso
                .missing
                .push("landlock: Linux-only (use auto or full for Seatbelt)".into()),
            SandboxMode::Auto | SandboxMode::Full => match seatbelt_works() {
                Err(e) => iso.missing.push(format!("seatbelt: {e}")),
                Ok(()) => {
                    let (layout, refusals) = layout_for(req, agent_argv, path_var.as_deref());
                    iso.program_refusals = refusals;
                    match profile(&layout) {
                        Ok(p) => {
                            iso.program_refusals.extend(p.dropped.iter().cloned());
                            argv = p.sandbox_exec_argv(&program, &agent_argv[1..]);
                            iso.seatbelt = true;
                        }
                        Err(e) => iso.missing.push(format!("seatbelt: {e}")),
                    }
                }
            },
        }
        if req.overlay.is_some() {
            iso.missing
                .push("overlay checkout: Linux-only, never mounted here".into());
        }
        iso.level = if iso.seatbelt {
            LEVEL_SEATBELT.into()
        } else {
            "none".into()
        };
        let strict = matches!(req.mode, SandboxMode::Full | SandboxMode::Landlock);
        if strict && !iso.missing.is_empty() || req.overlay.is_some() {
            iso.refused = true;
            write_report(&req.report, &iso)?;
            return Ok(EXIT_SANDBOX_REFUSED);
        }
        let child = match Command::new(&argv[0]).args(&argv[1..]).spawn() {
            Ok(c) => c,
            Err(e) => {
                iso.exec_error = Some(format!("exec {}: {e}", program.display()));
                write_report(&req.report, &iso)?;
                return Ok(EXIT_EXEC_FAILED);
            }
        };
        iso.exec_unix_us = Some(unix_now_us());
        // Written before the wait, so a wrapper killed by a timeout leaves its level.
        write_report(&req.report, &iso)?;
        let pid = child.id() as libc::pid_t;
        let status =
            wait_agent(pid).map_err(|e| Error::os(format!("waiting for the agent {pid}"), e))?;
        iso.agent_end_unix_us = Some(unix_now_us());
        write_report(&req.report, &iso)?;
        Ok(exit_code_of(status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Seatbelt would decide for `op` on `path` under `p`: the last rule of the profile
    /// that names the operation (exactly, or by a `*` family) and matches the path wins;
    /// nothing matching means the default. Interprets the forms [`profile`] writes.
    fn decide(p: &SeatbeltProfile, op: &str, path: &str) -> bool {
        let mut allowed = false;
        for rule in rules(&p.text) {
            let (verb, rest) = rule.split_once(' ').unwrap_or((rule.as_str(), ""));
            let ops: Vec<&str> = rest
                .split(|c: char| c == '(' || c.is_whitespace())
                .take_while(|w| !w.is_empty())
                .collect();
            let names_op = ops
                .iter()
                .any(|o| *o == op || o.strip_suffix('*').is_some_and(|f| op.starts_with(f)))
                || ops.first() == Some(&"default");
            if !names_op || !matches_path(p, rest, path) {
                continue;
            }
            allowed = verb == "allow";
        }
        allowed
    }

    /// The top-level `( … )` forms of a profile, without their outer parentheses.
    fn rules(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let (mut depth, mut cur, mut in_str) = (0, String::new(), false);
        for c in text.chars() {
            match c {
                '"' => in_str = !in_str,
                '(' if !in_str => {
                    depth += 1;
                    if depth == 1 {
                        cur.clear();
                        continue;
                    }
                }
                ')' if !in_str => {
                    depth -= 1;
                    if depth == 0 {
                        out.push(cur.trim().to_string());
                        continue;
                    }
                }
                _ => {}
            }
            if depth > 0 {
                cur.push(c);
            }
        }
        out
    }

    /// Whether a rule's filters match `path`: no path filter matches every path; a rule with
    /// only non-path filters (`remote ip`, `target`, …) matches no file path.
    fn matches_path(p: &SeatbeltProfile, rule: &str, path: &str) -> bool {
        let mut any_filter = false;
        let mut rest = rule;
        while let Some(i) = rest.find("(subpath (param \"") {
            any_filter = true;
            let tail = &rest[i + "(subpath (param \"".len()..];
            let name = &tail[..tail.find('"').unwrap()];
            let value = &p.params.iter().find(|(n, _)| n == name).unwrap().1;
            if Path::new(path).starts_with(value) {
                return true;
            }
            rest = tail;
        }
        for key in ["(literal \"", "(subpath \""] {
            let mut rest = rule;
            while let Some(i) = rest.find(key) {
                any_filter = true;
                let tail = &rest[i + key.len()..];
                let lit = &tail[..tail.find('"').unwrap()];
                if path == lit || key.starts_with("(subpath") && Path::new(path).starts_with(lit) {
                    return true;
                }
                rest = tail;
            }
        }
        !any_filter
            && !rule.contains("(remote ")
            && !rule.contains("(local ")
            && !rule.contains("(target ")
            && !rule.contains("(sysctl-")
            && !rule.contains("(global-name")
            && !rule.contains("(ipc-posix-name")
    }

    fn pb(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    /// A dispatch on a Mac: node installed with nvm inside the user's home, the checkouts'
    /// temp root under the per-user temp folder, the rounds' state under the home.
    fn layout() -> SeatbeltLayout {
        let root = "/private/var/folders/xy/T/harness-ab12";
        SeatbeltLayout {
            system: vec![pb("/usr"), pb("/bin"), pb("/System"), pb("/private/etc")],
            runtime: vec![pb("/Users/me/.nvm/versions/node/v22.1.0")],
            private: vec![pb("/Users/me")],
            denied: vec![
                pb(root),
                pb("/Users/me/.local/state/harness/rounds"),
                pb("/Users/me/work/out"),
                pb("/Users/me/work/repo"),
                pb("/Users/me/inputs/qset.toml"),
                pb("/usr/local/rounds"),
            ],
            read_write: vec![
                pb(&format!("{root}/k7q2/work")),
                pb(&format!("{root}/k7q2/home")),
                pb(&format!("{root}/k7q2/tmp")),
            ],
        }
    }

    const READ: &str = "file-read-data";
    const WRITE: &str = "file-write-data";
    const EXEC: &str = "process-exec";

    #[test]
    fn the_dispatch_folders_are_readable_writable_and_executable() {
        let p = profile(&layout()).unwrap();
        for f in ["work/src/main.rs", "home/.claude.json", "tmp/x"] {
            let f = format!("/private/var/folders/xy/T/harness-ab12/k7q2/{f}");
            for op in [READ, WRITE, EXEC, "file-write-create"] {
                assert!(decide(&p, op, &f), "{op} {f} denied\n{}", p.text);
            }
        }
    }

    #[test]
    fn system_folders_and_the_runtime_are_read_and_executed_never_written() {
        let p = profile(&layout()).unwrap();
        for f in [
            "/usr/bin/git",
            "/bin/sh",
            "/System/Library/Frameworks/x",
            "/private/etc/hosts",
            "/Users/me/.nvm/versions/node/v22.1.0/bin/node",
        ] {
            assert!(decide(&p, READ, f), "read {f}");
            assert!(decide(&p, EXEC, f), "exec {f}");
            assert!(!decide(&p, WRITE, f), "write {f}");
        }
    }

    #[test]
    fn the_rounds_state_inputs_other_checkouts_and_the_users_home_are_denied() {
        let p = profile(&layout()).unwrap();
        for f in [
            "/Users/me/.local/state/harness/rounds/r1/labelmap.json",
            "/Users/me/work/out/q1.txt",
            "/Users/me/work/repo/.harness/seal.md",
            "/Users/me/inputs/qset.toml",
            "/private/var/folders/xy/T/harness-ab12/m3z9/work/.seal/seal.md",
            "/private/var/folders/xy/T/harness-ab12/template/README.md",
            "/Users/me/.claude/CLAUDE.md",
            "/Users/me/.ssh/id_ed25519",
            "/Users/me/.nvm/versions/node/v20.0.0/bin/node",
            "/Volumes/backup/x",
            "/private/tmp/shared",
            "/usr/local/rounds/r1/labelmap.json",
        ] {
            for op in [READ, WRITE, EXEC, "file-read-xattr"] {
                assert!(!decide(&p, op, f), "{op} {f} allowed\n{}", p.text);
            }
        }
        // Stat stays possible everywhere, as under Landlock.
        assert!(decide(&p, "file-read-metadata", "/Users/me/work/out"));
    }

    #[test]
    fn a_runtime_folder_that_would_open_the_home_or_a_denied_path_is_left_out() {
        let mut l = layout();
        l.runtime = vec![
            pb("/Users"),
            pb("/Users/me"),
            pb("/Users/me/work"),
            pb("/Users/me/work/out/bin"),
            pb("/opt/tool"),
        ];
        let p = profile(&l).unwrap();
        assert_eq!(p.dropped.len(), 4, "{:?}", p.dropped);
        assert!(decide(&p, EXEC, "/opt/tool/bin/agent"));
        for f in [
            "/Users/me/.ssh/id",
            "/Users/me/work/out/q1.txt",
            "/Users/other/x",
        ] {
            assert!(!decide(&p, READ, f), "{f} allowed\n{}", p.text);
        }
    }

    #[test]
    fn a_writable_folder_holding_a_denied_path_is_refused() {
        let mut l = layout();
        l.read_write.push(pb("/Users/me/work"));
        let e = profile(&l).unwrap_err().to_string();
        assert!(e.contains("/Users/me/work/out"), "{e}");
        let mut l = layout();
        l.read_write.push(pb("/Users"));
        assert!(profile(&l).is_err());
    }

    #[test]
    fn unix_sockets_are_closed_but_for_the_system_dns_and_log() {
        let p = profile(&layout()).unwrap();
        let op = "network-outbound";
        assert!(decide(&p, op, "/private/var/run/mDNSResponder"));
        assert!(!decide(
            &p,
            op,
            "/private/var/folders/xy/T/harness-ab12/k7q2/tmp/s.sock"
        ));
        assert!(!decide(&p, op, "/Users/me/.ssh/agent.sock"));
        assert!(p
            .text
            .contains("(allow network-outbound (remote ip \"*:*\"))"));
    }

    #[test]
    fn paths_reach_seatbelt_as_parameters_never_as_profile_text() {
        let mut l = layout();
        let odd = "/Users/me/.nvm/na\"me\\ (x) ;é 日本\n/v1";
        l.runtime = vec![pb(odd)];
        let p = profile(&l).unwrap();
        for frag in ["na\"me", "\\ (x)", "日本", "/Users/me", "harness-ab12"] {
            assert!(!p.text.contains(frag), "{frag:?} spliced into the profile");
        }
        assert!(p.params.iter().any(|(_, v)| v == odd));
        let argv = p.sandbox_exec_argv(Path::new("/bin/node"), &["-e".into(), "1".into()]);
        assert_eq!(argv[0], SANDBOX_EXEC);
        assert_eq!(argv[1], "-p");
        assert_eq!(argv[2], OsString::from(p.text.clone()));
        let pos = argv
            .iter()
            .position(|a| a.to_str().is_some_and(|s| s.ends_with(odd)));
        let pos = pos.expect("the odd path is passed whole");
        assert_eq!(argv[pos - 1], "-D");
        let (name, value) = argv[pos].to_str().unwrap().split_once('=').unwrap();
        assert_eq!(value, odd);
        assert!(p.text.contains(&format!("(param \"{name}\")")));
        assert_eq!(&argv[argv.len() - 3..], &["/bin/node", "-e", "1"]);
        assert!(decide(&p, EXEC, &format!("{odd}/bin/node")));
    }

    #[test]
    fn a_path_that_is_not_utf8_or_not_absolute_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let mut l = layout();
        l.runtime = vec![PathBuf::from(std::ffi::OsStr::from_bytes(b"/opt/\xff/bin"))];
        assert!(profile(&l).unwrap_err().to_string().contains("not UTF-8"));
        let mut l = layout();
        l.system.push(pb("usr"));
        assert!(profile(&l).is_err());
    }

    #[test]
    fn full_is_refused_on_macos_without_seatbelt() {
        let caps = crate::sandbox::Capabilities {
            landlock_abi: None,
            landlock_error: None,
            userns: false,
            pidns: false,
            mount_proc: false,
            namespace_errors: vec![],
            seccomp: false,
            seccomp_error: None,
            seatbelt: false,
            seatbelt_error: Some("sandbox_apply: Operation not permitted".into()),
        };
        let m = missing_for_full(&caps);
        assert_eq!(m.len(), 1);
        assert!(m[0].contains("Operation not permitted"), "{m:?}");
        let ok = crate::sandbox::Capabilities {
            seatbelt: true,
            seatbelt_error: None,
            ..caps
        };
        assert!(missing_for_full(&ok).is_empty());
    }
}
