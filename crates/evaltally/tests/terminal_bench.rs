//! Terminal-Bench `tb run` folders: each attempt a run, the model and the dataset from
//! `run_metadata.json`, ungraded trials errored, the trials' own copies skipped; through
//! every command, and on the real leaderboard runs in the shared reference data.

mod common;

use common::{compact_json, evaltally, report_data, session};
use evaltally_testkit::shared;
use serde_json::Value;

const FIXTURE: &str = "testdata/terminal-bench";
const RUN_A: &str = "testdata/terminal-bench/2026-03-02__09-00-00";
const RUN_B: &str = "testdata/terminal-bench/2026-03-03__09-00-00";
const MODEL: &str = "terminus/anthropic/claude-sonnet-4-20250514";

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", FIXTURE],
        &["stability", FIXTURE, "--errors-as", "fail"],
        &["compare", "--base", RUN_A, "--new", RUN_B],
        &["show", FIXTURE, "build-linux-kernel-qemu"],
        &["show", FIXTURE, "fix-git", "--run", "2026-03-02__09-00-00#attempt-1"],
        &["export", RUN_A],
        &["validate", RUN_B],
    ]);
    insta::assert_snapshot!(out);
}

/// The tests' outcomes across the four runs, as `stability --format json` gives them.
fn outcomes(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["stability", FIXTURE, "--format", "json"];
    args.extend_from_slice(extra);
    let run = evaltally(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], MODEL);
    let c = &model["categories"][0];
    assert_eq!(c["category"], "terminal-bench-core@0.1.1");
    assert_eq!(c["runs"].as_array().unwrap().len(), 4, "two tb runs of two attempts each");
    c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{} {}", t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect()
}

/// `is_resolved` null (a test timeout, a parse error, the harness's own exception) errored;
/// `--errors-as fail` counts them as tb's `accuracy` does.
#[test]
fn ungraded_trials_are_errored_apart() {
    let expected = [
        "build-linux-kernel-qemu EEFE",
        "crack-7z-hash.hard FFFP",
        "fix-git FPPP",
        "hello-world PPPP",
        "swe-bench-astropy-1 PEPF",
    ];
    assert_eq!(outcomes(&[]), expected);
    let as_fail: Vec<String> = expected.iter().map(|o| o.replace('E', "F")).collect();
    assert_eq!(outcomes(&["--errors-as", "fail"]), as_fail);
}

/// Each trial's own `results.json` is a copy of its entry in the run's: skipped, said, and
/// never counted twice; the run's metadata is read beside it and not named as unread.
#[test]
fn trial_copies_are_skipped_and_said() {
    let run = evaltally(&["stability", FIXTURE, "--verbose"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let skipped = run.stderr.lines().filter(|l| l.contains("skipped: a Terminal-Bench trial's own results.json")).count();
    assert_eq!(skipped, 9, "9 copies (the harness exception wrote none): {}", run.stderr);
    assert!(!run.stderr.contains("run_metadata.json: note"), "{}", run.stderr);
    let export = evaltally(&["export", FIXTURE]);
    assert_eq!(export.stdout.lines().count(), 20, "5 tasks × 2 attempts × 2 runs, each once");
}

/// `--as terminal-bench` (and `tb`) reads a results file under any name, and skips a
/// trial's copy rather than misreading it.
#[test]
fn read_as_terminal_bench() {
    let renamed = "testdata/shapes/terminal-bench/tb-results-renamed/goose-claude-4-opus/2026-03-04__12-00-00_results.json";
    for name in ["terminal-bench", "tb"] {
        let run = evaltally(&["stability", renamed, "--as", name, "--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(doc["models"][0]["runs"], serde_json::json!(["2026-03-04__12-00-00"]));
    }
    let formats = evaltally(&["formats"]);
    assert!(formats.stdout.contains("terminal-bench (also tb, terminalbench)"), "{}", formats.stdout);
}

/// The HTML report of the two tb runs: the four attempts as runs, the errored cells.
#[test]
fn report_of_the_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let run = evaltally(&["report", FIXTURE, "-o", page.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = report_data(&std::fs::read_to_string(&page).unwrap());
    let text = data.to_string();
    assert!(text.contains(MODEL) && text.contains("2026-03-03__09-00-00#attempt-2"), "{}", compact_json(&data));
    assert!(text.contains("test_timeout"), "the errored cells keep their label");
}

/// The leaderboard's 64 run-level files (`../shared/realdata/terminal-bench`, see its
/// PROVENANCE.md): the counts the plain-Python baseline `xtask/bench/ref_terminal_bench.py`
/// gives for them.
#[test]
fn leaderboard_runs_have_the_baselines_counts() {
    let Some(dir) = shared("realdata/terminal-bench/laude-institute-terminal-bench-leaderboard") else { return };
    let run = evaltally(&["stability", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let counts = |model: &str, category: &str| {
        let m = doc["models"].as_array().unwrap().iter().find(|m| m["model"] == model).unwrap();
        let c = m["categories"].as_array().unwrap().iter().find(|c| c["category"] == category).unwrap();
        let n = |k: &str| c[k].as_u64().unwrap_or(0);
        (c["runs"].as_array().unwrap().len(), n("total"), n("stable_pass"), n("flaky"), n("stable_fail"), n("errored"))
    };
    assert_eq!(counts("Factory Droid", "terminal-bench-core@0.1.1"), (15, 80, 14, 43, 21, 2));
    assert_eq!(counts("LeadArchitectAgent", "terminal-bench-core@0.1.1"), (15, 80, 3, 48, 24, 5));
    assert_eq!(counts("chaterm/anthropic/claude-sonnet-4-20250514", "terminal-bench-core@0.1.1"), (5, 80, 28, 21, 24, 7));
    assert_eq!(counts("codex/openai/o4-mini", "usaco"), (3, 304, 174, 87, 43, 0));
    assert_eq!(counts("unknown", "terminal-bench"), (15, 80, 9, 41, 28, 2));
}
