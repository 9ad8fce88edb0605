//! gstack results as a format of the reading pipeline: `*.json` files sniffed by their keys,
//! read from the pipeline's buffer.

use std::path::Path;

use evaltally_core::{Diagnostic, Finding};
use evaltally_format::check::{Level, unknown_keys_in};
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Purpose, Read, Records, Resemblance, Shown};
use serde_json::Value;

use crate::model::{GstackRun, STANDARD_KEYS, Shape};
use crate::sources::{is_partial_doc, is_partial_name, parse_json, read_bytes_as};
use crate::validate::REQUIRED_FIELDS;

/// The gstack format: standard and legacy eval results.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gstack;

/// The one value of [`Gstack`], for the registry.
pub static FORMAT: Gstack = Gstack;

/// The shape the top-level keys say, as [`crate::detect`] decides on a parsed value.
fn shape(file: &Input<'_>) -> Option<Shape> {
    if file.has("all_results") && STANDARD_KEYS.iter().any(|k| file.has(k)) {
        return Some(Shape::Standard);
    }
    let legacy_key = ["branch", "total_tests", "total_duration_ms"].iter().any(|k| file.has(k));
    (legacy_key && file.json("tests").is_some_and(|v| v.first() == Some(&b'['))).then_some(Shape::Legacy)
}

/// Most of gstack's required fields without a test list: a standard result that lost it
/// (validated as gstack, to say what is missing).
fn gstack_header(file: &Input<'_>) -> bool {
    REQUIRED_FIELDS.iter().filter(|(k, _)| file.has(k)).count() >= 6
}

/// Whether the file is a partial save to leave out.
fn is_skipped_partial(file: &Input<'_>, options: &Options) -> bool {
    !options.include_partial && (is_partial_name(file.path) || file.json("_partial").is_some_and(|v| v == b"true"))
}

/// A file read as a run, or left out.
enum Got {
    Run(Box<GstackRun>, Vec<Diagnostic>),
    /// A partial save left out: a warning when the user named it, else a note.
    Skipped(Option<Diagnostic>),
    Failed(Diagnostic),
}

fn read_run(file: &Input<'_>, options: &Options) -> Got {
    if is_skipped_partial(file, options) {
        // A warning when the user named the file; in a folder, a note (gstack's readers skip
        // these silently).
        let what = "an incremental save of a run that had not finished (gstack's readers skip these too); \
                    ask to include partial results to read it";
        return Got::Skipped(Some(if file.named {
            Diagnostic::warning(file.path, format!("skipped: {what}"))
        } else {
            Diagnostic::skipped(file.path, what)
        }));
    }
    match read_bytes_as(file.path, file.bytes, options.forced.is_some()) {
        Ok((run, diagnostics)) => Got::Run(Box::new(run), diagnostics),
        Err(d) => Got::Failed(d),
    }
}

impl Format for Gstack {
    fn name(&self) -> &'static str {
        "gstack"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["gstack-legacy"]
    }

    fn describe(&self) -> &'static str {
        crate::sources::KNOWN
    }

    fn noun(&self) -> &'static str {
        "gstack results"
    }

    fn claim(&self, path: &Path) -> Claim {
        if evaltally_format::json::is_json_path(path) { Claim::Sniff } else { Claim::No }
    }

    fn sniff(&self, file: &Input<'_>, options: &Options) -> bool {
        shape(file).is_some() || options.purpose == Purpose::Validate && gstack_header(file)
    }

    /// gstack's required fields, and the other keys a result or one of its tests holds
    /// (a design-doc snippet of `failures` or `comparison` is closest to gstack).
    fn resemblance(&self, file: &Input<'_>) -> Option<Resemblance> {
        const KNOWN: [&str; 23] = [
            "label",
            "hostname",
            "prompt_sha",
            "by_category",
            "costs",
            "comparison",
            "failures",
            "output",
            "wall_clock_seconds",
            "branch",
            "tests",
            "total_tests",
            "total_duration_ms",
            "wall_clock_ms",
            "judge_scores",
            "turns_used",
            "exit_reason",
            "detection_rate",
            "name",
            "suite",
            "cost_usd",
            "duration_ms",
            "_partial",
        ];
        let required: Vec<&'static str> = crate::validate::REQUIRED_FIELDS.iter().map(|(k, _)| *k).collect();
        Resemblance::of_keys(file, &KNOWN, &required)
    }

    /// The shards of one invocation of gstack's sharded paid runner are one run
    /// ([`crate::shards`]).
    fn run_names(&self, files: &[&Path]) -> Vec<Option<String>> {
        crate::shards::run_names(files)
    }

    fn read(&self, file: &Input<'_>, options: &Options) -> Read {
        if !is_skipped_partial(file, options)
            && let Some(shape) = shape(file)
            && let Some(runs) = crate::fast::category_runs(file, shape)
        {
            return Read { runs, diagnostics: Vec::new() };
        }
        match read_run(file, options) {
            Got::Run(run, diagnostics) => Read { runs: crate::runs::category_runs(&run), diagnostics },
            Got::Skipped(d) => Read { runs: Vec::new(), diagnostics: d.into_iter().collect() },
            Got::Failed(d) => Read { runs: Vec::new(), diagnostics: vec![d] },
        }
    }

    fn records(&self, file: &Input<'_>, options: &Options) -> Records {
        match read_run(file, options) {
            Got::Run(run, diagnostics) => Records { runs: vec![crate::runs::record(&run)], diagnostics },
            Got::Skipped(d) => Records { runs: Vec::new(), diagnostics: d.into_iter().collect() },
            Got::Failed(d) => Records { runs: Vec::new(), diagnostics: vec![d] },
        }
    }

    fn show(&self, file: &Input<'_>, test: &str, options: &Options) -> Shown {
        match read_run(file, options) {
            Got::Run(run, _) => {
                Shown { details: crate::runs::show(&run, test).into_iter().collect(), diagnostics: Vec::new() }
            }
            Got::Skipped(d) => Shown { details: Vec::new(), diagnostics: d.into_iter().collect() },
            Got::Failed(d) => Shown { details: Vec::new(), diagnostics: vec![d] },
        }
    }

    fn validate(&self, file: &Input<'_>, options: &Options) -> Vec<FileValidation> {
        let (value, note) = match parse_json(file.path, file.bytes) {
            Ok(parsed) => parsed,
            Err(d) => {
                let at = Finding::location(d.line, d.column, "file");
                return vec![FileValidation::new(file.path, self.name(), vec![Finding::error(at, d.message)])];
            }
        };
        let mut findings = Vec::new();
        if let Some(note) = note {
            let at = match (note.line, note.column) {
                (Some(l), Some(c)) => format!("line {l}, column {c}"),
                _ => "file".to_string(),
            };
            findings.push(Finding::warning(at, note.message));
        }
        findings.extend(evaltally_format::json::repeated_key_findings(file.bytes));
        findings.extend(crate::validate::validate_file(&value, options.strict));
        findings.extend(unknown_keys_in(&value, KEYS));
        vec![FileValidation::new(file.path, format_name(&value), findings)]
    }
}

/// The top-level keys gstack writes, both shapes, every version: the legacy `EvalResult` of
/// `test/helpers/eval-store.ts` (`wall_clock_ms` since v0.7.0, `shard` since v1.63, `costs`
/// on the store's branch, `_partial` of `savePartial`) and `StandardEvalResult` of
/// `lib/eval-format.ts`. A test's own keys are not checked: `recordE2E` copies a test's
/// `extra` object into it.
const KEYS: &[Level] = &[Level {
    at: "$",
    known: &[
        "schema_version",
        "version",
        "label",
        "branch",
        "git_branch",
        "git_sha",
        "timestamp",
        "hostname",
        "tier",
        "total",
        "total_tests",
        "passed",
        "failed",
        "total_cost_usd",
        "total_duration_ms",
        "duration_seconds",
        "wall_clock_ms",
        "tests",
        "all_results",
        "prompt_sha",
        "by_category",
        "costs",
        "comparison",
        "failures",
        "shard",
        "_partial",
    ],
    what: "a gstack eval result",
}];

fn format_name(value: &Value) -> &'static str {
    match crate::detect(value) {
        Some(Shape::Legacy) => "gstack-legacy",
        _ => "gstack",
    }
}

/// Whether a parsed document is a partial save (kept for callers holding a value).
pub fn is_partial(path: &Path, doc: &Value) -> bool {
    is_partial_name(path) || is_partial_doc(doc)
}
