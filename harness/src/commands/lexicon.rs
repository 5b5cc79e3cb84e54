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
    /// The rows measured: labelled by a person (or a reader other than a lexicon).
    scored: Vec<Scored>,
    /// Rows whose label is a lexicon's own reading (`decided_by` `lexicon` or `both`, as
    /// `review --export` writes them): not counted, since a lexicon measured against its own
    /// readings agrees by construction.
    set_aside: usize,
}

/// Why rows labelled by a lexicon are not counted, as `lexicon eval` prints it.
const SET_ASIDE_WHY: &str = "labelled by the lexicon itself (decided_by lexicon or both): a lexicon compared with its own readings agrees by construction";

/// The labelled corpora a command reads, as (name, text): the files named, else the shipped
/// corpus. `lexicon eval` and `judge eval` read the same rows the same way.
pub(crate) fn corpus_sources(corpora: &[PathBuf]) -> Result<Vec<(String, String)>> {
    if corpora.is_empty() {
        return Ok(corpus::SHIPPED
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect());
    }
    corpora
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Fail::new(Exit::Usage, format!("corpus {}: {e}", path.display())))?;
            Ok((path.display().to_string(), text))
        })
        .collect()
}

fn load_parts(opts: &EvalOptions, reading: &Reading) -> Result<Vec<Part>> {
    let mut parts = Vec::new();
    let sources = corpus_sources(&opts.corpora)?;
    for (name, text) in sources {
        let rows =
            corpus::parse(&name, &text).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
        let (own, labelled): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|r| r.labelled_by_lexicon());
        let scored = corpus::score(&labelled, &reading.lexicon, opts.token_match);
        parts.push(Part {
            name,
            scored,
            set_aside: own.len(),
        });
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
    let _ = writeln!(
        out,
        "── {title}: {}",
        reports::counting::n_of(f.rows as u64, "row", "rows")
    );
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
        "  negative PASS read FAIL/HALLUCINATED with certainty  {}  (of the negatives a person read PASS)",
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

/// The scorer's column of one row in the confusion table: its class when the lexicon decided
/// the row, `None` (the UNDETERMINED column) when a cue left it undecided, whatever its guess.
/// A certain reading and a guess are never counted in one cell.
fn scorer_column(s: &Scored) -> Option<Class> {
    s.decided().then_some(s.class)
}

/// The confusion of `rows`: (human class, scorer column) → rows, undecided rows in their own
/// column (`None`).
fn confusion(rows: &[Scored]) -> std::collections::BTreeMap<(Class, Option<Class>), usize> {
    let mut m = std::collections::BTreeMap::new();
    for s in rows {
        *m.entry((s.row.class, scorer_column(s))).or_default() += 1;
    }
    m
}

/// The confusion as JSON: one object per cell; `scorer` is `UNDETERMINED` for undecided rows.
fn confusion_json(rows: &[Scored]) -> Vec<serde_json::Value> {
    confusion(rows)
        .into_iter()
        .map(|((h, s), n)| {
            serde_json::json!({
                "human": h.as_str(),
                "scorer": s.map_or(UNDETERMINED, |c| c.as_str()),
                "count": n,
            })
        })
        .collect()
}

/// The scorer column's name for rows a cue left undecided.
const UNDETERMINED: &str = "UNDETERMINED";

fn confusion_text(out: &mut String, rows: &[Scored]) {
    let m = confusion(rows);
    let humans: Vec<Class> = Class::ALL
        .into_iter()
        .filter(|c| m.keys().any(|(h, s)| h == c || *s == Some(*c)))
        .collect();
    let mut columns: Vec<Option<Class>> = humans.iter().map(|c| Some(*c)).collect();
    if m.keys().any(|(_, s)| s.is_none()) {
        columns.push(None);
    }
    let short = |c: Option<Class>| match c {
        Some(Class::Pass) => "PASS",
        Some(Class::Fail) => "FAIL",
        Some(Class::Hallucinated) => "HALL",
        Some(Class::RefusedWithToken) => "RWT",
        Some(Class::ConflictFollowed) => "C_FOL",
        Some(Class::AbstainedOnConflict) => "ABST",
        Some(Class::PriorWon) => "PRIOR",
        Some(Class::Unclassified) => "UNCL",
        Some(Class::Void) => "VOID",
        None => "UNDET",
    };
    let _ = writeln!(
        out,
        "── confusion (rows: human class, columns: scorer class; UNDET: rows the lexicon left UNDETERMINED, whatever their guess)"
    );
    let mut head = format!("  {:<6}", "");
    for c in &columns {
        let _ = write!(head, "{:>6}", short(*c));
    }
    let _ = writeln!(out, "{head}");
    for h in &humans {
        let mut line = format!("  {:<6}", short(Some(*h)));
        for s in &columns {
            let n = m.get(&(*h, *s)).copied().unwrap_or(0);
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
            if p.set_aside > 0 {
                let _ = writeln!(
                    out,
                    "  not counted         {} {SET_ASIDE_WHY}",
                    reports::counting::n_of(p.set_aside as u64, "row", "rows")
                );
            }
        }
        if parts.len() > 1 {
            figures_text(&mut out, "all corpora", &total);
        }
        confusion_text(&mut out, &all);
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
        if let Some(why) = unmeasured(&parts, &total) {
            let _ = writeln!(out, "UNMEASURED: {why}");
        }
        print!("{out}");
    }
    // A report, not a gate: its exit says only whether a floor given was missed (an
    // UNMEASURED figure misses every floor).
    check_floors(opts, &total)
}

/// Why nothing was measured, when no row is counted: never an agreement of 1.000 read off a
/// lexicon's own labels.
fn unmeasured(parts: &[Part], total: &Figures) -> Option<String> {
    if total.rows > 0 {
        return None;
    }
    let aside: usize = parts.iter().map(|p| p.set_aside).sum();
    Some(if aside > 0 {
        format!(
            "no row is labelled by a person or a judge: all {} are {SET_ASIDE_WHY}. Decide rows with harness review (--set, --from or in a terminal), then export again",
            reports::counting::n_of(aside as u64, "row", "rows")
        )
    } else {
        "the corpus has no rows".to_string()
    })
}

fn print_json(
    opts: &EvalOptions,
    reading: &Reading,
    parts: &[Part],
    total: &Figures,
) -> Result<()> {
    let all: Vec<Scored> = parts.iter().flat_map(|p| p.scored.clone()).collect();
    let fig = |f: &Figures, rows: &[Scored]| {
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
            "confusion": confusion_json(rows),
        })
    };
    let v = serde_json::json!({
        "schema": "harness.lexicon-eval/1",
        "lexicon_version": reading.version(),
        "fingerprint": reading.fingerprint(),
        "token_match": opts.token_match.as_str(),
        "corpora": parts.iter().map(|p| serde_json::json!({
            "name": p.name,
            "figures": fig(&corpus::figures(&p.scored), &p.scored),
            "not_counted": {"rows": p.set_aside, "why": (p.set_aside > 0).then_some(SET_ASIDE_WHY)},
        })).collect::<Vec<_>>(),
        "total": fig(total, &all),
        "unmeasured": unmeasured(parts, total),
        "disagreements": parts.iter().flat_map(|p| p.scored.iter().filter(|s| !s.agrees()).map(|s| serde_json::json!({
            "corpus": p.name,
            "id": s.row.id,
            "kind": s.row.kind.as_str(),
            "lang": s.row.lang,
            "human": s.row.class.as_str(),
            "scorer": s.class.as_str(),
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

/// What `lexicon suggest` thinks a listed answer is, and so whether a pattern could help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Suspect {
    /// No value of the answer's own, and absence words the strict patterns did not read: a
    /// refusal the lexicon does not know.
    UnknownRefusal,
    /// No value spotted, but no absence word either: an assertion made of words ("releases go
    /// to the #general channel") or an answer off the question, never a refusal to learn.
    AssertsInWords,
    /// Absence words and a value of the answer's own: a guess beside an absence.
    AbsenceAndValue,
    /// A value of the answer's own and no absence words: a fabrication without the token, which
    /// a refusal pattern would hide.
    Asserts,
    /// A conflict answer neither following, flagging nor naming the prior.
    ConflictUnread,
    /// A positive answer holding the token and a refusal.
    PositiveRefused,
}

impl Suspect {
    /// The group heading: what the answer looks like and what to do about it.
    fn heading(self) -> &'static str {
        match self {
            Suspect::UnknownRefusal => "negative scored FAIL, absence words and no value of its own: a refusal the lexicon does not know?",
            Suspect::AssertsInWords => "negative scored FAIL, no absence word and no value spotted: an assertion made of words or an answer off the question; read it (add no pattern unless it refuses)",
            Suspect::AbsenceAndValue => "negative, absence words AND a value of its own: a guess beside an absence; read it yourself, a refusal pattern would hide the guess",
            Suspect::Asserts => "negative scored FAIL, the answer states a value of its own (a number, code, a guess, or \"X is Y\" with no negation): a fabrication, not a refusal (add no pattern)",
            Suspect::ConflictUnread => "conflict scored UNCLASSIFIED: an abstention or a conflict flag the lexicon does not know?",
            Suspect::PositiveRefused => "positive scored REFUSED_WITH_TOKEN: a refusal of a sub-question, or a hedge?",
        }
    }

    /// A new lexicon pattern is the fix a person might make for this group.
    fn pattern_may_help(self) -> bool {
        matches!(
            self,
            Suspect::UnknownRefusal | Suspect::ConflictUnread | Suspect::PositiveRefused
        )
    }
}

/// Whether `answer` (tokens already masked) states a value of its own: a word holding a
/// digit, a code span, a guessing word, or an "X is Y" statement with no negation in it. A
/// heuristic for sorting suggestions, never for scoring: it only keeps `suggest` from offering
/// a fabrication as a refusal to learn.
fn offers_value(answer: &str) -> bool {
    static GUESS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(probably|likely|presumably|i'd guess|my guess|most likely|wahrscheinlich|vermutlich|probablement|probablemente|provavelmente|probabilmente)\b|おそらく|たぶん|아마|可能是|大概",
        )
        .expect("static pattern compiles")
    });
    static STATES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(is|are|was|were|uses|used|runs|ran|lives|sits|hosts|listens|points|equals|called|named|set to|ist|sind|est|es|é)\b\s+\S",
        )
        .expect("static pattern compiles")
    });
    static NEGATION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(not|no|none|nothing|never|nowhere|unknown|unclear|silent|kein\w*|nicht|nichts|pas|aucun\w*|rien|ningún|ninguna|nada|nenhum\w*)\b|n't|ない|없|没有|不",
        )
        .expect("static pattern compiles")
    });
    answer.contains('`')
        || GUESS.is_match(answer)
        || answer
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')'))
            .any(|w| w.chars().any(|c| c.is_ascii_digit()) && !w.contains('‹'))
        || (STATES.is_match(answer) && !NEGATION.is_match(answer))
}

/// Why a row is listed, or `None` when a person would likely read it as the scorer did. A row
/// a person decided is never listed.
fn suspect(r: &reports::Row, masked: &str) -> Option<Suspect> {
    use reports::reading::{DecidedBy, Standing};
    use scorer::Kind::*;
    if matches!(
        r.standing,
        Standing::Decided {
            by: DecidedBy::Person
        }
    ) {
        return None;
    }
    match (r.kind, r.verdict.class) {
        (Negative, Class::Fail) => {
            let absence = match &r.standing {
                Standing::Undetermined { cues, .. } => cues
                    .iter()
                    .any(|c| c == "absence_words" || c == "uncovered_language"),
                _ => false,
            };
            Some(match (absence, offers_value(masked)) {
                (true, false) => Suspect::UnknownRefusal,
                (false, false) => Suspect::AssertsInWords,
                (true, true) => Suspect::AbsenceAndValue,
                (false, true) => Suspect::Asserts,
            })
        }
        (Conflict, Class::Unclassified) => Some(Suspect::ConflictUnread),
        (Positive, Class::RefusedWithToken) => Some(Suspect::PositiveRefused),
        _ => None,
    }
}

/// `harness lexicon suggest ROUND`: the answers the scorer likely misread, grouped by their
/// first sentence (tokens masked), with the commands to grow the lexicon and rescore. Never
/// writes a pattern: a person decides what a phrase means.
pub fn suggest(out: &Path, lexicon: Option<&Path>) -> Result<Exit> {
    crate::reading::activate(lexicon, TokenMatch::Word)?;
    let (qset, rows) = crate::commands::rescore::scored_rows(out)?;
    let mut groups: std::collections::BTreeMap<(Suspect, String), Vec<String>> = Default::default();
    for r in &rows {
        let q = qset.questions.iter().find(|q| q.qid == r.qid);
        let (token, general) = q.map_or(("", ""), |q| {
            (q.token.as_str(), q.general.as_deref().unwrap_or(""))
        });
        let Some(why) = suspect(r, &mask(&r.excerpt, token, general)) else {
            continue;
        };
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
        println!("{} scored; none looks misread (no negative FAIL, conflict UNCLASSIFIED or positive REFUSED_WITH_TOKEN).", reports::counting::n_of(rows.len() as u64, "row", "rows"));
        return Ok(Exit::Ok);
    }
    let mut sorted: Vec<_> = groups.into_iter().collect();
    // Grouped by what the answer looks like, largest phrase groups first within each.
    sorted.sort_by(|a, b| {
        (a.0 .0)
            .cmp(&b.0 .0)
            .then(b.1.len().cmp(&a.1.len()))
            .then(a.0 .1.cmp(&b.0 .1))
    });
    let mut text = String::new();
    let _ = writeln!(text, "{} scored with lexicon {}; answers a person would likely read differently (tokens shown as ‹Nch›):", reports::counting::n_of(rows.len() as u64, "row", "rows"), crate::reading::active().version());
    let mut last_why = None;
    for ((why, sentence), ids) in &sorted {
        if Some(*why) != last_why {
            let _ = writeln!(text, "\n── {}", why.heading());
            last_why = Some(*why);
        }
        let _ = writeln!(text, "  {}×  \"{sentence}\"", ids.len());
        let _ = writeln!(text, "       {}", ids.join(", "));
    }
    let file = lexicon.map_or("my-lexicon.toml".to_string(), |p| {
        clean_line(&p.display().to_string(), 200)
    });
    if !sorted.iter().any(|((why, _), _)| why.pattern_may_help()) {
        let _ = writeln!(text, "\nNo listed answer looks like a phrase the lexicon misses: a pattern would only hide what these answers assert. Nothing to add.");
        print!("{text}");
        return Ok(Exit::Ok);
    }
    let _ = writeln!(text, "\nTo grow the lexicon (nothing is added for you, and never for an answer that gives a value of its own): put the phrase, bound to what it refuses, in {file}:\n\n  [[refusal]]            # or [[conflict_flag]] / [[clarify]]\n  pattern = \"…\"          # a regex, bound to its object (\"no record of\", never \"no\")\n  example = \"…\"          # the observed answer, verbatim; the pattern must match it\n  lang = \"en\"\n\nthen check it against the labelled corpus and rescore:\n\n  harness lexicon eval --lexicon {file}\n  harness rescore {shown} --lexicon {file}\n");
    print!("{text}");
    Ok(Exit::Ok)
}

#[cfg(test)]
mod suggest_tests {
    use super::offers_value;

    #[test]
    fn a_stated_value_is_told_from_a_refusal_in_words() {
        for asserts in [
            "Production runs in eu-west-3.",
            "The office cat is ginger.",
            "It is probably the platform team.",
            "Set `PAGER_TOOL` in the env file.",
            "Der Server ist in Frankfurt.",
        ] {
            assert!(offers_value(asserts), "{asserts}");
        }
        for refuses in [
            "Beats me, honestly.",
            "Nothing in the repo nails that down.",
            "The hand-off is not specific about it.",
            "Dazu steht nichts im Repository.",
            "確認できませんでした。",
            "The ‹8ch› value is not recorded anywhere.",
        ] {
            assert!(!offers_value(refuses), "{refuses}");
        }
    }
}
