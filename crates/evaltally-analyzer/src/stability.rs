//! Stability across runs: which tests always pass, always fail, or flip.
//!
//! Per (model, category), among the runs that scored each test:
//!
//! * **stable pass**: passed in every run that judged it;
//! * **stable fail**: failed in every run that judged it;
//! * **flaky**: passed in some and failed in others;
//! * **errored**: errored in more than half of the runs that list it, so too rarely judged
//!   to be called any of the above.
//!
//! A run that did not list a test says nothing about it; an unscored run (a result file
//! without scores) is reported apart and judges nothing. An errored result (the harness or
//! the inference failed, [`evaltally_core::Outcome::Errored`]) judges nothing either, so
//! flaky infrastructure does not look like a flaky model; and a test that errored in most of
//! its runs is in a class of its own, so that one pass among seven errors is never called a
//! stable pass.

use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_core::{CategoryRun, id};
use serde::Serialize;

use rayon::prelude::*;

use crate::cluster::ClusterBy;
use crate::matrix::{Cell, Matrix, group};
use crate::precision::{self, Precision};
use crate::stats;
use crate::stats::se::Tally;

/// Stability of every model found.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StabilityReport {
    /// One entry per model, sorted by name.
    pub models: Vec<ModelStability>,
    /// Per category that two or more models judged, its flaky tests told apart: the
    /// benchmark's and each model's own ([`crate::across`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub across_models: BTreeMap<String, crate::across::CategoryAcross>,
    /// What reference runs said of the benchmark, when the caller gave some (the tests
    /// they fail or flip on were left out of `models`: [`crate::reference`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<crate::reference::Reference>,
}

/// Stability of one model's categories.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelStability {
    /// The model.
    pub model: String,
    /// Every run that scored at least one of its categories, in natural name order.
    pub runs: Vec<String>,
    /// Runs that only have unscored categories for this model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unscored_runs: Vec<String>,
    /// What each run records about itself (timestamp, branch, commit, version, tier, host,
    /// …), by run name; runs that record nothing are left out. Shared with the runs'
    /// [`CategoryRun::meta`].
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub run_meta: BTreeMap<String, std::sync::Arc<evaltally_core::RunMeta>>,
    /// One entry per category, sorted by name.
    pub categories: Vec<CategoryStability>,
    /// Counts summed over the categories.
    pub overall: Counts,
    /// The precision of the overall mean pass rate (every judged result of every
    /// category; clusters as for the categories, never across categories).
    pub precision: Precision,
    /// The standard error of the overall mean pass rate with each category one cluster.
    pub se_by_category: Option<f64>,
    /// BFCL's overall score, recomputed as BFCL weights its categories, when the
    /// categories are BFCL's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bfcl: Option<crate::bfcl_score::BfclScore>,
}

/// The tests of each class: stable pass, flaky, stable fail and errored add up to `total`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Counts {
    /// Tests judged or errored in at least one run.
    pub total: usize,
    /// Passed in every run that judged them.
    pub stable_pass: usize,
    /// Passed in some runs and failed in others.
    pub flaky: usize,
    /// Failed in every run that judged them.
    pub stable_fail: usize,
    /// Errored in more than half of the runs that list them: in no other class.
    #[serde(skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// Tests with at least one errored result, whatever their class.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_errors: usize,
    /// Tests judged in some runs and not scored in others, whatever their class.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_unscored: usize,
    /// Of the flaky tests, those flaky under most models that judged them: the benchmark's
    /// ([`crate::across`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub benchmark_flaky: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.total += other.total;
        self.stable_pass += other.stable_pass;
        self.flaky += other.flaky;
        self.stable_fail += other.stable_fail;
        self.errored += other.errored;
        self.with_errors += other.with_errors;
        self.with_unscored += other.with_unscored;
        self.benchmark_flaky += other.benchmark_flaky;
    }

    /// `part` as a percentage of `total` (0 when there are no tests).
    pub fn percent(&self, part: usize) -> f64 {
        if self.total == 0 { 0.0 } else { 100.0 * part as f64 / self.total as f64 }
    }
}

/// The tests of each class, ids in natural order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ClassIds {
    /// Stable passes.
    pub stable_pass: Vec<String>,
    /// Flaky tests.
    pub flaky: Vec<String>,
    /// Stable failures.
    pub stable_fail: Vec<String>,
    /// Tests that errored in more than half of the scored runs that listed them.
    pub errored: Vec<String>,
}

/// Stability of one (model, category).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryStability {
    /// The category.
    pub category: String,
    /// The runs that scored this category, in natural name order.
    pub runs: Vec<String>,
    /// Tests judged or errored in at least one run: the four classes add up to it.
    pub total: usize,
    /// Passed in every run that judged them.
    pub stable_pass: usize,
    /// Mixed results.
    pub flaky: usize,
    /// Of the flaky tests, those flaky under most models that judged them: the benchmark's
    /// ([`crate::across`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub benchmark_flaky: usize,
    /// Failed in every run that judged them.
    pub stable_fail: usize,
    /// Errored in more than half of the runs that list them (in no other class).
    #[serde(skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// Tests passed in each run, in the order of `runs`.
    pub correct: Vec<usize>,
    /// Tests each run listed, in the order of `runs`.
    pub listed: Vec<usize>,
    /// Runs whose result file for this category has no scores.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unscored_runs: Vec<String>,
    /// Tests that appear only in unscored runs.
    #[serde(skip_serializing_if = "is_zero")]
    pub unscored_tests: usize,
    /// Tests with at least one errored result in a scored run, whatever their class.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_errors: usize,
    /// Tests judged in some scored runs and not scored in others (a sample its scorer did not
    /// score, a metric that is not a number), whatever their class.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_unscored: usize,
    /// Errored results (test × run) in the scored runs.
    #[serde(skip_serializing_if = "is_zero")]
    pub errored_results: usize,
    /// pass@k for k = 1..=runs: the chance that at least one of k runs passes, averaged
    /// over tests (tests listed in fewer than k runs are left out; `null` when none is left).
    pub pass_at_k: Vec<Option<f64>>,
    /// pass^k (τ-bench) for k = 1..=runs: the chance that all of k runs pass.
    pub pass_hat_k: Vec<Option<f64>>,
    /// Standard errors, variance components and the range of a single run's score.
    pub precision: Precision,
    /// Passes and judged results of each run, in the order of `runs`.
    #[serde(skip)]
    pub run_tallies: Vec<Tally>,
    /// Every test judged or errored in at least one run, in natural id order.
    pub tests: Vec<TestStability>,
    /// The ids of each class.
    #[serde(skip)]
    pub ids: ClassIds,
}

/// How one test behaved across the runs of its category.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestStability {
    /// The test id.
    pub id: String,
    /// Runs that judged it (passed or failed): 0 when it errored in every run.
    pub runs: usize,
    /// Runs it passed.
    pub passed: usize,
    /// Runs where it errored (not judged, so not in `runs`).
    #[serde(skip_serializing_if = "is_zero")]
    pub errored: usize,
    /// Its class.
    pub class: Class,
    /// Share of consecutive judged runs (in run order) whose outcome differs.
    pub flip_rate: f64,
    /// Wilson 95% interval of its pass rate.
    pub wilson: [f64; 2],
    /// One character per run of the category, in run order: `P` pass, `F` fail, `E` errored,
    /// `-` not run or not scored.
    pub outcomes: String,
}

impl TestStability {
    /// Its class.
    pub fn class(&self) -> Class {
        self.class
    }

    /// Pass rate in the runs that judged it.
    pub fn pass_rate(&self) -> f64 {
        if self.runs == 0 { 0.0 } else { self.passed as f64 / self.runs as f64 }
    }
}

/// The stability classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Passed in every run that judged it.
    StablePass,
    /// Mixed.
    Flaky,
    /// Failed in every run that judged it.
    StableFail,
    /// Errored in more than half of the runs that list it: judged too rarely for the others.
    Errored,
}

impl Class {
    /// The class of a test judged in `runs` runs, `passed` of them passes, that errored in
    /// `errored` more.
    ///
    /// ```
    /// use evaltally_analyzer::stability::Class;
    /// assert_eq!(Class::of(3, 3, 0), Class::StablePass);
    /// assert_eq!(Class::of(3, 1, 1), Class::Flaky);
    /// // One pass among eight runs, seven of them errored, is not a stable pass.
    /// assert_eq!(Class::of(1, 1, 7), Class::Errored);
    /// // Half errored is still judged.
    /// assert_eq!(Class::of(2, 0, 2), Class::StableFail);
    /// ```
    pub fn of(runs: usize, passed: usize, errored: usize) -> Class {
        if errored > runs {
            Class::Errored
        } else if passed == runs {
            Class::StablePass
        } else if passed == 0 {
            Class::StableFail
        } else {
            Class::Flaky
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CategoryStability {
    /// The tests the statistics count: those in a class of judged tests (stable pass, flaky,
    /// stable fail). A test that errored in most of its runs is judged too rarely to weigh
    /// in a pass rate or pass^k.
    pub fn judged(&self) -> impl Iterator<Item = &TestStability> {
        self.tests.iter().filter(|t| t.class != Class::Errored)
    }

    /// The counts of each class.
    pub fn counts(&self) -> Counts {
        Counts {
            total: self.total,
            stable_pass: self.stable_pass,
            flaky: self.flaky,
            stable_fail: self.stable_fail,
            errored: self.errored,
            with_errors: self.with_errors,
            with_unscored: self.with_unscored,
            benchmark_flaky: self.benchmark_flaky,
        }
    }
}

impl ModelStability {
    /// The category with the largest share of flaky tests (first by name on ties).
    pub fn most_flaky(&self) -> Option<&CategoryStability> {
        best_by(&self.categories, |c| c.flaky)
    }

    /// The category with the largest share of stable passes (first by name on ties).
    pub fn most_stable(&self) -> Option<&CategoryStability> {
        best_by(&self.categories, |c| c.stable_pass)
    }
}

fn best_by(cats: &[CategoryStability], part: impl Fn(&CategoryStability) -> usize) -> Option<&CategoryStability> {
    let mut best: Option<(&CategoryStability, f64)> = None;
    for c in cats.iter().filter(|c| c.total > 0) {
        let share = part(c) as f64 / c.total as f64;
        if best.is_none_or(|(_, s)| share > s) {
            best = Some((c, share));
        }
    }
    best.map(|(c, _)| c)
}

/// The stability of every (model, category) in `runs`.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::stability;
///
/// let mut a = CategoryRun::new("a", "m", "simple");
/// a.push("simple_0", Outcome::Pass, None);
/// a.push("simple_1", Outcome::Fail, None);
/// let mut b = CategoryRun::new("b", "m", "simple");
/// b.push("simple_0", Outcome::Pass, None);
/// b.push("simple_1", Outcome::Pass, None);
/// let report = stability::analyze(&[a, b]);
/// let cat = &report.models[0].categories[0];
/// assert_eq!((cat.total, cat.stable_pass, cat.flaky, cat.stable_fail), (2, 1, 1, 0));
/// assert_eq!(cat.correct, [1, 2]);
/// ```
pub fn analyze(runs: &[CategoryRun]) -> StabilityReport {
    analyze_with(runs, Settings::default())
}

/// How [`analyze_with`] computes its statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The clusters of the clustered standard errors.
    pub cluster_by: ClusterBy,
}

/// [`analyze`], with the clusters of the clustered standard errors chosen.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::{cluster::ClusterBy, stability};
///
/// let mut a = CategoryRun::new("a", "m", "live_simple");
/// a.push("live_simple_0-0-0", Outcome::Pass, None);
/// a.push("live_simple_1-1-0", Outcome::Fail, None);
/// a.push("live_simple_2-1-1", Outcome::Fail, None);
/// let report = stability::analyze_with(&[a], stability::Settings { cluster_by: ClusterBy::Group });
/// assert_eq!(report.models[0].categories[0].precision.clusters, 2);
/// ```
pub fn analyze_with(runs: &[CategoryRun], settings: Settings) -> StabilityReport {
    let matrices = group(runs);
    let categories: Vec<CategoryStability> = matrices.par_iter().map(|m| category(m, settings)).collect();
    let mut by_model: BTreeMap<&str, Vec<CategoryStability>> = BTreeMap::new();
    for (matrix, cat) in matrices.iter().zip(categories) {
        by_model.entry(matrix.model).or_default().push(cat);
    }
    // Each run's metadata, the first its category runs give, shared with the report.
    let mut meta: hashbrown::HashMap<(&str, &str), &std::sync::Arc<evaltally_core::RunMeta>> =
        hashbrown::HashMap::new();
    for r in runs {
        if let Some(m) = &r.meta {
            meta.entry((&r.model, &r.run)).or_insert(m);
        }
    }
    let mut meta: Vec<((&str, &str), &std::sync::Arc<evaltally_core::RunMeta>)> = meta.into_iter().collect();
    meta.sort_unstable_by_key(|&(key, _)| key);
    let mut models: Vec<ModelStability> = by_model
        .into_iter()
        .map(|(model, categories)| {
            let mut m = model_stability(model, categories, settings);
            let start = meta.partition_point(|((m, _), _)| *m < model);
            let end = meta.partition_point(|((m, _), _)| *m <= model);
            m.run_meta = meta[start..end]
                .iter()
                .map(|&((_, run), meta)| (run.to_string(), std::sync::Arc::clone(meta)))
                .collect();
            m
        })
        .collect();
    let across_models = across_models(&mut models);
    StabilityReport { models, across_models, reference: None }
}

/// The flaky tests told apart across models ([`crate::across`]), each category's and model's
/// count of the benchmark's set.
fn across_models(models: &mut [ModelStability]) -> BTreeMap<String, crate::across::CategoryAcross> {
    let mut at = Vec::new();
    let judged: Vec<crate::across::Judged<'_>> = models
        .iter()
        .enumerate()
        .flat_map(|(m, model)| {
            model.categories.iter().enumerate().map(move |(c, cat)| {
                (
                    (m, c),
                    crate::across::Judged {
                        model: &model.model,
                        category: &cat.category,
                        tests: cat.judged().map(|t| (t.id.as_str(), t.class == Class::Flaky)).collect(),
                    },
                )
            })
        })
        .map(|(place, j)| {
            at.push(place);
            j
        })
        .collect();
    let (across, counts) = crate::across::classify(&judged);
    drop(judged);
    for ((m, c), n) in at.into_iter().zip(counts) {
        models[m].categories[c].benchmark_flaky = n;
        models[m].overall.benchmark_flaky += n;
    }
    across
}

fn model_stability(model: &str, categories: Vec<CategoryStability>, settings: Settings) -> ModelStability {
    let mut overall = Counts::default();
    for c in &categories {
        overall.add(c.counts());
    }
    // BFCL's score needs only the categories: it is computed beside the rest.
    let ((runs, unscored_runs, (precision, se_by_category)), bfcl) = rayon::join(
        || {
            let runs = merge_names(categories.iter().map(|c| c.runs.as_slice()));
            let mut unscored_runs = merge_names(categories.iter().map(|c| c.unscored_runs.as_slice()));
            unscored_runs.retain(|r| runs.binary_search_by(|x| name_order(x, r)).is_err());
            let precision = overall_precision(&categories, &runs, settings);
            (runs, unscored_runs, precision)
        },
        || {
            let scores: Vec<crate::bfcl_score::CategoryScore<'_>> = categories
                .iter()
                .map(|c| crate::bfcl_score::CategoryScore {
                    category: &c.category,
                    tests: c.total,
                    mean: c.precision.mean,
                    se: c.precision.se_clustered,
                    run_se: c.precision.components.map(|k| k.run_se(k.runs_per_test())),
                    runs: c.runs.iter().map(String::as_str).zip(c.run_tallies.iter().map(|t| t.rate())).collect(),
                })
                .collect();
            crate::bfcl_score::score(&scores)
        },
    );
    ModelStability {
        model: model.to_string(),
        runs,
        unscored_runs,
        run_meta: BTreeMap::new(),
        categories,
        overall,
        precision,
        se_by_category,
        bfcl,
    }
}

/// The precision of a model's overall mean pass rate: every test of every category (a
/// test's cluster named with its category, so categories never share one), each run's
/// results summed over the categories it scored.
fn overall_precision(
    categories: &[CategoryStability],
    runs: &[String],
    settings: Settings,
) -> (Precision, Option<f64>) {
    // Every test of every category, and their clusters: a category's clusters never hold
    // another's tests, and the categories are in the order of their names, so each
    // category's clusters, in their names' order, follow the previous category's (the
    // order of `category NUL cluster` names).
    let tallies: Vec<Tally> =
        categories.iter().flat_map(|c| c.judged().map(|t| Tally::new(t.passed, t.runs))).collect();
    let mut clusters: Vec<Tally> = Vec::with_capacity(tallies.len());
    for c in categories {
        clusters.extend(precision::cluster_tallies(
            c.judged().map(|t| (settings.cluster_by.cluster_of(&t.id), Tally::new(t.passed, t.runs))),
        ));
    }
    // Each category's runs are among the model's, mostly in the same order: each is looked
    // for at the place after the one before it, and by name only when it is not there.
    let mut run_tallies = vec![Tally::default(); runs.len()];
    let mut at: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
    for c in categories {
        let mut next = 0;
        for (name, t) in c.runs.iter().zip(&c.run_tallies) {
            let place = if runs.get(next) == Some(name) {
                Some(next)
            } else {
                if at.is_empty() {
                    at = runs.iter().enumerate().map(|(i, r)| (r.as_str(), i)).collect();
                }
                at.get(name.as_str()).copied()
            };
            if let Some(i) = place {
                run_tallies[i].add(*t);
                next = i + 1;
            }
        }
    }
    // The statistics take the runs in the names' byte order (which natural order mostly is).
    if !runs.is_sorted() {
        let mut order: Vec<usize> = (0..runs.len()).collect();
        order.sort_unstable_by_key(|&i| &runs[i]);
        run_tallies = order.into_iter().map(|i| run_tallies[i]).collect();
    }
    let p = precision::of_clusters(&tallies, &clusters, &run_tallies, settings.cluster_by);
    let by_category: Vec<Tally> = categories.iter().map(|c| c.precision.results).collect();
    (p, precision::by_category(&by_category))
}

/// Run names in natural order, names equal in it (`run-01`, `run-1`) by their bytes.
fn name_order(a: &str, b: &str) -> std::cmp::Ordering {
    id::natural_str_cmp(a, b).then_with(|| a.cmp(b))
}

/// The names of several lists, in [`name_order`] without repeats. Each category's runs are
/// already in that order (a matrix's runs are), and at thousands of runs the categories
/// mostly list the same ones: lists are merged, a list equal to the names so far costs one
/// comparison per name, and a list out of order is sorted first.
fn merge_names<'a>(lists: impl Iterator<Item = &'a [String]>) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    for list in lists {
        if list.len() == names.len() && list.iter().zip(&names).all(|(a, b)| a == b) {
            continue;
        }
        let mut sorted: Vec<&str> = list.iter().map(String::as_str).collect();
        if !sorted.is_sorted_by(|a, b| name_order(a, b).is_le()) {
            sorted.sort_by(|a, b| name_order(a, b));
        }
        let mut merged = Vec::with_capacity(names.len().max(sorted.len()));
        let (mut a, mut b) = (names.into_iter().peekable(), sorted.into_iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => match name_order(x, y) {
                    std::cmp::Ordering::Less => a.next(),
                    std::cmp::Ordering::Greater => b.next(),
                    std::cmp::Ordering::Equal => {
                        b.next();
                        a.next()
                    }
                },
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            merged.extend(next);
        }
        merged.dedup();
        names = merged;
    }
    names.into_iter().map(str::to_string).collect()
}

fn category(m: &Matrix<'_>, settings: Settings) -> CategoryStability {
    let scored: Vec<usize> = (0..m.runs.len()).filter(|&r| m.runs[r].scored).collect();
    let mut out = CategoryStability {
        category: m.category.to_string(),
        runs: scored.iter().map(|&r| m.runs[r].run.clone()).collect(),
        total: 0,
        stable_pass: 0,
        flaky: 0,
        benchmark_flaky: 0,
        stable_fail: 0,
        errored: 0,
        correct: scored.iter().map(|&r| m.runs[r].passed()).collect(),
        listed: scored.iter().map(|&r| m.runs[r].len()).collect(),
        unscored_runs: (0..m.runs.len()).filter(|&r| !m.runs[r].scored).map(|r| m.runs[r].run.clone()).collect(),
        unscored_tests: 0,
        with_errors: 0,
        with_unscored: 0,
        errored_results: 0,
        pass_at_k: Vec::new(),
        pass_hat_k: Vec::new(),
        precision: Precision::default(),
        run_tallies: vec![Tally::default(); scored.len()],
        tests: Vec::new(),
        ids: ClassIds::default(),
    };
    for (t, id) in m.ids.iter().enumerate() {
        let row = m.row(t);
        for (tally, &r) in out.run_tallies.iter_mut().zip(&scored) {
            tally.passed += usize::from(row[r] == Cell::Pass);
            tally.judged += usize::from(matches!(row[r], Cell::Pass | Cell::Fail));
        }
        let errored = scored.iter().filter(|&&r| row[r] == Cell::Errored).count();
        out.with_errors += usize::from(errored > 0);
        out.errored_results += errored;
        let Some(test) = test_stability(id, row, &scored) else {
            out.unscored_tests += 1;
            continue;
        };
        out.with_unscored += usize::from(scored.iter().any(|&r| row[r] == Cell::Unscored));
        let class = test.class();
        let (count, list) = match class {
            Class::StablePass => (&mut out.stable_pass, &mut out.ids.stable_pass),
            Class::Flaky => (&mut out.flaky, &mut out.ids.flaky),
            Class::StableFail => (&mut out.stable_fail, &mut out.ids.stable_fail),
            Class::Errored => (&mut out.errored, &mut out.ids.errored),
        };
        *count += 1;
        list.push((*id).to_string());
        out.total += 1;
        out.tests.push(test);
    }
    // The errored class aside (rare: most categories have none, and their tests are not copied).
    let judged: std::borrow::Cow<'_, [TestStability]> =
        if out.errored == 0 { (&out.tests[..]).into() } else { out.judged().cloned().collect::<Vec<_>>().into() };
    (out.pass_at_k, out.pass_hat_k) = pass_k_means(&judged, scored.len());
    let tallies: Vec<(&str, Tally)> = judged.iter().map(|t| (t.id.as_str(), Tally::new(t.passed, t.runs))).collect();
    out.precision = precision::precision(&tallies, &out.run_tallies, settings.cluster_by);
    out
}

/// pass@k and pass^k for k = 1 … `runs`, each averaged over the tests judged in at least k
/// runs. Linear in runs × tests: each test's series comes from [`stats::pass_k_series`],
/// computed once per distinct (runs, passes).
fn pass_k_means(tests: &[TestStability], runs: usize) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let mut series: HashMap<(usize, usize), (Vec<f64>, Vec<f64>)> = HashMap::new();
    for t in tests {
        series.entry((t.runs, t.passed)).or_insert_with(|| stats::pass_k_series(t.runs, t.passed));
    }
    let mut sums = vec![(0.0_f64, 0.0_f64, 0_usize); runs];
    for t in tests {
        let (at, hat) = &series[&(t.runs, t.passed)];
        for (k, sum) in sums.iter_mut().enumerate().take(t.runs) {
            sum.0 += at[k];
            sum.1 += hat[k];
            sum.2 += 1;
        }
    }
    sums.into_iter()
        .map(|(at, hat, n)| if n == 0 { (None, None) } else { (Some(at / n as f64), Some(hat / n as f64)) })
        .unzip()
}

/// The stability of one test from its row of cells; `None` when no run judged it or
/// errored on it.
fn test_stability(id: &str, row: &[Cell], scored: &[usize]) -> Option<TestStability> {
    let mut outcomes = String::with_capacity(scored.len());
    let (mut runs, mut passed, mut flips, mut errored) = (0, 0, 0, 0);
    let mut last = None;
    for &r in scored {
        let cell = row[r];
        outcomes.push(match cell {
            Cell::Pass => 'P',
            Cell::Fail => 'F',
            Cell::Errored => 'E',
            Cell::NotRun | Cell::Unscored => '-',
        });
        errored += usize::from(cell == Cell::Errored);
        if matches!(cell, Cell::Pass | Cell::Fail) {
            runs += 1;
            passed += usize::from(cell == Cell::Pass);
            flips += usize::from(last.is_some_and(|l| l != cell));
            last = Some(cell);
        }
    }
    if runs == 0 && errored == 0 {
        return None;
    }
    let (lo, hi) = stats::wilson(passed, runs, stats::Z95);
    Some(TestStability {
        id: id.to_string(),
        runs,
        passed,
        errored,
        class: Class::of(runs, passed, errored),
        flip_rate: if runs < 2 { 0.0 } else { flips as f64 / (runs - 1) as f64 },
        wilson: [lo, hi],
        outcomes,
    })
}

/// The `n` least stable tests of a model, across its categories: pass rate closest to one
/// half first, then the higher flip rate, then more runs, then category and natural id
/// order. Only flaky tests qualify.
pub fn top_flaky(model: &ModelStability, n: usize) -> Vec<(&CategoryStability, &TestStability)> {
    let mut flaky: Vec<(&CategoryStability, &TestStability)> = model
        .categories
        .iter()
        .flat_map(|c| c.tests.iter().filter(|t| t.class() == Class::Flaky).map(move |t| (c, t)))
        .collect();
    // Distance of the pass rate from one half, |2c − n| / 2n, compared exactly.
    let distance = |t: &TestStability| (2 * t.passed).abs_diff(t.runs);
    flaky.sort_by(|(ca, a), (cb, b)| {
        (distance(a) * b.runs)
            .cmp(&(distance(b) * a.runs))
            .then_with(|| b.flip_rate.total_cmp(&a.flip_rate))
            .then_with(|| b.runs.cmp(&a.runs))
            .then_with(|| ca.category.cmp(&cb.category))
            .then_with(|| id::natural_cmp(&a.id, &b.id))
    });
    flaky.truncate(n);
    flaky
}

#[cfg(test)]
mod tests {
    use super::merge_names;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    /// Lists merge into one in natural order without repeats, whatever order each came in.
    #[test]
    fn run_lists_merge_in_natural_order() {
        let a = names(&["run-1", "run-2", "run-10"]);
        let same = a.clone();
        let b = names(&["run-2", "run-3"]);
        let unsorted = names(&["run-20", "run-0", "run-3"]);
        let empty: Vec<String> = Vec::new();
        let lists = [&a, &same, &b, &empty, &unsorted];
        let merged = merge_names(lists.iter().map(|l| l.as_slice()));
        assert_eq!(merged, ["run-0", "run-1", "run-2", "run-3", "run-10", "run-20"]);
        assert!(merge_names(std::iter::empty()).is_empty());
        // Names equal by number are both kept, ordered by their bytes.
        let padded = names(&["run-01", "run-1"]);
        let plain = names(&["run-1"]);
        assert_eq!(merge_names([plain.as_slice(), padded.as_slice()].into_iter()), ["run-01", "run-1"]);
    }

    /// A model's overall precision sums each run's results over the categories it scored,
    /// whichever categories those are and whatever order its name sorts in.
    #[test]
    fn overall_run_scores_sum_each_runs_categories() {
        use evaltally_core::{CategoryRun, Outcome};
        let run = |name: &str, category: &str, tests: &[(&str, Outcome)]| {
            let mut r = CategoryRun::new(name, "m", category);
            for (id, o) in tests {
                r.push(id, *o, None);
            }
            r
        };
        let (p, f) = (Outcome::Pass, Outcome::Fail);
        let runs = [
            run("run-9", "a", &[("a_1", p), ("a_2", f)]),
            run("run-10", "a", &[("a_1", p), ("a_2", p)]),
            run("run-10", "b", &[("b_1", f)]),
            run("run-11", "b", &[("b_1", p)]),
        ];
        let report = super::analyze(&runs);
        let model = &report.models[0];
        assert_eq!(model.runs, ["run-9", "run-10", "run-11"]);
        // run-9 passed 1 of 2, run-10 2 of 3 (both categories), run-11 1 of 1.
        let single = model.precision.single_run.as_ref().expect("three runs");
        assert!((single.observed[0] - 0.5).abs() < 1e-12 && (single.observed[1] - 1.0).abs() < 1e-12);
        let rates = [0.5, 2.0 / 3.0, 1.0];
        let mean = rates.iter().sum::<f64>() / 3.0;
        let sd = (rates.iter().map(|r| (r - mean) * (r - mean)).sum::<f64>() / 2.0).sqrt();
        assert!((single.observed_sd.unwrap() - sd).abs() < 1e-12);
    }
}
