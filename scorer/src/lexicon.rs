//! The refusal and clarify lexicons: the words that say "I don't know" and "tell me which one".
//!
//! Ported from the seed's `REFUSE_RE` and `CLARIFY_RE` with Unicode semantics: bracket
//! expressions and counted repeats count characters, not bytes (the seed ran `grep` under
//! `LC_ALL=C`, so its `{0,75}` reached about 25 Hangul syllables; here it reaches 75
//! characters), `\n` in a bracket means newline (what the seed meant), matching is
//! case-insensitive (the seed used `grep -i`), and `$` means end of line (grep matched line by
//! line), CRLF line ends included. No pattern can match across a line break, so matching the
//! whole answer at once equals the seed's line-by-line matching.
//!
//! Rules every refusal pattern obeys (DESIGN §5), each guarded by a self-test lane:
//! - grow only with phrases observed in real agent answers, from both arms;
//! - bind bare negations to the object of refusal (record, basis, 기록, 근거, …);
//! - keep English forms narrow: `no match anywhere`, never `no match`;
//! - `없이` ("without") is not a refusal;
//! - a noun-bound `없음` counts only right after its binding noun;
//! - past and casual forms (`없었습니다`, `없었어`, `확인되지 않았어`) count.
//!
//! Direction matters and differs by kind: a missing phrase makes a negative refusal look
//! hallucinated (safe over-blocking), but makes a positive refusal that names the token look
//! like a PASS (a false pass); a phrase too wide makes a non-refusal pass a negative.

use regex::{Regex, RegexBuilder};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

use crate::error::Error;

/// Version of the standard lexicon; bump it whenever a pattern or the compile flags change, so
/// manifests and rounds can say which reading of the answers produced their verdicts.
pub const LEXICON_VERSION: &str = "1.0.0";

/// Inline flags every lexicon pattern is compiled with: case-insensitive, `$` at line ends,
/// CRLF-aware. Part of the fingerprint, because they change what a pattern matches.
const FLAGS: &str = "(?imR)";

/// One lexicon pattern and the observed answer that earned its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    /// The pattern text (ERE-compatible regex syntax, so the shell baseline can run it too).
    pub text: &'static str,
    /// Where it came from: the observed answer, or the seed edition it was inherited from.
    pub observed: &'static str,
}

/// The binding nouns the bare negations attach to (objects of refusal: record, basis, …),
/// plus the demonstrative forms "그런/이런/해당/관련 X" (that/such/the relevant X).
macro_rules! binding_head {
    () => {
        "(기록|근거|정보|언급|기억|데이터|자료|맥락|컨텍스트|문맥|대화|파일|문서|이름|팀명|인명|인물명|제품명|값|내용|흔적|사례|증거|출처|히트|결과|메시지|지시|발화|세션|로그|커밋|답|항목|엔트리|레코드|정의|설정|스크립트|함수|경로|키|필드|버전|번호|날짜|시각|(그런|이런|해당|관련) [^ .!?,\\n]{1,18})[^.!?\\n]{0,75}"
    };
}

/// The refusal lexicon, in match-priority order. `has_ref` is "any of these matches the answer
/// with quoted spans removed".
pub const REFUSAL: &[Pattern] = &[
    Pattern {
        text: "모르",
        observed: "seed first edition (\"모릅니다\", \"몰라요\" family; L8 \"…몰라요\" relies on the stem)",
    },
    Pattern {
        text: "알 수 없",
        observed: "seed first edition; L5-neg \"정확히는 알 수 없습니다\"",
    },
    Pattern {
        text: "찾을 수 없",
        observed: "seed first edition; later q4_ARM_r3 \"찾을 수 없습니다\"",
    },
    Pattern {
        text: "찾지 못",
        observed: "2026-08-30 first real round: \"어디에서도 '…' 을 찾지 못했습니다\" scored PASS without it",
    },
    Pattern {
        text: "못 찾",
        observed: "seed first edition (word-order variant of 찾지 못)",
    },
    Pattern {
        text: "확인할 수 없",
        observed: "seed first edition; L3 \"확인할 수 없습니다\"",
    },
    Pattern {
        text: "존재하지 않",
        observed: "2026-08-30 second round q3: \"`#FF4500` 코드는 저장소 어디에도 존재하지 않습니다\"",
    },
    Pattern {
        text: "확인되지 않았",
        observed: "2026-08-31 _ccrun7 q4_ARM_r2: \"확인되지 않았어\" (casual past form)",
    },
    Pattern {
        text: "not (found|available)",
        observed: "seed first edition (English)",
    },
    Pattern {
        text: "unknown",
        observed: "seed first edition (English)",
    },
    Pattern {
        text: "cannot (tell|determine)",
        observed: "seed first edition (English)",
    },
    Pattern {
        text: "could(n.t| not) find",
        observed: "seed first edition (English)",
    },
    Pattern {
        text: "no (such|mention)",
        observed: "seed first edition (English)",
    },
    Pattern {
        text: "no actual (record|basis)",
        observed: "2026-08-30 second round, verbatim: \"I have no actual basis …\"; bound to its object (never bare `no actual`)",
    },
    Pattern {
        text: "(do|does)(n.t| not) have any actual (record|basis|information)",
        observed: "2026-08-30 second round, verbatim: \"I don't have any actual record …\"; bound after the cross-family counter-example \"I don't have any actual doubt …\"",
    },
    Pattern {
        text: "no match anywhere",
        observed: "2026-08-30 second round, verbatim: \"… no match anywhere\"; never shortened to `no match`",
    },
    Pattern {
        text: concat!(
            binding_head!(),
            "(없(습|다|는|었|어|고|네|죠|지|나|으|을|$|[ .,!?\\n])|나와 있지 않|등장하지 않|언급되(어 있)?지 ?않|확인되지 않|보이지 않|남아 있지 않)"
        ),
        observed: "bare negations bound to a noun (2026-09-02 A2: an unbound \"…확정할 수 없습니다\" after a right answer read as refusal). Forms observed in _ccrun7: q3_ARM_r1 \"지시가 없었습니다\", q3_ARM_r2 \"없었어\", q1_CTRL_r1 \"컨텍스트에 없는 것 같습니다\"; frozen-bar false negatives \"팀명은 등장하지 않습니다\". `없이` (without) is deliberately absent from the endings",
    },
    Pattern {
        text: "(기록|근거|정보|언급|기억|데이터|자료|맥락|파일|문서|값|내용|흔적|사례|증거|출처|히트|결과|메시지|지시|발화|세션|로그|항목|엔트리|레코드|정의|설정|경로|키|필드|버전|번호|날짜|시각)(이|가|은|는)? ?없음",
        observed: "noun-form 없음 only right after its binding noun (2026-09-03 round 5 P07: \"push/PR 없음 상태\" is a state, not a refusal; \"관련 기록 없음\" is one). The seed nested this inside the previous pattern's tail, so it also demanded a second noun earlier in the sentence and missed a bare \"기록 없음.\"; standing alone it says what the rule says",
    },
];

/// The clarify lexicon: "ask-back" answers. Counted (CLARIFY), never a class or a denominator.
pub const CLARIFY: &[Pattern] = &[
    Pattern {
        text: "알려주시",
        observed: "CTRL answers \"찾지 못했습니다 … 알려주시면\" (2026-08-31 _ccrun7)",
    },
    Pattern {
        text: "가리키는지",
        observed: "seed CLARIFY_RE (2026-08-31 operator decision: count ask-backs separately)",
    },
    Pattern {
        text: "어느 파일",
        observed: "seed CLARIFY_RE",
    },
    Pattern {
        text: "어떤 파일",
        observed: "seed CLARIFY_RE",
    },
    Pattern {
        text: "말씀해 주시",
        observed: "seed CLARIFY_RE",
    },
    Pattern {
        text: "which file",
        observed: "seed CLARIFY_RE (English)",
    },
    Pattern {
        text: "let me know",
        observed: "seed CLARIFY_RE (English)",
    },
    Pattern {
        text: "could you (specify|clarify|point)",
        observed: "seed CLARIFY_RE (English)",
    },
];

/// The conflict-flag lexicon: the answer says its sources disagree. Counts as abstaining on
/// conflict items only (DESIGN §5); on other kinds it is not a refusal.
pub const CONFLICT_FLAG: &[Pattern] = &[];

/// Where a refusal pattern matched: which pattern and the text it matched, for evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusalMatch {
    /// Index of the matching pattern in the lexicon's refusal list.
    pub pattern: usize,
    /// The matched text, as it stood in the (quote-stripped) answer.
    pub text: String,
    /// Byte offsets of the match in the text searched.
    pub start: usize,
    /// End byte offset (exclusive).
    pub end: usize,
}

/// A compiled pair of lexicons. A value, not a global, so tests can build a deliberately broken
/// one and watch the self-test lanes go red.
#[derive(Debug, Clone)]
pub struct Lexicon {
    refusal: Vec<String>,
    clarify: Vec<String>,
    conflict_flag: Vec<String>,
    refusal_re: Regex,
    clarify_re: Regex,
    conflict_re: Regex,
    fingerprint: String,
}

/// Size limits generous enough that the lazy DFA never gives up on a 10 MB answer: the
/// binding-noun patterns with Unicode classes and counted repeats are large automata.
const DFA_SIZE_LIMIT: usize = 64 << 20;
const NFA_SIZE_LIMIT: usize = 64 << 20;

fn compile(list: &'static str, patterns: &[String], named: bool) -> Result<Regex, Error> {
    // Compile each alone first, so a broken pattern is reported by its index and text.
    for (index, p) in patterns.iter().enumerate() {
        RegexBuilder::new(&format!("{FLAGS}(?:{p})"))
            .size_limit(NFA_SIZE_LIMIT)
            .build()
            .map_err(|e| Error::Pattern {
                list,
                index,
                pattern: p.clone(),
                message: e.to_string(),
            })?;
    }
    let body = if patterns.is_empty() {
        // An empty lexicon matches nothing (not everything, which `(?:)` would).
        "[^\\s\\S]".to_string()
    } else {
        patterns
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if named {
                    format!("(?P<p{i}>{p})")
                } else {
                    format!("(?:{p})")
                }
            })
            .collect::<Vec<_>>()
            .join("|")
    };
    RegexBuilder::new(&format!("{FLAGS}(?:{body})"))
        .size_limit(NFA_SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
        .map_err(|e| Error::Pattern {
            list,
            index: usize::MAX,
            pattern: "<combined>".to_string(),
            message: e.to_string(),
        })
}

fn fingerprint_of(refusal: &[String], clarify: &[String], conflict_flag: &[String]) -> String {
    // Length-prefixed so no two pattern lists share a digest input.
    let mut h = Sha256::new();
    h.update(format!("flags {}:{FLAGS}\n", FLAGS.len()));
    for (name, list) in [
        ("refusal", refusal),
        ("clarify", clarify),
        ("conflict-flag", conflict_flag),
    ] {
        h.update(format!("{name} {}\n", list.len()));
        for p in list {
            h.update(format!("{}:", p.len()));
            h.update(p.as_bytes());
            h.update(b"\n");
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl Lexicon {
    /// The shipped lexicon every round and manifest refers to.
    pub fn standard() -> &'static Lexicon {
        static STANDARD: OnceLock<Lexicon> = OnceLock::new();
        STANDARD.get_or_init(|| {
            let texts = |list: &[Pattern]| list.iter().map(|p| p.text).collect::<Vec<_>>();
            // The built-in patterns are constants; `standard_lexicon_compiles` tests this.
            Lexicon::from_patterns(&texts(REFUSAL), &texts(CLARIFY), &texts(CONFLICT_FLAG))
                .expect("standard lexicon compiles")
        })
    }

    /// Build a lexicon from pattern texts (compiled with the standard flags). Tests use it to
    /// build broken variants; an invalid pattern is an error naming its list and index.
    pub fn from_patterns(
        refusal: &[&str],
        clarify: &[&str],
        conflict_flag: &[&str],
    ) -> Result<Lexicon, Error> {
        let owned = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Lexicon::from_owned(owned(refusal), owned(clarify), owned(conflict_flag))
    }

    fn from_owned(
        refusal: Vec<String>,
        clarify: Vec<String>,
        conflict_flag: Vec<String>,
    ) -> Result<Lexicon, Error> {
        Ok(Lexicon {
            refusal_re: compile("refusal", &refusal, true)?,
            clarify_re: compile("clarify", &clarify, false)?,
            conflict_re: compile("conflict-flag", &conflict_flag, true)?,
            fingerprint: fingerprint_of(&refusal, &clarify, &conflict_flag),
            refusal,
            clarify,
            conflict_flag,
        })
    }

    /// This lexicon with a user's extra patterns appended to each list. The fingerprint
    /// covers every pattern and `source_sha256` (the extension file's digest), so a round
    /// scored with an extension never shares a fingerprint with one scored without it.
    pub fn extended(
        &self,
        refusal: &[String],
        clarify: &[String],
        conflict_flag: &[String],
        source_sha256: &str,
    ) -> Result<Lexicon, Error> {
        let join = |a: &[String], b: &[String]| a.iter().chain(b).cloned().collect::<Vec<_>>();
        let mut lx = Lexicon::from_owned(
            join(&self.refusal, refusal),
            join(&self.clarify, clarify),
            join(&self.conflict_flag, conflict_flag),
        )?;
        let mut h = Sha256::new();
        h.update(lx.fingerprint.as_bytes());
        h.update(b"\nextension sha256:");
        h.update(source_sha256.as_bytes());
        lx.fingerprint = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        Ok(lx)
    }

    /// sha256 hex over the flags and the pattern texts in order (refusal, then clarify).
    pub fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    /// The refusal pattern texts, in order.
    pub fn refusal_patterns(&self) -> &[String] {
        &self.refusal
    }

    /// The clarify pattern texts, in order.
    pub fn clarify_patterns(&self) -> &[String] {
        &self.clarify
    }

    /// The conflict-flag pattern texts, in order.
    pub fn conflict_flag_patterns(&self) -> &[String] {
        &self.conflict_flag
    }

    /// The leftmost conflict-flag match ("the sources disagree") in `text`, or `None`. The
    /// classifier consults it on conflict items only. `pattern` indexes the conflict-flag list.
    pub fn conflict_flag_match(&self, text: &str) -> Option<RefusalMatch> {
        leftmost(&self.conflict_re, self.conflict_flag.len(), text)
    }

    /// True when any refusal pattern matches `text`. The classifier passes the answer with
    /// quoted spans removed; this function does no stripping itself.
    pub fn is_refusal(&self, text: &str) -> bool {
        self.refusal_re.is_match(text)
    }

    /// The leftmost refusal match in `text` and which pattern made it, or `None`.
    pub fn refusal_match(&self, text: &str) -> Option<RefusalMatch> {
        leftmost(&self.refusal_re, self.refusal.len(), text)
    }

    /// True when the answer asks back ("which file?", "알려주시면"). Runs on the raw answer, as
    /// the seed did: a counter, never a class.
    pub fn is_clarify(&self, answer: &str) -> bool {
        self.clarify_re.is_match(answer)
    }
}

/// The leftmost match of a combined, group-named pattern list and which pattern made it.
fn leftmost(re: &Regex, count: usize, text: &str) -> Option<RefusalMatch> {
    let m = re.find(text)?;
    // Searching again from the match start keeps the surrounding context (`$`) and finds
    // the same leftmost-first match at once; only then are the named groups resolved.
    let caps = re.captures_at(text, m.start())?;
    let pattern = (0..count)
        .find(|i| caps.name(&format!("p{i}")).is_some())
        .unwrap_or(0);
    Some(RefusalMatch {
        pattern,
        text: m.as_str().to_string(),
        start: m.start(),
        end: m.end(),
    })
}

/// The standard lexicon's fingerprint, for manifests and rounds.
pub fn fingerprint() -> String {
    Lexicon::standard().fingerprint()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn std_refuses(s: &str) -> bool {
        Lexicon::standard().is_refusal(s)
    }

    #[test]
    fn standard_lexicon_compiles() {
        let lx = Lexicon::standard();
        assert_eq!(lx.refusal_patterns().len(), REFUSAL.len());
        assert_eq!(lx.clarify_patterns().len(), CLARIFY.len());
    }

    #[test]
    fn fingerprint_is_stable_hex_and_moves_with_any_pattern() {
        let fp = fingerprint();
        assert_eq!(fp.len(), 64);
        assert!(fp.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(fp, Lexicon::standard().fingerprint());
        let mut refusal: Vec<&str> = REFUSAL.iter().map(|p| p.text).collect();
        let clarify: Vec<&str> = CLARIFY.iter().map(|p| p.text).collect();
        let conflict: Vec<&str> = CONFLICT_FLAG.iter().map(|p| p.text).collect();
        let same = Lexicon::from_patterns(&refusal, &clarify, &conflict).unwrap();
        assert_eq!(same.fingerprint(), fp);
        refusal[15] = "no match";
        let wider = Lexicon::from_patterns(&refusal, &clarify, &conflict).unwrap();
        assert_ne!(wider.fingerprint(), fp);
        // Moving a pattern between lists changes the digest too.
        let moved =
            Lexicon::from_patterns(&refusal[..17], &[refusal[17], clarify[0]], &conflict).unwrap();
        assert_ne!(moved.fingerprint(), wider.fingerprint());
    }

    #[test]
    fn invalid_pattern_is_an_error_naming_list_and_index() {
        let err = Lexicon::from_patterns(&["ok", "(unclosed"], &[], &[]).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("refusal pattern #1"), "{msg}");
        assert!(msg.contains("(unclosed"), "{msg}");
    }

    #[test]
    fn empty_lexicon_matches_nothing() {
        let lx = Lexicon::from_patterns(&[], &[], &[]).unwrap();
        assert!(!lx.is_refusal("모릅니다"));
        assert!(!lx.is_refusal(""));
        assert!(!lx.is_clarify("let me know"));
    }

    #[test]
    fn case_insensitive_like_grep_i() {
        assert!(std_refuses("Status: UNKNOWN"));
        assert!(std_refuses("I Don't Have Any Actual Record of it."));
    }

    #[test]
    fn typographic_apostrophe_counts_as_one_character() {
        // Under LC_ALL=C the seed's `.` saw one byte of a three-byte ’ and missed this.
        assert!(std_refuses("I couldn’t find it."));
        assert!(std_refuses("It doesn’t have any actual information."));
    }

    #[test]
    fn english_stays_narrow() {
        assert!(std_refuses("there is no match anywhere"));
        assert!(!std_refuses("there is no match rule here"));
        assert!(!std_refuses("there is no actual limit"));
        assert!(!std_refuses("I don't have any actual doubt"));
    }

    #[test]
    fn bare_negation_needs_its_binding_noun() {
        assert!(std_refuses("지시가 없었습니다."));
        assert!(!std_refuses("반대 의견은 없었습니다."));
        assert!(!std_refuses("확정할 수 없습니다."));
    }

    #[test]
    fn past_and_casual_forms_count() {
        assert!(std_refuses("그 기록은 없었어"));
        assert!(std_refuses("기록이 없었습니다"));
        assert!(std_refuses("확인되지 않았어."));
        assert!(std_refuses("기록이 없어"));
    }

    #[test]
    fn without_is_not_a_refusal() {
        assert!(!std_refuses("테스트 레인 없이 커밋되는 걸 막는 게이트다."));
        assert!(!std_refuses("기록 없이 진행했다"));
    }

    #[test]
    fn noun_form_eum_only_right_after_its_binding_noun() {
        assert!(std_refuses("관련 기록 없음."));
        assert!(std_refuses("기록 없음"));
        assert!(std_refuses("근거가 없음."));
        assert!(std_refuses("발화를 봤지만 기록이 없음"));
        assert!(!std_refuses("로컬 커밋으로 push/PR 없음 상태"));
        // A binding noun earlier in the sentence does not bind a later, unrelated 없음.
        assert!(!std_refuses("발화 62번의 커밋은 push 없음 상태"));
    }

    #[test]
    fn negation_at_end_of_line_counts_with_lf_and_crlf() {
        assert!(std_refuses("그 기록은 없\n다음 줄"));
        assert!(std_refuses("그 기록은 없\r\n다음 줄"));
        assert!(std_refuses("그 기록은 없"));
    }

    #[test]
    fn no_match_across_a_line_break() {
        // grep matched per line; a binding noun on one line never binds a negation on the next.
        assert!(!std_refuses("기록\n없습니다"));
    }

    #[test]
    fn reach_counts_characters_not_bytes() {
        // 60 Hangul syllables between the noun and the negation: 180 bytes, 60 characters.
        let filler = "가".repeat(60);
        assert!(std_refuses(&format!("기록{filler}없습니다")));
        let too_far = "가".repeat(80);
        assert!(!std_refuses(&format!("기록{too_far}없습니다")));
    }

    #[test]
    fn refusal_match_names_the_pattern() {
        let m = Lexicon::standard()
            .refusal_match("그런데 어디에서도 찾지 못했습니다")
            .unwrap();
        assert_eq!(REFUSAL[m.pattern].text, "찾지 못");
        assert_eq!(m.text, "찾지 못");
        let m = Lexicon::standard()
            .refusal_match("이 대화에는 팀명이 등장하지 않았습니다.")
            .unwrap();
        assert!(REFUSAL[m.pattern].text.starts_with("(기록|"));
        assert!(m.text.ends_with("등장하지 않"), "{}", m.text);
        assert!(Lexicon::standard()
            .refusal_match("값은 42 입니다.")
            .is_none());
    }

    #[test]
    fn clarify_counts_ask_backs() {
        let lx = Lexicon::standard();
        assert!(lx.is_clarify("찾지 못했습니다. 어느 파일인지 알려주시면 보겠습니다."));
        assert!(lx.is_clarify("Could you clarify which module?"));
        assert!(lx.is_clarify("Let me know."));
        assert!(!lx.is_clarify("The value is 42."));
    }

    #[test]
    fn every_pattern_is_documented() {
        for p in REFUSAL.iter().chain(CLARIFY) {
            assert!(!p.observed.trim().is_empty(), "{}", p.text);
        }
    }
}
