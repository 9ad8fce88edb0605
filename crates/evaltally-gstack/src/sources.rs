//! Finding gstack result files on disk and reading them.
//!
//! gstack's collector writes `<evalDir>/<version>-<branch>-<tier>-<YYYY-MM-DD-HHMM>.json`
//! (legacy shape), under `~/.gstack/projects/<slug>/evals/` (and `shards/<slug>/`) or
//! `~/.gstack-dev/evals/`, and after every test rewrites `<evalDir>/_partial-e2e.json` with
//! `_partial: true`. Its readers skip partial files; so does [`discover`] unless asked.

use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, id::natural_str_cmp};
use serde_json::Value;

use crate::model::{GstackRun, detect};
use crate::runs;

/// A human-readable list of what [`discover`] finds, for "nothing found" messages.
pub const KNOWN: &str = concat!(
    "  gstack eval results: standard (`all_results`, `git_branch`, `duration_seconds`) or legacy EvalResult\n",
    "  (`tests`, `branch`, `total_duration_ms`), e.g. ~/.gstack/projects/<slug>/evals/*.json; _partial files are skipped",
);

/// How deep below a given folder results are looked for.
const MAX_DEPTH: usize = 10;
/// JSON files larger than this are not sniffed (results with transcripts stay far smaller).
const MAX_SNIFF_BYTES: u64 = 256 << 20;

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

/// Reads a JSON file. Text `serde_json` refuses but `JSON.parse` accepts (lone UTF-16
/// surrogates, which `JSON.stringify` writes for a string cut mid-pair, and numbers beyond
/// the double range) is read with JavaScript's rules, with a warning.
fn read_json(path: &Path) -> Result<(Value, Option<Diagnostic>), Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(path, format!("cannot read file: {e}")))?;
    let e = match serde_json::from_slice(&bytes) {
        Ok(v) => return Ok((v, None)),
        Err(e) => e,
    };
    let msg = e.to_string();
    let msg = msg.rfind(" at line ").map_or(msg.clone(), |p| msg[..p].to_string());
    if let Ok(doc) = std::str::from_utf8(&bytes).map_err(drop).and_then(|t| crate::js::parse(t).map_err(drop)) {
        let note = Diagnostic::warning(
            path,
            format!(
                "JSON that serde_json refuses ({msg}) but JSON.parse accepts: read with lone UTF-16 surrogates as \
                 U+FFFD and out-of-range numbers as null"
            ),
        )
        .at(e.line() as u64, e.column() as u64);
        return Ok((doc.to_value(), Some(note)));
    }
    Err(Diagnostic::error(path, format!("not valid JSON: {msg}")).at(e.line() as u64, e.column() as u64))
}

/// Finds gstack result files at or below `path`: the file itself, or the `*.json` files of
/// a folder tree that [`detect`] recognises, in natural order of their paths.
///
/// Partial saves (names starting with `_partial`, or `"_partial": true` inside) are left out
/// unless `include_partial`; a partial file named directly is left out with a warning that
/// says so. JSON that does not parse is reported when the file was named directly or has a
/// gstack-like name ([`looks_like_gstack_name`]); other files are passed over silently, as
/// are JSON documents of other formats.
pub fn discover(path: &Path, include_partial: bool, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    let direct = path.is_file();
    let mut files = Vec::new();
    collect(path, 0, &mut files, diags);
    let mut out = Vec::new();
    for file in files {
        if !include_partial && !direct && is_partial_name(&file) {
            continue;
        }
        if std::fs::metadata(&file).map_or(0, |m| m.len()) > MAX_SNIFF_BYTES {
            continue;
        }
        let doc = match read_json(&file) {
            Ok((v, _)) => v,
            Err(d) => {
                if direct || looks_like_gstack_name(&file) {
                    diags.push(d);
                }
                continue;
            }
        };
        if detect(&doc).is_none() {
            continue;
        }
        if !include_partial && (is_partial_name(&file) || is_partial_doc(&doc)) {
            if direct {
                diags.push(Diagnostic::warning(
                    &file,
                    "skipped: an incremental save of a run that had not finished (gstack's readers skip these too); \
                     ask to include partial results to read it",
                ));
            }
            continue;
        }
        out.push(file);
    }
    out.sort_by(|a, b| natural_str_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    out
}

fn collect(path: &Path, depth: usize, out: &mut Vec<PathBuf>, diags: &mut Vec<Diagnostic>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let entries = match std::fs::read_dir(path) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(path, format!("cannot list folder: {e}")));
            return;
        }
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        if child.is_dir() {
            if depth < MAX_DEPTH {
                collect(&child, depth + 1, out, diags);
            }
        } else if child.extension().is_some_and(|e| e == "json") {
            out.push(child);
        }
    }
}

/// Reads one result file: the run (with `source` set) and warnings about what was left out
/// or assumed; an error when the file cannot be read, is not JSON, or is not a gstack result.
pub fn read(path: &Path) -> Result<(GstackRun, Vec<Diagnostic>), Diagnostic> {
    let (doc, parse_note) = read_json(path)?;
    let mut notes = Vec::new();
    let Some(mut run) = GstackRun::read(&doc, &mut notes) else {
        return Err(Diagnostic::error(
            path,
            "not a gstack eval result: expected an object with `all_results` (standard) or `tests` and `branch` (legacy)",
        ));
    };
    run.source = Some(path.to_path_buf());
    notes.extend(runs::duplicate_tests(&run));
    let diags = parse_note.into_iter().chain(notes.into_iter().map(|n| Diagnostic::warning(path, n))).collect();
    Ok((run, diags))
}

/// Reads one result file as category runs (see [`runs::category_runs`]).
pub fn read_runs(path: &Path) -> Result<(Vec<CategoryRun>, Vec<Diagnostic>), Diagnostic> {
    let (run, diags) = read(path)?;
    Ok((runs::category_runs(&run), diags))
}
