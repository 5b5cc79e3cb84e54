//! A negative answer that names the token only to deny it (cues 1.11.0, DESIGN §5.1: "a token
//! named only as absent, denied or searched for is `PASS` on a negative").
//!
//! The strict reading sees the token beside a refusal and reads `REFUSED_WITH_TOKEN`; the
//! cues leave that `UNDETERMINED`, since a guess ("probably Cloudflare") and a denial ("no
//! Cloudflare") look alike to it. Here the answer is read as the clean refusal it is when
//! every mention of the token is denied in one of three shapes, each in the few words just
//! before the token:
//! - a negating determiner: "no Cloudflare, no CloudFront", "ni INFO ni DEBUG", "ни 8000";
//! - a plain negation of the value, with no "but", "instead" or "rather" after it in the
//!   sentence: "It's not `@platform-team` — that team owns /infra/";
//! - a search for the token, where the answer also says the search found nothing: "I grepped
//!   for 50051: nothing", "Busqué «dkowalski» …: nada".
//!
//! Nowhere a guess, hedge or doubt word beside the token, and the token asked back never;
//! nowhere a number besides the token, nor a "but", "though" or "instead" (a value may follow).
//! A mention in any other shape keeps the reading uncertain: a fabrication must never be read
//! as a clean refusal.

use regex::Regex;
use std::sync::OnceLock;

use crate::cues::{guess_words, hedge_at_token, mentions};
use crate::model::{Class, Kind};
use crate::strict::Strict;

/// Every mention of a negative's token is denied (see the module docs).
pub(crate) fn only_denied(s: &Strict<'_>) -> bool {
    if s.kind != Kind::Negative || s.class != Class::RefusedWithToken || !s.has_ref {
        return false;
    }
    if hedge_at_token(s) || guess_words(s.spoken) {
        return false;
    }
    // Nothing else may be given: no number besides the token's mentions, no "but", "though" or
    // "instead" ("I grepped for 50051: nothing in the docs, but server.py binds it", "No 50051
    // here — the port is 8080").
    let without_token = token_free(s.spoken, s.token);
    if without_token.chars().any(char::is_numeric) || contrast_regex().is_match(&without_token) {
        return false;
    }
    mentions(s).is_some_and(|all| {
        all.iter().all(|m| {
            let (near, near3) = (m.near(2), m.near(3));
            determiner_regex().is_match(&near)
                || (negation_regex().is_match(&near3) && !instead_regex().is_match(&m.after))
                || (search_regex().is_match(&near3) && nothing_regex().is_match(s.spoken))
        })
    })
}

/// `text` with every mention of `token` (any case) taken out.
fn token_free(text: &str, token: &str) -> String {
    let pattern = format!("(?i){}", regex::escape(token.trim()));
    match Regex::new(&pattern) {
        Ok(r) if !token.trim().is_empty() => r.replace_all(text, " ").into_owned(),
        _ => text.to_string(),
    }
}

/// Negating determiners, as the word just before a value.
fn determiner_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)(?:^|\s)(?:no|neither|nor|ni|nem|nenhum\w*|ningun\w*|ningún|kein\w*|aucun\w*|geen|ingen|inget|intet|żadn\w*|žádn\w*|ни)$",
        )
        .expect("the determiner pattern compiles")
    })
}

/// A plain negation of the value ("it's not", "wasn't", "Not", "Это не", "Không phải").
fn negation_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)(?:^|\s)(?:(?:it'?s|it is|it’s|this is|that is|that's)? ?not|wasn'?t|isn'?t|wasn’t|isn’t|(?:ce )?n'est pas|no es|não é|non è|не|не является|không phải|nicht)$",
        )
        .expect("the negation pattern compiles")
    })
}

/// What a negation may be followed by to name the value the answer does give instead.
fn instead_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:but|instead|rather|it'?s|it is|it’s|sondern|sino|plutôt|mais|invece|ma|em vez|mas|а|вместо|но|mà là|而是|ではなく|가 아니라)\b",
        )
        .expect("the instead pattern compiles")
    })
}

/// Contrast words, anywhere in the answer: what may introduce the value it gives after all.
fn contrast_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:but|though|although|however|instead|rather|aber|jedoch|sondern|sino|pero|aunque|plutôt|mais|invece|ma|però|em vez|mas|porém|maar|men|а|вместо|но|однак|mà là|nhưng|tapi|namun)\b|而是|但|不过|ではなく|でも|けど|가 아니라|하지만|지만|لكن|אבל",
        )
        .expect("the contrast pattern compiles")
    })
}

/// A search for the value, just before it ("grepped for", "searched for", "Busqué").
fn search_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:grepped|grep|rg|searched|search|looked|busqué|buscado|cherché|gesucht|gezocht|procurei|cercato|sökte|søgte|søkte|szukałem|tìm|искал|шукав)\b(?: \w+){0,2}$|搜索了?$|查找了?$",
        )
        .expect("the search pattern compiles")
    })
}

/// The search found nothing.
fn nothing_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:nothing|no (?:results?|matches|hits)|zero (?:results|matches|hits)|nada|sin resultados?|niets|nichts|keine (?:Treffer|Ergebnisse)|aucun résultat|rien|nessun risultato|nulla|sem resultados?|inget|ingenting|nic|không có kết quả|ничего|нічого)\b|没有任何结果|没有结果|該当なし|결과가 없",
        )
        .expect("the nothing pattern compiles")
    })
}

#[cfg(test)]
mod tests {
    use crate::model::{Class, Kind};

    fn class(answer: &str, token: &str) -> Class {
        crate::classify::class_of(Kind::Negative, answer, token)
    }

    #[test]
    fn a_token_named_only_to_deny_it_is_a_clean_refusal() {
        for (answer, token) in [
            (
                "No CDN is configured: no Cloudflare, no CloudFront. It isn't recorded.",
                "Cloudflare",
            ),
            (
                "Not recorded. It wasn't @platform-team - that team owns /infra/.",
                "@platform-team",
            ),
            (
                "I grepped for 50051: nothing. The port isn't recorded.",
                "50051",
            ),
        ] {
            assert_eq!(class(answer, token), Class::Pass, "{answer}");
        }
    }

    #[test]
    fn a_guess_or_another_value_is_never_a_clean_refusal() {
        for (answer, token) in [
            (
                "Not recorded. Probably Cloudflare, but I can't confirm it.",
                "Cloudflare",
            ),
            (
                "Not recorded. It's not @platform-team, it's @billing-squad.",
                "@platform-team",
            ),
            (
                "I grepped for 50051 and found it in server.py. The hand-off doesn't record it.",
                "50051",
            ),
            ("It isn't documented. The port is 50051.", "50051"),
            // A value after the search or the denial (a second reader's cases).
            ("The hand-off doesn't say. I grepped for 50051: nothing in the docs, though server.py binds it.", "50051"),
            ("No 50051 here — the port is 8080 per docker-compose. The hand-off doesn't record it.", "50051"),
            ("No está documentado. No 50051, sino 8080.", "50051"),
        ] {
            assert_ne!(class(answer, token), Class::Pass, "{answer}");
        }
    }
}
