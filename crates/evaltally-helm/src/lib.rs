#![doc = include_str!("../README.md")]

mod fast;
mod format;
mod views;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use serde_json::{Map, Value};

pub use format::{HELM, Helm};
pub use views::{records, show};

/// The format name.
pub const FORMAT: &str = "helm";

/// The file HELM writes its per-instance stats to, which this format claims by name.
pub const STATS_FILE: &str = "per_instance_stats.json";

/// The file beside it that names the model and the scenario.
pub const RUN_SPEC_FILE: &str = "run_spec.json";

/// The metrics that judge an instance, in the order they are looked for.
pub const METRICS: [&str; 2] = ["exact_match", "quasi_exact_match"];

/// The model when no run spec names one.
pub const UNKNOWN_MODEL: &str = "unknown";

/// The category when neither the run spec nor the folder name gives one.
pub const DEFAULT_CATEGORY: &str = "helm";

/// What a run spec says about the runs of a stats file: the model and the category.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    /// `adapter_spec.model`.
    pub model: String,
    /// The run spec's name without its model arguments ([`category_of`]).
    pub category: String,
}

impl RunSpec {
    /// The model and category `run_spec.json`'s bytes give; an error message (without the
    /// file's name) when the document is not JSON or lacks `name` or `adapter_spec.model`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let fallback = Self { model: UNKNOWN_MODEL.to_string(), category: DEFAULT_CATEGORY.to_string() };
        match Self::read(bytes, &fallback)? {
            (spec, lacks) if lacks.is_empty() => Ok(spec),
            (_, mut lacks) => Err(lacks.swap_remove(0).0),
        }
    }

    /// The run spec in `bytes`, with what it lacks (what was expected, and what is used
    /// instead: `fallback`'s value).
    fn read(bytes: &[u8], fallback: &Self) -> Result<(Self, Vec<(String, String)>), String> {
        let doc: Value = evaltally_format::json::from_slice(bytes).map_err(|e| {
            format!(
                "not valid JSON at line {}, column {}: {}",
                e.line(),
                evaltally_format::json::column(&e),
                evaltally_format::json::message(&e)
            )
        })?;
        let mut lacks = Vec::new();
        let category = if let Some(name) = doc.get("name").and_then(Value::as_str) {
            category_of(name)
        } else {
            let instead = format!("the category is read as `{}` (from the folder name)", fallback.category);
            lacks.push(("expected `name`, a string".to_string(), instead));
            fallback.category.clone()
        };
        let model =
            doc.get("adapter_spec").and_then(|a| a.get("model")).and_then(Value::as_str).filter(|m| !m.is_empty());
        let model = if let Some(model) = model {
            model.to_string()
        } else {
            let instead = format!("the model is read as `{}`", fallback.model);
            lacks.push(("expected `adapter_spec.model`, a string".to_string(), instead));
            fallback.model.clone()
        };
        Ok((Self { model, category }, lacks))
    }

    /// What is used without a run spec: model `unknown`, the category from the run folder's
    /// name (HELM names the folder after the run spec).
    pub fn fallback(stats: &Path) -> Self {
        let folder = run_folder(stats);
        let category = if folder.is_empty() { DEFAULT_CATEGORY.to_string() } else { category_of(&folder) };
        Self { model: UNKNOWN_MODEL.to_string(), category }
    }

    /// The run spec beside a stats file, read from disk, with a warning for each value it
    /// does not give (read as in [`RunSpec::fallback`]), or one when there is no run spec or
    /// it cannot be read.
    pub fn beside(stats: &Path) -> (Self, Vec<Diagnostic>) {
        let spec_path = stats.with_file_name(RUN_SPEC_FILE);
        let fallback = Self::fallback(stats);
        let problem = match evaltally_format::file::read(&spec_path) {
            Ok(bytes) => match Self::read(&bytes, &fallback) {
                Ok((spec, lacks)) => {
                    let warn = |(what, instead): (String, String)| {
                        Diagnostic::warning(stats, format!("{RUN_SPEC_FILE} beside it: {what}; {instead}"))
                    };
                    return (spec, lacks.into_iter().map(warn).collect());
                }
                Err(why) => format!("{RUN_SPEC_FILE} beside it: {why}"),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("no {RUN_SPEC_FILE} beside it"),
            Err(e) => format!("{RUN_SPEC_FILE} beside it cannot be read: {e}"),
        };
        let message = format!(
            "{problem}; the model is read as `{}` and the category as `{}` (from the folder name)",
            fallback.model, fallback.category
        );
        (fallback, vec![Diagnostic::warning(stats, message)])
    }
}

/// The category of a run spec name: the name without its `model=` and `model_deployment=`
/// arguments, and without the `:` when no argument is left. Instance ids restart in every
/// subject of a scenario, so the subject must stay in the category.
///
/// ```
/// use evaltally_helm::category_of;
/// assert_eq!(category_of("mmlu:subject=philosophy,method=multiple_choice_joint,model=openai_gpt2"), "mmlu:subject=philosophy,method=multiple_choice_joint");
/// assert_eq!(category_of("boolq:model=openai_gpt2,model_deployment=huggingface_gpt2"), "boolq");
/// // A folder name with `:` replaced, as some copies of HELM outputs have it.
/// assert_eq!(category_of("mmlu-subject=philosophy,model=openai_gpt2"), "mmlu-subject=philosophy");
/// assert_eq!(category_of(""), "helm");
/// ```
pub fn category_of(run_spec_name: &str) -> String {
    let is_model = |arg: &&str| arg.starts_with("model=") || arg.starts_with("model_deployment=");
    let out = if let Some((scenario, args)) = run_spec_name.split_once(':') {
        let kept: Vec<&str> = args.split(',').filter(|a| !a.is_empty() && !is_model(a)).collect();
        if kept.is_empty() { scenario.to_string() } else { format!("{scenario}:{}", kept.join(",")) }
    } else {
        let mut parts = run_spec_name.split(',');
        let first = parts.next().unwrap_or_default();
        std::iter::once(first).chain(parts.filter(|a| !a.is_empty() && !is_model(a))).collect::<Vec<_>>().join(",")
    };
    if out.is_empty() { DEFAULT_CATEGORY.to_string() } else { out }
}

/// The run folder's name: the folder holding the stats file (empty when it has none).
pub fn run_folder(stats: &Path) -> String {
    stats.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The name of trial `trial`'s run: `<run folder>#trial-<n>` (the file's name without
/// `.json` when it is in no folder).
pub fn run_name(stats: &Path, trial: u64) -> String {
    let folder = run_folder(stats);
    let base = if folder.is_empty() { evaltally_format::json::stem(stats) } else { folder };
    format!("{base}#trial-{trial}")
}

/// The metric that judged an instance and its mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Judged {
    pub(crate) metric: &'static str,
    pub(crate) mean: f64,
}

impl Judged {
    /// A mean within 1e-9 of 1.
    pub(crate) fn passed(self) -> bool {
        (self.mean - 1.0).abs() <= 1e-9
    }

    /// The error label of a failure, by the rule it failed: `<metric>_not_1`.
    pub(crate) fn label(self) -> String {
        format!("{}_not_1", self.metric)
    }
}

/// One test (instance, perturbation) in one trial, as read from its entries.
#[derive(Debug)]
pub(crate) struct Instance {
    pub(crate) trial: u64,
    pub(crate) id: String,
    /// Per metric of [`METRICS`]: its first mean, and the entry it came from.
    pub(crate) means: [Option<(f64, usize)>; 2],
    /// Every stat of its entries, in file order.
    pub(crate) stats: Vec<Value>,
    pub(crate) perturbation: Option<Value>,
}

impl Instance {
    /// `exact_match` if given, else `quasi_exact_match`, else nothing (unscored).
    pub(crate) fn judged(&self) -> Option<Judged> {
        METRICS.iter().zip(&self.means).find_map(|(metric, m)| m.map(|(mean, _)| Judged { metric, mean }))
    }

    /// The outcome and the error label of a failure.
    pub(crate) fn outcome(&self) -> (Outcome, Option<String>) {
        match self.judged() {
            Some(j) if j.passed() => (Outcome::Pass, None),
            Some(j) => (Outcome::Fail, Some(j.label())),
            None => (Outcome::Unscored, None),
        }
    }

    /// The mean of the first stat called `name`, if it is a number.
    pub(crate) fn stat(&self, name: &str) -> Option<f64> {
        self.stats.iter().find(|s| stat_name(s) == Some(name)).and_then(|s| s.get("mean")).and_then(Value::as_f64)
    }
}

/// `name.name` of a stat.
pub(crate) fn stat_name(stat: &Value) -> Option<&str> {
    stat.get("name")?.get("name")?.as_str()
}

/// An instance id as the test id: a string as written, an integer in decimal.
fn instance_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// The fields of one entry that make its key, or why the entry is left out.
fn entry_key(entry: &Map<String, Value>, warnings: &mut Vec<String>) -> Result<(String, u64, Option<Value>), String> {
    let Some(id) = entry.get("instance_id").and_then(instance_id) else {
        return Err("expected instance_id, a string".to_string());
    };
    let trial = match entry.get("train_trial_index") {
        None => {
            warnings.push(format!("instance {id}: no train_trial_index; read as trial 0"));
            0
        }
        Some(t) => {
            t.as_u64().ok_or_else(|| format!("instance {id}: expected train_trial_index, a whole number, found {t}"))?
        }
    };
    let (test, perturbation) = match entry.get("perturbation") {
        None | Some(Value::Null) => (id, None),
        Some(p) => match p.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) {
            Some(name) => (format!("{id}/{name}"), Some(p.clone())),
            None => return Err(format!("instance {id}: expected perturbation, an object with a name, found {p}")),
        },
    };
    Ok((test, trial, perturbation))
}

/// The entries of a stats file that can be read, as instances in file order (each
/// (instance, perturbation, trial) once); what is wrong goes to `diagnostics`, naming the
/// entry.
fn checked(path: &Path, entries: Vec<Value>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Instance> {
    let mut out: Vec<Instance> = Vec::new();
    let mut at: HashMap<(u64, String), usize> = HashMap::new();
    for (i, raw) in entries.into_iter().enumerate() {
        let mut warnings = Vec::new();
        let left_out = |why: String| Diagnostic::error(path, format!("[{i}]: {why}; left out"));
        let Value::Object(mut entry) = raw else {
            diagnostics.push(left_out("expected an object with instance_id and stats".to_string()));
            continue;
        };
        let (id, trial, perturbation) = match entry_key(&entry, &mut warnings) {
            Ok(key) => key,
            Err(why) => {
                diagnostics.push(left_out(why));
                continue;
            }
        };
        match entry.remove("stats") {
            Some(Value::Array(stats)) => {
                let slot = *at.entry((trial, id.clone())).or_insert_with(|| {
                    out.push(Instance { trial, id: id.clone(), means: [None, None], stats: Vec::new(), perturbation });
                    out.len() - 1
                });
                add_stats(&mut out[slot], stats, i, &mut warnings);
            }
            other => {
                let found = other.map_or_else(|| "nothing".to_string(), |v| v.to_string());
                diagnostics.push(left_out(format!("instance {id}: expected stats, a list, found {found}")));
            }
        }
        diagnostics.extend(warnings.into_iter().map(|w| Diagnostic::warning(path, format!("[{i}]: {w}"))));
    }
    say_not_counts(path, &out, diagnostics);
    out
}

/// A token count from a stat's mean (HELM writes them as floats), rounded; `None` for a mean
/// no count can be: negative, past 2^64, or not finite.
pub(crate) fn token_count(mean: f64) -> Option<u64> {
    if mean < 0.0 { None } else { evaltally_core::count_of(mean.round()) }
}

/// What a token count that is no count is, in HELM's stats ([`token_count`]).
pub(crate) const NOT_A_COUNT: &str = "negative, or past 2^64";

/// The token stats of instance `t` whose mean is there but no token count can be it
/// ([`token_count`]).
pub(crate) fn not_counts(t: &Instance) -> impl Iterator<Item = &'static str> + '_ {
    // The output's count is `num_completion_tokens` only where `num_output_tokens` is not.
    let output = if t.stat("num_output_tokens").is_some() { "num_output_tokens" } else { "num_completion_tokens" };
    ["num_prompt_tokens", output].into_iter().filter(|name| t.stat(name).is_some_and(|m| token_count(m).is_none()))
}

/// Says once for the file how many instances have a token count that is no count, and the
/// first: `export` and `cost` leave it out.
fn say_not_counts(path: &Path, instances: &[Instance], diagnostics: &mut Vec<Diagnostic>) {
    let n = instances.iter().filter(|t| not_counts(t).next().is_some()).count();
    let Some((t, name)) = instances.iter().find_map(|t| not_counts(t).next().map(|name| (t, name))) else { return };
    diagnostics.push(Diagnostic::warning(
        path,
        evaltally_core::text::tokens_left_out(
            n,
            "instance",
            NOT_A_COUNT,
            &format!("`{}`'s `{name}`", evaltally_core::text::printable(&t.id)),
        ),
    ));
}

/// Adds entry `i`'s stats to its instance, noting the judging metrics' means.
fn add_stats(instance: &mut Instance, stats: Vec<Value>, i: usize, warnings: &mut Vec<String>) {
    let (id, trial) = (instance.id.clone(), instance.trial);
    for (j, stat) in stats.into_iter().enumerate() {
        let Some(name) = stat_name(&stat) else {
            warnings.push(format!("instance {id}: stats[{j}]: expected name.name, a string; the stat is skipped"));
            continue;
        };
        if let Some(m) = METRICS.iter().position(|m| *m == name) {
            match (stat.get("mean").and_then(Value::as_f64), instance.means[m]) {
                (None, _) => warnings.push(format!("instance {id}: {name} has no numeric mean; not read")),
                (Some(mean), None) => instance.means[m] = Some((mean, i)),
                (Some(mean), Some((first, from))) => {
                    if first.to_bits() != mean.to_bits() {
                        warnings.push(format!(
                            "instance {id}, trial {trial}: {name} given again with mean {mean} (first {first}, in [{from}]); the first is read"
                        ));
                    }
                }
            }
        }
        instance.stats.push(stat);
    }
}

/// The instances of a stats file that can be read, with the file's diagnostics. An error
/// when the bytes are not JSON or not a list.
pub(crate) fn instances(
    path: &Path,
    bytes: &[u8],
    note_keys: bool,
) -> Result<(Vec<Instance>, Vec<Diagnostic>), Diagnostic> {
    let mut diagnostics = Vec::new();
    let parsed = evaltally_format::json::parse_noting_if(path, bytes, note_keys, &mut diagnostics)?;
    let Value::Array(entries) = parsed else {
        return Err(Diagnostic::error(
            path,
            "expected a list of HELM per-instance stats, found an object or a single value",
        ));
    };
    if entries.is_empty() {
        diagnostics.push(Diagnostic::warning(path, "holds no instance entries; no run is read"));
    }
    let instances = checked(path, entries, &mut diagnostics);
    Ok((instances, diagnostics))
}

/// What a stats file holds, as category runs (one per trial), with what was tolerated.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per train trial, in trial order.
    pub runs: Vec<CategoryRun>,
    /// Errors for entries left out, warnings for values read with a default.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a stats file from its bytes as runs of `spec`'s model and category; `path` names
/// it and its folder names the runs. An error when the bytes are not a JSON list.
pub fn read_bytes(path: &Path, bytes: &[u8], spec: &RunSpec) -> Result<Read, Diagnostic> {
    read_entries(path, bytes, spec, true)
}

/// [`read_bytes`]; `note_keys` adds a warning per key repeated in an object (`validate`
/// reports those as errors itself). Reading (`note_keys`) takes the fast path when it reads
/// the file; `validate` always reads the tolerant way, which checks every byte.
pub(crate) fn read_entries(path: &Path, bytes: &[u8], spec: &RunSpec, note_keys: bool) -> Result<Read, Diagnostic> {
    let (instances, diagnostics) = match note_keys.then(|| fast::instances(bytes)).flatten() {
        Some(instances) => (instances, Vec::new()),
        None => instances(path, bytes, note_keys)?,
    };
    let mut trials: BTreeMap<u64, CategoryRun> = BTreeMap::new();
    for t in instances {
        let run = trials.entry(t.trial).or_insert_with(|| {
            let mut c = CategoryRun::new(run_name(path, t.trial), &spec.model, &spec.category);
            c.sources.push(path.to_path_buf());
            c
        });
        let (outcome, label) = t.outcome();
        run.push(&t.id, outcome, label.as_deref());
    }
    Ok(Read { runs: trials.into_values().collect(), diagnostics })
}

/// The `scenario_state.json` beside a stats file (what `show` reads prompts from).
pub fn scenario_state_file(stats: &Path) -> PathBuf {
    stats.with_file_name("scenario_state.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &[u8] = br#"{"name": "x:model=m", "adapter_spec": {"model": "m"}}"#;

    fn read(doc: &str) -> Read {
        let spec = RunSpec::from_bytes(SPEC).unwrap();
        read_bytes(Path::new("run/per_instance_stats.json"), doc.as_bytes(), &spec).unwrap()
    }

    fn messages(read: &Read) -> Vec<String> {
        read.diagnostics.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn entries_of_one_instance_are_read_together() {
        let r = read(
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "num_prompt_tokens"}, "mean": 3}]},
                {"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 1}]}]"#,
        );
        assert_eq!((r.runs[0].len(), r.runs[0].passed()), (1, 1));
        assert!(r.diagnostics.is_empty(), "{:?}", messages(&r));
    }

    #[test]
    fn a_test_without_either_metric_is_unscored_and_exact_match_wins() {
        let r = read(
            r#"[{"instance_id": "a", "train_trial_index": 0, "stats": [{"name": {"name": "bleu"}, "mean": 1}]},
                {"instance_id": "b", "train_trial_index": 0, "stats": [{"name": {"name": "quasi_exact_match"}, "mean": 1}, {"name": {"name": "exact_match"}, "mean": 0}]}]"#,
        );
        let tests: Vec<_> =
            r.runs[0].tests().map(|t| (t.outcome, t.error_type.map(|e| e.as_str().to_string()))).collect();
        assert_eq!(tests, [(Outcome::Unscored, None), (Outcome::Fail, Some("exact_match_not_1".to_string()))]);
    }

    #[test]
    fn damaged_entries_are_named() {
        let r = read(
            r#"[3, {"train_trial_index": 0, "stats": []}, {"instance_id": "a", "train_trial_index": -1, "stats": []},
                {"instance_id": "b", "stats": [{"name": {"name": "exact_match"}, "mean": 1}]},
                {"instance_id": "c", "train_trial_index": 0, "stats": {}},
                {"instance_id": "d", "train_trial_index": 0, "perturbation": {"robustness": true}, "stats": []},
                {"instance_id": "e", "train_trial_index": 0, "stats": [{"name": "exact_match", "mean": 1}, {"name": {"name": "exact_match"}}]},
                {"instance_id": "b", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match"}, "mean": 0}]}]"#,
        );
        let m = messages(&r);
        let expected = [
            "[0]: expected an object with instance_id and stats; left out",
            "[1]: expected instance_id, a string; left out",
            "[2]: instance a: expected train_trial_index, a whole number, found -1; left out",
            "[3]: instance b: no train_trial_index; read as trial 0",
            "[4]: instance c: expected stats, a list, found {}; left out",
            "[5]: instance d: expected perturbation, an object with a name",
            "[6]: instance e: stats[0]: expected name.name, a string; the stat is skipped",
            "[6]: instance e: exact_match has no numeric mean; not read",
            "[7]: instance b, trial 0: exact_match given again with mean 0 (first 1, in [3]); the first is read",
        ];
        assert_eq!(m.len(), expected.len(), "{m:#?}");
        for (got, want) in m.iter().zip(expected) {
            assert!(got.contains(want), "{got}\n  does not contain {want}");
        }
        // b passes (the first mean), e is unscored.
        assert_eq!((r.runs[0].passed(), r.runs[0].len()), (1, 2));
    }

    #[test]
    fn not_a_list_is_an_error_and_an_empty_list_a_warning() {
        let spec = RunSpec::fallback(Path::new("f/per_instance_stats.json"));
        assert!(read_bytes(Path::new("p.json"), b"{}", &spec).is_err());
        assert!(read_bytes(Path::new("p.json"), b"[1,", &spec).is_err());
        let empty = read_bytes(Path::new("p.json"), b"[]", &spec).unwrap();
        assert_eq!((empty.runs.len(), empty.diagnostics.len()), (0, 1));
    }

    #[test]
    fn run_spec_problems_are_said() {
        assert_eq!(RunSpec::from_bytes(b"{}").unwrap_err(), "expected `name`, a string");
        assert_eq!(RunSpec::from_bytes(br#"{"name": "x"}"#).unwrap_err(), "expected `adapter_spec.model`, a string");
        assert!(RunSpec::from_bytes(b"{").unwrap_err().starts_with("not valid JSON at line 1"));
        let fallback = RunSpec::fallback(Path::new("runs/boolq:model=m/per_instance_stats.json"));
        assert_eq!((fallback.model.as_str(), fallback.category.as_str()), ("unknown", "boolq"));
        let (_, warnings) = RunSpec::beside(Path::new("/nonexistent-helm-folder/per_instance_stats.json"));
        assert!(warnings[0].message.starts_with("no run_spec.json beside it"));
        let fallback = RunSpec { model: "unknown".into(), category: "f".into() };
        let (spec, lacks) = RunSpec::read(br#"{"name": "mmlu:subject=a,model=m"}"#, &fallback).unwrap();
        assert_eq!((spec.model.as_str(), spec.category.as_str(), lacks.len()), ("unknown", "mmlu:subject=a", 1));
    }
}
