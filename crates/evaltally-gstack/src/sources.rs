//! Reading gstack result files, and telling their partial saves apart.
//!
//! gstack's collector writes `<evalDir>/<version>-<branch>-<tier>-<YYYY-MM-DD-HHMM>.json`
//! (legacy shape), under `~/.gstack/projects/<slug>/evals/` (and `shards/<slug>/`) or
//! `~/.gstack-dev/evals/`, and after every test rewrites `<evalDir>/_partial-e2e.json` with
//! `_partial: true`. Its readers skip partial files; so does evaltally unless asked.

use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic};
use serde_json::Value;

use crate::model::GstackRun;
use crate::runs;

/// A human-readable list of the files this crate reads, for "nothing found" messages.
pub const KNOWN: &str = concat!(
    "  gstack eval results: standard (`all_results`, `git_branch`, `duration_seconds`) or legacy EvalResult\n",
    "  (`tests`, `branch`, `total_duration_ms`), e.g. ~/.gstack/projects/<slug>/evals/*.json; _partial files are skipped;\n",
    "  the sharded runner's shards/<slug>/*.json of one invocation are one run",
);

/// Whether a file name marks an incremental save (`_partial-e2e.json`, `_partial…`).
pub fn is_partial_name(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("_partial"))
}

/// Whether a document says it is an incremental save (`"_partial": true`).
pub fn is_partial_doc(v: &Value) -> bool {
    v.get("_partial").and_then(Value::as_bool) == Some(true)
}

/// Whether a file name looks like one gstack writes: `_partial…`, or a stem ending in a
/// `-YYYY-MM-DD-HHMM` date.
///
/// ```
/// use std::path::Path;
/// use evaltally_gstack::sources::looks_like_gstack_name;
/// assert!(looks_like_gstack_name(Path::new("0.3.3-main-e2e-2026-03-15-1030.json")));
/// assert!(looks_like_gstack_name(Path::new("_partial-e2e.json")));
/// assert!(!looks_like_gstack_name(Path::new("results.json")));
/// ```
pub fn looks_like_gstack_name(path: &Path) -> bool {
    if is_partial_name(path) {
        return true;
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(stem) = name.strip_suffix(".json") else { return false };
    let Some(date) = stem.len().checked_sub(16).and_then(|at| stem.get(at..)) else { return false };
    date.bytes().enumerate().all(|(i, b)| match i {
        0 | 5 | 8 | 11 => b == b'-',
        _ => b.is_ascii_digit(),
    })
}

/// Parses a JSON document. Text `serde_json` refuses but `JSON.parse` accepts (lone UTF-16
/// surrogates, which `JSON.stringify` writes for a string cut mid-pair, and numbers beyond
/// the double range) is read with JavaScript's rules, with a warning.
pub(crate) fn parse_json(path: &Path, bytes: &[u8]) -> Result<(Value, Option<Diagnostic>), Diagnostic> {
    let bytes = evaltally_format::json::without_bom(bytes);
    let e = match serde_json::from_slice(bytes) {
        Ok(v) => return Ok((v, None)),
        Err(e) => e,
    };
    let msg = evaltally_format::json::message(&e);
    let column = evaltally_format::json::column(&e) as u64;
    if let Ok(doc) = std::str::from_utf8(bytes).map_err(drop).and_then(|t| crate::js::parse(t).map_err(drop)) {
        let note = Diagnostic::warning(
            path,
            format!(
                "JSON that serde_json refuses ({msg}) but JSON.parse accepts: read with lone UTF-16 surrogates as \
                 U+FFFD and out-of-range numbers as null"
            ),
        )
        .at(e.line() as u64, column);
        return Ok((doc.to_value(), Some(note)));
    }
    Err(Diagnostic::error(path, evaltally_format::json::problem(&e)).at(e.line() as u64, column))
}

/// Reads one result file: the run (with `source` set) and warnings about what was left out
/// or assumed; an error when the file cannot be read, is not JSON, or is not a gstack result.
pub fn read(path: &Path) -> Result<(GstackRun, Vec<Diagnostic>), Diagnostic> {
    let bytes = evaltally_format::file::read_or_error(path)?;
    read_bytes(path, &bytes)
}

/// [`read`] on a file's content already in memory; `path` names it in messages.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<(GstackRun, Vec<Diagnostic>), Diagnostic> {
    read_bytes_as(path, bytes, false)
}

/// [`read_bytes`]; with `forced` (`--as gstack`), a document whose keys do not say which
/// shape it is is read as one anyway ([`GstackRun::read_forced`]), with a warning.
pub fn read_bytes_as(path: &Path, bytes: &[u8], forced: bool) -> Result<(GstackRun, Vec<Diagnostic>), Diagnostic> {
    let (doc, parse_note) = parse_json(path, bytes)?;
    let mut notes = Vec::new();
    let read = if forced { GstackRun::read_forced(&doc, &mut notes) } else { GstackRun::read(&doc, &mut notes) };
    let Some(mut run) = read else {
        return Err(Diagnostic::error(
            path,
            "not a gstack eval result: expected an object with `all_results` (standard) or `tests` and `branch` (legacy)",
        ));
    };
    run.source = Some(path.to_path_buf());
    notes.extend(runs::duplicate_tests(&run));
    let repeated = evaltally_format::json::repeated_key_warnings(path, bytes);
    let diags =
        parse_note.into_iter().chain(repeated).chain(notes.into_iter().map(|n| Diagnostic::warning(path, n))).collect();
    Ok((run, diags))
}

/// Reads one result file as category runs (see [`runs::category_runs`]).
pub fn read_runs(path: &Path) -> Result<(Vec<CategoryRun>, Vec<Diagnostic>), Diagnostic> {
    let (run, diags) = read(path)?;
    Ok((runs::category_runs(&run), diags))
}
