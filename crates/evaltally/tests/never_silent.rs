//! Hostile-but-realistic inputs built at test time from the real files in the shared
//! reference data (never copied into the repository): what a parser would drop silently
//! is said, on every format, and a damaged file is named the same way wherever it is given.
//! Each case is a snapshot of the commands' output and exit codes; the tests also assert
//! the behaviour itself, so that a snapshot accepted by mistake cannot hide a regression.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::evaltally_in;
use evaltally_testkit::refdata;

/// A temporary folder with `files` (path in the folder, bytes) written into it.
fn folder(files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

/// `text` with `from` replaced once by `to`, insisting that `from` is there.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the reference file no longer holds {from:?}");
    text.replacen(from, to, 1)
}

/// Runs every command in `dir`; the transcript of all of them, each headed by its command
/// line and followed by its exit code.
fn session(dir: &Path, commands: &[&[&str]]) -> (String, Vec<i32>) {
    let mut out = String::new();
    let mut codes = Vec::new();
    for args in commands {
        let run = evaltally_in(dir, args, &[]);
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
        let _ = write!(out, "$ evaltally {}\n{}{}exit {}\n\n", args.join(" "), run.stdout, run.stderr, run.code);
        codes.push(run.code);
    }
    (out, codes)
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn swebench_instance_reports_that_contradict_themselves() {
    let Some(logs) = refdata(
        "swebench/tdad-verified-batch25-with-instance-reports/20260310_233300_batch25/evaluations/logs/run_evaluation/eval_20260311_034331/opencode-qwen3.5-35B-A3B-baseline",
    ) else {
        return;
    };
    let run = "logs/run_evaluation/eval_1/acme";
    let report = |id: &str| read(logs.join(id).join("report.json"));
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for id in ["pallets__flask-5014", "pydata__xarray-3151", "pytest-dev__pytest-5262"] {
        files.push((format!("{run}/{id}/report.json"), report(id).into_bytes()));
    }
    // `resolved: "yes"`, a report keyed unlike its folder, a report with two keys, and a
    // key written twice.
    let yes = edit(&report("pylint-dev__pylint-4970"), "\"resolved\": false", "\"resolved\": \"yes\"");
    let moved = edit(&report("psf__requests-1142"), "\"psf__requests-1142\"", "\"psf__requests-9999\"");
    let two = edit(&report("django__django-10973"), "{", "{\"extra__extra-1\": {\"resolved\": true},");
    let twice = edit(&report("django__django-10914"), "\"resolved\":", "\"resolved\": true, \"resolved\":");
    for (id, text) in [
        ("pylint-dev__pylint-4970", yes),
        ("psf__requests-1142", moved),
        ("django__django-10973", two),
        ("django__django-10914", twice),
    ] {
        files.push((format!("{run}/{id}/report.json"), text.into_bytes()));
    }
    let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(p, b)| (p.as_str(), b.clone())).collect();
    let dir = folder(&files);
    let two_keys = format!("{run}/django__django-10973");
    let (transcript, codes) = session(
        dir.path(),
        &[
            &["stability", "logs"],
            &["validate", &two_keys],
            &["validate", run],
            &["show", "logs", "psf__requests-9999"],
            &["show", "logs", "psf__requests-1142"],
            &["export", "logs", "-o", "tests.jsonl"],
        ],
    );
    for said in [
        "`resolved` is \"yes\", expected true or false; read as false",
        "the report is keyed `psf__requests-9999` but sits in the folder `psf__requests-1142`",
        "the report also holds `extra__extra-1` besides `django__django-10973`, the instance of its folder",
        "key `resolved` appears again in the same object",
    ] {
        assert!(transcript.contains(said), "not said: {said}\n{transcript}");
    }
    // What the reader tolerates is a warning (exit 0); validate refuses the key written
    // twice and the extra instance's incomplete report (exit 1). The two-key report is read
    // for its folder's instance.
    assert_eq!(codes, [0, 1, 1, 0, 2, 0], "{transcript}");
    let exported = read(dir.path().join("tests.jsonl"));
    assert_eq!(exported.lines().count(), 7, "{exported}");
    assert!(exported.contains("django__django-10973") && !exported.contains("extra__extra-1"), "{exported}");
    assert!(exported.contains("psf__requests-9999") && !exported.contains("psf__requests-1142"), "{exported}");
    insta::assert_snapshot!(transcript);
}

#[test]
fn swebench_run_report_listing_an_instance_twice() {
    let Some(gold) = refdata("swebench/swebench-official-gold-reports/gold.jest-gold.json") else { return };
    let text = read(gold);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let resolved = doc["resolved_ids"].as_array().unwrap();
    let (first, second) = (resolved[0].as_str().unwrap(), resolved[1].as_str().unwrap());
    // The first resolved instance also unresolved; the second resolved one listed twice.
    let mut broken = doc.clone();
    broken["unresolved_ids"].as_array_mut().unwrap().push(first.into());
    broken["resolved_ids"].as_array_mut().unwrap().push(second.into());
    let dir = folder(&[("acme.gold.json", serde_json::to_vec_pretty(&broken).unwrap())]);
    let (transcript, codes) =
        session(dir.path(), &[&["stability", "acme.gold.json", "--format", "json"], &["validate", "acme.gold.json"]]);
    assert!(
        transcript.contains(&format!("instance `{first}` is in both `resolved_ids` and `unresolved_ids`")),
        "{transcript}"
    );
    assert!(transcript.contains(&format!("instance `{second}` is listed twice in `resolved_ids`")), "{transcript}");
    assert_eq!(codes, [0, 1], "{transcript}");
    // Counted once, as resolved.
    let json = evaltally_in(dir.path(), &["stability", "acme.gold.json", "--format", "json"], &[]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let listed = |key: &str| doc[key].as_array().map_or(0, Vec::len) as u64;
    // Error instances errored: in a class of their own (errored in their one run).
    let judged = listed("resolved_ids") + listed("unresolved_ids") + listed("empty_patch_ids");
    let categories = report["models"][0]["categories"].as_array().unwrap();
    let sum = |key: &str| categories.iter().map(|c| c[key].as_u64().unwrap_or(0)).sum::<u64>();
    let errored = listed("error_ids");
    assert_eq!((sum("total"), sum("errored")), (judged + errored, errored), "{transcript}");
    // The JSON report itself is covered above; the snapshot keeps what was said.
    let said: Vec<&str> = transcript
        .lines()
        .filter(|l| {
            l.starts_with("acme")
                || l.starts_with("$ ")
                || l.starts_with("exit")
                || l.starts_with("  ") && l.contains(": error: ")
                || l.contains(" warning")
        })
        .collect();
    insta::assert_snapshot!(said.join("\n"));
}

#[test]
fn sfbench_resolved_as_text_and_an_instance_twice() {
    let Some(path) = refdata("sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json") else { return };
    let text = read(path);
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let instances = doc["instances"].as_array_mut().unwrap();
    instances[2]["resolved"] = "yes".into();
    let again = instances[0].clone();
    instances.push(again);
    let dir = folder(&[("report.json", serde_json::to_vec_pretty(&doc).unwrap())]);
    let (transcript, codes) = session(
        dir.path(),
        &[&["stability", "report.json"], &["validate", "report.json"], &["export", "report.json", "-o", "t.jsonl"]],
    );
    assert!(transcript.contains("`resolved` is \"yes\", expected true or false; read as false"), "{transcript}");
    assert!(
        transcript.contains("instance `lwc-component-001` again (first at instances[0]); the first is kept"),
        "{transcript}"
    );
    assert_eq!(codes, [0, 1, 0], "{transcript}");
    // Exported as counted: the repeated instance once.
    let exported = read(dir.path().join("t.jsonl"));
    assert_eq!(exported.matches("\"lwc-component-001\"").count(), 1, "{exported}");
    insta::assert_snapshot!(transcript);
}

#[test]
fn gstack_and_junit_keys_twice_bytes_that_are_not_text() {
    let (Some(gstack), Some(junit)) = (
        refdata("gstack/garrytan-gstack/standard-example.from-docs-eval-result-format.json"),
        refdata("gstack/dorny-test-reporter/jest-junit.xml"),
    ) else {
        return;
    };
    let gstack = read(gstack);
    let junit = read(junit);
    let twice = edit(&gstack, "\"passed\": true,", "\"passed\": true, \"passed\": false,");
    let mut not_utf8 = gstack.clone().into_bytes();
    let at = gstack.find("login-flow").unwrap() + 5;
    not_utf8[at] = 0xff;
    let esc = edit(&junit, "name=\"Passing test\"", "name=\"Passing \u{1b}[31mtest\u{7}\"");
    let dir = folder(&[
        ("gstack/twice.json", twice.into_bytes()),
        ("gstack/not-utf8.json", not_utf8),
        ("junit/esc.xml", esc.into_bytes()),
    ]);
    let (transcript, codes) = session(
        dir.path(),
        &[&["stability", "gstack"], &["validate", "gstack"], &["stability", "junit"], &["validate", "junit"]],
    );
    assert!(transcript.contains("key `passed` appears again in the same object"), "{transcript}");
    assert!(transcript.contains("gstack/not-utf8.json:"), "{transcript}");
    assert!(
        transcript.contains("2 control characters which XML 1.0 does not allow, the first (U+001B) here"),
        "{transcript}"
    );
    // Tolerated when read; ill-formed XML 1.0 to `validate`.
    assert_eq!(codes, [1, 1, 0, 1], "{transcript}");
    insta::assert_snapshot!(transcript);
}

#[test]
fn bfcl_key_twice_on_a_line() {
    let Some(run) = refdata("bfcl/bbrowning-bfcl-vllm-results/results/2025-11-12-harmony-fixes") else { return };
    let rel = |kind: &str| format!("{kind}/openai_gpt-oss-120b/non_live/BFCL_v4_simple_python_{kind}.json");
    let result = read(run.join(rel("result")));
    let score = read(run.join(rel("score")));
    let mut lines: Vec<String> = score.lines().map(str::to_string).collect();
    let failure = lines[1].clone();
    let id = serde_json::from_str::<serde_json::Value>(&failure).unwrap()["id"].as_str().unwrap().to_string();
    lines[1] = edit(&failure, "{", "{\"id\": \"simple_python_999\", ");
    let dir = folder(&[
        (&format!("run/{}", rel("result")), result.into_bytes()),
        (&format!("run/{}", rel("score")), format!("{}\n", lines.join("\n")).into_bytes()),
    ]);
    let (transcript, codes) = session(dir.path(), &[&["stability", "run"], &["validate", "run"]]);
    assert!(transcript.contains("key `id` appears twice on this line; the last value is read"), "{transcript}");
    assert!(!transcript.contains("simple_python_999"), "the last id ({id}) counts\n{transcript}");
    assert_eq!(codes, [0, 1], "{transcript}");
    insta::assert_snapshot!(transcript);
}

/// A damaged file is named with its line and column whether it is given by name or found
/// in a folder, on every format.
#[test]
fn a_damaged_file_is_named_alike_wherever_it_is_given() {
    let (Some(gstack), Some(sfbench), Some(junit), Some(swebench)) = (
        refdata("gstack/garrytan-gstack/standard-example.from-docs-eval-result-format.json"),
        refdata("sfbench/upstream-code-oracle-synthetic/v2_report_synthetic.json"),
        refdata("gstack/dorny-test-reporter/jest-junit.xml"),
        refdata("swebench/swebench-official-gold-reports/gold.jest-gold.json"),
    ) else {
        return;
    };
    let cut = |p: PathBuf| {
        let text = read(p);
        text[..text.len() / 2].to_string().into_bytes()
    };
    let dir = folder(&[
        ("gstack/cut.json", cut(gstack)),
        ("sfbench/cut.json", cut(sfbench)),
        ("junit/cut.xml", cut(junit)),
        ("swebench/acme.cut.json", cut(swebench)),
    ]);
    let mut all = String::new();
    for (folder_name, file) in
        [("gstack", "cut.json"), ("sfbench", "cut.json"), ("junit", "cut.xml"), ("swebench", "acme.cut.json")]
    {
        let named = format!("{folder_name}/{file}");
        let by_name = evaltally_in(dir.path(), &["stability", &named], &[]);
        let in_folder = evaltally_in(dir.path(), &["stability", folder_name], &[]);
        let located = |stderr: &str| {
            stderr.lines().find(|l| l.starts_with(&named) && l.contains(": error: ")).map(str::to_string)
        };
        let (a, b) = (located(&by_name.stderr), located(&in_folder.stderr));
        assert!(a.is_some(), "{named} by name: no located error\n{}", by_name.stderr);
        assert_eq!(a, b, "{named}: named differently by name and in a folder");
        let place = a.unwrap();
        let after = &place[named.len()..];
        assert!(
            after.starts_with(':') && after[1..].split(':').next().is_some_and(|l| l.parse::<u64>().is_ok()),
            "{place}"
        );
        assert_eq!((by_name.code, in_folder.code), (2, 2), "{named}: nothing else to analyse");
        all.push_str(&place);
        all.push('\n');
    }
    insta::assert_snapshot!(all);
}
