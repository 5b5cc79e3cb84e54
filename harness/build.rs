//! Embeds the shipped demo (qsets/demo and manifests/demo.json) into the binary, so
//! `harness run` works from any folder on a fresh machine.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(_) => return,
    };
    entries.sort();
    for p in entries {
        let meta = fs::symlink_metadata(&p).expect("demo file metadata");
        if meta.is_dir() {
            walk(&p, out);
        } else if meta.is_file() {
            out.push(p);
        }
    }
}

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let demo = root.join("qsets").join("demo");
    let manifest = root.join("manifests").join("demo.json");
    let discover = root.join("manifests").join("demo-discover.json");
    println!("cargo:rerun-if-changed={}", demo.display());
    println!("cargo:rerun-if-changed={}", manifest.display());
    println!("cargo:rerun-if-changed={}", discover.display());

    let mut files = Vec::new();
    walk(&demo, &mut files);
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("demo_files.rs");
    let mut f = fs::File::create(&out).unwrap();
    writeln!(
        f,
        "/// Every file under qsets/demo: (path relative to it, bytes, executable)."
    )
    .unwrap();
    writeln!(f, "pub static DEMO_FILES: &[(&str, &[u8], bool)] = &[").unwrap();
    for p in &files {
        let rel = p
            .strip_prefix(&demo)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        #[cfg(unix)]
        let exec = {
            use std::os::unix::fs::PermissionsExt;
            fs::metadata(p).unwrap().permissions().mode() & 0o111 != 0
        };
        #[cfg(not(unix))]
        let exec = false;
        writeln!(
            f,
            "    ({rel:?}, include_bytes!({:?}), {exec}),",
            p.display().to_string()
        )
        .unwrap();
    }
    writeln!(f, "];").unwrap();
    if manifest.exists() {
        writeln!(f, "/// manifests/demo.json as shipped.").unwrap();
        writeln!(
            f,
            "pub static DEMO_MANIFEST: Option<&[u8]> = Some(include_bytes!({:?}));",
            manifest.display().to_string()
        )
        .unwrap();
    } else {
        writeln!(
            f,
            "/// manifests/demo.json is not there yet (it is written by `harness seal`)."
        )
        .unwrap();
        writeln!(f, "pub static DEMO_MANIFEST: Option<&[u8]> = None;").unwrap();
    }
    // The discover demo is another design (no --deliver): its own sealed manifest.
    writeln!(
        f,
        "/// manifests/demo-discover.json as shipped, when there."
    )
    .unwrap();
    if discover.exists() {
        writeln!(
            f,
            "pub static DEMO_DISCOVER_MANIFEST: Option<&[u8]> = Some(include_bytes!({:?}));",
            discover.display().to_string()
        )
        .unwrap();
    } else {
        writeln!(
            f,
            "pub static DEMO_DISCOVER_MANIFEST: Option<&[u8]> = None;"
        )
        .unwrap();
    }
}
