//! Shared helpers for the integration tests: real git repositories made with git2 in temp
//! folders, and the real `harness` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The built `harness` binary in a fresh hermetic environment of its own ([`TestEnv`]): a
/// cleared environment, the host's PATH without any agent CLI, its own HOME and XDG folders.
/// A test that runs harness twice against the same home makes one [`TestEnv`] and calls
/// [`TestEnv::harness`], or sets `HOME` itself.
pub fn harness() -> assert_cmd::Command {
    TestEnv::kept().harness()
}

/// The agent CLIs a user's machine may have installed and logged in. No test may find one on
/// its PATH: a test that needs one puts a stand-in in a folder of its own.
pub const AGENT_CLIS: [&str; 3] = ["claude", "codex", "gemini"];

/// Host variables a test process may pass on: the toolchain's own (coverage, backtraces) and
/// nothing a harness or an agent reads for its behaviour.
/// `SLURM_CONF` points the ignored cluster tests at the one-node cluster `.ci/slurm.sh` starts.
const PASSED_FROM_HOST: [&str; 4] = [
    "RUST_BACKTRACE",
    "LLVM_PROFILE_FILE",
    "CARGO_LLVM_COV",
    "SLURM_CONF",
];

/// This test process's folder for hermetic environments, under the system temp folder (outside
/// any git work tree, as a user's temp folder is); folders of test processes that are gone are
/// removed the first time it is asked for.
fn process_root() -> &'static Path {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let base = std::env::temp_dir().join("harness-tests");
        std::fs::create_dir_all(&base).unwrap();
        if let Ok(entries) = std::fs::read_dir(&base) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().to_string();
                let alive = name
                    .parse::<u32>()
                    .map(|pid| Path::new("/proc").join(pid.to_string()).exists())
                    .unwrap_or(true);
                if !alive {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let root = base.join(std::process::id().to_string());
        std::fs::create_dir_all(&root).unwrap();
        root
    })
}

/// The host's PATH with every agent CLI taken out: a folder holding none stays as it is; one
/// holding `claude`, `codex` or `gemini` is replaced by a folder of links to everything else
/// in it (so `/usr/bin/claude` hides nothing else of `/usr/bin`). Built once per process.
pub fn hermetic_path() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let host = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs: Vec<PathBuf> = Vec::new();
        for (i, d) in std::env::split_paths(&host).enumerate() {
            if dirs.contains(&d) {
                continue;
            }
            let has_agent = AGENT_CLIS.iter().any(|a| d.join(a).exists());
            if !has_agent {
                dirs.push(d);
                continue;
            }
            let farm = process_root().join("path").join(i.to_string());
            std::fs::create_dir_all(&farm).unwrap();
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let name = e.file_name();
                if AGENT_CLIS.iter().any(|a| name == *a) {
                    continue;
                }
                let _ = std::os::unix::fs::symlink(e.path(), farm.join(&name));
            }
            dirs.push(farm);
        }
        std::env::join_paths(dirs)
            .unwrap()
            .to_string_lossy()
            .to_string()
    })
}

/// [`hermetic_path`] with `first` folders (stand-in CLIs, test agents) before it.
pub fn path_with(first: &[&Path]) -> String {
    let mut s = String::new();
    for d in first {
        s.push_str(&d.display().to_string());
        s.push(':');
    }
    s.push_str(hermetic_path());
    s
}

/// One test's own environment, as jj's `TestEnvironment`: a folder holding its HOME (with the
/// XDG folders inside) and TMPDIR, and the variables every command it starts gets: nothing of
/// the host's but [`hermetic_path`] (and toolchain variables), so no installed or logged-in
/// agent CLI, user config or credential of the machine reaches a test.
pub struct TestEnv {
    root: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

impl Default for TestEnv {
    fn default() -> Self {
        Self::new()
    }
}

impl TestEnv {
    /// A fresh environment, removed when dropped.
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("env-")
            .tempdir_in(process_root())
            .unwrap();
        let root = dir.path().to_path_buf();
        let env = TestEnv {
            root,
            _dir: Some(dir),
        };
        env.make_folders();
        env
    }

    /// A fresh environment kept until the test process ends (its folder goes with the next
    /// test run): for a command built by [`harness`], which outlives no owner.
    pub fn kept() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("env-")
            .tempdir_in(process_root())
            .unwrap()
            .keep();
        let env = TestEnv {
            root: dir,
            _dir: None,
        };
        env.make_folders();
        env
    }

    fn make_folders(&self) {
        for d in [
            self.home(),
            self.xdg_config(),
            self.xdg_state(),
            self.home().join(".local/share"),
            self.home().join(".cache"),
            self.tmp(),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
    }

    /// This environment's HOME.
    pub fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    /// Its `XDG_CONFIG_HOME` (where a user's harness.toml would be).
    pub fn xdg_config(&self) -> PathBuf {
        self.home().join(".config")
    }

    /// Its `XDG_STATE_HOME` (where harness keeps its record of rounds' temp folders).
    pub fn xdg_state(&self) -> PathBuf {
        self.home().join(".local/state")
    }

    /// Its `TMPDIR`.
    pub fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    /// The variables every command started in this environment gets, and nothing else.
    pub fn vars(&self) -> Vec<(String, String)> {
        let home = self.home();
        let mut v: Vec<(String, String)> = vec![
            ("PATH".into(), hermetic_path().to_string()),
            ("HOME".into(), home.display().to_string()),
            (
                "XDG_CONFIG_HOME".into(),
                self.xdg_config().display().to_string(),
            ),
            (
                "XDG_STATE_HOME".into(),
                self.xdg_state().display().to_string(),
            ),
            (
                "XDG_DATA_HOME".into(),
                home.join(".local/share").display().to_string(),
            ),
            (
                "XDG_CACHE_HOME".into(),
                home.join(".cache").display().to_string(),
            ),
            ("TMPDIR".into(), self.tmp().display().to_string()),
            ("LANG".into(), "C.UTF-8".into()),
            ("TZ".into(), "UTC".into()),
            ("NO_COLOR".into(), "1".into()),
        ];
        for k in PASSED_FROM_HOST {
            if let Ok(val) = std::env::var(k) {
                v.push((k.into(), val));
            }
        }
        v
    }

    /// The built `harness` binary in this environment.
    pub fn harness(&self) -> assert_cmd::Command {
        let mut c = assert_cmd::Command::cargo_bin("harness").expect("harness binary");
        c.env_clear().envs(self.vars());
        c
    }

    /// Any program (a shell running a README line, an agent script) in this environment.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let mut c = std::process::Command::new(program);
        c.env_clear().envs(self.vars());
        c
    }
}

/// The round's summary.json, parsed: what most round tests assert on.
pub fn summary(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

/// Runs `cmd` with its stdout a pipe whose reader has already left: every line it prints
/// meets a closed pipe. Returns how it ended and what it wrote on stderr.
pub fn into_closed_pipe(mut cmd: std::process::Command) -> (std::process::ExitStatus, String) {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap(), err)
}

/// Writes `files` (path, content) under `dir`, makes it a git repository and commits them.
/// Returns the commit sha.
pub fn make_repo(dir: &Path, files: &[(&str, &[u8])]) -> String {
    let repo = git2::Repository::init(dir).expect("init");
    for (p, b) in files {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, b).unwrap();
    }
    commit_all(&repo, "initial")
}

/// Stages everything (ignored files stay out) and commits on HEAD.
pub fn commit_all(repo: &git2::Repository, msg: &str) -> String {
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    // Removed files leave the index too.
    index.update_all(["*"].iter(), None).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("test", "test@example.invalid").unwrap();
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, msg, &tree, &parents)
        .unwrap()
        .to_string()
}

/// A token assembled at run time, so it never stands literally in this repository.
pub fn tok(tag: &str) -> String {
    format!("{}{}{}", "zz", tag, 9 * 7 * 11)
}

/// Writes a qset (rows as given, tab-joined) to `path`.
pub fn write_qset(path: &Path, rows: &[[&str; 4]]) {
    let mut s = String::from("qid\tkind\tquestion\ttoken\n");
    for r in rows {
        s.push_str(&r.join("\t"));
        s.push('\n');
    }
    std::fs::write(path, s).unwrap();
}

/// The repository root of this workspace (for shipped files).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The folder of the test agent scripts.
pub fn agents_dir() -> PathBuf {
    workspace_root().join("tests").join("agents")
}

/// The out-dir's top-level names a round writes: its own files and the [`dispatches`] folder,
/// never a per-dispatch file. `usage.json` is the agents' reported usage per arm, written by
/// collect on every round.
pub const ROUND_FILES: [&str; 9] = [
    "ROUND_DONE",
    "journal",
    "round.json",
    "verdicts.csv",
    "summary.json",
    "report.md",
    "report.html",
    "usage.json",
    "dispatches",
];

/// `<out>/dispatches`: where a round keeps its per-dispatch files (`<label>_r<n>.txt`, `.json`,
/// `.prompt`, `.stderr`, `.raw`, `.err`). The one place the tests name that layout.
pub fn dispatches(out: &Path) -> PathBuf {
    out.join("dispatches")
}

/// `<out>/dispatches/<stem>.<ext>`: one file of one dispatch.
pub fn dispatch_file(out: &Path, stem: &str, ext: &str) -> PathBuf {
    dispatches(out).join(format!("{stem}.{ext}"))
}

/// Turns a round into what a round from before `dispatches/` looks like: every file of the
/// folder moved up to the out-dir's top level, the folder removed.
pub fn flatten_round(out: &Path) {
    let dir = dispatches(out);
    for e in std::fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        std::fs::rename(e.path(), out.join(e.file_name())).unwrap();
    }
    std::fs::remove_dir(&dir).unwrap();
}

/// A CTRL refusal in everyday words no strict pattern knows, so the lexicon leaves it
/// UNDETERMINED. When a lexicon release learns it, every test that needs an undetermined row
/// moves to the next such phrase here, in one place.
pub const UNCERTAIN_REFUSAL: &str = "Nothing in the repo nails that down.";

/// The inputs of the smallest round that needs review: a positive (the codename, in the seal)
/// and a negative (the region, nowhere); ARM reads the seal and refuses the negative in words
/// the lexicon knows, CTRL says [`UNCERTAIN_REFUSAL`] to both, so its negative is the one
/// UNDETERMINED row that decides the verdict (exit 14).
pub struct UndeterminedDesign {
    pub repo: PathBuf,
    pub qset: PathBuf,
    pub seal: PathBuf,
    /// `command:sh <dir>/agent.sh {prompt}`.
    pub agent: String,
    /// The negative's token (the region nobody recorded).
    pub neg: String,
}

impl UndeterminedDesign {
    /// Writes the repository, qset, seal and agent script under `dir`.
    pub fn write(dir: &Path) -> Self {
        let repo = dir.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        make_repo(
            &repo,
            &[
                ("README.md", b"A small service.\n"),
                (".gitignore", b"tracks/\n"),
            ],
        );
        let pos = tok("cod");
        let neg = tok("reg");
        let qset = dir.join("q.tsv");
        write_qset(
            &qset,
            &[
                ["q1", "positive", "What is the release codename?", &pos],
                [
                    "q2",
                    "negative",
                    "Which cloud region hosts production?",
                    &neg,
                ],
            ],
        );
        let seal = dir.join("handoff.md");
        std::fs::write(&seal, format!("The release codename is {pos}.\n")).unwrap();
        let script = dir.join("agent.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nseal=tracks/_meta/compaction/*\nif [ -f $seal ]; then\n  case \"$1\" in *codename*) grep codename $seal; exit 0 ;; esac\n  echo 'I could not find any record of that.'\nelse\n  echo '{UNCERTAIN_REFUSAL}'\nfi\n"
            ),
        )
        .unwrap();
        let agent = format!("command:sh {} {{prompt}}", script.display());
        UndeterminedDesign {
            repo,
            qset,
            seal,
            agent,
            neg,
        }
    }

    /// `--qset Q --seal S --repo R`, for a `run` or `seal` command line.
    pub fn inputs(&self) -> [std::ffi::OsString; 6] {
        [
            "--qset".into(),
            self.qset.clone().into(),
            "--seal".into(),
            self.seal.clone().into(),
            "--repo".into(),
            self.repo.clone().into(),
        ]
    }
}
