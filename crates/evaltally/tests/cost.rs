//! `evaltally cost` on runs of every kind of accounting: gstack's own `costs`, per-test
//! tokens and costs (BFCL, JUnit properties), and none (SWE-bench run reports).

mod common;

use common::evaltally;

const PATHS: [&str; 4] = [
    "testdata/gstack/standard",
    "testdata/bfcl/v4/run-1",
    "testdata/junit/evals-properties.xml",
    "testdata/swebench/runs",
];

#[test]
fn cost_in_every_output_format() {
    let mut out = String::new();
    for (format, detail) in [("text", false), ("text", true), ("markdown", false), ("markdown", true), ("json", false)]
    {
        let mut args = vec!["cost"];
        args.extend(PATHS);
        args.extend(["--format", format]);
        if detail {
            args.push("--detail");
        }
        let run = evaltally(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        out.push_str("=== ");
        out.push_str(&args[PATHS.len() + 1..].join(" "));
        out.push('\n');
        out.push_str(&run.transcript());
        out.push('\n');
    }
    insta::assert_snapshot!(out);
}

#[test]
fn figures_come_from_the_runs_own_accounting_else_from_its_tests() {
    let mut args = vec!["cost", "--format", "json"];
    args.extend(PATHS);
    let run = evaltally(&args);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let find = |name: &str, format: &str| {
        doc["runs"].as_array().unwrap().iter().find(|r| r["run"] == name && r["format"] == format).unwrap().clone()
    };
    let night = find("nightly-2026-03-16", "gstack");
    assert_eq!((night["source"].as_str(), night["total"]["input_tokens"].as_u64()), (Some("declared"), Some(310_000)));
    let bfcl = find("run-1", "bfcl");
    assert_eq!((bfcl["source"].as_str(), bfcl["total"]["calls"].as_u64()), (Some("tests"), Some(29)));
    let swe = doc["runs"].as_array().unwrap().iter().find(|r| r["format"] == "swebench-run-report").unwrap();
    assert_eq!(swe["source"], "none");
    assert!(run.stdout.contains("\"errors\": []"), "{}", run.stdout);
}

/// gstack's sharded runner writes a night's run as one file per shard, each named after
/// its own finish time: `cost` counts the night as one run, its shards' dollars and passes
/// added up, as `stability` counts it.
#[test]
fn a_sharded_run_costs_the_sum_of_its_shards() {
    let run = evaltally(&["cost", "testdata/shapes/gstack/sharded", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let runs: Vec<(String, f64, u64)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (r["run"].as_str().unwrap().to_string(), r["declared_usd"].as_f64().unwrap(), r["passed"].as_u64().unwrap())
        })
        .collect();
    let night = |d: &str| format!("1.66.0.0-main-e2e-2026-08-{d}");
    // Night 1's shards ended in one minute; night 2's at 02:12 and 02:31 (one run, named
    // after the first). Each night: $1.71 + $1.27; 3 and 4 passes.
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!((runs[0].0.clone(), runs[0].2), (night("15-0214"), 3));
    assert_eq!((runs[1].0.clone(), runs[1].2), (night("16-0212"), 4));
    for (_, usd, _) in &runs {
        assert!((usd - 2.98).abs() < 1e-9, "{runs:?}");
    }
    let stability = evaltally(&["stability", "testdata/shapes/gstack/sharded", "--format", "json", "--verbose"]);
    // Which files were read as one run is a fact, said with --verbose.
    let said = format!("info: read with 1 more file as one run, `{}` (gstack results", night("16-0212"));
    assert_eq!(stability.stderr.matches(&said).count(), 1, "{}", stability.stderr);
    assert!(stability.stderr.contains("skill-e2e-ship/1.66.0.0-main-e2e-2026-08-16-0231.json"), "{}", stability.stderr);
    let doc: serde_json::Value = serde_json::from_str(&stability.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().map(Vec::len), Some(2), "{}", stability.stdout);
    // The night's metadata is its shards' joined: their costs added up, its first
    // shard's finish, no duration (the shards ran at once).
    let meta = &doc["models"][0]["run_meta"][night("16-0212")];
    assert!((meta["total_cost_usd"].as_f64().unwrap() - 2.98).abs() < 1e-9, "{meta}");
    assert_eq!(meta["timestamp"], "2026-08-16T02:12:38.907Z", "{meta}");
    assert!(meta.get("duration_seconds").is_none(), "{meta}");
}
