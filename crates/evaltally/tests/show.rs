//! `evaltally show`: one test across runs, in text and JSON, on the golden fixtures.

mod common;

use common::evaltally;
use evaltally_testkit::refdata;

#[test]
fn a_test_across_three_runs_with_an_inference_crash() {
    insta::assert_snapshot!(evaltally(&["show", "testdata/bfcl/v4", "multi_turn_base_1"]).transcript());
}

#[test]
fn details_of_a_chosen_run() {
    insta::assert_snapshot!(
        evaltally(&["show", "testdata/bfcl/v4", "multi_turn_base_1", "--run", "run-2", "--color", "never"])
            .transcript()
    );
}

#[test]
fn json_has_every_run() {
    let run = evaltally(&["show", "testdata/bfcl/v4", "simple_python_7", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let statuses: Vec<(&str, &str)> = doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["run"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    // The fixture plan for simple_python_7 is "P-P": passed, not run, passed.
    assert_eq!(statuses, [("run-1", "passed"), ("run-2", "not_run"), ("run-10", "passed")]);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn single_turn_failure_with_a_list_error() {
    insta::assert_snapshot!(evaltally(&["show", "testdata/bfcl/pairs", "live_simple_1-0-1"]).transcript());
}

#[test]
fn old_layouts_by_position_and_by_prompt_id() {
    let v1 = evaltally(&["show", "testdata/bfcl/v1", "simple_3", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&v1.stdout).unwrap();
    assert_eq!(doc["runs"][0]["status"], "failed");
    assert_eq!(doc["runs"][0]["error_type"], "type_error:nested");
    assert_eq!(doc["runs"][0]["score_at"]["line"], 3, "the second failure line: id 4 = position 3");
    let v3 = evaltally(&["show", "testdata/bfcl/v3-project", "irrelevance_4", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&v3.stdout).unwrap();
    assert_eq!(doc["runs"][0]["status"], "failed");
    assert_eq!(doc["runs"][0]["error_message"], "Valid syntax. Successfully decode AST when it should not.");
}

#[test]
fn unscored_and_unknown_tests() {
    let unscored = evaltally(&["show", "testdata/bfcl/quirks", "live_multiple_1-0-1", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&unscored.stdout).unwrap();
    assert_eq!(doc["runs"][0]["status"], "unscored");
    let missing = evaltally(&["show", "testdata/bfcl/v4", "simple_python_99"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("`simple_python_99` is in none of the runs"), "{}", missing.stderr);
    // No id with the number 99: nothing is suggested, as another number is another test.
    assert!(!missing.stderr.contains("did you mean") && !missing.stderr.contains("like it"), "{}", missing.stderr);
    let typo = evaltally(&["show", "testdata/bfcl/v4", "Simpel_Python_2"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.trim_end().ends_with(
            "error: test `Simpel_Python_2` is in none of the runs in testdata/bfcl/v4; did you mean `simple_python_2`?"
        ),
        "{}",
        typo.stderr
    );
    let bad_run = evaltally(&["show", "testdata/bfcl/v4", "simple_python_1", "--run", "run-3"]);
    assert_eq!(bad_run.code, 2);
    assert!(bad_run.stderr.contains("runs: run-1, run-2, run-10"), "{}", bad_run.stderr);
    let no_id = evaltally(&["show", "testdata/bfcl/v4"]);
    assert_eq!(no_id.code, 2, "a test id is required");
    assert!(
        no_id.stderr.contains("give the runs, then the test id: evaltally show PATH... TEST_ID"),
        "{}",
        no_id.stderr
    );
    let swapped = evaltally(&["show", "multi_turn_base_1", "testdata/bfcl/v4"]);
    assert_eq!(swapped.code, 2);
    assert!(
        swapped.stderr.contains("`multi_turn_base_1` is no file or folder, and the test id comes last"),
        "{}",
        swapped.stderr
    );
}

/// Issue acceptance: `multi_turn_base_3` of v0.11.0 failed (the seed's script reports it as
/// passed), and a failed `live_simple` test prints its error (the seed's script crashes).
#[test]
fn refdata_failed_tests_show_their_errors() {
    let Some(root) = refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let run = root.join("v0.11.0");
    let mt = evaltally(&["show", run.to_str().unwrap(), "multi_turn_base_3", "--format", "json"]);
    assert_eq!(mt.code, 0, "{}", mt.stderr);
    let doc: serde_json::Value = serde_json::from_str(&mt.stdout).unwrap();
    let r = &doc["runs"][0];
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error_type"], "multi_turn:instance_state_mismatch");
    assert_eq!(
        r["error_message"],
        "Model instance for GorillaFileSystem does not match the state with ground truth instance."
    );
    assert_eq!(r["question"].as_array().unwrap().len(), 2);
    let ls = evaltally(&["show", run.to_str().unwrap(), "live_simple_29-7-2"]);
    assert_eq!(ls.code, 0, "{}", ls.stderr);
    assert!(ls.stdout.contains("error type: simple_function_checker:wrong_count"), "{}", ls.stdout);
    assert!(ls.stdout.contains("error: Wrong number of functions."), "{}", ls.stdout);
}

/// lighteval counts its ids within a task: `2` is a test of `custom|arith|0` and another of
/// `custom|qa|0`. The question and expected answer shown are those of the run shown, the
/// table says which category each row is, and `--category` keeps one.
#[test]
fn an_id_in_two_categories_shows_one_tests_question_with_its_run() {
    let both = evaltally(&["show", "testdata/lighteval", "2", "--model", "acme/tiny-7b", "--color", "never"]);
    assert_eq!(both.code, 0, "{}", both.stderr);
    insta::assert_snapshot!(both.stdout);
    // The run shown is the last failed one, of qa; its question is qa's, not arith's.
    assert!(both.stdout.contains("Capital of Italy?") && !both.stdout.contains("2 plus 2"), "{}", both.stdout);

    let arith = evaltally(&["show", "testdata/lighteval", "2", "--category", "custom|arith|0", "--color", "never"]);
    assert_eq!(arith.code, 0, "{}", arith.stderr);
    assert!(arith.stdout.contains("2 plus 2") && !arith.stdout.contains("Capital of Italy?"), "{}", arith.stdout);
    assert!(!arith.stdout.contains("custom|qa|0"), "{}", arith.stdout);
}

/// `--run` naming a run of several models shows the one where the test failed, and the
/// details say whose run it is, as the table does.
#[test]
fn a_run_of_several_models_is_named_with_its_model() {
    let shown = evaltally(&["show", "testdata/bfcl/v4", "simple_python_1", "--run", "run-2"]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(shown.stdout.contains("\nrun run-2 (acme_big-70b): failed\n"), "{}", shown.stdout);
}
