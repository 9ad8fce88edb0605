//! Which SF-Bench document a JSON document is.
//!
//! SF-Bench's v2 report copies SWE-bench's id lists, and its summary object SWE-bench's
//! counts, so the rules below and SWE-bench's are one set, split between the two adapter
//! crates: a SWE-bench run report is known first (unless it holds SF-Bench's `instances` or
//! v2 header), then every SF-Bench document, then SWE-bench's per-instance report. No
//! document is both crates'; the registry's tests check the split against the rules as one
//! function.

use evaltally_format::Keys;

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
        }
    }
}

fn has(v: &impl Keys, k: &str) -> bool {
    v.has_key(k)
}

/// Whether an object is a SWE-bench harness run report (SWE-bench's crate reads it), which
/// comes before every SF-Bench rule: SWE-bench's id lists without SF-Bench's `instances`
/// or v2 header.
fn harness_run_report(v: &impl Keys, v2_header: bool) -> bool {
    has(v, "resolved_ids")
        && (has(v, "completed_ids") || has(v, "submitted_ids") || has(v, "total_instances"))
        && !has(v, "instances")
        && !v2_header
}

/// The keys of a SWE-bench per-instance report: `resolved` with one of the others.
const HARNESS_INSTANCE_KEYS: [&str; 4] = ["resolved", "patch_is_None", "patch_exists", "tests_status"];

fn harness_instance_keys(found: &[bool]) -> bool {
    found[0] && (found[1] || found[2] || found[3])
}

/// Detects the format of a JSON document, or `None` when it is none of these (a SWE-bench
/// report included).
///
/// ```
/// use evaltally_sfbench::detect::{detect, Format};
/// let v2 = serde_json::json!({"schema_version": "2.0", "run_id": "r", "instances": []});
/// assert_eq!(detect(&v2), Some(Format::SfbenchV2));
/// let summary = serde_json::json!({"total_instances": 12, "resolved_instances": 5, "resolve_rate": 0.4167});
/// assert_eq!(detect(&summary), Some(Format::SfbenchSummary));
/// // A SWE-bench run report has the same counts, and its id lists say it is SWE-bench's.
/// let run = serde_json::json!({"total_instances": 1, "resolved_instances": 1, "resolved_ids": ["a"],
///     "completed_ids": ["a"]});
/// assert_eq!(detect(&run), None);
/// ```
pub fn detect(v: &impl Keys) -> Option<Format> {
    if !v.is_object() {
        return None;
    }
    // SF-Bench v2 copies SWE-bench's id lists; `schema_version` with `run_id` and `summary`
    // still tells a v2 report that lost its `instances`.
    let v2_header = has(v, "schema_version") && has(v, "run_id") && has(v, "summary");
    if harness_run_report(v, v2_header) {
        return None;
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
    None
}

/// Whether a report's header says it is SF-Bench v2, `instances` with `schema_version` or
/// `run_id` before it, found without skipping the instances: what [`detect`] says of such a
/// document once it is known to be complete (the reader checks that as it reads).
///
/// ```
/// use evaltally_format::Input;
/// use evaltally_sfbench::detect::v2_header;
/// let doc = br#"{"schema_version": "2.0", "run_id": "r", "instances": []}"#;
/// assert!(v2_header(&Input::new("report.json".as_ref(), doc, false)));
/// let later = br#"{"instances": [], "schema_version": "2.0"}"#;
/// assert!(!v2_header(&Input::new("report.json".as_ref(), later, false)));
/// ```
pub fn v2_header(file: &evaltally_format::Input<'_>) -> bool {
    file.has_before("instances", &["schema_version", "run_id"])
}

/// Whether a document is a SWE-bench harness report, run or per-instance
/// (SWE-bench's crate reads it): never an SF-Bench document, nor a part of one.
///
/// ```
/// use evaltally_sfbench::detect::is_harness_report;
/// let inst = serde_json::json!({"django__django-11099": {"resolved": true, "patch_exists": true}});
/// assert!(is_harness_report(&inst));
/// assert!(!is_harness_report(&serde_json::json!({"schema_version": "2.0", "instances": []})));
/// ```
pub fn is_harness_report(v: &impl Keys) -> bool {
    if !v.is_object() {
        return false;
    }
    let v2_header = has(v, "schema_version") && has(v, "run_id") && has(v, "summary");
    if harness_run_report(v, v2_header) {
        return true;
    }
    if detect(v).is_some() {
        return false;
    }
    let own: Vec<bool> = HARNESS_INSTANCE_KEYS.iter().map(|k| has(v, k)).collect();
    harness_instance_keys(&own)
        || v.only_child_has(&HARNESS_INSTANCE_KEYS).is_some_and(|found| harness_instance_keys(&found))
        // Instance reports merged into one map (as `evaltally-swebench` reads them).
        || evaltally_format::keys::map_of(v, "resolved", &HARNESS_INSTANCE_KEYS[1..], Some("timed_out"), 8)
}
