//! Shared helpers for the integration tests: real git repositories made with git2 in temp
//! folders, and the real `harness` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The built `harness` binary, ready to run.
pub fn harness() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("harness").expect("harness binary");
    c.env("NO_COLOR", "1");
    c
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
