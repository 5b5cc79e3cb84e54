//! The start gate and pre-registration (issue: gates), against real git repositories.

mod common;
use common::*;

struct Fixture {
    _dir: tempfile::TempDir,
    repo: std::path::PathBuf,
    work: std::path::PathBuf,
    qset: std::path::PathBuf,
    seal: std::path::PathBuf,
    pos: String,
    neg: String,
}

/// A repo with innocent files, and a qset + seal outside it that pass the gate.
fn fixture(extra: &[(&str, &[u8])]) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let mut files: Vec<(&str, &[u8])> = vec![
        ("README.md", b"A small project.\n"),
        ("src/main.rs", b"fn main() {}\n"),
        (".gitignore", b"tracks/\nscratch.txt\n"),
    ];
    files.extend_from_slice(extra);
    make_repo(&repo, &files);
    let pos = tok("pos");
    let neg = tok("neg");
    let qset = work.join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the codename?", &pos],
            ["q2", "negative", "Which region hosts it?", &neg],
        ],
    );
    let seal = work.join("handoff.md");
    std::fs::write(&seal, format!("The codename is {pos}.\n")).unwrap();
    Fixture {
        _dir: dir,
        repo,
        work,
        qset,
        seal,
        pos,
        neg,
    }
}

fn gate(f: &Fixture) -> assert_cmd::assert::Assert {
    gate_with(harness(), f).assert()
}

/// `cmd` (a harness command of some environment) running the gate on the fixture.
fn gate_with(mut cmd: assert_cmd::Command, f: &Fixture) -> assert_cmd::Command {
    cmd.args(["gate", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo);
    cmd
}

/// `harness seal` of the fixture into the manifest `m`.
fn seal(f: &Fixture, m: &std::path::Path) -> assert_cmd::assert::Assert {
    harness()
        .args(["seal", "--agent", "baseline-grep", "--reps", "1", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("-o")
        .arg(m)
        .assert()
}

/// `harness verify MANIFEST --repo <fixture repo>` plus `extra`.
fn verify_manifest(
    f: &Fixture,
    m: impl AsRef<std::path::Path>,
    extra: &[&str],
) -> assert_cmd::assert::Assert {
    harness()
        .arg("verify")
        .arg(m.as_ref())
        .arg("--repo")
        .arg(&f.repo)
        .args(extra)
        .assert()
}

fn no_token_printed(a: &assert_cmd::assert::Assert, f: &Fixture) {
    let out = a.get_output();
    for t in [&f.pos, &f.neg] {
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains(t.as_str()),
            "token in stdout"
        );
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains(t.as_str()),
            "token in stderr"
        );
    }
}

#[test]
fn clean_gate_passes() {
    let f = fixture(&[]);
    gate(&f).code(0);
}

#[test]
fn token_in_tracked_file_is_exit_5_and_never_printed() {
    let f = fixture(&[]);
    std::fs::write(f.repo.join("notes.md"), format!("see {}\n", f.neg)).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "notes");
    let a = gate(&f).code(5);
    no_token_printed(&a, &f);
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("notes.md"));
}

#[test]
fn token_only_in_ignored_untracked_or_older_commit_passes() {
    let f = fixture(&[]);
    let repo = git2::Repository::open(&f.repo).unwrap();
    std::fs::write(f.repo.join("old.md"), &f.pos).unwrap();
    commit_all(&repo, "old");
    std::fs::remove_file(f.repo.join("old.md")).unwrap();
    commit_all(&repo, "gone");
    std::fs::write(f.repo.join("scratch.txt"), &f.pos).unwrap();
    std::fs::create_dir_all(f.repo.join("tracks")).unwrap();
    std::fs::write(f.repo.join("tracks/x.md"), &f.pos).unwrap();
    std::fs::write(f.repo.join("untracked.md"), &f.neg).unwrap();
    gate(&f).code(0);
}

#[test]
fn token_in_binary_file_or_differing_in_case_is_exit_5() {
    let f = fixture(&[]);
    let mut bin = vec![0u8, 159, 146, 150, 0];
    bin.extend_from_slice(f.pos.as_bytes());
    bin.push(0);
    std::fs::write(f.repo.join("blob.bin"), &bin).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "bin");
    gate(&f).code(5);

    let g = fixture(&[]);
    std::fs::write(g.repo.join("upper.md"), g.neg.to_uppercase()).unwrap();
    let repo = git2::Repository::open(&g.repo).unwrap();
    commit_all(&repo, "upper");
    gate(&g).code(5);
}

/// A token written in full-width letters (`１０ＭＢ`) is the token to a reader and to the scorer
/// (NFKC), so the gate finds it too, and says where.
#[test]
fn a_token_in_full_width_letters_is_contamination_naming_file_and_line() {
    let f = fixture(&[]);
    let wide: String = f
        .neg
        .chars()
        .map(|c| match c {
            '!'..='~' => char::from_u32(c as u32 + 0xFEE0).unwrap(),
            c => c,
        })
        .collect();
    assert_ne!(wide, f.neg);
    std::fs::write(f.repo.join("wide.md"), format!("# 메모\n지역: {wide}\n")).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "wide");
    let a = gate(&f).code(5);
    no_token_printed(&a, &f);
    assert!(stdout(&a).contains("wide.md:2"), "{}", stdout(&a));
    assert!(
        !stdout(&a).contains(&wide),
        "the full-width token is printed: {}",
        stdout(&a)
    );
}

#[test]
fn symlink_target_text_is_searched_not_the_outside_file() {
    let f = fixture(&[]);
    let outside = f.work.join("outside.txt");
    std::fs::write(&outside, &f.pos).unwrap();
    std::os::unix::fs::symlink(&outside, f.repo.join("link")).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "link");
    gate(&f).code(0);
    // A link whose *target text* holds the token is a hit.
    let g = fixture(&[]);
    std::os::unix::fs::symlink(format!("docs/{}", g.neg), g.repo.join("link2")).unwrap();
    let repo = git2::Repository::open(&g.repo).unwrap();
    commit_all(&repo, "link2");
    gate(&g).code(5);
}

#[test]
fn unreadable_object_fails_the_gate_instead_of_passing() {
    let f = fixture(&[]);
    let repo = git2::Repository::open(&f.repo).unwrap();
    let blob = repo
        .head()
        .unwrap()
        .peel_to_tree()
        .unwrap()
        .get_path(std::path::Path::new("README.md"))
        .unwrap()
        .id()
        .to_string();
    let obj = f
        .repo
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(obj).unwrap();
    let a = gate(&f);
    let code = a.get_output().status.code().unwrap();
    assert_eq!(code, 8, "a read error is a failure, never 0 hits");
}

#[test]
fn disagreeing_refs_are_exit_2() {
    let f = fixture(&[]);
    let repo = git2::Repository::open(&f.repo).unwrap();
    let first = repo.head().unwrap().target().unwrap().to_string();
    std::fs::write(f.repo.join("more.md"), "more\n").unwrap();
    commit_all(&repo, "more");
    harness()
        .args(["gate", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .args(["--base-ref", "HEAD", "--base-sha", &first])
        .assert()
        .code(2);
}

#[test]
fn ledger_refuses_a_seal_missing_a_positive_or_holding_a_negative() {
    let f = fixture(&[]);
    std::fs::write(&f.seal, "Nothing useful here.\n").unwrap();
    let a = gate(&f).code(8);
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("q1"));
    no_token_printed(&a, &f);

    let g = fixture(&[]);
    std::fs::write(
        &g.seal,
        format!("codename {} and region {}\n", g.pos, g.neg),
    )
    .unwrap();
    let a = gate(&g).code(8);
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("q2"));
}

#[test]
fn leaking_seal_name_is_exit_7() {
    let f = fixture(&[]);
    let leaky = f.work.join("ARM_answers.md");
    std::fs::copy(&f.seal, &leaky).unwrap();
    harness()
        .args(["gate", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&leaky)
        .arg("--repo")
        .arg(&f.repo)
        .assert()
        .code(7);
}

#[test]
fn tracked_seal_is_refused_as_self_contamination() {
    let f = fixture(&[]);
    std::fs::copy(&f.seal, f.repo.join("handoff.md")).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "seal");
    // The seal's token is now in the tree too; either axis refuses with 5.
    gate(&f).code(5);
}

/// Commits a symlink `name` → `target` into the fixture's repository.
fn commit_link(f: &Fixture, name: &str, target: &std::path::Path) {
    std::os::unix::fs::symlink(target, f.repo.join(name)).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, name);
}

fn stdout(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
}

#[test]
fn a_tracked_link_to_the_seal_or_an_ignored_file_is_refused_naming_the_link() {
    // The seal's absolute path: under --sandbox none an agent would read it through the link.
    let f = fixture(&[]);
    commit_link(&f, "notes", &f.seal);
    let a = gate(&f).code(5);
    assert!(
        stdout(&a).contains("tracked link notes leads to the seal"),
        "{}",
        stdout(&a)
    );
    no_token_printed(&a, &f);
    // A relative link into the ignored plant folder (ARM's seal, found through a path no
    // ignore rule covers), one climbing out of the tree (in a checkout: the sibling checkouts),
    // and absolute ones to an ignored file of the work tree and to a folder holding the qset.
    let f = fixture(&[]);
    commit_link(
        &f,
        "latest",
        std::path::Path::new("tracks/_meta/compaction/handoff.md"),
    );
    commit_link(&f, "peers", std::path::Path::new("../.."));
    std::fs::write(f.repo.join("scratch.txt"), b"kept out of git\n").unwrap();
    commit_link(&f, "scratch", &f.repo.join("scratch.txt"));
    commit_link(&f, "inputs", &f.work);
    let a = gate(&f).code(5);
    let out = stdout(&a);
    for want in [
        "tracked link latest leads to the plant folder tracks/_meta/compaction (ARM's seal)",
        "tracked link peers leads to outside the checkout (it climbs above the tree)",
        "tracked link scratch leads to the ignored path scratch.txt",
        "tracked link inputs leads to the qset",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
    // The repository's history.
    let f = fixture(&[]);
    commit_link(&f, "history", &f.repo.join(".git"));
    let a = gate(&f).code(5);
    assert!(
        stdout(&a).contains("leads to the repository's git folder"),
        "{}",
        stdout(&a)
    );
    // The round refuses the same way, before any dispatch.
    let out = f.work.join("round");
    harness()
        .args([
            "run",
            "--agent",
            "baseline-grep",
            "--sandbox",
            "none",
            "--qset",
        ])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(5);
    assert!(!out.join("ROUND_DONE").exists());
}

#[test]
fn links_to_tracked_files_and_folders_pass() {
    let f = fixture(&[]);
    commit_link(&f, "readme", std::path::Path::new("README.md"));
    commit_link(&f, "code", std::path::Path::new("src"));
    commit_link(&f, "abs-readme", &f.repo.join("README.md"));
    // A relative link to an ignored or missing path only dangles in a checkout.
    commit_link(
        &f,
        "compile_commands.json",
        std::path::Path::new("build/compile_commands.json"),
    );
    commit_link(&f, "notes", std::path::Path::new("scratch.txt"));
    gate(&f).code(0);
}

#[test]
fn the_ledger_finds_seal_values_as_the_scorer_finds_them_in_answers() {
    // Another case is the same token to the scorer: the seal carries it.
    let f = fixture(&[]);
    std::fs::write(
        &f.seal,
        format!("The codename is {}.\n", f.pos.to_uppercase()),
    )
    .unwrap();
    gate(&f).code(0);
    // A longer word is not the token: an answer copying this seal would not score PASS.
    std::fs::write(&f.seal, format!("The codename is {}7.\n", f.pos)).unwrap();
    let a = gate(&f).code(8);
    assert!(
        stdout(&a).contains("q1: positive token not in the seal"),
        "{}",
        stdout(&a)
    );
}

#[test]
fn phase_pre_is_partial_exit_3() {
    let f = fixture(&[]);
    harness()
        .args(["gate", "--phase", "pre", "--qset"])
        .arg(&f.qset)
        .arg("--repo")
        .arg(&f.repo)
        .assert()
        .code(3);
}

#[test]
fn manifest_round_trip_and_mismatches() {
    let f = fixture(&[]);
    let m = f.work.join("manifest.json");
    seal(&f, &m).code(0);
    verify_manifest(&f, &m, &[]).code(0);
    // An existing manifest is not overwritten without --force.
    seal(&f, &m).code(2);
    // Same content at another path: still a match (content, not path).
    let moved = f.work.join("elsewhere.tsv");
    std::fs::copy(&f.qset, &moved).unwrap();
    harness()
        .arg("verify")
        .arg(&m)
        .arg("--qset")
        .arg(&moved)
        .arg("--repo")
        .arg(&f.repo)
        .assert()
        .code(0);
    // One byte changed: 10.
    let mut b = std::fs::read(&f.qset).unwrap();
    let last = b.len() - 2;
    b[last] ^= 1;
    std::fs::write(&f.qset, b).unwrap();
    verify_manifest(&f, &m, &[]).code(10);
    // Missing manifest: 10.
    harness()
        .arg("verify")
        .arg(f.work.join("nope.json"))
        .assert()
        .code(10);
}

/// The built-in agent is sealed as what it is: the harness's offline stand-in, with no CLI
/// version and no model (not "the CLI's default" model of a CLI that does not exist), by
/// `seal` and `verify` alike; the manifest still verifies.
#[test]
fn a_sealed_built_in_agent_is_shown_as_the_offline_stand_in() {
    let f = fixture(&[]);
    let m = f.work.join("manifest.json");
    for a in [seal(&f, &m).code(0), verify_manifest(&f, &m, &[]).code(0)] {
        let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        let line = |k: &str| {
            out.lines()
                .find(|l| l.trim_start().starts_with(k))
                .unwrap_or_else(|| panic!("no {k} line: {out}"))
                .to_string()
        };
        assert!(
            line("agent_version").contains("none: the built-in offline stand-in"),
            "{out}"
        );
        assert!(
            line("model").contains("none: the built-in offline stand-in uses no model"),
            "{out}"
        );
        assert!(!out.contains("the CLI's default"), "{out}");
    }
}

/// The token rule is a field of the manifest a reader sees, and a verify under the other rule
/// names it as what differs.
#[test]
fn the_manifest_records_the_token_rule_and_verify_names_it_when_it_differs() {
    let f = fixture(&[]);
    let field = |m: &std::path::Path| {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(m).unwrap()).unwrap();
        v["scorer"]["token_match"].clone()
    };
    let word = f.work.join("word.json");
    seal(&f, &word).code(0);
    assert_eq!(field(&word), "word");
    let exact = f.work.join("exact.json");
    harness()
        .args([
            "seal",
            "--agent",
            "baseline-grep",
            "--token-match",
            "exact",
            "--qset",
        ])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("-o")
        .arg(&exact)
        .assert()
        .code(0);
    assert_eq!(field(&exact), "exact");
    let verify = |m: &std::path::Path, extra: &[&str], code: i32| {
        let a = verify_manifest(&f, m, extra).code(code);
        String::from_utf8_lossy(&a.get_output().stdout).to_string()
    };
    let text = verify(&exact, &[], 10);
    assert!(
        text.contains("token rule differs: sealed exact, this run word"),
        "{text}"
    );
    let text = verify(&word, &["--token-match", "exact"], 10);
    assert!(
        text.contains("token rule differs: sealed word, this run exact"),
        "{text}"
    );
    // Read as sealed, both verify and say nothing about the rule.
    assert!(!verify(&exact, &["--token-match", "exact"], 0).contains("token rule"));
    assert!(!verify(&word, &[], 0).contains("token rule"));
    // The field is sealed like every other: removed afterwards, the manifest is refused as
    // edited, never read as "no rule recorded".
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&word).unwrap()).unwrap();
    v["scorer"].as_object_mut().unwrap().remove("token_match");
    let edited = f.work.join("edited.json");
    std::fs::write(&edited, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let a = verify_manifest(&f, &edited, &[]).code(10);
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(stderr.contains("field `scorer` was edited"), "{stderr}");
}

#[test]
fn seal_refuses_what_the_gate_refuses() {
    let f = fixture(&[]);
    std::fs::write(&f.seal, "nothing\n").unwrap();
    let m = f.work.join("manifest.json");
    seal(&f, &m).code(8);
    assert!(!m.exists());
}

#[test]
fn a_file_named_after_a_token_is_contamination_and_its_name_is_masked() {
    let f = fixture(&[]);
    std::fs::write(f.repo.join(format!("notes-{}.txt", f.neg)), "innocent\n").unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "named");
    let a = gate(&f).code(5);
    no_token_printed(&a, &f);
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("‹token›"));
}

/// Every field of a manifest is covered by its integrity record: an edit to any of them is
/// refused by `verify` and by `run --manifest` (exit 10), naming the field.
#[test]
fn an_edited_manifest_field_is_exit_10_naming_the_field() {
    let f = fixture(&[]);
    let m = f.work.join("manifest.json");
    seal(&f, &m).code(0);
    let sealed = std::fs::read_to_string(&m).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 5] = [
        ("harness_version", |v| v["harness_version"] = "9.9.9".into()),
        ("created", |v| v["created"] = "2020-01-01T00:00:00Z".into()),
        ("scorer", |v| {
            v["scorer"]["lexicon_version"] = "0.0.1".into()
        }),
        ("inputs", |v| v["inputs"][0]["path"] = "other.tsv".into()),
        ("extra", |v| v["extra"] = "added later".into()),
    ];
    for (field, edit) in edits {
        let mut v: serde_json::Value = serde_json::from_str(&sealed).unwrap();
        edit(&mut v);
        std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
        let a = verify_manifest(&f, &m, &[]).code(10);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains(field), "verify does not name {field}: {err}");
    }
    let mut v: serde_json::Value = serde_json::from_str(&sealed).unwrap();
    v["harness_version"] = "9.9.9".into();
    std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let a = harness()
        .args(["run", "--agent", "baseline-grep", "--reps", "1", "--quiet"])
        .arg("--qset")
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("--manifest")
        .arg(&m)
        .arg("--out")
        .arg(f.work.join("r1"))
        .assert()
        .code(10);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("harness_version"), "{err}");
    // The integrity record edited to agree with the edit is still caught.
    let mut v: serde_json::Value = serde_json::from_str(&sealed).unwrap();
    v["integrity"]["fields"]["harness_version"] = "0".repeat(64).into();
    std::fs::write(&m, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    verify_manifest(&f, &m, &[]).code(10);
    // Unedited: still verifies.
    std::fs::write(&m, &sealed).unwrap();
    verify_manifest(&f, &m, &[]).code(0);
}

/// A contamination hit names `path:line` and the line around it with the token masked, under
/// the scorer's whole-word rule; a token only inside a longer word or number (the issue's
/// `1.80` inside `-101.8019444`) is listed, not refused — never printing the token.
#[test]
fn contamination_detail_gives_path_line_and_says_when_inside_a_longer_number() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // Assembled at run time, like every fixture token.
    let num = format!("{}.{}", 1, 80);
    let word = tok("alone");
    let geo = format!("lat,lon\n0,0\n-10{num}19444,2\n");
    let notes = format!("title\n\nsee {word} here\n");
    make_repo(
        &repo,
        &[
            ("data/geo.csv", geo.as_bytes()),
            ("notes.md", notes.as_bytes()),
        ],
    );
    let qset = work.join("q.tsv");
    write_qset(
        &qset,
        &[
            ["q1", "positive", "What is the ratio?", &num],
            ["q2", "positive", "What is the codename?", &word],
        ],
    );
    let a = harness()
        .args(["gate", "--phase", "pre", "--qset"])
        .arg(&qset)
        .arg("--repo")
        .arg(&repo)
        .assert()
        .code(5);
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    let q1 = out
        .lines()
        .find(|l| l.contains("q1 ("))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(q1.contains("data/geo.csv:3"), "{q1}");
    assert!(q1.contains("not refused"), "{q1}");
    assert!(q1.contains("-10‹token›19444"), "{q1}");
    let q2 = out
        .lines()
        .find(|l| l.contains("q2 ("))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(q2.contains("notes.md:3: \"see ‹token› here\""), "{q2}");
    assert!(q2.contains("rule: whole words, case-insensitive"), "{q2}");
    assert!(!q2.contains("not refused"), "{q2}");
    assert!(
        !out.contains(&num) && !out.contains(&word),
        "a token was printed:\n{out}"
    );
}

/// A base that is not where the manifest says is explained in terms of what the user did, not of
/// a `--base-sha` flag they never passed (issue 13 item 5).
#[test]
fn a_missing_sealed_base_does_not_name_flags_the_user_never_passed() {
    let f = fixture(&[]);
    let m = f.work.join("manifest.json");
    seal(&f, &m).code(0);
    let other = f.work.join("other");
    std::fs::create_dir_all(&other).unwrap();
    make_repo(&other, &[("README.md", b"another project\n")]);
    let a = harness()
        .args(["verify", "--manifest"])
        .arg(&m)
        .arg("--repo")
        .arg(&other)
        .assert()
        .code(10);
    let out = String::from_utf8_lossy(&a.get_output().stdout).to_string()
        + &String::from_utf8_lossy(&a.get_output().stderr);
    assert!(!out.contains("--base-sha"), "{out}");
    assert!(out.contains("not in"), "{out}");
    assert!(!out.contains("class="), "{out}");
}

/// Commits `path` (forced past .gitignore, as a repository can) into the fixture's repository.
fn commit_forced(f: &Fixture, path: &str, text: &str) {
    let full = f.repo.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(&full, text).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(std::path::Path::new(path)).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("test", "test@example.invalid").unwrap();
    let parent = repo.head().unwrap().peel_to_commit().unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "track", &tree, &[&parent])
        .unwrap();
}

#[test]
fn a_tracked_file_inside_the_plant_folder_is_exit_5_naming_it() {
    let f = fixture(&[]);
    // Beside the plant folder, not inside it: nothing to refuse.
    commit_forced(&f, "tracks/_meta/compaction-notes.md", "Notes.\n");
    let a = gate(&f).code(0);
    assert!(
        stdout(&a).contains("plant-folder"),
        "the axis is shown: {}",
        stdout(&a)
    );
    // A decoy hand-off with wrong values where the seal is planted.
    commit_forced(
        &f,
        "tracks/_meta/compaction/HANDOFF.md",
        "The codename is Wrong-Value.\n",
    );
    let a = gate(&f).code(5);
    let out = stdout(&a);
    assert!(
        out.contains("tracks/_meta/compaction/HANDOFF.md") && out.contains("plant-folder"),
        "{out}"
    );
    no_token_printed(&a, &f);
    // Another --plant-dir leaves the decoy an ordinary tracked file.
    harness()
        .args(["gate", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .args(["--plant-dir", "docs/_handoff"])
        .assert()
        .code(0);
}

/// Issue 22 item 3: the must-be-absent checks read the seal with the scorer's token rule. A
/// conflict's general value `MIT` is not inside "(not committed)", so a good hand-off passes;
/// a seal that does hold a value it must not is refused naming the seal file, the line, the
/// line around it (the value masked) and the rule.
#[test]
fn the_ledger_reads_absent_values_as_whole_words_and_names_where_it_saw_one() {
    let f = fixture(&[]);
    let planted = tok("planted");
    let licence = ["M", "I", "T"].concat();
    std::fs::write(
        &f.qset,
        format!(
            "qid\tkind\tquestion\ttoken\tgeneral\n\
             q1\tpositive\tWhat is the codename?\t{}\n\
             q2\tnegative\tWhich region hosts it?\t{}\n\
             c2\tconflict\tUnder which licence is it?\t{planted}\t{licence}\n",
            f.pos, f.neg
        ),
    )
    .unwrap();
    std::fs::write(
        &f.seal,
        format!(
            "# Hand-off\nThe codename is {}.\nLicence {planted} (not committed yet).\n",
            f.pos
        ),
    )
    .unwrap();
    let a = gate(&f).code(0);
    assert!(stdout(&a).contains("ledger"), "{}", stdout(&a));

    std::fs::write(
        &f.seal,
        format!(
            "# Hand-off\nThe codename is {}.\nLicence {planted}, was {} before.\n",
            f.pos,
            licence.to_lowercase()
        ),
    )
    .unwrap();
    let a = gate(&f).code(8);
    let out = stdout(&a);
    let line = out
        .lines()
        .find(|l| l.contains("c2: general value is in the seal"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("handoff.md:3: \"Licence ‹token›, was ‹token› before.\""),
        "{line}"
    );
    assert!(
        line.contains("rule: whole words, case-insensitive"),
        "{line}"
    );
    assert!(!out.contains(&planted) && !out.contains(&f.pos), "{out}");
}

/// The token-shape advice is listed in full the first time a state folder sees a qset's bytes
/// and as one line after that; a new state folder, an edited qset (same warnings, other bytes)
/// and `--verbose` see it in full.
#[test]
fn the_token_shape_advice_is_listed_in_full_once() {
    let f = fixture(&[]);
    // Weak on purpose, and assembled so no qset value stands in this file.
    let (short, digits) = (format!("x{}", 3 * 3), format!("{}", 47 * 100 + 11));
    write_qset(
        &f.qset,
        &[
            ["q1", "positive", "What is the codename?", &f.pos],
            ["q2", "negative", "Which port is it?", &short],
            ["q3", "negative", "Which rack?", &digits],
        ],
    );
    let env = TestEnv::new();
    let run = |env: &TestEnv| {
        let o = gate_with(env.harness(), &f)
            .current_dir(&f.work)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let shape = |out: &str| -> Vec<String> {
        let mut lines = Vec::new();
        let mut inside = false;
        for l in out.lines() {
            if l.starts_with("token-shape") {
                inside = true;
            } else if !l.starts_with(' ') {
                inside = false;
            }
            if inside {
                lines.push(l.to_string());
            }
        }
        lines
    };
    let first = run(&env);
    assert_eq!(shape(&first).len(), 2, "{first}");
    assert!(
        first.contains("q2 (negative): token is 2 characters"),
        "{first}"
    );
    let second = run(&env);
    assert_eq!(shape(&second).len(), 1, "{second}");
    assert!(
        second.contains("2 short or digits-only value(s), listed in full the first time"),
        "{second}"
    );
    assert_eq!(
        shape(&run(&TestEnv::new())).len(),
        2,
        "another user sees it in full"
    );
    let verbose = {
        let o = gate_with(env.harness(), &f)
            .arg("--verbose")
            .current_dir(&f.work)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(shape(&verbose).len(), 2, "--verbose lists it: {verbose}");
    // The same warnings from other qset bytes: a qset this state folder has not seen.
    let mut text = std::fs::read_to_string(&f.qset).unwrap();
    text.push_str("# one more comment line\n");
    std::fs::write(&f.qset, text).unwrap();
    let edited = run(&env);
    assert_eq!(shape(&edited).len(), 2, "an edited qset is new: {edited}");
    assert_eq!(shape(&run(&env)).len(), 1, "and seen after that");
}

/// `gate --format json` agrees with its exit code: a token in the tree (exit 5) is
/// `"contaminated": true`, a clean gate (exit 0) `false`; `overridden` is a round's override.
#[test]
fn gate_json_says_contaminated_when_it_exits_5() {
    let f = fixture(&[]);
    let neg = f.neg.clone();
    std::fs::write(f.repo.join("notes.md"), format!("region {neg}\n")).unwrap();
    let repo = git2::Repository::open(&f.repo).unwrap();
    commit_all(&repo, "notes");
    let json = |f: &Fixture| -> (i32, serde_json::Value) {
        let o = gate_with(harness(), f)
            .args(["--format", "json"])
            .output()
            .unwrap();
        (
            o.status.code().unwrap(),
            serde_json::from_slice(&o.stdout).unwrap(),
        )
    };
    let (code, v) = json(&f);
    assert_eq!(code, 5, "{v}");
    assert_eq!(v["exit"], 5, "{v}");
    assert_eq!(v["contaminated"], true, "{v}");
    assert_eq!(v["overridden"], false, "{v}");
    let clean = fixture(&[]);
    let (code, v) = json(&clean);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["contaminated"], false, "{v}");
}

/// A conflict line without its general value is accepted with a printed note: without it
/// PRIOR_WON is never asserted and CARRIER_UNREAD can never fire.
#[test]
fn a_conflict_without_general_gets_a_note() {
    let f = fixture(&[]);
    let planted = tok("pla");
    std::fs::write(
        &f.seal,
        format!("The codename is {}. The port is {planted}.\n", f.pos),
    )
    .unwrap();
    write_qset(
        &f.qset,
        &[
            ["q1", "positive", "What is the codename?", &f.pos],
            ["q2", "negative", "Which region hosts it?", &f.neg],
            ["q3", "conflict", "Which port does it listen on?", &planted],
        ],
    );
    let out = gate(&f).code(0).get_output().stdout.clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("q3: conflict without a general value (column 5): PRIOR_WON can never be asserted, so CARRIER_UNREAD can never fire"),
        "{out}"
    );
    assert!(!out.contains(&planted), "{out}");
}

/// A hand-off inside the repository's work tree that git does not track is accepted, with a
/// note that it is safe only while it stays untracked; one outside gets no such note.
#[test]
fn an_untracked_hand_off_inside_the_repository_gets_a_note() {
    let f = fixture(&[]);
    let out = gate(&f).code(0).get_output().stdout.clone();
    assert!(
        !String::from_utf8(out).unwrap().contains("untracked"),
        "a seal outside the repository needs no note"
    );
    let inside = f.repo.join("scratch.txt"); // git-ignored by the fixture
    std::fs::copy(&f.seal, &inside).unwrap();
    let out = harness()
        .args(["gate", "--qset"])
        .arg(&f.qset)
        .arg("--seal")
        .arg(&inside)
        .arg("--repo")
        .arg(&f.repo)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("is inside the repository (scratch.txt) and untracked: safe only while it stays untracked"),
        "{out}"
    );
}
