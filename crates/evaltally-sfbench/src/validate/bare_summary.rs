//! A bare SF-Bench summary object (the documentation's "Summary Object"): no instances to
//! recompute from, so its fields are checked against each other and against what upstream's
//! code can produce.

use std::collections::HashMap;

use evaltally_format::check::{Checker, Want, and_list, check_type, differ, found, key_path};
use serde_json::Value;

use super::{approx, half_unit};
use crate::summary::upstream::FIELDS;

/// The fraction-valued rates and the component (if any) each one counts.
const FRACTIONS: [&str; 6] = [
    "resolve_rate",
    "deployment_pass_rate",
    "unit_test_pass_rate",
    "functional_pass_rate",
    "bulk_pass_rate",
    "no_tweaks_pass_rate",
];

/// Points an instance has at least when it is resolved: deployment, unit tests and functional
/// validation all pass.
const RESOLVED_MIN_POINTS: f64 = 80.0;

/// `|a - b|` within the rounding of both.
fn close(a: f64, a_tol: f64, b: f64, b_tol: f64) -> bool {
    (a - b).abs() <= a_tol + b_tol + 1e-9 * b.abs().max(1.0)
}

/// Checks a summary object at `base`.
pub(super) fn check(c: &mut Checker, v: &Value, base: &str) {
    let Some(m) = v.as_object() else {
        c.error(base, format!("expected an SF-Bench summary object, found {}", found(v)));
        return;
    };
    let p = |k: &str| key_path(base, k);
    // A stored value as written (present wherever it is used below).
    let sv = |k: &str| m.get(k).map_or_else(String::new, Value::to_string);
    // Values that passed their type check.
    let mut n: HashMap<&str, f64> = HashMap::new();
    for (key, int) in FIELDS {
        let want = if int && !key.ends_with("_score") { Want::Count } else { Want::NonNegative };
        if let Some(x) = m.get(key)
            && check_type(c, &p(key), x, want)
        {
            n.insert(key, x.as_f64().unwrap_or(0.0));
        }
    }
    for k in m.keys() {
        if !FIELDS.iter().any(|(f, _)| f == k) {
            c.warn(p(k), "unknown key: not a field of SF-Bench's EvaluationSummary");
        }
    }
    let missing: Vec<&str> = FIELDS.iter().map(|(k, _)| *k).filter(|k| !m.contains_key(*k)).collect();
    if !missing.is_empty() {
        c.warn(
            base,
            format!(
                "missing {} of the {} fields upstream's calculate_summary() writes: {}",
                missing.len(),
                FIELDS.len(),
                and_list(&missing)
            ),
        );
    }

    // Rates as fractions, with how far off each may be from rounding.
    let mut frac: HashMap<&str, (f64, f64)> = HashMap::new();
    // How each rate was written, for messages: `0.0833`, or `8.33 (a percentage: 0.0833)`.
    let mut shown: HashMap<&str, String> = HashMap::new();
    for key in FRACTIONS {
        let Some(&r) = n.get(key) else { continue };
        if r <= 1.0 {
            frac.insert(key, (r, half_unit(r)));
            shown.insert(key, sv(key));
        } else if r <= 100.0 {
            c.error(
                p(key),
                format!(
                    "is {}, above 1: percentage where a fraction is expected (SF-Bench's docs and code disagree); \
                     upstream computes {key} as a fraction from 0 to 1; read as {} below",
                    sv(key),
                    approx(r / 100.0)
                ),
            );
            frac.insert(key, (r / 100.0, half_unit(r) / 100.0));
            shown.insert(key, format!("{} (a percentage: {})", sv(key), approx(r / 100.0)));
        } else {
            c.error(p(key), format!("is {}, above 1 (and above 100): a rate cannot be that high", sv(key)));
        }
    }
    if let Some(&pct) = n.get("resolution_rate")
        && pct > 100.0
    {
        c.error(
            p("resolution_rate"),
            format!("is {}, above 100: a percentage cannot be that high", sv("resolution_rate")),
        );
    }
    if let (Some(&pct), Some(&(rr, rr_tol))) = (n.get("resolution_rate"), frac.get("resolve_rate"))
        && !close(pct, half_unit(pct), 100.0 * rr, 100.0 * rr_tol)
    {
        c.error(
            p("resolution_rate"),
            format!(
                "is {}, but 100 × resolve_rate is {}; upstream sets resolution_rate = resolve_rate × 100",
                sv("resolution_rate"),
                approx(100.0 * rr)
            ),
        );
    }

    let Some(&total) = n.get("total_instances") else { return };
    let get = |k: &str| n.get(k).copied();
    // Aliases and the counts upstream derives from the same instances.
    for (a, b) in [("resolved_instances", "instances_resolved"), ("error_instances", "instances_error")] {
        if let (Some(x), Some(y)) = (get(a), get(b))
            && differ(x, y)
        {
            c.error(
                p(b),
                format!("is {}, but its alias {a} is {}; upstream sets both to the same count", approx(y), approx(x)),
            );
        }
    }
    if let Some(sub) = get("instances_submitted")
        && differ(sub, total)
    {
        let below = if total < sub {
            format!("total_instances ({}) is below instances_submitted ({})", approx(total), approx(sub))
        } else {
            format!("instances_submitted ({}) differs from total_instances ({})", approx(sub), approx(total))
        };
        c.error(p("instances_submitted"), format!("{below}; upstream sets both to the number of instances"));
    }
    let errors = get("error_instances").or_else(|| get("instances_error"));
    if let (Some(done), Some(e)) = (get("instances_completed"), errors)
        && differ(done, total - e)
    {
        c.error(
            p("instances_completed"),
            format!(
                "is {}, but total_instances − error_instances = {} − {} = {}; upstream counts every instance whose status \
                 is not \"error\" as completed",
                approx(done),
                approx(total),
                approx(e),
                approx(total - e)
            ),
        );
    }
    for (key, int) in FIELDS {
        if int
            && !key.ends_with("_score")
            && key != "total_instances"
            && key != "instances_submitted"
            && let Some(x) = get(key)
            && x > total
        {
            c.error(p(key), format!("is {}, more than total_instances ({})", approx(x), approx(total)));
        }
    }
    if let (Some(u), Some(f)) = (get("instances_unresolved"), get("failed_instances"))
        && u > f
    {
        c.error(
            p("instances_unresolved"),
            format!(
                "is {}, more than failed_instances ({}); unresolved instances are failed ones with resolved: false",
                approx(u),
                approx(f)
            ),
        );
    }
    if let (Some(f), Some(e)) = (get("failed_instances"), errors)
        && f + e > total
    {
        c.error(
            p("failed_instances"),
            format!(
                "failed_instances ({}) + error_instances ({}) exceed total_instances ({}); an instance has one status",
                approx(f),
                approx(e),
                approx(total)
            ),
        );
    }
    if total <= 0.0 {
        return;
    }
    let resolved = get("resolved_instances").or_else(|| get("instances_resolved"));

    // Every rate is a count over total_instances.
    for key in FRACTIONS {
        let Some(&(r, tol)) = frac.get(key) else { continue };
        let k = r * total;
        if (k - k.round()).abs() > tol * total + 1e-6 {
            c.warn(
                p(key),
                format!(
                    "is {}, and {} × total_instances {} = {} is not a whole number of instances",
                    sv(key),
                    approx(r),
                    approx(total),
                    approx(k)
                ),
            );
        }
    }
    if let (Some(&(rr, tol)), Some(r)) = (frac.get("resolve_rate"), resolved)
        && !close(rr, tol, r / total, 0.0)
    {
        c.error(
            p("resolve_rate"),
            format!(
                "is {}, but resolved_instances / total_instances = {}/{} = {}",
                sv("resolve_rate"),
                approx(r),
                approx(total),
                approx(r / total)
            ),
        );
    }

    // A resolved instance passed deployment, unit tests and functional validation (notes §1.7).
    if let Some(r) = resolved {
        for (key, what) in [
            ("deployment_pass_rate", "deployment"),
            ("unit_test_pass_rate", "unit tests"),
            ("functional_pass_rate", "functional validation"),
        ] {
            let Some(&(rate, tol)) = frac.get(key) else { continue };
            let passed = ((rate + tol) * total + 1e-9).floor();
            if r > passed {
                c.error(
                    p("resolved_instances"),
                    format!(
                        "is {}, but {key} {} × total_instances {} means {} instance(s) passed {what}; an instance is \
                         resolved only when deployment, unit tests and functional validation all pass, so \
                         at most {} can be resolved: upstream cannot produce this summary",
                        approx(r),
                        shown.get(key).cloned().unwrap_or_default(),
                        approx(total),
                        approx(passed),
                        approx(passed)
                    ),
                );
            }
        }
    }

    // Functional points are 0 or 50, and the average is over the instances with points > 0.
    if let Some(avg_f) = get("avg_functional_score") {
        let tol = half_unit(avg_f);
        if !close(avg_f, tol, 0.0, 0.0) && !close(avg_f, tol, 50.0, 0.0) {
            c.error(
                p("avg_functional_score"),
                format!(
                    "is {}, but upstream averages functional_points over the instances with points > 0, and those \
                     points are 0 or 50, so the value is 0.0 or 50.0",
                    sv("avg_functional_score")
                ),
            );
        } else if let Some(&(rate, _)) = frac.get("functional_pass_rate") {
            let passed_any = rate > 0.0;
            let fifty = close(avg_f, tol, 50.0, 0.0);
            if passed_any != fifty {
                c.warn(
                    p("avg_functional_score"),
                    format!(
                        "is {}, but functional_pass_rate is {}; functional validation gives 50 points when it passes, so \
                         the average is 50.0 exactly when some instance passed it",
                        sv("avg_functional_score"),
                        sv("functional_pass_rate")
                    ),
                );
            }
        }
    }

    // Scores: each resolved instance has at least 80 points.
    let (avg, min, max, median) = (get("avg_score"), get("min_score"), get("max_score"), get("median_score"));
    if let Some(r) = resolved.filter(|r| *r > 0.0) {
        let floor = RESOLVED_MIN_POINTS * r / total;
        if let Some(a) = avg
            && a + half_unit(a) + 1e-9 < floor
        {
            c.error(
                p("avg_score"),
                format!(
                    "is {}, but {} resolved instance(s) of {} score at least 80 points each (deployment 10 + unit tests \
                     20 + functional 50), so the average is at least 80 × {}/{} = {}: upstream cannot produce this \
                     summary",
                    sv("avg_score"),
                    approx(r),
                    approx(total),
                    approx(r),
                    approx(total),
                    approx(floor)
                ),
            );
        }
        if let Some(x) = max
            && x < RESOLVED_MIN_POINTS
        {
            c.error(
                p("max_score"),
                format!("is {}, but a resolved instance scores at least 80 points", sv("max_score")),
            );
        }
        if let Some(x) = min
            && r >= total
            && x < RESOLVED_MIN_POINTS
        {
            c.error(
                p("min_score"),
                format!(
                    "is {}, but every instance is resolved, and a resolved instance scores at least 80",
                    sv("min_score")
                ),
            );
        }
        // The upper median is element n // 2 of the sorted scores; the top `r` are >= 80.
        let upper = (total / 2.0).floor();
        if let Some(x) = median
            && r >= total - upper
            && x < RESOLVED_MIN_POINTS
        {
            c.error(
                p("median_score"),
                format!(
                    "is {}, but {} of {} instances are resolved (at least 80 points each), which covers the upper median",
                    sv("median_score"),
                    approx(r),
                    approx(total)
                ),
            );
        }
    }
    for key in ["max_score", "min_score", "median_score", "avg_score"] {
        if let Some(x) = get(key)
            && x > 100.0
        {
            c.error(p(key), format!("is {}, above the maximum score of 100", sv(key)));
        }
    }
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        c.error(p("min_score"), format!("is {}, above max_score ({})", sv("min_score"), sv("max_score")));
    }
    for key in ["median_score", "avg_score"] {
        let Some(x) = get(key) else { continue };
        let tol = half_unit(x);
        if let Some(lo) = min
            && x + tol < lo
        {
            c.error(p(key), format!("is {}, below min_score ({})", sv(key), sv("min_score")));
        }
        if let Some(hi) = max
            && x - tol > hi
        {
            c.error(p(key), format!("is {}, above max_score ({})", sv(key), sv("max_score")));
        }
    }

    // Durations: the mean and the sum over the same instances (those with a duration > 0).
    if let (Some(avg_d), Some(sum_d)) = (get("avg_duration_seconds"), get("total_duration_seconds")) {
        if (avg_d > 0.0) != (sum_d > 0.0) {
            c.error(
                p("avg_duration_seconds"),
                format!(
                    "is {} while total_duration_seconds is {}; both cover the instances with a duration > 0",
                    sv("avg_duration_seconds"),
                    sv("total_duration_seconds")
                ),
            );
        } else if avg_d > 0.0 {
            let count = sum_d / avg_d;
            let tol = count * (half_unit(avg_d) / avg_d + half_unit(sum_d) / sum_d) + 1e-6;
            if (count - count.round()).abs() > tol || count.round() > total {
                c.warn(
                    p("total_duration_seconds"),
                    format!(
                        "is {}, and / avg_duration_seconds {} = {} instances, which is not a whole number between 1 and \
                         total_instances ({})",
                        sv("total_duration_seconds"),
                        sv("avg_duration_seconds"),
                        approx(count),
                        approx(total)
                    ),
                );
            }
        }
    }
}
