//! The stability report: text, Markdown, JSON and per-class id files.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use evaltally_analyzer::stability::{CategoryStability, Counts, ModelStability, StabilityReport};
use evaltally_core::Diagnostic;
use serde::Serialize;

use crate::Style;

/// The JSON document `evaltally stability --format json` prints.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    /// Per-model stability.
    pub models: &'a [ModelStability],
    /// Warnings: what was tolerated.
    pub warnings: Vec<&'a Diagnostic>,
    /// Errors: what could not be read and was left out.
    pub errors: Vec<&'a Diagnostic>,
}

/// Builds the JSON document.
pub fn document<'a>(report: &'a StabilityReport, diagnostics: &'a [Diagnostic]) -> Document<'a> {
    Document {
        models: &report.models,
        warnings: diagnostics.iter().filter(|d| !d.is_error()).collect(),
        errors: diagnostics.iter().filter(|d| d.is_error()).collect(),
    }
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(report: &StabilityReport, diagnostics: &[Diagnostic]) -> String {
    let mut s = serde_json::to_string_pretty(&document(report, diagnostics))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

fn pct(counts: Counts, part: usize) -> String {
    format!("{:5.1}%", counts.percent(part))
}

fn names(runs: &[String]) -> String {
    runs.join(", ")
}

/// The report as a terminal table per model.
pub fn text(report: &StabilityReport, style: Style) -> String {
    let mut out = String::new();
    for (i, model) in report.models.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        model_text(&mut out, model, style);
    }
    out
}

fn model_text(out: &mut String, model: &ModelStability, style: Style) {
    let header = if model.runs.is_empty() {
        "no scored runs".to_string()
    } else {
        format!(
            "{} run{} ({})",
            model.runs.len(),
            if model.runs.len() == 1 { "" } else { "s" },
            names(&model.runs)
        )
    };
    let _ = writeln!(out, "{}: {header}", style.bold(&model.model));
    let scored: Vec<&CategoryStability> = model
        .categories
        .iter()
        .filter(|c| !c.runs.is_empty())
        .collect();
    let width = model
        .categories
        .iter()
        .map(|c| c.category.len())
        .max()
        .unwrap_or(0)
        .max("category".len());
    if !scored.is_empty() {
        let _ = writeln!(
            out,
            "\n  {:<width$}  {:>4}  {:>6}  {:>13}  {:>13}  {:>13}",
            "category", "runs", "tests", "stable pass", "flaky", "stable fail"
        );
        for cat in &scored {
            row(
                out,
                &cat.category,
                &cat.runs.len().to_string(),
                cat.counts(),
                width,
                style,
            );
        }
        row(out, "overall", "", model.overall, width, style);
    }

    let differing: Vec<&&CategoryStability> =
        scored.iter().filter(|c| c.runs != model.runs).collect();
    if !differing.is_empty() {
        let _ = writeln!(
            out,
            "\n  runs per category, where not all {}:",
            model.runs.len()
        );
        for c in differing {
            let _ = writeln!(out, "    {:<width$}  {}", c.category, names(&c.runs));
        }
    }
    let unscored: Vec<&CategoryStability> = model
        .categories
        .iter()
        .filter(|c| !c.unscored_runs.is_empty())
        .collect();
    if !unscored.is_empty() {
        let _ = writeln!(
            out,
            "\n  unscored (result files without scores; counted as neither pass nor fail):"
        );
        for c in unscored {
            let tests = c.unscored_tests;
            let _ = writeln!(
                out,
                "    {:<width$}  {tests} test{} only unscored, in {}",
                c.category,
                if tests == 1 { "" } else { "s" },
                names(&c.unscored_runs)
            );
        }
    }
    if let Some(flaky) = model.most_flaky().filter(|c| c.flaky > 0) {
        let _ = writeln!(
            out,
            "\n  most flaky:  {} ({} of {} tests, {:.1}%)",
            flaky.category,
            flaky.flaky,
            flaky.total,
            flaky.counts().percent(flaky.flaky)
        );
    } else if !scored.is_empty() {
        let _ = writeln!(out, "\n  no flaky tests");
    }
    if let Some(stable) = model.most_stable().filter(|c| c.stable_pass > 0) {
        let _ = writeln!(
            out,
            "  most stable: {} ({} of {} tests, {:.1}%)",
            stable.category,
            stable.stable_pass,
            stable.total,
            stable.counts().percent(stable.stable_pass)
        );
    }
}

fn row(out: &mut String, name: &str, runs: &str, c: Counts, width: usize, style: Style) {
    let cell = |n: usize| format!("{n:>6} {}", pct(c, n));
    let line = format!(
        "  {name:<width$}  {runs:>4}  {:>6}  {}  {}  {}",
        c.total,
        style.green(&cell(c.stable_pass)),
        style.yellow(&cell(c.flaky)),
        style.red(&cell(c.stable_fail)),
    );
    if name == "overall" {
        let _ = writeln!(out, "{}", style.bold(&line));
    } else {
        let _ = writeln!(out, "{line}");
    }
}

/// The report as Markdown, fit for a CI job summary.
pub fn markdown(report: &StabilityReport, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::from("# evaltally stability\n");
    for model in &report.models {
        let _ = writeln!(out, "\n## {}\n", model.model);
        let runs: Vec<String> = model.runs.iter().map(|r| format!("`{r}`")).collect();
        if runs.is_empty() {
            out.push_str("No scored runs.\n");
        } else {
            let _ = writeln!(
                out,
                "{} run{}: {}\n",
                runs.len(),
                if runs.len() == 1 { "" } else { "s" },
                runs.join(", ")
            );
            md_table(&mut out, model);
        }
        let mut notes = Vec::new();
        if let Some(flaky) = model.most_flaky().filter(|c| c.flaky > 0) {
            notes.push(format!(
                "Most flaky: `{}` ({:.1}% flaky).",
                flaky.category,
                flaky.counts().percent(flaky.flaky)
            ));
        }
        if let Some(stable) = model.most_stable().filter(|c| c.stable_pass > 0) {
            notes.push(format!(
                "Most stable: `{}` ({:.1}% stable pass).",
                stable.category,
                stable.counts().percent(stable.stable_pass)
            ));
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "\n{}", notes.join(" "));
        }
        let unscored: Vec<String> = model
            .categories
            .iter()
            .filter(|c| !c.unscored_runs.is_empty())
            .map(|c| format!("`{}` ({})", c.category, c.unscored_runs.join(", ")))
            .collect();
        if !unscored.is_empty() {
            let _ = writeln!(
                out,
                "\nUnscored (result files without scores): {}.",
                unscored.join("; ")
            );
        }
    }
    if !diagnostics.is_empty() {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = diagnostics.len() - errors;
        let _ = writeln!(
            out,
            "\n<details><summary>{warnings} warnings, {errors} errors</summary>\n"
        );
        for d in diagnostics {
            let _ = writeln!(out, "- `{}`", d.to_string().replace('`', "'"));
        }
        out.push_str("\n</details>\n");
    }
    out
}

fn md_table(out: &mut String, model: &ModelStability) {
    out.push_str("| category | runs | tests | stable pass | flaky | stable fail |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|\n");
    for c in model.categories.iter().filter(|c| !c.runs.is_empty()) {
        let counts = c.counts();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            c.category,
            c.runs.len(),
            c.total,
            md_cell(counts, c.stable_pass),
            md_cell(counts, c.flaky),
            md_cell(counts, c.stable_fail)
        );
    }
    let o = model.overall;
    let _ = writeln!(
        out,
        "| **overall** | | **{}** | **{}** | **{}** | **{}** |",
        o.total,
        md_cell(o, o.stable_pass),
        md_cell(o, o.flaky),
        md_cell(o, o.stable_fail)
    );
}

fn md_cell(c: Counts, part: usize) -> String {
    format!("{part} ({:.1}%)", c.percent(part))
}

/// The per-class id files for one model: (file name, JSON text) for
/// `stable_tests.json`, `flaky_tests.json` and `failing_tests.json`, each
/// `{category: [ids in natural order]}` with empty lists kept.
pub fn id_files(model: &ModelStability) -> [(&'static str, String); 3] {
    let file = |pick: fn(&CategoryStability) -> &Vec<String>| {
        let map: BTreeMap<&str, &Vec<String>> = model
            .categories
            .iter()
            .map(|c| (c.category.as_str(), pick(c)))
            .collect();
        let mut s = serde_json::to_string_pretty(&map).unwrap_or_default();
        s.push('\n');
        s
    };
    [
        ("stable_tests.json", file(|c| &c.ids.stable_pass)),
        ("flaky_tests.json", file(|c| &c.ids.flaky)),
        ("failing_tests.json", file(|c| &c.ids.stable_fail)),
    ]
}
