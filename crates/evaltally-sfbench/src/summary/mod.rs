//! The SF-Bench summary object, recomputed from a report's instances exactly as upstream does.
//!
//! Upstream is `EvaluationReport.calculate_summary()` (SF-Bench `sfbench/utils/schema.py`
//! at `79df4f02`); every rule below is its, including the ones that surprise:
//!
//! * `resolve_rate` is a **fraction** (0–1), `resolution_rate` the same as a **percentage**.
//! * `median_score` is `sorted(scores)[n // 2]`: the **upper** median, never an average of
//!   two, and an integer when the scores are integers (`[0, 0, 10, 20, 80, 100]` → `20`).
//! * `avg_score` is over **all** instances; `avg_functional_score` only over the instances
//!   whose `functional_points > 0`.
//! * Durations count only when `> 0`, for both the mean and the total.
//! * The counts follow the id-list rules of [`id_lists`], which do not partition the
//!   instances: a `skipped` instance is "completed" and in no other list; an empty patch is
//!   counted whatever the status.
//! * No instances: the function returns before touching anything, so every field keeps its
//!   dataclass default (0, `0.0`; `median_score` is the float `0.0`, `min_score` and
//!   `max_score` the integer `0`).
//!
//! [`Summary`] serializes like Python's `json.dump` of `asdict(summary)`: the same keys in the
//! same order, counts as integers, rates and means as floats (`35.0`, not `35`), and the
//! median, minimum and maximum as integers when the score is whole.
//!
//! Besides the summary, this module gives the stored id lists ([`id_lists`]), the comparison
//! of a stored summary with a recomputed one ([`differences`]) and which "resolved" rule the
//! stored flags actually follow ([`judged_by`]).
//!
//! ```
//! use evaltally_sfbench::report::Report;
//! use evaltally_sfbench::summary;
//!
//! let report = Report::from_value(&serde_json::json!({"instances": [
//!     {"instance_id": "lwc-component-001", "status": "resolved", "resolved": true,
//!      "validation": {"total_score": 100}, "duration_seconds": 120.5},
//!     {"instance_id": "flow-invocable-action-001", "status": "fail",
//!      "validation": {"total_score": 20}, "duration_seconds": 0.0},
//! ]}));
//! let s = summary::compute(&report.instances);
//! assert_eq!(s.resolve_rate, 0.5);
//! assert_eq!(s.resolution_rate, 50.0);
//! assert_eq!(s.median_score.to_string(), "100"); // upper median
//! assert_eq!(s.avg_duration_seconds, 120.5); // the 0.0 duration does not count
//! assert_eq!(serde_json::to_value(&s).unwrap()["avg_score"], serde_json::json!(60.0));
//! ```

use std::cmp::Ordering;
use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::report::{COMPONENTS, Component, ComponentStatus, IdLists, Instance, TaskStatus};

mod rule;
pub(crate) mod upstream;

pub use rule::{ResolvedRule, RuleAgreement, RuleReport, judged_by};

/// The keys of `EvaluationSummary.to_dict()`, in its order (the summary's own list).
pub const SUMMARY_KEYS: [&str; 24] = Summary::FIELDS;

/// A number as Python holds it: an `int` or a `float`.
///
/// Serializes and prints ([`Display`](fmt::Display)) the way Python's `json.dump` and `str()`
/// do: `20`, `35.0`, `0.3333333333333333`, `1e+16`. A non-finite float serializes as JSON
/// `null` (Python would write the non-JSON token `NaN`) and prints as `nan`, `inf` or `-inf`.
///
/// ```
/// use evaltally_sfbench::summary::PyNumber;
/// assert_eq!(PyNumber::from_score(20.0), PyNumber::Int(20));
/// assert_eq!(PyNumber::from_score(62.5).to_string(), "62.5");
/// assert_eq!(PyNumber::Float(35.0).to_string(), "35.0");
/// assert_eq!(serde_json::to_string(&PyNumber::Int(20)).unwrap(), "20");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PyNumber {
    /// A Python `int`.
    Int(i64),
    /// A Python `float`.
    Float(f64),
}

impl PyNumber {
    /// A score as upstream would hold it: an integer when it is whole (upstream's
    /// `total_score` is an `int`), a float otherwise.
    ///
    /// [`Instance`] keeps scores as `f64`, so a whole score written as a float in the JSON
    /// (`60.0`, which SF-Bench's converter can produce) also becomes an integer here, where
    /// upstream would keep the float.
    pub fn from_score(x: f64) -> Self {
        // 2^53: every whole f64 below it is an exact integer.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        if x.is_finite() && x.fract() == 0.0 && x.abs() < EXACT {
            #[allow(clippy::cast_possible_truncation)]
            Self::Int(x as i64)
        } else {
            Self::Float(x)
        }
    }

    /// The value as a float.
    pub fn as_f64(self) -> f64 {
        match self {
            #[allow(clippy::cast_precision_loss)]
            Self::Int(i) => i as f64,
            Self::Float(f) => f,
        }
    }
}

impl Default for PyNumber {
    fn default() -> Self {
        Self::Int(0)
    }
}

impl fmt::Display for PyNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(i) => write!(f, "{i}"),
            Self::Float(x) => f.write_str(&py_repr(*x)),
        }
    }
}

impl Serialize for PyNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Int(i) => s.serialize_i64(*i),
            Self::Float(x) => s.serialize_f64(*x),
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for PyNumber {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PyNumber".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A score as Python writes it: an integer, or a float; null when not finite.",
            "type": ["number", "null"],
        })
    }
}

/// Python's `repr(float)`: the shortest string that reads back as `x`, with `.0` on whole
/// values and an exponent (`1e+16`, `1.5e-05`) outside `1e-4 <= |x| < 1e16`.
pub(crate) fn py_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `Debug` uses the same digits and the same thresholds; only the exponent is
    // written differently (`1e16` against Python's `1e+16`, `1.5e-5` against `1.5e-05`).
    let s = format!("{x:?}");
    match s.split_once('e') {
        None => s,
        Some((mantissa, exp)) => {
            let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
            format!("{mantissa}e{sign}{digits:0>2}")
        }
    }
}

/// SF-Bench's `EvaluationSummary`, every field, in upstream key order.
///
/// Build it with [`compute`]; [`Default`] is upstream's all-zero summary (what an empty
/// report gets).
///
/// In JSON, a mean or total that is not finite (a NaN score) is `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// Number of instances.
    pub total_instances: usize,
    /// Number of instances (SWE-bench name; always equal to `total_instances`).
    pub instances_submitted: usize,
    /// Instances whose status is not `error` (includes `skipped`).
    pub instances_completed: usize,
    /// Instances whose stored `resolved` flag is true.
    pub resolved_instances: usize,
    /// Alias of `resolved_instances`.
    pub instances_resolved: usize,
    /// Instances not resolved and with status `fail`.
    pub instances_unresolved: usize,
    /// Instances with status `fail`.
    pub failed_instances: usize,
    /// Instances with status `error`.
    pub error_instances: usize,
    /// Alias of `error_instances`.
    pub instances_error: usize,
    /// Instances whose `solution_patch` is missing or blank, whatever their status.
    pub instances_empty_patch: usize,
    /// `resolved_instances / total_instances`: a fraction from 0 to 1.
    pub resolve_rate: f64,
    /// `resolve_rate * 100.0`: a percentage.
    pub resolution_rate: f64,
    /// Mean `total_score` over all instances.
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub avg_score: f64,
    /// Mean `functional_points` over the instances with `functional_points > 0` (so 50.0
    /// whenever any functional check passed, since the points are 0 or 50).
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub avg_functional_score: f64,
    /// `sorted(scores)[n // 2]`: the upper median, no averaging.
    pub median_score: PyNumber,
    /// Lowest `total_score`.
    pub min_score: PyNumber,
    /// Highest `total_score`.
    pub max_score: PyNumber,
    /// Fraction of instances whose deployment status is `pass`.
    pub deployment_pass_rate: f64,
    /// Fraction of instances whose unit-test status is `pass`.
    pub unit_test_pass_rate: f64,
    /// Fraction of instances whose functional status is `pass`.
    pub functional_pass_rate: f64,
    /// Fraction of instances whose bulk status is `pass`.
    pub bulk_pass_rate: f64,
    /// Fraction of instances whose no-tweaks status is `pass`.
    pub no_tweaks_pass_rate: f64,
    /// Mean `duration_seconds` over the instances with a duration `> 0`.
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub avg_duration_seconds: f64,
    /// Sum of the durations `> 0`.
    #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]
    pub total_duration_seconds: f64,
}

impl Default for Summary {
    fn default() -> Self {
        Self {
            total_instances: 0,
            instances_submitted: 0,
            instances_completed: 0,
            resolved_instances: 0,
            instances_resolved: 0,
            instances_unresolved: 0,
            failed_instances: 0,
            error_instances: 0,
            instances_error: 0,
            instances_empty_patch: 0,
            resolve_rate: 0.0,
            resolution_rate: 0.0,
            avg_score: 0.0,
            avg_functional_score: 0.0,
            // `median_score: float = 0.0` but `min_score: int = 0` upstream.
            median_score: PyNumber::Float(0.0),
            min_score: PyNumber::Int(0),
            max_score: PyNumber::Int(0),
            deployment_pass_rate: 0.0,
            unit_test_pass_rate: 0.0,
            functional_pass_rate: 0.0,
            bulk_pass_rate: 0.0,
            no_tweaks_pass_rate: 0.0,
            avg_duration_seconds: 0.0,
            total_duration_seconds: 0.0,
        }
    }
}

impl Summary {
    /// The keys of the summary object, in upstream order.
    pub const FIELDS: [&'static str; 24] = [
        "total_instances",
        "instances_submitted",
        "instances_completed",
        "resolved_instances",
        "instances_resolved",
        "instances_unresolved",
        "failed_instances",
        "error_instances",
        "instances_error",
        "instances_empty_patch",
        "resolve_rate",
        "resolution_rate",
        "avg_score",
        "avg_functional_score",
        "median_score",
        "min_score",
        "max_score",
        "deployment_pass_rate",
        "unit_test_pass_rate",
        "functional_pass_rate",
        "bulk_pass_rate",
        "no_tweaks_pass_rate",
        "avg_duration_seconds",
        "total_duration_seconds",
    ];

    /// The pass rate (a fraction) of one component.
    ///
    /// ```
    /// use evaltally_sfbench::report::Component;
    /// let s = evaltally_sfbench::summary::Summary { bulk_pass_rate: 0.25, ..Default::default() };
    /// assert_eq!(s.pass_rate(Component::Bulk), 0.25);
    /// ```
    pub fn pass_rate(&self, c: Component) -> f64 {
        match c {
            Component::Deployment => self.deployment_pass_rate,
            Component::UnitTest => self.unit_test_pass_rate,
            Component::Functional => self.functional_pass_rate,
            Component::Bulk => self.bulk_pass_rate,
            Component::NoTweaks => self.no_tweaks_pass_rate,
        }
    }

    /// The summary as a JSON object, keys in upstream order when `serde_json` preserves order.
    pub fn to_value(&self) -> Value {
        // Serializing plain numbers and strings into a `Value` cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Upstream's empty-patch rule: `not patch or len(patch.strip()) == 0`.
///
/// Python's `str.strip()` also strips the separators U+001C–U+001F, which Rust's
/// `char::is_whitespace` does not.
fn is_empty_patch(inst: &Instance) -> bool {
    inst.solution_patch.as_deref().is_none_or(|p| p.trim_matches(py_isspace).is_empty())
}

fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `sum()` over floats, left to right from 0 (Python 3.11, the version the oracle
/// ran; 3.12+ compensates rounding errors, which can change the last bit).
fn py_sum(xs: &[f64]) -> f64 {
    xs.iter().fold(0.0, |acc, x| acc + x)
}

/// Count divided by total, as Python's true division of two ints.
#[allow(clippy::cast_precision_loss)]
fn ratio(count: usize, total: usize) -> f64 {
    count as f64 / total as f64
}

/// Recomputes the summary from the instances, exactly as upstream `calculate_summary`.
///
/// The stored `resolved` flag decides "resolved" (not [`Validation::is_resolved`](crate::report::Validation::is_resolved));
/// see the module docs for every rule. Never panics on odd values: a NaN score makes the
/// mean NaN (serialized as `null`) and sorts by [`f64::total_cmp`]; durations and functional
/// points that are NaN, zero or negative do not count, as upstream's `> 0` tests.
///
/// ```
/// use evaltally_sfbench::report::Instance;
/// use evaltally_sfbench::summary::{compute, PyNumber};
///
/// let scores = [0.0, 0.0, 10.0, 20.0, 80.0, 100.0];
/// let instances: Vec<Instance> = scores
///     .iter()
///     .map(|s| Instance::from_value(&serde_json::json!({"status": "fail", "validation": {"total_score": s}})))
///     .collect();
/// let s = compute(&instances);
/// assert_eq!(s.median_score, PyNumber::Int(20)); // not 15
/// assert_eq!((s.min_score, s.max_score), (PyNumber::Int(0), PyNumber::Int(100)));
/// assert_eq!(compute(&[]), Default::default());
/// ```
pub fn compute(instances: &[Instance]) -> Summary {
    let mut s = Summary::default();
    if instances.is_empty() {
        return s;
    }
    let total = instances.len();
    let count = |f: &dyn Fn(&Instance) -> bool| instances.iter().filter(|i| f(i)).count();

    s.total_instances = total;
    s.instances_submitted = total;
    s.instances_completed = count(&|i| i.status != TaskStatus::Error);
    s.resolved_instances = count(&|i| i.resolved);
    s.instances_resolved = s.resolved_instances;
    s.instances_unresolved = count(&|i| !i.resolved && i.status == TaskStatus::Fail);
    s.failed_instances = count(&|i| i.status == TaskStatus::Fail);
    s.error_instances = count(&|i| i.status == TaskStatus::Error);
    s.instances_error = s.error_instances;
    s.instances_empty_patch = count(&is_empty_patch);

    s.resolve_rate = ratio(s.resolved_instances, total);
    s.resolution_rate = s.resolve_rate * 100.0;

    let scores: Vec<f64> = instances.iter().map(|i| i.validation.total_score).collect();
    #[allow(clippy::cast_precision_loss)]
    {
        s.avg_score = py_sum(&scores) / scores.len() as f64;
    }
    let mut sorted = scores;
    // Python compares -0.0 and 0.0 as equal; `total_cmp` would not.
    sorted.sort_by(|a, b| score_key(*a).total_cmp(&score_key(*b)));
    s.median_score = PyNumber::from_score(sorted[sorted.len() / 2]);
    s.min_score = PyNumber::from_score(sorted[0]);
    s.max_score = PyNumber::from_score(sorted[sorted.len() - 1]);

    let functional: Vec<f64> =
        instances.iter().map(|i| i.validation.points_of(Component::Functional)).filter(|p| *p > 0.0).collect();
    if !functional.is_empty() {
        #[allow(clippy::cast_precision_loss)]
        {
            s.avg_functional_score = py_sum(&functional) / functional.len() as f64;
        }
    }

    let rates: Vec<f64> = COMPONENTS
        .iter()
        .map(|c| ratio(count(&|i| *i.validation.status_of(*c) == ComponentStatus::Pass), total))
        .collect();
    s.deployment_pass_rate = rates[0];
    s.unit_test_pass_rate = rates[1];
    s.functional_pass_rate = rates[2];
    s.bulk_pass_rate = rates[3];
    s.no_tweaks_pass_rate = rates[4];

    let durations: Vec<f64> = instances.iter().map(|i| i.duration_seconds).filter(|d| *d > 0.0).collect();
    if !durations.is_empty() {
        let sum = py_sum(&durations);
        #[allow(clippy::cast_precision_loss)]
        {
            s.avg_duration_seconds = sum / durations.len() as f64;
        }
        s.total_duration_seconds = sum;
    }
    s
}

/// The sort key of a score: `-0.0` folded into `0.0`, so that a stable sort by
/// [`f64::total_cmp`] keeps them in input order as Python does.
pub(crate) fn score_key(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x }
}

/// The five id lists of `EvaluationReport.to_dict()`, each sorted (every field `Some`).
///
/// * `resolved`: the stored `resolved` flag is true;
/// * `unresolved`: not resolved **and** status `fail`;
/// * `error`: status `error`;
/// * `empty_patch`: `solution_patch` missing or blank, whatever the status;
/// * `completed`: status not `error` (so `skipped` counts as completed).
///
/// The lists overlap and do not cover every instance: a `resolved`-status instance whose
/// flag is false is only "completed".
///
/// ```
/// use evaltally_sfbench::report::Instance;
/// let inst = |v| Instance::from_value(&v);
/// let ids = evaltally_sfbench::summary::id_lists(&[
///     inst(serde_json::json!({"instance_id": "b", "status": "skipped"})),
///     inst(serde_json::json!({"instance_id": "a", "status": "fail", "solution_patch": "diff"})),
/// ]);
/// assert_eq!(ids.completed, Some(vec!["a".to_string(), "b".to_string()]));
/// assert_eq!(ids.unresolved, Some(vec!["a".to_string()]));
/// assert_eq!(ids.empty_patch, Some(vec!["b".to_string()]));
/// ```
pub fn id_lists(instances: &[Instance]) -> IdLists {
    let ids = |f: &dyn Fn(&Instance) -> bool| {
        let mut v: Vec<String> = instances.iter().filter(|i| f(i)).map(|i| i.instance_id.clone()).collect();
        v.sort();
        Some(v)
    };
    IdLists {
        resolved: ids(&|i| i.resolved),
        unresolved: ids(&|i| !i.resolved && i.status == TaskStatus::Fail),
        error: ids(&|i| i.status == TaskStatus::Error),
        empty_patch: ids(&is_empty_patch),
        completed: ids(&|i| i.status != TaskStatus::Error),
    }
}

/// The fields of a stored summary object whose value differs from the recomputed one:
/// `(field, stored value, computed value)`, in upstream key order.
///
/// What counts as equal:
///
/// * Only keys present in `stored` are compared: a missing key, or a `stored` that is not an
///   object, is a completeness or type problem for `validate`, not a difference of value.
/// * Numbers compare by value, whatever their JSON type (`35` equals `35.0`); types are
///   `validate`'s concern too.
/// * Floats are equal within a relative `1e-9`, which absorbs the last-bit differences of
///   another summation order (Python 3.12+ `sum()`).
/// * A stored value written with **2 to 4 decimals** is taken as rounded to that many places
///   and is equal when within half a unit of its last place: `0.4167` matches `5/12` (±0.00005),
///   `41.67` matches `41.666…` (±0.005). SF-Bench's docs round fractions to 4 places and
///   percentages to 2. Values with 0 or 1 decimal (`0.5`, `245.3`) are taken as exact,
///   since a tolerance of ±0.05 would hide real differences between rates.
/// * Anything else (strings, `null`, booleans) must be equal as JSON; a computed NaN is
///   `null`.
///
/// ```
/// use evaltally_sfbench::summary::{differences, Summary};
/// let computed = Summary { total_instances: 12, resolved_instances: 5, resolve_rate: 5.0 / 12.0, ..Default::default() };
/// let stored = serde_json::json!({"total_instances": 12, "resolved_instances": 6, "resolve_rate": 0.4167});
/// let d = differences(&stored, &computed);
/// assert_eq!(d.len(), 1);
/// assert_eq!(d[0].0, "resolved_instances");
/// assert_eq!(d[0].1, serde_json::json!(6));
/// assert_eq!(d[0].2, serde_json::json!(5));
/// ```
pub fn differences(stored: &Value, computed: &Summary) -> Vec<(String, Value, Value)> {
    let Some(stored) = stored.as_object() else { return Vec::new() };
    let computed = computed.to_value();
    Summary::FIELDS
        .iter()
        .filter_map(|&k| {
            let s = stored.get(k)?;
            let c = computed.get(k).cloned().unwrap_or(Value::Null);
            (!values_match(s, &c)).then(|| (k.to_string(), s.clone(), c))
        })
        .collect()
}

fn values_match(stored: &Value, computed: &Value) -> bool {
    match (stored, computed) {
        (Value::Number(s), Value::Number(c)) => match (s.as_i64(), c.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => match (s.as_f64(), c.as_f64()) {
                (Some(a), Some(b)) => floats_match(a, b),
                _ => s == c,
            },
        },
        _ => stored == computed,
    }
}

/// See [`differences`] for the rule.
fn floats_match(stored: f64, computed: f64) -> bool {
    #[allow(clippy::float_cmp)]
    if stored == computed {
        return true;
    }
    if !stored.is_finite() || !computed.is_finite() {
        return false;
    }
    let diff = (stored - computed).abs();
    if diff <= 1e-9 * stored.abs().max(computed.abs()) {
        return true;
    }
    match decimals_shown(stored) {
        Some(d @ 2..=4) => diff <= 0.5 / 10f64.powi(d) + 1e-12,
        _ => false,
    }
}

/// How many decimals the shortest representation of `x` has (`0.4167` → 4, `20.0` → 0).
fn decimals_shown(x: f64) -> Option<i32> {
    let s = format!("{x}");
    let decimals = s.split_once('.').map_or(0, |(_, f)| f.len());
    i32::try_from(decimals).ok()
}

/// Orders scores as upstream's `sorted(..., key=total_score, reverse=True)`: descending, ties
/// (and `-0.0`/`0.0`) left in input order by a stable sort.
pub(crate) fn by_score_desc(a: f64, b: f64) -> Ordering {
    score_key(b).total_cmp(&score_key(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn inst(v: &Value) -> Instance {
        Instance::from_value(v)
    }

    fn scored(scores: &[f64]) -> Vec<Instance> {
        // Set directly: `json!` would turn NaN into null.
        scores
            .iter()
            .map(|s| {
                let mut i = inst(&json!({"status": "fail"}));
                i.validation.total_score = *s;
                i
            })
            .collect()
    }

    #[test]
    fn median_is_the_upper_one_without_averaging() {
        let s = compute(&scored(&[100.0, 0.0, 80.0, 10.0, 20.0, 0.0]));
        assert_eq!(s.median_score, PyNumber::Int(20));
        assert_eq!(s.to_value()["median_score"], json!(20));
        assert_eq!(compute(&scored(&[3.0])).median_score, PyNumber::Int(3));
        assert_eq!(compute(&scored(&[1.0, 2.0])).median_score, PyNumber::Int(2));
        assert_eq!(compute(&scored(&[62.5, 10.0, 5.0])).median_score, PyNumber::Int(10));
        assert_eq!(compute(&scored(&[62.5, 70.5, 5.0])).median_score, PyNumber::Float(62.5));
    }

    #[test]
    fn empty_input_keeps_every_default() {
        let s = compute(&[]);
        assert_eq!(s, Summary::default());
        let v = s.to_value();
        assert_eq!(v["median_score"], json!(0.0));
        assert!(v["median_score"].is_f64());
        assert!(v["min_score"].is_u64() && v["max_score"].is_u64());
        assert!(v["resolve_rate"].is_f64() && v["total_instances"].is_u64());
        assert_eq!(v.as_object().map(serde_json::Map::len), Some(24));
    }

    #[test]
    fn durations_at_or_below_zero_are_ignored() {
        let instances: Vec<Instance> = [0.0, -5.0, 10.0, f64::NAN, 30.0]
            .iter()
            .map(|d| {
                let mut i = inst(&json!({"status": "fail"}));
                i.duration_seconds = *d;
                i
            })
            .collect();
        let s = compute(&instances);
        assert!((s.avg_duration_seconds - 20.0).abs() < f64::EPSILON);
        assert!((s.total_duration_seconds - 40.0).abs() < f64::EPSILON);
        let none = compute(&scored(&[1.0]));
        assert!(none.avg_duration_seconds == 0.0 && none.total_duration_seconds == 0.0);
    }

    #[test]
    fn avg_functional_score_only_over_positive_points() {
        let mk = |p: f64| inst(&json!({"status": "fail", "validation": {"functional_points": p}}));
        let s = compute(&[mk(50.0), mk(0.0), mk(0.0), mk(-10.0)]);
        assert!((s.avg_functional_score - 50.0).abs() < f64::EPSILON);
        assert!((s.avg_score - 0.0).abs() < f64::EPSILON);
        assert!(compute(&[mk(0.0)]).avg_functional_score == 0.0);
        assert!(compute(&[mk(50.0), mk(25.0)]).to_value()["avg_functional_score"] == json!(37.5));
    }

    #[test]
    fn counts_follow_the_id_list_rules() {
        let s = compute(&[
            inst(&json!({"instance_id": "a", "status": "resolved", "resolved": false, "solution_patch": "d"})),
            inst(&json!({"instance_id": "b", "status": "skipped", "solution_patch": " \n\u{1f}"})),
            inst(&json!({"instance_id": "c", "status": "error", "solution_patch": "d"})),
            inst(&json!({"instance_id": "d", "status": "fail", "resolved": true, "solution_patch": "d"})),
        ]);
        assert_eq!(s.instances_completed, 3);
        assert_eq!(s.resolved_instances, 1);
        assert_eq!(s.instances_unresolved, 0);
        assert_eq!(s.failed_instances, 1);
        assert_eq!(s.error_instances, 1);
        assert_eq!(s.instances_empty_patch, 1);
        assert!((s.resolve_rate - 0.25).abs() < f64::EPSILON && (s.resolution_rate - 25.0).abs() < f64::EPSILON);
    }

    #[test]
    fn nan_and_negative_scores_do_not_panic() {
        let s = compute(&scored(&[f64::NAN, -10.0, 5.0, -0.0]));
        assert!(s.avg_score.is_nan());
        assert_eq!(s.to_value()["avg_score"], Value::Null);
        assert_eq!(s.min_score, PyNumber::Int(-10));
        assert!(matches!(s.max_score, PyNumber::Float(x) if x.is_nan()));
        assert_eq!(s.max_score.to_string(), "nan");
        let _ = judged_by(&scored(&[f64::NAN]));
        assert!(differences(&json!("garbage"), &s).is_empty());
    }

    #[test]
    fn py_repr_matches_python() {
        for (x, want) in [
            (35.0, "35.0"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (1e16, "1e+16"),
            (1.5e-5, "1.5e-05"),
            (1.234_567_890_123_456_8e17, "1.2345678901234568e+17"),
            (-0.0, "-0.0"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            (1e-4, "0.0001"),
            (1e300, "1e+300"),
        ] {
            assert_eq!(py_repr(x), want, "{x:?}");
        }
    }

    #[test]
    fn differences_tolerate_rounded_values_only() {
        let c =
            Summary { resolve_rate: 5.0 / 12.0, resolution_rate: 500.0 / 12.0, avg_score: 35.0, ..Summary::default() };
        let d = |stored: Value| differences(&stored, &c).into_iter().map(|x| x.0).collect::<Vec<_>>();
        assert!(d(json!({"resolve_rate": 0.4167, "resolution_rate": 41.67, "avg_score": 35})).is_empty());
        assert!(d(json!({"resolve_rate": 0.416_666_666_666_666_74})).is_empty());
        // 0.42 is 5/12 rounded to 2 places; 0.43 is not.
        assert!(d(json!({"resolve_rate": 0.42})).is_empty());
        assert_eq!(d(json!({"resolve_rate": 0.43})), ["resolve_rate"]);
        assert_eq!(d(json!({"resolve_rate": 0.4})), ["resolve_rate"]);
        assert_eq!(d(json!({"resolution_rate": 41.7})), ["resolution_rate"]);
        assert_eq!(d(json!({"resolution_rate": "41.67"})), ["resolution_rate"]);
        assert!(d(json!({"median_score": 0, "avg_score": 35.0})).is_empty());
        assert_eq!(d(json!({"min_score": 1, "unknown_key": 3})), ["min_score"]);
    }

    #[test]
    fn judged_by_reports_each_rule() {
        let v = |d: &str, u: &str, f: &str, score: f64| json!({"deployment_status": d, "unit_test_status": u, "functional_status": f, "total_score": score});
        let instances = [
            inst(
                &json!({"instance_id": "a", "status": "resolved", "resolved": true, "validation": v("pass", "pass", "pass", 80.0)}),
            ),
            inst(
                &json!({"instance_id": "b", "status": "resolved", "resolved": true, "validation": v("pass", "pass", "pass", 70.0)}),
            ),
            inst(
                &json!({"instance_id": "c", "status": "resolved", "resolved": true, "validation": v("pass", "skipped", "skipped", 10.0)}),
            ),
            inst(
                &json!({"instance_id": "d", "status": "fail", "resolved": false, "validation": v("pass", "fail", "pass", 60.0)}),
            ),
        ];
        let r = judged_by(&instances);
        assert_eq!(r.instances, 4);
        let comp = r.agreement(ResolvedRule::Components);
        assert_eq!((comp.agree, comp.disagree, comp.disagreeing_ids), (3, 1, vec!["c".to_string()]));
        let thr = r.agreement(ResolvedRule::ComponentsAndScore80);
        assert_eq!((thr.agree, thr.disagreeing_ids), (2, vec!["b".to_string(), "c".to_string()]));
        assert!(r.followed().is_empty());
        assert_eq!(r.agreement(ResolvedRule::Stored).agree, 4);
        assert!(r.status_mismatch_ids.is_empty());
        assert!(judged_by(&[]).followed().is_empty());
    }
}
