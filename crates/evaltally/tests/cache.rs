//! The digest cache seen from the command line: a warm run prints exactly what a cold one
//! and `--no-cache` print, on every format; `--no-cache` leaves the cache alone; a changed
//! file is read again.

mod common;

use std::fs;
use std::path::Path;
use std::time::Duration;

use common::evaltally_in;
use evaltally_testkit::{files_and_bytes_below, testdata, workspace_root};

fn run_with(cache: &Path, args: &[&str]) -> common::Run {
    run_with_env(cache, args, &[])
}

fn run_with_env(cache: &Path, args: &[&str], env: &[(&str, &str)]) -> common::Run {
    evaltally_in(&workspace_root(), args, &[&[("EVALTALLY_CACHE", cache.to_str().unwrap())], env].concat())
}

/// The line `EVALTALLY_CACHE_STATS=1` printed on the run's stderr (empty when there is none).
fn stats_line(run: &common::Run) -> String {
    run.stderr.lines().find(|l| l.starts_with("cache: ")).unwrap_or_default().to_string()
}

/// The count before `what` (`stored`, `units read`) on the run's stats line.
fn stat(run: &common::Run, what: &str) -> u64 {
    let line = stats_line(run);
    let count = line.split(", ").find_map(|part| part.trim_start_matches("cache: ").strip_suffix(what));
    count.and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no `{what}` in {line:?}: {}", run.stderr))
}

#[test]
fn warm_runs_print_what_cold_runs_and_no_cache_print_on_every_format() {
    let cache = tempfile::tempdir().unwrap();
    let folders = [
        "bfcl/v4",
        "sfbench",
        "swebench",
        "gstack",
        "junit",
        "taubench",
        "tau2",
        "terminal-bench",
        "lmeval",
        "lighteval",
        "inspect",
        "promptfoo",
        "helm",
        "openai-evals",
        "oaieval",
        "evalplus",
    ];
    for folder in folders {
        let path = testdata(folder);
        let path = path.to_str().unwrap();
        for args in [
            vec!["stability", path, "--format", "json"],
            vec!["stability", path],
            vec!["trend", path, "--format", "json"],
            vec!["plan", path, "--format", "json"],
            vec!["cost", path, "--format", "json"],
            vec!["validate", path],
            vec!["validate", path, "--strict", "--format", "json"],
        ] {
            let uncached = run_with(cache.path(), &[&["--no-cache"], args.as_slice()].concat());
            let cold = run_with(cache.path(), &args);
            let warm = run_with(cache.path(), &args);
            assert_eq!(cold.transcript(), uncached.transcript(), "{args:?}");
            assert_eq!(warm.transcript(), uncached.transcript(), "{args:?}");
        }
    }
    assert!(files_and_bytes_below(cache.path()).0 > 0, "the runs were stored");
    // And the warm runs did come from the cache.
    for folder in folders {
        let path = testdata(folder);
        let run = evaltally_in(
            &workspace_root(),
            &["stability", path.to_str().unwrap()],
            &[("EVALTALLY_CACHE", cache.path().to_str().unwrap()), ("EVALTALLY_CACHE_STATS", "1")],
        );
        let line = stats_line(&run);
        assert!(line.contains(" 0 misses") && !line.starts_with("cache: 0 hits"), "{folder}: {line}");
    }
}

/// `compare` reads runs and their records (cost, tokens) from one reading of each file;
/// through the cache both come back, and print what reading the files prints.
/// `validate` on damaged files and on hostile text: what a warm run finds, it finds in the
/// cache, and it is what checking the files finds, exit code included.
#[test]
fn validate_finds_the_same_problems_cold_warm_and_uncached() {
    let cache = tempfile::tempdir().unwrap();
    for folder in ["malformed", "hostile"] {
        let path = testdata(folder);
        let path = path.to_str().unwrap();
        for args in [vec!["validate", path], vec!["validate", path, "--strict", "--format", "json"]] {
            let uncached = run_with(cache.path(), &[&["--no-cache"], args.as_slice()].concat());
            if folder == "malformed" {
                assert_eq!(uncached.code, 1, "{args:?}: the corpus has errors");
            }
            let cold = run_with_env(cache.path(), &args, &[("EVALTALLY_CACHE_STATS", "1")]);
            let warm = run_with_env(cache.path(), &args, &[("EVALTALLY_CACHE_STATS", "1")]);
            assert!(stat(&cold, "stored") > 0, "{}", stats_line(&cold));
            assert_eq!((stat(&warm, "misses"), stat(&warm, "units read")), (0, 0), "{}", stats_line(&warm));
            for run in [&cold, &warm] {
                assert_eq!((&run.stdout, run.code), (&uncached.stdout, uncached.code), "{args:?}");
            }
        }
    }
}

#[test]
fn compare_prints_the_same_cold_warm_and_uncached() {
    let cache = tempfile::tempdir().unwrap();
    let sides = [
        ("bfcl/v4/run-1", "bfcl/v4/run-2"),
        ("gstack/standard", "gstack/standard"),
        ("junit", "junit"),
        ("sfbench-runs/run-1", "sfbench-runs/run-2"),
    ];
    for (base, new) in sides {
        let (base, new) = (testdata(base), testdata(new));
        let args = ["compare", "--base", base.to_str().unwrap(), "--new", new.to_str().unwrap(), "--format", "json"];
        let uncached = run_with(cache.path(), &[&["--no-cache"], args.as_slice()].concat());
        let cold = run_with(cache.path(), &args);
        let warm = evaltally_in(
            &workspace_root(),
            &args,
            &[("EVALTALLY_CACHE", cache.path().to_str().unwrap()), ("EVALTALLY_CACHE_STATS", "1")],
        );
        assert!(uncached.stdout.contains("\"efficiency\""), "{args:?}: {}", uncached.stdout);
        assert_eq!(cold.stdout, uncached.stdout, "{args:?}");
        assert_eq!(warm.stdout, uncached.stdout, "{args:?}");
        let line = stats_line(&warm);
        assert!(line.contains(" 0 misses") && !line.starts_with("cache: 0 hits"), "{args:?}: {line}");
    }
}

/// After `stability` stored the runs, `compare` finds them and reads (and stores) only the
/// records: stored counts what was missing, no more.
#[test]
fn compare_after_stability_stores_only_the_records() {
    let cache = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = evaltally_in(
            &workspace_root(),
            args,
            &[("EVALTALLY_CACHE", cache.path().to_str().unwrap()), ("EVALTALLY_CACHE_STATS", "1")],
        );
        stats_line(&out)
    };
    let (base, new) = (testdata("bfcl/v4/run-1"), testdata("bfcl/v4/run-2"));
    let (base, new) = (base.to_str().unwrap(), new.to_str().unwrap());
    let first = run(&["stability", base, new]);
    let units: u64 = first.split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap();
    assert!(first.starts_with("cache: 0 hits") && units > 0, "{first}");
    let second = run(&["compare", base, new]);
    let expected = format!("cache: {units} hits, {units} misses, {units} stored, 0 not settled, 0 not written,");
    assert!(
        second.starts_with(&expected),
        "the runs came from the cache, the records were read and stored once: {second}"
    );
}

#[test]
fn no_cache_neither_reads_nor_writes_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let run = run_with(cache.path(), &["stability", "testdata/bfcl/v4", "--no-cache"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(files_and_bytes_below(cache.path()).0, 0);
    let run = run_with(cache.path(), &["--no-cache", "compare", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(files_and_bytes_below(cache.path()).0, 0);
}

#[test]
fn a_run_changed_after_it_was_cached_is_read_again() {
    let cache = tempfile::tempdir().unwrap();
    let runs = tempfile::tempdir().unwrap();
    let report = runs.path().join("run-1.xml");
    let xml = |outcome: &str| {
        format!(
            "<testsuite name=\"s\" tests=\"2\">\n  <testcase classname=\"s\" name=\"a\"/>\n  \
             <testcase classname=\"s\" name=\"b\">{outcome}</testcase>\n</testsuite>\n"
        )
    };
    fs::write(&report, xml("")).unwrap();
    // Files are stored only once they have settled (see `Cache::settle_after`).
    std::thread::sleep(Duration::from_millis(250));
    let path = runs.path().to_str().unwrap();
    let args = ["stability", path, "--format", "json"];
    let first = run_with(cache.path(), &args);
    assert!(files_and_bytes_below(cache.path()).0 > 0, "the run was stored");
    assert!(first.stdout.contains("\"stable_pass\": 2"), "{}", first.stdout);
    fs::write(&report, xml("<failure type=\"Boom\"/>")).unwrap();
    let second = run_with(cache.path(), &args);
    assert!(second.stdout.contains("\"stable_fail\": 1"), "{}", second.stdout);
    assert_eq!(
        second.transcript(),
        run_with(cache.path(), &["--no-cache", "stability", path, "--format", "json"]).transcript()
    );
}

#[test]
fn an_unwritable_cache_folder_is_a_note_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the cache folder should be: nothing can be created below it.
    let blocked = dir.path().join("cache");
    fs::write(&blocked, "").unwrap();
    let run = run_with(&blocked, &["stability", "testdata/bfcl/v4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The note says why, and how much was stored.
    assert!(run.stderr.contains("could not be written (Not a directory (os error 20)): 0 of "), "{}", run.stderr);
    assert!(run.stderr.contains(" readings were stored"), "{}", run.stderr);
    assert_eq!(run.stdout, run_with(&blocked, &["--no-cache", "stability", "testdata/bfcl/v4"]).stdout);
}

fn json_of(cache: &Path, env: &[(&str, &str)]) -> serde_json::Value {
    let run = run_with_env(cache, &["cache", "info", "--format", "json"], env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn the_cache_command_shows_prunes_and_cleans_the_cache_folder() {
    let cache = tempfile::tempdir().unwrap();
    let gstack = testdata("gstack");
    let gstack = gstack.to_str().unwrap();
    // What an analysis stores is what `cache info` counts, in the bytes the folder holds.
    let empty = json_of(cache.path(), &[]);
    assert_eq!((empty["entries"].as_u64(), empty["bytes"].as_u64()), (Some(0), Some(0)));
    let stored = stat(&run_with_env(cache.path(), &["stability", gstack], &[("EVALTALLY_CACHE_STATS", "1")]), "stored");
    assert!(stored > 0);
    let info = json_of(cache.path(), &[]);
    assert_eq!(info["entries"].as_u64(), Some(stored));
    assert_eq!(
        info["bytes"].as_u64(),
        Some(files_and_bytes_below(&cache.path().join(evaltally_cache::layout_folder())).1)
    );
    assert_eq!(info["folder"].as_str(), cache.path().to_str());
    assert_eq!(info["limit"].as_u64(), Some(1 << 30));
    assert_eq!(json_of(cache.path(), &[("EVALTALLY_CACHE_SIZE", "250MiB")])["limit"].as_u64(), Some(250 << 20));
    // An older layout's folder: counted apart, removed by a prune.
    fs::create_dir_all(cache.path().join("v1")).unwrap();
    fs::write(cache.path().join("v1/entry"), [0u8; 3000]).unwrap();
    fs::write(cache.path().join("mine.txt"), b"not the cache's").unwrap();

    let folder = cache.path().to_str().unwrap();
    let session = common::session_with(
        &[("EVALTALLY_CACHE", folder)],
        &[
            &["cache", "dir"],
            &["cache", "info"],
            &["cache", "prune"],
            &["cache", "info"],
            &["cache", "clean"],
            &["cache", "clean"],
        ],
    )
    .replace(folder, "[CACHE]");
    // Sizes depend on this build's identity (stored with each entry): checked above, not here.
    insta::with_settings!({filters => vec![(r"\d+(\.\d)? (B|KiB)\b", "[SIZE]")]}, {
        insta::assert_snapshot!(session);
    });
    assert!(!cache.path().join(evaltally_cache::layout_folder()).exists() && !cache.path().join("v1").exists());
    assert!(cache.path().join("mine.txt").exists(), "what is not evaltally's stays");
    // Cleaned, the next analysis reads every file again and stores them again.
    let again = run_with_env(cache.path(), &["stability", gstack], &[("EVALTALLY_CACHE_STATS", "1")]);
    assert!(stats_line(&again).starts_with("cache: 0 hits"), "{}", again.stderr);
    assert_eq!(json_of(cache.path(), &[])["entries"].as_u64(), Some(stored));
}

#[test]
fn the_cache_command_refuses_a_cache_folder_that_is_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-folder");
    fs::write(&file, b"mine").unwrap();
    for action in ["info", "clean", "prune"] {
        let run = run_with(&file, &["cache", action]);
        assert_eq!(run.code, 2, "{action}: {}", run.stderr);
        assert!(run.stderr.contains("is not a folder"), "{action}: {}", run.stderr);
    }
    assert_eq!(fs::read(&file).unwrap(), b"mine", "left as it was");
    assert_eq!(run_with(&file, &["cache", "dir"]).stdout, format!("{}\n", file.display()));
}

#[test]
fn an_analysis_keeps_the_cache_under_the_size_in_evaltally_cache_size() {
    let cache = tempfile::tempdir().unwrap();
    let folders: Vec<String> = ["bfcl/v4", "gstack", "junit", "sfbench-runs", "swebench"]
        .iter()
        .map(|f| testdata(f).to_str().unwrap().to_string())
        .collect();
    for f in &folders {
        assert!(run_with(cache.path(), &["stability", f]).code <= 1);
    }
    let all = json_of(cache.path(), &[]);
    let (entries, bytes) = (all["entries"].as_u64().unwrap(), all["bytes"].as_u64().unwrap());
    let packs = |dir: &Path| -> u64 {
        fs::read_dir(dir.join(evaltally_cache::layout_folder()))
            .unwrap()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "pack"))
            .map(|e| e.metadata().unwrap().len())
            .sum()
    };
    // Half the size: the next analysis that stores anything prunes down to it.
    let limit = (packs(cache.path()) / 2).to_string();
    fs::remove_dir_all(cache.path().join(evaltally_cache::layout_folder())).unwrap();
    for f in &folders {
        assert!(run_with_env(cache.path(), &["stability", f], &[("EVALTALLY_CACHE_SIZE", &limit)]).code <= 1);
    }
    let pruned = json_of(cache.path(), &[("EVALTALLY_CACHE_SIZE", &limit)]);
    assert!(packs(cache.path()) <= limit.parse().unwrap(), "{pruned}");
    assert!(pruned["entries"].as_u64().unwrap() < entries, "{pruned} against {entries} entries, {bytes} bytes");
    assert!(pruned["entries"].as_u64().unwrap() > 0, "{pruned}");
}

#[test]
fn a_cache_size_that_is_not_a_size_is_a_usage_error_unless_the_cache_is_off() {
    let cache = tempfile::tempdir().unwrap();
    let gstack = testdata("gstack/standard");
    let gstack = gstack.to_str().unwrap();
    for (value, says) in [
        ("12 parsecs", "`parsecs` is not a unit of size"),
        ("0", "the size is zero"),
        ("lots", "`lots` does not begin with a number"),
        ("1\u{1b}[2JG", "`\\u{1b}[2JG` is not a unit of size"),
    ] {
        for args in [&["stability", gstack][..], &["cache", "info"]] {
            let run = run_with_env(cache.path(), args, &[("EVALTALLY_CACHE_SIZE", value)]);
            assert_eq!(run.code, 2, "{value}: {}", run.stderr);
            assert!(run.stderr.starts_with("error: EVALTALLY_CACHE_SIZE="), "{}", run.stderr);
            assert!(run.stderr.contains(says), "{value}: {}", run.stderr);
            assert!(!run.stderr.contains('\u{1b}'), "escaped: {}", run.stderr);
        }
        let off = run_with_env(cache.path(), &["--no-cache", "stability", gstack], &[("EVALTALLY_CACHE_SIZE", value)]);
        assert_eq!(off.code, 0, "--no-cache does not look at the size: {}", off.stderr);
    }
}

/// `compare` and `report` need outcomes and records of the same runs (and `report --base
/// --new` the runs of both sides together and each side's): each unit's files are read
/// once for all, with the cache cold and without it.
#[test]
fn compare_and_report_read_each_unit_once() {
    let out = tempfile::tempdir().unwrap();
    let page = out.path().join("report.html");
    let (base, new) = (testdata("gstack/standard"), testdata("gstack/evals"));
    let (base, new, page) = (base.to_str().unwrap(), new.to_str().unwrap(), page.to_str().unwrap());
    let stats = [("EVALTALLY_CACHE_STATS", "1")];
    let cache = tempfile::tempdir().unwrap();
    let units = stat(&run_with_env(cache.path(), &["--no-cache", "stability", base, new], &stats), "units read");
    assert!(units >= 3, "{units}");
    for args in [
        &["report", base, new, "-o", page][..],
        &["report", "--base", base, "--new", new, "-o", page],
        &["compare", "--base", base, "--new", new],
    ] {
        for no_cache in [true, false] {
            let cache = tempfile::tempdir().unwrap();
            let args = if no_cache { [&["--no-cache"], args].concat() } else { args.to_vec() };
            let run = run_with_env(cache.path(), &args, &stats);
            // The two folders' gstack runs share no test: `compare` says so and exits 2,
            // having read both sides.
            let nothing = args.contains(&"compare") && run.stderr.contains("nothing compared");
            assert!(run.code <= 1 || (nothing && run.code == 2), "{args:?}: {}", run.stderr);
            assert_eq!(stat(&run, "units read"), units, "{args:?}: {}", run.stderr);
        }
    }
}

/// The CI recipe's order (docs/ci.md): after `report --base A --new B`, the gate `compare
/// --base A --new B` reads nothing, on BFCL run folders too, whose runs are named after the
/// folders the paths share (so a side found alone is another unit than found with the
/// other side, and the report stores its reading with its records as well).
#[test]
fn the_gate_after_the_report_reads_nothing() {
    let out = tempfile::tempdir().unwrap();
    let page = out.path().join("report.html");
    // Both sides a run folder `run-1`, as an evaluation that always writes to one name
    // leaves them: found together, the runs are named apart by their folders.
    let (base, new) = (out.path().join("main/run-1"), out.path().join("pr/run-1"));
    evaltally_testkit::copy_folder(&testdata("bfcl/v4/run-1"), &base);
    evaltally_testkit::copy_folder(&testdata("bfcl/v4/run-10"), &new);
    // The cache stores readings of files that have settled.
    std::thread::sleep(std::time::Duration::from_millis(250));
    let (base, new, page) = (base.to_str().unwrap(), new.to_str().unwrap(), page.to_str().unwrap());
    let stats = [("EVALTALLY_CACHE_STATS", "1")];
    let cache = tempfile::tempdir().unwrap();
    let report = run_with_env(cache.path(), &["report", "--base", base, "--new", new, "-o", page], &stats);
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(stat(&report, "units read") > 0, "{}", report.stderr);
    let gate =
        run_with_env(cache.path(), &["compare", "--base", base, "--new", new, "--fail-on", "significant"], &stats);
    assert!(gate.code <= 1, "{}", gate.stderr);
    assert_eq!(stat(&gate, "units read"), 0, "{}", gate.stderr);
}
