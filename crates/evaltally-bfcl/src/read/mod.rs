//! Reading one (run, model, category): its result file and its score file.

mod reporter;
mod results;
mod scores;

use std::fs::File;
use std::io::Read;
use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};

use crate::layout::FilePair;
use reporter::Reporter;
use results::Results;

/// Reusable buffers for reading files, one per worker thread: file contents, the ids of
/// the current result file and their hash index.
#[derive(Debug, Default)]
pub struct Scratch {
    result: Vec<u8>,
    score: Vec<u8>,
    results: Results,
}

/// What reading one [`FilePair`] produced.
#[derive(Debug, Default)]
pub struct PairOutcome {
    /// The tests and their outcomes, unless the pair had to be left out.
    pub run: Option<CategoryRun>,
    /// Everything worth telling about the files.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a file into `buf` (cleared first), keeping its allocation.
fn read_into(path: &Path, buf: &mut Vec<u8>) -> std::io::Result<()> {
    buf.clear();
    File::open(path)?.read_to_end(buf)?;
    Ok(())
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
    let Scratch { result, score, results } = scratch;
    if let Err(e) = read_into(result_path, result) {
        out.diagnostics.push(Diagnostic::error(result_path, format!("cannot read result file: {e}; left out")));
        return out;
    }
    let mut rep = Reporter::new(result_path);
    results.read(result, &pair.category, &mut rep);
    rep.finish(&mut out.diagnostics);
    if result.iter().all(u8::is_ascii_whitespace) {
        out.diagnostics.push(Diagnostic::warning(result_path, "empty result file: no tests ran"));
    }

    let mut run = CategoryRun::new(&pair.run, &pair.model, &pair.category);
    run.sources.push(result_path.clone());
    let scored = match &pair.score {
        None => {
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
        Some(score_path) => {
            if let Err(e) = read_into(score_path, score) {
                out.diagnostics
                    .push(Diagnostic::error(score_path, format!("cannot read score file: {e}; tests left unscored")));
                None
            } else {
                let mut rep = Reporter::new(score_path);
                let parsed = scores::read(score, results, &mut rep);
                scores::check_summary(&parsed, results, &mut rep);
                rep.finish(&mut out.diagnostics);
                run.sources.push(score_path.clone());
                if parsed.is_summary_only() {
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
                        run.push(id, Outcome::Fail, label);
                    }
                }
            }
        }
    }
    out.run = Some(run);
    out
}
