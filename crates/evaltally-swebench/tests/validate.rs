//! Validation against SWE-bench's committed gold reports and the harness output in the shared
//! reference data (`../shared/refdata/swebench`). Each test names the file it compares with.

use std::fmt::Write as _;

use evaltally_core::Finding;
use evaltally_swebench::detect::{Format, detect};
use evaltally_swebench::validate::validate;
use evaltally_testkit::{refdata, testdata};
use serde_json::{Value, json};

use evaltally_testkit::load_json as load;

use evaltally_testkit::render_findings as render;

fn errors(findings: &[Finding]) -> Vec<&Finding> {
    findings.iter().filter(|f| f.is_error()).collect()
}

/// Expected: `swebench-official-gold-reports/gold.validate-gold.json` (total 1, submitted 300):
/// exactly one warning naming both numbers, and no error.
#[test]
fn gold_validate_gold_total_below_submitted_is_a_warning() {
    let Some(path) = refdata("swebench/swebench-official-gold-reports/gold.validate-gold.json") else { return };
    let doc = load(&path);
    assert_eq!(detect(&doc), Some(Format::RunReport));
    let findings = validate(&doc, Format::RunReport);
    assert!(errors(&findings).is_empty(), "{}", render(&findings));
    let below: Vec<&Finding> =
        findings.iter().filter(|f| f.message.contains("(1) is below submitted_instances (300)")).collect();
    assert_eq!(below.len(), 1, "{}", render(&findings));
    assert!(!below[0].is_error());
    insta::assert_snapshot!(render(&findings));
}

/// Expected: `gold.fresh-verified.json` (500/500) and `gold.jest-gold.json` (288 errors) are
/// consistent harness output: no errors, no warnings.
#[test]
fn gold_fresh_and_jest_validate_without_errors() {
    for name in ["gold.fresh-verified.json", "gold.jest-gold.json"] {
        let Some(path) = refdata(&format!("swebench/swebench-official-gold-reports/{name}")) else { return };
        let doc = load(&path);
        let findings = validate(&doc, Format::RunReport);
        assert!(findings.is_empty(), "{name}:\n{}", render(&findings));
    }
}

/// Every SWE-bench run report and per-instance report in the reference data is real harness
/// output (PROVENANCE.md checked their lists by hand): none has an error.
#[test]
fn every_swebench_report_in_refdata_has_no_error() {
    let Some(root) = refdata("swebench") else { return };
    let mut stack = vec![root];
    let (mut runs, mut instances) = (0, 0);
    let mut warnings = String::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let Ok(doc) = serde_json::from_str::<Value>(&text) else { continue };
            let Some(format) = detect(&doc) else {
                continue;
            };
            let findings = validate(&doc, format);
            assert!(errors(&findings).is_empty(), "{}:\n{}", path.display(), render(&findings));
            if format == Format::RunReport {
                runs += 1;
                for f in &findings {
                    let _ = writeln!(warnings, "{}: {f}", path.file_name().and_then(|n| n.to_str()).unwrap_or(""));
                }
            } else {
                instances += 1;
            }
        }
    }
    assert!(runs >= 20, "{runs} run reports");
    assert!(instances >= 500, "{instances} instance reports");
    let mut lines: Vec<&str> = warnings.lines().collect();
    lines.sort_unstable();
    insta::assert_snapshot!(lines.join("\n"));
}

/// Expected: a snapshot of the SWE-bench checks on a small run report and instance report
/// broken on purpose.
#[test]
fn swebench_checks_on_broken_reports() {
    let run = json!({
        "total_instances": 5, "submitted_instances": 4, "completed_instances": 3, "resolved_instances": 2,
        "unresolved_instances": 2, "empty_patch_instances": 1, "error_instances": 1,
        "completed_ids": ["a", "b", "c"], "incomplete_ids": ["e"], "empty_patch_ids": ["d"],
        "submitted_ids": ["a", "b", "c", "d"], "resolved_ids": ["a", "a"], "unresolved_ids": ["a"],
        "error_ids": ["x"], "schema_version": "2", "pending_instances": 0
    });
    assert_eq!(detect(&run), Some(Format::RunReport));
    let instance = json!({"django__django-11099": {
        "patch_is_None": false, "patch_exists": true, "patch_successfully_applied": true, "resolved": true,
        "tests_status": {"FAIL_TO_PASS": {"success": [], "failure": ["test_a"]}, "PASS_TO_PASS": {"success": ["test_b"], "failure": []}}
    }});
    assert_eq!(detect(&instance), Some(Format::InstanceReport));
    let mut out = String::from("== run report\n");
    out.push_str(&render(&validate(&run, Format::RunReport)));
    out.push_str("== instance report\n");
    out.push_str(&render(&validate(&instance, Format::InstanceReport)));
    insta::assert_snapshot!(out);
}

/// Expected: sb-cli's report (`testdata/shapes/swebench/sb-cli-report`) validates without a
/// word (its `failed_ids` and `pending_ids` are known, its missing empty-patch keys are
/// sb-cli's way); a failed id outside `submitted_ids` is warned about, and a count that
/// differs from its list is an error, as the harness's are.
#[test]
fn sb_cli_reports_validate_and_their_own_lists_are_checked() {
    let path = testdata("shapes/swebench/sb-cli-report/sb-cli-reports/swe-bench_verified__test__acme-run-1.json");
    let mut doc = load(&path);
    assert_eq!(detect(&doc), Some(Format::RunReport));
    let findings = validate(&doc, Format::RunReport);
    assert!(findings.is_empty(), "{}", render(&findings));
    doc["failed_ids"].as_array_mut().unwrap().push(json!("ghost__ghost-1"));
    let findings = validate(&doc, Format::RunReport);
    let said = render(&findings);
    assert_eq!(errors(&findings).len(), 1, "{said}");
    assert_eq!(errors(&findings)[0].path, "$.failed_instances", "{said}");
    assert!(said.contains("warning: has \"ghost__ghost-1\" not in submitted_ids"), "{said}");
    // Without sb-cli's lists, the empty-patch keys are missed again.
    let mut harness = doc.clone();
    for k in ["failed_ids", "pending_ids", "failed_instances", "pending_instances"] {
        harness.as_object_mut().unwrap().remove(k);
    }
    assert!(render(&validate(&harness, Format::RunReport)).contains("missing empty_patch_instances"));
}

fn exercise(doc: &Value) {
    for format in [Format::RunReport, Format::InstanceReport] {
        for f in validate(doc, format) {
            assert!(!f.path.is_empty() && !f.message.is_empty());
        }
    }
}

/// No input makes validation panic: every field of the reference documents (SWE-bench's and,
/// as other shapes, SF-Bench's) replaced by every hostile value, and the hostile values as
/// whole documents.
#[test]
fn no_panic_on_hostile_input() {
    let mut docs = vec![
        load(&testdata("swebench/runs/acme-agent-1.5.run-2.json")),
        load(&testdata("swebench/runs/logs/run_evaluation/run-2/acme-agent-1.5/django__django-11099/report.json")),
    ];
    docs.extend(evaltally_testkit::hostile::report_documents());
    evaltally_testkit::hostile::each_variant(&docs, exercise);
}
