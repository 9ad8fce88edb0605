//! SF-Bench runs as [`RunRecord`]s, for `convert` and `export`.

use std::path::Path;

use evaltally_core::{Diagnostic, Outcome, RunRecord, TestRecord};

use crate::detect::Format;
use crate::report::{Report, TaskStatus, sfbench_category};
use crate::sources::{Source, identity, read_json};

fn record(run: String, model: String, format: Format, source: &Path) -> RunRecord {
    RunRecord { run, model, format: format.name().to_string(), source: source.to_path_buf(), ..RunRecord::default() }
}

/// The run a source holds, test by test.
pub fn records(source: &Source) -> Result<Vec<RunRecord>, Diagnostic> {
    let doc = read_json(&source.path)?;
    document_records(&source.path, source.format, &doc)
}

/// The run a parsed report document holds, test by test.
pub fn document_records(path: &Path, format: Format, doc: &serde_json::Value) -> Result<Vec<RunRecord>, Diagnostic> {
    document_records_said(path, format, doc).map(|(runs, _)| runs)
}

/// [`document_records`], with a warning for each instance read with a default or left out,
/// as the analyses say them.
pub(crate) fn document_records_said(
    path: &Path,
    format: Format,
    doc: &serde_json::Value,
) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (run, model) = identity(path, format, doc);
    let mut rec = record(run, model, format, path);
    let said = match format {
        Format::SfbenchV2 => {
            let report = Report::from_value(doc);
            rec.started_at.clone_from(&report.start_time);
            rec.meta.timestamp.clone_from(&report.start_time);
            rec.tests = report.kept().map(sfbench_test).collect();
            report.notes.iter().map(|n| Diagnostic::warning(path, n.clone())).collect()
        }
        // Said as the analyses say it: a warning, the file's runs none.
        other => return Err(crate::sources::no_outcomes(path, other)),
    };
    Ok((vec![rec], said))
}

fn sfbench_test(i: &crate::report::Instance) -> TestRecord {
    let outcome = match (&i.status, i.resolved) {
        (TaskStatus::Skipped, _) => None,
        (_, true) => Some(Outcome::Pass),
        (status, false) => Some(status.unresolved_outcome()),
    };
    TestRecord {
        id: i.instance_id.clone(),
        category: sfbench_category(&i.instance_id).to_string(),
        outcome,
        error_type: matches!(outcome, Some(Outcome::Fail | Outcome::Errored))
            .then(|| i.error_type.clone().unwrap_or_else(|| i.status.as_str().to_string())),
        error_message: i.error_message.clone(),
        duration_ms: (i.duration_seconds > 0.0).then(|| evaltally_core::seconds_to_ms(i.duration_seconds)),
        ..TestRecord::default()
    }
}
