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
//! * **SF-Bench v1 shapes**: field types, and counts against the results (warnings).
//!
//! [`upstream_valid`] is SF-Bench's `validate_schema`, reproduced exactly, as a boolean.
//! A documentation example that contains `{...}` placeholders is read with
//! [`read_doc_example`](evaltally_format::check::read_doc_example), then checked here.
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
mod upstream;
mod v1;
mod v2;

use evaltally_core::Finding;
use evaltally_format::Keys;
use evaltally_format::check::{Checker, quote};
use serde_json::Value;

use crate::detect::Format;

pub use upstream::upstream_valid;

/// Checks `doc` as a document of `format` and returns every finding, errors and warnings, in
/// the order the checks ran.
///
/// Never panics, whatever the document holds.
///
/// ```
/// use evaltally_sfbench::detect::Format;
/// use evaltally_sfbench::validate::validate;
/// let summary = serde_json::json!({"total_instances": 2, "resolved_instances": 3, "resolve_rate": 1.5});
/// let findings = validate(&summary, Format::SfbenchSummary);
/// assert!(findings.iter().any(|f| f.path == "$.resolved_instances" && f.is_error()));
/// ```
pub fn validate(doc: &Value, format: Format) -> Vec<Finding> {
    let mut c = Checker::default();
    match format {
        Format::SfbenchV2 => v2::report(&mut c, doc),
        Format::SfbenchSummary => bare_summary::check(&mut c, doc, "$"),
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
pub fn detect_part(doc: &impl Keys) -> Option<Part> {
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
        Part::Instance => {
            v2::instance(&mut c, doc, "$", None, true);
            v2::unknown_instance_keys(&mut c, doc, v2::ALONE_LEVELS);
        }
        Part::Validation => {
            v2::validation(&mut c, doc, "$");
            v2::unknown_instance_keys(&mut c, doc, v2::VALIDATION_ALONE);
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

/// Whether `stored` is `expected`, exactly or as rounded.
pub(crate) fn same(stored: f64, expected: f64) -> bool {
    compare(stored, expected) != Cmp::Differ
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
    }
}
