//! The stability report: text ([`text`]), Markdown ([`markdown`]), JSON ([`json`]), JUnit
//! XML ([`junit`]) and the per-class id files ([`id_files`]).

mod junit;
mod markdown;
mod text;

use std::collections::BTreeMap;

use evaltally_analyzer::stability::{self, CategoryStability, ModelStability, StabilityReport, TestStability};
use evaltally_core::Diagnostic;
use evaltally_core::schema::SchemaId;
use serde::Serialize;

pub use junit::junit;
pub use markdown::markdown;
pub use text::text;

use crate::{Style, plural};

/// What to render besides the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Colours for text output.
    pub style: Style,
    /// List this many least stable tests per model; `None`: the text lists up to
    /// [`SHOWN_FLAKY`], JSON and Markdown none.
    pub top_flaky: Option<usize>,
    /// Text: add pass^k and pass@k, the precision of each pass rate, and the most flaky and
    /// most stable category.
    pub detail: bool,
}

/// How many flaky tests the text lists per model by default.
pub const SHOWN_FLAKY: usize = 10;

/// The identifier of [`Document`], `evaltally.stability/1`.
pub const SCHEMA: SchemaId = SchemaId::new("stability", 1);

/// The identifier of [`TestIds`], `evaltally.test-ids/1`.
pub const TEST_IDS_SCHEMA: SchemaId = SchemaId::new("test-ids", 1);

/// The JSON document `evaltally stability --format json` prints: per model, the tests of
/// each class per category, with pass rates, pass@k, pass^k and their precision.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// Per-model stability.
    pub models: Vec<ModelDocument<'a>>,
    /// Per category two or more models judged: the benchmark's flaky tests and each model's.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub across_models: &'a BTreeMap<String, evaltally_analyzer::across::CategoryAcross>,
    /// What the reference runs said, when there were some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<&'a evaltally_analyzer::reference::Reference>,
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// One model in the JSON document: its stability, plus the least stable tests when asked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelDocument<'a> {
    /// The model's stability.
    #[serde(flatten)]
    pub stability: &'a ModelStability,
    /// The least stable tests, most unstable first (only with `--top-flaky`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top_flaky: Vec<FlakyTest<'a>>,
}

/// One entry of the least-stable list.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FlakyTest<'a> {
    /// Its category.
    pub category: &'a str,
    /// The test.
    #[serde(flatten)]
    pub test: &'a TestStability,
}

/// How many tests that errored in most runs the text and Markdown reports list per model.
const SHOWN_ERRORED: usize = 10;

/// The tests of a model that errored in most runs, by category then natural id.
fn errored_tests(model: &ModelStability) -> Vec<(&CategoryStability, &TestStability)> {
    model
        .categories
        .iter()
        .flat_map(|c| c.tests.iter().filter(|t| t.class() == stability::Class::Errored).map(move |t| (c, t)))
        .collect()
}

/// The lines under the class table that say which results judged nothing: the `errored`
/// column, then [`judged_on_fewer_runs`].
fn unjudged_legend(overall: stability::Counts) -> Vec<String> {
    let mut lines = Vec::new();
    if overall.errored > 0 {
        lines.push(
            "errored: errored in more than half of its runs (the harness or the inference failed), in no other class"
                .to_string(),
        );
    }
    lines.extend(judged_on_fewer_runs(overall, true));
    lines
}

/// The tests a class counts on fewer runs than listed them, one line per reason: those
/// judged on the runs where they did not error (the harness or the inference failed), then
/// those judged on the runs that scored them. Empty when every test was judged in every run
/// that lists it. Unless `column_said` (a line above defines the `errored` column), the
/// first line also counts the tests in it. The HTML report and `serve` show these lines
/// under their class tables.
pub(crate) fn judged_on_fewer_runs(overall: stability::Counts, column_said: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut parts = Vec::new();
    match overall.errored {
        0 => {}
        _ if column_said => {}
        1 => parts.push("1 test errored in more than half of its runs, in no other class".to_string()),
        n => parts.push(format!("{n} tests errored in more than half of their runs, in no other class")),
    }
    let judged = overall.with_errors - overall.errored;
    let (some, more) = if overall.errored > 0 { ("more ", "fewer") } else { ("", "some") };
    match judged {
        0 => {}
        1 => parts.push(format!("1 {some}test errored in {more} runs and is judged on the rest")),
        n => parts.push(format!("{n} {some}tests errored in {more} runs and are judged on the rest")),
    }
    if overall.with_errors > 0 {
        parts.push("--errors-as fail counts errors as failures".to_string());
        lines.push(parts.join("; "));
    }
    // Results that judge nothing for another reason (stderr says which and why).
    match overall.with_unscored {
        0 => {}
        1 => lines.push("1 test was not scored in some runs and is judged on the rest".to_string()),
        n => lines.push(format!("{n} tests were not scored in some runs and are judged on the rest")),
    }
    lines
}

/// How many ids a text or Markdown list of benchmark-flaky or reference-broken tests shows.
const SHOWN_IDS: usize = 20;

/// The lines that say which flaky tests are the benchmark's, across models: a summary,
/// then per category the benchmark's tests (up to [`SHOWN_IDS`]) and each model's count.
fn across_lines(report: &StabilityReport) -> Vec<String> {
    let across = &report.across_models;
    let benchmark: usize = across.values().map(|c| c.benchmark_flaky.len()).sum();
    let own: usize = across.values().flat_map(|c| c.model_flaky.values()).map(Vec::len).sum();
    let alone: usize = across.values().flat_map(|c| c.alone.values()).map(Vec::len).sum();
    // Said only when some test is the benchmark's; the JSON has every model's own.
    if benchmark == 0 {
        return Vec::new();
    }
    let are = if benchmark == 1 { "1 flaky test is".to_string() } else { format!("{benchmark} flaky tests are") };
    let unshared = match alone {
        0 => String::new(),
        n => format!(" ({n} of them run by that model alone, so not compared)"),
    };
    let mut lines = vec![format!(
        "across models: {are} the benchmark's (flaky under at least two models and at least half of those that ran \
         it), {own} a model's own{unshared}"
    )];
    for (category, c) in across {
        if c.benchmark_flaky.is_empty() && c.model_flaky.is_empty() {
            continue;
        }
        let models: Vec<String> = c
            .model_flaky
            .iter()
            .map(|(m, ids)| format!("{} {}", evaltally_core::text::printable(m), ids.len()))
            .collect();
        lines.push(format!(
            "  {}: {} the benchmark's{}{}",
            evaltally_core::text::printable(category),
            c.benchmark_flaky.len(),
            if models.is_empty() { String::new() } else { format!("; models' own: {}", models.join(", ")) },
            if c.benchmark_flaky.is_empty() { String::new() } else { format!("; {}", id_list(&c.benchmark_flaky)) }
        ));
    }
    lines
}

/// The line that says what the reference runs left out.
fn reference_line(report: &StabilityReport) -> Option<String> {
    let r = report.reference.as_ref()?;
    let broken: usize = r.broken.values().map(Vec::len).sum();
    let listed: Vec<String> =
        r.broken.iter().map(|(c, ids)| format!("{}: {}", evaltally_core::text::printable(c), id_list(ids))).collect();
    Some(format!(
        "reference runs ({}): {} fail or flip under them, the benchmark's; {} left out of the verdicts above{}",
        crate::run_list(&r.runs),
        plural(broken, "test"),
        plural(r.left_out, "test"),
        if listed.is_empty() { String::new() } else { format!(" ({})", listed.join("; ")) }
    ))
}

/// Up to [`SHOWN_IDS`] ids, shown with `printable`, and how many more.
fn id_list(ids: &[String]) -> String {
    let shown: Vec<String> =
        ids.iter().take(SHOWN_IDS).map(|i| evaltally_core::text::printable(i).into_owned()).collect();
    crate::and_more(&shown, ids.len())
}

fn top_flaky(model: &ModelStability, n: usize) -> Vec<FlakyTest<'_>> {
    stability::top_flaky(model, n).into_iter().map(|(c, test)| FlakyTest { category: &c.category, test }).collect()
}

/// Builds the JSON document.
pub fn document<'a>(report: &'a StabilityReport, diagnostics: &'a [Diagnostic], options: Options) -> Document<'a> {
    Document {
        schema: SCHEMA,
        models: report
            .models
            .iter()
            .map(|m| ModelDocument { stability: m, top_flaky: top_flaky(m, options.top_flaky.unwrap_or(0)) })
            .collect(),
        across_models: &report.across_models,
        reference: report.reference.as_ref(),
        diagnostics: crate::Listed::of(diagnostics),
    }
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(report: &StabilityReport, diagnostics: &[Diagnostic], options: Options) -> String {
    crate::pretty_json(&document(report, diagnostics, options))
}

/// [`json`]'s text, written to `out` as it is made instead of held (give a buffered
/// writer: the text is written a few bytes at a time).
///
/// ```
/// use evaltally_report::stability::{Options, json, write_json};
/// let report = evaltally_analyzer::stability::analyze(&[]);
/// let mut out = Vec::new();
/// write_json(&report, &[], Options::default(), &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), json(&report, &[], Options::default()));
/// ```
///
/// # Errors
/// What writing to `out` gave.
pub fn write_json(
    report: &StabilityReport,
    diagnostics: &[Diagnostic],
    options: Options,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    crate::json::write_pretty(&document(report, diagnostics, options), out)
}

/// One of the id files `evaltally stability --out` writes for a model
/// (`stable_tests.json`, `flaky_tests.json`, `failing_tests.json`): the ids of one class,
/// per category, and what `--known-flaky` reads back.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestIds<'a> {
    /// The document's name and version, [`TEST_IDS_SCHEMA`].
    pub schema: SchemaId,
    /// Per category, sorted by name, the ids of the class in natural order (empty lists
    /// kept).
    pub categories: BTreeMap<&'a str, &'a [String]>,
}

/// The per-class id files for one model: (file name, JSON text) for
/// `stable_tests.json`, `flaky_tests.json` and `failing_tests.json`, each a [`TestIds`]
/// document.
pub fn id_files(model: &ModelStability) -> [(&'static str, String); 3] {
    let file = |pick: fn(&CategoryStability) -> &Vec<String>| {
        let categories = model.categories.iter().map(|c| (c.category.as_str(), pick(c).as_slice())).collect();
        crate::pretty_json(&TestIds { schema: TEST_IDS_SCHEMA, categories })
    };
    [
        ("stable_tests.json", file(|c| &c.ids.stable_pass)),
        ("flaky_tests.json", file(|c| &c.ids.flaky)),
        ("failing_tests.json", file(|c| &c.ids.stable_fail)),
    ]
}

/// A rate as a percentage with one decimal, `-` when unknown.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}%", 100.0 * v))
}

/// A standard error in percentage points, `±1.2`; `-` when unknown.
fn points(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("±{:.1}", 100.0 * v))
}

/// A range of rates, `77.9–81.6%`.
fn range(r: [f64; 2]) -> String {
    format!("{:.1}–{:.1}%", 100.0 * r[0], 100.0 * r[1])
}

/// A share as a whole percentage, `-` when unknown.
fn share(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.0}%", 100.0 * v))
}

/// The cells of one precision row: mean, naive SE, clustered SE, run-noise share, the
/// expected range of one run's score, the range seen.
fn precision_cells(p: &evaltally_analyzer::precision::Precision) -> [String; 6] {
    let one = p.single_run;
    [
        pct(p.mean),
        points(p.se_naive),
        points(p.se_clustered),
        share(p.run_share),
        one.map_or_else(|| "-".to_string(), |s| range(s.expected)),
        one.map_or_else(|| "-".to_string(), |s| format!("{}{}", range(s.observed), if beyond(p) { "!" } else { "" })),
    ]
}

/// Whether the runs' scores spread beyond the range run-to-run noise gives a single run:
/// a hint that the runs differ systematically (other versions or settings), not only by
/// chance.
fn beyond(p: &evaltally_analyzer::precision::Precision) -> bool {
    p.single_run.is_some_and(|s| s.observed[0] < s.expected[0] - 1e-9 || s.observed[1] > s.expected[1] + 1e-9)
}

/// The note under a precision table when some category's runs spread too far.
fn beyond_note(model: &ModelStability) -> Option<String> {
    let far: Vec<&str> =
        model.categories.iter().filter(|c| beyond(&c.precision)).map(|c| c.category.as_str()).collect();
    (!far.is_empty()).then(|| {
        format!(
            "!: runs scored outside the range run-to-run noise explains ({}): they may differ systematically \
             (versions, settings), which the SEs and the planner do not model",
            far.iter().map(|c| evaltally_core::text::printable(c)).collect::<Vec<_>>().join(", ")
        )
    })
}

/// What the clusters of a clustered SE are, in words.
fn clusters_word(by: evaltally_analyzer::cluster::ClusterBy) -> &'static str {
    match by {
        evaltally_analyzer::cluster::ClusterBy::Test => "by test",
        evaltally_analyzer::cluster::ClusterBy::Group => "by group of tests sharing context",
    }
}

/// The BFCL overall score line, without a leading indent.
fn bfcl_line(b: &evaltally_analyzer::bfcl_score::BfclScore) -> String {
    let missing = if b.missing.is_empty() {
        String::new()
    } else {
        format!("; {} of {} scoring categories not run, counted as 0 as BFCL does", b.missing.len(), b.weights.len())
    };
    let interval = match (b.se, b.interval) {
        (Some(se), Some(i)) => format!(" ± {:.1} (95% {})", 100.0 * se, range(i)),
        _ => String::new(),
    };
    let run_se = b.run_se.map_or_else(String::new, |s| format!("; run-to-run SE {:.1} points", 100.0 * s));
    let runs = if b.runs.len() > 1 {
        let lo = b.runs.iter().map(|r| r.score).fold(f64::INFINITY, f64::min);
        let hi = b.runs.iter().map(|r| r.score).fold(f64::NEG_INFINITY, f64::max);
        format!("; runs {}", range([lo, hi]))
    } else {
        String::new()
    };
    format!("BFCL overall score (BFCL's weights{missing}): {:.1}%{interval}{run_se}{runs}", 100.0 * b.overall)
}

/// The k values shown in text and Markdown (JSON has them all).
const SHOWN_K: [usize; 3] = [1, 3, 5];

/// A pass^k / pass@k value as a percentage, or `-` when k exceeds the runs.
fn k_cell(values: &[Option<f64>], k: usize) -> String {
    match values.get(k - 1).copied().flatten() {
        Some(v) => format!("{:.1}%", 100.0 * v),
        None => "-".to_string(),
    }
}
