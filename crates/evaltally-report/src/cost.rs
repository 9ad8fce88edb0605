//! The cost report: text ([`text`]), Markdown ([`markdown`]) and JSON ([`json`]).

use std::fmt::Write as _;

use evaltally_analyzer::cost::{CostSource, ModelCostSummary, RunCost, by_model};
use evaltally_core::schema::SchemaId;
use evaltally_core::text::{markdown_text, printable};
use evaltally_core::{Diagnostic, ModelCost};
use serde::Serialize;

use crate::{Style, width_of};

fn count(n: Option<u64>) -> String {
    n.map_or_else(|| "-".to_string(), crate::thousands)
}

fn dollars(c: Option<f64>) -> String {
    c.map_or_else(|| "-".to_string(), |c| format!("${c:.4}"))
}

/// Where the figures come from, in words.
fn from(run: &RunCost) -> &'static str {
    match run.source {
        CostSource::Declared => "from the run's own accounting",
        CostSource::Tests => "summed over its tests",
        CostSource::None => "",
    }
}

/// The report as text: one row per model (its runs' tokens and dollars added up, dollars a
/// run and per passed test), then a line for each model whose runs record a cost only in
/// part; with `detail`, first each run's table of the models it called (gstack's `Cost
/// Breakdown`) and where its figures come from.
///
/// ```
/// use evaltally_analyzer::cost::run_cost;
/// use evaltally_core::{RunRecord, TestRecord};
/// let mut run = RunRecord { run: "r".into(), model: "m".into(), format: "bfcl".into(), ..Default::default() };
/// run.tests.push(TestRecord { id: "a".into(), input_tokens: Some(1200), ..Default::default() });
/// let text = evaltally_report::cost::text(&[run_cost(&run)], evaltally_report::Style::plain(), false);
/// assert!(text.starts_with("model  runs  in tokens  out tokens  cost  per run  passed  per passed test\n"));
/// assert!(text.contains("\nm         1      1,200           -     -        -       -                -\n"));
/// assert!(text.contains("no run records a cost in dollars"));
/// ```
pub fn text(runs: &[RunCost], style: Style, detail: bool) -> String {
    let mut out = String::new();
    if detail {
        for (i, run) in runs.iter().enumerate() {
            if i > 0 && run.source != CostSource::None {
                out.push('\n');
            }
            run_text(&mut out, run, style);
        }
        out.push('\n');
    }
    let summary = by_model(runs);
    let rows: Vec<[String; 8]> = summary.iter().map(model_row).collect();
    let head = ["model", "runs", "in tokens", "out tokens", "cost", "per run", "passed", "per passed test"];
    let mut w: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(width_of(c));
        }
    }
    let line = |cells: [&str; 8]| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i == 0 {
                let pad = w[0].saturating_sub(width_of(c));
                l.push_str(c);
                l.push_str(&" ".repeat(pad));
            } else {
                let _ = write!(l, "  {c:>width$}", width = w[i]);
            }
        }
        l
    };
    let _ = writeln!(out, "{}", style.bold(&line(head)));
    for r in &rows {
        let _ = writeln!(out, "{}", line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7]]));
    }
    for note in notes(&summary, runs, detail) {
        let _ = writeln!(out, "{note}");
    }
    out
}

/// One run's table: the models it called, with calls, tokens and cost, or a line saying it
/// has no cost data.
fn run_text(out: &mut String, run: &RunCost, style: Style) {
    let head = format!("{} ({}, {})", printable(&run.run), printable(&run.model), printable(&run.format));
    if run.is_empty() {
        let _ = writeln!(out, "{}: no cost data in this run", style.bold(&head));
        return;
    }
    if run.source == CostSource::None {
        let _ = writeln!(out, "{}: {}", style.bold(&head), dollar_line(run));
        return;
    }
    let _ = writeln!(out, "{}: {}", style.bold(&head), from(run));
    let rows: Vec<&ModelCost> = run.models.iter().chain(std::iter::once(&run.total)).collect();
    let w = rows.iter().map(|r| width_of(&r.model)).max().unwrap_or(0).max("model".len());
    let _ = writeln!(
        out,
        "  {:<w$}  {:>8}  {:>12}  {:>12}  {:>11}",
        "model",
        calls_head(run),
        "in tokens",
        "out tokens",
        "cost"
    );
    for r in rows {
        let name = printable(&r.model);
        let pad = " ".repeat(w.saturating_sub(name.chars().count()));
        let _ = writeln!(
            out,
            "  {name}{pad}  {:>8}  {:>12}  {:>12}  {:>11}",
            count(r.calls),
            count(r.input_tokens),
            count(r.output_tokens),
            dollars(r.cost_usd)
        );
    }
    if run.declared_usd.is_some() || run.tests_usd.is_some() && run.source == CostSource::Declared {
        let _ = writeln!(out, "  {}", dollar_line(run));
    }
    if let Some(per) = run.usd_per_pass {
        let _ = writeln!(out, "  {} passed: {} per passed test", run.passed, dollars(Some(per)));
    }
}

/// The head of a run table's count column: API calls from the run's own accounting, else
/// the tests that record tokens or a cost.
fn calls_head(run: &RunCost) -> &'static str {
    if run.source == CostSource::Tests { "tests" } else { "calls" }
}

/// A model's row of the summary table.
fn model_row(m: &ModelCostSummary) -> [String; 8] {
    let priced = m.usd.is_some();
    [
        printable(&m.model).into_owned(),
        m.runs.to_string(),
        count(m.input_tokens),
        count(m.output_tokens),
        dollars(m.usd),
        dollars(m.usd_per_run),
        if priced { m.passed.to_string() } else { "-".to_string() },
        dollars(m.usd_per_pass),
    ]
}

/// The lines under the summary table: models whose dollars cover only some of their runs,
/// where the figures come from, and the flag for each run's own table.
fn notes(summary: &[ModelCostSummary], runs: &[RunCost], detail: bool) -> Vec<String> {
    let mut notes = Vec::new();
    for m in summary {
        if m.usd.is_some() && m.runs_with_cost < m.runs {
            notes.push(format!(
                "{}: dollars of {} of its {} runs (the others record none); passes of those runs",
                printable(&m.model),
                m.runs_with_cost,
                m.runs
            ));
        }
    }
    if summary.iter().all(|m| m.usd.is_none()) {
        notes.push("no run records a cost in dollars".to_string());
    }
    let declared = runs.iter().filter(|r| r.source == CostSource::Declared).count();
    let summed = runs.iter().filter(|r| r.source == CostSource::Tests).count();
    let from = match (declared, summed) {
        (0, 0) => "no run records tokens".to_string(),
        (0, _) => "tokens summed over each run's tests".to_string(),
        (_, 0) => "tokens from each run's own accounting".to_string(),
        (d, t) => format!("tokens from the run's own accounting ({d} runs), else summed over its tests ({t} runs)"),
    };
    if detail {
        notes.push(from);
    } else {
        notes.push(format!("{from}; --detail shows each run, by the models it called"));
    }
    notes
}

/// The run's declared total beside what its tests sum to, when it has either apart from the
/// table's own cost column.
fn dollar_line(run: &RunCost) -> String {
    match (run.declared_usd, run.tests_usd) {
        (Some(d), Some(t)) => {
            format!("run total {} (declared); its tests sum to {}", dollars(Some(d)), dollars(Some(t)))
        }
        (Some(d), None) => format!("run total {} (declared)", dollars(Some(d))),
        (None, Some(t)) => format!("its tests sum to {}", dollars(Some(t))),
        (None, None) => String::new(),
    }
}

/// The report as Markdown: the per-model table and its notes; with `detail`, each run's
/// table first.
pub fn markdown(runs: &[RunCost], diagnostics: &[Diagnostic], detail: bool) -> String {
    let mut out = String::from("# evaltally cost\n");
    if detail {
        for run in runs {
            run_markdown(&mut out, run);
        }
        out.push_str("\n## Per model\n");
    }
    out.push_str("\n| model | runs | in tokens | out tokens | cost | per run | passed | per passed test |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    let summary = by_model(runs);
    for m in &summary {
        let r = model_row(m);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            markdown_text(&m.model),
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            r[6],
            r[7]
        );
    }
    out.push('\n');
    for note in notes(&summary, runs, detail) {
        let _ = writeln!(out, "- {}", markdown_text(&note));
    }
    crate::diagnostics_markdown(&mut out, diagnostics);
    out
}

/// One run's section of the Markdown report.
fn run_markdown(out: &mut String, run: &RunCost) {
    let _ = writeln!(
        out,
        "\n## {} ({}, {})\n",
        markdown_text(&run.run),
        markdown_text(&run.model),
        markdown_text(&run.format)
    );
    if run.is_empty() {
        out.push_str("No cost data in this run.\n");
        return;
    }
    if run.source == CostSource::None {
        let _ = writeln!(out, "{}.", capital(&dollar_line(run)));
        return;
    }
    let _ = writeln!(out, "Figures {}.\n", from(run));
    let _ = writeln!(out, "| model | {} | in tokens | out tokens | cost |\n|---|---:|---:|---:|---:|", calls_head(run));
    for r in run.models.iter().chain(std::iter::once(&run.total)) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            markdown_text(&r.model),
            count(r.calls),
            count(r.input_tokens),
            count(r.output_tokens),
            dollars(r.cost_usd)
        );
    }
    if run.declared_usd.is_some() || run.tests_usd.is_some() && run.source == CostSource::Declared {
        let _ = writeln!(out, "\n{}.", capital(&dollar_line(run)));
    }
    if let Some(per) = run.usd_per_pass {
        let _ = writeln!(out, "\n{} passed: {} per passed test.", run.passed, dollars(Some(per)));
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The identifier of [`Document`], `evaltally.cost/1`.
pub const SCHEMA: SchemaId = SchemaId::new("cost", 1);

/// The JSON document `evaltally cost --format json` prints: what each run cost (calls,
/// tokens, dollars, by model), and per model the dollars per passed test.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// Per run: its name, model, format, where the figures come from (`declared`, `tests`,
    /// `none`), one row per model and the total, and the run's declared total in dollars
    /// (`declared_usd`) and its tests' (`tests_usd`) when it has them.
    pub runs: &'a [RunCost],
    /// Per model: dollars, passed tests and dollars per passed test over its runs that
    /// record a cost.
    pub models: Vec<ModelCostSummary>,
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(runs: &[RunCost], diagnostics: &[Diagnostic]) -> String {
    let doc = Document { schema: SCHEMA, runs, models: by_model(runs), diagnostics: crate::Listed::of(diagnostics) };
    crate::pretty_json(&doc)
}
