//! Checks of an SF-Bench v2 report beyond upstream's `validate_schema`.

use std::collections::HashMap;

use evaltally_format::check::{
    Checker, Level, Want, and_list, check_type, field, found, index_path, key_path, quote, unknown_keys,
    unknown_keys_in,
};
use serde_json::{Map, Value};

use super::{Cmp, approx, check_timestamp, compare, exact, same, upstream};
use crate::report::{COMPONENTS, INSTANCE_KEYS, REPORT_KEYS, VALIDATION_KEYS};
use crate::summary::SUMMARY_KEYS;
use crate::summary::upstream::{self as upstream_summary, ID_LISTS, Row};

/// The three components upstream's resolved rule needs, with their statuses as written
/// (lowercase; "skipped" when absent, as the dataclass default).
type Critical = [(&'static str, String); 3];

/// Keys that only a validation breakdown has.
pub(super) const VALIDATION_MARKERS: [&str; 6] =
    ["deployment_status", "unit_test_status", "functional_status", "bulk_status", "no_tweaks_status", "total_score"];

const TASK_STATUSES: [&str; 4] = ["resolved", "fail", "error", "skipped"];
const COMPONENT_STATUSES: [&str; 4] = ["pass", "fail", "error", "skipped"];

/// Every check of a v2 report, upstream's first.
pub(super) fn report(c: &mut Checker, doc: &Value) {
    upstream::findings(c, doc);
    let Some(m) = doc.as_object() else { return };
    top_level(c, m);
    let model =
        m.get("model_name").and_then(Value::as_str).or_else(|| m.get("model_name_or_path").and_then(Value::as_str));
    let Some(list) = m.get("instances").and_then(Value::as_array) else { return };
    for (i, inst) in list.iter().enumerate() {
        instance(c, inst, &index_path("$.instances", i), model, false);
    }
    unknown_instance_keys(c, doc, INSTANCE_LEVELS);
    duplicate_ids(c, list);
    let rows: Vec<Row<'_>> = list.iter().map(Row::of).collect();
    id_lists(c, m, &rows);
    if let Some(summary) = m.get("summary").and_then(Value::as_object) {
        summary_vs_recomputed(c, summary, &rows);
    }
}

fn top_level(c: &mut Checker, m: &Map<String, Value>) {
    if let Some(v) = field(c, m, "$", "run_id", Want::Str)
        && v.as_str().is_some_and(|s| s.trim().is_empty())
    {
        c.warn("$.run_id", "is empty; upstream writes a run id such as \"<model>-%Y%m%d_%H%M%S\"");
    }
    aliases(c, m, "model_name", "model_name_or_path", Want::Str);
    field(c, m, "$", "dataset", Want::Str);
    aliases(c, m, "start_time", "created_at", Want::Str);
    for key in ["start_time", "created_at"] {
        if let Some(s) = m.get(key).and_then(Value::as_str) {
            check_timestamp(c, &key_path("$", key), s);
        }
    }
    if let Some(s) = field(c, m, "$", "end_time", Want::StrOrNull).and_then(Value::as_str) {
        check_timestamp(c, "$.end_time", s);
    }
    aliases(c, m, "config", "evaluation_config", Want::Object);
    if let Some(cfg) = m.get("config").or_else(|| m.get("evaluation_config")).filter(|v| v.is_object()) {
        let key = if m.contains_key("config") { "config" } else { "evaluation_config" };
        config(c, cfg, &key_path("$", key), false);
    }
    if let Some(s) = m.get("summary")
        && !s.is_object()
    {
        c.error(
            "$.summary",
            format!(
                "expected the summary object, found {}; SF-Bench's validate_schema only checks that the key exists",
                found(s)
            ),
        );
    }
    for (key, _) in ID_LISTS {
        field(c, m, "$", key, Want::StrList);
    }
    field(c, m, "$", "environment", Want::Object);
    if let Some(h) = field(c, m, "$", "evaluation_hash", Want::Str).and_then(Value::as_str)
        && !(h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        c.warn("$.evaluation_hash", format!("expected a sha256 in hex (64 characters), found {}", quote(h)));
    }
    field(c, m, "$", "model_config", Want::Object);
    let mut known: Vec<&str> = REPORT_KEYS.to_vec();
    known.extend(["evaluation_hash", "model_config"]);
    unknown_keys(c, m, "$", &known, "SF-Bench's EvaluationReport");
    let missing: Vec<&str> =
        REPORT_KEYS.iter().copied().filter(|k| !m.contains_key(*k) && !upstream::REQUIRED.contains(k)).collect();
    if !missing.is_empty() {
        c.warn(
            "$",
            format!(
                "missing {} of the {} keys upstream's to_dict() always writes: {}",
                missing.len(),
                REPORT_KEYS.len(),
                and_list(&missing)
            ),
        );
    }
}

/// Type-checks both names of an aliased field and reports them disagreeing (an error).
fn aliases(c: &mut Checker, m: &Map<String, Value>, name: &str, alias: &str, want: Want) {
    let a = field(c, m, "$", name, want);
    let b = field(c, m, "$", alias, want);
    if let (Some(a), Some(b)) = (a, b)
        && a != b
    {
        let message = if let (Some(ma), Some(mb)) = (a.as_object(), b.as_object()) {
            let mut keys: Vec<&String> = ma.keys().chain(mb.keys()).collect();
            keys.sort();
            keys.dedup();
            let show = |v: Option<&Value>| v.map_or_else(|| "absent".to_string(), Value::to_string);
            let diffs: Vec<String> = keys
                .into_iter()
                .filter(|k| ma.get(*k) != mb.get(*k))
                .map(|k| format!("{k} is {} here and {} in {name}", show(mb.get(k)), show(ma.get(k))))
                .collect();
            format!("disagrees with {name}: {}; upstream writes both from the same dict", and_list(&diffs))
        } else {
            let show = |v: &Value| v.as_str().map_or_else(|| found(v), quote);
            format!("{} disagrees with {name} {}; upstream writes both from the same value", show(b), show(a))
        };
        c.error(key_path("$", alias), message);
    }
}

/// The `config` object: free-form upstream, but evaluate.py fills it with known keys.
pub(super) fn config(c: &mut Checker, v: &Value, base: &str, alone: bool) {
    let Some(m) = v.as_object() else {
        if alone {
            c.error(base, format!("expected a config object, found {}", found(v)));
        }
        return;
    };
    for (key, want) in [
        ("tasks_file", Want::Str),
        ("validation_mode", Want::Str),
        ("max_workers", Want::Count),
        ("functional_validation", Want::Bool),
        ("scratch_org_alias", Want::StrOrNull),
    ] {
        if let Some(x) = m.get(key) {
            let mut sub = Checker::default();
            if !check_type(&mut sub, &key_path(base, key), x, want) {
                // The config is a free dict upstream: a surprising type is only a warning.
                for f in sub.findings {
                    c.warn(f.path, format!("{} (scripts/evaluate.py writes it so)", f.message));
                }
            }
        }
    }
    if let Some(mode) = m.get("validation_mode").and_then(Value::as_str)
        && !matches!(mode, "functional" | "deployment")
    {
        c.warn(
            key_path(base, "validation_mode"),
            format!("expected \"functional\" or \"deployment\", found {}", quote(mode)),
        );
    }
    if let (Some(mode), Some(func)) =
        (m.get("validation_mode").and_then(Value::as_str), m.get("functional_validation").and_then(Value::as_bool))
        && (mode == "functional") != func
    {
        c.warn(
            key_path(base, "functional_validation"),
            format!(
                "is {func} but validation_mode is {}; evaluate.py sets mode \"functional\" exactly when it is true",
                quote(mode)
            ),
        );
    }
}

/// A status word: a known word in another letter case is a warning, anything else an error.
fn status_word(c: &mut Checker, path: &str, v: &Value, words: &[&str], what: &str) {
    let Some(s) = v.as_str() else {
        c.error(path, format!("expected {what} (a string), found {}", found(v)));
        return;
    };
    if words.contains(&s) {
        return;
    }
    let lower = s.to_ascii_lowercase();
    if words.contains(&lower.as_str()) {
        c.warn(path, format!("{} is written in another letter case; upstream writes {}", quote(s), quote(&lower)));
    } else {
        let legacy = if matches!(s.to_ascii_uppercase().as_str(), "PASS" | "TIMEOUT") && what.contains("instance") {
            "; it is a legacy v1 status: migrate the file to v2 instead"
        } else {
            ""
        };
        c.error(
            path,
            format!("expected {what}: one of {} (any letter case), found {}{legacy}", and_list(words), quote(s)),
        );
    }
}

/// The instances' objects whose keys are checked: each instance and its validation.
const INSTANCE_LEVELS: &[Level] = &[
    Level { at: "$.instances[*]", known: &INSTANCE_KEYS, what: "SF-Bench's InstanceResult" },
    Level { at: "$.instances[*].validation", known: &VALIDATION_KEYS, what: "SF-Bench's ValidationBreakdown" },
];

/// The same objects in an instance given alone ([`super::Part::Instance`]).
pub(super) const ALONE_LEVELS: &[Level] = &[
    Level { at: "$", known: &INSTANCE_KEYS, what: "SF-Bench's InstanceResult" },
    Level { at: "$.validation", known: &VALIDATION_KEYS, what: "SF-Bench's ValidationBreakdown" },
];

/// A validation given alone ([`super::Part::Validation`]).
pub(super) const VALIDATION_ALONE: &[Level] =
    &[Level { at: "$", known: &VALIDATION_KEYS, what: "SF-Bench's ValidationBreakdown" }];

/// The keys of `levels` no writer gives, once per key however many instances hold it.
pub(super) fn unknown_instance_keys(c: &mut Checker, doc: &Value, levels: &[Level]) {
    c.findings.extend(unknown_keys_in(doc, levels));
}

/// One instance. `report_model` is the report's model; `alone` is true when the instance is
/// checked on its own (documentation example), so that upstream's per-instance checks run here.
pub(super) fn instance(c: &mut Checker, inst: &Value, base: &str, report_model: Option<&str>, alone: bool) {
    let Some(m) = inst.as_object() else {
        if alone {
            c.error(base, format!("expected an instance object, found {}", found(inst)));
        }
        return;
    };
    if alone {
        for key in ["instance_id", "status"] {
            if !m.contains_key(key) {
                c.error(key_path(base, key), "missing; SF-Bench's validate_schema requires it in every instance");
            }
        }
    }
    if let Some(id) = field(c, m, base, "instance_id", Want::Str).and_then(Value::as_str)
        && id.trim().is_empty()
    {
        c.warn(key_path(base, "instance_id"), "is empty");
    }
    if let Some(model) = field(c, m, base, "model_name", Want::Str).and_then(Value::as_str)
        && let Some(rm) = report_model
        && model != rm
    {
        c.warn(
            key_path(base, "model_name"),
            format!("{} differs from the report's model_name {}", quote(model), quote(rm)),
        );
    }
    if let Some(s) = m.get("status") {
        status_word(c, &key_path(base, "status"), s, &TASK_STATUSES, "an instance status");
    }
    field(c, m, base, "resolved", Want::Bool);
    let rule = m.get("validation").and_then(|v| validation(c, v, &key_path(base, "validation")));
    field(c, m, base, "duration_seconds", Want::NonNegative);
    field(c, m, base, "scratch_org_username", Want::StrOrNull);
    field(c, m, base, "scratch_org_creation_time", Want::NonNegative);
    field(c, m, base, "error_message", Want::StrOrNull);
    field(c, m, base, "error_type", Want::StrOrNull);
    if let Some(s) = field(c, m, base, "start_time", Want::Str).and_then(Value::as_str) {
        check_timestamp(c, &key_path(base, "start_time"), s);
    }
    if let Some(s) = field(c, m, base, "end_time", Want::StrOrNull).and_then(Value::as_str) {
        check_timestamp(c, &key_path(base, "end_time"), s);
    }
    if let Some(p) = field(c, m, base, "log_path", Want::StrOrNull).and_then(Value::as_str) {
        log_path(c, &key_path(base, "log_path"), p, m.get("instance_id").and_then(Value::as_str));
    }
    field(c, m, base, "solution_patch", Want::StrOrNull);
    resolution(c, m, base, rule);
}

/// The flag, the status and the component rule against each other (warnings: the upstream
/// converter itself can produce every one of these disagreements, notes §1.7).
fn resolution(c: &mut Checker, m: &Map<String, Value>, base: &str, rule: Option<Critical>) {
    // A flag that is not a boolean was reported as a type error; comparing it says nothing more.
    if m.get("resolved").is_some_and(|v| !v.is_boolean()) {
        return;
    }
    let written = m.get("status").and_then(Value::as_str);
    let status = written.map(str::to_ascii_lowercase);
    let flag = m.get("resolved").and_then(Value::as_bool);
    let status_resolved = status.as_deref() == Some("resolved");
    match (flag, status.as_deref()) {
        (Some(false), Some("resolved")) => c.warn(
            key_path(base, "resolved"),
            "is false but status is \"resolved\": upstream then counts the instance in no id list but completed_ids \
             (resolved_ids needs resolved: true, unresolved_ids needs status \"fail\")",
        ),
        (Some(true), Some(s)) if s != "resolved" => c.warn(
            key_path(base, "resolved"),
            format!(
                "is true but status is {}: upstream counts it in resolved_ids{}",
                quote(written.unwrap_or(s)),
                match s {
                    "error" => " and in error_ids",
                    "fail" => " but not in unresolved_ids",
                    _ => "",
                }
            ),
        ),
        _ => {}
    }
    let critical = rule.unwrap_or_else(|| critical(&Map::new()));
    let meets = critical.iter().all(|(_, s)| s == "pass");
    let marked = status_resolved || flag == Some(true);
    let vpath = key_path(base, "validation");
    if marked && !meets {
        let by = match (status_resolved, flag == Some(true)) {
            (true, true) => "status \"resolved\" and resolved: true",
            (true, false) => "status \"resolved\"",
            _ => "resolved: true",
        };
        let short: Vec<String> =
            critical.iter().filter(|(_, s)| s != "pass").map(|(k, s)| format!("{k}_status {}", quote(s))).collect();
        let missing = match m.get("validation") {
            Some(Value::Object(v)) if v.is_empty() => {
                " (the validation object is empty: every component defaults to \"skipped\")"
            }
            Some(Value::Object(_)) => "",
            _ => " (no validation object: every component defaults to \"skipped\")",
        };
        c.warn(
            vpath,
            format!(
                "the instance is marked resolved ({by}) but its validation does not meet upstream's resolved rule \
                 (deployment, unit_test and functional all \"pass\"): {}{missing}; upstream's converter leaves a \
                 legacy PASS resolved whatever its components, e.g. in deployment-only mode",
                and_list(&short)
            ),
        );
    } else if meets && (!status_resolved || flag != Some(true)) && m.contains_key("validation") {
        c.warn(
            vpath,
            format!(
                "deployment, unit_test and functional all \"pass\", which upstream's rule calls resolved, but the \
                 instance has status {} and resolved: {}; upstream's converter would have marked it resolved",
                written.map_or_else(|| "(missing)".to_string(), quote),
                flag.map_or_else(|| "(missing)".to_string(), |b| b.to_string())
            ),
        );
    }
}

/// `logs/run_evaluation/<run_id>/<model>/<instance_id>/run_instance.log`, as evaluate.py writes it.
fn log_path(c: &mut Checker, path: &str, p: &str, instance_id: Option<&str>) {
    let Some(pos) = p.find("run_evaluation/") else { return };
    let parts: Vec<&str> = p[pos + "run_evaluation/".len()..].split('/').collect();
    // run_id, model (one or more parts: a model "a/b" gives two), instance_id, file.
    if parts.len() < 4 {
        c.warn(
            path,
            format!(
                "{} has {} level(s) below run_evaluation/; evaluate.py writes \
                 logs/run_evaluation/<run_id>/<model>/<instance_id>/run_instance.log, with a <model> level",
                quote(p),
                parts.len()
            ),
        );
    } else if let Some(id) = instance_id
        && parts[parts.len() - 2] != id
    {
        c.warn(path, format!("{} is not in the folder of instance {}", quote(p), quote(id)));
    }
}

/// The statuses of the three components the resolved rule needs.
fn critical(m: &Map<String, Value>) -> Critical {
    ["deployment", "unit_test", "functional"].map(|k| {
        let s = match m.get(&format!("{k}_status")) {
            None => "skipped".to_string(),
            Some(Value::String(s)) => s.to_ascii_lowercase(),
            Some(other) => other.to_string(),
        };
        (k, s)
    })
}

/// A validation breakdown. Returns the statuses the resolved rule needs when it is an object.
pub(super) fn validation(c: &mut Checker, v: &Value, base: &str) -> Option<Critical> {
    let Some(m) = v.as_object() else {
        c.error(base, format!("expected a validation object, found {}", found(v)));
        return None;
    };
    let mut points_sum = 0.0;
    let mut points_ok = true;
    for comp in COMPONENTS {
        let k = comp.key();
        let status_key = format!("{k}_status");
        if let Some(s) = m.get(&status_key) {
            status_word(c, &key_path(base, &status_key), s, &COMPONENT_STATUSES, "a component status");
        }
        field(c, m, base, &format!("{k}_message"), Want::Str);
        let points_key = format!("{k}_points");
        match field(c, m, base, &points_key, Want::NonNegative).and_then(Value::as_f64) {
            Some(p) => {
                let max = f64::from(comp.max_points());
                if p > max {
                    c.error(
                        key_path(base, &points_key),
                        format!(
                            "is {}, above the component's maximum of {max} points",
                            m.get(&points_key).map_or_else(String::new, Value::to_string)
                        ),
                    );
                }
                points_sum += p;
            }
            None if m.contains_key(&points_key) => points_ok = false,
            None => {}
        }
    }
    let counts: Vec<Option<f64>> = ["unit_test_passed", "unit_test_failed", "unit_test_total"]
        .iter()
        .map(|k| field(c, m, base, k, Want::Count).and_then(Value::as_f64))
        .collect();
    if let [Some(passed), Some(failed), Some(total)] = counts[..]
        && passed + failed > total
    {
        c.warn(
            key_path(base, "unit_test_total"),
            format!("is {total}, below unit_test_passed + unit_test_failed = {}", exact(passed + failed)),
        );
    }
    field(c, m, base, "bulk_records_processed", Want::Count);
    field(c, m, base, "bulk_records_expected", Want::Count);
    field(c, m, base, "functional_details", Want::Object);
    if let Some(total) = field(c, m, base, "total_score", Want::NonNegative).and_then(Value::as_f64) {
        if total > 100.0 {
            c.error(
                key_path(base, "total_score"),
                format!(
                    "is {}, above the maximum of 100",
                    m.get("total_score").map_or_else(String::new, Value::to_string)
                ),
            );
        }
        if points_ok && !same(total, points_sum) {
            c.warn(
                key_path(base, "total_score"),
                format!(
                    "is {} but the five *_points fields sum to {}; upstream's calculate_total() sums them, though \
                     the converter may copy the functional validator's score instead",
                    m.get("total_score").map_or_else(String::new, Value::to_string),
                    exact(points_sum)
                ),
            );
        }
    }
    Some(critical(m))
}

/// Instance ids that occur more than once (errors).
fn duplicate_ids(c: &mut Checker, list: &[Value]) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, inst) in list.iter().enumerate() {
        let Some(id) = inst.get("instance_id").and_then(Value::as_str) else { continue };
        if let Some(&j) = first.get(id) {
            c.error(
                key_path(&index_path("$.instances", i), "instance_id"),
                format!("duplicate instance id {}, first at $.instances[{j}]", quote(id)),
            );
        } else {
            first.insert(id, i);
        }
    }
}

/// The stored id lists against the lists recomputed from the instances (errors), and their
/// order (a warning).
fn id_lists(c: &mut Checker, m: &Map<String, Value>, rows: &[Row<'_>]) {
    for (li, (key, rule)) in ID_LISTS.iter().enumerate() {
        let Some(stored) = m.get(*key).and_then(Value::as_array) else { continue };
        let stored: Vec<&str> = stored.iter().filter_map(Value::as_str).collect();
        let path = key_path("$", key);
        let mut expected: HashMap<&str, usize> = HashMap::new();
        let mut first_instance: HashMap<&str, usize> = HashMap::new();
        for (i, r) in rows.iter().enumerate() {
            if let Some(id) = r.id {
                first_instance.entry(id).or_insert(i);
                if upstream_summary::in_list(r, li) {
                    *expected.entry(id).or_default() += 1;
                }
            }
        }
        let mut have: HashMap<&str, usize> = HashMap::new();
        for id in &stored {
            *have.entry(id).or_default() += 1;
        }
        for (i, r) in rows.iter().enumerate() {
            let Some(id) = r.id else { continue };
            if upstream_summary::in_list(r, li) && !have.contains_key(id) && first_instance.get(id) == Some(&i) {
                c.error(&path, format!("missing {}: $.instances[{i}] is one of {rule}", quote(id)));
            }
        }
        let mut reported: Vec<&str> = Vec::new();
        for id in &stored {
            if reported.contains(id) {
                continue;
            }
            reported.push(id);
            let n_have = have.get(id).copied().unwrap_or(0);
            match (expected.get(id).copied().unwrap_or(0), first_instance.get(id)) {
                (0, None) => c.error(&path, format!("lists {}, but no instance has that id", quote(id))),
                (0, Some(i)) => {
                    c.error(&path, format!("lists {}, but $.instances[{i}] is not one of {rule}", quote(id)));
                }
                (n, _) if n != n_have => c.error(
                    &path,
                    format!("lists {} {n_have} time(s), but {n} instance(s) with that id qualify", quote(id)),
                ),
                _ => {}
            }
        }
        if stored.windows(2).any(|w| w[0] > w[1]) {
            c.warn(&path, "is not sorted; upstream writes every id list sorted");
        }
    }
}

/// What each summary field counts, for messages.
fn definition(key: &str) -> &'static str {
    match key {
        "total_instances" | "instances_submitted" => "len(instances)",
        "instances_completed" => "instances whose status is not \"error\"",
        "resolved_instances" | "instances_resolved" => "instances with resolved: true",
        "instances_unresolved" => "instances with resolved: false and status \"fail\"",
        "failed_instances" => "instances with status \"fail\"",
        "error_instances" | "instances_error" => "instances with status \"error\"",
        "instances_empty_patch" => "instances whose solution_patch is null or blank",
        "resolve_rate" => "resolved_instances / total_instances, a fraction",
        "resolution_rate" => "resolve_rate × 100, a percentage",
        "avg_score" => "the mean total_score",
        "avg_functional_score" => "the mean functional_points over the instances with points > 0",
        "median_score" => "sorted(total_score)[n // 2], the upper median",
        "min_score" => "the lowest total_score",
        "max_score" => "the highest total_score",
        "avg_duration_seconds" => "the mean duration_seconds over the instances with a duration > 0",
        "total_duration_seconds" => "the sum of the durations > 0",
        _ => "the share of instances whose component status is \"pass\", a fraction",
    }
}

/// Every stored summary field against upstream's `calculate_summary` on the instances.
fn summary_vs_recomputed(c: &mut Checker, s: &Map<String, Value>, rows: &[Row<'_>]) {
    let computed = upstream_summary::compute(rows);
    let n = rows.len();
    let from = if n == 1 { "the 1 instance".to_string() } else { format!("the {n} instances") };
    let mut missing = Vec::new();
    for (key, cv) in &computed {
        let path = key_path("$.summary", key);
        let Some(sv) = s.get(*key) else {
            missing.push(*key);
            continue;
        };
        if !check_type(c, &path, sv, Want::NonNegative) {
            continue;
        }
        let stored = sv.as_f64().unwrap_or(0.0);
        let expected = cv.as_f64().unwrap_or(0.0);
        match compare(stored, expected) {
            Cmp::Equal => {}
            Cmp::Rounded(d) => {
                c.warn(&path, format!("is {sv}, {cv} rounded to {d} decimal place(s); upstream writes the full value"));
            }
            Cmp::Differ => {
                let is_fraction = key.ends_with("_rate") && *key != "resolution_rate";
                let stored_r = s.get("resolved_instances").and_then(Value::as_f64);
                let stored_t = s.get("total_instances").and_then(Value::as_f64).filter(|t| *t > 0.0);
                let message = if is_fraction && same(stored, 100.0 * expected) {
                    format!(
                        "is {sv}, the recomputed percentage; expected the fraction {cv} ({}): percentage where a \
                         fraction is expected (SF-Bench's docs and code disagree)",
                        definition(key)
                    )
                } else if *key == "resolve_rate"
                    && stored > 1.0
                    && let (Some(r), Some(t)) = (stored_r, stored_t)
                    && same(stored, 100.0 * r / t)
                {
                    format!(
                        "is {sv} = 100 × resolved_instances / total_instances as stored ({r}/{t}): percentage where a \
                         fraction is expected (SF-Bench's docs and code disagree); recomputed from {from}: {cv}"
                    )
                } else if *key == "resolution_rate" && expected != 0.0 && same(stored, expected / 100.0) {
                    format!("is {sv}, the fraction; expected the percentage {cv} ({})", definition(key))
                } else {
                    format!("is {sv}; recomputed from {from}: {cv} ({})", definition(key))
                };
                c.error(&path, message);
            }
        }
    }
    if let (Some(t), Some(sub)) =
        (s.get("total_instances").and_then(Value::as_f64), s.get("instances_submitted").and_then(Value::as_f64))
        && t < sub
    {
        c.error(
            "$.summary.total_instances",
            format!(
                "total_instances ({}) is below instances_submitted ({}); upstream sets both to the number of instances",
                approx(t),
                approx(sub)
            ),
        );
    }
    if !missing.is_empty() {
        c.warn(
            "$.summary",
            format!(
                "missing {} of the {} fields upstream's calculate_summary() writes: {}",
                missing.len(),
                SUMMARY_KEYS.len(),
                and_list(&missing)
            ),
        );
    }
    let known = SUMMARY_KEYS;
    for k in s.keys() {
        if !known.contains(&k.as_str()) {
            c.warn(key_path("$.summary", k), "unknown key: not a field of SF-Bench's EvaluationSummary");
        }
    }
}
