//! The tolerant reader: a results document parsed whole, every shape EvalPlus wrote, each
//! thing that cannot be judged said and counted unscored.
//!
//! `{"date", "hash", "eval": {task id: samples}}`, where a task's samples are
//!
//! * a list of per-sample records `{task_id, solution, base_status, plus_status,
//!   base_fail_tests, plus_fail_tests}` (evalplus 0.2.1 on, and the unreleased draft of
//!   2024-02-11), or
//! * `{"nfiles": n, "base": [[status, details], …], "plus": [[status, details], …]}`
//!   (evalplus 0.1.1 – 0.2.0), `{"files": [paths], "base": …, "plus": … or null}` in 0.1.0.

use std::path::Path;

use evaltally_core::Diagnostic;
use serde_json::{Map, Value};

use crate::{Results, Sample, Side, Task, task_id};

/// What a document that is not EvalPlus results is told.
const EXPECTED: &str = "expected EvalPlus results: an object with `eval`, the samples of each task";

/// Reads the document: its tasks in natural id order and the diagnostics; an error when it
/// is not JSON or not an EvalPlus results document. `note_keys` adds a warning per key
/// repeated in an object.
pub(crate) fn read(path: &Path, bytes: &[u8], note_keys: bool) -> Result<(Results, Vec<Diagnostic>), Diagnostic> {
    let mut diagnostics = Vec::new();
    let doc = evaltally_format::json::parse_noting_if(path, bytes, note_keys, &mut diagnostics)?;
    let Value::Object(mut doc) = doc else {
        return Err(Diagnostic::error(path, format!("{EXPECTED}, found another value")));
    };
    let eval = match doc.remove("eval") {
        Some(Value::Object(eval)) => eval,
        Some(_) => return Err(Diagnostic::error(path, "`eval`: expected an object of task ids")),
        None => return Err(Diagnostic::error(path, format!("no `eval`: {EXPECTED}"))),
    };
    let text = |key: &str| doc.get(key).and_then(Value::as_str).map(str::to_string);
    let mut results = Results { tasks: Vec::with_capacity(eval.len()), date: text("date"), hash: text("hash") };
    let mut said = Said { path, diagnostics: &mut diagnostics };
    for (key, value) in eval {
        let id = task_id(&key).into_owned();
        if id != key && results.tasks.iter().any(|t: &Task| t.id == id) {
            said.warn(format!("task {key} is read as {id}, which the file also holds; left out"));
            continue;
        }
        let samples = samples(&key, &id, value, &mut said);
        results.tasks.push(Task { id, samples });
    }
    results.tasks.sort_by(|a, b| evaltally_core::id::natural_str_cmp(&a.id, &b.id));
    if results.has_plus() {
        for task in &results.tasks {
            for (i, s) in task.samples.iter().enumerate() {
                if s.base == Side::Pass && s.plus == Side::Absent {
                    said.warn(format!(
                        "task {}, sample {i}: passed the base tests but has no plus verdict, while the file's plus tests ran; not judged",
                        task.id
                    ));
                }
            }
        }
    }
    Ok((results, diagnostics))
}

/// Where diagnostics go.
struct Said<'a> {
    path: &'a Path,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Said<'_> {
    fn warn(&mut self, message: String) {
        self.diagnostics.push(Diagnostic::warning(self.path, message));
    }

    fn error(&mut self, message: String) {
        self.diagnostics.push(Diagnostic::error(self.path, message));
    }
}

/// A sample that cannot be read at all, counted unscored.
fn unreadable() -> Sample {
    Sample { unreadable: true, ..Sample::bare(Side::Unknown, Side::Unknown) }
}

/// The samples of task `key` (read as `id`).
fn samples(key: &str, id: &str, value: Value, said: &mut Said<'_>) -> Vec<Sample> {
    let samples = match value {
        Value::Array(records) => records.into_iter().enumerate().map(|(i, r)| record(key, i, r, said)).collect(),
        Value::Object(legacy) if legacy.contains_key("base") => legacy_samples(id, legacy, said),
        other => {
            said.error(format!(
                "task {id}: expected a list of samples or an object with `base`, found {}; counted unscored",
                kind(&other)
            ));
            return vec![unreadable()];
        }
    };
    if samples.is_empty() {
        said.warn(format!("task {id}: no samples; counted unscored"));
        return vec![unreadable()];
    }
    samples
}

/// A JSON value's kind, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// One side's status of a per-sample record: `base_status` must be a status word, while
/// `plus_status` may be null or missing (`--base-only`).
fn status(task: &str, i: usize, field: &str, value: Option<&Value>, may_be_absent: bool, said: &mut Said<'_>) -> Side {
    match value {
        Some(Value::String(word)) => {
            let side = Side::of_word(word);
            if side == Side::Unknown {
                said.warn(format!(
                    "task {task}, sample {i}: `{field}` {word:?} is not a status EvalPlus writes; not judged"
                ));
            }
            side
        }
        None | Some(Value::Null) if may_be_absent => Side::Absent,
        None => {
            said.warn(format!("task {task}, sample {i}: no `{field}`; not judged"));
            Side::Unknown
        }
        Some(other) => {
            said.warn(format!("task {task}, sample {i}: `{field}` is {}, not a status; not judged", kind(other)));
            Side::Unknown
        }
    }
}

/// Sample `i` of task `key`, a per-sample record.
fn record(key: &str, i: usize, value: Value, said: &mut Said<'_>) -> Sample {
    let id = task_id(key);
    let Value::Object(mut r) = value else {
        said.error(format!(
            "task {id}, sample {i}: expected an object with `base_status`, found {}; counted unscored",
            kind(&value)
        ));
        return unreadable();
    };
    match r.remove("task_id") {
        Some(Value::String(t)) if t == key => {}
        None => {}
        Some(other) => said.warn(format!("task {id}, sample {i}: `task_id` is {other}; read as task {id}")),
    }
    let base = status(&id, i, "base_status", r.get("base_status"), false, said);
    let plus = status(&id, i, "plus_status", r.get("plus_status"), true, said);
    let solution = match r.remove("solution") {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    Sample { base, plus, unreadable: false, solution, written: Some(Value::Object(r)) }
}

/// The samples of a legacy task `{"nfiles"|"files", "base", "plus"}`: `base[i]` and
/// `plus[i]` are sample `i`'s `[status, details]`.
fn legacy_samples(id: &str, mut task: Map<String, Value>, said: &mut Said<'_>) -> Vec<Sample> {
    let base = match task.remove("base") {
        Some(Value::Array(base)) => base,
        other => {
            let found = other.as_ref().map_or("nothing", kind);
            said.error(format!(
                "task {id}: `base`: expected a list of [status, details], found {found}; counted unscored"
            ));
            return vec![unreadable()];
        }
    };
    let plus = match task.remove("plus") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(plus)) => plus,
        Some(other) => {
            said.warn(format!("task {id}: `plus` is {}, not a list; the plus tests are read as not run", kind(&other)));
            Vec::new()
        }
    };
    if plus.len() > base.len() {
        said.warn(format!(
            "task {id}: `plus` lists {} samples and `base` {}; the plus results without a base result are left out",
            plus.len(),
            base.len()
        ));
    }
    let count = |key: &str| match task.get(key) {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::Array(files)) => Some(files.len().to_string()),
        _ => None,
    };
    for (key, what) in [("nfiles", "samples"), ("files", "files")] {
        if let Some(n) = count(key).filter(|n| *n != base.len().to_string()) {
            said.warn(format!("task {id}: `{key}` says {n} {what}, `base` lists {}", base.len()));
        }
    }
    let mut plus = plus.into_iter();
    let mut out = Vec::with_capacity(base.len());
    for (i, b) in base.into_iter().enumerate() {
        let p = plus.next();
        let base_side = legacy_status(id, i, "base", &b, said);
        let plus_side = match &p {
            Some(p) => legacy_status(id, i, "plus", p, said),
            None => Side::Absent,
        };
        let mut written = Map::new();
        written.insert("base".into(), b);
        if let Some(p) = p {
            written.insert("plus".into(), p);
        }
        out.push(Sample {
            base: base_side,
            plus: plus_side,
            unreadable: false,
            solution: None,
            written: Some(Value::Object(written)),
        });
    }
    out
}

/// The side of a legacy `[status, details]` pair.
fn legacy_status(id: &str, i: usize, side: &str, pair: &Value, said: &mut Said<'_>) -> Side {
    if let Some(Value::String(word)) = pair.as_array().and_then(|p| p.first()) {
        let s = Side::of_word(word);
        if s == Side::Unknown {
            said.warn(format!(
                "task {id}, sample {i}: `{side}` status {word:?} is not a status EvalPlus writes; not judged"
            ));
        }
        s
    } else {
        said.warn(format!("task {id}, sample {i}: `{side}`: expected [status, details], found {pair}; not judged"));
        Side::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, verdict};

    fn read_str(doc: &str) -> (Results, Vec<String>) {
        let (r, d) = read(Path::new("m_eval_results.json"), doc.as_bytes(), true).unwrap();
        (r, d.iter().map(|d| d.message.clone()).collect())
    }

    #[test]
    fn per_sample_records() {
        let (r, said) = read_str(
            r#"{"date": "2024-08-08 15:57", "hash": "ee43", "eval": {
                "Mbpp/4": [{"task_id": "Mbpp/4", "solution": "def f(): pass", "base_status": "fail", "plus_status": "fail",
                            "base_fail_tests": [[[25, 35], 3]], "plus_fail_tests": [[[9, 8], 3]]}],
                "Mbpp/2": [{"task_id": "Mbpp/2", "solution": "s", "base_status": "pass", "plus_status": "pass",
                            "base_fail_tests": [], "plus_fail_tests": []},
                           {"task_id": "Mbpp/2", "solution": "t", "base_status": "pass", "plus_status": "timeout",
                            "base_fail_tests": [], "plus_fail_tests": [[500]]}]}}"#,
        );
        assert!(said.is_empty(), "{said:?}");
        assert_eq!((r.date.as_deref(), r.hash.as_deref()), (Some("2024-08-08 15:57"), Some("ee43")));
        let ids: Vec<&str> = r.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["Mbpp/2", "Mbpp/4"]);
        assert!(r.has_plus());
        let two = &r.tasks[0].samples;
        assert_eq!(two[1].solution.as_deref(), Some("t"));
        assert_eq!(verdict(&two[1], true), (Outcome::Fail, Some(crate::PLUS_TIMEOUT)));
        assert_eq!(two[1].written.as_ref().unwrap()["plus_fail_tests"], serde_json::json!([[500]]));
        assert!(two[1].written.as_ref().unwrap().get("solution").is_none());
    }

    #[test]
    fn legacy_shapes_and_base_only() {
        let (r, said) = read_str(
            r#"{"date": "2023-05-01 10:00", "extra_input_hash": -44, "eval": {
                "HumanEval_0": {"files": ["r/HumanEval_0/1.py", "r/HumanEval_0/0.py"], "base": [["success", [true]], ["failed", [true, false]]], "plus": null},
                "HumanEval_1": {"files": ["r/HumanEval_1/0.py"], "base": [["timed out", []]], "plus": null}}}"#,
        );
        assert!(said.is_empty(), "{said:?}");
        assert!(!r.has_plus());
        assert_eq!(r.tasks[0].id, "HumanEval/0");
        assert_eq!(r.tasks[0].samples.len(), 2);
        assert_eq!(verdict(&r.tasks[1].samples[0], false), (Outcome::Fail, Some(crate::BASE_TIMEOUT)));
        assert_eq!(r.hash, None);
    }

    #[test]
    fn what_cannot_be_judged_is_said_and_counted() {
        let (r, said) = read_str(
            r#"{"eval": {
                "HumanEval/0": [{"task_id": "HumanEval/9", "base_status": "crashed", "plus_status": "pass"}, 7,
                                {"base_status": "pass"}, {"plus_status": "pass"}],
                "HumanEval/1": "oops",
                "HumanEval/2": [],
                "HumanEval/3": {"nfiles": 4, "base": [["success", [1]], "x", ["success", []]], "plus": [["success", [1]], ["failed", []]]},
                "HumanEval/5": {"nfiles": 1, "base": [["success", [1]]], "plus": [["success", [1]], ["failed", []]]},
                "HumanEval_3": {"nfiles": 1, "base": [["success", [1]]], "plus": []},
                "HumanEval/4": {"base": 5}}}"#,
        );
        let all = said.join("\n");
        for want in [
            "task HumanEval/0, sample 0: `task_id` is \"HumanEval/9\"; read as task HumanEval/0",
            "task HumanEval/0, sample 0: `base_status` \"crashed\" is not a status EvalPlus writes; not judged",
            "task HumanEval/0, sample 1: expected an object with `base_status`, found a number; counted unscored",
            "task HumanEval/0, sample 3: no `base_status`; not judged",
            "task HumanEval/1: expected a list of samples or an object with `base`, found a string; counted unscored",
            "task HumanEval/2: no samples; counted unscored",
            "task HumanEval/0, sample 2: passed the base tests but has no plus verdict, while the file's plus tests ran; not judged",
            "task HumanEval/3, sample 2: passed the base tests but has no plus verdict, while the file's plus tests ran; not judged",
            "task HumanEval/5: `plus` lists 2 samples and `base` 1; the plus results without a base result are left out",
            "task HumanEval/3: `nfiles` says 4 samples, `base` lists 3",
            "task HumanEval/3, sample 1: `base`: expected [status, details], found \"x\"; not judged",
            "task HumanEval_3 is read as HumanEval/3, which the file also holds; left out",
            "task HumanEval/4: `base`: expected a list of [status, details], found a number; counted unscored",
        ] {
            assert!(all.contains(want), "{want}\n---\n{all}");
        }
        assert_eq!(said.len(), 13, "{all}");
        let counts: Vec<(&str, usize)> = r.tasks.iter().map(|t| (t.id.as_str(), t.samples.len())).collect();
        assert_eq!(
            counts,
            [
                ("HumanEval/0", 4),
                ("HumanEval/1", 1),
                ("HumanEval/2", 1),
                ("HumanEval/3", 3),
                ("HumanEval/4", 1),
                ("HumanEval/5", 1)
            ]
        );
        assert!(r.has_plus());
        let outcomes: Vec<Outcome> = r.tasks[0].samples.iter().map(|s| verdict(s, true).0).collect();
        assert_eq!(outcomes, [Outcome::Unscored, Outcome::Unscored, Outcome::Unscored, Outcome::Unscored]);
    }

    #[test]
    fn documents_that_are_not_results() {
        let err = |doc: &str| read(Path::new("eval_results.json"), doc.as_bytes(), true).unwrap_err().message;
        assert_eq!(
            err("[1]"),
            "expected EvalPlus results: an object with `eval`, the samples of each task, found another value"
        );
        assert_eq!(
            err(r#"{"eval_loss": 0.3}"#),
            "no `eval`: expected EvalPlus results: an object with `eval`, the samples of each task"
        );
        assert_eq!(err(r#"{"eval": []}"#), "`eval`: expected an object of task ids");
        assert!(err("{\"eval\": {").starts_with("not valid JSON"));
    }
}
