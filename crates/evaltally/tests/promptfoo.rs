//! promptfoo output: repeats inside one file are runs, on the fixture (two providers, three
//! test cases, `--repeat 3`, an errored result, and a later eval to compare with) and on
//! the real export in the shared reference data (with the counts its PROVENANCE.md gives).
//!
//! `compare` takes two sides of runs of the same models, so the fixture's two providers are
//! compared over time (one file against the next), not with each other.

mod common;

use common::{evaltally, evaltally_in, session};
use evaltally_testkit::refdata;
use serde_json::Value;

const REPEATS: &str = "testdata/promptfoo/riddles.json";
const LATER: &str = "testdata/promptfoo/riddles-later.json";
const ECHO: &str = "echo riddle @ Answer briefly: {{question}}";
const SPIDER: &str = "vars:59cec1a433cf8b79 @ Answer briefly: {{question}}";

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", REPEATS, "--top-flaky", "3"],
        &["show", REPEATS, ECHO],
        &["validate", "testdata/promptfoo"],
        &["trend", "testdata/promptfoo"],
        &["compare", "--base", REPEATS, "--new", LATER],
        &["export", LATER],
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn repeats_are_runs_and_each_provider_is_a_model() {
    let run = evaltally(&["stability", REPEATS, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let runs = ["riddles#repeat-1", "riddles#repeat-2", "riddles#repeat-3"];
    let models: Vec<&str> = doc["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["acme:chat:tiny-7b", "big"]);
    // (stable pass, flaky, stable fail) and each test's outcomes across the repeats.
    for (model, counts, outcomes) in [
        (0, (1, 1, 1), [("capital of France", "PPP"), ("echo riddle", "FFF"), ("vars:59cec1a433cf8b79", "PFP")]),
        // The second repeat of the echo riddle errored (a 429): it judges nothing.
        (1, (3, 0, 0), [("capital of France", "PPP"), ("echo riddle", "PEP"), ("vars:59cec1a433cf8b79", "PPP")]),
    ] {
        let m = &doc["models"][model];
        assert_eq!(m["runs"], serde_json::json!(runs));
        let c = &m["categories"][0];
        assert_eq!(c["category"], "Riddles for acme models");
        assert_eq!(
            (c["total"].as_u64(), c["stable_pass"].as_u64(), c["flaky"].as_u64(), c["stable_fail"].as_u64()),
            (Some(3), Some(counts.0), Some(counts.1), Some(counts.2))
        );
        let got: Vec<(String, String)> = c["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["id"].as_str().unwrap().to_string(), t["outcomes"].as_str().unwrap().to_string()))
            .collect();
        let want: Vec<(String, String)> = outcomes
            .iter()
            .map(|(case, o)| (format!("{case} @ Answer briefly: {{{{question}}}}"), (*o).to_string()))
            .collect();
        assert_eq!(got, want);
    }
    assert!(doc["warnings"].as_array().unwrap().is_empty() && doc["errors"].as_array().unwrap().is_empty());

    // The errored repeat counts as a failure labelled `errored`, its error kept; tokens,
    // latency and cost travel into the records.
    let export = evaltally(&["export", REPEATS]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let lines: Vec<Value> = export.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 18);
    let errored: Vec<&Value> = lines.iter().filter(|l| l["outcome"] == "errored").collect();
    assert_eq!(errored.len(), 1);
    assert_eq!((errored[0]["run"].as_str(), errored[0]["model"].as_str()), (Some("riddles#repeat-2"), Some("big")));
    assert_eq!(errored[0]["error_type"], "error");
    assert!(errored[0]["error_message"].as_str().unwrap().contains("429 Too Many Requests"));
    let spider_fail = lines.iter().find(|l| l["id"] == SPIDER && l["outcome"] == "fail").unwrap();
    assert_eq!(spider_fail["run"], "riddles#repeat-2", "the file lists repeat 3 first; testIdx decides");
    assert_eq!(spider_fail["error_type"], "icontains");
    assert!(lines.iter().all(|l| l["duration_ms"].is_number()));
    assert_eq!(lines.iter().filter(|l| l["input_tokens"].is_u64() && l["cost_usd"].is_f64()).count(), 17);
}

#[test]
fn damaged_results_are_named_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"{"results": {"version": 3, "stats": {"successes": 2, "failures": 0, "errors": 0}, "results": [
  {"success": true, "testCase": {"description": "a"}, "prompt": {"label": "P"}, "provider": "m", "testIdx": 0, "promptIdx": 0},
  "not a result",
  {"success": "yes", "testCase": {"description": "b"}, "prompt": {"label": "P"}, "provider": "m"},
  {"success": false, "failureReason": 2, "error": "boom", "testCase": {"description": "c"}, "prompt": {"label": "P"}, "testIdx": 2},
  {"success": true, "testCase": {"description": "a"}, "prompt": {"label": "P"}, "provider": "m", "testIdx": 0, "promptIdx": 0},
  {"success": true, "success": false, "testCase": {"description": "d"}, "prompt": {"label": "P"}, "provider": "m", "latencyMs": "slow"}
]}}"#;
    std::fs::write(dir.path().join("riddles-run.json"), text).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", "riddles-run.json"], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "riddles-run.json"], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}{}", stability.stderr, validate.stdout);
    for said in [
        "riddles-run.json:3: error: results.results[1]: expected a result object",
        "riddles-run.json:4: error: results.results[2]: expected `success`, true or false, found \"yes\"; left out",
        "riddles-run.json:5: warning: results.results[3]: no `provider`; read as model `unknown`",
        "results.results[4]: `testIdx` 0 and `promptIdx` 0 again (first at results.results[0]); the first is kept",
        "key `success` appears again",
    ] {
        assert!(stability.stderr.contains(said), "{said}\n{}", stability.stderr);
    }
    insta::assert_snapshot!(format!("{}\n{}", stability.transcript(), validate.transcript()));

    // Not promptfoo's shape at all, once forced: one error, nothing to analyse (exit 2).
    std::fs::write(dir.path().join("riddles-run.json"), r#"{"results": {"version": 3, "results": {"a": 1}}}"#).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "riddles-run.json"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("riddles-run.json: error: results.results: expected a list of results, found {\"a\":1}"),
        "{}",
        run.stderr
    );
    let run = evaltally_in(dir.path(), &["validate", "riddles-run.json"], &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("riddles-run.json: INVALID (promptfoo)"), "{}", run.stdout);
}

#[test]
fn sample_export_has_the_provenance_counts() {
    let Some(file) = refdata("evals/promptfoo/test/__fixtures__/sample-export.json") else { return };
    let file = file.to_str().unwrap();
    let doc: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    assert_eq!(doc["results"]["version"], 3);

    let run = evaltally(&["stability", file, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report["warnings"].as_array().unwrap().is_empty(), "{}", run.stdout);
    let models = report["models"].as_array().unwrap();
    let names: Vec<&str> = models.iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(names, ["openai:gpt-5", "openai:gpt-5-mini"]);
    for m in models {
        assert_eq!(m["runs"], serde_json::json!(["sample-export#repeat-1"]));
        let c = &m["categories"][0];
        assert_eq!(c["category"], "Comparing OpenAI flagship and mini models performance on riddles");
        // Two riddles per provider, both failed (success false everywhere).
        assert_eq!((c["total"].as_u64(), c["stable_fail"].as_u64()), (Some(2), Some(2)));
    }

    // 4 results, success false on all, failureReason 1 on all: failed assertions, none errored.
    let export = evaltally(&["export", file]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let lines: Vec<Value> = export.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l["outcome"] == "fail"));
    assert!(lines.iter().all(|l| l["outcome"] != "errored" && l["error_type"] != "assertion_failed"));
    assert_eq!(lines.iter().filter(|l| l["error_type"] == "latency").count(), 3);
    assert!(
        lines.iter().all(|l| l["duration_ms"].is_number() && l["cost_usd"].is_number() && l["output_tokens"].is_u64())
    );

    let validate = evaltally(&["validate", file]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
}
