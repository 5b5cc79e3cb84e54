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
    let l13 = "L13 the assembled fixture token has zero hits in the whole working tree (ignored files included, symlinks followed)";
    let ctl = "L13-CTRL the same search finds a known needle that lives only outside scorer/";
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

/// Runs every lane; the caller exits 1 when any failed.
pub fn run(repo: Option<&Path>) -> Result<(usize, usize)> {
    let mut lanes: Vec<Lane> = scorer::fixtures::scorer_lanes(scorer::Lexicon::standard())
        .into_iter()
        .map(Lane::from)
        .collect();
    lanes.extend(contamination_lanes(repo_root(repo).as_deref()));
    let (p, f) = print_lanes(&lanes);
    println!();
    println!("SELFTEST: {p} passed, {f} failed");
    Ok((p, f))
}
