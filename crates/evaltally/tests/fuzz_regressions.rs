//! Replays saved fuzz inputs (`testdata/fuzz-regressions/<target>/`) and every fixture in
//! `testdata/` through the fuzz target bodies in `fuzz/targets.rs`, so a crash found by
//! `cargo xtask fuzz` stays fixed on stable Rust without cargo-fuzz. A panic fails the test
//! with the target and file named.

#[path = "../../../fuzz/targets.rs"]
mod targets;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use evaltally_testkit::testdata;

type Target = (&'static str, fn(&[u8]));

const TARGETS: [Target; 16] = [
    ("bfcl_lines", targets::bfcl_lines),
    ("bfcl_pair", targets::bfcl_pair),
    ("sfbench_report", targets::sfbench_report),
    ("gstack_result", targets::gstack_result),
    ("junit_report", targets::junit_report),
    ("formats", targets::formats),
    ("taubench", targets::taubench),
    ("terminal_bench", targets::terminal_bench),
    ("evalplus", targets::evalplus),
    ("lmeval", targets::lmeval),
    ("lighteval", targets::lighteval),
    ("inspect_log", targets::inspect_log),
    ("promptfoo_output", targets::promptfoo_output),
    ("helm_run", targets::helm_run),
    ("openai_evals_items", targets::openai_evals_items),
    ("text", targets::text),
];

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else if path.extension().is_none_or(|e| e != "md") {
            out.push(path);
        }
    }
}

/// Runs `target` on every file, returning `target: file` for each panic.
fn replay(name: &str, target: fn(&[u8]), files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter(|path| catch_unwind(AssertUnwindSafe(|| target(&std::fs::read(path).unwrap()))).is_err())
        .map(|path| format!("{name}: {}", path.display()))
        .collect()
}

#[test]
fn saved_crash_inputs_do_not_panic() {
    let mut panics = Vec::new();
    let mut replayed = 0;
    for (name, target) in TARGETS {
        let mut files = Vec::new();
        files_under(&testdata("fuzz-regressions").join(name), &mut files);
        assert!(!files.is_empty(), "testdata/fuzz-regressions/{name} has no inputs");
        replayed += files.len();
        panics.extend(replay(name, target, &files));
    }
    assert!(panics.is_empty(), "panicked on:\n{}", panics.join("\n"));
    assert!(replayed >= TARGETS.len());
}

#[test]
fn every_fixture_goes_through_every_target_without_panicking() {
    let mut files = Vec::new();
    files_under(&testdata(""), &mut files);
    assert!(files.len() > 50, "expected the whole fixture tree, found {} files", files.len());
    let panics: Vec<String> = TARGETS.iter().flat_map(|&(name, target)| replay(name, target, &files)).collect();
    assert!(panics.is_empty(), "panicked on:\n{}", panics.join("\n"));
}
