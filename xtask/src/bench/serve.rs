//! `evaltally serve` and `report` on the bench's workloads (BFCL `w40`, `gstack2000`,
//! `gstack4000`), with a warm cache: the time from starting the server to the first
//! complete view, the server's peak memory then, and `report`'s time and memory, each
//! against `stability` (cache warm) on the same runs; and the time to serve one heatmap
//! window of 10,000 tests × 500 runs, from a server in this process over generated runs.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use evaltally_core::{CategoryRun, Outcome, RunMeta};
use evaltally_serve::{Config, Input, Server, Shown, Source, SourceError};

use super::measure::{Stats, measure};
use super::workload::Workload;
use super::{command, os};

/// The workloads `serve` is measured on.
pub(crate) const WORKLOADS: [&str; 3] = ["w40", "gstack2000", "gstack4000"];
/// The heatmap window the page asks for first (rows and columns), as its script does on a
/// large screen: the rows and columns in view and a margin.
const WINDOW: (usize, usize) = (100, 200);
/// The generated runs of the window measurement.
const WINDOW_RUNS: usize = 500;
/// Its tests (ten categories of 1,000).
const WINDOW_TESTS: usize = 10_000;
/// Windows requested at random places.
const WINDOWS: usize = 200;

/// One workload's figures.
#[derive(Debug)]
pub(crate) struct ServeRow {
    pub(crate) workload: String,
    pub(crate) runs: u32,
    pub(crate) stability: Stats,
    /// Seconds from the start of `evaltally serve` to the first complete view.
    pub(crate) first_view: Stats,
    /// The server's peak resident memory once the first view was served, KiB.
    pub(crate) serve_peak_kib: u64,
    pub(crate) report: Stats,
}

/// The heatmap windows of the generated runs.
#[derive(Debug)]
pub(crate) struct Windows {
    /// Milliseconds of the load: the runs made, analysed, and the first view made.
    pub(crate) load_ms: u64,
    /// Milliseconds of the first window.
    pub(crate) first_ms: f64,
    /// Milliseconds of each window after it.
    pub(crate) ms: Vec<f64>,
}

impl Windows {
    /// The `percent`-th percentile of the windows' times (nearest rank).
    pub(crate) fn quantile(&self, percent: usize) -> f64 {
        let mut v = self.ms.clone();
        v.sort_by(f64::total_cmp);
        let at = (v.len().saturating_sub(1) * percent + 50) / 100;
        v.get(at).copied().unwrap_or(f64::NAN)
    }
}

/// Measures `serve` and `report` on the workloads named in [`WORKLOADS`] among `workloads`.
pub(crate) fn run(evaltally: &Path, workloads: &[Workload], bench_dir: &Path, runs: usize) -> Result<Vec<ServeRow>> {
    let mut rows = Vec::new();
    for w in workloads.iter().filter(|w| WORKLOADS.contains(&w.name.as_str())) {
        let cache = bench_dir.join("cache").join(format!("serve-{}", w.name));
        drop(std::fs::remove_dir_all(&cache));
        let with_cache = |args: Vec<std::ffi::OsString>| {
            let mut cmd = command(evaltally, args);
            cmd.env("EVALTALLY_CACHE", &cache);
            cmd
        };
        let dir = w.dir.as_os_str().to_owned();
        // The cache filled with both readings of every unit (what `serve` and `report` read).
        let html = bench_dir.join(format!("{}.report.html", w.name));
        super::run_quiet(with_cache(vec![os("report"), dir.clone(), os("-o"), html.as_os_str().to_owned()]))?;
        eprintln!("xtask: {} stability, cache warm (for serve): 1 warm-up + {runs} measured", w.name);
        let stability =
            measure(&|| vec![with_cache(vec![os("stability"), dir.clone(), os("--format"), os("json")])], runs)?;
        eprintln!("xtask: {} report, cache warm: 1 warm-up + {runs} measured", w.name);
        let report = measure(
            &|| vec![with_cache(vec![os("report"), dir.clone(), os("-o"), html.as_os_str().to_owned()])],
            runs,
        )?;
        eprintln!("xtask: {} serve, first complete view: 1 warm-up + {runs} measured", w.name);
        let mut times = Vec::new();
        let mut peak = 0;
        for i in 0..=runs {
            let (secs, kib) = first_view(evaltally, &w.dir, &cache).with_context(|| format!("{} serve", w.name))?;
            if i > 0 {
                times.push(secs);
                peak = peak.max(kib);
            }
        }
        let first_view = stats(&mut times);
        eprintln!("xtask: {} serve: median {:.3} s to the first view, {} MiB", w.name, first_view.median, peak / 1024);
        drop(std::fs::remove_dir_all(&cache));
        drop(std::fs::remove_file(&html));
        rows.push(ServeRow {
            workload: w.name.clone(),
            runs: w.runs,
            stability,
            first_view,
            serve_peak_kib: peak,
            report,
        });
    }
    Ok(rows)
}

fn stats(times: &mut [f64]) -> Stats {
    times.sort_by(f64::total_cmp);
    Stats { median: times[times.len() / 2], min: times[0], max: times[times.len() - 1], peak_rss_kib: None }
}

/// Starts `evaltally serve DIR`, and times it to its first complete view: the URL printed,
/// the first load served, then what the page asks for (the page, its script and style, the
/// summary and the first heatmap window); the server's peak memory then (its `VmHWM`).
fn first_view(evaltally: &Path, dir: &Path, cache: &Path) -> Result<(f64, u64)> {
    let start = Instant::now();
    let mut child = Command::new(evaltally)
        .args([os("serve"), dir.as_os_str().to_owned(), os("--port"), os("0")])
        .env("EVALTALLY_CACHE", cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("starting evaltally serve")?;
    let measured = (|| -> Result<(f64, u64)> {
        let mut line = String::new();
        BufReader::new(child.stdout.take().context("stdout")?).read_line(&mut line)?;
        let url = line.trim().rsplit(' ').next().unwrap_or_default().to_string();
        let addr: SocketAddr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .with_context(|| format!("no address in {line:?}"))?;
        let summary = loop {
            let body = get(addr, "/api/summary")?;
            if !body.contains("\"generation\":0,") && !body.contains("\"generation\":0}") {
                break body;
            }
            if start.elapsed() > Duration::from_mins(5) {
                bail!("no load within five minutes");
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let model = summary
            .split("\"model\":\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .context("no model in the summary")?;
        for target in ["/", "/common.js", "/app.js", "/app.css"] {
            get(addr, target)?;
        }
        get(addr, &format!("/api/heatmap?model={model}&rows={}&cols={}", WINDOW.0, WINDOW.1))?;
        let secs = start.elapsed().as_secs_f64();
        Ok((secs, peak_kib(&child)?))
    })();
    let _ = child.kill();
    let _ = child.wait();
    measured
}

/// The process's peak resident memory so far (`VmHWM`), KiB.
fn peak_kib(child: &Child) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .context("no VmHWM")
}

/// `GET target` on the server at `addr`; the body of a 200 answer.
fn get(addr: SocketAddr, target: &str) -> Result<String> {
    let mut stream = TcpStream::connect(addr)?;
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    ensure!(answer.starts_with("HTTP/1.1 200"), "{target}: {}", answer.lines().next().unwrap_or(""));
    Ok(answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

/// Generated runs: [`WINDOW_RUNS`] runs of [`WINDOW_TESTS`] tests, each test passing with
/// its own probability (seeded), each run timed.
struct Generated;

impl Source for Generated {
    fn load(&self) -> Result<Input, SourceError> {
        let mut state = 7u64;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        };
        let per_category = WINDOW_TESTS / 10;
        let rates: Vec<f64> = (0..WINDOW_TESTS).map(|_| next()).collect();
        let mut runs = Vec::with_capacity(WINDOW_RUNS * 10);
        for r in 0..WINDOW_RUNS {
            let meta = Arc::new(RunMeta {
                timestamp: Some(format!("2026-01-{:02}T{:02}:{:02}:00Z", 1 + r / 1440, (r / 60) % 24, r % 60)),
                ..RunMeta::default()
            });
            for c in 0..10 {
                let mut run = CategoryRun::new(format!("run-{r:04}"), "bench-model", format!("category-{c}"));
                run.meta = Some(Arc::clone(&meta));
                run.reserve(per_category, per_category * 12);
                for t in 0..per_category {
                    let pass = next() < rates[c * per_category + t];
                    run.push(&format!("test-{c}-{t}"), if pass { Outcome::Pass } else { Outcome::Fail }, None);
                }
                runs.push(run);
            }
        }
        Ok(Input { runs, ..Input::default() })
    }

    fn show(&self, _id: &str) -> Result<Shown, SourceError> {
        Ok(Shown::default())
    }
}

/// The heatmap windows of [`Generated`] runs: one request after the load (which analyses
/// the runs), then [`WINDOWS`] at seeded random places.
pub(crate) fn windows() -> Result<Windows> {
    let server = Server::start(&Config::default(), Arc::new(Generated)).map_err(|e| anyhow::anyhow!("{e}"))?;
    ensure!(server.wait_loaded(1, Duration::from_mins(5)), "the generated runs were not loaded");
    let load_ms = server.next_load(0, Duration::from_mins(1)).map_or(0, |l| l.ms);
    let addr = server.addr();
    let window = |row: usize, col: usize| -> Result<f64> {
        let start = Instant::now();
        let body = get(addr, &format!("/api/heatmap?row={row}&rows={}&col={col}&cols={}", WINDOW.0, WINDOW.1))?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        ensure!(body.contains("\"rows_total\":10000"), "an unexpected window: {}", &body[..body.len().min(200)]);
        Ok(ms)
    };
    let first_ms = window(0, 0)?;
    let mut seed = 11u64;
    let mut ms = Vec::with_capacity(WINDOWS);
    for _ in 0..WINDOWS {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let row = (seed >> 33) as usize % (WINDOW_TESTS - WINDOW.0);
        let col = (seed >> 17) as usize % (WINDOW_RUNS - WINDOW.1);
        ms.push(window(row, col)?);
    }
    Ok(Windows { load_ms, first_ms, ms })
}

/// The section of `docs/benchmarks.md`.
pub(crate) fn section(rows: &[ServeRow], windows: Option<&Windows>) -> String {
    let mut out = String::new();
    let mib = |kib: Option<u64>| kib.map_or("n/a".to_string(), |k| format!("{:.0}", k as f64 / 1024.0));
    out += "| workload | runs | stability, cache warm (s / MiB) | serve: first complete view (median s, min–max) | serve peak MiB | serve / stability memory | report, cache warm (s / MiB) | report / stability (time, memory) |\n";
    out += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for r in rows {
        let stab_kib = r.stability.peak_rss_kib;
        let ratio = |a: Option<u64>| match (a, stab_kib) {
            (Some(a), Some(b)) if b > 0 => format!("{:.2}×", a as f64 / b as f64),
            _ => "n/a".to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} / {} | {:.3} ({:.3}–{:.3}) | {:.0} | {} | {:.3} / {} | {:.1}×, {} |",
            r.workload,
            r.runs,
            r.stability.median,
            mib(stab_kib),
            r.first_view.median,
            r.first_view.min,
            r.first_view.max,
            r.serve_peak_kib as f64 / 1024.0,
            ratio(Some(r.serve_peak_kib)),
            r.report.median,
            mib(r.report.peak_rss_kib),
            r.report.median / r.stability.median,
            ratio(r.report.peak_rss_kib),
        );
    }
    out += "\nTargets:\n\n| target | value | status |\n|---|---:|---|\n";
    let met = |ok: bool| if ok { "met" } else { "not met" };
    for r in rows {
        let _ = writeln!(
            out,
            "| {}: first complete view under 1 s (warm cache) | {:.3} s | {} |",
            r.workload,
            r.first_view.median,
            met(r.first_view.median < 1.0)
        );
        if let Some(stab) = r.stability.peak_rss_kib {
            let ratio = r.serve_peak_kib as f64 / stab as f64;
            let _ = writeln!(
                out,
                "| {}: serve memory at most 2× stability's | {ratio:.2}× | {} |",
                r.workload,
                met(ratio <= 2.0)
            );
        }
        if r.workload == "gstack4000" {
            let time = r.report.median / r.stability.median;
            let _ = writeln!(
                out,
                "| {}: report time at most 2× stability's | {time:.1}× | {} |",
                r.workload,
                met(time <= 2.0)
            );
            if let (Some(rep), Some(stab)) = (r.report.peak_rss_kib, r.stability.peak_rss_kib) {
                let ratio = rep as f64 / stab as f64;
                let _ = writeln!(
                    out,
                    "| {}: report memory at most 2× stability's | {ratio:.2}× | {} |",
                    r.workload,
                    met(ratio <= 2.0)
                );
            }
        }
    }
    if let Some(w) = windows {
        let median = w.quantile(50);
        let _ = writeln!(
            out,
            "| one heatmap window of {WINDOW_TESTS} × {WINDOW_RUNS} under 50 ms | {median:.2} ms | {} |",
            met(median < 50.0)
        );
    }
    if let Some(w) = windows {
        let _ = write!(
            out,
            "\nOne heatmap window ({} tests × {} runs, as the page asks for first) of {WINDOW_TESTS} tests × {WINDOW_RUNS} runs, \
             from a server in the bench's own process over generated runs: the load took {} ms (the runs made and \
             analysed, and the view a page opens on made); the first window after it {:.1} ms; then {WINDOWS} at \
             seeded random places: median {:.2} ms, 95th percentile {:.2} ms, max {:.2} ms (request sent to answer \
             read, over loopback).\n",
            WINDOW.0,
            WINDOW.1,
            w.load_ms,
            w.first_ms,
            w.quantile(50),
            w.quantile(95),
            w.ms.iter().copied().fold(0.0, f64::max),
        );
    }
    out
}
