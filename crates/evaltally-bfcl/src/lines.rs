//! JSON Lines plumbing: splitting a buffer into lines, and the few fields of result and
//! score records that analyses need, found with [`scan`](crate::scan) without building
//! the rest of the line.

use std::borrow::Cow;
use std::ops::Range;

use crate::scan::{ScanError, int_value, scan_object, string_value};

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
    let buf = evaltally_format::json::without_bom(buf);
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

impl<'a> RawId<'a> {
    /// Reads an id from the raw JSON text of its value.
    ///
    /// ```
    /// use evaltally_bfcl::lines::RawId;
    /// assert_eq!(RawId::from_raw(br#""simple_0""#), RawId::Str("simple_0".into()));
    /// assert_eq!(RawId::from_raw(b"8"), RawId::Int(8));
    /// assert_eq!(RawId::from_raw(b"[1]"), RawId::Other);
    /// ```
    pub fn from_raw(raw: &'a [u8]) -> Self {
        if raw.first() == Some(&b'"') {
            return string_value(raw).map_or(RawId::Other, RawId::Str);
        }
        int_value(raw).map_or(RawId::Other, RawId::Int)
    }
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

/// A raw JSON value as it appears in the file, for messages: lossy UTF-8 (an invalid byte
/// shows as U+FFFD), at most 40 characters.
///
/// ```
/// assert_eq!(evaltally_bfcl::lines::excerpt(b"\"caf\xe9\""), "\"caf\u{fffd}\"");
/// assert_eq!(evaltally_bfcl::lines::excerpt(&[b'7'; 50]).chars().count(), 41);
/// ```
pub fn excerpt(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        out.push('…');
    }
    out
}

fn get<'a>(line: &'a [u8], range: Option<&Range<usize>>) -> Option<&'a [u8]> {
    range.map(|r| &line[r.clone()])
}

/// A result line's raw `latency`, `input_token_count` and `output_token_count`.
pub(crate) type RawNumbers<'a> = [Option<&'a [u8]>; 3];

/// The fields of a result line that analyses use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultRecord<'a> {
    /// The raw `id` value (v2 and later).
    pub id: Option<&'a [u8]>,
    /// The raw `idx` value (v1).
    pub idx: Option<&'a [u8]>,
    /// The raw `result` value: the model's output.
    pub result: Option<&'a [u8]>,
    /// A key among these written twice on the line (its last value is read).
    pub repeated: Option<&'static str>,
}

impl<'a> ResultRecord<'a> {
    /// Reads a result line.
    pub fn parse(line: &'a [u8]) -> Result<Self, ScanError> {
        const NAMES: [&str; 3] = ["id", "idx", "result"];
        const KEYS: [&[u8]; 3] = [b"id", b"idx", b"result"];
        let mut found = [None, None, None];
        let repeated = scan_object(line, &KEYS, &mut found)?;
        Ok(Self {
            id: get(line, found[0].as_ref()),
            idx: get(line, found[1].as_ref()),
            result: get(line, found[2].as_ref()),
            repeated: repeated.map(|i| NAMES[i]),
        })
    }

    /// [`parse`](Self::parse), and the raw `latency`, `input_token_count` and
    /// `output_token_count` of the line from the same scan (for records).
    pub(crate) fn parse_with_numbers(line: &'a [u8]) -> Result<(Self, RawNumbers<'a>), ScanError> {
        const NAMES: [&str; 3] = ["id", "idx", "result"];
        const KEYS: [&[u8]; 6] = [b"id", b"idx", b"result", b"latency", b"input_token_count", b"output_token_count"];
        let mut found = [None, None, None, None, None, None];
        let repeated = scan_object(line, &KEYS, &mut found)?;
        let numbers = [get(line, found[3].as_ref()), get(line, found[4].as_ref()), get(line, found[5].as_ref())];
        let record = match repeated {
            // The first key written twice is a number's: whether one of the record's keys
            // is repeated too is for the record's own scan to say (a rare line).
            Some(i) if i >= NAMES.len() => Self::parse(line)?,
            _ => Self {
                id: get(line, found[0].as_ref()),
                idx: get(line, found[1].as_ref()),
                result: get(line, found[2].as_ref()),
                repeated: repeated.map(|i| NAMES[i]),
            },
        };
        Ok((record, numbers))
    }

    /// The test id of this line: the string `id`, or `<category>_<n>` for an integer `id`
    /// or a v1 `idx`.
    ///
    /// ```
    /// use evaltally_bfcl::lines::{IdSource, ResultRecord};
    /// let v1 = ResultRecord::parse(br#"{"idx": 13, "result": []}"#).unwrap();
    /// assert_eq!(v1.test_id("simple").unwrap(), ("simple_13".into(), IdSource::Idx));
    /// ```
    pub fn test_id(&self, category: &str) -> Result<(Cow<'a, str>, IdSource), IdProblem> {
        match (self.id.map(RawId::from_raw), self.idx.map(RawId::from_raw)) {
            (Some(RawId::Str(s)), _) => Ok((s, IdSource::Id)),
            (Some(RawId::Int(n)), _) => Ok((Cow::Owned(format!("{category}_{n}")), IdSource::IntegerId)),
            (None, Some(RawId::Int(n))) => Ok((Cow::Owned(format!("{category}_{n}")), IdSource::Idx)),
            (Some(_), _) | (None, Some(_)) => Err(IdProblem::WrongType),
            (None, None) => Err(IdProblem::Missing),
        }
    }

    /// Whether `result` is the inference-crash marker `"Error during inference: …"`.
    pub fn is_inference_error(&self) -> bool {
        self.result.is_some_and(|r| r.starts_with(b"\"Error during inference"))
    }
}

/// The fields of a score line that analyses use: either the summary line or a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRecord<'a> {
    /// The raw test id; absent on the summary line.
    pub id: Option<&'a [u8]>,
    /// The raw `valid` value (`false` on every failure entry).
    pub valid: Option<&'a [u8]>,
    /// The raw top-level error label (single-turn failures, old multi-turn failures).
    pub error_type: Option<&'a [u8]>,
    /// The raw error: a list, a string, or an object with `error_type`.
    pub error: Option<&'a [u8]>,
    /// The raw test entry, whose `id` is the real id when the score id is an integer.
    pub prompt: Option<&'a [u8]>,
    /// Summary: raw `accuracy`.
    pub accuracy: Option<&'a [u8]>,
    /// Summary: raw `correct_count`.
    pub correct_count: Option<&'a [u8]>,
    /// Summary: raw `total_count`.
    pub total_count: Option<&'a [u8]>,
    /// A key among these written twice on the line (its last value is read).
    pub repeated: Option<&'static str>,
}

impl<'a> ScoreRecord<'a> {
    /// Reads a score line.
    pub fn parse(line: &'a [u8]) -> Result<Self, ScanError> {
        const NAMES: [&str; 8] =
            ["id", "valid", "error_type", "error", "prompt", "accuracy", "correct_count", "total_count"];
        const KEYS: [&[u8]; 8] =
            [b"id", b"valid", b"error_type", b"error", b"prompt", b"accuracy", b"correct_count", b"total_count"];
        let mut f = [None, None, None, None, None, None, None, None];
        let repeated = scan_object(line, &KEYS, &mut f)?;
        let g = |i: usize| get(line, f[i].as_ref());
        Ok(Self {
            id: g(0),
            valid: g(1),
            error_type: g(2),
            error: g(3),
            prompt: g(4),
            accuracy: g(5),
            correct_count: g(6),
            total_count: g(7),
            repeated: repeated.map(|i| NAMES[i]),
        })
    }

    /// Whether this is a summary line (counts, no id).
    pub fn is_summary(&self) -> bool {
        self.id.is_none() && (self.total_count.is_some() || self.correct_count.is_some() || self.accuracy.is_some())
    }

    /// Whether the entry says `"valid": true` (score files list failures only).
    pub fn is_valid(&self) -> bool {
        self.valid == Some(b"true")
    }

    /// The test id.
    pub fn raw_id(&self) -> Option<RawId<'a>> {
        self.id.map(RawId::from_raw)
    }

    /// The error label, from the top level or from `error.error_type`.
    ///
    /// ```
    /// use evaltally_bfcl::lines::ScoreRecord;
    /// let top = ScoreRecord::parse(br#"{"id":"a","error":["x"],"error_type":"value_error:string"}"#).unwrap();
    /// assert_eq!(top.error_label().as_deref(), Some("value_error:string"));
    /// let nested = ScoreRecord::parse(br#"{"id":"a","error":{"error_type":"multi_turn:force_terminated"}}"#).unwrap();
    /// assert_eq!(nested.error_label().as_deref(), Some("multi_turn:force_terminated"));
    /// ```
    pub fn error_label(&self) -> Option<Cow<'a, str>> {
        if let Some(raw) = self.error_type {
            return string_value(raw);
        }
        member_string(self.error?, b"error_type")
    }

    /// The string id inside `prompt`, if the prompt is an object that has one.
    pub fn prompt_id(&self) -> Option<Cow<'a, str>> {
        member_string(self.prompt?, b"id")
    }
}

/// The string value of member `key` of a raw JSON object.
fn member_string<'a>(object: &'a [u8], key: &[u8]) -> Option<Cow<'a, str>> {
    if !object.starts_with(b"{") {
        return None;
    }
    let mut found = [None];
    scan_object(object, &[key], &mut found).ok()?;
    string_value(&object[found[0].clone()?])
}

/// Reads a summary count: a non-negative integer (an integral float is accepted).
///
/// ```
/// use evaltally_bfcl::lines::count;
/// assert_eq!(count(Some(b"200")), Some(200));
/// assert_eq!(count(Some(b"200.0")), Some(200));
/// assert_eq!(count(Some(b"-1")), None);
/// assert_eq!(count(Some(b"\"200\"")), None);
/// ```
pub fn count(raw: Option<&[u8]>) -> Option<u64> {
    let text = std::str::from_utf8(raw?).ok()?;
    text.parse::<u64>().ok().or_else(|| {
        text.parse::<f64>().ok().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15).map(|f| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = f as u64;
            n
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(line: &str) -> ResultRecord<'_> {
        ResultRecord::parse(line.as_bytes()).unwrap()
    }

    fn score(line: &str) -> ScoreRecord<'_> {
        ScoreRecord::parse(line.as_bytes()).unwrap()
    }

    #[test]
    fn ids_of_every_shape() {
        assert_eq!(result(r#"{"id": "simple_0", "result": []}"#).test_id("simple").unwrap().0, "simple_0");
        assert_eq!(
            result(r#"{"idx": 3, "result": []}"#).test_id("simple").unwrap(),
            ("simple_3".into(), IdSource::Idx)
        );
        assert_eq!(result(r#"{"id": 4}"#).test_id("x").unwrap(), ("x_4".into(), IdSource::IntegerId));
        assert_eq!(result(r#"{"id": ["x"]}"#).test_id("x"), Err(IdProblem::WrongType));
        assert_eq!(result(r#"{"result": []}"#).test_id("x"), Err(IdProblem::Missing));
        assert_eq!(result(r#"{"id": "a\"b"}"#).test_id("x").unwrap().0, "a\"b");
    }

    #[test]
    fn error_label_from_top_level_or_object() {
        assert_eq!(score(r#"{"id":"a","error":"boom"}"#).error_label(), None);
        assert_eq!(score(r#"{"id":"a","error":["x"]}"#).error_label(), None);
    }

    #[test]
    fn summary_and_prompt_id() {
        let s = score(r#"{"accuracy": 0.5, "correct_count": 1, "total_count": 2}"#);
        assert!(s.is_summary());
        assert_eq!(count(s.total_count), Some(2));
        let f = score(r#"{"id": 8, "prompt": {"id": "irrelevance_7"}}"#);
        assert!(!f.is_summary());
        assert_eq!(f.raw_id(), Some(RawId::Int(8)));
        assert_eq!(f.prompt_id().as_deref(), Some("irrelevance_7"));
        let agentic = score(r#"{"id": "m_0", "prompt": [[{"role":"user"}]]}"#);
        assert_eq!(agentic.prompt_id(), None);
        assert!(score(r#"{"id": "a", "valid": true}"#).is_valid());
        assert!(!score(r#"{"id": "a", "valid": false}"#).is_valid());
    }

    #[test]
    fn inference_error_marker() {
        assert!(
            result(r#"{"id":"a","result":"Error during inference: timeout","traceback":"…"}"#).is_inference_error()
        );
        assert!(!result(r#"{"id":"a","result":"fine"}"#).is_inference_error());
    }
}
