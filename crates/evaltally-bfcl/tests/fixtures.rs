//! Golden tests: every BFCL fixture under `testdata/bfcl/` read through the adapter, with
//! every test's outcome and every diagnostic, compared with a reviewed snapshot.

use std::fmt::Write as _;
use std::path::Path;

use evaltally_bfcl::{Scratch, layout, read_pair};
use evaltally_testkit::{testdata, workspace_root};

/// Reads every run below `testdata/<rel>` and renders what the adapter saw.
fn render(rel: &str) -> String {
    let root = workspace_root();
    let shown = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    let mut diags = Vec::new();
    let mut runs = layout::find_runs(&testdata(rel), &mut diags).expect("fixture folder exists");
    layout::disambiguate(&mut runs);
    let mut out = String::new();
    let mut scratch = Scratch::default();
    for run in &runs {
        let _ = writeln!(out, "run {} at {}", run.name, shown(&run.root));
        for pair in run.files() {
            let read = read_pair(&pair, &mut scratch);
            diags.extend(read.diagnostics);
            let Some(cat) = read.run else {
                let _ = writeln!(out, "  {} / {}: left out", pair.model, pair.category);
                continue;
            };
            let files: Vec<String> = cat.sources.iter().map(|p| shown(p)).collect();
            let _ = writeln!(
                out,
                "  {} / {}: {} tests, {} passed, {} failed{} <- {}",
                cat.model,
                cat.category,
                cat.len(),
                cat.passed(),
                cat.failed(),
                if cat.scored { "" } else { ", unscored" },
                files.join(" + ")
            );
            for t in cat.tests() {
                let label = t.error_type.map(|e| format!(" {e} [{}]", e.family())).unwrap_or_default();
                let _ = writeln!(out, "    {} {:?}{label}", t.id, t.outcome);
            }
        }
    }
    out.push_str("diagnostics:\n");
    for d in &diags {
        let mut d = d.clone();
        d.path = shown(&d.path).into();
        let _ = writeln!(out, "  {d}");
    }
    out
}

#[test]
fn v4_folder_of_runs() {
    insta::assert_snapshot!(render("bfcl/v4"));
}

#[test]
fn pairs_layout_with_scores_at_other_depths() {
    insta::assert_snapshot!(render("bfcl/pairs"));
}

#[test]
fn v3_project_folder_with_integer_score_ids() {
    insta::assert_snapshot!(render("bfcl/v3-project"));
}

#[test]
fn v1_idx_result_lines_and_unprefixed_scores() {
    insta::assert_snapshot!(render("bfcl/v1"));
}

#[test]
fn every_tolerated_quirk() {
    insta::assert_snapshot!(render("bfcl/quirks"));
}

#[test]
fn a_single_run_folder_and_a_result_folder_are_runs_too() {
    let mut diags = Vec::new();
    let one = layout::find_runs(&testdata("bfcl/v4/run-2"), &mut diags).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].name, "run-2");
    let inner = layout::find_runs(&testdata("bfcl/v4/run-2/result"), &mut diags).unwrap();
    assert_eq!(inner, one);
    let pair = layout::find_runs(&testdata("bfcl/pairs/result-baseline"), &mut diags).unwrap();
    assert_eq!(pair.len(), 1);
    assert_eq!(pair[0].name, "baseline");
    assert!(pair[0].score_root.as_ref().is_some_and(|p| p.ends_with("score-baseline")));
    // run-2's memory prerequisite results, snapshot and leaderboard summary, found by both
    // walks of it, and the pair's summary: said as not read, nothing else.
    let said: Vec<&std::ffi::OsStr> = diags.iter().filter_map(|d| d.path.file_name()).collect();
    assert!(diags.iter().all(evaltally_core::Diagnostic::is_fact_not_read), "{diags:?}");
    let run_2 = ["BFCL_v4_memory_kv_prereq_result.json", "customer_final.json", "data_overall.csv"];
    assert_eq!(said, [&run_2[..], &run_2[..], &["data_live.csv"]].concat(), "{diags:?}");
}

#[test]
fn missing_paths_are_errors_and_other_files_no_runs() {
    let mut diags = Vec::new();
    let missing = layout::find_runs(&testdata("bfcl/no-such-folder"), &mut diags).unwrap_err();
    assert!(missing.to_string().contains("no-such-folder"), "{missing}");
    // A file that is not BFCL's gives no run (the registry says what it is, or that it is nothing).
    let file = testdata("bfcl/v4/run-1/score/data_overall.csv");
    assert!(layout::find_runs(&file, &mut diags).unwrap().is_empty());
}

#[test]
fn duplicate_run_names_get_their_parent_folder() {
    let mut runs = Vec::new();
    let mut diags = Vec::new();
    runs.extend(layout::find_runs(&testdata("bfcl/v4/run-1"), &mut diags).unwrap());
    let copy = tempfile::tempdir().unwrap();
    let other = copy.path().join("elsewhere").join("run-1");
    std::fs::create_dir_all(other.join("result/acme")).unwrap();
    std::fs::write(other.join("result/acme/BFCL_v4_simple_result.json"), "{\"id\": \"simple_0\"}\n").unwrap();
    runs.extend(layout::find_runs(&other, &mut diags).unwrap());
    layout::disambiguate(&mut runs);
    assert_eq!(runs[0].name, "v4/run-1");
    assert_eq!(runs[1].name, "elsewhere/run-1");
}

/// BFCL's leaderboard summaries are its files (said as not read) only in a score folder:
/// elsewhere their names say too little.
#[test]
fn leaderboard_summaries_are_known_in_a_score_folder_only() {
    for path in [
        "run/score/data_overall.csv",
        "run/score/data_format_sensitivity.csv",
        "2024-08-11/score-BFCL/data.csv",
        "pairs/score-baseline/data_live.csv",
    ] {
        assert!(layout::is_bfcl_file(Path::new(path)), "{path}");
    }
    for path in
        ["run/score/data_other.csv", "site/data_live.csv", "data.csv", "run/scores/data.csv", "run/score/data.json"]
    {
        assert!(!layout::is_bfcl_file(Path::new(path)), "{path}");
    }
}
