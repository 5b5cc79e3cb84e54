//! The progress line on stderr: the phase (gate, template, dispatch, report), done/total, the
//! running counts (answered, failed, retried), elapsed time and an ETA. It stays on screen as
//! the round's last stderr line when the round ends, so a scrolled terminal still shows how it
//! went. Hidden with `--quiet`.
//!
//! When stderr is not a terminal (CI, `2> log`), a bar would be noise, but silence is worse: an
//! 85 s round with real agents printed nothing between preflight and its result, which reads
//! as a hung job. There a plain line is written every [`PLAIN_EVERY`] (counts, elapsed, ETA),
//! one `write` each, and a last one when the dispatches end.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How often the plain line is written when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

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
    counts: Arc<Counts>,
    plain: Option<Plain>,
}

/// The running counts, shared with the plain-line thread.
#[derive(Default)]
struct Counts {
    answered: AtomicUsize,
    failed: AtomicUsize,
    cancelled: AtomicUsize,
    retried: AtomicUsize,
    phase: Mutex<String>,
}

/// The thread writing plain lines off a terminal, and the flag that stops it at once.
struct Plain {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The line's layout: phase first, counts after the bar, ETA last.
const TEMPLATE: &str =
    "{prefix:>8} {elapsed_precise} [{bar:30}] {pos}/{len} dispatches · {msg} · ETA {eta}";

impl Progress {
    /// A line for `total` dispatches, in phase `dispatch` until told otherwise: a bar on a
    /// terminal, a plain line every [`PLAIN_EVERY`] elsewhere, nothing with `quiet`.
    pub fn new(total: u64, quiet: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        Self::with_output(total, quiet, terminal, PLAIN_EVERY)
    }

    fn with_output(total: u64, quiet: bool, terminal: bool, every: Duration) -> Self {
        let bar = ProgressBar::new(total);
        if quiet || !terminal {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_style(
                ProgressStyle::with_template(TEMPLATE)
                    .expect("static template")
                    .progress_chars("=> "),
            );
        }
        let counts = Arc::new(Counts::default());
        let plain = (!quiet && !terminal).then(|| Plain::start(bar.clone(), counts.clone(), every));
        let p = Progress { bar, counts, plain };
        p.set_phase("dispatch");
        p
    }

    /// The phase the round is in (`gate`, `template`, `dispatch`, `report`).
    pub fn set_phase(&self, phase: &str) {
        *self.counts.phase.lock().unwrap_or_else(|e| e.into_inner()) = phase.to_string();
        self.bar.set_prefix(phase.to_string());
        self.redraw_counts();
    }

    /// One dispatch ended.
    pub fn record(&self, outcome: Outcome) {
        let c = &self.counts;
        match outcome {
            Outcome::Answered => c.answered.fetch_add(1, Ordering::SeqCst),
            Outcome::Failed => c.failed.fetch_add(1, Ordering::SeqCst),
            Outcome::Cancelled => c.cancelled.fetch_add(1, Ordering::SeqCst),
        };
        self.redraw_counts();
        self.bar.inc(1);
    }

    /// A dispatch needed at least one retry after an infrastructure failure.
    pub fn retried(&self) {
        self.counts.retried.fetch_add(1, Ordering::SeqCst);
        self.redraw_counts();
    }

    /// The running counts, as the line shows them (cancelled only once there are any).
    pub fn counts_text(&self) -> String {
        self.counts.text()
    }

    fn redraw_counts(&self) {
        self.bar.set_message(self.counts_text());
    }

    /// All ended: the line stays as the last one, in phase `done` (off a terminal, a last
    /// plain line says so).
    pub fn finish(&self) {
        self.set_phase("done");
        if let Some(p) = &self.plain {
            p.stop();
            eprint_whole(&plain_line(&self.bar, &self.counts));
        }
        self.bar.abandon_with_message(self.counts_text());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(p) = &mut self.plain {
            p.stop();
            if let Some(t) = p.thread.take() {
                let _ = t.join();
            }
        }
    }
}

impl Counts {
    fn text(&self) -> String {
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
}

impl Plain {
    fn start(bar: ProgressBar, counts: Arc<Counts>, every: Duration) -> Plain {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let (lock, cv) = &*flag;
            let mut stopped = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                let (guard, _) = cv
                    .wait_timeout_while(stopped, every, |s| !*s)
                    .unwrap_or_else(|e| e.into_inner());
                stopped = guard;
                if *stopped {
                    return;
                }
                eprint_whole(&plain_line(&bar, &counts));
            }
        });
        Plain {
            stop,
            thread: Some(thread),
        }
    }

    fn stop(&self) {
        let (lock, cv) = &*self.stop;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
    }
}

/// `progress: dispatch 3/12 · answered 3 · failed 0 · retried 0 · elapsed 0:00:21 · ETA 0:01:04`
/// (ETA `?` until a dispatch has ended).
fn plain_line(bar: &ProgressBar, counts: &Counts) -> String {
    let phase = counts
        .phase
        .lock()
        .map(|p| p.clone())
        .unwrap_or_else(|e| e.into_inner().clone());
    let done = bar.position();
    let eta = if done == 0 {
        "?".to_string()
    } else {
        clock(bar.eta())
    };
    format!(
        "progress: {phase} {done}/{} dispatches · {} · elapsed {} · ETA {eta}\n",
        bar.length().unwrap_or(0),
        counts.text(),
        clock(bar.elapsed()),
    )
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// One write for the whole line, so lines from other threads never interleave inside it.
fn eprint_whole(line: &str) {
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_carry_counts_and_eta_and_stop_with_the_round() {
        let p = Progress::with_output(4, false, false, Duration::from_millis(30));
        assert!(plain_line(&p.bar, &p.counts).contains("dispatch 0/4 dispatches"));
        assert!(plain_line(&p.bar, &p.counts).ends_with("ETA ?\n"));
        p.record(Outcome::Answered);
        let line = plain_line(&p.bar, &p.counts);
        assert!(
            line.starts_with("progress: dispatch 1/4 dispatches · answered 1"),
            "{line}"
        );
        assert!(!line.contains("ETA ?"), "{line}");
        p.finish();
        assert!(plain_line(&p.bar, &p.counts).starts_with("progress: done 1/4"));
        drop(p);
        let quiet = Progress::with_output(4, true, false, Duration::from_millis(30));
        assert!(quiet.plain.is_none(), "--quiet writes nothing");
        let tty = Progress::with_output(4, false, true, Duration::from_millis(30));
        assert!(tty.plain.is_none(), "a terminal gets the bar");
    }

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
