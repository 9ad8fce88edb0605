use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::measure::{Stats, measure, measure_against};
use super::{Format, Measured, Options, all_files, cat_commands, command, label, report, workload};
use crate::workspace_root;

#[test]
fn options_parse() {
    let default = Options::parse(&[]).unwrap();
    assert_eq!((default.runs, default.quick), (5, false));
    assert_eq!(default.formats, Format::ALL);
    let set = Options::parse(&["--quick", "--runs", "2"]).unwrap();
    assert_eq!((set.runs, set.quick), (2, true));
    assert_eq!(Options::parse(&["--runs=7"]).unwrap().runs, 7);
    let some = Options::parse(&["--format", "sfbench", "--format=junit,gstack", "--format", "junit"]).unwrap();
    assert_eq!(some.formats, [Format::Gstack, Format::Junit, Format::Sfbench]);
    assert!(!some.all_formats());
    assert_eq!(default.profile, "dist");
    assert!(default.shipped());
    let release = Options::parse(&["--profile", "release"]).unwrap();
    assert_eq!(release.profile, "release");
    assert!(!release.shipped());
    assert_eq!(Options::parse(&["--profile=dist"]).unwrap().profile, "dist");
    for bad in [
        &["--profile", "dev"][..],
        &["--profile"],
        &["--runs"],
        &["--runs", "0"],
        &["--runs", "x"],
        &["--fast"],
        &["--format"],
        &["--format", "xml"],
        &["--format=bfcl,"],
        &["--quick=1"],
    ] {
        assert!(Options::parse(bad).is_none(), "{bad:?}");
    }
}

#[test]
fn two_workloads_per_format_the_second_with_twice_the_runs_and_w200() {
    let names: Vec<String> = Format::ALL.iter().flat_map(|&f| workload::specs(f)).map(|s| s.name).collect::<Vec<_>>();
    assert_eq!(
        names,
        [
            "w40",
            "w80",
            "w200",
            "gstack2000",
            "gstack4000",
            "junit1000",
            "junit2000",
            "swebench20x500",
            "swebench40x500",
            "sfbench200",
            "sfbench400",
            "inspect100",
            "inspect200",
            "lmeval50",
            "lmeval100",
            "lighteval50",
            "lighteval100",
            "promptfoo40",
            "promptfoo80",
            "helm10",
            "helm20",
            "openaievals24",
            "openaievals48",
            "taubench8",
            "taubench16",
            "terminalbench10",
            "terminalbench20",
            "harbor10",
            "evalplus25",
            "evalplus50"
        ]
    );
    for format in Format::ALL {
        let specs = workload::specs(format);
        let [small, big, ..] = &specs[..] else { panic!("{format:?}: fewer than two workloads") };
        assert_eq!((big.runs, big.size_args), (2 * small.runs, small.size_args));
        let scripts = workspace_root().join(format.scripts_dir());
        if format != Format::Bfcl {
            for script in [format.generator(), format.reference()] {
                assert!(scripts.join(script).is_file(), "{script}");
            }
        }
    }
}

#[test]
fn cat_splits_long_argument_lists_in_order() {
    let files: Vec<PathBuf> =
        (0..30_000).map(|i| PathBuf::from(format!("/some/long/folder/name/file-{i:08}.json"))).collect();
    let commands = cat_commands(&files);
    assert!(commands.len() > 1);
    let args: Vec<PathBuf> = commands.iter().flat_map(Command::get_args).map(PathBuf::from).collect();
    assert_eq!(args, files);
    assert_eq!(cat_commands(&files[..3]).len(), 1);
    // Options come first in every process of a split list.
    let stats = all_files(Path::new("stat"), &["--format=%s"], &files);
    assert_eq!(stats.len(), commands.len());
    for cmd in &stats {
        assert_eq!(cmd.get_program(), "stat");
        assert_eq!(cmd.get_args().next().unwrap(), "--format=%s");
    }
    let args: Vec<PathBuf> = stats.iter().flat_map(|c| c.get_args().skip(1)).map(PathBuf::from).collect();
    assert_eq!(args, files);
}

#[test]
fn measure_times_and_fails_with_stderr() {
    let stats = measure(&|| vec![Command::new("true"), Command::new("true")], 3).unwrap();
    assert!(stats.min <= stats.median && stats.median <= stats.max);
    let err = measure(&|| vec![command(Path::new("sh"), ["-c", "echo boom >&2; exit 3"])], 1)
        .map(|_| ())
        .map_err(|err| format!("{err:#}"))
        .unwrap_err();
    assert!(err.contains("boom") && err.contains("exit status: 3"), "{err}");
}

#[test]
fn measuring_against_a_baseline_runs_it_before_each_run_and_gives_the_median_ratio() {
    let log = temp_dir("paired").join("log");
    let append = |word: &str| vec![command(Path::new("sh"), ["-c", &format!("echo {word} >> {}", log.display())])];
    let (stats, ratio) = measure_against(&|| append("run"), &|| append("base"), 3).unwrap();
    assert_eq!(fs::read_to_string(&log).unwrap(), "base\nrun\n".repeat(4), "warm-up, then three pairs");
    assert!(stats.min <= stats.median && stats.median <= stats.max);
    assert!(ratio.is_finite() && ratio > 0.0, "{ratio}");
    fs::remove_dir_all(log.parent().unwrap()).unwrap();
}

#[test]
fn ratios_to_cat_are_the_paired_ones_when_measured_so() {
    let rows = [
        // Medians measured apart say 0.9 and 0.09; the runs paired with cat say otherwise.
        paired("gstack2000", label::STABILITY, 0.9, 1.2),
        paired("gstack2000", label::CACHE_COLD, 0.9, 0.95),
        paired("gstack2000", label::CACHE_WARM, 0.09, 0.12),
        row("gstack2000", label::CAT, 1.0),
        paired("gstack2000", label::STAT, 0.03, 0.04),
    ];
    let table = report::ratios_table(&rows);
    let line = |what: &str| table_line(&table, what);
    // The floor under the warm ratio is reported, not held to a target.
    let floor = line("gstack2000: stat (all files) / cat (all files) (floor of the warm ratio)");
    assert!(floor.contains("0.04") && floor.ends_with("| -"), "{table}");
    assert!(line("gstack2000: stability, cache warm / stat (all files) median").contains("3.00×"), "{table}");
    assert!(line("gstack2000: evaltally stability / cat").contains("1.20"), "{table}");
    let cold = line("gstack2000: stability, cache cold / cat");
    assert!(cold.contains("0.95") && cold.ends_with("| met"), "{table}");
    let warm = line("gstack2000: stability, cache warm / cat");
    assert!(warm.contains("0.12") && warm.ends_with("not met"), "{table}");
}

fn row(workload: &str, label: &'static str, median: f64) -> Measured {
    let format = Format::ALL.into_iter().rev().find(|f| workload.starts_with(f.name())).unwrap_or(Format::Bfcl);
    let stats = Stats { median, min: median, max: median, peak_rss_kib: Some(20 * 1024) };
    Measured { workload: workload.to_owned(), format, label, bytes_read: Some(1_000_000), stats, to_cat: None }
}

/// A row measured in runs paired with `cat`, whose ratio to it was `to_cat`.
fn paired(workload: &str, label: &'static str, median: f64, to_cat: f64) -> Measured {
    Measured { to_cat: Some(to_cat), ..row(workload, label, median) }
}

#[test]
fn ratios_mark_targets() {
    let rows = [
        row("w40", label::STABILITY, 0.1),
        row("w40", Format::Bfcl.reference(), 5.0),
        row("w40", label::CAT, 0.05),
        row("w40", label::COMPARE, 0.01),
        row("w40", label::SHOW, 0.2),
    ];
    let table = report::ratios_table(&rows);
    let status = |what: &str| table.lines().find(|l| l.contains(what)).unwrap().trim_end_matches([' ', '|']).to_owned();
    assert!(status("speed-up").ends_with("| met"), "{table}");
    assert!(status("/ cat").ends_with("not met"), "{table}");
    assert!(status("compare").ends_with("| met"), "{table}");
    assert!(status("show").ends_with("not met"), "{table}");
    assert!(status("peak RSS").ends_with("| met"), "{table}");
    assert!(!table.contains("scaling"));
    let results = report::results_table(&rows, Format::Bfcl);
    assert!(results.contains("|    0.100 |") && results.contains("| 10.0 |"), "{results}");
    assert_eq!(report::results_table(&rows, Format::Gstack).lines().count(), 2, "header only");
}

#[test]
fn ratios_scale_each_format_and_report_other_speed_ups_without_target() {
    let rows = [
        row("gstack2000", label::STABILITY, 1.0),
        row("gstack2000", Format::Gstack.reference(), 3.0),
        row("gstack2000", label::CAT, 0.8),
        row("gstack4000", label::STABILITY, 2.3),
        row("gstack4000", Format::Gstack.reference(), 6.0),
        row("gstack4000", label::CAT, 1.0),
        row("junit1000", label::STABILITY, 0.5),
    ];
    let table = report::ratios_table(&rows);
    let line = |what: &str| table_line(&table, what);
    assert!(line("gstack2000: speed-up").ends_with("3.00× | -        | -"), "{table}");
    assert!(line("gstack2000: evaltally stability / cat").ends_with("| met"), "{table}");
    assert!(line("gstack4000: evaltally stability / cat").ends_with("not met"), "{table}");
    let scaling = line("scaling, gstack4000 / gstack2000");
    assert!(scaling.contains("2.30") && scaling.ends_with("not met"), "{table}");
    assert!(line("junit1000: speed-up").ends_with("n/a"), "{table}");
    assert!(!table.contains("scaling, junit") && !table.contains("compare"), "{table}");
    assert!(!table.contains("cache"), "no cache rows measured, no cache checks: {table}");
}

#[test]
fn cache_ratios_compare_cold_and_warm_with_cat_and_a_new_run_with_one_run() {
    let rows = [
        row("w40", label::STABILITY, 0.40),
        row("w40", label::CAT, 0.30),
        row("w40", label::CACHE_COLD, 0.45),
        row("w40", label::CACHE_WARM, 0.03),
        row("w40", label::NEW_RUN, 0.05),
        row("w40", label::ONE_RUN, 0.02),
        row("w40", label::FULL_WARM, 0.036),
        row("w40", label::VALIDATE, 2.0),
        row("w40", label::VALIDATE_WARM, 0.015),
    ];
    let table = report::ratios_table(&rows);
    let line = |what: &str| table_line(&table, what);
    let full = line("w40: stability, cache warm among 24 copies / cat");
    assert!(full.contains("0.12") && full.ends_with("not met"), "{table}");
    let validate = line("w40: validate, cache warm / cat");
    assert!(validate.contains("0.05") && validate.ends_with("| met"), "{table}");
    let cold = line("w40: stability, cache cold / cat");
    assert!(cold.contains("1.50") && cold.ends_with("not met"), "{table}");
    let warm = line("w40: stability, cache warm / cat");
    assert!(warm.contains("0.10") && warm.ends_with("| met"), "{table}");
    let added = line("w40: (stability, 39 cached + 1 new run");
    assert!(added.contains("1.00") && added.ends_with("| met"), "{table}");
    for cache in ["cold", "warm"] {
        let rss = line(&format!("w40: stability, cache {cache} peak RSS"));
        assert!(rss.contains("20.0 MiB") && rss.contains("≤ 128 MiB") && rss.ends_with("| met"), "{table}");
    }
}

/// A third BFCL workload, too large to scale against, still gets its checks, and the
/// scaling row stays that of the first two.
#[test]
fn a_third_workload_is_checked_but_not_scaled() {
    let rows = [
        row("w40", label::STABILITY, 0.2),
        row("w80", label::STABILITY, 0.38),
        row("w200", label::STABILITY, 1.0),
        row("w200", label::CAT, 1.2),
        row("w200", label::CACHE_COLD, 1.1),
        row("w200", label::CACHE_WARM, 0.1),
    ];
    let table = report::ratios_table(&rows);
    let line = |what: &str| table_line(&table, what);
    assert!(line("scaling, w80 / w40").contains("1.90"), "{table}");
    assert!(!table.contains("w200 / "), "{table}");
    assert!(line("w200: speed-up").ends_with("n/a"), "no Python baseline timed: {table}");
    assert!(line("w200: stability, cache warm peak RSS").ends_with("| met"), "{table}");
}

/// Runs `python3 SCRIPT ARGS`, fails unless it succeeds, returns its stdout.
fn python(script: &Path, args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("python3 runs the bench scripts (see xtask/bench)");
    assert!(out.status.success(), "{} {args:?}: {}", script.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A fresh, empty temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-bench-{name}-{}", std::process::id()));
    if dir.exists() {
        fs::remove_dir_all(&dir).unwrap();
    }
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// No timing: every generator makes a tiny workload of two models, and the
/// plain-Python baseline of its format counts exactly its ground truth
/// (`evaltally` itself is held to it by `crates/evaltally/tests/generated_formats.rs`
/// and by `cargo xtask bench`). The same seed gives the same files; the
/// checker notices a changed count.
#[test]
fn generators_baselines_and_checker_agree() {
    let tmp = temp_dir("generators");
    // Python starts slowly: one thread per format.
    std::thread::scope(|scope| {
        for (format, size) in [
            (Format::Gstack, ["--tests", "12"]),
            (Format::Junit, ["--tests", "40"]),
            (Format::Swebench, ["--instances", "40"]),
            (Format::Sfbench, ["--instances", "40"]),
            (Format::Inspect, ["--samples", "8"]),
            (Format::Lmeval, ["--docs", "16"]),
            (Format::Lighteval, ["--samples", "12"]),
            (Format::Promptfoo, ["--tests", "20"]),
            (Format::Helm, ["--instances", "40"]),
            (Format::OpenaiEvals, ["--tests", "10"]),
            (Format::Taubench, ["--tasks", "10"]),
            (Format::TerminalBench, ["--tasks", "12"]),
            (Format::Evalplus, ["--tasks", "20"]),
        ] {
            let tmp = &tmp;
            scope.spawn(move || check_generator(format, size, tmp));
        }
    });
    fs::remove_dir_all(&tmp).unwrap();
}

fn check_generator(format: Format, size: [&str; 2], tmp: &Path) {
    let scripts = workspace_root().join("xtask/bench");
    let checker = scripts.join("check_expected.py");
    let name = format.name();
    let generator = scripts.join(format.generator());
    let generate = |out: Option<&Path>| {
        let mut args = vec!["--runs", "4", "--models", "2", "--seed", "5", size[0], size[1], "--expected"];
        args.extend(out.map(|out| out.to_str().unwrap()));
        python(&generator, &args)
    };
    let (out, again) = (tmp.join(name), tmp.join(format!("{name}-again")));
    let expected = generate(Some(&out));
    assert_eq!(generate(Some(&again)), expected, "{name}: the ground truth depends on the seed only");
    let files = workload::files_below(&out).unwrap();
    // τ-bench writes one file per model and environment: 4 files here.
    assert!(files.len() >= 4, "{name}: {} files", files.len());
    for file in &files {
        let twin = again.join(file.strip_prefix(&out).unwrap());
        assert_eq!(fs::read(file).unwrap(), fs::read(twin).unwrap(), "{}", file.display());
    }
    assert_eq!(generate(None), expected, "{name}: the ground truth without OUT_DIR");

    let (expected_file, reference_file) =
        (tmp.join(format!("{name}.expected.json")), tmp.join(format!("{name}.ref.json")));
    fs::write(&expected_file, &expected).unwrap();
    if !has_modules(format.baseline_modules()) {
        return;
    }
    fs::write(&reference_file, python(&scripts.join(format.reference()), &[out.to_str().unwrap()])).unwrap();
    let summary = python(&checker, &[expected_file.to_str().unwrap(), reference_file.to_str().unwrap()]);
    assert!(summary.starts_with("ground truth matched: 2 models"), "{name}: {summary}");

    // One count off: the checker says which and fails.
    let key = "\"stable_fail\": ";
    let at = expected
        .match_indices(key)
        .map(|(i, _)| i + key.len())
        .find(|&i| expected[i..].starts_with(|c: char| c.is_ascii_digit()));
    let at = at.unwrap_or_else(|| panic!("{name}: no stable_fail count"));
    fs::write(&expected_file, format!("{}1000{}", &expected[..at], &expected[at..])).unwrap();
    let out = Command::new("python3").arg(&checker).args([&expected_file, &reference_file]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{name}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("stable_fail"), "{name}");
}

/// Whether `python3` imports `modules`; when not, the baseline's check is skipped with a
/// notice (a failure under `CI=true`: `.ci/run` installs pyarrow for the export's tests).
fn has_modules(modules: &[&str]) -> bool {
    if modules.is_empty() {
        return true;
    }
    let import = format!("import {}", modules.join(", "));
    let ok = Command::new("python3").args(["-c", &import]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "python3 cannot `{import}` under CI=true");
        eprintln!("skipped: a baseline's check, python3 cannot `{import}` (pip install {})", modules.join(" "));
    }
    ok
}

/// The first line of `table` that contains `what`, without the table's trailing padding
/// and bar.
fn table_line(table: &str, what: &str) -> String {
    table.lines().find(|l| l.contains(what)).unwrap().trim_end_matches([' ', '|']).to_owned()
}
