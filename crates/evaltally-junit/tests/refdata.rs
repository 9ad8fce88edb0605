//! The real JUnit reports in `../shared/refdata/gstack/dorny-test-reporter/` (fixtures of
//! dorny/test-reporter): each is read, its counts checked against numbers counted by hand
//! from the XML, and what the adapter made of it compared with a reviewed snapshot.

mod common;

use std::path::Path;

use evaltally_core::{Outcome, Status};
use evaltally_junit::{CaseStatus, JunitRun, read};
use evaltally_testkit::refdata;

/// Reads a refdata file, naming it by its file name only so snapshots do not depend on
/// where the checkout lives.
fn load(file: &str) -> Option<JunitRun> {
    let path = refdata(&format!("gstack/dorny-test-reporter/{file}"))?;
    let text = std::fs::read_to_string(&path).expect("refdata file is UTF-8");
    Some(read(&text, Path::new(file)).expect("refdata file reads"))
}

/// (test cases, passed, failed or errored, skipped) over the whole document.
fn totals(run: &JunitRun) -> (usize, usize, usize, usize) {
    let count = |s: &[CaseStatus]| run.cases.iter().filter(|c| s.contains(&c.status)).count();
    (
        run.cases.len(),
        count(&[CaseStatus::Passed]),
        count(&[CaseStatus::Failed, CaseStatus::Errored]),
        count(&[CaseStatus::Skipped]),
    )
}

/// (category, listed, passed, failed) per category run.
fn per_category(run: &JunitRun) -> Vec<(String, usize, usize, usize)> {
    run.category_runs("r", "m").iter().map(|c| (c.category.clone(), c.len(), c.passed(), c.failed())).collect()
}

#[test]
fn jest_junit() {
    let Some(run) = load("jest-junit.xml") else { return };
    // Counted by hand: suite `__tests__\main.test.js` holds 4 <testcase> elements, the first
    // with no child (pass), the other three with a <failure> each; suite
    // `__tests__\second.test.js` holds 2, "Timeout test" with a <failure> and "Skipped test"
    // with <skipped/>. That is 6 test cases: 1 passed, 4 failed, 1 skipped, which is also what
    // the attributes declare (tests="6" failures="4"; skipped="1" on the second suite).
    assert_eq!(totals(&run), (6, 1, 4, 1));
    assert_eq!(
        per_category(&run),
        [("__tests__\\main.test.js".to_string(), 4, 1, 3), ("__tests__\\second.test.js".to_string(), 1, 0, 1)]
    );
    // No <failure> has a type or a message attribute: the label is `failure`, the message the text.
    let rec = run.record("r", "m");
    assert!(
        rec.tests
            .iter()
            .filter(|t| t.outcome == Some(Outcome::Fail))
            .all(|t| t.error_type.as_deref() == Some("failure"))
    );
    assert!(
        rec.tests[1]
            .error_message
            .as_deref()
            .unwrap()
            .starts_with("Error: expect(received).toBeTruthy()\n\nReceived: false\n    at Object.<anonymous> (C:\\")
    );
    assert_eq!(rec.tests[5].outcome, None, "the skipped test did not run");
    // The declared counts all agree.
    assert!(run.diagnostics.is_empty(), "{:?}", run.diagnostics);
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn junit_with_message_googletest() {
    let Some(run) = load("junit-with-message.xml") else { return };
    // Counted by hand: one <testcase name="Test" status="run" classname="Fails"> holding one
    // <failure message="error" type="">, in suite "Test". The suite declares tests="6",
    // which the file does not hold: a warning.
    assert_eq!(totals(&run), (1, 0, 1, 0));
    assert_eq!(per_category(&run), [("Test".to_string(), 1, 0, 1)]);
    let case = &run.cases[0];
    assert_eq!(case.error_type(), Some("failure"), "type=\"\" counts as no type");
    assert_eq!(
        case.message(),
        Some("error.cpp:01\n      Expected: true\n      Which is: false >"),
        "the CDATA text, whole"
    );
    assert_eq!(run.diagnostics.len(), 1);
    assert!(run.diagnostics[0].message.contains("declares tests=\"6\", counted 1"));
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn junit4_basic_testmo() {
    let Some(run) = load("junit4-basic.xml") else { return };
    // Counted by hand: suite Tests.Registration holds testCase1-3 (no children: 3 passes);
    // suite Tests.Authentication holds testCase7 and testCase8 (passes) and testCase9 with
    // a <failure type="AssertionError">. The nested suite with testCase4-6 is inside a
    // comment and must not count. 6 test cases: 5 passed, 1 failed.
    assert_eq!(totals(&run), (6, 5, 1, 0));
    assert_eq!(
        per_category(&run),
        [("Tests.Authentication".to_string(), 3, 2, 1), ("Tests.Registration".to_string(), 3, 3, 0)]
    );
    assert!(run.cases.iter().all(|c| !c.id.contains("testCase4")));
    let failed = &run.cases[5];
    assert_eq!(failed.error_type(), Some("AssertionError"));
    // The failure's only text is indentation around a comment: the message is the attribute.
    assert_eq!(failed.message(), Some("Assertion error message"));
    assert_eq!(run.show("testCase9").map(|d| d.status), Some(Status::Failed));
    assert_eq!(run.cases[0].duration_ms, Some(2113.871));
    assert!(run.diagnostics.is_empty(), "{:?}", run.diagnostics);
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn python_xunit_pytest() {
    let Some(run) = load("python-xunit-pytest.xml") else { return };
    // Counted by hand: one suite "pytest" with 10 <testcase> elements: test_always_pass,
    // test_with_subtests, test_parameterized[param1], test_parameterized[param2],
    // test_with_record_property and test_with_record_xml_attribute have no result child (6
    // passes); test_always_fail and test_error hold a <failure> (2 failures);
    // test_always_skip and test_expected_failure hold a <skipped> (2 skipped). The suite
    // declares tests="15" (pytest counts subtests), which disagrees: a warning.
    assert_eq!(totals(&run), (10, 6, 2, 2));
    // Skipped tests are not listed: 8 of 10.
    assert_eq!(per_category(&run), [("pytest".to_string(), 8, 6, 2)]);
    assert_eq!(run.suites[0].properties[0].name, "custom_prop");
    let with_prop = run.cases.iter().find(|c| c.name == "test_with_record_property").unwrap();
    assert_eq!(with_prop.property("example_key"), Some("1"));
    let fail = run.cases.iter().find(|c| c.name == "test_always_fail").unwrap();
    assert_eq!(
        fail.message(),
        Some(
            "def test_always_fail():\n        > assert False\n        E assert False\n\n        tests/test_lib.py:25: AssertionError"
        )
    );
    let skip = run.show("test_always_skip").unwrap();
    assert_eq!(skip.status, Status::NotRun);
    assert_eq!(skip.error_message.as_deref(), Some("/Users/mike/Projects/python-test/tests/test_lib.py:20: skipped"));
    // The other class's test keeps its plain name: no other test shares it.
    assert!(run.cases.iter().any(|c| c.id == "test_with_record_xml_attribute" && c.category == "pytest"));
    assert_eq!(run.started_at(), Some("2025-11-15T11:51:49.548396-05:00"));
    assert_eq!(run.diagnostics.len(), 1);
    insta::assert_snapshot!(common::render(&run));
}
