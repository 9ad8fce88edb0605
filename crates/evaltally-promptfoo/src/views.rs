//! A file test by test (`export`, `convert`), one test across its repeats and providers
//! (`show`), and what `validate` finds.

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Finding, Location, Message, RunRecord, Status, TestDetail, TestRecord};
use evaltally_format::check::Level;
use serde_json::{Map, Value, json};

use crate::FORMAT;
use crate::eval::{self, TestResult, entry_lines, run_name, text};

/// Every (repeat, provider) of a file as a run record (for `export` and `convert`), with
/// each result's latency, cost and tokens.
pub fn records(path: &Path, bytes: &[u8]) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (eval, diagnostics) = eval::read(path, bytes, true)?;
    let stem = crate::eval::stem(path);
    let mut runs: BTreeMap<(usize, String), RunRecord> = BTreeMap::new();
    for r in eval.results {
        let run = runs.entry((r.repeat, r.model.clone())).or_insert_with(|| RunRecord {
            run: run_name(&stem, r.repeat),
            model: r.model.clone(),
            format: FORMAT.to_string(),
            source: path.to_path_buf(),
            started_at: eval.meta.timestamp.clone(),
            meta: eval.meta.clone(),
            ..RunRecord::default()
        });
        run.tests.push(TestRecord {
            id: r.id,
            category: eval.category.clone(),
            outcome: Some(r.verdict.outcome),
            error_type: r.verdict.error_type,
            error_message: r.verdict.message,
            duration_ms: r.latency_ms,
            input_tokens: r.input_tokens,
            output_tokens: r.output_tokens,
            cost_usd: r.cost_usd,
        });
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// The prompt as sent: a chat given as a JSON list of `{role, content}` as its messages,
/// anything else as one user message.
fn question(entry: &Map<String, Value>) -> Vec<Vec<Message>> {
    let Some(raw) = text(entry.get("prompt").and_then(|p| p.get("raw"))) else { return Vec::new() };
    let chat = serde_json::from_str::<Vec<Value>>(raw).ok().and_then(|messages| {
        messages
            .iter()
            .map(|m| {
                let role = text(m.get("role"))?;
                let content = m.get("content")?;
                let content = content.as_str().map_or_else(|| content.to_string(), str::to_string);
                Some(Message { role: role.to_string(), content })
            })
            .collect::<Option<Vec<Message>>>()
            .filter(|m| !m.is_empty())
    });
    vec![chat.unwrap_or_else(|| vec![Message { role: "user".to_string(), content: raw.to_string() }])]
}

/// What a result adds to its verdict: score, grading reason, each assertion's outcome, and
/// the variables.
fn details(entry: &Map<String, Value>) -> Value {
    let grading = entry.get("gradingResult");
    let assertions: Vec<Value> = grading
        .and_then(|g| g.get("componentResults"))
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .map(|c| {
                    json!({
                        "type": c.get("assertion").and_then(|a| a.get("type")),
                        "pass": c.get("pass"),
                        "score": c.get("score"),
                        "reason": c.get("reason"),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let vars = entry.get("testCase").and_then(|c| c.get("vars")).or_else(|| entry.get("vars"));
    let mut out = Map::new();
    for (key, value) in [
        ("score", entry.get("score").cloned()),
        ("reason", grading.and_then(|g| g.get("reason")).cloned()),
        ("assertions", (!assertions.is_empty()).then_some(Value::Array(assertions))),
        ("vars", vars.cloned()),
    ] {
        if let Some(v) = value.filter(|v| !v.is_null()) {
            out.insert(key.to_string(), v);
        }
    }
    Value::Object(out)
}

fn detail(path: &Path, stem: &str, category: &str, r: &TestResult, lines: &[u64]) -> TestDetail {
    let status = Status::from(r.verdict.outcome);
    let mut d = TestDetail::new(&run_name(stem, r.repeat), &r.model, category, &r.id, status);
    d.error_type.clone_from(&r.verdict.error_type);
    d.error_message.clone_from(&r.verdict.message);
    d.inference_error = r.verdict.errored;
    d.error_details = Some(details(&r.entry));
    d.question = question(&r.entry);
    d.answer = r.entry.get("response").and_then(|x| x.get("output")).filter(|o| !o.is_null()).cloned();
    d.expected = r.entry.get("testCase").and_then(|c| c.get("assert")).filter(|a| !a.is_null()).cloned();
    d.input_tokens = r.input_tokens;
    d.output_tokens = r.output_tokens;
    d.latency_seconds = r.latency_ms.map(|ms| ms / 1000.0);
    d.result_at = lines.get(r.index).map(|&line| Location { path: path.to_path_buf(), line });
    d
}

/// Everything a file says about test `id` (`<test case> @ <prompt>`): one detail per
/// repeat and provider that ran it, with the prompt as sent, the response, the assertions
/// (as expected answer), the grading reason and the variables.
pub fn show(path: &Path, bytes: &[u8], id: &str) -> Result<Vec<TestDetail>, Diagnostic> {
    let (eval, _) = eval::parse(path, bytes, None)?;
    let stem = crate::eval::stem(path);
    let matching: Vec<&TestResult> = eval.results.iter().filter(|r| r.id == id).collect();
    let scanned = if matching.is_empty() || !eval.lines.is_empty() { Vec::new() } else { entry_lines(bytes) };
    let lines = if eval.lines.is_empty() { &scanned } else { &eval.lines };
    Ok(matching.into_iter().map(|r| detail(path, &stem, &eval.category, r, lines)).collect())
}

/// The keys promptfoo writes in its output JSON, every version (0.24 – 0.123): the document
/// `createOutputData` writes (and the old `latest.json`'s), `EvaluateSummary` v2 and v3,
/// `EvaluateResult` with its `provider` and `GradingResult`s (`src/types/index.ts`). The
/// config, stats, table, prompts, vars, metadata, responses and test cases are the user's
/// and promptfoo's payloads, not checked.
const KEYS: &[Level] = &[
    Level {
        at: "$",
        known: &[
            "evalId",
            "results",
            "config",
            "shareableUrl",
            "metadata",
            "vars",
            "runtimeOptions",
            "traces",
            "blobAssets",
            "version",
            "createdAt",
        ],
        what: "promptfoo's output",
    },
    Level {
        at: "$.results",
        known: &["version", "timestamp", "results", "stats", "table", "prompts"],
        what: "promptfoo's EvaluateSummary",
    },
    Level { at: "$.results.results[*]", known: RESULT, what: "promptfoo's EvaluateResult" },
    Level { at: "$.results.results[*].provider", known: &["id", "label"], what: "promptfoo's provider of a result" },
    Level { at: "$.results.results[*].gradingResult", known: GRADING_RESULT, what: "promptfoo's GradingResult" },
    Level {
        at: "$.results.results[*].gradingResult.componentResults[*]",
        known: GRADING_RESULT,
        what: "promptfoo's GradingResult",
    },
];

/// `EvaluateResult`'s keys: an entry of `results.results`, or a line of `-o out.jsonl`.
const RESULT: &[&str] = &[
    "provider",
    "prompt",
    "vars",
    "response",
    "success",
    "score",
    "namedScores",
    "latencyMs",
    "cost",
    "incurredCost",
    "metadata",
    "error",
    "gradingResult",
    "testIdx",
    "promptIdx",
    "testCase",
    "promptId",
    "id",
    "description",
    "failureReason",
    "tokenUsage",
    "traceId",
    "evaluationId",
];

/// The keys promptfoo writes on a line of its JSON Lines output (0.99 and later): an
/// `EvaluateResult` each.
const LINE: &[Level] = &[
    Level { at: "$", known: RESULT, what: "promptfoo's EvaluateResult" },
    Level { at: "$.provider", known: &["id", "label"], what: "promptfoo's provider of a result" },
    Level { at: "$.gradingResult", known: GRADING_RESULT, what: "promptfoo's GradingResult" },
    Level { at: "$.gradingResult.componentResults[*]", known: GRADING_RESULT, what: "promptfoo's GradingResult" },
];

/// `GradingResult`'s keys.
const GRADING_RESULT: &[&str] = &[
    "pass",
    "score",
    "reason",
    "namedScores",
    "namedScoreWeights",
    "tokensUsed",
    "componentResults",
    "assertion",
    "comment",
    "suggestions",
    "metadata",
];

/// What `validate` reports: every key written twice in an object and every result left out
/// (errors), every default taken and every key promptfoo never writes (warnings), located by
/// JSON path; a file that is not promptfoo's output at all is one error.
pub fn validate(path: &Path, bytes: &[u8]) -> Vec<Finding> {
    match eval::parse(path, bytes, None) {
        Ok((_, notes)) if eval::is_jsonl(path) => {
            let mut findings: Vec<Finding> = notes.iter().map(eval::Note::finding).collect();
            let mut keys = evaltally_format::check::KeyCheck::new(LINE);
            for line in evaltally_format::bytes::lines(bytes) {
                for value in serde_json::Deserializer::from_slice(line).into_iter::<Value>().map_while(Result::ok) {
                    keys.add(&value);
                }
            }
            findings.extend(keys.findings());
            findings
        }
        Ok((_, notes)) => {
            let mut findings = evaltally_format::json::repeated_key_findings(bytes);
            findings.extend(notes.iter().map(eval::Note::finding));
            findings.extend(evaltally_format::check::unknown_key_findings(bytes, KEYS));
            findings
        }
        Err(d) => {
            let at = match (d.line, d.column) {
                (Some(l), Some(c)) => format!("line {l}, column {c}"),
                _ => "$".to_string(),
            };
            vec![Finding::error(at, d.message)]
        }
    }
}
