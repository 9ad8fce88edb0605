//! Validation and v1 migration against SF-Bench's upstream outputs and documentation examples
//! (`../shared/refdata/sfbench`) and the v1 fixtures in `testdata/sfbench/`. Each test names
//! the file it compares with.

use std::fmt::Write as _;

use evaltally_core::Finding;
use evaltally_format::check::read_doc_example;
use evaltally_sfbench::detect::{Format, detect};
use evaltally_sfbench::migrate::{self, UNKNOWN_TIME, to_json_pretty, to_v2};
use evaltally_sfbench::report::{INSTANCE_KEYS, REPORT_KEYS};
use evaltally_sfbench::v1::{self, V1Shape, read_as};
use evaltally_sfbench::validate::{Part, detect_part, has_errors, upstream_valid, validate, validate_part};
use evaltally_testkit::{refdata, testdata};
use serde_json::{Value, json};

use evaltally_testkit::load_json as load;

use evaltally_testkit::render_findings as render;

fn errors(findings: &[Finding]) -> Vec<&Finding> {
    findings.iter().filter(|f| f.is_error()).collect()
}

/// Expected: `upstream-code-oracle-synthetic/validate_schema_results.json`, upstream's
/// `validate_schema` on 9 variants, each built as its name says.
#[test]
fn upstream_valid_reproduces_validate_schema_results() {
    let (Some(oracle), Some(synthetic), Some(gold)) = (
        refdata("sfbench/upstream-code-oracle-synthetic/validate_schema_results.json"),
        refdata("sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json"),
        refdata("swebench/swebench-official-gold-reports/gold.fresh-verified.json"),
    ) else {
        return;
    };
    let oracle = load(&oracle);
    let base = load(&synthetic);
    let with = |f: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut v = base.clone();
        f(v.as_object_mut().expect("the synthetic report is an object"));
        v
    };
    let cases: Vec<(&str, Value)> = vec![
        ("synthetic_v2_report", base.clone()),
        (
            "schema_version_2_as_int",
            with(&|m| {
                m.insert("schema_version".into(), json!(2));
            }),
        ),
        (
            "schema_version_2.0_string",
            with(&|m| {
                m.insert("schema_version".into(), json!("2.0"));
            }),
        ),
        (
            "missing_model_name",
            with(&|m| {
                m.remove("model_name");
                m.remove("model_name_or_path");
            }),
        ),
        (
            "only_model_name_or_path",
            with(&|m| {
                m.remove("model_name");
            }),
        ),
        (
            "instances_not_list",
            with(&|m| {
                m.insert("instances".into(), json!({"lwc-component-001": {}}));
            }),
        ),
        (
            "instance_missing_status",
            with(&|m| {
                if let Some(inst) = m.get_mut("instances").and_then(|v| v.get_mut(2)).and_then(Value::as_object_mut) {
                    inst.remove("status");
                }
            }),
        ),
        (
            "summary_garbage_string",
            with(&|m| {
                m.insert("summary".into(), json!("garbage"));
            }),
        ),
        ("swebench_harness_report", load(&gold)),
    ];
    let expected = oracle.as_object().expect("oracle is an object");
    assert_eq!(expected.len(), cases.len(), "every oracle case is built");
    for (name, doc) in &cases {
        let want = expected.get(*name).and_then(Value::as_bool).unwrap_or_else(|| panic!("{name} not in the oracle"));
        assert_eq!(upstream_valid(doc), want, "{name}");
        // Our validator: every upstream failure is also an error of ours.
        if !want {
            let format = detect(doc).unwrap_or(Format::SfbenchV2);
            assert!(has_errors(&validate(doc, Format::SfbenchV2)), "{name} ({format:?})");
        }
    }
    // Upstream accepts a garbage summary; we do not.
    let garbage = &cases.iter().find(|(n, _)| *n == "summary_garbage_string").expect("case").1;
    let f = validate(garbage, Format::SfbenchV2);
    assert!(f.iter().any(|f| f.is_error() && f.path == "$.summary"), "{}", render(&f));
    // The alias-only report: the error names the alias.
    let alias = &cases.iter().find(|(n, _)| *n == "only_model_name_or_path").expect("case").1;
    let f = validate(alias, Format::SfbenchV2);
    assert_eq!(f[0].path, "$.model_name");
    assert!(f[0].is_error() && f[0].message.contains("model_name_or_path"), "{}", f[0]);
}

/// Expected: `upstream-code-oracle-synthetic/v2_report_synthetic.json` (written by upstream's
/// `to_dict()`) has no errors; its warnings are snapshotted.
#[test]
fn synthetic_v2_report_validates_without_errors() {
    let Some(path) = refdata("sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json") else { return };
    let doc = load(&path);
    assert_eq!(detect(&doc), Some(Format::SfbenchV2));
    let findings = validate(&doc, Format::SfbenchV2);
    assert!(errors(&findings).is_empty(), "{}", render(&findings));
    // deploy-validation-001 (index 5): status "resolved" with resolved: false, deployment only.
    assert!(findings.iter().any(|f| f.path == "$.instances[5].resolved"), "{}", render(&findings));
    assert!(findings.iter().any(|f| f.path == "$.instances[5].validation"), "{}", render(&findings));
    insta::assert_snapshot!(render(&findings));
}

/// Checks a documentation example: whole documents by their format, parts by their part.
fn check_doc_value(v: &Value) -> (String, Vec<Finding>) {
    if let Some(format) = detect(v) {
        return (format.name().to_string(), validate(v, format));
    }
    match detect_part(v) {
        Some(part) => (format!("part {part:?}"), validate_part(v, part)),
        None => panic!("not a known document or part: {v}"),
    }
}

/// Expected: every file of `sf-bench-docs-examples/` (verbatim documentation blocks at HEAD and
/// at the first schema commit), one snapshot each.
#[test]
fn every_docs_example_is_read_and_validated() {
    let Some(dir) = refdata("sfbench/sf-bench-docs-examples") else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("folder").map(|e| e.expect("entry").path()).collect();
    files.sort();
    assert_eq!(files.len(), 12);
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name").to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let (value, mut findings) = if name.ends_with(".with-placeholders.txt") {
            assert!(serde_json::from_str::<Value>(&text).is_err(), "{name} is not JSON as written");
            read_doc_example(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
        } else {
            assert_eq!(path.extension().and_then(|e| e.to_str()), Some("json"), "{name}");
            (serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}")), Vec::new())
        };
        let (kind, checked) = check_doc_value(&value);
        findings.extend(checked);
        let snapshot = format!("{name}\nread as: {kind}\n\n{}", render(&findings));
        let snap_name = format!("docs__{}", name.trim_end_matches(".json").trim_end_matches(".txt").replace('.', "_"));
        insta::assert_snapshot!(snap_name, snapshot);
    }
}

/// Expected: `sf-bench-docs-examples/head.summary_object_example.json` cannot come from
/// upstream's code (notes §1.13 item 3), and the errors say why.
#[test]
fn impossible_doc_summary_is_proved_impossible() {
    let Some(path) = refdata("sfbench/sf-bench-docs-examples/head.summary_object_example.json") else { return };
    let doc = load(&path);
    assert_eq!(detect(&doc), Some(Format::SfbenchSummary));
    let findings = validate(&doc, Format::SfbenchSummary);
    let errs = errors(&findings);
    let has = |path: &str, words: &str| errs.iter().any(|f| f.path == path && f.message.contains(words));
    assert!(has("$.resolved_instances", "functional_pass_rate 0.0833"), "{}", render(&findings));
    assert!(has("$.resolved_instances", "unit_test_pass_rate 0.3333"), "{}", render(&findings));
    assert!(has("$.avg_functional_score", "0.0 or 50.0"), "{}", render(&findings));
    assert!(has("$.avg_score", "at least 80 × 5/12 = 33.3333"), "{}", render(&findings));
    // Its rounding to 4 places is fine: 0.4167 is 5/12.
    assert!(!findings.iter().any(|f| f.path == "$.resolve_rate"), "{}", render(&findings));
}

fn collect_masked(oracle: &Value, ours: &Value, path: &str, masked: &mut Vec<(String, Value)>) {
    match (oracle, ours) {
        (Value::String(s), _) if s == "<nondeterministic utcnow>" || s == "<utcnow %Y%m%d_%H%M%S>" => {
            masked.push((path.to_string(), ours.clone()));
        }
        (Value::Object(a), Value::Object(b)) => {
            let ka: Vec<&String> = a.keys().collect();
            let kb: Vec<&String> = b.keys().collect();
            assert_eq!(ka, kb, "keys of {path}");
            for (k, v) in a {
                collect_masked(v, &b[k], &format!("{path}.{k}"), masked);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "length of {path}");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                collect_masked(x, y, &format!("{path}[{i}]"), masked);
            }
        }
        _ => assert_eq!(oracle, ours, "{path}"),
    }
}

/// Expected: `upstream-code-oracle-synthetic/migrate_v1_output.json`, upstream's
/// `migrate_v1_to_v2(migrate_v1_input.json)`, compared field by field.
#[test]
fn migrate_v1_input_matches_upstream_output_field_by_field() {
    let (Some(input), Some(output)) = (
        refdata("sfbench/upstream-code-oracle-synthetic/migrate_v1_input.json"),
        refdata("sfbench/upstream-code-oracle-synthetic/migrate_v1_output.json"),
    ) else {
        return;
    };
    let input = load(&input);
    let oracle = load(&output);
    assert_eq!(detect(&input), Some(Format::SfbenchV1));
    let run = v1::read(&input).expect("a v1 document");
    assert_eq!(run.shape, V1Shape::MigrateInput);
    let m = to_v2(&run);

    // Every field equal, except the ones upstream fills from the clock (masked in the oracle).
    let mut masked = Vec::new();
    collect_masked(&oracle, &m.report, "$", &mut masked);
    masked.sort_by(|a, b| a.0.cmp(&b.0));
    let masked: Vec<(&str, &Value)> = masked.iter().map(|(p, v)| (p.as_str(), v)).collect();

    // Deliberate differences: upstream reads the clock (run_id = utcnow, every time = utcnow);
    // we never do. The input has no run id and no time at all, so each of these gets a
    // deterministic default, listed in `defaulted`.
    let run_id = m.report["run_id"].as_str().expect("run_id");
    assert!(run_id.starts_with("v1-") && run_id.len() == 19, "content-derived run id: {run_id}");
    assert_eq!(to_v2(&run).report["run_id"], run_id, "same input, same run id");
    let mut expected: Vec<(String, Value)> = vec![
        ("$.run_id".into(), json!(run_id)),
        ("$.created_at".into(), json!(UNKNOWN_TIME)),
        ("$.start_time".into(), json!(UNKNOWN_TIME)),
        // Upstream sets end_time = utcnow in calculate_summary(); unknown here: null, as the
        // dataclass default.
        ("$.end_time".into(), Value::Null),
    ];
    for i in 0..4 {
        // Instance start times: upstream's utcnow default; ours the report's start.
        expected.push((format!("$.instances[{i}].start_time"), json!(UNKNOWN_TIME)));
    }
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    let expected: Vec<(&str, &Value)> = expected.iter().map(|(p, v)| (p.as_str(), v)).collect();
    assert_eq!(masked, expected);
    for path in ["$.run_id", "$.created_at", "$.start_time", "$.end_time", "$.instances[*].start_time"] {
        assert!(m.defaulted.iter().any(|d| d == path), "{path} in {:?}", m.defaulted);
    }
    // x-001 has no status: "error" as upstream, but listed as defaulted.
    assert!(m.defaulted.iter().any(|d| d == "$.instances[3].status"), "{:?}", m.defaulted);
    assert!(upstream_valid(&m.report));
    let findings = validate(&m.report, Format::SfbenchV2);
    assert!(errors(&findings).is_empty(), "{}", render(&findings));
    // What was defaulted and derived, and what validation says of the result.
    let mut out = String::from("defaulted:\n");
    for d in &m.defaulted {
        let _ = writeln!(out, "  {d}");
    }
    out.push_str("\nnotes:\n");
    for n in &m.notes {
        let _ = writeln!(out, "  {n}");
    }
    out.push_str("\nvalidate:\n");
    out.push_str(&render(&findings));
    insta::assert_snapshot!(out);
}

/// Sequence of object keys in a JSON text, in order.
fn key_sequence(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut escaped = false;
        let mut end = i;
        for (j, d) in chars.by_ref() {
            if escaped {
                escaped = false;
            } else if d == '\\' {
                escaped = true;
            } else if d == '"' {
                end = j;
                break;
            }
        }
        if text[end + 1..].trim_start().starts_with(':') {
            keys.push(text[i + 1..end].to_string());
        }
    }
    keys
}

/// Expected: `migrate_v1_output.json`'s key order, which is upstream's `to_dict()` order.
#[test]
fn to_json_pretty_writes_upstream_key_order() {
    let (Some(input), Some(output)) = (
        refdata("sfbench/upstream-code-oracle-synthetic/migrate_v1_input.json"),
        refdata("sfbench/upstream-code-oracle-synthetic/migrate_v1_output.json"),
    ) else {
        return;
    };
    let m = migrate::migrate(&load(&input)).expect("v1");
    let ours = to_json_pretty(&m.report);
    let theirs = std::fs::read_to_string(output).expect("readable");
    assert_eq!(key_sequence(&ours), key_sequence(&theirs));
    assert_eq!(key_sequence(&ours)[..11], REPORT_KEYS[..11]);
    let parsed: Value = serde_json::from_str(&ours).expect("valid JSON");
    assert_eq!(parsed, m.report);
}

/// Expected: `upstream-code-oracle-synthetic/migrate_edge_cases.json`. Upstream gives 0
/// instances and model "unknown" for the file evaluate.py writes, and raises on "PASS"; ours
/// does neither.
#[test]
fn migrate_edge_cases_are_not_repeated() {
    let Some(path) = refdata("sfbench/upstream-code-oracle-synthetic/migrate_edge_cases.json") else { return };
    let oracle = load(&path);
    assert_eq!(oracle["legacy_evaluate_py_file"], json!({"ok": true, "instances": 0, "model_name": "unknown"}));
    assert_eq!(oracle["uppercase_PASS_status"]["ok"], json!(false));

    // The legacy evaluate.py shape. Upstream reads `model_name` and `instances`, which this
    // file does not have (it has `model` and `results`): that is why upstream finds nothing.
    let legacy = load(&testdata("sfbench/v1-legacy-evaluate.json"));
    assert!(legacy.get("instances").is_none() && legacy.get("model_name").is_none());
    let m = migrate::migrate(&legacy).expect("detected as the legacy shape");
    let instances = m.report["instances"].as_array().expect("list");
    assert_eq!(instances.len(), 5, "not the 0 instances of upstream");
    assert_eq!(m.report["model_name"], "acme/coder-1.5", "not \"unknown\"");
    // Uppercase PASS is resolved, not a ValueError.
    assert_eq!((&instances[0]["status"], &instances[0]["resolved"]), (&json!("resolved"), &json!(true)));

    // The uppercase PASS of the edge case, in the shape upstream reads.
    let pass = json!({"model_name": "m", "instances": [{"instance_id": "lwc-component-001", "status": "PASS"}]});
    let findings = validate(&pass, Format::SfbenchV1);
    assert!(errors(&findings).is_empty(), "{}", render(&findings));
    assert!(findings.iter().any(|f| f.message.contains("raises ValueError")), "{}", render(&findings));
    let m = to_v2(&read_as(&pass, V1Shape::MigrateInput));
    let inst = &m.report["instances"][0];
    assert_eq!((&inst["status"], &inst["resolved"]), (&json!("resolved"), &json!(true)));
    assert_eq!(m.report["summary"]["resolved_instances"], 1);
}

fn render_migration(m: &migrate::Migrated) -> String {
    let mut out = to_json_pretty(&m.report);
    out.push_str("\n\ndefaulted:\n");
    for d in &m.defaulted {
        let _ = writeln!(out, "  {d}");
    }
    out.push_str("\nnotes:\n");
    for n in &m.notes {
        let _ = writeln!(out, "  {n}");
    }
    let findings = validate(&m.report, Format::SfbenchV2);
    out.push_str("\nvalidate:\n");
    out.push_str(&render(&findings));
    out
}

/// Expected: the snapshot of `testdata/sfbench/v1-legacy-evaluate.json` migrated, reviewed by
/// hand: statuses, scores, durations, error messages, components and times kept.
#[test]
fn migrate_legacy_evaluate_fixture() {
    let doc = load(&testdata("sfbench/v1-legacy-evaluate.json"));
    assert_eq!(detect(&doc), Some(Format::SfbenchLegacyEvaluate));
    assert!(validate(&doc, Format::SfbenchLegacyEvaluate).is_empty());
    let m = migrate::migrate(&doc).expect("v1");
    let r = &m.report;
    assert_eq!(r["run_id"], "acme-coder-1.5-20260105_140003");
    assert_eq!(r["dataset"], "verified");
    assert_eq!(r["end_time"], "2026-01-05T14:30:00.123456");
    let by_id = |id: &str| r["instances"].as_array().unwrap().iter().find(|i| i["instance_id"] == id).unwrap().clone();
    let timeout = by_id("flow-screen-component-001");
    assert_eq!((&timeout["status"], &timeout["error_type"]), (&json!("error"), &json!("timeout")));
    assert_eq!(timeout["duration_seconds"], 600.0);
    assert_eq!(timeout["error_message"], "Timed out after 600s");
    let apex = by_id("apex-trigger-handler-001");
    assert_eq!(apex["validation"]["total_score"], 100);
    assert_eq!(apex["validation"]["functional_status"], "pass");
    assert_eq!(by_id("apex-integration-001")["error_type"], "execution_error");
    assert!(!has_errors(&validate(r, Format::SfbenchV2)));
    assert!(upstream_valid(r));
    insta::assert_snapshot!(render_migration(&m));
}

/// Expected: the snapshot of `testdata/sfbench/v1-engine-summary.json` migrated: no model, no
/// run time, so the model is defaulted and the times come from the tasks.
#[test]
fn migrate_engine_summary_fixture() {
    let doc = load(&testdata("sfbench/v1-engine-summary.json"));
    assert_eq!(detect(&doc), Some(Format::SfbenchEngineSummary));
    assert!(validate(&doc, Format::SfbenchEngineSummary).is_empty());
    let m = migrate::migrate(&doc).expect("v1");
    assert_eq!(m.report["model_name"], "unknown");
    assert_eq!(m.report["start_time"], "2026-01-07T09:12:30.500000");
    assert_eq!(m.report["end_time"], "2026-01-07T09:24:02.000000");
    assert!(m.defaulted.contains(&"$.model_name".to_string()));
    assert!(!m.defaulted.contains(&"$.run_id".to_string()), "derived from the start time");
    assert!(!has_errors(&validate(&m.report, Format::SfbenchV2)));
    insta::assert_snapshot!(render_migration(&m));
}

/// Expected: snapshot of the findings on each v1 input: the upstream migration input, the two
/// consistent fixtures (nothing to say) and the inconsistent one.
#[test]
fn v1_inputs_validate() {
    let mut out = String::new();
    let mut paths: Vec<(String, std::path::PathBuf)> = vec![
        ("testdata/sfbench/v1-legacy-evaluate.json".into(), testdata("sfbench/v1-legacy-evaluate.json")),
        ("testdata/sfbench/v1-engine-summary.json".into(), testdata("sfbench/v1-engine-summary.json")),
        (
            "testdata/sfbench/v1-legacy-evaluate-inconsistent.json".into(),
            testdata("sfbench/v1-legacy-evaluate-inconsistent.json"),
        ),
    ];
    if let Some(p) = refdata("sfbench/upstream-code-oracle-synthetic/migrate_v1_input.json") {
        paths.insert(0, ("refdata migrate_v1_input.json".into(), p));
    }
    for (name, path) in paths {
        let doc = load(&path);
        let format = detect(&doc).expect("a v1 shape");
        let _ = writeln!(out, "== {name} ({})", format.name());
        out.push_str(&render(&validate(&doc, format)));
    }
    insta::assert_snapshot!(out);
}

fn exercise(doc: &Value) {
    for format in [
        Format::SfbenchV2,
        Format::SfbenchV1,
        Format::SfbenchLegacyEvaluate,
        Format::SfbenchEngineSummary,
        Format::SfbenchSummary,
    ] {
        for f in validate(doc, format) {
            assert!(!f.path.is_empty() && !f.message.is_empty());
        }
    }
    for part in [Part::Instance, Part::Validation, Part::Config] {
        let _ = validate_part(doc, part);
    }
    let _ = upstream_valid(doc);
    for shape in [V1Shape::MigrateInput, V1Shape::LegacyEvaluate, V1Shape::EngineSummary] {
        let m = to_v2(&read_as(doc, shape));
        let _ = validate(&m.report, Format::SfbenchV2);
        assert_eq!(m.report.as_object().map(serde_json::Map::len), Some(REPORT_KEYS.len()));
        for inst in m.report["instances"].as_array().into_iter().flatten() {
            assert_eq!(inst.as_object().map(serde_json::Map::len), Some(INSTANCE_KEYS.len()));
        }
    }
}

/// No input makes validation or migration panic: every field of the reference documents
/// replaced by every hostile value, and the hostile values as whole documents.
#[test]
fn no_panic_on_hostile_input() {
    evaltally_testkit::hostile::each_variant(&evaltally_testkit::hostile::report_documents(), exercise);
}

/// Expected: a snapshot of every v2 check firing once, on
/// `upstream-code-oracle-synthetic/v2_report_synthetic.json` broken on purpose (each edit is
/// commented).
#[test]
fn v2_checks_on_a_broken_synthetic_report() {
    let Some(path) = refdata("sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json") else { return };
    let mut doc = load(&path);
    let edits: [(&str, Value); 14] = [
        ("/model_name_or_path", json!("other/model")),            // alias disagrees
        ("/created_at", json!("2026-01-02T00:00:00")),            // alias disagrees
        ("/evaluation_config/max_workers", json!(4)),             // alias disagrees
        ("/instances/0/status", json!("RESOLVED")),               // other letter case: warning
        ("/instances/0/resolved", json!("yes")),                  // not a boolean
        ("/instances/1/status", json!("PASS")),                   // legacy v1 word: error
        ("/instances/2/validation/functional_points", json!(60)), // above 50; total_score no longer the sum
        ("/instances/3/duration_seconds", json!(-5)),             // negative
        ("/instances/4/instance_id", json!("lwc-component-001")), // duplicate id
        ("/instances/5/validation/deployment_status", json!("passed")), // unknown component status
        ("/summary/resolve_rate", json!(100.0 / 3.0)),            // the percentage (33.333…)
        ("/summary/instances_submitted", json!(7)),               // total below submitted
        ("/summary/avg_score", json!(35.0001)),                   // differs
        ("/resolved_ids", json!(["apex-trigger-handler-001", "ghost-001"])), // one missing, one extra
    ];
    for (pointer, value) in edits {
        *doc.pointer_mut(pointer).unwrap_or_else(|| panic!("{pointer}")) = value;
    }
    let findings = validate(&doc, Format::SfbenchV2);
    assert!(
        findings.iter().any(|f| f.path == "$.summary.resolve_rate"
            && f.message.contains("percentage where a fraction is expected (SF-Bench's docs and code disagree)")),
        "{}",
        render(&findings)
    );
    insta::assert_snapshot!(render(&findings));
}
