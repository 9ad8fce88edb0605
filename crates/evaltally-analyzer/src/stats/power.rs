//! Power analysis: the smallest change a comparison can detect, and how many runs or tests
//! a target standard error needs.
//!
//! A two-sided test at α = 0.05 detects a true difference δ with 80% power when
//! `δ ≥ (z₀.₉₇₅ + z₀.₈₀)·SE_diff ≈ 2.80·SE_diff`: that δ is the **minimum detectable
//! effect** (MDE) of a comparison whose difference has standard error `SE_diff`.

use super::{Z80, Z95};

/// The minimum detectable effect at 80% power and α = 0.05 two-sided for a difference with
/// standard error `se_diff`: `(z₀.₉₇₅ + z₀.₈₀)·se_diff`.
///
/// ```
/// let mde = evaltally_analyzer::stats::power::mde(0.02);
/// assert!((mde - 0.056_031_704_362_259_37).abs() < 1e-12);
/// ```
pub fn mde(se_diff: f64) -> f64 {
    (Z95 + Z80) * se_diff
}

/// The standard error of a paired difference of two scores, each averaged over `runs` runs
/// of the same `tests` tests with run-to-run variance `within` on both sides and no
/// test-by-change interaction: `√(2σ²_w / (T·r))`. The best case: a real change that
/// affects tests unevenly adds variance.
///
/// ```
/// let se = evaltally_analyzer::stats::power::paired_se(0.1, 200, 5.0);
/// assert!((se - 0.014_142_135_623_730_95).abs() < 1e-12);
/// ```
pub fn paired_se(within: f64, tests: usize, runs: f64) -> f64 {
    (2.0 * within / (tests as f64 * runs.max(1.0))).sqrt()
}

/// The smallest whole number at or above `x` (at least 1), when it is finite and fits;
/// `x` a hair above a whole number from rounding (6.000000000000001) counts as that number.
fn ceil_count(x: f64) -> Option<usize> {
    if !x.is_finite() || !(0.0..=1e15).contains(&x) {
        return None;
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = (x * (1.0 - 1e-12)).ceil() as usize;
    Some(n.max(1))
}

/// Runs per test that bring the run-to-run standard error of a score over `tests` tests
/// under `target`: the smallest r with `√(σ²_w/(T·r)) ≤ target`, `⌈σ²_w / (T·target²)⌉`
/// (at least 1). `None` for a target that is not positive, or no tests.
///
/// ```
/// use evaltally_analyzer::stats::power::runs_needed;
/// assert_eq!(runs_needed(0.12, 200, 0.01), Some(6));
/// assert_eq!(runs_needed(0.0, 200, 0.01), Some(1));
/// assert_eq!(runs_needed(0.12, 200, 0.0), None);
/// ```
pub fn runs_needed(within: f64, tests: usize, target: f64) -> Option<usize> {
    if tests == 0 || target.is_nan() || target <= 0.0 {
        return None;
    }
    ceil_count(within / (tests as f64 * target * target))
}

/// Tests a new benchmark of tests like these needs for the standard error of its score
/// (tests seen as a sample, `runs` runs per test) to be at most `target`:
/// `⌈(σ²_b + σ²_w/r) / target²⌉`. `None` for a target that is not positive.
///
/// ```
/// use evaltally_analyzer::stats::power::tests_needed;
/// assert_eq!(tests_needed(0.15, 0.1, 1.0, 0.01), Some(2500));
/// assert_eq!(tests_needed(0.15, 0.1, 5.0, 0.01), Some(1700));
/// ```
pub fn tests_needed(between: f64, within: f64, runs: f64, target: f64) -> Option<usize> {
    if target.is_nan() || target <= 0.0 {
        return None;
    }
    ceil_count((between + within / runs.max(1.0)) / (target * target))
}
