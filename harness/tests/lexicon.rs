//! `harness score -`, `harness lexicon eval`, `--lexicon FILE` and `--token-match`, driven
//! through the real binary.

use predicates::str::contains;

mod common;
use common::harness;

fn score(kind: &str, token: &str, answer: &str, extra: &[&str]) -> String {
    let out = harness()
        .args(["score", "--kind", kind, "--token", token])
        .args(extra)
        .arg("-")
        .write_stdin(answer)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn done_when_answers_read_from_stdin() {
    // The token is assembled so it never sits in the tree as a qset value would.
    let tok = format!("{}{}", "Pager", "Duty");
    for refusal in [
        "I don't know.",
        "I do not know.",
        "The repository does not say.",
        "見つかりませんでした。",
    ] {
        assert_eq!(score("negative", &tok, refusal, &[]), "PASS", "{refusal}");
    }
    let fabricated = format!("I don't have any actual doubt this uses {tok}.");
    assert_eq!(score("negative", &tok, &fabricated, &[]), "HALLUCINATED");
}

#[test]
fn token_match_exact_reproduces_the_seed_reading() {
    assert_eq!(
        score("positive", "AUTH-31", "Tracked in AUTH-310.", &[]),
        "FAIL"
    );
    assert_eq!(
        score(
            "positive",
            "AUTH-31",
            "Tracked in AUTH-310.",
            &["--token-match", "exact"]
        ),
        "PASS"
    );
    assert_eq!(
        score("positive", "Helios-2", "It is helios-2.", &[]),
        "PASS"
    );
    assert_eq!(
        score(
            "positive",
            "Helios-2",
            "It is helios-2.",
            &["--token-match", "exact"]
        ),
        "FAIL"
    );
}

#[test]
fn lexicon_file_extends_and_is_validated_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.toml");
    std::fs::write(
        &good,
        "[[refusal]]\npattern = '\\bbeats me\\b'\nexample = 'Beats me, honestly.'\nlang = 'en'\n",
    )
    .unwrap();
    // An everyday refusal the lexicon lacks is never a certain FAIL: the reading is uncertain.
    assert_eq!(
        score("negative", "Opsgenie", "Beats me.", &[]),
        "UNDETERMINED guess=FAIL cues=uncovered_language"
    );
    let lx = good.to_str().unwrap();
    assert_eq!(
        score("negative", "Opsgenie", "Beats me.", &["--lexicon", lx]),
        "PASS"
    );

    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "# grown after round 3\n\n[[refusal]]\npattern = 'beats you'\nexample = 'Beats me.'\n",
    )
    .unwrap();
    harness()
        .args(["score", "--kind", "negative", "--token", "X", "--lexicon"])
        .arg(&bad)
        .arg("-")
        .write_stdin("x")
        .assert()
        .code(2)
        .stderr(contains(format!("{}:4: refusal pattern", bad.display())))
        .stderr(contains("does not match its own example"));
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "[[refusal]]\npattern = '(x'\nexample = '(x'\n").unwrap();
    harness()
        .args(["lexicon", "eval", "--lexicon"])
        .arg(&broken)
        .assert()
        .code(2)
        .stderr(contains(format!("{}:2:", broken.display())))
        .stderr(contains("does not compile"));
}

#[test]
fn eval_reports_figures_masks_tokens_and_enforces_floors() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    std::fs::write(
        &corpus,
        concat!(
            r#"{"id":"a","kind":"negative","token":"Zeppelin9","answer":"I don't know.","class":"PASS","refuses":true,"lang":"en"}"#, "\n",
            r#"{"id":"b","kind":"negative","token":"Zeppelin9","answer":"Beats me. Zeppelin9?","class":"REFUSED_WITH_TOKEN","refuses":true,"lang":"en"}"#, "\n",
        ),
    )
    .unwrap();
    let out = harness()
        .args(["lexicon", "eval"])
        .arg(&corpus)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("class agreement     0.500 (1/2)"), "{text}");
    assert!(text.contains("refusal recall      0.500 (1/2)"), "{text}");
    assert!(text.contains("Beats me. ‹9ch›?"), "{text}");
    assert!(
        !text.contains("Zeppelin9"),
        "token shown on the terminal: {text}"
    );
    harness()
        .args(["lexicon", "eval", "--min-recall", "0.9"])
        .arg(&corpus)
        .assert()
        .code(1)
        .stderr(contains("refusal recall 0.500 < floor 0.900"));
    let json = harness()
        .args(["lexicon", "eval", "--format", "json"])
        .arg(&corpus)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["total"]["agreement"]["hits"], 1);
    assert_eq!(v["disagreements"][0]["id"], "b");
}

#[test]
fn shipped_corpus_meets_the_ci_floors() {
    harness()
        .args([
            "lexicon",
            "eval",
            "--min-agreement",
            "0.95",
            "--min-precision",
            "0.95",
            "--min-recall",
            "0.98",
        ])
        .assert()
        .success()
        .stdout(contains("scorer/corpus/holdout.jsonl"));
}

#[test]
fn uncertain_reading_is_undetermined_with_its_guess_and_cues() {
    // Everyday absence wording no strict pattern knows: never guessed into FAIL.
    let out = score(
        "negative",
        "Zeppelin9",
        "Nothing in the repo nails that down.",
        &["--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["class"], "UNDETERMINED", "{out}");
    assert_eq!(v["guess"], "FAIL", "{out}");
    assert_eq!(v["cues"], serde_json::json!(["absence_words"]), "{out}");
    // A strict refusal stays decided.
    let out = score(
        "negative",
        "Zeppelin9",
        "I don't know.",
        &["--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["class"], "PASS", "{out}");
    assert!(v.get("guess").is_none(), "{out}");
    // The seed's reading has no cues.
    assert_eq!(
        score(
            "negative",
            "Zeppelin9",
            "Nothing in the repo nails that down.",
            &["--token-match", "exact"]
        ),
        "FAIL"
    );
}

#[test]
fn eval_reports_decided_precision_and_coverage_with_floors() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.jsonl");
    std::fs::write(
        &corpus,
        concat!(
            r#"{"id":"a","kind":"negative","token":"Zeppelin9","answer":"I don't know.","class":"PASS","refuses":true,"lang":"en"}"#, "\n",
            r#"{"id":"b","kind":"negative","token":"Zeppelin9","answer":"Nothing in the repo nails that down.","class":"PASS","refuses":true,"lang":"en"}"#, "\n",
        ),
    )
    .unwrap();
    let text = String::from_utf8(
        harness()
            .args(["lexicon", "eval"])
            .arg(&corpus)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(text.contains("decided precision   1.000 (1/1)"), "{text}");
    assert!(text.contains("coverage            0.500 (1/2)"), "{text}");
    assert!(
        text.contains("UNDETERMINED (guess FAIL; absence_words)"),
        "{text}"
    );
    harness()
        .args(["lexicon", "eval", "--min-coverage", "0.6"])
        .arg(&corpus)
        .assert()
        .code(1)
        .stderr(contains("coverage 0.500 < floor 0.600"));
}

#[test]
fn lexicon_patterns_that_read_every_answer_or_too_many_are_refused_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |text: &str, line: usize, why: &str| {
        let f = dir.path().join("broad.toml");
        std::fs::write(&f, text).unwrap();
        harness()
            .args(["score", "--kind", "negative", "--token", "X", "--lexicon"])
            .arg(&f)
            .arg("-")
            .write_stdin("x")
            .assert()
            .code(2)
            .stderr(contains(format!("{}:{line}: ", f.display())))
            .stderr(contains(why));
    };
    let header = "# grown after round 3\n[[refusal]]\nexample = 'I cannot say.'\n";
    refused(&format!("{header}pattern = '^'\n"), 4, "the empty string");
    refused(&format!("{header}pattern = 'x*'\n"), 4, "the empty string");
    refused(
        &format!("{header}pattern = '(?s).'\n"),
        4,
        "a single character",
    );
    refused(
        "[[clarify]]\nexample = '알 수 없습니다'\npattern = '(?:수|없)'\n",
        3,
        "a single character (`수`)",
    );
    // Two characters at least are a phrase; they are read.
    let f = dir.path().join("narrow.toml");
    std::fs::write(&f, "[[refusal]]\npattern = '모름'\nexample = '모름'\n").unwrap();
    harness()
        .args(["score", "--kind", "negative", "--token", "X", "--lexicon"])
        .arg(&f)
        .arg("-")
        .write_stdin("모름")
        .assert()
        .success();
    // A file over the pattern limit is refused before anything compiles.
    let mut many = String::new();
    for i in 0..501 {
        many.push_str(&format!(
            "[[refusal]]\npattern = 'no record {i:04}'\nexample = 'no record {i:04}'\n"
        ));
    }
    let f = dir.path().join("many.toml");
    std::fs::write(&f, many).unwrap();
    harness()
        .args(["score", "--kind", "negative", "--token", "X", "--lexicon"])
        .arg(&f)
        .arg("-")
        .write_stdin("x")
        .assert()
        .code(2)
        .stderr(contains(format!("{}: 501 patterns", f.display())))
        .stderr(contains("at most 500"));
}

/// Issue 22 item 7: `lexicon suggest` sorts what it lists by what the answer looks like. An
/// answer that gives a value of its own (a fabrication without the token) is never offered as
/// a refusal the lexicon does not know; an absence in words no pattern knows is.
#[test]
fn suggest_never_offers_a_fabrication_as_an_unknown_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    common::make_repo(&repo, &[("README.md", b"A small service.\n")]);
    let qset = dir.path().join("q.tsv");
    let (region, pager) = (common::tok("reg"), common::tok("pag"));
    common::write_qset(
        &qset,
        &[
            [
                "n1",
                "negative",
                "Which cloud region hosts production?",
                &region,
            ],
            ["n2", "negative", "Which pager tool is on call?", &pager],
            [
                "n3",
                "negative",
                "Where do release announcements go?",
                &common::tok("ann"),
            ],
        ],
    );
    let agent = dir.path().join("agent.sh");
    std::fs::write(
        &agent,
        "case \"$1\" in\n\
         *region*) echo 'Production runs in eu-west-3, per the deploy notes.' ;;\n\
         *cat*) echo 'The office cat is ginger.' ;;\n\
         *announcements*) echo 'Release announcements go to the general channel, per the maintainers.' ;;\n\
         *) echo 'Nothing in the repo nails that down.' ;;\n\
         esac\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let code = harness()
        .args([
            "run",
            "--quiet",
            "--reps",
            "1",
            "--sandbox",
            "none",
            "--arms",
            "ctrl",
        ])
        .arg("--agent")
        .arg(format!("command:sh {} {{prompt}}", agent.display()))
        .arg("--qset")
        .arg(&qset)
        .arg("--repo")
        .arg(&repo)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        out.join("verdicts.csv").is_file(),
        "{}",
        String::from_utf8_lossy(&code.stderr)
    );
    let o = harness()
        .args(["lexicon", "suggest"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let section = |heading: &str| -> String {
        let start = text
            .find(heading)
            .unwrap_or_else(|| panic!("no `{heading}` section:\n{text}"));
        let rest = &text[start..];
        rest[..rest[3..].find("\n── ").map_or(rest.len(), |e| e + 3)].to_string()
    };
    let fabrication = section("a fabrication, not a refusal");
    assert!(
        fabrication.contains("eu-west-3") && fabrication.contains("n1 CTRL r1"),
        "{text}"
    );
    let refusal = section("a refusal the lexicon does not know?");
    assert!(
        refusal.contains("Nothing in the repo nails that down") && refusal.contains("n2 CTRL r1"),
        "{text}"
    );
    assert!(
        !refusal.contains("n1 ") && !refusal.contains("n3 "),
        "neither the fabrication nor the assertion in words is a refusal candidate: {text}"
    );
    // An assertion made of words only (no digit, no code, no "X is Y"), with no absence word.
    let in_words = section("an assertion made of words");
    assert!(in_words.contains("n3 CTRL r1"), "{text}");
}

/// The negative-PASS misread figure is over the rows of its kind (negatives a person read
/// PASS), never over every row of the corpus.
#[test]
fn eval_counts_the_negative_pass_misread_over_negative_pass_rows_only() {
    let env = common::TestEnv::new();
    let corpus = env.tmp().join("c.jsonl");
    std::fs::write(
        &corpus,
        concat!(
            r#"{"id":"n","kind":"negative","token":"Zeppelin9","answer":"I don't know.","class":"PASS","refuses":true,"lang":"en"}"#, "\n",
            r#"{"id":"p1","kind":"positive","token":"Zeppelin9","answer":"It is Zeppelin9.","class":"PASS","refuses":false,"lang":"en"}"#, "\n",
            r#"{"id":"p2","kind":"positive","token":"Zeppelin9","answer":"It is Zeppelin9, set in the config.","class":"PASS","refuses":false,"lang":"en"}"#, "\n",
        ),
    )
    .unwrap();
    let text = String::from_utf8(
        env.harness()
            .args(["lexicon", "eval"])
            .arg(&corpus)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(
        text.contains("negative PASS read FAIL/HALLUCINATED with certainty  0.000 (0/1)"),
        "{text}"
    );
    assert!(!text.contains("(0/3)"), "{text}");
}

/// `lexicon eval`'s confusion puts the rows the lexicon left UNDETERMINED in their own column
/// (text and JSON), never in the column of their guess: a certain reading and a guess are never
/// added together. The certain cells add up to the rows decided (coverage), the UNDETERMINED
/// cells to the rest.
#[test]
fn eval_confusion_keeps_undetermined_rows_apart_from_their_guess() {
    let out = harness()
        .args(["lexicon", "eval", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let total = &v["total"];
    let rows = total["rows"].as_u64().unwrap();
    let decided = total["coverage"]["hits"].as_u64().unwrap();
    assert!(
        decided < rows,
        "the shipped corpus has undetermined rows: {total}"
    );
    let (mut certain, mut undetermined) = (0, 0);
    for cell in total["confusion"].as_array().unwrap() {
        let n = cell["count"].as_u64().unwrap();
        if cell["scorer"] == "UNDETERMINED" {
            undetermined += n;
        } else {
            certain += n;
        }
    }
    assert_eq!(certain, decided, "{}", total["confusion"]);
    assert_eq!(undetermined, rows - decided, "{}", total["confusion"]);

    let out = harness().args(["lexicon", "eval"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("── confusion"))
        .skip(1)
        .take_while(|l| !l.starts_with("──"))
        .collect();
    let head: Vec<&str> = table[0].split_whitespace().collect();
    assert_eq!(head.last(), Some(&"UNDET"), "{text}");
    // The text's cells are the JSON's: each row's UNDET cell is its undecided rows.
    let mut shown_undet = 0;
    for line in &table[1..] {
        let cell = line.split_whitespace().last().unwrap();
        shown_undet += cell.parse::<u64>().unwrap_or(0);
    }
    assert_eq!(shown_undet, rows - decided, "{text}");
}
