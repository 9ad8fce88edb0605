//! The fast path of `stability`: promptfoo's output read into results with the pipeline's
//! scanner (`evaltally_format::scan`), which walks the document and the list of results and
//! builds only the few members a verdict, a test id and a model need. Prompts, responses,
//! the config's tests and the rest are jumped over without being built.
//!
//! Each result is given to the tolerant reader's own [`parse_entry`] as an object holding
//! only those members (`prompt` with its `label` alone, `testCase` with its `description`
//! and `vars`, `response` with its `cost` and `error`), so both paths decide alike. It reads
//! only what the tolerant reader ([`crate::eval::parse`]) reads without a word: bytes that
//! are not UTF-8 or hold a raw control character, a byte order mark, a structure that is not
//! JSON, a key written twice in an object walked or a value built, a member that does not
//! parse, or anything the tolerant reader would note give `None`, and the caller reads the
//! file the tolerant way, which says what is wrong. Like the other fast paths, it checks the
//! structure and the encoding of what it skips, not the syntax of every skipped number;
//! that is `validate`'s job.
//! Nor does it look for keys written twice inside the values it skips, which the tolerant
//! reader warns about.
//!
//! The results it gives carry what the runs need; their `entry` is the reduced object, and
//! their token counts are not read (`records` and `show` take the tolerant path).

use std::ops::Range;

use evaltally_format::Input;
use evaltally_format::fields::{Fallback as Slow, built as value, distinct, walk_distinct as walk};
use evaltally_format::scan::{ScanError, array_at, value_end};
use serde_json::{Map, Value};

use crate::eval::{Eval, Head, Parsed, parse_entry, settle};

/// A member whose value is walked for a few of its own members.
enum Sub<const N: usize> {
    Absent,
    /// An object: where each wanted member's value is.
    Object([Option<Range<usize>>; N]),
    /// Anything else, built whole.
    Other(Range<usize>),
}

impl<const N: usize> Sub<N> {
    /// Walks the value at `b[v]`: an object for `wanted`'s members, anything else skipped.
    fn walk(b: &[u8], v: usize, wanted: [&str; N], keys: &mut Vec<Range<usize>>) -> Result<(Self, usize), Slow> {
        if b.get(v) != Some(&b'{') {
            let end = value_end(b, v)?;
            return Ok((Self::Other(v..end), end));
        }
        let mut found: [Option<Range<usize>>; N] = std::array::from_fn(|_| None);
        let end = walk(b, v, keys, |k, i| {
            let end = value_end(b, i)?;
            if let Some(at) = wanted.iter().position(|w| w.as_bytes() == k) {
                found[at] = Some(i..end);
            }
            Ok(end)
        })?;
        Ok((Self::Object(found), end))
    }

    /// The value as the tolerant reader would see it: an object of the wanted members only.
    fn value(&self, b: &[u8], wanted: [&str; N]) -> Result<Option<Value>, Slow> {
        Ok(match self {
            Self::Absent => None,
            Self::Other(r) => Some(value(b, r)?),
            Self::Object(found) => {
                let mut m = Map::new();
                for (key, r) in wanted.iter().zip(found) {
                    if let Some(r) = r {
                        m.insert((*key).to_string(), value(b, r)?);
                    }
                }
                Some(Value::Object(m))
            }
        })
    }
}

/// The members of a result the verdict, the test id and the model need, built whole.
const ENTRY_KEYS: [&str; 10] =
    ["success", "failureReason", "provider", "promptId", "testIdx", "promptIdx", "latencyMs", "cost", "vars", "error"];
const VARS: usize = 8;
/// Built only for a result that did not succeed (its label and message).
const FAILED_ONLY: [&str; 2] = ["error", "gradingResult"];
const PROMPT: [&str; 2] = ["label", "display"];
const TEST_CASE: [&str; 2] = ["description", "vars"];
const RESPONSE: [&str; 2] = ["cost", "error"];

/// Scratch room for the keys of the objects walked, one per depth.
#[derive(Default)]
struct Keys {
    entry: Vec<Range<usize>>,
    member: Vec<Range<usize>>,
}

/// The result at `b[start]` as an object of the members [`parse_entry`] reads, and the
/// offset just past it.
fn entry(b: &[u8], start: usize, keys: &mut Keys) -> Result<(Map<String, Value>, usize), Slow> {
    let mut found: [Option<Range<usize>>; ENTRY_KEYS.len()] = Default::default();
    let mut grading = None;
    let (mut prompt, mut case, mut response) = (Sub::Absent, Sub::Absent, Sub::Absent);
    let member = &mut keys.member;
    let end = walk(b, start, &mut keys.entry, |key, v| {
        let end = match key {
            b"prompt" => {
                let end;
                (prompt, end) = Sub::walk(b, v, PROMPT, member)?;
                end
            }
            b"testCase" => {
                let end;
                (case, end) = Sub::walk(b, v, TEST_CASE, member)?;
                end
            }
            b"response" => {
                let end;
                (response, end) = Sub::walk(b, v, RESPONSE, member)?;
                end
            }
            _ => {
                let end = value_end(b, v)?;
                if key == b"gradingResult" {
                    grading = Some(v..end);
                } else if let Some(at) = ENTRY_KEYS.iter().position(|k| k.as_bytes() == key) {
                    found[at] = Some(v..end);
                }
                end
            }
        };
        Ok(end)
    })?;
    let succeeded = found[0].as_ref().is_some_and(|r| &b[r.clone()] == b"true");
    // `vars` beside the test case is read only when the test case has none as an object.
    let case_vars = matches!(&case, Sub::Object([_, Some(r)]) if b[r.start] == b'{');
    let mut m = Map::new();
    for (at, (key, r)) in ENTRY_KEYS.iter().zip(&found).enumerate() {
        let skipped = (at == VARS && case_vars) || (succeeded && FAILED_ONLY.contains(key));
        if let Some(r) = r.as_ref().filter(|_| !skipped) {
            m.insert((*key).to_string(), value(b, r)?);
        }
    }
    if let Some(r) = grading.filter(|_| !succeeded) {
        m.insert("gradingResult".to_string(), value(b, &r)?);
    }
    for (key, v) in [
        ("prompt", prompt.value(b, PROMPT)?),
        ("testCase", case.value(b, TEST_CASE)?),
        ("response", response.value(b, RESPONSE)?),
    ] {
        if let Some(v) = v {
            m.insert(key.to_string(), v);
        }
    }
    Ok((m, end))
}

/// The `results` object: its head members built, its results parsed one by one.
struct Results {
    head: Map<String, Value>,
    parsed: Vec<Parsed>,
    listed: bool,
    /// Whether `results` has a `table` (which names the test cases of output whose
    /// results keep no `testCase`).
    table: bool,
}

/// Walks the `results` object at `b[v]`; any note on a result is [`Slow`].
fn results(b: &[u8], v: usize, out: &mut Results) -> Result<usize, Slow> {
    if b.get(v) != Some(&b'{') {
        return Err(Slow);
    }
    let mut keys = Keys::default();
    let mut own = Vec::new();
    let mut notes = Vec::new();
    walk(b, v, &mut own, |key, i| match key {
        b"results" => {
            if b.get(i) != Some(&b'[') {
                return Err(Slow);
            }
            out.listed = true;
            let mut index = 0;
            let end = array_at(b, i, |j| {
                let stop = |_: Slow| ScanError { offset: j, message: "a result the fast path reads" };
                if b[j] != b'{' {
                    return Err(stop(Slow));
                }
                let (entry, end) = entry(b, j, &mut keys).map_err(stop)?;
                let parsed = parse_entry(index, Value::Object(entry), &mut notes);
                index += 1;
                match parsed {
                    Some(p) if notes.is_empty() => out.parsed.push(p),
                    _ => return Err(stop(Slow)),
                }
                Ok(end)
            })?;
            Ok(end)
        }
        b"table" => {
            out.table = true;
            Ok(value_end(b, i)?)
        }
        b"timestamp" | b"version" | b"stats" => {
            let end = value_end(b, i)?;
            out.head.insert(String::from_utf8_lossy(key).into_owned(), value(b, &(i..end))?);
            Ok(end)
        }
        _ => Ok(value_end(b, i)?),
    })
}

/// A top-level member walked for one of its members (`config.description`): an object of
/// that member alone, or nothing when it is not an object (the tolerant reader finds none).
fn one_member(b: &[u8], r: Option<&Range<usize>>, key: &str) -> Result<Option<Value>, Slow> {
    let Some(r) = r.filter(|r| b[r.start] == b'{') else { return Ok(None) };
    let (sub, _) = Sub::walk(b, r.start, [key], &mut Vec::new())?;
    sub.value(b, [key])
}

/// The document read, when it is plainly well-formed and the tolerant reader would note
/// nothing; `None` to take the tolerant path.
pub(crate) fn read(file: &Input<'_>) -> Option<Eval> {
    eval(file).ok()
}

fn eval(file: &Input<'_>) -> Result<Eval, Slow> {
    let b = file.bytes;
    // A byte order mark serde_json refuses, bytes that are not UTF-8, a raw control
    // character: the tolerant reader says so.
    if b.starts_with(evaltally_format::json::BOM) || !evaltally_format::damage::find(b, 1).is_empty() {
        return Err(Slow);
    }
    let members = file.json_members().ok_or(Slow)?;
    let keys: Vec<Range<usize>> = members.iter().map(|m| m.key.clone()).collect();
    if !distinct(b, &keys) {
        return Err(Slow);
    }
    let top = |key: &str| members.iter().find(|m| &b[m.key.clone()] == key.as_bytes()).map(|m| &m.value);
    let mut out = Results { head: Map::new(), parsed: Vec::new(), listed: false, table: false };
    results(b, top("results").ok_or(Slow)?.start, &mut out)?;
    // Results without a test case description take their names from the table: the
    // tolerant reader reads it.
    if !out.listed || out.table && out.parsed.iter().any(|p| !p.described()) {
        return Err(Slow);
    }
    let config = one_member(b, top("config"), "description")?;
    let metadata = one_member(b, top("metadata"), "promptfooVersion")?;
    let mut notes = Vec::new();
    let head = Head::new(config.as_ref(), metadata.as_ref(), &out.head, &mut notes);
    let eval = settle(head, out.parsed, &mut notes);
    if notes.is_empty() { Ok(eval) } else { Err(Slow) }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// What the runs are made of: id, model, repeat, outcome and label of every result.
    fn summary(eval: &Eval) -> Vec<(String, String, usize, String, Option<String>)> {
        let r = &eval.results;
        r.iter()
            .map(|r| {
                let v = &r.verdict;
                (r.id.clone(), r.model.clone(), r.repeat, format!("{:?}", v.outcome), v.error_type.clone())
            })
            .collect()
    }

    fn fast(doc: &str) -> Option<Eval> {
        read(&Input::new(Path::new("out.json"), doc.as_bytes(), false))
    }

    /// Where the fast path reads, it reads what the tolerant reader reads.
    #[test]
    fn agrees_with_the_tolerant_reader() {
        let doc = r#"{"evalId": "e", "config": {"description": "suite", "tests": [{"x": [1, {"y": "}"}]}]},
          "metadata": {"promptfooVersion": "0.1"},
          "results": {"version": 3, "timestamp": "t", "prompts": [{"raw": "big"}], "results": [
            {"success": true, "failureReason": 0, "prompt": {"raw": "[\"x\"]", "label": "P"}, "provider": {"id": "m", "label": ""},
             "testCase": {"description": "capital", "vars": {"c": "France"}, "assert": [{"type": "equals"}]}, "testIdx": 0, "promptIdx": 0,
             "response": {"output": "Paris \"x\" }", "cost": 0.5, "tokenUsage": {"prompt": 1}}},
            {"success": false, "failureReason": 1, "prompt": {"label": "P"}, "provider": "other", "vars": {"c": "Peru", "n": [1, 2]},
             "gradingResult": {"pass": false, "reason": "no", "componentResults": [{"pass": false, "assertion": {"type": "llm-rubric"}, "reason": "r"}]},
             "testIdx": 1, "promptIdx": 0, "latencyMs": 12},
            {"success": false, "failureReason": 2, "error": "429", "promptId": "my-prompt", "provider": {"label": "m"}, "testCase": {"vars": 3, "description": "capital"}, "vars": {"c": "Chad"}, "testIdx": 2}
          ], "stats": {"successes": 1, "failures": 1, "errors": 1}}}"#;
        let (slow, notes) = crate::eval::parse(Path::new("out.json"), doc.as_bytes(), None).unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        let fast = fast(doc).expect("the fast path reads it");
        assert_eq!(summary(&fast), summary(&slow));
        assert_eq!((&fast.category, &fast.meta), (&slow.category, &slow.meta));
        let verdicts = |e: &Eval| e.results.iter().map(|r| r.verdict.clone()).collect::<Vec<_>>();
        assert_eq!(verdicts(&fast), verdicts(&slow));
    }

    /// Whatever the tolerant reader would say something about goes to it.
    #[test]
    fn leaves_to_the_tolerant_reader_what_it_would_note() {
        let ok =
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}, "provider": "m"}]}}"#;
        assert!(fast(ok).is_some());
        for doc in [
            r#"{"results": {"version": 4, "results": [{"success": true, "prompt": {"label": "P"}, "provider": "m"}]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}}]}}"#,
            r#"{"results": {"version": 3, "results": [7]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "success": true, "prompt": {"label": "P"}, "provider": "m"}]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P", "label": "Q"}, "provider": "m"}]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}, "provider": {"id": "m", "id": "n"}}]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}, "provider": "m", "latencyMs": 1.}]}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}, "provider": "m"}], "stats": {"successes": 2, "failures": 0, "errors": 0}}}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P"}, "provider": "m"}]}"#,
            r#"{"results": {"version": 3, "results": [{"success": true, "prompt": {"label": "P\u0000"}, "provider": "m"}]}, "results": 1}"#,
            "\u{feff}{\"results\": {\"version\": 3, \"results\": []}}",
            "{\"results\": {\"version\": 3, \"results\": [], \"x\": \"\u{1}\"}}",
            r#"{"results": {"version": 3}}"#,
            r#"{"results": []}"#,
            "[]",
        ] {
            assert!(fast(doc).is_none(), "{doc}");
        }
    }
}
