use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// How bad a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Said, not wrong: a file found and not read (no format evaltally reads takes it, or
    /// its format keeps no runs in it). Commands count these in one line.
    Note,
    /// Tolerated: the data was read, with an assumption the user should know about.
    Warning,
    /// Something could not be read; the affected part was left out.
    Error,
}

/// A warning or error about one file, and where in it.
///
/// ```
/// use evaltally_core::{Diagnostic, Severity};
/// let d = Diagnostic::warning("run/score/m/BFCL_v4_simple_score.json", "duplicate id `simple_3`")
///     .at_line(7);
/// assert_eq!(d.to_string(), "run/score/m/BFCL_v4_simple_score.json:7: warning: duplicate id `simple_3`");
/// assert_eq!(d.severity, Severity::Warning);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// The file (or folder) the message is about.
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    /// 1-based line, when the message is about one line.
    pub line: Option<u64>,
    /// 1-based column (in bytes), when it helps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// What was found and what was expected.
    pub message: String,
}

impl Diagnostic {
    /// A warning about `path`.
    pub fn warning(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, path.into(), message.into())
    }

    /// A note about `path`: found, and not read (see [`Severity::Note`]).
    ///
    /// ```
    /// use evaltally_core::Diagnostic;
    /// let d = Diagnostic::note("runs/pom.xml", "not read: root element `project` is not JUnit's `testsuites`");
    /// assert!(d.is_note() && !d.is_error());
    /// assert_eq!(d.to_string(), "runs/pom.xml: note: not read: root element `project` is not JUnit's `testsuites`");
    /// ```
    pub fn note(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Note, path.into(), message.into())
    }

    /// An error about `path`.
    pub fn error(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path.into(), message.into())
    }

    fn new(severity: Severity, path: PathBuf, message: String) -> Self {
        Self { severity, path, line: None, column: None, message }
    }

    /// Sets the 1-based line.
    #[must_use]
    pub fn at_line(mut self, line: u64) -> Self {
        self.line = Some(line);
        self
    }

    /// Sets the 1-based line and column. Column 0 (what `serde_json` reports for an error
    /// at the very end of a line) means "no column".
    #[must_use]
    pub fn at(mut self, line: u64, column: u64) -> Self {
        self.line = Some(line);
        self.column = (column > 0).then_some(column);
        self
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether this is a warning.
    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// Whether this is a note (a file found and not read).
    pub fn is_note(&self) -> bool {
        self.severity == Severity::Note
    }
}

/// Paths that are not UTF-8 are written with U+FFFD in place of the bad bytes rather
/// than failing the whole document.
pub(crate) fn lossy_path<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// For people: the path and message are shown with [`crate::text::printable`] (control
/// characters escaped, URL passwords redacted); the fields themselves, and the JSON a
/// `Diagnostic` serializes to, keep the exact text.
///
/// ```
/// use evaltally_core::Diagnostic;
/// let d = Diagnostic::error("run/\u{1b}[2J.json", "test `a\u{1b}]0;x\u{7}`: bad\nvalue");
/// assert_eq!(d.to_string(), "run/\\u{1b}[2J.json: error: test `a\\u{1b}]0;x\\u{7}`: bad\\nvalue");
/// ```
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::text::printable(&self.path.to_string_lossy()))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        let kind = match self.severity {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, ": {kind}: {}", crate::text::printable(&self.message))
    }
}
