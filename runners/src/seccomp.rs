//! The sandbox's system-call filter (issue 25): the ways out of a sandbox that Landlock's
//! file rules do not see.
//!
//! * `socket(AF_UNIX, …)` is refused, so no UNIX socket can be connected to: a user-session
//!   service listening on a pathname socket (`$SSH_AUTH_SOCK`, the D-Bus session bus under
//!   `/run/user/UID/bus` that `systemd-run --user` obeys, `/var/run/docker.sock`) or on an
//!   abstract one would run the agent's commands as the user, outside every sandbox.
//!   Landlock covers opening files, not `connect(2)` to a socket path. `socketpair(2)` stays
//!   allowed (a connected pair reaches nothing outside), and so do TCP/UDP sockets: the agent
//!   CLIs talk to their API over TCP.
//! * `ioctl(TIOCSTI)` and `ioctl(TIOCLINUX)` are refused: they push input into a terminal,
//!   which its shell runs once the round ends. (The runner also starts every agent in a new
//!   session without a controlling terminal and the sandbox gives no rule on `/dev/tty` or
//!   `/dev/pts`; this is the third wall.)
//! * `io_uring_setup`, `io_uring_enter` and `io_uring_register` are refused (`ENOSYS`, so
//!   runtimes fall back to plain system calls): an io_uring `SOCKET`/`CONNECT` request would
//!   go around the `socket` rule.
//! * System calls of another ABI (i386 `int 0x80`, x32 numbers on x86-64) are refused, so the
//!   same calls cannot come in under other numbers.
//!
//! A raw classic-BPF program, installed with `prctl(PR_SET_SECCOMP)` in the sandbox child
//! between `clone` and `exec` (only system calls there); inherited by everything the agent
//! starts, and no process can remove it.

/// One classic BPF instruction (`struct sock_filter`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct SockFilter {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

/// `struct sock_fprog`.
#[repr(C)]
struct SockFprog {
    len: libc::c_ushort,
    filter: *const SockFilter,
}

const BPF_LD_W_ABS: u16 = 0x20; // BPF_LD (0) | BPF_W (0) | BPF_ABS (0x20)
const BPF_JEQ_K: u16 = 0x05 | 0x10; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JGE_K: u16 = 0x05 | 0x30; // BPF_JMP | BPF_JGE | BPF_K
const BPF_RET_K: u16 = 0x06; // BPF_RET | BPF_K

const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;

/// Offsets in `struct seccomp_data`: `nr` (int), `arch` (u32), then `args[6]` (u64 each)
/// from 16. Only the low 32 bits of an argument are compared: the kernel reads `socket`'s
/// domain and `ioctl`'s request as 32-bit values, whatever the upper half holds.
const OFF_NR: u32 = 0;
const OFF_ARCH: u32 = 4;
#[cfg(target_endian = "little")]
const fn off_arg_low(i: u32) -> u32 {
    16 + 8 * i
}

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH_NATIVE: u32 = 0xc000_003e; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH_NATIVE: u32 = 0xc000_00b7; // AUDIT_ARCH_AARCH64

/// x32 system calls carry this bit in their number on x86-64 (same audit arch).
#[cfg(target_arch = "x86_64")]
const X32_SYSCALL_BIT: u32 = 0x4000_0000;
#[cfg(target_arch = "aarch64")]
const X32_SYSCALL_BIT: u32 = u32::MAX; // no such ABI: the check never matches

const fn stmt(code: u16, k: u32) -> SockFilter {
    SockFilter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

const fn jump(code: u16, k: u32, jt: u8, jf: u8) -> SockFilter {
    SockFilter { code, jt, jf, k }
}

/// Whether this build can filter system calls at all (the filter is written for x86-64 and
/// arm64 only).
pub const SUPPORTED: bool = cfg!(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    target_endian = "little"
));

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    target_endian = "little"
))]
fn program() -> [SockFilter; 19] {
    let deny = SECCOMP_RET_ERRNO | libc::EACCES as u32;
    let nosys = SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    [
        // 0: foreign ABI → ENOSYS.
        stmt(BPF_LD_W_ABS, OFF_ARCH),
        jump(BPF_JEQ_K, AUDIT_ARCH_NATIVE, 1, 0),
        stmt(BPF_RET_K, nosys),
        // 3: x32 numbers → ENOSYS.
        stmt(BPF_LD_W_ABS, OFF_NR),
        jump(BPF_JGE_K, X32_SYSCALL_BIT, 0, 1),
        stmt(BPF_RET_K, nosys),
        // 6: dispatch on the number (BPF jumps only forward: offsets count from the next).
        jump(BPF_JEQ_K, libc::SYS_socket as u32, 5, 0), // → 12
        jump(BPF_JEQ_K, libc::SYS_ioctl as u32, 6, 0),  // → 14
        jump(BPF_JEQ_K, libc::SYS_io_uring_setup as u32, 2, 0), // → 11
        jump(BPF_JEQ_K, libc::SYS_io_uring_enter as u32, 1, 0), // → 11
        jump(BPF_JEQ_K, libc::SYS_io_uring_register as u32, 0, 7), // → 11, else 18
        // 11: io_uring → ENOSYS.
        stmt(BPF_RET_K, nosys),
        // 12: socket: domain AF_UNIX → EACCES (17), else allow (18).
        stmt(BPF_LD_W_ABS, off_arg_low(0)),
        jump(BPF_JEQ_K, libc::AF_UNIX as u32, 3, 4),
        // 14: ioctl: TIOCSTI or TIOCLINUX → EACCES (17), else allow (18).
        stmt(BPF_LD_W_ABS, off_arg_low(1)),
        jump(BPF_JEQ_K, libc::TIOCSTI as u32, 1, 0),
        jump(BPF_JEQ_K, libc::TIOCLINUX as u32, 0, 1),
        // 17: EACCES.
        stmt(BPF_RET_K, deny),
        // 18: everything else.
        stmt(BPF_RET_K, SECCOMP_RET_ALLOW),
    ]
}

/// Installs the filter on the calling thread (and everything it later starts). Sets
/// `no_new_privs` first, which an unprivileged filter needs (Landlock set it already).
/// Returns 0 or the errno of the failing call. Only system calls: safe between `clone` and
/// `exec`.
pub fn install() -> i32 {
    #[cfg(all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        target_endian = "little"
    ))]
    {
        let prog = program();
        let fprog = SockFprog {
            len: prog.len() as libc::c_ushort,
            filter: prog.as_ptr(),
        };
        // SAFETY: prctl with integer arguments.
        if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
            return errno();
        }
        // SAFETY: fprog points at a live, well-formed filter for the duration of the call;
        // the kernel copies it.
        let rc = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &fprog as *const SockFprog,
                0,
                0,
            )
        };
        if rc != 0 {
            return errno();
        }
        0
    }
    #[cfg(not(all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        target_endian = "little"
    )))]
    {
        libc::ENOSYS
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EINVAL)
        .max(1)
}

/// What the filter does, checked for real in a short-lived forked child: installed, then
/// `socket(AF_UNIX)` must fail with `EACCES` while `socketpair(AF_UNIX)` and
/// `socket(AF_INET)` still work. `Err` says which step failed.
pub fn probe() -> std::result::Result<(), String> {
    if !SUPPORTED {
        return Err("no filter for this CPU architecture".into());
    }
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 fills two fds owned here.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!("pipe: {}", std::io::Error::last_os_error()));
    }
    let (r, w) = (fds[0], fds[1]);
    // SAFETY: fork-style; the child only makes system calls and leaves with _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        let e = std::io::Error::last_os_error();
        // SAFETY: closing our own fds.
        unsafe {
            libc::close(r);
            libc::close(w);
        }
        return Err(format!("fork: {e}"));
    }
    if pid == 0 {
        let code: i32 = (|| {
            let e = install();
            if e != 0 {
                return 1000 + e;
            }
            // SAFETY: plain socket calls; fds are closed at _exit.
            unsafe {
                if libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0) >= 0 {
                    return 1;
                }
                if errno() != libc::EACCES {
                    return 2000 + errno();
                }
                let mut sp = [0 as libc::c_int; 2];
                if libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, sp.as_mut_ptr()) != 0 {
                    return 3000 + errno();
                }
                if libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) < 0 {
                    return 4000 + errno();
                }
            }
            0
        })();
        let b = code.to_ne_bytes();
        // SAFETY: writing our own buffer, then leaving without unwinding.
        unsafe {
            libc::write(w, b.as_ptr() as *const libc::c_void, 4);
            libc::_exit(0);
        }
    }
    // SAFETY: closing our copy of the write end.
    unsafe { libc::close(w) };
    let mut b = [0u8; 4];
    // SAFETY: reading into our own buffer.
    let n = unsafe { libc::read(r, b.as_mut_ptr() as *mut libc::c_void, 4) };
    // SAFETY: closing our fd and reaping our child.
    unsafe {
        libc::close(r);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    if n != 4 {
        return Err("probe child ended without reporting".into());
    }
    let describe = |e: i32| std::io::Error::from_raw_os_error(e).to_string();
    match i32::from_ne_bytes(b) {
        0 => Ok(()),
        1 => Err("socket(AF_UNIX) still worked under the filter".into()),
        c if c >= 4000 => Err(format!(
            "socket(AF_INET) refused under the filter: {}",
            describe(c - 4000)
        )),
        c if c >= 3000 => Err(format!(
            "socketpair refused under the filter: {}",
            describe(c - 3000)
        )),
        c if c >= 2000 => Err(format!(
            "socket(AF_UNIX) failed with another error: {}",
            describe(c - 2000)
        )),
        c => Err(format!("installing the filter: {}", describe(c - 1000))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` in a forked child and returns what it returned (the child's exit code).
    fn in_child(f: fn() -> i32) -> i32 {
        // SAFETY: fork in a test; the child only makes system calls and leaves with _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let code = f();
            // SAFETY: leaving the child without unwinding into the test harness.
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "child died: {status}");
        libc::WEXITSTATUS(status)
    }

    /// In a new session, a pty of its own as controlling terminal, then `TIOCSTI` on it:
    /// 0 when the byte was pushed, else the errno (capped to fit an exit code).
    fn push_into_own_pty(filtered: bool) -> i32 {
        // SAFETY: openpty/setsid/ioctl on fds owned by this child.
        unsafe {
            let (mut m, mut s) = (0, 0);
            if libc::openpty(
                &mut m,
                &mut s,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            ) != 0
            {
                return 200;
            }
            if libc::setsid() < 0 || libc::ioctl(s, libc::TIOCSCTTY, 0) != 0 {
                return 201;
            }
            if filtered && install() != 0 {
                return 202;
            }
            let b = b'x';
            if libc::ioctl(s, libc::TIOCSTI, &b as *const u8) == 0 {
                0
            } else {
                errno().min(199)
            }
        }
    }

    #[test]
    fn the_filter_refuses_tiocsti_on_a_terminal_that_honours_it() {
        let legacy = std::fs::read_to_string("/proc/sys/dev/tty/legacy_tiocsti")
            .map(|s| s.trim() == "1")
            .unwrap_or(true);
        if legacy {
            // The control: without the filter this kernel pushes the byte.
            assert_eq!(in_child(|| push_into_own_pty(false)), 0);
        }
        assert_eq!(in_child(|| push_into_own_pty(true)), libc::EACCES);
    }

    #[test]
    fn the_filter_refuses_unix_sockets_and_io_uring_but_not_tcp_or_socketpair() {
        assert_eq!(probe(), Ok(()));
        let code = in_child(|| {
            if install() != 0 {
                return 1;
            }
            // SAFETY: raw system calls with plain arguments; fds close at exit.
            unsafe {
                // The domain in the upper half of the register is ignored by the kernel; the
                // filter compares the low half only.
                let wide = (1u64 << 32) | libc::AF_UNIX as u64;
                if libc::syscall(libc::SYS_socket, wide, libc::SOCK_STREAM, 0) >= 0 {
                    return 2;
                }
                let mut params = [0u8; 120];
                if libc::syscall(libc::SYS_io_uring_setup, 4, params.as_mut_ptr()) >= 0
                    || errno() != libc::ENOSYS
                {
                    return 3;
                }
                let b = 0u8;
                if libc::ioctl(0, libc::TIOCLINUX, &b) == 0 || errno() != libc::EACCES {
                    return 4;
                }
                if libc::socket(libc::AF_INET6, libc::SOCK_DGRAM, 0) < 0
                    && errno() != libc::EAFNOSUPPORT
                {
                    return 5;
                }
            }
            0
        });
        assert_eq!(code, 0);
    }
}
