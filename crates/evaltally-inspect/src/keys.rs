//! The keys `inspect_ai` writes, for `validate`'s look for those it never writes: the reader
//! tallies each document or member as it reads it ([`crate::log::Reader`]).

use evaltally_format::check::Level;

/// The keys `inspect_ai` writes where evaltally reads, every version to 0.3.285
/// (`src/inspect_ai/log/_log.py` and the models it uses, fields marked `exclude` left
/// out). An archive's members sit where a `.json` log holds the same objects: `header.json`
/// and `_journal/start.json` at `$`, each `samples/*.json` at `$.samples[*]`,
/// `summaries.json` and `_journal/summaries/*.json` at `$.summaries[*]`. Configs, metadata,
/// messages, events and scorers' own values are not checked.
pub(crate) const KEYS: &[Level] = &[
    Level {
        at: "$",
        known: &[
            "plan",
            "stats",
            "eval",
            "status",
            "error",
            "results",
            "samples",
            "version",
            "logging",
            "reductions",
            "invalidated",
            "log_updates",
            "metadata",
            "tags",
            "config_updates",
        ],
        what: "inspect_ai's EvalLog",
    },
    Level {
        at: "$.eval",
        known: &[
            "created",
            "dataset",
            "run_id",
            "task_id",
            "task_attribs",
            "model_args",
            "packages",
            "metadata",
            "task_args",
            "task",
            "task_file",
            "task_version",
            "model",
            "config",
            "revision",
            "model_base_url",
            "tool_environment",
            "sandbox",
            "plan_args",
            "plan",
            "solver",
            "solver_args",
            "tags",
            "scorers",
            "metrics",
            "task_registry_name",
            "model_generate_config",
            "model_roles",
            "eval_id",
            "task_args_passed",
            "task_display_name",
            "eval_set_id",
            "solver_args_passed",
            "viewer",
            "task_description",
            "headline_metric",
            "shards",
        ],
        what: "inspect_ai's EvalSpec",
    },
    Level { at: "$.eval.revision", known: &["type", "origin", "commit", "dirty"], what: "inspect_ai's EvalRevision" },
    Level {
        at: "$.eval.scorers[*]",
        known: &["metadata", "params", "name", "options", "metrics"],
        what: "inspect_ai's EvalScorer",
    },
    Level {
        at: "$.results",
        known: &[
            "metrics",
            "metadata",
            "scorer",
            "scores",
            "sample_reductions",
            "total_samples",
            "completed_samples",
            "early_stopping",
            "logged_samples",
            "headline",
        ],
        what: "inspect_ai's EvalResults",
    },
    Level {
        at: "$.results.scores[*]",
        known: &["metrics", "metadata", "params", "scorer", "name", "reducer", "scored_samples", "unscored_samples"],
        what: "inspect_ai's EvalScore",
    },
    Level {
        at: "$.stats",
        known: &["model_usage", "completed_at", "started_at", "role_usage", "connection_limit_history"],
        what: "inspect_ai's EvalStats",
    },
    Level { at: "$.stats.model_usage.*", known: MODEL_USAGE, what: "inspect_ai's ModelUsage" },
    Level {
        at: "$.samples[*]",
        known: &[
            "id",
            "messages",
            "epoch",
            "input",
            "metadata",
            "choices",
            "score",
            "output",
            "target",
            "scores",
            "transcript",
            "store",
            "error",
            "files",
            "setup",
            "sandbox",
            "model_usage",
            "attachments",
            "events",
            "limit",
            "uuid",
            "total_time",
            "working_time",
            "error_retries",
            "started_at",
            "completed_at",
            "invalidation",
            "timelines",
            "role_usage",
            "call_pool",
            "message_pool",
            "events_data",
            "model_fallbacks",
            "token_limit",
            "turn_count",
            "token_limit_type",
            "token_limit_usage",
            "description",
            "message_limit",
            "time_limit",
        ],
        what: "inspect_ai's EvalSample",
    },
    Level { at: "$.samples[*].scores.*", known: SCORE, what: "inspect_ai's Score" },
    Level { at: "$.samples[*].model_usage.*", known: MODEL_USAGE, what: "inspect_ai's ModelUsage" },
    Level {
        at: "$.summaries[*]",
        known: &[
            "input",
            "scores",
            "id",
            "target",
            "epoch",
            "error",
            "limit",
            "metadata",
            "model_usage",
            "uuid",
            "completed",
            "total_time",
            "retries",
            "working_time",
            "message_count",
            "started_at",
            "completed_at",
            "choices",
            "role_usage",
            "model_fallbacks",
            "token_limit",
            "token_limit_type",
            "turn_count",
            "token_limit_usage",
            "description",
            "limit_reason",
            "message_limit",
            "time_limit",
        ],
        what: "inspect_ai's EvalSampleSummary",
    },
    Level { at: "$.summaries[*].scores.*", known: SCORE, what: "inspect_ai's Score" },
];

/// `Score`'s keys (`reason` since 0.3.28x).
const SCORE: &[&str] = &["value", "explanation", "metadata", "answer", "history", "reason"];

/// `ModelUsage`'s keys.
const MODEL_USAGE: &[&str] = &[
    "total_tokens",
    "input_tokens",
    "output_tokens",
    "input_tokens_cache_write",
    "input_tokens_cache_read",
    "reasoning_tokens",
    "total_cost",
];

#[cfg(test)]
mod tests {
    use evaltally_core::Finding;
    use serde_json::Value;

    /// What `validate` says of the keys of the log `bytes`.
    fn unknown(path: &std::path::Path, bytes: &[u8]) -> Vec<Finding> {
        crate::checked(path, bytes, true).map(|(_, _, unknown)| unknown).unwrap_or_default()
    }

    /// `testdata/inspect/arith.eval` with `extra` added to the sample members whose name
    /// `marked` says, and to the header.
    fn marked(marked: impl Fn(&str) -> bool) -> Vec<u8> {
        crate::arith_rewritten(|name, bytes| {
            if name == "header.json" || name.starts_with("samples/") && marked(name) {
                let mut doc: Value = serde_json::from_slice(bytes).unwrap();
                doc["extra"] = Value::Bool(true);
                *bytes = serde_json::to_vec(&doc).unwrap();
            }
        })
    }

    #[test]
    fn an_archive_s_members_are_checked_where_a_json_log_holds_them() {
        let path = std::path::Path::new("arith.eval");
        let clean = std::fs::read(evaltally_testkit::testdata("inspect/arith.eval")).unwrap();
        assert!(unknown(path, &clean).is_empty());
        let shown: Vec<String> =
            unknown(path, &marked(|n| n.contains("add-1"))).iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "$.extra: warning: unknown key: not a field of inspect_ai's EvalLog",
                "$.samples[*].extra: warning: unknown key: not a field of inspect_ai's EvalSample (3 of 12 have it)",
            ]
        );
    }

    #[test]
    fn a_json_log_s_samples_and_scores_are_checked() {
        let path = evaltally_testkit::testdata("inspect/arith-later.json");
        let mut doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert!(unknown(&path, &serde_json::to_vec(&doc).unwrap()).is_empty());
        for s in doc["samples"].as_array_mut().unwrap() {
            s["scores"]["match"]["confidence"] = Value::from(0.5);
        }
        let shown: Vec<String> =
            unknown(&path, &serde_json::to_vec(&doc).unwrap()).iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "$.samples[*].scores.*.confidence: warning: unknown key: not a field of inspect_ai's Score (8 of 16 have it)"
            ]
        );
    }
}
