//! SWE-bench runs as [`RunRecord`]s, for `convert` and `export`.

use std::path::Path;

use evaltally_core::{Diagnostic, RunRecord, TestRecord};

use crate::detect::Format;
use crate::report::{InstanceReport, RunReport, repository};
use crate::sources::{Source, identity, read_json};

fn record(run: String, model: String, format: Format, source: &Path) -> RunRecord {
    RunRecord { run, model, format: format.name().to_string(), source: source.to_path_buf(), ..RunRecord::default() }
}

/// The run a source holds, test by test.
pub fn records(source: &Source) -> Result<Vec<RunRecord>, Diagnostic> {
    match source {
        Source::Document { path, format, .. } => {
            let doc = read_json(path)?;
            document_records(path, *format, &doc)
        }
        Source::InstanceLogs { run, model, reports } => {
            let mut diagnostics = Vec::new();
            let parsed = crate::sources::instance_reports(reports, &mut Vec::new(), true, &mut diagnostics);
            match diagnostics.into_iter().find(Diagnostic::is_error) {
                Some(error) => Err(error),
                None => Ok(vec![instance_logs_record(run, model, source.path(), &parsed)]),
            }
        }
    }
}

/// The run a folder of per-instance reports holds (read with
/// [`sources::instance_reports`](crate::sources)), test by test.
pub(crate) fn instance_logs_record(run: &str, model: &str, folder: &Path, reports: &[InstanceReport]) -> RunRecord {
    let model = crate::sources::logs_model(model, reports);
    let mut rec = record(run.to_string(), model.to_string(), Format::InstanceReport, folder);
    rec.tests = reports.iter().map(instance_test).collect();
    rec
}

/// The run a parsed report document holds, test by test.
pub fn document_records(path: &Path, format: Format, doc: &serde_json::Value) -> Result<Vec<RunRecord>, Diagnostic> {
    let (run, model) = identity(path, format, doc);
    let mut rec = record(run, model, format, path);
    match format {
        Format::RunReport => {
            let report = RunReport::from_value(doc);
            rec.tests = report
                .verdicts()
                .into_iter()
                .map(|(id, outcome, label)| run_report_test(id, outcome, label, report.failure_reasons.get(id)))
                .collect();
        }
        Format::InstanceReport => {
            let fallback = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            rec.tests = InstanceReport::from_value(doc, fallback.as_deref()).iter().map(instance_test).collect();
        }
        Format::InstanceMap => {
            rec.tests = crate::sources::map_reports(path, doc, &mut Vec::new()).iter().map(instance_test).collect();
        }
    }
    Ok(vec![rec])
}

fn run_report_test(
    id: &str,
    outcome: evaltally_core::Outcome,
    label: Option<&str>,
    reason: Option<&serde_json::Value>,
) -> TestRecord {
    TestRecord {
        id: id.to_string(),
        category: repository(id),
        outcome: Some(outcome),
        error_type: label.map(str::to_string),
        error_message: reason.and_then(serde_json::Value::as_str).map(str::to_string),
        ..TestRecord::default()
    }
}

fn instance_test(r: &InstanceReport) -> TestRecord {
    TestRecord {
        id: r.instance_id.clone(),
        category: repository(&r.instance_id),
        outcome: Some(r.outcome()),
        error_type: r.failure_label().map(str::to_string),
        error_message: r.failing_tests().map(|t| format!("failing tests: {t}")),
        ..TestRecord::default()
    }
}
