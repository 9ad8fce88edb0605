//! `evaltally summary`: SF-Bench and SWE-bench reports, every output format.

mod common;

use common::evaltally;
use evaltally_testkit::refdata;

#[test]
fn sfbench_summary_as_text() {
    insta::assert_snapshot!(evaltally(&["summary", "testdata/sfbench-runs/run-2/report.json"]).transcript());
}

#[test]
fn sfbench_summary_as_json_recomputes_every_field() {
    let run = evaltally(&["summary", "testdata/sfbench-runs/run-2/report.json", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // run-2: lwc resolved, apex-trigger fail, flow resolved, apex-integration skipped.
    assert_eq!(doc["summary"]["resolved_instances"], 2);
    assert_eq!(doc["summary"]["resolve_rate"], 0.5);
    assert_eq!(doc["summary"]["resolution_rate"], 50.0);
    assert_eq!(doc["summary"]["instances_completed"], 4, "skipped counts as completed upstream");
    // The fixture stores an empty summary object: nothing to compare.
    assert_eq!(doc["stored_differences"], serde_json::json!([]));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn sfbench_summary_as_markdown() {
    insta::assert_snapshot!(
        evaltally(&["summary", "testdata/sfbench-runs/run-1/report.json", "--format", "markdown"]).transcript()
    );
}

#[test]
fn swebench_summary_in_every_format() {
    let file = "testdata/swebench/runs/acme-agent-1.5.run-2.json";
    let text = evaltally(&["summary", file]);
    let md = evaltally(&["summary", file, "--format", "markdown"]);
    let json = evaltally(&["summary", file, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    // 2 resolved of 6 in the dataset, of 5 submitted (one incomplete), of 4 completed.
    assert_eq!(doc["resolve_rate_of_total"], 2.0 / 6.0);
    assert_eq!(doc["resolve_rate_of_submitted"], 2.0 / 5.0);
    assert_eq!(doc["resolve_rate_of_completed"], 0.5);
    insta::assert_snapshot!(format!("{}\n{}", text.transcript(), md.transcript()));
}

#[test]
fn summary_of_what_is_not_a_report_exits_2() {
    let run = evaltally(&["summary", "testdata/bfcl/v4/run-1/score/data_overall.csv"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("data_overall.csv:1:1: not valid JSON"), "{}", run.stderr);
}

/// A file cut short is placed and worded as `validate` places and words it.
#[test]
fn a_file_cut_short_is_said_as_validate_says_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("eval.json");
    std::fs::write(&file, r#"{"schema_version": 1, "all_results": ["#).unwrap();
    let summary = evaltally(&["summary", file.to_str().unwrap()]);
    assert_eq!(summary.code, 2);
    assert!(
        summary.stderr.contains("eval.json:1:39: not valid JSON: the text ends inside a list (cut short?)"),
        "{}",
        summary.stderr
    );
    let validate = evaltally(&["validate", file.to_str().unwrap()]);
    assert!(
        validate.stdout.contains("line 1, column 39: error: not valid JSON: the text ends inside a list (cut short?)"),
        "{}",
        validate.stdout
    );
}

/// A report that starts with a UTF-8 byte order mark is summarised as the same report
/// without it.
#[test]
fn a_byte_order_mark_is_read_past() {
    let dir = tempfile::tempdir().unwrap();
    for report in ["testdata/sfbench-runs/run-2/report.json", "testdata/swebench/runs/acme-agent-1.5.run-2.json"] {
        let bytes = std::fs::read(evaltally_testkit::workspace_root().join(report)).unwrap();
        let marked = dir.path().join("report.json");
        std::fs::write(&marked, [&b"\xEF\xBB\xBF"[..], &bytes].concat()).unwrap();
        let (plain, with_mark) = (
            evaltally(&["summary", report, "--format", "json"]),
            evaltally(&["summary", marked.to_str().unwrap(), "--format", "json"]),
        );
        assert_eq!(with_mark.code, 0, "{report}: {}", with_mark.stderr);
        let path = |text: &str| text.replace(&*marked.to_string_lossy(), report);
        assert_eq!(path(&with_mark.stdout), plain.stdout, "{report}");
    }
}

/// A `resolved` that is not a boolean is read as false, and said, as `stability` says it:
/// the counts follow that reading.
#[test]
fn a_resolved_flag_read_as_false_is_said() {
    let file = "testdata/malformed/sfbench/instance-resolved-string/broken-report.json";
    let summary = evaltally(&["summary", file]);
    let stability = evaltally(&["stability", file]);
    let said = "warning: instances[0] (`lwc-wire-001`): `resolved` is \"true\", expected true or false; read as false";
    assert!(summary.stderr.contains(said), "{}", summary.stderr);
    assert!(stability.stderr.contains(said), "{}", stability.stderr);
    assert!(summary.stdout.contains(" 0 resolved, 1 unresolved"), "{}", summary.stdout);
}

/// SWE-bench issue #666: `total_instances` 1 against `submitted_instances` 300.
#[test]
fn gold_validate_summary_shows_each_denominator() {
    let Some(file) = refdata("swebench/swebench-official-gold-reports/gold.validate-gold.json") else { return };
    let run = evaltally(&["summary", file.to_str().unwrap(), "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((doc["total_instances"].as_u64(), doc["submitted_instances"].as_u64()), (Some(1), Some(300)));
    assert_eq!(doc["resolve_rate_of_total"], 1.0);
}

/// A SWE-bench report whose stored count disagrees with the list it counts says so beside
/// the recomputed figures, as `validate` does.
#[test]
fn swebench_stored_counts_that_differ_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(evaltally_testkit::testdata("swebench/runs/acme-agent-1.5.run-1.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    doc["resolved_instances"] = serde_json::json!(5);
    let file = dir.path().join("acme-agent-1.5.run-1.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let out = evaltally(&["summary", file.to_str().unwrap()]);
    assert!(
        out.stdout.contains("the stored counts do not add up:\n    resolved_instances: stored 5, counted 3\n"),
        "{}",
        out.stdout
    );
    // Counts that do not add up to each other are said too, as `validate` says them.
    doc["resolved_instances"] = serde_json::json!(3);
    doc["total_instances"] = serde_json::json!(7);
    std::fs::write(&file, doc.to_string()).unwrap();
    let out = evaltally(&["summary", file.to_str().unwrap()]);
    assert!(out.stdout.contains("the stored counts do not add up:\n    total_instances: is 7, but "), "{}", out.stdout);
    let validate = evaltally(&["validate", file.to_str().unwrap()]);
    assert!(validate.stdout.contains("$.total_instances: warning: is 7, but "), "{}", validate.stdout);
}

/// A skipped SF-Bench instance did not run: it is shown as a test not judged (unscored,
/// labelled `skipped`), where it was left out without a word (so `--errors-as fail`'s rate
/// differed from SF-Bench's resolved / total, which counts it, with nothing to say why).
#[test]
fn a_skipped_sfbench_instance_is_shown_as_not_judged() {
    let file = "testdata/sfbench-runs/run-2/report.json";
    let text = evaltally(&["stability", file]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("unscored (no score in any run; counted as neither pass nor fail):"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("1 test only unscored"), "{}", text.stdout);
    let run = evaltally(&["stability", file, "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let unscored: u64 =
        doc["models"][0]["categories"].as_array().unwrap().iter().filter_map(|c| c["unscored_tests"].as_u64()).sum();
    assert_eq!(unscored, 1, "{}", run.stdout);
    let show = evaltally(&["show", file, "apex-integration-001"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
}
