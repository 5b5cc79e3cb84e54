//! Writes the template's object store as git packs directly (issue 14): objects stored, not
//! deflated (a zlib stream of stored blocks), one pack per writer, so the template's blobs go
//! to disk at the speed of a plain file write. Writing each object loose (deflate + a file per
//! object) and then packing them with delta search cost several times `git archive | tar`.
//!
//! The format is pack v2 with an index v2 (Documentation/gitformat-pack.txt). Object ids are
//! the ids the source repository's trees name; they are not recomputed.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid};
use sha1::{Digest, Sha1};

use crate::error::{Error, Result};

/// Reads of objects the harness takes as trusted (the user's own repository, the template it
/// wrote) skip libgit2's hash re-verification, which is SHA-1 with collision detection over every
/// byte read: about a quarter of a gate search's time. zlib's own checksum still guards each
/// object's bytes against corruption. Process-wide; idempotent.
pub fn trust_object_reads() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// The largest stored deflate block.
const BLOCK: usize = 65_535;

fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    // SAFETY: zlib reads `len` bytes from a valid slice; every caller passes at most BLOCK bytes.
    unsafe { libz_sys::crc32(crc as _, bytes.as_ptr(), bytes.len() as _) as u32 }
}

fn adler32(adler: u32, bytes: &[u8]) -> u32 {
    // SAFETY: as in `crc32`.
    unsafe { libz_sys::adler32(adler as _, bytes.as_ptr(), bytes.len() as _) as u32 }
}

fn type_code(kind: ObjectType) -> u8 {
    match kind {
        ObjectType::Commit => 1,
        ObjectType::Tree => 2,
        ObjectType::Blob => 3,
        ObjectType::Tag => 4,
        ObjectType::Any => unreachable!("a packed object has a concrete type"),
    }
}

/// One pack being written: a temp file in the pack folder, renamed to its checksum name when
/// finished, its index written after it (git takes a pack whose index exists as complete).
pub(crate) struct PackWriter {
    dir: PathBuf,
    tmp: PathBuf,
    out: BufWriter<File>,
    sha: Sha1,
    offset: u64,
    declared: u32,
    entries: Vec<(Oid, u32, u64)>,
}

impl PackWriter {
    /// Starts a pack of exactly `count` objects in `dir` (the `objects/pack` folder).
    pub(crate) fn create(dir: &Path, count: u32, tag: usize) -> Result<PackWriter> {
        let tmp = dir.join(format!("tmp_pack_{}_{tag}", std::process::id()));
        let file = File::create(&tmp).map_err(|e| Error::io("create", &tmp, e))?;
        let mut w = PackWriter {
            dir: dir.to_path_buf(),
            tmp,
            out: BufWriter::with_capacity(1 << 20, file),
            sha: Sha1::new(),
            offset: 0,
            declared: count,
            entries: Vec::with_capacity(count as usize),
        };
        let mut header = Vec::with_capacity(12);
        header.extend_from_slice(b"PACK");
        header.extend_from_slice(&2u32.to_be_bytes());
        header.extend_from_slice(&count.to_be_bytes());
        w.put(&header, None)?;
        Ok(w)
    }

    fn put(&mut self, bytes: &[u8], crc: Option<&mut u32>) -> Result<()> {
        self.out
            .write_all(bytes)
            .map_err(|e| Error::io("write", &self.tmp, e))?;
        self.sha.update(bytes);
        if let Some(c) = crc {
            *c = crc32(*c, bytes);
        }
        self.offset += bytes.len() as u64;
        Ok(())
    }

    /// Appends one object (whole, undeltified) whose id is `oid`.
    pub(crate) fn add(&mut self, kind: ObjectType, oid: Oid, data: &[u8]) -> Result<()> {
        let start = self.offset;
        let mut crc = 0u32;
        let mut head = Vec::with_capacity(16);
        let mut size = data.len() as u64;
        let mut byte = (type_code(kind) << 4) | (size & 0x0f) as u8;
        size >>= 4;
        while size > 0 {
            head.push(byte | 0x80);
            byte = (size & 0x7f) as u8;
            size >>= 7;
        }
        head.push(byte);
        // zlib header: deflate, 32K window, no preset dictionary, "fastest" level (0x78 0x01).
        head.extend_from_slice(&[0x78, 0x01]);
        self.put(&head, Some(&mut crc))?;
        let mut adler = 1u32;
        let mut blocks = data.chunks(BLOCK).peekable();
        if blocks.peek().is_none() {
            self.put(&[0x01, 0x00, 0x00, 0xff, 0xff], Some(&mut crc))?;
        }
        while let Some(block) = blocks.next() {
            let last = blocks.peek().is_none();
            let len = block.len() as u16;
            let mut bh = [0u8; 5];
            bh[0] = u8::from(last);
            bh[1..3].copy_from_slice(&len.to_le_bytes());
            bh[3..5].copy_from_slice(&(!len).to_le_bytes());
            self.put(&bh, Some(&mut crc))?;
            self.put(block, Some(&mut crc))?;
            adler = adler32(adler, block);
        }
        self.put(&adler.to_be_bytes(), Some(&mut crc))?;
        self.entries.push((oid, crc, start));
        Ok(())
    }

    /// Writes the trailer, renames the pack to `pack-<checksum>.pack` and writes its index.
    pub(crate) fn finish(mut self) -> Result<()> {
        if self.entries.len() != self.declared as usize {
            return Err(Error::io(
                "finish pack",
                &self.tmp,
                std::io::Error::other(format!(
                    "{} objects written, {} declared",
                    self.entries.len(),
                    self.declared
                )),
            ));
        }
        let sum: [u8; 20] = self.sha.clone().finalize().into();
        self.out
            .write_all(&sum)
            .and_then(|()| self.out.flush())
            .map_err(|e| Error::io("write", &self.tmp, e))?;
        let name = hex(&sum);
        let pack = self.dir.join(format!("pack-{name}.pack"));
        fs::rename(&self.tmp, &pack).map_err(|e| Error::io("rename", &pack, e))?;
        let idx = self.dir.join(format!("pack-{name}.idx"));
        let bytes = index_bytes(&mut self.entries, &sum);
        fs::write(&idx, bytes).map_err(|e| Error::io("write", &idx, e))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The v2 index of a pack: fan-out, sorted ids, CRCs, offsets (large ones in a second table),
/// the pack's checksum and the index's own.
fn index_bytes(entries: &mut [(Oid, u32, u64)], pack_sum: &[u8; 20]) -> Vec<u8> {
    entries.sort_by_key(|a| a.0);
    let mut v = Vec::with_capacity(8 + 1024 + entries.len() * 28 + 40);
    v.extend_from_slice(&[0xff, 0x74, 0x4f, 0x63]);
    v.extend_from_slice(&2u32.to_be_bytes());
    let mut fan = [0u32; 256];
    for (oid, _, _) in entries.iter() {
        fan[oid.as_bytes()[0] as usize] += 1;
    }
    let mut total = 0u32;
    for n in fan {
        total += n;
        v.extend_from_slice(&total.to_be_bytes());
    }
    for (oid, _, _) in entries.iter() {
        v.extend_from_slice(oid.as_bytes());
    }
    for (_, crc, _) in entries.iter() {
        v.extend_from_slice(&crc.to_be_bytes());
    }
    let mut large = Vec::new();
    for (_, _, off) in entries.iter() {
        if *off < 0x8000_0000 {
            v.extend_from_slice(&(*off as u32).to_be_bytes());
        } else {
            let i = 0x8000_0000u32 | large.len() as u32;
            v.extend_from_slice(&i.to_be_bytes());
            large.push(*off);
        }
    }
    for off in large {
        v.extend_from_slice(&off.to_be_bytes());
    }
    v.extend_from_slice(pack_sum);
    let own: [u8; 20] = Sha1::digest(&v).into();
    v.extend_from_slice(&own);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::Repository;

    /// A pack written here is read back by libgit2, object for object, including an empty
    /// object and one larger than a stored block.
    #[test]
    fn libgit2_reads_the_pack_back() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = Repository::init_bare(tmp.path()).unwrap();
        let blobs: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"hello\n".to_vec(),
            (0..200_000u32).map(|i| (i % 251) as u8).collect(),
        ];
        let dir = tmp.path().join("objects/pack");
        let mut w = PackWriter::create(&dir, blobs.len() as u32, 0).unwrap();
        let mut oids = Vec::new();
        for b in &blobs {
            let oid = Oid::hash_object(ObjectType::Blob, b).unwrap();
            w.add(ObjectType::Blob, oid, b).unwrap();
            oids.push(oid);
        }
        w.finish().unwrap();
        let odb = repo.odb().unwrap();
        for (oid, b) in oids.iter().zip(&blobs) {
            let obj = odb.read(*oid).unwrap();
            assert_eq!(obj.data(), b.as_slice());
        }
        // The index's checksums are what git checks on `verify-pack`; a wrong CRC or
        // trailer would be caught by the git CLI where it exists.
        if let Ok(out) = std::process::Command::new("git")
            .arg("verify-pack")
            .arg(
                fs::read_dir(&dir)
                    .unwrap()
                    .find_map(|e| {
                        let p = e.unwrap().path();
                        (p.extension() == Some("idx".as_ref())).then_some(p)
                    })
                    .unwrap(),
            )
            .output()
        {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    /// Declaring more objects than written is refused, not left as a corrupt pack.
    #[test]
    fn short_pack_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut w = PackWriter::create(tmp.path(), 2, 0).unwrap();
        let oid = Oid::hash_object(ObjectType::Blob, b"x").unwrap();
        w.add(ObjectType::Blob, oid, b"x").unwrap();
        assert!(w.finish().is_err());
    }
}
