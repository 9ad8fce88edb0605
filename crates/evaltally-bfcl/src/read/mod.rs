//! Reading one (run, model, category): its result file and its score file.

mod numbers;
mod reporter;
mod results;
mod scores;

use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};

use crate::layout::FilePair;
pub(crate) use numbers::Numbers;
use reporter::Reporter;
pub(crate) use reporter::{NO_FINAL_NEWLINE, is_complete};
use results::Results;

/// Reusable buffers for reading files, one per worker thread: file contents, the ids of
/// the current result file and their hash index.
#[derive(Debug, Default)]
pub struct Scratch {
    result: Vec<u8>,
    score: Vec<u8>,
    results: Results,
}

impl Scratch {
    /// The score file [`read_pair`] read last (empty when the pair has none).
    pub(crate) fn score_bytes(&self) -> &[u8] {
        &self.score
    }

    /// The numbers of test `id` in the result file [`read_pair_with_numbers`] read last.
    pub(crate) fn numbers_of(&self, id: &str) -> Numbers {
        self.results.numbers_of(id)
    }
}

/// What reading one [`FilePair`] produced.
#[derive(Debug, Default)]
pub struct PairOutcome {
    /// The tests and their outcomes, unless the pair had to be left out.
    pub run: Option<CategoryRun>,
    /// Everything worth telling about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a file into `buf` (cleared first, keeping its allocation, which a worker reuses
/// from file to file).
fn read_into(path: &Path, buf: &mut Vec<u8>) -> std::io::Result<()> {
    evaltally_format::read_file(path, 0, buf)
}

/// Reads the files of one (run, model, category) and judges each test.
///
/// * pass: listed in the result file and not among the score file's failures;
/// * fail: listed among the failures;
/// * unscored: the result file has no score file, or the score file cannot say which
///   tests failed (a line that may be any test's failure, a summary alone; a warning says so).
///
/// A score file without its result file cannot tell passes from tests that never ran; it
/// is left out with a warning. Every other problem becomes a diagnostic naming the file
/// and line, and reading goes on.
pub fn read_pair(pair: &FilePair, scratch: &mut Scratch) -> PairOutcome {
    read_pair_with(pair, scratch, false)
}

/// [`read_pair`], keeping each test's latency and token counts in `scratch`
/// ([`Scratch::numbers_of`]) from the same scan of the result file.
pub(crate) fn read_pair_with_numbers(pair: &FilePair, scratch: &mut Scratch) -> PairOutcome {
    read_pair_with(pair, scratch, true)
}

fn read_pair_with(pair: &FilePair, scratch: &mut Scratch, numbers: bool) -> PairOutcome {
    let Some(result_path) = &pair.result else {
        return judge(pair, None, None, &mut scratch.results, numbers);
    };
    let Scratch { result, score, results } = scratch;
    if let Err(e) = read_into(result_path, result) {
        let mut out = PairOutcome::default();
        out.diagnostics.push(Diagnostic::error(result_path, format!("cannot read result file: {e}; left out")));
        return out;
    }
    let score_input = pair.score.as_ref().map(|p| read_into(p, score).map(|()| score.as_slice()));
    judge(pair, Some(result), score_input, results, numbers)
}

/// Judges the tests of one (run, model, category) from file contents already in memory:
/// what [`read_pair`] does once it has read the files. `pair` names the files for
/// messages; `score` is `None` when there is no score file.
///
/// ```
/// use evaltally_bfcl::{FilePair, Scratch, read_pair_bytes};
/// let pair = FilePair { run: "r".into(), model: "m".into(), category: "simple".into(),
///     result: Some("r.json".into()), score: Some("s.json".into()) };
/// let result = b"{\"id\": \"simple_0\"}\n{\"id\": \"simple_1\"}\n";
/// let score = b"{\"accuracy\": 0.5, \"correct_count\": 1, \"total_count\": 2}\n{\"id\": \"simple_1\", \"valid\": false}\n";
/// let out = read_pair_bytes(&pair, result, Some(score), &mut Scratch::default());
/// let run = out.run.unwrap();
/// assert_eq!((run.len(), run.passed()), (2, 1));
/// ```
pub fn read_pair_bytes(pair: &FilePair, result: &[u8], score: Option<&[u8]>, scratch: &mut Scratch) -> PairOutcome {
    judge(pair, Some(result), score.map(Ok), &mut scratch.results, false)
}

/// What happens to a line with damaged bytes: the fields the analyses need are read from it
/// where they can be (`validate` refuses the line).
const DAMAGE_THEN: &str = "the line's id and verdict are read where they can be (`validate` refuses the line)";

/// The judging behind [`read_pair`] and [`read_pair_bytes`]: `result` is the result file's
/// content (`None` when there is no result file), `score` the score file's content or the
/// error reading it.
fn judge(
    pair: &FilePair,
    result: Option<&[u8]>,
    score: Option<std::io::Result<&[u8]>>,
    results: &mut Results,
    numbers: bool,
) -> PairOutcome {
    let mut out = PairOutcome::default();
    let (Some(result_path), Some(result)) = (&pair.result, result) else {
        if let Some(score) = &pair.score {
            // Where the result file would be; said when something else is there.
            let not_a_file = crate::layout::mirrored_result(score)
                .filter(|p| p.is_dir())
                .map(|p| format!("; `{}` is a folder, not a result file", p.display()))
                .unwrap_or_default();
            out.diagnostics.push(Diagnostic::warning(
                score,
                format!(
                    "score file without its result file (run `{}`, model `{}`, category `{}`){not_a_file}: passes cannot be told from tests that never ran; left out",
                    pair.run, pair.model, pair.category
                ),
            ));
        }
        return out;
    };
    let mut rep = Reporter::new(result_path);
    if numbers {
        results.read::<true>(result, &pair.category, &mut rep);
    } else {
        results.read::<false>(result, &pair.category, &mut rep);
    }
    rep.finish(&mut out.diagnostics);
    // The fast path crosses the fields it skips unread: damage in them is said here.
    out.diagnostics.extend(evaltally_format::damage::warnings(result_path, result, DAMAGE_THEN));
    if result.iter().all(u8::is_ascii_whitespace) {
        out.diagnostics.push(Diagnostic::warning(result_path, "empty result file: no tests ran"));
    }

    let mut run = CategoryRun::new(&pair.run, &pair.model, &pair.category);
    run.sources.push(result_path.clone());
    let scored = match (&pair.score, score) {
        (None, _) if crate::never_scored(&pair.category) => {
            out.diagnostics.push(Diagnostic::info(
                result_path,
                crate::never_scored_note(&pair.model, &pair.category, &pair.run, Some(results.len())),
            ));
            None
        }
        // No test to score: the empty file, or its damage, is said above.
        (None, _) | (Some(_), None) if results.len() == 0 => None,
        (None, _) | (Some(_), None) => {
            out.diagnostics.push(Diagnostic::warning(
                result_path,
                format!(
                    "result file without its score file (run `{}`, model `{}`, category `{}`): {} tests unscored, counted as neither pass nor fail",
                    pair.run,
                    pair.model,
                    pair.category,
                    results.len()
                ),
            ));
            None
        }
        (Some(score_path), Some(Err(e))) => {
            out.diagnostics
                .push(Diagnostic::error(score_path, format!("cannot read score file: {e}; tests left unscored")));
            None
        }
        (Some(score_path), Some(Ok(score))) if score.iter().all(u8::is_ascii_whitespace) => {
            // BFCL writes the summary line first: an empty file is a run stopped while scoring.
            out.diagnostics.push(Diagnostic::warning(
                score_path,
                "empty score file: expected a summary line first (was scoring cut short?); tests left unscored",
            ));
            None
        }
        (Some(score_path), Some(Ok(score))) => {
            // Pretty-printed JSON (`jq .` of the file, a list): said once, and no line of
            // it taken for a verdict.
            if let Some(spread) = evaltally_format::json::Spread::of(score) {
                out.diagnostics.push(Diagnostic::error(
                    score_path,
                    format!("{}; file skipped, tests left unscored", spread.message("BFCL writes them")),
                ));
                None
            } else {
                let mut rep = Reporter::new(score_path);
                out.diagnostics.extend(evaltally_format::damage::warnings(score_path, score, DAMAGE_THEN));
                let parsed = scores::read(score, results, &mut rep);
                scores::check_summary(&parsed, results, &mut rep);
                rep.finish(&mut out.diagnostics);
                run.sources.push(score_path.clone());
                if parsed.records == 0 {
                    // Every line skipped: no test is a pass for want of a failure line.
                    out.diagnostics.push(Diagnostic::error(
                        score_path,
                        "no line of the score file could be read as a summary or a failure; tests left unscored",
                    ));
                    None
                } else if let Some(why) = parsed.passes_unknown(results) {
                    out.diagnostics.push(Diagnostic::warning(score_path, why));
                    None
                } else if parsed.is_summary_only() {
                    out.diagnostics.push(Diagnostic::warning(
                        score_path,
                        "summary-only score file: the summary counts failures but none are listed; tests left unscored",
                    ));
                    None
                } else {
                    Some(parsed)
                }
            }
        }
    };
    match scored {
        None => {
            run.scored = false;
            for id in results.ids.iter() {
                run.push(id, Outcome::Unscored, None);
            }
        }
        Some(parsed) => {
            for (i, id) in results.ids.iter().enumerate() {
                match &parsed.failures[i] {
                    None => run.push(id, Outcome::Pass, None),
                    Some(failure) => {
                        let label = failure
                            .label
                            .as_deref()
                            .or_else(|| results.inference_error[i].then_some("inference_error"));
                        let errored = results.inference_error[i] || label.is_some_and(crate::is_inference_error);
                        run.push(id, if errored { Outcome::Errored } else { Outcome::Fail }, label);
                    }
                }
            }
        }
    }
    out.run = Some(run);
    out
}
