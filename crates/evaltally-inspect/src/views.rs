//! A log sample by sample (`export`, `convert`) and one sample across its epochs (`show`).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Message, RunRecord, Status, TestDetail, TestRecord};
use evaltally_format::Scoring;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::log::{Archive, ZIP_MAGIC};
use crate::{FORMAT, checked, run_name, score};

/// Every epoch of a log as a run record (for `export` and `convert`): outcomes, labels,
/// messages, wall time and tokens per sample.
pub fn records(path: &Path, bytes: &[u8], scoring: &Scoring) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (log, mut diagnostics, _) = checked(path, bytes, false)?;
    let choice = score::choose(&log, scoring.scorer.as_deref());
    let mut unjudged = score::Unjudged::default();
    let meta = crate::meta(&log).map(|m| (*m).clone()).unwrap_or_default();
    let mut epochs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for s in log.samples.iter().flatten() {
        let run = epochs.entry(s.epoch).or_insert_with(|| RunRecord {
            run: run_name(path, s.epoch),
            model: log.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            meta: meta.clone(),
            ..RunRecord::default()
        });
        let verdict = unjudged.note(s, score::verdict(s, &choice, scoring));
        run.tests.push(TestRecord {
            id: s.id.clone(),
            category: log.task.clone(),
            outcome: Some(verdict.outcome),
            error_type: verdict.label,
            error_message: verdict.message,
            duration_ms: s.total_time.map(evaltally_core::seconds_to_ms),
            input_tokens: s.input_tokens,
            output_tokens: s.output_tokens,
            ..TestRecord::default()
        });
    }
    if !log.samples.as_ref().is_none_or(Vec::is_empty) {
        diagnostics.extend(unjudged.warnings(path, &choice));
    }
    // The header's tokens are the whole log's: a run's own when it is the log's one epoch
    // and its samples give none.
    let per_sample = log.samples.iter().flatten().any(|s| s.input_tokens.is_some() || s.output_tokens.is_some());
    if epochs.len() == 1 && !per_sample {
        for run in epochs.values_mut() {
            run.costs.clone_from(&log.usage);
        }
    }
    Ok((epochs.into_values().collect(), diagnostics))
}

/// Everything a log says about sample `id`: one detail per epoch, with the input as the
/// question, the target as the expected answer, the output's completion as the answer, and
/// the scores (with their explanations) and the error (with its traceback) as details.
pub fn show(path: &Path, bytes: &[u8], id: &str, scoring: &Scoring) -> Result<Vec<TestDetail>, Diagnostic> {
    show_said(path, bytes, id, scoring).map(|(details, _)| details)
}

/// [`show`], with a warning for each full sample of `id` that could not be read (an
/// archive member damaged): its epoch is shown from the summary alone; and one that counts
/// the token counts of its epochs that are no count (shown as `-`), naming the first.
pub(crate) fn show_said(
    path: &Path,
    bytes: &[u8],
    id: &str,
    scoring: &Scoring,
) -> Result<(Vec<TestDetail>, Vec<Diagnostic>), Diagnostic> {
    let (log, _, _) = checked(path, bytes, false)?;
    let choice = score::choose(&log, scoring.scorer.as_deref());
    let (full, mut said) = full_samples(path, bytes, id);
    let mut details = Vec::new();
    let mut not_counts: Vec<(u64, &str)> = Vec::new();
    for s in log.samples.iter().flatten().filter(|s| s.id == id) {
        let v = score::Unjudged::default().note(s, score::verdict(s, &choice, scoring));
        let mut d = TestDetail::new(&run_name(path, s.epoch), &log.model, &log.task, id, Status::from(v.outcome));
        d.error_type = v.label;
        d.error_message = v.message;
        d.input_tokens = s.input_tokens;
        d.output_tokens = s.output_tokens;
        d.latency_seconds = s.total_time;
        d.run_id.clone_from(&log.id);
        let mut keys: Vec<&str> = s.not_a_count.into_iter().collect();
        if let Some(full) = full.iter().find(|f| f.get("epoch").and_then(Value::as_u64) == Some(s.epoch)) {
            for key in fill(&mut d, full) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        not_counts.extend(keys.into_iter().map(|key| (s.epoch, key)));
        details.push(d);
    }
    if let Some((epoch, key)) = not_counts.first() {
        let first = format!("sample {} epoch {epoch}'s `{key}`", evaltally_core::text::printable(id));
        let message = evaltally_core::text::token_not_shown(not_counts.len(), &first, crate::log::NOT_A_COUNT);
        said.push(Diagnostic::warning(path, message));
    }
    Ok((details, said))
}

/// The question, answers and details a full sample adds, and its tokens and time where the
/// summary had none; the keys of those token counts that are no count.
fn fill(d: &mut TestDetail, sample: &Value) -> Vec<&'static str> {
    match sample.get("input") {
        Some(Value::String(text)) => d.question = vec![vec![Message { role: "user".into(), content: text.clone() }]],
        Some(Value::Array(messages)) => {
            d.question = vec![
                messages
                    .iter()
                    .map(|m| Message {
                        role: m.get("role").and_then(Value::as_str).unwrap_or("user").to_string(),
                        content: match m.get("content") {
                            Some(Value::String(t)) => t.clone(),
                            Some(other) => other.to_string(),
                            None => String::new(),
                        },
                    })
                    .collect(),
            ];
        }
        _ => {}
    }
    d.expected = sample.get("target").cloned();
    d.answer = sample.get("output").and_then(|o| o.get("completion")).cloned();
    // Summaries of some versions (0.3.89) lack the usage and time the sample itself has.
    let usage = sample.get("model_usage");
    let mut not_counts = Vec::new();
    for (key, count) in [("input_tokens", &mut d.input_tokens), ("output_tokens", &mut d.output_tokens)] {
        if count.is_none() {
            let tokens = crate::log::usage(usage, key);
            *count = tokens.count();
            if matches!(tokens, crate::log::Tokens::NotACount) {
                not_counts.push(key);
            }
        }
    }
    d.latency_seconds = d.latency_seconds.or_else(|| crate::log::seconds(sample.get("total_time")));
    let mut details = serde_json::Map::new();
    for key in ["scores", "error", "metadata"] {
        let empty = |v: &&Value| v.is_null() || v.as_object().is_some_and(serde_json::Map::is_empty);
        if let Some(v) = sample.get(key).filter(|v| !empty(v)) {
            let mut v = v.clone();
            // The traceback again, coloured for a terminal (escape codes): `traceback` has it.
            if let Some(error) = v.as_object_mut().filter(|_| key == "error") {
                error.remove("traceback_ansi");
            }
            details.insert(key.to_string(), v);
        }
    }
    if !details.is_empty() {
        d.error_details = Some(Value::Object(details));
    }
    not_counts
}

/// The full samples (every field) with id `id`, from the `.json` log's `samples` or the
/// `.eval` archive's `samples/<id>_epoch_<n>.json`; nothing where they cannot be read
/// (`show` then has the summary's view), with a warning for each archive member that
/// cannot.
fn full_samples(path: &Path, bytes: &[u8], id: &str) -> (Vec<Value>, Vec<Diagnostic>) {
    let matches = |v: &Value| match v.get("id") {
        Some(Value::String(s)) => s == id,
        Some(Value::Number(n)) => n.to_string() == id,
        _ => false,
    };
    if bytes.starts_with(ZIP_MAGIC) {
        let Ok(mut archive) = Archive::open(path, bytes) else { return (Vec::new(), Vec::new()) };
        let prefix = format!("samples/{id}_epoch_");
        let names: Vec<String> = archive.names.iter().filter(|n| n.starts_with(&prefix)).cloned().collect();
        let (mut full, mut said) = (Vec::new(), Vec::new());
        for name in &names {
            let read = archive.member(name).and_then(|b| {
                evaltally_format::json::from_slice::<Value>(&b).map_err(|e| {
                    format!(
                        "not valid JSON: {} (line {}, column {})",
                        evaltally_format::json::message(&e),
                        e.line(),
                        evaltally_format::json::column(&e)
                    )
                })
            });
            match read {
                Ok(v) if matches(&v) => full.push(v),
                Ok(_) => {}
                Err(why) => said.push(Diagnostic::warning(
                    path,
                    format!("{name}: {why}; that epoch is shown from the sample's summary"),
                )),
            }
        }
        (full, said)
    } else {
        #[derive(serde::Deserialize)]
        struct Samples<'a> {
            #[serde(borrow, default)]
            samples: Vec<&'a RawValue>,
        }
        #[derive(serde::Deserialize)]
        struct Id {
            #[serde(default)]
            id: Value,
        }
        let bytes = &*evaltally_format::json::python_non_finite_as_null(evaltally_format::json::without_bom(bytes));
        let Ok(doc) = serde_json::from_slice::<Samples<'_>>(bytes) else { return (Vec::new(), Vec::new()) };
        let full = doc
            .samples
            .iter()
            .filter(|r| serde_json::from_str::<Id>(r.get()).is_ok_and(|i| matches(&serde_json::json!({"id": i.id}))))
            .filter_map(|r| serde_json::from_str::<Value>(r.get()).ok())
            .collect();
        (full, Vec::new())
    }
}

#[cfg(test)]
mod tests {
    /// `testdata/inspect/arith.eval` with its `samples/add-1_epoch_1.json` cut to 60 bytes.
    fn damaged() -> Vec<u8> {
        crate::arith_rewritten(|name, bytes| {
            if name == "samples/add-1_epoch_1.json" {
                bytes.truncate(60);
            }
        })
    }

    /// The header's `stats.model_usage` gives a one-epoch log's tokens when its samples give
    /// none; with several epochs it is no one run's.
    #[test]
    fn the_header_usage_is_a_one_epoch_run_s() {
        let log = |epochs: u64| {
            let samples: Vec<String> = (1..=epochs)
                .map(|e| format!(r#"{{"id": "a", "epoch": {e}, "scores": {{"match": {{"value": "C"}}}}}}"#))
                .collect();
            format!(
                r#"{{"eval": {{"task": "t", "model": "m"}}, "stats": {{"model_usage": {{"m": {{"input_tokens": 40, "output_tokens": 7}}}}}}, "samples": [{}]}}"#,
                samples.join(", ")
            )
        };
        let scoring = evaltally_format::Scoring::default();
        let path = std::path::Path::new("t.json");
        let (one, _) = super::records(path, log(1).as_bytes(), &scoring).unwrap();
        assert_eq!(one[0].costs.len(), 1);
        assert_eq!((one[0].costs[0].input_tokens, one[0].costs[0].output_tokens), (Some(40), Some(7)));
        let (two, _) = super::records(path, log(2).as_bytes(), &scoring).unwrap();
        assert!(two.iter().all(|r| r.costs.is_empty()));
    }

    /// A full sample that is damaged is said by `show` (its epoch shown from the summary)
    /// and is an error of `validate`; an analysis, which reads the summaries, reads on.
    #[test]
    fn a_damaged_full_sample_is_said() {
        let bytes = damaged();
        let path = std::path::Path::new("arith.eval");
        let scoring = evaltally_format::Scoring::default();
        let (details, said) = super::show_said(path, &bytes, "add-1", &scoring).unwrap();
        assert!(!details.is_empty());
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].message.starts_with("samples/add-1_epoch_1.json: not valid JSON: "), "{}", said[0].message);
        let checked = crate::read_runs(path, &bytes, &scoring, true).unwrap();
        assert!(
            checked
                .diagnostics
                .iter()
                .any(|d| d.is_error() && d.message.starts_with("samples/add-1_epoch_1.json: not valid JSON")),
            "{:?}",
            checked.diagnostics
        );
        let read = crate::read_runs(path, &bytes, &scoring, false).unwrap();
        assert!(read.diagnostics.iter().all(|d| !d.is_error()) && !read.runs.is_empty());
    }
}
