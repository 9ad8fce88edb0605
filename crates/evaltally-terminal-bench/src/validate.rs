//! `validate`: what the reader refused or tolerated, and what a `tb run` results document
//! should hold and does not.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::check::{Level, unknown_keys_in};
use serde_json::Value;

use crate::meta::Identity;
use crate::parse;

/// The failure modes Terminal-Bench writes (`FailureMode`, tb 0.1.0 to 0.2.18).
pub const FAILURE_MODES: [&str; 11] = [
    "unset",
    "none",
    "unknown",
    "test_timeout",
    "agent_timeout",
    "unknown_agent_error",
    "parse_error",
    "fatal_llm_parse_error",
    "context_length_exceeded",
    "output_length_exceeded",
    "agent_installation_failed",
];

/// The checks of one trial beyond what the reader needs: a failure mode tb does not write,
/// a unit test status other than `passed` and `failed`, and an `is_resolved` that
/// disagrees with the unit tests (tb resolves a trial when `parser_results` is there and
/// every test in it passed).
fn trial_findings(i: usize, entry: &Value, findings: &mut Vec<Finding>) {
    let at = format!("$.results[{i}]");
    let task = entry.get("task_id").and_then(Value::as_str).unwrap_or("?");
    if let Some(mode) = entry.get("failure_mode").and_then(Value::as_str)
        && !FAILURE_MODES.contains(&mode)
    {
        findings.push(Finding::warning(&at, format!("task {task}: `failure_mode` `{mode}` is none tb writes")));
    }
    let tests = entry.get("parser_results").and_then(Value::as_object);
    for (test, status) in tests.into_iter().flatten() {
        if !matches!(status.as_str(), Some("passed" | "failed")) {
            findings.push(Finding::warning(
                &at,
                format!("task {task}: unit test `{test}` is {status:.40}, expected \"passed\" or \"failed\""),
            ));
        }
    }
    let all_passed = tests.is_some_and(|t| t.values().all(|s| s.as_str() == Some("passed")));
    match entry.get("is_resolved").and_then(Value::as_bool) {
        Some(true) if !all_passed => findings.push(Finding::warning(
            &at,
            format!("task {task}: `is_resolved` is true but `parser_results` does not pass every test"),
        )),
        Some(false) if all_passed => findings.push(Finding::warning(
            &at,
            format!("task {task}: `is_resolved` is false but every test in `parser_results` passed"),
        )),
        _ => {}
    }
}

/// The keys `tb` writes in `results.json`, every version (0.1.0 – 0.2.18): `BenchmarkResults`
/// and `TrialResults` of `terminal_bench/harness/models.py` (before 0.2.8,
/// `harness_models.py`, with `uuid` for `id` and, before 0.2.6, `task_description` for
/// `instruction`). `parser_results` is a map of test names and not checked.
const KEYS: &[Level] = &[
    Level {
        at: "$",
        known: &[
            "id",
            "results",
            "pass_at_k",
            "n_resolved",
            "n_unresolved",
            "resolved_ids",
            "unresolved_ids",
            "accuracy",
        ],
        what: "Terminal-Bench's BenchmarkResults",
    },
    Level {
        at: "$.results[*]",
        known: &[
            "id",
            "uuid",
            "trial_name",
            "task_id",
            "task_description",
            "instruction",
            "is_resolved",
            "failure_mode",
            "parser_results",
            "recording_path",
            "total_input_tokens",
            "total_output_tokens",
            "trial_started_at",
            "trial_ended_at",
            "agent_started_at",
            "agent_ended_at",
            "test_started_at",
            "test_ended_at",
        ],
        what: "Terminal-Bench's TrialResults",
    },
];

/// Every finding on a results document: its repeated keys (errors), what the reader left
/// out (errors) or read with a default (warnings), the metadata beside it, the trials'
/// own checks, an `n_resolved` that does not count the resolved trials, and the keys `tb`
/// never writes (warnings).
pub(crate) fn findings(path: &Path, bytes: &[u8], metadata: Option<&Path>) -> Vec<Finding> {
    let finding = |d: Diagnostic| Finding::from_diagnostic(d, "$");
    let mut findings = evaltally_format::json::repeated_key_findings(bytes);
    let parsed = match parse(path, bytes, false) {
        Ok(parsed) => parsed,
        Err(d) => return vec![finding(d)],
    };
    findings.extend(parsed.diagnostics.into_iter().map(finding));
    let mut said = Vec::new();
    Identity::read(path, metadata, &mut said);
    findings.extend(said.into_iter().map(finding));
    let entries = parsed.doc.get("results").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    for (i, entry) in entries.iter().enumerate() {
        trial_findings(i, entry, &mut findings);
    }
    findings.extend(unknown_keys_in(&parsed.doc, KEYS));
    let resolved = entries.iter().filter(|e| e.get("is_resolved") == Some(&Value::Bool(true))).count();
    if let Some(n) = parsed.doc.get("n_resolved").and_then(Value::as_u64)
        && usize::try_from(n).ok() != Some(resolved)
    {
        findings.push(Finding::warning(
            "$.n_resolved",
            format!("`n_resolved` is {n}, but {resolved} trials have `is_resolved` true"),
        ));
    }
    findings
}
