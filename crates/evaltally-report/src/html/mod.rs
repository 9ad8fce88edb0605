//! The report people look at: one self-contained HTML file.
//!
//! [`data`] gathers what the page shows, per model: the `stability` overview (stable pass,
//! flaky, stable fail, errored, pass^k, pass@k), a tests × runs heatmap (rows: flaky tests
//! first, then stable fails, stable passes; by category; columns: runs in time order, as
//! `trend` orders them) with the details of every cell that did not pass (error type, the
//! message cut short, tokens, latency), the least stable tests with their Wilson intervals,
//! the pass rate per category over time when runs are timed, and the comparison of two
//! sides when there is one. [`page`] embeds it as one JSON document in a page whose style
//! and script are inline: it loads nothing, from the network or from disk. [`markdown`]
//! summarises it for a CI job summary, with a link to the page.
//!
//! The file stays small: outcomes are one character per cell, details exist only for
//! cells that did not pass, error types and messages are stored once per model, and
//! messages are cut shorter (to 0 at worst) when the whole would pass
//! [`Options::max_bytes`]. 40 runs × 5,000 BFCL tests give about 7 MB. The heatmap is
//! drawn on a canvas, only the rows in view, so such a report scrolls smoothly.
//!
//! Every string from an input goes through [`evaltally_core::text::printable`] before it
//! enters the data, the JSON is written so it cannot end its `<script>` element
//! ([`script_json`]), and the page's script sets text with `textContent` only.
//!
//! ```
//! use evaltally_analyzer::stability;
//! use evaltally_core::{CategoryRun, Outcome};
//! use evaltally_report::html::{self, Input, Options};
//!
//! let mut a = CategoryRun::new("run-1", "m", "simple");
//! a.push("simple_0", Outcome::Pass, None);
//! a.push("simple_1", Outcome::Fail, Some("value_error:string"));
//! let mut b = CategoryRun::new("run-2", "m", "simple");
//! b.push("simple_0", Outcome::Fail, None);
//! b.push("simple_1", Outcome::Fail, None);
//! let runs = [a, b];
//! let report = stability::analyze(&runs);
//! let input = Input { stability: &report, runs: &runs, records: &[], compare: None, diagnostics: &[], inputs: &[], estimates: &[] };
//! let data = html::data(&input, &Options::default());
//! let model = &data.models[0];
//! assert_eq!((model.tests[0].id.as_str(), model.tests[0].class, model.tests[0].outcomes.as_str()), ("simple_0", "flaky", "PF"));
//! let page = html::page(&data)?;
//! assert!(page.contains(r#"<script type="application/json" id="evaltally-data">"#));
//! # Ok::<(), html::HtmlError>(())
//! ```

mod compare;
mod data;
mod details;
mod escape;
mod markdown;
mod number;
mod page;

use evaltally_analyzer::compare::CompareReport;
use evaltally_analyzer::stability::StabilityReport;
use evaltally_analyzer::subset::ModelEstimate;
use evaltally_core::{CategoryRun, Diagnostic, RunRecord};

pub use compare::{CompareCategory, CompareData, CompareModel, CompareSummary};
pub use data::{CategoryData, Counts, Data, DiagnosticsData, ModelData, RunData, TestData, TrendSeries};
pub use details::CellDetail;
pub use escape::{html_text, script_json};
pub use markdown::markdown;
pub use page::{COMMON_SCRIPT, DATA_ELEMENT_ID, page};

/// What the report is made of.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The stability of `runs`.
    pub stability: &'a StabilityReport,
    /// The runs of the heatmap.
    pub runs: &'a [CategoryRun],
    /// The same runs' records, for the details of cells (error messages, tokens, latency);
    /// cells without a record show what `runs` know (the outcome and error type). Only the
    /// tests that did not pass are looked at ([`details_of`] keeps no more).
    pub records: &'a [RunRecord],
    /// The comparison of two sides, when there is one.
    pub compare: Option<&'a CompareReport>,
    /// Problems reading the files.
    pub diagnostics: &'a [Diagnostic],
    /// The paths read, for the page's header.
    pub inputs: &'a [String],
    /// Each model's estimated full score from a subset of its tests (`report --subset`);
    /// empty without one.
    pub estimates: &'a [ModelEstimate],
}

/// Limits that keep the file small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Cut error messages in cell details to this many characters (default 300).
    pub message_chars: usize,
    /// Cut messages shorter (down to leaving them out) when the file would be larger than
    /// this many bytes (default 9,500,000).
    pub max_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self { message_chars: 300, max_bytes: 9_500_000 }
    }
}

/// Why the page could not be written.
#[derive(Debug, thiserror::Error)]
pub enum HtmlError {
    /// The data could not be serialized.
    #[error("cannot serialize the report's data: {0}")]
    Json(#[source] serde_json::Error),
}

/// What the page needs of a run's record: the tests that did not pass (the cells with
/// details), their messages cut to `message_chars` characters (and one more, so that the
/// page still marks the cut). A caller that reads many runs hands this to
/// `evaltally_analyzer::load::load_reduced`, so that only this much of the records is held.
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let mut run = RunRecord { run: "r".into(), model: "m".into(), ..Default::default() };
/// run.tests.push(TestRecord { id: "a".into(), outcome: Some(Outcome::Pass), ..Default::default() });
/// run.tests.push(TestRecord { id: "b".into(), outcome: Some(Outcome::Fail),
///     error_message: Some("x".repeat(1000)), ..Default::default() });
/// let kept = evaltally_report::html::details_of(&run, 300);
/// assert_eq!(kept.tests.len(), 1);
/// assert_eq!(kept.tests[0].error_message.as_ref().map(|m| m.chars().count()), Some(301));
/// ```
pub fn details_of(record: &RunRecord, message_chars: usize) -> RunRecord {
    let tests = record
        .tests
        .iter()
        .filter(|t| t.outcome != Some(evaltally_core::Outcome::Pass))
        .map(|t| {
            let mut t = t.clone();
            if let Some(m) = &mut t.error_message
                && let Some((at, _)) = m.char_indices().nth(message_chars + 1)
            {
                m.truncate(at);
            }
            t
        })
        .collect();
    RunRecord {
        run: record.run.clone(),
        model: record.model.clone(),
        format: record.format.clone(),
        source: record.source.clone(),
        started_at: record.started_at.clone(),
        meta: record.meta.clone(),
        costs: Vec::new(),
        tests,
    }
}

/// The page's data for `input` (see the module documentation).
pub fn data(input: &Input<'_>, options: &Options) -> Data {
    data::build(input, options)
}
