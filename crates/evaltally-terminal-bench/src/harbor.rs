//! Harbor jobs (`harbor run`, the harness of Terminal-Bench 2.0): `jobs/<job>/` holds the
//! job's `config.json` and `result.json` (its summary) and a folder per trial,
//! `<task>__<id>/`, whose `result.json` is the trial's `TrialResult`
//! (`harbor/models/trial/result.py`): `task_name`, `trial_name`, `source` (the dataset),
//! `config.agent` (`name`, `model_name`), `agent_info`, `agent_result` (tokens, cost),
//! `verifier_result.rewards` (`{"reward": 1.0}` from the task's `reward.txt`),
//! `exception_info` (`exception_type`, `exception_message`, …), `started_at`, `finished_at`.
//!
//! The trials of one job are one unit: each attempt of the job is a run (a job of one
//! attempt per task is one run named after its folder; with several, attempt `i` of each
//! task, in the order of the trials' folder names, is `<job>#attempt-<i>`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Finding, Outcome, RunRecord, Status, TestDetail, TestRecord};
use evaltally_format::check::Level;
use evaltally_format::{FileValidation, Options, Read, Records, Scratch, Shown, Unit, Validated, WalkedFile};
use serde_json::Value;

use crate::meta::{DEFAULT_CATEGORY, UNKNOWN_MODEL};

/// The name of a trial's result, and of the job's summary.
const RESULT_FILE: &str = "result.json";

/// Whether `path` is a Harbor trial's `result.json`: in a folder named `<task>__<id>`, the
/// id of letters and digits Harbor appends to the task's name.
pub(crate) fn is_trial_result(path: &Path) -> bool {
    evaltally_format::file_name(path).is_some_and(|n| n == RESULT_FILE) && trial_folder(path).is_some()
}

/// The task and the id of the trial folder holding `path`.
fn trial_folder(path: &Path) -> Option<(&str, &str)> {
    let folder = path.parent()?.file_name()?.to_str()?;
    let (task, id) = folder.rsplit_once("__")?;
    (!task.is_empty() && !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric())).then_some((task, id))
}

/// What a Harbor document that holds no trial of its own is, by its keys.
pub(crate) fn aside(has: impl Fn(&str) -> bool) -> Option<&'static str> {
    if has("n_total_trials") && has("stats") {
        return Some(
            "Harbor's job summary (its rewards and errors counted per agent and dataset); each trial is read from \
             its own `<task>__<id>/result.json`",
        );
    }
    if has("job_name") && has("agents") {
        return Some("Harbor's job configuration; the job's trials are read from their own result.json");
    }
    (has("trial_name") && has("task") && has("agent"))
        .then_some("Harbor's trial configuration; the trial is read from the result.json beside it")
}

/// The keys Harbor's `TrialResult` has (`harbor/models/trial/result.py`, to harbor 0.26),
/// and those of the parts evaltally reads.
pub(crate) const KEYS: &[Level] = &[
    Level {
        at: "$",
        known: &[
            "id",
            "task_name",
            "trial_name",
            "trial_uri",
            "task_id",
            "source",
            "task_checksum",
            "config",
            "agent_info",
            "agent_result",
            "verifier_result",
            "exception_info",
            "environment_state",
            "started_at",
            "finished_at",
            "environment_setup",
            "agent_setup",
            "agent_execution",
            "verifier",
        ],
        what: "Harbor's TrialResult",
    },
    Level {
        at: "$.verifier_result",
        known: &["rewards", "aggregate_window_start", "aggregate_window_end"],
        what: "Harbor's VerifierResult",
    },
    Level {
        at: "$.exception_info",
        known: &["exception_type", "exception_message", "exception_traceback", "occurred_at"],
        what: "Harbor's ExceptionInfo",
    },
];

/// One trial as read.
#[derive(Debug)]
struct Trial {
    task: String,
    model: String,
    category: String,
    outcome: Outcome,
    label: Option<String>,
    message: Option<String>,
    seconds: Option<f64>,
    tokens: (Option<u64>, Option<u64>),
    cost: Option<f64>,
    started_at: Option<String>,
}

/// The text at `key` of `v`.
fn text<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    v?.get(key)?.as_str().filter(|s| !s.is_empty())
}

/// Reads one trial's `result.json`.
fn trial(path: &Path, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> Result<Trial, Diagnostic> {
    let doc: Value =
        evaltally_format::json::from_slice(bytes).map_err(|e| evaltally_format::json::error_diagnostic(path, &e))?;
    if !doc.is_object() {
        return Err(Diagnostic::error(path, "expected a Harbor trial result, a JSON object with `task_name`"));
    }
    let task = match text(Some(&doc), "task_name") {
        Some(t) => t.to_string(),
        None => match trial_folder(path) {
            Some((task, _)) => {
                diagnostics
                    .push(Diagnostic::warning(path, format!("no `task_name`; the task is `{task}`, from its folder")));
                task.to_string()
            }
            None => return Err(Diagnostic::error(path, "expected `task_name`, the task the trial ran")),
        },
    };
    let agent = doc.get("config").and_then(|c| c.get("agent"));
    let info = doc.get("agent_info");
    let model_info = info.and_then(|i| i.get("model_info"));
    let agent_name = text(agent, "name").or_else(|| text(info, "name"));
    let model_name = text(agent, "model_name").map(str::to_string).or_else(|| {
        let name = text(model_info, "name")?;
        Some(text(model_info, "provider").map_or_else(|| name.to_string(), |p| format!("{p}/{name}")))
    });
    let model = match (agent_name, model_name) {
        (Some(a), Some(m)) => format!("{a}/{m}"),
        (Some(a), None) => a.to_string(),
        (None, Some(m)) => m,
        (None, None) => {
            diagnostics.push(Diagnostic::warning(path, "no `config.agent` or `agent_info`; the model is `unknown`"));
            UNKNOWN_MODEL.to_string()
        }
    };
    let category = text(Some(&doc), "source").unwrap_or(DEFAULT_CATEGORY).to_string();
    let rewards = doc.get("verifier_result").and_then(|v| v.get("rewards")).and_then(Value::as_object);
    let reward = match rewards {
        None => None,
        Some(r) => {
            let value = r.get("reward").or_else(|| if r.len() == 1 { r.values().next() } else { None });
            if let Some(v) = value {
                let Some(x) = v.as_f64() else {
                    return Err(Diagnostic::error(
                        path,
                        format!("expected `verifier_result.rewards.reward`, a number, found {v}"),
                    ));
                };
                Some(x)
            } else {
                let keys: Vec<&str> = r.keys().map(String::as_str).collect();
                diagnostics.push(Diagnostic::warning(
                    path,
                    if keys.is_empty() {
                        "`verifier_result.rewards` is empty: unscored".to_string()
                    } else {
                        format!(
                            "`verifier_result.rewards` has no `reward` and several rewards ({}): unscored",
                            keys.join(", ")
                        )
                    },
                ));
                None
            }
        }
    };
    let exception = doc.get("exception_info").filter(|e| !e.is_null());
    let kind = text(exception, "exception_type").map(str::to_string);
    let said = text(exception, "exception_message").map(|m| m.lines().next().unwrap_or_default().to_string());
    let (outcome, label, message) = match (reward, &kind) {
        (Some(r), _) if (r - 1.0).abs() <= 1e-6 => (Outcome::Pass, None, None),
        (Some(r), kind) => (
            Outcome::Fail,
            Some(kind.clone().unwrap_or_else(|| crate::UNRESOLVED.to_string())),
            Some(match &said {
                Some(m) => format!("reward = {r}, pass needs 1 ({m})"),
                None => format!("reward = {r}, pass needs 1"),
            }),
        ),
        (None, Some(kind)) => (Outcome::Errored, Some(kind.clone()), said.or_else(|| Some(kind.clone()))),
        (None, None) => (Outcome::Unscored, None, None),
    };
    let result = doc.get("agent_result");
    let count = |key: &str| result.and_then(|r| r.get(key)).and_then(Value::as_u64);
    let started_at = text(Some(&doc), "started_at").map(str::to_string);
    let finished_at = text(Some(&doc), "finished_at");
    let seconds = match (started_at.as_deref().and_then(crate::seconds), finished_at.and_then(crate::seconds)) {
        (Some(s), Some(f)) if f >= s => Some(f - s),
        _ => None,
    };
    Ok(Trial {
        task,
        model,
        category,
        outcome,
        label,
        message,
        seconds,
        tokens: (count("n_input_tokens"), count("n_output_tokens")),
        cost: result.and_then(|r| r.get("cost_usd")).and_then(Value::as_f64).filter(|c| c.is_finite() && *c >= 0.0),
        started_at,
    })
}

/// The trials of one job folder.
#[derive(Debug)]
pub(crate) struct Job {
    /// The job's folder.
    folder: PathBuf,
    /// Its trials' `result.json`, in the order of their folders' names, and what the walk saw
    /// of each.
    trials: Vec<(PathBuf, Option<std::fs::Metadata>)>,
    size: u64,
}

/// The units of Harbor trial results: one per job folder.
pub(crate) fn group(files: Vec<WalkedFile>) -> Vec<Box<dyn Unit>> {
    let mut jobs: BTreeMap<PathBuf, Job> = BTreeMap::new();
    for file in files {
        let folder = file.path.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default();
        let job = jobs.entry(folder.clone()).or_insert_with(|| Job { folder, trials: Vec::new(), size: 0 });
        job.size += file.size;
        job.trials.push((file.path, file.meta));
    }
    jobs.into_values()
        .map(|mut job| {
            job.trials.sort_by(|a, b| a.0.cmp(&b.0));
            Box::new(job) as Box<dyn Unit>
        })
        .collect()
}

/// Reads `path` into `buf`, sized by what the walk saw of it.
fn load(path: &Path, meta: Option<&std::fs::Metadata>, buf: &mut Vec<u8>) -> std::io::Result<()> {
    evaltally_format::read_file(path, meta.map_or(0, std::fs::Metadata::len), buf)
}

impl Job {
    /// The job's name: its folder's.
    fn name(&self) -> String {
        self.folder.file_name().map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
    }

    /// Every trial that could be read with its run's name, and what was said.
    fn trials(&self, scratch: &mut Scratch) -> (Vec<(String, PathBuf, Trial)>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let mut read = Vec::with_capacity(self.trials.len());
        for (path, meta) in &self.trials {
            if let Err(e) = load(path, meta.as_ref(), &mut scratch.buf) {
                diagnostics.push(Diagnostic::error(path, evaltally_format::file::cannot_read(&e)));
                continue;
            }
            match trial(path, &scratch.buf, &mut diagnostics) {
                Ok(t) => read.push((path.clone(), t)),
                Err(d) => diagnostics.push(d),
            }
        }
        // Attempt i of a task is its i-th trial (of a model), in the order of the folders'
        // names; a job that ran each task once is one run.
        let mut seen: BTreeMap<(String, String), u64> = BTreeMap::new();
        let attempts: Vec<u64> = read
            .iter()
            .map(|(_, t)| {
                let n = seen.entry((t.model.clone(), t.task.clone())).or_default();
                *n += 1;
                *n
            })
            .collect();
        let several = attempts.iter().any(|&a| a > 1);
        let name = self.name();
        let named = read
            .into_iter()
            .zip(attempts)
            .map(|((path, t), a)| (if several { format!("{name}#attempt-{a}") } else { name.clone() }, path, t))
            .collect();
        (named, diagnostics)
    }
}

impl Unit for Job {
    fn format(&self) -> &'static str {
        crate::FORMAT
    }

    fn size(&self) -> u64 {
        self.size
    }

    fn label(&self) -> String {
        self.name()
    }

    fn inputs(&self) -> Vec<PathBuf> {
        self.trials.iter().map(|(p, _)| p.clone()).collect()
    }

    /// Input `index` is trial `index` (see [`inputs`](Unit::inputs)).
    fn seen(&self, index: usize, input: &Path) -> Option<&std::fs::Metadata> {
        let (path, meta) = self.trials.get(index)?;
        if path == input { meta.as_ref() } else { None }
    }

    fn read(&self, scratch: &mut Scratch, _options: &Options) -> Read {
        let (trials, diagnostics) = self.trials(scratch);
        let mut runs: BTreeMap<(String, String, String), CategoryRun> = BTreeMap::new();
        for (run, path, t) in trials {
            let c = runs.entry((run.clone(), t.model.clone(), t.category.clone())).or_insert_with(|| {
                let mut c = CategoryRun::new(&run, &t.model, &t.category);
                c.scored = false;
                c
            });
            c.sources.push(path);
            c.push(&t.task, t.outcome, t.label.as_deref());
            c.scored |= t.outcome != Outcome::Unscored;
        }
        Read { runs: runs.into_values().collect(), diagnostics }
    }

    fn records(&self, scratch: &mut Scratch, _options: &Options) -> Records {
        let (trials, diagnostics) = self.trials(scratch);
        let mut runs: BTreeMap<(String, String), RunRecord> = BTreeMap::new();
        for (run, _, t) in trials {
            let record = runs.entry((run.clone(), t.model.clone())).or_insert_with(|| RunRecord {
                run,
                model: t.model.clone(),
                format: crate::FORMAT.to_string(),
                source: self.folder.clone(),
                ..RunRecord::default()
            });
            if record.started_at.is_none() || t.started_at < record.started_at {
                record.started_at.clone_from(&t.started_at);
            }
            record.tests.push(TestRecord {
                id: t.task,
                category: t.category,
                outcome: Some(t.outcome),
                error_type: t.label,
                error_message: t.message,
                duration_ms: t.seconds.map(evaltally_core::seconds_to_ms),
                input_tokens: t.tokens.0,
                output_tokens: t.tokens.1,
                cost_usd: t.cost,
            });
        }
        Records { runs: runs.into_values().collect(), diagnostics }
    }

    fn show(&self, scratch: &mut Scratch, test: &str, _options: &Options) -> Shown {
        let (trials, _) = self.trials(scratch);
        let details: Vec<TestDetail> = trials
            .into_iter()
            .filter(|(_, _, t)| t.task == test)
            .map(|(run, path, t)| {
                let mut d = TestDetail::new(&run, &t.model, &t.category, test, Status::from(t.outcome));
                d.error_type = t.label;
                d.error_message = t.message;
                d.latency_seconds = t.seconds;
                (d.input_tokens, d.output_tokens) = t.tokens;
                // The trial's own file, all of it the trial's.
                d.result_at = Some(evaltally_core::Location { path, line: 1 });
                d
            })
            .collect();
        Result::<_, Diagnostic>::Ok(details).into()
    }

    fn validate(&self, scratch: &mut Scratch, _options: &Options) -> Validated {
        let mut files = Vec::new();
        for (path, meta) in &self.trials {
            let findings = match load(path, meta.as_ref(), &mut scratch.buf) {
                Ok(()) => {
                    let bytes = &scratch.buf;
                    let mut said = Vec::new();
                    let mut findings = evaltally_format::json::repeated_key_findings(bytes);
                    match trial(path, bytes, &mut said) {
                        Ok(_) => findings.extend(evaltally_format::check::unknown_key_findings(bytes, KEYS)),
                        Err(d) => said.push(d),
                    }
                    findings.extend(said.into_iter().map(|d| Finding::from_diagnostic(d, "$")));
                    findings
                }
                Err(e) => vec![Finding::error("file", evaltally_format::file::cannot_read(&e))],
            };
            files.push(FileValidation::new(path, crate::FORMAT, findings));
        }
        Validated { files, diagnostics: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use evaltally_core::Outcome;

    /// (outcome, label, message) of a trial whose `verifier_result` and `exception_info` are
    /// the given JSON.
    fn verdict(verifier: &str, exception: &str) -> (Outcome, Option<String>, Option<String>) {
        let doc = format!(
            r#"{{"task_name": "t", "trial_name": "t__a1", "config": {{"agent": {{"name": "oracle"}}}},
                "verifier_result": {verifier}, "exception_info": {exception}}}"#
        );
        let mut said = Vec::new();
        let t = super::trial(Path::new("j/t__a1/result.json"), doc.as_bytes(), &mut said).unwrap();
        assert_eq!(t.model, "oracle");
        (t.outcome, t.label, t.message)
    }

    #[test]
    fn a_reward_judges_and_an_exception_without_one_is_errored() {
        let timeout = r#"{"exception_type": "AgentTimeoutError", "exception_message": "Agent timed out\nafter 900 s"}"#;
        assert_eq!(verdict(r#"{"rewards": {"reward": 1.0}}"#, "null"), (Outcome::Pass, None, None));
        assert_eq!(
            verdict(r#"{"rewards": {"reward": 0}}"#, "null"),
            (Outcome::Fail, Some("unresolved".into()), Some("reward = 0, pass needs 1".into()))
        );
        assert_eq!(
            verdict(r#"{"rewards": {"reward": 0.0}}"#, timeout),
            (
                Outcome::Fail,
                Some("AgentTimeoutError".into()),
                Some("reward = 0, pass needs 1 (Agent timed out)".into())
            )
        );
        assert_eq!(
            verdict("null", timeout),
            (Outcome::Errored, Some("AgentTimeoutError".into()), Some("Agent timed out".into()))
        );
        assert_eq!(verdict(r#"{"rewards": {"score": 1}}"#, "null").0, Outcome::Pass);
        assert_eq!(verdict(r#"{"rewards": {"a": 1, "b": 0}}"#, "null").0, Outcome::Unscored);
        assert_eq!(verdict(r#"{"rewards": null}"#, "null").0, Outcome::Unscored);
    }

    #[test]
    fn a_reward_that_is_not_a_number_is_an_error_naming_it() {
        let doc = br#"{"task_name": "t", "verifier_result": {"rewards": {"reward": "yes"}}}"#;
        let e = super::trial(Path::new("j/t__a1/result.json"), doc, &mut Vec::new()).unwrap_err();
        assert!(e.message.contains("`verifier_result.rewards.reward`, a number"), "{e}");
    }

    #[test]
    fn documents_that_hold_no_trial_are_set_aside_by_their_keys() {
        let keys = |k: &'static [&'static str]| move |key: &str| k.contains(&key);
        assert!(super::aside(keys(&["id", "n_total_trials", "stats"])).is_some_and(|w| w.contains("job summary")));
        assert!(
            super::aside(keys(&["job_name", "agents", "datasets"])).is_some_and(|w| w.contains("job configuration"))
        );
        assert!(
            super::aside(keys(&["trial_name", "task", "agent"])).is_some_and(|w| w.contains("trial configuration"))
        );
        assert_eq!(super::aside(keys(&["task_name", "trial_name"])), None);
    }
}
