//! Timing commands: wall time around spawn + wait, peak RSS from GNU time.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

const GNU_TIME: &str = "/usr/bin/time";

/// Wall times in seconds over the measured runs, and the peak RSS over all of
/// them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stats {
    pub(crate) median: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
    /// Largest maximum resident set size of any process, in KiB; `None` when
    /// GNU time is not available.
    pub(crate) peak_rss_kib: Option<u64>,
}

/// Runs the commands `make` returns once to warm up, then `runs` times
/// measured. The commands of one run go one after the other and their wall
/// times add up; each must exit successfully.
pub(crate) fn measure(make: &dyn Fn() -> Vec<Command>, runs: usize) -> Result<Stats> {
    measure_with(make, None, runs).map(|(stats, _)| stats)
}

/// [`measure`], with the commands `baseline` returns run just before each run of `make`
/// (the warm-up too); also returns the median over the runs of `make`'s wall time divided
/// by its baseline's just before. On a machine whose speed drifts (a shared VM), that ratio
/// holds where the ratio of two medians measured apart does not.
pub(crate) fn measure_against(
    make: &dyn Fn() -> Vec<Command>,
    baseline: &dyn Fn() -> Vec<Command>,
    runs: usize,
) -> Result<(Stats, f64)> {
    measure_with(make, Some(baseline), runs).map(|(stats, ratio)| (stats, ratio.unwrap_or(f64::NAN)))
}

fn measure_with(
    make: &dyn Fn() -> Vec<Command>,
    baseline: Option<&dyn Fn() -> Vec<Command>>,
    runs: usize,
) -> Result<(Stats, Option<f64>)> {
    if let Some(baseline) = baseline {
        run_all(baseline())?;
    }
    run_all(make())?;
    let mut times = Vec::with_capacity(runs);
    let mut ratios = Vec::with_capacity(runs);
    let mut peak_rss_kib = None;
    for _ in 0..runs {
        let before = baseline.map(|b| run_all(b())).transpose()?;
        let (secs, rss) = run_all(make())?;
        if let Some((base, _)) = before {
            ratios.push(secs / base);
        }
        times.push(secs);
        peak_rss_kib = peak_rss_kib.max(rss);
    }
    let (min, max) =
        (times.iter().copied().fold(f64::INFINITY, f64::min), times.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let stats = Stats { median: median(&mut times), min, max, peak_rss_kib };
    Ok((stats, (!ratios.is_empty()).then(|| median(&mut ratios))))
}

/// The median of `values` (the mean of the middle two for an even count), sorting them.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 { values[mid] } else { f64::midpoint(values[mid - 1], values[mid]) }
}

/// Runs `commands` in order; returns their total wall time and largest RSS.
fn run_all(commands: Vec<Command>) -> Result<(f64, Option<u64>)> {
    let mut total = 0.0;
    let mut peak = None;
    for cmd in commands {
        let (secs, rss) = run_one(cmd)?;
        total += secs;
        peak = peak.max(rss);
    }
    Ok((total, peak))
}

/// Runs `cmd` (under GNU time when available) and returns its wall time in
/// seconds and its peak RSS in KiB.
fn run_one(cmd: Command) -> Result<(f64, Option<u64>)> {
    // One file per process run, so concurrent runs (tests) never share one.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let line = command_line(&cmd);
    let rss_file = gnu_time_available().then(|| {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        std::env::temp_dir().join(format!("xtask-bench-{}-{n}.rss", std::process::id()))
    });
    let mut cmd = match &rss_file {
        Some(file) => under_gnu_time(&cmd, file),
        None => cmd,
    };
    cmd.stderr(Stdio::piped());
    let started = Instant::now();
    let child = cmd.spawn().with_context(|| format!("could not start `{line}`"))?;
    let output = child.wait_with_output().with_context(|| format!("could not wait for `{line}`"))?;
    let secs = started.elapsed().as_secs_f64();
    if !output.status.success() {
        if let Some(file) = &rss_file {
            let _ = fs::remove_file(file);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!("`{line}` failed ({}):\n{}", output.status, tail(&stderr, 40));
    }
    let rss = rss_file
        .map(|file| {
            let rss = read_rss(&file);
            let _ = fs::remove_file(&file);
            rss
        })
        .transpose()?;
    Ok((secs, rss))
}

/// Whether `/usr/bin/time` is GNU time (understands `-f %M -o FILE`).
pub(crate) fn gnu_time_available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        let probe = std::env::temp_dir().join(format!("xtask-bench-{}.probe", std::process::id()));
        let ok = Command::new(GNU_TIME)
            .args(["-f", "%M", "-o"])
            .arg(&probe)
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
            && read_rss(&probe).is_ok();
        let _ = fs::remove_file(&probe);
        ok
    })
}

/// `cmd` run as `/usr/bin/time -f %M -o rss_file <cmd>`, keeping its folder,
/// environment changes and stdin / stdout settings.
fn under_gnu_time(cmd: &Command, rss_file: &Path) -> Command {
    let mut wrapped = Command::new(GNU_TIME);
    wrapped.args(["-f", "%M", "-o"]).arg(rss_file).arg(cmd.get_program()).args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        wrapped.current_dir(dir);
    }
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    // Every benchmarked command reads no input and has its output discarded.
    wrapped.stdin(Stdio::null()).stdout(Stdio::null());
    wrapped
}

/// The KiB GNU time wrote: the last line of the file (a failing command adds
/// a "Command exited with non-zero status" line before it).
fn read_rss(file: &Path) -> Result<u64> {
    let text = fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let last = text.lines().last().unwrap_or_default().trim();
    last.parse().with_context(|| format!("unexpected GNU time output in {}: {text:?}", file.display()))
}

fn command_line(cmd: &Command) -> String {
    let mut line = cmd.get_program().to_string_lossy().into_owned();
    let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
    // `cat` gets thousands of paths; show the first few.
    for arg in args.iter().take(6) {
        line.push(' ');
        line.push_str(arg);
    }
    if args.len() > 6 {
        let _ = write!(line, " ... ({} arguments)", args.len());
    }
    line
}

/// The last `n` lines of `text`.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
