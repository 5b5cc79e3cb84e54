//! How a round runs its agents through the sandbox (DESIGN §4, `--sandbox`): the mode is
//! checked against the kernel before any dispatch, every agent argv is wrapped in
//! `harness __sandbox`, and the level each wrapper reports is what the round records.

use anyhow::Result;
use runners::sandbox::{self as sb, Isolation, SandboxMode, SandboxRequest};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The round's sandbox: the mode and the folders no agent may read.
pub struct SandboxPlan {
    /// `--sandbox`.
    pub mode: SandboxMode,
    /// The user's repository, the out-dir, the labelmap's folder, the temp root, the inputs.
    pub forbid: Vec<PathBuf>,
    /// Checkouts are overlays mounted in the sandbox (issue 14) rather than copies; set by
    /// [`SandboxPlan::with_overlay`] when this machine mounts one for real.
    pub overlay: bool,
}

impl SandboxPlan {
    /// Refuses a mode the kernel cannot honour (`full` with a layer missing) before dispatch.
    /// Every round's state and out-dir ([`crate::outdir::protected`]) is added to `forbid`.
    pub fn new(mode: SandboxMode, mut forbid: Vec<PathBuf>) -> Result<SandboxPlan> {
        sb::preflight(mode, &sb::probe())?;
        for p in crate::outdir::protected() {
            if !forbid.contains(&p) {
                forbid.push(p);
            }
        }
        Ok(SandboxPlan {
            mode,
            forbid,
            overlay: false,
        })
    }

    /// The argv that runs `agent` in this sandbox; the wrapper writes its report to `report`.
    pub fn wrap(
        &self,
        harness_exe: &Path,
        work: &Path,
        home: &runners::DispatchHome,
        report: &Path,
        overlay: Option<&runners::OverlayLayers>,
        agent: Vec<OsString>,
    ) -> Vec<OsString> {
        // Every mode, `none` included, runs the agent through the wrapper: it is also the
        // dispatch's reaper, so nothing the agent starts outlives its dispatch or the harness.
        let req = SandboxRequest {
            mode: self.mode,
            checkout: work.to_path_buf(),
            home: home.home.clone(),
            tmp: home.tmp.clone(),
            report: report.to_path_buf(),
            forbid: self.forbid.clone(),
            overlay: overlay.cloned(),
        };
        sb::wrap_argv(harness_exe, &req, &agent)
    }

    /// What a dispatch ran under: the wrapper's report (every mode runs through it).
    pub fn level_of(&self, report: &Path) -> String {
        match sb::read_report(report) {
            Ok(iso) => describe(&iso),
            Err(e) => format!("UNKNOWN (no sandbox report: {e})"),
        }
    }
}

impl SandboxPlan {
    /// The wrapper's clock stamps (agent exec, agent gone; µs since the epoch), each `None`
    /// when the report lacks it.
    pub fn stamps_of(&self, report: &Path) -> (Option<u64>, Option<u64>) {
        sb::read_report(report)
            .map(|iso| (iso.exec_unix_us, iso.agent_end_unix_us))
            .unwrap_or((None, None))
    }

    /// What the dispatch's reaper killed after the agent exited (empty without a report).
    pub fn strays_of(&self, report: &Path) -> Vec<String> {
        sb::read_report(report)
            .map(|iso| iso.stray_processes)
            .unwrap_or_default()
    }

    /// Whether a dispatch's exit code was the wrapper's own (it refused, or could not exec the
    /// agent) rather than the agent's: read from the wrapper's report, so an agent that itself
    /// exits 125 or 127 is not blamed on the sandbox.
    pub fn failure(&self, report: &Path, exit_code: Option<i32>) -> Option<String> {
        match (exit_code, sb::read_report(report)) {
            (_, Ok(iso)) if iso.refused => Some(format!(
                "the sandbox refused to start the agent ({})",
                describe(&iso)
            )),
            (_, Ok(iso)) if iso.exec_error.is_some() => Some(format!(
                "the agent could not be executed in the sandbox: {}",
                iso.exec_error.unwrap_or_default()
            )),
            (Some(sb::EXIT_SANDBOX_REFUSED), Err(_)) => {
                Some("the sandbox wrapper failed before the agent started (no report)".into())
            }
            _ => None,
        }
    }
}

/// One line for a wrapper's report: the level, and what is missing.
pub fn describe(iso: &Isolation) -> String {
    if iso.missing.is_empty() {
        iso.level.clone()
    } else {
        format!("{} ({})", iso.level, iso.missing.join("; "))
    }
}

/// The round's isolation level from every dispatch's: one value when they agree.
pub fn round_level(mode: SandboxMode, levels: &[String]) -> String {
    let mut uniq: Vec<&String> = levels.iter().collect();
    uniq.sort();
    uniq.dedup();
    match uniq.as_slice() {
        [] => format!("{} (requested; no dispatch ran)", mode.name()),
        [one] => (*one).clone(),
        many => format!(
            "MIXED: {}",
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    }
}

impl SandboxPlan {
    /// Uses overlay checkouts when the sandbox enters namespaces, Landlock keeps agents off the
    /// shared template, and an overlay mount works here (tried under `scratch`); else copies.
    pub fn with_overlay(mut self, scratch: &Path) -> SandboxPlan {
        let caps = sb::probe();
        self.overlay = matches!(self.mode, SandboxMode::Auto | SandboxMode::Full)
            && caps.userns
            && caps.mount_proc
            && caps.landlock_abi.is_some()
            && sb::probe_overlay(scratch).is_ok();
        self
    }

    /// One dispatch's checkout: an overlay's layers under `dir` (mounted by the sandbox at
    /// `work`) or a verified copy of the template at `work`; with the method's name.
    pub fn checkout(
        &self,
        template: &runners::Template,
        dir: &Path,
        work: &Path,
        seal: Option<&runners::Seal>,
    ) -> Result<(
        runners::Checkout,
        Option<runners::OverlayLayers>,
        &'static str,
    )> {
        if self.overlay {
            let (c, layers) = template.overlay_checkout(dir, work, seal)?;
            Ok((c, Some(layers), runners::METHOD_OVERLAY))
        } else {
            Ok((template.checkout(work, seal)?, None, runners::METHOD_COPY))
        }
    }
}
