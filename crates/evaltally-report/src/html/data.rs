//! The report's data: what the page's script draws, built from the analyses.
//!
//! Every string from an input goes through [`printable`] (control characters and
//! bidirectional overrides escaped, URL passwords redacted); the page shows them with
//! `textContent` only. Numbers are rounded to six significant digits, so the data is the same
//! on every platform and stays small.

use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_analyzer::stability::{self, Class, ModelStability};
use evaltally_analyzer::trend::runs_in_time_order;
use evaltally_analyzer::{Cell, Matrix};
use evaltally_core::text::printable;
use evaltally_core::{CategoryRun, Diagnostic};
use serde::Serialize;

use super::Input;
use super::compare::CompareData;
use super::details::{CellDetail, DetailIndex, Details};
use super::number::unit;

/// How many least stable tests each model lists.
pub(crate) const LEAST_STABLE: usize = 10;
/// How many diagnostics the page lists (all are counted).
const DIAGNOSTICS_LISTED: usize = 50;

/// Everything the page shows, embedded as one JSON document.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Data {
    /// The program that wrote the report (`evaltally 0.1.0`).
    pub generator: String,
    /// The paths read, as shown.
    pub inputs: Vec<String>,
    /// Error messages in cell details are cut to this many characters (0: left out) to keep
    /// the file within its size budget.
    pub message_chars: usize,
    /// Per model: its runs, overview, heatmap rows and trend.
    pub models: Vec<ModelData>,
    /// The comparison, when the report has two sides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareData>,
    /// Problems reading the files.
    pub diagnostics: DiagnosticsData,
}

/// One model.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelData {
    /// The model.
    pub model: String,
    /// The heatmap's columns: the model's runs in time order (by timestamp, then name; runs
    /// without one last, in natural name order).
    pub runs: Vec<RunData>,
    /// Whether any run records a timestamp (the trend view is drawn only then).
    pub timed: bool,
    /// Counts over every category.
    pub overall: Counts,
    /// Per category, by name.
    pub categories: Vec<CategoryData>,
    /// Error types that cell details name (by index).
    pub error_types: Vec<String>,
    /// Error messages that cell details name (by index), each cut to
    /// [`Data::message_chars`].
    pub messages: Vec<String>,
    /// The heatmap's rows: flaky tests first, then stable fails, stable passes and tests no
    /// run judged; by category within each, then natural id order.
    pub tests: Vec<TestData>,
    /// The least stable tests (indices into `tests`), most unstable first, as `stability
    /// --top-flaky` ranks them.
    pub least_stable: Vec<usize>,
    /// Pass rate per category per run (columns of `runs`), when the runs are timed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trend: Vec<TrendSeries>,
    /// The model's estimated full score from a subset's anchors, in one line
    /// ([`crate::subset::estimate_line`]), when the report was given a subset and the model
    /// ran some of its anchors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<String>,
    /// What the class table leaves out, one line per kind, shown under it: tests judged on
    /// fewer runs than list them (some errored or were not scored), tests no run scored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<String>,
}

/// One run (a heatmap column).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunData {
    /// The run's name.
    pub name: String,
    /// When it ran, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// The git branch it ran on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The git commit it ran on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// Stable pass, flaky, stable fail and errored counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Counts {
    /// Tests judged or errored in at least one run: the four classes add up to it.
    pub total: usize,
    /// Passed in every run that judged them.
    pub stable_pass: usize,
    /// Passed in some and failed in others.
    pub flaky: usize,
    /// Failed in every run that judged them.
    pub stable_fail: usize,
    /// Errored in more than half of the runs that list them.
    pub errored: usize,
    /// Of the flaky, those flaky under most models that judged them: the benchmark's.
    #[serde(skip_serializing_if = "is_zero")]
    pub benchmark_flaky: usize,
    /// Tests that errored in some of their runs (the `errored` ones included): the others
    /// are judged on the rest.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_errors: usize,
    /// Tests judged in some runs and not scored in others: judged on the runs that scored
    /// them.
    #[serde(skip_serializing_if = "is_zero")]
    pub with_unscored: usize,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl From<stability::Counts> for Counts {
    fn from(c: stability::Counts) -> Self {
        Counts {
            total: c.total,
            stable_pass: c.stable_pass,
            flaky: c.flaky,
            stable_fail: c.stable_fail,
            errored: c.errored,
            benchmark_flaky: c.benchmark_flaky,
            with_errors: c.with_errors,
            with_unscored: c.with_unscored,
        }
    }
}

/// One category of a model: the `stability` counts and pass^k / pass@k.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryData {
    /// The category.
    pub category: String,
    /// Runs that scored it.
    pub runs: usize,
    /// The counts.
    #[serde(flatten)]
    pub counts: Counts,
    /// Tests that appear only in unscored runs.
    pub unscored_tests: usize,
    /// pass^k for k = 1 … runs (`null` when no test was judged k times).
    pub pass_hat_k: Vec<Option<f64>>,
    /// pass@k for k = 1 … runs.
    pub pass_at_k: Vec<Option<f64>>,
}

/// One heatmap row.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestData {
    /// The test id.
    pub id: String,
    /// Its category (index into the model's `categories`).
    #[serde(rename = "c")]
    pub category: usize,
    /// Its class: `flaky`, `fail` (stable fail), `pass` (stable pass) or `none` (no run
    /// judged it: unscored or errored everywhere).
    #[serde(rename = "s")]
    pub class: &'static str,
    /// One character per run (column): `P` passed, `F` failed, `E` errored, `U` unscored,
    /// `-` not run.
    #[serde(rename = "o")]
    pub outcomes: String,
    /// `[passed, judged, errored]` over the scored runs.
    #[serde(rename = "n")]
    pub counts: [usize; 3],
    /// Wilson 95% interval of its pass rate (as `stability` computes it), when judged.
    #[serde(rename = "w", skip_serializing_if = "Option::is_none")]
    pub wilson: Option<[f64; 2]>,
    /// Share of consecutive judged runs (in run-name order) whose outcome differs.
    #[serde(rename = "f")]
    pub flip_rate: f64,
    /// Flaky under most models that judged it: the benchmark's, not this model's.
    #[serde(rename = "b", skip_serializing_if = "std::ops::Not::not")]
    pub benchmark_flaky: bool,
    /// Details of its cells that did not pass: `[column, error type, message, input
    /// tokens, output tokens, latency ms]`, unknowns `null`; types and messages index the
    /// model's tables.
    #[serde(rename = "d", skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<CellDetail>,
}

/// Pass rate of one category (or all: `category` null) in each run.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrendSeries {
    /// The category; `None` for every category together.
    pub category: Option<String>,
    /// Per column: passed / judged, `null` when the run judged none of its tests.
    pub rates: Vec<Option<f64>>,
    /// Per column: tests judged.
    pub judged: Vec<usize>,
}

/// How many warnings (files not read among them) and errors reading gave, and the first
/// of them; facts (`info`) are not counted.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiagnosticsData {
    /// Warnings.
    pub warnings: usize,
    /// Errors.
    pub errors: usize,
    /// The first diagnostics, as `evaltally` prints them on stderr.
    pub listed: Vec<String>,
}

fn shown(s: &str) -> String {
    printable(s).into_owned()
}

fn class_name(class: Option<Class>) -> (u8, &'static str) {
    match class {
        Some(Class::Flaky) => (0, "flaky"),
        Some(Class::StableFail) => (1, "fail"),
        Some(Class::StablePass) => (2, "pass"),
        Some(Class::Errored) => (3, "errored"),
        None => (4, "none"),
    }
}

fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Pass => 'P',
        Cell::Fail => 'F',
        Cell::Errored => 'E',
        Cell::Unscored => 'U',
        Cell::NotRun => '-',
    }
}

/// Builds the data of every model, with details of failed, errored and unscored cells from
/// `records`, messages cut to fit `budget` bytes of JSON (see [`super::Options`]).
pub(crate) fn build(input: &Input<'_>, options: &super::Options) -> Data {
    let index = DetailIndex::new(input.records);
    let mut details = Details::default();
    let mut models = Vec::with_capacity(input.stability.models.len());
    let mut by_model: HashMap<&str, Vec<&CategoryRun>> = HashMap::new();
    for r in input.runs {
        by_model.entry(r.model.as_str()).or_default().push(r);
    }
    for model in &input.stability.models {
        let runs = by_model.remove(model.model.as_str()).unwrap_or_default();
        let mut data = model_data(model, &runs, &index, &mut details, &input.stability.across_models);
        data.estimate = input.estimates.iter().find(|e| e.model == model.model).map(crate::subset::estimate_line);
        models.push(data);
    }
    let mut data = Data {
        generator: format!("evaltally {}", env!("CARGO_PKG_VERSION")),
        inputs: input.inputs.iter().map(|p| shown(p)).collect(),
        message_chars: 0,
        models,
        compare: input.compare.map(CompareData::new),
        diagnostics: diagnostics(input.diagnostics),
    };
    let without_messages = super::escape::script_json(&data).map_or(0, |s| s.len());
    let budget =
        options.max_bytes.saturating_sub(without_messages + super::page::TEMPLATE_BYTES + details.cells_bytes());
    data.message_chars = details.fit(options.message_chars, budget);
    for (m, (types, messages, cells)) in data.models.iter_mut().zip(details.finish(data.message_chars)) {
        m.error_types = types;
        m.messages = messages;
        for (t, cell) in cells {
            m.tests[t].details.push(cell);
        }
    }
    data
}

/// The problems reading gave: facts (`info`, said with `--verbose`) are none.
fn diagnostics(diags: &[Diagnostic]) -> DiagnosticsData {
    let problems = || diags.iter().filter(|d| !d.is_info());
    DiagnosticsData {
        warnings: problems().filter(|d| !d.is_error()).count(),
        errors: problems().filter(|d| d.is_error()).count(),
        listed: problems().take(DIAGNOSTICS_LISTED).map(ToString::to_string).collect(),
    }
}

fn model_data(
    model: &ModelStability,
    runs: &[&CategoryRun],
    index: &DetailIndex<'_>,
    details: &mut Details,
    across: &BTreeMap<String, evaltally_analyzer::across::CategoryAcross>,
) -> ModelData {
    let columns = runs_in_time_order(runs.iter().copied());
    let column: HashMap<&str, usize> = columns.iter().enumerate().map(|(i, r)| (r.name.as_str(), i)).collect();
    let categories: Vec<CategoryData> = model.categories.iter().map(category_data).collect();
    let category_index: HashMap<&str, usize> =
        model.categories.iter().enumerate().map(|(i, c)| (c.category.as_str(), i)).collect();
    let mut by_category: BTreeMap<&str, Vec<&CategoryRun>> = BTreeMap::new();
    for r in runs {
        by_category.entry(r.category.as_str()).or_default().push(r);
    }
    let matrices: Vec<Matrix<'_>> = by_category.into_values().map(Matrix::new).collect();

    // Rows, with their sort key (class, category, natural id).
    let mut rows: Vec<(u8, TestData)> = Vec::new();
    let mut trend: Vec<(Vec<usize>, Vec<usize>)> =
        vec![(vec![0; columns.len()], vec![0; columns.len()]); categories.len()];
    let mut detail_cells: Vec<(usize, usize, &str, &str, &str)> = Vec::new();
    for matrix in &matrices {
        let Some(&c) = category_index.get(matrix.category) else { continue };
        let stab = &model.categories[c];
        let judged: HashMap<&str, &stability::TestStability> = stab.tests.iter().map(|t| (t.id.as_str(), t)).collect();
        let cols: Vec<usize> = matrix.runs.iter().map(|r| column[r.run.as_str()]).collect();
        let benchmark: Option<hashbrown::HashSet<&str>> =
            across.get(matrix.category).map(|a| a.benchmark_flaky.iter().map(String::as_str).collect());
        for (t, test_id) in matrix.ids.iter().enumerate() {
            let mut outcomes = vec![b'-'; columns.len()];
            let (mut passed, mut runs_judged, mut errored) = (0, 0, 0);
            for (r, &col) in cols.iter().enumerate() {
                let cell = matrix.cell(t, r);
                outcomes[col] = cell_char(cell) as u8;
                let scored = matrix.runs[r].scored;
                match cell {
                    Cell::Pass if scored => {
                        passed += 1;
                        runs_judged += 1;
                        trend[c].0[col] += 1;
                        trend[c].1[col] += 1;
                    }
                    Cell::Fail if scored => {
                        runs_judged += 1;
                        trend[c].1[col] += 1;
                    }
                    Cell::Errored if scored => errored += 1,
                    _ => {}
                }
                if !matches!(cell, Cell::Pass | Cell::NotRun) {
                    detail_cells.push((rows.len(), col, matrix.runs[r].run.as_str(), matrix.category, test_id));
                }
            }
            let stat = judged.get(test_id).copied();
            let (rank, class) = class_name(stat.map(stability::TestStability::class));
            rows.push((
                rank,
                TestData {
                    id: shown(test_id),
                    category: c,
                    class,
                    outcomes: String::from_utf8(outcomes).unwrap_or_default(),
                    counts: [passed, runs_judged, errored],
                    wilson: stat.map(|s| [unit(s.wilson[0]), unit(s.wilson[1])]),
                    flip_rate: stat.map_or(0.0, |s| unit(s.flip_rate)),
                    benchmark_flaky: benchmark.as_ref().is_some_and(|b| b.contains(test_id)),
                    details: Vec::new(),
                },
            ));
        }
    }
    // Natural id order within (class, category); rows of one matrix are in natural order
    // already, so a stable sort on (class, category) keeps it.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| (rows[a].0, rows[a].1.category).cmp(&(rows[b].0, rows[b].1.category)));
    let mut position = vec![0; rows.len()];
    for (p, &i) in order.iter().enumerate() {
        position[i] = p;
    }
    let mut slots: Vec<Option<TestData>> = rows.into_iter().map(|(_, t)| Some(t)).collect();
    let tests: Vec<TestData> = order.iter().filter_map(|&i| slots[i].take()).collect();

    let slot = details.model();
    for (row, col, run, category, test_id) in detail_cells {
        if let Some(record) = index.get(&model.model, run, category, test_id) {
            details.add(slot, position[row], col, record);
        }
    }

    let position_of: HashMap<(usize, &str), usize> =
        tests.iter().enumerate().map(|(i, t)| ((t.category, t.id.as_str()), i)).collect();
    let least_stable = stability::top_flaky(model, LEAST_STABLE)
        .into_iter()
        .filter_map(|(c, t)| {
            let ci = category_index.get(c.category.as_str())?;
            position_of.get(&(*ci, printable(&t.id).as_ref())).copied()
        })
        .collect();
    drop(position_of);

    let timed = columns.iter().any(|r| r.meta.timestamp.is_some());
    let trend = if timed { trend_series(&categories, &trend) } else { Vec::new() };
    ModelData {
        model: shown(&model.model),
        runs: columns
            .iter()
            .map(|r| RunData {
                name: shown(&r.name),
                timestamp: r.meta.timestamp.as_deref().map(shown),
                branch: r.meta.git_branch.as_deref().map(shown),
                commit: r.meta.git_sha.as_deref().map(shown),
            })
            .collect(),
        timed,
        overall: model.overall.into(),
        categories,
        error_types: Vec::new(),
        messages: Vec::new(),
        tests,
        least_stable,
        trend,
        estimate: None,
        unjudged: unjudged(model),
    }
}

/// [`ModelData::unjudged`]: the lines `stability` prints under its class table, then the
/// tests no run scored, with their categories.
fn unjudged(model: &ModelStability) -> Vec<String> {
    /// How many categories the line names.
    const NAMED: usize = 3;
    let mut lines = crate::stability::judged_on_fewer_runs(model.overall, false);
    let only: Vec<&stability::CategoryStability> = model.categories.iter().filter(|c| c.unscored_tests > 0).collect();
    let n: usize = only.iter().map(|c| c.unscored_tests).sum();
    if n > 0 {
        let named: Vec<String> = only.iter().take(NAMED).map(|c| shown(&c.category)).collect();
        let verb = if n == 1 { "was" } else { "were" };
        lines.push(format!(
            "{} {verb} not scored in any run ({}), counted as neither pass nor fail",
            crate::plural(n, "test"),
            crate::and_more(&named, only.len())
        ));
    }
    lines
}

fn category_data(c: &stability::CategoryStability) -> CategoryData {
    let r = |v: &[Option<f64>]| v.iter().map(|x| x.map(unit)).collect();
    CategoryData {
        category: shown(&c.category),
        runs: c.runs.len(),
        counts: c.counts().into(),
        unscored_tests: c.unscored_tests,
        pass_hat_k: r(&c.pass_hat_k),
        pass_at_k: r(&c.pass_at_k),
    }
}

/// Per category, and for all together, the pass rate in each column.
fn trend_series(categories: &[CategoryData], counts: &[(Vec<usize>, Vec<usize>)]) -> Vec<TrendSeries> {
    let series = |category: Option<String>, passed: &[usize], judged: &[usize]| TrendSeries {
        category,
        rates: passed.iter().zip(judged).map(|(&p, &j)| (j > 0).then(|| unit(p as f64 / j as f64))).collect(),
        judged: judged.to_vec(),
    };
    let width = counts.first().map_or(0, |c| c.0.len());
    let (mut all_passed, mut all_judged) = (vec![0; width], vec![0; width]);
    for (p, j) in counts {
        for col in 0..width {
            all_passed[col] += p[col];
            all_judged[col] += j[col];
        }
    }
    let mut out = vec![series(None, &all_passed, &all_judged)];
    out.extend(categories.iter().zip(counts).map(|(c, (p, j))| series(Some(c.category.clone()), p, j)));
    out
}

#[cfg(test)]
mod tests {
    use evaltally_analyzer::stability::StabilityReport;

    use super::*;

    #[test]
    fn stability_report_without_models_gives_no_models() {
        let report = StabilityReport::default();
        let input = Input {
            stability: &report,
            runs: &[],
            records: &[],
            compare: None,
            diagnostics: &[],
            inputs: &[],
            estimates: &[],
        };
        let data = build(&input, &super::super::Options::default());
        assert!(data.models.is_empty());
    }
}
