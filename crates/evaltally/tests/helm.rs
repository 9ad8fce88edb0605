//! HELM run folders: train trials in one `per_instance_stats.json` are runs, the model and
//! the scenario come from `run_spec.json` beside it; on the fixture and on the real run in
//! the shared reference data (with the counts its PROVENANCE.md gives).

mod common;

use common::{evaltally, evaltally_in, session};
use evaltally_testkit::refdata;

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", "testdata/helm"],
        &["show", "testdata/helm", "id2"],
        &["validate", "testdata/helm"],
        &["trend", "testdata/helm"],
    ]);
    insta::assert_snapshot!(out);

    let json = evaltally(&["stability", "testdata/helm", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "acme/7b");
    let anatomy = &model["categories"][0];
    assert_eq!(anatomy["category"], "mmlu:subject=anatomy,method=multiple_choice_joint");
    assert_eq!(
        anatomy["runs"],
        serde_json::json!([
            "mmlu-subject=anatomy,method=multiple_choice_joint,model=acme_7b#trial-0",
            "mmlu-subject=anatomy,method=multiple_choice_joint,model=acme_7b#trial-1",
            "mmlu-subject=anatomy,method=multiple_choice_joint,model=acme_7b#trial-2"
        ])
    );
    // id1 always passes; id2 and id4 (judged by quasi_exact_match) flip; id3 and the typos
    // variant of id2 never pass; id5 has neither metric and is unscored, so not counted.
    assert_eq!(
        (
            anatomy["total"].as_u64(),
            anatomy["stable_pass"].as_u64(),
            anatomy["flaky"].as_u64(),
            anatomy["stable_fail"].as_u64()
        ),
        (Some(5), Some(1), Some(2), Some(2))
    );
    assert_eq!(anatomy["correct"], serde_json::json!([3, 2, 2]));
    let tests: Vec<(&str, &str)> = anatomy["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect();
    assert_eq!(tests, [("id1", "PPP"), ("id2", "PFP"), ("id2/typos", "FFF"), ("id3", "FFF"), ("id4", "PPF")]);
    let philosophy = &model["categories"][1];
    assert_eq!(philosophy["category"], "mmlu:subject=philosophy,method=multiple_choice_joint");
    assert_eq!((philosophy["stable_pass"].as_u64(), philosophy["stable_fail"].as_u64()), (Some(1), Some(1)));

    // export: every instance of every trial, the unscored one included, with tokens and time.
    let export = evaltally(&["export", "testdata/helm"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert_eq!(export.stdout.lines().count(), 6 * 3 + 2);
    assert_eq!(export.stdout.matches("\"outcome\":\"unscored\"").count(), 3);
    assert!(
        export.stdout.contains("\"duration_ms\":250.0,\"input_tokens\":307,\"output_tokens\":1"),
        "{}",
        export.stdout
    );
}

#[test]
fn damaged_entries_are_named_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let write = |folder: &str, name: &str, text: &str| {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join(name), text).unwrap();
    };
    let em = |mean: f64| format!(r#"{{"name": {{"name": "exact_match", "split": "test"}}, "mean": {mean}}}"#);
    // No run_spec.json: model `unknown`, category from the folder name, with a warning.
    write(
        "boolq:model=acme_7b",
        "per_instance_stats.json",
        &format!(
            r#"[{{"instance_id": "id1", "train_trial_index": 0, "stats": [{}]}},
 {{"instance_id": "id2", "train_trial_index": "first", "stats": [{}]}},
 {{"train_trial_index": 0, "stats": [{}]}},
 {{"instance_id": "id3", "stats": [{}]}},
 {{"instance_id": "id4", "train_trial_index": 0, "stats": {{"exact_match": 1}}}},
 {{"instance_id": "id1", "train_trial_index": 0, "stats": [{}]}},
 {{"instance_id": "id5", "train_trial_index": 0, "train_trial_index": 1, "stats": [{}]}}]"#,
            em(1.0),
            em(1.0),
            em(1.0),
            em(0.0),
            em(0.0),
            em(1.0)
        ),
    );
    // A run spec without a model.
    write("mmlu:subject=a,model=m", "run_spec.json", r#"{"name": "mmlu:subject=a,model=m", "adapter_spec": {}}"#);
    write(
        "mmlu:subject=a,model=m",
        "per_instance_stats.json",
        &format!(r#"[{{"instance_id": "id1", "train_trial_index": 0, "stats": [{}]}}]"#, em(1.0)),
    );
    // A stats file cut short, and one that is not a list.
    write("cut", "per_instance_stats.json", r#"[{"instance_id": "id1", "train_trial_index": 0, "st"#);
    write("object", "per_instance_stats.json", r#"{"instance_id": "id1"}"#);
    let stability = evaltally_in(dir.path(), &["stability", "."], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}{}", stability.stderr, validate.stdout);
    for said in [
        "[1]: instance id2: expected train_trial_index, a whole number, found \"first\"; left out",
        "[2]: expected instance_id, a string; left out",
        "[3]: instance id3: no train_trial_index; read as trial 0",
        "[4]: instance id4: expected stats, a list",
        "[5]: instance id1, trial 0: exact_match given again with mean 0 (first 1, in [0]); the first is read",
        "key `train_trial_index` appears again in the same object",
        "no run_spec.json beside it; the model is read as `unknown` and the category as `boolq`",
        "mmlu:subject=a,model=m/per_instance_stats.json: warning: run_spec.json beside it: expected `adapter_spec.model`, a string; the model is read as `unknown`\n",
        "cut/per_instance_stats.json:1:52: error: not valid JSON",
        "object/per_instance_stats.json: error: expected a list of HELM per-instance stats",
    ] {
        assert!(stability.stderr.contains(said), "{said}\n{}", stability.stderr);
    }
    insta::assert_snapshot!(format!("{}\n{}", stability.transcript(), validate.transcript()));

    // `show` reads prompts from scenario_state.json; a broken one is a warning, the stats
    // are still shown (the walk of a folder holding it reports it as a broken file too).
    write("mmlu:subject=a,model=m", "scenario_state.json", r#"{"request_states": [{"instance": "#);
    let show = evaltally_in(dir.path(), &["show", "mmlu:subject=a,model=m/per_instance_stats.json", "id1"], &[]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    assert!(show.stdout.contains("mmlu:subject=a,model=m#trial-0  passed"), "{}", show.stdout);
    assert!(
        show.stderr.contains(
            "scenario_state.json:1:34: warning: not valid JSON: the text ends before a value (cut short?); shown without prompts"
        ),
        "{}",
        show.stderr
    );
}

#[test]
fn refdata_run_has_the_provenance_counts() {
    let Some(dir) = refdata("evals/every_eval_ever/tests/data/helm") else { return };
    let run = evaltally(&["stability", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The run folder's other files are said to be skipped, and nothing else is said.
    assert_eq!(run.stderr, "note: 2 files set aside, not read as runs (--verbose says why)\n");
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let skipped: Vec<&str> =
        doc["not_read"].as_array().unwrap().iter().map(|n| n["message"].as_str().unwrap()).collect();
    assert!(skipped.iter().all(|m| m.starts_with("skipped: HELM's ")), "{skipped:?}");
    let model = &doc["models"][0];
    assert_eq!(model["model"], "openai/gpt2");
    // train_trial_index values [0]: one run.
    assert_eq!(
        model["runs"],
        serde_json::json!(["mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2#trial-0"])
    );
    let c = &model["categories"][0];
    assert_eq!(c["category"], "mmlu:subject=philosophy,method=multiple_choice_joint");
    // 10 instance entries, exact_match means {0.0: 9, 1.0: 1}.
    assert_eq!(
        (c["total"].as_u64(), c["stable_pass"].as_u64(), c["stable_fail"].as_u64()),
        (Some(10), Some(1), Some(9))
    );
    let export = evaltally(&["export", dir.to_str().unwrap()]);
    assert_eq!(export.stdout.lines().count(), 10);
    assert_eq!(export.stdout.matches("\"outcome\":\"pass\"").count(), 1);
    assert!(export.stdout.contains("\"id\":\"id222\",\"outcome\":\"pass\""), "{}", export.stdout);
    let validate = evaltally(&["validate", dir.to_str().unwrap()]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
}

/// A request HELM kept as an empty completion after a non-fatal error (a content filter) is
/// said by `show`, with the request's error, beside the failed verdict the metrics gave.
#[test]
fn show_says_a_failed_request_and_its_error() {
    let run = evaltally(&["show", "testdata/shapes/helm/scenario-state-failed-request", "id3", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let detail = &doc["runs"][0];
    assert_eq!(detail["status"], "failed", "{detail}");
    let message = detail["error_message"].as_str().unwrap();
    assert!(message.starts_with("exact_match = 0, pass needs 1; the request failed ("), "{message}");
    assert!(message.ends_with("); HELM scored an empty answer"), "{message}");
    assert_eq!(detail["error_details"]["request"]["success"], false, "{detail}");
    assert!(detail["error_details"]["request"]["error"].is_string(), "{detail}");
    // An instance whose request succeeded says nothing of it.
    let ok = evaltally(&["show", "testdata/shapes/helm/scenario-state-failed-request", "id2", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    assert_eq!(doc["runs"][0]["error_message"], "exact_match = 0, pass needs 1");
    assert!(doc["runs"][0]["error_details"].get("request").is_none());
}
