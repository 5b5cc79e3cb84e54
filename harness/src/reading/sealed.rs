//! The judge in the sealed design, after the round (DESIGN §6.5): `rejudge` and `rescore
//! --judge` read a round's answers again, and a judge other than the one its manifest sealed
//! (spec and model, preset CLI version, rubric) is another design. Such a pass is refused
//! (exit 10, naming the field) unless `--accept-change judge`; then the round's manifest status
//! becomes `JUDGE_CHANGED` and every report, the brief and `ROUND_DONE` say `design: judge
//! differs from the sealed one`, never `manifest: match`. A round run without a manifest (or
//! with one that sealed no design) has no sealed judge to keep: nothing is compared.

use crate::exit::{Exit, Fail};
use crate::gates::manifest::{self, Design};
use crate::reading::judge::Judge;
use crate::round::record::{RoundRecord, JUDGE_CHANGED};
use crate::text::clean_line;
use anyhow::Result;

/// What a judge pass is against the round's sealed design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Against {
    /// The round sealed no design (or no manifest): nothing to keep.
    NotSealed,
    /// The judge is the sealed one.
    Sealed,
    /// The judge differs and the change was accepted: what differs, one line.
    Changed(String),
}

/// The fields of `judge` that differ from `sealed`, each `field (sealed X, this judge Y)`. The
/// CLI version is compared only when the design recorded one and one is found now, as for the
/// agent; the rubric only when the design recorded it.
fn differences(sealed: &Design, judge: &Judge) -> Vec<String> {
    let mut out = Vec::new();
    let name = judge.describe();
    if sealed.judge != name {
        out.push(format!(
            "judge (sealed {}, this judge {})",
            clean_line(&sealed.judge, 120),
            clean_line(&name, 120)
        ));
    }
    if let Some(was) = &sealed.judge_version {
        if let Some(now) = crate::agents::cli_version(&judge.spec) {
            if *was != now {
                out.push(format!(
                    "judge_version (sealed {}, this judge {})",
                    clean_line(was, 80),
                    clean_line(&now, 80)
                ));
            }
        }
    }
    if let Some(was) = &sealed.judge_rubric {
        let now = manifest::rubric_name();
        if *was != now {
            out.push(format!(
                "judge_rubric (sealed {}, this build {})",
                clean_line(was, 90),
                now
            ));
        }
    }
    out
}

/// The sealed judge's name from a round recorded before the design itself was kept: its
/// `judge match NAME` check line (cut at 80 characters, as checks are; compared cut alike).
fn judge_from_checks(record: &RoundRecord) -> Option<String> {
    record
        .manifest
        .checks
        .iter()
        .find_map(|c| c.strip_prefix("judge match "))
        .map(str::to_string)
}

/// Compares `judge` with the judge `record`'s manifest sealed. `command` names the command for
/// the refusal. Refused (exit 10) when it differs and `accept` (`--accept-change judge`) was
/// not given; nothing is written before this check.
pub fn check(record: &RoundRecord, judge: &Judge, accept: bool, command: &str) -> Result<Against> {
    let m = &record.manifest;
    let verified = m.status == "match" || m.status == JUDGE_CHANGED;
    if !verified || !m.design_sealed {
        return Ok(Against::NotSealed);
    }
    let diffs = match &m.sealed {
        Some(design) => differences(design, judge),
        None => match judge_from_checks(record) {
            Some(name) if name != clean_line(&judge.describe(), 80) => vec![format!(
                "judge (sealed {}, this judge {})",
                clean_line(&name, 120),
                clean_line(&judge.describe(), 120)
            )],
            _ => Vec::new(),
        },
    };
    if diffs.is_empty() {
        return Ok(Against::Sealed);
    }
    if accept {
        return Ok(Against::Changed(diffs.join("; ")));
    }
    Err(Fail::new(
        Exit::ManifestMismatch,
        format!(
            "{command} refused: the round's manifest{} sealed another judge:\n  {}\nRead with the sealed judge, or accept the change with --accept-change judge (every report then says: {})",
            m.path
                .as_deref()
                .map(|p| format!(" {}", clean_line(p, 200)))
                .unwrap_or_default(),
            diffs.join("\n  "),
            reports::JUDGE_DIFFERS
        ),
    )
    .into())
}

/// Records what a pass was against the sealed design in the round's record: a changed judge
/// sets `JUDGE_CHANGED` (never `match` again until the sealed judge reads every answer anew); a
/// pass by the sealed judge restores `match` on a round a changed judge had read.
pub fn mark(record: &mut RoundRecord, against: &Against) {
    match against {
        Against::NotSealed => {}
        Against::Sealed => {
            if record.manifest.status == JUDGE_CHANGED {
                record.manifest.status = "match".into();
                record.manifest.judge_changed = None;
            }
        }
        Against::Changed(what) => {
            record.manifest.status = JUDGE_CHANGED.into();
            record.manifest.judge_changed = Some(what.clone());
        }
    }
}
