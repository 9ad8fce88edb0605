//! How many runs, or tests, a target precision needs: the planner behind `evaltally plan`.
//!
//! From the variance components of each category ([`crate::stats::variance`]) observed in
//! the runs at hand:
//!
//! * **runs needed**: the runs per test that bring the run-to-run standard error of the
//!   category's score, `√(σ²_w/(T·r))`, under the target (the tests fixed: how
//!   reproducible the score is);
//! * **SE floor**: the standard error with the tests seen as a sample of all the tests the
//!   benchmark could have held, `√(σ²_b/T)`, which no number of runs goes below;
//! * **tests needed**: the tests a new benchmark of tests like these needs for that full
//!   standard error, `√((σ²_b + σ²_w/r)/T)`, to reach the target, with one run per test and
//!   with as many as now;
//! * **MDE**: the smallest change in pass rate a paired comparison (same tests, as many
//!   runs on each side as now, or one) detects with 80% power at α = 0.05 two-sided,
//!   `2.80·√(2σ²_w/(T·r))`, assuming the change moves every test alike (a lower bound).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::precision::Precision;
use crate::stability::{ModelStability, StabilityReport};
use crate::stats::power;

/// The plan for every model.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlanReport {
    /// The target standard error.
    pub target_se: f64,
    /// One entry per model, sorted by name.
    pub models: Vec<ModelPlan>,
    /// The other axis, with `plan --subset-error`: how few tests predict each model's full
    /// score to a target error ([`crate::subset::plan`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subset: Option<crate::subset::SubsetPlan>,
}

/// The plan for one model.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelPlan {
    /// The model.
    pub model: String,
    /// Its runs.
    pub runs: Vec<String>,
    /// One entry per category with judged tests, sorted by name.
    pub categories: Vec<Plan>,
    /// Every category's tests together.
    pub overall: Plan,
    /// Mean dollars per run, over its runs that record a cost ([`with_costs`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usd_per_run: Option<f64>,
}

/// What one category (or a model overall) needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Plan {
    /// The category, or `overall`.
    pub category: String,
    /// Tests judged.
    pub tests: usize,
    /// Mean judged runs per test.
    pub runs: f64,
    /// Mean pass rate.
    pub mean: Option<f64>,
    /// Why nothing could be estimated (one run, fewer than two tests); the figures below
    /// are `null` then.
    pub cannot_estimate: Option<&'static str>,
    /// Why some figures are `null` though the others are estimated: no test flipped between
    /// runs (no MDE), or, besides, every test had the same pass rate (no SE floor, no tests
    /// needed). A variance of 0 as observed says the runs agree, not that a change of 0
    /// would be seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partly_estimated: Option<&'static str>,
    /// Between-test variance `σ²_b`.
    pub between: Option<f64>,
    /// Run-to-run variance `σ²_w`.
    pub within: Option<f64>,
    /// Run-to-run standard error of the score now, `√(σ²_w/(T·r))`.
    pub run_se: Option<f64>,
    /// Runs per test for the run-to-run SE to reach the target.
    pub runs_needed: Option<usize>,
    /// Runs to add to those there are (0 when the target is met).
    pub more_runs: Option<usize>,
    /// Standard error with tests seen as a sample, with the runs there are.
    pub full_se: Option<f64>,
    /// The full standard error's floor with unlimited runs, `√(σ²_b/T)`.
    pub se_floor: Option<f64>,
    /// Tests a new benchmark like this one needs for its full SE to reach the target with
    /// one run per test.
    pub tests_needed_one_run: Option<usize>,
    /// The same with as many runs per test as now.
    pub tests_needed_current_runs: Option<usize>,
    /// Minimum detectable effect of a paired comparison with as many runs per side as now.
    pub mde: Option<f64>,
    /// Minimum detectable effect of a paired comparison of two single runs.
    pub mde_single_run: Option<f64>,
    /// What `more_runs` costs, whole runs at the model's recorded cost per run
    /// ([`with_costs`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_runs_usd: Option<f64>,
    /// With a budget ([`with_costs`]): the new runs it buys, and the smallest change they
    /// detect against the runs at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetPlan>,
}

/// What a budget buys: new runs at the recorded cost per run, compared with the runs at
/// hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BudgetPlan {
    /// The budget, in dollars.
    pub usd: f64,
    /// Whole runs it buys.
    pub runs: usize,
    /// The smallest change in pass rate those runs, against the runs at hand, detect (80%
    /// power, α = 0.05 two-sided): `2.80·√(σ²_w/T·(1/r + 1/k))`; `None` when it buys no run.
    pub mde: Option<f64>,
}

/// The plan of every model in a stability report, for a target standard error.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::{plan, stability};
///
/// let runs: Vec<CategoryRun> = (0..4)
///     .map(|r| {
///         let mut run = CategoryRun::new(format!("run-{r}"), "m", "simple");
///         for t in 0..50 {
///             let pass = t < 20 || (t < 30 && (t + r) % 2 == 0);
///             run.push(&format!("simple_{t}"), if pass { Outcome::Pass } else { Outcome::Fail }, None);
///         }
///         run
///     })
///     .collect();
/// let report = plan::plan(&stability::analyze(&runs), 0.01);
/// let p = &report.models[0].categories[0];
/// // 10 of 50 tests pass 2 runs of 4: σ²_w = 10·(2 − 4/4)/(200 − 50) = 1/15, and
/// // ⌈σ²_w / (T·0.01²)⌉ = ⌈13.3⌉ runs bring the run-to-run SE under 0.01.
/// assert_eq!(p.runs_needed, Some(14));
/// assert_eq!(p.more_runs, Some(10));
/// ```
pub fn plan(report: &StabilityReport, target_se: f64) -> PlanReport {
    PlanReport { target_se, models: report.models.iter().map(|m| model_plan(m, target_se)).collect(), subset: None }
}

fn model_plan(model: &ModelStability, target: f64) -> ModelPlan {
    ModelPlan {
        model: model.model.clone(),
        runs: model.runs.clone(),
        categories: model
            .categories
            .iter()
            .filter(|c| c.total > 0)
            .map(|c| one(&c.category, &c.precision, c.total, target))
            .collect(),
        overall: one("overall", &model.precision, model.overall.total, target),
        usd_per_run: None,
    }
}

/// Puts dollars on `report`: each model's recorded cost per run (`usd_per_run`, by model
/// name; models without one get none), what the more runs cost, and with `budget` the runs
/// it buys and the smallest change they detect.
///
/// ```
/// use std::collections::BTreeMap;
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::{plan, stability};
/// let runs: Vec<CategoryRun> = (0..4)
///     .map(|r| {
///         let mut run = CategoryRun::new(format!("run-{r}"), "m", "simple");
///         for t in 0..50 {
///             let pass = t < 20 || (t < 30 && (t + r) % 2 == 0);
///             run.push(&format!("simple_{t}"), if pass { Outcome::Pass } else { Outcome::Fail }, None);
///         }
///         run
///     })
///     .collect();
/// let mut report = plan::plan(&stability::analyze(&runs), 0.01);
/// plan::with_costs(&mut report, &BTreeMap::from([("m".to_string(), 2.5)]), Some(20.0));
/// let p = &report.models[0].categories[0];
/// assert_eq!(p.more_runs_usd, Some(25.0)); // 10 more runs at $2.50
/// let budget = p.budget.as_ref().unwrap();
/// assert_eq!(budget.runs, 8);
/// // 2.80·√(σ²_w/T·(1/4 + 1/8)) with σ²_w = 1/15, T = 50.
/// assert!((budget.mde.unwrap() - 0.062_645).abs() < 1e-6);
/// ```
pub fn with_costs(report: &mut PlanReport, usd_per_run: &BTreeMap<String, f64>, budget: Option<f64>) {
    for model in &mut report.models {
        let Some(&usd) = usd_per_run.get(&model.model).filter(|u| u.is_finite() && **u > 0.0) else { continue };
        model.usd_per_run = Some(usd);
        for p in model.categories.iter_mut().chain(std::iter::once(&mut model.overall)) {
            p.more_runs_usd = p.more_runs.map(|n| n as f64 * usd);
            p.budget = budget.filter(|b| b.is_finite() && *b >= 0.0).map(|b| {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let runs = (b / usd).floor() as usize;
                let mde = match (p.within, runs) {
                    (Some(within), k) if k > 0 && p.tests > 0 && within > 0.0 => {
                        let se = (within / p.tests as f64 * (1.0 / p.runs.max(1.0) + 1.0 / k as f64)).sqrt();
                        Some(power::mde(se))
                    }
                    _ => None,
                };
                BudgetPlan { usd: b, runs, mde }
            });
        }
    }
}

/// The plan of one set of tests from its precision.
pub fn one(name: &str, p: &Precision, tests: usize, target: f64) -> Plan {
    let runs = if tests == 0 { 0.0 } else { p.results.judged as f64 / tests as f64 };
    let mut plan = Plan {
        category: name.to_string(),
        tests,
        runs,
        mean: p.mean,
        cannot_estimate: None,
        partly_estimated: None,
        between: None,
        within: None,
        run_se: None,
        runs_needed: None,
        more_runs: None,
        full_se: None,
        se_floor: None,
        tests_needed_one_run: None,
        tests_needed_current_runs: None,
        mde: None,
        mde_single_run: None,
        more_runs_usd: None,
        budget: None,
    };
    let Some(c) = p.components else {
        plan.cannot_estimate = Some(if tests < 2 {
            "fewer than 2 tests"
        } else {
            "one run: run-to-run variance needs a test judged at least twice"
        });
        return plan;
    };
    let r = c.runs_per_test();
    plan.between = Some(c.between);
    plan.within = Some(c.within);
    plan.run_se = Some(c.run_se(r));
    plan.runs_needed = power::runs_needed(c.within, c.tests, target);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let now = r.floor() as usize;
    plan.more_runs = plan.runs_needed.map(|n| n.saturating_sub(now));
    plan.full_se = Some(c.full_se(r));
    plan.se_floor = Some((c.between / c.tests as f64).sqrt());
    plan.tests_needed_one_run = power::tests_needed(c.between, c.within, 1.0, target);
    plan.tests_needed_current_runs = power::tests_needed(c.between, c.within, r, target);
    plan.mde = Some(power::mde(power::paired_se(c.within, c.tests, r)));
    plan.mde_single_run = Some(power::mde(power::paired_se(c.within, c.tests, 1.0)));
    if c.within <= 0.0 {
        plan.mde = None;
        plan.mde_single_run = None;
        plan.partly_estimated = Some("no test flipped between runs, so no MDE");
        if c.between <= 0.0 {
            plan.se_floor = None;
            plan.tests_needed_one_run = None;
            plan.tests_needed_current_runs = None;
            plan.partly_estimated =
                Some("every test had the same outcome in every run, so no MDE, SE floor or tests needed");
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use evaltally_core::{CategoryRun, Outcome};

    use crate::stability;

    /// Three runs of 16 tests in which `pass(test)` holds in every run.
    fn stable_runs(pass: fn(usize) -> bool) -> super::PlanReport {
        let runs: Vec<CategoryRun> = (0..3)
            .map(|r| {
                let mut run = CategoryRun::new(format!("run-{r}"), "m", "live_parallel");
                for t in 0..16 {
                    run.push(&format!("t{t}"), if pass(t) { Outcome::Pass } else { Outcome::Fail }, None);
                }
                run
            })
            .collect();
        super::plan(&stability::analyze(&runs), 0.01)
    }

    #[test]
    fn no_flip_gives_no_mde_and_one_outcome_no_floor() {
        // Every test failed in every run: no variance of either kind.
        let p = &stable_runs(|_| false).models[0].categories[0];
        assert_eq!((p.mde, p.mde_single_run, p.se_floor, p.tests_needed_one_run), (None, None, None, None));
        assert_eq!(p.runs_needed, Some(1), "the runs reproduce each other");
        assert!(p.partly_estimated.unwrap().contains("same outcome in every run"));
        // Half pass, half fail, in every run: the floor is there, the MDE is not.
        let p = &stable_runs(|t| t < 8).models[0].categories[0];
        assert_eq!((p.mde, p.mde_single_run), (None, None));
        assert!(p.se_floor.unwrap() > 0.1 && p.tests_needed_one_run.unwrap() > 16);
        assert_eq!(p.partly_estimated, Some("no test flipped between runs, so no MDE"));
    }
}
