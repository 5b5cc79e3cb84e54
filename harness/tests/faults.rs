//! Fault injection (issue 12): a round killed with SIGKILL at several points and finished with
//! `harness run --out DIR --resume` alone; two runs on one out-dir; an edited answer; an edited
//! summary; temp folders of dead rounds. Each test checks the end state from the files: every
//! question scored exactly once, the same labels, no temp root left, no file claiming a verdict
//! that was not earned. The kill points are real SIGKILLs: the harness kills itself where
//! `HARNESS_FAULT_KILL_AT` says, or the test kills it while agents run.

mod common;
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A small round: two questions × both arms × 2 reps = 8 dispatches, a seal-reading agent
/// that takes a moment per answer, `--sandbox none`, and a temp folder of its own (TMPDIR), so
/// the test sees every temp root the harness makes.
struct Round {
    dir: tempfile::TempDir,
    out: PathBuf,
    tmp: PathBuf,
    args: Vec<String>,
}

impl Round {
    fn new() -> Round {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        make_repo(
            &repo,
            &[
                ("README.md", b"A small service.\n"),
                (".gitignore", b"tracks/\n"),
            ],
        );
        let pos = tok("fco");
        let neg = tok("fre");
        let qset = dir.path().join("q.tsv");
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
        let seal = dir.path().join("handoff.md");
        std::fs::write(&seal, format!("The release codename is {pos}.\n")).unwrap();
        // While `hold` exists every agent waits (at most a minute): a test that needs the
        // round still running at some point holds it there instead of racing its speed.
        let slow = dir.path().join("slow.sh");
        std::fs::write(
            &slow,
            format!(
                "#!/bin/sh\nn=0\nwhile [ -e {hold} ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done\nsleep 0.4\nexec sh {} \"$@\"\n",
                agents_dir().join("sealreader.sh").display(),
                hold = dir.path().join("hold").display(),
            ),
        )
        .unwrap();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let out = dir.path().join("r1");
        let args: Vec<String> = [
            "run",
            "--quiet",
            "--reps",
            "2",
            "--jobs",
            "2",
            "--sandbox",
            "none",
            "--agent",
            &format!("command:sh {} {{prompt}}", slow.display()),
            "--qset",
            qset.to_str().unwrap(),
            "--seal",
            seal.to_str().unwrap(),
            "--repo",
            repo.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        Round {
            dir,
            out,
            tmp,
            args,
        }
    }

    fn command(&self, args: &[String]) -> Command {
        let mut c = TestEnv::kept().command(assert_cmd::cargo::cargo_bin("harness"));
        c.env("TMPDIR", &self.tmp)
            .env_remove("HARNESS_FAULT_KILL_AT")
            .current_dir(self.dir.path())
            .args(args);
        c
    }

    /// The whole round, killed by itself at `point` (or run to its end with `None`).
    fn run(&self, kill_at: Option<&str>) -> Output {
        let mut c = self.command(&self.args);
        if let Some(p) = kill_at {
            c.env("HARNESS_FAULT_KILL_AT", p);
        }
        c.output().unwrap()
    }

    /// `harness run --out DIR --resume`, nothing else.
    fn resume(&self) -> Output {
        self.command(&[
            "run".into(),
            "--quiet".into(),
            "--out".into(),
            self.out.display().to_string(),
            "--resume".into(),
        ])
        .output()
        .unwrap()
    }

    fn harness(&self, args: &[&str]) -> Output {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        self.command(&args).output().unwrap()
    }

    /// label → (qid, arm) from the journal.
    fn labels(&self) -> BTreeMap<String, (String, String)> {
        let v: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(self.out.join("journal").join("plan.json")).unwrap(),
        )
        .unwrap();
        v["dispatches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let s = |k: &str| d[k].as_str().unwrap().to_string();
                (s("label"), (s("qid"), s("arm")))
            })
            .collect()
    }

    /// Answer stem → bytes.
    fn answers(&self) -> BTreeMap<String, Vec<u8>> {
        // None before the first dispatch wrote its folder.
        std::fs::read_dir(dispatches(&self.out))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                let stem = n.strip_suffix(".txt")?.to_string();
                Some((stem, std::fs::read(e.path()).unwrap()))
            })
            .collect()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    )
}

fn killed(o: &Output) -> bool {
    use std::os::unix::process::ExitStatusExt;
    o.status.signal() == Some(libc::SIGKILL)
}

/// Every file under `dir` whose name starts with the partial-write prefix.
fn partials(dir: &Path) -> Vec<PathBuf> {
    walk(dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".partial-"))
        })
        .collect()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                v.extend(walk(&p));
            }
            v.push(p);
        }
    }
    v
}

/// The end state every fault must reach after `--resume`: complete, each planned (question,
/// arm, rep) scored exactly once, the labels of the first run, no temp root, no partial file.
fn assert_finished_once(r: &Round, labels: &BTreeMap<String, (String, String)>, o: &Output) {
    let ctx = show(o);
    assert_eq!(o.status.code(), Some(0), "{ctx}");
    let done = std::fs::read_to_string(r.out.join("ROUND_DONE")).unwrap();
    assert!(done.contains("complete: yes"), "{done}\n{ctx}");
    assert_eq!(&r.labels(), labels, "the resume drew other labels");
    let csv = std::fs::read_to_string(r.out.join("verdicts.csv")).unwrap();
    let mut rows: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').skip(1).take(4).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(rows.len(), 8, "{csv}");
    rows.sort();
    rows.dedup();
    assert_eq!(rows.len(), 8, "a row scored twice: {csv}");
    assert_eq!(r.answers().len(), 8);
    let left: Vec<_> = std::fs::read_dir(&r.tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "temp folders left: {left:?}");
    assert!(
        partials(&r.out).is_empty(),
        "partial writes left: {:?}",
        partials(&r.out)
    );
}

/// No file in the out-dir claims a verdict: no completion marker, no summary, no report.
fn assert_claims_nothing(out: &Path) {
    for f in ["ROUND_DONE", "summary.json", "report.md", "report.html"] {
        assert!(
            !out.join(f).exists(),
            "{f} exists in a round that did not finish"
        );
    }
}

#[test]
fn killed_before_the_first_dispatch_resumes_from_the_out_dir_alone() {
    let r = Round::new();
    let o = r.run(Some("planned"));
    assert!(killed(&o), "{}", show(&o));
    // The journal is on disk before any agent starts.
    let labels = r.labels();
    assert_eq!(labels.len(), 4);
    assert!(r.answers().is_empty());
    assert_claims_nothing(&r.out);
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
}

#[test]
fn killed_while_agents_run_keeps_every_answer_and_runs_only_the_rest() {
    let r = Round::new();
    let mut child = r
        .command(&r.args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while (if r.out.exists() { r.answers().len() } else { 0 }) < 2 {
        assert!(Instant::now() < deadline, "no answers within 60 s");
        assert!(child.try_wait().unwrap().is_none(), "harness ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    std::thread::sleep(Duration::from_millis(600)); // agents already started finish
    let kept = r.answers();
    assert!(kept.len() < 8, "the round finished before the kill");
    let labels = r.labels();
    assert_claims_nothing(&r.out);
    let mtimes: BTreeMap<String, std::time::SystemTime> = kept
        .keys()
        .map(|s| {
            let m = std::fs::metadata(dispatch_file(&r.out, s, "txt")).unwrap();
            (s.clone(), m.modified().unwrap())
        })
        .collect();
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
    for (stem, bytes) in &kept {
        let p = dispatch_file(&r.out, stem, "txt");
        assert_eq!(
            &std::fs::read(&p).unwrap(),
            bytes,
            "{stem} was answered again"
        );
        assert_eq!(
            std::fs::metadata(&p).unwrap().modified().unwrap(),
            mtimes[stem],
            "{stem} was rewritten"
        );
    }
}

#[test]
fn killed_after_the_last_dispatch_resumes_without_dispatching_again() {
    let r = Round::new();
    let o = r.run(Some("dispatched"));
    assert!(killed(&o), "{}", show(&o));
    let kept = r.answers();
    assert_eq!(kept.len(), 8);
    assert_claims_nothing(&r.out);
    let labels = r.labels();
    let prompts_before: Vec<_> = walk(&r.out)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "prompt"))
        .map(|p| std::fs::metadata(p).unwrap().modified().unwrap())
        .collect();
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
    assert_eq!(r.answers(), kept);
    let prompts_after: Vec<_> = walk(&r.out)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "prompt"))
        .map(|p| std::fs::metadata(p).unwrap().modified().unwrap())
        .collect();
    assert_eq!(prompts_before, prompts_after, "a dispatch ran again");
}

#[test]
fn killed_while_writing_the_report_claims_nothing_and_resume_finishes() {
    let r = Round::new();
    let o = r.run(Some("report:summary.json"));
    assert!(killed(&o), "{}", show(&o));
    // The marker is written last: without it nothing is claimed done.
    assert!(!r.out.join("ROUND_DONE").exists());
    let rep = r.harness(&["report", r.out.to_str().unwrap()]);
    assert_eq!(rep.status.code(), Some(13), "{}", show(&rep));
    assert!(
        text(&rep.stderr).contains(&format!("harness run --out {} --resume", r.out.display())),
        "{}",
        show(&rep)
    );
    let labels = r.labels();
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
    let rep = r.harness(&["report", r.out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(rep.status.code(), Some(0), "{}", show(&rep));
    assert_eq!(
        text(&rep.stdout),
        std::fs::read_to_string(r.out.join("summary.json")).unwrap()
    );
}

#[test]
fn a_second_run_on_the_same_out_dir_fails_at_once_naming_the_first() {
    let r = Round::new();
    let hold = r.dir.path().join("hold");
    std::fs::write(&hold, "").unwrap();
    let mut first = r
        .command(&r.args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = r.out.join("journal").join("lock");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !r.out.join("journal").join("plan.json").exists() {
        assert!(Instant::now() < deadline, "the first round never planned");
        std::thread::sleep(Duration::from_millis(20));
    }
    let t0 = Instant::now();
    let second = r.command(&r.args).output().unwrap();
    let first_still_running = first.try_wait().unwrap().is_none();
    let _ = first.kill();
    let _ = first.wait();
    std::fs::remove_file(&hold).unwrap();
    assert!(
        first_still_running,
        "the first round ended before the check"
    );
    assert_eq!(second.status.code(), Some(2), "{}", show(&second));
    assert!(t0.elapsed() < Duration::from_secs(20));
    let err = text(&second.stderr);
    assert!(
        err.contains(&format!("pid {}", first.id())),
        "the holder is not named: {err} (lock: {:?})",
        std::fs::read_to_string(lock)
    );
    // The first round's files are untouched by the second: no answer beyond its plan.
    assert!(r.answers().len() <= 8);
    // A `--resume` while the first ran would have been refused the same way; now it finishes.
    let labels = r.labels();
    std::thread::sleep(Duration::from_millis(600));
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
}

#[test]
fn an_edited_answer_is_refused_by_report_rescore_and_resume() {
    let r = Round::new();
    let o = r.run(None);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let (stem, _) = r.answers().into_iter().next().unwrap();
    let p = dispatch_file(&r.out, &stem, "txt");
    std::fs::write(&p, "Edited: the codename is whatever the editor wanted.\n").unwrap();
    for cmd in ["report", "rescore"] {
        let o = r.harness(&[cmd, r.out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(10), "{cmd}: {}", show(&o));
        assert!(
            text(&o.stderr).contains("TAMPERED") && text(&o.stderr).contains(&stem),
            "{cmd}: {}",
            show(&o)
        );
    }
    let o = r.resume();
    assert_eq!(o.status.code(), Some(10), "{}", show(&o));
    assert_eq!(
        std::fs::read_to_string(&p).unwrap(),
        "Edited: the codename is whatever the editor wanted.\n",
        "the resume replaced the edited answer instead of refusing"
    );
}

#[test]
fn a_tampered_summary_changes_nothing_the_report_says() {
    let r = Round::new();
    let o = r.run(None);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let before = r.harness(&["report", r.out.to_str().unwrap(), "--format", "md"]);
    assert_eq!(before.status.code(), Some(0), "{}", show(&before));
    let p = r.out.join("summary.json");
    let s = std::fs::read_to_string(&p).unwrap();
    assert!(s.contains("\"OK\""), "{s}");
    std::fs::write(
        &p,
        s.replace("\"OK\"", "\"FINDING\"")
            .replace("\"PASS\"", "\"HALLUCINATED\""),
    )
    .unwrap();
    let after = r.harness(&["report", r.out.to_str().unwrap(), "--format", "md"]);
    assert_eq!(after.status.code(), Some(0), "{}", show(&after));
    assert_eq!(text(&after.stdout), text(&before.stdout));
    assert!(text(&after.stderr).contains("summary.json is not what the round's answers give"));
}

#[test]
fn temp_folders_of_dead_rounds_are_removed_and_live_ones_kept() {
    let r = Round::new();
    let dead_pid = {
        let mut c = Command::new("true").spawn().unwrap();
        let id = c.id();
        c.wait().unwrap();
        id
    };
    let dead = r.tmp.join("deadroot23");
    let live = r.tmp.join("liveroot23");
    let foreign = r.tmp.join("someoneelse");
    for (d, pid) in [(&dead, dead_pid), (&live, std::process::id())] {
        std::fs::create_dir_all(d.join("work/tracks")).unwrap();
        std::fs::write(d.join("work/tracks/seal.md"), "a seal copy").unwrap();
        std::fs::write(
            d.join("owner"),
            format!("harness-temp-root/1 pid={pid} start=0\n"),
        )
        .unwrap();
    }
    std::fs::create_dir_all(&foreign).unwrap();
    let o = r.harness(&["clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(!dead.exists(), "{}", show(&o));
    assert!(live.exists(), "a running round's folder was removed");
    assert!(
        foreign.exists(),
        "a folder without an owner marker was removed"
    );
    assert!(text(&o.stdout).contains("1 temp folder(s)"), "{}", show(&o));
}

#[test]
fn resume_defaults_are_the_command_lines() {
    let o = harness().args(["run", "--help"]).output().unwrap();
    let help = text(&o.stdout);
    let d = harness::round::RunOptions::defaults();
    for (flag, value) in [
        ("--reps", d.reps.to_string()),
        ("--jobs", d.jobs.to_string()),
        ("--timeout", d.timeout.as_secs().to_string()),
        ("--retries", d.retries.to_string()),
        ("--plant-dir", d.plant_dir.clone()),
        ("--sandbox", d.sandbox.name().to_string()),
        ("--arms", "both".to_string()),
    ] {
        let at = help
            .find(&format!("{flag} "))
            .unwrap_or_else(|| panic!("{flag}"));
        let tail = &help[at..];
        let end = tail.find("\n  -").unwrap_or(tail.len());
        assert!(
            tail[..end].contains(&format!("[default: {value}]")),
            "{flag}: {}",
            &tail[..end]
        );
    }
}

/// A tmpfs mounted for one test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).unwrap();
        let o = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !o.status.success() {
            return Err(format!("mount: {}", text(&o.stderr).trim()));
        }
        Ok(Tmpfs(at.to_path_buf()))
    }

    fn resize(&self, size: &str) {
        let o = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_mid_round_loses_nothing_answered_and_resume_finishes() {
    // SAFETY: geteuid reads a process attribute.
    if unsafe { libc::geteuid() } != 0 {
        println!("SKIPPED: mounting a small tmpfs for the out-dir needs root");
        return;
    }
    let mut r = Round::new();
    let disk = r.dir.path().join("disk");
    let fs = match Tmpfs::mount(&disk, "256k") {
        Ok(fs) => fs,
        Err(why) => {
            println!("SKIPPED: cannot mount a tmpfs here ({why})");
            return;
        }
    };
    // Answers of 40 KB each: 8 of them cannot fit in 256 KB beside their sidecars.
    let big = r.dir.path().join("big.sh");
    std::fs::write(
        &big,
        format!(
            "#!/bin/sh\nsh {} \"$@\"\nhead -c 40000 /dev/zero | tr '\\0' 'x'\necho\n",
            agents_dir().join("sealreader.sh").display()
        ),
    )
    .unwrap();
    r.out = disk.join("r1");
    let at = r.args.iter().position(|a| a == "--out").unwrap();
    r.args[at + 1] = r.out.display().to_string();
    let at = r.args.iter().position(|a| a == "--agent").unwrap();
    r.args[at + 1] = format!("command:sh {} {{prompt}}", big.display());
    let o = r.run(None);
    assert_ne!(o.status.code(), Some(0), "the round fit: {}", show(&o));
    let done = std::fs::read_to_string(r.out.join("ROUND_DONE")).unwrap_or_default();
    assert!(!done.contains("complete: yes"), "{done}");
    assert!(
        !r.out.join("summary.json").exists(),
        "a verdict claimed on a full disk"
    );
    let labels = r.labels();
    let kept = r.answers();
    fs.resize("64m");
    let o = r.resume();
    assert_finished_once(&r, &labels, &o);
    for (stem, bytes) in &kept {
        assert_eq!(&r.answers()[stem], bytes, "{stem} changed on resume");
    }
}
