//! lm-evaluation-harness sample logs: a samples file is a run of its task; the model comes
//! from the results file beside it.

mod common;

use common::{evaltally, evaltally_in, session};
use evaltally_testkit::refdata;

#[test]
fn fixture_runs_through_stability_show_and_validate() {
    let out = session(&[
        &["stability", "testdata/lmeval"],
        &["show", "testdata/lmeval", "1"],
        &["validate", "testdata/lmeval"],
        &["trend", "testdata/lmeval"],
    ]);
    let json = evaltally(&["stability", "testdata/lmeval", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let c = &doc["models"][0]["categories"][0];
    assert_eq!(doc["models"][0]["model"], "acme-7b");
    assert_eq!(
        (c["stable_pass"].as_u64(), c["flaky"].as_u64(), c["stable_fail"].as_u64()),
        (Some(1), Some(2), Some(1))
    );
    insta::assert_snapshot!(out);
}

#[test]
fn damaged_lines_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let lines = "{\"doc_id\": 0, \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_match\": 1.0}\n\
                 {\"doc_id\": 1, \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_match\": \"x\"}\n\
                 {\"doc_id\": 2, \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_\n\
                 {\"doc_id\": 0, \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_match\": 0.0}\n\
                 {\"doc_id\": 3, \"filter\": \"none\", \"metrics\": [\"exact_match\"], \"exact_match\": 0.0, \"exact_match\": 1.0}\n";
    std::fs::write(dir.path().join("samples_t_2026-01-01T00-00-00.jsonl"), lines).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", "."], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}{}", stability.stderr, validate.stdout);
    assert!(stability.stderr.contains("samples_t_2026-01-01T00-00-00.jsonl:3:"), "{}", stability.stderr);
    assert!(
        stability.stderr.contains(":5:") && stability.stderr.contains("key `exact_match` appears twice"),
        "{}",
        stability.stderr
    );
    insta::assert_snapshot!(format!("{}\n{}", stability.transcript(), validate.transcript()));
}

#[test]
fn refdata_samples_have_the_provenance_counts() {
    let Some(dir) = refdata("evals/every_eval_ever/tests/data/lm_eval") else { return };
    let run = evaltally(&["stability", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "RylanSchaeffer/mem_Qwen3-93M_minerva_math_rep_0_sbst_1.0000_epch_1_ot_1");
    // 10 lines, 10 distinct (doc_id, filter) keys, filter `none`, exact_match 0.0 on every one.
    let c = &model["categories"][0];
    assert_eq!(
        (c["category"].as_str(), c["total"].as_u64(), c["stable_fail"].as_u64()),
        (Some("math_perturbed_full"), Some(10), Some(10))
    );
}

/// A greedy model's reruns write samples files byte for byte alike, each beside its own
/// results file: they are runs, each read. A folder copied whole (samples and results
/// alike) is one run saved twice: read once, and said.
#[test]
fn identical_samples_of_reruns_are_runs_and_a_copied_folder_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = evaltally_testkit::workspace_root().join("testdata/lmeval");
    let samples = std::fs::read(fixture.join("samples_arith_2026-01-01T00-00-00.000000.jsonl")).unwrap();
    let results = std::fs::read_to_string(fixture.join("results_2026-01-01T00-00-00.000000.json")).unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    for (date, unix) in [("2026-01-01T00-00-00.000000", "1767225600.0"), ("2026-01-03T00-00-00.000000", "1767398400.0")]
    {
        std::fs::write(run.join(format!("samples_arith_{date}.jsonl")), &samples).unwrap();
        // The results file of each run has its own date, as lm-eval writes it.
        let own = results.replace("1767225600.0", unix);
        std::fs::write(run.join(format!("results_{date}.json")), own).unwrap();
    }
    let reruns = evaltally_in(dir.path(), &["stability", "run", "--format", "json"], &[]);
    assert_eq!(reruns.code, 0, "{}", reruns.stderr);
    assert!(!reruns.stderr.contains("same bytes"), "{}", reruns.stderr);
    let doc: serde_json::Value = serde_json::from_str(&reruns.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().map(Vec::len), Some(2), "{doc}");

    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    for entry in std::fs::read_dir(&run).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let both = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert!(
        both.stderr.contains(
            "run/samples_arith_2026-01-01T00-00-00.000000.jsonl: warning: the same bytes as `./copy/samples_arith_"
        ),
        "{}",
        both.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&both.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().map(Vec::len), Some(2), "{doc}");
}

/// A model's runs of one task with different few-shot counts (the results files' `n-shot`)
/// posed different prompts: they are not repeats, so each count is a category of its own,
/// said once, and no test flips between them. `--category` takes the task's name (both
/// setups) or a setup's. Each side of a `compare` holds one setup, so its task keeps its
/// name and the two sides line up.
#[test]
fn runs_of_two_few_shot_counts_are_two_categories() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = evaltally_testkit::workspace_root().join("testdata/lmeval");
    for (date, shots) in [("2026-01-01T00-00-00.000000", 0), ("2026-01-02T00-00-00.000000", 5)] {
        let samples = std::fs::read(fixture.join(format!("samples_arith_{date}.jsonl"))).unwrap();
        std::fs::write(dir.path().join(format!("samples_arith_{date}.jsonl")), samples).unwrap();
        let results = format!(
            "{{\"results\": {{\"arith\": {{}}}}, \"n-shot\": {{\"arith\": {shots}}}, \"model_name\": \"acme-7b\"}}"
        );
        std::fs::write(dir.path().join(format!("results_{date}.json")), results).unwrap();
    }
    let run = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let categories: Vec<(&str, u64)> = doc["models"][0]["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["category"].as_str().unwrap(), c["flaky"].as_u64().unwrap()))
        .collect();
    assert_eq!(categories, [("arith (0-shot)", 0), ("arith (5-shot)", 0)], "{doc}");
    assert_eq!(
        run.stderr.trim_end(),
        "./samples_arith_2026-01-02T00-00-00.000000.jsonl: warning: the runs of `arith` by `acme-7b` were run with 2 \
         setups, so they are not repeats of each other: each setup is read as a category of its own, `arith (0-shot)` \
         and `arith (5-shot)`\n1 warning, 0 errors"
    );
    let strict = evaltally_in(dir.path(), &["stability", ".", "--strict"], &[]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);

    let both = evaltally_in(dir.path(), &["stability", ".", "--category", "arith", "--format", "json"], &[]);
    let one = evaltally_in(dir.path(), &["stability", ".", "--category", "arith (5-shot)", "--format", "json"], &[]);
    let count = |out: &common::Run| {
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        doc["models"][0]["categories"].as_array().map(Vec::len)
    };
    assert_eq!((count(&both), count(&one)), (Some(2), Some(1)), "{}{}", both.stderr, one.stderr);

    let compare = evaltally_in(
        dir.path(),
        &[
            "compare",
            "samples_arith_2026-01-01T00-00-00.000000.jsonl",
            "samples_arith_2026-01-02T00-00-00.000000.jsonl",
            "--format",
            "json",
        ],
        &[],
    );
    let doc: serde_json::Value = serde_json::from_str(&compare.stdout).unwrap();
    assert_eq!(doc["models"][0]["categories"][0]["category"], "arith", "{doc}");
}

/// A results file that cannot be used (no JSON object, not JSON) is said in a warning
/// naming it, as the samples beside it are then read as model `unknown`; it was dropped
/// without a word.
#[test]
fn a_results_file_that_cannot_be_used_is_said() {
    let dir = tempfile::tempdir().unwrap();
    evaltally_testkit::copy_folder(&evaltally_testkit::testdata("lmeval"), dir.path());
    for (text, why) in [("[]", "is no JSON object"), ("{\"model_name\": ", "not valid JSON")] {
        std::fs::write(dir.path().join("results_2026-01-02T00-00-00.000000.json"), text).unwrap();
        let run = evaltally_in(dir.path(), &["stability", "."], &[]);
        let said = format!("./results_2026-01-02T00-00-00.000000.json: warning: lm-eval's results file {why}");
        assert!(run.stderr.contains(&said), "{said:?} in\n{}", run.stderr);
        assert!(run.stderr.contains("the samples beside it are read as model `unknown`"), "{}", run.stderr);
    }
}
