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
    ];
    for (i, text) in variations.iter().enumerate() {
        assert!(agree(&path, text.as_bytes()), "variation {i} is still an SF-Bench v2 report");
    }
}
