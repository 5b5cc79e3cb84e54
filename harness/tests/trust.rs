//! Trust boundaries (issue 24): a repository under test cannot choose the agent or carry
//! files into its home; a distributed round cannot finish on answers it did not see, nor lose
//! the ones it did; a resumed round cannot mix two programs' answers; hostile inputs are
//! refused with their file and line.

mod executor_support;
use executor_support::*;

use std::path::{Path, PathBuf};

/// A user's own folders for one test: HOME and the XDG folders, empty unless a test fills them.
struct UserDirs {
    home: PathBuf,
    config: PathBuf,
    state: PathBuf,
}

impl UserDirs {
    fn new(r: &Round) -> UserDirs {
        let base = r.dir.path().join("user");
        let d = UserDirs {
            home: base.join("home"),
            config: base.join("xdg-config"),
            state: base.join("xdg-state"),
        };
        for p in [&d.home, &d.config, &d.state] {
            std::fs::create_dir_all(p).unwrap();
        }
        d
    }

    /// `harness <cmd>` of the round, under these folders.
    fn cmd(&self, r: &Round, cmd: &str, out: &Path, extra: &[&str]) -> assert_cmd::Command {
        let mut c = r.cmd(cmd, out, extra);
        self.apply(&mut c);
        c
    }

    fn apply(&self, c: &mut assert_cmd::Command) {
        c.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", &self.config)
            .env("XDG_STATE_HOME", &self.state)
            .env("PATH", hermetic_path());
    }

    /// Writes the user's harness.toml (in the config folder).
    fn user_config(&self, text: &str) {
        let p = self.config.join("harness").join("harness.toml");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// `<out>/journal/plan.json` as JSON.
fn plan_json(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("journal/plan.json")).unwrap()).unwrap()
}

/// Commits `files` into the round's repository.
fn commit_into_repo(r: &Round, files: &[(&str, &str)]) {
    for (p, text) in files {
        let path = r.repo.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let repo = git2::Repository::open(&r.repo).unwrap();
    commit_all(&repo, "more files");
}

// ── 1. configuration comes only from the user ──────────────────────────────────────────────

#[test]
fn a_harness_toml_in_the_repository_never_chooses_the_agent() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let marker = r.dir.path().join("the-repository-program-ran");
    let evil = r.dir.path().join("evil.sh");
    std::fs::write(
        &evil,
        format!("#!/bin/sh\ntouch {}\necho hi\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&evil, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    commit_into_repo(
        &r,
        &[(
            "harness.toml",
            &format!(
                "[agents.claude]\ncommand = \"{} {{prompt}}\"\nhome_files = [\".codex/config.toml\"]\n",
                evil.display()
            ),
        )],
    );
    let out = r.out("repo-config");
    let o = u
        .cmd(
            &r,
            "plan",
            &out,
            &["--agent", "claude", "--sandbox", "none"],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let plan = plan_json(&out);
    assert!(
        plan["agent"]["override_template"].is_null(),
        "the repository's command was taken: {}",
        plan["agent"]
    );
    let template = plan["agent"]["template"].to_string();
    assert!(
        !template.contains("evil.sh"),
        "the repository's program became the agent: {template}"
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        stderr.matches("harness.toml is not read").count(),
        1,
        "said once: {}",
        shown(&o)
    );
    assert!(!marker.exists());
}

#[test]
fn the_user_config_folder_and_an_explicit_config_are_read() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    u.user_config("[agents.claude]\ncommand = \"claude -p {prompt} --from-user-folder\"\n");
    let out = r.out("user-config");
    let o = u
        .cmd(&r, "plan", &out, &["--agent", "claude"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert!(
        plan_json(&out)["agent"]["template"]
            .to_string()
            .contains("--from-user-folder"),
        "{}",
        plan_json(&out)["agent"]
    );
    let explicit = r.dir.path().join("mine.toml");
    std::fs::write(
        &explicit,
        "[agents.claude]\ncommand = \"claude -p {prompt} --from-explicit-file\"\n",
    )
    .unwrap();
    let out = r.out("explicit-config");
    let o = u
        .cmd(
            &r,
            "plan",
            &out,
            &["--agent", "claude", "--config", explicit.to_str().unwrap()],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let plan = plan_json(&out);
    assert!(
        plan["agent"]["template"]
            .to_string()
            .contains("--from-explicit-file"),
        "{}",
        plan["agent"]
    );
    assert!(plan["options"]["config"].is_string(), "recorded");
}

#[test]
fn home_files_refuse_credentials_and_name_every_carried_file() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let agent = agent("sealreader.sh");
    let cfg = r.dir.path().join("cfg.toml");
    std::fs::write(
        &cfg,
        "[agents.command]\nhome_files = [\".config/gh/hosts.yml\"]\n",
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let o = u
        .cmd(
            &r,
            "plan",
            &r.out("cred"),
            &["--agent", &agent, "--config", c],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(".config/gh` is a credential store"),
        "{}",
        shown(&o)
    );
    std::fs::write(&cfg, "[agents.command]\nhome_files = [\".myrc\"]\n").unwrap();
    let o = u
        .cmd(
            &r,
            "plan",
            &r.out("off-list"),
            &["--agent", &agent, "--config", c],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("allowlist"),
        "{}",
        shown(&o)
    );
    std::fs::create_dir_all(u.home.join(".codex")).unwrap();
    std::fs::write(u.home.join(".codex/config.toml"), "model = \"m\"\n").unwrap();
    std::fs::write(
        &cfg,
        "[agents.command]\nhome_files = [\".codex/config.toml\"]\n",
    )
    .unwrap();
    let o = u
        .cmd(
            &r,
            "plan",
            &r.out("carried"),
            &["--agent", &agent, "--config", c],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("carries ~/.codex/config.toml"),
        "every carried file is named at start: {}",
        shown(&o)
    );
}

// ── 4. a resume cannot mix two agents ──────────────────────────────────────────────────────

/// `harness run --out DIR --resume …` under the user's folders.
fn resume(u: &UserDirs, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut c = harness();
    c.args(["run", "--quiet", "--resume", "--out"])
        .arg(out)
        .args(extra);
    u.apply(&mut c);
    c.output().unwrap()
}

#[test]
fn resume_refuses_a_changed_program_home_file_or_config_unless_accepted() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let script = r.dir.path().join("agent.sh");
    std::fs::copy(agents_dir().join("sealreader.sh"), &script).unwrap();
    let agent = format!("command:{} {{prompt}}", script.display());
    std::fs::create_dir_all(u.home.join(".codex")).unwrap();
    std::fs::write(u.home.join(".codex/config.toml"), "model = \"a\"\n").unwrap();
    let cfg = r.dir.path().join("cfg.toml");
    let cfg_text = "[agents.command]\nhome_files = [\".codex/config.toml\"]\n";
    std::fs::write(&cfg, cfg_text).unwrap();
    let out = r.out("resumed");
    // Killed right after the plan: a round to resume, no answer yet.
    let o = u
        .cmd(
            &r,
            "run",
            &out,
            &[
                "--agent",
                &agent,
                "--reps",
                "1",
                "--config",
                cfg.to_str().unwrap(),
            ],
        )
        .env("HARNESS_FAULT_KILL_AT", "planned")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), None, "killed: {}", shown(&o));

    // Same template, another program; another carried file; other harness.toml values.
    let mut body = std::fs::read_to_string(&script).unwrap();
    body.push_str("# another program now\n");
    std::fs::write(&script, body).unwrap();
    std::fs::write(u.home.join(".codex/config.toml"), "model = \"b\"\n").unwrap();
    std::fs::write(&cfg, format!("{cfg_text}[slurm]\npartition = \"x\"\n")).unwrap();

    let o = resume(&u, &out, &[]);
    assert_eq!(o.status.code(), Some(10), "{}", shown(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("program {}", script.display())),
        "the program is named: {}",
        shown(&o)
    );
    assert!(err.contains("home_files ~/.codex/config.toml"), "{err}");
    assert!(err.contains("config harness.toml"), "{err}");
    assert!(err.contains("--accept-change program"), "{err}");
    assert_eq!(answer_count(&out), 0, "nothing ran");

    let o = resume(
        &u,
        &out,
        &[
            "--accept-change",
            "program",
            "--accept-change",
            "home_files",
        ],
    );
    assert_eq!(o.status.code(), Some(10), "{}", shown(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("config harness.toml"), "{err}");
    assert!(!err.contains("  program "), "accepted: {err}");

    let o = resume(
        &u,
        &out,
        &[
            "--accept-change",
            "program",
            "--accept-change",
            "home_files",
            "--accept-change",
            "config",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let round: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("round.json")).unwrap()).unwrap();
    let accepted = round["accepted_changes"].to_string();
    for field in ["program", "home_files", "config"] {
        assert!(
            accepted.contains(&format!("--accept-change {field} ")),
            "{field} recorded: {accepted}"
        );
    }
}

// ── 3. a distributed round finishes only on the answers it planned, and loses none ─────────

#[test]
fn collect_refuses_an_answer_file_the_plan_does_not_know_by_name() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let out = r.out("foreign");
    let agent = agent("sealreader.sh");
    let o = u
        .cmd(&r, "plan", &out, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    // Every unit but 0 runs; an answer of another round (same naming scheme) is copied in.
    for i in 1..6 {
        let mut c = harness();
        c.args(["unit", "--out"])
            .arg(&out)
            .args(["--index", &i.to_string()]);
        u.apply(&mut c);
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "unit {i}: {}", shown(&o));
    }
    let foreign = "abcdefghij_r1";
    let donor = std::fs::read_dir(dispatches(&out))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "txt"))
        .unwrap();
    std::fs::copy(&donor, dispatch_file(&out, foreign, "txt")).unwrap();
    std::fs::copy(
        donor.with_extension("json"),
        dispatch_file(&out, foreign, "json"),
    )
    .unwrap();
    let mut c = harness();
    c.args(["collect", "--out"]).arg(&out);
    u.apply(&mut c);
    let o = c.output().unwrap();
    assert_ne!(o.status.code(), Some(0), "{}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!("{foreign}.txt")),
        "the foreign answer is named: {}",
        shown(&o)
    );
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).unwrap_or_default();
    assert!(!done.contains("complete: yes"), "{done}");
}

#[test]
fn report_deletes_nothing_in_a_round_it_only_reads() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let out = r.out("inflight");
    let agent = agent("sealreader.sh");
    let o = u
        .cmd(&r, "plan", &out, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    // A unit's answer being written (its temp file before the rename).
    let inflight = out.join(".partial-inflightunit");
    std::fs::write(&inflight, "half an answer").unwrap();
    let mut c = harness();
    c.args(["report"]).arg(&out);
    u.apply(&mut c);
    let o = c.output().unwrap();
    assert_ne!(o.status.code(), Some(0), "no ROUND_DONE yet: {}", shown(&o));
    assert!(inflight.exists(), "report removed a unit's in-flight write");
}

/// `harness <args…> --out OUT` under the user's folders, its output.
fn on_round(u: &UserDirs, args: &[&str], out: &Path) -> std::process::Output {
    let mut c = harness();
    c.args(args).arg("--out").arg(out);
    u.apply(&mut c);
    c.output().unwrap()
}

/// `<out>/journal/units.lock`, opened for this test process to hold as collect or a unit does.
fn round_lock(out: &Path) -> std::fs::File {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(out.join("journal/units.lock"))
        .unwrap()
}

#[test]
fn a_unit_that_starts_while_collect_scores_refuses_and_collect_waits_for_a_starting_unit() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let out = r.out("latecomer");
    let agent = agent("sealreader.sh");
    let o = u
        .cmd(&r, "plan", &out, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    // Another process (this test) scores the round: the round lock is held exclusively.
    {
        let mut held = round_lock(&out);
        held.lock().unwrap();
        std::io::Write::write_all(&mut held, b"collect (pid 4242)\n").unwrap();
        let o = on_round(&u, &["unit", "--index", "0"], &out);
        assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("unit 0 not run") && err.contains("collect (pid 4242)"),
            "the unit names who holds the round: {err}"
        );
        assert_eq!(answer_count(&out), 0, "the unit answered under collect");
    }
    // A unit that has just started (the round lock shared, its own lock not yet taken).
    {
        let held = round_lock(&out);
        held.lock_shared().unwrap();
        let o = on_round(&u, &["collect"], &out);
        assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("still running"),
            "{}",
            shown(&o)
        );
        assert!(
            !out.join("ROUND_DONE").exists(),
            "collect scored under a unit"
        );
    }
    // Once nobody holds it, units and collect proceed.
    let o = on_round(&u, &["unit", "--index", "0"], &out);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(answer_count(&out), 1);
}

/// Files named `started.*` in `gate`: agents of tests/agents/gatedreader.sh mid-run.
fn started(gate: &Path) -> usize {
    std::fs::read_dir(gate)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("started."))
        .count()
}

#[test]
fn resume_and_collect_refuse_while_a_unit_runs_and_sweep_none_of_its_writes() {
    let r = Round::new();
    let u = UserDirs::new(&r);
    let out = r.out("busy");
    let gate = r.dir.path().join("gate");
    std::fs::create_dir_all(&gate).unwrap();
    let agent = format!(
        "command:{} {} {{prompt}}",
        agents_dir().join("gatedreader.sh").display(),
        gate.display()
    );
    let o = u
        .cmd(
            &r,
            "plan",
            &out,
            &[
                "--agent",
                &agent,
                "--reps",
                "1",
                "--sandbox",
                "none",
                "--no-preflight",
            ],
        )
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    // `harness unit --index 0` runs, its agent held at the gate.
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_harness"));
    c.args(["unit", "--index", "0", "--out"]).arg(&out);
    c.env("HOME", &u.home)
        .env("XDG_CONFIG_HOME", &u.config)
        .env("XDG_STATE_HOME", &u.state)
        .env("PATH", hermetic_path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut unit = c.spawn().unwrap();
    let t = std::time::Instant::now();
    while started(&gate) < 1 {
        assert!(t.elapsed().as_secs() < 60, "the unit's agent never started");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // Its answer being written, as far as anyone else can see.
    let inflight = out.join(".partial-unit0answer");
    std::fs::write(&inflight, "half an answer").unwrap();
    let o = resume(&u, &out, &["--no-preflight"]);
    let resumed = started(&gate);
    let collected = on_round(&u, &["collect"], &out);
    std::fs::write(gate.join("open"), b"").unwrap();
    let st = unit.wait().unwrap();
    assert_eq!(o.status.code(), Some(2), "resume: {}", shown(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("unit 0 is still running"),
        "resume names the running unit: {}",
        shown(&o)
    );
    assert_eq!(resumed, 1, "resume ran agents while unit 0 ran");
    assert_eq!(
        collected.status.code(),
        Some(2),
        "collect: {}",
        shown(&collected)
    );
    assert!(
        String::from_utf8_lossy(&collected.stderr).contains("unit 0 is still running"),
        "{}",
        shown(&collected)
    );
    assert!(
        inflight.exists(),
        "a running unit's in-flight write was swept"
    );
    assert!(st.success(), "the unit itself: {st:?}");
    assert_eq!(started(&gate), 1, "unit 0's agent ran more than once");
}

// ── 6. an out-dir on a mount ───────────────────────────────────────────────────────────────

/// `mount ARGS…`, or why not.
fn mount(args: &[&std::ffi::OsStr]) -> Result<(), String> {
    let o = std::process::Command::new("mount")
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

/// Tmpfs mounts made by a test, unmounted (innermost first) when it ends.
struct Mounts(Vec<PathBuf>);

impl Drop for Mounts {
    fn drop(&mut self) {
        for p in self.0.iter().rev() {
            let _ = std::process::Command::new("umount").arg(p).status();
        }
    }
}

#[test]
fn a_round_whose_out_dir_is_a_volume_under_a_read_only_folder_finishes_and_a_read_only_out_dir_is_refused(
) {
    let r = Round::new();
    let u = UserDirs::new(&r);
    // `shared` (read-only) holds `vol`, a writable volume mounted at the round's folder.
    let shared = r.dir.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    let mut mounts = Mounts(Vec::new());
    let tmpfs = |p: &Path, opts: &str| {
        mount(&[
            "-t".as_ref(),
            "tmpfs".as_ref(),
            "-o".as_ref(),
            opts.as_ref(),
            "tmpfs".as_ref(),
            p.as_os_str(),
        ])
    };
    if let Err(why) = tmpfs(&shared, "size=1m") {
        println!("SKIPPED: cannot mount a tmpfs here (needs root): {why}");
        return;
    }
    mounts.0.push(shared.clone());
    let vol = shared.join("vol");
    let ro = shared.join("ro");
    std::fs::create_dir_all(&vol).unwrap();
    std::fs::create_dir_all(&ro).unwrap();
    tmpfs(&vol, "size=4m").unwrap();
    mounts.0.push(vol.clone());
    tmpfs(&ro, "size=1m,ro").unwrap();
    mounts.0.push(ro.clone());
    mount(&["-o".as_ref(), "remount,ro".as_ref(), shared.as_os_str()]).unwrap();
    assert!(
        std::fs::write(shared.join("probe"), b"").is_err(),
        "the parent is not read-only"
    );
    let agent = agent("sealreader.sh");
    let o = u
        .cmd(&r, "plan", &vol, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    for i in 0..6 {
        let o = on_round(&u, &["unit", "--index", &i.to_string()], &vol);
        assert_eq!(o.status.code(), Some(0), "unit {i}: {}", shown(&o));
    }
    let o = on_round(&u, &["collect"], &vol);
    assert_eq!(o.status.code(), Some(0), "collect: {}", shown(&o));
    let done = std::fs::read_to_string(vol.join("ROUND_DONE")).unwrap();
    assert!(done.contains("complete: yes"), "{done}");
    // A read-only out-dir is refused at plan, by name, before any gate or unit.
    let o = u
        .cmd(&r, "plan", &ro, &["--agent", &agent, "--reps", "1"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", shown(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("--out {} is not writable", ro.display())),
        "{err}"
    );
}
