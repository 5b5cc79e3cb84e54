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
                Ok(()) => return Ok(TempRoot { path }),
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
