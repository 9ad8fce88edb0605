#![doc = include_str!("../README.md")]

mod format;
mod samples;

use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use evaltally_format::Scoring;
use serde_json::Value;

pub use format::{LMEVAL, LmEval};
pub use samples::FIXED_KEYS;

use crate::samples::{Doc, documents};

/// The format name.
pub const FORMAT: &str = "lmeval";

/// (task, date) of a samples file name: `samples_<task>_<date>.jsonl` (lm-eval 0.4.3 and
/// later), or `samples_<task>_<date>.json` (its development versions of May and June 2024);
/// the date is what follows the last `_`.
///
/// ```
/// let p = std::path::Path::new("out/samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl");
/// assert_eq!(evaltally_lmeval::task_and_date(p), Some(("math_perturbed_full".into(), "2026-01-21T03-44-18.458309".into())));
/// let dated = std::path::Path::new("out/samples_arith_2024-05-20T10-00-00.000000.json");
/// assert_eq!(evaltally_lmeval::task_and_date(dated).unwrap().0, "arith");
/// assert_eq!(evaltally_lmeval::task_and_date(std::path::Path::new("results.jsonl")), None);
/// ```
pub fn task_and_date(path: &Path) -> Option<(String, String)> {
    let name = evaltally_format::file_name(path)?.to_str()?;
    let rest = name.strip_prefix("samples_")?;
    let rest = rest.strip_suffix(".jsonl").or_else(|| rest.strip_suffix(".json"))?;
    let (task, date) = rest.rsplit_once('_')?;
    (!task.is_empty() && !date.is_empty()).then(|| (task.to_string(), date.to_string()))
}

/// The results file lm-eval 0.4.0 to 0.4.2 wrote beside their samples files.
const OLD_RESULTS: &str = "results.json";

/// Whether a file is named as lm-eval 0.4.0 to 0.4.2 named their samples files,
/// `<model_args>_<task>.jsonl` (`model_args` with `/` and `=` as `__`; no `samples_`
/// prefix, no date): which task the name ends with only the results file beside it says
/// ([`Beside::place`]).
///
/// ```
/// use std::path::Path;
/// use evaltally_lmeval::is_model_args_name;
/// assert!(is_model_args_name(Path::new("out/pretrained__acme__acme-7b_arith.jsonl")));
/// assert!(!is_model_args_name(Path::new("out/samples_arith_2024-07-01T00-00-00.1.jsonl")));
/// assert!(!is_model_args_name(Path::new("out/results.json")));
/// ```
pub fn is_model_args_name(path: &Path) -> bool {
    evaltally_format::file_name(path)
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".jsonl"))
        .is_some_and(|stem| !stem.starts_with("samples_") && stem.contains('_'))
}

/// The task of the results document `doc` that a `<model_args>_<task>.jsonl` name ends with
/// (the longest, as task names hold `_` too: `wmdp_bio`).
fn task_in_name(path: &Path, doc: &Value) -> Option<String> {
    let stem = evaltally_format::file_name(path)?.to_str()?.strip_suffix(".jsonl")?;
    let names = ["results", "configs"].into_iter().filter_map(|k| doc.get(k)?.as_object()).flat_map(|m| m.keys());
    names
        .filter(|t| {
            stem.strip_suffix(t.as_str()).and_then(|rest| rest.strip_suffix('_')).is_some_and(|m| !m.is_empty())
        })
        .max_by_key(|t| t.len())
        .cloned()
}

/// The results file beside a samples file: `results_<date>.json`, or, when lm-eval 0.4.9
/// and later were given `--output_path <name>.json`, `<name>_<date>.json`; chosen from
/// `folder`, the names of the files found beside it (a walk's listing: nothing here lists a
/// folder). `results_<date>.json` when neither is there. For lm-eval 0.4.0 to 0.4.2's
/// `<model_args>_<task>.jsonl`, `results.json` when it is listed (or nothing else is).
///
/// ```
/// use std::path::{Path, PathBuf};
/// use evaltally_lmeval::results_file;
/// let samples = Path::new("out/m/samples_gsm8k_2026-01-01T00-00-00.1.jsonl");
/// let listed = ["samples_gsm8k_2026-01-01T00-00-00.1.jsonl", "run_2026-01-01T00-00-00.1.json"];
/// assert_eq!(results_file(samples, &listed), Some(PathBuf::from("out/m/run_2026-01-01T00-00-00.1.json")));
/// assert_eq!(results_file(samples, &[]), Some(PathBuf::from("out/m/results_2026-01-01T00-00-00.1.json")));
/// // lm-eval 0.4.0 to 0.4.2: `results.json`.
/// let old = Path::new("out/pretrained__acme__7b_arith.jsonl");
/// assert_eq!(results_file(old, &["results.json"]), Some(PathBuf::from("out/results.json")));
/// assert_eq!(results_file(old, &["pretrained__acme__7b_arith.jsonl", "notes.txt"]), None);
/// ```
pub fn results_file(path: &Path, folder: &[&str]) -> Option<PathBuf> {
    let Some((_, date)) = task_and_date(path) else {
        // lm-eval 0.4.0 to 0.4.2: `results.json`, when the folder holds one (or the file
        // was named, and no walk listed the rest of its folder).
        let name = evaltally_format::file_name(path).and_then(|n| n.to_str());
        let listed = folder.contains(&OLD_RESULTS) || folder.iter().all(|n| Some(*n) == name);
        return (is_model_args_name(path) && listed).then(|| path.with_file_name(OLD_RESULTS));
    };
    let usual = format!("results_{date}.json");
    if folder.contains(&usual.as_str()) {
        return Some(path.with_file_name(usual));
    }
    let suffix = format!("_{date}.json");
    let named = folder.iter().find(|n| n.ends_with(&suffix) && !n.starts_with("samples_"));
    Some(path.with_file_name(named.map_or(usual.as_str(), |n| n)))
}

/// A results file's document (a JSON object), or why it cannot be used.
pub(crate) type ParsedResults = Result<Value, String>;

/// The results file at `results`, read for [`Beside`]: `None` when there is none (none is
/// written without `--output_path`, and that is no problem).
pub(crate) fn parse_results(results: &Path) -> Option<ParsedResults> {
    if !results.exists() {
        return None;
    }
    Some(match evaltally_format::json::read(results) {
        Ok(doc) if doc.is_object() => Ok(doc),
        Ok(_) => Err("is no JSON object".to_string()),
        Err(d) => Err(d.message.replacen("cannot read file", "cannot be read", 1)),
    })
}

/// What the results file beside a samples file says about its run: the model and the
/// names of the task's filters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// `model_name` (lm-eval 0.4.3 and later), else the model `config.model_args` names
    /// (`pretrained=…`, `model=…`); `unknown` without either.
    pub model: String,
    /// The names of the task's filters (`configs.<task>.filter_list[].name`), in order: the
    /// k-th line of a document, in logs whose lines do not name their filter, is the k-th.
    pub filters: Vec<String>,
    /// The settings that shaped the task's prompts ([`setup`]), `None` without a results
    /// file that says them.
    pub setup: Option<String>,
    /// The task and run of a samples file whose name gives no date (lm-eval 0.4.0 to
    /// 0.4.2's `<model_args>_<task>.jsonl`, [`is_model_args_name`]): the task of the
    /// results file that the name ends with (else the whole stem), and the run named after
    /// the folder (each run wrote its own `results.json` there). `None` for other names.
    pub place: Option<(String, String)>,
    /// Why the results file found beside the samples could not be used (it could not be
    /// read, is not JSON, or is no JSON object): a warning of the run's, as the model is
    /// then `unknown`.
    pub problem: Option<Diagnostic>,
}

impl Beside {
    /// What the results file `results` says about the samples file at `path` (defaults
    /// when there is none, or it cannot be read): `results` as [`results_file`] found it.
    pub fn read(path: &Path, results: Option<&Path>) -> Self {
        let parsed = results.and_then(parse_results);
        Self::with_results(path, results.zip(parsed.as_ref()))
    }

    /// What a results file, as [`parse_results`] read it, says about the samples file at
    /// `path` ([`Beside::read`] without reading).
    pub(crate) fn with_results(path: &Path, results: Option<(&Path, &ParsedResults)>) -> Self {
        let task = task_and_date(path).map(|(t, _)| t);
        let Some((results, parsed)) = results else { return Self::from_results(None, task.as_deref()) };
        let (doc, problem) = match parsed {
            Ok(doc) => (Some(doc), None),
            Err(why) => (None, Some(why.as_str())),
        };
        let old = task.is_none() && is_model_args_name(path);
        let named = if old { doc.and_then(|d| task_in_name(path, d)) } else { None };
        let task = task.or_else(|| named.clone());
        let mut beside = Self::from_results(doc, task.as_deref());
        if old {
            let stem = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let folder = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
            beside.place = Some((task.unwrap_or(stem), folder.unwrap_or_else(|| "lm-eval".to_string())));
            if named.is_none() && doc.is_some() {
                beside.problem = Some(Diagnostic::warning(
                    results,
                    format!(
                        "lm-eval's results file names no task that `{}` ends with: its category is the file's name",
                        path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
                    ),
                ));
            }
        }
        if let Some(why) = problem {
            beside.problem = Some(Diagnostic::warning(
                results,
                format!("lm-eval's results file {why}: the samples beside it are read as model `unknown`"),
            ));
        }
        beside
    }

    /// What a parsed results document says about `task`.
    ///
    /// ```
    /// use evaltally_lmeval::Beside;
    /// let old = serde_json::json!({"config": {"model": "hf", "model_args": "pretrained=acme/7b,dtype=bfloat16"},
    ///     "configs": {"arith": {"filter_list": [{"name": "strict"}, {"name": "flexible"}]}}});
    /// let b = Beside::from_results(Some(&old), Some("arith"));
    /// assert_eq!((b.model.as_str(), b.filters.as_slice()), ("acme/7b", &["strict".to_string(), "flexible".to_string()][..]));
    /// assert_eq!(Beside::from_results(None, None).model, "unknown");
    /// ```
    pub fn from_results(doc: Option<&Value>, task: Option<&str>) -> Self {
        let Some(doc) = doc else { return Self { model: "unknown".to_string(), ..Self::default() } };
        let model = doc
            .get("model_name")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| model_in_args(doc.get("config")?.get("model_args")?))
            .unwrap_or_else(|| "unknown".to_string());
        let filters = task
            .and_then(|t| doc.get("configs")?.get(t)?.get("filter_list")?.as_array())
            .map(|list| list.iter().filter_map(|f| f.get("name")?.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let setup = task.and_then(|t| setup(doc, t));
        Self { model, filters, setup, place: None, problem: None }
    }
}

/// The settings a results document says shaped `task`'s prompts, in a few words: the
/// few-shot count (`n-shot.<task>`, else `configs.<task>.num_fewshot`), then `chat
/// template` when one was applied (`chat_template_sha`), `few-shot as turns`
/// (`fewshot_as_multiturn`) and `system prompt <sha>` (`system_instruction_sha`, 7
/// digits). `None` when the document says none of them. Runs of one task that differ in
/// these posed different prompts: lm-eval's `task_hashes` differ too.
///
/// ```
/// let doc = serde_json::json!({"n-shot": {"gsm8k": 5}, "chat_template_sha": "9f2c", "fewshot_as_multiturn": false});
/// assert_eq!(evaltally_lmeval::setup(&doc, "gsm8k").as_deref(), Some("5-shot, chat template"));
/// let old = serde_json::json!({"configs": {"arith": {"num_fewshot": 0}}});
/// assert_eq!(evaltally_lmeval::setup(&old, "arith").as_deref(), Some("0-shot"));
/// assert_eq!(evaltally_lmeval::setup(&serde_json::json!({}), "arith"), None);
/// ```
pub fn setup(doc: &Value, task: &str) -> Option<String> {
    let count = |v: &Value| v.as_u64().or_else(|| v.as_str()?.trim().parse().ok());
    let shots = doc
        .get("n-shot")
        .and_then(|n| n.get(task))
        .and_then(count)
        .or_else(|| doc.get("configs")?.get(task)?.get("num_fewshot").and_then(count));
    let text = |key: &str| doc.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let mut parts: Vec<String> = shots.map(|n| format!("{n}-shot")).into_iter().collect();
    if text("chat_template_sha").is_some() || text("chat_template").is_some() {
        parts.push("chat template".to_string());
    }
    if doc.get("fewshot_as_multiturn").and_then(Value::as_bool) == Some(true) {
        parts.push("few-shot as turns".to_string());
    }
    if let Some(sha) = text("system_instruction_sha") {
        parts.push(format!("system prompt {}", sha.get(..7).unwrap_or(sha)));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The model `model_args` names: `pretrained=` (Hugging Face), `model=` (API models) or
/// `path=`, from the `k=v,k=v` string or the object older versions wrote.
fn model_in_args(args: &Value) -> Option<String> {
    const KEYS: [&str; 3] = ["pretrained", "model", "path"];
    match args {
        Value::String(s) => {
            let pairs: Vec<(&str, &str)> = s.split(',').filter_map(|p| p.split_once('=')).collect();
            KEYS.iter().find_map(|k| pairs.iter().find(|(key, _)| key.trim() == *k).map(|(_, v)| v.trim().to_string()))
        }
        Value::Object(m) => KEYS.iter().find_map(|k| m.get(*k)?.as_str().map(str::to_string)),
        _ => None,
    }
}

/// The model the results file `results` names, when it is there and names one.
pub fn model_of(path: &Path, results: Option<&Path>) -> Option<String> {
    Some(Beside::read(path, results).model).filter(|m| m != "unknown")
}

/// What a samples file holds: its run, and what was wrong with its lines.
#[derive(Debug, Default)]
pub struct Read {
    /// The run (none when no line could be read).
    pub runs: Vec<CategoryRun>,
    /// Errors for lines left out, warnings for documents listed twice.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a samples file's bytes as a run of `model`; `scoring` picks the metric
/// (`scorer`; by default the first the lines give whose every value is 0 or 1) and the pass
/// threshold. [`read_with`] also names the filters of logs whose lines do not.
pub fn read_bytes(path: &Path, bytes: &[u8], model: &str, scoring: &Scoring) -> Read {
    let beside = Beside { model: model.to_string(), ..Beside::default() };
    read_with(path, bytes, &beside, scoring)
}

/// [`read_bytes`], with what the results file beside it says. A log that keeps each
/// repeat's score (`scores_per_repeat`, lm-eval 0.5 with `repeats` > 1) is a run per repeat,
/// named `<date>#repeat-<k>`.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::Scoring;
/// let log = br#"{"doc_id": 0, "metrics": ["exact_match"], "exact_match": 0.5, "scores_per_repeat": {"exact_match": [1.0, 0.0]}}"#;
/// let path = Path::new("samples_arith_2026-05-20T10-00-00.1.jsonl");
/// let read = evaltally_lmeval::read_bytes(path, log, "acme-7b", &Scoring::default());
/// let runs: Vec<_> = read.runs.iter().map(|r| (r.run.as_str(), r.passed())).collect();
/// assert_eq!(runs, [("2026-05-20T10-00-00.1#repeat-1", 1), ("2026-05-20T10-00-00.1#repeat-2", 0)]);
/// ```
pub fn read_with(path: &Path, bytes: &[u8], beside: &Beside, scoring: &Scoring) -> Read {
    let (runs, diagnostics) = judged(path, bytes, beside, scoring, |_, _, _, _| {});
    Read { runs, diagnostics }
}

/// The runs of a samples file (one, or one per repeat), `each` told every failure's run
/// (its index), document id, metric and value.
fn judged(
    path: &Path,
    bytes: &[u8],
    beside: &Beside,
    scoring: &Scoring,
    mut each: impl FnMut(usize, &str, &str, f64),
) -> (Vec<CategoryRun>, Vec<Diagnostic>) {
    let (task, date) = place(path, beside);
    let new_run = |name: String| {
        let mut run = CategoryRun::new(name, &beside.model, &task);
        run.sources.push(path.to_path_buf());
        run.meta = meta(beside).map(std::sync::Arc::new);
        run
    };
    let mut diagnostics: Vec<Diagnostic> = beside.problem.iter().cloned().collect();
    let docs = documents(path, bytes, &beside.filters, &mut diagnostics);
    let (metric, repeated) = match samples::repeat_metric(path, &docs, scoring, &mut diagnostics) {
        Some(metric) => (metric, true),
        None => match samples::metric(path, &docs, scoring, &mut diagnostics) {
            Some(metric) => (metric, false),
            None => return (Vec::new(), diagnostics),
        },
    };
    let label = scoring.fail_label(&metric);
    let mut runs = if repeated {
        let count = docs.iter().filter_map(|d| d.repeated(&metric)).map(<[f64]>::len).max().unwrap_or(0);
        (1..=count).map(|k| new_run(format!("{date}#repeat-{k}"))).collect()
    } else {
        vec![new_run(date.clone())]
    };
    // Documents whose metric is Python's `NaN` or `Infinity`: unscored, said once.
    let mut not_numbers: Vec<&str> = Vec::new();
    for doc in &docs {
        let single = if repeated { None } else { doc.value(&metric) };
        let scores = if repeated { doc.repeated(&metric) } else { single.as_ref().map(std::slice::from_ref) };
        let Some(scores) = scores else {
            let what = if repeated { "no per-repeat" } else { "no numeric" };
            diagnostics.push(
                Diagnostic::error(path, format!("document {}: {what} `{metric}`; left out", doc.id)).at_line(doc.line),
            );
            continue;
        };
        for (k, (&value, run)) in scores.iter().zip(runs.iter_mut()).enumerate() {
            if value.is_nan() {
                run.push(&doc.id, Outcome::Unscored, None);
                if k == 0 {
                    not_numbers.push(&doc.id);
                }
            } else if scoring.passes(value) {
                run.push(&doc.id, Outcome::Pass, None);
            } else {
                run.push(&doc.id, Outcome::Fail, Some(&label));
                each(k, &doc.id, &metric, value);
            }
        }
    }
    if let Some(first) = not_numbers.first() {
        let n = not_numbers.len();
        let documents = if n == 1 { "1 document has" } else { &format!("{n} documents have") };
        diagnostics.push(Diagnostic::warning(
            path,
            format!("{documents} `{metric}` NaN or Infinity, not a score (first: document {first}); unscored"),
        ));
    }
    runs.retain(|r| !r.is_empty());
    (runs, diagnostics)
}

/// The task and run of a samples file: from its name, else from the results file beside it
/// ([`Beside::place`]), else `lm-eval` and the file's stem.
fn place(path: &Path, beside: &Beside) -> (String, String) {
    task_and_date(path)
        .or_else(|| beside.place.clone())
        .unwrap_or_else(|| ("lm-eval".to_string(), evaltally_format::json::stem(path)))
}

/// What a run records about itself: the setup its results file gives.
fn meta(beside: &Beside) -> Option<evaltally_core::RunMeta> {
    beside.setup.as_ref().map(|s| evaltally_core::RunMeta { setup: Some(s.clone()), ..Default::default() })
}

/// The run of a samples file test by test (for `export`, `convert` and the store), as
/// [`read_with`] judges it, each failure with what its metric was and the rule it failed.
pub fn records(
    path: &Path,
    bytes: &[u8],
    beside: &Beside,
    scoring: &Scoring,
) -> (Vec<evaltally_core::RunRecord>, Vec<Diagnostic>) {
    // Per run (a repeat's index), each failure's message by document id.
    let mut messages: Vec<std::collections::HashMap<String, String>> = Vec::new();
    let (runs, diagnostics) = judged(path, bytes, beside, scoring, |k, id, metric, value| {
        if messages.len() <= k {
            messages.resize_with(k + 1, Default::default);
        }
        messages[k].insert(id.to_string(), scoring.fail_message(metric, value));
    });
    let runs = runs
        .iter()
        .enumerate()
        .map(|(k, run)| evaltally_core::RunRecord {
            run: run.run.clone(),
            model: run.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            meta: meta(beside).unwrap_or_default(),
            tests: run
                .tests()
                .map(|t| evaltally_core::TestRecord {
                    id: t.id.to_string(),
                    category: run.category.clone(),
                    outcome: Some(t.outcome),
                    error_type: t.error_type.map(|e| e.as_str().to_string()),
                    error_message: messages.get(k).and_then(|m| m.get(t.id)).cloned(),
                    ..evaltally_core::TestRecord::default()
                })
                .collect(),
            ..evaltally_core::RunRecord::default()
        })
        .collect();
    (runs, diagnostics)
}

/// Everything a samples file says about document `id` (as [`read_with`] names it), once
/// per run it is in (a run per repeat when the log keeps each repeat's score): its outcome,
/// the prompt as the question, the target as expected answer, the filtered response as the
/// answer (the repeat's own, when there is one per repeat), and the metrics as details (with
/// `scores_per_repeat`).
pub fn show(
    path: &Path,
    bytes: &[u8],
    id: &str,
    beside: &Beside,
    scoring: &Scoring,
) -> Vec<evaltally_core::TestDetail> {
    use evaltally_core::{Status, TestDetail};
    let (task, _) = place(path, beside);
    let read = read_with(path, bytes, beside, scoring);
    let tests: Vec<(usize, &str, Outcome, Option<String>)> = read
        .runs
        .iter()
        .enumerate()
        .filter_map(|(k, run)| {
            let t = run.tests().find(|t| t.id == id)?;
            Some((k, run.run.as_str(), t.outcome, t.error_type.map(|e| e.as_str().to_string())))
        })
        .collect();
    if tests.is_empty() {
        return Vec::new();
    }
    let docs = samples::full_documents(path, bytes, &beside.filters);
    let Some(doc) = docs.iter().find(|d| d.id == id) else { return Vec::new() };
    let Some(full) = doc.full.as_ref() else { return Vec::new() };
    let repeats = read.runs.len();
    tests
        .into_iter()
        .map(|(k, run, outcome, error_type)| {
            let status = if outcome == Outcome::Pass { Status::Passed } else { Status::Failed };
            let mut d = TestDetail::new(run, &beside.model, &task, id, status);
            d.error_type = error_type;
            detail(&mut d, doc, full, (repeats > 1).then_some(k));
            d
        })
        .collect()
}

/// The detail of document `doc` (`full` as parsed) in one run, `repeat` its index when the
/// runs are repeats.
fn detail(d: &mut evaltally_core::TestDetail, doc: &Doc, full: &Value, repeat: Option<usize>) {
    d.expected = full.get("target").or_else(|| full.get("truth")).cloned();
    let filtered = full.get("filtered_resps");
    // One request's responses, one per repeat: `[[r1, r2, …]]`.
    let own = repeat.and_then(|k| filtered?.as_array().filter(|a| a.len() == 1)?.first()?.as_array()?.get(k));
    d.answer = own.or(filtered).cloned();
    // The prompt the model was given: the first request's first argument (its context),
    // `arguments.gen_args_0.arg_0` from v0.4.3, `arguments[0][0]` before.
    let arguments = full.get("arguments");
    let first = arguments
        .and_then(|a| a.get("gen_args_0"))
        .and_then(|g| g.get("arg_0"))
        .or_else(|| arguments.and_then(|a| a.get(0)).and_then(|r| r.get(0)));
    if let Some(prompt) = first.and_then(Value::as_str) {
        d.question = vec![vec![evaltally_core::Message { role: "user".to_string(), content: prompt.to_string() }]];
    }
    let mut metrics: serde_json::Map<String, Value> =
        doc.metrics.iter().map(|(name, v)| (name.clone(), serde_json::json!(v))).collect();
    if let Some(per_repeat) = full.get("scores_per_repeat") {
        metrics.insert("scores_per_repeat".to_string(), per_repeat.clone());
    }
    d.error_details = Some(Value::Object(metrics));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `results.json` naming `tasks`, with `model_args`, in a folder of its own.
    fn results(dir: &Path, tasks: &[&str]) -> PathBuf {
        let results: serde_json::Map<String, Value> =
            tasks.iter().map(|t| (t.to_string(), serde_json::json!({"exact_match,none": 1.0}))).collect();
        let doc = serde_json::json!({"results": results, "config": {"model": "openai-chat-completions", "model_args": "model=gpt-3.5-turbo-0125"}});
        let path = dir.join("results.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        path
    }

    fn outcomes(runs: &[CategoryRun]) -> Vec<(String, String)> {
        runs.iter()
            .map(|r| (r.run.clone(), r.tests().map(|t| if t.outcome == Outcome::Pass { 'P' } else { 'F' }).collect()))
            .collect()
    }

    /// A metric Python's `json` wrote as `NaN` leaves its document unscored, said once per
    /// file; it does not make a 0-or-1 metric look like a score to threshold.
    #[test]
    fn a_nan_metric_is_unscored_and_said() {
        let path = Path::new("samples_arith_2026-05-20T10-00-00.1.jsonl");
        let lines = br#"{"doc_id": 0, "metrics": ["exact_match"], "exact_match": NaN}
{"doc_id": 1, "metrics": ["exact_match"], "exact_match": 1.0}
{"doc_id": 2, "metrics": ["exact_match"], "exact_match": 0.0}
{"doc_id": 3, "metrics": ["exact_match"], "exact_match": Infinity, "bypass": null}
"#;
        let read = read_bytes(path, lines, "acme-7b", &Scoring::default());
        let kinds: Vec<(&str, Outcome)> = read.runs[0].tests().map(|t| (t.id, t.outcome)).collect();
        assert_eq!(
            kinds,
            [("0", Outcome::Unscored), ("1", Outcome::Pass), ("2", Outcome::Fail), ("3", Outcome::Unscored)]
        );
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [format!(
                "{}: warning: 2 documents have `exact_match` NaN or Infinity, not a score (first: document 0); unscored",
                path.display()
            )]
        );
        // A JSON list (lm-eval 0.4.0 – 0.4.2), whose metrics are its documents' other keys.
        let path = Path::new("samples_arith_2026-05-20T10-00-00.1.json");
        let list =
            br#"[{"doc_id": 0, "acc": NaN, "doc": {"q": null}}, {"doc_id": 1, "acc": 1.0}, {"doc_id": 2, "acc": 0}]"#;
        let read = read_bytes(path, list, "acme-7b", &Scoring::default());
        let kinds: Vec<(&str, Outcome)> = read.runs[0].tests().map(|t| (t.id, t.outcome)).collect();
        assert_eq!(kinds, [("0", Outcome::Unscored), ("1", Outcome::Pass), ("2", Outcome::Fail)]);
        let said: Vec<String> = read.diagnostics.iter().map(|d| d.message.clone()).collect();
        assert_eq!(said, ["1 document has `acc` NaN or Infinity, not a score (first: document 0); unscored"]);
    }

    /// lm-eval 0.5 with `repeats` > 1: each repeat's scores (`scores_per_repeat`) are a run,
    /// where the reduced value (a mean) would be read as one run failing the document.
    #[test]
    fn each_repeat_is_a_run() {
        let path = Path::new("samples_arith_2026-05-20T10-00-00.1.jsonl");
        let lines = br#"{"doc_id": 0, "metrics": ["exact_match", "pass@1(f1)"], "exact_match": 0.5, "pass@1(f1)": 1.0, "scores_per_repeat": {"exact_match": [1.0, 0.0], "f1": [0.5, 0.25]}}
{"doc_id": 1, "metrics": ["exact_match"], "exact_match": 1.0, "scores_per_repeat": {"exact_match": [1.0, 1.0]}}
{"doc_id": 2, "metrics": ["exact_match"], "exact_match": 0.0}
"#;
        let scoring = Scoring::default();
        let read = read_bytes(path, lines, "acme-7b", &scoring);
        assert_eq!(
            outcomes(&read.runs),
            [
                ("2026-05-20T10-00-00.1#repeat-1".to_string(), "PP".to_string()),
                ("2026-05-20T10-00-00.1#repeat-2".to_string(), "FP".to_string())
            ]
        );
        // A document without its repeats is said and left out; `exact_match` is 0 or 1 in
        // every repeat, so nothing else is said.
        let said: Vec<&str> = read.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(said, ["document 2: no per-repeat `exact_match`; left out"]);
        // Each failure keeps its own repeat's value.
        let (records, _) = records(path, lines, &Beside { model: "m".into(), ..Beside::default() }, &scoring);
        let failed: Vec<(&str, Option<&str>)> = records
            .iter()
            .flat_map(|r| {
                r.tests
                    .iter()
                    .filter(|t| t.outcome == Some(Outcome::Fail))
                    .map(move |t| (r.run.as_str(), t.error_message.as_deref()))
            })
            .collect();
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].0, "2026-05-20T10-00-00.1#repeat-2");
        assert!(failed[0].1.is_some_and(|m| m.contains('0')), "{failed:?}");
        // A metric of no 0-or-1 repeats decides only with a word.
        let f1 = Scoring { scorer: Some("f1".into()), ..Scoring::default() };
        assert_eq!(outcomes(&read_bytes(path, lines, "m", &f1).runs)[0].1, "F");
        let only_f1 = br#"{"doc_id": 0, "metrics": ["f1"], "f1": 0.4, "scores_per_repeat": {"f1": [0.5, 0.25]}}"#;
        let said = read_bytes(path, only_f1, "m", &scoring).diagnostics;
        assert!(said[0].message.starts_with("no metric is 0 or 1 in every repeat of every document; `f1`"), "{said:?}");
        // `--scorer` naming a reduced metric reads the reduced values, one run.
        let reduced = Scoring { scorer: Some("pass@1(f1)".into()), ..Scoring::default() };
        assert_eq!(
            outcomes(&read_bytes(path, lines, "m", &reduced).runs),
            [("2026-05-20T10-00-00.1".to_string(), "P".to_string())]
        );
    }

    /// lm-eval 0.4.0 to 0.4.2 (PR #1668's `out/model__gpt-3.5-turbo-0125_wmdp_bio.jsonl`):
    /// the task is the longest of the results file's that the name ends with, the run the
    /// folder, the model `model_args`' `model=`.
    #[test]
    fn a_model_args_name_takes_its_task_from_the_results_file() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let results = results(&out, &["bio", "wmdp_bio", "wmdp_chem"]);
        let samples = out.join("model__gpt-3.5-turbo-0125_wmdp_bio.jsonl");
        let beside = Beside::read(&samples, Some(&results));
        assert_eq!(beside.place, Some(("wmdp_bio".to_string(), "out".to_string())));
        assert_eq!((beside.model.as_str(), beside.problem.is_none()), ("gpt-3.5-turbo-0125", true));
        // A name that ends with none of its tasks: the category is the file's name, said.
        let other = out.join("model__gpt-3.5-turbo-0125_arith.jsonl");
        let beside = Beside::read(&other, Some(&results));
        assert_eq!(beside.place, Some(("model__gpt-3.5-turbo-0125_arith".to_string(), "out".to_string())));
        let said = beside.problem.map(|d| d.message).unwrap_or_default();
        assert!(said.contains("names no task that `model__gpt-3.5-turbo-0125_arith.jsonl` ends with"), "{said}");
        // Later names keep their own task and date.
        let dated = out.join("samples_wmdp_bio_2024-07-01T00-00-00.1.jsonl");
        assert_eq!(Beside::read(&dated, Some(&results)).place, None);
    }
}
