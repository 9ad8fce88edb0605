//! Stability across runs: which tests always pass, always fail, or flip.
//!
//! Per (model, category), among the runs that scored each test:
//!
//! * **stable pass**: passed in every run where it appears;
//! * **stable fail**: failed in every run where it appears;
//! * **flaky**: passed in some and failed in others.
//!
//! A run that did not list a test says nothing about it; an unscored run (a result file
//! without scores) is reported apart and judges nothing.

use std::collections::BTreeMap;

use evaltally_core::{CategoryRun, id};
use serde::Serialize;

use crate::matrix::{Cell, Matrix, group};

/// Stability of every model found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StabilityReport {
    /// One entry per model, sorted by name.
    pub models: Vec<ModelStability>,
}

/// Stability of one model's categories.
#[derive(Clone, Debug, Serialize)]
pub struct ModelStability {
    /// The model.
    pub model: String,
    /// Every run that scored at least one of its categories, in natural name order.
    pub runs: Vec<String>,
    /// Runs that only have unscored categories for this model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unscored_runs: Vec<String>,
    /// One entry per category, sorted by name.
    pub categories: Vec<CategoryStability>,
    /// Counts summed over the categories.
    pub overall: Counts,
}

/// Stable pass, flaky and stable fail counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Tests judged in at least one run.
    pub total: usize,
    /// Passed in every run that judged them.
    pub stable_pass: usize,
    /// Passed in some runs and failed in others.
    pub flaky: usize,
    /// Failed in every run that judged them.
    pub stable_fail: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.total += other.total;
        self.stable_pass += other.stable_pass;
        self.flaky += other.flaky;
        self.stable_fail += other.stable_fail;
    }

    /// `part` as a percentage of `total` (0 when there are no tests).
    pub fn percent(&self, part: usize) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * part as f64 / self.total as f64
        }
    }
}

/// The tests of each class, ids in natural order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClassIds {
    /// Stable passes.
    pub stable_pass: Vec<String>,
    /// Flaky tests.
    pub flaky: Vec<String>,
    /// Stable failures.
    pub stable_fail: Vec<String>,
}

/// Stability of one (model, category).
#[derive(Clone, Debug, Serialize)]
pub struct CategoryStability {
    /// The category.
    pub category: String,
    /// The runs that scored this category, in natural name order.
    pub runs: Vec<String>,
    /// Tests judged in at least one run.
    pub total: usize,
    /// Passed in every run that judged them.
    pub stable_pass: usize,
    /// Mixed results.
    pub flaky: usize,
    /// Failed in every run that judged them.
    pub stable_fail: usize,
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
    /// The ids of each class.
    #[serde(skip)]
    pub ids: ClassIds,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CategoryStability {
    /// The three counts.
    pub fn counts(&self) -> Counts {
        Counts {
            total: self.total,
            stable_pass: self.stable_pass,
            flaky: self.flaky,
            stable_fail: self.stable_fail,
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

fn best_by(
    cats: &[CategoryStability],
    part: impl Fn(&CategoryStability) -> usize,
) -> Option<&CategoryStability> {
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
    let mut by_model: BTreeMap<&str, Vec<CategoryStability>> = BTreeMap::new();
    for matrix in group(runs) {
        by_model
            .entry(matrix.model)
            .or_default()
            .push(category(&matrix));
    }
    let models = by_model
        .into_iter()
        .map(|(model, categories)| model_stability(model, categories))
        .collect();
    StabilityReport { models }
}

fn model_stability(model: &str, categories: Vec<CategoryStability>) -> ModelStability {
    let mut overall = Counts::default();
    let mut runs = Vec::new();
    let mut unscored_runs = Vec::new();
    for c in &categories {
        overall.add(c.counts());
        runs.extend(c.runs.iter().cloned());
        unscored_runs.extend(c.unscored_runs.iter().cloned());
    }
    sort_dedup(&mut runs);
    sort_dedup(&mut unscored_runs);
    unscored_runs.retain(|r| !runs.contains(r));
    ModelStability {
        model: model.to_string(),
        runs,
        unscored_runs,
        categories,
        overall,
    }
}

fn sort_dedup(names: &mut Vec<String>) {
    names.sort_by(|a, b| id::natural_str_cmp(a, b));
    names.dedup();
}

fn category(m: &Matrix<'_>) -> CategoryStability {
    let scored: Vec<usize> = (0..m.runs.len()).filter(|&r| m.runs[r].scored).collect();
    let mut out = CategoryStability {
        category: m.category.to_string(),
        runs: scored.iter().map(|&r| m.runs[r].run.clone()).collect(),
        total: 0,
        stable_pass: 0,
        flaky: 0,
        stable_fail: 0,
        correct: scored.iter().map(|&r| m.runs[r].passed()).collect(),
        listed: scored.iter().map(|&r| m.runs[r].len()).collect(),
        unscored_runs: (0..m.runs.len())
            .filter(|&r| !m.runs[r].scored)
            .map(|r| m.runs[r].run.clone())
            .collect(),
        unscored_tests: 0,
        ids: ClassIds::default(),
    };
    for (t, id) in m.ids.iter().enumerate() {
        let row = m.row(t);
        let passes = scored.iter().filter(|&&r| row[r] == Cell::Pass).count();
        let fails = scored.iter().filter(|&&r| row[r] == Cell::Fail).count();
        let list = match (passes, fails) {
            (0, 0) => {
                out.unscored_tests += 1;
                continue;
            }
            (_, 0) => {
                out.stable_pass += 1;
                &mut out.ids.stable_pass
            }
            (0, _) => {
                out.stable_fail += 1;
                &mut out.ids.stable_fail
            }
            _ => {
                out.flaky += 1;
                &mut out.ids.flaky
            }
        };
        list.push((*id).to_string());
        out.total += 1;
    }
    out
}
