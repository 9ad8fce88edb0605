//! `cargo xtask bench [--runs N] [--quick] [--format NAME]... [--profile P]`: time evaltally
//! against a plain-Python baseline and `cat` on large synthetic workloads of
//! every format it reads, check its counts against the generators' ground
//! truth, print the results and write them to `docs/benchmarks.md`.
//!
//! Steps:
//! 1. Build evaltally with the `dist` profile, what is shipped (`--profile release`: the
//!    default profile, whose figures are printed and not written to the document).
//! 2. Generate the workloads once into `<target dir>/bench/<name>`, two per
//!    format, the second with twice the runs (seed 7): BFCL `w40` and `w80`
//!    with `../shared/bench/gen_bfcl_runs.py` (and `w200`, for peak memory at
//!    200 runs, without the Python baseline); `gstack2000` / `gstack4000`,
//!    `junit1000` / `junit2000`, `swebench20x500` / `swebench40x500` and
//!    `sfbench200` / `sfbench400` with `xtask/bench/gen_<format>.py`. A marker
//!    file `<name>.done` next to each holds the generator command line; a
//!    workload is regenerated from scratch when its marker is missing or
//!    differs. The generator's ground truth is kept in `<name>.expected.json`.
//! 3. Check the ground truth: `evaltally stability W --format json` (kept in
//!    `<name>.stability.json`) must give the generator's counts per (model,
//!    category) (total, stable pass, flaky, stable fail, runs, passes and tests
//!    per run), as `xtask/bench/check_expected.py` compares them. Any
//!    difference, on any workload, fails the bench before anything is timed.
//! 4. Run every command once to warm up (and fill the page cache), then N times
//!    measured (the Python baseline `min(N, 3)` times), stdout to `/dev/null`.
//!    Wall time is taken around spawn + wait; peak RSS comes from GNU time's
//!    `%M` when `/usr/bin/time` is GNU time.
//! 5. Print the tables and the target ratios and write the same to
//!    `docs/benchmarks.md`, atomically.
//!
//! `--quick` uses only the smaller workload of each format; `--format NAME`
//! (repeatable) only the named formats. [`workload`] makes and caches the
//! workloads, [`mod@measure`] does the timing, [`report`] the machine
//! description and the formatting.

mod measure;
mod postgres;
mod report;
mod serve;
mod subset;
mod workload;

#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail, ensure};

use crate::{cargo, relative, run_cmd, target_dir, workspace_root};
use measure::{Stats, measure, measure_against};
use workload::Workload;

/// Measured runs per command unless `--runs` says otherwise.
const DEFAULT_RUNS: usize = 5;
/// The Python baseline takes seconds per run, so it runs at most this often.
const MAX_PYTHON_RUNS: usize = 3;
/// A test id present in every generated BFCL workload, for `evaltally show`.
const SHOW_TEST_ID: &str = "multi_turn_base_7";

/// A format the bench has workloads for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Format {
    Bfcl,
    Gstack,
    Junit,
    Swebench,
    Sfbench,
    Inspect,
    Lmeval,
    Lighteval,
    Promptfoo,
    Helm,
    OpenaiEvals,
    Taubench,
    TerminalBench,
    Evalplus,
}

impl Format {
    /// Every format, in the order of the report.
    pub(crate) const ALL: [Self; 14] = [
        Self::Bfcl,
        Self::Gstack,
        Self::Junit,
        Self::Swebench,
        Self::Sfbench,
        Self::Inspect,
        Self::Lmeval,
        Self::Lighteval,
        Self::Promptfoo,
        Self::Helm,
        Self::OpenaiEvals,
        Self::Taubench,
        Self::TerminalBench,
        Self::Evalplus,
    ];

    /// The name `--format` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Bfcl => "bfcl",
            Self::Gstack => "gstack",
            Self::Junit => "junit",
            Self::Swebench => "swebench",
            Self::Sfbench => "sfbench",
            Self::Inspect => "inspect",
            Self::Lmeval => "lmeval",
            Self::Lighteval => "lighteval",
            Self::Promptfoo => "promptfoo",
            Self::Helm => "helm",
            Self::OpenaiEvals => "openai-evals",
            Self::Taubench => "taubench",
            Self::TerminalBench => "terminal-bench",
            Self::Evalplus => "evalplus",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A heading for the format's table.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::Bfcl => "BFCL v4 result and score files",
            Self::Gstack => "gstack standard eval results",
            Self::Junit => "JUnit XML reports",
            Self::Swebench => "SWE-bench per-instance reports",
            Self::Sfbench => "SF-Bench v2 reports",
            Self::Inspect => "inspect_ai logs",
            Self::Lmeval => "lm-evaluation-harness sample logs",
            Self::Lighteval => "lighteval details (Parquet)",
            Self::Promptfoo => "promptfoo eval output",
            Self::Helm => "HELM run folders",
            Self::OpenaiEvals => "OpenAI Evals record logs",
            Self::Taubench => "τ-bench results",
            Self::TerminalBench => "Terminal-Bench tb run folders and Harbor jobs",
            Self::Evalplus => "EvalPlus results",
        }
    }

    /// The Python baseline's file name, also its row label.
    pub(crate) fn reference(self) -> &'static str {
        match self {
            Self::Bfcl => "ref_stability.py",
            Self::Gstack => "ref_gstack.py",
            Self::Junit => "ref_junit.py",
            Self::Swebench => "ref_swebench.py",
            Self::Sfbench => "ref_sfbench.py",
            Self::Inspect => "ref_inspect.py",
            Self::Lmeval => "ref_lmeval.py",
            Self::Lighteval => "ref_lighteval.py",
            Self::Promptfoo => "ref_promptfoo.py",
            Self::Helm => "ref_helm.py",
            Self::OpenaiEvals => "ref_openai_evals.py",
            Self::Taubench => "ref_taubench.py",
            Self::TerminalBench => "ref_terminal_bench.py",
            Self::Evalplus => "ref_evalplus.py",
        }
    }

    /// The generator's file name.
    pub(crate) fn generator(self) -> &'static str {
        match self {
            Self::Bfcl => "gen_bfcl_runs.py",
            Self::Gstack => "gen_gstack.py",
            Self::Junit => "gen_junit.py",
            Self::Swebench => "gen_swebench.py",
            Self::Sfbench => "gen_sfbench.py",
            Self::Inspect => "gen_inspect.py",
            Self::Lmeval => "gen_lmeval.py",
            Self::Lighteval => "gen_lighteval.py",
            Self::Promptfoo => "gen_promptfoo.py",
            Self::Helm => "gen_helm.py",
            Self::OpenaiEvals => "gen_openai_evals.py",
            Self::Taubench => "gen_taubench.py",
            Self::TerminalBench => "gen_terminal_bench.py",
            Self::Evalplus => "gen_evalplus.py",
        }
    }

    /// The Python modules its baseline needs beyond the standard library:
    /// lighteval's details are Parquet, which a user reads with pyarrow (its
    /// generator writes them without it).
    pub(crate) fn baseline_modules(self) -> &'static [&'static str] {
        match self {
            Self::Lighteval => &["pyarrow"],
            _ => &[],
        }
    }

    /// The folder of its generator and baseline, relative to the workspace
    /// root.
    pub(crate) fn scripts_dir(self) -> &'static str {
        match self {
            Self::Bfcl => "../shared/bench",
            _ => "xtask/bench",
        }
    }
}

/// The parsed flags of `cargo xtask bench`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Options {
    /// Measured runs per command (the Python baseline runs at most 3 times).
    runs: usize,
    /// Only the smaller workload of each format.
    quick: bool,
    /// The formats to bench, in report order; all by default.
    formats: Vec<Format>,
    /// The cargo profile built and timed: `dist` (shipped) by default, or `release`.
    profile: String,
}

impl Options {
    /// Parses the flags after `bench`; `None` means a usage error.
    pub(crate) fn parse(flags: &[&str]) -> Option<Self> {
        let mut options = Self { runs: DEFAULT_RUNS, quick: false, formats: Vec::new(), profile: "dist".to_string() };
        let mut flags = flags.iter();
        while let Some(&flag) = flags.next() {
            match flag {
                "--quick" => options.quick = true,
                "--runs" => options.runs = flags.next()?.parse().ok().filter(|&n| n > 0)?,
                "--format" => options.add_formats(flags.next()?)?,
                "--profile" => options.set_profile(flags.next()?)?,
                _ => match flag.split_once('=') {
                    Some(("--runs", n)) => options.runs = n.parse().ok().filter(|&n| n > 0)?,
                    Some(("--format", names)) => options.add_formats(names)?,
                    Some(("--profile", name)) => options.set_profile(name)?,
                    _ => return None,
                },
            }
        }
        if options.formats.is_empty() {
            options.formats = Format::ALL.to_vec();
        }
        options.formats.sort_unstable();
        options.formats.dedup();
        Some(options)
    }

    /// Adds the comma-separated format `names`; `None` for an unknown one.
    fn add_formats(&mut self, names: &str) -> Option<()> {
        for name in names.split(',') {
            self.formats.push(Format::from_name(name)?);
        }
        Some(())
    }

    /// `--profile`: `dist` or `release`; `None` for another.
    fn set_profile(&mut self, name: &str) -> Option<()> {
        matches!(name, "dist" | "release").then(|| self.profile = name.to_string())
    }

    /// Whether the profile is the one shipped, whose figures `docs/benchmarks.md` holds.
    fn shipped(&self) -> bool {
        self.profile == "dist"
    }

    /// Whether every format is benched.
    fn all_formats(&self) -> bool {
        self.formats.len() == Format::ALL.len()
    }
}

/// One row of the results: a command measured on a workload.
#[derive(Debug)]
struct Measured {
    workload: String,
    format: Format,
    label: &'static str,
    /// The workload's size when the command reads all of it, for MB/s.
    bytes_read: Option<u64>,
    stats: Stats,
    /// The median ratio of its wall time to that of `cat` of the workload run just before
    /// it, for the commands held to a ratio to `cat`.
    to_cat: Option<f64>,
}

/// The measured-command labels, shared with the ratio checks in [`report`]
/// (the Python baselines are labelled by [`Format::reference`]).
mod label {
    pub(super) const STABILITY: &str = "evaltally stability";
    pub(super) const CAT: &str = "cat (all files)";
    pub(super) const STAT: &str = "stat (all files)";
    pub(super) const COMPARE: &str = "evaltally compare";
    pub(super) const SHOW: &str = "evaltally show";
    pub(super) const CACHE_COLD: &str = "stability, cache cold";
    pub(super) const CACHE_WARM: &str = "stability, cache warm";
    pub(super) const NEW_RUN: &str = "stability, 39 cached + 1 new run";
    pub(super) const FULL_WARM: &str = "stability, cache warm among 24 copies";
    pub(super) const ONE_RUN: &str = "stability, 1 run (no cache)";
    pub(super) const VALIDATE: &str = "evaltally validate";
    pub(super) const VALIDATE_WARM: &str = "validate, cache warm";
}

pub(crate) fn run(options: &Options) -> Result<()> {
    let root = workspace_root();
    let bench_dir = target_dir()?.join("bench");
    let checker = root.join("xtask/bench/check_expected.py");
    for &format in &options.formats {
        let dir = root.join(format.scripts_dir());
        for script in [format.generator(), format.reference()].map(|name| dir.join(name)) {
            ensure!(
                script.is_file(),
                "{} is missing{}",
                script.display(),
                if format == Format::Bfcl {
                    "; the BFCL benchmarks need ../shared/bench next to the workspace"
                } else {
                    ""
                }
            );
        }
    }
    ensure!(checker.is_file(), "{} is missing", checker.display());
    let python = python_executable()?;
    // Build before the long workload generation, so a broken build fails fast.
    let evaltally = build(&options.profile)?;

    let mut workloads = Vec::new();
    for &format in &options.formats {
        let generator = root.join(format.scripts_dir()).join(format.generator());
        let specs = workload::specs(format);
        for spec in specs.iter().filter(|s| s.quick || !options.quick) {
            workloads.push(workload::prepare(&bench_dir, &generator, spec)?);
        }
    }

    let mut truths = Vec::new();
    for w in &workloads {
        truths.push(check_ground_truth(&evaltally, &python, &checker, &bench_dir, w)?);
    }
    let mismatched: Vec<&str> = truths.iter().filter(|t| !t.matched).map(|t| t.workload.as_str()).collect();
    if !mismatched.is_empty() {
        for t in truths.iter().filter(|t| !t.matched) {
            eprintln!("xtask: {}: evaltally's counts differ from the ground truth:\n{}", t.workload, t.message);
        }
        bail!(
            "evaltally stability does not count {} as the generators' ground truth says (see above); nothing was timed",
            mismatched.join(", ")
        );
    }

    if !measure::gnu_time_available() {
        eprintln!("xtask: /usr/bin/time is missing or not GNU time: peak RSS will be n/a");
    }

    let python_runs = options.runs.min(MAX_PYTHON_RUNS);
    let mut rows = Vec::new();
    for w in &workloads {
        let dir = w.dir.as_path();
        let reference = root.join(w.format.scripts_dir()).join(w.format.reference());
        let cat = || cat_commands(&w.files);
        let stat = || all_files(Path::new("stat"), &["--format=%s"], &w.files);
        // The commands held to a ratio to `cat` run each measured time right after `cat` of
        // the workload, and are compared with that run.
        let mut bench = |label: &'static str, reads_all: bool, runs: usize, make: &dyn Fn() -> Vec<Command>| {
            let against_cat = [
                label::STABILITY,
                label::CACHE_COLD,
                label::CACHE_WARM,
                label::FULL_WARM,
                label::VALIDATE_WARM,
                label::STAT,
            ]
            .contains(&label);
            eprintln!(
                "xtask: {} {label}: 1 warm-up + {runs} measured{}",
                w.name,
                if against_cat { ", each after a run of cat" } else { "" }
            );
            let (stats, to_cat) = if against_cat {
                measure_against(make, &cat, runs).map(|(stats, ratio)| (stats, Some(ratio)))
            } else {
                measure(make, runs).map(|stats| (stats, None))
            }
            .with_context(|| format!("{} {label}", w.name))?;
            eprintln!("xtask: {} {label}: median {:.3} s", w.name, stats.median);
            rows.push(Measured {
                workload: w.name.clone(),
                format: w.format,
                label,
                bytes_read: reads_all.then_some(w.bytes),
                stats,
                to_cat,
            });
            anyhow::Ok(())
        };
        // Reading itself, as every analysis without a cache does.
        bench(label::STABILITY, true, options.runs, &|| {
            vec![command(&evaltally, [os("--no-cache"), os("stability"), dir.into(), os("--format"), os("json")])]
        })?;
        let stability_with_cache = |cache: &Path, paths: &[&Path]| {
            let mut args = vec![os("stability")];
            args.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
            args.extend([os("--format"), os("json")]);
            let mut cmd = command(&evaltally, args);
            cmd.env("EVALTALLY_CACHE", cache);
            cmd
        };
        // The digest cache: every measured run starts from an empty cache folder ...
        let caches = bench_dir.join("cache").join(&w.name);
        let fresh = AtomicUsize::new(0);
        let fresh_cache = || -> PathBuf {
            let dir = caches.join(format!("cold-{}", fresh.fetch_add(1, Ordering::Relaxed)));
            drop(fs::remove_dir_all(&dir));
            dir
        };
        bench(label::CACHE_COLD, true, options.runs, &|| vec![stability_with_cache(&fresh_cache(), &[dir])])?;
        // ... or from the one the warm-up run filled.
        let warm = caches.join("warm");
        drop(fs::remove_dir_all(&warm));
        bench(label::CACHE_WARM, true, options.runs, &|| vec![stability_with_cache(&warm, &[dir])])?;
        if w.name == "w40" {
            // A run added to a folder of runs the cache knows: before each measured run, an
            // untimed run fills a fresh cache with the folder as it was without its last
            // run (hidden by a dot, which the walk skips).
            let last = dir.join("run-039");
            let hidden = dir.join(".run-039");
            bench(label::NEW_RUN, true, options.runs, &|| {
                let cache = fresh_cache();
                let filled = fs::rename(&last, &hidden)
                    .map_err(anyhow::Error::from)
                    .and_then(|()| run_quiet(stability_with_cache(&cache, &[dir])));
                let restored = fs::rename(&hidden, &last);
                if let Err(e) = filled.and(restored.map_err(anyhow::Error::from)) {
                    eprintln!("xtask: could not prepare the 39-run cache: {e:#}");
                }
                vec![stability_with_cache(&cache, &[dir])]
            })?;
            // The same warm analysis in a cache that holds much else, as a user's does: the
            // readings and listings of 24 copies of the workload (hard links, so no more
            // disk), stored first.
            let full = caches.join("full");
            fill_with_copies(&bench_dir.join("w40-copies"), &w.files, dir, FULL_COPIES, |copy| {
                run_quiet(stability_with_cache(&full, &[copy]))
            })?;
            bench(label::FULL_WARM, true, options.runs, &|| vec![stability_with_cache(&full, &[dir])])?;
            drop(fs::remove_dir_all(bench_dir.join("w40-copies")));
            bench(label::ONE_RUN, false, options.runs, &|| {
                let one = dir.join("run-000");
                vec![command(&evaltally, [os("--no-cache"), os("stability"), one.into(), os("--format"), os("json")])]
            })?;
            // Checking every file, and checking them again through the cache the warm-up
            // run filled: validate is a reading command like the others.
            bench(label::VALIDATE, true, options.runs, &|| {
                vec![command(&evaltally, [os("--no-cache"), os("validate"), dir.into()])]
            })?;
            let checked = caches.join("validate");
            bench(label::VALIDATE_WARM, true, options.runs, &|| {
                let mut cmd = command(&evaltally, [os("validate"), dir.into()]);
                cmd.env("EVALTALLY_CACHE", &checked);
                vec![cmd]
            })?;
        }
        drop(fs::remove_dir_all(&caches));
        if w.baseline && baseline_runs(&python, w.format) {
            bench(w.format.reference(), true, python_runs, &|| {
                vec![command(&python, [reference.as_os_str(), dir.as_os_str()])]
            })?;
        }
        bench(label::CAT, true, options.runs, &cat)?;
        // The least a warm run costs: the cache trusts no file it has not looked at again.
        bench(label::STAT, false, options.runs, &stat)?;
        if w.name == "w40" {
            bench(label::COMPARE, false, options.runs, &|| {
                let (base, new) = (dir.join("run-000"), dir.join("run-001"));
                vec![command(
                    &evaltally,
                    [os("--no-cache"), os("compare"), base.into(), new.into(), os("--format"), os("json")],
                )]
            })?;
            bench(label::SHOW, false, options.runs, &|| {
                vec![command(&evaltally, [os("--no-cache"), os("show"), dir.into(), os(SHOW_TEST_ID)])]
            })?;
        }
    }

    // The live view and the HTML report, on the workloads they are held to targets on.
    let served = serve::run(&evaltally, &workloads, &bench_dir, options.runs)?;
    eprintln!("xtask: serve: heatmap windows of 10,000 tests x 500 runs");
    let windows = serve::windows()?;
    let machine = report::Machine::collect(&python);
    // The PostgreSQL store, when a server is at hand (a line on stderr says when it is not).
    let postgres = postgres::run(&evaltally, options.runs)?;
    let subset = subset::run(&evaltally, &python, &bench_dir, options.runs)?;
    let tables = report::Tables {
        workloads: report::workloads_table(&workloads),
        truth: report::truth_table(&truths),
        results: options.formats.iter().map(|&f| (f, report::results_table(&rows, f))).collect(),
        ratios: report::ratios_table(&rows),
        serve: serve::section(&served, Some(&windows)),
        store: postgres::section(postgres.as_ref()),
        subset: subset::section(&subset),
    };
    println!("{}", tables.terminal());
    if !options.shipped() {
        eprintln!(
            "xtask: these are the `{}` profile's figures; docs/benchmarks.md holds the shipped `dist` profile's",
            options.profile
        );
        return Ok(());
    }
    let doc = report::document(&machine, options, python_runs, &tables);
    let path = root.join("docs/benchmarks.md");
    write_atomically(&path, &doc)?;
    eprintln!("xtask: wrote {}", relative(&path).display());
    Ok(())
}

/// Builds the binary with `profile` and returns its path.
fn build(profile: &str) -> Result<std::path::PathBuf> {
    run_cmd(&mut cargo(&["build", "--profile", profile, "-p", "evaltally"]))?;
    let evaltally = target_dir()?.join(profile).join("evaltally");
    ensure!(evaltally.is_file(), "{} is missing after the build", evaltally.display());
    Ok(evaltally)
}

/// How many copies of w40 the cache holds for [`label::FULL_WARM`].
const FULL_COPIES: usize = 24;

/// Makes `copies` copies of the workload in `dir` (its `files`) below `under`, each file a
/// hard link, and calls `store` with each copy in turn (untimed); the copies stay for the
/// caller to remove.
fn fill_with_copies(
    under: &Path,
    files: &[PathBuf],
    dir: &Path,
    copies: usize,
    store: impl Fn(&Path) -> Result<()>,
) -> Result<()> {
    drop(fs::remove_dir_all(under));
    eprintln!("xtask: storing {copies} copies of {} in the cache (untimed)", dir.display());
    for i in 0..copies {
        let copy = under.join(format!("copy-{i:02}"));
        for file in files {
            let to = copy.join(
                file.strip_prefix(dir).with_context(|| format!("{} is outside {}", file.display(), dir.display()))?,
            );
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
            }
            fs::hard_link(file, &to).with_context(|| format!("cannot link {} to {}", file.display(), to.display()))?;
        }
        store(&copy)?;
    }
    Ok(())
}

/// The outcome of comparing evaltally's counts with a workload's ground truth.
#[derive(Debug)]
struct TruthCheck {
    workload: String,
    matched: bool,
    /// The checker's summary line, or the differences it found.
    message: String,
}

/// Runs `evaltally stability W --format json` (untimed; its output is kept
/// in `<bench dir>/<name>.stability.json`) and compares its counts with the
/// workload's ground truth using `check_expected.py`.
fn check_ground_truth(
    evaltally: &Path,
    python: &Path,
    checker: &Path,
    bench_dir: &Path,
    w: &Workload,
) -> Result<TruthCheck> {
    let actual = bench_dir.join(format!("{}.stability.json", w.name));
    eprintln!("xtask: {}: checking evaltally's counts against the ground truth", w.name);
    let out = Command::new(evaltally)
        // Ground truths count errors as failures, as the benchmarks do officially.
        .args([
            os("--no-cache"),
            os("stability"),
            w.dir.clone().into(),
            os("--format"),
            os("json"),
            os("--errors-as"),
            os("fail"),
        ])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("could not start {}", evaltally.display()))?;
    fs::write(&actual, &out.stdout).with_context(|| format!("cannot write {}", actual.display()))?;
    if out.stdout.is_empty() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect();
        return Ok(TruthCheck {
            workload: w.name.clone(),
            matched: false,
            message: format!("evaltally stability printed no JSON ({}):\n{}", out.status, tail.join("\n")),
        });
    }
    let check = Command::new(python)
        .arg(checker)
        .args([&w.expected, &actual])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("could not run {}", checker.display()))?;
    let stdout = String::from_utf8_lossy(&check.stdout).trim().to_owned();
    let stderr = String::from_utf8_lossy(&check.stderr).trim().to_owned();
    if !stderr.is_empty() {
        eprintln!("{stderr}");
    }
    let matched = check.status.success() && out.status.success();
    let message = match (check.status.success(), out.status.success()) {
        (true, false) => format!("{stdout}, but evaltally stability exited with {}", out.status),
        (false, _) if stdout.is_empty() => format!("check_expected.py failed ({}): {stderr}", check.status),
        _ => stdout,
    };
    if matched {
        eprintln!("xtask: {}: {message}", w.name);
    }
    Ok(TruthCheck { workload: w.name.clone(), matched, message })
}

/// Whether `python` has the modules the baseline of `format` needs; when it lacks them the
/// baseline is not timed (its speed-up row says n/a), said on stderr.
fn baseline_runs(python: &Path, format: Format) -> bool {
    let modules = format.baseline_modules();
    if modules.is_empty() {
        return true;
    }
    let import = format!("import {}", modules.join(", "));
    let ok = Command::new(python).args(["-c", &import]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "xtask: {}: not timed, {} cannot `{import}` (`pip install {}`, as .ci/run does)",
            format.reference(),
            python.display(),
            modules.join(" ")
        );
    }
    ok
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

/// Runs `cmd` to completion, untimed; an error unless it succeeds.
fn run_quiet(mut cmd: Command) -> Result<()> {
    let status = cmd.status().context("could not start evaltally")?;
    ensure!(status.success(), "evaltally exited with {status}");
    Ok(())
}

fn os(s: &str) -> OsString {
    s.into()
}

/// `cat` over all `files`, split into several processes when one argument
/// list would pass about 1 MB.
fn cat_commands(files: &[PathBuf]) -> Vec<Command> {
    all_files(Path::new("cat"), &[], files)
}

/// `program args... files...` over all `files`, split into several processes one after
/// the other when one argument list would pass about 1 MB.
fn all_files(program: &Path, args: &[&str], files: &[PathBuf]) -> Vec<Command> {
    const MAX_ARG_BYTES: usize = 1 << 20;
    let start = || command(program, args);
    let mut commands = Vec::new();
    let mut current = start();
    let mut chunk_bytes = 0;
    for file in files {
        let arg_bytes = file.as_os_str().len() + 1 + size_of::<usize>();
        if chunk_bytes > 0 && chunk_bytes + arg_bytes > MAX_ARG_BYTES {
            commands.push(std::mem::replace(&mut current, start()));
            chunk_bytes = 0;
        }
        current.arg(file);
        chunk_bytes += arg_bytes;
    }
    if chunk_bytes > 0 {
        commands.push(current);
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

/// `cargo xtask bench-store`: the PostgreSQL store's measurement alone.
pub(crate) fn run_store(runs: usize) -> Result<()> {
    let evaltally = build("dist")?;
    if let Some(stats) = postgres::run(&evaltally, runs)? {
        print!("{}", postgres::section(Some(&stats)));
    }
    Ok(())
}
