//! The subset fit in `cargo xtask bench`: `evaltally subset W --size 100` on runs of 100
//! models × 5,000 tests in 6 categories, 3 runs each, made by `xtask/bench/gen_irt.py`
//! (planted two-parameter logistic outcomes, seed 7), with the digest cache warm so that
//! the fit, not the reading, is what is timed. Target: at most 5 s.

use std::path::Path;

use anyhow::{Context, Result, ensure};

use super::measure::{Stats, measure};
use super::{command, os};
use crate::run_cmd;

/// Models, tests, categories and runs of the workload.
const MODELS: usize = 100;
const TESTS: usize = 5_000;
const CATEGORIES: usize = 6;
const RUNS: usize = 3;
/// The fit time the bench holds it to, in seconds.
pub(crate) const TARGET_SECONDS: f64 = 5.0;

/// Makes the workload (once; a marker keeps the generator's command line) and measures the
/// fit with a warm cache.
pub(crate) fn run(evaltally: &Path, python: &Path, bench_dir: &Path, runs: usize) -> Result<Stats> {
    let root = crate::workspace_root();
    let dir = bench_dir.join(format!("irt{MODELS}x{TESTS}"));
    let marker = bench_dir.join(format!("irt{MODELS}x{TESTS}.done"));
    let args = [
        "--models".to_string(),
        MODELS.to_string(),
        "--tests".to_string(),
        TESTS.to_string(),
        "--categories".to_string(),
        CATEGORIES.to_string(),
        "--runs".to_string(),
        RUNS.to_string(),
        "--seed".to_string(),
        "7".to_string(),
    ];
    let line = args.join(" ");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(line.as_str()) {
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&marker);
        eprintln!("xtask: subset: generating {MODELS} models x {TESTS} tests x {RUNS} runs");
        let mut generate = std::process::Command::new(python);
        generate.arg(root.join("xtask/bench/gen_irt.py")).args(&args).arg(&dir);
        run_cmd(&mut generate)?;
        std::fs::write(&marker, &line).context("writing the workload's marker")?;
    }
    let out = bench_dir.join("irt.subset.json");
    let fit = || {
        let mut cmd = command(
            evaltally,
            [os("subset"), dir.clone().into(), os("--size"), os("100"), os("-o"), out.clone().into()],
        );
        cmd.env("EVALTALLY_CACHE", bench_dir.join("subset-cache"));
        vec![cmd]
    };
    eprintln!("xtask: subset: fit of {MODELS} x {TESTS} with 100 anchors: 1 warm-up + {runs} measured");
    let stats = measure(&fit, runs)?;
    ensure!(out.is_file(), "evaltally subset wrote no {}", out.display());
    eprintln!("xtask: subset: median {:.3} s", stats.median);
    Ok(stats)
}

/// The section of `docs/benchmarks.md` on the subset fit.
pub(crate) fn section(stats: &Stats) -> String {
    let rss = stats.peak_rss_kib.map_or_else(String::new, |k| format!(", peak RSS {:.1} MiB", k as f64 / 1024.0));
    format!(
        "`evaltally subset W --size 100 -o FILE` on {MODELS} models × {TESTS} tests in {CATEGORIES} categories, \
         {RUNS} runs each (`xtask/bench/gen_irt.py --seed 7`: planted two-parameter logistic outcomes, BFCL \
         files), the digest cache warm, so that the fit is what is timed: median {:.3} s (min {:.3}, max {:.3}){rss}; \
         target at most {TARGET_SECONDS:.0} s ({}).\n",
        stats.median,
        stats.min,
        stats.max,
        if stats.median <= TARGET_SECONDS { "met" } else { "NOT met" }
    )
}
