//! lm-eval sample logs as a format of the reading pipeline: `samples_<task>_<date>.jsonl`
//! (or `.json`) files, and lm-eval 0.4.0 to 0.4.2's `<model_args>_<task>.jsonl` beside
//! their `results.json`, whose first document is an object with `doc_id` and a metric.

use std::path::Path;

use evaltally_core::Finding;
use evaltally_format::check::{KeyCheck, Level};
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use crate::{Beside, is_model_args_name, read_with, task_and_date};

/// lm-evaluation-harness sample logs.
#[derive(Debug, Clone, Copy, Default)]
pub struct LmEval;

/// The one value of [`LmEval`], for the registry.
pub static LMEVAL: LmEval = LmEval;

/// Whether the first document (the first line, or the first element of a list) is an
/// object with `doc_id` and either `metrics` or a key that is none of a sample's fixed keys
/// (the metric of logs written before lm-eval 0.4.7): keys found before the document breaks
/// count, so that a damaged first line (a `NaN` Python wrote, bytes cut) is the reader's to
/// say, not a file no format reads.
fn first_document_fits(bytes: &[u8]) -> bool {
    let bytes = evaltally_format::json::without_bom(bytes);
    let Some(start) = bytes.iter().position(|c| !c.is_ascii_whitespace()) else { return false };
    let (text, start) = if bytes[start] == b'[' {
        match bytes[start + 1..].iter().position(|c| !c.is_ascii_whitespace()) {
            Some(at) => (bytes, start + 1 + at),
            None => return false,
        }
    } else {
        let end = bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |e| start + e);
        (&bytes[..end], start)
    };
    let (mut doc_id, mut metric) = (false, false);
    // Whether the scan reaches the end is not asked: keys found before a break count.
    let _ = evaltally_format::scan::object_at(text, start, |k, _| match &text[k] {
        b"doc_id" => doc_id = true,
        b"metrics" => metric = true,
        other => metric |= !crate::FIXED_KEYS.iter().any(|f| f.as_bytes() == other),
    });
    doc_id && metric
}

/// `results.json` (lm-eval 0.4.0 to 0.4.2) or `results_<date>.json`.
fn is_results_name(path: &Path) -> bool {
    evaltally_format::file_name(path).and_then(|n| n.to_str()).is_some_and(|n| {
        n == "results.json" || n.starts_with("results_") && evaltally_format::has_extension(path, "json")
    })
}

/// What the results file the pipeline found beside a samples file says.
fn beside(file: &Input<'_>) -> Beside {
    let results = file.beside().first().map(std::path::PathBuf::as_path);
    let parsed = results.map(|r| file.beside_parsed(r, crate::parse_results));
    Beside::with_results(file.path, results.zip(parsed.as_deref().and_then(Option::as_ref)))
}

/// A samples line's keys: lm-eval's own ([`crate::FIXED_KEYS`]) and the metrics'.
const LINE: &[Level] =
    &[Level { at: "$", known: &crate::FIXED_KEYS, what: "an lm-eval samples line, nor one of its `metrics`" }];

/// The keys of samples lines that are neither lm-eval's own nor one of the metrics the line
/// names (`metrics`, lm-eval 0.4.7 and later): the reader takes every other key for a metric.
/// Lines of earlier versions, which do not name their metrics, are not checked.
fn unknown_keys(bytes: &[u8]) -> Vec<Finding> {
    let mut keys = KeyCheck::new(LINE);
    for line in evaltally_format::bytes::lines(bytes) {
        let Ok(serde_json::Value::Object(m)) = serde_json::from_slice::<serde_json::Value>(line) else { continue };
        let Some(metrics) = m.get("metrics").and_then(serde_json::Value::as_array) else { continue };
        let metric = |k: &str| metrics.iter().any(|n| n.as_str() == Some(k));
        keys.add_keys("$", m.keys().map(String::as_str).filter(|k| !metric(k)));
    }
    keys.findings()
}

impl Format for LmEval {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["lm-eval", "lm-evaluation-harness"]
    }

    fn describe(&self) -> &'static str {
        "  lm-evaluation-harness sample logs (`samples_<task>_<date>.jsonl`, model from `results_<date>.json`; 0.4.0 to 0.4.2: `<model_args>_<task>.jsonl` beside `results.json`)"
    }

    fn noun(&self) -> &'static str {
        "lm-eval sample logs"
    }

    fn reads_scores(&self) -> bool {
        true
    }

    /// Samples files by their names, and results files too, so that one found alone is said
    /// to be lm-eval's ([`aside`](Format::aside)).
    fn claim(&self, path: &Path) -> Claim {
        if task_and_date(path).is_some() || is_results_name(path) || is_model_args_name(path) {
            Claim::Sniff
        } else {
            Claim::No
        }
    }

    /// The results file of the samples file's run, found in the walk's listing.
    fn beside(&self, path: &Path, folder: &evaltally_format::Folder<'_>) -> Vec<std::path::PathBuf> {
        crate::results_file(path, folder.names()).into_iter().collect()
    }

    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        // lm-eval 0.4.0 to 0.4.2's `<model_args>_<task>.jsonl` only beside their
        // `results.json`, which says the task.
        let named = task_and_date(file.path).is_some()
            || is_model_args_name(file.path) && file.beside().first().is_some_and(|r| r.is_file());
        named && first_document_fits(file.bytes)
    }

    /// lm-eval's aggregate `results_<date>.json` (read beside the samples files for the
    /// model): alone, it holds no outcome per document.
    fn aside(&self, file: &Input<'_>) -> Option<String> {
        let results = is_results_name(file.path) && file.has("results") && (file.has("configs") || file.has("config"));
        results.then(|| {
            "lm-eval's aggregate results: outcomes per document are in the samples_<task>_<date>.jsonl files \
             that --log_samples writes beside it"
                .to_string()
        })
    }

    fn read(&self, file: &Input<'_>, options: &Options) -> Read {
        let read = read_with(file.path, file.bytes, &beside(file), &options.scoring);
        Read { runs: read.runs, diagnostics: read.diagnostics }
    }

    fn records(&self, file: &Input<'_>, options: &Options) -> Records {
        let (runs, diagnostics) = crate::records(file.path, file.bytes, &beside(file), &options.scoring);
        Records { runs, diagnostics }
    }

    fn show(&self, file: &Input<'_>, test: &str, options: &Options) -> Shown {
        Shown {
            details: crate::show(file.path, file.bytes, test, &beside(file), &options.scoring),
            diagnostics: Vec::new(),
        }
    }

    /// Every line left out, and every key written twice on a line, is an error; documents
    /// listed twice, and keys that are neither lm-eval's nor a metric the line names, are
    /// warnings.
    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        let mut findings: Vec<Finding> = read_with(file.path, file.bytes, &beside(file), &options.scoring)
            .diagnostics
            .into_iter()
            .map(|d| {
                let at = Finding::location(d.line, d.column, "file");
                let repeated = d.message.starts_with("key `");
                if d.is_error() || repeated { Finding::error(at, d.message) } else { Finding::warning(at, d.message) }
            })
            .collect();
        findings.extend(unknown_keys(file.bytes));
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}
