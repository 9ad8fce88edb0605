//! Finding and reading runs of every format, in parallel.
//!
//! A path may be a BFCL run folder or folder of runs (any layout), an SF-Bench or SWE-bench
//! report file, a gstack eval result, or a folder of such files (including SWE-bench's
//! `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json` and gstack's
//! `~/.gstack/projects/<slug>/evals/`). Folders are searched for BFCL files first; a folder
//! without any is searched for reports and gstack results.

mod units;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use evaltally_bfcl::BfclError;
use evaltally_core::{CategoryRun, Diagnostic, RunRecord, Status, TestDetail, id};
use rayon::prelude::*;

use units::{Unit, discover};

/// Which models and categories to read (empty lists mean all), and whether to read every
/// model as one.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Model names to keep.
    pub models: Vec<String>,
    /// Categories to keep.
    pub categories: Vec<String>,
    /// Read every run as a run of one model, [`POOLED`]: for runs of different
    /// configurations of one system, or reports whose files do not name the model.
    pub pool_models: bool,
    /// Read gstack's incremental saves (`_partial-e2e.json`, `"_partial": true`) too, which
    /// are left out by default as gstack's own readers do.
    pub include_partial: bool,
}

/// The model name runs get with [`Filter::pool_models`].
pub const POOLED: &str = "all models";

impl Filter {
    fn keeps(&self, model: &str, category: &str) -> bool {
        (self.models.is_empty() || self.models.iter().any(|m| m == model))
            && (self.categories.is_empty() || self.categories.iter().any(|c| c == category))
    }
}

/// Receives progress while files are read (for a progress bar). Called from worker threads.
pub trait Progress: Sync {
    /// Reading starts: this many units (file pairs, reports) of this many bytes in all.
    fn start(&self, _units: u64, _bytes: u64) {}
    /// One more unit of `bytes` bytes was read.
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
    /// No result file or report was found below the given paths.
    #[error(
        "no BFCL result or score files, SF-Bench or SWE-bench reports, gstack results or JUnit reports found in {}",
        list(searched)
    )]
    NothingFound {
        /// The paths that were searched.
        searched: Vec<PathBuf>,
    },
    /// Runs were found, but none for the requested models and categories.
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
}

/// Finds the runs below `paths`, in every format, and reads those that `filter` keeps.
///
/// Units (BFCL file pairs, report files, folders of per-instance reports) are read in
/// parallel, largest first so a few big files do not leave a core idle at the end. The
/// result does not depend on scheduling: runs and diagnostics come back in a fixed order.
pub fn load(paths: &[PathBuf], filter: &Filter, progress: &dyn Progress) -> Result<Loaded, LoadError> {
    let found = discover(paths, filter)?;
    let mut diagnostics = found.diagnostics;
    let units = found.units;
    let sizes: Vec<u64> = units.par_iter().map(Unit::size).collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    progress.start(units.len() as u64, sizes.iter().sum());
    let mut read: Vec<(usize, units::UnitOutcome)> = order
        .par_iter()
        .map_init(evaltally_bfcl::Scratch::default, |scratch, &i| {
            let out = units[i].read(scratch);
            progress.advance(sizes[i]);
            (i, out)
        })
        .collect();
    progress.finish();
    read.sort_by_key(|(i, _)| *i);

    let mut runs = Vec::with_capacity(read.len());
    for (i, out) in read {
        diagnostics.extend(out.diagnostics);
        runs.extend(out.runs.into_iter().map(|r| (i, r)));
    }
    let all_models: BTreeSet<String> = runs.iter().map(|(_, r)| r.model.clone()).collect();
    let all_categories: BTreeSet<String> = runs.iter().map(|(_, r)| r.category.clone()).collect();
    runs.retain(|(_, r)| filter.keeps(&r.model, &r.category));
    if filter.pool_models {
        for (_, r) in &mut runs {
            POOLED.clone_into(&mut r.model);
        }
    }
    if runs.is_empty() && !all_models.is_empty() {
        return Err(LoadError::NothingMatched {
            models: all_models.into_iter().collect(),
            categories: all_categories.into_iter().collect(),
        });
    }
    let mut runs = disambiguate(runs, &units);
    runs.sort_by(|a, b| {
        (a.model.as_str(), a.category.as_str())
            .cmp(&(b.model.as_str(), b.category.as_str()))
            .then_with(|| id::natural_str_cmp(&a.run, &b.run))
    });
    Ok(Loaded { runs, diagnostics })
}

/// Two units that name the same run of the same model for the same category (two report
/// files both called `<model>.eval.json` in different folders, say) are told apart by their
/// file names: every run of such a unit is named after its file instead.
fn disambiguate(runs: Vec<(usize, CategoryRun)>, units: &[Unit]) -> Vec<CategoryRun> {
    let mut owners: BTreeMap<(&str, &str, &str), BTreeSet<usize>> = BTreeMap::new();
    for (unit, r) in &runs {
        owners.entry((&r.model, &r.run, &r.category)).or_default().insert(*unit);
    }
    let clashing: BTreeSet<usize> = owners.values().filter(|u| u.len() > 1).flatten().copied().collect();
    runs.into_iter()
        .map(|(unit, mut r)| {
            if clashing.contains(&unit) {
                r.run = units[unit].label();
            }
            r
        })
        .collect()
}

/// What `show` found about one test.
#[derive(Debug, Default)]
pub struct Shown {
    /// One entry per (run, model) whose files hold the test's category, in run order;
    /// tests absent from a run's results are [`Status::NotRun`].
    pub details: Vec<TestDetail>,
    /// Problems reading the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds test `id` in every run below `paths`. BFCL runs are searched in the files of
/// the test's category (by name) first, and in every file only if it is in none of them.
pub fn show(paths: &[PathBuf], test: &str, filter: &Filter) -> Result<Shown, LoadError> {
    let found = discover(paths, filter)?;
    let mut diagnostics = found.diagnostics;
    let (likely, rest): (Vec<&Unit>, Vec<&Unit>) = found.units.iter().partition(|u| u.may_hold(test));
    let look = |candidates: &[&Unit], diagnostics: &mut Vec<Diagnostic>| -> Vec<TestDetail> {
        let found: Vec<_> = candidates.par_iter().map(|u| u.show(test)).collect();
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
    if details.iter().all(|d| d.status == Status::NotRun) {
        let elsewhere: Vec<TestDetail> =
            look(&rest, &mut diagnostics).into_iter().filter(|d| d.status != Status::NotRun).collect();
        if !elsewhere.is_empty() {
            details = elsewhere;
        }
    }
    details.retain(|d| filter.keeps(&d.model, &d.category) || filter.categories.is_empty() && filter.models.is_empty());
    // A model none of whose runs lists the test never had it: leave its rows out.
    let models_with_test: BTreeSet<String> =
        details.iter().filter(|d| d.status != Status::NotRun).map(|d| d.model.clone()).collect();
    details.retain(|d| models_with_test.contains(&d.model));
    details.sort_by(|a, b| {
        (a.model.as_str(), a.category.as_str())
            .cmp(&(b.model.as_str(), b.category.as_str()))
            .then_with(|| id::natural_str_cmp(&a.run, &b.run))
    });
    Ok(Shown { details, diagnostics })
}

/// Runs with everything their files carry (durations, tokens, messages), for `convert`
/// and `export`.
#[derive(Debug, Default)]
pub struct Records {
    /// One record per (run, model), sorted by model then run.
    pub runs: Vec<RunRecord>,
    /// Problems reading the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the runs below `paths` as [`RunRecord`]s, in parallel. BFCL file pairs of one
/// (run, model) are gathered into one record.
pub fn records(paths: &[PathBuf], filter: &Filter) -> Result<Records, LoadError> {
    let found = discover(paths, filter)?;
    let mut diagnostics = found.diagnostics;
    let read: Vec<(Vec<RunRecord>, Vec<Diagnostic>)> =
        found.units.par_iter().map_init(evaltally_bfcl::Scratch::default, |scratch, u| u.records(scratch)).collect();
    let mut merged: BTreeMap<(String, String, String), RunRecord> = BTreeMap::new();
    for (recs, diags) in read {
        diagnostics.extend(diags);
        for r in recs {
            let key = (r.model.clone(), r.run.clone(), r.source.to_string_lossy().into_owned());
            match merged.get_mut(&key) {
                Some(m) => m.tests.extend(r.tests),
                None => {
                    merged.insert(key, r);
                }
            }
        }
    }
    let mut runs: Vec<RunRecord> = merged
        .into_values()
        .filter_map(|mut r| {
            r.tests.retain(|t| filter.keeps(&r.model, &t.category));
            if filter.pool_models {
                POOLED.clone_into(&mut r.model);
            }
            (!r.tests.is_empty()).then_some(r)
        })
        .collect();
    runs.sort_by(|a, b| a.model.cmp(&b.model).then_with(|| id::natural_str_cmp(&a.run, &b.run)));
    Ok(Records { runs, diagnostics })
}
