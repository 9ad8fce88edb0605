//! The trend report: text ([`text`]), Markdown ([`markdown`]) and JSON ([`json`]).

use std::fmt::Write as _;

use evaltally_analyzer::trend::{ModelTrend, TestTrend, TrendReport, TrendRun, TrendStatus};
use evaltally_core::Diagnostic;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::{markdown_code, markdown_text, printable};
use serde::Serialize;

use crate::{Style, width_of};

/// A test's scored outcomes as gstack draws them: `✓` passed, `✗` failed, `·` a run that
/// did not score it.
///
/// ```
/// use evaltally_analyzer::trend::{Streak, TestTrend, TrendStatus};
/// let t = TestTrend {
///     id: "login".into(), category: "auth".into(), outcomes: vec![Some(true), None, Some(false)],
///     rate: 0.5, flips: 1, streak: Streak { passed: false, length: 1 }, status: TrendStatus::Flaky,
/// };
/// assert_eq!(evaltally_report::trend::sparkline(&t), "✓·✗");
/// ```
pub fn sparkline(test: &TestTrend) -> String {
    test.outcomes
        .iter()
        .map(|o| match o {
            Some(true) => '✓',
            Some(false) => '✗',
            None => '·',
        })
        .collect()
}

fn streak(test: &TestTrend) -> String {
    format!("{}{}", test.streak.length, if test.streak.passed { '✓' } else { '✗' })
}

fn painted(style: Style, status: TrendStatus) -> String {
    let s = status.as_str();
    match status {
        TrendStatus::Degrading | TrendStatus::StableFail => style.red(s),
        TrendStatus::Flaky => style.yellow(s),
        TrendStatus::Improving | TrendStatus::StablePass => style.green(s),
    }
}

/// When a run ran, as shown: its timestamp as written, else `-`.
fn when(run: &TrendRun) -> String {
    run.meta.timestamp.as_deref().map_or_else(|| "-".to_string(), |t| printable(t).into_owned())
}

/// The runs looked at, in one line: how many, their span in time, and the first and last.
fn runs_line(model: &ModelTrend) -> String {
    let n = model.runs.len();
    let (Some(first), Some(last)) = (model.runs.first(), model.runs.last()) else {
        return "no runs".to_string();
    };
    let of = if model.runs_found > n { format!(" (the last {n} of {})", model.runs_found) } else { String::new() };
    let timed = model.runs.iter().any(|r| r.meta.timestamp.is_some());
    let span = match (n, timed) {
        (1, true) => format!("{} at {}", printable(&first.name), when(first)),
        (1, false) => printable(&first.name).into_owned(),
        (_, true) => {
            format!("{} at {} … {} at {}", printable(&first.name), when(first), printable(&last.name), when(last))
        }
        (_, false) => format!("{} … {} (no timestamps: in name order)", printable(&first.name), printable(&last.name)),
    };
    format!("{} run{}{of}: {span}", n, if n == 1 { "" } else { "s" })
}

fn footer(model: &ModelTrend) -> String {
    let n = model.tests.len();
    format!(
        "{n} test{} tracked | {} flaky | {} degrading | {} improving",
        if n == 1 { "" } else { "s" },
        model.count(TrendStatus::Flaky),
        model.count(TrendStatus::Degrading),
        model.count(TrendStatus::Improving)
    )
}

/// The tests of `model` to list, those that moved first (degrading, improving, flaky, in
/// that order, each in the report's order), then, with `every`, the stable ones; and the
/// line that counts the stable tests left out (`None` when none is).
fn listed(model: &ModelTrend, every: bool) -> (Vec<&TestTrend>, Option<String>) {
    let rank = |s: TrendStatus| match s {
        TrendStatus::Degrading => 0,
        TrendStatus::Improving => 1,
        TrendStatus::Flaky => 2,
        TrendStatus::StableFail => 3,
        TrendStatus::StablePass => 4,
    };
    let mut tests: Vec<&TestTrend> = model.tests.iter().collect();
    tests.sort_by_key(|t| rank(t.status));
    if every {
        return (tests, None);
    }
    let moved = tests.iter().take_while(|t| rank(t.status) < 3).count();
    let (pass, fail) = (model.count(TrendStatus::StablePass), model.count(TrendStatus::StableFail));
    tests.truncate(moved);
    let counts: Vec<String> = [(pass, "stable-pass"), (fail, "stable-fail")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    let left = (!counts.is_empty()).then(|| {
        let what = if moved == 0 { "no test moved: " } else { "and " };
        let tests = if pass + fail == 1 { "test" } else { "tests" };
        format!("{what}{} {tests} (`--all` lists them)", counts.join(" and "))
    });
    (tests, left)
}

/// The report as text: per model, its runs and how many tests moved, then one line per
/// test that moved with its rate, sparkline, streak and status, oldest run on the left;
/// the stable tests are counted, and listed too with `every`.
pub fn text(report: &TrendReport, style: Style, every: bool) -> String {
    let mut out = String::new();
    // No model ran twice (a leaderboard's folder of one run each): said once, a line per
    // model, not a block per model saying nothing moved.
    if !every && !report.models.is_empty() && report.models.iter().all(|m| m.runs.len() < 2) {
        let _ = writeln!(
            out,
            "no trend: no model ran twice, and a test moves only across runs (`evaltally stability` counts each run)\n"
        );
        for model in &report.models {
            let _ = writeln!(
                out,
                "  {}: {}, {}",
                printable(&model.model),
                runs_line(model),
                crate::plural(model.tests.len(), "test")
            );
        }
        return out;
    }
    for (i, model) in report.models.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}: {}", style.bold(&printable(&model.model)), runs_line(model));
        if model.tests.is_empty() {
            let _ = writeln!(out, "\n  no tests to show");
            continue;
        }
        let _ = writeln!(out, "  {}", footer(model));
        let (tests, left) = listed(model, every);
        if tests.is_empty() {
            if let Some(left) = left {
                let _ = writeln!(out, "\n  {left}");
            }
            continue;
        }
        let id_w = tests.iter().map(|t| width_of(&t.id)).max().unwrap_or(0).max("test".len());
        let cat_w = tests.iter().map(|t| width_of(&t.category)).max().unwrap_or(0).max("category".len());
        let spark_w =
            model.runs.len().max("last".len() + 1 + model.runs.len().to_string().len()).min(crate::MAX_COLUMN);
        let last = format!("last {}", model.runs.len());
        let _ = writeln!(
            out,
            "\n  {:<id_w$}  {:<cat_w$}  {:>5}  {:<spark_w$}  {:>6}  status",
            "test", "category", "rate", last, "streak"
        );
        for t in &tests {
            let (id, cat) = (printable(&t.id), printable(&t.category));
            let pad = |s: &str, w: usize| " ".repeat(w.saturating_sub(s.chars().count()));
            let spark = sparkline(t);
            let _ = writeln!(
                out,
                "  {id}{}  {cat}{}  {:>4.0}%  {spark}{}  {:>6}  {}",
                pad(&id, id_w),
                pad(&cat, cat_w),
                t.rate * 100.0,
                pad(&spark, spark_w),
                streak(t),
                painted(style, t.status)
            );
        }
        if let Some(left) = left {
            let _ = writeln!(out, "  {left}");
        }
    }
    out
}

/// The report as Markdown, fit for a CI job summary: as [`text`], the tests that moved,
/// and the stable ones too with `every`.
pub fn markdown(report: &TrendReport, diagnostics: &[Diagnostic], every: bool) -> String {
    let mut out = String::from("# evaltally trend\n");
    for model in &report.models {
        let _ = writeln!(out, "\n## {}\n", markdown_text(&model.model));
        let _ = writeln!(out, "{}\n", markdown_text(&runs_line(model)));
        if model.tests.is_empty() {
            out.push_str("No tests to show.\n");
            continue;
        }
        let _ = writeln!(out, "{}.\n", footer(model));
        let (tests, left) = listed(model, every);
        if tests.is_empty() {
            if let Some(left) = left {
                // Numbers and words of ours alone: written as it is, its code span kept.
                let _ = writeln!(out, "{left}.");
            }
            continue;
        }
        out.push_str("| test | category | rate | last runs | streak | status |\n");
        out.push_str("|---|---|---:|---|---:|---|\n");
        for t in &tests {
            let _ = writeln!(
                out,
                "| {} | {} | {:.0}% | {} | {} | {} |",
                markdown_code(&t.id, true),
                markdown_text(&t.category),
                t.rate * 100.0,
                sparkline(t),
                streak(t),
                t.status.as_str()
            );
        }
        if let Some(left) = left {
            let _ = writeln!(out, "\n{left}.");
        }
    }
    crate::diagnostics_markdown(&mut out, diagnostics);
    out
}

/// The identifier of [`Document`], `evaltally.trend/1`.
pub const SCHEMA: SchemaId = SchemaId::new("trend", 1);

/// The JSON document `evaltally trend --format json` prints: per model and test, its
/// outcomes over time, its pass rate, flips, streak and status.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// Per-model trend: the runs looked at (name and metadata, oldest first) and per test
    /// its outcomes in run order (`true`, `false`, `null` for a run that did not score it),
    /// rate, flips, streak and status.
    pub models: &'a [ModelTrend],
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(report: &TrendReport, diagnostics: &[Diagnostic]) -> String {
    let doc = Document { schema: SCHEMA, models: &report.models, diagnostics: crate::Listed::of(diagnostics) };
    crate::pretty_json(&doc)
}
