//! Details a careful user checks: one scorer per `inspect_ai` task whatever each log lists,
//! failure labels and messages that state the rule that failed, files claimed only under the
//! names their writers use, and an instance report that names another instance.

mod common;

use std::path::Path;

use common::{evaltally, evaltally_in};
use evaltally_testkit::testdata;

/// The `export` rows of `args`, as JSON values.
fn rows(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["export"];
    all.extend(args);
    let run = evaltally(&all);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// (error type, error message) of the failures of test `id` among `rows`.
fn failures<'a>(rows: &'a [serde_json::Value], id: &str) -> Vec<(&'a str, &'a str)> {
    rows.iter()
        .filter(|r| r["id"] == id && r["outcome"] == "fail")
        .map(|r| (r["error_type"].as_str().unwrap(), r["error_message"].as_str().unwrap()))
        .collect()
}

const CONTROL: &str = "testdata/shapes/inspect/cancelled-beside-complete";

/// The task's first scorer (`eval.scorers`) judges every log of the task: the cancelled log,
/// whose samples only a monitor scored, is unscored and says so, rather than judged by the
/// monitor's suspicion numbers.
#[test]
fn inspect_judges_every_log_of_a_task_by_its_first_scorer() {
    let run = evaltally(&["stability", CONTROL, "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let model = &doc["models"][0];
    // No log is judged: the dict scorer needs a choice, and the cancelled log has none of it.
    let c = &model["categories"][0];
    assert_eq!((c["total"].as_u64(), c["unscored_tests"].as_u64()), (Some(0), Some(3)), "{doc}");
    let warnings: Vec<&str> =
        doc["warnings"].as_array().unwrap().iter().map(|w| w["message"].as_str().unwrap()).collect();
    let cancelled: Vec<&str> = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["path"].as_str().unwrap().ends_with("cancelled.eval"))
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    // That the run stopped, and why its samples are unscored.
    assert_eq!(
        cancelled[0],
        "header.json: the run stopped before its end: status `cancelled`; 3 of 3 samples in the log, read as they are"
    );
    assert!(
        cancelled[1]
            .starts_with("scorer `task_success`, the task's first (`eval.scorers`), scored no sample in this log"),
        "{warnings:?}"
    );
    assert_eq!(warnings.iter().filter(|w| w.contains("gives several values per sample")).count(), 2);

    // --scorer picks the key for every log: the complete ones are judged on it, and the
    // cancelled one, which lacks it, is unscored and said once.
    let run = evaltally(&["stability", CONTROL, "--scorer", "task_success/main_task_success", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let runs: Vec<&str> = doc["models"][0]["runs"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert_eq!(runs, ["complete-1#epoch-1", "complete-2#epoch-1"]);
    let c = &doc["models"][0]["categories"][0];
    assert_eq!(
        (c["stable_pass"].as_u64(), c["flaky"].as_u64(), c["stable_fail"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    let said: Vec<&serde_json::Value> = doc["warnings"].as_array().unwrap().iter().collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said.iter().all(|w| w["path"].as_str().unwrap().ends_with("cancelled.eval")), "{said:?}");
}

/// A score above 1 fails the rule "only 1 passes": the label and the message say that rule,
/// not "below 1".
#[test]
fn a_numeric_score_fails_with_the_rule_it_failed() {
    let suspicion = rows(&[CONTROL, "--scorer", "suspicion"]);
    assert_eq!(
        failures(&suspicion, "t2"),
        [
            ("suspicion_not_1", "suspicion = 8, pass needs 1"),
            ("suspicion_not_1", "suspicion = 8, pass needs 1"),
            ("suspicion_not_1", "suspicion = 9, pass needs 1")
        ]
    );
    // A value written as C/I says how it was written.
    let main = rows(&[CONTROL, "--scorer", "task_success/main_task_success"]);
    assert_eq!(
        failures(&main, "t3"),
        [("main_task_success_not_1", "task_success/main_task_success = I (0), pass needs 1"); 2]
    );
    // With --pass-threshold, the threshold is the rule.
    let at_five = rows(&[CONTROL, "--scorer", "suspicion", "--pass-threshold", "5"]);
    assert_eq!(
        failures(&at_five, "t3"),
        [
            ("suspicion_below_5", "suspicion = 2, below the threshold 5"),
            ("suspicion_below_5", "suspicion = 2, below the threshold 5"),
            ("suspicion_below_5", "suspicion = 3, below the threshold 5")
        ]
    );
    assert!(failures(&at_five, "t2").is_empty());

    // lm-eval, HELM and τ-bench likewise.
    let lmeval = rows(&["testdata/lmeval"]);
    assert!(failures(&lmeval, "2").contains(&("exact_match_not_1", "exact_match = 0, pass needs 1")), "{lmeval:?}");
    let lmeval = rows(&["testdata/lmeval", "--pass-threshold", "0.5"]);
    assert!(failures(&lmeval, "2").contains(&("exact_match_below_0.5", "exact_match = 0, below the threshold 0.5")));
    let helm = rows(&["testdata/helm/v1"]);
    assert!(failures(&helm, "id3").contains(&("exact_match_not_1", "exact_match = 0, pass needs 1")), "{helm:?}");
    let light = rows(&["testdata/lighteval", "--model", "acme/tiny-7b"]);
    assert!(
        failures(&light, "2").contains(&("extractive_match_not_1", "extractive_match = 0, pass needs 1")),
        "{light:?}"
    );
    let tau = rows(&["testdata/taubench"]);
    assert!(failures(&tau, "2").contains(&("reward_not_1", "reward = 0, pass needs 1")), "{tau:?}");
}

/// `text` with a comment line on top, as a person annotating a copy writes it.
fn annotated(path: &Path) -> String {
    format!("// checked by hand: see the ticket\n{}", std::fs::read_to_string(path).unwrap())
}

/// A hand-annotated copy beside a format's files, under a name its writers never use, is a
/// note ("not read"), never an error of the run: the output and the exit code are those of
/// the folder without it.
#[test]
fn a_copy_under_a_name_no_writer_uses_is_not_read_and_said() {
    let cases: [(&str, &str, &str); 3] = [
        (
            "bfcl/v4/run-1",
            "score/acme_tiny-7b/non_live/BFCL_v4_simple_python_score.json",
            "score/acme_tiny-7b/non_live/BFCL_v4_simple_python_score_bob_annotated.json",
        ),
        (
            "shapes/swebench/instance-report",
            "logs/run_evaluation/nightly-6/acme-agent-1.5/astropy__astropy-12907/report.json",
            "logs/run_evaluation/nightly-6/acme-agent-1.5/astropy__astropy-12907/report_annotated.json",
        ),
        (
            "lmeval",
            "samples_arith_2026-01-01T00-00-00.000000.jsonl",
            "samples_arith_2026-01-01T00-00-00.000000_annotated.jsonl",
        ),
    ];
    for (fixture, original, copy) in cases {
        let dir = tempfile::tempdir().unwrap();
        evaltally_testkit::copy_folder(&testdata(fixture), dir.path());
        let clean = evaltally_in(dir.path(), &["stability", "."], &[]);
        std::fs::write(dir.path().join(copy), annotated(&dir.path().join(original))).unwrap();
        let with_copy = evaltally_in(dir.path(), &["stability", "."], &[]);
        assert_eq!(with_copy.code, clean.code, "{fixture}: {}", with_copy.stderr);
        assert_eq!(with_copy.stdout, clean.stdout, "{fixture}");
        assert!(!with_copy.stderr.contains("error"), "{fixture}: {}", with_copy.stderr);
        assert!(
            with_copy.stderr.contains(&format!("1 file not read: ./{copy} (--verbose says why)")),
            "{fixture}: {}",
            with_copy.stderr
        );
        let verbose = evaltally_in(dir.path(), &["stability", ".", "--verbose"], &[]);
        assert!(
            verbose.stderr.contains(&format!(
                "./{copy}: note: not read: not valid JSON{} (line 1, column 1: ",
                if Path::new(copy).extension().is_some_and(|e| e == "jsonl") { " Lines" } else { "" }
            )),
            "{fixture}: {}",
            verbose.stderr
        );
    }
    // A file cut short is still an error wherever it is: a report whose writer stopped.
    let dir = tempfile::tempdir().unwrap();
    evaltally_testkit::copy_folder(&testdata("bfcl/v4/run-1"), dir.path());
    std::fs::write(dir.path().join("notes.json"), "{\"run\": \"r\", \"results\": [1, 2").unwrap();
    let cut = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert_eq!(cut.code, 1, "{}", cut.stderr);
    assert!(
        cut.stderr.contains("./notes.json:1:30: error: not valid JSON: the text ends inside a list (cut short?)"),
        "{}",
        cut.stderr
    );
}

/// The harness writes one key into an instance folder's `report.json`, its folder's: a
/// report that also holds another instance is read for its folder's, with a warning naming
/// both, in either place the harness writes such folders; a merged report elsewhere is read
/// whole, as before.
#[test]
fn an_instance_report_naming_another_instance_is_said() {
    let fixture = testdata("shapes/swebench/instance-report/logs/run_evaluation/nightly-6/acme-agent-1.5");
    let own = std::fs::read_to_string(fixture.join("astropy__astropy-12907/report.json")).unwrap();
    let other = std::fs::read_to_string(fixture.join("django__django-11099/report.json")).unwrap();
    // `{"sympy__sympy-99999": <django's report>, "astropy__astropy-12907": <its own>}`
    let other_body = other.trim().trim_start_matches('{').trim_end_matches('}').replacen(
        "django__django-11099",
        "sympy__sympy-99999",
        1,
    );
    let both = format!("{{{other_body},{}", own.trim().trim_start_matches('{'));
    serde_json::from_str::<serde_json::Value>(&both).expect("the edited report is JSON");
    for place in ["logs/run_evaluation/run-1/acme/astropy__astropy-12907", "run-1/logs/astropy__astropy-12907"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(place)).unwrap();
        std::fs::write(dir.path().join(place).join("report.json"), &both).unwrap();
        let run = evaltally_in(dir.path(), &["export", "."], &[]);
        assert_eq!(run.code, 0, "{place}: {}", run.stderr);
        let ids: Vec<String> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids, ["astropy__astropy-12907"], "{place}");
        assert!(
            run.stderr.contains(
                "warning: the report also holds `sympy__sympy-99999` besides `astropy__astropy-12907`, the instance of its folder"
            ),
            "{place}: {}",
            run.stderr
        );
    }
    // Elsewhere, the same map is a merged report: both instances are read.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("evaluation_report.json"), &both).unwrap();
    let run = evaltally_in(dir.path(), &["export", "."], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}
