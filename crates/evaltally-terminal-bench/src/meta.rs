//! `run_metadata.json`, which `tb run` writes beside its `results.json`: who ran (agent and
//! model), on which dataset, and when. The results file itself names none of them.

use std::path::Path;

use evaltally_core::{Diagnostic, RunMeta};
use serde_json::Value;

/// The name of the metadata file beside a run's `results.json`.
pub const METADATA_FILE: &str = "run_metadata.json";

/// The model when nothing names it.
pub const UNKNOWN_MODEL: &str = "unknown";

/// The category when nothing names the dataset.
pub const DEFAULT_CATEGORY: &str = "terminal-bench";

/// Who ran a results file, on what, and when, as its `run_metadata.json` says.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    /// The model as evaltally names it: `<agent_name>/<model_name>`; the agent alone when
    /// `model_name` is null (an agent run without `--model`); `unknown` without metadata.
    pub model: String,
    /// `agent_name`.
    pub agent: Option<String>,
    /// `model_name`.
    pub model_name: Option<String>,
    /// The dataset: `<dataset_name>@<dataset_version>`, else the last part of
    /// `dataset_path`, else `terminal-bench`.
    pub category: String,
    /// `run_id`.
    pub run_id: Option<String>,
    /// When it started (`start_time`), the commit of the folder `tb` ran in
    /// (`commit_hash`), and how long it ran (`end_time` − `start_time`).
    pub meta: RunMeta,
}

impl Default for Identity {
    fn default() -> Self {
        Self {
            model: UNKNOWN_MODEL.to_string(),
            agent: None,
            model_name: None,
            category: DEFAULT_CATEGORY.to_string(),
            run_id: None,
            meta: RunMeta::default(),
        }
    }
}

/// A string field that says something (not null, not empty).
fn text(doc: &Value, key: &str) -> Option<String> {
    doc.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)
}

/// The last part of a dataset's path (`/home/me/datasets/usaco/` → `usaco`), whatever the
/// separator of the machine that wrote it.
fn last_part(path: &str) -> Option<String> {
    path.split(['/', '\\']).rev().find(|p| !p.is_empty()).map(str::to_string)
}

impl Identity {
    /// What a parsed `run_metadata.json` says, with a sentence for each thing it leaves to
    /// a default.
    ///
    /// ```
    /// use evaltally_terminal_bench::Identity;
    /// let doc = serde_json::json!({"agent_name": "terminus", "model_name": "anthropic/claude-sonnet-4-20250514",
    ///     "dataset_name": "terminal-bench-core", "dataset_version": "0.1.1"});
    /// let (id, said) = Identity::from_metadata(&doc);
    /// assert_eq!((id.model.as_str(), id.category.as_str()), ("terminus/anthropic/claude-sonnet-4-20250514", "terminal-bench-core@0.1.1"));
    /// assert!(said.is_empty());
    /// let custom = serde_json::json!({"agent_name": "Factory Droid", "model_name": null, "dataset_path": "/data/usaco/"});
    /// let (id, said) = Identity::from_metadata(&custom);
    /// assert_eq!((id.model.as_str(), id.category.as_str()), ("Factory Droid", "usaco"));
    /// assert_eq!(said.len(), 1);
    /// ```
    pub fn from_metadata(doc: &Value) -> (Self, Vec<String>) {
        Self::from_metadata_in(doc, None)
    }

    /// [`from_metadata`](Self::from_metadata) of a run found at `place`: the name of the
    /// folder that holds the run, and the run's own folder's (none for a results file
    /// renamed `<run_id>_results.json`, which is its run). A run that records no model is
    /// named after its agent and the folder that tells its setup apart, as one agent's
    /// submissions of several models would otherwise be read as repeats: the folder above
    /// the run's (a leaderboard submission, an experiment: `Factory Droid
    /// (20250924_droid_gpt-5)`), or the run's own when the folder above names the dataset
    /// (it is the category, or `<name>@<version>`: a submission of one run of several
    /// attempts); none in `runs`, `tb run`'s default.
    ///
    /// ```
    /// use evaltally_terminal_bench::Identity;
    /// let doc = serde_json::json!({"agent_name": "Factory Droid", "model_name": null, "dataset_name": "core"});
    /// let (id, said) = Identity::from_metadata_in(&doc, Some(("20250924_droid_gpt-5", Some("tb_rc2_g5_1"))));
    /// assert_eq!(id.model, "Factory Droid (20250924_droid_gpt-5)");
    /// assert!(said[0].ends_with("named after its agent and the folder of its runs, `Factory Droid (20250924_droid_gpt-5)`"));
    /// let (id, _) = Identity::from_metadata_in(&doc, Some(("core", Some("20250902_orchestrator_qwen"))));
    /// assert_eq!(id.model, "Factory Droid (20250902_orchestrator_qwen)");
    /// let (id, _) = Identity::from_metadata_in(&doc, Some(("runs", Some("2026-01-01__10-00-00"))));
    /// assert_eq!(id.model, "Factory Droid");
    /// ```
    pub fn from_metadata_in(doc: &Value, place: Option<(&str, Option<&str>)>) -> (Self, Vec<String>) {
        let mut said = Vec::new();
        if !doc.is_object() {
            said.push(format!(
                "{METADATA_FILE} beside it is not a JSON object: the model is `{UNKNOWN_MODEL}` and the category \
                 `{DEFAULT_CATEGORY}`"
            ));
            return (Self::default(), said);
        }
        let category = match (text(doc, "dataset_name"), text(doc, "dataset_version")) {
            (Some(name), Some(version)) => format!("{name}@{version}"),
            (Some(name), None) => name,
            (None, _) => text(doc, "dataset_path").as_deref().and_then(last_part).unwrap_or_else(|| {
                said.push(format!(
                    "{METADATA_FILE} names no dataset (`dataset_name`, `dataset_path`): the category is \
                     `{DEFAULT_CATEGORY}`"
                ));
                DEFAULT_CATEGORY.to_string()
            }),
        };
        // The folder that tells a run without a model apart (see above).
        let same = |a: &str, b: &str| a.replace(':', "@").eq_ignore_ascii_case(&b.replace(':', "@"));
        let folder = place.and_then(|(above, own)| {
            if above.eq_ignore_ascii_case("runs") {
                None
            } else if same(above, &category)
                || above.rsplit_once(['@', ':']).is_some_and(|(_, v)| v.starts_with(|c: char| c.is_ascii_digit()))
            {
                // A dataset's folder (`terminal-bench-core@0.1.1`): the run's own tells it
                // apart, if it has one.
                own
            } else {
                Some(above)
            }
        });
        let agent = text(doc, "agent_name");
        let model_name = text(doc, "model_name");
        let model = match (&agent, &model_name) {
            (Some(a), Some(m)) => format!("{a}/{m}"),
            (Some(a), None) => {
                let (model, how) = match folder {
                    Some(f) => (format!("{a} ({f})"), "its agent and the folder of its runs"),
                    None => (a.clone(), "its agent"),
                };
                said.push(format!(
                    "`model_name` is null in {METADATA_FILE} (an agent run without --model): the model is named \
                     after {how}, `{model}`"
                ));
                model
            }
            (None, Some(m)) => {
                said.push(format!("{METADATA_FILE} names no `agent_name`: the model is `{m}`"));
                m.clone()
            }
            (None, None) => {
                let model = folder.map_or_else(|| UNKNOWN_MODEL.to_string(), |f| format!("{UNKNOWN_MODEL} ({f})"));
                said.push(format!(
                    "{METADATA_FILE} names neither `agent_name` nor `model_name`: the model is `{model}`"
                ));
                model
            }
        };
        let start = text(doc, "start_time");
        let meta = RunMeta {
            duration_seconds: crate::time::between(start.as_deref(), text(doc, "end_time").as_deref()),
            timestamp: start,
            git_sha: text(doc, "commit_hash").filter(|c| c != "unknown"),
            ..RunMeta::default()
        };
        (Self { model, agent, model_name, category, run_id: text(doc, "run_id"), meta }, said)
    }

    /// What the metadata file `beside` (as the walk found it beside the results file at
    /// `path`) says; each default taken is a warning on `path`. No file beside it: model
    /// `unknown` with the folder that tells the run apart (see
    /// [`from_metadata_in`](Self::from_metadata_in)), category `terminal-bench`.
    pub fn read(path: &Path, beside: Option<&Path>, diagnostics: &mut Vec<Diagnostic>) -> Self {
        // The folder that holds the run and the run's own (`<above>/<run_id>/results.json`).
        fn name(p: Option<&Path>) -> Option<&str> {
            p.and_then(Path::file_name).and_then(|n| n.to_str()).filter(|n| !n.is_empty())
        }
        // A renamed `<run_id>_results.json` is its run: its folder holds the runs.
        let renamed = path.file_name().is_some_and(|n| n != "results.json");
        let own = path.parent();
        let place = if renamed {
            name(own).map(|folder| (folder, None))
        } else {
            name(own.and_then(Path::parent)).map(|above| (above, name(own)))
        };
        // Without metadata: model `unknown`, told apart by its folder as a run without a
        // model is, and the default category; `why` said.
        let mut fallback = |why: String| {
            let (identity, _) = Self::from_metadata_in(&serde_json::json!({}), place);
            diagnostics.push(Diagnostic::warning(
                path,
                format!("{why}: the model is `{}` and the category `{}`", identity.model, identity.category),
            ));
            identity
        };
        let Some(beside) = beside else { return fallback(format!("no {METADATA_FILE} beside it")) };
        let doc = match evaltally_format::file::read(beside) {
            Ok(bytes) => {
                evaltally_format::json::from_slice::<Value>(&bytes).map_err(|e| evaltally_format::json::message(&e))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return fallback(format!("no {METADATA_FILE} beside it"));
            }
            Err(e) => Err(e.to_string()),
        };
        match doc {
            Ok(doc) => {
                let (identity, said) = Self::from_metadata_in(&doc, place);
                diagnostics.extend(said.into_iter().map(|s| Diagnostic::warning(path, s)));
                identity
            }
            Err(e) => fallback(format!("{METADATA_FILE} beside it cannot be read ({e})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_said() {
        let (id, said) = Identity::from_metadata(&serde_json::json!({}));
        assert_eq!(id, Identity::default());
        assert_eq!(said.len(), 2, "{said:?}");
        let (id, said) = Identity::from_metadata(&serde_json::json!({"model_name": "m", "dataset_name": "d"}));
        assert_eq!((id.model.as_str(), id.category.as_str(), said.len()), ("m", "d", 1));
        let (_, said) = Identity::from_metadata(&serde_json::json!([1]));
        assert_eq!(said.len(), 1);
    }

    #[test]
    fn the_run_says_when_and_on_which_commit() {
        let (id, _) = Identity::from_metadata(&serde_json::json!({"agent_name": "oracle", "model_name": "Oracle",
            "dataset_path": "C:\\data\\lcb\\tasks", "start_time": "2025-09-06T18:59:06.5+00:00",
            "end_time": "2025-09-06T19:00:07+00:00", "commit_hash": "unknown", "run_id": "r1"}));
        assert_eq!(
            (id.model.as_str(), id.category.as_str(), id.run_id.as_deref()),
            ("oracle/Oracle", "tasks", Some("r1"))
        );
        assert_eq!(id.meta.duration_seconds, Some(60.5));
        assert_eq!(id.meta.git_sha, None);
    }
}
