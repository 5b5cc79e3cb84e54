//! `harness review ROUND`: a person settles the rows no reader decided (and may re-read any
//! row). Interactive in a terminal, one row at a time, one key per class; `--set
//! LABEL:REP=CLASS` and `--from FILE` for scripts; `--export FILE` writes the decided rows in
//! the corpus format. Only the classes of the row's kind are offered and accepted.
//!
//! The round's guarantees hold here too: both of the round's locks are held from the start
//! (no unit runs, no other command writes the out-dir), every check (answers the harness did
//! not write, rows the round lacks, classes the row's kind lacks) runs before the first write,
//! a decision said to be recorded is on disk, and the reports, `summary.json` and `ROUND_DONE`
//! are re-derived as a set (`ROUND_DONE` last) from the out-dir named.

use crate::exit::{Exit, Fail};
use crate::reading::review::{self, Decision};
use crate::round::collect::Show;
use crate::round::journal;
use crate::text::clean_line;
use anyhow::Result;
use scorer::{Class, Kind};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `harness review`.
pub struct ReviewOptions {
    /// The round's out-dir.
    pub out: PathBuf,
    /// `LABEL:REP=CLASS` decisions.
    pub set: Vec<String>,
    /// A file of `LABEL:REP=CLASS` lines (`#` comments, blank lines skipped), or a corpus
    /// written by `--export` (JSON lines).
    pub from: Option<PathBuf>,
    /// Write the decided rows as a corpus JSONL file and exit.
    pub export: Option<PathBuf>,
    /// The reviewer's name (else git's `user.name`, else `$USER`).
    pub reviewer: Option<String>,
    /// Offer every row, not only the undecided ones (interactive).
    pub all: bool,
}

/// One planned row of the round: what it asks and its answer bytes.
struct Planned {
    label: String,
    rep: u32,
    qid: String,
    kind: Kind,
    has_general: bool,
    bytes: Option<Vec<u8>>,
}

fn planned(out: &Path, plan: &journal::Plan, qset: &scorer::Qset) -> Vec<Planned> {
    plan.dispatches
        .iter()
        .filter_map(|d| {
            let q = qset.questions.iter().find(|q| q.qid == d.qid)?;
            Some(Planned {
                label: d.label.as_str().to_string(),
                rep: d.rep,
                qid: d.qid.clone(),
                kind: q.kind,
                has_general: q.general.is_some(),
                bytes: std::fs::read(crate::round::record::dispatch_file(out, &d.stem(), "txt"))
                    .ok(),
            })
        })
        .collect()
}

/// The classes a person may give a row of `kind`: the kind's own (`PRIOR_WON` only where the
/// question has a general value), never `VOID`.
pub fn allowed(kind: Kind, has_general: bool) -> Vec<Class> {
    scorer::rubric::allowed(kind, has_general)
}

fn names(classes: &[Class]) -> String {
    classes
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `LABEL:REP=CLASS` (`where_` names the source in errors); the class is read against
/// the round's `rows` by [`class_of`].
fn parse_set(s: &str, where_: &str, rows: &[Planned]) -> Result<(String, u32, Class)> {
    let bad = |why: &str| {
        Fail::new(
            Exit::Usage,
            format!(
                "{where_}: '{}' {why} (expected LABEL:REP=CLASS, e.g. k3f9q2:1=PASS)",
                clean_line(s, 80)
            ),
        )
    };
    let (row, class) = s.split_once('=').ok_or_else(|| bad("has no '='"))?;
    let (label, rep) = row.rsplit_once(':').ok_or_else(|| bad("has no ':REP'"))?;
    let rep: u32 = rep
        .trim_start_matches('r')
        .parse()
        .map_err(|_| bad("has a REP that is not a number"))?;
    let label = label.trim().to_string();
    let class = class_of(
        class,
        rows.iter().find(|p| p.label == label && p.rep == rep),
    )
    .map_err(|why| bad(&why))?;
    Ok((label, rep, class))
}

/// A class name as a person types it: case does not matter, and `-` or a space stands for `_`
/// (`pass`, `refused-with-token`). An unknown name is refused with the classes `row`'s kind
/// allows, or every kind's when the row is not one of the round's.
fn class_of(name: &str, row: Option<&Planned>) -> std::result::Result<Class, String> {
    let want = name.trim().replace(['-', ' '], "_");
    if let Some(c) = Class::ALL
        .into_iter()
        .find(|c| c.as_str().eq_ignore_ascii_case(&want))
    {
        return Ok(c);
    }
    let shown = clean_line(name.trim(), 40);
    Err(match row {
        Some(p) => format!(
            "has an unknown class '{shown}'; a {} row ({}) allows: {}",
            p.kind,
            clean_line(&p.qid, 40),
            names(&allowed(p.kind, p.has_general))
        ),
        None => format!(
            "has an unknown class '{shown}'; the classes allowed: {}",
            classes_by_kind()
        ),
    })
}

/// The classes a person may give, kind by kind, as `review --help` and its refusals list them.
pub fn classes_by_kind() -> String {
    [Kind::Positive, Kind::Negative, Kind::Conflict]
        .into_iter()
        .map(|k| {
            let list = names(&allowed(k, true)).replace(
                "PRIOR_WON",
                "PRIOR_WON (only where the question has a general value)",
            );
            format!("{k}: {list}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The reviewer: `--reviewer`, else git's `user.name`, else `$USER`; none of them is refused
/// (a decision nobody signed cannot be weighed later).
fn reviewer(opts: &ReviewOptions) -> Result<String> {
    let named = |s: String| {
        let s = s.trim().to_string();
        (!s.is_empty()).then_some(s)
    };
    if let Some(r) = opts.reviewer.clone().and_then(named) {
        return Ok(clean_line(&r, 80));
    }
    let git = git2::Config::open_default()
        .ok()
        .and_then(|c| c.get_string("user.name").ok())
        .and_then(named);
    if let Some(r) = git.or_else(|| std::env::var("USER").ok().and_then(named)) {
        return Ok(clean_line(&r, 80));
    }
    Err(Fail::new(
        Exit::Usage,
        "no reviewer to record: pass --reviewer NAME (or set git config --global user.name, or $USER)",
    )
    .into())
}

fn decision(p: &Planned, class: Class, who: &str, at: &str) -> Result<Decision> {
    let Some(bytes) = &p.bytes else {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{at}: {}_r{} has no answer file: nothing to review",
                clean_line(&p.label, 40),
                p.rep
            ),
        )
        .into());
    };
    let ok = allowed(p.kind, p.has_general);
    if !ok.contains(&class) {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "{at}: {class} is not a class of a {} row ({}_r{}, {}); allowed: {}",
                p.kind,
                clean_line(&p.label, 40),
                p.rep,
                clean_line(&p.qid, 40),
                names(&ok)
            ),
        )
        .into());
    }
    Ok(Decision {
        label: p.label.clone(),
        rep: p.rep,
        class,
        reviewer: who.to_string(),
        time: chrono::Utc::now().to_rfc3339(),
        answer_sha256: review::sha256_hex(bytes),
        reused_from: None,
        same_answer_as: None,
    })
}

/// The decisions `--set` and `--from` give, every one checked against the round (its rows,
/// each row's kind) before anything is written.
fn scripted(opts: &ReviewOptions, rows: &[Planned], who: &str) -> Result<Vec<Decision>> {
    let mut sets: Vec<(String, u32, Class, String)> = Vec::new();
    for s in &opts.set {
        let (l, r, c) = parse_set(s, "--set", rows)?;
        sets.push((l, r, c, "--set".into()));
    }
    let mut new = Vec::new();
    if let Some(f) = &opts.from {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Fail::new(Exit::Usage, format!("{}: {e}", f.display())))?;
        let mut unmatched = 0;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let at = format!("{}:{}", f.display(), i + 1);
            if t.starts_with('{') {
                // A corpus row (`--export`): applied to the row whose answer it read.
                match corpus_row(t, &at, rows)? {
                    Some((p, class)) => new.push(decision(p, class, who, &at)?),
                    None => unmatched += 1,
                }
                continue;
            }
            let (l, r, c) = parse_set(t, &at, rows)?;
            sets.push((l, r, c, at));
        }
        if unmatched > 0 {
            println!(
                "{unmatched} corpus row{} of {} read no answer of this round; not applied",
                if unmatched == 1 { "" } else { "s" },
                clean_line(&f.display().to_string(), 200)
            );
        }
    }
    for (label, rep, class, at) in &sets {
        let p = rows
            .iter()
            .find(|p| &p.label == label && p.rep == *rep)
            .ok_or_else(|| {
                Fail::new(
                    Exit::Usage,
                    format!("{at}: the round has no row {}:{rep}", clean_line(label, 40)),
                )
            })?;
        new.push(decision(p, *class, who, at)?);
    }
    Ok(new)
}

/// A corpus row of `--export`: the row of this round with the same question and the same
/// answer bytes (by sha256), and its class; `None` when no answer of this round is the one
/// it read.
fn corpus_row<'a>(
    line: &str,
    at: &str,
    rows: &'a [Planned],
) -> Result<Option<(&'a Planned, Class)>> {
    let v: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| Fail::new(Exit::Usage, format!("{at}: not a corpus row: {e}")))?;
    let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("");
    let class: Class = field("class")
        .parse()
        .map_err(|e: String| Fail::new(Exit::Usage, format!("{at}: {e}")))?;
    let Some((qid, sha)) = export_id_parts(field("id")) else {
        return Err(Fail::new(
            Exit::Usage,
            format!("{at}: a corpus row whose id does not name its question and answer sha256 cannot be matched to an answer (write it with harness review --export)"),
        )
        .into());
    };
    Ok(rows
        .iter()
        .find(|p| {
            p.qid == qid
                && p.bytes
                    .as_deref()
                    .is_some_and(|b| review::sha256_hex(b) == sha)
        })
        .map(|p| (p, class)))
}

/// The corpus row's `refuses` for a decided row, and where it came from (said in the row's
/// note). A class that is a refusal (a negative PASS, REFUSED_WITH_TOKEN,
/// ABSTAINED_ON_CONFLICT) says yes; a class that gives a value (a positive PASS, HALLUCINATED,
/// CONFLICT_FOLLOWED, PRIOR_WON) says no; a class that says only that the value was not given
/// (FAIL, UNCLASSIFIED, VOID) does not say whether the answer refused, so the answer's own
/// reading (`reads_refusal`: the lexicon found a refusal in it) does. A CTRL positive "I could
/// not find any record of that" read FAIL is a refusal, never written `refuses: false`.
fn export_refuses(
    kind: scorer::Kind,
    class: Class,
    reads_refusal: impl FnOnce() -> bool,
) -> (bool, &'static str) {
    match (kind, class) {
        (scorer::Kind::Negative, Class::Pass)
        | (_, Class::RefusedWithToken)
        | (_, Class::AbstainedOnConflict) => (true, "from the class"),
        (_, Class::Fail | Class::Unclassified | Class::Void) => {
            if reads_refusal() {
                (
                    true,
                    "from the answer's reading (the lexicon reads a refusal)",
                )
            } else {
                (
                    false,
                    "from the answer's reading (the lexicon reads no refusal)",
                )
            }
        }
        _ => (false, "from the class (it gives a value)"),
    }
}

/// A corpus row's id as `--export` writes it: `<label>_r<rep>:<qid>:<answer sha256>` (the
/// corpus format has no other field for them, and `lexicon eval` refuses unknown fields).
/// Who decided the class is the row's `decided_by` (`lexicon eval` sets aside the rows a
/// lexicon labelled).
fn export_id(label: &str, rep: u32, qid: &str, sha: &str) -> String {
    format!("{label}_r{rep}:{qid}:{sha}")
}

/// (qid, answer sha256) of an id [`export_id`] wrote.
fn export_id_parts(id: &str) -> Option<(&str, &str)> {
    let (rest, sha) = id.rsplit_once(':')?;
    let (_, qid) = rest.split_once(':')?;
    (sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()) && !qid.is_empty())
        .then_some((qid, sha))
}

/// `harness review`.
pub fn review(opts: &ReviewOptions) -> Result<Exit> {
    let out = std::path::absolute(&opts.out)?;
    let plan = journal::load_plan(&out)?;
    crate::round::plan::activate_reading(&plan.options)?;
    if let Some(file) = &opts.export {
        return export(&out, file);
    }
    // Held until the round is derived again: no unit answers and no other command writes.
    let units = journal::no_unit_runs(&out, "review")?;
    let lock = journal::Lock::acquire(&out)?;
    let record = crate::round::record::load_round(&out)?;
    let qset = crate::round::collect::planned_qset(&plan, &record)?;
    let entries = entries(&plan);
    crate::round::collect::refuse_unplanned(&out, &entries)?;
    crate::round::collect::refuse_tampered(&out, &entries)?;
    // Decisions already kept must still read the answers they were made on.
    let scored = crate::round::collect::score_entries(&out, &qset, &entries)?;
    let rows = planned(&out, &plan, &qset);
    let pending = journal::rederive_pending(&out);
    let interactive_asked = opts.set.is_empty() && opts.from.is_none();
    if interactive_asked && !opts.all && !pending && scored.iter().all(|r| r.standing.decided()) {
        println!("{}", nothing_awaits(&scored));
        return Ok(Exit::Ok);
    }
    // Only a decision needs a name to record: a round with nothing to decide needs none.
    let who = reviewer(opts)?;
    let new = if interactive_asked {
        interactive(&out, &rows, &qset, &record, scored, &who, opts.all)?
    } else {
        let new = scripted(opts, &rows, &who)?;
        if !new.is_empty() {
            journal::mark_rederiving(&out, "review")?;
            review::append(&out, &new)?;
            journal::fault_point("review:recorded");
            remember(&out, &record, &rows, &new);
        }
        new
    };
    if new.is_empty() && !pending {
        println!("no decisions made; the round is unchanged");
        return Ok(Exit::Ok);
    }
    println!(
        "{} decision{} recorded in {}; re-deriving the round's reports",
        new.len(),
        if new.len() == 1 { "" } else { "s" },
        review::FILE
    );
    crate::round::collect::rederive(&out, Show::default(), &units, &lock)
}

/// What `review` says of a round where every row is decided: how many rows, and by whom.
fn nothing_awaits(scored: &[reports::Row]) -> String {
    let mut by: std::collections::BTreeMap<&'static str, u64> = Default::default();
    for r in scored {
        if let Some(b) = r.standing.decided_by() {
            *by.entry(b.as_str()).or_default() += 1;
        }
    }
    let who = |b: reports::reading::DecidedBy| match b {
        reports::reading::DecidedBy::Lexicon => "by the lexicon alone",
        reports::reading::DecidedBy::Both => "by the lexicon and the judge agreeing",
        reports::reading::DecidedBy::Judge => "by the judge",
        reports::reading::DecidedBy::Person => "by a person",
    };
    let parts: Vec<String> = [
        reports::reading::DecidedBy::Lexicon,
        reports::reading::DecidedBy::Both,
        reports::reading::DecidedBy::Judge,
        reports::reading::DecidedBy::Person,
    ]
    .into_iter()
    .filter_map(|b| {
        let n = by.get(b.as_str()).copied().unwrap_or(0);
        (n > 0).then(|| format!("{n} {}", who(b)))
    })
    .collect();
    format!(
        "nothing awaits review: all {} of this round are decided ({}); nothing was written. \
         To re-read a decided row anyway: harness review ROUND --all (in a terminal) or --set LABEL:REP=CLASS",
        reports::counting::n_of(scored.len() as u64, "row", "rows"),
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    )
}

/// Keeps decisions in the user's state folder, keyed by (qset sha256, qid, answer sha256), so
/// a later round of the same qset settles the same answers without asking again. A failure
/// here loses no decision of this round (it is in `review.jsonl`): said, not fatal.
fn remember(
    out: &Path,
    record: &crate::round::record::RoundRecord,
    rows: &[Planned],
    made: &[Decision],
) {
    let Some(qset_sha) = record.input("qset").map(|i| i.sha256.clone()) else {
        return;
    };
    let round = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let settled: Vec<review::Settled> = made
        .iter()
        .filter_map(|d| {
            let p = rows.iter().find(|p| p.label == d.label && p.rep == d.rep)?;
            Some(review::Settled {
                qset_sha256: qset_sha.clone(),
                qid: p.qid.clone(),
                answer_sha256: d.answer_sha256.clone(),
                class: d.class,
                reviewer: d.reviewer.clone(),
                time: d.time.clone(),
                round: round.clone(),
            })
        })
        .collect();
    if let Err(e) = review::remember(&settled) {
        eprintln!(
            "harness: note: the decisions are in this round's {} but could not be kept for later rounds in {}: {e:#}",
            review::FILE,
            review::settled_path().display()
        );
    }
}

fn entries(plan: &journal::Plan) -> Vec<crate::round::collect::Entry> {
    plan.dispatches
        .iter()
        .map(|d| crate::round::collect::Entry {
            stem: d.stem(),
            label: d.label.as_str().to_string(),
            qid: d.qid.clone(),
            arm: d.arm,
            rep: d.rep,
        })
        .collect()
}

/// The key for each class a person may give.
fn key_of(class: Class) -> char {
    match class {
        Class::Pass => 'p',
        Class::Fail => 'f',
        Class::Hallucinated => 'h',
        Class::RefusedWithToken => 'w',
        Class::ConflictFollowed => 'c',
        Class::AbstainedOnConflict => 'a',
        Class::PriorWon => 'o',
        Class::Unclassified => 'u',
        Class::Void => 'v',
    }
}

/// The seal's lines that carry `token` (the hand-off line a person checks the answer
/// against), sanitized; or why there are none to show.
fn seal_lines(record: &crate::round::record::RoundRecord, token: &str) -> Vec<String> {
    let bytes = if record.demo.is_some() {
        crate::demo::demo().ok().map(|d| d.seal.to_vec())
    } else {
        record.input("seal").and_then(|i| {
            std::fs::read(&i.path)
                .ok()
                .filter(|b| crate::files::sha256_hex(b) == i.sha256)
        })
    };
    let Some(bytes) = bytes else {
        return vec!["(the seal the round ran with is not readable here)".into()];
    };
    let text = String::from_utf8_lossy(&bytes);
    let needle = token.to_lowercase();
    let found: Vec<String> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.to_lowercase().contains(&needle))
        .map(|(i, l)| format!("{:>4}: {}", i + 1, clean_line(l.trim(), 300)))
        .take(5)
        .collect();
    if found.is_empty() {
        vec!["(no line of the seal carries the token)".into()]
    } else {
        found
    }
}

/// The terminal in single-key mode while alive (no line editing, no echo, Ctrl-C as a key);
/// the old settings come back on drop.
struct SingleKey {
    saved: libc::termios,
}

impl SingleKey {
    fn enter() -> std::io::Result<SingleKey> {
        // SAFETY: termios is plain data; tcgetattr fills it for descriptor 0.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(0, &mut t) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let saved = t;
        t.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
        t.c_cc[libc::VMIN] = 1;
        t.c_cc[libc::VTIME] = 0;
        // SAFETY: a termios value read above, for descriptor 0.
        if unsafe { libc::tcsetattr(0, libc::TCSANOW, &t) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(SingleKey { saved })
    }

    /// One byte from the terminal; `None` at end of input.
    fn key(&self) -> std::io::Result<Option<u8>> {
        let mut b = [0u8; 1];
        loop {
            // SAFETY: reads at most one byte into a one-byte buffer.
            let n = unsafe { libc::read(0, b.as_mut_ptr().cast(), 1) };
            match n {
                1 => return Ok(Some(b[0])),
                0 => return Ok(None),
                _ => {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
    }
}

impl Drop for SingleKey {
    fn drop(&mut self) {
        // SAFETY: restores the settings read in `enter`.
        unsafe {
            libc::tcsetattr(0, libc::TCSANOW, &self.saved);
        }
    }
}

/// The interactive loop: the undecided rows (or every row with `all`), one at a time, one key
/// each. Each decision is echoed and written once, at once (a later quit, Ctrl-C or crash
/// loses nothing decided; the next `report` finishes the re-derivation).
fn interactive(
    out: &Path,
    rows: &[Planned],
    qset: &scorer::Qset,
    record: &crate::round::record::RoundRecord,
    scored: Vec<reports::Row>,
    who: &str,
    all: bool,
) -> Result<Vec<Decision>> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return Err(Fail::new(
            Exit::Usage,
            format!(
                "harness review reads one key per answer from a terminal, and this input is not one. Without a terminal, decide rows with --set LABEL:REP=CLASS (repeatable; LABEL:REP as the verdict line or the report's Rows table names the row, e.g. --set k3f9q2:1=PASS) or --from FILE (one LABEL:REP=CLASS a line, or the rows --export wrote). Classes: {}",
                classes_by_kind()
            ),
        )
        .into());
    }
    let pending: Vec<&reports::Row> = scored
        .iter()
        .filter(|r| all || !r.standing.decided())
        .collect();
    let mut made = Vec::new();
    for (n, r) in pending.iter().enumerate() {
        let q = qset.questions.iter().find(|q| q.qid == r.qid);
        let Some(p) = rows.iter().find(|p| p.label == r.label && p.rep == r.rep) else {
            continue;
        };
        let classes = allowed(p.kind, p.has_general);
        let mut o = std::io::stdout().lock();
        writeln!(
            o,
            "\n── row {}/{}: {} {} r{} ({}_r{}) · {}",
            n + 1,
            pending.len(),
            clean_line(&r.qid, 40),
            r.arm,
            r.rep,
            clean_line(&r.label, 40),
            r.rep,
            r.kind
        )?;
        // Which round folder the row belongs to: a person reviewing several rounds of one
        // design sees the same qids and labels in each.
        writeln!(
            o,
            "round:    {}",
            clean_line(&out.display().to_string(), 200)
        )?;
        if let Some(q) = q {
            writeln!(o, "question: {}", clean_line(&q.question, 300))?;
            writeln!(o, "token:    {}", clean_line(&q.token, 120))?;
            if let Some(g) = &q.general {
                writeln!(o, "general:  {}", clean_line(g, 120))?;
            }
            if matches!(q.kind, Kind::Positive | Kind::Conflict) {
                for l in seal_lines(record, &q.token) {
                    writeln!(o, "seal:     {l}")?;
                }
            }
        }
        writeln!(
            o,
            "answer:   {}",
            reports::sanitize::excerpt(&r.excerpt, 2000)
        )?;
        let reading = match &r.standing {
            reports::reading::Standing::Undetermined { cues, for_person } => {
                format!(
                    "lexicon UNDETERMINED (guess {}; cues {}){}",
                    r.verdict,
                    cues.join(", "),
                    for_person
                        .as_deref()
                        .map(|why| format!("; for a person: {}", clean_line(why, 200)))
                        .unwrap_or_default()
                )
            }
            _ => reports::reading::shown(r),
        };
        writeln!(o, "reading:  {reading}")?;
        let keys: Vec<String> = classes
            .iter()
            .map(|c| format!("{} {c}", key_of(*c)))
            .collect();
        writeln!(
            o,
            "keys: {} · s skip · q quit (decisions so far are kept)",
            keys.join(" · ")
        )?;
        o.flush()?;
        drop(o);
        let term = SingleKey::enter()?;
        loop {
            let Some(b) = term.key()? else {
                return Ok(made);
            };
            let key = char::from(b).to_ascii_lowercase();
            // q, Ctrl-C, Ctrl-D: stop; what was decided stays decided.
            if key == 'q' || b == 3 || b == 4 {
                drop(term);
                println!("quit");
                return Ok(made);
            }
            if key == 's' {
                drop(term);
                println!("skipped");
                break;
            }
            if let Some(class) = classes.iter().find(|c| key_of(**c) == key) {
                drop(term);
                let d = decision(p, *class, who, "review")?;
                if !journal::rederive_pending(out) {
                    journal::mark_rederiving(out, "review")?;
                }
                review::append(out, std::slice::from_ref(&d))?;
                remember(out, record, rows, std::slice::from_ref(&d));
                println!("→ {class} (recorded)");
                made.push(d);
                break;
            }
            if !key.is_control() {
                let ks: Vec<String> = classes.iter().map(|c| key_of(*c).to_string()).collect();
                println!(
                    "'{}' is not a key of a {} row; one of {}, s or q",
                    key.escape_default(),
                    p.kind,
                    ks.join(" ")
                );
            }
        }
    }
    Ok(made)
}

/// Refuses an export file inside a repository's work tree unless git ignores it: the corpus
/// holds the answers, and so the qset's tokens, which a repository carries to its agents.
fn refuse_in_work_tree(file: &Path) -> Result<()> {
    let abs = std::path::absolute(file)?;
    let mut dir = abs.parent().map(Path::to_path_buf);
    // The nearest folder that exists: git is asked from there.
    while let Some(d) = &dir {
        if d.is_dir() {
            break;
        }
        dir = d.parent().map(Path::to_path_buf);
    }
    let Some(dir) = dir else { return Ok(()) };
    let Ok(repo) = git2::Repository::discover(&dir) else {
        return Ok(());
    };
    let Some(work) = repo.workdir() else {
        return Ok(());
    };
    let real_dir = std::fs::canonicalize(&dir)?;
    let real_work = std::fs::canonicalize(work)?;
    let Ok(rel_dir) = real_dir.strip_prefix(&real_work) else {
        return Ok(());
    };
    let rel = rel_dir.join(abs.strip_prefix(&dir).unwrap_or(Path::new("")));
    let mut p = PathBuf::new();
    for c in rel.components() {
        p.push(c);
        if repo.is_path_ignored(&p).unwrap_or(false) {
            return Ok(());
        }
    }
    Err(Fail::new(
        Exit::Usage,
        format!(
            "--export {} is inside the work tree of the repository at {} and not git-ignored: the corpus holds the answers, and so the qset's tokens, which a repository hands to the next agent. Write it outside the repository, or git-ignore it",
            clean_line(&file.display().to_string(), 200),
            clean_line(&real_work.display().to_string(), 200)
        ),
    )
    .into())
}

/// `--export FILE`: the decided rows in the corpus format (`lexicon eval FILE` reads it; `review
/// --from FILE` reads it back, matching rows by question and answer sha256).
fn export(out: &Path, file: &Path) -> Result<Exit> {
    refuse_in_work_tree(file)?;
    let (qset, rows) = crate::commands::rescore::scored_rows(out)?;
    let qset_sha = crate::round::record::load_round(out)
        .ok()
        .and_then(|r| r.input("qset").map(|i| i.sha256.clone()))
        .unwrap_or_default();
    let mut text = String::new();
    let mut n = 0;
    for r in rows.iter().filter(|r| r.standing.decided()) {
        let Some(q) = qset.questions.iter().find(|q| q.qid == r.qid) else {
            continue;
        };
        let by = r.standing.decided_by().map_or("", |b| b.as_str());
        let stem = format!("{}_r{}", r.label, r.rep);
        let Ok(bytes) = std::fs::read(crate::round::record::dispatch_file(out, &stem, "txt"))
        else {
            continue;
        };
        let (refuses, refuses_from) = export_refuses(r.kind, r.verdict.class, || {
            let reading = crate::reading::active();
            scorer::evaluate_as(
                &reading.lexicon,
                reading.token_match,
                &bytes,
                q.kind,
                &q.token,
                q.general.as_deref(),
            )
            .has_ref
        });
        let sha = review::sha256_hex(&bytes);
        let row = serde_json::json!({
            "id": export_id(&r.label, r.rep, &r.qid, &sha),
            "kind": r.kind,
            "token": q.token,
            "general": q.general.clone().unwrap_or_default(),
            "answer": r.excerpt,
            "class": r.verdict.class,
            "refuses": refuses,
            "lang": "und",
            "decided_by": by,
            "note": format!(
                "{} {} r{}; decided by {by}; refuses {refuses_from}; qset sha256 {}",
                r.qid,
                r.arm,
                r.rep,
                qset_sha.get(..12).unwrap_or("unknown")
            ),
        });
        text.push_str(&serde_json::to_string(&row)?);
        text.push('\n');
        n += 1;
    }
    journal::write_atomic(file, text.as_bytes())?;
    println!(
        "{n} decided rows written to {}",
        clean_line(&file.display().to_string(), 200)
    );
    Ok(Exit::Ok)
}
