//! gstack's own behaviour, as recorded in `../shared/refdata/gstack/garrytan-gstack/`
//! (outputs of gstack's `lib/eval-format.ts` run under Node 20), reproduced exactly.
//!
//! Each test names the expected file it compares with. Missing refdata skips the test with
//! a notice (and fails under `CI=true`).

use std::fmt::Write as _;
use std::path::PathBuf;

use evaltally_core::Severity;
use evaltally_gstack::normalize::{self, Direction};
use evaltally_gstack::{GstackRun, Shape, detect, runs, validate, validate_strict};
use evaltally_testkit::refdata;
use serde_json::Value;

const DIR: &str = "gstack/garrytan-gstack";

fn file(name: &str) -> Option<PathBuf> {
    refdata(&format!("{DIR}/{name}"))
}

fn text(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(path: &PathBuf) -> Value {
    serde_json::from_str(&text(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Expected: `derived.validateEvalResult-outputs.json`, `{file: {valid, errors: [..]}}`.
#[test]
fn validate_gives_gstacks_messages_in_gstacks_order() {
    let Some(expected_path) = file("derived.validateEvalResult-outputs.json") else { return };
    let expected = json(&expected_path);
    let cases = expected.as_object().expect("an object keyed by input file");
    assert_eq!(cases.len(), 7, "every input listed is checked");
    for (input, want) in cases {
        let Some(path) = file(input) else { return };
        let findings = validate(&json(&path));
        let got: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
        let want_errors: Vec<&str> =
            want["errors"].as_array().expect("errors").iter().map(|e| e.as_str().expect("string")).collect();
        assert_eq!(got, want_errors, "{input}");
        assert_eq!(findings.is_empty(), want["valid"].as_bool().expect("valid"), "{input}");
        assert!(findings.iter().all(|f| f.severity == Severity::Error), "{input}");
        for f in &findings {
            let field = f.message.strip_prefix("Missing required field: ").expect("only missing fields here");
            assert_eq!(f.path, format!("$.{field}"));
        }
    }
}

/// Expected: `derived.normalizeToLegacy.docs-example.json`.
#[test]
fn to_legacy_of_the_docs_example_is_byte_identical() {
    let (Some(input), Some(expected)) = (
        file("standard-example.from-docs-eval-result-format.json"),
        file("derived.normalizeToLegacy.docs-example.json"),
    ) else {
        return;
    };
    let got = normalize::to_legacy_text(&text(&input)).expect("converts");
    assert_eq!(got, text(&expected));
    assert_eq!(normalize::to_legacy(&json(&input)), json(&expected), "the Value form agrees");
}

/// Expected: `derived.normalizeToLegacy.minimal-valid.json`.
#[test]
fn to_legacy_of_the_minimal_valid_input_is_byte_identical() {
    let (Some(input), Some(expected)) = (
        file("standard-minimal-valid.from-test-lib-eval-cli.json"),
        file("derived.normalizeToLegacy.minimal-valid.json"),
    ) else {
        return;
    };
    let got = normalize::to_legacy_text(&text(&input)).expect("converts");
    assert_eq!(got, text(&expected));
    assert_eq!(normalize::to_legacy(&json(&input)), json(&expected));
}

/// Expected: `derived.normalizeFromLegacy.makeLegacy.json`.
#[test]
fn from_legacy_of_make_legacy_is_byte_identical() {
    let (Some(input), Some(expected)) =
        (file("legacy-makeLegacy.from-test-lib-eval-format.json"), file("derived.normalizeFromLegacy.makeLegacy.json"))
    else {
        return;
    };
    let got = normalize::from_legacy_text(&text(&input)).expect("converts");
    assert_eq!(got, text(&expected));
    assert_eq!(normalize::from_legacy(&json(&input)), json(&expected));
    assert!(normalize::dropped(&json(&input), Direction::FromLegacy).is_empty(), "makeLegacy loses nothing");
}

/// Expected: the docs example drops only `costs` on its way to the legacy file, as the
/// notes (§3 step 5) say `gstack eval cost` afterwards shows.
#[test]
fn the_docs_example_loses_its_costs() {
    let Some(input) = file("standard-example.from-docs-eval-result-format.json") else { return };
    assert_eq!(normalize::dropped(&json(&input), Direction::ToLegacy), ["costs"]);
}

/// Expected: every gstack file is recognised in its shape, the fragments and the other
/// formats beside them in `refdata/gstack/` are not.
#[test]
fn detect_tells_the_shapes_apart() {
    let cases = [
        ("standard-example.from-docs-eval-result-format.json", Some(Shape::Standard)),
        ("standard-minimal-valid.from-test-lib-eval-cli.json", Some(Shape::Standard)),
        ("design-doc-example.from-TEAM_COORDINATION_STORE.json", Some(Shape::Standard)),
        ("derived.normalizeFromLegacy.makeLegacy.json", Some(Shape::Standard)),
        ("legacy-makeLegacy.from-test-lib-eval-format.json", Some(Shape::Legacy)),
        ("derived.normalizeToLegacy.docs-example.json", Some(Shape::Legacy)),
        ("design-doc-failures.snippet.json", None),
        ("design-doc-per-result-comparison.snippet.json", None),
        ("design-doc-per-result-output.snippet.json", None),
        ("derived.validateEvalResult-outputs.json", None),
    ];
    for (name, shape) in cases {
        let Some(path) = file(name) else { return };
        assert_eq!(detect(&json(&path)), shape, "{name}");
    }
    for other in [
        "promptfoo/sample-export.json",
        "inspect_ai/log_formats.json",
        "lm-evaluation-harness/results_2025-12-17T20-24-58.608862.json",
    ] {
        let Some(path) = refdata(&format!("gstack/{other}")) else { return };
        assert_eq!(detect(&json(&path)), None, "{other}");
    }
}

/// Expected: the design-doc example (which gstack's validator rejects) reads with its
/// `{passed, total}` categories, per-result `category`, `failures: []` and `comparison: null`.
#[test]
fn the_design_doc_example_reads_in_its_own_shape() {
    let Some(path) = file("design-doc-example.from-TEAM_COORDINATION_STORE.json") else { return };
    let run = GstackRun::from_value(&json(&path)).expect("a standard result");
    assert_eq!(run.duration_seconds, Some(893.4));
    assert_eq!(run.by_category["post_generation"].failed_count(), Some(1));
    assert_eq!(run.by_category["tool_usage"].total_count(), Some(1));
    let t = &run.tests[0];
    assert_eq!((t.category.as_deref(), t.failures.as_deref().map(<[_]>::len)), (Some("post_generation"), Some(0)));
    assert_eq!(t.comparison, None);
    assert_eq!(run.name(), "dev_fix-terseness_standard");
    assert_eq!(run.model(), "claude-sonnet-4-6");
    let cats = runs::category_runs(&run);
    assert_eq!(cats.len(), 1);
    assert_eq!((cats[0].category.as_str(), cats[0].passed()), ("post_generation", 1));
}

/// Expected (reviewed snapshot): strict findings for every refdata input; gstack's errors
/// come first, unchanged.
#[test]
fn strict_findings_on_refdata() {
    let mut out = String::new();
    for name in [
        "standard-example.from-docs-eval-result-format.json",
        "standard-minimal-valid.from-test-lib-eval-cli.json",
        "design-doc-example.from-TEAM_COORDINATION_STORE.json",
        "legacy-makeLegacy.from-test-lib-eval-format.json",
        "derived.normalizeFromLegacy.makeLegacy.json",
    ] {
        let Some(path) = file(name) else { return };
        let v = json(&path);
        let strict = validate_strict(&v);
        let plain = validate(&v);
        assert_eq!(strict[..plain.len()], plain[..], "{name}: gstack's findings come first");
        let _ = writeln!(out, "{name}:");
        for f in strict {
            let _ = writeln!(out, "  {f}");
        }
    }
    insta::assert_snapshot!(out);
}
