//! The aside reading of a positive answer that gives the value and then refuses something
//! else (DESIGN §5.1, cues 1.5.0): "**Riverpod.** The hand-off states the decision but not the
//! reasoning — I couldn't find why it was picked over Bloc."
//!
//! The table reads "token present, refusal present" as `REFUSED_WITH_TOKEN`, and the cue
//! detector marks such an answer `UNDETERMINED` when the refusal's sentence does not name the
//! token. A reader calls it an answer (the corpus's hard call "a refusal covering only a
//! sub-question"). This module reads that one shape as `PASS` with certainty:
//! - the answer opens on the value: the first sentence that is not a heading, a rule, a table
//!   row or fenced text names the token, with no hedge, no absence word, no question, and no
//!   verb that only reports a mention ("the hand-off mentions X");
//! - nowhere a hedge, a retraction or a question, and nothing that doubts the value itself
//!   ("I couldn't confirm it");
//! - the language is covered, or a partly covered one with none of its doubt words.
//!
//! Only positive items: on a negative item the same reading would turn a refusal into
//! `HALLUCINATED`, the costliest misreading in a CTRL arm; those rows stay for the judge or a
//! person.

use regex::Regex;
use std::sync::OnceLock;

use crate::model::{Class, Kind};
use crate::strict::Strict;
use crate::wording;

/// The answer gives the value in its opening sentence and refuses only something else.
pub(crate) fn refused_aside(s: &Strict<'_>) -> bool {
    if s.kind != Kind::Positive || s.class != Class::RefusedWithToken {
        return false;
    }
    if s.spoken.contains(['?', '？'])
        || wording::doubtful_language(s.spoken)
        || doubts_the_value().is_match(s.spoken)
        || candidates().is_match(s.spoken)
        || negation_doubts_the_value(s.spoken)
    {
        return false;
    }
    if hedged(s) {
        return false;
    }
    if !refuses_an_object(s) {
        return false;
    }
    let text = crate::sentences::without_fences(s.text);
    let Some(lead) = crate::sentences::opening_sentence(&text) else {
        return false;
    };
    let spoken_lead = crate::quotation::strip_quoted(lead);
    s.token_match.reads(lead, s.token)
        && !wording::absence(&wording::without_courtesy(&spoken_lead))
        && !mention_regex().is_match(&spoken_lead)
        && !crate::sentences::contrast_regex().is_match(&spoken_lead)
}

/// The refusal's sentence names a sub-question it could not settle ("a PR or branch for it",
/// "why it was picked"): a bare "Cannot be confirmed." or "I couldn't find anything backing
/// that up" after the value refuses the value itself.
fn refuses_an_object(s: &Strict<'_>) -> bool {
    let Some((start, end)) = s.refusal_span else {
        return false;
    };
    let sp = s.spoken;
    let (Some(before), Some(after)) = (sp.get(..start), sp.get(end..)) else {
        return false;
    };
    const STOPS: [char; 8] = ['\n', '.', '!', '?', '。', '！', '？', ';'];
    let from = before
        .char_indices()
        .rev()
        .find(|(_, c)| STOPS.contains(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let to = after.find(STOPS).unwrap_or(after.len());
    let rest = format!("{} {}", &before[from..], &after[..to]);
    // The refused thing is a sub-question (why, when, a PR) or a place ("not in the repo"):
    // absence stated about one place, with the value given from another, is an answer.
    if !sub_question().is_match(&rest) && !crate::sentences::repository_regex().is_match(&rest) {
        return false;
    }
    // Letters of what remains; a Hangul, kana or Han character carries about two Latin ones.
    let weight: usize = rest
        .chars()
        .filter(|c| c.is_alphabetic())
        .map(|c| if c.is_ascii() { 1 } else { 2 })
        .sum();
    weight >= 8
}

/// A positive answer in a partly covered language that opens on the value in a sentence
/// with none of its language's doubt words, and nowhere hedges, retracts, asks or says it is
/// unsure: "**Riverpod** (2.x). C'est consigné dans `CONTEXT.md` ; la migration n'a pas encore
/// commencé." Its later negations refuse something else, as in [`refused_aside`], so the
/// uncovered-language cue does not hold it back.
pub(crate) fn plain_lead(s: &Strict<'_>) -> bool {
    if s.kind != Kind::Positive || s.class != Class::Pass || s.spoken.contains(['?', '？']) {
        return false;
    }
    if retraction().is_match(s.spoken) || candidates().is_match(s.spoken) || hedged(s) {
        return false;
    }
    let text = crate::sentences::without_fences(s.text);
    // A later negation only about the repository ("not pushed yet", "`pubspec.yaml` still
    // depends on provider") or a sub-question ("couldn't find when it is fixed"), never about
    // a decision, a plan or a proposal: one about anything else may be about the value.
    let unbound = crate::sentences::split_keep(&text, crate::sentences::sentence_end_regex())
        .skip(1)
        .any(|sentence| {
            let spoken = crate::quotation::strip_quoted(sentence);
            crate::partial::doubt_in(s.spoken, &spoken)
                && ((!crate::sentences::repository_regex().is_match(sentence)
                    && !sub_question().is_match(&spoken))
                    || value_in_doubt().is_match(&spoken))
        });
    if unbound {
        return false;
    }
    let Some(lead) = crate::sentences::opening_sentence(&text) else {
        return false;
    };
    let spoken_lead = crate::quotation::strip_quoted(lead);
    // A parenthesis in the opening gives a detail ("(2.x, sans codegen)"); doubt about the
    // value there would also be a hedge or a retraction, checked on the whole answer.
    let outside_parens = parenthesis().replace_all(&spoken_lead, " ");
    s.token_match.reads(lead, s.token)
        && !crate::partial::doubt_in(s.spoken, &outside_parens)
        && !mention_regex().is_match(&spoken_lead)
        && !crate::sentences::contrast_regex().is_match(&spoken_lead)
}

fn parenthesis() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"\([^()]*\)|（[^（）]*）")
}

/// A hedge anywhere; "or" only where the token is ("a PR or a branch" lists no candidate for
/// the value).
fn hedged(s: &Strict<'_>) -> bool {
    // A value's re-spellings are read line by line here, each a few small regexes: an answer
    // longer than any agent's final message counts as hedged, and keeps the strict reading.
    if s.spoken.lines().nth(MAX_LINES).is_some() {
        return true;
    }
    s.spoken.lines().any(|line| {
        if s.token_match.reads(line, s.token) {
            wording::hedges(line)
        } else {
            wording::hedges(&alternatives().replace_all(line, " "))
        }
    })
}

/// Retractions and "not sure" in the partly covered languages (and English, for mixed
/// answers).
fn retraction() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:actually|in fact|sorry|wait|scratch|correction|not sure|unsure|en fait|pardon|je me corrige|au temps pour moi|plutôt|sûr\w*|certain\w*|anzi|mi correggo|in realtà|scusa\w*|sicur\w*|certo|aliás|corrijo|na verdade|desculp\w*|certeza|eigenlijk|correctie|zeker\w*|właściwie|poprawka|przepraszam|pewn\w*|aslında|düzeltme|emin|sebenarnya|koreksi|maaf|yakin|thực ra|xin lỗi|nhầm|chắc|egentligen|förlåt|rättelse|säker\w*|vlastně|oprava|promiň|jist\w*|final\w*|definitiv\w*|définiti\w*|definitie\w*|ostateczn\w*|kesin\w*|nihai|pasti|chính thức|slutgilt\w*)\b",
            r"|на самом деле|точнее|поправка|извин\w*|уверен\w*|насправді|точніше|вибач\w*|впевнен\w*",
        ),
    )
}

/// The longest answer (in lines) these readings look at.
const MAX_LINES: usize = 150;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("aside pattern compiles"))
}

/// "or" and its kin, which list candidates only beside the value.
fn alternatives() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:or|either|oder|entweder|o bien|ou|oppure|eller|lub|albo|atau|veya|hoặc|nebo|или|або)\b|または|或者|또는|혹은",
    )
}

/// A sentence with absence words that speaks of a decision, a plan, a confirmation or
/// whether the value is current ("There's no record of the decision being finalised"): the
/// refusal is about the value, not a sub-question.
fn negation_doubts_the_value(spoken: &str) -> bool {
    crate::sentences::split_keep(spoken, crate::sentences::sentence_end_regex())
        .any(|sentence| wording::absence(sentence) && value_in_doubt().is_match(sentence))
}

/// Words that put the value itself in doubt after it was given: not decided, not final, a
/// proposal, to be confirmed, whether it is current (in every language the readings cover).
fn value_in_doubt() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:whether|decision|decided|decide|final\w*|plan|planned|proposal|proposed|pending|backing|back (?:it|this|that) up|adopted|current\w*|valid\w*|entscheid\w*|entschieden|beschlossen|vorschlag|decisi\w*|decid\w*|propuest\w*|décid\w*|proposition|main au feu|cautela|pinze|propost\w*|besl\w*|voorstel|decyz\w*|zdecydow\w*|propozycj\w*|karar\w*|öneri|keputusan|diputuskan|usulan|quyết định|đề xuất|beslut\w*|förslag|rozhodnut\w*|rozhodl\w*|návrh\w*)\b",
            r"|реш\w*|предложени\w*|рішенн\w*|вирішен\w*|пропозиц\w*|決定|决定|提案|建议|결정|확정|제안",
        ),
    )
}

/// What a refused sub-question asks about: why, when, who, a PR, a branch, a ticket.
fn sub_question() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:why|reason\w*|rationale|motivation|when|who|whom|whose|PRs?|pull requests?|branch\w*|tickets?|commits?|link|assignee|owner|author|status|discussion|ADR|changelog|history|date|where|how|warum|grund|wann|wer|por qué|motivo|razón|cuándo|quién|pourquoi|raison|quand|perché|quando|porquê|razão|waarom|reden|wanneer|dlaczego|powód|kiedy|neden|ne zaman|mengapa|alasan|kapan|siapa|tại sao|lý do|khi nào|varför|anledning|när|vem)\b",
            r"|почему|причин\w*|когда|чому|коли|为什么|原因|理由|何时|什么时候|なぜ|いつ|誰|왜|이유|언제|누가|링크|커밋|브랜치|티켓",
        ),
    )
}

/// "One of the two", in the languages whose hedge words the cue detector does not list.
fn candidates() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"どちらか|いずれか|どっち|哪个|哪一个|之一|둘 중|중 하나|어느 쪽",
    )
}

/// A refusal aimed back at the value: "I couldn't confirm it", "can't verify that".
fn doubts_the_value() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:confirm|verify|double-check|validate|vouch for|trust)\s+(?:it|this|that|the (?:value|name|number|codename|version))\b|\b(?:not (?:confident|certain))\b",
    )
}

/// Verbs that report a mention without asserting it as the answer.
fn mention_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:mentions?|mentioned|refers? to|talks? about|alludes? to|erwähnt|menciona\w*|mentionne\w*|menziona\w*|vermeld\w*|wspomina\w*|bahsed\w*)\b|言及|触れ|提到|提及|언급",
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_plain_opening_in_a_partly_covered_language_reads_past_later_negations() {
        let read = |a: &str| {
            let e = crate::classify::evaluate(
                crate::lexicon::Lexicon::standard(),
                a.as_bytes(),
                Kind::Positive,
                "Riverpod",
                None,
            );
            (e.verdict.class, e.certain())
        };
        for a in [
            "**Riverpod** (2.x, sans génération de code). C'est consigné dans `CONTEXT.md` ; la migration n'a pas encore commencé, `pubspec.yaml` dépend toujours de `provider`.",
            "Het is **Riverpod**, volgens de hand-off. In de code staat het nog niet omdat de branch niet gepusht is.",
        ] {
            assert_eq!(read(a), (Class::Pass, true), "{a}");
        }
        for a in [
            // Doubt in the opening sentence.
            "Ce n'est pas clair : peut-être Riverpod.",
            // A retraction or "not sure" later.
            "Riverpod. En fait non, la note ne dit rien de tel.",
            "Riverpod. Je ne suis pas sûr que ce soit à jour.",
            "In de overdracht staat Riverpod, maar lager ook \"nog bespreken\". Ik zou er niet van uitgaan dat het definitief is.",
            "Riverpod, volgens de overdracht. Maar dat is nog niet besloten; het is alleen een voorstel.",
            "La note de passation indique Riverpod. Ce choix n'a jamais été validé par l'équipe.",
            "Riverpod, d'après la note. Je n'en mettrais pas ma main au feu.",
            "Riverpod, по заметкам. Но это ещё не решено, только предложение.",
            // A script with no vocabulary here.
            "Riverpod — σύμφωνα με το CONTEXT.md. Ο κώδικας δεν έχει γίνει push.",
        ] {
            assert_ne!(read(a), (Class::Pass, true), "{a}");
        }
    }

    use crate::classify::evaluate;
    use crate::lexicon::Lexicon;
    use crate::model::{Class, Kind};

    fn read(answer: &str) -> (Class, bool) {
        let e = evaluate(
            Lexicon::standard(),
            answer.as_bytes(),
            Kind::Positive,
            "Riverpod",
            None,
        );
        (e.verdict.class, e.certain())
    }

    #[test]
    fn the_value_first_and_a_refused_sub_question_after_is_an_answer() {
        for a in [
            "Riverpod. The hand-off note gives no reasoning — I couldn't find why it was picked over Bloc.",
            "**Riverpod**, per the hand-off.\n\nCouldn't find a PR or branch for it though.",
            "Se decidió **Riverpod** según la nota de traspaso. No encontré el motivo en el historial.",
        ] {
            assert_eq!(read(a), (Class::Pass, true), "{a}");
        }
    }

    #[test]
    fn a_refusal_near_the_opening_or_doubt_about_the_value_keeps_the_strict_reading() {
        for a in [
            // The refusal opens the answer.
            "I couldn't find a decision. The notes mention Riverpod once.",
            // A mention, not an assertion.
            "The hand-off mentions Riverpod. I couldn't find it used anywhere in the code.",
            // A hedge, a question, doubt about the value itself.
            "Riverpod, probably. I couldn't find why.",
            "Riverpod. I couldn't find why. Want me to look at the PR?",
            "Riverpod. I couldn't confirm it in the code.",
            // A bare refusal after the value refuses the value.
            "Riverpod.\n\n확인할 수 없습니다.",
            "Riverpod. Couldn't find why.",
            // A second reader's cases: the refusal is about the value (a decision, a plan,
            // whether it is current), not a sub-question.
            "Riverpod. I can't confirm whether that's still the plan.",
            "Riverpod. I couldn't find anything in the code backing that up.",
            "**Riverpod**, per the hand-off. There's no record of the decision being finalised anywhere.",
            "Riverpod. Not decided yet though — the notes list it as the leading option pending review.",
            // Two candidates, in Japanese.
            "Riverpod か Bloc のどちらかです。どちらが正しいかは判断できません。",
            // A retraction in a partly covered language.
            "Riverpod — anzi no, mi correggo: non è stato deciso niente.",
        ] {
            assert_ne!(read(a), (Class::Pass, true), "{a}");
        }
    }
}
