//! The benchmark report: the machine description, the results and ratio
//! tables (Markdown, aligned so they read well in a terminal too) and the
//! whole of `docs/benchmarks.md`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use super::{Measured, Options, SHOW_TEST_ID, Stats, Workload, label};
use crate::workspace_root;

/// What the numbers were measured on.
#[derive(Debug)]
pub(crate) struct Machine {
    lines: Vec<(&'static str, String)>,
}

impl Machine {
    /// Reads the machine description; anything unreadable shows as `unknown`.
    pub(crate) fn collect(python: &Path, workloads: &[Workload]) -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("model name")?.split_once(':').map(|(_, v)| v.trim().to_owned()))
        });
        let memory = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
            let kib: u64 = info
                .lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))?
                .trim()
                .strip_suffix("kB")?
                .trim()
                .parse()
                .ok()?;
            Some(format!("{:.1} GiB ({kib} kB)", kib as f64 / (1024.0 * 1024.0)))
        });
        let cores = std::thread::available_parallelism().ok().map(|n| n.to_string());
        let mut rustc = Command::new("rustc");
        rustc.arg("--version").current_dir(workspace_root());
        let sizes = workloads
            .iter()
            .map(|w| format!("{}: {} files, {:.1} MB ({} bytes)", w.name, w.files.len(), w.bytes as f64 / 1e6, w.bytes))
            .collect::<Vec<_>>()
            .join("; ");
        let known = |value: Option<String>| value.unwrap_or_else(|| "unknown".to_owned());
        Self {
            lines: vec![
                ("CPU", known(cpu)),
                ("cores", known(cores)),
                ("memory", known(memory)),
                ("kernel", known(output(Command::new("uname").arg("-r")))),
                ("rustc", known(output(&mut rustc))),
                ("Python", known(output(Command::new(python).arg("--version")))),
                ("date", known(output(Command::new("date").args(["-u", "+%Y-%m-%d"])))),
                ("workloads", sizes),
            ],
        }
    }
}

/// The trimmed stdout (or stderr, where old Pythons print their version) of a
/// successful `cmd`.
fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok().filter(|out| out.status.success())?;
    let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
    Some(String::from_utf8_lossy(&text).trim().to_owned()).filter(|text| !text.is_empty())
}

/// One row per measured command.
pub(crate) fn results_table(rows: &[Measured]) -> String {
    let header = ["workload", "command", "median s", "min s", "max s", "MB/s", "peak RSS MiB"];
    let body = rows
        .iter()
        .map(|row| {
            let s = &row.stats;
            let throughput =
                row.bytes_read.map_or_else(|| "-".to_owned(), |bytes| fixed(bytes as f64 / 1e6 / s.median));
            vec![
                row.workload.clone(),
                row.label.to_owned(),
                format!("{:.3}", s.median),
                format!("{:.3}", s.min),
                format!("{:.3}", s.max),
                throughput,
                rss_mib(s).map_or_else(|| "n/a".to_owned(), |mib| format!("{mib:.1}")),
            ]
        })
        .collect::<Vec<_>>();
    markdown_table(&header, &[false, false, true, true, true, true, true], &body)
}

/// A bound a ratio or time must keep.
#[derive(Debug, Clone, Copy)]
enum Target {
    AtLeast(f64),
    AtMost(f64),
    Below(f64),
}

impl Target {
    fn met(self, value: f64) -> bool {
        match self {
            Self::AtLeast(bound) => value >= bound,
            Self::AtMost(bound) => value <= bound,
            Self::Below(bound) => value < bound,
        }
    }
}

/// A checked target: what, the value (`None` when not measurable), how to
/// show the value and the target.
struct Check {
    what: String,
    value: Option<f64>,
    unit: &'static str,
    target: Target,
    target_text: &'static str,
}

/// The ratios and absolute numbers evaltally aims for, each marked met or not.
pub(crate) fn ratios_table(rows: &[Measured]) -> String {
    let stats =
        |workload: &str, label: &str| rows.iter().find(|r| r.workload == workload && r.label == label).map(|r| r.stats);
    let median = |workload: &str, label: &str| stats(workload, label).map(|s| s.median);
    let mut workloads: Vec<&str> = rows.iter().map(|r| r.workload.as_str()).collect();
    workloads.dedup();

    let mut checks = Vec::new();
    for &w in &workloads {
        let stability = median(w, label::STABILITY);
        checks.push(Check {
            what: format!("{w}: speed-up, {} / {} median", label::REF, label::STABILITY),
            value: median(w, label::REF).zip(stability).map(|(r, s)| r / s),
            unit: "×",
            target: Target::AtLeast(40.0),
            target_text: "≥ 40×",
        });
        checks.push(Check {
            what: format!("{w}: {} / {} median", label::STABILITY, label::CAT),
            value: stability.zip(median(w, label::CAT)).map(|(s, c)| s / c),
            unit: "",
            target: Target::AtMost(1.5),
            target_text: "≤ 1.5",
        });
    }
    if let (Some(w40), Some(w80)) = (median("w40", label::STABILITY), median("w80", label::STABILITY)) {
        checks.push(Check {
            what: format!("scaling, w80 / w40 {} median", label::STABILITY),
            value: Some(w80 / w40),
            unit: "",
            target: Target::AtMost(2.1),
            target_text: "≤ 2.1",
        });
    }
    for command in [label::COMPARE, label::SHOW] {
        checks.push(Check {
            what: format!("w40: {command} median"),
            value: median("w40", command),
            unit: " s",
            target: Target::Below(0.1),
            target_text: "< 0.1 s",
        });
    }
    for &w in &workloads {
        checks.push(Check {
            what: format!("{w}: {} peak RSS", label::STABILITY),
            value: stats(w, label::STABILITY).as_ref().and_then(rss_mib),
            unit: " MiB",
            target: Target::AtMost(64.0),
            target_text: "≤ 64 MiB",
        });
    }

    let body = checks
        .iter()
        .map(|c| {
            let (value, status) = match c.value {
                Some(v) => (
                    format!("{}{}", if c.unit == " s" { format!("{v:.3}") } else { fixed(v) }, c.unit),
                    if c.target.met(v) { "met" } else { "not met" },
                ),
                None => ("n/a".to_owned(), "n/a"),
            };
            vec![c.what.clone(), value, c.target_text.to_owned(), status.to_owned()]
        })
        .collect::<Vec<_>>();
    markdown_table(&["ratio / target", "value", "target", "status"], &[false, true, false, false], &body)
}

/// The whole of `docs/benchmarks.md`.
pub(crate) fn document(machine: &Machine, options: Options, python_runs: usize, results: &str, ratios: &str) -> String {
    let mut doc = String::from("# Benchmarks\n\n");
    let _ = write!(
        doc,
        "This file is produced by `cargo xtask bench` (do not hand-edit it; rerun the command instead). \
         It measures the wall time and peak memory of `evaltally stability`, `compare` and `show` on synthetic \
         BFCL v4 workloads made by `../shared/bench/gen_bfcl_runs.py` (40 and 80 runs of one model, seed 7), \
         next to two baselines reading the same files: the plain-Python reference `../shared/bench/ref_stability.py`, \
         which parses every line with `json.loads`, and `cat` of every file, the cost of just reading the bytes. \
         Each command runs once to warm up (so the files are in the page cache), then {} times measured ({} for the \
         Python baseline), with stdout sent to `/dev/null`. The tables give the median, min and max wall time from \
         spawn to exit{}, throughput as workload bytes / median wall time (MB = 10^6 bytes) \
         and the largest peak RSS over the measured runs (GNU time `%M`, MiB = 2^20 bytes).{}\n\n",
        options.runs,
        python_runs,
        if super::measure::gnu_time_available() { " (under `/usr/bin/time`)" } else { "" },
        if options.quick { " This run used `--quick`: only the 40-run workload, no scaling ratio." } else { "" },
    );
    doc += "Machine:\n\n";
    for (name, value) in &machine.lines {
        let _ = writeln!(doc, "- {name}: {value}");
    }
    doc += "\nCommands (`W` is the workload folder):\n\n";
    doc += "- evaltally stability: `evaltally stability W --format json`\n";
    doc += "- ref_stability.py: `python3 ../shared/bench/ref_stability.py W`\n";
    doc += "- cat (all files): `cat` with every regular file below `W`, sorted, as arguments\n";
    doc += "- evaltally compare (w40 only): `evaltally compare W/run-000 W/run-001 --format json`\n";
    let _ = writeln!(doc, "- evaltally show (w40 only): `evaltally show W {SHOW_TEST_ID}`");
    let _ = write!(doc, "\n## Results\n\n{results}\n## Ratios and targets\n\n{ratios}");
    doc
}

fn rss_mib(stats: &Stats) -> Option<f64> {
    stats.peak_rss_kib.map(|kib| kib as f64 / 1024.0)
}

/// A number with fewer decimals the larger it is.
fn fixed(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// A Markdown table with padded columns; `right[i]` right-aligns column `i`.
fn markdown_table(header: &[&str], right: &[bool], rows: &[Vec<String>]) -> String {
    let width = |i: usize| {
        rows.iter().map(|row| row[i].chars().count()).chain([header[i].chars().count(), 3]).max().unwrap_or(3)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let line = |cells: &mut dyn Iterator<Item = String>| {
        let cells: Vec<String> = cells.collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let pad = |i: usize, text: &str| {
        let fill = " ".repeat(widths[i] - text.chars().count());
        if right[i] { format!("{fill}{text}") } else { format!("{text}{fill}") }
    };
    let mut table = line(&mut header.iter().enumerate().map(|(i, h)| pad(i, h)));
    table += &line(
        &mut widths.iter().zip(right).map(|(&w, &r)| if r { format!("{}:", "-".repeat(w - 1)) } else { "-".repeat(w) }),
    );
    for row in rows {
        table += &line(&mut row.iter().enumerate().map(|(i, cell)| pad(i, cell)));
    }
    table
}
