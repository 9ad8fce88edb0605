//! A fast reader for the few top-level fields of a JSON object (a JSON Lines record, or a
//! whole document being sniffed).
//!
//! BFCL lines are mostly fields nobody needs for stability (multi-turn lines are 10-60 KB,
//! 90% of it inference logs). [`scan_object`] walks the top level of one object, records
//! where the wanted members' values are, and skips everything else without building it:
//! strings are jumped over with `memchr2` to the next quote or backslash, and nested
//! containers 64 bytes at a time: bit masks of quotes and brackets give the bytes inside
//! strings (by prefix parity) and the nesting depth, so a block that cannot close the
//! container is passed over whole (blocks holding a backslash go byte by byte).
//!
//! The scan checks the structure that decides the answer: the line must be one complete
//! object (balanced brackets, terminated strings, `key: value` members separated by
//! commas at the top level, nothing after the closing brace), so a line cut short is
//! rejected with the byte where it went wrong, and a word among the object's own values must
//! be `true`, `false` or `null`. It does not check every byte of the skipped values (number
//! syntax, escapes, UTF-8 inside strings, words inside nested containers): that full check
//! belongs to `validate`.

mod skip;

use std::borrow::Cow;
use std::ops::Range;

use skip::{skip_container, skip_string};

/// Why a line is not a complete JSON object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanError {
    /// 0-based byte offset where the problem was found.
    pub offset: usize,
    /// What was expected there.
    pub message: &'static str,
}

/// `at byte 12: expected ...`.
///
/// ```
/// let e = evaltally_format::scan::ScanError { offset: 11, message: "expected `:`" };
/// assert_eq!(e.to_string(), "at byte 12: expected `:`");
/// ```
impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset + 1, self.message)
    }
}

impl std::error::Error for ScanError {}

impl ScanError {
    fn at(offset: usize, message: &'static str) -> Self {
        Self { offset, message }
    }
}

/// The offset of the first byte from `i` that is not JSON whitespace. Indented documents
/// have runs of spaces after each line end: those are passed 8 bytes at a time.
#[inline]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
    loop {
        match b.get(i) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => i += 1,
            _ => return i,
        }
        // Mostly one space (`"key": value`), or a line end before an indentation: only a
        // space starts a run worth a word at a time.
        if b.get(i) != Some(&b' ') {
            continue;
        }
        while let Some(w) = crate::bytes::word(b, i) {
            let other = w ^ SPACES;
            if other != 0 {
                i += (other.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
    }
}

/// Whether `c` can be in a number as the scan skips it: digits, `-`, `+`, `.`, `e` and `E`
/// (the order of these bytes is `validate`'s to check).
fn is_number_byte(c: u8) -> bool {
    matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// Skips a number or `true`/`false`/`null`; returns the offset just past it. A word must
/// be one of the three, exactly, or the scan fails at its first wrong byte, where
/// `serde_json` does (`"latency": fast` is not a value). A number's bytes are classified
/// sixteen at once where that many remain (a number is short: one step mostly).
#[inline]
fn skip_scalar(b: &[u8], i: usize) -> Result<usize, ScanError> {
    let word: &[u8] = match b.get(i) {
        Some(b't') => b"true",
        Some(b'f') => b"false",
        Some(b'n') => b"null",
        Some(b'-' | b'0'..=b'9') => return Ok(skip_number(b, i)),
        _ => return Err(ScanError::at(i, "a JSON value")),
    };
    match (0..word.len()).find(|&k| b.get(i + k) != Some(&word[k])) {
        Some(k) => Err(ScanError::at(i + k, "`true`, `false` or `null`")),
        None => Ok(i + word.len()),
    }
}

/// The offset just past the run of number bytes starting at `b[i]` (one at least).
#[inline]
fn skip_number(b: &[u8], i: usize) -> usize {
    let mut j = i;
    loop {
        let Some(chunk) = b.get(j..).and_then(<[u8]>::first_chunk::<16>) else {
            while j < b.len() && is_number_byte(b[j]) {
                j += 1;
            }
            return j;
        };
        let others = skip::not_number_masks(chunk);
        if others != 0 {
            return j + others.trailing_zeros() as usize;
        }
        j += 16;
    }
}

/// Skips one value starting at `b[i]`; returns the offset just past it.
#[inline]
fn skip_value(b: &[u8], i: usize) -> Result<usize, ScanError> {
    match b.get(i) {
        Some(b'"') => skip_string(b, i),
        Some(b'{' | b'[') => skip_container(b, i),
        Some(_) => skip_scalar(b, i),
        None => Err(ScanError::at(i, "a JSON value (the line is cut short)")),
    }
}

/// Scans one JSON object. For each member whose key is in `wanted`, stores the byte
/// range of its value in the matching slot of `found`. A wanted key written twice keeps its
/// last value, as JSON parsers do; the index in `wanted` of the first such key is returned
/// so that the caller can say so.
///
/// ```
/// use evaltally_format::scan::scan_object;
/// let line = br#"{"id": "simple_0", "result": [{"f": "{\"a\": 1}"}], "latency": 0.5}"#;
/// let mut found = [None, None];
/// assert_eq!(scan_object(line, &[b"id", b"latency"], &mut found).unwrap(), None);
/// assert_eq!(&line[found[0].clone().unwrap()], br#""simple_0""#);
/// assert_eq!(&line[found[1].clone().unwrap()], b"0.5");
///
/// let twice = br#"{"id": "a", "valid": true, "id": "b"}"#;
/// assert_eq!(scan_object(twice, &[b"valid", b"id"], &mut found).unwrap(), Some(1));
/// assert_eq!(&twice[found[1].clone().unwrap()], br#""b""#);
///
/// let cut = br#"{"id": "simple_0", "result": [{"f": "{\"a\""#;
/// assert!(scan_object(cut, &[b"id"], &mut [None]).is_err());
/// ```
pub fn scan_object(b: &[u8], wanted: &[&[u8]], found: &mut [Option<Range<usize>>]) -> Result<Option<usize>, ScanError> {
    debug_assert_eq!(wanted.len(), found.len());
    found.fill(None);
    let mut repeated = None;
    for_each_member(b, |key, value| {
        let key = &b[key];
        if let Some(slot) = wanted.iter().position(|w| *w == key)
            && found[slot].replace(value).is_some()
        {
            repeated = repeated.or(Some(slot));
        }
    })?;
    Ok(repeated)
}

/// One member of an object: the byte ranges of its key (inside the quotes, escapes left as
/// they are) and of its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The key's bytes, without the quotes.
    pub key: Range<usize>,
    /// The value's bytes.
    pub value: Range<usize>,
}

/// Every member of one JSON object, in document order, found without building any value:
/// what a sniffer needs to tell formats apart by their top-level keys.
///
/// ```
/// use evaltally_format::scan::object_members;
/// let doc = br#"{"schema_version": "2.0", "instances": [{"id": 1}]}"#;
/// let members = object_members(doc).unwrap();
/// let keys: Vec<&[u8]> = members.iter().map(|m| &doc[m.key.clone()]).collect();
/// assert_eq!(keys, [b"schema_version".as_slice(), b"instances"]);
/// assert!(object_members(b"[1, 2]").is_err());
/// ```
pub fn object_members(b: &[u8]) -> Result<Vec<Member>, ScanError> {
    let mut out = Vec::new();
    for_each_member(b, |key, value| out.push(Member { key, value }))?;
    Ok(out)
}

/// Walks the members of one object spanning all of `b` (whitespace around it allowed).
fn for_each_member(b: &[u8], each: impl FnMut(Range<usize>, Range<usize>)) -> Result<(), ScanError> {
    let i = skip_ws(b, 0);
    let end = object_at(b, i, each)?;
    finish(b, end)
}

/// Walks the object starting at `b[start]` (a `{`), calling `each(key, value)` with the
/// byte ranges of every member's key (inside the quotes) and value, and returns the offset
/// just past its `}`. Values are skipped without being built; the structure is checked.
///
/// ```
/// use evaltally_format::scan::object_at;
/// let doc = br#"[{"a": 1, "b": [2]}, 3]"#;
/// let mut keys = Vec::new();
/// let end = object_at(doc, 1, |k, _| keys.push(doc[k].to_vec())).unwrap();
/// assert_eq!((keys, &doc[end..]), (vec![b"a".to_vec(), b"b".to_vec()], &b", 3]"[..]));
/// ```
#[inline]
pub fn object_at(b: &[u8], start: usize, mut each: impl FnMut(Range<usize>, Range<usize>)) -> Result<usize, ScanError> {
    object_at_with(b, start, |key, i| {
        let end = skip_value(b, i)?;
        each(key, i..end);
        Ok(end)
    })
}

/// Like [`object_at`], but `each(key, start)` takes each member's value itself: it gets the
/// offset of the value's first byte (the end of `b` when the object is cut short there) and
/// returns the offset just past the value (walk it with [`array_at`] or [`object_at`], or
/// skip it with [`value_end`]). A reader that needs the inside of one member reads it in
/// the same pass as the others.
///
/// ```
/// use evaltally_format::scan::{array_at, object_at_with, value_end};
/// let doc = br#"{"n": 2, "xs": [1, 2]}"#;
/// let mut elements = 0;
/// let end = object_at_with(doc, 0, |key, i| match &doc[key] {
///     b"xs" => array_at(doc, i, |j| { elements += 1; value_end(doc, j) }),
///     _ => value_end(doc, i),
/// }).unwrap();
/// assert_eq!((elements, end), (2, doc.len()));
/// ```
#[inline]
pub fn object_at_with(
    b: &[u8],
    start: usize,
    mut each: impl FnMut(Range<usize>, usize) -> Result<usize, ScanError>,
) -> Result<usize, ScanError> {
    let mut i = start;
    if b.get(i) != Some(&b'{') {
        return Err(ScanError::at(i, "`{` starting a JSON object"));
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Ok(i + 1);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return Err(ScanError::at(i, "a `\"` starting a member name"));
        }
        let key_end = skip_string(b, i)?;
        let key = i + 1..key_end - 1;
        i = skip_ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return Err(ScanError::at(i, "`:` after a member name"));
        }
        i = skip_ws(b, i + 1);
        let end = each(key, i)?;
        i = skip_ws(b, end);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => return Ok(i + 1),
            Some(_) => return Err(ScanError::at(i, "`,` or `}` after a member")),
            None => return Err(ScanError::at(i, "`,` or `}` (the object is cut short)")),
        }
    }
}

/// Every member of the object spanning all of `b`, as [`object_members`] finds them, with
/// the value of each member named `key` walked by `walk` (given the offset of its first
/// byte, returning the offset just past it) instead of skipped: one pass gives a reader the
/// top level and the inside of its one big member.
///
/// ```
/// use evaltally_format::scan::{array_at, object_members_walking, value_end};
/// let doc = br#"{"run": "r1", "items": [1, 2, 3], "done": true}"#;
/// let mut items = 0;
/// let members = object_members_walking(doc, b"items", |i| array_at(doc, i, |j| { items += 1; value_end(doc, j) }))
///     .unwrap();
/// assert_eq!((members.len(), items), (3, 3));
/// assert_eq!(&doc[members[1].value.clone()], b"[1, 2, 3]");
/// ```
pub fn object_members_walking(
    b: &[u8],
    key: &[u8],
    mut walk: impl FnMut(usize) -> Result<usize, ScanError>,
) -> Result<Vec<Member>, ScanError> {
    let mut out = Vec::new();
    let i = skip_ws(b, 0);
    let end = object_at_with(b, i, |k, v| {
        let end = if &b[k.clone()] == key { walk(v)? } else { skip_value(b, v)? };
        out.push(Member { key: k, value: v..end });
        Ok(end)
    })?;
    finish(b, end)?;
    Ok(out)
}

/// How far [`members_before`] went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Before {
    /// The object has a member with the key; these are the members before it (its value
    /// was not looked at).
    Met(Vec<Member>),
    /// The object has no member with the key: these are all its members, the whole object
    /// checked as [`object_members`] checks it.
    All(Vec<Member>),
}

/// The members of the object spanning all of `b` before the first member named `key`,
/// scanned only that far: a sniffer asking about the keys that come before a big member
/// does not pay for skipping it.
///
/// ```
/// use evaltally_format::scan::{Before, members_before};
/// let doc = br#"{"schema_version": "2.0", "instances": [{"id": 1}], "summary": {}}"#;
/// let Ok(Before::Met(members)) = members_before(doc, b"instances") else { panic!() };
/// assert_eq!(&doc[members[0].key.clone()], b"schema_version");
/// assert!(matches!(members_before(doc, b"other"), Ok(Before::All(all)) if all.len() == 3));
/// // Nothing after the key is looked at, so a document cut short there still meets it.
/// assert!(matches!(members_before(&doc[..45], b"instances"), Ok(Before::Met(_))));
/// assert!(members_before(&doc[..45], b"other").is_err());
/// ```
pub fn members_before(b: &[u8], key: &[u8]) -> Result<Before, ScanError> {
    let mut out = Vec::new();
    let mut met = false;
    let i = skip_ws(b, 0);
    let walked = object_at_with(b, i, |k, v| {
        if &b[k.clone()] == key {
            // Stops the walk here; the error is not the document's.
            met = true;
            return Err(ScanError::at(v, "the member to stop at"));
        }
        let end = skip_value(b, v)?;
        out.push(Member { key: k, value: v..end });
        Ok(end)
    });
    match walked {
        _ if met => Ok(Before::Met(out)),
        Err(e) => Err(e),
        Ok(end) => finish(b, end).map(|()| Before::All(out)),
    }
}

/// Walks the array starting at `b[start]` (a `[`): `each(offset)` is called at the first
/// byte of every element and returns the offset just past it (skip with [`value_end`], or
/// walk an object with [`object_at`]); returns the offset just past the `]`.
///
/// ```
/// use evaltally_format::scan::{array_at, value_end};
/// let doc = br#"[1, {"x": "]"}, "s"]"#;
/// let mut starts = Vec::new();
/// let end = array_at(doc, 0, |i| { starts.push(doc[i]); value_end(doc, i) }).unwrap();
/// assert_eq!((starts, end), (vec![b'1', b'{', b'"'], doc.len()));
/// ```
pub fn array_at(
    b: &[u8],
    start: usize,
    mut each: impl FnMut(usize) -> Result<usize, ScanError>,
) -> Result<usize, ScanError> {
    let mut i = start;
    if b.get(i) != Some(&b'[') {
        return Err(ScanError::at(i, "`[` starting a JSON array"));
    }
    i = skip_ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Ok(i + 1);
    }
    loop {
        if b.get(i).is_none() {
            return Err(ScanError::at(i, "a JSON value (the array is cut short)"));
        }
        i = skip_ws(b, each(i)?);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b']') => return Ok(i + 1),
            Some(_) => return Err(ScanError::at(i, "`,` or `]` after an element")),
            None => return Err(ScanError::at(i, "`,` or `]` (the array is cut short)")),
        }
    }
}

/// The offset just past the value starting at `b[start]`, skipped without being built.
pub fn value_end(b: &[u8], start: usize) -> Result<usize, ScanError> {
    skip_value(b, start)
}

fn finish(b: &[u8], i: usize) -> Result<(), ScanError> {
    let j = skip_ws(b, i);
    if j < b.len() {
        return Err(ScanError::at(j, "the end of the line after the object"));
    }
    Ok(())
}

/// A decoded JSON string value: borrowed when it has no escapes.
///
/// ```
/// use evaltally_format::scan::string_value;
/// assert_eq!(string_value(br#""plain""#).as_deref(), Some("plain"));
/// assert_eq!(string_value(br#""a\"b""#).as_deref(), Some("a\"b"));
/// assert_eq!(string_value(b"12"), None);
/// ```
pub fn string_value(raw: &[u8]) -> Option<Cow<'_, str>> {
    let inner = raw.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if !crate::bytes::contains(inner, b'\\') {
        return std::str::from_utf8(inner).ok().map(Cow::Borrowed);
    }
    serde_json::from_slice::<String>(raw).ok().map(Cow::Owned)
}

/// An integer value.
///
/// ```
/// assert_eq!(evaltally_format::scan::int_value(b"-12"), Some(-12));
/// assert_eq!(evaltally_format::scan::int_value(b"1.5"), None);
/// ```
pub fn int_value(raw: &[u8]) -> Option<i64> {
    std::str::from_utf8(raw).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(line: &str, keys: &[&str]) -> Result<Vec<Option<String>>, ScanError> {
        let wanted: Vec<&[u8]> = keys.iter().map(|k| k.as_bytes()).collect();
        let mut found = vec![None; keys.len()];
        scan_object(line.as_bytes(), &wanted, &mut found)?;
        Ok(found.into_iter().map(|r| r.map(|r| line[r].to_string())).collect())
    }

    #[test]
    fn finds_members_at_any_position_and_skips_the_rest() {
        let line = r#"{"inference_log": [[{"role": "x", "content": "a \"quoted\" } ] word"}], {"k": [1, 2]}], "id": "m_1", "error": {"error_type": "t"}}"#;
        assert_eq!(
            scan(line, &["id", "error", "missing"]).unwrap(),
            [Some("\"m_1\"".into()), Some(r#"{"error_type": "t"}"#.into()), None]
        );
        assert_eq!(scan("  {}  ", &["id"]).unwrap(), [None]);
        // A repeated key keeps its last value, as JSON parsers do.
        assert_eq!(scan(r#"{"id":1,"id":2}"#, &["id"]).unwrap(), [Some("2".into())]);
    }

    #[test]
    fn rejects_what_is_not_one_complete_object() {
        let cases = [
            ("", 0),
            ("[1, 2]", 0),
            (r#"{"id": "a""#, 10),
            (r#"{"id": "a", "r": [1, 2}"#, 23),
            (r#"{"id": "a", "r": "unterminated}"#, 31),
            (r#"{"id" "a"}"#, 6),
            (r#"{"id": "a"} {"id": "b"}"#, 12),
            (r#"{"id": "a" "b": 1}"#, 11),
            (r"{id: 1}", 1),
            (r#"{"id": }"#, 7),
        ];
        for (line, offset) in cases {
            let err = scan(line, &["id"]).unwrap_err();
            assert_eq!(err.offset, offset, "{line}: {err:?}");
        }
    }

    /// Counting brackets finds where a value ends without a stack; a `]` closing a `{` is
    /// left to `validate`'s full check.
    #[test]
    fn bracket_kinds_are_not_matched() {
        assert!(scan(r#"{"a": [1, {"b": "c"]], "d": null}"#, &["a"]).is_ok());
    }

    /// The block path and the byte path agree wherever a block boundary falls.
    #[test]
    fn block_boundaries_do_not_matter() {
        for pad in 0..130 {
            let filler = "x".repeat(pad);
            let good = format!(r#"{{"id": "a", "v": [{{"s": "{filler}\"q\" ]}}"}}, [1, "}}"], "{filler}"]}}"#);
            let found = scan(&good, &["id", "v"]).unwrap_or_else(|e| panic!("pad {pad}: {e:?}"));
            assert_eq!(found[0].as_deref(), Some("\"a\""));
            let cut = &good[..good.len() - 2];
            assert!(scan(cut, &["id"]).is_err(), "pad {pad}");
            let escaped_quote_at_end = format!(r#"{{"v": ["{filler}\\", "]"], "id": 1}}"#);
            assert_eq!(scan(&escaped_quote_at_end, &["id"]).unwrap()[0].as_deref(), Some("1"), "pad {pad}");
        }
    }

    /// Runs of spaces, passed eight at a time, end at the right byte whatever their length
    /// and whatever whitespace follows them.
    #[test]
    fn whitespace_runs_of_any_length() {
        for len in 0..40 {
            for mixed in ["", "\n", "\t ", "\r\n  "] {
                let doc = format!("{}{mixed}{}x", " ".repeat(len), " ".repeat(len % 9));
                assert_eq!(skip_ws(doc.as_bytes(), 0), doc.len() - 1, "{len} {mixed:?}");
                let line = format!("{{{}\"id\"{mixed}:{}1{}}}", " ".repeat(len), " ".repeat(len), " ".repeat(len));
                assert_eq!(scan(&line, &["id"]).unwrap(), [Some("1".into())], "{line:?}");
            }
        }
    }

    /// `members_before` is `object_members` stopped at a key, and `object_members_walking`
    /// is `object_members` with one value walked: on complete documents, cut ones and broken
    /// ones they find the same members (or fail at the same byte).
    #[test]
    fn partial_and_walking_scans_agree_with_object_members() {
        let docs = [
            r#"{"a": 1, "big": [{"x": "]"}, 2], "c": {"d": []}}"#,
            r#"  {"big": [], "a": "s", "big": [3]}  "#,
            r#"{"a": 1, "c": 2}"#,
            "{}",
            r#"{"a": 1, "big": [1, 2"#,
            r#"{"a": 1 "big": []}"#,
            r#"{"a": [1, "big": []}"#,
            r#"{"a": 1, "big": [1]} x"#,
        ];
        for doc in docs {
            let b = doc.as_bytes();
            let all = object_members(b);
            let first = all.as_ref().ok().and_then(|m| m.iter().position(|m| &b[m.key.clone()] == b"big"));
            match (members_before(b, b"big"), &all) {
                (Ok(Before::Met(before)), Ok(all)) => {
                    assert_eq!(Some(before.as_slice()), first.map(|k| &all[..k]), "{doc}");
                }
                (Ok(Before::Met(before)), Err(_)) => {
                    assert!(before.iter().all(|m| &b[m.key.clone()] != b"big"), "{doc}");
                }
                (Ok(Before::All(found)), Ok(all)) => assert_eq!((&found, first), (all, None), "{doc}"),
                (Err(e), Err(expected)) => assert_eq!(&e, expected, "{doc}"),
                (got, _) => panic!("{doc}: {got:?} against {all:?}"),
            }
            let mut walked = 0;
            let walking = object_members_walking(b, b"big", |i| {
                walked += 1;
                value_end(b, i)
            });
            assert_eq!(walking, all, "{doc}");
            if let Ok(all) = &all {
                assert_eq!(walked, all.iter().filter(|m| &b[m.key.clone()] == b"big").count(), "{doc}");
            }
        }
    }

    /// Numbers of any length end where a byte walk says, whatever follows them and however
    /// near the end of the buffer they are.
    #[test]
    fn numbers_end_where_a_byte_walk_says() {
        for len in 1..40 {
            for tail in [&b","[..], b"}", b" ", b"/", b"\"", b"x", b""] {
                let mut doc: Vec<u8> = (0..len).map(|k| b"-1.5e+9E"[k % 8]).collect();
                doc.extend_from_slice(tail);
                let want = doc.iter().position(|&c| !is_number_byte(c)).unwrap_or(doc.len());
                assert_eq!(skip_scalar(&doc, 0), Ok(want), "{len} {tail:?}");
            }
        }
    }

    /// A word is `true`, `false` or `null` or the scan fails where `serde_json` does: at
    /// its first wrong byte, or past its end when something follows it.
    #[test]
    fn words_are_checked_where_serde_json_checks_them() {
        for word in ["true", "false", "null", "fast", "nul", "nulls", "tru", "True", "NaN", "xyz", "+1", ".5", "fals e"]
        {
            let line = format!(r#"{{"id": "a", "latency": {word}}}"#);
            let ours = scan(&line, &["id"]).map_err(|e| e.offset + 1);
            let serde = serde_json::from_str::<serde_json::Value>(&line).map(|_| ()).map_err(|e| e.column());
            match (ours, serde) {
                (Ok(_), Ok(())) => {}
                (Err(ours), Err(serde)) => assert_eq!(ours, serde, "{line}"),
                (ours, serde) => panic!("{line}: {ours:?} against {serde:?}"),
            }
        }
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let depth = 100_000;
        let line = format!(r#"{{"id": "a", "deep": {}{}}}"#, "[".repeat(depth), "]".repeat(depth));
        assert_eq!(scan(&line, &["id"]).unwrap(), [Some("\"a\"".into())]);
        let cut = format!(r#"{{"id": "a", "deep": {}{}}}"#, "[".repeat(depth), "]".repeat(depth - 1));
        assert!(scan(&cut, &["id"]).is_err());
    }

    /// The scan accepts exactly the complete objects `serde_json` accepts, on lines that
    /// differ only in structure (the scan does not check number or escape syntax, nor
    /// bracket kinds: see `bracket_kinds_are_not_matched`).
    #[test]
    fn agrees_with_serde_json_on_structure() {
        let lines = [
            r#"{"a": [1, {"b": "c"}], "d": null}"#,
            r#"{"a": "x\\", "b": true}"#,
            r#"{"a": "x\\\"", "b": false}"#,
            r#"{"a": "x\\\", "b": false}"#,
            r#"{"a": {}}"#,
            r#"{"a": {}"#,
            r#"{"a": []}}"#,
        ];
        for line in lines {
            let ours = scan(line, &["a"]).is_ok();
            let serde = serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v.is_object());
            assert_eq!(ours, serde, "{line}");
        }
    }
}
