//! BFCL's overall score, recomputed as BFCL computes it, with an interval from the runs.
//!
//! It lives here rather than in `evaltally-bfcl`: it reads only category names, it needs the
//! analyzer's statistics, and the analyzer names no adapter crate.
//!
//! BFCL v4 (`bfcl_eval/eval_checker/eval_runner_helper.py`, `generate_leaderboard_csv`)
//! weighs five summaries 10/10/10/30/40:
//!
//! * non-live: the unweighted mean of simple (itself the mean of `simple_python`,
//!   `simple_java`, `simple_javascript`), `multiple`, `parallel`, `parallel_multiple`;
//! * live: `live_simple`, `live_multiple`, `live_parallel`, `live_parallel_multiple`
//!   weighted by their test counts;
//! * irrelevance: the mean of `irrelevance` and `live_irrelevance`;
//! * multi-turn: the mean of `multi_turn_base`, `_miss_func`, `_miss_param`,
//!   `_long_context`;
//! * agentic: the mean of web search (mean of `web_search_base`, `web_search_no_snippet`)
//!   and memory (mean of `memory_kv`, `memory_vector`, `memory_rec_sum`).
//!
//! `live_relevance` and `format_sensitivity` are reported by BFCL but not in its overall
//! score. A category that was not run counts as 0, as BFCL counts it (its CSVs show `N/A`
//! and still add 0); such categories are listed in [`BfclScore::missing`]. The formula
//! reproduces the "Overall Acc" of all 109 models of the published leaderboard
//! (`gorilla-gh-pages` CSVs) to the CSV's two decimals.
//!
//! Why here and not in `evaltally-bfcl`: the analyzer names no adapter crate, the score
//! needs the analyzer's per-category statistics, and it reads nothing but category names,
//! which are BFCL's own. It is computed only for a model whose categories all carry BFCL v4
//! names.
//!
//! The score is linear in the category pass rates, `S = Σ_c w_c·p_c`, so its standard error
//! is `√(Σ_c w_c²·SE_c²)` (different categories hold different tests, so they are
//! independent): with each category's clustered SE (tests as a sample) for the interval,
//! and with its run-to-run SE (`√(σ²_w/(T·r))`, tests fixed) for how much rerunning moves it.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::stats::Z95;

/// The overall weight of each summary: non-live, live, irrelevance, multi-turn, agentic.
const SUMMARY_WEIGHTS: [f64; 5] = [0.1, 0.1, 0.1, 0.3, 0.4];

/// Non-live categories and their share of the non-live summary.
const NON_LIVE: [(&str, f64); 6] = [
    ("simple_python", 1.0 / 12.0),
    ("simple_java", 1.0 / 12.0),
    ("simple_javascript", 1.0 / 12.0),
    ("multiple", 0.25),
    ("parallel", 0.25),
    ("parallel_multiple", 0.25),
];

/// Live categories, weighted by their test counts; BFCL's dataset sizes stand in for a
/// category that was not run.
const LIVE: [(&str, usize); 4] =
    [("live_simple", 258), ("live_multiple", 1053), ("live_parallel", 16), ("live_parallel_multiple", 24)];

const IRRELEVANCE: [&str; 2] = ["irrelevance", "live_irrelevance"];

const MULTI_TURN: [&str; 4] =
    ["multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"];

/// Agentic categories and their share of the agentic summary.
const AGENTIC: [(&str, f64); 5] = [
    ("web_search_base", 0.25),
    ("web_search_no_snippet", 0.25),
    ("memory_kv", 1.0 / 6.0),
    ("memory_vector", 1.0 / 6.0),
    ("memory_rec_sum", 1.0 / 6.0),
];

/// BFCL categories outside its overall score.
const UNSCORED: [&str; 2] = ["live_relevance", "format_sensitivity"];

/// Whether `category` is a BFCL v4 category name.
pub fn is_bfcl_category(category: &str) -> bool {
    weight_names().any(|c| c == category) || UNSCORED.contains(&category)
}

fn weight_names() -> impl Iterator<Item = &'static str> {
    NON_LIVE
        .iter()
        .map(|(c, _)| *c)
        .chain(LIVE.iter().map(|(c, _)| *c))
        .chain(IRRELEVANCE)
        .chain(MULTI_TURN)
        .chain(AGENTIC.iter().map(|(c, _)| *c))
}

/// Each scoring category's weight in the overall score, given the test counts of the live
/// categories that were run (the others take BFCL's dataset sizes). The weights sum to 1.
///
/// ```
/// use std::collections::BTreeMap;
/// let w = evaltally_analyzer::bfcl_score::weights(&BTreeMap::new());
/// assert!((w.values().sum::<f64>() - 1.0).abs() < 1e-12);
/// assert!((w["multi_turn_base"] - 0.075).abs() < 1e-12);
/// assert!((w["live_simple"] - 0.1 * 258.0 / 1351.0).abs() < 1e-12);
/// ```
pub fn weights(live_counts: &BTreeMap<&str, usize>) -> BTreeMap<&'static str, f64> {
    let mut w = BTreeMap::new();
    for (c, share) in NON_LIVE {
        w.insert(c, SUMMARY_WEIGHTS[0] * share);
    }
    let counts: Vec<(&str, f64)> =
        LIVE.iter().map(|&(c, size)| (c, live_counts.get(c).copied().unwrap_or(size) as f64)).collect();
    let live_total: f64 = counts.iter().map(|(_, n)| n).sum();
    for (c, n) in counts {
        w.insert(c, if live_total > 0.0 { SUMMARY_WEIGHTS[1] * n / live_total } else { 0.0 });
    }
    for c in IRRELEVANCE {
        w.insert(c, SUMMARY_WEIGHTS[2] / 2.0);
    }
    for c in MULTI_TURN {
        w.insert(c, SUMMARY_WEIGHTS[3] / 4.0);
    }
    for (c, share) in AGENTIC {
        w.insert(c, SUMMARY_WEIGHTS[4] * share);
    }
    w
}

/// BFCL's overall score from category accuracies (a category absent from `accuracy`
/// counts as 0) and the test counts of the live categories run.
///
/// ```
/// use std::collections::BTreeMap;
/// use evaltally_analyzer::bfcl_score::overall;
/// let acc = BTreeMap::from([("multi_turn_base", 0.5), ("irrelevance", 0.8)]);
/// assert!((overall(&acc, &BTreeMap::new()) - (0.075 * 0.5 + 0.05 * 0.8)).abs() < 1e-12);
/// ```
pub fn overall(accuracy: &BTreeMap<&str, f64>, live_counts: &BTreeMap<&str, usize>) -> f64 {
    weights(live_counts).iter().map(|(c, w)| w * accuracy.get(c).copied().unwrap_or(0.0)).sum()
}

/// BFCL's overall score of one model's runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BfclScore {
    /// The overall score from the categories' mean pass rates over the runs.
    pub overall: f64,
    /// Standard error with the tests seen as a sample (each category's clustered SE).
    pub se: Option<f64>,
    /// 95% interval, `overall ± 1.96·se`.
    pub interval: Option<[f64; 2]>,
    /// Standard error from run-to-run noise only (the tests fixed): how much the score of
    /// the mean over these runs would move if they were run again.
    pub run_se: Option<f64>,
    /// Each run's overall score, for runs that scored every category present.
    pub runs: Vec<RunScore>,
    /// Scoring categories that were not run, counted as 0 as BFCL counts them.
    pub missing: Vec<&'static str>,
    /// Each scoring category's weight.
    pub weights: BTreeMap<&'static str, f64>,
}

/// One run's BFCL overall score.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunScore {
    /// The run.
    pub run: String,
    /// Its overall score.
    pub score: f64,
}

/// What the overall score needs of one category: its tests, its mean pass rate with its
/// standard errors, and each run's pass rate (`stability` gives them).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryScore<'a> {
    /// The category.
    pub category: &'a str,
    /// Tests judged.
    pub tests: usize,
    /// Mean pass rate.
    pub mean: Option<f64>,
    /// Its clustered standard error.
    pub se: Option<f64>,
    /// Its run-to-run standard error.
    pub run_se: Option<f64>,
    /// Each run that scored the category, with its pass rate there.
    pub runs: Vec<(&'a str, Option<f64>)>,
}

/// BFCL's overall score of a model's categories, when they are BFCL's (every category a
/// BFCL v4 name, at least one in the overall score); `None` otherwise.
pub fn score(categories: &[CategoryScore<'_>]) -> Option<BfclScore> {
    let judged: Vec<&CategoryScore<'_>> = categories.iter().filter(|c| c.tests > 0).collect();
    if judged.is_empty() || !categories.iter().all(|c| is_bfcl_category(c.category)) {
        return None;
    }
    let live_counts: BTreeMap<&str, usize> =
        judged.iter().filter(|c| LIVE.iter().any(|(l, _)| *l == c.category)).map(|c| (c.category, c.tests)).collect();
    let weights = weights(&live_counts);
    let scoring: Vec<(&CategoryScore<'_>, f64)> =
        judged.iter().filter_map(|c| weights.get(c.category).map(|w| (*c, *w))).collect();
    if scoring.is_empty() {
        return None;
    }
    let missing: Vec<&'static str> =
        weights.keys().copied().filter(|w| !scoring.iter().any(|(c, _)| c.category == *w)).collect();
    let overall: f64 = scoring.iter().map(|(c, w)| w * c.mean.unwrap_or(0.0)).sum();
    let se = combine(scoring.iter().map(|(c, w)| (*w, c.se)));
    let run_se = combine(scoring.iter().map(|(c, w)| (*w, c.run_se)));
    Some(BfclScore {
        overall,
        se,
        interval: se.map(|s| [overall - Z95 * s, overall + Z95 * s]),
        run_se,
        runs: run_scores(&scoring),
        missing,
        weights,
    })
}

/// The change in BFCL's overall score between the two sides of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BfclChange {
    /// The base side's overall score (each category's pass rate on that side).
    pub base: f64,
    /// The new side's overall score.
    pub new: f64,
    /// The weighted sum of the categories' paired differences on their common tests.
    pub difference: f64,
    /// Its standard error, `√(Σ w²·SE_c²)` with each category's paired SE.
    pub se: Option<f64>,
    /// 95% interval, `difference ± 1.96·se`.
    pub interval: Option<[f64; 2]>,
    /// Two-sided p-value of `difference / se` against the standard normal.
    pub p_value: Option<f64>,
    /// Scoring categories on neither side, counted as 0 on both.
    pub missing: Vec<&'static str>,
}

/// What the change in the overall score needs of one category of a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CategoryChange<'a> {
    /// The category.
    pub category: &'a str,
    /// Tests judged on both sides.
    pub common: usize,
    /// Base pass rate.
    pub base_rate: f64,
    /// New pass rate.
    pub new_rate: f64,
    /// Mean change over the common tests.
    pub difference: f64,
    /// Its paired standard error.
    pub se_difference: Option<f64>,
}

/// The change in BFCL's overall score across a comparison's categories, when they are
/// BFCL's; `None` otherwise.
pub fn change(categories: &[CategoryChange<'_>]) -> Option<BfclChange> {
    if categories.is_empty() || !categories.iter().all(|c| is_bfcl_category(c.category)) {
        return None;
    }
    let compared: Vec<&CategoryChange<'_>> = categories.iter().filter(|c| c.common > 0).collect();
    let live_counts: BTreeMap<&str, usize> = compared
        .iter()
        .filter(|c| LIVE.iter().any(|(l, _)| *l == c.category))
        .map(|c| (c.category, c.common))
        .collect();
    let weights = weights(&live_counts);
    let scoring: Vec<(&CategoryChange<'_>, f64)> =
        compared.iter().filter_map(|c| weights.get(c.category).map(|w| (*c, *w))).collect();
    if scoring.is_empty() {
        return None;
    }
    let missing = weights.keys().copied().filter(|w| !compared.iter().any(|c| c.category == *w)).collect();
    let difference: f64 = scoring.iter().map(|(s, w)| w * s.difference).sum();
    let se = combine(scoring.iter().map(|(s, w)| (*w, s.se_difference)));
    Some(BfclChange {
        base: scoring.iter().map(|(s, w)| w * s.base_rate).sum(),
        new: scoring.iter().map(|(s, w)| w * s.new_rate).sum(),
        difference,
        se,
        interval: se.map(|s| [difference - Z95 * s, difference + Z95 * s]),
        p_value: se.filter(|s| *s > 0.0).map(|s| crate::stats::normal::two_sided_p(difference / s)),
        missing,
    })
}

/// `√(Σ w²·se²)`, or `None` when any SE is unknown.
fn combine(items: impl Iterator<Item = (f64, Option<f64>)>) -> Option<f64> {
    let mut sum = 0.0;
    for (w, se) in items {
        sum += (w * se?).powi(2);
    }
    Some(sum.sqrt())
}

/// Each run's score, over the runs that scored every category present.
fn run_scores(scoring: &[(&CategoryScore<'_>, f64)]) -> Vec<RunScore> {
    let mut names: Vec<&str> = scoring.iter().flat_map(|(c, _)| c.runs.iter().map(|(r, _)| *r)).collect();
    names.sort_by(|a, b| evaltally_core::id::natural_str_cmp(a, b));
    names.dedup();
    names
        .into_iter()
        .filter_map(|run| {
            let mut score = 0.0;
            for (c, w) in scoring {
                let rate = c.runs.iter().find(|(r, _)| *r == run)?.1?;
                score += w * rate;
            }
            Some(RunScore { run: run.to_string(), score })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Category accuracies from the published leaderboard (`gorilla-gh-pages` CSVs:
    /// `data_non_live`, `data_live`, `data_multi_turn`, `data_agentic`) and its "Overall Acc",
    /// picked by `xtask/stats/fixtures.py` (section `bfcl overall`), which reproduces all
    /// 109 rows within 0.00006.
    #[test]
    fn reproduces_the_leaderboard() {
        #[rustfmt::skip]
        let rows: [(&str, [f64; 21], f64); 3] = [
            // simple py/java/js, multiple, parallel, parallel_multiple, irrelevance,
            // live simple/multiple/parallel/parallel_multiple, live_irrelevance,
            // multi_turn base/miss_func/miss_param/long_context,
            // web_search base/no_snippet, memory kv/vector/rec_sum
            ("Claude-Opus-4-5-20251101 (FC)",
             [0.965, 0.6, 0.74, 0.955, 0.935, 0.885, 0.8583, 0.8643, 0.7816, 0.875, 0.75, 0.836,
              0.81, 0.64, 0.58, 0.705, 0.84, 0.85, 0.7097, 0.729, 0.7742], 0.7747),
            ("Mistral-small-2506 (FC)",
             [0.9275, 0.12, 0.12, 0.935, 0.835, 0.785, 0.8833, 0.6938, 0.7939, 0.75, 0.7083, 0.8756,
              0.175, 0.06, 0.105, 0.12, 0.37, 0.25, 0.0839, 0.1419, 0.3161], 0.3715),
            ("Gemma-3-1b-it (Prompt)",
             [0.64, 0.28, 0.38, 0.36, 0.0, 0.015, 0.0708, 0.3643, 0.0627, 0.0, 0.0, 0.5928,
              0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0387, 0.0387, 0.0194], 0.0717),
        ];
        let names = [
            "simple_python",
            "simple_java",
            "simple_javascript",
            "multiple",
            "parallel",
            "parallel_multiple",
            "irrelevance",
            "live_simple",
            "live_multiple",
            "live_parallel",
            "live_parallel_multiple",
            "live_irrelevance",
            "multi_turn_base",
            "multi_turn_miss_func",
            "multi_turn_miss_param",
            "multi_turn_long_context",
            "web_search_base",
            "web_search_no_snippet",
            "memory_kv",
            "memory_vector",
            "memory_rec_sum",
        ];
        for (model, acc, published) in rows {
            let acc: BTreeMap<&str, f64> = names.iter().copied().zip(acc).collect();
            let got = overall(&acc, &BTreeMap::new());
            assert!((got - published).abs() < 0.000_06, "{model}: {got} vs {published}");
        }
    }

    #[test]
    fn every_scoring_category_has_a_weight() {
        let w = weights(&BTreeMap::new());
        assert_eq!(w.len(), 21);
        assert!((w.values().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(is_bfcl_category("live_relevance") && !w.contains_key("live_relevance"));
        assert!(!is_bfcl_category("simple"));
    }
}
