//! Per-file diagnostics, with repeats of one kind capped.

use std::collections::HashMap;
use std::path::Path;

use evaltally_core::Diagnostic;

use crate::scan::ScanError;

/// What [`Reporter::check_final_newline`] says of a complete last line without a newline,
/// and `validate` too.
pub(crate) const NO_FINAL_NEWLINE: &str =
    "no newline at the end of the file, as BFCL's writer ends its files; the last line is complete";

/// Whether a last line without a newline is whole: it ends its object and parses (a line
/// cut inside a string can end with `}` too).
pub(crate) fn is_complete(line: &[u8]) -> bool {
    line.trim_ascii_end().ends_with(b"}") && serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
}

/// At most this many diagnostics of one kind are reported per file; the rest are counted.
const MAX_REPEATS: usize = 10;

/// Collects the diagnostics of one file, keeping at most [`MAX_REPEATS`] of each kind.
pub(super) struct Reporter<'p> {
    path: &'p Path,
    out: Vec<Diagnostic>,
    /// Per kind: how many were met, and where in `out` the last one kept is.
    counts: HashMap<&'static str, (usize, usize)>,
}

impl<'p> Reporter<'p> {
    pub(super) fn new(path: &'p Path) -> Self {
        Self { path, out: Vec::new(), counts: HashMap::new() }
    }

    fn push(&mut self, kind: &'static str, diag: Diagnostic) {
        let (n, last) = self.counts.entry(kind).or_insert((0, 0));
        *n += 1;
        if *n <= MAX_REPEATS {
            *last = self.out.len();
            self.out.push(diag);
        }
    }

    /// Whether the file bears BFCL v1's result file name.
    pub(super) fn is_v1(&self) -> bool {
        crate::layout::is_v1_name(self.path)
    }

    /// A fact of the file's shape that its writer always gives (BFCL v1's ids).
    pub(super) fn info(&mut self, line: u64, message: String) {
        self.out.push(Diagnostic::info(self.path, message).at_line(line));
    }

    pub(super) fn warn(&mut self, kind: &'static str, line: u64, message: String) {
        self.push(kind, Diagnostic::warning(self.path, message).at_line(line));
    }

    pub(super) fn error(&mut self, kind: &'static str, line: u64, message: String) {
        self.push(kind, Diagnostic::error(self.path, message).at_line(line));
    }

    /// An error of the whole file.
    pub(super) fn file_error(&mut self, message: String) {
        self.out.push(Diagnostic::error(self.path, message));
    }

    /// An error at `value`, a slice of `line` (line number `line_no`): placed at its column.
    pub(super) fn error_at(&mut self, kind: &'static str, line_no: u64, line: &[u8], value: &[u8], message: String) {
        let diag = Diagnostic::error(self.path, message);
        let diag = match evaltally_format::json::offset_in(line, value) {
            Some(offset) => diag.at(line_no, offset as u64 + 1),
            None => diag.at_line(line_no),
        };
        self.push(kind, diag);
    }

    /// A line that is not one complete JSON object; `what` names the record expected.
    pub(super) fn bad_line(&mut self, line: u64, e: &ScanError, what: &str) {
        self.bad_line_as("invalid JSON", line, e, what, "line skipped");
    }

    /// A line that is not one complete JSON object, of which `then` was read.
    pub(super) fn bad_line_then(&mut self, line: u64, e: &ScanError, what: &str, then: &str) {
        self.bad_line_as("invalid JSON, id read", line, e, what, then);
    }

    fn bad_line_as(&mut self, kind: &'static str, line: u64, e: &ScanError, what: &str, then: &str) {
        let column = e.offset as u64 + 1;
        self.push(
            kind,
            Diagnostic::error(
                self.path,
                format!("not a complete JSON {what} object: at column {column}, expected {}; {then}", e.message),
            )
            .at(line, column),
        );
    }

    /// Says when the last line has no newline. BFCL's own writer
    /// (`write_list_of_dicts_to_file`, for score files and sorted result files) ends no
    /// file with one, so a last line that closes its object is a fact of the file's shape;
    /// one that does not may have been cut short, which the line's own error also says.
    pub(super) fn check_final_newline(&mut self, buf: &[u8]) {
        if buf.is_empty() || buf.ends_with(b"\n") {
            return;
        }
        let (last_line, last) = crate::lines::split(buf).last().unwrap_or((1, buf));
        if is_complete(last) {
            self.info(last_line, NO_FINAL_NEWLINE.into());
        } else {
            self.warn(
                "final newline",
                last_line,
                "no newline at the end of the file (was it cut short?); the last line was read as it is".into(),
            );
        }
    }

    /// Appends the diagnostics to `into`: file-level ones (no line) first, then by line
    /// (stable, so same-line messages keep the order they were found in). The last one kept
    /// of a kind counts those held back ([`Diagnostic::more`]).
    pub(super) fn finish(mut self, into: &mut Vec<Diagnostic>) {
        for &(n, last) in self.counts.values() {
            if n > MAX_REPEATS {
                self.out[last].more = (n - MAX_REPEATS) as u64;
            }
        }
        self.out.sort_by_key(|d| d.line);
        into.append(&mut self.out);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_cut_inside_a_string_that_ends_in_a_brace_is_not_complete() {
        assert!(super::is_complete(br#"{"id": "b", "result": "x"}  "#));
        assert!(!super::is_complete(br#"{"id": "b", "result": "xy\"}"#));
        assert!(!super::is_complete(br#"{"id": "b", "result": "#));
    }
}
