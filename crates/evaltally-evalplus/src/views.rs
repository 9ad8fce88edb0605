//! A results file test by test (`export`, `convert`) and one task across its samples
//! (`show`), with messages that name the failing tests where the file lists them.

use std::collections::BTreeMap;
use std::path::Path;

use evaltally_core::{Diagnostic, Outcome, RunRecord, Status, TestDetail, TestRecord};
use serde_json::Value;

use crate::{FORMAT, Results, Sample, Side, category, model, results, run_name, verdict};

/// How much of a failing test's input a message shows.
const SHOWN_INPUT: usize = 120;

/// Every sample index of a results file as a run record (for `export` and `convert`).
pub fn records(path: &Path, bytes: &[u8]) -> Result<(Vec<RunRecord>, Vec<Diagnostic>), Diagnostic> {
    let (results, diagnostics) = results::read(path, bytes, true)?;
    let stem = evaltally_format::json::stem(path);
    let model = model(path);
    let plus = results.has_plus();
    let meta = results.meta().map(|m| (*m).clone()).unwrap_or_default();
    let mut runs: BTreeMap<usize, RunRecord> = BTreeMap::new();
    for task in &results.tasks {
        for (i, sample) in task.samples.iter().enumerate() {
            let run = runs.entry(i).or_insert_with(|| RunRecord {
                run: run_name(&stem, i),
                model: model.clone(),
                format: FORMAT.to_string(),
                source: path.to_path_buf(),
                meta: meta.clone(),
                ..RunRecord::default()
            });
            let (outcome, label) = verdict(sample, plus);
            run.tests.push(TestRecord {
                id: task.id.clone(),
                category: category(&task.id, plus),
                outcome: Some(outcome),
                error_type: label.map(str::to_string),
                error_message: message(sample, outcome, plus),
                ..TestRecord::default()
            });
        }
    }
    Ok((runs.into_values().collect(), diagnostics))
}

/// Everything a results file says about task `id`: one detail per sample, with the program
/// that was run as the answer and the sample's verdicts as written as the details.
pub fn show(path: &Path, bytes: &[u8], id: &str) -> Result<Vec<TestDetail>, Diagnostic> {
    let (results, _) = results::read(path, bytes, false)?;
    Ok(details(path, &results, id))
}

fn details(path: &Path, results: &Results, id: &str) -> Vec<TestDetail> {
    let stem = evaltally_format::json::stem(path);
    let model = model(path);
    let plus = results.has_plus();
    let Some(task) = results.tasks.iter().find(|t| t.id == id) else { return Vec::new() };
    task.samples
        .iter()
        .enumerate()
        .map(|(i, sample)| {
            let (outcome, label) = verdict(sample, plus);
            let mut d = TestDetail::new(&run_name(&stem, i), &model, &category(id, plus), id, Status::from(outcome));
            d.error_type = label.map(str::to_string);
            d.error_message = message(sample, outcome, plus);
            d.error_details.clone_from(&sample.written);
            d.answer = sample.solution.clone().map(Value::String);
            d
        })
        .collect()
}

/// What failed, or what could not be judged: each side that did not pass, with the
/// failing tests the file lists (`base: fail on input [[1, 2], 3]`); `None` for a pass.
fn message(sample: &Sample, outcome: Outcome, plus: bool) -> Option<String> {
    if outcome == Outcome::Pass {
        return None;
    }
    if sample.unreadable {
        return Some("the sample could not be read".to_string());
    }
    let sides: &[(&str, Side)] = &[("base", sample.base), ("plus", sample.plus)];
    let sides = if plus { sides } else { &sides[..1] };
    let parts: Vec<String> = sides
        .iter()
        .filter(|(_, side)| *side != Side::Pass)
        .map(|&(name, side)| side_message(name, side, sample.written.as_ref()))
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// One side that did not pass, in the file's own words.
fn side_message(name: &str, side: Side, written: Option<&Value>) -> String {
    let written = written.unwrap_or(&Value::Null);
    if side == Side::Absent {
        return format!("{name}: no verdict");
    }
    // Per-sample records: `<side>_status` and `<side>_fail_tests`, the failing inputs.
    if let Some(status) = written.get(format!("{name}_status")) {
        let word = status.as_str().map_or_else(|| status.to_string(), str::to_string);
        let inputs = written.get(format!("{name}_fail_tests")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        return match inputs {
            [] => format!("{name}: {word}"),
            [one] => format!("{name}: {word} on input {}", shown(one)),
            [first, ..] => format!("{name}: {word} on {} inputs, the first {}", inputs.len(), shown(first)),
        };
    }
    // Legacy pairs: `[status, details]`, details a 0/1 per test input that ran.
    let pair = written.get(name).and_then(Value::as_array);
    let Some(word) = pair.and_then(|p| p.first()).and_then(Value::as_str) else {
        return format!("{name}: no status");
    };
    let details = pair.and_then(|p| p.get(1)).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let failed: Vec<usize> = details
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(d, Value::Bool(false)) || d.as_i64() == Some(0))
        .map(|(i, _)| i)
        .collect();
    match (&failed[..], side) {
        ([], Side::Fail) if !details.is_empty() => {
            format!("{name}: {word} after {} passing inputs", details.len())
        }
        ([], _) => format!("{name}: {word}"),
        ([one], _) => format!("{name}: {word} on input #{one} of {}", details.len()),
        (many, _) => {
            let listed: Vec<String> = many.iter().take(5).map(|i| format!("#{i}")).collect();
            let more = if many.len() > 5 { ", …" } else { "" };
            format!("{name}: {word} on inputs {}{more} ({} of {})", listed.join(", "), many.len(), details.len())
        }
    }
}

/// A failing input as compact JSON, cut after [`SHOWN_INPUT`] characters.
fn shown(input: &Value) -> String {
    let text = input.to_string();
    match text.char_indices().nth(SHOWN_INPUT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn said(written: &Value, base: Side, plus: Side) -> Option<String> {
        let sample = Sample { written: Some(written.clone()), ..Sample::bare(base, plus) };
        message(&sample, verdict(&sample, true).0, true)
    }

    #[test]
    fn messages_name_the_failing_tests() {
        let r = json!({"base_status": "fail", "plus_status": "fail", "base_fail_tests": [[[1, 2], 3]],
                       "plus_fail_tests": [[5], [6], [7]]});
        assert_eq!(
            said(&r, Side::Fail, Side::Fail).unwrap(),
            "base: fail on input [[1,2],3]; plus: fail on 3 inputs, the first [5]"
        );
        let r = json!({"base_status": "pass", "plus_status": "timeout", "base_fail_tests": [], "plus_fail_tests": []});
        assert_eq!(said(&r, Side::Pass, Side::Timeout).unwrap(), "plus: timeout");
        let r = json!({"base_status": "pass", "plus_status": "pass"});
        assert_eq!(said(&r, Side::Pass, Side::Pass), None);
        let long = json!({"base_status": "fail", "base_fail_tests": ["x".repeat(300)], "plus_status": null});
        let m = said(&long, Side::Fail, Side::Absent).unwrap();
        assert!(m.ends_with("…; plus: no verdict") && m.chars().count() < 160, "{m}");
    }

    #[test]
    fn legacy_details_are_inputs_that_ran() {
        let r = json!({"base": ["failed", [1, 1]], "plus": ["timed out", []]});
        assert_eq!(
            said(&r, Side::Fail, Side::Timeout).unwrap(),
            "base: failed after 2 passing inputs; plus: timed out"
        );
        let r = json!({"base": ["success", [1]], "plus": ["failed", [1, 0, 1, 0]]});
        assert_eq!(said(&r, Side::Pass, Side::Fail).unwrap(), "plus: failed on inputs #1, #3 (2 of 4)");
        let r = json!({"base": ["failed", [true, false]], "plus": ["failed", []]});
        assert_eq!(said(&r, Side::Fail, Side::Fail).unwrap(), "base: failed on input #1 of 2; plus: failed");
    }
}
