//! Who the second reader was, and what its last pass over the round's answers cost (issue 20
//! item 2): recorded in `round.json` by `harness rejudge` (and `run --judge`, `rescore
//! --judge`), carried into every report's header, `summary.json` (`meta.judge`) and the
//! closing summary. A total the transport never reported is "not reported", never 0.

use crate::sanitize;
use serde::{Deserialize, Serialize};

/// The judge a round's answers were last read by, and the totals of that pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeInfo {
    /// The `--judge` spec as given (`claude`, `command:…`, `openai:URL`). Untrusted text.
    pub spec: String,
    /// `--judge-model`, when given. Untrusted text.
    #[serde(default)]
    pub model: Option<String>,
    /// The rubric's version (`v1`).
    pub rubric_version: String,
    /// sha256 of the rubric the prompts were built from.
    pub rubric_sha256: String,
    /// `--judge-timeout`, seconds per call.
    pub timeout_secs: u64,
    /// `--judge-retries`: extra attempts after a call that gave no reading.
    pub retries: u32,
    /// `--judge-jobs`: calls run at once.
    pub jobs: u32,
    /// The sandbox mode the judge's process ran under (`auto`, `full`, `landlock`, `none`),
    /// or `not applicable (HTTP endpoint)` for `openai:`.
    pub sandbox: String,
    /// The isolation the sandbox wrapper reported for the pass's calls (one value when they
    /// agree, `MIXED: …` otherwise); empty when no process ran.
    #[serde(default)]
    pub isolation: String,
    /// When the pass ended (RFC 3339, UTC).
    pub last_read: String,
    /// What the pass cost.
    pub totals: JudgeTotals,
    /// The judge's last calibration on record when it read (`harness judge eval`); `None`:
    /// not calibrated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<crate::calibration::Calibration>,
}

/// The totals of one judge pass: one call per answer sent, each of one or more attempts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JudgeTotals {
    /// Answers sent to the judge (one call each).
    pub calls: u64,
    /// Calls that gave a reading.
    pub read: u64,
    /// Calls that gave no reading (every attempt failed).
    pub no_reading: u64,
    /// Attempts over all calls (`attempts - calls` were retries).
    pub attempts: u64,
    /// Sum of input tokens over the calls that reported them; `None` when none did.
    pub input_tokens: Option<u64>,
    /// Sum of output tokens over the calls that reported them; `None` when none did.
    pub output_tokens: Option<u64>,
    /// Calls whose transport reported tokens.
    pub tokens_reported: u64,
    /// Sum of the cost in USD over the calls that reported one; `None` when none did.
    pub cost_usd: Option<f64>,
    /// Calls whose transport reported a cost.
    pub cost_reported: u64,
    /// Wall time of the whole pass (calls run `jobs` at once), milliseconds.
    pub wall_ms: u64,
}

impl JudgeTotals {
    /// Retries over all calls.
    pub fn retries(&self) -> u64 {
        self.attempts.saturating_sub(self.calls)
    }

    /// One line: calls, readings, attempts, tokens, cost and wall time, each total the
    /// transport did not report said as "not reported" (never 0).
    pub fn line(&self) -> String {
        let of = |reported: u64| {
            if reported < self.calls {
                format!(" (reported by {reported} of {} calls)", self.calls)
            } else {
                String::new()
            }
        };
        let tokens = match (self.input_tokens, self.output_tokens) {
            (None, None) => "tokens not reported".to_string(),
            (i, o) => format!(
                "tokens in {} out {}{}",
                i.map(|v| v.to_string())
                    .unwrap_or_else(|| "not reported".into()),
                o.map(|v| v.to_string())
                    .unwrap_or_else(|| "not reported".into()),
                of(self.tokens_reported)
            ),
        };
        let cost = match self.cost_usd {
            Some(c) => format!("cost ${c:.4}{}", of(self.cost_reported)),
            None => "cost not reported".to_string(),
        };
        format!(
            "{} calls: {} read, {} no reading · {} attempts ({} retries) · {tokens} · {cost} · wall {:.1}s",
            self.calls,
            self.read,
            self.no_reading,
            self.attempts,
            self.retries(),
            self.wall_ms as f64 / 1000.0
        )
    }
}

impl JudgeInfo {
    /// Who the judge was, on one sanitized line: spec, model, rubric, sandbox and limits.
    /// `rubric_now` is this build's rubric sha256: readings made with another are not used,
    /// and the line says so.
    pub fn who(&self, rubric_now: &str) -> String {
        let short = |s: &str| s.get(..12).unwrap_or(s).to_string();
        let rubric = if self.rubric_sha256 == rubric_now {
            format!(
                "rubric {} sha256 {}",
                sanitize::excerpt(&self.rubric_version, 20),
                short(&self.rubric_sha256)
            )
        } else {
            format!(
                "rubric {} sha256 {} (not this build's rubric: its readings are not used)",
                sanitize::excerpt(&self.rubric_version, 20),
                sanitize::excerpt(&short(&self.rubric_sha256), 12)
            )
        };
        let sandbox = if self.isolation.is_empty() {
            sanitize::excerpt(&self.sandbox, 60)
        } else {
            format!(
                "{} ({})",
                sanitize::excerpt(&self.sandbox, 60),
                sanitize::excerpt(&self.isolation, 120)
            )
        };
        format!(
            "{} · model {} · {rubric} · sandbox {sandbox} · timeout {}s, retries {}, jobs {} · last read {}",
            sanitize::excerpt(&self.spec, 120),
            self.model
                .as_deref()
                .map(|m| sanitize::excerpt(m, 80))
                .unwrap_or_else(|| "(judge default)".into()),
            self.timeout_secs,
            self.retries,
            self.jobs,
            sanitize::excerpt(&self.last_read, 40)
        )
    }

    /// The Readers section's calibration line: the last `harness judge eval` of this judge,
    /// or `not calibrated`.
    pub fn calibration_line(&self) -> String {
        match &self.calibration {
            Some(c) => c.line(&scorer::rubric::sha256()),
            None => format!(
                "judge {}: {}",
                sanitize::excerpt(&self.spec, 120),
                crate::calibration::NOT_CALIBRATED
            ),
        }
    }

    /// The record as `summary.json` writes it: untrusted strings sanitized.
    pub fn cleaned(&self) -> JudgeInfo {
        let mut j = self.clone();
        j.spec = sanitize::excerpt(&j.spec, 200);
        j.model = j.model.map(|m| sanitize::excerpt(&m, 120));
        j.rubric_version = sanitize::excerpt(&j.rubric_version, 20);
        j.rubric_sha256 = sanitize::excerpt(&j.rubric_sha256, 64);
        j.sandbox = sanitize::excerpt(&j.sandbox, 60);
        j.isolation = sanitize::excerpt(&j.isolation, 200);
        j.last_read = sanitize::excerpt(&j.last_read, 40);
        if let Some(c) = j.calibration.as_mut() {
            c.judge = sanitize::excerpt(&c.judge, 200);
            c.version = c.version.as_deref().map(|v| sanitize::excerpt(v, 80));
            c.date = sanitize::excerpt(&c.date, 40);
        }
        j
    }
}

/// What a header or summary says when no judge read the round (and for every round recorded
/// before judges were recorded).
pub const NO_JUDGE: &str = "no judge (the lexicon read the answers alone)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreported_totals_are_said_never_zero() {
        let t = JudgeTotals {
            calls: 4,
            read: 3,
            no_reading: 1,
            attempts: 5,
            wall_ms: 2_500,
            ..Default::default()
        };
        let line = t.line();
        assert_eq!(
            line,
            "4 calls: 3 read, 1 no reading · 5 attempts (1 retries) · tokens not reported · cost not reported · wall 2.5s"
        );
        let t = JudgeTotals {
            input_tokens: Some(812),
            output_tokens: None,
            tokens_reported: 2,
            cost_usd: Some(0.01234),
            cost_reported: 4,
            ..t
        };
        assert_eq!(
            t.line(),
            "4 calls: 3 read, 1 no reading · 5 attempts (1 retries) · tokens in 812 out not reported (reported by 2 of 4 calls) · cost $0.0123 · wall 2.5s"
        );
    }
}
