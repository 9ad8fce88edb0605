//! The benchmark report: the machine description, the workload, ground-truth,
//! results and ratio tables (Markdown, aligned so they read well in a terminal
//! too) and the whole of `docs/benchmarks.md`.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use super::{Format, Measured, Options, SHOW_TEST_ID, Stats, TruthCheck, Workload, label};
use crate::workspace_root;

/// What the numbers were measured on.
#[derive(Debug)]
pub(crate) struct Machine {
    lines: Vec<(&'static str, String)>,
}

impl Machine {
    /// Reads the machine description; anything unreadable shows as `unknown`.
    pub(crate) fn collect(python: &Path) -> Self {
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

/// Every table of the report.
#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) workloads: String,
    pub(crate) truth: String,
    /// One results table per benched format, in report order.
    pub(crate) results: Vec<(Format, String)>,
    pub(crate) ratios: String,
    /// `evaltally serve` and `report` (the section of [`super::serve`]).
    pub(crate) serve: String,
    /// The PostgreSQL store (the section of [`super::postgres`]).
    pub(crate) store: String,
    /// The subset fit (the section of [`super::subset`]).
    pub(crate) subset: String,
}

impl Tables {
    /// The tables as printed at the end of a run.
    pub(crate) fn terminal(&self) -> String {
        let mut out = format!("{}\n{}\n", self.workloads, self.truth);
        for (format, table) in &self.results {
            let _ = write!(out, "{}\n{table}\n", format.title());
        }
        out + &self.ratios + "\n" + &self.serve + "\n" + &self.store + "\n" + &self.subset
    }
}

/// One row per workload: its format, size and generator command.
pub(crate) fn workloads_table(workloads: &[Workload]) -> String {
    let header = ["workload", "format", "runs", "files", "MB", "generator (seed 7)"];
    let body = workloads
        .iter()
        .map(|w| {
            vec![
                w.name.clone(),
                w.format.name().to_owned(),
                w.runs.to_string(),
                w.files.len().to_string(),
                format!("{:.1}", w.bytes as f64 / 1e6),
                format!("`{}`", w.command),
            ]
        })
        .collect::<Vec<_>>();
    markdown_table(&header, &[false, false, true, true, true, false], &body)
}

/// One row per workload: what the ground-truth check said.
pub(crate) fn truth_table(truths: &[TruthCheck]) -> String {
    let body = truths
        .iter()
        .map(|t| vec![t.workload.clone(), if t.matched { "matched" } else { "MISMATCH" }.to_owned(), t.message.clone()])
        .collect::<Vec<_>>();
    markdown_table(&["workload", "counts", "check_expected.py"], &[false, false, false], &body)
}

/// One row per command measured on a workload of `format`.
pub(crate) fn results_table(rows: &[Measured], format: Format) -> String {
    let header = ["workload", "command", "median s", "min s", "max s", "MB/s", "peak RSS MiB"];
    let body = rows
        .iter()
        .filter(|row| row.format == format)
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
/// show the value and the target (`None`: reported only).
struct Check {
    what: String,
    value: Option<f64>,
    unit: &'static str,
    target: Option<(Target, &'static str)>,
}

/// The ratios and absolute numbers evaltally aims for, each marked met or not,
/// format by format.
pub(crate) fn ratios_table(rows: &[Measured]) -> String {
    let stats =
        |workload: &str, label: &str| rows.iter().find(|r| r.workload == workload && r.label == label).map(|r| r.stats);
    let median = |workload: &str, label: &str| stats(workload, label).map(|s| s.median);
    // The ratio to `cat`: of runs paired with one of `cat` each, else of the two medians.
    let to_cat = |workload: &str, label: &str| {
        let paired = rows.iter().find(|r| r.workload == workload && r.label == label).and_then(|r| r.to_cat);
        paired.or_else(|| median(workload, label).zip(median(workload, label::CAT)).map(|(s, c)| s / c))
    };

    let mut checks = Vec::new();
    for format in Format::ALL {
        let mut workloads: Vec<&str> =
            rows.iter().filter(|r| r.format == format).map(|r| r.workload.as_str()).collect();
        workloads.dedup();
        for &w in &workloads {
            let stability = median(w, label::STABILITY);
            let reference = format.reference();
            checks.push(Check {
                what: format!("{w}: speed-up, {reference} / {} median", label::STABILITY),
                value: median(w, reference).zip(stability).map(|(r, s)| r / s),
                unit: "×",
                // The 40× goal was set on BFCL, whose lines Python parses one by one.
                target: (format == Format::Bfcl).then_some((Target::AtLeast(40.0), "≥ 40×")),
            });
            checks.push(Check {
                what: format!("{w}: {} / {}", label::STABILITY, label::CAT),
                value: to_cat(w, label::STABILITY),
                unit: "",
                target: Some((Target::AtMost(1.5), "≤ 1.5")),
            });
            checks.push(Check {
                what: format!("{w}: {} peak RSS", label::STABILITY),
                value: stats(w, label::STABILITY).as_ref().and_then(rss_mib),
                unit: " MiB",
                target: Some((Target::AtMost(64.0), "≤ 64 MiB")),
            });
            let cached = stats(w, label::CACHE_COLD).is_some() || stats(w, label::CACHE_WARM).is_some();
            if cached {
                for (cache, target) in [
                    (label::CACHE_COLD, (Target::AtMost(1.0), "≤ 1.0")),
                    (label::CACHE_WARM, (Target::AtMost(0.1), "≤ 0.1")),
                ] {
                    checks.push(Check {
                        what: format!("{w}: {cache} / {}", label::CAT),
                        value: to_cat(w, cache),
                        unit: "",
                        target: Some(target),
                    });
                }
                // The floor under the warm ratio: a warm run looks at every file again, as
                // `stat` of them all does, and can cost no less.
                checks.push(Check {
                    what: format!("{w}: {} / {} (floor of the warm ratio)", label::STAT, label::CAT),
                    value: to_cat(w, label::STAT),
                    unit: "",
                    target: None,
                });
                checks.push(Check {
                    what: format!("{w}: {} / {} median", label::CACHE_WARM, label::STAT),
                    value: median(w, label::CACHE_WARM).zip(median(w, label::STAT)).map(|(warm, stat)| warm / stat),
                    unit: "×",
                    target: None,
                });
                for cache in [label::CACHE_COLD, label::CACHE_WARM] {
                    checks.push(Check {
                        what: format!("{w}: {cache} peak RSS"),
                        value: stats(w, cache).as_ref().and_then(rss_mib),
                        unit: " MiB",
                        target: Some((Target::AtMost(128.0), "≤ 128 MiB")),
                    });
                }
            }
        }
        // The format's first two workloads, the second with twice the runs of the first.
        let specs = super::workload::specs(format);
        if let [small, big, ..] = &specs[..]
            && let (small, big) = (small.name.as_str(), big.name.as_str())
            && workloads.contains(&small)
            && workloads.contains(&big)
            && let (Some(a), Some(b)) = (median(small, label::STABILITY), median(big, label::STABILITY))
        {
            checks.push(Check {
                what: format!("scaling, {big} / {small} {} median (twice the runs)", label::STABILITY),
                value: Some(b / a),
                unit: "",
                target: Some((Target::AtMost(2.1), "≤ 2.1")),
            });
        }
        if format == Format::Bfcl && workloads.contains(&"w40") {
            // What the new run costs beyond the cached ones, in reads of one run.
            let added = median("w40", label::NEW_RUN).zip(median("w40", label::CACHE_WARM)).map(|(n, w)| n - w);
            checks.push(Check {
                what: format!("w40: ({} − {}) / {} median", label::NEW_RUN, label::CACHE_WARM, label::ONE_RUN),
                value: added.zip(median("w40", label::ONE_RUN)).map(|(a, one)| a / one),
                unit: "",
                target: Some((Target::AtMost(1.5), "≤ 1.5 (about one run's read)")),
            });
            for warm in [label::FULL_WARM, label::VALIDATE_WARM] {
                checks.push(Check {
                    what: format!("w40: {warm} / {}", label::CAT),
                    value: to_cat("w40", warm),
                    unit: "",
                    target: Some((Target::AtMost(0.1), "≤ 0.1")),
                });
            }
            for command in [label::COMPARE, label::SHOW] {
                checks.push(Check {
                    what: format!("w40: {command} median"),
                    value: median("w40", command),
                    unit: " s",
                    target: Some((Target::Below(0.1), "< 0.1 s")),
                });
            }
        }
    }

    let body = checks
        .iter()
        .map(|c| {
            let value = c.value.map_or_else(
                || "n/a".to_owned(),
                |v| format!("{}{}", if c.unit == " s" { format!("{v:.3}") } else { fixed(v) }, c.unit),
            );
            let status = match (c.value, c.target) {
                (None, _) => "n/a",
                (Some(_), None) => "-",
                (Some(v), Some((target, _))) => {
                    if target.met(v) {
                        "met"
                    } else {
                        "not met"
                    }
                }
            };
            let target = c.target.map_or("-", |(_, text)| text);
            vec![c.what.clone(), value, target.to_owned(), status.to_owned()]
        })
        .collect::<Vec<_>>();
    markdown_table(&["ratio / target", "value", "target", "status"], &[false, true, false, false], &body)
}

/// The whole of `docs/benchmarks.md`.
pub(crate) fn document(machine: &Machine, options: &Options, python_runs: usize, tables: &Tables) -> String {
    let mut doc = String::from("# Benchmarks\n\n");
    let only = if options.all_formats() {
        String::new()
    } else {
        let names: Vec<&str> = options.formats.iter().map(|f| f.name()).collect();
        format!(" This run used `--format`: only {}.", names.join(", "))
    };
    let _ = write!(
        doc,
        "This file is produced by `cargo xtask bench` (do not hand-edit it; rerun the command instead). \
         It measures the wall time and peak memory of `evaltally stability` on synthetic workloads of every \
         format evaltally reads, two per format, the second with twice the runs of the first, for BFCL a third \
         of 200 runs for peak memory, without the Python baseline, and for Terminal-Bench a third, `harbor10`, of \
         Harbor's jobs, a file per trial (BFCL v4 made by \
         `../shared/bench/gen_bfcl_runs.py`, the others by `xtask/bench/gen_<format>.py`, all with seed 7), and of \
         `compare`, `show` and `validate` on the 40-run BFCL workload. Next to it run two baselines reading the same files: \
         a plain-Python reference per format (`../shared/bench/ref_stability.py` for BFCL, which parses every line \
         with `json.loads`; `xtask/bench/ref_<format>.py` for the others, which read every file with `json.load`, \
         or `xml.etree.ElementTree` for JUnit), and `cat` of every file, the cost of just reading the bytes. \
         Before anything is timed, the counts of `evaltally stability --format json` on every workload are \
         checked against its generator's ground truth (`--expected`). \
         Each command runs once to warm up (so the files are in the page cache), then {} times measured ({} for the \
         Python baseline), with stdout sent to `/dev/null`. The tables give the median, min and max wall time from \
         spawn to exit{}, throughput as workload bytes / median wall time (MB = 10^6 bytes) \
         and the largest peak RSS over the measured runs (GNU time `%M`, MiB = 2^20 bytes). \
         Each measured run of `evaltally stability` (uncached, cache cold, cache warm, warm among copies), of \
         `validate, cache warm` and of `stat (all files)` follows a run of `cat` of the same files, and its ratio to `cat` is the median of its runs' ratios to the `cat` just before them: \
         on a machine whose speed drifts from one minute to the next, a ratio of two medians measured apart \
         moves with the drift.{}{}\n\n",
        options.runs,
        python_runs,
        if super::measure::gnu_time_available() { " (under `/usr/bin/time`)" } else { "" },
        if options.quick {
            " This run used `--quick`: only the smaller workload of each format (and `harbor10`), no scaling ratios."
        } else {
            ""
        },
        only,
    );
    doc += "Machine:\n\n";
    for (name, value) in &machine.lines {
        let _ = writeln!(doc, "- {name}: {value}");
    }
    doc += "\nCommands (`W` is the workload folder):\n\n";
    doc += "- evaltally stability: `evaltally --no-cache stability W --format json` (reading every file)\n";
    doc += "- stability, cache cold: `EVALTALLY_CACHE=C evaltally stability W --format json`, each measured run with a new, empty folder C (it reads every file and stores what it read)\n";
    doc += "- stability, cache warm: the same with one folder C, filled by the warm-up run (no file changed since)\n";
    doc += "- stability, 39 cached + 1 new run (w40 only): the same, each measured run with a new C that an untimed run filled while `run-039` was hidden (renamed `.run-039`)\n";
    doc += "- stability, cache warm among 24 copies (w40 only): the warm run, in a folder C that also holds the readings and folder listings of 24 copies of W (hard links, each analysed once with C beforehand): a user's cache holds much more than one analysis reads\n";
    doc += "- stability, 1 run (no cache) (w40 only): `evaltally --no-cache stability W/run-000 --format json`, what reading one run costs\n";
    doc += "- evaltally validate (w40 only): `evaltally --no-cache validate W` (checking every file)\n";
    doc += "- validate, cache warm (w40 only): `EVALTALLY_CACHE=C evaltally validate W`, with one folder C filled by the warm-up run\n";
    doc += "- ref_stability.py (BFCL): `python3 ../shared/bench/ref_stability.py W`\n";
    let others: Vec<&str> = Format::ALL.iter().filter(|&&f| f != Format::Bfcl).map(|f| f.reference()).collect();
    let _ = writeln!(doc, "- {}: `python3 xtask/bench/ref_<format>.py W`", others.join(", "));
    doc += "- cat (all files): `cat` with every regular file below `W`, sorted, as arguments (several `cat` \
            processes one after the other when the list passes about 1 MB)\n";
    doc += "- stat (all files): `stat --format=%s` with the same arguments, split the same way: it looks at \
            every file's metadata and reads none, which a warm run must do too (the cache trusts no stored \
            reading of a file it has not looked at again), so its ratio to `cat` is the floor under the warm \
            ratio\n";
    doc += "- evaltally compare (w40 only): `evaltally --no-cache compare W/run-000 W/run-001 --format json`\n";
    let _ = writeln!(doc, "- evaltally show (w40 only): `evaltally --no-cache show W {SHOW_TEST_ID}`");
    let _ = write!(doc, "\n## Workloads\n\n{}", tables.workloads);
    let _ = write!(
        doc,
        "\n## Ground truth\n\n`xtask/bench/check_expected.py` compares, per model and category, the tests, \
         stable passes, flaky tests and stable fails, the runs, and the passes and tests per run.\n\n{}",
        tables.truth
    );
    doc += "\n## Results\n";
    for (format, table) in &tables.results {
        let _ = write!(doc, "\n### {}\n\n{table}", format.title());
    }
    let _ = write!(doc, "\n## Ratios and targets\n\n{}", tables.ratios);
    let _ = write!(
        doc,
        "\n## evaltally serve and report\n\nOn `w40`, `gstack2000` and `gstack4000`, each with its own cache folder, \
         filled first by one `report` (so it holds both readings of every unit, which `serve` and `report` read): \
         `stability` and `report -o F` (cache warm) measured as above, and `evaltally serve W --port 0` started \
         once to warm up, then {} times measured from its start to its first complete view: the URL printed, \
         `/api/summary` polled until the first load is served, then what the page asks for (`/`, `/common.js`, \
         `/app.js`, `/app.css`, the first heatmap window of 100 tests × 200 runs); the server's peak memory is its `VmHWM` \
         then. Memory ratios are against `stability`'s peak RSS in the same cache folder.\n\n{}",
        options.runs, tables.serve
    );
    let _ = write!(doc, "\n## The PostgreSQL store\n\n{}", tables.store);
    let _ = write!(doc, "\n## The subset fit\n\n{}", tables.subset);
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
