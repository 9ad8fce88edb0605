//! EvalPlus as a format of the reading pipeline: a file under one of the names EvalPlus
//! writes whose `eval` maps a task id to its samples.

use std::path::Path;

use evaltally_format::check::Level;
use evaltally_format::scan::{ScanError, array_at, object_at, object_at_with};
use evaltally_format::{Claim, FileValidation, Format, Input, Options, Read, Records, Resemblance, Shown};

use evaltally_core::{Diagnostic, Finding};

use crate::{read_bytes, read_tolerant};

/// EvalPlus results files.
#[derive(Debug, Clone, Copy, Default)]
pub struct EvalPlus;

/// The one value of [`EvalPlus`], for the registry.
pub static EVALPLUS: EvalPlus = EvalPlus;

/// Whether a file name is one EvalPlus gives its results: `eval_results.json` (samples given
/// as a folder), `<samples>_eval_results.json` (from `<samples>.jsonl`, evalplus 0.1.3 on) or
/// `<samples>.eval_results.json` (git master since 2025-01-06).
///
/// ```
/// use std::path::Path;
/// use evaltally_evalplus::is_results_name;
/// assert!(is_results_name(Path::new("r/eval_results.json")));
/// assert!(is_results_name(Path::new("r/acme_vllm_temp_0.0_eval_results.json")));
/// assert!(is_results_name(Path::new("acme_vllm_temp_0.0.eval_results.json")));
/// assert!(!is_results_name(Path::new("r/samples_eval_results.json.bak")));
/// assert!(!is_results_name(Path::new("r/acme_evalperf_results.json")));
/// assert!(!is_results_name(Path::new("r/my-eval_results.json")));
/// ```
pub fn is_results_name(path: &Path) -> bool {
    const NAME: &[u8] = b"eval_results.json";
    let bytes = path.as_os_str().as_encoded_bytes();
    let Some(before) = bytes.strip_suffix(NAME) else { return false };
    match before.last() {
        None => true,
        Some(&c) if std::path::is_separator(char::from(c)) => true,
        Some(b'_' | b'.') => before.len() > 1 && !std::path::is_separator(char::from(before[before.len() - 2])),
        Some(_) => false,
    }
}

/// Whether the raw `eval` member is an object whose first task holds EvalPlus samples: a
/// list whose first entry has `base_status`, or an object with `base` (scanned, nothing built).
fn holds_samples(eval: &[u8]) -> bool {
    let mut answer = false;
    let _ = object_at_with(eval, 0, |_, at| {
        answer = match eval.get(at) {
            Some(b'[') => {
                let mut first = None;
                let _ = array_at(eval, at, |i| {
                    first = Some(i);
                    Err(ScanError { offset: i, message: "the first entry only" })
                });
                first.is_some_and(|i| has_key(eval, i, b"base_status"))
            }
            Some(b'{') => has_key(eval, at, b"base"),
            _ => false,
        };
        // The first task decides; the error only stops the walk.
        Err(ScanError { offset: at, message: "the first task only" })
    });
    answer
}

/// Whether `b[at]` starts a whole object with member `key`.
fn has_key(b: &[u8], at: usize, key: &[u8]) -> bool {
    let mut found = false;
    object_at(b, at, |k, _| found |= &b[k] == key).is_ok() && found
}

/// The keys `evalplus.evaluate` writes, every version (`evalplus/evaluate.py`): the document
/// (`extra_input_hash` in v0.1.0, `pass_at_k` since 2024-10), a task's record before 0.2.1
/// (`{files | nfiles, base, plus}`) and each sample's since. The task ids are not checked.
const KEYS: &[Level] = &[
    Level { at: "$", known: &["date", "hash", "eval", "extra_input_hash", "pass_at_k"], what: "EvalPlus's results" },
    Level { at: "$.eval.*", known: &["files", "nfiles", "base", "plus"], what: "an EvalPlus task (before 0.2.1)" },
    Level {
        at: "$.eval.*[*]",
        known: &["task_id", "solution", "base_status", "plus_status", "base_fail_tests", "plus_fail_tests"],
        what: "an EvalPlus sample",
    },
];

impl Format for EvalPlus {
    fn name(&self) -> &'static str {
        crate::FORMAT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["humaneval-plus", "mbpp-plus"]
    }

    fn describe(&self) -> &'static str {
        "  EvalPlus results (`<samples>_eval_results.json`, `<samples>.eval_results.json`, `eval_results.json`: {date, hash, eval: {task id: samples}}); each sample index is a run"
    }

    fn noun(&self) -> &'static str {
        "EvalPlus results"
    }

    fn claim(&self, path: &Path) -> Claim {
        if is_results_name(path) { Claim::Sniff } else { Claim::No }
    }

    /// An object whose `eval` holds EvalPlus samples (found with the pipeline's scanner); or a
    /// document with the header EvalPlus writes before `eval` (`date`, `hash`) that is cut
    /// short or damaged after it, in `eval` or beyond, whose reader then says where it breaks.
    fn sniff(&self, file: &Input<'_>, _options: &Options) -> bool {
        let header = || file.has_before("eval", &["date", "hash", "extra_input_hash"]);
        match file.json_members() {
            Some(_) => file.json("eval").is_some_and(holds_samples) || header(),
            None => header(),
        }
    }

    fn read(&self, file: &Input<'_>, _options: &Options) -> Read {
        read_bytes(file.path, file.bytes).map(|read| (read.runs, read.diagnostics)).into()
    }

    /// A document under an EvalPlus name with its header but no `eval`.
    fn resemblance(&self, file: &Input<'_>) -> Option<Resemblance> {
        Resemblance::of_keys(file, &["date", "hash", "pass_at_k"], &["eval"])
    }

    fn records(&self, file: &Input<'_>, _options: &Options) -> Records {
        crate::records(file.path, file.bytes).into()
    }

    fn show(&self, file: &Input<'_>, test: &str, _options: &Options) -> Shown {
        crate::show(file.path, file.bytes, test).into()
    }

    /// What the reader refused or tolerated, and every key repeated in an object (errors).
    fn validate(&self, file: &Input<'_>, _options: &Options) -> Vec<FileValidation> {
        let finding = |d: Diagnostic| Finding::from_diagnostic(d, "$");
        let mut findings = evaltally_format::json::repeated_key_findings(file.bytes);
        match read_tolerant(file.path, file.bytes, false) {
            Ok(read) => {
                findings.extend(read.diagnostics.into_iter().map(finding));
                findings.extend(evaltally_format::check::unknown_key_findings(file.bytes, KEYS));
            }
            Err(d) => findings = vec![finding(d)],
        }
        vec![FileValidation::new(file.path, crate::FORMAT, findings)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniffs(doc: &str) -> bool {
        EVALPLUS.sniff(&Input::new(Path::new("eval_results.json"), doc.as_bytes(), false), &Options::default())
    }

    #[test]
    fn sniffs_every_shape_and_nothing_else() {
        assert!(sniffs(
            r#"{"date": "d", "eval": {"HumanEval/0": [{"task_id": "HumanEval/0", "base_status": "pass"}]}}"#
        ));
        assert!(sniffs(
            r#"{"eval": {"HumanEval/0": {"nfiles": 1, "base": [["success", []]], "plus": []}}, "hash": "h"}"#
        ));
        assert!(sniffs(r#"{"eval": {"HumanEval_0": {"files": [], "base": [], "plus": null}}}"#));
        // EvalPerf's results, Hugging Face's eval_results.json, damaged or empty documents.
        assert!(!sniffs(r#"{"eval": {"HumanEval/0": {"task_id": "HumanEval/0", "results": [], "dps": 1}}}"#));
        assert!(!sniffs(r#"{"eval_loss": 0.4, "epoch": 3.0}"#));
        assert!(!sniffs(r#"{"eval": {}}"#));
        assert!(!sniffs(r#"{"eval": {"HumanEval/0": []}}"#));
        assert!(!sniffs(r#"{"eval": {"HumanEval/0": [{"task_id": "HumanEval/0"}]}}"#));
        assert!(!sniffs(r#"{"eval": {"HumanEval/0": [{"base_status": "pass"}]"#));
        assert!(!sniffs("[1, 2]"));
        // Cut short after EvalPlus's header: its reader says where.
        assert!(sniffs(r#"{"date": "2024-08-08 15:57", "hash": "ee", "eval": {"HumanEval/0": [{"task_id": "Hum"#));
        assert!(!sniffs(r#"{"eval": {"HumanEval/0": [{"task_id": "Hum"#));
    }

    #[test]
    fn claims_only_the_names_evalplus_writes() {
        for (name, claimed) in [
            ("eval_results.json", true),
            ("x/_eval_results.json", false),
            ("x/a_eval_results.json", true),
            ("x/a.eval_results.json", true),
            ("x/.eval_results.json", false),
            ("x/aeval_results.json", false),
            ("x/a_eval_results.json.bak", false),
            ("x/1.json", false),
            ("x/a_Eval_Results.json", false),
        ] {
            assert_eq!(EVALPLUS.claim(Path::new(name)) == Claim::Sniff, claimed, "{name}");
        }
    }
}
