//! `evaltally serve` in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs), driven over the `DevTools` protocol with `chromiumoxide`, used as a
//! person would: open the page, pick a category, click a heatmap cell and read the test in
//! every run, compare the latest run with the one before, and watch a run copied into the
//! served folder appear without a reload. A screenshot of the heatmap must show its
//! colours; with `EVALTALLY_SCREENSHOT=FILE` it is also written there (the README's).
//!
//! Without Chromium the test skips with a notice, except under `CI=true`, where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::layout::Point;
use chromiumoxide::page::{Page, ScreenshotParams};
use common::evaltally;
use evaltally_testkit::copy_folder;
use evaltally_testkit::http::Serving;
use futures_util::StreamExt;
use serde_json::Value;

const MODEL: &str = "acme_tiny-7b";

fn json_of(args: &[&str]) -> Value {
    let run = evaltally(args);
    assert_eq!(run.code, 0, "{}", run.transcript());
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

async fn eval<T: serde::de::DeserializeOwned>(page: &Page, js: &str) -> T {
    page.evaluate(js).await.unwrap_or_else(|e| panic!("{js}: {e}")).into_value().unwrap_or_else(|e| panic!("{js}: {e}"))
}

/// Waits until the page says it drew what its URL asks for (`data-ready="1"`) and the
/// check holds, at most a minute; what the check gave last.
async fn until(page: &Page, check: &str) -> Value {
    let start = Instant::now();
    let js = format!("document.body.dataset.ready === '1' && ({check})");
    let wrapped = format!(
        "(() => {{ try {{ const v = {js}; return JSON.stringify(v === undefined || v === null ? false : v); }} catch (e) {{ return 'false'; }} }})()"
    );
    loop {
        let text: String = eval(page, &wrapped).await;
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Bool(false));
        if v != Value::Bool(false) && !v.is_null() {
            return v;
        }
        if start.elapsed() > Duration::from_mins(1) {
            let state: Value = eval(page, "({url: location.href, ready: document.body.dataset.ready, banner: document.getElementById('banner').textContent})").await;
            panic!("the page never showed {check}: {state}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click(page: &Page, selector: &str) {
    page.find_element(selector).await.unwrap_or_else(|e| panic!("{selector}: {e}")).click().await.unwrap();
}

/// Picks `value` in the `<select>` `selector` as a person does: the choice, then its change.
async fn choose(page: &Page, selector: &str, value: &str) {
    let js = format!(
        "(() => {{ const s = document.querySelector({selector:?}); s.value = {value:?}; s.dispatchEvent(new Event('change')); return s.value; }})()"
    );
    let chosen: String = eval(page, &js).await;
    assert_eq!(chosen, value);
}

#[test]
fn the_page_in_chromium_filters_drills_down_compares_and_goes_live() {
    let Some(chrome) = evaltally_testkit::chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let served = tmp.path().join("runs");
    for run in ["run-1", "run-2"] {
        copy_folder(&evaltally_testkit::testdata(&format!("bfcl/v4/{run}")), &served.join(run));
    }
    let path = served.to_str().unwrap().to_string();
    let cache = tmp.path().join("cache");
    // Served as `runs`, relative to the folder the server runs in, as a user types it.
    let server = Serving::start(
        Path::new(env!("CARGO_BIN_EXE_evaltally")),
        tmp.path(),
        &["runs"],
        &[("EVALTALLY_CACHE", cache.to_str().unwrap())],
    );
    assert!(server.wait_line("load 1:", Duration::from_mins(1)).is_some());

    let stability = json_of(&["--no-cache", "stability", &path, "--format", "json", "--model", MODEL]);
    let categories: Vec<String> = stability["models"][0]["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["category"].as_str().unwrap().to_string())
        .collect();
    let run1 = served.join("run-1");
    let run2 = served.join("run-2");
    let compared =
        json_of(&["--no-cache", "compare", run1.to_str().unwrap(), run2.to_str().unwrap(), "--format", "json"]);
    let regressed: Vec<String> =
        compared["models"].as_array().unwrap().iter().find(|m| m["model"] == MODEL).unwrap()["categories"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["regressions"].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_string()))
            .collect();

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let shot = runtime.block_on(async {
        let config = BrowserConfig::builder()
            .chrome_executable(&chrome)
            .no_sandbox()
            .window_size(1400, 1000)
            // The window's size, not an emulated 800 × 600.
            .viewport(None)
            .user_data_dir(tmp.path().join("profile"))
            // Its singleton socket in `$TMPDIR/org.chromium.Chromium.*` goes with the folder.
            .env("TMPDIR", tmp.path().to_string_lossy())
            .args(["--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars", "--no-first-run", "--disable-extensions"])
            .launch_timeout(Duration::from_mins(1))
            .request_timeout(Duration::from_mins(1))
            .build()
            .unwrap();
        let (mut browser, mut handler) = Browser::launch(config).await.expect("chromium starts");
        let driving = tokio::spawn(async move { while let Some(Ok(())) = handler.next().await {} });
        let page = browser.new_page(format!("{}?model={MODEL}", server.url)).await.unwrap();

        // The overview lists the categories `stability` finds.
        until(&page, "document.querySelectorAll('#ov-categories tbody tr').length > 0").await;
        let shown: Vec<String> =
            eval(&page, "Array.from(document.querySelectorAll('#ov-categories tbody tr td:first-child')).map(e => e.textContent)").await;
        assert_eq!(shown, categories);
        let opened: f64 = eval(&page, "window.evaltallyOpenedAt").await;

        // A category picked, then the Tests tab: the URL holds both, and every row is of it.
        choose(&page, "#f-category", "simple_python").await;
        until(&page, "location.search.includes('category=simple_python')").await;
        click(&page, "#tabs a[data-tab=tests]").await;
        until(&page, "location.search.includes('tab=tests') && document.querySelectorAll('#ts-table tbody tr').length > 0").await;
        let rows: Vec<String> =
            eval(&page, "Array.from(document.querySelectorAll('#ts-table tbody tr td:nth-child(2)')).map(e => e.textContent)").await;
        let want = stability["models"][0]["categories"].as_array().unwrap().iter().find(|c| c["category"] == "simple_python").unwrap();
        assert_eq!(rows.len() as u64, want["total"].as_u64().unwrap());
        assert!(rows.iter().all(|c| c == "simple_python"), "{rows:?}");

        // The heatmap: a failed cell of the first row clicked on the canvas shows its error,
        // and the button beside opens the test in every run, the prompt and the answer.
        click(&page, "#tabs a[data-tab=heatmap]").await;
        until(&page, "document.getElementById('hm-caption').textContent.length > 0").await;
        let window = server.get(&format!("/api/heatmap?model={MODEL}&category=simple_python&rows=1000")).json();
        let (row, col) = window["rows"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .find_map(|(i, r)| r["o"].as_str().unwrap().find('F').map(|c| (i, c)))
            .expect("a failed cell");
        let id = window["rows"][row]["id"].as_str().unwrap().to_string();
        let run = window["columns"][col]["name"].as_str().unwrap().to_string();
        let rect: Value = eval(&page, "(() => { const r = document.getElementById('hm-canvas').getBoundingClientRect(); return {x: r.left, y: r.top}; })()").await;
        let point = Point {
            x: rect["x"].as_f64().unwrap() + 260.0 + 14.0 * col as f64 + 7.0,
            y: rect["y"].as_f64().unwrap() + 110.0 + 18.0 * row as f64 + 9.0,
        };
        page.click(point).await.unwrap();
        let title: String = serde_json::from_value(until(&page, "document.querySelector('#hm-detail h3') && document.querySelector('#hm-detail h3').textContent").await).unwrap();
        assert_eq!(title, id);
        let detail: String = eval(&page, "document.getElementById('hm-detail').textContent").await;
        assert!(detail.contains("failed") && detail.contains(&run), "{detail}");
        let heatmap_png = page.screenshot(ScreenshotParams::builder().build()).await.unwrap();
        click(&page, "#hm-detail button").await;
        until(&page, "location.search.includes('tab=test') && document.querySelectorAll('#te-runs .run').length > 0").await;
        let focused: String = eval(&page, "document.querySelector('#te-runs .run.focus').dataset.run").await;
        assert_eq!(focused, run);
        let transcript: String = eval(&page, "document.getElementById('te-runs').textContent").await;
        let shown = json_of(&["show", &path, &id, "--format", "json"]);
        let here = shown["runs"].as_array().unwrap().iter().find(|r| r["run"] == run.as_str() && r["model"] == MODEL).unwrap();
        let prompt = here["question"][0][0]["content"].as_str().unwrap();
        assert!(transcript.contains(prompt), "the prompt {prompt:?} is not in {transcript}");
        assert!(transcript.contains(here["error_message"].as_str().unwrap()), "{transcript}");

        // The latest run against the one before: the regressions `compare` finds.
        click(&page, "#tabs a[data-tab=compare]").await;
        until(&page, "document.getElementById('cmp-latest') !== null").await;
        click(&page, "#cmp-latest").await;
        until(&page, "location.search.includes('base=run-1') && document.getElementById('cmp-out').textContent.includes('pts')").await;
        let listed: Vec<String> = eval(&page, "Array.from(document.querySelectorAll('#cmp-regressions li a')).map(e => e.textContent)").await;
        let mut want = regressed.clone();
        want.sort();
        let mut got = listed.clone();
        got.sort();
        assert_eq!(got, want);

        // A run copied into the folder appears without a reload.
        click(&page, "#tabs a[data-tab=overview]").await;
        until(&page, "document.querySelectorAll('#ov-categories tbody tr').length > 0").await;
        copy_folder(&evaltally_testkit::testdata("bfcl/v4/run-10"), &served.join("run-10"));
        let option = format!("document.querySelector('#f-model').selectedOptions[0].textContent === '{MODEL} (3 runs)'");
        until(&page, &option).await;
        let still: f64 = eval(&page, "window.evaltallyOpenedAt").await;
        assert!((still - opened).abs() < f64::EPSILON, "the page was reloaded");

        // The screenshot for the README: the heatmap with a cell's details.
        let png = heatmap_png;
        browser.close().await.unwrap();
        let _ = driving.await;
        png
    });
    check_colours(&shot);
    if let Some(to) = std::env::var_os("EVALTALLY_SCREENSHOT") {
        std::fs::write(PathBuf::from(to), &shot).unwrap();
    }
}

/// The screenshot shows the heatmap's passed (blue) and failed (vermilion) cells.
fn check_colours(png_bytes: &[u8]) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let has = |rgb: [u8; 3]| buf.chunks(channels).any(|p| p[..3].iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 6));
    assert!(has([0x56, 0xb4, 0xe9]), "no passed cell in the screenshot");
    assert!(has([0xd5, 0x5e, 0x00]), "no failed cell in the screenshot");
}
