//! `harness self-test` (DESIGN §8): the scorer's fixture lanes, the self-contamination lanes
//! (L13, L13-CTRL) and the instrument lanes. One line per lane, then `SELFTEST: N passed, N failed`.

use anyhow::Result;
use std::path::{Path, PathBuf};

/// The control needle of L13-CTRL. It must live only outside `scorer/`: a search whose root was
/// narrowed to the scorer folder (the seed's mutant M5) then finds nothing and the lane goes red.
/// A needle that also lived in the scorer would keep the lane green under that mutant.
pub const CONTROL_NEEDLE: &str = "continuity-selftest-control-needle";

/// One lane's outcome, as printed.
#[derive(Debug, Clone)]
pub struct Lane {
    /// Lane id, e.g. `L13`.
    pub id: String,
    /// What it checks.
    pub description: String,
    /// What it observed.
    pub got: String,
    /// What it wanted.
    pub want: String,
}

impl Lane {
    /// Whether the lane passed.
    pub fn ok(&self) -> bool {
        self.got == self.want
    }
}

impl From<scorer::fixtures::LaneOutcome> for Lane {
    fn from(o: scorer::fixtures::LaneOutcome) -> Self {
        Lane {
            id: o.id,
            description: o.description,
            got: o.got,
            want: o.want,
        }
    }
}

/// A lane that could not run here. Printed as `skip` with its reason and counted apart: a lane
/// that did not run never adds to "passed".
#[derive(Debug, Clone)]
pub struct Skipped {
    /// Lane id.
    pub id: String,
    /// What it would have checked.
    pub description: String,
    /// Why it did not run.
    pub reason: String,
}

/// What a whole-tree search saw: hits per needle and everything it could not read.
#[derive(Debug, Default)]
pub struct TreeSearch {
    /// For each needle, the files holding it.
    pub hits: Vec<Vec<PathBuf>>,
    /// Files or folders that could not be read: a search with any of these is not "0 hits".
    pub errors: Vec<String>,
    /// Folders left out because they carry a `CACHEDIR.TAG` (build caches such as `target/`).
    pub skipped_caches: Vec<PathBuf>,
    /// Files read.
    pub files: usize,
}

/// Searches every file under `root` — ignored files included, symlinks followed, `.git` and
/// tagged cache folders left out — for all needles at once. Read errors are collected, never
/// dropped: the caller must treat a search with errors as unmeasured.
pub fn search_tree(root: &Path, needles: &[&str]) -> TreeSearch {
    let ac = aho_corasick::AhoCorasick::new(needles).expect("fixed-string needles always build");
    let mut out = TreeSearch {
        hits: vec![Vec::new(); needles.len()],
        ..Default::default()
    };
    let mut walk = walkdir::WalkDir::new(root).follow_links(true).into_iter();
    while let Some(entry) = walk.next() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                if e.loop_ancestor().is_some() {
                    // A symlink cycle: its content is read on the first visit.
                    continue;
                }
                out.errors.push(e.to_string());
                continue;
            }
        };
        let path = entry.path();
        if entry.file_type().is_dir() {
            if entry.file_name() == ".git" {
                walk.skip_current_dir();
            } else if path.join("CACHEDIR.TAG").is_file() {
                out.skipped_caches.push(path.to_path_buf());
                walk.skip_current_dir();
            }
            continue;
        }
        if !entry.file_type().is_file() {
            continue;
        }
        match std::fs::read(path) {
            Ok(bytes) => {
                out.files += 1;
                let mut seen = vec![false; needles.len()];
                for m in ac.find_overlapping_iter(&bytes) {
                    seen[m.pattern().as_usize()] = true;
                }
                for (i, s) in seen.iter().enumerate() {
                    if *s {
                        out.hits[i].push(path.to_path_buf());
                    }
                }
            }
            Err(e) => out.errors.push(format!("{}: {e}", path.display())),
        }
    }
    out
}

/// L13 and L13-CTRL over the repository's working tree at `root`.
pub fn contamination_lanes(root: Option<&Path>) -> Vec<Lane> {
    let l13 = "the assembled fixture token has zero hits in the whole working tree (ignored files included, symlinks followed)";
    let ctl = "the same search finds a known needle that lives only outside scorer/";
    let Some(root) = root else {
        let why =
            "no repository here: run inside the harness repository or pass --repo".to_string();
        return vec![
            Lane {
                id: "L13".into(),
                description: l13.into(),
                got: why.clone(),
                want: "0 hits".into(),
            },
            Lane {
                id: "L13-CTRL".into(),
                description: ctl.into(),
                got: why,
                want: "found outside scorer/ only".into(),
            },
        ];
    };
    let token = scorer::fixtures::fixture_token();
    let found = search_tree(root, &[token.as_str(), CONTROL_NEEDLE]);
    let l13_got = if !found.errors.is_empty() {
        format!(
            "SEARCH ERROR ({} unreadable, e.g. {})",
            found.errors.len(),
            crate::text::clean_line(&found.errors[0], 120)
        )
    } else if found.files == 0 {
        "SEARCH ERROR (no file read)".into()
    } else {
        let n = found.hits[0].len();
        if n == 0 {
            "0 hits".into()
        } else {
            format!(
                "{n} hits, e.g. {}",
                found.hits[0][0]
                    .strip_prefix(root)
                    .unwrap_or(&found.hits[0][0])
                    .display()
            )
        }
    };
    let scorer_dir = root.join("scorer");
    let (inside, outside): (Vec<_>, Vec<_>) = found.hits[1]
        .iter()
        .partition(|p| p.starts_with(&scorer_dir));
    let ctl_got = if !found.errors.is_empty() {
        "SEARCH ERROR".into()
    } else if !inside.is_empty() {
        format!(
            "needle also inside scorer/ ({} files): the control cannot discriminate",
            inside.len()
        )
    } else if outside.is_empty() {
        "not found: the search is broken".into()
    } else {
        "found outside scorer/ only".into()
    };
    vec![
        Lane {
            id: "L13".into(),
            description: l13.into(),
            got: l13_got,
            want: "0 hits".into(),
        },
        Lane {
            id: "L13-CTRL".into(),
            description: ctl.into(),
            got: ctl_got,
            want: "found outside scorer/ only".into(),
        },
    ]
}

/// The repository's working tree the command runs in (or `--repo`), if any.
pub fn repo_root(explicit: Option<&Path>) -> Option<PathBuf> {
    let start = explicit
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())?;
    let repo = git2::Repository::discover(&start).ok()?;
    repo.workdir().map(Path::to_path_buf)
}

/// Whether `root` is a checkout of harness itself: L13 guards this project's own source tree,
/// so in a user's repository (or no repository) it has nothing to search.
pub fn is_harness_checkout(root: &Path) -> bool {
    ["scorer/src/fixtures.rs", "harness/src/commands/selftest.rs"]
        .iter()
        .all(|p| root.join(p).is_file())
}

/// The source-tree lanes for this invocation: run on `--repo` when given, else on the harness
/// checkout the command runs in; anywhere else they are skipped, with the reason.
pub fn source_tree_lanes(explicit: Option<&Path>) -> (Vec<Lane>, Vec<Skipped>) {
    match (repo_root(explicit), explicit) {
        (Some(r), Some(_)) => (contamination_lanes(Some(&r)), Vec::new()),
        (Some(r), None) if is_harness_checkout(&r) => (contamination_lanes(Some(&r)), Vec::new()),
        // `--repo` that is no repository: the lanes run and fail saying so.
        (None, Some(_)) => (contamination_lanes(None), Vec::new()),
        _ => (Vec::new(), skipped_l13("not in the harness checkout")),
    }
}

fn skipped_l13(why: &str) -> Vec<Skipped> {
    let reason = format!("skipped: {why}; run it there or pass --repo DIR");
    ["L13", "L13-CTRL"]
        .iter()
        .map(|id| Skipped {
            id: id.to_string(),
            description: "the fixture token is absent from the harness source tree".into(),
            reason: reason.clone(),
        })
        .collect()
}

/// Prints the lanes and the closing line; returns (passed, failed).
pub fn print_lanes(lanes: &[Lane]) -> (usize, usize) {
    let mut passed = 0;
    let mut failed = 0;
    for l in lanes {
        if l.ok() {
            passed += 1;
            println!(
                "ok    {:<14} {}",
                l.id,
                crate::text::clean_line(&l.description, 160)
            );
        } else {
            failed += 1;
            println!(
                "FAIL  {:<14} {} (got {}, want {})",
                l.id,
                crate::text::clean_line(&l.description, 160),
                crate::text::clean_line(&l.got, 200),
                crate::text::clean_line(&l.want, 200)
            );
        }
    }
    (passed, failed)
}

/// The checks the gate lanes exercise, passed in so a test can disable one and watch its lane
/// go red (a lane that stays green with its check removed guards nothing).
pub struct GateChecks {
    /// The start gate.
    pub gate: fn(&crate::gates::start::GateInput<'_>) -> Result<crate::gates::start::GateReport>,
    /// The manifest's content comparison.
    pub compare: fn(
        &crate::gates::manifest::Manifest,
        crate::gates::manifest::Role,
        Option<&Path>,
        &Path,
    ) -> crate::gates::manifest::Check,
}

impl GateChecks {
    /// The real checks.
    pub fn real() -> Self {
        GateChecks {
            gate: crate::gates::start::check,
            compare: crate::gates::manifest::check_file,
        }
    }
}

/// Gate lanes on a repository this lane builds itself in a temp folder: a contaminated token
/// exits 5 and is never printed, a manifest mismatch exits 10, a seal that cannot carry a
/// positive is refused.
pub fn gate_lanes(checks: &GateChecks) -> Vec<Lane> {
    match gate_lanes_inner(checks) {
        Ok(l) => l,
        Err(e) => vec![Lane {
            id: "G0".into(),
            description: "gate lanes could build their temp repository".into(),
            got: format!("error: {}", crate::text::clean_line(&format!("{e:#}"), 200)),
            want: "built".into(),
        }],
    }
}

fn gate_lanes_inner(checks: &GateChecks) -> Result<Vec<Lane>> {
    use crate::exit::Exit;
    use crate::gates::start::{GateInput, Phase};
    let dir = tempfile::tempdir()?;
    let repo_dir = dir.path().join("repo");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&repo_dir)?;
    std::fs::create_dir_all(&work)?;
    // Assembled at run time: neither this source nor the binary holds them literally.
    let pos = format!(
        "gq{}{}lane",
        std::hint::black_box(4),
        std::hint::black_box("pv")
    );
    let neg = format!(
        "gq{}{}lane",
        std::hint::black_box(5),
        std::hint::black_box("nv")
    );
    std::fs::write(repo_dir.join("README.md"), "A tiny project.\n")?;
    std::fs::write(
        repo_dir.join("notes.md"),
        format!("an old note mentions {}\n", neg.to_uppercase()),
    )?;
    let repo = git2::Repository::init(&repo_dir)?;
    let mut index = repo.index()?;
    index.add_all(["*"].iter(), git2::IndexAddOption::DEFAULT, None)?;
    let tree = repo.find_tree(index.write_tree()?)?;
    let sig = git2::Signature::new("lane", "lane@harness.invalid", &git2::Time::new(0, 0))?;
    repo.commit(Some("HEAD"), &sig, &sig, "lane base", &tree, &[])?;
    let qset_text =
        format!("q1\tpositive\tWhat is the codename?\t{pos}\nq2\tnegative\tWhich region?\t{neg}\n");
    let qset_path = work.join("q.tsv");
    std::fs::write(&qset_path, &qset_text)?;
    let qset = scorer::qset::parse(qset_text.as_bytes(), "q.tsv")?;
    let seal_path = work.join("handoff.md");
    let good_seal = format!("The codename is {pos}.\n");
    std::fs::write(&seal_path, &good_seal)?;
    let base = runners::resolve_base(&repo_dir, None, None)?;
    let corpus = runners::Corpus::load(&base)?;
    let input = |seal: &[u8]| -> Result<crate::gates::start::GateReport> {
        (checks.gate)(&GateInput {
            qset: &qset,
            qset_path: &qset_path,
            seal: Some((seal_path.as_path(), seal)),
            seal_name: Some("handoff.md"),
            corpus: &corpus,
            extra_corpus: Vec::new(),
            visible_names: Vec::new(),
            plant_dir: runners::Plant::DEFAULT_DIR,
            protected: Vec::new(),
            phase: Phase::Post,
            allow_contaminated: false,
            ledger: crate::options::LedgerMode::Strict,
        })
    };
    let mut lanes = Vec::new();

    // G1: the negative token sits (upper-cased) in a tracked file.
    let got = match input(good_seal.as_bytes()) {
        Ok(r) => {
            let shown = format!("{}{}", r.table(), serde_json::to_string(&r.axes)?);
            if shown.contains(&pos) || shown.to_lowercase().contains(&neg) {
                "exit 5 but the token was printed".to_string()
            } else {
                format!("exit {}", r.exit().code())
            }
        }
        Err(e) => format!("error: {}", crate::text::clean_line(&e.to_string(), 120)),
    };
    lanes.push(Lane { id: "G1".into(), description: "a token in a tracked file (other case) stops the gate with exit 5, and is never printed".into(), got, want: format!("exit {}", Exit::Contaminated.code()) });

    // G2: one byte of the qset changed after sealing.
    let manifest = crate::gates::manifest::Manifest {
        format: crate::gates::manifest::FORMAT.into(),
        harness_version: env!("CARGO_PKG_VERSION").into(),
        created: String::new(),
        scorer: crate::gates::manifest::ScorerStamp {
            fingerprint: scorer::fingerprint(),
            lexicon_version: scorer::LEXICON_VERSION.into(),
            token_match: Some(scorer::TokenMatch::Word.as_str().into()),
        },
        base: crate::gates::manifest::BaseStamp {
            sha: base.commit.clone(),
            reference: None,
            repo: repo_dir.display().to_string(),
        },
        inputs: vec![crate::gates::manifest::Input {
            role: crate::gates::manifest::Role::Qset,
            path: "q.tsv".into(),
            sha256: crate::gates::manifest::sha256_hex(qset_text.as_bytes()),
        }],
        design: None,
    };
    let mpath = work.join("manifest.json");
    let mut changed = qset_text.clone().into_bytes();
    let last = changed.len() - 2;
    changed[last] ^= 1;
    let changed_path = work.join("q-changed.tsv");
    std::fs::write(&changed_path, &changed)?;
    let c = (checks.compare)(
        &manifest,
        crate::gates::manifest::Role::Qset,
        Some(&changed_path),
        &mpath,
    );
    let same = (checks.compare)(
        &manifest,
        crate::gates::manifest::Role::Qset,
        Some(&qset_path),
        &mpath,
    );
    let got = format!(
        "changed: exit {}, unchanged: {}",
        if c.status.is_ok() {
            0
        } else {
            Exit::ManifestMismatch.code()
        },
        same.status.as_str()
    );
    lanes.push(Lane { id: "G2".into(), description: "a qset changed by one byte after sealing is a manifest mismatch (exit 10); the sealed bytes match".into(), got, want: format!("changed: exit {}, unchanged: match", Exit::ManifestMismatch.code()) });

    // G3: a seal without the positive token cannot carry it. Take the contaminated file out
    // of the picture by judging the ledger axis alone.
    let got = match input(b"Nothing useful here.\n") {
        Ok(r) => {
            let ledger = r.axes.iter().find(|a| a.name == "ledger");
            match ledger {
                Some(a)
                    if a.status == crate::gates::start::Status::Fail
                        && a.detail.iter().any(|d| d.starts_with("q1")) =>
                {
                    "refused, naming q1".to_string()
                }
                Some(a) => format!("ledger {}", a.status.as_str()),
                None => "no ledger axis".to_string(),
            }
        }
        Err(e) => format!("error: {}", crate::text::clean_line(&e.to_string(), 120)),
    };
    lanes.push(Lane {
        id: "G3".into(),
        description: "a seal that cannot carry a positive is refused, naming the qid".into(),
        got,
        want: "refused, naming q1".into(),
    });
    Ok(lanes)
}

/// One lane per instrument verdict (fixed rows → verdict and exit code), and watermark lanes:
/// on every number line exactly when the verdict calls for it, absent on OK.
pub fn verdict_lanes() -> Vec<Lane> {
    use reports::Render;
    let mut lanes = Vec::new();
    let meta = reports::lanes::fixture_meta();
    for (i, f) in reports::verdict_fixtures().into_iter().enumerate() {
        let report = reports::Report::new(meta.clone(), f.rows.clone());
        let v = report.summary.verdict;
        let exit = crate::round::collect::exit_of_verdict(v);
        // The wanted code comes from the verdict's own table (reports), not from the mapping
        // under test, so a wrong mapping turns the lane red.
        let want_exit = f.expected.exit_code();
        lanes.push(Lane {
            id: format!("V{}", i + 1),
            description: format!("verdict lane: {}", f.name),
            got: format!(
                "{} (exit {}){}",
                v.name(),
                exit.code(),
                if report.summary.verdict_claimed {
                    ""
                } else {
                    ", not claimed"
                }
            ),
            want: format!(
                "{} (exit {}){}",
                f.expected.name(),
                want_exit,
                if f.claimed { "" } else { ", not claimed" }
            ),
        });
        let wm = report.summary.watermark.clone();
        let term = reports::terminal::Terminal {
            color: false,
            width: 120,
        }
        .render(&report);
        let md = reports::markdown::Markdown.render(&report);
        let got = match (
            reports::watermark_ok(&term, wm.as_deref()),
            reports::watermark_ok(&md, wm.as_deref()),
        ) {
            (Ok(()), Ok(())) => "as required".to_string(),
            (Err(e), _) | (_, Err(e)) => crate::text::clean_line(&e, 160),
        };
        lanes.push(Lane {
            id: format!("W{}", i + 1),
            description: format!(
                "watermark {} on every number line ({})",
                if wm.is_some() { "present" } else { "absent" },
                f.name
            ),
            got,
            want: "as required".into(),
        });
    }
    // The contamination override watermarks an otherwise OK round.
    if let Some(f) = reports::verdict_fixtures()
        .into_iter()
        .find(|f| f.expected == reports::InstrumentVerdict::Ok && f.claimed)
    {
        let mut m = meta.clone();
        m.contaminated = true;
        let report = reports::Report::new(m, f.rows);
        let wm = report.summary.watermark.clone();
        let term = reports::terminal::Terminal {
            color: false,
            width: 120,
        }
        .render(&report);
        let got = match (&wm, reports::watermark_ok(&term, wm.as_deref())) {
            (Some(w), Ok(())) if w.contains("CONTAMINATED") => {
                "CONTAMINATED on every number line".to_string()
            }
            (None, _) => "no watermark".to_string(),
            (_, Err(e)) => crate::text::clean_line(&e, 160),
            (Some(w), Ok(())) => format!("watermark {w}"),
        };
        lanes.push(Lane {
            id: "W-CONT".into(),
            description:
                "a round run with --allow-contaminated carries CONTAMINATED on every number line"
                    .into(),
            got,
            want: "CONTAMINATED on every number line".into(),
        });
    }
    lanes
}

/// Runs every lane; the caller exits 1 when any failed. `json` prints one document (each lane
/// with `status` ok, FAIL or skip) instead of lines.
pub fn run(repo: Option<&Path>, json: bool) -> Result<(usize, usize)> {
    let mut lanes: Vec<Lane> = scorer::fixtures::scorer_lanes(scorer::Lexicon::standard())
        .into_iter()
        .map(Lane::from)
        .collect();
    let (tree, skipped) = source_tree_lanes(repo);
    lanes.extend(tree);
    lanes.extend(gate_lanes(&GateChecks::real()));
    lanes.extend(verdict_lanes());
    if json {
        return print_json(&lanes, &skipped);
    }
    let (p, f) = print_lanes(&lanes);
    for s in &skipped {
        println!(
            "skip  {:<14} {} ({})",
            s.id,
            crate::text::clean_line(&s.description, 160),
            s.reason
        );
    }
    println!();
    if skipped.is_empty() {
        println!("SELFTEST: {p} passed, {f} failed");
    } else {
        println!(
            "SELFTEST: {p} passed, {f} failed, {} skipped",
            skipped.len()
        );
    }
    Ok((p, f))
}

fn print_json(lanes: &[Lane], skipped: &[Skipped]) -> Result<(usize, usize)> {
    let passed = lanes.iter().filter(|l| l.ok()).count();
    let failed = lanes.len() - passed;
    let mut out: Vec<serde_json::Value> = lanes
        .iter()
        .map(|l| {
            serde_json::json!({
                "id": l.id,
                "status": if l.ok() { "ok" } else { "FAIL" },
                "description": l.description,
                "got": l.got,
                "want": l.want,
            })
        })
        .collect();
    out.extend(skipped.iter().map(|s| {
        serde_json::json!({
            "id": s.id,
            "status": "skip",
            "description": s.description,
            "reason": s.reason,
        })
    }));
    let v = serde_json::json!({
        "passed": passed,
        "failed": failed,
        "skipped": skipped.len(),
        "lanes": out,
    });
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok((passed, failed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::start::{GateInput, GateReport, Status};

    fn red(lanes: &[Lane], id: &str) -> bool {
        lanes.iter().any(|l| l.id == id && !l.ok())
    }

    #[test]
    fn gate_lanes_are_green_with_the_real_checks() {
        let lanes = gate_lanes(&GateChecks::real());
        assert_eq!(lanes.len(), 3, "{lanes:?}");
        assert!(lanes.iter().all(Lane::ok), "{lanes:?}");
    }

    fn no_contamination(i: &GateInput<'_>) -> Result<GateReport> {
        let mut r = crate::gates::start::check(i)?;
        for a in r.axes.iter_mut().filter(|a| a.name == "contamination") {
            a.status = Status::Pass;
        }
        Ok(r)
    }

    fn no_ledger(i: &GateInput<'_>) -> Result<GateReport> {
        let mut r = crate::gates::start::check(i)?;
        r.axes.retain(|a| a.name != "ledger");
        Ok(r)
    }

    fn always_match(
        m: &crate::gates::manifest::Manifest,
        role: crate::gates::manifest::Role,
        _: Option<&Path>,
        _: &Path,
    ) -> crate::gates::manifest::Check {
        crate::gates::manifest::Check {
            what: role.as_str().into(),
            status: crate::gates::manifest::Status::Match,
            detail: m.format.clone(),
        }
    }

    #[test]
    fn each_gate_lane_goes_red_when_its_check_is_disabled() {
        let lanes = gate_lanes(&GateChecks {
            gate: no_contamination,
            compare: crate::gates::manifest::check_file,
        });
        assert!(red(&lanes, "G1"), "{lanes:?}");
        let lanes = gate_lanes(&GateChecks {
            gate: crate::gates::start::check,
            compare: always_match,
        });
        assert!(red(&lanes, "G2"), "{lanes:?}");
        let lanes = gate_lanes(&GateChecks {
            gate: no_ledger,
            compare: crate::gates::manifest::check_file,
        });
        assert!(red(&lanes, "G3"), "{lanes:?}");
    }

    #[test]
    fn verdict_and_watermark_lanes_are_green() {
        let lanes = verdict_lanes();
        assert!(lanes.len() >= 10);
        assert!(lanes.iter().all(Lane::ok), "{lanes:?}");
        assert!(lanes.iter().any(|l| l.id == "W-CONT"));
    }

    #[test]
    fn the_tree_search_reports_read_errors_instead_of_zero() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "hello").unwrap();
        std::os::unix::fs::symlink("/proc/self/mem", dir.path().join("mem")).unwrap();
        let s = search_tree(dir.path(), &["hello"]);
        assert_eq!(s.hits[0].len(), 1);
        assert_eq!(s.errors.len(), 1, "{:?}", s.errors);
    }
}
