//! `harness lexicon eval|suggest` and `--lexicon FILE`: the refusal lexicon measured against
//! human labels, grown by users without a release, and the answers a round could not read.

use crate::exit::{Exit, Fail};
use crate::reading::{reading, Reading};
use crate::text::clean_line;
use anyhow::Result;
use scorer::corpus::{self, Figures, Ratio, Scored};
use scorer::{Class, TokenMatch};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    /// Floor on class agreement over the rows the lexicon decides.
    pub min_decided_precision: Option<f64>,
    /// Floor on the share of rows the lexicon decides.
    pub min_coverage: Option<f64>,
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
    let _ = writeln!(
        out,
        "  decided precision   {}  (class agreement on the rows no cue marked uncertain)",
        pct(f.decided_precision)
    );
    let _ = writeln!(
        out,
        "  coverage            {}  (rows decided; the rest are UNDETERMINED)",
        pct(f.coverage)
    );
    let _ = writeln!(
        out,
        "  negative PASS read FAIL/HALLUCINATED with certainty  {}",
        pct(f.certain_negative_pass_misread)
    );
    for (k, (p, c)) in &f.decided_by_kind {
        let _ = writeln!(
            out,
            "  decided kind {k:<9} precision {} · coverage {}",
            pct(*p),
            pct(*c)
        );
    }
    for (l, (p, c)) in &f.decided_by_lang {
        let _ = writeln!(
            out,
            "  decided lang {l:<9} precision {} · coverage {}",
            pct(*p),
            pct(*c)
        );
    }
    if !f.cue_counts.is_empty() {
        let list: Vec<String> = f
            .cue_counts
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        let _ = writeln!(out, "  cues fired          {}", list.join(", "));
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
    let mut reading = reading(opts.lexicon.as_deref())?;
    reading.token_match = opts.token_match;
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
            let shown = if s.decided() {
                s.class.to_string()
            } else {
                let cues: Vec<&str> = s.cues.iter().map(|c| c.as_str()).collect();
                format!("UNDETERMINED (guess {}; {})", s.class, cues.join(", "))
            };
            let _ = writeln!(
                out,
                "  {} [{} {}] human {} · scorer {} · {}",
                clean_line(&s.row.id, 40),
                s.row.kind,
                clean_line(&s.row.lang, 8),
                s.row.class,
                shown,
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
            "decided_precision": ratio_json(f.decided_precision),
            "coverage": ratio_json(f.coverage),
            "certain_negative_pass_misread": ratio_json(f.certain_negative_pass_misread),
            "decided_by_kind": f.decided_by_kind.iter().map(|(k, (p, c))| (k.clone(), serde_json::json!({"precision": ratio_json(*p), "coverage": ratio_json(*c)}))).collect::<serde_json::Map<_, _>>(),
            "decided_by_lang": f.decided_by_lang.iter().map(|(k, (p, c))| (k.clone(), serde_json::json!({"precision": ratio_json(*p), "coverage": ratio_json(*c)}))).collect::<serde_json::Map<_, _>>(),
            "cues": f.cue_counts,
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
            "decided": s.decided(),
            "cues": s.cues.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            "decided": s.decided(),
            "cues": s.cues.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
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
        (
            "decided precision",
            opts.min_decided_precision,
            total.decided_precision,
        ),
        ("coverage", opts.min_coverage, total.coverage),
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

/// The first sentence of an answer, as a grouping key: quoted spans kept (they are part of
/// what a reader sees), cut at the first sentence end or line break, at most 100 characters.
fn first_sentence(answer: &str) -> String {
    let t = answer.trim_start();
    let end = t
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '\n' | '。' | '！' | '？')
                || (matches!(c, '.' | '!' | '?')
                    && t[i + c.len_utf8()..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace))
        })
        .map_or(t.len(), |(i, c)| i + c.len_utf8());
    t[..end].trim().to_string()
}

/// Why a row is listed: the reading a person would likely give differs from the scorer's.
fn suspect(kind: scorer::Kind, class: Class) -> Option<&'static str> {
    use scorer::Kind::*;
    match (kind, class) {
        (Negative, Class::Fail) => Some("negative scored FAIL: a refusal the lexicon does not know?"),
        (Conflict, Class::Unclassified) => Some("conflict scored UNCLASSIFIED: an abstention or a conflict flag the lexicon does not know?"),
        (Positive, Class::RefusedWithToken) => Some("positive scored REFUSED_WITH_TOKEN: a refusal of a sub-question, or a hedge?"),
        _ => None,
    }
}

/// `harness lexicon suggest ROUND`: the answers the scorer likely misread, grouped by their
/// first sentence (tokens masked), with the commands to grow the lexicon and rescore. Never
/// writes a pattern: a person decides what a phrase means.
pub fn suggest(out: &Path, lexicon: Option<&Path>) -> Result<Exit> {
    crate::reading::activate(lexicon, TokenMatch::Word)?;
    let (qset, rows) = crate::rescore::scored_rows(out)?;
    let mut groups: std::collections::BTreeMap<(&str, String), Vec<String>> = Default::default();
    for r in &rows {
        let Some(why) = suspect(r.kind, r.verdict.class) else {
            continue;
        };
        let q = qset.questions.iter().find(|q| q.qid == r.qid);
        let (token, general) = q.map_or(("", ""), |q| {
            (q.token.as_str(), q.general.as_deref().unwrap_or(""))
        });
        let key = clean_line(&mask(&first_sentence(&r.excerpt), token, general), 100);
        groups.entry((why, key)).or_default().push(format!(
            "{} {} r{}",
            clean_line(&r.qid, 40),
            r.arm,
            r.rep
        ));
    }
    let shown = clean_line(&out.display().to_string(), 200);
    if groups.is_empty() {
        println!("{} rows scored; none looks misread (no negative FAIL, conflict UNCLASSIFIED or positive REFUSED_WITH_TOKEN).", rows.len());
        return Ok(Exit::Ok);
    }
    let mut sorted: Vec<_> = groups.into_iter().collect();
    sorted.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    let mut text = String::new();
    let _ = writeln!(text, "{} rows scored with lexicon {}; answers a person would likely read differently (tokens shown as ‹Nch›):", rows.len(), crate::reading::active().version());
    let mut last_why = "";
    for ((why, sentence), ids) in &sorted {
        if *why != last_why {
            let _ = writeln!(text, "\n── {why}");
            last_why = why;
        }
        let _ = writeln!(text, "  {}×  \"{sentence}\"", ids.len());
        let _ = writeln!(text, "       {}", ids.join(", "));
    }
    let file = lexicon.map_or("my-lexicon.toml".to_string(), |p| {
        clean_line(&p.display().to_string(), 200)
    });
    let _ = writeln!(text, "\nTo grow the lexicon (nothing is added for you): put the phrase, bound to what it refuses, in {file}:\n\n  [[refusal]]            # or [[conflict_flag]] / [[clarify]]\n  pattern = \"…\"          # a regex, bound to its object (\"no record of\", never \"no\")\n  example = \"…\"          # the observed answer, verbatim; the pattern must match it\n  lang = \"en\"\n\nthen check it against the labelled corpus and rescore:\n\n  harness lexicon eval --lexicon {file}\n  harness rescore {shown} --lexicon {file}\n");
    print!("{text}");
    Ok(Exit::Ok)
}
