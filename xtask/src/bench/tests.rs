use std::path::{Path, PathBuf};
use std::process::Command;

use super::measure::{Stats, measure};
use super::{Measured, Options, cat_commands, command, label, report};

#[test]
fn options_parse() {
    let default = Options::parse(&[]).unwrap();
    assert_eq!((default.runs, default.quick), (5, false));
    let set = Options::parse(&["--quick", "--runs", "2"]).unwrap();
    assert_eq!((set.runs, set.quick), (2, true));
    assert_eq!(Options::parse(&["--runs=7"]).unwrap().runs, 7);
    for bad in [&["--runs"][..], &["--runs", "0"], &["--runs", "x"], &["--fast"]] {
        assert!(Options::parse(bad).is_none(), "{bad:?}");
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

fn row(workload: &str, label: &'static str, median: f64) -> Measured {
    let stats = Stats { median, min: median, max: median, peak_rss_kib: Some(20 * 1024) };
    Measured { workload: workload.to_owned(), label, bytes_read: Some(1_000_000), stats }
}

#[test]
fn ratios_mark_targets() {
    let rows = [
        row("w40", label::STABILITY, 0.1),
        row("w40", label::REF, 5.0),
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
    assert!(!table.contains("scaling"));
    let results = report::results_table(&rows);
    assert!(results.contains("|    0.100 |") && results.contains("| 10.0 |"), "{results}");
}
