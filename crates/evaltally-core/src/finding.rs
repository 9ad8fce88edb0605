use std::fmt;

use serde::Serialize;

use crate::Severity;

/// One problem `validate` found inside a document, located by a JSON path
/// (`$.instances[2].status`) or a line (`line 12`).
///
/// ```
/// use evaltally_core::{Finding, Severity};
/// let f = Finding::error("$.summary.total_instances", "expected an integer, found \"12\"");
/// assert_eq!(f.to_string(), "$.summary.total_instances: error: expected an integer, found \"12\"");
/// assert_eq!(f.severity, Severity::Error);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    /// Error (the document is invalid) or warning (suspicious but allowed).
    pub severity: Severity,
    /// Where: a JSON path or a line.
    pub path: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl Finding {
    /// An error at `path`.
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Error, path: path.into(), message: message.into() }
    }

    /// A fact of the document's shape at `path` (see [`Severity::Info`]).
    pub fn info(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Info, path: path.into(), message: message.into() }
    }

    /// A warning at `path`.
    pub fn warning(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Warning, path: path.into(), message: message.into() }
    }

    /// The kind of problem, as [`crate::diag::kind`] masks it: two findings of one kind
    /// differ only in the names, ids and numbers they give.
    ///
    /// ```
    /// use evaltally_core::Finding;
    /// assert_eq!(Finding::error("line 3", "duplicate id `a`").kind(), Finding::error("line 9", "duplicate id `b`").kind());
    /// ```
    pub fn kind(&self) -> String {
        crate::diag::kind(self.severity, &self.message)
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// What a file set aside is, when this says one (`note: skipped: <what>`), as
    /// [`Diagnostic::set_aside`](crate::Diagnostic::set_aside).
    ///
    /// ```
    /// use evaltally_core::{Diagnostic, Finding};
    /// let f = Finding::from_diagnostic(Diagnostic::skipped("out/results.json", "lm-eval's aggregate results"), "$");
    /// assert_eq!(f.set_aside(), Some("lm-eval's aggregate results"));
    /// assert_eq!(Finding::warning("$", "skipped: no").set_aside(), None);
    /// ```
    pub fn set_aside(&self) -> Option<&str> {
        crate::diag::set_aside(self.severity, &self.message)
    }

    /// Where a diagnostic points, as findings say it: `line L, column C`, `line L`, or
    /// `whole` (`$`, `file`) when it points at no line.
    ///
    /// ```
    /// use evaltally_core::Finding;
    /// assert_eq!(Finding::location(Some(3), Some(7), "$"), "line 3, column 7");
    /// assert_eq!(Finding::location(Some(3), None, "$"), "line 3");
    /// assert_eq!(Finding::location(None, None, "file"), "file");
    /// ```
    pub fn location(line: Option<u64>, column: Option<u64>, whole: &str) -> String {
        match (line, column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}"),
            (Some(l), None) => format!("line {l}"),
            _ => whole.to_string(),
        }
    }

    /// A reader's diagnostic as a finding of the same severity, at its
    /// [`location`](Finding::location).
    pub fn from_diagnostic(d: crate::Diagnostic, whole: &str) -> Self {
        Self { severity: d.severity, path: Self::location(d.line, d.column, whole), message: d.message }
    }
}

/// For people: the path and message are shown with [`crate::text::printable`], the whole
/// document (`$`) as `file`; the fields and the JSON keep the exact text.
///
/// ```
/// let f = evaltally_core::Finding::warning("$", "a legacy file");
/// assert_eq!(f.to_string(), "file: warning: a legacy file");
/// assert_eq!(evaltally_core::Finding::error("$.total", "not a number").to_string(), "$.total: error: not a number");
/// ```
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path == "$" { "file" } else { self.path.as_str() };
        write!(
            f,
            "{}: {}: {}",
            crate::text::printable(path),
            self.severity.word(),
            crate::text::printable(&self.message)
        )
    }
}
