//! The built-in baseline agents (DESIGN §10): deterministic, no network, and never
//! reading outside their checkout.
//!
//! `baseline-grep` searches the checkout like a gitignore-respecting tool (so an
//! undelivered seal in the ignored plant folder is not found: the seed's question ⓐ),
//! plus any file the prompt names (so a delivered seal is read: question ⓑ).
//! `baseline-grep-all` searches every file like a plain `grep -r` (the seed's "plain
//! `grep -r` finds it" contrast). Both skip `.git/` and never follow symlinks.
//!
//! Scoring: the question is the first non-empty line of the prompt after any leading
//! `[…]` hand-off note (a qset question is one line, §3; the protocol text follows it).
//! Its content words are lowercased runs of alphanumeric characters (Hangul included)
//! minus a small stopword list, ASCII words shorter than 3 letters and one-syllable
//! words; trailing Korean particles are stripped. A line scores the number of distinct
//! question content words it contains. The best line answers when it has at least
//! `min(2, n)` of the question's `n` content words **and** at least half of them;
//! otherwise the agent refuses with [`REFUSAL`]. Ties go to a file the prompt named,
//! then to the smaller path, then to the earlier line.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::agent::BaselineKind;

/// The baseline agents' refusal, in plain words the refusal lexicon knows.
pub const REFUSAL: &str = "I could not find any record of that in the repository.";

/// Files larger than this are skipped (a baseline reads text, not build artefacts).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Longest excerpt of a matching line put into an answer.
pub const MAX_ANSWER_CHARS: usize = 2000;

const STOPWORDS: &[&str] = &[
    "about",
    "after",
    "all",
    "also",
    "and",
    "any",
    "are",
    "been",
    "before",
    "being",
    "but",
    "can",
    "could",
    "did",
    "does",
    "doing",
    "done",
    "for",
    "from",
    "had",
    "has",
    "have",
    "her",
    "his",
    "how",
    "into",
    "its",
    "may",
    "might",
    "must",
    "not",
    "now",
    "our",
    "out",
    "over",
    "said",
    "shall",
    "she",
    "should",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "was",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "무엇",
    "무엇인가",
    "무엇이었나",
    "어떤",
    "어디",
    "언제",
    "누구",
    "어떻게",
    "있나",
    "있는가",
];

/// Korean particles stripped from the end of a Hangul word, longest first.
const PARTICLES: &[&str] = &[
    "에서는",
    "으로는",
    "에서",
    "으로",
    "에는",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "도",
    "로",
    "와",
    "과",
];

fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}')
}

fn normalize(word: &str) -> Option<String> {
    let mut w = word.to_lowercase();
    if w.chars().all(is_hangul) && w.chars().count() >= 3 {
        for p in PARTICLES {
            if w.ends_with(p) && w.chars().count() > p.chars().count() + 1 {
                w.truncate(w.len() - p.len());
                break;
            }
        }
    }
    let n = w.chars().count();
    if (w.is_ascii() && n < 3) || n < 2 {
        return None;
    }
    Some(w)
}

/// Every normalized word of a text (no stopword filter): what a line offers.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter_map(normalize)
        .collect()
}

/// The content words of a question: normalized words minus stopwords.
pub fn content_words(text: &str) -> BTreeSet<String> {
    words(text)
        .into_iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// The question inside a prompt: the first non-empty line after any leading `[…]`
/// hand-off note.
pub fn question_of(prompt: &str) -> &str {
    let mut rest = prompt.trim_start();
    while rest.starts_with('[') {
        match rest.find(']') {
            Some(end) => rest = rest[end + 1..].trim_start(),
            None => break,
        }
    }
    rest.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// Path-looking words of a prompt: containing a `/`, or shaped `name.ext`.
pub fn named_paths(prompt: &str) -> Vec<String> {
    let trim: &[char] = &[
        '[', ']', '(', ')', '{', '}', '<', '>', '"', '\'', '`', ',', ';', ':', '!', '?', '—', '«',
        '»',
    ];
    let mut out = Vec::new();
    for raw in prompt.split_whitespace() {
        let w = raw.trim_matches(trim).trim_end_matches('.');
        if w.is_empty() || w.contains("://") {
            continue;
        }
        let has_ext = w.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=8).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
        });
        if (w.contains('/') || has_ext) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// Resolves a prompt-named path inside the checkout: the canonical path must lie under
/// the canonical checkout, outside `.git/`, and be a regular file. Anything else
/// (`../x`, an absolute path elsewhere, a symlink leading out) is not read.
fn resolve_inside(root: &Path, named: &str) -> Option<(PathBuf, PathBuf)> {
    let candidate = root.join(named);
    let canon = fs::canonicalize(&candidate).ok()?;
    let rel = canon.strip_prefix(root).ok()?.to_path_buf();
    if rel
        .components()
        .any(|c| c == Component::Normal(".git".as_ref()))
    {
        return None;
    }
    fs::metadata(&canon).ok().filter(|m| m.is_file())?;
    Some((canon, rel))
}

fn read_text(path: &Path) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = fs::read(path).ok()?;
    if bytes.iter().take(8192).any(|b| *b == 0) {
        return None;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The files a baseline walks: regular files only (symlinks are never followed), never
/// under `.git/`, honouring `.gitignore` and `.git/info/exclude` when `respect_ignore`.
fn walk(root: &Path, respect_ignore: bool) -> Vec<PathBuf> {
    let mut b = ignore::WalkBuilder::new(root);
    b.standard_filters(false)
        .hidden(false)
        .follow_links(false)
        .git_ignore(respect_ignore)
        .git_exclude(respect_ignore)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git");
    let mut files: Vec<PathBuf> = b
        .build()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| e.path().strip_prefix(root).ok().map(Path::to_path_buf))
        .collect();
    files.sort();
    files
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    // Field order is the ranking order (all ascending): more hits, named file first,
    // smaller path, earlier line.
    neg_hits: isize,
    not_named: bool,
    path: PathBuf,
    line_no: usize,
    text: String,
}

/// Answers one prompt from one checkout (see the module doc for the rules).
pub fn answer(checkout: &Path, prompt: &str, respect_ignore: bool) -> String {
    let Ok(root) = fs::canonicalize(checkout) else {
        return REFUSAL.to_string();
    };
    let qwords = content_words(question_of(prompt));
    let n = qwords.len();
    if n == 0 {
        return REFUSAL.to_string();
    }

    let mut sources: Vec<(PathBuf, PathBuf, bool)> = Vec::new();
    for named in named_paths(prompt) {
        if let Some((abs, rel)) = resolve_inside(&root, &named) {
            if !sources.iter().any(|s| s.1 == rel) {
                sources.push((abs, rel, true));
            }
        }
    }
    for rel in walk(&root, respect_ignore) {
        if !sources.iter().any(|s| s.1 == rel) {
            sources.push((root.join(&rel), rel, false));
        }
    }

    let mut best: Option<Candidate> = None;
    for (abs, rel, named) in sources {
        let Some(text) = read_text(&abs) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let lw = words(line);
            let hits = qwords.iter().filter(|w| lw.contains(*w)).count();
            if hits == 0 {
                continue;
            }
            let cand = Candidate {
                neg_hits: -(hits as isize),
                not_named: !named,
                path: rel.clone(),
                line_no: i + 1,
                text: line.trim().to_string(),
            };
            let better = match &best {
                Some(b) => cand < *b,
                None => true,
            };
            if better {
                best = Some(cand);
            }
        }
    }
    match best {
        Some(c) => {
            let hits = (-c.neg_hits) as usize;
            if hits >= n.min(2) && hits * 2 >= n {
                let excerpt: String = c.text.chars().take(MAX_ANSWER_CHARS).collect();
                format!(
                    "{excerpt}\n(found in {}, line {})",
                    c.path.display(),
                    c.line_no
                )
            } else {
                REFUSAL.to_string()
            }
        }
        None => REFUSAL.to_string(),
    }
}

/// Entry point of the hidden `harness __agent <baseline>` subcommand: the prompt comes
/// on stdin, the checkout is the working directory, the answer goes to stdout.
/// Returns the process exit code.
pub fn agent_main(kind: BaselineKind) -> i32 {
    let mut raw = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut raw) {
        eprintln!("{}: cannot read the prompt on stdin: {e}", kind.name());
        return 1;
    }
    let prompt = String::from_utf8_lossy(&raw);
    let cwd = match std::env::current_dir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}: cannot read the working directory: {e}", kind.name());
            return 1;
        }
    };
    println!("{}", answer(&cwd, &prompt, kind.respects_ignore()));
    0
}
