//! `evaltally validate` on BFCL files: every check, both output formats, exit codes.

mod common;

use std::fmt::Write as _;

use common::{evaltally, evaltally_in};
use evaltally_testkit::refdata;

#[test]
fn every_bfcl_quirk_as_text() {
    insta::assert_snapshot!(evaltally(&["validate", "testdata/bfcl/quirks"]).transcript());
}

#[test]
fn json_shape_per_file() {
    let run = evaltally(&["validate", "testdata/bfcl/pairs", "testdata/bfcl/v3-project", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let (files, not_read): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) =
        doc["files"].as_array().unwrap().iter().partition(|f| f["format"] != "unknown");
    assert_eq!(files.len(), 12, "pairs: 2 runs × 2 categories × 2 files; v3-project: 2 categories × 2 files");
    // BFCL's score summary beside the score files: no format claims a CSV.
    assert_eq!(not_read.len(), 1, "{not_read:?}");
    assert_eq!(not_read[0]["path"], "testdata/bfcl/pairs/score-baseline/data_live.csv");
    assert_eq!(not_read[0]["not_read"][0]["severity"], "info");
    for f in files {
        assert_eq!(f["valid"], true, "{f}");
        assert!(f["format"] == "bfcl-result" || f["format"] == "bfcl-score");
        assert!(f["errors"].as_array().unwrap().is_empty());
    }
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_single_file_is_checked_on_its_own() {
    let run = evaltally(&[
        "validate",
        "testdata/bfcl/quirks/nightly/result/acme_tiny-7b/non_live/BFCL_v4_simple_javascript_result.json",
    ]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn strict_fails_on_warnings() {
    let lenient = evaltally(&["validate", "testdata/junit/quirks-crlf-bom.xml"]);
    assert_eq!(lenient.code, 0, "{}", lenient.stdout);
    assert!(lenient.stdout.contains("warning: testcase without a name"), "{}", lenient.stdout);
    assert_eq!(evaltally(&["validate", "testdata/junit/quirks-crlf-bom.xml", "--strict"]).code, 1);
    // Facts of a format (BFCL v1's `idx`, no final newline) are said, and are no warning.
    let facts = evaltally(&["validate", "testdata/bfcl/v1", "--strict"]);
    assert_eq!(facts.code, 0, "{}", facts.stdout);
    assert!(facts.stdout.contains("info: no newline at the end of the file"), "{}", facts.stdout);
}

#[test]
fn nothing_to_validate_exits_2() {
    assert_eq!(evaltally(&["validate", "testdata/not-bfcl"]).code, 2);
    assert_eq!(evaltally(&["validate", "testdata/bfcl/missing"]).code, 2);
}

/// bfcl-format.md §1.8: every invariant holds on every bbrowning run.
#[test]
fn refdata_bbrowning_is_valid() {
    let Some(root) = refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let run = evaltally(&["validate", root.to_str().unwrap(), "--format", "json", "--strict"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let (read, not_read): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) =
        doc["files"].as_array().unwrap().iter().partition(|f| f["format"] != "unknown");
    assert_eq!(read.len(), 78);
    // BFCL's six score summaries of each of the 5 runs, named as not read.
    assert_eq!(not_read.len(), 30);
    assert!(
        not_read.iter().all(|f| f["path"].as_str().unwrap().contains("/data_") && f["valid"] == true),
        "{not_read:?}"
    );
}

/// bfcl-format.md §1.8: the 0-byte result file and the results without scores of PR #1319,
/// and the scores without results of vgangal101, each reported by file name.
#[test]
fn refdata_incomplete_runs_are_reported_by_file() {
    let (Some(pr), Some(vg)) = (refdata("bfcl/gorilla-pr1319-airev"), refdata("bfcl/vgangal101-gorilla_bfcl")) else {
        return;
    };
    let run = evaltally(&["validate", pr.to_str().unwrap(), vg.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 1);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let find = |name: &str| {
        doc["files"].as_array().unwrap().iter().find(|f| f["path"].as_str().unwrap().ends_with(name)).cloned().unwrap()
    };
    let empty = find("BFCL_v4_format_sensitivity_result.json");
    assert_eq!(empty["valid"], false);
    assert!(empty["errors"][0]["message"].as_str().unwrap().starts_with("empty result file"));
    for cat in ["live_parallel", "live_relevance", "memory", "web_search"] {
        let f = find(&format!("BFCL_v4_{cat}_result.json"));
        assert_eq!(f["valid"], true);
        assert!(f["warnings"][0]["message"].as_str().unwrap().starts_with("no score file"), "{f}");
    }
    let orphan = find("Qwen_Qwen3-8B/live/BFCL_v4_live_parallel_score.json");
    assert!(orphan["warnings"][0]["message"].as_str().unwrap().starts_with("no result file"), "{orphan}");
}

#[test]
fn sfbench_and_swebench_documents() {
    let run = evaltally(&[
        "validate",
        "testdata/sfbench-runs",
        "testdata/swebench/runs/acme-agent-1.5.run-3.json",
        "testdata/sfbench/v1-legacy-evaluate.json",
    ]);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn a_file_of_no_known_format_is_reported() {
    let run = evaltally(&["validate", "testdata/swebench/instance-logs/mini-run/results_summary.json"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("not a format evaltally knows"), "{}", run.stdout);
}

/// Issue acceptance: every SF-Bench doc example is read, and the impossible doc summary is
/// reported (sfbench-swebench-format.md §1.13 item 3).
#[test]
fn refdata_docs_examples_are_read_and_the_impossible_summary_reported() {
    let Some(dir) = refdata("sfbench/sf-bench-docs-examples") else { return };
    let mut files: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files.len(), 12);
    let mut args = vec!["validate", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let run = evaltally(&args);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let reports = doc["files"].as_array().unwrap();
    assert_eq!(reports.len(), 12, "every example is read");
    assert!(reports.iter().all(|f| f["format"] != "unknown"), "{reports:#?}");
    let summary =
        reports.iter().find(|f| f["path"].as_str().unwrap().ends_with("head.summary_object_example.json")).unwrap();
    assert_eq!(summary["valid"], false);
    let messages: Vec<&str> =
        summary["errors"].as_array().unwrap().iter().map(|e| e["message"].as_str().unwrap()).collect();
    assert!(messages.iter().any(|m| m.contains("upstream cannot produce this summary")), "{messages:#?}");
}

/// Issue acceptance: gold.validate-gold.json gets a warning for total 1 vs submitted 300.
#[test]
fn refdata_gold_validate_total_below_submitted() {
    let Some(file) = refdata("swebench/swebench-official-gold-reports/gold.validate-gold.json") else { return };
    let run = evaltally(&["validate", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let w = &doc["files"][0]["warnings"][0];
    assert_eq!(w["path"], "$.total_instances");
    assert!(w["message"].as_str().unwrap().starts_with("total_instances (1) is below submitted_instances (300)"));
}

/// `--as` reads every file as the named format: a gstack result that lost the fields gstack
/// sniffs by is "not a format evaltally knows" without it, and gets gstack's own list of
/// what is missing with it. An unknown name is a usage error listing the known ones.
#[test]
fn as_names_the_format_when_sniffing_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("emitted.json");
    std::fs::write(&file, r#"{"all_results": [{"name": "t", "suite": "s", "passed": true}]}"#).unwrap();
    let path = file.to_str().unwrap();
    let sniffed = evaltally(&["validate", path]);
    assert_eq!(sniffed.code, 1, "{}", sniffed.stdout);
    assert!(sniffed.stdout.contains("not a format evaltally knows"), "{}", sniffed.stdout);
    let forced = evaltally(&["validate", "--as", "gstack", path]);
    assert_eq!(forced.code, 1, "{}", forced.stdout);
    assert!(forced.stdout.contains("(gstack)"), "{}", forced.stdout);
    assert!(forced.stdout.contains("schema_version"), "{}", forced.stdout);
    assert!(!forced.stdout.contains("not a format evaltally knows"), "{}", forced.stdout);
    let stability = evaltally(&["stability", "--as", "gstack", path]);
    assert_eq!(stability.code, 0, "{}", stability.stderr);
    assert!(stability.stdout.contains("1 run"), "{}", stability.stdout);
    // A file cut short that --as names is of that format still.
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, r#"{"schema_version": 1, "all_results": ["#).unwrap();
    let cut = evaltally(&["validate", "--as", "gstack", cut.to_str().unwrap()]);
    assert_eq!(cut.code, 1, "{}", cut.stdout);
    assert!(cut.stdout.contains("cut.json: INVALID (gstack)"), "{}", cut.stdout);
    let unknown = evaltally(&["validate", "--as", "nonsense", path]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("[possible values: bfcl, "), "{}", unknown.stderr);
}

/// `validate --as gstack` gives gstack's own validator messages, in its order, for the
/// design-doc documents gstack rejects (the oracle saved from gstack's code), where
/// detection alone cannot tell they are meant as gstack results.
#[test]
fn validate_as_gstack_gives_gstacks_messages_in_order() {
    let Some(dir) = refdata("gstack/garrytan-gstack") else { return };
    let oracle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("derived.validateEvalResult-outputs.json")).unwrap())
            .unwrap();
    let mut checked = 0;
    for (name, expected) in oracle.as_object().unwrap() {
        if !name.starts_with("design-doc-") {
            continue;
        }
        let path = dir.join(name);
        let run = evaltally(&["validate", "--as", "gstack", "--format", "json", path.to_str().unwrap()]);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let errors: Vec<&str> =
            doc["files"][0]["errors"].as_array().unwrap().iter().map(|f| f["message"].as_str().unwrap()).collect();
        let want: Vec<&str> = expected["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        assert_eq!(errors, want, "{name}");
        assert_eq!(run.code, 1, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 4);
    // Without --as, the message names the closest format, what the document lacks of it, and
    // the option that checks it as one.
    let plain = evaltally(&["validate", dir.join("design-doc-failures.snippet.json").to_str().unwrap()]);
    assert!(
        plain.stdout.contains("closest: gstack results, lacking `schema_version`, `version`")
            && plain.stdout.contains("`--as gstack` checks it as one"),
        "{}",
        plain.stdout
    );
}

/// The harness counts the dataset's length but its ids in sets: a run report whose counts
/// fall one short is said as an id twice in the dataset, not as predictions outside it.
#[test]
fn a_swebench_count_short_by_an_id_twice_in_the_dataset_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let report = serde_json::json!({
        "total_instances": 4, "submitted_instances": 1, "completed_instances": 1, "resolved_instances": 1,
        "unresolved_instances": 0, "empty_patch_instances": 0, "error_instances": 0,
        "completed_ids": ["b"], "incomplete_ids": ["a", "c"], "empty_patch_ids": [], "submitted_ids": ["b"],
        "resolved_ids": ["b"], "unresolved_ids": [], "error_ids": [], "schema_version": 2
    });
    std::fs::write(dir.path().join("acme.run-1.json"), serde_json::to_vec_pretty(&report).unwrap()).unwrap();
    let run = evaltally_in(dir.path(), &["validate", "acme.run-1.json"], &[]);
    assert!(run.stdout.contains("= 3; the harness puts each instance of the dataset in one of these, counting ids once: an id twice in the dataset?"), "{}", run.stdout);
    assert!(run.stdout.contains("$.submitted_instances: warning: is 1, but total_instances (4) − incomplete (2) = 2; the dataset holds more instances than ids (an id twice?)"), "{}", run.stdout);
}

/// Copies `from` (a file or a folder) into `to`.
fn copy_into(from: &std::path::Path, to: &std::path::Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy_into(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// Adds `"extra": true` to every object `at` leads to (`.key`, `[*]`, `.*` steps, as
/// `validate` names them), the first `limit` of them.
fn mark(v: &mut serde_json::Value, at: &str, limit: &mut usize) {
    if at.is_empty() {
        if let Some(m) = v.as_object_mut().filter(|_| *limit > 0) {
            m.insert("extra".into(), true.into());
            *limit -= 1;
        }
    } else if let Some(rest) = at.strip_prefix("[*]") {
        v.as_array_mut().into_iter().flatten().for_each(|item| mark(item, rest, limit));
    } else if let Some(rest) = at.strip_prefix(".*") {
        v.as_object_mut().into_iter().flat_map(|m| m.values_mut()).for_each(|item| mark(item, rest, limit));
    } else if let Some(rest) = at.strip_prefix('.') {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        if let Some(next) = v.get_mut(&rest[..end]) {
            mark(next, &rest[end..], limit);
        }
    }
}

/// Every format says a key its writers never give once, with how many of its objects have
/// it, and reads the file as before.
#[test]
fn a_key_no_writer_gives_is_said_once_with_a_count() {
    // (fixture, the file in it to mark, where, how many, whether JSON Lines, the line expected)
    let cases: &[(&str, &str, &str, usize, bool, &str)] = &[
        (
            "bfcl/v4/run-1",
            "result/acme_tiny-7b/live/BFCL_v4_live_simple_result.json",
            "$",
            2,
            true,
            "$.extra: warning: unknown key: not a field of a BFCL result line (2 of 6 have it)",
        ),
        (
            "bfcl/v4/run-1",
            "score/acme_tiny-7b/live/BFCL_v4_live_simple_score.json",
            "$",
            1,
            true,
            "$.extra: warning: unknown key: not a field of a BFCL score summary",
        ),
        (
            "promptfoo/riddles.json",
            "",
            "$.results.results[*]",
            5,
            false,
            "$.results.results[*].extra: warning: unknown key: not a field of promptfoo's EvaluateResult (5 of 18 have it)",
        ),
        (
            "terminal-bench/2026-03-02__09-00-00",
            "results.json",
            "$.results[*]",
            10,
            false,
            "$.results[*].extra: warning: unknown key: not a field of Terminal-Bench's TrialResults (10 of 10 have it)",
        ),
        (
            "evalplus/humaneval/acme--coder-7b_vllm_temp_0.8_eval_results.json",
            "",
            "$.eval.*[*]",
            1,
            false,
            "$.eval.*[*].extra: warning: unknown key: not a field of an EvalPlus sample (1 of 14 have it)",
        ),
        (
            "gstack/standard/nightly-1.json",
            "",
            "$",
            1,
            false,
            "$.extra: warning: unknown key: not a field of a gstack eval result",
        ),
        (
            "taubench/acme-7b-retail.json",
            "",
            "$[*]",
            3,
            false,
            "$[*].extra: warning: unknown key: not a field of τ-bench's EnvRunResult (3 of 12 have it)",
        ),
        (
            "tau2/acme-7b-telecom.json",
            "",
            "$.simulations[*]",
            12,
            false,
            "$.simulations[*].extra: warning: unknown key: not a field of τ²-bench's SimulationRun (12 of 12 have it)",
        ),
        (
            "helm/v1",
            "mmlu-subject=anatomy,method=multiple_choice_joint,model=acme_7b/per_instance_stats.json",
            "$[*].stats[*]",
            1,
            false,
            "$[*].stats[*].extra: warning: unknown key: not a field of HELM's Stat (1 of ",
        ),
        (
            "openai-evals/support-triage-items.jsonl",
            "",
            "$",
            1,
            true,
            "$.extra: warning: unknown key: not a field of an OpenAI Evals line (output item or record log) (1 of ",
        ),
        (
            "lmeval",
            "samples_arith_2026-01-01T00-00-00.000000.jsonl",
            "$",
            2,
            true,
            "$.extra: warning: unknown key: not a field of an lm-eval samples line, nor one of its `metrics` (2 of ",
        ),
        (
            "sfbench-runs/run-1/report.json",
            "",
            "$.instances[*]",
            2,
            false,
            "$.instances[*].extra: warning: unknown key: not a field of SF-Bench's InstanceResult (2 of 4 have it)",
        ),
    ];
    for &(fixture, file, at, limit, lines, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let name = std::path::Path::new(fixture).file_name().unwrap();
        let copy = dir.path().join(name);
        copy_into(&evaltally_testkit::testdata(fixture), &copy);
        let marked = if file.is_empty() { copy.clone() } else { copy.join(file) };
        let text = std::fs::read_to_string(&marked).unwrap();
        let mut left = limit;
        let out = if lines {
            let mut out = String::new();
            for line in text.lines() {
                let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
                mark(&mut v, at.strip_prefix('$').unwrap(), &mut left);
                out.push_str(&serde_json::to_string(&v).unwrap());
                out.push('\n');
            }
            out
        } else {
            let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
            mark(&mut v, at.strip_prefix('$').unwrap(), &mut left);
            serde_json::to_string_pretty(&v).unwrap()
        };
        assert_eq!(left, 0, "{fixture}: fewer than {limit} objects at {at}");
        let before = evaltally(&["validate", copy.to_str().unwrap()]);
        assert!(!before.stdout.contains("unknown key"), "{fixture} unmarked: {}", before.stdout);
        std::fs::write(&marked, out).unwrap();
        let run = evaltally(&["validate", copy.to_str().unwrap()]);
        let said: Vec<&str> = run.stdout.lines().filter(|l| l.contains("unknown key")).collect();
        assert_eq!(said.len(), 1, "{fixture}: {}", run.stdout);
        assert!(said[0].trim_start().starts_with(expected), "{fixture}: {}", said[0]);
        assert_eq!(run.code, before.code, "{fixture}: a warning changes no exit code\n{}", run.stdout);
    }
}

/// A file damaged on every line lists the first five findings of each kind and counts the
/// rest in one line, so the other files' findings stay on the screen; `--verbose` and the
/// JSON give every one.
#[test]
fn many_findings_of_one_kind_are_counted_not_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run/result/acme-7b/non_live");
    std::fs::create_dir_all(&dir).unwrap();
    // 40 lines that are no JSON, then 7 duplicate ids (of two ids): two kinds, both beyond
    // five.
    let mut text = "garbage\n".repeat(40);
    for i in 0..9 {
        let _ = writeln!(text, "{{\"id\": \"irrelevance_{}\", \"result\": \"[]\"}}", i % 2);
    }
    std::fs::write(dir.join("BFCL_v4_irrelevance_result.json"), text).unwrap();
    let path = tmp.path().join("run");
    let path = path.to_str().unwrap();

    let run = evaltally(&["validate", path]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let listed = |out: &str, what: &str| out.lines().filter(|l| l.starts_with("  line ") && l.contains(what)).count();
    assert_eq!(listed(&run.stdout, "not valid JSON"), 5, "{}", run.stdout);
    assert_eq!(listed(&run.stdout, "duplicate id"), 5, "{}", run.stdout);
    // What every finding of the kind says is kept (each line fails at column 1); what
    // differs (the id, where it was first) is masked.
    assert!(run.stdout.contains("  … 35 more errors of this kind: not valid JSON at column 1: "), "{}", run.stdout);
    assert!(
        run.stdout.contains("  … 2 more errors of this kind: duplicate id `…` (first at line N)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("1 file: 0 valid, 1 invalid, 1 with warnings\n"), "{}", run.stdout);

    let every = evaltally(&["--verbose", "validate", path]);
    assert_eq!(listed(&every.stdout, "not valid JSON"), 40, "{}", every.stdout);
    assert_eq!(listed(&every.stdout, "duplicate id"), 7, "{}", every.stdout);
    assert!(!every.stdout.contains(" more errors of this kind"), "{}", every.stdout);

    let json: serde_json::Value =
        serde_json::from_str(&evaltally(&["validate", path, "--format", "json"]).stdout).unwrap();
    assert_eq!(json["files"][0]["errors"].as_array().unwrap().len(), 47, "{json}");
}
