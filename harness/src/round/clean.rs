//! `harness clean`, and the sweep every `harness run` does at start: the temp folders of rounds
//! whose harness process is gone (killed, OOM, power cut) hold checkouts and seal copies that
//! nothing else would ever remove. Input: the system temp folder. Output: those folders removed,
//! each named on the terminal; folders of running rounds and folders without an owner marker
//! are never touched.

use crate::exit::Exit;
use anyhow::Result;
use std::path::PathBuf;

/// Removes the stale temp folders and returns them.
pub fn sweep() -> Vec<PathBuf> {
    runners::sweep_stale(&std::env::temp_dir())
}

/// `harness clean`: sweeps and says what it removed.
pub fn clean() -> Result<Exit> {
    let removed = sweep();
    for p in &removed {
        println!("removed {}", p.display());
    }
    println!(
        "clean: {} temp folder(s) of dead rounds removed under {}",
        removed.len(),
        std::env::temp_dir().display()
    );
    Ok(Exit::Ok)
}

/// The sweep at the start of a round: one line on stderr when it removed anything.
pub fn sweep_before_round() {
    let removed = sweep();
    if !removed.is_empty() {
        let mut names: Vec<String> = removed
            .iter()
            .take(3)
            .map(|p| crate::text::clean_line(&p.display().to_string(), 200))
            .collect();
        if removed.len() > 3 {
            names.push(format!("and {} more", removed.len() - 3));
        }
        eprintln!(
            "harness: removed {} temp folder(s) left by rounds whose harness is gone (checkouts and seal copies): {}",
            removed.len(),
            names.join(", ")
        );
    }
}
