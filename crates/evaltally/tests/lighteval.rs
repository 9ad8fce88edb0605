//! Hugging Face lighteval details: a date folder is a run, a `details_<task>_<date>.parquet`
//! its outcomes for one task, the model and the task's metrics come from
//! `results/<model>/results_<date>.json`. The fixture (`testdata/lighteval`) through every
//! command, damaged Parquet, and the real files in the shared data when they are there.

mod common;

use common::{evaltally, evaltally_in, report_data, session};
use evaltally_testkit::testdata;

const FIXTURE: &str = "testdata/lighteval";
const ARITH_1: &str = "testdata/lighteval/details/acme/tiny-7b/2025-10-01T09-00-00.000001";
const ARITH_2: &str = "testdata/lighteval/details/acme/tiny-7b/2025-10-02T09-00-00.000002";

#[test]
fn fixture_through_stability_compare_show_validate_and_trend() {
    let out = session(&[
        &["stability", FIXTURE],
        &["compare", ARITH_1, ARITH_2],
        &["show", FIXTURE, "3", "--model", "acme/tiny-7b"],
        &["validate", FIXTURE],
        &["trend", FIXTURE, "--model", "acme/tiny-7b"],
    ]);
    insta::assert_snapshot!(out);

    let json = evaltally(&["stability", FIXTURE, "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let models: Vec<&str> = doc["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["acme/big-70b", "acme/tiny-7b"], "the model's name from the results file, `/` kept");
    let tiny = &doc["models"][1];
    assert_eq!(
        tiny["runs"],
        serde_json::json!(["2025-10-01T09-00-00.000001", "2025-10-02T09-00-00.000002", "2025-10-03T09-00-00.000003"])
    );
    let arith = &tiny["categories"][0];
    assert_eq!(arith["category"], "custom|arith|0");
    assert_eq!(
        (arith["stable_pass"].as_u64(), arith["flaky"].as_u64(), arith["stable_fail"].as_u64()),
        (Some(1), Some(2), Some(1))
    );
    assert_eq!(arith["correct"], serde_json::json!([2, 2, 3]));
    // qa: `qem`, the metric the results file configures first, decides, not `em`, the
    // file's first column: sample 1 passes by qem in the first run although em is 0.
    let qa = &tiny["categories"][1];
    assert_eq!(qa["category"], "custom|qa|0");
    assert_eq!(qa["correct"], serde_json::json!([2, 1]));
    // --metric chooses another metric.
    let em = evaltally(&["stability", FIXTURE, "--format", "json", "--metric", "em", "--category", "custom|qa|0"]);
    let em: serde_json::Value = serde_json::from_str(&em.stdout).unwrap();
    assert_eq!(em["models"][0]["categories"][0]["correct"], serde_json::json!([1, 1]));
}

#[test]
fn export_and_report_carry_the_runs() {
    let export = evaltally(&["export", FIXTURE]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let lines: Vec<serde_json::Value> = export.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // 4 samples in 4 arith runs, 3 in 2 qa runs.
    assert_eq!(lines.len(), 4 * 4 + 3 * 2);
    let failed = lines
        .iter()
        .find(|l| {
            l["model"] == "acme/tiny-7b"
                && l["run"] == "2025-10-02T09-00-00.000002"
                && l["id"] == "1"
                && l["category"] == "custom|arith|0"
        })
        .unwrap();
    assert_eq!(failed["outcome"], "fail");
    assert_eq!(failed["error_type"], "extractive_match_not_1");
    assert_eq!(failed["error_message"], "extractive_match = 0, pass needs 1");
    assert_eq!(failed["source_format"], "lighteval");
    assert_eq!(failed["timestamp"], "2025-10-02T09:00:00.000002");
    insta::assert_snapshot!(export.stdout.lines().take(3).collect::<Vec<_>>().join("\n"));

    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("report.html");
    let report = evaltally(&["report", FIXTURE, "-o", html.to_str().unwrap()]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let data = report_data(&std::fs::read_to_string(&html).unwrap());
    let text = data.to_string();
    assert!(text.contains("acme/tiny-7b") && text.contains("custom|arith|0"), "{text:.400}");
}

#[test]
fn pass_threshold_labels_by_the_rule() {
    let shape = "testdata/shapes/lighteval/details-parquet-struct-fraction-metric";
    let strict = evaltally(&["export", shape]);
    let rows: Vec<serde_json::Value> = strict.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let outcome = |rows: &[serde_json::Value], id: &str| {
        let r = rows.iter().find(|r| r["id"] == id).unwrap();
        (r["outcome"].as_str().unwrap().to_string(), r["error_type"].as_str().map(str::to_string))
    };
    assert_eq!(outcome(&rows, "7"), ("pass".into(), None));
    assert_eq!(outcome(&rows, "0"), ("fail".into(), Some("pass@k:k=1&n=4_not_1".into())));
    assert_eq!(outcome(&rows, "3"), ("unscored".into(), None), "0.25 is a fraction: unscored without a threshold");
    let half = evaltally(&["export", shape, "--pass-threshold", "0.5"]);
    let rows: Vec<serde_json::Value> = half.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(outcome(&rows, "3"), ("fail".into(), Some("pass@k:k=1&n=4_below_0.5".into())));
    assert_eq!(outcome(&rows, "9"), ("pass".into(), None));
    let message = rows.iter().find(|r| r["id"] == "3").unwrap()["error_message"].clone();
    assert_eq!(message, "pass@k:k=1&n=4 = 0.25, below the threshold 0.5");
}

#[test]
fn as_lighteval_reads_the_details_and_skips_the_results() {
    let normal = evaltally(&["stability", FIXTURE, "--format", "json"]);
    let forced = evaltally(&["stability", FIXTURE, "--format", "json", "--as", "lighteval"]);
    assert_eq!((forced.code, &forced.stdout), (0, &normal.stdout), "{}", forced.stderr);
    let formats = evaltally(&["formats"]);
    assert!(formats.stdout.lines().any(|l| l == "lighteval"), "{}", formats.stdout);
    // A results file alone: said to be lighteval's, nothing to analyse.
    let alone = evaltally(&["stability", "testdata/shapes/lighteval/results-json-only", "--verbose"]);
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    assert!(alone.stderr.contains("skipped: lighteval's aggregate results"), "{}", alone.stderr);
}

/// A results file cut short is an error of lighteval's file, not of a file no format knows:
/// it is read beside the details files of its run.
#[test]
fn a_broken_results_file_is_lighteval_s() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("lighteval");
    evaltally_testkit::copy_folder(&testdata("lighteval"), &copy);
    let results = copy.join("results/acme/big-70b/results_2025-10-01T10-30-00.500000.json");
    let text = std::fs::read(&results).unwrap();
    std::fs::write(&results, &text[..text.len() / 2]).unwrap();

    let run = evaltally_in(dir.path(), &["validate", "lighteval"], &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let line = run.stdout.lines().find(|l| l.contains("results_2025-10-01T10-30-00.500000.json: ")).unwrap();
    assert!(line.ends_with(": INVALID (lighteval)"), "{}", run.stdout);
    let json = evaltally_in(dir.path(), &["validate", "lighteval", "--format", "json"], &[]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let file = doc["files"].as_array().unwrap().iter().find(|f| f["path"].as_str().unwrap().ends_with("500000.json"));
    assert_eq!(file.unwrap()["format"], "lighteval", "{doc}");
}

/// A file cut short, one without metrics and one that is not Parquet: errors that name the
/// file, the rest of the folder still read, no panic.
#[test]
fn damaged_parquet_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("2026-03-01T00-00-00.000000");
    std::fs::create_dir_all(&run).unwrap();
    let good = std::fs::read(
        testdata("lighteval/details/acme/tiny-7b/2025-10-01T09-00-00.000001")
            .join("details_custom|arith|0_2025-10-01T09-00-00.000001.parquet"),
    )
    .unwrap();
    let name = |task: &str| format!("details_{task}_2026-03-01T00-00-00.000000.parquet");
    std::fs::write(run.join(name("custom|arith|0")), &good).unwrap();
    std::fs::write(run.join(name("custom|cut|0")), &good[..good.len() / 2]).unwrap();
    std::fs::write(run.join(name("custom|footer|0")), &good[..good.len() - 3]).unwrap();
    std::fs::write(run.join(name("custom|empty|0")), b"").unwrap();
    std::fs::write(run.join(name("custom|text|0")), b"{\"doc\": {}}\n").unwrap();
    let no_metric = testdata("malformed/lighteval/no-metric-column/details/acme-7b/2026-01-02T00-00-00.000000")
        .join("details_custom|algebra|0_2026-01-02T00-00-00.000000.parquet");
    std::fs::copy(no_metric, run.join(name("custom|algebra|0"))).unwrap();
    let stability = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert_eq!(stability.code, 1, "{}", stability.stderr);
    assert!(!stability.stderr.contains("panicked"), "{}", stability.stderr);
    let doc: serde_json::Value = serde_json::from_str(&stability.stdout).unwrap();
    let errors: Vec<String> = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{}: {}", e["path"].as_str().unwrap(), e["message"].as_str().unwrap()))
        .collect();
    for task in ["custom|cut|0", "custom|footer|0", "custom|empty|0", "custom|text|0", "custom|algebra|0"] {
        assert!(errors.iter().any(|e| e.contains(&name(task))), "{task}: {errors:#?}");
    }
    assert_eq!(doc["models"][0]["categories"].as_array().unwrap().len(), 1, "the good file is read");
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!(validate.code, 1, "{}", validate.stdout);
    let mut said: Vec<&str> = errors.iter().map(|e| e.split_once(": ").unwrap().1).collect();
    said.sort_unstable();
    insta::assert_snapshot!(said.join("\n"));
}

/// Real public files written by lighteval 0.11 (JoelNiklaus/evaluate-idk), kept outside
/// the repository in `../realdata/lighteval` beside the checkout (its PROVENANCE.md names
/// repository, commit and path of each); skipped with a notice when absent. The counts
/// `xtask/bench/ref_lighteval.py` gives on them, and the warning that the dataset of
/// `community|lexam-en-idk|0` changed between the two runs of one model.
#[test]
fn real_files_have_the_reference_counts() {
    let dir = evaltally_testkit::workspace_root().parent().map(|p| p.join("realdata/lighteval"));
    let Some(dir) = dir.filter(|d| d.is_dir()) else {
        evaltally_testkit::skipped("../realdata/lighteval not found beside the checkout");
        return;
    };
    let run = evaltally(&[
        "stability",
        dir.to_str().unwrap(),
        "--format",
        "json",
        "--model",
        "openrouter/anthropic/claude-sonnet-4.5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let lexam = &doc["models"][0]["categories"][0];
    assert_eq!(lexam["category"], "community|lexam-en-idk|0");
    assert_eq!(
        (
            lexam["total"].as_u64(),
            lexam["stable_pass"].as_u64(),
            lexam["flaky"].as_u64(),
            lexam["stable_fail"].as_u64()
        ),
        (Some(619), Some(311), Some(266), Some(42))
    );
    assert_eq!(lexam["correct"], serde_json::json!([400, 488]));
    let warned = doc["warnings"].as_array().unwrap().iter().any(|w| {
        w["message"]
            .as_str()
            .is_some_and(|m| m.contains("`community|lexam-en-idk|0` were drawn from 2 different test sets"))
    });
    assert!(warned, "{}", run.stderr);
}
