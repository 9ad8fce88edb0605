//! `evaltally report`: the HTML page's embedded data (snapshots), what the page may load
//! (nothing), how text from files is kept text, the Markdown summary, and where it refuses to
//! write. The page's script runs in a real browser in `browser.rs`.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{compact_json, evaltally, evaltally_in, report_data};
use evaltally_testkit::{testdata, workspace_root};
use serde_json::Value;

/// Runs `evaltally report ARGS -o <tmp>/report.html` in the workspace root; the page and the
/// run.
fn report(args: &[&str]) -> (String, common::Run, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report.html");
    let out_arg = out.to_string_lossy().into_owned();
    let run = evaltally(&[&["report"], args, &["-o", out_arg.as_str()]].concat());
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    let html = std::fs::read_to_string(&out).unwrap();
    (html, run, tmp)
}

#[test]
fn data_of_bfcl_v4() {
    let (html, run, _tmp) = report(&["testdata/bfcl/v4"]);
    assert!(run.stdout.starts_with("wrote "), "{}", run.stdout);
    // Distinct tests: acme_big-70b's 4 are among acme_tiny-7b's 29.
    assert!(run.stdout.ends_with("): 2 models, 29 tests, up to 3 runs\n"), "{}", run.stdout);
    insta::assert_snapshot!(compact_json(&report_data(&html)));
}

#[test]
fn data_of_a_comparison() {
    let (html, _run, _tmp) = report(&["--base", "testdata/bfcl/v4/run-1", "--new", "testdata/bfcl/v4/run-2"]);
    let data = report_data(&html);
    // Without PATHs the heatmap shows both sides.
    let runs: Vec<&str> =
        data["models"][1]["runs"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(runs, ["run-1", "run-2"]);
    insta::assert_snapshot!(compact_json(&data));
}

/// Under the class table the page says which tests it judged on fewer runs than list them
/// and which no run scored, with the counts `stability` gives: the classes never hide them.
#[test]
fn tests_not_judged_everywhere_are_said() {
    let mut all = Vec::new();
    // `quirks` holds broken lines: the page is written, the exit code says so.
    for (fixture, code) in [("testdata/bfcl/quirks", 1), ("testdata/bfcl/v4", 0)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("report.html");
        let run = evaltally(&["report", fixture, "-o", out.to_str().unwrap()]);
        assert_eq!(run.code, code, "{}", run.stderr);
        let data = report_data(&std::fs::read_to_string(&out).unwrap());
        let stability: Value =
            serde_json::from_str(&evaltally(&["stability", fixture, "--format", "json"]).stdout).unwrap();
        for m in stability["models"].as_array().unwrap() {
            let page = data["models"].as_array().unwrap().iter().find(|p| p["model"] == m["model"]).unwrap();
            let lines: Vec<String> = page["unjudged"]
                .as_array()
                .map(|v| v.iter().map(|l| l.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            let o = &m["overall"];
            let n = |k: &str| o[k].as_u64().unwrap_or(0);
            let (errored, with_errors, with_unscored) = (n("errored"), n("with_errors"), n("with_unscored"));
            let unscored: u64 =
                m["categories"].as_array().unwrap().iter().map(|c| c["unscored_tests"].as_u64().unwrap_or(0)).sum();
            let mut want = Vec::new();
            // Those errored in most runs first, then those judged on the runs that did not error.
            if with_errors > 0 {
                want.push(format!("{} test", if errored > 0 { errored } else { with_errors }));
            }
            if with_unscored > 0 {
                want.push(format!("{with_unscored} test"));
            }
            if unscored > 0 {
                want.push(format!("{unscored} test"));
            }
            assert_eq!(lines.len(), want.len(), "{fixture}: {lines:?}");
            for (line, start) in lines.iter().zip(&want) {
                assert!(line.starts_with(start.as_str()), "{fixture}: {line:?} should start {start:?}");
            }
            assert_eq!(page["overall"]["with_errors"].as_u64().unwrap_or(0), with_errors);
            all.extend(lines);
        }
    }
    // The fixtures have each kind: tests errored in most runs, errored in some and judged on
    // the rest, scored in no run.
    for kind in ["in no other class", "judged on the rest", "not scored in any run ("] {
        assert!(all.iter().any(|l| l.contains(kind)), "no {kind:?} in {all:?}");
    }
}

/// The heatmap's rows and cells against `export`, which reads the same runs another way:
/// every (model, category, test) a row, one outcome character per run in the right column,
/// and the details of every cell that did not pass.
#[test]
fn heatmap_cells_are_the_runs_outcomes() {
    let (html, _run, _tmp) = report(&["testdata/bfcl/v4"]);
    let data = report_data(&html);
    let export = evaltally(&["export", "testdata/bfcl/v4"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let mut want: BTreeMap<(String, String, String), BTreeMap<String, Value>> = BTreeMap::new();
    for line in export.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let key = (
            v["model"].as_str().unwrap().to_string(),
            v["category"].as_str().unwrap().to_string(),
            v["id"].as_str().unwrap().to_string(),
        );
        want.entry(key).or_default().insert(v["run"].as_str().unwrap().to_string(), v);
    }
    let mut seen = BTreeSet::new();
    for m in data["models"].as_array().unwrap() {
        let model = m["model"].as_str().unwrap();
        let runs: Vec<&str> = m["runs"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
        for t in m["tests"].as_array().unwrap() {
            let category = m["categories"][index(&t["c"])]["category"].as_str().unwrap();
            let key = (model.to_string(), category.to_string(), t["id"].as_str().unwrap().to_string());
            let by_run = &want[&key];
            let outcomes = t["o"].as_str().unwrap();
            assert_eq!(outcomes.len(), runs.len(), "{key:?}");
            for (col, (run, cell)) in runs.iter().zip(outcomes.chars()).enumerate() {
                let expected = match by_run.get(*run).map(|v| v["outcome"].as_str().unwrap_or("")) {
                    None => '-',
                    Some("pass") => 'P',
                    Some("fail") => 'F',
                    Some("errored") => 'E',
                    Some("unscored") => 'U',
                    Some(other) => panic!("{other}"),
                };
                assert_eq!(cell, expected, "{key:?} in {run}");
                let detail = t["d"].as_array().and_then(|d| d.iter().find(|d| d[0] == col));
                if matches!(cell, 'F' | 'E') {
                    let d = detail.unwrap_or_else(|| panic!("{key:?} in {run}: no details"));
                    let record = &by_run[*run];
                    let error_type = (!d[1].is_null()).then(|| m["error_types"][index(&d[1])].as_str().unwrap());
                    assert_eq!(error_type, record["error_type"].as_str(), "{key:?} in {run}");
                    let message = (!d[2].is_null()).then(|| m["messages"][index(&d[2])].as_str().unwrap());
                    assert_eq!(message, record["error_message"].as_str().map(str::trim), "{key:?} in {run}");
                    assert_eq!(d[3], record["input_tokens"], "{key:?} in {run}");
                    assert_eq!(d[5].as_f64(), record["duration_ms"].as_f64(), "{key:?} in {run}");
                } else {
                    assert!(detail.is_none(), "{key:?} in {run}: a passed cell has details");
                }
            }
            seen.insert(key);
        }
    }
    assert_eq!(seen.len(), want.len(), "every test of the runs is a row");
}

/// Rows: flaky tests first, then stable fails, stable passes, then what no run judged;
/// within each, by category, then natural id order.
#[test]
fn rows_are_flaky_first_then_failing_then_passing() {
    let (html, _run, _tmp) = report(&["testdata/bfcl/v4"]);
    let data = report_data(&html);
    let rank = |s: &str| ["flaky", "fail", "pass", "none"].iter().position(|x| *x == s).unwrap();
    for m in data["models"].as_array().unwrap() {
        let keys: Vec<(usize, u64)> = m["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (rank(t["s"].as_str().unwrap()), t["c"].as_u64().unwrap()))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        assert_eq!(m["tests"][0]["s"], "flaky");
    }
}

/// Runs with timestamps: columns in time order and the pass rate per category per run.
#[test]
fn timed_runs_get_their_trend() {
    let (html, _run, _tmp) = report(&["testdata/gstack/standard"]);
    let data = report_data(&html);
    let m = &data["models"][0];
    assert_eq!(m["timed"], true);
    let runs: Vec<&str> = m["runs"].as_array().unwrap().iter().map(|r| r["timestamp"].as_str().unwrap()).collect();
    assert_eq!(runs, ["2026-03-16T02:00:00Z", "2026-03-17T02:00:00Z"]);
    // As `trend` shows them: login-flow ✓✓, password-reset ✓✗ (auth); checkout-flow ✗✓
    // (commerce); product-search ✓✗ (search).
    let trend: Vec<(Value, Value)> =
        m["trend"].as_array().unwrap().iter().map(|s| (s["category"].clone(), s["rates"].clone())).collect();
    assert_eq!(
        trend,
        [
            (Value::Null, serde_json::json!([0.75, 0.5])),
            ("auth".into(), serde_json::json!([1.0, 0.5])),
            ("commerce".into(), serde_json::json!([0.0, 1.0])),
            ("search".into(), serde_json::json!([1.0, 0.0])),
        ]
    );
    // BFCL folders record no time: no trend.
    let (html, _run, _tmp) = report(&["testdata/bfcl/v4"]);
    assert!(report_data(&html)["models"][0].get("trend").is_none());
}

/// The page loads nothing: no URL of any scheme, no `src`, `href` or `url(`, no way to
/// fetch, and a Content-Security-Policy that forbids all of it anyway.
#[test]
fn the_page_loads_nothing() {
    for args in [
        &["testdata/bfcl/v4"][..],
        &["--base", "testdata/bfcl/v4/run-1", "--new", "testdata/bfcl/v4/run-2"],
        &["testdata/gstack/standard", "testdata/junit"],
    ] {
        let (html, _run, _tmp) = report(args);
        let lower = html.to_lowercase();
        for needle in [
            "http:",
            "https:",
            "//cdn",
            "ftp:",
            "file:",
            "data:text",
            "src=",
            "href=",
            "url(",
            "@import",
            "<link",
            "<iframe",
            "<img",
            "<object",
            "<embed",
            "fetch(",
            "xmlhttprequest",
            "websocket",
            "eventsource",
            "import(",
            "sendbeacon",
            "innerhtml",
            "outerhtml",
            "insertadjacenthtml",
            "document.write",
            "eval(",
        ] {
            assert!(!lower.contains(needle), "{args:?}: the page holds {needle:?}");
        }
        assert!(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"));
        assert_eq!(html.matches("<script").count(), 2, "{args:?}: one data element, one script");
    }
}

/// Names and messages that try to close the data element or open markup stay text: the
/// page holds exactly its own two `</script>`, the data holds each string as `printable`
/// shows it (control characters escaped), and the file no control character at all.
#[test]
fn text_from_files_stays_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let junit = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="a report">
  <properties><property name="run" value="evil&lt;/script&gt;&lt;!--"/></properties>
  <testsuite name="cat&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" tests="2" failures="1" timestamp="2026-01-02T03:04:05">
    <testcase classname="x" name="&lt;/SCRIPT&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;" time="1.5"><failure message="m">boom &lt;/script&gt; &#x9b;31m &#x202e;rtl postgres://u:secret@db/x</failure></testcase>
    <testcase classname="x" name="ok" time="0.1"/>
  </testsuite>
</testsuites>
"#;
    std::fs::write(dir.join("run-1.xml"), junit).unwrap();
    let hostile = testdata("hostile");
    let (h, out) = (hostile.to_string_lossy().into_owned(), tmp.path().join("r.html"));
    let run = evaltally_in(
        &workspace_root(),
        &["report", dir.to_str().unwrap(), h.as_str(), "-o", out.to_str().unwrap()],
        &[],
    );
    assert!(run.code <= 1, "{}", run.stderr);
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(html.to_lowercase().matches("</script").count(), 2);
    assert!(!html.contains("<!--"));
    if let Some(c) = html.chars().find(|&c| evaltally_core::text::is_unsafe(c) && c != '\n') {
        panic!("the page holds {c:?}");
    }
    let data = report_data(&html);
    let text = data.to_string();
    let unknown =
        data["models"].as_array().unwrap().iter().find(|m| m["runs"][0]["name"] == "evil</script><!--").unwrap();
    let ids: Vec<&str> = unknown["tests"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"</SCRIPT><img src=x onerror=alert(1)>&amp;"), "{ids:?}");
    assert_eq!(unknown["messages"][0], "boom </script> \\u{9b}31m \\u{202e}rtl postgres://u:***@db/x");
    assert_eq!(unknown["categories"][0]["category"], "cat</script><script>alert(1)</script>");
    // The hostile fixtures' escape sequences arrive escaped.
    assert!(text.contains("login-flow\\\\u{1b}[2J"), "{text}");
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn markdown_summary_links_to_the_page() {
    let (_html, run, _tmp) = report(&[
        "testdata/bfcl/v4",
        "--base",
        "testdata/bfcl/v4/run-1",
        "--new",
        "testdata/bfcl/v4/run-2",
        "--format",
        "markdown",
        "--link",
        "reports/bfcl (nightly).html",
    ]);
    assert!(run.stdout.contains("[Open the report](reports/bfcl%20%28nightly%29.html)"), "{}", run.stdout);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn refuses_to_write_where_it_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    evaltally_testkit::copy_folder(&testdata("bfcl/v4/run-1"), &runs.join("run-1"));
    let out = runs.join("report.html");
    let run = evaltally(&["report", runs.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("a folder this command reads"), "{}", run.stderr);
    assert!(!out.exists());
    // -o is required.
    let run = evaltally(&["report", "testdata/bfcl/v4"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// The file is replaced whole (temporary file, then rename): no temporary file is left.
#[test]
fn replaces_the_file_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report.html");
    std::fs::write(&out, "old").unwrap();
    for _ in 0..2 {
        let run = evaltally(&["report", "testdata/bfcl/v4", "-o", out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<!doctype html>"));
    let names: Vec<String> =
        std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["report.html"]);
}

/// A JSON number used as an index.
fn index(v: &Value) -> usize {
    usize::try_from(v.as_u64().unwrap()).unwrap()
}
