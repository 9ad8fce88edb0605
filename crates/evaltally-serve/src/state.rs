//! What the server keeps from a load (a [`Snapshot`]), and the views the page asks for,
//! computed from it: each answer holds only what is on screen (a window of the heatmap, a
//! page of a list), taken from an analysis made once per (model, runs picked) and kept.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use evaltally_analyzer::compare;
use evaltally_analyzer::cost::{CostSource, RunCost};
use evaltally_analyzer::stability;
use evaltally_analyzer::subset::Subset;
use evaltally_analyzer::trend::{self, ModelTrend, TrendOptions, TrendRun, runs_in_time_order};
use evaltally_core::text::{printable, printable_block};
use evaltally_core::{CategoryRun, Diagnostic, ModelCost, Status};
use evaltally_report::html::{self, CompareData, ModelData};
use serde_json::Value;

use crate::api;
use crate::query::{Page, RunFilter, Side, TestFilter};
use crate::{Input, RunNotes};

/// How many views (a model's analysis over the runs a filter picks) a snapshot keeps.
const VIEWS_KEPT: usize = 8;
/// How many diagnostics the page lists (all are counted).
const DIAGNOSTICS_LISTED: usize = 50;
/// How many runs the overview's pass rate over time shows (the latest).
const TREND_COLUMNS: usize = 200;
/// The most tests a comparison lists per category and direction (all are counted).
const COMPARE_LISTED: usize = 200;

/// Everything one load gave, analysed.
#[derive(Debug)]
pub(crate) struct Snapshot {
    /// Counts loads: 0 before the first.
    pub(crate) generation: u64,
    /// How long the load and analysis took.
    pub(crate) load_ms: u64,
    /// One entry per model, by name.
    pub(crate) models: Vec<ModelState>,
    /// Runs, counted per model.
    pub(crate) runs: usize,
    /// Errors, warnings and notes reading.
    pub(crate) problems: [usize; 3],
    /// Units read from their files, when the source counts them.
    pub(crate) units_read: Option<u64>,
    diagnostics: api::Diagnostics,
    views: Mutex<Vec<(ViewKey, Arc<View>)>>,
}

/// One model's runs and what the page shows beside their outcomes.
#[derive(Debug)]
pub(crate) struct ModelState {
    /// The model, as the files name it.
    pub(crate) name: String,
    runs: Vec<CategoryRun>,
    /// Every run of the model, in time order (the heatmap's columns before filters).
    columns: Vec<TrendRun>,
    column_of: HashMap<String, u32>,
    /// The category run of each (run, category).
    run_of: HashMap<(String, String), usize>,
    /// Error messages, each once, shown with `printable_block`.
    messages: Vec<Box<str>>,
    /// Per test (category and id as shown), the messages of its cells: (column, message).
    by_test: HashMap<(String, String), Vec<(u32, u32)>>,
    /// Ids as the files write them, where that differs from how they are shown.
    raw_ids: HashMap<String, String>,
    /// Per column, the run's cost when it records one.
    costs: Vec<Option<RunCost>>,
    /// The subset whose estimate the overview carries.
    subset: Option<Arc<Subset>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ViewKey {
    model: usize,
    runs: RunFilter,
}

/// One model's analysis over the runs a filter picks.
#[derive(Debug)]
pub(crate) struct View {
    /// The report's model data: overview, heatmap rows (one character per cell), least
    /// stable tests, pass rate per category per run.
    data: ModelData,
    /// Each view column's index among the model's columns.
    columns: Vec<u32>,
    /// The runs picked (for trend and comparison), by model column.
    picked: Vec<bool>,
    rows: Mutex<Vec<(TestFilter, Arc<Vec<u32>>)>>,
    trends: Mutex<Vec<(usize, Arc<ModelTrend>)>>,
}

impl Snapshot {
    /// The snapshot before the first load: no models.
    pub(crate) fn empty() -> Self {
        Self {
            generation: 0,
            load_ms: 0,
            models: Vec::new(),
            runs: 0,
            problems: [0; 3],
            units_read: None,
            diagnostics: api::Diagnostics::default(),
            views: Mutex::default(),
        }
    }

    /// Analyses what a load gave.
    pub(crate) fn build(input: Input, generation: u64, load_ms: u64, subset: Option<&Arc<Subset>>) -> Self {
        let Input { runs, notes, diagnostics, watch: _, units_read } = input;
        let mut by_model: BTreeMap<String, Vec<CategoryRun>> = BTreeMap::new();
        for r in runs {
            match by_model.get_mut(r.model.as_str()) {
                Some(v) => v.push(r),
                None => {
                    by_model.insert(r.model.clone(), vec![r]);
                }
            }
        }
        let mut notes_of: HashMap<String, Vec<RunNotes>> = HashMap::new();
        for n in notes {
            notes_of.entry(n.model.clone()).or_default().push(n);
        }
        let models: Vec<ModelState> = by_model
            .into_iter()
            .map(|(name, runs)| {
                let notes = notes_of.remove(&name).unwrap_or_default();
                ModelState::new(name, runs, notes, subset.cloned())
            })
            .collect();
        let problems = [
            diagnostics.iter().filter(|d| d.is_error()).count(),
            diagnostics.iter().filter(|d| d.is_warning()).count(),
            diagnostics.iter().filter(|d| d.is_note()).count(),
        ];
        Self {
            generation,
            load_ms,
            runs: models.iter().map(|m| m.columns.len()).sum(),
            models,
            problems,
            units_read,
            diagnostics: diagnostics_json(&diagnostics),
            views: Mutex::default(),
        }
    }

    /// The model a request names (the first when it names none); `None` when there is none.
    pub(crate) fn model(&self, name: Option<&str>) -> Option<(usize, &ModelState)> {
        match name {
            Some(name) => self.models.iter().enumerate().find(|(_, m)| m.shown() == name || m.name == name),
            None => self.models.first().map(|m| (0, m)),
        }
    }

    /// The analysis of `model` over the runs `runs` picks, made once and kept.
    pub(crate) fn view(&self, model: usize, runs: &RunFilter) -> Arc<View> {
        let key = ViewKey { model, runs: runs.clone() };
        if let Some((_, v)) = self.lock_views().iter().find(|(k, _)| *k == key) {
            return Arc::clone(v);
        }
        let view = Arc::new(View::build(&self.models[model], runs));
        let mut views = self.lock_views();
        if views.len() >= VIEWS_KEPT {
            views.remove(0);
        }
        views.push((key, Arc::clone(&view)));
        view
    }

    fn lock_views(&self) -> std::sync::MutexGuard<'_, Vec<(ViewKey, Arc<View>)>> {
        self.views.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The page's header: the models, the filters' choices, the model's overview (`view`:
    /// the model's state and its view, made with [`Snapshot::view`]).
    pub(crate) fn summary<'a>(
        &'a self,
        header: (String, &'a [String], api::Status),
        view: Option<(&'a ModelState, &'a View)>,
    ) -> api::Summary<'a> {
        let (generator, inputs, status) = header;
        let models = self
            .models
            .iter()
            .map(|m| api::ModelEntry { model: m.shown(), runs: m.columns.len(), categories: m.category_count() })
            .collect();
        let overview = view.map(|(state, view)| {
            let data = &view.data;
            let least_stable = data
                .least_stable
                .iter()
                .map(|&i| view.row(state, u32::try_from(i).unwrap_or(u32::MAX), None))
                .collect();
            // The latest columns only: the overview's chart has no room for thousands.
            let from = data.runs.len().saturating_sub(TREND_COLUMNS);
            let series = data
                .trend
                .iter()
                .map(|s| api::Series { category: &s.category, rates: &s.rates[from..], judged: &s.judged[from..] })
                .collect();
            api::Overview {
                units_read: self.units_read,
                model: state.shown(),
                choices: state.choices(),
                runs: api::RunsPicked {
                    total: state.columns.len(),
                    picked: data.runs.len(),
                    first: data.runs.first().map(|r| r.name.as_str()),
                    last: data.runs.last().map(|r| r.name.as_str()),
                },
                timed: data.timed,
                overall: data.overall,
                categories: &data.categories,
                least_stable,
                trend: api::Trend { from, runs: data.runs[from..].iter().map(|r| r.name.as_str()).collect(), series },
                estimate: data.estimate.as_deref(),
                unjudged: &data.unjudged,
            }
        });
        api::Summary {
            schema: api::SUMMARY,
            generator,
            inputs,
            status,
            generation: self.generation,
            load_ms: self.load_ms,
            models,
            diagnostics: &self.diagnostics,
            view: overview,
        }
    }
}

impl ModelState {
    fn new(name: String, runs: Vec<CategoryRun>, notes: Vec<RunNotes>, subset: Option<Arc<Subset>>) -> Self {
        let columns = runs_in_time_order(&runs);
        let column_of: HashMap<String, u32> =
            columns.iter().enumerate().map(|(i, r)| (r.name.clone(), u32::try_from(i).unwrap_or(u32::MAX))).collect();
        let run_of = runs.iter().enumerate().map(|(i, r)| ((r.run.clone(), r.category.clone()), i)).collect();
        let mut raw_ids = HashMap::new();
        for r in &runs {
            for t in r.tests() {
                if let Cow::Owned(shown) = printable(t.id) {
                    raw_ids.entry(shown).or_insert_with(|| t.id.to_string());
                }
            }
        }
        let mut messages: Vec<Box<str>> = Vec::new();
        let mut interned: HashMap<Box<str>, u32> = HashMap::new();
        let mut by_test: HashMap<(String, String), Vec<(u32, u32)>> = HashMap::new();
        let mut costs: Vec<Option<RunCost>> = vec![None; columns.len()];
        for n in notes {
            let Some(&col) = column_of.get(&n.run) else { continue };
            if let Some(cost) = n.cost {
                let slot = &mut costs[col as usize];
                *slot = Some(match slot.take() {
                    Some(before) => merged(before, &cost),
                    None => cost,
                });
            }
            for m in n.messages {
                let text: Box<str> = printable_block(&m.text).into();
                let at = *interned.entry(text).or_insert_with_key(|text| {
                    messages.push(text.clone());
                    u32::try_from(messages.len() - 1).unwrap_or(u32::MAX)
                });
                let key = (printable(&m.category).into_owned(), printable(&m.id).into_owned());
                by_test.entry(key).or_default().push((col, at));
            }
        }
        for cells in by_test.values_mut() {
            cells.sort_unstable();
        }
        Self { name, runs, columns, column_of, run_of, messages, by_test, raw_ids, costs, subset }
    }

    /// The model's name as the page shows it.
    pub(crate) fn shown(&self) -> Cow<'_, str> {
        printable(&self.name)
    }

    fn category_count(&self) -> usize {
        self.runs.iter().map(|r| r.category.as_str()).collect::<BTreeSet<_>>().len()
    }

    /// The test id `shown` stands for, as the files write it.
    pub(crate) fn raw_id<'a>(&'a self, shown: &'a str) -> &'a str {
        self.raw_ids.get(shown).map_or(shown, String::as_str)
    }

    /// What the run filters can pick from: branches, tiers, the first and last timestamp.
    fn choices(&self) -> api::Choices<'_> {
        let mut branches = BTreeSet::new();
        let mut tiers = BTreeSet::new();
        let mut times = Vec::new();
        for c in &self.columns {
            branches.extend(c.meta.git_branch.as_deref().map(printable));
            tiers.extend(c.meta.tier.as_deref().map(printable));
            times.extend(c.meta.timestamp.as_deref());
        }
        let first = times.iter().min().map(|t| printable(t));
        let last = times.iter().max().map(|t| printable(t));
        api::Choices { branches, tiers, first, last, runs: self.columns.iter().map(|c| printable(&c.name)).collect() }
    }

    /// Whether column `c` passes `filter`.
    fn keeps(&self, c: usize, filter: &RunFilter) -> bool {
        filter.keeps(&self.columns[c].name, &self.columns[c].meta)
    }

    /// The category runs of the columns `picked` marks.
    fn picked_runs(&self, picked: &[bool]) -> Vec<CategoryRun> {
        self.runs.iter().filter(|r| self.column_of.get(&r.run).is_some_and(|&c| picked[c as usize])).cloned().collect()
    }
}

/// Two pieces of one run's cost (BFCL's file pairs) added up.
fn merged(mut a: RunCost, b: &RunCost) -> RunCost {
    fn add<T: std::ops::Add<Output = T> + Copy>(x: Option<T>, y: Option<T>) -> Option<T> {
        match (x, y) {
            (Some(x), Some(y)) => Some(x + y),
            (x, y) => x.or(y),
        }
    }
    let sum = |x: &ModelCost, y: &ModelCost| ModelCost {
        model: x.model.clone(),
        calls: add(x.calls, y.calls),
        input_tokens: add(x.input_tokens, y.input_tokens),
        output_tokens: add(x.output_tokens, y.output_tokens),
        cost_usd: add(x.cost_usd, y.cost_usd),
    };
    for row in &b.models {
        match a.models.iter_mut().find(|r| r.model == row.model) {
            Some(r) => *r = sum(r, row),
            None => a.models.push(row.clone()),
        }
    }
    a.total = sum(&a.total, &b.total);
    a.declared_usd = add(a.declared_usd, b.declared_usd);
    a.tests_usd = add(a.tests_usd, b.tests_usd);
    a.passed += b.passed;
    a.usd_per_pass = a.per_pass();
    if b.source == CostSource::Declared {
        a.source = CostSource::Declared;
    } else if a.source == CostSource::None {
        a.source = b.source;
    }
    a
}

impl View {
    fn build(model: &ModelState, filter: &RunFilter) -> Self {
        let picked: Vec<bool> = (0..model.columns.len()).map(|c| model.keeps(c, filter)).collect();
        let owned;
        let runs: &[CategoryRun] = if picked.iter().all(|&p| p) {
            &model.runs
        } else {
            owned = model.picked_runs(&picked);
            &owned
        };
        let report = stability::analyze(runs);
        // Only this model's runs: its estimate, or none when it ran no anchor.
        let estimates = model.subset.as_ref().and_then(|s| s.estimate(runs, false).ok()).unwrap_or_default();
        let input = html::Input {
            stability: &report,
            runs,
            records: &[],
            compare: None,
            diagnostics: &[],
            inputs: &[],
            estimates: &estimates,
        };
        let data =
            html::data(&input, &html::Options::default()).models.into_iter().next().unwrap_or_else(|| ModelData {
                model: model.shown().into_owned(),
                runs: Vec::new(),
                timed: false,
                overall: html::Counts::default(),
                categories: Vec::new(),
                error_types: Vec::new(),
                messages: Vec::new(),
                tests: Vec::new(),
                least_stable: Vec::new(),
                trend: Vec::new(),
                estimate: None,
                unjudged: Vec::new(),
            });
        let columns = data.runs.iter().filter_map(|r| model.column_of.get(model.raw_run(&r.name)).copied()).collect();
        Self { data, columns, picked, rows: Mutex::default(), trends: Mutex::default() }
    }

    /// The rows `filter` keeps (indices into the view's tests), made once and kept.
    fn rows(&self, model: &ModelState, filter: &TestFilter) -> Arc<Vec<u32>> {
        let mut kept = self.rows.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, rows)) = kept.iter().find(|(f, _)| f == filter) {
            return Arc::clone(rows);
        }
        let category = filter.category.as_deref().map(|c| self.data.categories.iter().position(|k| k.category == c));
        let hits = filter.search().map(|q| model.search(q));
        let rows: Vec<u32> = self
            .data
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| category.is_none_or(|c| c == Some(t.category)))
            .filter(|(_, t)| filter.keeps_class(t.class))
            .filter(|(_, t)| {
                hits.as_ref().is_none_or(|(q, tests)| {
                    t.id.to_lowercase().contains(q.as_str())
                        || tests.contains(&(self.data.categories[t.category].category.as_str(), t.id.as_str()))
                })
            })
            .map(|(i, _)| u32::try_from(i).unwrap_or(u32::MAX))
            .collect();
        let rows = Arc::new(rows);
        if kept.len() >= VIEWS_KEPT {
            kept.remove(0);
        }
        kept.push((filter.clone(), Arc::clone(&rows)));
        rows
    }

    /// One heatmap row (test `i` of the view), its outcomes from column `from` on for
    /// `width` columns (`None`: no outcomes).
    fn row<'a>(&'a self, model: &'a ModelState, i: u32, cells: Option<(usize, usize)>) -> api::Row<'a> {
        let t = &self.data.tests[i as usize];
        let category = &self.data.categories[t.category].category;
        let o = cells.map(|(from, width)| {
            let end = (from + width).min(t.outcomes.len());
            t.outcomes.get(from.min(end)..end).unwrap_or("")
        });
        // The latest message of a picked run.
        let m = model
            .by_test
            .get(&(category.clone(), t.id.clone()))
            .and_then(|cells| cells.iter().rev().find(|(c, _)| self.picked[*c as usize]))
            .map(|&(_, m)| &*model.messages[m as usize]);
        api::Row { i, id: &t.id, c: category, s: t.class, n: t.counts, w: t.wilson, f: t.flip_rate, o, m }
    }

    /// A window of the heatmap: `rows` rows of the filtered tests from `row`, `cols` columns
    /// from `col`.
    pub(crate) fn heatmap<'a>(
        &'a self,
        model: &'a ModelState,
        filter: &TestFilter,
        window: [usize; 4],
        generation: u64,
    ) -> api::Heatmap<'a> {
        let [row, rows, col, cols] = window;
        let kept = self.rows(model, filter);
        let end = (row + rows).min(kept.len());
        let col_end = (col + cols).min(self.data.runs.len());
        let col = col.min(col_end);
        let rows = kept[row.min(end)..end].iter().map(|&i| self.row(model, i, Some((col, col_end - col)))).collect();
        let columns = self.data.runs[col..col_end]
            .iter()
            .zip(&self.columns[col..col_end])
            .map(|(r, &c)| {
                let meta = &model.columns[c as usize].meta;
                api::Column {
                    name: &r.name,
                    timestamp: &r.timestamp,
                    branch: &r.branch,
                    commit: &r.commit,
                    tier: meta.tier.as_deref().map(printable),
                }
            })
            .collect();
        api::Heatmap {
            schema: api::HEATMAP,
            generation,
            rows_total: kept.len(),
            cols_total: self.data.runs.len(),
            row: row.min(end),
            col,
            columns,
            rows,
        }
    }

    /// A page of the filtered tests, with each one's latest message.
    pub(crate) fn tests<'a>(&'a self, model: &'a ModelState, filter: &TestFilter, page: Page) -> api::Tests<'a> {
        let kept = self.rows(model, filter);
        let (from, to) = page.range(kept.len());
        let rows = kept[from..to].iter().map(|&i| self.row(model, i, None)).collect();
        api::Tests { schema: api::TESTS, total: kept.len(), page: page.number, per: page.per, rows }
    }

    /// The trend `report` ([`View::trend_of`]): counts per status and a page of the tests
    /// the filter keeps (`status`: only those).
    pub(crate) fn trend<'a>(
        report: &'a ModelTrend,
        model: &ModelState,
        filter: &TestFilter,
        status: Option<&str>,
        page: Page,
    ) -> api::TrendPage<'a> {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &report.tests {
            *counts.entry(t.status.as_str()).or_default() += 1;
        }
        let hits = filter.search().map(|q| model.search(q));
        let kept: Vec<&trend::TestTrend> = report
            .tests
            .iter()
            .filter(|t| status.is_none_or(|s| t.status.as_str() == s))
            .filter(|t| filter.category.as_deref().is_none_or(|c| printable(&t.category) == c))
            .filter(|t| {
                hits.as_ref().is_none_or(|(q, tests)| {
                    let (c, id) = (printable(&t.category), printable(&t.id));
                    id.to_lowercase().contains(q.as_str()) || tests.contains(&(c.as_ref(), id.as_ref()))
                })
            })
            .collect();
        let (from, to) = page.range(kept.len());
        let rows = kept[from..to]
            .iter()
            .map(|t| api::TrendRow {
                id: printable(&t.id),
                c: printable(&t.category),
                status: t.status.as_str(),
                rate: html_unit(t.rate),
                flips: t.flips,
                streak: t.streak,
                o: t.outcomes
                    .iter()
                    .map(|o| match o {
                        Some(true) => 'P',
                        Some(false) => 'F',
                        None => '-',
                    })
                    .collect(),
            })
            .collect();
        api::TrendPage {
            schema: api::TREND,
            runs: report.runs.iter().map(|r| printable(&r.name)).collect(),
            runs_found: report.runs_found,
            counts,
            total: kept.len(),
            page: page.number,
            per: page.per,
            rows,
        }
    }

    /// The trend of `model` over the last `last` picked runs (0: all), made once and kept.
    pub(crate) fn trend_of(&self, model: &ModelState, last: usize) -> Arc<ModelTrend> {
        let mut kept = self.trends.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, t)) = kept.iter().find(|(l, _)| *l == last) {
            return Arc::clone(t);
        }
        let runs = model.picked_runs(&self.picked);
        let report = trend::analyze(&runs, &TrendOptions { limit: last, ..TrendOptions::default() });
        let t = Arc::new(report.models.into_iter().next().unwrap_or_else(|| ModelTrend {
            model: model.name.clone(),
            runs: Vec::new(),
            runs_found: 0,
            tests: Vec::new(),
        }));
        if kept.len() >= VIEWS_KEPT {
            kept.remove(0);
        }
        kept.push((last, Arc::clone(&t)));
        t
    }

    /// The picked runs' costs, newest first, a page of them, and their total.
    pub(crate) fn cost<'a>(&self, model: &'a ModelState, page: Page) -> api::CostPage<'a> {
        let rows: Vec<(usize, &TrendRun, Option<&RunCost>)> = self
            .columns
            .iter()
            .rev()
            .map(|&c| (c as usize, &model.columns[c as usize], model.costs[c as usize].as_ref()))
            .collect();
        let mut total = ModelCost::default();
        let mut declared: Option<f64> = None;
        let mut with_cost = 0;
        for (_, _, cost) in &rows {
            if let Some(cost) = cost {
                with_cost += 1;
                total = ModelCost {
                    model: String::new(),
                    calls: add(total.calls, cost.total.calls),
                    input_tokens: add(total.input_tokens, cost.total.input_tokens),
                    output_tokens: add(total.output_tokens, cost.total.output_tokens),
                    cost_usd: add(total.cost_usd, cost.total.cost_usd),
                };
                declared = add(declared, cost.declared_usd);
            }
        }
        let (from, to) = page.range(rows.len());
        let listed = rows[from..to]
            .iter()
            .map(|&(_, run, cost)| api::CostRow {
                run: printable(&run.name),
                timestamp: run.meta.timestamp.as_deref().map(printable),
                source: cost.map(|c| c.source),
                calls: cost.and_then(|c| c.total.calls),
                input_tokens: cost.and_then(|c| c.total.input_tokens),
                output_tokens: cost.and_then(|c| c.total.output_tokens),
                cost_usd: cost.and_then(|c| c.total.cost_usd),
                declared_usd: cost.and_then(|c| c.declared_usd),
                models: cost.map(|c| {
                    c.models
                        .iter()
                        .map(|m| api::ModelCostRow {
                            model: printable(&m.model),
                            calls: m.calls,
                            input_tokens: m.input_tokens,
                            output_tokens: m.output_tokens,
                            cost_usd: m.cost_usd,
                        })
                        .collect()
                }),
            })
            .collect();
        api::CostPage {
            schema: api::COST,
            total: rows.len(),
            with_cost,
            page: page.number,
            per: page.per,
            sum: api::CostSum {
                calls: total.calls,
                input_tokens: total.input_tokens,
                output_tokens: total.output_tokens,
                cost_usd: total.cost_usd,
                declared_usd: declared,
            },
            rows: listed,
        }
    }
}

fn add<T: std::ops::Add<Output = T> + Copy>(x: Option<T>, y: Option<T>) -> Option<T> {
    match (x, y) {
        (Some(x), Some(y)) => Some(x + y),
        (x, y) => x.or(y),
    }
}

/// A rate to six decimals, as the report writes them.
fn html_unit(x: f64) -> f64 {
    if x.is_finite() { (x * 1e6).round() / 1e6 + 0.0 } else { x }
}

impl ModelState {
    /// One cell: the test's outcome in one run, its error type and message.
    pub(crate) fn cell<'a>(&'a self, category: &'a str, id: &'a str, run: &'a str) -> Option<api::Cell<'a>> {
        let raw_run = self.raw_run(run);
        let &col = self.column_of.get(raw_run)?;
        let raw_category = self.raw_category(category);
        let r = &self.runs[*self.run_of.get(&(raw_run.to_string(), raw_category.to_string()))?];
        let raw_id = self.raw_id(id);
        let test = r.tests().find(|t| t.id == raw_id)?;
        let message = self
            .by_test
            .get(&(category.to_string(), id.to_string()))
            .and_then(|cells| cells.iter().find(|(c, _)| *c == col))
            .map(|&(_, m)| &*self.messages[m as usize]);
        let meta = &self.columns[col as usize].meta;
        Some(api::Cell {
            schema: api::CELL,
            run: printable(run),
            category,
            id,
            outcome: if r.scored { format!("{:?}", test.outcome).to_lowercase() } else { "unscored".to_string() },
            error_type: test.error_type.map(|e| printable(e.as_str())),
            message,
            timestamp: meta.timestamp.as_deref().map(printable),
            branch: meta.git_branch.as_deref().map(printable),
        })
    }

    /// The run name `shown` stands for.
    fn raw_run<'a>(&'a self, shown: &'a str) -> &'a str {
        if self.column_of.contains_key(shown) {
            return shown;
        }
        self.columns.iter().find(|c| printable(&c.name) == shown).map_or(shown, |c| c.name.as_str())
    }

    /// The category name `shown` stands for.
    fn raw_category<'a>(&'a self, shown: &'a str) -> &'a str {
        self.runs.iter().find(|r| r.category == shown || printable(&r.category) == shown).map_or(shown, |r| &r.category)
    }

    /// The tests (category and id, as shown) one of whose messages contains `q` (lower
    /// case), with `q`.
    fn search<'a>(&'a self, q: &str) -> (String, BTreeSet<(&'a str, &'a str)>) {
        let q = q.to_lowercase();
        let hit: Vec<bool> = self.messages.iter().map(|m| m.to_lowercase().contains(&q)).collect();
        let tests = self
            .by_test
            .iter()
            .filter(|(_, cells)| cells.iter().any(|&(_, m)| hit[m as usize]))
            .map(|((c, id), _)| (c.as_str(), id.as_str()))
            .collect();
        (q, tests)
    }

    /// The columns a comparison side picks.
    fn side(&self, side: &Side) -> Vec<bool> {
        let picked: Vec<bool> =
            (0..self.columns.len()).map(|c| side.keeps(&self.columns[c].name, &self.columns[c].meta)).collect();
        match side.last {
            Some(n) => {
                let mut left = n;
                let mut out = vec![false; picked.len()];
                for c in (0..picked.len()).rev() {
                    if picked[c] && left > 0 {
                        out[c] = true;
                        left -= 1;
                    }
                }
                out
            }
            None => picked,
        }
    }

    /// The comparison of the runs `base` picks with those `new` picks.
    pub(crate) fn compare(&self, base: &Side, new: &Side) -> Result<api::Compare, String> {
        let (b, n) = (self.side(base), self.side(new));
        let names = |picked: &[bool]| -> Vec<String> {
            self.columns.iter().zip(picked).filter(|(_, p)| **p).map(|(c, _)| printable(&c.name).into_owned()).collect()
        };
        let (base_names, new_names) = (names(&b), names(&n));
        if base_names.is_empty() || new_names.is_empty() {
            let empty = if base_names.is_empty() { "base" } else { "new" };
            return Err(format!("the {empty} side picks no run of {}", self.shown()));
        }
        let report = compare::compare(&self.picked_runs(&b), &self.picked_runs(&n));
        let mut data = CompareData::new(&report);
        let mut cut = false;
        for m in &mut data.models {
            for c in &mut m.categories {
                cut |= c.regressions.len() > COMPARE_LISTED || c.improvements.len() > COMPARE_LISTED;
                c.regressions.truncate(COMPARE_LISTED);
                c.improvements.truncate(COMPARE_LISTED);
            }
        }
        Ok(api::Compare { schema: api::COMPARE, base: base_names, new: new_names, listed: COMPARE_LISTED, cut, data })
    }
}

/// Counts of the diagnostics, and the first of them as the commands print them (errors and
/// warnings before notes).
fn diagnostics_json(diagnostics: &[Diagnostic]) -> api::Diagnostics {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.iter().filter(|d| d.is_warning()).count();
    let notes = diagnostics.iter().filter(|d| d.is_note()).count();
    let listed: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.is_problem())
        .chain(diagnostics.iter().filter(|d| d.is_note()))
        .take(DIAGNOSTICS_LISTED)
        .map(|d| printable_block(&d.to_string()).into_owned())
        .collect();
    api::Diagnostics { loaded: Some(api::DiagnosticCounts { errors, warnings, notes, listed }) }
}

/// `evaltally show`'s JSON document for one model's runs of a test, every string in it made
/// printable (control characters escaped, URL passwords hidden), with the source's note.
pub(crate) fn shown_test(id: &str, model: &str, shown: &crate::Shown) -> api::Test {
    let details: Vec<_> = shown.details.iter().filter(|d| printable(&d.model) == model).cloned().collect();
    let judged = details.iter().filter(|d| d.status != Status::NotRun).count();
    let text = evaltally_report::show::json(id, &details, &shown.diagnostics);
    let mut doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    make_printable(&mut doc);
    api::Test { schema: api::TEST, model: model.to_string(), show: doc, runs: judged, note: shown.note.clone() }
}

fn make_printable(v: &mut Value) {
    match v {
        Value::String(s) => {
            if let Cow::Owned(p) = printable_block(s) {
                *s = p;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(make_printable),
        Value::Object(map) => map.values_mut().for_each(make_printable),
        _ => {}
    }
}
