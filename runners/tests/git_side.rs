//! The git side of the runner against real repositories made with git2 in temp dirs.
//! Fixture tokens are assembled at run time and never written out literally.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use git2::{IndexEntry, IndexTime, Oid, Repository, Signature};
use runners::{
    remove_tree, resolve_base, search_needles, tracked_at_base, Corpus, EntryKind, Error,
    NeedleSet, Plant, Seal, TempRoot, Template,
};
use tempfile::TempDir;

fn tok(n: u32) -> String {
    format!("zq{}v{}tok", n, "kx")
}

/// A repository in a temp dir; files are (path, bytes, executable).
struct Fixture {
    dir: TempDir,
    repo: Repository,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        Fixture { dir, repo }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, path: &str, bytes: &[u8], exec: bool) -> &Self {
        let p = self.root().join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, bytes).unwrap();
        let mode = if exec { 0o755 } else { 0o644 };
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    fn link(&self, path: &str, target: &str) -> &Self {
        let p = self.root().join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, &p).unwrap();
        self
    }

    /// Stages the given paths (adds or removes) and commits.
    fn commit(&self, paths: &[&str]) -> Oid {
        let mut index = self.repo.index().unwrap();
        for p in paths {
            if fs::symlink_metadata(self.root().join(p)).is_ok() {
                index.add_path(Path::new(p)).unwrap();
            } else {
                index.remove_path(Path::new(p)).unwrap();
            }
        }
        index.write().unwrap();
        self.commit_index(&mut index)
    }

    fn commit_index(&self, index: &mut git2::Index) -> Oid {
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("t", "t@example.invalid").unwrap();
        let parents: Vec<git2::Commit> = match self.repo.head() {
            Ok(h) => vec![h.peel_to_commit().unwrap()],
            Err(_) => vec![],
        };
        let refs: Vec<&git2::Commit> = parents.iter().collect();
        self.repo
            .commit(Some("HEAD"), &sig, &sig, "c", &tree, &refs)
            .unwrap()
    }

    fn corpus(&self) -> Corpus {
        Corpus::load(&resolve_base(self.root(), None, None).unwrap()).unwrap()
    }
}

fn hits_of(corpus: &Corpus, needles: &[String]) -> Vec<Vec<String>> {
    let set = NeedleSet::new(needles).unwrap();
    search_needles(corpus, &set).unwrap().hits
}

#[test]
fn tracked_hits_and_untracked_ignored_or_old_do_not() {
    let f = Fixture::new();
    let (t_tracked, t_ignored, t_untracked, t_old) = (tok(1), tok(2), tok(3), tok(4));
    f.write("old.txt", format!("before {t_old} after").as_bytes(), false);
    f.commit(&["old.txt"]);
    fs::remove_file(f.root().join("old.txt")).unwrap();
    f.write("src/a.rs", format!("// {t_tracked}\n").as_bytes(), false)
        .write(".gitignore", b"logs/\n", false)
        .write("logs/run.log", t_ignored.as_bytes(), false)
        .write("scratch.txt", t_untracked.as_bytes(), false);
    f.commit(&["old.txt", "src/a.rs", ".gitignore"]);

    let corpus = f.corpus();
    let hits = hits_of(&corpus, &[t_tracked, t_ignored, t_untracked, t_old]);
    assert_eq!(hits[0], vec!["src/a.rs".to_string()]);
    assert!(hits[1].is_empty(), "ignored file searched: {:?}", hits[1]);
    assert!(hits[2].is_empty(), "untracked file searched: {:?}", hits[2]);
    assert!(hits[3].is_empty(), "older commit searched: {:?}", hits[3]);
}

#[test]
fn binary_and_case_variants_hit() {
    let f = Fixture::new();
    let t = tok(5);
    let mut bin = vec![0u8, 159, 146, 150, 0, 255];
    bin.extend_from_slice(t.as_bytes());
    bin.extend_from_slice(&[0, 1, 2, 0xC3]);
    let upper_ascii = tok(6).to_ascii_uppercase();
    // Non-ASCII needles and haystacks differing from them only in letter case, both ways.
    let umlaut_upper_needle = format!("Ä{}ß", tok(7));
    let umlaut_lower_needle = format!("σ{}é", tok(9));
    let umlaut_hay = format!("x ä{}ß y", tok(7).to_uppercase());
    let sigma_hay = format!("x Σ{}É y", tok(9));
    f.write("blob.bin", &bin, false)
        .write(
            "doc.md",
            format!("see {upper_ascii} here").as_bytes(),
            false,
        )
        .write("de.txt", umlaut_hay.as_bytes(), false)
        .write("el.txt", sigma_hay.as_bytes(), false);
    f.commit(&["blob.bin", "doc.md", "de.txt", "el.txt"]);
    let hits = hits_of(
        &f.corpus(),
        &[t, tok(6), umlaut_upper_needle, tok(8), umlaut_lower_needle],
    );
    assert_eq!(hits[0], vec!["blob.bin".to_string()]);
    assert_eq!(hits[1], vec!["doc.md".to_string()]);
    assert_eq!(hits[2], vec!["de.txt".to_string()]);
    assert!(hits[3].is_empty());
    assert_eq!(hits[4], vec!["el.txt".to_string()]);
}

#[test]
fn symlink_target_text_is_searched_not_the_file_behind_it() {
    let outside = tempfile::tempdir().unwrap();
    let t_behind = tok(10);
    let t_in_target = tok(11);
    let secret = outside.path().join("secret.txt");
    fs::write(&secret, t_behind.as_bytes()).unwrap();
    let named = outside.path().join(&t_in_target);
    fs::write(&named, b"nothing").unwrap();

    let f = Fixture::new();
    f.link("to_secret", secret.to_str().unwrap())
        .link("by_name", named.to_str().unwrap());
    f.commit(&["to_secret", "by_name"]);
    let corpus = f.corpus();
    assert!(matches!(
        corpus.get("to_secret").unwrap().kind,
        EntryKind::Symlink { .. }
    ));
    let hits = hits_of(&corpus, &[t_behind, t_in_target]);
    assert!(hits[0].is_empty(), "followed a symlink out of the tree");
    assert_eq!(hits[1], vec!["by_name".to_string()]);
}

#[test]
fn missing_or_corrupt_object_is_an_error_not_zero_hits() {
    for corrupt in [false, true] {
        let f = Fixture::new();
        f.write("a.txt", b"plain text", false)
            .write("b.txt", b"other", false);
        f.commit(&["a.txt", "b.txt"]);
        let corpus = f.corpus();
        let oid = corpus.get("a.txt").unwrap().oid.to_string();
        let loose = f
            .repo
            .path()
            .join("objects")
            .join(&oid[..2])
            .join(&oid[2..]);
        if corrupt {
            fs::set_permissions(&loose, fs::Permissions::from_mode(0o644)).unwrap();
            fs::write(&loose, b"not zlib at all").unwrap();
        } else {
            fs::remove_file(&loose).unwrap();
        }
        let set = NeedleSet::new(&[tok(12)]).unwrap();
        match search_needles(&corpus, &set) {
            Err(Error::ObjectRead { path, .. }) => assert_eq!(path, "a.txt"),
            other => panic!("corrupt={corrupt}: expected ObjectRead, got {other:?}"),
        }
    }
}

#[test]
fn submodule_is_reported_not_searched() {
    let f = Fixture::new();
    f.write("a.txt", b"x", false);
    let mut index = f.repo.index().unwrap();
    index.add_path(Path::new("a.txt")).unwrap();
    let zero = IndexTime::new(0, 0);
    index
        .add(&IndexEntry {
            ctime: zero,
            mtime: zero,
            dev: 0,
            ino: 0,
            mode: 0o160000,
            uid: 0,
            gid: 0,
            file_size: 0,
            id: Oid::from_str("0123456789abcdef0123456789abcdef01234567").unwrap(),
            flags: 0,
            flags_extended: 0,
            path: b"vendor/sub".to_vec(),
        })
        .unwrap();
    f.commit_index(&mut index);
    let corpus = f.corpus();
    assert_eq!(corpus.get("vendor/sub").unwrap().kind, EntryKind::Submodule);
    let report = search_needles(&corpus, &NeedleSet::new(&[tok(13)]).unwrap()).unwrap();
    assert_eq!(report.not_searched, vec!["vendor/sub".to_string()]);
    assert_eq!(report.searched, 1);

    // The checkout has it as an empty folder, and the treediff accepts exactly that.
    let root = TempRoot::create(&[f.root()]).unwrap();
    let template = Template::build(&corpus, &Plant::default(), &root.fresh_dir().unwrap()).unwrap();
    let co = template.checkout(&root.path().join("co"), None).unwrap();
    assert!(co.path.join("vendor/sub").is_dir());
    assert_eq!(fs::read_dir(co.path.join("vendor/sub")).unwrap().count(), 0);
    root.remove().unwrap();
}

#[test]
fn needles_never_appear_in_debug_output() {
    let f = Fixture::new();
    let t = tok(14);
    f.write("a.txt", t.as_bytes(), false);
    f.commit(&["a.txt"]);
    let set = NeedleSet::new(std::slice::from_ref(&t)).unwrap();
    let report = search_needles(&f.corpus(), &set).unwrap();
    assert_eq!(report.hits[0], vec!["a.txt".to_string()]);
    for text in [format!("{set:?}"), format!("{report:?}")] {
        assert!(
            !text.to_lowercase().contains(&t),
            "needle leaked into {text}"
        );
    }
    let seal = Seal::new("n.md", t.clone().into_bytes()).unwrap();
    assert!(!format!("{seal:?}").contains(&t));
    assert!(matches!(
        NeedleSet::new(&[t.as_str(), ""]),
        Err(Error::EmptyNeedle { index: 1 })
    ));
}

#[test]
fn base_refs_must_agree_and_default_to_head() {
    let f = Fixture::new();
    f.write("a.txt", b"1", false);
    let first = f.commit(&["a.txt"]);
    f.write("a.txt", b"2", false);
    let second = f.commit(&["a.txt"]);
    f.repo
        .tag_lightweight("v1", &f.repo.find_object(first, None).unwrap(), false)
        .unwrap();

    let head = resolve_base(&f.root().join("."), None, None).unwrap();
    assert_eq!(head.commit, second.to_string());
    assert!(head.from_head);
    assert!(!head.dirty);

    let agree = resolve_base(f.root(), Some("v1"), Some(&first.to_string()[..10])).unwrap();
    assert_eq!(agree.commit, first.to_string());
    assert!(!agree.from_head);

    match resolve_base(f.root(), Some("v1"), Some(&second.to_string())) {
        Err(Error::BaseMismatch { ref_sha, sha, .. }) => {
            assert_eq!(ref_sha, first.to_string());
            assert_eq!(sha, second.to_string());
        }
        other => panic!("expected BaseMismatch, got {other:?}"),
    }
    assert!(matches!(
        resolve_base(f.root(), None, Some("HEAD")),
        Err(Error::BadSha { .. })
    ));
    assert!(matches!(
        resolve_base(f.root(), Some("no-such-ref"), None),
        Err(Error::BadRef { .. })
    ));

    // A sub-folder discovers the repository; a tracked edit makes it dirty, the base stays HEAD.
    fs::create_dir(f.root().join("sub")).unwrap();
    f.write("a.txt", b"3", false);
    let dirty = resolve_base(&f.root().join("sub"), None, None).unwrap();
    assert!(dirty.dirty);
    assert_eq!(dirty.commit, second.to_string());
    // Untracked files do not make it dirty.
    f.write("a.txt", b"2", false).write("new.txt", b"u", false);
    assert!(!resolve_base(f.root(), None, None).unwrap().dirty);
}

#[test]
fn self_containment_by_path_and_by_content() {
    let f = Fixture::new();
    let seal_bytes = format!("ledger {}", tok(15));
    f.write("notes/seal.md", seal_bytes.as_bytes(), false)
        .write("q.tsv", b"q1\tpositive\tq?\tx\n", false);
    f.commit(&["notes/seal.md", "q.tsv"]);
    let corpus = f.corpus();
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("seal.md");
    fs::write(&copy, seal_bytes.as_bytes()).unwrap();
    let fresh = elsewhere.path().join("other.tsv");
    fs::write(&fresh, b"nothing tracked").unwrap();
    let q = f.root().join("q.tsv");
    let checks = tracked_at_base(&corpus, &[&copy, &q, &fresh]).unwrap();
    assert_eq!(checks[0].by_path, None);
    assert_eq!(checks[0].by_content, vec!["notes/seal.md".to_string()]);
    assert_eq!(checks[1].by_path.as_deref(), Some("q.tsv"));
    assert!(!checks[2].is_tracked());
    assert!(tracked_at_base(&corpus, &[&elsewhere.path().join("absent")]).is_err());
}

fn sample_repo() -> Fixture {
    let f = Fixture::new();
    // README goes in before any .gitattributes, so its blob keeps its CRLF bytes.
    f.write("README.md", b"# demo\r\nline with crlf\r\n", false);
    f.commit(&["README.md"]);
    f.write(
        ".gitattributes",
        b"* text=auto eol=crlf\n*.sh filter=nosuch\n",
        false,
    )
    .write("bin/run.sh", b"#!/bin/sh\necho hi\n", true)
    .write("src/lib.rs", b"pub fn f() {}\n", false)
    .write("src/deep/x.bin", &[0, 1, 2, 3, 255, 10, 13], false)
    .link("link_rel", "src/lib.rs")
    .link("link_dangling", "../../nowhere/at/all");
    f.commit(&[
        ".gitattributes",
        "bin/run.sh",
        "src/lib.rs",
        "src/deep/x.bin",
        "link_rel",
        "link_dangling",
    ]);
    f
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .collect()
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn checkout_is_byte_exact_isolated_and_verified() {
    let f = sample_repo();
    // The seal lives in the user's repo in an ignored folder, as in real use.
    let seal_text = format!("handoff {}", tok(20));
    f.write(".gitignore", b"tracks/\n", false).write(
        "tracks/_meta/compaction/s.md",
        seal_text.as_bytes(),
        false,
    );
    let corpus = f.corpus();
    let root = TempRoot::create(&[f.root()]).unwrap();
    let plant = Plant::default();
    let template_dir = root.fresh_dir().unwrap();
    let template = Template::build(&corpus, &plant, &template_dir).unwrap();
    let seal = Seal::new("k3m9q2xw7a.md", seal_text.clone().into_bytes()).unwrap();

    let arm = template
        .checkout(&root.path().join("armco"), Some(&seal))
        .unwrap();
    let ctrl = template
        .checkout(&root.path().join("ctrlco"), None)
        .unwrap();

    // Treediff: ARM differs from the corpus by exactly the seal; CTRL by nothing.
    let planted = "tracks/_meta/compaction/k3m9q2xw7a.md".to_string();
    assert_eq!(arm.treediff.extra, vec![planted.clone()]);
    assert_eq!(arm.treediff.planted, Some(planted.clone()));
    assert!(arm.treediff.missing.is_empty() && arm.treediff.changed.is_empty());
    assert!(ctrl.treediff.extra.is_empty());
    assert!(ctrl.treediff.missing.is_empty() && ctrl.treediff.changed.is_empty());
    assert_eq!(
        fs::read(arm.path.join(&planted)).unwrap(),
        seal_text.as_bytes()
    );
    assert!(!ctrl.path.join("tracks").exists());

    for co in [&arm.path, &ctrl.path] {
        // Bytes, modes and links as at base: no eol conversion despite .gitattributes.
        assert_eq!(
            fs::read(co.join("README.md")).unwrap(),
            b"# demo\r\nline with crlf\r\n"
        );
        assert_eq!(
            fs::read(co.join("src/deep/x.bin")).unwrap(),
            [0, 1, 2, 3, 255, 10, 13]
        );
        let mode = |p: &str| fs::metadata(co.join(p)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("bin/run.sh") & 0o111, 0o111);
        assert_eq!(mode("src/lib.rs") & 0o111, 0);
        assert_eq!(
            fs::read_link(co.join("link_rel")).unwrap(),
            Path::new("src/lib.rs")
        );
        assert_eq!(
            fs::read_link(co.join("link_dangling")).unwrap(),
            Path::new("../../nowhere/at/all")
        );

        // No path back: no file under .git mentions the source repo (or the template).
        for needle in [
            f.root().to_str().unwrap(),
            f.repo.path().to_str().unwrap(),
            template_dir.to_str().unwrap(),
        ] {
            for file in all_files(&co.join(".git")) {
                let bytes = fs::read(&file).unwrap();
                assert!(
                    !bytes.windows(needle.len()).any(|w| w == needle.as_bytes()),
                    "{} mentions {needle}",
                    file.display()
                );
            }
        }
        assert!(!co.join(".git/objects/info/alternates").exists());
        assert_eq!(git(co, &["remote"]), "");
        assert_eq!(git(co, &["log", "--all", "--oneline"]).lines().count(), 1);
        assert_eq!(
            git(co, &["rev-list", "--all", "--reflog"]).lines().count(),
            1
        );
        assert_eq!(
            git(co, &["rev-parse", "HEAD^{tree}"]).trim(),
            corpus.base.tree
        );
        assert_eq!(
            git(co, &["status", "--porcelain", "--untracked-files=all"]),
            ""
        );
        assert_eq!(git(co, &["fsck", "--full", "--strict"]), "");
    }
    // The planted seal is ignored in ARM, and both arms carry the same exclude rule.
    git(&arm.path, &["check-ignore", "-q", &planted]);
    assert_eq!(
        fs::read(arm.path.join(".git/info/exclude")).unwrap(),
        fs::read(ctrl.path.join(".git/info/exclude")).unwrap()
    );
    assert_eq!(
        git(
            &arm.path,
            &["ls-files", "--others", "--ignored", "--exclude-standard"]
        )
        .trim(),
        planted
    );
    root.remove().unwrap();
}

#[test]
fn tampered_checkouts_fail_the_treediff() {
    let f = sample_repo();
    let corpus = f.corpus();
    let root = TempRoot::create(&[f.root()]).unwrap();
    let template = Template::build(&corpus, &Plant::default(), &root.fresh_dir().unwrap()).unwrap();
    let seal = Seal::new("s.md", b"seal body".to_vec()).unwrap();

    type Tamper = fn(&Path);
    let cases: Vec<(&str, Option<&Seal>, Tamper, &str)> = vec![
        (
            "extra file",
            None,
            |p| fs::write(p.join("new.txt"), b"x").unwrap(),
            "extra",
        ),
        (
            "extra empty dir",
            None,
            |p| fs::create_dir(p.join("nd")).unwrap(),
            "extra",
        ),
        (
            "same-size byte change",
            None,
            |p| fs::write(p.join("src/lib.rs"), b"pub fn g() {}\n").unwrap(),
            "changed",
        ),
        (
            "exec bit",
            None,
            |p| {
                fs::set_permissions(p.join("src/lib.rs"), fs::Permissions::from_mode(0o755))
                    .unwrap()
            },
            "changed",
        ),
        (
            "relinked",
            None,
            |p| {
                fs::remove_file(p.join("link_rel")).unwrap();
                symlink("src/deep/x.bin", p.join("link_rel")).unwrap();
            },
            "changed",
        ),
        (
            "removed",
            None,
            |p| fs::remove_file(p.join("README.md")).unwrap(),
            "missing",
        ),
        (
            "seal bytes changed",
            Some(&seal),
            |p| fs::write(p.join("tracks/_meta/compaction/s.md"), b"seal BODY").unwrap(),
            "changed",
        ),
        (
            "seal plus another",
            Some(&seal),
            |p| fs::write(p.join("tracks/_meta/compaction/t.md"), b"x").unwrap(),
            "extra",
        ),
        (
            "seal removed",
            Some(&seal),
            |p| fs::remove_file(p.join("tracks/_meta/compaction/s.md")).unwrap(),
            "missing",
        ),
    ];
    for (i, (name, seal, tamper, field)) in cases.into_iter().enumerate() {
        let co = template
            .checkout(&root.path().join(format!("c{i}")), seal)
            .unwrap();
        assert!(co.treediff.is_exact(), "{name}: exact before tampering");
        tamper(&co.path);
        let d = template.treediff(&co.path, seal).unwrap();
        assert!(!d.is_exact(), "{name}: tampering not seen: {d:?}");
        let list = match field {
            "extra" => &d.extra,
            "missing" => &d.missing,
            _ => &d.changed,
        };
        assert!(
            list.iter()
                .any(|p| field != "extra" || Some(p) != d.planted.as_ref()),
            "{name}: expected an entry in {field}: {d:?}"
        );
    }
    // A CTRL verification of an ARM checkout is not exact either (the seal is extra).
    let arm = template
        .checkout(&root.path().join("arm"), Some(&seal))
        .unwrap();
    assert!(!template.treediff(&arm.path, None).unwrap().is_exact());
    root.remove().unwrap();
}

#[test]
fn plant_collisions_and_bad_names_are_refused() {
    let f = Fixture::new();
    f.write("tracks", b"a file where the plant folder would go", false)
        .write("notes/s.md", b"x", false);
    f.commit(&["tracks", "notes/s.md"]);
    let corpus = f.corpus();
    let out = tempfile::tempdir().unwrap();
    assert!(matches!(
        Template::build(&corpus, &Plant::default(), &out.path().join("t1")),
        Err(Error::PlantCollision { .. })
    ));
    let template = Template::build(
        &corpus,
        &Plant::new("notes/").unwrap(),
        &out.path().join("t2"),
    )
    .unwrap();
    let seal = Seal::new("s.md", b"y".to_vec()).unwrap();
    assert!(matches!(
        template.checkout(&out.path().join("c"), Some(&seal)),
        Err(Error::PlantCollision { .. })
    ));
    for bad in ["", "/abs", "a/../b", ".git/x", "a//b", "./a"] {
        assert!(Plant::new(bad).is_err(), "{bad}");
    }
    for bad in ["a/b", "..", ".git", ""] {
        assert!(Seal::new(bad, vec![]).is_err(), "{bad}");
    }
}

#[test]
fn temp_root_layout_modes_and_removal() {
    let f = Fixture::new();
    let root = TempRoot::create(&[f.root()]).unwrap();
    assert!(root
        .path()
        .starts_with(std::env::temp_dir().canonicalize().unwrap()));
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(root.path()), 0o700);
    let label = runners::unique_labels(1).remove(0);
    let d = root.dispatch(&label).unwrap();
    for p in [&d.root, &d.work, &d.home, &d.tmp] {
        assert_eq!(mode(p), 0o700, "{}", p.display());
    }
    assert_eq!(d.work, root.path().join(label.as_str()).join("work"));
    assert!(
        root.dispatch(&label).is_err(),
        "a label folder is never reused"
    );

    // Read-only files and folders are removed too.
    fs::write(d.work.join("ro"), b"x").unwrap();
    fs::set_permissions(d.work.join("ro"), fs::Permissions::from_mode(0o400)).unwrap();
    fs::set_permissions(&d.work, fs::Permissions::from_mode(0o500)).unwrap();
    fs::set_permissions(&d.home, fs::Permissions::from_mode(0o000)).unwrap();
    let path = root.path().to_path_buf();
    root.remove().unwrap();
    assert!(!path.exists());
    remove_tree(&path).unwrap();

    // A temp root inside the repository (or the out-dir) is refused.
    assert!(matches!(
        TempRoot::create_in(&f.root().join("."), &[f.root()]),
        Err(Error::TempRootInside { .. })
    ));
    let sub = f.root().join("deeper");
    fs::create_dir(&sub).unwrap();
    assert!(matches!(
        TempRoot::create_in(&sub, &[&f.root().join("deeper/../")]),
        Err(Error::TempRootInside { .. })
    ));
}

/// A commit whose root tree holds one blob under a name written raw into the tree object
/// (libgit2 refuses to build such trees through its checked API).
fn crafted_tree_commit(f: &Fixture, names: &[&str]) -> Oid {
    let blob = f.repo.blob(b"payload").unwrap();
    let mut raw = Vec::new();
    let mut sorted: Vec<&str> = names.to_vec();
    sorted.sort();
    for name in sorted {
        raw.extend_from_slice(b"100644 ");
        raw.extend_from_slice(name.as_bytes());
        raw.push(0);
        raw.extend_from_slice(blob.as_bytes());
    }
    let tree_id = f
        .repo
        .odb()
        .unwrap()
        .write(git2::ObjectType::Tree, &raw)
        .unwrap();
    let tree = f.repo.find_tree(tree_id).unwrap();
    let sig = Signature::now("t", "t@example.invalid").unwrap();
    f.repo
        .commit(Some("HEAD"), &sig, &sig, "crafted", &tree, &[])
        .unwrap()
}

#[test]
fn crafted_trees_that_could_escape_the_checkout_are_refused() {
    for names in [&[".."][..], &[".GIT"], &["a", "a"]] {
        let f = Fixture::new();
        crafted_tree_commit(&f, names);
        let base = resolve_base(f.root(), None, None).unwrap();
        match Corpus::load(&base) {
            Err(Error::UnsafePath { .. }) => {}
            other => panic!("{names:?}: expected UnsafePath, got {other:?}"),
        }
    }
    // The same construction with an ordinary name loads (the helper itself is sound).
    let f = Fixture::new();
    crafted_tree_commit(&f, &["fine.txt"]);
    let corpus = Corpus::load(&resolve_base(f.root(), None, None).unwrap()).unwrap();
    assert_eq!(corpus.entries.len(), 1);
}
