//! Spellings of a value that a reader takes for the value itself (DESIGN §5, word rule): the
//! same number with thousands separators (`8,443` for `8443`), a version without its `v`
//! (`2.5.0` for `v2.5.0`), an identifier with other separators (`AUTH 31` for `AUTH-31`) and a
//! date written another way (`14 March 2026`, `14.03.2026`, `2026年3月14日` for `2026-03-14`).
//!
//! Only exact re-spellings are here: every part of the value, in order, nothing added. Looser
//! likenesses (a unit spelled out, a number in words, a dropped `.0`) stay cues: they mark a
//! reading uncertain and never decide it. `--token-match exact` uses none of this.

use std::ops::Range;

use crate::normalise::cached_regex;
use crate::values::{stands_alone, TokenMatch};

impl TokenMatch {
    /// Whether a reader sees `value` in `text`: [`TokenMatch::finds`], and under the word rule
    /// also an exact re-spelling (`8,443`, `2.5.0` for `v2.5.0`, `14 March 2026`). The
    /// classifier and its cues read presence here; the gates keep [`TokenMatch::finds`].
    /// Defined with the re-spellings, so the token rule's stage does not import this one.
    pub fn reads(self, text: &str, value: &str) -> bool {
        self.finds(text, value) || (self == TokenMatch::Word && respelled(text, value))
    }
}

/// The value is in `text`, spelled another way a reader takes for the same value.
pub(crate) fn respelled(text: &str, token: &str) -> bool {
    !respelled_at(text, token).is_empty()
}

/// Where `text` names the value spelled another way (byte ranges, at most 16), so the cues
/// read the words around a re-spelled value as they do around the token.
pub(crate) fn respelled_at(text: &str, token: &str) -> Vec<Range<usize>> {
    let token = token.trim();
    if token.is_empty() {
        return Vec::new();
    }
    let mut at = grouped_number(text, token);
    at.extend(bare_version(text, token));
    at.extend(separated_runs(text, token));
    at.extend(same_date(text, token));
    // The value boundary holds for re-spellings too (DESIGN §5.1).
    let path = token.contains('/');
    at.retain(|r| {
        stands_alone(text, r) && !(path && crate::values::path_continues(&text[r.end..]))
    });
    at.sort_by_key(|r| (r.start, r.end));
    at.dedup();
    at.truncate(16);
    at
}

/// The ranges of the value group of each match (the pattern's first capture group).
fn found(pattern: &str, text: &str) -> Vec<Range<usize>> {
    match cached_regex(pattern) {
        Some(r) => r
            .captures_iter(text)
            .filter_map(|c| c.get(1).map(|m| m.range()))
            .take(16)
            .collect(),
        None => Vec::new(),
    }
}

/// `8443` written `8,443`, `8.443`, `8 443` or `8'443`: groups of three from the right.
fn grouped_number(text: &str, token: &str) -> Vec<Range<usize>> {
    if token.len() < 4 || !token.bytes().all(|b| b.is_ascii_digit()) || token.starts_with('0') {
        return Vec::new();
    }
    let head = token.len() % 3;
    let mut groups: Vec<&str> = Vec::new();
    if head > 0 {
        groups.push(&token[..head]);
    }
    let mut i = head;
    while i < token.len() {
        groups.push(&token[i..i + 3]);
        i += 3;
    }
    // A lone `.` (`8.443`) is a decimal to an English reader: a dot groups only when it
    // repeats (`1.234.567`).
    let sep = if groups.len() > 2 {
        r"[,. '\x{202F}\x{00A0}]"
    } else {
        r"[, '\x{202F}\x{00A0}]"
    };
    let body = groups.join(sep);
    // Not inside a longer number or a decimal (`18,443`, `8,443.5`, `8,4431`).
    found(
        &format!(r"(?:^|[^0-9.,])({body})(?:$|[^0-9.,]|[.,](?:[^0-9]|$))"),
        text,
    )
}

/// `v2.5.0` written `2.5.0` (and `2.5.0` written `v2.5.0`), never inside a longer version.
fn bare_version(text: &str, token: &str) -> Vec<Range<usize>> {
    let core = token.strip_prefix(['v', 'V']).unwrap_or(token);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() < 2
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Vec::new();
    }
    found(
        &format!(
            r"(?i)(?:^|[^0-9A-Za-z.])(v?{})(?:$|[^0-9A-Za-z.]|\.(?:[^0-9A-Za-z]|$))",
            regex::escape(core)
        ),
        text,
    )
}

/// `AUTH-31` written `AUTH 31`, `auth_31` or `AUTH31`; `eu-west-1` written `eu west 1`. The
/// runs of letters and digits in order, case ignored; two digit runs keep a separator between
/// them (`10.0.0.1` is not `10001`).
fn separated_runs(text: &str, token: &str) -> Vec<Range<usize>> {
    let runs: Vec<&str> = token
        .split(|c: char| !c.is_alphanumeric())
        .filter(|r| !r.is_empty())
        .collect();
    if runs.len() < 2 || runs.iter().map(|r| r.chars().count()).sum::<usize>() < 3 {
        return Vec::new();
    }
    // A date is read by `same_date`, where day and month may move.
    if runs.iter().all(|r| r.bytes().all(|b| b.is_ascii_digit())) && runs.len() == 3 {
        return Vec::new();
    }
    let digit = |r: &str| r.bytes().all(|b| b.is_ascii_digit());
    let mut body = regex::escape(runs[0]);
    for w in runs.windows(2) {
        body.push_str(if digit(w[0]) && digit(w[1]) {
            r"[\s\-_./:]+"
        } else {
            r"[\s\-_./:]*"
        });
        body.push_str(&regex::escape(w[1]));
    }
    found(
        &format!(r"(?i)(?:^|[^0-9A-Za-z])({body})(?:$|[^0-9A-Za-z])"),
        text,
    )
}

/// An ISO date token (`2026-03-14`, `2026/03/14`) and the same day in the answer: the year,
/// and within a few words of it the month (as a number or a name in a language the lexicon
/// covers or meets) and the day, as standalone numbers.
fn same_date(text: &str, token: &str) -> Vec<Range<usize>> {
    let parts: Vec<&str> = token.split(['-', '/', '.']).collect();
    let [y, m, d] = parts[..] else {
        return Vec::new();
    };
    let num = |s: &str, len: std::ops::RangeInclusive<usize>| {
        (len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (num(y, 4..=4), num(m, 1..=2), num(d, 1..=2)) else {
        return Vec::new();
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Vec::new();
    }
    let words = words(text);
    let month_at = |j: usize| {
        let w = words[j].1;
        month_of(w) == Some(month) || w.parse::<u32>().ok() == Some(month)
    };
    let day_at = |j: usize| {
        let w = words[j].1;
        w.len() <= 2 && w.parse::<u32>().ok() == Some(day)
    };
    let span = |a: usize, b: usize| {
        let (lo, hi) = (a.min(b), a.max(b));
        words[lo].0..words[hi].0 + words[hi].1.len()
    };
    let mut out = Vec::new();
    for (i, (_, w)) in words.iter().enumerate() {
        if out.len() >= 16 {
            break;
        }
        if w.len() != 4 || w.parse::<u32>().ok() != Some(year) {
            continue;
        }
        // Day and month next to each other (at most one word between), and the nearer of
        // them at most one word from the year: `14 March 2026`, `March 14, 2026`,
        // `2026년 3월 14일`; not `March 2026 … closed 14 tickets`.
        let near = i.saturating_sub(4)..(i + 5).min(words.len());
        let hit = near
            .clone()
            .filter(|&j| j != i && day_at(j))
            .find_map(|dj| {
                near.clone()
                    .filter(|&j| j != i && j != dj && month_at(j))
                    .find(|&mj| dj.abs_diff(mj) <= 2 && dj.abs_diff(i).min(mj.abs_diff(i)) <= 2)
                    .map(|mj| (dj, mj))
            });
        if let Some((dj, mj)) = hit {
            let a = span(dj, mj);
            let b = span(i, i);
            out.push(a.start.min(b.start)..a.end.max(b.end));
        }
    }
    out
}

/// Runs of ASCII digits and runs of letters, in order; a Hangul, kana or Han character is a
/// word of its own (`2026年3月14日` gives `2026`, `年`, `3`, `月`, `14`, `日`).
fn words(text: &str) -> Vec<(usize, &str)> {
    #[derive(PartialEq, Clone, Copy)]
    enum K {
        Digit,
        Letter,
    }
    let mut out = Vec::new();
    let mut run: Option<(usize, K)> = None;
    for (i, c) in text.char_indices().take(200_000) {
        let k = if c.is_ascii_digit() {
            Some(K::Digit)
        } else if c.is_alphabetic() && !is_cjk(c) {
            Some(K::Letter)
        } else {
            None
        };
        if let Some((s, rk)) = run {
            if Some(rk) != k {
                out.push((s, &text[s..i]));
                run = None;
            }
        }
        if run.is_none() {
            run = k.map(|k| (i, k));
        }
        if is_cjk(c) {
            out.push((i, &text[i..i + c.len_utf8()]));
        }
    }
    if let Some((s, _)) = run {
        out.push((s, &text[s..]));
    }
    out
}

fn is_cjk(c: char) -> bool {
    let u = c as u32;
    (0x3040..=0x30FF).contains(&u)
        || (0x4E00..=0x9FFF).contains(&u)
        || (0xAC00..=0xD7AF).contains(&u)
}

/// The month a word names (1-12): full names and their inflected forms or usual
/// abbreviations in English, German, Spanish, French, Italian, Portuguese, Dutch, Swedish,
/// Polish, Turkish, Indonesian and Russian, case ignored.
pub(crate) fn month_of(word: &str) -> Option<u32> {
    const MONTHS: [&[&str]; 12] = [
        &[
            "jan",
            "january",
            "januar",
            "enero",
            "janvier",
            "gennaio",
            "janeiro",
            "januari",
            "styczeń",
            "stycznia",
            "ocak",
            "январь",
            "января",
        ],
        &[
            "feb",
            "february",
            "februar",
            "febrero",
            "fév",
            "fev",
            "février",
            "fevrier",
            "febbraio",
            "fevereiro",
            "februari",
            "luty",
            "lutego",
            "şubat",
            "subat",
            "февраль",
            "февраля",
        ],
        &[
            "mar",
            "mär",
            "march",
            "märz",
            "marz",
            "marzo",
            "mars",
            "março",
            "marco",
            "maart",
            "marzec",
            "marca",
            "mart",
            "maret",
            "март",
            "марта",
        ],
        &[
            "apr",
            "april",
            "abril",
            "avril",
            "aprile",
            "kwiecień",
            "kwietnia",
            "nisan",
            "апрель",
            "апреля",
        ],
        &[
            "may", "mai", "mayo", "maggio", "maio", "mei", "maj", "maja", "mayıs", "mayis", "май",
            "мая",
        ],
        &[
            "jun", "june", "juni", "junio", "juin", "giugno", "junho", "czerwiec", "czerwca",
            "haziran", "июнь", "июня",
        ],
        &[
            "jul", "july", "juli", "julio", "juillet", "luglio", "julho", "lipiec", "lipca",
            "temmuz", "июль", "июля",
        ],
        &[
            "aug",
            "august",
            "agosto",
            "août",
            "aout",
            "augustus",
            "augusti",
            "sierpień",
            "sierpnia",
            "ağustos",
            "agustos",
            "agustus",
            "август",
            "августа",
        ],
        &[
            "sep",
            "sept",
            "september",
            "septiembre",
            "septembre",
            "settembre",
            "setembro",
            "wrzesień",
            "września",
            "eylül",
            "eylul",
            "сентябрь",
            "сентября",
        ],
        &[
            "oct",
            "okt",
            "october",
            "oktober",
            "octubre",
            "octobre",
            "ottobre",
            "outubro",
            "październik",
            "października",
            "ekim",
            "октябрь",
            "октября",
        ],
        &[
            "nov",
            "november",
            "noviembre",
            "novembre",
            "novembro",
            "listopad",
            "listopada",
            "kasım",
            "kasim",
            "ноябрь",
            "ноября",
        ],
        &[
            "dec",
            "dez",
            "dic",
            "december",
            "dezember",
            "diciembre",
            "décembre",
            "decembre",
            "dicembre",
            "dezembro",
            "desember",
            "grudzień",
            "grudnia",
            "aralık",
            "aralik",
            "декабрь",
            "декабря",
        ],
    ];
    if word.chars().count() < 3 || word.len() > 40 {
        return None;
    }
    let lower = word.to_lowercase();
    MONTHS
        .iter()
        .position(|names| names.contains(&lower.as_str()))
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::{respelled, respelled_at};

    #[test]
    fn the_ranges_cover_the_value() {
        let t = "Port 8,443 here; the freeze is 14 March 2026.";
        let at = respelled_at(t, "8443");
        assert_eq!(&t[at[0].clone()], "8,443");
        let at = respelled_at(t, "2026-03-14");
        assert_eq!(&t[at[0].clone()], "14 March 2026");
    }

    #[test]
    fn thousands_separators_name_the_number() {
        assert!(respelled("8,443 — per the hand-off.", "8443"));
        assert!(!respelled("Latency 8.443 s.", "8443"));
        assert!(respelled("1.234.567 rows", "1234567"));
        assert!(respelled("Port 8 443", "8443"));
        assert!(!respelled("18,443 rows", "8443"));
        assert!(!respelled("8,4431", "8443"));
        assert!(!respelled("8,443.5 ms", "8443"));
        assert!(!respelled("84,43", "8443"));
    }

    #[test]
    fn a_version_with_or_without_its_v() {
        assert!(respelled("Pinned at 2.5.0 in package.json.", "v2.5.0"));
        assert!(respelled("It is v3.12.", "3.12"));
        assert!(!respelled("Pinned at 2.5.0.1.", "v2.5.0"));
        assert!(!respelled("Pinned at 12.5.0.", "v2.5.0"));
        assert!(!respelled("Pinned at 2.5.01.", "v2.5.0"));
        assert!(!respelled("build 2.5", "v2.5.0"));
    }

    #[test]
    fn separators_of_an_identifier() {
        assert!(respelled("It's AUTH 31.", "AUTH-31"));
        assert!(respelled("see auth_31", "AUTH-31"));
        assert!(respelled("region eu west 1", "eu-west-1"));
        assert!(!respelled("AUTH-310", "AUTH-31"));
        assert!(!respelled("10001", "10.0.0.1"));
    }

    #[test]
    fn a_date_written_another_way() {
        for t in [
            "The freeze starts on 14 March 2026, per the hand-off.",
            "March 14, 2026",
            "14.03.2026",
            "2026年3月14日に開始",
            "2026년 3월 14일",
            "Заморозка кода начинается 14 марта 2026 года.",
            "Termin to 14 marca 2026 r.",
        ] {
            assert!(respelled(t, "2026-03-14"), "{t}");
        }
        assert!(!respelled("21 March 2026", "2026-03-14"));
        assert!(!respelled("14 April 2026", "2026-03-14"));
        assert!(!respelled(
            "In March 2026 we closed 14 tickets",
            "2026-03-14"
        ));
        assert!(!respelled("2026: 3 releases", "2026-03-14"));
    }
}
