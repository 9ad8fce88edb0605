//! The compare view's data: `compare`'s regressions and improvements by error type, with
//! the p-values, per model and category.

use std::collections::BTreeMap;

use evaltally_analyzer::compare::{CategoryCompare, CompareReport, Mode, ModelCompare, Summary};
use evaltally_core::text::printable;
use serde::Serialize;

use super::number::{round, unit};

/// The comparison of two sides.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareData {
    /// `runs` (one run each side) or `groups`.
    pub mode: &'static str,
    /// The test that gave the p-values (`exact McNemar`, `paired sign-flip`).
    pub test: &'static str,
    /// The base runs.
    pub base_runs: Vec<String>,
    /// The new runs.
    pub new_runs: Vec<String>,
    /// Per model.
    pub models: Vec<CompareModel>,
}

/// One model's comparison.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareModel {
    /// The model (`A → B` when two models were compared with each other).
    pub model: String,
    /// All categories together.
    pub overall: CompareSummary,
    /// Per category, by name.
    pub categories: Vec<CompareCategory>,
}

/// One category's comparison.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareCategory {
    /// The category.
    pub category: String,
    /// Counts and statistics.
    #[serde(flatten)]
    pub summary: CompareSummary,
    /// Regressions (consistent ones, for groups), natural order.
    pub regressions: Vec<String>,
    /// Improvements (consistent ones, for groups), natural order.
    pub improvements: Vec<String>,
}

/// Counts and statistics of one comparison.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareSummary {
    /// Base pass rate; `None` when the base side judged none of the tests.
    pub base_rate: Option<f64>,
    /// New pass rate; `None` when the new side judged none of the tests.
    pub new_rate: Option<f64>,
    /// Tests the base side judged (mean over runs for a group).
    pub base_judged: f64,
    /// Tests the new side judged (mean over runs for a group).
    pub new_judged: f64,
    /// Tests judged on both sides.
    pub common: usize,
    /// Regressions (consistent ones, for groups).
    pub regressions: usize,
    /// Improvements (consistent ones, for groups).
    pub improvements: usize,
    /// Groups: other drops in pass rate, touching a flaky test.
    pub flaky_regressions: usize,
    /// Groups: other rises in pass rate.
    pub flaky_improvements: usize,
    /// Mean change in pass rate over the common tests.
    pub difference: f64,
    /// Its 95% interval.
    pub interval: Option<[f64; 2]>,
    /// The p-value.
    pub p_value: f64,
    /// `p_value < 0.05`.
    pub significant: bool,
    /// Regressions by the error type they fail with now.
    pub regressions_by_error_type: BTreeMap<String, usize>,
    /// Improvements by the error type they failed with before.
    pub improvements_by_error_type: BTreeMap<String, usize>,
}

fn shown(s: &str) -> String {
    printable(s).into_owned()
}

fn shown_map(m: &BTreeMap<String, usize>) -> BTreeMap<String, usize> {
    m.iter().map(|(k, v)| (shown(k), *v)).collect()
}

impl CompareSummary {
    fn new(s: &Summary) -> Self {
        Self {
            base_rate: (s.base_total > 0.0).then(|| unit(s.base_rate)),
            new_rate: (s.new_total > 0.0).then(|| unit(s.new_rate)),
            base_judged: round(s.base_total),
            new_judged: round(s.new_total),
            common: s.common,
            regressions: s.regression_count,
            improvements: s.improvement_count,
            flaky_regressions: s.flaky_regression_count,
            flaky_improvements: s.flaky_improvement_count,
            difference: unit(s.difference),
            interval: s.difference_interval.map(|[lo, hi]| [unit(lo), unit(hi)]),
            p_value: round(s.p_value),
            significant: s.significant,
            regressions_by_error_type: shown_map(&s.regressions_by_error_type),
            improvements_by_error_type: shown_map(&s.improvements_by_error_type),
        }
    }
}

impl CompareData {
    /// The view of `report`, every name shown with [`printable`].
    pub fn new(report: &CompareReport) -> Self {
        let ids = |v: &[String]| v.iter().map(|s| shown(s)).collect();
        let category = |c: &CategoryCompare| CompareCategory {
            category: shown(&c.category),
            summary: CompareSummary::new(&c.summary),
            regressions: ids(&c.regressions),
            improvements: ids(&c.improvements),
        };
        let model = |m: &ModelCompare| CompareModel {
            model: shown(&m.model),
            overall: CompareSummary::new(&m.overall),
            categories: m.categories.iter().map(category).collect(),
        };
        Self {
            mode: match report.mode {
                Mode::Runs => "runs",
                Mode::Groups => "groups",
            },
            test: report.models.first().map_or("", |m| m.overall.test),
            base_runs: ids(&report.base_runs),
            new_runs: ids(&report.new_runs),
            models: report.models.iter().map(model).collect(),
        }
    }
}
