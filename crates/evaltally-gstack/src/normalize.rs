//! gstack's `normalizeToLegacy` and `normalizeFromLegacy`, reproduced exactly.
//!
//! * Top-level keys are renamed (`git_branch` ↔ `branch`, `total` ↔ `total_tests`,
//!   `all_results` ↔ `tests`) and written in the order of gstack's object literals.
//! * Durations: standard → legacy is `duration_seconds * 1000`, not rounded (893.4 →
//!   893400); legacy → standard is `Math.round(total_duration_ms / 1000)` (1500 → 2). Both
//!   coerce as JavaScript does, so a missing duration becomes `NaN`, written as `null`.
//! * Per test, `name`, `suite`, `tier`, `passed`, `duration_ms` and `cost_usd` are always
//!   copied (and left out of the JSON when absent); `turns_used`, `exit_reason`,
//!   `detection_rate`, `false_positives`, `evidence_quality`, `judge_reasoning` and `error`
//!   when present (`!== undefined`: `null` is copied); `detected_bugs`, `missed_bugs` and
//!   `judge_scores` when truthy (`[]` and `{}` are copied, `null`, `0`, `""` are not).
//! * Everything else is dropped; [`dropped`] lists it.
//!
//! [`to_legacy_text`] and [`from_legacy_text`] give the bytes gstack writes
//! (`JSON.stringify(x, null, 2) + "\n"`); they parse with [`js::parse`]
//! so nested objects keep their key order. [`try_to_legacy`] and [`try_from_legacy`] fail
//! where gstack throws a `TypeError`; [`to_legacy`] and [`from_legacy`] work on
//! [`serde_json::Value`] and never fail (see their docs for what they do instead).

use serde_json::Value;

use crate::js::{self, JsObject, JsValue, ParseError, math_round};

/// Which way a conversion goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Standard → legacy (`normalizeToLegacy`, what `gstack eval push` saves).
    ToLegacy,
    /// Legacy → standard (`normalizeFromLegacy`).
    FromLegacy,
}

/// Why a conversion did not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NormalizeError {
    /// The text is not JSON.
    #[error("not valid JSON: {0}")]
    Json(#[from] ParseError),
    /// gstack's function throws on this input; `message` is V8's (Node 20) wording.
    #[error("gstack's {function} throws on this input: TypeError: {message}")]
    Throws {
        /// `normalizeToLegacy` or `normalizeFromLegacy`.
        function: &'static str,
        /// The `TypeError` message.
        message: String,
    },
}

/// Per-test fields copied when `!== undefined` (first six always, then these), with
/// `true` marking the three copied only when truthy; in gstack's order.
const TEST_ALWAYS: [&str; 6] = ["name", "suite", "tier", "passed", "duration_ms", "cost_usd"];
const TEST_OPTIONAL: [(&str, bool); 10] = [
    ("turns_used", false),
    ("exit_reason", false),
    ("detection_rate", false),
    ("false_positives", false),
    ("evidence_quality", false),
    ("detected_bugs", true),
    ("missed_bugs", true),
    ("judge_scores", true),
    ("judge_reasoning", false),
    ("error", false),
];

struct Spec {
    function: &'static str,
    var: &'static str,
    /// (output key, input key) before the duration, in literal order.
    head: [(&'static str, &'static str); 11],
    duration: (&'static str, &'static str),
    list: (&'static str, &'static str),
    dropped_top: &'static [&'static str],
    dropped_test: &'static [&'static str],
}

const TO_LEGACY: Spec = Spec {
    function: "normalizeToLegacy",
    var: "standard",
    head: [
        ("schema_version", "schema_version"),
        ("version", "version"),
        ("branch", "git_branch"),
        ("git_sha", "git_sha"),
        ("timestamp", "timestamp"),
        ("hostname", "hostname"),
        ("tier", "tier"),
        ("total_tests", "total"),
        ("passed", "passed"),
        ("failed", "failed"),
        ("total_cost_usd", "total_cost_usd"),
    ],
    duration: ("total_duration_ms", "duration_seconds"),
    list: ("tests", "all_results"),
    dropped_top: &["label", "prompt_sha", "by_category", "costs", "comparison", "failures"],
    dropped_test: &["output"],
};

const FROM_LEGACY: Spec = Spec {
    function: "normalizeFromLegacy",
    var: "legacy",
    head: [
        ("schema_version", "schema_version"),
        ("version", "version"),
        ("git_branch", "branch"),
        ("git_sha", "git_sha"),
        ("timestamp", "timestamp"),
        ("hostname", "hostname"),
        ("tier", "tier"),
        ("total", "total_tests"),
        ("passed", "passed"),
        ("failed", "failed"),
        ("total_cost_usd", "total_cost_usd"),
    ],
    duration: ("duration_seconds", "total_duration_ms"),
    list: ("all_results", "tests"),
    dropped_top: &["wall_clock_ms", "costs", "shard"],
    dropped_test: &[
        "transcript",
        "prompt",
        "output",
        "browse_errors",
        "timeout_at_turn",
        "last_tool_call",
        "model",
        "first_response_ms",
        "max_inter_turn_ms",
        "costs",
        "harvest",
        "tokens_used",
    ],
};

fn spec(direction: Direction) -> &'static Spec {
    match direction {
        Direction::ToLegacy => &TO_LEGACY,
        Direction::FromLegacy => &FROM_LEGACY,
    }
}

fn convert(doc: &JsValue, direction: Direction, lenient: bool) -> Result<JsValue, NormalizeError> {
    let s = spec(direction);
    let throws = |message: String| NormalizeError::Throws { function: s.function, message };
    if matches!(doc, JsValue::Null) && !lenient {
        return Err(throws(format!("Cannot read properties of null (reading '{}')", s.head[0].1)));
    }
    let mut out = JsObject::new();
    for (to, from) in s.head {
        out.insert_defined(to, doc.get(from).cloned());
    }
    let n = doc.get(s.duration.1).map_or(f64::NAN, JsValue::to_number);
    let duration = match direction {
        Direction::ToLegacy => n * 1000.0,
        Direction::FromLegacy => math_round(n / 1000.0),
    };
    out.insert(s.duration.0, JsValue::Number(duration));
    let items: &[JsValue] = match doc.get(s.list.1) {
        Some(JsValue::Array(items)) => items,
        _ if lenient => &[],
        None => return Err(throws("Cannot read properties of undefined (reading 'map')".to_string())),
        Some(JsValue::Null) => return Err(throws("Cannot read properties of null (reading 'map')".to_string())),
        Some(_) => return Err(throws(format!("{}.{}.map is not a function", s.var, s.list.1))),
    };
    let mut tests = Vec::with_capacity(items.len());
    for t in items {
        if matches!(t, JsValue::Null) && !lenient {
            return Err(throws("Cannot read properties of null (reading 'name')".to_string()));
        }
        let mut entry = JsObject::new();
        for k in TEST_ALWAYS {
            entry.insert_defined(k, t.get(k).cloned());
        }
        for (k, truthy) in TEST_OPTIONAL {
            entry.insert_defined(k, t.get(k).filter(|v| !truthy || v.is_truthy()).cloned());
        }
        tests.push(JsValue::Object(entry));
    }
    out.insert(s.list.0, JsValue::Array(tests));
    out.insert_defined("_partial", doc.get("_partial").cloned());
    Ok(JsValue::Object(out))
}

/// `normalizeToLegacy(doc)`, failing where gstack throws (`all_results` missing or not an
/// array, a `null` entry, a `null` document).
pub fn try_to_legacy(doc: &JsValue) -> Result<JsValue, NormalizeError> {
    convert(doc, Direction::ToLegacy, false)
}

/// `normalizeFromLegacy(doc)`, failing where gstack throws (`tests` missing or not an
/// array, a `null` entry, a `null` document).
pub fn try_from_legacy(doc: &JsValue) -> Result<JsValue, NormalizeError> {
    convert(doc, Direction::FromLegacy, false)
}

/// Standard → legacy on a serde value, never failing: where gstack would throw, a missing
/// or non-array `all_results` becomes `tests: []` and a `null` entry `{}`. Key order is
/// lost in a [`Value`]; use [`to_legacy_text`] for gstack's exact bytes.
///
/// ```
/// let v = serde_json::json!({"git_branch": "main", "duration_seconds": 893.4, "label": "x",
///     "all_results": [{"name": "a", "passed": true, "output": {}, "detected_bugs": null}]});
/// let legacy = evaltally_gstack::normalize::to_legacy(&v);
/// assert_eq!(legacy, serde_json::json!({"branch": "main", "total_duration_ms": 893400,
///     "tests": [{"name": "a", "passed": true}]}));
/// ```
pub fn to_legacy(v: &Value) -> Value {
    convert(&JsValue::from_value(v), Direction::ToLegacy, true).map_or(Value::Null, |j| j.to_value())
}

/// Legacy → standard on a serde value, never failing (see [`to_legacy`]).
///
/// ```
/// let v = serde_json::json!({"branch": "main", "total_duration_ms": 1500, "wall_clock_ms": 900,
///     "tests": [{"name": "a", "passed": false, "transcript": [], "error": null}]});
/// let std = evaltally_gstack::normalize::from_legacy(&v);
/// assert_eq!(std, serde_json::json!({"git_branch": "main", "duration_seconds": 2,
///     "all_results": [{"name": "a", "passed": false, "error": null}]}));
/// ```
pub fn from_legacy(v: &Value) -> Value {
    convert(&JsValue::from_value(v), Direction::FromLegacy, true).map_or(Value::Null, |j| j.to_value())
}

/// The file `gstack eval push` saves for a standard result text: `JSON.stringify(
/// normalizeToLegacy(JSON.parse(text)), null, 2) + "\n"`. (gstack validates first; this
/// does not.)
///
/// ```
/// let text = r#"{"schema_version":1,"git_branch":"main","duration_seconds":30,"all_results":[{"name":"a","passed":true}]}"#;
/// assert_eq!(evaltally_gstack::normalize::to_legacy_text(text).unwrap(), "{\n  \"schema_version\": 1,\n  \
///     \"branch\": \"main\",\n  \"total_duration_ms\": 30000,\n  \"tests\": [\n    {\n      \"name\": \"a\",\n      \
///     \"passed\": true\n    }\n  ]\n}\n");
/// ```
pub fn to_legacy_text(text: &str) -> Result<String, NormalizeError> {
    let out = try_to_legacy(&js::parse(text)?)?;
    Ok(out.to_pretty_string() + "\n")
}

/// `JSON.stringify(normalizeFromLegacy(JSON.parse(text)), null, 2) + "\n"`.
pub fn from_legacy_text(text: &str) -> Result<String, NormalizeError> {
    let out = try_from_legacy(&js::parse(text)?)?;
    Ok(out.to_pretty_string() + "\n")
}

/// What a conversion loses, for a "lost in conversion" message: top-level fields without a
/// counterpart (gstack's documented ones first, then unknown keys), per-test fields as
/// `all_results[].output` / `tests[].transcript` (once each, in order of first appearance),
/// the truthiness-checked fields whose value is falsy (`… (falsy value)`), and, from
/// legacy, a `total_duration_ms` that is not a whole number of seconds.
///
/// ```
/// use evaltally_gstack::normalize::{dropped, Direction};
/// let v = serde_json::json!({"branch": "main", "total_duration_ms": 1500, "wall_clock_ms": 900, "shard": "s1",
///     "tests": [{"name": "a", "transcript": [], "detected_bugs": null}, {"name": "b", "prompt": "p", "transcript": []}]});
/// assert_eq!(dropped(&v, Direction::FromLegacy), [
///     "wall_clock_ms", "shard", "total_duration_ms (rounded to whole seconds)",
///     "tests[].transcript", "tests[].detected_bugs (falsy value)", "tests[].prompt",
/// ]);
/// ```
pub fn dropped(v: &Value, direction: Direction) -> Vec<String> {
    let s = spec(direction);
    let Some(m) = v.as_object() else { return Vec::new() };
    let mut out: Vec<String> = s.dropped_top.iter().filter(|k| m.contains_key(**k)).map(|k| (*k).to_string()).collect();
    let mapped = |k: &str| {
        s.head.iter().any(|(_, from)| *from == k)
            || [s.duration.1, s.list.1, "_partial"].contains(&k)
            || s.dropped_top.contains(&k)
    };
    out.extend(m.keys().filter(|k| !mapped(k)).cloned());
    if direction == Direction::FromLegacy
        && let Some(ms) = m.get(s.duration.1).and_then(Value::as_f64)
        && ms % 1000.0 != 0.0
    {
        out.push(format!("{} (rounded to whole seconds)", s.duration.1));
    }
    let mut per_test: Vec<String> = Vec::new();
    for t in m.get(s.list.1).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_object) {
        let known = s.dropped_test.iter().copied().filter(|k| t.contains_key(*k)).map(str::to_string);
        let copied = |k: &str| TEST_ALWAYS.contains(&k) || TEST_OPTIONAL.iter().any(|(o, _)| *o == k);
        let unknown = t.keys().filter(|k| !copied(k) && !s.dropped_test.contains(&k.as_str())).cloned();
        let falsy = TEST_OPTIONAL
            .iter()
            .filter(|(k, truthy)| *truthy && t.get(*k).is_some_and(|v| !JsValue::from_value(v).is_truthy()))
            .map(|(k, _)| format!("{k} (falsy value)"));
        for k in known.chain(unknown).chain(falsy) {
            if !per_test.contains(&k) {
                per_test.push(k);
            }
        }
    }
    out.extend(per_test.into_iter().map(|k| format!("{}[].{k}", s.list.1)));
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn throws(text: &str, direction: Direction) -> String {
        let doc = js::parse(text).unwrap();
        let r = match direction {
            Direction::ToLegacy => try_to_legacy(&doc),
            Direction::FromLegacy => try_from_legacy(&doc),
        };
        r.unwrap_err().to_string()
    }

    #[test]
    fn gstack_throws_where_javascript_would() {
        let to = Direction::ToLegacy;
        assert_eq!(
            throws("{}", to),
            "gstack's normalizeToLegacy throws on this input: TypeError: Cannot read properties of undefined (reading 'map')"
        );
        assert!(throws("{\"all_results\": null}", to).ends_with("Cannot read properties of null (reading 'map')"));
        assert!(throws("{\"all_results\": \"x\"}", to).ends_with("standard.all_results.map is not a function"));
        assert!(throws("{\"all_results\": [null]}", to).ends_with("Cannot read properties of null (reading 'name')"));
        assert!(throws("null", to).ends_with("Cannot read properties of null (reading 'schema_version')"));
        assert!(throws("{\"tests\": {}}", Direction::FromLegacy).ends_with("legacy.tests.map is not a function"));
    }

    #[test]
    fn primitive_entries_become_empty_objects() {
        let doc = js::parse("{\"all_results\": [1, \"s\", [true]]}").unwrap();
        let out = try_to_legacy(&doc).unwrap();
        assert_eq!(out.to_value(), json!({"total_duration_ms": null, "tests": [{}, {}, {}]}));
    }

    #[test]
    fn durations_coerce_like_javascript() {
        let d = |v: Value| from_legacy(&json!({"total_duration_ms": v, "tests": []}))["duration_seconds"].clone();
        assert_eq!(d(json!(1500)), json!(2));
        assert_eq!(d(json!(2500)), json!(3));
        assert_eq!(d(json!(-1500)), json!(-1));
        assert_eq!(d(json!("1499")), json!(1));
        assert_eq!(d(json!(null)), json!(0));
        assert_eq!(d(json!({})), Value::Null);
        let s = |v: Value| to_legacy(&json!({"duration_seconds": v, "all_results": []}))["total_duration_ms"].clone();
        assert_eq!(s(json!(893.4)), json!(893_400));
        assert_eq!(s(json!(0.1)), json!(100));
        assert_eq!(s(json!(1.005)), json!(1_004.999_999_999_999_9));
        assert_eq!(s(json!(true)), json!(1000));
    }

    #[test]
    fn undefined_versus_truthy() {
        let t = json!({"name": null, "turns_used": null, "exit_reason": "", "error": null, "detected_bugs": [],
            "missed_bugs": "", "judge_scores": 0, "judge_reasoning": false});
        let out = to_legacy(&json!({"all_results": [t]}));
        assert_eq!(
            out["tests"][0],
            json!({"name": null, "turns_used": null, "exit_reason": "", "detected_bugs": [], "judge_reasoning": false, "error": null})
        );
    }

    #[test]
    fn lenient_versions_never_fail() {
        for v in [json!(null), json!(3), json!([]), json!({"all_results": "x", "tests": [null]})] {
            assert!(to_legacy(&v).is_object());
            assert!(from_legacy(&v).is_object());
        }
        assert_eq!(from_legacy(&json!({"tests": [null]}))["all_results"], json!([{}]));
    }

    #[test]
    fn dropped_to_legacy_lists_the_lost_fields() {
        let v = json!({"git_branch": "m", "label": "l", "costs": [], "extra": 1, "duration_seconds": 1.5,
            "all_results": [{"name": "a", "output": {}, "category": "c", "judge_scores": {}}, {"name": "b", "output": {}}]});
        assert_eq!(
            dropped(&v, Direction::ToLegacy),
            ["label", "costs", "extra", "all_results[].output", "all_results[].category"]
        );
        assert!(dropped(&json!([1]), Direction::ToLegacy).is_empty());
    }
}
