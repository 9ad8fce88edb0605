//! Finding SF-Bench reports on disk, and reading them as runs.

use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, Status, TestDetail};
use serde_json::Value;

use crate::detect::Format;
use crate::report::{Report, TaskStatus, sfbench_category};

/// One run's worth of report data on disk: one JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
}

impl Source {
    /// The file the source stands for, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Total size in bytes (0 where unknown), for scheduling large sources first.
    pub fn size(&self) -> u64 {
        std::fs::metadata(&self.path).map_or(0, |m| m.len())
    }
}

pub(crate) use evaltally_format::json::{parse as parse_json, read as read_json, stem as file_stem};

/// What reading a [`Source`] produced.
#[derive(Debug, Default)]
pub struct SourceOutcome {
    /// The run's tests, one entry per category.
    pub runs: Vec<evaltally_core::CategoryRun>,
    /// Problems met.
    pub diagnostics: Vec<Diagnostic>,
}

/// The run name and model a document stands for.
pub fn identity(path: &Path, format: Format, doc: &Value) -> (String, String) {
    let stem = file_stem(path);
    match format {
        Format::SfbenchV2 => {
            let r = Report::from_value(doc);
            (r.run_id.unwrap_or(stem), r.model_name.unwrap_or_else(|| "unknown".into()))
        }
        _ => (
            stem,
            doc.get("model_name").or_else(|| doc.get("model")).and_then(Value::as_str).unwrap_or("unknown").to_string(),
        ),
    }
}

/// Reads a source into category runs.
pub fn read(source: &Source) -> SourceOutcome {
    match read_json(&source.path) {
        Ok(doc) => read_document(&source.path, source.format, &doc),
        Err(d) => SourceOutcome { runs: Vec::new(), diagnostics: vec![d] },
    }
}

/// Reads a report document already parsed (its format known) into category runs.
pub fn read_document(path: &Path, format: Format, doc: &Value) -> SourceOutcome {
    let mut out = SourceOutcome::default();
    let (run, _) = identity(path, format, doc);
    match format {
        Format::SfbenchV2 => {
            if !doc.get("instances").is_some_and(Value::is_array) {
                out.diagnostics.push(Diagnostic::warning(
                    path,
                    "`instances` is missing or not a list: the report holds no instances to analyse",
                ));
            }
            let report = Report::from_value(doc);
            out.diagnostics.extend(report.notes.iter().map(|n| Diagnostic::warning(path, n.clone())));
            out.runs = report.category_runs(&run);
        }
        other => out.diagnostics.push(no_outcomes(path, other)),
    }
    out
}

/// Everything a source says about instance `id`, or `None` when it does not list it.
pub fn show(source: &Source, id: &str) -> Result<Option<TestDetail>, Diagnostic> {
    let doc = read_json(&source.path)?;
    Ok(show_document(&source.path, source.format, &doc, id))
}

/// Everything a parsed report document says about instance `id`.
pub fn show_document(path: &Path, format: Format, doc: &Value, id: &str) -> Option<TestDetail> {
    let (run, model) = identity(path, format, doc);
    match format {
        Format::SfbenchV2 => Report::from_value(doc).instances.iter().find(|i| i.instance_id == id).map(|i| {
            let status = match (&i.status, i.resolved) {
                (TaskStatus::Skipped, _) => Status::Unscored,
                (_, true) => Status::Passed,
                (status, false) => Status::from(status.unresolved_outcome()),
            };
            let mut d = TestDetail::new(&run, &model, sfbench_category(id), id, status);
            // A skipped instance is labelled so, as its reading labels it.
            if matches!(status, Status::Failed | Status::Errored | Status::Unscored) {
                d.error_type = Some(i.error_type.clone().unwrap_or_else(|| i.status.as_str().to_string()));
            }
            d.error_message.clone_from(&i.error_message);
            d.error_details = serde_json::to_value(&i.validation).ok();
            d.answer = i.solution_patch.clone().map(Value::String);
            d.latency_seconds = Some(i.duration_seconds);
            d
        }),
        _ => None,
    }
}

/// The warning for a file of the SF-Bench family that holds no per-instance outcomes (a v1
/// report, a summary alone): read, it gives no run.
pub(crate) fn no_outcomes(path: &Path, format: Format) -> Diagnostic {
    Diagnostic::warning(
        path,
        format!(
            "{} files hold no per-instance outcomes to analyse; convert them with `evaltally convert --to sfbench-v2`",
            format.name()
        ),
    )
}
