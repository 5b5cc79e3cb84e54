//! Dispatch labels (DESIGN §4): opaque names that carry nothing about the arm, the question or
//! its kind. They name the per-dispatch folders and answer files, so an agent that looks at its
//! own path learns nothing.

use std::collections::HashSet;
use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The label alphabet: lowercase RFC 4648 base32.
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// A label's fixed length (50 random bits).
pub const LABEL_LEN: usize = 10;

/// One dispatch's opaque name: exactly [`LABEL_LEN`] characters of `a-z2-7`, drawn at random.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Label(String);

impl Label {
    /// Draws a random label.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Label {
        Label(
            (0..LABEL_LEN)
                .map(|_| ALPHABET[rng.gen_range(0..32u32) as usize] as char)
                .collect(),
        )
    }

    /// Accepts a label read back (e.g. from a labelmap on `--resume`) only if it has the shape.
    pub fn parse(s: &str) -> Result<Label> {
        if s.len() == LABEL_LEN && s.bytes().all(|b| ALPHABET.contains(&b)) {
            Ok(Label(s.to_string()))
        } else {
            Err(Error::BadLabel(s.to_string()))
        }
    }

    /// The label text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Label {
    type Error = Error;
    fn try_from(s: String) -> Result<Label> {
        Label::parse(&s)
    }
}

impl From<Label> for String {
    fn from(l: Label) -> String {
        l.0
    }
}

/// `n` distinct random labels from the thread RNG.
pub fn unique_labels(n: usize) -> Vec<Label> {
    unique_labels_with(n, &mut rand::thread_rng())
}

/// `n` distinct random labels from the given RNG (redraws on the rare collision).
pub fn unique_labels_with<R: Rng + ?Sized>(n: usize, rng: &mut R) -> Vec<Label> {
    let mut seen = HashSet::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let l = Label::random(rng);
        if seen.insert(l.clone()) {
            out.push(l);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_and_uniqueness() {
        let labels = unique_labels(2000);
        let set: HashSet<_> = labels.iter().collect();
        assert_eq!(set.len(), 2000);
        for l in &labels {
            assert_eq!(Label::parse(l.as_str()).unwrap(), *l);
        }
    }

    /// Yields 0 for the first two labels' draws and 2^31 after: the first two labels collide.
    struct Repeating(u32);
    impl rand::RngCore for Repeating {
        fn next_u32(&mut self) -> u32 {
            self.0 += 1;
            if self.0 <= 2 * LABEL_LEN as u32 {
                0
            } else {
                1 << 31
            }
        }
        fn next_u64(&mut self) -> u64 {
            u64::from(self.next_u32())
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            dest.fill(0)
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> std::result::Result<(), rand::Error> {
            dest.fill(0);
            Ok(())
        }
    }

    #[test]
    fn collisions_are_redrawn() {
        let labels = unique_labels_with(2, &mut Repeating(0));
        assert_eq!(labels[0].as_str(), "aaaaaaaaaa");
        assert_eq!(labels[1].as_str(), "qqqqqqqqqq");
    }

    #[test]
    fn parse_refuses_other_shapes() {
        for bad in [
            "",
            "abcdefghi",
            "abcdefghijk",
            "ABCDEFGHIJ",
            "abcdefgh18",
            "arm_q1_ctl",
        ] {
            assert!(Label::parse(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<Label>("\"abc\"").is_err());
        assert_eq!(
            serde_json::from_str::<Label>("\"abcdefgh27\"")
                .unwrap()
                .as_str(),
            "abcdefgh27"
        );
    }
}
