//! The generated workloads: made once by `gen_bfcl_runs.py` under
//! `<target dir>/bench/wNN`, with a `wNN.done` marker holding the generator
//! command line; regenerated from scratch when the marker is missing or
//! differs.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};

use super::os;

/// Seed passed to the workload generator.
const SEED: u32 = 7;

/// A generated workload: a folder of runs and the files in it.
#[derive(Debug)]
pub(crate) struct Workload {
    /// `w40` or `w80`.
    pub(crate) name: String,
    pub(crate) dir: PathBuf,
    /// Every regular file below `dir`, sorted.
    pub(crate) files: Vec<PathBuf>,
    /// The total size of `files`.
    pub(crate) bytes: u64,
}

/// Generates the `runs`-run workload under `bench_dir` unless its marker says
/// it is already there, then lists its files.
pub(crate) fn prepare(bench_dir: &Path, generator: &Path, runs: u32) -> Result<Workload> {
    let name = format!("w{runs}");
    let dir = bench_dir.join(&name);
    let marker = bench_dir.join(format!("{name}.done"));
    let args = [
        generator.as_os_str().to_owned(),
        os("--out"),
        dir.clone().into(),
        os("--runs"),
        runs.to_string().into(),
        os("--seed"),
        SEED.to_string().into(),
    ];
    let line = format!("python3 {}\n", args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    if fs::read_to_string(&marker).ok().as_deref() == Some(line.as_str()) && dir.is_dir() {
        eprintln!("xtask: {name}: cached in {}", dir.display());
    } else {
        generate(&name, &dir, &marker, &args, runs)?;
        fs::write(&marker, &line).with_context(|| format!("cannot write {}", marker.display()))?;
    }
    let files = files_below(&dir)?;
    let bytes = files.iter().map(|f| fs::metadata(f).map(|m| m.len())).sum::<std::io::Result<u64>>()?;
    ensure!(!files.is_empty(), "{} holds no files", dir.display());
    Ok(Workload { name, dir, files, bytes })
}

/// Runs the generator into a fresh `dir`, printing progress to stderr.
fn generate(name: &str, dir: &Path, marker: &Path, args: &[OsString], runs: u32) -> Result<()> {
    const REPORT_EVERY: Duration = Duration::from_secs(10);
    match fs::remove_file(marker) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            return Err(err).with_context(|| format!("cannot delete {}", marker.display()));
        }
        _ => {}
    }
    if dir.exists() {
        fs::remove_dir_all(dir).with_context(|| format!("cannot delete {}", dir.display()))?;
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    eprintln!("xtask: {name}: generating {runs} runs into {} (this takes a while)", dir.display());
    let started = Instant::now();
    let mut child = Command::new("python3")
        .args(args)
        .stdout(std::io::stderr())
        .spawn()
        .context("could not start python3 for the workload generator")?;
    let mut next_report = REPORT_EVERY;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(200));
        if started.elapsed() >= next_report {
            next_report += REPORT_EVERY;
            let written = fs::read_dir(dir).map_or(0, Iterator::count);
            eprintln!("xtask: {name}: {written}/{runs} runs started, {} s", started.elapsed().as_secs());
        }
    };
    if !status.success() {
        bail!("the workload generator failed ({status}); {} is incomplete", dir.display());
    }
    eprintln!("xtask: {name}: generated in {} s", started.elapsed().as_secs());
    Ok(())
}

/// Every regular file below `dir`, sorted (symbolic links are not followed).
pub(crate) fn files_below(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    Ok(files)
}
