//! Stage 3, first: the strict reading of an answer, the table's inputs (token present, a
//! refusal, the general value) and the class the table gives them (DESIGN §5). The cue detector
//! and the readings that decide both start from it.

use crate::model::{Class, Kind};
use crate::values::TokenMatch;

/// What the strict reading saw, the input of the cue detector.
#[derive(Debug, Clone, Copy)]
pub struct Strict<'a> {
    /// The whole answer (lossily decoded).
    pub text: &'a str,
    /// The answer with quoted spans and fences removed (what refusal detection read).
    pub spoken: &'a str,
    /// The question kind.
    pub kind: Kind,
    /// The token.
    pub token: &'a str,
    /// The general value, when given.
    pub general: Option<&'a str>,
    /// The token rule.
    pub token_match: TokenMatch,
    /// The strict inputs and class.
    pub has_tok: bool,
    /// A strict refusal (or, on conflict items, a conflict flag) matched.
    pub has_ref: bool,
    /// The general value was seen.
    pub general_seen: bool,
    /// The strict class.
    pub class: Class,
    /// Where the strict refusal matched in `spoken` (byte offsets), when it did.
    pub refusal_span: Option<(usize, usize)>,
}

/// The DESIGN §5 table, as the classifier applies it.
pub(crate) fn decide(kind: Kind, has_tok: bool, has_ref: bool, general_seen: bool) -> Class {
    match (kind, has_tok, has_ref) {
        (Kind::Positive, true, false) => Class::Pass,
        (Kind::Positive, true, true) => Class::RefusedWithToken,
        (Kind::Positive, false, _) => Class::Fail,
        (Kind::Negative, true, false) => Class::Hallucinated,
        (Kind::Negative, true, true) => Class::RefusedWithToken,
        (Kind::Negative, false, true) => Class::Pass,
        (Kind::Negative, false, false) => Class::Fail,
        (Kind::Conflict, true, false) => Class::ConflictFollowed,
        (Kind::Conflict, _, true) => Class::AbstainedOnConflict,
        (Kind::Conflict, false, false) if general_seen => Class::PriorWon,
        (Kind::Conflict, false, false) => Class::Unclassified,
    }
}
