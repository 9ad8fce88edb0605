//! How precisely runs measure a score: standard errors, the split of its variance into
//! between-test and run-to-run parts, and the range a single run's score is expected in.
//!
//! The score is the mean pass rate over every judged (test, run) result of a category
//! (over several runs, the mean of the runs' pass rates when every run judged every test).
//! Formulas in [`crate::stats::se`] and [`crate::stats::variance`]; `docs/statistics.md`
//! explains them with a worked example.

use std::borrow::Cow;

use serde::Serialize;

use crate::cluster::ClusterBy;
use crate::stats::Z95;
use crate::stats::se::{self, Tally};
use crate::stats::variance::{self, Components};

/// The precision of one category's score (or a model's overall score).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Precision {
    /// Passes and judged results over every test and run.
    pub results: Tally,
    /// Mean pass rate over the judged results; `null` when nothing was judged.
    pub mean: Option<f64>,
    /// Naive standard error: every (test, run) result independent.
    pub se_naive: Option<f64>,
    /// Clustered standard error: results of one cluster correlated (tests, or groups of
    /// tests with `--cluster-by group`).
    pub se_clustered: Option<f64>,
    /// What the clusters of `se_clustered` are.
    pub cluster_by: ClusterBy,
    /// How many clusters there are.
    pub clusters: usize,
    /// Between-test and run-to-run variance components; `null` with fewer than 2 tests or
    /// no test judged twice.
    pub components: Option<Components>,
    /// Share of a single run's score variance that is run-to-run noise, `σ²_w/(σ²_b + σ²_w)`.
    pub run_share: Option<f64>,
    /// Share of the variance of the score averaged over these runs that is run-to-run noise.
    pub run_share_of_mean: Option<f64>,
    /// What a single run's score looks like on these tests.
    pub single_run: Option<SingleRun>,
}

/// The score a single run gets, expected and seen.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SingleRun {
    /// Standard deviation of a single run's score from run-to-run noise, `√(σ²_w/T)`.
    pub sd: f64,
    /// 95% range expected for a single run's score: `mean ± 1.96·sd`, within [0, 1].
    pub expected: [f64; 2],
    /// Lowest and highest pass rate among the runs.
    pub observed: [f64; 2],
    /// Standard deviation of the runs' pass rates (`null` with fewer than 2 runs).
    pub observed_sd: Option<f64>,
}

/// The precision of one set of tests: `tests` pairs a test id with its tally over runs,
/// `runs` holds each run's tally (for the observed spread of run scores).
///
/// ```
/// use evaltally_analyzer::cluster::ClusterBy;
/// use evaltally_analyzer::precision::precision;
/// use evaltally_analyzer::stats::se::Tally;
///
/// let tests = [("t1", Tally::new(4, 4)), ("t2", Tally::new(1, 4)), ("t3", Tally::new(0, 4))];
/// let runs = [Tally::new(2, 3), Tally::new(1, 3), Tally::new(1, 3), Tally::new(1, 3)];
/// let p = precision(&tests, &runs, ClusterBy::Test);
/// assert!((p.mean.unwrap() - 5.0 / 12.0).abs() < 1e-12);
/// assert!(p.se_clustered.unwrap() > p.se_naive.unwrap());
/// assert!((p.run_share.unwrap() - 0.25).abs() < 1e-12);
/// ```
pub fn precision(tests: &[(&str, Tally)], runs: &[Tally], cluster_by: ClusterBy) -> Precision {
    let tallies: Vec<Tally> = tests.iter().map(|(_, t)| *t).collect();
    let clusters = cluster_tallies(tests.iter().map(|(id, t)| (cluster_by.cluster_of(id), *t)));
    of_clusters(&tallies, &clusters, runs, cluster_by)
}

/// [`precision`] of tests whose clusters are already summed: `clusters` holds each
/// cluster's tally, in the order of the clusters' names.
pub(crate) fn of_clusters(tallies: &[Tally], clusters: &[Tally], runs: &[Tally], cluster_by: ClusterBy) -> Precision {
    let results = Tally::sum(tallies);
    let components = variance::components(tallies);
    let mean = results.rate();
    let run_rates: Vec<f64> = runs.iter().filter_map(|r| r.rate()).collect();
    let single_run = match (components, mean) {
        (Some(c), Some(m)) if !run_rates.is_empty() => {
            let sd = c.single_run_sd();
            let lo = run_rates.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = run_rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some(SingleRun {
                sd,
                expected: [(m - Z95 * sd).max(0.0), (m + Z95 * sd).min(1.0)],
                observed: [lo, hi],
                observed_sd: sample_sd(&run_rates),
            })
        }
        _ => None,
    };
    Precision {
        results,
        mean,
        se_naive: se::naive(results),
        se_clustered: se::clustered(clusters),
        cluster_by,
        clusters: clusters.iter().filter(|c| c.judged > 0).count(),
        run_share: components.and_then(|c| c.run_share(1.0)),
        run_share_of_mean: components.and_then(|c| c.run_share(c.runs_per_test())),
        components,
        single_run,
    }
}

/// The SE of the pooled pass rate of several categories with each category one cluster
/// (`se_by_category` of a model's overall score). `None` with fewer than 2 categories.
pub fn by_category(categories: &[Tally]) -> Option<f64> {
    se::clustered(categories)
}

/// Sums tallies by cluster name, in the names' order. Names are borrowed from the ids
/// where they can be, sorted, and equal neighbours summed (thousands of tests at once:
/// no allocation per name, no tree).
pub(crate) fn cluster_tallies<'a>(items: impl Iterator<Item = (Cow<'a, str>, Tally)>) -> Vec<Tally> {
    let mut items: Vec<(Cow<'a, str>, Tally)> = items.collect();
    items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<Tally> = Vec::with_capacity(items.len());
    let mut last: Option<&str> = None;
    for (name, t) in &items {
        match out.last_mut() {
            Some(sum) if last == Some(name.as_ref()) => sum.add(*t),
            _ => {
                out.push(*t);
                last = Some(name);
            }
        }
    }
    out
}

/// The sample standard deviation (n − 1); `None` below 2 values.
fn sample_sd(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    Some((xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clusters are summed per name, in the names' byte order, borrowed or owned alike.
    #[test]
    fn clusters_sum_per_name_in_name_order() {
        let items = [("b", 1, 2), ("a", 1, 1), ("b", 0, 3), ("c", 2, 2), ("a", 0, 1)]
            .map(|(name, passed, judged)| (Cow::Borrowed(name), Tally::new(passed, judged)));
        let owned = items.clone().map(|(name, t)| (Cow::Owned(name.into_owned()), t));
        let want = [Tally::new(1, 2), Tally::new(1, 5), Tally::new(2, 2)];
        assert_eq!(cluster_tallies(items.into_iter()), want);
        assert_eq!(cluster_tallies(owned.into_iter()), want);
        assert!(cluster_tallies(std::iter::empty()).is_empty());
    }

    #[test]
    fn no_tests_and_one_run_never_divide_by_zero() {
        let p = precision(&[], &[], ClusterBy::Test);
        assert_eq!((p.mean, p.se_naive, p.se_clustered, p.components), (None, None, None, None));
        let one = precision(&[("a", Tally::new(1, 1)), ("b", Tally::new(0, 1))], &[Tally::new(1, 2)], ClusterBy::Test);
        assert_eq!(one.mean, Some(0.5));
        assert!(one.components.is_none() && one.run_share.is_none() && one.single_run.is_none());
        let all_pass =
            precision(&[("a", Tally::new(3, 3)), ("b", Tally::new(3, 3))], &[Tally::new(2, 2); 3], ClusterBy::Test);
        assert_eq!(all_pass.se_clustered, Some(0.0));
        assert_eq!(all_pass.run_share, None);
        assert!(all_pass.single_run.unwrap().expected.iter().all(|x| (x - 1.0).abs() < 1e-12));
    }

    #[test]
    fn groups_pool_their_tests() {
        let tests = [
            ("live_simple_0-0-0", Tally::new(2, 2)),
            ("live_simple_1-1-0", Tally::new(0, 2)),
            ("live_simple_2-1-1", Tally::new(0, 2)),
        ];
        let by_test = precision(&tests, &[], ClusterBy::Test);
        let by_group = precision(&tests, &[], ClusterBy::Group);
        assert_eq!((by_test.clusters, by_group.clusters), (3, 2));
        assert!(by_group.se_clustered.unwrap() > by_test.se_clustered.unwrap());
    }
}
