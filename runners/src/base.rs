//! The pinned commit a round runs on (DESIGN §1 "base", §6.2): resolved once, recorded, never re-read.

use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository, StatusOptions};
use serde::Serialize;

use crate::error::{Error, Result};

/// The commit a round runs on, and how it was named. The round runs on the committed tree at
/// [`Base::commit`]; uncommitted changes in the user's working tree are reported ([`Base::dirty`]), not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Base {
    /// The working tree root of the discovered repository.
    pub workdir: PathBuf,
    /// The git dir, used to reopen the repository (per worker thread).
    pub git_dir: PathBuf,
    /// The base commit, 40 hex digits.
    pub commit: String,
    /// The root tree of the base commit, 40 hex digits.
    pub tree: String,
    /// `--base-ref` as given, when given.
    pub reference: Option<String>,
    /// `--base-sha` as given, when given.
    pub requested_sha: Option<String>,
    /// Whether neither was given and `HEAD` was used.
    pub from_head: bool,
    /// Tracked files of the working tree differ from `HEAD` (index or worktree). The round still
    /// runs on the committed tree; this is reported so nobody believes their edits were measured.
    pub dirty: bool,
}

/// Resolves the base of a round.
///
/// `repo` may be any path inside the repository (discovered like git does). With both `base_ref`
/// and `base_sha` they must name the same commit ([`Error::BaseMismatch`]); with neither, `HEAD`
/// is resolved and recorded. `base_sha` must be hex (4 to 40 digits) naming a commit.
pub fn resolve_base(repo: &Path, base_ref: Option<&str>, base_sha: Option<&str>) -> Result<Base> {
    let r = Repository::discover(repo).map_err(|source| Error::NoRepository {
        path: repo.to_path_buf(),
        source,
    })?;
    let workdir = r
        .workdir()
        .ok_or_else(|| Error::BareRepository {
            path: r.path().to_path_buf(),
        })?
        .to_path_buf();

    let by_ref = match base_ref {
        Some(reference) => Some(resolve_ref(&r, reference)?),
        None => None,
    };
    let by_sha = match base_sha {
        Some(sha) => Some(resolve_sha(&r, sha)?),
        None => None,
    };
    let commit = match (by_ref, by_sha) {
        (Some(a), Some(b)) if a != b => {
            return Err(Error::BaseMismatch {
                reference: base_ref.unwrap_or_default().to_string(),
                ref_sha: a.to_string(),
                sha: b.to_string(),
            })
        }
        (Some(a), _) => a,
        (None, Some(b)) => b,
        (None, None) => resolve_ref(&r, "HEAD")?,
    };
    let tree = r
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(|e| Error::git(format!("reading the tree of {commit}"), e))?
        .id();

    Ok(Base {
        workdir,
        git_dir: r.path().to_path_buf(),
        commit: commit.to_string(),
        tree: tree.to_string(),
        reference: base_ref.map(str::to_string),
        requested_sha: base_sha.map(str::to_string),
        from_head: base_ref.is_none() && base_sha.is_none(),
        dirty: tracked_changes(&r)?,
    })
}

impl Base {
    /// The base commit as an object id.
    pub fn commit_oid(&self) -> Oid {
        Oid::from_str(&self.commit).expect("Base::commit is always 40 hex digits")
    }

    /// The base tree as an object id.
    pub fn tree_oid(&self) -> Oid {
        Oid::from_str(&self.tree).expect("Base::tree is always 40 hex digits")
    }

    /// Opens the repository again (one handle per thread: `git2::Repository` is not `Sync`).
    pub fn open(&self) -> Result<Repository> {
        Repository::open(&self.git_dir)
            .map_err(|e| Error::git(format!("opening {}", self.git_dir.display()), e))
    }
}

fn resolve_ref(r: &Repository, reference: &str) -> Result<Oid> {
    r.revparse_single(reference)
        .and_then(|o| o.peel_to_commit())
        .map(|c| c.id())
        .map_err(|source| Error::BadRef {
            reference: reference.to_string(),
            source,
        })
}

fn resolve_sha(r: &Repository, sha: &str) -> Result<Oid> {
    let bad = |reason: String| Error::BadSha {
        sha: sha.to_string(),
        reason,
    };
    if !(4..=40).contains(&sha.len()) || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad("expected 4 to 40 hexadecimal digits".into()));
    }
    let object = r
        .find_object_by_prefix(sha, None)
        .map_err(|e| bad(e.message().to_string()))?;
    match object.kind() {
        Some(ObjectType::Commit) => Ok(object.id()),
        other => Err(bad(format!(
            "it names a {}, not a commit",
            other.map_or("object of unknown type", |k| k.str())
        ))),
    }
}

/// Whether tracked files differ from `HEAD` in the index or the working tree.
fn tracked_changes(r: &Repository) -> Result<bool> {
    let mut opts = StatusOptions::new();
    opts.include_untracked(false)
        .include_ignored(false)
        .exclude_submodules(true);
    let statuses = r
        .statuses(Some(&mut opts))
        .map_err(|e| Error::git("reading the working tree status", e))?;
    Ok(!statuses.is_empty())
}
