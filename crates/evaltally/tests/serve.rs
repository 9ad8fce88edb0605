//! `evaltally serve` over HTTP: every endpoint against what the commands print for the same
//! runs, a run landing while it serves, and requests it must refuse (a path that climbs out
//! of it, another host, a body, a missing token).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::evaltally;
use evaltally_testkit::copy_folder;
use evaltally_testkit::http::{Events, Serving, request};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_evaltally");
const MODEL: &str = "acme_tiny-7b";

fn bin() -> &'static Path {
    Path::new(BIN)
}

/// A copy of `testdata/bfcl/v4` without run-10, which a test adds while serving. The
/// copies are let settle: the digest cache stores no reading of a file changed in the last
/// 100 ms (file times have the clock tick's granularity), and a test of what is read again
/// wants the first load's readings stored.
fn two_runs(tmp: &Path) -> PathBuf {
    let served = tmp.join("runs");
    for run in ["run-1", "run-2"] {
        copy_folder(&evaltally_testkit::testdata(&format!("bfcl/v4/{run}")), &served.join(run));
    }
    std::thread::sleep(Duration::from_millis(250));
    served
}

/// A private cache for the server, so tests do not share one.
fn cache(tmp: &Path) -> String {
    tmp.join("cache").to_string_lossy().into_owned()
}

/// A JSON view's answer, checked against its schema in `docs/schema/`.
fn api(server: &Serving, target: &str) -> Value {
    let doc = server.get(target).json();
    evaltally_testkit::schema::assert_valid(&doc, target);
    doc
}

fn json_of(args: &[&str]) -> Value {
    let run = evaltally(args);
    assert_eq!(run.code, 0, "{}", run.transcript());
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

/// Per (model, run, id): the outcome `export` gives, as the heatmap's letter, and the message.
fn exported(paths: &[&str]) -> BTreeMap<(String, String, String), (char, Option<String>)> {
    let run = evaltally(&[&["export"], paths].concat());
    assert_eq!(run.code, 0, "{}", run.transcript());
    run.stdout
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            let letter = match v["outcome"].as_str() {
                Some("pass") => 'P',
                Some("fail") => 'F',
                Some("errored") => 'E',
                _ => 'U',
            };
            ((s("model"), s("run"), s("id")), (letter, v["error_message"].as_str().map(str::to_string)))
        })
        .collect()
}

#[test]
fn every_view_answers_what_the_commands_print() {
    let tmp = tempfile::tempdir().unwrap();
    let served = two_runs(tmp.path());
    let path = served.to_str().unwrap();
    let server = Serving::start(bin(), tmp.path(), &[path], &[("EVALTALLY_CACHE", &cache(tmp.path()))]);
    assert!(server.url.starts_with("http://127.0.0.1:"), "{}", server.url);
    assert!(server.wait_line("load 1:", Duration::from_mins(1)).is_some());

    // The page and its three files, under a policy that lets it load nothing else.
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").unwrap().starts_with("text/html"));
    assert!(page.header("content-security-policy").unwrap().contains("default-src 'none'"));
    assert!(page.body.contains(
        r#"<script src="/common.js" defer></script>
<script src="/app.js""#
    ));
    for script in ["/common.js", "/app.js"] {
        assert!(server.get(script).header("content-type").unwrap().starts_with("text/javascript"));
    }
    assert!(server.get("/app.css").header("content-type").unwrap().starts_with("text/css"));

    // The summary: the models and, for one, the categories `stability` counts.
    let stability = json_of(&["--no-cache", "stability", path, "--format", "json"]);
    let summary = api(&server, &format!("/api/summary?model={MODEL}"));
    let models: Vec<&str> =
        summary["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    let expected: Vec<&str> =
        stability["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(models, expected);
    let model = stability["models"].as_array().unwrap().iter().find(|m| m["model"] == MODEL).unwrap();
    for (served, cli) in summary["categories"].as_array().unwrap().iter().zip(model["categories"].as_array().unwrap()) {
        assert_eq!(served["category"], cli["category"]);
        for class in ["stable_pass", "flaky", "stable_fail"] {
            assert_eq!(served[class], cli[class], "{class} of {}", cli["category"]);
        }
    }
    assert_eq!(summary["categories"].as_array().unwrap().len(), model["categories"].as_array().unwrap().len());
    // What the classes leave out, as `stability` counts it, said under the table.
    let overall = &model["overall"];
    for key in ["errored", "with_errors", "with_unscored"] {
        assert_eq!(summary["overall"][key].as_u64().unwrap_or(0), overall[key].as_u64().unwrap_or(0), "{key}");
    }
    let left_out = ["with_errors", "with_unscored"].iter().any(|k| overall[k].as_u64().unwrap_or(0) > 0)
        || model["categories"].as_array().unwrap().iter().any(|c| c["unscored_tests"].as_u64().unwrap_or(0) > 0);
    assert_eq!(summary["unjudged"].as_array().is_some_and(|l| !l.is_empty()), left_out, "{summary}");

    // The whole heatmap at once, against `export`; then a window of it.
    let truth = exported(&[path]);
    let all = api(&server, &format!("/api/heatmap?model={MODEL}&rows=1000&cols=1000"));
    let columns: Vec<String> =
        all["columns"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(columns, ["run-1", "run-2"]);
    let rows = all["rows"].as_array().unwrap();
    let tests: BTreeSet<&str> = truth.keys().filter(|(m, _, _)| m == MODEL).map(|(_, _, id)| id.as_str()).collect();
    assert_eq!(rows.len(), tests.len());
    assert_eq!(all["rows_total"], tests.len());
    for row in rows {
        let id = row["id"].as_str().unwrap();
        for (cell, run) in row["o"].as_str().unwrap().chars().zip(&columns) {
            let want = truth.get(&(MODEL.to_string(), run.clone(), id.to_string())).map_or('-', |t| t.0);
            assert_eq!(cell, want, "{id} in {run}");
        }
    }
    let window = api(&server, &format!("/api/heatmap?model={MODEL}&row=2&rows=3&col=1&cols=1"));
    let cut: Vec<String> = rows[2..5].iter().map(|r| r["o"].as_str().unwrap()[1..2].to_string()).collect();
    let got: Vec<&str> = window["rows"].as_array().unwrap().iter().map(|r| r["o"].as_str().unwrap()).collect();
    assert_eq!(got, cut);
    assert_eq!(window["columns"][0]["name"], "run-2");

    // A category and a class picked; then a search over ids and messages.
    let flaky = api(&server, &format!("/api/tests?model={MODEL}&category=simple_python&status=flaky&per=500"));
    let want = model["categories"].as_array().unwrap().iter().find(|c| c["category"] == "simple_python").unwrap();
    assert_eq!(flaky["total"], want["flaky"]);
    assert!(flaky["rows"].as_array().unwrap().iter().all(|r| r["c"] == "simple_python" && r["s"] == "flaky"));
    let found = api(&server, &format!("/api/tests?model={MODEL}&q=PARISS&per=500"));
    let with_message: BTreeSet<&str> = truth
        .iter()
        .filter(|((m, _, id), (o, msg))| {
            m == MODEL && *o != 'P' && msg.as_deref().is_some_and(|t| t.to_lowercase().contains("pariss"))
                || m == MODEL && id.contains("pariss")
        })
        .map(|((_, _, id), _)| id.as_str())
        .collect();
    let listed: BTreeSet<&str> = found["rows"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert!(!listed.is_empty());
    assert_eq!(listed, with_message);

    // A cell: its outcome and message, as `export` has them.
    let (id, run) = ("simple_python_2", "run-2");
    let cell = api(&server, &format!("/api/cell?model={MODEL}&category=simple_python&id={id}&run={run}"));
    let (letter, message) = &truth[&(MODEL.to_string(), run.to_string(), id.to_string())];
    assert_eq!(cell["outcome"], if *letter == 'F' { "fail" } else { "pass" });
    assert_eq!(cell["message"].as_str(), message.as_deref());

    // One test in every run: what `show --format json` prints.
    let test = api(&server, &format!("/api/test?model={MODEL}&id={id}"));
    let show = json_of(&["show", path, id, "--format", "json"]);
    let mine: Vec<&Value> = show["runs"].as_array().unwrap().iter().filter(|r| r["model"] == MODEL).collect();
    assert_eq!(test["show"]["runs"].as_array().unwrap().iter().collect::<Vec<_>>(), mine);

    // Trend, cost and a comparison, as the commands count them.
    let trend = api(&server, &format!("/api/trend?model={MODEL}&per=500"));
    let cli_trend = json_of(&["--no-cache", "trend", path, "--format", "json", "--model", MODEL]);
    let statuses = |v: &Value| -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for t in v.as_array().unwrap() {
            *out.entry(t["status"].as_str().unwrap().to_string()).or_default() += 1;
        }
        out
    };
    let counts: BTreeMap<String, usize> = trend["counts"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), usize::try_from(v.as_u64().unwrap()).unwrap()))
        .collect();
    assert_eq!(counts, statuses(&cli_trend["models"][0]["tests"]));
    let cost = api(&server, &format!("/api/cost?model={MODEL}"));
    let cli_cost = json_of(&["--no-cache", "cost", path, "--format", "json", "--model", MODEL]);
    let tokens: u64 =
        cli_cost["runs"].as_array().unwrap().iter().map(|r| r["total"]["input_tokens"].as_u64().unwrap_or(0)).sum();
    assert_eq!(cost["sum"]["input_tokens"].as_u64().unwrap_or(0), tokens);
    assert_eq!(cost["total"], 2);
    let compare = api(&server, &format!("/api/compare?model={MODEL}&base=run-1&new=run-2"));
    let run1 = served.join("run-1");
    let run2 = served.join("run-2");
    let cli = json_of(&["--no-cache", "compare", run1.to_str().unwrap(), run2.to_str().unwrap(), "--format", "json"]);
    let cli_model = cli["models"].as_array().unwrap().iter().find(|m| m["model"] == MODEL).unwrap();
    let lists = |m: &Value, key: &str| -> Vec<(String, Vec<String>)> {
        m["categories"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let ids = c[key].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_string()).collect();
                (c["category"].as_str().unwrap().to_string(), ids)
            })
            .collect()
    };
    assert_eq!(lists(&compare["data"]["models"][0], "regressions"), lists(cli_model, "regressions"));
    assert_eq!(lists(&compare["data"]["models"][0], "improvements"), lists(cli_model, "improvements"));
    assert!(!lists(cli_model, "regressions").iter().all(|(_, ids)| ids.is_empty()), "the fixture has regressions");

    // Runs picked by what they say: BFCL runs record no time, so a date range picks none.
    let dated = api(&server, &format!("/api/summary?model={MODEL}&since=2026-01-01"));
    assert_eq!(dated["runs"]["picked"], 0);
}

#[test]
fn a_run_copied_in_appears_and_only_it_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let served = two_runs(tmp.path());
    let path = served.to_str().unwrap();
    let server = Serving::start(bin(), tmp.path(), &[path], &[("EVALTALLY_CACHE", &cache(tmp.path()))]);
    // A unit is a BFCL file pair: one per result file (a memory category's prerequisite
    // results go with its own).
    let units = |run: &Path| {
        walk(run)
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .filter(|f| f.ends_with("_result.json") && !f.ends_with("_prereq_result.json"))
            .count()
    };
    let first = server.wait_line("load 1:", Duration::from_mins(1)).unwrap();
    let all = units(&served.join("run-1")) + units(&served.join("run-2"));
    assert!(first.contains(&format!(", {all} units read from files")), "{first}");
    let before = api(&server, &format!("/api/summary?model={MODEL}"));
    assert_eq!(before["runs"]["total"], 2);
    let events = Events::open(server.addr);
    copy_folder(&evaltally_testkit::testdata("bfcl/v4/run-10"), &served.join("run-10"));
    assert!(events.wait("changed", Duration::from_mins(1)), "no change event after a run was copied in");
    // Loads may follow one another while the copy lands; the last one has the new run.
    let mut after = Value::Null;
    for _ in 0..600 {
        after = api(&server, &format!("/api/summary?model={MODEL}"));
        if after["runs"]["total"] == 3 && after["status"]["loading"] == false {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(after["runs"]["total"], 3, "{after}");
    let columns = api(&server, &format!("/api/heatmap?model={MODEL}&rows=1"));
    let names: Vec<&str> = columns["columns"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["run-1", "run-2", "run-10"]);
    // Every load since read the new run's files at most, never the others again.
    let new = units(&evaltally_testkit::testdata("bfcl/v4/run-10"));
    let mut later = Vec::new();
    while let Some(line) = server.wait_line("load ", Duration::from_millis(500)) {
        later.push(line);
    }
    for line in &later {
        let read: usize = line
            .split(", ")
            .find_map(|p| p.strip_suffix(" units read from files").or(p.strip_suffix(" unit read from files")))
            .and_then(|n| n.split(' ').next_back())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(read <= new, "{line}: more than run-10's {new} units");
    }
    // The same answer as the commands over the three runs.
    let stability = json_of(&["--no-cache", "stability", path, "--format", "json", "--model", MODEL]);
    assert_eq!(after["overall"]["flaky"], stability["models"][0]["overall"]["flaky"]);
}

#[test]
fn requests_it_must_refuse_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let served = two_runs(tmp.path());
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "not for the page").unwrap();
    let server =
        Serving::start(bin(), tmp.path(), &[served.to_str().unwrap()], &[("EVALTALLY_CACHE", &cache(tmp.path()))]);
    assert!(server.wait_line("load 1:", Duration::from_mins(1)).is_some());
    let host = server.addr;
    let raw = |text: &str| request(server.addr, text);
    // Paths that climb out, plain and encoded: nothing but a JSON 404.
    for target in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/app.js/../../secret.txt",
        "/..%2fsecret.txt",
        "/api/../../secret.txt",
        "//etc/passwd",
    ] {
        let r = raw(&format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"));
        assert!(r.status == 404 || r.status == 400, "{target}: {}", r.status);
        assert!(!r.body.contains("not for the page") && !r.body.contains("root:"), "{target}: {}", r.body);
    }
    // Another host (DNS rebinding), another method, a body, a long target.
    let other = raw("GET /api/summary HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n");
    assert_eq!(other.status, 403);
    let post = raw(&format!(
        "POST /api/summary HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    ));
    assert_eq!(post.status, 405);
    let body = raw(&format!(
        "GET /api/summary HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
    ));
    assert_eq!(body.status, 413);
    let long = server.get(&format!("/api/tests?q={}", "a".repeat(5000)));
    assert_eq!(long.status, 414);
    // Parameters it cannot use, each said.
    let unknown = server.get("/api/heatmap?model=nope");
    assert_eq!(unknown.status, 404);
    let empty_side = server.get(&format!("/api/compare?model={MODEL}&base=run-1&new=no-such-run"));
    assert_eq!(empty_side.status, 422, "{}", empty_side.body);
    assert!(unknown.json()["error"].as_str().unwrap().contains(MODEL), "{}", unknown.body);
    // Refusals and failures are `serve-error` documents, whatever their status.
    for refused in [&other, &post, &body, &long, &unknown, &empty_side] {
        evaltally_testkit::schema::assert_valid(&refused.json(), &format!("{}: {}", refused.status, refused.body));
    }
    assert_eq!(server.get(&format!("/api/heatmap?model={MODEL}&rows=many")).status, 400);
    assert_eq!(server.get(&format!("/api/compare?model={MODEL}&base=run-1")).status, 400);
    assert_eq!(server.get("/api/test").status, 400);
    // Every answer says what it is, and that it is not to be framed or sniffed.
    let any = server.get("/api/summary");
    assert_eq!(any.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(any.header("x-frame-options"), Some("DENY"));
}

#[test]
fn beyond_the_machine_every_request_needs_the_token() {
    let tmp = tempfile::tempdir().unwrap();
    let served = two_runs(tmp.path());
    // Bound to every address; the test talks to 127.0.0.1 only.
    let server = Serving::start(
        bin(),
        tmp.path(),
        &[served.to_str().unwrap(), "--bind", "0.0.0.0"],
        &[("EVALTALLY_CACHE", &cache(tmp.path()))],
    );
    let token = server.url.split("?token=").nth(1).expect("a token in the URL").to_string();
    assert_eq!(token.len(), 32);
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], server.addr.port()));
    let get = |target: &str, extra: &str| {
        request(addr, &format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n"))
    };
    assert_eq!(get("/", "").status, 401);
    assert_eq!(get("/api/summary", "").status, 401);
    assert_eq!(get("/api/summary?token=0123456789abcdef0123456789abcdef", "").status, 401);
    // The page's URL sets a cookie and drops the token from the address bar.
    let opened = get(&format!("/?token={token}&tab=heatmap"), "");
    assert_eq!(opened.status, 303);
    assert_eq!(opened.header("location"), Some("/?tab=heatmap"));
    let cookie = opened.header("set-cookie").unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    let pair = cookie.split(';').next().unwrap();
    assert_eq!(get("/api/summary", &format!("Cookie: {pair}\r\n")).status, 200);
    assert_eq!(get("/api/summary", &format!("Authorization: Bearer {token}\r\n")).status, 200);
    assert_eq!(get("/api/summary", "Cookie: evaltally_token=wrong\r\n").status, 401);

    // A short token, and a missing path, are usage errors.
    let short = evaltally(&["serve", "testdata/bfcl/v4", "--token", "short"]);
    assert_eq!(short.code, 2, "{}", short.transcript());
    assert!(short.stderr.contains("at least 16 characters"), "{}", short.stderr);
    let missing = evaltally(&["serve", "testdata/no-such-folder"]);
    assert_eq!(missing.code, 2, "{}", missing.transcript());
    assert!(missing.stderr.contains("no such file or folder"), "{}", missing.stderr);
}

#[test]
fn an_empty_folder_is_served_and_fills() {
    let tmp = tempfile::tempdir().unwrap();
    let served = tmp.path().join("empty");
    std::fs::create_dir_all(&served).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(evaltally_testkit::testdata("gstack"), served.join("elsewhere")).unwrap();
    let server =
        Serving::start(bin(), tmp.path(), &[served.to_str().unwrap()], &[("EVALTALLY_CACHE", &cache(tmp.path()))]);
    assert!(server.wait_line("load 1:", Duration::from_mins(1)).unwrap().contains("0 runs"));
    let summary = api(&server, "/api/summary");
    assert_eq!(summary["models"].as_array().map(Vec::len), Some(0));
    // A link to runs outside the folder is not followed, and the view says so.
    #[cfg(unix)]
    {
        let listed = summary["diagnostics"]["listed"].as_array().unwrap();
        assert_eq!(summary["diagnostics"]["warnings"], 1, "{summary}");
        assert!(listed[0].as_str().unwrap().contains("outside"), "{summary}");
    }
    assert_eq!(server.get("/api/heatmap").status, 404);
    // A gstack run written atomically (a temporary name, then renamed), as gstack saves.
    let file = evaltally_testkit::testdata("gstack/standard/nightly-1.json");
    std::fs::copy(&file, served.join(".landing")).unwrap();
    std::fs::rename(served.join(".landing"), served.join("nightly-1.json")).unwrap();
    assert!(server.wait_line("load 2:", Duration::from_mins(1)).is_some());
    let summary = api(&server, "/api/summary");
    assert_eq!(summary["models"].as_array().map(Vec::len), Some(1), "{summary}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.path().is_dir() {
            out.extend(walk(&entry.path()));
        } else {
            out.push(entry.path());
        }
    }
    out
}
