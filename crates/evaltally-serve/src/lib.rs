#![doc = include_str!("../README.md")]

mod api;
mod http;
mod live;
mod query;
mod server;
mod shared;
mod state;

use std::path::PathBuf;

use evaltally_analyzer::cost::{RunCost, run_cost};
use evaltally_core::{CategoryRun, Diagnostic, Outcome, RunRecord, TestDetail};

pub use server::{Config, Load, ServeError, Server, Trigger, random_token};

/// The JSON Schema of every answer of the JSON views (`/api/…`), with its identifier
/// (feature `schema`; `cargo xtask schemas` writes them into `docs/schema/`).
#[cfg(feature = "schema")]
pub fn schemas() -> Vec<(evaltally_core::schema::SchemaId, serde_json::Value)> {
    api::schemas()
}

/// Where the served runs come from: the caller's reading pipeline (folders through the
/// digest cache, a team store). The server calls it from a thread of its own, never two
/// loads at once; `show` may run beside a load.
pub trait Source: Send + Sync + 'static {
    /// Reads everything served. Called once at the start and again after each change;
    /// a caller with a digest cache reads only the files that changed.
    fn load(&self) -> Result<Input, SourceError>;

    /// Everything about test `id` in every run (what `evaltally show` prints: the prompt,
    /// the answer, the expected answer, the error, tokens and latency).
    fn show(&self, id: &str) -> Result<Shown, SourceError>;
}

/// What a [`Source`] read.
#[derive(Debug, Default)]
pub struct Input {
    /// The runs, per (run, model, category), as `evaltally_analyzer::load` gives them.
    pub runs: Vec<CategoryRun>,
    /// Per run, what the page shows beside the outcomes ([`notes_of`] each run's record);
    /// a run may come in several pieces (BFCL's file pairs), which are put together.
    pub notes: Vec<RunNotes>,
    /// Problems reading, as the commands print them.
    pub diagnostics: Vec<Diagnostic>,
    /// Folders to watch, each on its own (not what is below it): the folders the walk listed,
    /// and the folder of each file named. A change in one makes the server load again.
    pub watch: Vec<PathBuf>,
    /// How many units (a run's files, a BFCL file pair) were read from their files rather
    /// than taken from a digest cache, when the source counts them.
    pub units_read: Option<u64>,
}

/// What the page shows of one run beside its outcomes: its cost and the error messages of
/// the tests that did not pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunNotes {
    /// The run, named as its category runs are.
    pub run: String,
    /// The model.
    pub model: String,
    /// Its cost (`evaltally cost`'s figures).
    pub cost: Option<RunCost>,
    /// The messages of its tests that failed, errored or were not scored.
    pub messages: Vec<Message>,
}

/// The error message of one test in one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Message {
    /// The test's category.
    pub category: String,
    /// The test id.
    pub id: String,
    /// The message, as the file has it.
    pub text: String,
}

/// What [`Source::show`] found.
#[derive(Debug, Default)]
pub struct Shown {
    /// One entry per run that lists the test.
    pub details: Vec<TestDetail>,
    /// Problems reading.
    pub diagnostics: Vec<Diagnostic>,
    /// A line the page shows above the runs (what a source does not keep, say).
    pub note: Option<String>,
}

/// Why a [`Source`] could not load or show.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// What the page keeps of one run's record: its cost and the messages of the tests that did
/// not pass. The reduction a caller hands to `evaltally_analyzer::load::load_reduced`, so
/// that no more of the records than this stays in memory.
///
/// ```
/// use evaltally_core::{Outcome, RunRecord, TestRecord};
/// let mut run = RunRecord { run: "r".into(), model: "m".into(), ..Default::default() };
/// run.tests.push(TestRecord { id: "a".into(), category: "c".into(), outcome: Some(Outcome::Pass),
///     error_message: Some("ignored: it passed".into()), input_tokens: Some(10), ..Default::default() });
/// run.tests.push(TestRecord { id: "b".into(), category: "c".into(), outcome: Some(Outcome::Fail),
///     error_message: Some("expected 3".into()), ..Default::default() });
/// let notes = evaltally_serve::notes_of(&run);
/// assert_eq!(notes.messages.len(), 1);
/// assert_eq!(notes.messages[0].text, "expected 3");
/// assert_eq!(notes.cost.and_then(|c| c.total.input_tokens), Some(10));
/// ```
pub fn notes_of(record: &RunRecord) -> RunNotes {
    let cost = run_cost(record);
    let messages = record
        .tests
        .iter()
        .filter(|t| t.outcome != Some(Outcome::Pass))
        .filter_map(|t| {
            let text = t.error_message.as_deref().filter(|m| !m.is_empty())?;
            Some(Message { category: t.category.clone(), id: t.id.clone(), text: text.to_string() })
        })
        .collect();
    RunNotes {
        run: record.run.clone(),
        model: record.model.clone(),
        cost: (!cost.is_empty()).then_some(cost),
        messages,
    }
}
