#![doc = include_str!("../README.md")]

mod eval;
mod fast;
mod format;
mod views;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use evaltally_core::{CategoryRun, Diagnostic};

pub use eval::vars_key;
pub use format::{PROMPTFOO, Promptfoo};
pub use views::{records, show, validate};

/// The format name.
pub const FORMAT: &str = "promptfoo";

/// The category of an eval without a description.
pub const DEFAULT_CATEGORY: &str = "promptfoo";

/// The error label of a failure no failing assertion names.
pub const FAIL_LABEL: &str = "assertion_failed";

/// The error label of a result that errored (`failureReason` 2).
pub const ERRORED_LABEL: &str = "error";

/// What a file holds, as category runs (one per repeat and provider), with what was
/// tolerated.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per (repeat, provider), by repeat then provider.
    pub runs: Vec<CategoryRun>,
    /// Results left out (errors) and defaults taken (warnings), naming the result.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads promptfoo's output JSON from its bytes; `path` names it and gives the run names
/// (`<file stem>#repeat-<k>`). An error when the bytes are not JSON, or not an object whose
/// `results` holds a list of results.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Read, Diagnostic> {
    read_input(&evaltally_format::Input::new(path, bytes, false))
}

/// [`read_bytes`] of a file as the pipeline hands it over (its top-level members perhaps
/// already found by the sniffer): the fast path when it reads the file, else the tolerant
/// reader, which gives the same runs and says what is wrong.
pub(crate) fn read_input(file: &evaltally_format::Input<'_>) -> Result<Read, Diagnostic> {
    let path = file.path;
    let fast = if eval::is_jsonl(path) { None } else { fast::read(file) };
    let (eval, diagnostics) = match fast {
        Some(eval) => (eval, Vec::new()),
        None => eval::read(path, file.bytes, true)?,
    };
    let stem = crate::eval::stem(path);
    let meta = (!eval.meta.is_empty()).then(|| Arc::new(eval.meta.clone()));
    let mut runs: BTreeMap<(usize, &str), CategoryRun> = BTreeMap::new();
    for r in &eval.results {
        let run = runs.entry((r.repeat, r.model.as_str())).or_insert_with(|| {
            let mut c = CategoryRun::new(eval::run_name(&stem, r.repeat), &r.model, &eval.category);
            c.sources.push(path.to_path_buf());
            c.meta.clone_from(&meta);
            c
        });
        run.push(&r.id, r.verdict.outcome, r.verdict.error_type.as_deref());
    }
    Ok(Read { runs: runs.into_values().collect(), diagnostics })
}
