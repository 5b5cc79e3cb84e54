//! Pure scoring core of `harness`: the qset model and parser, the refusal and clarify
//! lexicons, answer classification and the scorer's self-test fixtures.
//!
//! Nothing here touches the filesystem: callers hand in bytes and get typed values back.

//! Reading an answer runs one way, each stage a module that imports only earlier ones (a test,
//! `stages::each_stage_imports_only_earlier_ones`, holds them to it):
//! 1. normalise: [`normalise`] (NFKC and the map back to the answer's bytes);
//! 2. find values and quotations: [`values`] (the token rule), [`quotation`] (quoted spans and
//!    reasoning blocks), `spelling` (re-spelled values), `sentences`, `partial` (partly
//!    covered languages), `wording` (absence, hedge and courtesy words, the answer's language)
//!    and [`lexicon`] (the refusal words);
//! 3. cues: `strict` (the table's reading), [`grader`] (text addressed to a grader), `aside`
//!    (an answer that refuses only something else) and [`cues`] (the cue detector);
//! 4. decide: `choice` (which value a conflict answer chose), `world_refusal` (a refusal in a
//!    language without refusal patterns that states nothing else), `denial` (a negative's
//!    token named only to deny it), `same_value` (the token's number in another notation or
//!    unit) and [`classify`].

mod aside;
mod choice;
pub mod classify;
pub mod cues;
mod denial;
pub mod grader;
pub mod lexicon;
pub mod normalise;
mod partial;
pub mod quotation;
mod same_value;
mod sentences;
mod spelling;
mod strict;
pub mod values;
mod version;
mod wording;
mod world_refusal;

pub mod batch;
pub mod corpus;
pub mod error;
pub mod fixtures;
pub mod model;
pub mod qset;
pub mod rubric;

pub use classify::{classify, evaluate, evaluate_as, Evidence};
pub use cues::Cue;
pub use error::Error;
pub use lexicon::{Lexicon, LEXICON_VERSION};
pub use model::{Arm, Class, Kind, Verdict};
pub use qset::{Qset, Question};
pub use values::TokenMatch;

/// The standard scorer's fingerprint for manifests and rounds: the standard lexicon's
/// fingerprint joined with the judge rubric's sha256 ([`rubric::joined_fingerprint`]).
pub fn fingerprint() -> String {
    rubric::joined_fingerprint(&lexicon::fingerprint())
}

/// The qset parser's error: the crate's one error type under the name the callers use.
pub type QsetError = Error;

#[cfg(test)]
mod stages {
    /// The reading's modules in stage order, each with its source: a module may name only
    /// modules before it (and the crate's data types), so reading runs one way.
    const ORDER: [(&str, &str); 18] = [
        ("normalise", include_str!("normalise.rs")),
        ("version", include_str!("version.rs")),
        ("values", include_str!("values.rs")),
        ("quotation", include_str!("quotation.rs")),
        ("spelling", include_str!("spelling.rs")),
        ("sentences", include_str!("sentences.rs")),
        ("partial", include_str!("partial.rs")),
        ("wording", include_str!("wording.rs")),
        ("lexicon", include_str!("lexicon.rs")),
        ("strict", include_str!("strict.rs")),
        ("grader", include_str!("grader.rs")),
        ("aside", include_str!("aside.rs")),
        ("cues", include_str!("cues.rs")),
        ("choice", include_str!("choice.rs")),
        ("world_refusal", include_str!("world_refusal.rs")),
        ("denial", include_str!("denial.rs")),
        ("same_value", include_str!("same_value.rs")),
        ("classify", include_str!("classify.rs")),
    ];

    /// The modules a source names as `crate::X`, outside comments and its test module.
    fn named(source: &str) -> Vec<String> {
        let code = source
            .split("\n#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or(source);
        let mut out = Vec::new();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or("");
            for (at, _) in line.match_indices("crate::") {
                let rest = &line[at + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !name.is_empty() && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }

    #[test]
    fn each_stage_imports_only_earlier_ones() {
        let position = |m: &str| ORDER.iter().position(|(n, _)| *n == m);
        for (i, (module, source)) in ORDER.iter().enumerate() {
            for name in named(source) {
                if let Some(j) = position(&name) {
                    assert!(
                        j < i,
                        "{module} names crate::{name}, a later stage: reading must run one way"
                    );
                }
            }
        }
        // Not vacuous: the last stage names earlier ones.
        assert!(named(ORDER[17].1).iter().any(|n| n == "cues"));
    }
}
