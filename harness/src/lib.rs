//! `harness`: measures context continuity of coding agents. The library holds the commands'
//! logic (gates, manifests, rounds, rescoring, self-test); `main.rs` and `cli.rs` hold the
//! command line.

// Grouped by what a reader looks for: the commands, the round's steps and records, the gates
// before a round, the agents and how they run, the reading of answers. A module never imports
// the one that calls it.
pub mod agents;
pub mod color;
pub mod commands;
pub mod config;
pub mod demo;
pub mod exit;
pub mod files;
pub mod gates;
pub mod options;
pub mod outdir;
pub mod progress;
pub mod prompt;
pub mod reading;
pub mod round;
pub mod text;
pub mod units;

/// The version line `--version` prints: the harness version and the scorer it carries, because
/// a verdict is only reproducible with the same lexicon and judge rubric.
pub fn version_line() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        format!(
            "{} (scorer lexicon {}, judge rubric {} sha256 {}, fingerprint {})",
            env!("CARGO_PKG_VERSION"),
            scorer::LEXICON_VERSION,
            scorer::rubric::RUBRIC_VERSION,
            &scorer::rubric::sha256()[..12],
            scorer::fingerprint()
        )
    })
}

/// The long help's tail: the exit-code table, defined once in [`exit::Exit`].
pub fn long_after_help() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "Start here:\n  harness run                     the shipped demo round (no network, no API keys)\n  harness run --demo discover     the same without --deliver: is the seal discoverable?\n  harness self-test               the scorer's lanes and the instrument lanes\n\n{}",
            exit::Exit::table()
        )
    })
}
