//! Validation: gstack's own `validateEvalResult`, reproduced exactly, and a strict mode
//! that adds the checks gstack lacks.
//!
//! [`validate`] gives the same messages in the same order as gstack (`lib/eval-format.ts`
//! on the `team-supabase-store` branch), each as an error [`Finding`] located by a JSON
//! path. A legacy `EvalResult` fails it just as it fails gstack's validator (no
//! `git_branch`, `total`, `duration_seconds`, `all_results`).
//!
//! [`validate_text`] (and [`validate_js`]) run the same rules on a document parsed as
//! `JSON.parse` parses it, for the rare texts `serde_json` refuses (`1e400`, lone
//! surrogates). [`validate_strict`] returns the same findings followed by its own: see its
//! docs. [`validate_file`] checks either shape as gstack keeps it: a legacy file in the
//! standard form gstack's readers make of it.

mod strict;
mod timestamp;

use evaltally_core::Finding;
use serde_json::Value;

use crate::js::{self, JsValue, ParseError};

pub use strict::validate_strict;
pub use timestamp::is_iso8601;

/// gstack's `REQUIRED_FIELDS`, in its order, with the `typeof` each must have.
pub const REQUIRED_FIELDS: [(&str, &str); 12] = [
    ("schema_version", "number"),
    ("version", "string"),
    ("git_branch", "string"),
    ("git_sha", "string"),
    ("timestamp", "string"),
    ("tier", "string"),
    ("total", "number"),
    ("passed", "number"),
    ("failed", "number"),
    ("total_cost_usd", "number"),
    ("duration_seconds", "number"),
    ("all_results", "object"),
];

/// JavaScript's `typeof` for a JSON value: `null` and arrays are `"object"`.
pub fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null | Value::Array(_) | Value::Object(_) => "object",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
    }
}

/// A JSON document as gstack's validator looks at it.
trait Doc: Sized {
    /// JavaScript's `typeof`.
    fn type_of(&self) -> &'static str;
    /// Whether this is `null`.
    fn is_null(&self) -> bool;
    /// An own property of an object (`None` for anything else).
    fn field(&self, key: &str) -> Option<&Self>;
    /// The elements of an array.
    fn items(&self) -> Option<&[Self]>;
}

impl Doc for Value {
    fn type_of(&self) -> &'static str {
        type_of(self)
    }
    fn is_null(&self) -> bool {
        self.is_null()
    }
    fn field(&self, key: &str) -> Option<&Self> {
        self.as_object()?.get(key)
    }
    fn items(&self) -> Option<&[Self]> {
        self.as_array().map(Vec::as_slice)
    }
}

impl Doc for JsValue {
    fn type_of(&self) -> &'static str {
        JsValue::type_of(self)
    }
    fn is_null(&self) -> bool {
        matches!(self, JsValue::Null)
    }
    fn field(&self, key: &str) -> Option<&Self> {
        self.get(key)
    }
    fn items(&self) -> Option<&[Self]> {
        match self {
            JsValue::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// gstack's `validateEvalResult`, rule for rule:
///
/// 1. Not an object (or `null`): only `Input must be a non-null object`. An array is an
///    object to JavaScript: it goes on and lacks every field.
/// 2. For each of [`REQUIRED_FIELDS`] in order: `Missing required field: F`, or
///    `Field "F" must be T, got U` when `typeof` differs.
/// 3. `all_results` present but not an array: `Field "all_results" must be an array` (so
///    `"x"` gives two errors, `null` and `{}` one).
/// 4. Each entry of an `all_results` array: `all_results[i] must be an object` (and nothing
///    more for it), else `all_results[i].name must be a string` and
///    `all_results[i].passed must be a boolean` as they apply.
///
/// ```
/// let v = serde_json::json!({"schema_version": "1", "all_results": "x"});
/// let msgs: Vec<String> = evaltally_gstack::validate(&v).into_iter().map(|f| f.message).collect();
/// assert_eq!(msgs[0], r#"Field "schema_version" must be number, got string"#);
/// assert_eq!(msgs[1], "Missing required field: version");
/// assert_eq!(msgs[11], r#"Field "all_results" must be object, got string"#);
/// assert_eq!(msgs[12], r#"Field "all_results" must be an array"#);
/// assert_eq!(msgs.len(), 13);
/// ```
pub fn validate(v: &Value) -> Vec<Finding> {
    check(v)
}

/// [`validate`] on a document parsed with JavaScript's rules ([`js::parse`]), for the few
/// texts `serde_json` reads differently: `1e400` (a number, `Infinity`, to `JSON.parse`)
/// and lone UTF-16 surrogates in `\u` escapes.
pub fn validate_js(doc: &JsValue) -> Vec<Finding> {
    check(doc)
}

/// `validateEvalResult(JSON.parse(text))`; an error when the text is not JSON.
///
/// ```
/// let f = evaltally_gstack::validate::validate_text(r#"{"schema_version": 1e400}"#).unwrap();
/// assert_eq!(f[0].message, "Missing required field: version");
/// ```
pub fn validate_text(text: &str) -> Result<Vec<Finding>, ParseError> {
    Ok(check(&js::parse(text)?))
}

fn check<D: Doc>(v: &D) -> Vec<Finding> {
    if v.type_of() != "object" || v.is_null() {
        return vec![Finding::error("$", "Input must be a non-null object")];
    }
    let mut out = Vec::new();
    for (field, expected) in REQUIRED_FIELDS {
        match v.field(field) {
            None => out.push(Finding::error(format!("$.{field}"), format!("Missing required field: {field}"))),
            Some(value) if value.type_of() != expected => out.push(Finding::error(
                format!("$.{field}"),
                format!("Field \"{field}\" must be {expected}, got {}", value.type_of()),
            )),
            Some(_) => {}
        }
    }
    let results = v.field("all_results");
    if results.is_some_and(|r| r.items().is_none()) {
        out.push(Finding::error("$.all_results", "Field \"all_results\" must be an array"));
    }
    for (i, entry) in results.and_then(Doc::items).into_iter().flatten().enumerate() {
        // `typeof entry !== 'object' || entry === null`: arrays pass as objects.
        if entry.type_of() != "object" || entry.is_null() {
            out.push(Finding::error(format!("$.all_results[{i}]"), format!("all_results[{i}] must be an object")));
            continue;
        }
        if entry.field("name").is_none_or(|n| n.type_of() != "string") {
            out.push(Finding::error(
                format!("$.all_results[{i}].name"),
                format!("all_results[{i}].name must be a string"),
            ));
        }
        if entry.field("passed").is_none_or(|p| p.type_of() != "boolean") {
            out.push(Finding::error(
                format!("$.all_results[{i}].passed"),
                format!("all_results[{i}].passed must be a boolean"),
            ));
        }
    }
    out
}

/// Whether gstack would accept the document (`validateEvalResult(...).valid`).
pub fn is_valid(v: &Value) -> bool {
    validate(v).is_empty()
}

/// Standard keys and the legacy keys `normalizeFromLegacy` makes them from.
const LEGACY_KEYS: [(&str, &str); 4] = [
    ("git_branch", "branch"),
    ("total", "total_tests"),
    ("duration_seconds", "total_duration_ms"),
    ("all_results", "tests"),
];

/// A result file as gstack keeps it: a standard result is checked with [`validate`] (with
/// `strict`, [`validate_strict`]); a legacy `EvalResult`, the shape gstack's collector and
/// `gstack eval push` save, is checked in the standard form gstack's own readers make of it
/// ([`crate::normalize::from_legacy`]), with paths and field names given as the file spells
/// them.
///
/// ```
/// let legacy = serde_json::json!({"schema_version": 1, "version": "0.4.1", "branch": "main", "git_sha": "abc",
///     "timestamp": "2026-03-15T10:30:00Z", "tier": "e2e", "total_tests": 1, "passed": 1, "failed": 0,
///     "total_cost_usd": 0.1, "total_duration_ms": 1500, "tests": [{"name": "a", "passed": "yes"}]});
/// let found: Vec<String> = evaltally_gstack::validate::validate_file(&legacy, false).iter().map(ToString::to_string).collect();
/// assert_eq!(found, ["$.tests[0].passed: error: tests[0].passed must be a boolean"]);
/// ```
pub fn validate_file(v: &Value, strict: bool) -> Vec<Finding> {
    let check = if strict { validate_strict } else { validate };
    if crate::detect(v) != Some(crate::Shape::Legacy) {
        return check(v);
    }
    let standard = crate::normalize::from_legacy(v);
    let rename = |s: &str| {
        LEGACY_KEYS.iter().fold(s.to_string(), |s, (new, old)| {
            s.replace(&format!("$.{new}"), &format!("$.{old}"))
                .replace(&format!("field: {new}"), &format!("field: {old}"))
                .replace(&format!("\"{new}\""), &format!("\"{old}\""))
                .replace(&format!("{new}["), &format!("{old}["))
        })
    };
    check(&standard)
        .into_iter()
        .map(|mut f| {
            f.path = rename(&f.path);
            f.message = rename(&f.message);
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn messages(v: &Value) -> Vec<String> {
        validate(v).into_iter().map(|f| f.message).collect()
    }

    fn valid() -> Value {
        json!({"schema_version": 1, "version": "0.3.3", "git_branch": "main", "git_sha": "abc", "timestamp": "t",
            "tier": "e2e", "total": 1, "passed": 1, "failed": 0, "total_cost_usd": 0.5, "duration_seconds": 30,
            "all_results": [{"name": "a", "passed": true}]})
    }

    #[test]
    fn primitives_give_one_error() {
        for v in [json!(null), json!(1), json!("x"), json!(true)] {
            assert_eq!(messages(&v), ["Input must be a non-null object"]);
            assert_eq!(validate(&v)[0].path, "$");
        }
    }

    #[test]
    fn an_array_lacks_every_field() {
        let m = messages(&json!([1, 2]));
        assert_eq!(m.len(), 12);
        assert!(m.iter().all(|m| m.starts_with("Missing required field: ")));
        assert_eq!(m[11], "Missing required field: all_results");
    }

    #[test]
    fn all_results_null_or_object_gives_only_the_array_error() {
        for bad in [json!(null), json!({})] {
            let mut v = valid();
            v["all_results"] = bad;
            assert_eq!(messages(&v), ["Field \"all_results\" must be an array"]);
        }
    }

    #[test]
    fn all_results_string_gives_two_errors() {
        let mut v = valid();
        v["all_results"] = json!("x");
        assert_eq!(
            messages(&v),
            ["Field \"all_results\" must be object, got string", "Field \"all_results\" must be an array"]
        );
    }

    #[test]
    fn entries_are_checked_in_order() {
        let mut v = valid();
        v["all_results"] = json!([null, 3, [], {"name": 1, "passed": "yes"}, {"name": "ok", "passed": false}]);
        let f = validate(&v);
        let got: Vec<(&str, &str)> = f.iter().map(|f| (f.path.as_str(), f.message.as_str())).collect();
        assert_eq!(
            got,
            [
                ("$.all_results[0]", "all_results[0] must be an object"),
                ("$.all_results[1]", "all_results[1] must be an object"),
                ("$.all_results[2].name", "all_results[2].name must be a string"),
                ("$.all_results[2].passed", "all_results[2].passed must be a boolean"),
                ("$.all_results[3].name", "all_results[3].name must be a string"),
                ("$.all_results[3].passed", "all_results[3].passed must be a boolean"),
            ]
        );
        assert!(f.iter().all(Finding::is_error));
    }

    #[test]
    fn types_are_javascript_typeof() {
        let mut v = valid();
        v["total"] = json!(null);
        v["version"] = json!(3);
        v["tier"] = json!(["e2e"]);
        v["passed"] = json!(true);
        assert_eq!(
            messages(&v),
            [
                "Field \"version\" must be string, got number",
                "Field \"tier\" must be string, got object",
                "Field \"total\" must be number, got object",
                "Field \"passed\" must be number, got boolean",
            ]
        );
    }

    #[test]
    fn what_gstack_does_not_check_passes() {
        let mut v = valid();
        v["schema_version"] = json!(2);
        v["passed"] = json!(7);
        v["timestamp"] = json!("yesterday");
        v["costs"] = json!("none");
        v["all_results"] = json!([{"name": "a", "passed": true}, {"name": "a", "passed": true, "duration_ms": "x"}]);
        assert!(is_valid(&v));
        assert!(is_valid(&valid()));
    }
}
