#![doc = include_str!("../README.md")]

mod format;
mod record_log;
mod views;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use evaltally_core::{CategoryRun, Diagnostic, Outcome};
use serde_json::Value;

pub use format::{OPENAI_EVALS, OpenAiEvals};
pub use views::{records, show};

/// The format name.
pub const FORMAT: &str = "openai-evals";

/// The category of lines without an `eval_id`.
pub const DEFAULT_CATEGORY: &str = "openai-evals";

/// The model of runs whose lines name none.
pub const UNKNOWN_MODEL: &str = "unknown";

/// The error label of a sample that errored before any grader judged it.
pub const ERRORED: &str = "sample_error";

/// How the message about a key written twice on a line starts (`validate` makes it an
/// error).
pub(crate) const REPEATED_KEY: &str = "key ";

/// What the graders (or the sampler) said about one item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Every criterion passed.
    Pass,
    /// These criteria failed (in name order).
    Fail(Vec<String>),
    /// The sample errored and no grader judged it: the error's text.
    Errored(String),
    /// Nothing judged it.
    Unscored,
}

/// The outcome and error label of a sample that errored before any grader judged it: the
/// one place that decides how `stability`, `compare`, `show` and `export` count it (its
/// message is kept by [`Verdict::Errored`]).
pub(crate) fn errored() -> (Outcome, Option<String>) {
    (Outcome::Errored, Some(ERRORED.to_string()))
}

impl Verdict {
    /// The outcome and the error label.
    pub(crate) fn outcome(&self) -> (Outcome, Option<String>) {
        match self {
            Verdict::Pass => (Outcome::Pass, None),
            Verdict::Fail(criteria) => (Outcome::Fail, Some(format!("failed:{}", criteria.join("+")))),
            Verdict::Errored(_) => errored(),
            Verdict::Unscored => (Outcome::Unscored, None),
        }
    }
}

/// One line read: an item of a run, with its verdict and the line itself.
#[derive(Debug)]
pub(crate) struct Item {
    pub(crate) line: u64,
    pub(crate) run: String,
    pub(crate) id: String,
    pub(crate) category: String,
    pub(crate) model: Option<String>,
    pub(crate) verdict: Verdict,
    pub(crate) doc: Value,
    /// When the run was made, where the file says (a record log's `spec.created_at`).
    pub(crate) created: Option<String>,
}

/// The text of a sample's error: `<type>: <message>` as the API writes them, the string
/// itself, or the JSON text of anything else; `None` when there is no error (none, or one
/// whose fields are all empty, as the Evals API writes for a sample that did not fail).
pub(crate) fn error_text(error: Option<&Value>) -> Option<String> {
    match error? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Object(o) if o.is_empty() => None,
        e @ Value::Object(o) => {
            let text = |k: &str| o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
            let (kind, message) = (text("type").or_else(|| text("code")), text("message"));
            match (kind, message) {
                (Some(k), Some(m)) => Some(format!("{k}: {m}")),
                (None, Some(m)) => Some(m.to_string()),
                (Some(k), None) => Some(k.to_string()),
                // The API's `{"code": "", "message": ""}` of a sample that did not fail.
                (None, None) if o.values().all(|v| v.is_null() || v.as_str() == Some("")) => None,
                (None, None) => Some(e.to_string()),
            }
        }
        other => Some(other.to_string()),
    }
}

/// The model a line names.
fn model_of(doc: &Value) -> Option<String> {
    let sample = doc.get("sample")?;
    ["model", "sampled_model_name"]
        .iter()
        .find_map(|k| sample.get(*k).and_then(Value::as_str).filter(|m| !m.is_empty()))
        .map(str::to_string)
}

/// The category an item names: its `eval_id`, else [`DEFAULT_CATEGORY`].
fn category_of(doc: &Value) -> String {
    doc.get("eval_id").and_then(Value::as_str).filter(|e| !e.is_empty()).unwrap_or(DEFAULT_CATEGORY).to_string()
}

/// An id as a test id: a string as written, an integer in decimal.
pub(crate) fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// Reads one line's fields, or says why it is left out; tolerated oddities go to
/// `warnings`.
fn item(doc: Value, line: u64, warnings: &mut Vec<String>) -> Result<Item, String> {
    if !doc.is_object() {
        return Err("expected an object with run_id and data_source_idx".to_string());
    }
    let Some(run) = doc.get("run_id").and_then(Value::as_str).filter(|r| !r.is_empty()).map(str::to_string) else {
        return Err("expected `run_id`, a string".to_string());
    };
    if doc.get("datasource_item_id").is_some() || doc.get("object").and_then(Value::as_str) == Some(API_ITEM) {
        return api_item(doc, line, run, warnings);
    }
    let item_id = doc.get("item").and_then(|i| i.get("id")).and_then(id_text);
    let Some(id) = item_id.or_else(|| doc.get("data_source_idx").and_then(Value::as_u64).map(|n| n.to_string())) else {
        return Err(format!("run {run}: expected `data_source_idx`, a whole number (or an `id` in `item`)"));
    };
    let mut failed = Vec::new();
    let mut judged = 0;
    match doc.get("passes") {
        None | Some(Value::Null) => {}
        Some(Value::Object(passes)) => {
            for (criterion, passed) in passes {
                judged += 1;
                match passed {
                    Value::Bool(true) => {}
                    Value::Bool(false) => failed.push(criterion.clone()),
                    other => {
                        warnings.push(format!(
                            "run {run}, item {id}: criterion `{criterion}`: expected true or false, found {other}; read as failed"
                        ));
                        failed.push(criterion.clone());
                    }
                }
            }
        }
        Some(other) => {
            return Err(format!(
                "run {run}, item {id}: expected `passes`, an object of criterion: true|false, found {other}"
            ));
        }
    }
    let error = error_text(doc.get("sample").and_then(|s| s.get("error")));
    let verdict = match (judged, error) {
        (0, Some(e)) => Verdict::Errored(e),
        (0, None) => Verdict::Unscored,
        _ if failed.is_empty() => Verdict::Pass,
        _ => Verdict::Fail(failed),
    };
    let category = category_of(&doc);
    let model = model_of(&doc);
    Ok(Item { line, run, id, category, model, verdict, doc, created: None })
}

/// The `object` of an output item as the Evals API returns it.
const API_ITEM: &str = "eval.run.output_item";

/// A grader's name without the `-<uuid>` the dashboard appends to the names it generates
/// (`Label matches-3c0e5a1b-9f1e-4c55-8f55-0d6b6d8b2c11`).
///
/// ```
/// # // A private function, checked through what `read_bytes` names the failed criteria.
/// let line = br#"{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 0, "status": "fail", "results": [{"name": "Label matches-3c0e5a1b-9f1e-4c55-8f55-0d6b6d8b2c11", "passed": false, "score": 0.0}], "sample": {"model": "m"}}"#;
/// let read = evaltally_openai_evals::read_bytes(std::path::Path::new("items.jsonl"), line);
/// let failed = read.runs[0].tests().next().unwrap().error_type.unwrap().as_str().to_string();
/// assert_eq!(failed, "failed:Label matches");
/// ```
fn grader_name(name: &str) -> &str {
    let uuid = |s: &str| {
        s.len() == 36
            && s.bytes()
                .enumerate()
                .all(|(i, b)| if [8, 13, 18, 23].contains(&i) { b == b'-' } else { b.is_ascii_hexdigit() })
    };
    match name.len().checked_sub(37).and_then(|at| name.split_at_checked(at)) {
        Some((base, rest)) if !base.is_empty() && rest.starts_with('-') && uuid(&rest[1..]) => base,
        _ => name,
    }
}

/// An output item as the Evals API returns it (`GET /v1/evals/{eval_id}/runs/{run_id}/output_items`,
/// saved a line each): the test is its `datasource_item_id`, the verdict its graders'
/// `results[].passed` (else its `status`, `pass` or `fail`), errored when its sample has an
/// error and no grader judged it.
fn api_item(doc: Value, line: u64, run: String, warnings: &mut Vec<String>) -> Result<Item, String> {
    let Some(id) = doc.get("datasource_item_id").and_then(id_text) else {
        return Err(format!("run {run}: expected `datasource_item_id`, a whole number"));
    };
    let mut failed: Vec<String> = Vec::new();
    let results = match doc.get("results") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(results)) => results.as_slice(),
        Some(other) => {
            return Err(format!("run {run}, item {id}: expected `results`, a list of grader results, found {other}"));
        }
    };
    for (k, result) in results.iter().enumerate() {
        let name = result
            .get("name")
            .and_then(Value::as_str)
            .map_or_else(|| format!("grader {}", k + 1), |n| grader_name(n).to_string());
        match result.get("passed") {
            Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => failed.push(name),
            other => {
                let found = other.map_or_else(|| "nothing".to_string(), Value::to_string);
                warnings.push(format!("run {run}, item {id}: grader `{name}`: expected `passed`, true or false, found {found}; read as failed"));
                failed.push(name);
            }
        }
    }
    failed.sort();
    failed.dedup();
    let error = error_text(doc.get("sample").and_then(|s| s.get("error")));
    let status = doc.get("status").and_then(Value::as_str);
    let verdict = match (results.len(), error, status) {
        (0, Some(e), _) => Verdict::Errored(e),
        (0, None, Some("pass")) => Verdict::Pass,
        (0, None, Some("fail")) => Verdict::Fail(vec!["status".to_string()]),
        (0, None, Some(s @ ("error" | "errored"))) => Verdict::Errored(format!("status {s}")),
        (0, None, _) => Verdict::Unscored,
        _ if failed.is_empty() => Verdict::Pass,
        _ => Verdict::Fail(failed),
    };
    let category = category_of(&doc);
    let model = model_of(&doc);
    let created = doc.get("created_at").and_then(Value::as_i64).map(evaltally_core::date::iso_from_unix);
    Ok(Item { line, run, id, category, model, verdict, doc, created })
}

/// The Evals API's list page as it is returned (`{object: "list", data: [item…], first_id,
/// last_id, has_more}`, saved as `.json`), when the bytes are one.
fn list_page(bytes: &[u8]) -> Option<serde_json::Map<String, Value>> {
    let bytes = evaltally_format::json::without_bom(bytes);
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return None;
    }
    match serde_json::from_slice::<Value>(bytes).ok()? {
        Value::Object(page) if page.get("object").and_then(Value::as_str) == Some("list") => {
            page.get("data").is_some_and(Value::is_array).then_some(page)
        }
        _ => None,
    }
}

/// A list page's items, each with the line it starts on; a warning when the page says more
/// follow (`has_more`): the runs then hold this page's items alone.
fn page_items(
    path: &Path,
    bytes: &[u8],
    mut page: serde_json::Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(u64, Value)> {
    use evaltally_format::scan::{array_at, object_members, value_end};
    if page.get("has_more").and_then(Value::as_bool) == Some(true) {
        diagnostics.push(Diagnostic::warning(
            path,
            "one page of a run's output items (`has_more` is true): its runs hold this page's items alone; save \
             every page (`output_items.list(…)` pages through them) to read whole runs",
        ));
    }
    let mut starts = Vec::new();
    if let Ok(members) = object_members(bytes)
        && let Some(data) = members.iter().rev().find(|m| &bytes[m.key.clone()] == b"data")
    {
        let _ = array_at(bytes, data.value.start, |at| {
            starts.push(evaltally_format::json::line_column(bytes, at).0);
            value_end(bytes, at)
        });
    }
    let Some(Value::Array(data)) = page.remove("data") else { return Vec::new() };
    data.into_iter().enumerate().map(|(k, doc)| (starts.get(k).copied().unwrap_or(1), doc)).collect()
}

/// Line `line_no` of a JSON Lines file parsed; a line that is not JSON is an error naming it
/// (the line is left out), and with `note_keys` each key written twice on it a warning.
pub(crate) fn parse_line(
    path: &Path,
    line_no: u64,
    line: &[u8],
    note_keys: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let doc = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            let message = format!("{}; line left out", evaltally_format::json::problem(&e));
            diagnostics.push(Diagnostic::error(path, message).at(line_no, evaltally_format::json::column(&e) as u64));
            return None;
        }
    };
    if note_keys {
        note_repeated_keys(path, line_no, line, diagnostics);
    }
    Some(doc)
}

/// A warning per key written twice in an object of line `line_no`.
pub(crate) fn note_repeated_keys(path: &Path, line_no: u64, line: &[u8], diagnostics: &mut Vec<Diagnostic>) {
    for r in evaltally_format::json::repeated_keys(line) {
        let message = format!("{REPEATED_KEY}`{}` appears twice on this line; the last value is read", r.key);
        diagnostics.push(Diagnostic::warning(path, message).at(line_no, r.again as u64 + 1));
    }
}

/// Every line of a file that can be read, each (run, test) once, with the runs' models
/// filled in; what is wrong goes to the diagnostics, naming the line. `outcomes_only`: the
/// caller reads the items' outcomes, runs and categories, not their documents (a record
/// log's events are then read with the scanner and [`Item::doc`] is left null).
pub(crate) fn items(path: &Path, bytes: &[u8], note_keys: bool, outcomes_only: bool) -> (Vec<Item>, Vec<Diagnostic>) {
    let bytes = evaltally_format::json::without_bom(bytes);
    if evaltally_format::bytes::lines(bytes)
        .find(|l| !l.iter().all(u8::is_ascii_whitespace))
        .is_some_and(record_log::is_spec_line)
    {
        return record_log::items(path, bytes, note_keys, outcomes_only);
    }
    let mut diagnostics = Vec::new();
    let mut out: Vec<Item> = Vec::new();
    let mut seen: HashSet<(String, String)> = HashSet::new();
    // Only a `.json` file can be the API's list page: a `.jsonl` file is not parsed whole.
    let page = if evaltally_format::json::is_json_path(path) { list_page(bytes) } else { None };
    // A list page's items are said by their place on the page; a file's lines by their line.
    let left_out = if page.is_some() { "item left out" } else { "line left out" };
    let mut take = |line_no: u64, doc: Value, diagnostics: &mut Vec<Diagnostic>| {
        let mut warnings = Vec::new();
        let read = item(doc, line_no, &mut warnings);
        diagnostics.extend(warnings.into_iter().map(|w| Diagnostic::warning(path, w).at_line(line_no)));
        match read {
            Err(why) => diagnostics.push(Diagnostic::error(path, format!("{why}; {left_out}")).at_line(line_no)),
            Ok(item) => {
                if seen.insert((item.run.clone(), item.id.clone())) {
                    out.push(item);
                } else {
                    let message = format!("run {}: item {} listed again; the first is kept", item.run, item.id);
                    diagnostics.push(Diagnostic::warning(path, message).at_line(line_no));
                }
            }
        }
    };
    if let Some(page) = page {
        for (line_no, doc) in page_items(path, bytes, page, &mut diagnostics) {
            take(line_no, doc, &mut diagnostics);
        }
    } else {
        for (n, line) in evaltally_format::bytes::lines(bytes).enumerate() {
            let line_no = n as u64 + 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if let Some(doc) = parse_line(path, line_no, line, note_keys, &mut diagnostics) {
                take(line_no, doc, &mut diagnostics);
            }
        }
    }
    let mut run_models: HashMap<String, String> = HashMap::new();
    for i in &out {
        if let Some(m) = &i.model {
            run_models.entry(i.run.clone()).or_insert_with(|| m.clone());
        }
    }
    for i in &mut out {
        if i.model.is_none() {
            i.model = Some(run_models.get(&i.run).cloned().unwrap_or_else(|| UNKNOWN_MODEL.to_string()));
        }
    }
    (out, diagnostics)
}

/// The model of an item, once [`items`] filled it in.
pub(crate) fn model(item: &Item) -> &str {
    item.model.as_deref().unwrap_or(UNKNOWN_MODEL)
}

/// What a file holds: one category run per (run, model, category), and what was wrong with
/// its lines.
#[derive(Debug, Default)]
pub struct Read {
    /// The runs, by run id, model and category.
    pub runs: Vec<CategoryRun>,
    /// Errors for lines left out, warnings for what was read with a default.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads an output items file from its bytes.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Read {
    read_lines(path, bytes, true, true)
}

/// [`read_bytes`]; `note_keys` adds a warning per key written twice on a line; `fast`
/// reads a record log's plainly well-formed event lines with the scanner (`validate` parses
/// every line).
pub(crate) fn read_lines(path: &Path, bytes: &[u8], note_keys: bool, fast: bool) -> Read {
    let (items, diagnostics) = items(path, bytes, note_keys, fast);
    let mut runs: BTreeMap<(String, String, String), CategoryRun> = BTreeMap::new();
    for i in items {
        let key = (i.run.clone(), model(&i).to_string(), i.category.clone());
        let run = runs.entry(key).or_insert_with(|| {
            let mut c = CategoryRun::new(&i.run, model(&i), &i.category);
            c.sources.push(path.to_path_buf());
            c.meta = i.created.as_ref().map(|t| {
                std::sync::Arc::new(evaltally_core::RunMeta { timestamp: Some(t.clone()), ..Default::default() })
            });
            c
        });
        let (outcome, label) = i.verdict.outcome();
        run.push(&i.id, outcome, label.as_deref());
    }
    Read { runs: runs.into_values().collect(), diagnostics }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `read_bytes` (event lines read with the scanner) gives the runs and the words that
    /// reading every line whole gives.
    fn fast_agrees(name: &str, bytes: &[u8]) {
        let path = Path::new(name);
        let said = |r: &Read| (format!("{:?}", r.runs), messages(r));
        assert_eq!(said(&read_bytes(path, bytes)), said(&read_lines(path, bytes, true, false)), "{name}");
    }

    #[test]
    fn the_fast_path_reads_what_parsing_every_line_reads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = 0;
        for dir in [
            "oaieval",
            "shapes/openai-evals/record-log-2024",
            "shapes/openai-evals/record-log-2023-03",
            "shapes/openai-evals/record-log-modelgraded",
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "jsonl") {
                    let name = path.file_name().unwrap().to_string_lossy().into_owned();
                    fast_agrees(&name, &std::fs::read(&path).unwrap());
                    files += 1;
                }
            }
        }
        assert!(files >= 6, "{files} record logs");
        // Odd event lines: each read alike, by the scanner or whole.
        let spec = r#"{"spec": {"completion_fns": ["m"], "eval_name": "arith.dev.v0", "base_eval": "arith", "run_id": "R1", "created_at": "2026-11-01 09:00:00"}}"#;
        let sampling = r#"{"run_id": "R1", "event_id": 0, "sample_id": "arith.dev.0", "type": "sampling", "data": {"prompt": [{"role": "user", "content": "2+2 \"x\" {"}], "sampled": ["4"]}}"#;
        let matched = r#"{"run_id": "R1", "event_id": 1, "sample_id": "arith.dev.0", "type": "match", "data": {"correct": true, "picked": "4"}}"#;
        let lines = [
            matched.to_string(),
            matched.replace("true", "false"),
            matched.replace("true", "null"),
            matched.replace("true", "1"),
            matched.replace(r#""correct": true, "#, ""),
            matched.replace(r#""data": {"correct": true, "picked": "4"}"#, r#""data": 3"#),
            matched.replace(r#""arith.dev.0""#, "7"),
            matched.replace(r#""arith.dev.0""#, "-7"),
            matched.replace(r#""arith.dev.0""#, r#""""#),
            matched.replace(r#""arith.dev.0""#, r#""arith.dev.\u0030""#),
            matched.replace(r#""run_id": "R1""#, r#""run_id": "R2""#),
            matched.replace(r#""type": "match""#, r#""type": "match", "type": "sampling""#),
            matched.replace(r#""correct": true"#, r#""correct": true, "correct": false"#),
            format!("{matched} x"),
            matched[..matched.len() - 2].to_string(),
            r#"{"final_report": {"accuracy": 1.0}}"#.to_string(),
            "[1, 2]".to_string(),
        ];
        for line in &lines {
            let log = format!("{spec}\n{sampling}\n{line}\n");
            fast_agrees("R1_m_arith.jsonl", log.as_bytes());
        }
    }

    fn messages(read: &Read) -> Vec<String> {
        read.diagnostics.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn verdicts() {
        let lines = br#"{"run_id": "r", "data_source_idx": 0, "passes": {"A": true, "B": true}}
{"run_id": "r", "data_source_idx": 1, "passes": {"B": false, "A": false, "C": true}}
{"run_id": "r", "data_source_idx": 2, "sample": {"error": {"message": "boom"}}, "passes": {}}
{"run_id": "r", "data_source_idx": 3, "sample": {"error": null}, "passes": {}}
{"run_id": "r", "data_source_idx": 4, "sample": {"error": "boom"}, "passes": {"A": true}}
"#;
        let read = read_bytes(Path::new("x.jsonl"), lines);
        assert!(read.diagnostics.is_empty(), "{:?}", messages(&read));
        let got: Vec<_> =
            read.runs[0].tests().map(|t| (t.id, t.outcome, t.error_type.map(|e| e.as_str().to_string()))).collect();
        assert_eq!(
            got,
            [
                ("0", Outcome::Pass, None),
                ("1", Outcome::Fail, Some("failed:A+B".to_string())),
                ("2", errored().0, Some(ERRORED.to_string())),
                ("3", Outcome::Unscored, None),
                ("4", Outcome::Pass, None),
            ]
        );
    }

    #[test]
    fn item_ids_win_and_models_come_from_the_run() {
        let lines = br#"{"run_id": "r", "data_source_idx": 0, "item": {"id": "q-7"}, "passes": {"A": true}}
{"run_id": "r", "data_source_idx": 1, "sample": {"sampled_model_name": "gpt-4.1"}, "eval_id": "eval_1", "passes": {"A": true}}
"#;
        let read = read_bytes(Path::new("x.jsonl"), lines);
        let runs: Vec<_> = read
            .runs
            .iter()
            .map(|r| (r.model.as_str(), r.category.as_str(), r.ids().iter().collect::<Vec<_>>()))
            .collect();
        assert_eq!(runs, [("gpt-4.1", "eval_1", vec!["1"]), ("gpt-4.1", "openai-evals", vec!["q-7"])]);
    }

    #[test]
    fn damaged_lines_are_named() {
        let lines = b"\xEF\xBB\xBF{\"run_id\": \"r\", \"data_source_idx\": 0, \"passes\": {\"A\": true}}\n\
[1]\n\
{\"data_source_idx\": 1}\n\
{\"run_id\": \"r\", \"data_source_idx\": -1}\n\
{\"run_id\": \"r\", \"data_source_idx\": 2, \"passes\": [true]}\n\
{\"run_id\": \"r\", \"data_source_idx\": 3, \"passes\": {\"A\": \"yes\"}}\n\
{\"run_id\": \"r\", \"data_source_idx\": 0, \"passes\": {\"A\": false}}\n\
{\"run_id\": \"r\", \"data_source_idx\": 4, \"passes\": {\"A\": true}, \"passes\": {\"A\": false}}\n\
{\"run_id\": \"r\", \"data_sou\n";
        let read = read_bytes(Path::new("x.jsonl"), lines);
        let expected = [
            "x.jsonl:2: error: expected an object with run_id and data_source_idx; line left out",
            "x.jsonl:3: error: expected `run_id`, a string; line left out",
            "x.jsonl:4: error: run r: expected `data_source_idx`, a whole number (or an `id` in `item`); line left out",
            "x.jsonl:5: error: run r, item 2: expected `passes`, an object of criterion: true|false, found [true]; line left out",
            "x.jsonl:6: warning: run r, item 3: criterion `A`: expected true or false, found \"yes\"; read as failed",
            "x.jsonl:7: warning: run r: item 0 listed again; the first is kept",
            "x.jsonl:8:62: warning: key `passes` appears twice on this line; the last value is read",
            "x.jsonl:9:26: error: not valid JSON: the text ends inside a string (cut short?); line left out",
        ];
        assert_eq!(messages(&read), expected);
        let run = &read.runs[0];
        assert_eq!((run.len(), run.passed(), run.failed()), (3, 1, 2));
    }

    /// The Evals API's items: graders' `passed` decide; without results, a sample error is
    /// errored and `status` decides the rest; a grader without `passed` fails, said; the
    /// empty error object of a sample that did not fail is no error.
    #[test]
    fn api_items() {
        let ok = r#""sample": {"model": "m", "error": {"code": "", "message": ""}}"#;
        let lines = [
            format!(r#"{{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 0, "created_at": 1744700000, "status": "pass", "results": [{{"name": "A", "passed": true}}, {{"name": "B-3c0e5a1b-5f4d-4c1e-9d0a-1b2c3d4e5f60", "passed": true}}], {ok}}}"#),
            format!(r#"{{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 1, "status": "fail", "results": [{{"name": "A", "passed": true}}, {{"name": "B", "passed": false}}], {ok}}}"#),
            r#"{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 2, "status": "error", "results": [], "sample": {"model": "m", "error": {"code": "rate_limit_exceeded", "message": "slow down"}}}"#.to_string(),
            format!(r#"{{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 3, "status": "fail", "results": [], {ok}}}"#),
            format!(r#"{{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 4, "status": "completed", "results": [{{"name": "A", "score": 0.2}}], {ok}}}"#),
            r#"{"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "status": "pass"}"#.to_string(),
        ];
        let read = read_bytes(Path::new("items.jsonl"), lines.join("\n").as_bytes());
        let run = &read.runs[0];
        assert_eq!((run.run.as_str(), run.model.as_str(), run.category.as_str()), ("r", "m", "e"));
        let got: Vec<(String, Outcome, Option<String>)> =
            run.tests().map(|t| (t.id.to_string(), t.outcome, t.error_type.map(|e| e.as_str().to_string()))).collect();
        let fail = |c: &str| Some(format!("failed:{c}"));
        assert_eq!(
            got,
            [
                ("0".to_string(), Outcome::Pass, None),
                ("1".to_string(), Outcome::Fail, fail("B")),
                ("2".to_string(), Outcome::Errored, Some(ERRORED.to_string())),
                ("3".to_string(), Outcome::Fail, fail("status")),
                ("4".to_string(), Outcome::Fail, fail("A")),
            ]
        );
        assert_eq!(run.meta.as_ref().and_then(|m| m.timestamp.as_deref()), Some("2025-04-15T06:53:20Z"));
        let said = messages(&read);
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(
            said[0].contains(":5: warning: run r, item 4: grader `A`: expected `passed`, true or false, found nothing"),
            "{said:?}"
        );
        assert!(
            said[1].contains(":6: error: run r: expected `datasource_item_id`, a whole number; line left out"),
            "{said:?}"
        );
    }

    /// The Evals API's list page (`.json`): its items are read as the lines of a saved
    /// file are, each said by the line it starts on; a page with more after it is said.
    #[test]
    fn a_list_page_is_read_item_by_item() {
        let page = r#"{
  "object": "list",
  "data": [
    {"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "datasource_item_id": 0, "status": "pass",
     "results": [{"name": "A", "passed": true}], "sample": {"model": "m"}},
    {"object": "eval.run.output_item", "run_id": "r", "eval_id": "e", "status": "fail"}
  ],
  "first_id": "a", "last_id": "b", "has_more": true
}"#;
        let read = read_bytes(Path::new("page.json"), page.as_bytes());
        assert_eq!(read.runs.len(), 1);
        assert_eq!((read.runs[0].len(), read.runs[0].passed()), (1, 1));
        let said = messages(&read);
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("warning: one page of a run's output items (`has_more` is true)"), "{said:?}");
        assert!(
            said[1].contains(":6: error: run r: expected `datasource_item_id`, a whole number; item left out"),
            "{said:?}"
        );
        // Not a list page: read as lines.
        assert!(list_page(br#"{"object": "list", "data": {}}"#).is_none());
        assert!(list_page(b"{\"run_id\": \"r\"}\n{\"run_id\": \"s\"}\n").is_none());
    }
}
