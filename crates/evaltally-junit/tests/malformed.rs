//! Input that is not a JUnit report gives an error that says where and what was expected,
//! never a panic: truncation at every byte, wrong roots, bad attributes, deep nesting,
//! binary garbage and random mutations of real reports.

use std::path::Path;

use evaltally_core::SplitMix64;
use evaltally_junit::{JunitError, MAX_DEPTH, looks_like_junit, read};

const VALID: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="r">
  <testsuite name="s" tests="2">
    <properties><property name="model" value="m"/></properties>
    <testcase classname="s" name="a &amp; b" time="0.5"/>
    <testcase classname="s" name="c" time="1">
      <failure message="boom" type="E"><![CDATA[trace ]]> &lt;here&gt;</failure>
      <system-out>out</system-out>
    </testcase>
  </testsuite>
</testsuites>
"#;

fn err(xml: &str) -> (u64, u64, String, String) {
    match read(xml, Path::new("bad.xml")) {
        Err(JunitError::Malformed { line, column, expected, found, .. }) => (line, column, expected, found),
        other => panic!("expected a Malformed error for {xml:?}, got {other:?}"),
    }
}

#[test]
fn the_valid_document_reads() {
    let run = read(VALID, Path::new("ok.xml")).unwrap();
    assert_eq!(run.cases.len(), 2);
    assert_eq!(run.cases[1].message(), Some("trace  <here>"), "CDATA `trace ` then text");
}

#[test]
fn every_truncation_is_an_error() {
    // Every prefix that stops before the root's end tag is complete must fail, with a
    // position inside the prefix.
    let complete = VALID.find("</testsuites>").unwrap() + "</testsuites>".len();
    for cut in (0..complete).filter(|&i| VALID.is_char_boundary(i)) {
        let prefix = &VALID[..cut];
        match read(prefix, Path::new("cut.xml")) {
            Err(JunitError::Malformed { offset, .. }) => assert!(offset <= cut, "cut at {cut}: offset {offset}"),
            other => panic!("cut at {cut}: expected an error, got {other:?}"),
        }
    }
    for cut in complete..=VALID.len() {
        assert!(read(&VALID[..cut], Path::new("cut.xml")).is_ok(), "only whitespace is missing at {cut}");
    }
}

#[test]
fn truncation_names_the_open_element() {
    let (line, _, expected, found) =
        err("<testsuites>\n  <testsuite name=\"s\">\n    <testcase name=\"t\">\n      <failure>half");
    assert_eq!((line, expected.as_str(), found.as_str()), (4, "`</failure>` (opened at line 4)", "end of input"));
    let (_, _, expected, found) = err("<testsuites><testcase name=\"t\"><failure><![CDATA[half");
    assert_eq!((expected.as_str(), found.as_str()), ("`]]>` closing the CDATA section", "end of input"));
    let (_, _, expected, _) = err("<testsuites><testcase name=\"t");
    assert_eq!(expected, "`>` closing the tag");
    let (_, _, expected, found) = err("");
    assert_eq!((expected.as_str(), found.as_str()), ("a `<testsuites>` or `<testsuite>` root element", "end of input"));
    let (_, _, expected, _) = err("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n");
    assert_eq!(expected, "a `<testsuites>` or `<testsuite>` root element");
}

#[test]
fn wrong_roots() {
    let cases = [
        ("<html><body/></html>", "`<html>`"),
        ("<?xml version=\"1.0\"?>\n<testsuitesx/>", "`<testsuitesx>`"),
        ("<testcase name=\"t\"/>", "`<testcase>`"),
        ("<TestSuites/>", "`<TestSuites>`"),
        ("<assemblies><assembly/></assemblies>", "`<assemblies>`"),
    ];
    for (xml, found) in cases {
        let (_, _, expected, got) = err(xml);
        assert_eq!(
            (expected.as_str(), got.as_str()),
            ("`<testsuites>` or `<testsuite>` as the root element", found),
            "{xml}"
        );
        assert!(!looks_like_junit(xml) || xml.contains("<testsuites"), "{xml}");
    }
    let (line, column, expected, found) = err("<testsuites/>\n<testsuites/>");
    assert_eq!(
        (line, column, expected.as_str(), found.as_str()),
        (2, 1, "the end of the document", "a second root `<testsuites>`")
    );
    let (_, _, expected, found) = err("hello <testsuites/>");
    assert_eq!((expected.as_str(), found.as_str()), ("`<testsuites>` or `<testsuite>`", "text `hello`"));
    let (_, _, _, found) = err("<testsuites/> trailing");
    assert_eq!(found, "text `trailing`");
    let (_, _, _, found) = err("<testsuites/>&amp;");
    assert_eq!(found, "`&amp;`");
    let (_, _, _, found) = err("{\"testsuites\": []}");
    assert!(found.starts_with("text `{\"testsuites\""), "{found}");
}

#[test]
fn mismatched_and_stray_end_tags() {
    let (line, column, expected, found) = err("<testsuites>\n<testsuite name=\"s\">\n</testsuites>");
    assert_eq!((line, column, expected.as_str(), found.as_str()), (3, 1, "`</testsuite>`", "`</testsuites>`"));
    let (_, _, expected, found) = err("<testsuites/></testsuites>");
    assert_eq!((expected.as_str(), found.as_str()), ("an open element to close", "`</testsuites>`"));
}

#[test]
fn bad_attributes() {
    for xml in [
        "<testsuites><testcase name=\"a\" name=\"b\"/></testsuites>",
        "<testsuites><testcase name=unquoted/></testsuites>",
        "<testsuites><testcase name=\"open/></testsuites>",
        "<testsuites><testcase name/></testsuites>",
        "<testsuites><testcase =\"x\"/></testsuites>",
        "<testsuites name='a\"/>",
    ] {
        let (line, column, expected, found) = err(xml);
        assert!(line == 1 && column >= 1, "{xml}");
        assert!(expected.contains("attributes") || expected.contains('>'), "{xml}: {expected} / {found}");
    }
    // The position points into the tag, at the offending attribute.
    let (_, column, expected, found) = err("<testsuites><testcase name=\"a\" name=\"b\"/></testsuites>");
    assert_eq!((column, expected.as_str()), (32, "well-formed attributes in `<testcase>`"), "{found}");
    // Attribute values that are only odd are tolerated with warnings.
    let run = read(
        "<testsuite name=\"s\" tests=\"many\"><testcase name=\"t\" time=\"soon\"/></testsuite>",
        Path::new("w.xml"),
    )
    .unwrap();
    assert_eq!(run.diagnostics.len(), 2, "{:?}", run.diagnostics);
}

#[test]
fn deep_nesting_is_refused() {
    let depth = MAX_DEPTH + 1;
    let xml = format!("<testsuites>{}{}</testsuites>", "<testsuite>".repeat(depth), "</testsuite>".repeat(depth));
    let (_, _, expected, found) = err(&xml);
    assert_eq!(
        (expected, found),
        (format!("at most {MAX_DEPTH} nested elements"), "`<testsuite>` nested deeper".to_string())
    );
    // Unknown elements count too, and a million of them cost nothing.
    let xml = format!("<testsuites>{}", "<x>".repeat(1_000_000));
    assert!(err(&xml).2.starts_with("at most"));
    // Just inside the limit is fine.
    let ok = format!(
        "<testsuites>{}{}</testsuites>",
        "<testsuite>".repeat(MAX_DEPTH - 1),
        "</testsuite>".repeat(MAX_DEPTH - 1)
    );
    assert_eq!(read(&ok, Path::new("deep.xml")).unwrap().suites.len(), MAX_DEPTH - 1);
}

#[test]
fn binary_garbage_is_an_error() {
    let mut rng = SplitMix64::new(7);
    for round in 0..500 {
        let len = rng.below(300);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64().to_le_bytes()[0]).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = looks_like_junit(&text);
        assert!(read(&text, Path::new("garbage.bin")).is_err() || text.contains("<testsuite"), "round {round}");
    }
    assert!(read("\u{0}\u{1}\u{2}PK\u{3}\u{4}", Path::new("zip")).is_err());
    assert!(read("\u{feff}", Path::new("bom-only")).is_err());
}

#[test]
fn mutated_reports_never_panic() {
    // Random byte edits of a valid report: any result is fine, a panic is not.
    let markup = [
        "<",
        ">",
        "/",
        "\"",
        "'",
        "&",
        ";",
        "<![CDATA[",
        "]]>",
        "<!--",
        "-->",
        "<?",
        "?>",
        "=",
        " ",
        "\u{0}",
        "&#",
        "é",
    ];
    let mut rng = SplitMix64::new(11);
    for _ in 0..3000 {
        let mut text = VALID.to_string();
        for _ in 0..=rng.below(4) {
            let mut at = rng.below(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let piece = markup[rng.below(markup.len())];
            match rng.below(3) {
                0 => text.insert_str(at, piece),
                1 => {
                    let end = (at + piece.len()).min(text.len());
                    let end = (end..=text.len()).find(|&e| text.is_char_boundary(e)).unwrap();
                    text.replace_range(at..end, "");
                }
                _ => {
                    let end = (at + 1..=text.len()).find(|&e| text.is_char_boundary(e)).unwrap_or(text.len());
                    text.replace_range(at..end, piece);
                }
            }
            if text.is_empty() {
                text.push('<');
            }
        }
        if let Ok(run) = read(&text, Path::new("mutated.xml")) {
            // Whatever was read converts without trouble.
            let _ = run.category_runs("r", "m");
            let _ = run.record("r", "m");
            let _ = run.cases.first().map(|c| run.show(&c.id));
        }
    }
}
