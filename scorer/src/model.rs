//! The domain vocabulary every crate shares: question kinds, arms and answer classes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What a question tests, which decides how its answer is classified (DESIGN §3, §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The carrier holds the answer; the token must appear in a correct answer.
    Positive,
    /// No carrier holds the answer; the right answer is "I don't know".
    Negative,
    /// The carrier holds a deliberately wrong value (the token); `general` is the true one.
    Conflict,
}

impl Kind {
    /// All kinds, in report order.
    pub const ALL: [Kind; 3] = [Kind::Positive, Kind::Negative, Kind::Conflict];

    /// The lowercase name used in qsets, CSV and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Positive => "positive",
            Kind::Negative => "negative",
            Kind::Conflict => "conflict",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "positive" => Ok(Kind::Positive),
            "negative" => Ok(Kind::Negative),
            "conflict" => Ok(Kind::Conflict),
            other => Err(format!(
                "unknown kind '{other}' (expected positive, negative or conflict)"
            )),
        }
    }
}

/// One side of the paired design: exactly one variable differs between them, the planted seal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Arm {
    /// Checkout with the seal planted.
    #[serde(rename = "ARM")]
    Arm,
    /// Checkout only: what the repository alone lets an agent answer.
    #[serde(rename = "CTRL")]
    Ctrl,
}

impl Arm {
    /// Both arms, ARM first.
    pub const BOTH: [Arm; 2] = [Arm::Arm, Arm::Ctrl];

    /// `ARM` or `CTRL`, as written in rows and legacy file names.
    pub fn as_str(self) -> &'static str {
        match self {
            Arm::Arm => "ARM",
            Arm::Ctrl => "CTRL",
        }
    }
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Arm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ARM" => Ok(Arm::Arm),
            "CTRL" => Ok(Arm::Ctrl),
            other => Err(format!("unknown arm '{other}' (expected ARM or CTRL)")),
        }
    }
}

/// The scorer's class for one answer (DESIGN §5). Never decided by a tag the answer carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Class {
    /// The good outcome for positive (token, no refusal) and negative (refusal, no token).
    Pass,
    /// Positive without the token, or negative with neither token nor refusal.
    Fail,
    /// Negative: asserted the fabrication token without refusing.
    Hallucinated,
    /// Token and refusal together: "named it, then said it is absent" or "asserted, then hedged". A person reads it.
    RefusedWithToken,
    /// Conflict: the planted (wrong) carrier value was given, so the carrier was read.
    ConflictFollowed,
    /// Conflict: the answer refused.
    AbstainedOnConflict,
    /// Conflict: the true value was given and seen (only when `general` is known).
    PriorWon,
    /// Conflict: nothing can be asserted about this answer.
    Unclassified,
    /// Empty answer: empty output is not "no".
    Void,
}

impl Class {
    /// Every class, in a stable order for tables.
    pub const ALL: [Class; 9] = [
        Class::Pass,
        Class::Fail,
        Class::Hallucinated,
        Class::RefusedWithToken,
        Class::ConflictFollowed,
        Class::AbstainedOnConflict,
        Class::PriorWon,
        Class::Unclassified,
        Class::Void,
    ];

    /// The upper-case name written in rows.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Pass => "PASS",
            Class::Fail => "FAIL",
            Class::Hallucinated => "HALLUCINATED",
            Class::RefusedWithToken => "REFUSED_WITH_TOKEN",
            Class::ConflictFollowed => "CONFLICT_FOLLOWED",
            Class::AbstainedOnConflict => "ABSTAINED_ON_CONFLICT",
            Class::PriorWon => "PRIOR_WON",
            Class::Unclassified => "UNCLASSIFIED",
            Class::Void => "VOID",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Class {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Class::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| format!("unknown class '{s}'"))
    }
}

/// A classified answer: the class, and whether the answer took the typed path (`TYPED_` prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Verdict {
    /// The class the token and refusal checks gave.
    pub class: Class,
    /// A recognised `<<VERDICT:…>>` tag was present; it marks the path, never the class.
    pub typed: bool,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.typed {
            f.write_str("TYPED_")?;
        }
        f.write_str(self.class.as_str())
    }
}

impl FromStr for Verdict {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix("TYPED_") {
            Some(rest) => Ok(Verdict {
                class: rest.parse()?,
                typed: true,
            }),
            None => Ok(Verdict {
                class: s.parse()?,
                typed: false,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_round_trips_with_typed_prefix() {
        for class in Class::ALL {
            for typed in [false, true] {
                let v = Verdict { class, typed };
                assert_eq!(v.to_string().parse::<Verdict>().unwrap(), v);
            }
        }
        assert_eq!(
            "TYPED_PASS".parse::<Verdict>().unwrap().to_string(),
            "TYPED_PASS"
        );
        assert!("TYPED_MAYBE".parse::<Verdict>().is_err());
    }
}
