//! Which SWE-bench report a JSON document is.
//!
//! SF-Bench's v2 report copies SWE-bench's id lists, and its summary object SWE-bench's
//! counts, so the rules below and those of `evaltally-sfbench` are one set, split between
//! the crates: a run report is known first (unless it holds SF-Bench's `instances` or v2
//! header), then every SF-Bench document, then the per-instance report. No document is
//! both crates'; the registry's tests check the split against the rules as one function.

use evaltally_format::Keys;

/// The formats this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A SWE-bench harness run report `<model>.<run_id>.json`.
    RunReport,
    /// A SWE-bench per-instance `report.json`, wrapped in `{instance_id: …}` or not.
    InstanceReport,
    /// Per-instance reports merged into one `{instance_id: {resolved, tests_status, …}, …}`
    /// document (`evaluation_report.json` and the like, written by pipelines that collect
    /// a run's `report.json` files): one run.
    InstanceMap,
}

impl Format {
    /// A short name for messages and `--format json` output.
    pub fn name(self) -> &'static str {
        match self {
            Self::RunReport => "swebench-run-report",
            Self::InstanceReport => "swebench-instance-report",
            Self::InstanceMap => "swebench-instance-map",
        }
    }
}

fn has(v: &impl Keys, k: &str) -> bool {
    v.has_key(k)
}

const INSTANCE_REPORT_KEYS: [&str; 4] = ["resolved", "patch_is_None", "patch_exists", "tests_status"];

fn instance_report_keys(found: &[bool]) -> bool {
    found[0] && (found[1] || found[2] || found[3])
}

/// Whether an object is one of SF-Bench's documents (a v2 report, even without its
/// `instances`; a v1 shape; a summary object), as `evaltally-sfbench` detects them once a
/// run report is ruled out: they come before the per-instance report.
fn sfbench_document(v: &impl Keys, v2_header: bool) -> bool {
    v2_header
        || has(v, "instances") && (has(v, "schema_version") || has(v, "run_id") || has(v, "summary"))
        || has(v, "instances") && (has(v, "model_name") || has(v, "dataset"))
        || has(v, "results") && (has(v, "total_tasks") || has(v, "model"))
        || has(v, "statistics") && has(v, "results")
        || has(v, "total_instances") && (has(v, "resolve_rate") || has(v, "resolved_instances"))
}

/// Detects the format of a JSON document, or `None` when it is none of these.
///
/// ```
/// use evaltally_swebench::detect::{detect, Format};
/// let run = serde_json::json!({"schema_version": 2, "resolved_ids": [], "completed_ids": []});
/// assert_eq!(detect(&run), Some(Format::RunReport));
/// let inst = serde_json::json!({"django__django-11099": {"resolved": true, "patch_exists": true}});
/// assert_eq!(detect(&inst), Some(Format::InstanceReport));
/// let merged = serde_json::json!({"a__b-1": {"resolved": true, "patch_exists": true},
///     "a__b-2": {"resolved": false, "tests_status": {}}});
/// assert_eq!(detect(&merged), Some(Format::InstanceMap));
/// // Counts per repository are no instance reports.
/// let by_repo = serde_json::json!({"django": {"resolved": 3, "total": 5}, "sympy": {"resolved": 1, "total": 2}});
/// assert_eq!(detect(&by_repo), None);
/// // SF-Bench v2 copies the id lists; its header says it is SF-Bench's.
/// let v2 = serde_json::json!({"schema_version": "2.0", "run_id": "r", "summary": {}, "resolved_ids": [],
///     "completed_ids": []});
/// assert_eq!(detect(&v2), None);
/// ```
pub fn detect(v: &impl Keys) -> Option<Format> {
    if !v.is_object() {
        return None;
    }
    // SF-Bench v2 copies SWE-bench's id lists; `schema_version` with `run_id` and `summary`
    // still tells a v2 report that lost its `instances`.
    let v2_header = has(v, "schema_version") && has(v, "run_id") && has(v, "summary");
    if has(v, "resolved_ids")
        && (has(v, "completed_ids") || has(v, "submitted_ids") || has(v, "total_instances"))
        && !has(v, "instances")
        && !v2_header
    {
        return Some(Format::RunReport);
    }
    if sfbench_document(v, v2_header) {
        return None;
    }
    let own: Vec<bool> = INSTANCE_REPORT_KEYS.iter().map(|k| has(v, k)).collect();
    if instance_report_keys(&own) {
        return Some(Format::InstanceReport);
    }
    if v.only_child_has(&INSTANCE_REPORT_KEYS).is_some_and(|found| instance_report_keys(&found)) {
        return Some(Format::InstanceReport);
    }
    if instance_map(v) {
        return Some(Format::InstanceMap);
    }
    None
}

/// How many members of a document an instance map is recognised by (the reader checks
/// every member).
pub const MAP_SAMPLE: usize = 8;

/// Whether an object is a merged map of instance reports: two members or more, the first
/// few each an instance report's body (`resolved` and a patch or test key) or SWE-smith's
/// timeout entry (`timed_out`).
fn instance_map(v: &impl Keys) -> bool {
    evaltally_format::keys::map_of(v, "resolved", &INSTANCE_REPORT_KEYS[1..], Some("timed_out"), MAP_SAMPLE)
}
