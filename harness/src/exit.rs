//! The exit codes of `harness`: the typed verdict channel (DESIGN §9). Defined once, here;
//! `--help` and docs/exit-codes.md print this table.

use std::fmt;

/// Why the process ended. Each code has one meaning, so a caller can tell "the round never
/// started" from "the round ran and the instrument failed" by the code alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// The round's verdict is OK or FINDING; any other command succeeded.
    Ok,
    /// Internal error, or a self-test lane failed.
    Internal,
    /// Bad input or usage: a malformed qset, unknown flag, disagreeing refs.
    Usage,
    /// VOID: CTRL could not abstain on a known negative; the numbers are not claims.
    Void,
    /// `harness gate --phase pre`: an axis is UNCHECKED. Partial, not a pass.
    GatePartial,
    /// INSTRUMENT_INCOMPLETE: known-positive ARM was not perfect.
    InstrumentIncomplete,
    /// A qset token is in the corpus the agent will see (or the qset/seal is tracked); round not started.
    Contaminated,
    /// CARRIER_UNREAD: on conflict items the prior won over the planted value.
    CarrierUnread,
    /// A name the agent can see leaks an arm, qid, kind or round word; round not started.
    NameLeak,
    /// The start gate refused for another reason (ledger, search error, sandbox unavailable, an
    /// agent's or judge's program missing).
    GateRefused,
    /// Inputs differ from the manifest, or the manifest is missing or empty (round not started);
    /// an answer is not the one the harness wrote (TAMPERED: not scored, not resumed); or two
    /// compared rounds differ in qset or base.
    ManifestMismatch,
    /// A protocol file was named but is missing.
    ProtocolMissing,
    /// UNMEASURED: nothing to score.
    Unmeasured,
    /// Round incomplete: some dispatch failed or timed out; no verdict is claimed.
    Incomplete,
    /// NEEDS_REVIEW: the verdict depends on rows no reader decided (`harness review`).
    NeedsReview,
}

impl Exit {
    /// Every exit, in the order of the table.
    pub const ALL: [Exit; 15] = [
        Exit::Ok,
        Exit::Internal,
        Exit::Usage,
        Exit::Void,
        Exit::GatePartial,
        Exit::InstrumentIncomplete,
        Exit::Contaminated,
        Exit::CarrierUnread,
        Exit::NameLeak,
        Exit::GateRefused,
        Exit::ManifestMismatch,
        Exit::ProtocolMissing,
        Exit::Unmeasured,
        Exit::Incomplete,
        Exit::NeedsReview,
    ];

    /// The process exit code.
    pub fn code(self) -> i32 {
        match self {
            Exit::Ok => 0,
            Exit::Internal => 1,
            Exit::Usage => 2,
            Exit::Void | Exit::GatePartial => 3,
            Exit::InstrumentIncomplete => 4,
            Exit::Contaminated => 5,
            Exit::CarrierUnread => 6,
            Exit::NameLeak => 7,
            Exit::GateRefused => 8,
            Exit::ManifestMismatch => 10,
            Exit::ProtocolMissing => 11,
            Exit::Unmeasured => 12,
            Exit::Incomplete => 13,
            Exit::NeedsReview => 14,
        }
    }

    /// One line saying what the code means.
    pub fn meaning(self) -> &'static str {
        match self {
            Exit::Ok => "OK or FINDING (a finding is a result, not a broken instrument)",
            Exit::Internal => "internal error; a self-test lane failed",
            Exit::Usage => "bad input or usage (malformed qset, unknown flag, refs disagree)",
            Exit::Void => "VOID: CTRL could not say \"absent\" on a known negative",
            Exit::GatePartial => "gate --phase pre: an axis is UNCHECKED (partial, not a pass)",
            Exit::InstrumentIncomplete => "INSTRUMENT_INCOMPLETE: known-positive ARM not perfect",
            Exit::Contaminated => "contaminated qset: a token is in what the agent sees (round not started)",
            Exit::CarrierUnread => "CARRIER_UNREAD: the prior won over the planted value",
            Exit::NameLeak => "name leak: a visible name carries an arm, qid, kind or round word (round not started)",
            Exit::GateRefused => "start gate refused (ledger, search error, sandbox unavailable, program missing)",
            Exit::ManifestMismatch => "manifest mismatch or missing (not started); TAMPERED answers; compared rounds differ",
            Exit::ProtocolMissing => "protocol file missing",
            Exit::Unmeasured => "UNMEASURED: nothing to score",
            Exit::Incomplete => "round incomplete: a dispatch failed or timed out; no verdict claimed",
            Exit::NeedsReview => "NEEDS_REVIEW: the verdict depends on rows no reader decided (harness review)",
        }
    }

    /// The table printed by `--help` and copied into docs/exit-codes.md.
    pub fn table() -> String {
        let mut out = String::from("Exit codes:\n");
        for e in Exit::ALL {
            out.push_str(&format!("  {:>2}  {}\n", e.code(), e.meaning()));
        }
        out
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exit {} ({})", self.code(), self.meaning())
    }
}

/// An error that knows which exit code it ends the process with. Everything else is `Internal`.
#[derive(Debug)]
pub struct Fail {
    /// The exit code this failure maps to.
    pub exit: Exit,
    /// What to tell the user (already sanitized; never a qset token).
    pub message: String,
}

impl Fail {
    /// A failure with its exit code and message.
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        Fail {
            exit,
            message: message.into(),
        }
    }
}

impl fmt::Display for Fail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Fail {}

/// Shorthand: `bail_exit!(Exit::Usage, "…")` returns a `Fail` wrapped in anyhow.
#[macro_export]
macro_rules! bail_exit {
    ($exit:expr, $($arg:tt)*) => {
        return Err(anyhow::Error::new($crate::exit::Fail::new($exit, format!($($arg)*))))
    };
}

/// The exit a finished command's error maps to: a `Fail` anywhere in the chain, else `Internal`.
pub fn exit_of(err: &anyhow::Error) -> Exit {
    err.chain()
        .find_map(|e| e.downcast_ref::<Fail>())
        .map(|f| f.exit)
        .unwrap_or(Exit::Internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_design_table() {
        let codes: Vec<i32> = Exit::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(
            codes,
            vec![0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
        );
    }

    #[test]
    fn a_fail_deep_in_the_chain_decides_the_exit() {
        let err = anyhow::Error::new(Fail::new(Exit::NameLeak, "x")).context("while gating");
        assert_eq!(exit_of(&err), Exit::NameLeak);
        assert_eq!(exit_of(&anyhow::anyhow!("plain")), Exit::Internal);
    }
}
