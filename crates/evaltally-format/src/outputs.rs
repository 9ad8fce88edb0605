//! What reading a unit gives, one type per question asked of it.

use std::path::{Path, PathBuf};

use evaltally_core::{CategoryRun, Diagnostic, Finding, RunRecord, TestDetail};
use serde::Serialize;

/// Runs read for analysis: tests, outcomes and error types.
#[derive(Debug, Default)]
pub struct Read {
    /// One entry per (run, model, category).
    pub runs: Vec<CategoryRun>,
    /// Everything worth telling about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs read test by test with everything the files keep, for `convert` and `export`.
#[derive(Debug, Default)]
pub struct Records {
    /// One record per (run, model) in the unit. A format whose units hold part of a run (a
    /// BFCL category) gives that part; the caller gathers records by (model, run, source).
    pub runs: Vec<RunRecord>,
    /// Problems met.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a unit says about one test.
#[derive(Debug, Default)]
pub struct Shown {
    /// One entry per (run, model) whose files hold the test's category.
    pub details: Vec<TestDetail>,
    /// Problems met.
    pub diagnostics: Vec<Diagnostic>,
}

/// An adapter's reading, or the one diagnostic that stopped it (a file that is not the
/// format's, cut short, …), as the pipeline takes it:
///
/// ```
/// use evaltally_core::{CategoryRun, Diagnostic};
/// use evaltally_format::Read;
/// let failed: Result<(Vec<CategoryRun>, Vec<Diagnostic>), Diagnostic> = Err(Diagnostic::error("a.json", "not JSON"));
/// let read = Read::from(failed);
/// assert!(read.runs.is_empty());
/// assert_eq!(read.diagnostics.len(), 1);
/// ```
impl From<Result<(Vec<CategoryRun>, Vec<Diagnostic>), Diagnostic>> for Read {
    fn from(read: Result<(Vec<CategoryRun>, Vec<Diagnostic>), Diagnostic>) -> Self {
        match read {
            Ok((runs, diagnostics)) => Self { runs, diagnostics },
            Err(d) => Self { runs: Vec::new(), diagnostics: vec![d] },
        }
    }
}

/// An adapter's records, or the one diagnostic that stopped their reading.
impl From<Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic>> for Records {
    fn from(read: Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic>) -> Self {
        match read {
            Ok((runs, diagnostics)) => Self { runs, diagnostics },
            Err(d) => Self { runs: Vec::new(), diagnostics: vec![d] },
        }
    }
}

/// What an adapter found of a test (with what it noted on the way), or the one
/// diagnostic that stopped it.
impl From<Result<(Vec<TestDetail>, Vec<Diagnostic>), Diagnostic>> for Shown {
    fn from(read: Result<(Vec<TestDetail>, Vec<Diagnostic>), Diagnostic>) -> Self {
        match read {
            Ok((details, diagnostics)) => Self { details, diagnostics },
            Err(d) => Self { details: Vec::new(), diagnostics: vec![d] },
        }
    }
}

/// What an adapter found of a test, or the one diagnostic that stopped it.
impl From<Result<Vec<TestDetail>, Diagnostic>> for Shown {
    fn from(read: Result<Vec<TestDetail>, Diagnostic>) -> Self {
        read.map(|details| (details, Vec::new())).into()
    }
}

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
    /// A file's findings.
    pub fn new(path: &Path, format: &str, findings: Vec<Finding>) -> Self {
        Self { path: path.to_path_buf(), format: format.to_string(), findings }
    }

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
        self.findings.iter().filter(|f| f.severity == evaltally_core::Severity::Warning)
    }

    /// The notes: the file was not read, and why.
    pub fn notes(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.severity == evaltally_core::Severity::Note)
    }

    /// Puts first among the findings of `path` in `files` that its content, `bytes`, starts
    /// with a byte order mark, when it is a JSON document that does
    /// ([`bom_finding`](crate::json::bom_finding)): what every reader reads past, said by
    /// `validate` whichever format checked the file.
    ///
    /// ```
    /// use evaltally_format::FileValidation;
    /// use std::path::Path;
    /// let mut files = vec![FileValidation::new(Path::new("r.json"), "gstack", Vec::new())];
    /// FileValidation::note_bom(&mut files, Path::new("r.json"), b"\xEF\xBB\xBF{}");
    /// assert_eq!(files[0].warnings().count(), 1);
    /// ```
    pub fn note_bom(files: &mut [FileValidation], path: &Path, bytes: &[u8]) {
        if let Some(file) = files.iter_mut().find(|f| f.path == path)
            && let Some(bom) = crate::json::bom_finding(bytes)
        {
            file.findings.insert(0, bom);
        }
    }
}

/// What validating a unit found.
#[derive(Debug, Default)]
pub struct Validated {
    /// One entry per file checked.
    pub files: Vec<FileValidation>,
    /// Problems finding or reading the files.
    pub diagnostics: Vec<Diagnostic>,
}
