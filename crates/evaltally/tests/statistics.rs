//! The statistics of issue 13 end to end: `plan`, `stability --cluster-by`, and compare's
//! verdicts, `--effect`, `--correction`, `--fail-on significant` and `--require-conclusive`.

mod common;

use common::{evaltally, session};

const RUNS: &str = "testdata/bfcl/v4";
const RUN1: &str = "testdata/bfcl/v4/run-1";
const RUN2: &str = "testdata/bfcl/v4/run-2";

#[test]
fn plan_in_every_format() {
    insta::assert_snapshot!(session(&[
        &["plan", RUNS, "--model", "acme_tiny-7b"],
        &["plan", RUNS, "--model", "acme_tiny-7b", "--target-se", "0.05", "--format", "markdown"],
        &["plan", RUNS, "--model", "acme_tiny-7b", "--category", "simple_python", "--format", "json"],
        // One run: nothing tells run-to-run variance; the plan says so, and JSON has nulls.
        &["plan", RUN1, "--model", "acme_tiny-7b", "--category", "simple_python", "--format", "json"],
    ]));
}

#[test]
fn plan_refuses_a_target_that_is_no_standard_error() {
    for bad in ["0", "-0.1", "1", "NaN"] {
        let run = evaltally(&["plan", RUNS, "--target-se", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
    }
}

#[test]
fn cluster_by_group_pools_tests_sharing_context() {
    insta::assert_snapshot!(session(&[&[
        "stability",
        RUNS,
        "--model",
        "acme_tiny-7b",
        "--category",
        "live_simple",
        "--category",
        "memory_kv",
        "--cluster-by",
        "group",
        "--detail"
    ]]));
}

#[test]
fn compare_correction_and_effect() {
    insta::assert_snapshot!(session(&[
        &[
            "compare",
            RUN1,
            RUN2,
            "--model",
            "acme_tiny-7b",
            "--correction",
            "none",
            "--effect",
            "0.5",
            "--format",
            "markdown"
        ],
        &["compare", RUN1, RUN2, "--model", "acme_tiny-7b", "--category", "live_simple", "--format", "json"],
    ]));
}

#[test]
fn require_conclusive_exits_3_and_fail_on_still_wins() {
    // A handful of tests cannot rule out a 5-point change: inconclusive.
    let run = evaltally(&["compare", RUN1, RUN2, "--require-conclusive"]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.starts_with("--require-conclusive: inconclusive for acme_tiny-7b (overall, "), "{}", run.stderr);
    // With a 100-point effect every verdict is conclusive.
    let wide = evaltally(&["compare", RUN1, RUN1, "--require-conclusive", "--effect", "1"]);
    assert_eq!(wide.code, 0, "{}", wide.stdout);
    // A tripped --fail-on gate exits 1, even when a verdict is inconclusive too.
    let gate = evaltally(&["compare", RUN1, RUN2, "--require-conclusive", "--fail-on", "regressions"]);
    assert_eq!(gate.code, 1);
    assert_eq!(evaltally(&["compare", RUN1, RUN2, "--effect", "0"]).code, 2);
}

/// Acceptance on the bbrowning gpt-oss-120b runs in `../shared/refdata`: stability prints
/// per category the SE, the clustered SE and the run-to-run share; `plan --target-se 0.01`
/// gives a run count; compare of two single runs keeps the exact McNemar p-value
/// (`multi_turn_base` v0.11.0 → harmony-fixes, 18 regressions and 58 improvements,
/// p = 4.7e-6, BFCL's counting).
#[test]
fn bbrowning_runs() {
    let Some(root) = evaltally_testkit::refdata("bfcl/bbrowning-bfcl-vllm-results/results") else { return };
    let root = root.to_string_lossy().into_owned();
    let m = ["--model", "openai_gpt-oss-120b", "--errors-as", "fail"];
    let stability = evaltally(&[&["stability", root.as_str(), "--detail"][..], &m[..]].concat());
    assert_eq!(stability.code, 0, "{}", stability.stderr);
    let row = stability.stdout.lines().find(|l| l.contains("multi_turn_base") && l.contains('±')).unwrap();
    assert!(row.contains("51.5%") && row.contains("±1.6") && row.contains("±2.6") && row.contains("57%"), "{row}");

    let plan = evaltally(&[&["plan", root.as_str(), "--target-se", "0.01"][..], &m[..]].concat());
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    let row = plan.stdout.lines().find(|l| l.trim_start().starts_with("multi_turn_base")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!((cells[1], cells[4], cells[5]), ("200", "8", "3"), "{row}");

    let (base, new) = (format!("{root}/v0.11.0"), format!("{root}/2025-11-12-harmony-fixes"));
    let compare =
        evaltally(&[&["compare", base.as_str(), new.as_str(), "--category", "multi_turn_base"][..], &m[..]].concat());
    assert_eq!(compare.code, 0, "{}", compare.stderr);
    assert!(compare.stdout.contains("p = 4.7e-6 (exact McNemar)"), "{}", compare.stdout);
    assert!(compare.stdout.contains("improvement"), "{}", compare.stdout);
}

/// Runs of one each cannot be planned by: said once per model, not per category.
#[test]
fn one_run_of_each_category_is_said_once() {
    let out = evaltally(&["plan", "testdata/bfcl/v4/run-1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout.matches("no category can be estimated (one run").count(), 1, "{}", out.stdout);
    assert!(!out.stdout.contains(": cannot estimate"), "{}", out.stdout);
    assert!(out.stdout.contains("acme_tiny-7b: 1 run\n"), "{}", out.stdout);
}
