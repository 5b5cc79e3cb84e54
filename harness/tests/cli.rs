//! `harness score`, `harness self-test`, `--help` and `--version` as a user runs them.

mod common;
use common::*;
use predicates::prelude::*;

/// The stdout of a command that must succeed.
fn stdout_of(cmd: &mut assert_cmd::Command) -> Vec<u8> {
    cmd.assert().success().get_output().stdout.clone()
}

#[test]
fn help_prints_the_exit_code_table() {
    let out = stdout_of(harness().arg("--help"));
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("Exit codes:"), "{text}");
    assert!(text.contains("13  round incomplete"), "{text}");
}

/// `score --help` states the resolved meanings the scorer and the judge rubric follow, and how
/// far a certain reading can be trusted, each figure named held out or tuned on: a user who
/// reads only the help must not take the lexicon for infallible.
#[test]
fn score_help_states_the_resolved_meanings_and_the_held_out_figures() {
    let out = stdout_of(harness().args(["score", "--help"]));
    let text = String::from_utf8_lossy(&out);
    for needle in [
        "a refusal then a guess of the token is REFUSED_WITH_TOKEN",
        "refusal then another value",
        "is PRIOR_WON",
        "a longer value holding it is not",
        "held out from the current reading",
        "tuned on",
        "harness explain UNDETERMINED",
    ] {
        assert!(
            text.contains(needle),
            "score --help lacks {needle:?}:\n{text}"
        );
    }
}

#[test]
fn guide_exit_table_is_the_one_the_binary_prints() {
    let out = stdout_of(harness().arg("--help"));
    let help = String::from_utf8_lossy(&out);
    let start = help.find("Exit codes:").unwrap();
    let table: Vec<&str> = help[start..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let page = std::fs::read_to_string(workspace_root().join("docs/exit-codes.md")).unwrap();
    for line in &table {
        assert!(
            page.contains(line),
            "docs/exit-codes.md lacks the exit line {line:?}"
        );
    }
}

#[test]
fn version_names_the_scorer_fingerprint() {
    harness().arg("--version").assert().success().stdout(
        predicate::str::contains("fingerprint")
            .and(predicate::str::contains(scorer::fingerprint()))
            .and(predicate::str::contains(format!(
                "judge rubric {} sha256 {}",
                scorer::rubric::RUBRIC_VERSION,
                &scorer::rubric::sha256()[..12]
            ))),
    );
    // The fingerprint is the lexicon's joined with the rubric's sha256, not the lexicon's alone.
    assert_ne!(
        scorer::fingerprint(),
        scorer::Lexicon::standard().fingerprint()
    );
}

#[test]
fn score_prints_exactly_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let t = tok("s");
    let f = dir.path().join("a.txt");
    std::fs::write(&f, format!("The codename is {t}.\n")).unwrap();
    harness()
        .args(["score", "--kind", "positive", "--token", &t])
        .arg(&f)
        .assert()
        .success()
        .stdout("PASS\n");
    std::fs::write(
        &f,
        format!("I could not find {t} anywhere.\n<<VERDICT:REFUSED>>\n"),
    )
    .unwrap();
    harness()
        .args(["score", "--kind", "positive", "--token", &t])
        .arg(&f)
        .assert()
        .success()
        .stdout("TYPED_REFUSED_WITH_TOKEN\n");
}

#[test]
fn score_reads_stdin_and_speaks_json() {
    let out = harness()
        .args([
            "score", "--kind", "negative", "--token", "-x9", "--format", "json", "-",
        ])
        .write_stdin("그 정보는 기록에 없습니다.")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["class"], "PASS");
    assert_eq!(v["has_ref"], true);
    assert_eq!(v["has_tok"], false);
    assert!(v["refusal_match"].is_string() || v["refusal_match"].is_object());
}

#[test]
fn score_token_is_literal_never_a_regex() {
    harness()
        .args(["score", "--kind", "positive", "--token", "a.b*c", "-"])
        .write_stdin("the value is axbbbc")
        .assert()
        .success()
        .stdout("FAIL\n");
    harness()
        .args(["score", "--kind", "positive", "--token", "a.b*c", "-"])
        .write_stdin("the value is a.b*c")
        .assert()
        .success()
        .stdout("PASS\n");
}

#[test]
fn empty_answer_is_void() {
    harness()
        .args(["score", "--kind", "negative", "--token", "x", "-"])
        .write_stdin("")
        .assert()
        .success()
        .stdout("VOID\n");
}

/// The verdict one `harness score` process gives one answer (the reference the batch forms
/// must agree with).
fn score_one(kind: &str, token: &str, general: Option<&str>, answer: &str) -> String {
    let mut cmd = harness();
    cmd.args(["score", "--kind", kind, "--token", token]);
    if let Some(g) = general {
        cmd.args(["--general", g]);
    }
    let out = cmd.arg("-").write_stdin(answer).assert().success();
    String::from_utf8(out.get_output().stdout.clone())
        .unwrap()
        .trim_end()
        .to_string()
}

#[test]
fn score_many_files_gives_each_file_its_own_verdict_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let t = tok("m");
    let answers = [
        ("arm_en.txt", format!("The codename is {t}.")),
        ("ctrl_en.txt", "I don't know.".to_string()),
        (
            "ctrl_ko.txt",
            "인계 문서에 해당 정보가 없어 알 수 없습니다.".to_string(),
        ),
        ("arm_ko.txt", format!("코드명은 {t}입니다.")),
    ];
    let mut files = Vec::new();
    for (name, text) in &answers {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        files.push(f);
    }
    let out = stdout_of(
        harness()
            .args(["score", "--kind", "positive", "--token", &t])
            .args(&files),
    );
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), answers.len(), "{text}");
    for ((name, answer), line) in answers.iter().zip(&lines) {
        let (file, verdict) = line.split_once('\t').expect("file<TAB>verdict");
        assert!(file.ends_with(name), "{line}");
        assert_eq!(verdict, score_one("positive", &t, None, answer), "{name}");
    }
    assert_eq!(lines[0].split('\t').nth(1), Some("PASS"));
    assert_ne!(lines[1].split('\t').nth(1), Some("PASS"));

    // A file name cannot add a line or a column; an unreadable file or a second `-` stops the
    // call before any verdict is printed.
    let evil = dir.path().join("x\tPASS\nfake.txt");
    std::fs::write(&evil, "I don't know.").unwrap();
    let out = stdout_of(
        harness()
            .args(["score", "--kind", "negative", "--token", &t])
            .arg(&files[0])
            .arg(&evil),
    );
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.split('\t').count() == 2), "{text}");
    harness()
        .args(["score", "--kind", "positive", "--token", &t])
        .arg(&files[0])
        .arg(dir.path().join("absent.txt"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("absent.txt"));
    harness()
        .args(["score", "--kind", "positive", "--token", &t, "-", "-"])
        .write_stdin("x")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("only once"));
}

#[test]
fn score_batch_agrees_with_one_process_per_answer() {
    // Rows of the shipped corpus across languages and kinds: text with ids, JSON without.
    let corpus = std::fs::read_to_string(workspace_root().join("scorer/corpus/dev.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = corpus
        .lines()
        .step_by(13)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() >= 20, "{}", rows.len());
    let mut batch = String::new();
    for (i, r) in rows.iter().enumerate() {
        let general = r["general"].as_str().filter(|g| !g.is_empty());
        let mut row = serde_json::json!({
            "kind": r["kind"], "token": r["token"], "answer": r["answer"],
        });
        if let Some(g) = general {
            row["general"] = g.into();
        }
        row["id"] = format!("r{i} 행 ✓").into();
        batch.push_str(&row.to_string());
        batch.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("answers.jsonl");
    std::fs::write(&f, &batch).unwrap();
    let out = stdout_of(harness().args(["score", "--batch"]).arg(&f));
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), rows.len(), "{text}");
    let unnamed: String = batch
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("id");
            format!("{v}\n")
        })
        .collect();
    let json = harness()
        .args(["score", "--format", "json", "--batch", "-"])
        .write_stdin(unnamed.as_str())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: Vec<serde_json::Value> = String::from_utf8(json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (i, (r, line)) in rows.iter().zip(&lines).enumerate() {
        let general = r["general"].as_str().filter(|g| !g.is_empty());
        let want = score_one(
            r["kind"].as_str().unwrap(),
            r["token"].as_str().unwrap(),
            general,
            r["answer"].as_str().unwrap(),
        );
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 2, "{line}");
        assert_eq!(cells[0], format!("r{i} 행 ✓"), "{line}");
        assert_eq!(cells[1], want, "row {i}: {}", r["id"]);
        assert_eq!(json[i]["verdict"], want.as_str());
        assert_eq!(json[i]["line"], i + 1);
        assert!(json[i].get("id").is_none());
    }
}

#[test]
fn score_batch_refuses_a_bad_row_naming_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("b.jsonl");
    std::fs::write(
        &f,
        "{\"kind\":\"negative\",\"token\":\"N1\",\"answer\":\"I don't know.\"}\n\n\
         {\"kind\":\"positive\",\"token\":\"K1\",\"anwser\":\"K1\"}\n",
    )
    .unwrap();
    harness()
        .args(["score", "--batch"])
        .arg(&f)
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("b.jsonl:3: not a batch row")
                .and(predicate::str::contains("anwser")),
        );
    // An id that would add a column and a line is refused, naming its line.
    std::fs::write(
        &f,
        "{\"id\":\"a\\tPASS\\nb\",\"kind\":\"negative\",\"token\":\"N1\",\"answer\":\"x\"}\n",
    )
    .unwrap();
    harness()
        .args(["score", "--batch"])
        .arg(&f)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "b.jsonl:1: not a batch row: id holds a control",
        ));
    // --batch carries the questions: a question or a file beside it is a usage error.
    let good = dir.path().join("good.jsonl");
    std::fs::write(
        &good,
        "{\"kind\":\"negative\",\"token\":\"N1\",\"answer\":\"I don't know.\"}\n",
    )
    .unwrap();
    harness()
        .args(["score", "--batch"])
        .arg(&good)
        .assert()
        .success()
        .stdout("1\tPASS\n");
    for extra in [
        &["--kind", "positive"][..],
        &["--token", "T"][..],
        &["--general", "g"][..],
        &["answer.txt"][..],
    ] {
        harness()
            .args(["score", "--batch"])
            .arg(&good)
            .args(extra)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("cannot be used with"));
    }
}

#[test]
fn self_test_passes_in_this_repository() {
    let out = stdout_of(harness().arg("self-test").current_dir(workspace_root()));
    let text = String::from_utf8_lossy(&out);
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("SELFTEST: ") && last.ends_with(" 0 failed"),
        "{last}"
    );
    for lane in ["L1 ", "L11", "L13 ", "L13-CTRL", "L14-CTRL4", "L16-CTRL3"] {
        assert!(text.contains(lane), "lane {lane} missing:\n{text}");
    }
}

/// `self-test` runs anywhere (issue 13 item 6): outside the harness checkout the lanes that
/// search its source tree are printed as skipped and counted apart, never as passed.
#[test]
fn self_test_outside_the_harness_checkout_skips_l13_and_exits_0() {
    let plain = tempfile::tempdir().unwrap();
    let user_repo = tempfile::tempdir().unwrap();
    make_repo(user_repo.path(), &[("README.md", b"a user's project\n")]);
    for dir in [plain.path(), user_repo.path()] {
        let a = harness().arg("self-test").current_dir(dir).assert().code(0);
        let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        for lane in ["L13 ", "L13-CTRL"] {
            let line = text
                .lines()
                .find(|l| l.contains(lane))
                .unwrap_or_else(|| panic!("lane {lane} not printed:\n{text}"));
            assert!(
                line.starts_with("skip") && line.contains("skipped: not in the harness checkout"),
                "{line}"
            );
        }
        let last = text.lines().last().unwrap();
        let n = |word: &str| -> usize {
            last.split(", ")
                .find_map(|p| p.trim_start_matches("SELFTEST: ").strip_suffix(word))
                .and_then(|d| d.trim().parse().ok())
                .unwrap_or_else(|| panic!("no '{word}' count in {last}"))
        };
        assert_eq!(n(" skipped"), 2, "{last}");
        assert_eq!(n(" failed"), 0, "{last}");
        let ok_lines = text.lines().filter(|l| l.starts_with("ok ")).count();
        assert_eq!(
            n(" passed"),
            ok_lines,
            "skipped lanes counted as passed: {last}"
        );
    }
}

#[test]
fn self_test_l13_goes_red_when_the_token_is_written_into_the_tree() {
    // A repository where someone wrote the fixture token back as a literal (the seed's mutant M2).
    let dir = tempfile::tempdir().unwrap();
    let tokv = scorer::fixtures::fixture_token();
    make_repo(
        dir.path(),
        &[
            ("notes.md", format!("fixture {tokv}\n").as_bytes()),
            (
                "harness/x.md",
                harness::commands::selftest::CONTROL_NEEDLE.as_bytes(),
            ),
        ],
    );
    let a = harness()
        .arg("self-test")
        .arg("--repo")
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("FAIL  L13 "), "{text}");
    assert!(text.contains("ok    L13-CTRL"), "{text}");
    // And with the needle only inside scorer/, the control cannot discriminate: red.
    let dir2 = tempfile::tempdir().unwrap();
    make_repo(
        dir2.path(),
        &[(
            "scorer/x.md",
            harness::commands::selftest::CONTROL_NEEDLE.as_bytes(),
        )],
    );
    let a = harness()
        .arg("self-test")
        .arg("--repo")
        .arg(dir2.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("FAIL  L13-CTRL"), "{text}");
}

#[test]
fn self_test_l13_fails_on_an_unreadable_file_instead_of_reporting_zero() {
    // Root reads a mode-000 file, so the unreadable file is a link to one no one can read:
    // /proc/self/mem fails with EIO at offset 0. Symlinks are followed, so the lane reads it.
    let dir = tempfile::tempdir().unwrap();
    make_repo(
        dir.path(),
        &[(
            "harness/x.md",
            harness::commands::selftest::CONTROL_NEEDLE.as_bytes(),
        )],
    );
    std::os::unix::fs::symlink("/proc/self/mem", dir.path().join("mem")).unwrap();
    let a = harness()
        .arg("self-test")
        .arg("--repo")
        .arg(dir.path())
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        text.contains("FAIL  L13 ") && text.contains("SEARCH ERROR"),
        "{text}"
    );
}

/// Errors speak to the user: no libgit2 codes (`class=…; code=…`), and the fix is named.
#[test]
fn a_missing_repository_names_the_fix_without_libgit2_codes() {
    let dir = tempfile::tempdir().unwrap();
    let qset = dir.path().join("q.tsv");
    write_qset(&qset, &[["q1", "positive", "What is it?", &tok("x")]]);
    let a = harness()
        .args(["gate", "--phase", "pre", "--qset"])
        .arg(&qset)
        .arg("--repo")
        .arg(dir.path())
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(!err.contains("class=") && !err.contains("code="), "{err}");
    assert!(err.contains("--repo"), "the fix is not named: {err}");
}

/// `report` and `rescore` on a folder that does not exist say so, instead of "the round did not
/// finish" (issue 13 item 5).
#[test]
fn report_on_a_missing_folder_says_it_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("rounds").join("does-not-exist");
    for cmd in ["report", "rescore"] {
        let a = harness().arg(cmd).arg(&missing).assert().code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains("does not exist"), "{cmd}: {err}");
        assert!(!err.contains("did not finish"), "{cmd}: {err}");
    }
}

/// A temp folder with a committed repository, a one-question qset and a seal that carries its
/// token: (folder, repo, qset, seal, token).
fn one_question() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    std::path::PathBuf,
    String,
) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    make_repo(&repo, &[("README.md", b"A small project.\n")]);
    let pos = tok("pos");
    let qset = dir.path().join("q.tsv");
    write_qset(&qset, &[["q1", "positive", "What is the codename?", &pos]]);
    let seal = dir.path().join("handoff.md");
    std::fs::write(&seal, format!("The codename is {pos}.\n")).unwrap();
    (dir, repo, qset, seal, pos)
}

/// One vocabulary (issue 13 item 7): `-o/--out` names what a command writes (old spellings kept
/// as hidden aliases), manifests come by `--manifest` (positional still works), and every
/// command that reports speaks `--format json`.
#[test]
fn flags_agree_across_commands_and_every_report_speaks_json() {
    let (dir, repo, qset, seal, pos) = one_question();
    let seal_cmd = |flag: &str, m: &std::path::Path| {
        harness()
            .args(["seal", "--agent", "baseline-grep", "--qset"])
            .arg(&qset)
            .arg("--seal")
            .arg(&seal)
            .arg("--repo")
            .arg(&repo)
            .arg(flag)
            .arg(m)
            .assert()
            .code(0);
    };
    let m = dir.path().join("m.json");
    seal_cmd("--out", &m);
    seal_cmd("--output", &dir.path().join("m2.json"));
    seal_cmd("-o", &dir.path().join("m3.json"));
    let help = harness().args(["seal", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&help.get_output().stdout).to_string();
    assert!(
        help.contains("--out") && !help.contains("--output"),
        "{help}"
    );

    // Every command that names an out-dir (or the file it writes) spells it -o/--out, the
    // split round's commands (plan, unit, collect) included.
    for cmd in [
        "run", "plan", "unit", "collect", "report", "rescore", "seal",
    ] {
        let h = harness().args([cmd, "--help"]).assert().success();
        let h = String::from_utf8_lossy(&h.get_output().stdout).to_string();
        assert!(
            h.contains("-o, --out"),
            "{cmd} --help has no -o/--out:\n{h}"
        );
    }

    harness()
        .args(["verify", "--manifest"])
        .arg(&m)
        .arg("--repo")
        .arg(&repo)
        .assert()
        .code(0);
    harness()
        .arg("verify")
        .arg(&m)
        .arg("--repo")
        .arg(&repo)
        .assert()
        .code(0);
    let a = harness().arg("verify").assert().code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("--manifest"), "{err}");

    let json = |args: &[&std::ffi::OsStr], code: i32| -> serde_json::Value {
        let a = harness()
            .args(args)
            .args(["--format", "json"])
            .current_dir(dir.path())
            .assert()
            .code(code);
        let out = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{out}"))
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let g = json(
        &[
            &os("gate"),
            &os("--qset"),
            qset.as_os_str(),
            &os("--seal"),
            seal.as_os_str(),
            &os("--repo"),
            repo.as_os_str(),
        ],
        0,
    );
    assert_eq!(g["exit"], 0, "{g}");
    assert!(g["axes"].as_array().is_some_and(|a| a.len() >= 3), "{g}");
    assert!(
        !g.to_string().contains(&pos),
        "the gate's JSON printed a token"
    );
    let v = json(
        &[
            &os("verify"),
            &os("--manifest"),
            m.as_os_str(),
            &os("--repo"),
            repo.as_os_str(),
        ],
        0,
    );
    assert_eq!(v["exit"], 0, "{v}");
    assert!(v["checks"].as_array().is_some_and(|c| c.len() == 5), "{v}");
    let d = json(&[&os("doctor")], 0);
    assert!(d["checks"]["landlock"].is_string(), "{d}");
    let s = json(&[&os("self-test")], 0);
    assert_eq!(s["failed"], 0, "{s}");
    assert_eq!(s["skipped"], 2, "{s}");
    assert!(s["lanes"].as_array().is_some_and(|l| l.len() > 40), "{s}");
}

/// No silent default that changes what is measured: outside the demo `--agent` is required
/// (issue 13 item 2), refused before anything is gated or written.
#[test]
fn run_without_agent_outside_the_demo_is_exit_2_naming_agent() {
    let (dir, repo, qset, seal, _) = one_question();
    let out = dir.path().join("r1");
    // `plan` takes run's flags and writes the journal: the same rule holds there.
    for cmd in ["run", "plan"] {
        let a = harness()
            .args([cmd, "--qset"])
            .arg(&qset)
            .arg("--seal")
            .arg(&seal)
            .arg("--out")
            .arg(&out)
            .current_dir(&repo)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
        assert!(err.contains("--agent"), "{cmd}: {err}");
        let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
        assert!(
            !stdout.contains("contamination"),
            "{cmd}: the gate ran first:\n{stdout}"
        );
        assert!(!out.exists(), "{cmd}: an out-dir was written");
    }
}

/// The guide's flag reference (docs/flags.md) is `harness run --help`, word for word: a flag
/// added without documentation fails here. On failure the message holds the block to paste.
#[test]
fn guide_run_flag_reference_is_what_run_help_prints() {
    let out = stdout_of(harness().args(["run", "--help"]).env("COLUMNS", "100"));
    let help = String::from_utf8_lossy(&out).trim_end().to_string();
    let page = std::fs::read_to_string(workspace_root().join("docs/flags.md")).unwrap();
    let block = page
        .split("<!-- run-help:begin")
        .nth(1)
        .and_then(|r| r.split("<!-- run-help:end -->").next())
        .expect("docs/flags.md has a run-help block");
    let body = block
        .split_once("```text\n")
        .and_then(|(_, r)| r.rsplit_once("\n```"))
        .map(|(b, _)| b.trim_end())
        .expect("the run-help block is a ```text block");
    // Compared line by line without trailing spaces (editors strip them; clap pads blank lines).
    fn lines(t: &str) -> Vec<&str> {
        t.lines().map(str::trim_end).collect()
    }
    assert!(
        lines(body) == lines(&help),
        "docs/flags.md's run-help block differs from `harness run --help`; replace it with:\n```text\n{help}\n```"
    );
}

/// Issue 22 item 4: a report's word is defined on the terminal, with what to expect from ARM and
/// CTRL; a word not in the glossary is a usage error naming the closest ones.
#[test]
fn explain_defines_a_report_word_and_names_the_closest_for_a_typo() {
    let out = stdout_of(harness().args(["explain", "hui"]));
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HUI (a number)"), "{text}");
    assert!(text.contains("CTRL"), "{text}");
    harness()
        .args(["explain", "HUII"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean HUI"));
    let out = stdout_of(harness().arg("explain"));
    let index = String::from_utf8_lossy(&out);
    for w in [
        "Numbers:",
        "DELIVERY",
        "NEEDS_REVIEW",
        "UNDETERMINED",
        "PRIOR_WON",
    ] {
        assert!(index.contains(w), "{w} missing from the index:\n{index}");
    }
}

/// Issue 22 item 10: clap suggests nothing for `rnu`; the binary names the subcommand it could
/// be, with clap's exit code for a usage error.
#[test]
fn a_misspelt_subcommand_names_the_one_it_could_be() {
    harness()
        .arg("rnu")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean 'run'"));
    harness()
        .arg("zzzzzzzz")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean").not());
}
