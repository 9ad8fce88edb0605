//! SF-Bench v1 results, read into one representation.
//!
//! SF-Bench has three "v1" shapes, and they disagree (notes §1.9):
//!
//! * (a) [`V1Shape::MigrateInput`]: what upstream's `migrate_v1_to_v2` reads: `model_name`,
//!   `dataset`, `instances` of `{instance_id, status, resolved, duration, error_message, score}`
//!   with lowercase statuses. Nothing in SF-Bench writes it.
//! * (b) [`V1Shape::LegacyEvaluate`]: the file `scripts/evaluate.py` writes,
//!   `evaluation_<model>_<ts>.json`: `model`, `timestamp`, `tasks_file`, `validation_mode`,
//!   counts, `segment_results`, `functional_validation` and `results` of `TestResult` dicts
//!   (`task_id`, uppercase `PASS` / `FAIL` / `TIMEOUT` / `ERROR`, `duration`, …).
//! * (c) [`V1Shape::EngineSummary`]: the engine's `summary.json`, `{statistics, results}`.
//!
//! Reading is tolerant, like [`report`](crate::report): a field of the wrong type reads as
//! absent. [`validate`](crate::validate::validate) says what is wrong.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::detect::{Format, detect};
use crate::report::TaskStatus;

/// Which v1 shape a run was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum V1Shape {
    /// (a) the input of upstream's `migrate_v1_to_v2`.
    MigrateInput,
    /// (b) the legacy file `scripts/evaluate.py` writes.
    LegacyEvaluate,
    /// (c) the engine's `summary.json`.
    EngineSummary,
}

impl V1Shape {
    /// The shape of a detected format, when it is a v1 one.
    ///
    /// ```
    /// use evaltally_sfbench::detect::Format;
    /// use evaltally_sfbench::v1::V1Shape;
    /// assert_eq!(V1Shape::of_format(Format::SfbenchLegacyEvaluate), Some(V1Shape::LegacyEvaluate));
    /// assert_eq!(V1Shape::of_format(Format::SfbenchV2), None);
    /// ```
    pub fn of_format(format: Format) -> Option<Self> {
        match format {
            Format::SfbenchV1 => Some(Self::MigrateInput),
            Format::SfbenchLegacyEvaluate => Some(Self::LegacyEvaluate),
            Format::SfbenchEngineSummary => Some(Self::EngineSummary),
            _ => None,
        }
    }

    /// The format this shape is detected as.
    pub fn format(self) -> Format {
        match self {
            Self::MigrateInput => Format::SfbenchV1,
            Self::LegacyEvaluate => Format::SfbenchLegacyEvaluate,
            Self::EngineSummary => Format::SfbenchEngineSummary,
        }
    }
}

/// One v1 run, whatever its shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct V1Run {
    /// The shape it was read from.
    pub shape: V1Shape,
    /// `model_name` (a) or `model` (b); (c) does not know it.
    pub model: Option<String>,
    /// `dataset` (a). (b) names its tasks file instead.
    pub dataset: Option<String>,
    /// `run_id`, when the file has one (no SF-Bench v1 writer does).
    pub run_id: Option<String>,
    /// The run's timestamp: `timestamp` (b: when evaluate.py wrote the file, at the end of the
    /// run), or `timestamp` / `start_time` / `created_at` (a).
    pub timestamp: Option<String>,
    /// `tasks_file` (b).
    pub tasks_file: Option<String>,
    /// `validation_mode` (b): `functional` or `deployment`.
    pub validation_mode: Option<String>,
    /// The tasks, in file order.
    pub tasks: Vec<V1Task>,
}

/// One task of a v1 run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct V1Task {
    /// `instance_id` (a) or `task_id` (b, c).
    pub id: Option<String>,
    /// The status as a v2 status: `PASS` → resolved, `FAIL` → fail, `TIMEOUT` and `ERROR` →
    /// error, v2 words in any letter case as themselves, anything else kept as
    /// [`TaskStatus::Other`]. `None` when the status is missing or not a string.
    pub status: Option<TaskStatus>,
    /// The status as written.
    pub raw_status: Option<String>,
    /// Whether it was resolved: the `resolved` field (a), or `status == PASS` (b, c). `None`
    /// when neither is known.
    pub resolved: Option<bool>,
    /// The total score: `score` (a), or the functional validator's `score` (b).
    pub score: Option<f64>,
    /// Seconds: `duration` (or `duration_seconds`).
    pub duration: Option<f64>,
    /// The error message.
    pub error_message: Option<String>,
    /// The error label: as written (a); `timeout` for a legacy `TIMEOUT`; `execution_error` for a
    /// legacy `ERROR` (b, c), as upstream's converter labels it.
    pub error_type: Option<String>,
    /// When the task's result was created: `timestamp` (or `start_time`).
    pub timestamp: Option<String>,
    /// `end_time`, when written (a).
    pub end_time: Option<String>,
    /// `log_path`, when written (a).
    pub log_path: Option<String>,
    /// `solution_patch`, when written (a). No SF-Bench v1 writer records the patch.
    pub solution_patch: Option<String>,
    /// Per-component results, from the matching `functional_validation` entry (b).
    pub components: Option<V1Components>,
}

/// A `FunctionalValidationResult.to_dict()` entry: which components passed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct V1Components {
    /// `deployment_passed`.
    pub deployment: bool,
    /// `unit_tests_passed`.
    pub unit_tests: bool,
    /// `functional_tests_passed`.
    pub functional: bool,
    /// `bulk_tests_passed`.
    pub bulk: bool,
    /// `no_manual_tweaks`.
    pub no_tweaks: bool,
    /// `score` (0–100, a float).
    pub score: Option<f64>,
    /// `validation_level`.
    pub validation_level: Option<String>,
    /// `steps`, as written.
    pub steps: Vec<Value>,
}

/// Reads a status word of any v1 shape: the v2 status and the error label it implies.
///
/// ```
/// use evaltally_sfbench::report::TaskStatus;
/// use evaltally_sfbench::v1::normalise_status;
/// assert_eq!(normalise_status("PASS"), (TaskStatus::Resolved, None));
/// assert_eq!(normalise_status("TIMEOUT"), (TaskStatus::Error, Some("timeout")));
/// assert_eq!(normalise_status("Fail"), (TaskStatus::Fail, None));
/// assert_eq!(normalise_status("odd"), (TaskStatus::Other("odd".into()), None));
/// ```
pub fn normalise_status(raw: &str) -> (TaskStatus, Option<&'static str>) {
    match raw.to_ascii_lowercase().as_str() {
        "pass" => (TaskStatus::Resolved, None),
        "timeout" => (TaskStatus::Error, Some("timeout")),
        _ => (TaskStatus::parse(raw), None),
    }
}

/// Reads a v1 document of whichever shape [`detect`] finds; `None` when it is not a v1 shape.
///
/// A shape-(a) file that also carries `run_id` or `summary` is detected as v2; read it with
/// [`read_as`].
///
/// ```
/// use evaltally_sfbench::v1::{read, V1Shape};
/// let doc = serde_json::json!({"model": "acme/m", "timestamp": "2026-01-05T14:30:00", "total_tasks": 1,
///     "results": [{"task_id": "apex-trigger-001", "status": "PASS", "duration": 12.5}]});
/// let run = read(&doc).unwrap();
/// assert_eq!(run.shape, V1Shape::LegacyEvaluate);
/// assert_eq!(run.model.as_deref(), Some("acme/m"));
/// assert_eq!(run.tasks[0].resolved, Some(true));
/// ```
pub fn read(doc: &Value) -> Option<V1Run> {
    let shape = V1Shape::of_format(detect(doc)?)?;
    Some(read_as(doc, shape))
}

/// Reads `doc` as the given shape (tolerant: missing or mistyped fields read as absent).
pub fn read_as(doc: &Value, shape: V1Shape) -> V1Run {
    let empty = Map::new();
    let m = doc.as_object().unwrap_or(&empty);
    let s = |k: &str| str_of(m, k);
    match shape {
        V1Shape::MigrateInput => V1Run {
            shape,
            model: s("model_name").or_else(|| s("model")),
            dataset: s("dataset"),
            run_id: s("run_id"),
            timestamp: s("timestamp").or_else(|| s("start_time")).or_else(|| s("created_at")),
            tasks_file: s("tasks_file"),
            validation_mode: s("validation_mode"),
            tasks: list(m, "instances").iter().map(task_a).collect(),
        },
        V1Shape::LegacyEvaluate | V1Shape::EngineSummary => {
            let functional: HashMap<String, V1Components> = list(m, "functional_validation")
                .iter()
                .filter_map(|f| {
                    let fm = f.as_object()?;
                    Some((str_of(fm, "task_id")?, components(fm)))
                })
                .collect();
            V1Run {
                shape,
                model: s("model"),
                dataset: s("dataset"),
                run_id: s("run_id"),
                timestamp: s("timestamp"),
                tasks_file: s("tasks_file"),
                validation_mode: s("validation_mode"),
                tasks: list(m, "results").iter().map(|r| task_legacy(r, &functional)).collect(),
            }
        }
    }
}

fn str_of(m: &Map<String, Value>, k: &str) -> Option<String> {
    m.get(k).and_then(Value::as_str).map(str::to_string)
}

fn num_of(m: &Map<String, Value>, k: &str) -> Option<f64> {
    m.get(k).and_then(Value::as_f64)
}

fn list<'a>(m: &'a Map<String, Value>, k: &str) -> &'a [Value] {
    m.get(k).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// An instance of shape (a).
fn task_a(v: &Value) -> V1Task {
    let empty = Map::new();
    let m = v.as_object().unwrap_or(&empty);
    let raw_status = str_of(m, "status");
    let (status, implied) = raw_status.as_deref().map(normalise_status).map_or((None, None), |(s, e)| (Some(s), e));
    V1Task {
        id: str_of(m, "instance_id").or_else(|| str_of(m, "task_id")),
        status,
        raw_status,
        resolved: m.get("resolved").and_then(Value::as_bool),
        score: num_of(m, "score"),
        duration: num_of(m, "duration").or_else(|| num_of(m, "duration_seconds")),
        error_message: str_of(m, "error_message"),
        error_type: str_of(m, "error_type").or_else(|| implied.map(str::to_string)),
        timestamp: str_of(m, "timestamp").or_else(|| str_of(m, "start_time")),
        end_time: str_of(m, "end_time"),
        log_path: str_of(m, "log_path"),
        solution_patch: str_of(m, "solution_patch"),
        components: None,
    }
}

/// A `TestResult.to_dict()` entry of shapes (b) and (c).
fn task_legacy(v: &Value, functional: &HashMap<String, V1Components>) -> V1Task {
    let empty = Map::new();
    let m = v.as_object().unwrap_or(&empty);
    let id = str_of(m, "task_id").or_else(|| str_of(m, "instance_id"));
    let raw_status = str_of(m, "status");
    let (status, mut error_type) =
        raw_status.as_deref().map(normalise_status).map_or((None, None), |(s, e)| (Some(s), e.map(str::to_string)));
    if raw_status.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("error")) {
        error_type = Some("execution_error".to_string());
    }
    let resolved = match &status {
        Some(TaskStatus::Other(_)) | None => None,
        Some(s) => Some(*s == TaskStatus::Resolved),
    };
    let components = id.as_ref().and_then(|id| functional.get(id)).cloned();
    V1Task {
        score: components.as_ref().and_then(|c| c.score),
        id,
        status,
        raw_status,
        resolved,
        duration: num_of(m, "duration"),
        error_message: str_of(m, "error_message"),
        error_type,
        timestamp: str_of(m, "timestamp"),
        end_time: None,
        log_path: None,
        solution_patch: None,
        components,
    }
}

fn components(m: &Map<String, Value>) -> V1Components {
    let b = |k: &str| m.get(k).and_then(Value::as_bool).unwrap_or(false);
    V1Components {
        deployment: b("deployment_passed"),
        unit_tests: b("unit_tests_passed"),
        functional: b("functional_tests_passed"),
        bulk: b("bulk_tests_passed"),
        no_tweaks: b("no_manual_tweaks"),
        score: num_of(m, "score"),
        validation_level: str_of(m, "validation_level"),
        steps: list(m, "steps").to_vec(),
    }
}
