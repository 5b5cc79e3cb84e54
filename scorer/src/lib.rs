//! Pure scoring core of `harness`: the qset model and parser, the refusal and clarify
//! lexicons, answer classification and the scorer's self-test fixtures.
//!
//! Nothing here touches the filesystem: callers hand in bytes and get typed values back.

pub mod batch;
pub mod classify;
pub mod corpus;
pub mod cues;
pub mod error;
pub mod fixtures;
pub mod lexicon;
pub mod model;
pub mod qset;

pub use classify::{classify, evaluate, evaluate_as, Evidence, TokenMatch};
pub use cues::Cue;
pub use error::Error;
pub use lexicon::{fingerprint, Lexicon, LEXICON_VERSION};
pub use model::{Arm, Class, Kind, Verdict};
pub use qset::{Qset, Question};

/// The qset parser's error: the crate's one error type under the name the callers use.
pub type QsetError = Error;
