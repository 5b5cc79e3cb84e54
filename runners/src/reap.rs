//! Finding and ending what an agent left behind (issue 12): the processes that still hold
//! a dispatch's output pipes after the agent ended, and the descendants a per-dispatch
//! reaper must kill before it exits. Everything here reads `/proc`, so what it decides
//! rests on which processes exist, never on how long a thread took to be scheduled.

use std::fs;
use std::os::fd::AsRawFd;

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
