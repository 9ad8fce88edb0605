//! Where evaltally writes: a store given as a URL is never a folder name (and its password is
//! never printed, whether the URL is refused or the server cannot be used), a store that is a file is refused, `push` copies nothing a link leads to
//! outside the run, outputs never replace or sit among the files a command reads, replaced
//! outputs keep their permissions, and damaged inputs show in the exit code.

mod common;

use std::path::Path;

use common::{Run, evaltally_in};
use evaltally_testkit::{testdata, workspace_root};

/// Transcripts for one snapshot, with the temporary folder's path (as given and resolved)
/// replaced.
fn transcripts(tmp: &Path, runs: &[(&str, &Run)]) -> String {
    let real = tmp.canonicalize().unwrap();
    let (tmp, real) = (tmp.to_str().unwrap(), real.to_str().unwrap());
    runs.iter()
        .map(|(what, r)| format!("$ {what}\n{}", r.transcript().replace(real, "[TMP]").replace(tmp, "[TMP]")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_store_url_never_becomes_a_folder_and_its_password_is_never_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Nothing listens on port 1 of loopback: the server cannot be reached (over TLS or not).
    let url = "postgres://evals:s3cret@127.0.0.1:1/evaltally?sslmode=require";
    let flag = evaltally_in(dir, &["--store", url, "runs"], &[]);
    let env = evaltally_in(dir, &["push", "run"], &[("EVALTALLY_STORE", url)]);
    let query = evaltally_in(
        dir,
        &["stability", "store:run-1"],
        // Nothing listens on port 1: the server cannot be reached.
        &[("EVALTALLY_STORE", "postgresql://127.0.0.1:1/evaltally?user=evals&password=s3cret")],
    );
    let other = evaltally_in(dir, &["--store", "s3://bucket/evals", "runs", "--format", "json"], &[]);
    for r in [&flag, &env, &query, &other] {
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(!r.stderr.contains("s3cret"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
    assert!(flag.stderr.contains("postgres://evals:***@127.0.0.1:1/evaltally?sslmode=require"), "{}", flag.stderr);
    // Nothing was created: not `postgres:/…` as a folder, not anything else.
    assert_eq!(std::fs::read_dir(dir).unwrap().count(), 0);
    insta::assert_snapshot!(transcripts(
        dir,
        &[
            ("evaltally --store postgres://evals:s3cret@… runs", &flag),
            ("EVALTALLY_STORE=postgres://evals:s3cret@… evaltally push run", &env),
            ("EVALTALLY_STORE=postgresql://…&password=s3cret evaltally stability store:run-1", &query),
            ("evaltally --store s3://bucket/evals runs --format json", &other),
        ]
    ));
}

#[test]
fn a_store_that_is_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("store"), "not a folder\n").unwrap();
    let runs = evaltally_in(dir, &["--store", "store", "runs"], &[]);
    let push = evaltally_in(
        &workspace_root(),
        &["push", "testdata/gstack/standard"],
        &[("EVALTALLY_STORE", dir.join("store").to_str().unwrap())],
    );
    for r in [&runs, &push] {
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("is not a folder"), "{}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(dir.join("store")).unwrap(), "not a folder\n");
    // A store folder not created yet is an empty store.
    let fresh = evaltally_in(dir, &["--store", "fresh", "runs"], &[]);
    assert_eq!((fresh.code, fresh.stdout.as_str()), (0, "fresh (0 entries)\n"));
    insta::assert_snapshot!(transcripts(
        dir,
        &[("evaltally --store store runs", &runs), ("EVALTALLY_STORE=[TMP]/store evaltally push …", &push)]
    ));
}

#[cfg(unix)]
#[test]
fn push_copies_nothing_a_link_leads_to_outside_the_run() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    for name in ["nightly-1.json", "nightly-2.json"] {
        std::fs::copy(testdata("gstack/standard").join(name), run.join(name)).unwrap();
    }
    // Outside the run: a gstack result (read and copied, were the link followed) and a
    // private file.
    std::fs::copy(testdata("gstack/standard/nightly-1.json"), dir.join("outside/other-run.json")).unwrap();
    std::fs::write(dir.join("outside/id_rsa"), "PRIVATE KEY\n").unwrap();
    symlink("../outside", run.join("more")).unwrap();
    symlink(dir.join("outside/id_rsa"), run.join("key.json")).unwrap();
    // Inside the run: followed, and its file kept once.
    std::fs::create_dir_all(run.join("sub")).unwrap();
    symlink("../nightly-2.json", run.join("sub/latest.json")).unwrap();

    let store = dir.join("store");
    let env = [("EVALTALLY_STORE", store.to_str().unwrap())];
    let push = evaltally_in(dir, &["push", "run"], &env);
    assert_eq!(push.code, 0, "{}", push.stderr);
    for link in ["run/more: warning: link to", "run/key.json: warning: link to"] {
        assert!(push.stderr.contains(link), "{}", push.stderr);
    }
    let outside = dir.canonicalize().unwrap().join("outside");
    assert!(push.stderr.contains(&format!("{}, outside run; not followed", outside.display())), "{}", push.stderr);
    let mut copied: Vec<String> = Vec::new();
    let mut todo = vec![store.join("run")];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            assert!(!e.file_type().unwrap().is_symlink(), "a link in the store: {}", e.path().display());
            if e.file_type().unwrap().is_dir() {
                todo.push(e.path());
            } else {
                copied.push(e.path().strip_prefix(store.join("run")).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    copied.sort();
    assert_eq!(copied, [".evaltally-entry.json", "run/nightly-1.json", "run/nightly-2.json"]);
    let runs = evaltally_in(dir, &["stability", "store:run", "--format", "json"], &env);
    let doc: serde_json::Value = serde_json::from_str(&runs.stdout).unwrap();
    assert_eq!(doc["models"][0]["runs"].as_array().unwrap().len(), 2, "{}", runs.stdout);
    // The entry's own file is no result file left unread.
    assert!(!runs.stderr.contains("not read"), "{}", runs.stderr);
    insta::assert_snapshot!(transcripts(dir, &[("evaltally push run", &push)]));
}

#[cfg(unix)]
#[test]
fn outputs_never_replace_or_sit_among_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    for name in ["nightly-1.json", "nightly-2.json"] {
        std::fs::copy(testdata("gstack/standard").join(name), runs.join(name)).unwrap();
    }
    std::fs::copy(testdata("gstack/standard/nightly-1.json"), dir.join("one.json")).unwrap();
    std::os::unix::fs::symlink("runs/nightly-2.json", dir.join("link.json")).unwrap();
    std::fs::hard_link(runs.join("nightly-1.json"), dir.join("hard.json")).unwrap();
    let before = |p: &str| std::fs::read(dir.join(p)).unwrap();
    let (one, n1, n2) = (before("one.json"), before("runs/nightly-1.json"), before("runs/nightly-2.json"));

    let cases: [(&str, &[&str]); 6] = [
        ("convert over its input", &["convert", "one.json", "--to", "gstack", "-o", "one.json"]),
        ("convert over its input, named another way", &["convert", "one.json", "--to", "junit", "-o", "./one.json"]),
        ("export over a file of the folder read", &["export", "runs", "-o", "runs/nightly-2.json"]),
        ("export through a link to an input", &["export", "runs", "-o", "link.json"]),
        ("export over a hard link to an input", &["export", "runs", "-o", "hard.json"]),
        ("stability --out into the folder read", &["stability", "runs", "--out", "runs/ids"]),
    ];
    let mut shown = Vec::new();
    for (what, args) in cases {
        let r = evaltally_in(dir, args, &[]);
        assert_eq!(r.code, 2, "{what}: {}", r.stderr);
        assert!(r.stderr.starts_with("error: refusing to write "), "{what}: {}", r.stderr);
        shown.push((format!("{what}: evaltally {}", args.join(" ")), r));
    }
    assert_eq!(before("one.json"), one);
    assert_eq!(before("runs/nightly-1.json"), n1);
    assert_eq!(before("runs/nightly-2.json"), n2);
    assert!(!runs.join("ids").exists());
    // Beside the inputs, not among them: written.
    let ok = evaltally_in(dir, &["export", "runs", "-o", "runs.jsonl"], &[]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let views: Vec<(&str, &Run)> = shown.iter().map(|(w, r)| (w.as_str(), r)).collect();
    insta::assert_snapshot!(transcripts(dir, &views));
}

#[cfg(unix)]
#[test]
fn a_replaced_output_keeps_its_permissions_and_a_new_one_gets_the_umasks() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // What any program's new file gets here (0666 less the umask, which the test inherits).
    std::fs::write(dir.join("probe"), "").unwrap();
    let default = mode(&dir.join("probe"));
    let root = workspace_root();
    let input = root.join("testdata/gstack/standard/nightly-1.json");
    let input = input.to_str().unwrap();

    let new = dir.join("new.json");
    let r = evaltally_in(dir, &["convert", input, "--to", "gstack", "-o", "new.json"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(mode(&new), default, "a new output gets the umask's mode, not the temporary file's 0600");

    for kept in [0o644, 0o640, 0o600, 0o755] {
        let out = dir.join(format!("out-{kept:o}.json"));
        std::fs::write(&out, "old\n").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(kept)).unwrap();
        let r = evaltally_in(dir, &["export", input, "-o", out.to_str().unwrap()], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_ne!(std::fs::read_to_string(&out).unwrap(), "old\n");
        assert_eq!(mode(&out), kept, "export -o over a {kept:o} file");
    }
    // `stability --out` writes through the same helper.
    std::fs::create_dir_all(dir.join("ids")).unwrap();
    std::fs::write(dir.join("ids/flaky_tests.json"), "{}\n").unwrap();
    std::fs::set_permissions(dir.join("ids/flaky_tests.json"), std::fs::Permissions::from_mode(0o664)).unwrap();
    let r = evaltally_in(dir, &["stability", input, "--out", "ids"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(mode(&dir.join("ids/flaky_tests.json")), 0o664);
    assert_eq!(mode(&dir.join("ids/stable_tests.json")), default);
    // No temporary file left behind.
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(".evaltally-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn damaged_inputs_show_in_the_exit_code() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // One BFCL run with a line cut short in a result file.
    let run = dir.join("run-2");
    let mut todo = vec![testdata("bfcl/v4/run-2")];
    let base = testdata("bfcl/v4/run-2");
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let target = run.join(e.path().strip_prefix(&base).unwrap());
            if e.file_type().unwrap().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                todo.push(e.path());
            } else {
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::copy(e.path(), &target).unwrap();
            }
        }
    }
    let damaged = run.join("result/acme_tiny-7b/live/BFCL_v4_live_simple_result.json");
    let text = std::fs::read_to_string(&damaged).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let cut = lines[1][..lines[1].len() / 2].to_string();
    lines[1] = &cut;
    std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();

    let convert =
        evaltally_in(dir, &["convert", "run-2", "--model", "acme_tiny-7b", "--to", "gstack", "-o", "out.json"], &[]);
    assert_eq!(convert.code, 1, "an input had errors: {}", convert.stderr);
    assert!(dir.join("out.json").is_file(), "what could be read is still converted");
    let export = evaltally_in(dir, &["export", "run-2", "-o", "out.jsonl"], &[]);
    assert_eq!(export.code, 1, "{}", export.stderr);
    let store = dir.join("store");
    let push = evaltally_in(dir, &["push", "run-2"], &[("EVALTALLY_STORE", store.to_str().unwrap())]);
    assert_eq!(push.code, 1, "{}", push.stderr);
    assert!(!store.join("run-2").exists(), "a damaged run is not pushed");
    // Undamaged: 0.
    let clean = evaltally_in(
        &workspace_root(),
        &[
            "convert",
            "testdata/bfcl/v4/run-2",
            "--model",
            "acme_tiny-7b",
            "--to",
            "gstack",
            "-o",
            dir.join("clean.json").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    insta::assert_snapshot!(transcripts(
        dir,
        &[
            ("evaltally convert run-2 --model acme_tiny-7b --to gstack -o out.json", &convert),
            ("evaltally push run-2", &push)
        ]
    ));
}
