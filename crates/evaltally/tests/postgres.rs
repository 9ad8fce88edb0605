//! The PostgreSQL team store against a real server (`EVALTALLY_TEST_PG_URL`; `.ci/run`
//! starts one). Without it each test skips with a notice, except under `CI=true`, where it
//! fails. Every test works in a database of its own.

mod common;

use std::path::Path;

use common::{Run, evaltally_in};
use evaltally_store::testing::fresh_database;
use evaltally_testkit::workspace_root;

fn with_store(url: &str, args: &[&str]) -> Run {
    evaltally_in(&workspace_root(), args, &[("EVALTALLY_STORE", url)])
}

fn ok(url: &str, args: &[&str]) -> Run {
    let run = with_store(url, args);
    assert_eq!(run.code, 0, "{args:?}\n{}", run.transcript());
    run
}

/// `stability --format json` with what depends on where the runs were read from taken out.
fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

const BFCL: [&str; 3] = ["testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2", "testdata/bfcl/v4/run-10"];

#[test]
fn push_then_analyses_read_the_same_runs_as_the_folders() {
    let Some(url) = fresh_database("push_analyses") else { return };
    for p in BFCL {
        let run = ok(&url, &["push", p]);
        assert!(run.stdout.contains("run added") || run.stdout.contains("runs added"), "{}", run.stdout);
        assert!(!run.stdout.contains("evaltally-ci-secret"), "{}", run.stdout);
    }
    ok(&url, &["push", "testdata/gstack/evals"]);
    // Pushing the same files again adds nothing.
    let again = ok(&url, &["push", BFCL[0]]);
    assert!(again.stdout.contains("0 runs added, 1 already there"), "{}", again.stdout);
    let listed = json(&ok(&url, &["runs", "--format", "json", "--limit", "0"]));
    evaltally_testkit::schema::assert_valid(&listed, "runs --format json of a PostgreSQL store");
    assert_eq!(listed["found"], 8, "{listed}"); // BFCL runs hold two models each

    for command in [&["stability", "--format", "json"][..], &["trend", "--format", "json", "--limit", "0"]] {
        let mut from_files = command.to_vec();
        from_files.extend(BFCL);
        let mut from_store = command.to_vec();
        from_store.push("store:all");
        let files = json(&ok(&url, &from_files));
        let mut stored = command.to_vec();
        stored.push("store:name=run-1");
        stored.push("store:name=run-2");
        stored.push("store:name=run-10");
        assert_eq!(json(&ok(&url, &stored)), files, "{command:?}: store:name=… equals the folders");
        let mut gstack_files = json(&ok(&url, &[command, &["testdata/gstack/evals"]].concat()));
        // The folder's partial save is a file on disk, never pushed: only the folder says it skipped it.
        let skipped = gstack_files.as_object_mut().unwrap().remove("not_read").unwrap();
        assert_eq!(skipped.as_array().map(Vec::len), Some(1), "{skipped}");
        assert!(skipped[0]["path"].as_str().unwrap().ends_with("_partial-e2e.json"), "{skipped}");
        let gstack_store = json(&ok(&url, &[command, &["store:tier=e2e", "store:tier=llm-judge"]].concat()));
        assert_eq!(gstack_store.get("not_read"), None, "{gstack_store}");
        assert_eq!(gstack_store, gstack_files, "{command:?}: gstack from the store");
    }
    let compare_files = json(&ok(&url, &["compare", BFCL[0], BFCL[1], "--format", "json"]));
    let compare_store = json(&ok(&url, &["compare", "store:name=run-1", "store:name=run-2", "--format", "json"]));
    assert_eq!(compare_store, compare_files);
}

#[test]
fn refdata_stability_is_the_same_from_the_postgres_store() {
    let Some(root) = evaltally_testkit::refdata("bfcl/bbrowning-bfcl-vllm-results/results/v0.11.0") else { return };
    let Some(url) = fresh_database("refdata") else { return };
    let root = root.to_str().unwrap();
    ok(&url, &["push", root]);
    let files = ok(&url, &["stability", root, "--format", "json"]);
    let stored = ok(&url, &["stability", "store:all", "--format", "json"]);
    assert_eq!(stored.stdout, files.stdout);
}

#[test]
fn store_filters_select_runs() {
    let Some(url) = fresh_database("filters") else { return };
    ok(&url, &["push", "testdata/gstack/evals"]);
    // `last=N` counts pushes, as a folder store does: this push of three runs is one.
    // The runs a selection picks, from this store or another (`--store`).
    let runs = |sel: &str, store: &[&str]| -> std::collections::BTreeSet<String> {
        let out = ok(&url, &[&["export", sel][..], store].concat());
        out.stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["run"].as_str().unwrap().to_string())
            .collect()
    };
    let count = |sel: &str| runs(sel, &[]).len();
    assert_eq!(count("store:all"), 3);
    assert_eq!(count("store:tier=e2e"), 2);
    assert_eq!(count("store:last=1"), 3);
    assert_eq!(count("store:branch=main,since=2026-03-15"), 2);
    assert_eq!(count("store:tier=e2e,last=1"), 2);
    // A later push (its runs dated after the first's): `last=1` is its two runs alone.
    ok(&url, &["push", "testdata/gstack/standard"]);
    assert_eq!(count("store:last=1"), 2);
    assert_eq!(count("store:last=2"), 5);
    // The same pushes into a folder store select the same runs.
    let folder = tempfile::tempdir().unwrap();
    let folder = ["--store", folder.path().to_str().unwrap()];
    for p in ["testdata/gstack/evals", "testdata/gstack/standard"] {
        ok(&url, &[&["push", p][..], &folder].concat());
    }
    for sel in ["store:last=1", "store:last=2", "store:tier=e2e,last=1", "store:branch=main,last=1"] {
        assert_eq!(runs(sel, &folder), runs(sel, &[]), "{sel}");
    }
    let none = with_store(&url, &["stability", "store:branch=nope"]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("no run in the store"), "{}", none.stderr);
    let show = ok(&url, &["show", "store:tier=e2e", "browse-basic"]);
    assert!(show.stdout.starts_with("browse-basic"), "{}", show.stdout);
    let bad = with_store(&url, &["stability", "store:colour=blue"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("unknown filter `colour`"), "{}", bad.stderr);
}

/// `push --branch --commit` label runs whose files say neither, and leave what files say.
#[test]
fn push_labels_runs_with_the_branch_and_commit_given() {
    let Some(url) = fresh_database("push_labels") else { return };
    ok(&url, &["push", BFCL[0], "--branch", "feature-x", "--commit", "deadbee"]);
    // gstack's files name their branch (main): --branch does not overwrite it.
    ok(&url, &["push", "testdata/gstack/evals", "--branch", "feature-x"]);
    let listed = json(&ok(&url, &["runs", "--format", "json", "--limit", "0"]));
    let runs = listed["runs"].as_array().unwrap();
    let branch_of = |run: &str| -> Vec<String> {
        runs.iter().filter(|r| r["run"] == run).map(|r| r["git_branch"].as_str().unwrap_or("").to_string()).collect()
    };
    assert_eq!(branch_of("run-1"), ["feature-x"], "{listed}");
    assert!(runs.iter().any(|r| r["run"] == "run-1" && r["git_sha"] == "deadbee"), "{listed}");
    assert!(runs.iter().filter(|r| r["format"] == "gstack").all(|r| r["git_branch"] == "main"), "{listed}");
    let picked = json(&ok(&url, &["stability", "store:branch=feature-x", "--format", "json"]));
    let models: Vec<&str> = picked["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(models, ["acme_tiny-7b"]);
}

#[test]
fn twenty_concurrent_pushes_lose_nothing() {
    let Some(url) = fresh_database("concurrent") else { return };
    let tmp = tempfile::tempdir().unwrap();
    let source = workspace_root().join("testdata/gstack/evals/0.4.1-main-e2e-2026-03-14-0910.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(source).unwrap()).unwrap();
    let mut paths = Vec::new();
    for i in 0..20 {
        doc["timestamp"] = format!("2026-04-{:02}T10:00:00Z", i + 1).into();
        let p = tmp.path().join(format!("0.4.1-main-e2e-run{i:02}.json"));
        std::fs::write(&p, serde_json::to_string(&doc).unwrap()).unwrap();
        paths.push(p);
    }
    let children: Vec<_> = paths
        .iter()
        .chain(&paths[..5]) // five pushed twice at once: still one run each
        .map(|p| {
            std::process::Command::new(env!("CARGO_BIN_EXE_evaltally"))
                .args(["push", p.to_str().unwrap()])
                .env("EVALTALLY_STORE", &url)
                .env("EVALTALLY_CACHE", Path::new(env!("CARGO_TARGET_TMPDIR")).join("evaltally-cache"))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let listed = json(&ok(&url, &["runs", "--format", "json", "--limit", "0"]));
    assert_eq!(listed["found"], 20, "{listed}");
    let exported = ok(&url, &["export", "store:all"]);
    assert_eq!(exported.stdout.lines().count(), 20 * 5, "every test of every run");
}

#[test]
fn a_wrong_password_and_an_unreachable_server_say_so_in_one_line() {
    let Some(url) = fresh_database("auth") else { return };
    let wrong = if url.contains(":evaltally-ci-secret@") {
        url.replace(":evaltally-ci-secret@", ":not-the-password@")
    } else {
        // A server without passwords (trust): nothing to check.
        return;
    };
    let run = with_store(&wrong, &["runs"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("authentication failed"), "{}", run.stderr);
    assert!(!run.stderr.contains("not-the-password") && run.stderr.contains(":***@"), "{}", run.stderr);

    let down = with_store("postgres://ci:hunter2@127.0.0.1:1/evals", &["push", "testdata/gstack/evals"]);
    assert_eq!(down.code, 2, "{}", down.transcript());
    assert_eq!(down.stderr.lines().count(), 1, "{}", down.stderr);
    assert!(down.stderr.contains("cannot reach the server"), "{}", down.stderr);
    assert!(!down.stderr.contains("hunter2"), "{}", down.stderr);
}

#[test]
fn the_password_can_come_from_pgpass() {
    let Some(url) = fresh_database("pgpass") else { return };
    let Some((before, after)) = url.split_once(":evaltally-ci-secret@") else { return };
    let bare = format!("{before}@{after}");
    let authority = after.split('/').next().unwrap();
    let (host, port) = authority.split_once(':').unwrap();
    let db = after.split('/').nth(1).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let pgpass = tmp.path().join("pgpass");
    std::fs::write(&pgpass, format!("# test\nelsewhere:*:*:*:nope\n{host}:{port}:{db}:*:evaltally-ci-secret\n"))
        .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let env = [("EVALTALLY_STORE", bare.as_str()), ("PGPASSFILE", pgpass.to_str().unwrap())];
    let run = evaltally_in(&workspace_root(), &["runs"], &env);
    assert_eq!(run.code, 0, "{}", run.transcript());
    // A password file others can read is ignored, as libpq ignores it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o644)).unwrap();
        let run = evaltally_in(&workspace_root(), &["runs"], &env);
        assert_eq!(run.code, 2, "{}", run.transcript());
    }
}

/// The runs a store lists, each as (run, model, passed, scored), sorted.
fn summaries(url: &str) -> Vec<(String, String, i64, i64)> {
    let listed = json(&ok(url, &["runs", "--format", "json", "--limit", "0"]));
    let mut out: Vec<_> = listed["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["run"].as_str().unwrap().to_string(),
                r["model"].as_str().unwrap().to_string(),
                r["passed"].as_i64().unwrap(),
                r["scored"].as_i64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_push_killed_half_way_leaves_no_partial_run() {
    let Some(reference) = fresh_database("killed_reference") else { return };
    ok(&reference, &["push", "testdata/bfcl/v4"]);
    let complete = summaries(&reference);
    for delay_ms in [0, 30, 80, 150, 300] {
        let Some(url) = fresh_database("killed") else { return };
        // Migrate first, so the kill falls in the push itself.
        ok(&url, &["runs"]);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_evaltally"))
            .args(["--no-cache", "push", "testdata/bfcl/v4"])
            .current_dir(workspace_root())
            .env("EVALTALLY_STORE", &url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let stored = summaries(&url);
        // All of the push or none of it, never some runs or some results.
        assert!(stored.is_empty() || stored == complete, "after {delay_ms} ms: {stored:?}");
    }
}

#[test]
fn sslmode_require_and_verify_full_over_real_tls() {
    use evaltally_store::testing::{test_ca, with_host_and_params};
    let Some(url) = fresh_database("tls_cli") else { return };
    let Some(ca) = test_ca("tls_cli") else { return };
    let ca = ca.to_str().unwrap();
    // require: push, list and analyse over TLS (the library's test checks pg_stat_ssl).
    let require = with_host_and_params(&url, None, "sslmode=require");
    ok(&require, &["push", BFCL[0]]);
    let listed = json(&ok(&require, &["runs", "--format", "json"]));
    assert_eq!(listed["found"], 1, "{listed}");
    let files = json(&ok(&require, &["stability", BFCL[0], "--format", "json"]));
    assert_eq!(json(&ok(&require, &["stability", "store:all", "--format", "json"])), files);
    // verify-full with the server's CA and a name its certificate holds.
    let full = with_host_and_params(
        &url,
        Some("localhost"),
        &format!("hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert={ca}"),
    );
    assert_eq!(json(&ok(&full, &["stability", "store:all", "--format", "json"])), files);
    // disable: plain, still fine.
    ok(&with_host_and_params(&url, None, "sslmode=disable"), &["runs"]);

    let refused = |store: &str, says: &str| {
        let run = with_store(store, &["runs"]);
        assert_eq!(run.code, 2, "{}", run.transcript());
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert!(!run.stderr.contains("evaltally-ci-secret") && run.stderr.contains(":***@"), "{}", run.stderr);
    };
    // The certificate names localhost, not 127.0.0.1.
    refused(&with_host_and_params(&url, None, &format!("sslmode=verify-full&sslrootcert={ca}")), "not valid for name");
    // Without the CA (the system's roots do not hold it).
    let no_ca =
        with_host_and_params(&url, Some("localhost"), "hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert=system");
    refused(&no_ca, "not signed by a CA in the system's store");
    let run = evaltally_in(
        &workspace_root(),
        &["runs"],
        &[
            (
                "EVALTALLY_STORE",
                with_host_and_params(&url, Some("localhost"), "hostaddr=127.0.0.1&sslmode=verify-full").as_str(),
            ),
            ("PGSSLROOTCERT", "/nonexistent/root.crt"),
        ],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.contains("sslrootcert `/nonexistent/root.crt`"), "{}", run.stderr);
}

/// `$ evaltally ARGS` and what it printed, for snapshots of the store's outputs (the URL,
/// which names a fresh database, shown as `[STORE]`).
fn transcript(url: &str, runs: &[(&str, &Run)]) -> String {
    let shown = evaltally_store::shown_url(url);
    runs.iter()
        .map(|(what, r)| format!("$ evaltally {what}\n{}", r.transcript().replace(&shown, "[STORE]")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn show_summary_and_validate_read_runs_of_the_postgres_store() {
    let Some(url) = fresh_database("show_summary_validate") else { return };
    for p in BFCL {
        ok(&url, &["push", p]);
    }
    // show: the same outcomes, errors, tokens and latency as the files give.
    let outcomes = |doc: &serde_json::Value| -> Vec<(String, String, String, String)> {
        doc["runs"]
            .as_array()
            .unwrap_or_else(|| panic!("{doc}"))
            .iter()
            .map(|r| {
                let s = |k: &str| r[k].as_str().map_or_else(|| r[k].to_string(), String::from);
                (s("run"), s("status"), s("error_type"), s("input_tokens"))
            })
            .collect()
    };
    let from_files = json(&ok(&url, &[&["show"][..], &BFCL, &["multi_turn_base_1", "--format", "json"]].concat()));
    let from_store = json(&ok(&url, &["show", "store:all", "multi_turn_base_1", "--format", "json"]));
    assert_eq!(outcomes(&from_store), outcomes(&from_files));
    let show = ok(&url, &["show", "store:all", "multi_turn_base_1"]);
    let show_big = ok(&url, &["show", "store:all", "simple_python_1", "--model", "acme_big-70b", "--run", "run-2"]);
    let missing = with_store(&url, &["show", "store:all", "no_such_test"]);
    assert_eq!(missing.code, 2, "{}", missing.transcript());
    // summary: recomputed from the stored rows.
    let summary = ok(&url, &["summary", "store:name=run-1"]);
    let summary_json = json(&ok(&url, &["summary", "store:name=run-1", "--format", "json"]));
    evaltally_testkit::schema::assert_valid(&summary_json, "summary store:name=run-1 --format json");
    let files = json(&ok(&url, &["stability", BFCL[0], "--format", "json", "--model", "acme_tiny-7b"]));
    let overall = &files["models"][0]["overall"];
    let counts = &summary_json["runs"][0]["counts"];
    assert_eq!(counts["passed"], overall["stable_pass"], "{summary_json}");
    assert_eq!(counts["tests"], overall["total"], "{summary_json}");
    // validate: what is stored holds together; then broken by hand, it does not.
    let valid = ok(&url, &["validate", "store:name=run-1", "store:name=run-2"]);
    evaltally_store::testing::execute(
        &url,
        // The schema refuses unknown statuses; validate still checks, should it be dropped.
        "ALTER TABLE results DROP CONSTRAINT results_status_check;
         UPDATE results SET status = 'maybe' WHERE run_id = 1 AND position = 0;
             INSERT INTO results (run_id, position, model, category, test, status)
                 SELECT run_id, 1000, model, category, test, status FROM results WHERE run_id = 1 AND position = 1;
             UPDATE run_categories SET scored = false WHERE run_id = 1 AND category = 'live_simple';
             UPDATE results SET input_tokens = -5 WHERE run_id = 1 AND position = 2;
             DELETE FROM results WHERE run_id = 3;",
    )
    .unwrap();
    let invalid = with_store(&url, &["validate", "store:name=run-1", "store:name=run-2"]);
    assert_eq!(invalid.code, 1, "{}", invalid.transcript());
    let invalid_json = json(&with_store(&url, &["validate", "store:name=run-1", "--format", "json"]));
    assert_eq!(invalid_json["files"][0]["valid"], false, "{invalid_json}");
    // A stored run with an unknown status cannot be shown or analysed: a clear error.
    let unknown = with_store(&url, &["stability", "store:name=run-1"]);
    assert_eq!(unknown.code, 1, "{}", unknown.transcript());
    assert!(unknown.stderr.contains("unknown status"), "{}", unknown.stderr);
    insta::assert_snapshot!(transcript(
        &url,
        &[
            ("show store:all multi_turn_base_1", &show),
            ("show store:all simple_python_1 --model acme_big-70b --run run-2", &show_big),
            ("show store:all no_such_test", &missing),
            ("summary store:name=run-1", &summary),
            ("validate store:name=run-1 store:name=run-2", &valid),
            ("validate store:name=run-1 store:name=run-2  # after breaking them by hand", &invalid),
        ]
    ));
}

/// `serve store:all` over the team store: a run pushed while it serves is heard
/// (`LISTEN`), appears in the page's summary, and the store's URL is in no answer.
#[test]
fn a_push_while_serving_the_store_appears() {
    let Some(url) = fresh_database("serve_push") else { return };
    ok(&url, &["push", BFCL[0]]);
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let server = evaltally_testkit::http::Serving::start(
        Path::new(env!("CARGO_BIN_EXE_evaltally")),
        &workspace_root(),
        &["store:all"],
        &[("EVALTALLY_STORE", url.as_str()), ("EVALTALLY_CACHE", cache.to_str().unwrap())],
    );
    assert!(server.wait_line("load 1:", std::time::Duration::from_mins(1)).is_some());
    let before = server.get("/api/summary?model=acme_tiny-7b").json();
    assert_eq!(before["runs"]["total"], 1, "{before}");
    ok(&url, &["push", BFCL[1]]);
    let heard = server.wait_line("load 2:", std::time::Duration::from_mins(1));
    assert!(heard.is_some(), "the push was not heard");
    let after = server.get("/api/summary?model=acme_tiny-7b").json();
    assert_eq!(after["runs"]["total"], 2, "{after}");
    let stored = json(&ok(&url, &["stability", "store:all", "--format", "json", "--model", "acme_tiny-7b"]));
    assert_eq!(after["overall"]["flaky"], stored["models"][0]["overall"]["flaky"]);
    for target in ["/api/summary", "/api/heatmap?model=acme_tiny-7b", "/api/test?model=acme_tiny-7b&id=simple_python_2"]
    {
        let body = server.get(target).body;
        assert!(!body.contains("evaltally-ci-secret") && !body.contains("postgres://"), "{target}: {body}");
    }
}

/// An evaluation that always writes its run to the same folder name stores runs of one name:
/// they stay runs of their own, named after their commits, not one run with averaged counts.
#[test]
fn runs_stored_under_one_name_stay_apart() {
    let Some(url) = fresh_database("one_name") else { return };
    let copies = tempfile::tempdir().unwrap();
    for (i, run) in BFCL.iter().enumerate() {
        let dir = copies.path().join(format!("job-{i}")).join("run-1");
        evaltally_testkit::copy_folder(&workspace_root().join(run), &dir);
        let sha = format!("{i}{i}{i}{i}{i}{i}{i}0");
        ok(&url, &["push", dir.to_str().unwrap(), "--branch", "main", "--commit", &sha]);
    }
    let doc = json(&ok(&url, &["stability", "store:branch=main", "--model", "acme_tiny-7b", "--format", "json"]));
    let mut runs: Vec<&str> =
        doc["models"][0]["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    runs.sort_unstable();
    assert_eq!(runs, ["run-1@0000000", "run-1@1111111", "run-1@2222222"]);
    // The same three runs as the folders give, not one.
    let folders =
        json(&ok(&url, &["stability", BFCL[0], BFCL[1], BFCL[2], "--model", "acme_tiny-7b", "--format", "json"]));
    assert_eq!(doc["models"][0]["overall"], folders["models"][0]["overall"]);
}
