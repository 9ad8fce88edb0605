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

/// What detection asks of a document: its top-level keys, and, for a one-key object, the
/// one value inside. Implemented for a parsed [`Value`] and for the pipeline's byte view
/// ([`evaltally_format::Input`]), so a file is told apart before it is parsed.
pub trait Keys {
    /// Whether the top-level object has `key`; `false` when it is no object.
    fn has_key(&self, key: &str) -> bool;
    /// Whether the document is an object.
    fn is_object(&self) -> bool;
    /// The keys of the only member's value, when the object has exactly one member.
    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>>;
}

impl Keys for Value {
    fn has_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn is_object(&self) -> bool {
        self.is_object()
    }

    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>> {
        let m = self.as_object()?;
        if m.len() != 1 {
            return None;
        }
        let child = m.values().next()?;
        Some(keys.iter().map(|k| child.get(*k).is_some()).collect())
    }
}

impl Keys for evaltally_format::Input<'_> {
    fn has_key(&self, key: &str) -> bool {
        self.has(key)
    }

    fn is_object(&self) -> bool {
        self.json_members().is_some()
    }

    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>> {
        let members = self.json_members()?;
        let [only] = members else { return None };
        let child = evaltally_format::Input::new(self.path, &self.text_bytes()[only.value.clone()], false);
        Some(keys.iter().map(|k| child.has(k)).collect())
    }
}

fn has(v: &impl Keys, k: &str) -> bool {
    v.has_key(k)
}

const INSTANCE_REPORT_KEYS: [&str; 4] = ["resolved", "patch_is_None", "patch_exists", "tests_status"];

fn instance_report_keys(found: &[bool]) -> bool {
    found[0] && (found[1] || found[2] || found[3])
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
    let own: Vec<bool> = INSTANCE_REPORT_KEYS.iter().map(|k| has(v, k)).collect();
    if instance_report_keys(&own) {
        return Some(Format::SwebenchInstanceReport);
    }
    if v.only_child_has(&INSTANCE_REPORT_KEYS).is_some_and(|found| instance_report_keys(&found)) {
        return Some(Format::SwebenchInstanceReport);
    }
    None
}
