//! gstack results and JUnit reports through the CLI: read as runs by every analysis,
//! validated with their own rules.

mod common;

use common::evaltally;

#[test]
fn gstack_results_are_runs() {
    let run = evaltally(&["stability", "testdata/gstack/evals"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Two e2e runs of claude-sonnet-4-6; browse-snapshot-flags failed in one of them.
    assert!(run.stdout.contains("claude-sonnet-4-6: 2 runs"), "{}", run.stdout);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn partial_saves_are_left_out_unless_asked_for() {
    let runs_of = |extra: &[&str]| {
        let mut args = vec!["stability", "testdata/gstack/evals", "--format", "json"];
        args.extend_from_slice(extra);
        let run = evaltally(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        doc["models"].as_array().unwrap().iter().map(|m| m["runs"].as_array().unwrap().len()).sum::<usize>()
    };
    assert_eq!(runs_of(&[]), 3);
    assert_eq!(runs_of(&["--include-partial"]), 4);
}

#[test]
fn gstack_show_and_compare() {
    let show = evaltally(&["show", "testdata/gstack/evals", "browse-snapshot-flags"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let compare = evaltally(&[
        "compare",
        "testdata/gstack/evals/0.4.1-main-e2e-2026-03-14-0910.json",
        "testdata/gstack/evals/0.4.1-main-e2e-2026-03-15-1030.json",
    ]);
    assert_eq!(compare.code, 0, "{}", compare.stderr);
    insta::assert_snapshot!(format!("{}\n=== compare\n{}", show.transcript(), compare.transcript()));
}

#[test]
fn gstack_validation_reads_legacy_files_as_gstack_does() {
    let run = evaltally(&["validate", "testdata/gstack"]);
    assert_eq!(run.code, 1, "quirks/ holds broken files: {}", run.stdout);
    assert!(run.stdout.contains("0.4.1-main-e2e-2026-03-14-0910.json: valid (gstack-legacy)"), "{}", run.stdout);
    assert!(run.stdout.contains("quirks.json: INVALID (gstack)"), "{}", run.stdout);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn junit_reports_are_runs() {
    let run = evaltally(&["stability", "testdata/junit"]);
    assert_eq!(run.code, 0, "warnings only: {}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn junit_validation_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.xml");
    std::fs::write(&cut, "<testsuites>\n  <testsuite name=\"a\">\n    <testcase name=\"x\">").unwrap();
    let run = evaltally(&["validate", cut.to_str().unwrap(), "testdata/junit/googletest.xml"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("line 3, column 24: error: expected `</testcase>` (opened at line 3), found end of input"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("googletest.xml: valid (junit)"), "{}", run.stdout);
    // The broken report does not stop the good one from being analysed.
    let stab = evaltally(&["stability", cut.to_str().unwrap(), "testdata/junit/googletest.xml"]);
    assert_eq!(stab.code, 1);
    assert!(stab.stdout.contains("MathTest"), "{}", stab.stdout);
    assert!(stab.stderr.contains("cut.xml:3:24: error"), "{}", stab.stderr);
}
