//! OpenHands' `output.jsonl`: one `EvalOutput` line per SWE-bench instance, the agent's whole
//! `history` among its fields. After the SWE-bench harness graded the run,
//! `update_output_with_eval.py` gives every line a top-level `report`
//! (`{empty_generation, resolved, failed_apply_patch, error_eval, test_timeout}`): such a
//! file is one run, read here. A file whose lines carry no `report` is the agent's output
//! before any evaluation, said in one line and not read. `eval_infer.py`'s
//! `output.swebench_eval.jsonl`, whose lines keep the same `report` in `test_result`, is read
//! alike until `update_output_with_eval.py` has copied its reports into `output.jsonl`.
//!
//! Lines are read with the pipeline's scanner: `instance_id`, `report`, `error`, `metadata`
//! and `metrics` are found and the rest (`history`, hundreds of kilobytes a line, and
//! `instance`) is jumped over, never built.

use std::collections::HashSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use evaltally_core::{Diagnostic, Finding, Message, Outcome, RunRecord, Status, TestDetail, TestRecord};
use evaltally_format::fields::{built, fields, string};
use evaltally_format::{Folder, Input, file_name};
use serde_json::Value;

use crate::report::{repository, runs_by_repository};

/// The format name of the files, for `validate` and records.
pub const FORMAT_NAME: &str = "swebench-openhands-output";

/// The label of a line whose agent run failed before any evaluation (`error` set, no
/// `report`).
pub const AGENT_ERROR: &str = "agent_error";

/// `output.jsonl`, the file OpenHands' evaluation scripts write and rewrite.
pub(crate) fn is_output_name(path: &Path) -> bool {
    file_name(path).is_some_and(|n| n == "output.jsonl")
}

/// The end of the name of what OpenHands' `eval_infer.py` writes beside `<output>.jsonl`.
const EVAL_SUFFIX: &str = ".swebench_eval.jsonl";

/// `<output>.swebench_eval.jsonl`: OpenHands' runtime evaluation of `<output>.jsonl`, each
/// line's verdict in `test_result.report`.
pub(crate) fn is_eval_name(path: &Path) -> bool {
    eval_stem(path).is_some()
}

/// `<output>` of `<output>.swebench_eval.jsonl`.
fn eval_stem(path: &Path) -> Option<&str> {
    file_name(path)?.to_str()?.strip_suffix(EVAL_SUFFIX).filter(|s| !s.is_empty())
}

/// The names of the files of one OpenHands run that hold the same verdicts, from their stem
/// `<output>`: the agent output the reports are copied into, the runtime evaluation they come
/// from, and the summary written once they are copied.
pub(crate) struct Siblings {
    /// `<output>.jsonl`.
    pub(crate) output: String,
    /// `<output>.swebench_eval.jsonl`.
    pub(crate) evaluation: String,
    /// `<output>.swebench_eval.md`.
    pub(crate) summary: String,
}

impl Siblings {
    pub(crate) fn of(stem: &str) -> Self {
        Self {
            output: format!("{stem}.jsonl"),
            evaluation: format!("{stem}{EVAL_SUFFIX}"),
            summary: format!("{stem}.swebench_eval.md"),
        }
    }
}

/// The files beside an OpenHands file that what it is depends on, among those the walk
/// found: for `<output>.swebench_eval.jsonl`, its summary and `<output>.jsonl` when both are
/// there (the reports were copied: it is set aside); for `output.jsonl`, its runtime
/// evaluation when no summary is there (read instead, and named when `output.jsonl` is set
/// aside).
pub(crate) fn beside(path: &Path, folder: &Folder<'_>) -> Vec<PathBuf> {
    let names = folder.names();
    let has = |n: &str| names.contains(&n);
    let found = |n: String| vec![path.with_file_name(n)];
    if let Some(stem) = eval_stem(path) {
        let s = Siblings::of(stem);
        if has(&s.summary) && has(&s.output) {
            return [found(s.summary), found(s.output)].concat();
        }
    } else if is_output_name(path) {
        let s = Siblings::of("output");
        if has(&s.evaluation) && !has(&s.summary) {
            return found(s.evaluation);
        }
    }
    Vec::new()
}

/// `output.critic_attempt_<k>.jsonl`: the attempts of OpenHands' iterative evaluation.
pub(crate) fn is_attempt_name(path: &Path) -> bool {
    file_name(path).and_then(|n| n.to_str()).is_some_and(|n| {
        n.strip_prefix("output.critic_attempt_")
            .and_then(|rest| rest.strip_suffix(".jsonl"))
            .is_some_and(|k| !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Each non-blank line of the file: its number (from 1), its bytes and where its value
/// starts in them.
fn lines(bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8], usize)> {
    let bytes = evaltally_format::json::without_bom(bytes);
    evaltally_format::bytes::lines(bytes).enumerate().filter_map(|(i, line)| {
        let start = line.iter().position(|c| !c.is_ascii_whitespace())?;
        Some((i as u64 + 1, line, start))
    })
}

/// Whether the first line is an object holding both keys.
fn first_line_has(bytes: &[u8], a: &[u8], b: &[u8]) -> bool {
    lines(bytes).next().is_some_and(|(_, line, start)| evaltally_format::json::object_has(line, start, a, b))
}

/// Whether a file is an evaluated OpenHands output: JSON Lines (OpenHands writes no other)
/// whose first line is an object with `instance_id` and a `report`, or `eval_infer.py`'s
/// `<output>.swebench_eval.jsonl` whose first line has `instance_id` and `test_result` (an
/// attempt file is never one). A `.json` document is never looked through: its first line
/// may be all of it.
pub(crate) fn is_evaluated(file: &Input<'_>) -> bool {
    evaltally_format::has_extension(file.path, "jsonl")
        && !is_attempt_name(file.path)
        && (first_line_has(file.bytes, b"instance_id", b"report")
            || is_eval_name(file.path) && first_line_has(file.bytes, b"instance_id", b"test_result"))
}

/// What an OpenHands output that holds no graded run is (`output.jsonl` and its attempt
/// files only: other JSON Lines are no format's).
pub(crate) fn aside(file: &Input<'_>) -> Option<String> {
    if is_eval_name(file.path) {
        // Its summary and `<output>.jsonl` beside it (the format asks for them only both
        // together): `update_output_with_eval.py` ran, and `<output>.jsonl` holds the same
        // reports.
        let Siblings { output, summary, .. } = Siblings::of(eval_stem(file.path)?);
        if !file.beside().iter().any(|p| file_name(p).is_some_and(|n| n == summary.as_str())) {
            return None;
        }
        return Some(format!(
            "OpenHands' runtime evaluation of `{output}`: `update_output_with_eval.py` has copied its \
             reports into `{output}` beside it (its summary `{summary}` is there), which is read"
        ));
    }
    if !is_output_name(file.path) && !is_attempt_name(file.path) {
        return None;
    }
    let agent_output = |bytes: &[u8]| {
        first_line_has(bytes, b"instance_id", b"history")
            || first_line_has(bytes, b"instance_id", b"test_result")
            || first_line_has(bytes, b"instance_id", b"instruction")
    };
    if is_attempt_name(file.path) && agent_output(file.bytes) {
        return Some(
            "an attempt file of OpenHands' iterative evaluation: it retries the instances the critic judged failed, \
             and output.jsonl holds each instance's last attempt"
                .to_string(),
        );
    }
    (!is_evaluated(file) && agent_output(file.bytes)).then(|| {
        let said = "OpenHands agent output without an evaluation: its lines carry no `report` (the SWE-bench \
                    harness's verdict, which `update_output_with_eval.py` adds)";
        // The runtime's evaluation of it, when the format found one beside it.
        match file.beside().iter().filter_map(|p| file_name(p)).find(|n| is_eval_name(Path::new(n))) {
            Some(evaluation) => format!("{said}; `{}` beside it is read instead", evaluation.to_string_lossy()),
            None => said.to_string(),
        }
    })
}

/// The verdict of a `report`: resolved passes; an empty patch and a patch that does not
/// apply fail (the model's doing); `error_eval` (the harness wrote no report: 2024's
/// `test_errored`) and a test timeout without resolution errored; anything else fails, its
/// tests failed.
///
/// ```
/// use evaltally_core::Outcome;
/// use evaltally_swebench::openhands::report_verdict;
/// let report = serde_json::json!({"empty_generation": false, "resolved": false, "failed_apply_patch": false,
///     "error_eval": true, "test_timeout": false});
/// assert_eq!(report_verdict(&report).0, (Outcome::Errored, Some("error")));
/// assert_eq!(report_verdict(&serde_json::json!({"resolved": true})).0, (Outcome::Pass, None));
/// assert_eq!(report_verdict(&serde_json::json!({"applied": true})).0, (Outcome::Fail, Some("tests_failed")));
/// ```
pub fn report_verdict(report: &Value) -> ((Outcome, Option<&'static str>), Vec<String>) {
    let mut notes = Vec::new();
    let mut flag = |k: &str| match report.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            notes.push(format!("`report.{k}` is {other:.40}, expected true or false; read as false"));
            false
        }
    };
    let verdict = if flag("resolved") {
        (Outcome::Pass, None)
    } else if flag("empty_generation") {
        (Outcome::Fail, Some("empty_patch"))
    } else if flag("failed_apply_patch") {
        (Outcome::Fail, Some("patch_apply_failed"))
    } else if flag("error_eval") || flag("test_errored") {
        (Outcome::Errored, Some("error"))
    } else if flag("test_timeout") {
        (Outcome::Errored, Some("timeout"))
    } else {
        (Outcome::Fail, Some("tests_failed"))
    };
    (verdict, notes)
}

/// One line as read.
struct Line {
    number: u64,
    instance_id: String,
    outcome: Outcome,
    label: Option<&'static str>,
    /// The line's `error` (the agent run's failure), when it has one.
    error: Option<String>,
    /// `metadata.llm_config.model` (`metadata.llm.model` in the V1 harness).
    model: Option<String>,
    /// Where the fields `show` and `records` want are in the line.
    report: Option<Range<usize>>,
    metrics: Option<Range<usize>>,
    test_result: Option<Range<usize>>,
    instruction: Option<Range<usize>>,
}

/// The model a line's `metadata` names.
fn model_of(text: &str, metadata: &Range<usize>) -> Option<String> {
    let b = text.as_bytes();
    if b.get(metadata.start) != Some(&b'{') {
        return None;
    }
    let ([llm_config, llm], _) = fields(b, metadata.start, ["llm_config", "llm"]).ok()?;
    let llm = llm_config.or(llm).filter(|r| b.get(r.start) == Some(&b'{'))?;
    let ([model], _) = fields(b, llm.start, ["model"]).ok()?;
    string(text, model.as_ref()).ok()?.map(std::borrow::Cow::into_owned)
}

/// The lines of a file whose verdict can be read, with what was said of the others: a line
/// that is no JSON object or has no `instance_id` is an error (left out); an instance
/// listed again (the first is kept), a line without `report` and `error` (not evaluated:
/// unscored) and a report flag that is not a boolean are warnings.
fn read_lines<'a>(path: &Path, bytes: &'a [u8], diagnostics: &mut Vec<Diagnostic>) -> Vec<(Line, &'a str)> {
    let mut out = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (number, line, start) in lines(bytes) {
        let error = |what: String| Diagnostic::error(path, what).at_line(number);
        let warning = |what: String| Diagnostic::warning(path, what).at_line(number);
        let Ok(text) = std::str::from_utf8(line) else {
            diagnostics.push(error("not UTF-8; left out".to_string()));
            continue;
        };
        let b = text.as_bytes();
        let scanned =
            fields(b, start, ["instance_id", "report", "error", "metadata", "metrics", "test_result", "instruction"])
                .ok()
                .filter(|(_, end)| b[*end..].iter().all(u8::is_ascii_whitespace));
        let Some(([id, report, err, metadata, metrics, test_result, instruction], _)) = scanned else {
            let why = match serde_json::from_slice::<serde_json::Map<String, Value>>(line) {
                Err(e) => format!("not a JSON object ({})", evaltally_format::json::message(&e)),
                Ok(_) => "a key written twice".to_string(),
            };
            diagnostics.push(error(format!("{why}; left out")));
            continue;
        };
        let Some(instance_id) = string(text, id.as_ref()).ok().flatten().map(std::borrow::Cow::into_owned) else {
            diagnostics.push(error("expected `instance_id`, a string; left out".to_string()));
            continue;
        };
        if !seen.insert(instance_id.clone()) {
            diagnostics.push(warning(format!("instance {instance_id} again; the first is kept")));
            continue;
        }
        let error_text = string(text, err.as_ref()).ok().flatten().map(std::borrow::Cow::into_owned);
        // `eval_infer.py` keeps the report in `test_result`; `update_output_with_eval.py`
        // copies it to the top.
        let not_null = |r: &Range<usize>| &b[r.clone()] != b"null";
        let report = report.filter(not_null).or_else(|| {
            let inner = test_result.as_ref().filter(|r| b.get(r.start) == Some(&b'{'))?;
            let ([report], _) = fields(b, inner.start, ["report"]).ok()?;
            report.filter(not_null)
        });
        let (outcome, label) = match report.as_ref() {
            Some(r) => match built(b, r) {
                Ok(v) if v.is_object() => {
                    let (verdict, notes) = report_verdict(&v);
                    diagnostics.extend(notes.into_iter().map(|n| warning(format!("instance {instance_id}: {n}"))));
                    verdict
                }
                _ => {
                    diagnostics.push(error(format!("instance {instance_id}: `report` is not an object; left out")));
                    continue;
                }
            },
            None if error_text.is_some() => (Outcome::Errored, Some(AGENT_ERROR)),
            None => {
                diagnostics.push(warning(format!(
                    "instance {instance_id} has no `report` and no `error`: not evaluated, unscored"
                )));
                (Outcome::Unscored, None)
            }
        };
        let model = metadata.as_ref().and_then(|m| model_of(text, m));
        out.push((
            Line {
                number,
                instance_id,
                outcome,
                label,
                error: error_text,
                model,
                report,
                metrics,
                test_result,
                instruction,
            },
            text,
        ));
    }
    out
}

/// The model of the run: the first line's `metadata` model; another on a later line is a
/// warning; none is `unknown`, a warning.
fn run_model(path: &Path, lines: &[(Line, &str)], diagnostics: &mut Vec<Diagnostic>) -> String {
    let mut models = lines.iter().filter_map(|(l, _)| l.model.as_deref().map(|m| (l.number, m)));
    let Some((_, first)) = models.next() else {
        if !lines.is_empty() {
            diagnostics.push(Diagnostic::warning(
                path,
                "no line names its model (`metadata.llm_config.model`): the model is `unknown`",
            ));
        }
        return "unknown".to_string();
    };
    if let Some((number, other)) = models.find(|(_, m)| m != &first) {
        diagnostics.push(
            Diagnostic::warning(
                path,
                format!("model `{other}` on this line, `{first}` on the first; the first is kept"),
            )
            .at_line(number),
        );
    }
    first.to_string()
}

/// The run a file holds: named after the file (`output`, which evaltally's naming rule
/// turns into its folder's name, the run folder OpenHands writes).
fn run_name(path: &Path) -> String {
    evaltally_format::json::stem(path).trim_end_matches(".jsonl").to_string()
}

/// What `stability` reads: one category run per repository.
pub(crate) fn read(file: &Input<'_>) -> evaltally_format::Read {
    if let Some(what) = aside(file) {
        return evaltally_format::Read { runs: Vec::new(), diagnostics: vec![Diagnostic::skipped(file.path, what)] };
    }
    let mut diagnostics = Vec::new();
    let lines = read_lines(file.path, file.bytes, &mut diagnostics);
    let model = run_model(file.path, &lines, &mut diagnostics);
    let verdicts = lines.iter().map(|(l, _)| (l.instance_id.as_str(), l.outcome, l.label));
    let mut runs = runs_by_repository(&run_name(file.path), &model, verdicts);
    for r in &mut runs {
        r.sources.push(file.path.to_path_buf());
        let scored = r.tests().any(|t| t.outcome != Outcome::Unscored);
        r.scored = scored;
    }
    evaltally_format::Read { runs, diagnostics }
}

/// A member of a line built, when it is there and not null.
fn value(text: &str, r: Option<&Range<usize>>) -> Option<Value> {
    built(text.as_bytes(), r?).ok().filter(|v| !v.is_null())
}

/// Why a line did not pass, in words.
fn message(l: &Line) -> Option<String> {
    match (l.outcome, l.label) {
        (Outcome::Pass, _) | (_, None) => None,
        (_, Some(AGENT_ERROR)) => l.error.clone(),
        (_, Some("empty_patch")) => Some("the agent produced no patch".to_string()),
        (_, Some("patch_apply_failed")) => Some("the patch did not apply".to_string()),
        (_, Some("error")) => Some("the harness could not evaluate the instance (error_eval)".to_string()),
        (_, Some("timeout")) => Some("the tests timed out".to_string()),
        (_, Some(_)) => Some("the patch did not resolve the instance".to_string()),
    }
}

/// The file as one run record, instance by instance, with each line's tokens and cost
/// (`metrics.accumulated_token_usage`, `metrics.accumulated_cost`).
pub(crate) fn records(file: &Input<'_>) -> evaltally_format::Records {
    if aside(file).is_some() {
        return evaltally_format::Records::default();
    }
    let mut diagnostics = Vec::new();
    let lines = read_lines(file.path, file.bytes, &mut diagnostics);
    let model = run_model(file.path, &lines, &mut diagnostics);
    let tests = lines
        .iter()
        .map(|(l, text)| {
            let metrics = value(text, l.metrics.as_ref());
            let usage = metrics.as_ref().and_then(|m| m.get("accumulated_token_usage"));
            let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
            TestRecord {
                id: l.instance_id.clone(),
                category: repository(&l.instance_id),
                outcome: Some(l.outcome),
                error_type: l.label.map(str::to_string),
                error_message: message(l),
                input_tokens: tokens("prompt_tokens"),
                output_tokens: tokens("completion_tokens"),
                cost_usd: metrics.as_ref().and_then(|m| m.get("accumulated_cost")).and_then(Value::as_f64),
                ..TestRecord::default()
            }
        })
        .collect();
    one_record(file.path, run_name(file.path), model, FORMAT_NAME, tests, diagnostics)
}

/// The file as one run record of `tests`, with what was said reading it.
pub(crate) fn one_record(
    path: &Path,
    run: String,
    model: String,
    format: &str,
    tests: Vec<TestRecord>,
    diagnostics: Vec<Diagnostic>,
) -> evaltally_format::Records {
    let record =
        RunRecord { run, model, format: format.to_string(), source: path.to_path_buf(), tests, ..RunRecord::default() };
    evaltally_format::Records { runs: vec![record], diagnostics }
}

/// Everything the file says about instance `id`: its report, its error, the agent's patch
/// (`test_result.git_patch`) as the answer and the task's `instruction` as the question.
pub(crate) fn show(file: &Input<'_>, id: &str) -> evaltally_format::Shown {
    if aside(file).is_some() {
        return evaltally_format::Shown::default();
    }
    let mut diagnostics = Vec::new();
    let lines = read_lines(file.path, file.bytes, &mut diagnostics);
    let model = run_model(file.path, &lines, &mut Vec::new());
    let details = lines
        .iter()
        .filter(|(l, _)| l.instance_id == id)
        .map(|(l, text)| {
            let mut d = TestDetail::new(&run_name(file.path), &model, &repository(id), id, Status::from(l.outcome));
            d.error_type = l.label.map(str::to_string);
            d.error_message = message(l);
            let test_result = value(text, l.test_result.as_ref());
            d.answer = test_result.as_ref().and_then(|t| t.get("git_patch")).cloned();
            if let Some(Value::String(instruction)) = value(text, l.instruction.as_ref()) {
                d.question = vec![vec![Message { role: "user".to_string(), content: instruction }]];
            }
            let mut details = serde_json::Map::new();
            for (k, v) in [("report", value(text, l.report.as_ref())), ("error", l.error.clone().map(Value::String))] {
                if let Some(v) = v {
                    details.insert(k.to_string(), v);
                }
            }
            d.error_details = (!details.is_empty()).then_some(Value::Object(details));
            let metrics = value(text, l.metrics.as_ref());
            let usage = metrics.as_ref().and_then(|m| m.get("accumulated_token_usage"));
            d.input_tokens = usage.and_then(|u| u.get("prompt_tokens")).and_then(Value::as_u64);
            d.output_tokens = usage.and_then(|u| u.get("completion_tokens")).and_then(Value::as_u64);
            d.result_at = Some(evaltally_core::Location { path: file.path.to_path_buf(), line: l.number });
            d
        })
        .collect();
    evaltally_format::Shown { details, diagnostics: Vec::new() }
}

/// What the reader refused (errors) or tolerated (warnings), line by line.
pub(crate) fn validate(file: &Input<'_>) -> Vec<evaltally_format::FileValidation> {
    if aside(file).is_some() {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    let lines = read_lines(file.path, file.bytes, &mut diagnostics);
    run_model(file.path, &lines, &mut diagnostics);
    validation(file.path, FORMAT_NAME, diagnostics)
}

/// The file's validation: what reading it said, each a finding of the whole file (or of
/// its line).
pub(crate) fn validation(
    path: &Path,
    format: &'static str,
    diagnostics: Vec<Diagnostic>,
) -> Vec<evaltally_format::FileValidation> {
    let findings = diagnostics.into_iter().map(|d| Finding::from_diagnostic(d, "file")).collect();
    vec![evaltally_format::FileValidation::new(path, format, findings)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, rest: &str) -> String {
        format!(
            r#"{{"instance_id": "{id}", "test_result": {{"git_patch": "diff"}}, "instruction": "fix it", "metadata": {{"agent_class": "CodeActAgent", "llm_config": {{"model": "litellm_proxy/acme-1.5"}}}}, "history": [{{"id": 1, "message": "{{\"report\": 1}}"}}], "metrics": {{"accumulated_cost": 0.5}}{rest}}}"#
        )
    }

    #[test]
    fn lines_with_a_report_are_one_run_per_repository() {
        let text = [
            line("django__django-11099", r#", "error": null, "report": {"empty_generation": false, "resolved": true, "failed_apply_patch": false, "error_eval": false, "test_timeout": false}"#),
            line("django__django-11133", r#", "report": {"resolved": false, "failed_apply_patch": true}"#),
            line("astropy__astropy-12907", r#", "report": {"resolved": false, "error_eval": true}"#),
            line("sympy__sympy-20590", r#", "error": "Agent got stuck in a loop""#),
            line("django__django-11099", r#", "report": {"resolved": false}"#),
            "{\"instance_id\": 3}".to_string(),
        ]
        .join("\n");
        let path = Path::new("out/acme-1.5_maxiter_100_N_v0.40.0-no-hint-run_1/output.jsonl");
        let file = Input::new(path, text.as_bytes(), false);
        assert!(is_evaluated(&file) && aside(&file).is_none());
        let read = read(&file);
        let runs: Vec<String> = read
            .runs
            .iter()
            .map(|r| {
                let tests: Vec<String> = r
                    .tests()
                    .map(|t| {
                        format!("{} {:?} {:?}", t.id, t.outcome, t.error_type.map(evaltally_core::ErrorType::as_str))
                    })
                    .collect();
                format!("{} {} {} {tests:?}", r.run, r.model, r.category)
            })
            .collect();
        assert_eq!(
            runs,
            [
                r#"output litellm_proxy/acme-1.5 astropy/astropy ["astropy__astropy-12907 Errored Some(\"error\")"]"#,
                r#"output litellm_proxy/acme-1.5 django/django ["django__django-11099 Pass None", "django__django-11133 Fail Some(\"patch_apply_failed\")"]"#,
                r#"output litellm_proxy/acme-1.5 sympy/sympy ["sympy__sympy-20590 Errored Some(\"agent_error\")"]"#,
            ]
        );
        let said: Vec<String> = read.diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains(":5: warning: instance django__django-11099 again"), "{said:?}");
        assert!(said[1].contains(":6: error: expected `instance_id`"), "{said:?}");
    }

    #[test]
    fn agent_output_without_a_report_and_attempt_files_are_set_aside() {
        let text = line("ponylang__ponyc-4595", r#", "error": null"#);
        let plain = Input::new(Path::new("x/output.jsonl"), text.as_bytes(), false);
        assert!(!is_evaluated(&plain));
        assert!(aside(&plain).is_some_and(|w| w.contains("without an evaluation")));
        let attempt = Input::new(Path::new("x/output.critic_attempt_1.jsonl"), text.as_bytes(), false);
        assert!(aside(&attempt).is_some_and(|w| w.contains("attempt file")));
        assert!(is_attempt_name(Path::new("output.critic_attempt_12.jsonl")));
        assert!(!is_attempt_name(Path::new("output.critic_attempt_.jsonl")));
        assert!(read(&plain).diagnostics[0].is_note());
    }
}
