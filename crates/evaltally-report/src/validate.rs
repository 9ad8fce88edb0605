//! `validate` results: text and the JSON document ([`Document`])
//! `{"schema", "files": [{"path", "format", "valid", "errors": [...], "warnings": [...], "not_read": [...]}]}`
//! (`not_read` only for files found and not read: no format takes them, or theirs keeps no
//! runs in them).

use std::fmt::Write as _;

use evaltally_analyzer::validate::FileValidation;
use evaltally_core::diag::shown_kind;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::printable;
use evaltally_core::{Finding, Severity};
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

/// `what` said of the first of `files`, one line for all: `a.json: what (3 files like it:
/// also b.json and 1 more; --verbose lists them)`.
fn like_it(what: &str, files: &[&FileValidation]) -> String {
    let mut line = format!("{}: {what}", printable(&files[0].path.to_string_lossy()));
    if let Some(next) = files.get(1) {
        let more = if files.len() > 2 { format!(" and {} more", files.len() - 2) } else { String::new() };
        let _ = write!(
            line,
            " ({} files like it: also {}{more}; --verbose lists them)",
            files.len(),
            printable(&next.path.to_string_lossy())
        );
    }
    line
}

/// How many findings of one kind a file lists before it counts the rest in one line
/// (`--verbose` lists them all).
const LISTED_PER_KIND: usize = 5;

/// A file's findings, indented, unless `every` at most [`LISTED_PER_KIND`] of each kind
/// (facts left out), each kind's rest counted in one line after them.
fn file_findings(out: &mut String, f: &FileValidation, every: bool) {
    use evaltally_core::Severity::Info;
    // Each kind, its severity and the messages of its findings.
    let mut kinds: Vec<(String, Severity, Vec<&str>)> = Vec::new();
    for finding in f.findings.iter().filter(|x| every || x.severity != Info) {
        if !every {
            let kind = finding.kind();
            let at = kinds.iter().position(|(k, ..)| *k == kind).unwrap_or_else(|| {
                kinds.push((kind, finding.severity, Vec::new()));
                kinds.len() - 1
            });
            let said = &mut kinds[at].2;
            said.push(&finding.message);
            if said.len() > LISTED_PER_KIND {
                continue;
            }
        }
        let _ = writeln!(out, "  {finding}");
    }
    for (_, severity, said) in kinds.iter().filter(|(.., said)| said.len() > LISTED_PER_KIND) {
        // `error: what`: the severity's plural, then what the kind says, with what its
        // findings share kept.
        let shown = shown_kind(*severity, said);
        let what = shown.split_once(": ").map_or(shown.as_str(), |(_, what)| what);
        let _ = writeln!(
            out,
            "  … {} more {}s of this kind: {} (--verbose lists every one)",
            said.len() - LISTED_PER_KIND,
            severity.word(),
            printable(what)
        );
    }
}

/// Above this many files valid with no warning, they are counted in one line, not listed
/// (`--verbose` lists them).
const LISTED_CLEAN: usize = 20;

/// Files with errors or warnings, one line each (`valid` / `INVALID`) with those findings
/// indented below (at most five of each kind, the rest counted); files valid with no
/// warning listed too when there are at most 20 of them, else counted; then the facts of
/// the files' shapes (`info`), the files found and not read, and a count. Facts and files
/// not read are one line per kind (the first file, how many are like it and the next),
/// unless `every` (`--verbose`) lists every file with every finding. Paths and findings are shown with [`printable`].
pub fn text(files: &[FileValidation], style: Style, every: bool) -> String {
    use evaltally_core::Severity::Info;
    let mut out = String::new();
    let mut unread_kinds: Vec<(String, Vec<&FileValidation>)> = Vec::new();
    // Facts by kind: the first finding of the kind, and the files that have it.
    let mut facts: Vec<(String, &Finding, Vec<&FileValidation>)> = Vec::new();
    let clean = |f: &FileValidation| f.is_valid() && f.findings.iter().all(|x| x.severity == Info);
    let clean_count = files.iter().filter(|f| !not_read(f) && clean(f)).count();
    let list_clean = every || clean_count <= LISTED_CLEAN;
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
        if !every {
            for finding in f.findings.iter().filter(|x| x.severity == Info) {
                let kind = finding.kind();
                match facts.iter_mut().find(|(k, ..)| *k == kind) {
                    // A file counts once for a kind it has twice.
                    Some((.., list)) if list.last().is_some_and(|last| std::ptr::eq(*last, f)) => {}
                    Some((.., list)) => list.push(f),
                    None => facts.push((kind, finding, vec![f])),
                }
            }
        }
        if clean(f) && !list_clean {
            continue;
        }
        let verdict = if f.is_valid() { style.green("valid") } else { style.red("INVALID") };
        let _ = writeln!(out, "{path}: {verdict} ({})", printable(&f.format));
        file_findings(&mut out, f, every);
    }
    if !list_clean {
        let _ = writeln!(out, "{clean_count} files valid with no warning (--verbose lists them)");
    }
    for (_, finding, list) in &facts {
        let _ = writeln!(out, "{}", like_it(&format!("{finding}"), list));
    }
    for (_, list) in &unread_kinds {
        let why: Vec<String> = list[0].findings.iter().map(|f| printable(&f.message).into_owned()).collect();
        let mut why = why.join("; ");
        if !why.starts_with("not read: ") && !why.starts_with("skipped: ") {
            why.insert_str(0, "not read: ");
        }
        let _ = writeln!(out, "{}", like_it(&why, list));
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
