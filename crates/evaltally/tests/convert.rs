//! `evaltally convert`: SF-Bench v1 files to v2.

mod common;

use common::{evaltally, evaltally_in};

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
    assert_eq!(run.stdout, format!("wrote {out} (sfbench-v2)\n"));
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

#[test]
fn bfcl_run_to_gstack_maps_every_field() {
    let run = evaltally(&["convert", "testdata/bfcl/v4/run-2", "--to", "gstack", "--model", "acme_tiny-7b"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["schema_version"], 1);
    assert_eq!(doc["label"], "run-2");
    // run-2 lists 28 tests of acme_tiny-7b (simple_python_7 did not run there); 16 pass
    // (3 irrelevance, 4 live_simple, 1 memory_kv, 1 multi_turn_base, 7 simple_python).
    assert_eq!((doc["total"].as_u64(), doc["passed"].as_u64()), (Some(28), Some(16)));
    let crash = doc["all_results"].as_array().unwrap().iter().find(|t| t["name"] == "multi_turn_base_1").unwrap();
    assert_eq!(crash["suite"], "multi_turn_base");
    assert_eq!(crash["passed"], false);
    assert!(crash["error"].as_str().unwrap().starts_with("multi_turn:inference_error"));
    assert_eq!(doc["costs"][0]["model"], "acme_tiny-7b");
    insta::assert_snapshot!(run.stderr);
}

#[test]
fn several_runs_need_a_choice() {
    let run = evaltally(&["convert", "testdata/bfcl/v4", "--to", "swebench"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("holds 5 runs"), "{}", run.stderr);
    let picked =
        evaltally(&["convert", "testdata/bfcl/v4", "--to", "swebench", "--run", "run-10", "-m", "acme_big-70b"]);
    assert_eq!(picked.code, 0, "{}", picked.stderr);
    let doc: serde_json::Value = serde_json::from_str(&picked.stdout).unwrap();
    assert_eq!(doc["resolved_ids"], serde_json::json!(["simple_python_0", "simple_python_1", "simple_python_3"]));
}

#[test]
fn swebench_run_to_sfbench_v2_validates() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.json");
    let run = evaltally(&[
        "convert",
        "testdata/swebench/runs/acme-agent-1.5.run-3.json",
        "--to",
        "sfbench-v2",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = evaltally(&["validate", out.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&v.stdout).unwrap();
    assert_eq!(doc["files"][0]["format"], "sfbench-v2");
    assert_eq!(doc["files"][0]["errors"], serde_json::json!([]), "{}", v.stdout);
    // Same outcomes read back.
    let back = evaltally(&["stability", out.to_str().unwrap(), "--format", "json"]);
    let orig = evaltally(&["stability", "testdata/swebench/runs/acme-agent-1.5.run-3.json", "--format", "json"]);
    let passed = |s: &str| -> u64 {
        let d: serde_json::Value = serde_json::from_str(s).unwrap();
        d["models"][0]["categories"].as_array().unwrap().iter().map(|c| c["correct"][0].as_u64().unwrap()).sum()
    };
    assert_eq!(passed(&back.stdout), passed(&orig.stdout));
}

/// `evaltally export` of `path` as (category, id, outcome, error type, duration, tokens)
/// rows, the fields every round trip must keep.
fn exported(path: &str, extra: &[&str]) -> Vec<(String, String, String, String, String)> {
    let mut args = vec!["export", path];
    args.extend_from_slice(extra);
    let run = evaltally(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let s = |k: &str| v[k].to_string();
            (
                s("category"),
                s("id"),
                s("outcome"),
                s("error_type"),
                format!("{} {} {}", v["duration_ms"], v["input_tokens"], v["output_tokens"]),
            )
        })
        .collect()
}

fn convert_to(target: &str, file: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(file).to_str().unwrap().to_string();
    let run = evaltally(&["convert", "testdata/bfcl/v4/run-2", "--model", "acme_tiny-7b", "--to", target, "-o", &out]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    (dir, out)
}

#[test]
fn bfcl_run_to_junit_reads_back_test_for_test() {
    let (_dir, xml) = convert_to("junit", "run-2.xml");
    let back = exported(&xml, &[]);
    let mut orig = exported("testdata/bfcl/v4/run-2", &["--model", "acme_tiny-7b"]);
    // JUnit reporters need a `time`: an unknown duration is written (and read back) as 0.
    for row in &mut orig {
        row.4 = row.4.replacen("null", "0.0", 1);
    }
    assert_eq!(back.len(), 28);
    assert_eq!(back, orig, "outcomes, error types, durations and tokens survive JUnit");
    // And the analyses see the same run: same model and run name, from the properties.
    let stab = evaltally(&["stability", &xml, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&stab.stdout).unwrap();
    assert_eq!(doc["models"][0]["model"], "acme_tiny-7b", "{}", stab.stdout);
}

#[test]
fn bfcl_run_to_gstack_validates_with_gstacks_rules_in_both_shapes() {
    for (target, format) in [("gstack", "gstack"), ("gstack-legacy", "gstack-legacy")] {
        let (_dir, out) = convert_to(target, "result.json");
        let v = evaltally(&["validate", "--strict", &out, "--format", "json"]);
        assert_eq!(v.code, 0, "{target}: {}", v.stdout);
        let doc: serde_json::Value = serde_json::from_str(&v.stdout).unwrap();
        assert_eq!(doc["files"][0]["format"], format);
        let text = std::fs::read_to_string(&out).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let standard = if target == "gstack" { value } else { evaltally_gstack::normalize::from_legacy(&value) };
        assert_eq!(evaltally_gstack::validate(&standard), [], "{target}: gstack's own validator accepts it");
        let ids: Vec<_> = exported(&out, &[]).into_iter().map(|(_, id, outcome, ..)| (id, outcome)).collect();
        // gstack has no errored outcome: an inference crash is written as a failure.
        let orig: Vec<_> = exported("testdata/bfcl/v4/run-2", &["--model", "acme_tiny-7b", "--errors-as", "fail"])
            .into_iter()
            .map(|(_, id, outcome, ..)| (id, outcome))
            .collect();
        assert_eq!(ids, orig, "{target}: every test reads back with its outcome");
    }
}

#[test]
fn every_target_output() {
    for target in ["junit", "gstack-legacy", "gstack", "swebench", "sfbench-v2"] {
        let run = evaltally(&["convert", "testdata/bfcl/v4/run-2", "--model", "acme_tiny-7b", "--to", target]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        insta::assert_snapshot!(format!("bfcl_run_to_{}", target.replace('-', "_")), run.transcript());
    }
}

/// Per-category (passed, failed) counts of `evaltally stability --format json` on `args`.
fn category_counts(args: &[&str]) -> Vec<(String, u64, u64)> {
    let mut all = vec!["stability", "--format", "json"];
    all.extend_from_slice(args);
    let run = evaltally(&all);
    assert_ne!(run.code, 2, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut out = Vec::new();
    for model in doc["models"].as_array().unwrap() {
        for cat in model["categories"].as_array().unwrap() {
            out.push((
                cat["category"].as_str().unwrap().to_string(),
                cat["stable_pass"].as_u64().unwrap(),
                cat["stable_fail"].as_u64().unwrap(),
            ));
        }
    }
    out
}

#[test]
fn refdata_bfcl_run_to_gstack_validates_and_to_junit_keeps_the_counts() {
    let Some(root) = evaltally_testkit::refdata("bfcl/bbrowning-bfcl-vllm-results/results/v0.11.0") else { return };
    let root = root.to_str().unwrap();
    let model = "openai_gpt-oss-120b";
    let dir = tempfile::tempdir().unwrap();
    let gstack = dir.path().join("gstack.json");
    let junit = dir.path().join("junit.xml");
    for (target, out) in [("gstack", &gstack), ("junit", &junit)] {
        let run = evaltally(&["convert", root, "--model", model, "--to", target, "-o", out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{target}: {}", run.stderr);
    }
    let text = std::fs::read_to_string(&gstack).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(evaltally_gstack::validate(&value), [], "gstack's validator accepts the converted run");
    let strict = evaltally(&["validate", "--strict", gstack.to_str().unwrap()]);
    assert_eq!(strict.code, 0, "{}", strict.stdout);

    // One run: every test is a stable pass or a stable fail, so these are the run's counts.
    let orig = category_counts(&[root, "--model", model]);
    assert!(orig.iter().map(|(_, p, f)| p + f).sum::<u64>() > 1000, "{orig:?}");
    assert_eq!(category_counts(&[junit.to_str().unwrap()]), orig, "JUnit reads back with the same counts");
    // gstack has no errored outcome: the run's one inference crash reads back as a failure.
    let official = category_counts(&[root, "--model", model, "--errors-as", "fail"]);
    assert_ne!(official, orig);
    assert_eq!(category_counts(&[gstack.to_str().unwrap()]), official, "gstack reads back with the official counts");
}

/// gstack's own normalizer outputs (saved from its code in the shared reference data) come
/// out of `convert` byte for byte, and a gstack file pushed, listed and converted back to its
/// own shape is the file that was pushed.
#[test]
fn gstack_oracles_pass_through_convert_byte_for_byte() {
    let Some(dir) = evaltally_testkit::refdata("gstack/garrytan-gstack") else { return };
    let cases = [
        ("legacy-makeLegacy.from-test-lib-eval-format.json", "gstack", "derived.normalizeFromLegacy.makeLegacy.json"),
        (
            "standard-example.from-docs-eval-result-format.json",
            "gstack-legacy",
            "derived.normalizeToLegacy.docs-example.json",
        ),
        (
            "standard-minimal-valid.from-test-lib-eval-cli.json",
            "gstack-legacy",
            "derived.normalizeToLegacy.minimal-valid.json",
        ),
    ];
    for (input, to, oracle) in cases {
        let input = dir.join(input);
        let run = evaltally(&["convert", input.to_str().unwrap(), "--to", to]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout, std::fs::read_to_string(dir.join(oracle)).unwrap(), "{oracle}");
    }

    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let work = tempfile::tempdir().unwrap();
    let original = std::fs::read_to_string(dir.join("legacy-makeLegacy.from-test-lib-eval-format.json")).unwrap();
    std::fs::write(work.path().join("night.json"), &original).unwrap();
    let pushed = evaltally_in(work.path(), &["push", "night.json"], &env);
    assert_eq!(pushed.code, 0, "{}", pushed.stderr);
    let listed = evaltally_in(work.path(), &["runs"], &env);
    assert!(listed.stdout.contains("night"), "{}", listed.stdout);
    let back = evaltally_in(work.path(), &["convert", "store:night", "--to", "gstack-legacy"], &env);
    assert_eq!(back.code, 0, "{}", back.stderr);
    assert_eq!(back.stdout, original, "the pushed legacy file converts back to itself");
    let standard = evaltally_in(work.path(), &["convert", "store:night", "--to", "gstack"], &env);
    assert_eq!(
        standard.stdout,
        std::fs::read_to_string(dir.join("derived.normalizeFromLegacy.makeLegacy.json")).unwrap()
    );
}

/// A run of another format written as gstack keeps what it records about itself.
#[test]
fn junit_to_gstack_keeps_the_run_metadata() {
    let run = evaltally(&["convert", "testdata/junit/evals-properties.xml", "--to", "gstack"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((doc["hostname"].as_str(), doc["timestamp"].as_str()), (Some("ci"), Some("2025-07-18T10:00:00.000Z")));
    assert!(run.stderr.contains("git_branch, git_sha: not in the source"), "{}", run.stderr);
    assert!(!run.stderr.contains("hostname"), "{}", run.stderr);
}

/// Runs of one name and model that only their files tell apart (lm-eval writes one samples
/// file per task, all of one date) are said with those files, which convert one by one.
#[test]
fn runs_only_their_files_tell_apart_name_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = evaltally_testkit::workspace_root().join("testdata/lmeval");
    for name in ["results_2026-01-01T00-00-00.000000.json", "samples_arith_2026-01-01T00-00-00.000000.jsonl"] {
        std::fs::copy(root.join(name), dir.path().join(name)).unwrap();
    }
    let arith = std::fs::read_to_string(root.join("samples_arith_2026-01-01T00-00-00.000000.jsonl")).unwrap();
    std::fs::write(
        dir.path().join("samples_geo_2026-01-01T00-00-00.000000.jsonl"),
        arith.replace("\"doc_id\": 0", "\"doc_id\": 7"),
    )
    .unwrap();
    let both = evaltally_in(dir.path(), &["convert", ".", "--to", "gstack"], &[]);
    assert_eq!(both.code, 2);
    assert!(
        both.stderr.contains(
            "holds 2 runs named 2026-01-01T00-00-00.000000 of acme-7b, each from a file of its own: \
             ./samples_arith_2026-01-01T00-00-00.000000.jsonl, ./samples_geo_2026-01-01T00-00-00.000000.jsonl; \
             give one of those files as IN"
        ),
        "{}",
        both.stderr
    );
    let one =
        evaltally_in(dir.path(), &["convert", "samples_geo_2026-01-01T00-00-00.000000.jsonl", "--to", "gstack"], &[]);
    assert_eq!(one.code, 0, "{}", one.stderr);
}

/// A run none of whose tests was judged (BFCL results without their score files) converts
/// to a document that says nothing of outcomes: a warning and exit 1, not silence.
#[test]
fn a_run_with_no_judged_test_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run-1");
    evaltally_testkit::copy_folder(
        &evaltally_testkit::workspace_root().join("testdata/bfcl/v4/run-1/result"),
        &run.join("result"),
    );
    let out = evaltally(&["convert", run.to_str().unwrap(), "--to", "gstack"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("warning: the run has no test judged pass, fail or errored"), "{}", out.stderr);
    assert!(
        out.stderr.contains("tests that did not run or were not scored: gstack has no such state; left out"),
        "{}",
        out.stderr
    );
}

/// A run whose time is its own timestamp (EvalPlus's `date`), not a start, keeps it: it was
/// "not in the source; written as 1970-01-01T00:00:00Z".
#[test]
fn evalplus_to_gstack_keeps_the_date() {
    let file = "testdata/evalplus/humaneval/acme--coder-7b_vllm_temp_0.8_eval_results.json";
    let run =
        evaltally(&["convert", file, "--to", "gstack", "--run", "acme--coder-7b_vllm_temp_0.8_eval_results#sample-0"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["timestamp"].as_str(), Some("2024-09-01T10:15"));
    assert!(!run.stderr.contains("timestamp"), "{}", run.stderr);
}

/// What to pick among several runs, or where `--run` names none, is said with the runs
/// there are; `-o` a folder is refused with a reason.
#[test]
fn picking_a_run_is_said_with_the_runs_there_are() {
    let several = evaltally(&["convert", "testdata/bfcl/v4", "--to", "junit"]);
    assert_eq!(several.code, 2);
    assert!(several.stderr.contains("holds 5 runs: run-2 (acme_big-70b), "), "{}", several.stderr);
    assert!(several.stderr.contains("pick one with --run NAME and --model M"), "{}", several.stderr);
    let none = evaltally(&["convert", "testdata/inspect", "--to", "junit", "--run", "epoch-1"]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr.contains("no run to convert in testdata/inspect; its runs: arith#epoch-1, "),
        "{}",
        none.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let folder = evaltally(&[
        "convert",
        "testdata/gstack/standard/nightly-1.json",
        "--to",
        "junit",
        "-o",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(folder.code, 2);
    assert!(folder.stderr.contains("a folder; give a file name in it"), "{}", folder.stderr);
}
