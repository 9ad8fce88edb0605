//! SF-Bench's own `validate_schema` (schema.py:431-457), as a boolean and as findings.

use serde_json::Value;

use evaltally_format::check::{Checker, found, index_path, key_path, quote};

/// The keys `validate_schema` requires, in its order.
pub(crate) const REQUIRED: [&str; 5] = ["schema_version", "run_id", "model_name", "instances", "summary"];

/// Python's `key in container` on a JSON value: `None` where Python raises `TypeError`
/// (numbers, booleans, null).
fn py_contains(container: &Value, key: &str) -> Option<bool> {
    match container {
        Value::Object(m) => Some(m.contains_key(key)),
        Value::Array(a) => Some(a.iter().any(|e| e.as_str() == Some(key))),
        Value::String(s) => Some(s.contains(key)),
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}

/// SF-Bench's `validate_schema(data)`, reproduced exactly: `true` when upstream returns
/// `True`; `false` when it returns `False` or raises.
///
/// Upstream checks only that the keys `schema_version`, `run_id`, `model_name`, `instances`
/// and `summary` exist, that `schema_version == "2.0"` (the string), that `instances` is a
/// list, and that `"instance_id" in instance and "status" in instance` for every instance.
/// It checks no types beyond that: `summary: "garbage"` passes. Python's `in` is kept as it
/// is, so an instance that is a *string* containing both words passes, a list passes when it
/// contains both strings, and a number or null makes upstream raise `TypeError` (→ `false`).
///
/// ```
/// use evaltally_sfbench::validate::upstream_valid;
/// let ok = serde_json::json!({"schema_version": "2.0", "run_id": "r", "model_name": "m",
///     "instances": [{"instance_id": "a", "status": "fail"}], "summary": "garbage"});
/// assert!(upstream_valid(&ok));
/// let mut alias_only = ok.clone();
/// let m = alias_only.as_object_mut().unwrap();
/// m.remove("model_name");
/// m.insert("model_name_or_path".into(), "m".into());
/// assert!(!upstream_valid(&alias_only));
/// ```
pub fn upstream_valid(doc: &Value) -> bool {
    // `field not in data` works on lists and strings too, but `data["schema_version"]` then
    // raises TypeError; on numbers and null `in` itself raises. Only a dict can pass.
    let Value::Object(m) = doc else { return false };
    if REQUIRED.iter().any(|k| !m.contains_key(*k)) {
        return false;
    }
    if m.get("schema_version") != Some(&Value::String("2.0".to_string())) {
        return false;
    }
    let Some(instances) = m.get("instances").and_then(Value::as_array) else { return false };
    instances.iter().all(|inst| {
        // `"instance_id" not in instance or "status" not in instance`: a TypeError on the
        // first test stops everything; the second test runs only when the first passed.
        py_contains(inst, "instance_id") == Some(true) && py_contains(inst, "status") == Some(true)
    })
}

/// The same checks as findings (errors), in upstream's order; unlike upstream, every failure
/// is reported, not only the first.
pub(super) fn findings(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a JSON object (an SF-Bench v2 report), found {}", found(doc)));
        return;
    };
    for key in REQUIRED {
        if m.contains_key(key) {
            continue;
        }
        let path = key_path("$", key);
        match (key, m.get("model_name_or_path")) {
            ("model_name", Some(alias)) => c.error(
                path,
                format!(
                    "missing: only its alias \"model_name_or_path\" is present ({}); SF-Bench's validate_schema \
                     requires \"model_name\" itself, so upstream rejects this report",
                    alias.as_str().map_or_else(|| found(alias), quote)
                ),
            ),
            _ => c.error(
                path,
                "missing required key (SF-Bench's validate_schema requires schema_version, run_id, model_name, \
                 instances and summary)",
            ),
        }
    }
    if let Some(v) = m.get("schema_version")
        && v.as_str() != Some("2.0")
    {
        let hint = if v.as_u64() == Some(2) || v.as_f64() == Some(2.0) {
            "; SWE-bench run reports carry the integer 2, SF-Bench v2 reports the string \"2.0\""
        } else {
            ""
        };
        c.error("$.schema_version", format!("expected the string \"2.0\", found {}{hint}", found(v)));
    }
    if let Some(v) = m.get("instances") {
        let Some(list) = v.as_array() else {
            c.error("$.instances", format!("expected a list of instances, found {}", found(v)));
            return;
        };
        for (i, inst) in list.iter().enumerate() {
            let base = index_path("$.instances", i);
            let Some(im) = inst.as_object() else {
                c.error(base, format!("expected an instance object, found {}", found(inst)));
                continue;
            };
            for key in ["instance_id", "status"] {
                if !im.contains_key(key) {
                    c.error(
                        key_path(&base, key),
                        "missing; SF-Bench's validate_schema requires \"instance_id\" and \"status\" in every instance",
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_in_semantics() {
        let base = |inst: Value| json!({"schema_version": "2.0", "run_id": "r", "model_name": "m", "instances": [inst], "summary": {}});
        assert!(upstream_valid(&base(json!("instance_id and status"))));
        assert!(upstream_valid(&base(json!(["status", "instance_id"]))));
        assert!(!upstream_valid(&base(json!(["status"]))));
        assert!(!upstream_valid(&base(json!(3))));
        assert!(!upstream_valid(&base(Value::Null)));
        assert!(!upstream_valid(&json!(["schema_version", "run_id", "model_name", "instances", "summary"])));
        assert!(!upstream_valid(&json!("schema_version run_id model_name instances summary")));
        let mut v = base(json!({"instance_id": 1, "status": null}));
        assert!(upstream_valid(&v));
        v["schema_version"] = json!(2.0);
        assert!(!upstream_valid(&v));
    }
}
