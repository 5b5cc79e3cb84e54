//! The start gate (DESIGN §6): no round starts on a qset an agent could answer from what it
//! sees, on a seal that cannot carry its answers, or with a visible name that tells an agent its
//! assignment. `run` calls this itself; no flag says "the gate already passed".

use crate::exit::Exit;
use crate::gates::nameleak;
use crate::text::clean_line;
use anyhow::Result;
use runners::{Corpus, NeedleSet};
use scorer::{Kind, Qset};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// At most this many paths are listed per contaminated row.
const PATHS_SHOWN: usize = 3;

/// When the gate runs: before the seal exists (CTRL-only eligibility) or after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// No seal yet: the ledger axis is UNCHECKED.
    Pre,
    /// Every axis.
    Post,
}

/// An axis' outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Checked and clean.
    #[serde(rename = "pass")]
    Pass,
    /// Checked and refused.
    #[serde(rename = "FAIL")]
    Fail,
    /// Not checked in this phase: partial, not a pass.
    #[serde(rename = "UNCHECKED")]
    Unchecked,
    /// Refused, but the user overrode it; recorded and watermarked.
    #[serde(rename = "OVERRIDDEN")]
    Overridden,
    /// Informational: seen, not blocking (conflict `general` values in the corpus).
    #[serde(rename = "reported")]
    Reported,
}

impl Status {
    /// As printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "FAIL",
            Status::Unchecked => "UNCHECKED",
            Status::Overridden => "OVERRIDDEN",
            Status::Reported => "reported",
        }
    }
}

/// One axis of the gate: name, status and detail lines (qids and paths, never a token).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Axis {
    /// `contamination`, `general-values`, `self-containment`, `ledger`, `name-leak`.
    pub name: String,
    /// Outcome.
    pub status: Status,
    /// What was seen.
    pub detail: Vec<String>,
    /// The exit code this axis ends a refused gate with.
    #[serde(skip)]
    pub exit: Option<Exit>,
}

/// Everything the gate looks at.
pub struct GateInput<'a> {
    /// The parsed qset.
    pub qset: &'a Qset,
    /// The qset file (for self-containment).
    pub qset_path: &'a Path,
    /// The seal file and its bytes, when there is one.
    pub seal: Option<(&'a Path, &'a [u8])>,
    /// The planted name of the seal (its file name) — an agent sees it.
    pub seal_name: Option<&'a str>,
    /// The corpus every checkout will hold.
    pub corpus: &'a Corpus,
    /// Text placed before the agent besides the tree and the seal: protocol text, question
    /// texts, the plant folder's exclude line. Searched like the tree.
    pub extra_corpus: Vec<(String, Vec<u8>)>,
    /// Other names an agent can see (plant folder, out-dir name), with what they are.
    pub visible_names: Vec<(String, String)>,
    /// The plant folder (relative to the tree): no tracked relative link may lead into it.
    pub plant_dir: &'a str,
    /// Files and folders outside the tree no tracked symlink may lead to (besides the qset and
    /// the seal, which are always protected): the manifest, the out-dir, the labelmap.
    pub protected: Vec<(String, PathBuf)>,
    /// pre or post.
    pub phase: Phase,
    /// `--allow-contaminated`.
    pub allow_contaminated: bool,
    /// `--ledger`: a positive the seal does not carry is refused (strict) or listed (report).
    pub ledger: crate::options::LedgerMode,
}

/// The gate's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GateReport {
    /// pre or post.
    pub phase: Phase,
    /// Every axis, in order.
    pub axes: Vec<Axis>,
    /// The contamination axis was refused and overridden: every number is watermarked.
    pub contaminated: bool,
    /// Under `--ledger report`: the positive qids whose token the seal does not carry, in qset
    /// order (listed, not refused). Empty under the strict ledger, which refuses them.
    #[serde(default)]
    pub uncarried: Vec<String>,
}

impl GateReport {
    /// The exit the gate ends with: the first refused axis' code, else partial (3) when an axis
    /// is UNCHECKED, else OK.
    pub fn exit(&self) -> Exit {
        if let Some(a) = self.axes.iter().find(|a| a.status == Status::Fail) {
            return a.exit.unwrap_or(Exit::GateRefused);
        }
        if self.axes.iter().any(|a| a.status == Status::Unchecked) {
            return Exit::GatePartial;
        }
        Exit::Ok
    }

    /// The table `harness gate` prints: axis, status, detail.
    pub fn table(&self) -> String {
        self.table_seen(&|_| false)
    }

    /// [`GateReport::table`], with the advisory token-shape axis cut to one line when `seen`
    /// says this qset was shown before ([`shape_seen`]; gate, seal and run print it each time).
    pub fn table_seen(&self, seen: &dyn Fn(&Axis) -> bool) -> String {
        let mut out = format!("{:<17} {:<10} detail\n", "axis", "status");
        for a in &self.axes {
            let mut first = true;
            let short;
            let lines: Vec<&String> = if a.name == TOKEN_SHAPE && seen(a) {
                short = format!(
                    "{} short or digits-only value(s), listed in full the first time this state folder saw this qset (`--verbose` or `--format json` lists them)",
                    a.detail.len()
                );
                vec![&short]
            } else {
                a.detail.iter().collect()
            };
            if lines.is_empty() {
                out.push_str(&format!("{:<17} {:<10}\n", a.name, a.status.as_str()));
            }
            for d in lines {
                if first {
                    out.push_str(&format!("{:<17} {:<10} {}\n", a.name, a.status.as_str(), d));
                    first = false;
                } else {
                    out.push_str(&format!("{:<17} {:<10} {}\n", "", "", d));
                }
            }
        }
        out
    }
}

/// Hides every needle inside a shown name: a file may be *named* after a token, and the gate
/// never prints a token (stderr becomes logs, and logs become corpus).
pub struct Masker {
    re: Option<regex::Regex>,
    /// Needles shown as `‹general›` rather than `‹token›` (lowercased): a conflict's true
    /// value, which a reader must not mistake for the planted one.
    generals: std::collections::HashSet<String>,
}

impl Masker {
    /// A masker for these needles (case-insensitive, like the search), each shown as `‹token›`.
    pub fn new(needles: &[&str]) -> Masker {
        Masker::labelled(needles, &[])
    }

    /// A masker for `tokens` (shown as `‹token›`) and conflicts' true values `generals` (shown
    /// as `‹general›`; a value that is both is shown as `‹token›`).
    pub fn labelled(tokens: &[&str], generals: &[&str]) -> Masker {
        let alts: Vec<String> = tokens
            .iter()
            .chain(generals)
            .filter(|n| !n.is_empty())
            .map(|n| regex::escape(n))
            .collect();
        let lower: std::collections::HashSet<String> =
            tokens.iter().map(|t| t.to_lowercase()).collect();
        let generals = generals
            .iter()
            .filter(|g| !g.is_empty())
            .map(|g| g.to_lowercase())
            .filter(|g| !lower.contains(g))
            .collect();
        if alts.is_empty() {
            return Masker { re: None, generals };
        }
        Masker {
            re: regex::RegexBuilder::new(&alts.join("|"))
                .case_insensitive(true)
                .size_limit(1 << 26)
                .build()
                .ok(),
            generals,
        }
    }

    /// How a found needle is shown: `‹general›` for a conflict's true value, else `‹token›`.
    pub fn label_of(&self, found: &str) -> &'static str {
        if self.generals.contains(&found.to_lowercase()) {
            "‹general›"
        } else {
            "‹token›"
        }
    }

    /// The text with every needle replaced by `‹token›` (a true value by `‹general›`). If the
    /// mask could not be built, the whole text is withheld rather than risk showing a token.
    pub fn mask(&self, text: &str) -> String {
        match &self.re {
            Some(re) if self.generals.is_empty() => re.replace_all(text, "‹token›").into_owned(),
            Some(re) => re
                .replace_all(text, |c: &regex::Captures<'_>| self.label_of(&c[0]))
                .into_owned(),
            None if text.is_empty() => String::new(),
            None => "‹withheld›".into(),
        }
    }
}

fn shown_paths(paths: &[String], masker: &Masker) -> String {
    let mut s: Vec<String> = paths
        .iter()
        .take(PATHS_SHOWN)
        .map(|p| clean_line(&masker.mask(p), 120))
        .collect();
    if paths.len() > PATHS_SHOWN {
        s.push(format!("and {} more", paths.len() - PATHS_SHOWN));
    }
    s.join(", ")
}

/// The search's hit paths for one needle, read again with the scorer's token rule: the paths
/// where the rule reads it (`path:line: "context"`, masked) and the paths where it sits only
/// inside a longer word (listed, not refused). A path the gate cannot read back counts as a
/// hit, shown bare.
fn located(
    corpus: &Corpus,
    paths: &[String],
    needle: &str,
    masker: &Masker,
) -> (Vec<String>, Vec<String>) {
    let rule = crate::reading::active().token_match;
    let (mut read, mut embedded) = (Vec::new(), Vec::new());
    for p in paths {
        let shown = masker.mask(p);
        match crate::gates::hitlines::locate_in_corpus(corpus, p, needle, rule, masker) {
            Some(loc) if loc.embedded_only => {
                embedded.push(crate::gates::hitlines::describe(&shown, &loc))
            }
            Some(loc) => read.push(crate::gates::hitlines::describe(&shown, &loc)),
            None => read.push(shown),
        }
    }
    (read, embedded)
}

/// A name an agent can see, with what it is (for the name-leak axis).
pub type VisibleName = (String, String);

/// What an agent sees besides the tree, for the gate to search and name-check: the protocol
/// text, every question text, the plant folder's exclude line, the planted seal path and the
/// deliver prefix (the only prompt text that differs between the arms). One composition for
/// `gate`, `seal` and `run`, so the three cannot disagree.
pub fn seen_besides_tree(
    qset: &Qset,
    protocol: Option<&[u8]>,
    plant: &runners::Plant,
    planted_path: Option<&str>,
) -> (Vec<(String, Vec<u8>)>, Vec<VisibleName>) {
    let mut extra: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(p) = protocol {
        extra.push(("protocol text".into(), p.to_vec()));
    }
    for q in &qset.questions {
        extra.push((
            format!("question text of {}", q.qid),
            q.question.as_bytes().to_vec(),
        ));
    }
    extra.push((
        "the plant folder's exclude line".into(),
        plant.exclude_line().into_bytes(),
    ));
    let mut names = vec![("plant folder".to_string(), plant.dir().to_string())];
    if let Some(p) = planted_path {
        let prefix = crate::prompt::deliver_prefix(p);
        extra.push(("the planted seal path".into(), p.as_bytes().to_vec()));
        extra.push(("the deliver prefix".into(), prefix.as_bytes().to_vec()));
        names.push(("deliver prefix".to_string(), prefix));
    }
    (extra, names)
}

/// Runs every axis. An `Err` means the gate could not look (a search error, an unreadable
/// file): the caller ends with exit 8, never with "0 hits".
/// A warning (never a refusal) for tokens that match by accident: shorter than 4 characters, or
/// made only of digits and dots (`9`, `1.2`). The token rule keeps `9` out of `19`, but not out
/// of "step 9 of the runbook". Names qids and the reason, never the token.
/// The advisory axis naming tokens short or plain enough to match by accident.
pub const TOKEN_SHAPE: &str = "token-shape";

/// Whether this state folder (`$XDG_STATE_HOME/harness/seen-warnings`) has seen the qset with
/// this sha256 before; records it when not. A state folder that cannot be read or written means
/// "not seen": the token-shape list is shown in full. Keyed by the qset's bytes, so another qset
/// (or an edited one) gets the full list again.
pub fn seen_before(qset_sha256: &str) -> bool {
    let Some(dir) = crate::outdir::default_root()
        .parent()
        .map(Path::to_path_buf)
    else {
        return false;
    };
    let file = dir.join("seen-warnings");
    let key = format!("{TOKEN_SHAPE} qset {qset_sha256}");
    let known = std::fs::read_to_string(&file).unwrap_or_default();
    if known.lines().any(|l| l == key) {
        return true;
    }
    let _ = std::fs::create_dir_all(&dir).and_then(|_| {
        use std::io::Write as _;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .and_then(|mut f| writeln!(f, "{key}"))
    });
    false
}

/// [`GateReport::table_seen`]'s question for one qset: cut the token-shape list to one line
/// only when not `verbose` and this state folder saw these qset bytes before.
pub fn shape_seen(qset_bytes: &[u8], verbose: bool) -> impl Fn(&Axis) -> bool {
    let sha = crate::files::sha256_hex(qset_bytes);
    move |_| !verbose && seen_before(&sha)
}

/// The token-shape axis: advisory lines for tokens and general values that are short or only
/// digits and dots.
pub fn token_shape_axis(q: &[scorer::Question]) -> Option<Axis> {
    let mut detail = Vec::new();
    for x in q {
        for (what, v) in [
            ("token", Some(x.token.as_str())),
            ("general", x.general.as_deref()),
        ] {
            let Some(v) = v else { continue };
            let n = v.chars().count();
            let why = if n < 4 {
                format!("{n} characters")
            } else if v.chars().all(|c| c.is_ascii_digit() || c == '.') {
                "only digits and dots".to_string()
            } else {
                continue;
            };
            detail.push(format!(
                "{} ({}): {what} is {why}; it can match by accident (a longer, distinctive value reads safer)",
                x.qid, x.kind
            ));
        }
    }
    (!detail.is_empty()).then(|| Axis {
        name: TOKEN_SHAPE.into(),
        status: Status::Reported,
        detail,
        exit: None,
    })
}

pub fn check(input: &GateInput<'_>) -> Result<GateReport> {
    let q = &input.qset.questions;
    let search = Search::run(input)?;
    let contamination = contamination_axis(input, &search);
    let contaminated = contamination.status == Status::Overridden;
    let mut axes = vec![contamination];
    axes.extend(token_shape_axis(q));
    axes.extend(general_values_axis(q, input.corpus, &search));
    axes.push(self_containment_axis(input, &search.masker)?);
    let (ledger, uncarried) = ledger_axis(input);
    axes.push(ledger);
    axes.push(name_leak_axis(input));
    axes.push(plant_folder_axis(input, &search.masker));
    Ok(GateReport {
        phase: input.phase,
        axes,
        contaminated,
        uncarried,
    })
}

/// One pass over the tree (and over what an agent sees besides it) for every token and
/// conflict `general` value at once: the contamination and general-value axes read it.
struct Search {
    /// The qset rows of conflict items with a `general` value; their needles follow the tokens.
    generals: Vec<usize>,
    /// Per needle: the tree entries holding it.
    hits: Vec<Vec<String>>,
    /// Per needle: the prompt texts and file names where the token rule reads it.
    extra_hits: Vec<Vec<String>>,
    /// Per needle: the prompt texts and file names holding it only inside a longer word.
    extra_embedded: Vec<Vec<String>>,
    /// How many entries were searched, and what was not.
    searched: usize,
    not_searched: Vec<String>,
    /// Masks every needle wherever a detail line shows a path.
    masker: Masker,
}

impl Search {
    fn run(input: &GateInput<'_>) -> Result<Search> {
        let q = &input.qset.questions;
        let mut needles: Vec<&str> = q.iter().map(|x| x.token.as_str()).collect();
        let generals: Vec<(usize, &str)> = q
            .iter()
            .enumerate()
            .filter(|(_, x)| x.kind == Kind::Conflict)
            .filter_map(|(i, x)| x.general.as_deref().map(|g| (i, g)))
            .collect();
        needles.extend(generals.iter().map(|(_, g)| *g));
        let set = NeedleSet::new(&needles).map_err(|e| {
            crate::exit::Fail::new(
                Exit::GateRefused,
                format!("contamination search could not start: {e}"),
            )
        })?;
        let report = runners::search_needles(input.corpus, &set).map_err(|e| {
            crate::exit::Fail::new(
                Exit::GateRefused,
                format!("contamination search failed; that is not \"0 hits\": {e}"),
            )
        })?;
        let tokens: Vec<&str> = q.iter().map(|x| x.token.as_str()).collect();
        let general_values: Vec<&str> = generals.iter().map(|(_, g)| *g).collect();
        let masker = Masker::labelled(&tokens, &general_values);
        let rule = crate::reading::active().token_match;
        let mut extra_hits: Vec<Vec<String>> = vec![Vec::new(); needles.len()];
        let mut extra_embedded: Vec<Vec<String>> = vec![Vec::new(); needles.len()];
        for (name, bytes) in &input.extra_corpus {
            for i in set.find_in(bytes) {
                match crate::gates::hitlines::locate(bytes, needles[i], rule, &masker) {
                    Some(loc) if loc.embedded_only => extra_embedded[i]
                        .push(crate::gates::hitlines::describe(&masker.mask(name), &loc)),
                    Some(loc) => extra_hits[i]
                        .push(crate::gates::hitlines::describe(&masker.mask(name), &loc)),
                    None => extra_hits[i].push(name.clone()),
                }
            }
        }
        // File names are seen too (`ls`): a file named after a token hands it over.
        for e in &input.corpus.entries {
            for i in set.find_in(e.path.as_bytes()) {
                let shown = format!("the file name {}", e.path);
                if rule.finds_visible(&e.path, needles[i]) {
                    extra_hits[i].push(shown);
                } else {
                    extra_embedded[i].push(format!("{shown} (only inside a longer word)"));
                }
            }
        }
        Ok(Search {
            generals: generals.iter().map(|(i, _)| *i).collect(),
            hits: report.hits,
            extra_hits,
            extra_embedded,
            searched: report.searched,
            not_searched: report.not_searched,
            masker,
        })
    }
}

/// Contamination: a token anywhere an agent can read it refuses the round (exit 5), unless
/// overridden, which watermarks every number.
fn contamination_axis(input: &GateInput<'_>, search: &Search) -> Axis {
    let q = &input.qset.questions;
    let masker = &search.masker;
    let mut contaminated_rows = Vec::new();
    let mut embedded_rows = Vec::new();
    for (i, x) in q.iter().enumerate() {
        let (mut paths, mut embedded) = located(input.corpus, &search.hits[i], &x.token, masker);
        paths.extend(search.extra_hits[i].iter().cloned());
        embedded.extend(search.extra_embedded[i].iter().cloned());
        if !paths.is_empty() {
            contaminated_rows.push(format!(
                "{} ({}): token found in {} place(s): {} ({})",
                x.qid,
                x.kind,
                paths.len(),
                shown_paths(&paths, masker),
                crate::gates::hitlines::rule_words(crate::reading::active().token_match)
            ));
        }
        if !embedded.is_empty() {
            embedded_rows.push(format!(
                "{} ({}): not refused, the scorer's rule does not read the token in {} place(s) (inside a longer word or number, or another case under --token-match exact): {}",
                x.qid,
                x.kind,
                embedded.len(),
                shown_paths(&embedded, masker)
            ));
        }
    }
    let mut detail = contaminated_rows.clone();
    if detail.is_empty() {
        detail.push(format!(
            "{} tokens absent from {} searched entries at base {}{}",
            q.len(),
            search.searched,
            &input.corpus.base.commit[..12.min(input.corpus.base.commit.len())],
            if input.extra_corpus.is_empty() {
                String::new()
            } else {
                format!(" and {} prompt texts", input.extra_corpus.len())
            }
        ));
    }
    detail.extend(embedded_rows);
    if !search.not_searched.is_empty() {
        detail.push(format!(
            "not searched (submodules, not followed): {}",
            shown_paths(&search.not_searched, masker)
        ));
    }
    let status = if contaminated_rows.is_empty() {
        Status::Pass
    } else if input.allow_contaminated {
        detail.push(
            "overridden with --allow-contaminated: every number of this round carries CONTAMINATED"
                .into(),
        );
        Status::Overridden
    } else {
        Status::Fail
    };
    Axis {
        name: "contamination".into(),
        status,
        detail,
        exit: Some(Exit::Contaminated),
    }
}

/// General values of conflict items: reported (never refused) where the corpus holds them, since
/// a repo-only reader could then give the true value; `None` when no row has one.
fn general_values_axis(q: &[scorer::Question], corpus: &Corpus, search: &Search) -> Option<Axis> {
    let missing: Vec<String> = q
        .iter()
        .filter(|x| x.kind == scorer::Kind::Conflict && x.general.is_none())
        .map(|x| {
            format!(
                "{}: conflict without a general value (column 5): PRIOR_WON can never be asserted, so CARRIER_UNREAD can never fire; add the repository's true value",
                x.qid
            )
        })
        .collect();
    if search.generals.is_empty() && missing.is_empty() {
        return None;
    }
    let base = q.len();
    let mut detail = missing;
    for (j, i) in search.generals.iter().enumerate() {
        let general = q[*i].general.as_deref().unwrap_or_default();
        let (mut paths, _) = located(corpus, &search.hits[base + j], general, &search.masker);
        paths.extend(search.extra_hits[base + j].iter().cloned());
        detail.push(if paths.is_empty() {
            format!(
                "{}: general value not in the corpus (a repo-only reader cannot give it)",
                q[*i].qid
            )
        } else {
            format!(
                "{}: general value in {}",
                q[*i].qid,
                shown_paths(&paths, &search.masker)
            )
        });
    }
    Some(Axis {
        name: "general-values".into(),
        status: Status::Reported,
        detail,
        exit: None,
    })
}

/// Self-containment: the qset and the seal are not part of the tree at base (by path or by
/// content), and no tracked link leads to them or to anything else the checkout must not hold.
fn self_containment_axis(input: &GateInput<'_>, masker: &Masker) -> Result<Axis> {
    let mut files: Vec<&Path> = vec![input.qset_path];
    if let Some((p, _)) = input.seal {
        files.push(p);
    }
    let tracked = runners::tracked_at_base(input.corpus, &files).map_err(|e| {
        crate::exit::Fail::new(
            Exit::GateRefused,
            format!("self-containment check failed: {e}"),
        )
    })?;
    let mut detail = Vec::new();
    for t in &tracked {
        if t.is_tracked() {
            let mut places: Vec<String> = t.by_path.iter().cloned().collect();
            places.extend(t.by_content.iter().cloned());
            places.dedup();
            detail.push(format!(
                "{} is tracked at base as {}",
                t.file.display(),
                shown_paths(&places, masker)
            ));
        }
    }
    detail.extend(links_out(input, masker)?);
    let status = if detail.is_empty() {
        Status::Pass
    } else {
        Status::Fail
    };
    if detail.is_empty() {
        detail.push(
            "qset and seal are not part of the tree at base, and no tracked link leads to them"
                .into(),
        );
        detail.extend(untracked_inside(input.corpus.workdir(), &files));
    }
    Ok(Axis {
        name: "self-containment".into(),
        status,
        detail,
        exit: Some(Exit::Contaminated),
    })
}

/// A note for each of `files` that sits inside the repository's work tree without being
/// tracked: accepted, but safe only while it stays untracked (one `git add -A` and the next
/// base holds it, where every agent reads it).
fn untracked_inside(workdir: &Path, files: &[&Path]) -> Vec<String> {
    let Ok(root) = workdir.canonicalize() else {
        return Vec::new();
    };
    files
        .iter()
        .filter_map(|f| {
            let full = f.canonicalize().ok()?;
            let rel = full.strip_prefix(&root).ok()?;
            Some(format!(
                "note: {} is inside the repository ({}) and untracked: safe only while it stays untracked (a `git add` would put it where every agent reads it); keep it outside the repository",
                f.display(),
                rel.display()
            ))
        })
        .collect()
}

/// Ledger (phase post): the seal carries every positive token and planted value, and no
/// negative token or true value; phase pre has no seal yet (UNCHECKED, partial). Under
/// `--ledger report` a positive the seal lacks is listed (returned as uncarried) instead of
/// refused; every other check still refuses.
fn ledger_axis(input: &GateInput<'_>) -> (Axis, Vec<String>) {
    let q = &input.qset.questions;
    let report_mode = input.ledger == crate::options::LedgerMode::Report;
    match (input.phase, input.seal) {
        (Phase::Pre, _) => (
            Axis {
                name: "ledger".into(),
                status: Status::Unchecked,
                detail: vec![
                    "phase pre: no seal yet; partial, not a pass (accepted only with --arms CTRL)"
                        .into(),
                ],
                exit: None,
            },
            Vec::new(),
        ),
        (Phase::Post, None) => (
            Axis {
                name: "ledger".into(),
                status: Status::Fail,
                detail: vec!["phase post needs --seal".into()],
                exit: Some(Exit::Usage),
            },
            Vec::new(),
        ),
        (Phase::Post, Some((seal_path, seal))) => {
            let mut refused = Vec::new();
            let mut uncarried = Vec::new();
            // Every present and absent check reads the seal the way the scorer reads an answer
            // that copies it (case-insensitive, whole words, unless --token-match exact): a
            // licence `MIT` is not inside "(not committed)".
            let seal_text = String::from_utf8_lossy(seal);
            let rule = crate::reading::active().token_match;
            let needles: Vec<&str> = q
                .iter()
                .flat_map(|x| std::iter::once(x.token.as_str()).chain(x.general.as_deref()))
                .collect();
            let masker = Masker::new(&needles);
            let shown_seal = clean_line(&masker.mask(&seal_path.display().to_string()), 120);
            // Where the seal holds a value it must not: file, line, the line with the value
            // masked, and the rule that read it.
            let held = |s: &str| -> Option<String> {
                let loc = crate::gates::hitlines::locate(seal, s, rule, &masker)?;
                (!loc.embedded_only).then(|| {
                    format!(
                        "{} ({})",
                        crate::gates::hitlines::describe(&shown_seal, &loc),
                        crate::gates::hitlines::rule_words(rule)
                    )
                })
            };
            for x in q {
                let has = |s: &str| rule.finds_visible(&seal_text, s);
                match x.kind {
                    Kind::Positive if !has(&x.token) => {
                        if report_mode {
                            uncarried.push(x.qid.clone());
                        } else {
                            refused.push(format!(
                                "{}: positive token not in the seal {shown_seal}; the carrier cannot \
                                 carry it (--ledger report runs it, listed; {})",
                                x.qid,
                                crate::gates::hitlines::rule_words(rule)
                            ))
                        }
                    }
                    Kind::Conflict if !has(&x.token) => refused.push(format!(
                        "{}: planted conflict value not in the seal {shown_seal} ({})",
                        x.qid,
                        crate::gates::hitlines::rule_words(rule)
                    )),
                    Kind::Negative => {
                        if let Some(at) = held(&x.token) {
                            refused.push(format!(
                                "{}: negative token is in the seal, so it is not a negative: {at}",
                                x.qid
                            ))
                        }
                    }
                    _ => {}
                }
                if x.kind == Kind::Conflict {
                    if let Some(at) = x.general.as_deref().and_then(held) {
                        refused.push(format!(
                            "{}: general value is in the seal, so the conflict does not separate: {at}",
                            x.qid
                        ));
                    }
                }
            }
            let status = if !refused.is_empty() {
                Status::Fail
            } else if !uncarried.is_empty() {
                Status::Reported
            } else {
                Status::Pass
            };
            let mut detail = refused;
            if !uncarried.is_empty() {
                detail.push(format!(
                    "--ledger report: the seal does not carry {} positive(s), listed, not refused: {}; \
                     DELIVERY is reported over the carried positives and over all",
                    uncarried.len(),
                    uncarried.iter().map(|q| clean_line(q, 80)).collect::<Vec<_>>().join(", ")
                ));
            }
            if status == Status::Pass {
                detail.push(format!("seal carries every positive and planted value and no negative or general value ({} rows)", q.len()));
            }
            (
                Axis {
                    name: "ledger".into(),
                    status,
                    detail,
                    exit: Some(Exit::GateRefused),
                },
                uncarried,
            )
        }
    }
}

/// Name leak: nothing an agent sees by name (the planted seal name, folder and out-dir names)
/// carries an arm, a qid, a kind or a round word.
fn name_leak_axis(input: &GateInput<'_>) -> Axis {
    let q = &input.qset.questions;
    let qids: Vec<&str> = q.iter().map(|x| x.qid.as_str()).collect();
    let mut leaks = Vec::new();
    if let Some(n) = input.seal_name {
        leaks.extend(nameleak::check_name("seal name", n, &qids));
    }
    for (what, name) in &input.visible_names {
        leaks.extend(nameleak::check_name(what, name, &qids));
    }
    let status = if leaks.is_empty() {
        Status::Pass
    } else {
        Status::Fail
    };
    let mut detail: Vec<String> = leaks.iter().map(|l| l.to_string()).collect();
    if detail.is_empty() {
        detail.push(format!(
            "{} visible names checked",
            input.visible_names.len() + input.seal_name.is_some() as usize
        ));
    }
    Axis {
        name: "name-leak".into(),
        status,
        detail,
        exit: Some(Exit::NameLeak),
    }
}

/// Plant folder: the repository tracks nothing inside the folder the seal is planted in (exit
/// 5). A tracked file there (a decoy hand-off with wrong values) sits beside the seal in ARM
/// and alone in CTRL, so both arms would read a carrier the round did not plant.
fn plant_folder_axis(input: &GateInput<'_>, masker: &Masker) -> Axis {
    let dir = input.plant_dir.trim_matches('/');
    let inside: Vec<String> = input
        .corpus
        .entries
        .iter()
        .filter(|e| {
            e.path == dir
                || e.path
                    .strip_prefix(dir)
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .map(|e| masker.mask(&crate::text::clean_line(&e.path, 200)))
        .collect();
    let (status, detail) = if inside.is_empty() {
        (
            Status::Pass,
            vec![format!(
                "no tracked file under {dir}/, where the seal is planted"
            )],
        )
    } else {
        let mut d = vec![format!(
            "{} tracked file(s) under {dir}/, where the seal is planted: both arms would read them as a hand-off; remove them from the repository or choose another --plant-dir",
            inside.len()
        )];
        d.extend(inside.into_iter().map(|p| format!("tracked {p}")));
        (Status::Fail, d)
    };
    Axis {
        name: "plant-folder".into(),
        status,
        detail,
        exit: Some(Exit::Contaminated),
    }
}

/// Self-containment through links: a tracked symlink an agent could follow to the qset, the
/// seal, another protected input, or a file of the repository the checkout does not hold.
fn links_out(input: &GateInput<'_>, masker: &Masker) -> Result<Vec<String>> {
    let mut protected = vec![("qset".to_string(), input.qset_path.to_path_buf())];
    if let Some((p, _)) = input.seal {
        protected.push(("seal".to_string(), p.to_path_buf()));
    }
    protected.extend(input.protected.iter().cloned());
    let links = runners::links_out(input.corpus, &protected, input.plant_dir).map_err(|e| {
        crate::exit::Fail::new(
            Exit::GateRefused,
            format!("self-containment check of tracked links failed: {e}"),
        )
    })?;
    Ok(links
        .iter()
        .map(|l| {
            format!(
                "tracked link {} leads to {}",
                masker.mask(&l.link),
                masker.mask(&l.reaches)
            )
        })
        .collect())
}

#[cfg(test)]
mod token_shape_tests {
    use super::*;

    #[test]
    fn short_and_numeric_tokens_warn_without_refusing_or_printing_them() {
        let tsv =
            "q1\tpositive\tQ?\tKestrel-7\nq2\tnegative\tQ?\tx9\nq3\tconflict\tQ?\t99.95\t7.1.4\n";
        let qset = scorer::qset::parse(tsv.as_bytes(), "t.tsv").unwrap();
        let axis = token_shape_axis(&qset.questions).unwrap();
        assert_eq!(axis.status, Status::Reported);
        assert_eq!(axis.detail.len(), 3, "{:?}", axis.detail);
        assert!(axis.detail[0].starts_with("q2 (negative): token is 2 characters"));
        assert!(axis.detail[1].contains("q3 (conflict): token is only digits and dots"));
        assert!(axis.detail[2].contains("general is only digits and dots"));
        for d in &axis.detail {
            assert!(
                !d.contains("x9") && !d.contains("99.95") && !d.contains("7.1.4"),
                "{d}"
            );
        }
        let ok = scorer::qset::parse(b"q1\tpositive\tQ?\tKestrel-7\n", "t.tsv").unwrap();
        assert!(token_shape_axis(&ok.questions).is_none());
    }
}
