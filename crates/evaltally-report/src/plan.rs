//! The planner's report (`evaltally plan`): text, Markdown and JSON.

use std::fmt::Write as _;

use evaltally_analyzer::plan::{Plan, PlanReport};
use evaltally_core::Diagnostic;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::{markdown_text, printable};
use serde::Serialize;

use crate::{Style, width_of};

/// The identifier of [`Document`], `evaltally.plan/1`.
pub const SCHEMA: SchemaId = SchemaId::new("plan", 1);

/// The JSON document `evaltally plan --format json` prints: per model and category, how
/// many runs, or tests, bring the standard error under the target.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// The plan.
    #[serde(flatten)]
    pub plan: &'a PlanReport,
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// The plan as pretty-printed JSON with a final newline.
pub fn json(report: &PlanReport, diagnostics: &[Diagnostic]) -> String {
    crate::pretty_json(&Document { schema: SCHEMA, plan: report, diagnostics: crate::Listed::of(diagnostics) })
}

fn count(n: Option<usize>) -> String {
    n.map_or_else(|| "-".to_string(), |n| n.to_string())
}

fn pts(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{:.1}", 100.0 * v))
}

/// A minimum detectable effect in points: past 100 no change of a pass rate is detectable,
/// so `> 100` (the JSON keeps the number).
fn mde(x: Option<f64>) -> String {
    match x {
        Some(v) if v > 1.0 => "> 100".to_string(),
        _ => pts(x),
    }
}

/// The cells of one row: tests, runs, run SE now, runs needed, more runs, SE floor, tests
/// needed (1 run), MDE now, MDE single run.
fn cells(p: &Plan) -> [String; 9] {
    [
        p.tests.to_string(),
        format!("{:.1}", p.runs),
        pts(p.run_se),
        count(p.runs_needed),
        count(p.more_runs),
        pts(p.se_floor),
        count(p.tests_needed_one_run),
        mde(p.mde),
        mde(p.mde_single_run),
    ]
}

const HEADS: [&str; 9] =
    ["tests", "runs", "SE now", "runs needed", "more", "SE floor", "tests @1 run", "MDE", "MDE 1 run"];

/// The plan as text, one table per model.
pub fn text(report: &PlanReport, style: Style) -> String {
    let mut out = format!(
        "plan for a standard error of {:.1} points (SE, SE floor and MDE in points; MDE: 80% power, α = 0.05, paired)\n",
        100.0 * report.target_se
    );
    // No category of any model can be estimated (one run of each, a leaderboard's folder):
    // said once, not in a table of dashes per model.
    let nothing = report
        .models
        .iter()
        .all(|m| m.categories.iter().chain(std::iter::once(&m.overall)).all(|p| p.cannot_estimate.is_some()));
    let reason = report.models.first().and_then(|m| m.overall.cannot_estimate);
    if let (true, Some(why), [_, _, ..]) = (nothing, reason, report.models.as_slice()) {
        let _ = writeln!(
            out,
            "\n{}: no category can be estimated ({why}){}",
            crate::plural(report.models.len(), "model"),
            if report.subset.is_some() { "" } else { "; --subset-error plans the tests instead" }
        );
    }
    for model in report.models.iter().filter(|_| !(nothing && report.models.len() > 1)) {
        let _ = writeln!(out, "\n{}: {}", style.bold(&printable(&model.model)), crate::plural(model.runs.len(), "run"));
        let width = model.categories.iter().map(|c| width_of(&c.category)).max().unwrap_or(0).max("category".len());
        let mut head = format!("  {:<width$}", "category");
        for (h, w) in HEADS.iter().zip(widths()) {
            let _ = write!(head, "  {h:>w$}");
        }
        let _ = writeln!(out, "{head}");
        let mut notes: Vec<(String, &str)> = Vec::new();
        let mut partly: Vec<String> = Vec::new();
        for p in model.categories.iter().chain(std::iter::once(&model.overall)) {
            let mut line = format!("  {:<width$}", printable(&p.category));
            for (cell, w) in cells(p).iter().zip(widths()) {
                let _ = write!(line, "  {cell:>w$}");
            }
            let _ = writeln!(out, "{}", if p.category == "overall" { style.bold(&line) } else { line });
            if let Some(why) = p.cannot_estimate {
                notes.push((printable(&p.category).into_owned(), why));
            }
            if let Some(why) = p.partly_estimated {
                partly.push(format!("  {}: {why}", printable(&p.category)));
            }
        }
        // One reason for every category (one run of each): said once.
        let every = notes.len() == model.categories.len() + 1 && notes.windows(2).all(|w| w[0].1 == w[1].1);
        match notes.first() {
            Some((_, why)) if every => {
                let _ = writeln!(out, "  no category can be estimated ({why})");
            }
            _ => {
                for (category, why) in notes {
                    let _ = writeln!(out, "  {category}: cannot estimate ({why})");
                }
            }
        }
        for line in partly {
            let _ = writeln!(out, "{line}");
        }
        for line in dollar_lines(model) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push_str(concat!(
        "\n  SE now: run-to-run standard error of the mean over the runs there are (the tests fixed);\n",
        "  runs needed: runs per test for it to reach the target; more: runs to add.\n",
        "  SE floor: the standard error with the tests seen as a sample, which no number of runs lowers;\n",
        "  tests @1 run: tests a new benchmark of tests like these needs, one run each, to reach the target.\n",
        "  MDE: the smallest change a paired comparison with as many runs per side (or one) detects;\n",
        "  a lower bound, as a change that moves tests unevenly adds variance.\n",
    ));
    if let Some(subset) = &report.subset {
        out.push_str(&subset_text(subset));
    }
    out
}

/// What the runs cost at the model's recorded cost per run, and what a budget buys.
fn dollar_lines(model: &evaltally_analyzer::plan::ModelPlan) -> Vec<String> {
    let Some(usd) = model.usd_per_run else { return Vec::new() };
    let o = &model.overall;
    let mut lines = vec![match (o.more_runs, o.more_runs_usd) {
        (Some(0), _) => format!("at ${usd:.2} a run (as recorded): the target is met with the runs there are"),
        (Some(n), Some(cost)) => format!("at ${usd:.2} a run (as recorded): the {n} more runs overall cost ${cost:.2}"),
        _ => format!("at ${usd:.2} a run (as recorded)"),
    }];
    if let Some(b) = &o.budget {
        lines.push(match b.mde {
            Some(mde) => format!(
                "a budget of ${:.2} buys {} runs: against the runs there are, they detect a change of {:.1} points overall",
                b.usd,
                b.runs,
                100.0 * mde
            ),
            None => format!("a budget of ${:.2} buys {} runs", b.usd, b.runs),
        });
    }
    lines
}

fn widths() -> [usize; 9] {
    HEADS.map(str::len)
}

/// The plan as Markdown.
pub fn markdown(report: &PlanReport, diagnostics: &[Diagnostic]) -> String {
    let mut out = format!("# evaltally plan\n\nTarget standard error: {:.1} points.\n", 100.0 * report.target_se);
    for model in &report.models {
        let _ = writeln!(out, "\n## {}\n", markdown_text(&model.model));
        out.push_str("| category |");
        for h in HEADS {
            let _ = write!(out, " {h} |");
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(HEADS.len()));
        out.push('\n');
        for p in model.categories.iter().chain(std::iter::once(&model.overall)) {
            let _ = write!(out, "| {} |", markdown_text(&p.category));
            for c in cells(p) {
                let _ = write!(out, " {c} |");
            }
            out.push('\n');
        }
        for p in model.categories.iter().chain(std::iter::once(&model.overall)) {
            if let Some(why) = p.cannot_estimate {
                let _ = writeln!(out, "\n{}: cannot estimate ({why}).", markdown_text(&p.category));
            }
            if let Some(why) = p.partly_estimated {
                let _ = writeln!(out, "\n{}: {why}.", markdown_text(&p.category));
            }
        }
        for line in dollar_lines(model) {
            let _ = writeln!(out, "\n{}.", markdown_text(&line));
        }
    }
    out.push_str(
        "\nSE now, SE floor and MDE in points. SE now: run-to-run standard error over the runs there are; runs \
         needed: for it to reach the target. SE floor: the SE with tests seen as a sample, which runs cannot lower; \
         tests @1 run: tests a new benchmark needs for its SE to reach the target. MDE: 80% power, α = 0.05, paired, \
         same runs per side (or one).\n",
    );
    crate::diagnostics_markdown(&mut out, diagnostics);
    if let Some(subset) = &report.subset {
        let _ = write!(out, "\n## Fewer tests\n\n```\n{}```\n", subset_text(subset));
    }
    out
}

/// `plan --subset-error`: the sizes tried, and the first that reached the target.
fn subset_text(plan: &evaltally_analyzer::subset::SubsetPlan) -> String {
    let mut out = format!(
        "\nfewer tests: the smallest subset whose left-out models' median error is at most {:.1} points\n",
        100.0 * plan.target_error
    );
    let _ = writeln!(out, "  {:>6}  {:>12}  {:>11}  {:>12}", "tests", "median error", "worst error", "random median");
    for s in &plan.sizes {
        let _ = writeln!(
            out,
            "  {:>6}  {:>12.1}  {:>11.1}  {:>12.1}",
            s.size,
            100.0 * s.median_error,
            100.0 * s.worst_error,
            100.0 * s.random_median_error
        );
    }
    match plan.size {
        Some(n) => {
            let _ = writeln!(out, "  {n} tests reach it: `evaltally subset PATH --size {n} -o subset.json`");
            // Said when the fitted choice buys nothing on the median at that size.
            if let Some(s) = plan.sizes.iter().find(|s| s.size == n && s.random_median_error <= s.median_error) {
                let _ = writeln!(
                    out,
                    "  at {n} tests random subsets, each category scored by the plain mean of its tests, do as well on the median ({:.1} points)",
                    100.0 * s.random_median_error
                );
            }
        }
        None => out.push_str("  no subset short of every test reaches it\n"),
    }
    out
}

#[cfg(test)]
mod tests {
    use evaltally_analyzer::subset::{SizeTried, SubsetPlan};

    fn plan(random_at_reached: f64) -> SubsetPlan {
        let size = |size, median_error, random_median_error| SizeTried {
            size,
            median_error,
            worst_error: 2.0 * median_error,
            random_median_error,
        };
        SubsetPlan {
            target_error: 0.015,
            sizes: vec![size(100, 0.016, 0.026), size(200, 0.012, random_at_reached)],
            size: Some(200),
        }
    }

    /// The reached size is named, and random subsets are said to do as well on the median
    /// only where they do.
    #[test]
    fn random_subsets_said_only_where_they_do_as_well() {
        let worse = super::subset_text(&plan(0.013));
        assert!(worse.contains("200 tests reach it"), "{worse}");
        assert!(!worse.contains("random subsets"), "{worse}");
        let alike = super::subset_text(&plan(0.011));
        assert!(alike.contains("at 200 tests random subsets"), "{alike}");
        assert!(alike.contains("(1.1 points)"), "{alike}");
    }
}
