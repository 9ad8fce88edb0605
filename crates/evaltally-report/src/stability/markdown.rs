//! The stability report as Markdown, fit for a CI job summary.

use std::fmt::Write as _;

use evaltally_analyzer::stability::{Counts, ModelStability, StabilityReport};
use evaltally_core::Diagnostic;
use evaltally_core::text::{markdown_code, markdown_text};

use super::{Options, SHOWN_K, beyond_note, bfcl_line, clusters_word, k_cell, plural, precision_cells, top_flaky};

/// The report as Markdown.
pub fn markdown(report: &StabilityReport, diagnostics: &[Diagnostic], options: Options) -> String {
    let mut out = String::from("# evaltally stability\n");
    if report.models.len() > 1 {
        models_table(&mut out, report);
    }
    for model in &report.models {
        let _ = writeln!(out, "\n## {}\n", markdown_text(&model.model));
        let runs: Vec<String> = model.runs.iter().map(|r| markdown_code(r, false)).collect();
        if runs.is_empty() {
            out.push_str("No scored runs.\n");
        } else {
            let _ = writeln!(out, "{}: {}\n", plural(runs.len(), "run"), crate::run_list(&runs));
            counts_table(&mut out, model);
        }
        let mut notes = Vec::new();
        if let Some(flaky) = model.most_flaky().filter(|c| c.flaky > 0) {
            notes.push(format!(
                "Most flaky: {} ({:.1}% flaky).",
                markdown_code(&flaky.category, false),
                flaky.counts().percent(flaky.flaky)
            ));
        }
        if let Some(stable) = model.most_stable().filter(|c| c.stable_pass > 0) {
            notes.push(format!(
                "Most stable: {} ({:.1}% stable pass).",
                markdown_code(&stable.category, false),
                stable.counts().percent(stable.stable_pass)
            ));
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "\n{}", notes.join(" "));
        }
        let unscored: Vec<String> = model
            .categories
            .iter()
            .filter(|c| !c.unscored_runs.is_empty() || c.unscored_tests > 0)
            .map(|c| {
                let runs: Vec<String> = c.unscored_runs.iter().map(|r| markdown_text(r).into_owned()).collect();
                let tests = plural(c.unscored_tests, "test");
                if runs.is_empty() {
                    format!("{} ({tests})", markdown_code(&c.category, false))
                } else {
                    format!("{} ({tests}; {})", markdown_code(&c.category, false), crate::run_list(&runs))
                }
            })
            .collect();
        if !unscored.is_empty() {
            let _ = writeln!(out, "\nUnscored (no score in any run): {}.", unscored.join("; "));
        }
        if model.categories.iter().any(|c| c.runs.len() > 1) {
            pass_k_table(&mut out, model);
            precision_table(&mut out, model);
        }
        if let Some(n) = options.top_flaky.filter(|&n| n > 0) {
            top_flaky_table(&mut out, model, n);
        }
    }
    let across = super::across_lines(report);
    if !across.is_empty() {
        out.push_str("\n## Across models\n\n");
        for line in across {
            let _ = writeln!(out, "- {}", markdown_text(line.trim_start()));
        }
    }
    if let Some(line) = super::reference_line(report) {
        let _ = writeln!(out, "\n## Reference runs\n\n{}", markdown_text(&line));
    }
    crate::diagnostics_markdown(&mut out, diagnostics);
    out
}

/// Every model's overall row, before each model's section.
fn models_table(out: &mut String, report: &StabilityReport) {
    let errored = report.models.iter().any(|m| m.overall.errored > 0);
    let _ = writeln!(out, "\n## Models\n");
    table_head(out, "model", errored);
    for model in &report.models {
        // A model whose runs judged nothing (every test unscored) is said, not counted as 0%.
        if model.overall.total == 0 {
            let _ = writeln!(
                out,
                "| {} | {} | no test judged | | | |{}",
                markdown_text(&model.model),
                model.runs.len(),
                if errored { " |" } else { "" }
            );
        } else {
            table_row(out, &markdown_text(&model.model), Some(model.runs.len()), model.overall, errored);
        }
    }
}

/// A counts table's head, its first column named `first`; the errored column when `errored`.
fn table_head(out: &mut String, first: &str, errored: bool) {
    let (head, rule) = if errored { (" errored |", "---:|") } else { ("", "") };
    let _ = writeln!(out, "| {first} | runs | tests | stable pass | flaky | stable fail |{head}");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|{rule}");
}

/// A counts table's row (`name` already Markdown; `runs` empty for a total, whose cells
/// are bold).
fn table_row(out: &mut String, name: &str, runs: Option<usize>, c: Counts, errored: bool) {
    let b = if runs.is_none() { "**" } else { "" };
    let _ = writeln!(
        out,
        "| {b}{name}{b} |{} | {b}{}{b} | {b}{}{b} | {b}{}{b} | {b}{}{b} |{}",
        runs.map(|r| format!(" {r}")).unwrap_or_default(),
        c.total,
        cell(c, c.stable_pass),
        cell(c, c.flaky),
        cell(c, c.stable_fail),
        if errored { format!(" {} |", c.errored) } else { String::new() }
    );
}

fn counts_table(out: &mut String, model: &ModelStability) {
    // The errored column appears only when some result errored.
    let errored = model.overall.errored > 0;
    table_head(out, "category", errored);
    for c in model.categories.iter().filter(|c| !c.runs.is_empty()) {
        table_row(out, &markdown_text(&c.category), Some(c.runs.len()), c.counts(), errored);
    }
    table_row(out, "overall", None, model.overall, errored);
    let legend: Vec<String> = super::unjudged_legend(model.overall).iter().map(|l| capitalised(l) + ".").collect();
    if !legend.is_empty() {
        let _ = writeln!(out, "\n{}", legend.join(" "));
    }
    errored_list(out, model);
}

fn cell(c: Counts, part: usize) -> String {
    format!("{part} ({:.1}%)", c.percent(part))
}

fn pass_k_table(out: &mut String, model: &ModelStability) {
    out.push_str("\n| category |");
    for k in SHOWN_K {
        let _ = write!(out, " pass^{k} |");
    }
    for k in &SHOWN_K[1..] {
        let _ = write!(out, " pass@{k} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(SHOWN_K.len() * 2 - 1));
    out.push('\n');
    for c in model.categories.iter().filter(|c| c.runs.len() > 1) {
        let _ = write!(out, "| {} |", markdown_text(&c.category));
        for k in SHOWN_K {
            let _ = write!(out, " {} |", k_cell(&c.pass_hat_k, k));
        }
        for k in &SHOWN_K[1..] {
            let _ = write!(out, " {} |", k_cell(&c.pass_at_k, *k));
        }
        out.push('\n');
    }
    out.push_str("\npass^k: the chance that all of k runs pass; pass@k: that at least one does (mean over tests).\n");
}

fn precision_table(out: &mut String, model: &ModelStability) {
    out.push_str("\n| category | mean | SE naive | SE clustered | run noise | one run (95%) | runs seen |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    let row = |out: &mut String, name: &str, cells: [String; 6]| {
        let [mean, naive, clustered, noise, one, seen] = cells;
        let _ = writeln!(out, "| {name} | {mean} | {naive} | {clustered} | {noise} | {one} | {seen} |");
    };
    for c in model.categories.iter().filter(|c| c.total > 0) {
        row(out, &markdown_text(&c.category), precision_cells(&c.precision));
    }
    row(out, "**overall**", precision_cells(&model.precision));
    let _ = writeln!(
        out,
        "\nSE: standard error of the mean pass rate, in points; naive treats every result as independent, \
         clustered groups them {}. Run noise: the share of a single run's score variance that is \
         run-to-run; one run: the range a single run's score falls in 95% of the time from that noise.",
        clusters_word(model.precision.cluster_by)
    );
    if let Some(note) = beyond_note(model) {
        let _ = writeln!(out, "\n{}.", markdown_text(&note));
    }
    if let Some(se) = model.se_by_category {
        let _ = writeln!(out, "Overall SE clustered by category: ±{:.1} points.", 100.0 * se);
    }
    if let Some(b) = &model.bfcl {
        let _ = writeln!(out, "\n{}.", bfcl_line(b));
    }
}

/// `errored: …` as a sentence start.
fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The tests that errored in most runs, with how many runs judged each.
fn errored_list(out: &mut String, model: &ModelStability) {
    let tests = super::errored_tests(model);
    if tests.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{} errored in most runs:\n", plural(tests.len(), "test"));
    out.push_str("| test | category | judged | outcomes |\n|---|---|---:|---|\n");
    for (c, t) in tests.iter().take(super::SHOWN_ERRORED) {
        let _ = writeln!(
            out,
            "| {} | {} | {} of {} | `{}` |",
            markdown_code(&t.id, true),
            markdown_text(&c.category),
            t.runs,
            t.runs + t.errored,
            crate::outcomes_text(&t.outcomes)
        );
    }
    if tests.len() > super::SHOWN_ERRORED {
        let _ = writeln!(out, "\nAnd {} more (`--format json` lists them).", tests.len() - super::SHOWN_ERRORED);
    }
}

fn top_flaky_table(out: &mut String, model: &ModelStability, n: usize) {
    let top = top_flaky(model, n);
    if top.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n### Least stable tests\n");
    out.push_str("| test | category | passed | flip rate | outcomes |\n|---|---|---:|---:|---|\n");
    for t in top {
        let _ = writeln!(
            out,
            "| {} | {} | {}/{} | {:.2} | `{}` |",
            markdown_code(&t.test.id, true),
            markdown_text(t.category),
            t.test.passed,
            t.test.runs,
            t.test.flip_rate,
            crate::outcomes_text(&t.test.outcomes)
        );
    }
}
