//! `evaltally trend` on a generated series of gstack runs whose tests follow planned
//! outcome sequences (so each test's status is known), and on BFCL run folders (which record
//! no time: name order).

mod common;

use std::path::Path;

use common::{evaltally, evaltally_in};
use serde_json::{Value, json};

/// Planned outcomes per test, oldest run first over 12 runs on `main`, and the status the
/// rules give over the last 10 (`--limit 10`, the default) and over all 12 (`--limit 0`).
const PLAN: [(&str, &str, &str, &str); 7] = [
    ("improving", "FFFFFFFFFPPP", "improving", "improving"),
    ("degrading", "PPPPPPPPPPPF", "degrading", "degrading"),
    ("flaky", "PFPFPFPFPFPF", "flaky", "flaky"),
    ("always", "PPPPPPPPPPPP", "stable-pass", "stable-pass"),
    ("never", "FFFFFFFFFFFF", "stable-fail", "stable-fail"),
    // Two early failures: outside the last 10 it is all passes; over 12, it improved.
    ("old-failures", "FFPPPPPPPPPP", "stable-pass", "improving"),
    // Absent from every third run (`-`): gaps are not outcomes.
    ("gappy", "P-PP-FP-PF-P", "flaky", "flaky"),
];

/// A gstack standard result for run `i` (timestamps in plan order, names shuffled so that
/// name order is not time order) on `branch`.
fn result(i: usize, branch: &str, outcomes: &[(&str, Option<bool>)]) -> Value {
    let tests: Vec<Value> = outcomes
        .iter()
        .filter_map(|(name, o)| o.map(|p| json!({"name": name, "suite": "evals", "passed": p, "duration_ms": 1000})))
        .collect();
    let passed = tests.iter().filter(|t| t["passed"] == true).count();
    json!({
        "schema_version": 1,
        "version": "1.0.0",
        "label": format!("night-{}", (i * 7) % 17),
        "git_branch": branch,
        "git_sha": format!("{i:07x}"),
        "timestamp": format!("2026-03-{:02}T02:00:00Z", i + 1),
        "hostname": "ci-1",
        "tier": "e2e",
        "total": tests.len(),
        "passed": passed,
        "failed": tests.len() - passed,
        "total_cost_usd": 0.0,
        "duration_seconds": 1.0,
        "all_results": tests,
    })
}

/// Writes the 12 planned runs on `main`, and 3 more on `dev` (after them in time) where
/// everything fails.
fn series(dir: &Path) {
    for i in 0..12 {
        let outcomes: Vec<(&str, Option<bool>)> = PLAN
            .iter()
            .map(|(name, plan, ..)| (*name, plan.as_bytes().get(i).and_then(|c| (*c != b'-').then_some(*c == b'P'))))
            .collect();
        std::fs::write(dir.join(format!("r{i:02}.json")), result(i, "main", &outcomes).to_string()).unwrap();
    }
    for i in 12..15 {
        let outcomes: Vec<(&str, Option<bool>)> = PLAN.iter().map(|(name, ..)| (*name, Some(false))).collect();
        std::fs::write(dir.join(format!("r{i:02}.json")), result(i, "dev", &outcomes).to_string()).unwrap();
    }
}

fn statuses(json: &str) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(json).unwrap();
    doc["models"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap().to_string(), t["status"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn generated_gstack_series_gets_the_planned_statuses() {
    let dir = tempfile::tempdir().unwrap();
    series(dir.path());
    let expect = |limit_all: bool| {
        let mut v: Vec<(String, String)> = PLAN
            .iter()
            .map(|(name, _, last10, all)| (name.to_string(), if limit_all { *all } else { *last10 }.to_string()))
            .collect();
        v.sort_by(|a, b| evaltally_core::id::natural_str_cmp(&a.0, &b.0));
        v
    };
    let run = evaltally_in(dir.path(), &["trend", ".", "--branch", "main", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(statuses(&run.stdout), expect(false));
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    // The last 10 of the 12 runs on main, oldest first, by timestamp and not by name.
    let runs = doc["models"][0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 10);
    assert_eq!(runs[0]["timestamp"], "2026-03-03T02:00:00Z");
    assert_eq!(runs[9]["git_branch"], "main");
    // 12 runs on main, of the 15 found.
    assert_eq!(doc["models"][0]["runs_found"], 12);
    let all = evaltally_in(dir.path(), &["trend", ".", "--branch", "main", "--limit", "0", "--format", "json"], &[]);
    assert_eq!(statuses(&all.stdout), expect(true));
    // Without the branch filter the three failing `dev` runs are the most recent.
    let every = evaltally_in(dir.path(), &["trend", ".", "--format", "json"], &[]);
    let every = statuses(&every.stdout);
    assert!(every.iter().any(|(id, s)| id == "always" && s == "degrading"), "{every:?}");

    let text = evaltally_in(dir.path(), &["trend", ".", "--branch", "main"], &[]);
    let md = evaltally_in(dir.path(), &["trend", ".", "--branch", "main", "--format", "markdown"], &[]);
    let degrading =
        evaltally_in(dir.path(), &["trend", ".", "--branch", "main", "--status", "degrading", "--test", "de"], &[]);
    insta::assert_snapshot!(format!(
        "{}\n=== markdown\n{}\n=== --status degrading --test de\n{}",
        text.transcript(),
        md.transcript(),
        degrading.transcript()
    ));
}

#[test]
fn bfcl_runs_without_time_go_in_name_order() {
    let run = evaltally(&["trend", "testdata/bfcl/v4", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let tiny = doc["models"].as_array().unwrap().iter().find(|m| m["model"] == "acme_tiny-7b").unwrap();
    let names: Vec<&str> = tiny["runs"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["run-1", "run-2", "run-10"]);
    let text = evaltally(&["trend", "testdata/bfcl/v4", "--model", "acme_tiny-7b"]);
    insta::assert_snapshot!(text.transcript());
    let json = evaltally(&[
        "trend",
        "testdata/bfcl/v4",
        "--model",
        "acme_big-70b",
        "--category",
        "simple_python",
        "--format",
        "json",
    ]);
    insta::assert_snapshot!("bfcl_json", json.transcript());
}

/// Text lists the tests that moved and counts the stable ones; `--all` and `--status`
/// list them; JSON has every test.
#[test]
fn stable_tests_are_counted_unless_asked_for() {
    let plain = evaltally(&["trend", "testdata/gstack/standard"]);
    assert!(!plain.stdout.contains("login-flow"), "{}", plain.stdout);
    assert!(plain.stdout.contains("  and 1 stable-pass test (`--all` lists them)\n"), "{}", plain.stdout);
    let all = evaltally(&["trend", "testdata/gstack/standard", "--all"]);
    assert!(all.stdout.contains("login-flow") && !all.stdout.contains("--all` lists"), "{}", all.stdout);
    let asked = evaltally(&["trend", "testdata/gstack/standard", "--status", "stable-pass"]);
    assert!(asked.stdout.contains("login-flow"), "{}", asked.stdout);
    let json = evaltally(&["trend", "testdata/gstack/standard", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["models"][0]["tests"].as_array().map(Vec::len), Some(4));
}

/// No model ran twice: said once, a line per model, where a block per model would say
/// "no test moved" for each; `--all` still lists each model's tests.
#[test]
fn no_model_ran_twice_is_said_once() {
    let run = evaltally(&["trend", "testdata/bfcl/v4/run-1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("no trend: no model ran twice"), "{}", run.stdout);
    assert!(run.stdout.contains("\n  acme_tiny-7b: 1 run: run-1, 29 tests\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("no test moved"), "{}", run.stdout);
    let all = evaltally(&["trend", "testdata/bfcl/v4/run-1", "--all"]);
    assert!(!all.stdout.contains("no trend"), "{}", all.stdout);
    assert!(all.stdout.contains("simple_python"), "{}", all.stdout);
}
