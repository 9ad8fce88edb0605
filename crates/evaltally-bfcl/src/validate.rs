//! Checking BFCL result and score files against the format, byte by byte.
//!
//! Reading for analysis ([`read_pair`](crate::read_pair)) only needs a few fields and
//! tolerates what it can; validation parses every line completely (with simd-json, into a
//! reused buffer) and checks the invariants BFCL's own files keep (the seed's validation
//! steps, all of which hold on real runs):
//!
//! * every line of a result file is a JSON object with a string `id` (v1 `idx` is
//!   accepted), and no id appears twice;
//! * a score file's first line is a summary with numeric `accuracy`, `correct_count` and
//!   `total_count`; `total_count` equals the number of result lines; the number of failure
//!   lines equals `total_count - correct_count`; every failure has `"valid": false`, an id
//!   that is in the result file, and no id twice;
//! * the category inside (`test_category`, the ids' prefix) matches the file name;
//! * no line has a key BFCL never wrote ([`RESULT_KEYS`], [`SCORE_KEYS`]): each is said once,
//!   with how many lines have it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use evaltally_core::{Finding, id::category_of};
use evaltally_format::check::{KeyCheck, Level};
use simd_json::prelude::*;

use crate::layout::FilePair;
use crate::lines;

/// The findings for one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// `bfcl-result` or `bfcl-score`.
    pub format: &'static str,
    /// What is wrong with it, located by line.
    pub findings: Vec<Finding>,
}

impl FileReport {
    fn new(path: &Path, format: &'static str) -> Self {
        Self { path: path.to_path_buf(), format, findings: Vec::new() }
    }

    /// Whether no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.findings.iter().any(Finding::is_error)
    }

    fn error(&mut self, line: u64, message: impl Into<String>) {
        self.findings.push(Finding::error(format!("line {line}"), message));
    }

    fn warn(&mut self, line: u64, message: impl Into<String>) {
        self.findings.push(Finding::warning(format!("line {line}"), message));
    }

    fn info(&mut self, line: u64, message: impl Into<String>) {
        self.findings.push(Finding::info(format!("line {line}"), message));
    }

    fn file_error(&mut self, message: impl Into<String>) {
        self.findings.push(Finding::error("file", message));
    }

    fn file_warning(&mut self, message: impl Into<String>) {
        self.findings.push(Finding::warning("file", message));
    }

    /// File-level findings first, then by line; stable within a line.
    fn sort(&mut self) {
        let key = |f: &Finding| f.path.strip_prefix("line ").and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        self.findings.sort_by_key(key);
    }
}

/// Reusable buffers: one line copy (simd-json rewrites its input, and reads past its end),
/// simd-json's own, and the tape's allocation (empty between lines).
#[derive(Default)]
struct Parser {
    line: Vec<u8>,
    buffers: Option<simd_json::Buffers>,
    tape: Option<simd_json::Tape<'static>>,
}

impl std::fmt::Debug for Parser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parser")
    }
}

impl Parser {
    /// Parses one line completely, and says whether an object in it may have a key twice
    /// (`false` is certain: the tape's objects were looked at; `true` asks for the walk
    /// that locates the repeats); on error, the 1-based column and the message.
    fn parse<'a>(&'a mut self, line: &[u8]) -> Result<(simd_json::BorrowedValue<'a>, bool), (u64, String)> {
        let Self { line: copy, buffers, tape: kept } = self;
        // The copy carries simd-json's padding, so that it parses in place.
        copy.clear();
        copy.extend_from_slice(line);
        copy.resize(line.len() + simd_json::INPUT_PADDING, 0);
        let buffers = buffers.get_or_insert_with(|| simd_json::Buffers::new(line.len()));
        let mut tape = kept.take().unwrap_or_else(simd_json::Tape::null).reset();
        let filled = simd_json::fill_tape_padded(copy, line.len(), buffers, &mut tape);
        let parsed = filled.map(|()| {
            let repeats = repeats_a_key(&tape.0);
            (simd_json::value::lazy::Value::from_tape(tape.as_value()).into_value(), repeats)
        });
        *kept = Some(tape.reset());
        let e = match parsed {
            Ok(parsed) => return Ok(parsed),
            Err(e) => e,
        };
        // simd-json finds the error fast but says little about it; serde_json, run on
        // this one bad line only, names the position and what it expected.
        match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
            Err(se) => Err((evaltally_format::json::column(&se) as u64, evaltally_format::json::message(&se))),
            // An integer past f64's range (Python writes 1000! as digits): valid JSON,
            // which no float holds. Checked with such numbers as 0.
            Ok(_) if matches!(e.error(), simd_json::ErrorType::InvalidNumber | simd_json::ErrorType::Overflow) => {
                let mut tamed = huge_numbers_as_zero(line);
                simd_json::to_owned_value(&mut tamed)
                    .map(|v| (simd_json::BorrowedValue::from(v), true))
                    .map_err(|e| (e.index() as u64 + 1, describe(e.error())))
            }
            // serde_json skips a string's bytes it does not keep; simd-json checks the
            // whole line's UTF-8 first and gives no place.
            Ok(_) if matches!(e.error(), simd_json::ErrorType::InvalidUtf8) => {
                let at = std::str::from_utf8(line).err().map_or(0, |u| u.valid_up_to());
                Err((at as u64 + 1, describe(e.error())))
            }
            Ok(_) => Err((e.index() as u64 + 1, describe(e.error()))),
        }
    }

    /// The line's object, or `None` with its error reported: not JSON, not an object, or
    /// a key written twice (a line with a key twice is not checked further: parsers
    /// disagree on which value it holds).
    fn object<'a>(
        &'a mut self,
        report: &mut FileReport,
        line_no: u64,
        line: &[u8],
    ) -> Option<simd_json::BorrowedValue<'a>> {
        let (value, repeats) = match self.parse(line) {
            Ok(v) => v,
            Err((col, msg)) => {
                report.error(line_no, format!("not valid JSON at column {col}: {msg}"));
                return None;
            }
        };
        if !value.is_object() {
            report.error(line_no, format!("expected a JSON object, found {}", type_name(&value)));
            return None;
        }
        if repeats && repeated_keys(report, line_no, line) {
            return None;
        }
        Some(value)
    }
}

/// Whether an object of a parsed line has a key twice: each object's keys, read off the
/// tape (a container's node says how many nodes follow it), compared.
fn repeats_a_key(nodes: &[simd_json::Node<'_>]) -> bool {
    use simd_json::Node;
    let span = |node: &Node<'_>| match node {
        Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
        _ => 1,
    };
    let mut keys: Vec<&str> = Vec::new();
    for (at, node) in nodes.iter().enumerate() {
        let &Node::Object { len, .. } = node else { continue };
        if len < 2 {
            continue;
        }
        keys.clear();
        let mut i = at + 1;
        for _ in 0..len {
            let (Some(Node::String(key)), Some(value)) = (nodes.get(i), nodes.get(i + 1)) else { return true };
            keys.push(key);
            i += 1 + span(value);
        }
        let repeats = if keys.len() <= 8 {
            keys.iter().enumerate().any(|(k, key)| keys[..k].contains(key))
        } else {
            keys.sort_unstable();
            keys.windows(2).any(|w| w[0] == w[1])
        };
        if repeats {
            return true;
        }
    }
    false
}

/// `line` with every number of more than 300 digits outside strings written `0`: no float
/// holds it, and the checks need none of them.
fn huge_numbers_as_zero(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let (mut i, mut in_string, mut escaped) = (0, false, false);
    while i < line.len() {
        let b = line[i];
        if in_string {
            out.push(b);
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
        } else if b == b'"' {
            in_string = true;
            out.push(b);
            i += 1;
        } else if b == b'-' || b.is_ascii_digit() {
            let end = line[i..]
                .iter()
                .position(|c| !(c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E')))
                .map_or(line.len(), |n| i + n);
            let digits = line[i..end].iter().filter(|c| c.is_ascii_digit()).count();
            if digits > 300 {
                out.push(b'0');
            } else {
                out.extend_from_slice(&line[i..end]);
            }
            i = end;
        } else {
            out.push(b);
            i += 1;
        }
    }
    out
}

/// An error per key written twice in one object of the line (`stability` reads the last
/// value, as JSON parsers do); whether there was one.
fn repeated_keys(report: &mut FileReport, line_no: u64, line: &[u8]) -> bool {
    let repeated = evaltally_format::json::repeated_keys(line);
    for r in &repeated {
        let (first, again) = (r.first + 1, r.again + 1);
        report.error(
            line_no,
            format!("key `{}` at column {again} repeats the one at column {first}; the last value is read", r.key),
        );
    }
    !repeated.is_empty()
}

/// simd-json's error kinds in words.
fn describe(e: &simd_json::ErrorType) -> String {
    use simd_json::ErrorType as E;
    match e {
        E::Eof => "the line ends before the JSON value does (cut short?)".into(),
        E::UnterminatedString => "a string is not terminated".into(),
        E::TrailingData => "more data after the JSON value".into(),
        E::ExpectedObjectColon => "expected `:` after a member name".into(),
        E::ExpectedMapComma | E::ExpectedMapEnd => "expected `,` or `}` in an object".into(),
        E::ExpectedArrayComma => "expected `,` or `]` in an array".into(),
        E::ExpectedObjectKey | E::KeyMustBeAString => "expected a string member name".into(),
        E::InvalidEscape | E::InvalidUnicodeEscape | E::InvalidUnicodeCodepoint => "invalid escape in a string".into(),
        E::InvalidUtf8 => "invalid UTF-8".into(),
        E::InvalidNumber | E::InvalidExponent | E::Overflow => "invalid or out-of-range number".into(),
        E::DepthLimitExceeded => "nested too deeply for a full check".into(),
        E::InputTooLarge => "the line is too large for a full check (4 GiB or more)".into(),
        E::UnexpectedCharacter | E::Syntax | E::Parser | E::NoStructure => "not JSON here".into(),
        other => format!("{other:?}"),
    }
}

fn read(path: &Path, report: &mut FileReport) -> Option<Vec<u8>> {
    match evaltally_format::file::read(path) {
        Ok(b) => Some(b),
        Err(e) => {
            report.file_error(evaltally_format::file::cannot_read(&e));
            None
        }
    }
}

fn check_newline(buf: &[u8], report: &mut FileReport) {
    if buf.starts_with(evaltally_format::json::BOM) {
        report.warn(1, "starts with a UTF-8 byte order mark: read past it here, but BFCL's own json.loads refuses it");
    }
    if !buf.is_empty() && !buf.ends_with(b"\n") {
        let (last, line) = lines::split(buf).last().unwrap_or((1, buf));
        if crate::read::is_complete(line) {
            report.info(last, crate::read::NO_FINAL_NEWLINE);
        } else {
            report.warn(last, "no newline at the end of the file (was it cut short?)");
        }
    }
}

/// The ids of a result file, by line, as the score file needs them.
#[derive(Default)]
struct ResultIds {
    /// (id, line) in file order.
    ids: Vec<(String, u64)>,
}

/// The keys of a result line in every version of BFCL (`berkeley-function-call-leaderboard/`
/// of ShishirPatil/gorilla, every commit of `main`): `{id, result}` with the handler's
/// metadata (`bfcl_eval/model_handler/base_handler.py`: token counts, `latency`,
/// `reasoning_content`, `inference_log`, `traceback` on an exception); `idx` before
/// 2024-07; `processed_message`, `processed_tool` and one handler's misspelt
/// `input_token_token` / `output_token_token` in 2024-08/09; `debugging_log` before it was
/// renamed `inference_log` (2024-11); `{question, function, ground_truth, result}` in 2024-03.
pub const RESULT_KEYS: &[Level] = &[Level {
    at: "$",
    known: &[
        "id",
        "idx",
        "result",
        "input_token_count",
        "output_token_count",
        "latency",
        "reasoning_content",
        "inference_log",
        "traceback",
        "processed_message",
        "processed_tool",
        "input_token_token",
        "output_token_token",
        "debugging_log",
        "question",
        "function",
        "ground_truth",
    ],
    what: "a BFCL result line",
}];

/// The keys of a score file's lines in every version (`eval_checker/eval_runner.py`,
/// `eval_runner_helper.save_eval_results`): the summary (the spread of the
/// format-sensitivity runner since V4, with one `ret_fmt=…` key per prompt configuration),
/// a failure entry (`model_executed_output` until 2025-04, `execution_result` in 2024-11,
/// `inference_log` and the agentic `last_non_fc_message` since) and its `error` object
/// (`message` and the instance states in 2024-10/11, then `error_message`, `error_type`,
/// `details`, `execution_result`). The failure's `prompt`, results and answers are the
/// dataset's and the model's, not checked.
pub const SCORE_KEYS: &[Level] = &[
    Level {
        at: "summary",
        known: &[
            "accuracy",
            "correct_count",
            "total_count",
            "accuracy_max_delta",
            "accuracy_variance",
            "accuracy_std",
            "ret_fmt=*",
        ],
        what: "a BFCL score summary",
    },
    Level {
        at: "$",
        known: &[
            "id",
            "model_name",
            "test_category",
            "valid",
            "error",
            "error_type",
            "prompt",
            "model_result_raw",
            "model_result_decoded",
            "possible_answer",
            "model_result",
            "decoded_result",
            "model_executed_output",
            "execution_result",
            "inference_log",
            "last_non_fc_message",
        ],
        what: "a BFCL failure entry",
    },
    Level {
        at: "$.error",
        known: &[
            "error_message",
            "error_type",
            "details",
            "execution_result",
            "message",
            "model_instance_state",
            "ground_truth_instance_state",
        ],
        what: "a BFCL failure's error",
    },
];

/// Tallies the keys of a line's object (and of its `error` object, when `error` is a level).
fn line_keys(keys: &mut KeyCheck<'_>, at: &str, value: &simd_json::BorrowedValue<'_>) {
    if let Some(m) = value.as_object() {
        keys.add_keys(at, m.keys().map(AsRef::as_ref));
        if at == "$"
            && let Some(error) = m.get("error").and_then(ValueAsObject::as_object)
        {
            keys.add_keys("$.error", error.keys().map(AsRef::as_ref));
        }
    }
}

/// Adds the unknown keys found to `report`, before its line findings.
fn finish_keys(keys: KeyCheck<'_>, report: &mut FileReport) {
    for mut f in keys.findings() {
        // The summary is a line's object too: `$.key`, as the failure entries' are.
        if let Some(rest) = f.path.strip_prefix("summary") {
            f.path = format!("${rest}");
        }
        report.findings.push(f);
    }
}

fn validate_results(path: &Path, category: &str, parser: &mut Parser) -> (FileReport, Option<ResultIds>) {
    let mut report = FileReport::new(path, "bfcl-result");
    let Some(buf) = read(path, &mut report) else { return (report, None) };
    results_in(report, &buf, category, parser)
}

fn results_in(
    mut report: FileReport,
    buf: &[u8],
    category: &str,
    parser: &mut Parser,
) -> (FileReport, Option<ResultIds>) {
    if buf.iter().all(u8::is_ascii_whitespace) {
        report.file_error("empty result file: expected one JSON object per test");
        return (report, Some(ResultIds::default()));
    }
    if let Some(spread) = evaltally_format::json::Spread::of(buf) {
        report.file_error(spread.message("BFCL writes them"));
        return (report, Some(ResultIds::default()));
    }
    check_newline(buf, &mut report);
    let mut out = ResultIds::default();
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut foreign = 0usize;
    let mut v1: Option<u64> = None;
    let mut keys = KeyCheck::new(RESULT_KEYS);
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            report.warn(line_no, "blank line");
            continue;
        }
        let Some(value) = parser.object(&mut report, line_no, line) else { continue };
        line_keys(&mut keys, "$", &value);
        let id = match (value.get("id"), value.get("idx")) {
            (Some(v), _) if v.as_str().is_some() => v.as_str().unwrap_or_default().to_string(),
            // BFCL v1's shapes: integer ids (in files of its name), or `idx`.
            (Some(v), _) if v.as_u64().is_some() && crate::layout::is_v1_name(&report.path) => {
                if v1.is_none() {
                    v1 = Some(line_no);
                    report.info(line_no, format!("v1 integer ids in a result file; named `{category}_<id>`"));
                }
                format!("{category}_{}", v.as_u64().unwrap_or(0))
            }
            (None, Some(v)) if v.as_u64().is_some() => {
                if v1.is_none() {
                    v1 = Some(line_no);
                    report.info(
                        line_no,
                        format!("v1 result lines keyed `idx` (0-based) instead of `id`; ids named `{category}_<idx>`"),
                    );
                }
                format!("{category}_{}", v.as_u64().unwrap_or(0))
            }
            (Some(v), _) => {
                report.error(line_no, format!("`id` must be a string, found {}", type_name(v)));
                continue;
            }
            _ => {
                report.error(line_no, "missing `id`: expected a result object with a string `id`");
                continue;
            }
        };
        if let Some(first) = seen.get(&id) {
            report.error(line_no, format!("duplicate id `{id}` (first at line {first})"));
            continue;
        }
        if !belongs(&id, category) {
            foreign += 1;
            if foreign <= 3 {
                report.warn(line_no, format!("id `{id}` is not of category `{category}`, which the file name says"));
            }
        }
        measures(&mut report, line_no, &value);
        seen.insert(id.clone(), line_no);
        out.ids.push((id, line_no));
    }
    if foreign > 3 {
        report.file_warning(format!("{foreign} ids in all are not of category `{category}`"));
    }
    finish_keys(keys, &mut report);
    (report, Some(out))
}

/// Token counts must be whole and not negative, the latency a number of seconds not below
/// zero (warnings: the outcome does not depend on them, the token and latency analyses do).
fn measures(report: &mut FileReport, line: u64, value: &simd_json::BorrowedValue<'_>) {
    for key in ["input_token_count", "output_token_count"] {
        match value.get(key) {
            Some(v) if v.is_null() || v.as_u64().is_some() => {}
            // Multi-turn results list one count per turn.
            Some(v) if v.is_array() => {}
            Some(v) => {
                report.warn(line, format!("`{key}` must be a count (a whole number, 0 or more), found {}", shown(v)));
            }
            None => {}
        }
    }
    if let Some(v) = value.get("latency")
        && !v.is_null()
        && !v.is_array()
        && number(Some(v)).is_none_or(|s| s < 0.0 || !s.is_finite())
    {
        report.warn(line, format!("`latency` must be seconds (0 or more), found {}", shown(v)));
    }
}

/// A scalar as written (numbers and strings), else its type.
fn shown(v: &simd_json::BorrowedValue<'_>) -> String {
    match v.value_type() {
        simd_json::ValueType::String => format!("the string {:?}", v.as_str().unwrap_or_default()),
        simd_json::ValueType::I64 | simd_json::ValueType::U64 | simd_json::ValueType::F64 => v.to_string(),
        _ => type_name(v).to_string(),
    }
}

/// Whether an id belongs to a category: `simple_python_3` to `simple_python`, and raw
/// dataset ids such as `memory_0-customer-0` to `memory`.
fn belongs(id: &str, category: &str) -> bool {
    category_of(id) == category || id.strip_prefix(category).is_some_and(|rest| rest.starts_with('_'))
}

fn type_name(v: &simd_json::BorrowedValue<'_>) -> &'static str {
    match v.value_type() {
        simd_json::ValueType::Null => "null",
        simd_json::ValueType::Bool => "a boolean",
        simd_json::ValueType::String => "a string",
        simd_json::ValueType::Array => "an array",
        simd_json::ValueType::Object => "an object",
        _ => "a number",
    }
}

fn number(v: Option<&simd_json::BorrowedValue<'_>>) -> Option<f64> {
    v.and_then(ValueAsScalar::cast_f64)
}

/// The summary line of a score file: where it is and its counts.
struct SummaryLine {
    line: u64,
    accuracy: Option<f64>,
    correct: Option<f64>,
    total: Option<f64>,
}

fn validate_scores(path: &Path, category: &str, results: Option<&ResultIds>, parser: &mut Parser) -> FileReport {
    let mut report = FileReport::new(path, "bfcl-score");
    let Some(buf) = read(path, &mut report) else { return report };
    scores_in(report, &buf, category, results, parser)
}

fn scores_in(
    mut report: FileReport,
    buf: &[u8],
    category: &str,
    results: Option<&ResultIds>,
    parser: &mut Parser,
) -> FileReport {
    if buf.iter().all(u8::is_ascii_whitespace) {
        report.file_error("empty score file: expected a summary line");
        return report;
    }
    if let Some(spread) = evaltally_format::json::Spread::of(buf) {
        report.file_error(spread.message("BFCL writes them"));
        return report;
    }
    check_newline(buf, &mut report);
    let by_id: HashMap<&str, usize> =
        results.map(|r| r.ids.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect()).unwrap_or_default();
    let mut summary: Option<SummaryLine> = None;
    let mut failures = 0u64;
    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut first = true;
    let mut bad_category = HashSet::new();
    let mut keys = KeyCheck::new(SCORE_KEYS);
    for (line_no, line) in lines::split(buf) {
        if lines::is_blank(line) {
            report.warn(line_no, "blank line");
            continue;
        }
        let was_first = std::mem::replace(&mut first, false);
        let Some(value) = parser.object(&mut report, line_no, line) else { continue };
        let is_summary = value.get("id").is_none()
            && ["accuracy", "correct_count", "total_count"].iter().any(|k| value.get(*k).is_some());
        line_keys(&mut keys, if is_summary { "summary" } else { "$" }, &value);
        if is_summary {
            if !was_first {
                report.error(line_no, "summary line here: expected it on the first line");
            }
            let acc = number(value.get("accuracy"));
            let correct = number(value.get("correct_count"));
            let total = number(value.get("total_count"));
            for (k, v) in [("accuracy", acc), ("correct_count", correct), ("total_count", total)] {
                if v.is_none() {
                    report.error(line_no, format!("summary `{k}` must be a number"));
                }
            }
            if summary.is_none() {
                summary = Some(SummaryLine { line: line_no, accuracy: acc, correct, total });
            }
            continue;
        }
        if was_first {
            report.error(
                line_no,
                "first line is not a summary: expected {\"accuracy\", \"correct_count\", \"total_count\"}",
            );
        }
        failures += 1;
        if value.get("valid").and_then(ValueAsScalar::as_bool) != Some(false) {
            report.error(line_no, "failure entry without `\"valid\": false` (score files list failures only)");
        }
        if let Some(cat) = value.get("test_category").and_then(ValueAsScalar::as_str)
            && cat != category
            && bad_category.insert(cat.to_string())
        {
            report.error(line_no, format!("`test_category` is `{cat}`, but the file name says `{category}`"));
        }
        // The label is read from the top level or from `error.error_type`; either must be text.
        let label = value.get("error_type").or_else(|| value.get("error").and_then(|e| e.get("error_type")));
        if let Some(v) = label.filter(|v| v.as_str().is_none() && !v.is_null()) {
            report.warn(
                line_no,
                format!("`error_type` must be a string, found {}; the failure is unlabelled", type_name(v)),
            );
        }
        let id = match value.get("id") {
            Some(v) if v.as_str().is_some() => v.as_str().unwrap_or_default().to_string(),
            Some(v) if v.as_u64().is_some() => {
                // Pre-2025 score files: 1-based ids, the real id in `prompt.id`.
                let n = v.as_u64().unwrap_or(0);
                match value.get("prompt").and_then(|p| p.get("id")).and_then(ValueAsScalar::as_str) {
                    Some(real) => real.to_string(),
                    None => results
                        .and_then(|r| usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).and_then(|i| r.ids.get(i)))
                        .map_or_else(|| format!("#{n}"), |(id, _)| id.clone()),
                }
            }
            Some(v) => {
                report.error(line_no, format!("`id` must be a string, found {}", type_name(v)));
                continue;
            }
            None => {
                report.error(line_no, "failure entry has no `id`");
                continue;
            }
        };
        if let Some(first) = seen.get(&id) {
            report.error(line_no, format!("duplicate failure `{id}` (first at line {first})"));
            continue;
        }
        if results.is_some() && !by_id.contains_key(id.as_str()) {
            report.error(line_no, format!("failure `{id}` is not in the result file"));
        }
        seen.insert(id, line_no);
    }
    finish_keys(keys, &mut report);
    match summary {
        None => report.file_error("no summary line: expected {\"accuracy\", \"correct_count\", \"total_count\"} first"),
        Some(SummaryLine { line, accuracy: acc, correct, total }) => {
            if let (Some(total), Some(r)) = (total, results)
                && !close(total, r.ids.len() as f64)
            {
                report.error(line, format!("total_count is {total}, but the result file has {} tests", r.ids.len()));
            }
            if let (Some(total), Some(correct)) = (total, correct)
                && !close(total - correct, failures as f64)
            {
                report.error(
                    line,
                    format!(
                        "total_count - correct_count is {}, but the file lists {failures} failure{}",
                        total - correct,
                        if failures == 1 { "" } else { "s" }
                    ),
                );
            }
            if let (Some(acc), Some(correct), Some(total)) = (acc, correct, total)
                && total > 0.0
                && (acc - correct / total).abs() > 1e-6
            {
                report.warn(line, format!("accuracy is {acc}, but correct_count / total_count is {}", correct / total));
            }
        }
    }
    report
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Validates the files of one (run, model, category).
///
/// A result file without its score file, and a score file without its result file, get
/// a warning on the file that is there (nothing is wrong inside it, but the pair is
/// incomplete), unless the pair has no run name: a single file given on its own.
pub fn validate_pair(pair: &FilePair) -> Vec<FileReport> {
    let mut parser = Parser::default();
    let mut out = Vec::new();
    let results = pair.result.as_ref().map(|p| validate_results(p, &pair.category, &mut parser));
    let ids = results.as_ref().and_then(|(_, ids)| ids.as_ref());
    let scores = pair.score.as_ref().map(|p| validate_scores(p, &pair.category, ids, &mut parser));
    if let Some((mut r, _)) = results {
        r.sort();
        if pair.score.is_none() && !pair.run.is_empty() {
            if crate::never_scored(&pair.category) {
                let note = crate::never_scored_note(&pair.model, &pair.category, &pair.run, None);
                r.findings.push(Finding::info("file", note));
            } else {
                r.file_warning(format!(
                    "no score file for model `{}`, category `{}` in run `{}`: its tests are unscored",
                    pair.model, pair.category, pair.run
                ));
            }
        }
        out.push(r);
    }
    if let Some(mut s) = scores {
        s.sort();
        if pair.result.is_none() && !pair.run.is_empty() {
            s.file_warning(format!(
                "no result file for model `{}`, category `{}` in run `{}`: passes cannot be told from tests that never ran",
                pair.model, pair.category, pair.run
            ));
        }
        out.push(s);
    }
    out
}

/// Validates a result file and its score file from their contents (for fuzzing and for
/// tools that hold files in memory): the same checks as [`validate_pair`], without the
/// pair-level warnings.
///
/// ```
/// let reports = evaltally_bfcl::validate::validate_bytes(
///     "simple",
///     b"{\"id\": \"simple_0\"}\n",
///     Some(b"{\"accuracy\": 1.0, \"correct_count\": 1, \"total_count\": 1}\n"),
/// );
/// assert!(reports.iter().all(|r| r.is_valid()));
/// ```
pub fn validate_bytes(category: &str, result: &[u8], score: Option<&[u8]>) -> Vec<FileReport> {
    let mut parser = Parser::default();
    let (mut r, ids) = results_in(FileReport::new(Path::new("result"), "bfcl-result"), result, category, &mut parser);
    r.sort();
    let mut out = vec![r];
    if let Some(score) = score {
        let mut s =
            scores_in(FileReport::new(Path::new("score"), "bfcl-score"), score, category, ids.as_ref(), &mut parser);
        s.sort();
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::validate_bytes;

    /// Python's json writes integers of any size (BFCL's executable categories compute some,
    /// 1000! among them): such a line is valid JSON and counts as the failure it records.
    #[test]
    fn integers_past_u64_and_f64_are_valid_json() {
        let result = b"{\"id\": \"exec_0\"}\n{\"id\": \"exec_1\"}\n";
        let score = format!(
            "{{\"accuracy\": 0.0, \"correct_count\": 0, \"total_count\": 2}}\n\
             {{\"id\": \"exec_0\", \"valid\": false, \"error\": [\"wrong\"], \"error_type\": \"executable_checker:wrong_result\", \"model_result_decoded\": [923.7976, {}, \"4{}\"]}}\n\
             {{\"id\": \"exec_1\", \"valid\": false, \"error\": [\"wrong\"], \"error_type\": \"executable_checker:wrong_result\", \"model_result_raw\": 40238726007709377354370243}}\n",
            "4".repeat(2568),
            "2".repeat(400)
        );
        let score = score.as_bytes();
        let reports = validate_bytes("exec", result, Some(score));
        for r in &reports {
            let problems: Vec<_> = r.findings.iter().filter(|f| f.severity != evaltally_core::Severity::Info).collect();
            assert!(r.is_valid() && problems.is_empty(), "{problems:?}");
        }
    }

    /// The tape's check finds a repeated key where the byte walk that locates it does, so a
    /// line it passes needs no walk: nested, in arrays, past the short objects' linear
    /// check, spelled with an escape, and not across objects.
    #[test]
    fn the_tapes_repeat_check_agrees_with_the_walk() {
        let many = (0..12).fold(String::new(), |mut text, k| {
            let _ = std::fmt::Write::write_fmt(&mut text, format_args!("\"k{k}\": {k}, "));
            text
        });
        let lines = [
            r#"{"id": "a", "result": [{"x": 1}, {"x": 2}]}"#.to_string(),
            r#"{"id": "a", "id": "b"}"#.to_string(),
            r#"{"id": "a", "r": {"q": [1, {"u": 1, "v": {"w": 2}, "u": 3}]}}"#.to_string(),
            r#"{"a": 1, "\u0061": 2}"#.to_string(),
            r#"{"a": {"b": 1}, "c": {"b": 2}, "d": [{"a": 1}]}"#.to_string(),
            format!("{{{many}\"z\": 0}}"),
            format!("{{{many}\"k7\": 0}}"),
            format!("{{\"n\": [[{{{many}\"k11\": []}}]], \"m\": 1}}"),
            r#"[{"a": 1}, {"a": 1, "a": 2}]"#.to_string(),
            "{}".to_string(),
        ];
        for line in &lines {
            let mut copy = line.clone().into_bytes();
            let tape = simd_json::to_tape(&mut copy).unwrap();
            let walk = !evaltally_format::json::repeated_keys(line.as_bytes()).is_empty();
            assert_eq!(super::repeats_a_key(&tape.0), walk, "{line}");
        }
        // and on every line of the BFCL fixtures, the damaged ones too, that simd-json parses
        let mut checked = 0;
        for path in
            ["bfcl", "malformed/bfcl"].map(|d| evaltally_testkit::json_files(&evaltally_testkit::testdata(d))).concat()
        {
            for line in evaltally_format::bytes::lines(&std::fs::read(&path).unwrap()) {
                let mut copy = line.to_vec();
                let Ok(tape) = simd_json::to_tape(&mut copy) else { continue };
                let walk = !evaltally_format::json::repeated_keys(line).is_empty();
                assert_eq!(
                    super::repeats_a_key(&tape.0),
                    walk,
                    "{}: {}",
                    path.display(),
                    String::from_utf8_lossy(line)
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} fixture lines");
    }
}
