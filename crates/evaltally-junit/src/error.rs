//! Why a JUnit document could not be read at all.

use std::io;
use std::path::PathBuf;

/// Why a JUnit XML document could not be read.
///
/// Oddities that still leave a readable report (a malformed `time`, counts that disagree,
/// an unknown entity) are not errors but warnings in [`JunitRun::diagnostics`].
///
/// ```
/// use std::path::Path;
/// let err = evaltally_junit::read("<testsuites><testsuite name=\"a\">", Path::new("r.xml")).unwrap_err();
/// assert_eq!(err.to_string(), "r.xml:1:33: expected `</testsuite>` (opened at line 1), found end of input");
/// assert_eq!(err.position(), Some((1, 33, 32)));
/// ```
///
/// [`JunitRun::diagnostics`]: crate::JunitRun::diagnostics
#[derive(Debug, thiserror::Error)]
pub enum JunitError {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file's bytes are not UTF-8 (nor UTF-16 with a byte order mark).
    #[error("{}:{line}:{column}: expected UTF-8 text (or UTF-16 with a byte order mark), found an invalid byte sequence", path.display())]
    Encoding {
        /// The file.
        path: PathBuf,
        /// 1-based line of the first invalid sequence.
        line: u64,
        /// 1-based column (in bytes) of the first invalid sequence.
        column: u64,
        /// 0-based byte offset of the first invalid sequence.
        offset: usize,
    },
    /// The text is not well-formed XML, or not a JUnit report.
    #[error("{}:{line}:{column}: expected {expected}, found {found}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// 1-based column, in bytes.
        column: u64,
        /// 0-based byte offset into the text.
        offset: usize,
        /// What the reader expected there.
        expected: String,
        /// What it found instead.
        found: String,
    },
}

impl JunitError {
    /// The (line, column, byte offset) of a [`JunitError::Malformed`] or
    /// [`JunitError::Encoding`] error.
    pub fn position(&self) -> Option<(u64, u64, usize)> {
        match self {
            JunitError::Malformed { line, column, offset, .. } | JunitError::Encoding { line, column, offset, .. } => {
                Some((*line, *column, *offset))
            }
            JunitError::Io { .. } => None,
        }
    }
}
