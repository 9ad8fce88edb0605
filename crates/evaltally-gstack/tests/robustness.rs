//! No public function panics, whatever the input: odd documents, and every prefix and
//! some mutations of the fixtures.

use evaltally_gstack::normalize::{self, Direction};
use evaltally_gstack::{GstackRun, detect, js, runs, validate, validate_strict};
use evaltally_testkit::testdata;
use serde_json::{Value, json};

/// Runs every entry point on one JSON text.
fn exercise(text: &str) {
    let _ = normalize::to_legacy_text(text);
    let _ = normalize::from_legacy_text(text);
    if let Ok(doc) = js::parse(text) {
        let _ = doc.to_pretty_string();
        let _ = doc.to_value();
    }
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        exercise_value(&v);
    }
}

fn exercise_value(v: &Value) {
    let _ = detect(v);
    let _ = validate(v);
    let _ = validate_strict(v);
    let _ = normalize::to_legacy(v);
    let _ = normalize::from_legacy(v);
    let _ = normalize::dropped(v, Direction::ToLegacy);
    let _ = normalize::dropped(v, Direction::FromLegacy);
    let mut notes = Vec::new();
    if let Some(run) = GstackRun::read(v, &mut notes) {
        let _ = runs::category_runs(&run);
        let _ = runs::duplicate_tests(&run);
        for t in &run.tests {
            let _ = runs::show(&run, t.name.as_deref().unwrap_or_default());
        }
        let _ = (run.name(), run.model());
    }
}

#[test]
fn odd_documents() {
    let odd = [
        json!(null),
        json!([]),
        json!([{"all_results": []}]),
        json!({"all_results": null, "total": -1}),
        json!({"all_results": [null, [], 1, "x", {"name": {}, "passed": []}], "schema_version": "1"}),
        json!({"tests": [null, {"name": "a", "suite": "", "tier": "", "passed": true}], "branch": 1, "total_duration_ms": {}}),
        json!({"tests": [{"name": "a", "costs": [{"input_tokens": -5, "output_tokens": 1e300}], "judge_scores": []}],
            "branch": "b", "total_duration_ms": 1e308, "total_tests": 1.5}),
        json!({"all_results": [{"name": "a", "failures": [{}], "comparison": [1]}], "timestamp": "\u{0}", "tier": 0,
            "by_category": {"x": 1, "y": {"passed": "1"}}, "costs": {}, "comparison": [null], "failures": "none"}),
        json!({"all_results": [{"name": "é", "passed": false, "error": "\u{1F600} boom", "exit_reason": null}], "total": 1}),
    ];
    for v in &odd {
        exercise_value(v);
        exercise(&v.to_string());
    }
    for text in
        ["", "{", "[", "\"\\ud800\"", "1e999", "-0", "{\"a\":1,\"a\":2}", "\u{feff}{}", "{\"all_results\":[]} x"]
    {
        exercise(text);
    }
}

#[test]
fn every_prefix_and_mutation_of_the_fixtures() {
    for rel in [
        "gstack/quirks/quirks.json",
        "gstack/standard/nightly-2.json",
        "gstack/evals/0.4.1-main-e2e-2026-03-15-1030.json",
    ] {
        let text = std::fs::read_to_string(testdata(rel)).expect("fixture exists");
        for (i, _) in text.char_indices() {
            exercise(&text[..i]);
        }
        // Swap every value of one kind for another: numbers become strings, strings null.
        exercise(&text.replace(": \"", ": 1, \"x\": \""));
        exercise(&text.replace("true", "\"true\"").replace("false", "null"));
        exercise(&text.replace('[', "[null, ").replace(", ]", "]"));
    }
}
