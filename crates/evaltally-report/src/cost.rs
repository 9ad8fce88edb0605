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

/// The report as text: per run, a table of models with calls, tokens and cost (gstack's
/// `Cost Breakdown`), or a line saying it has no cost data.
///
/// ```
/// use evaltally_analyzer::cost::run_cost;
/// use evaltally_core::{RunRecord, TestRecord};
/// let run = RunRecord { run: "r".into(), model: "m".into(), format: "bfcl".into(), ..Default::default() };
/// let text = evaltally_report::cost::text(&[run_cost(&run)], evaltally_report::Style::plain());
/// assert_eq!(text, "r (m, bfcl): no cost data in this run\n");
/// ```
pub fn text(runs: &[RunCost], style: Style) -> String {
    let mut out = String::new();
    for (i, run) in runs.iter().enumerate() {
        if i > 0 && run.source != CostSource::None {
            out.push('\n');
        }
        let head = format!("{} ({}, {})", printable(&run.run), printable(&run.model), printable(&run.format));
        if run.is_empty() {
            let _ = writeln!(out, "{}: no cost data in this run", style.bold(&head));
            continue;
        }
        if run.source == CostSource::None {
            let _ = writeln!(out, "{}: {}", style.bold(&head), dollar_line(run));
            continue;
        }
        let _ = writeln!(out, "{}: {}", style.bold(&head), from(run));
        let rows: Vec<&ModelCost> = run.models.iter().chain(std::iter::once(&run.total)).collect();
        let w = rows.iter().map(|r| width_of(&r.model)).max().unwrap_or(0).max("model".len());
        let _ = writeln!(
            out,
            "  {:<w$}  {:>8}  {:>12}  {:>12}  {:>11}",
            "model", "calls", "in tokens", "out tokens", "cost"
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
    let summary = by_model(runs);
    if summary.iter().any(|m| m.usd.is_some()) {
        out.push('\n');
        for m in &summary {
            let _ = writeln!(out, "{}", model_line(m));
        }
    }
    out
}

/// What a model's runs cost together and per passed test, in words.
fn model_line(m: &ModelCostSummary) -> String {
    match m.usd {
        None => format!("{}: no run records a cost", printable(&m.model)),
        Some(usd) => format!(
            "{}: {} over {} of {} runs ({} a run), {} passed tests: {} per passed test",
            printable(&m.model),
            dollars(Some(usd)),
            m.runs_with_cost,
            m.runs,
            dollars(m.usd_per_run),
            m.passed,
            dollars(m.usd_per_pass)
        ),
    }
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

/// The report as Markdown.
pub fn markdown(runs: &[RunCost], diagnostics: &[Diagnostic]) -> String {
    let mut out = String::from("# evaltally cost\n");
    for run in runs {
        let _ = writeln!(
            out,
            "\n## {} ({}, {})\n",
            markdown_text(&run.run),
            markdown_text(&run.model),
            markdown_text(&run.format)
        );
        if run.is_empty() {
            out.push_str("No cost data in this run.\n");
            continue;
        }
        if run.source == CostSource::None {
            let _ = writeln!(out, "{}.", capital(&dollar_line(run)));
            continue;
        }
        let _ = writeln!(out, "Figures {}.\n", from(run));
        out.push_str("| model | calls | in tokens | out tokens | cost |\n|---|---:|---:|---:|---:|\n");
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
    let summary = by_model(runs);
    if summary.iter().any(|m| m.usd.is_some()) {
        out.push_str("\n## Per model\n\n");
        for m in &summary {
            let _ = writeln!(out, "- {}", markdown_text(&model_line(m)));
        }
    }
    crate::diagnostics_markdown(&mut out, diagnostics);
    out
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
