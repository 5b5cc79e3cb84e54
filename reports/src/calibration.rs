//! A judge's calibration (`harness judge eval`): the judge reads a labelled corpus, and its
//! classes are compared with the human labels — agreement, Cohen's κ with both readers' base
//! rates, per-kind confusion, and the two dangerous directions (a fabrication read as a clean
//! refusal hides a VOID; a clean refusal read as a failure makes a false one), each with its
//! Wilson interval. The last calibration of each judge is kept in the user's state folder, a
//! round records it, and every report's Readers section shows it (or says `not calibrated`).

use crate::sanitize;
use crate::stats::{wilson, Interval};
use scorer::{Class, Kind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One corpus row as the judge read it: the kind, the human's class, the judge's (`None`: no
/// reading).
pub type Read = (Kind, Class, Option<Class>);

/// A count out of a denominator; 0/0 is unmeasured, never 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Count {
    /// Rows that did it.
    pub k: u64,
    /// Rows that could.
    pub n: u64,
}

impl Count {
    /// `k/n (p, [lo, hi])` with Wilson's 95% interval, or `UNMEASURED (0/0)`.
    pub fn display(&self) -> String {
        match wilson(self.k, self.n) {
            Some(Interval { lo, hi, .. }) => format!(
                "{}/{} ({:.3}, 95% [{lo:.3}, {hi:.3}])",
                self.k,
                self.n,
                self.k as f64 / self.n as f64
            ),
            None => "UNMEASURED (0/0)".into(),
        }
    }

    /// The proportion, `None` for 0/0.
    pub fn value(&self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }
}

/// What a judge's reading of a corpus came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Rows in the corpus.
    pub rows: u64,
    /// Rows the judge gave a reading for.
    pub read: u64,
    /// Rows where the judge's class is the human's, over every row (no reading is not
    /// agreement).
    pub agreement: Count,
    /// Cohen's κ over the rows read; `None` when undefined (no rows, or chance agreement 1).
    pub kappa: Option<f64>,
    /// The human labels' class shares over the rows read (base rates).
    pub human_base: BTreeMap<String, f64>,
    /// The judge's class shares over the rows read.
    pub judge_base: BTreeMap<String, f64>,
    /// Per kind: human class → judge class (`NO_READING` when none) → rows.
    pub confusion: BTreeMap<String, BTreeMap<String, BTreeMap<String, u64>>>,
    /// Negative rows a human read as not refusing cleanly (HALLUCINATED, REFUSED_WITH_TOKEN,
    /// FAIL) that the judge read `PASS`: the direction that hides a VOID.
    pub fabrication_as_refusal: Count,
    /// Negative rows a human read `PASS` (a clean refusal) that the judge read as anything
    /// else: the direction that makes a false VOID.
    pub refusal_as_failure: Count,
}

/// What a confusion cell names a row the judge gave no reading for.
pub const NO_READING: &str = "NO_READING";

/// The figures of a judge's reading of a corpus.
pub fn figures(reads: &[Read]) -> Figures {
    let rows = reads.len() as u64;
    let pairs: Vec<(Class, Class)> = reads
        .iter()
        .filter_map(|(_, h, j)| j.map(|j| (*h, j)))
        .collect();
    let read = pairs.len() as u64;
    let agree = pairs.iter().filter(|(h, j)| h == j).count() as u64;
    let share = |which: &dyn Fn(&(Class, Class)) -> Class| {
        let mut m: BTreeMap<String, f64> = BTreeMap::new();
        for p in &pairs {
            *m.entry(which(p).as_str().to_string()).or_default() += 1.0;
        }
        for v in m.values_mut() {
            *v /= read as f64;
        }
        m
    };
    let mut confusion: BTreeMap<String, BTreeMap<String, BTreeMap<String, u64>>> = BTreeMap::new();
    let mut fab = Count::default();
    let mut ref_fail = Count::default();
    for (kind, human, judge) in reads {
        let j = judge.map(|c| c.as_str()).unwrap_or(NO_READING);
        *confusion
            .entry(kind.as_str().to_string())
            .or_default()
            .entry(human.as_str().to_string())
            .or_default()
            .entry(j.to_string())
            .or_default() += 1;
        if *kind != Kind::Negative {
            continue;
        }
        let Some(judge) = judge else {
            continue;
        };
        if *human == Class::Pass {
            ref_fail.n += 1;
            if *judge != Class::Pass {
                ref_fail.k += 1;
            }
        } else if matches!(
            human,
            Class::Hallucinated | Class::RefusedWithToken | Class::Fail
        ) {
            fab.n += 1;
            if *judge == Class::Pass {
                fab.k += 1;
            }
        }
    }
    Figures {
        rows,
        read,
        agreement: Count { k: agree, n: rows },
        kappa: crate::agreement::cohen_kappa(&pairs),
        human_base: share(&|p| p.0),
        judge_base: share(&|p| p.1),
        confusion,
        fabrication_as_refusal: fab,
        refusal_as_failure: ref_fail,
    }
}

/// The last calibration of one judge, as kept in the state folder and recorded in rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// The judge as records name it (spec, and model when given). Untrusted text.
    pub judge: String,
    /// The preset CLI's `--version` line when calibrated; `None` for other judges.
    #[serde(default)]
    pub version: Option<String>,
    /// The rubric's sha256 the corpus was read with.
    pub rubric_sha256: String,
    /// When (RFC 3339, UTC).
    pub date: String,
    /// The corpus files read, each with its sha256.
    pub corpus: Vec<(String, String)>,
    /// The figures.
    pub figures: Figures,
}

impl Calibration {
    /// `judge claude 2.1.328, calibrated 2026-12-07 on 1,140 rows: agreement 0.96, κ 0.93`,
    /// sanitized; says when the rubric it was calibrated with is not `rubric_now`.
    pub fn line(&self, rubric_now: &str) -> String {
        let f = &self.figures;
        let value = |v: Option<f64>| v.map_or("UNMEASURED".to_string(), |v| format!("{v:.2}"));
        format!(
            "judge {}{}, calibrated {} on {} rows: agreement {}, κ {}; fabrication read as refusal {}, refusal read as failure {}{}",
            sanitize::excerpt(&self.judge, 120),
            self.version
                .as_deref()
                .map(|v| format!(" {}", sanitize::excerpt(v, 60)))
                .unwrap_or_default(),
            sanitize::excerpt(self.date.get(..10).unwrap_or(&self.date), 10),
            f.rows,
            value(f.agreement.value()),
            value(f.kappa),
            f.fabrication_as_refusal.display(),
            f.refusal_as_failure.display(),
            if self.rubric_sha256 == rubric_now {
                ""
            } else {
                " (with another rubric than this build's)"
            }
        )
    }
}

/// What a report says of a judge with no calibration on record.
pub const NOT_CALIBRATED: &str =
    "not calibrated (run `harness judge eval --judge SPEC` to measure it on a labelled corpus)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_count_both_dangerous_directions_and_no_reading() {
        use Class::*;
        let reads = vec![
            (Kind::Negative, Pass, Some(Pass)),
            (Kind::Negative, Pass, Some(Fail)),
            (Kind::Negative, Hallucinated, Some(Pass)),
            (Kind::Negative, Fail, Some(Fail)),
            (Kind::Negative, RefusedWithToken, None),
            (Kind::Positive, Pass, Some(Pass)),
        ];
        let f = figures(&reads);
        assert_eq!((f.rows, f.read), (6, 5));
        assert_eq!(f.agreement, Count { k: 3, n: 6 });
        assert_eq!(f.refusal_as_failure, Count { k: 1, n: 2 });
        assert_eq!(f.fabrication_as_refusal, Count { k: 1, n: 2 });
        assert_eq!(f.confusion["negative"]["REFUSED_WITH_TOKEN"][NO_READING], 1);
        assert_eq!(f.human_base["PASS"], 0.6);
        // κ by hand over the 5 read: p_o = 3/5; human PASS .6 HALL .2 FAIL .2, judge PASS .6
        // FAIL .4 → p_e = .36 + .08 = .44; κ = (.6 − .44) / .56.
        assert!((f.kappa.unwrap() - 0.16 / 0.56).abs() < 1e-9);
        assert_eq!(figures(&[]).agreement.display(), "UNMEASURED (0/0)");
    }
}
