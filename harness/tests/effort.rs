//! Effort per arm end to end: what the agents reported (turns, tokens, cost, tool calls) and
//! the wall time the harness measured, ARM beside CTRL per axis with the paired difference over
//! items, in `summary.json`, `report.md`, `report.html` and the brief; `compare` adds the A→B
//! difference of ARM's effort. Agents that report nothing (`command:` agents, the demo's
//! baseline) give `not reported` everywhere, never 0.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn json_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every agent-reported measure of `summary.json` says `not reported` (a null value, never 0);
/// wall time, the harness's own clock, is measured; `report.md` says the same in words.
fn assert_not_reported(out: &Path) {
    let s = json_of(&out.join("summary.json"));
    let e = &s["effort"];
    assert_eq!(e["recorded"], true, "{e}");
    assert_eq!(e["enters_verdict"], false);
    let axes = e["axes"].as_array().unwrap();
    assert!(!axes.is_empty());
    for a in axes {
        if a["metric"] == "wall_secs" {
            assert_eq!(a["status"], "reported", "{a}");
            assert!(a["arm"]["median_per_item"].as_f64().unwrap() > 0.0, "{a}");
            continue;
        }
        assert_eq!(a["status"], "not reported", "{a}");
        assert!(a["arm"]["median_per_item"].is_null(), "{a}");
        assert!(a["ctrl"]["median_per_item"].is_null(), "{a}");
        assert!(a["paired"].is_null(), "{a}");
        assert!(
            a["display"].as_str().unwrap().starts_with("not reported"),
            "{a}"
        );
    }
    for d in s["meta"]["effort"].as_array().unwrap() {
        for k in [
            "turns",
            "input_tokens",
            "output_tokens",
            "cost_usd",
            "tool_calls",
        ] {
            assert!(d[k].is_null(), "{k} recorded as a value: {d}");
        }
    }
    assert!(e["headline"]
        .as_str()
        .unwrap()
        .starts_with("not reported by the agent"));
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let section = md
        .split("## Effort (ARM vs CTRL)")
        .nth(1)
        .expect("report.md has the effort section");
    let section = section.split("\n## ").next().unwrap();
    let mut seen = 0;
    for l in section.lines().filter(|l| l.contains(" · ")) {
        if l.contains("wall time") {
            continue;
        }
        seen += 1;
        assert!(l.contains(": not reported (by none of"), "{l}");
    }
    assert!(seen >= 5, "{section}");
    // The per-item table: every agent-reported cell says so; none is a 0.
    for l in section
        .lines()
        .filter(|l| l.starts_with("| q") && !l.starts_with("| qid"))
    {
        let cells: Vec<&str> = l.split(" | ").collect();
        for c in &cells[2..7] {
            assert_eq!(*c, "not reported / not reported", "{l}");
        }
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2>Effort (ARM vs CTRL)</h2>"));
    assert!(html.contains("not reported (by none of"));
}

#[test]
fn the_demo_and_a_command_agent_report_effort_as_not_reported_never_zero() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    let a = harness()
        .args(["run", "--quiet", "--out"])
        .arg(&demo)
        .current_dir(dir.path())
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    let line = stdout
        .lines()
        .find(|l| l.starts_with("effort: "))
        .unwrap_or_else(|| panic!("no effort line in the brief:\n{stdout}"));
    assert!(
        line.starts_with("effort: not reported by the agent (turns, tokens, cost, tool calls)"),
        "{line}"
    );
    assert_not_reported(&demo);

    let d = UndeterminedDesign::write(dir.path());
    let out = dir.path().join("command");
    harness()
        .args(["run", "--quiet", "--reps", "2", "--sandbox", "none"])
        .arg("--agent")
        .arg(&d.agent)
        .args(d.inputs())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(14);
    assert_not_reported(&out);
    // `harness report` re-renders from the round's files alone: the same section.
    let a = harness()
        .args(["report", "--format", "table"])
        .arg(&out)
        .assert();
    let text = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(text.contains("── Effort (ARM vs CTRL) ──"), "{text}");
    assert!(
        text.contains("positive · turns: not reported (by none of 4 dispatches)"),
        "{text}"
    );
}

/// Six positives and two negatives; the seal carries the positives' values and nothing a
/// negative asks about.
struct UsageDesign {
    repo: PathBuf,
    qset: PathBuf,
    seal: PathBuf,
}

impl UsageDesign {
    fn write(dir: &Path) -> UsageDesign {
        let repo = dir.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        make_repo(
            &repo,
            &[
                ("README.md", b"A small service.\n"),
                (".gitignore", b"tracks/\n"),
            ],
        );
        let subjects = [
            ("alpha", "billing queue"),
            ("bravo", "search index"),
            ("charlie", "payments gateway"),
            ("delta", "metrics pipeline"),
            ("echo", "staging cluster"),
            ("foxtrot", "mobile release train"),
        ];
        let mut rows: Vec<[String; 4]> = Vec::new();
        let mut seal = String::from("# Hand-off\n\n");
        for (i, (tag, subject)) in subjects.iter().enumerate() {
            let t = tok(&tag[..3]);
            rows.push([
                format!("p{}", i + 1),
                "positive".into(),
                format!("Which codename was given to the {subject}?"),
                t.clone(),
            ]);
            seal.push_str(&format!("The {subject} codename is {t}.\n"));
        }
        rows.push([
            "n1".into(),
            "negative".into(),
            "Who approved overtime budgets?".into(),
            tok("ovt"),
        ]);
        rows.push([
            "n2".into(),
            "negative".into(),
            "Which vendor supplies office furniture?".into(),
            tok("fur"),
        ]);
        let qset = dir.join("q.tsv");
        let refs: Vec<[&str; 4]> = rows
            .iter()
            .map(|r| [r[0].as_str(), &r[1], &r[2], &r[3]])
            .collect();
        write_qset(&qset, &refs);
        let seal_path = dir.join("handoff.md");
        std::fs::write(&seal_path, seal).unwrap();
        UsageDesign {
            repo,
            qset,
            seal: seal_path,
        }
    }

    /// A round of the Claude preset whose command is the stand-in script (a user's
    /// `harness.toml` override), reporting usage scaled by `scale`.
    fn run(&self, env: &TestEnv, dir: &Path, name: &str, scale: u32) -> (PathBuf, String) {
        let cfg = dir.join(format!("{name}.toml"));
        std::fs::write(
            &cfg,
            format!(
                "[agents.claude]\ncommand = \"sh {} --output-format stream-json --scale {scale} {{prompt}}\"\n",
                agents_dir().join("claudelike.sh").display()
            ),
        )
        .unwrap();
        let out = dir.join(name);
        let a = env
            .harness()
            .args([
                "run",
                "--quiet",
                "--reps",
                "2",
                "--sandbox",
                "none",
                "--no-preflight",
                "--agent",
                "claude",
                "--config",
            ])
            .arg(&cfg)
            .arg("--qset")
            .arg(&self.qset)
            .arg("--seal")
            .arg(&self.seal)
            .arg("--repo")
            .arg(&self.repo)
            .arg("--out")
            .arg(&out)
            .assert();
        let o = a.get_output();
        let stdout = String::from_utf8_lossy(&o.stdout).to_string();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{stdout}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        (out, stdout)
    }
}

#[test]
fn a_claude_style_agent_reporting_usage_gives_per_axis_effort_and_compare_its_shift() {
    let dir = tempfile::tempdir().unwrap();
    let env = TestEnv::new();
    let d = UsageDesign::write(dir.path());
    let (a, stdout) = d.run(&env, dir.path(), "a", 10);
    let s = json_of(&a.join("summary.json"));
    let e = &s["effort"];
    let axis = |kind: &str, metric: &str| -> serde_json::Value {
        e["axes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["kind"] == kind && x["metric"] == metric)
            .cloned()
            .unwrap_or_else(|| panic!("no {kind} {metric} in {e}"))
    };
    // Positives: ARM 2 turns, 1 tool call, ~1000 input tokens; CTRL 5, 3, ~4000; every
    // dispatch reported; six items, so the order-statistic interval exists.
    let input = axis("positive", "input_tokens");
    assert_eq!(input["status"], "reported", "{input}");
    assert_eq!(input["arm"]["reported"], 12);
    assert_eq!(input["ctrl"]["reported"], 12);
    let p = &input["paired"];
    assert_eq!(p["items"], 6, "items, not dispatches: {p}");
    let rel = &p["relative"];
    let (m, lo, hi) = (
        rel["median"].as_f64().unwrap(),
        rel["lo"].as_f64().unwrap(),
        rel["hi"].as_f64().unwrap(),
    );
    assert!(-0.76 < lo && lo <= m && m <= hi && hi < -0.70, "{rel}");
    assert!(p["difference"]["median"].as_f64().unwrap() < -2900.0, "{p}");
    let turns = axis("positive", "turns");
    assert_eq!(turns["arm"]["median_per_item"], 2.0);
    assert_eq!(turns["ctrl"]["median_per_item"], 5.0);
    assert_eq!(turns["paired"]["relative"]["median"], -0.6);
    let tools = axis("negative", "tool_calls");
    assert_eq!(tools["arm"]["median_per_item"], 1.0);
    assert_eq!(tools["ctrl"]["median_per_item"], 3.0);
    assert!(
        axis("positive", "cost_usd")["paired"]["relative"]["median"]
            .as_f64()
            .unwrap()
            < 0.0
    );
    // The brief's one line and report.md carry the same difference.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("effort: "))
        .unwrap_or_else(|| panic!("no effort line:\n{stdout}"));
    assert!(
        line.starts_with("effort: ARM used 7")
            && line.contains("% fewer input tokens than CTRL on positives [−7"),
        "{line}"
    );
    assert!(line.ends_with(", 6 items"), "{line}");
    let md = std::fs::read_to_string(a.join("report.md")).unwrap();
    let l = md
        .lines()
        .find(|l| l.contains("positive · input tokens: ARM "))
        .unwrap_or_else(|| panic!("no positive input-token line:\n{md}"));
    assert!(l.contains("; ARM − CTRL −"), "{l}");
    assert!(l.contains("over 6 item(s)"), "{l}");
    assert!(
        md.contains("| p1 | positive | 2 / 5 |"),
        "per-item turns:\n{md}"
    );
    let html = std::fs::read_to_string(a.join("report.html")).unwrap();
    assert!(html.contains("<svg class=\"effort\""), "the effort chart");
    // The same answers with less ARM effort: compare says so beside the correctness axes.
    let (b, _) = d.run(&env, dir.path(), "b", 7);
    let o = env
        .harness()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(0);
    let text = String::from_utf8_lossy(&o.get_output().stdout).to_string();
    assert!(text.contains("── effort (ARM, A → B) ──"), "{text}");
    assert!(
        text.contains("B carried the same answers with 2")
            && text.contains("% fewer input tokens on positives"),
        "{text}"
    );
    assert!(
        text.contains("positive · turns: A 2 vs B 2 (ARM, median per item); median paired difference B − A 0 [0, 0]"),
        "{text}"
    );
    let o = env
        .harness()
        .args(["compare", "--format", "json"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(0);
    let j: serde_json::Value = serde_json::from_slice(&o.get_output().stdout).unwrap();
    assert_eq!(j["effort"]["changed_items"], serde_json::json!([]));
    assert_eq!(j["effort"]["enters_verdict"], false);
    for (format, heading) in [
        ("md", "## Effort (ARM, A → B)"),
        ("html", "<h2>Effort (ARM, A → B)</h2>"),
    ] {
        let o = env
            .harness()
            .args(["compare", "--format", format])
            .arg(&a)
            .arg(&b)
            .assert()
            .code(0);
        let text = String::from_utf8_lossy(&o.get_output().stdout).to_string();
        assert!(text.contains(heading), "{format}: {text}");
        assert!(
            text.contains("B carried the same answers with 2"),
            "{format}: {text}"
        );
    }
    let html = text_of(&env, &["compare", "--format", "html"], &a, &b);
    assert!(
        html.trim_end().ends_with("</html>"),
        "the block goes inside the page"
    );
}

fn text_of(env: &TestEnv, args: &[&str], a: &Path, b: &Path) -> String {
    let o = env.harness().args(args).arg(a).arg(b).assert().code(0);
    String::from_utf8_lossy(&o.get_output().stdout).to_string()
}
