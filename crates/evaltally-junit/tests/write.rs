//! The writer's output: a reviewed snapshot of a small run, and the escaping of strings
//! that could break a document.

use std::path::{Path, PathBuf};

use evaltally_core::{Outcome, RunRecord, TestRecord};
use evaltally_junit::{HEADLINE_CHARS, read, write};

fn test(category: &str, id: &str, outcome: Option<Outcome>) -> TestRecord {
    TestRecord { id: id.into(), category: category.into(), outcome, ..Default::default() }
}

fn small_run() -> RunRecord {
    RunRecord {
        run: "run-2".into(),
        model: "acme_tiny-7b".into(),
        format: "bfcl".into(),
        source: PathBuf::from("runs/run-2"),
        started_at: Some("2026-03-04T05:06:07Z".into()),
        tests: vec![
            TestRecord {
                duration_ms: Some(1234.5),
                input_tokens: Some(812),
                output_tokens: Some(64),
                cost_usd: Some(0.001_25),
                ..test("simple_python", "simple_python_10", Some(Outcome::Pass))
            },
            TestRecord {
                error_type: Some("value_error:string".into()),
                error_message: Some(
                    "Invalid value for parameter 'unit': \"C\" <expected \"celsius\">\n  at arg 2".into(),
                ),
                duration_ms: Some(980.0),
                input_tokens: Some(790),
                output_tokens: Some(41),
                ..test("simple_python", "simple_python_2", Some(Outcome::Fail))
            },
            test("irrelevance", "irrelevance_0", Some(Outcome::Unscored)),
            TestRecord {
                error_type: Some("inference_error".into()),
                ..test("irrelevance", "irrelevance_1", Some(Outcome::Fail))
            },
            test("live_simple", "live_simple_0-0-0", None),
        ],
        ..RunRecord::default()
    }
}

#[test]
fn small_run_snapshot() {
    let run = small_run();
    let xml = write(&run);
    insta::assert_snapshot!(xml);

    // And it reads back as it was written.
    let back = read(&xml, Path::new("run-2.xml")).unwrap();
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    let rec = back.record(&run.run, &run.model);
    assert_eq!(rec.started_at, run.started_at);
    let by_id = |id: &str| rec.tests.iter().find(|t| t.id == id).unwrap();
    for t in &run.tests {
        let b = by_id(&t.id);
        assert_eq!((b.outcome, &b.category), (t.outcome, &t.category), "{}", t.id);
        assert_eq!((b.input_tokens, b.output_tokens, b.cost_usd), (t.input_tokens, t.output_tokens, t.cost_usd));
        if t.outcome == Some(Outcome::Fail) {
            assert_eq!((&b.error_type, &b.error_message), (&t.error_type, &t.error_message), "{}", t.id);
        }
    }
    assert_eq!(by_id("simple_python_10").duration_ms, Some(1234.5));
    assert_eq!(by_id("irrelevance_0").duration_ms, Some(0.0), "unknown durations are written as 0");
}

#[test]
fn empty_run_is_an_empty_testsuites() {
    let run = RunRecord { run: "empty".into(), ..Default::default() };
    let xml = write(&run);
    assert_eq!(
        xml,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"empty\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\"/>\n"
    );
    let back = read(&xml, Path::new("empty.xml")).unwrap();
    assert!(back.cases.is_empty() && back.category_runs("empty", "m").is_empty());
}

#[test]
fn nasty_strings_stay_well_formed() {
    let nasty = "q\"uo'te <tag attr=\"x\"> & &amp; ]]> <![CDATA[ x ]]> \u{0}\u{1}\u{8}\u{b}\u{c}\u{1b}[31m\u{7f} \u{fffe}\u{ffff} é 日本 🚀 \t\r\n\r end  ";
    let mut run = RunRecord { run: nasty.into(), model: nasty.into(), format: nasty.into(), ..Default::default() };
    run.started_at = Some(nasty.into());
    run.tests.push(TestRecord {
        error_type: Some(nasty.into()),
        error_message: Some(nasty.into()),
        ..test(nasty, nasty, Some(Outcome::Fail))
    });
    let xml = write(&run);
    // No character XML 1.0 forbids, raw or as a reference.
    assert!(
        !xml.chars()
            .any(|c| matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}'))
    );
    assert!(!xml.contains("&#0;") && !xml.contains("&#1;"));
    assert!(!xml.contains("]]>"), "`>` is escaped everywhere");
    assert!(!xml.contains('\r'), "carriage returns are references");
    let back = read(&xml, Path::new("nasty.xml")).unwrap();
    let safe = evaltally_junit::xml_safe(nasty).into_owned();
    assert_eq!((back.run_name(), back.model()), (safe.clone(), Some(safe.as_str())));
    assert_eq!(back.property("format"), Some(safe.as_str()));
    assert_eq!(back.started_at(), Some(safe.as_str()));
    let case = &back.cases[0];
    assert_eq!((case.category.as_str(), case.id.as_str()), (safe.as_str(), safe.as_str()));
    assert_eq!((case.error_type(), case.message()), (Some(safe.as_str()), Some(safe.as_str())));
}

#[test]
fn long_messages_get_a_short_headline() {
    let line = "x".repeat(HEADLINE_CHARS + 50);
    let message = format!("\n  \n{line}\nsecond line");
    let mut run = RunRecord { run: "r".into(), ..Default::default() };
    run.tests.push(TestRecord { error_message: Some(message.clone()), ..test("c", "t", Some(Outcome::Fail)) });
    let xml = write(&run);
    let back = read(&xml, Path::new("r.xml")).unwrap();
    let problem = &back.cases[0].problems[0];
    assert_eq!(problem.message.as_deref(), Some(format!("{}…", &line[..HEADLINE_CHARS]).as_str()));
    assert_eq!(problem.type_name, None, "no error type, no `type` attribute");
    assert_eq!(back.cases[0].message(), Some(message.as_str()), "the text holds the whole message");
    assert_eq!(back.cases[0].error_type(), Some("failure"));
}
