//! SF-Bench's `calculate_summary` (schema.py:326-401) and the id lists of
//! `EvaluationReport.to_dict()` (schema.py:272-288), computed on JSON instances as written
//! (not on the typed [`Instance`](crate::report::Instance)s the summary module reads): what
//! validation compares a stored summary with, and what migration writes.
//!
//! Values keep Python's number types: a sum of integers stays an integer, a mean is a float,
//! and `median_score` / `min_score` / `max_score` are elements of the scores as written. Status
//! words are compared in any letter case (this crate reads them so, with a warning), and the
//! `resolved` flag by Python truthiness (`if inst.resolved`).

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::report::COMPONENTS;

/// A number as Python holds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    /// A JSON number; anything else is the dataclass default `0`.
    pub(crate) fn of(v: Option<&Value>) -> Self {
        match v {
            Some(Value::Number(n)) => n.as_i64().map_or_else(|| Self::Float(n.as_f64().unwrap_or(0.0)), Self::Int),
            _ => Self::Int(0),
        }
    }

    pub(crate) fn f(self) -> f64 {
        match self {
            Self::Int(i) => i as f64,
            Self::Float(x) => x,
        }
    }

    pub(crate) fn value(self) -> Value {
        match self {
            Self::Int(i) => Value::from(i),
            Self::Float(x) => Value::from(x),
        }
    }
}

/// Python's `sum(xs)`: starts at the integer 0, turns float at the first float.
fn sum(xs: impl IntoIterator<Item = Num>) -> Num {
    xs.into_iter().fold(Num::Int(0), |acc, x| match (acc, x) {
        (Num::Int(a), Num::Int(b)) => a.checked_add(b).map_or(Num::Float(a as f64 + b as f64), Num::Int),
        (a, b) => Num::Float(a.f() + b.f()),
    })
}

/// `sum(xs) / len(xs)` (true division: always a float).
fn mean(xs: &[Num]) -> Num {
    Num::Float(sum(xs.iter().copied()).f() / xs.len() as f64)
}

/// An instance status, in any letter case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Resolved,
    Fail,
    Error,
    Skipped,
    /// Any other string, or a value that is not a string.
    Other,
}

/// What the summary and the id lists need from one instance.
#[derive(Clone, Debug)]
pub(crate) struct Row<'a> {
    /// `instance_id` when it is a string.
    pub(crate) id: Option<&'a str>,
    pub(crate) resolved: bool,
    pub(crate) status: Status,
    pub(crate) empty_patch: bool,
    total_score: Num,
    functional_points: Num,
    component_pass: [bool; 5],
    duration: Num,
}

/// Python truthiness of a JSON value.
fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
    }
}

impl<'a> Row<'a> {
    /// Reads one instance; missing fields take the dataclass defaults (`status` "error",
    /// `resolved` false, components "skipped", numbers 0).
    pub(crate) fn of(inst: &'a Value) -> Self {
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        let m = inst.as_object().unwrap_or(&EMPTY);
        let status = match m.get("status") {
            None => Status::Error,
            Some(Value::String(s)) => match s.to_ascii_lowercase().as_str() {
                "resolved" => Status::Resolved,
                "fail" => Status::Fail,
                "error" => Status::Error,
                "skipped" => Status::Skipped,
                _ => Status::Other,
            },
            Some(_) => Status::Other,
        };
        let patch = m.get("solution_patch");
        let empty_patch = match patch {
            Some(Value::String(s)) => s.trim().is_empty(),
            other => !truthy(other),
        };
        let v = m.get("validation").and_then(Value::as_object).unwrap_or(&EMPTY);
        let component_pass = COMPONENTS.map(|c| {
            v.get(&format!("{}_status", c.key()))
                .and_then(Value::as_str)
                .is_some_and(|s| s.eq_ignore_ascii_case("pass"))
        });
        Self {
            id: m.get("instance_id").and_then(Value::as_str),
            resolved: truthy(m.get("resolved")),
            status,
            empty_patch,
            total_score: Num::of(v.get("total_score")),
            functional_points: Num::of(v.get("functional_points")),
            component_pass,
            duration: Num::of(m.get("duration_seconds")),
        }
    }

    /// In `resolved_ids`.
    pub(crate) fn in_resolved(&self) -> bool {
        self.resolved
    }

    /// In `unresolved_ids`: not resolved and status fail.
    pub(crate) fn in_unresolved(&self) -> bool {
        !self.resolved && self.status == Status::Fail
    }

    /// In `error_ids`.
    pub(crate) fn in_error(&self) -> bool {
        self.status == Status::Error
    }

    /// In `empty_patch_ids`.
    pub(crate) fn in_empty_patch(&self) -> bool {
        self.empty_patch
    }

    /// In `completed_ids`: any status but error, skipped included.
    pub(crate) fn in_completed(&self) -> bool {
        self.status != Status::Error
    }
}

/// The summary fields with their dataclass types, in `to_dict()` order: `true` for `int`.
pub(crate) const FIELDS: [(&str, bool); 24] = [
    ("total_instances", true),
    ("instances_submitted", true),
    ("instances_completed", true),
    ("resolved_instances", true),
    ("instances_resolved", true),
    ("instances_unresolved", true),
    ("failed_instances", true),
    ("error_instances", true),
    ("instances_error", true),
    ("instances_empty_patch", true),
    ("resolve_rate", false),
    ("resolution_rate", false),
    ("avg_score", false),
    ("avg_functional_score", false),
    ("median_score", false),
    ("min_score", true),
    ("max_score", true),
    ("deployment_pass_rate", false),
    ("unit_test_pass_rate", false),
    ("functional_pass_rate", false),
    ("bulk_pass_rate", false),
    ("no_tweaks_pass_rate", false),
    ("avg_duration_seconds", false),
    ("total_duration_seconds", false),
];

/// `calculate_summary()` on these instances: every field, in `to_dict()` order.
pub(crate) fn compute(rows: &[Row<'_>]) -> Vec<(&'static str, Value)> {
    let mut out: Vec<(&'static str, Value)> =
        FIELDS.iter().map(|&(k, int)| (k, if int { Value::from(0) } else { Value::from(0.0) })).collect();
    if rows.is_empty() {
        // Upstream returns at once: every field keeps its default.
        return out;
    }
    let total = rows.len();
    let count = |f: &dyn Fn(&Row<'_>) -> bool| rows.iter().filter(|r| f(r)).count();
    let resolved = count(&|r| r.in_resolved());
    let error = count(&|r| r.in_error());
    let resolve_rate = resolved as f64 / total as f64;
    let scores: Vec<Num> = rows.iter().map(|r| r.total_score).collect();
    let functional: Vec<Num> = rows.iter().map(|r| r.functional_points).filter(|p| p.f() > 0.0).collect();
    let durations: Vec<Num> = rows.iter().map(|r| r.duration).filter(|d| d.f() > 0.0).collect();
    let mut sorted = scores.clone();
    sorted.sort_by(|a, b| a.f().partial_cmp(&b.f()).unwrap_or(Ordering::Equal));
    // Python's min()/max() keep the first of equal elements.
    let min = scores.iter().copied().reduce(|a, b| if b.f() < a.f() { b } else { a }).unwrap_or(Num::Int(0));
    let max = scores.iter().copied().reduce(|a, b| if b.f() > a.f() { b } else { a }).unwrap_or(Num::Int(0));
    let pass_rate = |i: usize| Value::from(rows.iter().filter(|r| r.component_pass[i]).count() as f64 / total as f64);
    let values = [
        Value::from(total),
        Value::from(total),
        Value::from(count(&|r| r.in_completed())),
        Value::from(resolved),
        Value::from(resolved),
        Value::from(count(&|r| r.in_unresolved())),
        Value::from(count(&|r| r.status == Status::Fail)),
        Value::from(error),
        Value::from(error),
        Value::from(count(&|r| r.in_empty_patch())),
        Value::from(resolve_rate),
        Value::from(resolve_rate * 100.0),
        mean(&scores).value(),
        if functional.is_empty() { Value::from(0.0) } else { mean(&functional).value() },
        sorted.get(sorted.len() / 2).copied().unwrap_or(Num::Float(0.0)).value(),
        min.value(),
        max.value(),
        pass_rate(0),
        pass_rate(1),
        pass_rate(2),
        pass_rate(3),
        pass_rate(4),
        if durations.is_empty() { Value::from(0.0) } else { mean(&durations).value() },
        if durations.is_empty() { Value::from(0.0) } else { sum(durations.iter().copied()).value() },
    ];
    for (slot, v) in out.iter_mut().zip(values) {
        slot.1 = v;
    }
    out
}

/// The five id lists of `to_dict()`, each sorted: resolved, unresolved, error, empty patch,
/// completed. Instances whose id is not a string are left out.
pub(crate) fn id_lists(rows: &[Row<'_>]) -> [Vec<String>; 5] {
    std::array::from_fn(|i| {
        let mut ids: Vec<String> =
            rows.iter().filter(|r| in_list(r, i)).filter_map(|r| r.id.map(str::to_string)).collect();
        ids.sort();
        ids
    })
}

/// The id-list keys, in `to_dict()` order, with the rule each follows (for messages).
pub(crate) const ID_LISTS: [(&str, &str); 5] = [
    ("resolved_ids", "the instances with resolved: true"),
    ("unresolved_ids", "the instances with resolved: false and status \"fail\""),
    ("error_ids", "the instances with status \"error\""),
    ("empty_patch_ids", "the instances whose solution_patch is null, missing or blank"),
    ("completed_ids", "the instances whose status is not \"error\" (skipped included)"),
];

/// Whether a row belongs to id list `i` of [`ID_LISTS`].
pub(crate) fn in_list(row: &Row<'_>, i: usize) -> bool {
    match i {
        0 => row.in_resolved(),
        1 => row.in_unresolved(),
        2 => row.in_error(),
        3 => row.in_empty_patch(),
        _ => row.in_completed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn upper_median_and_types() {
        let insts: Vec<Value> = [0, 0, 10, 20, 80, 100]
            .iter()
            .map(|s| json!({"instance_id": "x", "status": "fail", "validation": {"total_score": s}}))
            .collect();
        let rows: Vec<Row<'_>> = insts.iter().map(Row::of).collect();
        let s = compute(&rows);
        let get = |k: &str| s.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone()).unwrap();
        assert_eq!(get("median_score"), json!(20));
        assert_eq!(get("avg_score"), json!(35.0));
        assert_eq!(get("min_score"), json!(0));
        assert_eq!(get("avg_functional_score"), json!(0.0));
        assert_eq!(get("instances_empty_patch"), json!(6));
        assert_eq!(compute(&[]).len(), 24);
    }
}
