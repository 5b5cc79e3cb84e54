//! What the process side needs from the operating system where Linux and macOS differ, for
//! macOS (the Linux forms stay next to their callers, behind `cfg(target_os = "linux")`):
//! a process's start time, the harness's own path, APFS clones, and noticing the harness's
//! death without a parent-death signal.

#![cfg(target_os = "macos")]

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

/// Start time of a process (µs since the epoch, from `proc_pidinfo`): with the pid it names
/// one process, even after the pid is reused.
pub(crate) fn start_time(pid: u32) -> Option<u64> {
    // SAFETY: proc_pidinfo fills at most `size` bytes of a zeroed plain-data struct.
    let mut info: libc::proc_bsdinfo = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::proc_bsdinfo>() as libc::c_int;
    let n = unsafe {
        libc::proc_pidinfo(
            pid as libc::c_int,
            libc::PROC_PIDTBSDINFO,
            0,
            &mut info as *mut _ as *mut libc::c_void,
            size,
        )
    };
    (n == size).then(|| info.pbi_start_tvsec * 1_000_000 + info.pbi_start_tvusec)
}

/// The executable of a process (`proc_pidpath`).
fn exe_of(pid: libc::pid_t) -> Option<PathBuf> {
    let mut buf = vec![0u8; libc::PROC_PIDPATHINFO_MAXSIZE as usize];
    // SAFETY: proc_pidpath writes at most `buf.len()` bytes into `buf`.
    let n =
        unsafe { libc::proc_pidpath(pid, buf.as_mut_ptr() as *mut libc::c_void, buf.len() as u32) };
    (n > 0).then(|| PathBuf::from(std::ffi::OsStr::from_bytes(&buf[..n as usize])))
}

/// Whether this process's parent runs the same executable (the harness re-execs itself as
/// the wrapper).
pub(crate) fn parent_is_harness() -> bool {
    // SAFETY: getppid and getpid cannot fail.
    let (ppid, me) = unsafe { (libc::getppid(), libc::getpid()) };
    let mine = exe_of(me);
    mine.is_some() && exe_of(ppid) == mine
}

/// The parent the wrapper started under (0: not recorded).
static PARENT: AtomicI32 = AtomicI32::new(0);

/// Records the current parent, for [`parent_changed`].
pub(crate) fn remember_parent() {
    // SAFETY: getppid cannot fail.
    PARENT.store(unsafe { libc::getppid() }, Ordering::SeqCst);
}

/// Whether the parent recorded by [`remember_parent`] has died (this process was re-parented):
/// what Linux's parent-death signal tells the reaper.
pub(crate) fn parent_changed() -> bool {
    let p = PARENT.load(Ordering::SeqCst);
    // SAFETY: getppid cannot fail.
    p != 0 && unsafe { libc::getppid() } != p
}

/// `CLONE_NOFOLLOW` of `<sys/clonefile.h>`: a link is cloned as the link.
const CLONE_NOFOLLOW: u32 = 0x0001;

/// Clones `src` to the free name `dst` on APFS (`clonefile`, no data copied); false where the
/// filesystem cannot (then the caller copies).
pub(crate) fn clone_file(src: &Path, dst: &Path) -> bool {
    let (Ok(s), Ok(d)) = (
        CString::new(src.as_os_str().as_bytes()),
        CString::new(dst.as_os_str().as_bytes()),
    ) else {
        return false;
    };
    // SAFETY: clonefile(2) with two NUL-terminated paths; it creates `dst` or fails.
    unsafe { libc::clonefile(s.as_ptr(), d.as_ptr(), CLONE_NOFOLLOW) == 0 }
}
