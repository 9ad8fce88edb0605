//! SF-Bench as a format of the reading pipeline.
//!
//! SF-Bench's documents are JSON told apart by their keys ([`detect`]), sniffed from the
//! bytes the pipeline read, without parsing.

use std::path::Path;

use evaltally_format::{
    Claim, FileValidation, Format, Input, Keys, Options, Purpose, Read, Records, Resemblance, Shown,
};

use crate::detect::{Format as Detected, detect, is_harness_report, v2_header};
use crate::sources;

/// SF-Bench reports: schema v2, and the v1 shapes (read for `validate` and `convert`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SfBench;

/// The one value of [`SfBench`], for the registry.
pub static SFBENCH: SfBench = SfBench;

use evaltally_format::json::is_json_path as is_json;

/// Whether a path is the place of a SWE-bench per-instance report
/// (`…/logs/run_evaluation/<run_id>/<model>/<id>/report.json` or
/// `…/<run>/logs/<id>/report.json`), which SWE-bench's format claims by it: never an
/// SF-Bench report's.
fn is_harness_instance_place(path: &Path) -> bool {
    if evaltally_format::file_name(path).is_none_or(|n| n != "report.json") {
        return false;
    }
    if let Some([_model, _run, rv, logs]) = evaltally_format::names_above::<4>(path, 2)
        && rv == "run_evaluation"
        && logs == "logs"
    {
        return true;
    }
    evaltally_format::names_above::<2>(path, 2).is_some_and(|[logs, _run]| logs == "logs")
}

/// The runs of a document whose format is known, read from the buffer.
fn read_document(file: &Input<'_>) -> Read {
    evaltally_format::json::read_document(file, detect, |format, doc| {
        let out = sources::read_document(file.path, format, doc);
        Read { runs: out.runs, diagnostics: out.diagnostics }
    })
}

fn document_records(file: &Input<'_>) -> Records {
    let mut said = Vec::new();
    let mut out = evaltally_format::json::document_records(file, detect, |format, doc| {
        let (runs, notes) = crate::records::document_records_said(file.path, format, doc)?;
        said = notes;
        Ok(runs)
    });
    out.diagnostics.extend(said);
    out
}

fn show_document(file: &Input<'_>, test: &str) -> Shown {
    let doc = match sources::parse_json(file.path, file.bytes) {
        Ok(doc) => doc,
        Err(d) => return Shown { details: Vec::new(), diagnostics: vec![d] },
    };
    let Some(format) = detect(&doc) else { return Shown::default() };
    Shown {
        details: sources::show_document(file.path, format, &doc, test).into_iter().collect(),
        diagnostics: Vec::new(),
    }
}

fn validate_document(file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
    let (value, mut findings) = match evaltally_format::check::parse_for_validation(file.bytes) {
        Ok(parsed) => parsed,
        Err(finding) => return vec![FileValidation::new(file.path, "sfbench", vec![finding])],
    };
    let _ = options;
    if let Some(format) = detect(&value) {
        findings.extend(crate::validate::validate(&value, format));
        return vec![FileValidation::new(file.path, format.name(), findings)];
    }
    if let Some(part) = crate::validate::detect_part(&value) {
        findings.extend(crate::validate::validate_part(&value, part));
        return vec![FileValidation::new(file.path, &format!("sfbench-v2-{}", part.name()), findings)];
    }
    Vec::new()
}

impl Format for SfBench {
    fn name(&self) -> &'static str {
        "sfbench"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["sf-bench"]
    }

    fn describe(&self) -> &'static str {
        "  SF-Bench report.json (schema v2; v1 shapes are read by `validate` and `convert`)"
    }

    fn noun(&self) -> &'static str {
        "SF-Bench reports"
    }

    fn claim(&self, path: &Path) -> Claim {
        if is_json(path) && !is_harness_instance_place(path) { Claim::Sniff } else { Claim::No }
    }

    fn sniff(&self, file: &Input<'_>, options: &Options) -> bool {
        // A v2 report is known by its header, without a pass over its instances: `read`
        // walks them once, strictly, and hands anything malformed to the tolerant reader.
        if options.purpose == Purpose::Read && v2_header(file) || detect(file).is_some() {
            return true;
        }
        options.purpose == Purpose::Validate
            && (crate::validate::detect_part(file).is_some() && !is_harness_report(file)
                || file.json_members().is_none()
                    && evaltally_format::check::doc_example(file.bytes).is_some_and(|(v, _)| !is_harness_report(&v)))
    }

    /// SF-Bench v2's identifying keys, and the rest of a report's top level.
    fn resemblance(&self, file: &Input<'_>) -> Option<Resemblance> {
        const KNOWN: [&str; 13] = [
            "run_id",
            "model_name",
            "model_name_or_path",
            "dataset",
            "created_at",
            "start_time",
            "end_time",
            "config",
            "evaluation_config",
            "summary",
            "environment",
            "evaluation_hash",
            "model_config",
        ];
        Resemblance::of_keys(file, &KNOWN, &["schema_version", "instances"])
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        if (v2_header(file) || detect(file) == Some(Detected::SfbenchV2))
            && let Some(runs) = crate::fast::category_runs(file)
        {
            return Read { runs, diagnostics: Vec::new() };
        }
        read_document(file)
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        document_records(file)
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        show_document(file, test)
    }

    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        validate_document(file, options)
    }
}

/// Whether `doc` is a document of the SF-Bench family (for callers that hold a parsed value).
pub fn is_sfbench_document(doc: &impl Keys) -> bool {
    detect(doc).is_some()
}
