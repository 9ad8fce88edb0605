//! Between-test and within-test (run-to-run) variance components of a pass rate.
//!
//! With `n_t` judged runs of test `t` and `c_t` passes, the one-way random-effects analysis
//! of variance (tests as groups, runs as replicates) splits the variance of one result into
//!
//! * **within** (`σ²_w`, run-to-run): how much a test's outcome varies between runs,
//!   `MS_within = Σ_t c_t(1 − c_t/n_t) / (N − T)`;
//! * **between** (`σ²_b`): how much tests differ in their pass rates, beyond what run-to-run
//!   noise explains: `max(0, (MS_between − MS_within) / n₀)` with
//!   `MS_between = Σ_t n_t (p_t − p)² / (T − 1)` and `n₀ = (N − Σ n_t²/N) / (T − 1)`
//!   (n₀ = runs per test when every test ran equally often).
//!
//! A score averaged over T tests and r runs each then has variance
//! `σ²_b/T + σ²_w/(T·r)`: more runs shrink only the second term, more tests both.

use serde::Serialize;

use super::se::Tally;

/// The variance components of one set of tests.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Components {
    /// Between-test variance `σ²_b` (0 when the estimate is negative).
    pub between: f64,
    /// Within-test, run-to-run variance `σ²_w`.
    pub within: f64,
    /// Tests (T).
    pub tests: usize,
    /// Judged results (N).
    pub results: usize,
}

impl Components {
    /// Mean judged runs per test, N/T.
    pub fn runs_per_test(&self) -> f64 {
        self.results as f64 / self.tests as f64
    }

    /// The share of the variance of a score averaged over `runs` runs that is run-to-run
    /// noise: `(σ²_w/r) / (σ²_b + σ²_w/r)`. For one run this is `1 − ICC`. `None` when
    /// there is no variance at all (every test always passed, or always failed).
    pub fn run_share(&self, runs: f64) -> Option<f64> {
        let noise = self.within / runs.max(1.0);
        let total = self.between + noise;
        (total > 0.0 && total.is_finite()).then(|| noise / total)
    }

    /// Standard deviation of a single run's score on these tests from run-to-run noise
    /// alone: `√(σ²_w / T)`.
    pub fn single_run_sd(&self) -> f64 {
        (self.within / self.tests as f64).sqrt()
    }

    /// Standard error of the mean score over `runs` runs on these same tests (run-to-run
    /// noise only, the tests fixed): `√(σ²_w / (T·r))`.
    pub fn run_se(&self, runs: f64) -> f64 {
        (self.within / (self.tests as f64 * runs.max(1.0))).sqrt()
    }

    /// Standard error of the mean score over `runs` runs with the tests seen as a sample of
    /// the tests the benchmark could have held: `√((σ²_b + σ²_w/r) / T)`.
    pub fn full_se(&self, runs: f64) -> f64 {
        ((self.between + self.within / runs.max(1.0)) / self.tests as f64).sqrt()
    }
}

/// The variance components of `tests` (one tally per test; tests with nothing judged are
/// left out). `None` with fewer than 2 tests, or when no test was judged twice (nothing
/// tells run-to-run variance then).
///
/// ```
/// use evaltally_analyzer::stats::{se::Tally, variance::components};
/// // Four runs of three tests: one always passes, one passed once, one never.
/// let c = components(&[Tally::new(4, 4), Tally::new(1, 4), Tally::new(0, 4)]).unwrap();
/// assert!((c.within - 1.0 / 12.0).abs() < 1e-12);
/// assert!((c.between - 0.25).abs() < 1e-12);
/// assert!(components(&[Tally::new(1, 1), Tally::new(0, 1)]).is_none());
/// ```
pub fn components(tests: &[Tally]) -> Option<Components> {
    let used: Vec<Tally> = tests.iter().copied().filter(|t| t.judged > 0).collect();
    let t = used.len();
    let total = Tally::sum(&used);
    let n = total.judged;
    if t < 2 || n <= t {
        return None;
    }
    let p = total.passed as f64 / n as f64;
    let (mut ssw, mut ssb, mut sum_n2) = (0.0, 0.0, 0.0);
    for x in &used {
        let (c, m) = (x.passed as f64, x.judged as f64);
        ssw += c - c * c / m;
        ssb += m * (c / m - p).powi(2);
        sum_n2 += m * m;
    }
    let (nf, tf) = (n as f64, t as f64);
    let msw = ssw / (nf - tf);
    let msb = ssb / (tf - 1.0);
    let n0 = (nf - sum_n2 / nf) / (tf - 1.0);
    let between = if n0 > 0.0 { ((msb - msw) / n0).max(0.0) } else { 0.0 };
    Some(Components { between, within: msw.max(0.0), tests: t, results: n })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean squares checked against scipy 1.17 `f_oneway` (`F = MS_between / MS_within`)
    /// and the components computed by `xtask/stats/fixtures.py` (section `variance`).
    #[test]
    #[allow(clippy::type_complexity)]
    fn matches_the_anova_reference() {
        // (per-test passed/judged, between, within)
        let cases: [(&[(usize, usize)], f64, f64); 4] = [
            (&[(4, 4), (1, 4), (0, 4)], 0.249_999_999_999_999_97, 0.083_333_333_333_333_33),
            (&[(5, 5), (5, 5), (3, 5), (0, 5), (1, 5), (2, 5)], 0.144, 0.133_333_333_333_333_36),
            (&[(83, 100), (40, 60), (7, 40), (20, 20)], 0.094_221_530_600_722_69, 0.153_788_580_246_913_58),
            (&[(3, 5), (2, 3), (0, 4), (4, 4), (1, 2)], 0.095_639_006_662_628_71, 0.182_051_282_051_282_1),
        ];
        for (tests, between, within) in cases {
            let tallies: Vec<Tally> = tests.iter().map(|&(p, n)| Tally::new(p, n)).collect();
            let c = components(&tallies).unwrap();
            assert!((c.between - between).abs() < 1e-12, "{tests:?}: between {} vs {between}", c.between);
            assert!((c.within - within).abs() < 1e-12, "{tests:?}: within {} vs {within}", c.within);
        }
    }

    #[test]
    fn shares_and_standard_errors() {
        let c = Components { between: 0.15, within: 0.05, tests: 100, results: 500 };
        assert!((c.run_share(1.0).unwrap() - 0.25).abs() < 1e-12);
        assert!((c.run_share(5.0).unwrap() - 0.01 / 0.16).abs() < 1e-12);
        assert!((c.run_se(5.0) - (0.05f64 / 500.0).sqrt()).abs() < 1e-12);
        assert!((c.full_se(5.0) - (0.16f64 / 100.0).sqrt()).abs() < 1e-12);
        assert!((c.single_run_sd() - (0.05f64 / 100.0).sqrt()).abs() < 1e-12);
        let still = Components { between: 0.0, within: 0.0, tests: 3, results: 9 };
        assert_eq!(still.run_share(3.0), None);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(components(&[]).is_none());
        assert!(components(&[Tally::new(2, 3)]).is_none());
        let all_pass = components(&[Tally::new(3, 3), Tally::new(3, 3)]).unwrap();
        assert_eq!((all_pass.between, all_pass.within), (0.0, 0.0));
    }
}
