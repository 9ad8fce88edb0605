//! A BFCL run as [`RunRecord`]s (one per model), for `convert` and `export`: outcomes and
//! error types as [`read_pair`] judges them, plus latency and token counts
//! from the result lines and error messages from the score lines.

use std::borrow::Cow;
use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_core::{Diagnostic, RunRecord, TestRecord};
use serde_json::Value;

use crate::layout::{FilePair, RunDir};
use crate::read::{Numbers, read_pair_with_numbers};
use crate::scan::{scan_object, string_value};
use crate::show::error_message;
use crate::{PairOutcome, Scratch, lines};

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

/// What [`read_pair`](crate::read_pair) gives for `pair` and the pair's test records
/// ([`pair_records`]), from one reading of its files and one scan of each line.
pub fn pair_run_and_records(pair: &FilePair, scratch: &mut Scratch) -> (PairOutcome, Vec<TestRecord>) {
    let read = read_pair_with_numbers(pair, scratch);
    let tests = match &read.run {
        Some(run) => tests_of(pair, run, scratch),
        None => Vec::new(),
    };
    (read, tests)
}

fn tests_of(pair: &FilePair, run: &evaltally_core::CategoryRun, scratch: &Scratch) -> Vec<TestRecord> {
    // `read_pair` left the files' contents in the scratch buffers (each file is read once)
    // and each test's numbers beside its id.
    let messages = if pair.score.is_some() { failure_messages(scratch.score_bytes()) } else { HashMap::default() };
    run.tests()
        .map(|t| {
            let Numbers { latency, input, output } = scratch.numbers_of(t.id);
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
