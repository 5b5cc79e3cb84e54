//! The families of misreading the blind corpus found (issue 20), each held as a kind of
//! situation with answers unlike the corpus rows: near-spellings, retractions and echoed
//! questions, hedged refusals, command lines, abstentions that end an answer, and the strict
//! refusal forms of every covered language. Each test names the reading it guards.

use scorer::{evaluate, Class, Kind, Lexicon};

fn read(
    answer: &str,
    kind: Kind,
    token: &str,
    general: Option<&str>,
) -> (Class, Vec<&'static str>) {
    let ev = evaluate(Lexicon::standard(), answer.as_bytes(), kind, token, general);
    (
        ev.verdict.class,
        ev.cues.iter().map(|c| c.as_str()).collect(),
    )
}

fn certain(answer: &str, kind: Kind, token: &str, general: Option<&str>) -> Class {
    let (class, cues) = read(answer, kind, token, general);
    assert!(
        cues.is_empty(),
        "{answer:?}: expected a certain reading, cues {cues:?}"
    );
    class
}

fn has_cue(answer: &str, kind: Kind, token: &str, general: Option<&str>, cue: &str) {
    let (class, cues) = read(answer, kind, token, general);
    assert!(
        cues.contains(&cue),
        "{answer:?}: expected {cue}, got {class} with {cues:?}"
    );
}

#[test]
fn exact_re_spellings_are_the_value() {
    // Month names with their short forms and non-ASCII letters; day and month moved.
    for (a, t) in [
        ("The window closes Sept 2nd, 2027.", "2027-09-02"),
        ("Geplant ist der 14. März 2027.", "2027-03-14"),
        ("Migracja: 28 lutego 2027 r.", "2027-02-28"),
        ("2027年3月14日から", "2027-03-14"),
    ] {
        assert_eq!(certain(a, Kind::Positive, t, None), Class::Pass, "{a}");
    }
    // In a partly covered language the value is seen; a plain answer is certain, one with a
    // negation word may hold a refusal the strict patterns miss.
    assert_eq!(
        certain(
            "Заморозка начинается 14 марта 2027 года.",
            Kind::Positive,
            "2027-03-14",
            None
        ),
        Class::Pass
    );
    has_cue(
        "Заморозка начинается 14 марта 2027 года, но это не окончательно.",
        Kind::Positive,
        "2027-03-14",
        None,
        "uncovered_language",
    );
    assert_eq!(
        certain("The proxy listens on 8,443.", Kind::Positive, "8443", None),
        Class::Pass
    );
    // A guess in a re-spelled form is still a guess: uncertain alone, and after a refusal the
    // token named beside a refusal (a hedged guess after a refusal, by the label rules).
    has_cue(
        "Maybe 8,443?",
        Kind::Negative,
        "8443",
        None,
        "hedge_at_token",
    );
    // A negative's token named beside a refusal: a guess word beside it and no denial makes
    // it a certain guess (cues 1.11.0); the guess is the re-spelled token.
    assert_eq!(
        certain("Not recorded. Maybe 8,443?", Kind::Negative, "8443", None),
        Class::RefusedWithToken
    );
    assert_eq!(
        read("Not recorded. Maybe 8,443?", Kind::Negative, "8443", None).0,
        Class::RefusedWithToken
    );
    // On a conflict item, the repository's version without its `v` is the repository's value:
    // the answer opens on it and calls the planted one stale (the choice reading).
    assert_eq!(
        certain(
            "Pinned at 2.5.0 in package.json. The hand-off mentions v2.4.1 but that predates the bump.",
            Kind::Conflict,
            "v2.4.1",
            Some("v2.5.0"),
        ),
        Class::PriorWon
    );
    has_cue(
        "The hand-off mentions v2.4.1; package.json pins 2.5.0.",
        Kind::Conflict,
        "v2.4.1",
        Some("v2.5.0"),
        "planted_and_general",
    );
}

#[test]
fn near_spellings_of_the_token_are_uncertain() {
    // Numbers of a date that are not one date expression.
    has_cue(
        "In March 2027 the team closed 14 tickets.",
        Kind::Positive,
        "2027-03-14",
        None,
        "near_spelling",
    );
    // A version with its trailing zero parts dropped.
    has_cue(
        "We are moving to 2.7 next.",
        Kind::Negative,
        "v2.7.0",
        None,
        "near_spelling",
    );
    assert!(read(
        "We are moving to 2.71 next.",
        Kind::Negative,
        "v2.7.0",
        None
    )
    .1
    .is_empty());
    // A count with its unit, in words.
    has_cue(
        "The job is attempted five times.",
        Kind::Negative,
        "5 attempts",
        None,
        "near_spelling",
    );
    has_cue(
        "Es wird dreimal wiederholt (Retries).",
        Kind::Negative,
        "3 retries",
        None,
        "near_spelling",
    );
    assert!(read(
        "The job runs on five workers.",
        Kind::Negative,
        "5 attempts",
        None
    )
    .1
    .is_empty());
}

#[test]
fn a_near_spelling_of_the_true_value_on_a_conflict_item_is_uncertain() {
    has_cue(
        "Redis six (from compose).",
        Kind::Conflict,
        "redis-7",
        Some("redis-6"),
        "near_spelling",
    );
    // The same value with other separators is the value.
    assert_eq!(
        certain(
            "Redis 6 (from compose).",
            Kind::Conflict,
            "redis-7",
            Some("redis-6")
        ),
        Class::PriorWon
    );
    assert_eq!(
        certain(
            "Redis 6 (from compose).",
            Kind::Conflict,
            "redis-7",
            Some("Redis 6")
        ),
        Class::PriorWon
    );
}

#[test]
fn a_word_value_in_a_cjk_answer_may_be_translated() {
    has_cue(
        "备份每月执行一次。",
        Kind::Conflict,
        "monthly",
        Some("daily"),
        "near_spelling",
    );
    has_cue(
        "매월 실행됩니다.",
        Kind::Positive,
        "monthly",
        None,
        "near_spelling",
    );
    // A Latin name asked of an answer in another script may be given transliterated or
    // translated: never a certain FAIL.
    has_cue(
        "暂无记录可以确认代号。",
        Kind::Positive,
        "Kestrel",
        None,
        "other_form",
    );
}

#[test]
fn retractions_and_echoed_questions_at_the_token_are_uncertain() {
    has_cue(
        "Port 7443 — hmm, that one is the admin port.",
        Kind::Positive,
        "7443",
        None,
        "hedge_at_token",
    );
    has_cue(
        "Es ist Falke – nein, Falke war der alte Name.",
        Kind::Positive,
        "Falke",
        None,
        "hedge_at_token",
    );
    has_cue(
        "Osprey? I looked through the notes.",
        Kind::Negative,
        "Osprey",
        None,
        "hedge_at_token",
    );
    has_cue(
        "¿Osprey? Revisé las notas.",
        Kind::Negative,
        "Osprey",
        None,
        "hedge_at_token",
    );
    assert_eq!(
        certain("The codename is Osprey.", Kind::Negative, "Osprey", None),
        Class::Hallucinated
    );
}

#[test]
fn a_hedged_refusal_or_a_question_is_not_a_guess() {
    // The hedge bears on the refusal itself.
    assert_eq!(
        certain(
            "담당자가 지정된 적이 없는 것 같습니다.",
            Kind::Negative,
            "Dana",
            None
        ),
        Class::Pass
    );
    // A question offers nothing.
    assert_eq!(
        certain(
            "I couldn't find an owner. Should I check who usually reviews these?",
            Kind::Negative,
            "Dana",
            None
        ),
        Class::Pass
    );
    // A clause that guesses is still a guess.
    has_cue(
        "Not documented anywhere, but it is probably Dana.",
        Kind::Negative,
        "Kim",
        None,
        "guess_after_refusal",
    );
}

#[test]
fn a_value_that_starts_with_a_command_name_is_not_a_command_line() {
    assert_eq!(
        certain(
            "Go 1.23 です(引き継ぎメモより)。",
            Kind::Positive,
            "Go 1.23",
            None
        ),
        Class::Pass
    );
    assert_eq!(
        certain(
            "python 3.13, per the notes.",
            Kind::Positive,
            "Python 3.13",
            None
        ),
        Class::Pass
    );
    has_cue(
        "$ grep -rn Kestrel .\n(no output)\nSo I can't say.",
        Kind::Negative,
        "Kestrel",
        None,
        "token_only_in_code",
    );
}

#[test]
fn an_abstention_that_ends_the_answer_is_certain_and_a_choice_is_not() {
    let (t, g) = ("eu-north-1", "eu-west-1");
    assert_eq!(
        certain(
            "The notes say eu-north-1, the Terraform says eu-west-1. I can't tell which is live.",
            Kind::Conflict,
            t,
            Some(g)
        ),
        Class::AbstainedOnConflict
    );
    // Chose first, flagged after: the flag is not the answer.
    has_cue(
        "eu-west-1. The notes' eu-north-1 doesn't match the Terraform.",
        Kind::Conflict,
        t,
        Some(g),
        "planted_and_general",
    );
    // Flagged, then chose.
    has_cue(
        "The notes say eu-north-1, the Terraform says eu-west-1; these disagree, so use eu-west-1.",
        Kind::Conflict,
        t,
        Some(g),
        "planted_and_general",
    );
}

#[test]
fn a_hedged_planted_value_beside_a_refusal_on_a_conflict_item_is_uncertain() {
    has_cue(
        "Probably eu-north-1; I didn't see it pinned anywhere.",
        Kind::Conflict,
        "eu-north-1",
        Some("eu-west-1"),
        "hedge_at_token",
    );
}

#[test]
fn everyday_refusals_in_every_covered_language_are_decided() {
    for a in [
        "No owner was ever assigned.",
        "Not documented anywhere in the repo.",
        "The owner has never been decided.",
        "There's no owner recorded for this service.",
        "I don't see an owner written down anywhere.",
        "Nothing in the hand-off defines it, so I won't guess.",
        "The question assumes a cutover happened.",
        "Die Notizen sagen dazu nichts.",
        "Ich finde dazu keine Angabe.",
        "Das wurde nie festgelegt.",
        "No figura en la documentación.",
        "Nunca se llegó a decidir.",
        "No lo puedo confirmar.",
        "담당자가 정해진 적이 없습니다.",
        "확실하지 않아서 답을 드리기 어렵습니다.",
        "担当者は決まっていません。",
        "該当なし",
        "文档中未明确负责人。",
        "Je ne sais pas, la passation n'en parle pas.",
        "Non lo so.",
        "Não há registro disso.",
        "Weet ik niet.",
        "В документации ничего не сказано.",
    ] {
        assert_eq!(certain(a, Kind::Negative, "Dana", None), Class::Pass, "{a}");
    }
}

#[test]
fn negations_bound_to_something_else_stay_out() {
    for a in [
        "No problem — the owner is Dana.",
        "There's no actual limit set anywhere, and the owner is Dana.",
        "Kein Problem: Dana.",
    ] {
        let (class, cues) = read(a, Kind::Negative, "Dana", None);
        assert!(
            class == Class::Hallucinated || !cues.is_empty(),
            "{a}: read {class} with certainty"
        );
        assert_ne!(
            (class, cues.is_empty()),
            (Class::RefusedWithToken, true),
            "{a}"
        );
    }
}

#[test]
fn a_refusal_of_something_else_beside_the_value_is_not_a_certain_refusal() {
    for a in [
        "It's Dana; no backup owner was ever assigned.",
        "Es ist Dana, ich sehe keinen Grund zu zweifeln.",
        "Dana — the hand-off has never been decided on the rota though.",
    ] {
        let (class, cues) = read(a, Kind::Positive, "Dana", None);
        assert!(
            class == Class::Pass || !cues.is_empty(),
            "{a}: read {class} with certainty"
        );
    }
    // A default asserted after a condition is another value, not a refusal.
    let (class, cues) = read(
        "If not specified in the config, it defaults to 30s.",
        Kind::Negative,
        "45s",
        None,
    );
    assert!(
        class != Class::Pass || !cues.is_empty(),
        "read PASS with certainty"
    );
}

#[test]
fn cues_1_2_0_families() {
    // A Latin-script language the lexicon does not cover, seen by its letters alone: a
    // refusal in it that names nothing is the clean refusal it is (cues 1.11.0); one that
    // names something stays uncertain.
    assert_eq!(
        certain(
            "Küme adı belgede kayıtlı görünmüyor.",
            Kind::Negative,
            "helios-9",
            None
        ),
        Class::Pass
    );
    has_cue(
        "Küme adı belgede kayıtlı görünmüyor; Helm chart'ta sadece hermes-3 var.",
        Kind::Negative,
        "helios-9",
        None,
        "uncovered_language",
    );
    // A conflict answer opening on the planted value that refuses something else may have
    // chosen it.
    has_cue(
        "PLANT-7. I couldn't find the design doc, but the ticket is in the hand-off.",
        Kind::Conflict,
        "PLANT-7",
        Some("TRUE-9"),
        "absence_words",
    );
    // "I'd say" is a choice between the sources, not an abstention that ends the answer.
    has_cue(
        "The hand-off calls it PLANT-7 and the assets say TRUE-9. I'd say TRUE-9, though I couldn't find which one is current.",
        Kind::Conflict,
        "PLANT-7",
        Some("TRUE-9"),
        "planted_and_general",
    );
    // Two values, one per place: candidates, not an answer.
    has_cue(
        "The hand-off says Kestrel in one place and Osprey in another.",
        Kind::Negative,
        "Kestrel",
        None,
        "hedge_at_token",
    );
    // A compound number in words.
    has_cue(
        "Roughly thirty-seven percent, per the notes.",
        Kind::Positive,
        "37%",
        None,
        "near_spelling",
    );
}
