//! Times the per-dispatch overhead of an isolated checkout (copy of the template + plant +
//! treediff) against `git clone --no-local --depth 1 file://REPO && cp seal`, interleaved on the
//! same repository (alternating which goes first, each output removed after it is timed), so
//! both see the same page-cache and memory conditions. Driven by `benches/checkout_bench.sh`.
//!
//! Usage: checkout_bench REPO DISPATCHES

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use runners::{
    remove_tree, resolve_base, search_needles, unique_labels, Corpus, NeedleSet, Plant, Seal,
    TempRoot, Template,
};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn clone_and_copy(repo: &Path, dst: &Path, seal: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let url = format!("file://{}", repo.display());
    let ok = Command::new("git")
        .args(["clone", "-q", "--no-local", "--depth", "1", &url])
        .arg(dst)
        .status()?
        .success();
    if !ok {
        return Err("git clone failed".into());
    }
    let plant = dst.join(Plant::DEFAULT_DIR);
    std::fs::create_dir_all(&plant)?;
    std::fs::copy(seal, plant.join("a7k2m9q4xz.md"))?;
    Ok(())
}

fn stats(name: &str, times: &mut [Duration]) -> f64 {
    times.sort();
    let n = times.len();
    let mean = ms(times.iter().sum::<Duration>()) / n as f64;
    println!(
        "{name}_per_dispatch_ms mean={mean:.1} median={:.1} min={:.1} max={:.1}",
        ms(times[n / 2]),
        ms(times[0]),
        ms(times[n - 1])
    );
    mean
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (repo, n) = match args.as_slice() {
        [_, repo, n] => (std::path::PathBuf::from(repo), n.parse::<usize>()?),
        _ => return Err("usage: checkout_bench REPO DISPATCHES".into()),
    };

    let t = Instant::now();
    let base = resolve_base(&repo, None, None)?;
    let corpus = Corpus::load(&base)?;
    let load = t.elapsed();

    // 50 needles that occur nowhere (assembled at run time), as a contamination gate would search.
    let needles: Vec<String> = (0..50).map(|i| format!("zq{i}v{}tok", "kx")).collect();
    let t = Instant::now();
    let report = search_needles(&corpus, &NeedleSet::new(&needles)?)?;
    let search = t.elapsed();

    let root = TempRoot::create(&[&repo])?;
    let t = Instant::now();
    let template = Template::build(&corpus, &Plant::default(), &root.fresh_dir()?)?;
    let build = t.elapsed();

    let seal_bytes = vec![b'x'; 4096];
    let seal = Seal::new("a7k2m9q4xz.md", seal_bytes.clone())?;
    let seal_file = root.path().join("seal.md");
    std::fs::write(&seal_file, &seal_bytes)?;

    let mut ours = Vec::with_capacity(n);
    let mut theirs = Vec::with_capacity(n);
    let mut copy = Duration::ZERO;
    let mut diff = Duration::ZERO;
    for (i, label) in unique_labels(n).iter().enumerate() {
        let dirs = root.dispatch(label)?;
        let clone_dst = dirs.root.join("clone");
        let mut run_ours = || -> Result<(), Box<dyn std::error::Error>> {
            let t = Instant::now();
            let co = template.checkout(&dirs.work, Some(&seal))?;
            ours.push(t.elapsed());
            assert!(co.treediff.is_exact());
            remove_tree(&dirs.work)?;
            // The same work split in two, to show where the time goes.
            let t = Instant::now();
            runners::copy_tree(template.path(), &dirs.work)?;
            copy += t.elapsed();
            let t = Instant::now();
            assert!(template.treediff(&dirs.work, None)?.is_exact());
            diff += t.elapsed();
            remove_tree(&dirs.work)?;
            Ok(())
        };
        let mut run_theirs = || -> Result<(), Box<dyn std::error::Error>> {
            let t = Instant::now();
            clone_and_copy(&repo, &clone_dst, &seal_file)?;
            theirs.push(t.elapsed());
            remove_tree(&clone_dst)?;
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

    println!("entries={}", corpus.entries.len());
    println!("corpus_load_ms={:.1}", ms(load));
    println!(
        "search_50_needles_ms={:.1} (searched {}, clean={})",
        ms(search),
        report.searched,
        report.is_clean()
    );
    println!("template_build_ms={:.1} (once per round)", ms(build));
    println!("dispatches={n}");
    let a = stats("ours", &mut ours);
    let b = stats("clone", &mut theirs);
    println!("breakdown_ours_copy_ms={:.1}", ms(copy) / n as f64);
    println!("breakdown_ours_treediff_ms={:.1}", ms(diff) / n as f64);
    println!("ratio_ours_over_clone={:.3}", a / b);
    Ok(())
}
