//! Finding and reading runs of every format, in parallel.
//!
//! A path may be a file or a folder of any format the registry (`evaltally-formats`)
//! lists, in any layout, mixed freely. The one walk finds the files, the formats make
//! units of them ([`evaltally_format::Registry::discover`]), and the units are read here in
//! parallel. Nothing in this module names a format.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use evaltally_cache::Cache;
use evaltally_core::{CategoryRun, Diagnostic, IdPool, RunMeta, RunRecord, Status, TestDetail, id};
use evaltally_format::{DiscoverError, Options, Registry, Scratch, Unit};
use rayon::prelude::*;

mod groups;

pub use groups::{Groups, load_groups_with_records};

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
    /// Read every file as this format (a name or alias the registry knows): `--as`.
    pub forced: Option<&'static str>,
    /// Count errored tests ([`evaltally_core::Outcome::Errored`]) as failed, a
    /// benchmark's official counting: `--errors-as fail`.
    pub errors_as_failures: bool,
    /// How scores become pass or fail (`--pass-threshold`, `--scorer`).
    pub scoring: evaltally_format::Scoring,
    /// Read files with the bytes of one read before as runs of their own
    /// (`--keep-duplicates`); by default each is a warning and is read once.
    pub keep_duplicates: bool,
    /// The formats to read: `None` for every format of this build ([`registry`]), or a
    /// registry of your own, to read a format of yours alone or beside them.
    ///
    /// ```
    /// use std::path::Path;
    /// use std::sync::OnceLock;
    /// use evaltally_analyzer::{Filter, NoProgress, load};
    /// use evaltally_core::{CategoryRun, Outcome};
    /// use evaltally_format::{Claim, Format, Input, Options, Read, Registry};
    ///
    /// /// `<run>.tally` files: one `<id> pass|fail` line per test.
    /// #[derive(Debug)]
    /// struct Tally;
    ///
    /// impl Format for Tally {
    ///     fn name(&self) -> &'static str { "tally" }
    ///     fn describe(&self) -> &'static str { "  tally files (`*.tally`)" }
    ///     fn noun(&self) -> &'static str { "tally files" }
    ///     fn claim(&self, path: &Path) -> Claim {
    ///         if path.extension().is_some_and(|e| e == "tally") { Claim::Sniff } else { Claim::No }
    ///     }
    ///     fn sniff(&self, _file: &Input<'_>, _options: &Options) -> bool { true }
    ///     fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
    ///         let mut run = CategoryRun::new(file.stem(), "acme-7b", "all");
    ///         for line in String::from_utf8_lossy(file.bytes).lines() {
    ///             if let Some((id, verdict)) = line.split_once(' ') {
    ///                 run.push(id, if verdict == "pass" { Outcome::Pass } else { Outcome::Fail }, None);
    ///             }
    ///         }
    ///         Read { runs: vec![run], diagnostics: Vec::new() }
    ///     }
    /// }
    ///
    /// static TALLY: Tally = Tally;
    /// // The built-in formats and this one.
    /// fn formats() -> &'static Registry {
    ///     static REGISTRY: OnceLock<Registry> = OnceLock::new();
    ///     REGISTRY.get_or_init(|| {
    ///         let mut formats = load::registry().formats().to_vec();
    ///         formats.push(&TALLY);
    ///         Registry::new(formats)
    ///     })
    /// }
    ///
    /// let dir = tempfile::tempdir()?;
    /// std::fs::write(dir.path().join("night-1.tally"), "a pass\nb fail\n")?;
    /// std::fs::write(dir.path().join("night-2.tally"), "a pass\nb pass\n")?;
    /// let filter = Filter { registry: Some(formats()), ..Filter::default() };
    /// let loaded = load::load(&[dir.path().to_path_buf()], &filter, &NoProgress)?;
    /// let report = evaltally_analyzer::stability::analyze(&loaded.runs);
    /// assert_eq!((report.models[0].overall.stable_pass, report.models[0].overall.flaky), (1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub registry: Option<&'static Registry>,
}

/// The model name runs get with [`Filter::pool_models`].
pub const POOLED: &str = "all models";

impl Filter {
    fn keeps(&self, model: &str, category: &str) -> bool {
        (self.models.is_empty() || self.models.iter().any(|m| m == model))
            && (self.categories.is_empty() || self.categories.iter().any(|c| c == category))
    }

    /// The formats this filter reads: its `registry`, else every format of this build.
    pub fn formats(&self) -> &'static Registry {
        self.registry.unwrap_or_else(registry)
    }

    /// The reading options this filter implies.
    pub fn options(&self) -> Options {
        Options {
            include_partial: self.include_partial,
            forced: self.forced,
            scoring: self.scoring.clone(),
            ..Options::default()
        }
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
    /// A given path could not be used, nothing was found, or `--as` named no format.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// Runs were found, but none for the requested models and categories.
    #[error("nothing matches the filter; models found: {}; categories found: {}", models.join(", "), categories.join(", "))]
    NothingMatched {
        /// Models that exist.
        models: Vec<String>,
        /// Categories that exist.
        categories: Vec<String>,
    },
}

/// The registry every loader here asks.
pub fn registry() -> &'static Registry {
    evaltally_formats::registry()
}

/// Units to read.
type Units = Vec<Box<dyn Unit>>;

/// What a search of the given paths found, with units the filter drops by their place
/// (a BFCL pair of another model) left out before any file is opened.
struct Found {
    units: Vec<Box<dyn Unit>>,
    diagnostics: Vec<Diagnostic>,
    folders: Vec<PathBuf>,
    /// The models and categories of the units left out by their place.
    pruned: Scopes,
}

/// Models and categories (of units the filter left out unread).
#[derive(Default)]
struct Scopes {
    models: BTreeSet<String>,
    categories: BTreeSet<String>,
}

fn discover(paths: &[PathBuf], filter: &Filter, cache: &Cache) -> Result<Found, LoadError> {
    // The cache keeps folder listings too: a folder unchanged since it was last walked is
    // not read again.
    let found = filter.formats().discover_with(paths, &filter.options(), cache)?;
    let (kept, dropped): (Units, Units) =
        found.units.into_iter().partition(|u| u.scope().is_none_or(|(m, c)| filter.keeps(m, c)));
    let mut diagnostics = found.diagnostics;
    said_of_unused_scoring(paths, filter, &kept, &mut diagnostics);
    let pruned = Scopes {
        models: dropped.iter().filter_map(|u| u.scope()).map(|(m, _)| m.to_string()).collect(),
        categories: dropped.iter().filter_map(|u| u.scope()).map(|(_, c)| c.to_string()).collect(),
    };
    if kept.is_empty() {
        return Err(LoadError::NothingMatched {
            models: pruned.models.into_iter().collect(),
            categories: pruned.categories.into_iter().collect(),
        });
    }
    Ok(Found { units: kept, diagnostics, folders: found.folders, pruned })
}

/// A warning when `--pass-threshold` or `--scorer` was given and no file to read records
/// scores (BFCL, SWE-bench, … record verdicts): the options change nothing.
fn said_of_unused_scoring(paths: &[PathBuf], filter: &Filter, units: &[Box<dyn Unit>], said: &mut Vec<Diagnostic>) {
    let scoring = &filter.scoring;
    let (given, they) = match (scoring.pass_threshold.is_some(), scoring.scorer.is_some()) {
        (true, true) => ("--pass-threshold and --scorer", "they choose"),
        (true, false) => ("--pass-threshold", "it chooses"),
        (false, true) => ("--scorer", "it chooses"),
        (false, false) => return,
    };
    let scored =
        units.iter().any(|u| filter.formats().find(u.format()).is_some_and(evaltally_format::Format::reads_scores));
    if !units.is_empty() && !scored {
        let path = paths.first().cloned().unwrap_or_default();
        said.push(Diagnostic::warning(
            path,
            format!(
                "{given} changed nothing: {they} what passes in files that record scores (inspect_ai, lm-eval, \
                 lighteval), and the files read record verdicts"
            ),
        ));
    }
}

/// A warning when `--pass-threshold` passed no test in the runs it judged (those whose
/// failures carry its `_below_<threshold>` label), though some failed: a threshold above
/// every score (7 where scores run from 0 to 1) fails everything, which would otherwise
/// read as a model that never passes.
fn said_of_threshold(runs: &[CategoryRun], filter: &Filter, said: &mut Vec<Diagnostic>) {
    let Some(threshold) = filter.scoring.pass_threshold else { return };
    let label = filter.scoring.fail_label("");
    let judged: Vec<&CategoryRun> =
        runs.iter().filter(|r| r.error_parts().0.iter().any(|e| e.as_str().ends_with(&label))).collect();
    if judged.is_empty() || judged.iter().any(|r| r.passed() > 0) {
        return;
    }
    let failed: usize = judged.iter().map(|r| r.failed()).sum();
    let first = judged[0].sources.first().cloned().unwrap_or_else(|| PathBuf::from(&judged[0].run));
    let runs = if judged.len() == 1 { "1 category run".to_string() } else { format!("{} category runs", judged.len()) };
    said.push(Diagnostic::warning(
        first,
        format!(
            "--pass-threshold {threshold} passed no test: all {failed} scores in {runs} are below it (most metrics \
             score from 0 to 1)"
        ),
    ));
}

/// The bytes of a unit's inputs, its own file first (`None` for one that cannot be read).
type Inputs = Vec<Option<Vec<u8>>>;

/// The one id the harness gave every run a reading holds
/// ([`evaltally_core::RunMeta::run_id`]), if they all have it.
fn one_id<'a>(mut ids: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    let first = ids.next().flatten()?;
    ids.all(|i| i == Some(first)).then(|| first.to_string())
}

/// [`one_id`] of a reading's runs.
fn reading_id(read: &evaltally_format::Read) -> Option<String> {
    one_id(read.runs.iter().map(|r| r.meta.as_ref()?.run_id.as_deref()))
}

/// The units that hold an earlier unit's run, each with that earlier unit, and a warning
/// naming both. A unit whose harness gave its run the same id and which holds the same
/// tests and outcomes is one run saved twice, whatever its bytes
/// (`inspect_ai`'s `.eval` and `.json` of one eval). Otherwise a unit whose file, and every
/// file read with it, has the bytes of an earlier unit's is one (one run saved twice under
/// two names): only units of one format whose files have one size and whose readings are
/// alike (`fingerprint`) are compared, byte by byte, so no file is read again unless it is
/// most likely a copy.
pub(crate) fn duplicates(
    units: &[Box<dyn Unit>],
    run_id: impl Fn(usize) -> Option<String>,
    fingerprint: impl Fn(usize) -> Option<u64>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<usize, usize> {
    let mut twin_of: BTreeMap<usize, usize> = BTreeMap::new();
    let mut by_id: hashbrown::HashMap<(String, u64), usize> = hashbrown::HashMap::new();
    let mut by_size: hashbrown::HashMap<(u64, &'static str), Vec<usize>> = hashbrown::HashMap::new();
    for (i, u) in units.iter().enumerate() {
        if u.source().is_none() {
            continue;
        }
        // Not keyed by the unit's format: a JSON document is claimed before its format is
        // known (an `inspect_ai` `.json` log by the unit that reads JSON documents).
        if let Some(key) = run_id(i).and_then(|id| Some((id, fingerprint(i)?))) {
            if let Some(&first) = by_id.get(&key) {
                twin_of.insert(i, first);
                continue;
            }
            by_id.insert(key, i);
        }
        if u.size() > 0 {
            by_size.entry((u.size(), u.format())).or_default().push(i);
        }
    }
    let named: BTreeSet<usize> = twin_of.keys().copied().collect();
    let mut alike: hashbrown::HashMap<(u64, &'static str, u64), Vec<usize>> = hashbrown::HashMap::new();
    for ((size, format), same) in by_size.into_iter().filter(|(_, s)| s.len() > 1) {
        for i in same {
            if let Some(f) = fingerprint(i) {
                alike.entry((size, format, f)).or_default().push(i);
            }
        }
    }
    for mut group in alike.into_values().filter(|g| g.len() > 1) {
        group.sort_unstable();
        // A unit's every input: a run saved twice copies the files read with it too (lm-eval's
        // results file beside its samples), while a rerun that answered alike (a greedy
        // model's samples, byte for byte) has its own.
        let files: Vec<(usize, Option<Inputs>)> = group
            .iter()
            .map(|&i| {
                let source = units[i].source();
                let others = units[i].inputs().into_iter().filter(|p| Some(p.as_path()) != source);
                let others: Vec<Option<Vec<u8>>> = others.map(|p| evaltally_format::file::read(&p).ok()).collect();
                let bytes = source.and_then(|p| evaltally_format::file::read(p).ok());
                (i, bytes.map(|b| std::iter::once(Some(b)).chain(others).collect()))
            })
            .collect();
        for (at, (i, bytes)) in files.iter().enumerate() {
            let Some(bytes) = bytes else { continue };
            if twin_of.contains_key(i) {
                continue;
            }
            for (j, other) in &files[at + 1..] {
                if !twin_of.contains_key(j) && other.as_ref() == Some(bytes) {
                    twin_of.insert(*j, *i);
                }
            }
        }
    }
    for (&dup, &kept) in &twin_of {
        let (Some(d), Some(k)) = (units[dup].source(), units[kept].source()) else { continue };
        let what = if named.contains(&dup) { "the same run id, tests and outcomes" } else { "the same bytes" };
        diagnostics.push(Diagnostic::warning(
            d,
            format!(
                "{what} as `{}` (one run saved twice?): read once; --keep-duplicates reads both",
                k.to_string_lossy()
            ),
        ));
    }
    twin_of
}

/// What readings need said before they are used: a unit that read nothing and said nothing
/// (an empty document) is a warning; a unit whose file has the bytes of an earlier one's is
/// a warning too, and its reading is dropped (unless `--keep-duplicates`).
fn said_of_readings(
    read: &mut [(usize, evaltally_format::Read)],
    units: &[Box<dyn Unit>],
    filter: &Filter,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<usize, usize> {
    for (u, out) in read.iter() {
        let empty = out.runs.iter().all(CategoryRun::is_empty);
        if empty && out.diagnostics.is_empty() {
            let unit = &units[*u];
            let path = unit.source().map_or_else(|| PathBuf::from(unit.label()), std::path::Path::to_path_buf);
            diagnostics.push(Diagnostic::warning(path, "holds no tests: nothing in it to analyse"));
        }
    }
    if filter.keep_duplicates {
        return BTreeMap::new();
    }
    let at: HashMap<usize, usize> = read.iter().enumerate().map(|(k, (u, _))| (*u, k)).collect();
    let reading = |u: usize| at.get(&u).map(|&k| &read[k].1).filter(|r| !r.runs.is_empty());
    let twins = duplicates(units, |u| reading(u).and_then(reading_id), |u| reading(u).map(reading_print), diagnostics);
    for dup in twins.keys() {
        if let Some(&k) = at.get(dup) {
            read[k].1 = evaltally_format::Read::default();
        }
    }
    twins
}

/// A digest of the tests a reading holds and their outcomes: what the file holds, whatever
/// its name makes of the run, model and category (a format may take them from it).
fn reading_print(read: &evaltally_format::Read) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for r in &read.runs {
        r.scored.hash(&mut h);
        for t in r.tests() {
            (t.id, t.outcome as u8, t.error_type.map(evaltally_core::ErrorType::as_str)).hash(&mut h);
        }
    }
    h.finish()
}

/// [`reading_print`] of records.
fn records_print(records: &evaltally_format::Records) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for r in &records.runs {
        for t in &r.tests {
            (&t.id, t.outcome.map(|o| o as u8), &t.error_type).hash(&mut h);
        }
    }
    h.finish()
}

/// Everything read from the given paths.
#[derive(Debug, Default)]
pub struct Loaded {
    /// One entry per (run, model, category) that could be read, sorted by model,
    /// category, then run.
    pub runs: Vec<CategoryRun>,
    /// Warnings and errors, in a stable order.
    pub diagnostics: Vec<Diagnostic>,
    /// The folders the walk listed below the paths given, sorted (for a watcher: nothing
    /// else lists them).
    pub folders: Vec<PathBuf>,
}

/// Finds the runs below `paths`, in every format, and reads those that `filter` keeps.
///
/// Units (BFCL file pairs, report files, folders of per-instance reports) are read in
/// parallel, largest first so a few big files do not leave a core idle at the end. The
/// result does not depend on scheduling: runs and diagnostics come back in a fixed order.
pub fn load(paths: &[PathBuf], filter: &Filter, progress: &dyn Progress) -> Result<Loaded, LoadError> {
    load_cached(paths, filter, progress, &Cache::disabled())
}

/// [`load`], with each unit's reading taken from `cache` when its files are unchanged (and
/// stored there when they are read). The result is the same as [`load`]'s.
pub fn load_cached(
    paths: &[PathBuf],
    filter: &Filter,
    progress: &dyn Progress,
    cache: &Cache,
) -> Result<Loaded, LoadError> {
    let found = discover(paths, filter, cache)?;
    let options = filter.options();
    let read = read_units(&found.units, progress, |unit, scratch| {
        let mut read = cache.read(unit, scratch, &options);
        share_ids(&mut read.runs, scratch);
        read
    });
    // What was read is stored while the runs are lined up and analysed.
    cache.write_behind();
    let finished =
        finish_loaded(found.diagnostics, &found.units, &found.pruned, read.into_iter().enumerate().collect(), filter)?;
    Ok(Loaded { folders: found.folders, ..finished.loaded })
}

/// [`load_cached`] and [`records_cached`] from one reading of each unit (for `compare`,
/// which needs outcomes and then cost and tokens): every file is opened once, and a unit
/// whose two readings are both stored is not opened at all. The records' diagnostics are
/// only those of reading them; discovery's are in the [`Loaded`].
pub fn load_with_records(
    paths: &[PathBuf],
    filter: &Filter,
    progress: &dyn Progress,
    cache: &Cache,
) -> Result<(Loaded, Records), LoadError> {
    let found = discover(paths, filter, cache)?;
    let (read, records) = split(read_both(&found.units, filter, progress, cache));
    let finished = finish_loaded(found.diagnostics, &found.units, &found.pruned, read, filter)?;
    let loaded = Loaded { folders: found.folders, ..finished.loaded };
    Ok((loaded, finish_records(Vec::new(), &found.units, records, filter)))
}

/// One run's record as [`load_reduced`] hands it over: named as the runs of the
/// [`Loaded`] are, with what `reduce` made of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced<T> {
    /// The run, named as the [`Loaded`]'s runs name it.
    pub run: String,
    /// The model ([`POOLED`] when the filter pools models).
    pub model: String,
    /// What `reduce` kept of the record.
    pub value: T,
}

/// [`load_with_records`] for callers that keep only a little of each record: every unit's
/// records are handed to `reduce` in the worker that read them (tests of the categories the
/// filter keeps, errored ones failed with `--errors-as fail`) and dropped there, so no more
/// than one unit's records are held per worker. A unit read as twins of another (a
/// duplicate file) gives nothing. BFCL's file pairs give one record per (run, model,
/// category), so one run may come in several pieces; they are in model, then natural run
/// order.
///
/// ```
/// use evaltally_analyzer::{Filter, NoProgress, load};
/// let paths = [std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/bfcl/v4")];
/// let cache = evaltally_cache::Cache::disabled();
/// let (loaded, failed) = load::load_reduced(&paths, &Filter::default(), &NoProgress, &cache, |record| {
///     record.tests.iter().filter(|t| t.outcome == Some(evaltally_core::Outcome::Fail)).count()
/// })?;
/// let fails: usize = loaded.runs.iter().flat_map(|r| r.tests()).filter(|t| t.outcome == evaltally_core::Outcome::Fail).count();
/// assert_eq!(failed.iter().map(|r| r.value).sum::<usize>(), fails);
/// # Ok::<(), evaltally_analyzer::LoadError>(())
/// ```
pub fn load_reduced<T: Send>(
    paths: &[PathBuf],
    filter: &Filter,
    progress: &dyn Progress,
    cache: &Cache,
    reduce: impl Fn(&RunRecord) -> T + Sync,
) -> Result<(Loaded, Vec<Reduced<T>>), LoadError> {
    let found = discover(paths, filter, cache)?;
    let options = filter.options();
    let both = read_units(&found.units, progress, |unit, scratch| {
        let (mut read, records) = cache.read_both(unit, scratch, &options);
        share_ids(&mut read.runs, scratch);
        let reduced: Vec<Reduced<T>> = records
            .runs
            .into_iter()
            .filter_map(|r| filtered_record(r, filter))
            .map(|r| Reduced { value: reduce(&r), run: r.run, model: r.model })
            .collect();
        (read, reduced)
    });
    cache.write_behind();
    let (read, reduced): (Vec<_>, Vec<_>) = both.into_iter().enumerate().map(|(i, (r, d))| ((i, r), (i, d))).unzip();
    let finished = finish_loaded(found.diagnostics, &found.units, &found.pruned, read, filter)?;
    let mut out: Vec<Reduced<T>> = Vec::new();
    for (unit, pieces) in reduced {
        if finished.twins.contains_key(&unit) {
            continue;
        }
        for mut piece in pieces {
            if let Some(name) = finished.renames.get(&(unit, piece.run.clone())) {
                piece.run.clone_from(name);
            }
            out.push(piece);
        }
    }
    out.sort_by(|a, b| a.model.cmp(&b.model).then_with(|| id::natural_str_cmp(&a.run, &b.run)));
    Ok((Loaded { folders: found.folders, ..finished.loaded }, out))
}

/// Both readings of every unit ([`Cache::read_both`]), runs sharing ids; what was read is
/// stored while the caller lines the runs up.
fn read_both(
    units: &[Box<dyn Unit>],
    filter: &Filter,
    progress: &dyn Progress,
    cache: &Cache,
) -> Vec<(evaltally_format::Read, evaltally_format::Records)> {
    let options = filter.options();
    let both = read_units(units, progress, |unit, scratch| {
        let (mut read, records) = cache.read_both(unit, scratch, &options);
        share_ids(&mut read.runs, scratch);
        (read, records)
    });
    cache.write_behind();
    both
}

/// Readings as [`finish_loaded`] (each with its unit's index) and [`finish_records`] take them.
fn split(
    both: Vec<(evaltally_format::Read, evaltally_format::Records)>,
) -> (Vec<(usize, evaltally_format::Read)>, Vec<evaltally_format::Records>) {
    both.into_iter().enumerate().map(|(i, (read, records))| ((i, read), records)).unzip()
}

/// Lets each run share the ids of the run its worker read last in its category, when they
/// are the same (`IdPool`): what every run is held with until the analysis shrinks to one
/// copy of each category's ids per worker, and lining runs up compares pointers.
fn share_ids(runs: &mut [CategoryRun], scratch: &mut Scratch) {
    let pool = scratch.slot::<IdPool>();
    for run in runs {
        pool.share(run);
    }
}

/// Reads every unit with `read`, in parallel, largest first so a few big units do not leave
/// a core idle at the end; the results come back in the units' order.
pub(crate) fn read_units<T: Send>(
    units: &[Box<dyn Unit>],
    progress: &dyn Progress,
    read: impl Fn(&dyn Unit, &mut Scratch) -> T + Sync,
) -> Vec<T> {
    let sizes: Vec<u64> = units.iter().map(|u| u.size()).collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    progress.start(units.len() as u64, sizes.iter().sum());
    // One worker per thread, each taking the next unit in that order until none is left
    // (none waits while another has a long stretch left), with one `Scratch` for all the
    // units it reads: its buffers keep the size the largest file gave them, and its
    // `IdPool` sees every run the worker read before.
    let next = AtomicUsize::new(0);
    let workers = rayon::current_num_threads().clamp(1, order.len().max(1));
    let done: Vec<Vec<(usize, T)>> = (0..workers)
        .into_par_iter()
        .map(|_| {
            let mut scratch = Scratch::default();
            let mut out = Vec::new();
            while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                out.push((i, read(units[i].as_ref(), &mut scratch)));
                progress.advance(sizes[i]);
            }
            out
        })
        .collect();
    let mut out: Vec<(usize, T)> = done.into_iter().flatten().collect();
    progress.finish();
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, value)| value).collect()
}

/// What [`finish_loaded`] made: the runs, and how it named them and which units it left out.
struct Finished {
    loaded: Loaded,
    /// The new name of each (unit, run name) renamed ([`run_names`]).
    renames: HashMap<(usize, String), String>,
    /// Units left out as copies of another ([`duplicates`]).
    twins: BTreeMap<usize, usize>,
}

/// The [`Loaded`] the readings of `units` make (`read` holds each unit's index and reading):
/// runs kept, pooled and counted as `filter` says, told apart and sorted.
fn finish_loaded(
    mut diagnostics: Vec<Diagnostic>,
    units: &[Box<dyn Unit>],
    pruned: &Scopes,
    read: Vec<(usize, evaltally_format::Read)>,
    filter: &Filter,
) -> Result<Finished, LoadError> {
    let mut read = read;
    let twins = said_of_readings(&mut read, units, filter, &mut diagnostics);
    // The runs, and beside them the unit each came from: thousands of category runs are
    // moved once into place here, then only swapped (no second copy of the list).
    let count = read.iter().map(|(_, out)| out.runs.len()).sum();
    let mut runs: Vec<CategoryRun> = Vec::with_capacity(count);
    let mut unit_of: Vec<usize> = Vec::with_capacity(count);
    for (i, out) in read {
        diagnostics.extend(out.diagnostics);
        unit_of.extend(std::iter::repeat_n(i, out.runs.len()));
        runs.extend(out.runs);
    }
    drop_read_beside(&mut diagnostics, units);
    split_setups(&mut runs, &mut diagnostics);
    let kept = |r: &CategoryRun| {
        filter.keeps(&r.model, &r.category) || setup_of(r).is_some_and(|(base, _)| filter.keeps(&r.model, base))
    };
    // Nothing kept, though runs were read or left unread for the filter, and no unit read
    // was one the filter chose by its place: the filter is why (a model's name mistyped),
    // whatever else was found and not read.
    let pruned_some =
        (!pruned.models.is_empty() || !pruned.categories.is_empty()) && !units.iter().any(|u| u.scope().is_some());
    if (!runs.is_empty() || pruned_some) && !runs.iter().any(kept) {
        let mut models: BTreeSet<&str> = runs.iter().map(|r| r.model.as_str()).collect();
        let mut categories: BTreeSet<&str> = runs.iter().map(|r| r.category.as_str()).collect();
        models.extend(pruned.models.iter().map(String::as_str));
        categories.extend(pruned.categories.iter().map(String::as_str));
        return Err(LoadError::NothingMatched {
            models: models.into_iter().map(str::to_string).collect(),
            categories: categories.into_iter().map(str::to_string).collect(),
        });
    }
    if !runs.iter().all(kept) {
        (runs, unit_of) = runs.into_iter().zip(unit_of).filter(|(r, _)| kept(r)).unzip();
    }
    said_of_threshold(&runs, filter, &mut diagnostics);
    for r in &mut runs {
        if filter.pool_models {
            POOLED.clone_into(&mut r.model);
        }
        if filter.errors_as_failures {
            r.errors_as_failures();
        }
    }
    let (names, joined) = file_names_joined(units, filter.formats());
    diagnostics.extend(joined);
    let keys: Vec<RunKey<'_>> =
        runs.iter().zip(&unit_of).map(|(r, &u)| (u, r.model.as_str(), r.run.as_str(), r.category.as_str())).collect();
    let renames = run_names(&keys, units, &names);
    drop(keys);
    if !renames.is_empty() {
        for (r, u) in runs.iter_mut().zip(&unit_of) {
            if let Some(name) = renames.get(&(*u, r.run.clone())) {
                r.run.clone_from(name);
            }
        }
    }
    join_pieces(&mut runs, &unit_of);
    sort_runs(&mut runs);
    said_of_test_sets(&runs, &mut diagnostics);
    Ok(Finished { loaded: Loaded { runs, diagnostics, folders: Vec::new() }, renames, twins })
}

/// Gives the category runs of a run read from several units (gstack's shards, a file each)
/// what the run says about itself as a whole ([`RunMeta::joined`]), where each file's
/// metadata speaks for its piece alone (its cost only for its own tests). A category's own
/// fields (its prompts' set and setup) stay its own.
fn join_pieces(runs: &mut [CategoryRun], unit_of: &[usize]) {
    // Per run, the units it was read from, each with the metadata of its first category run.
    let mut pieces: Vec<Vec<(usize, Arc<RunMeta>)>> = Vec::new();
    let mut group_of: Vec<usize> = Vec::with_capacity(runs.len());
    {
        let mut at: hashbrown::HashMap<(&str, &str), usize> = hashbrown::HashMap::new();
        for (r, &u) in runs.iter().zip(unit_of) {
            let g = *at.entry((r.model.as_str(), r.run.as_str())).or_insert_with(|| {
                pieces.push(Vec::new());
                pieces.len() - 1
            });
            group_of.push(g);
            if let Some(m) = &r.meta
                && !pieces[g].iter().any(|(v, _)| *v == u)
            {
                pieces[g].push((u, Arc::clone(m)));
            }
        }
    }
    let joined: Vec<Option<RunMeta>> = pieces
        .iter()
        .map(|p| (p.len() > 1).then(|| RunMeta::joined(&p.iter().map(|(_, m)| m.as_ref()).collect::<Vec<_>>())))
        .collect();
    if joined.iter().all(Option::is_none) {
        return;
    }
    // One new value per metadata replaced, the old kept alive while its address is a key.
    let mut made: HashMap<*const RunMeta, (Arc<RunMeta>, Arc<RunMeta>)> = HashMap::new();
    for (r, g) in runs.iter_mut().zip(group_of) {
        let Some(whole) = &joined[g] else { continue };
        let Some(own) = r.meta.take() else { continue };
        let (_, new) = made.entry(Arc::as_ptr(&own)).or_insert_with(|| {
            let new = RunMeta { test_set: own.test_set.clone(), setup: own.setup.clone(), ..whole.clone() };
            (Arc::clone(&own), Arc::new(new))
        });
        r.meta = Some(Arc::clone(new));
    }
}

/// Reads each setup as a category of its own where a model's runs of one category were
/// run with different setups ([`evaltally_core::RunMeta::setup`]: lm-eval's few-shot
/// count): `bias (0-shot)` and `bias (5-shot)`, not repeats of each other, so no test flips
/// between them. A category whose runs share one setup (or record none) keeps its name. A
/// warning per split category, about the first run of the second setup.
fn split_setups(runs: &mut [CategoryRun], diagnostics: &mut Vec<Diagnostic>) {
    /// A setup and the index of its runs.
    type Setup = (String, Vec<usize>);
    let setup = |r: &CategoryRun| r.meta.as_ref().and_then(|m| m.setup.clone());
    // Each (model, category)'s setups in the order first met.
    let mut by_group: BTreeMap<(&str, &str), Vec<Setup>> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        let Some(s) = setup(r) else { continue };
        let setups = by_group.entry((&r.model, &r.category)).or_default();
        match setups.iter_mut().find(|(known, _)| *known == s) {
            Some((_, list)) => list.push(i),
            None => setups.push((s, vec![i])),
        }
    }
    let mut renames: Vec<(usize, String)> = Vec::new();
    for ((model, category), mut setups) in by_group.into_iter().filter(|(_, setups)| setups.len() > 1) {
        let first = setups.iter().map(|(_, list)| list[0]).min().unwrap_or(0);
        setups.sort_by(|a, b| id::natural_str_cmp(&a.0, &b.0));
        // About the first run of a setup other than the first met.
        let second = &runs[setups.iter().map(|(_, list)| list[0]).filter(|&i| i != first).min().unwrap_or(first)];
        let path = second.sources.first().cloned().unwrap_or_else(|| PathBuf::from(&second.run));
        let names: Vec<String> = setups.iter().map(|(s, _)| format!("`{category} ({s})`")).collect();
        diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "the runs of `{category}` by `{model}` were run with {} setups, so they are not repeats of each \
                 other: each setup is read as a category of its own, {}",
                setups.len(),
                evaltally_format::check::and_list(&names)
            ),
        ));
        for (s, list) in setups {
            renames.extend(list.into_iter().map(|i| (i, format!("{category} ({s})"))));
        }
    }
    for (i, name) in renames {
        runs[i].category = name;
    }
}

/// The category a run split by [`split_setups`] had, and its setup: `None` for a run not split.
fn setup_of(r: &CategoryRun) -> Option<(&str, &str)> {
    let setup = r.meta.as_ref()?.setup.as_deref()?;
    let base = r.category.strip_suffix(')')?.strip_suffix(setup)?.strip_suffix(" (")?;
    Some((base, setup))
}

/// A warning for each category whose runs record different test sets
/// ([`evaltally_core::RunMeta::test_set`]): a dataset changed between them, so an id names
/// one test in some runs and another in the rest, and the runs are not repeats of each
/// other. Said once per category, about the first run of the second set; the runs
/// (sorted) are read as they are.
fn said_of_test_sets(runs: &[CategoryRun], diagnostics: &mut Vec<Diagnostic>) {
    let mut by_category: BTreeMap<&str, Vec<(&str, &CategoryRun)>> = BTreeMap::new();
    for r in runs {
        if let Some(set) = r.meta.as_ref().and_then(|m| m.test_set.as_deref()) {
            by_category.entry(&r.category).or_default().push((set, r));
        }
    }
    for (category, sets) in by_category {
        // Each set in the order first met, with its runs.
        let mut seen: Vec<(&str, Vec<&CategoryRun>)> = Vec::new();
        for (set, run) in sets {
            match seen.iter_mut().find(|(s, _)| *s == set) {
                Some((_, list)) => list.push(run),
                None => seen.push((set, vec![run])),
            }
        }
        if seen.len() < 2 {
            continue;
        }
        let listed: Vec<String> = seen
            .iter()
            .map(|(set, list)| {
                let runs = if list.len() == 1 { "1 run".to_string() } else { format!("{} runs", list.len()) };
                format!("`{set}`: {runs}, first `{}` of `{}`", list[0].run, list[0].model)
            })
            .collect();
        let second = seen[1].1[0];
        let path = second.sources.first().cloned().unwrap_or_else(|| PathBuf::from(&second.run));
        diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "the runs of `{category}` were drawn from {} different test sets ({}): a test id may name another test \
                 in each, so these runs are not repeats of each other",
                seen.len(),
                listed.join("; ")
            ),
        ));
    }
}

/// Adds runs read from elsewhere (a PostgreSQL store) to `loaded`, kept, pooled and
/// counted by `filter` as [`load_cached`] treats the runs it reads, and in its order.
pub fn add_runs(loaded: &mut Loaded, runs: Vec<CategoryRun>, filter: &Filter) {
    for mut r in runs {
        if !filter.keeps(&r.model, &r.category) {
            continue;
        }
        if filter.pool_models {
            POOLED.clone_into(&mut r.model);
        }
        if filter.errors_as_failures {
            r.errors_as_failures();
        }
        loaded.runs.push(r);
    }
    sort_runs(&mut loaded.runs);
}

/// Sorts category runs by model, category, then run name in natural order, as a stable
/// sort on all three would. The few distinct (model, category) pairs are sorted, and the
/// runs placed by theirs in one pass. Units are read in path order, which is usually the
/// natural order of their run names: each (model, category) group is only checked, and
/// sorted when it is not in order, which saves most of the name comparisons at thousands
/// of runs.
fn sort_runs(runs: &mut [CategoryRun]) {
    let (groups, group_of) = {
        let mut index: hashbrown::HashMap<(&str, &str), u32> = hashbrown::HashMap::new();
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let group_of: Vec<u32> = runs
            .iter()
            .map(|r| {
                let key = (r.model.as_str(), r.category.as_str());
                *index.entry(key).or_insert_with(|| {
                    keys.push(key);
                    u32::try_from(keys.len() - 1).unwrap_or(u32::MAX)
                })
            })
            .collect();
        let mut order: Vec<u32> = (0..u32::try_from(keys.len()).unwrap_or(u32::MAX)).collect();
        order.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
        let mut rank = vec![0u32; keys.len()];
        for (r, &k) in order.iter().enumerate() {
            rank[k as usize] = u32::try_from(r).unwrap_or(u32::MAX);
        }
        (keys.len(), group_of.into_iter().map(|k| rank[k as usize]).collect::<Vec<u32>>())
    };
    // Where each group starts, then each run in its group's next place (a counting sort,
    // stable).
    let mut start = vec![0usize; groups + 1];
    for &g in &group_of {
        start[g as usize + 1] += 1;
    }
    for g in 0..groups {
        start[g + 1] += start[g];
    }
    // Each run's place, then the runs swapped into them along the permutation's cycles.
    let mut place: Vec<usize> = group_of
        .iter()
        .map(|&g| {
            let at = start[g as usize];
            start[g as usize] += 1;
            at
        })
        .collect();
    for i in 0..runs.len() {
        while place[i] != i {
            let to = place[i];
            runs.swap(i, to);
            place.swap(i, to);
        }
    }
    for group in runs.chunk_by_mut(|a, b| a.model == b.model && a.category == b.category) {
        if !group.is_sorted_by(|a, b| id::natural_str_cmp(&a.run, &b.run).is_le()) {
            group.sort_by(|a, b| id::natural_str_cmp(&a.run, &b.run));
        }
    }
}

/// Adds run records read from elsewhere (a PostgreSQL store) to `records`, as
/// [`records_cached`] treats the ones it reads.
pub fn add_records(records: &mut Records, runs: Vec<RunRecord>, filter: &Filter) {
    records.runs.extend(runs.into_iter().filter_map(|r| filtered_record(r, filter)));
    records.runs.sort_by(|a, b| a.model.cmp(&b.model).then_with(|| id::natural_str_cmp(&a.run, &b.run)));
}

/// Leaves out the notes (`not read: …`) about files another unit reads beside its own (an
/// lm-eval results file naming the model of the samples beside it, a HELM run spec), and
/// the facts that no format claims such a file by its name: no format takes them alone,
/// and they are read all the same. A unit whose own file was set aside reads nothing
/// beside it, so what it would have read is still said.
pub(crate) fn drop_read_beside(diagnostics: &mut Vec<Diagnostic>, units: &[Box<dyn Unit>]) {
    let said = |d: &Diagnostic| d.is_note() || d.is_fact_not_read();
    if !diagnostics.iter().any(said) {
        return;
    }
    let set_aside: std::collections::HashSet<PathBuf> =
        diagnostics.iter().filter(|d| d.set_aside().is_some()).map(|d| d.path.clone()).collect();
    let mut beside: std::collections::HashSet<PathBuf> = std::collections::HashSet::new();
    for unit in units {
        let own = unit.source();
        if own.is_some_and(|p| set_aside.contains(p)) {
            continue;
        }
        beside.extend(unit.inputs().into_iter().filter(|p| Some(p.as_path()) != own));
    }
    diagnostics.retain(|d| !(said(d) && beside.contains(&d.path)));
}

/// One (run, model, category) a unit read, as naming looks at it: the unit's index, the
/// model, the run's name and the category.
type RunKey<'a> = (usize, &'a str, &'a str, &'a str);

/// Per unit, the name the naming rules give the runs it names after its file: units whose
/// files have generic names (`junit.xml`, `evaluation_report.json`) are named after their
/// folders ([`evaltally_format::naming`]), and the pieces of one run its format's writer
/// split over several files take the run's name ([`evaltally_format::Format::run_names`]).
fn file_names(units: &[Box<dyn Unit>], formats: &Registry) -> Vec<Option<String>> {
    file_names_joined(units, formats).0
}

/// [`file_names`], and a fact per run that a format's writer split over several files
/// (said with `--verbose`): which files were read as its pieces.
fn file_names_joined(units: &[Box<dyn Unit>], formats: &Registry) -> (Vec<Option<String>>, Vec<Diagnostic>) {
    let files: Vec<Option<&std::path::Path>> = units.iter().map(|u| u.source()).collect();
    let mut names = evaltally_format::naming::file_run_names(&files);
    // The runs a writer splits over several files: every format is asked about every file
    // (which format reads a sniffed file is only known once it is read), and names only
    // those its writer's places tell.
    let (at, paths): (Vec<usize>, Vec<&std::path::Path>) =
        files.iter().enumerate().filter_map(|(i, f)| f.map(|f| (i, f))).unzip();
    let mut joined: BTreeMap<(String, &'static str), Vec<usize>> = BTreeMap::new();
    for format in formats.formats() {
        for (&i, name) in at.iter().zip(format.run_names(&paths)) {
            if let Some(name) = name {
                joined.entry((name.clone(), format.noun())).or_default().push(i);
                names[i] = Some(name);
            }
        }
    }
    let facts = joined
        .into_iter()
        .map(|((name, noun), pieces)| {
            let listed: Vec<String> =
                pieces.iter().filter_map(|&i| files[i]).map(|f| f.display().to_string()).collect();
            let first = files[pieces[0]].map(std::path::Path::to_path_buf).unwrap_or_default();
            Diagnostic::info(
                first,
                format!(
                    "read with {} more {} as one run, `{name}` ({noun}: the writer splits a run over several files): {}",
                    listed.len() - 1,
                    if listed.len() == 2 { "file" } else { "files" },
                    evaltally_core::text::first_of(&listed[1..], 3)
                ),
            )
        })
        .collect();
    (names, facts)
}

/// The new name of each (unit, run name) that needs one, so that every command names runs
/// alike (runs, records and `show`'s details all go through here):
///
/// 1. a run its format named after a file with a generic name takes the name the rule gives
///    that file (`names`, from [`file_names`]), keeping what follows `#` (`#epoch-2`);
/// 2. two units that then name the same run of the same model for the same category (two
///    report files both called `<model>.eval.json` in different folders, say) are told
///    apart by their file names: every run of such a unit is named after its file instead,
///    keeping what follows `#`, so the runs one file holds stay apart. Files with the same
///    name are told apart by their folders (`a/log.eval`, `b/log.eval`).
fn run_names(
    keys: &[RunKey<'_>],
    units: &[Box<dyn Unit>],
    names: &[Option<String>],
) -> HashMap<(usize, String), String> {
    let mut out: HashMap<(usize, String), String> = HashMap::new();
    let mut named: Vec<std::borrow::Cow<'_, str>> = Vec::with_capacity(keys.len());
    for &(unit, _, run, _) in keys {
        let new = match (&names[unit], units[unit].source()) {
            (Some(name), Some(file)) => evaltally_format::naming::renamed(run, file, name),
            _ => None,
        };
        match new {
            Some(new) => {
                out.entry((unit, run.to_string())).or_insert_with(|| new.clone());
                named.push(new.into());
            }
            None => named.push(run.into()),
        }
    }
    let clashing = clashing_units(
        keys.iter().zip(&named).map(|(&(unit, model, _, category), run)| (unit, model, run.as_ref(), category)),
    );
    if clashing.is_empty() {
        return out;
    }
    let labels = unit_names(&clashing, units);
    for (&(unit, _, run, _), now) in keys.iter().zip(&named) {
        if let Some(label) = labels.get(&unit) {
            let name = match now.find('#') {
                Some(at) => format!("{label}{}", &now[at..]),
                None => label.clone(),
            };
            out.insert((unit, run.to_string()), name);
        }
    }
    out
}

/// The units that name the same run of the same model for the same category as another
/// unit does.
fn clashing_units<'a>(keys: impl Iterator<Item = RunKey<'a>> + Clone) -> BTreeSet<usize> {
    // Per (model, run): the first unit that has it, and whether another one does. A unit's
    // runs come together and mostly share one name, so a run like the one before it from
    // the same unit is not looked up again.
    let mut shared: hashbrown::HashMap<(&str, &str), (usize, bool)> = hashbrown::HashMap::new();
    let mut last: Option<(&str, &str, usize)> = None;
    for (unit, model, run, _) in keys.clone() {
        if last == Some((model, run, unit)) {
            continue;
        }
        last = Some((model, run, unit));
        let (first, more) = shared.entry((model, run)).or_insert((unit, false));
        *more |= *first != unit;
    }
    let mut clashing: BTreeSet<usize> = BTreeSet::new();
    if shared.values().all(|&(_, more)| !more) {
        return clashing;
    }
    // Per (model, run, category) of a run name several units have: the first unit that has
    // it, and whether another one does.
    let in_several = |model: &str, run: &str| shared.get(&(model, run)).is_some_and(|s| s.1);
    let mut owners: hashbrown::HashMap<(&str, &str, &str), (usize, bool)> = hashbrown::HashMap::new();
    for (unit, model, run, category) in keys.clone().filter(|k| in_several(k.1, k.2)) {
        let (first, clash) = owners.entry((model, run, category)).or_insert((unit, false));
        *clash |= *first != unit;
    }
    for (unit, model, run, category) in keys.filter(|k| in_several(k.1, k.2)) {
        if let Some(&(first, true)) = owners.get(&(model, run, category)) {
            clashing.extend([first, unit]);
        }
    }
    clashing
}

/// A distinct name for each of `units`: its label, with as many of its folders before it as
/// it takes to tell it from the others (then a number, for units without a file).
fn unit_names(units_at: &BTreeSet<usize>, units: &[Box<dyn Unit>]) -> HashMap<usize, String> {
    let named = |u: usize, folders: usize| -> String {
        let label = units[u].label();
        let Some(path) = units[u].source() else { return label };
        let parents: Vec<String> = path
            .parent()
            .into_iter()
            .flat_map(std::path::Path::components)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let kept = &parents[parents.len().saturating_sub(folders)..];
        if kept.is_empty() { label } else { format!("{}/{label}", kept.join("/")) }
    };
    let mut out: HashMap<usize, String> = units_at.iter().map(|&u| (u, named(u, 0))).collect();
    for folders in 1..=8 {
        let mut seen: HashMap<&String, usize> = HashMap::new();
        for name in out.values() {
            *seen.entry(name).or_default() += 1;
        }
        let repeated: Vec<usize> = out.iter().filter(|(_, n)| seen[n] > 1).map(|(&u, _)| u).collect();
        if repeated.is_empty() {
            return out;
        }
        for u in repeated {
            out.insert(u, named(u, folders));
        }
    }
    // Still equal (units without a file): number them in unit order.
    let mut count: HashMap<String, usize> = HashMap::new();
    for &u in units_at {
        let name = out[&u].clone();
        let n = count.entry(name.clone()).or_default();
        *n += 1;
        if *n > 1 {
            out.insert(u, format!("{name} ({n})"));
        }
    }
    out
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
    let found = discover(paths, filter, &Cache::disabled())?;
    let options = filter.options();
    let mut diagnostics = found.diagnostics;
    let units = &found.units;
    let (likely, rest): (Vec<usize>, Vec<usize>) = (0..units.len()).partition(|&u| units[u].may_hold(test));
    let look = |candidates: &[usize], diagnostics: &mut Vec<Diagnostic>| -> Vec<(usize, TestDetail)> {
        let found: Vec<_> = candidates
            .par_iter()
            .map_init(Scratch::default, |scratch, &u| (u, units[u].show(scratch, test, &options)))
            .collect();
        let mut details = Vec::new();
        for (u, f) in found {
            details.extend(f.details.into_iter().map(|d| (u, d)));
            diagnostics.extend(f.diagnostics);
        }
        details
    };
    let mut details = look(&likely, &mut diagnostics);
    drop_read_beside(&mut diagnostics, units);
    if filter.errors_as_failures {
        for (_, d) in details.iter_mut().filter(|(_, d)| d.status == Status::Errored) {
            d.status = Status::Failed;
        }
    }
    if details.iter().all(|(_, d)| d.status == Status::NotRun) {
        let elsewhere: Vec<(usize, TestDetail)> =
            look(&rest, &mut diagnostics).into_iter().filter(|(_, d)| d.status != Status::NotRun).collect();
        if !elsewhere.is_empty() {
            details = elsewhere;
        }
    }
    if !filter.keep_duplicates {
        let twins = copies_shown(&details, units, &options, &mut diagnostics);
        details.retain(|(u, _)| !twins.contains_key(u));
    }
    // Runs named as every command names them.
    let renames = {
        let model = |d: &TestDetail| if filter.pool_models { POOLED.to_string() } else { d.model.clone() };
        let models: Vec<String> = details.iter().map(|(_, d)| model(d)).collect();
        let keys: Vec<RunKey<'_>> = details
            .iter()
            .zip(&models)
            .map(|((u, d), m)| (*u, m.as_str(), d.run.as_str(), d.category.as_str()))
            .collect();
        run_names(&keys, units, &file_names(units, filter.formats()))
    };
    let mut details: Vec<TestDetail> = details
        .into_iter()
        .map(|(u, mut d)| {
            if let Some(name) = renames.get(&(u, d.run.clone())) {
                d.run.clone_from(name);
            }
            d
        })
        .collect();
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

/// The units of `details` that hold a copy of an earlier unit's run ([`duplicates`]), so
/// that `show` lists the runs every other command reads. Only units whose rows for the test
/// match another unit's (model, category, runs' outcomes and error types), and which have
/// its run id or its format and size, are read whole to tell.
fn copies_shown(
    details: &[(usize, TestDetail)],
    units: &[Box<dyn Unit>],
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<usize, usize> {
    /// A row of `show`'s table for the test: model, category, outcome, error type.
    type Row<'a> = (&'a str, &'a str, Status, Option<&'a str>);
    /// What a copy shares with its original: the run id, or the format and size.
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum Kin<'a> {
        Id(&'a str),
        Bytes(&'static str, u64),
    }
    // Each unit's rows, with the run id its first row gives.
    let mut rows: BTreeMap<usize, (Vec<Row<'_>>, Option<&str>)> = BTreeMap::new();
    for (u, d) in details {
        let (shown, _) = rows.entry(*u).or_insert_with(|| (Vec::new(), d.run_id.as_deref()));
        shown.push((&d.model, &d.category, d.status, d.error_type.as_deref()));
    }
    let mut alike: HashMap<&[Row<'_>], usize> = HashMap::new();
    for (shown, _) in rows.values() {
        *alike.entry(shown.as_slice()).or_default() += 1;
    }
    // Of the units with alike rows: those with a run id another has, and those with the
    // format and size of another.
    let kins: Vec<(usize, &[Row<'_>], Vec<Kin<'_>>)> = rows
        .iter()
        .filter(|(_, (shown, _))| alike[shown.as_slice()] > 1)
        .map(|(&u, (shown, id))| {
            let bytes = (units[u].size() > 0).then(|| Kin::Bytes(units[u].format(), units[u].size()));
            (u, shown.as_slice(), id.map(Kin::Id).into_iter().chain(bytes).collect())
        })
        .collect();
    let mut kin: HashMap<(&[Row<'_>], Kin<'_>), usize> = HashMap::new();
    for (_, shown, of) in &kins {
        for &k in of {
            *kin.entry((*shown, k)).or_default() += 1;
        }
    }
    let suspects: Vec<usize> =
        kins.iter().filter(|(_, shown, of)| of.iter().any(|&k| kin[&(*shown, k)] > 1)).map(|(u, _, _)| *u).collect();
    if suspects.is_empty() {
        return BTreeMap::new();
    }
    let read: HashMap<usize, evaltally_format::Read> = suspects
        .par_iter()
        .map_init(Scratch::default, |scratch, &u| (u, units[u].read(scratch, options)))
        .filter(|(_, r)| !r.runs.is_empty())
        .collect();
    duplicates(units, |u| read.get(&u).and_then(reading_id), |u| read.get(&u).map(reading_print), diagnostics)
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
    records_cached(paths, filter, &Cache::disabled())
}

/// [`records`], with each unit's records taken from `cache` when its files are unchanged
/// (and stored there when they are read).
pub fn records_cached(paths: &[PathBuf], filter: &Filter, cache: &Cache) -> Result<Records, LoadError> {
    let found = discover(paths, filter, cache)?;
    let options = filter.options();
    let read = read_units(&found.units, &NoProgress, |u, scratch| cache.records(u, scratch, &options));
    cache.write_behind();
    Ok(finish_records(found.diagnostics, &found.units, read, filter))
}

/// The [`Records`] the units' readings make: BFCL file pairs of one (run, model) gathered
/// into one record, records kept as `filter` says, sorted by model then run.
fn finish_records(
    mut diagnostics: Vec<Diagnostic>,
    units: &[Box<dyn Unit>],
    read: Vec<evaltally_format::Records>,
    filter: &Filter,
) -> Records {
    let twins = if filter.keep_duplicates {
        BTreeMap::new()
    } else {
        let records = |u: usize| read.get(u).filter(|r| !r.runs.is_empty());
        let id = |u: usize| records(u).and_then(|r| one_id(r.runs.iter().map(|r| r.meta.run_id.as_deref())));
        duplicates(units, id, |u| records(u).map(records_print), &mut diagnostics)
    };
    let mut runs: Vec<(usize, RunRecord)> = Vec::new();
    for (unit, read) in read.into_iter().enumerate() {
        diagnostics.extend(read.diagnostics);
        if !twins.contains_key(&unit) {
            runs.extend(read.runs.into_iter().map(|r| (unit, r)));
        }
    }
    drop_read_beside(&mut diagnostics, units);
    // Named as `finish_loaded` names the runs: one key per category kept, models pooled.
    let renames = {
        let model = |r: &RunRecord| if filter.pool_models { POOLED.to_string() } else { r.model.clone() };
        let categories: Vec<(String, BTreeSet<&str>)> = runs
            .iter()
            .map(|(_, r)| {
                let kept = r.tests.iter().map(|t| t.category.as_str()).filter(|c| filter.keeps(&r.model, c));
                (model(r), kept.collect())
            })
            .collect();
        let keys: Vec<RunKey<'_>> = runs
            .iter()
            .zip(&categories)
            .flat_map(|((u, r), (m, cats))| cats.iter().map(move |c| (*u, m.as_str(), r.run.as_str(), *c)))
            .collect();
        run_names(&keys, units, &file_names(units, filter.formats()))
    };
    let mut merged: BTreeMap<(String, String, String), RunRecord> = BTreeMap::new();
    for (unit, mut r) in runs {
        if let Some(name) = renames.get(&(unit, r.run.clone())) {
            r.run.clone_from(name);
        }
        let key = (r.model.clone(), r.run.clone(), r.source.to_string_lossy().into_owned());
        match merged.get_mut(&key) {
            Some(m) => m.tests.extend(r.tests),
            None => {
                merged.insert(key, r);
            }
        }
    }
    let mut runs: Vec<RunRecord> = merged.into_values().filter_map(|r| filtered_record(r, filter)).collect();
    runs.sort_by(|a, b| a.model.cmp(&b.model).then_with(|| id::natural_str_cmp(&a.run, &b.run)));
    Records { runs, diagnostics }
}

/// A run record as `filter` keeps it: its tests of kept categories (errored ones counted as
/// failures with `--errors-as fail`), its model pooled on request; `None` when no test is
/// left.
fn filtered_record(mut r: RunRecord, filter: &Filter) -> Option<RunRecord> {
    r.tests.retain(|t| filter.keeps(&r.model, &t.category));
    if filter.errors_as_failures {
        for t in &mut r.tests {
            t.outcome = t.outcome.map(evaltally_core::Outcome::errors_as_failures);
        }
    }
    if filter.pool_models {
        POOLED.clone_into(&mut r.model);
    }
    (!r.tests.is_empty()).then_some(r)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use evaltally_core::{CategoryRun, Outcome, RunMeta};

    /// A run of one passing test, read from `<name>.json`, recording `meta`.
    fn run_with(name: &str, model: &str, category: &str, meta: RunMeta) -> CategoryRun {
        let mut r = CategoryRun::new(name, model, category);
        r.push("0", Outcome::Pass, None);
        r.sources.push(format!("{name}.json").into());
        r.meta = Some(Arc::new(meta));
        r
    }

    fn run(name: &str, model: &str, category: &str, set: Option<&str>) -> CategoryRun {
        run_with(name, model, category, RunMeta { test_set: set.map(str::to_string), ..RunMeta::default() })
    }

    fn with_setup(name: &str, model: &str, category: &str, setup: Option<&str>) -> CategoryRun {
        run_with(name, model, category, RunMeta { setup: setup.map(str::to_string), ..RunMeta::default() })
    }

    /// A model's runs of one category with two setups become two categories, named by
    /// their setups, with one warning about the first run of the setup met second; another
    /// model's runs of the category, of one setup, keep its name, as do runs that record none.
    #[test]
    fn a_model_s_runs_of_two_setups_are_two_categories() {
        let mut runs = vec![
            with_setup("r1", "a", "bias", Some("5-shot")),
            with_setup("r2", "a", "bias", Some("0-shot")),
            with_setup("r3", "a", "bias", Some("5-shot")),
            with_setup("r4", "a", "bias", Some("10-shot")),
            with_setup("r1", "b", "bias", Some("0-shot")),
            with_setup("r2", "b", "bias", Some("0-shot")),
            with_setup("r1", "a", "plain", None),
            with_setup("r2", "a", "plain", Some("0-shot")),
        ];
        let mut said = Vec::new();
        super::split_setups(&mut runs, &mut said);
        let categories: Vec<&str> = runs.iter().map(|r| r.category.as_str()).collect();
        assert_eq!(
            categories,
            ["bias (5-shot)", "bias (0-shot)", "bias (5-shot)", "bias (10-shot)", "bias", "bias", "plain", "plain"]
        );
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].path, std::path::PathBuf::from("r2.json"));
        assert_eq!(
            said[0].message,
            "the runs of `bias` by `a` were run with 3 setups, so they are not repeats of each other: each setup is \
             read as a category of its own, `bias (0-shot)`, `bias (5-shot)` and `bias (10-shot)`"
        );
        assert_eq!(super::setup_of(&runs[0]), Some(("bias", "5-shot")));
        assert_eq!(super::setup_of(&runs[4]), None);
    }

    /// One warning per category whose runs name two test sets, about the first run of the
    /// second; runs that name none, or one set, say nothing.
    #[test]
    fn runs_of_two_test_sets_are_said_once_per_category() {
        let runs = [
            run("r1", "a", "quiz", Some("x1")),
            run("r2", "a", "quiz", Some("x1")),
            run("r3", "b", "quiz", Some("x2")),
            run("r4", "b", "quiz", Some("x2")),
            run("r1", "a", "same", Some("y")),
            run("r2", "a", "same", Some("y")),
            run("r1", "a", "none", None),
            run("r2", "a", "none", Some("z")),
        ];
        let mut said = Vec::new();
        super::said_of_test_sets(&runs, &mut said);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].path, std::path::PathBuf::from("r3.json"));
        assert!(
            said[0].message.starts_with(
                "the runs of `quiz` were drawn from 2 different test sets (`x1`: 2 runs, first `r1` of `a`; `x2`: 2 runs, first `r3` of `b`)"
            ),
            "{}",
            said[0].message
        );
    }
}
