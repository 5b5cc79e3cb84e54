//! Where a round's records go. Past round records are the usual way tokens leak into a
//! repository (they hold the answers, tokens included), so the default out-dir is a per-user
//! state folder outside any repository, and an explicit `--out` inside the repository's work
//! tree is refused unless git ignores it.

use crate::exit::{Exit, Fail};
use anyhow::Result;
use std::path::{Component, Path, PathBuf};

/// The folder default out-dirs go in: `$XDG_STATE_HOME/harness/rounds`, else
/// `~/.local/state/harness/rounds` (the XDG default), else the temp folder's `harness-rounds`.
pub fn default_root() -> PathBuf {
    let from_env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if let Some(state) = from_env("XDG_STATE_HOME") {
        return state.join("harness").join("rounds");
    }
    if let Some(home) = from_env("HOME") {
        return home
            .join(".local")
            .join("state")
            .join("harness")
            .join("rounds");
    }
    std::env::temp_dir().join("harness-rounds")
}

/// `path` made absolute with `.` and `..` resolved lexically (the folder may not exist yet).
fn normalized(path: &Path) -> Result<PathBuf> {
    let abs = std::path::absolute(path)?;
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Ok(out)
}

/// `path` as a user should read it: unchanged unless it holds `.` or `..`, which are resolved
/// (through the file system when the folder exists, so a symlinked parent reads truly; else
/// lexically). `/tmp/w/subject/../rounds/r1` reads `/tmp/w/rounds/r1`.
pub fn shown(path: &Path) -> String {
    let dotted = path
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::CurDir));
    if !dotted {
        return path.display().to_string();
    }
    std::fs::canonicalize(path)
        .or_else(|_| normalized(path))
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string())
}

/// Refuses an out-dir inside the repository's work tree unless git ignores it: a round's
/// answers hold the qset's tokens, and a later round's gate would find them there (or worse, a
/// commit would carry them to every clone).
pub fn check_outside_repo(out: &Path, repo_workdir: &Path) -> Result<()> {
    let out_abs = normalized(out)?;
    let repo_abs = normalized(repo_workdir)?;
    let (Ok(out_real), Ok(repo_real)) =
        (canonical_prefix(&out_abs), std::fs::canonicalize(&repo_abs))
    else {
        return Ok(());
    };
    let Ok(rel) = out_real.strip_prefix(&repo_real) else {
        return Ok(());
    };
    if rel.as_os_str().is_empty() {
        return Err(refusal(out, "is the repository's own work tree"));
    }
    let repo = git2::Repository::open(&repo_real).map_err(|e| {
        Fail::new(
            Exit::Usage,
            format!(
                "cannot ask git whether {} is ignored: {}",
                out.display(),
                e.message()
            ),
        )
    })?;
    // A folder is ignored when git ignores it or any folder above it.
    let mut p = PathBuf::new();
    for c in rel.components() {
        p.push(c);
        if repo.is_path_ignored(&p).unwrap_or(false) {
            return Ok(());
        }
    }
    Err(refusal(
        out,
        "is inside the repository's work tree and not git-ignored",
    ))
}

fn refusal(out: &Path, why: &str) -> anyhow::Error {
    Fail::new(
        Exit::Usage,
        format!(
            "--out {} {why}: the round's answers hold the qset's tokens, and a repository is \
             what the next round's agent reads. Pick a folder outside the repository (or leave \
             --out off: rounds go to {}), or git-ignore it",
            out.display(),
            default_root().display()
        ),
    )
    .into()
}

/// `path` as a user should read it and every later step should use it: absolute, with links
/// and `..` of the part that exists resolved (`…/rich/../../rounds/r1` is `/home/u/rounds/r1`),
/// the rest resolved lexically.
pub fn resolved(path: &Path) -> Result<PathBuf> {
    let abs = std::path::absolute(path)?;
    match canonical_prefix(&abs) {
        Ok(p) => Ok(p),
        Err(_) => normalized(&abs),
    }
}

/// The canonical form of the longest existing ancestor of `path`, with the rest appended: an
/// out-dir that does not exist yet is judged by where it will be created.
fn canonical_prefix(path: &Path) -> std::io::Result<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_os_string());
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut out = std::fs::canonicalize(&existing)?;
    for name in rest.into_iter().rev() {
        out.push(name);
    }
    Ok(out)
}

/// Refuses (exit 2) an out-dir this process cannot write into, naming it, before the gate and
/// before any unit: the plan, answers, records and labels are all written inside it (a
/// shared volume mounted at the out-dir works whatever its parent allows). An out-dir that does
/// not exist yet is checked at the nearest folder that does, where it will be created.
pub fn check_writable(out: &Path) -> Result<()> {
    let mut at = out;
    while !at.exists() {
        match at.parent() {
            Some(p) => at = p,
            None => break,
        }
    }
    let what = if at == out {
        format!("--out {}", out.display())
    } else {
        format!(
            "--out {} cannot be created: {}",
            out.display(),
            at.display()
        )
    };
    match tempfile::Builder::new().prefix(".harness-probe-").tempfile_in(at) {
        Ok(probe) => {
            let _ = probe.close();
            Ok(())
        }
        Err(e) => Err(Fail::new(
            Exit::Usage,
            format!(
                "{what} is not writable ({e}); the round writes its plan, answers and records inside the out-dir"
            ),
        )
        .into()),
    }
}

/// The harness's state folders, where default out-dirs and the record of every out-dir live:
/// `$XDG_STATE_HOME/harness` and `~/.local/state/harness` (both, when they differ: a round made
/// with either setting stays protected after it changes), and the temp folder's
/// `harness-rounds` (the fallback without a home).
pub fn state_dirs() -> Vec<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let mut dirs = Vec::new();
    if let Some(state) = var("XDG_STATE_HOME") {
        dirs.push(state.join("harness"));
    }
    if let Some(home) = var("HOME") {
        dirs.push(home.join(".local").join("state").join("harness"));
    }
    dirs.push(std::env::temp_dir().join("harness-rounds"));
    let mut out: Vec<PathBuf> = Vec::new();
    for d in dirs {
        let d = resolved(&d).unwrap_or(d);
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The file in each state folder listing every out-dir a round was planned in, one a line.
pub const OUT_DIRS_FILE: &str = "out-dirs";

/// The file in each state folder listing every qset and hand-off a round was planned with, one
/// a line: they hold the tokens, so a later round with other inputs denies them too.
pub const INPUTS_FILE: &str = "inputs";

/// Records `out` in the state folder's list of out-dirs (appended once; the list is the
/// user's alone, 0600), so later rounds deny their agents every earlier round's out-dir
/// wherever it is. A state folder that cannot be written records nothing.
pub fn register(out: &Path) {
    record_in(OUT_DIRS_FILE, out);
}

/// Records a round's qset and hand-off files in the state folder's list of inputs, as
/// [`register`] does out-dirs: an earlier round's qset or hand-off left in a folder an agent
/// can read (`~/handoff/old-qset.tsv`) is denied to every later round's agents and judges.
pub fn register_inputs<'a>(files: impl IntoIterator<Item = &'a Path>) {
    for f in files {
        record_in(INPUTS_FILE, f);
    }
}

/// The state folder this process records in: `$XDG_STATE_HOME/harness`, else
/// `~/.local/state/harness`, else (no home) the temp folder's `harness-rounds`, the same
/// folders [`state_dirs`] reads back.
fn state_root() -> PathBuf {
    let root = default_root();
    if root.ends_with("harness/rounds") {
        root.parent().map(Path::to_path_buf).unwrap_or(root)
    } else {
        root
    }
}

/// The file in each state folder listing the other state folders rounds were recorded in
/// (an earlier `XDG_STATE_HOME`): read back one level, so changing the variable does not
/// forget the rounds made under the old one.
pub const STATE_DIRS_FILE: &str = "state-dirs";

fn record_in(list: &str, path: &Path) {
    let dir = state_root();
    let Ok(out) = resolved(path) else { return };
    append_once(&dir.join(list), &out);
    // The home's state folder, which every later run with this home reads, learns where this
    // record is (an `XDG_STATE_HOME` may change). The temp folder's is never created for it.
    let here = resolved(&dir).unwrap_or(dir);
    if let Some(home_state) = home_state_dir() {
        if home_state != here {
            append_once(&home_state.join(STATE_DIRS_FILE), &here);
        }
    }
}

/// `~/.local/state/harness` (resolved), when there is a home.
fn home_state_dir() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())?;
    let d = home.join(".local").join("state").join("harness");
    Some(resolved(&d).unwrap_or(d))
}

/// Appends `path` as a line of `file` unless it is there already (the file 0600, its folder
/// created); a folder that cannot be written records nothing.
fn append_once(file: &Path, path: &Path) {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let Some(dir) = file.parent() else { return };
    let line = path.to_string_lossy().to_string();
    if line.contains('\n') {
        return;
    }
    let known = std::fs::read_to_string(file).unwrap_or_default();
    if known.lines().any(|l| l == line) {
        return;
    }
    let _ = std::fs::create_dir_all(dir).and_then(|_| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(file)
            .and_then(|mut f| writeln!(f, "{line}"))
    });
}

/// What no agent (nor judge) may read, whatever the round: every state folder
/// ([`state_dirs`]), and every out-dir recorded in one of them that still exists. Denied by
/// what they are: the sandbox keeps each out of every read rule.
pub fn protected() -> Vec<PathBuf> {
    let mut all = state_dirs();
    // The state folders of earlier settings (an old `XDG_STATE_HOME`), one level.
    let mut dirs = state_dirs();
    for dir in state_dirs() {
        let listed = std::fs::read_to_string(dir.join(STATE_DIRS_FILE)).unwrap_or_default();
        for l in listed.lines().filter(|l| l.starts_with('/')) {
            let p = PathBuf::from(l);
            if p.exists() && !dirs.contains(&p) {
                dirs.push(p.clone());
                all.push(p);
            }
        }
    }
    for dir in dirs {
        for list in [OUT_DIRS_FILE, INPUTS_FILE] {
            let listed = std::fs::read_to_string(dir.join(list)).unwrap_or_default();
            for l in listed.lines().filter(|l| l.starts_with('/')) {
                let p = PathBuf::from(l);
                if p.exists() && !all.contains(&p) {
                    all.push(p);
                }
            }
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_with_ignore(dir: &Path) {
        git2::Repository::init(dir).unwrap();
        std::fs::write(dir.join(".gitignore"), "ignored-rounds/\n").unwrap();
    }

    #[test]
    fn inside_the_work_tree_is_refused_unless_ignored() {
        let d = tempfile::tempdir().unwrap();
        repo_with_ignore(d.path());
        let err = check_outside_repo(&d.path().join("rounds/r1"), d.path()).unwrap_err();
        assert_eq!(crate::exit::exit_of(&err), Exit::Usage);
        assert!(err.to_string().contains("not git-ignored"), "{err}");
        check_outside_repo(&d.path().join("ignored-rounds/r1"), d.path()).unwrap();
        let outside = tempfile::tempdir().unwrap();
        check_outside_repo(&outside.path().join("r1"), d.path()).unwrap();
        // `..` that climbs back in is still inside.
        let sneaky = d.path().join("ignored-rounds/../rounds/r2");
        assert!(check_outside_repo(&sneaky, d.path()).is_err());
        assert!(check_outside_repo(d.path(), d.path()).is_err());
    }

    #[test]
    fn the_default_root_follows_xdg_state_home() {
        // Read only: the variables are the process's; the shape is what is checked.
        let root = default_root();
        assert!(root.ends_with("harness/rounds") || root.ends_with("harness-rounds"));
    }
}
