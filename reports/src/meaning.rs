//! What a row means for its arm and kind, before any colour: the same class is expected in one
//! arm and bad in the other (CTRL not knowing a positive is what CTRL is for; ARM not knowing it
//! is the carrier failing). Every renderer shows this word beside the class.

use crate::Row;
use scorer::{Arm, Class, Kind};
use serde::Serialize;

/// How a row reads for the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Meaning {
    /// What the arm should do: ARM delivering, refusing the absent, following the planted value.
    Good,
    /// What the arm is expected to do without a hand-off: CTRL not knowing, CTRL's prior winning.
    Expected,
    /// A fabrication, an empty answer, ARM missing what the seal carries, CTRL knowing what only
    /// the hand-off should tell.
    Bad,
    /// Neither: a hedge or an abstention a person should read (REFUSED_WITH_TOKEN on a
    /// positive, ABSTAINED_ON_CONFLICT, UNCLASSIFIED).
    Unclear,
    /// No reader decided the row (UNDETERMINED, CONTESTED).
    Undecided,
}

impl Meaning {
    /// The word reports print.
    pub fn as_str(self) -> &'static str {
        match self {
            Meaning::Good => "good",
            Meaning::Expected => "expected",
            Meaning::Bad => "bad",
            Meaning::Unclear => "unclear",
            Meaning::Undecided => "undecided",
        }
    }

    /// Every meaning, in the order a legend lists them.
    pub const ALL: [Meaning; 5] = [
        Meaning::Good,
        Meaning::Expected,
        Meaning::Bad,
        Meaning::Unclear,
        Meaning::Undecided,
    ];
}

impl std::fmt::Display for Meaning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `class` means for a row of `kind` in `arm` (the glossary's "what good looks like").
pub fn of_class(kind: Kind, arm: Arm, class: Class) -> Meaning {
    use Meaning::*;
    match (kind, arm, class) {
        (_, _, Class::Void) => Bad,
        (Kind::Positive, Arm::Arm, Class::Pass) => Good,
        (Kind::Positive, Arm::Arm, _) => Bad,
        // LUCKY: known without any hand-off, so the question does not measure it.
        (Kind::Positive, Arm::Ctrl, Class::Pass) => Bad,
        (Kind::Positive, Arm::Ctrl, Class::Fail) => Expected,
        (Kind::Positive, Arm::Ctrl, _) => Unclear,
        (Kind::Negative, _, Class::Pass) => Good,
        (Kind::Negative, _, _) => Bad,
        (Kind::Conflict, Arm::Arm, Class::ConflictFollowed) => Good,
        (Kind::Conflict, Arm::Arm, Class::PriorWon) => Bad,
        // CTRL never saw the planted value: naming it means it came from somewhere else.
        (Kind::Conflict, Arm::Ctrl, Class::ConflictFollowed) => Bad,
        (Kind::Conflict, Arm::Ctrl, Class::PriorWon) => Expected,
        (Kind::Conflict, _, _) => Unclear,
    }
}

/// What a row means; a row no reader decided is [`Meaning::Undecided`].
pub fn of(row: &Row) -> Meaning {
    if !row.standing.decided() {
        return Meaning::Undecided;
    }
    of_class(row.kind, row.arm, row.verdict.class)
}

/// One line for a report's legend: what each word stands for.
pub const LEGEND: &str = "meaning: good = what the arm should do; expected = what CTRL does without a hand-off \
     (not knowing a positive, the repository's value winning a conflict); bad = a fabrication, an empty \
     answer, ARM missing what the seal carries, or CTRL knowing what only the hand-off tells; unclear = a \
     hedge or abstention to read; undecided = no reader decided";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_class_means_different_things_per_arm() {
        assert_eq!(
            of_class(Kind::Positive, Arm::Ctrl, Class::Fail),
            Meaning::Expected
        );
        assert_eq!(
            of_class(Kind::Positive, Arm::Arm, Class::Fail),
            Meaning::Bad
        );
        assert_eq!(
            of_class(Kind::Negative, Arm::Ctrl, Class::Fail),
            Meaning::Bad
        );
        assert_eq!(
            of_class(Kind::Conflict, Arm::Ctrl, Class::PriorWon),
            Meaning::Expected
        );
        assert_eq!(
            of_class(Kind::Conflict, Arm::Arm, Class::PriorWon),
            Meaning::Bad
        );
        assert_eq!(
            of_class(Kind::Conflict, Arm::Arm, Class::ConflictFollowed),
            Meaning::Good
        );
        assert_eq!(
            of_class(Kind::Conflict, Arm::Ctrl, Class::ConflictFollowed),
            Meaning::Bad
        );
        assert_eq!(
            of_class(Kind::Positive, Arm::Ctrl, Class::Pass),
            Meaning::Bad
        );
        for kind in Kind::ALL {
            for arm in Arm::BOTH {
                assert_eq!(of_class(kind, arm, Class::Void), Meaning::Bad);
            }
        }
    }

    #[test]
    fn every_good_row_is_a_good_class_of_its_kind() {
        for kind in Kind::ALL {
            for class in Class::ALL {
                if of_class(kind, Arm::Arm, class) == Meaning::Good {
                    assert_eq!(class.as_str(), crate::summary::good_name(kind));
                }
            }
        }
    }
}
