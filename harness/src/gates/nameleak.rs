//! The name-leak axis (DESIGN §6.4): no name an agent can see may tell it which arm, question,
//! kind or round it is in. The seed's first labelled round told 144 of 144 dispatches their arm
//! through a folder name; this check is why labels are generated and names are refused.

use scorer::Kind;

/// Words that must never be a part of a visible name.
pub const FORBIDDEN_WORDS: [&str; 7] = [
    "arm", "ctrl", "control", "answer", "expected", "qset", "round",
];

/// Why a name was refused: the rule, and the part of the name that broke it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// Which name was checked (e.g. "seal name", "out-dir name").
    pub what: String,
    /// The rule broken: "forbidden word 'arm'", "a qid", "a kind".
    pub rule: String,
    /// The offending part as it appears in the name.
    pub part: String,
}

impl std::fmt::Display for Leak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} leaks {}: part '{}'",
            self.what,
            self.rule,
            crate::text::clean_line(&self.part, 60)
        )
    }
}

/// Splits a name into its parts: on every non-alphanumeric character (`_`, `-`, `.`, `/`, space…),
/// on lower→upper case changes and between letters and digits, so `ARM_answers.md`,
/// `armAnswers`, `arm-1` and `ARM2.md` all yield `arm`.
pub fn parts(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let case_change = ch.is_uppercase() && (p.is_lowercase() || p.is_numeric());
            let digit_change = ch.is_numeric() != p.is_numeric();
            if (case_change || digit_change) && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
        prev = Some(ch);
        cur.push(ch);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Checks one visible name against the rules: forbidden words (and their plurals), any qid,
/// any kind; case-insensitive, as whole parts. Returns every leak found.
pub fn check_name(what: &str, name: &str, qids: &[&str]) -> Vec<Leak> {
    let mut leaks = Vec::new();
    for part in parts(name) {
        let lower = part.to_lowercase();
        let singular = lower.strip_suffix('s').unwrap_or(&lower);
        if let Some(w) = FORBIDDEN_WORDS
            .iter()
            .find(|w| **w == lower || **w == singular)
        {
            leaks.push(Leak {
                what: what.to_string(),
                rule: format!("forbidden word '{w}'"),
                part: part.clone(),
            });
        }
        if Kind::ALL
            .iter()
            .any(|k| k.as_str() == lower || k.as_str() == singular)
        {
            leaks.push(Leak {
                what: what.to_string(),
                rule: "a question kind".to_string(),
                part: part.clone(),
            });
        }
    }
    // A qid is matched against the whole name, bounded by non-alphanumerics: parts split
    // `q01` into `q` and `01`, and a qid may itself hold separators (`q-01`).
    let lname = name.to_lowercase();
    for q in qids {
        let lq = q.to_lowercase();
        if !lq.is_empty() && contains_as_parts(&lname, &lq) {
            leaks.push(Leak {
                what: what.to_string(),
                rule: "a qid".to_string(),
                part: q.to_string(),
            });
        }
    }
    leaks
}

fn contains_as_parts(haystack: &str, needle: &str) -> bool {
    let mut start = 0;
    while let Some(pos) = haystack[start..].find(needle) {
        let at = start + pos;
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        if edge(before) && edge(after) {
            return true;
        }
        start = at + needle.len().max(1);
    }
    false
}

/// Checks a prompt the harness composed: the words `ARM` or `CTRL` as whole words (exact case)
/// or the dispatch's own qid would tell the agent its assignment.
pub fn check_prompt(prompt: &str, qid: &str) -> Vec<Leak> {
    let mut leaks = Vec::new();
    for part in prompt.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-') {
        if part == "ARM" || part == "CTRL" {
            leaks.push(Leak {
                what: "prompt".into(),
                rule: "an arm name".into(),
                part: part.into(),
            });
        }
        if !qid.is_empty() && part.eq_ignore_ascii_case(qid) {
            leaks.push(Leak {
                what: "prompt".into(),
                rule: "its qid".into(),
                part: part.into(),
            });
        }
    }
    leaks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_style_leaks_are_caught() {
        assert!(!check_name("seal name", "ARM_answers.md", &[]).is_empty());
        assert!(!check_name("seal name", "q3_CTRL_r1.txt", &["q3"]).is_empty());
        assert!(!check_name("out-dir", "armAnswers", &[]).is_empty());
        assert!(!check_name("seal name", "negative-items.md", &[]).is_empty());
        assert!(!check_name("seal name", "hand-q07.md", &["q07"]).is_empty());
        assert!(!check_name("seal name", "x.q-07.md", &["q-07"]).is_empty());
        assert!(!check_name("out-dir", "round-3", &[]).is_empty());
        assert!(!check_name("seal name", "ARM2.md", &[]).is_empty());
        assert!(!check_name("seal name", "ctrl2.md", &[]).is_empty());
        assert!(!check_name("seal name", "q01.md", &["q01"]).is_empty());
    }

    #[test]
    fn innocent_names_pass() {
        for name in [
            "handoff-2026-11-28.md",
            "SEAL_v2.md",
            "charm.md",
            "warmup",
            "frontier",
            "alarm-notes.md",
            "handoff-nov28.md",
            "notes-q1x.md",
        ] {
            assert!(
                check_name("seal name", name, &["q1", "q2"]).is_empty(),
                "{name} should pass"
            );
        }
    }

    #[test]
    fn prompt_check_sees_arm_words_and_own_qid() {
        assert!(!check_prompt("You are in the ARM arm", "q1").is_empty());
        assert!(!check_prompt("Answer q1 please", "q1").is_empty());
        assert!(check_prompt("What port does the ARM64 build use?", "q1").is_empty());
    }
}
