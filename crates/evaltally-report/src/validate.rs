//! `validate` results: text and the JSON document
//! `{"files": [{"path", "format", "valid", "errors": [...], "warnings": [...]}]}`.

use std::fmt::Write as _;

use evaltally_analyzer::validate::FileValidation;
use evaltally_core::Finding;
use evaltally_core::text::printable;
use serde::Serialize;

use crate::Style;

#[derive(Serialize)]
struct FileDoc<'a> {
    path: String,
    format: &'a str,
    valid: bool,
    errors: Vec<&'a Finding>,
    warnings: Vec<&'a Finding>,
}

#[derive(Serialize)]
struct Doc<'a> {
    files: Vec<FileDoc<'a>>,
}

/// The JSON document, pretty-printed with a final newline.
pub fn json(files: &[FileValidation]) -> String {
    let doc = Doc {
        files: files
            .iter()
            .map(|f| FileDoc {
                path: f.path.to_string_lossy().into_owned(),
                format: &f.format,
                valid: f.is_valid(),
                errors: f.errors().collect(),
                warnings: f.warnings().collect(),
            })
            .collect(),
    };
    crate::pretty_json(&doc)
}

/// One line per file (`valid` / `INVALID`), its findings indented below, and a count.
/// Paths and findings are shown with [`printable`].
pub fn text(files: &[FileValidation], style: Style) -> String {
    let mut out = String::new();
    for f in files {
        let verdict = if f.is_valid() { style.green("valid") } else { style.red("INVALID") };
        let _ = writeln!(out, "{}: {verdict} ({})", printable(&f.path.to_string_lossy()), printable(&f.format));
        for finding in &f.findings {
            let _ = writeln!(out, "  {finding}");
        }
    }
    let invalid = files.iter().filter(|f| !f.is_valid()).count();
    let warned = files.iter().filter(|f| f.warnings().next().is_some()).count();
    let _ = writeln!(
        out,
        "{} file{}: {} valid, {invalid} invalid, {warned} with warnings",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        files.len() - invalid
    );
    out
}
