//! Agent specs: template splitting and placeholders, preset invocations, answer
//! extraction from structured output, and credential copying into a fresh home.

use std::ffi::OsString;
use std::path::Path;

use runners::agent::{
    extract_answer, install_credentials, split_template, AgentKind, AgentSpec, BaselineKind,
    Invocation, OutputFormat, Preset,
};
use runners::error::Error;

fn inv<'a>(prompt: &'a str, model: Option<&'a str>) -> Invocation<'a> {
    Invocation {
        prompt,
        prompt_file: Path::new("/d/tmp/prompt.txt"),
        model,
        workdir: Path::new("/d/checkout dir"),
        harness_exe: Path::new("/opt/h/harness"),
    }
}

fn strs(v: Vec<OsString>) -> Vec<String> {
    v.into_iter().map(|s| s.into_string().unwrap()).collect()
}

#[test]
fn command_template_is_split_and_substituted_per_element() {
    let spec = AgentSpec::parse(
        r#"command:my-agent --cwd {workdir} --ask "{prompt}" --file={prompt_file} -m {model}"#,
        None,
    )
    .unwrap();
    assert_eq!(spec.kind, AgentKind::Command);
    let prompt = "what is it; rm -rf / $(whoami) {workdir}";
    let argv = strs(spec.argv(&inv(prompt, Some("m1"))).unwrap());
    assert_eq!(
        argv,
        vec![
            "my-agent",
            "--cwd",
            "/d/checkout dir",
            "--ask",
            prompt, // one element, shell characters and a placeholder-looking word stay literal
            "--file=/d/tmp/prompt.txt",
            "-m",
            "m1",
        ]
    );
}

#[test]
fn missing_model_drops_the_flag_and_its_value() {
    let spec = AgentSpec::parse("command:a --model {model} --x={model} {prompt}", None).unwrap();
    assert_eq!(strs(spec.argv(&inv("q", None)).unwrap()), vec!["a", "q"]);
    assert_eq!(
        strs(spec.argv(&inv("q", Some("big"))).unwrap()),
        vec!["a", "--model", "big", "--x=big", "q"]
    );
}

#[test]
fn unknown_placeholder_and_bad_quoting_are_errors() {
    assert!(matches!(
        AgentSpec::parse("command:a {promt}", None),
        Err(Error::Template { .. })
    ));
    assert!(matches!(
        split_template("a 'unclosed"),
        Err(Error::Template { .. })
    ));
    assert!(matches!(split_template("   "), Err(Error::Template { .. })));
    // JSON-ish braces are not placeholders.
    let argv = split_template(r#"a --cfg '{"k":1}' {prompt}"#).unwrap();
    assert_eq!(argv[2], r#"{"k":1}"#);
}

#[test]
fn a_template_that_never_delivers_the_prompt_is_refused_unless_stdin() {
    let spec = AgentSpec::parse("command:cat", None).unwrap();
    assert!(matches!(
        spec.argv(&inv("q", None)),
        Err(Error::Template { .. })
    ));
    let spec = spec.with_prompt_stdin(true);
    assert_eq!(strs(spec.argv(&inv("q", None)).unwrap()), vec!["cat"]);
    assert_eq!(spec.stdin_bytes("q"), Some(b"q".to_vec()));
}

#[test]
fn presets_use_their_documented_non_interactive_modes() {
    let claude = AgentSpec::parse("claude", None).unwrap();
    assert_eq!(claude.output, OutputFormat::ClaudeJson);
    assert!(claude
        .credential_env
        .contains(&"ANTHROPIC_API_KEY".to_string()));
    assert_eq!(claude.credential_files, vec![".claude/.credentials.json"]);
    assert_eq!(
        strs(claude.argv(&inv("-v? what", Some("sonnet"))).unwrap()),
        vec![
            "claude",
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--no-session-persistence",
            "--model",
            "sonnet",
            "--",
            "-v? what"
        ]
    );
    assert_eq!(
        strs(claude.argv(&inv("q", None)).unwrap()),
        vec![
            "claude",
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--no-session-persistence",
            "--",
            "q"
        ]
    );

    let codex = AgentSpec::parse("codex", None).unwrap();
    assert_eq!(codex.output, OutputFormat::CodexJsonl);
    assert_eq!(
        strs(codex.argv(&inv("q", None)).unwrap()),
        vec![
            "codex",
            "exec",
            "--skip-git-repo-check",
            "--ephemeral",
            "--json",
            "--",
            "q"
        ]
    );

    let gemini = AgentSpec::parse("gemini", None).unwrap();
    assert_eq!(gemini.output, OutputFormat::GeminiJson);
    assert_eq!(
        strs(gemini.argv(&inv("q", Some("g2"))).unwrap()),
        vec![
            "gemini",
            "--output-format",
            "json",
            "--skip-trust",
            "-m",
            "g2",
            "--prompt=q"
        ]
    );
}

#[test]
fn a_config_override_replaces_the_preset_command_and_keeps_its_credentials() {
    let spec = AgentSpec::parse("claude", Some("/opt/claude/bin/claude -p {prompt}")).unwrap();
    assert_eq!(spec.kind, AgentKind::Preset(Preset::Claude));
    assert_eq!(
        spec.output,
        OutputFormat::Text,
        "no --output-format json: stdout is the answer"
    );
    assert!(spec
        .credential_env
        .contains(&"CLAUDE_CODE_OAUTH_TOKEN".to_string()));
    assert_eq!(
        strs(spec.argv(&inv("q", None)).unwrap()),
        vec!["/opt/claude/bin/claude", "-p", "q"]
    );
    assert!(AgentSpec::parse("baseline-grep", Some("x {prompt}")).is_err());
    assert!(matches!(
        AgentSpec::parse("clod", None),
        Err(Error::UnknownAgent(_))
    ));
}

#[test]
fn baselines_run_as_the_harness_hidden_subcommand_with_the_prompt_on_stdin() {
    for (name, kind) in [
        ("baseline-grep", BaselineKind::Grep),
        ("baseline-grep-all", BaselineKind::GrepAll),
    ] {
        let spec = AgentSpec::parse(name, None).unwrap();
        assert_eq!(spec.kind, AgentKind::Baseline(kind));
        assert!(spec.prompt_stdin);
        assert_eq!(
            strs(spec.argv(&inv("q", Some("ignored"))).unwrap()),
            vec!["/opt/h/harness", "__agent", name]
        );
    }
}

#[test]
fn claude_json_answer_is_the_result_field() {
    let spec = AgentSpec::parse("claude", None).unwrap();
    let ok = br#"{"type":"result","subtype":"success","is_error":false,"result":"The port is 7.","session_id":"s"}"#;
    assert_eq!(
        extract_answer(&spec, ok).unwrap(),
        b"The port is 7.".to_vec()
    );
    // stream-json: the last line is the result object.
    let stream = b"{\"type\":\"system\"}\n{\"type\":\"assistant\"}\n{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"A\"}\n";
    assert_eq!(extract_answer(&spec, stream).unwrap(), b"A".to_vec());
}

#[test]
fn claude_json_error_result_is_a_dispatch_failure_not_an_answer() {
    let spec = AgentSpec::parse("claude", None).unwrap();
    let err =
        br#"{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key"}"#;
    match extract_answer(&spec, err) {
        Err(Error::AgentFailed { agent, reason }) => {
            assert_eq!(agent, "claude");
            assert!(reason.contains("Invalid API key"), "{reason}");
        }
        other => panic!("expected AgentFailed, got {other:?}"),
    }
    let maxturns = br#"{"type":"result","subtype":"error_max_turns","is_error":false}"#;
    assert!(matches!(
        extract_answer(&spec, maxturns),
        Err(Error::AgentFailed { .. })
    ));
    assert!(matches!(
        extract_answer(&spec, b"not json"),
        Err(Error::AgentFailed { .. })
    ));
    assert!(matches!(
        extract_answer(&spec, b""),
        Err(Error::AgentFailed { .. })
    ));
}

#[test]
fn codex_and_gemini_structured_output() {
    let codex = AgentSpec::parse("codex", None).unwrap();
    let ok = concat!(
        "{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n",
        "{\"type\":\"item.completed\",\"item\":{\"id\":\"1\",\"type\":\"reasoning\",\"text\":\"hmm\"}}\n",
        "{\"type\":\"item.completed\",\"item\":{\"id\":\"2\",\"type\":\"agent_message\",\"text\":\"final\"}}\n",
        "{\"type\":\"turn.completed\",\"usage\":{}}\n"
    );
    assert_eq!(
        extract_answer(&codex, ok.as_bytes()).unwrap(),
        b"final".to_vec()
    );
    let failed = "{\"type\":\"turn.failed\",\"error\":{\"message\":\"quota\"}}\n";
    assert!(matches!(
        extract_answer(&codex, failed.as_bytes()),
        Err(Error::AgentFailed { .. })
    ));

    let gemini = AgentSpec::parse("gemini", None).unwrap();
    assert_eq!(
        extract_answer(&gemini, br#"{"response":"R","stats":{}}"#).unwrap(),
        b"R".to_vec()
    );
    assert!(matches!(
        extract_answer(&gemini, br#"{"response":"","error":{"message":"auth"}}"#),
        Err(Error::AgentFailed { .. })
    ));
}

#[test]
fn only_credentials_are_copied_into_the_fresh_home() {
    let user = tempfile::tempdir().unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let u = user.path();
    std::fs::create_dir_all(u.join(".claude/projects")).unwrap();
    std::fs::write(u.join(".claude/.credentials.json"), "{\"token\":1}").unwrap();
    std::fs::write(u.join(".claude/CLAUDE.md"), "memory").unwrap();
    std::fs::write(u.join(".claude/projects/p.jsonl"), "history").unwrap();
    std::fs::create_dir_all(u.join(".gemini")).unwrap();
    std::fs::write(u.join(".gemini/oauth_creds.json"), "{}").unwrap();
    std::fs::write(
        u.join(".gemini/settings.json"),
        r#"{"security":{"auth":{"selectedType":"oauth-personal"}},"mcpServers":{"x":{}},"contextFileName":"X.md"}"#,
    )
    .unwrap();

    let claude = AgentSpec::parse("claude", None).unwrap();
    let copied = install_credentials(&claude, u, fresh.path()).unwrap();
    assert_eq!(
        copied,
        vec![Path::new(".claude/.credentials.json").to_path_buf()]
    );
    assert!(fresh.path().join(".claude/.credentials.json").is_file());
    assert!(!fresh.path().join(".claude/CLAUDE.md").exists());
    assert!(!fresh.path().join(".claude/projects").exists());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(fresh.path().join(".claude/.credentials.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o077, 0, "credentials are private");

    let gemini = AgentSpec::parse("gemini", None).unwrap();
    install_credentials(&gemini, u, fresh.path()).unwrap();
    let settings = std::fs::read_to_string(fresh.path().join(".gemini/settings.json")).unwrap();
    assert!(settings.contains("oauth-personal"));
    assert!(!settings.contains("mcpServers") && !settings.contains("contextFileName"));

    let codex = AgentSpec::parse("codex", None).unwrap();
    assert!(
        install_credentials(&codex, u, fresh.path())
            .unwrap()
            .is_empty(),
        "absent file is skipped"
    );
}

#[test]
fn preset_setup_bypasses_codex_sandbox_only_inside_ours_and_maps_openai_variables() {
    let env = |k: &str| match k {
        "OPENAI_BASE_URL" => Some("http://127.0.0.1:9/v1".to_string()),
        "OPENAI_API_KEY" => Some("k".to_string()),
        _ => None,
    };
    let inside = Preset::Codex.setup(&runners::SetupInput {
        sandboxed: true,
        deliver: false,
        env: &env,
    });
    assert!(inside
        .args
        .contains(&"--dangerously-bypass-approvals-and-sandbox".to_string()));
    assert!(inside
        .args
        .contains(&"openai_base_url=http://127.0.0.1:9/v1".to_string()));
    assert_eq!(
        inside.env,
        vec![
            ("RUST_LOG".into(), "error,codex_otel=info".into()),
            ("CODEX_API_KEY".into(), "k".into())
        ]
    );
    let outside = Preset::Codex.setup(&runners::SetupInput {
        sandboxed: false,
        deliver: false,
        env: &env,
    });
    assert!(!outside
        .args
        .contains(&"--dangerously-bypass-approvals-and-sandbox".to_string()));
}

#[test]
fn gemini_reads_ignored_files_only_when_a_path_is_delivered() {
    let env = |k: &str| (k == "GEMINI_API_KEY").then(|| "k".to_string());
    let setup = |deliver| {
        Preset::Gemini
            .setup(&runners::SetupInput {
                sandboxed: true,
                deliver,
                env: &env,
            })
            .settings
            .unwrap()
            .1
    };
    assert_eq!(
        setup(true)["context"]["fileFiltering"]["respectGitIgnore"],
        false
    );
    assert!(
        setup(false).get("context").is_none(),
        "discover keeps the defaults"
    );
    assert_eq!(
        setup(false)["security"]["auth"]["selectedType"],
        "gemini-api-key"
    );
}

#[test]
fn home_files_never_carry_memory_or_hooks() {
    for bad in [
        "CLAUDE.md",
        ".codex/AGENTS.md",
        ".gemini/GEMINI.md",
        ".claude/hooks/x",
        ".gemini/settings.json",
        "../x",
        "/etc/passwd",
    ] {
        assert!(runners::agent::check_home_file(bad).is_err(), "{bad}");
    }
    assert!(runners::agent::check_home_file(".codex/config.toml").is_ok());
}

/// Issue 24: a credential store is refused as one, and anything off the allowlist is refused
/// naming the allowlist; the allowlist's own files pass.
#[test]
fn home_files_refuse_credential_stores_and_anything_off_the_allowlist() {
    for cred in [
        ".config/gh/hosts.yml",
        ".ssh/id_ed25519",
        ".aws/credentials",
        ".netrc",
        ".git-credentials",
        ".docker/config.json",
        ".codex/auth.json",
        ".claude/.credentials.json",
        ".Config/GH/hosts.yml",
    ] {
        let e = runners::agent::check_home_file(cred).expect_err(cred);
        assert!(e.to_string().contains("credential"), "{cred}: {e}");
    }
    for off in [".config/other/thing.toml", "notes.txt", ".bashrc"] {
        let e = runners::agent::check_home_file(off).expect_err(off);
        assert!(e.to_string().contains("allowlist"), "{off}: {e}");
        assert!(e.to_string().contains(".codex/config.toml"), "{off}: {e}");
    }
    for ok in runners::agent::HOME_FILES_ALLOWED {
        assert!(runners::agent::check_home_file(ok).is_ok(), "{ok}");
    }
}
