//! JSON helpers every JSON format shares: a syntax error as a located diagnostic.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};

/// A `serde_json` error's message without its trailing ` at line L column C`, which
/// diagnostics carry as fields.
pub fn message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.rfind(" at line ") {
        Some(p) => msg[..p].to_string(),
        None => msg,
    }
}

/// A JSON syntax error as an error diagnostic on `path`, at its line and column:
/// `not valid JSON: <what serde_json expected>`.
///
/// ```
/// let e = serde_json::from_str::<serde_json::Value>("{\"a\": ").unwrap_err();
/// let d = evaltally_format::json::error_diagnostic("r.json".as_ref(), &e);
/// assert_eq!(d.to_string(), "r.json:1:6: error: not valid JSON: EOF while parsing a value");
/// ```
pub fn error_diagnostic(path: &Path, e: &serde_json::Error) -> Diagnostic {
    Diagnostic::error(path, format!("not valid JSON: {}", message(e))).at(e.line() as u64, e.column() as u64)
}

/// The same error as a validation finding located by `line L, column C`.
pub fn error_finding(e: &serde_json::Error) -> Finding {
    let at = match e.column() {
        0 => format!("line {}", e.line()),
        column => format!("line {}, column {column}", e.line()),
    };
    Finding::error(at, format!("not valid JSON: {}", message(e)))
}

/// The syntax error of `bytes` as JSON, if any, worded as every reader words it (for files
/// no format took, so rarely called).
pub fn syntax_error(bytes: &[u8]) -> Option<serde_json::Error> {
    serde_json::from_slice::<serde_json::Value>(bytes).err()
}

/// Whether `bytes` start (after a byte order mark and white space) like a JSON document.
pub fn starts_like_json(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    b.iter().find(|c| !c.is_ascii_whitespace()).is_some_and(|c| matches!(c, b'{' | b'['))
}

/// Parses a JSON document already in memory into a value; a syntax error is an error
/// diagnostic on `path` at its line and column ([`error_diagnostic`]).
pub fn parse(path: &Path, bytes: &[u8]) -> Result<serde_json::Value, Diagnostic> {
    serde_json::from_slice(bytes).map_err(|e| error_diagnostic(path, &e))
}

/// Reads and parses a JSON file (for files a unit reads itself, outside the pipeline's
/// buffer: the per-instance reports a run report points to, say).
pub fn read(path: &Path) -> Result<serde_json::Value, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(path, format!("cannot read file: {e}")))?;
    parse(path, &bytes)
}

/// Whether a path ends in `.json` (any case): what JSON formats claim for sniffing.
pub fn is_json_path(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// A file's name without `.json` (the whole name when it has another ending).
pub fn stem(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.strip_suffix(".json").unwrap_or(&name).to_string()
}
