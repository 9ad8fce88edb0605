//! `stability`, `compare` and `show` on SF-Bench and SWE-bench reports (fixtures in
//! `testdata/swebench/` and `testdata/sfbench-runs/`).

mod common;

use common::evaltally;

#[test]
fn stability_over_swebench_run_reports() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/swebench/runs"]).transcript());
}

#[test]
fn stability_over_sfbench_reports_in_json() {
    let run = evaltally(&["stability", "testdata/sfbench-runs", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "acme/sf-model");
    // apex-integration-001 errored in run 1 and was skipped (did not run: listed, unscored)
    // in run 2: judged nowhere, counted as errored.
    let apex = model["categories"].as_array().unwrap().iter().find(|c| c["category"] == "apex").unwrap();
    assert_eq!((apex["stable_fail"].as_u64(), apex["errored"].as_u64()), (Some(0), Some(1)));
    assert_eq!(apex["flaky"], 1);
    assert_eq!(apex["listed"], serde_json::json!([2, 2]));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn per_instance_reports_make_a_run() {
    insta::assert_snapshot!(
        evaltally(&["stability", "testdata/swebench/instance-logs", "--format", "markdown"]).transcript()
    );
}

#[test]
fn compare_two_swebench_runs_by_outcome() {
    let run = evaltally(&[
        "compare",
        "testdata/swebench/runs/acme-agent-1.5.run-1.json",
        "testdata/swebench/runs/acme-agent-1.5.run-3.json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn compare_two_systems_pairs_their_models() {
    let run = evaltally(&[
        "compare",
        "testdata/swebench/runs/acme-agent-1.5.run-2.json",
        "testdata/swebench/instance-logs/mini-run",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["models"][0]["model"], "acme-agent-1.5 → unknown");
    let django =
        doc["models"][0]["categories"].as_array().unwrap().iter().find(|c| c["category"] == "django/django").unwrap();
    assert_eq!(django["regressions"], serde_json::json!(["django__django-11133"]));
}

#[test]
fn show_an_instance_with_its_test_results() {
    insta::assert_snapshot!(
        evaltally(&["show", "testdata/swebench/runs", "astropy__astropy-12907", "--run", "run-2"]).transcript()
    );
}

#[test]
fn show_an_sfbench_instance() {
    let run = evaltally(&["show", "testdata/sfbench-runs", "apex-trigger-handler-001", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let statuses: Vec<&str> = doc["runs"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["passed", "failed"]);
    assert_eq!(doc["runs"][1]["error_message"], "Functional validation failed");
}
