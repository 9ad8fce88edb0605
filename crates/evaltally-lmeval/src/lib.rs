#![doc = include_str!("../README.md")]

mod format;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use evaltally_format::Scoring;
use serde_json::Value;

pub use format::{LMEVAL, LmEval};

/// The format name.
pub const FORMAT: &str = "lmeval";

/// (task, date) of a samples file name `samples_<task>_<date>.jsonl`, the date being what
/// follows the last `_`.
///
/// ```
/// let p = std::path::Path::new("out/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl");
/// assert_eq!(evaltally_lmeval::task_and_date(p), Some(("math_perturbed_full".into(), "2026-01-21T03-44-18.458309".into())));
/// assert_eq!(evaltally_lmeval::task_and_date(std::path::Path::new("results.jsonl")), None);
/// ```
pub fn task_and_date(path: &Path) -> Option<(String, String)> {
    let name = evaltally_format::file_name(path)?.to_str()?;
    let rest = name.strip_prefix("samples_")?.strip_suffix(".jsonl")?;
    let (task, date) = rest.rsplit_once('_')?;
    (!task.is_empty() && !date.is_empty()).then(|| (task.to_string(), date.to_string()))
}

/// The `results_<date>.json` beside a samples file.
pub fn results_file(path: &Path) -> Option<PathBuf> {
    let (_, date) = task_and_date(path)?;
    Some(path.with_file_name(format!("results_{date}.json")))
}

/// The model `results_<date>.json` names (`model_name`), when the file is there.
pub fn model_of(path: &Path) -> Option<String> {
    let doc = evaltally_format::json::read(&results_file(path)?).ok()?;
    doc.get("model_name").and_then(Value::as_str).map(str::to_string)
}

/// What a samples file holds: its run, and what was wrong with its lines.
#[derive(Debug, Default)]
pub struct Read {
    /// The run (none when no line could be read).
    pub runs: Vec<CategoryRun>,
    /// Errors for lines left out, warnings for documents listed twice.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a samples file's bytes as a run of `model`; `scoring` picks the metric
/// (`scorer`, default the first the line names) and the pass threshold.
pub fn read_bytes(path: &Path, bytes: &[u8], model: &str, scoring: &Scoring) -> Read {
    let (task, date) =
        task_and_date(path).unwrap_or_else(|| ("lm-eval".to_string(), evaltally_format::json::stem(path)));
    let mut run = CategoryRun::new(date, model, task);
    run.sources.push(path.to_path_buf());
    let mut diagnostics = Vec::new();
    let mut seen = HashSet::new();
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = n as u64 + 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let err = |what: String| Diagnostic::error(path, format!("{what}; line left out")).at_line(line_no);
        let doc: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                diagnostics.push(
                    Diagnostic::error(path, format!("not valid JSON: {}", evaltally_format::json::message(&e)))
                        .at(line_no, e.column() as u64),
                );
                continue;
            }
        };
        for r in evaltally_format::json::repeated_keys(line) {
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
        let filter = doc.get("filter").and_then(Value::as_str).unwrap_or("none");
        let id = if filter == "none" { doc_id } else { format!("{doc_id}/{filter}") };
        let metric = doc.get("metrics").and_then(Value::as_array).and_then(|names| {
            names
                .iter()
                .filter_map(Value::as_str)
                .filter(|m| scoring.scorer.as_deref().is_none_or(|wanted| wanted == *m))
                .find_map(|m| Some((m, doc.get(m)?.as_f64()?)))
        });
        let Some((name, value)) = metric else {
            let wanted = scoring.scorer.as_deref().map_or_else(|| "a numeric metric".to_string(), |m| format!("`{m}`"));
            diagnostics.push(err(format!("document {id}: expected `metrics` naming {wanted} on the line")));
            continue;
        };
        if !seen.insert(id.clone()) {
            diagnostics.push(
                Diagnostic::warning(path, format!("document {id} listed again; the first is kept")).at_line(line_no),
            );
            continue;
        }
        if scoring.passes(value) {
            run.push(&id, Outcome::Pass, None);
        } else {
            run.push(&id, Outcome::Fail, Some(&scoring.fail_label(name)));
        }
    }
    let runs = if run.is_empty() { Vec::new() } else { vec![run] };
    Read { runs, diagnostics }
}

/// Everything a samples file says about document `id` (as [`read_bytes`] names it): its
/// outcome, the target as expected answer, the filtered response as the answer, and the
/// metrics as details.
pub fn show(path: &Path, bytes: &[u8], id: &str, model: &str, scoring: &Scoring) -> Option<evaltally_core::TestDetail> {
    use evaltally_core::{Status, TestDetail};
    let (task, date) =
        task_and_date(path).unwrap_or_else(|| ("lm-eval".to_string(), evaltally_format::json::stem(path)));
    let read = read_bytes(path, bytes, model, scoring);
    let test = read
        .runs
        .first()?
        .tests()
        .find(|t| t.id == id)
        .map(|t| (t.outcome, t.error_type.map(|e| e.as_str().to_string())))?;
    let doc: Value =
        bytes.split(|&b| b == b'\n').filter_map(|l| serde_json::from_slice::<Value>(l).ok()).find(|d| {
            let doc_id = d.get("doc_id").map(|v| v.to_string().trim_matches('"').to_string()).unwrap_or_default();
            let filter = d.get("filter").and_then(Value::as_str).unwrap_or("none");
            (if filter == "none" { doc_id } else { format!("{doc_id}/{filter}") }) == id
        })?;
    let status = if test.0 == Outcome::Pass { Status::Passed } else { Status::Failed };
    let mut d = TestDetail::new(&date, model, &task, id, status);
    d.error_type = test.1;
    d.expected = doc.get("target").cloned();
    d.answer = doc.get("filtered_resps").cloned();
    let metrics: serde_json::Map<String, Value> = doc
        .get("metrics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|m| Some((m.to_string(), doc.get(m)?.clone())))
        .collect();
    d.error_details = Some(Value::Object(metrics));
    Some(d)
}
