//! A samples log's documents, in every shape lm-eval has written them, and the metric that
//! decides pass or fail.
//!
//! * lm-eval 0.4.7 and later: JSON lines with `filter` and `metrics`, the list of the line's
//!   metric keys (`"metrics": ["exact_match"], "exact_match": 1.0`).
//! * lm-eval 0.4.3 to 0.4.6: JSON lines without either: every top-level key but the fixed
//!   ones ([`FIXED_KEYS`]) is a metric, and the k-th line of a document is its k-th filter
//!   (the results file's `filter_list`).
//! * lm-eval's development versions of May 2024: one JSON list of such documents.
//! * lm-eval 0.5 (`0.5.0.dev1`, branch `next0.5`), a task with `repeats` > 1: a line's
//!   metrics are reduced over the repeats, and `scores_per_repeat` keeps each repeat's
//!   score, `{metric: [one per repeat]}` (`_build_logged_samples`, `lm_eval/evaluator_utils.py`).

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
    /// Its numeric metrics (booleans as 1 and 0), in the order the line gives them; NaN for
    /// a metric its `metrics` list names whose value is Python's `NaN` or `Infinity`: not a
    /// score, so the document is not judged by it.
    pub(crate) metrics: Vec<(String, f64)>,
    /// The first metric its `metrics` list names whose value is a list (a `[gold,
    /// prediction]` pair that lm-eval scores over the whole corpus: F1, BLEU).
    pub(crate) corpus: Option<String>,
    /// Each repeat's score per metric (`scores_per_repeat`), for the metrics whose every
    /// score is a number.
    pub(crate) repeats: Vec<(String, Vec<f64>)>,
    /// The whole document, kept for `show`.
    pub(crate) full: Option<Value>,
}

impl Doc {
    pub(crate) fn value(&self, metric: &str) -> Option<f64> {
        self.metrics.iter().find(|(m, _)| m == metric).map(|(_, v)| *v)
    }

    /// Metric `metric`'s score in each repeat, when the line keeps them.
    pub(crate) fn repeated(&self, metric: &str) -> Option<&[f64]> {
        self.repeats.iter().find(|(m, _)| m == metric).map(|(_, v)| v.as_slice())
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
    let text = evaltally_format::json::without_bom(bytes);
    // Each document's text, its line, and whether it was read with Python's `NaN` and
    // `Infinity` as null (a list holding one is split after they are, each of its documents
    // flagged).
    let mut raw: Vec<(u64, &[u8], bool)> = Vec::new();
    let listed;
    if text.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'[') {
        listed = evaltally_format::json::python_non_finite_as_null(text);
        let non_finite = matches!(listed, std::borrow::Cow::Owned(_));
        match serde_json::from_slice::<Vec<&RawValue>>(&listed) {
            Ok(list) => {
                for item in list {
                    let offset = item.get().as_ptr() as usize - listed.as_ptr() as usize;
                    raw.push((
                        evaltally_format::json::line_column(&listed, offset).0,
                        item.get().as_bytes(),
                        non_finite,
                    ));
                }
            }
            Err(e) => {
                diagnostics.push(evaltally_format::json::error_diagnostic(path, &e));
                return Vec::new();
            }
        }
    } else {
        raw.extend(
            evaltally_format::bytes::lines(text)
                .enumerate()
                .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
                .map(|(n, l)| (n as u64 + 1, l, false)),
        );
    }
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(raw.len());
    let mut ids: std::collections::HashSet<String> = std::collections::HashSet::with_capacity(raw.len());
    let mut out = Vec::with_capacity(raw.len());
    for (line_no, bytes, listed_non_finite) in raw {
        let err = |what: String| Diagnostic::error(path, format!("{what}; line left out")).at_line(line_no);
        if !keep
            && !listed_non_finite
            && let Some(line) = scanned(bytes)
        {
            for r in evaltally_format::json::repeated_keys(bytes) {
                let message = format!("key `{}` appears twice on this line; the last value is read", r.key);
                diagnostics.push(Diagnostic::warning(path, message).at(line_no, r.again as u64 + 1));
            }
            let occurrence = seen.entry(line.doc_id.clone()).or_default();
            let filter = match line.filter {
                Some(f) => Some(f),
                None if filters.len() > 1 => filters.get(*occurrence).cloned(),
                None => None,
            };
            *occurrence += 1;
            let id = match filter.as_deref() {
                None | Some("none") => line.doc_id,
                Some(f) => format!("{}/{f}", line.doc_id),
            };
            if !ids.insert(id.clone()) {
                diagnostics.push(
                    Diagnostic::warning(path, format!("document {id} listed again; the first is kept"))
                        .at_line(line_no),
                );
                continue;
            }
            out.push(Doc {
                id,
                line: line_no,
                metrics: line.metrics,
                corpus: line.corpus,
                repeats: line.repeats,
                full: None,
            });
            continue;
        }
        // lm-eval writes with Python's `json`, which gives `NaN` for a metric that is not a
        // number: read as no value (the line's other keys as written).
        let read = evaltally_format::json::python_non_finite_as_null(bytes);
        let non_finite = listed_non_finite || matches!(read, std::borrow::Cow::Owned(_));
        let doc: Value = match serde_json::from_slice(&read) {
            Ok(v) => v,
            Err(e) => {
                // serde_json gives no column for bytes that are not UTF-8.
                let column = match evaltally_format::json::not_utf8(bytes) {
                    Some((_, column, _)) if e.column() == 0 => column,
                    _ => evaltally_format::json::column(&e) as u64,
                };
                diagnostics.push(Diagnostic::error(path, evaltally_format::json::problem(&e)).at(line_no, column));
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
        let (metrics, corpus) = metrics_of(&doc, non_finite);
        let repeats = doc.get("scores_per_repeat").map(repeats_of).unwrap_or_default();
        out.push(Doc { id, line: line_no, metrics, corpus, repeats, full: keep.then_some(doc) });
    }
    out
}

/// What the reading needs of one line, found by the scanner without building the line.
#[derive(Debug, PartialEq)]
struct Scanned {
    doc_id: String,
    filter: Option<String>,
    metrics: Vec<(String, f64)>,
    corpus: Option<String>,
    repeats: Vec<(String, Vec<f64>)>,
}

/// The line's `doc_id`, `filter` and metrics as [`metrics_of`] gives them, read with the
/// scanner (`evaltally_format::scan`): most of a line is the document, the prompt and the
/// answers, which are skipped, not built. `None` for any line that is not plainly well
/// formed (a structure the scanner rejects, damaged bytes, a key with escapes, a value
/// of an unexpected kind or a number the scanner would pass but a JSON parser not): the
/// caller then parses it whole, so its diagnostics are those of the full parse.
fn scanned(bytes: &[u8]) -> Option<Scanned> {
    let members = evaltally_format::scan::object_members(bytes).ok()?;
    if !evaltally_format::damage::find(bytes, 1).is_empty() {
        return None;
    }
    // The last value of a key, as a JSON parser keeps it. A line has a dozen keys: a list
    // searched in place costs less than hashing each.
    let mut last: Vec<(&str, &[u8])> = Vec::with_capacity(members.len());
    for m in &members {
        let key = &bytes[m.key.clone()];
        if key.contains(&b'\\') {
            return None;
        }
        let (key, value) = (std::str::from_utf8(key).ok()?, &bytes[m.value.clone()]);
        match last.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => last.push((key, value)),
        }
    }
    let get = |key: &str| last.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let doc_id = match get("doc_id")? {
        raw if raw.first() == Some(&b'"') => evaltally_format::scan::string_value(raw)?.into_owned(),
        raw if raw.iter().all(u8::is_ascii_digit) && json_number(raw) => {
            u64::try_from(evaltally_format::scan::int_value(raw)?).ok()?.to_string()
        }
        _ => return None,
    };
    let filter = match get("filter") {
        None => None,
        Some(raw) => Some(evaltally_format::scan::string_value(raw)?.into_owned()),
    };
    let mut metrics = Vec::new();
    let mut corpus = None;
    if let Some(raw) = get("metrics") {
        let names: Vec<String> = serde_json::from_slice(raw).ok()?;
        for name in names {
            if let Some(raw) = get(&name) {
                match scalar(raw)? {
                    Scalar::Number(v) => metrics.push((name, v)),
                    Scalar::Other if raw.first() == Some(&b'[') => {
                        corpus.get_or_insert(name);
                    }
                    Scalar::Other => {}
                }
            }
        }
    } else {
        // In key order, as the parsed object (a sorted map) gives them.
        let mut keys: Vec<(&str, &[u8])> =
            last.iter().filter(|(k, _)| !FIXED_KEYS.contains(k)).map(|(k, v)| (*k, *v)).collect();
        keys.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (k, raw) in keys {
            if let Scalar::Number(v) = scalar(raw)? {
                metrics.push((k.to_string(), v));
            }
        }
    }
    // Parsed (it is small), as the full parse reads it.
    let repeats = match get("scores_per_repeat") {
        None => Vec::new(),
        Some(raw) => repeats_of(&serde_json::from_slice(raw).ok()?),
    };
    Some(Scanned { doc_id, filter, metrics, corpus, repeats })
}

/// A metric's value as a number: a number, or a boolean as 1 or 0.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

/// `scores_per_repeat`'s metrics whose every score is a number ([`number`]), in key order.
fn repeats_of(v: &Value) -> Vec<(String, Vec<f64>)> {
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let scores: Option<Vec<f64>> = v.as_array()?.iter().map(number).collect();
            Some((k.clone(), scores.filter(|s| !s.is_empty())?))
        })
        .collect()
}

/// A value as [`metrics_of`] reads it.
enum Scalar {
    /// A number, or a boolean as 1 or 0.
    Number(f64),
    /// Another well-formed value (a string, null, a list, an object): not a metric.
    Other,
}

/// `raw` as a [`Scalar`]; `None` for a value this reading does not vouch for (the caller
/// then parses the line whole).
fn scalar(raw: &[u8]) -> Option<Scalar> {
    match raw.first()? {
        b't' if raw == b"true" => Some(Scalar::Number(1.0)),
        b'f' if raw == b"false" => Some(Scalar::Number(0.0)),
        b'n' if raw == b"null" => Some(Scalar::Other),
        b'"' | b'[' | b'{' => Some(Scalar::Other),
        // A JSON parser refuses a number past f64's range; so does this reading.
        b'-' | b'0'..=b'9' if json_number(raw) => {
            std::str::from_utf8(raw).ok()?.parse().ok().filter(|v: &f64| v.is_finite()).map(Scalar::Number)
        }
        _ => None,
    }
}

/// Whether `raw` is a number as JSON writes it: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)?
/// ([eE] [+-]? [0-9]+)?.
fn json_number(raw: &[u8]) -> bool {
    let digits = |b: &[u8], i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(raw.first() == Some(&b'-'));
    match raw.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i += digits(raw, i),
        _ => return false,
    }
    if raw.get(i) == Some(&b'.') {
        let n = digits(raw, i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(raw.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(raw.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(raw, i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == raw.len()
}

/// A line's numeric metrics: those `metrics` names, else every key but the fixed ones; and
/// the first name `metrics` lists whose value is a list (a corpus metric's pair). When the
/// line held Python's `NaN` or `Infinity` (`non_finite`, read as null), a metric whose
/// value is null is NaN.
fn metrics_of(doc: &Value, non_finite: bool) -> (Vec<(String, f64)>, Option<String>) {
    let Some(names) = doc.get("metrics").and_then(Value::as_array) else {
        let metrics = doc
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| !FIXED_KEYS.contains(&k.as_str()))
            .filter_map(|(k, v)| match v {
                Value::Null if non_finite => Some((k.clone(), f64::NAN)),
                v => Some((k.clone(), number(v)?)),
            })
            .collect();
        return (metrics, None);
    };
    let mut corpus = None;
    let mut metrics = Vec::new();
    for m in names.iter().filter_map(Value::as_str) {
        match doc.get(m).map(|v| (v, number(v))) {
            Some((_, Some(v))) => metrics.push((m.to_string(), v)),
            Some((Value::Array(_), None)) => {
                corpus.get_or_insert_with(|| m.to_string());
            }
            // Python's `NaN` (or `Infinity`), read as null; a null lm-eval wrote itself
            // (`--predict_only`'s `bypass`) is no metric.
            Some((Value::Null, None)) if non_finite => metrics.push((m.to_string(), f64::NAN)),
            _ => {}
        }
    }
    (metrics, corpus)
}

/// The metric whose score in each repeat decides, when the documents keep them
/// (`scores_per_repeat`): `--scorer`'s when it is one of them, else as [`decide`] chooses
/// among them. `None` when no document keeps a repeat's score, or `--scorer` names a metric
/// they do not (a reduced one, `pass@1(exact_match)`): the reduced values decide.
pub(crate) fn repeat_metric(
    path: &Path,
    docs: &[Doc],
    scoring: &Scoring,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let names = names(docs, |d| &d.repeats);
    if let Some(wanted) = scoring.scorer.as_deref() {
        return names.contains(&wanted).then(|| wanted.to_string());
    }
    if names.is_empty() {
        return None;
    }
    let scores = |m| docs.iter().filter_map(move |d| d.repeated(m)).flatten().copied();
    Some(decide(path, &names, scores, scoring, diagnostics, "in every repeat of every document", "a repeat "))
}

/// The metric that decides pass or fail: `--scorer`'s, else as [`decide`] chooses. `None`,
/// with an error, when no document has it (or any).
pub(crate) fn metric(
    path: &Path,
    docs: &[Doc],
    scoring: &Scoring,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let names = names(docs, |d| &d.metrics);
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
    if names.is_empty() {
        // Metrics lm-eval scores over the whole corpus keep each document's pair, not a
        // score: a valid log that no verdict per document can be read from.
        if let Some(corpus) = docs.iter().find_map(|d| d.corpus.as_deref()) {
            diagnostics.push(Diagnostic::warning(
                path,
                format!(
                    "metric `{corpus}` is not a number per document (lm-eval keeps each document's pair and scores \
                     the whole corpus): no document can be judged; nothing read"
                ),
            ));
            return None;
        }
        diagnostics.push(Diagnostic::error(
            path,
            "no document has a numeric metric (a --predict_only log keeps answers, not scores); nothing read",
        ));
        return None;
    }
    let values = |m| docs.iter().filter_map(move |d| d.value(m));
    Some(decide(path, &names, values, scoring, diagnostics, "for every document", ""))
}

/// The metric names `of` gives the documents, each once, in the order the lines give them.
fn names<'d, T: 'd>(docs: &'d [Doc], of: impl Fn(&'d Doc) -> &'d [(String, T)]) -> Vec<&'d str> {
    let mut names: Vec<&str> = Vec::new();
    for d in docs {
        for (m, _) in of(d) {
            if !names.contains(&m.as_str()) {
                names.push(m);
            }
        }
    }
    names
}

/// Of `names` (not empty), the first whose every value (as `values` gives them) is 0 or 1
/// (lm-eval's pass rule for exact-match metrics), else the first, said once unless
/// `--pass-threshold` is given: no metric is 0 or 1 `every`, and a document passes `what`
/// when it is 1.
fn decide<'d, I: Iterator<Item = f64>>(
    path: &Path,
    names: &[&'d str],
    values: impl Fn(&'d str) -> I,
    scoring: &Scoring,
    diagnostics: &mut Vec<Diagnostic>,
    every: &str,
    what: &str,
) -> String {
    // A metric that is not a number for a document (NaN) says nothing of which rule it
    // follows; one that is a number for none is not 0 or 1.
    let binary = names.iter().find(|m| {
        let mut numbers = values(m).filter(|v| !v.is_nan()).peekable();
        numbers.peek().is_some() && numbers.all(|v| v.abs() < 1e-12 || (v - 1.0).abs() < 1e-12)
    });
    if let Some(m) = binary {
        return (*m).to_string();
    }
    let first = names[0];
    let (lo, hi) = values(first).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if scoring.pass_threshold.is_none() {
        diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "no metric is 0 or 1 {every}; `{first}` (from {lo} to {hi}) decides, and a document passes {what}when \
                 it is 1: choose the threshold with --pass-threshold, or the metric with --scorer ({})",
                names.join(", ")
            ),
        ));
    }
    first.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the full parse makes of a line: its `doc_id`, `filter` and metrics.
    fn parsed(line: &str) -> Option<Scanned> {
        let doc: Value = serde_json::from_str(line).ok()?;
        let id = doc.get("doc_id")?;
        let id = id.as_u64().map(|n| n.to_string()).or_else(|| id.as_str().map(str::to_string))?;
        let filter = doc.get("filter").and_then(Value::as_str).map(str::to_string);
        let (metrics, corpus) = metrics_of(&doc, false);
        let repeats = doc.get("scores_per_repeat").map(repeats_of).unwrap_or_default();
        Some(Scanned { doc_id: id, filter, metrics, corpus, repeats })
    }

    #[test]
    fn the_scan_reads_what_the_full_parse_reads_or_leaves_the_line_to_it() {
        let lines = [
            r#"{"doc_id": 0, "doc": {"q": "a \"b\" {c}"}, "filter": "strict-match", "metrics": ["exact_match"], "exact_match": 1.0}"#,
            r#"{"doc_id": 7, "metrics": ["acc", "acc_norm"], "acc": true, "acc_norm": 0, "resps": [["x"]]}"#,
            r#"{"doc_id": "q-12", "filter": "none", "metrics": ["f1"], "f1": 0.25e1}"#,
            r#"{"doc_id": 2, "metrics": ["bleu", "chrf"], "bleu": ["ref", "pred"], "chrf": ["ref", "pred"]}"#,
            r#"{"doc_id": 2, "metrics": ["acc", "f1"], "acc": 1, "f1": [0, 1], "x": null}"#,
            r#"{"doc_id": 3, "exact_match": 1.0, "acc": false, "target": "4", "bleu": "n/a", "z": null}"#,
            r#"{"doc_id": 3, "b": 1, "a": 0, "b": 0}"#,
            r#"{"doc_id": 4, "metrics": ["m", "m"], "m": -0.0, "x": 1}"#,
            r#"{"doc_id": 5, "metrics": ["gone"], "here": 1}"#,
            r#"{"doc_id": 6, "metrics": "acc", "acc": 1}"#,
            r#"{"doc_id": 6, "metrics": [1, "acc"], "acc": 1}"#,
            r#"{"doc_id": 007, "acc": 1}"#,
            r#"{"doc_id": -1, "acc": 1}"#,
            r#"{"doc_id": 1.0, "acc": 1}"#,
            r#"{"doc_id": 8, "acc": 01}"#,
            r#"{"doc_id": 8, "acc": 1e999}"#,
            r#"{"doc_id": 8, "acc": NaN}"#,
            r#"{"doc_id": 9, "filter": null, "acc": 1}"#,
            r#"{"doc_\u0069d": 9, "acc": 1}"#,
            r#"{"doc_id": 10, "acc": 1"#,
            r#"[{"doc_id": 11}]"#,
            r#"{"acc": 1}"#,
            r#"{"doc_id": 12, "metrics": ["exact_match"], "exact_match": 0.5, "scores_per_repeat": {"exact_match": [1.0, 0.0], "f1": [0.5, true], "x": [null]}}"#,
            r#"{"doc_id": 13, "metrics": ["acc"], "acc": 1, "scores_per_repeat": {"acc": [1, 1e999]}}"#,
            r#"{"doc_id": 14, "metrics": ["acc"], "acc": 1, "scores_per_repeat": [1, 0]}"#,
        ];
        let mut fast = 0;
        for line in lines {
            if let Some(got) = scanned(line.as_bytes()) {
                fast += 1;
                assert_eq!(Some(got), parsed(line), "{line}");
            }
        }
        assert!(fast >= 7, "the plain lines take the scan ({fast})");
    }

    #[test]
    fn corpus_metrics_are_said_as_such_and_a_predict_only_log_as_one() {
        let doc = |line: &str| {
            let (metrics, corpus) = metrics_of(&serde_json::from_str(line).unwrap(), false);
            Doc { id: "0".to_string(), line: 1, metrics, corpus, repeats: Vec::new(), full: None }
        };
        let scoring = Scoring::default();
        let mut said = Vec::new();
        let pairs = [doc(r#"{"doc_id": 0, "metrics": ["bleu"], "bleu": ["ref", "pred"]}"#)];
        assert_eq!(metric(Path::new("s.jsonl"), &pairs, &scoring, &mut said), None);
        assert!(said[0].is_warning() && said[0].message.starts_with("metric `bleu` is not a number per document"));
        said.clear();
        let answers = [doc(r#"{"doc_id": 0, "metrics": ["bypass"], "bypass": null, "resps": [["x"]]}"#)];
        assert_eq!(metric(Path::new("s.jsonl"), &answers, &scoring, &mut said), None);
        assert!(said[0].is_error() && said[0].message.contains("--predict_only"), "{said:?}");
    }
}
