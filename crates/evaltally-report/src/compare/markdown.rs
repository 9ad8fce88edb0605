//! The comparison as Markdown, fit for a CI job summary.

use std::fmt::Write as _;

use evaltally_analyzer::compare::{CompareReport, Mode, Summary};
use evaltally_core::Diagnostic;
use evaltally_core::text::{markdown_code, markdown_text};

use super::{by_count, num, p_cell, percent, side_name, signed, statistics};

/// The comparison as Markdown.
pub fn markdown(report: &CompareReport, diagnostics: &[Diagnostic]) -> String {
    let mut out = format!(
        "# evaltally compare\n\n{} → {}\n",
        markdown_code(&side_name(&report.base_runs), false),
        markdown_code(&side_name(&report.new_runs), false)
    );
    for model in &report.models {
        let _ = writeln!(out, "\n## {}\n", markdown_text(&model.model));
        out.push_str("| category | base | new | common | regressions | improvements | net | p-value | verdict |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for c in &model.categories {
            row(&mut out, &markdown_text(&c.category), &c.summary);
        }
        row(&mut out, "**overall**", &model.overall);
        let _ = writeln!(out, "\nOverall: {}.", statistics(&model.overall, report.mode));
        if let Some(b) = &model.bfcl {
            let _ = writeln!(out, "\n{}.", super::bfcl_sentence(b));
        }
        let _ = writeln!(out, "\n{}", super::legend(report));
        let consistent = if report.mode == Mode::Groups { "consistent " } else { "" };
        for c in model.categories.iter().filter(|c| !c.regressions.is_empty() || !c.improvements.is_empty()) {
            let _ = writeln!(out, "\n### {}\n", markdown_text(&c.category));
            if !c.regressions.is_empty() {
                let ids: Vec<String> = c.regressions.iter().map(|i| markdown_code(i, false)).collect();
                let n = crate::plural(c.regressions.len(), &format!("{consistent}regression"));
                let _ = writeln!(out, "- **{n}**: {}", ids.join(", "));
                let _ = writeln!(
                    out,
                    "  - by error type: {}",
                    by_count(&c.summary.regressions_by_error_type, markdown_text)
                );
            }
            if !c.improvements.is_empty() {
                let ids: Vec<String> = c.improvements.iter().map(|i| markdown_code(i, false)).collect();
                let n = crate::plural(c.improvements.len(), &format!("{consistent}improvement"));
                let _ = writeln!(out, "- **{n}**: {}", ids.join(", "));
                let _ = writeln!(
                    out,
                    "  - by error type before: {}",
                    by_count(&c.summary.improvements_by_error_type, markdown_text)
                );
            }
            if !c.errored_in_base.is_empty() || !c.errored_in_new.is_empty() {
                let _ = writeln!(
                    out,
                    "- not compared, errored: {} in every base run, {} in every new run",
                    c.errored_in_base.len(),
                    c.errored_in_new.len()
                );
            }
            if !c.only_in_base.is_empty() || !c.only_in_new.is_empty() {
                let _ = writeln!(
                    out,
                    "- not compared: {} only in base, {} only in new",
                    c.only_in_base.len(),
                    c.only_in_new.len()
                );
            }
        }
    }
    if let Some(e) = &report.efficiency {
        super::efficiency::markdown(&mut out, e);
    }
    crate::diagnostics_markdown(&mut out, diagnostics);
    out
}

fn row(out: &mut String, name: &str, s: &Summary) {
    let side = |passed: f64, total: f64, rate: f64| {
        if total == 0.0 { "-".to_string() } else { format!("{}/{} ({})", num(passed), num(total), percent(rate)) }
    };
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} | {} | {}{} | {} |",
        side(s.base_passed, s.base_total, s.base_rate),
        side(s.new_passed, s.new_total, s.new_rate),
        s.common,
        s.regression_count,
        s.improvement_count,
        signed(s.net),
        if s.common == 0 { "-".to_string() } else { p_cell(s.p_value) },
        if s.significant { " **\\***" } else { "" },
        s.verdict.as_str()
    );
}
