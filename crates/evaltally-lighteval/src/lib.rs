#![doc = include_str!("../README.md")]

mod format;
mod pylit;
mod results;
mod samples;
mod table;
mod val;
mod views;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use evaltally_core::{CategoryRun, Diagnostic, Outcome, RunMeta};
use evaltally_format::Scoring;

pub use format::{LIGHTEVAL, Lighteval};
pub use results::Results;
pub use samples::Shape;
pub use views::{records, show};

use crate::samples::{Samples, Verdict, verdict};
use crate::table::Parquet;

/// The format name.
pub const FORMAT: &str = "lighteval";

/// The model when neither a results file nor the folders name one.
pub const UNKNOWN_MODEL: &str = "unknown";

/// (task, date) of a details file name, `details_<task>_<date>.parquet`: the task as
/// lighteval names it, `|` and `:` kept (`community|lexam-en-idk|0`,
/// `leaderboard|mmlu:abstract_algebra|5`, from 0.12.1 `gsm8k|0`), the date as lighteval
/// writes `datetime.now()` (`2025-12-12T20-36-10.749437`; the fraction is left out when it
/// is 0; the Open LLM Leaderboard's older files keep `:`). Task names hold `_`, so the date
/// is found by its form, at the end.
///
/// ```
/// use std::path::Path;
/// use evaltally_lighteval::details_name;
/// let p = Path::new("details/acme/7b/2025-12-12T20-36-10.749437/details_community|lexam-en-idk|0_2025-12-12T20-36-10.749437.parquet");
/// assert_eq!(details_name(p), Some(("community|lexam-en-idk|0".into(), "2025-12-12T20-36-10.749437".into())));
/// let p = Path::new("details_leaderboard|mmlu:high_school_us_history|5_2024-01-01T10-00-00.parquet");
/// assert_eq!(details_name(p).unwrap().0, "leaderboard|mmlu:high_school_us_history|5");
/// assert_eq!(details_name(Path::new("details_x_2025-01-01.parquet")), None);
/// ```
pub fn details_name(path: &Path) -> Option<(String, String)> {
    let name = evaltally_format::file_name(path)?.to_str()?;
    let rest = name.strip_prefix("details_")?.strip_suffix(".parquet")?;
    let (task, date) = rest.rsplit_once('_')?;
    (!task.is_empty() && is_date(date)).then(|| (task.to_string(), date.to_string()))
}

/// Whether `s` is a date as lighteval writes it in names: `YYYY-MM-DDTHH-MM-SS`, then
/// optionally `.` and digits (`:` also taken between the time's parts).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let (whole, fraction) = b.split_at(b.len().min(19));
    let digits = |r: std::ops::Range<usize>| whole.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    whole.len() == 19
        && digits(0..4)
        && whole[4] == b'-'
        && digits(5..7)
        && whole[7] == b'-'
        && digits(8..10)
        && whole[10] == b'T'
        && digits(11..13)
        && matches!(whole[13], b'-' | b':')
        && digits(14..16)
        && matches!(whole[16], b'-' | b':')
        && digits(17..19)
        && (fraction.is_empty()
            || fraction.len() > 1 && fraction[0] == b'.' && fraction[1..].iter().all(u8::is_ascii_digit))
}

/// The date as ISO 8601 (`2025-12-12T20:36:10.749437`): lighteval's local time, no zone.
fn timestamp(date: &str) -> String {
    let mut out: Vec<u8> = date.as_bytes().to_vec();
    for at in [13, 16] {
        if let Some(c) = out.get_mut(at) {
            *c = b':';
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| date.to_string())
}

/// Whether `name` is a results file's: `results_<date>.json`.
pub(crate) fn is_results_name(name: &str) -> bool {
    name.strip_prefix("results_").and_then(|r| r.strip_suffix(".json")).is_some_and(is_date)
}

/// The folders of a details file: the model's (those between the nearest `details`
/// folder and the date folder) and the output folder above `details`. `None` when no
/// folder above it is called `details`.
fn layout(path: &Path) -> Option<(PathBuf, Vec<String>)> {
    let (_, date) = details_name(path)?;
    let folder = path.parent()?;
    // The date folder holds the file; the model's folders are above it.
    let model_end =
        if folder.file_name().and_then(|n| n.to_str()) == Some(date.as_str()) { folder.parent()? } else { folder };
    let mut names: Vec<String> = Vec::new();
    let mut at = model_end;
    loop {
        let name = at.file_name()?.to_string_lossy().into_owned();
        if name == "details" && !names.is_empty() {
            names.reverse();
            return Some((at.parent().unwrap_or(Path::new("")).to_path_buf(), names));
        }
        names.push(name);
        at = at.parent()?;
    }
}

/// The model the folders of a details file name: those between the nearest `details`
/// folder and the date folder (lighteval uses the model's name as a path, so
/// `openrouter/openai/gpt-5` is three folders); without a `details` folder above it, the
/// folder above the date folder; `unknown` without either.
///
/// ```
/// use std::path::Path;
/// use evaltally_lighteval::model_from_folders;
/// let p = Path::new("out/details/openrouter/openai/gpt-5/2025-09-26T18-27-03.114623/details_t|0_2025-09-26T18-27-03.114623.parquet");
/// assert_eq!(model_from_folders(p), "openrouter/openai/gpt-5");
/// let p = Path::new("copied/gpt-5/2025-09-26T18-27-03.114623/details_t|0_2025-09-26T18-27-03.114623.parquet");
/// assert_eq!(model_from_folders(p), "gpt-5");
/// assert_eq!(model_from_folders(Path::new("details_t|0_2025-09-26T18-27-03.parquet")), "unknown");
/// ```
pub fn model_from_folders(path: &Path) -> String {
    if let Some((_, names)) = layout(path) {
        return names.join("/");
    }
    let date = details_name(path).map(|(_, d)| d);
    let folder = path.parent().filter(|f| !f.as_os_str().is_empty());
    let above = match folder {
        Some(f) if f.file_name().and_then(|n| n.to_str()) == date.as_deref() => f.parent(),
        other => other,
    };
    above
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| UNKNOWN_MODEL.to_string())
}

/// Where the results file of a details file's run may be, most likely first:
/// `<out>/results/<model>/results_<date>.json` (every version), the copy 0.1 – 0.3 also
/// wrote into `<out>/details/<model>/`, a `results_<date>.json` beside the file (in
/// `folder`, the walk's listing of its folder) or beside its date folder (a Hub dataset's
/// layout). Paths only; none need exist.
///
/// ```
/// use std::path::{Path, PathBuf};
/// use evaltally_lighteval::results_candidates;
/// let p = Path::new("out/details/acme/7b/2025-01-01T00-00-00.5/details_t|0_2025-01-01T00-00-00.5.parquet");
/// assert_eq!(results_candidates(p, &[])[0], PathBuf::from("out/results/acme/7b/results_2025-01-01T00-00-00.5.json"));
/// ```
pub fn results_candidates(path: &Path, folder: &[&str]) -> Vec<PathBuf> {
    let Some((_, date)) = details_name(path) else { return Vec::new() };
    let name = format!("results_{date}.json");
    let mut out = Vec::new();
    if let Some((root, model)) = layout(path) {
        let relative: PathBuf = model.iter().collect();
        out.push(root.join("results").join(&relative).join(&name));
        out.push(root.join("details").join(&relative).join(&name));
    }
    if folder.contains(&name.as_str()) {
        out.push(path.with_file_name(&name));
    }
    if let Some(above) = path.parent().and_then(Path::parent).filter(|_| layout(path).is_none()) {
        out.push(above.join(&name));
    }
    out
}

/// What a details file's run takes from beside it: the model, and what the results file
/// says about the task.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// The model: the results file's, else the folders' ([`model_from_folders`]).
    pub model: String,
    /// The results file, when one was found and read.
    pub results: Option<Results>,
    /// Why the results file that is there could not be read.
    pub problem: Option<String>,
    /// Where the results file was looked for.
    pub looked: Vec<PathBuf>,
}

impl Beside {
    /// The results file among `candidates` ([`results_candidates`]), read from disk.
    pub fn find(path: &Path, candidates: &[PathBuf]) -> Self {
        Self::find_with(path, candidates, |candidate| Arc::new(results::read_candidate(candidate)))
    }

    /// [`Beside::find`], each candidate results file as `read` gives it.
    pub(crate) fn find_with(
        path: &Path,
        candidates: &[PathBuf],
        read: impl Fn(&Path) -> Arc<Option<results::Candidate>>,
    ) -> Self {
        let task = details_name(path).map_or_else(String::new, |(t, _)| t);
        let (results, problem) = match Results::find_with(candidates, &task, read) {
            Ok(r) => (r, None),
            Err(e) => (None, Some(e)),
        };
        Self::with(path, results, problem, candidates.to_vec())
    }

    /// What a details file at `path` takes from `results` (read elsewhere).
    pub fn with(path: &Path, results: Option<Results>, problem: Option<String>, looked: Vec<PathBuf>) -> Self {
        let model = results.as_ref().and_then(|r| r.model.clone()).unwrap_or_else(|| model_from_folders(path));
        Self { model, results, problem, looked }
    }
}

/// What a details file holds: its run, and what was wrong with it.
#[derive(Debug, Default)]
pub struct Read {
    /// The run (none when nothing could be read).
    pub runs: Vec<CategoryRun>,
    /// Errors for what could not be read, warnings for what was read with an assumption.
    pub diagnostics: Vec<Diagnostic>,
}

/// One test as the judging metric left it.
#[derive(Clone, Debug)]
pub(crate) struct Judged {
    /// The row it was read from.
    pub(crate) row: usize,
    pub(crate) id: String,
    pub(crate) outcome: Outcome,
    /// The metric's value, as written.
    pub(crate) value: String,
}

/// A details file read and judged.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    pub(crate) task: String,
    pub(crate) date: String,
    pub(crate) metric: Option<String>,
    pub(crate) tests: Vec<Judged>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) shape: Option<Shape>,
}

/// Reads and judges a details file.
pub(crate) fn reading(path: &Path, bytes: &[u8], beside: &Beside, scoring: &Scoring) -> Reading {
    let (task, date) = details_name(path).unwrap_or_else(|| (FORMAT.to_string(), evaltally_format::json::stem(path)));
    // The results file's name for the task, where a file name wrote `__` for `|` and `:`.
    let task = beside.results.as_ref().and_then(|r| r.task.clone()).unwrap_or(task);
    let mut out = Reading { task, date, ..Reading::default() };
    if let Some(problem) = &beside.problem {
        out.diagnostics.push(Diagnostic::warning(path, format!("{problem}; the model is read from the folders")));
    }
    let samples = match Parquet::open(bytes).and_then(|p| Samples::read(&p)) {
        Ok(s) => s,
        Err(e) => {
            out.diagnostics.push(Diagnostic::error(path, format!("{e}; nothing read")));
            return out;
        }
    };
    out.shape = Some(samples.shape);
    let Some(metric) = choose_metric(path, &samples, beside, scoring, &mut out.diagnostics) else { return out };
    if let (n @ 1.., Some(first)) = &samples.repeated {
        out.diagnostics.push(Diagnostic::warning(
            path,
            format!(
                "{} repeat a `doc.id` read before (a task with several evaluation splits or few-shot seeds): read as `<id>#1`, `<id>#2`, … (first: `{first}`)",
                count(*n, "row")
            ),
        ));
    }
    let mut said = Unjudged::default();
    for (row, sample) in samples.rows.iter().enumerate() {
        let metrics = match &sample.metrics {
            Ok(m) => m,
            Err(e) => {
                said.unreadable.note(&sample.id, e);
                continue;
            }
        };
        let (outcome, value) = match verdict(metrics.get(&metric), scoring) {
            Verdict::Judged(outcome, value) => (outcome, value),
            Verdict::Fraction(value) => {
                said.fraction.note(&sample.id, &value);
                (Outcome::Unscored, value)
            }
            Verdict::NoScore(value) => {
                said.no_score.note(&sample.id, &value);
                (Outcome::Unscored, value)
            }
            Verdict::Missing => {
                said.missing.note(&sample.id, "");
                continue;
            }
        };
        out.tests.push(Judged { row, id: sample.id.clone(), outcome, value });
    }
    said.say(path, &metric, samples.shape, &mut out.diagnostics);
    out.metric = Some(metric);
    out
}

/// The metric that judges a file: `--scorer`'s, else the first the results file configures
/// for the task, else the file's first metric.
fn choose_metric(
    path: &Path,
    samples: &Samples,
    beside: &Beside,
    scoring: &Scoring,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let names = &samples.names;
    let listed = || if names.is_empty() { "none".to_string() } else { names.join(", ") };
    if let Some(wanted) = scoring.scorer.as_deref() {
        if names.iter().any(|n| n == wanted) {
            return Some(wanted.to_string());
        }
        diagnostics
            .push(Diagnostic::error(path, format!("no metric `{wanted}` (the file's: {}); nothing read", listed())));
        return None;
    }
    let Some(first) = names.first() else {
        diagnostics.push(Diagnostic::error(path, "its metrics column holds no metric; nothing read"));
        return None;
    };
    let configured = beside.results.as_ref().and_then(|r| r.first_metric.as_deref());
    match configured {
        Some(c) if names.iter().any(|n| n == c) => Some(c.to_string()),
        Some(c) => {
            diagnostics.push(Diagnostic::warning(
                path,
                format!(
                    "the results file configures `{c}` first, a metric the file does not hold (its metrics: {}): `{first}` decides; --metric chooses another",
                    listed()
                ),
            ));
            Some(first.clone())
        }
        None => {
            let why = if beside.results.is_some() {
                "the results file names no metric for the task".to_string()
            } else {
                "no results file names the task's metrics".to_string()
            };
            diagnostics.push(Diagnostic::warning(
                path,
                format!(
                    "{why}: `{first}`, the file's first metric, decides; --metric chooses another (its metrics: {})",
                    listed()
                ),
            ));
            Some(first.clone())
        }
    }
}

/// Rows that had no verdict, said once per kind per file.
#[derive(Debug, Default)]
struct Unjudged {
    fraction: Tally,
    no_score: Tally,
    missing: Tally,
    unreadable: Tally,
}

/// How many rows of a kind, and the first one's id and value.
#[derive(Debug, Default)]
struct Tally {
    count: usize,
    first: Option<(String, String)>,
}

impl Tally {
    fn note(&mut self, id: &str, value: &str) {
        self.count += 1;
        self.first.get_or_insert_with(|| (id.to_string(), value.to_string()));
    }
}

/// `1 row`, `3 rows`: `n` of `noun`, with an `s` for more than one.
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `1 sample is`, `3 samples are`: [`count`] with the verb that agrees with it.
fn count_verb(n: usize, noun: &str, one: &str, many: &str) -> String {
    format!("{} {}", count(n, noun), if n == 1 { one } else { many })
}

impl Unjudged {
    fn say(self, path: &Path, metric: &str, shape: Shape, out: &mut Vec<Diagnostic>) {
        if let (n @ 1.., Some((id, value))) = (self.fraction.count, &self.fraction.first) {
            out.push(Diagnostic::warning(
                path,
                format!(
                    "`{metric}`: {} neither 0 nor 1 (a fraction, as pass@1 over several samples, f1 or bleu give; first: sample `{id}`, {value}): unscored; --pass-threshold judges them",
                    count_verb(n, "sample", "is", "are")
                ),
            ));
        }
        if let (n @ 1.., Some((id, value))) = (self.no_score.count, &self.no_score.first) {
            out.push(Diagnostic::warning(
                path,
                format!(
                    "`{metric}`: {} no score (a NaN, a list, or a corpus metric's inputs; first: sample `{id}`, {value}): unscored",
                    count_verb(n, "sample", "has", "have")
                ),
            ));
        }
        if let (n @ 1.., Some((id, _))) = (self.missing.count, &self.missing.first) {
            out.push(Diagnostic::warning(
                path,
                format!(
                    "{} no `{metric}` (rows of the task's other metrics, or of another few-shot seed; first: sample `{id}`): left out",
                    count_verb(n, "row", "has", "have")
                ),
            ));
        }
        if let (n @ 1.., Some((id, why))) = (self.unreadable.count, &self.unreadable.first) {
            let column = shape.metrics_column();
            out.push(Diagnostic::error(
                path,
                format!("{}: `{column}` is not a Python dict (first: sample `{id}`: {why}): left out", count(n, "row")),
            ));
        }
    }
}

/// The run's metadata: when it ran (the date), the lighteval commit and the digest of the
/// task's examples, which two runs of one test set share.
pub(crate) fn meta(date: &str, beside: &Beside) -> RunMeta {
    let results = beside.results.as_ref();
    RunMeta {
        timestamp: is_date(date).then(|| timestamp(date)),
        version: results.and_then(|r| r.lighteval_sha.clone()),
        test_set: results.and_then(|r| r.hash_examples.clone()),
        ..RunMeta::default()
    }
}

/// Reads a details file's bytes as a run; `beside` gives the model and the task's metrics,
/// `scoring` the metric (`--scorer`) and the pass threshold. The run is named after the
/// date, its category is the task.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"),
///     "/../../testdata/lighteval/details/acme/tiny-7b/2025-10-01T09-00-00.000001/details_custom|arith|0_2025-10-01T09-00-00.000001.parquet"))?;
/// let path = std::path::Path::new("details/acme/tiny-7b/2025-10-01T09-00-00.000001/details_custom|arith|0_2025-10-01T09-00-00.000001.parquet");
/// let beside = evaltally_lighteval::Beside::with(path, None, None, Vec::new());
/// let read = evaltally_lighteval::read_with(path, &bytes, &beside, &Default::default());
/// let run = &read.runs[0];
/// assert_eq!((run.run.as_str(), run.model.as_str(), run.category.as_str()), ("2025-10-01T09-00-00.000001", "acme/tiny-7b", "custom|arith|0"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_with(path: &Path, bytes: &[u8], beside: &Beside, scoring: &Scoring) -> Read {
    let r = reading(path, bytes, beside, scoring);
    let mut run = CategoryRun::new(&r.date, &beside.model, &r.task);
    run.sources.push(path.to_path_buf());
    run.reserve(r.tests.len(), r.tests.iter().map(|t| t.id.len()).sum());
    let label = r.metric.as_deref().map(|m| scoring.fail_label(m));
    for t in &r.tests {
        let error = (t.outcome == Outcome::Fail).then_some(label.as_deref()).flatten();
        run.push(&t.id, t.outcome, error);
    }
    run.meta = Some(Arc::new(meta(&r.date, beside)));
    Read { runs: (!run.is_empty()).then_some(run).into_iter().collect(), diagnostics: r.diagnostics }
}
