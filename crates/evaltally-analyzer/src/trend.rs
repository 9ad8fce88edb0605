//! How each test moved over time: the runs of each model in time order, and per test its
//! pass rate, flips, current streak and a status decided as gstack's `eval trend` decides it.
//!
//! Runs are ordered by their timestamp as written ([`RunMeta::timestamp`], ISO 8601 sorts as
//! text), then by natural name; runs without a timestamp come after those with one, in
//! natural name order (so folders of BFCL runs, which record no time, are in name order).
//! Only the last `limit` runs of each model count. A test's outcomes are those of the runs
//! that list it with a score; a run without it, or without scores, is a gap.
//!
//! The status, in this order (gstack's rules; `earlier` is every outcome before the last
//! three):
//! 1. the last three all pass and an earlier one failed: **improving**;
//! 2. one of the last three failed and every earlier one passed (there is at least one):
//!    **degrading**;
//! 3. three flips or more, or a pass rate strictly between 0.3 and 0.7: **flaky**;
//! 4. a rate of at least 0.9 with at most one flip: **stable-pass**;
//! 5. a rate of at most 0.1 with at most one flip: **stable-fail**;
//! 6. otherwise stable-pass when the rate is at least 0.5, else stable-fail.

use evaltally_core::{CategoryRun, Outcome, RunMeta, id};
use serde::Serialize;
use std::collections::BTreeMap;

use hashbrown::HashMap;

/// What to look at.
#[derive(Clone, Debug, Default)]
pub struct TrendOptions {
    /// The last N runs of each model (0: all).
    pub limit: usize,
    /// Only runs on this git branch.
    pub branch: Option<String>,
    /// Only runs of this tier.
    pub tier: Option<String>,
}

/// A test's status over the runs looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum TrendStatus {
    /// Failed before, passes in the last three runs.
    Improving,
    /// Passed before, failed in one of the last three runs.
    Degrading,
    /// Flips often, or passes about half the time.
    Flaky,
    /// Passes (almost) always.
    StablePass,
    /// Fails (almost) always.
    StableFail,
}

impl TrendStatus {
    /// The status as gstack writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Improving => "improving",
            Self::Degrading => "degrading",
            Self::Flaky => "flaky",
            Self::StablePass => "stable-pass",
            Self::StableFail => "stable-fail",
        }
    }

    /// The status named `s` (as [`as_str`](Self::as_str) writes it).
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Improving, Self::Degrading, Self::Flaky, Self::StablePass, Self::StableFail]
            .into_iter()
            .find(|t| t.as_str() == s)
    }

    /// The status of `outcomes` (true: passed), in run order; `None` when empty.
    ///
    /// ```
    /// use evaltally_analyzer::trend::TrendStatus;
    /// let s = |o: &str| TrendStatus::of(&o.chars().map(|c| c == 'P').collect::<Vec<_>>());
    /// assert_eq!(s("FFPPP"), Some(TrendStatus::Improving));
    /// assert_eq!(s("PPPPF"), Some(TrendStatus::Degrading));
    /// assert_eq!(s("FPFPFPFPPP"), Some(TrendStatus::Improving));
    /// assert_eq!(s("PFPFPFPFPF"), Some(TrendStatus::Flaky));
    /// assert_eq!(s("PPPPPPPFPP"), Some(TrendStatus::Degrading));
    /// assert_eq!(s("FFFFFFPFPF"), Some(TrendStatus::Flaky));
    /// assert_eq!(s("FFFFFFFPFF"), Some(TrendStatus::StableFail));
    /// assert_eq!(s("PPPPPPPPPP"), Some(TrendStatus::StablePass));
    /// assert_eq!(s("FFFFFFFFFF"), Some(TrendStatus::StableFail));
    /// assert_eq!(s("FFF"), Some(TrendStatus::StableFail));
    /// assert_eq!(s(""), None);
    /// ```
    pub fn of(outcomes: &[bool]) -> Option<Self> {
        if outcomes.is_empty() {
            return None;
        }
        let n = outcomes.len();
        let passes = outcomes.iter().filter(|&&p| p).count();
        let rate = passes as f64 / n as f64;
        let flips = flips(outcomes);
        let (earlier, last3) = outcomes.split_at(n.saturating_sub(3));
        Some(if last3.iter().all(|&p| p) && earlier.iter().any(|&p| !p) {
            Self::Improving
        } else if last3.iter().any(|&p| !p) && !earlier.is_empty() && earlier.iter().all(|&p| p) {
            Self::Degrading
        } else if flips >= 3 || (rate > 0.3 && rate < 0.7) {
            Self::Flaky
        } else if rate >= 0.9 && flips <= 1 {
            Self::StablePass
        } else if rate <= 0.1 && flips <= 1 {
            Self::StableFail
        } else if rate >= 0.5 {
            Self::StablePass
        } else {
            Self::StableFail
        })
    }
}

/// How often consecutive outcomes differ.
fn flips(outcomes: &[bool]) -> usize {
    outcomes.windows(2).filter(|w| w[0] != w[1]).count()
}

/// One run looked at.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrendRun {
    /// The run's name.
    pub name: String,
    /// What it says about itself (empty when its format records nothing).
    #[serde(flatten)]
    pub meta: RunMeta,
}

/// The current streak: the last outcome and how many runs in a row ended so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Streak {
    /// Whether the streak is of passes.
    pub passed: bool,
    /// How many runs long it is.
    pub length: usize,
}

/// One test over the runs looked at.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestTrend {
    /// The test id.
    pub id: String,
    /// Its category.
    pub category: String,
    /// Per run looked at, in time order: passed, failed, or `None` (not in that run, or
    /// not scored).
    pub outcomes: Vec<Option<bool>>,
    /// Passes over the runs that scored it.
    pub rate: f64,
    /// How often consecutive scored outcomes differ.
    pub flips: usize,
    /// The current streak.
    pub streak: Streak,
    /// The status (see the module documentation).
    pub status: TrendStatus,
}

impl TestTrend {
    /// The scored outcomes, in run order.
    pub fn scored(&self) -> impl Iterator<Item = bool> + '_ {
        self.outcomes.iter().flatten().copied()
    }
}

/// One model's runs and tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelTrend {
    /// The model.
    pub model: String,
    /// The runs looked at, oldest first.
    pub runs: Vec<TrendRun>,
    /// How many runs of the model pass the branch and tier filters, before `limit`.
    pub runs_found: usize,
    /// The tests scored in at least one of those runs, by category then id.
    pub tests: Vec<TestTrend>,
}

impl ModelTrend {
    /// How many tests have `status`.
    pub fn count(&self, status: TrendStatus) -> usize {
        self.tests.iter().filter(|t| t.status == status).count()
    }
}

/// Every model's trend.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrendReport {
    /// One entry per model, in name order.
    pub models: Vec<ModelTrend>,
}

/// Runs in time order (see the module documentation): by timestamp as written, then by
/// natural name; runs without a timestamp last, in natural name order.
fn order(runs: &mut [TrendRun]) {
    runs.sort_by(|a, b| {
        let (ta, tb) = (&a.meta.timestamp, &b.meta.timestamp);
        ta.is_none().cmp(&tb.is_none()).then_with(|| ta.cmp(tb)).then_with(|| id::natural_str_cmp(&a.name, &b.name))
    });
}

/// Whether a run passes the branch and tier filters.
fn wanted(meta: &RunMeta, options: &TrendOptions) -> bool {
    let matches = |want: &Option<String>, have: &Option<String>| want.as_ref().is_none_or(|w| have.as_ref() == Some(w));
    matches(&options.branch, &meta.git_branch) && matches(&options.tier, &meta.tier)
}

/// The trend of every model in `runs`.
///
/// ```
/// use std::sync::Arc;
/// use evaltally_analyzer::trend::{TrendOptions, TrendStatus, analyze};
/// use evaltally_core::{CategoryRun, Outcome, RunMeta};
///
/// let mut runs = Vec::new();
/// for (i, o) in ["F", "F", "P", "P", "P"].iter().enumerate() {
///     let mut c = CategoryRun::new(format!("night-{i}"), "m", "auth");
///     c.meta = Some(Arc::new(RunMeta { timestamp: Some(format!("2026-01-0{}T00:00:00Z", 5 - i)), ..Default::default() }));
///     c.push("login", if *o == "P" { Outcome::Pass } else { Outcome::Fail }, None);
///     runs.push(c);
/// }
/// // Timestamps run backwards from the names: night-4 is the oldest.
/// let report = analyze(&runs, &TrendOptions { limit: 10, ..Default::default() });
/// let t = &report.models[0].tests[0];
/// assert_eq!(report.models[0].runs[0].name, "night-4");
/// assert_eq!(t.status, TrendStatus::Degrading);
/// assert_eq!((t.streak.passed, t.streak.length), (false, 2));
/// ```
pub fn analyze(runs: &[CategoryRun], options: &TrendOptions) -> TrendReport {
    let mut by_model: BTreeMap<&str, Vec<&CategoryRun>> = BTreeMap::new();
    for r in runs {
        by_model.entry(&r.model).or_default().push(r);
    }
    let models = by_model.into_iter().map(|(model, runs)| model_trend(model, &runs, options)).collect();
    TrendReport { models }
}

/// The distinct runs among `runs` (category runs, of one model or several), each once with
/// the first metadata any of its category runs carries, in time order: by timestamp as
/// written (ISO 8601 sorts as text), then by natural name; runs without a timestamp last,
/// in natural name order. The order `trend` reads runs in, and the columns of the HTML
/// report's heatmap.
///
/// ```
/// use std::sync::Arc;
/// use evaltally_analyzer::trend::runs_in_time_order;
/// use evaltally_core::{CategoryRun, RunMeta};
///
/// let at = |name: &str, ts: Option<&str>| {
///     let mut r = CategoryRun::new(name, "m", "c");
///     r.meta = ts.map(|t| Arc::new(RunMeta { timestamp: Some(t.into()), ..Default::default() }));
///     r
/// };
/// let runs = [at("b", Some("2026-01-02")), at("run-10", None), at("a", Some("2026-01-03")), at("run-9", None)];
/// let names: Vec<String> = runs_in_time_order(runs.iter()).into_iter().map(|r| r.name).collect();
/// assert_eq!(names, ["b", "a", "run-9", "run-10"]);
/// ```
pub fn runs_in_time_order<'a>(runs: impl IntoIterator<Item = &'a CategoryRun>) -> Vec<TrendRun> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut all: Vec<TrendRun> = Vec::new();
    for r in runs {
        let meta = r.meta.as_deref().cloned().unwrap_or_default();
        match seen.get(r.run.as_str()) {
            Some(&i) if all[i].meta.is_empty() => all[i].meta = meta,
            Some(_) => {}
            None => {
                seen.insert(&r.run, all.len());
                all.push(TrendRun { name: r.run.clone(), meta });
            }
        }
    }
    order(&mut all);
    all
}

fn model_trend(model: &str, runs: &[&CategoryRun], options: &TrendOptions) -> ModelTrend {
    let mut all = runs_in_time_order(runs.iter().copied());
    all.retain(|r| wanted(&r.meta, options));
    let runs_found = all.len();
    if options.limit > 0 && all.len() > options.limit {
        all.drain(..all.len() - options.limit);
    }
    let column: HashMap<&str, usize> = all.iter().enumerate().map(|(i, r)| (r.name.as_str(), i)).collect();
    let mut cells: BTreeMap<(&str, &str), Vec<Option<bool>>> = BTreeMap::new();
    for r in runs {
        let Some(&col) = column.get(r.run.as_str()) else { continue };
        for t in r.tests() {
            let passed = match t.outcome {
                Outcome::Pass => true,
                Outcome::Fail => false,
                Outcome::Unscored | Outcome::Errored => continue,
            };
            let row = cells.entry((&r.category, t.id)).or_insert_with(|| vec![None; all.len()]);
            // A test listed by two category runs of one run keeps the first.
            row[col].get_or_insert(passed);
        }
    }
    let mut tests: Vec<TestTrend> =
        cells.into_iter().filter_map(|((category, id), outcomes)| test_trend(category, id, outcomes)).collect();
    tests.sort_by(|a, b| id::natural_str_cmp(&a.category, &b.category).then_with(|| id::natural_cmp(&a.id, &b.id)));
    drop(column);
    ModelTrend { model: model.to_string(), runs: all, runs_found, tests }
}

fn test_trend(category: &str, id: &str, outcomes: Vec<Option<bool>>) -> Option<TestTrend> {
    let scored: Vec<bool> = outcomes.iter().flatten().copied().collect();
    let status = TrendStatus::of(&scored)?;
    let last = *scored.last()?;
    let length = scored.iter().rev().take_while(|&&p| p == last).count();
    let passes = scored.iter().filter(|&&p| p).count();
    Some(TestTrend {
        id: id.to_string(),
        category: category.to_string(),
        rate: passes as f64 / scored.len() as f64,
        flips: flips(&scored),
        streak: Streak { passed: last, length },
        status,
        outcomes,
    })
}
