//! `harness run` end to end: real rounds on temp git repositories with small agent scripts
//! (tests/agents/), read back through the files a round leaves (answers, journal, verdicts.csv,
//! ROUND_DONE, per-dispatch records).

mod common;
use common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// A round's inputs in one temp folder: a repository, a qset, a seal, an out-dir path, a
/// fake user home with agent memory in it, and a state folder for agents outside the repo.
struct Fixture {
    dir: tempfile::TempDir,
    repo: PathBuf,
    qset: PathBuf,
    seal: PathBuf,
    out: PathBuf,
    user_home: PathBuf,
    state: PathBuf,
    /// A string planted in the fake user's `.claude/CLAUDE.md`; no agent may see it.
    marker: String,
}

/// The questions of the standard fixture: (qid, kind, question, token, seal line or none).
fn standard_rows() -> Vec<(String, &'static str, String, String, Option<String>)> {
    let t1 = tok("dq");
    let t2 = tok("pz");
    let t3 = tok("ng");
    vec![
        (
            "Q_deploy".into(),
            "positive",
            "What is the deploy codename?".into(),
            t1.clone(),
            Some(format!("deploy codename: {t1}")),
        ),
        (
            "Q_port".into(),
            "positive",
            "Which port does the staging proxy listen on?".into(),
            t2.clone(),
            Some(format!("staging proxy port: {t2}")),
        ),
        (
            "Q_cat".into(),
            "negative",
            "Which colour does the office cat have?".into(),
            t3,
            None,
        ),
    ]
}

impl Fixture {
    fn new() -> Fixture {
        Self::with_rows(standard_rows())
    }

    fn with_rows(rows: Vec<(String, &'static str, String, String, Option<String>)>) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        make_repo(
            &repo,
            &[
                ("README.md", b"A small service.\n"),
                ("src/main.sh", b"#!/bin/sh\necho service\n"),
            ],
        );
        let inputs = dir.path().join("inputs");
        std::fs::create_dir_all(&inputs).unwrap();
        let qset = inputs.join("questions.tsv");
        let table: Vec<[&str; 4]> = rows
            .iter()
            .map(|(q, k, text, t, _)| [q.as_str(), *k, text.as_str(), t.as_str()])
            .collect();
        write_qset(&qset, &table);
        let seal = inputs.join("handoff.md");
        let mut seal_text = String::from("# Hand-off\n");
        for (_, _, _, _, line) in &rows {
            if let Some(l) = line {
                seal_text.push_str(l);
                seal_text.push('\n');
            }
        }
        std::fs::write(&seal, seal_text).unwrap();
        let user_home = dir.path().join("userhome");
        std::fs::create_dir_all(user_home.join(".claude")).unwrap();
        let marker = format!("mem{}ory{}", "MARK", 4 * 1000 + 21);
        std::fs::write(
            user_home.join(".claude/CLAUDE.md"),
            format!("Remember: {marker}\n"),
        )
        .unwrap();
        let state = dir.path().join("state");
        std::fs::create_dir_all(&state).unwrap();
        let out = dir.path().join("results").join("r1");
        Fixture {
            dir,
            repo,
            qset,
            seal,
            out,
            user_home,
            state,
            marker,
        }
    }

    /// `harness seal` of this fixture's qset and seal (plus `extra` flags) into `manifest`.
    fn seal_manifest(&self, manifest: &Path, extra: &[&str]) {
        harness()
            .env("HOME", &self.user_home)
            .arg("seal")
            .arg("--qset")
            .arg(&self.qset)
            .arg("--seal")
            .arg(&self.seal)
            .arg("--repo")
            .arg(&self.repo)
            .arg("-o")
            .arg(manifest)
            .args(extra)
            .assert()
            .success();
    }

    /// `harness run` on this fixture with `extra` flags, the fake home and two variables an
    /// agent must never receive.
    fn cmd(&self, extra: &[&str]) -> assert_cmd::Command {
        self.cmd_at(&self.out, extra)
    }

    fn cmd_at(&self, out: &Path, extra: &[&str]) -> assert_cmd::Command {
        let mut c = self.cmd_loud(out, extra);
        c.arg("--quiet");
        c
    }

    /// [`Fixture::cmd_at`] without `--quiet`, for the tests of what a round prints as it goes.
    fn cmd_loud(&self, out: &Path, extra: &[&str]) -> assert_cmd::Command {
        let mut c = harness();
        c.env("HOME", &self.user_home)
            .env("HARNESS_SECRET", "x")
            .env("SOME_VAR", "y")
            .arg("run")
            .arg("--qset")
            .arg(&self.qset)
            .arg("--repo")
            .arg(&self.repo)
            .arg("--out")
            .arg(out)
            .args(extra);
        c
    }

    /// A `command:` agent spec for a shell script written into the fixture's folder.
    fn script_agent(&self, name: &str, body: &str) -> String {
        let script = self.dir.path().join(name);
        std::fs::write(&script, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        format!("command:{} {{prompt}}", script.display())
    }

    fn run(&self, extra: &[&str]) -> Output {
        let mut c = self.cmd(extra);
        c.arg("--seal").arg(&self.seal);
        c.timeout(Duration::from_secs(120));
        c.output().unwrap()
    }

    /// The round's journal: its plan holds the labels.
    fn plan_path(&self) -> PathBuf {
        self.out.join("journal").join("plan.json")
    }

    /// label → (qid, arm) from the round's plan.
    fn labelmap(&self) -> BTreeMap<String, (String, String)> {
        labels_of(&self.plan_path())
    }

    /// (qid, arm, rep) → answer text, through the labelmap.
    fn answers(&self) -> BTreeMap<(String, String, u32), String> {
        let map = self.labelmap();
        let mut out = BTreeMap::new();
        for (stem, text) in dispatch_files(&self.out, "txt") {
            let (label, rep) = split_stem(&stem);
            let (qid, arm) = map
                .get(&label)
                .unwrap_or_else(|| panic!("answer {stem} has no label in the plan"))
                .clone();
            out.insert((qid, arm, rep), text);
        }
        out
    }

    fn round_done(&self) -> String {
        std::fs::read_to_string(self.out.join("ROUND_DONE")).expect("ROUND_DONE")
    }
}

/// `<label>_r<n>` → (label, n).
fn split_stem(stem: &str) -> (String, u32) {
    let (label, rep) = stem.rsplit_once("_r").expect("stem has _r<n>");
    (label.to_string(), rep.parse().expect("rep number"))
}

/// (stem, content) of every `*.<ext>` dispatch file of the round in `out` (in [`dispatches`]).
fn dispatch_files(out: &Path, ext: &str) -> Vec<(String, String)> {
    let mut v = Vec::new();
    let Ok(rd) = std::fs::read_dir(dispatches(out)) else {
        return v;
    };
    for e in rd {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) == Some(ext) {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            v.push((stem, std::fs::read_to_string(&p).unwrap()));
        }
    }
    v.sort();
    v
}

/// Every file below `dir` whose name ends in `.txt` (answer files), recursively.
fn answer_files_below(dir: &Path) -> Vec<PathBuf> {
    if !dir.exists() {
        return Vec::new();
    }
    walk(dir)
        .into_iter()
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("txt"))
        .collect()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v
}

/// verdicts.csv rows as (qid, kind, arm, rep, verdict).
fn verdicts(out: &Path) -> Vec<(String, String, String, u32, String)> {
    let text = std::fs::read_to_string(out.join("verdicts.csv")).expect("verdicts.csv");
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("status,qid,kind,arm,rep,verdict,"),
        "verdicts.csv header changed: {header}"
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.splitn(9, ',').collect();
            (
                f[1].to_string(),
                f[2].to_string(),
                f[3].to_string(),
                f[4].parse().unwrap(),
                f[5].to_string(),
            )
        })
        .collect()
}

/// `command:<abs script> {prompt} <more…>`: the script as argv[0], so the sandbox allows
/// its folder (a script named as an argument to `sh` is not on the allow-list).
fn agent(script: &str, more: &[&Path]) -> String {
    let mut s = format!("command:{} {{prompt}}", agents_dir().join(script).display());
    for m in more {
        s.push(' ');
        s.push_str(&m.display().to_string());
    }
    s
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn field<'a>(answer: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    answer
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("probe answer lacks {key}:\n{answer}"))
        .trim()
}

/// Names a shell may add on its own (`PWD`, `SHLVL`, `_`, `OLDPWD`).
const SHELL_SET: [&str; 4] = ["PWD", "SHLVL", "_", "OLDPWD"];
/// Names the runner passes or sets (process::BASE_ENV, process::RUNNER_SET_ENV).
const ALLOWED_ENV: [&str; 12] = [
    "PATH",
    "LANG",
    "TERM",
    "TZ",
    "HOME",
    "TMPDIR",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_CACHE_HOME",
    "XDG_STATE_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
];

/// Checks one probe answer against what its dispatch may see. `sandboxed` says whether the
/// out-dir watch must be unreadable (sandbox) or readable-and-empty (none).
fn check_probe(f: &Fixture, qid: &str, arm: &str, answer: &str, sandboxed: bool) {
    let ctx = format!("{qid} {arm}:\n{answer}");
    // The working folder names no arm, qid or kind.
    let cwd = field(answer, "cwd");
    let parts: Vec<String> = cwd
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| p.to_ascii_lowercase())
        .collect();
    for bad in [
        "arm", "ctrl", "control", "positive", "negative", "conflict", "q", "deploy", "port", "cat",
    ] {
        assert!(!parts.iter().any(|p| p == bad), "cwd names {bad}: {ctx}");
    }
    for q in ["Q_deploy", "Q_port", "Q_cat"] {
        assert!(!cwd.contains(q), "cwd names {q}: {ctx}");
    }
    assert!(
        !cwd.starts_with(&f.dir.path().display().to_string()),
        "the checkout is inside the test's folder (beside the user's repo): {ctx}"
    );
    // git runs, and shows one commit and nothing else.
    assert_eq!(field(answer, "git_works"), "true", "{ctx}");
    assert_eq!(field(answer, "remotes"), "0", "{ctx}");
    assert!(!answer.contains("remote: "), "{ctx}");
    assert_eq!(field(answer, "commits"), "1", "{ctx}");
    assert_eq!(field(answer, "all_refs_commits"), "1", "{ctx}");
    assert!(
        field(answer, "reflog").parse::<u32>().unwrap() <= 1,
        "{ctx}"
    );
    let refs = field(answer, "refs");
    assert!(
        refs.split_whitespace().count() <= 1,
        "more than one ref: {ctx}"
    );
    // The seal: ARM only.
    let want = if arm == "ARM" { "present" } else { "absent" };
    assert_eq!(field(answer, "seal"), want, "{ctx}");
    // Environment: allowlisted names only.
    let env: Vec<&str> = field(answer, "env").split_whitespace().collect();
    assert!(env.contains(&"HOME") && env.contains(&"PATH"), "{ctx}");
    for name in &env {
        assert!(
            ALLOWED_ENV.contains(name) || SHELL_SET.contains(name) || name.starts_with("LC_"),
            "{name} reached the agent: {ctx}"
        );
    }
    assert!(!answer.contains("HARNESS_"), "{ctx}");
    assert!(!answer.contains("SOME_VAR"), "{ctx}");
    // A fresh home, not the user's, without the user's agent memory.
    let home = field(answer, "home");
    assert_ne!(Path::new(home), f.user_home.as_path(), "{ctx}");
    assert!(
        !home.starts_with(&f.dir.path().display().to_string()),
        "{ctx}"
    );
    assert!(
        !answer.contains(&f.marker),
        "the user's CLAUDE.md leaked: {ctx}"
    );
    // The mount table (issue 14): no arm, no qid, no path of the round or the user's repo; an
    // overlay on the checkout has its layers in the dispatch's own folder only (never the
    // shared template's path). Under a sandbox where overlays mount, the checkout is one.
    let own = Path::new(cwd).parent().unwrap().display().to_string();
    let mut overlay_on_cwd = 0;
    for m in answer.lines().filter_map(|l| l.strip_prefix("mountinfo: ")) {
        let words: Vec<&str> = m.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        assert!(
            !words.contains(&"ARM") && !words.contains(&"CTRL"),
            "arm in {m}: {ctx}"
        );
        for p in [&f.out, f.dir.path()] {
            assert!(!m.contains(&p.display().to_string()), "{m}: {ctx}");
        }
        for q in ["Q_deploy", "Q_port", "Q_cat"] {
            assert!(!m.contains(q), "{q} in {m}: {ctx}");
        }
        if m.contains(" - overlay ") && m.split(' ').nth(4) == Some(cwd) {
            overlay_on_cwd += 1;
            // A throwaway upper layer is never synced: without `volatile` the overlay's unmount
            // syncs the whole filesystem (the first dispatch paid the template's writeback).
            assert!(
                !kernel_at_least(5, 10)
                    || m.split([',', ' '])
                        .any(|o| o == "volatile" || o == "fsync=volatile"),
                "overlay without volatile: {m}: {ctx}"
            );
            for (k, v) in m.split(',').filter_map(|o| o.split_once('=')) {
                if ["lowerdir", "upperdir", "workdir"].contains(&k) {
                    for layer in v.split(':') {
                        assert!(layer.starts_with(&own), "{layer} outside {own}: {ctx}");
                    }
                }
            }
        }
    }
    let want_overlay = sandboxed && overlay_mounts_here();
    assert_eq!(overlay_on_cwd, want_overlay as usize, "{ctx}");
    // No labelmap above the checkout (the journal lives in the out-dir, checked below).
    assert_eq!(field(answer, "labelmap_above"), "none", "{ctx}");
    let watches: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.strip_prefix("watch: "))
        .collect();
    assert_eq!(watches.len(), 2, "{ctx}");
    for w in watches {
        if sandboxed {
            assert!(
                w.ends_with(": unreadable"),
                "the sandbox let it look: {ctx}"
            );
        } else {
            // Under --sandbox none the journal can be read (the report header says so); a
            // labelmap beside the out-dir no longer exists at all.
            assert!(!w.contains(".labelmap"), "a labelmap existed: {ctx}");
            assert!(
                w.ends_with("journal/plan.json "),
                "the probe could not see the journal it was pointed at: {ctx}"
            );
        }
    }
}

/// Whether an overlay can be mounted in a sandbox on this machine (the harness's own probe).
fn overlay_mounts_here() -> bool {
    let scratch = tempfile::tempdir().unwrap();
    runners::sandbox::probe_overlay(scratch.path()).is_ok()
}

/// A probe round; `via_sh` names the script as `sh <script>` instead of as argv[0].
fn probe_round(sandbox: &str, via_sh: bool) {
    let f = Fixture::new();
    let out_parent = f.out.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&out_parent).unwrap();
    let mut spec = agent("probe.sh", &[&f.out, &out_parent]);
    if via_sh {
        spec = spec.replacen("command:", "command:sh ", 1);
    }
    let o = f.run(&[
        "--agent",
        &spec,
        "--reps",
        "1",
        "--jobs",
        "6",
        "--sandbox",
        sandbox,
    ]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    // The probe answers nothing the scorer accepts: an instrument verdict, not a failure.
    assert_ne!(o.status.code(), Some(13), "{ctx}");
    let done = f.round_done();
    assert!(done.contains("complete: yes"), "{done}\n{ctx}");
    let answers = f.answers();
    assert_eq!(answers.len(), 6, "{ctx}");
    for ((qid, arm, _), answer) in &answers {
        check_probe(&f, qid, arm, answer, sandbox != "none");
    }
    // The round records what reached the agents: names only, never a HARNESS_ one.
    let record = std::fs::read_to_string(f.out.join("round.json")).unwrap();
    assert!(!record.contains("HARNESS_SECRET") && !record.contains("SOME_VAR"));
    // How the checkouts were made is recorded (issue 14): per dispatch, for the round, in
    // ROUND_DONE and the report header. Without a sandbox (no mount namespace) it is the copy.
    let method = if sandbox != "none" && overlay_mounts_here() {
        "overlay"
    } else {
        "copy"
    };
    assert!(
        record.contains(&format!("\"checkout\": \"{method}\"")),
        "{record}"
    );
    assert!(done.contains(&format!("checkout: {method}\n")), "{done}");
    let md = std::fs::read_to_string(f.out.join("report.md")).unwrap();
    assert!(md.contains(&format!("checkout {method}")), "{md}");
    let mut per_dispatch = 0;
    for e in std::fs::read_dir(dispatches(&f.out)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with("_r1.json") {
            let rec = std::fs::read_to_string(e.path()).unwrap();
            assert!(
                rec.contains(&format!("\"checkout\": \"{method}\"")),
                "{name}: {rec}"
            );
            // Every phase of an answered dispatch is timed (issue 23), whatever the sandbox:
            // every mode runs the agent through the wrapper that stamps its exec and end.
            let v: serde_json::Value = serde_json::from_str(&rec).unwrap();
            for phase in [
                "checkout", "home", "sandbox", "agent", "teardown", "cleanup",
            ] {
                let ms = v["phases"][format!("{phase}_ms")].as_f64();
                assert!(
                    ms.is_some_and(|ms| (0.0..60_000.0).contains(&ms)),
                    "{name}: phase {phase} not timed: {rec}"
                );
            }
            per_dispatch += 1;
        }
    }
    assert_eq!(per_dispatch, 6, "{ctx}");
    let iso = done
        .lines()
        .find_map(|l| l.strip_prefix("isolation: "))
        .unwrap()
        .to_string();
    if sandbox == "none" {
        assert_eq!(iso, "none", "{done}");
        let md = std::fs::read_to_string(f.out.join("report.md")).unwrap();
        assert!(
            md.contains("agents could read the round's journal"),
            "the header does not say the journal was readable: {md}"
        );
    } else {
        assert_ne!(iso, "none", "auto ran without any sandbox layer: {done}");
        if iso == "full" {
            // A PID namespace shows the agent its own few processes only.
            for ((qid, arm, _), answer) in &answers {
                let procs: u32 = field(answer, "procs").parse().unwrap();
                assert!(procs < 10, "{qid} {arm} sees {procs} processes");
            }
        }
    }
}

#[test]
fn a_dispatch_splits_its_time_into_phases_and_the_report_shows_where_it_went() {
    // The agent sleeps 400 ms: that is the agent's phase, never the sandbox's or the
    // checkout's, and the report header's line says so with the round's medians.
    let f = Fixture::new();
    let spec = f.script_agent("nap.sh", "sleep 0.4\necho nap\n");
    let o = f.run(&["--agent", &spec, "--reps", "1", "--jobs", "3"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(f.round_done().contains("complete: yes"), "{ctx}");
    let mut seen = 0;
    for e in walk(&f.out) {
        let name = e.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with("_r1.json") {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&e).unwrap()).unwrap();
        let p = &v["phases"];
        let agent = p["agent_ms"].as_f64().unwrap();
        let sandbox = p["sandbox_ms"].as_f64().unwrap();
        let total = v["duration_secs"].as_f64().unwrap() * 1000.0;
        let teardown = p["teardown_ms"].as_f64().unwrap();
        // The sleep is the agent's: not counted again in setup or teardown (which a busy
        // machine can stretch, so no bound is put on them alone). The agent's phase starts
        // when the wrapper sees the exec, which a loaded machine wakes late for: CI measured
        // 398 ms for this 400 ms sleep, so the floor leaves room for that wake-up and still
        // fails when the sleep lands in another phase.
        assert!(
            (300.0..5_000.0).contains(&agent),
            "{name}: agent {agent} ms: {v}"
        );
        assert!(
            agent + sandbox + teardown <= total + 50.0,
            "{name}: the phases add up to more than the process ran ({total} ms): {v}"
        );
        seen += 1;
    }
    assert_eq!(seen, 6, "{ctx}");
    let md = std::fs::read_to_string(f.out.join("report.md")).unwrap();
    let line = md
        .lines()
        .find(|l| l.contains("per dispatch"))
        .unwrap_or_else(|| panic!("no per-dispatch line in report.md:\n{md}"));
    for phase in ["checkout", "sandbox", "agent ", "teardown", "cleanup"] {
        assert!(line.contains(phase), "{phase} missing: {line}");
    }
    assert!(line.contains("median / max over 6 dispatches"), "{line}");
    let round: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(f.out.join("round.json")).unwrap()).unwrap();
    let agent = round["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["phase"] == "agent")
        .unwrap();
    assert!(agent["median_us"].as_u64().unwrap() >= 300_000, "{round}");
}

/// Issue 22 item 9: with stderr redirected (no terminal, no `--quiet`) a round is never silent
/// for more than 10 s: a plain progress line (counts, elapsed, ETA) every 10 s, and a last one
/// when the dispatches end. Six dispatches of 4 s each, one at a time: about 24 s.
#[test]
fn a_round_off_a_terminal_writes_a_progress_line_every_ten_seconds() {
    let f = Fixture::new();
    let spec = f.script_agent("slow.sh", "sleep 4\necho slow\n");
    let extra = [
        "--agent",
        &spec,
        "--reps",
        "1",
        "--jobs",
        "1",
        "--sandbox",
        "none",
        "--no-preflight",
    ];
    let mut cmd = f.cmd_loud(&f.out, &extra);
    cmd.arg("--seal")
        .arg(&f.seal)
        .timeout(Duration::from_secs(120));
    let o = cmd.output().unwrap();
    let err = text(&o.stderr);
    assert!(f.round_done().contains("complete: yes"), "{err}");
    let seconds = |l: &str| -> u64 {
        let t = l
            .split("elapsed ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let p: Vec<u64> = t.split(':').map(|x| x.parse().unwrap()).collect();
        p[0] * 3600 + p[1] * 60 + p[2]
    };
    let ticks: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("progress: dispatch "))
        .collect();
    assert!(
        ticks.len() >= 2,
        "a 24 s round wrote {} progress lines:\n{err}",
        ticks.len()
    );
    let mut last = 0;
    for l in &ticks {
        assert!(l.contains(" dispatches · answered "), "{l}");
        assert!(l.contains(" · ETA "), "{l}");
        let at = seconds(l);
        assert!(
            at - last <= 11,
            "{}s of silence before: {l}\n{err}",
            at - last
        );
        last = at;
    }
    let done = err
        .lines()
        .find(|l| l.starts_with("progress: done 6/6 dispatches"))
        .unwrap_or_else(|| panic!("no last progress line:\n{err}"));
    assert!(done.contains("answered 6 · failed 0"), "{done}");
}

#[test]
fn probe_sees_only_its_own_checkout_without_sandbox() {
    probe_round("none", false);
}

#[test]
fn probe_sees_only_its_own_checkout_under_sandbox_auto() {
    // `sh <script>`: the sandbox must let the interpreter read the script it was given.
    probe_round("auto", true);
}

#[test]
fn seal_reader_passes_arm_positives_and_both_negatives() {
    let f = Fixture::new();
    let o = f.run(&["--agent", &agent("sealreader.sh", &[]), "--reps", "2"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(f.round_done().contains("complete: yes"), "{ctx}");
    let rows = verdicts(&f.out);
    assert_eq!(rows.len(), 3 * 2 * 2, "{ctx}");
    for (qid, kind, arm, rep, verdict) in &rows {
        let want = match (kind.as_str(), arm.as_str()) {
            ("positive", "ARM") => "PASS",
            ("positive", "CTRL") => "FAIL",
            ("negative", _) => "PASS",
            other => panic!("unexpected row {other:?}"),
        };
        assert_eq!(verdict, want, "{qid} {arm} r{rep}\n{ctx}");
    }
    // Every answer maps to a (qid, arm) through the plan's labels, and the ARM positives quote
    // the seal's token.
    let answers = f.answers();
    assert_eq!(answers.len(), 12);
    for (qid, _, _, token, _) in standard_rows() {
        let a = &answers[&(qid.clone(), "ARM".to_string(), 1)];
        let c = &answers[&(qid.clone(), "CTRL".to_string(), 1)];
        assert!(!c.contains(&token), "CTRL {qid} knew the token: {c}");
        if qid != "Q_cat" {
            assert!(a.contains(&token), "ARM {qid}: {a}");
        }
    }
    assert_eq!(o.status.code(), Some(0), "{ctx}");
}

#[test]
fn timed_out_agent_fails_its_dispatch_and_the_round_is_incomplete() {
    let mut rows = standard_rows();
    rows.truncate(1);
    let t = tok("to");
    rows.push((
        "Q_slow".into(),
        "positive",
        "Answer slowly: which region hosts the backup bucket?".into(),
        t.clone(),
        Some(format!("backup bucket region: {t}")),
    ));
    let f = Fixture::with_rows(rows);
    let t0 = Instant::now();
    let o = f.run(&[
        "--agent",
        &agent("stall.sh", &[&f.state]),
        "--reps",
        "1",
        // Long enough for the quick answers on a loaded two-core machine (2 s timed out all
        // four dispatches there, the answering ones too), far below the stall's 300 s.
        "--timeout",
        "8",
        "--sandbox",
        "none",
    ]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(t0.elapsed() < Duration::from_secs(60), "{ctx}");
    assert_eq!(o.status.code(), Some(13), "{ctx}");
    let done = f.round_done();
    assert!(done.contains("complete: NO"), "{done}");
    assert!(done.contains("answers: 2"), "{done}");
    assert!(done.contains("dispatch_errors: 2"), "{done}");
    assert!(done.contains("verdict: none"), "{done}");
    let map = f.labelmap();
    assert_eq!(map.len(), 4);
    // The stalled question failed in both arms; the other one answered in both.
    let errs = dispatch_files(&f.out, "err");
    assert_eq!(errs.len(), 2, "{ctx}");
    for (stem, e) in &errs {
        assert_eq!(map[&split_stem(stem).0].0, "Q_slow", "{stem}");
        assert!(e.contains("timed out"), "{stem}.err: {e}");
        assert!(text(&o.stdout).contains(stem.as_str()), "{ctx}");
        let rec = std::fs::read_to_string(dispatch_file(&f.out, stem, "json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&rec).unwrap();
        assert_eq!(v["timed_out"], true, "{rec}");
        assert_eq!(v["status"], "failed", "{rec}");
    }
    let answers = f.answers();
    assert_eq!(answers.len(), 2, "{ctx}");
    assert!(answers.keys().all(|(q, _, _)| q == "Q_deploy"));
    // The timeout killed the agent's whole process group, its sleeping child too.
    let pids = pids_in(&f.state.join("pids"));
    assert_eq!(pids.len(), 4, "two stalled agents, each with one child");
    let survivors: Vec<i32> = pids.iter().copied().filter(|p| alive(*p)).collect();
    assert!(survivors.is_empty(), "survived the timeout: {survivors:?}");
}

#[test]
fn failing_agent_with_output_is_recorded_and_its_answer_scored() {
    let f = Fixture::with_rows(standard_rows().into_iter().take(1).collect());
    let o = f.run(&["--agent", &agent("failer.sh", &[]), "--reps", "1"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(f.round_done().contains("complete: yes"), "{ctx}");
    let answers = dispatch_files(&f.out, "txt");
    assert_eq!(answers.len(), 2, "{ctx}");
    for (stem, a) in &answers {
        assert!(a.contains("partial output before failing"), "{stem}: {a}");
        let rec = std::fs::read_to_string(dispatch_file(&f.out, stem, "json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&rec).unwrap();
        assert_eq!(v["exit_code"], 3, "{rec}");
        let stderr = std::fs::read_to_string(dispatch_file(&f.out, stem, "stderr")).unwrap();
        assert!(stderr.contains("something went wrong"), "{stderr}");
    }
    let rows = verdicts(&f.out);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r.4 == "FAIL"), "{rows:?}");
}

/// Whether `pid` is a live process (a zombie is not).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence and permission.
    if unsafe { libc::kill(pid, 0) } != 0 {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => {
            let state = s
                .rsplit_once(')')
                .map(|(_, r)| r.trim_start())
                .unwrap_or("");
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

fn pids_in(path: &Path) -> Vec<i32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect()
}

/// Starts `harness run` on `f` with `flags` as a plain child process (stdout and stderr to
/// `<name>.stdout` / `<name>.stderr` in the fixture's folder), for signalling.
fn spawn_round(f: &Fixture, flags: &[&str], name: &str) -> std::process::Child {
    let mut cmd = TestEnv::kept().command(assert_cmd::cargo::cargo_bin("harness"));
    cmd.env("HOME", &f.user_home)
        .arg("run")
        .arg("--qset")
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("--out")
        .arg(&f.out)
        .arg("--quiet")
        .args(flags)
        .stdout(std::fs::File::create(f.dir.path().join(format!("{name}.stdout"))).unwrap())
        .stderr(std::fs::File::create(f.dir.path().join(format!("{name}.stderr"))).unwrap());
    cmd.spawn().unwrap()
}

/// Polls `ready` until it holds; fails when the harness ends first or after 60 s.
fn wait_for(child: &mut std::process::Child, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "the round never got going");
        assert!(child.try_wait().unwrap().is_none(), "harness ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Ctrl-C: SIGINT to the harness process alone, then its exit status (within 30 s).
fn interrupt(child: &mut std::process::Child) -> std::process::ExitStatus {
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("harness did not stop within 30 s of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Live processes whose command line is exactly `argv`, found in /proc.
fn processes_running(argv: &[&str]) -> Vec<i32> {
    let want: Vec<u8> = argv
        .iter()
        .flat_map(|a| [a.as_bytes(), b"\0"].concat())
        .collect();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == want))
        .filter(|pid| alive(*pid))
        .collect()
}

#[test]
fn ctrl_c_stops_sandboxed_agents_too() {
    let mut rows = standard_rows();
    rows.truncate(1);
    let t = tok("sx");
    rows.push((
        "Q_slow".into(),
        "positive",
        "Answer slowly: which region hosts the backup bucket?".into(),
        t.clone(),
        Some(format!("backup bucket region: {t}")),
    ));
    let f = Fixture::with_rows(rows);
    // A sleep length no other test uses, so /proc tells this test's stragglers apart.
    let secs = (30_000 + std::process::id() % 10_000).to_string();
    let reader = agents_dir().join("sealreader.sh");
    let spec = agent("stall.sh", &[&f.state, Path::new(&secs), &reader]);
    let flags = [
        "--agent",
        spec.as_str(),
        "--reps",
        "1",
        "--jobs",
        "4",
        "--sandbox",
        "auto",
    ];
    let mut child = spawn_round(&f, &flags, "sandboxed");
    wait_for(&mut child, || {
        !dispatch_files(&f.out, "txt").is_empty() && processes_running(&["sleep", &secs]).len() >= 2
    });
    let status = interrupt(&mut child);
    let err = std::fs::read_to_string(f.dir.path().join("sandboxed.stderr")).unwrap();
    assert_eq!(status.code(), Some(13), "{err}");
    std::thread::sleep(Duration::from_millis(200));
    let survivors = processes_running(&["sleep", &secs]);
    for p in &survivors {
        // SAFETY: cleaning up what the test started through the harness.
        unsafe {
            libc::kill(*p, libc::SIGKILL);
        }
    }
    assert!(
        survivors.is_empty(),
        "sandboxed agents survived Ctrl-C: {survivors:?}"
    );
    assert_eq!(f.labelmap().len(), 4);
}

#[test]
fn ctrl_c_stops_every_agent_and_resume_finishes_under_the_same_labels() {
    let mut rows = standard_rows();
    let t4 = tok("sl");
    rows.push((
        "Q_slow".into(),
        "positive",
        "Answer slowly: which region hosts the backup bucket?".into(),
        t4.clone(),
        Some(format!("backup bucket region: {t4}")),
    ));
    let t5 = tok("sm");
    rows.push((
        "Q_slow2".into(),
        "negative",
        "Answer slowly: who owns the billing dashboard?".into(),
        t5,
        None,
    ));
    let f = Fixture::with_rows(rows);
    let spec = agent("stall.sh", &[&f.state]);
    // Five slots for four stalling dispatches: with four, a shuffled order that puts all four
    // first (1 in 210) fills every slot and no answer is ever written.
    let flags = [
        "--agent",
        spec.as_str(),
        "--reps",
        "1",
        "--jobs",
        "5",
        "--sandbox",
        "none",
    ];
    let mut child = spawn_round(&f, &flags, "first");
    let pids_file = f.state.join("pids");
    // At least one answer written and at least one slow agent running (4 of them stall).
    wait_for(&mut child, || {
        !dispatch_files(&f.out, "txt").is_empty() && pids_in(&pids_file).len() >= 2
    });
    // The journal is on disk while agents run (inside the out-dir, which the sandbox forbids).
    assert!(f.plan_path().is_file(), "no journal while agents run");
    let status = interrupt(&mut child);
    let first_err = std::fs::read_to_string(f.dir.path().join("first.stderr")).unwrap();
    assert_eq!(status.code(), Some(13), "{first_err}");
    assert!(
        first_err.contains(&format!("harness run --out {} --resume", f.out.display())),
        "the message after Ctrl-C does not print the resume command: {first_err}"
    );
    // No agent and no child of an agent survives.
    let pids = pids_in(&pids_file);
    assert!(pids.len() >= 2);
    std::thread::sleep(Duration::from_millis(200));
    let survivors: Vec<i32> = pids.iter().copied().filter(|p| alive(*p)).collect();
    for p in &survivors {
        // SAFETY: cleaning up what the test started through the harness.
        unsafe {
            libc::kill(*p, libc::SIGKILL);
        }
    }
    assert!(
        survivors.is_empty(),
        "agent processes survived Ctrl-C: {survivors:?}"
    );
    // The labels are kept; the round is not marked done.
    let labelmap_before = f.labelmap();
    let order_before = plan_order(&f.plan_path());
    let seed_before = order_seed(&f.out);
    assert_eq!(f.labelmap().len(), 10);
    assert!(
        !f.out.join("ROUND_DONE").exists() || f.round_done().contains("complete: NO"),
        "an interrupted round claims completion"
    );
    let answered_before: BTreeSet<String> = dispatch_files(&f.out, "txt")
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert!(answered_before.len() < 10);

    // Resume: the stalled prompts now go through.
    std::fs::write(f.state.join("go"), "").unwrap();
    let mut resume: Vec<&str> = flags.to_vec();
    resume.push("--resume");
    let o = f.run(&resume);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(f.round_done().contains("complete: yes"), "{ctx}");
    assert_eq!(o.status.code(), Some(0), "{ctx}");
    assert_eq!(f.labelmap(), labelmap_before, "resume changed the labels");
    assert_eq!(
        (plan_order(&f.plan_path()), order_seed(&f.out)),
        (order_before, seed_before),
        "resume changed the dispatch order or its seed"
    );
    let answers = f.answers();
    assert_eq!(answers.len(), 10, "{ctx}");
    let answered_after: BTreeSet<String> = dispatch_files(&f.out, "txt")
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert!(answered_before.is_subset(&answered_after));
    let rows = verdicts(&f.out);
    assert_eq!(rows.len(), 10);
    let a = &answers[&("Q_slow".to_string(), "ARM".to_string(), 1)];
    assert!(a.contains(&t4), "{a}");
}

#[test]
fn a_hundred_dispatches_on_eight_jobs_are_each_scored_once() {
    let rows: Vec<_> = (0..25)
        .map(|i| {
            let t = tok(&format!("h{i}x"));
            let kind = if i % 2 == 0 { "positive" } else { "negative" };
            let line = (kind == "positive").then(|| format!("item {i} value: {t}"));
            (
                format!("Q{i:02}"),
                kind,
                format!("What is item number {i} about?"),
                t,
                line,
            )
        })
        .collect();
    let f = Fixture::with_rows(rows);
    let o = f.run(&[
        "--agent",
        &agent("noop.sh", &[]),
        "--reps",
        "2",
        "--jobs",
        "8",
        "--sandbox",
        "none",
    ]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    let done = f.round_done();
    assert!(done.contains("complete: yes"), "{done}\n{ctx}");
    assert!(done.contains("answers: 100"), "{done}");
    let rows = verdicts(&f.out);
    assert_eq!(rows.len(), 100, "{ctx}");
    let keys: BTreeSet<(String, String, u32)> = rows
        .iter()
        .map(|r| (r.0.clone(), r.2.clone(), r.3))
        .collect();
    assert_eq!(keys.len(), 100, "a (qid, arm, rep) was scored twice");
    assert!(
        rows.iter().all(|r| r.4 == "VOID"),
        "an empty answer is VOID"
    );
    assert_eq!(dispatch_files(&f.out, "txt").len(), 100);
    assert_eq!(f.labelmap().len(), 50);
}

#[test]
fn baseline_grep_finds_the_seal_only_when_delivered() {
    let discover = Fixture::new();
    let o = discover.run(&["--agent", "baseline-grep", "--reps", "1"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(discover.round_done().contains("complete: yes"), "{ctx}");
    for (qid, kind, arm, _, verdict) in verdicts(&discover.out) {
        if kind == "positive" {
            assert_ne!(
                verdict, "PASS",
                "{qid} {arm} found the undelivered seal\n{ctx}"
            );
        }
    }
    let deliver = Fixture::new();
    let o = deliver.run(&["--agent", "baseline-grep", "--reps", "1", "--deliver"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert!(deliver.round_done().contains("complete: yes"), "{ctx}");
    let rows = verdicts(&deliver.out);
    assert_eq!(rows.len(), 6);
    for (qid, kind, arm, _, verdict) in rows {
        if kind == "positive" {
            let want = if arm == "ARM" { "PASS" } else { "FAIL" };
            assert_eq!(verdict, want, "{qid} {arm}\n{ctx}");
        }
    }
    // The delivered prompt names the planted path in ARM only.
    let map = deliver.labelmap();
    for (stem, prompt) in dispatch_files(&deliver.out, "prompt") {
        let (label, _) = split_stem(&stem);
        let arm = &map[&label].1;
        assert_eq!(
            prompt.contains("tracks/_meta/compaction/handoff.md"),
            arm == "ARM",
            "{stem}: {prompt}"
        );
    }
}

/// `run` into the out-dir of a finished round says the round is finished and what to do (another
/// `--out`, or `harness report DIR`), never to `--resume` it: there is nothing left to finish.
/// A folder that holds no round is not offered a resume either.
#[test]
fn a_finished_round_is_not_offered_a_resume() {
    let f = Fixture::new();
    let o = f.run(&["--agent", "baseline-grep", "--reps", "1", "--deliver"]);
    assert!(f.out.join("ROUND_DONE").is_file(), "{}", text(&o.stderr));
    let done = f.round_done();
    let o = f.run(&["--agent", "baseline-grep", "--reps", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("holds a finished round"), "{err}");
    assert!(err.contains("another --out"), "{err}");
    assert!(
        err.contains(&format!("harness report {}", f.out.display())),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");
    assert_eq!(f.round_done(), done, "the finished round is left as it was");

    let g = Fixture::new();
    std::fs::create_dir_all(&g.out).unwrap();
    std::fs::write(g.out.join("notes.txt"), "mine").unwrap();
    let o = g.run(&["--agent", "baseline-grep", "--reps", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("holds no round") && !err.contains("--resume"),
        "{err}"
    );
}

#[test]
fn an_out_dir_that_names_an_arm_is_refused_before_dispatch() {
    let f = Fixture::new();
    let leaky = f.dir.path().join("x").join("ARM_round");
    let mut c = f.cmd_at(&leaky, &["--agent", &agent("noop.sh", &[]), "--reps", "1"]);
    c.arg("--seal").arg(&f.seal);
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(7), "{}", text(&o.stderr));
    // The gate table says which name leaked.
    let table = text(&o.stdout);
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("name-leak") && l.contains("out-dir")),
        "{table}"
    );
    assert!(answer_files_below(&f.dir.path().join("x")).is_empty());
    assert!(!f.out.exists());
}

#[test]
fn a_qset_changed_by_one_byte_fails_the_manifest_before_dispatch() {
    let f = Fixture::new();
    let manifest = f.dir.path().join("manifest.json");
    f.seal_manifest(
        &manifest,
        &["--agent", &agent("noop.sh", &[]), "--reps", "1"],
    );
    let mut q = std::fs::read(&f.qset).unwrap();
    let i = q.iter().position(|b| *b == b'?').unwrap();
    q[i] = b'.';
    std::fs::write(&f.qset, q).unwrap();
    let o = f.run(&[
        "--agent",
        &agent("noop.sh", &[]),
        "--reps",
        "1",
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(10), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("qset"), "{}", text(&o.stderr));
    assert!(answer_files_below(f.out.parent().unwrap()).is_empty());
    assert!(!f.out.exists(), "a refused round wrote its out-dir");
}

#[test]
fn an_unchanged_manifest_lets_the_round_run() {
    let f = Fixture::new();
    let manifest = f.dir.path().join("manifest.json");
    let spec = agent("sealreader.sh", &[]);
    f.seal_manifest(&manifest, &["--agent", &spec, "--reps", "1"]);
    let o = f.run(&[
        "--agent",
        &agent("sealreader.sh", &[]),
        "--reps",
        "1",
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(f.round_done().contains("manifest: match"));
    assert!(
        f.round_done().contains("design: sealed"),
        "{}",
        f.round_done()
    );
}

/// The manifest seals the design: a round with other reps, without --deliver or with another
/// agent is refused before any dispatch (exit 10), naming the field and both values.
#[test]
fn a_round_of_another_design_than_sealed_is_refused_naming_the_field() {
    let f = Fixture::new();
    let manifest = f.dir.path().join("manifest.json");
    let spec = agent("sealreader.sh", &[]);
    f.seal_manifest(&manifest, &["--agent", &spec, "--reps", "3", "--deliver"]);
    let m = manifest.to_str().unwrap();
    let other = agent("noop.sh", &[]);
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["--agent", &spec, "--reps", "1", "--deliver"],
            "reps",
            "sealed 3, this run 1",
        ),
        (
            &["--agent", &spec, "--reps", "3"],
            "mode",
            "sealed deliver, this run discover",
        ),
        (
            &["--agent", &other, "--reps", "3", "--deliver"],
            "agent",
            "this run command:",
        ),
    ];
    for (flags, field, both) in cases {
        let mut args = flags.to_vec();
        args.extend(["--manifest", m]);
        let o = f.run(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(10), "{field}: {err}");
        let line = err
            .lines()
            .find(|l| l.trim_start().starts_with(field) && l.contains("MISMATCH"))
            .unwrap_or_else(|| panic!("no MISMATCH line for {field}: {err}"));
        assert!(line.contains(both), "{line}");
        assert!(!f.out.exists(), "a refused round wrote its out-dir");
    }
    // verify shows the sealed design.
    let v = harness()
        .args(["verify", "--manifest", m])
        .output()
        .unwrap();
    let out = text(&v.stdout);
    assert!(out.contains("design    sealed"), "{out}");
    assert!(out.lines().any(|l| l.trim() == "reps           3"), "{out}");
    assert!(
        out.lines().any(|l| l.trim() == "mode           deliver"),
        "{out}"
    );
}

/// Without --manifest, ROUND_DONE and the brief say the design is not sealed.
#[test]
fn a_round_without_a_manifest_says_design_not_sealed() {
    let f = Fixture::new();
    let o = f.run(&["--agent", &agent("sealreader.sh", &[]), "--reps", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        f.round_done().contains("design: design not sealed"),
        "{}",
        f.round_done()
    );
    let report = std::fs::read_to_string(f.out.join("report.md")).unwrap();
    assert!(report.contains("design not sealed"), "{report}");
}

#[test]
fn ctrl_only_runs_without_a_seal() {
    let f = Fixture::new();
    let o = f
        .cmd(&[
            "--agent",
            &agent("sealreader.sh", &[]),
            "--reps",
            "1",
            "--arms",
            "CTRL",
        ])
        .output()
        .unwrap();
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    let done = f.round_done();
    assert!(done.contains("complete: yes"), "{done}\n{ctx}");
    assert!(done.contains("seal: none"), "{done}");
    let rows = verdicts(&f.out);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.2 == "CTRL"));
    assert!(f.labelmap().values().all(|(_, arm)| arm == "CTRL"));
}

#[test]
fn a_missing_protocol_file_is_exit_11() {
    let f = Fixture::new();
    let missing = f.dir.path().join("inputs").join("protocol.md");
    let o = f.run(&[
        "--agent",
        &agent("noop.sh", &[]),
        "--reps",
        "1",
        "--protocol",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(11), "{}", text(&o.stderr));
    assert!(answer_files_below(f.out.parent().unwrap()).is_empty());
}

#[test]
fn a_malformed_qset_is_exit_2_naming_the_line() {
    let f = Fixture::new();
    let mut q = std::fs::read_to_string(&f.qset).unwrap();
    q.push_str("Q_bad\tsometimes\tIs this a kind?\tzz1\n");
    std::fs::write(&f.qset, q).unwrap();
    let o = f.run(&["--agent", &agent("noop.sh", &[]), "--reps", "1"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("questions.tsv:5"), "{err}");
    assert!(answer_files_below(f.out.parent().unwrap()).is_empty());
}

#[test]
fn an_empty_qset_is_unmeasured() {
    let f = Fixture::new();
    write_qset(&f.qset, &[]);
    let o = f.run(&["--agent", &agent("noop.sh", &[]), "--reps", "1"]);
    assert_eq!(o.status.code(), Some(12), "{}", text(&o.stderr));
    assert!(answer_files_below(f.out.parent().unwrap()).is_empty());
}

#[test]
fn an_agent_template_that_never_gets_the_prompt_is_refused_before_dispatch() {
    for bad in ["command:true", "command:echo {prompt} {promt}"] {
        let f = Fixture::new();
        let o = f.run(&["--agent", bad, "--reps", "1", "--sandbox", "none"]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("template"), "{bad}: {err}");
        let outs = f.out.parent().unwrap();
        assert!(
            !outs.exists() || walk(outs).is_empty(),
            "{bad}: files were written: {:?}",
            walk(outs)
        );
    }
}

// ── Review fixes: each of these was a way to report a result that was not measured. ──

#[test]
fn a_silent_agent_that_exits_non_zero_is_a_failed_dispatch_not_an_empty_answer() {
    let f = Fixture::with_rows(standard_rows().into_iter().take(1).collect());
    let script = f.dir.path().join("silent.sh");
    std::fs::write(&script, "#!/bin/sh\necho 'api key refused' >&2\nexit 1\n").unwrap();
    let o = f.run(&[
        "--agent",
        &format!("command:sh {} {{prompt}}", script.display()),
        "--reps",
        "1",
        "--sandbox",
        "none",
    ]);
    assert_eq!(o.status.code(), Some(13), "{}", text(&o.stdout));
    let done = f.round_done();
    assert!(
        done.contains("complete: NO") && done.contains("claimed: no"),
        "{done}"
    );
    assert!(dispatch_files(&f.out, "txt").is_empty());
    let errs = dispatch_files(&f.out, "err");
    assert_eq!(errs.len(), 2);
    assert!(
        errs.iter()
            .all(|(_, e)| e.contains("exit status 1") && e.contains("no output")),
        "{errs:?}"
    );
}

#[test]
fn a_sealed_protocol_left_off_the_run_is_a_manifest_mismatch() {
    let f = Fixture::new();
    let proto = f.dir.path().join("protocol.txt");
    std::fs::write(
        &proto,
        "End your answer with <<VERDICT:ANSWERED>> or <<VERDICT:REFUSED>>.\n",
    )
    .unwrap();
    let manifest = f.dir.path().join("manifest.json");
    let spec = agent("sealreader.sh", &[]);
    f.seal_manifest(
        &manifest,
        &[
            "--protocol",
            proto.to_str().unwrap(),
            "--agent",
            &spec,
            "--reps",
            "1",
        ],
    );
    let o = f.run(&[
        "--agent",
        &agent("noop.sh", &[]),
        "--reps",
        "1",
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(10), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("protocol"), "{}", text(&o.stderr));
    // Given, it matches and the round runs.
    let o = f.run(&[
        "--agent",
        &agent("sealreader.sh", &[]),
        "--reps",
        "1",
        "--manifest",
        manifest.to_str().unwrap(),
        "--protocol",
        proto.to_str().unwrap(),
    ]);
    assert!(
        f.round_done().contains("manifest: match"),
        "{}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

#[test]
fn resume_refuses_another_sandbox_mode() {
    let f = Fixture::with_rows(standard_rows().into_iter().take(1).collect());
    let o = f.run(&[
        "--agent",
        &agent("sealreader.sh", &[]),
        "--reps",
        "1",
        "--sandbox",
        "none",
    ]);
    assert!(
        f.round_done().contains("complete: yes"),
        "{}",
        text(&o.stderr)
    );
    let o = f.run(&[
        "--agent",
        &agent("sealreader.sh", &[]),
        "--reps",
        "1",
        "--sandbox",
        "auto",
        "--resume",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--sandbox differs"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn an_out_dir_without_a_name_of_its_own_is_refused_and_dot_is_a_round_of_its_own() {
    let f = Fixture::new();
    let here = f.dir.path().join("here");
    std::fs::create_dir_all(&here).unwrap();
    let o = f
        .cmd_at(
            Path::new(".."),
            &[
                "--agent",
                &agent("noop.sh", &[]),
                "--seal",
                f.seal.to_str().unwrap(),
            ],
        )
        .current_dir(&here)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let file = f.dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let o = f
        .cmd_at(
            &file,
            &[
                "--agent",
                &agent("noop.sh", &[]),
                "--seal",
                f.seal.to_str().unwrap(),
            ],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        std::fs::read_dir(&here).unwrap().next().is_none(),
        "nothing written so far"
    );
    // `--out .` is the (empty) current folder by its own name: the journal goes inside it, and
    // nothing is written beside it any more.
    f.cmd_at(
        Path::new("."),
        &[
            "--agent",
            &agent("sealreader.sh", &[]),
            "--reps",
            "1",
            "--seal",
            f.seal.to_str().unwrap(),
        ],
    )
    .current_dir(&here)
    .output()
    .unwrap();
    assert!(here.join("ROUND_DONE").is_file());
    assert!(here.join("journal").join("plan.json").is_file());
    assert!(!std::fs::read_dir(f.dir.path())
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".labelmap")));
}

#[test]
fn a_ctrl_only_round_does_not_claim_its_ok() {
    let f = Fixture::new();
    let o = f
        .cmd(&[
            "--agent",
            &agent("sealreader.sh", &[]),
            "--reps",
            "1",
            "--arms",
            "CTRL",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let done = f.round_done();
    assert!(
        done.contains("claimed: no") && done.contains("not claimed"),
        "{done}"
    );
}

/// label → (qid, arm) from a round's `journal/plan.json`.
/// The plan's dispatches in the order they run, as `qid ARM rN`.
fn plan_order(plan: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(plan).expect("the round's plan");
    let v: serde_json::Value = serde_json::from_str(&text).expect("plan json");
    v["dispatches"]
        .as_array()
        .expect("dispatches")
        .iter()
        .map(|d| {
            format!(
                "{} {} r{}",
                d["qid"].as_str().unwrap(),
                d["arm"].as_str().unwrap(),
                d["rep"]
            )
        })
        .collect()
}

/// `order_seed` from the round's `round.json`.
fn order_seed(out: &Path) -> u64 {
    let text = std::fs::read_to_string(out.join("round.json")).expect("round.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("round json");
    v["order_seed"].as_u64().expect("order_seed in round.json")
}

/// Two rounds draw two seeds and run in two orders; each order interleaves the arms (ARM and
/// CTRL of a question and rep side by side), and every dispatch record has its start and end.
#[test]
fn dispatch_order_is_a_recorded_seeded_shuffle_interleaving_arms() {
    let (a, b) = (Fixture::new(), Fixture::new());
    for f in [&a, &b] {
        let o = f.run(&["--agent", "baseline-grep", "--reps", "3", "--deliver"]);
        assert!(
            f.round_done().contains("complete: yes"),
            "{}",
            text(&o.stderr)
        );
    }
    let (oa, ob) = (plan_order(&a.plan_path()), plan_order(&b.plan_path()));
    assert_ne!(order_seed(&a.out), order_seed(&b.out));
    assert_ne!(oa, ob, "two seeds, one order");
    assert_eq!(oa.len(), 18);
    for pair in oa.chunks(2) {
        let cell = |s: &str| s.replace(" ARM ", " ").replace(" CTRL ", " ");
        assert_eq!(cell(&pair[0]), cell(&pair[1]), "{pair:?}");
        assert_ne!(pair[0], pair[1]);
    }
    let qset_order: Vec<String> = {
        let mut v = oa.clone();
        v.sort();
        v
    };
    assert_ne!(oa, qset_order, "the order is the sorted one");
    let mut records = 0;
    for (stem, json) in dispatch_files(&a.out, "json") {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        if v.get("stem").is_none() {
            continue;
        }
        records += 1;
        let (s, e) = (
            v["dispatch_started_unix_ms"].as_u64(),
            v["dispatch_ended_unix_ms"].as_u64(),
        );
        assert!(
            matches!((s, e), (Some(s), Some(e)) if s > 0 && e >= s),
            "{stem}: {json}"
        );
    }
    assert_eq!(records, 18);
}

fn labels_of(plan: &Path) -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(plan).expect("the round's plan");
    let v: serde_json::Value = serde_json::from_str(&text).expect("plan json");
    v["dispatches"]
        .as_array()
        .expect("dispatches")
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().expect(k).to_string();
            (s("label"), (s("qid"), s("arm")))
        })
        .collect()
}

/// Whether the running kernel is at least `major.minor` (from /proc/sys/kernel/osrelease).
fn kernel_at_least(major: u32, minor: u32) -> bool {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut parts = release
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|p| p.parse::<u32>().ok());
    let version = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    version >= (major, minor)
}

/// The standard rows plus three positives the seal does not carry (a thinner hand-off).
fn thin_seal_rows() -> Vec<(String, &'static str, String, String, Option<String>)> {
    let mut rows = standard_rows();
    for (qid, q, tag) in [
        ("Q_owner", "Who owns the billing service?", "ow"),
        ("Q_region", "Which region hosts the primary database?", "rg"),
        ("Q_cron", "At what hour does the nightly export run?", "cr"),
    ] {
        rows.push((qid.into(), "positive", q.into(), tok(tag), None));
    }
    rows
}

/// A seal lacking three positives: refused without the flag (exit 8, naming them); under
/// `--ledger report` the round runs, the gate and every report header list the three, DELIVERY
/// is reported over the carried positives (2/2) and beside it over all (2/5), and
/// INSTRUMENT_INCOMPLETE judges the carried ones only (the verdict stays OK).
#[test]
fn a_seal_lacking_positives_runs_under_ledger_report_with_both_delivery_lines() {
    let f = Fixture::with_rows(thin_seal_rows());
    let spec = agent("sealreader.sh", &[]);
    let refused = f.run(&["--agent", &spec, "--reps", "1"]);
    let said = format!("{}{}", text(&refused.stdout), text(&refused.stderr));
    assert_eq!(refused.status.code(), Some(8), "{said}");
    for q in ["Q_owner", "Q_region", "Q_cron"] {
        assert!(
            said.contains(&format!("{q}: positive token not in the seal")),
            "{said}"
        );
    }
    assert!(!f.out.join("verdicts.csv").exists());

    let o = f.run(&["--agent", &spec, "--reps", "1", "--ledger", "report"]);
    let said = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{said}");
    assert!(
        said.contains(
            "the seal does not carry 3 positive(s), listed, not refused: Q_owner, Q_region, Q_cron"
        ),
        "{said}"
    );
    let listed =
        "the seal does not carry 3 positive(s), listed not refused: Q_owner, Q_region, Q_cron";
    let md = std::fs::read_to_string(f.out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(f.out.join("report.html")).unwrap();
    let table = text(
        &harness()
            .args(["report", "--format", "table"])
            .arg(&f.out)
            .output()
            .unwrap()
            .stdout,
    );
    // Markdown escapes the underscores of qids it shows in the header.
    let md = md.replace("\\_", "_");
    for (name, doc) in [("md", &md), ("html", &html), ("table", &table)] {
        assert!(doc.contains(listed), "{name}: {doc}");
        let carried = doc
            .lines()
            .find(|l| l.contains("DELIVERY (ARM, carried positives)"))
            .unwrap_or_else(|| panic!("{name}: no carried DELIVERY line: {doc}"));
        assert!(carried.contains("2/2 rows, 2 items"), "{name}: {carried}");
        let all = doc
            .lines()
            .find(|l| l.contains("DELIVERY (ARM, all positives)"))
            .unwrap_or_else(|| panic!("{name}: no all-positives DELIVERY line: {doc}"));
        assert!(all.contains("2/5 rows, 5 items"), "{name}: {all}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(f.out.join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(json["meta"]["ledger"], "report");
    assert_eq!(
        json["meta"]["uncarried"],
        serde_json::json!(["Q_owner", "Q_region", "Q_cron"])
    );
    let line = |key: &str| {
        json["numbers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .unwrap_or_else(|| panic!("no {key} in summary.json"))
            .clone()
    };
    assert_eq!(
        (
            line("delivery_arm")["value"]["k"].clone(),
            line("delivery_arm")["value"]["n"].clone()
        ),
        (2.into(), 2.into())
    );
    assert_eq!(
        (
            line("delivery_all_arm")["value"]["k"].clone(),
            line("delivery_all_arm")["value"]["n"].clone()
        ),
        (2.into(), 5.into())
    );
    assert!(f.round_done().contains("verdict: OK"), "{}", f.round_done());
}

/// `--ledger` is part of the sealed design: a manifest sealed with `--ledger report` refuses a
/// run without it (exit 10 naming `ledger`), and accepts one with it.
#[test]
fn the_ledger_mode_is_sealed_in_the_design() {
    let f = Fixture::with_rows(thin_seal_rows());
    let manifest = f.dir.path().join("manifest.json");
    let spec = agent("sealreader.sh", &[]);
    f.seal_manifest(
        &manifest,
        &["--agent", &spec, "--reps", "1", "--ledger", "report"],
    );
    let m = manifest.to_str().unwrap();
    let o = f.run(&["--agent", &spec, "--reps", "1", "--manifest", m]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(10), "{err}");
    let line = err
        .lines()
        .find(|l| l.trim_start().starts_with("ledger") && l.contains("MISMATCH"))
        .unwrap_or_else(|| panic!("no ledger MISMATCH line: {err}"));
    assert!(line.contains("sealed report, this run strict"), "{line}");
    assert!(!f.out.exists());
    let o = f.run(&[
        "--agent",
        &spec,
        "--reps",
        "1",
        "--ledger",
        "report",
        "--manifest",
        m,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let md = std::fs::read_to_string(f.out.join("report.md")).unwrap();
    assert!(md.contains("sealed in the manifest"), "{md}");
    assert!(md.contains("report (--ledger report)"), "{md}");
}

/// `run --dry-run` checks what a round checks, prints the dispatch count and exactly the power
/// lines `harness plan` prints, and writes nothing; a gate refusal still refuses (exit 8).
#[test]
fn run_dry_run_prints_plans_power_line_and_writes_nothing() {
    let f = Fixture::new();
    let spec = agent("sealreader.sh", &[]);
    let o = f.run(&["--agent", &spec, "--reps", "2", "--dry-run"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(
        out.contains("the round would make 12 dispatches (3 questions × 2 arm(s) × 2 reps)"),
        "{out}"
    );
    assert!(!f.out.exists(), "a dry run wrote its out-dir");
    let power = |t: &str| -> Vec<String> {
        let mut lines = t.lines().skip_while(|l| !l.starts_with("power (80%"));
        let head = lines.next().map(String::from);
        head.into_iter()
            .chain(lines.take_while(|l| l.starts_with("  ")).map(String::from))
            .collect()
    };
    let dry = power(&out);
    // The heading, then DELIVERY, HUI and CARRIER-READ.
    assert_eq!(dry.len(), 4, "{out}");
    let planned = harness()
        .env("HOME", &f.user_home)
        .arg("plan")
        .arg("--qset")
        .arg(&f.qset)
        .arg("--seal")
        .arg(&f.seal)
        .arg("--repo")
        .arg(&f.repo)
        .arg("--out")
        .arg(f.dir.path().join("planned"))
        .args(["--agent", &spec, "--reps", "2"])
        .output()
        .unwrap();
    assert_eq!(planned.status.code(), Some(0), "{}", text(&planned.stderr));
    assert_eq!(dry, power(&text(&planned.stdout)));
    // The checks are the round's: a seal lacking a positive is refused in a dry run too.
    let thin = Fixture::with_rows(thin_seal_rows());
    let o = thin.run(&["--agent", &spec, "--dry-run"]);
    assert_eq!(o.status.code(), Some(8), "{}", text(&o.stdout));
    assert!(!thin.out.exists());
}

/// The report shows arm × time from the dispatch records' start times: per-arm start counts per
/// time bucket in text (summing to each arm's dispatches) and one tick per dispatch in HTML.
#[test]
fn the_report_shows_arm_by_time_from_the_recorded_start_times() {
    let f = Fixture::new();
    let o = f.run(&["--agent", &agent("sealreader.sh", &[]), "--reps", "2"]);
    assert!(
        f.round_done().contains("complete: yes"),
        "{}",
        text(&o.stderr)
    );
    let table = text(
        &harness()
            .args(["report", "--format", "table"])
            .arg(&f.out)
            .output()
            .unwrap()
            .stdout,
    );
    let sum = |arm: &str| -> u64 {
        let line = table
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{arm} ")) && l.contains("  "))
            .filter(|l| {
                l.split_whitespace()
                    .skip(1)
                    .all(|w| w.parse::<u64>().is_ok())
            })
            .unwrap_or_else(|| panic!("no {arm} bucket line: {table}"));
        line.split_whitespace()
            .skip(1)
            .map(|w| w.parse::<u64>().unwrap())
            .sum()
    };
    assert!(table.contains("── Arm × time ──"), "{table}");
    assert_eq!((sum("ARM"), sum("CTRL")), (6, 6), "{table}");
    let order = table
        .lines()
        .find_map(|l| {
            l.split_once("start order (A = ARM, C = CTRL): ")
                .map(|x| x.1.trim().to_string())
        })
        .expect("start order line");
    assert_eq!(order.len(), 12, "{order}");
    assert_eq!(order.matches('A').count(), 6, "{order}");
    let html = std::fs::read_to_string(f.out.join("report.html")).unwrap();
    assert_eq!(html.matches("class=\"tick-arm\"").count(), 6);
    assert_eq!(html.matches("class=\"tick-ctrl\"").count(), 6);
}

/// Issue 22 item 10: an out-dir given with `..` is printed resolved, as the folder it is.
#[test]
fn the_out_dir_is_printed_resolved() {
    let f = Fixture::new();
    let results = f.dir.path().join("results");
    std::fs::create_dir_all(results.join("elsewhere")).unwrap();
    let given = results.join("elsewhere").join("..").join("r9");
    let mut c = f.cmd_loud(
        &given,
        &["--agent", &agent("sealreader.sh", &[]), "--reps", "1"],
    );
    c.arg("--seal")
        .arg(&f.seal)
        .timeout(Duration::from_secs(120));
    let o = c.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    let real = std::fs::canonicalize(&results).unwrap().join("r9");
    assert!(
        stdout.contains(&format!("files: {}  ", real.display())),
        "{stdout}"
    );
    assert!(!stdout.contains("/../"), "{stdout}");
}

/// `<stem>` of every planned dispatch of the round in `out`.
fn planned_stems(out: &Path) -> BTreeSet<String> {
    let plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("journal/plan.json")).unwrap())
            .unwrap();
    plan["dispatches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{}_r{}", d["label"].as_str().unwrap(), d["rep"]))
        .collect()
}

/// The names of the files directly in `dir`, sorted.
fn names_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The seal reader (its script copied in: a sandboxed agent reads only its own script),
/// except that it fails (no output, exit 1) on the cat question while `<state>/fail` exists: a
/// round with failed dispatches to resume once the file is gone.
fn cat_fails_while(f: &Fixture) -> String {
    let reader = std::fs::read_to_string(agents_dir().join("sealreader.sh")).unwrap();
    f.script_agent(
        "catfails.sh",
        &format!(
            "case \"$1\" in *\"office cat\"*) [ -e '{}' ] && {{ echo 'cat: refused' >&2; exit 1; }} ;; esac\n{reader}",
            f.state.join("fail").display(),
        ),
    )
}

#[test]
fn a_new_round_keeps_every_per_dispatch_file_in_dispatches() {
    let f = Fixture::new();
    std::fs::write(f.state.join("fail"), "").unwrap();
    let spec = cat_fails_while(&f);
    let o = f.run(&["--agent", &spec, "--reps", "1", "--retries", "0"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(13), "the cat dispatches fail\n{ctx}");
    // The top level holds the round's own files, not one of a dispatch.
    for name in names_in(&f.out) {
        assert!(
            ROUND_FILES.contains(&name.as_str()),
            "{name} at the out-dir's top level\n{ctx}"
        );
    }
    // dispatches/ holds every file of every dispatch: prompt, record, stderr, and the answer
    // or (for the failed ones) the reason; nothing else.
    let stems = planned_stems(&f.out);
    assert_eq!(stems.len(), 6);
    let map = f.labelmap();
    let mut want = BTreeSet::new();
    for stem in &stems {
        let cat = map[&split_stem(stem).0].0 == "Q_cat";
        for ext in ["prompt", "json", "stderr", if cat { "err" } else { "txt" }] {
            want.insert(format!("{stem}.{ext}"));
        }
    }
    assert_eq!(names_in(&dispatches(&f.out)), want, "{ctx}");
    // What the round printed about the failures comes from the .err files there.
    assert!(text(&o.stdout).contains("cat: refused"), "{ctx}");
}

#[test]
fn a_finished_round_in_the_flat_layout_is_reported_and_rescored_as_before() {
    let f = Fixture::new();
    let o = f.run(&["--agent", &agent("sealreader.sh", &[]), "--reps", "1"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{ctx}");
    let report = |format: &str| {
        let o = harness()
            .args(["report", "--format", format])
            .arg(&f.out)
            .output()
            .unwrap();
        (o.status.code(), text(&o.stdout), text(&o.stderr))
    };
    let before = report("json");
    assert_eq!(before.0, Some(0), "{before:?}");
    let rows_before = verdicts(&f.out);
    assert_eq!(rows_before.len(), 6);

    flatten_round(&f.out);
    assert!(dispatch_files(&f.out, "txt").is_empty());
    // The same report from the answers at the top level.
    assert_eq!(report("json"), before);
    let o = harness().arg("rescore").arg(&f.out).output().unwrap();
    let said = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{said}");
    assert!(text(&o.stdout).contains("rows moved: 0"), "{said}");
    let rescored = std::fs::read_dir(&f.out)
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("rescore-"))
        .expect("a rescore folder")
        .path();
    assert_eq!(verdicts(&rescored), rows_before, "{said}");
    // Read in its own layout: nothing moved, no folder made.
    assert!(!dispatches(&f.out).exists());
}

#[test]
fn an_older_round_in_the_flat_layout_resumes_in_its_own_layout() {
    let f = Fixture::new();
    let spec = cat_fails_while(&f);
    // What the round gives when nothing fails, in the new layout.
    let fresh = f.dir.path().join("results").join("fresh");
    let o = f
        .cmd_at(&fresh, &["--agent", &spec, "--reps", "1"])
        .arg("--seal")
        .arg(&f.seal)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let want = verdicts(&fresh);
    assert_eq!(want.len(), 6);

    // An older round: the cat dispatches failed, its files are at the top level.
    std::fs::write(f.state.join("fail"), "").unwrap();
    let o = f.run(&["--agent", &spec, "--reps", "1", "--retries", "0"]);
    assert_eq!(o.status.code(), Some(13), "{}", text(&o.stderr));
    flatten_round(&f.out);
    let top_before = names_in(&f.out);
    let kept: BTreeMap<String, String> = top_before
        .iter()
        .filter(|n| n.ends_with(".txt"))
        .map(|n| (n.clone(), std::fs::read_to_string(f.out.join(n)).unwrap()))
        .collect();
    assert_eq!(kept.len(), 4, "{top_before:?}");

    std::fs::remove_file(f.state.join("fail")).unwrap();
    let o = f.run(&["--agent", &spec, "--reps", "1", "--resume"]);
    let ctx = format!("stdout:\n{}\nstderr:\n{}", text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{ctx}");
    assert!(f.round_done().contains("complete: yes"), "{ctx}");
    // The remaining dispatches wrote beside the old ones; none was moved or run again.
    assert!(!dispatches(&f.out).exists(), "{ctx}");
    let answers: BTreeSet<String> = names_in(&f.out)
        .into_iter()
        .filter(|n| n.ends_with(".txt"))
        .collect();
    let stems = planned_stems(&f.out);
    assert_eq!(
        answers,
        stems.iter().map(|s| format!("{s}.txt")).collect(),
        "{ctx}"
    );
    for (name, text) in &kept {
        assert_eq!(&std::fs::read_to_string(f.out.join(name)).unwrap(), text);
    }
    assert!(
        !names_in(&f.out).iter().any(|n| n.ends_with(".err")),
        "{ctx}"
    );
    assert_eq!(verdicts(&f.out), want, "{ctx}");
    let verdict = |out: &Path| {
        let done = std::fs::read_to_string(out.join("ROUND_DONE")).unwrap();
        done.lines()
            .find(|l| l.starts_with("verdict:"))
            .map(str::to_string)
    };
    assert!(verdict(&fresh).is_some());
    assert_eq!(verdict(&f.out), verdict(&fresh), "{ctx}");
    // And the resumed round reads back the same.
    harness().arg("report").arg(&f.out).assert().code(0);
}
