//! A samples log's documents, in every shape lm-eval has written them, and the metric that
//! decides pass or fail.
//!
//! * lm-eval 0.4.7 and later: JSON lines with `filter` and `metrics`, the list of the line's
//!   metric keys (`"metrics": ["exact_match"], "exact_match": 1.0`).
//! * lm-eval 0.4.3 to 0.4.6: JSON lines without either: every top-level key but the fixed
//!   ones ([`FIXED_KEYS`]) is a metric, and the k-th line of a document is its k-th filter
//!   (the results file's `filter_list`).
//! * lm-eval's development versions of May 2024: one JSON list of such documents.

use std::collections::HashMap;
use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_format::Scoring;
use serde_json::Value;
use serde_json::value::RawValue;

/// The keys of a sample that are not metrics, in lm-eval's logs of every version (the
/// rest, in logs without `metrics`, are).
pub const FIXED_KEYS: [&str; 14] = [
    "doc_id",
    "doc",
    "target",
    "arguments",
    "resps",
    "filtered_resps",
    "filter",
    "metrics",
    "doc_hash",
    "prompt_hash",
    "target_hash",
    "task_name",
    "scores_per_repeat",
    "truth",
];

/// One document (one line, or one element of a list) as read.
#[derive(Debug)]
pub(crate) struct Doc {
    /// `doc_id`, with `/<filter>` for filters other than `none`.
    pub(crate) id: String,
    /// Its first line in the file.
    pub(crate) line: u64,
    /// Its numeric metrics (booleans as 1 and 0), in the order the line gives them.
    pub(crate) metrics: Vec<(String, f64)>,
    /// The whole document, kept for `show`.
    pub(crate) full: Option<Value>,
}

impl Doc {
    pub(crate) fn value(&self, metric: &str) -> Option<f64> {
        self.metrics.iter().find(|(m, _)| m == metric).map(|(_, v)| *v)
    }
}

/// The documents of a samples file, each once: a line that is not JSON or has no `doc_id`
/// is an error (left out), a key written twice on a line a warning, and a document listed
/// again (beyond the filters `filters` names, for logs whose lines do not name theirs) a
/// warning (the first is kept).
pub(crate) fn documents(path: &Path, bytes: &[u8], filters: &[String], diagnostics: &mut Vec<Diagnostic>) -> Vec<Doc> {
    read_documents(path, bytes, filters, diagnostics, false)
}

/// [`documents`], each keeping the whole document.
pub(crate) fn full_documents(path: &Path, bytes: &[u8], filters: &[String]) -> Vec<Doc> {
    read_documents(path, bytes, filters, &mut Vec::new(), true)
}

fn read_documents(
    path: &Path,
    bytes: &[u8],
    filters: &[String],
    diagnostics: &mut Vec<Diagnostic>,
    keep: bool,
) -> Vec<Doc> {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut raw: Vec<(u64, &[u8])> = Vec::new();
    if text.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'[') {
        match serde_json::from_slice::<Vec<&RawValue>>(text) {
            Ok(list) => {
                for item in list {
                    let offset = item.get().as_ptr() as usize - text.as_ptr() as usize;
                    raw.push((evaltally_format::json::line_column(text, offset).0, item.get().as_bytes()));
                }
            }
            Err(e) => {
                diagnostics.push(evaltally_format::json::error_diagnostic(path, &e));
                return Vec::new();
            }
        }
    } else {
        raw.extend(
            text.split(|&b| b == b'\n')
                .enumerate()
                .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
                .map(|(n, l)| (n as u64 + 1, l)),
        );
    }
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(raw.len());
    let mut ids: std::collections::HashSet<String> = std::collections::HashSet::with_capacity(raw.len());
    let mut out = Vec::with_capacity(raw.len());
    for (line_no, bytes) in raw {
        let err = |what: String| Diagnostic::error(path, format!("{what}; line left out")).at_line(line_no);
        let doc: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => {
                diagnostics.push(
                    Diagnostic::error(path, format!("not valid JSON: {}", evaltally_format::json::message(&e)))
                        .at(line_no, e.column() as u64),
                );
                continue;
            }
        };
        for r in evaltally_format::json::repeated_keys(bytes) {
            let message = format!("key `{}` appears twice on this line; the last value is read", r.key);
            diagnostics.push(Diagnostic::warning(path, message).at(line_no, r.again as u64 + 1));
        }
        let Some(doc_id) = doc
            .get("doc_id")
            .and_then(|v| v.as_u64().map(|n| n.to_string()).or_else(|| v.as_str().map(str::to_string)))
        else {
            diagnostics.push(err("expected `doc_id`, an integer or a string".to_string()));
            continue;
        };
        let occurrence = seen.entry(doc_id.clone()).or_default();
        let filter = match doc.get("filter").and_then(Value::as_str) {
            Some(f) => Some(f.to_string()),
            None if filters.len() > 1 => filters.get(*occurrence).cloned(),
            None => None,
        };
        *occurrence += 1;
        let id = match filter.as_deref() {
            None | Some("none") => doc_id.clone(),
            Some(f) => format!("{doc_id}/{f}"),
        };
        if !ids.insert(id.clone()) {
            diagnostics.push(
                Diagnostic::warning(path, format!("document {id} listed again; the first is kept")).at_line(line_no),
            );
            continue;
        }
        let metrics = metrics_of(&doc);
        out.push(Doc { id, line: line_no, metrics, full: keep.then_some(doc) });
    }
    out
}

/// A line's numeric metrics: those `metrics` names, else every key but the fixed ones.
fn metrics_of(doc: &Value) -> Vec<(String, f64)> {
    let number = |v: &Value| match v {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64(),
        _ => None,
    };
    match doc.get("metrics").and_then(Value::as_array) {
        Some(names) => {
            names.iter().filter_map(Value::as_str).filter_map(|m| Some((m.to_string(), number(doc.get(m)?)?))).collect()
        }
        None => doc
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| !FIXED_KEYS.contains(&k.as_str()))
            .filter_map(|(k, v)| Some((k.clone(), number(v)?)))
            .collect(),
    }
}

/// Metric `m`'s values over the documents that have it.
fn values<'d>(docs: &'d [Doc], m: &'d str) -> impl Iterator<Item = f64> + 'd {
    docs.iter().filter_map(move |d| d.value(m))
}

/// The metric that decides pass or fail: `--scorer`'s, else the first (in the order the
/// lines give them) whose every value is 0 or 1, else the first, said once when its values
/// go past 1. `None`, with an error, when no document has it (or any).
pub(crate) fn metric(
    path: &Path,
    docs: &[Doc],
    scoring: &Scoring,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    for d in docs {
        for (m, _) in &d.metrics {
            if !names.contains(&m.as_str()) {
                names.push(m);
            }
        }
    }
    if docs.is_empty() {
        return None;
    }
    if let Some(wanted) = scoring.scorer.as_deref() {
        if names.contains(&wanted) {
            return Some(wanted.to_string());
        }
        let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        diagnostics.push(Diagnostic::error(
            path,
            format!("no document has a numeric metric `{wanted}` (the file's: {known}); nothing read"),
        ));
        return None;
    }
    let binary = names.iter().find(|m| values(docs, m).all(|v| v.abs() < 1e-12 || (v - 1.0).abs() < 1e-12));
    if let Some(m) = binary {
        return Some((*m).to_string());
    }
    let Some(first) = names.first() else {
        diagnostics.push(Diagnostic::error(
            path,
            "no document has a numeric metric (a --predict_only log keeps answers, not scores); nothing read",
        ));
        return None;
    };
    let (lo, hi) = values(docs, first).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if scoring.pass_threshold.is_none() {
        diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "no metric is 0 or 1 for every document; `{first}` (from {lo} to {hi}) decides, and a document passes \
                 when it is 1: choose the threshold with --pass-threshold, or the metric with --scorer ({})",
                names.join(", ")
            ),
        ));
    }
    Some((*first).to_string())
}
