//! The fast path of `stability` (the format's `read`) gives exactly the runs of the tolerant
//! reader on every SF-Bench report we have, and on damaged variations of one.

use std::path::Path;

use evaltally_format::{Format, Input, Options};
use evaltally_sfbench::detect::{Format as Detected, detect};
use evaltally_sfbench::{SFBENCH, sources};
use evaltally_testkit::{json_files, refdata, testdata};

/// Whether `bytes` is an SF-Bench v2 report; if so, both readers must agree on it.
fn agree(path: &Path, bytes: &[u8]) -> bool {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(bytes) else { return false };
    if detect(&doc) != Some(Detected::SfbenchV2) {
        return false;
    }
    let fast = SFBENCH.read(&Input::new(path, bytes, false), &Options::default()).runs;
    let slow = sources::read_document(path, Detected::SfbenchV2, &doc).runs;
    assert_eq!(fast, slow, "{}", path.display());
    true
}

#[test]
fn fast_and_tolerant_reads_agree_on_every_report() {
    let mut files = Vec::new();
    files.extend(json_files(&testdata("sfbench-runs")));
    files.extend(json_files(&testdata("malformed/sfbench")));
    // Without the shared data (a notice says so) only the fixtures are checked.
    if let Some(dir) = refdata("sfbench") {
        files.extend(json_files(&dir));
    }
    let checked: usize = files.iter().map(|f| usize::from(agree(f, &std::fs::read(f).unwrap()))).sum();
    assert!(checked >= 2, "only {checked} SF-Bench v2 reports found");
}

#[test]
fn damaged_variations_agree_too() {
    let path = testdata("sfbench-runs/run-1/report.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let variations = [
        good.replacen("\"resolved\": true", "\"resolved\": \"yes\"", 1),
        good.replacen("\"status\":", "\"status\": \"skipped\", \"status\":", 1),
        good.replacen("\"instance_id\":", "\"instance_id\": 3, \"x\":", 1),
        good.replacen('{', "{\"run_id\": 5, \"model_name\": null,", 1),
        good.replacen("\"instances\": [", "\"instances\": [7, ", 1),
        // The instances are walked in the one pass over the top level: a second member of
        // that name, one that is no list, and a header after them.
        good.replacen("\"instances\": [", "\"instances\": [], \"instances\": [", 1),
        good.replacen("\"instances\": [", "\"instances\": {\"a\": [1]}, \"was\": [", 1).replacen(
            "\"schema_version\": \"2.0\",",
            "\"schema_version\": \"2.0\", \"summary\": {},",
            1,
        ),
        good.replacen("\"schema_version\": \"2.0\",\n  \"run_id\": \"acme-sf-model-20260101_120000\",", "", 1)
            .replacen("\n}", ",\n  \"schema_version\": \"2.0\", \"run_id\": \"late\"\n}", 1),
        // Labels from the status when there is no error type, a repeated instance.
        good.replace("\"error_type\": \"execution_error\"", "\"error_type\": null").replacen(
            "\"status\": \"fail\"",
            "\"status\": \"Timeout\"",
            1,
        ),
        good.replacen("lwc-component-001", "apex-trigger-handler-001", 1),
    ];
    for (i, text) in variations.iter().enumerate() {
        assert!(agree(&path, text.as_bytes()), "variation {i} is still an SF-Bench v2 report");
    }
}

/// A report cut short after its header is still taken as SF-Bench's (the header says so,
/// and the instances are not scanned twice to find out): the tolerant reader says where it
/// ends, as the pipeline said of a file no format took.
#[test]
fn a_report_cut_short_is_read_as_one_and_said_to_be_broken() {
    let path = testdata("sfbench-runs/run-1/report.json");
    let good = std::fs::read(&path).unwrap();
    let cut = &good[..good.len() / 2];
    let input = Input::new(&path, cut, false);
    assert!(SFBENCH.sniff(&input, &Options::default()));
    let read = SFBENCH.read(&input, &Options::default());
    assert!(read.runs.is_empty());
    let [d] = read.diagnostics.as_slice() else { panic!("{:?}", read.diagnostics) };
    let expected = serde_json::from_slice::<serde_json::Value>(cut).unwrap_err();
    let text = d.to_string();
    assert!(
        text.contains("not valid JSON")
            && text.contains(&format!(":{}:{}", expected.line(), evaltally_format::json::column(&expected))),
        "{text}"
    );
}
