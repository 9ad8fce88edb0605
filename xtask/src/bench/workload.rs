//! The generated workloads: two per format (the second with twice the runs;
//! BFCL has a third of 200 runs, for peak memory),
//! each made once by its generator under `<target dir>/bench/<name>`, with a
//! `<name>.done` marker holding the generator command line and the ground truth
//! in `<name>.expected.json`; regenerated from scratch when the marker is
//! missing or differs.
//!
//! BFCL workloads come from `../shared/bench/gen_bfcl_runs.py` (which writes
//! its ground truth to `--expected FILE`); the others from
//! `xtask/bench/gen_<format>.py` (which print it on stdout with `--expected`).

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};

use super::{Format, os};

/// Seed passed to every workload generator.
const SEED: u32 = 7;

/// What to generate: a format, its number of runs and the generator's size
/// options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spec {
    /// `w40`, `gstack2000`, `swebench20x500`, ...
    pub(crate) name: String,
    pub(crate) format: Format,
    pub(crate) runs: u32,
    /// Generator options besides `--runs` and `--seed`, e.g. `--tests 100`.
    pub(crate) size_args: &'static [&'static str],
    /// Whether the Python baseline is timed on it (not on `w200`, which is there for
    /// peak memory at 200 runs; Python would take 90 s more).
    pub(crate) baseline: bool,
    /// Whether `--quick` measures it too.
    pub(crate) quick: bool,
}

/// The workloads of `format`: the smaller one first (the only one `--quick`
/// uses), then one with twice the runs, for the cost of doubling; for BFCL also
/// `w200`, 200 runs (4 GB), for the peak memory the digest cache's issue sets at
/// 200 runs; for Terminal-Bench also `harbor10`, Harbor's jobs (a file per trial),
/// which `--quick` measures too.
pub(crate) fn specs(format: Format) -> Vec<Spec> {
    let (runs, size_args, name): (u32, &'static [&'static str], fn(u32) -> String) = match format {
        Format::Bfcl => (40, &[], |runs| format!("w{runs}")),
        Format::Gstack => (2000, &["--tests", "100"], |runs| format!("gstack{runs}")),
        Format::Junit => (1000, &["--tests", "100"], |runs| format!("junit{runs}")),
        Format::Swebench => (20, &["--instances", "500"], |runs| format!("swebench{runs}x500")),
        Format::Sfbench => (200, &["--instances", "300"], |runs| format!("sfbench{runs}")),
        Format::Inspect => (100, &["--samples", "200"], |runs| format!("inspect{runs}")),
        Format::Lmeval => (50, &["--docs", "200"], |runs| format!("lmeval{runs}")),
        Format::Lighteval => (50, &["--samples", "200"], |runs| format!("lighteval{runs}")),
        Format::Promptfoo => (40, &["--tests", "100"], |runs| format!("promptfoo{runs}")),
        Format::Helm => (10, &["--instances", "200"], |runs| format!("helm{runs}")),
        Format::OpenaiEvals => (24, &["--tests", "500"], |runs| format!("openaievals{runs}")),
        Format::Taubench => (8, &["--tasks", "165"], |runs| format!("taubench{runs}")),
        Format::TerminalBench => (10, &["--tasks", "120"], |runs| format!("terminalbench{runs}")),
        Format::Evalplus => (25, &["--tasks", "542"], |runs| format!("evalplus{runs}")),
    };
    let mut specs: Vec<Spec> = [(runs, true), (2 * runs, false)]
        .map(|(runs, quick)| Spec { name: name(runs), format, runs, size_args, baseline: true, quick })
        .into();
    if format == Format::Bfcl {
        specs.push(Spec { name: name(200), format, runs: 200, size_args, baseline: false, quick: false });
    }
    if format == Format::TerminalBench {
        let size_args = &["--tasks", "89", "--harbor"];
        specs.push(Spec { name: "harbor10".to_string(), format, runs: 10, size_args, baseline: true, quick: true });
    }
    specs
}

/// A generated workload: a folder of runs, the files in it and its ground
/// truth.
#[derive(Debug)]
pub(crate) struct Workload {
    pub(crate) name: String,
    pub(crate) format: Format,
    pub(crate) runs: u32,
    pub(crate) dir: PathBuf,
    /// The generator's ground truth (`--expected`) as JSON.
    pub(crate) expected: PathBuf,
    /// Every regular file below `dir`, sorted.
    pub(crate) files: Vec<PathBuf>,
    /// The total size of `files`.
    pub(crate) bytes: u64,
    /// The generator command, for the report: script relative to the
    /// workspace root and size options.
    pub(crate) command: String,
    /// Whether the Python baseline is timed on it ([`Spec::baseline`]).
    pub(crate) baseline: bool,
}

/// Where the generator sends its ground truth.
enum Truth {
    /// To the file named after `--expected` (BFCL).
    Argument,
    /// To stdout, redirected into the file.
    Stdout,
}

/// Generates the workload of `spec` under `bench_dir` with `generator` unless
/// its marker says it is already there, then lists its files.
pub(crate) fn prepare(bench_dir: &Path, generator: &Path, spec: &Spec) -> Result<Workload> {
    let name = spec.name.clone();
    let dir = bench_dir.join(&name);
    let marker = bench_dir.join(format!("{name}.done"));
    let expected = bench_dir.join(format!("{name}.expected.json"));
    let mut args = vec![generator.as_os_str().to_owned()];
    let truth = if spec.format == Format::Bfcl {
        args.extend([os("--out"), dir.clone().into()]);
        Truth::Argument
    } else {
        Truth::Stdout
    };
    args.extend([os("--runs"), spec.runs.to_string().into(), os("--seed"), SEED.to_string().into()]);
    args.extend(spec.size_args.iter().map(|&a| os(a)));
    args.push(os("--expected"));
    let redirect = match truth {
        Truth::Argument => {
            args.push(expected.clone().into());
            String::new()
        }
        Truth::Stdout => {
            args.push(dir.clone().into());
            format!(" > {}", expected.display())
        }
    };
    let line =
        format!("python3 {}{redirect}\n", args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" "));
    if fs::read_to_string(&marker).ok().as_deref() == Some(line.as_str()) && dir.is_dir() && expected.is_file() {
        eprintln!("xtask: {name}: cached in {}", dir.display());
    } else {
        generate(spec, &dir, &marker, &expected, &args, &truth)?;
        fs::write(&marker, &line).with_context(|| format!("cannot write {}", marker.display()))?;
    }
    let files = files_below(&dir)?;
    let bytes = files.iter().map(|f| fs::metadata(f).map(|m| m.len())).sum::<std::io::Result<u64>>()?;
    ensure!(!files.is_empty(), "{} holds no files", dir.display());
    let command = std::iter::once(format!("{}/{}", spec.format.scripts_dir(), spec.format.generator()))
        .chain([format!("--runs {}", spec.runs)])
        .chain(spec.size_args.iter().map(|&a| a.to_owned()))
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Workload {
        name,
        format: spec.format,
        runs: spec.runs,
        dir,
        expected,
        files,
        bytes,
        command,
        baseline: spec.baseline,
    })
}

/// Runs the generator into a fresh `dir`, printing progress to stderr.
fn generate(spec: &Spec, dir: &Path, marker: &Path, expected: &Path, args: &[OsString], truth: &Truth) -> Result<()> {
    const REPORT_EVERY: Duration = Duration::from_secs(10);
    for file in [marker, expected] {
        match fs::remove_file(file) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(err).with_context(|| format!("cannot delete {}", file.display()));
            }
            _ => {}
        }
    }
    if dir.exists() {
        fs::remove_dir_all(dir).with_context(|| format!("cannot delete {}", dir.display()))?;
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (name, runs) = (&spec.name, spec.runs);
    eprintln!("xtask: {name}: generating {runs} runs into {} (this takes a while)", dir.display());
    let stdout = match truth {
        Truth::Argument => Stdio::from(std::io::stderr()),
        Truth::Stdout => {
            Stdio::from(fs::File::create(expected).with_context(|| format!("cannot create {}", expected.display()))?)
        }
    };
    let started = Instant::now();
    let mut child = Command::new("python3")
        .args(args)
        .stdout(stdout)
        .spawn()
        .context("could not start python3 for the workload generator")?;
    // Where one entry appears per run started.
    let runs_dir = match spec.format {
        Format::Swebench => dir.join("logs/run_evaluation"),
        Format::Helm => dir.join("runs"),
        _ => dir.to_path_buf(),
    };
    let mut next_report = REPORT_EVERY;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        std::thread::sleep(Duration::from_millis(200));
        if started.elapsed() >= next_report {
            next_report += REPORT_EVERY;
            let written = fs::read_dir(&runs_dir).map_or(0, Iterator::count);
            eprintln!("xtask: {name}: {written}/{runs} runs started, {} s", started.elapsed().as_secs());
        }
    };
    if !status.success() {
        bail!("the workload generator failed ({status}); {} is incomplete", dir.display());
    }
    ensure!(
        fs::metadata(expected).is_ok_and(|m| m.len() > 0),
        "the workload generator wrote no ground truth to {}",
        expected.display()
    );
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
