//! The fast path of `read` (`stability`): a results document read straight into its trials
//! with the pipeline's scanner (`evaltally_format::scan`), which takes `task_id`,
//! `trial_name`, `is_resolved` and `failure_mode` of each trial and jumps over the rest
//! (`instruction`, `parser_results`, the timestamps) without building it.
//!
//! It reads only what the tolerant reader ([`crate::parse`]) would read without a word but
//! the repeated keys it notes (found by the same walk, [`repeated_key_warnings`]): bytes
//! that are not UTF-8 or hold a raw control character, a byte order mark, a document that
//! is not an object with a `results` list of objects, a trial without a plain string
//! `task_id` and `trial_name` naming an attempt, an `is_resolved` that is not `true`,
//! `false` or `null`, a `failure_mode` that is neither a string nor `null`, a trial again
//! for one attempt, one of the read keys written twice, or a string that does not decode
//! give `None`, and the caller reads the file the tolerant way, which says what is wrong.
//! Both paths give the same trials. Like the other fast paths, it checks structure and
//! encoding, not the syntax of every skipped number; that is `validate`'s job.

use std::collections::HashSet;
use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_format::fields::{Fallback as Slow, fields, only_objects, string};
use evaltally_format::json::repeated_key_warnings;

use crate::{Attempt, Trial, attempt};

/// JSON's white space (a form feed or a byte order mark is the tolerant reader's to refuse).
fn blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// The trial at `t[i]` added to `trials`; returns the offset just past it.
fn entry(
    t: &str,
    i: usize,
    index: usize,
    seen: &mut HashSet<(String, Attempt)>,
    trials: &mut Vec<Trial>,
) -> Result<usize, Slow> {
    let b = t.as_bytes();
    let ([task_id, name, resolved, mode], end) =
        fields(b, i, ["task_id", "trial_name", "is_resolved", "failure_mode"])?;
    let task_id = string(t, task_id.as_ref())?.ok_or(Slow)?.into_owned();
    let name = string(t, name.as_ref())?.ok_or(Slow)?;
    let attempt = attempt(&name, &task_id).ok_or(Slow)?;
    let resolved = match resolved.map(|r| &b[r]) {
        Some(b"true") => Some(true),
        Some(b"false") => Some(false),
        Some(b"null") => None,
        _ => return Err(Slow),
    };
    let failure_mode = match mode {
        None => None,
        Some(r) if &b[r.clone()] == b"null" => None,
        Some(r) => Some(string(t, Some(&r))?.ok_or(Slow)?.into_owned()),
    };
    if !seen.insert((task_id.clone(), attempt)) {
        return Err(Slow);
    }
    trials.push(Trial { index, task_id, attempt, resolved, failure_mode });
    Ok(end)
}

/// The trials of a well-formed results document, with the warnings about repeated keys
/// that the tolerant reader gives; `None` to take the tolerant path.
pub(crate) fn trials(path: &Path, bytes: &[u8]) -> Option<(Vec<Trial>, Vec<Diagnostic>)> {
    let t = evaltally_format::damage::clean_text(bytes)?;
    let b = t.as_bytes();
    let start = b.iter().position(|&c| !blank(c))?;
    if b[start] != b'{' {
        return None;
    }
    let ([results], end) = fields(b, start, ["results"]).ok()?;
    if !b[end..].iter().all(|&c| blank(c)) {
        return None;
    }
    let mut trials = Vec::new();
    let mut seen: HashSet<(String, Attempt)> = HashSet::new();
    let mut index = 0;
    only_objects(b, &results?, |i| {
        let end = entry(t, i, index, &mut seen, &mut trials);
        index += 1;
        end
    })
    .ok()?;
    Some((trials, repeated_key_warnings(path, bytes)))
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
    fn agrees(bytes: &[u8]) -> bool {
        let path = PathBuf::from("runs/2025-09-22__02-29-33/results.json");
        let tolerant = crate::read_tolerant(&path, bytes, None).map(|r| outcome(&r)).map_err(|d| d.to_string());
        let fast = crate::read_bytes(&path, bytes, None).map(|r| outcome(&r)).map_err(|d| d.to_string());
        assert_eq!(fast, tolerant, "{}", String::from_utf8_lossy(bytes));
        super::trials(&path, bytes).is_some()
    }

    /// Every results document below `dir`.
    fn documents(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                documents(&path, out);
            } else if path.file_name().is_some_and(|n| n.to_string_lossy().ends_with("results.json")) {
                out.push(path);
            }
        }
    }

    #[test]
    fn the_fast_path_reads_what_the_tolerant_reader_reads() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = Vec::new();
        documents(&root.join("terminal-bench"), &mut files);
        documents(&root.join("shapes/terminal-bench"), &mut files);
        let mut taken = 0;
        for path in &files {
            taken += usize::from(agrees(&std::fs::read(path).unwrap()));
        }
        assert!(taken >= 4, "the fixtures take the fast path ({taken} of {})", files.len());
        // Odd trials: each either read alike or left to the tolerant reader.
        let trial = r#"{"id": "u", "trial_name": "hello-world.1-of-2.r", "task_id": "hello-world", "instruction": "Say \"hi\" {[",
            "is_resolved": false, "failure_mode": "agent_timeout", "parser_results": {"test_a": "failed"}, "total_input_tokens": 5}"#;
        let second = trial.replace("1-of-2", "2-of-2").replace("false", "true");
        let variants = [
            format!(r#"{{"id": "x", "results": [{trial}], "pass_at_k": {{}}, "n_resolved": 0}}"#),
            format!("  {{ \"results\" : [ {trial} , {second} ] }}\n"),
            format!(r#"{{"results": [{}]}}"#, trial.replace("false", "null")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("false", "\"false\"")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("false", "0")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"agent_timeout\"", "null")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"agent_timeout\"", "3")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"task_id\": \"hello-world\"", "\"task_id\": 7")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("hello-world.1-of-2.r", "hello-world")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"trial_name\": \"hello-world.1-of-2.r\", ", "")),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"is_resolved\": false, ", "")),
            format!(
                r#"{{"results": [{}]}}"#,
                trial.replace("hello-world\", \"instruction", "hello-\\u0077orld\", \"instruction")
            ),
            format!(r#"{{"results": [{}]}}"#, trial.replace("\"id\": \"u\"", "\"id\": \"u\", \"id\": \"v\"")),
            format!(
                r#"{{"results": [{}]}}"#,
                trial.replace("\"is_resolved\": false", "\"is_resolved\": false, \"is_resolved\": true")
            ),
            format!(r#"{{"results": [{trial}, {trial}]}}"#),
            format!(r#"{{"results": [{trial}, 3]}}"#),
            format!(r#"{{"results": [{trial}], "results": []}}"#),
            format!(r#"{{"results": [{trial}]"#),
            format!(r#"{{"results": [{trial}]}} x"#),
            format!("\u{feff}{{\"results\": [{trial}]}}"),
            format!(r#"[{{"results": [{trial}]}}]"#),
            r#"{"results": {}}"#.to_string(),
            r#"{"results": []}"#.to_string(),
            r#"{"id": "x"}"#.to_string(),
        ];
        let mut fast = 0;
        for v in &variants {
            fast += usize::from(agrees(v.as_bytes()));
        }
        assert!(fast >= 6, "plain variants take the fast path ({fast})");
    }
}
