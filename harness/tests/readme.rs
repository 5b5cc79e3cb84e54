//! Every command in the `sh` blocks of README.md and of every page of docs/ runs here, as
//! written, against a copy of the demo: `my-project` is the demo project as a git repository,
//! `../handoff/` holds its qset and seal, and a stand-in `claude` on PATH answers like the real
//! one (JSON result) by asking the built-in baseline agent. A `# exit N` comment sets the
//! expected exit code (default 0). The guide's pages run after the README's walkthrough, in
//! name order, each starting in `my-project` with the walkthrough's rounds in `../rounds/`.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// One command of the README: its line, the expected exit code, and where it runs.
#[derive(Debug)]
struct Step {
    line: String,
    exit: i32,
    in_harness_checkout: bool,
}

fn steps(readme: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut harness_checkout = false;
    for line in readme.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_block = !in_block && t == "```sh";
            harness_checkout = false;
            continue;
        }
        if !in_block || t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            harness_checkout |= t.contains("from the harness checkout");
            continue;
        }
        let (cmd, comment) = match t.find("  #") {
            Some(i) => (t[..i].trim(), &t[i..]),
            None => (t, ""),
        };
        // Only a comment that *starts* with "exit N" sets the expected code.
        let exit = comment
            .trim_start_matches(|c: char| c == '#' || c.is_whitespace())
            .strip_prefix("exit ")
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        out.push(Step {
            line: cmd.to_string(),
            exit,
            in_harness_checkout: harness_checkout,
        });
    }
    out
}

const FAKE_CLAUDE: &str = r#"#!/bin/sh
# A stand-in for `claude -p --output-format json … -- PROMPT`: the prompt is the argument after
# `--`; the answer comes from the built-in baseline agent; the output is Claude Code's JSON.
mkdir -p "$HOME/.claude" && : > "$HOME/.claude/started"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
ans=$(printf '%s' "$1" | harness __agent baseline-grep | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n' ' ')
printf '{"type":"result","subtype":"success","is_error":false,"result":"%s"}\n' "$ans"
"#;

/// The guide's pages (docs/*.md), in name order, with their text.
fn guide_pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = std::fs::read_dir(workspace_root().join("docs"))
        .expect("docs/ beside the workspace")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            (
                format!("docs/{}", p.file_name().unwrap().to_string_lossy()),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    pages.sort();
    pages
}

#[test]
fn every_readme_and_guide_command_runs_as_written() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let readme_steps = steps(&readme);
    assert!(readme_steps.len() >= 10, "{readme_steps:?}");
    // (page, step, whether the page starts in my-project rather than the fixture's root)
    let mut all: Vec<(String, Step, bool)> = Vec::new();
    let mut first = true;
    for s in readme_steps {
        all.push(("README.md".into(), s, std::mem::take(&mut first)));
    }
    let pages = guide_pages();
    assert!(pages.len() >= 9, "docs/ has {} pages", pages.len());
    let mut guide_steps = 0;
    for (name, text) in &pages {
        let mut first = true;
        for s in steps(text) {
            guide_steps += 1;
            all.push((name.clone(), s, std::mem::take(&mut first)));
        }
    }
    assert!(guide_steps >= 10, "only {guide_steps} commands in docs/");

    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("my-project");
    std::fs::create_dir_all(&project).unwrap();
    let demo = harness::demo::demo().unwrap();
    demo.build_repo(&project).unwrap();
    let handoff = root.path().join("handoff");
    std::fs::create_dir_all(&handoff).unwrap();
    std::fs::write(handoff.join("qset.tsv"), demo.qset).unwrap();
    std::fs::write(handoff.join(demo.seal_name), demo.seal).unwrap();
    // The stand-ins live in one folder on PATH: `harness` (a copy of the built binary, so the
    // sandbox sees it as the agent's runtime folder) and `claude`.
    let bin = root.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin("harness"), bin.join("harness")).unwrap();
    std::fs::write(bin.join("claude"), FAKE_CLAUDE).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let test_env = TestEnv::new();
    let home = test_env.home();
    let path = format!("{}:{}", bin.display(), hermetic_path());

    let mut cwd: PathBuf = root.path().to_path_buf();
    let mut ran = 0;
    for (page, step, starts_page) in &all {
        if *starts_page && page != "README.md" {
            cwd = project.clone();
        }
        if step.line.starts_with("cargo ") {
            continue; // the README's two cargo commands are what CI itself runs
        }
        if let Some(dir) = step.line.strip_prefix("cd ") {
            cwd = cwd.join(dir.trim());
            continue;
        }
        let here: &Path = if step.in_harness_checkout {
            &workspace_root()
        } else {
            &cwd
        };
        let here = here.to_path_buf();
        if step.line.contains("answer.txt") {
            std::fs::write(here.join("answer.txt"), "No pager tool is named anywhere in the hand-off; I could not find any record of one.\n").unwrap();
        }
        // The score examples' inputs: answers of both arms, in English and Korean.
        if step.line.contains("answers/") {
            std::fs::create_dir_all(here.join("answers")).unwrap();
            std::fs::write(here.join("answers/arm.txt"), "The key is K1.\n").unwrap();
            std::fs::write(
                here.join("answers/ctrl.txt"),
                "인계 문서에 없어 알 수 없습니다.\n",
            )
            .unwrap();
        }
        if step.line.contains("answers.jsonl") {
            std::fs::write(
                here.join("answers.jsonl"),
                concat!(
                    r#"{"id": "q1-ctrl", "kind": "negative", "token": "K1", "answer": "I don't know."}"#,
                    "\n",
                    r#"{"id": "q1-arm", "kind": "positive", "token": "K1", "answer": "It is K1."}"#,
                    "\n",
                ),
            )
            .unwrap();
        }
        let out = test_env
            .command("sh")
            .arg("-c")
            .arg(&step.line)
            .current_dir(&here)
            .env("PATH", &path)
            .env("HOME", &home)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        if step.line.contains("answer.txt") {
            let _ = std::fs::remove_file(here.join("answer.txt"));
        }
        if step.line.contains("answers/") {
            let _ = std::fs::remove_dir_all(here.join("answers"));
        }
        if step.line.contains("answers.jsonl") {
            let _ = std::fs::remove_file(here.join("answers.jsonl"));
        }
        assert_eq!(
            out.status.code(),
            Some(step.exit),
            "{page} command `{}` in {}\nstdout:\n{}\nstderr:\n{}",
            step.line,
            here.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 20, "only {ran} README and guide commands ran");
    // The walkthrough's round really went through the stand-in claude and finished.
    let done = std::fs::read_to_string(root.path().join("rounds/r1/ROUND_DONE")).unwrap();
    assert!(
        done.contains("complete: yes") && done.contains("manifest: match"),
        "{done}"
    );
    // Where `claude` is not installed (a fresh machine), step 7's rejudge stops at the program
    // check first: exit 8, as the README says beside the `exit 10` the stand-in gives.
    let said = "exit 8, \"the judge's program `claude` is not installed here\"";
    assert!(
        readme
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(said),
        "the README no longer says what rejudge does without claude"
    );
    let bare = root.path().join("bin-without-claude");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::copy(bin.join("harness"), bare.join("harness")).unwrap();
    let out = test_env
        .command("sh")
        .arg("-c")
        .arg("harness rejudge ../rounds/r1 --judge claude")
        .current_dir(&project)
        .env("PATH", format!("{}:{}", bare.display(), hermetic_path()))
        .env("HOME", &home)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(8), "{err}");
    assert!(
        err.contains("the judge's program `claude` is not installed here"),
        "{err}"
    );
    let after = std::fs::read_to_string(root.path().join("rounds/r1/ROUND_DONE")).unwrap();
    assert_eq!(after, done, "a refused rejudge wrote the round");
}

/// The rate lines (DELIVERY, HUI, LUCKY, MR) that `text` blocks of `page` quote, trimmed.
fn quoted_rate_lines(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_text = false;
    for line in page.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_text = !in_text && t == "```text";
            continue;
        }
        if in_text
            && ["DELIVERY (", "HUI (", "LUCKY (", "MR ("]
                .iter()
                .any(|label| t.starts_with(label))
        {
            out.push(t.to_string());
        }
    }
    out
}

/// The README and docs/reports.md quote the demo round's closing summary: each rate line they
/// quote is, verbatim, a line the demo prints today, so a change of the numbers (or of the
/// interval method) cannot leave the quotes stale.
#[test]
fn the_quoted_demo_rate_lines_are_what_the_demo_prints() {
    let env = TestEnv::new();
    let out_dir = env.tmp().join("demo");
    let out = env
        .harness()
        .args(["run", "--quiet", "--out"])
        .arg(&out_dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0), "{printed}");
    let printed_lines: Vec<&str> = printed.lines().map(str::trim).collect();
    for page in ["README.md", "docs/reports.md"] {
        let text = std::fs::read_to_string(workspace_root().join(page)).unwrap();
        let quoted = quoted_rate_lines(&text);
        assert!(
            quoted.len() >= 5,
            "{page} quotes only {} rate lines: {quoted:?}",
            quoted.len()
        );
        for q in &quoted {
            assert!(
                printed_lines.contains(&q.as_str()),
                "{page} quotes `{q}`, which the demo round does not print:\n{printed}"
            );
        }
    }
}

/// A planned round collected from a neighbour folder (`--out ../rounds/p`): the closing
/// `files:` line names the out-dir as a path a user can read, without `..`.
#[test]
fn the_files_line_names_the_out_dir_without_dot_dot() {
    let env = TestEnv::new();
    let subject = env.tmp().join("subject");
    std::fs::create_dir_all(&subject).unwrap();
    let run = |args: &[&str]| {
        let out = env
            .harness()
            .args(args)
            .current_dir(&subject)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(0), "harness {args:?}:\n{text}");
        text
    };
    let out = "../rounds/p";
    run(&["plan", "--reps", "1", "--out", out]);
    for i in 0..24 {
        run(&["unit", "--out", out, "--index", &i.to_string()]);
    }
    let printed = run(&["collect", "--out", out]);
    let real = std::fs::canonicalize(subject.join(out)).unwrap();
    let line = printed
        .lines()
        .find(|l| l.starts_with("files: "))
        .unwrap_or_else(|| panic!("no files: line:\n{printed}"));
    assert!(
        line.starts_with(&format!("files: {}  (", real.display())) && !line.contains(".."),
        "the files: line should name {} without `..`: {line}",
        real.display()
    );
}

/// The text of the README's walkthrough step whose heading starts with `### N.`, up to the
/// next heading of that level.
fn walkthrough_step(readme: &str, n: u32) -> String {
    let head = format!("### {n}.");
    readme
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with("### "))
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The walkthrough says where a judge belongs: in the seal (step 4, with the same flag on
/// `run`), and what `rejudge` on a round sealed without one requires and costs (step 7, whose
/// refused command the walkthrough test runs and expects exit 10). The binary's refusal names
/// the flag the README names.
#[test]
fn the_walkthrough_seals_a_judge_it_means_to_use_and_says_what_a_later_one_costs() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let seal = walkthrough_step(&readme, 4);
    assert!(
        seal.contains("add `--judge claude` to `harness seal`")
            && seal.contains("`harness run` in step 5"),
        "step 4 must say a judge belongs in the seal:\n{seal}"
    );
    let review = walkthrough_step(&readme, 7);
    let refused = steps(&review)
        .into_iter()
        .find(|s| s.line.starts_with("harness rejudge"))
        .unwrap_or_else(|| panic!("step 7 runs no rejudge:\n{review}"));
    assert_eq!(refused.exit, 10, "{refused:?}");
    let flat = review.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "--accept-change judge",
        "`manifest: JUDGE_CHANGED`",
        "design: judge differs from the sealed one",
        "rejudging with that one would restore `match`",
        "there is no `--judge none`, so the change stays",
        "`--reviewer NAME`, else your global git `user.name`, else `$USER`",
        "`--set",
        "`--from FILE`",
        "byte-identical",
        "path and line",
    ] {
        assert!(
            flat.contains(want),
            "step 7 does not say {want:?}:\n{review}"
        );
    }
    // The words the README quotes are the binary's.
    let env = TestEnv::new();
    let a = env.harness().args(["rejudge", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&a.get_output().stdout);
    assert!(
        help.contains("--accept-change")
            && help.contains("design: judge differs from the sealed one"),
        "{help}"
    );
}
