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

/// The entry at `t[i]` (an object with `task_id`, `reward` and `trial`, a task not yet seen
/// in its trial) added to `tasks`; returns the offset just past it.
fn entry(t: &str, i: usize, seen: &mut HashSet<(u64, String)>, tasks: &mut Vec<TaskResult>) -> Result<usize, Slow> {
    let b = t.as_bytes();
    let ([id, reward, trial], end) = fields(b, i, ["task_id", "reward", "trial"])?;
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
        duration: None,
        cost: None,
    });
    Ok(end)
}

/// The tasks of a well-formed τ-bench list, with the warnings about repeated keys that the
/// tolerant reader gives; `None` to take the tolerant path.
pub(crate) fn trials(path: &Path, bytes: &[u8]) -> Option<(Results, Vec<Diagnostic>)> {
    if !evaltally_format::damage::find(bytes, 1).is_empty() {
        return None;
    }
    let t = std::str::from_utf8(bytes).ok()?;
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
    let (model, category) = crate::identity(path);
    Some((Results { model, category, tasks }, repeated_key_warnings(path, bytes)))
}
