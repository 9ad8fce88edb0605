//! Which report format a JSON document is.

use serde_json::Value;

/// The formats this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// SF-Bench result report, schema v2 (`schema_version: "2.0"` with `instances`).
    SfbenchV2,
    /// The v1 shape `migrate_v1_to_v2` reads: `model_name` + `instances` with `score` and
    /// `duration`, no `schema_version`.
    SfbenchV1,
    /// The legacy file SF-Bench's `scripts/evaluate.py` writes: `model`, `total_tasks`,
    /// `results` with uppercase `PASS`/`FAIL`/`TIMEOUT`/`ERROR`.
    SfbenchLegacyEvaluate,
    /// The engine's `summary.json`: `statistics` + `results`.
    SfbenchEngineSummary,
    /// A bare SF-Bench summary object (as in the docs): counts and rates, no instances.
    SfbenchSummary,
    /// A SWE-bench harness run report `<model>.<run_id>.json`.
    SwebenchRunReport,
    /// A SWE-bench per-instance `report.json`, wrapped in `{instance_id: …}` or not.
    SwebenchInstanceReport,
}

impl Format {
    /// A short name for messages and `--format json` output.
    pub fn name(self) -> &'static str {
        match self {
            Self::SfbenchV2 => "sfbench-v2",
            Self::SfbenchV1 => "sfbench-v1",
            Self::SfbenchLegacyEvaluate => "sfbench-v1-evaluate",
            Self::SfbenchEngineSummary => "sfbench-v1-engine-summary",
            Self::SfbenchSummary => "sfbench-v2-summary",
            Self::SwebenchRunReport => "swebench-run-report",
            Self::SwebenchInstanceReport => "swebench-instance-report",
        }
    }
}

fn has(v: &Value, k: &str) -> bool {
    v.get(k).is_some()
}

fn looks_like_instance_report(v: &Value) -> bool {
    has(v, "resolved") && (has(v, "patch_is_None") || has(v, "patch_exists") || has(v, "tests_status"))
}

/// Detects the format of a JSON document, or `None` when it is none of these.
///
/// ```
/// use evaltally_sfbench::detect::{detect, Format};
/// let v2 = serde_json::json!({"schema_version": "2.0", "run_id": "r", "instances": []});
/// assert_eq!(detect(&v2), Some(Format::SfbenchV2));
/// let run = serde_json::json!({"schema_version": 2, "resolved_ids": [], "completed_ids": []});
/// assert_eq!(detect(&run), Some(Format::SwebenchRunReport));
/// let inst = serde_json::json!({"django__django-11099": {"resolved": true, "patch_exists": true}});
/// assert_eq!(detect(&inst), Some(Format::SwebenchInstanceReport));
/// ```
pub fn detect(v: &Value) -> Option<Format> {
    let obj = v.as_object()?;
    // SF-Bench v2 copies SWE-bench's id lists; `schema_version` with `run_id` and `summary`
    // still tells a v2 report that lost its `instances`.
    let v2_header = has(v, "schema_version") && has(v, "run_id") && has(v, "summary");
    if has(v, "resolved_ids")
        && (has(v, "completed_ids") || has(v, "submitted_ids") || has(v, "total_instances"))
        && !has(v, "instances")
        && !v2_header
    {
        return Some(Format::SwebenchRunReport);
    }
    if v2_header || has(v, "instances") && (has(v, "schema_version") || has(v, "run_id") || has(v, "summary")) {
        return Some(Format::SfbenchV2);
    }
    if has(v, "instances") && (has(v, "model_name") || has(v, "dataset")) {
        return Some(Format::SfbenchV1);
    }
    if has(v, "results") && (has(v, "total_tasks") || has(v, "model")) {
        return Some(Format::SfbenchLegacyEvaluate);
    }
    if has(v, "statistics") && has(v, "results") {
        return Some(Format::SfbenchEngineSummary);
    }
    if has(v, "total_instances") && (has(v, "resolve_rate") || has(v, "resolved_instances")) {
        return Some(Format::SfbenchSummary);
    }
    if looks_like_instance_report(v) {
        return Some(Format::SwebenchInstanceReport);
    }
    if obj.len() == 1 && obj.values().next().is_some_and(looks_like_instance_report) {
        return Some(Format::SwebenchInstanceReport);
    }
    None
}
