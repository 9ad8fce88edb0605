//! A results file trial by trial (`export`, `convert`) and one task across its attempts
//! (`show`).

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Message, Outcome, RunRecord, Status, TestDetail, TestRecord};
use serde_json::Value;

use crate::meta::Identity;
use crate::{FORMAT, Trial, UNGRADED, UNRESOLVED, parse, run_name, run_stem, several_attempts};

/// The unit tests a trial's `parser_results` does not mark `passed`, in its order.
fn failed_tests(entry: &Value) -> Vec<&str> {
    entry
        .get("parser_results")
        .and_then(Value::as_object)
        .map(|tests| tests.iter().filter(|(_, s)| s.as_str() != Some("passed")).map(|(t, _)| t.as_str()).collect())
        .unwrap_or_default()
}

/// Why a trial did not pass, in a sentence: the unit tests that failed and the failure
/// recorded, or why the harness did not grade it.
fn message(entry: &Value, outcome: Outcome, label: Option<&str>) -> Option<String> {
    match outcome {
        Outcome::Fail => {
            let failed = failed_tests(entry);
            let mode = label.filter(|l| *l != UNRESOLVED).map(|l| format!(" ({l})")).unwrap_or_default();
            Some(if failed.is_empty() {
                format!("not resolved{mode}")
            } else {
                format!("not resolved{mode}: failed {}", failed.join(", "))
            })
        }
        Outcome::Errored => Some(match label {
            Some("test_timeout") => "not graded: the tests timed out".to_string(),
            Some("parse_error") => "not graded: the test output could not be parsed".to_string(),
            Some("unknown_agent_error") => {
                "not graded: the harness failed before the tests ran (unknown_agent_error)".to_string()
            }
            Some(UNGRADED) | None => "not graded: `is_resolved` is null and no failure is recorded".to_string(),
            Some(other) => format!("not graded ({other})"),
        }),
        Outcome::Pass | Outcome::Unscored => None,
    }
}

/// A trial's entry in the document.
fn entry<'a>(doc: &'a Value, t: &Trial) -> &'a Value {
    &doc["results"][t.index]
}

/// A non-negative whole number field.
fn count(entry: &Value, key: &str) -> Option<u64> {
    entry.get(key).and_then(Value::as_u64)
}

/// The seconds a trial took, from `trial_started_at` to `trial_ended_at` (tb 0.2.8 and later).
fn duration(entry: &Value) -> Option<f64> {
    let at = |k: &str| entry.get(k).and_then(Value::as_str);
    crate::time::between(at("trial_started_at"), at("trial_ended_at"))
}

/// Every attempt of a results file as a run record (for `export` and `convert`): per trial
/// its outcome, label and message, its tokens (`total_input_tokens`,
/// `total_output_tokens`) and its duration.
pub fn records(
    path: &Path,
    bytes: &[u8],
    metadata: Option<&Path>,
) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let parsed = parse(path, bytes, true)?;
    let mut diagnostics = parsed.diagnostics;
    let identity = Identity::read(path, metadata, &mut diagnostics);
    let stem = run_stem(path);
    let several = several_attempts(&parsed.trials);
    let mut runs: BTreeMap<u64, RunRecord> = BTreeMap::new();
    for t in &parsed.trials {
        let run = runs.entry(t.attempt.i).or_insert_with(|| RunRecord {
            run: run_name(&stem, t.attempt, several),
            model: identity.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            started_at: identity.meta.timestamp.clone(),
            meta: identity.meta.clone(),
            ..RunRecord::default()
        });
        let e = entry(&parsed.doc, t);
        let (outcome, label) = t.verdict();
        run.tests.push(TestRecord {
            id: t.task_id.clone(),
            category: identity.category.clone(),
            outcome: Some(outcome),
            error_type: label.map(str::to_string),
            error_message: message(e, outcome, label),
            duration_ms: duration(e).map(evaltally_core::seconds_to_ms),
            input_tokens: count(e, "total_input_tokens"),
            output_tokens: count(e, "total_output_tokens"),
            cost_usd: None,
        });
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// Everything a results file says about task `id`: one detail per attempt that ran it, with
/// the task's instruction as the question, the failure mode and the unit tests' results
/// (`parser_results`) among the details, the tokens and the trial's duration.
pub fn show(path: &Path, bytes: &[u8], id: &str, metadata: Option<&Path>) -> Result<Vec<TestDetail>, Diagnostic> {
    let parsed = parse(path, bytes, false)?;
    if !parsed.trials.iter().any(|t| t.task_id == id) {
        return Ok(Vec::new());
    }
    let identity = Identity::read(path, metadata, &mut Vec::new());
    let stem = run_stem(path);
    let several = several_attempts(&parsed.trials);
    Ok(parsed
        .trials
        .iter()
        .filter(|t| t.task_id == id)
        .map(|t| {
            let e = entry(&parsed.doc, t);
            let (outcome, label) = t.verdict();
            let run = run_name(&stem, t.attempt, several);
            let mut d = TestDetail::new(&run, &identity.model, &identity.category, id, Status::from(outcome));
            d.error_type = label.map(str::to_string);
            d.error_message = message(e, outcome, label);
            if let Some(instruction) =
                e.get("instruction").or_else(|| e.get("task_description")).and_then(Value::as_str)
            {
                d.question = vec![vec![Message { role: "user".to_string(), content: instruction.to_string() }]];
            }
            let mut details = e.as_object().cloned().unwrap_or_default();
            for k in ["instruction", "task_description", "task_id"] {
                details.remove(k);
            }
            d.error_details = Some(Value::Object(details));
            d.input_tokens = count(e, "total_input_tokens");
            d.output_tokens = count(e, "total_output_tokens");
            d.latency_seconds = duration(e);
            d
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_failed_tests_and_why_nothing_was_graded() {
        let e = serde_json::json!({"parser_results": {"test_a": "passed", "test_b": "failed", "test_c": "failed"}});
        assert_eq!(message(&e, Outcome::Fail, Some(UNRESOLVED)).unwrap(), "not resolved: failed test_b, test_c");
        assert_eq!(
            message(&e, Outcome::Fail, Some("agent_timeout")).unwrap(),
            "not resolved (agent_timeout): failed test_b, test_c"
        );
        let none = serde_json::json!({"parser_results": null});
        assert_eq!(message(&none, Outcome::Errored, Some("test_timeout")).unwrap(), "not graded: the tests timed out");
        assert_eq!(message(&none, Outcome::Pass, None), None);
    }
}
