//! Who is flaky, which tests changed, what an answer costs: on workloads generated with
//! planted answers (`xtask/bench/gen_flaky_sources.py`, `xtask/bench/gen_groups.py`, whose
//! ground truth does not come from evaltally), and on the fixtures.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::evaltally_in;
use evaltally_testkit::workspace_root;
use serde_json::Value;

/// Runs `python3 xtask/bench/<script> ARGS OUT --expected`; the ground truth it prints.
fn generate(script: &str, args: &[&str], out: &Path) -> Value {
    let path = workspace_root().join("xtask/bench").join(script);
    let output = Command::new("python3")
        .arg(&path)
        .args(args)
        .arg("--expected")
        .arg(out)
        .output()
        .expect("python3 runs the generator");
    assert!(output.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("the generator prints its ground truth as JSON")
}

fn json(args: &[&str]) -> Value {
    let run = evaltally_in(&workspace_root(), args, &[]);
    assert_eq!(run.code, 0, "{args:?}\n{}", run.transcript());
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn ids(v: &Value) -> BTreeSet<String> {
    v.as_array().map(|a| a.iter().map(|i| i.as_str().unwrap().to_string()).collect()).unwrap_or_default()
}

#[test]
fn the_benchmarks_flaky_tests_are_told_from_the_models() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("W");
    let truth =
        generate("gen_flaky_sources.py", &["--models", "3", "--runs", "8", "--tests", "120", "--seed", "5"], &work);
    let got = json(&["--no-cache", "stability", work.to_str().unwrap(), "--format", "json"]);
    let across = got["across_models"].as_object().expect("across_models with three models");
    let mut planted_benchmark = 0;
    for (category, planted) in truth["benchmark_flaky"].as_object().unwrap() {
        let found = ids(&across[category]["benchmark_flaky"]);
        let planted = ids(planted);
        planted_benchmark += planted.len();
        assert!(planted.is_subset(&found), "{category}: planted {planted:?}, found {found:?}");
    }
    assert!(planted_benchmark > 0);
    for (category, by_model) in truth["model_flaky"].as_object().unwrap() {
        let found = ids(&across[category]["benchmark_flaky"]);
        for (model, planted) in by_model.as_object().unwrap() {
            let planted = ids(planted);
            assert!(found.is_disjoint(&planted), "{category}: a model's own flaky test called the benchmark's");
            let theirs = ids(&across[category]["model_flaky"][model]);
            assert!(planted.is_subset(&theirs), "{category} {model}: planted {planted:?}, listed {theirs:?}");
        }
    }
    // Each model's flaky count says how many are the benchmark's.
    for model in got["models"].as_array().unwrap() {
        let said: u64 =
            model["categories"].as_array().unwrap().iter().map(|c| c["benchmark_flaky"].as_u64().unwrap_or(0)).sum();
        assert_eq!(model["overall"]["benchmark_flaky"].as_u64().unwrap_or(0), said);
        assert_eq!(said, planted_benchmark as u64, "{}", model["model"]);
    }
    // The text says it too.
    let text = evaltally_in(&workspace_root(), &["--no-cache", "stability", work.to_str().unwrap()], &[]);
    assert!(
        text.stdout.contains(&format!("across models: {planted_benchmark} flaky tests are the benchmark's")),
        "{}",
        text.stdout
    );
}

#[test]
fn reference_runs_take_the_tests_they_fail_out_of_the_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("W");
    generate("gen_flaky_sources.py", &["--models", "3", "--runs", "6", "--tests", "90", "--seed", "9"], &work);
    // One model's runs as the reference: what it fails or flips on is the benchmark's.
    let models: Vec<String> =
        std::fs::read_dir(&work).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let reference = work.join(&models[0]);
    let others: Vec<String> = models[1..].iter().map(|m| work.join(m).to_string_lossy().into_owned()).collect();
    let mut args = vec!["--no-cache", "stability"];
    args.extend(others.iter().map(String::as_str));
    args.extend(["--format", "json", "--reference", reference.to_str().unwrap()]);
    let got = json(&args);
    let alone = json(&["--no-cache", "stability", reference.to_str().unwrap(), "--format", "json"]);
    // Broken under the reference: its stable fails and its flaky tests.
    let mut broken: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in alone["models"][0]["categories"].as_array().unwrap() {
        for t in c["tests"].as_array().unwrap() {
            if t["passed"] != t["runs"] {
                broken
                    .entry(c["category"].as_str().unwrap().to_string())
                    .or_default()
                    .insert(t["id"].as_str().unwrap().to_string());
            }
        }
    }
    let said: BTreeMap<String, BTreeSet<String>> =
        got["reference"]["broken"].as_object().unwrap().iter().map(|(c, v)| (c.clone(), ids(v))).collect();
    assert_eq!(said, broken);
    let total: usize = broken.values().map(BTreeSet::len).sum();
    assert_eq!(got["reference"]["left_out"], total);
    assert!(got["models"].as_array().unwrap().iter().all(|m| m["model"] != models[0].as_str()));
    for m in got["models"].as_array().unwrap() {
        for c in m["categories"].as_array().unwrap() {
            let left = &broken[c["category"].as_str().unwrap()];
            assert!(c["tests"].as_array().unwrap().iter().all(|t| !left.contains(t["id"].as_str().unwrap())));
        }
    }
}

#[test]
fn per_test_verdicts_find_every_planted_change_within_the_false_discovery_rate() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("W");
    let truth = generate("gen_groups.py", &["--runs", "20", "--tests", "300", "--seed", "7"], &work);
    let (base, new) = (work.join("base"), work.join("new"));
    let got = json(&[
        "--no-cache",
        "compare",
        "--base",
        base.to_str().unwrap(),
        "--new",
        new.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let mut verdicts: BTreeMap<String, Value> = BTreeMap::new();
    for m in got["models"].as_array().unwrap() {
        for c in m["categories"].as_array().unwrap() {
            for t in c["test_verdicts"].as_array().unwrap() {
                verdicts.insert(t["id"].as_str().unwrap().to_string(), t.clone());
            }
        }
    }
    for (kind, verdict) in [("regressed", "regressed"), ("improved", "improved")] {
        for id in ids(&truth[kind]) {
            assert_eq!(verdicts[&id]["verdict"], verdict, "{id}: {}", verdicts[&id]);
        }
    }
    let noise = ids(&truth["noise"]);
    let discoveries: Vec<&String> = verdicts
        .iter()
        .filter(|(_, v)| v["verdict"] == "regressed" || v["verdict"] == "improved")
        .map(|(k, _)| k)
        .collect();
    let false_ones = discoveries.iter().filter(|id| noise.contains(id.as_str())).count();
    assert!(
        false_ones as f64 <= 0.05 * discoveries.len() as f64,
        "{false_ones} of {} discoveries are noise",
        discoveries.len()
    );
    // Every undecided test says what would decide it; no change means the same rates.
    for v in verdicts.values() {
        match v["verdict"].as_str().unwrap() {
            "undecided" => assert!(v["runs_needed"].as_u64().is_none_or(|n| n > 20), "{v}"),
            "no_change" => assert_eq!(v["base_rate"], v["new_rate"], "{v}"),
            _ => {}
        }
    }
    let text = evaltally_in(
        &workspace_root(),
        &["--no-cache", "compare", "--base", base.to_str().unwrap(), "--new", new.to_str().unwrap()],
        &[],
    );
    assert!(text.stdout.contains("tests regressed ("), "{}", text.stdout);
    assert!(text.stdout.contains("tests undecided"), "{}", text.stdout);
}

#[test]
fn cost_per_passed_test_and_what_a_budget_buys() {
    let cost = json(&["--no-cache", "cost", "testdata/gstack/evals", "--format", "json"]);
    for m in cost["models"].as_array().unwrap() {
        let (usd, passed) = (m["usd"].as_f64().unwrap(), m["passed"].as_u64().unwrap());
        assert!(passed > 0);
        assert!((m["usd_per_pass"].as_f64().unwrap() - usd / passed as f64).abs() < 1e-9, "{m}");
        let runs: f64 = m["runs_with_cost"].as_f64().unwrap();
        assert!((m["usd_per_run"].as_f64().unwrap() - usd / runs).abs() < 1e-9, "{m}");
    }
    for r in cost["runs"].as_array().unwrap().iter().filter(|r| r["usd_per_pass"].is_number()) {
        let usd = r["declared_usd"].as_f64().or_else(|| r["total"]["cost_usd"].as_f64()).unwrap();
        assert!((r["usd_per_pass"].as_f64().unwrap() - usd / r["passed"].as_f64().unwrap()).abs() < 1e-9, "{r}");
    }
    let plan = json(&["--no-cache", "plan", "testdata/gstack/evals", "--format", "json", "--budget", "10"]);
    let per_run = cost["models"][0]["usd_per_run"].as_f64().unwrap();
    let model = &plan["models"][0];
    assert!((model["usd_per_run"].as_f64().unwrap() - per_run).abs() < 1e-9);
    let budget = &model["overall"]["budget"];
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let runs = (10.0 / per_run).floor() as u64;
    assert_eq!(budget["runs"].as_u64(), Some(runs), "{budget}");
    if let Some(more) = model["overall"]["more_runs"].as_f64() {
        assert!((model["overall"]["more_runs_usd"].as_f64().unwrap() - more * per_run).abs() < 1e-9);
    }
}
