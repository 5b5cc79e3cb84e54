//! Stage 2: what in an answer is quotation, not the answer speaking. Backtick spans and fenced
//! blocks (what refusal detection must not read) and reasoning blocks (`<think>…</think>`, an
//! agent quoting itself before it answers). Imports only stage 1.

use regex::Regex;
use std::borrow::Cow;
use std::sync::OnceLock;

use crate::normalise::cached_regex;

/// A line that could open or close a fenced block: its fence character, the length of the
/// run, and whether the line is only the run (a possible closer).
pub(crate) fn fence_of(line: &str) -> Option<(u8, usize, bool)> {
    let t = line.trim_start();
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let run = t.bytes().take_while(|&b| b == c).count();
    if run < 3 {
        return None;
    }
    let rest = &t[run..];
    // A backtick fence's info string may not hold a backtick (CommonMark); such a line is an
    // inline span, not a fence.
    if c == b'`' && rest.contains('`') {
        return None;
    }
    Some((c, run, rest.trim().is_empty()))
}

/// The answer with fenced code blocks and inline backtick spans removed, in linear time.
///
/// A fenced block needs its closing fence; an unclosed opener is ordinary text (otherwise one
/// stray ``` would hide every refusal after it). Inline spans follow the seed (`sed
/// 's/`[^`]*`//g'`, per line) widened to CommonMark's rule: a run of N backticks closes at the
/// next run of exactly N on the same line; an unmatched run stays as text.
pub fn strip_quoted(text: &str) -> Cow<'_, str> {
    let text = match strip_reasoning(text) {
        Cow::Borrowed(t) => t,
        Cow::Owned(t) => return Cow::Owned(strip_quoted(&t).into_owned()),
    };
    if !text.contains('`') && !text.contains("~~~") {
        return Cow::Borrowed(text);
    }
    let fences = fence_lines(text);
    // For every fence-like line, the longest bare run of each kind on a later line: an opener
    // of length L has a closer iff that is >= L. One backward pass keeps this linear.
    let mut closer_after: Vec<[usize; 2]> = vec![[0, 0]; fences.len()];
    let mut best = [0usize; 2];
    for i in (0..fences.len()).rev() {
        closer_after[i] = best;
        let (_, _, c, run, bare) = fences[i];
        if bare {
            let k = usize::from(c == b'~');
            best[k] = best[k].max(run);
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut scratch = Scratch::default();
    let mut pos = 0; // start of text not yet emitted
                     // Every loop here is a `for` over a bounded range: a wrong index can misread a span (and a
                     // test says so) but never spin, so a mutated line fails fast instead of timing out.
    let mut skip_to = 0; // fences before this index sit inside a block already stripped
    for f in 0..fences.len() {
        let (start, _, c, run, _) = fences[f];
        let k = usize::from(c == b'~');
        if f < skip_to || closer_after[f][k] < run {
            continue;
        }
        let Some(g) = (f + 1..fences.len())
            .find(|&g| matches!(fences[g], (_, _, cc, r, true) if cc == c && r >= run))
        else {
            continue;
        };
        let end = fences[g].1;
        strip_inline_lines(&text[pos..start], &mut out, &mut scratch);
        // Keep the line structure so line-bound matching sees the same lines.
        let newlines = text[start..end].bytes().filter(|&b| b == b'\n').count();
        out.extend(std::iter::repeat_n('\n', newlines));
        pos = end;
        skip_to = g + 1;
    }
    strip_inline_lines(&text[pos..], &mut out, &mut scratch);
    Cow::Owned(out)
}

/// The answer with its reasoning blocks (`<think>…</think>`, `<thinking>`, `<reasoning>`,
/// `<reflection>`) blanked, line breaks kept: what an agent thinks before it answers is a
/// quotation of itself, not the answer speaking (DESIGN §5.1). An unclosed block runs to the
/// end of the answer (a model cut off mid-thought has said nothing yet). Linear: one scan for
/// each opener.
pub fn strip_reasoning(text: &str) -> Cow<'_, str> {
    if !text.contains('<') {
        return Cow::Borrowed(text);
    }
    static OPEN: OnceLock<Regex> = OnceLock::new();
    let open = OPEN.get_or_init(|| {
        Regex::new(r"(?i)<(think|thinking|reasoning|reflection)>").expect("reasoning opener")
    });
    let Some(first) = open.find(text) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut at = first.start();
    loop {
        out.push_str(&text[pos..at]);
        let caps = open.captures_at(text, at).expect("found just before");
        let name = caps
            .get(1)
            .map_or("think", |m| m.as_str())
            .to_ascii_lowercase();
        let body_from = caps.get(0).map_or(at, |m| m.end());
        let end = cached_regex(&format!("(?i)</{name}>"))
            .and_then(|close| close.find_at(text, body_from))
            .map_or(text.len(), |m| m.end());
        let newlines = text[at..end].bytes().filter(|&b| b == b'\n').count();
        out.extend(std::iter::repeat_n('\n', newlines));
        pos = end;
        match open.find_at(text, pos) {
            Some(m) => at = m.start(),
            None => break,
        }
    }
    out.push_str(&text[pos..]);
    Cow::Owned(out)
}

/// Reused buffers for inline-span stripping, so a long answer allocates once.
#[derive(Default)]
pub(crate) struct Scratch {
    runs: Vec<(usize, usize)>,
    next_same: Vec<usize>,
    last_by_len: Vec<usize>,
}

/// Fence-like lines (sparse), found from the ``` and ~~~ occurrences rather than by visiting
/// every line: (line start, line end incl. newline, char, run, bare).
pub(crate) fn fence_lines(text: &str) -> Vec<(usize, usize, u8, usize, bool)> {
    let mut found = Vec::new();
    for marker in ["```", "~~~"] {
        let mut next_line = 0; // lines before this offset were already examined
        for (at, _) in text.match_indices(marker) {
            if at < next_line {
                continue;
            }
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            next_line = end;
            if let Some((c, run, bare)) = fence_of(&text[start..end]) {
                found.push((start, end, c, run, bare));
            }
        }
    }
    found.sort_unstable_by_key(|f| f.0);
    // A line holding both markers was found twice.
    found.dedup_by_key(|f| f.0);
    found
}

/// Inline-span stripping over a stretch of text, line by line (each with its newline): a line
/// without a backtick is copied whole, so spans never cross a line by construction. Nothing
/// here computes a line boundary by hand: an index that could be off by one, or a loop that
/// could spin under a wrong index, is not there to get wrong.
pub(crate) fn strip_inline_lines(text: &str, out: &mut String, scratch: &mut Scratch) {
    for line in text.split_inclusive('\n') {
        if line.contains('`') {
            strip_inline(line, out, scratch);
        } else {
            out.push_str(line);
        }
    }
}

pub(crate) fn strip_inline(line: &str, out: &mut String, scratch: &mut Scratch) {
    let bytes = line.as_bytes();
    let runs = &mut scratch.runs;
    runs.clear();
    let mut open: Option<usize> = None; // start of the backtick run being read
    for (i, &b) in bytes.iter().enumerate() {
        match (b == b'`', open) {
            (true, None) => open = Some(i),
            (false, Some(start)) => {
                runs.push((start, i));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        runs.push((start, bytes.len()));
    }
    // next_same[r]: the next run after r with the same length (usize::MAX if none), from one
    // backward pass with the last index seen per length.
    const NONE: usize = usize::MAX;
    scratch.next_same.clear();
    scratch.next_same.resize(runs.len(), NONE);
    for r in (0..runs.len()).rev() {
        let len = runs[r].1 - runs[r].0;
        if scratch.last_by_len.len() <= len {
            scratch.last_by_len.resize(len + 1, NONE);
        }
        scratch.next_same[r] = scratch.last_by_len[len];
        scratch.last_by_len[len] = r;
    }
    for &(s, e) in runs.iter() {
        scratch.last_by_len[e - s] = NONE;
    }
    let mut cursor = 0;
    let mut skip_to = 0; // runs before this index were inside a span already removed
    for r in 0..runs.len() {
        let close = scratch.next_same[r];
        if r < skip_to || close == NONE {
            continue;
        }
        out.push_str(&line[cursor..runs[r].0]);
        cursor = runs[close].1;
        skip_to = close + 1;
    }
    out.push_str(&line[cursor..]);
}

/// `strip_quoted` re-exported for the classifier's callers that build a [`Strict`] by hand.
pub fn spoken(text: &str) -> std::borrow::Cow<'_, str> {
    strip_quoted(text)
}
