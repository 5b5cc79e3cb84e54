//! The tree at base, enumerated once: the corpus the contamination gate searches and the exact
//! listing every checkout materializes (DESIGN §4, §6.2). One enumeration serves both, so the
//! gate cannot search a different set of files than the agent is given.
//!
//! Paths are UTF-8 `String`s with `/` separators, relative to the repository root. A tree with a
//! non-UTF-8 path is refused ([`Error::NonUtf8Path`]) rather than converted lossily: paths are
//! identities in the treediff and in hit lists, and a lossy conversion could make two paths one.
//! Symlink targets are kept as raw bytes (they are content, searched and re-created byte for byte).

use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository, Tree};

use crate::base::Base;
use crate::error::{Error, Result};

/// What a tree entry is, as git records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file (mode 100644).
    File,
    /// A regular file with the executable bit (mode 100755).
    Executable,
    /// A symbolic link (mode 120000); `target` is the link text, byte for byte.
    Symlink {
        /// The link target as stored in the blob.
        target: Vec<u8>,
    },
    /// A submodule (gitlink, mode 160000): reported, never followed or searched.
    Submodule,
}

/// One non-tree entry of the base tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Repository-relative path, `/`-separated.
    pub path: String,
    /// The mode as git stores it (normalized: 100644, 100755, 120000 or 160000).
    pub mode: u32,
    /// What the entry is.
    pub kind: EntryKind,
    /// The blob id (for a submodule: the commit id it pins).
    pub oid: Oid,
}

impl Entry {
    /// Whether the entry's content is a blob of this repository (everything but submodules).
    pub fn has_blob(&self) -> bool {
        !matches!(self.kind, EntryKind::Submodule)
    }
}

/// The tree at base: every entry, sorted by path, plus the ids of its subtrees.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The base this corpus was read from.
    pub base: Base,
    /// Every non-tree entry, sorted by path (byte order).
    pub entries: Vec<Entry>,
    /// Every tree object of the base tree, root first; a checkout's `.git` gets exactly these.
    pub trees: Vec<Oid>,
}

const MODE_TREE: u32 = 0o040000;
const MODE_FILE: u32 = 0o100644;
const MODE_EXEC: u32 = 0o100755;
const MODE_LINK: u32 = 0o120000;
const MODE_GITLINK: u32 = 0o160000;

impl Corpus {
    /// Enumerates the tree at `base`. Symlink targets are read here (they are part of the listing).
    pub fn load(base: &Base) -> Result<Corpus> {
        let repo = base.open()?;
        let tree = repo
            .find_tree(base.tree_oid())
            .map_err(|source| Error::ObjectRead {
                path: "(root tree)".into(),
                oid: base.tree.clone(),
                source,
            })?;
        let mut entries = Vec::new();
        let mut trees = vec![tree.id()];
        walk(&repo, base, &tree, "", &mut entries, &mut trees)?;
        entries.sort_by(|a, b| a.path.as_bytes().cmp(b.path.as_bytes()));
        if let Some(w) = entries.windows(2).find(|w| w[0].path == w[1].path) {
            return Err(Error::UnsafePath {
                commit: base.commit.clone(),
                path: w[0].path.clone(),
            });
        }
        Ok(Corpus {
            base: base.clone(),
            entries,
            trees,
        })
    }

    /// The entry at a repository-relative path, if the base tree has one.
    pub fn get(&self, path: &str) -> Option<&Entry> {
        self.entries
            .binary_search_by(|e| e.path.as_bytes().cmp(path.as_bytes()))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The repository's working tree root (where relative paths of the corpus start).
    pub fn workdir(&self) -> &Path {
        &self.base.workdir
    }
}

fn walk(
    repo: &Repository,
    base: &Base,
    tree: &Tree<'_>,
    prefix: &str,
    entries: &mut Vec<Entry>,
    trees: &mut Vec<Oid>,
) -> Result<()> {
    for item in tree.iter() {
        let name = std::str::from_utf8(item.name_bytes()).map_err(|_| Error::NonUtf8Path {
            commit: base.commit.clone(),
            lossy: format!("{prefix}{}", String::from_utf8_lossy(item.name_bytes())),
        })?;
        let path = format!("{prefix}{name}");
        // A crafted tree can hold names git itself would never check out; materializing one
        // could write outside the checkout or into its `.git`.
        if name.is_empty()
            || name == "."
            || name == ".."
            || name.eq_ignore_ascii_case(".git")
            || name.contains(['/', '\0'])
        {
            return Err(Error::UnsafePath {
                commit: base.commit.clone(),
                path,
            });
        }
        let raw_mode = item.filemode() as u32;
        let oid = item.id();
        let (mode, kind) = match raw_mode & 0o170000 {
            MODE_TREE => {
                let sub = repo.find_tree(oid).map_err(|source| Error::ObjectRead {
                    path: path.clone(),
                    oid: oid.to_string(),
                    source,
                })?;
                trees.push(oid);
                walk(repo, base, &sub, &format!("{path}/"), entries, trees)?;
                continue;
            }
            0o100000 if raw_mode & 0o100 != 0 => (MODE_EXEC, EntryKind::Executable),
            0o100000 => (MODE_FILE, EntryKind::File),
            MODE_LINK => {
                let blob = repo.find_blob(oid).map_err(|source| Error::ObjectRead {
                    path: path.clone(),
                    oid: oid.to_string(),
                    source,
                })?;
                (
                    MODE_LINK,
                    EntryKind::Symlink {
                        target: blob.content().to_vec(),
                    },
                )
            }
            MODE_GITLINK => (MODE_GITLINK, EntryKind::Submodule),
            _ => {
                return Err(Error::UnsupportedMode {
                    path,
                    mode: raw_mode,
                })
            }
        };
        entries.push(Entry {
            path,
            mode,
            kind,
            oid,
        });
    }
    Ok(())
}

/// Whether a file given to the harness (the qset, the seal) is itself part of the tree at base:
/// the "self-containment" axis. A seal tracked in the repo is in both arms, so the arms would not differ.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TrackedCheck {
    /// The file as given.
    pub file: PathBuf,
    /// Its path relative to the repository root, when it lies inside the working tree and the
    /// base tree has an entry there.
    pub by_path: Option<String>,
    /// Paths of base entries whose blob equals the file's content byte for byte.
    pub by_content: Vec<String>,
}

impl TrackedCheck {
    /// Whether the file is reachable at base by path or by content.
    pub fn is_tracked(&self) -> bool {
        self.by_path.is_some() || !self.by_content.is_empty()
    }
}

/// Checks each file for presence in the tree at base, by repo-relative path and by content
/// (git blob id of the file's bytes). A file that cannot be read is an error, not "untracked".
pub fn tracked_at_base(corpus: &Corpus, files: &[&Path]) -> Result<Vec<TrackedCheck>> {
    let root = corpus
        .workdir()
        .canonicalize()
        .map_err(|e| Error::io("resolve", corpus.workdir(), e))?;
    files
        .iter()
        .map(|file| {
            let bytes = std::fs::read(file).map_err(|e| Error::io("read", *file, e))?;
            let oid = Oid::hash_object(ObjectType::Blob, &bytes)
                .map_err(|e| Error::git(format!("hashing {}", file.display()), e))?;
            let by_content = corpus
                .entries
                .iter()
                .filter(|e| e.has_blob() && e.oid == oid)
                .map(|e| e.path.clone())
                .collect();
            let abs = file
                .canonicalize()
                .map_err(|e| Error::io("resolve", *file, e))?;
            let by_path = abs
                .strip_prefix(&root)
                .ok()
                .and_then(|rel| rel.to_str())
                .map(|rel| rel.replace(std::path::MAIN_SEPARATOR, "/"))
                .filter(|rel| corpus.get(rel).is_some());
            Ok(TrackedCheck {
                file: file.to_path_buf(),
                by_path,
                by_content,
            })
        })
        .collect()
}

/// A tracked symlink that leads out of what a checkout holds, to something an agent must never
/// read: self-containment seen through links. A checkout re-creates a link byte for byte: an
/// absolute target reaches the same place on this machine, and a relative one that climbs
/// above the tree reaches the checkout's surroundings (the temp root with its sibling
/// checkouts, ARM seals among them).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LinkOut {
    /// The link's repository-relative path.
    pub link: String,
    /// What it reaches, in words (`the seal`, `the ignored path notes.md`), never the target text.
    pub reaches: String,
}

/// The tracked symlinks an agent could follow out of its checkout to what it must not read:
/// - a relative target climbing above the tree (in a checkout: the sibling checkouts);
/// - a relative target inside the tree under `plant_dir` (ARM's planted seal, for CTRL too);
/// - an absolute target that is, contains or lies inside one of `protected` (what, path), or
///   lies in the repository's work tree but not in the base tree (an ignored or untracked
///   file, the repository's git folder and its history).
///
/// Other links pass: a relative one to a tracked (or missing, hence dangling) path stays in
/// the checkout, and an absolute one to an unrelated place is the repository's own business.
pub fn links_out(
    corpus: &Corpus,
    protected: &[(String, PathBuf)],
    plant_dir: &str,
) -> Result<Vec<LinkOut>> {
    use std::os::unix::ffi::OsStrExt;
    let root = corpus
        .workdir()
        .canonicalize()
        .map_err(|e| Error::io("resolve", corpus.workdir(), e))?;
    let repo = corpus.base.open()?;
    let mut protected: Vec<(String, PathBuf)> = protected
        .iter()
        .map(|(what, p)| (format!("the {what}"), real_path(p)))
        .collect();
    for git in [repo.path(), repo.commondir()] {
        protected.push((
            "the repository's git folder (its history)".to_string(),
            real_path(git),
        ));
    }
    let plant = Path::new(plant_dir.trim_matches('/'));
    let mut hits = Vec::new();
    for e in &corpus.entries {
        let EntryKind::Symlink { target } = &e.kind else {
            continue;
        };
        let target = Path::new(std::ffi::OsStr::from_bytes(target));
        let from = Path::new(&e.path).parent().unwrap_or(Path::new(""));
        let reaches = if target.is_absolute() {
            absolute_reach(corpus, &repo, &root, &protected, &real_path(target))
        } else {
            match lexical_within(&from.join(target)) {
                None => Some("outside the checkout (it climbs above the tree)".to_string()),
                // Into the plant folder, or a folder holding it: the link's path is not the
                // ignored one, so a search honouring .gitignore finds ARM's seal through it.
                Some(rel) if rel.starts_with(plant) || plant.starts_with(&rel) => {
                    Some(format!("the plant folder {} (ARM's seal)", plant.display()))
                }
                Some(_) => None,
            }
        };
        if let Some(reaches) = reaches {
            hits.push(LinkOut {
                link: e.path.clone(),
                reaches,
            });
        }
    }
    Ok(hits)
}

/// What an absolute link target reaches that an agent must not read, if anything.
fn absolute_reach(
    corpus: &Corpus,
    repo: &git2::Repository,
    root: &Path,
    protected: &[(String, PathBuf)],
    reached: &Path,
) -> Option<String> {
    if let Some((what, _)) = protected
        .iter()
        .find(|(_, p)| reached.starts_with(p) || p.starts_with(reached))
    {
        return Some(what.clone());
    }
    let rel = reached.strip_prefix(root).ok()?;
    let rel_s = rel
        .to_string_lossy()
        .replace(std::path::MAIN_SEPARATOR, "/");
    if rel_s.is_empty() || corpus.get(&rel_s).is_some() || is_tracked_dir(corpus, &rel_s) {
        None
    } else if repo.is_path_ignored(rel).unwrap_or(true) {
        Some(format!("the ignored path {rel_s}"))
    } else {
        Some(format!("the untracked path {rel_s}"))
    }
}

/// `p` (relative to the tree root) with `.` and `..` taken lexically, or `None` when it climbs
/// above the root.
fn lexical_within(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            std::path::Component::CurDir => {}
            std::path::Component::Normal(n) => out.push(n),
            _ => return None,
        }
    }
    Some(out)
}

/// The real path of `p`: its longest existing ancestor resolved (links followed), the rest
/// taken lexically, so a path that does not exist yet (an out-dir) compares with a link
/// target spelled another way (`..`, a linked parent folder).
fn real_path(p: &Path) -> PathBuf {
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut rest = Vec::new();
    let mut head = p.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            let mut out = real;
            for c in rest.iter().rev() {
                match c {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    other => out.push(other),
                }
            }
            return out;
        }
        match (head.parent(), head.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                head = parent;
            }
            _ => return p.clone(),
        }
    }
}

/// Whether some tracked entry lies under `dir` (a link to a tracked folder stays in the tree).
fn is_tracked_dir(corpus: &Corpus, dir: &str) -> bool {
    let prefix = format!("{dir}/");
    corpus.entries.iter().any(|e| e.path.starts_with(&prefix))
}
