//! Everything the files say about one test: status, error, prompt, answers, cost.

use std::path::Path;

use evaltally_core::{Diagnostic, Location, Message, Status, TestDetail};
use memchr::memmem;
use serde_json::Value;

use crate::layout::FilePair;
use crate::lines::{self, RawId, ResultRecord, ScoreRecord};

/// Whether `pair` may hold test `id`: its category is the id's category, or a prefix of
/// the id (`memory` for a raw dataset id `memory_0-customer-0`).
pub fn may_hold(pair: &FilePair, id: &str) -> bool {
    evaltally_core::id::category_of(id) == pair.category
        || id.strip_prefix(pair.category.as_str()).is_some_and(|rest| rest.starts_with('_'))
}

/// A line of a file that matched.
struct Found {
    line_no: u64,
    value: Value,
}

fn read(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    evaltally_format::file::read_or_error(path)
}

/// Finds the result line of `id` and its position among the file's tests.
fn find_result(buf: &[u8], category: &str, id: &str) -> Option<(Found, usize)> {
    let needle = format!("\"{id}\"");
    let finder = memmem::Finder::new(needle.as_bytes());
    // First the lines that contain the id as a JSON string; then, for files that key
    // tests by `idx` or integer ids, every line.
    for quick in [true, false] {
        let mut position = 0;
        for (line_no, line) in lines::split(buf) {
            if lines::is_blank(line) {
                continue;
            }
            if quick && finder.find(line).is_none() {
                position += 1;
                continue;
            }
            let Ok(parsed) = ResultRecord::parse(line) else { continue };
            let Ok((line_id, _)) = parsed.test_id(category) else { continue };
            if line_id == id {
                let value = serde_json::from_slice(line).ok()?;
                return Some((Found { line_no, value }, position));
            }
            position += 1;
        }
    }
    None
}

/// Finds the failure entry of `id` (whose result line is at `position`) in a score file.
fn find_failure(buf: &[u8], id: &str, position: Option<usize>) -> Option<Found> {
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            continue;
        }
        let Ok(parsed) = ScoreRecord::parse(line) else { continue };
        let matches = match parsed.raw_id() {
            Some(RawId::Str(s)) => s == id,
            Some(RawId::Int(n)) => match parsed.prompt_id() {
                Some(p) => p == id,
                None => position.is_some_and(|p| i64::try_from(p + 1).is_ok_and(|p1| p1 == n)),
            },
            _ => false,
        };
        if matches && !parsed.is_valid() {
            return serde_json::from_slice(line).ok().map(|value| Found { line_no, value });
        }
    }
    None
}

/// Looks `id` up in the files of `pair`.
///
/// `Ok(None)` when the pair has no result file (a score file alone cannot say whether the
/// test ran). A test absent from the result file is [`Status::NotRun`].
pub fn show(pair: &FilePair, id: &str) -> Result<Option<TestDetail>, Diagnostic> {
    show_said(pair, id).map(|(detail, _)| detail)
}

/// [`show`], with a warning for each of the test's token counts that is no count (shown as
/// `-`).
pub(crate) fn show_said(pair: &FilePair, id: &str) -> Result<(Option<TestDetail>, Vec<Diagnostic>), Diagnostic> {
    let Some(result_path) = &pair.result else { return Ok((None, Vec::new())) };
    let results = read(result_path)?;
    let Some((found, position)) = find_result(&results, &pair.category, id) else {
        return Ok((Some(TestDetail::new(&pair.run, &pair.model, &pair.category, id, Status::NotRun)), Vec::new()));
    };
    let mut d = TestDetail::new(&pair.run, &pair.model, &pair.category, id, Status::Unscored);
    d.result_at = Some(Location { path: result_path.clone(), line: found.line_no });
    let line = &found.value;
    d.answer = line.get("result").cloned();
    d.inference_error =
        line.get("result").and_then(Value::as_str).is_some_and(|s| s.starts_with("Error during inference"));
    let mut not_counts = Vec::new();
    for (key, count) in [("input_token_count", &mut d.input_tokens), ("output_token_count", &mut d.output_tokens)] {
        let Some(x) = line.get(key).and_then(sum) else { continue };
        *count = to_count(x);
        if count.is_none() {
            not_counts.push(key);
        }
    }
    let said: Vec<Diagnostic> = not_counts
        .first()
        .map(|key| {
            let first = format!("`{}`'s `{key}`", evaltally_core::text::printable(id));
            let message = evaltally_core::text::token_not_shown(not_counts.len(), &first, NOT_A_COUNT);
            Diagnostic::warning(result_path, message)
        })
        .into_iter()
        .collect();
    d.latency_seconds = line.get("latency").and_then(sum);
    if d.inference_error {
        d.error_message = line.get("result").and_then(Value::as_str).map(str::to_string);
        d.error_details = line.get("traceback").cloned();
    }

    let Some(score_path) = &pair.score else { return Ok((Some(d), said)) };
    let scores = read(score_path)?;
    match find_failure(&scores, id, Some(position)) {
        None => d.status = Status::Passed,
        Some(failure) => {
            d.status = Status::Failed;
            d.score_at = Some(Location { path: score_path.clone(), line: failure.line_no });
            fill_failure(&mut d, &failure.value);
            if d.inference_error || d.error_type.as_deref().is_some_and(crate::is_inference_error) {
                d.status = Status::Errored;
            }
        }
    }
    Ok((Some(d), said))
}

fn fill_failure(d: &mut TestDetail, entry: &Value) {
    let error = entry.get("error");
    d.error_type = entry
        .get("error_type")
        .or_else(|| error.and_then(|e| e.get("error_type")))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| d.inference_error.then(|| "inference_error".to_string()));
    if let Some(e) = error {
        if let Some(message) = error_message(e) {
            d.error_message = Some(message);
        }
        d.error_details = error_details(e).or(d.error_details.take());
    }
    if let Some(prompt) = entry.get("prompt") {
        d.question = question(prompt);
    }
    d.decoded_answer = ["model_result_decoded", "decoded_result"].iter().find_map(|k| entry.get(*k)).cloned();
    if d.answer.is_none() {
        d.answer = ["model_result_raw", "model_result"].iter().find_map(|k| entry.get(*k)).cloned();
    }
    d.expected = entry.get("possible_answer").cloned();
}

/// The message of an error of any shape: a string, a list of strings (and objects), or an
/// object with `error_message` or `message` (itself a string or a list).
pub(crate) fn error_message(e: &Value) -> Option<String> {
    match e {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(Value::as_str).map(str::to_string).collect();
            (!parts.is_empty()).then(|| parts.join("\n"))
        }
        Value::Object(map) => map.get("error_message").or_else(|| map.get("message")).and_then(error_message),
        _ => None,
    }
}

/// Structured error details: an object's `details`, or the non-string items of a list.
fn error_details(e: &Value) -> Option<Value> {
    match e {
        Value::Object(map) => map.get("details").cloned(),
        Value::Array(items) => {
            let rest: Vec<Value> = items.iter().filter(|v| !v.is_string()).cloned().collect();
            (!rest.is_empty()).then_some(Value::Array(rest))
        }
        _ => None,
    }
}

/// The prompt's question turns: `prompt.question` as a list of turns of messages (v2+), a
/// string (v1), or the prompt itself as the list (agentic entries).
fn question(prompt: &Value) -> Vec<Vec<Message>> {
    let q = match prompt {
        Value::Object(map) => map.get("question"),
        Value::Array(_) => Some(prompt),
        _ => None,
    };
    match q {
        Some(Value::String(s)) => vec![vec![Message { role: "user".into(), content: s.clone() }]],
        Some(Value::Array(turns)) => turns
            .iter()
            .map(|turn| match turn {
                Value::Array(msgs) => msgs.iter().map(message).collect(),
                other => vec![message(other)],
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn message(v: &Value) -> Message {
    match v {
        Value::Object(m) => Message {
            role: m.get("role").and_then(Value::as_str).unwrap_or("user").to_string(),
            content: match m.get("content") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            },
        },
        Value::String(s) => Message { role: "user".into(), content: s.clone() },
        other => Message { role: "user".into(), content: other.to_string() },
    }
}

/// The sum of every number in a value (token counts and latencies are per turn and step
/// in multi-turn results).
pub(crate) fn sum(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Array(items) => items.iter().map(sum).try_fold(0.0, |acc, x| x.map(|x| acc + x)),
        _ => None,
    }
}

/// What a token count that is no count is, in BFCL's files ([`to_count`]).
pub(crate) const NOT_A_COUNT: &str = "negative, or past 2^64";

/// A token count from the sum of a line's numbers: `None` where no count can be (negative,
/// not a number, or past `u64`), which is left out of the sums and said.
pub(crate) fn to_count(x: f64) -> Option<u64> {
    evaltally_core::count_of(x.round())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn error_messages_of_every_shape() {
        assert_eq!(error_message(&json!("boom")).as_deref(), Some("boom"));
        assert_eq!(error_message(&json!(["a", {"Model Result Index 0": {}}, "b"])).as_deref(), Some("a\nb"));
        assert_eq!(
            error_message(&json!({"error_message": "state differs", "error_type": "multi_turn:x"})).as_deref(),
            Some("state differs")
        );
        assert_eq!(error_message(&json!({"error_message": ["empty turn 1"]})).as_deref(), Some("empty turn 1"));
        assert_eq!(error_message(&json!({"message": "old shape", "details": {}})).as_deref(), Some("old shape"));
        assert_eq!(error_details(&json!(["a", {"k": 1}])), Some(json!([{"k": 1}])));
    }

    #[test]
    fn questions_of_every_shape() {
        let v2 = question(
            &json!({"question": [[{"role": "user", "content": "hi"}], [{"role": "user", "content": "more"}]]}),
        );
        assert_eq!(v2.len(), 2);
        assert_eq!(v2[1][0].content, "more");
        let v1 = question(&json!({"question": "What is 2+2?", "function": {}}));
        assert_eq!(v1, vec![vec![Message { role: "user".into(), content: "What is 2+2?".into() }]]);
        let agentic = question(&json!([[{"role": "user", "content": "colour?"}]]));
        assert_eq!(agentic[0][0].content, "colour?");
    }

    #[test]
    fn nested_counts_are_summed() {
        assert_eq!(sum(&json!([[900, 950], [10]])), Some(1860.0));
        assert_eq!(sum(&json!(0.5)), Some(0.5));
        assert_eq!(sum(&json!("x")), None);
    }
}
