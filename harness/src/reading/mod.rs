//! The reading of answers a process scores with: the standard lexicon, or the standard one
//! extended by a user's `--lexicon FILE`, and the token rule. Chosen once per command; every
//! fingerprint the process records names it.

pub mod calibration;
pub mod judge;
pub mod review;
pub mod sealed;

use crate::exit::{Exit, Fail};
use crate::text::clean_line;
use anyhow::Result;
use scorer::{Lexicon, TokenMatch};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The lexicon a command scores with: the standard one, or the standard one extended by a
/// user's `--lexicon FILE`, with what identifies it in records.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The compiled lexicon.
    pub lexicon: Lexicon,
    /// The extension file and its sha256, when one was given.
    pub extension: Option<(PathBuf, String)>,
    /// How tokens and `general` values are found.
    pub token_match: TokenMatch,
}

static ACTIVE: std::sync::OnceLock<Reading> = std::sync::OnceLock::new();

/// Choose the reading this process scores with (`--lexicon`, `--token-match`). Called once by
/// a command before it scores, seals or verifies; every fingerprint it records then names this
/// reading. Choosing another reading once one is chosen is an internal error (one process,
/// one reading); choosing the same one again is not.
pub fn activate(file: Option<&Path>, token_match: TokenMatch) -> Result<()> {
    let mut r = reading(file)?;
    r.token_match = token_match;
    let wanted = r.fingerprint();
    if ACTIVE.set(r).is_err() && active().fingerprint() != wanted {
        anyhow::bail!("the scorer reading was chosen twice, differently");
    }
    Ok(())
}

/// The reading chosen by [`activate`], or the standard lexicon with the word token rule.
pub fn active() -> &'static Reading {
    ACTIVE.get_or_init(|| Reading {
        lexicon: Lexicon::standard().clone(),
        extension: None,
        token_match: TokenMatch::Word,
    })
}

impl Reading {
    /// The version written beside the fingerprint: the standard version, plus `+ext:<sha12>`
    /// when a user extension joined it.
    pub fn version(&self) -> String {
        let mut v = scorer::LEXICON_VERSION.to_string();
        if let Some((_, sha)) = &self.extension {
            v.push_str(&format!("+ext:{}", &sha[..12]));
        }
        if self.token_match == TokenMatch::Exact {
            v.push_str("+token:exact");
        }
        v
    }

    /// The fingerprint of the reading actually used: the lexicon's (which covers an
    /// extension's sha256) joined with the judge rubric's sha256, and, under `--token-match exact`, that rule too, so a manifest
    /// sealed for one token rule does not verify a round scored with the other.
    pub fn fingerprint(&self) -> String {
        let joined = scorer::rubric::joined_fingerprint(&self.lexicon.fingerprint());
        match self.token_match {
            TokenMatch::Word => joined,
            TokenMatch::Exact => Sha256::digest(format!("{joined}\ntoken-match exact"))
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        }
    }
}

/// One user pattern as written in the TOML file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserPattern {
    pattern: toml::Spanned<String>,
    example: toml::Spanned<String>,
    #[serde(default)]
    lang: Option<String>,
}

/// The `--lexicon` file: extra patterns per list.
#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UserLexicon {
    #[serde(default)]
    refusal: Vec<UserPattern>,
    #[serde(default)]
    clarify: Vec<UserPattern>,
    #[serde(default)]
    conflict_flag: Vec<UserPattern>,
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Load the lexicon for a command: the standard one, or the standard one extended by `file`.
/// Every user pattern must compile and match its own observed example (after quote stripping,
/// as answers are read); otherwise the error names the file and the line of the pattern.
pub fn reading(file: Option<&Path>) -> Result<Reading> {
    let Some(file) = file else {
        return Ok(Reading {
            lexicon: Lexicon::standard().clone(),
            extension: None,
            token_match: TokenMatch::Word,
        });
    };
    let bytes = std::fs::read(file)
        .map_err(|e| Fail::new(Exit::Usage, format!("--lexicon {}: {e}", file.display())))?;
    let sha: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let name = file.display().to_string();
    let text = String::from_utf8(bytes)
        .map_err(|_| Fail::new(Exit::Usage, format!("{name}:1: not UTF-8")))?;
    let user: UserLexicon = toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(&text, s.start));
        Fail::new(
            Exit::Usage,
            format!("{name}:{line}: {}", e.message().trim_end()),
        )
    })?;
    let count = user.refusal.len() + user.clarify.len() + user.conflict_flag.len();
    if count > MAX_USER_PATTERNS {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{name}: {count} patterns; a lexicon extension holds at most {MAX_USER_PATTERNS} (all lists together): every pattern joins one automaton per list, whose compile time grows faster than the list; keep the phrases observed answers earned"
            ),
        )
        .into());
    }
    let mut lists: [Vec<String>; 3] = Default::default();
    for (slot, (list, entries)) in [
        ("refusal", &user.refusal),
        ("clarify", &user.clarify),
        ("conflict_flag", &user.conflict_flag),
    ]
    .into_iter()
    .enumerate()
    {
        for p in entries {
            validate(&name, &text, list, p)?;
            lists[slot].push(p.pattern.get_ref().clone());
        }
    }
    let lexicon = Lexicon::standard()
        .extended(&lists[0], &lists[1], &lists[2], &sha)
        .map_err(|e| Fail::new(Exit::Usage, format!("{name}: {e}")))?;
    Ok(Reading {
        lexicon,
        extension: Some((file.to_path_buf(), sha)),
        token_match: TokenMatch::Word,
    })
}

fn validate(name: &str, text: &str, list: &str, p: &UserPattern) -> Result<()> {
    let line = line_of(text, p.pattern.span().start);
    let fail = |msg: String| -> anyhow::Error {
        Fail::new(Exit::Usage, format!("{name}:{line}: {list} pattern {msg}")).into()
    };
    let pattern = p.pattern.get_ref();
    if pattern.trim().is_empty() {
        return Err(fail("is empty (it would match every answer)".into()));
    }
    if p.example.get_ref().trim().is_empty() {
        return Err(fail(format!(
            "`{}` has an empty example: every pattern keeps the observed answer that earned it",
            clean_line(pattern, 80)
        )));
    }
    if let Some(lang) = &p.lang {
        if lang.is_empty() || !lang.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(fail(format!("has a bad lang `{}`", clean_line(lang, 20))));
        }
    }
    let compiled = scorer::lexicon::compile_one(pattern).map_err(|e| {
        fail(format!(
            "`{}` does not compile: {e}",
            clean_line(pattern, 80)
        ))
    })?;
    if let Some(why) = too_broad(pattern, &compiled) {
        return Err(fail(format!("`{}` {why}", clean_line(pattern, 80))));
    }
    let spoken = scorer::quotation::strip_quoted(p.example.get_ref());
    if !compiled.is_match(&spoken) {
        return Err(fail(format!(
            "`{}` does not match its own example `{}` (quoted spans are removed before matching, as in answers)",
            clean_line(pattern, 80),
            clean_line(p.example.get_ref(), 80)
        )));
    }
    Ok(())
}

/// At most this many patterns in one `--lexicon` file (all lists together).
pub const MAX_USER_PATTERNS: usize = 500;

/// Why a user pattern would read (nearly) every answer as a refusal: it matches the empty
/// string (`^`, `x*`) or a string of one character (`(?s).`, `[a-z]`, `안`). `None` when it
/// needs at least two characters to match.
fn too_broad(pattern: &str, compiled: &regex::Regex) -> Option<String> {
    if compiled.is_match("") {
        return Some("matches the empty string, so every answer would read as a refusal".into());
    }
    // The shortest match in bytes, from the parsed pattern: a single character takes 1 to 4
    // bytes, so only a pattern that can match in 4 bytes or fewer is probed character by
    // character (every scalar value of that many bytes or more).
    let min_len = regex_syntax::ParserBuilder::new()
        .case_insensitive(true)
        .build()
        .parse(pattern)
        .ok()
        .and_then(|h| h.properties().minimum_len())
        .unwrap_or(0);
    if min_len > 4 {
        return None;
    }
    let whole = scorer::lexicon::compile_one(&format!("\\A(?:{pattern})\\z")).ok()?;
    let mut buf = [0u8; 4];
    (0..=char::MAX as u32)
        .filter_map(char::from_u32)
        .filter(|c| c.len_utf8() >= min_len)
        .find(|c| whole.is_match(c.encode_utf8(&mut buf)))
        .map(|c| {
            format!(
                "matches a single character ({}), so nearly every answer would read as a refusal",
                match c {
                    c if c.is_control() || c.is_whitespace() => format!("U+{:04X}", c as u32),
                    c => format!("`{c}`"),
                }
            )
        })
}
