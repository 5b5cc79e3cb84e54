//! Stage 1 of reading an answer: text as a reader sees it. NFKC normalisation (full-width
//! `１０ＭＢ` is `10MB`, a ligature its letters) with the map back to the original bytes, and the
//! per-thread cache of patterns built from a qset's values. Imports no other stage.

use regex::Regex;
use std::borrow::Cow;

/// `text` as a reader compares values: Unicode NFKC (full-width `１０ＭＢ` is `10MB`, a ligature
/// its letters), and the decimal digits of every script as ASCII digits (Arabic-Indic `٣٦٠٠`,
/// Persian `۵۰۴۴۳`, Devanagari, Bengali, Tamil, Thai `๙๔๖๔` …), with the Arabic percent sign as
/// `%`: another form of the same value is the value. Text already in that form (all ASCII, and
/// nearly every answer) is borrowed, not copied.
pub fn nfkc(text: &str) -> Cow<'_, str> {
    if text.chars().all(nfkc_stable) {
        return Cow::Borrowed(text);
    }
    let normal = icu_normalizer::ComposingNormalizerBorrowed::new_nfkc().normalize(text);
    if !normal
        .chars()
        .any(|c| native_digit(c).is_some() || c == '\u{066A}')
    {
        return normal;
    }
    Cow::Owned(
        normal
            .chars()
            .map(|c| match native_digit(c) {
                Some(d) => char::from(b'0' + d),
                None if c == '\u{066A}' => '%',
                None => c,
            })
            .collect(),
    )
}

/// The value of a decimal digit of a script other than ASCII (each block's zero code point
/// and the nine after it), `None` for anything else.
fn native_digit(c: char) -> Option<u8> {
    const ZEROS: [u32; 17] = [
        0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
        0x0D66, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x17E0,
    ];
    let u = c as u32;
    ZEROS
        .iter()
        .find(|&&z| (z..z + 10).contains(&u))
        .map(|&z| (u - z) as u8)
}

/// Characters that are their own NFKC form whatever surrounds them (ASCII, precomposed
/// Latin, Hangul syllables, kana, common Han and CJK and typographic punctuation): most answers
/// are made only of these, and are then read without running the normaliser.
pub(crate) fn nfkc_stable(c: char) -> bool {
    let u = c as u32;
    c.is_ascii()
        || matches!(u,
            0x00C0..=0x00FF
            | 0x0100..=0x013E
            | 0x0141..=0x0148
            | 0x014A..=0x017E
            | 0x0400..=0x04FF
            | 0x1E00..=0x1EFF
            | 0x2013..=0x2016
            | 0x2018..=0x2022
            | 0x2190..=0x2193
            | 0x3001..=0x3002
            | 0x3008..=0x3011
            | 0x3041..=0x3096
            | 0x30A1..=0x30FA
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7A3)
}

/// An answer in NFKC with, for each byte of the normalised text, the stretch of the original
/// it came from, so a hit is shown where the reader sees it. Normalisation runs per stretch of
/// non-ASCII characters (with the ASCII character before it, which a combining mark may join);
/// ASCII outside those stretches is its own NFKC form.
pub(crate) struct Normalised<'a> {
    pub(crate) text: Cow<'a, str>,
    /// Original byte range of each normalised byte's stretch; empty when `text` is borrowed.
    from: Vec<(usize, usize)>,
}

impl<'a> Normalised<'a> {
    pub(crate) fn of(text: &'a str) -> Normalised<'a> {
        if matches!(nfkc(text), Cow::Borrowed(_)) {
            return Normalised {
                text: Cow::Borrowed(text),
                from: Vec::new(),
            };
        }
        let mut out = String::with_capacity(text.len());
        let mut from = Vec::with_capacity(text.len());
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            let start = i;
            // An ASCII letter goes with the non-ASCII run after it (a combining mark may join
            // it); any other ASCII byte is its own stretch.
            if bytes[i].is_ascii()
                && (!bytes[i].is_ascii_alphabetic()
                    || bytes.get(i + 1).is_none_or(|b| b.is_ascii()))
            {
                out.push(bytes[i] as char);
                from.push((start, start + 1));
                i += 1;
                continue;
            }
            let mut end = if bytes[i].is_ascii() { i + 1 } else { i };
            while end < text.len() && !bytes[end].is_ascii() {
                end += 1;
            }
            let piece = nfkc(&text[start..end]);
            out.push_str(&piece);
            from.extend(std::iter::repeat_n((start, end), piece.len()));
            i = end;
        }
        Normalised {
            text: Cow::Owned(out),
            from,
        }
    }

    /// The original byte range of normalised range `r`.
    pub(crate) fn origin(&self, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
        if self.from.is_empty() || r.is_empty() {
            return r;
        }
        self.from[r.start].0..self.from[r.end - 1].1
    }
}

/// A pattern built from a token or a general value (the word rule, its re-spellings, its near
/// spellings), compiled once per thread: the readings ask about the same value sentence by
/// sentence, and a batch about the same question answer by answer. `None` when the pattern
/// does not compile. The cache holds at most 256 patterns and starts over when full, so memory
/// stays bounded over a batch of many questions (a `Regex` clone is a pointer).
pub(crate) fn cached_regex(pattern: &str) -> Option<Regex> {
    thread_local! {
        static CACHE: std::cell::RefCell<std::collections::HashMap<String, Option<Regex>>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(re) = cache.get(pattern) {
            return re.clone();
        }
        if cache.len() >= 256 {
            cache.clear();
        }
        let re = Regex::new(pattern).ok();
        cache.insert(pattern.to_string(), re.clone());
        re
    })
}
