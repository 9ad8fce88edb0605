//! OpenAI Evals output items and `oaieval` record logs as a format of the reading pipeline:
//! `*.jsonl` files one of whose first lines is an object with `run_id` and
//! `data_source_idx`, and `*.jsonl` or `*.log` files that start with a `spec` line followed
//! by events or the `final_report`.

use std::path::Path;

use evaltally_core::Finding;
use evaltally_format::check::Level;
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Shown};

use crate::{FORMAT, REPEATED_KEY, read_lines};

/// OpenAI Evals output items.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenAiEvals;

/// The one value of [`OpenAiEvals`], for the registry.
pub static OPENAI_EVALS: OpenAiEvals = OpenAiEvals;

/// How many non-blank lines the sniffer looks at: a damaged first line does not hide a file
/// the reader can say more about.
const SNIFFED_LINES: usize = 8;

/// Whether one of the first non-blank lines is an object with both `first` and `second`
/// (looked at with the pipeline's scanner, nothing built).
fn early_line_with(bytes: &[u8], first: &[u8], second: &[u8]) -> bool {
    let bytes = evaltally_format::json::without_bom(bytes);
    evaltally_format::bytes::lines(bytes).filter(|l| !l.iter().all(u8::is_ascii_whitespace)).take(SNIFFED_LINES).any(
        |line| {
            let start = line.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
            evaltally_format::json::object_has(line, start, first, second)
        },
    )
}

/// Output items: a line with `run_id` and `data_source_idx` (the dashboard's export) or
/// `datasource_item_id` (the Evals API's `output_items`, saved a line each).
fn looks_like_items(bytes: &[u8]) -> bool {
    early_line_with(bytes, b"run_id", b"data_source_idx") || early_line_with(bytes, b"run_id", b"datasource_item_id")
}

/// The Evals API's list page of output items: `object` `list`, and `data` a list whose
/// first item is an `eval.run.output_item` (looked at with the pipeline's scanner).
fn looks_like_list_page(file: &Input<'_>) -> bool {
    const ITEM: &[u8] = b"\"eval.run.output_item\"";
    let list = file.json("object").is_some_and(|v| v == b"\"list\"");
    let data = file.json("data").filter(|d| d.first() == Some(&b'['));
    list && data.is_some_and(|d| d[..d.len().min(4096)].windows(ITEM.len()).any(|w| w == ITEM))
}

/// A record log: a `spec` first line, and an event line with `sample_id` and `type` or the
/// `final_report` line of a run that recorded no event.
fn looks_like_record_log(bytes: &[u8]) -> bool {
    let mut lines = evaltally_format::bytes::lines(evaltally_format::json::without_bom(bytes))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace));
    lines.next().is_some_and(crate::record_log::is_spec_line)
        && (early_line_with(bytes, b"sample_id", b"type")
            || lines.take(SNIFFED_LINES).any(|l| {
                let start = l.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(0);
                evaltally_format::json::object_has(l, start, b"final_report", b"final_report")
            }))
}

fn is_jsonl(path: &Path) -> bool {
    evaltally_format::has_extension(path, "jsonl")
}

/// `oaieval --record_path` takes any name: openai/evals' own scripts give it `.log` names.
fn is_log(path: &Path) -> bool {
    evaltally_format::has_extension(path, "log")
}

/// The keys of a line, for both kinds of file: an output item of the dashboard's export (the
/// keys promptfoo's importer knows, `src/importers/openaiEvals/types.ts`, and `eval_id`) and a
/// record log's lines (openai/evals `evals/record.py`: the spec line, the events, the final
/// report with `run_id` since 2024-01) with its `RunSpec` (`evals/base.py`; `model_name` and
/// `model_names` before `completion_fns`, 2023-04). Of an item's sample, its token usage and
/// error; the rest of the sample, the item, the grades, an event's `data` and the report
/// are free-form.
const KEYS: &[Level] = &[
    Level { at: "$", known: LINE, what: "an OpenAI Evals line (output item or record log)" },
    Level { at: "$.results[*]", known: GRADER_RESULT, what: "an Evals API output item's grader result" },
    Level {
        at: "$.spec",
        known: &[
            "completion_fns",
            "eval_name",
            "base_eval",
            "split",
            "run_config",
            "created_by",
            "run_id",
            "created_at",
            "model_name",
            "model_names",
        ],
        what: "OpenAI Evals' RunSpec",
    },
    Level { at: "$.sample.token_usage", known: TOKEN_USAGE, what: "an output item's token usage" },
    Level { at: "$.sample.usage", known: TOKEN_USAGE, what: "an output item's token usage" },
    Level { at: "$.sample.error", known: ERROR, what: "an output item's error" },
];

/// The keys of a line: an output item's (the dashboard's export, the API's) or a record
/// log's.
const LINE: &[&str] = &[
    "run_id",
    "eval_id",
    "data_source_idx",
    "item",
    "sample",
    "grades",
    "grader_samples",
    "passes",
    "spec",
    "final_report",
    "event_id",
    "sample_id",
    "type",
    "data",
    "created_by",
    "created_at",
    "object",
    "id",
    "status",
    "datasource_item_id",
    "datasource_item",
    "results",
];

/// An Evals API grader result's keys (`results[]`).
const GRADER_RESULT: &[&str] = &["name", "type", "passed", "score", "sample", "label", "reason", "threshold", "metric"];

/// The keys of the Evals API's list page of output items: the page's own and its items'.
const PAGE: &[Level] = &[
    Level { at: "$", known: &["object", "data", "first_id", "last_id", "has_more"], what: "an Evals API list page" },
    Level { at: "$.data[*]", known: LINE, what: "an Evals API output item" },
    Level { at: "$.data[*].results[*]", known: GRADER_RESULT, what: "an Evals API output item's grader result" },
    Level { at: "$.data[*].sample.usage", known: TOKEN_USAGE, what: "an output item's token usage" },
    Level { at: "$.data[*].sample.error", known: ERROR, what: "an output item's error" },
];

/// A sample error's keys.
const ERROR: &[&str] = &["code", "message", "type", "param"];

/// A sample's token counts.
const TOKEN_USAGE: &[&str] = &["prompt_tokens", "completion_tokens", "total_tokens", "cached_tokens"];

impl Format for OpenAiEvals {
    fn name(&self) -> &'static str {
        FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["openai-evals-items"]
    }

    fn describe(&self) -> &'static str {
        "  OpenAI Evals output items (`*.jsonl` of {run_id, data_source_idx, item, sample, passes}, or the Evals API's {run_id, datasource_item_id, results, sample}) and oaieval record logs (`*.jsonl`, `*.log`: {spec} then events); each run_id is a run"
    }

    fn noun(&self) -> &'static str {
        "OpenAI Evals output items"
    }

    fn claim(&self, path: &Path) -> Claim {
        let json = evaltally_format::json::is_json_path(path);
        if is_jsonl(path) || is_log(path) || json { Claim::Sniff } else { Claim::No }
    }

    /// A `.log` is a record log only if it begins `{"spec"`: a harness's own logs (megabytes
    /// each, thousands in a Terminal-Bench tree) are not read past their first 4 KiB.
    fn head(&self, path: &Path) -> usize {
        if is_log(path) { 4 << 10 } else { 0 }
    }

    fn may_be(&self, _path: &Path, head: &[u8]) -> bool {
        let head = evaltally_format::json::without_bom(head);
        let rest = head.trim_ascii_start().strip_prefix(b"{").map(<[u8]>::trim_ascii_start);
        rest.is_some_and(|r| r.starts_with(b"\"spec\""))
    }

    /// A `.jsonl` file of output items or a record log; a `.log` file that is a record log;
    /// a `.json` file that is the Evals API's list page of output items.
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        if evaltally_format::json::is_json_path(file.path) {
            return looks_like_list_page(file);
        }
        (is_jsonl(file.path) && looks_like_items(file.bytes)) || looks_like_record_log(file.bytes)
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        let read = read_lines(file.path, file.bytes, true, true);
        Read { runs: read.runs, diagnostics: read.diagnostics }
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        let (runs, diagnostics) = crate::records(file.path, file.bytes);
        Records { runs, diagnostics }
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        Shown { details: crate::show(file.path, file.bytes, test), diagnostics: Vec::new() }
    }

    /// Every line left out, and every key written twice on a line, is an error; what was
    /// read with a default, and a key no writer gives (`KEYS`), is a warning; a fact of the
    /// shape (samples only a model-graded score judges) stays a fact.
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let mut findings: Vec<Finding> = read_lines(file.path, file.bytes, true, false)
            .diagnostics
            .into_iter()
            .map(|d| {
                let repeated = d.message.starts_with(REPEATED_KEY);
                let mut finding = Finding::from_diagnostic(d, "file");
                if repeated {
                    finding.severity = evaltally_core::Severity::Error;
                }
                finding
            })
            .collect();
        if evaltally_format::json::is_json_path(file.path) {
            findings.extend(evaltally_format::check::unknown_key_findings(file.bytes, PAGE));
        } else {
            findings.extend(evaltally_format::check::unknown_line_key_findings(file.bytes, KEYS));
        }
        vec![FileValidation::new(file.path, FORMAT, findings)]
    }
}
