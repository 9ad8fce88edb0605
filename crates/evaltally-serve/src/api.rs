//! The documents the JSON views answer with, one type each, and their identifiers. Every
//! answer is written with its keys sorted, the `schema` key first
//! ([`evaltally_core::schema::SortedKeys`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use evaltally_analyzer::cost::CostSource;
use evaltally_analyzer::trend::Streak;
use evaltally_core::schema::SchemaId;
use evaltally_report::html::{CategoryData, CompareData, Counts};
use serde::Serialize;

/// `/api/summary`.
pub(crate) const SUMMARY: SchemaId = SchemaId::new("serve-summary", 1);
/// `/api/heatmap`.
pub(crate) const HEATMAP: SchemaId = SchemaId::new("serve-heatmap", 1);
/// `/api/tests`.
pub(crate) const TESTS: SchemaId = SchemaId::new("serve-tests", 1);
/// `/api/cell`.
pub(crate) const CELL: SchemaId = SchemaId::new("serve-cell", 1);
/// `/api/test`.
pub(crate) const TEST: SchemaId = SchemaId::new("serve-test", 1);
/// `/api/trend`.
pub(crate) const TREND: SchemaId = SchemaId::new("serve-trend", 1);
/// `/api/cost`.
pub(crate) const COST: SchemaId = SchemaId::new("serve-cost", 1);
/// `/api/compare`.
pub(crate) const COMPARE: SchemaId = SchemaId::new("serve-compare", 1);
/// Every refused or failed request.
pub(crate) const ERROR: SchemaId = SchemaId::new("serve-error", 1);

/// `/api/summary`: the page's header. The models, the loading thread's status, what
/// reading said, and, when there is a model, its overview over the runs picked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Summary<'a> {
    /// The document's name and version, [`SUMMARY`].
    pub(crate) schema: SchemaId,
    /// The program serving (`evaltally 0.1.0`).
    pub(crate) generator: String,
    /// The paths served, as shown.
    pub(crate) inputs: &'a [String],
    /// What the loading thread is doing.
    pub(crate) status: Status,
    /// Counts loads: 0 before the first.
    pub(crate) generation: u64,
    /// How long the last load and its analysis took, in milliseconds.
    pub(crate) load_ms: u64,
    /// Every model, by name.
    pub(crate) models: Vec<ModelEntry<'a>>,
    /// What reading the files said.
    pub(crate) diagnostics: &'a Diagnostics,
    /// The overview of the model asked for (the first when none is named); absent when
    /// there is no model.
    #[serde(flatten)]
    pub(crate) view: Option<Overview<'a>>,
}

/// What the loading thread is doing.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Status {
    /// Whether a load is under way.
    pub(crate) loading: bool,
    /// Why the last load failed (the page keeps showing the one before).
    pub(crate) error: Option<String>,
    /// Folders watched.
    pub(crate) watching: usize,
    /// Whether the folders could not all be watched, so the server loads every few seconds.
    pub(crate) polling: bool,
    /// When the last load finished, in seconds since 1970.
    pub(crate) loaded_at: Option<u64>,
}

/// One model served.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct ModelEntry<'a> {
    /// Its name, as shown.
    pub(crate) model: Cow<'a, str>,
    /// Its runs.
    pub(crate) runs: usize,
    /// Its categories.
    pub(crate) categories: usize,
}

/// Counts of what reading the files said, and the first of them as the commands print
/// them (errors and warnings before notes); an empty object before the first load.
#[derive(Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Diagnostics {
    /// The counts and the list, once loaded.
    #[serde(flatten)]
    pub(crate) loaded: Option<DiagnosticCounts>,
}

/// Counts of what reading the files said, and the first of them.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct DiagnosticCounts {
    /// Errors.
    pub(crate) errors: usize,
    /// Warnings.
    pub(crate) warnings: usize,
    /// Files found and not read.
    pub(crate) notes: usize,
    /// The first of them, as printed on stderr.
    pub(crate) listed: Vec<String>,
}

/// One model's overview over the runs a filter picks.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Overview<'a> {
    /// Units read from their files in the last load, when the source counts them.
    pub(crate) units_read: Option<u64>,
    /// The model, as shown.
    pub(crate) model: Cow<'a, str>,
    /// What the run filters can pick from.
    pub(crate) choices: Choices<'a>,
    /// The runs, and those the filters picked.
    pub(crate) runs: RunsPicked<'a>,
    /// Whether any run records a timestamp.
    pub(crate) timed: bool,
    /// Counts over every category.
    pub(crate) overall: Counts,
    /// Per category, by name.
    pub(crate) categories: &'a [CategoryData],
    /// The least stable tests, most unstable first.
    pub(crate) least_stable: Vec<Row<'a>>,
    /// The pass rate per category over the latest runs picked.
    pub(crate) trend: Trend<'a>,
    /// The model's estimated full score from the anchors of the subset served with
    /// `--subset`, in one line; absent without one, or when the model ran no anchor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) estimate: Option<&'a str>,
    /// What the class table leaves out, one line per kind: tests judged on fewer runs than
    /// list them (some errored or were not scored), tests no run scored; absent when none.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub(crate) unjudged: &'a [String],
}

/// What the run filters can pick from.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Choices<'a> {
    /// The git branches the runs record.
    pub(crate) branches: BTreeSet<Cow<'a, str>>,
    /// The tiers the runs record.
    pub(crate) tiers: BTreeSet<Cow<'a, str>>,
    /// The earliest timestamp.
    pub(crate) first: Option<Cow<'a, str>>,
    /// The latest timestamp.
    pub(crate) last: Option<Cow<'a, str>>,
    /// Every run, in time order.
    pub(crate) runs: Vec<Cow<'a, str>>,
}

/// The runs, and those the filters picked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct RunsPicked<'a> {
    /// Runs of the model.
    pub(crate) total: usize,
    /// Runs picked.
    pub(crate) picked: usize,
    /// The first run picked, in time order.
    pub(crate) first: Option<&'a str>,
    /// The last run picked.
    pub(crate) last: Option<&'a str>,
}

/// The pass rate per category over the latest runs picked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Trend<'a> {
    /// The index among the runs picked of the first run shown.
    pub(crate) from: usize,
    /// The runs shown.
    pub(crate) runs: Vec<&'a str>,
    /// One series per category (and one for all: `category` null).
    pub(crate) series: Vec<Series<'a>>,
}

/// The pass rate of one category in each run shown.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Series<'a> {
    /// The category; `null` for every category together.
    pub(crate) category: &'a Option<String>,
    /// Per run: passed / judged, `null` when it judged none.
    pub(crate) rates: &'a [Option<f64>],
    /// Per run: tests judged.
    pub(crate) judged: &'a [usize],
}

/// One test: a heatmap row, an entry of a list.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Row<'a> {
    /// Its index among the view's tests.
    pub(crate) i: u32,
    /// The test id, as shown.
    pub(crate) id: &'a str,
    /// Its category.
    pub(crate) c: &'a str,
    /// Its class: `flaky`, `fail`, `pass` or `none`.
    pub(crate) s: &'static str,
    /// `[passed, judged, errored]` over the runs picked.
    pub(crate) n: [usize; 3],
    /// Wilson 95% interval of its pass rate, `null` when not judged.
    pub(crate) w: Option<[f64; 2]>,
    /// Share of consecutive judged runs whose outcome differs.
    pub(crate) f: f64,
    /// Its outcomes in the columns asked for, one character each (`P`, `F`, `E`, `U`,
    /// `-`); only in the heatmap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) o: Option<&'a str>,
    /// The latest error message of a run picked, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) m: Option<&'a str>,
}

/// `/api/heatmap`: a window of the heatmap.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Heatmap<'a> {
    /// The document's name and version, [`HEATMAP`].
    pub(crate) schema: SchemaId,
    /// The load this answer comes from.
    pub(crate) generation: u64,
    /// Tests the filter keeps.
    pub(crate) rows_total: usize,
    /// Runs picked.
    pub(crate) cols_total: usize,
    /// The first row of the window.
    pub(crate) row: usize,
    /// The first column of the window.
    pub(crate) col: usize,
    /// The window's columns.
    pub(crate) columns: Vec<Column<'a>>,
    /// The window's rows.
    pub(crate) rows: Vec<Row<'a>>,
}

/// One heatmap column: a run.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Column<'a> {
    /// The run, as shown.
    pub(crate) name: &'a str,
    /// When it ran.
    pub(crate) timestamp: &'a Option<String>,
    /// Its git branch.
    pub(crate) branch: &'a Option<String>,
    /// Its git commit.
    pub(crate) commit: &'a Option<String>,
    /// Its tier.
    pub(crate) tier: Option<Cow<'a, str>>,
}

/// `/api/tests`: a page of the tests the filter keeps.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Tests<'a> {
    /// The document's name and version, [`TESTS`].
    pub(crate) schema: SchemaId,
    /// Tests the filter keeps.
    pub(crate) total: usize,
    /// The page, from 0.
    pub(crate) page: usize,
    /// Tests per page.
    pub(crate) per: usize,
    /// The page's tests, each with its latest message.
    pub(crate) rows: Vec<Row<'a>>,
}

/// `/api/cell`: one test in one run.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Cell<'a> {
    /// The document's name and version, [`CELL`].
    pub(crate) schema: SchemaId,
    /// The run, as shown.
    pub(crate) run: Cow<'a, str>,
    /// The category.
    pub(crate) category: &'a str,
    /// The test id.
    pub(crate) id: &'a str,
    /// `pass`, `fail`, `errored` or `unscored`.
    pub(crate) outcome: String,
    /// Its error label.
    pub(crate) error_type: Option<Cow<'a, str>>,
    /// Its error message.
    pub(crate) message: Option<&'a str>,
    /// When the run ran.
    pub(crate) timestamp: Option<Cow<'a, str>>,
    /// The run's git branch.
    pub(crate) branch: Option<Cow<'a, str>>,
}

/// `/api/test`: one test in every run of the model, as `evaltally show` prints it.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Test {
    /// The document's name and version, [`TEST`].
    pub(crate) schema: SchemaId,
    /// The model, as shown.
    pub(crate) model: String,
    /// `evaltally show --format json`'s document for the model's runs, every string made
    /// printable.
    #[cfg_attr(feature = "schema", schemars(with = "evaltally_report::show::Document<'static>"))]
    pub(crate) show: serde_json::Value,
    /// Runs that list the test.
    pub(crate) runs: usize,
    /// What the source does not keep, when it says.
    pub(crate) note: Option<String>,
}

/// `/api/trend`: the trend over the last runs picked, counts per status and a page of the
/// tests.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct TrendPage<'a> {
    /// The document's name and version, [`TREND`].
    pub(crate) schema: SchemaId,
    /// The runs looked at, oldest first.
    pub(crate) runs: Vec<Cow<'a, str>>,
    /// Runs found before the limit.
    pub(crate) runs_found: usize,
    /// Tests per status.
    pub(crate) counts: BTreeMap<&'static str, usize>,
    /// Tests the filters keep.
    pub(crate) total: usize,
    /// The page, from 0.
    pub(crate) page: usize,
    /// Tests per page.
    pub(crate) per: usize,
    /// The page's tests.
    pub(crate) rows: Vec<TrendRow<'a>>,
}

/// One test's trend.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct TrendRow<'a> {
    /// The test id, as shown.
    pub(crate) id: Cow<'a, str>,
    /// Its category, as shown.
    pub(crate) c: Cow<'a, str>,
    /// Its status (`stable_pass`, `newly_failing`, …).
    pub(crate) status: &'static str,
    /// Its pass rate, to six decimals.
    pub(crate) rate: f64,
    /// Outcome changes between consecutive runs.
    pub(crate) flips: usize,
    /// Its current streak.
    pub(crate) streak: Streak,
    /// One character per run: `P`, `F`, `-`.
    pub(crate) o: String,
}

/// `/api/cost`: the picked runs' costs, newest first, a page of them, and their total.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct CostPage<'a> {
    /// The document's name and version, [`COST`].
    pub(crate) schema: SchemaId,
    /// Runs picked.
    pub(crate) total: usize,
    /// Runs that record a cost.
    pub(crate) with_cost: usize,
    /// The page, from 0.
    pub(crate) page: usize,
    /// Runs per page.
    pub(crate) per: usize,
    /// The totals over the runs picked.
    pub(crate) sum: CostSum,
    /// The page's runs.
    pub(crate) rows: Vec<CostRow<'a>>,
}

/// Totals over the runs picked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct CostSum {
    /// Model calls.
    pub(crate) calls: Option<u64>,
    /// Input tokens.
    pub(crate) input_tokens: Option<u64>,
    /// Output tokens.
    pub(crate) output_tokens: Option<u64>,
    /// Dollars over the rows.
    pub(crate) cost_usd: Option<f64>,
    /// Dollars the runs declare.
    pub(crate) declared_usd: Option<f64>,
}

/// One run's cost.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct CostRow<'a> {
    /// The run, as shown.
    pub(crate) run: Cow<'a, str>,
    /// When it ran.
    pub(crate) timestamp: Option<Cow<'a, str>>,
    /// Where the figures come from; `null` when it records no cost.
    pub(crate) source: Option<CostSource>,
    /// Model calls.
    pub(crate) calls: Option<u64>,
    /// Input tokens.
    pub(crate) input_tokens: Option<u64>,
    /// Output tokens.
    pub(crate) output_tokens: Option<u64>,
    /// Dollars.
    pub(crate) cost_usd: Option<f64>,
    /// Dollars the run declares.
    pub(crate) declared_usd: Option<f64>,
    /// One row per model called; `null` when it records no cost.
    pub(crate) models: Option<Vec<ModelCostRow<'a>>>,
}

/// What one model's calls cost in a run.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct ModelCostRow<'a> {
    /// The model, as shown.
    pub(crate) model: Cow<'a, str>,
    /// Calls.
    pub(crate) calls: Option<u64>,
    /// Input tokens.
    pub(crate) input_tokens: Option<u64>,
    /// Output tokens.
    pub(crate) output_tokens: Option<u64>,
    /// Dollars.
    pub(crate) cost_usd: Option<f64>,
}

/// `/api/compare`: the comparison of the runs one side picks with those the other picks.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Compare {
    /// The document's name and version, [`COMPARE`].
    pub(crate) schema: SchemaId,
    /// The base side's runs, as shown.
    pub(crate) base: Vec<String>,
    /// The new side's runs, as shown.
    pub(crate) new: Vec<String>,
    /// The most tests listed per category and direction.
    pub(crate) listed: usize,
    /// Whether some list was cut to `listed`.
    pub(crate) cut: bool,
    /// The comparison, as the HTML report embeds it.
    pub(crate) data: CompareData,
}

/// What every refused or failed request answers, with its HTTP status.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Error<'a> {
    /// The document's name and version, [`ERROR`].
    pub(crate) schema: SchemaId,
    /// What went wrong.
    pub(crate) error: &'a str,
}

/// The JSON Schema of every answer, with its identifier.
#[cfg(feature = "schema")]
pub(crate) fn schemas() -> Vec<(SchemaId, serde_json::Value)> {
    use evaltally_core::schema::document_schema;
    fn one<T: schemars::JsonSchema>(id: SchemaId) -> (SchemaId, serde_json::Value) {
        (id, document_schema::<T>(id))
    }
    vec![
        one::<Summary<'static>>(SUMMARY),
        one::<Heatmap<'static>>(HEATMAP),
        one::<Tests<'static>>(TESTS),
        one::<Cell<'static>>(CELL),
        one::<Test>(TEST),
        one::<TrendPage<'static>>(TREND),
        one::<CostPage<'static>>(COST),
        one::<Compare>(COMPARE),
        one::<Error<'static>>(ERROR),
    ]
}
