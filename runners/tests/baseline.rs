//! The baseline agents on real git repositories in temp dirs.

use std::fs;
use std::path::Path;

use runners::baseline::{answer, content_words, named_paths, question_of, REFUSAL};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// A git repo with a tracked-looking tree, a `.gitignore`d folder and a
/// `.git/info/exclude`d plant folder, like a dispatch checkout.
fn checkout() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git2::Repository::init(root).unwrap();
    write(
        root,
        "README.md",
        "Demo project.\nThe billing service is written in Rust.\n",
    );
    write(
        root,
        "config/billing.toml",
        "# billing service\nport = 7741 # the billing service listens on this port\n",
    );
    write(root, ".gitignore", "scratch/\n");
    write(
        root,
        "scratch/notes.txt",
        "the deploy region chosen was mars west\n",
    );
    write(root, ".git/info/exclude", "tracks/_meta/compaction/\n");
    write(
        root,
        "tracks/_meta/compaction/handoff.md",
        "# hand-off\nThe retry budget was set to 11 attempts after the outage.\n",
    );
    dir
}

#[test]
fn answers_with_the_best_matching_line_and_its_source() {
    let dir = checkout();
    let a = answer(
        dir.path(),
        "What port does the billing service listen on?",
        true,
    );
    assert!(a.contains("7741"), "{a}");
    assert!(a.contains("config/billing.toml, line 2"), "{a}");
}

#[test]
fn refuses_in_plain_words_when_nothing_matches() {
    let dir = checkout();
    assert_eq!(
        answer(
            dir.path(),
            "Which database vendor was rejected last quarter?",
            true
        ),
        REFUSAL
    );
    // One weak overlap (1 of 4 content words) is not an answer.
    assert_eq!(
        answer(
            dir.path(),
            "Which vendor priced the billing contract renewal?",
            true
        ),
        REFUSAL
    );
    assert_eq!(answer(dir.path(), "", true), REFUSAL);
    assert_eq!(
        answer(dir.path(), "what is it?", true),
        REFUSAL,
        "no content words"
    );
}

#[test]
fn gitignored_and_excluded_files_are_invisible_to_grep_but_not_to_grep_all() {
    let dir = checkout();
    let q_excluded = "How many attempts is the retry budget?";
    let q_ignored = "Which deploy region was chosen?";
    assert_eq!(answer(dir.path(), q_excluded, true), REFUSAL);
    assert_eq!(answer(dir.path(), q_ignored, true), REFUSAL);
    let all = answer(dir.path(), q_excluded, false);
    assert!(all.contains("11 attempts"), "{all}");
    assert!(answer(dir.path(), q_ignored, false).contains("mars west"));
}

#[test]
fn a_path_named_in_the_prompt_is_read_even_when_ignored() {
    let dir = checkout();
    let prompt = "[Hand-off from the previous session: tracks/_meta/compaction/handoff.md — open it if you need it] \
                  How many attempts is the retry budget?\n\n\
                  Answer briefly. If the repository holds no record, say so plainly and end with a verdict tag.";
    let a = answer(dir.path(), prompt, true);
    assert!(a.contains("11 attempts"), "{a}");
    assert!(a.contains("tracks/_meta/compaction/handoff.md"), "{a}");
}

#[test]
fn question_is_the_first_line_after_the_hand_off_note() {
    let p = "[Hand-off: a/b.md — open it] What port?\n\nProtocol text with many other words.";
    assert_eq!(question_of(p), "What port?");
    assert_eq!(question_of("  \nWhy?\nmore"), "Why?");
    assert_eq!(named_paths(p), vec!["a/b.md"]);
    assert!(named_paths("see https://example.com/x.html and notes.md.")
        .contains(&"notes.md".to_string()));
    let w = content_words("What is the Retry-budget of 배포 지역은?");
    assert!(
        w.contains("retry") && w.contains("budget") && w.contains("배포") && w.contains("지역")
    );
    assert!(!w.contains("what") && !w.contains("the") && !w.contains("is"));
}

#[test]
fn hangul_questions_match_hangul_lines() {
    let dir = checkout();
    write(dir.path(), "docs/ko.md", "배포 지역: 화성 서부로 정했다\n");
    let a = answer(dir.path(), "배포 지역은 어디인가?", true);
    assert!(a.contains("화성"), "{a}");
}

#[test]
fn ties_break_by_named_file_then_path_then_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "b.txt", "alpha beta gamma one\n");
    write(
        root,
        "a.txt",
        "zzz\nalpha beta gamma two\nalpha beta gamma three\n",
    );
    let q = "alpha beta gamma?";
    let first = answer(root, q, true);
    assert!(first.starts_with("alpha beta gamma two"), "{first}");
    for _ in 0..3 {
        assert_eq!(answer(root, q, true), first, "deterministic");
    }
    let named = answer(root, "alpha beta gamma? see b.txt", true);
    assert!(named.starts_with("alpha beta gamma one"), "{named}");
}

#[test]
fn never_reads_outside_the_checkout() {
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "secret.txt",
        "the launch code phrase is violet harbor\n",
    );
    write(
        outside.path(),
        "dir/inner.txt",
        "the launch code phrase is violet harbor\n",
    );
    let dir = checkout();
    let root = dir.path();
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("dir"), root.join("linkdir")).unwrap();
    let q = "What is the launch code phrase?";
    for respect in [true, false] {
        assert_eq!(
            answer(root, q, respect),
            REFUSAL,
            "symlinks are not followed (respect={respect})"
        );
        for named in [
            "link.txt".to_string(),
            "linkdir/inner.txt".to_string(),
            format!("{}", outside.path().join("secret.txt").display()),
            format!(
                "../{}/secret.txt",
                outside.path().file_name().unwrap().to_string_lossy()
            ),
        ] {
            let prompt = format!("[Hand-off: {named} — open it] {q}");
            assert_eq!(
                answer(root, &prompt, respect),
                REFUSAL,
                "named {named} must not be read"
            );
        }
    }
    // The same prompt does answer once the file is really inside (the test can fail).
    write(
        root,
        "inside.txt",
        "the launch code phrase is violet harbor\n",
    );
    assert!(answer(root, q, true).contains("violet harbor"));
}

#[test]
fn never_reads_the_git_folder() {
    let dir = checkout();
    write(
        dir.path(),
        ".git/notes.txt",
        "the launch code phrase is violet harbor\n",
    );
    let q = "What is the launch code phrase?";
    assert_eq!(answer(dir.path(), q, false), REFUSAL);
    assert_eq!(
        answer(dir.path(), &format!("[Hand-off: .git/notes.txt] {q}"), true),
        REFUSAL
    );
}
