//! Tiny synthetic workloads of every format but BFCL, made by the bench
//! generators `xtask/bench/gen_<format>.py` (the large ones are what
//! `cargo xtask bench` times), whose ground truth (`--expected`) is independent
//! of evaltally: `stability --format json` must count exactly what it says,
//! per model and category, and `validate` must find the files valid.
//! BFCL has its own in `workload.rs`.

mod common;

use std::path::Path;
use std::process::Command;

use common::evaltally_in;
use evaltally_testkit::workspace_root;
use serde_json::Value;

/// Runs `python3 xtask/bench/gen_<format>.py ARGS OUT --expected` and returns
/// the ground truth it prints.
fn generate(format: &str, args: &[&str], out: &Path) -> Value {
    let script = workspace_root().join(format!("xtask/bench/gen_{format}.py"));
    let output = Command::new("python3")
        .arg(&script)
        .args(["--runs", "4", "--models", "2", "--seed", "11"])
        .args(args)
        .arg("--expected")
        .arg(out)
        .output()
        .expect("python3 runs the workload generator");
    assert!(output.status.success(), "{}: {}", script.display(), String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the generator prints its ground truth as JSON")
}

/// The first file below `dir`, in name order.
fn first_file(dir: &Path) -> std::path::PathBuf {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let first = entries.into_iter().next().unwrap_or_else(|| panic!("{} is empty", dir.display()));
    if first.is_dir() { first_file(&first) } else { first }
}

/// Generates a tiny workload of `format` (two models, four runs), checks
/// every count against the ground truth, and validates `sample` (a file below the
/// workload, or the first file of a folder below it).
fn check(format: &str, args: &[&str], sample: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("W");
    let expected = generate(format, args, &work);

    // The ground truths count errors as failures, as the benchmarks do officially.
    let run = evaltally_in(
        &workspace_root(),
        &["stability", work.to_str().unwrap(), "--format", "json", "--errors-as", "fail"],
        &[],
    );
    assert_eq!(run.code, 0, "{format}: {}", run.stderr);
    let got: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(got["warnings"], serde_json::json!([]), "{format}");
    assert_eq!(got["errors"], serde_json::json!([]), "{format}");

    let exp_models = expected["models"].as_object().unwrap();
    let got_models = got["models"].as_array().unwrap();
    assert_eq!(got_models.len(), exp_models.len(), "{format}: models");
    let mut checked = 0;
    for model in got_models {
        let name = model["model"].as_str().unwrap();
        assert_eq!(model["runs"], expected["runs"][name], "{format} {name}: runs");
        let exp = exp_models.get(name).unwrap_or_else(|| panic!("{format}: unexpected model {name}"));
        let cats = model["categories"].as_array().unwrap();
        assert_eq!(cats.len(), exp.as_object().unwrap().len(), "{format} {name}: categories");
        for cat in cats {
            let c = cat["category"].as_str().unwrap();
            let e = exp.get(c).unwrap_or_else(|| panic!("{format} {name}: unexpected category {c}"));
            for key in ["total", "stable_pass", "flaky", "stable_fail", "runs", "correct", "listed"] {
                assert_eq!(cat[key], e[key], "{format} {name} {c} {key}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "{format}: every category of both models was checked ({checked})");

    let sample = work.join(sample);
    let file = if sample.is_file() { sample } else { first_file(&sample) };
    let run = evaltally_in(&workspace_root(), &["validate", file.to_str().unwrap()], &[]);
    assert_eq!(run.code, 0, "{format}: {}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(": valid ("), "{format}: {}", run.stdout);
}

#[test]
fn generated_gstack_results_match_ground_truth() {
    check("gstack", &["--tests", "12"], "claude-sonnet-4-6");
}

#[test]
fn generated_junit_reports_match_ground_truth() {
    check("junit", &["--tests", "40"], "acme-eval-7b");
}

#[test]
fn generated_swebench_instance_reports_match_ground_truth() {
    check("swebench", &["--instances", "40"], "logs/run_evaluation/run-001/acme__swe-agent-7b");
}

#[test]
fn generated_sfbench_reports_match_ground_truth() {
    check("sfbench", &["--instances", "40"], "acme-sf-model/run-0001");
}

#[test]
fn generated_inspect_logs_match_ground_truth() {
    check("inspect", &["--samples", "8"], ".");
}

#[test]
fn generated_lmeval_samples_match_ground_truth() {
    check(
        "lmeval",
        &["--docs", "16"],
        "Qwen__Qwen2.5-7B-Instruct/samples_arc_challenge_2026-01-05T09-00-26.164603.jsonl",
    );
}

/// The generator writes Parquet with its own writer (`xtask/bench/minparquet.py`): no
/// pyarrow needed.
#[test]
fn generated_lighteval_details_match_ground_truth() {
    check("lighteval", &["--samples", "12"], "details/openrouter/openai/gpt-5-mini");
}

#[test]
fn generated_promptfoo_outputs_match_ground_truth() {
    check("promptfoo", &["--tests", "20"], "support-rag");
}

#[test]
fn generated_helm_runs_match_ground_truth() {
    check("helm", &["--instances", "40"], "runs/run-0001");
}

#[test]
fn generated_openai_evals_logs_match_ground_truth() {
    check("openai_evals", &["--tests", "10"], ".");
}

#[test]
fn generated_taubench_results_match_ground_truth() {
    check("taubench", &["--tasks", "10"], "gpt-4o-airline.json");
}

#[test]
fn generated_terminal_bench_runs_match_ground_truth() {
    check("terminal_bench", &["--tasks", "12"], "terminus/2026-03-01__09-00-00/results.json");
}

#[test]
fn generated_evalplus_results_match_ground_truth() {
    check("evalplus", &["--tasks", "20"], "evalplus_results/humaneval");
}
