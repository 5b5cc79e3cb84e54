//! The progress line on stderr: the phase (gate, template, dispatch, report), done/total, the
//! running counts (answered, failed, retried), elapsed time and an ETA. It stays on screen as
//! the round's last stderr line when the round ends, so a scrolled terminal still shows how it
//! went. Hidden when stderr is not a terminal or with `--quiet`, so logs and CI stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How one dispatch ended, for the running counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It left an answer.
    Answered,
    /// It failed (no answer).
    Failed,
    /// Ctrl-C stopped it: not the agent's failure, so not counted as one.
    Cancelled,
}

/// A progress line that may be hidden.
pub struct Progress {
    bar: ProgressBar,
    answered: AtomicUsize,
    failed: AtomicUsize,
    cancelled: AtomicUsize,
    retried: AtomicUsize,
}

/// The line's layout: phase first, counts after the bar, ETA last.
const TEMPLATE: &str =
    "{prefix:>8} {elapsed_precise} [{bar:30}] {pos}/{len} dispatches · {msg} · ETA {eta}";

impl Progress {
    /// A line for `total` dispatches, in phase `gate` until told otherwise.
    pub fn new(total: u64, quiet: bool) -> Self {
        let bar = ProgressBar::new(total);
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_style(
                ProgressStyle::with_template(TEMPLATE)
                    .expect("static template")
                    .progress_chars("=> "),
            );
        }
        let p = Progress {
            bar,
            answered: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            cancelled: AtomicUsize::new(0),
            retried: AtomicUsize::new(0),
        };
        p.set_phase("dispatch");
        p
    }

    /// The phase the round is in (`gate`, `template`, `dispatch`, `report`).
    pub fn set_phase(&self, phase: &str) {
        self.bar.set_prefix(phase.to_string());
        self.redraw_counts();
    }

    /// One dispatch ended.
    pub fn record(&self, outcome: Outcome) {
        match outcome {
            Outcome::Answered => self.answered.fetch_add(1, Ordering::SeqCst),
            Outcome::Failed => self.failed.fetch_add(1, Ordering::SeqCst),
            Outcome::Cancelled => self.cancelled.fetch_add(1, Ordering::SeqCst),
        };
        self.redraw_counts();
        self.bar.inc(1);
    }

    /// A dispatch needed at least one retry after an infrastructure failure.
    pub fn retried(&self) {
        self.retried.fetch_add(1, Ordering::SeqCst);
        self.redraw_counts();
    }

    /// The running counts, as the line shows them (cancelled only once there are any).
    pub fn counts_text(&self) -> String {
        let cancelled = self.cancelled.load(Ordering::SeqCst);
        format!(
            "answered {} · failed {}{} · retried {}",
            self.answered.load(Ordering::SeqCst),
            self.failed.load(Ordering::SeqCst),
            if cancelled > 0 {
                format!(" · cancelled {cancelled}")
            } else {
                String::new()
            },
            self.retried.load(Ordering::SeqCst)
        )
    }

    fn redraw_counts(&self) {
        self.bar.set_message(self.counts_text());
    }

    /// All ended: the line stays as the last one, in phase `done`.
    pub fn finish(&self) {
        self.bar.set_prefix("done");
        self.bar.abandon_with_message(self.counts_text());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_outcomes_and_retries() {
        let p = Progress::new(3, true);
        p.record(Outcome::Answered);
        p.retried();
        p.record(Outcome::Failed);
        p.record(Outcome::Answered);
        assert_eq!(p.counts_text(), "answered 2 · failed 1 · retried 1");
        p.record(Outcome::Cancelled);
        assert_eq!(
            p.counts_text(),
            "answered 2 · failed 1 · cancelled 1 · retried 1"
        );
    }
}
