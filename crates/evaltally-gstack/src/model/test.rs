//! One test of a run: a standard `all_results[]` entry or a legacy `tests[]` entry.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::fields;
use super::parts::{AbComparison, CostEntry, ExpectationFailure, Harvest};

/// One test, in either shape. Fields the file lacks (or holds with the wrong type) are
/// `None`; durations are in milliseconds in both shapes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GstackTest {
    /// Position in `all_results` / `tests`.
    pub index: usize,
    /// Test name, the test id (`name`).
    pub name: Option<String>,
    /// Suite (group) name.
    pub suite: Option<String>,
    /// Tier: `e2e`, `llm-judge` or custom.
    pub tier: Option<String>,
    /// Whether the test passed; `None` when not a boolean.
    pub passed: Option<bool>,
    /// Duration in milliseconds.
    pub duration_ms: Option<f64>,
    /// Cost in USD.
    pub cost_usd: Option<f64>,
    /// `output`: an object in the standard format, a string in the legacy one.
    pub output: Option<Value>,
    /// LLM conversation turns.
    pub turns_used: Option<f64>,
    /// `success`, `timeout`, `error_max_turns`, `exit_code_N`, …
    pub exit_reason: Option<String>,
    /// Share of planted bugs found (QA evals).
    pub detection_rate: Option<f64>,
    /// False positives (QA evals).
    pub false_positives: Option<f64>,
    /// Evidence quality (QA evals).
    pub evidence_quality: Option<f64>,
    /// Bugs found.
    pub detected_bugs: Option<Vec<String>>,
    /// Bugs missed.
    pub missed_bugs: Option<Vec<String>>,
    /// `{dimension: score}` from an LLM judge.
    pub judge_scores: Option<BTreeMap<String, f64>>,
    /// The judge's reasoning.
    pub judge_reasoning: Option<String>,
    /// Error message.
    pub error: Option<String>,
    /// Legacy: the session transcript events.
    pub transcript: Option<Vec<Value>>,
    /// Legacy: the prompt.
    pub prompt: Option<String>,
    /// Legacy: browse tool errors.
    pub browse_errors: Option<Vec<String>>,
    /// Legacy: the turn active when a timeout hit.
    pub timeout_at_turn: Option<f64>,
    /// Legacy: the last tool call, e.g. `Write(review-output.md)`.
    pub last_tool_call: Option<String>,
    /// Legacy: the model.
    pub model: Option<String>,
    /// Legacy: milliseconds from spawn to the first response.
    pub first_response_ms: Option<f64>,
    /// Legacy: peak milliseconds between consecutive tool calls.
    pub max_inter_turn_ms: Option<f64>,
    /// Legacy (branch): per-model costs of this test.
    pub costs: Option<Vec<CostEntry>>,
    /// Legacy: worktree harvest.
    pub harvest: Option<Harvest>,
    /// Legacy (main): tokens used, not split into input and output.
    pub tokens_used: Option<f64>,
    /// Design doc: the result's category.
    pub category: Option<String>,
    /// Design doc: the start of the response.
    pub response_preview: Option<String>,
    /// Design doc: per-result A/B comparison (`null` reads as `None`).
    pub comparison: Option<AbComparison>,
    /// Design doc: per-result expectation failures.
    pub failures: Option<Vec<ExpectationFailure>>,
}

impl GstackTest {
    /// Reads one test object (either shape; tolerant).
    pub fn from_object(index: usize, m: &Map<String, Value>) -> Self {
        Self {
            index,
            name: fields::string(m, "name"),
            suite: fields::string(m, "suite"),
            tier: fields::string(m, "tier"),
            passed: fields::boolean(m, "passed"),
            duration_ms: fields::number(m, "duration_ms"),
            cost_usd: fields::number(m, "cost_usd"),
            output: m.get("output").filter(|v| v.is_string() || v.is_object()).cloned(),
            turns_used: fields::number(m, "turns_used"),
            exit_reason: fields::string(m, "exit_reason"),
            detection_rate: fields::number(m, "detection_rate"),
            false_positives: fields::number(m, "false_positives"),
            evidence_quality: fields::number(m, "evidence_quality"),
            detected_bugs: fields::strings(m, "detected_bugs"),
            missed_bugs: fields::strings(m, "missed_bugs"),
            judge_scores: fields::scores(m, "judge_scores"),
            judge_reasoning: fields::string(m, "judge_reasoning"),
            error: fields::string(m, "error"),
            transcript: m.get("transcript").and_then(Value::as_array).cloned(),
            prompt: fields::string(m, "prompt"),
            browse_errors: fields::strings(m, "browse_errors"),
            timeout_at_turn: fields::number(m, "timeout_at_turn"),
            last_tool_call: fields::string(m, "last_tool_call"),
            model: fields::string(m, "model"),
            first_response_ms: fields::number(m, "first_response_ms"),
            max_inter_turn_ms: fields::number(m, "max_inter_turn_ms"),
            costs: fields::objects(m, "costs", CostEntry::read),
            harvest: m.get("harvest").and_then(Value::as_object).map(Harvest::read),
            tokens_used: fields::number(m, "tokens_used"),
            category: fields::string(m, "category"),
            response_preview: fields::string(m, "response_preview"),
            comparison: m.get("comparison").and_then(Value::as_object).map(AbComparison::read),
            failures: fields::objects(m, "failures", ExpectationFailure::read),
        }
    }

    /// Input and output tokens summed over this test's `costs`, when it has any.
    pub fn token_totals(&self) -> Option<(u64, u64)> {
        let costs = self.costs.as_ref().filter(|c| !c.is_empty())?;
        let sum = |f: fn(&CostEntry) -> Option<u64>| costs.iter().filter_map(f).fold(0u64, u64::saturating_add);
        Some((sum(|c| c.input_tokens), sum(|c| c.output_tokens)))
    }
}
