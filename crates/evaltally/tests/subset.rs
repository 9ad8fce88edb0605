//! `subset`, `estimate` and `plan --subset-error` on runs of many models whose outcomes
//! follow planted parameters (`xtask/bench/gen_irt.py`): the file they write, the estimate of
//! a model from its runs of the anchors alone (and the line `report` and `serve` show), and
//! the leave-one-model-out check.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::evaltally_in;
use evaltally_testkit::http::Serving;
use evaltally_testkit::workspace_root;
use serde_json::Value;

/// Planted runs of `models` models × `tests` tests in 3 categories, 2 runs each, and the
/// planted parameters with each model's full score.
fn planted(dir: &Path, models: usize, tests: usize) -> Value {
    let script = workspace_root().join("xtask/bench/gen_irt.py");
    let output = Command::new("python3")
        .arg(&script)
        .args(["--models", &models.to_string(), "--tests", &tests.to_string(), "--categories", "3"])
        .args(["--runs", "2", "--seed", "5", "--expected"])
        .arg(dir)
        .output()
        .expect("python3 runs the generator");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn json(run: &common::Run) -> Value {
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

#[test]
fn a_subset_is_fitted_written_and_estimates_a_model_from_its_anchors_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let truth = planted(&tmp.path().join("all"), 16, 300);
    let d = tmp.path();

    // Fit on every model but one of middling ability (an extreme one is an extrapolation,
    // which docs/statistics.md warns of); write the subset.
    let mut by_score: Vec<(f64, String)> = truth["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .map(|m| (truth["score"][&m]["overall"].as_f64().unwrap(), m))
        .collect();
    by_score.sort_by(|a, b| a.0.total_cmp(&b.0));
    let last = by_score[by_score.len() / 2].1.clone();
    let mut fit = vec!["subset", "all", "--size", "30", "-o", "subset.json"];
    let others: Vec<String> = truth["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .filter(|m| *m != last)
        .collect();
    for m in &others {
        fit.extend(["--model", m]);
    }
    let run = evaltally_in(d, &fit, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("on 15 models × 300 tests in 3 categories"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("wrote subset.json (`evaltally estimate PATH --subset subset.json`)\n"),
        "{}",
        run.stdout
    );
    let subset: Value = serde_json::from_str(&std::fs::read_to_string(d.join("subset.json")).unwrap()).unwrap();
    assert_eq!(subset["schema"], "evaltally.subset/1");
    assert_eq!(subset["anchors"].as_array().unwrap().len(), 30);
    assert_eq!(subset["tests"].as_array().unwrap().len(), 300);
    assert_eq!(subset["fitted_on"]["models"].as_array().unwrap().len(), 15);

    // Keep only the anchors of the left-out model's runs: its BFCL result and score files
    // with the anchors' lines alone.
    let anchors: std::collections::BTreeSet<String> =
        subset["anchors"].as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_string()).collect();
    for run in ["run-1", "run-2"] {
        for tree in ["result", "score"] {
            let from = d.join("all").join(run).join(tree).join(&last);
            let to = d.join("new").join(run).join(tree).join(&last);
            std::fs::create_dir_all(&to).unwrap();
            for e in std::fs::read_dir(&from).unwrap() {
                let e = e.unwrap();
                let text = std::fs::read_to_string(e.path()).unwrap();
                let mut lines = text.lines();
                let mut kept = String::new();
                if tree == "score" {
                    kept.push_str(lines.next().unwrap());
                    kept.push('\n');
                }
                for line in lines {
                    let id: Value = serde_json::from_str(line).unwrap();
                    if anchors.contains(id["id"].as_str().unwrap()) {
                        kept.push_str(line);
                        kept.push('\n');
                    }
                }
                std::fs::write(to.join(e.file_name()), kept).unwrap();
            }
        }
    }
    let estimate = json(&evaltally_in(d, &["estimate", "new", "--subset", "subset.json", "--format", "json"], &[]));
    assert_eq!(estimate["schema"], "evaltally.estimate/1");
    let model = &estimate["models"][0];
    assert_eq!(model["model"], last.as_str());
    let overall = &model["overall"];
    assert_eq!((overall["tests_run"].as_u64(), overall["tests_total"].as_u64()), (Some(30), Some(300)));
    let (est, low, high) =
        (overall["estimate"].as_f64().unwrap(), overall["low"].as_f64().unwrap(), overall["high"].as_f64().unwrap());
    assert!(low <= est && est <= high, "{overall}");
    let truth_overall = truth["score"][&last]["overall"].as_f64().unwrap();
    // Within three standard errors of its full score (the 90% interval is ±1.645 of them).
    let se = overall["se"].as_f64().unwrap();
    assert!(
        se > 0.0 && (est - truth_overall).abs() < 3.0 * se,
        "estimate {est} ± {se} against the full score {truth_overall}"
    );
    for c in model["categories"].as_array().unwrap() {
        assert_eq!(c["tests_run"].as_u64(), Some(10), "{c}");
    }
    // Beside the estimate, what the anchors alone say: per category their weighted mean,
    // overall the mean of the categories'; near the full score on data the model fits.
    let means: Vec<f64> =
        model["categories"].as_array().unwrap().iter().map(|c| c["anchor_mean"].as_f64().unwrap()).collect();
    assert!(means.iter().all(|m| (0.0..=1.0).contains(m)), "{means:?}");
    let anchor_overall = overall["anchor_mean"].as_f64().unwrap();
    assert!((anchor_overall - means.iter().sum::<f64>() / means.len() as f64).abs() < 1e-12, "{overall}");
    assert!((anchor_overall - truth_overall).abs() < 0.15, "anchors {anchor_overall} against {truth_overall}");
    // The same from its full runs: only the anchors are read.
    let full = json(&evaltally_in(
        d,
        &["estimate", "all", "--subset", "subset.json", "--model", &last, "--format", "json"],
        &[],
    ));
    assert_eq!(full["models"][0]["overall"], *overall);
    // Text says the same, with the interval.
    let text = evaltally_in(d, &["estimate", "new", "--subset", "subset.json"], &[]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.starts_with(&format!("{last}: estimated from 30 of 300 tests\n")), "{}", text.stdout);
    assert!(text.stdout.contains("  overall "), "{}", text.stdout);
    insta::assert_snapshot!(text.stdout);
    // A category whose anchors the model did not run is estimated from the others alone:
    // said under its table, and under the several models' lines.
    let dropped = subset["anchors"][0]["category"].as_str().unwrap().to_string();
    for run in ["run-1", "run-2"] {
        for tree in ["result", "score"] {
            let to = d.join("part").join(run).join(tree).join("partial");
            std::fs::create_dir_all(&to).unwrap();
            for e in std::fs::read_dir(d.join("new").join(run).join(tree).join(&last)).unwrap() {
                let e = e.unwrap();
                if !e.file_name().to_string_lossy().contains(&format!("_{dropped}_")) {
                    std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
                }
            }
        }
    }
    let part_one = evaltally_in(d, &["estimate", "part", "--subset", "subset.json"], &[]);
    assert_eq!(part_one.code, 0, "{}", part_one.stderr);
    assert!(part_one.stdout.contains(&format!("  {dropped} ")), "{}", part_one.stdout);
    assert!(
        part_one
            .stdout
            .contains(&format!("\n  no anchor of {dropped} run: its estimate comes from the other categories alone\n")),
        "{}",
        part_one.stdout
    );
    let two = evaltally_in(d, &["estimate", "new", "part", "--subset", "subset.json"], &[]);
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert!(
        two.stdout.contains("\nno anchor run in some categories: partial (1 category). Those categories are estimated from the others alone; --detail names them\n"),
        "{}",
        two.stdout
    );
    // Several models are a line each, each line the overall estimate the JSON gives;
    // --detail gives each one's categories.
    let all = evaltally_in(d, &["estimate", "all", "--subset", "subset.json"], &[]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let lines: Vec<&str> = all.stdout.lines().collect();
    assert!(lines[0].trim_start().starts_with("model "), "{}", all.stdout);
    assert!(lines[1..=16].iter().all(|l| l.ends_with("30 of 300") && l.contains('–')), "{}", all.stdout);
    assert_eq!(lines[17], "", "{}", all.stdout);
    assert!(lines[18].starts_with("16 models. "), "{}", all.stdout);
    let all_json = json(&evaltally_in(d, &["estimate", "all", "--subset", "subset.json", "--format", "json"], &[]));
    for m in all_json["models"].as_array().unwrap() {
        let shown = format!("{:.1}%", 100.0 * m["overall"]["estimate"].as_f64().unwrap());
        let name = m["model"].as_str().unwrap();
        let line = lines.iter().find(|l| l.trim_start().starts_with(&format!("{name} "))).unwrap();
        assert!(line.contains(&format!(" {shown} ")), "{name}: {shown} in {line}");
    }
    let detail = evaltally_in(d, &["estimate", "all", "--subset", "subset.json", "--detail"], &[]);
    assert_eq!(detail.stdout.matches(": estimated from 30 of 300 tests\n").count(), 16, "{}", detail.stdout);

    // `report` and `serve` given the subset carry the same estimate, in one line.
    let line = format!(
        "estimated full score {:.1}% (90% interval {:.1}%–{:.1}%) from 30 of 300 tests: `evaltally estimate` says more",
        100.0 * est,
        100.0 * low,
        100.0 * high
    );
    let report = evaltally_in(d, &["report", "new", "--subset", "subset.json", "-o", "with.html"], &[]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let data = common::report_data(&std::fs::read_to_string(d.join("with.html")).unwrap());
    assert_eq!(data["models"][0]["estimate"], line.as_str());
    let report = evaltally_in(d, &["report", "new", "-o", "without.html"], &[]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let data = common::report_data(&std::fs::read_to_string(d.join("without.html")).unwrap());
    assert!(data["models"][0].get("estimate").is_none(), "{}", data["models"][0]);
    let cache = d.join("cache").to_string_lossy().into_owned();
    let server = Serving::start(
        Path::new(env!("CARGO_BIN_EXE_evaltally")),
        d,
        &["new", "--subset", "subset.json"],
        &[("EVALTALLY_CACHE", &cache)],
    );
    assert!(server.wait_line("load 1:", Duration::from_mins(1)).is_some());
    let summary = server.get("/api/summary").json();
    evaltally_testkit::schema::assert_valid(&summary, "/api/summary");
    assert_eq!(summary["estimate"], line.as_str(), "{summary}");
}

#[test]
fn check_and_plan_say_how_well_a_size_predicts() {
    let tmp = tempfile::tempdir().unwrap();
    planted(&tmp.path().join("all"), 12, 240);
    let check = json(&evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--check", "--format", "json"], &[]));
    assert_eq!(check["schema"], "evaltally.subset-check/1");
    assert_eq!(check["models"].as_array().unwrap().len(), 12);
    let median = check["median_error"].as_f64().unwrap();
    assert!(median < check["baseline"]["median_error"].as_f64().unwrap() + 0.01, "{check}");
    assert!(median < 0.05, "{check}");
    assert!(check["spearman"].as_f64().unwrap() > 0.8, "{check}");
    // Each category's figures are those of the models' estimates of it.
    let categories = check["categories"].as_array().unwrap();
    assert_eq!(categories.len(), 3, "{check}");
    assert_eq!(categories.iter().map(|c| c["anchors"].as_u64().unwrap()).sum::<u64>(), 24);
    for c in categories {
        let name = c["category"].as_str().unwrap();
        let cells: Vec<&Value> = check["models"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["categories"].as_array().unwrap())
            .filter(|x| x[0] == name)
            .collect();
        assert_eq!(cells.len(), 12, "{name}");
        let error = |x: &&Value| (x[2].as_f64().unwrap() - x[1].as_f64().unwrap()).abs();
        let worst = cells.iter().map(error).fold(0.0, f64::max);
        assert!((c["worst_error"].as_f64().unwrap() - worst).abs() < 1e-12, "{c}");
        let covered = cells.iter().filter(|x| x[3].as_f64() <= x[1].as_f64() && x[1].as_f64() <= x[4].as_f64()).count();
        assert!((c["coverage"].as_f64().unwrap() - covered as f64 / 12.0).abs() < 1e-12, "{c}");
        assert!(c["random_median_error"].as_f64().unwrap() > 0.0, "{c}");
    }
    // Each left-out model's anchor mean is what `estimate` gives it from the subset fitted
    // on the others.
    let first = &check["models"][0];
    let name = first["model"].as_str().unwrap();
    let mut fit = vec!["subset", "all", "--size", "24", "-o", "without.json"];
    let others: Vec<&str> = check["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["model"].as_str().unwrap())
        .filter(|m| *m != name)
        .collect();
    for m in &others {
        fit.extend(["--model", m]);
    }
    assert_eq!(evaltally_in(tmp.path(), &fit, &[]).code, 0);
    let alone = json(&evaltally_in(
        tmp.path(),
        &["estimate", "all", "--subset", "without.json", "--model", name, "--format", "json"],
        &[],
    ));
    assert_eq!(first["anchor_mean"], alone["models"][0]["overall"]["anchor_mean"], "{first}");
    assert_eq!(first["estimate"], alone["models"][0]["overall"]["estimate"], "{first}");
    let text = evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--check"], &[]);
    assert!(text.stdout.starts_with("leave-one-model-out over 12 models, 24 anchors"), "{}", text.stdout);
    let first_category = categories[0]["category"].as_str().unwrap();
    let row = text.stdout.lines().find(|l| l.starts_with(&format!("  {first_category} "))).unwrap();
    assert!(row.contains(&format!(" {} of 80 ", categories[0]["anchors"])), "{row}");
    let worst = text.stdout.lines().skip_while(|l| *l != "models predicted worst:").nth(1).unwrap();
    let shown = check["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| worst.starts_with(&format!("  {}: ", m["model"].as_str().unwrap())))
        .unwrap();
    let mean = format!(", anchor mean {:.1}%, ", 100.0 * shown["anchor_mean"].as_f64().unwrap());
    assert!(worst.contains(&mean), "{worst} lacks {mean}");
    // plan --subset-error tries 25, 50, … until the median error is reached.
    let plan = json(&evaltally_in(tmp.path(), &["plan", "all", "--subset-error", "0.2", "--format", "json"], &[]));
    let sizes = plan["subset"]["sizes"].as_array().unwrap();
    assert_eq!(sizes[0]["size"], 25);
    assert_eq!(plan["subset"]["size"], 25, "{plan}");
    // Too few models to fit is a usage error.
    let few = evaltally_in(tmp.path(), &["subset", "all", "--model", "model-000"], &[]);
    assert_eq!(few.code, 2, "{}", few.stderr);
    assert!(few.stderr.contains("at least 2 models over the same tests; found 1 model, "), "{}", few.stderr);
    // Two are enough to fit, not to leave one out and fit on the other.
    let two = ["subset", "all", "--model", "model-000", "--model", "model-001", "--check"];
    let two = evaltally_in(tmp.path(), &two, &[]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    assert!(two.stderr.contains("needs at least 3 models that ran every category; found 2 models"), "{}", two.stderr);
}

#[test]
fn check_leaves_out_a_model_that_did_not_run_every_category_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    planted(&tmp.path().join("all"), 12, 240);
    // model-003 never ran `parallel`: its runs of the other two categories still count in
    // every fit, but it has no full score to hold an estimate of the full score against.
    for run in ["run-1", "run-2"] {
        for tree in ["result", "score"] {
            let file = format!("all/{run}/{tree}/model-003/BFCL_v4_parallel_{tree}.json");
            std::fs::remove_file(tmp.path().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        }
    }
    let check = json(&evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--check", "--format", "json"], &[]));
    let checked: Vec<&str> = check["models"].as_array().unwrap().iter().map(|m| m["model"].as_str().unwrap()).collect();
    assert_eq!(checked.len(), 11, "{check}");
    assert!(!checked.contains(&"model-003"), "{check}");
    assert_eq!(
        check["not_checked"],
        serde_json::json!([{"model": "model-003", "categories_run": 2, "categories": 3}]),
        "{check}"
    );
    evaltally_testkit::schema::assert_valid(&check, "subset --check");
    let text = evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--check"], &[]);
    assert!(text.stdout.starts_with("leave-one-model-out over 11 models, 24 anchors"), "{}", text.stdout);
    assert!(
        text.stdout.lines().any(|l| l
            == "not checked: 1 model did not run every category, so has no full score to compare with: model-003 (2 of 3 categories)"),
        "{}",
        text.stdout
    );
}

/// `--size CATEGORY=N` gives a category its own count out of the total, the others share
/// the rest; `--check` and the random baseline use the same counts; a category not in the
/// runs, a count past its tests and fixed counts past the total are usage errors.
#[test]
fn a_category_given_its_own_size_gets_it() {
    let tmp = tempfile::tempdir().unwrap();
    planted(&tmp.path().join("all"), 12, 240);
    let even = json(&evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--format", "json"], &[]));
    let categories: Vec<&str> =
        even["categories"].as_array().unwrap().iter().map(|c| c["category"].as_str().unwrap()).collect();
    let anchors = |subset: &Value| -> Vec<u64> {
        subset["categories"].as_array().unwrap().iter().map(|c| c["anchors"].as_u64().unwrap()).collect()
    };
    assert_eq!(anchors(&even), [8, 8, 8], "{even}");
    let second = format!("{}=12", categories[1]);
    let fixed =
        json(&evaltally_in(tmp.path(), &["subset", "all", "--size", "24", "--size", &second, "--format", "json"], &[]));
    assert_eq!(anchors(&fixed), [6, 12, 6], "{fixed}");
    assert_eq!(fixed["anchors"].as_array().unwrap().len(), 24);
    // Without a total, the default 100 is shared: 12 here, 44 each to the others.
    let alone = json(&evaltally_in(tmp.path(), &["subset", "all", "--size", &second, "--format", "json"], &[]));
    assert_eq!(anchors(&alone), [44, 12, 44], "{alone}");
    let check = json(&evaltally_in(
        tmp.path(),
        &["subset", "all", "--size", "24", "--size", &second, "--check", "--format", "json"],
        &[],
    ));
    assert_eq!(check["size"], 24, "{check}");
    for (args, said) in [
        (vec!["--size", "nothing-like-it=3"], "--size: no category `nothing-like-it` in the runs (they have "),
        (vec!["--size", "24", "--size", &format!("{}=999", categories[0])], "fewer than the 999 anchors asked"),
        (vec!["--size", "10", "--size", &second], "the categories given take 12 anchors, more than the 10 in all"),
        (vec!["--size", "=3"], "expected CATEGORY=N, found no category"),
        (vec!["--size", &format!("{}=many", categories[0])], "expected a whole number of anchors, found `many`"),
    ] {
        let run = evaltally_in(tmp.path(), &[&["subset", "all"], args.as_slice()].concat(), &[]);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(said), "{args:?}: {}", run.stderr);
    }
}
