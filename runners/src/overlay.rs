//! Per-dispatch checkouts in constant time (issue 14): an overlay mounted inside the sandbox's
//! own mount namespace, the round's template as its read-only lower layer, a fresh upper layer
//! per dispatch holding only what differs (the seal, for ARM) and, later, the agent's writes.
//!
//! Layout of one dispatch folder (names neutral: they say nothing of arm, round or template):
//! `work` (the mount point, the agent's cwd), `l` (where the template is bind-mounted just long
//! enough to be named as the lower layer, then detached), `u` (upper), `w` (overlay's work dir).
//! So `/proc/self/mountinfo` in the sandbox names `…/l`, `…/u`, `…/w` of the dispatch's own
//! folder, never the template's path. Before the agent starts only the upper layer is checked
//! (O(size of the plant)); cleanup removes only the upper layer.

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// How a dispatch's checkout was made; recorded per dispatch and in the report header.
pub const METHOD_OVERLAY: &str = "overlay";
/// The fallback: a full copy of the template (reflink or in-kernel copy), checked whole.
pub const METHOD_COPY: &str = "copy";

/// The folders one overlay checkout is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayLayers {
    /// The template (read-only lower layer).
    pub lower: PathBuf,
    /// The empty folder the template is bind-mounted on while the overlay is mounted.
    pub stage: PathBuf,
    /// The per-dispatch upper layer.
    pub upper: PathBuf,
    /// overlayfs's work folder (same filesystem as `upper`).
    pub work: PathBuf,
    /// The mount point: the agent's checkout.
    pub target: PathBuf,
}

fn mkdir_0700(p: &Path) -> Result<()> {
    fs::DirBuilder::new()
        .mode(0o700)
        .create(p)
        .map_err(|e| Error::io("create dir", p, e))
}

impl OverlayLayers {
    /// Creates the empty stage, upper and work folders under `dispatch_dir` for a checkout
    /// mounted at `target` (created empty when absent) over `template`.
    pub fn create(template: &Path, dispatch_dir: &Path, target: &Path) -> Result<OverlayLayers> {
        let l = OverlayLayers {
            lower: template.to_path_buf(),
            stage: dispatch_dir.join("l"),
            upper: dispatch_dir.join("u"),
            work: dispatch_dir.join("w"),
            target: target.to_path_buf(),
        };
        for d in [&l.stage, &l.upper, &l.work] {
            mkdir_0700(d)?;
        }
        if !target.exists() {
            mkdir_0700(target)?;
        }
        Ok(l)
    }

    /// The C strings the sandbox child needs, built before `clone` (the child may only make
    /// system calls).
    pub fn prepare(&self) -> Result<PreparedOverlay> {
        let c = |p: &Path| {
            CString::new(p.as_os_str().as_bytes())
                .map_err(|_| Error::Sandbox(format!("NUL byte in `{}`", p.display())))
        };
        for p in [&self.stage, &self.upper, &self.work] {
            let s = p.as_os_str().as_bytes();
            if s.contains(&b',') || s.contains(&b':') || s.contains(&b'\\') {
                return Err(Error::Sandbox(format!(
                    "overlay layer path `{}` holds a `,`, `:` or `\\`",
                    p.display()
                )));
            }
        }
        let opts = format!(
            "lowerdir={},upperdir={},workdir={}",
            self.stage.display(),
            self.upper.display(),
            self.work.display()
        );
        let cs = |o: String| {
            CString::new(o).map_err(|_| Error::Sandbox("NUL in overlay options".into()))
        };
        Ok(PreparedOverlay {
            lower: c(&self.lower)?,
            stage: c(&self.stage)?,
            target: c(&self.target)?,
            volatile: cs(format!("{opts},volatile"))?,
            opts: cs(opts)?,
        })
    }
}

/// An overlay ready to be mounted by the sandbox child.
#[derive(Debug)]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub struct PreparedOverlay {
    lower: CString,
    stage: CString,
    target: CString,
    /// With `volatile` (Linux 5.10+): the upper layer is thrown away after the dispatch, so it
    /// is never synced. Without it, the overlay's unmount syncs the whole filesystem under the
    /// upper layer: the first dispatch after the template build paid the template's writeback
    /// (seconds on a large tree), every later one whatever else was dirty.
    volatile: CString,
    opts: CString,
}

impl PreparedOverlay {
    /// The mount point, as the child opens it for its Landlock rule.
    pub fn target(&self) -> &std::ffi::CStr {
        &self.target
    }

    /// In a private mount namespace: bind the template on the stage, mount the overlay on the
    /// target, detach the stage (the overlay keeps its own reference to the lower layer) and
    /// enter the target (the cwd inherited from the parent is the folder underneath). Returns
    /// 0 or `step * 1000 + errno`. System calls only: safe between `clone` and `exec`.
    #[cfg(target_os = "linux")]
    pub fn mount_in_child(&self) -> i32 {
        let fail =
            |step: i32| step * 1000 + std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        let ovl = c"overlay";
        // SAFETY: mount(2), umount2(2) and chdir(2) with C strings owned by `self`.
        unsafe {
            if libc::mount(
                self.lower.as_ptr(),
                self.stage.as_ptr(),
                std::ptr::null(),
                libc::MS_BIND,
                std::ptr::null(),
            ) != 0
            {
                return fail(1);
            }
            let mount_with = |opts: &CString| {
                libc::mount(
                    ovl.as_ptr(),
                    self.target.as_ptr(),
                    ovl.as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    opts.as_ptr() as *const libc::c_void,
                )
            };
            // A kernel without `volatile` refuses the option with EINVAL: mount without it.
            if mount_with(&self.volatile) != 0
                && (std::io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
                    || mount_with(&self.opts) != 0)
            {
                return fail(2);
            }
            if libc::umount2(self.stage.as_ptr(), libc::MNT_DETACH) != 0 {
                return fail(3);
            }
            if libc::chdir(self.target.as_ptr()) != 0 {
                return fail(4);
            }
        }
        0
    }
}

/// Describes a code from [`PreparedOverlay::mount_in_child`].
pub fn describe_code(code: i32) -> String {
    let step = match code / 1000 {
        1 => "binding the template",
        2 => "mounting the overlay",
        3 => "detaching the template's stage",
        4 => "entering the checkout",
        5 => "no private mount namespace to mount it in",
        6 => "reading through the overlay",
        _ => "overlay",
    };
    format!("{step}: {}", std::io::Error::from_raw_os_error(code % 1000))
}
