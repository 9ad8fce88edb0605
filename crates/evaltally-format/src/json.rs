//! JSON helpers every JSON format shares: a syntax error as a located diagnostic.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Finding};

use crate::scan::{array_at, object_at_with, string_value, value_end};

/// A `serde_json` error's message without its trailing ` at line L column C`, which
/// diagnostics carry as fields.
pub fn message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(p) => &msg[..p],
        None => msg.as_str(),
    };
    // serde_json's words for what it met, in the words the readers use.
    match msg {
        "EOF while parsing a string" => "the text ends inside a string (cut short?)".to_string(),
        "EOF while parsing an object" => "the text ends inside an object (cut short?)".to_string(),
        "EOF while parsing a list" => "the text ends inside a list (cut short?)".to_string(),
        "EOF while parsing a value" => "the text ends before a value (cut short?)".to_string(),
        "trailing characters" => "more text after the JSON value".to_string(),
        "expected ident" => "expected `true`, `false` or `null` here".to_string(),
        "expected value" => "expected a JSON value here".to_string(),
        "recursion limit exceeded" => TOO_DEEP.to_string(),
        other => other.to_string(),
    }
}

/// What [`message`] says of a document nested deeper than `serde_json` reads: valid JSON
/// (Python's `json` reads about 1,000 levels), but not read.
const TOO_DEEP: &str = "lists and objects nested more than 128 deep, deeper than evaltally reads";

/// What is wrong with a document `serde_json` refused: `not valid JSON: <what it met>`, or,
/// for valid JSON nested too deep to read, that alone.
///
/// ```
/// let e = serde_json::from_str::<serde_json::Value>("[1 2]").unwrap_err();
/// assert_eq!(evaltally_format::json::problem(&e), "not valid JSON: expected `,` or `]`");
/// let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
/// let e = serde_json::from_str::<serde_json::Value>(&deep).unwrap_err();
/// assert_eq!(evaltally_format::json::problem(&e), "lists and objects nested more than 128 deep, deeper than evaltally reads");
/// ```
pub fn problem(e: &serde_json::Error) -> String {
    match message(e) {
        deep if deep == TOO_DEEP => deep,
        what => format!("not valid JSON: {what}"),
    }
}

/// The 1-based column of `e`: where the character it expected should be. `serde_json` gives
/// the last one it read (0 just after a line break), so a text cut short is placed one past
/// its end.
///
/// ```
/// let column = |text: &str| evaltally_format::json::column(&serde_json::from_str::<serde_json::Value>(text).unwrap_err());
/// assert_eq!(column("{\"a\": "), 7);
/// assert_eq!(column("[1,\n"), 1);
/// assert_eq!(column("[1,\n}"), 1);
/// ```
pub fn column(e: &serde_json::Error) -> usize {
    let c = e.column();
    if e.classify() == serde_json::error::Category::Eof { c + 1 } else { c.max(1) }
}

/// A JSON syntax error as an error diagnostic on `path`, at its line and column:
/// `not valid JSON: <what serde_json expected>`.
///
/// ```
/// let e = serde_json::from_str::<serde_json::Value>("{\"a\": ").unwrap_err();
/// let d = evaltally_format::json::error_diagnostic("r.json".as_ref(), &e);
/// assert_eq!(d.to_string(), "r.json:1:7: error: not valid JSON: the text ends before a value (cut short?)");
/// ```
pub fn error_diagnostic(path: &Path, e: &serde_json::Error) -> Diagnostic {
    Diagnostic::error(path, problem(e)).at(e.line() as u64, column(e) as u64)
}

/// The offset of `part` in `whole` when `part` is a slice of it (a borrowed `RawValue`'s
/// text, say), else `None`.
///
/// ```
/// let doc = br#"[{"a": 1}, {"b": 2}]"#;
/// assert_eq!(evaltally_format::json::offset_in(doc, &doc[11..19]), Some(11));
/// assert_eq!(evaltally_format::json::offset_in(doc, b"{}"), None);
/// ```
pub fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start + part.len() <= whole.len()).then_some(start)
}

/// Where `e`, an error met while reading `part` (a slice of `whole`: a list entry read on
/// its own), is in `whole`: 1-based line and column. A `part` that is not a slice of
/// `whole` is placed at the start of the file.
///
/// ```
/// let doc = "[\n {\"reward\": 1e999}]";
/// let entry = &doc[3..20];
/// let e = serde_json::from_str::<serde_json::Value>(entry).unwrap_err();
/// assert_eq!(evaltally_format::json::place_in(doc.as_bytes(), entry.as_bytes(), &e), (2, 17));
/// ```
pub fn place_in(whole: &[u8], part: &[u8], e: &serde_json::Error) -> (u64, u64) {
    let start = offset_in(whole, part).unwrap_or(0);
    // serde_json's line and column in `part`, as an offset into it.
    let line_start = match e.line() {
        0 | 1 => 0,
        l => memchr::memchr_iter(b'\n', part).nth(l - 2).map_or(part.len(), |i| i + 1),
    };
    let at = (line_start + column(e).saturating_sub(1)).min(part.len());
    line_column(whole, start + at)
}

/// The same error as a validation finding located by `line L, column C`.
pub fn error_finding(e: &serde_json::Error) -> Finding {
    let at = match column(e) {
        0 => format!("line {}", e.line()),
        column => format!("line {}, column {column}", e.line()),
    };
    Finding::error(at, problem(e))
}

/// The syntax error of `bytes` as JSON, if any, worded as every reader words it (for files
/// no format took, so rarely called).
pub fn syntax_error(bytes: &[u8]) -> Option<serde_json::Error> {
    from_slice::<serde_json::Value>(bytes).err()
}

/// Whether `bytes` are a JSON list whose first element is an object holding both `a` and
/// `b` as keys (a byte-order mark and white space allowed before it). Looked at with the
/// pipeline's scanner, which builds nothing and skips the values: a sniffer's question
/// about a file that may be hundreds of megabytes.
///
/// ```
/// use evaltally_format::json::first_element_has;
/// assert!(first_element_has(br#" [{"task_id": 3, "trial": 0, "reward": 1.0}, {}]"#, b"task_id", b"reward"));
/// assert!(!first_element_has(br#"[{"task_id": 3}]"#, b"task_id", b"reward"));
/// assert!(!first_element_has(br#"{"task_id": 3, "reward": 1}"#, b"task_id", b"reward"));
/// ```
pub fn first_element_has(bytes: &[u8], a: &[u8], b: &[u8]) -> bool {
    let bytes = without_bom(bytes);
    let Some(start) = bytes.iter().position(|c| !c.is_ascii_whitespace()) else { return false };
    if bytes[start] != b'[' {
        return false;
    }
    let Some(first) = bytes[start + 1..].iter().position(|c| !c.is_ascii_whitespace()).map(|i| start + 1 + i) else {
        return false;
    };
    object_has(bytes, first, a, b)
}

/// Whether `bytes[start]` starts a whole JSON object holding both `a` and `b` as keys
/// (scanned, nothing built).
///
/// ```
/// use evaltally_format::json::object_has;
/// let line = br#"  {"run_id": "r", "item": {"x": 1}, "data_source_idx": 0}"#;
/// assert!(object_has(line, 2, b"run_id", b"data_source_idx"));
/// assert!(!object_has(line, 2, b"run_id", b"sample"));
/// assert!(!object_has(br#"{"run_id": "r", "data_source_idx": 0"#, 0, b"run_id", b"data_source_idx"));
/// ```
pub fn object_has(bytes: &[u8], start: usize, a: &[u8], b: &[u8]) -> bool {
    let mut keys = (false, false);
    let scanned = crate::scan::object_at(bytes, start, |k, _| {
        let key = &bytes[k];
        keys.0 |= key == a;
        keys.1 |= key == b;
    });
    scanned.is_ok() && keys == (true, true)
}

/// Whether `bytes` start (after a byte order mark and white space) like a JSON document.
pub fn starts_like_json(bytes: &[u8]) -> bool {
    let b = without_bom(bytes);
    b.iter().find(|c| !c.is_ascii_whitespace()).is_some_and(|c| matches!(c, b'{' | b'['))
}

/// `bytes` without a UTF-8 byte order mark at their start. JSON forbids one, but RFC 8259
/// lets a reader ignore it, and Windows tools write it (PowerShell 5's `Set-Content
/// -Encoding UTF8`, Notepad before 2019): every reader reads past it, a column on the first
/// line counted after it, as an editor shows it; `validate` says it is there.
///
/// ```
/// assert_eq!(evaltally_format::json::without_bom(b"\xEF\xBB\xBF{}"), b"{}");
/// assert_eq!(evaltally_format::json::without_bom(b"{}"), b"{}");
/// ```
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// A UTF-8 byte order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// `serde_json::from_slice` past a byte order mark ([`without_bom`]): how a reader
/// deserializes a whole document.
///
/// ```
/// let v: serde_json::Value = evaltally_format::json::from_slice(b"\xEF\xBB\xBF{\"a\": 1}").unwrap();
/// assert_eq!(v["a"], 1);
/// ```
pub fn from_slice<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    serde_json::from_slice(without_bom(bytes))
}

/// What a file meant to hold one JSON object per line (JSON Lines) holds when it is whole
/// JSON of another layout: one list, or objects spread over several lines each (what
/// `jq .` or Python's `json.dump(..., indent=2)` write). [`Spread::of`] finds it;
/// [`Spread::message`] says it in one line in place of an error per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// One JSON list of `items` values, over `lines` lines.
    List {
        /// The values in the list.
        items: usize,
        /// The lines of the file.
        lines: u64,
    },
    /// `values` JSON values one after another over `lines` lines, more lines than values.
    Values {
        /// The values.
        values: usize,
        /// The lines of the file.
        lines: u64,
    },
}

impl Spread {
    /// `bytes` as whole JSON in another layout than one object per line: a list (on one
    /// line or more), or values that start with a lone `{` line. `None` when its first line
    /// is neither `[…` nor a lone `{` (a JSON Lines file of objects starts with a whole one,
    /// so this costs nothing there), or when it is no whole JSON.
    ///
    /// ```
    /// use evaltally_format::json::Spread;
    /// assert_eq!(Spread::of(b"[{\"id\": \"a\"},\n {\"id\": \"b\"}]\n"), Some(Spread::List { items: 2, lines: 2 }));
    /// assert_eq!(Spread::of(b"{\n  \"id\": \"a\"\n}\n{\n  \"id\": \"b\"\n}\n"), Some(Spread::Values { values: 2, lines: 6 }));
    /// assert_eq!(Spread::of(b"{\"id\": \"a\"}\n{\"id\": \"b\"}\n"), None);
    /// assert_eq!(Spread::of(b"[{\"id\": \"a\"},\n"), None);
    /// ```
    pub fn of(bytes: &[u8]) -> Option<Spread> {
        let bytes = without_bom(bytes);
        let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
        if bytes[start] == b'[' {
            let items: Vec<serde::de::IgnoredAny> = serde_json::from_slice(bytes).ok()?;
            return Some(Spread::List { items: items.len(), lines: count_lines(bytes) });
        }
        // A lone `{` on the first line: what follows it there is white space alone (in JSON
        // Lines a whole object follows, so this stops at its first key).
        let rest = &bytes[start + 1..];
        let lone = bytes[start] == b'{'
            && rest.iter().find(|&&b| !matches!(b, b' ' | b'\t' | b'\r')).is_none_or(|&b| b == b'\n');
        if !lone {
            return None;
        }
        let mut values = 0;
        for value in serde_json::Deserializer::from_slice(bytes).into_iter::<serde::de::IgnoredAny>() {
            value.ok()?;
            values += 1;
        }
        (values > 0).then(|| Spread::Values { values, lines: count_lines(bytes) })
    }

    /// What the file holds and how to rewrite it, beside `expected` (`BFCL writes them`):
    /// who puts one JSON object per line. The caller adds what it does with the file.
    ///
    /// ```
    /// use evaltally_format::json::Spread;
    /// assert_eq!(
    ///     Spread::List { items: 2, lines: 24 }.message("BFCL writes them"),
    ///     "a JSON list of 2 values over 24 lines, not one JSON object per line as BFCL writes them \
    ///      (`jq -c '.[]' FILE` writes each on a line of its own)"
    /// );
    /// ```
    pub fn message(&self, expected: &str) -> String {
        let (what, jq) = match *self {
            Spread::List { items, lines } => {
                let over = if lines == 1 { "on one line".to_string() } else { format!("over {lines} lines") };
                (format!("a JSON list of {} {over}", evaltally_core::text::plural(items, "value")), "jq -c '.[]'")
            }
            Spread::Values { values, lines } => {
                let values = evaltally_core::text::plural(values, "JSON value");
                (format!("{values} spread over {lines} lines (pretty-printed?)"), "jq -c .")
            }
        };
        format!("{what}, not one JSON object per line as {expected} (`{jq} FILE` writes each on a line of its own)")
    }
}

/// The lines of `bytes`: its line breaks, and one more for a last line without one.
fn count_lines(bytes: &[u8]) -> u64 {
    let breaks = memchr::memchr_iter(b'\n', bytes).count() as u64;
    breaks + u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))
}

/// What `validate` says of a JSON document that starts with a byte order mark, which its
/// writers' own readers refuse ([`without_bom`]); `None` for any other file.
///
/// ```
/// let found = evaltally_format::json::bom_finding(b"\xEF\xBB\xBF{}").unwrap();
/// assert_eq!(found.path, "line 1");
/// assert!(evaltally_format::json::bom_finding(b"\xEF\xBB\xBF<?xml version=\"1.0\"?>").is_none());
/// ```
pub fn bom_finding(bytes: &[u8]) -> Option<Finding> {
    (bytes.starts_with(BOM) && starts_like_json(bytes)).then(|| {
        Finding::warning(
            "line 1",
            "starts with a UTF-8 byte order mark, which JSON does not allow: read past it here, \
             but Python's json.load and JavaScript's JSON.parse refuse it",
        )
    })
}

/// Parses a JSON document already in memory into a value, past a byte order mark
/// ([`without_bom`]); a syntax error is an error diagnostic on `path` at its line and
/// column ([`error_diagnostic`]).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<serde_json::Value, Diagnostic> {
    from_slice(bytes).map_err(|e| error_diagnostic(path, &e))
}

/// Reads and parses a JSON file (for files a unit reads itself, outside the pipeline's
/// buffer: the per-instance reports a run report points to, say).
pub fn read(path: &Path) -> Result<serde_json::Value, Diagnostic> {
    let bytes = crate::file::read_or_error(path)?;
    parse(path, &bytes)
}

/// Whether a path ends in `.json` (any case): what JSON formats claim for sniffing.
pub fn is_json_path(path: &Path) -> bool {
    crate::has_extension(path, "json")
}

/// A file's name without `.json` (the whole name when it has another ending).
pub fn stem(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.strip_suffix(".json").unwrap_or(&name).to_string()
}

/// A key written more than once in one JSON object. JSON parsers keep the last value
/// (`serde_json`, JavaScript's `JSON.parse`, Python's `json`), so the earlier ones are lost
/// without a word unless someone says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedKey {
    /// The key, decoded.
    pub key: String,
    /// Byte offset of the first occurrence's opening quote.
    pub first: usize,
    /// Byte offset of this (later) occurrence's opening quote.
    pub again: usize,
}

/// How deep [`repeated_keys`] looks (`serde_json` refuses deeper documents anyway).
const MAX_DEPTH: usize = 128;

/// Every key repeated within one object, anywhere in the JSON document `bytes`, in document
/// order. A document that is not valid JSON gives what was found before the damage (its
/// syntax error is the parser's to report).
///
/// ```
/// use evaltally_format::json::repeated_keys;
/// let doc = br#"{"tests": [{"name": "a", "passed": true, "passed": false}], "name": "x"}"#;
/// let found = repeated_keys(doc);
/// assert_eq!(found.len(), 1);
/// assert_eq!((found[0].key.as_str(), &doc[found[0].again..found[0].again + 8]), ("passed", &b"\"passed\""[..]));
/// assert!(repeated_keys(br#"{"a": {"b": 1}, "c": {"b": 2}}"#).is_empty());
/// ```
pub fn repeated_keys(bytes: &[u8]) -> Vec<RepeatedKey> {
    let mut out = Vec::new();
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(bytes.len());
    let start = if bytes[start..].starts_with(BOM) { start + 3 } else { start };
    let _ = walk(bytes, start, 0, &mut Vec::new(), &mut out);
    out
}

/// The keys of the objects being walked, innermost last: (name, offset of the opening
/// quote). A name is its bytes as written when it has no escape (no UTF-8 check: equal
/// bytes are the same key), else its decoded text.
type Seen<'b> = Vec<(Cow<'b, [u8]>, usize)>;

/// Past this many keys an object's names are looked up in a hash map.
const LINEAR_KEYS: usize = 32;

/// Walks the value at `b[at]` in one pass, noting in `out` every key repeated within one of
/// its objects, and returns the offset just past it. An object that is not well-formed
/// notes nothing (what was noted inside it is taken back); a malformed value inside a
/// container is skipped as [`value_end`] skips it, so the container's own structure decides
/// whether the rest of it is looked at. Beyond [`MAX_DEPTH`], values are only skipped.
fn walk<'b>(
    b: &'b [u8],
    at: usize,
    depth: usize,
    seen: &mut Seen<'b>,
    out: &mut Vec<RepeatedKey>,
) -> Result<usize, crate::scan::ScanError> {
    if depth >= MAX_DEPTH {
        return value_end(b, at);
    }
    // A value that is not well-formed inside: skipped as a whole, if it can be.
    let member = |seen: &mut Seen<'b>, out: &mut Vec<RepeatedKey>, i: usize| {
        walk(b, i, depth + 1, seen, out).or_else(|_| value_end(b, i))
    };
    match b.get(at) {
        Some(b'{') => {
            let (base, noted) = (seen.len(), out.len());
            let mut index: Option<HashMap<Cow<'b, [u8]>, usize>> = None;
            let walked = object_at_with(b, at, |key, value| {
                let name = key_name(b, key.clone());
                let offset = key.start - 1;
                let keys = seen.len() - base;
                if keys == LINEAR_KEYS && index.is_none() {
                    index = Some(seen[base..].iter().cloned().collect());
                }
                let first = match &mut index {
                    Some(index) => index.get(&name).copied().or_else(|| {
                        index.insert(name.clone(), offset);
                        None
                    }),
                    None => seen[base..].iter().find(|(n, _)| *n == name).map(|&(_, first)| first),
                };
                match first {
                    Some(first) => {
                        out.push(RepeatedKey {
                            key: String::from_utf8_lossy(&name).into_owned(),
                            first,
                            again: offset,
                        });
                    }
                    None => seen.push((name, offset)),
                }
                let mark = seen.len();
                let end = member(seen, out, value);
                seen.truncate(mark);
                end
            });
            seen.truncate(base);
            if walked.is_err() {
                out.truncate(noted);
            }
            walked
        }
        Some(b'[') => array_at(b, at, |i| member(seen, out, i)),
        _ => value_end(b, at),
    }
}

/// The name of the member whose key is `b[key]` (inside its quotes), as [`Seen`] keeps it.
fn key_name(b: &[u8], key: std::ops::Range<usize>) -> Cow<'_, [u8]> {
    let inner = &b[key.clone()];
    if !crate::bytes::contains(inner, b'\\') {
        return Cow::Borrowed(inner);
    }
    let quoted = &b[(key.start - 1)..=key.end];
    let text = string_value(quoted).map_or_else(|| String::from_utf8_lossy(quoted).into_owned(), Cow::into_owned);
    Cow::Owned(text.into_bytes())
}

/// 1-based line and column (in bytes, as `serde_json` counts them) of `offset` in `bytes`.
///
/// ```
/// assert_eq!(evaltally_format::json::line_column(b"{\n  \"a\": 1}", 4), (2, 3));
/// ```
pub fn line_column(bytes: &[u8], offset: usize) -> (u64, u64) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    (line as u64, (before.len() - line_start + 1) as u64)
}

/// Where `bytes` first stop being UTF-8, as 1-based line and column, with the byte found
/// there; `None` for UTF-8. For readers that skip the fields they do not need (`serde`'s
/// `IgnoredAny` and `RawValue` do not check a skipped string's bytes), so that text that
/// is not UTF-8 is refused wherever it is.
///
/// ```
/// assert_eq!(evaltally_format::json::not_utf8(b"{\"a\": 1,\n \"b\": \"\xff\"}"), Some((2, 8, 0xFF)));
/// assert_eq!(evaltally_format::json::not_utf8("{\"é\": 1}".as_bytes()), None);
/// ```
pub fn not_utf8(bytes: &[u8]) -> Option<(u64, u64, u8)> {
    if crate::utf8(bytes).is_some() {
        return None;
    }
    let offset = std::str::from_utf8(bytes).err()?.valid_up_to();
    let (line, column) = line_column(bytes, offset);
    Some((line, column, bytes[offset]))
}

/// What a repeated key says, with where its first occurrence is.
fn repeated_message(bytes: &[u8], r: &RepeatedKey) -> String {
    let (line, column) = line_column(bytes, r.first);
    format!(
        "key `{}` appears again in the same object (first at line {line}, column {column}); the last value is used",
        r.key
    )
}

/// A warning per key repeated within one object of the JSON document `bytes` (see
/// [`repeated_keys`]), located at the repetition: what every JSON format's reader adds to
/// its diagnostics, so that a value a parser dropped is never dropped silently.
///
/// ```
/// let doc = b"{\"passed\": true,\n \"passed\": false}";
/// let w = evaltally_format::json::repeated_key_warnings(std::path::Path::new("r.json"), doc);
/// assert_eq!((w[0].line, w[0].column), (Some(2), Some(2)));
/// assert!(w[0].message.starts_with("key `passed` appears again"));
/// ```
pub fn repeated_key_warnings(path: &Path, bytes: &[u8]) -> Vec<Diagnostic> {
    repeated_keys(bytes)
        .iter()
        .map(|r| {
            let (line, column) = line_column(bytes, r.again);
            Diagnostic::warning(path, repeated_message(bytes, r)).at(line, column)
        })
        .collect()
}

/// The same as validation errors, located by `line L, column C`.
pub fn repeated_key_findings(bytes: &[u8]) -> Vec<Finding> {
    repeated_keys(bytes)
        .iter()
        .map(|r| {
            let (line, column) = line_column(bytes, r.again);
            Finding::error(format!("line {line}, column {column}"), repeated_message(bytes, r))
        })
        .collect()
}

/// [`parse`], with a warning per repeated key ([`repeated_key_warnings`]) added to `notes`
/// when the document parses: what a reader that builds a value calls.
pub fn parse_noting(path: &Path, bytes: &[u8], notes: &mut Vec<Diagnostic>) -> Result<serde_json::Value, Diagnostic> {
    let bytes = without_bom(bytes);
    let value = parse(path, bytes)?;
    notes.extend(repeated_key_warnings(path, bytes));
    Ok(value)
}

/// [`parse_noting`] when `note_keys`, else [`parse`]: the look for repeated keys is a
/// second pass over the bytes, made only when a reader was asked for its warnings.
pub fn parse_noting_if(
    path: &Path,
    bytes: &[u8],
    note_keys: bool,
    notes: &mut Vec<Diagnostic>,
) -> Result<serde_json::Value, Diagnostic> {
    if note_keys { parse_noting(path, bytes, notes) } else { parse(path, bytes) }
}

/// Reads a JSON document from the pipeline's buffer the tolerant way, for formats that tell
/// their documents apart by keys: parsed (a syntax error is the one diagnostic), repeated
/// keys noted as warnings, and handed to `read` with what `detect` made of it (nothing
/// when `detect` knows it not).
///
/// ```
/// use evaltally_format::{Input, Read, json::read_document};
/// let file = Input::new("r.json".as_ref(), br#"{"ok": 1, "ok": 2}"#, false);
/// let read = read_document(&file, |v| v.get("ok").cloned(), |_, _| Read::default());
/// assert_eq!(read.diagnostics.len(), 1);
/// ```
pub fn read_document<K>(
    file: &crate::Input<'_>,
    detect: impl FnOnce(&serde_json::Value) -> Option<K>,
    read: impl FnOnce(K, &serde_json::Value) -> crate::Read,
) -> crate::Read {
    let mut notes = Vec::new();
    match parse_noting(file.path, file.bytes, &mut notes) {
        Ok(doc) => match detect(&doc) {
            Some(kind) => {
                let mut out = read(kind, &doc);
                notes.append(&mut out.diagnostics);
                crate::Read { runs: out.runs, diagnostics: notes }
            }
            None => crate::Read::default(),
        },
        Err(d) => crate::Read { runs: Vec::new(), diagnostics: vec![d] },
    }
}

/// [`read_document`] for `records`: the document's runs test by test.
pub fn document_records<K>(
    file: &crate::Input<'_>,
    detect: impl FnOnce(&serde_json::Value) -> Option<K>,
    records: impl FnOnce(K, &serde_json::Value) -> Result<Vec<evaltally_core::RunRecord>, Diagnostic>,
) -> crate::Records {
    let mut notes = Vec::new();
    let result = parse_noting(file.path, file.bytes, &mut notes).and_then(|doc| match detect(&doc) {
        Some(kind) => records(kind, &doc),
        None => Ok(Vec::new()),
    });
    match result {
        Ok(runs) => crate::Records { runs, diagnostics: notes },
        Err(d) => crate::Records { runs: Vec::new(), diagnostics: vec![d] },
    }
}

/// `bytes` with the bare `NaN`, `Infinity` and `-Infinity` tokens that Python's `json`
/// module writes (and JSON does not allow) read as `null`, strings left alone; the bytes
/// themselves when they hold none (the usual case, found with one search).
///
/// ```
/// use evaltally_format::json::python_non_finite_as_null;
/// let text = br#"{"value": NaN, "note": "NaN stays", "lo": -Infinity, "hi": [Infinity]}"#;
/// assert_eq!(
///     &*python_non_finite_as_null(text),
///     br#"{"value": null, "note": "NaN stays", "lo": null, "hi": [null]}"#
/// );
/// assert!(matches!(python_non_finite_as_null(b"{\"a\": 1}"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn python_non_finite_as_null(bytes: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memmem::find(bytes, b"NaN").is_none() && memchr::memmem::find(bytes, b"Infinity").is_none() {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c);
            match c {
                b'\\' if i + 1 < bytes.len() => {
                    out.push(bytes[i + 1]);
                    i += 1;
                }
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        let token = [&b"NaN"[..], b"Infinity", b"-Infinity"].into_iter().find(|t| bytes[i..].starts_with(t));
        match (c, token) {
            (b'"', _) => {
                in_string = true;
                out.push(c);
                i += 1;
            }
            (_, Some(t)) => {
                out.extend_from_slice(b"null");
                i += t.len();
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::scan::object_at;

    /// The walk `repeated_keys` made before it was one pass: each object's members found
    /// first, then each value walked (every byte skipped once per level above it).
    fn walk_per_level(b: &[u8], at: usize, depth: usize, out: &mut Vec<RepeatedKey>) {
        if depth >= MAX_DEPTH {
            return;
        }
        match b.get(at) {
            Some(b'{') => {
                let mut members = Vec::new();
                if object_at(b, at, |key, value| members.push((key, value))).is_err() {
                    return;
                }
                let mut seen: HashMap<Cow<'_, str>, usize> = HashMap::with_capacity(members.len());
                for (key, value) in members {
                    let quoted = &b[(key.start - 1)..=key.end];
                    let name =
                        string_value(quoted).unwrap_or_else(|| String::from_utf8_lossy(quoted).into_owned().into());
                    let offset = key.start - 1;
                    match seen.get(&name) {
                        Some(&first) => out.push(RepeatedKey { key: name.into_owned(), first, again: offset }),
                        None => {
                            seen.insert(name, offset);
                        }
                    }
                    walk_per_level(b, value.start, depth + 1, out);
                }
            }
            Some(b'[') => {
                let _ = array_at(b, at, |i| {
                    walk_per_level(b, i, depth + 1, out);
                    value_end(b, i)
                });
            }
            _ => {}
        }
    }

    /// Keys are the same when their bytes are, or their decoded text where one has an
    /// escape: two different bytes that are not UTF-8 are two keys, not one replacement
    /// character twice.
    #[test]
    fn keys_are_compared_as_written_and_escapes_decoded() {
        let keys = |doc: &[u8]| repeated_keys(doc).into_iter().map(|r| r.key).collect::<Vec<_>>();
        assert!(keys(b"{\"\xff\": 1, \"\xfe\": 2}").is_empty());
        assert_eq!(keys(b"{\"\xff\": 1, \"\xff\": 2}"), ["\u{FFFD}"]);
        assert_eq!(keys(r#"{"a\u00e9": 1, "a\u00c9": 2, "aé": 3}"#.as_bytes()), ["aé"]);
        assert_eq!(keys(br#"{"x": {"\"": 1, "\u0022": 2}}"#), ["\""]);
    }

    /// The one-pass walk finds what the walk per level found, on whole, cut and broken
    /// documents alike.
    #[test]
    fn repeated_keys_as_walked_per_level() {
        let mut many = String::new();
        for k in 0..40 {
            write!(many, "\"k{}\": {k}, ", k % 37).unwrap();
        }
        let docs = [
            r#"{"a": 1, "b": {"a": 2, "a": [ {"x": 1, "y": 2, "x": 3} ]}, "a": 4}"#.to_string(),
            r#"[{"t": 1, "t": 2}, {"u": {"v" 1}, "u": 2}, {"w": 1, "w": 2}]"#.to_string(),
            r#"{"a": {"b": 1 "b": 2}, "a": 3, "c": [1, {"d": 1, "d": 2}]}"#.to_string(),
            r#"{"a": [1, {"b": "c"]], "a": {"e": 1, "e": 2}, "\u0061": 5}"#.to_string(),
            format!("{{{many}\"k1\": 0, \"z\": {{{many}\"q\": 1}}}}"),
            format!("{}{{\"a\": 1, \"a\": 2}}{}", "[".repeat(130), "]".repeat(130)),
            format!("{}{{\"a\": 1, \"a\": 2}}{}", "{\"n\": ".repeat(126), "}".repeat(126)),
        ];
        for doc in &docs {
            for cut in (0..=doc.len()).filter(|&c| doc.is_char_boundary(c)) {
                let b = &doc.as_bytes()[..cut];
                let mut want = Vec::new();
                let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
                walk_per_level(b, start, 0, &mut want);
                assert_eq!(repeated_keys(b), want, "{}", &doc[..cut]);
            }
        }
    }
}
