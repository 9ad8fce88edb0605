//! Helpers for validators of JSON documents: findings located by JSON path.
//!
//! A validator walks a parsed document with a [`Checker`], which collects
//! [`Finding`]s located by a JSON path (`$`, `$.instances[3].status`,
//! `$["odd key"]`, built with [`key_path`] and [`index_path`]). The messages say what was
//! found ([`found`]: `"garbage" (a string)`, `a list of 3 items`) and what was expected
//! ([`Want`], checked by [`check_type`] and [`field`]); [`unknown_keys`] warns about keys a
//! format does not define in one object, [`KeyCheck`] once per key over many objects of a
//! kind ([`Level`]). [`read_doc_example`] reads a documentation example whose
//! `{...}` / `[...]` placeholders make it not JSON as written.
//!
//! ```
//! use evaltally_format::check::{Checker, Want, field, unknown_keys};
//!
//! let doc = serde_json::json!({"total": -1, "ids": ["a", 2], "extra": null});
//! let m = doc.as_object().unwrap();
//! let mut c = Checker::default();
//! field(&mut c, m, "$", "total", Want::Count);
//! field(&mut c, m, "$", "ids", Want::StrList);
//! unknown_keys(&mut c, m, "$", &["total", "ids"], "a tally");
//! let shown: Vec<String> = c.findings.iter().map(ToString::to_string).collect();
//! assert_eq!(shown, [
//!     "$.total: error: expected a whole number (not negative), found the negative number -1",
//!     "$.ids[1]: error: expected a string (an id), found 2 (an integer)",
//!     "$.extra: warning: unknown key: not a field of a tally",
//! ]);
//! ```

mod doc_example;
mod keys;

use std::fmt::Write as _;

use evaltally_core::Finding;
use serde_json::{Map, Value};

pub use doc_example::{DocExampleError, doc_example, parse_for_validation, read_doc_example};
pub use keys::{KeyCheck, Level, unknown_key_findings, unknown_keys_in, unknown_line_key_findings};

/// Collects findings, in the order the checks ran.
#[derive(Debug, Default)]
pub struct Checker {
    /// The findings so far.
    pub findings: Vec<Finding>,
}

impl Checker {
    /// Adds an error at `path`.
    pub fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.findings.push(Finding::error(path, message));
    }

    /// Adds a warning at `path`.
    pub fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.findings.push(Finding::warning(path, message));
    }
}

/// `base.key`, or `base["key"]` when the key is not an identifier.
///
/// ```
/// use evaltally_format::check::key_path;
/// assert_eq!(key_path("$", "summary"), "$.summary");
/// assert_eq!(key_path("$", "a b"), "$[\"a b\"]");
/// ```
pub fn key_path(base: &str, key: &str) -> String {
    let ident = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident { format!("{base}.{key}") } else { format!("{base}[{}]", quote(key)) }
}

/// `base[i]`.
pub fn index_path(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

/// A string as a JSON string literal, cut to a readable length.
pub fn quote(s: &str) -> String {
    const MAX: usize = 160;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{}…", Value::String(cut))
    } else {
        Value::String(s.to_string()).to_string()
    }
}

/// The kind of a JSON value, with its article: `a string`, `an integer`, `null`.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value as a message shows what was found: `"garbage" (a string)`, `2 (an integer)`,
/// `a list of 3 items`, `null`.
pub fn found(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::String(s) => format!("{} (a string)", quote(s)),
        Value::Array(a) => match a.len() {
            0 => "an empty list".to_string(),
            1 => "a list of 1 item".to_string(),
            n => format!("a list of {n} items"),
        },
        Value::Object(m) => match m.len() {
            0 => "an empty object".to_string(),
            1 => "an object with 1 key".to_string(),
            n => format!("an object with {n} keys"),
        },
        Value::Bool(_) | Value::Number(_) => format!("{v} ({})", kind(v)),
    }
}

/// Whether two counts differ (they are whole numbers held as `f64`).
pub fn differ(a: f64, b: f64) -> bool {
    (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// A list of names for a message: `a, b and c`.
///
/// ```
/// use evaltally_format::check::and_list;
/// assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
/// ```
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    let mut out = String::new();
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == items.len() { " and " } else { ", " });
        }
        let _ = write!(out, "{}", s.as_ref());
    }
    out
}

/// What type a field should have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// A string.
    Str,
    /// A string or null.
    StrOrNull,
    /// A number, not negative.
    NonNegative,
    /// A whole number, not negative.
    Count,
    /// A boolean.
    Bool,
    /// An object.
    Object,
    /// A list.
    List,
    /// A list of strings.
    StrList,
}

impl Want {
    fn describe(self) -> &'static str {
        match self {
            Self::Str => "a string",
            Self::StrOrNull => "a string or null",
            Self::NonNegative => "a number (not negative)",
            Self::Count => "a whole number (not negative)",
            Self::Bool => "a boolean (true or false)",
            Self::Object => "an object",
            Self::List => "a list",
            Self::StrList => "a list of strings",
        }
    }
}

/// Checks that `v` has the wanted type and, for numbers, sign; reports an error at `path`
/// otherwise. Returns whether it passed.
pub fn check_type(c: &mut Checker, path: &str, v: &Value, want: Want) -> bool {
    let ok = match want {
        Want::Str => v.is_string(),
        Want::StrOrNull => v.is_string() || v.is_null(),
        Want::NonNegative | Want::Count => v.is_number(),
        Want::Bool => v.is_boolean(),
        Want::Object => v.is_object(),
        Want::List | Want::StrList => v.is_array(),
    };
    if !ok {
        c.error(path, format!("expected {}, found {}", want.describe(), found(v)));
        return false;
    }
    match want {
        Want::NonNegative | Want::Count => {
            let x = v.as_f64().unwrap_or(0.0);
            if x < 0.0 {
                c.error(path, format!("expected {}, found the negative number {v}", want.describe()));
                return false;
            }
            if want == Want::Count && x.fract() != 0.0 {
                c.error(path, format!("expected a whole number, found {v}"));
                return false;
            }
            true
        }
        Want::StrList => {
            let mut all = true;
            for (i, e) in v.as_array().into_iter().flatten().enumerate() {
                if !e.is_string() {
                    c.error(index_path(path, i), format!("expected a string (an id), found {}", found(e)));
                    all = false;
                }
            }
            all
        }
        _ => true,
    }
}

/// Checks `m[key]` when present (absent keys are not reported here). Returns the value when it
/// has the wanted type.
pub fn field<'a>(c: &mut Checker, m: &'a Map<String, Value>, base: &str, key: &str, want: Want) -> Option<&'a Value> {
    let v = m.get(key)?;
    check_type(c, &key_path(base, key), v, want).then_some(v)
}

/// Reports the keys of `m` that are not in `known`, as one warning each.
pub fn unknown_keys(c: &mut Checker, m: &Map<String, Value>, base: &str, known: &[&str], what: &str) {
    for k in m.keys() {
        if !known.contains(&k.as_str()) {
            c.warn(key_path(base, k), format!("unknown key: not a field of {what}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_lists() {
        assert_eq!(key_path("$", "a b"), "$[\"a b\"]");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}
