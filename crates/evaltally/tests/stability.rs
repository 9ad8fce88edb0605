//! `evaltally stability`: every output format, `--out`, filters and exit codes, on the
//! golden fixtures in `testdata/bfcl/`.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use common::{evaltally, evaltally_in};
use evaltally_testkit::workspace_root;

#[test]
fn text_on_a_folder_of_runs() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/bfcl/v4"]).transcript());
}

#[test]
fn text_with_detail_adds_pass_k_and_precision() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/bfcl/v4", "--detail"]).transcript());
}

#[test]
fn json_on_a_folder_of_runs() {
    let run = evaltally(&["stability", "testdata/bfcl/v4", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let _: serde_json::Value = serde_json::from_str(&run.stdout).expect("stdout is one JSON document");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn markdown_on_a_folder_of_runs() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/bfcl/v4", "--format", "markdown"]).transcript());
}

#[test]
fn top_flaky_in_text_json_and_markdown() {
    let args = ["stability", "testdata/bfcl/v4", "--model", "acme_tiny-7b", "--top-flaky", "4"];
    let text = evaltally(&args);
    let markdown = evaltally(&[&args[..], &["--format", "markdown"]].concat());
    let json = evaltally(&[&args[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    // Pass rate 1/3 or 2/3 from 3 runs; ties broken by flip rate, then category and id.
    let top: Vec<(&str, &str)> = doc["models"][0]["top_flaky"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect();
    assert_eq!(
        top,
        [
            ("live_simple_2-1-0", "PFP"),
            ("live_simple_10-3-10", "FPF"),
            ("multi_turn_base_0", "PFP"),
            ("simple_python_2", "PFP")
        ]
    );
    insta::assert_snapshot!(format!("{}\n{}", text.transcript(), markdown.transcript()));
}

#[test]
fn top_flaky_0_lists_no_flaky_test_in_text() {
    let args = ["stability", "testdata/bfcl/v4", "--model", "acme_tiny-7b"];
    let by_default = evaltally(&args);
    let none = evaltally(&[&args[..], &["--top-flaky", "0"]].concat());
    assert_eq!((by_default.code, none.code), (0, 0));
    assert!(by_default.stdout.contains("flaky tests, least stable first"), "{}", by_default.stdout);
    assert!(!none.stdout.contains("least stable first"), "{}", none.stdout);
    // The counts stay.
    let row = |out: &str| out.lines().find(|l| l.starts_with("  simple_python ")).map(str::to_string);
    assert_eq!(row(&none.stdout), row(&by_default.stdout), "{}", none.stdout);
    assert!(row(&none.stdout).is_some(), "{}", none.stdout);
}

/// One run has no run-to-run figures, but `--detail` still gives BFCL's overall score.
#[test]
fn detail_of_one_run_gives_bfcl_score() {
    let args = ["stability", "testdata/bfcl/v4/run-2", "--model", "acme_tiny-7b", "--detail"];
    let text = evaltally(&args);
    let json = evaltally(&[&args[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let score = doc["models"][0]["bfcl"]["overall"].as_f64().expect("a BFCL score from one run");
    let line = format!("scoring categories not run, counted as 0 as BFCL does): {:.1}%", 100.0 * score);
    assert!(
        text.stdout.contains("  BFCL overall score (BFCL's weights; ") && text.stdout.contains(&line),
        "{}",
        text.stdout
    );
    assert!(!text.stdout.contains("pass^k"), "one run has no pass^k table: {}", text.stdout);
}

#[test]
fn text_with_warnings_and_errors_exits_1() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/bfcl/quirks"]).transcript());
}

#[test]
fn json_carries_warnings_and_errors_with_file_and_line() {
    let run = evaltally(&["stability", "testdata/bfcl/quirks", "--format", "json"]);
    assert_eq!(run.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    insta::assert_json_snapshot!(doc);
}

#[test]
fn markdown_lists_warnings_in_a_details_block() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/bfcl/quirks", "--format", "markdown"]).transcript());
}

#[test]
fn strict_turns_warnings_into_exit_1() {
    let lenient = evaltally(&["stability", "testdata/junit"]);
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
    assert!(lenient.stderr.contains("warning"), "the JUnit fixtures carry warnings: {}", lenient.stderr);
    let strict = evaltally(&["stability", "testdata/junit", "--strict"]);
    assert_eq!(strict.code, 1);
    assert_eq!(strict.stdout, lenient.stdout, "--strict changes the exit code only");
    let clean = evaltally(&["stability", "testdata/bfcl/pairs", "--strict"]);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    // What BFCL v1's writers always do (facts of the format) is no warning.
    let facts = evaltally(&["stability", "testdata/bfcl/v1", "--strict"]);
    assert_eq!((facts.code, facts.stderr.as_str()), (0, ""));
}

#[test]
fn several_paths_add_up_and_filters_narrow() {
    let run = evaltally(&[
        "stability",
        "testdata/bfcl/v4/run-1",
        "testdata/bfcl/v4/run-2",
        "--model",
        "acme_tiny-7b",
        "--category",
        "simple_python",
        "--category",
        "live_simple",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let models = doc["models"].as_array().unwrap();
    assert_eq!(models.len(), 1);
    assert_eq!(models[0]["runs"], serde_json::json!(["run-1", "run-2"]));
    let cats: Vec<&str> =
        models[0]["categories"].as_array().unwrap().iter().map(|c| c["category"].as_str().unwrap()).collect();
    assert_eq!(cats, ["live_simple", "simple_python"]);
    // simple_python over run-1 and run-2 only: P P / P P / P F / F F / P P / F f / P P / P - /
    // F P / P P / F F / P P  →  7 stable pass, 2 flaky, 3 stable fail.
    let sp = &models[0]["categories"][1];
    assert_eq!(
        (sp["total"].as_u64(), sp["stable_pass"].as_u64(), sp["flaky"].as_u64(), sp["stable_fail"].as_u64()),
        (Some(12), Some(7), Some(2), Some(3))
    );
    assert_eq!(sp["correct"], serde_json::json!([8, 7]));
}

#[test]
fn out_writes_the_three_id_files_atomically_per_model() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = evaltally(&["stability", "testdata/bfcl/v4", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut listing = String::new();
    for model in ["acme_big-70b", "acme_tiny-7b"] {
        for file in ["stable_tests.json", "flaky_tests.json", "failing_tests.json"] {
            let text = std::fs::read_to_string(out.join(model).join(file)).unwrap();
            let _ = write!(listing, "== {model}/{file}\n{text}");
        }
    }
    let mut names: Vec<String> = std::fs::read_dir(out.join("acme_tiny-7b"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["failing_tests.json", "flaky_tests.json", "stable_tests.json"],
        "no temporary files left behind"
    );
    insta::assert_snapshot!(listing);
}

#[test]
fn out_with_one_model_writes_directly_into_dir_and_keeps_empty_lists() {
    let dir = tempfile::tempdir().unwrap();
    let run = evaltally(&["stability", "testdata/bfcl/v3-project", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let flaky: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("flaky_tests.json")).unwrap()).unwrap();
    assert_eq!(
        flaky,
        serde_json::json!({"schema": "evaltally.test-ids/1", "categories": {"irrelevance": [], "multi_turn_base": []}})
    );
    let failing: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("failing_tests.json")).unwrap()).unwrap();
    assert_eq!(
        failing["categories"],
        serde_json::json!({"irrelevance": ["irrelevance_1", "irrelevance_4"], "multi_turn_base": ["multi_turn_base_1", "multi_turn_base_2"]})
    );
}

#[test]
fn nothing_found_says_where_it_looked_and_exits_2() {
    insta::assert_snapshot!(evaltally(&["stability", "testdata/not-bfcl"]).transcript());
}

#[test]
fn every_fixture_at_once() {
    // One PATH holding every layout: runs of all fixtures add up per model.
    let run = evaltally(&["stability", "testdata/bfcl", "--format", "json"]);
    assert_eq!(run.code, 1, "the quirks fixture has unreadable lines");
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let tiny = doc["models"].as_array().unwrap().iter().find(|m| m["model"] == "acme_tiny-7b").unwrap();
    assert_eq!(
        tiny["runs"],
        serde_json::json!(["baseline", "nightly", "parser-fix", "run-1", "run-2", "run-10", "v3-project"])
    );
}

#[test]
fn a_missing_path_exits_2() {
    let run = evaltally(&["stability", "testdata/bfcl/nope"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("testdata/bfcl/nope"), "{}", run.stderr);
}

#[test]
fn a_filter_that_matches_nothing_names_what_exists() {
    let run = evaltally(&["stability", "testdata/bfcl/pairs", "--model", "gpt-5"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("models found: acme_tiny-7b"), "{}", run.stderr);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(evaltally(&["stability"]).code, 2);
    assert_eq!(evaltally(&["stability", "testdata/bfcl/v4", "--format", "yaml"]).code, 2);
    assert_eq!(evaltally(&["no-such-command"]).code, 2);
}

#[test]
fn colour_only_when_asked_and_never_with_no_color() {
    let root = workspace_root();
    let args = ["--color", "always", "stability", "testdata/bfcl/pairs"];
    let colored = evaltally_in(&root, &args, &[]);
    assert!(colored.stdout.contains("\x1b[32m"), "{}", colored.stdout);
    let no_color = evaltally_in(&root, &args, &[("NO_COLOR", "1")]);
    assert!(!no_color.stdout.contains('\x1b'), "{}", no_color.stdout);
    // Not a terminal: auto means plain.
    let auto = evaltally(&["stability", "testdata/bfcl/pairs"]);
    assert!(!auto.stdout.contains('\x1b'));
    assert_eq!(auto.stdout, no_color.stdout);
}

/// An inference crash (BFCL's `multi_turn:inference_error` in run-2) errored: it judges
/// nothing and is counted apart; `--errors-as fail` restores BFCL's official counting.
#[test]
fn errors_are_apart_unless_counted_as_failures() {
    let crash = |args: &[&str]| {
        let mut all = vec!["stability", "testdata/bfcl/v4", "--format", "json", "--model", "acme_tiny-7b"];
        all.extend_from_slice(args);
        let run = evaltally(&all);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let cat = doc["models"][0]["categories"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["category"] == "multi_turn_base")
            .unwrap()
            .clone();
        let test = cat["tests"].as_array().unwrap().iter().find(|t| t["id"] == "multi_turn_base_1").unwrap().clone();
        (cat["with_errors"].as_u64(), test["outcomes"].as_str().unwrap().to_string(), test["runs"].as_u64())
    };
    // Errored once in three runs: judged on the other two, a stable fail.
    assert_eq!(crash(&[]), (Some(1), "FEF".to_string(), Some(2)));
    assert_eq!(crash(&["--errors-as", "errored"]), (Some(1), "FEF".to_string(), Some(2)));
    assert_eq!(crash(&["--errors-as", "fail"]), (None, "FFF".to_string(), Some(3)));
    let shown =
        evaltally(&["show", "testdata/bfcl/v4", "multi_turn_base_1", "--errors-as", "fail", "--format", "json"]);
    assert!(!shown.stdout.contains("\"errored\""), "{}", shown.stdout);
    let bad = evaltally(&["stability", "testdata/bfcl/v4", "--pass-threshold", "NaN"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--pass-threshold must be a number"), "{}", bad.stderr);
}

/// A `--model` that names no model found is said as such, with the models found, also
/// when the folder holds a stray file no format reads: the filter, not the formats, is why
/// nothing was read. A model found whose files cannot be read is no filter problem.
#[test]
fn a_mistyped_model_is_said_beside_a_stray_file() {
    let dir = tempfile::tempdir().unwrap();
    evaltally_testkit::copy_folder(&workspace_root().join("testdata/bfcl/v4/run-1"), &dir.path().join("run-1"));
    std::fs::write(dir.path().join("notes.json"), "{\"a\": 1}{\"b\": 2}").unwrap();
    let typo = evaltally_in(dir.path(), &["stability", ".", "--model", "acme_tiny"], &[]);
    assert_eq!(typo.code, 2, "{}", typo.stderr);
    assert!(typo.stderr.contains("error: nothing matches the filter; models found: acme_tiny-7b;"), "{}", typo.stderr);
    let right = evaltally_in(dir.path(), &["stability", ".", "--model", "acme_tiny-7b"], &[]);
    assert_eq!(right.code, 0, "{}", right.stderr);
}

/// `--pass-threshold` on files that record verdicts (BFCL) changes nothing, which is said;
/// on files that record scores (lm-eval) it is used, and nothing is said.
#[test]
fn a_pass_threshold_that_changes_nothing_is_said() {
    let bfcl = evaltally(&["stability", "testdata/bfcl/v4", "--pass-threshold", "0.5"]);
    assert!(
        bfcl.stderr.contains("testdata/bfcl/v4: warning: --pass-threshold changed nothing: it chooses what passes"),
        "{}",
        bfcl.stderr
    );
    let lmeval = evaltally(&["stability", "testdata/lmeval", "--pass-threshold", "0.5"]);
    assert!(!lmeval.stderr.contains("changed nothing"), "{}", lmeval.stderr);
    assert!(!lmeval.stderr.contains("passed no test"), "{}", lmeval.stderr);
    // A threshold above every score fails every test, which is said once.
    let above = evaltally(&["stability", "testdata/lmeval", "--pass-threshold", "7", "--format", "json"]);
    assert_eq!(
        above
            .stderr
            .matches("warning: --pass-threshold 7 passed no test: all 8 scores in 2 category runs are below it")
            .count(),
        1,
        "{}",
        above.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&above.stdout).unwrap();
    for model in doc["models"].as_array().unwrap() {
        assert_eq!(model["overall"]["stable_pass"], 0, "{model}");
    }
}

/// A model's folder inside a run's `result/` is read with the same model's folder in
/// `score/`: its tests are scored, not "without their score file".
#[test]
fn a_models_result_folder_pairs_with_its_score_folder() {
    let model = evaltally(&["stability", "testdata/bfcl/v4/run-1/result/acme_tiny-7b", "--format", "json"]);
    let run = evaltally(&["stability", "testdata/bfcl/v4/run-1", "--model", "acme_tiny-7b", "--format", "json"]);
    assert_eq!(model.code, 0, "{}", model.stderr);
    assert!(model.stderr.is_empty(), "{}", model.stderr);
    let overall = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["models"][0]["overall"].clone();
    assert_eq!(overall(&model.stdout), overall(&run.stdout));
    assert!(overall(&model.stdout)["stable_pass"].as_u64().unwrap() > 0, "{}", model.stdout);
}

/// The id files `--out` writes, kept in the runs' folder, are evaltally's own output: a
/// fact `--verbose` says, not a file counted as not read.
#[test]
fn its_own_output_among_the_runs_is_not_counted_as_a_file_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("v4");
    evaltally_testkit::copy_folder(&evaltally_testkit::testdata("bfcl/v4"), &runs);
    let runs = runs.to_str().unwrap();
    // Written beside, then moved in (it refuses to write into a folder it reads).
    let out = dir.path().join("quarantine");
    let wrote = evaltally(&["stability", runs, "--model", "acme_tiny-7b", "-o", out.to_str().unwrap()]);
    assert_eq!(wrote.code, 0, "{}", wrote.stderr);
    for name in ["stable_tests.json", "flaky_tests.json", "failing_tests.json"] {
        std::fs::rename(out.join(name), Path::new(runs).join(name)).unwrap();
    }
    let again = evaltally(&["stability", runs]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(!again.stderr.contains("not read"), "{}", again.stderr);
    let verbose = evaltally(&["stability", runs, "--verbose"]);
    assert!(
        verbose.stderr.contains(
            "flaky_tests.json: info: not read: evaltally's own output (evaltally.test-ids/1), not a result file"
        ),
        "{}",
        verbose.stderr
    );
}
