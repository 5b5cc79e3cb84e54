//! The contamination search (DESIGN §6.2): every needle, in every blob of the corpus, in one pass.
//!
//! Matching is case-insensitive in two layers, and a hit in either counts:
//! 1. the raw bytes, ASCII case-insensitively, so binary content and invalid UTF-8 stretches are
//!    matched byte for byte;
//! 2. for text that is not pure ASCII, a copy in Unicode NFKC (the scorer's normaliser, so
//!    full-width `１０ＭＢ` is `10MB` here as in an answer) with every character lowercased by
//!    `char::to_lowercase` (no context, no full folding: `ß` does not become `ss`) against the
//!    needles normalised the same way, so `Ä`/`ä`, `Σ`/`σ` and `１０ＭＢ`/`10mb` match.
//!
//! A symlink is searched as its target text (the file it points at is never read: it is not in
//! the tree). Submodules are not searched and are listed as such. A blob that cannot be read is
//! an error: a search that failed is not "0 hits".
//!
//! Nothing here ever prints a needle: [`NeedleSet`]'s `Debug` shows only the count, and the
//! report holds paths only.

use std::borrow::Cow;
use std::fmt;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use rayon::prelude::*;
use scorer::normalise::nfkc;
use serde::Serialize;

use crate::corpus::{Corpus, EntryKind};
use crate::error::{Error, Result};

/// The needles of one search, compiled once. Its `Debug` never shows a needle.
pub struct NeedleSet {
    raw: AhoCorasick,
    folded: AhoCorasick,
    /// The characters whose lowercase holds an ASCII letter ([`LOWERCASE_TO_ASCII`]).
    to_ascii: AhoCorasick,
    any_non_ascii: bool,
    len: usize,
}

/// The only non-ASCII characters whose lowercase holds ASCII: `İ` (to `i̇`) and the Kelvin
/// sign (to `k`). In text without them, an ASCII needle found in the folded copy is found in the
/// raw bytes too (every ASCII run of the copy is an ASCII run of the text, lowercased), so the
/// folded pass is skipped; a test checks the list against every `char`.
const LOWERCASE_TO_ASCII: [char; 2] = ['\u{130}', '\u{212A}'];

impl fmt::Debug for NeedleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NeedleSet")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// Lowercases character by character, without context (so the same text folds the same way
/// wherever it stands).
fn fold(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).collect()
}

impl NeedleSet {
    /// Compiles the needles. An empty needle is refused: it would "hit" every file.
    pub fn new<S: AsRef<str>>(needles: &[S]) -> Result<NeedleSet> {
        if let Some(index) = needles.iter().position(|n| n.as_ref().is_empty()) {
            return Err(Error::EmptyNeedle { index });
        }
        let build = |pats: Vec<String>| {
            AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .build(pats)
                .map_err(|e| Error::Automaton {
                    count: needles.len(),
                    reason: e.to_string(),
                })
        };
        Ok(NeedleSet {
            raw: build(needles.iter().map(|n| n.as_ref().to_string()).collect())?,
            folded: build(needles.iter().map(|n| fold(&nfkc(n.as_ref()))).collect())?,
            to_ascii: AhoCorasick::new(LOWERCASE_TO_ASCII.map(String::from)).map_err(|e| {
                Error::Automaton {
                    count: needles.len(),
                    reason: e.to_string(),
                }
            })?,
            any_non_ascii: needles.iter().any(|n| !n.as_ref().is_ascii()),
            len: needles.len(),
        })
    }

    /// How many needles there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Which needles occur in `hay` (indices into the list given to [`NeedleSet::new`], ascending).
    /// Also used for anything placed in a checkout besides the corpus.
    pub fn find_in(&self, hay: &[u8]) -> Vec<usize> {
        let mut seen = vec![false; self.len];
        let mut left = self.len;
        let mut scan = |ac: &AhoCorasick, text: &[u8], left: &mut usize| {
            for m in ac.find_overlapping_iter(text) {
                let i = m.pattern().as_usize();
                if !seen[i] {
                    seen[i] = true;
                    *left -= 1;
                    if *left == 0 {
                        break;
                    }
                }
            }
        };
        if left > 0 {
            scan(&self.raw, hay, &mut left);
        }
        if left > 0 {
            if hay.is_ascii() {
                // ASCII text folds to its ASCII lowercase, which layer 1 already covered, except
                // for needles whose lowercase form changed beyond ASCII (e.g. the Kelvin sign).
                if self.any_non_ascii {
                    scan(&self.folded, hay, &mut left);
                }
            } else {
                let text = String::from_utf8_lossy(hay);
                let normal = nfkc(&text);
                // Text NFKC leaves as it is, with no character whose lowercase holds ASCII,
                // cannot hide an ASCII needle from layer 1.
                if self.any_non_ascii
                    || matches!(normal, Cow::Owned(_))
                    || self.to_ascii.is_match(hay)
                {
                    let folded = fold(&normal);
                    scan(&self.folded, folded.as_bytes(), &mut left);
                }
            }
        }
        seen.iter()
            .enumerate()
            .filter_map(|(i, &s)| s.then_some(i))
            .collect()
    }
}

/// The result of a contamination search. Holds paths only, never a needle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchReport {
    /// Per needle (same order as given), the corpus paths where it occurs, sorted.
    pub hits: Vec<Vec<String>>,
    /// How many entries were searched (files, executables, symlink targets).
    pub searched: usize,
    /// Entries that were not searched (submodules), by path.
    pub not_searched: Vec<String>,
}

impl SearchReport {
    /// Whether no needle occurs anywhere searched. Says nothing about `not_searched`.
    pub fn is_clean(&self) -> bool {
        self.hits.iter().all(Vec::is_empty)
    }
}

/// Searches every needle in every blob of the corpus in one pass per blob, blobs in parallel.
/// Any unreadable object makes the whole search an `Err`.
pub fn search_needles(corpus: &Corpus, needles: &NeedleSet) -> Result<SearchReport> {
    let searchable: Vec<usize> = (0..corpus.entries.len())
        .filter(|&i| corpus.entries[i].has_blob())
        .collect();
    let chunk = searchable
        .len()
        .div_ceil(rayon::current_num_threads() * 8)
        .max(1);
    let per_chunk: Vec<Vec<(usize, Vec<usize>)>> = searchable
        .par_chunks(chunk)
        .map(|idxs| -> Result<Vec<(usize, Vec<usize>)>> {
            // One repository handle per chunk: git2 handles are not shared across threads.
            let repo = corpus.base.open()?;
            let odb = repo
                .odb()
                .map_err(|e| Error::git("opening the object database", e))?;
            let mut out = Vec::new();
            for &i in idxs {
                let entry = &corpus.entries[i];
                let found = match &entry.kind {
                    EntryKind::Symlink { target } => needles.find_in(target),
                    EntryKind::File | EntryKind::Executable => {
                        let obj = odb.read(entry.oid).map_err(|source| Error::ObjectRead {
                            path: entry.path.clone(),
                            oid: entry.oid.to_string(),
                            source,
                        })?;
                        needles.find_in(obj.data())
                    }
                    EntryKind::Submodule => unreachable!("filtered above"),
                };
                if !found.is_empty() {
                    out.push((i, found));
                }
            }
            Ok(out)
        })
        .collect::<Result<_>>()?;

    let mut hits = vec![Vec::new(); needles.len()];
    for (i, found) in per_chunk.into_iter().flatten() {
        for n in found {
            hits[n].push(corpus.entries[i].path.clone());
        }
    }
    for h in &mut hits {
        h.sort();
    }
    Ok(SearchReport {
        hits,
        searched: searchable.len(),
        not_searched: corpus
            .entries
            .iter()
            .filter(|e| !e.has_blob())
            .map(|e| e.path.clone())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_characters_lowercase_to_ascii() {
        let found: Vec<char> = (0..=char::MAX as u32)
            .filter_map(char::from_u32)
            .filter(|c| !c.is_ascii() && c.to_lowercase().any(|l| l.is_ascii()))
            .collect();
        assert_eq!(found, LOWERCASE_TO_ASCII);
    }

    #[test]
    fn ascii_needles_are_found_through_the_characters_that_lowercase_to_ascii() {
        let set = NeedleSet::new(&["kx9", "abi", "plain7"]).unwrap();
        // The Kelvin sign and a dotted capital I, in otherwise non-ASCII text.
        assert_eq!(set.find_in("값: \u{212A}X9".as_bytes()), vec![0]);
        assert_eq!(set.find_in("이름 ABİ 끝".as_bytes()), vec![1]);
        // Plain ASCII inside non-ASCII text: the raw pass alone finds it.
        assert_eq!(set.find_in("설정 PLAIN7 값".as_bytes()), vec![2]);
        assert!(set.find_in("설정 값 KX 9".as_bytes()).is_empty());
    }

    #[test]
    fn a_needle_is_found_in_its_compatibility_forms_as_the_scorer_reads_them() {
        // Assembled here: the needles are never written whole in the tree.
        let (size, team) = (format!("{}MB", 10), format!("{}-{}", "pool", "b7"));
        let set = NeedleSet::new(&[size.as_str(), team.as_str()]).unwrap();
        // Full-width forms in otherwise Korean text, and a ligature-free full-width hyphen.
        assert_eq!(set.find_in("한도: １０ＭＢ 입니다".as_bytes()), vec![0]);
        assert_eq!(set.find_in("담당: ｐｏｏｌ－ｂ７".as_bytes()), vec![1]);
        // A needle written full-width is found in plain ASCII text.
        let wide = NeedleSet::new(&["１０ＭＢ"]).unwrap();
        assert_eq!(wide.find_in(b"limit = 10mb"), vec![0]);
        // Other text stays clean.
        assert!(set.find_in("한도: １０ＫＢ".as_bytes()).is_empty());
    }
}
