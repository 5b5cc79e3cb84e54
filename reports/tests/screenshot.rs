//! The HTML report as a person sees it: rendered by headless Chromium, the verdict badge's
//! colour is checked in the picture itself (green for OK, red for VOID). `#[ignore]`: needs
//! Chromium; `.ci/firsthour.sh` installs it and runs this with `--ignored`.

mod common;

use common::*;
use reports::html::Html;
use reports::{Render, Report};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Chromium binary: `$CHROMIUM`, else the first of the usual names on PATH.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return p.into();
    }
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!("no chromium on PATH (set CHROMIUM); .ci/firsthour.sh installs it");
}

/// Renders `html` to a 1280×900 PNG and returns (width, height, RGBA pixels).
/// (8-bit PNGs only: Chromium writes those.)
fn screenshot(html: &str, dir: &Path, name: &str, height: u32) -> (u32, u32, Vec<u8>) {
    let page = dir.join(format!("{name}.html"));
    let png = dir.join(format!("{name}.png"));
    std::fs::write(&page, html).unwrap();
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--window-size=1280,{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        png.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

/// Pixels within `tol` of `rgb` in the top-left `w`×`h` region (where the badge sits).
fn count_near(img: &(u32, u32, Vec<u8>), rgb: [u8; 3], w: u32, h: u32, tol: i32) -> usize {
    let (width, height, px) = img;
    let mut n = 0;
    for y in 0..h.min(*height) {
        for x in 0..w.min(*width) {
            let i = ((y * width + x) * 4) as usize;
            if (0..3).all(|c| (px[i + c] as i32 - rgb[c] as i32).abs() <= tol) {
                n += 1;
            }
        }
    }
    n
}

const GREEN: [u8; 3] = [0x1a, 0x7f, 0x37];
const RED: [u8; 3] = [0xc6, 0x28, 0x28];

#[test]
#[ignore = "needs Chromium: run by .ci/firsthour.sh"]
fn the_badge_is_green_for_ok_and_red_for_void_in_the_rendered_page() {
    let dir = tempfile::tempdir().unwrap();
    let ok = screenshot(&Html.render(&ok_round()), dir.path(), "ok", 900);
    let void = screenshot(&Html.render(&void_round()), dir.path(), "void", 900);
    // The badge is about 160×60 px at the top left: thousands of pixels of its colour.
    let region = (500, 250);
    let (ok_green, ok_red) = (
        count_near(&ok, GREEN, region.0, region.1, 12),
        count_near(&ok, RED, region.0, region.1, 12),
    );
    let (void_green, void_red) = (
        count_near(&void, GREEN, region.0, region.1, 12),
        count_near(&void, RED, region.0, region.1, 12),
    );
    assert!(
        ok_green > 3000 && ok_red == 0,
        "OK badge: green {ok_green}, red {ok_red}"
    );
    assert!(
        void_red > 3000 && void_green == 0,
        "VOID badge: green {void_green}, red {void_red}"
    );
    // A round whose verdict is unclaimed gets neither colour.
    let mut r = ok_round();
    r.rows.clear();
    let empty = screenshot(
        &Html.render(&Report::new(r.meta, r.rows)),
        dir.path(),
        "empty",
        900,
    );
    assert_eq!(count_near(&empty, GREEN, region.0, region.1, 12), 0);
}

/// The compare page as a person sees it: the flipped rows are highlighted (#fff1c2) and the
/// page renders (a broken document would leave the highlight out).
#[test]
#[ignore = "needs Chromium: run by .ci/firsthour.sh"]
fn compare_page_highlights_flipped_items_in_the_rendered_page() {
    use reports::compare::{self, RoundIdentity};
    use scorer::{Arm, Class};
    let id = |name: &str, seal: &str| RoundIdentity {
        name: name.into(),
        qset_sha256: "q".repeat(64),
        base_sha: "b".repeat(40),
        seal_name: Some("handoff.md".into()),
        seal_sha256: Some(seal.repeat(64)),
        agent: "baseline-grep".into(),
        agent_version: None,
        model: None,
        harness_version: "0.1.0".into(),
        protocol_sha256: None,
        timeout_secs: 600,
        reps: 2,
        sandbox: "auto".into(),
        scorer: "f".repeat(16),
        judge: None,
        deliver: true,
        rounds: 1,
        fingerprints: vec![name.to_string()],
        verdicts: Vec::new(),
    };
    let mut rows = ok_rows();
    for r in rows.iter_mut() {
        if r.arm == Arm::Arm && r.qid == "p1" {
            r.verdict.class = Class::Fail;
        }
    }
    let b = Report::new(meta(&QS), rows);
    let dir = tempfile::tempdir().unwrap();
    let flipped = compare::compare(&id("A", "1"), &ok_round(), &id("B", "2"), &b).unwrap();
    let same = compare::compare(&id("A", "1"), &ok_round(), &id("A2", "1"), &ok_round()).unwrap();
    const FLIP: [u8; 3] = [0xff, 0xf1, 0xc2];
    // The whole page, not the first screen: the per-item table sits below the axes and the
    // bottom line, and a longer note above it must not hide the highlight from the check.
    const HEIGHT: u32 = 4000;
    let with = screenshot(&compare::html(&flipped), dir.path(), "cmp_flip", HEIGHT);
    let without = screenshot(&compare::html(&same), dir.path(), "cmp_same", HEIGHT);
    let (w, h) = (1280, HEIGHT);
    assert!(
        count_near(&with, FLIP, w, h, 4) > 500,
        "no highlighted flipped row"
    );
    assert_eq!(count_near(&without, FLIP, w, h, 4), 0);
}
