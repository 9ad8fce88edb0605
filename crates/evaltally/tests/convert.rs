//! `evaltally convert`: SF-Bench v1 files to v2.

mod common;

use common::evaltally;

#[test]
fn legacy_evaluate_file_to_v2_lists_what_was_defaulted() {
    let run = evaltally(&["convert", "testdata/sfbench/v1-legacy-evaluate.json", "--to", "sfbench-v2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v2: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v2["schema_version"], "2.0");
    assert!(run.stderr.contains("defaulted (not in the input): "), "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn converted_report_validates_and_summarises() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v2.json");
    let out = out.to_str().unwrap();
    let run = evaltally(&["convert", "testdata/sfbench/v1-engine-summary.json", "--to", "sfbench-v2", "-o", out]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let validate = evaltally(&["validate", out]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    let summary = evaltally(&["summary", out, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&summary.stdout).unwrap();
    let direct = evaltally(&["summary", "testdata/sfbench/v1-engine-summary.json", "--format", "json"]);
    let direct: serde_json::Value = serde_json::from_str(&direct.stdout).unwrap();
    assert_eq!(doc["summary"], direct["summary"], "summary of a v1 file = summary of its migration");
}

#[test]
fn what_cannot_be_converted_exits_2() {
    let run = evaltally(&["convert", "testdata/sfbench-runs/run-1/report.json", "--to", "sfbench-v2"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("already an SF-Bench v2 report"), "{}", run.stderr);
}
