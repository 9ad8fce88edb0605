//! To gstack's standard eval result format (`schema_version` 1).

use std::collections::BTreeMap;

use evaltally_core::{Outcome, RunRecord};
use serde_json::{Value, json};

use evaltally_gstack::js::{JsObject, JsValue};

use crate::{Converted, carried};

/// Top-level keys in the order gstack's format document lists them.
const KEY_ORDER: [&str; 17] = [
    "schema_version",
    "version",
    "label",
    "git_branch",
    "git_sha",
    "timestamp",
    "hostname",
    "tier",
    "total",
    "passed",
    "failed",
    "total_cost_usd",
    "duration_seconds",
    "all_results",
    "prompt_sha",
    "by_category",
    "costs",
];

/// `all_results` entry keys in the format document's order.
const ENTRY_ORDER: [&str; 7] = ["name", "suite", "tier", "passed", "duration_ms", "cost_usd", "error"];

/// `v` as gstack's own `JSON.stringify(result, null, 2)` writes it: keys of objects in
/// `order` first (then the rest as they come), and numbers as JavaScript prints them
/// (`0`, not `0.0`).
fn js_ordered(v: &Value, order: &[&str], inner: &[&str]) -> JsValue {
    match v {
        Value::Object(m) => {
            let mut o = JsObject::new();
            for key in order
                .iter()
                .copied()
                .filter(|k| m.contains_key(*k))
                .chain(m.keys().map(String::as_str).filter(|k| !order.contains(k)))
            {
                let child = &m[key];
                let value = if key == "all_results" {
                    JsValue::Array(child.as_array().into_iter().flatten().map(|e| js_ordered(e, inner, &[])).collect())
                } else {
                    JsValue::from_value(child)
                };
                o.insert(key, value);
            }
            JsValue::Object(o)
        }
        other => JsValue::from_value(other),
    }
}

/// The gstack standard result for `run`: every test that ran becomes an `all_results`
/// entry (name = id, suite = category, passed, `duration_ms`, `cost_usd`, error; an errored
/// test is written as failed, gstack having no such outcome), token counts
/// go into `costs` (one entry for the run's model), and the run name into `label`. gstack's
/// required git and host fields have no counterpart and are written as `unknown`.
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let run = RunRecord { run: "r".into(), model: "m".into(), tests: vec![
///     TestRecord { id: "t1".into(), category: "c".into(), outcome: Some(Outcome::Fail),
///                  error_type: Some("value_error".into()), error_message: Some("bad".into()), ..Default::default() }],
///     ..Default::default() };
/// let out = evaltally_convert::gstack::convert(&run);
/// let v: serde_json::Value = serde_json::from_str(&out.text).unwrap();
/// assert_eq!(v["all_results"][0]["error"], "value_error: bad");
/// assert_eq!(v["failed"], 1);
/// ```
pub fn convert(run: &RunRecord) -> Converted {
    let c = carried(run);
    // gstack has no errored outcome: an errored test is written as failed, with its error.
    let ran: Vec<_> = run
        .tests
        .iter()
        .filter(|t| matches!(t.outcome, Some(Outcome::Pass | Outcome::Fail | Outcome::Errored)))
        .collect();
    let results: Vec<Value> = ran
        .iter()
        .map(|t| {
            let mut e = json!({
                "name": t.id,
                "suite": t.category,
                "tier": run.meta.tier.as_deref().unwrap_or("evaltally"),
                "passed": t.outcome == Some(Outcome::Pass),
                "duration_ms": t.duration_ms.unwrap_or(0.0),
                "cost_usd": t.cost_usd.unwrap_or(0.0),
            });
            let error = match (&t.error_type, &t.error_message) {
                (Some(ty), Some(msg)) => Some(format!("{ty}: {msg}")),
                (Some(ty), None) => Some(ty.clone()),
                (None, Some(msg)) => Some(msg.clone()),
                (None, None) => None,
            };
            if let Some(error) = error {
                e["error"] = json!(error);
            }
            e
        })
        .collect();
    let passed = ran.iter().filter(|t| t.outcome == Some(Outcome::Pass)).count();
    let mut by_category: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for t in &ran {
        let e = by_category.entry(&t.category).or_default();
        if t.outcome == Some(Outcome::Pass) { e.0 += 1 } else { e.1 += 1 }
    }
    let duration_ms: f64 = ran.iter().filter_map(|t| t.duration_ms).sum();
    let cost: f64 = ran.iter().filter_map(|t| t.cost_usd).sum();
    let mut doc = json!({
        "schema_version": 1,
        "version": run.meta.version.clone().unwrap_or_else(|| format!("evaltally {}", env!("CARGO_PKG_VERSION"))),
        "label": run.run,
        "git_branch": run.meta.git_branch.as_deref().unwrap_or("unknown"),
        "git_sha": run.meta.git_sha.as_deref().unwrap_or("unknown"),
        "timestamp": run.when().unwrap_or("1970-01-01T00:00:00Z"),
        "hostname": run.meta.hostname.as_deref().unwrap_or("unknown"),
        "tier": run.meta.tier.as_deref().unwrap_or("evaltally"),
        "total": ran.len(),
        "passed": passed,
        "failed": ran.len() - passed,
        "total_cost_usd": cost,
        "duration_seconds": duration_ms / 1000.0,
        "all_results": results,
        "by_category": by_category.iter().map(|(k, (p, f))| (k.to_string(), json!({"passed": p, "failed": f}))).collect::<serde_json::Map<_, _>>(),
    });
    if c.tokens {
        let input = ran.iter().filter_map(|t| t.input_tokens).fold(0, u64::saturating_add);
        let output = ran.iter().filter_map(|t| t.output_tokens).fold(0, u64::saturating_add);
        doc["costs"] =
            json!([{"model": run.model, "calls": ran.len(), "input_tokens": input, "output_tokens": output}]);
    }
    let mut lost = Vec::new();
    let unknown: Vec<&str> = [
        ("git_branch", run.meta.git_branch.is_none()),
        ("git_sha", run.meta.git_sha.is_none()),
        ("hostname", run.meta.hostname.is_none()),
    ]
    .into_iter()
    .filter_map(|(k, missing)| missing.then_some(k))
    .collect();
    if !unknown.is_empty() {
        lost.push(format!("{}: not in the source; written as \"unknown\"", unknown.join(", ")));
    }
    match (run.meta.version.is_none(), run.meta.tier.is_none()) {
        (true, true) => lost.push(format!(
            "version and tier: written as \"{}\" and \"evaltally\"",
            doc["version"].as_str().unwrap_or("")
        )),
        (true, false) => lost.push(format!("version: written as \"{}\"", doc["version"].as_str().unwrap_or(""))),
        (false, true) => lost.push("tier: written as \"evaltally\"".to_string()),
        (false, false) => {}
    }
    if run.when().is_none() {
        lost.push("timestamp: not in the source; written as 1970-01-01T00:00:00Z".into());
    }
    if c.error_type {
        lost.push("error_type: gstack has no field for it; folded into `error` as \"type: message\"".into());
    }
    let errored = ran.iter().filter(|t| t.outcome == Some(Outcome::Errored)).count();
    if errored > 0 {
        lost.push(format!(
            "{errored} errored {}: gstack has no errored outcome; written as failed (`passed: false`) with the error",
            if errored == 1 { "test" } else { "tests" }
        ));
    }
    let timeless = ran.iter().filter(|t| t.duration_ms.is_none()).count();
    if !c.duration {
        lost.push("duration_ms: not in the source; written as 0".into());
    } else if timeless > 0 {
        lost.push(format!("duration_ms: {timeless} of {} tests have none; written as 0", ran.len()));
    }
    if !c.cost {
        lost.push("cost_usd: not in the source; written as 0".into());
    }
    if c.not_run || c.unscored {
        lost.push(format!(
            "{} tests that did not run or were not scored: gstack has no such state; left out",
            run.tests.len() - ran.len()
        ));
    }
    let mut text = js_ordered(&doc, &KEY_ORDER, &ENTRY_ORDER).to_pretty_string();
    text.push('\n');
    Converted { text, lost }
}
