//! The classic `oaieval` record log (`--record_path`, or `/tmp/evallogs/<run>.jsonl`): a
//! `spec` line, a `final_report` line, and event lines `{run_id, event_id, sample_id, type,
//! data}`. A sample's `match` event (`data.correct`) judges it; its `sampling` events hold
//! the prompt and what the model sampled.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_format::fields::{Fallback as Slow, boolean, fields, string};
use serde_json::{Value, json};

use crate::{Item, Verdict};

/// The criterion a record log's `match` event judges, as failures name it (`failed:match`).
pub(crate) const MATCH: &str = "match";

/// Whether `line` is an object with `spec` (a record log's first line).
pub(crate) fn is_spec_line(line: &[u8]) -> bool {
    let start = line.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
    let mut spec = false;
    let scanned = evaltally_format::scan::object_at(line, start, |k, _| spec |= &line[k] == b"spec");
    scanned.is_ok() && spec
}

/// The run, model and category a `spec` names: `run_id`; the completion functions joined
/// with `+` (before `completion_fns`, 2023-04: the completion models of `model_names`, else
/// `model_name`); and `base_eval` (else `eval_name`).
fn spec_identity(spec: &Value) -> (Option<String>, Option<String>, Option<String>) {
    let text = |k: &str| spec.get(k).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
    let joined = |list: Option<&Value>| -> Option<String> {
        let names: Vec<&str> = list
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|s| !s.is_empty())
            .collect();
        (!names.is_empty()).then(|| names.join("+"))
    };
    let model = joined(spec.get("completion_fns"))
        .or_else(|| joined(spec.get("model_names").and_then(|m| m.get("completions"))))
        .or_else(|| text("model_name"));
    (text("run_id"), model, text("base_eval").or_else(|| text("eval_name")))
}

/// One sample's events as read.
struct Sample {
    line: u64,
    run: String,
    sampling: Vec<Value>,
    judged: Option<(u64, bool, Value)>,
    /// The first `metrics` event's data (a model-graded eval's `{choice, score}`).
    metrics: Option<Value>,
}

/// What the scanner read of an event line (the fast path of [`items`]).
enum Event<'a> {
    /// A `final_report` line.
    Report,
    /// An event of a sample: its id, `run_id`, `type`, and a `match` event's `data.correct`.
    Sample { id: String, run: Option<Cow<'a, str>>, kind: Option<Cow<'a, str>>, correct: Option<bool> },
}

/// JSON's white space (other bytes below 0x20 are damage: such a file takes the tolerant
/// path).
fn is_json_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The event of line `t` as the tolerant reader reads it without a word, found with the
/// scanner (the prompts and samples are skipped without being built); anything else (a
/// `spec` line, a structure error, a key of these written twice, an id that is not a
/// plain string or integer, a `match` event without a boolean `data.correct`) is a
/// [`Slow`]: the line is parsed.
fn scan_event(t: &str) -> Result<Event<'_>, Slow> {
    let b = t.as_bytes();
    let start = b.iter().position(|c| !is_json_space(*c)).ok_or(Slow)?;
    let ([spec, report, sample_id, run_id, kind, data], end) =
        fields(b, start, ["spec", "final_report", "sample_id", "run_id", "type", "data"])?;
    if spec.is_some() || !b[end..].iter().all(|&c| is_json_space(c)) {
        return Err(Slow);
    }
    if report.is_some() {
        return Ok(Event::Report);
    }
    let raw = sample_id.ok_or(Slow)?;
    let id = if b[raw.start] == b'"' {
        string(t, Some(&raw))?.filter(|s| !s.is_empty()).ok_or(Slow)?.into_owned()
    } else {
        // An integer written plainly: its decimal text is the bytes themselves.
        let digits = &b[raw.clone()];
        let plain = matches!(digits, [b'0'] | [b'1'..=b'9', ..]) && digits.iter().all(u8::is_ascii_digit);
        if !plain || digits.len() > 19 {
            return Err(Slow);
        }
        t[raw].to_string()
    };
    let kind = string(t, kind.as_ref())?;
    let correct = if kind.as_deref() == Some("match") {
        let data = data.filter(|d| b[d.start] == b'{').ok_or(Slow)?;
        let ([correct], _) = fields(b, data.start, ["correct"])?;
        Some(boolean(b, correct.as_ref()).ok_or(Slow)?)
    } else {
        None
    };
    Ok(Event::Sample { id, run: string(t, run_id.as_ref())?, kind, correct })
}

/// Every sample of a record log, with what was wrong, naming the line. `outcomes_only`:
/// event lines are read with the scanner where they are plainly well-formed, and the
/// items' documents are left null.
pub(crate) fn items(path: &Path, bytes: &[u8], note_keys: bool, outcomes_only: bool) -> (Vec<Item>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let (mut run, mut model, mut category, mut created) = (None, None, None, None);
    let mut order: Vec<String> = Vec::new();
    let mut samples: HashMap<String, Sample> = HashMap::new();
    let text = if outcomes_only { evaltally_format::damage::clean_text(bytes) } else { None };
    let mut offset = 0;
    for (n, line) in evaltally_format::bytes::lines(bytes).enumerate() {
        let line_no = n as u64 + 1;
        let at = offset;
        offset += line.len() + 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // Lines end at a `\n`, so they are whole characters of the text.
        if let Some(event) = text.and_then(|t| scan_event(&t[at..at + line.len()]).ok()) {
            if note_keys {
                crate::note_repeated_keys(path, line_no, line, &mut diagnostics);
            }
            let Event::Sample { id, run: event_run, kind, correct } = event else { continue };
            let entry = samples.entry(id.clone()).or_insert_with(|| {
                order.push(id.clone());
                Sample {
                    line: line_no,
                    run: event_run
                        .map(Cow::into_owned)
                        .or_else(|| run.clone())
                        .unwrap_or_else(|| evaltally_format::json::stem(path)),
                    sampling: Vec::new(),
                    judged: None,
                    metrics: None,
                }
            });
            if kind.as_deref() == Some("metrics") {
                entry.metrics.get_or_insert(Value::Null);
            }
            if let (Some("match"), Some(correct)) = (kind.as_deref(), correct) {
                if entry.judged.is_some() {
                    diagnostics.push(
                        Diagnostic::warning(path, format!("sample {id} judged again; the first is kept"))
                            .at_line(line_no),
                    );
                } else {
                    entry.judged = Some((line_no, correct, Value::Null));
                }
            }
            continue;
        }
        let Some(doc) = crate::parse_line(path, line_no, line, note_keys, &mut diagnostics) else { continue };
        if let Some(spec) = doc.get("spec") {
            (run, model, category) = spec_identity(spec);
            created = spec.get("created_at").and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_string);
            continue;
        }
        if doc.get("final_report").is_some() {
            continue;
        }
        let left_out = |what: &str| Diagnostic::error(path, format!("{what}; line left out")).at_line(line_no);
        let Some(sample_id) = doc.get("sample_id").and_then(crate::id_text) else {
            diagnostics.push(left_out("expected an event with `sample_id`, a string"));
            continue;
        };
        let event_run = doc.get("run_id").and_then(Value::as_str).map(str::to_string);
        let entry = samples.entry(sample_id.clone()).or_insert_with(|| {
            order.push(sample_id.clone());
            Sample {
                line: line_no,
                run: event_run.clone().or_else(|| run.clone()).unwrap_or_else(|| evaltally_format::json::stem(path)),
                sampling: Vec::new(),
                judged: None,
                metrics: None,
            }
        });
        let data = doc.get("data").cloned().unwrap_or(Value::Null);
        match doc.get("type").and_then(Value::as_str) {
            Some("sampling") => entry.sampling.push(data),
            Some("match") => match data.get("correct") {
                Some(Value::Bool(correct)) => {
                    if entry.judged.is_some() {
                        diagnostics.push(
                            Diagnostic::warning(path, format!("sample {sample_id} judged again; the first is kept"))
                                .at_line(line_no),
                        );
                    } else {
                        entry.judged = Some((line_no, *correct, data));
                    }
                }
                other => diagnostics.push(left_out(&format!(
                    "sample {sample_id}: expected `data.correct`, true or false, found {}",
                    other.map_or_else(|| "nothing".to_string(), Value::to_string)
                ))),
            },
            // Shown, not read as a verdict: a model-graded eval's score is on the scale its
            // spec chose (`Y`/`N` as 1/0, `Unsure` 0.5, a grade 1–5 as 1.0–5.0).
            Some("metrics") => {
                entry.metrics.get_or_insert(data);
            }
            // Other events (info, the evals' own) judge nothing here.
            _ => {}
        }
    }
    let graded = samples.values().filter(|s| s.judged.is_none() && s.metrics.is_some()).count();
    if graded > 0 {
        diagnostics.push(Diagnostic::info(
            path,
            format!(
                "{graded} sample{} judged only by a `metrics` event (a model-graded eval's score, on its spec's \
                 scale): not read as a verdict, so unscored",
                if graded == 1 { "" } else { "s" }
            ),
        ));
    }
    let model = model.unwrap_or_else(|| crate::UNKNOWN_MODEL.to_string());
    let category = category.unwrap_or_else(|| crate::DEFAULT_CATEGORY.to_string());
    let items = order
        .into_iter()
        .filter_map(|id| {
            let s = samples.remove(&id)?;
            let (line, verdict, judged) = match s.judged {
                Some((line, true, data)) => (line, Verdict::Pass, data),
                Some((line, false, data)) => (line, Verdict::Fail(vec![MATCH.to_string()]), data),
                None => (s.line, Verdict::Unscored, Value::Null),
            };
            // The shape the views read (an output item's): the sampled prompt as the
            // trajectory, the sampled text as the outputs, the match event's data as grades.
            let trajectory = match s.sampling.first().and_then(|d| d.get("prompt")) {
                Some(Value::String(text)) => json!([{"role": "user", "content": text}]),
                Some(other) => other.clone(),
                None => Value::Null,
            };
            let sampled = s.sampling.first().and_then(|d| d.get("sampled")).cloned();
            let mut doc = json!({"run_id": s.run, "sample_id": id, "grades": {MATCH: judged},
                                 "sample": {"trajectory": trajectory, "outputs": sampled}});
            if let Some(metrics) = s.metrics.filter(|m| !m.is_null()) {
                doc["metrics"] = metrics;
            }
            Some(Item {
                line,
                run: s.run,
                id,
                category: category.clone(),
                model: Some(model.clone()),
                verdict,
                doc,
                created: created.clone(),
            })
        })
        .collect();
    (items, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(spec: &str) -> Option<String> {
        spec_identity(&serde_json::from_str(spec).unwrap()).1
    }

    #[test]
    fn the_model_is_read_from_every_spec_openai_evals_wrote() {
        assert_eq!(model(r#"{"completion_fns": ["gpt-4o", "cot"]}"#).as_deref(), Some("gpt-4o+cot"));
        // 2023-03 to 2023-04: `model_names` and `model_name`, no `completion_fns`.
        let early = r#"{"model_name": "gpt-3.5-turbo", "model_names": {"completions": ["gpt-3.5-turbo", "gpt-4"]}}"#;
        assert_eq!(model(early).as_deref(), Some("gpt-3.5-turbo+gpt-4"));
        assert_eq!(model(r#"{"model_name": "gpt-3.5-turbo"}"#).as_deref(), Some("gpt-3.5-turbo"));
        assert_eq!(model(r#"{"completion_fns": [], "model_name": ""}"#), None);
    }
}
