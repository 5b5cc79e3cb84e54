//! Pure scoring core of `harness`: the qset model and parser, the refusal and clarify
//! lexicons, answer classification and the scorer's self-test fixtures.
//!
//! Nothing here touches the filesystem: callers hand in bytes and get typed values back.

pub mod model;

pub use model::{Arm, Class, Kind, Verdict};
