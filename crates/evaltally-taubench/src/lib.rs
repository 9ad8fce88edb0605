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

/// Tools only one environment has (`tau_bench/envs/<env>/tools/`; both also have
/// `calculate`, `get_user_details`, `think` and `transfer_to_human_agents`), as the JSON
/// strings a results file names them by: in a task's expected `actions` and in the
/// trajectory's calls.
const ENVIRONMENT_TOOLS: [(&str, &[&str]); 2] = [
    (
        "airline",
        &[
            "\"book_reservation\"",
            "\"cancel_reservation\"",
            "\"get_reservation_details\"",
            "\"list_all_airports\"",
            "\"search_direct_flight\"",
            "\"search_onestop_flight\"",
            "\"send_certificate\"",
            "\"update_reservation_baggages\"",
            "\"update_reservation_flights\"",
            "\"update_reservation_passengers\"",
        ],
    ),
    (
        "retail",
        &[
            "\"cancel_pending_order\"",
            "\"exchange_delivered_order_items\"",
            "\"find_user_id_by_email\"",
            "\"find_user_id_by_name_zip\"",
            "\"get_order_details\"",
            "\"get_product_details\"",
            "\"list_all_product_types\"",
            "\"modify_pending_order_address\"",
            "\"modify_pending_order_items\"",
            "\"modify_pending_order_payment\"",
            "\"modify_user_address\"",
            "\"return_delivered_order_items\"",
        ],
    ),
];

/// The error label of a trial whose agent raised (τ-bench's runner writes reward 0 and the
/// exception in `info`).
pub const ERROR_LABEL: &str = "error";

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
    /// τ-bench: the exception the runner caught, from `info` (`"Error: …"`, `{error, …}`).
    pub(crate) error: Option<String>,
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
    /// A τ-bench trial whose agent raised (a model API error, a rate limit, a context
    /// overflow; τ-bench writes reward 0) errored, labelled `error`; a τ²-bench simulation
    /// that ended in an error of the harness, the user simulator or the model API errored
    /// (labelled with its termination reason); else a reward within 1e-6 of 1
    /// passes, as τ-bench counts it, and any other fails; no reward is unscored.
    pub(crate) fn verdict(&self) -> Verdict {
        if let Some(error) = &self.error {
            let first = error.lines().next().unwrap_or_default();
            return Verdict {
                outcome: Outcome::Errored,
                label: Some(ERROR_LABEL.to_string()),
                message: Some(if first.is_empty() {
                    "the agent raised".to_string()
                } else {
                    format!("the agent raised: {first}")
                }),
            };
        }
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
    /// What names the runs where the file's stem does not: a τ²-bench results folder's
    /// name, its file being `results.json`.
    pub(crate) name: Option<String>,
    pub(crate) tasks: Vec<TaskResult>,
}

impl Results {
    /// What the runs of the file at `path` are named after, `<this>#trial-<n>`.
    pub(crate) fn stem(&self, path: &Path) -> String {
        self.name.clone().unwrap_or_else(|| evaltally_format::json::stem(path))
    }
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
        let error = runner_error(info.as_ref());
        out.push(TaskResult {
            trial,
            id,
            reward: Some(reward),
            termination: None,
            info,
            error,
            duration: None,
            cost: None,
        });
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
    let (model, category) = identity_of(path, bytes);
    Ok((Results { model, category, name: None, tasks }, diagnostics))
}

/// The exception τ-bench's runner caught for a trial, from its `info`: the string
/// `"Error: <message>"` (2024-06 → 2024-09) or an object with `error` (the runner's
/// `{error, traceback}` since 2024-09, the agent's `context_length_exceeded` before).
fn runner_error(info: Option<&Value>) -> Option<String> {
    match info? {
        Value::String(s) => s.strip_prefix("Error:").map(|e| e.trim().to_string()),
        Value::Object(o) => o.get("error").filter(|e| !e.is_null()).map(|e| match e {
            Value::String(s) => s.trim().to_string(),
            other => other.to_string(),
        }),
        _ => None,
    }
}

/// The model and environment of a τ-bench list: [`identity`] of its name and, where the
/// name does not say the environment, the environment whose own tools the file names.
pub(crate) fn identity_of(path: &Path, bytes: &[u8]) -> (String, String) {
    let (model, category) = identity(path);
    if category != DEFAULT_CATEGORY {
        return (model, category);
    }
    (model, environment(bytes).unwrap_or(DEFAULT_CATEGORY).to_string())
}

/// The environment whose own tools the bytes name, when only one's are named.
///
/// ```
/// assert_eq!(evaltally_taubench::environment(br#"[{"actions": [{"name": "get_order_details"}]}]"#), Some("retail"));
/// assert_eq!(evaltally_taubench::environment(br#"[{"actions": [{"name": "book_reservation"}]}]"#), Some("airline"));
/// assert_eq!(evaltally_taubench::environment(br#"[{"actions": [{"name": "think"}]}]"#), None);
/// ```
pub fn environment(bytes: &[u8]) -> Option<&'static str> {
    let named: Vec<&'static str> = ENVIRONMENT_TOOLS
        .iter()
        .filter(|(_, tools)| tools.iter().any(|t| memchr::memmem::find(bytes, t.as_bytes()).is_some()))
        .map(|(env, _)| *env)
        .collect();
    match named[..] {
        [env] => Some(env),
        _ => None,
    }
}

/// What a file holds, as category runs (one per trial), with what was tolerated.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per trial, in trial order.
    pub runs: Vec<CategoryRun>,
    /// Warnings about entries left out or read with a default.
    pub diagnostics: Vec<Diagnostic>,
}

/// The category of a file whose environment is not known.
const DEFAULT_CATEGORY: &str = "tau-bench";

/// The (model, category) a file name says: `gpt-4o-airline.json` (`historical_trajectories/`)
/// → (`gpt-4o`, `airline`); the runner's `<agent strategy>-<model>-<temperature>_range_<start>-<end>_user…`
/// → (`<agent strategy>-<model>`, `tau-bench`), also when a `/` in the user model put the
/// name's tail in a sub-folder; else (`unknown`, `tau-bench`).
///
/// ```
/// use std::path::Path;
/// use evaltally_taubench::identity;
/// assert_eq!(identity(Path::new("a/claude-3-5-sonnet-retail.json")), ("claude-3-5-sonnet".into(), "retail".into()));
/// let run = "results/tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0101012317.json";
/// assert_eq!(identity(Path::new(run)), ("tool-calling-gpt-4o".into(), "tau-bench".into()));
/// let cut = "results/tool-calling-gpt-4o-0.0_range_0--1_user-openai/gpt-4o-mini-llm_1101130000.json";
/// assert_eq!(identity(Path::new(cut)), ("tool-calling-gpt-4o".into(), "tau-bench".into()));
/// assert_eq!(identity(Path::new("results.json")), ("unknown".into(), "tau-bench".into()));
/// ```
pub fn identity(path: &Path) -> (String, String) {
    let stem = evaltally_format::json::stem(path);
    if let Some((model, env)) = stem.rsplit_once('-').filter(|(m, e)| ENVIRONMENTS.contains(e) && !m.is_empty()) {
        return (model.to_string(), env.to_string());
    }
    let parent = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).filter(|n| n.contains("_user"));
    let model = runner_model(&stem).or_else(|| parent.and_then(runner_model)).unwrap_or("unknown");
    (model.to_string(), DEFAULT_CATEGORY.to_string())
}

/// `<agent strategy>-<model>` of a name τ-bench's runner gives: what comes before
/// `-<temperature>_range_`.
fn runner_model(name: &str) -> Option<&str> {
    let (before, _) = name.split_once("_range_")?;
    let (model, temperature) = before.rsplit_once('-')?;
    let number = !temperature.is_empty() && temperature.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    (number && !model.is_empty()).then_some(model)
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
    let stem = results.stem(path);
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use evaltally_core::Outcome;

    /// Each (task, outcome, label) of a file's first trial.
    fn verdicts(name: &str, json: &str) -> Vec<(String, Outcome, Option<String>)> {
        let read = crate::read_bytes(Path::new(name), json.as_bytes()).unwrap();
        read.runs[0].tests().map(|t| (t.id.to_string(), t.outcome, t.error_type.map(ToString::to_string))).collect()
    }

    #[test]
    fn an_exception_the_runner_caught_is_errored_and_a_zero_reward_fails() {
        let json = r#"[
            {"task_id": 0, "reward": 0.0, "info": {"error": "litellm.RateLimitError", "traceback": "…"}, "traj": [], "trial": 0},
            {"task_id": 1, "reward": 0, "info": "Error: Request timed out.", "traj": [], "trial": 0},
            {"task_id": 2, "reward": 0.0, "info": {"task": {"actions": [{"name": "get_order_details"}]}, "reward_info": {}}, "traj": [], "trial": 0},
            {"task_id": 3, "reward": 1.0, "info": {"error": null}, "traj": [], "trial": 0}
        ]"#;
        let error = Some(crate::ERROR_LABEL.to_string());
        let fail = Some(crate::FAIL_LABEL.to_string());
        assert_eq!(
            verdicts("tool-calling-acme-7b-0.0_range_0--1_user-gpt-4o-llm_1101120000.json", json),
            [
                ("0".to_string(), Outcome::Errored, error.clone()),
                ("1".to_string(), Outcome::Errored, error),
                ("2".to_string(), Outcome::Fail, fail),
                ("3".to_string(), Outcome::Pass, None),
            ]
        );
        let read = crate::read_bytes(
            Path::new("results/tool-calling-acme-7b-0.0_range_0--1_user-gpt-4o-llm_1101120000.json"),
            json.as_bytes(),
        )
        .unwrap();
        assert_eq!((read.runs[0].model.as_str(), read.runs[0].category.as_str()), ("tool-calling-acme-7b", "retail"));
        let shown = crate::show(Path::new("x.json"), json.as_bytes(), "1").unwrap();
        assert_eq!(shown[0].error_message.as_deref(), Some("the agent raised: Request timed out."));
    }

    /// A results folder's `results.json` is read from its simulation index, each entry's
    /// `reward` its simulation's, the run named after the folder; a document with both keys
    /// is read from its simulations.
    #[test]
    fn a_tau2_results_folder_is_read_from_its_simulation_index() {
        let index = r#"{"info": {"agent_info": {"llm": "acme-7b"}, "environment_info": {"domain_name": "retail"}},
            "tasks": [], "simulation_index": [
                {"id": "s0", "task_id": "0", "trial": 0, "reward": 1.0, "termination_reason": "user_stop"},
                {"id": "s1", "task_id": "1", "trial": 0, "reward": null, "termination_reason": "user_stop"},
                {"id": "s2", "task_id": "2", "trial": 0, "reward": 0.0, "termination_reason": "agent_error"},
                {"id": "s3", "task_id": "3", "trial": 0, "reward": {"reward": 1.0}},
                {"id": "s4", "task_id": "4", "trial": 0, "reward": 0.5}
            ]}"#;
        let path = Path::new("data/simulations/20260401_run/results.json");
        let read = crate::read_bytes(path, index.as_bytes()).unwrap();
        assert_eq!(read.runs[0].run, "20260401_run#trial-0");
        let said: Vec<String> = read.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(said, ["simulation_index[3]: task 3: expected reward, a number or null; left out"]);
        let outcomes: Vec<(&str, Outcome)> = read.runs[0].tests().map(|t| (t.id, t.outcome)).collect();
        assert_eq!(
            outcomes,
            [("0", Outcome::Pass), ("1", Outcome::Unscored), ("2", Outcome::Errored), ("4", Outcome::Fail)]
        );
        let both = r#"{"info": {}, "simulations": [{"task_id": "0", "trial": 0, "reward_info": {"reward": 1.0}}],
            "simulation_index": [{"id": "s0", "task_id": "0", "trial": 0, "reward": 0.0}]}"#;
        let read = crate::read_bytes(Path::new("r.json"), both.as_bytes()).unwrap();
        assert_eq!(read.runs[0].run, "r#trial-0");
        assert_eq!(read.runs[0].tests().next().map(|t| t.outcome), Some(Outcome::Pass));
        let neither = crate::read_bytes(Path::new("r.json"), br#"{"info": {}, "tasks": []}"#).unwrap_err();
        assert!(neither.message.contains("`simulation_index`"), "{neither}");
    }

    /// A simulation whose text `serde_json` refuses (a reward beyond the double range) is left
    /// out with what is wrong and where, not as a simulation without a task id.
    #[test]
    fn a_simulation_serde_json_refuses_is_placed_and_named() {
        let doc = "{\"info\": {}, \"simulations\": [\n  {\"task_id\": \"t0\", \"trial\": 0, \"reward_info\": {\"reward\": 1.0}},\n  {\"task_id\": \"t1\", \"trial\": 0, \"reward_info\": {\"reward\": 1e999}},\n  7]}";
        let read = crate::read_bytes(Path::new("r.json"), doc.as_bytes()).unwrap();
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(
            said[2..],
            [
                "r.json:3:63: error: simulations[1]: number out of range; left out",
                "r.json: error: simulations[2]: expected a simulation, an object with task_id; left out",
            ]
        );
        let ids: Vec<&str> = read.runs[0].tests().map(|t| t.id).collect();
        assert_eq!(ids, ["t0"]);
    }

    #[test]
    fn another_tau2_agent_is_another_model() {
        let doc = |implementation: &str| {
            format!(
                r#"{{"info": {{"agent_info": {{"implementation": "{implementation}", "llm": "gpt-4.1"}}, "environment_info": {{"domain_name": "telecom"}}}},
                "simulations": [{{"task_id": "t1", "trial": 0, "termination_reason": "agent_stop", "reward_info": {{"reward": 1.0}}}}]}}"#
            )
        };
        let model = |implementation: &str| {
            let read = crate::read_bytes(Path::new("r.json"), doc(implementation).as_bytes()).unwrap();
            read.runs[0].model.clone()
        };
        assert_eq!(model("llm_agent"), "gpt-4.1");
        assert_eq!(model("llm_agent_solo"), "llm_agent_solo/gpt-4.1");
        assert_eq!(model("llm_agent_gt"), "llm_agent_gt/gpt-4.1");
    }
}
