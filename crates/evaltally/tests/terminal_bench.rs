//! Terminal-Bench `tb run` folders: each attempt a run, the model and the dataset from
//! `run_metadata.json`, ungraded trials errored, the trials' own copies skipped; through
//! every command, and on the real leaderboard runs and OpenHands outputs kept beside the
//! checkout (`../realdata`).

mod common;

use common::{compact_json, evaltally, report_data, session};
use serde_json::Value;

const FIXTURE: &str = "testdata/terminal-bench";
const RUN_A: &str = "testdata/terminal-bench/2026-03-02__09-00-00";
const RUN_B: &str = "testdata/terminal-bench/2026-03-03__09-00-00";
const MODEL: &str = "terminus/anthropic/claude-sonnet-4-20250514";

#[test]
fn fixture_through_every_command() {
    let out = session(&[
        &["stability", FIXTURE],
        &["stability", FIXTURE, "--errors-as", "fail"],
        &["compare", "--base", RUN_A, "--new", RUN_B],
        &["show", FIXTURE, "build-linux-kernel-qemu"],
        &["show", FIXTURE, "fix-git", "--run", "2026-03-02__09-00-00#attempt-1"],
        &["export", RUN_A],
        &["validate", RUN_B],
    ]);
    insta::assert_snapshot!(out);
}

/// The tests' outcomes across the four runs, as `stability --format json` gives them.
fn outcomes(extra: &[&str]) -> Vec<String> {
    let mut args = vec!["stability", FIXTURE, "--format", "json"];
    args.extend_from_slice(extra);
    let run = evaltally(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    assert_eq!(model["model"], MODEL);
    let c = &model["categories"][0];
    assert_eq!(c["category"], "terminal-bench-core@0.1.1");
    assert_eq!(c["runs"].as_array().unwrap().len(), 4, "two tb runs of two attempts each");
    c["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{} {}", t["id"].as_str().unwrap(), t["outcomes"].as_str().unwrap()))
        .collect()
}

/// `is_resolved` null (a test timeout, a parse error, the harness's own exception) errored;
/// `--errors-as fail` counts them as tb's `accuracy` does.
#[test]
fn ungraded_trials_are_errored_apart() {
    let expected = [
        "build-linux-kernel-qemu EEFE",
        "crack-7z-hash.hard FFFP",
        "fix-git FPPP",
        "hello-world PPPP",
        "swe-bench-astropy-1 PEPF",
    ];
    assert_eq!(outcomes(&[]), expected);
    let as_fail: Vec<String> = expected.iter().map(|o| o.replace('E', "F")).collect();
    assert_eq!(outcomes(&["--errors-as", "fail"]), as_fail);
}

/// Each trial's own `results.json` is a copy of its entry in the run's: skipped, said, and
/// never counted twice; the run's metadata is read beside it and not named as unread.
#[test]
fn trial_copies_are_skipped_and_said() {
    let run = evaltally(&["stability", FIXTURE, "--verbose"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let skipped =
        run.stderr.lines().filter(|l| l.contains("skipped: a Terminal-Bench trial's own results.json")).count();
    assert_eq!(skipped, 9, "9 copies (the harness exception wrote none): {}", run.stderr);
    assert!(!run.stderr.contains("run_metadata.json: note"), "{}", run.stderr);
    let export = evaltally(&["export", FIXTURE]);
    assert_eq!(export.stdout.lines().count(), 20, "5 tasks × 2 attempts × 2 runs, each once");
}

/// `--as terminal-bench` (and `tb`) reads a results file under any name, and skips a
/// trial's copy rather than misreading it.
#[test]
fn read_as_terminal_bench() {
    let renamed =
        "testdata/shapes/terminal-bench/tb-results-renamed/goose-claude-4-opus/2026-03-04__12-00-00_results.json";
    for name in ["terminal-bench", "tb"] {
        let run = evaltally(&["stability", renamed, "--as", name, "--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let doc: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(doc["models"][0]["runs"], serde_json::json!(["2026-03-04__12-00-00"]));
    }
    let formats = evaltally(&["formats"]);
    assert!(formats.stdout.contains("terminal-bench (also tb, terminalbench)"), "{}", formats.stdout);
}

/// The HTML report of the two tb runs: the four attempts as runs, the errored cells.
#[test]
fn report_of_the_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let run = evaltally(&["report", FIXTURE, "-o", page.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let data = report_data(&std::fs::read_to_string(&page).unwrap());
    let text = data.to_string();
    assert!(text.contains(MODEL) && text.contains("2026-03-03__09-00-00#attempt-2"), "{}", compact_json(&data));
    assert!(text.contains("test_timeout"), "the errored cells keep their label");
}

/// `push` stores the two tb runs (each with its metadata, so the model and the dataset
/// survive), and `stability` on the store gives what it gives on the folders; `serve` on the
/// fixture answers what the commands print: the classes, and one task in every attempt with
/// its failure mode.
#[test]
fn push_and_serve() {
    let store = tempfile::tempdir().unwrap();
    let env = [("EVALTALLY_STORE", store.path().to_str().unwrap())];
    let root = evaltally_testkit::workspace_root();
    let push = common::evaltally_in(&root, &["push", RUN_A, RUN_B], &env);
    assert_eq!(push.code, 0, "{}", push.stderr);
    assert_eq!(
        push.stdout,
        format!("pushed {RUN_A} as store:2026-03-02__09-00-00\npushed {RUN_B} as store:2026-03-03__09-00-00\n")
    );
    let models = |s: &str| serde_json::from_str::<Value>(s).unwrap()["models"].clone();
    let from_store = common::evaltally_in(
        &root,
        &["stability", "store:2026-03-02__09-00-00", "store:2026-03-03__09-00-00", "--format", "json"],
        &env,
    );
    let original = evaltally(&["stability", FIXTURE, "--format", "json"]);
    assert_eq!(models(&from_store.stdout), models(&original.stdout), "{}", from_store.stderr);

    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_evaltally"));
    let server = evaltally_testkit::http::Serving::start(
        bin,
        &root,
        &[FIXTURE],
        &[("EVALTALLY_CACHE", cache.to_str().unwrap())],
    );
    assert!(server.wait_line("load 1:", std::time::Duration::from_mins(1)).is_some());
    let model = MODEL.replace('/', "%2F");
    let summary = server.get(&format!("/api/summary?model={model}")).json();
    let cli = &models(&original.stdout)[0]["categories"][0];
    let served = &summary["categories"][0];
    for class in ["category", "stable_pass", "flaky", "stable_fail", "errored"] {
        assert_eq!(served[class], cli[class], "{class}: {summary}");
    }
    let test = server.get(&format!("/api/test?model={model}&id=build-linux-kernel-qemu")).json();
    let show = evaltally(&["show", FIXTURE, "build-linux-kernel-qemu", "--format", "json"]);
    assert_eq!(test["show"]["runs"], serde_json::from_str::<Value>(&show.stdout).unwrap()["runs"]);
    let modes: Vec<&str> =
        test["show"]["runs"].as_array().unwrap().iter().filter_map(|r| r["error_type"].as_str()).collect();
    assert!(modes.contains(&"test_timeout"), "the trial's failure mode: {test}");
}

/// `show` on a Harbor job gives each trial's tokens (`agent_result`), its duration and its
/// own `result.json`, as the trial's file says them.
#[test]
fn harbor_show_gives_the_trials_tokens_and_file() {
    let job = "testdata/shapes/terminal-bench/harbor-job/jobs/2026-03-05__10-00-00";
    let file = format!("{job}/fix-git__b7Rt9Lm/result.json");
    let trial: Value =
        serde_json::from_slice(&std::fs::read(evaltally_testkit::workspace_root().join(&file)).unwrap()).unwrap();
    let show = evaltally(&["show", job, "fix-git", "--format", "json"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let doc: Value = serde_json::from_str(&show.stdout).unwrap();
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{doc}");
    assert_eq!(runs[0]["input_tokens"], trial["agent_result"]["n_input_tokens"], "{doc}");
    assert_eq!(runs[0]["output_tokens"], trial["agent_result"]["n_output_tokens"], "{doc}");
    assert!(runs[0]["latency_seconds"].as_f64().is_some_and(|s| s > 0.0), "{doc}");
    assert_eq!(runs[0]["result_at"]["path"], file.as_str(), "{doc}");
}

/// OpenHands' runtime evaluation `output.swebench_eval.jsonl` is the run while the
/// `output.jsonl` beside it has no `report` (that file is set aside, naming it); once the
/// summary `output.swebench_eval.md` says the reports were copied, `output.jsonl` is read and
/// the evaluation and the summary are set aside, each in its own line: the run counts once.
#[test]
fn openhands_runtime_evaluation_is_read_until_its_reports_are_copied() {
    let tests = |stdout: &str| -> u64 {
        let doc: Value = serde_json::from_str(stdout).unwrap();
        doc["models"].as_array().unwrap().iter().map(|m| m["overall"]["total"].as_u64().unwrap()).sum()
    };
    let lines = |path: &str| std::fs::read_to_string(evaltally_testkit::workspace_root().join(path)).unwrap();
    let before = "testdata/shapes/swebench/openhands-swebench-eval";
    let run = evaltally(&["stability", before, "--verbose", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(tests(&run.stdout), lines(&format!("{before}/output.swebench_eval.jsonl")).lines().count() as u64);
    assert!(
        run.stderr.contains("output.jsonl: note: skipped: OpenHands agent output without an evaluation")
            && run.stderr.contains("`output.swebench_eval.jsonl` beside it is read instead"),
        "{}",
        run.stderr
    );
    let after = "testdata/shapes/swebench/openhands-swebench-eval-md/princeton-nlp__SWE-bench_Verified-test/CodeActAgent/acme-1.5_maxiter_100_N_v0.40.0-no-hint-run_2";
    let run = evaltally(&["stability", after, "--verbose", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(tests(&run.stdout), lines(&format!("{after}/output.jsonl")).lines().count() as u64);
    for set_aside in ["output.swebench_eval.jsonl: note: skipped", "output.swebench_eval.md: note: skipped"] {
        assert!(run.stderr.contains(set_aside), "{set_aside}: {}", run.stderr);
    }
}

/// A folder of real public files kept outside the repository, in `../realdata/<rel>` beside
/// the checkout (its PROVENANCE.md names the repository, commit and path of each file);
/// `None`, with a notice, when it is not there.
fn realdata(rel: &str) -> Option<std::path::PathBuf> {
    let dir = evaltally_testkit::workspace_root().parent().map(|p| p.join("realdata").join(rel));
    let found = dir.filter(|d| d.is_dir());
    if found.is_none() {
        evaltally_testkit::skipped(&format!("../realdata/{rel} not found beside the checkout"));
    }
    found
}

/// What one side says of each (model, category): runs, total, stable pass, flaky, stable
/// fail, errored tests, errored results, and the passes of each run (sorted: the two sides
/// name renamed run folders alike, but order runs by their own rules).
type Counts = std::collections::BTreeMap<(String, String), (usize, [u64; 6], Vec<u64>)>;

fn counts_of(categories: impl Iterator<Item = (String, String, Value)>) -> Counts {
    categories
        .map(|(model, category, c)| {
            let n = |k: &str| c[k].as_u64().unwrap_or(0);
            let mut correct: Vec<u64> = c["correct"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            correct.sort_unstable();
            let classes =
                [n("total"), n("stable_pass"), n("flaky"), n("stable_fail"), n("errored"), n("errored_results")];
            ((model, category), (c["runs"].as_array().unwrap().len(), classes, correct))
        })
        .collect()
}

/// The leaderboard's run-level files (laude-institute/terminal-bench-leaderboard, its main
/// branch and three pull requests: 64 runs' files, 3 of them of 5 attempts, plus a nested
/// byte-identical copy and every trial's own copy): `stability` counts exactly what the
/// plain-Python computation from tb's own rules, `xtask/bench/ref_terminal_bench.py`, counts.
#[test]
fn leaderboard_runs_have_the_baselines_counts() {
    let Some(dir) = realdata("terminal-bench") else { return };
    let root = dir.to_str().unwrap();
    let run = evaltally(&["stability", root, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let ours =
        counts_of(doc["models"].as_array().unwrap().iter().flat_map(|m| {
            m["categories"].as_array().unwrap().iter().map(|c| {
                (m["model"].as_str().unwrap().to_string(), c["category"].as_str().unwrap().to_string(), c.clone())
            })
        }));
    let script = evaltally_testkit::workspace_root().join("xtask/bench/ref_terminal_bench.py");
    let Ok(reference) = std::process::Command::new("python3").arg(&script).arg(root).output() else {
        evaltally_testkit::skipped("python3 not found: the real files' counts are not checked");
        return;
    };
    assert!(reference.status.success(), "{}", String::from_utf8_lossy(&reference.stderr));
    let ref_doc: Value = serde_json::from_slice(&reference.stdout).unwrap();
    let theirs = counts_of(ref_doc["models"].as_object().unwrap().iter().flat_map(|(model, cats)| {
        cats.as_object().unwrap().iter().map(|(category, c)| (model.clone(), category.clone(), c.clone()))
    }));
    assert_eq!(ours, theirs);
    assert_eq!(ours.len(), 18, "{:?}", ours.keys());
    let several: usize = ours.values().filter(|(runs, ..)| *runs >= 5).count();
    assert!(several >= 5, "several runs per agent and model: {ours:?}");
    // Attempts of one run are runs: the three orchestrator runs of 5 attempts each, each
    // submission (no model recorded) a model of its own, named after its folder.
    for submission in ["20250902_orchestrator_claude-4-sonnet", "20250902_orchestrator_qwen-3-coder-480B"] {
        let lead = &ours[&(format!("LeadArchitectAgent ({submission})"), "terminal-bench-core@0.1.1".to_string())];
        assert_eq!(lead.0, 5, "{submission}");
    }
    // The nested copy of a run is read once, and said.
    assert!(run.stderr.contains("same bytes"), "{}", run.stderr);
}

/// OpenHands' real `output.jsonl` files (All-Hands-AI/OpenHands, OpenHands/benchmarks,
/// `nunu0404/Python_OpenHands`; none carries a `report`): each is named as agent output
/// without an evaluation, the V1 attempt file as an attempt, the 2024-05 per-benchmark file
/// as JSON Lines no format reads; none is counted. The one run OpenHands committed
/// evaluated is its Markdown summary alone (`output.swebench_eval.md`, 50 SWE-bench
/// Verified instances): read, with the counts its own summary states.
#[test]
fn real_openhands_outputs_are_named_and_the_lone_summary_is_read() {
    let Some(dir) = realdata("openhands") else { return };
    let run = evaltally(&["stability", dir.to_str().unwrap(), "--verbose", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let said = |what: &str| run.stderr.lines().filter(|l| l.contains(what)).count();
    assert_eq!(said("skipped: OpenHands agent output without an evaluation"), 3, "{}", run.stderr);
    assert_eq!(said("skipped: an attempt file of OpenHands' iterative evaluation"), 1, "{}", run.stderr);
    assert!(run.stderr.contains("ProntoQA"), "the 2024-05 file is named: {}", run.stderr);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let models = doc["models"].as_array().unwrap();
    assert_eq!(models.len(), 1, "{}", run.stdout);
    assert_eq!(models[0]["model"], "litellm_proxy/claude-3-5-sonnet-20241022");
    assert_eq!(models[0]["runs"].as_array().map(Vec::len), Some(1));
    let overall = &models[0]["overall"];
    // The summary's own lines: "resolved instances: 26", "unresolved instances: 24".
    let summary = std::fs::read_to_string(
        dir.join("All-Hands-AI-OpenHands/evaluation/evaluation_outputs/outputs/princeton-nlp__SWE-bench_Verified-test/CodeActAgent/claude-3-5-sonnet-20241022_maxiter_50_N_v0.15.0-no-hint-no-condensation-run_1/output.swebench_eval.md"),
    )
    .unwrap();
    let stated = |what: &str| -> u64 {
        let line = summary.lines().find_map(|l| l.strip_prefix(&format!("- {what}: "))).unwrap();
        line.trim().parse().unwrap()
    };
    assert_eq!(overall["stable_pass"].as_u64(), Some(stated("resolved instances")));
    assert_eq!(overall["stable_fail"].as_u64(), Some(stated("unresolved instances")));
    assert_eq!(overall["total"].as_u64(), Some(stated("submitted instances")));
}
