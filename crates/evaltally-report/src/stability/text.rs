//! The stability report as a terminal table per model.

use std::fmt::Write as _;

use evaltally_analyzer::stability::{CategoryStability, Counts, ModelStability, StabilityReport};

use evaltally_core::text::printable;

use super::{Options, SHOWN_K, beyond_note, bfcl_line, clusters_word, k_cell, plural, precision_cells, top_flaky};
use crate::{Style, width_of};

/// The report as text: with several models, one line each first; then one block per model.
pub fn text(report: &StabilityReport, options: Options) -> String {
    let mut out = String::new();
    // No model ran any category twice (a leaderboard folder, one run each): said once, under
    // the models' lines, not in every model's block.
    let once = report.models.len() > 1 && report.models.iter().all(|m| m.categories.iter().all(|c| c.runs.len() < 2));
    if once {
        let _ = writeln!(out, "no flaky tests: no model ran a category twice, and a test flips only across runs\n");
    }
    if report.models.len() > 1 {
        models_table(&mut out, report, options.style);
    }
    for (i, model) in report.models.iter().enumerate() {
        if i > 0 || report.models.len() > 1 {
            out.push('\n');
        }
        model_text(&mut out, model, options, once);
    }
    if report.models.iter().any(|m| !m.runs.is_empty()) {
        let _ = writeln!(
            out,
            "\nstable pass: passed in every run that judged it; flaky: passed in some, failed in others; stable fail: \
             failed in every one.{}",
            if options.detail {
                ""
            } else {
                " --detail adds pass^k, pass@k and each rate's precision (`evaltally help stability`)"
            }
        );
    }
    let across = super::across_lines(report);
    if !across.is_empty() {
        out.push('\n');
        for line in across {
            let _ = writeln!(out, "{line}");
        }
    }
    if let Some(line) = super::reference_line(report) {
        let _ = writeln!(out, "\n{line}");
    }
    out
}

/// Every model's overall line, so that a folder of many models is answered on the first
/// screen; each model's categories follow in its own block.
fn models_table(out: &mut String, report: &StabilityReport, style: Style) {
    let width = report.models.iter().map(|m| width_of(&m.model)).max().unwrap_or(0).max("model".len());
    let errored = report.models.iter().any(|m| m.overall.errored > 0);
    let _ = writeln!(out, "{} models, overall (each model's categories below):", report.models.len());
    table_head(out, "model", Columns { width, style, errored });
    for model in &report.models {
        let name = printable(&model.model);
        // A model whose runs judged nothing (every test unscored) is said, not counted as 0%.
        if model.overall.total == 0 {
            let _ = writeln!(out, "  {name:<width$}  {:>4}  no test judged", model.runs.len());
        } else {
            row(out, &name, &model.runs.len().to_string(), model.overall, Columns { width, style, errored }, false);
        }
    }
}

/// One model's block; `once`: that no test can be flaky was said above, not again here.
fn model_text(out: &mut String, model: &ModelStability, options: Options, once: bool) {
    let style = options.style;
    let header = if model.runs.is_empty() {
        "no scored runs".to_string()
    } else {
        format!("{} ({})", plural(model.runs.len(), "run"), crate::run_list(&model.runs))
    };
    let _ = writeln!(out, "{}: {header}", style.bold(&printable(&model.model)));
    let scored: Vec<&CategoryStability> = model.categories.iter().filter(|c| !c.runs.is_empty()).collect();
    let width = model.categories.iter().map(|c| width_of(&c.category)).max().unwrap_or(0).max("category".len());
    if !scored.is_empty() {
        // The errored column appears only when some test errored in most runs.
        let cols = Columns { width, style, errored: model.overall.errored > 0 };
        table_head(out, "category", cols);
        for cat in &scored {
            row(out, &printable(&cat.category), &cat.runs.len().to_string(), cat.counts(), cols, false);
        }
        row(out, "overall", "", model.overall, cols, true);
        if model.overall.benchmark_flaky > 0 {
            let _ = writeln!(
                out,
                "  of the flaky, {} the benchmark's: flaky under most models that ran them (below)",
                model.overall.benchmark_flaky
            );
        }
        for line in super::unjudged_legend(model.overall) {
            let _ = writeln!(out, "  {line}");
        }
    }

    let differing: Vec<&&CategoryStability> = scored.iter().filter(|c| c.runs != model.runs).collect();
    if !differing.is_empty() {
        let _ = writeln!(out, "\n  runs per category, where not all {}:", model.runs.len());
        for c in differing {
            let _ = writeln!(out, "    {:<width$}  {}", printable(&c.category), crate::run_list(&c.runs));
        }
    }
    // Tests no run scored (a result file without scores, a sample without the chosen score):
    // said per category, never folded into the classes.
    let unscored: Vec<&CategoryStability> =
        model.categories.iter().filter(|c| !c.unscored_runs.is_empty() || c.unscored_tests > 0).collect();
    if !unscored.is_empty() {
        let _ = writeln!(out, "\n  unscored (no score in any run; counted as neither pass nor fail):");
        for c in unscored {
            let runs = crate::run_list(&c.unscored_runs);
            let said = match (c.unscored_tests, c.total) {
                // An unscored run of no test (an empty file).
                (0, 0) => format!("no tests, in {runs}"),
                (0, _) => format!("each test scored in another run; none in {runs}"),
                (n, _) if c.unscored_runs.is_empty() => format!("{} only unscored", plural(n, "test")),
                (n, _) => format!("{} only unscored, in {runs}", plural(n, "test")),
            };
            let _ = writeln!(out, "    {:<width$}  {said}", printable(&c.category));
        }
    }
    // The answer first: which tests flip (the most unstable first, a screen's worth).
    let n = options.top_flaky.unwrap_or(super::SHOWN_FLAKY);
    if !scored.is_empty() && !once && n > 0 {
        top_flaky_table(out, model, n);
    }
    errored_tests(out, model);
    if !options.detail {
        return;
    }
    if let Some(flaky) = model.most_flaky().filter(|c| c.flaky > 0) {
        let _ = writeln!(
            out,
            "\n  most flaky:  {} ({} of {} tests, {:.1}%)",
            printable(&flaky.category),
            flaky.flaky,
            flaky.total,
            flaky.counts().percent(flaky.flaky)
        );
    }
    if let Some(stable) = model.most_stable().filter(|c| c.stable_pass > 0) {
        let _ = writeln!(
            out,
            "  most stable: {} ({} of {} tests, {:.1}%)",
            printable(&stable.category),
            stable.stable_pass,
            stable.total,
            stable.counts().percent(stable.stable_pass)
        );
    }
    if scored.iter().any(|c| c.runs.len() > 1) {
        pass_k_table(out, &scored, width);
        precision_table(out, model, &scored, width);
    } else if let Some(b) = &model.bfcl {
        // One run: no run-to-run figures, but BFCL's score is there all the same.
        let _ = writeln!(out, "  {}", bfcl_line(b));
    }
}

/// How a counts table is laid out: its first column's width, the style, and whether it has
/// the errored column.
#[derive(Clone, Copy)]
struct Columns {
    width: usize,
    style: Style,
    errored: bool,
}

/// A counts table's head, its first column named `first`.
fn table_head(out: &mut String, first: &str, cols: Columns) {
    let Columns { width, errored, .. } = cols;
    let _ = writeln!(
        out,
        "\n  {first:<width$}  {:>4}  {:>6}  {:>13}  {:>13}  {:>13}{}",
        "runs",
        "tests",
        "stable pass",
        "flaky",
        "stable fail",
        if errored { format!("  {:>8}", "errored") } else { String::new() }
    );
}

fn row(out: &mut String, name: &str, runs: &str, c: Counts, cols: Columns, bold: bool) {
    let Columns { width, style, errored } = cols;
    let cell = |n: usize| format!("{n:>6} {:5.1}%", c.percent(n));
    let mut line = format!(
        "  {name:<width$}  {runs:>4}  {:>6}  {}  {}  {}",
        c.total,
        style.green(&cell(c.stable_pass)),
        style.yellow(&cell(c.flaky)),
        style.red(&cell(c.stable_fail)),
    );
    if errored {
        let _ = write!(line, "  {:>8}", c.errored);
    }
    if bold {
        let _ = writeln!(out, "{}", style.bold(&line));
    } else {
        let _ = writeln!(out, "{line}");
    }
}

/// What `-` stands for in the model's outcome strings: a run that did not list the test,
/// or, where some run left a test unscored, that too.
fn dash(model: &ModelStability) -> &'static str {
    if model.overall.with_unscored > 0 { "not run or not scored" } else { "not run" }
}

/// The tests that errored in most runs, up to [`super::SHOWN_ERRORED`], with how many runs
/// judged each.
fn errored_tests(out: &mut String, model: &ModelStability) {
    let tests = super::errored_tests(model);
    if tests.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n  {} errored in most runs (P pass, F fail, E errored, - {}; runs in the order above):",
        plural(tests.len(), "test"),
        dash(model)
    );
    let shown = &tests[..tests.len().min(super::SHOWN_ERRORED)];
    let id_w = shown.iter().map(|(_, t)| width_of(&t.id)).max().unwrap_or(0).max("test".len());
    let cat_w = shown.iter().map(|(c, _)| width_of(&c.category)).max().unwrap_or(0).max("category".len());
    let _ = writeln!(out, "    {:<id_w$}  {:<cat_w$}  {:>9}  outcomes", "test", "category", "judged");
    for (c, t) in shown {
        let _ = writeln!(
            out,
            "    {:<id_w$}  {:<cat_w$}  {:>9}  {}",
            printable(&t.id),
            printable(&c.category),
            format!("{} of {}", t.runs, t.runs + t.errored),
            crate::outcomes_text(&t.outcomes)
        );
    }
    if tests.len() > shown.len() {
        let _ = writeln!(out, "    and {} more (--format json lists them)", tests.len() - shown.len());
    }
}

fn pass_k_table(out: &mut String, scored: &[&CategoryStability], width: usize) {
    let _ = writeln!(out, "\n  pass^k: all of k runs pass; pass@k: at least one does (mean over tests)");
    let mut header = format!("  {:<width$}", "category");
    for k in SHOWN_K {
        let _ = write!(header, "  {:>7}", format!("pass^{k}"));
    }
    for k in &SHOWN_K[1..] {
        let _ = write!(header, "  {:>7}", format!("pass@{k}"));
    }
    let _ = writeln!(out, "{header}");
    for c in scored {
        let mut line = format!("  {:<width$}", printable(&c.category));
        for k in SHOWN_K {
            let _ = write!(line, "  {:>7}", k_cell(&c.pass_hat_k, k));
        }
        for k in &SHOWN_K[1..] {
            let _ = write!(line, "  {:>7}", k_cell(&c.pass_at_k, *k));
        }
        let _ = writeln!(out, "{line}");
    }
}

fn precision_table(out: &mut String, model: &ModelStability, scored: &[&CategoryStability], width: usize) {
    let _ = writeln!(
        out,
        "\n  precision: SE of the mean pass rate in points, naive (results independent) and clustered ({});\n  \
         run noise: share of a single run's score variance that is run-to-run; one run: its 95% range from that noise",
        clusters_word(model.precision.cluster_by)
    );
    let _ = writeln!(
        out,
        "  {:<width$}  {:>6}  {:>8}  {:>8}  {:>9}  {:>13}  {:>13}",
        "category", "mean", "SE naive", "SE clust", "run noise", "one run", "runs seen"
    );
    let row = |out: &mut String, name: &str, cells: [String; 6]| {
        let [mean, naive, clustered, noise, one, seen] = cells;
        let _ =
            writeln!(out, "  {name:<width$}  {mean:>6}  {naive:>8}  {clustered:>8}  {noise:>9}  {one:>13}  {seen:>13}");
    };
    for c in scored.iter().filter(|c| c.total > 0) {
        row(out, &printable(&c.category), precision_cells(&c.precision));
    }
    row(out, "overall", precision_cells(&model.precision));
    if let Some(note) = beyond_note(model) {
        let _ = writeln!(out, "  {note}");
    }
    if let Some(se) = model.se_by_category {
        let _ = writeln!(out, "  overall SE clustered by category: ±{:.1} points", 100.0 * se);
    }
    if let Some(b) = &model.bfcl {
        let _ = writeln!(out, "  {}", bfcl_line(b));
    }
}

fn top_flaky_table(out: &mut String, model: &ModelStability, n: usize) {
    let top = top_flaky(model, n);
    if top.is_empty() {
        // One run cannot show a flaky test: say so, rather than vouch for every test.
        let one = if model.runs.len() < 2 {
            " (1 run: a test flips only across runs)"
        } else if model.categories.iter().all(|c| c.runs.len() < 2) {
            " (1 run per category: a test flips only across runs of it)"
        } else {
            ""
        };
        let _ = writeln!(out, "\n  no flaky tests{one}");
        return;
    }
    let errored = if model.overall.with_errors > 0 { "E errored, " } else { "" };
    let legend = format!("P pass, F fail, {errored}- {}", dash(model));
    let _ = writeln!(out, "\n  flaky tests, least stable first ({legend}; runs in the order above):");
    let id_w = top.iter().map(|t| width_of(&t.test.id)).max().unwrap_or(0).max("test".len());
    let cat_w = top.iter().map(|t| width_of(t.category)).max().unwrap_or(0).max("category".len());
    let _ =
        writeln!(out, "    {:<id_w$}  {:<cat_w$}  {:>7}  {:>9}  outcomes", "test", "category", "passed", "flip rate");
    for t in top {
        let _ = writeln!(
            out,
            "    {:<id_w$}  {:<cat_w$}  {:>7}  {:>9.2}  {}",
            printable(&t.test.id),
            printable(t.category),
            format!("{}/{}", t.test.passed, t.test.runs),
            t.test.flip_rate,
            crate::outcomes_text(&t.test.outcomes)
        );
    }
    let flaky = model.overall.flaky;
    if flaky > n {
        let _ = writeln!(out, "    and {} more (--top-flaky N lists more; --format json all)", flaky - n);
    }
}

#[cfg(test)]
mod tests {
    use evaltally_analyzer::stability;
    use evaltally_core::{CategoryRun, Outcome};

    use super::text;
    use crate::Style;
    use crate::stability::Options;

    fn run(name: &str, model: &str, outcomes: &[Outcome]) -> CategoryRun {
        let mut run = CategoryRun::new(name, model, "cat");
        for (i, outcome) in outcomes.iter().enumerate() {
            run.push(&format!("t{i}"), *outcome, None);
        }
        run
    }

    /// `-` in an outcome string is a run that did not list the test, or one that left it
    /// unscored: the legends of both lists of tests say so when some run did.
    #[test]
    fn the_dash_is_said_to_be_unscored_too_where_a_run_left_a_test_unscored() {
        use Outcome::{Errored, Fail, Pass, Unscored};
        // t0 errored in most runs, unscored in one; t1 flips.
        let runs = vec![
            run("r1", "m", &[Errored, Pass]),
            run("r2", "m", &[Errored, Fail]),
            run("r3", "m", &[Unscored, Pass]),
            run("r4", "m", &[Pass, Fail]),
        ];
        let options = Options { style: Style::plain(), top_flaky: None, detail: false };
        let out = text(&stability::analyze(&runs), options);
        assert!(out.contains("errored in most runs (P pass, F fail, E errored, - not run or not scored;"), "{out}");
        assert!(
            out.contains("flaky tests, least stable first (P pass, F fail, E errored, - not run or not scored;"),
            "{out}"
        );
        let out = text(&stability::analyze(&[runs[0].clone(), runs[1].clone(), runs[3].clone()]), options);
        assert!(out.contains("errored in most runs (P pass, F fail, E errored, - not run;"), "{out}");
    }

    #[test]
    fn no_flaky_test_says_why_when_no_category_ran_twice() {
        use Outcome::{Fail, Pass};
        let mut runs = vec![run("r1", "m", &[Pass, Fail])];
        let mut other = run("r2", "m", &[Pass]);
        other.category = "other".to_string();
        runs.push(other);
        let options = Options { style: Style::plain(), top_flaky: None, detail: false };
        let out = text(&stability::analyze(&runs), options);
        assert!(
            out.contains("\n  no flaky tests (1 run per category: a test flips only across runs of it)\n"),
            "{out}"
        );
        let out = text(&stability::analyze(&runs[..1]), options);
        assert!(out.contains("\n  no flaky tests (1 run: a test flips only across runs)\n"), "{out}");
        runs.push(run("r3", "m", &[Pass, Fail]));
        let out = text(&stability::analyze(&runs), options);
        assert!(out.contains("\n  no flaky tests\n"), "{out}");
    }

    /// The line across models says how many of a model's own flaky tests no other model
    /// ran: for those, one model cannot tell its flipping from the test's.
    #[test]
    fn the_line_across_models_says_which_own_flaky_tests_were_not_compared() {
        use Outcome::{Fail, Pass};
        // t0 flips under both (the benchmark's); t1 under a only, b ran it (a's own);
        // t2 under a only, b never ran it (a's own, alone).
        let runs = vec![
            run("r1", "a", &[Pass, Pass, Pass]),
            run("r2", "a", &[Fail, Fail, Fail]),
            run("r1", "b", &[Pass, Pass]),
            run("r2", "b", &[Fail, Pass]),
        ];
        let report = stability::analyze(&runs);
        let across = &report.across_models["cat"];
        assert_eq!(
            (&across.benchmark_flaky[..], &across.model_flaky["a"][..]),
            (&["t0".to_string()][..], &["t1".to_string(), "t2".to_string()][..])
        );
        assert_eq!(across.alone["a"], ["t2"]);
        assert!(!across.alone.contains_key("b"));
        let options = Options { style: Style::plain(), top_flaky: None, detail: false };
        let out = text(&report, options);
        assert!(out.contains("), 2 a model's own (1 of them run by that model alone, so not compared)\n"), "{out}");
    }

    #[test]
    fn several_models_get_a_line_each_first_and_one_without_scores_is_said() {
        use Outcome::{Fail, Pass, Unscored};
        let runs = vec![
            run("r1", "long-model-name", &[Pass, Pass, Fail]),
            run("r2", "long-model-name", &[Pass, Fail, Fail]),
            run("r1", "m", &[Unscored]),
        ];
        let options = Options { style: Style::plain(), top_flaky: None, detail: false };
        let out = text(&stability::analyze(&runs), options);
        let first: Vec<&str> = out.lines().take(6).collect();
        assert_eq!(
            first,
            [
                "2 models, overall (each model's categories below):",
                "",
                "  model            runs   tests    stable pass          flaky    stable fail",
                "  long-model-name     2       3       1  33.3%       1  33.3%       1  33.3%",
                "  m                   1  no test judged",
                "",
            ]
        );
        // Each model's block follows, in the same order.
        let blocks: Vec<&str> =
            out.lines().filter(|l| l.starts_with("long-model-name:") || l.starts_with("m:")).collect();
        assert_eq!(blocks, ["long-model-name: 2 runs (r1, r2)", "m: 1 run (r1)"]);
        // One model: no overview.
        let one = text(&stability::analyze(&runs[..2]), options);
        assert!(one.starts_with("long-model-name: 2 runs (r1, r2)\n"), "{one}");
    }
}
