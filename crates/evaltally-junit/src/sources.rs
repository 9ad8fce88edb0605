//! Finding JUnit reports on disk.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, id::natural_str_cmp};

use crate::{JunitError, looks_like_junit};

/// A human-readable line on what [`discover`] finds, for "nothing found" messages.
pub const KNOWN: &str =
    "  JUnit XML reports (`*.xml` with a `<testsuites>` or `<testsuite>` root), from test runners and eval tools";

/// How deep below a given folder reports are looked for.
const MAX_DEPTH: usize = 10;

/// Finds JUnit reports at or below `path`: the file itself when it is named `*.xml` (then
/// [`read_file`](crate::read_file) decides, and reports what is wrong) or starts like a
/// report, or the `*.xml` files of a folder tree whose first 64 KiB [`looks_like_junit`],
/// in natural order. Folders that
/// cannot be listed become error diagnostics.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("evaltally-junit-discover-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub")).unwrap();
/// std::fs::write(dir.join("sub/report.xml"), "<testsuites/>").unwrap();
/// std::fs::write(dir.join("pom.xml"), "<project/>").unwrap();
/// let found = evaltally_junit::discover(&dir, &mut Vec::new());
/// assert_eq!(found, [dir.join("sub/report.xml")]);
/// # std::fs::remove_dir_all(&dir).ok();
/// ```
pub fn discover(path: &Path, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    if path.is_file() {
        let keep = is_xml(path) || starts_like_junit(path);
        return if keep { vec![path.to_path_buf()] } else { Vec::new() };
    }
    let mut out = Vec::new();
    collect(path, 0, &mut out, diags);
    out.sort_by(|a, b| natural_str_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    out
}

fn collect(dir: &Path, depth: usize, out: &mut Vec<PathBuf>, diags: &mut Vec<Diagnostic>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(dir, format!("cannot list folder: {e}")));
            return;
        }
    };
    for child in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if child.is_dir() {
            if depth < MAX_DEPTH {
                collect(&child, depth + 1, out, diags);
            }
        } else if is_xml(&child) && starts_like_junit(&child) {
            out.push(child);
        }
    }
}

fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml"))
}

/// Whether the start of the file looks like a JUnit report (UTF-16 files are left to
/// [`read_file`](crate::read_file) when named directly).
fn starts_like_junit(path: &Path) -> bool {
    let mut head = Vec::with_capacity(64 * 1024);
    let Ok(file) = std::fs::File::open(path) else { return false };
    if file.take(64 * 1024).read_to_end(&mut head).is_err() {
        return false;
    }
    // A cut multi-byte character at the end of the window is not a reason to say no.
    let text = match std::str::from_utf8(&head) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
    };
    looks_like_junit(text)
}

impl JunitError {
    /// The error as a diagnostic on its file, with its line and column when it has them.
    ///
    /// ```
    /// let err = evaltally_junit::read("<testsuites><testsuite>", std::path::Path::new("r.xml")).unwrap_err();
    /// let d = err.to_diagnostic();
    /// assert_eq!((d.line, d.column), (Some(1), Some(24)));
    /// assert_eq!(d.message, "expected `</testsuite>` (opened at line 1), found end of input");
    /// ```
    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            JunitError::Io { path, source } => Diagnostic::error(path, format!("cannot read file: {source}")),
            JunitError::Encoding { path, offset } => Diagnostic::error(
                path,
                format!(
                    "byte {offset}: expected UTF-8 text (or UTF-16 with a byte order mark), found an invalid byte sequence"
                ),
            ),
            JunitError::Malformed { path, line, column, expected, found, .. } => {
                Diagnostic::error(path, format!("expected {expected}, found {found}")).at(*line, *column)
            }
        }
    }
}
