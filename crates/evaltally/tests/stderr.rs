//! What stderr says: each kind of problem once, with how many and in how many files; every
//! one with `--verbose`; what a writer always does (a fact of its format) only with
//! `--verbose` and in `validate`; and every distinct problem named, whatever else repeats.

mod common;

use std::path::Path;

use common::{evaltally, evaltally_in};

/// A BFCL v4 result file of `tests` simple tests.
fn result_lines(tests: usize) -> String {
    use std::fmt::Write as _;
    (0..tests).fold(String::new(), |mut out, i| {
        let _ = writeln!(out, "{{\"id\": \"simple_python_{i}\", \"result\": \"f()\"}}");
        out
    })
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn one_kind_of_problem_in_many_files_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for m in 0..12 {
        write(dir.path(), &format!("run/result/model-{m:02}/BFCL_v4_simple_python_result.json"), &result_lines(3));
    }
    let run = evaltally_in(dir.path(), &["stability", "run"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "one line for the kind, one count:\n{}", run.stderr);
    assert!(
        lines[0].starts_with(
            "run/result/model-00/BFCL_v4_simple_python_result.json: warning: result file without its score file"
        ),
        "{}",
        lines[0]
    );
    assert!(
        lines[0]
            .ends_with("(12 files like it: also run/result/model-01/BFCL_v4_simple_python_result.json and 10 more)"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "12 warnings, 0 errors (--verbose lists every one)");

    // --verbose names every file.
    let verbose = evaltally_in(dir.path(), &["stability", "run", "--verbose"], &[]);
    assert_eq!(verbose.code, 0);
    for m in 0..12 {
        let file = format!("run/result/model-{m:02}/BFCL_v4_simple_python_result.json: warning: result file without");
        assert_eq!(verbose.stderr.matches(&file).count(), 1, "{file}:\n{}", verbose.stderr);
    }
    assert_eq!(verbose.stderr.lines().last(), Some("12 warnings, 0 errors"));
}

#[test]
fn three_distinct_problems_are_each_named_among_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 1. A run that cannot be judged, in 8 files: result files without their score files.
    for m in 0..8 {
        write(d, &format!("run/result/lone-{m}/BFCL_v4_simple_python_result.json"), &result_lines(2));
    }
    // 2. Damage: a line cut short in a result file that has its score file.
    let mut cut = result_lines(3);
    cut.push_str("{\"id\": \"simple_python_3\", \"res\n");
    write(d, "run/result/scored/BFCL_v4_simple_python_result.json", &cut);
    write(
        d,
        "run/score/scored/BFCL_v4_simple_python_score.json",
        "{\"accuracy\": 1.0, \"correct_count\": 3, \"total_count\": 3}\n",
    );
    // 3. A file no format reads.
    write(d, "run/notes.json", "{\"comment\": \"not results\"}\n");
    let run = evaltally_in(d, &["stability", "run"], &[]);
    // The damaged line makes it exit 1, as before.
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 4, "three problems and the count:\n{}", run.stderr);
    // Errors first, then warnings, then what was not read.
    assert!(lines[0].starts_with("run/result/scored/BFCL_v4_simple_python_result.json:4:"), "{}", lines[0]);
    assert!(lines[0].contains("error: not a complete JSON result object"), "{}", lines[0]);
    assert!(lines[1].contains("warning: result file without its score file"), "{}", lines[1]);
    assert!(
        lines[1].ends_with("(8 files like it: also run/result/lone-1/BFCL_v4_simple_python_result.json and 6 more)")
    );
    assert_eq!(lines[2], "note: 1 file not read: run/notes.json (--verbose says why)");
    assert_eq!(lines[3], "8 warnings, 1 error (--verbose lists every one)");
}

#[test]
fn what_a_writer_always_does_is_said_by_validate_and_verbose_only() {
    // BFCL v1's writers key result lines by `idx` and end files without a newline.
    let quiet = evaltally_in(&evaltally_testkit::workspace_root(), &["stability", "testdata/bfcl/v1"], &[]);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
    let verbose =
        evaltally_in(&evaltally_testkit::workspace_root(), &["stability", "testdata/bfcl/v1", "--verbose"], &[]);
    assert_eq!(verbose.code, 0);
    assert!(
        verbose.stderr.contains("info: v1 result lines keyed `idx` (0-based) instead of `id`"),
        "{}",
        verbose.stderr
    );
    assert!(verbose.stderr.contains("info: no newline at the end of the file, as BFCL's writer ends its files"));
    assert!(!verbose.stderr.contains("warning"), "{}", verbose.stderr);
    let validate = evaltally_in(&evaltally_testkit::workspace_root(), &["validate", "testdata/bfcl/v1"], &[]);
    assert_eq!(validate.code, 0, "{}", validate.stdout);
    // Said once for the files that share it, with how many.
    assert!(validate.stdout.contains(": line 1: info: v1 result lines keyed `idx`"), "{}", validate.stdout);
    assert!(validate.stdout.contains("(2 files like it: also testdata/bfcl/v1/2024-08-11/"), "{}", validate.stdout);
    assert!(validate.stdout.ends_with("4 files: 4 valid, 0 invalid, 0 with warnings\n"), "{}", validate.stdout);
}

#[test]
fn a_last_line_cut_short_is_still_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = result_lines(2);
    text.push_str("{\"id\": \"simple_python_2\", \"result\": \"f(");
    write(dir.path(), "run/result/m/BFCL_v4_simple_python_result.json", &text);
    write(
        dir.path(),
        "run/score/m/BFCL_v4_simple_python_score.json",
        "{\"accuracy\": 1.0, \"correct_count\": 2, \"total_count\": 2}\n",
    );
    let run = evaltally_in(dir.path(), &["stability", "run"], &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(":3: warning: no newline at the end of the file (was it cut short?)"),
        "{}",
        run.stderr
    );
}

/// When nothing is found, what the walk met on the way is said before the error: a link to
/// runs outside the folder given, not followed, is why the folder looks empty.
#[cfg(unix)]
#[test]
fn nothing_found_says_the_links_it_did_not_follow() {
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "run/result/model-a/BFCL_v4_simple_python_result.json", &result_lines(2));
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path().join("run"), dir.path().join("run")).unwrap();
    let run = evaltally_in(dir.path(), &["stability", "."], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let target = outside.path().canonicalize().unwrap().join("run");
    let link = format!("./run: warning: link to {}, outside .; not followed", target.display());
    let first = run.stderr.lines().next().unwrap_or_default();
    assert_eq!(first, link, "{}", run.stderr);
    assert!(
        run.stderr.contains("\nerror: nothing to read in .: it holds no file the walk could follow (see above)"),
        "{}",
        run.stderr
    );
}

/// The per-instance reports of a SWE-bench run whose run report sits beside `logs/` are the
/// run report's: a fact with --verbose when the run report is read, and the reason said
/// when the folder of them is given alone and nothing else is found.
#[test]
fn per_instance_reports_a_run_report_covers_are_said_when_given_alone() {
    let alone = evaltally(&["stability", "testdata/swebench/runs/logs"]);
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    let first = alone.stderr.lines().next().unwrap();
    assert!(
        first.starts_with("testdata/swebench/runs/logs/run_evaluation/run-")
            && first.contains(": warning: not read: ")
            && first.contains("per-instance reports (`report.json`), which the run report `testdata/swebench/runs/"),
        "{}",
        alone.stderr
    );
    // With the run report read, nothing is said but with --verbose.
    let whole = evaltally(&["stability", "testdata/swebench/runs"]);
    assert!(!whole.stderr.contains("per-instance"), "{}", whole.stderr);
    let verbose = evaltally(&["stability", "testdata/swebench/runs", "--verbose"]);
    assert!(verbose.stderr.contains(": info: not read: "), "{}", verbose.stderr);
}

/// JSON Lines under a `.json` name (BFCL's old `result.json` answer files) is said as what it
/// is, not as JSON with "trailing characters".
#[test]
fn json_lines_in_a_json_file_is_said_as_such() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "run/result.json",
        "{\"answer_id\": \"a\", \"question\": \"q\", \"text\": \"t\"}\n{\"answer_id\": \"b\", \"question\": \"q\", \"text\": \"t\"}\n",
    );
    write(dir.path(), "run/result/model-a/BFCL_v4_simple_python_result.json", &result_lines(2));
    let run = evaltally_in(dir.path(), &["validate", "."], &[]);
    assert!(
        run.stdout.contains(
            "result.json: not read: JSON Lines (the first line's keys `answer_id`, `question`, `text`) in a `.json` file, a shape no format evaltally reads"
        ),
        "{}",
        run.stdout
    );
}

/// A file given alone that its format takes but finds no run in (BFCL's memory prerequisite
/// results) is said to be that, not to be a folder holding no file.
#[test]
fn one_file_with_no_runs_is_not_called_an_empty_folder() {
    let prereq = "testdata/bfcl/v4/run-1/result/acme_tiny-7b/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json";
    let run = evaltally(&["stability", prereq]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "{prereq}: warning: not read: a BFCL memory category's prerequisite conversations, which BFCL never scores\n\
             1 warning, 0 errors\n\
             error: nothing to read in {prereq}: no format evaltally reads finds runs in it; \
             `evaltally formats` lists the formats evaltally reads and their files"
        )
    );
}

/// A file named alone that a format knows as one of its files holding no runs (lm-eval's
/// aggregate results) is said as what it is, and why nothing is left: not called a file of
/// no known format, with an unrelated format as the closest.
#[test]
fn a_named_file_that_holds_no_runs_is_said_as_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let name = "results_2026-01-02T00-00-00.000000.json";
    write(
        dir.path(),
        name,
        r#"{"results": {"arith": {"exact_match,none": 0.5}}, "configs": {"arith": {"task": "arith"}}, "model_name": "acme-7b"}"#,
    );
    let run = evaltally_in(dir.path(), &["stability", name], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!run.stderr.contains("not a format evaltally knows"), "{}", run.stderr);
    assert!(
        run.stderr.trim_end().ends_with(&format!(
            "error: nothing to analyse in {name}: the one file found holds no runs; it is lm-eval's aggregate \
             results: outcomes per document are in the samples_<task>_<date>.jsonl files that --log_samples \
             writes beside it"
        )),
        "{}",
        run.stderr
    );
    let verbose = evaltally_in(dir.path(), &["stability", name, "--verbose"], &[]);
    assert!(
        verbose.stderr.starts_with(&format!("{name}: note: skipped: lm-eval's aggregate results")),
        "{}",
        verbose.stderr
    );
    let checked = evaltally_in(dir.path(), &["validate", name], &[]);
    assert_eq!(checked.code, 2, "{}", checked.stderr);
    assert!(checked.stdout.starts_with(&format!("{name}: skipped: lm-eval's aggregate results")), "{}", checked.stdout);
    assert_eq!(
        checked.stderr.trim_end(),
        format!("error: nothing to check in {name}: the files found hold no runs (see above)")
    );
}

/// A folder whose only file a format takes and finds no run in is not said to hold files of
/// no format: the file is named, and what is wrong with it.
#[test]
fn a_folder_whose_one_file_holds_no_runs_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let prereq = "testdata/bfcl/v4/run-1/result/acme_tiny-7b/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json";
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(prereq)).unwrap();
    write(dir.path(), "run/result/acme_tiny-7b/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json", &text);
    let run = evaltally_in(dir.path(), &["stability", "run"], &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr.trim_end(),
        "run/result/acme_tiny-7b/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json: warning: not read: \
         a BFCL memory category's prerequisite conversations, which BFCL never scores\n\
         1 warning, 0 errors\n\
         error: nothing to read in run: no format evaltally reads finds runs in its one file \
         (result/acme_tiny-7b/agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json); \
         `evaltally formats` lists the formats evaltally reads and their files"
    );
}

/// A file that holds no test's outcome (BFCL's `data_overall.csv`, known by its name; a
/// README no format claims) is never opened, and never passed over silently: `--verbose`
/// names each, and the report's own count of problems leaves such facts out.
#[test]
fn files_no_format_claims_are_named_with_verbose() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "run/result/model-a/BFCL_v4_simple_python_result.json", &result_lines(2));
    write(
        dir.path(),
        "run/score/model-a/BFCL_v4_simple_python_score.json",
        "{\"accuracy\": 1.0, \"correct_count\": 2, \"total_count\": 2}\n",
    );
    write(dir.path(), "run/score/data_overall.csv", "Rank,Overall Acc\n1,100%\n");
    write(dir.path(), "run/NOTES", "by hand\n");
    let quiet = evaltally_in(dir.path(), &["stability", "run"], &[]);
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    assert!(!quiet.stderr.contains("data_overall.csv"), "{}", quiet.stderr);
    let verbose = evaltally_in(dir.path(), &["stability", "run", "--verbose"], &[]);
    assert_eq!(verbose.code, 0, "{}", verbose.stderr);
    for line in [
        "run/NOTES: info: not read: no format evaltally reads takes a file of this name",
        "run/score/data_overall.csv: info: not read: a BFCL leaderboard summary (each model's accuracy per category, no test's outcome)",
    ] {
        assert!(verbose.stderr.lines().any(|l| l == line), "{line}\n{}", verbose.stderr);
    }
    let markdown = evaltally_in(dir.path(), &["stability", "run", "--format", "markdown"], &[]);
    assert!(!markdown.stdout.contains("<details><summary>"), "{}", markdown.stdout);
}
