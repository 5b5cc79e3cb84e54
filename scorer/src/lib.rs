//! Pure scoring core of `harness`: the qset model and parser, the refusal and clarify
//! lexicons, answer classification and the scorer's self-test fixtures.
//!
//! Nothing here touches the filesystem: callers hand in bytes and get typed values back.

mod aside;
pub mod batch;
mod choice;
pub mod classify;
pub mod corpus;
pub mod cues;
pub mod error;
pub mod fixtures;
pub mod grader;
pub mod lexicon;
pub mod model;
mod partial;
pub mod qset;
pub mod rubric;
mod spelling;

pub use classify::{classify, evaluate, evaluate_as, Evidence, TokenMatch};
pub use cues::Cue;
pub use error::Error;
pub use lexicon::{Lexicon, LEXICON_VERSION};
pub use model::{Arm, Class, Kind, Verdict};
pub use qset::{Qset, Question};

/// The standard scorer's fingerprint for manifests and rounds: the standard lexicon's
/// fingerprint joined with the judge rubric's sha256 ([`rubric::joined_fingerprint`]).
pub fn fingerprint() -> String {
    rubric::joined_fingerprint(&lexicon::fingerprint())
}

/// The qset parser's error: the crate's one error type under the name the callers use.
pub type QsetError = Error;
