//! The sandbox wrapper on this kernel. Tests that need a kernel feature check `probe()`
//! first and, when the feature is missing, print an explicit SKIPPED line with the
//! reason instead of passing silently; `probe()` itself is checked against independent
//! evidence (the kernel config, the `unshare` tool) so a wrong probe cannot hide a skip.

use std::ffi::OsString;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

use runners::error::Error;
use runners::process::DispatchHome;
use runners::sandbox::{
    parse_wrapper_args, preflight, probe, read_report, run_sandboxed, wrap_argv, wrapper_main,
    Capabilities, SandboxMode, SandboxRequest,
};

/// The wrapper clones from this (threaded) test process; one at a time keeps it simple.
static SERIAL: Mutex<()> = Mutex::new(());

struct Fixture {
    _dirs: Vec<tempfile::TempDir>,
    req: SandboxRequest,
    outside_secret: std::path::PathBuf,
    results: std::path::PathBuf,
}

fn fixture(mode: SandboxMode) -> Fixture {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    fs::write(&secret, "sealed value\n").unwrap();
    let work = tempfile::tempdir().unwrap();
    let checkout = work.path().join("checkout");
    fs::create_dir_all(&checkout).unwrap();
    let home = DispatchHome::create(&work.path().join("dispatch")).unwrap();
    let records = tempfile::tempdir().unwrap();
    let results = home.tmp.join("results");
    fs::create_dir_all(&results).unwrap();
    let req = SandboxRequest {
        mode,
        checkout,
        home: home.home.clone(),
        tmp: home.tmp.clone(),
        report: records.path().join("isolation.json"),
        forbid: vec![outside.path().to_path_buf(), records.path().to_path_buf()],
        overlay: None,
    };
    Fixture {
        _dirs: vec![outside, work, records],
        req,
        outside_secret: secret,
        results,
    }
}

const AGENT: &str = r#"
out=$1; secret=$2; checkout=$3
cat "$secret" > "$out/cat.out" 2>&1; echo $? > "$out/cat.rc"
ls /proc | grep -c '^[0-9][0-9]*$' > "$out/procs"
echo $$ > "$out/pid"
echo hi > "$checkout/written.txt"; echo $? > "$out/write.rc"
{ echo x > "$checkout/../escaped.txt"; } 2>/dev/null; echo $? > "$out/escape.rc"
"#;

fn run_agent(f: &Fixture) -> i32 {
    let argv: Vec<OsString> = vec![
        "sh".into(),
        "-c".into(),
        AGENT.into(),
        "sh".into(),
        f.results.clone().into_os_string(),
        f.outside_secret.clone().into_os_string(),
        f.req.checkout.clone().into_os_string(),
    ];
    run_sandboxed(&f.req, &argv).expect("wrapper runs")
}

fn result(f: &Fixture, name: &str) -> String {
    fs::read_to_string(f.results.join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .trim()
        .to_string()
}

fn kernel_config() -> Option<String> {
    let out = Command::new("zcat").arg("/proc/config.gz").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn probe_matches_independent_evidence() {
    let caps = probe();
    eprintln!("probe: {caps:?}");
    // Landlock: the active LSM list, else the kernel config.
    let lsm = fs::read_to_string("/sys/kernel/security/lsm").ok();
    let evidence = match (&lsm, kernel_config()) {
        (Some(l), _) => Some(l.split(',').any(|m| m.trim() == "landlock")),
        (None, Some(cfg)) => {
            let built = cfg.lines().any(|l| l == "CONFIG_SECURITY_LANDLOCK=y");
            let listed = cfg
                .lines()
                .find_map(|l| l.strip_prefix("CONFIG_LSM="))
                .is_some_and(|v| v.contains("landlock"));
            Some(built && listed)
        }
        (None, None) => None,
    };
    match evidence {
        Some(expected) => assert_eq!(caps.landlock_abi.is_some(), expected, "landlock probe vs kernel"),
        None => eprintln!("SKIPPED landlock cross-check: neither /sys/kernel/security/lsm nor /proc/config.gz is readable"),
    }
    // Namespaces: the util-linux `unshare` tool doing the same thing.
    match Command::new("unshare")
        .args(["-U", "-r", "-p", "-m", "--fork", "--mount-proc", "true"])
        .output()
    {
        Ok(out) => assert_eq!(
            out.status.success(),
            caps.userns && caps.mount_proc,
            "namespace probe vs unshare(1): {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => eprintln!("SKIPPED namespace cross-check: cannot run unshare(1): {e}"),
    }
}

#[test]
fn full_sandbox_hides_outside_files_and_other_processes() {
    let caps = probe();
    let missing = caps.missing_for_full();
    if !missing.is_empty() {
        eprintln!(
            "SKIPPED full sandbox test: this kernel lacks {}",
            missing.join(", ")
        );
        return;
    }
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let f = fixture(SandboxMode::Full);
    let code = run_agent(&f);
    let iso = read_report(&f.req.report).unwrap();
    eprintln!("isolation: {iso:?}");
    assert_eq!(code, 0, "{iso:?}");
    assert_eq!(iso.level, "full");
    assert!(iso.userns && iso.pidns && iso.mountns_proc);
    assert_eq!(iso.landlock.as_ref().unwrap().status, "fully_enforced");
    assert!(iso.missing.is_empty(), "{:?}", iso.missing);
    assert_ne!(result(&f, "cat.rc"), "0", "outside file was readable");
    assert!(result(&f, "cat.out").contains("Permission denied"));
    assert_eq!(
        result(&f, "pid"),
        "1",
        "the agent is PID 1 of its own namespace"
    );
    let procs: usize = result(&f, "procs").parse().unwrap();
    assert!(procs <= 5, "/proc shows {procs} pids");
    assert_eq!(result(&f, "write.rc"), "0", "checkout is writable");
    assert_ne!(result(&f, "escape.rc"), "0", "the checkout's parent is not");
    assert_eq!(
        fs::read_to_string(f.req.checkout.join("written.txt")).unwrap(),
        "hi\n"
    );
}

#[test]
fn landlock_mode_restricts_files_without_namespaces() {
    let caps = probe();
    if caps.landlock_abi.is_none() {
        eprintln!(
            "SKIPPED landlock test: {}",
            caps.landlock_error.unwrap_or_default()
        );
        return;
    }
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let f = fixture(SandboxMode::Landlock);
    assert_eq!(run_agent(&f), 0);
    let iso = read_report(&f.req.report).unwrap();
    assert_eq!(iso.level, "landlock", "{iso:?}");
    assert!(!iso.userns && !iso.pidns && !iso.mountns_proc);
    assert_ne!(result(&f, "cat.rc"), "0");
    assert_ne!(result(&f, "pid"), "1");
    assert!(
        result(&f, "procs").parse::<usize>().unwrap() > 5,
        "host /proc is visible without a PID namespace"
    );
}

#[test]
fn none_mode_applies_nothing_and_says_so() {
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let f = fixture(SandboxMode::None);
    assert_eq!(run_agent(&f), 0);
    let iso = read_report(&f.req.report).unwrap();
    assert_eq!(iso.level, "none");
    assert!(iso.landlock.is_none());
    assert_eq!(
        result(&f, "cat.rc"),
        "0",
        "without a sandbox the outside file is readable"
    );
}

#[test]
fn agent_exit_status_is_passed_through() {
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let f = fixture(SandboxMode::Auto);
    let code = run_sandboxed(&f.req, &["sh".into(), "-c".into(), "exit 7".into()]).unwrap();
    assert_eq!(code, 7);
    let iso = read_report(&f.req.report).unwrap();
    assert!(!iso.level.is_empty());
    let caps = probe();
    if caps.missing_for_full().is_empty() {
        assert_eq!(
            iso.level, "full",
            "auto takes the strongest available: {iso:?}"
        );
    } else {
        assert!(
            iso.level.starts_with("partial") || iso.level == "none",
            "{iso:?}"
        );
        eprintln!("NOTE auto level here: {}", iso.level);
    }
}

#[test]
fn wrapper_arguments_round_trip_and_bad_ones_are_refused() {
    let f = fixture(SandboxMode::Auto);
    let agent: Vec<OsString> = vec!["claude".into(), "-p".into(), "--".into(), "q".into()];
    let argv = wrap_argv(Path::new("/opt/h/harness"), &f.req, &agent);
    assert_eq!(argv[0], "/opt/h/harness");
    assert_eq!(argv[1], "__sandbox");
    let (req, back) = parse_wrapper_args(&argv[2..]).unwrap();
    assert_eq!(req, f.req);
    assert_eq!(back, agent, "a `--` inside the agent argv survives");
    assert!(
        parse_wrapper_args(&["--mode".into(), "strict".into(), "--".into(), "x".into()]).is_err()
    );
    assert!(
        parse_wrapper_args(&argv[2..argv.len() - 4]).is_err(),
        "no agent command"
    );
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let mut missing_prog = argv[2..argv.len() - 4].to_vec();
    missing_prog.push("/nonexistent/agent".into());
    assert_eq!(
        wrapper_main(&missing_prog),
        runners::sandbox::EXIT_EXEC_FAILED
    );
    let iso = read_report(&f.req.report).unwrap();
    assert!(
        iso.exec_error
            .as_deref()
            .is_some_and(|e| e.contains("/nonexistent/agent")),
        "{iso:?}"
    );
    let mut not_on_path = argv[2..argv.len() - 4].to_vec();
    not_on_path.push("no-such-agent-on-path".into());
    assert_eq!(
        wrapper_main(&not_on_path),
        runners::sandbox::EXIT_SANDBOX_REFUSED
    );
}

#[test]
fn full_mode_is_refused_before_dispatch_when_a_layer_is_missing() {
    let lacking = Capabilities {
        landlock_abi: None,
        landlock_error: Some("not built into this kernel (ENOSYS)".into()),
        userns: true,
        pidns: true,
        mount_proc: true,
        namespace_errors: vec![],
        seccomp: true,
        seccomp_error: None,
        seatbelt: false,
        seatbelt_error: None,
    };
    match preflight(SandboxMode::Full, &lacking) {
        Err(Error::SandboxIncomplete { missing }) => {
            assert!(missing[0].contains("Landlock"), "{missing:?}")
        }
        other => panic!("expected SandboxIncomplete, got {other:?}"),
    }
    assert!(preflight(SandboxMode::Landlock, &lacking).is_err());
    assert!(preflight(SandboxMode::Auto, &lacking).is_ok());
    let no_userns = Capabilities {
        landlock_abi: Some(7),
        userns: false,
        ..lacking
    };
    assert!(matches!(
        preflight(SandboxMode::Full, &no_userns),
        Err(Error::SandboxIncomplete { .. })
    ));
    assert!(preflight(SandboxMode::Landlock, &no_userns).is_ok());
    // Issue 25: `full` also needs the scope of Landlock ABI 6 and the system-call filter.
    let old_abi = Capabilities {
        landlock_abi: Some(5),
        ..no_userns.clone()
    };
    let old_abi = Capabilities {
        userns: true,
        ..old_abi
    };
    match preflight(SandboxMode::Full, &old_abi) {
        Err(Error::SandboxIncomplete { missing }) => {
            assert_eq!(missing.len(), 1, "{missing:?}");
            assert!(missing[0].contains("Landlock ABI 6"), "{missing:?}");
            assert!(missing[0].contains("ABI 5"), "{missing:?}");
        }
        other => panic!("expected SandboxIncomplete, got {other:?}"),
    }
    let no_seccomp = Capabilities {
        landlock_abi: Some(6),
        seccomp: false,
        seccomp_error: Some("installing the filter: Invalid argument".into()),
        ..old_abi
    };
    match preflight(SandboxMode::Full, &no_seccomp) {
        Err(Error::SandboxIncomplete { missing }) => {
            assert_eq!(missing.len(), 1, "{missing:?}");
            assert!(missing[0].contains("seccomp"), "{missing:?}");
            assert!(missing[0].contains("Invalid argument"), "{missing:?}");
        }
        other => panic!("expected SandboxIncomplete, got {other:?}"),
    }
    assert!(preflight(SandboxMode::Auto, &no_seccomp).is_ok());
    let complete = Capabilities {
        seccomp: true,
        seccomp_error: None,
        ..no_seccomp
    };
    assert!(preflight(SandboxMode::Full, &complete).is_ok());
}

/// A listener on a pathname UNIX socket (outside every allowed folder, as `$SSH_AUTH_SOCK`
/// or `/run/user/UID/bus` are) and one on an abstract socket: each counts the connections
/// it accepted, which is what a user-session service would have obeyed.
struct SessionService {
    path: std::path::PathBuf,
    abstract_name: String,
    accepted: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl SessionService {
    fn start(dir: &Path) -> SessionService {
        use std::os::linux::net::SocketAddrExt;
        use std::os::unix::net::{SocketAddr, UnixListener};
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::Arc;
        let path = dir.join("bus");
        // Unique per service: the previous mode's listener thread may still hold its name
        // for a few milliseconds after the drop (CI once failed with EADDRINUSE here).
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let abstract_name = format!(
            "harness-test-session-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        let by_path = UnixListener::bind(&path).unwrap();
        let addr = SocketAddr::from_abstract_name(abstract_name.as_bytes()).unwrap();
        let by_name = UnixListener::bind_addr(&addr).unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mut threads = Vec::new();
        for l in [by_path, by_name] {
            l.set_nonblocking(true).unwrap();
            let (accepted, stop) = (accepted.clone(), stop.clone());
            threads.push(std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    match l.accept() {
                        Ok(_) => {
                            accepted.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(_) => std::thread::sleep(std::time::Duration::from_millis(5)),
                    }
                }
            }));
        }
        SessionService {
            path,
            abstract_name,
            accepted,
            stop,
            threads,
        }
    }

    fn accepted(&self) -> usize {
        // Connections are accepted asynchronously: give the threads a moment.
        std::thread::sleep(std::time::Duration::from_millis(100));
        self.accepted.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for SessionService {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Connects to both sockets and opens `/dev/tty`, writing `open` or `closed <why>` per try.
const SESSION_AGENT: &str = r#"
import os, socket, sys
out, path, name = sys.argv[1:4]
def note(channel, why):
    with open(os.path.join(out, channel), "w") as f:
        f.write(why)
for channel, addr in (("path", path), ("abstract", "\0" + name)):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(addr)
        s.close()
        note(channel, "open")
    except OSError as e:
        note(channel, "closed " + str(e))
try:
    os.close(os.open("/dev/tty", os.O_WRONLY))
    note("tty", "open")
except OSError as e:
    note("tty", "closed " + str(e))
a, b = socket.socketpair()
a.sendall(b"x")
note("socketpair", "works" if b.recv(1) == b"x" else "broken")
"#;

#[test]
fn session_sockets_and_the_terminal_are_closed_under_auto_and_full() {
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    // The project's CI machine has every layer: a missing one fails here, never skips.
    let missing = probe().missing_for_full();
    assert!(
        missing.is_empty(),
        "--sandbox full unavailable: {missing:?}"
    );
    for mode in [SandboxMode::None, SandboxMode::Auto, SandboxMode::Full] {
        let f = fixture(mode);
        let outside = f.outside_secret.parent().unwrap();
        let service = SessionService::start(outside);
        // The system's python: a pyenv shim on the test's PATH runs pyenv from the home.
        let argv: Vec<OsString> = vec![
            "/usr/bin/python3".into(),
            "-c".into(),
            SESSION_AGENT.into(),
            f.results.clone().into_os_string(),
            service.path.clone().into_os_string(),
            service.abstract_name.clone().into(),
        ];
        let code = run_sandboxed(&f.req, &argv).expect("wrapper runs");
        let iso = read_report(&f.req.report).unwrap();
        assert_eq!(code, 0, "{mode:?}: {iso:?}");
        assert_eq!(result(&f, "socketpair"), "works", "{mode:?}");
        if mode == SandboxMode::None {
            // The control: the service is reachable when nothing closes it.
            assert_eq!(result(&f, "path"), "open");
            assert_eq!(result(&f, "abstract"), "open");
            assert_eq!(service.accepted(), 2);
            assert!(!iso.seccomp);
            continue;
        }
        assert!(iso.seccomp, "{mode:?}: {iso:?}");
        assert_eq!(iso.level, "full", "{mode:?}: {iso:?}");
        for channel in ["path", "abstract", "tty"] {
            let r = result(&f, channel);
            assert!(r.starts_with("closed "), "{mode:?} {channel}: {r}");
        }
        assert!(
            result(&f, "path").contains("Permission denied"),
            "refused by the filter"
        );
        assert_eq!(service.accepted(), 0, "{mode:?}: the service was reached");
    }
}

/// Issue 24: an agent installed the usual per-user ways gets its program and its package,
/// never a folder holding the home: a past round's answers under
/// `~/.local/state/harness/rounds` and `~/.ssh` stay unreadable under auto and full.
#[test]
fn per_user_installs_read_their_package_never_the_home() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let _g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let missing = probe().missing_for_full();
    assert!(
        missing.is_empty(),
        "--sandbox full unavailable: {missing:?}"
    );
    // The agent: reads the two secrets and its own package's data file (`$1`, may be empty).
    let agent = |pkg_file: &str| {
        format!(
            "#!/bin/sh\nout=$RESULTS\nhead -c 40 \"$SECRET_KEY\" > \"$out/key\" 2>&1; echo $? > \"$out/key.rc\"\n\
             head -c 40 \"$PAST_ANSWER\" > \"$out/past\" 2>&1; echo $? > \"$out/past.rc\"\n\
             if [ -n \"{pkg_file}\" ]; then cat \"{pkg_file}\" > \"$out/pkg\" 2>&1; else echo none > \"$out/pkg\"; fi\n"
        )
    };
    let write_exe = |p: &Path, text: &str| {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
        fs::set_permissions(p, fs::Permissions::from_mode(0o755)).unwrap();
    };
    // (layout, a maker that lays it out in a home and returns the folder to put on PATH)
    type MakeLayout<'a> = Box<dyn Fn(&Path) -> std::path::PathBuf + 'a>;
    let layouts: Vec<(&str, MakeLayout)> = vec![
        (
            "npm global prefix ~/.local",
            Box::new(|h: &Path| {
                let pkg = h.join(".local/lib/node_modules/agentpkg");
                fs::create_dir_all(&pkg).unwrap();
                fs::write(pkg.join("data.txt"), "package data\n").unwrap();
                write_exe(
                    &pkg.join("cli.sh"),
                    &agent(&pkg.join("data.txt").to_string_lossy()),
                );
                fs::create_dir_all(h.join(".local/bin")).unwrap();
                symlink(
                    "../lib/node_modules/agentpkg/cli.sh",
                    h.join(".local/bin/agent"),
                )
                .unwrap();
                h.join(".local/bin")
            }),
        ),
        (
            "~/.local/bin + ~/.local/share/claude/versions",
            Box::new(|h: &Path| {
                let v = h.join(".local/share/claude/versions/2.1.0");
                write_exe(&v, &agent(""));
                fs::create_dir_all(h.join(".local/bin")).unwrap();
                symlink(&v, h.join(".local/bin/agent")).unwrap();
                h.join(".local/bin")
            }),
        ),
        (
            "pipx",
            Box::new(|h: &Path| {
                let venv = h.join(".local/share/pipx/venvs/agent");
                fs::create_dir_all(venv.join("lib")).unwrap();
                fs::write(venv.join("pyvenv.cfg"), "home = /usr/bin\n").unwrap();
                fs::write(venv.join("lib/data.txt"), "package data\n").unwrap();
                write_exe(
                    &venv.join("bin/agent"),
                    &agent(&venv.join("lib/data.txt").to_string_lossy()),
                );
                fs::create_dir_all(h.join(".local/bin")).unwrap();
                symlink(venv.join("bin/agent"), h.join(".local/bin/agent")).unwrap();
                h.join(".local/bin")
            }),
        ),
        (
            // pip --user's layout: a lone file, and no `~/.local/share` beside the state.
            "~/.local/bin plain file",
            Box::new(|h: &Path| {
                write_exe(&h.join(".local/bin/agent"), &agent(""));
                h.join(".local/bin")
            }),
        ),
        (
            "~/bin",
            Box::new(|h: &Path| {
                write_exe(&h.join("bin/agent"), &agent(""));
                h.join("bin")
            }),
        ),
    ];
    for (name, make) in &layouts {
        for mode in [SandboxMode::Auto, SandboxMode::Full] {
            let f = fixture(mode);
            let user = tempfile::tempdir().unwrap();
            let h = user.path().join("home");
            fs::create_dir_all(h.join(".ssh")).unwrap();
            fs::write(h.join(".ssh/id_ed25519"), "PRIVATE KEY\n").unwrap();
            let rounds = h.join(".local/state/harness/rounds/old");
            fs::create_dir_all(&rounds).unwrap();
            fs::write(rounds.join("answer.txt"), "ARM ANSWER\n").unwrap();
            let bin = make(&h);
            std::env::set_var("PATH", format!("{}:/usr/bin:/bin", bin.display()));
            std::env::set_var("RESULTS", &f.results);
            std::env::set_var("SECRET_KEY", h.join(".ssh/id_ed25519"));
            std::env::set_var("PAST_ANSWER", rounds.join("answer.txt"));
            let code = run_sandboxed(&f.req, &["agent".into()]).expect("wrapper runs");
            let iso = read_report(&f.req.report).unwrap();
            assert_eq!(code, 0, "{name} {mode:?}: {iso:?}");
            for secret in ["key", "past"] {
                assert_ne!(
                    result(&f, &format!("{secret}.rc")),
                    "0",
                    "{name} {mode:?}: {secret} read: {}",
                    result(&f, secret)
                );
                assert!(
                    result(&f, secret).contains("Permission denied"),
                    "{name} {mode:?}: {}",
                    result(&f, secret)
                );
            }
            let pkg = result(&f, "pkg");
            assert!(
                pkg == "none" || pkg == "package data",
                "{name} {mode:?}: own package unreadable: {pkg}"
            );
        }
    }
}
