//! `evaltally subset` and `evaltally estimate`: what was fitted, how well it predicts, and
//! each model's estimated score.

use std::fmt::Write as _;

use evaltally_analyzer::subset::{Check, ModelEstimate, PERSON_FIT_WARN, ScoreEstimate, Subset};
use evaltally_core::Diagnostic;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::printable;
use serde::Serialize;

/// The identifier of `subset --check --format json`.
pub const CHECK_SCHEMA: SchemaId = SchemaId::new("subset-check", 1);
/// The identifier of `estimate --format json`.
pub const ESTIMATE_SCHEMA: SchemaId = SchemaId::new("estimate", 1);
/// The identifier of the subset file `subset -o` writes (its `schema` is this string).
pub const SUBSET_SCHEMA: SchemaId = SchemaId::new("subset", 1);

/// Points with one decimal: `2.3`.
fn points(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// What a person fit below [`PERSON_FIT_WARN`] means, said after it.
const MISFIT: &str = "answers its anchors unlike the fitted models (fails easy tests as often as hard ones): the \
                      estimate may be off by more than its interval; read the anchor mean";

/// A person fit as printed: one decimal, a minus sign for a negative one.
fn fit(z: f64) -> String {
    format!("{z:.1}").replace('-', "\u{2212}")
}

/// A rate as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// What `subset` fitted and chose, in a few lines.
pub fn fitted_text(subset: &Subset, written: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "fitted a 2PL model (one ability per model and category) on {} models × {} tests in {} categories: {} sweeps{}",
        subset.fitted_on.models.len(),
        subset.fitted_on.tests,
        subset.categories.len(),
        subset.model.sweeps,
        if subset.model.converged { "" } else { " (not converged: the most it takes)" }
    );
    let _ = writeln!(out, "chose {} anchors:", subset.anchors.len());
    let width = subset.categories.iter().map(|c| crate::width_of(&c.category)).max().unwrap_or(8).max(8);
    for c in &subset.categories {
        let _ = writeln!(out, "  {:<width$}  {:>4} of {:>5} tests", printable(&c.category), c.anchors, c.tests);
    }
    match written {
        Some(path) => {
            let _ = writeln!(out, "wrote {} (`evaltally estimate PATH --subset {}`)", printable(path), printable(path));
        }
        None => out.push_str("(-o FILE writes the subset for `evaltally estimate`)\n"),
    }
    out
}

/// `subset --check` as text: the figures, then the models the subset predicts worst.
pub fn check_text(check: &Check) -> String {
    let mut out = String::new();
    let b = &check.baseline;
    let _ = writeln!(
        out,
        "leave-one-model-out over {} models, {} anchors (errors in points of the mean of categories):\n",
        check.models.len(),
        check.size
    );
    let _ = writeln!(out, "  {:<28} {:>8} {:>8}", "", "subset", "random");
    for (label, ours, theirs) in [
        ("median error", points(check.median_error), points(b.median_error)),
        ("90th percentile error", points(check.p90_error), points(b.p90_error)),
        ("worst error", points(check.worst_error), points(b.worst_error)),
        ("median error per category", points(check.category_median_error), points(b.category_median_error)),
        ("Spearman's rank correlation", format!("{:.3}", check.spearman), format!("{:.3}", b.spearman)),
    ] {
        let _ = writeln!(out, "  {label:<28} {ours:>8} {theirs:>8}");
    }
    let _ = writeln!(
        out,
        "  {:<28} {:>8}\n  {:<28} {:>8}",
        "90% intervals covering",
        pct(check.coverage_categories),
        "  (overall score)",
        pct(check.coverage_overall)
    );
    let _ = writeln!(
        out,
        "\nrandom: {} random subsets of the same size, each category the mean of its tests in it",
        b.seeds
    );
    let width = check.categories.iter().map(|c| printable(&c.category).chars().count()).max().unwrap_or(0).max(8);
    let _ = writeln!(
        out,
        "\nper category (errors in points of its score; `--size CATEGORY=N` sets a category's anchors):\n  \
         {:<width$} {:>13} {:>7} {:>7} {:>9} {:>7}",
        "category", "anchors", "median", "worst", "covering", "random"
    );
    for c in &check.categories {
        let _ = writeln!(
            out,
            "  {:<width$} {:>13} {:>7} {:>7} {:>9} {:>7}",
            printable(&c.category),
            format!("{} of {}", c.anchors, c.tests),
            points(c.median_error),
            points(c.worst_error),
            pct(c.coverage),
            points(c.random_median_error)
        );
    }
    if !check.not_checked.is_empty() {
        let shown: Vec<String> = check
            .not_checked
            .iter()
            .take(3)
            .map(|m| format!("{} ({} of {} categories)", printable(&m.model), m.categories_run, m.categories))
            .collect();
        let _ = writeln!(
            out,
            "not checked: {} did not run every category, so {} no full score to compare with: {}",
            crate::plural(check.not_checked.len(), "model"),
            if check.not_checked.len() == 1 { "has" } else { "have" },
            crate::and_more(&shown, check.not_checked.len())
        );
    }
    let mut worst: Vec<_> = check.models.iter().collect();
    worst.sort_by(|x, y| y.error().total_cmp(&x.error()));
    let _ = writeln!(out, "\nmodels predicted worst:");
    for m in worst.iter().take(5) {
        let anchors = m.anchor_mean.map_or_else(String::new, |a| format!(", anchor mean {}", pct(a)));
        let misfit = m
            .misfit()
            .map_or_else(String::new, |z| format!(", person fit {}: answers unlike the fitted models", fit(z)));
        let _ = writeln!(
            out,
            "  {}: {} estimated {} [{}–{}]{anchors}, error {} points{misfit}",
            printable(&m.model),
            pct(m.truth),
            pct(m.estimate),
            pct(m.low),
            pct(m.high),
            points(m.error())
        );
    }
    out
}

/// The JSON document of `subset --check`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckDocument<'a> {
    /// [`CHECK_SCHEMA`].
    schema: SchemaId,
    /// What leaving each model out gave.
    #[serde(flatten)]
    check: &'a Check,
    /// What reading the files said.
    #[serde(flatten)]
    diagnostics: crate::Listed<'a>,
}

/// `subset --check --format json`.
pub fn check_json(check: &Check, diagnostics: &[Diagnostic]) -> String {
    crate::pretty_json(&CheckDocument { schema: CHECK_SCHEMA, check, diagnostics: crate::Listed::of(diagnostics) })
}

/// `estimate` as text. One model, or `detail`: per model, each category's estimate with its
/// interval and how many of its tests the model ran, then the overall score. Several
/// models: one line each, their overall scores.
pub fn estimate_text(estimates: &[ModelEstimate], detail: bool) -> String {
    if estimates.len() > 1 && !detail {
        return estimate_overview(estimates);
    }
    let mut out = String::new();
    for m in estimates {
        let _ = writeln!(
            out,
            "{}: estimated from {} of {} tests\n",
            printable(&m.model),
            m.overall.tests_run,
            m.overall.tests_total
        );
        let width =
            m.categories.iter().filter_map(|c| c.category.as_deref()).map(crate::width_of).max().unwrap_or(8).max(8);
        let _ = writeln!(
            out,
            "  {:<width$}  {:>9}  {:>15}  {:>11}  {:>12}",
            "category", "estimate", "90% interval", "anchor mean", "tests run"
        );
        let row = |out: &mut String, name: &str, e: &ScoreEstimate| {
            let _ = writeln!(
                out,
                "  {:<width$}  {:>9}  {:>15}  {:>11}  {:>12}",
                name,
                pct(e.estimate),
                format!("{}–{}", pct(e.low), pct(e.high)),
                e.anchor_mean.map_or_else(|| "-".to_string(), pct),
                format!("{} of {}", e.tests_run, e.tests_total)
            );
        };
        for c in &m.categories {
            row(&mut out, &printable(c.category.as_deref().unwrap_or("")), c);
        }
        row(&mut out, "overall", &m.overall);
        if let Some(line) = unrun_line(m) {
            let _ = writeln!(out, "  {line}");
        }
        // BFCL's score only where the subset holds every category BFCL weighs, as in the
        // several models' lines: a category it lacks would count 0.
        match &m.bfcl_overall {
            Some(b) if b.missing.is_empty() => {
                let _ = writeln!(
                    out,
                    "  BFCL overall score: {} [{}–{}] (BFCL's weights)",
                    pct(b.score.estimate),
                    pct(b.score.low),
                    pct(b.score.high)
                );
            }
            Some(b) => {
                let _ = writeln!(
                    out,
                    "  BFCL overall score: not estimated: the subset lacks {} of BFCL's scoring categories \
                     (`--format json` gives it with them at 0, as BFCL counts a category not run)",
                    b.missing.len()
                );
            }
            None => {}
        }
        if let Some(z) = m.misfit() {
            let _ = writeln!(out, "  person fit {}: {MISFIT}", fit(z));
        }
        out.push('\n');
    }
    out.push_str("estimate: the anchors as run, every other test at its predicted pass probability; anchor mean: the anchors alone, each weighted by the tests it stands for (far from the estimate when the model answers unlike the fitted ones); overall: the mean of the categories (`evaltally help estimate`)\n");
    out
}

/// Several models' estimates, a line each: the overall score (the mean of the categories)
/// with its interval and anchor mean, how many tests the model ran, and BFCL's overall
/// score when the subset holds every category BFCL weighs.
fn estimate_overview(estimates: &[ModelEstimate]) -> String {
    let mut out = String::new();
    let width = estimates.iter().map(|m| crate::width_of(&m.model)).max().unwrap_or(5).max(5);
    // BFCL's overall score where the subset holds every category it weighs; where it does
    // not (the rest count 0), --detail says so beside the score.
    let complete =
        |m: &ModelEstimate| m.bfcl_overall.as_ref().filter(|b| b.missing.is_empty()).map(|b| b.score.estimate);
    let bfcl = estimates.iter().any(|m| complete(m).is_some());
    let _ = write!(
        out,
        "  {:<width$}  {:>9}  {:>15}  {:>11}  {:>12}",
        "model", "estimate", "90% interval", "anchor mean", "tests run"
    );
    out.push_str(if bfcl { "  BFCL overall\n" } else { "\n" });
    for m in estimates {
        let e = &m.overall;
        let _ = write!(
            out,
            "  {:<width$}  {:>9}  {:>15}  {:>11}  {:>12}",
            printable(&m.model),
            pct(e.estimate),
            format!("{}–{}", pct(e.low), pct(e.high)),
            e.anchor_mean.map_or_else(|| "-".to_string(), pct),
            format!("{} of {}", e.tests_run, e.tests_total)
        );
        match (complete(m), bfcl) {
            (Some(score), _) => {
                let _ = writeln!(out, "  {:>12}", pct(score));
            }
            (None, true) => {
                let _ = writeln!(out, "  {:>12}", "-");
            }
            (None, false) => out.push('\n'),
        }
    }
    let partial: Vec<String> = estimates
        .iter()
        .filter_map(|m| {
            let n = unrun(m).len();
            (n > 0).then(|| format!("{} ({n} {})", printable(&m.model), if n == 1 { "category" } else { "categories" }))
        })
        .collect();
    if !partial.is_empty() {
        let _ = writeln!(
            out,
            "\nno anchor run in some categories: {}. Those categories are estimated from the others alone; --detail names them",
            evaltally_core::text::first_of(&partial, 6)
        );
    }
    let misfits: Vec<String> =
        estimates.iter().filter_map(|m| Some(format!("{} ({})", printable(&m.model), fit(m.misfit()?)))).collect();
    if !misfits.is_empty() {
        let _ = writeln!(
            out,
            "\nperson fit below {}: {}. A model below it {MISFIT}",
            fit(PERSON_FIT_WARN),
            misfits.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "\n{} models. estimate: the mean of the categories' estimates, each the anchors as run and every other test at its predicted pass probability; anchor mean: the anchors alone. --detail gives each model's categories (`evaltally help estimate`)",
        estimates.len()
    );
    out
}

/// The categories of which the model ran no anchor.
fn unrun(m: &ModelEstimate) -> Vec<String> {
    m.categories
        .iter()
        .filter(|c| c.tests_run == 0)
        .map(|c| printable(c.category.as_deref().unwrap_or("")).into_owned())
        .collect()
}

/// Says which categories' estimates come from the other categories alone (the model ran
/// none of their anchors): their figures lean on how the fitted models' abilities go
/// together, and their intervals are wide for it.
fn unrun_line(m: &ModelEstimate) -> Option<String> {
    let unrun = unrun(m);
    let (first, rest) = unrun.split_first()?;
    Some(if rest.is_empty() {
        format!("no anchor of {first} run: its estimate comes from the other categories alone")
    } else {
        format!(
            "no anchor run in {} categories ({}): their estimates come from the other categories alone",
            unrun.len(),
            evaltally_core::text::first_of(&unrun, 6)
        )
    })
}

/// One model's estimate in one line, for `report --subset` and `serve --subset`: the mean
/// of the categories with its 90% interval (and BFCL's overall score when the subset holds
/// every scoring category BFCL weighs), from how many of the full benchmark's tests, and
/// whether the model answered its anchors unlike the fitted models.
///
/// ```
/// use evaltally_analyzer::subset::{ModelEstimate, ScoreEstimate};
/// let score = |estimate, low, high| ScoreEstimate {
///     category: None, estimate, low, high, se: 0.035, tests_run: 100, tests_total: 1700, anchor_mean: None,
/// };
/// let mut m = ModelEstimate {
///     model: "m".into(), categories: Vec::new(), overall: score(0.4, 0.343, 0.457), bfcl_overall: None,
///     person_fit: Some(0.2),
/// };
/// assert_eq!(
///     evaltally_report::subset::estimate_line(&m),
///     "estimated full score 40.0% (90% interval 34.3%–45.7%) from 100 of 1700 tests: `evaltally estimate` says more"
/// );
/// // A model that answers its anchors unlike the fitted ones is said to.
/// m.person_fit = Some(-3.6);
/// assert!(evaltally_report::subset::estimate_line(&m).ends_with("from 100 of 1700 tests, answered unlike the \
///     fitted models (person fit \u{2212}3.6): `evaltally estimate` says more"));
/// ```
pub fn estimate_line(m: &ModelEstimate) -> String {
    let o = &m.overall;
    let bfcl = m.bfcl_overall.as_ref().filter(|b| b.missing.is_empty()).map_or(String::new(), |b| {
        format!("; BFCL overall {} ({}–{})", pct(b.score.estimate), pct(b.score.low), pct(b.score.high))
    });
    let misfit =
        m.misfit().map_or(String::new(), |z| format!(", answered unlike the fitted models (person fit {})", fit(z)));
    format!(
        "estimated full score {} (90% interval {}–{}){bfcl} from {} of {} tests{misfit}: `evaltally estimate` says more",
        pct(o.estimate),
        pct(o.low),
        pct(o.high),
        o.tests_run,
        o.tests_total
    )
}

/// The JSON document of `estimate`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EstimateDocument<'a> {
    /// [`ESTIMATE_SCHEMA`].
    schema: SchemaId,
    /// The subset the estimates come from.
    subset: SubsetRef<'a>,
    /// Each model, in natural order; rates as fractions.
    models: &'a [ModelEstimate],
    /// What reading the files said.
    #[serde(flatten)]
    diagnostics: crate::Listed<'a>,
}

/// Which subset the estimates come from.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubsetRef<'a> {
    /// Its anchors.
    anchors: usize,
    /// The tests it was fitted on.
    tests: usize,
    /// The fingerprint of those tests.
    fingerprint: &'a str,
}

/// `estimate --format json`: rates as fractions.
pub fn estimate_json(subset: &Subset, estimates: &[ModelEstimate], diagnostics: &[Diagnostic]) -> String {
    crate::pretty_json(&EstimateDocument {
        schema: ESTIMATE_SCHEMA,
        subset: SubsetRef {
            anchors: subset.anchors.len(),
            tests: subset.fitted_on.tests,
            fingerprint: &subset.fitted_on.fingerprint,
        },
        models: estimates,
        diagnostics: crate::Listed::of(diagnostics),
    })
}

#[cfg(test)]
mod tests {
    use evaltally_analyzer::subset::{BfclEstimate, ModelEstimate, ScoreEstimate};

    fn score(estimate: f64) -> ScoreEstimate {
        ScoreEstimate {
            category: None,
            estimate,
            low: estimate - 0.05,
            high: estimate + 0.05,
            se: 0.03,
            tests_run: 100,
            tests_total: 1700,
            anchor_mean: Some(estimate + 0.01),
        }
    }

    fn model(name: &str, estimate: f64, bfcl: Option<(f64, &[&str])>) -> ModelEstimate {
        ModelEstimate {
            model: name.to_string(),
            categories: Vec::new(),
            overall: score(estimate),
            bfcl_overall: bfcl.map(|(b, missing)| BfclEstimate {
                score: score(b),
                missing: missing.iter().map(|m| (*m).to_string()).collect(),
            }),
            person_fit: Some(0.4),
        }
    }

    /// A model whose person fit is below the line is said to answer unlike the fitted
    /// models, in the overview and in its own table; one above it is not.
    #[test]
    fn a_model_that_answers_unlike_the_fitted_ones_is_said_to() {
        let misfit = ModelEstimate { person_fit: Some(-3.62), ..model("acme-fmt", 0.36, None) };
        let text = super::estimate_text(&[model("acme-7b", 0.5, None), misfit.clone()], false);
        let said: Vec<&str> = text.lines().filter(|l| l.contains("person fit")).collect();
        assert_eq!(said.len(), 1, "{text}");
        assert!(said[0].starts_with("person fit below \u{2212}3.0: acme-fmt (\u{2212}3.6). A model below it answers its anchors unlike the fitted models"), "{text}");
        let alone = super::estimate_text(&[misfit], false);
        assert!(alone.contains("\n  person fit \u{2212}3.6: answers its anchors unlike"), "{alone}");
        let fits = super::estimate_text(&[model("acme-7b", 0.5, None)], false);
        assert!(!fits.contains("person fit"), "{fits}");
    }

    #[test]
    fn several_models_are_a_line_each_with_bfcl_where_every_category_it_weighs_was_run() {
        let text = super::estimate_text(
            &[model("acme-7b", 0.5, Some((0.42, &[]))), model("acme-70b\u{1b}[31m", 0.75, Some((0.6, &["memory_kv"])))],
            false,
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "  model                estimate     90% interval  anchor mean     tests run  BFCL overall"
        );
        assert_eq!(
            lines[1],
            "  acme-7b                 50.0%      45.0%–55.0%        51.0%   100 of 1700         42.0%"
        );
        assert_eq!(
            lines[2],
            "  acme-70b\\u{1b}[31m      75.0%      70.0%–80.0%        76.0%   100 of 1700             -"
        );
        assert!(lines[4].starts_with("2 models. "), "{text}");
        let one = super::estimate_text(&[model("acme-7b", 0.5, None)], false);
        assert!(one.starts_with("acme-7b: estimated from 100 of 1700 tests\n"), "{one}");
        let partial = super::estimate_text(&[model("a", 0.5, Some((0.4, &["x"]))), model("b", 0.6, None)], false);
        assert!(!partial.contains("BFCL"), "{partial}");
    }

    /// The check's worst models say "answers unlike" beside a person fit below the line,
    /// and nothing beside one just above it or one not given.
    #[test]
    fn the_check_marks_its_worst_models_that_answer_unlike_the_fitted_ones() {
        use evaltally_analyzer::subset::{Baseline, Check, CheckedModel};
        let checked = |model: &str, estimate: f64, person_fit: Option<f64>| CheckedModel {
            model: model.to_string(),
            truth: 0.5,
            estimate,
            low: estimate - 0.03,
            high: estimate + 0.03,
            anchor_mean: Some(0.5),
            categories: Vec::new(),
            person_fit,
        };
        let check = Check {
            size: 100,
            models: vec![
                checked("acme-fmt", 0.57, Some(-3.62)),
                checked("acme-edge", 0.56, Some(-2.96)),
                checked("acme-few", 0.55, None),
                checked("acme-7b", 0.51, Some(0.2)),
            ],
            not_checked: Vec::new(),
            median_error: 0.055,
            p90_error: 0.07,
            worst_error: 0.07,
            category_median_error: 0.05,
            spearman: 0.9,
            coverage_categories: 0.9,
            coverage_overall: 0.9,
            baseline: Baseline {
                seeds: 5,
                median_error: 0.06,
                p90_error: 0.08,
                worst_error: 0.09,
                category_median_error: 0.07,
                spearman: 0.8,
            },
            categories: Vec::new(),
        };
        let text = super::check_text(&check);
        let line = |model: &str| text.lines().find(|l| l.starts_with(&format!("  {model}:"))).unwrap_or_default();
        assert!(line("acme-fmt").ends_with(", person fit \u{2212}3.6: answers unlike the fitted models"), "{text}");
        for model in ["acme-edge", "acme-few", "acme-7b"] {
            assert!(line(model).ends_with(" points"), "{model}: {text}");
        }
    }
}
