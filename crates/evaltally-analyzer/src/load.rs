//! Finding and reading runs, in parallel.

use std::collections::BTreeSet;
use std::path::PathBuf;

use evaltally_bfcl::{BfclError, FilePair, RunDir, Scratch, layout, read_pair, show};
use evaltally_core::{CategoryRun, Diagnostic, TestDetail};
use rayon::prelude::*;

/// Which models and categories to read; empty lists mean all.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Model names to keep.
    pub models: Vec<String>,
    /// Categories to keep.
    pub categories: Vec<String>,
}

impl Filter {
    fn keeps(&self, pair: &FilePair) -> bool {
        (self.models.is_empty() || self.models.contains(&pair.model))
            && (self.categories.is_empty() || self.categories.contains(&pair.category))
    }
}

/// Receives progress while files are read (for a progress bar). Called from worker threads.
pub trait Progress: Sync {
    /// Reading starts: this many files of this many bytes in all.
    fn start(&self, _files: u64, _bytes: u64) {}
    /// One more file pair of `bytes` bytes was read.
    fn advance(&self, _bytes: u64) {}
    /// Reading is done.
    fn finish(&self) {}
}

/// A [`Progress`] that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// Why nothing could be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A given path could not be used.
    #[error(transparent)]
    Path(#[from] BfclError),
    /// No result or score file was found below the given paths.
    #[error("no BFCL result or score files found in {}", list(searched))]
    NothingFound {
        /// The paths that were searched.
        searched: Vec<PathBuf>,
    },
    /// Files were found, but none for the requested models and categories.
    #[error("nothing matches the filter; models found: {}; categories found: {}", models.join(", "), categories.join(", "))]
    NothingMatched {
        /// Models that exist.
        models: Vec<String>,
        /// Categories that exist.
        categories: Vec<String>,
    },
}

fn list(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Everything read from the given paths.
#[derive(Debug, Default)]
pub struct Loaded {
    /// One entry per (run, model, category) that could be read, sorted by model,
    /// category, then run.
    pub runs: Vec<CategoryRun>,
    /// Warnings and errors, in a stable order.
    pub diagnostics: Vec<Diagnostic>,
    /// The runs found, in the order found.
    pub run_dirs: Vec<RunDir>,
}

/// What a search of the given paths found.
struct Discovered {
    run_dirs: Vec<RunDir>,
    /// The file pairs the filter keeps, in (run, model, category) order.
    pairs: Vec<FilePair>,
    diagnostics: Vec<Diagnostic>,
}

/// The runs below `paths` and their file pairs that `filter` keeps.
fn discover(paths: &[PathBuf], filter: &Filter) -> Result<Discovered, LoadError> {
    let mut diagnostics = Vec::new();
    let mut run_dirs: Vec<RunDir> = Vec::new();
    let mut roots = BTreeSet::new();
    for path in paths {
        for run in layout::find_runs(path, &mut diagnostics)? {
            let key = std::fs::canonicalize(&run.root).unwrap_or_else(|_| run.root.clone());
            if roots.insert(key) {
                run_dirs.push(run);
            }
        }
    }
    layout::disambiguate(&mut run_dirs);

    let mut all_pairs = Vec::new();
    for run in &run_dirs {
        all_pairs.extend(run.files(&mut diagnostics));
    }
    if all_pairs.is_empty() {
        return Err(LoadError::NothingFound { searched: paths.to_vec() });
    }
    let (pairs, dropped): (Vec<FilePair>, Vec<FilePair>) = all_pairs.into_iter().partition(|p| filter.keeps(p));
    if pairs.is_empty() {
        let models: BTreeSet<_> = dropped.iter().map(|p| p.model.clone()).collect();
        let categories: BTreeSet<_> = dropped.iter().map(|p| p.category.clone()).collect();
        return Err(LoadError::NothingMatched {
            models: models.into_iter().collect(),
            categories: categories.into_iter().collect(),
        });
    }
    Ok(Discovered { run_dirs, pairs, diagnostics })
}

/// Finds the BFCL runs below `paths` and reads every file pair that `filter` keeps.
///
/// Files are read in parallel, largest first so a few big files do not leave a core idle
/// at the end. The result does not depend on scheduling: runs and diagnostics come back
/// in (model, category, run) order.
pub fn load_bfcl(paths: &[PathBuf], filter: &Filter, progress: &dyn Progress) -> Result<Loaded, LoadError> {
    let Discovered { run_dirs, pairs, mut diagnostics } = discover(paths, filter)?;
    let sizes: Vec<u64> = pairs.par_iter().map(FilePair::size).collect();
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    progress.start(pairs.len() as u64, sizes.iter().sum());
    let mut read: Vec<(usize, evaltally_bfcl::PairOutcome)> = order
        .par_iter()
        .map_init(Scratch::default, |scratch, &i| {
            let out = read_pair(&pairs[i], scratch);
            progress.advance(sizes[i]);
            (i, out)
        })
        .collect();
    progress.finish();
    read.sort_by_key(|(i, _)| *i);

    let mut runs = Vec::with_capacity(read.len());
    for (_, out) in read {
        diagnostics.extend(out.diagnostics);
        runs.extend(out.run);
    }
    runs.sort_by(|a, b| {
        (a.model.as_str(), a.category.as_str())
            .cmp(&(b.model.as_str(), b.category.as_str()))
            .then_with(|| evaltally_core::id::natural_str_cmp(&a.run, &b.run))
    });
    Ok(Loaded { runs, diagnostics, run_dirs })
}

/// What `show` found about one test.
#[derive(Debug, Default)]
pub struct Shown {
    /// One entry per (run, model) whose files hold the test's category, in run order;
    /// tests absent from a run's result file are [`Status::NotRun`](evaltally_core::Status::NotRun).
    pub details: Vec<TestDetail>,
    /// Problems reading the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds test `id` in every run below `paths`: first in the files of its category (by
/// name), then, if it is in none of them, in every file.
pub fn show_bfcl(paths: &[PathBuf], id: &str, filter: &Filter) -> Result<Shown, LoadError> {
    let Discovered { pairs, mut diagnostics, .. } = discover(paths, filter)?;
    let (likely, rest): (Vec<&FilePair>, Vec<&FilePair>) = pairs.iter().partition(|p| show::may_hold(p, id));
    let look = |candidates: &[&FilePair], diagnostics: &mut Vec<Diagnostic>| -> Vec<TestDetail> {
        let found: Vec<_> = candidates.par_iter().map(|p| show::show(p, id)).collect();
        let mut details = Vec::new();
        for f in found {
            match f {
                Ok(Some(d)) => details.push(d),
                Ok(None) => {}
                Err(e) => diagnostics.push(e),
            }
        }
        details
    };
    let mut details = look(&likely, &mut diagnostics);
    if details.iter().all(|d| d.status == evaltally_core::Status::NotRun) {
        let elsewhere: Vec<TestDetail> =
            look(&rest, &mut diagnostics).into_iter().filter(|d| d.status != evaltally_core::Status::NotRun).collect();
        if !elsewhere.is_empty() {
            details = elsewhere;
        }
    }
    // A model none of whose runs lists the test never had it: leave its rows out.
    let models_with_test: BTreeSet<String> =
        details.iter().filter(|d| d.status != evaltally_core::Status::NotRun).map(|d| d.model.clone()).collect();
    details.retain(|d| models_with_test.contains(&d.model));
    details.sort_by(|a, b| {
        (a.model.as_str(), a.category.as_str())
            .cmp(&(b.model.as_str(), b.category.as_str()))
            .then_with(|| evaltally_core::id::natural_str_cmp(&a.run, &b.run))
    });
    Ok(Shown { details, diagnostics })
}
