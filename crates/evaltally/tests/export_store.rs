//! `evaltally export`, `push`, `runs` and `store:` names.

mod common;

use common::{evaltally, evaltally_in};
use evaltally_testkit::workspace_root;

#[test]
fn export_one_line_per_run_and_test() {
    let run = evaltally(&["export", "testdata/bfcl/v4", "testdata/swebench/runs/acme-agent-1.5.run-1.json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // v4: 29 tests in run-1, 28 in run-2 and run-10 (one simple_python test did not run in
    // each) for acme_tiny-7b; 4 + 4 for acme_big-70b; the SWE-bench run lists 6 instances.
    assert_eq!(lines.len(), 29 + 28 + 28 + 4 + 4 + 6);
    // Every line has every key of the schema, whatever its format records (BFCL and
    // SWE-bench record none of the run's own fields).
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(workspace_root().join("docs/schema/export-row.schema.json")).unwrap(),
    )
    .unwrap();
    let mut want: Vec<&str> = schema["required"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    want.sort_unstable();
    assert!(want.contains(&"git_sha") && want.contains(&"total_cost_usd"), "{want:?}");
    for l in &lines {
        let keys: Vec<&str> = l.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, want, "every line has every column");
    }
    insta::assert_snapshot!(run.stdout.lines().take(3).collect::<Vec<_>>().join("\n"));
}

#[test]
fn push_runs_and_stability_on_store_names() {
    let store = tempfile::tempdir().unwrap();
    let root = workspace_root();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let push = evaltally_in(
        &root,
        &["push", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2", "testdata/bfcl/v4/run-10"],
        &env,
    );
    assert_eq!(push.code, 0, "{}", push.stderr);
    assert_eq!(
        push.stdout,
        "pushed testdata/bfcl/v4/run-1 as store:run-1\npushed testdata/bfcl/v4/run-2 as store:run-2\npushed testdata/bfcl/v4/run-10 as store:run-10\n"
    );
    // The same files again (a CI job retried) add nothing; other files under the same name
    // get a name of their own.
    let again = evaltally_in(&root, &["push", "testdata/bfcl/v4/run-1"], &env);
    assert_eq!(again.stdout, "testdata/bfcl/v4/run-1 is already in the store as store:run-1\n");
    let other = tempfile::tempdir().unwrap();
    let renamed = other.path().join("run-1");
    evaltally_testkit::copy_folder(&root.join("testdata/bfcl/v4/run-2"), &renamed);
    let collide = evaltally_in(&root, &["push", renamed.to_str().unwrap()], &env);
    assert!(collide.stdout.ends_with("as store:run-1-2\n"), "names never collide: {}", collide.stdout);
    let list = evaltally_in(&root, &["runs", "--format", "json"], &env);
    let doc: serde_json::Value = serde_json::from_str(&list.stdout).unwrap();
    let mut names: Vec<&str> = doc["entries"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    // (Their order, by push time to the second, is `last_n_of_undated_entries_picks_the_last_pushed`'s.)
    names.sort_unstable();
    assert_eq!(names, ["run-1", "run-1-2", "run-10", "run-2"]);
    let from_store =
        evaltally_in(&root, &["stability", "store:run-1", "store:run-2", "store:run-10", "--format", "json"], &env);
    let original = evaltally(&["stability", "testdata/bfcl/v4", "--format", "json"]);
    let models = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["models"].clone();
    assert_eq!(models(&from_store.stdout), models(&original.stdout), "{}", from_store.stderr);
    let no_tmp =
        std::fs::read_dir(store.path()).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().starts_with('.'));
    assert!(no_tmp, "no temporary folder left in the store");
}

#[test]
fn invalid_runs_are_not_pushed() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let run = evaltally_in(&workspace_root(), &["push", "testdata/bfcl/quirks/nightly"], &env);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("error: testdata/bfcl/quirks/nightly: not pushed, invalid"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(store.path()).unwrap().count(), 0);
}

/// A folder of files evaltally does not read is not pushed: stored, it would be an entry of
/// no run, its branch lost.
#[test]
fn folders_without_results_are_not_pushed() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("results.json"), r#"{"foo": 1}"#).unwrap();
    let run = evaltally_in(other.path(), &["push", ".", "--branch", "main"], &env);
    // Nothing to push is "not done", as an empty folder is.
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("error: .: not pushed, it holds no result file evaltally reads"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(store.path()).unwrap().count(), 0);
    let empty = tempfile::tempdir().unwrap();
    let run = evaltally_in(empty.path(), &["push", "."], &env);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("error: nothing to read in ."), "{}", run.stderr);
    // Beside a run that is pushed, a folder of nothing is a problem said, and the run is
    // pushed all the same, whichever comes first.
    let run_1 = workspace_root().join("testdata/bfcl/v4/run-1");
    let run = evaltally_in(empty.path(), &["push", ".", run_1.to_str().unwrap()], &env);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("pushed ") && run.stdout.contains("as store:run-1"), "{}", run.stdout);
}

#[test]
fn unknown_store_names_exit_2() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let run = evaltally_in(&workspace_root(), &["stability", "store:nope"], &env);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no entry `nope` in the store"), "{}", run.stderr);
}

/// `runs` shows what each entry's runs record, newest first, filtered by branch and tier
/// and cut to the most recent; JSON gives every run of every entry.
#[test]
fn runs_lists_date_branch_tier_passes_cost_and_version() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let root = evaltally_testkit::workspace_root();
    let pushed = evaltally_in(
        &root,
        &[
            "push",
            "testdata/gstack/standard/nightly-1.json",
            "testdata/gstack/standard/nightly-2.json",
            "testdata/bfcl/v4/run-1",
        ],
        &env,
    );
    assert_eq!(pushed.code, 0, "{}", pushed.stderr);
    let all = evaltally_in(&root, &["runs"], &env);
    let main = evaltally_in(&root, &["runs", "--branch", "main", "--tier", "e2e", "--limit", "1"], &env);
    let text = format!("{}\n=== --branch main --tier e2e --limit 1\n{}", all.stdout, main.stdout)
        .replace(store.path().to_str().unwrap(), "[STORE]");
    insta::assert_snapshot!(text);
    let json = evaltally_in(&root, &["runs", "--format", "json"], &env);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let names: Vec<&str> = doc["entries"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["nightly-2", "nightly-1", "run-1"], "newest first, untimed last");
    let night = &doc["entries"][0]["runs"][0];
    assert_eq!(
        (night["git_branch"].as_str(), night["passed"].as_u64(), night["scored"].as_u64()),
        (Some("main"), Some(2), Some(4))
    );
    assert_eq!(doc["found"], 3);
    let mut redacted = doc.clone();
    redacted["store"] = "[STORE]".into();
    // The push time redacted to 0, a number still, so the snapshot validates against the
    // `runs` schema as the other JSON snapshots do (tests/schema.rs).
    for e in redacted["entries"].as_array_mut().unwrap() {
        e["pushed_at_unix"] = 0.into();
    }
    insta::assert_snapshot!("runs_json", serde_json::to_string_pretty(&redacted).unwrap());
}

/// In a folder store, entries whose runs record no date (BFCL) are newest by push time:
/// `last=N` picks the last pushed, whatever their names, and `runs` lists them so.
#[test]
fn last_n_of_undated_entries_picks_the_last_pushed() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let root = evaltally_testkit::workspace_root();
    for run in ["run-1", "run-2", "run-10"] {
        let path = format!("testdata/bfcl/v4/{run}");
        let sha = format!("sha-{run}");
        let pushed = evaltally_in(&root, &["push", &path, "--branch", "main", "--commit", &sha], &env);
        assert_eq!(pushed.code, 0, "{}", pushed.stderr);
    }
    // Pushed in one second here; a CI store pushes them days apart. Give each entry its push
    // time, run-2 the latest and run-1 the earliest, against their names' order.
    for (entry, at) in [("run-1", 1_000), ("run-10", 2_000), ("run-2", 3_000)] {
        let meta = store.path().join(entry).join(".evaltally-entry.json");
        let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
        doc["pushed_at_unix"] = at.into();
        std::fs::write(&meta, doc.to_string()).unwrap();
    }
    let runs = |selection: &str| {
        let run = evaltally_in(&root, &["stability", selection, "--format", "json"], &env);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let mut names: Vec<String> =
            doc["models"][0]["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        names.sort();
        names
    };
    assert_eq!(runs("store:branch=main,last=1"), ["run-2"]);
    assert_eq!(runs("store:branch=main,last=2"), ["run-10", "run-2"]);
    let listed = evaltally_in(&root, &["runs", "--format", "json"], &env);
    let doc: serde_json::Value = serde_json::from_str(&listed.stdout).unwrap();
    let names: Vec<&str> = doc["entries"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["run-2", "run-10", "run-1"], "last pushed first");
    // The branch and commit the push was given come back with the runs, as from PostgreSQL.
    assert_eq!(doc["entries"][0]["runs"][0]["git_sha"], "sha-run-2");
    let export = evaltally_in(&root, &["export", "store:run-2"], &env);
    let line: serde_json::Value = serde_json::from_str(export.stdout.lines().next().unwrap()).unwrap();
    assert_eq!((line["git_branch"].as_str(), line["git_sha"].as_str()), (Some("main"), Some("sha-run-2")));
}

/// `cost` and `export` on files that hold no run exit 2 and say so, as the analyses do; an
/// SF-Bench summary alone is a warning to them as to the analyses, not an error.
#[test]
fn nothing_to_export_or_cost_exits_2() {
    let summary = "testdata/shapes/sfbench/results-folder/results/acme-sf-model/summary.md";
    for (command, verb) in [("export", "export"), ("cost", "read")] {
        let run = evaltally(&[command, summary]);
        assert_eq!(run.code, 2, "{command}: {}", run.stderr);
        assert!(run.stderr.contains(&format!("error: nothing to {verb} in {summary}")), "{}", run.stderr);
    }
    let report = "testdata/sfbench-runs/run-1/report.json";
    let v1 = "testdata/sfbench/v1-engine-summary.json";
    let stability = evaltally(&["stability", report, v1]);
    let export = evaltally(&["export", report, v1]);
    assert_eq!((stability.code, export.code), (0, 0), "{}\n{}", stability.stderr, export.stderr);
    let said = |stderr: &str| stderr.lines().find(|l| l.contains("hold no per-instance outcomes")).map(str::to_string);
    assert_eq!(said(&export.stderr), said(&stability.stderr));
    assert!(said(&export.stderr).is_some_and(|l| l.contains(": warning: ")), "{}", export.stderr);
}

/// An empty `EVALTALLY_STORE` (a CI secret a fork's job does not get) falls back to the default
/// folder store, and a selection that finds nothing there says so.
#[test]
fn an_empty_store_variable_is_said_when_nothing_is_found() {
    let data = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", ""), ("XDG_DATA_HOME", data.path().to_str().unwrap())];
    let run = evaltally_in(&workspace_root(), &["stability", "store:branch=main,last=3"], &env);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("(EVALTALLY_STORE is set but empty, so this is the default folder store"),
        "{}",
        run.stderr
    );
}

/// A folder store selects entries whole: a selection that picks an entry for one of its runs
/// says which of its other runs, that the filters leave out, are read with it.
#[test]
fn runs_a_folder_store_selection_reads_beyond_its_filters_are_said() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let root = workspace_root();
    assert_eq!(evaltally_in(&root, &["push", "testdata/gstack/evals"], &env).code, 0);
    let e2e = evaltally_in(&root, &["export", "store:tier=e2e"], &env);
    assert_eq!(e2e.code, 0, "{}", e2e.stderr);
    assert_eq!(
        e2e.stderr.lines().next(),
        Some(
            "warning: store:tier=e2e: a folder store reads the entries it picks whole, so 1 run that the filters \
             leave out is read too (evals: 0.4.1-main-llm-judge-2026-03-15-1045 (claude-haiku-4-5))"
        ),
        "{}",
        e2e.stderr
    );
    // What it says is what is read: the llm-judge run is among the rows.
    assert!(e2e.stdout.contains("\"run\":\"0.4.1-main-llm-judge-2026-03-15-1045\""));
    let all = evaltally_in(&root, &["export", "store:all"], &env);
    assert!(!all.stderr.contains("read too"), "{}", all.stderr);
    // Said once, however often the selection is made (`serve` makes it at every load).
    let twice = evaltally_in(&root, &["export", "store:tier=e2e", "store:tier=e2e"], &env);
    assert_eq!(twice.stderr.matches("read too").count(), 1, "{}", twice.stderr);
}
