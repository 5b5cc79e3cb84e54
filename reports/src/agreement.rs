//! How far the two readers agree (DESIGN §5.1, issue 20 item 6): per question kind, on the rows
//! a judge read, the share of rows where the lexicon's class (certain or a guess) equals the
//! judge's, and Cohen's κ, the agreement beyond what the two readers' class frequencies would
//! give by chance. Pure: rows in, numbers out.

use crate::Row;
use scorer::{Class, Kind};
use serde::Serialize;
use std::collections::BTreeMap;

/// Lexicon-vs-judge agreement on one kind's judged rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    /// The question kind.
    pub kind: Kind,
    /// Rows both readers read (the judge gave a reading).
    pub n: u64,
    /// Rows where they gave the same class.
    pub agree: u64,
    /// Cohen's κ; `None` when chance agreement is 1 (both readers used one and the same
    /// class on every row), where κ is undefined — never rendered as 0 or 1.
    pub kappa: Option<f64>,
}

/// Cohen's κ of two readers' classes over the same items: κ = (p_o − p_e) / (1 − p_e), with p_o
/// the observed agreement and p_e the chance agreement from each reader's marginal class
/// frequencies (Cohen 1960, "A coefficient of agreement for nominal scales", Educational and
/// Psychological Measurement 20(1):37–46). `None` for no pairs or p_e = 1 (undefined).
pub fn cohen_kappa(pairs: &[(Class, Class)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let observed = pairs.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let mut first: BTreeMap<Class, f64> = BTreeMap::new();
    let mut second: BTreeMap<Class, f64> = BTreeMap::new();
    for (a, b) in pairs {
        *first.entry(*a).or_default() += 1.0;
        *second.entry(*b).or_default() += 1.0;
    }
    let chance: f64 = first
        .iter()
        .map(|(c, k)| (k / n) * (second.get(c).copied().unwrap_or(0.0) / n))
        .sum();
    if (1.0 - chance).abs() < 1e-12 {
        return None;
    }
    Some((observed - chance) / (1.0 - chance))
}

/// Per kind (in kind order), the agreement on the rows a judge read; kinds without such rows
/// are left out.
pub fn agreement(rows: &[Row]) -> Vec<Agreement> {
    let mut by_kind: BTreeMap<Kind, Vec<(Class, Class)>> = BTreeMap::new();
    for r in rows {
        if let Some(x) = &r.readings {
            by_kind
                .entry(r.kind)
                .or_default()
                .push((x.lexicon, x.judge));
        }
    }
    by_kind
        .into_iter()
        .map(|(kind, pairs)| Agreement {
            kind,
            n: pairs.len() as u64,
            agree: pairs.iter().filter(|(a, b)| a == b).count() as u64,
            kappa: cohen_kappa(&pairs),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::Class::{Fail, Hallucinated, Pass};

    fn pairs(cells: &[((Class, Class), usize)]) -> Vec<(Class, Class)> {
        cells
            .iter()
            .flat_map(|(p, k)| std::iter::repeat_n(*p, *k))
            .collect()
    }

    #[test]
    fn kappa_matches_the_worked_example() {
        // The worked example of the Wikipedia article "Cohen's kappa" (section "Simple
        // example"): 50 proposals, both readers yes 20, A yes / B no 5, A no / B yes 10, both
        // no 15: p_o = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4.
        let p = pairs(&[
            ((Pass, Pass), 20),
            ((Pass, Fail), 5),
            ((Fail, Pass), 10),
            ((Fail, Fail), 15),
        ]);
        let k = cohen_kappa(&p).unwrap();
        assert!((k - 0.4).abs() < 1e-12, "{k}");
    }

    #[test]
    fn kappa_by_hand_on_three_classes_and_the_undefined_cases() {
        // Computed by hand: n = 10; diagonal 4 + 2 + 1 = 7 → p_o = 0.7; A's marginals
        // Pass 5, Fail 3, Hallucinated 2; B's Pass 6, Fail 3, Hallucinated 1 →
        // p_e = (5·6 + 3·3 + 2·1) / 100 = 0.41; κ = 0.29 / 0.59.
        let p = pairs(&[
            ((Pass, Pass), 4),
            ((Pass, Fail), 1),
            ((Fail, Pass), 1),
            ((Fail, Fail), 2),
            ((Hallucinated, Hallucinated), 1),
            ((Hallucinated, Pass), 1),
        ]);
        let k = cohen_kappa(&p).unwrap();
        assert!((k - 0.29 / 0.59).abs() < 1e-12, "{k}");
        assert_eq!(cohen_kappa(&[]), None);
        // Both readers used one class on every row: chance agreement is 1, κ undefined.
        assert_eq!(cohen_kappa(&[(Pass, Pass), (Pass, Pass)]), None);
        // Perfect agreement over two classes is 1.
        assert_eq!(cohen_kappa(&[(Pass, Pass), (Fail, Fail)]), Some(1.0));
    }
}
