//! The fast path of `read` (`stability`): a results document read straight into its tasks
//! with the pipeline's scanner (`evaltally_format::scan`), which takes each sample's
//! statuses and jumps over the rest (the `solution` programs, the failing inputs, the legacy
//! per-input details) without building it.
//!
//! It reads only what the tolerant reader ([`crate::results`]) reads without a word but the
//! repeated keys it notes (found by the same walk, `repeated_key_warnings`): bytes that are
//! not UTF-8 or hold a raw control character, a byte order mark, a structure that is not
//! JSON, a key written twice or escaped in an object it walks, a task or sample of a shape
//! EvalPlus does not write, a status word it does not write, a `task_id` other than its key,
//! counts that disagree, or a legacy task id that collides with another give `None`, and the
//! caller reads the file the tolerant way, which says what is wrong. Both paths give the
//! same runs. Like the other fast paths, it checks the structure and the encoding of what it
//! skips, not the syntax of every skipped number; that is `validate`'s job.

use std::ops::Range;

use evaltally_format::fields::{Fallback as Slow, string, walk_distinct};
use evaltally_format::scan::{array_at, value_end};

use crate::{Results, Sample, Side, Task, task_id};

/// Scratch room for the keys of the objects walked, one per depth.
#[derive(Default)]
struct Keys {
    top: Vec<Range<usize>>,
    tasks: Vec<Range<usize>>,
    sample: Vec<Range<usize>>,
}

/// The tasks of a well-formed results document, as [`crate::results::read`] reads them when
/// it says nothing (without solutions and verdicts as written); `None` to take the tolerant
/// path.
pub(crate) fn results(bytes: &[u8]) -> Option<Results> {
    read(bytes).ok()
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

fn read(b: &[u8]) -> Result<Results, Slow> {
    // A byte order mark serde_json refuses, bytes that are not UTF-8, a raw control
    // character: the tolerant reader says so.
    if b.starts_with(evaltally_format::json::BOM) {
        return Err(Slow);
    }
    let t = evaltally_format::damage::clean_text(b).ok_or(Slow)?;
    let start = b.iter().position(|&c| !is_ws(c)).ok_or(Slow)?;
    if b[start] != b'{' {
        return Err(Slow);
    }
    let mut results = Results::default();
    let mut keys = Keys::default();
    let mut eval = false;
    let end = walk_distinct(b, start, &mut keys.top, |key, v| match key {
        b"eval" => {
            eval = true;
            tasks(t, v, &mut results.tasks, &mut keys.tasks, &mut keys.sample)
        }
        b"date" | b"hash" => {
            let end = value_end(b, v)?;
            let text = string(t, Some(&(v..end)))?.map(std::borrow::Cow::into_owned);
            if key == b"date" {
                results.date = text;
            } else {
                results.hash = text;
            }
            Ok(end)
        }
        _ => Ok(value_end(b, v)?),
    })?;
    if !eval || !b[end..].iter().all(|&c| is_ws(c)) {
        return Err(Slow);
    }
    // A legacy id (`HumanEval_0`) read as one the file also holds.
    let mut ids: Vec<&str> = results.tasks.iter().map(|t| t.id.as_str()).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return Err(Slow);
    }
    results.tasks.sort_by(|a, b| evaltally_core::id::natural_str_cmp(&a.id, &b.id));
    // A sample left unjudged for want of a plus verdict, which the tolerant reader warns of.
    if results.has_plus()
        && results.tasks.iter().flat_map(|t| &t.samples).any(|s| s.base == Side::Pass && s.plus == Side::Absent)
    {
        return Err(Slow);
    }
    Ok(results)
}

/// The `eval` object at `t[start]`, each task added to `out`; returns the offset past it.
fn tasks(
    t: &str,
    start: usize,
    out: &mut Vec<Task>,
    keys: &mut Vec<Range<usize>>,
    sample_keys: &mut Vec<Range<usize>>,
) -> Result<usize, Slow> {
    let b = t.as_bytes();
    if b.get(start) != Some(&b'{') {
        return Err(Slow);
    }
    walk_distinct(b, start, keys, |key, v| {
        // Keys walked are unescaped (`walk_distinct`), so their bytes are the text.
        let key = std::str::from_utf8(key).map_err(|_| Slow)?;
        let (samples, end) = match b.get(v) {
            Some(b'[') => records(t, v, key, sample_keys)?,
            Some(b'{') => legacy(t, v, sample_keys)?,
            _ => return Err(Slow),
        };
        if samples.is_empty() {
            return Err(Slow);
        }
        out.push(Task { id: task_id(key).into_owned(), samples });
        Ok(end)
    })
}

/// A status word EvalPlus writes, as a side; anything else is [`Slow`].
fn word(t: &str, raw: &Range<usize>) -> Result<Side, Slow> {
    if t.as_bytes().get(raw.start) != Some(&b'"') {
        return Err(Slow);
    }
    let word = string(t, Some(raw))?.ok_or(Slow)?;
    match Side::of_word(&word) {
        Side::Unknown => Err(Slow),
        side => Ok(side),
    }
}

/// The per-sample records of task `key` at `t[start]`, a list; returns them with the
/// offset past it.
fn records(t: &str, start: usize, key: &str, keys: &mut Vec<Range<usize>>) -> Result<(Vec<Sample>, usize), Slow> {
    let b = t.as_bytes();
    let mut samples = Vec::new();
    let mut failed = false;
    let end = array_at(b, start, |i| {
        if failed {
            return value_end(b, i);
        }
        if let Ok((sample, end)) = record(t, i, key, keys) {
            samples.push(sample);
            Ok(end)
        } else {
            failed = true;
            value_end(b, i)
        }
    })?;
    if failed { Err(Slow) } else { Ok((samples, end)) }
}

/// One per-sample record at `t[start]`; returns it with the offset past it.
fn record(t: &str, start: usize, key: &str, keys: &mut Vec<Range<usize>>) -> Result<(Sample, usize), Slow> {
    let b = t.as_bytes();
    if b.get(start) != Some(&b'{') {
        return Err(Slow);
    }
    let mut found: [Option<Range<usize>>; 3] = [None, None, None];
    let end = walk_distinct(b, start, keys, |k, v| {
        let end = value_end(b, v)?;
        if let Some(at) = [&b"task_id"[..], b"base_status", b"plus_status"].iter().position(|w| *w == k) {
            found[at] = Some(v..end);
        }
        Ok(end)
    })?;
    let [task, base, plus] = found;
    if let Some(task) = task
        && string(t, Some(&task))?.as_deref() != Some(key)
    {
        return Err(Slow);
    }
    let base = word(t, &base.ok_or(Slow)?)?;
    let plus = match plus {
        None => Side::Absent,
        Some(r) if &b[r.clone()] == b"null" => Side::Absent,
        Some(r) => word(t, &r)?,
    };
    Ok((Sample::bare(base, plus), end))
}

/// A legacy task `{"nfiles"|"files", "base", "plus"}` at `t[start]`; returns its samples
/// with the offset past it.
fn legacy(t: &str, start: usize, keys: &mut Vec<Range<usize>>) -> Result<(Vec<Sample>, usize), Slow> {
    let b = t.as_bytes();
    let mut found: [Option<Range<usize>>; 4] = [None, None, None, None];
    let end = walk_distinct(b, start, keys, |k, v| {
        let end = value_end(b, v)?;
        if let Some(at) = [&b"base"[..], b"plus", b"nfiles", b"files"].iter().position(|w| *w == k) {
            found[at] = Some(v..end);
        }
        Ok(end)
    })?;
    let [base, plus, nfiles, files] = found;
    let base = pairs(t, &base.ok_or(Slow)?)?;
    let plus = match plus {
        None => Vec::new(),
        Some(r) if &b[r.clone()] == b"null" => Vec::new(),
        Some(r) => pairs(t, &r)?,
    };
    if plus.len() > base.len() {
        return Err(Slow);
    }
    for count in [nfiles, files].into_iter().flatten() {
        let agrees = match b[count.start] {
            b'[' => elements(b, count.start)? == base.len(),
            b'-' | b'0'..=b'9' => b[count] == *base.len().to_string().as_bytes(),
            // Another type is not a count, and the tolerant reader passes over it.
            _ => true,
        };
        if !agrees {
            return Err(Slow);
        }
    }
    let mut plus = plus.into_iter();
    let samples = base.into_iter().map(|b| Sample::bare(b, plus.next().unwrap_or(Side::Absent))).collect();
    Ok((samples, end))
}

/// The statuses of a list of `[status, details]` pairs at `t[raw]`.
fn pairs(t: &str, raw: &Range<usize>) -> Result<Vec<Side>, Slow> {
    let b = t.as_bytes();
    if b.get(raw.start) != Some(&b'[') {
        return Err(Slow);
    }
    let mut sides = Vec::new();
    let mut failed = false;
    array_at(b, raw.start, |i| {
        if failed || b[i] != b'[' {
            failed = true;
            return value_end(b, i);
        }
        let mut first = None;
        let end = array_at(b, i, |j| {
            let end = value_end(b, j)?;
            first.get_or_insert(j..end);
            Ok(end)
        })?;
        match first.map(|r| word(t, &r)) {
            Some(Ok(side)) => sides.push(side),
            _ => failed = true,
        }
        Ok(end)
    })?;
    if failed { Err(Slow) } else { Ok(sides) }
}

/// The number of elements of the list at `b[start]`.
fn elements(b: &[u8], start: usize) -> Result<usize, Slow> {
    let mut n = 0;
    array_at(b, start, |i| {
        n += 1;
        value_end(b, i)
    })?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// What a reading gives, to compare: the runs and every diagnostic as printed.
    fn outcome(read: &crate::Read) -> String {
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        format!("{:?}\n{said:?}", read.runs)
    }

    /// The fast path's runs and words equal the tolerant reader's on `bytes`; whether the
    /// fast path took the file.
    fn agrees(path: &Path, bytes: &[u8]) -> bool {
        let tolerant = crate::read_tolerant(path, bytes, true).map(|r| outcome(&r)).map_err(|d| d.to_string());
        let fast = crate::read_bytes(path, bytes).map(|r| outcome(&r)).map_err(|d| d.to_string());
        assert_eq!(fast, tolerant, "{}: {}", path.display(), String::from_utf8_lossy(bytes));
        super::results(bytes).is_some()
    }

    fn fixtures(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                fixtures(&path, out);
            } else if crate::is_results_name(&path) {
                out.push(path);
            }
        }
    }

    #[test]
    fn the_fast_path_reads_what_the_tolerant_reader_reads() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = Vec::new();
        for dir in ["evalplus", "shapes/evalplus"] {
            fixtures(&root.join(dir), &mut files);
        }
        let mut taken = 0;
        for path in &files {
            taken += usize::from(agrees(path, &std::fs::read(path).unwrap()));
        }
        assert!(taken >= 5, "the fixtures take the fast path ({taken} of {})", files.len());

        // Odd documents: each either read alike or left to the tolerant reader.
        let sample = r#"{"task_id": "HumanEval/0", "solution": "def f():\n    return [1, {\"a\": 2}]", "base_status": "pass", "plus_status": "fail", "base_fail_tests": [], "plus_fail_tests": [[{"k": [1]}]]}"#;
        let doc = |eval: &str| format!(r#"{{"date": "2024-08-08 15:57", "hash": "ee", "eval": {{{eval}}}}}"#);
        let task = |samples: &str| doc(&format!(r#""HumanEval/0": [{samples}]"#));
        let legacy = r#""HumanEval/1": {"nfiles": 2, "base": [["success", [1, 1]], ["failed", []]], "plus": [["success", [1]], ["timed out", []]]}"#;
        let variants = [
            task(sample),
            task(&format!("{sample}, {}", sample.replace("\"fail\"", "\"pass\""))),
            doc(&format!(r#""HumanEval/0": [{sample}], {legacy}"#)),
            doc(legacy),
            doc(&legacy.replace("\"nfiles\": 2", "\"nfiles\": 3")),
            doc(&legacy.replace("\"nfiles\": 2", "\"nfiles\": 2.0")),
            doc(&legacy.replace("\"nfiles\": 2", "\"files\": [\"a\", \"b\"]")),
            doc(&legacy.replace("\"nfiles\": 2", "\"files\": [\"a\"]")),
            doc(&legacy.replace(r#"["timed out", []]"#, "")),
            doc(&legacy.replace(r#", ["timed out", []]"#, "")),
            doc(&legacy.replace(r#""plus": [["success", [1]], ["timed out", []]]"#, r#""plus": []"#)),
            doc(&legacy.replace(r#""plus": [["success", [1]], ["timed out", []]]"#, r#""plus": null"#)),
            doc(&legacy.replace("HumanEval/1", "HumanEval_1")),
            doc(&format!("{}, {}", legacy, legacy.replace("HumanEval/1", "HumanEval_1"))),
            doc(&legacy.replace("\"success\"", "\"ok\"")),
            doc(&legacy.replace("\"base\"", "\"bases\"")),
            task(&sample.replace("\"plus_status\": \"fail\"", "\"plus_status\": null")),
            task(&sample.replace("\"plus_status\": \"fail\", ", "")),
            task(&sample.replace("\"fail\"", "\"timed out\"")),
            task(&sample.replace("\"pass\"", "\"crashed\"")),
            task(&sample.replace("\"base_status\": \"pass\", ", "")),
            task(&sample.replace("\"task_id\": \"HumanEval/0\"", "\"task_id\": \"HumanEval/9\"")),
            task(&sample.replace("\"task_id\": \"HumanEval/0\"", "\"task_id\": \"HumanEval\\/0\"")),
            task(&sample.replace("\"base_status\": \"pass\"", "\"base_status\": \"pass\", \"base_status\": \"fail\"")),
            task(&sample.replace("\"k\": [1]", "\"k\": 1, \"k\": 2")),
            task(&format!("{sample}, 7")),
            task(""),
            doc(r#""HumanEval/0": "x""#),
            doc(""),
            format!("{}\n", task(sample)),
            format!("{} x", task(sample)),
            format!("\u{feff}{}", task(sample)),
            task(sample)[..60].to_string(),
            task(sample).replace("\"eval\"", "\"evals\""),
            task(sample).replace("\"date\": \"2024-08-08 15:57\"", "\"date\": 7"),
            format!("[{}]", task(sample)),
        ];
        let mut fast = 0;
        for v in &variants {
            fast += usize::from(agrees(Path::new("a/acme_vllm_temp_0.0_eval_results.json"), v.as_bytes()));
        }
        assert!(fast >= 10, "plain variants take the fast path ({fast})");
    }
}
