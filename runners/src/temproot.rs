//! The per-round temp root and per-dispatch folders (DESIGN §4): outside the out-dir and the
//! repository, mode 0700, named by labels only.

use std::fs::DirBuilder;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use crate::checkout::remove_tree;
use crate::error::{Error, Result};
use crate::label::Label;

/// The folder holding one round's template and checkouts. Not removed on drop: keeping or
/// removing checkouts is the caller's choice (`--keep-checkouts`); call [`TempRoot::remove`].
#[derive(Debug)]
pub struct TempRoot {
    path: PathBuf,
}

/// The folders of one dispatch: `<root>/<label>/{work,home,tmp}`, all mode 0700.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchDirs {
    /// `<root>/<label>`.
    pub root: PathBuf,
    /// The checkout (created empty; the checkout fills it). The agent's cwd.
    pub work: PathBuf,
    /// A fresh, empty HOME for the agent.
    pub home: PathBuf,
    /// A private TMPDIR for the agent.
    pub tmp: PathBuf,
}

fn mkdir_0700(path: &Path) -> Result<()> {
    DirBuilder::new()
        .mode(0o700)
        .create(path)
        .map_err(|e| Error::io("create dir", path, e))
}

impl TempRoot {
    /// Creates a fresh root under the system temp dir, refusing one that would lie inside any of
    /// `avoid` (the out-dir, the repository).
    pub fn create(avoid: &[&Path]) -> Result<TempRoot> {
        TempRoot::create_in(&std::env::temp_dir(), avoid)
    }

    /// Creates a fresh root (random label name, mode 0700) under `parent`.
    pub fn create_in(parent: &Path, avoid: &[&Path]) -> Result<TempRoot> {
        let parent = parent
            .canonicalize()
            .map_err(|e| Error::io("resolve", parent, e))?;
        for a in avoid {
            // A folder that does not exist yet (an out-dir about to be made) cannot contain the root,
            // but its parent chain still can: compare against the nearest existing ancestor.
            let a = std::path::absolute(a).map_err(|e| Error::io("resolve", *a, e))?;
            let resolved = a
                .ancestors()
                .find_map(|p| {
                    p.canonicalize()
                        .ok()
                        .map(|c| c.join(a.strip_prefix(p).unwrap()))
                })
                .unwrap_or_else(|| a.clone());
            if parent.starts_with(&resolved) {
                return Err(Error::TempRootInside {
                    root: parent,
                    inside: resolved,
                });
            }
        }
        loop {
            let path = parent.join(Label::random(&mut rand::thread_rng()).as_str());
            match DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    write_owner(&path)?;
                    return Ok(TempRoot { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io("create dir", path, e)),
            }
        }
    }

    /// The root folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lays out one dispatch's folders. Fails if the label's folder already exists: a folder is
    /// never shared or reused between dispatches.
    pub fn dispatch(&self, label: &Label) -> Result<DispatchDirs> {
        let root = self.path.join(label.as_str());
        let dirs = DispatchDirs {
            work: root.join("work"),
            home: root.join("home"),
            tmp: root.join("tmp"),
            root,
        };
        for d in [&dirs.root, &dirs.work, &dirs.home, &dirs.tmp] {
            mkdir_0700(d)?;
        }
        Ok(dirs)
    }

    /// A fresh, empty 0700 folder under the root with a random label name (e.g. for the template).
    pub fn fresh_dir(&self) -> Result<PathBuf> {
        loop {
            let path = self
                .path
                .join(Label::random(&mut rand::thread_rng()).as_str());
            match DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io("create dir", path, e)),
            }
        }
    }

    /// Removes the root and everything in it, read-only files and folders included.
    pub fn remove(self) -> Result<()> {
        remove_tree(&self.path)
    }
}

/// The owner marker's name inside a temp root: which process made it, so the next round can
/// tell the roots of dead rounds (with their seal copies) from those of running ones.
pub const OWNER_FILE: &str = "owner";

const OWNER_FORMAT: &str = "harness-temp-root/1";

#[cfg(target_os = "macos")]
use crate::platform::start_time;

/// Start time of a process (clock ticks since boot, `/proc/<pid>/stat` field 22): with the pid
/// it names one process, even after the pid is reused.
#[cfg(target_os = "linux")]
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(19)?.parse().ok()
}

/// Writes the owner marker of this process into `dir`.
pub fn write_owner(dir: &Path) -> Result<()> {
    let pid = std::process::id();
    let text = format!(
        "{OWNER_FORMAT} pid={pid} start={}\n",
        start_time(pid).unwrap_or(0)
    );
    let path = dir.join(OWNER_FILE);
    std::fs::write(&path, text).map_err(|e| Error::io("write", &path, e))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| Error::io("chmod", path, e))
}

/// Whether the process that wrote `dir`'s owner marker is still running; `None` when `dir` has
/// no marker of ours (not a temp root of this tool: never touched).
pub fn owner_alive(dir: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(dir.join(OWNER_FILE)).ok()?;
    let mut parts = text.split_whitespace();
    if parts.next()? != OWNER_FORMAT {
        return None;
    }
    let field = |p: Option<&str>, key: &str| -> Option<u64> { p?.strip_prefix(key)?.parse().ok() };
    let pid = field(parts.next(), "pid=")? as u32;
    let start = field(parts.next(), "start=")?;
    Some(match start_time(pid) {
        Some(now) => start == 0 || now == start,
        None => false,
    })
}

/// Removes, under `parent`, every folder carrying an owner marker whose process is gone (temp
/// roots of killed rounds, with their checkouts and seal copies). Folders without a marker and
/// those of running processes are left alone. Returns what was removed.
pub fn sweep_stale(parent: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in rd.flatten() {
        let path = e.path();
        let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
        if is_dir && owner_alive(&path) == Some(false) && remove_tree(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}
