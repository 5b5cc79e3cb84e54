//! `--retries` for one dispatch (issue 12): an attempt that fails for a reason of the
//! infrastructure — a checkout, a spawn, the sandbox wrapper, a kill, a timeout, a silent
//! exit, a write — runs again from a fresh checkout, and each failed attempt is recorded
//! with its reason. What the agent itself answered is never retried: that is the
//! measurement. So the default is "retry", and only failures marked [`AgentsOwn`] stop it:
//! an infrastructure failure nobody thought of is still retried.

use std::fmt;

/// Marks a failure that is the agent's own result (its output went over the cap, it is not
/// in the agent's output format) or a cancel: running it again would change what is
/// measured, not repair the instrument.
#[derive(Debug)]
pub struct AgentsOwn(pub String);

impl fmt::Display for AgentsOwn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AgentsOwn {}

/// Whether `err` may be retried: anything not marked [`AgentsOwn`] anywhere in its chain.
pub fn is_infrastructure(err: &anyhow::Error) -> bool {
    !err.chain().any(|e| e.is::<AgentsOwn>())
}

/// Runs `attempt` (given its 1-based number) until it succeeds, fails with the agent's own
/// result, `cancelled()` holds, or `retries` retries are spent. Each failed attempt that is
/// retried leaves `attempt N: <reason>` in `record`; the last result is returned.
pub fn with_retries<T>(
    retries: u32,
    cancelled: impl Fn() -> bool,
    record: &mut Vec<String>,
    mut attempt: impl FnMut(u32) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let mut n = 0;
    loop {
        n += 1;
        match attempt(n) {
            Err(e) if is_infrastructure(&e) && n <= retries && !cancelled() => {
                record.push(format!(
                    "attempt {n}: {}",
                    crate::text::clean_line(&format!("{e:#}"), 300)
                ));
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::anyhow;

    #[test]
    fn infrastructure_failures_are_retried_and_recorded_until_one_succeeds() {
        let mut record = Vec::new();
        let r = with_retries(
            3,
            || false,
            &mut record,
            |n| {
                if n < 3 {
                    Err(anyhow!("killed by signal 9")).map_err(|e| e.context("running the agent"))
                } else {
                    Ok(n)
                }
            },
        );
        assert_eq!(r.unwrap(), 3);
        assert_eq!(
            record,
            vec![
                "attempt 1: running the agent: killed by signal 9",
                "attempt 2: running the agent: killed by signal 9"
            ]
        );
    }

    #[test]
    fn retries_stop_when_spent_and_the_last_failure_is_returned() {
        let mut record = Vec::new();
        let r: anyhow::Result<()> =
            with_retries(2, || false, &mut record, |n| Err(anyhow!("checkout {n}")));
        assert_eq!(r.unwrap_err().to_string(), "checkout 3");
        assert_eq!(record.len(), 2);
        let mut none = Vec::new();
        let r: anyhow::Result<()> = with_retries(0, || false, &mut none, |_| Err(anyhow!("x")));
        assert!(r.is_err() && none.is_empty(), "--retries 0 runs once");
    }

    #[test]
    fn the_agents_own_result_and_a_cancel_are_never_retried() {
        let mut record = Vec::new();
        let mut runs = 0;
        let r: anyhow::Result<()> = with_retries(
            5,
            || false,
            &mut record,
            |_| {
                runs += 1;
                Err(anyhow::Error::new(AgentsOwn("output over the cap".into())).context("dispatch"))
            },
        );
        assert!(r.is_err());
        assert_eq!((runs, record.len()), (1, 0));
        let mut runs = 0;
        let r: anyhow::Result<()> = with_retries(
            5,
            || true,
            &mut record,
            |_| {
                runs += 1;
                Err(anyhow!("killed by signal 15"))
            },
        );
        assert!(r.is_err());
        assert_eq!(
            (runs, record.len()),
            (1, 0),
            "a cancelled round is not retried"
        );
    }
}
