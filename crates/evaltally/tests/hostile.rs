//! Text from input files cannot steer the terminal or break a layout: every output of
//! every command over `testdata/hostile/` (gstack results, JUnit reports as jest-junit
//! writes them, SF-Bench reports, every string field holding ANSI and OSC escape sequences,
//! raw line breaks, bidirectional overrides and C1 controls), read from a folder whose own
//! name holds them too. Text and Markdown carry no control character but the layout's line
//! breaks; JSON carries the exact strings.

mod common;

use std::path::Path;

use common::{Run, evaltally_in};
use evaltally_core::text::is_unsafe;
use evaltally_testkit::testdata;
use serde_json::Value;

const SGR: &str = "\x1b[31m";
const OSC: &str = "\x1b]0;title\x07";
const CLS: &str = "\x1b[2J";

/// The folder the fixtures are copied into: its name holds an escape sequence and a line
/// break, so every path printed does too.
const DIR: &str = "in\x1b[31m\x1b]0;pwned\x07\nput";

/// Strings the fixtures hold in one field or another, exactly.
fn gstack_strings() -> Vec<String> {
    vec![
        format!("claude-sonnet{OSC}-4-6"),
        format!("auth{SGR}|red"),
        format!("commerce\r\n{OSC}"),
        format!("login-flow{CLS}"),
        "checkout\n\rflow".to_string(),
        "search\u{202e}evil".to_string(),
        format!("nightly{OSC}-1{CLS}"),
        format!("nightly{OSC}-2{CLS}"),
    ]
}

fn junit_strings() -> Vec<String> {
    vec![
        format!("jest tests{OSC} run-1"),
        format!("__tests__\\weather.test.js{SGR}"),
        format!("acme{CLS}-7b"),
        format!("forecast\n{SGR}red\x1b[39m\r"),
    ]
}

fn sfbench_strings() -> Vec<String> {
    vec![
        format!("acme/sf{SGR}-model"),
        format!("acme{OSC}-run-1{CLS}"),
        format!("lwc-component{CLS}-001"),
        format!("apex|trigger{OSC}-002"),
        "flow\u{202e}-003".to_string(),
    ]
}

/// Copies `testdata/hostile` into a temporary folder as `DIR`.
fn setup() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else if e.file_name() != "README.md" {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    copy(&testdata("hostile"), &tmp.path().join(DIR));
    tmp
}

fn at(path: &str) -> String {
    format!("{DIR}/{path}")
}

/// Panics when `text` holds a control character (or a bidirectional override, a C1
/// control, a line separator) other than a line break.
fn assert_printable(what: &str, text: &str) {
    if let Some((i, c)) = text.char_indices().find(|&(_, c)| is_unsafe(c) && c != '\n') {
        let from = text[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
        panic!("{what}: {c:?} at byte {i}, after {:?}", &text[from..i]);
    }
}

/// Every string in a JSON document (keys included).
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                strings(x, out);
            }
        }
        _ => {}
    }
}

/// Panics unless `text` is JSON (or JSON Lines, with `lines`) holding every string of
/// `want` exactly, as a whole string or inside one.
fn assert_exact(what: &str, text: &str, want: &[String], lines: bool) {
    let docs: Vec<Value> = if lines {
        text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}: {l}"))).collect()
    } else {
        vec![serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"))]
    };
    let mut all = Vec::new();
    for d in &docs {
        strings(d, &mut all);
    }
    for w in want {
        assert!(all.iter().any(|s| s.contains(w.as_str())), "{what}: {w:?} is not in the JSON exactly");
    }
}

/// Runs `args` in `dir`; its stderr, and its stdout unless `json`, must be printable.
fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = evaltally_in(dir, args, env);
    let what = format!("{args:?}");
    assert!(matches!(out.code, 0..=2), "{what}: exit {}\n{}", out.code, out.stderr);
    assert!(!out.stderr.contains("panicked"), "{what}: {}", out.stderr);
    assert_printable(&format!("{what} stderr"), &out.stderr);
    // JSON, JSON Lines and the documents `convert` writes are data: exact, not escaped.
    let data = args.windows(2).any(|w| w == ["--format", "json"]) || matches!(args[0], "export" | "convert");
    if !data {
        assert_printable(&format!("{what} stdout"), &out.stdout);
    }
    out
}

/// Transcripts of several runs, for one snapshot.
fn transcripts(runs: &[(&[&str], &Run)]) -> String {
    runs.iter()
        .map(|(args, r)| format!("$ evaltally {}\n{}", args.join(" ").replace(DIR, "$DIR"), r.transcript()))
        .collect::<Vec<_>>()
        .join("\n")
        // Keep the snapshot file itself free of control characters: a reviewer reads it in
        // a terminal too. `assert_printable` has checked the outputs already.
        .replace('\x1b', "<ESC>")
        .replace('\x07', "<BEL>")
}

#[test]
fn stability_in_every_format() {
    let tmp = setup();
    let dir = tmp.path();
    let (g, j, s) = (at("gstack"), at("junit"), at("sfbench"));
    let base = ["stability", g.as_str(), j.as_str(), s.as_str(), "--top-flaky", "5"];
    let text = run(dir, &base, &[]);
    let md = run(dir, &[&base[..], &["--format", "markdown"]].concat(), &[]);
    let json = run(dir, &[&base[..], &["--format", "json"]].concat(), &[]);
    for r in [&text, &md, &json] {
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let all: Vec<String> = [gstack_strings(), junit_strings(), sfbench_strings()].concat();
    assert_exact("stability --format json", &json.stdout, &all, false);
    // A `|` in a category cannot end a Markdown table cell.
    assert!(md.stdout.contains("| auth\\\\u{1b}[31m\\|red | 2 |"), "{}", md.stdout);
    insta::assert_snapshot!(transcripts(&[(&base, &text), (&["… --format markdown"], &md)]));

    // `--out`: the id files are JSON, exact.
    let out = run(dir, &["stability", g.as_str(), "--out", "ids"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let flaky = std::fs::read_to_string(dir.join("ids/flaky_tests.json")).unwrap();
    assert_exact("flaky_tests.json", &flaky, &[format!("auth{SGR}|red"), format!("login-flow{CLS}")], false);
}

#[test]
fn compare_in_every_format() {
    let tmp = setup();
    let dir = tmp.path();
    let mut shown = Vec::new();
    // Model, runs, a category and the regressions (compare lists changed tests only).
    let pairs = [
        (
            "gstack/nightly-1.json",
            "gstack/nightly-2.json",
            [0, 1, 3, 5, 6, 7].map(|i| gstack_strings()[i].clone()).to_vec(),
        ),
        ("junit/jest-run-1.xml", "junit/jest-run-2.xml", junit_strings()),
        ("sfbench/run-1", "sfbench/run-2", sfbench_strings()[..3].to_vec()),
    ];
    let args: Vec<Vec<String>> = pairs
        .iter()
        .flat_map(|(a, b, _)| {
            ["text", "markdown"]
                .map(|f| ["compare", &at(a), &at(b), "--format", f].map(String::from).to_vec())
                .into_iter()
        })
        .collect();
    for a in &args {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let r = run(dir, &a, &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        shown.push((a, r));
    }
    for (a, b, want) in &pairs {
        let json = run(dir, &["compare", &at(a), &at(b), "--format", "json"], &[]);
        assert_eq!(json.code, 0, "{}", json.stderr);
        assert_exact("compare --format json", &json.stdout, want, false);
    }
    // Two groups (the same two runs on each side): group names list their runs.
    let (one, two) = (at("gstack/nightly-1.json"), at("gstack/nightly-2.json"));
    let groups = run(dir, &["compare", "--base", &one, &two, "--new", &two, &one], &[]);
    assert_eq!(groups.code, 0, "{}", groups.stderr);
    let mut views: Vec<(&[&str], &Run)> = shown.iter().map(|(a, r)| (a.as_slice(), r)).collect();
    views.push((
        &["compare", "--base", "…/nightly-1.json", "…/nightly-2.json", "--new", "…/nightly-2.json", "…/nightly-1.json"],
        &groups,
    ));
    insta::assert_snapshot!(transcripts(&views));
}

#[test]
fn show_in_every_format() {
    let tmp = setup();
    let dir = tmp.path();
    let cases = [
        (at("gstack"), format!("login-flow{CLS}"), gstack_strings()),
        (at("gstack"), "checkout\n\rflow".to_string(), gstack_strings()),
        (at("junit"), format!("forecast\n{SGR}red\x1b[39m\r"), junit_strings()),
        (at("sfbench"), format!("lwc-component{CLS}-001"), sfbench_strings()),
    ];
    let mut shown = Vec::new();
    for (path, id, want) in &cases {
        let text = run(dir, &["show", path, id], &[]);
        assert_eq!(text.code, 0, "{}", text.stderr);
        let json = run(dir, &["show", path, id, "--format", "json"], &[]);
        assert_eq!(json.code, 0, "{}", json.stderr);
        // The id, and the model or run the fixture names first.
        assert_exact("show --format json", &json.stdout, &[id.clone(), want[0].clone()], false);
        shown.push((["show", path.as_str(), id.as_str()], text));
    }
    // The error message keeps its own line breaks as an indented block; the rest is escaped.
    let (_, checkout) = &shown[1];
    assert!(
        checkout.stdout.contains("  error: Timed out\\u{1b}[2J\n    waiting\\r for payment"),
        "{}",
        checkout.stdout
    );
    // Not found: the id in the message is escaped too.
    let missing = run(dir, &["show", &at("gstack"), "nope\x1b[2J"], &[]);
    assert_eq!(missing.code, 2);
    let views: Vec<(&[&str], &Run)> =
        shown.iter().map(|(a, r)| (&a[..], r)).chain([(&["show", "…", "nope<ESC>[2J"][..], &missing)]).collect();
    insta::assert_snapshot!(transcripts(&views));
}

#[test]
fn validate_and_summary_in_every_format() {
    let tmp = setup();
    let dir = tmp.path();
    let paths = [at("gstack"), at("junit"), at("sfbench")];
    let mut args = vec!["validate", "--strict"];
    args.extend(paths.iter().map(String::as_str));
    let text = run(dir, &args, &[]);
    assert_eq!(text.code, 1, "warnings, with --strict: {}", text.stderr);
    let json = run(dir, &[&args[..], &["--format", "json"]].concat(), &[]);
    assert_exact("validate --format json", &json.stdout, &[at("gstack/nightly-1.json")], false);

    let report = at("sfbench/run-1/report.json");
    let summary: Vec<Run> = ["text", "markdown"].map(|f| run(dir, &["summary", &report, "--format", f], &[])).into();
    for r in &summary {
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let summary_json = run(dir, &["summary", &report, "--format", "json"], &[]);
    assert_exact("summary --format json", &summary_json.stdout, &[report.clone(), "flow\u{202e}-003".into()], false);
    insta::assert_snapshot!(transcripts(&[
        (&args, &text),
        (&["summary", "…/report.json"], &summary[0]),
        (&["summary", "…/report.json", "--format", "markdown"], &summary[1]),
    ]));
}

#[test]
fn export_convert_push_and_runs() {
    let tmp = setup();
    let dir = tmp.path();
    let export = run(dir, &["export", &at("gstack"), &at("junit"), &at("sfbench")], &[]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let all: Vec<String> = [gstack_strings(), junit_strings(), sfbench_strings()].concat();
    assert_exact("export", &export.stdout, &all, true);

    // convert prints the document on stdout (JSON: exact) and what had no counterpart on
    // stderr (checked printable by `run`).
    let input = at("gstack/nightly-1.json");
    let mut notes = Vec::new();
    for to in ["gstack", "gstack-legacy", "sfbench-v2", "swebench", "junit"] {
        let r = run(dir, &["convert", &input, "--to", to], &[]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        notes.push(format!("--to {to}\n{}", r.stderr));
        if to == "junit" {
            // XML 1.0 cannot hold most control characters at all: the JUnit writer's
            // business, checked in evaltally-junit.
            continue;
        }
        assert_exact(
            &format!("convert --to {to}"),
            &r.stdout,
            &[format!("login-flow{CLS}"), "checkout\n\rflow".into()],
            false,
        );
    }

    let store = dir.join("store");
    let env = [("EVALTALLY_STORE", store.to_str().unwrap())];
    let push = run(dir, &["push", &at("gstack"), &at("junit"), &at("sfbench/run-1")], &env);
    // The raw escape sequences make the JUnit reports ill-formed XML 1.0: not pushed, and
    // said; the others are.
    assert_eq!(push.code, 1, "{}", push.stderr);
    assert!(push.stderr.contains("/junit: not pushed, invalid:"), "{}", push.stderr);
    let runs = run(dir, &["runs"], &env);
    let runs_json = run(dir, &["runs", "--format", "json"], &env);
    let doc: Value = serde_json::from_str(&runs_json.stdout).unwrap();
    let sources: Vec<&str> = doc["entries"].as_array().unwrap().iter().map(|e| e["source"].as_str().unwrap()).collect();
    assert!(sources.contains(&at("gstack").as_str()), "{sources:?}");
    let stored = run(dir, &["stability", "store:gstack", "--format", "json"], &env);
    assert_exact("stability store:gstack", &stored.stdout, &gstack_strings(), false);
    let runs = Run { stdout: runs.stdout.replace(store.to_str().unwrap(), "[STORE]"), ..runs };
    insta::assert_snapshot!(format!(
        "{}\n=== convert, stderr\n{}",
        transcripts(&[(&["push", "…"], &push), (&["runs"], &runs)]),
        notes.join("\n").replace('\x1b', "<ESC>").replace('\x07', "<BEL>")
    ));
}

/// A real jest-junit report (`../shared/refdata`), as it reads when jest's matcher messages
/// keep their colours: jest colours them unless told not to, and jest-junit writes the escape
/// sequences into the XML as they are.
#[test]
fn a_real_jest_report_with_its_colours() {
    let Some(real) = evaltally_testkit::refdata("gstack/dorny-test-reporter/jest-junit.xml") else { return };
    let plain = std::fs::read_to_string(real).unwrap();
    let expect = "\x1b[2mexpect(\x1b[22m\x1b[31mreceived\x1b[39m\x1b[2m).\x1b[22mtoBeTruthy\x1b[2m()\x1b[22m";
    let coloured = plain
        .replace("Error: expect(received).toBeTruthy()", &format!("Error: {expect}"))
        .replace("Received: false", "Received: \x1b[31mfalse\x1b[39m");
    assert_ne!(coloured, plain, "the report's failure text changed; update the test");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("jest-junit.xml"), &coloured).unwrap();
    let dir = tmp.path();
    for args in [&["stability", "jest-junit.xml"][..], &["stability", "jest-junit.xml", "--format", "markdown"]] {
        let r = run(dir, args, &[]);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    // Read as written, the escapes make the file ill-formed XML 1.0: `validate` says so.
    let checked = run(dir, &["validate", "jest-junit.xml"], &[]);
    assert_eq!(checked.code, 1, "{}", checked.stdout);
    assert!(
        checked.stdout.contains("which XML 1.0 does not allow") && checked.stdout.contains("not well-formed XML 1.0")
    );
    let show = run(dir, &["show", "jest-junit.xml", "Failing test"], &[]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    assert!(show.stdout.contains("  error: Error: \\u{1b}[2mexpect(\\u{1b}[22m"), "{}", show.stdout);
    assert!(show.stdout.contains("\n    Received: \\u{1b}[31mfalse\\u{1b}[39m\n"), "{}", show.stdout);
    let json = run(dir, &["show", "jest-junit.xml", "Failing test", "--format", "json"], &[]);
    assert_exact("show --format json", &json.stdout, &[format!("Error: {expect}")], false);
}

/// A name longer than a format width can be (65,535: a model named by a 70,000-character
/// string) runs past its column in every text table; no command fails on it.
#[test]
fn names_longer_than_a_column_can_be_are_printed_whole() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = testdata("lmeval");
    let long = "m".repeat(70_000);
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let text = if path.extension().is_some_and(|e| e == "json") { text.replace("acme-7b", &long) } else { text };
        std::fs::write(dir.path().join(path.file_name().unwrap()), text).unwrap();
    }
    let first = "samples_arith_2026-01-01T00-00-00.000000.jsonl";
    let second = "samples_arith_2026-01-02T00-00-00.000000.jsonl";
    for args in [
        &["stability", "."][..],
        &["show", ".", "1"],
        &["trend", "."],
        &["plan", "."],
        &["cost", "."],
        &["compare", first, second],
    ] {
        let out = run(dir.path(), args, &[]);
        assert!(out.code == 0 && !out.stderr.contains("panicked"), "{args:?}: {}\n{}", out.code, out.stderr);
        assert!(out.stdout.contains(&long), "{args:?}: the name is printed whole");
    }
}

/// A test or suite named like a CI runner's workflow command (`::error …`, `::add-mask::…`)
/// never starts a line of the output, where GitHub's runner would obey it.
#[test]
fn names_never_start_a_workflow_command() {
    let dir = tempfile::tempdir().unwrap();
    for (run, failed) in [("run-1", ""), ("run-2", "<failure message=\"no\"/>")] {
        std::fs::create_dir_all(dir.path().join(run)).unwrap();
        let xml = format!(
            "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"::add-mask::suite\" tests=\"2\">\n\
             <testcase classname=\"c\" name=\"::error title=Build passed::forged\">{failed}</testcase>\n\
             <testcase classname=\"c\" name=\"::stop-commands::tok\"></testcase>\n</testsuite></testsuites>\n"
        );
        std::fs::write(dir.path().join(run).join("report.xml"), xml).unwrap();
    }
    let root = dir.path().to_str().unwrap();
    let (one, two) = (format!("{root}/run-1"), format!("{root}/run-2"));
    for args in [vec!["stability", root], vec!["compare", &one, &two], vec!["stability", root, "--format", "markdown"]]
    {
        let run = common::evaltally(&args);
        let commands: Vec<&str> =
            run.stdout.lines().chain(run.stderr.lines()).filter(|l| l.trim_start().starts_with("::")).collect();
        assert!(commands.is_empty(), "{args:?}: {commands:?}\n{}", run.stdout);
        assert!(run.stdout.contains("add-mask::suite"), "{}", run.stdout);
    }
}
