//! Files nobody here wrote, as users meet them: runs named after their folders, verdicts
//! that do not hide errors, files not read said in one line, runs saved twice read once,
//! empty documents said, a run's declared dollars kept.

mod common;

use std::path::Path;

use common::{evaltally, evaltally_in};

fn json(run: &common::Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A JUnit report (as pytest writes it: `<error>` is the harness's) of run `n`, one test
/// with `outcome` `P`, `F` or `E`.
fn pytest_report(n: usize, outcome: char) -> String {
    let body = match outcome {
        'F' => "<failure message=\"assert 'Lyon' == 'Paris'\"/>",
        'E' => "<error message=\"failed on setup with &quot;ConnectionError&quot;\"/>",
        _ => "",
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites name=\"pytest tests\"><testsuite name=\"pytest\" timestamp=\"2026-03-{n:02}T10:00:00\">\
         <testcase classname=\"tests.test_chat\" name=\"test_summary\">{body}</testcase>\
         <testcase classname=\"tests.test_chat\" name=\"test_greeting\"/></testsuite></testsuites>\n"
    )
}

/// Eight runs of one suite under generic file names (`run-N/ci-results/junit.xml`): runs are
/// named after the folder that tells them apart, in `stability` and in `show --run` alike;
/// a test that errored in 7 runs and passed in 1 is in the errored class, never a stable
/// pass, with how many runs judged it.
#[test]
fn generic_names_and_a_test_errored_in_most_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (n, outcome) in "EPEEEEEE".chars().enumerate() {
        write(dir.path(), &format!("run-{}/ci-results/junit.xml", n + 1), &pytest_report(n + 1, outcome));
    }
    let run = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = json(&run);
    let model = &doc["models"][0];
    let runs: Vec<&str> = model["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(runs, ["run-1", "run-2", "run-3", "run-4", "run-5", "run-6", "run-7", "run-8"]);
    let category = &model["categories"][0];
    assert_eq!(
        (category["total"].as_u64(), category["stable_pass"].as_u64(), category["errored"].as_u64()),
        (Some(2), Some(1), Some(1))
    );
    let summary = category["tests"].as_array().unwrap().iter().find(|t| t["id"] == "test_summary").unwrap();
    assert_eq!(
        (summary["class"].as_str(), summary["runs"].as_u64(), summary["errored"].as_u64()),
        (Some("errored"), Some(1), Some(7))
    );
    assert_eq!(summary["outcomes"], "EPEEEEEE");
    // Its one judged pass weighs in no pass rate: the results counted are the other test's 8.
    assert_eq!(category["precision"]["results"]["judged"], 8);

    let text = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert!(text.stdout.contains("1 test errored in most runs"), "{}", text.stdout);
    assert!(text.stdout.contains("test_summary  pytest       1 of 8  EPEEEEEE"), "{}", text.stdout);

    assert!(!text.stdout.contains("no flaky tests\n  most stable: pytest (2 of 2"), "{}", text.stdout);
    // The official counting: errors are failures, and the test flips.
    let official = json(&evaltally_in(dir.path(), &["stability", ".", "--format", "json", "--errors-as", "fail"], &[]));
    assert_eq!(official["models"][0]["categories"][0]["flaky"], 1);

    let shown = evaltally_in(dir.path(), &["show", ".", "test_summary", "--run", "run-2"], &[]);
    assert_eq!(shown.code, 0, "{}", shown.stderr);
    assert!(shown.stdout.starts_with("test_summary  (unknown / pytest)\n"), "{}", shown.stdout);
    assert!(shown.stdout.contains("  run-2  passed"), "{}", shown.stdout);
    // Export names the runs alike.
    let export = evaltally_in(dir.path(), &["export", "."], &[]);
    assert!(export.stdout.contains("\"run\":\"run-8\""), "{}", export.stdout);
}

/// Playwright (1.59 and later) writes a test timeout as `<error>`: the test's own failure, so
/// a test that timed out in 7 runs of 8 flips.
#[test]
fn playwright_errors_are_the_tests_failures() {
    let run = evaltally(&["stability", "testdata/shapes/junit/runner-timeouts", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let category = &json(&run)["models"][0]["categories"][0];
    let thread =
        category["tests"].as_array().unwrap().iter().find(|t| t["id"] == "chat › summarises a long thread").unwrap();
    assert_eq!((thread["class"].as_str(), thread["outcomes"].as_str()), (Some("flaky"), Some("FFFFPFFF")));
}

/// Two merged SWE-bench instance maps (`evaluation_report.json`) beside a harness run
/// report: three runs, the maps named after their folders.
#[test]
fn merged_instance_maps_are_runs() {
    let run =
        evaltally(&["stability", "testdata/shapes/swebench/merged-instance-map", "--pool-models", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc = json(&run);
    let runs: Vec<&str> = doc["models"][0]["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(runs, ["run-a", "run-b", "run-c"]);
    assert!(doc["models"][0]["overall"]["flaky"].as_u64().unwrap() > 0, "{}", run.stdout);
    let check = evaltally(&["validate", "testdata/shapes/swebench/merged-instance-map"]);
    assert!(check.stdout.contains("run-a/evaluation_report.json: valid (swebench-instance-map)"), "{}", check.stdout);
    assert!(check.stdout.ends_with("3 files: 3 valid, 0 invalid, 0 with warnings\n"), "{}", check.stdout);
}

/// A JSON or XML file no format reads is counted and named in one line; `--verbose` says
/// why; a document with a format's key fields that lacks one is a warning naming it; "see
/// the warnings above" only when there are some.
#[test]
fn files_not_read_are_said_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "runs/run-1/results.json",
        &std::fs::read_to_string(evaltally_testkit::testdata("gstack/standard/nightly-1.json")).unwrap(),
    );
    write(dir.path(), "runs/notes.json", r#"{"owner": "qa", "schedule": "nightly"}"#);
    write(dir.path(), "runs/pom.xml", "<?xml version=\"1.0\"?><project><modelVersion>4.0.0</modelVersion></project>");
    write(dir.path(), "runs/readme.txt", "not a result");
    let run = evaltally_in(dir.path(), &["stability", "runs"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "note: 2 files not read: runs/notes.json, runs/pom.xml (--verbose says why)\n");
    let verbose = evaltally_in(dir.path(), &["stability", "runs", "-v"], &[]);
    assert!(
        verbose.stderr.contains("runs/pom.xml: note: not read: an XML document with root `<project>`"),
        "{}",
        verbose.stderr
    );
    // Near misses are warnings; with nothing else, the error says where to look.
    write(
        dir.path(),
        "near/swe.json",
        r#"{"resolved_ids": [], "unresolved_ids": [], "error_ids": [], "empty_patch_ids": []}"#,
    );
    let near = evaltally_in(dir.path(), &["stability", "near"], &[]);
    assert_eq!(near.code, 2, "{}", near.stderr);
    assert!(
        near.stderr.contains(
            "near/swe.json: warning: not read: has the fields of SWE-bench reports but lacks `completed_ids`"
        ),
        "{}",
        near.stderr
    );
    assert!(near.stderr.contains("no result file could be read (see above)"), "{}", near.stderr);
    let nothing = evaltally_in(dir.path(), &["stability", "runs/notes.json", "runs/pom.xml"], &[]);
    assert_eq!(nothing.code, 2, "{}", nothing.stderr);
    let notes = tempfile::tempdir().unwrap();
    write(notes.path(), "a/notes.json", r#"{"owner": "qa"}"#);
    let unread = evaltally_in(notes.path(), &["stability", "a"], &[]);
    assert_eq!(unread.code, 2, "{}", unread.stderr);
    assert!(
        unread.stderr.contains("no file found is in a format evaltally reads (see the note above)"),
        "{}",
        unread.stderr
    );
    assert!(!unread.stderr.contains("warnings above"), "{}", unread.stderr);
}

/// One run saved twice under two names counts once, with a warning naming both;
/// `--keep-duplicates` reads both. An empty document is a warning.
#[test]
fn duplicates_are_read_once_and_empties_said() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(evaltally_testkit::testdata("taubench/acme-7b-retail.json")).unwrap();
    write(dir.path(), "a/acme-7b-retail.json", &text);
    write(dir.path(), "b/acme-7b-retail-copy.json", &text);
    let once = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert!(
        once.stderr.contains("b/acme-7b-retail-copy.json: warning: the same bytes as `./a/acme-7b-retail.json`"),
        "{}",
        once.stderr
    );
    let runs = |run: &common::Run| -> usize {
        json(run)["models"].as_array().unwrap().iter().map(|m| m["runs"].as_array().unwrap().len()).sum()
    };
    assert_eq!(runs(&once), 3);
    let both = evaltally_in(dir.path(), &["stability", ".", "--format", "json", "--keep-duplicates"], &[]);
    assert_eq!(runs(&both), 6);
    assert!(!both.stderr.contains("same bytes"), "{}", both.stderr);

    let empty = evaltally(&["stability", "testdata/shapes/taubench/tau2-results-empty"]);
    assert_eq!(empty.code, 2, "{}", empty.stderr);
    assert!(empty.stderr.contains("warning: holds no tests: nothing in it to analyse"), "{}", empty.stderr);
}

/// A run's declared total in dollars is shown beside what its tests sum to.
#[test]
fn cost_keeps_the_declared_total() {
    let run = evaltally(&["cost", "testdata/shapes/gstack/declared-total-cost", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cost = &json(&run)["runs"][0];
    assert_eq!((cost["declared_usd"].as_f64(), cost["tests_usd"].as_f64()), (Some(1.5), Some(0.9)));
    let text = evaltally(&["cost", "testdata/shapes/gstack/declared-total-cost", "--detail"]);
    assert!(text.stdout.contains("run total $1.5000 (declared); its tests sum to $0.9000"), "{}", text.stdout);
}

/// `runs --help` documents the formats `runs` prints, not `validate`'s.
#[test]
fn runs_help_documents_its_own_formats() {
    let help = evaltally(&["runs", "--help"]);
    assert!(help.stdout.contains("One line per entry"), "{}", help.stdout);
    assert!(help.stdout.contains("\"entries\""), "{}", help.stdout);
    assert!(!help.stdout.contains("One line per file and its findings"), "{}", help.stdout);
}

/// `inspect_ai`'s current logs: Zstandard members are read, and one whose bytes do not match
/// its CRC-32 is an error naming the member.
#[test]
fn inspect_zstd_members_are_read_and_checked() {
    let run = evaltally(&["stability", "testdata/shapes/inspect/eval-zstd", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json(&run)["models"][0]["runs"].as_array().unwrap().len(), 3);
    // Flip a byte inside the compressed `header.json`'s stored data: its CRC no longer holds.
    let mut bytes = std::fs::read(evaltally_testkit::testdata("shapes/inspect/eval-zstd/arith.eval")).unwrap();
    let name = b"header.json";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap() + name.len();
    bytes[at + 8] ^= 0x40;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("arith.eval"), &bytes).unwrap();
    let damaged = evaltally_in(dir.path(), &["stability", "arith.eval"], &[]);
    assert_eq!(damaged.code, 2, "{}", damaged.stderr);
    assert!(damaged.stderr.contains("arith.eval: error: header.json: "), "{}", damaged.stderr);
}
