//! The synthetic workload from `../shared/bench/gen_bfcl_runs.py`, whose ground truth
//! (`--expected`) is independent of evaltally: every count and every id list written by
//! `--out` must equal it, for both layouts the generator writes.

mod common;

use std::path::Path;
use std::process::Command;

use common::evaltally_in;
use evaltally_core::id::sort_natural;
use evaltally_testkit::{shared, workspace_root};
use serde_json::Value;

fn generate(script: &Path, out: &Path, layout: &str, expected: &Path) {
    let status = Command::new("python3")
        .arg(script)
        .args(["--out", out.to_str().unwrap(), "--runs", "12", "--models", "2", "--scale", "0.04", "--seed", "11"])
        .args(["--layout", layout, "--expected", expected.to_str().unwrap()])
        .status()
        .expect("python3 runs the workload generator");
    assert!(status.success());
}

fn check_layout(layout: &str) {
    let Some(script) = shared("bench/gen_bfcl_runs.py") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (work, expected_path, out) = (tmp.path().join("W"), tmp.path().join("E.json"), tmp.path().join("out"));
    generate(&script, &work, layout, &expected_path);
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();

    let run = evaltally_in(
        &workspace_root(),
        // The ground truth counts inference errors as failures, as BFCL does officially.
        &[
            "stability",
            work.to_str().unwrap(),
            "--format",
            "json",
            "--errors-as",
            "fail",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(got["warnings"], serde_json::json!([]));

    let runs = expected["runs"].clone();
    let exp_models = expected["models"].as_object().unwrap();
    let got_models = got["models"].as_array().unwrap();
    assert_eq!(got_models.len(), exp_models.len());
    let mut checked = 0;
    for model in got_models {
        let name = model["model"].as_str().unwrap();
        assert_eq!(model["runs"], runs, "{name}");
        let exp = &exp_models[name];
        let cats = model["categories"].as_array().unwrap();
        assert_eq!(cats.len(), exp.as_object().unwrap().len(), "{name}");
        for cat in cats {
            let c = cat["category"].as_str().unwrap();
            let e = &exp[c];
            for key in ["total", "stable_pass", "flaky", "stable_fail", "correct"] {
                assert_eq!(cat[key], e[key], "{name} {c} {key}");
            }
            assert_eq!(cat["runs"], runs);
            for (file, class) in [
                ("stable_tests.json", "stable_pass"),
                ("flaky_tests.json", "flaky"),
                ("failing_tests.json", "stable_fail"),
            ] {
                let written: Value =
                    serde_json::from_str(&std::fs::read_to_string(out.join(name).join(file)).unwrap()).unwrap();
                let mut want: Vec<String> =
                    e["ids"][class].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
                sort_natural(&mut want);
                assert_eq!(written["schema"], "evaltally.test-ids/1", "{name} {file}");
                assert_eq!(written["categories"][c], serde_json::json!(want), "{name} {c} {file}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "every category of both models was checked ({checked})");
    check_first_pair(&expected, &work, layout);
}

/// `compare` of the first two runs gives exactly the regressions and improvements of
/// `pairs` in the ground truth.
fn check_first_pair(expected: &Value, work: &Path, layout: &str) {
    let (a, b) = ("run-000", "run-001");
    let dir = |run: &str| match layout {
        "pairs" => work.join(format!("result-{run}")),
        _ => work.join(run),
    };
    let run = evaltally_in(
        &workspace_root(),
        &["compare", dir(a).to_str().unwrap(), dir(b).to_str().unwrap(), "--format", "json", "--errors-as", "fail"],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let got: Value = serde_json::from_str(&run.stdout).unwrap();
    let truth = &expected["pairs"][format!("{a}..{b}")];
    let mut compared = 0;
    for model in got["models"].as_array().unwrap() {
        let name = model["model"].as_str().unwrap();
        for cat in model["categories"].as_array().unwrap() {
            let c = cat["category"].as_str().unwrap();
            for key in ["regressions", "improvements"] {
                let mut want: Vec<String> =
                    truth[name][c][key].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
                sort_natural(&mut want);
                assert_eq!(cat[key], serde_json::json!(want), "{name} {c} {key}");
            }
            assert_eq!(cat["only_in_base"], serde_json::json!([]));
            compared += 1;
        }
    }
    assert_eq!(compared, truth.as_object().unwrap().values().map(|m| m.as_object().unwrap().len()).sum::<usize>());
}

#[test]
fn generated_v4_layout_matches_ground_truth() {
    check_layout("v4");
}

#[test]
fn generated_pairs_layout_matches_ground_truth() {
    check_layout("pairs");
}
