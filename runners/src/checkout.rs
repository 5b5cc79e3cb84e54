//! Isolated checkouts (DESIGN §4): the tree at base, byte for byte, in a new repository with one
//! root commit, no remote, no history, no alternates and no path back to the user's repository.
//! (A plain clone's `origin` points at the user's working tree, where the seal lives in an
//! ignored folder: that is a leak.)
//!
//! A round materializes the corpus once into a [`Template`] (blobs and trees copied from the
//! source object database, files written raw: no eol or attribute filters). Each dispatch then
//! copies the template (reflink where the filesystem allows, else an in-kernel copy), ARM gets
//! the seal planted, and the copy is verified against the corpus listing by content before the
//! agent starts ([`Treediff`]). A checkout that is not exactly the corpus (CTRL) or the corpus
//! plus the seal (ARM) is refused.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use git2::{ObjectType, Oid, Repository, RepositoryInitOptions, Signature};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::corpus::{Corpus, EntryKind};
use crate::error::{Error, Result};
use crate::pack::PackWriter;

/// The branch the checkout's single commit is on.
const BRANCH: &str = "main";

/// Where an ARM checkout gets its seal: a folder relative to the checkout root, git-ignored
/// (through `.git/info/exclude`) in every checkout of both arms alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plant {
    dir: String,
}

impl Default for Plant {
    fn default() -> Plant {
        Plant {
            dir: Plant::DEFAULT_DIR.to_string(),
        }
    }
}

/// Refuses anything but a clean relative path inside the checkout and outside `.git`.
fn check_relative(value: &str) -> Result<()> {
    let bad = |reason| {
        Err(Error::BadPlant {
            value: value.to_string(),
            reason,
        })
    };
    if value.is_empty() {
        return bad("empty");
    }
    if value.starts_with('/') {
        return bad("must be relative to the checkout root");
    }
    if value.contains('\0') || value.contains('\\') {
        return bad("contains a NUL or a backslash");
    }
    for c in value.split('/') {
        if c.is_empty() || c == "." || c == ".." {
            return bad("has an empty, '.' or '..' component");
        }
        if c.eq_ignore_ascii_case(".git") {
            return bad("would be inside .git");
        }
    }
    Ok(())
}

impl Plant {
    /// The default plant folder.
    pub const DEFAULT_DIR: &'static str = "tracks/_meta/compaction";

    /// A plant folder relative to the checkout root (a trailing `/` is allowed).
    pub fn new(dir: &str) -> Result<Plant> {
        let dir = dir.strip_suffix('/').unwrap_or(dir);
        check_relative(dir)?;
        Ok(Plant {
            dir: dir.to_string(),
        })
    }

    /// The folder, without a trailing `/`.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    /// The checkout-relative path the seal is planted at.
    pub fn seal_path(&self, seal: &Seal) -> String {
        format!("{}/{}", self.dir, seal.name)
    }

    /// The `.git/info/exclude` line that hides the folder from gitignore-respecting tools.
    pub fn exclude_line(&self) -> String {
        format!("/{}/", self.dir)
    }
}

/// The carrier as planted: the name it gets in the plant folder and its bytes.
/// `Debug` shows the name and length only: the bytes hold tokens.
#[derive(Clone, PartialEq, Eq)]
pub struct Seal {
    name: String,
    bytes: Vec<u8>,
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seal")
            .field("name", &self.name)
            .field("len", &self.bytes.len())
            .finish()
    }
}

impl Seal {
    /// A seal planted under `name` (a single file name) with these bytes.
    pub fn new(name: &str, bytes: Vec<u8>) -> Result<Seal> {
        check_relative(name)?;
        if name.contains('/') {
            return Err(Error::BadPlant {
                value: name.to_string(),
                reason: "a seal name is a file name, not a path",
            });
        }
        Ok(Seal {
            name: name.to_string(),
            bytes,
        })
    }

    /// The planted file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The planted bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The git blob id of the bytes (what the treediff compares the planted file with).
    pub fn oid(&self) -> Result<Oid> {
        Oid::hash_object(ObjectType::Blob, &self.bytes)
            .map_err(|e| Error::git("hashing the seal", e))
    }
}

static DIR: Expect = Expect::Dir;

/// What the listing expects at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    Dir,
    File { exec: bool, size: u64, oid: Oid },
    Symlink { target: Vec<u8> },
}

/// The record of one checkout's verification against the corpus: paths in the checkout and not
/// in the corpus (`extra`), in the corpus and not in the checkout (`missing`), in both but
/// different in kind, executable bit, link target or content (`changed`). `.git` is not part of
/// the listing. An unexpected empty folder is listed in `extra` with a trailing `/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treediff {
    /// The seal's path when this is an ARM checkout, else `None`.
    pub planted: Option<String>,
    /// In the checkout, not in the corpus (for an exact ARM checkout: the seal and nothing else).
    pub extra: Vec<String>,
    /// In the corpus, not in the checkout.
    pub missing: Vec<String>,
    /// In both, but different (a planted seal whose bytes differ is listed here too).
    pub changed: Vec<String>,
}

impl Treediff {
    /// CTRL: nothing differs from the corpus. ARM: the only difference is the seal, with its bytes.
    pub fn is_exact(&self) -> bool {
        self.missing.is_empty()
            && self.changed.is_empty()
            && self
                .extra
                .iter()
                .map(String::as_str)
                .eq(self.planted.as_deref())
    }

    /// The first offending path, for one-line messages.
    pub fn first_problem(&self) -> String {
        let unexpected = self
            .extra
            .iter()
            .find(|p| Some(p.as_str()) != self.planted.as_deref())
            .map(|p| format!("extra {p}"));
        unexpected
            .or_else(|| self.missing.first().map(|p| format!("missing {p}")))
            .or_else(|| self.changed.first().map(|p| format!("changed {p}")))
            .or_else(|| self.planted.as_ref().map(|p| format!("seal {p} not found")))
            .unwrap_or_else(|| "none".into())
    }
}

/// One dispatch's verified checkout.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// The checkout folder (the agent's cwd).
    pub path: PathBuf,
    /// The verification record, exact by construction (a mismatch is an error instead).
    pub treediff: Treediff,
}

/// The corpus materialized once per round: a fresh repository with one root commit holding the
/// tree at base, its working tree written raw, and the plant folder excluded. Every dispatch's
/// checkout is a copy of it.
#[derive(Debug)]
pub struct Template {
    dir: PathBuf,
    commit: Oid,
    tree: Oid,
    plant: Plant,
    expected: BTreeMap<String, Expect>,
}

fn parents(path: &str) -> impl Iterator<Item = &str> {
    path.char_indices()
        .filter(|&(_, c)| c == '/')
        .map(move |(i, _)| &path[..i])
}

fn write_file(path: &Path, bytes: &[u8], mode: u32) -> Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| Error::io("create", path, e))?;
    f.write_all(bytes)
        .map_err(|e| Error::io("write", path, e))?;
    // Explicitly, so the umask cannot change an executable bit.
    f.set_permissions(Permissions::from_mode(mode))
        .map_err(|e| Error::io("chmod", path, e))
}

/// Copies the corpus's trees raw into one pack, so the checkout's tree id is the base tree id.
fn copy_trees(corpus: &Corpus, pack_dir: &Path) -> Result<()> {
    let src = corpus.base.open()?;
    let src_odb = src
        .odb()
        .map_err(|e| Error::git("opening the source odb", e))?;
    let mut pack = PackWriter::create(pack_dir, corpus.trees.len() as u32, usize::MAX)?;
    for &t in &corpus.trees {
        let obj = src_odb.read(t).map_err(|source| Error::ObjectRead {
            path: "(tree)".into(),
            oid: t.to_string(),
            source,
        })?;
        pack.add(ObjectType::Tree, t, obj.data())?;
    }
    pack.finish()
}

/// Reads every blob once, writes its file (or symlink) into the working tree and the blob into
/// a pack; in parallel, one source handle and one pack per chunk. A blob named by several paths
/// is packed once. Returns each file entry's size.
fn write_blobs_and_files(
    corpus: &Corpus,
    dir: &Path,
    pack_dir: &Path,
) -> Result<Vec<(usize, u64)>> {
    let blobs: Vec<usize> = (0..corpus.entries.len())
        .filter(|&i| corpus.entries[i].has_blob())
        .collect();
    let mut seen = std::collections::HashSet::new();
    let first: Vec<bool> = blobs
        .iter()
        .map(|&i| seen.insert(corpus.entries[i].oid))
        .collect();
    let chunk = blobs
        .len()
        .div_ceil(rayon::current_num_threads() * 4)
        .max(1);
    let sizes = blobs
        .par_chunks(chunk)
        .zip(first.par_chunks(chunk))
        .enumerate()
        .map(|(tag, (idxs, firsts))| -> Result<Vec<(usize, u64)>> {
            let src = corpus.base.open()?;
            let src_odb = src
                .odb()
                .map_err(|e| Error::git("opening the source odb", e))?;
            let count = firsts.iter().filter(|f| **f).count() as u32;
            let mut pack = PackWriter::create(pack_dir, count, tag)?;
            let mut out = Vec::with_capacity(idxs.len());
            for (&i, &pack_it) in idxs.iter().zip(firsts) {
                let e = &corpus.entries[i];
                let obj = src_odb.read(e.oid).map_err(|source| Error::ObjectRead {
                    path: e.path.clone(),
                    oid: e.oid.to_string(),
                    source,
                })?;
                let data = obj.data();
                if pack_it {
                    pack.add(ObjectType::Blob, e.oid, data)?;
                }
                let target = dir.join(&e.path);
                match &e.kind {
                    EntryKind::File => write_file(&target, data, 0o644)?,
                    EntryKind::Executable => write_file(&target, data, 0o755)?,
                    EntryKind::Symlink { target: t } => {
                        std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(t), &target)
                            .map_err(|err| Error::io("symlink", &target, err))?
                    }
                    EntryKind::Submodule => unreachable!("filtered above"),
                }
                out.push((i, data.len() as u64));
            }
            pack.finish()?;
            Ok(out)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(sizes.into_iter().flatten().collect())
}

/// Requires `dir` to be absent (it is created, mode 0700) or an empty folder.
fn prepare_empty_dir(dir: &Path) -> Result<()> {
    match fs::read_dir(dir) {
        Ok(mut it) => {
            if it.next().is_some() {
                return Err(Error::io(
                    "use",
                    dir,
                    std::io::Error::new(std::io::ErrorKind::AlreadyExists, "folder is not empty"),
                ));
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            use std::os::unix::fs::DirBuilderExt;
            fs::DirBuilder::new()
                .mode(0o700)
                .create(dir)
                .map_err(|e| Error::io("create dir", dir, e))
        }
        Err(e) => Err(Error::io("read dir", dir, e)),
    }
}

impl Template {
    /// Materializes the corpus into `dir` (absent or empty). The same [`Corpus`] the
    /// contamination gate searched is what gets written, entry for entry.
    pub fn build(corpus: &Corpus, plant: &Plant, dir: &Path) -> Result<Template> {
        prepare_empty_dir(dir)?;
        let dir = dir
            .canonicalize()
            .map_err(|e| Error::io("resolve", dir, e))?;

        let mut expected = BTreeMap::new();
        let mut dirs = BTreeSet::new();
        for e in &corpus.entries {
            dirs.extend(parents(&e.path).map(str::to_string));
            let x = match &e.kind {
                EntryKind::Submodule => {
                    // git checks a submodule out as an empty folder; so do we, and expect one.
                    dirs.insert(e.path.clone());
                    continue;
                }
                EntryKind::Symlink { target } => Expect::Symlink {
                    target: target.clone(),
                },
                // Sizes are filled in below, once the blobs are read.
                EntryKind::File => Expect::File {
                    exec: false,
                    size: 0,
                    oid: e.oid,
                },
                EntryKind::Executable => Expect::File {
                    exec: true,
                    size: 0,
                    oid: e.oid,
                },
            };
            expected.insert(e.path.clone(), x);
        }
        for d in &dirs {
            expected.insert(d.clone(), Expect::Dir);
        }
        for p in parents(&format!("{}/", plant.dir)) {
            if let Some(x) = expected.get(p) {
                if *x != Expect::Dir {
                    return Err(Error::PlantCollision {
                        path: p.to_string(),
                    });
                }
            }
        }

        let mut init = RepositoryInitOptions::new();
        init.external_template(false)
            .initial_head(BRANCH)
            .no_reinit(true)
            .mkpath(false);
        let repo = Repository::init_opts(&dir, &init)
            .map_err(|e| Error::git(format!("creating a repository in {}", dir.display()), e))?;

        for d in &dirs {
            let p = dir.join(d);
            fs::create_dir_all(&p).map_err(|e| Error::io("create dir", &p, e))?;
        }

        let pack_dir = repo.path().join("objects").join("pack");
        fs::create_dir_all(&pack_dir).map_err(|e| Error::io("create dir", &pack_dir, e))?;
        crate::pack::trust_object_reads();
        copy_trees(corpus, &pack_dir)?;
        let sizes = write_blobs_and_files(corpus, &dir, &pack_dir)?;
        for (i, n) in sizes {
            if let Some(Expect::File { size, .. }) = expected.get_mut(&corpus.entries[i].path) {
                *size = n;
            }
        }

        let tree = repo
            .find_tree(corpus.base.tree_oid())
            .map_err(|e| Error::git("finding the copied base tree", e))?;
        let sig = Signature::now("snapshot", "snapshot@localhost")
            .map_err(|e| Error::git("making a signature", e))?;
        let commit = repo
            .commit(Some("HEAD"), &sig, &sig, "snapshot\n", &tree, &[])
            .map_err(|e| Error::git("committing the snapshot", e))?;
        let mut index = repo
            .index()
            .map_err(|e| Error::git("opening the index", e))?;
        index
            .read_tree(&tree)
            .and_then(|()| index.write())
            .map_err(|e| Error::git("writing the index", e))?;

        let info = repo.path().join("info");
        fs::create_dir_all(&info).map_err(|e| Error::io("create dir", &info, e))?;
        let exclude = info.join("exclude");
        fs::write(&exclude, format!("{}\n", plant.exclude_line()))
            .map_err(|e| Error::io("write", &exclude, e))?;

        let template = Template {
            dir,
            commit,
            tree: tree.id(),
            plant: plant.clone(),
            expected,
        };
        // Overlay checkouts share this folder as their lower layer unchecked: check it once.
        template.verify_isolation(&template.dir)?;
        Ok(template)
    }

    /// The template folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The id of the single commit every checkout has.
    pub fn commit(&self) -> Oid {
        self.commit
    }

    /// The plant folder this template excludes.
    pub fn plant(&self) -> &Plant {
        &self.plant
    }

    /// Makes one dispatch's checkout in `dest` (absent or empty): a copy of the template, the seal
    /// planted for ARM (`Some`), nothing for CTRL (`None`), then verified: `.git` isolated and
    /// the listing exactly the corpus (CTRL) or the corpus plus the seal (ARM), by content.
    pub fn checkout(&self, dest: &Path, seal: Option<&Seal>) -> Result<Checkout> {
        copy_tree(&self.dir, dest)?;
        if let Some(seal) = seal {
            self.plant_seal(dest, seal)?;
        }
        self.verify_isolation(dest)?;
        let treediff = self.treediff(dest, seal)?;
        if !treediff.is_exact() {
            return Err(Error::TreediffMismatch {
                checkout: dest.to_path_buf(),
                treediff: Box::new(treediff),
            });
        }
        Ok(Checkout {
            path: dest.to_path_buf(),
            treediff,
        })
    }

    /// Prepares one dispatch's overlay checkout (issue 14) under `dispatch_dir`, mounted later
    /// at `target` by the sandbox: empty layers, the seal planted into the upper layer for ARM,
    /// then the upper layer checked to hold exactly the plant (ARM) or nothing (CTRL). The lower
    /// layer is the template, checked once when it was built; this costs O(size of the plant).
    pub fn overlay_checkout(
        &self,
        dispatch_dir: &Path,
        target: &Path,
        seal: Option<&Seal>,
    ) -> Result<(Checkout, crate::overlay::OverlayLayers)> {
        let layers = crate::overlay::OverlayLayers::create(&self.dir, dispatch_dir, target)?;
        if let Some(seal) = seal {
            self.plant_seal(&layers.upper, seal)?;
        }
        let treediff = self.upper_diff(&layers.upper, seal)?;
        if !treediff.is_exact() {
            return Err(Error::TreediffMismatch {
                checkout: layers.upper.clone(),
                treediff: Box::new(treediff),
            });
        }
        Ok((
            Checkout {
                path: target.to_path_buf(),
                treediff,
            },
            layers,
        ))
    }

    /// The treediff of an overlay checkout: what its upper layer holds beyond the template
    /// (everything in it is a difference), against the plant expected for this arm.
    pub fn upper_diff(&self, upper: &Path, seal: Option<&Seal>) -> Result<Treediff> {
        let planted = seal.map(|s| self.plant.seal_path(s));
        let dirs: BTreeSet<&str> = planted
            .as_deref()
            .map(|p| parents(p).collect())
            .unwrap_or_default();
        let (mut extra, mut changed) = (Vec::new(), Vec::new());
        let mut found_seal = false;
        for item in walkdir::WalkDir::new(upper)
            .min_depth(1)
            .follow_links(false)
        {
            let item = item.map_err(|e| Error::io("walk", upper, e.into()))?;
            let rel = item
                .path()
                .strip_prefix(upper)
                .expect("walkdir stays under its root")
                .to_string_lossy()
                .into_owned();
            let ft = item.file_type();
            if dirs.contains(rel.as_str()) && ft.is_dir() {
                // A plant folder over a template folder: merged, not a difference.
                continue;
            }
            if Some(rel.as_str()) == planted.as_deref() {
                found_seal = true;
                let ok = ft.is_file()
                    && seal.is_some_and(|s| fs::read(item.path()).is_ok_and(|b| b == s.bytes));
                if !ok {
                    changed.push(rel);
                }
                continue;
            }
            extra.push(if ft.is_dir() { format!("{rel}/") } else { rel });
        }
        let mut missing = Vec::new();
        if let Some(p) = &planted {
            if !found_seal {
                missing.push(p.clone());
            } else if changed.is_empty() {
                extra.push(p.clone());
            }
        }
        extra.sort();
        Ok(Treediff {
            planted,
            extra,
            missing,
            changed,
        })
    }

    fn plant_seal(&self, dest: &Path, seal: &Seal) -> Result<()> {
        let rel = self.plant.seal_path(seal);
        if self.expected.contains_key(&rel) {
            return Err(Error::PlantCollision { path: rel });
        }
        let folder = dest.join(&self.plant.dir);
        fs::create_dir_all(&folder).map_err(|e| Error::io("create dir", &folder, e))?;
        write_file(&dest.join(&rel), &seal.bytes, 0o644)
    }

    /// Checks that the checkout's `.git` is a self-contained repository: a real folder, no
    /// alternates, no remote, no include or worktree link in its config, and exactly one
    /// parentless commit, the template's, holding the base tree.
    pub fn verify_isolation(&self, checkout: &Path) -> Result<()> {
        let fail = |reason: String| Error::NotIsolated {
            checkout: checkout.to_path_buf(),
            reason,
        };
        let git = checkout.join(".git");
        match fs::symlink_metadata(&git) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(fail(".git is not a folder".into())),
            Err(e) => return Err(Error::io("stat", &git, e)),
        }
        for link in ["objects/info/alternates", "commondir", "gitdir"] {
            if git.join(link).exists() {
                return Err(fail(format!(".git/{link} exists")));
            }
        }
        let config_path = git.join("config");
        let config = fs::read_to_string(&config_path)
            .map_err(|e| Error::io("read", &config_path, e))?
            .to_ascii_lowercase();
        for key in ["[remote", "[include", "[url", "worktree"] {
            if config.contains(key) {
                return Err(fail(format!(".git/config has a {key} entry")));
            }
        }
        let repo = Repository::open(checkout)
            .map_err(|e| Error::git(format!("opening {}", checkout.display()), e))?;
        let remotes = repo
            .remotes()
            .map_err(|e| Error::git("listing remotes", e))?;
        if !remotes.is_empty() {
            return Err(fail(format!("{} remote(s)", remotes.len())));
        }
        let head = repo
            .head()
            .and_then(|h| h.peel_to_commit())
            .map_err(|e| Error::git("reading HEAD", e))?;
        if head.id() != self.commit || head.parent_count() != 0 || head.tree_id() != self.tree {
            return Err(fail(format!(
                "HEAD is {}, not the snapshot commit",
                head.id()
            )));
        }
        let refs = repo
            .references()
            .map_err(|e| Error::git("listing refs", e))?;
        for r in refs {
            let r = r.map_err(|e| Error::git("reading a ref", e))?;
            if r.target() != Some(self.commit) {
                let name = String::from_utf8_lossy(r.name_bytes()).into_owned();
                return Err(fail(format!("ref {name} points elsewhere")));
            }
        }
        Ok(())
    }

    /// Compares the checkout's listing (everything but the root `.git`) with the corpus, plus the
    /// seal for ARM: kinds, executable bits, link targets, sizes and content (git blob id of
    /// every regular file). Returns the record; [`Treediff::is_exact`] says whether it passes.
    pub fn treediff(&self, checkout: &Path, seal: Option<&Seal>) -> Result<Treediff> {
        let planted = seal.map(|s| self.plant.seal_path(s));
        let seal_expect = match seal {
            Some(s) => Some(Expect::File {
                exec: false,
                size: s.bytes.len() as u64,
                oid: s.oid()?,
            }),
            None => None,
        };
        let plant_dirs: BTreeSet<&str> = match &planted {
            Some(p) => parents(p).collect(),
            None => BTreeSet::new(),
        };
        let expect = |path: &str| -> Option<&Expect> {
            if planted.as_deref() == Some(path) {
                return seal_expect.as_ref();
            }
            match self.expected.get(path) {
                Some(x) => Some(x),
                None if plant_dirs.contains(path) => Some(&DIR),
                None => None,
            }
        };

        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut extra = Vec::new();
        let mut extra_dirs = Vec::new();
        let mut changed = Vec::new();
        let mut to_hash: Vec<(String, PathBuf, Oid)> = Vec::new();

        let walker = walkdir::WalkDir::new(checkout)
            .min_depth(1)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !(e.depth() == 1 && e.file_name() == ".git"));
        for item in walker {
            let item = item.map_err(|e| {
                let path = e.path().unwrap_or(checkout).to_path_buf();
                Error::io("walk", path, e.into())
            })?;
            let rel_os = item
                .path()
                .strip_prefix(checkout)
                .expect("walkdir stays under its root");
            let Some(rel) = rel_os.to_str() else {
                extra.push(rel_os.to_string_lossy().into_owned());
                continue;
            };
            let rel = rel.to_string();
            let ft = item.file_type();
            match expect(&rel) {
                None if ft.is_dir() => extra_dirs.push(rel.clone()),
                None => extra.push(rel.clone()),
                Some(Expect::Dir) => {
                    if !ft.is_dir() {
                        changed.push(rel.clone());
                    }
                }
                Some(Expect::Symlink { target }) => {
                    let ok = ft.is_symlink()
                        && fs::read_link(item.path())
                            .map_err(|e| Error::io("read link", item.path(), e))?
                            .as_os_str()
                            .as_bytes()
                            == target.as_slice();
                    if !ok {
                        changed.push(rel.clone());
                    }
                }
                Some(Expect::File { exec, size, oid }) => {
                    let meta = item
                        .metadata()
                        .map_err(|e| Error::io("stat", item.path(), e.into()))?;
                    let is_exec = std::os::unix::fs::MetadataExt::mode(&meta) & 0o100 != 0;
                    if !ft.is_file() || is_exec != *exec || meta.len() != *size {
                        changed.push(rel.clone());
                    } else {
                        to_hash.push((rel.clone(), item.path().to_path_buf(), *oid));
                    }
                }
            }
            seen.insert(rel);
        }

        let mismatched: Vec<String> = to_hash
            .par_iter()
            .map(|(rel, path, oid)| -> Result<Option<String>> {
                let got = Oid::hash_file(ObjectType::Blob, path)
                    .map_err(|e| Error::git(format!("hashing {}", path.display()), e))?;
                Ok((got != *oid).then(|| rel.clone()))
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect();
        changed.extend(mismatched);

        // An unexpected folder is reported only when nothing unexpected inside it already is.
        for d in extra_dirs {
            let prefix = format!("{d}/");
            if !extra.iter().any(|p| p.starts_with(&prefix)) {
                extra.push(prefix);
            }
        }
        let mut missing: Vec<String> = self
            .expected
            .keys()
            .filter(|p| !seen.contains(*p))
            .cloned()
            .collect();
        if let Some(p) = &planted {
            if !seen.contains(p) {
                missing.push(p.clone());
            } else if !changed.contains(p) {
                // Present with the seal's bytes: the one expected difference from the corpus.
                extra.push(p.clone());
            }
        }
        extra.sort();
        missing.sort();
        changed.sort();
        Ok(Treediff {
            planted,
            extra,
            missing,
            changed,
        })
    }
}

/// Set once the filesystem has refused a reflink, so later copies skip the attempt.
static NO_REFLINK: AtomicBool = AtomicBool::new(false);

fn clone_or_copy(src: &Path, dst: &Path, mode: u32) -> Result<()> {
    let from = File::open(src).map_err(|e| Error::io("open", src, e))?;
    let mut to = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(dst)
        .map_err(|e| Error::io("create", dst, e))?;
    let mut cloned = false;
    #[cfg(target_os = "macos")]
    if !NO_REFLINK.load(Ordering::Relaxed) {
        // APFS clones in place of the empty file just made (`clonefile` needs a free name).
        drop(to);
        let _ = std::fs::remove_file(dst);
        cloned = crate::platform::clone_file(src, dst);
        if !cloned {
            NO_REFLINK.store(true, Ordering::Relaxed);
        }
        to = OpenOptions::new()
            .write(true)
            .create(!cloned)
            .create_new(!cloned)
            .mode(0o600)
            .open(dst)
            .map_err(|e| Error::io("create", dst, e))?;
    }
    #[cfg(target_os = "linux")]
    if !NO_REFLINK.load(Ordering::Relaxed) {
        use std::os::fd::AsRawFd;
        // SAFETY: both descriptors are open for the duration of the call; FICLONE takes the
        // source descriptor as its argument and touches no memory of ours.
        let rc = unsafe { libc::ioctl(to.as_raw_fd(), libc::FICLONE, from.as_raw_fd()) };
        if rc == 0 {
            cloned = true;
        } else {
            NO_REFLINK.store(true, Ordering::Relaxed);
        }
    }
    if !cloned {
        let mut from = from;
        // std uses copy_file_range here: an in-kernel copy.
        std::io::copy(&mut from, &mut to).map_err(|e| Error::io("copy", dst, e))?;
    }
    to.set_permissions(Permissions::from_mode(mode))
        .map_err(|e| Error::io("chmod", dst, e))
}

/// Copies a folder tree byte for byte (files, modes, symlinks as links), files in parallel.
/// `dst` must be absent or an empty folder.
pub fn copy_tree(src: &Path, dst: &Path) -> Result<()> {
    prepare_empty_dir(dst)?;
    let mut files = Vec::new();
    for item in walkdir::WalkDir::new(src).min_depth(1).follow_links(false) {
        let item = item.map_err(|e| {
            let path = e.path().unwrap_or(src).to_path_buf();
            Error::io("walk", path, e.into())
        })?;
        let rel = item
            .path()
            .strip_prefix(src)
            .expect("walkdir stays under its root");
        let to = dst.join(rel);
        let ft = item.file_type();
        if ft.is_dir() {
            fs::create_dir(&to).map_err(|e| Error::io("create dir", &to, e))?;
        } else if ft.is_symlink() {
            let target =
                fs::read_link(item.path()).map_err(|e| Error::io("read link", item.path(), e))?;
            std::os::unix::fs::symlink(&target, &to).map_err(|e| Error::io("symlink", &to, e))?;
        } else if ft.is_file() {
            let mode = item
                .metadata()
                .map_err(|e| Error::io("stat", item.path(), e.into()))?
                .permissions()
                .mode();
            files.push((item.path().to_path_buf(), to, mode & 0o7777));
        } else {
            return Err(Error::io(
                "copy",
                item.path(),
                std::io::Error::new(
                    std::io::ErrorKind::Unsupported,
                    "not a file, folder or symlink",
                ),
            ));
        }
    }
    files
        .par_iter()
        .try_for_each(|(from, to, mode)| clone_or_copy(from, to, *mode))?;
    // Folder modes last, so a read-only folder does not stop the files going in.
    for item in walkdir::WalkDir::new(src).min_depth(1).follow_links(false) {
        let item = item.map_err(|e| Error::io("walk", src, e.into()))?;
        if item.file_type().is_dir() {
            let mode = item
                .metadata()
                .map_err(|e| Error::io("stat", item.path(), e.into()))?
                .permissions()
                .mode();
            let to = dst.join(item.path().strip_prefix(src).expect("under root"));
            fs::set_permissions(&to, Permissions::from_mode(mode & 0o7777))
                .map_err(|e| Error::io("chmod", &to, e))?;
        }
    }
    Ok(())
}

/// Removes a folder tree even where files or folders were made read-only (git makes its objects
/// read-only; an agent may do anything). Symlinks are removed, never followed. Absent is fine.
pub fn remove_tree(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io("stat", path, e)),
        Ok(m) if !m.is_dir() => {
            return fs::remove_file(path).map_err(|e| Error::io("remove", path, e))
        }
        Ok(_) => {}
    }
    make_removable(path)?;
    fs::remove_dir_all(path).map_err(|e| Error::io("remove", path, e))
}

/// Gives every folder under `dir` (not following symlinks) the write and search permission
/// that unlinking its entries needs; read-only files need nothing.
fn make_removable(dir: &Path) -> Result<()> {
    fs::set_permissions(dir, Permissions::from_mode(0o700))
        .map_err(|e| Error::io("chmod", dir, e))?;
    for item in fs::read_dir(dir).map_err(|e| Error::io("read dir", dir, e))? {
        let item = item.map_err(|e| Error::io("read dir", dir, e))?;
        let ft = item
            .file_type()
            .map_err(|e| Error::io("stat", item.path(), e))?;
        if ft.is_dir() {
            make_removable(&item.path())?;
        }
    }
    Ok(())
}
