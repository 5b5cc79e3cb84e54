//! One file per command that has more than a screen of logic (`compare`, `explain`, `lexicon`,
//! `rejudge`, `rescore` and `report`, `review`, `self-test`); the smaller ones live here:
//! `score`, `gate`, `seal`, `verify`, `doctor`, and the hidden agent entry. `run`, `plan`, `unit`
//! and `collect` are the round's steps (`crate::round`, `crate::units`).

pub mod compare;
pub mod explain;
pub mod judge_eval;
pub mod lexicon;
pub mod rejudge;
pub mod rescore;
pub mod review;
pub mod selftest;

use crate::demo;
use crate::exit::{Exit, Fail};
use crate::gates::manifest::{self, BaseStamp, Input, Manifest, Role, ScorerStamp};
use crate::gates::start::{self as gate, GateInput, Phase};
use crate::round::plan::{load_qset, resolve_base};
use crate::text::clean_line;
use anyhow::{Context, Result};
use scorer::Kind;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What `harness score` reads: answer files that all answer one question, or a JSONL batch in
/// which each answer carries its own question.
pub enum ScoreInput<'a> {
    /// `--kind`, `--token`, `--general` and the files.
    Files {
        /// The question kind.
        kind: Kind,
        /// The token.
        token: &'a str,
        /// The true value of a conflict item.
        general: Option<&'a str>,
        /// The answer files (`-` is stdin).
        files: &'a [PathBuf],
    },
    /// `--batch FILE` (`-` is stdin).
    Batch(&'a Path),
}

/// One answer `score` reads: its name in the output, its question and its bytes.
struct Scored<'a> {
    /// `("file", name)`, `("line", n)` with an id, or nothing for a lone file.
    label: Label,
    kind: Kind,
    token: &'a str,
    general: Option<&'a str>,
    question: Option<&'a str>,
    bytes: &'a [u8],
}

enum Label {
    Lone,
    File(String),
    Line(usize, Option<String>),
}

/// Classifies answers and prints one verdict per answer, in input order. One answer file prints
/// the bare class (or one JSON object); several print `<file>\t<class>`; a batch prints
/// `<id or line>\t<class>`. Every input is read and checked before the first line is printed,
/// so a bad one leaves no partial output. In text, names are cleaned so they cannot add lines or
/// columns; JSON carries them as they are (its escaping keeps the structure). With a judge,
/// every non-empty answer is also read by it (`judge_jobs` at once) and the row's class follows
/// the decision rule ([`reports::reading::decide`]), with `decided_by` in JSON.
pub fn score(
    input: ScoreInput<'_>,
    question: Option<&str>,
    judge: Option<&crate::reading::judge::Judge>,
    judge_jobs: usize,
    json: bool,
) -> Result<Exit> {
    let reading = crate::reading::active();
    let lexicon = |bytes: &[u8], kind: Kind, token: &str, general: Option<&str>| {
        scorer::evaluate_as(
            &reading.lexicon,
            reading.token_match,
            bytes,
            kind,
            token,
            general,
        )
    };
    let answers;
    let batch;
    let mut items: Vec<Scored<'_>> = Vec::new();
    match input {
        ScoreInput::Files {
            kind,
            token,
            general,
            files,
        } => {
            if token.is_empty() {
                return Err(Fail::new(Exit::Usage, "--token must not be empty").into());
            }
            if files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
                return Err(Fail::new(Exit::Usage, "stdin (`-`) can be read only once").into());
            }
            answers = files
                .iter()
                .map(|f| read_answer_input(f, "answer file"))
                .collect::<Result<Vec<_>>>()?;
            let one = files.len() == 1;
            for (file, bytes) in files.iter().zip(&answers) {
                items.push(Scored {
                    label: if one {
                        Label::Lone
                    } else {
                        Label::File(file.display().to_string())
                    },
                    kind,
                    token,
                    general,
                    question,
                    bytes,
                });
            }
        }
        ScoreInput::Batch(path) => {
            batch = read_batch(path)?;
            for n in &batch {
                let r = &n.row;
                items.push(Scored {
                    label: Label::Line(n.line, r.id.clone()),
                    kind: r.kind,
                    token: &r.token,
                    general: r.general.as_deref(),
                    question: r.question.as_deref(),
                    bytes: r.answer.as_bytes(),
                });
            }
        }
    }
    let evidence: Vec<scorer::Evidence> = items
        .iter()
        .map(|i| lexicon(i.bytes, i.kind, i.token, i.general))
        .collect();
    let calls: Vec<Option<crate::reading::judge::JudgeCall>> = match judge {
        None => items.iter().map(|_| None).collect(),
        Some(j) => judge_all(j, &items, &evidence, judge_jobs),
    };
    let mut lines = Vec::new();
    for ((item, ev), call) in items.iter().zip(&evidence).zip(&calls) {
        let row = Decision::of(ev, call.as_ref());
        lines.push(if json {
            let mut v = evidence_json(ev, &row, call.as_ref());
            match &item.label {
                Label::Lone => {}
                Label::File(name) => v["file"] = name.as_str().into(),
                Label::Line(line, id) => {
                    v["line"] = (*line).into();
                    if let Some(id) = id {
                        v["id"] = id.as_str().into();
                    }
                }
            }
            v.to_string()
        } else {
            let shown = row.shown(ev);
            match &item.label {
                Label::Lone => shown,
                Label::File(name) => format!("{}\t{shown}", clean_line(name, 200)),
                Label::Line(line, id) => {
                    let label = id.as_deref().map(|id| clean_line(id, 200));
                    format!("{}\t{shown}", label.unwrap_or_else(|| line.to_string()))
                }
            }
        });
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in &lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(Exit::Ok)
}

/// Every non-empty answer read by the judge, `jobs` calls at once, in input order. An empty
/// answer is `VOID` with certainty and is never sent.
fn judge_all(
    judge: &crate::reading::judge::Judge,
    items: &[Scored<'_>],
    evidence: &[scorer::Evidence],
    jobs: usize,
) -> Vec<Option<crate::reading::judge::JudgeCall>> {
    let sent: Vec<usize> = (0..items.len())
        .filter(|&i| evidence[i].verdict.class != scorer::Class::Void)
        .collect();
    let asks: Vec<(scorer::rubric::Item<'_>, String)> = sent
        .iter()
        .map(|&i| {
            let item = &items[i];
            (
                scorer::rubric::Item {
                    kind: item.kind,
                    question: item.question.unwrap_or("(not given)"),
                    token: item.token,
                    general: item.general,
                },
                String::from_utf8_lossy(item.bytes).into_owned(),
            )
        })
        .collect();
    let mut calls: Vec<Option<crate::reading::judge::JudgeCall>> =
        items.iter().map(|_| None).collect();
    for (i, call) in sent.into_iter().zip(judge.read_all(&asks, jobs)) {
        calls[i] = Some(call);
    }
    calls
}

/// One row's decision: the class it carries and who decided it.
struct Decision {
    class: scorer::Class,
    standing: reports::reading::Standing,
}

impl Decision {
    fn of(ev: &scorer::Evidence, call: Option<&crate::reading::judge::JudgeCall>) -> Decision {
        let cues: Vec<String> = ev.cues.iter().map(|c| c.as_str().to_string()).collect();
        let judged = call.and_then(|c| c.reading.as_ref()).map(|j| j.class);
        let (class, standing) = reports::reading::decide(
            ev.verdict.class,
            ev.certain(),
            &cues,
            judged,
            ev.for_person().as_deref(),
        );
        Decision { class, standing }
    }

    /// The class as printed: the decided class (with `TYPED_` when the answer was typed),
    /// `UNDETERMINED guess=… cues=…` or `CONTESTED lexicon=… judge=…`.
    fn shown(&self, ev: &scorer::Evidence) -> String {
        use reports::reading::Standing;
        let typed = if ev.verdict.typed { "TYPED_" } else { "" };
        match &self.standing {
            Standing::Decided { .. } => format!("{typed}{}", self.class),
            Standing::Undetermined { cues, for_person } => format!(
                "{UNDETERMINED} guess={} cues={}{}",
                ev.verdict,
                cues.join(","),
                for_person
                    .as_deref()
                    .map(|why| format!(" for a person: {}", clean_line(why, 200)))
                    .unwrap_or_default()
            ),
            Standing::Contested { judge } => {
                format!("CONTESTED lexicon={} judge={judge}", ev.verdict)
            }
        }
    }
}

/// A JSONL batch read and parsed; errors name the file (`<stdin>` for `-`) and line.
fn read_batch(path: &Path) -> Result<Vec<scorer::batch::Numbered>> {
    let bytes = read_answer_input(path, "batch file")?;
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Fail::new(
            Exit::Usage,
            format!("{name}:{line}: not a batch row: not UTF-8"),
        )
    })?;
    scorer::batch::parse(&name, text).map_err(|e| Fail::new(Exit::Usage, e.to_string()).into())
}

/// A file's bytes, or stdin's for `-`; an unreadable file is a usage error naming it.
fn read_answer_input(file: &Path, what: &str) -> Result<Vec<u8>> {
    if file == Path::new("-") {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .with_context(|| format!("reading the {what} from stdin"))?;
        return Ok(b);
    }
    std::fs::read(file)
        .map_err(|e| Fail::new(Exit::Usage, format!("{what} {}: {e}", file.display())).into())
}

/// The evidence behind one verdict as JSON: the decided class (or `UNDETERMINED` /
/// `CONTESTED`), who decided it, the lexicon's evidence and the judge's call when there was one.
fn evidence_json(
    ev: &scorer::Evidence,
    row: &Decision,
    call: Option<&crate::reading::judge::JudgeCall>,
) -> serde_json::Value {
    use reports::reading::Standing;
    let class = match &row.standing {
        Standing::Decided { .. } => row.class.as_str(),
        Standing::Undetermined { .. } => UNDETERMINED,
        Standing::Contested { .. } => "CONTESTED",
    };
    let mut v = serde_json::json!({
        "class": class,
        "verdict": row.shown(ev),
        "decided_by": row.standing.decided_by().map(|d| d.as_str()),
        "typed": ev.verdict.typed,
        "has_tok": ev.has_tok,
        "has_ref": ev.has_ref,
        "refusal_match": ev.refusal_match,
        "clarify": ev.clarify,
        "lexicon": ev.verdict.class.as_str(),
        "lexicon_certain": ev.certain(),
    });
    // Why a conflict row naming the planted value reads PRIOR_WON: the choice reading.
    if ev.chose_general {
        v["chose_general"] = true.into();
    }
    // Why a positive row with a refusal reads PASS: the aside reading.
    if ev.refused_aside {
        v["refused_aside"] = true.into();
    }
    if !ev.certain() {
        v["guess"] = ev.verdict.class.as_str().into();
        v["cues"] = ev
            .cues
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .into();
    }
    if let Some(why) = ev.for_person() {
        v["for_person"] = clean_line(&why, 300).into();
    }
    if let Some(call) = call {
        v["judge"] = serde_json::to_value(call).unwrap_or(serde_json::Value::Null);
    }
    v
}

/// The class of a row no reader could decide: never a pass or a fail.
pub const UNDETERMINED: &str = "UNDETERMINED";

/// Inputs shared by `gate` and `seal`.
pub struct GateArgs<'a> {
    /// The qset file.
    pub qset: &'a Path,
    /// The seal file.
    pub seal: Option<&'a Path>,
    /// `--repo`.
    pub repo: Option<&'a Path>,
    /// `--base-ref`.
    pub base_ref: Option<&'a str>,
    /// `--base-sha`.
    pub base_sha: Option<&'a str>,
    /// pre or post.
    pub phase: Phase,
    /// `--plant-dir`.
    pub plant_dir: &'a str,
    /// Protocol text, searched like the tree.
    pub protocol: Option<&'a Path>,
    /// `--ledger`: a positive the seal does not carry is refused or listed.
    pub ledger: crate::options::LedgerMode,
    /// `--verbose`: the token-shape list in full, even for a qset this state folder saw.
    pub verbose: bool,
}

/// What a gate run saw: its report, the base, and the bytes it judged (so `seal` hashes exactly
/// what the gate read).
pub struct GateRun {
    /// The axes.
    pub report: gate::GateReport,
    /// The resolved base.
    pub base: runners::Base,
    /// The qset bytes.
    pub qset_bytes: Vec<u8>,
    /// The seal bytes, when given.
    pub seal_bytes: Option<Vec<u8>>,
    /// The protocol bytes, when given.
    pub protocol_bytes: Option<Vec<u8>>,
}

/// Runs the gate and prints its table.
pub fn run_gate(a: &GateArgs<'_>) -> Result<GateRun> {
    let (qset, qset_bytes) = load_qset(a.qset)?;
    let seal_bytes = match a.seal {
        Some(p) => Some(
            std::fs::read(p)
                .map_err(|e| Fail::new(Exit::Usage, format!("seal {}: {e}", p.display())))?,
        ),
        None => None,
    };
    if a.phase == Phase::Post && a.seal.is_none() {
        return Err(Fail::new(
            Exit::Usage,
            "phase post needs --seal (use --phase pre before the seal exists)",
        )
        .into());
    }
    let base = resolve_base(a.repo, a.base_ref, a.base_sha)?;
    if base.dirty {
        eprintln!(
            "harness: note: uncommitted changes in {}; the gate searched the committed tree at {}",
            base.workdir.display(),
            &base.commit[..12]
        );
    }
    let corpus = runners::Corpus::load(&base).map_err(|e| {
        Fail::new(
            Exit::GateRefused,
            format!("cannot enumerate the tree at base: {e}"),
        )
    })?;
    let plant =
        runners::Plant::new(a.plant_dir).map_err(|e| Fail::new(Exit::Usage, e.to_string()))?;
    let protocol = match a.protocol {
        Some(p) => Some(std::fs::read(p).map_err(|e| {
            Fail::new(
                Exit::ProtocolMissing,
                format!("protocol file {}: {e}", p.display()),
            )
        })?),
        None => None,
    };
    let seal_name = a
        .seal
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    let planted = seal_name.as_ref().map(|n| format!("{}/{n}", plant.dir()));
    let (extra, names) =
        gate::seen_besides_tree(&qset, protocol.as_deref(), &plant, planted.as_deref());
    let report = gate::check(&GateInput {
        qset: &qset,
        qset_path: a.qset,
        seal: a.seal.zip(seal_bytes.as_deref()),
        seal_name: seal_name.as_deref(),
        corpus: &corpus,
        extra_corpus: extra,
        visible_names: names,
        plant_dir: plant.dir(),
        protected: Vec::new(),
        phase: a.phase,
        allow_contaminated: false,
        ledger: a.ledger,
    })?;
    Ok(GateRun {
        report,
        base,
        qset_bytes,
        seal_bytes,
        protocol_bytes: protocol,
    })
}

/// `harness gate`: the table and a closing line, or (`json`) one document with the axes and
/// the exit. Neither ever holds a token.
pub fn gate_cmd(a: &GateArgs<'_>, json: bool) -> Result<Exit> {
    let run = run_gate(a)?;
    let report = run.report;
    let exit = report.exit();
    if json {
        // `contaminated` agrees with the exit: a token where an agent reads it (exit 5) is
        // contamination whether or not a round would override it; `overridden` says that.
        let v = serde_json::json!({
            "phase": report.phase,
            "axes": report.axes,
            "contaminated": report.contaminated || exit == Exit::Contaminated,
            "overridden": report.contaminated,
            "ledger": a.ledger.as_str(),
            "uncarried": report.uncarried,
            "exit": exit.code(),
            "meaning": exit.meaning(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(exit);
    }
    print!(
        "{}",
        report.table_seen(&gate::shape_seen(&run.qset_bytes, a.verbose))
    );
    match exit {
        Exit::Ok => println!("gate: pass"),
        Exit::GatePartial => println!("gate: PARTIAL — an axis is UNCHECKED; this is not a pass"),
        e => println!("gate: REFUSED ({})", e.meaning()),
    }
    Ok(exit)
}

/// `harness seal`: the gate in phase post, then the manifest; refuses what the gate refuses.
pub fn seal_cmd(
    a: &GateArgs<'_>,
    output: &Path,
    force: bool,
    embedded_demo: bool,
    design: manifest::Design,
) -> Result<Exit> {
    if !force && output.exists() {
        return Err(Fail::new(
            Exit::Usage,
            format!("{} exists; pass --force to replace it", output.display()),
        )
        .into());
    }
    let GateRun {
        report,
        base,
        qset_bytes,
        seal_bytes,
        protocol_bytes,
    } = run_gate(a)?;
    print!(
        "{}",
        report.table_seen(&gate::shape_seen(&qset_bytes, a.verbose))
    );
    let exit = report.exit();
    if exit != Exit::Ok {
        println!("seal: REFUSED ({}); no manifest written", exit.meaning());
        return Ok(exit);
    }
    let mut inputs = vec![Input {
        role: Role::Qset,
        path: rel_to_manifest(output, a.qset),
        sha256: manifest::sha256_hex(&qset_bytes),
    }];
    if let (Some(p), Some(b)) = (a.seal, seal_bytes) {
        inputs.push(Input {
            role: Role::Seal,
            path: rel_to_manifest(output, p),
            sha256: manifest::sha256_hex(&b),
        });
    }
    // The hash is of the bytes the gate judged, not of a second read.
    if let (Some(p), Some(b)) = (a.protocol, protocol_bytes) {
        inputs.push(Input {
            role: Role::Protocol,
            path: rel_to_manifest(output, p),
            sha256: manifest::sha256_hex(&b),
        });
    }
    let m = Manifest {
        format: manifest::FORMAT.into(),
        harness_version: env!("CARGO_PKG_VERSION").into(),
        created: chrono::Utc::now().to_rfc3339(),
        scorer: ScorerStamp {
            fingerprint: crate::reading::active().fingerprint(),
            lexicon_version: crate::reading::active().version(),
            token_match: Some(crate::reading::active().token_match.as_str().into()),
        },
        base: BaseStamp {
            sha: base.commit.clone(),
            reference: if embedded_demo {
                None
            } else {
                base.reference.clone()
            },
            repo: if embedded_demo {
                demo::EMBEDDED_REPO.into()
            } else {
                base.workdir.display().to_string()
            },
        },
        inputs,
        design: Some(design),
    };
    let json = manifest::to_sealed_json(&m)?;
    manifest::write_atomic(output, &json, force)?;
    println!(
        "manifest written: {} (base {})",
        std::fs::canonicalize(output)
            .unwrap_or_else(|_| output.to_path_buf())
            .display(),
        &base.commit[..12]
    );
    print!("{}", design_lines(m.design.as_ref()));
    Ok(Exit::Ok)
}

/// A path as the manifest records it: relative to the manifest's folder when both are local,
/// so a manifest and its inputs can move together.
fn rel_to_manifest(manifest_path: &Path, input: &Path) -> String {
    let abs = |p: &Path| std::path::absolute(p).ok();
    let (Some(m), Some(i)) = (abs(manifest_path), abs(input)) else {
        return input.display().to_string();
    };
    let mdir = m.parent().unwrap_or(Path::new("/"));
    let mc: Vec<_> = mdir.components().collect();
    let ic: Vec<_> = i.components().collect();
    let common = mc.iter().zip(ic.iter()).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return i.display().to_string();
    }
    let mut rel = PathBuf::new();
    for _ in common..mc.len() {
        rel.push("..");
    }
    for c in &ic[common..] {
        rel.push(c);
    }
    rel.display().to_string()
}

/// Options of `harness verify`.
pub struct VerifyArgs<'a> {
    /// The manifest.
    pub manifest: &'a Path,
    /// Explicit files to compare instead of the recorded paths.
    pub qset: Option<&'a Path>,
    /// The seal.
    pub seal: Option<&'a Path>,
    /// The protocol.
    pub protocol: Option<&'a Path>,
    /// The repository whose base to check.
    pub repo: Option<&'a Path>,
    /// A different scorer is reported, not a mismatch.
    pub allow_scorer_change: bool,
    /// One JSON document instead of lines.
    pub json: bool,
}

/// `harness verify`: every hash recomputed, by content; exit 10 on any mismatch.
pub fn verify_cmd(a: &VerifyArgs<'_>) -> Result<Exit> {
    let m = manifest::load(a.manifest)?;
    let mut checks = vec![
        manifest::check_file(&m, Role::Qset, a.qset, a.manifest),
        manifest::check_file(&m, Role::Seal, a.seal, a.manifest),
        manifest::check_file(&m, Role::Protocol, a.protocol, a.manifest),
    ];
    // The base: the embedded demo is rebuilt; a repository is asked what its sealed ref (or the
    // sealed sha itself) resolves to now.
    let base_check = if m.base.repo == demo::EMBEDDED_REPO && a.repo.is_none() {
        let d = demo::demo()?;
        let dir = tempfile::tempdir()?;
        let sha = d.build_repo(dir.path())?;
        manifest::check_base(&m, &sha)
    } else {
        let repo = a
            .repo
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(&m.base.repo));
        match resolve_base(Some(&repo), m.base.reference.as_deref(), None) {
            Ok(b) if m.base.reference.is_some() => manifest::check_base(&m, &b.commit),
            _ => match resolve_base(Some(&repo), None, Some(&m.base.sha)) {
                Ok(b) => manifest::check_base(&m, &b.commit),
                Err(e) => manifest::Check {
                    what: "base".into(),
                    status: manifest::Status::Missing,
                    detail: missing_base_detail(&m.base.sha, &repo, &e),
                },
            },
        }
    };
    checks.push(base_check);
    let mut sc = manifest::check_scorer(&m);
    if sc.status == manifest::Status::Mismatch && a.allow_scorer_change {
        sc.detail.push_str(
            " (allowed by --allow-scorer-change; verdicts may move, harness rescore shows which)",
        );
        sc.status = manifest::Status::Match;
    }
    checks.push(sc);
    let bad = checks.iter().filter(|c| !c.status.is_ok()).count();
    let exit = if bad > 0 {
        Exit::ManifestMismatch
    } else {
        Exit::Ok
    };
    if a.json {
        let v = serde_json::json!({
            "manifest": a.manifest.display().to_string(),
            "checks": checks,
            "design": m.design,
            "exit": exit.code(),
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(exit);
    }
    let mut bad = 0;
    for c in &checks {
        if !c.status.is_ok() {
            bad += 1;
        }
        println!("{:<9} {:<9} {}", c.what, c.status.as_str(), c.detail);
    }
    print!("{}", design_lines(m.design.as_ref()));
    if bad > 0 {
        println!("verify: {bad} MISMATCH/MISSING — the inputs are not the ones sealed");
        return Ok(Exit::ManifestMismatch);
    }
    println!("verify: every input matches the manifest");
    Ok(Exit::Ok)
}

/// The sealed design as `verify` and `seal` show it: what `run --manifest` will insist on.
fn design_lines(d: Option<&manifest::Design>) -> String {
    match d {
        None => "design    not sealed (a manifest from before designs were recorded: a round against it checks the inputs only; seal again to register the design)\n".into(),
        Some(d) => {
            let mut s = String::from("design    sealed (run --manifest refuses another, exit 10):\n");
            for (k, v) in d.fields() {
                s.push_str(&format!("  {k:<14} {v}\n"));
            }
            s
        }
    }
}

/// Why the sealed base cannot be checked, in the user's terms: the error of resolving the sha
/// speaks of a `--base-sha` flag the user never passed.
fn missing_base_detail(sha: &str, repo: &Path, err: &anyhow::Error) -> String {
    let short = sha.get(..12).unwrap_or(sha);
    if err.to_string().contains("does not name a commit") {
        format!(
            "sealed commit {short} is not in {} (another repository, or its history was rewritten); \
             pass --repo with the repository it was sealed in, or seal again",
            repo.display()
        )
    } else {
        format!(
            "sealed commit {short} cannot be looked up in {}: {}",
            repo.display(),
            clean_line(&crate::text::without_git_codes(&format!("{err:#}")), 160)
        )
    }
}

/// What `harness doctor --preflight` calls.
pub struct PreflightAsk {
    /// `--agent NAME`s; empty means every preset CLI on PATH with credentials.
    pub agents: Vec<String>,
    /// Each READY call's time limit.
    pub timeout: std::time::Duration,
}

/// `harness doctor`: what a round needs and whether it is there; `json` prints one object;
/// `preflight` also runs the READY call of the agents it names.
pub fn doctor(json: bool, preflight: Option<PreflightAsk>) -> Result<Exit> {
    let mut lines: Vec<(String, String)> = Vec::new();
    lines.push(("harness".into(), crate::version_line().into()));
    let (maj, min, rev) = git2::Version::get().libgit2_version();
    lines.push(("libgit2".into(), format!("{maj}.{min}.{rev}")));
    let path = std::env::var_os("PATH");
    // Asked about some agents: the other CLIs are not run (each `--version`/`--help` call of a
    // Node CLI costs seconds).
    let only = preflight.as_ref().map_or(&[][..], |a| a.agents.as_slice());
    lines.extend(crate::agents::doctor_lines(only));
    let mut exit = Exit::Ok;
    if let Some(ask) = &preflight {
        for (name, line, passed) in doctor_preflights(path.as_deref(), ask)? {
            if !passed {
                exit = Exit::GateRefused;
            }
            lines.push((format!("preflight {name}"), line));
        }
    }
    lines.push((
        "git (for agents)".into(),
        match runners::resolve_program(std::ffi::OsStr::new("git"), path.as_deref()) {
            Some(p) => format!("found: {}", p.display()),
            None => "not on PATH".into(),
        },
    ));
    let tmp = std::env::temp_dir();
    let writable = tempfile::tempdir_in(&tmp).is_ok();
    lines.push((
        "temp root".into(),
        format!(
            "{} {}",
            tmp.display(),
            if writable { "writable" } else { "NOT writable" }
        ),
    ));
    lines.push(("free disk (temp)".into(), free_disk(&tmp)));
    let caps = runners::sandbox_probe();
    lines.push((
        "landlock".into(),
        match (caps.landlock_abi, &caps.landlock_error) {
            (Some(abi), _) => format!("available, ABI {abi}"),
            (None, Some(e)) => format!("UNAVAILABLE ({})", clean_line(e, 120)),
            (None, None) => "UNAVAILABLE".into(),
        },
    ));
    lines.push((
        "landlock scope".into(),
        match caps.landlock_abi {
            Some(abi) if abi >= runners::sandbox::LANDLOCK_SCOPE_ABI => {
                "yes (abstract UNIX sockets and signals scoped to the sandbox)".into()
            }
            Some(abi) => format!(
                "NO (ABI {abi} < {}: abstract sockets and signals not scoped)",
                runners::sandbox::LANDLOCK_SCOPE_ABI
            ),
            None => "NO (no Landlock)".into(),
        },
    ));
    lines.push((
        "seccomp".into(),
        if caps.seccomp {
            "yes (auto and full refuse UNIX sockets, TIOCSTI, TIOCLINUX, io_uring)".into()
        } else {
            format!(
                "NO ({}): session sockets and terminal injection not closed",
                clean_line(caps.seccomp_error.as_deref().unwrap_or("unavailable"), 120)
            )
        },
    ));
    if cfg!(target_os = "macos") {
        lines.push((
            "seatbelt".into(),
            if caps.seatbelt {
                "yes (auto and full run agents under a generated sandbox-exec profile)".into()
            } else {
                format!(
                    "NO ({}): agents would run unconfined",
                    clean_line(caps.seatbelt_error.as_deref().unwrap_or("unavailable"), 120)
                )
            },
        ));
    }
    lines.push((
        "terminal".into(),
        "agents start in a new session (no controlling terminal, stdin a pipe or /dev/null)".into(),
    ));
    lines.push(("user namespaces".into(), yes_no(caps.userns)));
    lines.push(("pid namespace".into(), yes_no(caps.pidns)));
    lines.push(("fresh /proc".into(), yes_no(caps.mount_proc)));
    for e in &caps.namespace_errors {
        lines.push(("  namespace error".into(), clean_line(e, 160)));
    }
    let missing = caps.missing_for_full();
    lines.push((
        "--sandbox full".into(),
        if missing.is_empty() {
            "possible".into()
        } else {
            format!("REFUSED here: missing {}", missing.join(", "))
        },
    ));
    if json {
        let mut checks = serde_json::Map::new();
        let mut errors = Vec::new();
        for (k, v) in &lines {
            if k.trim() == "namespace error" {
                errors.push(serde_json::Value::from(v.as_str()));
            } else {
                checks.insert(k.clone(), v.as_str().into());
            }
        }
        let v = serde_json::json!({ "checks": checks, "namespace_errors": errors });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(exit);
    }
    for (k, v) in &lines {
        println!("{k:<18} {v}");
    }
    Ok(exit)
}

/// `doctor --preflight`: the agents asked for, or else each preset CLI on PATH with
/// credentials, get the round's preflight; (name, the line a round would record or the refusal
/// it would stop with, passed). A CLI without credentials is listed as skipped, not called: its
/// call could only fail, slowly.
fn doctor_preflights(
    path: Option<&std::ffi::OsStr>,
    ask: &PreflightAsk,
) -> Result<Vec<(String, String, bool)>> {
    let mut out = Vec::new();
    let mut names: Vec<String> = ask.agents.clone();
    if names.is_empty() {
        let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
        for (preset, _, _) in runners::CHECKED_VERSIONS {
            let name = preset.name();
            if runners::resolve_program(std::ffi::OsStr::new(name), path).is_none() {
                continue;
            }
            if crate::agents::credentials_found(preset, home.as_deref()).is_empty() {
                out.push((
                    name.to_string(),
                    format!("skipped: no credentials found (--agent {name} tries it anyway)"),
                    true,
                ));
                continue;
            }
            names.push(name.to_string());
        }
    }
    for name in &names {
        let started = std::time::Instant::now();
        let took = || format!(" ({:.1} s)", started.elapsed().as_secs_f64());
        out.push(
            match crate::agents::preflight::standalone(name, ask.timeout) {
                // An answer without READY reached the model but is not the reply asked for (a
                // gateway's error page, say): not a pass.
                Ok(Ok(line)) if line.ends_with("answered READY") => (
                    clean_line(name, 60),
                    format!("pass: {line}{}", took()),
                    true,
                ),
                Ok(Ok(line)) if !line.contains("answered") => (
                    clean_line(name, 60),
                    format!("pass: {line}{}", took()),
                    true,
                ),
                Ok(Ok(line)) => (
                    clean_line(name, 60),
                    format!("WARN: {line}{}", took()),
                    false,
                ),
                Ok(Err(why)) => (
                    clean_line(name, 60),
                    format!("FAIL: {}{}", clean_line(&why, 600), took()),
                    false,
                ),
                Err(e) => (
                    clean_line(name, 60),
                    format!(
                        "FAIL: could not run it: {}{}",
                        clean_line(&format!("{e:#}"), 600),
                        took()
                    ),
                    false,
                ),
            },
        );
    }
    if out.is_empty() {
        out.push((
            "(none)".to_string(),
            "not run: no preset CLI (claude, codex, gemini) on PATH".to_string(),
            true,
        ));
    }
    Ok(out)
}

fn yes_no(b: bool) -> String {
    if b {
        "yes".into()
    } else {
        "NO".into()
    }
}

fn free_disk(p: &Path) -> String {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = CString::new(p.as_os_str().as_bytes()) else {
        return "unknown".into();
    };
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid NUL-terminated path and `s` a properly sized out-parameter.
    if unsafe { libc::statvfs(c.as_ptr(), &mut s) } != 0 {
        return format!("unknown ({})", std::io::Error::last_os_error());
    }
    let bytes = s.f_bavail as u128 * s.f_frsize as u128;
    format!("{:.1} GiB", bytes as f64 / (1u128 << 30) as f64)
}

/// The hidden `__agent` subcommand: a built-in baseline agent answering in the current folder.
pub fn agent_cmd(name: &str, prompt: Option<&str>) -> Result<Exit> {
    let kind = runners::BaselineKind::from_name(name).ok_or_else(|| {
        Fail::new(
            Exit::Usage,
            format!("unknown built-in agent '{}'", clean_line(name, 40)),
        )
    })?;
    let prompt = match prompt {
        Some(p) => p.to_string(),
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .context("reading the prompt from stdin")?;
            s
        }
    };
    let cwd = std::env::current_dir()?;
    let answer = runners::baseline::answer(&cwd, &prompt, kind.respects_ignore());
    println!("{answer}");
    Ok(Exit::Ok)
}
