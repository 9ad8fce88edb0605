//! A stats file test by test (`export`, `convert`) and one instance across its trials
//! (`show`, with the prompt, the completion and the correct references from the
//! `scenario_state.json` beside it when there is one).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Message, Outcome, RunRecord, Status, TestDetail, TestRecord, seconds_to_ms};
use serde_json::{Map, Value};

use crate::{FORMAT, Instance, RunSpec, instances, run_name, scenario_state_file, stat_name};

/// A stat's mean as a token count ([`crate::token_count`]; one that is none is said when the
/// file is read).
fn tokens(mean: Option<f64>) -> Option<u64> {
    mean.and_then(crate::token_count)
}

/// Why a judged instance failed (`exact_match = 0, pass needs 1`), or that nothing judged it.
fn message(t: &Instance) -> Option<String> {
    match t.judged() {
        Some(j) if j.passed() => None,
        Some(j) => Some(format!("{} = {}, pass needs 1", j.metric, j.mean)),
        None => Some("no exact_match or quasi_exact_match stat".to_string()),
    }
}

/// Every trial of a stats file as a run record (for `export` and `convert`): outcome,
/// inference time and token counts per instance.
pub fn records(path: &Path, bytes: &[u8], spec: &RunSpec) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (instances, diagnostics) = instances(path, bytes, true)?;
    let mut runs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for t in instances {
        let run = runs.entry(t.trial).or_insert_with(|| RunRecord {
            run: run_name(path, t.trial),
            model: spec.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            ..RunRecord::default()
        });
        let (outcome, error_type) = t.outcome();
        run.tests.push(TestRecord {
            id: t.id.clone(),
            category: spec.category.clone(),
            outcome: Some(outcome),
            error_type,
            error_message: message(&t),
            duration_ms: t.stat("inference_runtime").filter(|s| s.is_finite() && *s >= 0.0).map(seconds_to_ms),
            input_tokens: tokens(t.stat("num_prompt_tokens")),
            output_tokens: tokens(t.stat("num_output_tokens").or_else(|| t.stat("num_completion_tokens"))),
            cost_usd: None,
        });
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// Everything a stats file says about test `id` (an instance id, with `/<perturbation>` for
/// a perturbed variant): one detail per trial that ran it, with the stats' means as details,
/// and the prompt, completion and correct references of `scenario_state.json` when it is
/// beside the file (a warning when it is there but cannot be read).
pub fn show(
    path: &Path,
    bytes: &[u8],
    id: &str,
    spec: &RunSpec,
) -> Result<(Vec<TestDetail>, Vec<Diagnostic>), Diagnostic> {
    let (instances, _) = instances(path, bytes, false)?;
    let held: Vec<Instance> = instances.into_iter().filter(|t| t.id == id).collect();
    let mut diagnostics = Vec::new();
    let states = if held.is_empty() { Vec::new() } else { request_states(path, &mut diagnostics) };
    let mut not_counts: Vec<(u64, &str)> = Vec::new();
    let details = held
        .into_iter()
        .map(|t| {
            not_counts.extend(crate::not_counts(&t).map(|name| (t.trial, name)));
            let (outcome, error_type) = t.outcome();
            let status = Status::from(outcome);
            let mut d = TestDetail::new(&run_name(path, t.trial), &spec.model, &spec.category, id, status);
            d.error_type = error_type;
            d.error_message = (outcome != Outcome::Pass).then(|| message(&t)).flatten();
            d.input_tokens = tokens(t.stat("num_prompt_tokens"));
            d.output_tokens = tokens(t.stat("num_output_tokens").or_else(|| t.stat("num_completion_tokens")));
            d.latency_seconds = t.stat("inference_runtime");
            let mut means = Map::new();
            for stat in &t.stats {
                if let (Some(name), Some(mean)) = (stat_name(stat), stat.get("mean")) {
                    means.entry(name.to_string()).or_insert_with(|| mean.clone());
                }
            }
            let mut details = Map::new();
            if let Some(p) = &t.perturbation {
                details.insert("perturbation".to_string(), p.clone());
            }
            details.insert("stats".to_string(), Value::Object(means));
            d.error_details = Some(Value::Object(details));
            if let Some(state) = states.iter().find(|s| is_state_of(s, &t)) {
                fill_from_state(&mut d, state);
            }
            d
        })
        .collect();
    if let Some((trial, name)) = not_counts.first() {
        let first = format!("`{}`'s `{name}` (trial {trial})", evaltally_core::text::printable(id));
        let message = evaltally_core::text::token_not_shown(not_counts.len(), &first, crate::NOT_A_COUNT);
        diagnostics.push(Diagnostic::warning(path, message));
    }
    Ok((details, diagnostics))
}

/// The request states of the `scenario_state.json` beside a stats file; none when there is
/// no such file, with a warning when it cannot be read.
fn request_states(stats: &Path, diagnostics: &mut Vec<Diagnostic>) -> Vec<Value> {
    let path = scenario_state_file(stats);
    let bytes = match evaltally_format::file::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => {
            diagnostics.push(Diagnostic::warning(
                &path,
                format!("{}; shown without prompts", evaltally_format::file::cannot_read(&e)),
            ));
            return Vec::new();
        }
    };
    match evaltally_format::json::parse(&path, &bytes) {
        Ok(Value::Object(mut doc)) => {
            if let Some(Value::Array(states)) = doc.remove("request_states") {
                states
            } else {
                diagnostics
                    .push(Diagnostic::warning(&path, "expected `request_states`, a list; shown without prompts"));
                Vec::new()
            }
        }
        Ok(_) => {
            diagnostics
                .push(Diagnostic::warning(&path, "expected an object with `request_states`; shown without prompts"));
            Vec::new()
        }
        Err(mut d) => {
            d.severity = evaltally_core::Severity::Warning;
            d.message.push_str("; shown without prompts");
            diagnostics.push(d);
            Vec::new()
        }
    }
}

/// Whether a request state is the one of this instance, trial and perturbation.
fn is_state_of(state: &Value, t: &Instance) -> bool {
    let instance = state.get("instance");
    let id = instance.and_then(|i| i.get("id")).and_then(Value::as_str);
    let trial = state.get("train_trial_index").and_then(Value::as_u64).unwrap_or(0);
    let perturbation = instance.and_then(|i| i.get("perturbation")).and_then(|p| p.get("name")).and_then(Value::as_str);
    let wanted = t.perturbation.as_ref().and_then(|p| p.get("name")).and_then(Value::as_str);
    let base = t.id.strip_suffix(&wanted.map(|w| format!("/{w}")).unwrap_or_default()).unwrap_or(&t.id);
    id == Some(base) && trial == t.trial && perturbation == wanted
}

/// The prompt as the question, the first completion as the answer and the references
/// tagged `correct` as the expected answer; a request that failed (a content filter, a
/// refusal the API reports as an error: HELM goes on with an empty completion) is said, with
/// its error, in the message and the details.
fn fill_from_state(d: &mut TestDetail, state: &Value) {
    let result = state.get("result");
    if result.and_then(|r| r.get("success")) == Some(&Value::Bool(false)) {
        let error = result.and_then(|r| r.get("error")).and_then(Value::as_str).unwrap_or("no error given");
        let said = format!("the request failed ({error}); HELM scored an empty answer");
        d.error_message = Some(match d.error_message.take() {
            Some(m) => format!("{m}; {said}"),
            None => said,
        });
        if let Some(Value::Object(details)) = &mut d.error_details {
            let mut request = Map::new();
            request.insert("success".to_string(), Value::Bool(false));
            for key in ["error", "error_flags"] {
                if let Some(v) = result.and_then(|r| r.get(key)) {
                    request.insert(key.to_string(), v.clone());
                }
            }
            details.insert("request".to_string(), Value::Object(request));
        }
    }
    if let Some(prompt) = state.get("request").and_then(|r| r.get("prompt")).and_then(Value::as_str) {
        d.question = vec![vec![Message { role: "user".to_string(), content: prompt.to_string() }]];
    }
    if let Some(text) = state
        .get("result")
        .and_then(|r| r.get("completions"))
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.get("text"))
    {
        d.answer = Some(text.clone());
    }
    let correct: Vec<Value> = state
        .get("instance")
        .and_then(|i| i.get("references"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|r| r.get("tags").and_then(Value::as_array).is_some_and(|t| t.iter().any(|t| t == "correct")))
        .filter_map(|r| r.get("output").and_then(|o| o.get("text")).cloned())
        .collect();
    if !correct.is_empty() {
        d.expected = Some(if correct.len() == 1 { correct[0].clone() } else { Value::Array(correct) });
    }
}
