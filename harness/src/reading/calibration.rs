//! The last calibration of each judge (`harness judge eval`), kept in the user's state folder
//! (`$XDG_STATE_HOME/harness/judge-calibration.json`, one entry per judge as records name it),
//! so a round read by that judge records it and every report's Readers section shows it.

use anyhow::Result;
use reports::calibration::Calibration;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The file, beside the default rounds folder in the user's state folder.
pub fn path() -> PathBuf {
    let rounds = crate::outdir::default_root();
    rounds
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or(rounds)
        .join("judge-calibration.json")
}

fn load_all() -> BTreeMap<String, Calibration> {
    std::fs::read(path())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The last calibration of the judge records name `judge`, when one is kept.
pub fn last(judge: &str) -> Option<Calibration> {
    load_all().remove(judge)
}

/// Keeps `c` as its judge's last calibration (the file rewritten atomically).
pub fn keep(c: &Calibration) -> Result<()> {
    let mut all = load_all();
    all.insert(c.judge.clone(), c.clone());
    let p = path();
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::files::write_atomic(&p, serde_json::to_string_pretty(&all)?.as_bytes())
}
