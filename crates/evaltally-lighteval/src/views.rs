//! A details file test by test: the records `export` and `convert` write, and one sample
//! in full for `show`.

use std::path::Path;

use evaltally_core::{Diagnostic, Message, Outcome, RunRecord, Status, TestDetail, TestRecord};
use evaltally_format::Scoring;
use serde_json::Value;

use crate::samples::Shape;
use crate::table::Parquet;
use crate::val::Val;
use crate::{Beside, FORMAT, meta, pylit, reading};

/// The run of a details file test by test (for `export`, `convert` and the store), as
/// [`read_with`](crate::read_with) judges it, each failure with the metric's value and the
/// rule it failed.
pub fn records(path: &Path, bytes: &[u8], beside: &Beside, scoring: &Scoring) -> (Vec<RunRecord>, Vec<Diagnostic>) {
    let r = reading(path, bytes, beside, scoring);
    let Some(metric) = r.metric.as_deref() else { return (Vec::new(), r.diagnostics) };
    if r.tests.is_empty() {
        return (Vec::new(), r.diagnostics);
    }
    let label = scoring.fail_label(metric);
    let meta = meta(&r.date, beside);
    let tests = r
        .tests
        .iter()
        .map(|t| {
            let failed = t.outcome == Outcome::Fail;
            TestRecord {
                id: t.id.clone(),
                category: r.task.clone(),
                outcome: Some(t.outcome),
                error_type: failed.then(|| label.clone()),
                error_message: failed.then(|| scoring.fail_message(metric, &t.value)),
                ..TestRecord::default()
            }
        })
        .collect();
    let record = RunRecord {
        run: r.date.clone(),
        model: beside.model.clone(),
        format: FORMAT.to_string(),
        source: path.to_path_buf(),
        started_at: meta.timestamp.clone(),
        meta,
        tests,
        ..RunRecord::default()
    };
    (vec![record], r.diagnostics)
}

/// Everything a details file says about sample `id` (as [`read_with`](crate::read_with)
/// names it): its outcome, the prompt, the gold answer, the model's answer and every
/// metric.
pub fn show(path: &Path, bytes: &[u8], id: &str, beside: &Beside, scoring: &Scoring) -> Option<TestDetail> {
    let r = reading(path, bytes, beside, scoring);
    let test = r.tests.iter().find(|t| t.id == id)?;
    let status = Status::from(test.outcome);
    let mut d = TestDetail::new(&r.date, &beside.model, &r.task, id, status);
    if let Some(metric) = r.metric.as_deref().filter(|_| test.outcome == Outcome::Fail) {
        d.error_type = Some(scoring.fail_label(metric));
        d.error_message = Some(scoring.fail_message(metric, &test.value));
    }
    let row = Parquet::open(bytes).and_then(|p| p.read(&[&[]])).ok()?.into_iter().nth(test.row)?;
    match r.shape? {
        Shape::Struct => struct_view(&row, &mut d),
        Shape::Flat => flat_view(&row, &mut d),
        Shape::FlatText => {
            let parsed = match row {
                Val::Map(fields) => Val::Map(
                    fields
                        .into_iter()
                        .map(|(k, v)| {
                            let v = match v {
                                Val::Text(t) if k != "full_prompt" && k != "example" && k != "instruction" => {
                                    pylit::parse(&t).unwrap_or(Val::Text(t))
                                }
                                other => other,
                            };
                            (k, v)
                        })
                        .collect(),
                ),
                other => other,
            };
            flat_view(&parsed, &mut d);
        }
    }
    Some(d)
}

/// One element, when the list has one; the list otherwise.
fn single(v: &Val) -> Value {
    match v {
        Val::List(items) if items.len() == 1 => items[0].to_json(),
        other => other.to_json(),
    }
}

/// The choice(s) at `gold_index` (an index or a list of them).
fn gold(choices: Option<&Val>, index: Option<&Val>) -> Option<Value> {
    let Some(Val::List(choices)) = choices else { return None };
    // An index: a whole number (a float from a Python repr, `1.0`, included); `as`
    // saturates, and what is out of range is no choice.
    #[allow(clippy::cast_possible_truncation)]
    let at = |v: &Val| v.number().and_then(|n| usize::try_from(n as i64).ok()).and_then(|i| choices.get(i));
    match index? {
        Val::List(indices) => {
            let picked: Vec<Value> = indices.iter().filter_map(at).map(Val::to_json).collect();
            (!picked.is_empty()).then(|| if picked.len() == 1 { picked[0].clone() } else { Value::Array(picked) })
        }
        one => at(one).map(Val::to_json),
    }
}

/// lighteval 0.11 and later: `model_response.input` (else `doc.query`) as the question,
/// `doc.choices[doc.gold_index]` as the expected answer, `model_response.text` as the
/// answer and the extracted predictions as the decoded one.
fn struct_view(row: &Val, d: &mut TestDetail) {
    fn field<'v>(v: Option<&'v Val>, k: &str) -> Option<&'v Val> {
        v.and_then(|v| v.get(k)).filter(|v| !v.is_null())
    }
    let doc = row.get("doc");
    let response = row.get("model_response");
    let messages: Vec<Message> = match field(response, "input") {
        Some(Val::List(items)) => items
            .iter()
            .filter_map(|m| {
                Some(Message {
                    role: m.get("role")?.text()?.to_string(),
                    content: m.get("content")?.text()?.to_string(),
                })
            })
            .collect(),
        Some(Val::Text(t)) => vec![Message { role: "user".into(), content: t.clone() }],
        _ => Vec::new(),
    };
    d.question = if messages.is_empty() {
        field(doc, "query")
            .and_then(Val::text)
            .map(|q| vec![vec![Message { role: "user".into(), content: q.into() }]])
            .unwrap_or_default()
    } else {
        vec![messages]
    };
    d.expected = gold(field(doc, "choices"), field(doc, "gold_index"))
        .or_else(|| field(doc, "specific").and_then(|s| s.get("extracted_golds")).filter(|v| !v.is_null()).map(single));
    d.answer = field(response, "text").map(single);
    d.decoded_answer = field(doc, "specific")
        .and_then(|s| s.get("extracted_predictions"))
        .filter(|v| !v.is_null())
        .map(single)
        .or_else(|| field(response, "text_post_processed").map(single).filter(|p| Some(p) != d.answer.as_ref()));
    d.error_details = row.get("metric").map(Val::to_json);
}

/// lighteval up to 0.10: `full_prompt` (else `example`) as the question, `gold` (else the
/// choice at `gold_index`) as the expected answer, `predictions` as the answer.
fn flat_view(row: &Val, d: &mut TestDetail) {
    let field = |k: &str| row.get(k).filter(|v| !v.is_null());
    let prompt = field("full_prompt").or_else(|| field("example")).and_then(Val::text);
    d.question = prompt.map(|p| vec![vec![Message { role: "user".into(), content: p.into() }]]).unwrap_or_default();
    d.expected = field("gold")
        .filter(|g| !matches!(g, Val::List(items) if items.is_empty()))
        .map(single)
        .or_else(|| gold(field("choices"), field("gold_index")));
    d.answer = field("predictions").map(single);
    d.error_details = field("metrics").map(Val::to_json);
}
