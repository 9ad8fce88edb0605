//! The fast path of `stability` (the format's `read`) gives exactly the runs of the tolerant
//! reader on every gstack file we have: the fixtures, the real files in the shared
//! reference data, and variations of a fixture that the fast path must hand over.

use std::path::Path;

use evaltally_format::{Format, Input, Options};
use evaltally_gstack::{FORMAT, runs, sources};
use evaltally_testkit::{json_files, refdata, testdata};

/// The pipeline's read and the tolerant reader agree on `bytes`; returns whether the file
/// is a gstack result at all.
fn agree(path: &Path, bytes: &[u8]) -> bool {
    let input = Input::new(path, bytes, false);
    let options = Options { include_partial: true, ..Options::default() };
    if !FORMAT.sniff(&input, &options) {
        return false;
    }
    let fast = FORMAT.read(&input, &options).runs;
    let slow = sources::read_bytes(path, bytes).map(|(run, _)| runs::category_runs(&run)).unwrap_or_default();
    assert_eq!(fast, slow, "{}", path.display());
    true
}

#[test]
fn fast_and_tolerant_reads_agree_on_every_file() {
    let mut files = Vec::new();
    files.extend(json_files(&testdata("gstack")));
    // Without the shared data (a notice says so) only the fixtures are checked.
    if let Some(dir) = refdata("gstack/garrytan-gstack") {
        files.extend(json_files(&dir));
    }
    let mut checked = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        checked += usize::from(agree(file, &bytes));
    }
    assert!(checked >= 5, "only {checked} gstack files found");
}

#[test]
fn damaged_variations_are_handed_to_the_tolerant_reader() {
    let path = testdata("gstack/standard/nightly-1.json");
    let good = std::fs::read_to_string(&path).unwrap();
    let variations = [
        good.replacen("\"passed\": true", "\"passed\": \"yes\"", 1),
        good.replacen("\"name\":", "\"name\": 7, \"x\":", 1),
        good.replacen('{', "{\"label\": \"a\", \"label\": \"b\",", 1),
        good.replacen("\"suite\":", "\"suite\": \"s\", \"suite\":", 1),
        good.replacen('{', "{\"_partial\": true,", 1),
        good.replacen('{', "{\"costs\": [{\"model\": \"m1\"}, 3],", 1),
        good.replacen("\"passed\": true", "\"passed\": true, \"error\": \"bad \\u00e9scape\"", 1),
        format!("\u{feff}{good}"),
    ];
    for (i, text) in variations.iter().enumerate() {
        assert!(agree(&path, text.as_bytes()) || i == 7, "variation {i} is still a gstack result");
    }
    let mut invalid = good.clone().into_bytes();
    let at = invalid.len() / 2;
    invalid[at] = 0xff;
    agree(&path, &invalid);
}
