//! A positive or conflict answer that gives a value's number in another notation or unit (cues 1.11.0,
//! DESIGN §5.1 "another form of the same value is the value"): `1.200` for `1200`, `15 %` for
//! `0.15`, `٩٠ سیکنڈ` for `90s`, `５分` for `300 seconds`, `0.25 s` for `250 ms`.
//!
//! The word rule finds the token only as written (and a few respellings); the strict reading
//! then says `FAIL`, and the cues leave it `UNDETERMINED`. Here the answer is read as giving
//! the value when:
//! - it is one statement (one sentence, no `;`) and writes exactly one number, standing alone
//!   (not inside a name such as `S3`);
//! - that number, with the unit written just after it, is the token's value: the same integer
//!   with group separators, the same fraction as a percentage, or the same duration or size
//!   in another unit of the same kind;
//! - and it holds no question, negation, absence, hedge, guess or doubt word of any language
//!   the readings know.
//!
//! A number with no unit where the token has one, or two numbers, keep the reading uncertain.

use regex::Regex;
use std::sync::OnceLock;

use crate::cues::{asks_negates_or_hedges, doubts_answer, guess_words};
use crate::model::{Class, Kind};
use crate::strict::Strict;
use crate::wording;

/// The answer gives the token's value in another notation or unit (see the module docs):
/// on a positive item `PASS`; on a conflict item, the value it gives, planted
/// (`CONFLICT_FOLLOWED`) or true (`PRIOR_WON`), when it is one and not the other.
pub(crate) fn given_in_other_form(s: &Strict<'_>) -> Option<Class> {
    let plain = |spoken: &str| {
        !(asks_negates_or_hedges(spoken)
            || doubts_answer(spoken)
            || guess_words(spoken)
            || wording::world_doubt(spoken)
            || wording::stale_regex().is_match(spoken))
    };
    let said = || numbers_said(&crate::normalise::nfkc(s.text));
    // One statement: a second sentence or clause may say what the number measures is another
    // thing ("Retries back off 30 seconds; the timeout is set per route").
    static MARK: OnceLock<Regex> = OnceLock::new();
    let mark = MARK.get_or_init(|| Regex::new(r"(\d)[.,](\d)").expect("the mark pattern compiles"));
    // A decimal mark or group separator ends no sentence (`1.200 Anfragen`).
    let spoken = mark.replace_all(s.spoken, "${1}${2}");
    let sentences = spoken
        .split(['.', '!', ';', '\n', '。', '；'])
        .filter(|t| t.chars().any(char::is_alphabetic))
        .count();
    if sentences > 1 {
        return None;
    }
    match s.kind {
        Kind::Positive if !s.has_tok && !s.has_ref && s.class == Class::Fail => {
            let want = Quantity::of_token(s.token)?;
            let numbers = said();
            let [(written, unit)] = numbers.as_slice() else {
                return None;
            };
            (plain(s.spoken) && want.matches(written, unit)).then_some(Class::Pass)
        }
        Kind::Conflict
            if !s.has_tok && !s.general_seen && !s.has_ref && s.class == Class::Unclassified =>
        {
            let planted = Quantity::of_token(s.token)?;
            let general = Quantity::of_token(s.general?)?;
            let numbers = said();
            let [(written, unit)] = numbers.as_slice() else {
                return None;
            };
            if !plain(s.spoken) {
                return None;
            }
            match (
                planted.matches(written, unit),
                general.matches(written, unit),
            ) {
                (true, false) => Some(Class::ConflictFollowed),
                (false, true) => Some(Class::PriorWon),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What a token's value is: a bare number, a fraction, a percentage, a duration or a size.
#[derive(Debug, PartialEq)]
enum Quantity {
    /// An integer with no unit (`1200`).
    Integer(u64),
    /// A fraction below one with no unit (`0.15`): said as a percentage.
    Fraction(f64),
    /// A percentage (`15%`).
    Percent(f64),
    /// A duration in seconds (`90s`, `4500ms`, `90 days`).
    Seconds(f64),
    /// A size in megabytes (`25MB`).
    Megabytes(f64),
}

impl Quantity {
    fn of_token(token: &str) -> Option<Quantity> {
        let t = token.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let unit = unit.trim();
        if num.is_empty() || num.matches('.').count() > 1 || num.ends_with('.') {
            return None;
        }
        let n: f64 = num.parse().ok()?;
        if unit.is_empty() {
            return if !num.contains('.') {
                Some(Quantity::Integer(num.parse().ok()?))
            } else if n > 0.0 && n < 1.0 {
                Some(Quantity::Fraction(n))
            } else {
                None
            };
        }
        if unit == "%" {
            return Some(Quantity::Percent(n));
        }
        if let Some(scale) = seconds_per(unit) {
            return Some(Quantity::Seconds(n * scale));
        }
        if megabytes(unit) {
            return Some(Quantity::Megabytes(n));
        }
        None
    }

    /// `written` (the number as the answer wrote it) with `unit` (the word after it) is this.
    fn matches(&self, written: &str, unit: &str) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
        match self {
            Quantity::Integer(n) => {
                // A group separator needs three digits after it: `1.200` is 1200, `4.5` is not 45.
                grouped(written) == Some(*n) && (unit.is_empty() || !unit_word(unit))
            }
            Quantity::Fraction(f) => {
                percent(unit) && decimal(written).is_some_and(|v| close(v, f * 100.0))
            }
            Quantity::Percent(p) => percent(unit) && decimal(written).is_some_and(|v| close(v, *p)),
            Quantity::Seconds(secs) => seconds_per(unit)
                .zip(decimal(written))
                .is_some_and(|(scale, v)| close(v * scale, *secs)),
            Quantity::Megabytes(mb) => {
                megabytes(unit) && decimal(written).is_some_and(|v| close(v, *mb))
            }
        }
    }
}

/// An integer written with or without group separators of three digits (`1200`, `1.200`,
/// `1,200`, `1 200`).
fn grouped(written: &str) -> Option<u64> {
    let groups: Vec<&str> = written
        .split(['.', ',', ' ', '\u{00A0}', '\u{202F}', '\''])
        .collect();
    let ok =
        groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    if !ok
        || groups
            .iter()
            .any(|g| g.is_empty() || !g.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    groups.concat().parse().ok()
}

/// A number written with at most one decimal mark (`25`, `0.25`, `0,25`, `4.5`).
fn decimal(written: &str) -> Option<f64> {
    if written.contains(' ')
        || written.contains('\u{00A0}')
        || written.matches(['.', ',']).count() > 1
    {
        return None;
    }
    written.replace(',', ".").parse().ok()
}

/// The numbers an answer writes, standing alone (not inside a name such as `S3` or `v2`), each
/// with the word written just after it.
fn numbers_said(text: &str) -> Vec<(String, String)> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = R.get_or_init(|| {
        Regex::new(r"\d+(?:[.,\u{00A0}\u{202F}' ]\d+)*").expect("the number pattern compiles")
    });
    let mut out: Vec<(String, String)> = Vec::new();
    for m in r.find_iter(text).take(64) {
        if text[..m.start()]
            .chars()
            .next_back()
            .is_some_and(|c| (c.is_alphabetic() && !ideograph(c)) || matches!(c, '.' | '-' | '_'))
        {
            continue;
        }
        if text[m.end()..].starts_with(['.', '-', '_'])
            && text[m.end() + 1..].starts_with(|c: char| c.is_alphanumeric())
        {
            continue;
        }
        let written = m.as_str().trim_end().to_string();
        let rest = text[m.end()..].trim_start();
        let unit: String = if rest.starts_with(['%', '٪']) {
            "%".into()
        } else if rest.starts_with(ideograph) {
            // Han, kana and Hangul units are written without a space before the next word
            // (`45秒です`): the longest unit of up to three characters.
            let head: Vec<char> = rest.chars().take_while(|&c| ideograph(c)).take(3).collect();
            (1..=head.len())
                .rev()
                .map(|n| head[..n].iter().collect::<String>())
                .find(|u| unit_word(u))
                .unwrap_or_default()
        } else {
            rest.chars()
                .take_while(|c| c.is_alphabetic() || *c == '-')
                .take(20)
                .collect()
        };
        if !out.iter().any(|(w, u)| *w == written && *u == unit) {
            out.push((written, unit));
        }
    }
    out
}

/// Han, kana or Hangul.
fn ideograph(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF)
}

/// A unit word of any kind read here: a bare integer followed by one is not a bare integer.
fn unit_word(word: &str) -> bool {
    percent(word) || seconds_per(word).is_some() || megabytes(word)
}

fn percent(word: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"(?i)^(?:%|percent|per ?cent|procent\w*|prosent\w*|prozent|por ?ciento|pour ?cent|per ?cento|por ?cento|prosenttia|százalék\w*|yüzde|phần|เปอร์เซ็นต์|درصد|प्रतिशत|শতাংশ|சதவீத\w*|ποσοστ\w*|אחוז\w*|процент\w*|відсот\w*|퍼센트|パーセント)$")
            .expect("the percent pattern compiles")
    })
    .is_match(word)
}

/// Seconds in one of the time unit `word` names, in any language the readings know.
fn seconds_per(word: &str) -> Option<f64> {
    static UNITS: OnceLock<[(Regex, f64); 5]> = OnceLock::new();
    let units = UNITS.get_or_init(|| {
        let r = |p: &str| Regex::new(p).expect("a time unit pattern compiles");
        [
            (r(r"(?i)^(?:ms|msec|millis\w*|milliseconds?|milisegundos?|millisecondes?|millisecondi|millisekunden?|ミリ秒|毫秒|밀리초|миллисекунд\w*|мілісекунд\w*)$"), 0.001),
            (r(r"(?i)^(?:s|sec|secs|seconds?|segundos?|secondes?|secondi|sekunden?|sekund\w*|sekuntia?|másodperc\w*|saniye|detik|giây|วินาที|ثانية|ثوان\w*|ثانیه|سیکنڈ|सेकंड|সেকেন্ড|வினாடி\w*|δευτερόλεπτ\w*|שניות|秒|초|секунд\w*)$"), 1.0),
            (r(r"(?i)^(?:m|min|mins|minutes?|minutos?|minuti|minuten?|minuter|minutter|minit|minuuttia?|perc\w*|dakika|phút|นาที|دقيقة|دقائق|دقیقه|منٹ|मिनट|মিনিট|நிமிட\w*|λεπτ\w*|דקות|分|分钟|分鐘|분|минут\w*|хвилин\w*)$"), 60.0),
            (r(r"(?i)^(?:h|hr|hrs|hours?|horas?|heures?|ore|stunden?|timm?e[rn]?|tuntia?|óra\w*|saat|jam|giờ|ชั่วโมง|ساعة|ساعات|ساعت|گھنٹ\w*|घंटे|घंटा|ঘণ্টা|மணி\w*|ώρ\w*|שעות|時間|小时|小時|시간|час\w*|годин\w*)$"), 3600.0),
            (r(r"(?i)^(?:d|days?|días?|dias?|jours?|giorni|tage?n?|dagar|dage|dager|päivää?|nap\w*|gün|hari|ngày|วัน|يوم\w*|أيام|روز|دن|दिन|দিন|நாள்\w*|ημέρ\w*|ימים|日|天|일|дн\w*|день|днів)$"), 86_400.0),
        ]
    });
    units
        .iter()
        .find(|(r, _)| r.is_match(word))
        .map(|(_, s)| *s)
}

fn megabytes(word: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(r"(?i)^(?:mb|mib|mo|megabytes?|megabajt\w*|мегабайт\w*|мб|ميغابايت|مگابایت|メガバイト|메가바이트)$")
            .expect("the size pattern compiles")
    })
    .is_match(word)
}

#[cfg(test)]
mod tests {
    use crate::model::{Class, Kind};

    fn class(answer: &str, token: &str) -> Class {
        crate::classify::class_of(Kind::Positive, answer, token)
    }

    #[test]
    fn the_same_value_in_another_notation_or_unit_is_the_value() {
        for (answer, token) in [
            (
                "Das Rate-Limit liegt bei 1.200 Anfragen pro Minute.",
                "1200",
            ),
            ("Le taux d'échantillonnage est de 25 %.", "0.25"),
            ("リクエストのタイムアウトは４５秒です。", "45s"),
            ("Upstream timeout = 4.5 s (hand-off).", "4500ms"),
            ("Step sync runs every 15 minutes.", "900 seconds"),
        ] {
            assert_eq!(class(answer, token), Class::Pass, "{answer}");
        }
    }

    #[test]
    fn another_number_or_a_doubt_is_never_the_value() {
        for (answer, token) in [
            ("timeout 4.5s", "45s"),
            ("The limit went from 1.200 to 2.400 requests.", "1200"),
            ("It is probably 25 %, but I am not sure.", "0.25"),
            ("1 hour", "3600"),
            ("Rollout is at 15 users.", "0.15"),
            // A group separator needs three digits after it.
            ("Der Wert ist 4,5.", "45"),
            // The number may measure another thing said in another clause.
            (
                "Retries back off 30 seconds; the request timeout is set per route.",
                "30s",
            ),
        ] {
            assert_ne!(class(answer, token), Class::Pass, "{answer}");
        }
    }
}
