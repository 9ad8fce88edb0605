//! Checks a report document and says what is wrong with it, and where.
//!
//! [`validate`] takes a parsed JSON document and its [`Format`] and returns [`Finding`]s. Each
//! finding is located by a JSON path (`$`, `$.instances[3].status`, `$.summary.resolve_rate`)
//! and says what was found and what was expected. Errors make a document invalid; warnings
//! point at something suspicious that the format allows.
//!
//! What is checked, per format:
//!
//! * **SF-Bench v2 report**: first the checks of SF-Bench's own `validate_schema`, in its order
//!   (the required keys, `schema_version == "2.0"` as a string, `instances` a list, every
//!   instance with `instance_id` and `status`), as errors. Then the types of every field the
//!   schema defines, status words, aliases that disagree, duplicate instance ids, the stored id
//!   lists against the instances, the stored summary against the one recomputed by upstream's
//!   rules, the `resolved` flag against `status` and against the component rule, and the
//!   points against their maxima.
//! * **SF-Bench summary object** (the documentation's example): internal consistency, enough to
//!   prove the documentation example impossible.
//! * **SWE-bench run report**: counts against list lengths, duplicate ids, ids in lists that
//!   exclude each other, and the harness invariants (as warnings, since they do not hold in
//!   general).
//! * **SF-Bench v1 shapes**: field types, and counts against the results (warnings).
//!
//! [`upstream_valid`] is SF-Bench's `validate_schema`, reproduced exactly, as a boolean.
//! [`read_doc_example`] reads a documentation example that contains `{...}` placeholders.
//!
//! ```
//! use evaltally_sfbench::detect::Format;
//! use evaltally_sfbench::validate::validate;
//! let doc = serde_json::json!({"schema_version": 2, "run_id": "r", "model_name_or_path": "m",
//!     "instances": [], "summary": {}});
//! let findings = validate(&doc, Format::SfbenchV2);
//! assert_eq!(findings[0].path, "$.model_name");
//! assert_eq!(findings[1].path, "$.schema_version");
//! assert!(findings[0].is_error() && findings[1].is_error());
//! assert!(findings[1].message.contains("SWE-bench run reports carry the integer 2"));
//! ```

mod bare_summary;
mod doc_example;
mod swebench;
mod upstream;
pub(crate) mod upstream_summary;
mod v1;
mod v2;

use std::fmt::Write as _;

use evaltally_core::Finding;
use serde_json::{Map, Value};

use crate::detect::Format;

pub use doc_example::{DocExampleError, read_doc_example};
pub use upstream::upstream_valid;

/// Checks `doc` as a document of `format` and returns every finding, errors and warnings, in
/// the order the checks ran.
///
/// Never panics, whatever the document holds.
///
/// ```
/// use evaltally_sfbench::detect::Format;
/// use evaltally_sfbench::validate::validate;
/// let run = serde_json::json!({"schema_version": 2, "total_instances": 1, "submitted_instances": 300,
///     "completed_instances": 1, "resolved_instances": 1, "resolved_ids": ["a"], "completed_ids": ["a"]});
/// let findings = validate(&run, Format::SwebenchRunReport);
/// let below = findings.iter().find(|f| f.path == "$.total_instances").unwrap();
/// assert!(!below.is_error());
/// assert!(below.message.contains("(1)") && below.message.contains("(300)"));
/// ```
pub fn validate(doc: &Value, format: Format) -> Vec<Finding> {
    let mut c = Checker::default();
    match format {
        Format::SfbenchV2 => v2::report(&mut c, doc),
        Format::SfbenchSummary => bare_summary::check(&mut c, doc, "$"),
        Format::SwebenchRunReport => swebench::run_report(&mut c, doc),
        Format::SwebenchInstanceReport => swebench::instance_report(&mut c, doc),
        Format::SfbenchV1 => v1::migrate_input(&mut c, doc),
        Format::SfbenchLegacyEvaluate => v1::legacy_evaluate(&mut c, doc),
        Format::SfbenchEngineSummary => v1::engine_summary(&mut c, doc),
    }
    c.findings
}

/// A part of an SF-Bench v2 report, as the documentation shows them one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// One element of `instances` (`InstanceResult`).
    Instance,
    /// An instance's `validation` object (`ValidationBreakdown`).
    Validation,
    /// The `config` / `evaluation_config` object.
    Config,
}

impl Part {
    /// A short name for messages: `instance`, `validation`, `config`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Instance => "instance",
            Self::Validation => "validation",
            Self::Config => "config",
        }
    }
}

/// Which [`Part`] a JSON object looks like, if any: an instance has `instance_id`, a
/// validation breakdown has `*_status` / `*_points` keys, a config has `tasks_file` or
/// `validation_mode`.
///
/// ```
/// use evaltally_sfbench::validate::{detect_part, Part};
/// let v = serde_json::json!({"deployment_status": "pass", "deployment_points": 10});
/// assert_eq!(detect_part(&v), Some(Part::Validation));
/// assert_eq!(detect_part(&serde_json::json!({"tasks_file": "t.json"})), Some(Part::Config));
/// assert_eq!(detect_part(&serde_json::json!([1])), None);
/// ```
pub fn detect_part(doc: &impl crate::detect::Keys) -> Option<Part> {
    if !doc.is_object() {
        return None;
    }
    if doc.has_key("instance_id") {
        return Some(Part::Instance);
    }
    if v2::VALIDATION_MARKERS.iter().any(|k| doc.has_key(k)) {
        return Some(Part::Validation);
    }
    if ["tasks_file", "validation_mode", "max_workers", "functional_validation", "scratch_org_alias"]
        .iter()
        .any(|k| doc.has_key(k))
    {
        return Some(Part::Config);
    }
    None
}

/// Checks one part of a v2 report on its own, with paths relative to it (`$.status`).
///
/// ```
/// use evaltally_sfbench::validate::{validate_part, Part};
/// let v = serde_json::json!({"functional_status": "PASS", "functional_points": 60});
/// let f = validate_part(&v, Part::Validation);
/// assert_eq!(f[0].path, "$.functional_status");
/// assert!(!f[0].is_error()); // upper case: a warning
/// assert_eq!(f[1].path, "$.functional_points");
/// assert!(f[1].is_error()); // above the maximum of 50
/// ```
pub fn validate_part(doc: &Value, part: Part) -> Vec<Finding> {
    let mut c = Checker::default();
    match part {
        Part::Instance => v2::instance(&mut c, doc, "$", None, true),
        Part::Validation => {
            v2::validation(&mut c, doc, "$");
        }
        Part::Config => v2::config(&mut c, doc, "$", true),
    }
    c.findings
}

/// Whether any finding is an error (the document is invalid).
///
/// ```
/// use evaltally_core::Finding;
/// use evaltally_sfbench::validate::has_errors;
/// assert!(!has_errors(&[Finding::warning("$", "odd")]));
/// assert!(has_errors(&[Finding::warning("$", "odd"), Finding::error("$.x", "bad")]));
/// ```
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(Finding::is_error)
}

/// Collects findings.
#[derive(Debug, Default)]
pub(crate) struct Checker {
    pub(crate) findings: Vec<Finding>,
}

impl Checker {
    pub(crate) fn error(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.findings.push(Finding::error(path, message));
    }

    pub(crate) fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.findings.push(Finding::warning(path, message));
    }
}

/// `base.key`, or `base["key"]` when the key is not an identifier.
pub(crate) fn key_path(base: &str, key: &str) -> String {
    let ident = key.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident { format!("{base}.{key}") } else { format!("{base}[{}]", quote(key)) }
}

/// `base[i]`.
pub(crate) fn index_path(base: &str, i: usize) -> String {
    format!("{base}[{i}]")
}

/// A string as a JSON string literal, cut to a readable length.
pub(crate) fn quote(s: &str) -> String {
    const MAX: usize = 160;
    if s.chars().count() > MAX {
        let cut: String = s.chars().take(MAX).collect();
        format!("{}…", Value::String(cut))
    } else {
        Value::String(s.to_string()).to_string()
    }
}

/// The kind of a JSON value, with its article: `a string`, `an integer`, `null`.
pub(crate) fn kind(v: &Value) -> &'static str {
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
pub(crate) fn found(v: &Value) -> String {
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

/// A computed number for a message, at full precision (`0.3333333333333333`, `100`).
pub(crate) fn exact(x: f64) -> String {
    format!("{x}")
}

/// A computed number for a message, rounded to 4 decimal places (`33.3333`, `1`).
pub(crate) fn approx(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_string() } else { s.to_string() }
}

/// The number of decimal places in the shortest form of `x` (`0.4167` → 4, `12` → 0).
pub(crate) fn decimals(x: f64) -> u32 {
    if !x.is_finite() {
        return 0;
    }
    let s = format!("{x}");
    s.split_once('.').map_or(0, |(_, frac)| u32::try_from(frac.len()).unwrap_or(u32::MAX))
}

/// Half a unit in the last decimal place `x` was written with: how far the true value may lie
/// from a rounded one (`0.4167` → 0.00005). Zero for values with more than 6 places, which are
/// taken as unrounded.
pub(crate) fn half_unit(x: f64) -> f64 {
    match decimals(x) {
        d @ 0..=6 => 0.5 * 10f64.powi(-i32::try_from(d).unwrap_or(0)),
        _ => 0.0,
    }
}

/// How a stored number compares with the value it should hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    /// Equal up to floating-point noise.
    Equal,
    /// Equal after rounding the expected value to the stored number of decimal places.
    Rounded(u32),
    /// Different.
    Differ,
}

/// Compares a stored number with the value it should hold.
pub(crate) fn compare(stored: f64, expected: f64) -> Cmp {
    let eps = 1e-9 * expected.abs().max(1.0);
    let diff = (stored - expected).abs();
    if diff <= eps {
        return Cmp::Equal;
    }
    let d = decimals(stored);
    if (1..=6).contains(&d) && diff <= half_unit(stored) + eps { Cmp::Rounded(d) } else { Cmp::Differ }
}

/// Whether two counts differ (they are whole numbers held as `f64`).
pub(crate) fn differ(a: f64, b: f64) -> bool {
    (a - b).abs() > 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Whether `stored` is `expected`, exactly or as rounded.
pub(crate) fn same(stored: f64, expected: f64) -> bool {
    compare(stored, expected) != Cmp::Differ
}

/// A list of names for a message: `a, b and c`.
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
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
pub(crate) enum Want {
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
pub(crate) fn check_type(c: &mut Checker, path: &str, v: &Value, want: Want) -> bool {
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
pub(crate) fn field<'a>(
    c: &mut Checker,
    m: &'a Map<String, Value>,
    base: &str,
    key: &str,
    want: Want,
) -> Option<&'a Value> {
    let v = m.get(key)?;
    check_type(c, &key_path(base, key), v, want).then_some(v)
}

/// Reports the keys of `m` that are not in `known`, as one warning each.
pub(crate) fn unknown_keys(c: &mut Checker, m: &Map<String, Value>, base: &str, known: &[&str], what: &str) {
    for k in m.keys() {
        if !known.contains(&k.as_str()) {
            c.warn(key_path(base, k), format!("unknown key: not a field of {what}"));
        }
    }
}

/// Whether `s` is an ISO 8601 date-time as Python's `isoformat()` writes it, or close:
/// `YYYY-MM-DD`, optionally `THH:MM[:SS[.ffffff]]` (or a space for `T`), optionally `Z` or
/// `±HH:MM`.
pub(crate) fn is_iso_timestamp(s: &str) -> bool {
    fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
        let part = b.get(at..at + n)?;
        part.iter().try_fold(0u32, |acc, &d| d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0')))
    }
    let b = s.as_bytes();
    let (Some(_), Some(month), Some(day)) = (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2)) else {
        return false;
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return false;
    }
    let mut i = 10;
    if i == b.len() {
        return true;
    }
    if !matches!(b[i], b'T' | b't' | b' ') {
        return false;
    }
    i += 1;
    let (Some(h), Some(mi)) = (digits(b, i, 2), digits(b, i + 3, 2)) else { return false };
    if b.get(i + 2) != Some(&b':') || h > 23 || mi > 59 {
        return false;
    }
    i += 5;
    if b.get(i) == Some(&b':') {
        let Some(sec) = digits(b, i + 1, 2) else { return false };
        if sec > 60 {
            return false;
        }
        i += 3;
        if b.get(i) == Some(&b'.') {
            let start = i + 1;
            i = start;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
    }
    match b.get(i) {
        None => true,
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let tz = &b[i + 1..];
            (tz.len() == 5 && tz[2] == b':' && digits(tz, 0, 2).is_some() && digits(tz, 3, 2).is_some())
                || (tz.len() == 4 && digits(tz, 0, 4).is_some())
                || (tz.len() == 2 && digits(tz, 0, 2).is_some())
        }
        Some(_) => false,
    }
}

/// Warns at `path` when the string is not an ISO 8601 timestamp.
pub(crate) fn check_timestamp(c: &mut Checker, path: &str, s: &str) {
    if !is_iso_timestamp(s) {
        c.warn(path, format!("expected an ISO 8601 timestamp (as Python's isoformat() writes it), found {}", quote(s)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        for ok in [
            "2026-01-01T00:00:00",
            "2025-12-29T14:30:00Z",
            "2026-01-05T14:30:00.123456",
            "2026-01-05 14:30",
            "2026-01-05",
            "2026-01-05T14:30:00+01:00",
        ] {
            assert!(is_iso_timestamp(ok), "{ok}");
        }
        for bad in
            ["<nondeterministic utcnow>", "", "2026-13-01", "2026-01-01T25:00", "2026-01-01T10:00:00.", "20260101"]
        {
            assert!(!is_iso_timestamp(bad), "{bad}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(decimals(0.4167), 4);
        assert_eq!(decimals(12.0), 0);
        assert_eq!(compare(0.4167, 5.0 / 12.0), Cmp::Rounded(4));
        assert_eq!(compare(1.0 / 3.0 + 1e-17, 1.0 / 3.0), Cmp::Equal);
        assert_eq!(compare(41.67, 5.0 / 12.0), Cmp::Differ);
        assert_eq!(approx(100.0 * 5.0 / 12.0), "41.6667");
        assert_eq!(approx(1.0), "1");
        assert_eq!(key_path("$", "a b"), "$[\"a b\"]");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
    }
}
