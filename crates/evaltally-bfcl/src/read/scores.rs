//! The summary and failures of a score file.

use std::borrow::Cow;

use super::reporter::Reporter;
use super::results::Results;
use crate::lines::{self, RawId, ScoreRecord};

/// A summary line: where it is, and its counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Summary {
    pub(super) line: u64,
    pub(super) total: Option<u64>,
    pub(super) correct: Option<u64>,
}

/// A failure entry: the test failed, with this error label if the entry has one.
#[derive(Clone, Debug)]
pub(super) struct Failure<'b> {
    pub(super) label: Option<Cow<'b, str>>,
}

/// What a score file says: its summary and, per test of the result file, its failure.
#[derive(Debug)]
pub(super) struct Scores<'b> {
    pub(super) summary: Option<Summary>,
    /// Per result index: the failure, if the test failed.
    pub(super) failures: Vec<Option<Failure<'b>>>,
    pub(super) failure_count: usize,
    /// Lines read as a summary or a failure (some then set aside, such as a failure of a
    /// test not in the result file): none, and the file says nothing of any test.
    pub(super) records: usize,
    /// Lines that are not whole JSON, whose id could not be read, and that do not look
    /// like the summary: failures of tests nobody can name, unless the summary's counts
    /// show that every failure is listed.
    pub(super) unread: usize,
}

/// The id a line starts with as BFCL's writer puts it, first (`{"id": "simple_4", …`): a
/// string without escapes, read from a line that is not whole JSON.
fn leading_id(line: &[u8]) -> Option<&str> {
    let rest = line.trim_ascii_start().strip_prefix(b"{")?.trim_ascii_start().strip_prefix(b"\"id\"")?;
    let rest = rest.trim_ascii_start().strip_prefix(b":")?.trim_ascii_start().strip_prefix(b"\"")?;
    let end = memchr::memchr2(b'"', b'\\', rest)?;
    if rest[end] != b'"' {
        return None;
    }
    std::str::from_utf8(&rest[..end]).ok()
}

/// Reads a score file against the tests of its result file.
pub(super) fn read<'b>(buf: &'b [u8], results: &Results, rep: &mut Reporter<'_>) -> Scores<'b> {
    rep.check_final_newline(buf);
    let mut out =
        Scores { summary: None, failures: vec![None; results.len()], failure_count: 0, records: 0, unread: 0 };
    let mut failure_line = vec![0u64; results.len()];
    let mut first_record = true;
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            rep.warn("blank line", line_no, "blank line ignored".into());
            continue;
        }
        let was_first = std::mem::replace(&mut first_record, false);
        let record = match ScoreRecord::parse(line) {
            Ok(r) => r,
            Err(e) => {
                // A score file lists failures only: a broken line whose id can be read
                // still says that test failed, rather than leaving it to pass. One whose id
                // cannot be read, or names no test (its id may be what broke), may be any
                // test's failure (a broken summary aside).
                let index = leading_id(line).and_then(|id| results.find(id));
                if let Some(index) = index.filter(|&i| failure_line[i] == 0) {
                    rep.bad_line_then(
                        line_no,
                        &e,
                        "summary or failure",
                        &format!("its id `{}` read: a failure, of no known error type", results.ids.get(index)),
                    );
                    failure_line[index] = line_no;
                    out.failures[index] = Some(Failure { label: None });
                    out.failure_count += 1;
                    out.records += 1;
                } else {
                    rep.bad_line(line_no, &e, "summary or failure");
                    if index.is_none() && memchr::memmem::find(line, b"\"correct_count\"").is_none() {
                        out.unread += 1;
                    }
                }
                continue;
            }
        };
        out.records += 1;
        if let Some(key) = record.repeated {
            rep.warn(
                "repeated key",
                line_no,
                format!("key `{key}` appears twice on this line; the last value is read"),
            );
        }
        if record.is_summary() {
            if !was_first {
                rep.warn("late summary", line_no, "summary line found here; expected it on the first line".into());
            }
            if out.summary.is_some() {
                rep.warn("second summary", line_no, "second summary line ignored".into());
                continue;
            }
            let total = lines::count(record.total_count);
            if total.is_none() {
                rep.warn("bad summary", line_no, "summary line has no integer `total_count`".into());
            }
            out.summary = Some(Summary { line: line_no, total, correct: lines::count(record.correct_count) });
            continue;
        }
        if was_first {
            rep.warn(
                "missing summary",
                line_no,
                "first line is not a summary (`{\"accuracy\", \"correct_count\", \"total_count\"}`); read as a failure"
                    .into(),
            );
        }
        if record.is_valid() {
            rep.warn(
                "valid entry",
                line_no,
                "entry has `\"valid\": true`; score files list failures only; not counted as a failure".into(),
            );
            continue;
        }
        let index = match record.raw_id() {
            Some(RawId::Str(s)) => results.find(&s).ok_or_else(|| s.into_owned()),
            Some(RawId::Int(n)) => match record.prompt_id() {
                Some(p) => results.find(&p).ok_or_else(|| p.into_owned()),
                None => usize::try_from(n)
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .filter(|&i| i < results.len())
                    .ok_or_else(|| format!("#{n} (by position)")),
            },
            Some(RawId::Other) => {
                let value = record.id.unwrap_or_default();
                let raw = lines::excerpt(value);
                rep.error_at(
                    "bad id",
                    line_no,
                    line,
                    value,
                    format!("`id` must be a JSON string (or an integer in old files), found `{raw}`; line skipped"),
                );
                continue;
            }
            None => {
                rep.error("missing id", line_no, "failure entry has no `id`; line skipped".into());
                continue;
            }
        };
        let index = match index {
            Ok(i) => i,
            Err(id) => {
                rep.warn("unknown id", line_no, format!("failure `{id}` is not in the result file; ignored"));
                continue;
            }
        };
        if failure_line[index] != 0 {
            rep.warn(
                "duplicate id",
                line_no,
                format!(
                    "duplicate failure for `{}` (first at line {}); counted once",
                    results.ids.get(index),
                    failure_line[index]
                ),
            );
            continue;
        }
        failure_line[index] = line_no;
        out.failures[index] = Some(Failure { label: record.error_label() });
        out.failure_count += 1;
    }
    out
}

/// Warns when the summary line disagrees with the files.
pub(super) fn check_summary(scores: &Scores<'_>, results: &Results, rep: &mut Reporter<'_>) {
    let Some(Summary { line, total, correct }) = scores.summary else {
        if scores.failure_count > 0 || results.len() == 0 {
            rep.warn("missing summary", 1, "no summary line; counts taken from the files".into());
        }
        return;
    };
    let listed = results.len() as u64;
    let failed = scores.failure_count as u64;
    if let Some(total) = total
        && total != listed
    {
        rep.warn(
            "summary mismatch",
            line,
            format!("summary says total_count {total}, the result file lists {listed} tests"),
        );
    }
    // With lines that could not be read, `passes_unknown` says what the count shows.
    if let Some(correct) = correct
        && scores.unread == 0
        && correct != listed.saturating_sub(failed)
        && !(failed == 0 && Some(correct) < total)
    {
        rep.warn(
            "summary mismatch",
            line,
            format!(
                "summary says correct_count {correct}, the files give {} ({listed} listed, {failed} failed)",
                listed.saturating_sub(failed)
            ),
        );
    }
}

impl Scores<'_> {
    /// A score file with a summary that counts failures but lists none.
    pub(super) fn is_summary_only(&self) -> bool {
        self.failure_count == 0
            && matches!(self.summary, Some(Summary { total: Some(t), correct: Some(c), .. }) if c < t)
    }

    /// Why no test of the file can be called a pass: lines that could not be read may be
    /// failures of any of them, and the summary does not show that every failure is listed
    /// (its `total_count` the tests of the result file, its `correct_count` the tests not
    /// listed as failures). `None` when there is no such line, or the counts agree.
    pub(super) fn passes_unknown(&self, results: &Results) -> Option<String> {
        if self.unread == 0 {
            return None;
        }
        let listed = results.len() as u64;
        let passes = listed.saturating_sub(self.failure_count as u64);
        let disagreement = match self.summary {
            Some(Summary { total: Some(t), correct: Some(c), .. }) if t == listed && c == passes => return None,
            Some(Summary { correct: Some(c), .. }) if c != passes => {
                Some(format!("correct_count {c}, the files give {passes}"))
            }
            Some(Summary { total: Some(t), correct: Some(_), .. }) => {
                Some(format!("total_count {t}, the result file lists {listed}"))
            }
            _ => None,
        };
        let why = disagreement.map_or_else(
            || "no summary counts the failures".to_owned(),
            |d| format!("the summary does not show that every failure is listed ({d})"),
        );
        Some(format!(
            "{} of the score file could not be read, and {why}: which tests passed is unknown; tests left unscored",
            evaltally_core::text::plural(self.unread, "line")
        ))
    }
}
