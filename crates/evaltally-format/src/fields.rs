//! Field readers for fast paths built on [`scan`](crate::scan): a format's reader finds
//! the few fields an analysis needs and jumps over the rest, and hands the document to its
//! tolerant reader ([`Fallback`]) whenever something is not plainly well-formed (a repeated
//! key, a string that does not decode, a structure error), so the fast and the tolerant
//! reader always agree.
//!
//! ```
//! use evaltally_format::fields::{fields, string};
//! let doc = br#"{"name": "login", "passed": true, "output": {"big": [1, 2, 3]}}"#;
//! let ([name, passed], end) = fields(doc, 0, ["name", "passed"]).unwrap();
//! let text = std::str::from_utf8(doc).unwrap();
//! assert_eq!(string(text, name.as_ref()).unwrap().as_deref(), Some("login"));
//! assert_eq!(&doc[passed.unwrap()], b"true");
//! assert_eq!(end, doc.len());
//! assert!(fields(br#"{"a": 1, "a": 2}"#, 0, ["a"]).is_err());
//! ```

use std::borrow::Cow;
use std::ops::Range;

use crate::scan::{Member, array_at, object_at, object_at_with, string_value, value_end};

/// The document is not for the fast path: read it the tolerant way, which says what is
/// wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fallback;

impl From<crate::scan::ScanError> for Fallback {
    fn from(_: crate::scan::ScanError) -> Self {
        Fallback
    }
}

/// Whether the keys of one object (their ranges in `b`, inside the quotes) are written once
/// each, none with an escape (which could spell another key): a fast path that reads an
/// object whose every key this holds for owes no warning about a repeated key.
///
/// ```
/// use evaltally_format::fields::distinct;
/// let b = br#"{"a": 1, "b": 2, "a": 3}"#;
/// assert!(distinct(b, &[2..3, 10..11]));
/// assert!(!distinct(b, &[2..3, 10..11, 18..19]));
/// assert!(!distinct(br#"{"\u0061": 1}"#, &[2..8]));
/// ```
pub fn distinct(b: &[u8], keys: &[Range<usize>]) -> bool {
    keys.iter().enumerate().all(|(i, k)| {
        let key = &b[k.clone()];
        !key.contains(&b'\\') && keys[..i].iter().all(|o| o.len() != key.len() || &b[o.clone()] != key)
    })
}

/// Walks the object at `b[start]`, calling `each(key, value start)`, which returns the
/// offset just past the value; returns the offset just past the object. A structure error,
/// or a key written twice or escaped anywhere in the object ([`distinct`]), is a
/// [`Fallback`]. `keys` is scratch room for the object's keys.
///
/// ```
/// use evaltally_format::fields::walk_distinct;
/// let doc = br#"{"a": 1, "b": [2, 3]}"#;
/// let mut seen = Vec::new();
/// let end = walk_distinct(doc, 0, &mut Vec::new(), |k, v| {
///     seen.push(k.to_vec());
///     Ok(evaltally_format::scan::value_end(doc, v)?)
/// });
/// assert_eq!((end, seen), (Ok(doc.len()), vec![b"a".to_vec(), b"b".to_vec()]));
/// assert!(walk_distinct(br#"{"a": 1, "a": 2}"#, 0, &mut Vec::new(), |_, v| Ok(v + 1)).is_err());
/// ```
pub fn walk_distinct(
    b: &[u8],
    start: usize,
    keys: &mut Vec<Range<usize>>,
    mut each: impl FnMut(&[u8], usize) -> Result<usize, Fallback>,
) -> Result<usize, Fallback> {
    keys.clear();
    let end = object_at_with(b, start, |k, v| {
        keys.push(k.clone());
        each(&b[k], v).map_err(|Fallback| crate::scan::ScanError { offset: v, message: "a member the fast path reads" })
    })?;
    if distinct(b, keys) { Ok(end) } else { Err(Fallback) }
}

/// A member's value built, as a tolerant reader builds it: one that does not parse, or an
/// object or list with a key written twice inside, is a [`Fallback`].
///
/// ```
/// use evaltally_format::fields::built;
/// let doc = br#"{"a": {"x": 1}, "b": {"x": 1, "x": 2}}"#;
/// assert_eq!(built(doc, &(6..14)), Ok(serde_json::json!({"x": 1})));
/// assert!(built(doc, &(21..37)).is_err());
/// ```
pub fn built(b: &[u8], r: &Range<usize>) -> Result<serde_json::Value, Fallback> {
    let raw = &b[r.clone()];
    let v = serde_json::from_slice(raw).map_err(|_| Fallback)?;
    if matches!(raw.first(), Some(b'{' | b'[')) && !crate::json::repeated_keys(raw).is_empty() {
        return Err(Fallback);
    }
    Ok(v)
}

/// The value ranges of the keys asked for, in their order (`None` where absent).
pub type Found<const N: usize> = [Option<Range<usize>>; N];

/// Walks the object at `b[start]`, keeping the value range of each of `keys`; returns them
/// with the offset just past the object. A key seen twice (`serde_json` would keep the last,
/// the scan the first) or a structure error is a [`Fallback`].
pub fn fields<const N: usize>(b: &[u8], start: usize, keys: [&str; N]) -> Result<(Found<N>, usize), Fallback> {
    let mut found: Found<N> = std::array::from_fn(|_| None);
    let mut repeated = false;
    let end = object_at(b, start, |k, v| {
        let key = &b[k];
        // Most keys differ in length or first byte: no `memcmp` call for them.
        if let Some(at) =
            keys.iter().position(|w| w.len() == key.len() && w.as_bytes().first() == key.first() && w.as_bytes() == key)
        {
            repeated |= found[at].replace(v).is_some();
        }
    })
    .map_err(|_| Fallback)?;
    if repeated { Err(Fallback) } else { Ok((found, end)) }
}

/// The value of top-level member `key` among `members` (from
/// [`Input::json_members`](crate::Input::json_members)); a repeated key is a [`Fallback`].
pub fn member<'m>(b: &[u8], members: &'m [Member], key: &str) -> Result<Option<&'m Range<usize>>, Fallback> {
    let mut hits = members.iter().filter(|m| &b[m.key.clone()] == key.as_bytes());
    let first = hits.next().map(|m| &m.value);
    if hits.next().is_some() { Err(Fallback) } else { Ok(first) }
}

/// A string field of the document `doc` (text already checked as UTF-8, so a string with no
/// escapes is borrowed without a second check): `None` when absent or not a string (as
/// tolerant readers read a field of the wrong type), a [`Fallback`] when it is a string
/// that does not decode.
pub fn string<'a>(doc: &'a str, raw: Option<&Range<usize>>) -> Result<Option<Cow<'a, str>>, Fallback> {
    let b = doc.as_bytes();
    match raw {
        Some(r) if b.get(r.start) == Some(&b'"') && r.end >= r.start + 2 && b[r.end - 1] == b'"' => {
            let inner = r.start + 1..r.end - 1;
            if !crate::bytes::contains(&b[inner.clone()], b'\\') {
                // The quotes are ASCII, so the range is on character boundaries.
                return doc.get(inner).map(|s| Some(Cow::Borrowed(s))).ok_or(Fallback);
            }
            string_value(&b[r.clone()]).map(Some).ok_or(Fallback)
        }
        Some(r) if b.get(r.start) == Some(&b'"') => Err(Fallback),
        _ => Ok(None),
    }
}

/// A boolean field: `Some` for the literals `true` and `false`, `None` otherwise.
pub fn boolean(b: &[u8], raw: Option<&Range<usize>>) -> Option<bool> {
    match raw.map(|r| &b[r.clone()]) {
        Some(b"true") => Some(true),
        Some(b"false") => Some(false),
        _ => None,
    }
}

/// Calls `each(start)` for every object in the array at `raw` (other elements are passed
/// over); `each` returns the offset just past the object. Nothing when `raw` is absent or
/// not an array.
pub fn objects(
    b: &[u8],
    raw: Option<&Range<usize>>,
    each: impl FnMut(usize) -> Result<usize, Fallback>,
) -> Result<(), Fallback> {
    match raw.filter(|r| b.get(r.start) == Some(&b'[')) {
        Some(r) => walk_objects(b, r.start, false, each),
        None => Ok(()),
    }
}

/// Like [`objects`], but `raw` must be an array and every element an object: anything else
/// is a [`Fallback`] (a tolerant reader would report it).
pub fn only_objects(
    b: &[u8],
    raw: &Range<usize>,
    each: impl FnMut(usize) -> Result<usize, Fallback>,
) -> Result<(), Fallback> {
    if b.get(raw.start) != Some(&b'[') {
        return Err(Fallback);
    }
    walk_objects(b, raw.start, true, each)
}

/// Walks the array at `b[start]`, calling `each` on its objects; any other element is a
/// [`Fallback`] when `strict`, else passed over. After the first failure the rest is only
/// skipped, so the structure is still checked.
fn walk_objects(
    b: &[u8],
    start: usize,
    strict: bool,
    mut each: impl FnMut(usize) -> Result<usize, Fallback>,
) -> Result<(), Fallback> {
    let mut failed = None;
    array_at(b, start, |i| {
        if failed.is_some() {
            return value_end(b, i);
        }
        if b[i] != b'{' {
            if strict {
                failed = Some(Fallback);
            }
            return value_end(b, i);
        }
        each(i).or_else(|e| {
            failed = Some(e);
            value_end(b, i)
        })
    })
    .map_err(|_| Fallback)?;
    failed.map_or(Ok(()), Err)
}
