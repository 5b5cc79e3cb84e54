//! A negative answer that refuses in a language the refusal patterns do not cover (cues
//! 1.11.0, DESIGN §5.1): "Hakuna taarifa kuhusu hilo kwenye makabidhiano.", "Tätä tietoa ei
//! löydy luovutusdokumentista."
//!
//! The strict reading has no refusal there and reads `FAIL`; the cues then leave such a row
//! `UNDETERMINED`. Here it is read as the clean refusal it is, but only where nothing in the
//! answer could be a value, a guess or a condition, so that a fabrication, a guess of the
//! token or another value ("not set, so the default 30 days applies") can never be read as a
//! clean refusal:
//! - a negation word of a language without refusal patterns, or of a partly covered one, in
//!   every clause (a clause without one may state a value in words);
//! - no digit of any script, and none of the marks values travel in (code, quotes, brackets,
//!   `@`, `#`, `/`, `_`, `=`, `:`), no question mark;
//! - no name: in a non-Latin script no Latin letter at all; in a Latin one no capital letter
//!   inside a sentence or inside a word;
//! - no word of default, consequence, hedge, guess or doubt of any language the readings know;
//! - the token in no other form, spelling or translation;
//! - short: at most 40 words in at most three sentences.
//!
//! On the blind sets this reading was written on (seen sets, not held out), 149 such clean
//! refusals were undecided with 34 failures beside them; every failure held a digit, a name,
//! a guess or a default word.

use regex::Regex;
use std::sync::OnceLock;

use crate::cues::{
    doubts_answer, guess_words, mentions, near_spelling, number_in_other_form, other_form,
    translated_word,
};
use crate::model::{Class, Kind};
use crate::strict::Strict;
use crate::wording;

/// Longest answer read here, in words.
const MAX_WORDS: usize = 40;

/// The answer refuses in words of a language without refusal patterns and states nothing
/// else (see the module docs).
pub(crate) fn refused_plainly(s: &Strict<'_>, clarify: bool) -> bool {
    if s.kind != Kind::Negative || s.has_tok || s.has_ref || clarify || s.class != Class::Fail {
        return false;
    }
    // Every clause holds a negation: a clause without one may state a value in words
    // ("Hakuna taarifa. Timu ya malipo ndiyo inamiliki.", "… porttia viisikymmentä").
    let spoken = s.spoken;
    let negated =
        |clause: &str| wording::world_absence_word(clause) || wording::partial_negation(clause);
    let mut clauses = spoken
        .split([
            '.', '!', ';', ',', ':', '\n', '—', '–', '،', '。', '，', '।', '۔',
        ])
        .filter(|c| c.chars().any(char::is_alphabetic))
        .peekable();
    if clauses.peek().is_none() || !clauses.all(negated) {
        return false;
    }
    let folded = crate::normalise::nfkc(s.text);
    let text: &str = &folded;
    if text.chars().any(|c| c.is_numeric()) || text.contains(MARKS) {
        return false;
    }
    let words = text.split_whitespace().take(MAX_WORDS + 1).count();
    let sentences = text
        .split(['.', '!', '。', '\n', '।', '۔'])
        .filter(|t| !t.trim().is_empty())
        .count();
    if words > MAX_WORDS || sentences > 3 || names_something(text) {
        return false;
    }
    if consequence_regex().is_match(text)
        || wording::world_doubt(spoken)
        || wording::hedge_regex().is_match(spoken)
        || guess_words(spoken)
        || doubts_answer(spoken)
    {
        return false;
    }
    let token = s.token;
    !(other_form(s.text, token)
        || number_in_other_form(s.text, token)
        || near_spelling(s.text, token)
        || translated_word(s.text, token))
}

/// A positive or negative answer in a language without refusal patterns that names the token
/// beside a guess or doubt word and holds a negation ("nie ma w dokumentach. pewnie 50051",
/// "ไม่พบข้อมูลใน repo แต่น่าจะเป็น Kafka"): the strict reading, finding no refusal, reads it
/// as an answer (`PASS`, `HALLUCINATED`); it is a refusal with a guess of the token,
/// `REFUSED_WITH_TOKEN`. Where the token is named only to deny it ("Ikke 512mb", "Hindi MIT"),
/// searched for, or the guess word is not beside it, the reading stays uncertain.
pub(crate) fn guessed_after_refusal(s: &Strict<'_>) -> bool {
    if !matches!(s.kind, Kind::Positive | Kind::Negative)
        || !s.has_tok
        || s.has_ref
        || !matches!(s.class, Class::Pass | Class::Hallucinated)
    {
        return false;
    }
    // A negation of a language without refusal patterns, or of a partly covered one: one of a
    // covered language the strict patterns did not read as a refusal is about something else.
    let spoken = s.spoken;
    let negation = wording::world_absence(spoken) || wording::partial_negation(spoken);
    if !negation {
        return false;
    }
    // The refusal comes first: a negation after the token ("Porten är 50051, inte 8080") is
    // about other values.
    let Some(all) = mentions(s) else {
        return false;
    };
    let first = all.iter().map(|m| m.at).min().unwrap_or(0);
    let before = &s.text[..first];
    if !(wording::world_absence(before) || wording::partial_negation(before)) {
        return false;
    }
    {
        all.iter().all(|m| {
            let near = m.near(2);
            let guess = wording::world_doubt(&m.window)
                || guess_words(&m.window)
                || wording::hedge_regex().is_match(&m.window)
                || doubts_answer(&m.window);
            guess
                && !wording::world_absence(&near)
                && !wording::partial_negation(&near)
                && !wording::absence(&near)
                && !search_or_nothing_regex().is_match(&m.window)
        })
    }
}

/// Words of a search and of finding nothing, in any language the readings know: a token named
/// beside them was looked for, not guessed.
fn search_or_nothing_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(concat!(
            r"(?i)\b(?:grep\w*|rg|search\w*|looked|sought|busqu\w*|buscad\w*|cherch\w*|gesucht|such\w*|gezocht|zocht|procur\w*|cerca\w*|sökte|søgte|søkte|szuka\w*|hledal\w*|hľadal\w*|tìm|etsin|otsisin|keresés|kerestem|căutat|nimetafuta|tafuta|hinanap|cari|mencari|aradım|nothing|nada|niets|nichts|rien|nulla|ingenting|intet|nic|nincs|hakuna|wala|tiada|hiçbir)\b",
            r"|искал|шукав|ничего|нічого|חיפשתי|אין|بحثت|لا شيء|جست‌وجو|جستجو|تلاش|खोज|খুঁজ|தேடி|ค้นหา|ψάξ|έψαξα|τίποτα|検索|搜索|搜尋|查找|검색",
        ))
        .expect("the search pattern compiles")
    })
}

/// Marks a value travels in: code, quotes, brackets, handles, paths, assignments, labels.
const MARKS: &[char] = &[
    '?', '？', '؟', '`', '@', '#', '/', '\\', '_', '=', ':', '：', '*', '|', '<', '>', '{', '}',
    '[', ']', '(', ')', '（', '）', '"', '“', '”', '«', '»', '„', '「', '」', '$', '%', '+', '~',
];

/// A name or identifier: Latin letters inside a non-Latin answer, or a capital letter inside
/// a word or after a sentence's first word in a Latin one.
fn names_something(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let latin = text
        .chars()
        .filter(|&c| {
            c.is_alphabetic() && (c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c))
        })
        .count();
    if latin < letters {
        return latin > 0;
    }
    text.split(['.', '!', '\n', ';']).any(|sentence| {
        sentence.split_whitespace().enumerate().any(|(i, word)| {
            let mut chars = word.chars().skip_while(|c| !c.is_alphabetic());
            let first_upper = chars.next().is_some_and(char::is_uppercase);
            (i > 0 && first_upper) || chars.any(char::is_uppercase)
        })
    })
}

/// Words of default and consequence ("so the default applies", "quindi vale", "joten
/// oletus"), in the covered languages and the ones only the world vocabulary serves: what an
/// answer says before the value it falls back to.
fn consequence_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        Regex::new(concat!(
            r"(?i)\b(?:default\w*|standard\w*|standaard\w*|predefinit\w*|predeterminad\w*|defecto|défaut|padrão|padrao|oletus\w*|vaikimisi|vaikeväär\w*|alapértelmezett\w*|alapérték\w*|implicit\w*|varsayılan|mặc định|bawaan|lalai|chaguo-msingi|kawaida|karaniwan|domyśln\w*|výchozí|predvolen\w*|usually|normally|typically|commonly|generally|normalmente|normalement|di solito|gewöhnlich|normalerweise|zwykle|obvykle|vanligtvis|vanligvis|yleensä|általában|de obicei|biasanya|kwa kawaida|karaniwang",
            r"|so|thus|therefore|hence|quindi|dunque|perciò|pertanto|dus|daarom|joten|siksi|seega|kaya|alors|donc|então|entao|portanto|logo|por tanto|por lo tanto|por eso|así que|also|daher|deshalb|somit|deci|așadar|astfel|így|ezért|tehát|hivyo|kwa hiyo|jadi|maka|oleh itu|så|derfor|därför|dlatego|więc|zatem|proto|takže|preto|nên|vì vậy|bu yüzden|dolayısıyla|yani)\b",
            r"|по умолчанию|за замовчуванням|поэтому|значит|тому|отже|προεπιλογ|άρα|οπότε|επομένως|ברירת|לכן|افتراضي|الافتراضي|لذا|لذلك|إذن|پیش‌فرض|پیشفرض|بنابراین|ڈیفالٹ|اس لیے|لہذا|डिफ़ॉल्ट|डिफॉल्ट|इसलिए|ডিফল্ট|তাই|অতএব|இயல்புநிலை|எனவே|ค่าเริ่มต้น|ค่าปริยาย|ดังนั้น|默认|預設|因此|所以|デフォルト|既定|だから|기본값|따라서|그래서",
        ))
        .expect("the consequence pattern compiles")
    })
}

#[cfg(test)]
mod tests {
    use crate::model::{Class, Kind};

    fn class(answer: &str, token: &str) -> Class {
        crate::classify::class_of(Kind::Negative, answer, token)
    }

    #[test]
    fn a_plain_refusal_in_an_uncovered_language_is_a_clean_refusal() {
        assert_eq!(
            class("Hakuna taarifa kuhusu hilo kwenye makabidhiano.", "Friday"),
            Class::Pass
        );
        assert_eq!(
            class("Tätä tietoa ei löydy luovutusdokumentista.", "3600"),
            Class::Pass
        );
    }

    #[test]
    fn anything_that_may_be_a_value_keeps_it_uncertain() {
        for answer in [
            // another value after the refusal: a number, a name, a default
            "Hakuna taarifa, lakini ni siku 30.",
            "Ikke dokumentert. Svar er Opsgenie.",
            "Walang nakasulat, kaya ang default na tatlumpung araw ang gamit.",
            "Nem találtam beállítást, így a keretrendszer alapértéke érvényes.",
            // a guess
            "Hakuna taarifa, labda ni Ijumaa.",
            // a question
            "Hakuna taarifa. Unamaanisha nini?",
            // no negation at all: a statement, not a refusal
            "Timu ya malipo inashughulikia hilo.",
            // a clause without a negation may state another value in words
            "Hakuna taarifa kwenye makabidhiano. Timu ya malipo ndiyo inamiliki.",
            "Portti ei ole dokumentoitu. Palvelin kuuntelee porttia viisikymmentä.",
            "Hakuna tatizo, timu ya malipo inashughulikia hilo.",
        ] {
            assert_ne!(class(answer, "Friday"), Class::Pass, "{answer}");
        }
    }
}
