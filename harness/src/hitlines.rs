//! Where a contamination hit is, for the person who has to remove it: the lines of the file,
//! and whether the token only occurs inside a longer word or number. A bare path sent people
//! grepping, and a hit for `1.80` inside `-101.8019444` looked like a real leak. Only line
//! numbers are shown, never the text around them (it holds the token).

use runners::{Corpus, EntryKind};

/// At most this many line numbers are listed per file.
const LINES_SHOWN: usize = 3;

/// The hits of one needle in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// 1-based line numbers, ascending, each once.
    pub lines: Vec<usize>,
    /// Every occurrence touches an ASCII letter or digit at an alphanumeric edge of the needle,
    /// the way the scorer's token rule reads it (`v2.4.1` is not in `v2.4.10`).
    pub embedded_only: bool,
}

/// Finds `needle` in `bytes`, case-insensitively like the search (lowercased character by
/// character). `None` when it does not occur in that reading.
pub fn locate(bytes: &[u8], needle: &str) -> Option<Located> {
    let hay: String = String::from_utf8_lossy(bytes)
        .chars()
        .flat_map(char::to_lowercase)
        .collect();
    let needle: String = needle.chars().flat_map(char::to_lowercase).collect();
    if needle.is_empty() {
        return None;
    }
    let alnum = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let (first, last) = (needle.chars().next(), needle.chars().next_back());
    let mut lines = Vec::new();
    let mut embedded_only = true;
    let mut line = 1;
    let mut counted = 0;
    for (at, _) in hay.match_indices(needle.as_str()) {
        line += hay[counted..at].matches('\n').count();
        counted = at;
        if lines.last() != Some(&line) {
            lines.push(line);
        }
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        let touches = (alnum(first) && alnum(before)) || (alnum(last) && alnum(after));
        embedded_only &= touches;
    }
    (!lines.is_empty()).then_some(Located {
        lines,
        embedded_only,
    })
}

/// `path:line[,line…]`, with a note when every hit sits inside a longer word or number.
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
    let mut s = format!("{shown_path}:{}", nums.join(","));
    if loc.embedded_only {
        s.push_str(" (inside a longer word or number)");
    }
    s
}

/// Reads the blob at `path` of the corpus and locates `needle` in it. `None` when the path is
/// no readable file of the corpus (a symlink target or an unreadable object: the path alone is
/// shown then).
pub fn locate_in_corpus(corpus: &Corpus, path: &str, needle: &str) -> Option<Located> {
    let entry = corpus.get(path)?;
    let bytes = match &entry.kind {
        EntryKind::File | EntryKind::Executable => {
            let repo = corpus.base.open().ok()?;
            let blob = repo.find_blob(entry.oid).ok()?;
            blob.content().to_vec()
        }
        _ => return None,
    };
    locate(&bytes, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_embedding() {
        let l = locate(b"a\nx 1.80 y\n-101.8019444\n", "1.80").unwrap();
        assert_eq!(l.lines, vec![2, 3]);
        assert!(!l.embedded_only, "line 2 stands alone");
        let l = locate(b"a\n\n-101.8019444\n", "1.80").unwrap();
        assert_eq!(l.lines, vec![3]);
        assert!(l.embedded_only);
        let l = locate(b"Title\nSEE Codename here\n", "codename").unwrap();
        assert_eq!((l.lines.clone(), l.embedded_only), (vec![2], false));
        assert_eq!(describe("n.md", &l), "n.md:2");
        assert!(locate(b"nothing", "codename").is_none());
    }
}
