//! What to say of a file the walk found and no format took: its kind, a JSON Lines file's
//! first broken line, and what the document is, in a few words.

use std::path::Path;

use evaltally_core::Diagnostic;
use evaltally_core::text::plural;

use crate::format::Input;

/// What a file looks like, by its extension first, else by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One JSON document.
    Json,
    /// JSON Lines: one document per line.
    JsonLines,
    /// An XML document.
    Xml,
    /// Anything else (a CSV, a log): not said.
    Other,
}

pub(crate) fn kind(input: &Input<'_>) -> Kind {
    let ext = |e: &str| crate::has_extension(input.path, e);
    let first = input.text_bytes().iter().find(|c| !c.is_ascii_whitespace()).copied();
    // A `.jsonl` file that holds one JSON list (lm-eval 0.4.0 to 0.4.2 wrote such) is one
    // document.
    if (ext("jsonl") || ext("ndjson")) && first != Some(b'[') {
        return Kind::JsonLines;
    }
    if ext("json") || ext("jsonl") || ext("ndjson") {
        return Kind::Json;
    }
    if ext("xml") {
        return Kind::Xml;
    }
    // A log that is not a record log is a program's log, JSON or not: no run's file.
    if ext("log") {
        return Kind::Other;
    }
    match first {
        Some(b'{' | b'[') => Kind::Json,
        Some(b'<') => Kind::Xml,
        _ => Kind::Other,
    }
}

/// What is wrong with a JSON or JSON Lines file no format took, and whether it is damage
/// (an error: a document cut short, bytes that are not UTF-8, raw control characters) or
/// text that simply is not what a JSON writer writes (a note: comment lines, a second
/// document after the first, a hand-annotated copy).
#[derive(Debug)]
pub(crate) struct Broken {
    /// The error at the first bad place, `not valid JSON: …` or `not valid JSON Lines: …`.
    pub(crate) error: Diagnostic,
    /// Cut short or damaged, rather than not JSON.
    pub(crate) damaged: bool,
    /// Empty, or only white space (an output the shell made before the writer wrote it).
    pub(crate) empty: bool,
    /// Whole JSON in another layout than JSON Lines ([`crate::json::Spread`]): the error
    /// says what, with no place.
    pub(crate) spread: bool,
}

impl Broken {
    /// What to say: the error when the file is damaged or the user named it, else a note
    /// that it was not read, with the place.
    pub(crate) fn said(self, named: bool) -> Diagnostic {
        if self.damaged || named {
            return self.error;
        }
        if self.empty {
            return Diagnostic::note(&self.error.path, "not read: an empty file");
        }
        if self.spread {
            let what = self.error.message.split_once(": ").map_or(self.error.message.as_str(), |(_, m)| m);
            return Diagnostic::note(&self.error.path, format!("not read: {what}"));
        }
        let place = match (self.error.line, self.error.column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}: "),
            (Some(l), None) => format!("line {l}: "),
            _ => String::new(),
        };
        let what = self.error.message.split_once(": ").map_or(self.error.message.as_str(), |(_, m)| m);
        // `line N: …` of JSON Lines: the place above says the line.
        let what = match what.split_once(": ") {
            Some((line, rest)) if line.strip_prefix("line ").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())) => {
                rest
            }
            _ => what,
        };
        let kind = if self.error.message.starts_with("not valid JSON Lines") { "JSON Lines" } else { "JSON" };
        Diagnostic::note(
            &self.error.path,
            format!("not read: not valid {kind} ({place}{what}), so not a file any format's writer writes"),
        )
    }
}

/// Whether a `serde_json` error on `bytes` means damage rather than text that is not JSON:
/// the document ends before it is complete, or the bytes hold what no JSON text may (bytes
/// that are not UTF-8, raw control characters).
fn damaged(bytes: &[u8], e: &serde_json::Error) -> bool {
    e.classify() == serde_json::error::Category::Eof || bad_bytes(bytes)
}

/// Bytes no JSON text holds: not UTF-8, or raw control characters.
fn bad_bytes(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_err() || bytes.iter().any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
}

/// What is wrong with a JSON document, if anything.
pub(crate) fn json_problem(path: &Path, bytes: &[u8]) -> Option<Broken> {
    let e = crate::json::syntax_error(bytes)?;
    let empty = crate::json::without_bom(bytes).iter().all(u8::is_ascii_whitespace);
    Some(Broken {
        damaged: !empty && damaged(bytes, &e),
        empty,
        spread: false,
        error: crate::json::error_diagnostic(path, &e),
    })
}

/// The first line of a JSON Lines file that is not a JSON document, as an error at its line
/// and column; blank lines are allowed. Damage when that line is cut short and is the
/// last, or holds bytes no JSON text may.
pub(crate) fn json_lines_problem(path: &Path, bytes: &[u8]) -> Option<Broken> {
    let bytes = crate::json::without_bom(bytes);
    let blank = |l: &[u8]| l.iter().all(u8::is_ascii_whitespace);
    let last = crate::bytes::lines(bytes).enumerate().filter(|(_, l)| !blank(l)).map(|(i, _)| i).last();
    for (i, line) in crate::bytes::lines(bytes).enumerate() {
        if blank(line) {
            continue;
        }
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(line) {
            // Whole JSON in another layout (`jq .` of the file): said as such, not as the
            // first line it breaks.
            if let Some(spread) = crate::json::Spread::of(bytes) {
                let message = format!("not valid JSON Lines: {}", spread.message("JSON Lines holds them"));
                return Some(Broken {
                    damaged: false,
                    empty: false,
                    spread: true,
                    error: Diagnostic::error(path, message),
                });
            }
            // A line that ends inside its value is cut short only when it is the last.
            let damaged =
                if e.classify() == serde_json::error::Category::Eof { Some(i) == last } else { bad_bytes(line) };
            return Some(Broken {
                damaged,
                empty: false,
                spread: false,
                error: Diagnostic::error(
                    path,
                    format!("not valid JSON Lines: line {}: {}", i + 1, crate::json::message(&e)),
                )
                .at(i as u64 + 1, crate::json::column(&e) as u64),
            });
        }
    }
    None
}

/// What the document is, for `not read: …, which no format evaltally reads`; `None` for
/// files that are neither JSON nor XML.
pub(crate) fn what(input: &Input<'_>) -> Option<String> {
    match kind(input) {
        Kind::Json => {
            let text = input.text_bytes();
            if let Some(members) = input.json_members() {
                let names: Vec<String> =
                    members.iter().map(|m| String::from_utf8_lossy(&text[m.key.clone()]).into_owned()).collect();
                if names.is_empty() {
                    return Some("an empty JSON object".to_string());
                }
                return Some(format!("a JSON object (keys {})", keys(&names)));
            }
            let list = serde_json::from_slice::<Vec<&serde_json::value::RawValue>>(text).ok();
            let first = list
                .as_ref()
                .and_then(|l| l.first())
                .and_then(|item| serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(item.get()).ok());
            Some(match (list, first) {
                (Some(list), Some(item)) => format!(
                    "a JSON list of {} (the first with keys {})",
                    plural(list.len(), "item"),
                    keys(&item.keys().cloned().collect::<Vec<_>>())
                ),
                (Some(list), None) if list.is_empty() => "an empty JSON list".to_string(),
                _ => "a JSON document".to_string(),
            })
        }
        Kind::JsonLines => Some(json_lines_what(input.text_bytes())),
        Kind::Xml => Some(match xml_root(input.text_bytes()) {
            Some(root) => {
                format!("an XML document with root `<{root}>` (a JUnit report's is `<testsuites>` or `<testsuite>`)")
            }
            None => "an XML document with no root element".to_string(),
        }),
        Kind::Other => None,
    }
}

/// The schema of a document evaltally wrote (`{"schema": "evaltally.test-ids/1", …}`, its
/// first key, as every document it writes has it): its own output left among the results.
pub(crate) fn own_schema(bytes: &[u8]) -> Option<&str> {
    let rest = bytes.trim_ascii_start().strip_prefix(b"{")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"\"schema\"")?.trim_ascii_start().strip_prefix(b":")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"\"")?;
    let value = &rest[..rest.iter().take(80).position(|&b| b == b'"')?];
    let value = std::str::from_utf8(value).ok()?;
    (value.starts_with("evaltally.") && !value.contains('\\')).then_some(value)
}

/// What a JSON Lines text is: `JSON Lines (the first line's keys `a`, `b`)`.
pub(crate) fn json_lines_what(text: &[u8]) -> String {
    let first = crate::bytes::lines(text).find(|l| !l.iter().all(u8::is_ascii_whitespace));
    let names = first
        .and_then(|l| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(l).ok())
        .map(|m| m.keys().cloned().collect::<Vec<_>>());
    match names {
        None if first.is_none() => "an empty JSON Lines file".to_string(),
        Some(names) if !names.is_empty() => format!("JSON Lines (the first line's keys {})", keys(&names)),
        _ => "JSON Lines".to_string(),
    }
}

/// The first five of `keys` in backticks, then how many more: `` `a`, `b`, 2 more ``.
fn keys(keys: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut list: Vec<String> = keys.iter().take(SHOWN).map(|k| format!("`{k}`")).collect();
    if keys.len() > SHOWN {
        list.push(format!("{} more", keys.len() - SHOWN));
    }
    list.join(", ")
}

/// The name of an XML document's root element, after the declaration, comments,
/// processing instructions and the document type.
fn xml_root(bytes: &[u8]) -> Option<String> {
    let mut rest = bytes;
    loop {
        let at = rest.iter().position(|c| !c.is_ascii_whitespace())?;
        rest = &rest[at..];
        let skip_past = |rest: &[u8], end: &[u8]| rest.windows(end.len()).position(|w| w == end).map(|p| p + end.len());
        if rest.starts_with(b"<?") {
            rest = &rest[skip_past(rest, b"?>")?..];
        } else if rest.starts_with(b"<!--") {
            rest = &rest[skip_past(rest, b"-->")?..];
        } else if rest.starts_with(b"<!") {
            rest = &rest[skip_past(rest, b">")?..];
        } else if let Some(tag) = rest.strip_prefix(b"<") {
            let end = tag.iter().position(|c| c.is_ascii_whitespace() || matches!(c, b'>' | b'/')).unwrap_or(tag.len());
            let name = String::from_utf8_lossy(&tag[..end.min(64)]).into_owned();
            return (!name.is_empty()).then_some(name);
        } else {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn what_of(name: &str, bytes: &[u8]) -> Option<String> {
        what(&Input::new(Path::new(name), bytes, false))
    }

    #[test]
    fn evaltallys_own_documents_are_told_by_their_first_key() {
        let own = b"{\n  \"schema\": \"evaltally.test-ids/1\",\n  \"categories\": {}\n}\n";
        assert_eq!(own_schema(own), Some("evaltally.test-ids/1"));
        assert_eq!(own_schema(br#"{"schema": "other.thing/1"}"#), None);
        assert_eq!(own_schema(br#"{"categories": {}, "schema": "evaltally.test-ids/1"}"#), None);
        assert_eq!(own_schema(br#"{"schema": "evaltally.x\"/1"}"#), None);
    }

    #[test]
    fn documents_are_described_by_their_keys_or_root() {
        assert_eq!(
            what_of("a.json", br#"{"b": 1, "a": [], "c": 2, "d": 3, "e": 4, "f": 5, "g": 6}"#).unwrap(),
            "a JSON object (keys `b`, `a`, `c`, `d`, `e`, 2 more)"
        );
        assert_eq!(what_of("a.json", b"{}").unwrap(), "an empty JSON object");
        assert_eq!(
            what_of("x.jsonl", b"\n{\"doc_id\": 1}\n{\"doc_id\": 2}\n").unwrap(),
            "JSON Lines (the first line's keys `doc_id`)"
        );
        assert_eq!(
            what_of("pom.xml", b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- build -->\n<!DOCTYPE x>\n<project a=\"1\">")
                .unwrap(),
            "an XML document with root `<project>` (a JUnit report's is `<testsuites>` or `<testsuite>`)"
        );
        assert_eq!(what_of("notes.txt", b"hello"), None);
        assert_eq!(what_of("data", b" [1, 2]").unwrap(), "a JSON document");
        assert_eq!(
            what_of("old.jsonl", b"[\n  {\"doc_id\": 0, \"acc\": 1}\n]").unwrap(),
            "a JSON list of 1 item (the first with keys `acc`, `doc_id`)"
        );
    }

    #[test]
    fn a_broken_json_line_is_named_by_line_and_column() {
        let b = json_lines_problem(Path::new("s.jsonl"), b"{\"a\": 1}\n\n{\"a\": }\n").unwrap();
        assert_eq!((b.error.line, b.error.column), (Some(3), Some(7)));
        assert!(b.error.message.starts_with("not valid JSON Lines: line 3: "), "{}", b.error.message);
        assert!(!b.damaged, "a value missing mid-line is not a cut");
        assert!(json_lines_problem(Path::new("s.jsonl"), b"{\"a\": 1}\n{\"a\": 2}").is_none());
    }

    #[test]
    fn a_cut_or_damaged_file_is_an_error_and_other_text_a_note() {
        let said = |name: &str, bytes: &[u8]| -> Diagnostic {
            let path = Path::new(name);
            let broken = if name.ends_with('l') { json_lines_problem(path, bytes) } else { json_problem(path, bytes) };
            broken.unwrap().said(false)
        };
        // Cut short: the last line (or the document) ends inside a value.
        assert!(said("s.jsonl", b"{\"a\": 1}\n{\"a\": [1, 2").is_error());
        assert!(said("r.json", b"{\"a\": {\"b\": 1").is_error());
        // Damage: a NUL byte, bytes that are not UTF-8.
        assert!(said("r.json", b"{\"a\": \"x\x00\"}").is_error());
        assert!(said("r.json", b"{\"a\": \"\xff\"}").is_error());
        // Not JSON: comment lines, JSON Lines in a `.json` file, a bad line before the last.
        let note = said("s_annotated.json", b"// checked by hand\n{\"a\": 1}\n");
        assert!(note.is_note(), "{note}");
        assert_eq!(
            note.message,
            "not read: not valid JSON (line 1, column 1: expected a JSON value here), so not a file any format's writer writes"
        );
        assert!(said("result.json", b"{\"id\": 1}\n{\"id\": 2}\n").is_note());
        // The place is said once, not again as the line's own.
        assert_eq!(
            said("s.jsonl", b"# notes\n{\"a\": 1}\n").message,
            "not read: not valid JSON Lines (line 1, column 1: expected a JSON value here), so not a file any format's writer writes"
        );
        // Empty: an output file the shell made before its writer wrote it (`> out.json`).
        assert_eq!(said("stability.json", b"").message, "not read: an empty file");
        assert!(said("stability.json", b" \n").is_note());
        // A file the user named is read as asked: its problem is an error.
        assert!(json_problem(Path::new("r.json"), b"// x\n{}").unwrap().said(true).is_error());
    }

    #[test]
    fn pretty_printed_json_lines_are_said_as_such() {
        let path = Path::new("s.jsonl");
        let pretty = b"{\n  \"a\": 1\n}\n{\n  \"a\": 2\n}\n";
        let note = json_lines_problem(path, pretty).unwrap().said(false);
        assert!(note.is_note(), "{note}");
        assert_eq!(
            note.message,
            "not read: 2 JSON values spread over 6 lines (pretty-printed?), not one JSON object per line as JSON \
             Lines holds them (`jq -c . FILE` writes each on a line of its own)"
        );
        // Named, it is an error of the whole file, not of its first line.
        let error = json_lines_problem(path, pretty).unwrap().said(true);
        assert!(error.is_error() && error.line.is_none(), "{error}");
        // A list on each line is JSON Lines, a list on the only line too.
        assert!(json_lines_problem(path, b"[1, 2]\n[3]\n").is_none());
        assert!(json_lines_problem(path, b"[{\"a\": 1}]\n").is_none());
        // Cut short, it is no whole JSON: the line where it breaks is said.
        let cut = json_lines_problem(path, b"{\n  \"a\": 1\n}\n{\n  \"a\": \n").unwrap();
        assert_eq!(cut.error.line, Some(1), "{}", cut.error);
    }
}
