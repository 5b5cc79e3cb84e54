//! What must hold before a round starts and what a finished round is checked against
//! (DESIGN §6): the start gate, where it saw a value, the name-leak axis and the manifest.
//!
//! - [`start`]: the start gate (contamination, ledger, seal, names); `run` calls it itself
//! - [`hitlines`]: the lines around a gate's hit, for the person who has to remove it
//! - [`nameleak`]: no visible name may tell an agent its arm, question or round
//! - [`manifest`]: pre-registration by content hash, and `verify`

pub mod hitlines;
pub mod manifest;
pub mod nameleak;
pub mod start;
