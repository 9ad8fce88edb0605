//! The dialect fixtures in `testdata/junit/` (see its README): each read through the adapter
//! and compared with a reviewed snapshot, with the points each fixture exists for asserted.

mod common;

use std::path::Path;

use evaltally_core::{Outcome, Status};
use evaltally_junit::{CaseStatus, JunitRun, looks_like_junit, read, read_file};
use evaltally_testkit::testdata;

fn load(file: &str) -> JunitRun {
    let path = testdata(&format!("junit/{file}"));
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    assert!(looks_like_junit(&text), "{file} is sniffed as JUnit");
    read(&text, Path::new(file)).expect("fixture reads")
}

fn case<'r>(run: &'r JunitRun, id: &str) -> &'r evaltally_junit::JunitCase {
    run.cases.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no case {id}"))
}

#[test]
fn nested_suites_take_the_innermost_name() {
    let run = load("nested-suites.xml");
    assert_eq!(case(&run, "health").category, "api");
    assert_eq!(case(&run, "delete").category, "api.users");
    assert_eq!(case(&run, "promote").category, "api.users.admin");
    assert_eq!(case(&run, "list").category, "api.orders", "unnamed suite: classname");
    assert_eq!(case(&run, "anonymous").category, "api", "unnamed suite, no classname: nearest named suite");
    assert_eq!(case(&run, "boots").category, "smoke", "below <testsuites>: classname");
    assert_eq!(case(&run, "orphan").category, "nested-suites", "no suite, no classname: file stem");
    assert_eq!(case(&run, "list").error_type(), Some("ECONNREFUSED"));
    assert_eq!(case(&run, "orphan").error_type(), Some("failure"));
    // Declared counts include the nested suites' test cases, and all agree.
    assert!(run.diagnostics.is_empty(), "{:?}", run.diagnostics);
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn surefire_bare_testsuite_root() {
    let run = load("surefire-bare-testsuite.xml");
    assert_eq!(run.name, None);
    assert_eq!(run.suites.len(), 1);
    assert_eq!(run.suites[0].properties[1].value, "Linux", "property value given as text");
    assert_eq!(case(&run, "checksOut").status, CaseStatus::Errored);
    assert_eq!(case(&run, "appliesCoupon").status, CaseStatus::Passed, "flaky: passed on rerun");
    assert_eq!(case(&run, "appliesCoupon").system_out, None, "output inside flakyFailure is not the test's");
    assert_eq!(case(&run, "refunds").error_type(), Some("AssertionError"), "the first problem decides");
    assert_eq!(case(&run, "discounts").error_type(), Some("error"));
    assert_eq!(case(&run, "removesItem").system_out.as_deref(), Some("removing item 7\n"));
    assert_eq!(
        case(&run, "removesItem").message(),
        Some(
            "org.opentest4j.AssertionFailedError: expected:<1> but was:<2>\n\tat com.acme.CartTest.removesItem(CartTest.java:31)"
        )
    );
    let cats = run.category_runs("r", "m");
    assert_eq!((cats[0].len(), cats[0].passed(), cats[0].failed(), cats[0].errored()), (6, 2, 2, 2));
    // Declared: failures="2" errors="1"; held: removesItem and refunds fail, checksOut and
    // discounts error (2 and 2).
    assert_eq!(run.diagnostics.len(), 1, "{:?}", run.diagnostics);
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn googletest_status_and_result() {
    let run = load("googletest.xml");
    assert_eq!(case(&run, "Adds").status, CaseStatus::Passed);
    assert_eq!(case(&run, "DISABLED_Overflows").status, CaseStatus::Skipped, "status=notrun, no child");
    assert_eq!(case(&run, "NeedsGpu").status, CaseStatus::Skipped);
    assert_eq!(case(&run, "Divides").error_type(), Some("failure"));
    assert_eq!(case(&run, "Params/0").duration_ms, Some(9.0));
    let cats = run.category_runs("r", "m");
    assert_eq!((cats[0].len(), cats[0].passed(), cats[0].failed()), (3, 2, 1));
    let d = run.show("NeedsGpu").unwrap();
    assert_eq!((d.status, d.error_message.as_deref()), (Status::NotRun, Some("math_test.cc:25\nno GPU")));
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn evals_properties_give_tokens_and_costs() {
    let run = load("evals-properties.xml");
    assert_eq!(run.model(), Some("acme-7b"));
    let rec = run.record("r", "acme-7b");
    let seattle = &rec.tests[0];
    assert_eq!(seattle.id, "Weather > What's the weather in Seattle?");
    assert_eq!((seattle.input_tokens, seattle.output_tokens, seattle.cost_usd), (Some(1200), Some(85), Some(0.000_42)));
    assert_eq!(seattle.duration_ms, Some(4.360_291));
    let paris = &rec.tests[1];
    assert_eq!((paris.input_tokens, paris.output_tokens, paris.cost_usd), (Some(900), None, None));
    assert_eq!(paris.error_message.as_deref(), Some("AssertionError: Score: 0.2 below threshold: 0.6"));
    let d = run.show("Weather > What's the weather in Seattle?").unwrap();
    assert_eq!((d.model.as_str(), d.input_tokens, d.output_tokens), ("acme-7b", Some(1200), Some(85)));
    insta::assert_snapshot!(common::render(&run));
}

#[test]
fn quirks_crlf_bom() {
    let path = testdata("junit/quirks-crlf-bom.xml");
    let bytes = std::fs::read(&path).expect("fixture exists");
    assert!(bytes.starts_with(b"\xEF\xBB\xBF") && bytes.windows(2).any(|w| w == b"\r\n"), "fixture keeps BOM and CRLF");
    let run = load("quirks-crlf-bom.xml");
    let ids: Vec<&str> = run.cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "a.One::same",
            "b.Two::same",
            "plain",
            "plain",
            "no class",
            "(unnamed testcase at line 14)",
            "entities & refs",
            "crlf in text"
        ]
    );
    // A test listed twice is a runner's rerun: the last attempt is the verdict.
    assert!(run.cases[2].duplicate && !run.cases[3].duplicate);
    assert_eq!(run.cases[3].outcome(), Some(Outcome::Fail), "the last of two attempts is kept");
    assert_eq!(run.cases[2].duration_ms, Some(1_234_500.0));
    assert_eq!(run.cases[3].duration_ms, Some(500.0));
    assert_eq!(run.cases[1].duration_ms, None);
    assert_eq!(run.cases[4].duration_ms, None);
    let refs = &run.cases[6];
    assert_eq!(refs.problems[0].message.as_deref(), Some("multi\nline tab and raw newline"));
    assert_eq!(refs.error_type(), Some("&product;"));
    assert_eq!(refs.message(), Some("&product; &nbsp; AB R&D \u{fffd} x & y\n  second line\twith tab"));
    assert_eq!(run.cases[7].system_out.as_deref(), Some("line one\nline two"), "CRLF read as LF");
    // Every warning names its line (counted in the file, 1-based).
    assert!(run.diagnostics.iter().all(|d| d.line.is_some()));
    insta::assert_snapshot!(common::render(&run));
    // The same through read_file (which strips the BOM itself).
    let from_file = read_file(&path).unwrap();
    assert_eq!(from_file.cases.len(), run.cases.len());
}

#[test]
fn utf16_files_are_decoded() {
    let dir = std::env::temp_dir().join(format!("evaltally-junit-utf16-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xml = "<testsuite name=\"ü\"><testcase name=\"日本\"/></testsuite>";
    for (name, be) in [("le.xml", false), ("be.xml", true)] {
        let mut bytes = if be { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
        for unit in xml.encode_utf16() {
            bytes.extend(if be { unit.to_be_bytes() } else { unit.to_le_bytes() });
        }
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let run = read_file(&path).unwrap();
        assert_eq!((run.cases[0].category.as_str(), run.cases[0].id.as_str()), ("ü", "日本"));
    }
    let bad = dir.join("latin1.xml");
    std::fs::write(&bad, b"<testsuites>\n<testsuite name=\"\xFC\"/>").unwrap();
    let err = read_file(&bad).unwrap_err();
    assert!(matches!(err, evaltally_junit::JunitError::Encoding { offset: 30, line: 2, column: 18, .. }), "{err}");
    assert_eq!((err.to_diagnostic().line, err.to_diagnostic().column), (Some(2), Some(18)));
    let missing = read_file(&dir.join("missing.xml")).unwrap_err();
    assert!(matches!(missing, evaltally_junit::JunitError::Io { .. }));
    std::fs::remove_dir_all(&dir).ok();
}
