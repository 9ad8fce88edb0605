//! `validate` results: text and the JSON document ([`Document`])
//! `{"schema", "files": [{"path", "format", "valid", "errors": [...], "warnings": [...], "not_read": [...]}]}`
//! (`not_read` only for files found and not read: no format takes them, or theirs keeps no
//! runs in them).

use std::fmt::Write as _;

use evaltally_analyzer::validate::FileValidation;
use evaltally_core::Finding;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::printable;
use serde::Serialize;

use crate::Style;

/// The identifier of [`Document`], `evaltally.validate/1`.
pub const SCHEMA: SchemaId = SchemaId::new("validate", 1);

/// One file checked.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FileDocument<'a> {
    /// The file.
    pub path: String,
    /// The format it was checked as (`bfcl-result`, `sfbench-v2`, …).
    pub format: &'a str,
    /// Whether it has no errors.
    pub valid: bool,
    /// What is wrong, with the JSON path or line of each.
    pub errors: Vec<&'a Finding>,
    /// What is tolerated.
    pub warnings: Vec<&'a Finding>,
    /// Why the file was found and not read (only for such files).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_read: Vec<&'a Finding>,
}

/// Whether a file was found and not read: its findings are notes alone (or, for a file no
/// format took, facts: a program's log).
fn not_read(f: &FileValidation) -> bool {
    use evaltally_core::Severity::{Info, Note};
    // A file no format took: a note says why, or a fact (a program's log) does.
    let unknown = f.format == "unknown";
    !f.findings.is_empty() && f.findings.iter().all(|x| x.severity == Note || (unknown && x.severity == Info))
}

/// The JSON document `evaltally validate --format json` prints: whether each file matches
/// its format, and where it does not.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// One entry per file found.
    pub files: Vec<FileDocument<'a>>,
}

/// The JSON document, pretty-printed with a final newline.
pub fn json(files: &[FileValidation]) -> String {
    let doc = Document {
        schema: SCHEMA,
        files: files
            .iter()
            .map(|f| FileDocument {
                path: f.path.to_string_lossy().into_owned(),
                format: &f.format,
                valid: f.is_valid(),
                errors: f.errors().collect(),
                warnings: f.warnings().collect(),
                not_read: if not_read(f) { f.findings.iter().collect() } else { f.notes().collect() },
            })
            .collect(),
    };
    crate::pretty_json(&doc)
}

/// One line per file read (`valid` / `INVALID`), its findings indented below, then the
/// files found and not read, and a count. Files not read for one reason are one line (the
/// first, with how many are like it and the next), unless `every` (`--verbose`) lists
/// each. Paths and findings are shown with [`printable`].
pub fn text(files: &[FileValidation], style: Style, every: bool) -> String {
    let mut out = String::new();
    let mut unread_kinds: Vec<(String, Vec<&FileValidation>)> = Vec::new();
    for f in files {
        let lossy = f.path.to_string_lossy();
        let path = printable(&lossy);
        if not_read(f) {
            if every {
                let _ = writeln!(out, "{path}: not read");
                for finding in &f.findings {
                    let _ = writeln!(out, "  {finding}");
                }
            } else {
                let kind = f.findings.iter().map(Finding::kind).collect::<Vec<_>>().join("; ");
                match unread_kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, list)) => list.push(f),
                    None => unread_kinds.push((kind, vec![f])),
                }
            }
            continue;
        }
        let verdict = if f.is_valid() { style.green("valid") } else { style.red("INVALID") };
        let _ = writeln!(out, "{path}: {verdict} ({})", printable(&f.format));
        for finding in &f.findings {
            let _ = writeln!(out, "  {finding}");
        }
    }
    for (_, list) in &unread_kinds {
        let first = list[0];
        let why: Vec<String> = first.findings.iter().map(|f| printable(&f.message).into_owned()).collect();
        let mut why = why.join("; ");
        if !why.starts_with("not read: ") && !why.starts_with("skipped: ") {
            why.insert_str(0, "not read: ");
        }
        let mut line = format!("{}: {why}", printable(&first.path.to_string_lossy()));
        if let Some(next) = list.get(1) {
            let more = if list.len() > 2 { format!(" and {} more", list.len() - 2) } else { String::new() };
            let _ = write!(
                line,
                " ({} files like it: also {}{more}; --verbose lists them)",
                list.len(),
                printable(&next.path.to_string_lossy())
            );
        }
        let _ = writeln!(out, "{line}");
    }
    let unread = files.iter().filter(|f| not_read(f)).count();
    let checked = files.len() - unread;
    let invalid = files.iter().filter(|f| !f.is_valid()).count();
    let warned = files.iter().filter(|f| f.warnings().next().is_some()).count();
    let unread = if unread == 0 { String::new() } else { format!("; {unread} not read") };
    let _ = writeln!(
        out,
        "{checked} file{}: {} valid, {invalid} invalid, {warned} with warnings{unread}",
        if checked == 1 { "" } else { "s" },
        checked - invalid
    );
    out
}
