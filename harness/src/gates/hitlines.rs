//! Where the gate saw a value, for the person who has to remove it: the file's lines, the line
//! around the first hit with the value masked, and whether the scorer's token rule reads it
//! there at all. A bare path sent people grepping, a hit for `1.80` inside `-101.8019444`
//! looked like a real leak, and a ledger refusal for `MIT` inside "(not committed)" sent a
//! user into `gate.rs` to learn which rule had fired.
//!
//! The value itself is never shown: the context replaces it with `‹token›`, and the caller's
//! masker hides every other needle the line holds.

use crate::gates::start::Masker;
use crate::text::clean_line;
use runners::{Corpus, EntryKind};
use scorer::TokenMatch;

/// At most this many line numbers are listed per file.
const LINES_SHOWN: usize = 3;
/// Characters of context shown on each side of the masked value.
const CONTEXT_CHARS: usize = 32;

/// The hits of one needle in one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// 1-based line numbers, ascending, each once.
    pub lines: Vec<usize>,
    /// The line of the first hit, the value replaced by `‹token›`, cut to a few words each
    /// side, other needles masked, control characters shown as text.
    pub context: String,
    /// The needle occurs only where the token rule does not read it: inside a longer word or
    /// number under `word`, or in another case under `exact`. The search (case-insensitive
    /// substrings, one pass for every needle) found it; the scorer would not.
    pub embedded_only: bool,
}

/// How a rule is named in a gate line, so the user never has to read the source to learn it.
pub fn rule_words(rule: TokenMatch) -> &'static str {
    match rule {
        TokenMatch::Word => "rule: whole words, case-insensitive (the scorer's)",
        TokenMatch::Exact => "rule: exact bytes, --token-match exact (the scorer's)",
    }
}

/// Finds `needle` in `bytes` as the scorer's `rule` reads it; when the rule finds nothing but
/// a case-insensitive substring search does, the hit is returned as `embedded_only`. `None`
/// when neither reading finds it.
pub fn locate(bytes: &[u8], needle: &str, rule: TokenMatch, masker: &Masker) -> Option<Located> {
    let text = String::from_utf8_lossy(bytes);
    let mut hits = rule.occurrences_visible(&text, needle);
    let embedded_only = hits.is_empty();
    if embedded_only {
        hits = substring_ci(&text, needle);
    }
    let first = hits.first()?.clone();
    let mut lines = Vec::new();
    let mut line = 1;
    let mut counted = 0;
    for r in &hits {
        line += text[counted..r.start].matches('\n').count();
        counted = r.start;
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    Some(Located {
        lines,
        context: context_of(&text, first, masker),
        embedded_only,
    })
}

/// Case-insensitive substring occurrences (what the one-pass search matched).
fn substring_ci(text: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
    if needle.is_empty() {
        return Vec::new();
    }
    match regex::RegexBuilder::new(&regex::escape(needle))
        .case_insensitive(true)
        .build()
    {
        Ok(re) => re.find_iter(text).map(|m| m.range()).collect(),
        Err(_) => Vec::new(),
    }
}

/// The hit's line, cut to [`CONTEXT_CHARS`] characters each side, the hit as `‹token›` (a
/// conflict's true value as `‹general›`, when the masker knows it as one).
fn context_of(text: &str, hit: std::ops::Range<usize>, masker: &Masker) -> String {
    let line_start = text[..hit.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[hit.end..]
        .find('\n')
        .map_or(text.len(), |i| hit.end + i);
    // Masked before the cut: a needle the cut would halve is already `‹token›`, never a
    // recognisable part of a value.
    let before: Vec<char> = masker.mask(&text[line_start..hit.start]).chars().collect();
    let after: Vec<char> = masker.mask(&text[hit.end..line_end]).chars().collect();
    let cut_before = before.len() > CONTEXT_CHARS;
    let cut_after = after.len() > CONTEXT_CHARS;
    let before: String = before[before.len().saturating_sub(CONTEXT_CHARS)..]
        .iter()
        .collect();
    let after: String = after[..after.len().min(CONTEXT_CHARS)].iter().collect();
    format!(
        "{}{}{}{}{}",
        if cut_before { "…" } else { "" },
        clean_line(&before, 4 * CONTEXT_CHARS),
        masker.label_of(&text[hit]),
        clean_line(&after, 4 * CONTEXT_CHARS),
        if cut_after { "…" } else { "" },
    )
}

/// `path:line[,line…]: "context"`, with a note when the rule does not read the value there.
pub fn describe(shown_path: &str, loc: &Located) -> String {
    let mut nums: Vec<String> = loc
        .lines
        .iter()
        .take(LINES_SHOWN)
        .map(usize::to_string)
        .collect();
    if loc.lines.len() > LINES_SHOWN {
        nums.push("…".into());
    }
    let mut s = format!("{shown_path}:{}: \"{}\"", nums.join(","), loc.context);
    if loc.embedded_only {
        s.push_str(" (only inside a longer word or number, or in another case: the token rule does not read it there)");
    }
    s
}

/// Reads the blob at `path` of the corpus and locates `needle` in it. `None` when the path is
/// no readable file of the corpus (a symlink target or an unreadable object): the caller then
/// counts the search's hit as it stands and shows the path alone.
pub fn locate_in_corpus(
    corpus: &Corpus,
    path: &str,
    needle: &str,
    rule: TokenMatch,
    masker: &Masker,
) -> Option<Located> {
    let entry = corpus.get(path)?;
    let bytes = match &entry.kind {
        EntryKind::File | EntryKind::Executable => {
            let repo = corpus.base.open().ok()?;
            let blob = repo.find_blob(entry.oid).ok()?;
            blob.content().to_vec()
        }
        _ => return None,
    };
    locate(&bytes, needle, rule, masker)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(bytes: &[u8], needle: &str) -> Option<Located> {
        locate(bytes, needle, TokenMatch::Word, &Masker::new(&[needle]))
    }

    #[test]
    fn lines_context_and_embedding() {
        let l = word(b"a\nx 1.80 y\n-101.8019444\n", "1.80").unwrap();
        assert_eq!(l.lines, vec![2], "line 3 holds it only inside a number");
        assert_eq!(l.context, "x ‹token› y");
        assert!(!l.embedded_only);
        let l = word(b"a\n\n-101.8019444\n", "1.80").unwrap();
        assert_eq!(l.lines, vec![3]);
        assert!(l.embedded_only);
        assert_eq!(l.context, "-10‹token›19444");
        let l = word(b"Title\nSEE Codename here\n", "codename").unwrap();
        assert_eq!((l.lines.clone(), l.embedded_only), (vec![2], false));
        assert_eq!(describe("n.md", &l), "n.md:2: \"SEE ‹token› here\"");
        assert!(word(b"nothing", "codename").is_none());
    }

    #[test]
    fn a_licence_inside_committed_is_not_the_licence() {
        let l = word(b"# Hand-off\nThe tag is (not committed) yet.\n", "MIT").unwrap();
        assert!(l.embedded_only);
        assert!(describe("h.md", &l).contains("does not read it there"));
        let l = word(b"# Hand-off\nLicence: MIT.\n", "MIT").unwrap();
        assert!(!l.embedded_only);
        assert_eq!(l.lines, vec![2]);
    }

    #[test]
    fn context_is_cut_and_never_shows_a_needle() {
        let long = format!("{} KEY-77 and KEY-88 {}\n", "x".repeat(50), "y".repeat(50));
        let masker = Masker::new(&["KEY-77", "KEY-88"]);
        let l = locate(long.as_bytes(), "key-77", TokenMatch::Word, &masker).unwrap();
        assert!(
            l.context.starts_with('…') && l.context.ends_with('…'),
            "{}",
            l.context
        );
        assert!(!l.context.to_lowercase().contains("key-"), "{}", l.context);
        // Another needle the 32-character cut would halve: masked before the cut, so no
        // recognisable part of it is left.
        let line = format!("KEY-88 {} KEY-77 end\n", "x".repeat(28));
        let l = locate(line.as_bytes(), "KEY-77", TokenMatch::Word, &masker).unwrap();
        assert!(!l.context.contains("-88"), "{}", l.context);
        let l = locate(b"abc ABC", "abc", TokenMatch::Exact, &masker).unwrap();
        assert!(!l.embedded_only);
        let l = locate(b"ABC", "abc", TokenMatch::Exact, &masker).unwrap();
        assert!(l.embedded_only, "exact does not read another case");
    }
}
