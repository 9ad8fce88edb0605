//! Reading one (run, model, category): its result file and its score file.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};

use crate::layout::FilePair;
use crate::lines::{self, IdProblem, IdSource, RawId, ResultLine, ScoreLine};

/// At most this many diagnostics of one kind are reported per file; the rest are counted.
const MAX_REPEATS: usize = 10;

/// Reusable buffers for reading files, one per worker thread.
#[derive(Debug, Default)]
pub struct Scratch {
    result: Vec<u8>,
    score: Vec<u8>,
}

/// What reading one [`FilePair`] produced.
#[derive(Debug, Default)]
pub struct PairOutcome {
    /// The tests and their outcomes, unless the pair had to be left out.
    pub run: Option<CategoryRun>,
    /// Everything worth telling about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a result file into `buf` (cleared first).
fn read_into(path: &Path, buf: &mut Vec<u8>) -> std::io::Result<()> {
    buf.clear();
    File::open(path)?.read_to_end(buf)?;
    Ok(())
}

/// Collects per-file diagnostics, keeping at most [`MAX_REPEATS`] of each kind.
struct Reporter<'p> {
    path: &'p Path,
    out: Vec<Diagnostic>,
    counts: HashMap<&'static str, (usize, u64)>,
}

impl<'p> Reporter<'p> {
    fn new(path: &'p Path) -> Self {
        Self { path, out: Vec::new(), counts: HashMap::new() }
    }

    fn push(&mut self, kind: &'static str, diag: Diagnostic) {
        let entry = self.counts.entry(kind).or_insert((0, diag.line.unwrap_or(0)));
        entry.0 += 1;
        if entry.0 <= MAX_REPEATS {
            self.out.push(diag);
        }
    }

    fn warn(&mut self, kind: &'static str, line: u64, message: String) {
        self.push(kind, Diagnostic::warning(self.path, message).at_line(line));
    }

    fn error(&mut self, kind: &'static str, line: u64, column: Option<u64>, message: String) {
        let d = Diagnostic::error(self.path, message);
        let d = match column {
            Some(c) => d.at(line, c),
            None => d.at_line(line),
        };
        self.push(kind, d);
    }

    fn finish(mut self, into: &mut Vec<Diagnostic>) {
        // File-level messages (no line) first, then by line; stable, so same-line messages
        // keep the order they were found in.
        self.out.sort_by_key(|d| d.line);
        let mut extra: Vec<_> = self.counts.iter().filter(|(_, (n, _))| *n > MAX_REPEATS).collect();
        extra.sort();
        for (kind, (n, _)) in extra {
            self.out.push(Diagnostic::warning(
                self.path,
                format!("{} more `{kind}` messages for this file not shown", n - MAX_REPEATS),
            ));
        }
        into.append(&mut self.out);
    }
}

/// One parsed result file: ids in file order, and which lines were inference crashes.
#[derive(Default)]
struct ResultIds {
    ids: Vec<String>,
    lines: Vec<u64>,
    inference_error: Vec<bool>,
}

fn describe(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    // serde_json appends " at line L column C"; the caller reports the position itself.
    match msg.rfind(" at line ") {
        Some(pos) => msg[..pos].to_string(),
        None => msg,
    }
}

/// Warns when the last line has no newline: a JSON Lines writer ends every line with one,
/// so its absence often means the writer stopped early.
fn check_final_newline(buf: &[u8], rep: &mut Reporter<'_>) {
    if buf.is_empty() || buf.ends_with(b"\n") {
        return;
    }
    let last_line = lines::split(buf).last().map_or(1, |(n, _)| n);
    rep.warn(
        "final newline",
        last_line,
        "no newline at the end of the file (was it cut short?); the last line was read as it is".into(),
    );
}

fn parse_results(buf: &[u8], category: &str, rep: &mut Reporter<'_>) -> ResultIds {
    check_final_newline(buf, rep);
    let mut out = ResultIds::default();
    let mut index: HashMap<String, u64> = HashMap::new();
    let mut saw_idx = None;
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            rep.warn("blank line", line_no, "blank line ignored".into());
            continue;
        }
        let parsed: ResultLine<'_> = match serde_json::from_slice(line) {
            Ok(p) => p,
            Err(e) => {
                rep.error(
                    "invalid JSON",
                    line_no,
                    Some(e.column() as u64),
                    format!("not a JSON object: {}; expected one result object per line; line skipped", describe(&e)),
                );
                continue;
            }
        };
        let id = match parsed.test_id(category) {
            Ok((id, IdSource::Id)) => id,
            Ok((id, IdSource::Idx)) => {
                saw_idx.get_or_insert(line_no);
                id
            }
            Ok((id, IdSource::IntegerId)) => {
                rep.warn("integer id", line_no, format!("integer id in a result file; named `{id}`"));
                id
            }
            Err(IdProblem::WrongType) => {
                rep.error("bad id", line_no, None, "`id` is neither a string nor an integer; line skipped".into());
                continue;
            }
            Err(IdProblem::Missing) => {
                rep.error(
                    "missing id",
                    line_no,
                    None,
                    "line has no `id`; expected a result object with an `id`; line skipped".into(),
                );
                continue;
            }
        };
        if let Some(first) = index.get(id.as_ref()) {
            rep.warn("duplicate id", line_no, format!("duplicate id `{id}` (first at line {first}); counted once"));
            continue;
        }
        index.insert(id.clone().into_owned(), line_no);
        out.inference_error.push(parsed.is_inference_error());
        out.ids.push(id.into_owned());
        out.lines.push(line_no);
    }
    if let Some(first) = saw_idx {
        rep.warn(
            "v1 idx",
            first,
            format!("v1 result lines keyed `idx` (0-based) instead of `id`; ids named `{category}_<idx>`"),
        );
    }
    out
}

/// A failure read from a score file.
struct Failure {
    index: usize,
    error_type: Option<String>,
}

struct ScoreFile {
    summary: Option<(u64, Option<u64>, Option<u64>)>,
    failures: Vec<Failure>,
}

fn parse_scores(buf: &[u8], results: &ResultIds, rep: &mut Reporter<'_>) -> ScoreFile {
    check_final_newline(buf, rep);
    let by_id: HashMap<&str, usize> = results.ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
    let mut out = ScoreFile { summary: None, failures: Vec::new() };
    let mut seen: HashMap<usize, u64> = HashMap::new();
    let mut first_record = true;
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            rep.warn("blank line", line_no, "blank line ignored".into());
            continue;
        }
        let parsed: ScoreLine<'_> = match serde_json::from_slice(line) {
            Ok(p) => p,
            Err(e) => {
                rep.error(
                    "invalid JSON",
                    line_no,
                    Some(e.column() as u64),
                    format!(
                        "not a JSON object: {}; expected a summary or failure object per line; line skipped",
                        describe(&e)
                    ),
                );
                first_record = false;
                continue;
            }
        };
        let was_first = std::mem::replace(&mut first_record, false);
        if parsed.is_summary() {
            if !was_first {
                rep.warn("late summary", line_no, "summary line found here; expected it on the first line".into());
            }
            if out.summary.is_some() {
                rep.warn("second summary", line_no, "second summary line ignored".into());
                continue;
            }
            let total = lines::count(parsed.total_count.as_ref());
            let correct = lines::count(parsed.correct_count.as_ref());
            if total.is_none() {
                rep.warn("bad summary", line_no, "summary line has no integer `total_count`".into());
            }
            out.summary = Some((line_no, total, correct));
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
        if parsed.valid.as_ref().is_some_and(|v| v.as_bool() == Some(true)) {
            rep.warn(
                "valid entry",
                line_no,
                "entry has `\"valid\": true`; score files list failures only; not counted as a failure".into(),
            );
            continue;
        }
        let index = match &parsed.id {
            Some(RawId::Str(s)) => by_id.get(s.as_ref()).copied().ok_or_else(|| s.to_string()),
            Some(RawId::Int(n)) => {
                let via_prompt = parsed.prompt_id();
                match via_prompt {
                    Some(p) => by_id.get(p.as_ref()).copied().ok_or_else(|| p.to_string()),
                    None => usize::try_from(*n)
                        .ok()
                        .and_then(|n| n.checked_sub(1))
                        .filter(|&i| i < results.ids.len())
                        .ok_or_else(|| format!("#{n} (by position)")),
                }
            }
            Some(RawId::Other) => {
                rep.error("bad id", line_no, None, "`id` is neither a string nor an integer; line skipped".into());
                continue;
            }
            None => {
                rep.error("missing id", line_no, None, "failure entry has no `id`; line skipped".into());
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
        if let Some(first) = seen.get(&index) {
            rep.warn(
                "duplicate id",
                line_no,
                format!("duplicate failure for `{}` (first at line {first}); counted once", results.ids[index]),
            );
            continue;
        }
        seen.insert(index, line_no);
        out.failures.push(Failure { index, error_type: parsed.error_label().map(Cow::into_owned) });
    }
    out
}

/// Reads the files of one (run, model, category) and judges each test.
///
/// * pass: listed in the result file and not among the score file's failures;
/// * fail: listed among the failures;
/// * unscored: the result file has no score file (a warning says so).
///
/// A score file without its result file cannot tell passes from tests that never ran; it
/// is left out with a warning. Every other problem becomes a diagnostic naming the file
/// and line, and reading goes on.
pub fn read_pair(pair: &FilePair, scratch: &mut Scratch) -> PairOutcome {
    let mut out = PairOutcome::default();
    let Some(result_path) = &pair.result else {
        if let Some(score) = &pair.score {
            out.diagnostics.push(Diagnostic::warning(
                score,
                format!(
                    "score file without its result file (run `{}`, model `{}`, category `{}`): passes cannot be told from tests that never ran; left out",
                    pair.run, pair.model, pair.category
                ),
            ));
        }
        return out;
    };
    if let Err(e) = read_into(result_path, &mut scratch.result) {
        out.diagnostics.push(Diagnostic::error(result_path, format!("cannot read result file: {e}; left out")));
        return out;
    }
    let mut rep = Reporter::new(result_path);
    let results = parse_results(&scratch.result, &pair.category, &mut rep);
    rep.finish(&mut out.diagnostics);
    if scratch.result.iter().all(u8::is_ascii_whitespace) {
        out.diagnostics.push(Diagnostic::warning(result_path, "empty result file: no tests ran"));
    }

    let mut run = CategoryRun::new(&pair.run, &pair.model, &pair.category);
    run.sources.push(result_path.clone());
    let scores = match &pair.score {
        None => None,
        Some(score_path) => match read_into(score_path, &mut scratch.score) {
            Ok(()) => {
                let mut rep = Reporter::new(score_path);
                let parsed = parse_scores(&scratch.score, &results, &mut rep);
                check_summary(&parsed, &results, &mut rep);
                rep.finish(&mut out.diagnostics);
                run.sources.push(score_path.clone());
                Some((score_path, parsed))
            }
            Err(e) => {
                out.diagnostics
                    .push(Diagnostic::error(score_path, format!("cannot read score file: {e}; tests left unscored")));
                None
            }
        },
    };
    let scores = scores.and_then(|(path, parsed)| {
        let summary_only = parsed.failures.is_empty() && matches!(parsed.summary, Some((_, Some(t), Some(c))) if c < t);
        if summary_only {
            out.diagnostics.push(Diagnostic::warning(
                path,
                "summary-only score file: the summary counts failures but none are listed; tests left unscored",
            ));
            None
        } else {
            Some(parsed)
        }
    });
    match scores {
        None => {
            if pair.score.is_none() {
                out.diagnostics.push(Diagnostic::warning(
                    result_path,
                    format!(
                        "result file without its score file (run `{}`, model `{}`, category `{}`): {} tests unscored, counted as neither pass nor fail",
                        pair.run,
                        pair.model,
                        pair.category,
                        results.ids.len()
                    ),
                ));
            }
            run.scored = false;
            for id in &results.ids {
                run.push(id, Outcome::Unscored, None);
            }
        }
        Some(scores) => {
            let mut failed: Vec<Option<Option<String>>> = vec![None; results.ids.len()];
            for f in scores.failures {
                failed[f.index] = Some(f.error_type);
            }
            for (i, id) in results.ids.iter().enumerate() {
                match &failed[i] {
                    None => run.push(id, Outcome::Pass, None),
                    Some(label) => {
                        let label =
                            label.as_deref().or_else(|| results.inference_error[i].then_some("inference_error"));
                        run.push(id, Outcome::Fail, label);
                    }
                }
            }
        }
    }
    out.run = Some(run);
    out
}

/// Warns when the summary line disagrees with the files.
fn check_summary(scores: &ScoreFile, results: &ResultIds, rep: &mut Reporter<'_>) {
    let Some((line, total, correct)) = scores.summary else {
        if !scores.failures.is_empty() || results.ids.is_empty() {
            rep.warn("missing summary", 1, "no summary line; counts taken from the files".into());
        }
        return;
    };
    let listed = results.ids.len() as u64;
    let failed = scores.failures.len() as u64;
    if let Some(total) = total
        && total != listed
    {
        rep.warn(
            "summary mismatch",
            line,
            format!("summary says total_count {total}, the result file lists {listed} tests"),
        );
    }
    if let Some(correct) = correct
        && correct != listed.saturating_sub(failed)
        && !(failed == 0 && Some(correct) < total)
    {
        rep.warn(
            "summary mismatch",
            line,
            format!(
                "summary says correct_count {correct}, the files give {} ({listed} listed, {failed} failures)",
                listed.saturating_sub(failed)
            ),
        );
    }
}
