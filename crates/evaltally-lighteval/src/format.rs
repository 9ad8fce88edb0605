//! lighteval as a format of the reading pipeline: every `details_<task>_<date>.parquet` is
//! claimed by its name and read if it is Parquet, with the run's results file, found from
//! the file's place; the results files themselves are said to be lighteval's and skipped.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::{Claim, FileValidation, Folder, Format, Input, Options, Read, Records, Shown};

use crate::table::looks_like_parquet;
use crate::{Beside, FORMAT, details_name, is_results_name, read_with, results_candidates};

/// Hugging Face lighteval details.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lighteval;

/// The one value of [`Lighteval`], for the registry.
pub static LIGHTEVAL: Lighteval = Lighteval;

/// What a results file is, said when it is found apart from its details files.
const RESULTS: &str = "lighteval's aggregate results: outcomes per sample are in the \
     details/<model>/<date>/details_<task>_<date>.parquet files that --save-details writes";

/// What the results file the pipeline found for a details file says.
fn beside(file: &Input<'_>) -> Beside {
    Beside::find_with(file.path, file.beside(), |candidate| {
        file.beside_parsed(candidate, crate::results::read_candidate)
    })
}

/// Whether the file is a lighteval results document: `results_<date>.json` with
/// `config_general` and `results`.
fn is_results(file: &Input<'_>) -> bool {
    evaltally_format::file_name(file.path).and_then(|n| n.to_str()).is_some_and(is_results_name)
        && file.has("config_general")
        && file.has("results")
}

impl Format for Lighteval {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn describe(&self) -> &'static str {
        "  lighteval details (`details/<model>/<date>/details_<task>_<date>.parquet`, model from `results/<model>/results_<date>.json`); each date a run"
    }

    fn noun(&self) -> &'static str {
        "lighteval details"
    }

    fn reads_scores(&self) -> bool {
        true
    }

    /// Details files by their names, and results files too, so that one found without its
    /// details is said to be lighteval's ([`aside`](Format::aside)).
    fn claim(&self, path: &Path) -> Claim {
        let results = || evaltally_format::file_name(path).and_then(|n| n.to_str()).is_some_and(is_results_name);
        if details_name(path).is_some() || results() { Claim::Sniff } else { Claim::No }
    }

    /// The run's results file: `results/<model>/results_<date>.json` beside the `details`
    /// folder, or the places older versions and Hub datasets keep it.
    fn beside(&self, path: &Path, folder: &Folder<'_>) -> Vec<std::path::PathBuf> {
        if details_name(path).is_none() {
            return Vec::new();
        }
        results_candidates(path, folder.names())
    }

    /// A file under a details file's name (one that is not Parquet is then an error, not a
    /// file no format knows), or a Parquet file the user named.
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        details_name(file.path).is_some() || file.named && looks_like_parquet(file.bytes)
    }

    fn aside(&self, file: &Input<'_>) -> Option<String> {
        is_results(file).then(|| RESULTS.to_string())
    }

    /// A details file's run. A results file (read here only with `--as lighteval`, which
    /// reads every file claimed) is skipped, as it is without `--as`.
    fn read(&self, file: &Input<'_>, options: &Options) -> Read {
        if is_results(file) {
            return Read { runs: Vec::new(), diagnostics: vec![Diagnostic::skipped(file.path, RESULTS)] };
        }
        let read = read_with(file.path, file.bytes, &beside(file), &options.scoring);
        Read { runs: read.runs, diagnostics: read.diagnostics }
    }

    fn records(&self, file: &Input<'_>, options: &Options) -> Records {
        if is_results(file) {
            return Records::default();
        }
        let (runs, diagnostics) = crate::records(file.path, file.bytes, &beside(file), &options.scoring);
        Records { runs, diagnostics }
    }

    fn show(&self, file: &Input<'_>, test: &str, options: &Options) -> Shown {
        if is_results(file) {
            return Shown::default();
        }
        Shown {
            details: crate::show(file.path, file.bytes, test, &beside(file), &options.scoring).into_iter().collect(),
            diagnostics: Vec::new(),
        }
    }

    /// What reading says (errors stay errors, the rest are warnings), and a warning when no
    /// results file was found: the model then comes from the folders and the metric from
    /// the file.
    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        if is_results(file) {
            return vec![FileValidation::new(file.path, FORMAT, Vec::new())];
        }
        let beside = beside(file);
        let read = read_with(file.path, file.bytes, &beside, &options.scoring);
        let mut findings: Vec<Finding> = Vec::new();
        if beside.results.is_none() && beside.problem.is_none() && details_name(file.path).is_some() {
            let looked: Vec<String> = beside.looked.iter().map(|p| format!("`{}`", p.display())).collect();
            let looked = if looked.is_empty() { "no `details` folder above it".to_string() } else { looked.join(", ") };
            findings.push(Finding::warning(
                "file",
                format!("no results file found ({looked}): the model `{}` is read from the folders", beside.model),
            ));
        }
        findings.extend(read.diagnostics.into_iter().map(|d| {
            if d.is_error() { Finding::error("file", d.message) } else { Finding::warning("file", d.message) }
        }));
        vec![FileValidation::new(file.path, FORMAT, findings)]
    }
}
