//! The sandbox against an adversary (issue 7): a round run with `tests/agents/adversary.sh`
//! tries every channel by which a dispatched agent could learn what it must not know.
//! Under `--sandbox full` every channel is closed; under `--sandbox none` the probe finds
//! the channels open (which proves each probe can say "open") and the report says "none".
//! Also: a preset agent with a node runtime outside the system folders still starts under
//! the sandbox, the built-in baselines read nothing outside their checkout in any mode, and
//! a timed-out agent that ignores SIGTERM (and left its process group) leaves nothing running.
//!
//! Every test here needs user namespaces and Landlock (`harness doctor`); the project's CI
//! machine has them, so the tests fail rather than skip when a layer is missing.

mod common;
use common::*;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The channels the adversary reports, each of which must appear in every answer.
const CHANNELS: [&str; 33] = [
    "proc_cmdline",
    "ps_ef",
    "parent_cmdline",
    "ancestor_environ",
    "inherited_env",
    "sibling_checkouts",
    "dispatch_folder",
    "sibling_seal",
    "mount_table",
    "temp_parent",
    "out_list",
    "out_read",
    "out_write",
    "labelmap",
    "labelmap_folder",
    "qset_read",
    "seal_read",
    "repo_tree",
    "repo_plant",
    "repo_write",
    "repo_git",
    "user_home_memory",
    "user_home_write",
    "fresh_home_memory",
    "state_list",
    "past_rounds",
    "git_beyond_base",
    "dev_tty",
    "tiocsti",
    "unix_dbus",
    "unix_ssh_agent",
    "unix_tmp",
    "unix_abstract",
];

/// The user-session channels (issue 25): each a way to run a command outside the sandbox.
const SESSION_SOCKETS: [&str; 4] = ["unix_dbus", "unix_ssh_agent", "unix_tmp", "unix_abstract"];

/// Stand-ins for the user's session services: a D-Bus session bus under `run/user/UID/bus`,
/// an ssh-agent under `tmp/ssh-…/agent.N`, a service's socket under `tmp/`, and an abstract
/// socket. Each counts the connections it accepted: what a real service would have obeyed.
struct SessionServices {
    dbus: PathBuf,
    ssh_agent: PathBuf,
    tmp: PathBuf,
    abstract_name: String,
    accepted: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl SessionServices {
    fn start(dir: &Path) -> SessionServices {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::net::{SocketAddr, UnixListener};
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Arc;
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let uid = std::fs::metadata(dir).map(|m| std::os::unix::fs::MetadataExt::uid(&m));
        let dbus = dir.join(format!("run/user/{}/bus", uid.unwrap_or(1000)));
        let ssh_agent = dir.join("tmp/ssh-XkQ2/agent.4242");
        let tmp = dir.join("tmp/service.sock");
        let abstract_name = format!(
            "harness-adversary-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let mut listeners = Vec::new();
        for p in [&dbus, &ssh_agent, &tmp] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            listeners.push(UnixListener::bind(p).unwrap());
        }
        let addr = SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap();
        listeners.push(UnixListener::bind_addr(&addr).unwrap());
        let accepted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        for l in listeners {
            l.set_nonblocking(true).unwrap();
            let (accepted, stop) = (accepted.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    match l.accept() {
                        Ok(_) => {
                            accepted.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            });
        }
        SessionServices {
            dbus,
            ssh_agent,
            tmp,
            abstract_name,
            accepted,
            stop,
        }
    }

    /// Connections accepted so far (they are accepted asynchronously: a moment's grace).
    fn accepted(&self) -> usize {
        std::thread::sleep(Duration::from_millis(100));
        self.accepted.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for SessionServices {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Whether this kernel honours `TIOCSTI` for an unprivileged caller at all
/// (`dev.tty.legacy_tiocsti`; absent on kernels before 6.2, which always honour it).
fn kernel_honours_tiocsti() -> bool {
    std::fs::read_to_string("/proc/sys/dev/tty/legacy_tiocsti").map_or(true, |v| v.trim() == "1")
}

/// A user's world: a repository with history before and after the base, the seal also in
/// the repo's ignored plant folder, the qset and seal at their own paths, a "real" home
/// with agent memory and a credential.
struct World {
    dir: tempfile::TempDir,
    repo: PathBuf,
    qset: PathBuf,
    seal: PathBuf,
    home: PathBuf,
    base: String,
    history: String,
    later: String,
    services: SessionServices,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let history = make_repo(
        &repo,
        &[
            ("README.md", b"A small project.\n"),
            ("old-notes.md", b"Notes that were later removed.\n"),
        ],
    );
    let git = git2::Repository::open(&repo).unwrap();
    std::fs::remove_file(repo.join("old-notes.md")).unwrap();
    std::fs::write(repo.join(".gitignore"), "tracks/\n").unwrap();
    std::fs::write(repo.join("guide.md"), "How the project is laid out.\n").unwrap();
    let base = commit_all(&git, "base");
    std::fs::write(repo.join("later.md"), "Written after the base.\n").unwrap();
    let later = commit_all(&git, "later");

    let (ta, tb) = (tok("adva"), tok("advb"));
    let seal_text = format!("# Hand-off\nThe launch codename is {ta}.\nThe backup host is {tb}.\n");
    // The user's own copy of the seal in the repo's ignored plant folder (DESIGN §4).
    let plant = repo.join("tracks/_meta/compaction");
    std::fs::create_dir_all(&plant).unwrap();
    std::fs::write(plant.join("handoff.md"), &seal_text).unwrap();

    let inputs = dir.path().join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let seal = inputs.join("handoff.md");
    std::fs::write(&seal, &seal_text).unwrap();
    let qset = inputs.join("questions.tsv");
    write_qset(
        &qset,
        &[
            ["Q1", "positive", "What is the launch codename?", &ta],
            ["Q2", "positive", "Which backup host is used?", &tb],
        ],
    );

    let home = dir.path().join("userhome");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(
        home.join(".claude/CLAUDE.md"),
        "Global memory: remember the launch plan.\n",
    )
    .unwrap();
    std::fs::write(
        home.join(".claude/.credentials.json"),
        "{\"token\":\"fake\"}\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let services = SessionServices::start(dir.path());
    World {
        services,
        dir,
        repo,
        qset,
        seal,
        home,
        base,
        history,
        later,
    }
}

impl World {
    fn out(&self, name: &str) -> PathBuf {
        self.dir.path().join("results").join(name)
    }

    /// `harness run` over this world with the given agent and extra flags, the real home
    /// replaced by the world's, and two marker variables in the harness's environment.
    fn run(&self, out: &Path, agent: &str, extra: &[&str]) -> std::process::Output {
        self.run_env(out, agent, extra, &[])
    }

    /// [`World::run`] with more variables in the harness's environment.
    fn run_env(
        &self,
        out: &Path,
        agent: &str,
        extra: &[&str],
        env: &[(&str, String)],
    ) -> std::process::Output {
        let mut c = harness();
        for (k, v) in env {
            c.env(k, v);
        }
        c.arg("run")
            .arg("--qset")
            .arg(&self.qset)
            .arg("--seal")
            .arg(&self.seal)
            .arg("--repo")
            .arg(&self.repo)
            .args(["--base-sha", &self.base])
            .args(["--agent", agent])
            .arg("--out")
            .arg(out)
            .args(["--reps", "1", "--quiet"])
            .args(extra)
            .current_dir(self.dir.path())
            .env("HOME", &self.home)
            .env("HARNESS_ADVERSARY_MARK", "set-by-test")
            .env("ADVERSARY_PLAIN_MARK", "set-by-test")
            .timeout(Duration::from_secs(240));
        c.output().unwrap()
    }

    /// The adversary's agent spec: every secret path it is to try, given outright.
    fn adversary(&self, out: &Path) -> String {
        format!(
            "command:sh {} {{prompt}} out={} repo={} qset={} seal={} home={} sha={} sha={} envmark=ADVERSARY_PLAIN_MARK envmark=HARNESS_ADVERSARY_MARK dbus={} sshagent={} tmpsock={} abstract={}",
            agents_dir().join("adversary.sh").display(),
            out.display(),
            self.repo.display(),
            self.qset.display(),
            self.seal.display(),
            self.home.display(),
            self.history,
            self.later,
            self.services.dbus.display(),
            self.services.ssh_agent.display(),
            self.services.tmp.display(),
            self.services.abstract_name,
        )
    }
}

fn show(o: &std::process::Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every dispatch's answer (`*_r1.txt`), by file name.
fn answers(out: &Path) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for e in std::fs::read_dir(dispatches(out)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with("_r1.txt") {
            m.insert(name, std::fs::read_to_string(e.path()).unwrap());
        }
    }
    m
}

/// One answer of the adversary: channel → (open?, evidence).
type Channels = BTreeMap<String, (bool, String)>;

/// The adversary's lines: channel → (open?, evidence). Fails on a line of another shape.
fn channels(answer: &str) -> Channels {
    let mut m = BTreeMap::new();
    for line in answer.lines().filter(|l| !l.trim().is_empty()) {
        let (name, rest) = line.split_once(": ").expect("`channel: state (evidence)`");
        let open = if rest.starts_with("open (") {
            true
        } else if rest.starts_with("closed (") {
            false
        } else {
            panic!("not an adversary line: {line}");
        };
        m.insert(name.to_string(), (open, rest.to_string()));
    }
    m
}

/// Runs the adversary round in `mode` and returns the parsed answers (four dispatches).
fn adversary_round(w: &World, mode: &str, extra: &[&str]) -> (PathBuf, String, Vec<Channels>) {
    let out = w.out(mode);
    let mut flags = vec!["--sandbox", mode, "--jobs", "2"];
    flags.extend_from_slice(extra);
    // The real home on PATH (some users put `~` there): it must not become a runtime folder.
    let path = format!("{}:{}", w.home.display(), hermetic_path());
    let o = w.run_env(&out, &w.adversary(&out), &flags, &[("PATH", path)]);
    let done = std::fs::read_to_string(out.join("ROUND_DONE"))
        .unwrap_or_else(|e| panic!("no ROUND_DONE ({e})\n{}", show(&o)));
    assert!(
        done.contains("complete: yes"),
        "every dispatch must answer:\n{done}\n{}",
        show(&o)
    );
    let ans = answers(&out);
    assert_eq!(ans.len(), 4, "2 questions x 2 arms: {ans:?}");
    let parsed: Vec<_> = ans.values().map(|a| channels(a)).collect();
    for p in &parsed {
        for c in CHANNELS {
            assert!(
                p.contains_key(c),
                "channel {c} missing from an answer: {p:?}"
            );
        }
    }
    (out, String::from_utf8_lossy(&o.stdout).into_owned(), parsed)
}

fn isolation_of(out: &Path) -> (String, String, String) {
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).unwrap();
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let round: serde_json_lite::Value =
        serde_json_lite::parse(&std::fs::read_to_string(out.join("round.json")).unwrap());
    (done, report, round.isolation)
}

/// A tiny reader for `round.json`'s `isolation` field (the harness crate's dev-dependencies
/// have no JSON parser, and this is the one field needed).
mod serde_json_lite {
    pub struct Value {
        pub isolation: String,
    }
    pub fn parse(text: &str) -> Value {
        let key = "\"isolation\":";
        let at = text.find(key).expect("round.json has isolation") + key.len();
        let rest = text[at..].trim_start();
        let rest = rest.strip_prefix('"').expect("isolation is a string");
        let end = rest.find('"').expect("closing quote");
        Value {
            isolation: rest[..end].to_string(),
        }
    }
}

/// Whether an overlay can be mounted in a sandbox on this machine (the harness's own probe).
fn overlay_mounts_here() -> bool {
    let scratch = tempfile::tempdir().unwrap();
    runners::sandbox::probe_overlay(scratch.path()).is_ok()
}

/// The out-dir holds only what the harness writes.
fn assert_out_dir_is_the_harness_own(out: &Path) {
    for e in std::fs::read_dir(out).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        assert!(
            ROUND_FILES.contains(&name.as_str()),
            "{name} in the out-dir was not written by the harness"
        );
    }
    for e in std::fs::read_dir(dispatches(out)).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let per_dispatch = name.split_once("_r1.").is_some_and(|(label, ext)| {
            label.len() == 10
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                && ["txt", "json", "prompt", "stderr", "raw", "err"].contains(&ext)
        });
        assert!(
            per_dispatch,
            "{name} in the out-dir's dispatches/ was not written by the harness"
        );
    }
}

fn table(mode: &str, parsed: &[Channels]) {
    eprintln!("--- adversary under --sandbox {mode} ---");
    let mut names: Vec<&String> = parsed[0].keys().collect();
    names.sort();
    for n in names {
        let open = parsed.iter().filter(|p| p[n].0).count();
        eprintln!(
            "{n:<20} open in {open}/{}   e.g. {}",
            parsed.len(),
            parsed.iter().find(|p| p[n].0).unwrap_or(&parsed[0])[n].1
        );
    }
}

#[test]
fn full_sandbox_closes_every_channel_the_adversary_tries() {
    let w = world();
    let (out, stdout, parsed) = adversary_round(&w, "full", &["--keep-checkouts"]);
    table("full", &parsed);
    for p in &parsed {
        let open: Vec<String> = p
            .iter()
            .filter(|(_, v)| v.0)
            .map(|(k, v)| format!("{k}: {}", v.1))
            .collect();
        assert!(
            open.is_empty(),
            "open under --sandbox full:\n{}",
            open.join("\n")
        );
    }
    // The evidence is the sandbox's, not an absence: the paths were known and denied.
    let seal_read = &parsed[0]["seal_read"].1;
    assert!(seal_read.contains("Permission denied"), "{seal_read}");
    let procs = &parsed[0]["proc_cmdline"].1;
    assert!(procs.contains("1 command lines visible"), "{procs}");
    // Issue 25: the session services were known and refused by the filter, and none of them
    // saw a connection; the terminal was not there to open, and TIOCSTI was refused.
    assert_session_closed(&w, &parsed);

    let (done, report, iso) = isolation_of(&out);
    assert_eq!(iso, "full");
    assert!(done.contains("isolation: full"), "{done}");
    assert!(report.contains("isolation full"), "{report}");
    // Issue 14: where this machine mounts overlays the channels above were tried on one, and
    // its mount table (closed above) was looked at: one overlay, layers in the own folder only.
    if overlay_mounts_here() {
        assert!(done.contains("checkout: overlay"), "{done}");
        assert!(report.contains("checkout overlay"), "{report}");
        for p in &parsed {
            let mt = &p["mount_table"].1;
            assert!(mt.contains(", 1 overlay,"), "{mt}");
        }
    }
    assert_out_dir_is_the_harness_own(&out);
    assert!(!std::fs::read_dir(&w.home)
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().contains("adversary")));

    // Item 3: the temp root and every per-dispatch folder are 0700.
    let kept = stdout
        .lines()
        .find_map(|l| l.strip_prefix("checkouts kept under "))
        .expect("--keep-checkouts names the temp root");
    let root = PathBuf::from(kept.trim());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&root), 0o700, "{}", root.display());
    let mut n = 0;
    for e in std::fs::read_dir(&root).unwrap().flatten() {
        if e.file_name() == "owner" {
            // The owner marker (which process made the root): readable by its user only.
            assert_eq!(mode(&e.path()), 0o600, "{}", e.path().display());
            continue;
        }
        n += 1;
        assert_eq!(mode(&e.path()), 0o700, "{}", e.path().display());
    }
    assert_eq!(n, 5, "one template and four dispatch folders");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Issue 25: under auto and full no session socket is reached (the filter refuses the socket,
/// the services count no connection), `/dev/tty` does not open and `TIOCSTI` is refused.
fn assert_session_closed(w: &World, parsed: &[Channels]) {
    for p in parsed {
        for c in SESSION_SOCKETS {
            assert!(
                p[c].1.contains("Permission denied"),
                "{c} must be refused by the filter, not absent: {}",
                p[c].1
            );
        }
        assert!(p["tiocsti"].1.contains("refused") || p["tiocsti"].1.contains("no terminal"));
        assert!(!p["dev_tty"].0 && !p["tiocsti"].0);
    }
    assert_eq!(w.services.accepted(), 0, "a session service was reached");
}

/// `--sandbox auto` on a machine with every layer (the project's CI machine) closes the
/// terminal and the session sockets as `full` does.
#[test]
fn auto_sandbox_closes_the_terminal_and_session_sockets() {
    let w = world();
    let (_, _, parsed) = adversary_round(&w, "auto", &[]);
    table("auto", &parsed);
    for p in &parsed {
        for c in ["dev_tty", "tiocsti"].iter().chain(SESSION_SOCKETS.iter()) {
            assert!(!p[*c].0, "{c} open under --sandbox auto: {}", p[*c].1);
        }
    }
    assert_session_closed(&w, &parsed);
}

#[test]
fn no_sandbox_leaves_the_channels_open_and_the_report_says_none() {
    let w = world();
    let (out, _, parsed) = adversary_round(&w, "none", &[]);
    table("none", &parsed);
    // What the runner alone closes, in every mode: the environment, the fresh home and the
    // checkout's history. The journal (the label map) is in the out-dir from the start: only
    // the sandbox closes it, and the report header says so under none.
    for p in &parsed {
        for c in ["inherited_env", "fresh_home_memory", "git_beyond_base"] {
            assert!(!p[c].0, "{c} is open even without a sandbox: {}", p[c].1);
        }
        // What only the sandbox closes: the probe must see each of these open here, or it
        // could not have told "closed" from "not looked".
        for c in [
            "proc_cmdline",
            "ps_ef",
            "parent_cmdline",
            "ancestor_environ",
            "sibling_checkouts",
            "dispatch_folder",
            "temp_parent",
            "out_list",
            "out_read",
            "out_write",
            "labelmap",
            "labelmap_folder",
            "qset_read",
            "seal_read",
            "repo_tree",
            "repo_plant",
            "repo_write",
            "repo_git",
            "user_home_memory",
            "user_home_write",
            "unix_dbus",
            "unix_ssh_agent",
            "unix_tmp",
            "unix_abstract",
        ] {
            assert!(p[c].0, "{c} should be open without a sandbox: {}", p[c].1);
        }
        // Every agent runs in a new session: no controlling terminal even under none.
        assert!(!p["dev_tty"].0, "{}", p["dev_tty"].1);
        // The probe can say "open": here nothing refuses TIOCSTI on a terminal it owns.
        if kernel_honours_tiocsti() {
            assert!(p["tiocsti"].0, "{}", p["tiocsti"].1);
        }
    }
    // Each service saw each dispatch: the control for the zero under auto and full.
    assert_eq!(w.services.accepted(), 4 * SESSION_SOCKETS.len());
    let (done, report, iso) = isolation_of(&out);
    assert_eq!(iso, "none");
    assert!(done.contains("isolation: none"), "{done}");
    assert!(
        report.contains("isolation none"),
        "the report prints the isolation level: {report}"
    );
}

/// `--sandbox landlock` (no namespaces) closes every file channel, and the report says
/// "landlock". The process channels are recorded, not asserted: without a PID namespace
/// the harness's command line is visible, and on the kernel this was written on its
/// `/proc/<pid>/environ` was readable too (the printed table says what this one does).
#[test]
fn landlock_mode_closes_the_file_channels() {
    let w = world();
    let (out, _, parsed) = adversary_round(&w, "landlock", &[]);
    table("landlock", &parsed);
    let process_channels = [
        "proc_cmdline",
        "ps_ef",
        "parent_cmdline",
        "ancestor_environ",
    ];
    // Landlock's rules cover opening files, not connect(2): pathname sockets stay open under
    // landlock (docs/isolation.md's table says so), abstract ones are scoped at ABI 6.
    let pathname_sockets = ["unix_dbus", "unix_ssh_agent", "unix_tmp"];
    for p in &parsed {
        for (c, (open, ev)) in p {
            if pathname_sockets.contains(&c.as_str()) {
                assert!(
                    open,
                    "{c} under --sandbox landlock is documented open: {ev}"
                );
            } else if !process_channels.contains(&c.as_str()) {
                assert!(!open, "{c} open under --sandbox landlock: {ev}");
            }
        }
    }
    let (done, report, iso) = isolation_of(&out);
    assert_eq!(iso, "landlock");
    assert!(done.contains("isolation: landlock"), "{done}");
    assert!(report.contains("isolation landlock"), "{report}");
}

/// The node runtime's install as nvm lays it out, with a fake `claude` CLI in it: a
/// symlinked `bin/claude` to a `cli.js` run by `#!/usr/bin/env node`, where `node` is this
/// install's own (a launcher for the system node, so the install folder must be readable
/// and executable), reading its package files, checking its credential, writing its home
/// and its tmp, and printing Claude Code's JSON result.
fn fake_claude(root: &Path) -> PathBuf {
    let prefix = root.join("nvm/versions/node/v20.0.0");
    let pkg = prefix.join("lib/node_modules/@anthropic-ai/claude-code");
    std::fs::create_dir_all(pkg.join("vendor")).unwrap();
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    let node = prefix.join("bin/node");
    std::fs::write(&node, "#!/bin/sh\nexec /usr/bin/node \"$@\"\n").unwrap();
    std::fs::set_permissions(&node, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(pkg.join("package.json"), "{\"name\":\"fake-claude\"}\n").unwrap();
    std::fs::write(pkg.join("vendor/rules.txt"), "vendor file\n").unwrap();
    let cli = r#"#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const os = require('os');
const args = process.argv.slice(2);
const need = (c, m) => { if (!c) { process.stderr.write(m + '\n'); process.exit(3); } };
need(args[0] === '-p', 'not print mode');
const model = args[args.indexOf('--model') + 1];
const prompt = args[args.indexOf('--') + 1];
JSON.parse(fs.readFileSync(path.join(__dirname, 'package.json'), 'utf8'));
fs.readFileSync(path.join(__dirname, 'vendor', 'rules.txt'), 'utf8');
const config = process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude');
need(fs.existsSync(path.join(config, '.credentials.json')), 'Invalid API key: please run /login');
const memory = fs.existsSync(path.join(config, 'CLAUDE.md')) ? 'leaked' : 'absent';
const slug = process.cwd().replace(/[^A-Za-z0-9]/g, '-');
fs.mkdirSync(path.join(config, 'projects', slug), { recursive: true });
fs.appendFileSync(path.join(config, 'projects', slug, 'session.jsonl'), JSON.stringify({ prompt }) + '\n');
fs.writeFileSync(path.join(os.homedir(), '.claude.json'), '{"numStartups":1}');
fs.writeFileSync(path.join(os.tmpdir(), 'claude-scratch'), 'x');
const result = `fake claude ${model} answered; memory ${memory}; question: ${prompt.split('\n')[0]}`;
process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result }) + '\n');
"#;
    let cli_path = pkg.join("cli.js");
    std::fs::write(&cli_path, cli).unwrap();
    std::fs::set_permissions(&cli_path, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink(
        "../lib/node_modules/@anthropic-ai/claude-code/cli.js",
        prefix.join("bin/claude"),
    )
    .unwrap();
    prefix.join("bin")
}

#[test]
fn claude_preset_with_its_node_runtime_starts_under_the_full_sandbox() {
    let w = world();
    let tools = tempfile::tempdir().unwrap();
    let bin = fake_claude(tools.path());
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = w.out("claude");
    let mut c = harness();
    c.arg("run")
        .arg("--qset")
        .arg(&w.qset)
        .arg("--seal")
        .arg(&w.seal)
        .arg("--repo")
        .arg(&w.repo)
        .args(["--base-sha", &w.base])
        .args(["--agent", "claude", "--model", "fake-model"])
        .arg("--out")
        .arg(&out)
        .args(["--reps", "1", "--quiet", "--sandbox", "full"])
        .current_dir(w.dir.path())
        .env("HOME", &w.home)
        .env("PATH", &path)
        .timeout(Duration::from_secs(240));
    let o = c.output().unwrap();
    let done = std::fs::read_to_string(out.join("ROUND_DONE"))
        .unwrap_or_else(|e| panic!("no ROUND_DONE ({e})\n{}", show(&o)));
    assert!(done.contains("complete: yes"), "{done}\n{}", show(&o));
    assert!(done.contains("isolation: full"), "{done}");
    let ans = answers(&out);
    assert_eq!(ans.len(), 4);
    for (name, a) in &ans {
        // The answer is the extracted `result`, not the JSON around it.
        assert!(
            a.starts_with("fake claude fake-model answered; memory absent; question: "),
            "{name}: {a}"
        );
        assert!(!a.contains("\"type\""), "{name}: {a}");
    }
}

/// Item 5: the baselines read nothing outside their checkout, sandbox or not. The prompt
/// names files outside the checkout (absolute, `../`, and a symlink in the base leading
/// out); the outside files hold the answer words and a token. Both baselines answer the
/// same under `none` and `full` (so the sandbox never had to stop them), and never with
/// the outside token.
#[test]
fn baselines_read_only_their_checkout_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let outside_tok = tok("outside");
    let outside = dir.path().join("outside.md");
    std::fs::write(
        &outside,
        format!("The harbour pilot schedule code is {outside_tok}.\n"),
    )
    .unwrap();
    let repo = dir.path().join("repo");
    make_repo(&repo, &[("docs/intro.md", b"An introduction.\n")]);
    std::os::unix::fs::symlink(&outside, repo.join("docs/pilot.md")).unwrap();
    let git = git2::Repository::open(&repo).unwrap();
    let base = commit_all(&git, "a symlink leading out of the tree");
    let inside_tok = tok("inside");
    let seal = dir.path().join("seal.md");
    std::fs::write(
        &seal,
        format!("The crane inspection slot is {inside_tok}.\n"),
    )
    .unwrap();
    // The outside paths are named by the protocol text, after the question, so the
    // question's own words match the outside line exactly.
    let protocol = dir.path().join("protocol.txt");
    std::fs::write(
        &protocol,
        format!(
            "Sources you may consult: {} ../outside.md docs/pilot.md\n",
            outside.display()
        ),
    )
    .unwrap();
    let qset = dir.path().join("q.tsv");
    let q1 = "What is the harbour pilot schedule code?";
    write_qset(
        &qset,
        &[
            ["Q1", "negative", q1, &outside_tok],
            [
                "Q2",
                "positive",
                "What is the crane inspection slot?",
                &inside_tok,
            ],
        ],
    );
    for agent in ["baseline-grep", "baseline-grep-all"] {
        let mut by_mode: Vec<BTreeMap<String, String>> = Vec::new();
        for mode in ["none", "full"] {
            let out = dir.path().join(format!("{agent}-{mode}"));
            let o = harness()
                .arg("run")
                .arg("--qset")
                .arg(&qset)
                .arg("--seal")
                .arg(&seal)
                .arg("--repo")
                .arg(&repo)
                .args(["--base-sha", &base, "--agent", agent, "--deliver"])
                .arg("--protocol")
                .arg(&protocol)
                .arg("--out")
                .arg(&out)
                .args(["--reps", "1", "--quiet", "--sandbox", mode])
                .current_dir(dir.path())
                .timeout(Duration::from_secs(240))
                .output()
                .unwrap();
            let done = std::fs::read_to_string(out.join("ROUND_DONE"))
                .unwrap_or_else(|e| panic!("no ROUND_DONE ({e})\n{}", show(&o)));
            assert!(
                done.contains("complete: yes"),
                "{agent} {mode}: {done}\n{}",
                show(&o)
            );
            assert!(done.contains(&format!("isolation: {mode}")), "{done}");
            // Answers keyed by (question, arm) through the plan's labels.
            let plan: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(out.join("journal").join("plan.json")).unwrap(),
            )
            .unwrap();
            let mut m = BTreeMap::new();
            for d in plan["dispatches"].as_array().unwrap() {
                let f: Vec<&str> = ["label", "qid", "arm"]
                    .iter()
                    .map(|k| d[*k].as_str().unwrap())
                    .collect();
                let a =
                    std::fs::read_to_string(dispatch_file(&out, &format!("{}_r1", f[0]), "txt"))
                        .unwrap();
                assert!(
                    !a.contains(&outside_tok),
                    "{agent} under {mode} read outside its checkout: {a}"
                );
                m.insert(format!("{} {}", f[1], f[2]), a);
            }
            assert_eq!(m.len(), 4);
            let arm_q2 = &m["Q2 ARM"];
            assert!(
                arm_q2.contains(&inside_tok),
                "{agent} under {mode} answers from its own checkout: {arm_q2}"
            );
            by_mode.push(m);
        }
        assert_eq!(
            by_mode[0], by_mode[1],
            "{agent}: the sandbox changed an answer"
        );
    }
}

/// An agent that ignores SIGTERM, and whose PID-1 process has left the wrapper's process
/// group (`setsid`), with children of its own: `--timeout 2` under `--sandbox full` ends
/// the dispatch as timed out within the grace, and nothing it started survives.
#[test]
fn timeout_under_the_full_sandbox_leaves_no_process_behind() {
    let w = world();
    let tools = tempfile::tempdir().unwrap();
    let nonce = std::process::id() * 7 + 100_000;
    let (a, b, c_) = (nonce, nonce + 1, nonce + 2);
    let script = tools.path().join("stubborn.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             trap '' TERM\n\
             if [ -z \"$STUBBORN_DETACHED\" ]; then STUBBORN_DETACHED=1 exec setsid sh \"$0\" \"$@\"; fi\n\
             setsid sleep {a} &\n\
             sleep {b} &\n\
             sleep {c_}\n"
        ),
    )
    .unwrap();
    let out = w.out("timeout");
    let t0 = Instant::now();
    let o = w.run(
        &out,
        &format!("command:sh {} {{prompt}}", script.display()),
        &[
            "--sandbox",
            "full",
            // Time for the wrapper to report its layers on a loaded machine (at 2 s a loaded
            // run killed the agent first and ROUND_DONE had no isolation line).
            "--timeout",
            "5",
            "--arms",
            "CTRL",
            "--jobs",
            "2",
        ],
    );
    let took = t0.elapsed();
    let errs: Vec<String> = std::fs::read_dir(dispatches(&out))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".err"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(errs.len(), 2, "both dispatches fail\n{}", show(&o));
    for e in &errs {
        assert!(e.contains("timed out"), "{e}");
    }
    // The wrapper reported its layers before the agent was killed.
    let done = std::fs::read_to_string(out.join("ROUND_DONE")).unwrap();
    assert!(done.contains("isolation: full\n"), "{done}");
    assert!(
        took < Duration::from_secs(25),
        "timeout 5s + grace 3s took {took:?}"
    );
    // (pid, command line) of every process this test started that is still running.
    let script_s = script.display().to_string();
    let survivors = || -> Vec<(i32, String)> {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| {
                let pid: i32 = e.file_name().to_str()?.parse().ok()?;
                let c = std::fs::read(e.path().join("cmdline")).ok()?;
                Some((pid, String::from_utf8_lossy(&c).replace('\0', " ")))
            })
            .filter(|(_, c)| {
                [a, b, c_].iter().any(|n| c.trim() == format!("sleep {n}")) || c.contains(&script_s)
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut left;
    loop {
        left = survivors();
        if left.is_empty() || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Clean up before failing, so a red run leaves no sleepers behind.
    for (pid, _) in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(left.is_empty(), "survived the timeout: {left:?}");
}

/// Issue 14: dispatches run one after another on overlay checkouts (where this machine mounts
/// them; else on copies). A file one dispatch writes and an edit of a tracked file are not seen
/// by the next (nothing writes through to the shared template), and the mount table names only
/// the dispatch's own folder: no arm, no template path.
#[test]
fn overlay_dispatches_do_not_see_each_other_and_mounts_name_no_arm() {
    let w = world();
    let out = w.out("overlay");
    let agent = format!(
        "command:sh {} {{prompt}}",
        agents_dir().join("overlay_probe.sh").display()
    );
    let o = w.run(&out, &agent, &["--sandbox", "auto", "--jobs", "1"]);
    let done = std::fs::read_to_string(out.join("ROUND_DONE"))
        .unwrap_or_else(|e| panic!("no ROUND_DONE ({e})\n{}", show(&o)));
    assert!(done.contains("complete: yes"), "{done}\n{}", show(&o));
    let round = std::fs::read_to_string(out.join("round.json")).unwrap();
    let overlay = round.contains("\"checkout\": \"overlay\"");
    assert_eq!(
        overlay,
        overlay_mounts_here(),
        "overlay checkouts are used exactly where they can be mounted: {round}"
    );
    eprintln!(
        "checkout method: {}",
        if overlay { "overlay" } else { "copy" }
    );
    let ans = answers(&out);
    assert_eq!(ans.len(), 4);
    for a in ans.values() {
        assert!(
            a.contains("leftovers=0"),
            "a dispatch saw an earlier one's file: {a}"
        );
        assert!(
            a.contains("readme=A small project.") && !a.contains("tampered"),
            "a dispatch saw an earlier one's edit: {a}"
        );
        let cwd = a.lines().find_map(|l| l.strip_prefix("cwd=")).unwrap();
        let own = Path::new(cwd)
            .parent()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        for m in a.lines().filter_map(|l| l.strip_prefix("mount=")) {
            assert!(!m.contains("ARM") && !m.contains("CTRL"), "arm in {m}");
            if m.contains(" - overlay ") {
                for opt in m.split(',').filter_map(|o| o.split_once('=')) {
                    if ["lowerdir", "upperdir", "workdir"].contains(&opt.0) {
                        assert!(opt.1.starts_with(&own), "{} outside {own}: {m}", opt.1);
                    }
                }
            }
        }
        if overlay {
            assert!(a.contains(" - overlay "), "no overlay mount seen: {a}");
        }
    }
}

/// Where one install layout puts the agent's program under a home `h` (the adversary script at
/// `script` copied or linked into place), returning the folder its installer puts on PATH.
type Install = fn(h: &Path, script: &Path) -> PathBuf;

/// Copies `script` to `to` as an executable (its folders made).
fn install_exe(script: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(script, to).unwrap();
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// An npm package at `<prefix>/lib/node_modules/advpkg/cli.sh`, linked from `<prefix>/bin/agent`.
fn npm_package(prefix: &Path, script: &Path) -> PathBuf {
    install_exe(script, &prefix.join("lib/node_modules/advpkg/cli.sh"));
    std::fs::create_dir_all(prefix.join("bin")).unwrap();
    std::os::unix::fs::symlink(
        "../lib/node_modules/advpkg/cli.sh",
        prefix.join("bin/agent"),
    )
    .unwrap();
    prefix.join("bin")
}

/// The preset layouts a user's agent CLI is installed in: (name, state folder relative to the
/// home when `XDG_STATE_HOME` is set there — `None` for the XDG default `~/.local/state`, the
/// install).
const LAYOUTS: [(&str, Option<&str>, Install); 8] = [
    ("npm global with prefix ~/.local", None, |h, s| {
        npm_package(&h.join(".local"), s)
    }),
    (
        "~/.local/bin plain file, no ~/.local/share",
        None,
        |h, s| {
            install_exe(s, &h.join(".local/bin/agent"));
            h.join(".local/bin")
        },
    ),
    (
        "~/.local/bin plain file, XDG_STATE_HOME elsewhere in ~/.local",
        Some(".local/xdg-state"),
        |h, s| {
            install_exe(s, &h.join(".local/bin/agent"));
            h.join(".local/bin")
        },
    ),
    ("~/.local/bin link to ~/.local/share", None, |h, s| {
        let v = h.join(".local/share/advagent/versions/1.0.0");
        install_exe(s, &v);
        std::fs::create_dir_all(h.join(".local/bin")).unwrap();
        std::os::unix::fs::symlink(&v, h.join(".local/bin/agent")).unwrap();
        h.join(".local/bin")
    }),
    ("~/bin", None, |h, s| {
        install_exe(s, &h.join("bin/agent"));
        h.join("bin")
    }),
    ("~/.npm-global", None, |h, s| {
        npm_package(&h.join(".npm-global"), s)
    }),
    ("nvm", None, |h, s| {
        npm_package(&h.join(".nvm/versions/node/v20.0.0"), s)
    }),
    ("Homebrew-like prefix", None, |h, s| {
        let prefix = h.join(".linuxbrew");
        install_exe(s, &prefix.join("Cellar/advagent/1.0/bin/agent"));
        std::fs::create_dir_all(prefix.join("bin")).unwrap();
        std::os::unix::fs::symlink("../Cellar/advagent/1.0/bin/agent", prefix.join("bin/agent"))
            .unwrap();
        prefix.join("bin")
    }),
];

/// Runs the adversary installed as `layout` lays it out, under `mode`, in a home of its own
/// holding a past round in the harness's state folder. Returns the parsed answers.
fn layout_round(w: &World, n: usize, mode: &str) -> Vec<Channels> {
    let (name, state_rel, install) = LAYOUTS[n];
    let h = w.dir.path().join(format!("homes/{n}-{mode}/home"));
    std::fs::create_dir_all(h.join(".ssh")).unwrap();
    let state_home = h.join(state_rel.unwrap_or(".local/state"));
    let state = state_home.join("harness");
    // A past round where the harness keeps them: its label map and an answer with a token.
    let past = state.join("rounds/2026-01-01-past");
    std::fs::create_dir_all(past.join("journal")).unwrap();
    std::fs::create_dir_all(past.join("dispatches")).unwrap();
    std::fs::write(
        past.join("journal/plan.json"),
        "{\"dispatches\":[{\"label\":\"pastlabel1\",\"arm\":\"ARM\"}]}\n",
    )
    .unwrap();
    std::fs::write(
        past.join("dispatches/pastlabel1_r1.txt"),
        format!("The codename is {}.\n", tok("past")),
    )
    .unwrap();
    let bin = install(&h, &agents_dir().join("adversary.sh"));
    let out = w.out(&format!("layout-{n}-{mode}"));
    let agent = format!(
        "command:agent {{prompt}} out={} repo={} qset={} seal={} home={} state={} past={}",
        out.display(),
        w.repo.display(),
        w.qset.display(),
        w.seal.display(),
        h.display(),
        state.display(),
        past.display(),
    );
    let mut c = harness();
    c.arg("run")
        .arg("--qset")
        .arg(&w.qset)
        .arg("--seal")
        .arg(&w.seal)
        .arg("--repo")
        .arg(&w.repo)
        .args(["--base-sha", &w.base, "--agent", &agent])
        .arg("--out")
        .arg(&out)
        .args([
            "--reps",
            "1",
            "--quiet",
            "--arms",
            "CTRL",
            "--sandbox",
            mode,
        ])
        .current_dir(w.dir.path())
        .env("HOME", &h)
        .env("PATH", format!("{}:{}", bin.display(), hermetic_path()))
        .timeout(Duration::from_secs(240));
    match state_rel {
        Some(_) => c.env("XDG_STATE_HOME", &state_home),
        None => c.env_remove("XDG_STATE_HOME"),
    };
    let o = c.output().unwrap();
    let done = std::fs::read_to_string(out.join("ROUND_DONE"))
        .unwrap_or_else(|e| panic!("{name} {mode}: no ROUND_DONE ({e})\n{}", show(&o)));
    assert!(
        done.contains("complete: yes"),
        "{name} {mode}: {done}\n{}",
        show(&o)
    );
    let parsed: Vec<Channels> = answers(&out).values().map(|a| channels(a)).collect();
    assert_eq!(parsed.len(), 2, "{name} {mode}");
    parsed
}

/// Nothing of a user's rounds is readable by an agent, whatever its install place: for every
/// usual layout (the program where its installer puts it, its folder on PATH), under `full`
/// and `auto`, the state folder is not listed, a past round's label map and answers are not
/// read (denied, not absent), and no other channel is open. Under `none` the same probe reads
/// the past round: it can tell "closed" from "not looked".
#[test]
fn every_install_layout_reads_no_round_under_full_and_auto() {
    let w = world();
    let mut failures = Vec::new();
    for (n, (name, _, _)) in LAYOUTS.iter().enumerate() {
        for mode in ["full", "auto"] {
            let parsed = layout_round(&w, n, mode);
            for p in &parsed {
                for (c, (open, ev)) in p {
                    if *open {
                        failures.push(format!("{name} under {mode}: {c}: {ev}"));
                    }
                }
                for c in ["state_list", "past_rounds"] {
                    if !p[c].1.contains("Permission denied") {
                        failures.push(format!("{name} under {mode}: {c} not denied: {}", p[c].1));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let control = layout_round(&w, 1, "none");
    for p in &control {
        assert!(p["past_rounds"].0, "{}", p["past_rounds"].1);
        assert!(p["state_list"].0, "{}", p["state_list"].1);
    }
}

/// Under `full`, a read rule the agent needs that would expose a denied path (here its script,
/// kept in the repository's ignored folder) refuses the round before any dispatch, exit 8,
/// naming the rule's path and the denied one.
#[test]
fn full_refuses_a_read_rule_that_would_expose_a_denied_path() {
    let w = world();
    let script = w.repo.join("tracks/agent.sh");
    std::fs::write(&script, "#!/bin/sh\necho hello\n").unwrap();
    let out = w.out("exposing-rule");
    let o = w.run(
        &out,
        &format!("command:sh {} {{prompt}}", script.display()),
        &["--sandbox", "full", "--arms", "CTRL"],
    );
    assert_eq!(o.status.code(), Some(8), "{}", show(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let repo = w.repo.canonicalize().unwrap();
    assert!(
        err.contains(&script.canonicalize().unwrap().display().to_string())
            && err.contains(&format!("forbidden path {}", repo.display())),
        "{err}"
    );
    assert!(answers_or_none(&out).is_empty(), "no dispatch may run");
}

/// Every dispatch's answer, none when the round made no `dispatches/` folder.
fn answers_or_none(out: &Path) -> BTreeMap<String, String> {
    if dispatches(out).is_dir() {
        answers(out)
    } else {
        BTreeMap::new()
    }
}

/// An earlier round's qset and hand-off hold its tokens: left where a later round's agent can
/// read them (`~/tools/handoff/old-qset.tsv`, inside the agent's own install prefix
/// `~/tools`), they are denied to it under `full` by what they are, and readable under `none`
/// (the probe can tell).
#[test]
fn an_earlier_rounds_qset_and_hand_off_are_denied() {
    let w = world();
    let h = w.dir.path().join("inputshome/home");
    let old = h.join("tools/handoff");
    std::fs::create_dir_all(&old).unwrap();
    let (old_qset, old_seal) = (old.join("old-qset.tsv"), old.join("old-handoff.md"));
    std::fs::copy(&w.qset, &old_qset).unwrap();
    std::fs::copy(&w.seal, &old_seal).unwrap();
    let env = TestEnv::new();
    let earlier = w.out("inputs-earlier");
    let o = env
        .harness()
        .arg("run")
        .arg("--qset")
        .arg(&old_qset)
        .arg("--seal")
        .arg(&old_seal)
        .arg("--repo")
        .arg(&w.repo)
        .args([
            "--base-sha",
            &w.base,
            "--agent",
            "baseline-grep",
            "--deliver",
        ])
        .arg("--out")
        .arg(&earlier)
        .args(["--reps", "1", "--quiet", "--sandbox", "none"])
        .current_dir(w.dir.path())
        .env("HOME", &h)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    assert!(earlier.join("ROUND_DONE").exists(), "{}", show(&o));
    install_exe(
        &agents_dir().join("adversary.sh"),
        &h.join("tools/bin/agent"),
    );
    for (mode, open) in [("full", false), ("none", true)] {
        let out = w.out(&format!("inputs-{mode}"));
        let agent = format!(
            "command:agent {{prompt}} out={} home={} pastfile={} pastfile={}",
            out.display(),
            h.display(),
            old_qset.display(),
            old_seal.display()
        );
        let o = env
            .harness()
            .arg("run")
            .arg("--qset")
            .arg(&w.qset)
            .arg("--seal")
            .arg(&w.seal)
            .arg("--repo")
            .arg(&w.repo)
            .args(["--base-sha", &w.base, "--agent", &agent])
            .arg("--out")
            .arg(&out)
            .args([
                "--reps",
                "1",
                "--quiet",
                "--arms",
                "CTRL",
                "--sandbox",
                mode,
            ])
            .current_dir(w.dir.path())
            .env("HOME", &h)
            .env(
                "PATH",
                format!("{}:{}", h.join("tools/bin").display(), hermetic_path()),
            )
            .timeout(Duration::from_secs(240))
            .output()
            .unwrap();
        let ans = answers_or_none(&out);
        assert_eq!(ans.len(), 2, "{}", show(&o));
        for a in ans.values() {
            let p = channels(a);
            assert_eq!(p["past_inputs"].0, open, "{mode}: {}", p["past_inputs"].1);
            if !open {
                assert!(
                    p["past_inputs"].1.contains("Permission denied"),
                    "{}",
                    p["past_inputs"].1
                );
            }
        }
    }
}

/// Runs a round into `<prefix>/rounds/r1` with `first` applied to its environment, installs the
/// probing agent as `<prefix>/bin/agent`, then runs a CTRL round under `full` with `then`
/// applied and returns what the agent's `past_rounds` probe said for each answer.
fn earlier_round_probed(
    w: &World,
    prefix: &Path,
    name: &str,
    first: &dyn Fn(&mut assert_cmd::Command),
    then: &dyn Fn(&mut assert_cmd::Command),
) -> Vec<(bool, String)> {
    let env = TestEnv::new();
    let earlier = prefix.join("rounds/r1");
    let mut c = env.harness();
    c.arg("run")
        .arg("--qset")
        .arg(&w.qset)
        .arg("--seal")
        .arg(&w.seal)
        .arg("--repo")
        .arg(&w.repo)
        .args([
            "--base-sha",
            &w.base,
            "--agent",
            "baseline-grep",
            "--deliver",
        ])
        .arg("--out")
        .arg(&earlier)
        .args(["--reps", "1", "--quiet", "--sandbox", "none"])
        .current_dir(w.dir.path())
        .timeout(Duration::from_secs(240));
    first(&mut c);
    let o = c.output().unwrap();
    assert!(earlier.join("ROUND_DONE").exists(), "{}", show(&o));
    install_exe(
        &agents_dir().join("adversary.sh"),
        &prefix.join("bin/agent"),
    );
    let out = w.out(name);
    let agent = format!(
        "command:agent {{prompt}} out={} home={} past={}",
        out.display(),
        prefix.display(),
        earlier.display()
    );
    let mut c = env.harness();
    c.arg("run")
        .arg("--qset")
        .arg(&w.qset)
        .arg("--seal")
        .arg(&w.seal)
        .arg("--repo")
        .arg(&w.repo)
        .args(["--base-sha", &w.base, "--agent", &agent])
        .arg("--out")
        .arg(&out)
        .args([
            "--reps",
            "1",
            "--quiet",
            "--arms",
            "CTRL",
            "--sandbox",
            "full",
        ])
        .current_dir(w.dir.path())
        .env(
            "PATH",
            format!("{}:{}", prefix.join("bin").display(), hermetic_path()),
        )
        .timeout(Duration::from_secs(240));
    then(&mut c);
    let o = c.output().unwrap();
    let ans = answers_or_none(&out);
    assert_eq!(ans.len(), 2, "{}", show(&o));
    ans.values()
        .map(|a| {
            let p = channels(a);
            p["past_rounds"].clone()
        })
        .collect()
}

/// A round recorded under one `XDG_STATE_HOME` stays denied after the variable changes: the
/// home's state folder remembers where the old records are.
#[test]
fn an_earlier_round_under_another_xdg_state_home_is_denied() {
    let w = world();
    let h = w.dir.path().join("xdghome/home");
    std::fs::create_dir_all(&h).unwrap();
    let (a, b) = (h.join("state-a"), h.join("state-b"));
    let probes = earlier_round_probed(
        &w,
        &h.join("tools"),
        "xdg-changed",
        &|c| {
            c.env("HOME", &h).env("XDG_STATE_HOME", &a);
        },
        &|c| {
            c.env("HOME", &h).env("XDG_STATE_HOME", &b);
        },
    );
    for (open, said) in probes {
        assert!(!open && said.contains("Permission denied"), "{said}");
    }
}

/// With no home at all the record of out-dirs is kept in, and read back from, the temp
/// folder's `harness-rounds`: an earlier round stays denied.
#[test]
fn an_earlier_round_without_a_home_is_denied() {
    let w = world();
    let prefix = w.dir.path().join("nohome/tools");
    let probes = earlier_round_probed(
        &w,
        &prefix,
        "no-home",
        &|c| {
            c.env_remove("HOME").env_remove("XDG_STATE_HOME");
        },
        &|c| {
            c.env_remove("HOME").env_remove("XDG_STATE_HOME");
        },
    );
    for (open, said) in probes {
        assert!(!open && said.contains("Permission denied"), "{said}");
    }
}

/// Every out-dir is denied by what it is, wherever it was put: an earlier round's `--out` inside
/// the agent's own install prefix (`~/tools/bin/agent`, prefix `~/tools`, the round in
/// `~/tools/rounds/r1`) is not readable by a later round's agent under `full`, and is under
/// `none` (the probe can tell).
#[test]
fn an_earlier_out_dir_inside_the_agents_prefix_is_denied() {
    let w = world();
    let h = w.dir.path().join("toolshome/home");
    std::fs::create_dir_all(&h).unwrap();
    let env = TestEnv::new();
    let earlier = h.join("tools/rounds/r1");
    let o = env
        .harness()
        .arg("run")
        .arg("--qset")
        .arg(&w.qset)
        .arg("--seal")
        .arg(&w.seal)
        .arg("--repo")
        .arg(&w.repo)
        .args([
            "--base-sha",
            &w.base,
            "--agent",
            "baseline-grep",
            "--deliver",
        ])
        .arg("--out")
        .arg(&earlier)
        .args(["--reps", "1", "--quiet", "--sandbox", "none"])
        .current_dir(w.dir.path())
        .env("HOME", &h)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    assert!(earlier.join("ROUND_DONE").exists(), "{}", show(&o));
    install_exe(
        &agents_dir().join("adversary.sh"),
        &h.join("tools/bin/agent"),
    );
    for (mode, open) in [("full", false), ("none", true)] {
        let out = w.out(&format!("earlier-{mode}"));
        let agent = format!(
            "command:agent {{prompt}} out={} home={} past={}",
            out.display(),
            h.display(),
            earlier.display()
        );
        let o = env
            .harness()
            .arg("run")
            .arg("--qset")
            .arg(&w.qset)
            .arg("--seal")
            .arg(&w.seal)
            .arg("--repo")
            .arg(&w.repo)
            .args(["--base-sha", &w.base, "--agent", &agent])
            .arg("--out")
            .arg(&out)
            .args([
                "--reps",
                "1",
                "--quiet",
                "--arms",
                "CTRL",
                "--sandbox",
                mode,
            ])
            .current_dir(w.dir.path())
            .env("HOME", &h)
            .env(
                "PATH",
                format!("{}:{}", h.join("tools/bin").display(), hermetic_path()),
            )
            .timeout(Duration::from_secs(240))
            .output()
            .unwrap();
        let ans = answers_or_none(&out);
        assert_eq!(ans.len(), 2, "{}", show(&o));
        for a in ans.values() {
            let p = channels(a);
            assert_eq!(p["past_rounds"].0, open, "{mode}: {}", p["past_rounds"].1);
            if !open {
                assert!(
                    p["past_rounds"].1.contains("Permission denied"),
                    "{}",
                    p["past_rounds"].1
                );
            }
        }
    }
}
