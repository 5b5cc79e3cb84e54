//! A new user's first hour (issue 13): where a round's records go, usage errors before the
//! gate, and the closing summary as JSON. Real repositories, the real binary, the built-in
//! deterministic agent.

mod common;
use common::*;
use std::path::{Path, PathBuf};

struct Fixture {
    _dir: tempfile::TempDir,
    repo: PathBuf,
    state: PathBuf,
    qset: PathBuf,
    seal: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let work = dir.path().join("handoff");
    let state = dir.path().join("state");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    make_repo(
        &repo,
        &[
            ("README.md", b"A small project.\n"),
            (".gitignore", b"tracks/\nscratch/\n"),
        ],
    );
    let pos = tok("pos");
    let neg = tok("neg");
    let qset = work.join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the release codename?", &pos],
            [
                "q2",
                "negative",
                "Which pager tool does the team use?",
                &neg,
            ],
        ],
    );
    let seal = work.join("handoff.md");
    std::fs::write(&seal, format!("The release codename is {pos}.\n")).unwrap();
    Fixture {
        _dir: dir,
        repo,
        state,
        qset,
        seal,
    }
}

fn run(f: &Fixture, extra: &[&str]) -> std::process::Output {
    harness()
        .current_dir(&f.repo)
        .env("XDG_STATE_HOME", &f.state)
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--deliver",
        ])
        .arg("--qset")
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .args(extra)
        .output()
        .unwrap()
}

fn text(o: &std::process::Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn porcelain(repo: &Path) -> Vec<String> {
    let r = git2::Repository::open(repo).unwrap();
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = r.statuses(Some(&mut opts)).unwrap();
    statuses
        .iter()
        .filter_map(|e| e.path().map(str::to_string))
        .collect()
}

#[test]
fn a_round_without_out_leaves_the_repository_clean() {
    let f = fixture();
    let o = run(&f, &["--agent", "baseline-grep"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        porcelain(&f.repo),
        Vec::<String>::new(),
        "git status is not empty"
    );
    let root = f.state.join("harness").join("rounds");
    assert!(
        text(&o).contains(&root.display().to_string()),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_dir(&root)
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .count(),
        1
    );
}

#[test]
fn an_out_inside_the_work_tree_is_refused_unless_git_ignored() {
    let f = fixture();
    let o = run(&f, &["--agent", "baseline-grep", "--out", "rounds/r1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("not git-ignored") && t.contains("tokens"), "{t}");
    assert!(!t.contains("contamination"), "refused after the gate:\n{t}");
    assert!(!f.repo.join("rounds").exists());
    let o = run(&f, &["--agent", "baseline-grep", "--out", "scratch/r1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(porcelain(&f.repo), Vec::<String>::new());
}

#[test]
fn usage_problems_are_reported_before_the_gate() {
    let f = fixture();
    let used = f.state.join("used");
    std::fs::create_dir_all(&used).unwrap();
    std::fs::write(used.join("x"), "x").unwrap();
    let used_s = used.to_string_lossy().into_owned();
    for (args, want) in [
        (vec!["--agent", "no-such-agent"], "no-such-agent"),
        (vec!["--agent", "command:sh -c true"], "--prompt-stdin"),
        (
            vec!["--agent", "baseline-grep", "--out", used_s.as_str()],
            "not empty",
        ),
    ] {
        let o = run(&f, &args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?}: {t}");
        assert!(
            !t.contains("start gate"),
            "{args:?}: the gate ran first:\n{t}"
        );
    }
}

#[test]
fn prompt_stdin_in_harness_toml_is_accepted() {
    let f = fixture();
    // The user's own file, given with --config (a repository's harness.toml is never read).
    std::fs::create_dir_all(&f.state).unwrap();
    let cfg = f.state.join("harness.toml");
    std::fs::write(&cfg, "[agents.command]\nprompt_stdin = true\n").unwrap();
    let o = run(
        &f,
        &[
            "--agent",
            "command:cat",
            "--out",
            "scratch/r1",
            "--config",
            cfg.to_str().unwrap(),
        ],
    );
    // `cat` echoes the prompt: the round runs (its verdict is the instrument's business).
    let t = text(&o);
    assert!(!t.contains("never reaches the agent"), "{t}");
    assert!(
        t.contains("Instrument verdict") || t.contains("ROUND INCOMPLETE"),
        "{t}"
    );
}

#[test]
fn the_closing_summary_speaks_json() {
    let f = fixture();
    let o = run(&f, &["--agent", "baseline-grep", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}):\n{}", text(&o)));
    assert_eq!(v["verdict"], "OK");
    assert_eq!(v["exit"], 0);
    assert_eq!(v["dispatches"]["planned"], 4);
    assert!(
        v["headline"].as_array().is_some_and(|h| h.len() >= 4),
        "{v}"
    );
}

/// The split round speaks the same vocabulary: `plan` without `--out` puts the round in the
/// per-user state folder (the repository stays clean, nothing beside the out-dir there),
/// `plan` and `collect` answer `--format json` with one document, `unit`/`collect` take `-o`.
#[test]
fn plan_unit_collect_use_the_state_folder_and_speak_json() {
    let f = fixture();
    let o = harness()
        .current_dir(&f.repo)
        .env("XDG_STATE_HOME", &f.state)
        .args([
            "plan",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--deliver",
            "--agent",
            "baseline-grep",
            "--format",
            "json",
        ])
        .arg("--qset")
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "plan's stdout is not one JSON document ({e}):\n{}",
            text(&o)
        )
    });
    assert_eq!(v["units"], 4, "{v}");
    let out = PathBuf::from(v["out"].as_str().unwrap());
    let root = f.state.join("harness").join("rounds");
    assert!(
        out.starts_with(&root),
        "{} is not under {}",
        out.display(),
        root.display()
    );
    for i in 0..4 {
        let u = harness()
            .current_dir(&f.repo)
            .args(["unit", "-o"])
            .arg(&out)
            .args(["--index", &i.to_string()])
            .output()
            .unwrap();
        assert_eq!(u.status.code(), Some(0), "unit {i}: {}", text(&u));
    }
    let c = harness()
        .current_dir(&f.repo)
        .args(["collect", "-o"])
        .arg(&out)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    let s: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap_or_else(|e| {
        panic!(
            "collect's stdout is not one JSON document ({e}):\n{}",
            text(&c)
        )
    });
    assert_eq!(s["verdict"], "OK", "{s}");
    assert_eq!(s["dispatches"]["answered"], 4, "{s}");
    // The labels stay in the out-dir's journal: nothing is written beside it.
    assert!(
        !journal_labelmap(&out).exists(),
        "a labelmap beside {}",
        out.display()
    );
    assert_eq!(
        porcelain(&f.repo),
        Vec::<String>::new(),
        "git status is not empty"
    );
}

fn journal_labelmap(out: &Path) -> PathBuf {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    out.with_file_name(format!("{name}.labelmap"))
}
