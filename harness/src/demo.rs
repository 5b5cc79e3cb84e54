//! The shipped demo (DESIGN §10): a small project, its hand-off, a sealed qset and its manifest,
//! embedded in the binary. At run time the project becomes a git repository with one commit
//! whose sha is the same on every machine, so the shipped manifest can pin it.

use anyhow::{bail, Context, Result};
use std::fs;
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/demo_files.rs"));

/// The `repo` a demo manifest records: the base is rebuilt from the binary, not read from disk.
pub const EMBEDDED_REPO: &str = "embedded:demo";

/// Files at the top of qsets/demo that are neither project, qset nor seal.
const NOT_SEAL: [&str; 3] = ["qset.tsv", "README.md", "check.py"];

/// The demo's parts, borrowed from the binary.
pub struct Demo {
    /// The qset bytes (qsets/demo/qset.tsv).
    pub qset: &'static [u8],
    /// The seal's file name, which is also its planted name.
    pub seal_name: &'static str,
    /// The seal bytes.
    pub seal: &'static [u8],
    /// The project files: path under project/, bytes, executable.
    pub project: Vec<(&'static str, &'static [u8], bool)>,
    /// manifests/demo.json (the deliver demo's design), when shipped.
    pub manifest: Option<&'static [u8]>,
    /// manifests/demo-discover.json (the discover demo's design), when shipped.
    pub manifest_discover: Option<&'static [u8]>,
}

/// Reads the embedded demo and checks its shape.
pub fn demo() -> Result<Demo> {
    let qset = DEMO_FILES
        .iter()
        .find(|(p, _, _)| *p == "qset.tsv")
        .map(|(_, b, _)| *b)
        .context("the embedded demo has no qset.tsv")?;
    let seals: Vec<_> = DEMO_FILES
        .iter()
        .filter(|(p, _, _)| !p.contains('/') && !NOT_SEAL.contains(p))
        .collect();
    if seals.len() != 1 {
        bail!(
            "the embedded demo must hold exactly one seal beside qset.tsv, found {}",
            seals.len()
        );
    }
    let project: Vec<_> = DEMO_FILES
        .iter()
        .filter_map(|(p, b, x)| p.strip_prefix("project/").map(|r| (r, *b, *x)))
        .collect();
    if project.is_empty() {
        bail!("the embedded demo has no project/ files");
    }
    Ok(Demo {
        qset,
        seal_name: seals[0].0,
        seal: seals[0].1,
        project,
        manifest: DEMO_MANIFEST,
        manifest_discover: DEMO_DISCOVER_MANIFEST,
    })
}

/// Builds the demo repository in a new temp folder (removed when the handle drops).
pub fn build_temp_repo() -> Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("harness-demo-repo-")
        .tempdir()?;
    demo()?.build_repo(dir.path())?;
    Ok(dir)
}

/// Lays the demo inputs out under `dir` as they are in the source tree
/// (`qsets/demo/qset.tsv`, `qsets/demo/<seal>`, `manifests/demo.json`) and returns their paths,
/// so the round reads them like any user's files and the manifest's relative paths resolve.
pub struct DemoInputs {
    /// The qset file.
    pub qset: PathBuf,
    /// The seal file.
    pub seal: PathBuf,
    /// The deliver demo's manifest file, when shipped.
    pub manifest: Option<PathBuf>,
    /// The discover demo's manifest file, when shipped.
    pub manifest_discover: Option<PathBuf>,
}

impl Demo {
    /// Writes the qset, seal and manifest under `dir`.
    pub fn write_inputs(&self, dir: &Path) -> Result<DemoInputs> {
        let qdir = dir.join("qsets").join("demo");
        fs::create_dir_all(&qdir)?;
        let qset = qdir.join("qset.tsv");
        fs::write(&qset, self.qset)?;
        let seal = qdir.join(self.seal_name);
        fs::write(&seal, self.seal)?;
        let write = |bytes: Option<&[u8]>, name: &str| -> Result<Option<PathBuf>> {
            let Some(m) = bytes else { return Ok(None) };
            let mdir = dir.join("manifests");
            fs::create_dir_all(&mdir)?;
            let p = mdir.join(name);
            fs::write(&p, m)?;
            Ok(Some(p))
        };
        Ok(DemoInputs {
            qset,
            seal,
            manifest: write(self.manifest, "demo.json")?,
            manifest_discover: write(self.manifest_discover, "demo-discover.json")?,
        })
    }

    /// Makes the demo project a git repository in `dir` with one commit whose author, committer
    /// and time are fixed, so its sha is the same everywhere. Returns the commit sha.
    pub fn build_repo(&self, dir: &Path) -> Result<String> {
        for (rel, bytes, exec) in &self.project {
            let p = dir.join(rel);
            if let Some(parent) = p.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&p, bytes).with_context(|| format!("writing {}", p.display()))?;
            #[cfg(unix)]
            if *exec {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(&p, fs::Permissions::from_mode(0o755))?;
            }
        }
        let repo = git2::Repository::init(dir)?;
        let mut index = repo.index()?;
        index.add_all(["*"].iter(), git2::IndexAddOption::FORCE, None)?;
        index.write()?;
        let tree_id = index.write_tree()?;
        let tree = repo.find_tree(tree_id)?;
        let when = git2::Time::new(1_764_288_000, 0); // 2025-11-28T00:00:00Z
        let sig = git2::Signature::new("harness demo", "demo@harness.invalid", &when)?;
        let oid = repo.commit(
            Some("HEAD"),
            &sig,
            &sig,
            "Demo project at the point of the hand-off\n",
            &tree,
            &[],
        )?;
        Ok(oid.to_string())
    }
}
