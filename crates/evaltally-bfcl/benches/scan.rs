//! Per-line id extraction on real line shapes: the scanner that `stability` uses against a
//! borrowed `serde_json` parse that keeps only `id` (the cheapest full parse).
//!
//! `cargo bench -p evaltally-bfcl --bench scan`. Line shapes come from the fixtures in
//! `testdata/bfcl/` (single-turn result, multi-turn result with an inference log, AST and
//! multi-turn failure entries) and one 60 KB multi-turn line built from them, the size of
//! the largest lines in real multi-turn runs.

use std::hint::black_box;

use evaltally_bfcl::lines::{ResultRecord, ScoreRecord};
use serde::Deserialize;

fn main() {
    divan::main();
}

fn fixture_line(rel: &str, line: usize) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/bfcl").join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().nth(line).expect("fixture line").as_bytes().to_vec()
}

/// A multi-turn result line grown to about 60 KB by repeating its inference log entries.
fn big_multi_turn() -> Vec<u8> {
    let line = fixture_line("v4/run-1/result/acme_tiny-7b/multi_turn/BFCL_v4_multi_turn_base_result.json", 0);
    let mut value: serde_json::Value = serde_json::from_slice(&line).expect("fixture is JSON");
    let log = value["inference_log"].as_array().cloned().unwrap_or_default();
    let grown: Vec<serde_json::Value> = log.iter().cycle().take(log.len() * 150).cloned().collect();
    value["inference_log"] = serde_json::Value::Array(grown);
    serde_json::to_vec(&value).expect("serializes")
}

#[derive(Deserialize)]
struct OnlyId<'a> {
    #[serde(borrow)]
    #[allow(dead_code)]
    id: std::borrow::Cow<'a, str>,
}

const SHAPES: &[&str] =
    &["single-turn result", "multi-turn result", "AST failure", "multi-turn failure", "60 KB multi-turn"];

fn shape(name: &str) -> Vec<u8> {
    match name {
        "single-turn result" => {
            fixture_line("v4/run-1/result/acme_tiny-7b/non_live/BFCL_v4_simple_python_result.json", 0)
        }
        "multi-turn result" => {
            fixture_line("v4/run-1/result/acme_tiny-7b/multi_turn/BFCL_v4_multi_turn_base_result.json", 0)
        }
        "AST failure" => fixture_line("v4/run-1/score/acme_tiny-7b/non_live/BFCL_v4_simple_python_score.json", 1),
        "multi-turn failure" => {
            fixture_line("v4/run-1/score/acme_tiny-7b/multi_turn/BFCL_v4_multi_turn_base_score.json", 1)
        }
        _ => big_multi_turn(),
    }
}

#[divan::bench(args = SHAPES)]
fn scan_result_record(bencher: divan::Bencher<'_, '_>, name: &str) {
    let line = shape(name);
    bencher.counter(divan::counter::BytesCount::of_slice(&line)).bench(|| {
        let record = ResultRecord::parse(black_box(&line)).expect("valid line");
        black_box(record.test_id("c").map(|(id, _)| id.len()))
    });
}

#[divan::bench(args = SHAPES)]
fn scan_score_record(bencher: divan::Bencher<'_, '_>, name: &str) {
    let line = shape(name);
    bencher.counter(divan::counter::BytesCount::of_slice(&line)).bench(|| {
        let record = ScoreRecord::parse(black_box(&line)).expect("valid line");
        black_box(record.error_label().map(|l| l.len()))
    });
}

#[divan::bench(args = SHAPES)]
fn serde_json_id_only(bencher: divan::Bencher<'_, '_>, name: &str) {
    let line = shape(name);
    bencher.counter(divan::counter::BytesCount::of_slice(&line)).bench(|| {
        let parsed: OnlyId<'_> = serde_json::from_slice(black_box(&line)).expect("valid line");
        black_box(parsed)
    });
}
