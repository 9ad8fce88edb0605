//! The results file of a run, `results/<model>/results_<date>.json`: the model's name, the
//! task's configured metrics and the digest of its examples.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A candidate results file's document (a JSON object), or why it cannot be read (naming
/// the file).
pub(crate) type Candidate = Result<Value, String>;

/// A candidate results file read: `None` when it is not there.
pub(crate) fn read_candidate(path: &Path) -> Option<Candidate> {
    match evaltally_format::file::read(path) {
        Ok(bytes) => Some(match evaltally_format::json::from_slice::<Value>(&bytes) {
            Ok(doc) if doc.is_object() => Ok(doc),
            Ok(_) => Err(format!("the results file `{}` is not a JSON object", path.display())),
            Err(e) => Err(format!(
                "the results file `{}` is not valid JSON (line {}, column {}: {})",
                path.display(),
                e.line(),
                evaltally_format::json::column(&e),
                evaltally_format::json::message(&e)
            )),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(format!("the results file `{}` cannot be read: {e}", path.display()))),
    }
}

/// Metric names in the `config_tasks` of lighteval 0.1 – 0.3, which list members of the
/// `Metrics` enum, and the key each writes into the rows (`metric_name`).
const ENUM_KEYS: [(&str, &str); 16] = [
    ("loglikelihood_acc", "acc"),
    ("loglikelihood_acc_single_token", "acc"),
    ("loglikelihood_acc_norm", "acc_norm"),
    ("loglikelihood_acc_norm_nospace", "acc_norm"),
    ("loglikelihood_acc_norm_single_token", "acc_norm"),
    ("exact_match", "em"),
    ("quasi_exact_match", "qem"),
    ("quasi_exact_match_math", "qem"),
    ("quasi_exact_match_gsm8k", "qem"),
    ("quasi_exact_match_triviaqa", "qem"),
    ("prefix_exact_match", "pem"),
    ("prefix_quasi_exact_match", "pqem"),
    ("truthfulqa_mc_metrics", "truthfulqa_mc1"),
    ("perfect_exact_match", "perfect_em"),
    ("recall_at_1", "acc"),
    ("recall_at_1_single_token", "acc"),
];

/// What a run's results file says about one of its tasks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// The file it was read from.
    pub path: PathBuf,
    /// `config_general.model_name` (else `config_general.model_config.model_name`).
    pub model: Option<String>,
    /// The key the task's first configured metric writes into the rows: the first
    /// `metric_name` of `config_tasks[<task>].metrics` (0.11 and later) or `.metric`
    /// (earlier; 0.1 – 0.3 list `Metrics` members, mapped to their keys).
    pub first_metric: Option<String>,
    /// `summary_tasks[<task>].hashes.hash_examples`: a digest of the task's examples.
    pub hash_examples: Option<String>,
    /// `config_general.lighteval_sha`, when it is not `?`.
    pub lighteval_sha: Option<String>,
    /// The task's name in the results file: the details file's, or, for a name written with
    /// `__` for `|` and `:` (an unreleased lighteval branch's file names), the name that
    /// writes so.
    pub task: Option<String>,
}

impl Results {
    /// What the results document `doc` (read from `path`) says about `task`, the task's
    /// full name as the details file names it (`community|lexam-en-idk|0`).
    ///
    /// ```
    /// use evaltally_lighteval::Results;
    /// let doc = serde_json::json!({
    ///     "config_general": {"model_name": "acme/7b", "lighteval_sha": "?"},
    ///     "config_tasks": {"custom|aime24": {"metric": [{"metric_name": "extractive_match"}]}},
    ///     "summary_tasks": {"custom|aime24|0": {"hashes": {"hash_examples": "ddec8fc79d0a014b"}}}
    /// });
    /// let r = Results::from_value("results_x.json".as_ref(), &doc, "custom|aime24|0");
    /// assert_eq!(r.model.as_deref(), Some("acme/7b"));
    /// assert_eq!(r.first_metric.as_deref(), Some("extractive_match"));
    /// assert_eq!(r.hash_examples.as_deref(), Some("ddec8fc79d0a014b"));
    /// assert_eq!(r.lighteval_sha, None);
    /// ```
    pub fn from_value(path: &Path, doc: &Value, task: &str) -> Self {
        let known =
            |name: &str| ["summary_tasks", "results"].iter().any(|k| doc.get(*k).and_then(|m| m.get(name)).is_some());
        let named = if known(task) {
            Some(task.to_string())
        } else {
            ["summary_tasks", "results"]
                .iter()
                .filter_map(|k| doc.get(*k).and_then(Value::as_object))
                .flat_map(|m| m.keys())
                .find(|k| k.replace(['|', ':'], "__") == task)
                .cloned()
        };
        let task = named.as_deref().unwrap_or(task);
        let general = doc.get("config_general");
        let text = |v: Option<&Value>| v.and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string);
        let model = text(general.and_then(|g| g.get("model_name")))
            .or_else(|| text(general.and_then(|g| g.get("model_config")).and_then(|c| c.get("model_name"))));
        let tasks = doc.get("config_tasks");
        // 0.11 and later key the config by the full name; earlier versions without the
        // few-shot count.
        let config = tasks
            .and_then(|t| t.get(task))
            .or_else(|| task.rsplit_once('|').and_then(|(short, _)| tasks.and_then(|t| t.get(short))));
        let first_metric = config
            .and_then(|c| c.get("metrics").or_else(|| c.get("metric")))
            .and_then(Value::as_array)
            .and_then(|list| list.iter().find_map(metric_key));
        let hash_examples = text(
            doc.get("summary_tasks")
                .and_then(|s| s.get(task))
                .and_then(|t| t.get("hashes"))
                .and_then(|h| h.get("hash_examples")),
        );
        let lighteval_sha = text(general.and_then(|g| g.get("lighteval_sha"))).filter(|s| s != "?");
        Self { path: path.to_path_buf(), model, first_metric, hash_examples, lighteval_sha, task: named }
    }

    /// Reads the first of `candidates` that is there: `Ok(None)` when none is, an error
    /// message (naming the file) when the first that is there cannot be read as JSON.
    pub fn find(candidates: &[PathBuf], task: &str) -> Result<Option<Self>, String> {
        Self::find_with(candidates, task, |path| std::sync::Arc::new(read_candidate(path)))
    }

    /// [`Results::find`], each candidate as `read` gives it ([`read_candidate`], or what a
    /// worker already made of it).
    pub(crate) fn find_with(
        candidates: &[PathBuf],
        task: &str,
        read: impl Fn(&Path) -> std::sync::Arc<Option<Candidate>>,
    ) -> Result<Option<Self>, String> {
        for path in candidates {
            match read(path).as_ref() {
                None => {}
                Some(Ok(doc)) => return Ok(Some(Self::from_value(path, doc, task))),
                Some(Err(why)) => return Err(why.clone()),
            }
        }
        Ok(None)
    }
}

/// The row key of one entry of a task's metric list: its `metric_name` (the first, when it
/// is a list of grouped metrics), or a `Metrics` member's key (0.1 – 0.3).
fn metric_key(entry: &Value) -> Option<String> {
    match entry {
        Value::Object(m) => match m.get("metric_name")? {
            Value::String(s) => Some(s.clone()),
            Value::Array(names) => names.first()?.as_str().map(str::to_string),
            _ => None,
        },
        Value::String(s) => Some(
            ENUM_KEYS.iter().find(|(member, _)| member == s).map_or_else(|| s.clone(), |(_, key)| (*key).to_string()),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_metrics_and_enum_members() {
        let v011 = serde_json::json!({"config_general": {"model_config": {"model_name": "openrouter/openai/gpt-5"}},
            "config_tasks": {"community|lexam-en-idk|0": {"metrics": [{"metric_name": ["trad_score", "idk_score"]}]}}});
        let r = Results::from_value(Path::new("r.json"), &v011, "community|lexam-en-idk|0");
        assert_eq!(
            (r.model.as_deref(), r.first_metric.as_deref()),
            (Some("openrouter/openai/gpt-5"), Some("trad_score"))
        );
        let v01 = serde_json::json!({"config_tasks": {"lighteval|arc:challenge": {"metric": ["loglikelihood_acc", "loglikelihood_acc_norm_nospace"]}}});
        let r = Results::from_value(Path::new("r.json"), &v01, "lighteval|arc:challenge|25");
        assert_eq!(r.first_metric.as_deref(), Some("acc"));
        let none = Results::from_value(Path::new("r.json"), &serde_json::json!({}), "t|0");
        assert_eq!(none, Results { path: "r.json".into(), ..Results::default() });
        let sanitised =
            serde_json::json!({"summary_tasks": {"community|quiz:x|0": {"hashes": {"hash_examples": "ab"}}}});
        let r = Results::from_value(Path::new("r.json"), &sanitised, "community__quiz__x__0");
        assert_eq!((r.task.as_deref(), r.hash_examples.as_deref()), (Some("community|quiz:x|0"), Some("ab")));
    }
}
