//! `inspect_ai` logs as a format of the reading pipeline: `*.eval` archives (by their zip
//! signature) and `*.json` `EvalLog`s (a top-level object with `eval` and `samples` or
//! `results`).

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use crate::log::ZIP_MAGIC;
use crate::read_runs;

/// `inspect_ai` logs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Inspect;

/// The one value of [`Inspect`], for the registry.
pub static INSPECT: Inspect = Inspect;

fn is_eval_path(path: &Path) -> bool {
    evaltally_format::has_extension(path, "eval")
}

impl Format for Inspect {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["inspect_ai", "inspect-ai"]
    }

    fn describe(&self) -> &'static str {
        "  inspect_ai logs (`*.eval` archives, `*.json` EvalLogs with `eval` and `samples`); each epoch is a run"
    }

    fn noun(&self) -> &'static str {
        "inspect_ai logs"
    }

    fn reads_scores(&self) -> bool {
        true
    }

    fn claim(&self, path: &Path) -> Claim {
        if is_eval_path(path) || evaltally_format::json::is_json_path(path) { Claim::Sniff } else { Claim::No }
    }

    /// A zip archive named `*.eval`, or a JSON object whose `eval` is an object and which
    /// has `samples`, `results` or `plan` (looked at with the pipeline's scanner).
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        if file.bytes.starts_with(ZIP_MAGIC) {
            return is_eval_path(file.path) || file.named;
        }
        file.json("eval").is_some_and(|e| e.starts_with(b"{"))
            && (file.has("samples") || file.has("results") || file.has("plan"))
    }

    fn read(&self, file: &Input<'_>, options: &Options) -> Read {
        read_runs(file.path, file.bytes, &options.scoring, false).map(|read| (read.runs, read.diagnostics)).into()
    }

    fn records(&self, file: &Input<'_>, options: &Options) -> Records {
        crate::records(file.path, file.bytes, &options.scoring).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, options: &Options) -> Shown {
        crate::views::show_said(file.path, file.bytes, test, &options.scoring).into()
    }

    /// What the reader refused or tolerated; every key written twice is an error; a key
    /// `inspect_ai` never writes is a warning.
    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        let finding = |d: Diagnostic| Finding::from_diagnostic(d, "$");
        let findings = match crate::checked(file.path, file.bytes, true) {
            Ok((log, diagnostics, unknown)) => {
                let read = crate::runs_of(file.path, &log, diagnostics, &options.scoring);
                read.diagnostics.into_iter().map(finding).chain(unknown).collect()
            }
            Err(d) => vec![finding(d)],
        };
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}
