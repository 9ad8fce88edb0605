//! τ-bench as a format of the reading pipeline: a `*.json` list whose first entry has
//! `task_id` and `reward`, or a τ²-bench document with `info` and `simulations`.

use std::path::Path;

use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use evaltally_core::{Diagnostic, Finding};

use crate::{read_bytes, read_entries};

/// τ-bench results files.
#[derive(Debug, Clone, Copy, Default)]
pub struct TauBench;

/// The one value of [`TauBench`], for the registry.
pub static TAUBENCH: TauBench = TauBench;

impl Format for TauBench {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["tau-bench", "tau"]
    }

    fn describe(&self) -> &'static str {
        "  τ-bench results (a list of {task_id, reward, info, trial}) and τ²-bench results ({info, simulations}); each trial is a run"
    }

    fn noun(&self) -> &'static str {
        "τ-bench results"
    }

    fn claim(&self, path: &Path) -> Claim {
        if evaltally_format::json::is_json_path(path) { Claim::Sniff } else { Claim::No }
    }

    /// A τ-bench list, or a τ²-bench document: an object with `simulations` (a list) and
    /// `info` (looked at with the pipeline's scanner, nothing built).
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        evaltally_format::json::first_element_has(file.bytes, b"task_id", b"reward")
            || (file.json("simulations").is_some_and(|s| s.starts_with(b"[")) && file.has("info"))
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        read_bytes(file.path, file.bytes).map(|read| (read.runs, read.diagnostics)).into()
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        crate::records(file.path, file.bytes).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        crate::show(file.path, file.bytes, test).into()
    }

    /// What the reader refused or tolerated, and every key repeated in an object (errors).
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let finding = |d: Diagnostic| Finding::from_diagnostic(d, "$");
        let mut findings = evaltally_format::json::repeated_key_findings(file.bytes);
        match read_entries(file.path, file.bytes, false) {
            Ok(read) => findings.extend(read.diagnostics.into_iter().map(finding)),
            Err(d) => findings = vec![finding(d)],
        }
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}
