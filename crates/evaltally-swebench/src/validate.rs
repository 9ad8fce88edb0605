//! Checks a SWE-bench report and says what is wrong with it, and where: the run report
//! `<model>.<run_id>.json` (notes §2.1) and the per-instance `report.json` (notes §2.2).
//!
//! [`validate`] takes a parsed JSON document and its [`Format`] and returns [`Finding`]s, each
//! located by a JSON path (`$.total_instances`, `$.django__django-11099.resolved`). Errors
//! make a document invalid; warnings point at something suspicious that the harness allows.
//!
//! * **Run report**: counts against list lengths, duplicate ids, ids in lists that exclude
//!   each other, and the harness invariants (as warnings, since they do not hold in
//!   general).
//! * **Per-instance report**: field types, test groups, and `resolved` against the tests
//!   that failed.

use std::collections::{HashMap, HashSet};

use evaltally_core::Finding;
use evaltally_format::check::{Checker, Want, and_list, differ, field, found, key_path, quote, unknown_keys};
use serde_json::{Map, Value};

use crate::detect::Format;

/// Checks `doc` as a document of `format` and returns every finding, errors and warnings, in
/// the order the checks ran.
///
/// Never panics, whatever the document holds.
///
/// ```
/// use evaltally_swebench::detect::Format;
/// use evaltally_swebench::validate::validate;
/// let run = serde_json::json!({"schema_version": 2, "total_instances": 1, "submitted_instances": 300,
///     "completed_instances": 1, "resolved_instances": 1, "resolved_ids": ["a"], "completed_ids": ["a"]});
/// let findings = validate(&run, Format::RunReport);
/// let below = findings.iter().find(|f| f.path == "$.total_instances").unwrap();
/// assert!(!below.is_error());
/// assert!(below.message.contains("(1)") && below.message.contains("(300)"));
/// ```
pub fn validate(doc: &Value, format: Format) -> Vec<Finding> {
    let mut c = Checker::default();
    match format {
        Format::RunReport => run_report(&mut c, doc),
        Format::InstanceReport => instance_report(&mut c, doc),
        Format::InstanceMap => instance_map(&mut c, doc),
    }
    c.findings
}

/// Count keys, each with the list whose length it is (`None`: no list).
const COUNTS: [(&str, Option<&str>); 13] = [
    ("total_instances", None),
    ("submitted_instances", Some("submitted_ids")),
    ("completed_instances", Some("completed_ids")),
    // OpenHands/benchmarks' `SwebenchReport` only.
    ("incomplete_instances", Some("incomplete_ids")),
    ("resolved_instances", Some("resolved_ids")),
    ("unresolved_instances", Some("unresolved_ids")),
    ("empty_patch_instances", Some("empty_patch_ids")),
    ("error_instances", Some("error_ids")),
    ("infra_failure_instances", Some("infra_failure_ids")),
    ("ambiguous_failure_instances", Some("ambiguous_failure_ids")),
    ("unstopped_instances", Some("unstopped_containers")),
    // sb-cli reports only.
    ("pending_instances", Some("pending_ids")),
    ("failed_instances", Some("failed_ids")),
];

/// The counts of a run report that differ from the length of the list they count
/// (`resolved_instances` against `resolved_ids`): each count's key, its value and the
/// list's length, in the harness's order. What `summary` says beside the recomputed figures.
///
/// ```
/// let doc = serde_json::json!({"resolved_instances": 5, "resolved_ids": ["a", "b", "c"], "error_instances": 0, "error_ids": []});
/// assert_eq!(evaltally_swebench::validate::stored_counts_that_differ(&doc), [("resolved_instances", 5.0, 3)]);
/// ```
pub fn stored_counts_that_differ(doc: &Value) -> Vec<(&'static str, f64, usize)> {
    COUNTS
        .iter()
        .filter_map(|&(key, list)| {
            let n = doc.get(key)?.as_f64()?;
            let len = doc.get(list?)?.as_array()?.len();
            differ(n, len as f64).then_some((key, n, len))
        })
        .collect()
}

/// Lists of instance ids.
const ID_LISTS: [&str; 11] = [
    "completed_ids",
    "incomplete_ids",
    "empty_patch_ids",
    "submitted_ids",
    "resolved_ids",
    "unresolved_ids",
    "error_ids",
    "infra_failure_ids",
    "ambiguous_failure_ids",
    // sb-cli reports only.
    "failed_ids",
    "pending_ids",
];

/// Lists of container and image names.
const NAME_LISTS: [&str; 2] = ["unstopped_containers", "unremoved_images"];

/// Keys every harness version since v2.1 writes.
pub(crate) const CORE: [&str; 15] = [
    "total_instances",
    "submitted_instances",
    "completed_instances",
    "resolved_instances",
    "unresolved_instances",
    "empty_patch_instances",
    "error_instances",
    "completed_ids",
    "incomplete_ids",
    "empty_patch_ids",
    "submitted_ids",
    "resolved_ids",
    "unresolved_ids",
    "error_ids",
    "schema_version",
];

/// Pairs of lists no id can be in together: the harness puts each instance of the dataset in
/// exactly one of incomplete, empty patch, completed (with a report.json) or error (without),
/// and grades a completed one resolved or unresolved, or errored when its report is bad.
const EXCLUSIVE: [(&str, &str); 13] = [
    ("resolved_ids", "unresolved_ids"),
    ("resolved_ids", "error_ids"),
    ("unresolved_ids", "error_ids"),
    ("incomplete_ids", "submitted_ids"),
    ("incomplete_ids", "completed_ids"),
    ("incomplete_ids", "empty_patch_ids"),
    ("incomplete_ids", "error_ids"),
    ("incomplete_ids", "resolved_ids"),
    ("incomplete_ids", "unresolved_ids"),
    ("empty_patch_ids", "completed_ids"),
    ("empty_patch_ids", "error_ids"),
    ("empty_patch_ids", "resolved_ids"),
    ("empty_patch_ids", "unresolved_ids"),
];

/// Some ids for a message: `"a", "b" and 3 more`.
fn some_ids(ids: &[&str]) -> String {
    const SHOW: usize = 5;
    let mut shown: Vec<String> = ids.iter().take(SHOW).map(|s| quote(s)).collect();
    if ids.len() > SHOW {
        shown.push(format!("{} more", ids.len() - SHOW));
    }
    and_list(&shown)
}

/// A run report `<model>.<run_id>.json`.
fn run_report(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a SWE-bench run report (an object), found {}", found(doc)));
        return;
    };
    let mut counts: HashMap<&str, f64> = HashMap::new();
    for (key, _) in COUNTS {
        if let Some(v) = field(c, m, "$", key, Want::Count) {
            counts.insert(key, v.as_f64().unwrap_or(0.0));
        }
    }
    let mut lists: HashMap<&str, Vec<&str>> = HashMap::new();
    for key in ID_LISTS.iter().chain(NAME_LISTS.iter()) {
        if let Some(v) = field(c, m, "$", key, Want::StrList) {
            lists.insert(key, v.as_array().into_iter().flatten().filter_map(Value::as_str).collect());
        }
    }
    if let Some(reasons) = field(c, m, "$", "failure_reasons", Want::Object).and_then(Value::as_object) {
        for (id, r) in reasons {
            if !r.is_string() {
                c.error(key_path("$.failure_reasons", id), format!("expected a reason (a string), found {}", found(r)));
            }
        }
    }
    match m.get("schema_version") {
        None => c.warn("$", "has no schema_version; harness reports since v2.1 carry schema_version: 2"),
        Some(v) if v.as_u64() == Some(2) => {}
        Some(v) => c.warn(
            "$.schema_version",
            format!("expected the integer 2 (every harness version writes it), found {}", found(v)),
        ),
    }
    let mut known: Vec<&str> = COUNTS.iter().map(|(k, _)| *k).collect();
    known.extend(ID_LISTS);
    known.extend(NAME_LISTS);
    // OpenHands/benchmarks' `SwebenchReport` names the model.
    field(c, m, "$", "model_name_or_path", Want::Str);
    known.extend(["failure_reasons", "schema_version", "model_name_or_path"]);
    unknown_keys(c, m, "$", &known, "a SWE-bench run report");
    // sb-cli's reports (told by their `failed_ids` and `pending_ids`) have no empty-patch keys.
    let sb_cli = m.contains_key("failed_ids") || m.contains_key("pending_ids");
    let missing: Vec<&str> = CORE
        .iter()
        .copied()
        .filter(|k| !m.contains_key(*k) && *k != "schema_version")
        .filter(|k| !(sb_cli && k.starts_with("empty_patch_")))
        .collect();
    if !missing.is_empty() {
        c.warn("$", format!("missing {}, which the harness writes in every version since v2.1", and_list(&missing)));
    }

    // Each count is the length of its list.
    for (key, list) in COUNTS {
        if let (Some(n), Some(list)) = (counts.get(key), list)
            && let Some(ids) = lists.get(list)
            && differ(*n, ids.len() as f64)
        {
            c.error(
                key_path("$", key),
                format!(
                    "is {n}, but {list} has {} {}; the harness writes the count as the length of the list",
                    ids.len(),
                    if ids.len() == 1 { "entry" } else { "entries" }
                ),
            );
        }
    }
    // Ids occur once per list, and never in two lists that exclude each other.
    for key in ID_LISTS {
        let Some(ids) = lists.get(key) else { continue };
        let mut seen = HashSet::new();
        let mut dups: Vec<&str> = Vec::new();
        for id in ids {
            if !seen.insert(*id) && !dups.contains(id) {
                dups.push(id);
            }
        }
        if !dups.is_empty() {
            c.error(key_path("$", key), format!("lists {} more than once (each id belongs once)", some_ids(&dups)));
        }
    }
    let set = |k: &str| lists.get(k).map(|v| v.iter().copied().collect::<HashSet<&str>>());
    for (a, b) in EXCLUSIVE {
        let (Some(sa), Some(lb)) = (set(a), lists.get(b)) else { continue };
        let mut both: Vec<&str> = lb.iter().copied().filter(|id| sa.contains(id)).collect();
        both.sort_unstable();
        both.dedup();
        if !both.is_empty() {
            c.error(key_path("$", b), format!("shares {} with {a}; no instance can be in both", some_ids(&both)));
        }
    }
    // Subsets.
    let mut subset = |part: &str, whole: &str, why: &str, error: bool| {
        let (Some(lp), Some(sw)) = (lists.get(part), set(whole)) else { return };
        let outside: Vec<&str> = lp.iter().copied().filter(|id| !sw.contains(id)).collect();
        if !outside.is_empty() {
            let msg = format!("has {} not in {whole}; {why}", some_ids(&outside));
            if error {
                c.error(key_path("$", part), msg);
            } else {
                c.warn(key_path("$", part), msg);
            }
        }
    };
    subset("resolved_ids", "completed_ids", "only a completed instance is graded", true);
    subset("unresolved_ids", "completed_ids", "only a completed instance is graded", true);
    for part in ["completed_ids", "empty_patch_ids", "error_ids", "resolved_ids", "unresolved_ids"] {
        subset(part, "submitted_ids", "the harness only evaluates submitted predictions", true);
    }
    for part in ["failed_ids", "pending_ids"] {
        subset(part, "submitted_ids", "sb-cli only evaluates submitted predictions", false);
    }
    let unres_or_err: Option<HashSet<&str>> = match (set("unresolved_ids"), set("error_ids")) {
        (Some(a), Some(b)) => Some(a.union(&b).copied().collect()),
        _ => None,
    };
    if let Some(u) = unres_or_err {
        for part in ["infra_failure_ids", "ambiguous_failure_ids"] {
            let Some(lp) = lists.get(part) else { continue };
            let outside: Vec<&str> = lp.iter().copied().filter(|id| !u.contains(id)).collect();
            if !outside.is_empty() {
                c.warn(
                    key_path("$", part),
                    format!(
                        "has {} in neither unresolved_ids nor error_ids; the harness counts these inside them",
                        some_ids(&outside)
                    ),
                );
            }
        }
    }

    // Denominators and the invariants of notes §2.1 (which do not hold in general: warnings).
    let (total, submitted) = (counts.get("total_instances").copied(), counts.get("submitted_instances").copied());
    if let (Some(t), Some(s)) = (total, submitted)
        && t < s
    {
        let rates = counts
            .get("resolved_instances")
            .map_or_else(String::new, |r| format!("; resolved/total is {r}/{t} but resolved/submitted is {r}/{s}"));
        c.warn(
            "$.total_instances",
            format!(
                "total_instances ({t}) is below submitted_instances ({s}): the harness counts every prediction as \
                 submitted, even predictions outside --instance_ids (SWE-bench issue #666){rates}"
            ),
        );
    }
    invariants(c, &counts, &lists, total, submitted);
}

fn invariants(
    c: &mut Checker,
    counts: &HashMap<&str, f64>,
    lists: &HashMap<&str, Vec<&str>>,
    total: Option<f64>,
    submitted: Option<f64>,
) {
    let set = |k: &str| lists.get(k).map(|v| v.iter().copied().collect::<HashSet<&str>>());
    // completed = resolved + unresolved (+ errors from a bad or empty report.json, since v4.1).
    if let (Some(done), Some(res), Some(unres), Some(err)) =
        (set("completed_ids"), set("resolved_ids"), set("unresolved_ids"), set("error_ids"))
    {
        let mut ungraded: Vec<&str> =
            done.iter().copied().filter(|id| !res.contains(id) && !unres.contains(id) && !err.contains(id)).collect();
        ungraded.sort_unstable();
        if !ungraded.is_empty() {
            c.warn(
                "$.completed_ids",
                format!(
                    "has {} in neither resolved_ids, unresolved_ids nor error_ids; the harness grades every completed \
                     instance resolved or unresolved, or counts its bad report.json as an error",
                    some_ids(&ungraded)
                ),
            );
        }
    } else if let (Some(done), Some(res), Some(unres)) =
        (counts.get("completed_instances"), counts.get("resolved_instances"), counts.get("unresolved_instances"))
    {
        let err = counts.get("error_instances").copied().unwrap_or(0.0);
        if *done < res + unres || *done > res + unres + err {
            c.warn(
                "$.completed_instances",
                format!(
                    "is {done}, but resolved ({res}) + unresolved ({unres}) = {}; completed instances are resolved or \
                     unresolved, plus at most error_instances ({err}) with a bad report.json",
                    res + unres
                ),
            );
        }
    }
    // incomplete + empty patch + completed + errors without report.json = total.
    if let (Some(t), Some(inc), Some(empty), Some(done), Some(err)) =
        (total, lists.get("incomplete_ids"), lists.get("empty_patch_ids"), set("completed_ids"), lists.get("error_ids"))
    {
        let no_report = err.iter().filter(|id| !done.contains(*id)).count();
        let sum = inc.len() + empty.len() + done.len() + no_report;
        if differ(sum as f64, t) {
            // The harness counts the dataset's length but the ids in sets: fewer ids than
            // instances is an id twice in the dataset.
            let why = if (sum as f64) < t {
                "; the harness puts each instance of the dataset in one of these, counting ids once: an id twice in \
                 the dataset?"
            } else {
                "; the harness puts each instance of the dataset in one of these"
            };
            c.warn(
                "$.total_instances",
                format!(
                    "is {t}, but incomplete ({}) + empty patch ({}) + completed ({}) + errors without a report ({no_report}) \
                     = {sum}{why}",
                    inc.len(),
                    empty.len(),
                    done.len()
                ),
            );
        }
    }
    // submitted = total − incomplete, when predictions are within the dataset (not the #666 case,
    // reported above).
    if let (Some(t), Some(s), Some(inc)) = (total, submitted, lists.get("incomplete_ids"))
        && t >= s
        && differ(s, t - inc.len() as f64)
    {
        let rest = t - inc.len() as f64;
        let why = if s > rest {
            "some predictions are not in the dataset"
        } else {
            "the dataset holds more instances than ids (an id twice?)"
        };
        c.warn(
            "$.submitted_instances",
            format!("is {s}, but total_instances ({t}) − incomplete ({}) = {rest}; {why}", inc.len()),
        );
    }
}

/// A per-instance `report.json`, wrapped in `{instance_id: …}` or not.
fn instance_report(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a SWE-bench instance report (an object), found {}", found(doc)));
        return;
    };
    let wrapped = m.len() == 1 && !m.contains_key("resolved") && m.values().next().is_some_and(Value::is_object);
    if wrapped {
        for (id, inner) in m {
            if let Some(im) = inner.as_object() {
                instance_fields(c, im, &key_path("$", id));
            }
        }
    } else {
        instance_fields(c, m, "$");
    }
}

fn instance_map(c: &mut Checker, doc: &Value) {
    let Some(m) = doc.as_object() else {
        c.error("$", format!("expected a map of SWE-bench instance reports (an object), found {}", found(doc)));
        return;
    };
    for (id, entry) in m {
        let base = key_path("$", id);
        match entry.as_object() {
            Some(im) if im.get("timed_out") == Some(&Value::Bool(true)) && !im.contains_key("resolved") => {}
            Some(im) if im.contains_key("resolved") => instance_fields(c, im, &base),
            _ => c.error(&base, format!("expected an instance report (`{{\"resolved\": …}}`), found {}", found(entry))),
        }
    }
}

const TEST_GROUPS: [&str; 4] = ["FAIL_TO_PASS", "PASS_TO_PASS", "FAIL_TO_FAIL", "PASS_TO_FAIL"];

fn instance_fields(c: &mut Checker, m: &Map<String, Value>, base: &str) {
    for key in ["patch_is_None", "patch_exists", "patch_successfully_applied", "resolved", "infra_failure"] {
        field(c, m, base, key, Want::Bool);
    }
    field(c, m, base, "infra_failure_reason", Want::StrOrNull);
    // SWE-smith's: the model, which the harness's reports leave to their folder.
    field(c, m, base, "model_name_or_path", Want::Str);
    let mut failures = 0usize;
    let status = field(c, m, base, "tests_status", Want::Object).and_then(Value::as_object);
    if let Some(ts) = status {
        let tbase = key_path(base, "tests_status");
        for (group, v) in ts {
            let gpath = key_path(&tbase, group);
            if !TEST_GROUPS.contains(&group.as_str()) {
                c.warn(&gpath, "unknown test group: expected FAIL_TO_PASS, PASS_TO_PASS, FAIL_TO_FAIL or PASS_TO_FAIL");
            }
            let Some(gm) = v.as_object() else {
                c.error(&gpath, format!("expected {{\"success\": [...], \"failure\": [...]}}, found {}", found(v)));
                continue;
            };
            for part in ["success", "failure"] {
                if let Some(l) = field(c, gm, &gpath, part, Want::StrList)
                    && part == "failure"
                    && matches!(group.as_str(), "FAIL_TO_PASS" | "PASS_TO_PASS")
                {
                    failures += l.as_array().map_or(0, Vec::len);
                }
            }
        }
    }
    let flag = |k: &str| m.get(k).and_then(Value::as_bool);
    match flag("resolved") {
        Some(true) if failures > 0 => c.error(
            key_path(base, "resolved"),
            format!("is true, but FAIL_TO_PASS and PASS_TO_PASS list {failures} failing test(s); resolved needs all to pass"),
        ),
        Some(true) if flag("patch_successfully_applied") == Some(false) || flag("patch_is_None") == Some(true) => c.error(
            key_path(base, "resolved"),
            "is true, but the patch is missing or was not applied, so no test ran",
        ),
        Some(false) if status.is_some() && failures == 0 => c.warn(
            key_path(base, "resolved"),
            "is false, but no FAIL_TO_PASS or PASS_TO_PASS test failed; the harness resolves an instance when both pass fully",
        ),
        _ => {}
    }
    unknown_keys(
        c,
        m,
        base,
        &[
            "patch_is_None",
            "patch_exists",
            "patch_successfully_applied",
            "resolved",
            "infra_failure",
            "infra_failure_reason",
            "tests_status",
            "model_name_or_path",
        ],
        "a SWE-bench instance report",
    );
}
