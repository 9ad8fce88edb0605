//! `cargo xtask bench [--runs N] [--quick]`: time evaltally against a Python
//! baseline and `cat` on large synthetic BFCL workloads, print the results and
//! write them to `docs/benchmarks.md`.
//!
//! Steps:
//! 1. Build evaltally in release mode.
//! 2. Generate the workloads once with `../shared/bench/gen_bfcl_runs.py` into
//!    `<target dir>/bench/w40` and `w80` (40 and 80 runs, seed 7). A marker file
//!    `wNN.done` next to each holds the generator command line; a workload is
//!    regenerated from scratch when its marker is missing or differs.
//! 3. Run every command once to warm up (and fill the page cache), then N times
//!    measured (the Python baseline `min(N, 3)` times), stdout to `/dev/null`.
//!    Wall time is taken around spawn + wait; peak RSS comes from GNU time's
//!    `%M` when `/usr/bin/time` is GNU time.
//! 4. Print a table and the target ratios and write the same to
//!    `docs/benchmarks.md`, atomically.
//!
//! `--quick` uses only the 40-run workload. [`workload`] makes and caches the
//! workloads, [`mod@measure`] does the timing, [`report`] the machine description
//! and the formatting.

mod measure;
mod report;
mod workload;

#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};

use crate::{cargo, relative, run_cmd, target_dir, workspace_root};
use measure::{Stats, measure};
use workload::Workload;

/// Measured runs per command unless `--runs` says otherwise.
const DEFAULT_RUNS: usize = 5;
/// The Python baseline takes seconds per run, so it runs at most this often.
const MAX_PYTHON_RUNS: usize = 3;
/// A test id present in every generated workload, for `evaltally show`.
const SHOW_TEST_ID: &str = "multi_turn_base_7";

/// The parsed flags of `cargo xtask bench`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Measured runs per command (the Python baseline runs at most 3 times).
    runs: usize,
    /// Only the 40-run workload.
    quick: bool,
}

impl Options {
    /// Parses the flags after `bench`; `None` means a usage error.
    pub(crate) fn parse(flags: &[&str]) -> Option<Self> {
        let mut options = Self { runs: DEFAULT_RUNS, quick: false };
        let mut flags = flags.iter();
        while let Some(&flag) = flags.next() {
            match flag {
                "--quick" => options.quick = true,
                "--runs" => options.runs = flags.next()?.parse().ok().filter(|&n| n > 0)?,
                _ => options.runs = flag.strip_prefix("--runs=")?.parse().ok().filter(|&n| n > 0)?,
            }
        }
        Some(options)
    }
}

/// One row of the results: a command measured on a workload.
#[derive(Debug)]
struct Measured {
    workload: String,
    label: &'static str,
    /// The workload's size when the command reads all of it, for MB/s.
    bytes_read: Option<u64>,
    stats: Stats,
}

/// The measured-command labels, shared with the ratio checks in [`report`].
mod label {
    pub(super) const STABILITY: &str = "evaltally stability";
    pub(super) const REF: &str = "ref_stability.py";
    pub(super) const CAT: &str = "cat (all files)";
    pub(super) const COMPARE: &str = "evaltally compare";
    pub(super) const SHOW: &str = "evaltally show";
}

pub(crate) fn run(options: Options) -> Result<()> {
    let root = workspace_root();
    let bench_dir = target_dir()?.join("bench");
    let shared = root.parent().context("the workspace root has no parent folder")?.join("shared/bench");
    let generator = shared.join("gen_bfcl_runs.py");
    let reference = shared.join("ref_stability.py");
    for script in [&generator, &reference] {
        ensure!(
            script.is_file(),
            "{} is missing; the benchmarks need ../shared/bench next to the workspace",
            script.display()
        );
    }
    let python = python_executable()?;
    // Build before the long workload generation, so a broken build fails fast.
    run_cmd(&mut cargo(&["build", "--release", "-p", "evaltally"]))?;
    let evaltally = target_dir()?.join("release/evaltally");
    ensure!(evaltally.is_file(), "{} is missing after the build", evaltally.display());

    let sizes: &[u32] = if options.quick { &[40] } else { &[40, 80] };
    let workloads =
        sizes.iter().map(|&runs| workload::prepare(&bench_dir, &generator, runs)).collect::<Result<Vec<_>>>()?;

    if !measure::gnu_time_available() {
        eprintln!("xtask: /usr/bin/time is missing or not GNU time: peak RSS will be n/a");
    }

    let python_runs = options.runs.min(MAX_PYTHON_RUNS);
    let mut rows = Vec::new();
    for w in &workloads {
        let dir = w.dir.as_path();
        let mut bench = |label: &'static str, reads_all: bool, runs: usize, make: &dyn Fn() -> Vec<Command>| {
            eprintln!("xtask: {} {label}: 1 warm-up + {runs} measured", w.name);
            let stats = measure(make, runs).with_context(|| format!("{} {label}", w.name))?;
            eprintln!("xtask: {} {label}: median {:.3} s", w.name, stats.median);
            rows.push(Measured { workload: w.name.clone(), label, bytes_read: reads_all.then_some(w.bytes), stats });
            anyhow::Ok(())
        };
        bench(label::STABILITY, true, options.runs, &|| {
            vec![command(&evaltally, [os("stability"), dir.into(), os("--format"), os("json")])]
        })?;
        bench(label::REF, true, python_runs, &|| vec![command(&python, [reference.as_os_str(), dir.as_os_str()])])?;
        bench(label::CAT, true, options.runs, &|| cat_commands(&w.files))?;
        if w.name == "w40" {
            bench(label::COMPARE, false, options.runs, &|| {
                let (base, new) = (dir.join("run-000"), dir.join("run-001"));
                vec![command(&evaltally, [os("compare"), base.into(), new.into(), os("--format"), os("json")])]
            })?;
            bench(label::SHOW, false, options.runs, &|| {
                vec![command(&evaltally, [os("show"), dir.into(), os(SHOW_TEST_ID)])]
            })?;
        }
    }

    let machine = report::Machine::collect(&python, &workloads);
    let results = report::results_table(&rows);
    let ratios = report::ratios_table(&rows);
    println!("{results}\n{ratios}");
    let doc = report::document(&machine, options, python_runs, &results, &ratios);
    let path = root.join("docs/benchmarks.md");
    write_atomically(&path, &doc)?;
    eprintln!("xtask: wrote {}", relative(&path).display());
    Ok(())
}

/// The real interpreter behind `python3`, so that timings do not include a
/// launcher such as a pyenv shim.
fn python_executable() -> Result<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .stderr(Stdio::inherit())
        .output()
        .context("could not run python3; the benchmarks need it on PATH")?;
    ensure!(out.status.success(), "`python3 -c 'import sys; print(sys.executable)'` failed ({})", out.status);
    let path = String::from_utf8(out.stdout).context("python3 printed a non-UTF-8 path")?;
    Ok(PathBuf::from(path.trim()))
}

/// `program args...` with stdin and stdout on `/dev/null`.
fn command<I, S>(program: &Path, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::null());
    cmd
}

fn os(s: &str) -> OsString {
    s.into()
}

/// `cat` over all `files`, split into several processes when one argument
/// list would pass about 1 MB.
fn cat_commands(files: &[PathBuf]) -> Vec<Command> {
    const MAX_ARG_BYTES: usize = 1 << 20;
    let mut commands = Vec::new();
    let mut chunk: Vec<&Path> = Vec::new();
    let mut chunk_bytes = 0;
    for file in files {
        let arg_bytes = file.as_os_str().len() + 1 + size_of::<usize>();
        if !chunk.is_empty() && chunk_bytes + arg_bytes > MAX_ARG_BYTES {
            commands.push(command(Path::new("cat"), chunk.drain(..)));
            chunk_bytes = 0;
        }
        chunk.push(file);
        chunk_bytes += arg_bytes;
    }
    if !chunk.is_empty() {
        commands.push(command(Path::new("cat"), chunk));
    }
    commands
}

/// Writes `contents` to a temporary file next to `path`, then renames it over
/// `path`, so readers never see a half-written file.
fn write_atomically(path: &Path, contents: &str) -> Result<()> {
    let dir = path.parent().context("no parent folder")?;
    let name = path.file_name().context("no file name")?.to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    fs::write(&tmp, contents).with_context(|| format!("cannot write {}", tmp.display()))?;
    fs::rename(&tmp, path)
        .inspect_err(|_| drop(fs::remove_file(&tmp)))
        .with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))
}
