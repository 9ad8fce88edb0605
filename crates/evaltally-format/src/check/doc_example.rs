//! Documentation examples with `{...}` / `[...]` placeholders (not JSON as written).

use evaltally_core::Finding;
use serde_json::Value;

/// A documentation example that is not JSON even once its placeholders are replaced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: not JSON even with its placeholders replaced: {message}")]
pub struct DocExampleError {
    /// 1-based line in the example as given.
    pub line: usize,
    /// 1-based column (in bytes) in the example as given.
    pub column: usize,
    /// What the JSON parser expected.
    pub message: String,
}

/// A replaced placeholder, to map parser positions back to the original text.
struct Replaced {
    line: usize,
    /// Byte column in the rewritten line just after the replacement.
    out_col_end: usize,
    /// How many bytes shorter the rewritten line got.
    removed: usize,
}

/// Reads a documentation example such as SF-Bench's `"validation": {...}`: each placeholder
/// `{...}` or `[...]` (also `{ … }`, with the one-character ellipsis) outside strings becomes
/// an empty object or list, reported as a warning located by line and column (1-based, bytes)
/// in the text as given. Then the text is parsed as JSON.
///
/// The returned findings are only these replacements; validate the value with the format's
/// own checks.
///
/// ```
/// use evaltally_format::check::read_doc_example;
/// let text = "{\n  \"instance_id\": \"a\",\n  \"validation\": {...},\n  \"note\": \"see [...]\"\n}";
/// let (value, findings) = read_doc_example(text).unwrap();
/// assert_eq!(value["validation"], serde_json::json!({}));
/// assert_eq!(value["note"], "see [...]"); // inside a string: kept
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].path, "line 3, column 17");
/// assert!(read_doc_example("{\"a\": ...}").is_err());
/// ```
pub fn read_doc_example(text: &str) -> Result<(Value, Vec<Finding>), DocExampleError> {
    let mut out = String::with_capacity(text.len());
    let mut findings = Vec::new();
    let mut replaced: Vec<Replaced> = Vec::new();
    let (mut line, mut line_start, mut out_line_start) = (1usize, 0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    // The last string literal closed outside another string, and whether a `:` followed it:
    // the key of the value that comes next.
    let mut last_string = String::new();
    let mut current = String::new();
    let mut key: Option<String> = None;
    let mut i = 0;
    while let Some(ch) = text[i..].chars().next() {
        let len = ch.len_utf8();
        if in_string {
            out.push(ch);
            if escaped {
                escaped = false;
                current.push(ch);
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                in_string = false;
                last_string = std::mem::take(&mut current);
            } else {
                current.push(ch);
            }
            i += len;
            continue;
        }
        match ch {
            '"' => {
                in_string = true;
                current.clear();
                key = None;
            }
            ':' => key = Some(std::mem::take(&mut last_string)),
            '\n' => {
                out.push(ch);
                line += 1;
                line_start = i + 1;
                out_line_start = out.len();
                i += 1;
                continue;
            }
            '{' | '[' => {
                if let Some(end) = placeholder_end(&text[i..], ch) {
                    let column = i - line_start + 1;
                    let (empty, kind) = if ch == '{' { ("{}", "an empty object") } else { ("[]", "an empty list") };
                    let written = &text[i..i + end];
                    let what = key.take().map_or_else(
                        || format!("documentation placeholder {written}"),
                        |k| format!("the value of {} is the documentation placeholder {written}", super::quote(&k)),
                    );
                    findings.push(Finding::warning(
                        format!("line {line}, column {column}"),
                        format!("{what}; read as {empty} ({kind}), so checks of what it stands for cannot run"),
                    ));
                    out.push_str(empty);
                    replaced.push(Replaced {
                        line,
                        out_col_end: out.len() - out_line_start,
                        removed: end - empty.len(),
                    });
                    i += end;
                    continue;
                }
                key = None;
            }
            ',' | '}' | ']' => key = None,
            _ => {}
        }
        out.push(ch);
        i += len;
    }
    match serde_json::from_str::<Value>(&out) {
        Ok(v) => Ok((v, findings)),
        Err(e) => {
            let shift: usize =
                replaced.iter().filter(|r| r.line == e.line() && r.out_col_end <= e.column()).map(|r| r.removed).sum();
            let message = e.to_string();
            let message = message.rfind(" at line ").map_or(message.clone(), |p| message[..p].to_string());
            Err(DocExampleError { line: e.line(), column: e.column() + shift, message })
        }
    }
}

/// The length of a placeholder starting at `s` (which starts with `open`): the opening
/// bracket, spaces or tabs, `...` or `…`, spaces or tabs, the closing bracket.
fn placeholder_end(s: &str, open: char) -> Option<usize> {
    let close = if open == '{' { '}' } else { ']' };
    let rest = &s[1..];
    let after_ws = rest.trim_start_matches([' ', '\t']);
    let after_dots = after_ws.strip_prefix("...").or_else(|| after_ws.strip_prefix('…'))?;
    let after_ws2 = after_dots.trim_start_matches([' ', '\t']);
    let after_close = after_ws2.strip_prefix(close)?;
    Some(s.len() - after_close.len())
}

/// A document example with `{...}` placeholders, read with one warning per placeholder;
/// `None` for valid JSON, for text without placeholders, and for text even placeholders
/// cannot explain.
///
/// ```
/// let (doc, placeholders) = evaltally_format::check::doc_example(br#"{"a": 1, "b": {...}}"#).unwrap();
/// assert_eq!((doc["a"].as_i64(), placeholders.len()), (Some(1), 1));
/// assert!(evaltally_format::check::doc_example(br#"{"a": 1}"#).is_none());
/// ```
pub fn doc_example(bytes: &[u8]) -> Option<(Value, Vec<Finding>)> {
    let text = std::str::from_utf8(bytes).ok()?;
    if !text.contains("...") || serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        return None;
    }
    read_doc_example(text).ok().filter(|(_, placeholders)| !placeholders.is_empty())
}

/// Parses a document for validation: the value, with an error per key repeated within an
/// object ([`repeated_key_findings`](crate::json::repeated_key_findings)), or with a warning
/// per placeholder when it is a documentation example ([`doc_example`]); or its syntax error
/// as a finding.
pub fn parse_for_validation(bytes: &[u8]) -> Result<(Value, Vec<Finding>), Finding> {
    let bytes = crate::json::without_bom(bytes);
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => Ok((v, crate::json::repeated_key_findings(bytes))),
        Err(e) => doc_example(bytes).ok_or_else(|| crate::json::error_finding(&e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_map_back() {
        let e = read_doc_example("{\"a\": {...}, \"b\": }").unwrap_err();
        assert_eq!((e.line, e.column), (1, 19));
        let (v, f) = read_doc_example("[ [ … ], {...}]").unwrap();
        assert_eq!(v, serde_json::json!([[], {}]));
        assert_eq!(f[0].path, "line 1, column 3");
        assert_eq!(f[1].path, "line 1, column 12");
        assert!(f[0].message.starts_with("documentation placeholder [ … ]"));
        for garbage in ["", "{", "\"", "{...", "[...}", "\"\\", "{\"a\":\"\\u12\"}", "…", "{\"é\": {...}}"] {
            let _ = read_doc_example(garbage);
        }
    }
}
