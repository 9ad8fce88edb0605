//! Standard errors of a pass rate: naive, and cluster-robust.
//!
//! The pass rate is the mean of binary results `y` (1 pass, 0 fail) over every judged
//! (test, run) pair: `p = Σy / N`. Both standard errors are those of an intercept-only
//! least-squares fit of `y`, as statsmodels computes them:
//!
//! * naive (every result independent): `√(p(1 − p) / (N − 1))`;
//! * clustered (results in one cluster may be correlated, clusters independent):
//!   `√(G/(G − 1) · Σ_g (P_g − p·N_g)²) / N` over the G clusters with `P_g` passes in `N_g`
//!   results (statsmodels `cov_type="cluster"`, with its small-sample factor `G/(G − 1)`).
//!
//! Repeated runs of one test are correlated, so the clustered SE with each test its own
//! cluster is the honest one; the naive SE treats N runs of T tests as N·T independent
//! draws and is shown for contrast.

use serde::Serialize;

/// Passes among judged results: of one test, one cluster, one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tally {
    /// Results that passed.
    pub passed: usize,
    /// Results judged (passed or failed).
    pub judged: usize,
}

impl Tally {
    /// A tally of `passed` out of `judged`.
    pub fn new(passed: usize, judged: usize) -> Self {
        Self { passed, judged }
    }

    /// Adds another tally.
    pub fn add(&mut self, other: Tally) {
        self.passed += other.passed;
        self.judged += other.judged;
    }

    /// `passed / judged`; `None` when nothing was judged.
    pub fn rate(self) -> Option<f64> {
        (self.judged > 0).then(|| self.passed as f64 / self.judged as f64)
    }

    /// The sum of several tallies.
    pub fn sum<'a>(tallies: impl IntoIterator<Item = &'a Tally>) -> Tally {
        let mut t = Tally::default();
        for x in tallies {
            t.add(*x);
        }
        t
    }
}

/// The naive standard error `√(p(1 − p)/(N − 1))` of the pass rate of `total`, every
/// result counted as independent. `None` with fewer than 2 results.
///
/// ```
/// use evaltally_analyzer::stats::se::{naive, Tally};
/// let se = naive(Tally::new(84, 200)).unwrap();
/// assert!((se - 0.034_987_434_930_487_2).abs() < 1e-12);
/// assert_eq!(naive(Tally::new(1, 1)), None);
/// ```
pub fn naive(total: Tally) -> Option<f64> {
    if total.judged < 2 {
        return None;
    }
    let n = total.judged as f64;
    let p = total.passed as f64 / n;
    Some((p * (1.0 - p) / (n - 1.0)).max(0.0).sqrt())
}

/// The cluster-robust standard error of the pooled pass rate of `clusters`:
/// `√(G/(G − 1) · Σ_g (P_g − p·N_g)²) / N`. Clusters with nothing judged are left out.
/// `None` with fewer than 2 clusters.
///
/// ```
/// use evaltally_analyzer::stats::se::{clustered, Tally};
/// // Three tests, four runs each: the SE of the mean pass rate with tests as clusters.
/// let tests = [Tally::new(4, 4), Tally::new(1, 4), Tally::new(0, 4)];
/// let se = clustered(&tests).unwrap();
/// assert!((se - 0.300_462_606_288_665_95).abs() < 1e-12);
/// assert_eq!(clustered(&tests[..1]), None);
/// ```
pub fn clustered(clusters: &[Tally]) -> Option<f64> {
    let used: Vec<Tally> = clusters.iter().copied().filter(|c| c.judged > 0).collect();
    let g = used.len();
    if g < 2 {
        return None;
    }
    let total = Tally::sum(&used);
    let n = total.judged as f64;
    let p = total.passed as f64 / n;
    let sum_sq: f64 = used.iter().map(|c| (c.passed as f64 - p * c.judged as f64).powi(2)).sum();
    let g = g as f64;
    Some((g / (g - 1.0) * sum_sq).max(0.0).sqrt() / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from statsmodels 0.15 `OLS(y, ones).fit()` (naive) and
    /// `.fit(cov_type="cluster", cov_kwds={"groups": g})` (clustered), computed by
    /// `xtask/stats/fixtures.py` (section `se`).
    #[test]
    #[allow(clippy::type_complexity)]
    fn matches_statsmodels() {
        // (per-cluster passed/judged, naive, clustered)
        let cases: [(&[(usize, usize)], f64, f64); 4] = [
            (&[(4, 4), (1, 4), (0, 4)], 0.148_647_097_502_640_8, 0.300_462_606_288_665_95),
            (&[(5, 5), (5, 5), (3, 5), (0, 5), (1, 5), (2, 5)], 0.092_641_111_170_620_17, 0.168_654_808_542_313_52),
            (&[(83, 100), (40, 60), (7, 40), (20, 20)], 0.031_473_852_941_718_83, 0.136_048_554_928_341_3),
            (&[(3, 5), (2, 3), (0, 4), (4, 4), (1, 2)], 0.120_516_921_010_364_5, 0.178_639_458_376_392_28),
        ];
        for (clusters, want_naive, want_clustered) in cases {
            let tallies: Vec<Tally> = clusters.iter().map(|&(p, n)| Tally::new(p, n)).collect();
            let got_naive = naive(Tally::sum(&tallies)).unwrap();
            let got_clustered = clustered(&tallies).unwrap();
            assert!((got_naive - want_naive).abs() < 1e-12, "{clusters:?}: naive {got_naive} vs {want_naive}");
            assert!(
                (got_clustered - want_clustered).abs() < 1e-12,
                "{clusters:?}: clustered {got_clustered} vs {want_clustered}"
            );
        }
    }

    #[test]
    fn degenerate_inputs_give_none_or_zero() {
        assert_eq!(naive(Tally::default()), None);
        assert_eq!(naive(Tally::new(10, 10)), Some(0.0));
        assert_eq!(clustered(&[]), None);
        assert_eq!(clustered(&[Tally::new(3, 3), Tally::default()]), None);
        assert_eq!(clustered(&[Tally::new(3, 3), Tally::new(2, 2)]), Some(0.0));
    }
}
