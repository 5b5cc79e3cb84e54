//! What a user reads, checked as a user meets it: the README, the guide (docs/), every
//! subcommand's `--help`, `explain`, and what a demo round, a judged round, a CTRL-only round, a
//! thinner hand-off's round, a gate run and a compare print. Two checks: none of it speaks of
//! the project's internals (issue numbers, design-section numbers, the prototype the tool grew
//! from), and `harness explain` knows every term it prints.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// One text a user reads, and where it came from (for the failure message).
struct Shown {
    source: String,
    text: String,
}

/// The stdout and stderr of a harness command run in `env`, with its exit code checked.
fn output(env: &TestEnv, args: &[&str], cwd: &Path, code: i32) -> String {
    let out = env
        .harness()
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "harness {args:?} in {}:\n{text}",
        cwd.display()
    );
    text
}

/// Every rounds' and commands' text the checks read, made once per test binary.
struct World {
    shown: Vec<Shown>,
    /// The gate's text table (axis and status columns are terms).
    gate_table: String,
    /// Texts whose printed terms `explain` must know: closing summaries, reports (rows and
    /// questions left out: they are the agent's and the author's words), compare.
    termed: Vec<Shown>,
    /// The words a round's whole terminal output opens its lines with (`preflight:`,
    /// `dispatches:`), the gate's part included.
    line_labels: Vec<(String, String)>,
    /// `harness lexicon eval` on the shipped corpus: its confusion table names classes short.
    lexicon_eval: String,
    /// The report.md of a CTRL-only round (no seal, no ARM arm).
    ctrl_only_report: String,
}

fn world() -> &'static World {
    static W: std::sync::OnceLock<World> = std::sync::OnceLock::new();
    W.get_or_init(build_world)
}

fn build_world() -> World {
    let env = TestEnv::kept();
    let root = env.tmp().join("manual");
    std::fs::create_dir_all(&root).unwrap();
    let demo = harness::demo::demo().unwrap();
    let project = root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    demo.build_repo(&project).unwrap();
    let qset = root.join("qset.tsv");
    let seal = root.join(demo.seal_name);
    std::fs::write(&qset, demo.qset).unwrap();
    std::fs::write(&seal, demo.seal).unwrap();
    // A thinner hand-off: the demo's without the lines that carry three positives.
    let thin = root.join("handoff-thin.md");
    let thin_text: String = String::from_utf8_lossy(demo.seal)
        .lines()
        .enumerate()
        .filter(|(i, _)| ![9, 16, 17].contains(i))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    std::fs::write(&thin, thin_text).unwrap();
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (q, sl, th, pr) = (s(&qset), s(&seal), s(&thin), s(&project));
    let out = |n: &str| s(&root.join(n));

    let mut shown = Vec::new();
    let mut termed = Vec::new();
    let mut line_labels = Vec::new();
    let mut add = |source: &str, text: String, terms: bool| {
        if terms {
            for l in labels(&text) {
                line_labels.push((source.to_string(), l));
            }
            // A round's gate table quotes the repository's lines: its terms start at the result.
            let from = text.find("── result ──").unwrap_or(0);
            termed.push(Shown {
                source: source.into(),
                text: text[from..].to_string(),
            });
        }
        shown.push(Shown {
            source: source.into(),
            text,
        });
    };

    // The demo round, twice (a compare's noise floor), one of them read by a judge whose
    // readings disagree with the lexicon on CTRL's conflict rows (CONTESTED).
    let a = out("a");
    let b = out("b");
    let t = output(
        &env,
        &["run", "--out", &a, "--reps", "1", "--quiet"],
        &root,
        0,
    );
    add("demo round (run)", t, true);
    output(
        &env,
        &["run", "--out", &b, "--reps", "1", "--quiet"],
        &root,
        0,
    );
    // B stays read by the lexicon alone: its Rows name the cues of its undetermined rows.
    let text = std::fs::read_to_string(Path::new(&b).join("report.md")).unwrap();
    add("unjudged demo round's report.md (whole)", text, false);
    // Compared before the judge reads A: the same setup is the noise floor.
    let t = output(&env, &["compare", &a, &b], &root, 0);
    add("compare", compare_without_answers(&t), true);
    let t = output(&env, &["compare", &a, &b, "--format", "md"], &root, 0);
    add("compare --format md", compare_without_answers(&t), false);
    let judge = format!(
        "command:{} reader {{prompt_file}}",
        agents_dir().join("judge.sh").display()
    );
    let t = output(&env, &["rejudge", &a, "--judge", &judge], &root, 0);
    add("demo round (rejudge)", t, true);
    for f in ["report.md", "summary.json", "ROUND_DONE", "report.html"] {
        let text = std::fs::read_to_string(Path::new(&a).join(f)).unwrap();
        let terms = f == "report.md";
        add(
            &format!("demo round's {f}"),
            report_without_answers(&text),
            terms,
        );
        if !terms {
            add(&format!("demo round's {f} (whole)"), text, false);
        }
    }

    // A thinner hand-off under --ledger report, and a CTRL-only eligibility run.
    let base = [
        "--qset",
        q.as_str(),
        "--repo",
        pr.as_str(),
        "--agent",
        "baseline-grep",
        "--reps",
        "1",
        "--quiet",
    ];
    let mut args = vec!["run", "--seal", &th, "--deliver", "--ledger", "report"];
    let c = out("c");
    args.extend(base);
    args.extend(["--out", &c]);
    let t = output(&env, &args, &root, 0);
    add("thin hand-off round (run --ledger report)", t, true);
    let e = out("e");
    let mut args = vec!["run", "--arms", "CTRL"];
    args.extend(base);
    args.extend(["--out", &e]);
    let t = output(&env, &args, &root, 0);
    add("CTRL-only round", t, true);
    let ctrl_only_report = std::fs::read_to_string(Path::new(&e).join("report.md")).unwrap();
    add(
        "CTRL-only round's report.md",
        report_without_answers(&ctrl_only_report),
        true,
    );

    // The gate, as text and as JSON.
    let gate_table = output(
        &env,
        &[
            "gate",
            "--qset",
            &q,
            "--seal",
            &sl,
            "--repo",
            &pr,
            "--phase",
            "post",
            "--verbose",
        ],
        &root,
        0,
    );
    add("gate", gate_table.clone(), false);
    let t = output(
        &env,
        &[
            "gate", "--qset", &q, "--seal", &sl, "--repo", &pr, "--phase", "post", "--format",
            "json",
        ],
        &root,
        0,
    );
    add("gate --format json", t, false);
    let lexicon_eval = output(&env, &["lexicon", "eval"], &root, 0);

    // Sealing and verifying with the built-in agent, which has no CLI version and no model.
    let manifest = out("manifest.json");
    let t = output(
        &env,
        &[
            "seal",
            "--qset",
            &q,
            "--seal",
            &sl,
            "--repo",
            &pr,
            "--agent",
            "baseline-grep",
            "--out",
            &manifest,
        ],
        &root,
        0,
    );
    add("seal (baseline-grep)", t, false);
    let t = output(&env, &["verify", "--manifest", &manifest], &root, 0);
    add("verify (baseline-grep)", t, false);
    // Review of a round nothing awaits, and a corpus exported from the judged round: its rows
    // labelled by the lexicon are set aside when the lexicon is measured against it.
    let t = output(&env, &["review", &e, "--reviewer", "newcomer"], &root, 0);
    add("review of a decided round", t, false);
    let corpus = out("decided.jsonl");
    let t = output(&env, &["review", &a, "--export", &corpus], &root, 0);
    add("review --export", t, false);
    let t = output(&env, &["lexicon", "eval", &corpus], &root, 0);
    add("lexicon eval of an exported corpus", t, false);

    // explain, whole and term by term.
    let index = output(&env, &["explain"], &root, 0);
    add("explain", index, false);
    for t in reports::glossary::TERMS {
        let text = output(&env, &["explain", t.name], &root, 0);
        add(&format!("explain {}", t.name), text, false);
    }

    // --help of every subcommand, nested ones too.
    let mut queue: Vec<Vec<String>> = vec![vec![]];
    while let Some(path) = queue.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = output(&env, &args, &root, 0);
        for sub in subcommands(&help) {
            let mut p = path.clone();
            p.push(sub);
            queue.push(p);
        }
        add(&format!("harness {} --help", path.join(" ")), help, false);
    }

    // The self-test's lane descriptions, run from the harness checkout.
    let t = output(&env, &["self-test"], &workspace_root(), 0);
    add("self-test", t, false);

    // The README, the changelog it points to, and the guide.
    for f in ["README.md", "CHANGELOG.md"] {
        add(
            f,
            std::fs::read_to_string(workspace_root().join(f)).unwrap(),
            false,
        );
    }
    for e in std::fs::read_dir(workspace_root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            add(
                &format!("docs/{}", p.file_name().unwrap().to_string_lossy()),
                std::fs::read_to_string(&p).unwrap(),
                false,
            );
        }
    }
    World {
        shown,
        gate_table,
        termed,
        line_labels,
        lexicon_eval,
        ctrl_only_report,
    }
}

/// The word an unindented terminal line opens with before its colon (`dispatches: 24 of 24`).
fn labels(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"^([a-z][a-z ]*): ").unwrap();
    text.lines()
        .filter_map(|l| re.captures(l).map(|c| c[1].to_string()))
        .collect()
}

/// The class names of `lexicon eval`'s confusion table, as its rows print them (short forms).
fn confusion_labels(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("── confusion"))
        .skip(2)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// The subcommands a `--help` lists under `Commands:` (not `help`).
fn subcommands(help: &str) -> Vec<String> {
    let Some(start) = help.find("Commands:\n") else {
        return Vec::new();
    };
    help[start + "Commands:\n".len()..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_string)
        .collect()
}

/// A report without its Questions and Rows sections (the qset author's and the agent's words).
fn report_without_answers(md: &str) -> String {
    let mut keep = true;
    let mut out = String::new();
    for l in md.lines() {
        if l.starts_with("## ") {
            keep = !(l.starts_with("## Questions") || l.starts_with("## Rows"));
        }
        if keep {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// A compare's output without the flipped items' answers and the per-item lines.
fn compare_without_answers(t: &str) -> String {
    let mut out = String::new();
    let mut keep = true;
    for l in t.lines() {
        if l.contains("flipped items") {
            keep = false;
        }
        if keep && !l.trim_start().starts_with('q') && !l.trim_start().starts_with("| q") {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// What a user must never read: an issue number, a design-section number, the prototype.
fn internal_reference(line: &str) -> Option<String> {
    let patterns = [
        r"(?i)\bissues? ?#?\d+",
        r"(?i)\bthe seed\b",
        r"(?i)\bseed's\b",
        r"(?i)\bseed-style\b",
        r"\bDESIGN\b",
        r"§",
    ];
    patterns.iter().find_map(|p| {
        regex::Regex::new(p)
            .unwrap()
            .find(line)
            .map(|m| m.as_str().to_string())
    })
}

/// What a user of an installed `harness` does not have, outside a guide's "For contributors"
/// sections: a path into the source tree (`scorer/rubric/v2.md`, `harness/src/…`), the source
/// repository as a place to look things up, the cue detector's own version number.
fn source_reference(line: &str) -> Option<String> {
    let patterns = [
        r"(?:^|[\s`(\[])((?:scorer|harness|reports|runners|tests)/[A-Za-z_.][^\s`)]*)",
        r"(?i)\bsource repository\b",
        r"(?i)\bcues \d+\.\d+",
    ];
    patterns.iter().find_map(|p| {
        regex::Regex::new(p)
            .unwrap()
            .captures(line)
            .map(|c| c.get(1).unwrap_or(c.get(0).unwrap()).as_str().to_string())
    })
}

/// The lines of a text outside its "For contributors" sections (a section runs to the next
/// heading of its level or above), numbered from 1.
fn outside_contributors(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut skip_level: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let level = line.chars().take_while(|c| *c == '#').count();
        if level > 0 && line[level..].starts_with(' ') {
            if skip_level.is_some_and(|l| level <= l) {
                skip_level = None;
            }
            if skip_level.is_none() && line.to_lowercase().contains("for contributors") {
                skip_level = Some(level);
            }
        }
        if skip_level.is_none() {
            out.push((i + 1, line));
        }
    }
    out
}

#[test]
fn nothing_a_user_reads_speaks_of_the_projects_internals() {
    let w = world();
    let mut hits = Vec::new();
    for s in &w.shown {
        // The guide, the README, the changelog, `--help` and `explain` are the tool's own words:
        // no source paths there either (outside the contributors' sections).
        let own_words = s.source.starts_with("docs/")
            || s.source == "README.md"
            || s.source == "CHANGELOG.md"
            || s.source.starts_with("harness ")
            || s.source.starts_with("explain");
        if own_words {
            for (n, line) in outside_contributors(&s.text) {
                // The changelog's measurement tables name the corpus files as `lexicon eval`
                // prints them; its prose is checked like the rest.
                let table_row = s.source == "CHANGELOG.md" && line.starts_with('|');
                // The changelog is the cue detector's release history.
                let versions_ok = s.source == "CHANGELOG.md";
                if let Some(m) = source_reference(line) {
                    let a_version = versions_ok && m.to_lowercase().starts_with("cues");
                    if !table_row && !a_version {
                        hits.push(format!("{}:{n}: `{m}` in {:?}", s.source, line.trim()));
                    }
                }
            }
        }
        for (i, line) in s.text.lines().enumerate() {
            if let Some(m) = internal_reference(line) {
                hits.push(format!(
                    "{}:{}: `{m}` in {:?}",
                    s.source,
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "internal references where a user reads them:\n{}",
        hits.join("\n")
    );
    // What was read: every subcommand's help, the guide, a judged report.
    let sources: Vec<&str> = w.shown.iter().map(|s| s.source.as_str()).collect();
    for must in [
        "harness run --help",
        "harness lexicon eval --help",
        "docs/reports.md",
        "docs/readers.md",
        "CHANGELOG.md",
        "explain HUI",
    ] {
        assert!(sources.contains(&must), "{must} not read: {sources:?}");
    }
    assert!(
        w.shown
            .iter()
            .any(|s| s.source == "demo round's report.md" && s.text.contains("## Readers")),
        "the judged report has no Readers section"
    );
}

/// The terms one printed text uses: runs of capitalised words (`NOISE FLOOR`, `PRIOR_WON`),
/// `snake_case` field names, the labels of report tables and the qualifiers in their
/// parentheses, the header's field names, and what a verdict is qualified with (`not claimed`).
fn printed_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    let caps =
        regex::Regex::new(r"\b[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)*(?: [A-Z][A-Z0-9]+)*\b").unwrap();
    let snake = regex::Regex::new(r"\b[a-z]+(?:_[a-z]+)+\b").unwrap();
    let qualifier = regex::Regex::new(r"\((?:ARM|CTRL), ([a-z][a-z ]+)\)").unwrap();
    let verdict_paren =
        regex::Regex::new(r"\b(?:OK|FINDING|VOID|NEEDS_REVIEW) \(([a-z][a-z ]+)\)").unwrap();
    let header = regex::Regex::new(r"^- \*\*([a-z][a-z ]*)\*\*:").unwrap();
    // A section's name, without its watermark and what its parentheses or colon add
    // (`## [VOID] Conflict (CTRL): the control's survival line` names `Conflict`).
    let heading = regex::Regex::new(r"^#{2,3} (?:\[[A-Z_]+\] )?(.+?)(?: \(| = |:|$)").unwrap();
    // The design line's isolation level and checkout method (`isolation full · checkout
    // overlay`, `isolation partial: missing userns`), and those two words themselves.
    let design = regex::Regex::new(r"\b(isolation|checkout) ([A-Za-z]+)").unwrap();
    let qid = regex::Regex::new(r"^q\d+$").unwrap();
    // A placeholder may be cut before its `}` where an excerpt ends mid-word ("{prompt_fil…"),
    // at a length that depends on the checkout's path.
    // Paths are data too: a temp folder's random name (`env-RA24U8`) is no term.
    let code = regex::Regex::new(r"`[^`]*`|\{[a-z_]+\}?|/[^\s]*").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // A table's header row (the line above its `|---|`) names columns, not numbers.
        if lines.get(i + 1).is_some_and(|n| n.starts_with("|---")) {
            continue;
        }
        // Code spans and `{placeholders}` are data (start orders, commands), not terms.
        let plain = code.replace_all(&line.replace("\\_", "_"), "").into_owned();
        for m in caps.find_iter(&plain) {
            terms.push(m.as_str().to_string());
        }
        for m in snake.find_iter(&plain) {
            terms.push(m.as_str().to_string());
        }
        for re in [&qualifier, &verdict_paren, &header, &heading] {
            for c in re.captures_iter(&plain) {
                terms.push(c[1].trim().to_string());
            }
        }
        if plain.starts_with("- **design**:") {
            // Both the word alone and with its field (`partial` alone is the gate's).
            for c in design.captures_iter(&plain) {
                terms.push(c[1].to_string());
                terms.push(c[2].to_string());
                terms.push(format!("{} {}", &c[1], &c[2]));
            }
        }
        // A report table's first cell is the number's label.
        if let Some(rest) = plain.strip_prefix("| ") {
            // A one-cell row (`positive · cost: not reported …`) names its term before the colon.
            let cell = rest.split(" | ").next().unwrap_or("").trim();
            let cell = if cell.ends_with('|') {
                cell.split(':').next().unwrap_or("")
            } else {
                cell
            };
            let label = ["positive · ", "negative · ", "conflict · "]
                .iter()
                .find_map(|k| cell.strip_prefix(k))
                .unwrap_or(cell)
                .trim();
            let is_qid = qid.is_match(label);
            if !label.is_empty() && !is_qid && !label.starts_with('`') && !label.starts_with('-') {
                terms.push(label.to_string());
            }
        }
    }
    terms
}

/// Whether `explain` knows a printed term: the term itself, or without its arm in parentheses
/// (`DELIVERY (ARM)`), its kind in front (`positive McNemar (exact)`) or its table-label words.
fn known(term: &str) -> bool {
    let find = |t: &str| reports::glossary::find(t).is_some();
    if find(term) {
        return true;
    }
    // A sentence's article is no part of the term (`A PASS is not proof …`).
    if let Some(rest) = term.strip_prefix("A ").or_else(|| term.strip_prefix("An ")) {
        if find(rest) {
            return true;
        }
    }
    let mut t = term.to_string();
    for suffix in [" (exact)", " (ARM)", " (CTRL)"] {
        t = t.trim_end_matches(suffix).to_string();
    }
    if let Some(i) = t.find(" (") {
        t.truncate(i);
    }
    for kind in ["positive ", "negative ", "conflict "] {
        if let Some(rest) = t.strip_prefix(kind) {
            if find(rest) {
                return true;
            }
        }
    }
    find(&t)
}

/// Words of the commands' output a new user looked up in `explain` (lower-case, so the
/// collection of capitalised terms above does not find them).
const LOOKED_UP: &[&str] = &[
    "cannot be quoted as what the hand-off delivered",
    "cannot be quoted as the hand-off's effect either",
    "the repository's own value",
    "‹general›",
    "sealed design",
    "offline stand-in",
    "nothing awaits review",
    "not counted",
    "visible names",
    "order-statistic",
    "effective sample size",
    "Wilson",
    "ask-back",
    "instrument survival line",
    "the control's survival line",
    "await review",
    "awaits review",
    "--ledger report",
    "scorer_fingerprint",
    "UNDETERMINED (guess",
    "token match word",
    "‹Nch›",
    "carried by the hand-off",
    "no reading",
    "whole range",
    "smallest reachable",
    "agent default",
    "n_kg",
    "teardown",
    "attempts",
    "descriptive only",
    "McNemar underpowered",
    "Longpre",
    "arms both",
    "agent_version",
];

/// Words every computing reader knows, or that name files and formats, not the tool's terms.
const NOT_TERMS: [&str; 9] = [
    "JSON", "HTML", "TSV", "CSV", "UTC", "KB", "MB", "SHA", "CLI",
];

#[test]
fn explain_knows_every_term_the_commands_print() {
    let w = world();
    let mut unknown: Vec<String> = Vec::new();
    let mut all: Vec<(String, String)> = Vec::new();
    for s in &w.termed {
        for t in printed_terms(&s.text) {
            all.push((s.source.clone(), t));
        }
    }
    // The gate's axes and statuses.
    for line in w
        .gate_table
        .lines()
        .skip_while(|l| !l.starts_with("axis "))
        .skip(1)
    {
        let mut cols = line.split_whitespace();
        if line.starts_with(' ') || line.starts_with("gate:") {
            continue;
        }
        if let (Some(axis), Some(status)) = (cols.next(), cols.next()) {
            all.push(("gate".into(), axis.to_string()));
            // A status is looked up as the gate's word first (`pass (gate)`).
            let gate_word = format!("{status} (gate)");
            let status = if reports::glossary::find(&gate_word).is_some() {
                gate_word
            } else {
                status.to_string()
            };
            all.push(("gate".into(), status));
        }
    }
    for (source, l) in &w.line_labels {
        all.push((source.clone(), l.clone()));
    }
    for c in confusion_labels(&w.lexicon_eval) {
        all.push(("lexicon eval's confusion table".into(), c));
    }
    // The cues an undetermined row is printed with (`cues: hedge_at_token`), from the whole
    // report (its Rows section included): each is looked up by its own name.
    let cue_list = regex::Regex::new(r"cues: ([a-z_, ]+)").unwrap();
    for s in w
        .shown
        .iter()
        .filter(|s| s.source.ends_with("(whole)") || s.source.contains("report.md"))
    {
        for c in cue_list.captures_iter(&s.text.replace("\\_", "_")) {
            for cue in c[1].split(", ").map(str::trim).filter(|c| !c.is_empty()) {
                all.push((s.source.clone(), cue.to_string()));
            }
        }
    }
    // Words a new user met in what the commands print and looked up: each is printed
    // somewhere read here (else this list is stale), and `explain` knows it.
    let mut stale: Vec<&str> = Vec::new();
    for phrase in LOOKED_UP {
        let printed = |s: &&Shown| {
            !s.source.starts_with("explain")
                && !s.source.starts_with("docs/")
                && !s.source.starts_with("harness ")
                && s.source != "README.md"
                && s.text.to_lowercase().contains(&phrase.to_lowercase())
        };
        match w.shown.iter().find(printed) {
            Some(at) => all.push((at.source.clone(), phrase.to_string())),
            None => stale.push(phrase),
        }
    }
    assert!(
        stale.is_empty(),
        "printed by no command read here: {stale:?}"
    );
    // The new words are printed where the guide says: seal and verify of the built-in agent,
    // review of a decided round, lexicon eval of a corpus `review --export` wrote.
    for (source, phrase) in [
        ("seal (baseline-grep)", "offline stand-in"),
        ("verify (baseline-grep)", "offline stand-in"),
        ("review of a decided round", "nothing awaits review"),
        ("lexicon eval of an exported corpus", "not counted"),
        ("compare", "sealed design"),
    ] {
        let text = &w.shown.iter().find(|s| s.source == source).unwrap().text;
        assert!(
            text.contains(phrase),
            "{source} does not say {phrase:?}:\n{text}"
        );
    }
    for (source, t) in &all {
        if t.chars().count() < 2 || NOT_TERMS.contains(&t.as_str()) || known(t) {
            continue;
        }
        let entry = format!("{t:?} (from {source})");
        if !unknown.contains(&entry) {
            unknown.push(entry);
        }
    }
    assert!(
        unknown.is_empty(),
        "`harness explain` does not know these printed terms:\n{}",
        unknown.join("\n")
    );
    // The terms the issue named are among those collected, so the collection is not empty-handed.
    let collected: Vec<&str> = all.iter().map(|(_, t)| t.as_str()).collect();
    for must in [
        "token-shape",
        "general-values",
        "self-containment",
        "name-leak",
        "plant-folder",
        "NOISE FLOOR",
        "decided_by",
        "carried positives",
        "not claimed",
        "Answer paths",
        "preflight",
        "dispatches",
        "isolation",
        "checkout",
        "C_FOL",
        "ABST",
        "hedge_at_token",
    ] {
        assert!(collected.contains(&must), "{must} was not collected");
    }
}

/// A word `explain` does not know is named as an unknown term, with the closest names and how
/// to list every term; exit 2 (usage), and never the generic exit line about qsets and flags.
#[test]
fn explain_says_plainly_that_a_word_is_not_a_term() {
    let env = TestEnv::new();
    let out = env
        .harness()
        .args(["explain", "HUII"])
        .env("NO_COLOR", "1")
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown term 'HUII'"), "{err}");
    assert!(err.contains("did you mean HUI"), "{err}");
    assert!(
        err.contains("`harness explain` with no term lists every term"),
        "{err}"
    );
    assert!(!err.contains("qset"), "the generic exit line: {err}");
    assert!(out.stdout.is_empty());
    // A word with nothing close still says how to list every term.
    let out = env
        .harness()
        .args(["explain", "zzzzqqqq"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown term 'zzzzqqqq'"), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.contains("lists every term"), "{err}");
    assert!(!err.contains("malformed"), "{err}");
}

/// A CTRL-only round, run as the guide says (the qset, no seal, `--arms CTRL`), claims nothing
/// of a seal: its ledger line says it does not apply, and its conflict label is withheld because
/// the round has no ARM arm.
#[test]
fn a_ctrl_only_round_claims_nothing_of_a_seal() {
    let md = &world().ctrl_only_report;
    assert!(md.contains("- **seal**: none (CTRL-only round)"), "{md}");
    assert!(
        md.contains("- **ledger**: does not apply: no seal was given (a CTRL-only round)"),
        "{md}"
    );
    assert!(!md.contains("the seal carries every"), "{md}");
    assert!(
        md.contains("because no ARM arm in this round: a CTRL-only round"),
        "{md}"
    );
    assert!(!md.contains("no ARM conflict rows"), "{md}");
}

/// Words a new user met in the README, the guide and the output and looked up: each has an
/// entry (or an alias leading to one) that opens with the right name, and entries list no alias
/// twice. A removed entry or alias fails here.
#[test]
fn explain_knows_the_words_a_new_user_looked_up() {
    let env = TestEnv::new();
    let explain = |word: &str| {
        let out = env
            .harness()
            .args(["explain", word])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            out.status.code(),
            Some(0),
            "explain {word}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    // (word, the entry it must open)
    for (word, entry) in [
        ("known-positive", "known-positive"),
        ("known negative", "known-positive"),
        ("item", "item"),
        ("row", "row"),
        ("rep", "rep"),
        ("reps", "rep"),
        ("phase", "phase"),
        ("pre", "phase"),
        ("post", "phase"),
        ("Fisher", "Fisher"),
        ("lexicon", "lexicon"),
        ("label", "label"),
        ("planted", "planted"),
        ("deliver", "mode"),
        ("discover", "mode"),
        ("mode", "mode"),
        ("searched entries", "searched entries"),
        ("prompt texts", "prompt texts"),
        ("journal", "journal"),
        ("out-dir", "out-dir"),
        ("TAMPERED", "TAMPERED"),
        ("und", "lang"),
        ("lang", "lang"),
        ("asserted prior", "the repository's own value"),
        ("the repository's own value", "the repository's own value"),
        ("known pairs", "known pairs"),
        ("context sensitivity", "D"),
        ("item family", "Holm"),
        ("discordant", "McNemar"),
        ("zero-tolerance", "zero-tolerance rule"),
        ("fired by", "zero-tolerance rule"),
        ("reused", "reused decision"),
        ("manifest", "manifest"),
        ("items", "items"),
        ("label withheld", "cannot be quoted"),
        ("cannot be quoted", "cannot be quoted"),
        ("sign test", "sign test"),
        ("baseline-grep", "baseline-grep"),
        ("record, not a citation", "cannot be quoted"),
        ("DELIVERY from the hand-off?", "DELIVERY"),
        ("sealed", "sealed"),
        ("not counted", "not counted"),
        ("nothing awaits review", "nothing awaits review"),
        ("offline stand-in", "offline stand-in"),
        ("‹general›", "‹general›"),
        ("‹token›", "‹token›"),
        ("visible names", "visible names"),
        ("plant folder", "plant folder"),
        ("fingerprint", "fingerprint"),
        ("Wilson", "Wilson"),
        ("order-statistic", "order-statistic"),
        ("effective sample size", "effective sample size"),
        ("ask-back", "CLARIFY"),
        ("survival", "instrument survival line"),
        ("the control's survival line", "control's survival line"),
        ("brief", "brief"),
        ("await review", "await review"),
        ("ledger report", "ledger report"),
        ("addressed_to_grader", "addressed_to_grader"),
        ("carried by the hand-off", "carried by the hand-off"),
        (
            "overconfidence caused by the hand-off",
            "carried by the hand-off",
        ),
        ("guess", "guess"),
        ("guess FAIL", "guess"),
        ("whole range", "whole range"),
        ("smallest reachable", "smallest reachable"),
        ("MIXED", "MIXED"),
        ("no reading", "no reading"),
        ("ETA", "ETA"),
        ("n_kg", "n_kg"),
        ("token match word", "token match"),
        ("‹Nch›", "‹Nch›"),
        ("‹8ch›", "‹Nch›"),
        ("agent default", "agent default"),
        ("UNDET", "UNDETERMINED"),
        ("survival line", "instrument survival line"),
        ("VOID", "VOID"),
        ("power", "power"),
        ("smallest detectable difference", "power"),
        ("teardown", "per dispatch"),
        ("attempts", "attempts"),
        ("eligibility", "eligibility"),
        ("reviewed by", "reviewed by"),
        ("usage.json", "usage.json"),
        ("arms", "arms"),
        ("agent_version", "agent_version"),
        ("McNemar underpowered", "McNemar"),
        ("descriptive only", "descriptive only"),
        ("Longpre", "MR"),
        ("reused decision", "reused decision"),
    ] {
        let text = explain(word);
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("{entry} (")),
            "explain {word} should open the {entry} entry:\n{text}"
        );
        if let Some(also) = text.lines().find_map(|l| l.trim().strip_prefix("also: ")) {
            let aliases: Vec<&str> = also.split(", ").collect();
            let mut unique = aliases.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(aliases.len(), unique.len(), "explain {word}: {also}");
        }
    }
    // Entries a new user found contradicting the tool: searched entries is no gate axis; a
    // reused decision can come from the same round; the noise floor leaves effort out; a
    // rejudge restores `match` only when the seal named a judge.
    let searched = explain("searched entries");
    assert!(
        searched.starts_with("searched entries (a setup word)"),
        "{searched}"
    );
    assert!(explain("reused decision").contains("from the same round"));
    let noise = explain("NOISE FLOOR");
    assert!(
        noise.contains("wall time") && noise.contains("never part of it"),
        "{noise}"
    );
    let changed = explain("JUDGE_CHANGED");
    assert!(
        changed.contains("restores `match`") && changed.contains("there is no `--judge none`"),
        "{changed}"
    );
    // Words printed for two things say both, apart.
    let void = explain("VOID");
    assert!(
        void.contains("(1) The round verdict VOID") && void.contains("(2) The answer class VOID"),
        "{void}"
    );
    let survival = explain("survival line");
    assert!(
        survival.contains("printed for two things")
            && survival.contains("HUI (CTRL)")
            && survival.contains("control's survival line"),
        "{survival}"
    );
    // What the entries say, where the user was misled.
    let prompts = explain("prompt texts");
    assert!(prompts.contains("two fewer"), "{prompts}");
    let sign = explain("sign test");
    assert!(sign.contains("count against"), "{sign}");
    assert!(!sign.contains("carry no sign"), "{sign}");
    let grep = explain("baseline-grep");
    assert!(grep.contains("at least half"), "{grep}");
    // Renamed words say what they were renamed to, and the noise floor names the sealed design.
    let prior = explain("asserted prior");
    assert!(prior.contains("renamed"), "{prior}");
    let floor = explain("NOISE FLOOR");
    assert!(floor.contains("sealed design"), "{floor}");
    assert!(floor.contains("never a noise floor"), "{floor}");
    // Near misses suggest near words, never an unrelated two-letter code.
    for (word, want, never) in [
        ("rowz", "row", ["R1", "OK"]),
        ("repz", "rep", ["R2", "R3"]),
        ("tampred", "TAMPERED", ["R1", "D"]),
    ] {
        let out = env
            .harness()
            .args(["explain", word])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().next().unwrap_or("");
        let names: Vec<&str> = line
            .split("did you mean ")
            .nth(1)
            .unwrap_or("")
            .trim_end_matches('?')
            .split(", ")
            .collect();
        assert_eq!(names.first(), Some(&want), "{err}");
        for n in never {
            assert!(!names.contains(&n), "explain {word} suggests {n}: {err}");
        }
    }
}

/// What the help promises is what the commands do: `compare --help` does not promise a
/// per-item test that compare's output says it does not run, and every verdict word the
/// troubleshooting page files under an exit code (`exit 10`: TAMPERED) is on that code's line of
/// the exit table `--help` prints.
#[test]
fn help_and_guide_promise_what_the_commands_do() {
    let w = world();
    let text_of = |source: &str| {
        &w.shown
            .iter()
            .find(|s| s.source == source)
            .unwrap_or_else(|| panic!("{source} not read"))
            .text
    };
    let compared = text_of("compare");
    let help = text_of("harness compare --help");
    assert!(compared.contains("no per-item test"), "{compared}");
    for promise in ["per-item p", "Holm"] {
        assert!(
            !help.contains(promise),
            "compare --help promises {promise:?}, which compare does not print:\n{help}"
        );
    }
    assert!(help.contains("no per-item test"), "{help}");

    let top = text_of("harness  --help");
    let table: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Exit codes:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    let page = std::fs::read_to_string(workspace_root().join("docs/troubleshooting.md")).unwrap();
    let heading = regex::Regex::new(r"\*\*`exit (\d+)`: ([A-Z][A-Z_]+)\.\*\*").unwrap();
    let mut checked = 0;
    for c in heading.captures_iter(&page) {
        let (code, word) = (&c[1], &c[2]);
        let lines: Vec<&&str> = table
            .iter()
            .filter(|l| l.split_whitespace().next() == Some(code))
            .collect();
        assert!(
            lines.iter().any(|l| l.contains(word)),
            "troubleshooting.md files {word} under exit {code}; the exit table says {lines:?}"
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} verdict headings checked");
}

/// The guide says what the code does where a new user checked it: the walkthrough's CTRL-only
/// step prints `OK (not claimed)` and the README says what that means there; McNemar's two
/// small-sample thresholds (where p < 0.05 first becomes possible, and where the report stops
/// calling it underpowered) are the code's, both stated, in the guide and in `explain`.
#[test]
fn the_guide_states_the_outputs_and_thresholds_the_code_has() {
    let w = world();
    let ctrl_only = &w
        .shown
        .iter()
        .find(|s| s.source == "CTRL-only round")
        .expect("the CTRL-only round was read")
        .text;
    assert!(ctrl_only.contains("OK (not claimed)"), "{ctrl_only}");
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let step = readme
        .split("### ")
        .find(|s| s.contains("--arms CTRL"))
        .expect("the README's CTRL-only step");
    assert!(
        step.contains("`OK (not claimed)`") && step.contains("no rule about the hand-off"),
        "the README's CTRL-only step does not say what OK (not claimed) means:\n{step}"
    );

    // The first b+c at which the exact McNemar can reach p < 0.05, from the code.
    let reachable = (1..20)
        .find(|n| {
            reports::stats::mcnemar_exact(*n, 0)
                .min_p
                .is_some_and(|p| p < 0.05)
        })
        .unwrap();
    let underpowered = reports::summary::SMALL_SAMPLE;
    assert!(reachable < underpowered);
    let first = format!("b+c = {reachable}");
    let second = format!("b+c = {underpowered}");
    let mcnemar = reports::glossary::find("McNemar").unwrap().means;
    for (source, text) in [
        (
            "docs/compare.md",
            std::fs::read_to_string(workspace_root().join("docs/compare.md")).unwrap(),
        ),
        (
            "docs/reports.md",
            std::fs::read_to_string(workspace_root().join("docs/reports.md")).unwrap(),
        ),
        ("explain McNemar", mcnemar.to_string()),
    ] {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(&first) && flat.contains(&second) && flat.contains("underpowered"),
            "{source} does not state both McNemar thresholds ({first}, {second})"
        );
    }
}
