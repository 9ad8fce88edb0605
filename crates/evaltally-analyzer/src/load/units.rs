//! The units of reading: a BFCL file pair, or a report source.

use std::collections::BTreeSet;
use std::path::PathBuf;

use evaltally_bfcl::{FilePair, Scratch, layout, read_pair};
use evaltally_core::{CategoryRun, Diagnostic, Severity, TestDetail};
use evaltally_sfbench::sources::{self, Source};

use super::{Filter, LoadError};

/// One thing to read.
#[derive(Debug)]
pub(super) enum Unit {
    /// A BFCL (run, model, category) with its result and score files.
    Bfcl(FilePair),
    /// An SF-Bench or SWE-bench report, or a folder of per-instance reports.
    Report(Source),
    /// A gstack eval result file (standard or legacy).
    Gstack(PathBuf),
    /// A JUnit XML report.
    Junit(PathBuf),
}

/// What reading a unit gave.
#[derive(Debug, Default)]
pub(super) struct UnitOutcome {
    pub(super) runs: Vec<CategoryRun>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

impl Unit {
    pub(super) fn size(&self) -> u64 {
        match self {
            Unit::Bfcl(p) => p.size(),
            Unit::Report(s) => s.size(),
            Unit::Gstack(path) | Unit::Junit(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
        }
    }

    pub(super) fn read(&self, scratch: &mut Scratch) -> UnitOutcome {
        match self {
            Unit::Bfcl(pair) => {
                let out = read_pair(pair, scratch);
                UnitOutcome { runs: out.run.into_iter().collect(), diagnostics: out.diagnostics }
            }
            Unit::Report(source) => {
                let out = sources::read(source);
                UnitOutcome { runs: out.runs, diagnostics: out.diagnostics }
            }
            Unit::Gstack(path) => match evaltally_gstack::sources::read_runs(path) {
                Ok((runs, diagnostics)) => UnitOutcome { runs, diagnostics },
                Err(d) => UnitOutcome { runs: Vec::new(), diagnostics: vec![d] },
            },
            Unit::Junit(path) => match evaltally_junit::read_file(path) {
                Ok(run) => {
                    let runs = run.category_runs(&run.run_name(), junit_model(&run));
                    UnitOutcome { runs, diagnostics: run.diagnostics }
                }
                Err(e) => UnitOutcome { runs: Vec::new(), diagnostics: vec![e.to_diagnostic()] },
            },
        }
    }

    /// The unit's tests as run records. A BFCL pair gives the tests of one category,
    /// which the caller gathers by (run, model).
    pub(super) fn records(&self, scratch: &mut Scratch) -> (Vec<evaltally_core::RunRecord>, Vec<Diagnostic>) {
        match self {
            Unit::Bfcl(pair) => {
                let mut diags = Vec::new();
                let tests = evaltally_bfcl::records::pair_records(pair, scratch, &mut diags);
                let root =
                    pair.result.as_ref().or(pair.score.as_ref()).map(|p| run_root(p, &pair.model)).unwrap_or_default();
                let rec = evaltally_core::RunRecord {
                    run: pair.run.clone(),
                    model: pair.model.clone(),
                    format: "bfcl".to_string(),
                    source: root,
                    started_at: None,
                    tests,
                };
                (vec![rec], diags)
            }
            Unit::Report(source) => match evaltally_sfbench::records::records(source) {
                Ok(recs) => (recs, Vec::new()),
                Err(d) => (Vec::new(), vec![d]),
            },
            Unit::Gstack(path) => match evaltally_gstack::sources::read(path) {
                Ok((run, diags)) => (vec![evaltally_gstack::runs::record(&run)], diags),
                Err(d) => (Vec::new(), vec![d]),
            },
            Unit::Junit(path) => match evaltally_junit::read_file(path) {
                Ok(run) => (vec![run.record(&run.run_name(), junit_model(&run))], run.diagnostics),
                Err(e) => (Vec::new(), vec![e.to_diagnostic()]),
            },
        }
    }

    /// A short name that tells units apart: the file name without `.json`.
    pub(super) fn label(&self) -> String {
        let path = match self {
            Unit::Bfcl(p) => p.result.as_ref().or(p.score.as_ref()).cloned().unwrap_or_default(),
            Unit::Report(s) => s.path().to_path_buf(),
            Unit::Gstack(path) | Unit::Junit(path) => path.clone(),
        };
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        name.strip_suffix(".json").map(str::to_string).unwrap_or(name)
    }

    pub(super) fn may_hold(&self, test: &str) -> bool {
        match self {
            Unit::Bfcl(pair) => evaltally_bfcl::show::may_hold(pair, test),
            Unit::Report(_) | Unit::Gstack(_) | Unit::Junit(_) => true,
        }
    }

    pub(super) fn show(&self, test: &str) -> Result<Option<TestDetail>, Diagnostic> {
        match self {
            Unit::Bfcl(pair) => evaltally_bfcl::show::show(pair, test),
            Unit::Report(source) => sources::show(source, test),
            Unit::Gstack(path) => {
                let (run, _) = evaltally_gstack::sources::read(path)?;
                Ok(evaltally_gstack::runs::show(&run, test))
            }
            Unit::Junit(path) => {
                let run = evaltally_junit::read_file(path).map_err(|e| e.to_diagnostic())?;
                Ok(run.show(test))
            }
        }
    }
}

/// What a search of the given paths found.
pub(super) struct Discovered {
    pub(super) units: Vec<Unit>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

/// The units below `paths`. BFCL file pairs that `filter` does not keep are dropped before
/// any file is opened (reports name their model inside, so they are filtered after reading).
pub(super) fn discover(paths: &[PathBuf], filter: &Filter) -> Result<Discovered, LoadError> {
    let mut diagnostics = Vec::new();
    let mut units = Vec::new();
    let mut run_dirs = Vec::new();
    let mut roots = BTreeSet::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|source| evaltally_bfcl::BfclError::Io { path: path.clone(), source })?;
        if meta.is_file() {
            units.extend(discover_documents(path, filter, &mut diagnostics));
            continue;
        }
        let runs = layout::find_runs(path, &mut diagnostics)?;
        let before = run_dirs.len();
        for run in runs {
            let key = std::fs::canonicalize(&run.root).unwrap_or_else(|_| run.root.clone());
            if roots.insert(key) {
                run_dirs.push(run);
            }
        }
        if run_dirs.len() == before {
            units.extend(discover_documents(path, filter, &mut diagnostics));
        }
    }
    layout::disambiguate(&mut run_dirs);
    let mut pairs = Vec::new();
    for run in &run_dirs {
        pairs.extend(run.files(&mut diagnostics));
    }
    if pairs.is_empty() && units.is_empty() {
        return Err(LoadError::NothingFound { searched: paths.to_vec() });
    }
    let (kept, dropped): (Vec<FilePair>, Vec<FilePair>) =
        pairs.into_iter().partition(|p| filter.keeps(&p.model, &p.category));
    if kept.is_empty() && units.is_empty() {
        let models: BTreeSet<_> = dropped.iter().map(|p| p.model.clone()).collect();
        let categories: BTreeSet<_> = dropped.iter().map(|p| p.category.clone()).collect();
        return Err(LoadError::NothingMatched {
            models: models.into_iter().collect(),
            categories: categories.into_iter().collect(),
        });
    }
    let mut all: Vec<Unit> = kept.into_iter().map(Unit::Bfcl).collect();
    all.extend(units);
    Ok(Discovered { units: all, diagnostics })
}

/// The reports (SF-Bench, SWE-bench), gstack results and JUnit reports at or below `path`.
/// A JSON file both JSON searches reject is reported once; one that gstack reads is not
/// reported by the other.
fn discover_documents(path: &std::path::Path, filter: &Filter, diagnostics: &mut Vec<Diagnostic>) -> Vec<Unit> {
    let mut report_diags = Vec::new();
    let reports = sources::discover(path, &mut report_diags);
    let mut gstack_diags = Vec::new();
    let gstack = evaltally_gstack::sources::discover(path, filter.include_partial, &mut gstack_diags);
    let junit = evaltally_junit::discover(path, diagnostics);
    let reported: BTreeSet<PathBuf> = report_diags.iter().map(|d| d.path.clone()).collect();
    // A file another reader takes is not a broken report.
    report_diags.retain(|d| !gstack.contains(&d.path) && !junit.contains(&d.path));
    diagnostics.extend(report_diags);
    diagnostics
        .extend(gstack_diags.into_iter().filter(|d| d.severity != Severity::Error || !reported.contains(&d.path)));
    reports
        .into_iter()
        .map(Unit::Report)
        .chain(gstack.into_iter().map(Unit::Gstack))
        .chain(junit.into_iter().map(Unit::Junit))
        .collect()
}

/// A JUnit report's model: the `model` property evaltally writes, else `unknown`.
fn junit_model(run: &evaltally_junit::JunitRun) -> &str {
    run.model().unwrap_or("unknown")
}

/// The run folder of a BFCL file: the folder above the `result`/`score` folder holding the
/// model folder (or the `result-<run>` folder itself).
fn run_root(file: &std::path::Path, model: &str) -> PathBuf {
    let model_dir = file.ancestors().find(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == model));
    match model_dir.and_then(std::path::Path::parent) {
        Some(tree) if tree.file_name().is_some_and(|n| n == "result" || n == "score") => {
            tree.parent().unwrap_or(tree).to_path_buf()
        }
        Some(tree) => tree.to_path_buf(),
        None => file.parent().unwrap_or(file).to_path_buf(),
    }
}
