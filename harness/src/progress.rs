//! The progress bar on stderr: done/total, failures, elapsed. Hidden when stderr is not a
//! terminal or with `--quiet`, so logs and CI output stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A progress bar that may be hidden.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` dispatches.
    pub fn new(total: u64, quiet: bool) -> Self {
        let bar = ProgressBar::new(total);
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} dispatches {msg}",
                )
                .expect("static template")
                .progress_chars("=> "),
            );
        }
        Progress { bar }
    }

    /// One dispatch ended; `failures` so far.
    pub fn tick(&self, failures: usize) {
        if failures > 0 {
            self.bar.set_message(format!("({failures} failed)"));
        }
        self.bar.inc(1);
    }

    /// All ended.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
