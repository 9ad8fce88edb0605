//! τ-bench as a format of the reading pipeline: a `*.json` list whose first entry has
//! `task_id` and `reward`, or a τ²-bench document with `info` and `simulations`.

use std::path::Path;

use evaltally_format::check::Level;
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use evaltally_core::{Diagnostic, Finding};

use crate::{read_bytes, read_entries};

/// τ-bench results files.
#[derive(Debug, Clone, Copy, Default)]
pub struct TauBench;

/// The one value of [`TauBench`], for the registry.
pub static TAUBENCH: TauBench = TauBench;

/// The keys the writers give, every version: τ-bench's `EnvRunResult` (`tau_bench/types.py`;
/// `records` in the avaljotsingh fork) and its `info` (the environment's `EnvInfo`, the
/// agents' `error` and `usage`, v1's `r_actions`, `gt_data_hash`, `r_outputs`, `outputs`, and
/// `{error, traceback}` of a trial whose agent raised); τ²-bench's `Results` and what it reads
/// of them (`src/tau2/data_model/simulation.py`, to `agent_usage` of 2026-08). Trajectories,
/// messages, checks, tasks and the user's side are not checked.
const KEYS: &[Level] = &[
    Level {
        at: "$[*]",
        known: &["task_id", "reward", "info", "traj", "trial", "records"],
        what: "τ-bench's EnvRunResult",
    },
    Level {
        at: "$[*].info",
        known: &[
            "task",
            "source",
            "user_cost",
            "reward_info",
            "error",
            "traceback",
            "r_actions",
            "gt_data_hash",
            "r_outputs",
            "outputs",
            "usage",
        ],
        what: "the info of τ-bench's EnvRunResult",
    },
    Level {
        at: "$",
        known: &["timestamp", "info", "tasks", "simulations", "simulation_index"],
        what: "τ²-bench's Results",
    },
    Level {
        at: "$.info",
        known: &[
            "git_commit",
            "num_trials",
            "max_steps",
            "max_errors",
            "user_info",
            "agent_info",
            "environment_info",
            "seed",
            "text_streaming_config",
            "speech_complexity",
            "audio_native_config",
            "retrieval_config",
            "retrieval_config_kwargs",
        ],
        what: "τ²-bench's Info",
    },
    Level {
        at: "$.info.agent_info",
        known: &["implementation", "llm", "llm_args", "voice_settings"],
        what: "τ²-bench's AgentInfo",
    },
    Level {
        at: "$.info.environment_info",
        known: &["domain_name", "policy", "tool_defs"],
        what: "τ²-bench's EnvironmentInfo",
    },
    Level {
        at: "$.simulations[*]",
        known: &[
            "id",
            "task_id",
            "timestamp",
            "start_time",
            "end_time",
            "duration",
            "termination_reason",
            "agent_cost",
            "user_cost",
            "agent_usage",
            "reward_info",
            "messages",
            "ticks",
            "trial",
            "seed",
            "mode",
            "speech_environment",
            "review",
            "user_only_review",
            "info",
            "auth_classification",
            "hallucination_retries_used",
            "hallucination_check",
            "provider_session_id",
            "policy",
            "effect_timeline",
        ],
        what: "τ²-bench's SimulationRun",
    },
    Level {
        at: "$.simulation_index[*]",
        known: &["id", "task_id", "trial", "reward", "termination_reason", "agent_cost", "duration"],
        what: "τ²-bench's SimulationIndexEntry",
    },
    Level {
        at: "$.simulations[*].reward_info",
        known: &[
            "reward",
            "db_check",
            "env_assertions",
            "action_checks",
            "nl_assertions",
            "communicate_checks",
            "reward_basis",
            "reward_breakdown",
            "info",
        ],
        what: "τ²-bench's RewardInfo",
    },
];

impl Format for TauBench {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["tau-bench", "tau"]
    }

    fn describe(&self) -> &'static str {
        "  τ-bench results (a list of {task_id, reward, info, trial}) and τ²-bench results ({info, simulations}, or a results folder's results.json with simulation_index); each trial is a run"
    }

    fn noun(&self) -> &'static str {
        "τ-bench results"
    }

    fn claim(&self, path: &Path) -> Claim {
        if evaltally_format::json::is_json_path(path) { Claim::Sniff } else { Claim::No }
    }

    /// A τ-bench list, or a τ²-bench document: an object with `info` and `simulations` (a
    /// list), or, a results folder's `results.json`, `simulation_index` (looked at with the
    /// pipeline's scanner, nothing built).
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        let list = |key: &str| file.json(key).is_some_and(|s| s.starts_with(b"["));
        evaltally_format::json::first_element_has(file.bytes, b"task_id", b"reward")
            || ((list("simulations") || list("simulation_index")) && file.has("info"))
    }

    /// A simulation of a τ²-bench results folder, `simulations/<id>.json`: its outcome is
    /// read from the simulation index of the folder's `results.json`.
    fn aside(&self, file: &Input<'_>) -> Option<String> {
        let in_simulations = file.path.parent().and_then(Path::file_name).is_some_and(|n| n == "simulations");
        (in_simulations && ["task_id", "trial", "termination_reason"].iter().all(|k| file.has(k))).then(|| {
            "τ²-bench's simulation of a results folder; its outcome is read from the `simulation_index` of the \
             results.json above it"
                .to_string()
        })
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        read_bytes(file.path, file.bytes).map(|read| (read.runs, read.diagnostics)).into()
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        crate::records(file.path, file.bytes).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        crate::show(file.path, file.bytes, test).into()
    }

    /// What the reader refused or tolerated, and every key repeated in an object (errors).
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let finding = |d: Diagnostic| Finding::from_diagnostic(d, "$");
        let mut findings = evaltally_format::json::repeated_key_findings(file.bytes);
        match read_entries(file.path, file.bytes, false) {
            Ok(read) => {
                findings.extend(read.diagnostics.into_iter().map(finding));
                findings.extend(evaltally_format::check::unknown_key_findings(file.bytes, KEYS));
            }
            Err(d) => findings = vec![finding(d)],
        }
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}
