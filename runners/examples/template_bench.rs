//! Times the round's template build (`Template::build`) against `git archive HEAD | tar -x` of
//! the same repository, interleaved (alternating which goes first, each output removed after it
//! is timed) so both see the same page-cache conditions. Driven by `benches/checkout_overlay.sh`.
//!
//! Usage: template_bench REPO [REPEATS=3]; prints `template_build_ms`, `git_archive_tar_ms`
//! (medians) and their ratio.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use runners::{remove_tree, resolve_base, Corpus, Plant, TempRoot, Template};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn archive_tar(repo: &Path, dst: &Path) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir(dst)?;
    let cmd = format!(
        "git -C '{}' archive HEAD | tar -x -C '{}'",
        repo.display(),
        dst.display()
    );
    if !Command::new("sh").arg("-c").arg(cmd).status()?.success() {
        return Err("git archive | tar failed".into());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let repo =
        PathBuf::from(args.get(1).ok_or("usage: template_bench REPO [REPEATS]")?).canonicalize()?;
    let repeats: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(3);
    let base = resolve_base(&repo, None, None)?;
    let corpus = Corpus::load(&base)?;
    let root = TempRoot::create(&[&repo])?;
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for i in 0..repeats {
        let mut run_ours = || -> Result<(), Box<dyn std::error::Error>> {
            let dir = root.fresh_dir()?;
            let t = Instant::now();
            let template = Template::build(&corpus, &Plant::default(), &dir)?;
            ours.push(t.elapsed().as_secs_f64() * 1000.0);
            remove_tree(template.path())?;
            Ok(())
        };
        let mut run_theirs = || -> Result<(), Box<dyn std::error::Error>> {
            let dir = root.path().join(format!("archive{i}"));
            let t = Instant::now();
            archive_tar(&repo, &dir)?;
            theirs.push(t.elapsed().as_secs_f64() * 1000.0);
            remove_tree(&dir)?;
            Ok(())
        };
        if i % 2 == 0 {
            run_ours()?;
            run_theirs()?;
        } else {
            run_theirs()?;
            run_ours()?;
        }
    }
    root.remove()?;
    let (a, b) = (median(&mut ours), median(&mut theirs));
    println!(
        "template_build_ms={a:.0} git_archive_tar_ms={b:.0} ratio={:.2}",
        a / b
    );
    Ok(())
}
