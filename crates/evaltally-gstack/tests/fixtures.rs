//! Golden tests over the fixtures in `testdata/gstack/` (see its README): what discovery
//! finds, the category runs and diagnostics each file gives, `show`, strict validation and
//! conversions, compared with reviewed snapshots.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use evaltally_core::Diagnostic;
use evaltally_format::{Options, Registry, Scratch};
use evaltally_gstack::normalize::{self, Direction};
use evaltally_gstack::{GstackRun, runs, sources, validate_strict};
use evaltally_testkit::{testdata, workspace_root};
use serde_json::Value;

fn shown(p: &Path) -> String {
    let root = workspace_root();
    p.strip_prefix(&root).unwrap_or(p).display().to_string()
}

fn relative(mut d: Diagnostic) -> Diagnostic {
    d.path = shown(&d.path).into();
    d
}

/// The gstack results the reading pipeline finds and reads at or below `path` (through a
/// registry of gstack alone): the files that gave a run, in walk order. Only the files that
/// gave none add their diagnostics (callers read the others again).
fn discover(path: &Path, include_partial: bool, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let registry = Registry::new(vec![&evaltally_gstack::FORMAT]);
    let options = Options { include_partial, ..Options::default() };
    let Ok(found) = registry.discover(&[path.to_path_buf()], &options) else { return Vec::new() };
    diags.extend(found.diagnostics);
    let mut scratch = Scratch::default();
    let mut files = Vec::new();
    for unit in &found.units {
        let read = unit.records(&mut scratch, &options);
        if read.runs.is_empty() {
            diags.extend(read.diagnostics);
        }
        files.extend(read.runs.into_iter().map(|r| r.source));
    }
    files
}

/// Discovers and reads every result below `testdata/<rel>`, rendering runs and diagnostics.
fn render(rel: &str, include_partial: bool) -> String {
    let mut diags = Vec::new();
    let files = discover(&testdata(rel), include_partial, &mut diags);
    let mut out = String::new();
    for file in &files {
        let (run, notes) = match sources::read(file) {
            Ok(r) => r,
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        diags.extend(notes);
        let secs = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s}s"));
        let _ = writeln!(
            out,
            "{} ({}): run {}, model {}, tier {}, {} duration, {} wall clock",
            shown(file),
            run.shape.name(),
            run.name(),
            run.model(),
            run.tier.as_deref().unwrap_or("-"),
            secs(run.duration_seconds),
            secs(run.wall_clock_seconds),
        );
        for cat in runs::category_runs(&run) {
            let files: Vec<String> = cat.sources.iter().map(|p| shown(p)).collect();
            let _ = writeln!(
                out,
                "  {}: {} tests, {} passed, {} failed <- {}",
                cat.category,
                cat.len(),
                cat.passed(),
                cat.failed(),
                files.join(" + ")
            );
            for t in cat.tests() {
                let label = t.error_type.map(|e| format!(" {e}")).unwrap_or_default();
                let _ = writeln!(out, "    {} {:?}{label}", t.id, t.outcome);
            }
        }
    }
    out.push_str("diagnostics:\n");
    for d in diags {
        let _ = writeln!(out, "  {}", relative(d));
    }
    out
}

fn fixture(rel: &str) -> PathBuf {
    testdata(&format!("gstack/{rel}"))
}

fn load(rel: &str) -> GstackRun {
    sources::read(&fixture(rel)).expect("fixture reads").0
}

fn read_value(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture(rel)).expect("fixture exists")).expect("fixture is JSON")
}

#[test]
fn legacy_evals_folder() {
    insta::assert_snapshot!(render("gstack/evals", false));
}

#[test]
fn standard_runs_of_the_same_suites() {
    insta::assert_snapshot!(render("gstack/standard", false));
}

#[test]
fn every_tolerated_quirk() {
    insta::assert_snapshot!(render("gstack/quirks", false));
}

#[test]
fn partial_saves_are_read_only_when_asked() {
    let mut diags = Vec::new();
    let names = |files: Vec<PathBuf>| -> Vec<String> {
        files.iter().map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect()
    };
    let without = names(discover(&fixture("evals"), false, &mut diags));
    assert_eq!(
        without,
        [
            "0.4.1-main-e2e-2026-03-14-0910.json",
            "0.4.1-main-e2e-2026-03-15-1030.json",
            "0.4.1-main-llm-judge-2026-03-15-1045.json"
        ]
    );
    let with = names(discover(&fixture("evals"), true, &mut diags));
    assert_eq!(with.len(), 4);
    assert!(with.contains(&"_partial-e2e.json".to_string()));
    // `_partial: true` inside a file with an ordinary name counts too.
    assert!(!names(discover(&fixture("quirks"), false, &mut diags)).contains(&"resumed.json".to_string()));
    assert!(names(discover(&fixture("quirks"), true, &mut diags)).contains(&"resumed.json".to_string()));
    assert!(diags.iter().filter(|d| d.is_error()).all(|d| d.message.starts_with("not valid JSON")), "{diags:?}");
}

#[test]
fn a_partial_file_named_directly_is_skipped_with_a_warning() {
    let mut diags = Vec::new();
    let found = discover(&fixture("evals/_partial-e2e.json"), false, &mut diags);
    assert!(found.is_empty());
    let diags: Vec<String> = diags.into_iter().map(|d| relative(d).to_string()).collect();
    assert_eq!(
        diags,
        [
            "testdata/gstack/evals/_partial-e2e.json: warning: skipped: an incremental save of a run that had not finished \
          (gstack's readers skip these too); ask to include partial results to read it"
        ]
    );
    let (run, notes) = sources::read(&fixture("evals/_partial-e2e.json")).expect("reads when asked");
    assert!(run.partial);
    assert_eq!(notes.len(), 1);
}

#[test]
fn a_file_of_another_format_named_directly_is_reported() {
    let mut diags = Vec::new();
    assert!(discover(&fixture("quirks/other-format.json"), false, &mut diags).is_empty());
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].message.starts_with("not a format evaltally knows (tried: gstack results)"), "{diags:?}");
    assert!(discover(&fixture("quirks/notes.json"), false, &mut diags).is_empty());
    assert_eq!(diags.len(), 2, "a file named directly that is not JSON is reported");
    assert!(diags[1].message.starts_with("not valid JSON"), "{diags:?}");
    let err = sources::read(&fixture("quirks/other-format.json")).unwrap_err();
    assert!(err.message.starts_with("not a gstack eval result"), "{err}");
}

#[test]
fn show_a_timeout_with_its_diagnostics() {
    let run = load("evals/0.4.1-main-e2e-2026-03-15-1030.json");
    insta::assert_json_snapshot!(runs::show(&run, "browse-snapshot-flags"));
}

#[test]
fn show_a_passed_test_with_its_prompt_transcript_and_timing() {
    let run = load("evals/0.4.1-main-e2e-2026-03-14-0910.json");
    insta::assert_json_snapshot!(runs::show(&run, "browse-basic"));
}

#[test]
fn show_tokens_from_per_test_costs() {
    let run = load("evals/0.4.1-main-e2e-2026-03-15-1030.json");
    let d = runs::show(&run, "review-sql-injection").expect("listed");
    assert_eq!((d.input_tokens, d.output_tokens), (Some(120_400), Some(9_120)));
    let basic = runs::show(&run, "browse-basic").expect("listed");
    assert_eq!(basic.input_tokens, None);
    assert_eq!(basic.error_details.as_ref().and_then(|d| d.get("tokens_used")), Some(&Value::from(48_210)));
    assert!(runs::show(&run, "no-such-test").is_none());
}

#[test]
fn show_a_judged_failure() {
    let run = load("evals/0.4.1-main-llm-judge-2026-03-15-1045.json");
    insta::assert_json_snapshot!(runs::show(&run, "browse-skill-clarity"));
}

#[test]
fn show_design_doc_failures_and_comparison() {
    let run = load("standard/nightly-2.json");
    insta::assert_json_snapshot!(runs::show(&run, "password-reset"));
}

#[test]
fn strict_findings_on_fixtures() {
    let mut out = String::new();
    for rel in [
        "standard/nightly-1.json",
        "standard/nightly-2.json",
        "quirks/quirks.json",
        "quirks/resumed.json",
        "evals/0.4.1-main-e2e-2026-03-15-1030.json",
    ] {
        let _ = writeln!(out, "{rel}:");
        for f in validate_strict(&read_value(rel)) {
            let _ = writeln!(out, "  {f}");
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn conversions_of_fixtures() {
    let mut out = String::new();
    for (rel, direction) in [
        ("standard/nightly-2.json", Direction::ToLegacy),
        ("evals/0.4.1-main-e2e-2026-03-15-1030.json", Direction::FromLegacy),
    ] {
        let text = std::fs::read_to_string(fixture(rel)).expect("fixture exists");
        let converted = match direction {
            Direction::ToLegacy => normalize::to_legacy_text(&text),
            Direction::FromLegacy => normalize::from_legacy_text(&text),
        }
        .expect("converts");
        let _ = writeln!(out, "{rel} ({direction:?}), dropped: {:?}", normalize::dropped(&read_value(rel), direction));
        out.push_str(&converted);
        // The serde form is the same document, key order aside.
        let value = match direction {
            Direction::ToLegacy => normalize::to_legacy(&read_value(rel)),
            Direction::FromLegacy => normalize::from_legacy(&read_value(rel)),
        };
        assert_eq!(value, serde_json::from_str::<Value>(&converted).expect("JSON"), "{rel}");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn converted_fixtures_read_as_the_same_runs() {
    for rel in ["evals/0.4.1-main-e2e-2026-03-14-0910.json", "evals/0.4.1-main-e2e-2026-03-15-1030.json"] {
        let legacy = read_value(rel);
        let standard = normalize::from_legacy(&legacy);
        assert!(evaltally_gstack::validate(&standard).is_empty(), "{rel}: the standard form passes gstack's validator");
        let a = runs::category_runs(&GstackRun::from_value(&legacy).expect("legacy"));
        let b = runs::category_runs(&GstackRun::from_value(&standard).expect("standard"));
        let outcomes = |r: &[evaltally_core::CategoryRun]| -> Vec<(String, String, String)> {
            r.iter()
                .flat_map(|c| {
                    c.tests().map(|t| {
                        (
                            c.category.clone(),
                            t.id.to_string(),
                            t.error_type.map(ToString::to_string).unwrap_or_default(),
                        )
                    })
                })
                .collect()
        };
        assert_eq!(outcomes(&a), outcomes(&b), "{rel}");
    }
}
