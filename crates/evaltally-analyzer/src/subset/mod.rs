//! Fewer tests, the same answer: a subset of a benchmark's tests that predicts each model's
//! full score, fitted on many models' runs, and the estimate of a new model's score from its
//! runs of the subset alone, with an interval.
//!
//! The model is a two-parameter logistic item response model with one ability per
//! (model, category) ([`fit`]); the anchors are chosen per category by k-means on the tests'
//! fitted curves ([`Subset::build`]); a model's estimate is its observed anchors plus the
//! predicted pass probability of every other test ([`Subset::estimate`]); [`check`] measures
//! it by leaving each model out in turn. `docs/statistics.md` has the model, the choices and
//! when not to trust it.
//!
//! Everything here is a pure function of its input and deterministic: no random number is
//! drawn but the random baseline's, from a fixed seed.

mod anchors;
mod check;
mod estimate;
mod fit;
mod linalg;

use std::collections::BTreeMap;

use evaltally_core::{CategoryRun, Outcome, id};
use serde::{Deserialize, Serialize};

pub use anchors::{Size, allocate};
pub use check::{
    Baseline, CategoryCheck, Check, CheckedModel, NotChecked, SizeTried, SubsetPlan, check, plan, spearman,
};
pub use estimate::{CategoryEstimate, PERSON_FIT_ANCHORS, PERSON_FIT_WARN, Z90};
pub use fit::{Fitted, MAX_SWEEPS, TOLERANCE, fit};

/// The prior sd of a category's deviation from a model's overall ability.
pub const TAU: f64 = 1.0;

/// A test of the benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    /// Index into [`Data::categories`].
    pub category: usize,
    /// The test id.
    pub id: String,
}

/// Many models' outcomes on the same tests: per (model, test) the passes and the judged
/// runs (a model's several runs of a test are binomial trials).
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// The models, in natural order.
    pub models: Vec<String>,
    /// The categories, in natural order.
    pub categories: Vec<String>,
    /// The tests, by category then natural id.
    pub tests: Vec<Test>,
    k: Vec<u32>,
    n: Vec<u32>,
}

impl Data {
    /// Lines up the runs' outcomes by model and test. A pass counts as a pass, a failure
    /// as a failure, an errored result as a failure when `errors_as_fail` (else it is not
    /// judged), and an unscored one not at all.
    ///
    /// ```
    /// use evaltally_analyzer::subset::Data;
    /// use evaltally_core::{CategoryRun, Outcome};
    /// let mut a = CategoryRun::new("r1", "m1", "simple");
    /// a.push("t1", Outcome::Pass, None);
    /// a.push("t2", Outcome::Fail, None);
    /// let mut b = CategoryRun::new("r2", "m1", "simple");
    /// b.push("t1", Outcome::Fail, None);
    /// let data = Data::from_runs(&[a, b], false);
    /// assert_eq!((data.models.len(), data.tests.len()), (1, 2));
    /// assert_eq!((data.cell(0, 0), data.cell(0, 1)), ((1, 2), (0, 1)));
    /// ```
    pub fn from_runs(runs: &[CategoryRun], errors_as_fail: bool) -> Self {
        let mut cells: BTreeMap<(&str, &str, &str), (u32, u32)> = BTreeMap::new();
        for run in runs {
            for t in run.tests() {
                let judged = trial(t.outcome, errors_as_fail);
                if let Some(pass) = judged {
                    let cell = cells.entry((run.model.as_str(), run.category.as_str(), t.id)).or_default();
                    cell.0 += pass;
                    cell.1 += 1;
                }
            }
        }
        let mut models: Vec<&str> = cells.keys().map(|k| k.0).collect();
        models.sort_by(|a, b| id::natural_str_cmp(a, b));
        models.dedup();
        let mut tests: Vec<(&str, &str)> = cells.keys().map(|k| (k.1, k.2)).collect();
        tests.sort_by(|a, b| id::natural_str_cmp(a.0, b.0).then_with(|| id::natural_str_cmp(a.1, b.1)));
        tests.dedup();
        let mut categories: Vec<&str> = tests.iter().map(|t| t.0).collect();
        categories.dedup();
        let model_at: BTreeMap<&str, usize> = models.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        let test_at: BTreeMap<(&str, &str), usize> = tests.iter().enumerate().map(|(i, t)| (*t, i)).collect();
        let category_at: BTreeMap<&str, usize> = categories.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        let (m_count, j_count) = (models.len(), tests.len());
        let mut k = vec![0; m_count * j_count];
        let mut n = vec![0; m_count * j_count];
        for ((model, category, test), (kk, nn)) in cells {
            let at = model_at[model] * j_count + test_at[&(category, test)];
            k[at] = kk;
            n[at] = nn;
        }
        Self {
            models: models.into_iter().map(str::to_string).collect(),
            categories: categories.iter().map(|c| (*c).to_string()).collect(),
            tests: tests.into_iter().map(|(c, t)| Test { category: category_at[c], id: t.to_string() }).collect(),
            k,
            n,
        }
    }

    /// Data from its parts: `k` and `n` are `models × tests`, row-major.
    ///
    /// # Panics
    /// When the sizes do not agree, a test's category is out of range, or a cell has more
    /// passes than runs.
    pub fn new(models: Vec<String>, categories: Vec<String>, tests: Vec<Test>, k: Vec<u32>, n: Vec<u32>) -> Self {
        assert_eq!(k.len(), models.len() * tests.len(), "k is models × tests");
        assert_eq!(n.len(), k.len(), "n is models × tests");
        assert!(tests.iter().all(|t| t.category < categories.len()), "a test's category is out of range");
        assert!(k.iter().zip(&n).all(|(k, n)| k <= n), "more passes than runs");
        Self { models, categories, tests, k, n }
    }

    /// Passes and judged runs of model `m` on test `j` (`(0, 0)`: not run).
    pub fn cell(&self, m: usize, j: usize) -> (u32, u32) {
        let at = m * self.tests.len() + j;
        (self.k[at], self.n[at])
    }

    /// Each category's number of tests.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes = vec![0; self.categories.len()];
        for t in &self.tests {
            sizes[t.category] += 1;
        }
        sizes
    }

    /// Model `m`'s full score: per category the mean of its pass rates over the tests it
    /// ran (`None` for a category it ran none of), and the mean of those categories.
    pub fn score(&self, m: usize) -> (Vec<Option<f64>>, Option<f64>) {
        let d = self.categories.len();
        let mut sums = vec![0.0; d];
        let mut counts = vec![0usize; d];
        for (j, t) in self.tests.iter().enumerate() {
            let (k, n) = self.cell(m, j);
            if n > 0 {
                sums[t.category] += f64::from(k) / f64::from(n);
                counts[t.category] += 1;
            }
        }
        let per: Vec<Option<f64>> = (0..d).map(|c| (counts[c] > 0).then(|| sums[c] / counts[c] as f64)).collect();
        let known: Vec<f64> = per.iter().flatten().copied().collect();
        let overall = (!known.is_empty()).then(|| known.iter().sum::<f64>() / known.len() as f64);
        (per, overall)
    }

    /// The data without model `m` (for leaving it out).
    pub(crate) fn without(&self, m: usize) -> Self {
        let j = self.tests.len();
        let keep = |v: &[u32]| -> Vec<u32> { v[..m * j].iter().chain(&v[(m + 1) * j..]).copied().collect() };
        let mut models = self.models.clone();
        models.remove(m);
        Self {
            models,
            categories: self.categories.clone(),
            tests: self.tests.clone(),
            k: keep(&self.k),
            n: keep(&self.n),
        }
    }

    /// A fingerprint of the tests (categories and ids): XXH3 of their list, in hex.
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for t in &self.tests {
            text.push_str(&self.categories[t.category]);
            text.push('\0');
            text.push_str(&t.id);
            text.push('\n');
        }
        format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
    }
}

/// An anchor: a test of the subset and how many tests it stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor {
    /// Index into [`Data::tests`].
    pub test: usize,
    /// The size of the cluster of tests it was chosen for.
    pub weight: f64,
}

/// The subset file `evaltally subset` writes and `evaltally estimate` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Subset {
    /// `evaltally.subset/1`.
    pub schema: String,
    /// What it was fitted on.
    pub fitted_on: FittedOn,
    /// The model fitted.
    pub model: ModelSpec,
    /// The categories, with their sizes and anchors.
    pub categories: Vec<SubsetCategory>,
    /// The prior covariance of a model's abilities (categories × categories): the fitted
    /// models' spread, which the estimate shrinks a new model's abilities toward.
    pub ability_covariance: Vec<Vec<f64>>,
    /// The chosen tests, by category then id.
    pub anchors: Vec<SubsetAnchor>,
    /// Every test of the benchmark with its fitted parameters, by category then id.
    pub tests: Vec<SubsetTest>,
}

/// What a subset was fitted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FittedOn {
    /// The models.
    pub models: Vec<String>,
    /// How many tests.
    pub tests: usize,
    /// [`Data::fingerprint`] of the tests.
    pub fingerprint: String,
}

/// The fitted model's kind and how the fit went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelSpec {
    /// `2pl-category-abilities`.
    pub kind: String,
    /// The prior sd of a category's deviation from a model's overall ability.
    pub tau: f64,
    /// Sweeps the fit took.
    pub sweeps: usize,
    /// Whether it converged.
    pub converged: bool,
}

/// A category of the benchmark in a subset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubsetCategory {
    /// Its name.
    pub category: String,
    /// Its tests.
    pub tests: usize,
    /// Its anchors.
    pub anchors: usize,
}

/// An anchor in a subset file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubsetAnchor {
    /// Its category.
    pub category: String,
    /// The test.
    pub id: String,
    /// The size of the cluster of tests it stands for.
    pub weight: f64,
}

/// A test's fitted parameters in a subset file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubsetTest {
    /// Its category.
    pub category: String,
    /// The test.
    pub id: String,
    /// Discrimination.
    pub a: f64,
    /// Difficulty.
    pub b: f64,
}

/// A test's result as a binomial trial: 1 for a pass, 0 for a failure (an error too with
/// `errors_as_fail`), none for a result not judged.
fn trial(outcome: Outcome, errors_as_fail: bool) -> Option<u32> {
    match if errors_as_fail { outcome.errors_as_failures() } else { outcome } {
        Outcome::Pass => Some(1),
        Outcome::Fail => Some(0),
        Outcome::Errored | Outcome::Unscored => None,
    }
}

/// What [`SubsetError::TooLittle`] says.
fn too_little(needed: usize, models: usize, tests: usize) -> String {
    let found = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if needed > 2 {
        format!(
            "leaving each model out in turn and fitting on the others needs at least {needed} models that ran every \
             category; found {}",
            found(models, "model")
        )
    } else {
        format!(
            "a subset is fitted on the runs of at least {needed} models over the same tests; found {}, {}",
            found(models, "model"),
            found(tests, "test")
        )
    }
}

/// The schema of a subset file (`evaltally_report::subset::SUBSET_SCHEMA` as a string).
pub const SUBSET_SCHEMA: &str = "evaltally.subset/1";

/// What is wrong with a subset or the runs estimated with it.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SubsetError {
    /// Fewer than two models, or no test; for leaving one model out in turn
    /// ([`check()`], [`plan()`]), fewer than three that ran every category.
    #[error("{}", too_little(*needed, *models, *tests))]
    TooLittle {
        /// Models needed: 2 to fit, 3 to leave one out and fit on the others.
        needed: usize,
        /// Models found (for 3, those that ran every category).
        models: usize,
        /// Tests found.
        tests: usize,
    },
    /// A size of 0, or more than the tests.
    #[error("--size must be between 1 and the {tests} tests; got {size}")]
    Size {
        /// The size asked.
        size: usize,
        /// The tests there are.
        tests: usize,
    },
    /// A category whose count is fixed ([`Size::fixed`]) is not in the runs, or has fewer
    /// tests than its count.
    #[error("--size: {0}")]
    Category(String),
    /// The fixed counts add up to more than the total ([`Size`]).
    #[error(
        "--size: the categories given take {fixed} anchors, more than the {total} in all; give a larger total (--size N)"
    )]
    Fixed {
        /// The anchors the fixed counts take.
        fixed: usize,
        /// The total asked.
        total: usize,
    },
    /// The file is of another schema.
    #[error("not a subset file of this version: its schema is `{0}`, expected `{SUBSET_SCHEMA}`")]
    Schema(String),
    /// The file does not hold together (a covariance of the wrong size, an anchor not among
    /// the tests).
    #[error("the subset file does not hold together: {0}")]
    Inconsistent(String),
}

impl Subset {
    /// Fits the model on `data` and chooses `size` anchors ([`Size`]: a number is spread
    /// evenly over the categories, [`allocate`]).
    ///
    /// # Errors
    ///
    /// [`SubsetError::TooLittle`] for fewer than two models or no test; what
    /// [`Size::counts`] refuses.
    pub fn build(data: &Data, size: impl Into<Size>) -> Result<Self, SubsetError> {
        let (fitted, counts) = fitted(data, &size.into())?;
        Ok(Self::from_fit(data, &fitted, &counts))
    }

    /// The subset of `counts` anchors per category on a fit made.
    fn from_fit(data: &Data, fitted: &Fitted, counts: &[usize]) -> Self {
        let chosen = choose(data, fitted, counts);
        let d = data.categories.len();
        let sizes = data.sizes();
        let mut per = vec![0usize; d];
        for a in &chosen {
            per[data.tests[a.test].category] += 1;
        }
        let covariance = ability_covariance(data, fitted);
        Self {
            schema: SUBSET_SCHEMA.to_string(),
            fitted_on: FittedOn {
                models: data.models.clone(),
                tests: data.tests.len(),
                fingerprint: data.fingerprint(),
            },
            model: ModelSpec {
                kind: "2pl-category-abilities".to_string(),
                tau: TAU,
                sweeps: fitted.sweeps,
                converged: fitted.converged,
            },
            categories: (0..d)
                .map(|c| SubsetCategory { category: data.categories[c].clone(), tests: sizes[c], anchors: per[c] })
                .collect(),
            ability_covariance: (0..d).map(|c| covariance[c * d..(c + 1) * d].to_vec()).collect(),
            anchors: chosen
                .iter()
                .map(|a| SubsetAnchor {
                    category: data.categories[data.tests[a.test].category].clone(),
                    id: data.tests[a.test].id.clone(),
                    weight: a.weight,
                })
                .collect(),
            tests: data
                .tests
                .iter()
                .enumerate()
                .map(|(j, t)| SubsetTest {
                    category: data.categories[t.category].clone(),
                    id: t.id.clone(),
                    a: fitted.a[j],
                    b: fitted.b[j],
                })
                .collect(),
        }
    }

    /// Checks that the file holds together: its schema, the covariance's size, the anchors
    /// among the tests.
    pub fn check_consistency(&self) -> Result<(), SubsetError> {
        if self.schema != SUBSET_SCHEMA {
            return Err(SubsetError::Schema(self.schema.clone()));
        }
        let d = self.categories.len();
        if self.ability_covariance.len() != d || self.ability_covariance.iter().any(|r| r.len() != d) {
            return Err(SubsetError::Inconsistent(format!("ability_covariance is not {d} × {d}")));
        }
        let names: std::collections::BTreeSet<&str> = self.categories.iter().map(|c| c.category.as_str()).collect();
        if let Some(t) = self.tests.iter().find(|t| !names.contains(t.category.as_str())) {
            return Err(SubsetError::Inconsistent(format!(
                "test `{}` is of an unknown category `{}`",
                t.id, t.category
            )));
        }
        let tests: std::collections::BTreeSet<(&str, &str)> =
            self.tests.iter().map(|t| (t.category.as_str(), t.id.as_str())).collect();
        if let Some(a) = self.anchors.iter().find(|a| !tests.contains(&(a.category.as_str(), a.id.as_str()))) {
            return Err(SubsetError::Inconsistent(format!("anchor `{}` is not among the tests", a.id)));
        }
        Ok(())
    }

    /// Each model's estimated full score, per category and overall, from `runs` (which may
    /// hold only the anchors, or every test: only the anchors are read). Models are in
    /// natural order; a model none of whose runs holds a test of the subset has no
    /// estimate (it would be the prior alone) and is left out.
    pub fn estimate(&self, runs: &[CategoryRun], errors_as_fail: bool) -> Result<Vec<ModelEstimate>, SubsetError> {
        self.check_consistency()?;
        // Per model: (k, n) of each (category, test) it ran.
        let mut observed: BTreeMap<&str, Cells<'_>> = BTreeMap::new();
        for run in runs {
            for t in run.tests() {
                let judged = trial(t.outcome, errors_as_fail);
                let Some(pass) = judged else { continue };
                let cell =
                    observed.entry(run.model.as_str()).or_default().entry((run.category.as_str(), t.id)).or_default();
                cell.0 += pass;
                cell.1 += 1;
            }
        }
        let mut models: Vec<&str> = observed.keys().copied().collect();
        models.sort_by(|x, y| id::natural_str_cmp(x, y));
        let prepared = self.prepare();
        Ok(models
            .into_iter()
            .map(|model| {
                let cells: Vec<(&str, &str, u32, u32)> =
                    observed[model].iter().map(|(&(c, t), &(k, n))| (c, t, k, n)).collect();
                prepared.estimate_model(model, &cells)
            })
            .filter(|e| e.overall.tests_run > 0)
            .collect())
    }

    /// What every model's estimate reads from the subset, built once: see
    /// [`Prepared::estimate_model`].
    pub(crate) fn prepare(&self) -> Prepared<'_> {
        let category_at: BTreeMap<&str, usize> =
            self.categories.iter().enumerate().map(|(i, c)| (c.category.as_str(), i)).collect();
        let test_at: BTreeMap<(&str, &str), usize> =
            self.tests.iter().enumerate().map(|(j, t)| ((t.category.as_str(), t.id.as_str()), j)).collect();
        let mut weight = vec![0.0; self.tests.len()];
        let mut anchor = vec![false; self.tests.len()];
        for a in &self.anchors {
            if let Some(&j) = test_at.get(&(a.category.as_str(), a.id.as_str())) {
                weight[j] = a.weight;
                anchor[j] = true;
            }
        }
        Prepared {
            subset: self,
            a: self.tests.iter().map(|t| t.a).collect(),
            b: self.tests.iter().map(|t| t.b).collect(),
            category: self.tests.iter().map(|t| category_at[t.category.as_str()]).collect(),
            covariance: self.ability_covariance.iter().flatten().copied().collect(),
            weight,
            anchor,
            test_at,
        }
    }
}

/// A subset's tests as the estimate reads them: their parameters in vectors, and where
/// each (category, test) is.
pub(crate) struct Prepared<'s> {
    subset: &'s Subset,
    a: Vec<f64>,
    b: Vec<f64>,
    category: Vec<usize>,
    covariance: Vec<f64>,
    weight: Vec<f64>,
    anchor: Vec<bool>,
    test_at: BTreeMap<(&'s str, &'s str), usize>,
}

impl Prepared<'_> {
    /// One model's estimate from its `(category, test, passes, runs)` cells: only those of
    /// anchors are read.
    pub(crate) fn estimate_model(&self, model: &str, cells: &[(&str, &str, u32, u32)]) -> ModelEstimate {
        let items = estimate::Items {
            a: &self.a,
            b: &self.b,
            category: &self.category,
            categories: self.subset.categories.len(),
            covariance: &self.covariance,
            weight: &self.weight,
        };
        let observed: Vec<(usize, u32, u32)> = cells
            .iter()
            .filter_map(|(c, t, k, n)| Some((*self.test_at.get(&(*c, *t))?, *k, *n)))
            .filter(|&(j, _, _)| self.anchor[j])
            .collect();
        let runs = observed.iter().map(|o| o.2).max().unwrap_or(1);
        ModelEstimate::new(model, self.subset, &estimate::estimate(&items, &observed, runs))
    }
}

/// A model's passes and judged runs per (category, test).
type Cells<'a> = BTreeMap<(&'a str, &'a str), (u32, u32)>;

/// A model's estimated full score.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelEstimate {
    /// The model.
    pub model: String,
    /// Per category.
    pub categories: Vec<ScoreEstimate>,
    /// The mean of the categories.
    pub overall: ScoreEstimate,
    /// BFCL's overall score, from the categories with BFCL's own weights, when every
    /// category carries a BFCL v4 name ([`crate::bfcl_score`]); a scoring category the
    /// subset does not hold counts 0, as BFCL counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bfcl_overall: Option<BfclEstimate>,
    /// How well the item model explains the model's anchor outcomes: their standardized
    /// log-likelihood (`l_z`), near 0 when it answers as the fitted models do; below
    /// [`PERSON_FIT_WARN`], it answers unlike them (it fails easy tests as often as hard
    /// ones) and the estimate may be off by more than its interval says: read the anchor
    /// mean. Absent under [`PERSON_FIT_ANCHORS`] anchors run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person_fit: Option<f64>,
}

impl ModelEstimate {
    /// The model's [`person_fit`](Self::person_fit) when it is below [`PERSON_FIT_WARN`]:
    /// it answers its anchors unlike the fitted models.
    pub fn misfit(&self) -> Option<f64> {
        estimate::below_warn(self.person_fit)
    }
}

/// BFCL's overall score, estimated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BfclEstimate {
    /// The estimate, with its interval.
    #[serde(flatten)]
    pub score: ScoreEstimate,
    /// BFCL's scoring categories the subset does not hold (counted 0).
    pub missing: Vec<String>,
}

/// An estimated score with its 90% interval, as fractions.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScoreEstimate {
    /// The category (absent for the overall score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The estimate.
    pub estimate: f64,
    /// The lower end of its 90% interval.
    pub low: f64,
    /// The upper end.
    pub high: f64,
    /// Its standard error.
    pub se: f64,
    /// Anchors run.
    pub tests_run: usize,
    /// Tests of the benchmark the estimate stands for.
    pub tests_total: usize,
    /// What the anchors say without the item model: their mean, each weighted by its
    /// cluster's size (for the overall score, the mean of the categories'). Absent when the
    /// model ran none of them (or, overall, none of a category's; never for BFCL's
    /// weighted score). Far from `estimate` when the model answers unlike the models the
    /// subset was fitted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor_mean: Option<f64>,
}

impl ScoreEstimate {
    fn of(category: Option<String>, estimate: f64, se: f64, tests: (usize, usize), anchor_mean: Option<f64>) -> Self {
        Self {
            category,
            estimate,
            low: (estimate - Z90 * se).clamp(0.0, 1.0),
            high: (estimate + Z90 * se).clamp(0.0, 1.0),
            se,
            tests_run: tests.0,
            tests_total: tests.1,
            anchor_mean,
        }
    }
}

impl ModelEstimate {
    fn new(model: &str, subset: &Subset, estimated: &estimate::Estimated) -> Self {
        let (per, covariance) = (&estimated.categories, &estimated.covariance);
        let d = per.len();
        let categories: Vec<ScoreEstimate> = per
            .iter()
            .zip(&subset.categories)
            .map(|(e, c)| {
                ScoreEstimate::of(Some(c.category.clone()), e.estimate, e.se, (e.tests_run, c.tests), e.anchor_mean)
            })
            .collect();
        let w = 1.0 / d.max(1) as f64;
        let overall = per.iter().map(|e| e.estimate).sum::<f64>() * w;
        let var: f64 = covariance.iter().sum::<f64>() * w * w;
        let run: usize = per.iter().map(|e| e.tests_run).sum();
        let total: usize = subset.categories.iter().map(|c| c.tests).sum();
        let anchor_mean = per.iter().map(|e| e.anchor_mean).sum::<Option<f64>>().map(|s| s * w);
        Self {
            model: model.to_string(),
            categories,
            overall: ScoreEstimate::of(None, overall, var.max(0.0).sqrt(), (run, total), anchor_mean),
            bfcl_overall: bfcl_overall(subset, per, covariance),
            person_fit: estimated.person_fit,
        }
    }
}

/// BFCL's weighted overall score and its standard error, `√(wᵀ Σ w)`, when every category
/// is BFCL's.
fn bfcl_overall(subset: &Subset, per: &[CategoryEstimate], covariance: &[f64]) -> Option<BfclEstimate> {
    use crate::bfcl_score::{is_bfcl_category, weights};
    if subset.categories.is_empty() || !subset.categories.iter().all(|c| is_bfcl_category(&c.category)) {
        return None;
    }
    let d = per.len();
    let live: BTreeMap<&str, usize> = subset.categories.iter().map(|c| (c.category.as_str(), c.tests)).collect();
    let all = weights(&live);
    let w: Vec<f64> = subset.categories.iter().map(|c| all.get(c.category.as_str()).copied().unwrap_or(0.0)).collect();
    let estimate: f64 = w.iter().zip(per).map(|(w, e)| w * e.estimate).sum();
    let var: f64 = (0..d).map(|c| (0..d).map(|e| w[c] * covariance[c * d + e] * w[e]).sum::<f64>()).sum();
    let missing = all.keys().filter(|c| !live.contains_key(*c)).map(|c| (*c).to_string()).collect();
    let run = per.iter().map(|e| e.tests_run).sum();
    let total = subset.categories.iter().map(|c| c.tests).sum();
    Some(BfclEstimate { score: ScoreEstimate::of(None, estimate, var.max(0.0).sqrt(), (run, total), None), missing })
}

/// The fit and each category's anchor count, after checking there is enough to fit and
/// the size asked can be.
fn fitted(data: &Data, size: &Size) -> Result<(Fitted, Vec<usize>), SubsetError> {
    if data.models.len() < 2 || data.tests.is_empty() {
        return Err(SubsetError::TooLittle { needed: 2, models: data.models.len(), tests: data.tests.len() });
    }
    let counts = size.counts(&data.categories, &data.sizes())?;
    Ok((fit(data, TAU), counts))
}

/// `counts[c]` anchors of each category `c`.
fn choose(data: &Data, fitted: &Fitted, counts: &[usize]) -> Vec<Anchor> {
    counts.iter().enumerate().flat_map(|(c, &k)| anchors::choose(data, fitted, c, k)).collect()
}

/// The prior of a new model's abilities: the fitted models' second moment (their abilities
/// are centred), shrunk a tenth of the way toward its diagonal.
fn ability_covariance(data: &Data, fitted: &Fitted) -> Vec<f64> {
    let (m_count, d) = (data.models.len(), data.categories.len());
    let mut s = vec![0.0; d * d];
    for m in 0..m_count {
        for c in 0..d {
            for e in 0..d {
                s[c * d + e] += fitted.theta[m * d + c] * fitted.theta[m * d + e];
            }
        }
    }
    for c in 0..d {
        for e in 0..d {
            let v = s[c * d + e] / m_count.max(1) as f64;
            s[c * d + e] = if c == e { v } else { 0.9 * v };
        }
    }
    // A category no model varies on still gets a proper prior.
    for c in 0..d {
        if s[c * d + c] < 1e-6 {
            s[c * d + c] = 1e-6;
        }
    }
    s
}
