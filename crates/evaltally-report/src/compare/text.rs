//! The comparison as terminal text.

use std::fmt::Write as _;

use evaltally_analyzer::compare::{CategoryCompare, CompareReport, Mode, Summary, TestChange, TestVerdict};
use evaltally_core::text::printable;

use super::{by_count, num, p_cell, p_text, percent, side_name, signed, statistics};
use crate::{Style, width_of};

/// Lists of tests present on one side only are cut to this many in text.
const MAX_LISTED: usize = 20;

/// Wraps ids (shown with [`printable`]) into lines of at most `width` characters, each
/// indented.
fn wrap_ids(out: &mut String, ids: &[String], indent: &str, width: usize) {
    let mut line = String::new();
    for id in ids {
        let id = printable(id);
        if !line.is_empty() && line.chars().count() + id.chars().count() + 2 > width {
            let _ = writeln!(out, "{indent}{line},");
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(", ");
        }
        line.push_str(&id);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// The comparison as text.
pub fn text(report: &CompareReport, style: Style) -> String {
    let mut out = String::new();
    let what = match report.mode {
        Mode::Runs => "single runs; p-values: exact McNemar",
        Mode::Groups => "groups; p-values: paired sign-flip; intervals: paired bootstrap, fixed seed",
    };
    let _ = writeln!(
        out,
        "compare {} → {}  ({what})",
        style.bold(&side_name(&report.base_runs)),
        style.bold(&side_name(&report.new_runs))
    );
    for model in &report.models {
        let _ = writeln!(out, "\n{}", style.bold(&printable(&model.model)));
        let width = model.categories.iter().map(|c| width_of(&c.category)).max().unwrap_or(0).max("category".len());
        // Groups' counts may be means (`83.5/199.5`): the side columns widen to them.
        let summaries = || model.categories.iter().map(|c| &c.summary).chain(std::iter::once(&model.overall));
        let sides = Sides {
            base: summaries().map(|s| base_cell(s).len()).max().unwrap_or(0).max(15),
            new: summaries().map(|s| new_cell(s).len()).max().unwrap_or(0).max(15),
        };
        let Sides { base, new } = sides;
        let _ = writeln!(
            out,
            "  {:<width$}  {:>base$}  {:>new$}  {:>6}  {:>5}  {:>5}  {:>5}  {:>7}   verdict",
            "category", "base", "new", "common", "regr", "impr", "net", "p-value"
        );
        for c in &model.categories {
            row(&mut out, &printable(&c.category), &c.summary, (width, sides), style);
        }
        row(&mut out, "overall", &model.overall, (width, sides), style);
        for c in &model.categories {
            details(&mut out, c, report.mode, style);
        }
        let _ = writeln!(out, "\n  overall: {}", statistics(&model.overall, report.mode));
        if let Some(b) = &model.bfcl {
            let _ = writeln!(out, "  {}", super::bfcl_sentence(b));
        }
    }
    if let Some(r) = &report.reference {
        let broken: usize = r.broken.values().map(Vec::len).sum();
        let _ = writeln!(
            out,
            "\nreference runs ({}): {broken} tests fail or flip under them, the benchmark's; {} left out of both sides",
            crate::run_list(&r.runs),
            r.left_out
        );
    }
    let _ = writeln!(out, "\n{}", super::legend(report));
    if let Some(e) = &report.efficiency {
        super::efficiency::text(&mut out, e, style);
    }
    out
}

/// The widths of the base and new columns.
#[derive(Clone, Copy)]
struct Sides {
    base: usize,
    new: usize,
}

/// A side's cell: `passed/total rate`, or `-` when it judged none of the tests.
fn side_cell(passed: f64, total: f64, rate: f64) -> String {
    if total == 0.0 { "-".to_string() } else { format!("{}/{} {:>6}", num(passed), num(total), percent(rate)) }
}

fn base_cell(s: &Summary) -> String {
    side_cell(s.base_passed, s.base_total, s.base_rate)
}

fn new_cell(s: &Summary) -> String {
    side_cell(s.new_passed, s.new_total, s.new_rate)
}

fn row(out: &mut String, name: &str, s: &Summary, (width, sides): (usize, Sides), style: Style) {
    let Sides { base, new } = sides;
    let mark = if s.significant { "*" } else { " " };
    let line = format!(
        "  {name:<width$}  {:>base$}  {:>new$}  {:>6}  {:>5}  {:>5}  {:>5}  {:>7}{mark}  {}",
        base_cell(s),
        new_cell(s),
        s.common,
        s.regression_count,
        s.improvement_count,
        signed(s.net),
        if s.common == 0 { "-".to_string() } else { p_cell(s.p_value) },
        s.verdict.as_str(),
    );
    let line = if s.significant && s.difference < 0.0 {
        style.red(&line)
    } else if s.significant {
        style.green(&line)
    } else {
        line
    };
    if name == "overall" {
        let _ = writeln!(out, "{}", style.bold(&line));
    } else {
        let _ = writeln!(out, "{line}");
    }
}

/// Group comparisons: each test's verdict, the regressed and improved ones listed with their
/// rates, then how many are undecided and what would decide them.
fn test_verdicts(out: &mut String, c: &CategoryCompare, style: Style) {
    if c.test_verdicts.is_empty() {
        return;
    }
    let rates = |t: &TestVerdict| {
        format!(
            "{} {}/{} → {}/{} (p {})",
            printable(&t.id),
            t.base[0],
            t.base[1],
            t.new[0],
            t.new[1],
            p_text(t.p_adjusted)
        )
    };
    for (change, word, paint) in [
        (TestChange::Regressed, "regressed", Style::red as fn(Style, &str) -> String),
        (TestChange::Improved, "improved", Style::green as fn(Style, &str) -> String),
    ] {
        let tests: Vec<&TestVerdict> = c.tests_with(change).collect();
        if tests.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "    {} ({}, passes/runs base → new, adjusted p):",
            paint(style, &format!("tests {word}")),
            tests.len()
        );
        for t in tests.iter().take(MAX_LISTED) {
            let _ = writeln!(out, "      {}", rates(t));
        }
        if tests.len() > MAX_LISTED {
            let _ = writeln!(out, "      … {} more in --format json", tests.len() - MAX_LISTED);
        }
    }
    let undecided: Vec<&TestVerdict> = c.tests_with(TestChange::Undecided).collect();
    if !undecided.is_empty() {
        let mut needed: Vec<usize> = undecided.iter().filter_map(|t| t.runs_needed).collect();
        needed.sort_unstable();
        let beyond = undecided.len() - needed.len();
        let most = evaltally_analyzer::compare::MAX_RUNS_NEEDED;
        let (them, it) = if undecided.len() == 1 { ("it", "1 test") } else { ("them", "") };
        let tell = match (needed.first(), needed.last(), needed.get(needed.len() / 2)) {
            (Some(least), Some(largest), _) if least == largest => {
                format!("; at the rates seen, {least} runs a side would decide {them}")
            }
            (Some(least), Some(largest), Some(median)) => {
                format!("; at the rates seen, {least} to {largest} runs a side would decide {them} (median {median})")
            }
            _ => format!("; at the rates seen, more than {most} runs a side"),
        };
        let beyond = if beyond > 0 && !needed.is_empty() {
            format!(" ({beyond} would need more than {most})")
        } else {
            String::new()
        };
        let count = if it.is_empty() { format!("{} tests", undecided.len()) } else { it.to_string() };
        let _ = writeln!(out, "    {count} undecided (rates differ, not significantly){tell}{beyond}");
    }
}

fn details(out: &mut String, c: &CategoryCompare, mode: Mode, style: Style) {
    let s = &c.summary;
    let _ = writeln!(out, "\n  {}", style.bold(&printable(&c.category)));
    if mode == Mode::Groups {
        test_verdicts(out, c, style);
    }
    let consistent = if mode == Mode::Groups { "consistent " } else { "" };
    if !c.regressions.is_empty() {
        let _ = writeln!(
            out,
            "    {} ({}, pass → fail):",
            style.red(&format!("{consistent}regressions")),
            c.regressions.len()
        );
        wrap_ids(out, &c.regressions, "      ", 100);
        let _ = writeln!(out, "      by error type: {}", by_count(&s.regressions_by_error_type, printable));
        let _ = writeln!(out, "      by family: {}", by_count(&s.regressions_by_error_family, printable));
    }
    if !c.improvements.is_empty() {
        let _ = writeln!(
            out,
            "    {} ({}, fail → pass):",
            style.green(&format!("{consistent}improvements")),
            c.improvements.len()
        );
        wrap_ids(out, &c.improvements, "      ", 100);
        let _ = writeln!(out, "      by error type before: {}", by_count(&s.improvements_by_error_type, printable));
        let _ = writeln!(out, "      by family before: {}", by_count(&s.improvements_by_error_family, printable));
    }
    if !c.flaky_regressions.is_empty() {
        let _ = writeln!(out, "    lower pass rate, touching flaky tests ({}):", c.flaky_regressions.len());
        wrap_ids(out, &c.flaky_regressions, "      ", 100);
    }
    if !c.flaky_improvements.is_empty() {
        let _ = writeln!(out, "    higher pass rate, touching flaky tests ({}):", c.flaky_improvements.len());
        wrap_ids(out, &c.flaky_improvements, "      ", 100);
    }
    for (side, ids) in [("new", &c.errored_in_new), ("base", &c.errored_in_base)] {
        if !ids.is_empty() {
            let _ = writeln!(out, "    errored in every {side} run, not compared ({}):", ids.len());
            wrap_ids(out, &ids[..ids.len().min(MAX_LISTED)], "      ", 100);
        }
    }
    for (side, ids, runs) in [("base", &c.only_in_base, &c.new_runs), ("new", &c.only_in_new, &c.base_runs)] {
        if ids.is_empty() {
            continue;
        }
        if s.common == 0 && runs.is_empty() {
            let other = if side == "base" { "new" } else { "base" };
            let _ = writeln!(
                out,
                "    only in {side}, not compared: {} (the category is not in {other})",
                crate::style::plural(ids.len(), "test")
            );
        } else if ids.len() > MAX_LISTED {
            let _ = writeln!(
                out,
                "    only in {side}, not compared ({}; the first {MAX_LISTED}, all in --format json):",
                ids.len()
            );
            wrap_ids(out, &ids[..MAX_LISTED], "      ", 100);
        } else {
            let _ = writeln!(out, "    only in {side}, not compared ({}):", ids.len());
            wrap_ids(out, ids, "      ", 100);
        }
    }
    if c.regressions.is_empty()
        && c.improvements.is_empty()
        && c.flaky_regressions.is_empty()
        && c.flaky_improvements.is_empty()
    {
        let _ = writeln!(out, "    no changes");
    }
    let _ = writeln!(out, "    {}", statistics(s, mode));
}
