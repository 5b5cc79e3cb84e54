//! The allowlisted environment end to end, in its own test binary because it sets
//! variables in the test process (one test, so no thread reads the environment while
//! it changes).

use std::time::Duration;

use runners::process::{run, DispatchHome, ProcessGroups, RunSpec};

#[test]
fn agent_sees_only_allowlisted_variables() {
    std::env::set_var("HARNESS_SECRET", "must-not-leak");
    std::env::set_var("SOME_VAR", "must-not-leak-either");
    std::env::set_var("PASSED_ON_PURPOSE", "yes");
    std::env::set_var("LANG", "C.UTF-8");
    let root = tempfile::tempdir().unwrap();
    let home = DispatchHome::create(&root.path().join("d")).unwrap();
    let mut spec = RunSpec::new(
        vec!["sh".into(), "-c".into(), "env".into()],
        root.path().to_path_buf(),
        home.clone(),
        Duration::from_secs(10),
    );
    spec.pass_env = vec!["PASSED_ON_PURPOSE".into()];
    let out = run(&spec, &ProcessGroups::new()).unwrap();
    let env = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = env.lines().filter_map(|l| l.split('=').next()).collect();
    assert!(!env.contains("must-not-leak"), "{env}");
    assert!(!names.iter().any(|n| n.starts_with("HARNESS_")));
    assert!(!names.contains(&"SOME_VAR"));
    assert!(names.contains(&"PATH") && names.contains(&"LANG"));
    assert!(env.contains("PASSED_ON_PURPOSE=yes"));
    assert!(env.contains(&format!("HOME={}", home.home.display())));
    // The record carries names, not values, and matches what the agent saw
    // (sh may add PWD/SHLVL/_ itself).
    for n in &out.env_names {
        assert!(names.contains(&n.as_str()), "{n} recorded but not seen");
    }
    assert!(out.env_names.contains(&"PASSED_ON_PURPOSE".to_string()));
    assert!(!out.env_names.iter().any(|n| n.contains('=')));
}
