//! Validating files of every format: BFCL result and score files (byte by byte), SF-Bench
//! and SWE-bench reports, gstack results.

use std::path::{Path, PathBuf};

use evaltally_bfcl::{FilePair, layout, validate as bfcl};
use evaltally_core::{Diagnostic, Finding};
use evaltally_sfbench as sfbench;
use rayon::prelude::*;
use serde::Serialize;

use crate::LoadError;

/// The outcome of validating one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileValidation {
    /// The file.
    #[serde(serialize_with = "lossy")]
    pub path: PathBuf,
    /// Its format (`bfcl-result`, `sfbench-v2`, `swebench-run-report`, `gstack`, …).
    pub format: String,
    /// Every problem found.
    #[serde(skip)]
    pub findings: Vec<Finding>,
}

fn lossy<S: serde::Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&p.to_string_lossy())
}

impl FileValidation {
    /// Whether the file has no error.
    pub fn is_valid(&self) -> bool {
        !self.findings.iter().any(Finding::is_error)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.is_error())
    }
}

/// Everything validated below the given paths.
#[derive(Debug, Default)]
pub struct Validated {
    /// One entry per file, in a stable order.
    pub files: Vec<FileValidation>,
    /// Problems finding the files (unreadable folders).
    pub diagnostics: Vec<Diagnostic>,
}

enum Job {
    Bfcl(FilePair),
    /// A document, and whether the user named it (then an unknown format is reported).
    Document(PathBuf, bool),
    /// A JUnit XML report.
    Junit(PathBuf),
}

/// Validates every BFCL file pair and every report document below `paths`. In folders
/// without BFCL files, every `*.json` file is checked; JSON documents of no known format
/// are left out (a file given by name is reported as unknown). gstack results get gstack's
/// own validator, or with `strict` also the checks it lacks
/// ([`evaltally_gstack::validate_strict`]).
pub fn validate(paths: &[PathBuf], strict: bool) -> Result<Validated, LoadError> {
    let mut diagnostics = Vec::new();
    let mut jobs = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).map_err(|source| evaltally_bfcl::BfclError::Io { path: path.clone(), source })?;
        if meta.is_file() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            match layout::classify(&name) {
                Some((kind, category)) => jobs.push(Job::Bfcl(single(path, kind, category))),
                None if !evaltally_junit::discover(path, &mut diagnostics).is_empty() => {
                    jobs.push(Job::Junit(path.clone()));
                }
                None => jobs.push(Job::Document(path.clone(), true)),
            }
            continue;
        }
        let mut runs = layout::find_runs(path, &mut diagnostics)?;
        layout::disambiguate(&mut runs);
        let before = jobs.len();
        for run in &runs {
            jobs.extend(run.files(&mut diagnostics).into_iter().map(Job::Bfcl));
        }
        if jobs.len() == before {
            json_files(path, 0, &mut jobs, &mut diagnostics);
            jobs.extend(evaltally_junit::discover(path, &mut diagnostics).into_iter().map(Job::Junit));
        }
    }
    if jobs.is_empty() {
        return Err(LoadError::NothingFound { searched: paths.to_vec() });
    }
    let results: Vec<Vec<FileValidation>> = jobs
        .par_iter()
        .map(|job| match job {
            Job::Bfcl(pair) => bfcl::validate_pair(pair)
                .into_iter()
                .map(|r| FileValidation { path: r.path, format: r.format.to_string(), findings: r.findings })
                .collect(),
            Job::Document(path, named) => document(path, *named, strict).into_iter().collect(),
            Job::Junit(path) => vec![junit(path)],
        })
        .collect();
    Ok(Validated { files: results.into_iter().flatten().collect(), diagnostics })
}

/// A BFCL file given on its own: validated without its partner.
fn single(path: &Path, kind: layout::FileKind, category: &str) -> FilePair {
    let mut pair = FilePair {
        run: String::new(),
        model: String::new(),
        category: category.to_string(),
        result: None,
        score: None,
    };
    match kind {
        layout::FileKind::Result => pair.result = Some(path.to_path_buf()),
        layout::FileKind::Score => pair.score = Some(path.to_path_buf()),
    }
    pair
}

fn json_files(dir: &Path, depth: usize, jobs: &mut Vec<Job>, diags: &mut Vec<Diagnostic>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(dir, format!("cannot list folder: {e}")));
            return;
        }
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        if child.is_dir() {
            if depth < 10 {
                json_files(&child, depth + 1, jobs, diags);
            }
        } else if child.extension().is_some_and(|e| e == "json") {
            jobs.push(Job::Document(child, false));
        }
    }
}

fn document(path: &Path, named: bool, strict: bool) -> Option<FileValidation> {
    let file = |format: &str, findings: Vec<Finding>| FileValidation {
        path: path.to_path_buf(),
        format: format.to_string(),
        findings,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return Some(file("unknown", vec![Finding::error("file", format!("cannot read file: {e}"))])),
    };
    let (value, mut findings) = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(v) => (v, Vec::new()),
        Err(e) => {
            // Documentation examples stand in `{...}` for what they leave out: read those
            // with a warning per placeholder rather than stop at the first one.
            let text = String::from_utf8_lossy(&bytes);
            match sfbench::validate::read_doc_example(&text) {
                Ok((v, placeholders)) if !placeholders.is_empty() => (v, placeholders),
                // gstack writes what JSON.stringify writes, lone UTF-16 surrogates included.
                _ if let Ok(doc) = evaltally_gstack::js::parse(&text)
                    && evaltally_gstack::detect(&doc.to_value()).is_some() =>
                {
                    let mut findings = vec![Finding::warning(
                        format!("line {}, column {}", e.line(), e.column()),
                        "JSON that serde_json refuses but JSON.parse accepts (a lone UTF-16 surrogate or a number \
                         beyond the double range); checked as gstack reads it",
                    )];
                    let value = doc.to_value();
                    findings.extend(evaltally_gstack::validate::validate_file(&value, strict));
                    return Some(file(gstack_format(&value), findings));
                }
                _ => {
                    let msg = e.to_string();
                    let msg = msg.rfind(" at line ").map_or(msg.clone(), |p| msg[..p].to_string());
                    let at = match e.column() {
                        0 => format!("line {}", e.line()),
                        column => format!("line {}, column {column}", e.line()),
                    };
                    return Some(file("unknown", vec![Finding::error(at, format!("not valid JSON: {msg}"))]));
                }
            }
        }
    };
    if let Some(format) = sfbench::detect::detect(&value) {
        findings.extend(sfbench::validate::validate(&value, format));
        return Some(file(format.name(), findings));
    }
    if let Some(part) = sfbench::validate::detect_part(&value) {
        findings.extend(sfbench::validate::validate_part(&value, part));
        return Some(file(&format!("sfbench-v2-{}", part.name()), findings));
    }
    // Most of gstack's required fields, but no test list: a standard result that lost it.
    let gstack_header =
        evaltally_gstack::validate::REQUIRED_FIELDS.iter().filter(|(k, _)| value.get(k).is_some()).count() >= 6;
    if evaltally_gstack::detect(&value).is_some() || gstack_header {
        findings.extend(evaltally_gstack::validate::validate_file(&value, strict));
        return Some(file(gstack_format(&value), findings));
    }
    named.then(|| {
        file(
            "unknown",
            vec![Finding::error(
                "$",
                "not a format evaltally knows: expected a BFCL result or score file, an SF-Bench or SWE-bench \
                 report, or a gstack eval result",
            )],
        )
    })
}

/// A JUnit report: what the reader refused (an error) or tolerated (warnings), by line.
fn junit(path: &Path) -> FileValidation {
    let at = |line: Option<u64>, column: Option<u64>| match (line, column) {
        (Some(l), Some(c)) => format!("line {l}, column {c}"),
        (Some(l), None) => format!("line {l}"),
        _ => "file".to_string(),
    };
    let findings = match evaltally_junit::read_file(path) {
        Ok(run) => run.diagnostics.iter().map(|d| Finding::warning(at(d.line, d.column), d.message.clone())).collect(),
        Err(e) => {
            let d = e.to_diagnostic();
            vec![Finding::error(at(d.line, d.column), d.message)]
        }
    };
    FileValidation { path: path.to_path_buf(), format: evaltally_junit::FORMAT.to_string(), findings }
}

fn gstack_format(value: &serde_json::Value) -> &'static str {
    match evaltally_gstack::detect(value) {
        Some(evaltally_gstack::Shape::Legacy) => "gstack-legacy",
        _ => "gstack",
    }
}
