#![doc = include_str!("../README.md")]

mod format;
mod keys;
mod log;
mod score;
mod views;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use evaltally_core::{CategoryRun, Diagnostic, Finding, Outcome, RunMeta};
use evaltally_format::Scoring;
use evaltally_format::check::KeyCheck;

pub use format::{INSPECT, Inspect};
pub use score::{ERROR_LABEL, score_value};
pub use views::{records, show};

use crate::log::{Log, Reader, read_log, unique};

/// The format name.
pub const FORMAT: &str = "inspect";

/// What a log holds, as category runs (one per epoch), with what was tolerated or refused.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per epoch, in epoch order.
    pub runs: Vec<CategoryRun>,
    /// Errors for samples left out, warnings for what was read with a default.
    pub diagnostics: Vec<Diagnostic>,
}

/// The run name of an epoch of the log at `path`: `<file stem>#epoch-<n>`.
///
/// ```
/// assert_eq!(evaltally_inspect::run_name(std::path::Path::new("a/2026-01-02_task.eval"), 3), "2026-01-02_task#epoch-3");
/// ```
pub fn run_name(path: &Path, epoch: u64) -> String {
    let stem = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    format!("{stem}#epoch-{epoch}")
}

/// A log read and checked: its samples each (id, epoch) once, with the file's diagnostics
/// and, with `strict_keys` (`validate`), the keys `inspect_ai` never writes.
pub(crate) fn checked(
    path: &Path,
    bytes: &[u8],
    strict_keys: bool,
) -> Result<(Log, Vec<Diagnostic>, Vec<Finding>), Diagnostic> {
    let mut reader = Reader::new(path, strict_keys);
    let mut log = read_log(&mut reader, bytes)?;
    match log.samples.take() {
        None => reader.diagnostics.push(Diagnostic::warning(
            path,
            "a header-only log: no samples were logged (--no-log-samples?); nothing to analyse",
        )),
        Some(samples) => log.samples = Some(unique(&mut reader, samples)),
    }
    let not_counts: Vec<&log::Sample> = log.samples.iter().flatten().filter(|s| s.not_a_count.is_some()).collect();
    if let (Some(first), n) = (not_counts.first(), not_counts.len()) {
        reader.diagnostics.push(Diagnostic::warning(
            path,
            evaltally_core::text::tokens_left_out(
                n,
                "sample",
                log::NOT_A_COUNT,
                &format!(
                    "sample {} epoch {}'s `{}`",
                    evaltally_core::text::printable(&first.id),
                    first.epoch,
                    first.not_a_count.unwrap_or_default()
                ),
            ),
        ));
    }
    let unknown = reader.keys.map(KeyCheck::findings).unwrap_or_default();
    Ok((log, reader.diagnostics, unknown))
}

/// What the log records about its runs.
pub(crate) fn meta(log: &Log) -> Option<Arc<RunMeta>> {
    let meta = RunMeta {
        timestamp: log.created.clone(),
        git_sha: log.commit.clone(),
        run_id: log.id.clone(),
        ..RunMeta::default()
    };
    (meta != RunMeta::default()).then(|| Arc::new(meta))
}

/// Reads an `inspect_ai` log (`.eval` or `.json`) from its bytes; `path` names it and its
/// runs. An error when the bytes are neither a readable archive nor a JSON `EvalLog`.
pub fn read_bytes(path: &Path, bytes: &[u8], scoring: &Scoring) -> Result<Read, Diagnostic> {
    read_runs(path, bytes, scoring, false)
}

/// [`read_bytes`]; `strict_keys` makes a key written twice an error (for `validate`).
pub(crate) fn read_runs(path: &Path, bytes: &[u8], scoring: &Scoring, strict_keys: bool) -> Result<Read, Diagnostic> {
    let (log, diagnostics, _) = checked(path, bytes, strict_keys)?;
    Ok(runs_of(path, &log, diagnostics, scoring))
}

/// The runs of a log [`checked`], one per epoch, with `diagnostics` and what scoring them
/// adds.
pub(crate) fn runs_of(path: &Path, log: &Log, mut diagnostics: Vec<Diagnostic>, scoring: &Scoring) -> Read {
    let choice = score::choose(log, scoring.scorer.as_deref());
    let mut unjudged = score::Unjudged::default();
    let meta = meta(log);
    let mut epochs: BTreeMap<u64, CategoryRun> = BTreeMap::new();
    for s in log.samples.iter().flatten() {
        let run = epochs.entry(s.epoch).or_insert_with(|| {
            let mut c = CategoryRun::new(run_name(path, s.epoch), &log.model, &log.task);
            c.sources.push(path.to_path_buf());
            c.meta.clone_from(&meta);
            c
        });
        let v = unjudged.note(s, score::verdict(s, &choice, scoring));
        run.push(&s.id, v.outcome, v.label.as_deref());
    }
    if !log.samples.as_ref().is_none_or(Vec::is_empty) {
        diagnostics.extend(unjudged.warnings(path, &choice));
    }
    let mut runs: Vec<CategoryRun> = epochs.into_values().collect();
    for r in &mut runs {
        // An epoch no sample of which was judged has no scores.
        let scored = r.tests().any(|t| t.outcome != Outcome::Unscored);
        r.scored = scored;
    }
    Read { runs, diagnostics }
}

/// `testdata/inspect/arith.eval` with each member's bytes passed through `edit` (given its
/// name), written again uncompressed: the fixture damaged or marked as a test needs.
#[cfg(test)]
pub(crate) fn arith_rewritten(edit: impl Fn(&str, &mut Vec<u8>)) -> Vec<u8> {
    use std::io::{Read as _, Write as _};
    let path = evaltally_testkit::testdata("inspect/arith.eval");
    let mut source = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..source.len() {
        let mut member = source.by_index(i).unwrap();
        let name = member.name().unwrap().into_owned();
        let mut bytes = Vec::new();
        member.read_to_end(&mut bytes).unwrap();
        edit(&name, &mut bytes);
        out.start_file(name.as_str(), stored).unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}
