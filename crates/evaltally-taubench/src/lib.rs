#![doc = include_str!("../README.md")]

mod fast;
mod format;
mod tau2;
mod views;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use serde::Deserialize;
use serde_json::Value;

pub use format::{TAUBENCH, TauBench};
pub use tau2::ERROR_TERMINATIONS;
pub use views::{records, show};

/// The format name.
pub const FORMAT: &str = "taubench";

/// The environments τ-bench ships, which end its result file names.
const ENVIRONMENTS: [&str; 2] = ["airline", "retail"];

/// The error label of a trial whose reward is not 1.
pub const FAIL_LABEL: &str = "reward_not_1";

/// One result entry, as τ-bench writes it (the trajectory is skipped).
#[derive(Debug, Deserialize)]
struct Entry {
    task_id: Option<Value>,
    reward: Option<Value>,
    trial: Option<Value>,
}

/// One task in one trial, as read.
#[derive(Debug)]
pub(crate) struct TaskResult {
    pub(crate) trial: u64,
    pub(crate) id: String,
    /// `None`: the simulation was not evaluated (τ²'s `reward_info` is null).
    pub(crate) reward: Option<f64>,
    /// τ²'s `termination_reason`.
    pub(crate) termination: Option<String>,
    pub(crate) info: Option<Value>,
    pub(crate) duration: Option<f64>,
    pub(crate) cost: Option<f64>,
}

/// The verdict on one task in one trial: outcome, error label, message.
pub(crate) struct Verdict {
    pub(crate) outcome: Outcome,
    pub(crate) label: Option<String>,
    pub(crate) message: Option<String>,
}

impl TaskResult {
    /// A simulation that ended in an error of the harness, the user simulator or the model
    /// API errored (labelled with its termination reason); else a reward within 1e-6 of 1
    /// passes, as τ-bench counts it, and any other fails; no reward is unscored.
    pub(crate) fn verdict(&self) -> Verdict {
        if let Some(reason) = self.termination.as_deref().filter(|r| tau2::ERROR_TERMINATIONS.contains(r)) {
            return Verdict {
                outcome: Outcome::Errored,
                label: Some(reason.to_string()),
                message: Some(format!("terminated: {reason}")),
            };
        }
        match self.reward {
            None => Verdict { outcome: Outcome::Unscored, label: None, message: None },
            Some(r) if (r - 1.0).abs() <= 1e-6 => Verdict { outcome: Outcome::Pass, label: None, message: None },
            Some(r) => Verdict {
                outcome: Outcome::Fail,
                label: Some(FAIL_LABEL.to_string()),
                message: Some(match &self.termination {
                    Some(reason) => format!("reward = {r}, pass needs 1 (terminated: {reason})"),
                    None => format!("reward = {r}, pass needs 1"),
                }),
            },
        }
    }
}

/// A results file as read: who ran (model, environment) and each task in each trial.
#[derive(Debug)]
pub(crate) struct Results {
    pub(crate) model: String,
    pub(crate) category: String,
    pub(crate) tasks: Vec<TaskResult>,
}

/// The entries that can be read, each task once per trial; what is wrong goes to
/// `diagnostics`, naming the entry.
fn checked(path: &Path, entries: Vec<Value>, diagnostics: &mut Vec<Diagnostic>) -> Vec<TaskResult> {
    let mut out = Vec::with_capacity(entries.len());
    let mut seen: HashSet<(u64, String)> = HashSet::new();
    for (i, mut raw) in entries.into_iter().enumerate() {
        let warn = |what: String| Diagnostic::warning(path, format!("[{i}]: {what}"));
        let left_out = |what: String| Diagnostic::error(path, format!("[{i}]: {what}; left out"));
        let info = raw.get_mut("info").map(Value::take);
        let Ok(entry) = serde_json::from_value::<Entry>(raw) else {
            diagnostics.push(left_out("expected an object with task_id and reward".to_string()));
            continue;
        };
        let Some(id) = entry.task_id.as_ref().and_then(task_id) else {
            diagnostics.push(left_out("expected task_id, a string or an integer".to_string()));
            continue;
        };
        let Some(reward) = entry.reward.as_ref().and_then(Value::as_f64) else {
            diagnostics.push(left_out(format!("task {id}: expected reward, a number")));
            continue;
        };
        let trial = match entry.trial.as_ref() {
            None => {
                diagnostics.push(warn(format!("task {id}: no trial; read as trial 0")));
                0
            }
            Some(t) => {
                if let Some(n) = t.as_u64() {
                    n
                } else {
                    diagnostics.push(left_out(format!("task {id}: expected trial, a whole number, found {t}")));
                    continue;
                }
            }
        };
        if !seen.insert((trial, id.clone())) {
            diagnostics.push(warn(format!("task {id} again in trial {trial}; the first is kept")));
            continue;
        }
        out.push(TaskResult { trial, id, reward: Some(reward), termination: None, info, duration: None, cost: None });
    }
    out
}

/// The entries of a results file that can be read, with the file's diagnostics: a τ-bench
/// list, or a τ²-bench results document (an object with `simulations`).
pub(crate) fn trials(path: &Path, bytes: &[u8], note_keys: bool) -> Result<(Results, Vec<Diagnostic>), Diagnostic> {
    if tau2::is_document(bytes) {
        return tau2::results(path, bytes, note_keys);
    }
    let mut diagnostics = Vec::new();
    let parsed = evaltally_format::json::parse_noting_if(path, bytes, note_keys, &mut diagnostics)?;
    let Value::Array(entries) = parsed else {
        return Err(Diagnostic::error(
            path,
            "expected a list of τ-bench results or a τ²-bench document with `simulations`, found another value",
        ));
    };
    let tasks = checked(path, entries, &mut diagnostics);
    let (model, category) = identity(path);
    Ok((Results { model, category, tasks }, diagnostics))
}

/// What a file holds, as category runs (one per trial), with what was tolerated.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per trial, in trial order.
    pub runs: Vec<CategoryRun>,
    /// Warnings about entries left out or read with a default.
    pub diagnostics: Vec<Diagnostic>,
}

/// The (model, category) a file name says: `gpt-4o-airline.json` → (`gpt-4o`, `airline`).
///
/// ```
/// use std::path::Path;
/// assert_eq!(evaltally_taubench::identity(Path::new("a/claude-3-5-sonnet-retail.json")), ("claude-3-5-sonnet".into(), "retail".into()));
/// assert_eq!(evaltally_taubench::identity(Path::new("results.json")), ("unknown".into(), "tau-bench".into()));
/// ```
pub fn identity(path: &Path) -> (String, String) {
    let stem = evaltally_format::json::stem(path);
    match stem.rsplit_once('-') {
        Some((model, env)) if ENVIRONMENTS.contains(&env) && !model.is_empty() => (model.to_string(), env.to_string()),
        _ => ("unknown".to_string(), "tau-bench".to_string()),
    }
}

/// A task id as the test id: a string as written, an integer in decimal.
fn task_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// Reads a τ-bench results file from its bytes; `path` names it and gives model, category
/// and run names. An error when the bytes are not a JSON list.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Read, Diagnostic> {
    match fast::trials(path, bytes) {
        Some((results, diagnostics)) => Ok(runs_of(path, results, diagnostics)),
        None => read_entries(path, bytes, true),
    }
}

/// [`read_bytes`]; `note_keys` adds a warning per key repeated in an object (`validate`
/// reports those as errors itself).
pub(crate) fn read_entries(path: &Path, bytes: &[u8], note_keys: bool) -> Result<Read, Diagnostic> {
    let (results, diagnostics) = trials(path, bytes, note_keys)?;
    Ok(runs_of(path, results, diagnostics))
}

/// One category run per trial of what was read, in trial order.
fn runs_of(path: &Path, results: Results, diagnostics: Vec<Diagnostic>) -> Read {
    let stem = evaltally_format::json::stem(path);
    let mut trials: BTreeMap<u64, CategoryRun> = BTreeMap::new();
    for t in results.tasks {
        let run = trials.entry(t.trial).or_insert_with(|| {
            let mut c = CategoryRun::new(run_name(&stem, t.trial), &results.model, &results.category);
            c.sources.push(path.to_path_buf());
            c
        });
        let v = t.verdict();
        run.push(&t.id, v.outcome, v.label.as_deref());
    }
    let mut runs: Vec<CategoryRun> = trials.into_values().collect();
    for r in &mut runs {
        let scored = r.tests().any(|t| t.outcome != Outcome::Unscored);
        r.scored = scored;
    }
    Read { runs, diagnostics }
}

/// The run of trial `trial` of the file with stem `stem`: `<stem>#trial-<n>`.
pub(crate) fn run_name(stem: &str, trial: u64) -> String {
    format!("{stem}#trial-{trial}")
}
