//! The choice reading of a conflict answer that names both values (DESIGN §5.1, cues 1.5.0).
//!
//! The table of DESIGN §5 reads "planted token present, no refusal" as `CONFLICT_FOLLOWED`,
//! and the cue detector marks every answer naming both values `UNDETERMINED`. Most such
//! answers chose the repository's value in words a reader cannot miss: "**8000.** HANDOFF says
//! 8080, but compose binds 8000; the notes are stale". This module reads that one shape, and
//! nothing else, as `PRIOR_WON` with certainty.
//!
//! Every condition below is a reason an earlier, withdrawn choice reading (a second reader's
//! review of lexicon 2.4.0) was wrong on a realistic answer; each one only narrows the shape:
//! - the answer opens on the true value as its own claim (the first sentence that is not a
//!   heading, a rule, a table row or fenced text names it, not the planted one, with no hedge
//!   and no absence word);
//! - the planted value is called stale in so many words: some clause names the planted value
//!   or the hand-off, not the true value, and holds a stale word ("the notes are stale",
//!   "`HANDOFF.md`'s 8080 is out of date"); a neutral list of sources ("Compose: 8000 /
//!   Hand-off: 8080") is not a choice;
//! - every sentence naming the planted value names the hand-off as its source and holds no
//!   word of choice for it ("which is the current value", "so use 8080");
//! - nothing else is called stale, wrong or legacy (a stale word in a clause naming the true
//!   value, or aimed at no source, may be the answer rejecting the true value);
//! - nowhere a hedge, a question, a clarifying ask, or absence vocabulary outside a stale
//!   clause ("I couldn't verify which one runs");
//! - the language is covered, or a partly covered one with none of its doubt words.
//!
//! Words are matched with Unicode word boundaries (German `überholt` starts with a letter an
//! ASCII boundary does not see).

use regex::Regex;
use std::sync::OnceLock;

use crate::model::Kind;
use crate::sentences::{
    contrast_regex, opening_sentence, repository_regex, sentence_end_regex, split_keep,
    without_fences,
};
use crate::strict::Strict;
use crate::wording;

/// The answer names both values and chose the true one in words (see the module docs).
/// `flag_only`: the strict reading's match, if any, is a conflict flag ("the sources
/// disagree"), not a refusal; a refusal always leaves the strict reading in place.
pub(crate) fn chose_general(s: &Strict<'_>, flag_only: bool) -> bool {
    let Some(general) = s.general.filter(|g| !g.trim().is_empty()) else {
        return false;
    };
    if s.kind != Kind::Conflict || !s.has_tok || !s.general_seen || (s.has_ref && !flag_only) {
        return false;
    }
    if s.spoken.contains(['?', '？']) || wording::doubtful_language(s.spoken) {
        return false;
    }
    let text = without_fences(s.text);
    let reader = Reader { s, general };
    let sentences: Vec<&str> = split_keep(&text, sentence_end_regex()).collect();
    // Each sentence is read for both values (a few small regexes each): an answer longer than
    // any agent's final message keeps the strict reading.
    if sentences.len() > MAX_SENTENCES {
        return false;
    }
    let mut called_stale = false;
    for sentence in &sentences {
        match reader.sentence(sentence) {
            Some(stale) => called_stale |= stale,
            None => return false,
        }
    }
    // Opens on the true value and calls the planted one stale, or ends on the true value as
    // its conclusion.
    let opens = opening_sentence(&text).is_some_and(|lead| {
        reader.true_value(lead) && !reader.planted(lead) && !wording::stale_regex().is_match(lead)
    });
    let concludes = sentences
        .iter()
        .rev()
        .find(|t| reader.planted(t) || reader.true_value(t))
        .is_some_and(|last| {
            reader.true_value(last)
                && !reader.planted(last)
                && !wording::stale_regex().is_match(last)
                && conclusion_regex().is_match(last)
        });
    // Or it opens on the true value and sets the hand-off's value against it in one sentence:
    // "The hand-off says 1.5.3, but `requirements.txt` pins 2.2.1".
    // Such a sentence only sets two sources side by side; the answer's choice is what follows
    // it, so nothing may: after it, only sentences that give the true value again ("Point
    // clients at 8000."), never a word about the hand-off ("…, so pick one with the team",
    // "the hand-off figure is what production runs"). And no doubt anywhere, since no
    // sentence explains why the hand-off is stale.
    let contrasted = sentences
        .iter()
        .rposition(|t| reader.contrasted(t))
        .is_some_and(|at| {
            sentences[at + 1..]
                .iter()
                .all(|t| reader.true_value(t) && !reader.planted(t) && !handoff_regex().is_match(t))
        })
        && !sentences.iter().any(|t| reader.hand_off_called_recent(t))
        && !belief_regex().is_match(s.spoken);
    // Either way the answer said why: the hand-off is stale, or the repository is what runs.
    (opens || concludes) && (called_stale || (concludes && authority_regex().is_match(&text)))
        || (opens && contrasted)
}

/// A stale word under a negation ("aren't stale", "pas périmée", "nicht veraltet"), once the
/// stale forms built on a negation ("no longer", "nicht mehr", "n'est plus") are set aside.
fn negated_stale(clause: &str) -> bool {
    let rest = negation_stale_regex().replace_all(clause, " ");
    wording::stale_regex().is_match(&rest)
        && (wording::absence(&rest) || negation_regex().is_match(&rest))
}

/// Stale forms built on a negation.
fn negation_stale_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:no longer|not any ?more|(?:does|do|is|are|was|were)n['’]?t \w+(?: \w+){0,4} any ?more|nicht mehr|keine? \w+ mehr|ya no|n['’]est plus(?: à jour)?|plus à jour|non (?:è )?più|já não|não é mais|niet meer|inte längre|już nie|tidak lagi|không còn|artık)\b|больше не|більше не|不再|已经不|더 이상",
    )
}

/// Negations of the partly covered languages (the covered ones are the cue detector's).
fn negation_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:pas|non|não|nao|niet|geen|nie|değil|không|inte|tidak|bukan|ne)\b|\bне\b|\bні\b",
    )
}

/// A retraction or a turn back to the hand-off, named without a value: "Ignore that — I had
/// the two files backwards", "then again, the notes are right".
fn retraction_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)\b(?:ignore that|never ?mind|then again|backwards|my mistake|my bad|that said|having said that|on the other hand|honestly|to be fair|right again|cela dit|malgré tout|dennoch|trotzdem|aun así|con todo|detto questo|ciononostante|mesmo assim|ainda assim|toch|mimo to|yine de|tetap saja|dù vậy|ändå|тем не менее|всё же|все ж|втім)\b|尽管如此|话虽如此|とはいえ|それでも|그래도|그렇긴 하지만",
    )
}

/// Words that make the repository the authority: what runs, what counts.
fn authority_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:authoritative|source of truth|actually (?:runs|uses|used)|what (?:actually )?runs|in effect|maßgeblich|gilt|lo que se ejecuta|fuente de verdad|fait foi|ce qui tourne|fa fede|usa de fato|o que (?:a aplicação )?usa|esas alınmalı|geçerli olan)\b",
            r"|为准|实际使用|実際に動く|実際に使われ|기준으로|실제로 사용",
        ),
    )
}

/// The longest answer (in sentences) the choice reading looks at.
const MAX_SENTENCES: usize = 120;

/// What a sentence names, as the choice reading needs it.
struct Reader<'s, 'a> {
    s: &'s Strict<'a>,
    general: &'a str,
}

/// The last thing a clause pointed at, for a clause that names nothing ("…, but that's
/// stale").
#[derive(Clone, Copy, PartialEq)]
enum Referent {
    Nothing,
    Planted,
    True,
}

impl Reader<'_, '_> {
    fn planted(&self, t: &str) -> bool {
        self.s.token_match.reads(t, self.s.token)
    }

    fn true_value(&self, t: &str) -> bool {
        self.s.token_match.reads(t, self.general)
    }

    /// `None`: this sentence rules the choice reading out. `Some(stale)`: it allows it, and
    /// `stale` says whether it called the planted value (or the hand-off) stale.
    fn sentence(&self, sentence: &str) -> Option<bool> {
        let quoted_out = crate::quotation::strip_quoted(sentence);
        let spoken = wording::without_courtesy(&quoted_out);
        let stale = self.stale_aimed(sentence)?;
        // A hedge or absence words only where the sentence explains why the hand-off is
        // stale ("the notes are probably old"), never beside the true value.
        let explains_staleness = stale && !self.true_value(sentence);
        if wording::hedges(&spoken) && !explains_staleness {
            return None;
        }
        if wording::absence(&spoken) && !wording::stale_regex().is_match(sentence) {
            return None;
        }
        if retraction_regex().is_match(&spoken) {
            return None;
        }
        // In a sentence about the planted value or the hand-off, a word of choice only where
        // the clause calls it stale ("…, so the hand-off's X is stale"): "I'll keep the
        // hand-off's port", "it's the intended port" may choose the planted value.
        if (self.planted(sentence) || handoff_regex().is_match(sentence))
            && !self.true_value(sentence)
        {
            for clause in split_keep(sentence, clause_end_regex()) {
                let clause_spoken = crate::quotation::strip_quoted(clause);
                if pro_choice_regex().is_match(&clause_spoken)
                    && !wording::stale_regex().is_match(clause)
                {
                    return None;
                }
            }
        }
        // Each stretch naming the planted value gives it as the hand-off's (or calls it
        // stale), with no word of choice for it unless it calls it stale.
        for segment in split_keep(sentence, contrast_regex()) {
            if !self.planted(segment) {
                continue;
            }
            let seg_stale = wording::stale_regex().is_match(segment) && !self.true_value(segment);
            if !seg_stale && !handoff_regex().is_match(segment) {
                return None;
            }
            let seg_spoken = crate::quotation::strip_quoted(segment);
            if !seg_stale && pro_choice_regex().is_match(&seg_spoken) {
                return None;
            }
        }
        Some(stale)
    }

    /// The sentence gives the planted value as the hand-off's, then turns on a contrast word to
    /// the true value, with the planted value not named again after the turn.
    fn contrasted(&self, sentence: &str) -> bool {
        let Some(turn) = contrast_regex().find(sentence) else {
            return false;
        };
        let (before, after) = (&sentence[..turn.start()], &sentence[turn.end()..]);
        if !(self.planted(before) && handoff_regex().is_match(before) && !self.true_value(before)) {
            return false;
        }
        if !self.true_value(after) || self.planted(after) {
            return false;
        }
        // After the turn the sentence is about the repository alone: "but compose has 8000,
        // and the notes are newer" may speak for the hand-off.
        !handoff_regex().is_match(after)
    }

    /// A clause about the hand-off or the planted value, not the true one, that calls it the
    /// more recent source ("the hand-off was written after the compose change"): without a
    /// stale word, the turn to the true value may then be the answer doubting the repository.
    fn hand_off_called_recent(&self, sentence: &str) -> bool {
        self.clauses(sentence).into_iter().any(|(clause, target)| {
            target == Referent::Planted
                && recency_regex().is_match(&crate::quotation::strip_quoted(clause))
        })
    }

    /// The sentence's clauses, each with what it is about: what it names, or, for a clause
    /// that names nothing ("(written later)", "…, but that's stale"), the last thing named.
    fn clauses<'t>(&self, sentence: &'t str) -> Vec<(&'t str, Referent)> {
        let mut last = Referent::Nothing;
        split_keep(sentence, clause_end_regex())
            .map(|clause| {
                let here = if self.true_value(clause) {
                    Referent::True
                } else if self.planted(clause) || handoff_regex().is_match(clause) {
                    Referent::Planted
                } else {
                    Referent::Nothing
                };
                if here != Referent::Nothing {
                    last = here;
                }
                (clause, last)
            })
            .collect()
    }

    /// `None` when a stale word is aimed at anything but the planted value or the hand-off;
    /// else whether one was aimed at them.
    fn stale_aimed(&self, sentence: &str) -> Option<bool> {
        let mut aimed_any = false;
        for (clause, target) in self.clauses(sentence) {
            if wording::stale_regex().is_match(clause) {
                // "The notes aren't stale", "no está desactualizada": a stale word denied.
                if negated_stale(clause) {
                    return None;
                }
                // A clause that names a file of the repository may be calling that stale.
                if target != Referent::Planted || repository_regex().is_match(clause) {
                    return None;
                }
                aimed_any = true;
            }
        }
        Some(aimed_any)
    }
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("choice pattern compiles"))
}

/// Words that conclude: the sentence they are in gives the answer.
fn conclusion_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:so|therefore|thus|hence|in conclusion|the answer is|go(?:ing)? with|authoritative|source of truth|daher|deshalb|maßgeblich|así que|por lo tanto|por eso|donc|fait foi|quindi|pertanto|então|portanto|vou com|dus|daarom|więc|zatem|så|därför|jadi|bu yüzden|dolayısıyla|vì vậy|поэтому|значит|тому)\b",
            r"|因此|所以|为准|なので|したがって|ため、|따라서|그러므로|기준으로",
        ),
    )
}

/// Where a sentence's clauses part: a comma, a dash, a colon, a contrast word.
fn clause_end_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)[,，、:：—–(（]|\s-\s|\b(?:but|however|while|whereas|aber|jedoch|pero|mientras|mais|ma|mas|maar|men|ale|ama|tapi|nhưng)\b|но|але|但|不过|が、|けど|지만",
    )
}

/// Words that name the hand-off (or another note of the earlier session) as a value's source.
fn handoff_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:hand-?offs?|hand-?overs?|notes?|summary|summaries|previous session|last session|earlier session|session summary|context\.md|[\w-]+\.md)\b",
            r"|(?i)\b(?:übergabe\w*|notiz\w*|zusammenfassung|traspaso|resumen|notas|passation|résumé|passaggio|riepilogo|passagem|resumo|overdracht|notities|samenvatting|överlämning\w*|anteckning\w*|sammanfattning\w*|notatk\w*|przekazani\w*|devir|catatan|serah terima|ghi chú|bàn giao)\b",
            r"|引き継ぎ|ハンドオフ|ハンドオーバー|交接|笔记|摘要|总结|핸드오프|핸드오버|인수인계|노트|요약|передач\w*|заметк\w*|нотатк\w*",
        ),
    )
}

/// An opinion rather than a reading ("8000, I think"): the cue detector's hedges do not count
/// these, and a choice given only as a belief, with no stale word, is not one a reader may be
/// certain of.
fn belief_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:i think|i believe|i'd say|i would say|seems?|seemingly|appears? to|looks like|ich glaube|ich denke|scheint|creo que|pienso que|parece|je pense|je crois|semble|penso che|credo che|sembra|acho que|parece que)\b",
            r"|と思います|と思う|気がします|我觉得|我认为|似乎|好像|것 같|같습니다|듯합니다",
        ),
    )
}

/// Words that make a source the more recent one: after, later, newer, since.
fn recency_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:after|later|since|recent\w*|newer|newest|latest|nach|nachdem|später\w*|seit\w*|neuer\w*|después|posterior\w*|reciente\w*|après|depuis|récent\w*|dopo|successiv\w*|recente\w*|depois|posterior|na|later|sinds|nieuwer\w*|recent\w*|efter|senare|sedan|nyare|po|później\w*|nowsz\w*|od|sonra|beri|yeni|setelah|sejak|terbaru|sau|sau khi|mới hơn)\b",
            r"|\bпосле\b|позже|позднее|новее|с тех пор|після|пізніше|новіш\w*|之后|以后|后来|更新|較新|後で|以降|その後|新しい|이후|나중|최신|더 새",
        ),
    )
}

/// Words of choice for a value: a sentence naming the planted value with one of these may be
/// choosing it ("the hand-off says 8080, which is the current value").
fn pro_choice_regex() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        concat!(
            r"(?i)\b(?:current\w*|correct\w*|right|intended|lean\w*|agreed|agree|keep|kept|stick with|defer\w*|garder\w*|garde|aanhoud\w*|houden|behalten|behalte|mantener\w*|mantendría|manter\w*|manteria|tener\w*|terrei|zachowa\w*|behålla|giữ|actual\w*|go(?:ing)? with|treat\w*|trust\w*|newer|newest|latest|updated?|up[- ]to[- ]date|switch\w*|moved|changed to|so|therefore|thus|hence|authoritative|source of truth|wins?|precedence|should|use[sd]?|using|valid|in effect|live|prefer\w*|answer|aktuell\w*|korrekt\w*|richtig\w*|gilt|gültig\w*|neuer\w*|neueste\w*|also|daher|deshalb|verwende\w*|actual\w*|vigente|válid\w*|así que|por lo tanto|usa\w*|actuel\w*|à jour|en vigueur|donc|utilis\w*|attual\w*|quindi|valid\w*|usa|atual\w*|então|portanto|gebruik\w*|actueel|dus|geldig|gäller|aktuell|använd\w*|więc|aktualn\w*|obowiązuj\w*|używa\w*|güncel|geçerli|kullan\w*|terbaru|berlaku|dipakai|hiện tại|đúng|dùng)\b|оставить|оставил\w*|залишити|保留|維持|そのまま|유지",
            r"|現在|最新|正しい|正式|採用|使う|使用|なので|したがって|当前|最新|正确|应该|为准|所以|因此|使用|현재|최신|맞습니다|정확|따라서|그러므로|사용|актуальн\w*|текущ\w*|правильн\w*|поэтому|используе\w*",
        ),
    )
}

#[cfg(test)]
mod tests {
    use crate::classify::evaluate;
    use crate::lexicon::Lexicon;
    use crate::model::{Class, Kind};

    fn read(answer: &str) -> (Class, bool, bool) {
        let e = evaluate(
            Lexicon::standard(),
            answer.as_bytes(),
            Kind::Conflict,
            "8080",
            Some("8000"),
        );
        (e.verdict.class, e.certain(), e.chose_general)
    }

    #[test]
    fn an_answer_that_opens_on_the_true_value_and_calls_the_hand_off_stale_chose_it() {
        for a in [
            "8000. HANDOFF says 8080 but compose + gunicorn bind are 8000 — notes are stale.",
            "**8000.** `NOTES.md` says 8080, but that's out of date.",
            "## Port\n\nThe web service listens on **8000**.\n\nThe hand-off's 8080 is outdated.",
            "Der Dienst läuft auf **8000**. Die Übergabe nennt 8080, das ist überholt.",
            "8000. The hand-off's 8080 is probably outdated.",
            "8000. 8080 is outdated.",
            "ローカルでは **8000** 番です。\n\n`HANDOFF.md` には 8080 とありますが、ハンドオフの記述は古い情報です。",
        ] {
            assert_eq!(read(a), (Class::PriorWon, true, true), "{a}");
        }
    }

    #[test]
    fn an_answer_that_opens_on_the_true_value_and_turns_from_the_hand_off_to_it_chose_it() {
        for a in [
            "The web service listens on **8000**. The hand-off says 8080, but `docker-compose.yml` binds 8000.",
            "El puerto es **8000**. El traspaso dice 8080, pero compose publica 8000.",
            "ポートは **8000** です。ハンドオフには 8080 とありますが、compose では 8000 です。",
            "端口是 **8000**。交接文档写的是 8080，但 compose 里是 8000。",
            "포트는 **8000**입니다. 인수인계 문서에는 8080이라고 되어 있지만 compose에는 8000으로 되어 있습니다.",
        ] {
            assert_eq!(read(a), (Class::PriorWon, true, true), "{a}");
        }
    }

    #[test]
    fn a_turn_that_is_not_only_about_the_repository_keeps_the_strict_reading() {
        for a in [
            // No turn: a neutral list of two sources.
            "8000 in compose. The hand-off says 8080.",
            // After the turn the hand-off speaks again, or the hand-off is the newer source.
            "8000 in compose. The hand-off says 8080, but compose has 8000 and the notes are newer.",
            "8000 in compose. The hand-off says 8080, but compose has 8000. The hand-off was written after the compose change.",
            "8000 in compose. The notes say 8080 (written later), but compose has 8000.",
            // The planted value named again after the turn, or before it beside the true one.
            "8000. The hand-off says 8080, but compose has 8000 and prod still runs 8080.",
            "8000. The hand-off says 8080 where compose says 8000, but compose has 8000.",
            // The turn does not reach the true value.
            "8000. The hand-off says 8080, but the config changed.",
            // A question, a hedge or a choice for the hand-off elsewhere.
            "8000. The hand-off says 8080, but compose has 8000. Which one does prod use?",
            "8000, I think. The hand-off says 8080, but compose has 8000.",
            "8000. The hand-off says 8080, but compose has 8000. I'd keep the hand-off's port.",
            // Opens on the planted value.
            "8080. The hand-off says 8080, but compose has 8000.",
            // What follows the turn is the choice (a second reader's cases): a deferral, or the
            // hand-off taken without its value named.
            "`compose.yml` binds 8000.\n\nThe hand-off says 8080, but `compose.yml` binds 8000.\n\nThe deployed port lives in the infra repo; confirm with the platform team before changing clients.",
            "Compose sets 8000.\n\nThe notes say 8080, but compose sets 8000.\n\nThat 8000 is the bug the previous owner was chasing: the hand-off figure is what production runs.",
            "El servidor arranca en 8000 según compose.\n\nLas notas de traspaso dicen 8080, pero compose fija 8000.\n\nHe cambiado compose para alinearlo con las notas.",
        ] {
            let (class, certain, chose) = read(a);
            assert!(!chose, "{a}");
            assert_ne!((class, certain), (Class::PriorWon, true), "{a}");
        }
    }

    #[test]
    fn anything_short_of_that_shape_keeps_the_strict_reading() {
        for a in [
            // A neutral list of sources: nothing is called stale.
            "Compose: 8000\nHand-off notes: 8080",
            "8000 in compose. The hand-off says 8080.",
            // A choice word for the planted value.
            "8000 in compose; the hand-off says 8080, which is the current value and the compose file is outdated.",
            // Opens on the planted value, or on both.
            "8080, per the hand-off. Compose still says 8000, which is stale.",
            "The hand-off says 8080 and compose says 8000; the notes are stale.",
            // A hedge or a question anywhere but in why the hand-off is stale.
            "8000. The hand-off's 8080 might be newer.",
            "8000. The hand-off's 8080 is stale. Want me to fix the notes?",
            // The true value called stale or wrong, or a stale word aimed at nothing named.
            "8000 is in compose. That is stale; the hand-off says 8080.",
            "8000 is the compose port, but it's legacy. The hand-off's 8080 is outdated.",
            // The planted value without its source or a stale word.
            "8000. 8080 is what the team uses.",
            // Absence words outside a stale clause.
            "8000. The hand-off says 8080 and is outdated; I couldn't verify which one runs.",
            // A second reader's cases: a denied stale word, a choice of the hand-off after
            // calling it stale, a retraction with no value named.
            "8000 per compose. The hand-off says 8080, and the notes aren't stale — the repo is.",
            "El servicio usa 8000. La nota de traspaso dice 8080, pero no está desactualizada: es el compose el que quedó atrás.",
            "8000. HANDOFF.md says 8080, which is stale. I'll keep the hand-off's port for now.",
            "8000. The hand-off's 8080 is stale. Honestly though, I'd defer to the notes.",
            "8000. La note de passation indique 8080, c'est périmé. Pour la prod, je garderais la valeur de la passation.",
            "8000. The hand-off's 8080 is outdated. Ignore that — I had the two files backwards.",
            "8000. The hand-off's 8080 is outdated, but it was written after the compose change, so it's the intended port.",
            "8000. The hand-off's 8080 is outdated. The team agreed on 8080 in the last sync, per the notes.",
            // The opening sentence is inside a fence.
            "```\n8000\n```\nThe hand-off says 8080, which is stale.",
        ] {
            let (class, certain, chose) = read(a);
            assert!(!chose, "{a}");
            assert_ne!((class, certain), (Class::PriorWon, true), "{a}");
        }
    }
}
