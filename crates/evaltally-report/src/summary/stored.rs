//! Runs a PostgreSQL store holds, summarised from their stored rows: counts overall and
//! per category, and token, duration and cost totals over the tests beside what the run
//! itself records. The report files are not stored, so their own summary fields, patches
//! and logs are not checked here (`summary FILE` on a pushed file does that).
//!
//! ```
//! use evaltally_core::{Outcome, RunRecord, TestRecord};
//! use evaltally_report::summary::stored;
//!
//! let test = |id: &str, outcome| TestRecord {
//!     id: id.into(),
//!     category: "suite".into(),
//!     outcome: Some(outcome),
//!     ..TestRecord::default()
//! };
//! let run = RunRecord {
//!     run: "night-1".into(),
//!     model: "model-a".into(),
//!     format: "gstack".into(),
//!     tests: vec![test("t1", Outcome::Pass), test("t2", Outcome::Fail)],
//!     ..RunRecord::default()
//! };
//! let text = stored::text(&[run]);
//! assert!(text.contains("2 tests: 1 passed, 1 failed, 0 errored, 0 unscored, 0 not run"));
//! assert!(text.contains("pass rate  50.0% of 2 judged"));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use evaltally_core::schema::{SchemaId, SortedKeys};
use evaltally_core::text::printable;
use evaltally_core::{Outcome, RunRecord};
use serde::Serialize;

/// The identifier of [`Document`], `evaltally.summary-runs/1`.
pub const SCHEMA: SchemaId = SchemaId::new("summary-runs", 1);

/// The per-category table's columns after the category, in text and Markdown alike.
const COLUMNS: [&str; 7] = ["tests", "passed", "failed", "errored", "unscored", "not run", "rate"];

/// Counts of one run, or one of its categories.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    tests: usize,
    passed: usize,
    failed: usize,
    errored: usize,
    unscored: usize,
    not_run: usize,
}

impl Tally {
    fn add(&mut self, outcome: Option<Outcome>) {
        self.tests += 1;
        match outcome {
            Some(Outcome::Pass) => self.passed += 1,
            Some(Outcome::Fail) => self.failed += 1,
            Some(Outcome::Errored) => self.errored += 1,
            Some(Outcome::Unscored) => self.unscored += 1,
            None => self.not_run += 1,
        }
    }

    /// The pass rate over judged tests (passed or failed), in percent.
    fn rate(self) -> Option<f64> {
        let judged = self.passed + self.failed;
        (judged > 0).then(|| 100.0 * self.passed as f64 / judged as f64)
    }

    /// The table cells after the category, in the order of [`COLUMNS`].
    fn cells(self) -> [String; 7] {
        let n = [self.tests, self.passed, self.failed, self.errored, self.unscored, self.not_run];
        let [a, b, c, d, e, f] = n.map(|v| v.to_string());
        [a, b, c, d, e, f, percent(self.rate())]
    }

    fn document(self) -> Counts {
        Counts {
            tests: self.tests,
            passed: self.passed,
            failed: self.failed,
            errored: self.errored,
            unscored: self.unscored,
            not_run: self.not_run,
            pass_rate: self.rate(),
        }
    }
}

/// The JSON document `evaltally summary --format json` prints for runs of a PostgreSQL
/// store (`summary store:…`): per run, its counts overall and per category, and totals
/// over its tests beside what the run records. Its keys are written sorted, the `schema`
/// key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// One entry per run, in the order given.
    pub runs: Vec<RunDocument<'a>>,
}

/// One stored run, summarised from its rows.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunDocument<'a> {
    /// The run.
    pub run: &'a str,
    /// The model.
    pub model: &'a str,
    /// The format it was read from.
    pub format: &'a str,
    /// Where it was pushed from.
    pub source: String,
    /// When it ran, as it records it.
    pub timestamp: Option<&'a str>,
    /// Its git branch, as it records it.
    pub git_branch: Option<&'a str>,
    /// Its git commit, as it records it.
    pub git_sha: Option<&'a str>,
    /// Its tests counted by outcome.
    pub counts: Counts,
    /// The same counts per category, by name.
    pub categories: BTreeMap<&'a str, Counts>,
    /// Input tokens over its tests (`null` when none records them).
    pub input_tokens: Option<u64>,
    /// Output tokens over its tests (`null` when none records them).
    pub output_tokens: Option<u64>,
    /// Seconds over its tests, and as the run records them.
    pub duration_seconds: Totals,
    /// Dollars over its tests, and as the run records them.
    pub cost_usd: Totals,
}

/// Tests counted by outcome.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Counts {
    /// Tests.
    pub tests: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Errored.
    pub errored: usize,
    /// Run, not scored.
    pub unscored: usize,
    /// Listed, not run.
    pub not_run: usize,
    /// Percent passed of those passed or failed (`null` when none were).
    pub pass_rate: Option<f64>,
}

/// A total summed over a run's tests, beside the one the run itself records.
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Totals {
    /// Summed over the tests (`null` when none records it).
    pub tests: Option<f64>,
    /// As the run records it (`null` when it does not).
    pub run: Option<f64>,
}

/// What the store's rows say of one run: counts overall and per category, and totals over
/// its tests beside the run's own.
struct RunSummary<'a> {
    run: &'a RunRecord,
    all: Tally,
    categories: BTreeMap<&'a str, Tally>,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    duration_seconds: Option<f64>,
    cost_usd: Option<f64>,
}

impl<'a> RunSummary<'a> {
    fn of(run: &'a RunRecord) -> Self {
        let mut s = Self {
            run,
            all: Tally::default(),
            categories: BTreeMap::new(),
            input_tokens: None,
            output_tokens: None,
            duration_seconds: None,
            cost_usd: None,
        };
        let add_u = |sum: &mut Option<u64>, v: Option<u64>| {
            if let Some(v) = v {
                *sum = Some(sum.unwrap_or(0).saturating_add(v));
            }
        };
        let add_f = |sum: &mut Option<f64>, v: Option<f64>| {
            if let Some(v) = v {
                *sum = Some(sum.unwrap_or(0.0) + v);
            }
        };
        for t in &run.tests {
            s.all.add(t.outcome);
            s.categories.entry(t.category.as_str()).or_default().add(t.outcome);
            add_u(&mut s.input_tokens, t.input_tokens);
            add_u(&mut s.output_tokens, t.output_tokens);
            add_f(&mut s.duration_seconds, t.duration_ms.map(|ms| ms / 1000.0));
            add_f(&mut s.cost_usd, t.cost_usd);
        }
        s
    }
}

fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".into(), |r| format!("{r:.1}%"))
}

fn of(runs: &[RunRecord]) -> Vec<RunSummary<'_>> {
    runs.iter().map(RunSummary::of).collect()
}

fn counts_line(t: Tally) -> String {
    format!(
        "{} tests: {} passed, {} failed, {} errored, {} unscored, {} not run",
        t.tests, t.passed, t.failed, t.errored, t.unscored, t.not_run
    )
}

/// The runs as text: a block per run, then a line that says where the counts come from.
pub fn text(runs: &[RunRecord]) -> String {
    let summaries = of(runs);
    let mut out = String::new();
    for s in &summaries {
        let r = s.run;
        let _ = writeln!(
            out,
            "store:{} ({}): model {}, pushed from {}",
            printable(&r.run),
            printable(&r.format),
            printable(&r.model),
            printable(&r.source.to_string_lossy())
        );
        let when: Vec<String> = [("at", &r.meta.timestamp), ("branch", &r.meta.git_branch), ("sha", &r.meta.git_sha)]
            .iter()
            .filter_map(|(k, v)| v.as_deref().map(|v| format!("{k} {}", printable(v))))
            .collect();
        if !when.is_empty() {
            let _ = writeln!(out, "  ran        {}", when.join(", "));
        }
        let _ = writeln!(out, "  tests      {}", counts_line(s.all));
        let _ = writeln!(out, "  pass rate  {} of {} judged", percent(s.all.rate()), s.all.passed + s.all.failed);
        if let (Some(i), Some(o)) = (s.input_tokens, s.output_tokens) {
            let _ = writeln!(out, "  tokens     {i} in, {o} out");
        }
        let mut total = |what: &str, tests: Option<f64>, run: Option<f64>, unit: &dyn Fn(f64) -> String| {
            let line = match (tests, run) {
                (None, None) => return,
                (Some(t), None) => format!("{} over its tests", unit(t)),
                (None, Some(r)) => format!("{} as the run records it (its tests record none)", unit(r)),
                (Some(t), Some(r)) if (t - r).abs() <= 1e-9_f64.max(r.abs() * 1e-6) => {
                    format!("{} over its tests, as the run records it", unit(t))
                }
                (Some(t), Some(r)) => format!("{} over its tests; the run records {}", unit(t), unit(r)),
            };
            let _ = writeln!(out, "  {what:<10} {line}");
        };
        total("duration", s.duration_seconds, r.meta.duration_seconds, &|v| format!("{v:.1} s"));
        total("cost", s.cost_usd, r.meta.total_cost_usd, &|v| format!("${v:.4}"));
        let row = |out: &mut String, c: &str, [a, b, d, e, f, g, h]: [&str; 7]| {
            let _ = writeln!(out, "  {c:<24} {a:>6} {b:>7} {d:>7} {e:>8} {f:>9} {g:>8} {h:>7}");
        };
        out.push('\n');
        row(&mut out, "category", COLUMNS);
        for (c, t) in &s.categories {
            row(&mut out, &printable(c), t.cells().each_ref().map(String::as_str));
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} stored run{}; recomputed from the store's rows (a report's own summary fields, patches and logs are \
         not stored: `summary FILE` on the pushed file checks those)",
        summaries.len(),
        if summaries.len() == 1 { "" } else { "s" }
    );
    out
}

/// The runs as one JSON document ([`Document`]), with the counts of every category.
pub fn json(runs: &[RunRecord]) -> String {
    let summaries = of(runs);
    let runs = summaries
        .iter()
        .map(|s| {
            let r = s.run;
            RunDocument {
                run: &r.run,
                model: &r.model,
                format: &r.format,
                source: r.source.to_string_lossy().into_owned(),
                timestamp: r.meta.timestamp.as_deref(),
                git_branch: r.meta.git_branch.as_deref(),
                git_sha: r.meta.git_sha.as_deref(),
                counts: s.all.document(),
                categories: s.categories.iter().map(|(c, t)| (*c, t.document())).collect(),
                input_tokens: s.input_tokens,
                output_tokens: s.output_tokens,
                duration_seconds: Totals { tests: s.duration_seconds, run: r.meta.duration_seconds },
                cost_usd: Totals { tests: s.cost_usd, run: r.meta.total_cost_usd },
            }
        })
        .collect();
    crate::json::pretty_json(&SortedKeys(Document { schema: SCHEMA, runs }))
}

/// The runs as Markdown: a heading and a table of categories per run.
pub fn markdown(runs: &[RunRecord]) -> String {
    let summaries = of(runs);
    let cell = |s: &str| printable(s).replace('|', "\\|");
    let mut out = String::new();
    for s in &summaries {
        let r = s.run;
        let _ = writeln!(out, "### {} ({}, {})\n", cell(&r.run), cell(&r.model), cell(&r.format));
        let _ = writeln!(out, "{}; pass rate {}.\n", counts_line(s.all), percent(s.all.rate()));
        let _ = writeln!(out, "| category | {} |", COLUMNS.join(" | "));
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for (c, t) in &s.categories {
            let _ = writeln!(out, "| {} | {} |", cell(c), t.cells().join(" | "));
        }
        out.push('\n');
    }
    out
}
