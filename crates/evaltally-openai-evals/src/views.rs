//! An output items file test by test (`export`, `convert`) and one item across its runs
//! (`show`).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Location, Message, RunRecord, Status, TestDetail, TestRecord};
use serde_json::{Map, Value};

use crate::{FORMAT, Item, Verdict, items, model};

/// A token count of the sample's usage (`token_usage` in dashboard exports, `usage` in the
/// API): `prompt_tokens` or `completion_tokens`.
fn tokens(doc: &Value, key: &str) -> Option<u64> {
    let sample = doc.get("sample")?;
    ["token_usage", "usage"].iter().find_map(|u| sample.get(*u)?.get(key)?.as_u64())
}

/// Why an item did not pass: the failed criteria with their grades, or the sample's error;
/// for a record log's sample that nothing judged, why.
fn message(item: &Item) -> Option<String> {
    match &item.verdict {
        Verdict::Pass => None,
        Verdict::Unscored => item.doc.get("sample_id").map(|_| match item.doc.get("metrics") {
            Some(metrics) => format!(
                "no `match` event judges it; its `metrics` event ({metrics}) is a model-graded score, not read as a \
                 verdict"
            ),
            None => "no `match` event judges it".to_string(),
        }),
        Verdict::Errored(error) => Some(error.clone()),
        Verdict::Fail(criteria) => Some(
            criteria
                .iter()
                .map(|c| match item.doc.get("grades").and_then(|g| g.get(c)) {
                    Some(grade) => format!("{c} failed (grade {grade})"),
                    None => format!("{c} failed"),
                })
                .collect::<Vec<_>>()
                .join("; "),
        ),
    }
}

/// Every run of a file as a run record (for `export` and `convert`), one per (run, model),
/// with tokens where the sample has them.
pub fn records(path: &Path, bytes: &[u8]) -> (Vec<RunRecord>, Vec<Diagnostic>) {
    let (items, diagnostics) = items(path, bytes, true, false);
    let mut runs: BTreeMap<(String, String), RunRecord> = BTreeMap::new();
    for i in items {
        let run = runs.entry((i.run.clone(), model(&i).to_string())).or_insert_with(|| RunRecord {
            run: i.run.clone(),
            model: model(&i).to_string(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            meta: evaltally_core::RunMeta { timestamp: i.created.clone(), ..Default::default() },
            ..RunRecord::default()
        });
        let (outcome, error_type) = i.verdict.outcome();
        run.tests.push(TestRecord {
            id: i.id.clone(),
            category: i.category.clone(),
            outcome: Some(outcome),
            error_type,
            error_message: message(&i),
            duration_ms: None,
            input_tokens: tokens(&i.doc, "prompt_tokens"),
            output_tokens: tokens(&i.doc, "completion_tokens"),
            cost_usd: None,
        });
    }
    (runs.into_values().collect(), diagnostics)
}

/// Messages of a list of `{role, content}` (content that is not a string as JSON text).
fn messages(list: Option<&Value>) -> Vec<Message> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let role = m.get("role").and_then(Value::as_str).unwrap_or("user").to_string();
            let content = match m.get("content")? {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some(Message { role, content })
        })
        .collect()
}

/// Everything a file says about test `id` (a `data_source_idx`, or the item's `id`): one
/// detail per run that holds it, with the sampled conversation as the question, the outputs
/// as the answer, and the item, grades, passes (the API's grader results) and error as
/// details.
pub fn show(path: &Path, bytes: &[u8], id: &str) -> Vec<TestDetail> {
    let (items, _) = items(path, bytes, false, false);
    items
        .into_iter()
        .filter(|i| i.id == id)
        .map(|i| {
            let (outcome, error_type) = i.verdict.outcome();
            let status = Status::from(outcome);
            let mut d = TestDetail::new(&i.run, model(&i), &i.category, id, status);
            d.error_type = error_type;
            d.error_message = message(&i);
            let sample = i.doc.get("sample");
            let asked = messages(sample.and_then(|s| s.get("trajectory").or_else(|| s.get("input"))));
            if !asked.is_empty() {
                d.question = vec![asked];
            }
            d.answer = sample.and_then(|s| s.get("outputs").or_else(|| s.get("output"))).cloned();
            d.input_tokens = tokens(&i.doc, "prompt_tokens");
            d.output_tokens = tokens(&i.doc, "completion_tokens");
            let mut details = Map::new();
            // The dashboard's `item`, `grades` and `passes`; the API's `datasource_item` and
            // grader `results`.
            for key in ["item", "grades", "passes", "metrics", "datasource_item", "results"] {
                if let Some(v) = i.doc.get(key) {
                    details.insert(key.to_string(), v.clone());
                }
            }
            if let Some(error) = sample.and_then(|s| s.get("error")).filter(|e| crate::error_text(Some(e)).is_some()) {
                details.insert("error".to_string(), error.clone());
            }
            d.error_details = Some(Value::Object(details));
            d.result_at = Some(Location { path: path.to_path_buf(), line: i.line });
            d
        })
        .collect()
}
