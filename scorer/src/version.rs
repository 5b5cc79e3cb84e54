//! The version of each reading stage, below all of them: the lexicon's fingerprint covers the
//! cue detector's and the grader cue's versions without importing those stages.

/// Version of the cue detector; it joins the scorer fingerprint, because a changed cue moves
/// rows between decided and `UNDETERMINED`.
pub const CUES_VERSION: &str = "1.11.0";

/// Version of the detector; it joins the scorer fingerprint, because a changed detector moves
/// rows between decided and left to a person.
pub const GRADER_VERSION: &str = "1.0.0";
