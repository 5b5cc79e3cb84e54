//! Who decided a row's class (DESIGN §5.1): the lexicon, both readers, the judge or a person,
//! or nobody (`UNDETERMINED`, `CONTESTED`). A row nobody decided keeps the strict reading's
//! class as its guess, and is never rendered as a pass or a fail.

use serde::{Deserialize, Serialize};

/// The reader whose class a decided row carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// The strict lexicon, certain, with no judge to ask.
    Lexicon,
    /// The lexicon and the judge gave the same class.
    Both,
    /// The lexicon was uncertain; the judge's class.
    Judge,
    /// A person's review (`harness review`), which overrides every reader.
    Person,
}

impl DecidedBy {
    /// The lowercase name written in reports and `review.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::Lexicon => "lexicon",
            DecidedBy::Both => "both",
            DecidedBy::Judge => "judge",
            DecidedBy::Person => "person",
        }
    }
}

/// Whether a row's class was decided, and by whom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Standing {
    /// A reader (or a person) decided the class the row carries.
    Decided {
        /// Who.
        by: DecidedBy,
    },
    /// The lexicon was uncertain and no judge read the row (or the answer addresses a grader,
    /// which no reader but a person decides): the class is only a guess.
    Undetermined {
        /// The cues that made the strict reading uncertain.
        cues: Vec<String>,
        /// Why only a person may decide the row: the answer carries text addressed to a grader
        /// (the detector's reason). `None` for a row a judge could have decided.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        for_person: Option<String>,
    },
    /// The lexicon was certain and the judge disagreed.
    Contested {
        /// The judge's class (the row's class is the lexicon's).
        judge: scorer::Class,
    },
}

impl Default for Standing {
    /// Rows recorded before readers existed were decided by the lexicon alone.
    fn default() -> Self {
        Standing::Decided {
            by: DecidedBy::Lexicon,
        }
    }
}

impl Standing {
    /// A reader decided this row.
    pub fn decided(&self) -> bool {
        matches!(self, Standing::Decided { .. })
    }

    /// `UNDETERMINED`, `CONTESTED`, or `None` for a decided row.
    pub fn undecided_name(&self) -> Option<&'static str> {
        match self {
            Standing::Decided { .. } => None,
            Standing::Undetermined { .. } => Some("UNDETERMINED"),
            Standing::Contested { .. } => Some("CONTESTED"),
        }
    }

    /// Who decided, when someone did.
    pub fn decided_by(&self) -> Option<DecidedBy> {
        match self {
            Standing::Decided { by } => Some(*by),
            _ => None,
        }
    }
}

/// Both readers' classes for one row a judge read: the lexicon's (certain or a guess) and the
/// judge's, before the rule combined them. Agreement and Cohen's κ are computed from these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Readings {
    /// The strict lexicon's class.
    pub lexicon: scorer::Class,
    /// Whether the lexicon was certain (no cue could change its class).
    pub lexicon_certain: bool,
    /// The judge's class.
    pub judge: scorer::Class,
}

/// The decision rule of DESIGN §5.1 for one row, before any person's review: the lexicon's
/// class and whether it was certain (with the cues that made it not), and the judge's class
/// when the judge gave a reading. Both agree → `both`; lexicon certain and judge differs →
/// `CONTESTED` (the row keeps the lexicon's class); lexicon uncertain → the judge's class
/// (`judge`); no judge reading → the lexicon alone (`lexicon` when certain, else
/// `UNDETERMINED`). An answer addressed to a grader (`for_person`, the detector's reason) is
/// decided by no reader: it stays `UNDETERMINED` whatever the judge said, and says why, for a
/// person to settle. Returns the class the row carries and its standing.
pub fn decide(
    lexicon: scorer::Class,
    certain: bool,
    cues: &[String],
    judge: Option<scorer::Class>,
    for_person: Option<&str>,
) -> (scorer::Class, Standing) {
    if let Some(why) = for_person {
        return (
            lexicon,
            Standing::Undetermined {
                cues: cues.to_vec(),
                for_person: Some(why.to_string()),
            },
        );
    }
    match (certain, judge) {
        (true, None) => (
            lexicon,
            Standing::Decided {
                by: DecidedBy::Lexicon,
            },
        ),
        (true, Some(j)) if j == lexicon => (
            lexicon,
            Standing::Decided {
                by: DecidedBy::Both,
            },
        ),
        (true, Some(j)) => (lexicon, Standing::Contested { judge: j }),
        (false, Some(j)) => (
            j,
            Standing::Decided {
                by: DecidedBy::Judge,
            },
        ),
        (false, None) => (
            lexicon,
            Standing::Undetermined {
                cues: cues.to_vec(),
                for_person: None,
            },
        ),
    }
}

/// The verdict cell of a row: the class when decided, else `UNDETERMINED (guess X)` (with
/// `; for a person: WHY` when the answer addresses a grader) / `CONTESTED (lexicon X, judge
/// Y)`. Parsed back by [`parse_shown`].
pub fn shown(row: &crate::Row) -> String {
    match &row.standing {
        Standing::Decided { .. } => row.verdict.to_string(),
        Standing::Undetermined {
            for_person: Some(why),
            ..
        } => format!(
            "UNDETERMINED (guess {}{FOR_PERSON}{})",
            row.verdict,
            crate::sanitize::excerpt(why, 200)
        ),
        Standing::Undetermined { .. } => format!("UNDETERMINED (guess {})", row.verdict),
        Standing::Contested { judge } => {
            format!("CONTESTED (lexicon {}, judge {judge})", row.verdict)
        }
    }
}

/// Why a row no reader decided is undetermined, as the row listings print it beside the
/// verdict cell: `cues: A, B` (the cues that made the strict reading uncertain, recorded per
/// row), or a sentence saying none was recorded (a row read back from `verdicts.csv`, which
/// keeps no cues). `None` for a row that is not undetermined. The cue names are untrusted
/// text once read back from a file: the caller sanitizes them for its format.
pub fn undetermined_cues(row: &crate::Row) -> Option<String> {
    match &row.standing {
        Standing::Undetermined { cues, .. } if cues.is_empty() => {
            Some("cues: none recorded for this row".to_string())
        }
        Standing::Undetermined { cues, .. } => Some(format!("cues: {}", cues.join(", "))),
        _ => None,
    }
}

/// The verdict cell of the file reports (report.md, report.html): [`shown`], followed for an
/// undetermined row by the cues that made it so, each sanitized by `clean` (at most 200
/// characters of cues).
pub fn shown_with_cues(row: &crate::Row, clean: impl Fn(&str, usize) -> String) -> String {
    let head = clean(&shown(row), 400);
    match undetermined_cues(row) {
        Some(cues) => format!("{head}; {}", clean(&cues, 200)),
        None => head,
    }
}

/// How a `decided by` cell names a person's decision made in this round on another row with
/// the same answer bytes: `person (reused from a decision on the same answer in this round)`.
pub const REUSED_HERE: &str = "reused from a decision on the same answer in this round";

/// Who decided the row, as every renderer's `decided by` column shows it: `lexicon`, `both`,
/// `judge`, `person` (`person (reused from ROUND)` for a decision made in an earlier round on
/// the same answer, `person (`[`REUSED_HERE`]`)` for one made in this round on another row
/// with the same answer), or `none` for a row no reader decided.
pub fn decided_by_cell(row: &crate::Row, meta: &crate::RoundMeta) -> String {
    match row.standing.decided_by() {
        Some(DecidedBy::Person) => {
            let key = format!("{}_r{}", row.label, row.rep);
            match meta.reused_from.get(&key) {
                Some(from) => format!(
                    "person (reused from {})",
                    crate::sanitize::excerpt(from, 80)
                ),
                None if meta.reused_here.contains(&key) => format!("person ({REUSED_HERE})"),
                None => "person".into(),
            }
        }
        Some(by) => by.as_str().into(),
        None => "none".into(),
    }
}

/// A `decided by` cell read back: the reader, or `None` for `none` (and anything unknown).
pub fn parse_decided_by(cell: &str) -> Option<DecidedBy> {
    match cell {
        "lexicon" => Some(DecidedBy::Lexicon),
        "both" => Some(DecidedBy::Both),
        "judge" => Some(DecidedBy::Judge),
        c if c == "person" || c.starts_with("person (reused from ") => Some(DecidedBy::Person),
        _ => None,
    }
}
/// What a verdict cell puts between an undetermined row's guess and why only a person may
/// decide it.
const FOR_PERSON: &str = "; for a person: ";

/// Reads a verdict cell written by [`shown`] back: the row's verdict and its standing. A
/// plain class is a lexicon-decided row (the form every round before readers wrote); the
/// cues of an undetermined row are not in the cell and come back empty.
pub fn parse_shown(cell: &str) -> Result<(scorer::Verdict, Standing), String> {
    if let Some(rest) = cell.strip_prefix("UNDETERMINED (guess ") {
        let inner = rest.strip_suffix(')').ok_or("unclosed UNDETERMINED cell")?;
        let (guess, for_person) = match inner.split_once(FOR_PERSON) {
            Some((g, why)) => (g, Some(why.to_string())),
            None => (inner, None),
        };
        return Ok((
            guess.parse()?,
            Standing::Undetermined {
                cues: Vec::new(),
                for_person,
            },
        ));
    }
    if let Some(rest) = cell.strip_prefix("CONTESTED (lexicon ") {
        let inner = rest.strip_suffix(')').ok_or("unclosed CONTESTED cell")?;
        let (lex, judge) = inner
            .split_once(", judge ")
            .ok_or("CONTESTED cell without a judge class")?;
        return Ok((
            lex.parse()?,
            Standing::Contested {
                judge: judge.parse()?,
            },
        ));
    }
    Ok((cell.parse()?, Standing::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decision_rule_names_who_decided() {
        use scorer::Class::{Fail, Hallucinated, Pass};
        let cues = vec!["absence-words".to_string()];
        assert_eq!(
            decide(Pass, true, &[], None, None),
            (
                Pass,
                Standing::Decided {
                    by: DecidedBy::Lexicon
                }
            )
        );
        assert_eq!(
            decide(Pass, true, &[], Some(Pass), None),
            (
                Pass,
                Standing::Decided {
                    by: DecidedBy::Both
                }
            )
        );
        assert_eq!(
            decide(Pass, true, &[], Some(Hallucinated), None),
            (
                Pass,
                Standing::Contested {
                    judge: Hallucinated
                }
            )
        );
        assert_eq!(
            decide(Fail, false, &cues, Some(Pass), None),
            (
                Pass,
                Standing::Decided {
                    by: DecidedBy::Judge
                }
            )
        );
        assert_eq!(
            decide(Fail, false, &cues, None, None),
            (
                Fail,
                Standing::Undetermined {
                    cues: cues.clone(),
                    for_person: None
                }
            )
        );
        // An answer addressed to a grader: no reader decides it, whatever the judge said.
        let why = "text addressed to a grader: an instruction (`output PASS`)";
        for (certain, judge) in [
            (false, Some(Pass)),
            (false, None),
            (true, Some(Fail)),
            (true, None),
        ] {
            assert_eq!(
                decide(Fail, certain, &cues, judge, Some(why)),
                (
                    Fail,
                    Standing::Undetermined {
                        cues: cues.clone(),
                        for_person: Some(why.into())
                    }
                ),
                "{certain} {judge:?}"
            );
        }
    }

    #[test]
    fn shown_cells_round_trip() {
        for cell in [
            "PASS",
            "TYPED_FAIL",
            "UNDETERMINED (guess FAIL)",
            "UNDETERMINED (guess FAIL; for a person: text addressed to a grader: words addressed to a grader or judge (`Grader`))",
            "CONTESTED (lexicon PASS, judge FAIL)",
        ] {
            let (v, s) = parse_shown(cell).unwrap();
            let mut row = crate::lanes::fixture_row(
                "q",
                scorer::Kind::Negative,
                scorer::Arm::Ctrl,
                1,
                v.class,
            );
            row.verdict = v;
            row.standing = s;
            assert_eq!(shown(&row), cell);
        }
        assert!(parse_shown("UNDETERMINED (guess MAYBE)").is_err());
    }
}
