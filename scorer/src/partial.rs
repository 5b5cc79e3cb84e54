//! Languages the strict lexicon covers only in part (French, Italian, Portuguese, Dutch,
//! Polish, Czech, Turkish, Indonesian, Vietnamese, Swedish, and the Cyrillic Slavic languages):
//! a few strict refusal forms each, and here a wide *doubt vocabulary* per language, so the
//! cue detector can tell a plain answer in one of them ("Cổng của proxy staging là 8443.") from
//! one that may refuse, hedge, list candidates or flag a disagreement in words the strict
//! patterns do not know.
//!
//! The rule this module serves is one-sided: an answer whose language is identified here and
//! holds none of that language's doubt words anywhere in its spoken text is read as plainly as
//! an English one; every other answer in an uncovered language stays `UNDETERMINED`. A doubt
//! word that is not one (a Portuguese article, a Turkish suffix inside an unrelated verb) only
//! costs coverage, never a wrong certain class, so the lists are wide on purpose and match
//! stems and suffixes where the language negates by inflection (Turkish `-ma-/-me-`).

use regex::Regex;
use std::sync::OnceLock;

/// One partly covered language: how to recognise it and the words that may carry doubt.
struct Language {
    /// Frequent function words, lowercase: two of them (more than any other language's) say
    /// the answer is in this language.
    function_words: &'static [&'static str],
    /// Negation, absence, hedges, candidate lists ("or"), disagreement and uncertainty, as a
    /// case-insensitive pattern over the whole spoken answer.
    doubt: &'static str,
}

const LANGUAGES: &[Language] = &[
    // French
    Language {
        function_words: &[
            "le", "les", "des", "est", "dans", "une", "du", "pour", "sur", "avec", "je", "nous",
            "il", "cette", "ce", "sont", "été", "par", "qui", "au", "aux", "n'est", "c'est", "la",
            "un", "pas",
        ],
        doubt: r"(?i)\b(?:pas|aucun\w*|rien|jamais|ni|sans|non|ne|introuvable\w*|inconnu\w*|incertain\w*|ignor\w*|impossible|peut[- ]être|probabl\w*|supposition\w*|suppos\w*|hypoth\w*|ou|soit|plutôt|diverg\w*|contradi\w*|différ\w*|incohéren\w*|manqu\w*|absen\w*|flou\w*|vague\w*|imprécis\w*|semble\w*|doute\w*|sûr\w*|certain\w*|estim\w*|devin\w*|environ|approximati\w*|vérifi\w*|confirm\w*|préciser|quel\w*|attendez|correction|muet\w*|silenc\w*|nulle part|mystère)\b|\bn['’]",
    },
    // Italian
    Language {
        function_words: &[
            "il", "lo", "gli", "di", "della", "del", "nel", "nella", "è", "sono", "che", "per",
            "con", "una", "non", "questo", "questa", "ho", "stato", "alla", "dal", "ci",
        ],
        doubt: r"(?i)\b(?:non|nessun\w*|niente|nulla|mai|né|senza|manca\w*|forse|probabil\w*|presumibil\w*|ipotes\w*|suppo\w*|o|oppure|incert\w*|ignot\w*|sconosciut\w*|sicur\w*|dubbi\w*|diverg\w*|contraddi\w*|discord\w*|divers\w*|sembra\w*|verific\w*|conferm\w*|circa|indovin\w*|stima\w*|correzione|anzi|aspetta|tace|silenzi\w*|muto|da nessuna parte)\b",
    },
    // Portuguese
    Language {
        function_words: &[
            "os", "do", "da", "dos", "das", "em", "no", "na", "é", "está", "são", "um", "uma",
            "para", "com", "você", "isso", "foi", "não", "há", "pelo", "pela",
        ],
        doubt: r"(?i)\b(?:não|nao|nenhum\w*|nada|nunca|nem|sem|falta\w*|talvez|provavel\w*|possivel\w*|suposi\w*|palpite\w*|ou|incert\w*|desconhecid\w*|certeza|dúvida\w*|duvida\w*|diverg\w*|contradi\w*|diferen\w*|discrep\w*|batem|parece\w*|verific\w*|confirm\w*|cerca|aproximad\w*|acho|chute\w*|suponho|correção|aliás|omiss\w*|silenci\w*|cala\w*)\b",
    },
    // Dutch
    Language {
        function_words: &[
            "het", "een", "van", "op", "dat", "niet", "voor", "met", "zijn", "er", "staat",
            "wordt", "ik", "deze", "dit", "ook", "maar", "geen", "naar", "bij", "is", "de",
            "volgens",
        ],
        doubt: r"(?i)\b(?:niet|geen|niets|nergens|nooit|noch|zonder|ontbre\w*|onbekend\w*|onduidelijk\w*|misschien|waarschijnlijk|vermoedelijk|mogelijk\w*|of|onzeker\w*|zeker\w*|twijfel\w*|tegenstrijdig\w*|verschil\w*|oneens|klopt|lijkt|gok\w*|ongeveer|rond|controler\w*|bevestig\w*|aanname\w*|correctie|wacht|zwijgt|stil)\b",
    },
    // Polish
    Language {
        function_words: &[
            "w", "na", "jest", "się", "do", "nie", "że", "to", "jak", "dla", "od", "są", "ten",
            "który", "która", "przez", "tylko", "ale",
        ],
        doubt: r"(?i)\b(?:nie\w*|brak\w*|żadn\w*|nic|nigdzie|nigdy|bez|może|prawdopodob\w*|chyba|lub|albo|czy|pewn\w*|różn\w*|rozbieżn\w*|sprzeczn\w*|wydaje|zgad\w*|około|sprawdz\w*|potwierdz\w*|zakład\w*|korekta|milczy\w*)\b",
    },
    // Czech
    Language {
        function_words: &[
            "je", "v", "na", "se", "že", "to", "z", "do", "pro", "jsou", "není", "jen", "ale",
            "který", "která", "podle",
        ],
        doubt: r"(?i)\b(?:ne\w*|žádn\w*|nic|nikde|nikdy|bez|možná|asi|pravděpodob\w*|nebo|či|nejist\w*|jist\w*|různ\w*|rozpor\w*|zdá|odhad\w*|přibližně|ověř\w*|potvrd\w*|předpoklád\w*)\b",
    },
    // Turkish (negation is a suffix: -ma-/-me-, -maz/-mez, -sız/-siz; matched inside words)
    Language {
        function_words: &[
            "bir", "ve", "bu", "için", "ile", "olarak", "olan", "var", "yok", "değil", "gibi",
            "daha", "ama", "sadece", "şu", "da", "de",
        ],
        doubt: r"(?i)değil|yok|hiç|belirsiz|bilinm|bilmiyor|emin|belki|muhtemel|olabilir|tahmin|sanırım|galiba|veya|ya da|yahut|farklı|çeliş|tutarsız|uyuşm|uymuyor|ma[dzy]|me[dzy]|mı[yz]|mi[yz]|mu[yz]|mü[yz]|mamış|memiş|amad|emed|sız|siz|suz|süz|kontrol|doğrula|yaklaşık|civar|düzeltme|sessiz",
    },
    // Indonesian
    Language {
        function_words: &[
            "yang", "dan", "di", "ke", "dari", "ini", "itu", "untuk", "dengan", "adalah", "ada",
            "pada", "saya", "tidak", "akan", "sudah", "hanya",
        ],
        doubt: r"(?i)\b(?:tidak|tak|belum|bukan|tanpa|mungkin|kemungkinan|atau|entah|tebak\w*|yakin|kurang|tampaknya|sepertinya|kira\w*|perkiraan|sekitar|beda|berbeda|bertentangan|konflik|cek|periksa|pasti\w*|memastikan|asumsi|dugaan|koreksi|diam)\b",
    },
    // Vietnamese (accented and unaccented)
    Language {
        function_words: &[
            "là", "của", "và", "có", "trong", "được", "cho", "không", "này", "các", "những", "một",
            "đã", "tôi", "theo", "với", "ở", "la", "cua", "va", "co", "duoc", "khong", "toi",
            "nhung",
        ],
        doubt: r"(?i)\b(?:không|khong|chưa|chua|chẳng|chang|có thể|co the|có lẽ|co le|hoặc|hoac|chắc|chac|rõ|ro|mâu thuẫn|mau thuan|khác|khac|đoán|doan|giả định|gia dinh|khoảng|khoang|kiểm tra|kiem tra|xác nhận|xac nhan|hình như|dường như|nghĩ|nghi|sửa lại|im lặng|im lang)\b",
    },
    // Swedish
    Language {
        function_words: &[
            "är", "och", "en", "ett", "det", "som", "på", "för", "med", "av", "till", "den", "har",
            "jag", "inte", "finns", "om",
        ],
        doubt: r"(?i)\b(?:inte|ingen|inget|inga|aldrig|ej|utan|sakna\w*|okän\w*|oklar\w*|kanske|troligen|trolig\w*|antagligen|förmodligen|eller|osäker\w*|säker\w*|skilj\w*|motsä\w*|olika|verkar|gissa\w*|ungefär|runt|kontroller\w*|bekräfta\w*|antag\w*|rättelse|tyst\w*)\b",
    },
];

/// Doubt words of the Cyrillic Slavic languages (Russian, Ukrainian, Belarusian, Bulgarian,
/// Serbian, Macedonian), whose negation `не`/`ни`/`нет`/`немає`/`няма`/`нема` they share.
const CYRILLIC_DOUBT: &str = r"(?i)\bне|\bни|нет|немає|няма|нема|\bбез\b|возможно|можливо|вероятно|ймовірно|может|може|наверн|мабуть|кажется|здається|похоже|схоже|\bили\b|\bабо\b|\bчи\b|точно|уверен|впевнен|неизвест|невідом|неясн|незрозум|расхожд|розбіжн|противореч|суперечн|различ|різн|отлич|предпол|припущ|догад|около|приблизно|примерно|провер|перевір|подтверд|підтверд|поправ|виправ|молч|мовчить";

/// Language `i`'s doubt vocabulary, compiled the first time that language is read (once per
/// process): an answer in one language compiles one vocabulary, not all of them.
fn doubt(i: usize) -> &'static Regex {
    static R: [OnceLock<Regex>; LANGUAGES.len()] = [const { OnceLock::new() }; LANGUAGES.len()];
    R[i].get_or_init(|| Regex::new(LANGUAGES[i].doubt).expect("doubt vocabulary compiles"))
}

fn cyrillic_doubt() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(CYRILLIC_DOUBT).expect("doubt vocabulary compiles"))
}

/// Function words of the covered Latin-script languages (English, German, Spanish).
const COVERED_WORDS: &[&str] = &[
    "the", "is", "and", "of", "to", "it", "not", "no", "that", "this", "for", "was", "i", "found",
    "der", "die", "das", "ist", "und", "nicht", "kein", "keine", "ich", "im", "zu", "den", "ein",
    "el", "la", "los", "las", "es", "y", "que", "un", "una", "del", "hay", "en", "de",
];

/// Function-word hits per partly covered language, and of the covered languages.
fn scores(spoken: &str) -> (Vec<usize>, usize) {
    let mut scores = vec![0usize; LANGUAGES.len()];
    let mut covered = 0usize;
    for w in spoken
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .take(4000)
    {
        let w = w.to_lowercase().replace('’', "'");
        if COVERED_WORDS.contains(&w.as_str()) {
            covered += 1;
        }
        for (i, l) in LANGUAGES.iter().enumerate() {
            if l.function_words.contains(&w.as_str()) {
                scores[i] += 1;
            }
        }
    }
    (scores, covered)
}

/// The answer is, by its function words, more one of the partly covered languages than
/// English, German or Spanish: a Dutch answer sharing `de`, `die` and `en` with them is still
/// Dutch.
pub(crate) fn identified(spoken: &str) -> bool {
    let (scores, covered) = scores(spoken);
    let best = scores.iter().copied().max().unwrap_or(0);
    best >= 2 && best > covered
}

/// Some language the readings know is identified in `spoken`: Hangul, kana or Han (the covered
/// Asian languages), Cyrillic, a function word of English, German or Spanish, or one of the
/// partly covered languages above. `false` for an answer in words none of them uses ("Hakuna
/// taarifa.", a Finnish sentence), which no reading here may call plain.
pub(crate) fn any_known(spoken: &str) -> bool {
    let cjk = spoken
        .chars()
        .filter(|&c| {
            let u = c as u32;
            (0xAC00..=0xD7AF).contains(&u)
                || (0x3040..=0x30FF).contains(&u)
                || (0x4E00..=0x9FFF).contains(&u)
        })
        .take(2)
        .count();
    if cjk >= 2 {
        return true;
    }
    let (cyrillic, _, _) = script_counts(spoken);
    let (scores, _) = scores(spoken);
    // Common words of English, German or Spanish are an eighth or more of a covered-language
    // answer's words; a Swahili `la` here and there is not Spanish.
    const COMMON: &[&str] = &[
        "the", "an", "is", "are", "was", "were", "be", "been", "and", "or", "but", "of", "to",
        "in", "on", "at", "by", "for", "from", "with", "as", "it", "its", "it's", "this", "that",
        "there", "here", "not", "no", "nothing", "none", "any", "i", "i'm", "we", "you", "isn't",
        "doesn't", "don't", "didn't", "can't", "couldn't", "wasn't", "aren't", "has", "have", "so",
        "which", "what", "who", "where", "anywhere", "found", "see", "set", "only", "der", "die",
        "das", "ist", "und", "nicht", "kein", "keine", "keinen", "ich", "im", "zu", "den", "dem",
        "ein", "eine", "es", "gibt", "auf", "mit", "von", "für", "wird", "steht", "el", "los",
        "las", "que", "un", "una", "del", "hay", "de", "está", "por", "con", "para", "lo",
        "ningún", "ninguna", "nada",
    ];
    let (mut words, mut common) = (0usize, 0usize);
    for w in spoken
        .split(|c: char| !(c.is_alphabetic() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .take(4000)
    {
        words += 1;
        if COMMON.contains(&w.to_lowercase().replace('’', "'").as_str()) {
            common += 1;
        }
    }
    cyrillic >= 4
        || (common >= 1 && common * 8 >= words)
        || scores.iter().any(|&s| s >= 2 && s * 6 >= words)
}

/// How an answer in an uncovered language reads to this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Identified, and none of its doubt words occurs: as plain as a covered-language answer.
    Plain,
    /// Identified, and a doubt word occurs (or the language is not identified): uncertain.
    Doubtful,
}

/// Letters of `spoken` by script: Cyrillic, neither Cyrillic nor Latin, Latin.
fn script_counts(spoken: &str) -> (usize, usize, usize) {
    let (mut cyrillic, mut other_script, mut latin) = (0usize, 0usize, 0usize);
    for c in spoken.chars().filter(|c| c.is_alphabetic()) {
        let u = c as u32;
        if (0x0400..=0x052F).contains(&u) {
            cyrillic += 1;
        } else if c.is_ascii_alphabetic()
            || (0x00C0..=0x024F).contains(&u)
            || (0x1E00..=0x1EFF).contains(&u)
        {
            latin += 1;
        } else {
            other_script += 1;
        }
    }
    (cyrillic, other_script, latin)
}

/// Reads `spoken` (the answer outside quotes and fences): `Plain` only when its language is
/// one of those above, clearly, and none of the doubt words of that language, nor of any
/// language nearly as likely, occurs in it.
pub(crate) fn read(spoken: &str) -> Reading {
    let (cyrillic, other_script, latin) = script_counts(spoken);
    if other_script >= 4 {
        // Hangul, kana and Han are the covered languages' (read elsewhere); every other script
        // (Arabic, Devanagari, Greek, Thai, Hebrew…) has no vocabulary here.
        return Reading::Doubtful;
    }
    if cyrillic > latin {
        return if cyrillic_doubt().is_match(spoken) {
            Reading::Doubtful
        } else {
            Reading::Plain
        };
    }
    let (scores, _) = scores(spoken);
    let best = scores.iter().copied().max().unwrap_or(0);
    if best < 2 {
        return Reading::Doubtful;
    }
    // Every language at least half as likely as the best one contributes its doubt words: a
    // near tie between Portuguese and Italian reads both vocabularies.
    let doubtful = scores
        .iter()
        .enumerate()
        .any(|(i, &score)| score * 2 >= best && score > 0 && doubt(i).is_match(spoken));
    if doubtful {
        Reading::Doubtful
    } else {
        Reading::Plain
    }
}

/// A doubt word of the answer's language in `part` (a sentence of `spoken`): the language is
/// identified on the whole answer, as [`read`] does. `true` whenever the answer's script or
/// language has no vocabulary here, so a caller never reads an unknown part as plain.
pub(crate) fn doubt_in(spoken: &str, part: &str) -> bool {
    let (cyrillic, other_script, latin) = script_counts(spoken);
    if other_script >= 4 {
        return true;
    }
    if cyrillic > latin {
        return cyrillic_doubt().is_match(part);
    }
    let (scores, _) = scores(spoken);
    let best = scores.iter().copied().max().unwrap_or(0);
    if best < 2 {
        return true;
    }
    scores
        .iter()
        .enumerate()
        .any(|(i, &score)| score * 2 >= best && score > 0 && doubt(i).is_match(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_answers_in_partly_covered_languages_read_plain() {
        for a in [
            "Cổng của proxy staging là 8443.",
            "SDK jest przypięty do v2.4.1.",
            "Le nom de code retenu pour la 3.0 est Kestrel.",
            "Il proxy di staging è sulla porta 8443.",
            "O codinome da versão 0.9 é **Marlowe**.",
            "Het postmortem-ticket is OPS-1142 volgens de overdracht.",
            "Analitik kümesinin adı helios-2'dir ve bu belgede var.",
            "Canary-maskinen är `gw-canary-01.internal` och den finns i inventariet.",
            "Согласованное кодовое имя — Kestrel.",
            "Sistem ini memakai Redis pada port 6380 untuk cache.",
        ] {
            assert_eq!(read(a), Reading::Plain, "{a}");
        }
    }

    #[test]
    fn a_dutch_answer_sharing_words_with_covered_languages_is_still_dutch() {
        let nl = "Geen idee, eerlijk gezegd — de staging-Redis-host staat nergens in de repo. De waarde wordt bij deploy ingevuld en die staat niet in git.";
        assert!(identified(nl));
        assert!(!identified(
            "The value is set in the config and it is not in the repo."
        ));
        assert!(!identified(
            "Der Wert ist nicht im Repository, und die Übergabe sagt nichts."
        ));
    }

    #[test]
    fn doubt_words_or_an_unknown_language_keep_the_reading_doubtful() {
        for a in [
            "Tên mã có thể là Kestrel hoặc Osprey.",
            "Aucun nom de code n'est consigné pour la 3.0.",
            "Non risulta nessun responsabile per il rollout.",
            "Não há nenhum host canário definido.",
            "Er is geen codenaam voor 3.0 vastgelegd.",
            "Nazwa kodowa dla 3.0 nie została nigdzie zapisana.",
            "Küme adı devir belgesinde de depoda da kayıtlı değil.",
            "Yeni dedupe yolunu kontrol eden bir feature flag bulamadım ve bu yüzden.",
            "Tidak ada tanggal freeze yang tercatat di sini.",
            "Jag hittar ingen ägare för utrullningen i repot.",
            "Кодовое имя для 3.0 не записано ни в документе передачи.",
            "Точного значения в репозитории нема, можливо 8443.",
            // Arabic: no vocabulary here.
            "المنفذ هو 8443 حسب ملف التسليم.",
            // Nothing identifies the language.
            "Kestrel.",
        ] {
            assert_eq!(read(a), Reading::Doubtful, "{a}");
        }
    }
}
