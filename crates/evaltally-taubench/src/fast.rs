//! The fast path of `read` (`stability`): a τ-bench list read straight into its tasks with
//! the pipeline's scanner (`evaltally_format::scan`), which takes `task_id`, `reward` and
//! `trial` of each entry and jumps over the rest (`info`, `traj`) without building it.
//!
//! It reads only what the tolerant reader ([`crate::trials`]) would read without a word but
//! the repeated keys it notes (found by the same walk, [`repeated_key_warnings`]): bytes
//! that are not UTF-8 or hold a raw control character, a byte order mark, a structure that
//! is not a JSON list of objects, an entry without an integer or plain string `task_id`, a
//! numeric `reward` and a whole `trial`, a task again in a trial, a key of the three written
//! twice or a string that does not decode give `None`, and the caller reads the file the
//! tolerant way, which says what is wrong. Both paths give the same runs. Like the other
//! fast paths, it checks structure and encoding, not the syntax of every skipped number;
//! that is `validate`'s job.

use std::collections::HashSet;
use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_format::fields::{Fallback as Slow, fields, string};
use evaltally_format::json::repeated_key_warnings;
use evaltally_format::scan::{ScanError, array_at};

use crate::{Results, TaskResult};

/// A number as the tolerant reader reads it: `Value::as_f64` (or `as_u64`) of the same bytes.
fn number(raw: &[u8]) -> Result<serde_json::Number, Slow> {
    match serde_json::from_slice::<serde_json::Value>(raw) {
        Ok(serde_json::Value::Number(n)) => Ok(n),
        _ => Err(Slow),
    }
}

/// A task id as [`crate::task_id`] reads it: a string, or an integer written plainly (its
/// decimal text is then the bytes themselves).
fn task_id(t: &str, raw: &std::ops::Range<usize>) -> Result<String, Slow> {
    let b = &t.as_bytes()[raw.clone()];
    if b.first() == Some(&b'"') {
        return string(t, Some(raw))?.map(std::borrow::Cow::into_owned).ok_or(Slow);
    }
    let plain = matches!(b, [b'0'] | [b'1'..=b'9', ..]) && b.iter().all(u8::is_ascii_digit);
    if plain && number(b)?.is_u64() { Ok(t[raw.clone()].to_string()) } else { Err(Slow) }
}

/// The exception τ-bench's runner caught, as [`crate::runner_error`] reads it from the `info`
/// at `t[raw]`: the string `"Error: …"`, or an object's top-level `error` string (null: none);
/// another kind of `error` is the tolerant reader's.
fn runner_error(t: &str, raw: &std::ops::Range<usize>) -> Result<Option<String>, Slow> {
    let b = t.as_bytes();
    match b[raw.start] {
        b'"' => {
            let text = string(t, Some(raw))?.ok_or(Slow)?;
            Ok(text.strip_prefix("Error:").map(|e| e.trim().to_string()))
        }
        // Most infos hold no `error` key: a look for its name spares walking them again.
        b'{' if memchr::memmem::find(&b[raw.clone()], b"\"error\"").is_none() => Ok(None),
        b'{' => match fields(b, raw.start, ["error"])?.0 {
            [None] => Ok(None),
            [Some(e)] if &b[e.clone()] == b"null" => Ok(None),
            [Some(e)] if b[e.start] == b'"' => Ok(Some(string(t, Some(&e))?.ok_or(Slow)?.trim().to_string())),
            [Some(_)] => Err(Slow),
        },
        _ => Ok(None),
    }
}

/// The entry at `t[i]` (an object with `task_id`, `reward` and `trial`, a task not yet seen
/// in its trial) added to `tasks`; returns the offset just past it.
fn entry(t: &str, i: usize, seen: &mut HashSet<(u64, String)>, tasks: &mut Vec<TaskResult>) -> Result<usize, Slow> {
    let b = t.as_bytes();
    let ([id, reward, trial, info], end) = fields(b, i, ["task_id", "reward", "trial", "info"])?;
    let error = match info {
        Some(info) => runner_error(t, &info)?,
        None => None,
    };
    let id = task_id(t, &id.ok_or(Slow)?)?;
    let reward = number(&b[reward.ok_or(Slow)?])?.as_f64().ok_or(Slow)?;
    let trial = number(&b[trial.ok_or(Slow)?])?.as_u64().ok_or(Slow)?;
    if !seen.insert((trial, id.clone())) {
        return Err(Slow);
    }
    tasks.push(TaskResult {
        trial,
        id,
        reward: Some(reward),
        termination: None,
        info: None,
        error,
        duration: None,
        cost: None,
    });
    Ok(end)
}

/// The tasks of a well-formed τ-bench list, with the warnings about repeated keys that the
/// tolerant reader gives; `None` to take the tolerant path.
pub(crate) fn trials(path: &Path, bytes: &[u8]) -> Option<(Results, Vec<Diagnostic>)> {
    let t = evaltally_format::damage::clean_text(bytes)?;
    let b = t.as_bytes();
    // JSON's white space (a form feed or a byte order mark is the tolerant reader's to refuse).
    let start = b.iter().position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))?;
    if b[start] != b'[' {
        return None;
    }
    let mut tasks = Vec::new();
    let mut seen: HashSet<(u64, String)> = HashSet::new();
    let end = array_at(b, start, |i| {
        entry(t, i, &mut seen, &mut tasks).map_err(|Slow| ScanError { offset: i, message: "an entry read as is" })
    })
    .ok()?;
    if !b[end..].iter().all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
        return None;
    }
    let (model, category) = crate::identity_of(path, bytes);
    Some((Results { model, category, name: None, tasks }, repeated_key_warnings(path, bytes)))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// What a reading gives, to compare: the runs and every diagnostic as printed.
    fn outcome(read: &crate::Read) -> String {
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        format!("{:?}\n{said:?}", read.runs)
    }

    /// The fast path's runs and words equal the tolerant reader's on `bytes`; whether the
    /// fast path took the file.
    fn agrees(name: &str, bytes: &[u8]) -> bool {
        let path = PathBuf::from(name);
        let tolerant = crate::read_entries(&path, bytes, true).map(|r| outcome(&r)).map_err(|d| d.to_string());
        let fast = crate::read_bytes(&path, bytes).map(|r| outcome(&r)).map_err(|d| d.to_string());
        assert_eq!(fast, tolerant, "{name}: {}", String::from_utf8_lossy(bytes));
        super::trials(&path, bytes).is_some()
    }

    #[test]
    fn the_fast_path_reads_what_the_tolerant_reader_reads() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut taken = 0;
        for dir in ["taubench", "shapes/taubench/results-list-v1/results", "shapes/taubench/results-list-run/results"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "json") {
                    taken += usize::from(agrees("acme-7b-retail.json", &std::fs::read(&path).unwrap()));
                }
            }
        }
        assert!(taken >= 2, "the fixtures take the fast path ({taken})");
        // Odd entries: each either read alike or left to the tolerant reader.
        let entry = r#"{"task_id": 1, "reward": 1.0, "info": {"x": [1, {"y": "z"}]}, "traj": [], "trial": 0}"#;
        let variants = [
            format!("[{entry}]"),
            format!("  [ {entry} , {} ]\n", entry.replace("\"task_id\": 1", "\"task_id\": \"t-2\"")),
            format!("[{}]", entry.replace("1.0", "0")),
            format!("[{}]", entry.replace("1.0", "1e0")),
            format!("[{}]", entry.replace("1.0", "null")),
            format!("[{}]", entry.replace("1.0", "\"1\"")),
            format!("[{}]", entry.replace("\"task_id\": 1", "\"task_id\": -1")),
            format!("[{}]", entry.replace("\"task_id\": 1", "\"task_id\": 1.5")),
            format!("[{}]", entry.replace("\"task_id\": 1", "\"task_id\": 01")),
            format!("[{}]", entry.replace("\"task_id\": 1", "\"task_id\": \"a\\u00e9\"")),
            format!("[{}]", entry.replace("\"trial\": 0", "\"trial\": 2.0")),
            format!("[{}]", entry.replace("\"trial\": 0", "\"trial\": 0, \"trial\": 1")),
            format!("[{}]", entry.replace("\"trial\": 0", "\"trial\": 0, \"info\": 1")),
            format!("[{entry}, {entry}]"),
            format!("[{entry}, 3]"),
            format!("[{entry}"),
            format!("[{entry}] x"),
            format!("\u{feff}[{entry}]"),
            format!("{{\"a\": [{entry}]}}"),
            "[]".to_string(),
            // Exceptions the runner caught, and an `error` that is not one.
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#"{"error": "rate limit", "traceback": "…"}"#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#""Error: Request timed out.""#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#"{"error": null}"#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#"{"task": {"error": "not the runner's"}}"#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#""an \"error\" in words""#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#"{"error": " a \"quoted\" error\n"}"#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#"{"error": 1}"#)),
            format!("[{}]", entry.replace(r#"{"x": [1, {"y": "z"}]}"#, r#""Error:""#)),
        ];
        let mut fast = 0;
        for v in &variants {
            fast += usize::from(agrees("acme-7b-retail.json", v.as_bytes()));
        }
        assert!(fast >= 4, "plain variants take the fast path ({fast})");
    }
}
