//! τ²-bench results: one JSON document `{timestamp, info, tasks, simulations}` as
//! `tau2 run --save-to` writes it, each simulation `{id, task_id, trial, termination_reason,
//! reward_info: {reward, …}, duration, agent_cost, user_cost, messages}`; or a results
//! folder's `results.json` (`results_format="dir"`, τ²-bench 1.0.1 on), which holds in place
//! of the simulations their `simulation_index`, `{id, task_id, trial, reward,
//! termination_reason, agent_cost, duration}` each, the simulations themselves being
//! `simulations/<id>.json` beside it.

use std::collections::HashSet;
use std::path::Path;

use evaltally_core::Diagnostic;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::{Results, TaskResult};

/// The termination reasons of a simulation that did not end in an evaluable rollout: the
/// infrastructure, the agent's or the user simulator's model call, or the context window
/// failed. τ²-bench leaves the first and the last out of its own denominators; evaltally
/// counts all of them errored.
pub const ERROR_TERMINATIONS: [&str; 5] =
    ["infrastructure_error", "agent_error", "user_error", "unexpected_error", "context_window_exceeded"];

/// τ²-bench's default agent (`--agent`), the one whose runs are named by their model alone.
const DEFAULT_AGENT: &str = "llm_agent";

/// Whether the bytes are a JSON object (a τ²-bench document), not a τ-bench list.
pub(crate) fn is_document(bytes: &[u8]) -> bool {
    let b = evaltally_format::json::without_bom(bytes);
    b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'{')
}

#[derive(Deserialize)]
struct Document<'a> {
    #[serde(default)]
    info: Option<Info>,
    #[serde(borrow)]
    simulations: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    simulation_index: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct Info {
    #[serde(default)]
    agent_info: Option<Value>,
    #[serde(default)]
    environment_info: Option<Value>,
}

/// The fields of a simulation read (messages and reviews skipped), or of an entry of the
/// simulation index (`reward` in place of `reward_info`).
#[derive(Deserialize)]
struct Simulation {
    #[serde(default)]
    reward: Option<Value>,
    #[serde(default)]
    task_id: Option<Value>,
    #[serde(default)]
    trial: Option<Value>,
    #[serde(default)]
    termination_reason: Option<Value>,
    #[serde(default)]
    reward_info: Option<Value>,
    #[serde(default)]
    duration: Option<Value>,
    #[serde(default)]
    agent_cost: Option<Value>,
}

/// Reads a τ²-bench document: model `info.agent_info.llm` (`<implementation>/<llm>` for
/// another agent than `llm_agent`), category
/// `info.environment_info.domain_name`, each simulation (or entry of a results folder's
/// simulation index) a task in a trial.
pub(crate) fn results(path: &Path, bytes: &[u8], note_keys: bool) -> Result<(Results, Vec<Diagnostic>), Diagnostic> {
    let bytes = evaltally_format::json::without_bom(bytes);
    let doc: Document<'_> =
        serde_json::from_slice(bytes).map_err(|e| evaltally_format::json::error_diagnostic(path, &e))?;
    let mut diagnostics =
        if note_keys { evaltally_format::json::repeated_key_warnings(path, bytes) } else { Vec::new() };
    // A results folder's `results.json` has no `simulations`; a document has both keys when
    // it was loaded from a folder and saved whole, the index then a copy of the simulations.
    let (simulations, key) = match (doc.simulations, doc.simulation_index) {
        (Some(s), None) => (s, "simulations"),
        (Some(s), Some(_)) if !s.is_empty() => (s, "simulations"),
        (_, Some(index)) => (index, "simulation_index"),
        (None, None) => {
            return Err(Diagnostic::error(
                path,
                "expected `simulations`, the τ²-bench simulation runs, or `simulation_index`, a results folder's summary of them",
            ));
        }
    };
    let indexed = key == "simulation_index";
    let text = |v: Option<&Value>, key: &str| v.and_then(|v| v.get(key)).and_then(Value::as_str).map(str::to_string);
    let info = doc.info.as_ref();
    let agent = info.and_then(|i| i.agent_info.as_ref());
    let mut model = text(agent, "llm").unwrap_or_else(|| {
        diagnostics.push(Diagnostic::warning(path, "no `info.agent_info.llm`; the model is `unknown`"));
        "unknown".to_string()
    });
    // Another agent than the default is another system: `llm_agent_solo` works without a
    // user in solo mode, `llm_agent_gt` is given the expected actions.
    if let Some(implementation) = text(agent, "implementation").filter(|i| i != DEFAULT_AGENT) {
        model = format!("{implementation}/{model}");
    }
    let category = text(info.and_then(|i| i.environment_info.as_ref()), "domain_name").unwrap_or_else(|| {
        diagnostics
            .push(Diagnostic::warning(path, "no `info.environment_info.domain_name`; the category is `tau2-bench`"));
        "tau2-bench".to_string()
    });
    // The run of a results folder is named after the folder, its file being `results.json`.
    let name =
        indexed.then(|| path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned())).flatten();
    let mut tasks = Vec::with_capacity(simulations.len());
    let mut seen: HashSet<(u64, String)> = HashSet::new();
    for (i, raw) in simulations.iter().enumerate() {
        let left_out = |what: String| Diagnostic::error(path, format!("{key}[{i}]: {what}; left out"));
        let sim = match serde_json::from_str::<Simulation>(raw.get()) {
            Ok(sim) => sim,
            // Text serde_json refuses inside the entry (a number beyond the double range).
            Err(e) if e.classify() != serde_json::error::Category::Data => {
                let (line, column) = evaltally_format::json::place_in(bytes, raw.get().as_bytes(), &e);
                diagnostics.push(left_out(evaltally_format::json::message(&e)).at(line, column));
                continue;
            }
            Err(_) => {
                let what = if indexed { "an index entry" } else { "a simulation" };
                diagnostics.push(left_out(format!("expected {what}, an object with task_id")));
                continue;
            }
        };
        let Some(id) = sim.task_id.as_ref().and_then(crate::task_id) else {
            diagnostics.push(left_out("expected task_id, a string or an integer".to_string()));
            continue;
        };
        let trial = match &sim.trial {
            None | Some(Value::Null) => {
                diagnostics
                    .push(Diagnostic::warning(path, format!("{key}[{i}]: task {id}: no trial; read as trial 0")));
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
        // An index entry's `reward` is its simulation's `reward_info.reward`, null where
        // `reward_info` is: not evaluated.
        let (reward, expected) = if indexed {
            (sim.reward.as_ref(), "reward, a number or null")
        } else {
            (sim.reward_info.as_ref(), "reward_info.reward, a number")
        };
        let reward = match reward {
            None | Some(Value::Null) => None,
            Some(r) => {
                if let Some(x) = if indexed { r.as_f64() } else { r.get("reward").and_then(Value::as_f64) } {
                    Some(x)
                } else {
                    diagnostics.push(left_out(format!("task {id}: expected {expected}")));
                    continue;
                }
            }
        };
        if !seen.insert((trial, id.clone())) {
            diagnostics.push(Diagnostic::warning(
                path,
                format!("{key}[{i}]: task {id} again in trial {trial}; the first is kept"),
            ));
            continue;
        }
        tasks.push(TaskResult {
            trial,
            id,
            reward,
            termination: sim.termination_reason.as_ref().and_then(Value::as_str).map(str::to_string),
            info: sim.reward_info,
            error: None,
            duration: sim.duration.as_ref().and_then(Value::as_f64).filter(|d| d.is_finite() && *d >= 0.0),
            cost: sim.agent_cost.as_ref().and_then(Value::as_f64).filter(|c| c.is_finite() && *c >= 0.0),
        });
    }
    Ok((Results { model, category, name, tasks }, diagnostics))
}
