//! Every JSON document evaltally prints or writes names its schema in its first key and
//! validates against its file in `docs/schema/`: each command with JSON output run on the
//! fixtures, and every JSON document among the insta snapshots of every crate.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{evaltally, evaltally_in};
use evaltally_testkit::schema::{assert_valid, assert_valid_text, check};
use evaltally_testkit::workspace_root;
use serde_json::Value;

/// Runs `evaltally ARGS` in `dir` (with `env`), expects `code`, and validates its stdout as
/// one document; returns the document's name.
fn validated_in(dir: &Path, args: &[&str], env: &[(&str, &str)], code: i32) -> String {
    let run = evaltally_in(dir, args, env);
    assert_eq!(run.code, code, "evaltally {}: {}", args.join(" "), run.stderr);
    let what = format!("evaltally {}", args.join(" "));
    let name = assert_valid_text(&run.stdout, &what);
    assert!(run.stdout.starts_with(&format!("{{\n  \"schema\": \"evaltally.{name}/")), "{what}: `schema` is not first");
    name
}

fn validated(args: &[&str]) -> String {
    validated_in(&workspace_root(), args, &[], 0)
}

/// The schema files' names.
fn schema_names() -> BTreeSet<String> {
    std::fs::read_dir(evaltally_testkit::schema::folder())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".schema.json").map(str::to_string))
        .collect()
}

#[test]
fn every_command_with_json_output_writes_valid_documents() {
    let mut seen = BTreeSet::new();
    for paths in [
        &["testdata/bfcl/v4"][..],
        &["testdata/gstack/standard"],
        &["testdata/sfbench-runs"],
        &["testdata/swebench/runs"],
        &["testdata/tau2"],
        &["testdata/junit"],
    ] {
        for extra in [&[][..], &["--top-flaky", "5"]] {
            let mut args = vec!["stability"];
            args.extend(paths);
            args.extend(["--format", "json"]);
            args.extend(extra.iter());
            seen.insert(validated(&args));
        }
        for command in ["trend", "cost", "plan"] {
            let mut args = vec![command];
            args.extend(paths);
            args.extend(["--format", "json"]);
            seen.insert(validated(&args));
        }
    }
    seen.insert(validated(&["compare", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2", "--format", "json"]));
    seen.insert(validated(&[
        "compare",
        "--base",
        "testdata/gstack/standard",
        "--new",
        "testdata/gstack/standard",
        "--format",
        "json",
    ]));
    seen.insert(validated(&["show", "testdata/bfcl/v4", "multi_turn_base_1", "--format", "json"]));
    seen.insert(validated(&["summary", "testdata/sfbench-runs/run-1/report.json", "--format", "json"]));
    seen.insert(validated(&["summary", "testdata/sfbench-runs/run-2/report.json", "--format", "json"]));
    seen.insert(validated(&["summary", "testdata/swebench/runs/acme-agent-1.5.run-2.json", "--format", "json"]));
    seen.insert(validated(&["validate", "testdata/bfcl/v4/run-2", "--format", "json"]));
    seen.insert(validated_in(&workspace_root(), &["validate", "testdata/malformed", "--format", "json"], &[], 1));
    seen.insert(validated(&["formats", "--format", "json"]));
    seen.insert(validated(&["cache", "info", "--format", "json"]));

    // The id files of `stability --out`, and `--known-flaky` reading them back.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("ids");
    let run = evaltally(&["stability", "testdata/bfcl/v4", "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let files = files_below(&out);
    assert!(files.len() >= 3, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        seen.insert(assert_valid_text(&text, &file.display().to_string()));
    }
    let known = evaltally(&["stability", "testdata/bfcl/v4", "--known-flaky", out.to_str().unwrap()]);
    assert_eq!(known.code, 0, "{}", known.stderr);

    // push and runs on a folder store.
    let store = tmp.path().join("store");
    let env = [("EVALTALLY_STORE", store.to_str().unwrap())];
    let push = evaltally_in(&workspace_root(), &["push", "testdata/gstack/standard"], &env);
    assert_eq!(push.code, 0, "{}", push.stderr);
    seen.insert(validated_in(&workspace_root(), &["runs", "--format", "json"], &env, 0));

    // export's JSON Lines: every row.
    let rows = tmp.path().join("rows.jsonl");
    let export = evaltally(&["export", "testdata/bfcl/v4", "testdata/gstack/standard", "-o", rows.to_str().unwrap()]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let text = std::fs::read_to_string(&rows).unwrap();
    assert!(text.lines().count() > 10);
    for (i, line) in text.lines().enumerate() {
        seen.insert(assert_valid_text(line, &format!("export row {}", i + 1)));
        assert!(line.starts_with(r#"{"schema":"evaltally.export-row/1","#), "{line}");
    }

    // subset, subset --check and estimate, on planted runs of a few models.
    let planted = tmp.path().join("planted");
    let made = std::process::Command::new("python3")
        .arg(workspace_root().join("xtask/bench/gen_irt.py"))
        .args(["--models", "6", "--tests", "60", "--categories", "3", "--runs", "2", "--seed", "3"])
        .arg(&planted)
        .output()
        .expect("python3 runs xtask/bench/gen_irt.py");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let planted = planted.to_str().unwrap();
    let subset_file = tmp.path().join("subset.json");
    let subset_path = subset_file.to_str().unwrap();
    let fit = evaltally(&["subset", planted, "--size", "12", "-o", subset_path]);
    assert_eq!(fit.code, 0, "{}", fit.stderr);
    seen.insert(assert_valid_text(&std::fs::read_to_string(&subset_file).unwrap(), "the subset file"));
    seen.insert(validated(&["subset", planted, "--size", "12", "--check", "--format", "json"]));
    seen.insert(validated(&["estimate", planted, "--subset", subset_path, "--format", "json"]));
    seen.insert(validated(&["plan", planted, "--subset-error", "0.5", "--format", "json"]));

    let expected: BTreeSet<String> = schema_names().into_iter().filter(|n| !n.starts_with("serve-")).collect();
    // `summary store:…` reads a PostgreSQL store (tests/postgres.rs validates it).
    let missing: Vec<&String> = expected.iter().filter(|n| !seen.contains(*n) && *n != "summary-runs").collect();
    assert!(missing.is_empty(), "documents no command here wrote: {missing:?}");
}

#[test]
fn the_old_bare_id_files_are_still_read() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("flaky_tests.json");
    std::fs::write(&file, "{\"simple_python\": [\"simple_python_1\"]}\n").unwrap();
    let run = evaltally(&["stability", "testdata/bfcl/v4", "--known-flaky", file.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    std::fs::write(&file, "{\"schema\": \"evaltally.test-ids/9\", \"categories\": {}}\n").unwrap();
    let newer = evaltally(&["stability", "testdata/bfcl/v4", "--known-flaky", file.to_str().unwrap()]);
    assert_eq!(newer.code, 2);
    assert!(newer.stderr.contains("evaltally.test-ids/9, written by a newer evaltally"), "{}", newer.stderr);
}

fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files_below(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The JSON documents a snapshot holds: its body, or the stdout part of a transcript,
/// parsed as one JSON object, or as JSON Lines of objects; only those that name a schema.
fn documents_in(snapshot: &str) -> Vec<Value> {
    // The insta header: `---`, metadata lines, `---`.
    let body = snapshot
        .strip_prefix("---\n")
        .and_then(|rest| rest.split_once("\n---\n").map(|(_, body)| body))
        .unwrap_or(snapshot);
    let mut candidates = vec![body];
    for part in body.split("--- stdout\n").skip(1) {
        candidates.push(part.split("--- stderr\n").next().unwrap_or(part));
    }
    let mut docs = Vec::new();
    for text in candidates {
        if let Ok(doc @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
            docs.push(doc);
            continue;
        }
        let lines: Option<Vec<Value>> =
            text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).ok()).collect();
        docs.extend(lines.unwrap_or_default().into_iter().filter(Value::is_object));
    }
    docs.retain(|d| d.get("schema").is_some());
    docs
}

#[test]
fn every_json_document_among_the_snapshots_is_valid() {
    let crates = workspace_root().join("crates");
    let mut validated = 0;
    let mut problems = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap() {
        let dir = krate.unwrap().path().join("tests").join("snapshots");
        if !dir.is_dir() {
            continue;
        }
        for file in files_below(&dir).into_iter().filter(|f| f.extension().is_some_and(|e| e == "snap")) {
            let text = std::fs::read_to_string(&file).unwrap();
            for doc in documents_in(&text) {
                validated += 1;
                if let Err(errors) = check(&doc) {
                    let shown = file.strip_prefix(workspace_root()).unwrap_or(&file).display().to_string();
                    problems.push(format!("{shown}:\n{errors}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "snapshots whose JSON does not match its schema:\n{}", problems.join("\n\n"));
    // A guard against finding nothing: the snapshots hold dozens of JSON documents.
    assert!(validated >= 30, "only {validated} JSON documents found among the snapshots");
}

#[test]
fn a_document_that_breaks_its_schema_fails_with_the_json_path() {
    let text = evaltally(&["validate", "testdata/bfcl/v4/run-2", "--format", "json"]).stdout;
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    assert_valid(&doc, "validate");
    doc["files"][0]["valid"] = Value::from("yes");
    let errors = check(&doc).unwrap_err();
    assert!(errors.contains("/files/0/valid"), "{errors}");
    doc["schema"] = Value::from("evaltally.validate/2");
    assert!(check(&doc).unwrap_err().contains("/schema"));
}
