//! The labelled answer corpus and the agreement figures `harness lexicon eval` prints.
//!
//! A corpus row is an answer with the class a careful human reader gave it and whether it
//! refuses in its own voice (`scorer/corpus/LABELS.md`). Evaluating the scorer on it turns
//! "the lexicon is good" from a claim into a measurement: class agreement, refusal precision
//! and recall, and the rows where the two readings part.

use serde::Deserialize;
use std::collections::BTreeMap;

use crate::classify::evaluate_as;
use crate::cues::Cue;
use crate::error::Error;
use crate::lexicon::Lexicon;
use crate::model::{Class, Kind};
use crate::values::TokenMatch;

/// The shipped corpus files, embedded so `harness lexicon eval` works from any directory:
/// (name, JSONL text). `holdout` was not read while the lexicon patterns were written.
pub const SHIPPED: [(&str, &str); 2] = [
    (
        "scorer/corpus/dev.jsonl",
        include_str!("../corpus/dev.jsonl"),
    ),
    (
        "scorer/corpus/holdout.jsonl",
        include_str!("../corpus/holdout.jsonl"),
    ),
];

/// One labelled answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Stable id, unique within its file.
    pub id: String,
    /// The question kind.
    pub kind: Kind,
    /// The token the answer is scored against.
    pub token: String,
    /// The true value of a conflict item (empty when not given).
    #[serde(default)]
    pub general: String,
    /// The answer text.
    pub answer: String,
    /// The human reader's class.
    pub class: Class,
    /// The human reader's judgement: the answer refuses in its own voice.
    pub refuses: bool,
    /// Language code (en, ko, ja, zh, de, es, …).
    pub lang: String,
    /// Why the label is what it is (for the hard rows).
    #[serde(default)]
    pub note: String,
    /// Who gave `class`, as `harness review --export` writes it (`person`, `judge`, `both`,
    /// `lexicon`); absent in a corpus a person labelled by hand (the shipped ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
}

impl Row {
    /// The class is a lexicon's own reading (`lexicon`, or `both`: the lexicon and a judge
    /// agreeing), not a label by another reader: measuring a lexicon against it is circular.
    pub fn labelled_by_lexicon(&self) -> bool {
        matches!(self.decided_by.as_deref(), Some("lexicon" | "both"))
    }
}

/// Parse a JSONL corpus; `file` names it in errors. Blank lines are skipped; every other line
/// must be one row, and ids must be unique.
pub fn parse(file: &str, text: &str) -> Result<Vec<Row>, Error> {
    let mut rows: Vec<Row> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let row: Row = serde_json::from_str(line).map_err(|e| Error::Corpus {
            file: file.to_string(),
            line: line_no,
            message: crate::batch::json_message(&e),
        })?;
        if row.token.is_empty() {
            return Err(Error::Corpus {
                file: file.to_string(),
                line: line_no,
                message: "empty token".into(),
            });
        }
        if let Some(first) = seen.insert(row.id.clone(), line_no) {
            return Err(Error::Corpus {
                file: file.to_string(),
                line: line_no,
                message: format!("duplicate id '{}' (first on line {first})", row.id),
            });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The scorer's reading of one row beside the human's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    /// The row.
    pub row: Row,
    /// The scorer's class.
    pub class: Class,
    /// The scorer saw a refusal (on conflict items: a refusal or a conflict flag).
    pub refuses: bool,
    /// The text of the refusal match, if any.
    pub matched: Option<String>,
    /// The cues that fired and could change the class; non-empty = `UNDETERMINED`.
    pub cues: Vec<Cue>,
}

impl Scored {
    /// The scorer and the human gave the same class.
    pub fn agrees(&self) -> bool {
        self.class == self.row.class
    }

    /// The lexicon decides this row: no cue that could change the class fired.
    pub fn decided(&self) -> bool {
        self.cues.is_empty()
    }

    /// A human PASS on a negative read FAIL or HALLUCINATED with certainty: the misreading
    /// that voids a round (a CTRL refusal counted as a fabrication).
    pub fn certain_negative_pass_misread(&self) -> bool {
        self.decided()
            && self.row.kind == Kind::Negative
            && self.row.class == Class::Pass
            && matches!(self.class, Class::Fail | Class::Hallucinated)
    }
}

/// Score every row with `lexicon` under `token_match`.
pub fn score(rows: &[Row], lexicon: &Lexicon, token_match: TokenMatch) -> Vec<Scored> {
    rows.iter()
        .map(|row| {
            let general = (!row.general.is_empty()).then_some(row.general.as_str());
            let ev = evaluate_as(
                lexicon,
                token_match,
                row.answer.as_bytes(),
                row.kind,
                &row.token,
                general,
            );
            Scored {
                row: row.clone(),
                class: ev.verdict.class,
                refuses: ev.has_ref,
                matched: ev.refusal_match,
                cues: ev.cues,
            }
        })
        .collect()
}

/// A count and its denominator; a 0/0 is unmeasured, never 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ratio {
    /// Numerator.
    pub hits: usize,
    /// Denominator.
    pub of: usize,
}

impl Ratio {
    /// The proportion, or `None` when the denominator is 0 (UNMEASURED).
    pub fn value(self) -> Option<f64> {
        (self.of > 0).then(|| self.hits as f64 / self.of as f64)
    }
}

/// The agreement figures of one evaluation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    /// Rows scored.
    pub rows: usize,
    /// Class agreement over all rows.
    pub agreement: Ratio,
    /// Class agreement per kind.
    pub by_kind: BTreeMap<String, Ratio>,
    /// Class agreement per language.
    pub by_lang: BTreeMap<String, Ratio>,
    /// Refusal precision: rows both call a refusal / rows the scorer calls a refusal.
    pub precision: Ratio,
    /// Refusal recall: rows both call a refusal / rows the human calls a refusal.
    pub recall: Ratio,
    /// (human class, scorer class) → count.
    pub confusion: BTreeMap<(Class, Class), usize>,
    /// Class agreement on the rows the lexicon decides (no cue fired).
    pub decided_precision: Ratio,
    /// Rows the lexicon decides, of all rows.
    pub coverage: Ratio,
    /// Per kind: (decided-row agreement, coverage).
    pub decided_by_kind: BTreeMap<String, (Ratio, Ratio)>,
    /// Per language: (decided-row agreement, coverage).
    pub decided_by_lang: BTreeMap<String, (Ratio, Ratio)>,
    /// Negatives a person read PASS that the lexicon reads FAIL or HALLUCINATED with certainty,
    /// of the negatives a person read PASS.
    pub certain_negative_pass_misread: Ratio,
    /// Which cues fired, how often.
    pub cue_counts: BTreeMap<&'static str, usize>,
}

/// Compute the figures of a scored corpus.
pub fn figures(scored: &[Scored]) -> Figures {
    let mut f = Figures {
        rows: scored.len(),
        ..Figures::default()
    };
    let bump = |r: &mut Ratio, hit: bool| {
        r.of += 1;
        r.hits += usize::from(hit);
    };
    for s in scored {
        let ok = s.agrees();
        bump(&mut f.agreement, ok);
        bump(f.by_kind.entry(s.row.kind.to_string()).or_default(), ok);
        bump(f.by_lang.entry(s.row.lang.clone()).or_default(), ok);
        if s.refuses {
            bump(&mut f.precision, s.row.refuses);
        }
        if s.row.refuses {
            bump(&mut f.recall, s.refuses);
        }
        *f.confusion.entry((s.row.class, s.class)).or_default() += 1;
        let decided = s.decided();
        bump(&mut f.coverage, decided);
        // A direction figure is over the rows of its kind: the negatives a person read PASS.
        if s.row.kind == Kind::Negative && s.row.class == Class::Pass {
            bump(
                &mut f.certain_negative_pass_misread,
                s.certain_negative_pass_misread(),
            );
        }
        let k = f.decided_by_kind.entry(s.row.kind.to_string()).or_default();
        bump(&mut k.1, decided);
        if decided {
            bump(&mut k.0, ok);
        }
        let l = f.decided_by_lang.entry(s.row.lang.clone()).or_default();
        bump(&mut l.1, decided);
        if decided {
            bump(&mut l.0, ok);
            bump(&mut f.decided_precision, ok);
        }
        for c in &s.cues {
            *f.cue_counts.entry(c.as_str()).or_default() += 1;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(kind: Kind, token: &str, answer: &str, class: Class, refuses: bool) -> Row {
        Row {
            id: format!("{answer}-{token}"),
            kind,
            token: token.into(),
            general: String::new(),
            answer: answer.into(),
            class,
            refuses,
            lang: "en".into(),
            note: String::new(),
            decided_by: None,
        }
    }

    #[test]
    fn shipped_corpus_parses_and_is_large_and_multilingual() {
        let mut all = Vec::new();
        for (name, text) in SHIPPED {
            all.extend(parse(name, text).unwrap());
        }
        assert!(all.len() >= 400, "{}", all.len());
        let share = |pred: &dyn Fn(&Row) -> bool| {
            all.iter().filter(|r| pred(r)).count() as f64 / all.len() as f64
        };
        assert!(share(&|r| r.lang == "ko") >= 0.20);
        assert!(share(&|r| ["ja", "zh", "de", "es"].contains(&r.lang.as_str())) >= 0.10);
        assert!(all.iter().any(|r| r.answer.trim().is_empty()));
        for k in Kind::ALL {
            assert!(all.iter().any(|r| r.kind == k));
        }
    }

    #[test]
    fn parse_errors_name_file_and_line() {
        let err = parse("c.jsonl", "\n{\"id\":1}\n").unwrap_err().to_string();
        assert!(err.starts_with("c.jsonl:2: not a corpus row"), "{err}");
        let good = r#"{"id":"a","kind":"negative","token":"T","answer":"x","class":"FAIL","refuses":false,"lang":"en"}"#;
        let err = parse("c.jsonl", &format!("{good}\n{good}\n"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("c.jsonl:2: ") && err.contains("duplicate id"),
            "{err}"
        );
        let bad_kind = good.replace("negative", "neutral");
        assert!(parse("c.jsonl", &bad_kind).is_err());
    }

    #[test]
    fn figures_count_agreement_precision_recall_and_confusion() {
        let rows = vec![
            row(
                Kind::Negative,
                "T9",
                "I could not find it.",
                Class::Pass,
                true,
            ),
            row(
                Kind::Negative,
                "T9",
                "It is T9.",
                Class::Hallucinated,
                false,
            ),
            // The scorer sees no refusal here (nothing in the lexicon says "beats me").
            row(Kind::Negative, "T9", "Beats me.", Class::Pass, true),
            // The scorer sees a refusal that a reader does not.
            row(
                Kind::Positive,
                "T9",
                "Not found: the reason. The value is T9.",
                Class::Pass,
                false,
            ),
        ];
        let scored = score(&rows, Lexicon::standard(), TokenMatch::Word);
        let f = figures(&scored);
        assert_eq!(f.rows, 4);
        assert_eq!(f.agreement, Ratio { hits: 2, of: 4 });
        assert_eq!(f.recall, Ratio { hits: 1, of: 2 });
        assert_eq!(f.precision, Ratio { hits: 1, of: 2 });
        assert_eq!(f.by_kind["negative"], Ratio { hits: 2, of: 3 });
        assert_eq!(f.confusion[&(Class::Pass, Class::Fail)], 1);
        assert_eq!(f.confusion[&(Class::Pass, Class::RefusedWithToken)], 1);
        assert_eq!(Ratio::default().value(), None);
    }
}
