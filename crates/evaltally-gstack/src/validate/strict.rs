//! The checks gstack's validator lacks.

use std::collections::HashMap;

use evaltally_core::Finding;
use serde_json::{Map, Value};

use super::{is_iso8601, type_of, validate};
use crate::model::{Shape, detect};

/// What a field must hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    String,
    Number,
    Boolean,
    Object,
    Array,
}

impl Want {
    fn holds(self, v: &Value) -> bool {
        match self {
            Want::String => v.is_string(),
            Want::Number => v.is_number(),
            Want::Boolean => v.is_boolean(),
            Want::Object => v.is_object(),
            Want::Array => v.is_array(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Want::String => "string",
            Want::Number => "number",
            Want::Boolean => "boolean",
            Want::Object => "object",
            Want::Array => "array",
        }
    }
}

/// `typeof`, but telling `null` and arrays apart from objects.
fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Array(_) => "array",
        other => type_of(other),
    }
}

/// `base.key`, or `base["key"]` when the key is not a plain identifier.
fn key_path(base: &str, key: &str) -> String {
    let plain = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain { format!("{base}.{key}") } else { format!("{base}[{}]", Value::String(key.to_string())) }
}

/// A display path without the leading `$.`, for messages (`all_results[0].suite`).
fn shown(path: &str) -> &str {
    path.strip_prefix("$.").unwrap_or(path)
}

#[derive(Default)]
struct Checker {
    out: Vec<Finding>,
}

impl Checker {
    fn error(&mut self, path: &str, message: String) {
        self.out.push(Finding::error(path, message));
    }

    fn warning(&mut self, path: &str, message: String) {
        self.out.push(Finding::warning(path, message));
    }

    /// Checks the type of `m[key]` when present (or when `required`); returns the value when
    /// it has the wanted type.
    fn field<'v>(
        &mut self,
        m: &'v Map<String, Value>,
        base: &str,
        key: &str,
        want: Want,
        required: bool,
    ) -> Option<&'v Value> {
        let path = key_path(base, key);
        match m.get(key) {
            None if required => {
                self.error(&path, format!("{} is missing", shown(&path)));
                None
            }
            None => None,
            Some(v) if want.holds(v) => Some(v),
            Some(v) => {
                let msg = if base == "$" {
                    format!("Field \"{key}\" must be {}, got {}", want.name(), describe(v))
                } else {
                    format!("{} must be {}, got {}", shown(&path), want.name(), describe(v))
                };
                self.error(&path, msg);
                None
            }
        }
    }

    /// A number that must not be negative (and, for counts, must be whole).
    fn amount(&mut self, m: &Map<String, Value>, base: &str, key: &str, whole: bool, required: bool) -> Option<f64> {
        let n = self.field(m, base, key, Want::Number, required)?.as_f64()?;
        let path = key_path(base, key);
        if n < 0.0 {
            self.error(&path, format!("{} must not be negative, got {n}", shown(&path)));
        } else if whole && n.fract() != 0.0 {
            self.error(&path, format!("{} must be a whole number, got {n}", shown(&path)));
        }
        Some(n)
    }

    /// An array whose elements must all be of one type; returns the elements.
    fn array_of<'v>(&mut self, m: &'v Map<String, Value>, base: &str, key: &str, want: Want) -> &'v [Value] {
        let Some(items) = self.field(m, base, key, Want::Array, false).and_then(Value::as_array) else { return &[] };
        let path = key_path(base, key);
        for (j, item) in items.iter().enumerate() {
            if !want.holds(item) {
                let p = format!("{path}[{j}]");
                self.error(&p, format!("{} must be {}, got {}", shown(&p), want.name(), describe(item)));
            }
        }
        items
    }

    /// An object whose values must all be numbers (`{criterion: score}`).
    fn scores(&mut self, m: &Map<String, Value>, base: &str, key: &str) {
        let Some(o) = self.field(m, base, key, Want::Object, false).and_then(Value::as_object) else { return };
        let path = key_path(base, key);
        for (k, v) in o {
            if !v.is_number() {
                let p = key_path(&path, k);
                self.error(&p, format!("{} must be number, got {}", shown(&p), describe(v)));
            }
        }
    }
}

/// [`validate`](super::validate), then the checks gstack lacks:
///
/// * a legacy `EvalResult` gets a warning that names it and the conversion command;
/// * `schema_version` is 1; counts are whole and no number is negative;
/// * `passed + failed == total`, and the three agree with `all_results` (warnings);
/// * `timestamp` is ISO 8601;
/// * the documented optional fields have their documented types: `hostname`, `label`,
///   `prompt_sha`, `_partial`, `by_category` (either shape), `costs[]`, top-level
///   `comparison[]` and `failures[]` (TypeScript shapes), and per test `suite`, `tier`,
///   `duration_ms`, `cost_usd`, `output`, `turns_used`, `exit_reason`, `detection_rate`,
///   `false_positives`, `evidence_quality`, `detected_bugs`, `missed_bugs`, `judge_scores`,
///   `judge_reasoning`, `error`, and the design doc's `category`, `response_preview`,
///   `comparison` and `failures[]`;
/// * test names are unique;
/// * `_partial: true` and a `duration_seconds` that looks like milliseconds are warned about.
///
/// ```
/// let v = serde_json::json!({"schema_version": 2, "version": "1", "git_branch": "main", "git_sha": "a",
///     "timestamp": "2026-03-15T10:30:00Z", "tier": "e2e", "total": 2, "passed": 1, "failed": 0,
///     "total_cost_usd": 0, "duration_seconds": 1, "all_results": [{"name": "a", "passed": true}]});
/// assert!(evaltally_gstack::validate(&v).is_empty());
/// let strict: Vec<String> = evaltally_gstack::validate_strict(&v).iter().map(ToString::to_string).collect();
/// assert_eq!(strict, [
///     "$.schema_version: error: schema_version is 2; the format defines only version 1",
///     "file: warning: passed (1) + failed (0) = 1, but total is 2",
///     "$.total: warning: total is 2, but all_results lists 1 test",
/// ]);
/// ```
#[allow(clippy::float_cmp)] // the compared numbers are whole: exact comparison is meant
pub fn validate_strict(v: &Value) -> Vec<Finding> {
    let mut c = Checker { out: validate(v) };
    if detect(v) == Some(Shape::Legacy) {
        c.warning(
            "$",
            "this is a legacy EvalResult (`branch`, `total_tests`, `total_duration_ms`, `tests`), which gstack's \
             validator rejects; `evaltally convert --to gstack` turns it into the standard format"
                .to_string(),
        );
        return c.out;
    }
    let Some(m) = v.as_object() else { return c.out };
    if let Some(n) = m.get("schema_version").and_then(Value::as_f64)
        && n != 1.0
    {
        c.error("$.schema_version", format!("schema_version is {n}; the format defines only version 1"));
    }
    let counts = |c: &mut Checker, k: &str| {
        if m.get(k).is_some_and(Value::is_number) { c.amount(m, "$", k, true, false) } else { None }
    };
    let (total, passed, failed) = (counts(&mut c, "total"), counts(&mut c, "passed"), counts(&mut c, "failed"));
    for k in ["total_cost_usd", "duration_seconds"] {
        if m.get(k).is_some_and(Value::is_number) {
            c.amount(m, "$", k, false, false);
        }
    }
    if let Some(ts) = m.get("timestamp").and_then(Value::as_str)
        && !is_iso8601(ts)
    {
        c.error("$.timestamp", format!("timestamp {ts:?} is not an ISO 8601 date-time (like 2026-03-15T10:30:00Z)"));
    }
    for k in ["hostname", "label", "prompt_sha"] {
        c.field(m, "$", k, Want::String, false);
    }
    if c.field(m, "$", "_partial", Want::Boolean, false).and_then(Value::as_bool) == Some(true) {
        c.warning("$._partial", "`_partial: true`: an incremental save of a run that had not finished".to_string());
    }
    top_level_records(&mut c, m);
    if let (Some(t), Some(p), Some(f)) = (total, passed, failed)
        && p + f != t
    {
        c.warning("$", format!("passed ({p}) + failed ({f}) = {}, but total is {t}", p + f));
    }
    if let Some(results) = m.get("all_results").and_then(Value::as_array) {
        let listed = results.len();
        let said = |v: bool| results.iter().filter(|r| r.get("passed").and_then(Value::as_bool) == Some(v)).count();
        let tests_word = |n: usize| if n == 1 { "1 test".to_string() } else { format!("{n} tests") };
        for (key, stated, actual) in
            [("total", total, listed), ("passed", passed, said(true)), ("failed", failed, said(false))]
        {
            if let Some(n) = stated
                && n != actual as f64
            {
                let msg = if key == "total" {
                    format!("total is {n}, but all_results lists {}", tests_word(actual))
                } else {
                    format!("{key} is {n}, but {} in all_results {key}", tests_word(actual))
                };
                c.warning(&format!("$.{key}"), msg);
            }
        }
        tests(&mut c, results);
        if let Some(s) = m.get("duration_seconds").and_then(Value::as_f64) {
            let summed: f64 = results.iter().filter_map(|r| r.get("duration_ms").and_then(Value::as_f64)).sum();
            if summed >= 1000.0 && (s - summed).abs() <= summed * 0.01 {
                c.warning(
                    "$.duration_seconds",
                    format!("duration_seconds is {s}, about the sum of the tests' duration_ms ({summed}): milliseconds written as seconds?"),
                );
            }
        }
    }
    c.out
}

fn top_level_records(c: &mut Checker, m: &Map<String, Value>) {
    if let Some(cats) = c.field(m, "$", "by_category", Want::Object, false).and_then(Value::as_object) {
        for (name, counts) in cats {
            let base = key_path("$.by_category", name);
            let Some(o) = counts.as_object() else {
                c.error(&base, format!("{} must be object, got {}", shown(&base), describe(counts)));
                continue;
            };
            c.amount(o, &base, "passed", true, true);
            c.amount(o, &base, "failed", true, false);
            c.amount(o, &base, "total", true, false);
            if !o.contains_key("failed") && !o.contains_key("total") {
                c.warning(
                    &base,
                    format!("{} has neither failed (TypeScript type) nor total (design doc)", shown(&base)),
                );
            }
        }
    }
    for (j, cost) in c.array_of(m, "$", "costs", Want::Object).iter().enumerate() {
        let Some(o) = cost.as_object() else { continue };
        let base = format!("$.costs[{j}]");
        c.field(o, &base, "model", Want::String, true);
        for k in ["calls", "input_tokens", "output_tokens"] {
            c.amount(o, &base, k, true, true);
        }
        for k in ["cache_read_input_tokens", "cache_creation_input_tokens"] {
            c.amount(o, &base, k, true, false);
        }
        c.amount(o, &base, "cost_usd", false, false);
    }
    for (j, entry) in c.array_of(m, "$", "comparison", Want::Object).iter().enumerate() {
        let Some(o) = entry.as_object() else { continue };
        let base = format!("$.comparison[{j}]");
        c.field(o, &base, "label", Want::String, true);
        c.field(o, &base, "model", Want::String, true);
        c.field(o, &base, "score", Want::Number, true);
        c.amount(o, &base, "cost_usd", false, true);
    }
    for (j, entry) in c.array_of(m, "$", "failures", Want::Object).iter().enumerate() {
        let Some(o) = entry.as_object() else { continue };
        let base = format!("$.failures[{j}]");
        c.field(o, &base, "test_name", Want::String, true);
        c.field(o, &base, "error", Want::String, true);
        c.field(o, &base, "category", Want::String, false);
    }
}

fn tests(c: &mut Checker, results: &[Value]) {
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, entry) in results.iter().enumerate() {
        let base = format!("$.all_results[{i}]");
        let Some(o) = entry.as_object() else {
            if entry.is_array() {
                c.error(&base, format!("all_results[{i}] must be an object, got array"));
            }
            continue;
        };
        for k in ["suite", "tier", "exit_reason", "judge_reasoning", "error", "category", "response_preview"] {
            c.field(o, &base, k, Want::String, false);
        }
        for k in ["duration_ms", "cost_usd", "turns_used", "detection_rate", "false_positives", "evidence_quality"] {
            c.amount(o, &base, k, k == "turns_used" || k == "false_positives", false);
        }
        c.field(o, &base, "output", Want::Object, false);
        c.array_of(o, &base, "detected_bugs", Want::String);
        c.array_of(o, &base, "missed_bugs", Want::String);
        c.scores(o, &base, "judge_scores");
        match o.get("comparison") {
            None | Some(Value::Null) => {}
            Some(Value::Object(cmp)) => {
                let cb = format!("{base}.comparison");
                c.field(cmp, &cb, "type", Want::String, false);
                c.scores(cmp, &cb, "control_scores");
                c.scores(cmp, &cb, "treatment_scores");
                c.array_of(cmp, &cb, "deltas", Want::Object);
                c.field(cmp, &cb, "tolerance", Want::Number, false);
            }
            Some(other) => {
                c.error(
                    &format!("{base}.comparison"),
                    format!("all_results[{i}].comparison must be object or null, got {}", describe(other)),
                );
            }
        }
        for (j, failure) in c.array_of(o, &base, "failures", Want::Object).iter().enumerate() {
            let Some(f) = failure.as_object() else { continue };
            let fb = format!("{base}.failures[{j}]");
            c.field(f, &fb, "type", Want::String, false);
            c.field(f, &fb, "expectation_type", Want::String, false);
            c.field(f, &fb, "message", Want::String, true);
        }
        if let Some(name) = o.get("name").and_then(Value::as_str) {
            if let Some(first) = first_at.get(name) {
                c.error(
                    &format!("{base}.name"),
                    format!("duplicate test name {name:?} (first at all_results[{first}])"),
                );
            } else {
                first_at.insert(name, i);
            }
        }
    }
}
