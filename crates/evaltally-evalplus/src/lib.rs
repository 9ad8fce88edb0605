#![doc = include_str!("../README.md")]

mod fast;
mod format;
mod model;
mod results;
mod views;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use evaltally_core::{CategoryRun, Diagnostic, Outcome, RunMeta};

pub use format::{EVALPLUS, EvalPlus, is_results_name};
pub use model::model;
pub use views::{records, show};

/// The format name.
pub const FORMAT: &str = "evalplus";

/// The label of a sample whose base tests failed.
pub const BASE_FAIL: &str = "base_fail";
/// The label of a sample whose base tests ran out of time.
pub const BASE_TIMEOUT: &str = "base_timeout";
/// The label of a sample that passed the base tests and failed the plus tests.
pub const PLUS_FAIL: &str = "plus_fail";
/// The label of a sample that passed the base tests and ran out of time on the plus tests.
pub const PLUS_TIMEOUT: &str = "plus_timeout";

/// What one side of a sample (its base tests, or the plus tests) says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Not run: `--base-only`'s plus side (`null`, `[]`, `plus_status: null`).
    Absent,
    /// `pass` (legacy `success`).
    Pass,
    /// `fail` (legacy `failed`).
    Fail,
    /// `timeout` (legacy and the 2024-02-11 draft: `timed out`).
    Timeout,
    /// A word EvalPlus does not write, or no status where one belongs: not judged.
    Unknown,
}

impl Side {
    /// The side a status word stands for, in every vocabulary EvalPlus wrote.
    pub(crate) fn of_word(word: &str) -> Side {
        match word {
            "pass" | "success" => Side::Pass,
            "fail" | "failed" => Side::Fail,
            "timeout" | "timed out" => Side::Timeout,
            _ => Side::Unknown,
        }
    }

    /// Whether the side was judged: passed, failed or timed out.
    pub(crate) fn judged(self) -> bool {
        matches!(self, Side::Pass | Side::Fail | Side::Timeout)
    }
}

/// One sample of a task: its two sides, and what `show` and the messages need (only the
/// tolerant reader keeps those).
#[derive(Clone, Debug)]
pub(crate) struct Sample {
    pub(crate) base: Side,
    pub(crate) plus: Side,
    /// The entry could not be read at all: unscored, whatever the sides say.
    pub(crate) unreadable: bool,
    /// The program that was run (`solution`, per-sample shapes only).
    pub(crate) solution: Option<String>,
    /// The sample's verdicts as written: the per-sample record without its `task_id` and
    /// `solution`, or `{"base": [status, details], "plus": [status, details]}`.
    pub(crate) written: Option<serde_json::Value>,
}

impl Sample {
    /// A sample with these sides and nothing else kept.
    pub(crate) fn bare(base: Side, plus: Side) -> Self {
        Self { base, plus, unreadable: false, solution: None, written: None }
    }
}

/// One task (a test) and its samples, sample `i` being run `i`.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    pub(crate) id: String,
    pub(crate) samples: Vec<Sample>,
}

/// A results file as read: its tasks in natural id order, and what it says about itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct Results {
    pub(crate) tasks: Vec<Task>,
    /// `date`, written `YYYY-MM-DD HH:MM` in local time.
    pub(crate) date: Option<String>,
    /// `hash`, the md5 of the dataset file (a string since evalplus 0.1.4).
    pub(crate) hash: Option<String>,
}

impl Results {
    /// Whether the plus tests ran: some sample has a plus verdict. A file written with
    /// `--base-only` has none, and its categories are the base datasets.
    pub(crate) fn has_plus(&self) -> bool {
        self.tasks.iter().flat_map(|t| &t.samples).any(|s| !s.unreadable && s.plus.judged())
    }

    /// What the file says about its runs: when it was written, and the dataset's hash.
    pub(crate) fn meta(&self) -> Option<Arc<RunMeta>> {
        let meta = RunMeta {
            timestamp: self.date.as_deref().map(iso_date),
            prompt_sha: self.hash.clone(),
            ..RunMeta::default()
        };
        (!meta.is_empty()).then(|| Arc::new(meta))
    }
}

/// `2024-08-08 15:57` as ISO 8601 (`2024-08-08T15:57`, local time as written), so that it
/// sorts with other formats' timestamps; any other text as written.
fn iso_date(date: &str) -> String {
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() == 16 && b[4] == b'-' && b[7] == b'-' && b[10] == b' ' && b[13] == b':' && digits(0..4) && digits(11..13)
    {
        format!("{}T{}", &date[..10], &date[11..])
    } else {
        date.to_string()
    }
}

/// The verdict on one sample: the outcome, and the label of the rule that failed.
///
/// EvalPlus's rule: a sample is correct for HumanEval+ / MBPP+ when its base *and* its plus
/// tests pass, for HumanEval / MBPP (`--base-only`) when its base tests pass. A failed or
/// timed-out side fails the sample (base looked at first); a side that was not judged
/// leaves the sample unscored, unless another side already failed it.
pub(crate) fn verdict(sample: &Sample, plus: bool) -> (Outcome, Option<&'static str>) {
    if sample.unreadable {
        return (Outcome::Unscored, None);
    }
    let sides: &[(Side, [&'static str; 2])] =
        &[(sample.base, [BASE_FAIL, BASE_TIMEOUT]), (sample.plus, [PLUS_FAIL, PLUS_TIMEOUT])];
    let sides = if plus { sides } else { &sides[..1] };
    for (side, [fail, timeout]) in sides {
        match side {
            Side::Fail => return (Outcome::Fail, Some(fail)),
            Side::Timeout => return (Outcome::Fail, Some(timeout)),
            _ => {}
        }
    }
    if sides.iter().all(|(s, _)| *s == Side::Pass) { (Outcome::Pass, None) } else { (Outcome::Unscored, None) }
}

/// The category of a task: the dataset its id names (`HumanEval/0` → `HumanEval`,
/// `Mbpp/2` → `MBPP`, another `<name>/…` → `<name>`, else `EvalPlus`), with `+` when the
/// file's plus tests ran.
///
/// ```
/// assert_eq!(evaltally_evalplus::category("HumanEval/12", true), "HumanEval+");
/// assert_eq!(evaltally_evalplus::category("Mbpp/2", true), "MBPP+");
/// assert_eq!(evaltally_evalplus::category("Mbpp/2", false), "MBPP");
/// assert_eq!(evaltally_evalplus::category("task-7", false), "EvalPlus");
/// ```
pub fn category(task: &str, plus: bool) -> String {
    let dataset = match task.split_once('/').map(|(d, _)| d) {
        Some("HumanEval") => "HumanEval",
        Some("Mbpp") => "MBPP",
        Some(d) if !d.is_empty() => d,
        _ => "EvalPlus",
    };
    if plus { format!("{dataset}+") } else { dataset.to_string() }
}

/// A task key as the test id: evalplus 0.1.0's `HumanEval_12` is `HumanEval/12`, the id
/// every later version writes; any other key as written.
pub(crate) fn task_id(key: &str) -> std::borrow::Cow<'_, str> {
    for dataset in ["HumanEval_", "Mbpp_"] {
        if let Some(n) = key.strip_prefix(dataset)
            && !n.is_empty()
            && n.bytes().all(|c| c.is_ascii_digit())
        {
            return format!("{}/{n}", &dataset[..dataset.len() - 1]).into();
        }
    }
    key.into()
}

/// What a file holds, as category runs (one per sample index and category), with what was
/// tolerated.
#[derive(Debug, Default)]
pub struct Read {
    /// One category run per (sample index, category), in sample order.
    pub runs: Vec<CategoryRun>,
    /// Warnings and errors about samples that could not be judged, each counted unscored.
    pub diagnostics: Vec<Diagnostic>,
}

/// The run of sample index `index` of the file with stem `stem`: `<stem>#sample-<i>`.
pub(crate) fn run_name(stem: &str, index: usize) -> String {
    format!("{stem}#sample-{index}")
}

/// Reads an EvalPlus results file from its bytes; `path` names it and gives the model and
/// the run names. An error when the bytes are not an EvalPlus results document.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Read, Diagnostic> {
    match fast::results(bytes) {
        Some(results) => {
            let diagnostics = evaltally_format::json::repeated_key_warnings(path, bytes);
            Ok(runs_of(path, &results, diagnostics))
        }
        None => read_tolerant(path, bytes, true),
    }
}

/// [`read_bytes`] the tolerant way; `note_keys` adds a warning per key repeated in an object
/// (`validate` reports those as errors itself).
pub(crate) fn read_tolerant(path: &Path, bytes: &[u8], note_keys: bool) -> Result<Read, Diagnostic> {
    let (results, diagnostics) = results::read(path, bytes, note_keys)?;
    Ok(runs_of(path, &results, diagnostics))
}

/// One category run per (sample index, category) of what was read, in sample order.
fn runs_of(path: &Path, results: &Results, diagnostics: Vec<Diagnostic>) -> Read {
    let stem = evaltally_format::json::stem(path);
    let model = model::model(path);
    let plus = results.has_plus();
    let meta = results.meta();
    let mut runs: BTreeMap<(usize, String), CategoryRun> = BTreeMap::new();
    for task in &results.tasks {
        let cat = category(&task.id, plus);
        for (i, sample) in task.samples.iter().enumerate() {
            let run = runs.entry((i, cat.clone())).or_insert_with(|| {
                let mut c = CategoryRun::new(run_name(&stem, i), &model, &cat);
                c.sources.push(path.to_path_buf());
                c.meta.clone_from(&meta);
                c
            });
            let (outcome, label) = verdict(sample, plus);
            run.push(&task.id, outcome, label);
        }
    }
    let mut runs: Vec<CategoryRun> = runs.into_values().collect();
    for r in &mut runs {
        let scored = r.outcomes().iter().any(|o| o.is_scored());
        r.scored = scored;
    }
    Read { runs, diagnostics }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(base: Side, plus: Side) -> Sample {
        Sample::bare(base, plus)
    }

    #[test]
    fn evalplus_rule_base_and_plus_both_pass() {
        use Side::{Absent, Fail, Pass, Timeout, Unknown};
        let cases = [
            ((Pass, Pass), true, (Outcome::Pass, None)),
            ((Pass, Fail), true, (Outcome::Fail, Some(PLUS_FAIL))),
            ((Pass, Timeout), true, (Outcome::Fail, Some(PLUS_TIMEOUT))),
            ((Fail, Pass), true, (Outcome::Fail, Some(BASE_FAIL))),
            ((Fail, Timeout), true, (Outcome::Fail, Some(BASE_FAIL))),
            ((Timeout, Fail), true, (Outcome::Fail, Some(BASE_TIMEOUT))),
            ((Pass, Absent), true, (Outcome::Unscored, None)),
            ((Pass, Unknown), true, (Outcome::Unscored, None)),
            ((Unknown, Fail), true, (Outcome::Fail, Some(PLUS_FAIL))),
            ((Pass, Absent), false, (Outcome::Pass, None)),
            ((Pass, Fail), false, (Outcome::Pass, None)),
            ((Timeout, Absent), false, (Outcome::Fail, Some(BASE_TIMEOUT))),
            ((Unknown, Absent), false, (Outcome::Unscored, None)),
        ];
        for ((b, p), plus, want) in cases {
            assert_eq!(verdict(&sample(b, p), plus), want, "{b:?} {p:?} plus={plus}");
        }
        let mut broken = sample(Pass, Pass);
        broken.unreadable = true;
        assert_eq!(verdict(&broken, true), (Outcome::Unscored, None));
    }

    #[test]
    fn every_vocabulary() {
        for (word, side) in [
            ("pass", Side::Pass),
            ("success", Side::Pass),
            ("fail", Side::Fail),
            ("failed", Side::Fail),
            ("timeout", Side::Timeout),
            ("timed out", Side::Timeout),
            ("error", Side::Unknown),
            ("PASS", Side::Unknown),
        ] {
            assert_eq!(Side::of_word(word), side, "{word}");
        }
    }

    #[test]
    fn legacy_task_keys_and_dates() {
        assert_eq!(task_id("HumanEval_12"), "HumanEval/12");
        assert_eq!(task_id("Mbpp_2"), "Mbpp/2");
        assert_eq!(task_id("HumanEval/12"), "HumanEval/12");
        assert_eq!(task_id("HumanEval_x"), "HumanEval_x");
        assert_eq!(task_id("HumanEval_"), "HumanEval_");
        assert_eq!(iso_date("2024-08-08 15:57"), "2024-08-08T15:57");
        assert_eq!(iso_date("yesterday"), "yesterday");
    }
}
