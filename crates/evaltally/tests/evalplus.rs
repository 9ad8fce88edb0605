//! EvalPlus results: each sample index in a file is a run, on the fixture (one model's
//! HumanEval+ samples raw and sanitized, and its MBPP+ samples) through every command, and
//! damaged files whose broken tasks and samples are said and counted apart.

mod common;

use common::{compact_json, evaltally, evaltally_in, report_data, session};
use evaltally_testkit::http::Serving;
use evaltally_testkit::workspace_root;
use serde_json::Value;

const RAW: &str = "testdata/evalplus/humaneval/acme--coder-7b_vllm_temp_0.8_eval_results.json";
const SANITIZED: &str = "testdata/evalplus/humaneval/acme--coder-7b_vllm_temp_0.8-sanitized_eval_results.json";
const MBPP: &str = "testdata/evalplus/mbpp/acme--coder-7b_vllm_temp_0.8_eval_results.json";

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", "testdata/evalplus"],
        &["compare", "--base", RAW, "--new", SANITIZED],
        &["show", RAW, "HumanEval/3"],
        &["show", MBPP, "Mbpp/4", "--run", "acme--coder-7b_vllm_temp_0.8_eval_results#sample-1"],
        &["export", RAW],
        &["validate", "testdata/evalplus"],
        &["trend", "testdata/evalplus/humaneval"],
    ]);
    insta::assert_snapshot!(out);

    // The report's page: the heatmap of both HumanEval+ files and MBPP+.
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("report.html");
    let report = evaltally(&["report", "testdata/evalplus", "-o", page.to_str().unwrap()]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let data = report_data(&std::fs::read_to_string(&page).unwrap());
    insta::assert_snapshot!("report_data", compact_json(&data));
}

/// Each sample index is a run; a task with fewer samples did not run in the later ones; the
/// labels name the rule that failed.
#[test]
fn samples_are_runs_and_failures_name_their_rule() {
    let run = evaltally(&["stability", RAW, MBPP, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], "acme/coder-7b");
    let runs: Vec<String> = (0..3).map(|i| format!("acme--coder-7b_vllm_temp_0.8_eval_results#sample-{i}")).collect();
    assert_eq!(model["runs"], serde_json::json!(runs));
    let outcomes = |c: &Value| -> Vec<(String, String)> {
        c["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["id"].as_str().unwrap().to_string(), t["outcomes"].as_str().unwrap().to_string()))
            .collect()
    };
    let he = &model["categories"][0];
    assert_eq!(he["category"], "HumanEval+");
    let want = [
        ("HumanEval/0", "PPP"),
        ("HumanEval/1", "PFP"),
        ("HumanEval/2", "FFF"),
        ("HumanEval/3", "FP-"),
        ("HumanEval/4", "FFF"),
    ];
    assert_eq!(outcomes(he), want.map(|(a, b)| (a.to_string(), b.to_string())));
    assert_eq!(
        (he["total"].as_u64(), he["stable_pass"].as_u64(), he["flaky"].as_u64(), he["stable_fail"].as_u64()),
        (Some(5), Some(1), Some(2), Some(2))
    );
    assert_eq!(he["correct"], serde_json::json!([2, 2, 2]));
    let mbpp = &model["categories"][1];
    assert_eq!(mbpp["category"], "MBPP+");
    assert_eq!(mbpp["correct"], serde_json::json!([1, 2, 2]));

    let export = evaltally(&["export", RAW, MBPP]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let labels: Vec<String> = export
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v["error_type"].as_str().map(|e| format!("{} {e}", v["id"].as_str().unwrap())))
        .collect();
    for want in [
        "HumanEval/1 plus_fail",
        "HumanEval/2 base_fail",
        "HumanEval/2 base_timeout",
        "HumanEval/3 plus_timeout",
        "Mbpp/6 base_timeout",
    ] {
        assert!(labels.iter().any(|l| l == want), "{want}: {labels:?}");
    }
    assert_eq!(export.stdout.lines().count(), 14 + 12, "every sample of every task");
    assert!(export.stdout.contains("\"prompt_sha\":\"fe585eb4df8c88d844eeb463ea4d0302\""), "{}", export.stdout);
}

/// `push` stores the fixture's folders and `stability` on the store names counts what it
/// counts on the folders; `serve` answers with the same runs, and its test view gives each
/// sample's program as `show` does.
#[test]
fn pushed_and_served_as_read() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let root = workspace_root();
    let push = evaltally_in(&root, &["push", "testdata/evalplus/humaneval", "testdata/evalplus/mbpp"], &env);
    assert_eq!(push.code, 0, "{}", push.stderr);
    assert_eq!(
        push.stdout,
        "pushed testdata/evalplus/humaneval as store:humaneval\npushed testdata/evalplus/mbpp as store:mbpp\n"
    );
    let models = |args: &[&str]| -> Value {
        let run = evaltally_in(&root, args, &env);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        serde_json::from_str::<Value>(&run.stdout).unwrap()["models"].clone()
    };
    let stored = models(&["stability", "store:humaneval", "store:mbpp", "--format", "json"]);
    assert_eq!(stored, models(&["stability", "testdata/evalplus", "--format", "json"]));

    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let server = Serving::start(
        std::path::Path::new(env!("CARGO_BIN_EXE_evaltally")),
        &root,
        &["testdata/evalplus"],
        &[("EVALTALLY_CACHE", cache.to_str().unwrap())],
    );
    assert!(server.wait_line("load 1:", std::time::Duration::from_mins(1)).is_some(), "the first load ends");
    let summary = server.get("/api/summary?model=acme%2Fcoder-7b").json();
    evaltally_testkit::schema::assert_valid(&summary, "/api/summary");
    let classes = |doc: &Value| -> Vec<(String, Vec<u64>)> {
        doc["categories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let counts = ["total", "stable_pass", "flaky", "stable_fail"].map(|k| c[k].as_u64().unwrap());
                (c["category"].as_str().unwrap().to_string(), counts.to_vec())
            })
            .collect()
    };
    let (served, counted) = (classes(&summary), classes(&stored[0]));
    assert_eq!(served, counted, "{summary}");
    let test = server.get("/api/test?model=acme%2Fcoder-7b&id=HumanEval%2F3").json();
    evaltally_testkit::schema::assert_valid(&test, "/api/test");
    let show = evaltally(&["show", "testdata/evalplus", "HumanEval/3", "--format", "json"]);
    let show: Value = serde_json::from_str(&show.stdout).unwrap();
    assert_eq!(test["show"]["runs"], show["runs"]);
    let answers: Vec<&str> = show["runs"].as_array().unwrap().iter().filter_map(|r| r["answer"].as_str()).collect();
    assert_eq!(answers.len(), 5, "every sample of HumanEval/3 in both files has its program: {show}");
    assert!(answers.iter().all(|a| a.contains("def ")), "{answers:?}");
}

/// `--as evalplus` reads a copy renamed by hand; without it, the copy is not read.
#[test]
fn renamed_copies_are_read_with_as() {
    let one = "testdata/shapes/evalplus/renamed-copy/acme-mini/1.json";
    let two = "testdata/shapes/evalplus/renamed-copy/acme-mini/2.json";
    let plain = evaltally(&["stability", one, two]);
    assert_eq!(plain.code, 2, "{}", plain.stderr);
    // Found in a folder, each is said to be EvalPlus's under another name.
    let found = evaltally(&["--verbose", "stability", "testdata/shapes/evalplus/renamed-copy"]);
    assert_eq!(found.code, 2, "{}", found.stderr);
    for file in [one, two] {
        let said = format!(
            "{file}: note: not read: has the fields of EvalPlus results under a name its writer does not give; `--as evalplus` reads it"
        );
        assert!(found.stderr.lines().any(|l| l == said), "{said}\n{}", found.stderr);
    }
    let run = evaltally(&["stability", one, two, "--as", "evalplus", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["models"][0]["model"], "acme-mini");
    assert_eq!(doc["models"][0]["runs"], serde_json::json!(["1#sample-0", "2#sample-0"]));
    let formats = evaltally(&["formats"]);
    assert!(formats.stdout.contains("\nevalplus (also humaneval-plus, mbpp-plus)\n"), "{}", formats.stdout);
}

#[test]
fn damaged_tasks_and_samples_are_said_and_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"{"date": "2024-09-01 10:15", "hash": "fe58", "eval": {
 "HumanEval/0": [{"task_id": "HumanEval/0", "solution": "s", "base_status": "pass", "plus_status": "pass", "base_fail_tests": [], "plus_fail_tests": []},
                 {"task_id": "HumanEval/0", "solution": "s", "base_status": "crashed", "plus_status": "pass", "base_fail_tests": [], "plus_fail_tests": []}],
 "HumanEval/1": [7, {"task_id": "HumanEval/9", "solution": "s", "base_status": "pass", "plus_status": "fail", "base_fail_tests": [], "plus_fail_tests": [[1]]}],
 "HumanEval/2": "passed",
 "HumanEval/3": [],
 "HumanEval/4": [{"task_id": "HumanEval/4", "solution": "s", "base_status": "pass", "plus_status": null, "base_fail_tests": [], "plus_fail_tests": []}],
 "HumanEval/5": [{"task_id": "HumanEval/5", "solution": "s", "base_status": "pass", "base_status": "fail", "plus_status": "pass", "base_fail_tests": [], "plus_fail_tests": []}]}}"#;
    std::fs::write(dir.path().join("acme_vllm_temp_0.8_eval_results.json"), text).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", "acme_vllm_temp_0.8_eval_results.json", "--verbose"], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "acme_vllm_temp_0.8_eval_results.json"], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}{}", stability.stderr, validate.stdout);
    for said in [
        "task HumanEval/0, sample 1: `base_status` \"crashed\" is not a status EvalPlus writes; not judged",
        "task HumanEval/1, sample 0: expected an object with `base_status`, found a number; counted unscored",
        "task HumanEval/1, sample 1: `task_id` is \"HumanEval/9\"; read as task HumanEval/1",
        "task HumanEval/2: expected a list of samples or an object with `base`, found a string; counted unscored",
        "task HumanEval/3: no samples; counted unscored",
        "task HumanEval/4, sample 0: passed the base tests but has no plus verdict, while the file's plus tests ran; not judged",
        "key `base_status` appears again in the same object",
        "3 tests only unscored",
    ] {
        assert!(
            stability.stderr.contains(said) || stability.stdout.contains(said),
            "{said}\n{}",
            stability.transcript()
        );
    }
    insta::assert_snapshot!(format!("{}\n{}", stability.transcript(), validate.transcript()));
}
