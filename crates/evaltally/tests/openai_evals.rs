//! OpenAI Evals output items: each run id in a JSONL file is a run; on the fixture and on
//! the files promptfoo's importer is tested with, in the shared reference data (with the
//! counts its PROVENANCE.md gives).

mod common;

use common::{evaltally, evaltally_in, session};
use evaltally_testkit::refdata;

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", "testdata/openai-evals"],
        &["show", "testdata/openai-evals", "3"],
        &["validate", "testdata/openai-evals"],
        &["trend", "testdata/openai-evals"],
    ]);
    insta::assert_snapshot!(out);

    let json = evaltally(&["stability", "testdata/openai-evals", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "gpt-4.1-mini");
    assert_eq!(model["runs"], serde_json::json!(["evalrun_a", "evalrun_b", "evalrun_c"]));
    let c = &model["categories"][0];
    assert_eq!(c["category"], "eval_support_triage");
    // 0 always passes, 1 fails one criterion in evalrun_b, 2 never passes, 3 errored in
    // evalrun_b (judged nothing there: a stable pass), 4 is unscored in evalrun_c and passes
    // elsewhere.
    assert_eq!(
        (c["total"].as_u64(), c["stable_pass"].as_u64(), c["flaky"].as_u64(), c["stable_fail"].as_u64()),
        (Some(5), Some(3), Some(1), Some(1))
    );
    assert_eq!(c["with_errors"], 1);
    let tests: Vec<(&str, &str)> = c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect();
    assert_eq!(tests, [("0", "PPP"), ("1", "PFP"), ("2", "FFF"), ("3", "PEP"), ("4", "PP-")]);

    let export = evaltally(&["export", "testdata/openai-evals"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert_eq!(export.stdout.lines().count(), 15);
    assert_eq!(export.stdout.matches("\"outcome\":\"errored\",\"error_type\":\"sample_error\"").count(), 1);
    assert!(export.stdout.contains("\"error_message\":\"rate_limit_error: Rate limit reached for gpt-4.1-mini\""));
    assert!(export.stdout.contains("\"error_type\":\"failed:Label matches+Tool called\""));
}

#[test]
fn damaged_lines_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let lines = concat!(
        r#"{"run_id": "evalrun_x", "data_source_idx": 0, "passes": {"Match": true}}"#,
        "\n",
        r#"{"run_id": "evalrun_x", "data_source_idx": 1, "passes": {"Match": "yes"}}"#,
        "\n",
        r#"{"data_source_idx": 2, "passes": {"Match": true}}"#,
        "\n",
        r#"{"run_id": "evalrun_x", "data_source_idx": 3, "passes": {"Match": tru"#,
        "\n",
        r#"{"run_id": "evalrun_x", "data_source_idx": 0, "passes": {"Match": false}}"#,
        "\n",
        r#"{"run_id": "evalrun_x", "data_source_idx": 4, "passes": true}"#,
        "\n",
        r#"{"run_id": "evalrun_x", "data_source_idx": 5, "passes": {"Match": true, "Match": false}}"#,
        "\n",
    );
    std::fs::write(dir.path().join("items.jsonl"), lines).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", "."], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}{}", stability.stderr, validate.stdout);
    for said in [
        "items.jsonl:2: warning: run evalrun_x, item 1: criterion `Match`: expected true or false, found \"yes\"; read as failed",
        "items.jsonl:3: error: expected `run_id`, a string; line left out",
        "items.jsonl:4:",
        "items.jsonl:5: warning: run evalrun_x: item 0 listed again; the first is kept",
        "items.jsonl:6: error: run evalrun_x, item 4: expected `passes`",
        "items.jsonl:7:",
    ] {
        assert!(stability.stderr.contains(said), "{said}\n{}", stability.stderr);
    }
    insta::assert_snapshot!(format!("{}\n{}", stability.transcript(), validate.transcript()));
}

#[test]
fn refdata_items_have_the_provenance_counts() {
    let Some(dir) = refdata("evals/promptfoo/test/__fixtures__") else { return };
    let items = dir.join("openai-evals-items.jsonl");
    let run = evaltally(&["stability", items.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // 2 items, one run, no model named in the file.
    let model = &doc["models"][0];
    assert_eq!(
        (model["model"].as_str(), &model["runs"]),
        (Some("unknown"), &serde_json::json!(["evalrun_import_fixture"]))
    );
    let c = &model["categories"][0];
    assert_eq!(c["category"], "openai-evals");
    // passes [{Relevance T, Directness T, Tool called T}, {Relevance F, Directness T, Tool called T}].
    assert_eq!(c["correct"], serde_json::json!([1]));
    assert_eq!(c["listed"], serde_json::json!([2]));
    let export = evaltally(&["export", items.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = export.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!((lines[0]["id"].as_str(), lines[0]["outcome"].as_str()), (Some("10"), Some("pass")));
    assert_eq!(
        (lines[1]["id"].as_str(), lines[1]["outcome"].as_str(), lines[1]["error_type"].as_str()),
        (Some("3"), Some("fail"), Some("failed:Relevance"))
    );

    // Two runs in one file; the error run's sample errored, the other passes.
    let multi = dir.join("openai-evals-multi-run-items.jsonl");
    let run = evaltally(&["stability", multi.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "gpt-4.1");
    assert_eq!(model["runs"], serde_json::json!(["evalrun_error_fixture", "evalrun_pass_fixture"]));
    assert_eq!(model["categories"][0]["tests"][0]["outcomes"], "EP");
    let export = evaltally(&["export", multi.to_str().unwrap()]);
    let lines: Vec<serde_json::Value> = export.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines.iter().filter(|l| l["outcome"] == "errored").count(), 1, "one errored sample");
    assert_eq!(lines.iter().filter(|l| l["outcome"] == "pass").count(), 1, "one pass");
    let errored = lines.iter().find(|l| l["outcome"] == "errored").unwrap();
    assert_eq!(errored["run"], "evalrun_error_fixture");
    assert_eq!(errored["error_message"], "invalid_request_error: Response input item missing role");
    assert_eq!((lines[1]["input_tokens"].as_u64(), lines[1]["output_tokens"].as_u64()), (Some(8), Some(2)));

    let validate = evaltally(&["validate", items.to_str().unwrap(), multi.to_str().unwrap()]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
}

/// The classic `oaieval` record log: a `spec` line names model and eval, each sample's
/// `match` event judges it, a sample only sampled is unscored; damaged events are named by
/// line.
#[test]
fn record_logs_are_runs_of_their_spec() {
    let mut out = String::new();
    for args in [
        vec!["stability", "testdata/oaieval", "--top-flaky", "3"],
        vec!["show", "testdata/oaieval", "arith.dev.1"],
        vec!["validate", "testdata/oaieval"],
        vec!["trend", "testdata/oaieval"],
    ] {
        let run = evaltally(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        out.push_str("$ evaltally ");
        out.push_str(&args.join(" "));
        out.push('\n');
        out.push_str(&run.transcript());
    }
    insta::assert_snapshot!(out);
    let json = evaltally(&["stability", "testdata/oaieval", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(
        (model["model"].as_str(), model["categories"][0]["category"].as_str()),
        (Some("acme-7b"), Some("arith"))
    );
    let tests: Vec<(&str, &str)> = model["categories"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect();
    assert_eq!(tests, [("arith.dev.0", "PPP"), ("arith.dev.1", "PFP"), ("arith.dev.2", "FF-")]);

    let dir = tempfile::tempdir().unwrap();
    let log = "{\"spec\": {\"completion_fns\": [\"m\"], \"eval_name\": \"e.dev.v0\", \"base_eval\": \"e\", \"run_id\": \"r1\"}}\n\
               {\"run_id\": \"r1\", \"event_id\": 0, \"sample_id\": \"e.0\", \"type\": \"match\", \"data\": {\"correct\": true}}\n\
               {\"run_id\": \"r1\", \"event_id\": 1, \"sample_id\": \"e.1\", \"type\": \"match\", \"data\": {\"correct\": \"yes\"}}\n\
               {\"run_id\": \"r1\", \"event_id\": 2, \"sample_id\": \"e.0\", \"type\": \"match\", \"data\": {\"correct\": false}}\n\
               {\"run_id\": \"r1\", \"event_id\": 3, \"type\": \"match\", \"data\": {\"correct\": true}}\n\
               {\"run_id\": \"r1\", \"event_id\": 4, \"sample_id\": \"e.2\", \"type\": \"ma\n";
    std::fs::write(dir.path().join("r1.jsonl"), log).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", "r1.jsonl"], &[]);
    assert_eq!(stability.code, 1, "{}", stability.stderr);
    for said in [
        "r1.jsonl:3: error: sample e.1: expected `data.correct`, true or false, found \"yes\"; line left out",
        "r1.jsonl:4: warning: sample e.0 judged again; the first is kept",
        "r1.jsonl:5: error: expected an event with `sample_id`, a string; line left out",
        "r1.jsonl:6:",
    ] {
        assert!(stability.stderr.contains(said), "missing {said:?} in\n{}", stability.stderr);
    }
}

/// openai/evals' own scripts name record logs `.log`: such a log is read wherever it is, a
/// run that recorded no event is said to hold no tests, and the program's own logs beside
/// it are facts for `--verbose` and `validate`, never counted among the files not read.
#[test]
fn record_logs_named_log_are_read_and_other_logs_are_only_a_fact() {
    let dir = "testdata/shapes/openai-evals/record-log-dotlog";
    let quiet = evaltally(&["stability", dir, "--format", "json"]);
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    let doc: serde_json::Value = serde_json::from_str(&quiet.stdout).unwrap();
    assert_eq!(doc["models"][0]["model"], "gpt-4o-mini");
    assert_eq!(doc["models"][0]["overall"]["stable_pass"], 2);
    assert_eq!(
        quiet.stderr,
        format!(
            "{dir}/gpt-4o-mini-empty.log: warning: holds no tests: nothing in it to analyse\n1 warning, 0 errors\n"
        )
    );
    let verbose = evaltally(&["stability", dir, "--verbose"]);
    for log in ["stdout.log", "train.log"] {
        let said =
            format!("{dir}/{log}: info: not read: a program's log, not a result file of any format evaltally reads");
        assert!(verbose.stderr.contains(&said), "missing {said:?} in\n{}", verbose.stderr);
    }
    let validate = evaltally(&["validate", dir]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    // The two logs not read for one reason are one line; --verbose lists each.
    assert!(
        validate.stdout.contains(&format!(
            "{dir}/stdout.log: not read: a program's log, not a result file of any format evaltally reads (2 files like it: \
             also {dir}/train.log; --verbose lists them)\n"
        )),
        "{}",
        validate.stdout
    );
    let every = evaltally(&["validate", dir, "--verbose"]);
    assert!(every.stdout.contains(&format!("{dir}/train.log: not read\n  file: info: not read")), "{}", every.stdout);
    assert!(
        validate.stdout.ends_with("2 files: 2 valid, 0 invalid, 0 with warnings; 2 not read\n"),
        "{}",
        validate.stdout
    );
    // Named on its own, the record log is read, not refused as one JSON document.
    let one = evaltally(&["stability", &format!("{dir}/gpt-4o-mini-strategy.log"), "--format", "json"]);
    assert_eq!(one.code, 0, "{}", one.stderr);
}

/// A model-graded eval's samples are judged by a `metrics` score on its spec's own scale,
/// not by a `match` event: each stays unscored, and that is said once per file (a fact for
/// `--verbose` and `validate`) and per sample by `show`, with the score.
#[test]
fn model_graded_samples_are_unscored_and_say_their_score() {
    let dir = "testdata/shapes/openai-evals/record-log-modelgraded";
    let fact = "info: 3 samples judged only by a `metrics` event (a model-graded eval's score, on its spec's scale): \
                not read as a verdict, so unscored";
    let verbose = evaltally(&["stability", dir, "--verbose"]);
    assert!(verbose.stderr.contains(fact), "{}", verbose.stderr);
    assert!(evaltally(&["stability", dir]).stderr.is_empty());
    let validate = evaltally(&["validate", dir]);
    assert!(validate.stdout.contains(&format!("joke-funny.jsonl: file: {fact}\n")), "{}", validate.stdout);
    assert!(validate.stdout.ends_with("1 file: 1 valid, 0 invalid, 0 with warnings\n"), "{}", validate.stdout);
    let show = evaltally(&["show", dir, "joke-funny.dev.0", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&show.stdout).unwrap();
    let run = &doc["runs"][0];
    assert_eq!(run["status"], "unscored");
    assert_eq!(
        run["error_message"],
        "no `match` event judges it; its `metrics` event ({\"choice\":\"Yes\",\"score\":1.0}) is a model-graded \
         score, not read as a verdict"
    );
    assert_eq!(run["error_details"]["metrics"], serde_json::json!({"choice": "Yes", "score": 1.0}));
    let text = evaltally(&["show", dir, "joke-funny.dev.0"]);
    assert!(text.stdout.contains("\n  not judged: no `match` event judges it;"), "{}", text.stdout);
}
