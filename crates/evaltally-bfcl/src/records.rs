//! A BFCL run as [`RunRecord`]s (one per model), for `convert` and `export`: outcomes and
//! error types as [`read_pair`] judges them, plus latency and token counts
//! from the result lines and error messages from the score lines.

use std::borrow::Cow;
use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_core::{Diagnostic, RunRecord, TestRecord};
use serde_json::Value;

use crate::layout::{FilePair, RunDir};
use crate::scan::{int_value, scan_object, string_value};
use crate::show::{error_message, sum, to_count};
use crate::{PairOutcome, Scratch, lines, read_pair};

/// A test's latency (seconds) and input and output token counts.
#[derive(Clone, Copy, Default)]
struct Numbers {
    latency: Option<f64>,
    input: Option<u64>,
    output: Option<u64>,
}

/// Latency and token counts per test id, from a result file (ids borrowed from it unless
/// they hold escapes).
fn result_numbers(buf: &[u8]) -> HashMap<Cow<'_, str>, Numbers> {
    const KEYS: [&[u8]; 4] = [b"id", b"latency", b"input_token_count", b"output_token_count"];
    let mut out = HashMap::new();
    for (_, line) in lines::split(buf) {
        let mut f = [None, None, None, None];
        if scan_object(line, &KEYS, &mut f).is_err() {
            continue;
        }
        let raw = |i: usize| f[i].clone().map(|r| &line[r]);
        let Some(id) = raw(0).and_then(string_value) else { continue };
        // Multi-turn counts are lists per turn and step: sum them.
        let number = |i: usize| {
            raw(i).and_then(|r| {
                int_value(r)
                    .map(|n| n as f64)
                    .or_else(|| serde_json::from_slice::<Value>(r).ok().as_ref().and_then(sum))
            })
        };
        out.insert(id, Numbers { latency: number(1), input: number(2).map(to_count), output: number(3).map(to_count) });
    }
    out
}

/// Error messages per failed test id, from a score file.
fn failure_messages(buf: &[u8]) -> HashMap<Cow<'_, str>, String> {
    const KEYS: [&[u8]; 2] = [b"id", b"error"];
    let mut out = HashMap::new();
    for (_, line) in lines::split(buf) {
        let mut f = [None, None];
        if scan_object(line, &KEYS, &mut f).is_err() {
            continue;
        }
        let (Some(id), Some(err)) = (f[0].clone(), f[1].clone()) else { continue };
        let Some(id) = string_value(&line[id]) else { continue };
        if let Some(msg) = serde_json::from_slice::<Value>(&line[err]).ok().as_ref().and_then(error_message) {
            out.insert(id, msg);
        }
    }
    out
}

/// The tests of one (run, model, category), with latencies, tokens and messages.
pub fn pair_records(pair: &FilePair, scratch: &mut Scratch, diags: &mut Vec<Diagnostic>) -> Vec<TestRecord> {
    let (read, tests) = pair_run_and_records(pair, scratch);
    diags.extend(read.diagnostics);
    tests
}

/// What [`read_pair`] gives for `pair` and the pair's test records ([`pair_records`]), from
/// one reading of its files.
pub fn pair_run_and_records(pair: &FilePair, scratch: &mut Scratch) -> (PairOutcome, Vec<TestRecord>) {
    let read = read_pair(pair, scratch);
    let tests = match &read.run {
        Some(run) => tests_of(pair, run, scratch),
        None => Vec::new(),
    };
    (read, tests)
}

fn tests_of(pair: &FilePair, run: &evaltally_core::CategoryRun, scratch: &Scratch) -> Vec<TestRecord> {
    // `read_pair` left the files' contents in the scratch buffers: each file is read once.
    let numbers = result_numbers(scratch.result_bytes());
    let messages = if pair.score.is_some() { failure_messages(scratch.score_bytes()) } else { HashMap::default() };
    run.tests()
        .map(|t| {
            let Numbers { latency, input, output } = numbers.get(t.id).copied().unwrap_or_default();
            TestRecord {
                id: t.id.to_string(),
                category: pair.category.clone(),
                outcome: Some(t.outcome),
                error_type: t.error_type.map(|e| e.as_str().to_string()),
                error_message: messages.get(t.id).cloned(),
                duration_ms: latency.map(evaltally_core::seconds_to_ms),
                input_tokens: input,
                output_tokens: output,
                cost_usd: None,
            }
        })
        .collect()
}

/// The run's tests, one record per model, models in name order.
pub fn run_records(run: &RunDir, diags: &mut Vec<Diagnostic>) -> Vec<RunRecord> {
    let mut scratch = Scratch::default();
    let mut by_model: BTreeMap<String, RunRecord> = BTreeMap::new();
    for pair in run.files() {
        let tests = pair_records(&pair, &mut scratch, diags);
        let rec = by_model.entry(pair.model.clone()).or_insert_with(|| RunRecord {
            run: run.name.clone(),
            model: pair.model.clone(),
            format: "bfcl".to_string(),
            source: run.root.clone(),
            started_at: None,
            tests: Vec::new(),
            ..RunRecord::default()
        });
        rec.tests.extend(tests);
    }
    by_model.into_values().collect()
}
