//! lm-eval sample logs as a format of the reading pipeline: `samples_<task>_<date>.jsonl`
//! files whose first line is an object with `doc_id` and `metrics`.

use std::path::Path;

use evaltally_core::Finding;
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Shown};

use crate::{model_of, read_bytes, task_and_date};

/// lm-evaluation-harness sample logs.
#[derive(Debug, Clone, Copy, Default)]
pub struct LmEval;

/// The one value of [`LmEval`], for the registry.
pub static LMEVAL: LmEval = LmEval;

fn first_line_fits(bytes: &[u8]) -> bool {
    let line = bytes.split(|&b| b == b'\n').find(|l| !l.iter().all(u8::is_ascii_whitespace)).unwrap_or_default();
    let mut keys = (false, false);
    let start = line.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
    let scanned = evaltally_format::scan::object_at(line, start, |k, _| match &line[k] {
        b"doc_id" => keys.0 = true,
        b"metrics" => keys.1 = true,
        _ => {}
    });
    scanned.is_ok() && keys == (true, true)
}

impl Format for LmEval {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["lm-eval", "lm-evaluation-harness"]
    }

    fn describe(&self) -> &'static str {
        "  lm-evaluation-harness sample logs (`samples_<task>_<date>.jsonl`, model from `results_<date>.json`)"
    }

    fn noun(&self) -> &'static str {
        "lm-eval sample logs"
    }

    fn claim(&self, path: &Path) -> Claim {
        if task_and_date(path).is_some() { Claim::Sniff } else { Claim::No }
    }

    fn beside(&self, path: &Path) -> Vec<std::path::PathBuf> {
        crate::results_file(path).into_iter().collect()
    }

    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        first_line_fits(file.bytes)
    }

    fn read(&self, file: &Input<'_>, options: &Options) -> Read {
        let model = model_of(file.path).unwrap_or_else(|| "unknown".to_string());
        let read = read_bytes(file.path, file.bytes, &model, &options.scoring);
        Read { runs: read.runs, diagnostics: read.diagnostics }
    }

    fn show(&self, file: &Input<'_>, test: &str, options: &Options) -> Shown {
        let model = model_of(file.path).unwrap_or_else(|| "unknown".to_string());
        Shown {
            details: crate::show(file.path, file.bytes, test, &model, &options.scoring).into_iter().collect(),
            diagnostics: Vec::new(),
        }
    }

    /// Every line left out, and every key written twice on a line, is an error; documents
    /// listed twice are warnings.
    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        let findings = read_bytes(file.path, file.bytes, "", &options.scoring)
            .diagnostics
            .into_iter()
            .map(|d| {
                let at = d.line.map_or_else(|| "file".to_string(), |l| format!("line {l}"));
                let repeated = d.message.starts_with("key `");
                if d.is_error() || repeated { Finding::error(at, d.message) } else { Finding::warning(at, d.message) }
            })
            .collect();
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}
