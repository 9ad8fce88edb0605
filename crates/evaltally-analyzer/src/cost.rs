//! What runs cost: per run, calls, tokens and dollars by model, from the run's own
//! accounting (gstack's `costs`) or, when it keeps none, summed from its tests (BFCL token
//! counts, per-test costs and tokens of gstack, JUnit and SF-Bench where present).

use evaltally_core::{ModelCost, RunRecord};
use serde::Serialize;

/// Where a run's figures come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CostSource {
    /// The run's own per-model accounting.
    Declared,
    /// Summed over the tests that record tokens or cost.
    Tests,
    /// The run records no tokens and no cost.
    None,
}

/// One run's cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunCost {
    /// The run.
    pub run: String,
    /// The model the run evaluated.
    pub model: String,
    /// The format it was read from.
    pub format: String,
    /// Where the figures come from.
    pub source: CostSource,
    /// One row per model (the models the run called, for declared accounting).
    pub models: Vec<ModelCost>,
    /// The rows added up; `None` fields where no row has a figure.
    pub total: ModelCost,
    /// The run's own total in dollars (gstack's `total_cost_usd`), when it declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_usd: Option<f64>,
    /// The dollars its tests record, summed, when any does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tests_usd: Option<f64>,
    /// Tests it passed.
    pub passed: usize,
    /// Dollars per passed test ([`RunCost::usd`] over `passed`), when it records a cost and
    /// passed a test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usd_per_pass: Option<f64>,
}

/// One model's runs together: dollars, passes, and dollars per passed test over the runs
/// that record a cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelCostSummary {
    /// The model.
    pub model: String,
    /// Its runs.
    pub runs: usize,
    /// Those that record a cost.
    pub runs_with_cost: usize,
    /// The input tokens of all its runs, added up (`None` when none records any).
    pub input_tokens: Option<u64>,
    /// The output tokens of all its runs, added up.
    pub output_tokens: Option<u64>,
    /// Their dollars, added up.
    pub usd: Option<f64>,
    /// The passed tests of the runs that record a cost, added up (so 0 when none does:
    /// `runs_with_cost` says so); each run's own count is in its [`RunCost::passed`].
    pub passed: usize,
    /// `usd / passed`.
    pub usd_per_pass: Option<f64>,
    /// Mean dollars per run (over the runs that record a cost).
    pub usd_per_run: Option<f64>,
}

/// Per model (in name order), what its runs cost together and per passed test.
///
/// ```
/// use evaltally_analyzer::cost::{by_model, run_cost};
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let run = |name: &str, usd: f64| {
///     let mut r = RunRecord { run: name.into(), model: "m".into(), ..Default::default() };
///     r.tests.push(TestRecord { id: "a".into(), outcome: Some(Outcome::Pass), cost_usd: Some(usd), ..Default::default() });
///     r.tests.push(TestRecord { id: "b".into(), outcome: Some(Outcome::Fail), cost_usd: Some(usd), ..Default::default() });
///     run_cost(&r)
/// };
/// let summary = by_model(&[run("r1", 0.5), run("r2", 1.5)]);
/// assert_eq!((summary[0].usd, summary[0].passed, summary[0].usd_per_pass), (Some(4.0), 2, Some(2.0)));
/// assert_eq!(summary[0].usd_per_run, Some(2.0));
/// ```
pub fn by_model(runs: &[RunCost]) -> Vec<ModelCostSummary> {
    let mut models: std::collections::BTreeMap<&str, Vec<&RunCost>> = std::collections::BTreeMap::new();
    for r in runs {
        models.entry(r.model.as_str()).or_default().push(r);
    }
    models
        .into_iter()
        .map(|(model, runs)| {
            let priced: Vec<&&RunCost> = runs.iter().filter(|r| r.usd().is_some()).collect();
            let usd = priced.iter().filter_map(|r| r.usd()).reduce(|a, b| a + b);
            let passed: usize = priced.iter().map(|r| r.passed).sum();
            ModelCostSummary {
                model: model.to_string(),
                runs: runs.len(),
                runs_with_cost: priced.len(),
                input_tokens: runs.iter().fold(None, |a, r| add(a, r.total.input_tokens)),
                output_tokens: runs.iter().fold(None, |a, r| add(a, r.total.output_tokens)),
                usd,
                passed,
                usd_per_pass: usd.filter(|_| passed > 0).map(|u| u / passed as f64),
                usd_per_run: usd.map(|u| u / priced.len() as f64),
            }
        })
        .collect()
}

impl RunCost {
    /// What the run cost in dollars: its declared total, else its priced rows added up.
    pub fn usd(&self) -> Option<f64> {
        self.declared_usd.or(self.total.cost_usd)
    }

    /// Dollars per passed test ([`usd`](Self::usd) over [`passed`](Self::passed)); `None`
    /// without a cost or a pass.
    pub fn per_pass(&self) -> Option<f64> {
        self.usd().filter(|_| self.passed > 0).map(|usd| usd / self.passed as f64)
    }

    /// Whether it records nothing: no accounting, no tokens or cost per test, no total.
    pub fn is_empty(&self) -> bool {
        self.source == CostSource::None && self.declared_usd.is_none()
    }
}

/// One cost per (model, run), in the order first met: the pieces of a run read from several
/// files (BFCL's file pairs, gstack's shards) added up, each model's row with its own.
///
/// ```
/// use evaltally_analyzer::cost::{per_run, run_cost};
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let piece = |run: &str, usd: f64| {
///     let mut r = RunRecord { run: run.into(), model: "m".into(), ..Default::default() };
///     r.tests.push(TestRecord { id: "a".into(), outcome: Some(Outcome::Pass), cost_usd: Some(usd), ..Default::default() });
///     run_cost(&r)
/// };
/// let runs = per_run(vec![piece("night-1", 0.5), piece("night-2", 2.0), piece("night-1", 1.0)]);
/// assert_eq!(runs.len(), 2);
/// assert_eq!((runs[0].run.as_str(), runs[0].usd(), runs[0].passed), ("night-1", Some(1.5), 2));
/// assert_eq!((runs[0].models.len(), runs[0].total.calls, runs[0].usd_per_pass), (1, Some(2), Some(0.75)));
/// ```
pub fn per_run(costs: Vec<RunCost>) -> Vec<RunCost> {
    let mut at: std::collections::HashMap<(String, String), usize> = std::collections::HashMap::new();
    let mut out: Vec<RunCost> = Vec::with_capacity(costs.len());
    for c in costs {
        let Some(&i) = at.get(&(c.model.clone(), c.run.clone())) else {
            at.insert((c.model.clone(), c.run.clone()), out.len());
            out.push(c);
            continue;
        };
        let have = &mut out[i];
        for row in c.models {
            match have.models.iter_mut().find(|m| m.model == row.model) {
                Some(m) => *m = ModelCost { model: m.model.clone(), ..total(&[m.clone(), row]) },
                None => have.models.push(row),
            }
        }
        have.total = total(&have.models);
        if have.source != c.source && c.source != CostSource::None {
            have.source = if have.source == CostSource::None { c.source } else { CostSource::Declared };
        }
        have.declared_usd = add_usd(have.declared_usd, c.declared_usd);
        have.tests_usd = add_usd(have.tests_usd, c.tests_usd);
        have.passed += c.passed;
        have.usd_per_pass = have.per_pass();
    }
    out
}

fn add_usd(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x + y),
        (x, y) => x.or(y),
    }
}

fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.saturating_add(y)),
        (x, y) => x.or(y),
    }
}

/// The rows added up.
fn total(rows: &[ModelCost]) -> ModelCost {
    rows.iter().fold(ModelCost { model: "total".to_string(), ..ModelCost::default() }, |t, r| ModelCost {
        model: t.model,
        calls: add(t.calls, r.calls),
        input_tokens: add(t.input_tokens, r.input_tokens),
        output_tokens: add(t.output_tokens, r.output_tokens),
        cost_usd: add_usd(t.cost_usd, r.cost_usd),
    })
}

/// The cost of one run.
///
/// ```
/// use evaltally_analyzer::cost::{CostSource, run_cost};
/// use evaltally_core::{RunRecord, TestRecord};
/// let mut run = RunRecord { run: "r".into(), model: "m".into(), ..Default::default() };
/// run.tests.push(TestRecord { id: "a".into(), input_tokens: Some(10), output_tokens: Some(2), ..Default::default() });
/// run.tests.push(TestRecord { id: "b".into(), input_tokens: Some(5), cost_usd: Some(0.25), ..Default::default() });
/// run.tests.push(TestRecord { id: "c".into(), ..Default::default() });
/// let cost = run_cost(&run);
/// assert_eq!(cost.source, CostSource::Tests);
/// assert_eq!((cost.total.calls, cost.total.input_tokens, cost.total.output_tokens, cost.total.cost_usd), (Some(2), Some(15), Some(2), Some(0.25)));
/// assert_eq!((cost.tests_usd, cost.declared_usd), (Some(0.25), None));
/// ```
///
/// A run that declares its total (gstack's `total_cost_usd`) keeps it beside its rows, which
/// may price only tokens:
///
/// ```
/// use evaltally_analyzer::cost::{CostSource, run_cost};
/// use evaltally_core::{ModelCost, RunMeta, RunRecord};
/// let mut run = RunRecord { run: "r".into(), model: "m".into(), ..Default::default() };
/// run.meta = RunMeta { total_cost_usd: Some(1.5), ..Default::default() };
/// run.costs.push(ModelCost { model: "m".into(), calls: Some(6), input_tokens: Some(150_000), ..Default::default() });
/// let cost = run_cost(&run);
/// assert_eq!((cost.source, cost.declared_usd, cost.total.cost_usd), (CostSource::Declared, Some(1.5), None));
/// ```
pub fn run_cost(run: &RunRecord) -> RunCost {
    let (source, models) = if run.costs.is_empty() {
        let with_data: Vec<_> = run
            .tests
            .iter()
            .filter(|t| t.input_tokens.is_some() || t.output_tokens.is_some() || t.cost_usd.is_some())
            .collect();
        if with_data.is_empty() {
            (CostSource::None, Vec::new())
        } else {
            let row = ModelCost {
                model: run.model.clone(),
                calls: Some(with_data.len() as u64),
                input_tokens: with_data.iter().fold(None, |a, t| add(a, t.input_tokens)),
                output_tokens: with_data.iter().fold(None, |a, t| add(a, t.output_tokens)),
                cost_usd: with_data.iter().filter_map(|t| t.cost_usd).reduce(|a, b| a + b),
            };
            (CostSource::Tests, vec![row])
        }
    } else {
        (CostSource::Declared, run.costs.clone())
    };
    let mut cost = RunCost {
        run: run.run.clone(),
        model: run.model.clone(),
        format: run.format.clone(),
        source,
        total: total(&models),
        models,
        declared_usd: run.meta.total_cost_usd.filter(|c| c.is_finite()),
        tests_usd: run.tests.iter().filter_map(|t| t.cost_usd).reduce(|a, b| a + b),
        passed: run.tests.iter().filter(|t| t.outcome == Some(evaltally_core::Outcome::Pass)).count(),
        usd_per_pass: None,
    };
    cost.usd_per_pass = cost.per_pass();
    cost
}
