//! The few ways the harness writes and hashes files, shared by the journal, the gates, the
//! manifest and the reading records: a file that exists is whole, and a hash is lowercase hex.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// The name prefix of a write in progress. A file with this prefix found by a holder of the
/// round's [`UnitsLock`](crate::round::journal::UnitsLock) taken exclusively (no unit can be
/// writing) is the leftover of a killed write.
pub const PARTIAL_PREFIX: &str = ".partial-";

/// Writes `bytes` to `path` through a temp file in the same folder and a rename, so a file that
/// exists is whole.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(PARTIAL_PREFIX)
        .tempfile_in(dir)
        .with_context(|| format!("creating a temp file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("writing {}", path.display()))?;
    tmp.persist(path)
        .with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}

/// sha256 of bytes, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// sha256 of a file's bytes, read in pieces (a CLI can be hundreds of megabytes), or `absent`.
pub fn file_sha256(path: &Path) -> String {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let Ok(mut f) = std::fs::File::open(path) else {
        return "absent".into();
    };
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.update(&buf[..n]),
            Err(_) => return "unreadable".into(),
        }
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
