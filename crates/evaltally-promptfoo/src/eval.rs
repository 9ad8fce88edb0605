//! The document read once for every view: each result that can be read with its test id,
//! model, repeat and verdict, and what was wrong, located by JSON path (and line).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use evaltally_core::{Diagnostic, Finding, Outcome, RunMeta};
use serde_json::{Map, Value};

use crate::{DEFAULT_CATEGORY, ERRORED_LABEL, FAIL_LABEL};

/// The `results.version`s read (2 has the same result entries as 3).
const VERSIONS: [u64; 2] = [2, 3];

/// A prompt label longer than this (in characters), or spanning lines, gives way to the
/// prompt's id in test ids.
const MAX_PROMPT_LABEL: usize = 80;

/// The run of the `repeat`-th occurrence of each test in a file: `<stem>#repeat-<k>`.
pub(crate) fn run_name(stem: &str, repeat: usize) -> String {
    format!("{stem}#repeat-{repeat}")
}

/// What one result says: pass, or fail with an error label and message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Verdict {
    pub(crate) outcome: Outcome,
    pub(crate) error_type: Option<String>,
    pub(crate) message: Option<String>,
    /// The result errored (`failureReason` 2) rather than failed an assertion.
    pub(crate) errored: bool,
}

impl Verdict {
    fn pass() -> Self {
        Self { outcome: Outcome::Pass, error_type: None, message: None, errored: false }
    }
}

/// A result that errored (`failureReason` 2: the provider or an assertion threw): the one
/// place that decides how it counts. The error text is kept as the message.
fn errored(error: Option<String>) -> Verdict {
    Verdict { outcome: Outcome::Errored, error_type: Some(ERRORED_LABEL.to_string()), message: error, errored: true }
}

/// A result whose assertions failed: labelled with the first failing assertion's type, and
/// that assertion's reason as message (promptfoo's own `gradingResult.reason` is the last
/// failing one's), else the grading reason, else the error.
fn failed(entry: &Map<String, Value>) -> Verdict {
    let grading = entry.get("gradingResult").and_then(Value::as_object);
    let first_failing = grading.and_then(|g| g.get("componentResults")).and_then(Value::as_array).and_then(|parts| {
        parts.iter().filter(|c| c.get("pass").and_then(Value::as_bool) == Some(false)).find_map(|c| {
            let kind = text(c.get("assertion").and_then(|a| a.get("type")))?;
            Some((kind, text(c.get("reason"))))
        })
    });
    let label = first_failing.map_or(FAIL_LABEL, |(kind, _)| kind);
    let message = first_failing
        .and_then(|(_, reason)| reason)
        .or_else(|| grading.and_then(|g| text(g.get("reason"))))
        .map(str::to_string)
        .or_else(|| error_text(entry));
    Verdict { outcome: Outcome::Fail, error_type: Some(label.to_string()), message, errored: false }
}

/// The error a result reports: `error`, else the response's, else the grading reason.
fn error_text(entry: &Map<String, Value>) -> Option<String> {
    match entry.get("error") {
        Some(Value::String(s)) if !s.is_empty() => return Some(s.clone()),
        Some(v @ (Value::Object(_) | Value::Array(_))) => return Some(v.to_string()),
        _ => {}
    }
    text(entry.get("response").and_then(|r| r.get("error")))
        .or_else(|| text(entry.get("gradingResult").and_then(|g| g.get("reason"))))
        .map(str::to_string)
}

/// Whether a failed result written before `failureReason` (promptfoo < 0.102) is a provider
/// error: `response.error` set and nothing graded (`Evaluator.runEval` returns
/// `{response: {error}, success: false, error}` without `gradingResult` when the provider
/// fails), which `failureReason` 2 says from 0.102 on.
fn provider_error(entry: &Map<String, Value>) -> bool {
    let graded = entry.get("gradingResult").is_some_and(|g| !g.is_null());
    !graded && text(entry.get("response").and_then(|r| r.get("error"))).is_some()
}

/// A non-empty string.
pub(crate) fn text(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// A value as a message quotes it: compact JSON, cut at 60 characters; `nothing` when
/// absent.
fn found(v: Option<&Value>) -> String {
    let Some(v) = v else { return "nothing".to_string() };
    let s = v.to_string();
    if s.chars().count() <= 60 { s } else { format!("{}…", s.chars().take(60).collect::<String>()) }
}

/// The key of a test case by its variables: `vars:` and 16 hex digits of the 64-bit FNV-1a
/// hash of the variables as compact JSON with keys sorted (for strings and integers, what
/// Python's `json.dumps(vars, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
/// writes). The same variables give the same key in every file, whatever their key order.
///
/// ```
/// use serde_json::json;
/// use evaltally_promptfoo::vars_key;
/// let key = vars_key(&json!({"city": "Paris", "n": 2}));
/// assert_eq!(key, vars_key(&json!({"n": 2, "city": "Paris"})));
/// assert_eq!(key.len(), "vars:".len() + 16);
/// assert_ne!(key, vars_key(&json!({"city": "Lyon", "n": 2})));
/// ```
pub fn vars_key(vars: &Value) -> String {
    let mut text = String::new();
    canonical(vars, &mut text);
    format!("vars:{:016x}", fnv1a(text.as_bytes()))
}

/// Compact JSON with object keys sorted (`serde_json`'s escaping and numbers).
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut members: Vec<(&String, &Value)> = m.iter().collect();
            members.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, x)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(x, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The prompt part of a test id: the label when short and on one line, else the id.
/// promptfoo before 0.59 wrote no label: its `display` names the prompt (`[<provider id>] `
/// before it with `includeProviderId`, which is left out).
fn prompt_name(entry: &Map<String, Value>) -> Option<String> {
    let prompt = entry.get("prompt");
    let display = || {
        let shown = text(prompt.and_then(|p| p.get("display")))?;
        let provider = entry.get("provider").and_then(|p| p.as_str().or_else(|| text(p.get("id"))));
        let bare = provider.and_then(|id| shown.strip_prefix('[')?.strip_prefix(id)?.strip_prefix("] "));
        Some(bare.unwrap_or(shown))
    };
    let label = text(prompt.and_then(|p| p.get("label"))).or_else(display);
    let id = text(entry.get("promptId"));
    let short = |l: &str| l.chars().count() <= MAX_PROMPT_LABEL && !l.contains(['\n', '\r']);
    match (label, id) {
        (Some(l), _) if short(l) => Some(l.to_string()),
        (_, Some(id)) if id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some(format!("prompt:{}", &id[..16]))
        }
        (_, Some(id)) => Some(id.to_string()),
        (Some(l), None) => Some(l.to_string()),
        (None, None) => None,
    }
}

/// The model: the provider's label, else its id (a provider may be written as its id).
fn model(provider: Option<&Value>) -> Option<String> {
    match provider? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Object(m) => text(m.get("label")).or_else(|| text(m.get("id"))).map(str::to_string),
        _ => None,
    }
}

/// A problem, located by its JSON path below the document (`results.results[3]`) and the
/// line its result starts on.
#[derive(Debug)]
pub(crate) struct Note {
    error: bool,
    /// A fact of the file's shape its writer always gives, not a problem (said with
    /// `--verbose`).
    fact: bool,
    at: String,
    /// The result it is about, whose line is looked up when there are notes.
    entry: Option<usize>,
    line: Option<u64>,
    what: String,
}

impl Note {
    fn warning(at: impl Into<String>, what: impl Into<String>) -> Self {
        Self { error: false, fact: false, at: at.into(), entry: None, line: None, what: what.into() }
    }

    /// A result left out.
    fn left_out(i: usize, what: &str) -> Self {
        Self {
            error: true,
            fact: false,
            at: entry_path(i),
            entry: Some(i),
            line: None,
            what: format!("{what}; left out"),
        }
    }

    /// A line of a JSON Lines output that is not JSON, left out.
    fn bad_line(line: u64, what: String) -> Self {
        Self { error: true, fact: false, at: String::new(), entry: None, line: Some(line), what }
    }

    /// A fact of the file's shape its writer always gives (said with `--verbose`).
    fn fact(what: String) -> Self {
        Self { error: false, fact: true, at: String::new(), entry: None, line: None, what }
    }

    /// A result read with a default.
    fn tolerated(i: usize, what: impl Into<String>) -> Self {
        Self { error: false, fact: false, at: entry_path(i), entry: Some(i), line: None, what: what.into() }
    }

    /// As a diagnostic: `path:line: error: results.results[3]: …` (a JSON Lines result,
    /// which has no JSON path, by its line alone).
    pub(crate) fn diagnostic(&self, path: &Path) -> Diagnostic {
        let message = if self.at.is_empty() { self.what.clone() } else { format!("{}: {}", self.at, self.what) };
        let d = match (self.error, self.fact) {
            (true, _) => Diagnostic::error(path, message),
            (false, true) => Diagnostic::info(path, message),
            (false, false) => Diagnostic::warning(path, message),
        };
        match self.line {
            Some(l) => d.at_line(l),
            None => d,
        }
    }

    /// As a validation finding at `$.results.results[3]` (a JSON Lines result at its line).
    pub(crate) fn finding(&self) -> Finding {
        let at = if self.at.is_empty() { Finding::location(self.line, None, "file") } else { format!("$.{}", self.at) };
        match (self.error, self.fact) {
            (true, _) => Finding::error(at, &self.what),
            (false, true) => Finding::info(at, &self.what),
            (false, false) => Finding::warning(at, &self.what),
        }
    }
}

fn entry_path(i: usize) -> String {
    format!("results.results[{i}]")
}

/// One result read.
#[derive(Debug)]
pub(crate) struct TestResult {
    /// Its place in `results.results`.
    pub(crate) index: usize,
    pub(crate) id: String,
    pub(crate) model: String,
    /// Which occurrence of (test id, model) it is, from 1.
    pub(crate) repeat: usize,
    pub(crate) verdict: Verdict,
    pub(crate) latency_ms: Option<f64>,
    pub(crate) cost_usd: Option<f64>,
    pub(crate) input_tokens: Option<u64>,
    pub(crate) output_tokens: Option<u64>,
    /// The entry as written, for `show`.
    pub(crate) entry: Map<String, Value>,
}

/// The document: its category, what the run says about itself, and its results in file
/// order.
#[derive(Debug)]
pub(crate) struct Eval {
    pub(crate) category: String,
    pub(crate) meta: RunMeta,
    pub(crate) results: Vec<TestResult>,
    /// The line each result starts on, by [`TestResult::index`], where reading found them
    /// (JSON Lines); empty for a JSON document, whose [`entry_lines`] are scanned when
    /// asked for.
    pub(crate) lines: Vec<u64>,
}

/// One result before its id is settled.
pub(crate) struct Parsed {
    index: usize,
    description: Option<String>,
    vars: String,
    prompt: Option<String>,
    model: String,
    test_idx: Option<u64>,
    prompt_idx: Option<u64>,
    success: bool,
    failure_reason: Option<u64>,
    verdict: Verdict,
    latency_ms: Option<f64>,
    cost_usd: Option<f64>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    entry: Map<String, Value>,
}

/// A whole number where one is expected (`testIdx`, `failureReason`): `None` when absent,
/// a warning when it is something else.
fn index(entry: &Map<String, Value>, key: &str, i: usize, notes: &mut Vec<Note>) -> Option<u64> {
    match entry.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => {
            let n = v.as_u64();
            if n.is_none() {
                notes.push(Note::tolerated(i, format!("`{key}` is {}, not a whole number; ignored", found(Some(v)))));
            }
            n
        }
    }
}

/// A number where one is expected (`latencyMs`, `cost`): `None` when absent, a warning when
/// it is something else.
fn number(v: Option<&Value>, what: &str, i: usize, notes: &mut Vec<Note>) -> Option<f64> {
    match v {
        None | Some(Value::Null) => None,
        Some(v) => {
            let n = v.as_f64();
            if n.is_none() {
                notes.push(Note::tolerated(i, format!("`{what}` is {}, not a number; ignored", found(Some(v)))));
            }
            n
        }
    }
}

/// Reads result `i`, or says why it cannot be read.
pub(crate) fn parse_entry(i: usize, raw: Value, notes: &mut Vec<Note>) -> Option<Parsed> {
    let Value::Object(entry) = raw else {
        notes.push(Note::left_out(i, &format!("expected a result object, found {}", found(Some(&raw)))));
        return None;
    };
    let Some(success) = entry.get("success").and_then(Value::as_bool) else {
        let what = format!("expected `success`, true or false, found {}", found(entry.get("success")));
        notes.push(Note::left_out(i, &what));
        return None;
    };
    let failure_reason = match index(&entry, "failureReason", i, notes) {
        Some(r) if r > 2 => {
            notes.push(Note::tolerated(i, format!("`failureReason` {r} is not 0, 1 or 2; ignored")));
            None
        }
        r => r,
    };
    let verdict = if success {
        if let Some(r @ (1 | 2)) = failure_reason {
            notes.push(Note::tolerated(i, format!("`success` is true but `failureReason` is {r}; read as passed")));
        }
        Verdict::pass()
    } else if failure_reason == Some(2) || failure_reason.is_none() && provider_error(&entry) {
        errored(error_text(&entry))
    } else {
        failed(&entry)
    };
    let model = model(entry.get("provider")).unwrap_or_else(|| {
        let what = match entry.get("provider") {
            None | Some(Value::Null) => "no `provider`; read as model `unknown`".to_string(),
            Some(p) => format!("`provider` {} has no label or id; read as model `unknown`", found(Some(p))),
        };
        notes.push(Note::tolerated(i, what));
        "unknown".to_string()
    });
    let prompt = prompt_name(&entry);
    if prompt.is_none() {
        notes.push(Note::tolerated(i, "no prompt label or `promptId`; the test is named by its test case alone"));
    }
    let case = entry.get("testCase").and_then(Value::as_object);
    let description = text(case.and_then(|c| c.get("description"))).map(str::to_string);
    let vars = case
        .and_then(|c| c.get("vars"))
        .filter(|v| v.is_object())
        .or_else(|| entry.get("vars").filter(|v| v.is_object()));
    let vars = vars.map_or_else(|| vars_key(&Value::Object(Map::new())), vars_key);
    let test_idx = index(&entry, "testIdx", i, notes);
    let prompt_idx = index(&entry, "promptIdx", i, notes);
    let latency_ms = number(entry.get("latencyMs"), "latencyMs", i, notes);
    let response = entry.get("response");
    let cost_usd = match entry.get("cost") {
        None | Some(Value::Null) => number(response.and_then(|r| r.get("cost")), "response.cost", i, notes),
        v => number(v, "cost", i, notes),
    };
    let usage = response.and_then(|r| r.get("tokenUsage")).or_else(|| entry.get("tokenUsage"));
    let tokens = |key: &str| usage.and_then(|u| u.get(key)).and_then(Value::as_u64);
    let (input_tokens, output_tokens) = (tokens("prompt"), tokens("completion"));
    Some(Parsed {
        index: i,
        description,
        vars,
        prompt,
        model,
        test_idx,
        prompt_idx,
        success,
        failure_reason,
        verdict,
        latency_ms,
        cost_usd,
        input_tokens,
        output_tokens,
        entry,
    })
}

/// The start line of every element of `results.results` (the last `results` of each object,
/// as parsers keep it); empty when the document cannot be scanned.
pub(crate) fn entry_lines(bytes: &[u8]) -> Vec<u64> {
    use evaltally_format::scan::{array_at, object_at, object_members, value_end};
    let text = evaltally_format::json::without_bom(bytes);
    let Ok(members) = object_members(text) else { return Vec::new() };
    let Some(outer) = members.iter().rev().find(|m| &text[m.key.clone()] == b"results") else { return Vec::new() };
    let mut inner = None;
    if object_at(text, outer.value.start, |k, v| {
        if &text[k] == b"results" {
            inner = Some(v);
        }
    })
    .is_err()
    {
        return Vec::new();
    }
    let Some(inner) = inner else { return Vec::new() };
    let mut starts = Vec::new();
    let _ = array_at(text, inner.start, |at| {
        starts.push(at);
        value_end(text, at)
    });
    starts.into_iter().map(|at| evaltally_format::json::line_column(text, at).0).collect()
}

/// The counts `results.stats` declares, when it declares all three.
fn declared_stats(results: &Map<String, Value>) -> Option<[u64; 3]> {
    let stats = results.get("stats")?;
    let count = |k: &str| stats.get(k).and_then(Value::as_u64);
    Some([count("successes")?, count("failures")?, count("errors")?])
}

/// What the document says besides its results: the category, the run's metadata, and the
/// counts `results.stats` declares.
pub(crate) struct Head {
    pub(crate) category: String,
    pub(crate) meta: RunMeta,
    pub(crate) declared: Option<[u64; 3]>,
}

impl Head {
    /// The head from `config.description`, `metadata.promptfooVersion` and the `results`
    /// object (its `timestamp`, `version` and `stats`); a warning when the version is not
    /// one evaltally reads.
    pub(crate) fn new(
        config: Option<&Value>,
        metadata: Option<&Value>,
        results: &Map<String, Value>,
        notes: &mut Vec<Note>,
    ) -> Self {
        let category = text(config.and_then(|c| c.get("description"))).unwrap_or(DEFAULT_CATEGORY).to_string();
        let promptfoo_version = text(metadata.and_then(|m| m.get("promptfooVersion"))).map(str::to_string);
        let meta = RunMeta {
            timestamp: text(results.get("timestamp")).map(str::to_string),
            version: promptfoo_version,
            ..RunMeta::default()
        };
        match results.get("version") {
            Some(v) if v.as_u64().is_some_and(|n| VERSIONS.contains(&n)) => {}
            v => notes.push(Note::warning(
                "results.version",
                format!("version {}: evaltally reads versions 2 and 3; read as version 3", found(v)),
            )),
        }
        Self { category, meta, declared: declared_stats(results) }
    }
}

/// Whether a file is promptfoo's JSON Lines output (`-o out.jsonl`): one result per line.
pub(crate) fn is_jsonl(path: &Path) -> bool {
    evaltally_format::has_extension(path, "jsonl")
}

/// What a file's runs are named after: its name without `.json` or `.jsonl`.
pub(crate) fn stem(path: &Path) -> String {
    match path.file_stem() {
        Some(stem) if is_jsonl(path) => stem.to_string_lossy().into_owned(),
        _ => evaltally_format::json::stem(path),
    }
}

/// Each value of a JSON Lines output with the line it starts on. promptfoo 0.99 to 0.114
/// could join two results on one line (`}{`): both are read. A line that is not JSON is an
/// error note, and the lines after it are still read.
fn jsonl_values(bytes: &[u8], notes: &mut Vec<Note>) -> Vec<(Value, u64)> {
    let text = evaltally_format::json::without_bom(bytes);
    let mut out = Vec::new();
    for (n, line) in evaltally_format::bytes::lines(text).enumerate() {
        let line_no = n as u64 + 1;
        if line.trim_ascii().is_empty() {
            continue;
        }
        for value in serde_json::Deserializer::from_slice(line).into_iter::<Value>() {
            match value {
                Ok(v) => out.push((v, line_no)),
                Err(e) => {
                    let column = evaltally_format::json::column(&e);
                    let what =
                        format!("not JSON at column {column}: {}; left out", evaltally_format::json::message(&e));
                    notes.push(Note::bad_line(line_no, what));
                    break;
                }
            }
        }
    }
    out
}

/// The results of a JSON Lines output, each once: promptfoo 0.99 to 0.120.8 streamed each
/// result as it completed and appended them all again at the end, so each `id` is there
/// twice; the last copy (the appended one, which has `failureReason` where the streamed
/// one of 0.99 and 0.100 has none) is kept, with one note.
fn once_each(values: Vec<(Value, u64)>, notes: &mut Vec<Note>) -> Vec<(Value, u64)> {
    let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_string);
    let mut last: HashMap<String, usize> = HashMap::new();
    for (at, (v, _)) in values.iter().enumerate() {
        if let Some(id) = id(v) {
            last.insert(id, at);
        }
    }
    let twice = values.iter().filter_map(|(v, _)| id(v)).count() - last.len();
    if twice == 0 {
        return values;
    }
    let what = format!(
        "{twice} results are written twice under one `id` (promptfoo 0.99 to 0.120.8 streamed each result, then \
         appended them all again): each is read once, from its last copy"
    );
    notes.push(Note::fact(what));
    values
        .into_iter()
        .enumerate()
        .filter(|(at, (v, _))| id(v).is_none_or(|id| last.get(&id) == Some(at)))
        .map(|(_, v)| v)
        .collect()
}

/// Reads a JSON Lines output (`-o out.jsonl`, promptfoo 0.99 and later): a result per line,
/// as in `results.results` of the JSON output, with no config (the category is
/// [`DEFAULT_CATEGORY`]), timestamp or stats. An error when no line holds a result.
fn parse_lines(path: &Path, bytes: &[u8]) -> Result<(Eval, Vec<Note>), Diagnostic> {
    let mut notes = Vec::new();
    let values = once_each(jsonl_values(bytes, &mut notes), &mut notes);
    if values.is_empty() {
        let why = notes.first().map_or_else(|| "no line holds a result".to_string(), |n| n.what.clone());
        return Err(Diagnostic::error(path, format!("expected promptfoo results, one per line: {why}")));
    }
    let (values, lines): (Vec<Value>, Vec<u64>) = values.into_iter().unzip();
    let parsed: Vec<Parsed> =
        values.into_iter().enumerate().filter_map(|(i, raw)| parse_entry(i, raw, &mut notes)).collect();
    let head = Head { category: DEFAULT_CATEGORY.to_string(), meta: RunMeta::default(), declared: None };
    let mut eval = settle(head, parsed, &mut notes);
    for n in &mut notes {
        if let Some(i) = n.entry {
            n.line = lines.get(i).copied();
            n.at.clear();
        }
    }
    eval.lines = lines;
    notes.sort_by_key(|n| (n.line.unwrap_or(0), !n.error));
    Ok((eval, notes))
}

/// Reads the document: every result that can be read, and notes on the rest. An error when
/// the bytes are not JSON or not promptfoo's output shape. A `.jsonl` file is read as JSON
/// Lines, a result per line.
pub(crate) fn parse(
    path: &Path,
    bytes: &[u8],
    diagnostics: Option<&mut Vec<Diagnostic>>,
) -> Result<(Eval, Vec<Note>), Diagnostic> {
    if is_jsonl(path) {
        return parse_lines(path, bytes);
    }
    let doc = match diagnostics {
        Some(d) => evaltally_format::json::parse_noting(path, bytes, d)?,
        None => evaltally_format::json::parse(path, bytes)?,
    };
    let Value::Object(mut doc) = doc else {
        return Err(Diagnostic::error(
            path,
            format!("expected promptfoo's output, an object with `results`, found {}", found(Some(&doc))),
        ));
    };
    let mut results = match doc.remove("results") {
        Some(Value::Object(results)) => results,
        other => {
            return Err(Diagnostic::error(
                path,
                format!("results: expected an object with `version` and `results`, found {}", found(other.as_ref())),
            ));
        }
    };
    let mut notes = Vec::new();
    let head = Head::new(doc.get("config"), doc.get("metadata"), &results, &mut notes);
    let entries = match results.remove("results") {
        Some(Value::Array(entries)) => entries,
        other => {
            return Err(Diagnostic::error(
                path,
                format!("results.results: expected a list of results, found {}", found(other.as_ref())),
            ));
        }
    };
    let mut parsed: Vec<Parsed> =
        entries.into_iter().enumerate().filter_map(|(i, raw)| parse_entry(i, raw, &mut notes)).collect();
    if parsed.iter().any(|p| p.description.is_none()) {
        describe(&mut parsed, &table_descriptions(results.get("table")));
    }
    let eval = settle(head, parsed, &mut notes);
    // The version first, then each result's notes in file order, then the stats.
    notes.sort_by_key(|n| match n.entry {
        Some(i) => (1, i),
        None if n.at == "results.stats" => (2, 0),
        None => (0, 0),
    });
    if notes.iter().any(|n| n.entry.is_some()) {
        let lines = entry_lines(bytes);
        for n in &mut notes {
            n.line = n.entry.and_then(|i| lines.get(i).copied());
        }
    }
    Ok((eval, notes))
}

impl Parsed {
    /// Whether the result names its test case by a description.
    pub(crate) fn described(&self) -> bool {
        self.description.is_some()
    }
}

/// The description of each test case the output's table lists (`table.body[].test`, its
/// `description` else the row's, by its `vars` as [`vars_key`] keys them; promptfoo's
/// `EvaluateTableRow`): what names the tests of output that keeps no `testCase` on its
/// results (promptfoo 0.69 – 0.91, `results.version` 2). A key two rows give different
/// descriptions has none.
fn table_descriptions(table: Option<&Value>) -> HashMap<String, Option<String>> {
    let mut out: HashMap<String, Option<String>> = HashMap::new();
    let rows = table.and_then(|t| t.get("body")).and_then(Value::as_array);
    for row in rows.into_iter().flatten() {
        let test = row.get("test");
        let vars = test.and_then(|t| t.get("vars")).filter(|v| v.is_object());
        let description = text(test.and_then(|t| t.get("description"))).or_else(|| text(row.get("description")));
        let (Some(vars), Some(description)) = (vars, description) else { continue };
        let slot = out.entry(vars_key(vars)).or_insert_with(|| Some(description.to_string()));
        if slot.as_deref() != Some(description) {
            *slot = None;
        }
    }
    out
}

/// Names the results without a test case description by the table's ([`table_descriptions`]).
fn describe(parsed: &mut [Parsed], described: &HashMap<String, Option<String>>) {
    for p in parsed.iter_mut().filter(|p| p.description.is_none()) {
        p.description = described.get(&p.vars).cloned().flatten();
    }
}

/// The results read, with their ids and repeats settled: what every reader of the document
/// shares once its results are parsed. Adds a note per result listed twice and one when
/// the counts `results.stats` declares are not those read.
pub(crate) fn settle(head: Head, mut parsed: Vec<Parsed>, notes: &mut Vec<Note>) -> Eval {
    let Head { category, meta, declared } = head;
    providers_apart(&mut parsed, notes);
    // One description over test cases with different variables (variables that expand into
    // several): tell them apart by their variables.
    let mut vars_of: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for p in &parsed {
        if let Some(d) = &p.description {
            vars_of.entry(d.as_str()).or_default().insert(p.vars.as_str());
        }
    }
    let ids: Vec<String> = parsed
        .iter()
        .map(|p| {
            let case = match &p.description {
                Some(d) if vars_of.get(d.as_str()).is_some_and(|v| v.len() > 1) => format!("{d} ({})", p.vars),
                Some(d) => d.clone(),
                None => p.vars.clone(),
            };
            match &p.prompt {
                Some(prompt) => format!("{case} @ {prompt}"),
                None => case,
            }
        })
        .collect();

    // The same testIdx and promptIdx twice is one result listed twice, not a repeat.
    let mut first_at: HashMap<(u64, u64), usize> = HashMap::new();
    let mut kept = Vec::with_capacity(parsed.len());
    for (p, id) in parsed.into_iter().zip(ids) {
        if let (Some(t), Some(pi)) = (p.test_idx, p.prompt_idx) {
            if let Some(&j) = first_at.get(&(t, pi)) {
                let what =
                    format!("`testIdx` {t} and `promptIdx` {pi} again (first at {}); the first is kept", entry_path(j));
                notes.push(Note::tolerated(p.index, what));
                continue;
            }
            first_at.insert((t, pi), p.index);
        }
        kept.push((p, id));
    }

    if let Some(declared) = declared {
        let mut read = [0_u64; 3];
        for (p, _) in &kept {
            let slot = match (p.success, p.failure_reason) {
                (true, _) => 0,
                (false, Some(2)) => 2,
                (false, _) => 1,
            };
            read[slot] += 1;
        }
        if declared != read {
            notes.push(Note::warning(
                "results.stats",
                format!(
                    "says {} successes, {} failures and {} errors; the results read hold {}, {} and {}; the results are counted",
                    declared[0], declared[1], declared[2], read[0], read[1], read[2]
                ),
            ));
        }
    }

    // The k-th occurrence of (test, model), in testIdx order, is repeat k.
    let mut occurrences: HashMap<(&str, &str), Vec<(u64, usize)>> = HashMap::new();
    for (at, (p, id)) in kept.iter().enumerate() {
        occurrences.entry((id.as_str(), p.model.as_str())).or_default().push((p.test_idx.unwrap_or(u64::MAX), at));
    }
    let mut repeat = vec![0; kept.len()];
    for list in occurrences.values_mut() {
        list.sort_unstable();
        for (k, &(_, at)) in list.iter().enumerate() {
            repeat[at] = k + 1;
        }
    }

    let results = kept
        .into_iter()
        .zip(repeat)
        .map(|((p, id), repeat)| TestResult {
            index: p.index,
            id,
            model: p.model,
            repeat,
            verdict: p.verdict,
            latency_ms: p.latency_ms,
            cost_usd: p.cost_usd,
            input_tokens: p.input_tokens,
            output_tokens: p.output_tokens,
            entry: p.entry,
        })
        .collect();

    Eval { category, meta, results, lines: Vec::new() }
}

/// Providers that share a name (one `id` and no `label`: a temperature sweep over one
/// model) are told apart: promptfoo keeps each in its own column (`promptIdx`, one per prompt and
/// provider), so one prompt's results for one model in several columns are several
/// providers' results, not repeats. Each is named `<id> (provider <k>)`, `k` its place
/// among them in column order, with one warning per model.
fn providers_apart(parsed: &mut [Parsed], notes: &mut Vec<Note>) {
    // The columns of each (model, prompt); a result without a prompt label or a column
    // says nothing of its provider.
    let mut columns: BTreeMap<(&str, &str), BTreeSet<u64>> = BTreeMap::new();
    for p in parsed.iter() {
        if let (Some(prompt), Some(column)) = (&p.prompt, p.prompt_idx) {
            columns.entry((p.model.as_str(), prompt.as_str())).or_default().insert(column);
        }
    }
    let shared: BTreeMap<String, usize> =
        columns.iter().filter(|(_, c)| c.len() > 1).fold(BTreeMap::new(), |mut out, ((model, _), c)| {
            let n = out.entry((*model).to_string()).or_insert(0);
            *n = (*n).max(c.len());
            out
        });
    if shared.is_empty() {
        return;
    }
    let renamed: Vec<Option<String>> = parsed
        .iter()
        .map(|p| {
            let (prompt, column) = (p.prompt.as_deref()?, p.prompt_idx?);
            shared.get(&p.model)?;
            let k = columns.get(&(p.model.as_str(), prompt))?.iter().position(|c| *c == column)? + 1;
            Some(format!("{} (provider {k})", p.model))
        })
        .collect();
    for (model, n) in &shared {
        let names: Vec<String> = (1..=*n).map(|k| format!("`{model} (provider {k})`")).collect();
        notes.push(Note::warning(
            "results.results",
            format!(
                "{n} providers share the name `{model}` (their label, else their id): read as {}, in the \
                 order of their columns, not as repeats (give each provider its own `label` to name it)",
                names.join(", ")
            ),
        ));
    }
    for (p, name) in parsed.iter_mut().zip(renamed) {
        if let Some(name) = name {
            p.model = name;
        }
    }
}

/// [`parse`] with its notes as diagnostics, after one warning per key written twice in an
/// object when `note_keys` (`validate` reports those as errors itself).
pub(crate) fn read(path: &Path, bytes: &[u8], note_keys: bool) -> Result<(Eval, Vec<Diagnostic>), Diagnostic> {
    let mut diagnostics = Vec::new();
    let (eval, notes) = parse(path, bytes, note_keys.then_some(&mut diagnostics))?;
    diagnostics.extend(notes.iter().map(|n| n.diagnostic(path)));
    Ok((eval, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(fields: Value) -> Value {
        let mut e = json!({"success": true, "failureReason": 0, "prompt": {"label": "P"}, "provider": {"id": "m", "label": ""}});
        if let (Some(e), Value::Object(f)) = (e.as_object_mut(), fields) {
            e.extend(f);
        }
        e
    }

    /// Before `failureReason` (promptfoo < 0.102), a provider error is a result with a
    /// `response.error` and nothing graded: errored. A graded failure, or any result that
    /// has `failureReason`, is read by it.
    #[test]
    fn a_provider_error_before_failure_reason_is_errored() {
        let outcome = |fields: Value| {
            let mut e = entry(fields);
            e.as_object_mut().unwrap().remove("failureReason");
            let mut notes = Vec::new();
            let p = parse_entry(0, e, &mut notes).unwrap();
            (p.verdict.outcome, p.verdict.error_type)
        };
        let errored = (Outcome::Errored, Some(ERRORED_LABEL.to_string()));
        let error = json!({"success": false, "error": "API error: 529", "response": {"error": "API error: 529"}});
        assert_eq!(outcome(error.clone()), errored);
        let mut graded = error.clone();
        graded["gradingResult"] = json!({"pass": false, "reason": "no"});
        assert_eq!(outcome(graded).0, Outcome::Fail);
        assert_eq!(outcome(json!({"success": false, "error": "Expected eight"})).0, Outcome::Fail);
        let mut later = entry(error);
        later["failureReason"] = json!(1);
        assert_eq!(parse_entry(0, later, &mut Vec::new()).unwrap().verdict.outcome, Outcome::Fail);
    }

    /// promptfoo 0.69 – 0.91 keep no `testCase` on a result: its test case's description is
    /// the table's, found by its variables; the fast path leaves such output to this reader.
    #[test]
    fn results_without_a_test_case_take_the_tables_description() {
        let (france, peru, chad) = (json!({"c": "France"}), json!({"c": "Peru"}), json!({"c": "Chad"}));
        let doc = json!({"results": {"version": 2,
            "results": [entry(json!({"vars": france})), entry(json!({"vars": peru})), entry(json!({"vars": chad}))],
            "table": {"head": {"prompts": [], "vars": ["c"]}, "body": [
                {"description": "capital", "test": {"description": "capital of France", "vars": france}, "vars": ["France"]},
                {"description": "capital of Peru", "test": {"vars": peru}, "vars": ["Peru"]},
                {"test": {"description": "one", "vars": chad}, "vars": ["Chad"]},
                {"test": {"description": "two", "vars": chad}, "vars": ["Chad"]}]}}})
        .to_string();
        let (eval, _) = parse(Path::new("out.json"), doc.as_bytes(), None).unwrap();
        let ids: Vec<&str> = eval.results.iter().map(|r| r.id.as_str()).collect();
        // The test case's own description, else the row's; two rows of one test's variables
        // with different descriptions name none.
        assert_eq!(
            ids,
            [
                "capital of France @ P".to_string(),
                "capital of Peru @ P".to_string(),
                format!("{} @ P", vars_key(&chad))
            ]
        );
        let input = evaltally_format::Input::new(Path::new("out.json"), doc.as_bytes(), false);
        assert!(crate::fast::read(&input).is_none());
    }

    fn doc(entries: &[Value]) -> Vec<u8> {
        json!({"results": {"version": 3, "results": entries}}).to_string().into_bytes()
    }

    fn results(entries: &[Value]) -> (Eval, Vec<Note>) {
        parse(Path::new("out.json"), &doc(entries), None).unwrap()
    }

    #[test]
    fn vars_key_is_fnv1a_of_sorted_compact_json() {
        // What Python computes: s = json.dumps(v, sort_keys=True, separators=(",", ":"),
        // ensure_ascii=False).encode(); h = 0xcbf29ce484222325; for c in s: h = ((h ^ c) *
        // 0x100000001b3) % 2**64.
        let v = json!({"b": "é", "a": [1, {"d": 2, "c": null}]});
        let mut s = String::new();
        canonical(&v, &mut s);
        assert_eq!(s, r#"{"a":[1,{"c":null,"d":2}],"b":"é"}"#);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(vars_key(&v), "vars:36373bc06c781591");
    }

    #[test]
    fn ids_are_description_or_vars_with_the_prompt() {
        let (eval, notes) = results(&[
            entry(json!({"testCase": {"description": "capital", "vars": {"c": "France"}}})),
            entry(json!({"testCase": {"vars": {"c": "Peru"}}, "prompt": {"label": ""}, "promptId": "a".repeat(64)})),
            entry(json!({"vars": {"c": "Chad"}, "prompt": {"label": "x\ny"}, "promptId": "my-prompt"})),
        ]);
        assert!(notes.is_empty(), "{notes:?}");
        let ids: Vec<&str> = eval.results.iter().map(|r| r.id.as_str()).collect();
        let peru = vars_key(&json!({"c": "Peru"}));
        let chad = vars_key(&json!({"c": "Chad"}));
        assert_eq!(
            ids,
            ["capital @ P".to_string(), format!("{peru} @ prompt:aaaaaaaaaaaaaaaa"), format!("{chad} @ my-prompt")]
        );
    }

    #[test]
    fn one_description_over_several_vars_is_told_apart() {
        let (eval, _) = results(&[
            entry(json!({"testIdx": 0, "testCase": {"description": "sum", "vars": {"a": 1}}})),
            entry(json!({"testIdx": 1, "testCase": {"description": "sum", "vars": {"a": 2}}})),
            entry(json!({"testIdx": 2, "testCase": {"description": "sum", "vars": {"a": 1}}})),
        ]);
        let one = vars_key(&json!({"a": 1}));
        let got: Vec<(String, usize)> = eval.results.iter().map(|r| (r.id.clone(), r.repeat)).collect();
        assert_eq!(got[0], (format!("sum ({one}) @ P"), 1));
        assert_eq!(got[2], (format!("sum ({one}) @ P"), 2));
        assert_eq!(got[1].1, 1);
        assert_ne!(got[0].0, got[1].0);
    }

    #[test]
    fn repeats_follow_test_idx_not_file_order_and_models_count_apart() {
        let (eval, _) = results(&[
            entry(json!({"testIdx": 1, "promptIdx": 0, "testCase": {"description": "t"}, "success": false})),
            entry(json!({"testIdx": 0, "promptIdx": 0, "testCase": {"description": "t"}})),
            entry(json!({"testIdx": 0, "promptIdx": 1, "testCase": {"description": "t"}, "provider": "other"})),
        ]);
        let got: Vec<(usize, &str, bool)> =
            eval.results.iter().map(|r| (r.repeat, r.model.as_str(), r.verdict.outcome == Outcome::Pass)).collect();
        assert_eq!(got, [(2, "m", false), (1, "m", true), (1, "other", true)]);
    }

    /// promptfoo before 0.59 names a prompt by its `display` (no `label`), with
    /// `[<provider id>] ` before it under `includeProviderId`: two prompts are two tests, not
    /// two repeats of one.
    #[test]
    fn an_early_prompt_is_named_by_its_display() {
        let early = |display: &str, success: bool| {
            json!({"success": success, "provider": {"id": "openai:gpt-3.5-turbo"}, "vars": {"q": "legs"},
                "prompt": {"raw": "…", "display": display}})
        };
        let (eval, notes) = results(&[
            early("Answer briefly: {{q}}", true),
            early("[openai:gpt-3.5-turbo] You are terse. {{q}}", false),
            early("[other] Be kind. {{q}}", true),
        ]);
        let got: Vec<(&str, usize)> = eval.results.iter().map(|r| (r.id.as_str(), r.repeat)).collect();
        let case = eval.results[0].id.split(" @ ").next().unwrap().to_string();
        assert_eq!(
            got,
            [
                (format!("{case} @ Answer briefly: {{{{q}}}}").as_str(), 1),
                (format!("{case} @ You are terse. {{{{q}}}}").as_str(), 1),
                (format!("{case} @ [other] Be kind. {{{{q}}}}").as_str(), 1),
            ]
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    /// Two providers with one id and no label (a temperature sweep), two prompts: each
    /// prompt's two columns are two providers, named in column order, not two repeats; a
    /// repeat (a second testIdx in one column) stays a repeat.
    #[test]
    fn providers_sharing_a_name_are_told_apart_by_column() {
        let at = |t: u64, column: u64, prompt: &str, success: bool| {
            entry(json!({"testIdx": t, "promptIdx": column, "prompt": {"label": prompt}, "success": success,
                "testCase": {"description": "t"}}))
        };
        // Columns: prompt × provider, promptfoo's order (P0 with providers 1 and 2, then Q).
        let (eval, notes) = results(&[
            at(0, 0, "P", true),
            at(0, 1, "P", false),
            at(0, 2, "Q", true),
            at(0, 3, "Q", true),
            at(1, 0, "P", false),
        ]);
        let got: Vec<(&str, &str, usize, bool)> = eval
            .results
            .iter()
            .map(|r| (r.id.as_str(), r.model.as_str(), r.repeat, r.verdict.outcome == Outcome::Pass))
            .collect();
        assert_eq!(
            got,
            [
                ("t @ P", "m (provider 1)", 1, true),
                ("t @ P", "m (provider 2)", 1, false),
                ("t @ Q", "m (provider 1)", 1, true),
                ("t @ Q", "m (provider 2)", 1, true),
                ("t @ P", "m (provider 1)", 2, false),
            ]
        );
        let said: Vec<&str> = notes.iter().map(|n| n.what.as_str()).collect();
        assert_eq!(
            said,
            [
                "2 providers share the name `m` (their label, else their id): read as `m (provider 1)`, `m (provider 2)`, \
              in the order of their columns, not as repeats (give each provider its own `label` to name it)"
            ]
        );
        // One provider in its own column per prompt: nothing renamed, nothing said.
        let (eval, notes) = results(&[at(0, 0, "P", true), at(0, 1, "Q", true), at(1, 0, "P", false)]);
        assert!(eval.results.iter().all(|r| r.model == "m") && notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn outcomes_from_success_and_failure_reason() {
        let (eval, notes) = results(&[
            entry(json!({"testIdx": 0, "success": false, "failureReason": 1, "error": "e",
                "gradingResult": {"pass": false, "reason": "why", "componentResults": [
                    {"pass": true, "assertion": {"type": "cost"}},
                    {"pass": false, "assertion": null},
                    {"pass": false, "assertion": {"type": "llm-rubric"}, "reason": "apologised"},
                    {"pass": false, "assertion": {"type": "latency"}, "reason": "why"}]}})),
            entry(json!({"testIdx": 1, "success": false, "failureReason": 2, "error": "429 Too Many Requests"})),
            entry(json!({"testIdx": 2, "success": false, "error": "no reason"})),
            entry(json!({"testIdx": 4, "success": false, "gradingResult": {"reason": "below threshold",
                "componentResults": [{"pass": false, "assertion": {"type": "similar"}}]}})),
            entry(json!({"testIdx": 3, "success": true, "failureReason": 2})),
        ]);
        let v: Vec<&Verdict> = eval.results.iter().map(|r| &r.verdict).collect();
        assert_eq!((v[0].error_type.as_deref(), v[0].message.as_deref()), (Some("llm-rubric"), Some("apologised")));
        assert_eq!((v[1].outcome, v[1].error_type.as_deref(), v[1].errored), (Outcome::Errored, Some("error"), true));
        assert_eq!(v[1].message.as_deref(), Some("429 Too Many Requests"));
        assert_eq!(
            (v[2].error_type.as_deref(), v[2].message.as_deref()),
            (Some("assertion_failed"), Some("no reason"))
        );
        assert_eq!((v[3].error_type.as_deref(), v[3].message.as_deref()), (Some("similar"), Some("below threshold")));
        assert_eq!(v[4].outcome, Outcome::Pass);
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].at, "results.results[4]");
    }

    #[test]
    fn damaged_results_are_named_and_defaults_noted() {
        let bytes = br#"{"results": {"version": 4, "stats": {"successes": 9, "failures": 0, "errors": 0},
  "results": [
    {"success": true, "prompt": {"label": "P"}, "provider": "m", "testIdx": 0, "promptIdx": 0},
    7,
    {"success": "yes", "prompt": {"label": "P"}, "provider": "m"},
    {"success": true, "prompt": {"label": "P"}, "testIdx": "one", "latencyMs": "fast"},
    {"success": true, "prompt": {"label": "P"}, "provider": "m", "testIdx": 0, "promptIdx": 0}
  ]}}"#;
        let (eval, notes) = parse(Path::new("out.json"), bytes, None).unwrap();
        assert_eq!(eval.results.len(), 2);
        let said: Vec<String> =
            notes.iter().map(|n| n.diagnostic(Path::new("out.json")).to_string()).collect::<Vec<_>>();
        assert_eq!(
            said,
            [
                "out.json: warning: results.version: version 4: evaltally reads versions 2 and 3; read as version 3",
                "out.json:4: error: results.results[1]: expected a result object, found 7; left out",
                "out.json:5: error: results.results[2]: expected `success`, true or false, found \"yes\"; left out",
                "out.json:6: warning: results.results[3]: no `provider`; read as model `unknown`",
                "out.json:6: warning: results.results[3]: `testIdx` is \"one\", not a whole number; ignored",
                "out.json:6: warning: results.results[3]: `latencyMs` is \"fast\", not a number; ignored",
                "out.json:7: warning: results.results[4]: `testIdx` 0 and `promptIdx` 0 again (first at results.results[0]); the first is kept",
                "out.json: warning: results.stats: says 9 successes, 0 failures and 0 errors; the results read hold 2, 0 and 0; the results are counted",
            ]
        );
    }

    #[test]
    fn not_promptfoo_output_is_one_error() {
        for (doc, says) in [
            (&b"[1]"[..], "expected promptfoo's output"),
            (b"{\"results\": []}", "results: expected an object with `version` and `results`, found []"),
            (b"{\"results\": {\"version\": 3}}", "results.results: expected a list of results, found nothing"),
            (b"{\"results\": {\"results\": 1}}", "results.results: expected a list of results, found 1"),
            (b"{\"results\": ", "not valid JSON"),
        ] {
            let e = parse(Path::new("x.json"), doc, None).unwrap_err();
            assert!(e.message.contains(says), "{e}");
        }
    }

    /// `-o out.jsonl`: a result per line. promptfoo 0.99 to 0.114 joined a batch's last line
    /// and the next batch's first (`}{`) and wrote every result twice (one `id`): each is
    /// read once, from its last copy, with one warning. A line that is not JSON is an error
    /// at its line, and the lines after it are read.
    #[test]
    fn json_lines_are_results_each_read_once() {
        let line = |id: &str, test: u64, success: bool| {
            let reason = u64::from(!success);
            entry(json!({"id": id, "testIdx": test, "promptIdx": 0, "success": success, "failureReason": reason,
                "testCase": {"description": format!("t{test}")}}))
            .to_string()
        };
        let text = format!(
            "{}\n{}\n{{not json\n{}{}\n",
            line("b", 1, false),
            line("a", 0, true),
            line("a", 0, true),
            line("b", 1, false)
        );
        let (eval, notes) = parse(Path::new("out.jsonl"), text.as_bytes(), None).unwrap();
        let got: Vec<(&str, usize, bool)> =
            eval.results.iter().map(|r| (r.id.as_str(), r.repeat, r.verdict.outcome == Outcome::Pass)).collect();
        assert_eq!(got, [("t0 @ P", 1, true), ("t1 @ P", 1, false)]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes.iter().any(|n| n.error && n.line == Some(3) && n.what.starts_with("not JSON at column 2: ")),
            "{notes:?}"
        );
        assert!(notes.iter().any(|n| n.fact && n.what.starts_with("2 results are written twice")), "{notes:?}");
        // Nothing that is a result: an error.
        assert!(parse(Path::new("out.jsonl"), b"{not json\n", None).is_err());
        assert!(parse(Path::new("out.jsonl"), b"\n", None).is_err());
    }
}
