//! Stage 2: where a value stands in an answer. The token rule (`TokenMatch`: case, the value
//! boundary of a longer value joined by `-`, `.` or `_`, NFKC) and its hits, for the scorer and
//! the gates alike. Imports only stage 1.

use crate::normalise::{cached_regex, nfkc, Normalised};

/// How a token (and a conflict item's `general`) is found in an answer (DESIGN §5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum TokenMatch {
    /// Unicode case-insensitive; no ASCII letter or digit may touch an ASCII-alphanumeric edge
    /// of the token. The default: `AUTH-31` is not in `AUTH-310`, `helios-2` is `Helios-2`.
    #[default]
    Word,
    /// Byte-exact substring, the seed's `grep -F`: reproduces rounds scored before 2.0.0.
    Exact,
}

impl TokenMatch {
    /// The name used on the command line, in qsets' manifests and in round records.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenMatch::Word => "word",
            TokenMatch::Exact => "exact",
        }
    }

    /// Parse `word` or `exact`.
    pub fn parse(s: &str) -> Option<TokenMatch> {
        match s {
            "word" => Some(TokenMatch::Word),
            "exact" => Some(TokenMatch::Exact),
            _ => None,
        }
    }

    /// True when `needle` occurs in `text` under this rule. An empty needle never occurs.
    pub fn finds(self, text: &str, needle: &str) -> bool {
        if needle.is_empty() {
            return false;
        }
        match self {
            TokenMatch::Exact => text.contains(needle),
            TokenMatch::Word => {
                let (text, needle) = (nfkc(text), nfkc(needle));
                let found = word_hits(&text, &needle, Boundary::Value).next().is_some();
                found
            }
        }
    }

    /// Every place `needle` occurs in `text` under this rule, as byte ranges of `text` (under
    /// the word rule, of the characters whose NFKC form is the needle), in order. A gate that
    /// refuses a value says where it saw it; this is the same reading as [`TokenMatch::finds`]
    /// (`finds` is true exactly when this is not empty).
    pub fn occurrences(self, text: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
        if needle.is_empty() {
            return Vec::new();
        }
        match self {
            TokenMatch::Exact => text
                .match_indices(needle)
                .map(|(at, m)| at..at + m.len())
                .collect(),
            TokenMatch::Word => {
                let needle = nfkc(needle);
                let mapped = Normalised::of(text);
                word_hits(&mapped.text, &needle, Boundary::Value)
                    .map(|r| mapped.origin(r))
                    .collect()
            }
        }
    }

    /// Where the gates look for a value an agent could read (contamination, the ledger): as
    /// [`TokenMatch::occurrences`], but under the word rule only an ASCII letter or digit
    /// touching the token's edge hides it. A token joined by `-`, `.` or `_` (`notes-X.txt`,
    /// `X_backup`) is still handed over to a reader, so the gates over-block where the scorer
    /// would read another value.
    pub fn occurrences_visible(self, text: &str, needle: &str) -> Vec<std::ops::Range<usize>> {
        match self {
            TokenMatch::Exact => self.occurrences(text, needle),
            TokenMatch::Word if needle.is_empty() => Vec::new(),
            TokenMatch::Word => {
                let needle = nfkc(needle);
                let mapped = Normalised::of(text);
                word_hits(&mapped.text, &needle, Boundary::Word)
                    .map(|r| mapped.origin(r))
                    .collect()
            }
        }
    }

    /// [`TokenMatch::occurrences_visible`] is not empty.
    pub fn finds_visible(self, text: &str, needle: &str) -> bool {
        !self.occurrences_visible(text, needle).is_empty()
    }
}

/// Which neighbours make a hit part of something longer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Boundary {
    /// The scorer's value boundary (DESIGN §5.1): letters and digits, and `-`, `.`, `_` joins.
    Value,
    /// Only an ASCII letter or digit touching the edge (what the gates use).
    Word,
}

/// The word rule's value boundary (DESIGN §5.1) on one side of a hit: `near` is the character
/// touching the token's edge, `far` the one beyond it. An ASCII letter or digit touching the
/// edge, or a `-`, `.` or `_` joining it to an ASCII letter or digit, makes the hit part of a
/// longer value (`82.5`, `ml-artifacts-prod-apne2`, `WEBHOOK_SECRET_KEY`); a sentence's closing
/// `.`, a Markdown `_emphasis_` mark and a Hangul or CJK neighbour do not.
pub(crate) fn extends_value(near: Option<char>, far: Option<char>) -> bool {
    match near {
        Some(c) if c.is_ascii_alphanumeric() => true,
        Some('-' | '.' | '_') => far.is_some_and(|f| f.is_ascii_alphanumeric()),
        _ => false,
    }
}

/// [`extends_value`] after a hit (`tail` is the text after it), where a file extension is the
/// one exception: `reference_next_session_starter.md` names the file the token names.
pub(crate) fn extends_after(tail: &str) -> bool {
    let mut after = tail.chars();
    if !extends_value(after.next(), after.next()) {
        return false;
    }
    const EXTENSIONS: [&str; 16] = [
        "md", "txt", "rs", "py", "json", "yaml", "yml", "toml", "ts", "js", "go", "sh", "rb",
        "java", "kt", "sql",
    ];
    let Some(ext) = tail.strip_prefix('.') else {
        return true;
    };
    let word: String = ext
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let rest = &ext[word.len()..];
    let joined = rest.starts_with(['_', '-'])
        || (rest.starts_with('.') && rest[1..].starts_with(|d: char| d.is_ascii_alphanumeric()));
    joined || !EXTENSIONS.contains(&word.to_ascii_lowercase().as_str())
}

/// [`extends_value`] before a hit (`head` is the text before it).
pub(crate) fn extends_before(head: &str) -> bool {
    let mut before = head.chars().rev();
    extends_value(before.next(), before.next())
}

/// Whether `text[at]` stands as a value of its own under the value boundary ([`extends_value`]
/// on both sides), whatever its own edge characters: a re-spelled value inside a longer one
/// (`hanbit-stmt-exports-dr`) is not the value.
pub(crate) fn stands_alone(text: &str, at: &std::ops::Range<usize>) -> bool {
    let (Some(head), Some(tail)) = (text.get(..at.start), text.get(at.end..)) else {
        return false;
    };
    !extends_before(head) && !extends_after(tail)
}

/// The needle's case-insensitive occurrences in `text` (both already NFKC) that stand as a
/// value of their own: on each side whose edge character is an ASCII letter, digit or `_`,
/// [`extends_value`] must not hold. Overlapping hits are all tried (`tok tok`).
pub(crate) fn word_hits<'t>(
    text: &'t str,
    needle: &str,
    boundary: Boundary,
) -> impl Iterator<Item = std::ops::Range<usize>> + 't {
    let fenced = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let check_left = fenced(needle.chars().next());
    let check_right = fenced(needle.chars().last());
    // A path (`kv/kelp/prod/postgres`) continued by another segment (`…/replication`) is a
    // longer path, as `ml-artifacts-prod-apne2` is a longer name.
    let path = needle.contains('/');
    let re = cached_regex(&format!("(?i:{})", regex::escape(needle)));
    let mut from = 0;
    std::iter::from_fn(move || {
        let re = re.as_ref()?;
        while from <= text.len() {
            let m = re.find_at(text, from)?;
            from = m.start() + text[m.start()..].chars().next().map_or(1, char::len_utf8);
            let (left, right) = match boundary {
                Boundary::Value => (
                    check_left && extends_before(&text[..m.start()]),
                    check_right
                        && (extends_after(&text[m.end()..])
                            || (path && path_continues(&text[m.end()..]))),
                ),
                Boundary::Word => (
                    check_left
                        && text[..m.start()]
                            .chars()
                            .next_back()
                            .is_some_and(|c| c.is_ascii_alphanumeric()),
                    check_right
                        && text[m.end()..]
                            .chars()
                            .next()
                            .is_some_and(|c| c.is_ascii_alphanumeric()),
                ),
            };
            if !left && !right {
                return Some(m.range());
            }
        }
        None
    })
}

/// `tail` continues a path: a `/` followed by an ASCII letter or digit.
pub(crate) fn path_continues(tail: &str) -> bool {
    let mut after = tail.chars();
    after.next() == Some('/') && after.next().is_some_and(|c| c.is_ascii_alphanumeric())
}
