//! The SF-Bench result report, schema v2, typed.
//!
//! Reading is tolerant: both names of each aliased field are accepted (`model_name` /
//! `model_name_or_path`, `start_time` / `created_at`, `config` / `evaluation_config`),
//! statuses in any letter case, missing fields take the upstream dataclass defaults, and a
//! field of the wrong type reads as its default. Checking what is wrong is `validate`'s job,
//! on the raw JSON.

use std::fmt;

use evaltally_core::{CategoryRun, Outcome};
use serde::Serialize;
use serde_json::{Map, Value};

/// The keys of `EvaluationReport.to_dict()`, in its order.
pub const REPORT_KEYS: [&str; 18] = [
    "schema_version",
    "run_id",
    "model_name_or_path",
    "model_name",
    "dataset",
    "created_at",
    "start_time",
    "end_time",
    "evaluation_config",
    "config",
    "instances",
    "summary",
    "resolved_ids",
    "unresolved_ids",
    "error_ids",
    "empty_patch_ids",
    "completed_ids",
    "environment",
];

/// The keys of `InstanceResult.to_dict()`, in its order.
pub const INSTANCE_KEYS: [&str; 14] = [
    "instance_id",
    "model_name",
    "status",
    "resolved",
    "validation",
    "duration_seconds",
    "scratch_org_username",
    "scratch_org_creation_time",
    "error_message",
    "error_type",
    "start_time",
    "end_time",
    "log_path",
    "solution_patch",
];

/// The keys of `ValidationBreakdown.to_dict()`, in its order.
pub const VALIDATION_KEYS: [&str; 22] = [
    "deployment_status",
    "deployment_message",
    "deployment_points",
    "unit_test_status",
    "unit_test_message",
    "unit_test_passed",
    "unit_test_failed",
    "unit_test_total",
    "unit_test_points",
    "functional_status",
    "functional_message",
    "functional_details",
    "functional_points",
    "bulk_status",
    "bulk_message",
    "bulk_records_processed",
    "bulk_records_expected",
    "bulk_points",
    "no_tweaks_status",
    "no_tweaks_message",
    "no_tweaks_points",
    "total_score",
];

/// An instance's status (`TaskStatus` upstream).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    /// Solved.
    Resolved,
    /// Failed validation.
    Fail,
    /// Errored during execution.
    Error,
    /// Not executed.
    Skipped,
    /// Any other value, kept as written.
    #[serde(untagged)]
    Other(String),
}

impl TaskStatus {
    /// The outcome of an instance that did not resolve: `error` ("Error during execution")
    /// errored, which `--errors-as fail` counts as SF-Bench does; any other status failed.
    pub fn unresolved_outcome(&self) -> Outcome {
        if *self == TaskStatus::Error { Outcome::Errored } else { Outcome::Fail }
    }

    /// Reads a status in any letter case.
    ///
    /// ```
    /// use evaltally_sfbench::report::TaskStatus;
    /// assert_eq!(TaskStatus::parse("RESOLVED"), TaskStatus::Resolved);
    /// assert_eq!(TaskStatus::parse("Fail"), TaskStatus::Fail);
    /// assert_eq!(TaskStatus::parse("PASS"), TaskStatus::Other("PASS".into()));
    /// ```
    pub fn parse(s: &str) -> Self {
        let known =
            [("resolved", Self::Resolved), ("fail", Self::Fail), ("error", Self::Error), ("skipped", Self::Skipped)];
        known
            .into_iter()
            .find(|(word, _)| s.eq_ignore_ascii_case(word))
            .map_or_else(|| Self::Other(s.to_string()), |(_, status)| status)
    }

    /// The lowercase word.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Resolved => "resolved",
            Self::Fail => "fail",
            Self::Error => "error",
            Self::Skipped => "skipped",
            Self::Other(s) => s,
        }
    }
}

impl fmt::Display for TaskStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validation component's status (`ComponentStatus` upstream).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ComponentStatus {
    /// Passed.
    Pass,
    /// Failed.
    Fail,
    /// Errored.
    Error,
    /// Not checked.
    Skipped,
    /// Any other value, kept as written.
    #[serde(untagged)]
    Other(String),
}

impl ComponentStatus {
    /// Reads a status in any letter case.
    pub fn parse(s: &str) -> Self {
        let known = [("pass", Self::Pass), ("fail", Self::Fail), ("error", Self::Error), ("skipped", Self::Skipped)];
        known
            .into_iter()
            .find(|(word, _)| s.eq_ignore_ascii_case(word))
            .map_or_else(|| Self::Other(s.to_string()), |(_, status)| status)
    }

    /// The lowercase word.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Pass => "pass",
            Self::Fail => "fail",
            Self::Error => "error",
            Self::Skipped => "skipped",
            Self::Other(s) => s,
        }
    }
}

/// The five scored components, in report order.
pub const COMPONENTS: [Component; 5] =
    [Component::Deployment, Component::UnitTest, Component::Functional, Component::Bulk, Component::NoTweaks];

/// One of the five validation components.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// Code deploys (10 points).
    Deployment,
    /// Unit tests pass (20 points).
    UnitTest,
    /// Business outcome achieved (50 points).
    Functional,
    /// Handles 200+ records (10 points).
    Bulk,
    /// Works without manual fixes (10 points).
    NoTweaks,
}

impl Component {
    /// The field prefix in `validation` (`deployment`, `unit_test`, …).
    pub fn key(self) -> &'static str {
        match self {
            Self::Deployment => "deployment",
            Self::UnitTest => "unit_test",
            Self::Functional => "functional",
            Self::Bulk => "bulk",
            Self::NoTweaks => "no_tweaks",
        }
    }

    /// The most points the component gives.
    pub fn max_points(self) -> u32 {
        match self {
            Self::Deployment | Self::Bulk | Self::NoTweaks => 10,
            Self::UnitTest => 20,
            Self::Functional => 50,
        }
    }
}

/// Per-component validation results (`ValidationBreakdown` upstream).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Validation {
    /// Status per component, in [`COMPONENTS`] order.
    pub status: [ComponentStatus; 5],
    /// Points per component, in [`COMPONENTS`] order.
    pub points: [f64; 5],
    /// Messages per component, in [`COMPONENTS`] order.
    pub messages: [String; 5],
    /// `unit_test_passed`, `unit_test_failed`, `unit_test_total`.
    pub unit_tests: [f64; 3],
    /// `bulk_records_processed`, `bulk_records_expected` (200 by default).
    pub bulk_records: [f64; 2],
    /// `functional_details`.
    pub functional_details: Value,
    /// `total_score`: an int upstream, but a float in real output.
    pub total_score: f64,
}

impl Default for Validation {
    fn default() -> Self {
        Self {
            status: std::array::from_fn(|_| ComponentStatus::Skipped),
            points: [0.0; 5],
            messages: Default::default(),
            unit_tests: [0.0; 3],
            bulk_records: [0.0, 200.0],
            functional_details: Value::Object(Map::new()),
            total_score: 0.0,
        }
    }
}

impl Validation {
    /// The status of one component.
    pub fn status_of(&self, c: Component) -> &ComponentStatus {
        &self.status[c as usize]
    }

    /// The points of one component.
    pub fn points_of(&self, c: Component) -> f64 {
        self.points[c as usize]
    }

    /// The resolved rule of the code since `65ccc0f4` (upstream HEAD): deployment, unit
    /// tests and functional validation pass; no score threshold.
    pub fn is_resolved(&self) -> bool {
        [Component::Deployment, Component::UnitTest, Component::Functional]
            .iter()
            .all(|c| *self.status_of(*c) == ComponentStatus::Pass)
    }

    /// The resolved rule of the first schema commit `94809d04` and of the docs: the same
    /// three components pass and `total_score >= 80`.
    pub fn is_resolved_with_threshold(&self) -> bool {
        self.is_resolved() && self.total_score >= 80.0
    }

    fn from_value(v: &Value) -> Self {
        let mut out = Self::default();
        let Some(m) = v.as_object() else { return out };
        for (i, c) in COMPONENTS.iter().enumerate() {
            let k = c.key();
            if let Some(s) = str_field(m, &format!("{k}_status")) {
                out.status[i] = ComponentStatus::parse(s);
            }
            out.points[i] = num_field(m, &format!("{k}_points")).unwrap_or(0.0);
            out.messages[i] = str_field(m, &format!("{k}_message")).unwrap_or_default().to_string();
        }
        for (i, k) in ["unit_test_passed", "unit_test_failed", "unit_test_total"].iter().enumerate() {
            out.unit_tests[i] = num_field(m, k).unwrap_or(0.0);
        }
        out.bulk_records[0] = num_field(m, "bulk_records_processed").unwrap_or(0.0);
        out.bulk_records[1] = num_field(m, "bulk_records_expected").unwrap_or(200.0);
        if let Some(d) = m.get("functional_details") {
            out.functional_details = d.clone();
        }
        out.total_score = num_field(m, "total_score").unwrap_or(0.0);
        out
    }
}

/// One instance's result (`InstanceResult` upstream).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Instance {
    /// The task id, e.g. `lwc-component-001`.
    pub instance_id: String,
    /// The model.
    pub model_name: String,
    /// The status (`error` when missing, as upstream).
    pub status: TaskStatus,
    /// The stored resolved flag.
    pub resolved: bool,
    /// Per-component results.
    pub validation: Validation,
    /// Seconds the instance took.
    pub duration_seconds: f64,
    /// Scratch org user.
    pub scratch_org_username: Option<String>,
    /// Seconds to create the scratch org.
    pub scratch_org_creation_time: f64,
    /// Error message.
    pub error_message: Option<String>,
    /// Error label, e.g. `execution_error`.
    pub error_type: Option<String>,
    /// Start time as written.
    pub start_time: Option<String>,
    /// End time as written.
    pub end_time: Option<String>,
    /// Log file.
    pub log_path: Option<String>,
    /// The model's patch; `None` or blank counts as an empty patch.
    pub solution_patch: Option<String>,
}

impl Instance {
    /// Reads an instance from its JSON object (tolerant; see the module docs).
    pub fn from_value(v: &Value) -> Self {
        let empty = Map::new();
        let m = v.as_object().unwrap_or(&empty);
        Self {
            instance_id: str_field(m, "instance_id").unwrap_or_default().to_string(),
            model_name: str_field(m, "model_name").unwrap_or_default().to_string(),
            status: str_field(m, "status").map_or(TaskStatus::Error, TaskStatus::parse),
            resolved: m.get("resolved").and_then(Value::as_bool).unwrap_or(false),
            validation: m.get("validation").map(Validation::from_value).unwrap_or_default(),
            duration_seconds: num_field(m, "duration_seconds").unwrap_or(0.0),
            scratch_org_username: opt_string(m, "scratch_org_username"),
            scratch_org_creation_time: num_field(m, "scratch_org_creation_time").unwrap_or(0.0),
            error_message: opt_string(m, "error_message"),
            error_type: opt_string(m, "error_type"),
            start_time: opt_string(m, "start_time"),
            end_time: opt_string(m, "end_time"),
            log_path: opt_string(m, "log_path"),
            solution_patch: opt_string(m, "solution_patch"),
        }
    }

    /// Whether the patch is missing or blank (upstream's empty-patch rule).
    pub fn has_empty_patch(&self) -> bool {
        self.solution_patch.as_deref().is_none_or(|p| p.trim().is_empty())
    }
}

/// The id lists of a report, as stored (`None` when the key is absent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IdLists {
    /// `resolved_ids`.
    pub resolved: Option<Vec<String>>,
    /// `unresolved_ids`.
    pub unresolved: Option<Vec<String>>,
    /// `error_ids`.
    pub error: Option<Vec<String>>,
    /// `empty_patch_ids`.
    pub empty_patch: Option<Vec<String>>,
    /// `completed_ids`.
    pub completed: Option<Vec<String>>,
}

/// An SF-Bench v2 report (`EvaluationReport.to_dict()` upstream).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// As written: `"2.0"` for v2.
    pub schema_version: Option<Value>,
    /// The run id.
    pub run_id: Option<String>,
    /// `model_name`, or its alias `model_name_or_path`.
    pub model_name: Option<String>,
    /// The dataset (`verified`, `lite`, …).
    pub dataset: Option<String>,
    /// `start_time`, or its alias `created_at`.
    pub start_time: Option<String>,
    /// End time.
    pub end_time: Option<String>,
    /// `config`, or its alias `evaluation_config`.
    pub config: Option<Value>,
    /// The instances.
    pub instances: Vec<Instance>,
    /// The stored summary object, as written.
    pub summary: Option<Value>,
    /// The stored id lists.
    pub ids: IdLists,
    /// `environment`.
    pub environment: Option<Value>,
    /// `evaluation_hash` (optional upstream key).
    pub evaluation_hash: Option<String>,
    /// `model_config` (optional upstream key).
    pub model_config: Option<Value>,
    /// What the reader tolerated, one message each: an instance whose `resolved` is not
    /// `true` or `false` (read as `false`), an instance id repeated (the first counts; see
    /// [`Report::kept`]).
    pub notes: Vec<String>,
}

impl Report {
    /// Reads a report from its JSON object (tolerant; see the module docs).
    ///
    /// ```
    /// use evaltally_sfbench::report::Report;
    /// let v = serde_json::json!({"schema_version": "2.0", "model_name_or_path": "m",
    ///     "instances": [{"instance_id": "lwc-component-001", "status": "RESOLVED", "resolved": true}]});
    /// let r = Report::from_value(&v);
    /// assert_eq!(r.model_name.as_deref(), Some("m"));
    /// assert_eq!(r.instances[0].status.as_str(), "resolved");
    /// ```
    pub fn from_value(v: &Value) -> Self {
        let empty = Map::new();
        let m = v.as_object().unwrap_or(&empty);
        let list = |k: &str| {
            m.get(k).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        };
        let instances: &[Value] = m.get("instances").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        let mut report = Self {
            schema_version: m.get("schema_version").cloned(),
            run_id: opt_string(m, "run_id"),
            model_name: opt_string(m, "model_name").or_else(|| opt_string(m, "model_name_or_path")),
            dataset: opt_string(m, "dataset"),
            start_time: opt_string(m, "start_time").or_else(|| opt_string(m, "created_at")),
            end_time: opt_string(m, "end_time"),
            config: m.get("config").or_else(|| m.get("evaluation_config")).cloned(),
            instances: instances.iter().map(Instance::from_value).collect(),
            summary: m.get("summary").cloned(),
            ids: IdLists {
                resolved: list("resolved_ids"),
                unresolved: list("unresolved_ids"),
                error: list("error_ids"),
                empty_patch: list("empty_patch_ids"),
                completed: list("completed_ids"),
            },
            environment: m.get("environment").cloned(),
            evaluation_hash: opt_string(m, "evaluation_hash"),
            model_config: m.get("model_config").cloned(),
            notes: Vec::new(),
        };
        for (i, raw) in instances.iter().enumerate() {
            match raw.get("instance_id") {
                Some(Value::String(id)) if !id.is_empty() => {}
                Some(Value::String(_)) => {
                    report.notes.push(format!("instances[{i}]: `instance_id` is empty; left out"));
                }
                found => report.notes.push(format!(
                    "instances[{i}]: `instance_id` is {}, expected the instance's id, a string; left out",
                    found.map_or("missing", evaltally_format::check::kind)
                )),
            }
            if let Some(flag) = raw.get("resolved").filter(|f| !f.is_boolean()) {
                let id = &report.instances[i].instance_id;
                report.notes.push(format!(
                    "instances[{i}] (`{id}`): `resolved` is {flag}, expected true or false; read as false"
                ));
            }
        }
        let mut first = std::collections::HashMap::new();
        for (i, inst) in report.instances.iter().enumerate() {
            // Skipped instances never repeat one; those without an id are said above.
            if inst.status == TaskStatus::Skipped || inst.instance_id.is_empty() {
                continue;
            }
            if let Some(j) = first.insert(inst.instance_id.as_str(), i) {
                first.insert(inst.instance_id.as_str(), j);
                report.notes.push(format!(
                    "instances[{i}]: instance `{}` again (first at instances[{j}]); the first is kept",
                    inst.instance_id
                ));
            }
        }
        report
    }

    /// The instances that count, in order: every one with an id but a repetition of an id
    /// already seen (skipped instances did not run and never repeat one).
    pub fn kept(&self) -> impl Iterator<Item = &Instance> + '_ {
        let mut seen = std::collections::HashSet::new();
        self.instances.iter().filter(move |i| {
            !i.instance_id.is_empty() && (i.status == TaskStatus::Skipped || seen.insert(i.instance_id.as_str()))
        })
    }

    /// The report's tests as category runs, one per task family, named `run`.
    ///
    /// A skipped instance did not run: it is unscored, labelled `skipped` (a test not
    /// judged, shown as one). Otherwise the stored `resolved` flag decides pass or fail; a
    /// failure is labelled by its `error_type`, else by its status.
    pub fn category_runs(&self, run: &str) -> Vec<CategoryRun> {
        let model = self.model_name.as_deref().unwrap_or("unknown");
        let meta = run_meta(self.start_time.as_deref());
        let mut by_category: std::collections::BTreeMap<&str, CategoryRun> = std::collections::BTreeMap::new();
        // The ids given a test so far: a skipped id also run is the run's, and one skipped
        // twice is one test.
        let mut given: std::collections::HashSet<&str> =
            self.instances.iter().filter(|i| i.status != TaskStatus::Skipped).map(|i| i.instance_id.as_str()).collect();
        for inst in self.kept() {
            let cat = sfbench_category(&inst.instance_id);
            let entry = by_category.entry(cat).or_insert_with(|| {
                let mut c = CategoryRun::new(run, model, cat);
                c.meta.clone_from(&meta);
                c
            });
            if inst.status == TaskStatus::Skipped {
                if given.insert(inst.instance_id.as_str()) {
                    entry.push(&inst.instance_id, Outcome::Unscored, Some("skipped"));
                }
            } else if inst.resolved {
                entry.push(&inst.instance_id, Outcome::Pass, None);
            } else {
                let label = inst.error_type.as_deref().unwrap_or(inst.status.as_str());
                entry.push(&inst.instance_id, inst.status.unresolved_outcome(), Some(label));
            }
        }
        by_category.into_values().collect()
    }
}

/// The run metadata a report holds: when it started (`start_time`, else `created_at`).
pub(crate) fn run_meta(start_time: Option<&str>) -> Option<std::sync::Arc<evaltally_core::RunMeta>> {
    let timestamp = start_time?.to_string();
    Some(std::sync::Arc::new(evaltally_core::RunMeta { timestamp: Some(timestamp), ..Default::default() }))
}

/// The task family of an SF-Bench instance id: the text before the first `-` (the whole
/// id when it has none, or starts with one).
///
/// ```
/// use evaltally_sfbench::report::sfbench_category;
/// assert_eq!(sfbench_category("lwc-component-001"), "lwc");
/// assert_eq!(sfbench_category("architecture"), "architecture");
/// assert_eq!(sfbench_category("-apex-001"), "-apex-001");
/// ```
pub fn sfbench_category(instance_id: &str) -> &str {
    // Ids are short and their first `-` near the start: a plain loop, not a `memchr` call
    // per instance (6% of reading a report).
    match instance_id.bytes().position(|c| c == b'-') {
        Some(0) | None => instance_id,
        Some(end) => &instance_id[..end],
    }
}

fn str_field<'a>(m: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    m.get(k).and_then(Value::as_str)
}

fn opt_string(m: &Map<String, Value>, k: &str) -> Option<String> {
    str_field(m, k).map(str::to_string)
}

fn num_field(m: &Map<String, Value>, k: &str) -> Option<f64> {
    m.get(k).and_then(Value::as_f64)
}
