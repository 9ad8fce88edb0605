//! The HTML report in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs) loads the page, its script draws the heatmap and, asked by the
//! `#selftest=ROW,COL` fragment, clicks a cell and writes what it found into the page, which
//! `--dump-dom` hands back; a screenshot shows the heatmap's colours.
//!
//! Without Chromium the tests skip with a notice, except under `CI=true`, where they fail.
//! `EVALTALLY_CHROMIUM` names another binary.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{evaltally, report_data};
use evaltally_testkit::chromium;
use serde_json::Value;

/// Runs headless Chromium on `url` with `extra` options and a fresh profile; its stdout.
fn headless(bin: &Path, extra: &[String], url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        // Chromium keeps its singleton socket in `$TMPDIR/org.chromium.Chromium.*`, left
        // behind when it is killed: inside the profile, it goes with it.
        .env("TMPDIR", profile.path())
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_mins(2) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 120 s: {}", errors.join().unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = reader.join().unwrap();
    assert!(status.success(), "chromium failed: {status}\n{}", errors.join().unwrap_or_default());
    out
}

fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            url.push(char::from(b));
        } else {
            let _ = write!(url, "%{b:02X}");
        }
    }
    url
}

/// What the page's self test wrote into `<pre id="selftest">`, from a dumped DOM.
fn selftest(dom: &str) -> Value {
    let open = dom.find("<pre id=\"selftest\"").unwrap_or_else(|| panic!("no #selftest in the DOM:\n{dom}"));
    let start = open + dom[open..].find('>').unwrap() + 1;
    let end = start + dom[start..].find("</pre>").unwrap();
    let text =
        dom[start..end].replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", "\u{a0}").replace("&amp;", "&");
    assert!(!text.is_empty(), "the page's script did not finish: #selftest is empty");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Writes `evaltally report ARGS` into `dir`; the page's path and data.
fn report(dir: &Path, args: &[&str]) -> (PathBuf, Value) {
    let out = dir.join("report.html");
    let run = evaltally(&[&["report"], args, &["-o", out.to_str().unwrap()]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = report_data(&std::fs::read_to_string(&out).unwrap());
    (out, data)
}

#[test]
fn heatmap_of_bfcl_v4_in_chromium() {
    let Some(bin) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (page, data) = report(tmp.path(), &["testdata/bfcl/v4"]);

    // Expected from `export`, which reads the runs another way: per model, its tests × runs.
    let export = evaltally(&["export", "testdata/bfcl/v4"]);
    let mut tests: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    let mut runs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut messages: BTreeMap<(String, String, String), Value> = BTreeMap::new();
    for line in export.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let s = |k: &str| v[k].as_str().unwrap().to_string();
        tests.entry(s("model")).or_default().insert((s("category"), s("id")));
        runs.entry(s("model")).or_default().insert(s("run"));
        messages.insert((s("model"), s("run"), s("id")), v.clone());
    }
    let cells: usize = tests.iter().map(|(m, t)| t.len() * runs[m].len()).sum();

    // The first row of the first model is a flaky test; click its first failed cell.
    let model = &data["models"][0];
    let first = &model["tests"][0];
    assert_eq!(first["s"], "flaky");
    let col = first["o"].as_str().unwrap().find('F').expect("a flaky test failed somewhere");
    let url = format!("{}#selftest=0,{col}", file_url(&page));
    let dom = headless(&bin, &["--dump-dom".to_string(), "--virtual-time-budget=5000".to_string()], &url);
    let found = selftest(&dom);
    assert_eq!(found["cells"], cells, "{found}");
    for m in found["models"].as_array().unwrap() {
        let name = m["model"].as_str().unwrap();
        assert_eq!(
            (m["tests"].as_u64(), m["runs"].as_u64()),
            (Some(tests[name].len() as u64), Some(runs[name].len() as u64))
        );
    }
    let (model_name, run) = (model["model"].as_str().unwrap(), model["runs"][col]["name"].as_str().unwrap());
    let id = first["id"].as_str().unwrap();
    assert_eq!(found["clicked"], serde_json::json!({"test": id, "status": "flaky", "run": run, "outcome": "failed"}));
    let record = &messages[&(model_name.to_string(), run.to_string(), id.to_string())];
    let detail = found["detail"].as_str().unwrap();
    for want in
        [id, run, "failed", record["error_type"].as_str().unwrap(), record["error_message"].as_str().unwrap(), "flaky"]
    {
        assert!(detail.contains(want), "the detail of {id} in {run} lacks {want:?}:\n{detail}");
    }

    // The filters, in the browser: the clicked test's category, then a search for its id.
    let category = first["c"].clone();
    let in_category = model["tests"].as_array().unwrap().iter().filter(|t| t["c"] == category).count();
    assert_eq!(found["category"]["rows"], in_category, "{found}");
    let matching = model["tests"].as_array().unwrap().iter().filter(|t| t["id"].as_str().unwrap().contains(id)).count();
    assert_eq!(found["search"], serde_json::json!({"text": id, "rows": matching}));

    // A screenshot: the heatmap's passed and failed colours are there, the page is not blank.
    let shot = tmp.path().join("shot.png");
    headless(
        &bin,
        &[format!("--screenshot={}", shot.display()), "--window-size=1400,1000".to_string()],
        &file_url(&page),
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (1400, 1000));
    let channels = info.color_type.samples();
    assert!(channels >= 3, "{:?}", info.color_type);
    let mut colours: BTreeMap<[u8; 3], usize> = BTreeMap::new();
    for px in buf[..info.buffer_size()].chunks(channels) {
        *colours.entry([px[0], px[1], px[2]]).or_default() += 1;
    }
    assert!(colours.len() > 50, "the screenshot has {} colours: blank?", colours.len());
    let passed = colours.get(&[0x56, 0xb4, 0xe9]).copied().unwrap_or(0);
    let failed = colours.get(&[0xd5, 0x5e, 0x00]).copied().unwrap_or(0);
    assert!(passed > 500 && failed > 200, "heatmap colours: {passed} passed, {failed} failed pixels");
}

/// The tests the classes leave out (errored in some runs, scored in none) are drawn under
/// the category table, as the data lists them; a model without any shows none.
#[test]
fn unjudged_tests_are_said_in_chromium() {
    let Some(bin) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    // The fixture holds broken lines: the page is written, the exit code says so.
    let page = tmp.path().join("report.html");
    let run = evaltally(&["report", "testdata/bfcl/quirks", "-o", page.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let data = report_data(&std::fs::read_to_string(&page).unwrap());
    let url = format!("{}#selftest=0,0", file_url(&page));
    let dom = headless(&bin, &["--dump-dom".to_string(), "--virtual-time-budget=5000".to_string()], &url);
    let found = selftest(&dom);
    let mut drawn = 0;
    for (m, shown) in data["models"].as_array().unwrap().iter().zip(found["models"].as_array().unwrap()) {
        assert_eq!(m["model"], shown["model"]);
        let lines: Vec<&str> =
            m["unjudged"].as_array().map(|v| v.iter().map(|l| l.as_str().unwrap()).collect()).unwrap_or_default();
        let text = shown["unjudged"].as_str().unwrap();
        assert_eq!(text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>(), lines, "{found}");
        drawn += lines.len();
    }
    assert!(drawn >= 2, "{found}");
}

/// Timed runs and a comparison: the trend and compare views are drawn, and the script runs
/// to its end (an exception would leave `#selftest` empty).
#[test]
fn trend_and_compare_in_chromium() {
    let Some(bin) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let (page, _data) = report(
        tmp.path(),
        &[
            "testdata/gstack/standard",
            "--base",
            "testdata/gstack/standard/nightly-1.json",
            "--new",
            "testdata/gstack/standard/nightly-2.json",
        ],
    );
    let url = format!("{}#selftest=0,1", file_url(&page));
    let dom = headless(&bin, &["--dump-dom".to_string(), "--virtual-time-budget=5000".to_string()], &url);
    let found = selftest(&dom);
    assert_eq!(found["cells"], 8, "{found}");
    assert!(dom.contains("<section id=\"trend-section\" aria-labelledby=\"trend-h\">"), "the trend is hidden");
    assert!(dom.contains("<section id=\"compare-section\" aria-labelledby=\"compare-h\">"), "the comparison is hidden");
    // One chart for all categories and one per category (auth, commerce, search).
    assert_eq!(dom.matches("class=\"chart").count(), 4);
    assert!(dom.contains("exact McNemar"));
}
