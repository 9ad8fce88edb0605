//! The three SF-Bench v1 shapes (notes §1.9): field types (errors) and counts against the
//! results (warnings).

use std::collections::{BTreeMap, HashMap};

use evaltally_format::check::{
    Checker, KeyCheck, Level, Want, and_list, differ, field, found, index_path, key_path, quote, unknown_keys,
};
use serde_json::{Map, Value};

use super::check_timestamp;

const V1_STATUSES: [&str; 4] = ["resolved", "fail", "error", "skipped"];
const LEGACY_STATUSES: [&str; 4] = ["PASS", "FAIL", "TIMEOUT", "ERROR"];

/// Shape (a), the input of upstream's `migrate_v1_to_v2`.
pub(super) fn migrate_input(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a v1 result object, found {}", found(doc)));
        return;
    };
    if field(c, m, "$", "model_name", Want::Str).is_none() && !m.contains_key("model_name") {
        if field(c, m, "$", "model", Want::Str).is_some() {
            c.warn("$", "has \"model\" but no \"model_name\": upstream's migrate_v1_to_v2 names the model \"unknown\"");
        } else {
            c.warn("$", "has no model_name: migration names the model \"unknown\"");
        }
    }
    field(c, m, "$", "dataset", Want::Str);
    field(c, m, "$", "run_id", Want::Str);
    for key in ["timestamp", "start_time", "created_at"] {
        if let Some(s) = field(c, m, "$", key, Want::Str).and_then(Value::as_str) {
            check_timestamp(c, &key_path("$", key), s);
        }
    }
    let Some(list) = field(c, m, "$", "instances", Want::List).and_then(Value::as_array) else { return };
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut keys = KeyCheck::new(V1_INSTANCE);
    for (i, inst) in list.iter().enumerate() {
        let base = index_path("$.instances", i);
        let Some(im) = inst.as_object() else {
            c.error(&base, format!("expected an instance object, found {}", found(inst)));
            continue;
        };
        match field(c, im, &base, "instance_id", Want::Str).and_then(Value::as_str) {
            Some(id) => {
                if let Some(j) = first.insert(id, i) {
                    first.insert(id, j);
                    c.warn(
                        key_path(&base, "instance_id"),
                        format!("duplicate instance id {}, first at $.instances[{j}]", quote(id)),
                    );
                }
            }
            None if !im.contains_key("instance_id") => {
                c.warn(&base, "has no instance_id: migration names it \"unknown\"");
            }
            None => {}
        }
        let status = match im.get("status") {
            None => {
                c.warn(&base, "has no status: migration makes it \"error\", upstream's default");
                None
            }
            Some(Value::String(s)) => {
                status_v1(c, &key_path(&base, "status"), s);
                Some(s.to_ascii_lowercase())
            }
            Some(other) => {
                c.error(
                    key_path(&base, "status"),
                    format!(
                        "expected a status string, found {}; upstream's TaskStatus(...) raises ValueError",
                        found(other)
                    ),
                );
                None
            }
        };
        let resolved = field(c, im, &base, "resolved", Want::Bool).and_then(Value::as_bool);
        match (resolved, status.as_deref()) {
            (Some(true), Some(s)) if s != "resolved" && s != "pass" => c.warn(
                key_path(&base, "resolved"),
                format!("is true but status is {}; upstream migrates both as they are", quote(s)),
            ),
            (Some(false), Some("resolved" | "pass")) => {
                c.warn(
                    key_path(&base, "resolved"),
                    "is false but the status says resolved; upstream migrates both as they are",
                );
            }
            _ => {}
        }
        field(c, im, &base, "duration", Want::NonNegative);
        if let Some(score) = field(c, im, &base, "score", Want::NonNegative).and_then(Value::as_f64)
            && score > 100.0
        {
            c.error(key_path(&base, "score"), format!("is {score}, above the maximum total_score of 100"));
        }
        field(c, im, &base, "error_message", Want::StrOrNull);
        field(c, im, &base, "error_type", Want::StrOrNull);
        field(c, im, &base, "solution_patch", Want::StrOrNull);
        field(c, im, &base, "log_path", Want::StrOrNull);
        for key in ["timestamp", "start_time", "end_time"] {
            if let Some(s) = field(c, im, &base, key, Want::StrOrNull).and_then(Value::as_str) {
                check_timestamp(c, &key_path(&base, key), s);
            }
        }
        keys.add_at(inst, "$.instances[*]");
    }
    keys.finish(c);
}

/// A v1 instance's keys: those of upstream's migration input.
const V1_INSTANCE: &[Level] = &[Level {
    at: "$.instances[*]",
    known: &[
        "instance_id",
        "status",
        "resolved",
        "duration",
        "score",
        "error_message",
        "error_type",
        "solution_patch",
        "log_path",
        "timestamp",
        "start_time",
        "end_time",
    ],
    what: "a v1 instance (migration does not read it)",
}];

/// A `TestResult.to_dict()` entry's keys.
const TEST_RESULT: &[Level] = &[Level {
    at: "$.results[*]",
    known: &[
        "task_id",
        "status",
        "duration",
        "timestamp",
        "error_message",
        "details",
        "execution_log",
        "performance_metrics",
    ],
    what: "TestResult.to_dict()",
}];

/// A v1 status: lowercase `TaskStatus` words are what upstream's migration accepts.
fn status_v1(c: &mut Checker, path: &str, s: &str) {
    if V1_STATUSES.contains(&s) {
        return;
    }
    let lower = s.to_ascii_lowercase();
    let upper = s.to_ascii_uppercase();
    if V1_STATUSES.contains(&lower.as_str()) || LEGACY_STATUSES.contains(&upper.as_str()) {
        c.warn(
            path,
            format!(
                "{} is not a lowercase TaskStatus: upstream's migrate_v1_to_v2 raises ValueError on it; \
                 evaltally's migration reads it",
                quote(s)
            ),
        );
    } else {
        c.error(
            path,
            format!(
                "expected one of {} (or a legacy {}), found {}",
                and_list(&V1_STATUSES),
                and_list(&LEGACY_STATUSES),
                quote(s)
            ),
        );
    }
}

/// Shape (b), the legacy file `scripts/evaluate.py` writes.
pub(super) fn legacy_evaluate(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a legacy evaluation object, found {}", found(doc)));
        return;
    };
    field(c, m, "$", "model", Want::Str);
    if let Some(s) = field(c, m, "$", "timestamp", Want::Str).and_then(Value::as_str) {
        check_timestamp(c, "$.timestamp", s);
    }
    field(c, m, "$", "tasks_file", Want::Str);
    if let Some(mode) = field(c, m, "$", "validation_mode", Want::Str).and_then(Value::as_str)
        && !matches!(mode, "functional" | "deployment")
    {
        c.warn("$.validation_mode", format!("expected \"functional\" or \"deployment\", found {}", quote(mode)));
    }
    let stats: HashMap<&str, f64> = ["total_tasks", "passed", "failed", "timeout", "error", "pass_rate"]
        .into_iter()
        .filter_map(|k| {
            let want = if k == "pass_rate" { Want::NonNegative } else { Want::Count };
            field(c, m, "$", k, want).and_then(Value::as_f64).map(|x| (k, x))
        })
        .collect();
    let results = field(c, m, "$", "results", Want::List).and_then(Value::as_array);
    if let Some(list) = results {
        results_entries(c, list);
        counts(c, "$", &stats, "total_tasks", list);
    }
    if let Some(seg) = field(c, m, "$", "segment_results", Want::Object).and_then(Value::as_object) {
        segments(c, seg, results.map(Vec::as_slice));
    }
    match m.get("functional_validation") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => functional(c, list, results.map(Vec::as_slice)),
        Some(other) => {
            c.error("$.functional_validation", format!("expected a list or null, found {}", found(other)));
        }
    }
    unknown_keys(
        c,
        m,
        "$",
        &[
            "model",
            "timestamp",
            "tasks_file",
            "validation_mode",
            "total_tasks",
            "passed",
            "failed",
            "timeout",
            "error",
            "pass_rate",
            "segment_results",
            "functional_validation",
            "results",
        ],
        "the legacy evaluation file scripts/evaluate.py writes",
    );
}

/// Shape (c), the engine's `summary.json`.
pub(super) fn engine_summary(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected an engine summary object, found {}", found(doc)));
        return;
    };
    let mut stats: HashMap<&str, f64> = HashMap::new();
    if let Some(sm) = field(c, m, "$", "statistics", Want::Object).and_then(Value::as_object) {
        for k in ["total", "passed", "failed", "timeout", "error", "pass_rate"] {
            let want = if k == "pass_rate" { Want::NonNegative } else { Want::Count };
            if let Some(x) = field(c, sm, "$.statistics", k, want).and_then(Value::as_f64) {
                stats.insert(k, x);
            }
        }
        unknown_keys(
            c,
            sm,
            "$.statistics",
            &["total", "passed", "failed", "timeout", "error", "pass_rate"],
            "calculate_pass_rate()'s statistics",
        );
    }
    if let Some(list) = field(c, m, "$", "results", Want::List).and_then(Value::as_array) {
        results_entries(c, list);
        counts(c, "$.statistics", &stats, "total", list);
    }
    unknown_keys(c, m, "$", &["statistics", "results"], "the engine's summary.json");
}

/// `TestResult.to_dict()` entries.
fn results_entries(c: &mut Checker, list: &[Value]) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut keys = KeyCheck::new(TEST_RESULT);
    for (i, r) in list.iter().enumerate() {
        let base = index_path("$.results", i);
        let Some(rm) = r.as_object() else {
            c.error(&base, format!("expected a test result object, found {}", found(r)));
            continue;
        };
        match field(c, rm, &base, "task_id", Want::Str).and_then(Value::as_str) {
            Some(id) => {
                if let Some(j) = first.insert(id, i) {
                    first.insert(id, j);
                    c.warn(
                        key_path(&base, "task_id"),
                        format!("duplicate task id {}, first at $.results[{j}]", quote(id)),
                    );
                }
            }
            None if !rm.contains_key("task_id") => {
                c.error(key_path(&base, "task_id"), "missing; every TestResult has one");
            }
            None => {}
        }
        match rm.get("status") {
            None => c.error(key_path(&base, "status"), "missing; every TestResult has one"),
            Some(Value::String(s)) => {
                let upper = s.to_ascii_uppercase();
                if !LEGACY_STATUSES.contains(&s.as_str()) {
                    if LEGACY_STATUSES.contains(&upper.as_str()) {
                        c.warn(
                            key_path(&base, "status"),
                            format!(
                                "{} is written in another letter case; TestStatus values are {}",
                                quote(s),
                                and_list(&LEGACY_STATUSES)
                            ),
                        );
                    } else {
                        c.error(
                            key_path(&base, "status"),
                            format!("expected one of {}, found {}", and_list(&LEGACY_STATUSES), quote(s)),
                        );
                    }
                }
            }
            Some(other) => {
                c.error(key_path(&base, "status"), format!("expected a status string, found {}", found(other)));
            }
        }
        field(c, rm, &base, "duration", Want::NonNegative);
        if let Some(s) = field(c, rm, &base, "timestamp", Want::Str).and_then(Value::as_str) {
            check_timestamp(c, &key_path(&base, "timestamp"), s);
        }
        field(c, rm, &base, "error_message", Want::StrOrNull);
        field(c, rm, &base, "details", Want::Object);
        field(c, rm, &base, "execution_log", Want::List);
        field(c, rm, &base, "performance_metrics", Want::Object);
        keys.add_at(r, "$.results[*]");
    }
    keys.finish(c);
}

fn status_counts(list: &[Value]) -> [usize; 4] {
    let mut n = [0usize; 4];
    for r in list {
        if let Some(s) = r.get("status").and_then(Value::as_str) {
            let upper = s.to_ascii_uppercase();
            if let Some(i) = LEGACY_STATUSES.iter().position(|x| *x == upper) {
                n[i] += 1;
            }
        }
    }
    n
}

/// The stored counts against the results (warnings).
fn counts(c: &mut Checker, base: &str, stats: &HashMap<&str, f64>, total_key: &str, list: &[Value]) {
    let n = list.len() as f64;
    if let Some(&t) = stats.get(total_key)
        && differ(t, n)
    {
        c.warn(key_path(base, total_key), format!("is {t}, but results has {n} entries"));
    }
    let tally = status_counts(list);
    for (i, key) in ["passed", "failed", "timeout", "error"].iter().enumerate() {
        if let Some(&x) = stats.get(key)
            && differ(x, tally[i] as f64)
        {
            c.warn(
                key_path(base, key),
                format!("is {x}, but results has {} with status {}", tally[i], LEGACY_STATUSES[i]),
            );
        }
    }
    let parts: Vec<f64> =
        ["passed", "failed", "timeout", "error"].iter().filter_map(|k| stats.get(k).copied()).collect();
    if let (Some(&t), 4) = (stats.get(total_key), parts.len())
        && differ(parts.iter().sum::<f64>(), t)
    {
        c.warn(
            key_path(base, total_key),
            format!("is {t}, but passed + failed + timeout + error = {}", parts.iter().sum::<f64>()),
        );
    }
    if let Some(&rate) = stats.get("pass_rate") {
        let expected = if n > 0.0 { 100.0 * tally[0] as f64 / n } else { 0.0 };
        if rate > 100.0 {
            c.error(key_path(base, "pass_rate"), format!("is {rate}, above 100 (it is a percentage)"));
        } else if (rate - expected).abs() > 0.005 + 1e-9 {
            let hint = if n > 0.0 && (rate - expected / 100.0).abs() <= 0.005 {
                " (a fraction where a percentage is expected)"
            } else {
                ""
            };
            c.warn(
                key_path(base, "pass_rate"),
                format!("is {rate}, but {} PASS of {n} results is {:.2}%{hint}", tally[0], expected),
            );
        }
    }
}

/// `segment_results` against the results: the segment is the task id before the first `-`,
/// uppercased, or `OTHER`; `error` counts every status but PASS and FAIL.
fn segments(c: &mut Checker, seg: &Map<String, Value>, results: Option<&[Value]>) {
    let mut expected: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    if let Some(list) = results {
        for r in list {
            let Some(id) = r.get("task_id").and_then(Value::as_str) else { continue };
            let name = id.split_once('-').map_or_else(|| "OTHER".to_string(), |(a, _)| a.to_uppercase());
            let e = expected.entry(name).or_default();
            e[0] += 1;
            match r.get("status").and_then(Value::as_str).map(str::to_ascii_uppercase).as_deref() {
                Some("PASS") => e[1] += 1,
                Some("FAIL") => e[2] += 1,
                _ => e[3] += 1,
            }
        }
    }
    for (name, v) in seg {
        let base = key_path("$.segment_results", name);
        let Some(sm) = v.as_object() else {
            c.error(&base, format!("expected a segment object, found {}", found(v)));
            continue;
        };
        let mut got = [None; 4];
        for (i, k) in ["total", "passed", "failed", "error"].iter().enumerate() {
            got[i] = field(c, sm, &base, k, Want::Count).and_then(Value::as_f64);
        }
        let rate = field(c, sm, &base, "pass_rate", Want::NonNegative).and_then(Value::as_f64);
        let Some(want) = results.map(|_| expected.get(name).copied().unwrap_or_default()) else { continue };
        for (i, k) in ["total", "passed", "failed", "error"].iter().enumerate() {
            if let Some(x) = got[i]
                && differ(x, want[i] as f64)
            {
                c.warn(key_path(&base, k), format!("is {x}, but the results give {}", want[i]));
            }
        }
        if let Some(r) = rate
            && want[0] > 0
        {
            let exp = 100.0 * want[1] as f64 / want[0] as f64;
            if (r - exp).abs() > 0.05 + 1e-9 {
                c.warn(
                    key_path(&base, "pass_rate"),
                    format!("is {r}, but {} PASS of {} is {exp:.1}%", want[1], want[0]),
                );
            }
        }
    }
    if results.is_some() {
        for name in expected.keys() {
            if !seg.contains_key(name) {
                c.warn("$.segment_results", format!("has no segment {}, which the results have", quote(name)));
            }
        }
    }
}

/// `functional_validation`: `FunctionalValidationResult.to_dict()` entries.
fn functional(c: &mut Checker, list: &[Value], results: Option<&[Value]>) {
    let ids: Vec<&str> =
        results.into_iter().flatten().filter_map(|r| r.get("task_id").and_then(Value::as_str)).collect();
    for (i, f) in list.iter().enumerate() {
        let base = index_path("$.functional_validation", i);
        let Some(fm) = f.as_object() else {
            c.error(&base, format!("expected a functional validation object, found {}", found(f)));
            continue;
        };
        if let Some(id) = field(c, fm, &base, "task_id", Want::Str).and_then(Value::as_str)
            && results.is_some()
            && !ids.contains(&id)
        {
            c.warn(key_path(&base, "task_id"), format!("{} is not among the results", quote(id)));
        }
        if let Some(score) = field(c, fm, &base, "score", Want::NonNegative).and_then(Value::as_f64)
            && score > 100.0
        {
            c.error(key_path(&base, "score"), format!("is {score}, above 100"));
        }
        field(c, fm, &base, "overall_status", Want::Str);
        field(c, fm, &base, "validation_level", Want::StrOrNull);
        for k in [
            "deployment_passed",
            "unit_tests_passed",
            "functional_tests_passed",
            "bulk_tests_passed",
            "no_manual_tweaks",
        ] {
            field(c, fm, &base, k, Want::Bool);
        }
        field(c, fm, &base, "steps", Want::List);
    }
}
