//! Scores as `inspect_ai` writes them, and what they make of a sample.

use std::collections::BTreeSet;
use std::path::Path;

use evaltally_core::{Diagnostic, Outcome};
use evaltally_format::Scoring;
use serde_json::Value;

use crate::log::{Log, Sample};

/// A score value as a number, the way `inspect_ai`'s `value_to_float` reads it: `C` (correct)
/// 1, `P` (partial) 0.5, `I` (incorrect) and `N` (no answer) 0, booleans 1 and 0, `yes`/`no`
/// and `true`/`false` in any case, numbers and numeric strings as they are; `None` for
/// anything else (a list or a dictionary of values).
///
/// ```
/// use serde_json::json;
/// use evaltally_inspect::score_value;
/// assert_eq!(score_value(&json!("C")), Some(1.0));
/// assert_eq!(score_value(&json!("P")), Some(0.5));
/// assert_eq!(score_value(&json!(false)), Some(0.0));
/// assert_eq!(score_value(&json!("0.25")), Some(0.25));
/// assert_eq!(score_value(&json!({"a": 1})), None);
/// ```
pub fn score_value(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => match s.trim() {
            "C" => Some(1.0),
            "P" => Some(0.5),
            "I" | "N" => Some(0.0),
            t if t.eq_ignore_ascii_case("yes") || t.eq_ignore_ascii_case("true") => Some(1.0),
            t if t.eq_ignore_ascii_case("no") || t.eq_ignore_ascii_case("false") => Some(0.0),
            t => t.parse::<f64>().ok().filter(|x| x.is_finite()),
        },
        _ => None,
    }
}

/// What a sample says under a scoring rule: its outcome, its error label, and a message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Verdict {
    pub(crate) outcome: Outcome,
    pub(crate) label: Option<String>,
    pub(crate) message: Option<String>,
}

/// The error label of a sample whose run failed (`error` in the log).
pub const ERROR_LABEL: &str = "sample_error";

/// What decides pass or fail in a log: a scorer and, when its values are dictionaries
/// (`Score(value={"Problem Correctness": 1, "Total Steps": 5})`), one of their keys; or why
/// nothing can (said once per log).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Choice {
    pub(crate) scorer: Option<String>,
    pub(crate) key: Option<String>,
    /// Why every sample is unscored, when it is (a scorer or key `--scorer` named that the
    /// log lacks, a key several scorers have, dictionaries and no key chosen).
    pub(crate) problem: Option<String>,
}

impl Choice {
    /// What a failing sample's label and message call the value: `scorer` or `scorer/key`.
    pub(crate) fn name(&self) -> String {
        match (&self.scorer, &self.key) {
            (Some(s), Some(k)) => format!("{s}/{k}"),
            (Some(s), None) => s.clone(),
            (None, _) => String::new(),
        }
    }
}

/// The choice for `log` under `wanted` (`--scorer`): a scorer's name, a key of the
/// dictionaries one scorer gives, or `SCORER/KEY`; without it, the task's first scorer, and
/// its only key when its values are dictionaries of one.
///
/// The task's first scorer is the first of `eval.scorers`, which every log of the task lists
/// alike, finished or cancelled; in logs without it, the first the results list, else the
/// first the samples give by name. So every log of a task is judged by one scorer: a log
/// whose samples that scorer never scored (a cancelled one) is unscored, and says so, rather
/// than judged by another scorer (a monitor's suspicion score, say).
pub(crate) fn choose(log: &Log, wanted: Option<&str>) -> Choice {
    let samples = || log.samples.iter().flatten();
    let in_samples: BTreeSet<&str> = samples().flat_map(|s| s.scores.iter().map(|c| c.scorer.as_str())).collect();
    // A task's scorer as the samples name it: registered names may carry their package
    // (`inspect_evals/swe_bench_scorer`), score keys do not.
    let as_scored = |name: &str| -> String {
        if in_samples.contains(name) {
            return name.to_string();
        }
        let bare = name.rsplit('/').next().unwrap_or(name);
        if in_samples.contains(bare) { bare.to_string() } else { name.to_string() }
    };
    if wanted.is_none()
        && let Some(first) = log.task_scorers.first().map(|s| as_scored(s))
        && !in_samples.contains(first.as_str())
        // Samples that errored were never scored: no scorer's absence to explain.
        && samples().any(|s| s.error.is_none())
    {
        return Choice {
            problem: Some(format!(
                "scorer `{first}`, the task's first (`eval.scorers`), scored no sample in this log (cancelled or \
                 cut short?); every sample is unscored, as in every log of the task it did not score (--scorer \
                 chooses another)"
            )),
            scorer: Some(first),
            key: None,
        };
    }
    let mut scorers: Vec<&str> = Vec::new();
    let task: Vec<String> = log.task_scorers.iter().map(|s| as_scored(s)).collect();
    for s in task.iter().map(String::as_str).chain(log.scorers.iter().map(String::as_str)) {
        if !scorers.contains(&s) {
            scorers.push(s);
        }
    }
    scorers.retain(|s| in_samples.contains(s));
    scorers.extend(in_samples.iter().filter(|s| !scorers.contains(s)).copied().collect::<Vec<_>>());
    let keys = |scorer: &str| -> BTreeSet<&str> {
        samples()
            .flat_map(|s| s.scores.iter().filter(move |c| c.scorer == scorer))
            .filter_map(|c| c.value.as_object())
            .flat_map(|m| m.keys().map(String::as_str))
            .collect()
    };
    let listed = |names: &mut dyn Iterator<Item = &str>| names.map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let unscored =
        |problem: String| Choice { problem: Some(format!("{problem}; every sample is unscored")), ..Choice::default() };
    // A scorer chosen: its key when its values are dictionaries.
    let of_scorer = |scorer: &str| -> Choice {
        let k = keys(scorer);
        let key = match k.len() {
            0 => None,
            1 => k.first().map(|k| (*k).to_string()),
            _ => {
                let mut choice = unscored(format!(
                    "scorer `{scorer}` gives several values per sample ({}): choose one with --scorer {scorer}/KEY",
                    listed(&mut k.iter().copied())
                ));
                choice.scorer = Some(scorer.to_string());
                return choice;
            }
        };
        Choice { scorer: Some(scorer.to_string()), key, problem: None }
    };
    let Some(wanted) = wanted else {
        return scorers.first().map_or_else(Choice::default, |s| of_scorer(s));
    };
    if scorers.contains(&wanted) {
        return of_scorer(wanted);
    }
    if let Some((scorer, key)) = wanted.split_once('/')
        && scorers.contains(&scorer)
        && keys(scorer).contains(key)
    {
        return Choice { scorer: Some(scorer.to_string()), key: Some(key.to_string()), problem: None };
    }
    let owners: Vec<&str> = scorers.iter().copied().filter(|s| keys(s).contains(wanted)).collect();
    match owners.as_slice() {
        [one] => Choice { scorer: Some((*one).to_string()), key: Some(wanted.to_string()), problem: None },
        [] => {
            let all_keys: BTreeSet<&str> = scorers.iter().flat_map(|s| keys(s)).collect();
            let key_list = if all_keys.is_empty() {
                String::new()
            } else {
                format!("; keys of their values: {}", listed(&mut all_keys.iter().copied()))
            };
            unscored(format!(
                "no sample has scorer `{wanted}` (the log's scorers: {}{key_list})",
                listed(&mut scorers.iter().copied())
            ))
        }
        several => unscored(format!(
            "`{wanted}` is a key of the values of several scorers: choose one with {}",
            several.iter().map(|s| format!("--scorer {s}/{wanted}")).collect::<Vec<_>>().join(" or ")
        )),
    }
}

/// A sample's verdict, or why it has none.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Judged {
    /// Passed, failed or errored (or unscored where the choice of scorer is the problem,
    /// said once for the log).
    Verdict(Verdict),
    /// The sample has no score from the chosen scorer (or key), or the log has no scorer:
    /// unscored, and said.
    NotScored,
    /// The chosen value is not a number, C/P/I/N or a boolean: unscored, and said.
    Unreadable(Value),
    /// The scorer gave no value (inspect's `Score.unscored()`, written `NaN`): unscored.
    NoValue,
}

/// The verdict on `sample` under `choice` and `scoring`.
pub(crate) fn verdict(sample: &Sample, choice: &Choice, scoring: &Scoring) -> Judged {
    if let Some(error) = &sample.error {
        return Judged::Verdict(Verdict {
            outcome: Outcome::Errored,
            label: Some(ERROR_LABEL.to_string()),
            message: Some(error.clone()),
        });
    }
    let unscored = Judged::Verdict(Verdict { outcome: Outcome::Unscored, label: None, message: None });
    if choice.problem.is_some() {
        return unscored;
    }
    let Some(scorer) = &choice.scorer else { return Judged::NotScored };
    let Some(score) = sample.scores.iter().find(|s| &s.scorer == scorer) else { return Judged::NotScored };
    let value = match (&choice.key, &score.value) {
        (Some(key), Value::Object(m)) => match m.get(key) {
            Some(v) => v,
            None => return Judged::NotScored,
        },
        (_, v) => v,
    };
    if value.is_null() {
        return Judged::NoValue;
    }
    let Some(number) = score_value(value) else { return Judged::Unreadable(value.clone()) };
    let name = choice.name();
    Judged::Verdict(if scoring.passes(number) {
        Verdict { outcome: Outcome::Pass, label: None, message: None }
    } else {
        Verdict {
            outcome: Outcome::Fail,
            label: Some(scoring.fail_label(choice.key.as_deref().unwrap_or(scorer))),
            message: Some({
                // The value as the log writes it (`I`, `false`), with the number it counts as.
                let rule = match value {
                    Value::Number(_) => scoring.fail_message(&name, number),
                    Value::String(s) => scoring.fail_message(&name, format!("{s} ({number})")),
                    other => scoring.fail_message(&name, format!("{other} ({number})")),
                };
                match &score.answer {
                    Some(answer) => format!("{rule} (answer: {answer})"),
                    None => rule,
                }
            }),
        }
    })
}

/// What a log's samples had no verdict for, said once per log.
#[derive(Debug, Default)]
pub(crate) struct Unjudged {
    unreadable: Vec<(String, u64, Value)>,
    no_value: usize,
    /// The samples without a score from the chosen scorer: how many, and the first.
    not_scored: Option<(usize, String, u64)>,
}

impl Unjudged {
    /// The verdict `judged` gives `sample`, noting the samples it gives none for.
    pub(crate) fn note(&mut self, sample: &Sample, judged: Judged) -> Verdict {
        match judged {
            Judged::Verdict(v) => v,
            Judged::Unreadable(value) => {
                self.unreadable.push((sample.id.clone(), sample.epoch, value));
                Verdict { outcome: Outcome::Unscored, label: None, message: None }
            }
            Judged::NoValue => {
                self.no_value += 1;
                Verdict { outcome: Outcome::Unscored, label: None, message: None }
            }
            Judged::NotScored => {
                let first = self.not_scored.get_or_insert_with(|| (0, sample.id.clone(), sample.epoch));
                first.0 += 1;
                Verdict { outcome: Outcome::Unscored, label: None, message: None }
            }
        }
    }

    /// One warning for the choice's problem, one for the values that could not be read, one
    /// for those the scorer left without a value and one for the samples it did not score.
    pub(crate) fn warnings(self, path: &Path, choice: &Choice) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let Some(problem) = &choice.problem {
            out.push(Diagnostic::warning(path, problem.clone()));
        }
        let name = choice.name();
        if let Some((id, epoch, value)) = self.unreadable.first() {
            let n = self.unreadable.len();
            let samples = if n == 1 { "1 sample".to_string() } else { format!("{n} samples") };
            out.push(Diagnostic::warning(
                path,
                format!(
                    "scorer `{name}`: {samples} gave values that are not a number, C/P/I/N or a boolean (first: sample {id} epoch {epoch}: {value}); unscored"
                ),
            ));
        }
        if self.no_value > 0 {
            let n = self.no_value;
            let samples = if n == 1 { "1 sample has".to_string() } else { format!("{n} samples have") };
            out.push(Diagnostic::warning(
                path,
                format!("scorer `{name}`: {samples} no value (NaN: unscored by the scorer); unscored"),
            ));
        }
        if let Some((n, id, epoch)) = &self.not_scored {
            let samples = if *n == 1 { "1 sample has".to_string() } else { format!("{n} samples have") };
            let whose = if name.is_empty() {
                " (the log names no scorer)".to_string()
            } else {
                format!(" from scorer `{name}`")
            };
            out.push(Diagnostic::warning(
                path,
                format!("{samples} no score{whose} (first: sample {id} epoch {epoch}); unscored"),
            ));
        }
        out
    }
}
