//! `harness lexicon eval|suggest` and `--lexicon FILE`: the refusal lexicon measured against
//! human labels, grown by users without a release, and the answers a round could not read.

use crate::exit::{Exit, Fail};
use crate::text::clean_line;
use anyhow::Result;
use scorer::corpus::{self, Figures, Ratio, Scored};
use scorer::{Class, Lexicon, TokenMatch};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The lexicon a command scores with: the standard one, or the standard one extended by a
/// user's `--lexicon FILE`, with what identifies it in records.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The compiled lexicon.
    pub lexicon: Lexicon,
    /// The extension file and its sha256, when one was given.
    pub extension: Option<(PathBuf, String)>,
}

impl Reading {
    /// The version written beside the fingerprint: the standard version, plus `+ext:<sha12>`
    /// when a user extension joined it.
    pub fn version(&self) -> String {
        match &self.extension {
            None => scorer::LEXICON_VERSION.to_string(),
            Some((_, sha)) => format!("{}+ext:{}", scorer::LEXICON_VERSION, &sha[..12]),
        }
    }

    /// The fingerprint of the lexicon actually used (covers the extension's sha256).
    pub fn fingerprint(&self) -> String {
        self.lexicon.fingerprint()
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
    let spoken = scorer::classify::strip_quoted(p.example.get_ref());
    if !compiled.is_match(&spoken) {
        return Err(fail(format!(
            "`{}` does not match its own example `{}` (quoted spans are removed before matching, as in answers)",
            clean_line(pattern, 80),
            clean_line(p.example.get_ref(), 80)
        )));
    }
    Ok(())
}

/// Options of `harness lexicon eval`.
pub struct EvalOptions {
    /// Corpus files; empty means the shipped corpus.
    pub corpora: Vec<PathBuf>,
    /// Print JSON instead of the terminal report.
    pub json: bool,
    /// The token rule.
    pub token_match: TokenMatch,
    /// `--lexicon FILE`.
    pub lexicon: Option<PathBuf>,
    /// Floors: exit 1 when a figure is below (or unmeasured).
    pub min_agreement: Option<f64>,
    /// Refusal precision floor.
    pub min_precision: Option<f64>,
    /// Refusal recall floor.
    pub min_recall: Option<f64>,
}

/// One corpus file scored.
struct Part {
    name: String,
    scored: Vec<Scored>,
}

fn load_parts(opts: &EvalOptions, reading: &Reading) -> Result<Vec<Part>> {
    let mut parts = Vec::new();
    let mut sources: Vec<(String, String)> = Vec::new();
    if opts.corpora.is_empty() {
        for (name, text) in corpus::SHIPPED {
            sources.push((name.to_string(), text.to_string()));
        }
    } else {
        for path in &opts.corpora {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Fail::new(Exit::Usage, format!("corpus {}: {e}", path.display())))?;
            sources.push((path.display().to_string(), text));
        }
    }
    for (name, text) in sources {
        let rows =
            corpus::parse(&name, &text).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
        let scored = corpus::score(&rows, &reading.lexicon, opts.token_match);
        parts.push(Part { name, scored });
    }
    Ok(parts)
}

fn pct(r: Ratio) -> String {
    match r.value() {
        Some(v) => format!("{:.3} ({}/{})", v, r.hits, r.of),
        None => "UNMEASURED (0/0)".to_string(),
    }
}

fn ratio_json(r: Ratio) -> serde_json::Value {
    serde_json::json!({"value": r.value(), "hits": r.hits, "of": r.of})
}

/// The token masked for a terminal: a corpus token may be a real qset's token, and terminals
/// become logs. Shown as its length only.
fn mask(answer: &str, token: &str, general: &str) -> String {
    let mut s = answer.to_string();
    for v in [token, general] {
        if !v.is_empty() {
            s = replace_ci(&s, v, &format!("‹{}ch›", v.chars().count()));
        }
    }
    s
}

fn replace_ci(haystack: &str, needle: &str, with: &str) -> String {
    let re = regex::RegexBuilder::new(&regex::escape(needle))
        .case_insensitive(true)
        .build()
        .expect("escaped literal compiles");
    re.replace_all(haystack, with).into_owned()
}

fn figures_text(out: &mut String, title: &str, f: &Figures) {
    let _ = writeln!(out, "── {title}: {} rows", f.rows);
    let _ = writeln!(out, "  class agreement     {}", pct(f.agreement));
    let _ = writeln!(out, "  refusal precision   {}", pct(f.precision));
    let _ = writeln!(out, "  refusal recall      {}", pct(f.recall));
    for (k, r) in &f.by_kind {
        let _ = writeln!(out, "  kind {k:<9}      {}", pct(*r));
    }
    for (l, r) in &f.by_lang {
        let _ = writeln!(out, "  lang {l:<9}      {}", pct(*r));
    }
}

fn confusion_text(out: &mut String, f: &Figures) {
    let used: Vec<Class> = Class::ALL
        .into_iter()
        .filter(|c| f.confusion.keys().any(|(h, s)| h == c || s == c))
        .collect();
    let short = |c: Class| match c {
        Class::Pass => "PASS",
        Class::Fail => "FAIL",
        Class::Hallucinated => "HALL",
        Class::RefusedWithToken => "RWT",
        Class::ConflictFollowed => "C_FOL",
        Class::AbstainedOnConflict => "ABST",
        Class::PriorWon => "PRIOR",
        Class::Unclassified => "UNCL",
        Class::Void => "VOID",
    };
    let _ = writeln!(
        out,
        "── confusion (rows: human class, columns: scorer class)"
    );
    let mut head = format!("  {:<6}", "");
    for c in &used {
        let _ = write!(head, "{:>6}", short(*c));
    }
    let _ = writeln!(out, "{head}");
    for h in &used {
        let mut line = format!("  {:<6}", short(*h));
        for s in &used {
            let n = f.confusion.get(&(*h, *s)).copied().unwrap_or(0);
            let _ = write!(
                line,
                "{:>6}",
                if n == 0 { ".".into() } else { n.to_string() }
            );
        }
        let _ = writeln!(out, "{line}");
    }
}

/// `harness lexicon eval`.
pub fn eval(opts: &EvalOptions) -> Result<Exit> {
    let reading = reading(opts.lexicon.as_deref())?;
    let parts = load_parts(opts, &reading)?;
    let all: Vec<Scored> = parts.iter().flat_map(|p| p.scored.clone()).collect();
    let total = corpus::figures(&all);
    if opts.json {
        print_json(opts, &reading, &parts, &total)?;
    } else {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "lexicon {} · fingerprint {} · token match {}",
            reading.version(),
            reading.fingerprint(),
            opts.token_match.as_str()
        );
        for p in &parts {
            figures_text(
                &mut out,
                &clean_line(&p.name, 120),
                &corpus::figures(&p.scored),
            );
        }
        if parts.len() > 1 {
            figures_text(&mut out, "all corpora", &total);
        }
        confusion_text(&mut out, &total);
        let wrong: Vec<&Scored> = all.iter().filter(|s| !s.agrees()).collect();
        let _ = writeln!(
            out,
            "── disagreeing rows: {} (tokens shown as ‹Nch›)",
            wrong.len()
        );
        for s in wrong {
            let _ = writeln!(
                out,
                "  {} [{} {}] human {} · scorer {} · {}",
                clean_line(&s.row.id, 40),
                s.row.kind,
                clean_line(&s.row.lang, 8),
                s.row.class,
                s.class,
                clean_line(&mask(&s.row.answer, &s.row.token, &s.row.general), 140)
            );
        }
        print!("{out}");
    }
    check_floors(opts, &total)
}

fn print_json(
    opts: &EvalOptions,
    reading: &Reading,
    parts: &[Part],
    total: &Figures,
) -> Result<()> {
    let fig = |f: &Figures| {
        serde_json::json!({
            "rows": f.rows,
            "agreement": ratio_json(f.agreement),
            "refusal_precision": ratio_json(f.precision),
            "refusal_recall": ratio_json(f.recall),
            "by_kind": f.by_kind.iter().map(|(k, r)| (k.clone(), ratio_json(*r))).collect::<serde_json::Map<_, _>>(),
            "by_lang": f.by_lang.iter().map(|(k, r)| (k.clone(), ratio_json(*r))).collect::<serde_json::Map<_, _>>(),
            "confusion": f.confusion.iter().map(|((h, s), n)| serde_json::json!({"human": h.as_str(), "scorer": s.as_str(), "count": n})).collect::<Vec<_>>(),
        })
    };
    let v = serde_json::json!({
        "schema": "harness.lexicon-eval/1",
        "lexicon_version": reading.version(),
        "fingerprint": reading.fingerprint(),
        "token_match": opts.token_match.as_str(),
        "corpora": parts.iter().map(|p| serde_json::json!({
            "name": p.name,
            "figures": fig(&corpus::figures(&p.scored)),
        })).collect::<Vec<_>>(),
        "total": fig(total),
        "disagreements": parts.iter().flat_map(|p| p.scored.iter().filter(|s| !s.agrees()).map(|s| serde_json::json!({
            "corpus": p.name,
            "id": s.row.id,
            "kind": s.row.kind.as_str(),
            "lang": s.row.lang,
            "human": s.row.class.as_str(),
            "scorer": s.class.as_str(),
            "human_refuses": s.row.refuses,
            "scorer_refuses": s.refuses,
            "matched": s.matched,
            "answer": s.row.answer,
        }))).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}

fn check_floors(opts: &EvalOptions, total: &Figures) -> Result<Exit> {
    let mut below = Vec::new();
    for (name, floor, r) in [
        ("class agreement", opts.min_agreement, total.agreement),
        ("refusal precision", opts.min_precision, total.precision),
        ("refusal recall", opts.min_recall, total.recall),
    ] {
        let Some(floor) = floor else { continue };
        match r.value() {
            Some(v) if v >= floor => {}
            Some(v) => below.push(format!("{name} {v:.3} < floor {floor:.3}")),
            None => below.push(format!("{name} UNMEASURED (0/0), floor {floor:.3}")),
        }
    }
    if below.is_empty() {
        return Ok(Exit::Ok);
    }
    for b in &below {
        eprintln!("harness: lexicon eval below floor: {b}");
    }
    Ok(Exit::Internal)
}

/// `harness lexicon suggest ROUND`.
pub fn suggest(out: &Path, lexicon: Option<&Path>) -> Result<Exit> {
    let _ = (out, lexicon);
    Err(Fail::new(Exit::Internal, "not yet").into())
}
