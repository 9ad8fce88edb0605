//! `evaltally compare`: every output format, both modes, gates and usage errors, on the
//! golden fixtures in `testdata/bfcl/`.

mod common;

use common::evaltally;

const RUN1: &str = "testdata/bfcl/v4/run-1";
const RUN2: &str = "testdata/bfcl/v4/run-2";
const RUN10: &str = "testdata/bfcl/v4/run-10";

#[test]
fn two_runs_as_text() {
    insta::assert_snapshot!(evaltally(&["compare", RUN1, RUN2]).transcript());
}

#[test]
fn two_runs_as_json() {
    let run = evaltally(&["compare", RUN1, RUN2, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    // simple_python run-1 → run-2 from the fixture plan: 2 (PFP) and 11 (PPF) regress, 8 (FPP) improves;
    // 6 is listed in both; 7 ran only in run-1.
    let sp =
        doc["models"][1]["categories"].as_array().unwrap().iter().find(|c| c["category"] == "simple_python").unwrap();
    assert_eq!(sp["regressions"], serde_json::json!(["simple_python_2"]));
    assert_eq!(sp["improvements"], serde_json::json!(["simple_python_8"]));
    assert_eq!(sp["only_in_base"], serde_json::json!(["simple_python_7"]));
    assert_eq!(sp["common"], 11);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn two_runs_as_markdown() {
    insta::assert_snapshot!(evaltally(&["compare", RUN1, RUN10, "--format", "markdown"]).transcript());
}

#[test]
fn two_groups_as_text_and_json() {
    let args = ["compare", "--base", RUN1, RUN2, "--new", RUN10, "--model", "acme_tiny-7b"];
    let text = evaltally(&args);
    let json = evaltally(&[&args[..], &["--format", "json"]].concat());
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["mode"], "groups");
    assert_eq!(doc["base_runs"], serde_json::json!(["run-1", "run-2"]));
    let sp =
        doc["models"][0]["categories"].as_array().unwrap().iter().find(|c| c["category"] == "simple_python").unwrap();
    // Base PP/PF, new P or F per test: 11 (PP → F) is a consistent regression; 2 (PF → P) and 8
    // (FP → P) rise but touch a flaky base; 6 (PP, not run in new) is only in base.
    assert_eq!(sp["regressions"], serde_json::json!(["simple_python_11"]));
    assert_eq!(sp["improvements"], serde_json::json!([]));
    assert_eq!(sp["flaky_improvements"], serde_json::json!(["simple_python_2", "simple_python_8"]));
    assert_eq!(sp["only_in_base"], serde_json::json!(["simple_python_6"]));
    assert_eq!(sp["base_passed"], 7.5);
    insta::assert_snapshot!(text.transcript());
}

#[test]
fn scores_at_another_depth_and_tests_on_one_side() {
    insta::assert_snapshot!(
        evaltally(&["compare", "testdata/bfcl/pairs/result-baseline", "testdata/bfcl/pairs/result-parser-fix"])
            .transcript()
    );
}

#[test]
fn fail_on_regressions_and_significant() {
    let plain = evaltally(&["compare", RUN1, RUN2]);
    assert_eq!(plain.code, 0);
    let gate = evaltally(&["compare", RUN1, RUN2, "--fail-on", "regressions"]);
    assert_eq!(gate.code, 1);
    assert_eq!(gate.stdout, plain.stdout);
    // stderr says why, so that a CI log shows it wherever stdout went.
    assert!(
        gate.stderr
            .starts_with("--fail-on regressions: 4 tests regressed: acme_tiny-7b / live_simple / live_simple_2-1-0, "),
        "{}",
        gate.stderr
    );
    assert!(plain.stderr.is_empty(), "{}", plain.stderr);
    // A handful of flips in small categories is not a significant drop.
    assert_eq!(evaltally(&["compare", RUN1, RUN2, "--fail-on", "significant"]).code, 0);
    // No regression at all: the gate stays open.
    let same = evaltally(&["compare", RUN1, RUN1, "--fail-on", "regressions"]);
    assert_eq!(same.code, 0, "{}", same.stdout);
}

#[test]
fn usage_errors_exit_2() {
    let one = evaltally(&["compare", RUN1]);
    assert_eq!(one.code, 2);
    assert!(one.stderr.contains("two run folders"), "{}", one.stderr);
    let folder = evaltally(&["compare", "testdata/bfcl/v4", RUN1]);
    assert_eq!(folder.code, 2);
    assert!(folder.stderr.contains("holds 3 runs (run-1, run-2, run-10); name one run folder"), "{}", folder.stderr);
    // A file of several trials has no folder to name: it is a group.
    let trials = "testdata/tau2/acme-7b-telecom.json";
    let file = evaltally(&["compare", trials, trials]);
    assert_eq!(file.code, 2);
    assert!(file.stderr.contains("compares as a group: `evaltally compare --base BASE --new NEW`"), "{}", file.stderr);
    assert_eq!(evaltally(&["compare", "--base", trials, "--new", trials]).code, 0);
    assert_eq!(evaltally(&["compare", "--base", RUN1]).code, 2);
    assert_eq!(evaltally(&["compare", RUN1, RUN2, "--base", RUN1, "--new", RUN2]).code, 2);
    assert_eq!(evaltally(&["compare", "testdata/not-bfcl", RUN1]).code, 2);
}

/// The JSON report carries what each run records about itself, and the efficiency figures.
#[test]
fn json_carries_run_metadata_and_efficiency() {
    let run = evaltally(&[
        "compare",
        "testdata/gstack/standard/nightly-1.json",
        "testdata/gstack/standard/nightly-2.json",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["run_meta"]["nightly-2026-03-16"]["git_sha"], "b7e21c9");
    assert_eq!(doc["run_meta"]["nightly-2026-03-17"]["git_branch"], "main");
    assert_eq!(doc["efficiency"]["common"], 4);
    assert_eq!(doc["efficiency"]["base"]["cost_usd"], 1.9);
}

/// Token counts near `u64::MAX` (a damaged or hostile file) are summed without overflow:
/// `compare` and `convert` finish.
#[test]
fn token_counts_near_the_largest_integer_do_not_overflow() {
    let dir = tempfile::tempdir().unwrap();
    for run in ["run-1", "run-2"] {
        evaltally_testkit::copy_folder(&evaltally_testkit::testdata(&format!("bfcl/v4/{run}")), &dir.path().join(run));
    }
    let file = dir.path().join("run-2/result/acme_tiny-7b/non_live/BFCL_v4_simple_python_result.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let huge = with_numbers_after(&text, "\"input_token_count\": ", "18446744073709551615");
    assert_ne!(huge, text, "the fixture records input token counts");
    std::fs::write(&file, huge).unwrap();
    let (base, new) = (dir.path().join("run-1"), dir.path().join("run-2"));
    let compare = evaltally(&["compare", base.to_str().unwrap(), new.to_str().unwrap()]);
    assert!(!compare.stderr.contains("panicked") && compare.code != 101, "{}", compare.stderr);
    let out = dir.path().join("run-2.gstack.json");
    let convert = evaltally(&["convert", new.to_str().unwrap(), "--to", "gstack", "-o", out.to_str().unwrap()]);
    assert!(!convert.stderr.contains("panicked") && convert.code != 101, "{}", convert.stderr);
}

/// `text` with the number after each `key` replaced by `value`.
fn with_numbers_after(text: &str, key: &str, value: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        let start = at + key.len();
        out.push_str(&rest[..start]);
        out.push_str(value);
        rest = rest[start..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// A run compared with itself is said: nothing can differ.
#[test]
fn a_run_compared_with_itself_is_said() {
    let same = evaltally(&["compare", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-1"]);
    assert!(
        same.stderr.contains("testdata/bfcl/v4/run-1: warning: BASE and NEW were read from the same files"),
        "{}",
        same.stderr
    );
    let two = evaltally(&["compare", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2"]);
    assert!(!two.stderr.contains("same files"), "{}", two.stderr);
}

/// Two sides with no test in common compare nothing: said, and exit 2 whatever the gates,
/// so that a CI job given the wrong folder does not pass as "no regressions".
#[test]
fn nothing_in_common_exits_2_under_every_gate() {
    let (base, new) = ("testdata/gstack/standard/nightly-1.json", "testdata/bfcl/v4/run-1");
    for gate in [&[][..], &["--fail-on", "regressions"], &["--fail-on", "significant"], &["--require-conclusive"]] {
        let run = evaltally(&[&["compare", base, new][..], gate].concat());
        assert_eq!(run.code, 2, "{gate:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("nothing compared: no test is in both BASE and NEW (claude-sonnet-4-6 → acme_tiny-7b)"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.contains("not compared"), "the sides are still shown: {}", run.stdout);
    }
    // A comparison with tests in common is not affected.
    let two = evaltally(&["compare", "testdata/bfcl/v4/run-1", "testdata/bfcl/v4/run-2"]);
    assert_ne!(two.code, 2, "{}", two.stderr);
    assert!(!two.stderr.contains("nothing compared"), "{}", two.stderr);
}

/// Groups whose counts are means (a test errored in one run of a side: `83.5/199.5`) keep
/// the table's columns in line: each row's `common` ends where its head does.
#[test]
fn fractional_counts_keep_the_columns_in_line() {
    let Some(dir) = evaltally_testkit::refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let d = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let (b1, b2, n1, n2) = (d("v0.10.2"), d("v0.11.0"), d("2025-11-12-main"), d("2025-11-12-harmony-fixes"));
    let run = evaltally(&["compare", "--base", &b1, &b2, "--new", &n1, &n2]);
    assert!(run.stdout.contains(".5/"), "a mean count in the table: {}", run.stdout);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let head = lines.iter().position(|l| l.trim_start().starts_with("category ")).unwrap();
    let end = |line: &str| line.find(" common").map(|i| i + " common".len());
    let column_end = end(lines[head]).unwrap();
    let rows: Vec<&str> = lines[head + 1..].iter().take_while(|l| !l.is_empty()).copied().collect();
    assert!(rows.len() > 2, "{}", run.stdout);
    for row in rows {
        // The common count is the third number column: the text before it ends at the same
        // place in every row.
        let cells: Vec<&str> = row.split_whitespace().collect();
        let rate = cells.iter().rposition(|c| c.ends_with('%')).unwrap();
        let common = cells[rate + 1];
        let at = row.find(&format!(" {common} ")).map(|i| i + 1 + common.len());
        assert_eq!(at, Some(column_end), "{row}\n{}", lines[head]);
    }
}
