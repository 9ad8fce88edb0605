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
