//! `inspect_ai` logs: each epoch is a run, scores become pass or fail by inspect's own
//! mapping, sample errors are errored (not failed), and every damaged part is named.

// The test archives below are a few hundred bytes: their sizes and offsets fit in a u32/u16.
#![allow(clippy::cast_possible_truncation)]

mod common;

use std::io::Write as _;

use common::{evaltally, evaltally_in, session};
use evaltally_testkit::refdata;

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let run = evaltally(&all);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// (stable pass, flaky, stable fail, errored) of the first category of the first model.
/// Stable passes, flaky tests, stable failures, and tests with an errored result.
fn classes(doc: &serde_json::Value) -> (u64, u64, u64, u64) {
    let c = &doc["models"][0]["categories"][0];
    let n = |k: &str| c[k].as_u64().unwrap_or(0);
    (n("stable_pass"), n("flaky"), n("stable_fail"), n("with_errors"))
}

fn outcomes(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["models"][0]["categories"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap().to_string(), t["outcomes"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", "testdata/inspect/arith.eval", "--top-flaky", "5"],
        &["stability", "testdata/inspect", "--format", "markdown"],
        &["compare", "--base", "testdata/inspect/arith.eval", "--new", "testdata/inspect/arith-later.json"],
        &["show", "testdata/inspect", "div-2"],
        &["validate", "testdata/inspect"],
        &["trend", "testdata/inspect"],
        &["export", "testdata/inspect/arith.eval"],
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn epochs_are_runs_and_errors_are_apart() {
    let doc = json(&["stability", "testdata/inspect/arith.eval"]);
    let model = &doc["models"][0];
    assert_eq!(
        (model["model"].as_str(), model["categories"][0]["category"].as_str()),
        (Some("acme/tiny-7b"), Some("arith"))
    );
    assert_eq!(model["runs"], serde_json::json!(["arith#epoch-1", "arith#epoch-2", "arith#epoch-3"]));
    assert_eq!(model["run_meta"]["arith#epoch-1"]["git_sha"], "abc1234");
    assert_eq!(classes(&doc), (1, 2, 1, 1));
    let expected = [("add-1", "PPP"), ("add-2", "PFP"), ("div-1", "FFF"), ("div-2", "FPE")];
    assert_eq!(outcomes(&doc), expected.map(|(a, b)| (a.to_string(), b.to_string())));
    // The benchmark's counting: the error fails.
    let official = json(&["stability", "testdata/inspect/arith.eval", "--errors-as", "fail"]);
    assert_eq!(classes(&official), (1, 2, 1, 0));
    assert_eq!(outcomes(&official)[3].1, "FPF");
}

#[test]
fn threshold_and_scorer_choose_what_passes() {
    // `P` is 0.5: a pass from --pass-threshold 0.5 on.
    let half = json(&["stability", "testdata/inspect/arith.eval", "--pass-threshold", "0.5"]);
    assert_eq!(outcomes(&half)[3].1, "PPE");
    let above = json(&["stability", "testdata/inspect/arith.eval", "--pass-threshold", "0.6"]);
    assert_eq!(outcomes(&above)[3].1, "FPE");
    // The second scorer, `includes`, gives the partial answer 1.0.
    let includes = json(&["stability", "testdata/inspect/arith.eval", "--scorer", "includes"]);
    assert_eq!(outcomes(&includes)[3].1, "PPE");
    // A scorer no sample has: every sample unscored, and a warning says which exist.
    let none = evaltally(&["stability", "testdata/inspect/arith.eval", "--scorer", "f1"]);
    assert!(
        none.stderr
            .contains("no sample has scorer `f1` (the log's scorers: `match`, `includes`); every sample is unscored"),
        "{}",
        none.stderr
    );
    // Export labels a failure by its scorer.
    let export = evaltally(&["export", "testdata/inspect/arith.eval"]);
    assert!(export.stdout.contains(r#""id":"div-1","outcome":"fail","error_type":"match_not_1""#), "{}", export.stdout);
    assert!(export.stdout.contains(r#""id":"div-2","outcome":"errored","error_type":"sample_error","error_message":"RateLimitError: 429 Too Many Requests""#), "{}", export.stdout);
}

fn zip(members: &[(&str, &str)]) -> Vec<u8> {
    // A stored (uncompressed) zip, written by hand so the test needs no zip writer.
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, body) in members {
        let crc = crc32(body.as_bytes());
        let offset = out.len() as u32;
        let header = |sig: &[u8], central: bool| {
            let mut h = Vec::new();
            h.extend_from_slice(sig);
            if central {
                h.extend_from_slice(&20u16.to_le_bytes());
            }
            h.extend_from_slice(&20u16.to_le_bytes()); // version needed
            h.extend_from_slice(&0u16.to_le_bytes()); // flags
            h.extend_from_slice(&0u16.to_le_bytes()); // stored
            h.extend_from_slice(&0u32.to_le_bytes()); // time, date
            h.extend_from_slice(&crc.to_le_bytes());
            h.extend_from_slice(&(body.len() as u32).to_le_bytes());
            h.extend_from_slice(&(body.len() as u32).to_le_bytes());
            h.extend_from_slice(&(name.len() as u16).to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes()); // extra
            if central {
                h.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
                h.extend_from_slice(&0u32.to_le_bytes()); // external attributes
                h.extend_from_slice(&offset.to_le_bytes());
            }
            h.extend_from_slice(name.as_bytes());
            h
        };
        out.extend(header(b"PK\x03\x04", false));
        out.extend_from_slice(body.as_bytes());
        central.extend(header(b"PK\x01\x02", true));
    }
    let start = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(members.len() as u16).to_le_bytes());
    out.extend_from_slice(&(members.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

const HEADER: &str = r#"{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "match"}]}}"#;

#[test]
fn damaged_logs_are_named_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let write =
        |name: &str, bytes: &[u8]| std::fs::File::create(dir.path().join(name)).unwrap().write_all(bytes).unwrap();
    // A good archive beside the damaged ones, so the analyses go on.
    write(
        "good.eval",
        &zip(&[
            ("header.json", HEADER),
            ("summaries.json", r#"[{"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}}]"#),
        ]),
    );
    // A summary list with a sample without id, a sample listed twice and an unreadable value;
    // a key written twice in the header.
    write(
        "samples.eval",
        &zip(&[
            ("header.json", &HEADER.replace(r#""model": "m"}"#, r#""model": "m", "model": "m"}"#)),
            (
                "summaries.json",
                r#"[{"epoch": 1, "scores": {"match": {"value": "C"}}},
                    {"id": 2, "epoch": 1, "scores": {"match": {"value": "C"}}},
                    {"id": 2, "epoch": 1, "scores": {"match": {"value": "I"}}},
                    {"id": 3, "epoch": 1, "scores": {"match": {"value": [1, 2]}}}]"#,
            ),
        ]),
    );
    // A member that is not JSON.
    write("member.eval", &zip(&[("header.json", HEADER), ("summaries.json", "[{\"id\": 1,\n \"epoch\": ")]));
    // An archive without a header, one cut short, and a JSON log cut in the middle.
    write("headless.eval", &zip(&[("summaries.json", "[]")]));
    let whole = zip(&[("header.json", HEADER), ("summaries.json", "[]")]);
    write("cut.eval", &whole[..whole.len() / 2]);
    write("cut.json", br#"{"version": 2, "eval": {"task": "t", "model": "m"}, "samples": [{"id": 1, "epoch": 1, "sco"#);
    // A header-only log.
    write(
        "header-only.json",
        br#"{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "results": {}}"#,
    );

    let stability = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!((stability.code, validate.code), (1, 1), "{}\n{}", stability.stderr, validate.stdout);
    let doc: serde_json::Value = serde_json::from_str(&stability.stdout).unwrap();
    // good.eval's sample and samples.eval's sample 2 (the first of its two) are judged.
    assert_eq!(doc["models"][0]["overall"]["stable_pass"], 2, "{}", stability.stdout);
    for said in [
        "samples.eval: error: summaries.json: [0]: expected `id`, a string or an integer; left out",
        "samples.eval: warning: sample 2 epoch 1 listed again; the first is kept",
        "samples.eval: warning: header.json: key `model` appears again",
        "scorer `match`: 1 sample gave values that are not a number, C/P/I/N or a boolean (first: sample 3 epoch 1: [1,2]); unscored",
        "member.eval: error: summaries.json: not valid JSON: the text ends before a value (cut short?) (line 2, column 11)",
        "headless.eval: error: expected header.json or _journal/start.json in the archive",
        "cut.eval: error: not a readable .eval archive (zip)",
        "cut.json:1:",
        "header-only.json: warning: a header-only log",
    ] {
        assert!(stability.stderr.contains(said), "missing {said:?} in\n{}", stability.stderr);
    }
    insta::assert_snapshot!(format!("{}\n{}", stability.stderr, validate.transcript()));
}

/// Every `inspect_ai` log in `../shared/refdata/evals` gives the counts its PROVENANCE.md
/// lists: samples, epochs, scorer values, samples that differ across epochs.
#[test]
fn refdata_logs_have_the_provenance_counts() {
    let Some(dir) = refdata("evals") else { return };
    let log = |rel: &str| dir.join(rel).to_str().unwrap().to_string();
    let test_log = |name: &str| log(&format!("inspect_ai/tests/log/test_eval_log/{name}"));
    let eee = |name: &str| log(&format!("every_eval_ever/tests/data/inspect/{name}"));
    // (file, model, samples, epochs, passes (C), fails (I), samples differing across epochs)
    let cases = [
        (eee("data_arc_qwen.json"), "ollama/qwen2.5:0.5b", 3, 1, 1, 2, 0),
        (eee("data_arc_sonnet.json"), "anthropic/claude-sonnet-4-0", 5, 1, 5, 0, 0),
        (test_log("log_formats.eval"), "ollama/llama3.1", 1, 1, 0, 1, 0),
        (test_log("log_formats.json"), "ollama/llama3.1", 1, 1, 0, 1, 0),
        (test_log("log_read_sample.eval"), "ollama/gemma3", 1, 1, 1, 0, 0),
        (test_log("log_read_sample.json"), "ollama/gemma3", 1, 1, 1, 0, 0),
        (test_log("log_streaming.eval"), "azureai/Meta-Llama-3-1-405B-Instruct-jqf", 2, 2, 3, 1, 1),
    ];
    for (file, model, samples, epochs, passes, fails, flaky) in cases {
        let doc = json(&["stability", &file]);
        let m = &doc["models"][0];
        assert_eq!(m["model"], model, "{file}");
        assert_eq!(m["runs"].as_array().unwrap().len(), epochs, "{file}");
        let c = &m["categories"][0];
        assert_eq!(c["total"], samples, "{file}");
        assert_eq!(c["flaky"], flaky, "{file}");
        let correct: u64 = c["correct"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).sum();
        let listed: u64 = c["listed"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!((correct, listed - correct), (passes, fails), "{file}");
    }
    // log_streaming.eval: sample 1 is the flaky one (C in one epoch, I in the other).
    let streaming = json(&["stability", &test_log("log_streaming.eval")]);
    let tests = streaming["models"][0]["categories"][0]["tests"].as_array().unwrap();
    let flaky: Vec<&str> = tests
        .iter()
        .filter(|t| t["passed"] != 0 && t["passed"] != t["runs"])
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(flaky, ["1"]);
    // A sample without scores is unscored; a header-only log says so and gives no run.
    let unscored = evaltally(&["stability", &test_log("log_tool_call_error.json"), "--format", "json"]);
    assert_eq!(unscored.code, 0, "{}", unscored.stderr);
    let doc: serde_json::Value = serde_json::from_str(&unscored.stdout).unwrap();
    assert_eq!(doc["models"][0]["categories"][0]["unscored_tests"], 1);
    let header_only = evaltally(&["stability", &eee("data_with_llm_scoring.json")]);
    assert_eq!(header_only.code, 2, "{}", header_only.stderr);
    assert!(header_only.stderr.contains("a header-only log: no samples were logged"), "{}", header_only.stderr);
    // The .eval and .json forms of one log agree.
    for name in ["log_formats", "log_read_sample"] {
        let (a, b) = (
            json(&["stability", &test_log(&format!("{name}.eval"))]),
            json(&["stability", &test_log(&format!("{name}.json"))]),
        );
        assert_eq!(outcomes(&a), outcomes(&b), "{name}");
    }
}

/// Two logs with the same file name in different folders: each keeps its epochs apart,
/// named after its folder and file (`a/arith.eval#epoch-2`), instead of one run per file.
#[test]
fn same_named_logs_keep_their_epochs_apart() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["a", "b"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        let fixture = evaltally_testkit::testdata("inspect/arith.eval");
        std::fs::copy(fixture, dir.path().join(folder).join("arith.eval")).unwrap();
    }
    // The same log twice: one run saved twice, read once and said.
    let once = evaltally_in(dir.path(), &["stability", ".", "--format", "json"], &[]);
    assert!(
        once.stderr.contains("b/arith.eval: warning: the same run id, tests and outcomes as `./a/arith.eval`"),
        "{}",
        once.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&once.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().unwrap().len(), 3);
    let shown = evaltally_in(dir.path(), &["show", ".", "add-1", "--format", "json"], &[]);
    let doc: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3, "{}", shown.stderr);
    let run = evaltally_in(dir.path(), &["stability", ".", "--format", "json", "--keep-duplicates"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let runs: Vec<&str> = doc["models"][0]["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(
        runs,
        [
            "a/arith.eval#epoch-1",
            "a/arith.eval#epoch-2",
            "a/arith.eval#epoch-3",
            "b/arith.eval#epoch-1",
            "b/arith.eval#epoch-2",
            "b/arith.eval#epoch-3"
        ]
    );
    assert_eq!(classes(&doc), (1, 2, 1, 1));
}

/// One eval saved twice in two encodings (`inspect log convert`, or a `.json` written beside
/// the `.eval`) is one run: the same eval id, tests and outcomes, whatever the bytes. It is
/// said, read once, and read twice with `--keep-duplicates`; a log with another eval id and
/// the same outcomes (a rerun that answered alike) is a run of its own, and so is one with
/// the same id whose outcomes differ.
#[test]
fn one_eval_saved_as_two_files_is_one_run() {
    let fixture = evaltally_testkit::workspace_root().join("testdata/shapes/inspect/json-log/arith.json");
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(fixture).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("arith.json"), serde_json::to_vec_pretty(&log).unwrap()).unwrap();
    std::fs::create_dir(dir.path().join("converted")).unwrap();
    std::fs::write(dir.path().join("converted/arith.json"), serde_json::to_vec(&log).unwrap()).unwrap();
    let runs = |args: &[&str]| -> (usize, String) {
        let mut all = vec!["stability", ".", "--format", "json"];
        all.extend(args);
        let run = evaltally_in(dir.path(), &all, &[]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        (doc["models"][0]["runs"].as_array().unwrap().len(), run.stderr)
    };
    let (once, said) = runs(&[]);
    assert_eq!(once, 2, "one run per epoch of the one eval");
    assert_eq!(
        said,
        "./converted/arith.json: warning: the same run id, tests and outcomes as `./arith.json` (one run saved \
         twice?): read once; --keep-duplicates reads both\n1 warning, 0 errors\n"
    );
    assert_eq!(runs(&["--keep-duplicates"]).0, 4);
    // Records (`export`, `convert`, `push`) alike: 2 epochs of 3 samples, once.
    let lines = |args: &[&str]| evaltally_in(dir.path(), args, &[]).stdout.lines().count();
    assert_eq!((lines(&["export", "."]), lines(&["export", ".", "--keep-duplicates"])), (6, 12));
    // `show` lists the runs the others read.
    let shown = |args: &[&str]| {
        let mut all = vec!["show", ".", "add-1", "--format", "json"];
        all.extend(args);
        let doc: serde_json::Value = serde_json::from_str(&evaltally_in(dir.path(), &all, &[]).stdout).unwrap();
        doc["runs"].as_array().unwrap().len()
    };
    assert_eq!((shown(&[]), shown(&["--keep-duplicates"])), (2, 4));

    // Before `eval_id` (inspect_ai < 0.3.95) the eval is `run_id`, `task_id` and `created`.
    let mut old = log.clone();
    old["eval"].as_object_mut().unwrap().remove("eval_id");
    std::fs::write(dir.path().join("arith.json"), serde_json::to_vec_pretty(&old).unwrap()).unwrap();
    std::fs::write(dir.path().join("converted/arith.json"), serde_json::to_vec(&old).unwrap()).unwrap();
    assert_eq!(runs(&[]).0, 2);
    old["eval"]["created"] = "2026-11-27T09:00:00+00:00".into();
    std::fs::write(dir.path().join("converted/arith.json"), serde_json::to_vec(&old).unwrap()).unwrap();
    assert_eq!(runs(&[]), (4, String::new()), "another eval that answered alike");

    let mut other = log.clone();
    other["eval"]["eval_id"] = "another-eval".into();
    std::fs::write(dir.path().join("arith.json"), serde_json::to_vec_pretty(&log).unwrap()).unwrap();
    std::fs::write(dir.path().join("converted/arith.json"), serde_json::to_vec(&other).unwrap()).unwrap();
    assert_eq!(runs(&[]), (4, String::new()), "another eval that answered alike");
    let mut rescored = log.clone();
    rescored["samples"][0]["scores"] = serde_json::json!({});
    std::fs::write(dir.path().join("converted/arith.json"), serde_json::to_vec(&rescored).unwrap()).unwrap();
    let (n, said) = runs(&[]);
    assert_eq!(n, 4, "the same eval id with other outcomes: {said}");
}

/// The refdata's one eval saved by `inspect_ai` as `log_formats.eval` and `log_formats.json`
/// is one run.
#[test]
fn refdata_eval_and_json_of_one_log_are_one_run() {
    let Some(dir) = refdata("gstack/inspect_ai") else { return };
    let run = evaltally(&["stability", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().unwrap().len(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("log_formats.json: warning: the same run id, tests and outcomes as `"),
        "{}",
        run.stderr
    );
    let shown = evaltally(&["show", dir.to_str().unwrap(), "1", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 1, "{}", shown.stderr);
}

/// A sample the chosen scorer did not score is unscored and said on stderr, once per log
/// with a count and the first sample; so is a log that names no scorer at all.
#[test]
fn samples_without_a_score_are_said() {
    let fixture = evaltally_testkit::workspace_root().join("testdata/shapes/inspect/json-log/arith.json");
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(fixture).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut partly = log.clone();
    for at in [1, 4] {
        partly["samples"][at]["scores"] = serde_json::json!({});
    }
    std::fs::write(dir.path().join("partly.json"), serde_json::to_vec(&partly).unwrap()).unwrap();
    let mut none = log;
    none["eval"].as_object_mut().unwrap().remove("scorers");
    none["results"] = serde_json::Value::Null;
    for sample in none["samples"].as_array_mut().unwrap() {
        sample["scores"] = serde_json::Value::Null;
    }
    std::fs::write(dir.path().join("unscorable.json"), serde_json::to_vec(&none).unwrap()).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "partly.json", "unscorable.json", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "partly.json: warning: 2 samples have no score from scorer `match` (first: sample add-2 epoch 1); unscored\n\
         unscorable.json: warning: 5 samples have no score (the log names no scorer) (first: sample add-1 epoch 1); \
         unscored\n2 warnings, 0 errors\n"
    );
}

/// A log whose run stopped (status `cancelled` or `error`) says so once, with how many of
/// its planned samples it holds and the error's first line; samples that errored are not
/// taken for a scorer that scored nothing.
#[test]
fn a_log_that_stopped_says_so_and_errored_samples_are_not_a_missing_scorer() {
    let fixture = evaltally_testkit::workspace_root().join("testdata/shapes/inspect/json-log/arith.json");
    let mut log: serde_json::Value = serde_json::from_slice(&std::fs::read(fixture).unwrap()).unwrap();
    log["status"] = "error".into();
    log["error"] = serde_json::json!({"message": "RuntimeError(\"No services started.\\nCompose up stderr: …\")", "traceback": "…"});
    let samples = log["samples"].as_array_mut().unwrap();
    samples.truncate(2);
    for s in samples.iter_mut() {
        s["scores"] = serde_json::json!({});
        s["error"] = serde_json::json!({"message": "sandbox failed", "traceback": "…"});
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("stopped.json"), serde_json::to_vec(&log).unwrap()).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "stopped.json", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "stopped.json: warning: the run stopped before its end: status `error` (`RuntimeError(\"No services \
         started.\\nCompose up stderr: …\")`); 2 of 6 samples in the log, read as they are\n1 warning, 0 errors\n"
    );
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["models"][0]["overall"]["errored"], 2, "{doc}");
}

/// Summaries of some `inspect_ai` versions (0.3.89) hold no `model_usage` or `total_time`;
/// `show` takes them from the sample itself, which has them.
#[test]
fn show_takes_tokens_and_time_from_the_sample_when_the_summary_lacks_them() {
    let dir = tempfile::tempdir().unwrap();
    let sample = r#"{"id": 1, "epoch": 1, "input": "2+2?", "target": "4", "output": {"completion": "4"},
        "scores": {"match": {"value": "C"}}, "total_time": 2.5,
        "model_usage": {"m": {"input_tokens": 12, "output_tokens": 3}}}"#;
    let archive = zip(&[
        ("header.json", HEADER),
        ("summaries.json", r#"[{"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}}]"#),
        ("samples/1_epoch_1.json", sample),
    ]);
    std::fs::write(dir.path().join("old.eval"), archive).unwrap();
    let run = evaltally_in(dir.path(), &["show", "old.eval", "1", "--format", "json"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let detail = &doc["runs"][0];
    assert_eq!((detail["input_tokens"].as_u64(), detail["output_tokens"].as_u64()), (Some(12), Some(3)), "{detail}");
    assert_eq!(detail["latency_seconds"].as_f64(), Some(2.5), "{detail}");
}

/// A `.eval` that is text (a Git LFS pointer checked out without its content) is named among
/// the files not read, never taken for a program's log and never silent.
#[test]
fn an_eval_that_is_text_is_named_as_not_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("run.eval"), "version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 9\n")
        .unwrap();
    let archive = zip(&[
        ("header.json", HEADER),
        ("summaries.json", r#"[{"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}}]"#),
    ]);
    std::fs::write(dir.path().join("ok.eval"), archive).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "note: 1 file not read: ./run.eval (--verbose says why)\n");
    let verbose = evaltally_in(dir.path(), &["stability", ".", "--verbose"], &[]);
    assert!(
        verbose.stderr.contains(
            "./run.eval: note: not read: text that is no JSON, XML or archive, a shape no format evaltally reads"
        ),
        "{}",
        verbose.stderr
    );
}

/// Bytes that are not UTF-8, in a field the reader skips, are an error with line and
/// column, as in every other format: the log is not read.
#[test]
fn bytes_that_are_not_utf8_in_a_skipped_field_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::read(evaltally_testkit::testdata("shapes/inspect/json-log/arith.json")).unwrap();
    let at = log.iter().position(|&b| b == b'{').unwrap() + 1;
    let mut damaged = log[..at].to_vec();
    damaged.extend_from_slice(b"\"zz_extra\": \"bad \xff\", ");
    damaged.extend_from_slice(&log[at..]);
    std::fs::write(dir.path().join("arith.json"), damaged).unwrap();
    let validate = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert_eq!(validate.code, 1, "{}", validate.stdout);
    assert!(validate.stdout.contains("error: not UTF-8 (a byte 0xFF); the log is not read"), "{}", validate.stdout);
    let stability = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert!(stability.stderr.contains("./arith.json:1:"), "{}", stability.stderr);
}
