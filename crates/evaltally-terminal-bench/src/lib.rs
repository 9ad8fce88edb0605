#![doc = include_str!("../README.md")]

mod fast;
mod format;
mod harbor;
mod meta;
mod time;
mod validate;
mod views;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use serde_json::Value;

pub use format::{TERMINAL_BENCH, TerminalBench};
pub use meta::{DEFAULT_CATEGORY, Identity, METADATA_FILE, UNKNOWN_MODEL};
pub use time::seconds;
pub use validate::FAILURE_MODES;
pub use views::{records, show};

/// The format name.
pub const FORMAT: &str = "terminal-bench";

/// The error label of a trial that was graded and not resolved with no failure recorded
/// (`failure_mode` `unset`).
pub const UNRESOLVED: &str = "unresolved";

/// The error label of a trial left ungraded (`is_resolved` null) with no failure recorded.
pub const UNGRADED: &str = "ungraded";

/// Attempt `i` of `n` (`tb run --n-attempts n`), as a trial's name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attempt {
    /// The attempt, from 1.
    pub i: u64,
    /// How many attempts the run made of each task.
    pub n: u64,
}

/// `<i>-of-<n>` at the start of `s`, followed by a `.` or the end.
fn attempt_at(s: &str) -> Option<Attempt> {
    let (i, rest) = s.split_once("-of-")?;
    let n_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit());
    if !digits(i) || n_len == 0 || !matches!(rest.as_bytes().get(n_len), None | Some(b'.')) {
        return None;
    }
    Some(Attempt { i: i.parse().ok()?, n: rest[..n_len].parse().ok()? })
}

/// The attempt a trial name says: `<task>.<i>-of-<n>` (tb 0.2.6 to 0.2.9),
/// `<task>.<i>-of-<n>.<run_id>` (0.2.10 and later) or `<task>.<key>.<i>-of-<n>` (0.1.0 to
/// 0.2.5, `key` the task description's, `base` by default). Read after the task id when the
/// name starts with it, else from the last `.<i>-of-<n>` followed by a `.` or the end.
///
/// ```
/// use evaltally_terminal_bench::{Attempt, attempt};
/// assert_eq!(attempt("reshard-c4-data.3-of-5", "reshard-c4-data"), Some(Attempt { i: 3, n: 5 }));
/// assert_eq!(attempt("hello-world.1-of-1.2-of-5", "hello-world"), Some(Attempt { i: 1, n: 1 }));
/// assert_eq!(attempt("hello-world.base.2-of-3", "hello-world"), Some(Attempt { i: 2, n: 3 }));
/// assert_eq!(attempt("crack-7z-hash.hard.1-of-2", "crack-7z-hash.hard"), Some(Attempt { i: 1, n: 2 }));
/// assert_eq!(attempt("renamed.4-of-5.run-1", "other"), Some(Attempt { i: 4, n: 5 }));
/// assert_eq!(attempt("hello-world", "hello-world"), None);
/// ```
pub fn attempt(trial_name: &str, task_id: &str) -> Option<Attempt> {
    if let Some(rest) = trial_name.strip_prefix(task_id).and_then(|r| r.strip_prefix('.')) {
        if let Some(a) = attempt_at(rest) {
            return Some(a);
        }
        if let Some(a) = rest.split_once('.').and_then(|(_, after)| attempt_at(after)) {
            return Some(a);
        }
    }
    trial_name.match_indices('.').rev().find_map(|(at, _)| attempt_at(&trial_name[at + 1..]))
}

/// What a trial's `failure_mode` adds when it records no failure: `unset` (the harness's
/// default, kept by every trial nothing went wrong in) and `none`.
fn no_failure(mode: Option<&str>) -> bool {
    matches!(mode, None | Some("unset" | "none" | ""))
}

/// The outcome of a trial and its error label, from `is_resolved` and `failure_mode`:
///
/// * `true` passes (even after an `agent_timeout`: the tests ran and passed);
/// * `false` fails, labelled with the failure mode (`agent_timeout`,
///   `unknown_agent_error`, …), or `unresolved` when none is recorded (`unset`);
/// * `null` is errored: the harness did not grade the trial (the tests timed out, their
///   output could not be parsed, the harness itself raised), labelled with the failure mode
///   (`test_timeout`, `parse_error`, `unknown_agent_error`), or `ungraded` when none is
///   recorded. Terminal-Bench's own `accuracy` counts these as failures, as
///   `--errors-as fail` does.
///
/// ```
/// use evaltally_core::Outcome;
/// use evaltally_terminal_bench::verdict;
/// assert_eq!(verdict(Some(true), Some("agent_timeout")), (Outcome::Pass, None));
/// assert_eq!(verdict(Some(false), Some("unset")), (Outcome::Fail, Some("unresolved")));
/// assert_eq!(verdict(Some(false), Some("agent_timeout")), (Outcome::Fail, Some("agent_timeout")));
/// assert_eq!(verdict(None, Some("test_timeout")), (Outcome::Errored, Some("test_timeout")));
/// assert_eq!(verdict(None, None), (Outcome::Errored, Some("ungraded")));
/// ```
pub fn verdict(resolved: Option<bool>, failure_mode: Option<&str>) -> (Outcome, Option<&str>) {
    let mode = failure_mode.filter(|m| !no_failure(Some(m)));
    match resolved {
        Some(true) => (Outcome::Pass, None),
        Some(false) => (Outcome::Fail, Some(mode.unwrap_or(UNRESOLVED))),
        None => (Outcome::Errored, Some(mode.unwrap_or(UNGRADED))),
    }
}

/// One trial of a run, as read for its verdict.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Trial {
    /// Its place in the file's `results` list.
    pub(crate) index: usize,
    pub(crate) task_id: String,
    pub(crate) attempt: Attempt,
    /// `is_resolved`: `None` for null.
    pub(crate) resolved: Option<bool>,
    pub(crate) failure_mode: Option<String>,
}

impl Trial {
    pub(crate) fn verdict(&self) -> (Outcome, Option<&str>) {
        verdict(self.resolved, self.failure_mode.as_deref())
    }
}

/// A results file read the tolerant way: the document and the trials that can be judged.
pub(crate) struct Parsed {
    pub(crate) doc: Value,
    pub(crate) trials: Vec<Trial>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Whether a JSON value is a `tb run` results document: an object whose `results` is a list
/// whose first element has `trial_name` and `task_id`, or an empty list beside the counts
/// `tb` computes (a run stopped before its first trial ended).
pub(crate) fn is_results_document(results: Option<&[u8]>, has_counts: bool) -> bool {
    let Some(results) = results else { return false };
    if evaltally_format::json::first_element_has(results, b"trial_name", b"task_id") {
        return true;
    }
    has_counts && serde_json::from_slice::<[Value; 0]>(results).is_ok()
}

/// The trials of a results file that can be judged, read the tolerant way: what cannot be
/// read (a trial without `task_id`, an `is_resolved` that is not `true`, `false` or `null`)
/// is an error naming the trial and is left out; a trial name that says no attempt (read
/// as attempt 1 of 1) and a trial listed twice for one attempt (the first is kept) are
/// warnings. `note_keys` adds a warning per key written twice in an object.
pub(crate) fn parse(path: &Path, bytes: &[u8], note_keys: bool) -> Result<Parsed, Diagnostic> {
    let mut diagnostics = Vec::new();
    let doc = evaltally_format::json::parse_noting_if(path, bytes, note_keys, &mut diagnostics)?;
    let Some(entries) = doc.get("results").and_then(Value::as_array) else {
        return Err(Diagnostic::error(
            path,
            "expected a Terminal-Bench results document, an object with `results`, the list of trials",
        ));
    };
    let mut trials = Vec::with_capacity(entries.len());
    let mut seen: HashSet<(String, Attempt)> = HashSet::new();
    for (index, entry) in entries.iter().enumerate() {
        let at = |what: String| format!("results[{index}]: {what}");
        let left_out = |what: String| Diagnostic::error(path, format!("results[{index}]: {what}; left out"));
        let Some(task_id) = entry.get("task_id").and_then(Value::as_str) else {
            diagnostics.push(left_out("expected a trial with `task_id`, a string".to_string()));
            continue;
        };
        let resolved = match entry.get("is_resolved") {
            Some(Value::Bool(b)) => Some(*b),
            Some(Value::Null) => None,
            other => {
                let found = other.map_or_else(|| "nothing".to_string(), |v| format!("{v:.40}"));
                diagnostics.push(left_out(format!(
                    "task {task_id}: expected `is_resolved`, true, false or null, found {found}"
                )));
                continue;
            }
        };
        let failure_mode = match entry.get("failure_mode") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                diagnostics.push(Diagnostic::warning(
                    path,
                    at(format!("task {task_id}: `failure_mode` is {other:.40}, expected a string; ignored")),
                ));
                None
            }
        };
        let name = entry.get("trial_name").and_then(Value::as_str);
        let attempt = name.and_then(|n| attempt(n, task_id)).unwrap_or_else(|| {
            let said = match name {
                Some(n) => format!("task {task_id}: the trial name `{n}` says no attempt (`.<i>-of-<n>`)"),
                None => format!("task {task_id}: no `trial_name`"),
            };
            diagnostics.push(Diagnostic::warning(path, at(format!("{said}; read as attempt 1 of 1"))));
            Attempt { i: 1, n: 1 }
        });
        if !seen.insert((task_id.to_string(), attempt)) {
            diagnostics.push(Diagnostic::warning(
                path,
                at(format!("task {task_id} again in attempt {} of {}; the first is kept", attempt.i, attempt.n)),
            ));
            continue;
        }
        trials.push(Trial { index, task_id: task_id.to_string(), attempt, resolved, failure_mode });
    }
    Ok(Parsed { doc, trials, diagnostics })
}

/// What a results file holds, as category runs (one per attempt), with what was said.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per attempt, in attempt order.
    pub runs: Vec<CategoryRun>,
    /// Warnings and errors about trials left out or read with a default, and about the
    /// metadata beside the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// The name a results file gives its runs: its stem, less the `_results` a submitter's
/// `<run_id>_results.json` adds (`results.json`, a name for any run, is named after its
/// folder, `runs/<run_id>/`, by evaltally's naming rule).
///
/// ```
/// use std::path::Path;
/// use evaltally_terminal_bench::run_stem;
/// assert_eq!(run_stem(Path::new("runs/2025-09-22__02-29-33/results.json")), "results");
/// assert_eq!(run_stem(Path::new("goose/2025-08-25__12-29-38__results.json")), "2025-08-25__12-29-38");
/// assert_eq!(run_stem(Path::new("goose/2025-08-27__22-13-13_results.json")), "2025-08-27__22-13-13");
/// ```
pub fn run_stem(path: &Path) -> String {
    let stem = evaltally_format::json::stem(path);
    for suffix in ["__results", "_results", "-results"] {
        if let Some(run) = stem.strip_suffix(suffix).filter(|r| !r.is_empty()) {
            return run.to_string();
        }
    }
    stem
}

/// The name of attempt `a` of the file with run stem `stem`: the stem itself when the file
/// holds one attempt, else `<stem>#attempt-<i>`.
pub(crate) fn run_name(stem: &str, a: Attempt, several: bool) -> String {
    if several { format!("{stem}#attempt-{}", a.i) } else { stem.to_string() }
}

/// Whether the trials hold more than one attempt of a task (`--n-attempts` above 1, or
/// several attempts found).
pub(crate) fn several_attempts(trials: &[Trial]) -> bool {
    let mut first = None;
    trials.iter().any(|t| t.attempt.n > 1 || *first.get_or_insert(t.attempt.i) != t.attempt.i)
}

/// One category run per attempt of what was read, in attempt order.
pub(crate) fn runs_of(path: &Path, identity: &Identity, trials: &[Trial]) -> Vec<CategoryRun> {
    let stem = run_stem(path);
    let several = several_attempts(trials);
    let meta = (!identity.meta.is_empty()).then(|| Arc::new(identity.meta.clone()));
    let mut runs: BTreeMap<u64, CategoryRun> = BTreeMap::new();
    for t in trials {
        let run = runs.entry(t.attempt.i).or_insert_with(|| {
            let mut c = CategoryRun::new(run_name(&stem, t.attempt, several), &identity.model, &identity.category);
            c.sources.push(path.to_path_buf());
            c.meta.clone_from(&meta);
            c
        });
        let (outcome, label) = t.verdict();
        run.push(&t.task_id, outcome, label);
    }
    runs.into_values().collect()
}

/// The run's metadata file among the files beside it (`Input::beside`).
pub(crate) fn metadata_beside(beside: &[std::path::PathBuf]) -> Option<&Path> {
    beside.iter().find(|p| p.file_name().is_some_and(|n| n == METADATA_FILE)).map(std::path::PathBuf::as_path)
}

/// Reads a results file from its bytes, with the `run_metadata.json` found beside it (the
/// model and the category come from there); `path` names the file and its runs. An error
/// when the bytes are not a results document.
pub fn read_bytes(path: &Path, bytes: &[u8], metadata: Option<&Path>) -> Result<Read, Diagnostic> {
    let (trials, mut diagnostics) = if let Some(read) = fast::trials(path, bytes) {
        read
    } else {
        let parsed = parse(path, bytes, true)?;
        (parsed.trials, parsed.diagnostics)
    };
    let identity = Identity::read(path, metadata, &mut diagnostics);
    Ok(Read { runs: runs_of(path, &identity, &trials), diagnostics })
}

/// [`read_bytes`] by the tolerant reader alone, for the fast path's tests.
#[cfg(test)]
pub(crate) fn read_tolerant(path: &Path, bytes: &[u8], metadata: Option<&Path>) -> Result<Read, Diagnostic> {
    let parsed = parse(path, bytes, true)?;
    let mut diagnostics = parsed.diagnostics;
    let identity = Identity::read(path, metadata, &mut diagnostics);
    Ok(Read { runs: runs_of(path, &identity, &parsed.trials), diagnostics })
}
