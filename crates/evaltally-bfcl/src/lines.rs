//! JSON Lines plumbing: splitting a buffer into lines, and the few fields of each line
//! that analyses need, deserialized without copying (everything else is skipped).

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use serde_json::value::RawValue;

/// Iterates over the lines of a JSON Lines buffer as (1-based line number, bytes).
///
/// A UTF-8 byte order mark at the start and a `\r` before each `\n` are dropped; a last
/// line without a final newline is still a line.
///
/// ```
/// let lines: Vec<_> = evaltally_bfcl::lines::split(b"\xEF\xBB\xBF{}\r\n\n{\"a\":1}").collect();
/// assert_eq!(lines, [(1, &b"{}"[..]), (2, &b""[..]), (3, &b"{\"a\":1}"[..])]);
/// ```
pub fn split(buf: &[u8]) -> impl Iterator<Item = (u64, &[u8])> + '_ {
    let buf = buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(buf);
    let mut rest = buf;
    let mut line_no = 0u64;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        line_no += 1;
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(pos) => (&rest[..pos], &rest[pos + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        Some((line_no, line.strip_suffix(b"\r").unwrap_or(line)))
    })
}

/// Whether a line holds nothing but ASCII white space.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// A test id as found in a file: the real string id, or an integer (1-based in old score
/// files, 0-based `idx` in v1 result files).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawId<'a> {
    /// A string id, borrowed from the line when it has no escapes.
    Str(Cow<'a, str>),
    /// An integer id.
    Int(i64),
    /// Any other JSON value (an id of the wrong type).
    Other,
}

impl<'de: 'a, 'a> Deserialize<'de> for RawId<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawId<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or integer id")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(RawId::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(RawId::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(RawId::Int(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(i64::try_from(v).map_or(RawId::Other, RawId::Int))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(RawId::Other)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(RawId::Other)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(RawId::Other)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(RawId::Other)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(RawId::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// The fields of a result line that analyses use.
#[derive(Debug, Deserialize)]
pub struct ResultLine<'a> {
    /// The test id (v2 and later).
    #[serde(borrow, default)]
    pub id: Option<RawId<'a>>,
    /// The 0-based test index (v1 result files).
    #[serde(default)]
    pub idx: Option<RawId<'a>>,
    /// The model's output, kept as raw JSON text.
    #[serde(borrow, default)]
    pub result: Option<&'a RawValue>,
}

/// Where a result line's test id came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdSource {
    /// A string `id`: the real id.
    Id,
    /// An integer `id`, named `<category>_<n>`.
    IntegerId,
    /// A v1 `idx` (0-based), named `<category>_<idx>`.
    Idx,
}

/// Why a result line has no usable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdProblem {
    /// Neither `id` nor `idx`.
    Missing,
    /// `id` or `idx` is neither a string nor an integer.
    WrongType,
}

impl<'a> ResultLine<'a> {
    /// The test id of this line: the string `id`, or `<category>_<n>` for an integer `id`
    /// or a v1 `idx`.
    ///
    /// ```
    /// use evaltally_bfcl::lines::{IdSource, ResultLine};
    /// let v1: ResultLine<'_> = serde_json::from_str(r#"{"idx": 13, "result": []}"#).unwrap();
    /// assert_eq!(v1.test_id("simple").unwrap(), ("simple_13".into(), IdSource::Idx));
    /// ```
    pub fn test_id(&self, category: &str) -> Result<(Cow<'a, str>, IdSource), IdProblem> {
        match (&self.id, &self.idx) {
            (Some(RawId::Str(s)), _) => Ok((s.clone(), IdSource::Id)),
            (Some(RawId::Int(n)), _) => Ok((Cow::Owned(format!("{category}_{n}")), IdSource::IntegerId)),
            (None, Some(RawId::Int(n))) => Ok((Cow::Owned(format!("{category}_{n}")), IdSource::Idx)),
            (Some(_), _) | (None, Some(_)) => Err(IdProblem::WrongType),
            (None, None) => Err(IdProblem::Missing),
        }
    }
}

impl ResultLine<'_> {
    /// Whether `result` is the inference-crash marker `"Error during inference: …"`.
    pub fn is_inference_error(&self) -> bool {
        self.result.is_some_and(|r| r.get().starts_with("\"Error during inference"))
    }
}

/// The fields of a score line that analyses use: either the summary line or a failure.
#[derive(Debug, Deserialize)]
pub struct ScoreLine<'a> {
    /// The test id; absent on the summary line.
    #[serde(borrow, default)]
    pub id: Option<RawId<'a>>,
    /// `false` on every failure entry.
    #[serde(default)]
    pub valid: Option<serde_json::Value>,
    /// Top-level error label (single-turn failures, old multi-turn failures).
    #[serde(borrow, default)]
    pub error_type: Option<Cow<'a, str>>,
    /// The error: a list, a string, or an object with `error_type` (multi-turn, agentic).
    #[serde(borrow, default)]
    pub error: Option<&'a RawValue>,
    /// The test entry, whose `id` is the real id when the score id is an integer.
    #[serde(borrow, default)]
    pub prompt: Option<&'a RawValue>,
    /// Summary: accuracy.
    #[serde(default)]
    pub accuracy: Option<serde_json::Value>,
    /// Summary: number of tests that passed.
    #[serde(default)]
    pub correct_count: Option<serde_json::Value>,
    /// Summary: number of tests evaluated.
    #[serde(default)]
    pub total_count: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct ErrorObject<'a> {
    #[serde(borrow, default)]
    error_type: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct PromptObject<'a> {
    #[serde(borrow, default)]
    id: Option<RawId<'a>>,
}

impl<'a> ScoreLine<'a> {
    /// Whether this is a summary line (counts, no id).
    pub fn is_summary(&self) -> bool {
        self.id.is_none() && (self.total_count.is_some() || self.correct_count.is_some() || self.accuracy.is_some())
    }

    /// The error label, from the top level or from `error.error_type`.
    pub fn error_label(&self) -> Option<Cow<'a, str>> {
        if let Some(label) = &self.error_type {
            return Some(label.clone());
        }
        let raw = self.error?;
        if !raw.get().starts_with('{') {
            return None;
        }
        serde_json::from_str::<ErrorObject<'a>>(raw.get()).ok()?.error_type
    }

    /// The string id inside `prompt`, if the prompt is an object that has one.
    pub fn prompt_id(&self) -> Option<Cow<'a, str>> {
        let raw = self.prompt?;
        if !raw.get().starts_with('{') {
            return None;
        }
        match serde_json::from_str::<PromptObject<'a>>(raw.get()).ok()?.id? {
            RawId::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Reads a summary count: a non-negative integer (an integral float is accepted).
pub fn count(value: Option<&serde_json::Value>) -> Option<u64> {
    let v = value?;
    v.as_u64().or_else(|| {
        v.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15).map(|f| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = f as u64;
            n
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_every_shape() {
        let line: ResultLine<'_> = serde_json::from_str(r#"{"id": "simple_0", "result": []}"#).unwrap();
        assert_eq!(line.id, Some(RawId::Str(Cow::Borrowed("simple_0"))));
        let line: ResultLine<'_> = serde_json::from_str(r#"{"idx": 3, "result": []}"#).unwrap();
        assert_eq!(line.idx, Some(RawId::Int(3)));
        let line: ResultLine<'_> = serde_json::from_str(r#"{"id": ["x"]}"#).unwrap();
        assert_eq!(line.id, Some(RawId::Other));
        let line: ResultLine<'_> = serde_json::from_str(r#"{"id": "a\"b"}"#).unwrap();
        assert_eq!(line.id, Some(RawId::Str(Cow::Owned("a\"b".into()))));
    }

    #[test]
    fn error_label_from_top_level_or_object() {
        let top: ScoreLine<'_> =
            serde_json::from_str(r#"{"id":"a","error":["x"],"error_type":"value_error:string"}"#).unwrap();
        assert_eq!(top.error_label().as_deref(), Some("value_error:string"));
        let nested: ScoreLine<'_> = serde_json::from_str(
            r#"{"id":"a","error":{"error_message":"m","error_type":"multi_turn:force_terminated"}}"#,
        )
        .unwrap();
        assert_eq!(nested.error_label().as_deref(), Some("multi_turn:force_terminated"));
        let string: ScoreLine<'_> = serde_json::from_str(r#"{"id":"a","error":"boom"}"#).unwrap();
        assert_eq!(string.error_label(), None);
    }

    #[test]
    fn summary_and_prompt_id() {
        let s: ScoreLine<'_> =
            serde_json::from_str(r#"{"accuracy": 0.5, "correct_count": 1, "total_count": 2}"#).unwrap();
        assert!(s.is_summary());
        assert_eq!(count(s.total_count.as_ref()), Some(2));
        let f: ScoreLine<'_> = serde_json::from_str(r#"{"id": 8, "prompt": {"id": "irrelevance_7"}}"#).unwrap();
        assert!(!f.is_summary());
        assert_eq!(f.prompt_id().as_deref(), Some("irrelevance_7"));
        let agentic: ScoreLine<'_> = serde_json::from_str(r#"{"id": "m_0", "prompt": [[{"role":"user"}]]}"#).unwrap();
        assert_eq!(agentic.prompt_id(), None);
    }

    #[test]
    fn inference_error_marker() {
        let l: ResultLine<'_> =
            serde_json::from_str(r#"{"id":"a","result":"Error during inference: timeout","traceback":"…"}"#).unwrap();
        assert!(l.is_inference_error());
        let l: ResultLine<'_> = serde_json::from_str(r#"{"id":"a","result":"fine"}"#).unwrap();
        assert!(!l.is_inference_error());
    }
}
