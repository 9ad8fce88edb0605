//! Comparing two runs, or two groups of runs: what regressed, what improved, why, and
//! whether the change is more than run-to-run noise.
//!
//! Tests are matched by (model, category, id). A test listed on only one side is reported
//! apart ("only in base", "only in new") and never counted as a regression or an
//! improvement.
//!
//! * Two single runs: a regression passed in base and failed in new, an improvement the
//!   reverse. The exact McNemar test on (regressions, improvements) gives the p-value;
//!   Wilson intervals bound each pass rate.
//! * Two groups: a test's pass rate on each side is its passes over the runs that judged
//!   it. A **consistent** regression passed in every base run and failed in every new run;
//!   other drops touch a flaky test and are listed apart. The p-value comes from a paired
//!   sign-flip test on the per-test rate differences, and a paired bootstrap gives a 95%
//!   interval of the accuracy difference; both use a fixed seed, so output reproduces.
//!
//! Either way, the paired standard error of the difference,
//! `√((Var A + Var B − 2·Cov(A, B)) / n)` over the n common tests' pass rates, gives the
//! minimum detectable effect (MDE, 80% power at α = 0.05), and each category gets a
//! [`Verdict`]: a regression or an improvement when its p-value, Holm-adjusted across the
//! model's categories, is below 0.05; no change when the comparison could have seen a change
//! of the `effect` size (MDE ≤ effect) and the 95% interval `d ± 1.96·SE` lies within
//! ±effect; inconclusive otherwise.

use std::collections::{BTreeMap, BTreeSet};

use hashbrown::HashMap;

use evaltally_core::{CategoryRun, ErrorType, id};
use serde::{Serialize, Serializer};

use crate::matrix::{Cell, Matrix, group};
use crate::stats;

/// The significance level of `significant` and `--fail-on significant`.
pub const ALPHA: f64 = 0.05;
/// The default size of change a comparison should be able to see (`--effect`): 5 points.
pub const DEFAULT_EFFECT: f64 = 0.05;

/// How p-values tested together (a model's categories, a comparison's tests) are corrected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Correction {
    /// Holm–Bonferroni ([`stats::multiple::holm`]): the chance of any false "significant"
    /// at most α.
    #[default]
    Holm,
    /// Benjamini–Hochberg ([`stats::multiple::benjamini_hochberg`]): the expected share of
    /// false ones among those called significant at most α.
    #[serde(rename = "bh")]
    BenjaminiHochberg,
    /// None: each p-value as it is.
    None,
}

impl Correction {
    /// `p` adjusted.
    pub fn adjust(self, p: &[f64]) -> Vec<f64> {
        match self {
            Correction::Holm => stats::multiple::holm(p),
            Correction::BenjaminiHochberg => stats::multiple::benjamini_hochberg(p),
            Correction::None => p.to_vec(),
        }
    }
}

/// What [`compare_with`] decides with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Settings {
    /// The size of change (in pass rate, 0.05 = 5 points) a conclusive comparison must be
    /// able to see.
    pub effect: f64,
    /// The correction across categories.
    pub correction: Correction,
    /// The correction across the tests of a group comparison (per-test verdicts).
    pub test_correction: Correction,
}

impl Default for Settings {
    fn default() -> Self {
        Self { effect: DEFAULT_EFFECT, correction: Correction::Holm, test_correction: Correction::BenjaminiHochberg }
    }
}

/// The most runs per side [`TestVerdict::runs_needed`] names; more is `None`.
pub const MAX_RUNS_NEEDED: usize = 10_000;

/// What one test's runs say between two groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TestChange {
    /// Its pass rate dropped, significantly after the correction.
    Regressed,
    /// Its pass rate rose, significantly after the correction.
    Improved,
    /// The same pass rate on both sides: more runs at these rates would show no change.
    NoChange,
    /// The rates differ, but not significantly: `runs_needed` says how many runs would tell.
    Undecided,
}

/// One test's verdict between two groups of runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestVerdict {
    /// The test id.
    pub id: String,
    /// Its pass rate on the base side.
    pub base_rate: f64,
    /// Its pass rate on the new side.
    pub new_rate: f64,
    /// `[passed, runs]` on the base side.
    pub base: [usize; 2],
    /// `[passed, runs]` on the new side.
    pub new: [usize; 2],
    /// Fisher's exact test of the two rates ([`stats::fisher_exact`]).
    pub p_value: f64,
    /// `p_value` after the correction across the tests of the comparison
    /// ([`Settings::test_correction`]).
    pub p_adjusted: f64,
    /// What it says.
    pub verdict: TestChange,
    /// Undecided only: the runs per side that would decide it, were the rates to stay as
    /// they are; `None` past [`MAX_RUNS_NEEDED`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs_needed: Option<usize>,
}

/// What the data say about a change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The pass rate dropped, significantly (after the correction).
    Regression,
    /// The pass rate rose, significantly (after the correction).
    Improvement,
    /// Not significant, and the comparison could have seen a change of the effect size:
    /// MDE ≤ effect and the 95% interval within ±effect.
    NoChange,
    /// Not significant, but a change of the effect size could hide in the noise.
    Inconclusive,
    /// No common tests.
    #[default]
    NotCompared,
}

impl Verdict {
    /// The verdict in words (`no change`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::NoChange => "no change",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotCompared => "not compared",
        }
    }
}
/// Resampling iterations for the bootstrap interval and the sign-flip test (groups).
pub const ITERATIONS: usize = 2_000;

/// Single runs or groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One run on each side.
    Runs,
    /// Several runs on at least one side.
    Groups,
}

/// The comparison of every model found on either side.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareReport {
    /// Single runs or groups.
    pub mode: Mode,
    /// The base runs, in natural order.
    pub base_runs: Vec<String>,
    /// The new runs, in natural order.
    pub new_runs: Vec<String>,
    /// What each run of either side records about itself, by run name (runs that record
    /// nothing are left out).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub run_meta: BTreeMap<String, std::sync::Arc<evaltally_core::RunMeta>>,
    /// One entry per model, sorted by name.
    pub models: Vec<ModelCompare>,
    /// Cost, duration and token deltas, where the runs record them (filled by the caller
    /// from the runs' records: [`crate::efficiency::efficiency`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub efficiency: Option<crate::efficiency::Efficiency>,
    /// What the verdicts were decided with.
    pub settings: Settings,
    /// What reference runs said of the benchmark, when the caller gave some (the tests
    /// they fail or flip on were left out of both sides: [`crate::reference`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<crate::reference::Reference>,
}

/// The comparison of one model.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelCompare {
    /// The model.
    pub model: String,
    /// One entry per category found on either side, sorted by name.
    pub categories: Vec<CategoryCompare>,
    /// All categories together.
    pub overall: Summary,
    /// The change in BFCL's overall score, when the categories are BFCL's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bfcl: Option<crate::bfcl_score::BfclChange>,
}

/// Counts and statistics of one side-by-side comparison (a category, or a model overall).
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// Tests passed on the base side (mean over runs for a group).
    #[serde(serialize_with = "count_or_mean")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub base_passed: f64,
    /// Tests passed on the new side (mean over runs for a group).
    #[serde(serialize_with = "count_or_mean")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub new_passed: f64,
    /// Tests judged on the base side: listed and not errored (mean over runs for a group).
    #[serde(serialize_with = "count_or_mean")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub base_total: f64,
    /// Tests judged on the new side: listed and not errored (mean over runs for a group).
    #[serde(serialize_with = "count_or_mean")]
    #[cfg_attr(feature = "schema", schemars(with = "f64"))]
    pub new_total: f64,
    /// `base_passed / base_total`.
    pub base_rate: f64,
    /// `new_passed / new_total`.
    pub new_rate: f64,
    /// Wilson 95% interval of the base pass rate (single runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_wilson: Option<[f64; 2]>,
    /// Wilson 95% interval of the new pass rate (single runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_wilson: Option<[f64; 2]>,
    /// Tests judged on both sides.
    pub common: usize,
    /// Number of tests judged only on the base side.
    pub only_in_base_count: usize,
    /// Number of tests judged only on the new side.
    pub only_in_new_count: usize,
    /// Number of regressions (consistent ones, for groups).
    pub regression_count: usize,
    /// Number of improvements (consistent ones, for groups).
    pub improvement_count: usize,
    /// Groups only: drops in pass rate that touch a flaky test.
    pub flaky_regression_count: usize,
    /// Groups only: rises in pass rate that touch a flaky test.
    pub flaky_improvement_count: usize,
    /// `improvements − regressions`.
    pub net: i64,
    /// Regressions by the error type they fail with now.
    pub regressions_by_error_type: BTreeMap<String, usize>,
    /// Regressions by error family.
    pub regressions_by_error_family: BTreeMap<String, usize>,
    /// Improvements by the error type they failed with before.
    pub improvements_by_error_type: BTreeMap<String, usize>,
    /// Improvements by error family.
    pub improvements_by_error_family: BTreeMap<String, usize>,
    /// Mean change in pass rate over the common tests (new − base).
    pub difference: f64,
    /// 95% interval of `difference`: paired bootstrap for groups; for single runs the
    /// paired Wald interval `d ± z·√(b + c − (c − b)²/n) / n`.
    pub difference_interval: Option<[f64; 2]>,
    /// Exact McNemar (runs) or paired sign-flip (groups) p-value; 1 without common tests.
    pub p_value: f64,
    /// Which test gave `p_value`.
    pub test: &'static str,
    /// `p_adjusted < 0.05`.
    pub significant: bool,
    /// The p-value after the correction across the model's categories (the overall
    /// figure is not corrected).
    pub p_adjusted: f64,
    /// Paired standard error of `difference`: `√((Var A + Var B − 2·Cov(A, B)) / n)` over the
    /// common tests' pass rates (sample moments); `null` below 2 common tests.
    pub se_difference: Option<f64>,
    /// `difference ± 1.96·se_difference`.
    pub se_interval: Option<[f64; 2]>,
    /// Minimum detectable effect, 80% power at α = 0.05 two-sided: `2.80·se_difference`,
    /// with `se_difference` taken as at least what one changed result would give (`1/(n·r)`
    /// for n common tests and r runs a side), so a comparison where nothing moved is not
    /// taken for an infinitely precise one.
    pub mde: Option<f64>,
    /// What the data say.
    pub verdict: Verdict,
}

/// The comparison of one (model, category).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryCompare {
    /// The category.
    pub category: String,
    /// Base runs that judged this category.
    pub base_runs: Vec<String>,
    /// New runs that judged this category.
    pub new_runs: Vec<String>,
    /// Counts and statistics.
    #[serde(flatten)]
    pub summary: Summary,
    /// Tests judged only on the base side, natural order.
    pub only_in_base: Vec<String>,
    /// Tests judged only on the new side, natural order.
    pub only_in_new: Vec<String>,
    /// Tests the base side judged and the new side listed but only errored on, natural
    /// order: not compared, and neither a regression nor only in base.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errored_in_new: Vec<String>,
    /// Tests the new side judged and the base side only errored on, natural order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errored_in_base: Vec<String>,
    /// Pass → fail (consistent ones for groups), natural order.
    pub regressions: Vec<String>,
    /// Fail → pass (consistent ones for groups), natural order.
    pub improvements: Vec<String>,
    /// Groups only: other drops in pass rate, natural order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flaky_regressions: Vec<String>,
    /// Groups only: other rises in pass rate, natural order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flaky_improvements: Vec<String>,
    /// Groups only: every common test's passes and runs on each side.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestRates>,
    /// Groups only: every common test's verdict, natural order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub test_verdicts: Vec<TestVerdict>,
}

impl CategoryCompare {
    /// The tests with verdict `change`.
    pub fn tests_with(&self, change: TestChange) -> impl Iterator<Item = &TestVerdict> {
        self.test_verdicts.iter().filter(move |t| t.verdict == change)
    }
}

/// One test's record on each side of a group comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestRates {
    /// The test id.
    pub id: String,
    /// `[passed, runs]` on the base side.
    pub base: [usize; 2],
    /// `[passed, runs]` on the new side.
    pub new: [usize; 2],
}

impl ModelCompare {
    /// Whether any category has a regression.
    pub fn has_regressions(&self) -> bool {
        self.overall.regression_count > 0
    }

    /// Whether the model's overall pass rate dropped significantly.
    pub fn dropped_significantly(&self) -> bool {
        self.overall.significant && self.overall.difference < 0.0
    }

    /// Whether the overall pass rate dropped significantly, or any category's verdict is a
    /// regression (after the correction).
    pub fn has_significant_regression(&self) -> bool {
        self.dropped_significantly() || self.categories.iter().any(|c| c.summary.verdict == Verdict::Regression)
    }

    /// Whether the overall verdict, or any category's, is inconclusive.
    pub fn is_inconclusive(&self) -> bool {
        self.overall.verdict == Verdict::Inconclusive
            || self.categories.iter().any(|c| c.summary.verdict == Verdict::Inconclusive)
    }
}

/// Whole numbers as integers (`84`), fractions as floats (`84.5`).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `serialize_with` passes a reference
fn count_or_mean<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.is_finite() && *value >= 0.0 && *value < 9.0e15 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = *value as u64;
        s.serialize_u64(n)
    } else {
        s.serialize_f64(*value)
    }
}

/// Per model: its categories, and every common test's (base, new) record for the overall
/// statistics.
type PerModel = (Vec<CategoryCompare>, Vec<(Record, Record)>);

/// One side's record of one test.
#[derive(Clone, Copy, Debug, Default)]
struct Record {
    passed: usize,
    runs: usize,
    errored: usize,
}

impl Record {
    fn rate(self) -> f64 {
        self.passed as f64 / self.runs as f64
    }
    fn stable_pass(self) -> bool {
        self.runs > 0 && self.passed == self.runs
    }
    fn stable_fail(self) -> bool {
        self.runs > 0 && self.passed == 0
    }
}

/// One side of a (model, category): its judged runs lined up.
struct SideView<'m, 'a> {
    matrix: Option<&'m Matrix<'a>>,
    scored: Vec<usize>,
}

impl<'a> SideView<'_, 'a> {
    fn record(&self, row: Option<usize>) -> Record {
        let (Some(m), Some(t)) = (self.matrix, row) else { return Record::default() };
        let cells = m.row(t);
        let mut r = Record::default();
        for &run in &self.scored {
            match cells[run] {
                Cell::Pass => {
                    r.passed += 1;
                    r.runs += 1;
                }
                Cell::Fail => r.runs += 1,
                Cell::Errored => r.errored += 1,
                Cell::NotRun | Cell::Unscored => {}
            }
        }
        r
    }

    /// The most frequent error label among this side's failures of a test (ties: by name).
    fn error_of(&self, row: Option<usize>) -> Option<&'a ErrorType> {
        let (m, t) = (self.matrix?, row?);
        let mut counts: BTreeMap<&'a ErrorType, usize> = BTreeMap::new();
        let cells = m.row(t);
        for &run in self.scored.iter().filter(|&&run| cells[run] == Cell::Fail) {
            if let Some(e) = m.error_type(t, run) {
                *counts.entry(e).or_default() += 1;
            }
        }
        counts.into_iter().max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0))).map(|(e, _)| e)
    }

    fn names(&self) -> Vec<String> {
        self.matrix.map(|m| self.scored.iter().map(|&r| m.runs[r].run.clone()).collect()).unwrap_or_default()
    }

    /// Mean (over runs) of tests passed and tests judged (listed and not errored).
    fn means(&self) -> (f64, f64) {
        let Some(m) = self.matrix else { return (0.0, 0.0) };
        if self.scored.is_empty() {
            return (0.0, 0.0);
        }
        let n = self.scored.len() as f64;
        let passed: usize = self.scored.iter().map(|&r| m.runs[r].passed()).sum();
        // Errored tests judge nothing: the rate is over the tests each run judged.
        let judged: usize = self.scored.iter().map(|&r| m.runs[r].len() - m.runs[r].errored()).sum();
        (passed as f64 / n, judged as f64 / n)
    }
}

fn side<'m, 'a>(matrix: Option<&'m Matrix<'a>>) -> SideView<'m, 'a> {
    let scored = matrix.map(|m| (0..m.runs.len()).filter(|&r| m.runs[r].scored).collect()).unwrap_or_default();
    SideView { matrix, scored }
}

fn all_run_names(runs: &[CategoryRun]) -> Vec<String> {
    let mut names: Vec<String> = runs.iter().map(|r| r.run.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    names.sort_by(|a, b| id::natural_str_cmp(a, b));
    names
}

/// Compares the runs in `base` with the runs in `new`, test by test within each
/// (model, category). When each side holds one model and they differ (two systems on one
/// benchmark), they are compared with each other.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::compare;
///
/// let mut base = CategoryRun::new("v1", "m", "simple");
/// base.push("simple_0", Outcome::Pass, None);
/// base.push("simple_1", Outcome::Fail, Some("type_error:simple"));
/// base.push("simple_2", Outcome::Pass, None);
/// let mut new = CategoryRun::new("v2", "m", "simple");
/// new.push("simple_0", Outcome::Fail, Some("value_error:string"));
/// new.push("simple_1", Outcome::Pass, None);
/// new.push("simple_3", Outcome::Pass, None);
/// let report = compare::compare(&[base], &[new]);
/// let c = &report.models[0].categories[0];
/// assert_eq!(c.regressions, ["simple_0"]);
/// assert_eq!(c.improvements, ["simple_1"]);
/// assert_eq!((c.only_in_base.as_slice(), c.only_in_new.as_slice()), (&["simple_2".to_string()][..], &["simple_3".to_string()][..]));
/// assert_eq!(c.summary.regressions_by_error_type["value_error:string"], 1);
/// ```
pub fn compare(base: &[CategoryRun], new: &[CategoryRun]) -> CompareReport {
    compare_with(base, new, Settings::default())
}

/// [`compare`], with the effect size and the correction chosen.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::compare::{self, Correction, Settings, Verdict};
///
/// let run = |name: &str, passing: usize| {
///     let mut r = CategoryRun::new(name, "m", "simple");
///     for t in 0..400 {
///         r.push(&format!("simple_{t}"), if t < passing { Outcome::Pass } else { Outcome::Fail }, None);
///     }
///     r
/// };
/// let report = compare::compare_with(&[run("a", 300)], &[run("b", 240)], Settings::default());
/// let c = &report.models[0].categories[0].summary;
/// assert_eq!(c.verdict, Verdict::Regression);
/// let same = compare::compare_with(&[run("a", 300)], &[run("b", 300)], Settings { correction: Correction::None, ..Settings::default() });
/// assert_eq!(same.models[0].categories[0].summary.verdict, Verdict::NoChange);
/// ```
pub fn compare_with(base: &[CategoryRun], new: &[CategoryRun], settings: Settings) -> CompareReport {
    // One model on each side, and not the same one: compare them with each other (system
    // A against system B), under the name `A → B`.
    fn models(runs: &[CategoryRun]) -> BTreeSet<&str> {
        runs.iter().map(|r| r.model.as_str()).collect()
    }
    let (bm, nm) = (models(base), models(new));
    if bm.len() == 1 && nm.len() == 1 && bm != nm {
        let name = format!("{} → {}", bm.iter().next().unwrap_or(&""), nm.iter().next().unwrap_or(&""));
        let relabel = |runs: &[CategoryRun]| {
            runs.iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.model.clone_from(&name);
                    r
                })
                .collect::<Vec<_>>()
        };
        return compare_matched(&relabel(base), &relabel(new), settings);
    }
    compare_matched(base, new, settings)
}

fn compare_matched(base: &[CategoryRun], new: &[CategoryRun], settings: Settings) -> CompareReport {
    let base_runs = all_run_names(base);
    let new_runs = all_run_names(new);
    let mode = if base_runs.len() <= 1 && new_runs.len() <= 1 { Mode::Runs } else { Mode::Groups };
    let base_m = group(base);
    let new_m = group(new);
    let key = |m: &Matrix<'_>| (m.model.to_string(), m.category.to_string());
    let base_by: HashMap<(String, String), &Matrix<'_>> = base_m.iter().map(|m| (key(m), m)).collect();
    let new_by: HashMap<(String, String), &Matrix<'_>> = new_m.iter().map(|m| (key(m), m)).collect();
    let keys: BTreeSet<(String, String)> = base_by.keys().chain(new_by.keys()).cloned().collect();

    let mut models: BTreeMap<String, PerModel> = BTreeMap::new();
    for k in keys {
        let (cat, pairs) = category(mode, &k.1, &side(base_by.get(&k).copied()), &side(new_by.get(&k).copied()));
        let entry = models.entry(k.0).or_default();
        entry.0.push(cat);
        entry.1.extend(pairs);
    }
    let models = models
        .into_iter()
        .map(|(model, (mut categories, pairs))| {
            let mut overall = overall(mode, &categories, &pairs);
            decide(&mut categories, &mut overall, settings);
            let changes: Vec<crate::bfcl_score::CategoryChange<'_>> = categories
                .iter()
                .map(|c| crate::bfcl_score::CategoryChange {
                    category: &c.category,
                    common: c.summary.common,
                    base_rate: c.summary.base_rate,
                    new_rate: c.summary.new_rate,
                    difference: c.summary.difference,
                    se_difference: c.summary.se_difference,
                })
                .collect();
            let bfcl = crate::bfcl_score::change(&changes);
            ModelCompare { model, categories, overall, bfcl }
        })
        .collect();
    let mut run_meta = BTreeMap::new();
    for r in base.iter().chain(new) {
        if let Some(m) = &r.meta {
            run_meta.entry(r.run.clone()).or_insert_with(|| std::sync::Arc::clone(m));
        }
    }
    CompareReport { mode, base_runs, new_runs, run_meta, models, efficiency: None, settings, reference: None }
}

/// Corrects the categories' p-values for being tested together, then gives every category
/// and the overall figure its verdict.
fn decide(categories: &mut [CategoryCompare], overall: &mut Summary, settings: Settings) {
    let tested: Vec<usize> = (0..categories.len()).filter(|&i| categories[i].summary.common > 0).collect();
    let p: Vec<f64> = tested.iter().map(|&i| categories[i].summary.p_value).collect();
    let adjusted = settings.correction.adjust(&p);
    test_verdicts(categories, settings.test_correction);
    for (&i, q) in tested.iter().zip(adjusted) {
        categories[i].summary.p_adjusted = q;
    }
    for c in categories.iter_mut() {
        verdict(&mut c.summary, settings.effect);
    }
    verdict(overall, settings.effect);
}

/// Every common test's verdict in a group comparison: Fisher's exact test of its two
/// rates, the p-values corrected across all the tests of the model's categories.
fn test_verdicts(categories: &mut [CategoryCompare], correction: Correction) {
    let p: Vec<f64> = categories
        .iter()
        .flat_map(|c| &c.tests)
        .map(|t| stats::fisher_exact(t.base[0], t.base[1] - t.base[0], t.new[0], t.new[1] - t.new[0]))
        .collect();
    let adjusted = correction.adjust(&p);
    let mut at = 0;
    for c in categories.iter_mut() {
        c.test_verdicts = c
            .tests
            .iter()
            .map(|t| {
                let (p_value, p_adjusted) = (p[at], adjusted[at]);
                at += 1;
                let rate = |[passed, runs]: [usize; 2]| passed as f64 / runs.max(1) as f64;
                let (base_rate, new_rate) = (rate(t.base), rate(t.new));
                let verdict = if p_adjusted < ALPHA && new_rate < base_rate {
                    TestChange::Regressed
                } else if p_adjusted < ALPHA && new_rate > base_rate {
                    TestChange::Improved
                } else if (new_rate - base_rate).abs() < 1e-12 {
                    TestChange::NoChange
                } else {
                    TestChange::Undecided
                };
                // The raw p-value this test's would have to reach for its corrected one to pass
                // α, the correction's factor staying as it is.
                let factor = if p_value > 0.0 { (p_adjusted / p_value).max(1.0) } else { 1.0 };
                let runs_needed = (verdict == TestChange::Undecided)
                    .then(|| runs_to_decide(base_rate, new_rate, ALPHA / factor, t.base[1].max(t.new[1])))
                    .flatten();
                TestVerdict {
                    id: t.id.clone(),
                    base_rate,
                    new_rate,
                    base: t.base,
                    new: t.new,
                    p_value,
                    p_adjusted,
                    verdict,
                    runs_needed,
                }
            })
            .collect();
    }
}

/// The runs per side that would make two pass rates `a` and `b` differ at level `alpha`,
/// were they to stay as they are: the normal approximation to the test of two proportions,
/// `n = z²·(a(1−a) + b(1−b)) / (a − b)²` with `z` the two-sided quantile of `alpha`, and
/// Fisher's exact test itself when both rates are 0 or 1 (the approximation has no variance
/// there). At least one run more than `now`; `None` past [`MAX_RUNS_NEEDED`].
///
/// ```
/// // 8 of 10 against 6 of 10 at α = 0.05: 39 runs a side.
/// let n = evaltally_analyzer::compare::runs_to_decide(0.8, 0.6, 0.05, 10);
/// assert_eq!(n, Some(39));
/// ```
pub fn runs_to_decide(a: f64, b: f64, alpha: f64, now: usize) -> Option<usize> {
    let d = (a - b).abs();
    if d < 1e-12 || alpha.is_nan() || alpha <= 0.0 {
        return None;
    }
    let var = a * (1.0 - a) + b * (1.0 - b);
    let n = if var < 1e-12 {
        // 0 against 1 on every run: the first n whose exact p-value passes.
        (1..=MAX_RUNS_NEEDED).find(|&n| stats::fisher_exact(n, 0, 0, n) < alpha)?
    } else {
        let z = quantile(alpha);
        let n = (z * z * var / (d * d)).ceil();
        if n > MAX_RUNS_NEEDED as f64 {
            return None;
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = n as usize;
        n
    };
    let n = n.max(now + 1);
    (n <= MAX_RUNS_NEEDED).then_some(n)
}

/// The z whose two-sided p-value is `alpha`, by bisection on [`stats::normal::two_sided_p`].
fn quantile(alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 40.0_f64);
    for _ in 0..100 {
        let mid = f64::midpoint(lo, hi);
        if stats::normal::two_sided_p(mid) > alpha { lo = mid } else { hi = mid }
    }
    hi
}

fn verdict(s: &mut Summary, effect: f64) {
    s.significant = s.common > 0 && s.p_adjusted < ALPHA;
    s.verdict = if s.common == 0 {
        Verdict::NotCompared
    } else if s.significant && s.difference < 0.0 {
        Verdict::Regression
    } else if s.significant && s.difference > 0.0 {
        Verdict::Improvement
    } else {
        match (s.mde, s.se_difference) {
            (Some(mde), Some(se)) if mde <= effect && s.difference.abs() + stats::Z95 * se <= effect => {
                Verdict::NoChange
            }
            _ => Verdict::Inconclusive,
        }
    };
}

/// The paired standard error of the mean of `diffs`: their sample standard deviation over
/// `√n`, which is `√((Var A + Var B − 2·Cov(A, B)) / n)` for `diffs = B − A`. `None` below
/// 2 differences.
///
/// ```
/// // Ten tests: four changed (three up, one down), six the same.
/// let d = [0.0, -1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0];
/// let se = evaltally_analyzer::compare::paired_se(&d).unwrap();
/// assert!((se - 0.2).abs() < 1e-12);
/// ```
pub fn paired_se(diffs: &[f64]) -> Option<f64> {
    if diffs.len() < 2 {
        return None;
    }
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some((var / n).sqrt())
}

fn category(
    mode: Mode,
    name: &str,
    base: &SideView<'_, '_>,
    new: &SideView<'_, '_>,
) -> (CategoryCompare, Vec<(Record, Record)>) {
    // Every test either side judged, in natural order.
    let mut ids: Vec<&str> = Vec::new();
    let mut rows: HashMap<&str, (Option<usize>, Option<usize>)> = HashMap::new();
    for (which, s) in [(0, base), (1, new)] {
        if let Some(m) = s.matrix {
            for (t, id) in m.ids.iter().enumerate() {
                let e = rows.entry(id).or_insert_with(|| {
                    ids.push(id);
                    (None, None)
                });
                if which == 0 { e.0 = Some(t) } else { e.1 = Some(t) }
            }
        }
    }
    ids.sort_by(|a, b| id::natural_cmp(a, b));

    let mut out = CategoryCompare {
        category: name.to_string(),
        base_runs: base.names(),
        new_runs: new.names(),
        summary: Summary::default(),
        only_in_base: Vec::new(),
        only_in_new: Vec::new(),
        errored_in_new: Vec::new(),
        errored_in_base: Vec::new(),
        regressions: Vec::new(),
        improvements: Vec::new(),
        flaky_regressions: Vec::new(),
        flaky_improvements: Vec::new(),
        tests: Vec::new(),
        test_verdicts: Vec::new(),
    };
    let s = &mut out.summary;
    let mut pairs = Vec::new();
    for id in ids {
        let (rb, rn) = rows[id];
        let (b, n) = (base.record(rb), new.record(rn));
        match (b.runs > 0, n.runs > 0) {
            (false, false) => continue,
            (true, false) => {
                if n.errored > 0 { &mut out.errored_in_new } else { &mut out.only_in_base }.push(id.to_string());
                continue;
            }
            (false, true) => {
                if b.errored > 0 { &mut out.errored_in_base } else { &mut out.only_in_new }.push(id.to_string());
                continue;
            }
            (true, true) => {}
        }
        pairs.push((b, n));
        if mode == Mode::Groups {
            out.tests.push(TestRates { id: id.to_string(), base: [b.passed, b.runs], new: [n.passed, n.runs] });
        }
        let (regressed, improved) = (b.stable_pass() && n.stable_fail(), b.stable_fail() && n.stable_pass());
        if regressed {
            out.regressions.push(id.to_string());
            if let Some(e) = new.error_of(rn) {
                count(&mut s.regressions_by_error_type, &mut s.regressions_by_error_family, e);
            }
        } else if improved {
            out.improvements.push(id.to_string());
            if let Some(e) = base.error_of(rb) {
                count(&mut s.improvements_by_error_type, &mut s.improvements_by_error_family, e);
            }
        } else if n.rate() < b.rate() {
            out.flaky_regressions.push(id.to_string());
        } else if n.rate() > b.rate() {
            out.flaky_improvements.push(id.to_string());
        }
    }
    s.common = pairs.len();
    s.only_in_base_count = out.only_in_base.len();
    s.only_in_new_count = out.only_in_new.len();
    s.regression_count = out.regressions.len();
    s.improvement_count = out.improvements.len();
    s.flaky_regression_count = out.flaky_regressions.len();
    s.flaky_improvement_count = out.flaky_improvements.len();
    (s.base_passed, s.base_total) = base.means();
    (s.new_passed, s.new_total) = new.means();
    finish(mode, s, &pairs);
    (out, pairs)
}

fn count(by_type: &mut BTreeMap<String, usize>, by_family: &mut BTreeMap<String, usize>, e: &ErrorType) {
    *by_type.entry(e.as_str().to_string()).or_default() += 1;
    *by_family.entry(e.family().to_string()).or_default() += 1;
}

fn overall(mode: Mode, categories: &[CategoryCompare], pairs: &[(Record, Record)]) -> Summary {
    let mut s = Summary::default();
    for c in categories {
        let x = &c.summary;
        s.base_passed += x.base_passed;
        s.new_passed += x.new_passed;
        s.base_total += x.base_total;
        s.new_total += x.new_total;
        s.common += x.common;
        s.only_in_base_count += x.only_in_base_count;
        s.only_in_new_count += x.only_in_new_count;
        s.regression_count += x.regression_count;
        s.improvement_count += x.improvement_count;
        s.flaky_regression_count += x.flaky_regression_count;
        s.flaky_improvement_count += x.flaky_improvement_count;
        for (into, from) in [
            (&mut s.regressions_by_error_type, &x.regressions_by_error_type),
            (&mut s.regressions_by_error_family, &x.regressions_by_error_family),
            (&mut s.improvements_by_error_type, &x.improvements_by_error_type),
            (&mut s.improvements_by_error_family, &x.improvements_by_error_family),
        ] {
            for (k, v) in from {
                *into.entry(k.clone()).or_default() += v;
            }
        }
    }
    finish(mode, &mut s, pairs);
    s
}

/// Rates, intervals, net change and the significance test, from the counts and the
/// per-test records of the common tests.
fn finish(mode: Mode, s: &mut Summary, pairs: &[(Record, Record)]) {
    s.base_rate = if s.base_total > 0.0 { s.base_passed / s.base_total } else { 0.0 };
    s.new_rate = if s.new_total > 0.0 { s.new_passed / s.new_total } else { 0.0 };
    s.net =
        i64::try_from(s.improvement_count).unwrap_or(i64::MAX) - i64::try_from(s.regression_count).unwrap_or(i64::MAX);
    let diffs: Vec<f64> = pairs.iter().map(|(b, n)| n.rate() - b.rate()).collect();
    s.difference = if diffs.is_empty() { 0.0 } else { diffs.iter().sum::<f64>() / diffs.len() as f64 };
    match mode {
        Mode::Runs => {
            let wilson = |passed: f64, total: f64| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let (p, t) = (passed as usize, total as usize);
                let (lo, hi) = stats::wilson(p, t, stats::Z95);
                [lo, hi]
            };
            s.base_wilson = Some(wilson(s.base_passed, s.base_total));
            s.new_wilson = Some(wilson(s.new_passed, s.new_total));
            s.p_value = stats::mcnemar_exact(s.regression_count, s.improvement_count);
            s.test = "exact McNemar";
            s.difference_interval =
                stats::paired_wald(s.regression_count, s.improvement_count, pairs.len(), stats::Z95)
                    .map(|(lo, hi)| [lo, hi]);
        }
        Mode::Groups => {
            s.difference_interval =
                stats::bootstrap_mean_interval(&diffs, ITERATIONS, 0.95, stats::DEFAULT_SEED).map(|(lo, hi)| [lo, hi]);
            s.p_value = stats::sign_flip_p(&diffs, ITERATIONS, stats::DEFAULT_SEED);
            s.test = "paired sign-flip";
        }
    }
    s.p_adjusted = s.p_value;
    s.significant = s.p_value < ALPHA;
    s.se_difference = paired_se(&diffs);
    s.se_interval = s.se_difference.map(|se| [s.difference - stats::Z95 * se, s.difference + stats::Z95 * se]);
    let runs = pairs.iter().map(|(b, n)| b.runs.max(n.runs)).max().unwrap_or(1).max(1);
    let one_change = 1.0 / (pairs.len().max(1) * runs) as f64;
    s.mde = s.se_difference.map(|se| stats::power::mde(se.max(one_change)));
}
