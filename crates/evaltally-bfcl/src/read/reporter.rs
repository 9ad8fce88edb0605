//! Per-file diagnostics, with repeats of one kind capped.

use std::collections::HashMap;
use std::path::Path;

use evaltally_core::Diagnostic;

use crate::scan::ScanError;

/// At most this many diagnostics of one kind are reported per file; the rest are counted.
const MAX_REPEATS: usize = 10;

/// Collects the diagnostics of one file, keeping at most [`MAX_REPEATS`] of each kind.
pub(super) struct Reporter<'p> {
    path: &'p Path,
    out: Vec<Diagnostic>,
    counts: HashMap<&'static str, usize>,
}

impl<'p> Reporter<'p> {
    pub(super) fn new(path: &'p Path) -> Self {
        Self { path, out: Vec::new(), counts: HashMap::new() }
    }

    fn push(&mut self, kind: &'static str, diag: Diagnostic) {
        let n = self.counts.entry(kind).or_insert(0);
        *n += 1;
        if *n <= MAX_REPEATS {
            self.out.push(diag);
        }
    }

    pub(super) fn warn(&mut self, kind: &'static str, line: u64, message: String) {
        self.push(kind, Diagnostic::warning(self.path, message).at_line(line));
    }

    pub(super) fn error(&mut self, kind: &'static str, line: u64, message: String) {
        self.push(kind, Diagnostic::error(self.path, message).at_line(line));
    }

    /// A line that is not one complete JSON object; `what` names the record expected.
    pub(super) fn bad_line(&mut self, line: u64, e: &ScanError, what: &str) {
        let column = e.offset as u64 + 1;
        self.push(
            "invalid JSON",
            Diagnostic::error(
                self.path,
                format!("not a complete JSON {what} object: at column {column}, expected {}; line skipped", e.message),
            )
            .at(line, column),
        );
    }

    /// Warns when the last line has no newline: a JSON Lines writer ends every line with
    /// one, so its absence often means the writer stopped early.
    pub(super) fn check_final_newline(&mut self, buf: &[u8]) {
        if buf.is_empty() || buf.ends_with(b"\n") {
            return;
        }
        let last_line = crate::lines::split(buf).last().map_or(1, |(n, _)| n);
        self.warn(
            "final newline",
            last_line,
            "no newline at the end of the file (was it cut short?); the last line was read as it is".into(),
        );
    }

    /// Appends the diagnostics to `into`: file-level ones (no line) first, then by line
    /// (stable, so same-line messages keep the order they were found in), then a count of
    /// what was held back.
    pub(super) fn finish(mut self, into: &mut Vec<Diagnostic>) {
        self.out.sort_by_key(|d| d.line);
        let mut extra: Vec<(&str, usize)> =
            self.counts.iter().filter(|(_, n)| **n > MAX_REPEATS).map(|(k, n)| (*k, *n)).collect();
        extra.sort_unstable();
        for (kind, n) in extra {
            self.out.push(Diagnostic::warning(
                self.path,
                format!("{} more `{kind}` messages for this file not shown", n - MAX_REPEATS),
            ));
        }
        into.append(&mut self.out);
    }
}
