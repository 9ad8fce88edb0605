//! A BFCL run as [`RunRecord`]s (one per model), for `convert` and `export`: outcomes and
//! error types as [`read_pair`](crate::read_pair) judges them, plus latency and token counts
//! from the result lines and error messages from the score lines.

use std::borrow::Cow;
use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_core::{Diagnostic, RunRecord, TestRecord};

use crate::layout::{FilePair, RunDir};
use crate::read::{Numbers, read_pair_with_numbers};
use crate::scan::{scan_object, string_value};
use crate::{PairOutcome, Scratch, lines};

/// Error messages per failed test id, from a score file.
fn failure_messages(buf: &[u8]) -> HashMap<Cow<'_, str>, String> {
    const KEYS: [&[u8]; 2] = [b"id", b"error"];
    let mut out = HashMap::new();
    for (_, line) in lines::split(buf) {
        let mut f = [None, None];
        if scan_object(line, &KEYS, &mut f).is_err() {
            continue;
        }
        let (Some(id), Some(err)) = (f[0].clone(), f[1].clone()) else { continue };
        let Some(id) = string_value(&line[id]) else { continue };
        if let Ok(Message(Some(msg))) = serde_json::from_slice::<Message>(&line[err]) {
            out.insert(id, msg);
        }
    }
    out
}

/// The message of an error of any shape, as [`crate::show::error_message`] finds it in the
/// parsed value: a string; the strings of a list, one a line; an object's
/// `error_message`, else its `message`. Read from `serde_json` without building the
/// value: an error's `details` (the model's whole response) is skipped, not copied.
struct Message(Option<String>);

impl<'de> serde::Deserialize<'de> for Message {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::DeserializeSeed::deserialize(MessageOf { item: false }, deserializer).map(Message)
    }
}

/// Reads a message from an error, or from an item of a list of them (`item`): an item is
/// a string or nothing, whatever else it holds.
#[derive(Clone, Copy)]
struct MessageOf {
    item: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for MessageOf {
    type Value = Option<String>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for MessageOf {
    type Value = Option<String>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Some(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Some(s))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut parts: Vec<String> = Vec::new();
        while let Some(part) = seq.next_element_seed(MessageOf { item: true })? {
            parts.extend(part);
        }
        Ok((!self.item && !parts.is_empty()).then(|| parts.join("\n")))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // The last value of a repeated key counts, as in the parsed object; `error_message`
        // decides whenever it is there, even when it holds no message.
        let (mut error_message, mut message) = (None, None);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "error_message" if !self.item => error_message = Some(map.next_value_seed(MessageOf { item: false })?),
                "message" if !self.item => message = Some(map.next_value_seed(MessageOf { item: false })?),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(error_message.or(message).flatten())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// The tests of one (run, model, category), with latencies, tokens and messages.
pub fn pair_records(pair: &FilePair, scratch: &mut Scratch, diags: &mut Vec<Diagnostic>) -> Vec<TestRecord> {
    let (read, tests) = pair_run_and_records(pair, scratch);
    diags.extend(read.diagnostics);
    tests
}

/// What [`read_pair`](crate::read_pair) gives for `pair` and the pair's test records
/// ([`pair_records`]), from one reading of its files and one scan of each line.
pub fn pair_run_and_records(pair: &FilePair, scratch: &mut Scratch) -> (PairOutcome, Vec<TestRecord>) {
    let mut read = read_pair_with_numbers(pair, scratch);
    let tests = match &read.run {
        Some(run) => tests_of(pair, run, scratch, &mut read.diagnostics),
        None => Vec::new(),
    };
    (read, tests)
}

fn tests_of(
    pair: &FilePair,
    run: &evaltally_core::CategoryRun,
    scratch: &Scratch,
    diags: &mut Vec<Diagnostic>,
) -> Vec<TestRecord> {
    // `read_pair` left the files' contents in the scratch buffers (each file is read once)
    // and each test's numbers beside its id.
    let messages = if pair.score.is_some() { failure_messages(scratch.score_bytes()) } else { HashMap::default() };
    let mut not_counts: (usize, Option<(String, &str)>) = (0, None);
    let tests = run
        .tests()
        .map(|t| {
            let Numbers { latency, input, output, not_a_count } = scratch.numbers_of(t.id);
            if let Some(key) = not_a_count {
                not_counts.0 += 1;
                not_counts.1.get_or_insert_with(|| (t.id.to_string(), key));
            }
            TestRecord {
                id: t.id.to_string(),
                category: pair.category.clone(),
                outcome: Some(t.outcome),
                error_type: t.error_type.map(|e| e.as_str().to_string()),
                error_message: messages.get(t.id).cloned(),
                duration_ms: latency.map(evaltally_core::seconds_to_ms),
                input_tokens: input,
                output_tokens: output,
                cost_usd: None,
            }
        })
        .collect();
    if let (n, Some((id, key))) = not_counts
        && let Some(path) = &pair.result
    {
        diags.push(Diagnostic::warning(
            path,
            evaltally_core::text::tokens_left_out(n, "test", crate::show::NOT_A_COUNT, &format!("`{id}`'s `{key}`")),
        ));
    }
    tests
}

/// The run's tests, one record per model, models in name order.
pub fn run_records(run: &RunDir, diags: &mut Vec<Diagnostic>) -> Vec<RunRecord> {
    let mut scratch = Scratch::default();
    let mut by_model: BTreeMap<String, RunRecord> = BTreeMap::new();
    for pair in run.files() {
        let tests = pair_records(&pair, &mut scratch, diags);
        let rec = by_model.entry(pair.model.clone()).or_insert_with(|| RunRecord {
            run: run.name.clone(),
            model: pair.model.clone(),
            format: "bfcl".to_string(),
            source: run.root.clone(),
            started_at: None,
            tests: Vec::new(),
            ..RunRecord::default()
        });
        rec.tests.extend(tests);
    }
    by_model.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::Message;

    /// What the records read before: the value parsed, then its message found.
    fn parsed(raw: &str) -> Option<String> {
        serde_json::from_str::<serde_json::Value>(raw).ok().as_ref().and_then(crate::show::error_message)
    }

    #[test]
    fn messages_are_found_as_in_the_parsed_value() {
        let cases = [
            r#""plain""#,
            r#""with \"escapes\" and \u00e9""#,
            r#"["a", "b"]"#,
            r#"["a", 1, {"x": "y"}, ["z"], "b"]"#,
            r#"[{"error_message": "an item's own message is not the list's"}, ["x"]]"#,
            "[1, 2]",
            "[]",
            r#"{"error_message": "m", "error_type": "t", "details": {"model_response": ["x", {"y": 1}]}}"#,
            r#"{"message": "only message"}"#,
            r#"{"message": "second", "error_message": "first"}"#,
            r#"{"error_message": 3, "message": "ignored: error_message decides"}"#,
            r#"{"error_message": ["l1", "l2"]}"#,
            r#"{"error_message": {"message": "nested"}}"#,
            r#"{"message": "a", "message": "b"}"#,
            r#"{"error_message": "a", "error_message": null, "message": "m"}"#,
            r#"{"details": "no message"}"#,
            "{}",
            "null",
            "true",
            "12",
            r#"{"error_message": "cut""#,
            r#"["a",]"#,
            "",
        ];
        for case in cases {
            let read = serde_json::from_str::<Message>(case).ok().and_then(|m| m.0);
            assert_eq!(read, parsed(case), "{case}");
        }
    }
}
