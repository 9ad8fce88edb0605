//! Statistics for telling signal from run-to-run noise.
//!
//! * [`wilson`]: the Wilson score interval of a pass rate (better than `p ± 1.96·se` at
//!   small n and near 0 or 1).
//! * [`mcnemar_exact`]: the exact McNemar test on the discordant pairs of two runs of the
//!   same tests (regressions `b` vs improvements `c`).
//! * [`pass_at_k`] and [`pass_hat_k`]: the chance that at least one (pass@k) or all
//!   (pass^k, τ-bench) of k runs of a test pass, from n runs with c passes.
//! * [`bootstrap_mean_interval`] and [`sign_flip_p`]: a paired bootstrap interval and a paired
//!   randomization test on per-test differences, with a fixed seed so results reproduce.
//! * [`se`]: naive and cluster-robust standard errors of a pass rate.
//! * [`variance`]: between-test and within-test (run-to-run) variance components.
//! * [`power`]: minimum detectable effects, and the runs or tests a target SE needs.
//! * [`fisher_exact`]: Fisher's exact test of two pass rates (a test's runs before and after).
//! * [`multiple`]: Holm–Bonferroni and Benjamini–Hochberg adjusted p-values.
//! * [`normal`]: the standard normal distribution function.
//!
//! `docs/statistics.md` has every formula; the unit tests hold values computed with scipy
//! and statsmodels by `xtask/stats/fixtures.py`.

pub mod multiple;
pub mod normal;
pub mod power;
pub mod se;
pub mod variance;

/// The 0.975 quantile of the standard normal distribution (two-sided 95%).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 0.80 quantile of the standard normal distribution (80% power).
pub const Z80: f64 = 0.841_621_233_572_914_3;

/// The Wilson score interval for `passed` successes out of `total`, at the normal quantile
/// `z` (use [`Z95`] for 95%). `(0, 1)` when `total` is 0.
///
/// ```
/// let (lo, hi) = evaltally_analyzer::stats::wilson(84, 200, evaltally_analyzer::stats::Z95);
/// assert!((lo - 0.353_736).abs() < 1e-6 && (hi - 0.489_279).abs() < 1e-6);
/// ```
pub fn wilson(passed: usize, total: usize, z: f64) -> (f64, f64) {
    if total == 0 {
        return (0.0, 1.0);
    }
    let n = total as f64;
    let p = passed as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// ln(n!) for the binomial terms: exact by summation up to 256, then by Stirling's series
/// (relative error below 1e-15 there).
fn ln_factorial(n: u64) -> f64 {
    if n <= 256 {
        return (2..=n).map(|i| (i as f64).ln()).sum();
    }
    let x = n as f64;
    x * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI * x).ln() + 1.0 / (12.0 * x) - 1.0 / (360.0 * x.powi(3))
        + 1.0 / (1260.0 * x.powi(5))
}

fn ln_choose(n: u64, k: u64) -> f64 {
    ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k)
}

/// The two-sided exact McNemar p-value for `b` pairs that went one way and `c` that went
/// the other: `min(1, 2·P(X ≤ min(b, c)))` with `X ~ Binomial(b + c, 1/2)`. 1 when there is
/// no discordant pair.
///
/// ```
/// // 7 regressions vs 9 improvements: no evidence of a change.
/// let p = evaltally_analyzer::stats::mcnemar_exact(7, 9);
/// assert!((p - 0.803_619_384_765_625).abs() < 1e-12);
/// ```
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let n = (b + c) as u64;
    if n == 0 {
        return 1.0;
    }
    let k = b.min(c) as u64;
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let tail: f64 = (0..=k).map(|i| (ln_choose(n, i) + ln_half_n).exp()).sum();
    (2.0 * tail).min(1.0)
}

/// The two-sided p-value of Fisher's exact test on the 2 × 2 table `[[a, b], [c, d]]` (here:
/// a test's passes and fails on the base side, then on the new side): the chance, given
/// the margins, of a table at most as likely as the one seen (tables within a relative
/// 1e-7 of it counted as equally likely, as R and scipy do). 1 when a margin is empty.
///
/// ```
/// // 19 of 20 passes before, 3 of 20 after.
/// let p = evaltally_analyzer::stats::fisher_exact(19, 1, 3, 17);
/// assert!((p - 4.055_379_593_417_026_4e-7).abs() < 1e-15);
/// assert_eq!(evaltally_analyzer::stats::fisher_exact(5, 0, 5, 0), 1.0);
/// ```
pub fn fisher_exact(a: usize, b: usize, c: usize, d: usize) -> f64 {
    let (row1, row2, col1) = ((a + b) as u64, (c + d) as u64, (a + c) as u64);
    let n = row1 + row2;
    if row1 == 0 || row2 == 0 || col1 == 0 || col1 == n {
        return 1.0;
    }
    let ln_total = ln_choose(n, col1);
    let ln_p = |x: u64| ln_choose(row1, x) + ln_choose(row2, col1 - x) - ln_total;
    let seen = ln_p(a as u64);
    let (lo, hi) = (col1.saturating_sub(row2), col1.min(row1));
    let bound = seen + 1e-7_f64.ln_1p();
    let p: f64 = (lo..=hi).map(ln_p).filter(|&l| l <= bound).map(f64::exp).sum();
    p.min(1.0)
}

/// The Wald interval of a paired difference of proportions from `b` pairs that went
/// pass → fail and `c` that went fail → pass out of `n` pairs:
/// `d = (c − b)/n`, `d ± z·√(b + c − (c − b)²/n) / n` (Agresti, *Categorical Data Analysis*,
/// §10.1). `None` without pairs.
///
/// ```
/// let (lo, hi) = evaltally_analyzer::stats::paired_wald(18, 58, 200, evaltally_analyzer::stats::Z95).unwrap();
/// assert!((lo - 0.119_189).abs() < 1e-6 && (hi - 0.280_811).abs() < 1e-6);
/// ```
pub fn paired_wald(b: usize, c: usize, n: usize, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (b, c, n) = (b as f64, c as f64, n as f64);
    let d = (c - b) / n;
    let se = (b + c - (c - b) * (c - b) / n).max(0.0).sqrt() / n;
    Some((d - z * se, d + z * se))
}

/// C(n, k) as f64 by a product, stable for the sizes of eval runs.
fn choose_ratio(top_n: u64, bottom_n: u64, k: u64) -> f64 {
    // C(top_n, k) / C(bottom_n, k) = Π_{i=0..k} (top_n - i) / (bottom_n - i)
    (0..k).map(|i| (top_n.saturating_sub(i)) as f64 / (bottom_n - i) as f64).product()
}

/// pass@k (Chen et al. 2021): the chance that at least one of k runs drawn without
/// replacement from `n` runs with `c` passes passed: `1 − C(n−c, k) / C(n, k)`.
/// `None` when `k` is 0 or larger than `n`.
///
/// ```
/// use evaltally_analyzer::stats::pass_at_k;
/// assert_eq!(pass_at_k(5, 0, 3), Some(0.0));
/// assert_eq!(pass_at_k(5, 3, 3), Some(1.0)); // only 2 failures: 3 draws always hit a pass
/// assert_eq!(pass_at_k(4, 1, 2), Some(0.5));
/// ```
pub fn pass_at_k(n: usize, c: usize, k: usize) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    let (n, c, k) = (n as u64, c as u64, k as u64);
    if n - c < k {
        return Some(1.0);
    }
    Some(1.0 - choose_ratio(n - c, n, k))
}

/// pass^k (τ-bench, Yao et al. 2024): the chance that all of k runs drawn without
/// replacement from `n` runs with `c` passes passed: `C(c, k) / C(n, k)`. `None` when `k`
/// is 0 or larger than `n`.
///
/// ```
/// use evaltally_analyzer::stats::pass_hat_k;
/// assert_eq!(pass_hat_k(4, 2, 2), Some(1.0 / 6.0));
/// assert_eq!(pass_hat_k(3, 3, 3), Some(1.0));
/// assert_eq!(pass_hat_k(3, 2, 3), Some(0.0));
/// ```
pub fn pass_hat_k(n: usize, c: usize, k: usize) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    let (n, c, k) = (n as u64, c as u64, k as u64);
    if c < k {
        return Some(0.0);
    }
    Some(choose_ratio(c, n, k))
}

/// pass@k and pass^k for every k from 1 to `n`, for a test with `c` passes in `n` runs, in
/// O(n): each k from the one before (`C(m, k+1)/C(n, k+1) = C(m, k)/C(n, k) · (m−k)/(n−k)`),
/// the same products [`pass_at_k`] and [`pass_hat_k`] compute term by term, so the values
/// are equal to the last bit. Index `k − 1` holds k's value.
///
/// ```
/// use evaltally_analyzer::stats::{pass_at_k, pass_hat_k, pass_k_series};
/// let (at, hat) = pass_k_series(5, 3);
/// assert_eq!(at.len(), 5);
/// assert_eq!(Some(at[1]), pass_at_k(5, 3, 2));
/// assert_eq!(Some(hat[2]), pass_hat_k(5, 3, 3));
/// ```
pub fn pass_k_series(n: usize, c: usize) -> (Vec<f64>, Vec<f64>) {
    let c = c.min(n);
    let mut at = Vec::with_capacity(n);
    let mut hat = Vec::with_capacity(n);
    // C(n−c, k)/C(n, k) and C(c, k)/C(n, k), for k = 0 first.
    let (mut none, mut all) = (1.0_f64, 1.0_f64);
    for k in 0..n {
        none *= (n - c).saturating_sub(k) as f64 / (n - k) as f64;
        all *= c.saturating_sub(k) as f64 / (n - k) as f64;
        at.push(if n - c < k + 1 { 1.0 } else { 1.0 - none });
        hat.push(if c < k + 1 { 0.0 } else { all });
    }
    (at, hat)
}

/// The seedable generator resampling uses ([`evaltally_core::SplitMix64`]).
pub use evaltally_core::SplitMix64;

/// The seed every resampling uses unless told otherwise, so output is reproducible.
pub const DEFAULT_SEED: u64 = 0x5EED_E7A1_7A11;

/// The paired bootstrap percentile interval of the mean of `diffs` (one difference per
/// test, e.g. new pass rate minus base pass rate): resample the tests with replacement
/// `iterations` times, take the mean each time, and return the `(1−level)/2` and
/// `(1+level)/2` percentiles. `None` when there is no test.
///
/// ```
/// use evaltally_analyzer::stats::{bootstrap_mean_interval, DEFAULT_SEED};
/// let diffs = [0.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0, 0.0];
/// let (lo, hi) = bootstrap_mean_interval(&diffs, 2000, 0.95, DEFAULT_SEED).unwrap();
/// assert!(lo < 0.25 && 0.25 < hi);
/// ```
pub fn bootstrap_mean_interval(diffs: &[f64], iterations: usize, level: f64, seed: u64) -> Option<(f64, f64)> {
    if diffs.is_empty() || iterations == 0 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let n = diffs.len();
    let mut means: Vec<f64> =
        (0..iterations).map(|_| (0..n).map(|_| diffs[rng.below(n)]).sum::<f64>() / n as f64).collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let i = ((q * (iterations - 1) as f64).round() as usize).min(iterations - 1);
        means[i]
    };
    Some((at((1.0 - level) / 2.0), at(f64::midpoint(1.0, level))))
}

/// The two-sided p-value of a paired sign-flip randomization test on `diffs`: how often a
/// random flip of each difference's sign gives a mean at least as far from 0 as the one
/// observed, with the `(hits + 1) / (iterations + 1)` correction. 1 when every difference
/// is 0.
///
/// ```
/// use evaltally_analyzer::stats::{sign_flip_p, DEFAULT_SEED};
/// assert_eq!(sign_flip_p(&[0.0, 0.0], 1000, DEFAULT_SEED), 1.0);
/// assert!(sign_flip_p(&[-1.0; 30], 2000, DEFAULT_SEED) < 0.001);
/// ```
pub fn sign_flip_p(diffs: &[f64], iterations: usize, seed: u64) -> f64 {
    let observed: f64 = diffs.iter().sum::<f64>().abs();
    if diffs.is_empty() || observed == 0.0 || iterations == 0 {
        return 1.0;
    }
    let mut rng = SplitMix64::new(seed);
    let mut hits = 0usize;
    for _ in 0..iterations {
        let mut sum = 0.0;
        for chunk in diffs.chunks(64) {
            let bits = rng.next_u64();
            for (i, d) in chunk.iter().enumerate() {
                sum += if bits >> i & 1 == 1 { *d } else { -*d };
            }
        }
        if sum.abs() >= observed - 1e-12 {
            hits += 1;
        }
    }
    (hits + 1) as f64 / (iterations + 1) as f64
}

#[cfg(test)]
mod tests {
    /// Values from scipy 1.x `fisher_exact(table)[1]`, computed by `xtask/stats/fixtures.py`
    /// (section `fisher`); the last table's margins pass 256, where ln n! is Stirling's.
    #[test]
    fn fisher_matches_scipy() {
        let cases = [
            ((19, 1, 3, 17), 4.055_379_593_417_026_4e-7),
            ((10, 2, 3, 9), 0.012_278_137_799_742_322),
            ((1000, 10, 900, 110), 1.409_142_283_673_428e-23),
            ((5, 0, 5, 0), 1.0),
        ];
        for ((a, b, c, d), want) in cases {
            let got = super::fisher_exact(a, b, c, d);
            assert!((got - want).abs() <= 1e-9 * want, "{a} {b} {c} {d}: {got} vs {want}");
        }
    }

    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Reference values from statsmodels 0.14 `proportion_confint(k, n, method="wilson")`
    /// (z = norm.ppf(0.975)), computed outside this code base.
    #[test]
    fn wilson_matches_statsmodels() {
        for (k, n, lo, hi) in [
            (84, 200, 0.353_735_991_616_167_26, 0.489_279_260_604_195_4),
            (124, 200, 0.551_067_180_156_192_3, 0.684_409_941_513_263_7),
            (0, 16, 0.0, 0.193_607_680_534_436_55),
            (16, 16, 0.806_392_319_465_563_3, 1.0),
        ] {
            let (l, h) = wilson(k, n, Z95);
            assert!(close(l, lo, 1e-12) && close(h, hi, 1e-12), "{k}/{n}: {l} {h}");
        }
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    /// Reference values from scipy 1.x `binomtest(min(b, c), b + c, 0.5).pvalue`
    /// (two-sided exact binomial = exact McNemar), computed outside this code base.
    #[test]
    #[allow(clippy::float_cmp)] // symmetry and the no-discordance case are exact by construction
    fn mcnemar_matches_scipy_binomtest() {
        for (b, c, p) in [
            (18, 58, 4.713_242_239_575_157e-6), // multi_turn_base v0.11.0 → harmony-fixes
            (7, 9, 0.803_619_384_765_625),      // live_simple v0.10.2 → v0.11.0
            (12, 8, 0.503_444_671_630_859_4),   // simple_python main → harmony-fixes-2
            (0, 5, 0.0625),
            (5, 5, 1.0),
        ] {
            let got = mcnemar_exact(b, c);
            assert!(close(got, p, 1e-12 * p.max(1e-3)), "{b}/{c}: {got} vs {p}");
            assert_eq!(got, mcnemar_exact(c, b));
        }
        assert_eq!(mcnemar_exact(0, 0), 1.0);
    }

    /// pass@k and pass^k against direct enumeration of every k-subset of the runs.
    #[test]
    fn pass_k_series_equals_the_term_by_term_values() {
        for n in 1..=14 {
            for c in 0..=n {
                let (at, hat) = pass_k_series(n, c);
                for k in 1..=n {
                    assert_eq!(Some(at[k - 1]), pass_at_k(n, c, k), "pass@{k} n={n} c={c}");
                    assert_eq!(Some(hat[k - 1]), pass_hat_k(n, c, k), "pass^{k} n={n} c={c}");
                }
            }
        }
    }

    #[test]
    fn pass_k_matches_enumeration() {
        fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
            (0u32..(1 << n))
                .filter(|m| m.count_ones() as usize == k)
                .map(|m| (0..n).filter(|i| m >> i & 1 == 1).collect())
                .collect()
        }
        for n in 1..=7 {
            for c in 0..=n {
                for k in 1..=n {
                    let subs = subsets(n, k);
                    // runs 0..c passed, the rest failed
                    let any = subs.iter().filter(|s| s.iter().any(|&i| i < c)).count() as f64 / subs.len() as f64;
                    let all = subs.iter().filter(|s| s.iter().all(|&i| i < c)).count() as f64 / subs.len() as f64;
                    assert!(close(pass_at_k(n, c, k).unwrap(), any, 1e-12), "pass@{k} n={n} c={c}");
                    assert!(close(pass_hat_k(n, c, k).unwrap(), all, 1e-12), "pass^{k} n={n} c={c}");
                }
            }
        }
        assert_eq!(pass_at_k(3, 1, 4), None);
        assert_eq!(pass_hat_k(3, 1, 0), None);
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_mean() {
        let diffs: Vec<f64> = (0..200)
            .map(|i| {
                if i % 5 == 0 {
                    -1.0
                } else if i % 3 == 0 {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
        let a = bootstrap_mean_interval(&diffs, 1000, 0.95, 7).unwrap();
        let b = bootstrap_mean_interval(&diffs, 1000, 0.95, 7).unwrap();
        assert_eq!(a, b);
        assert!(a.0 < mean && mean < a.1, "{a:?} {mean}");
        // The normal-approximation half width is 1.96·sd/√n; the percentile interval is close to it.
        let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (diffs.len() - 1) as f64).sqrt();
        let half = Z95 * sd / (diffs.len() as f64).sqrt();
        assert!(close(a.1 - a.0, 2.0 * half, 0.25 * half), "{a:?} vs ±{half}");
        assert_eq!(bootstrap_mean_interval(&[], 10, 0.95, 1), None);
    }

    #[test]
    fn sign_flip_detects_consistent_shifts_only() {
        let balanced: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
        assert!(sign_flip_p(&balanced, 2000, DEFAULT_SEED) > 0.5);
        let mut shifted = vec![0.0; 100];
        shifted[..12].fill(-1.0);
        // 12 of 12 non-zero differences negative: exact two-sided p = 2 / 2^12 ≈ 0.00049.
        assert!(sign_flip_p(&shifted, 20_000, DEFAULT_SEED) < 0.002);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [0usize; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
