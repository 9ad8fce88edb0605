//! Adjusted p-values, for many categories or tests tested at once.
//!
//! **Holm–Bonferroni** ([`holm`]) controls the chance of any false "significant". Sort the m
//! p-values ascending, `p₍₁₎ ≤ … ≤ p₍ₘ₎`; the adjusted value of the i-th is
//! `max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎)`. Rejecting where the adjusted value is below α
//! keeps the chance of any false "significant" among the m at most α (Holm 1979), and is
//! never less powerful than Bonferroni.
//!
//! **Benjamini–Hochberg** ([`benjamini_hochberg`]) controls the false discovery rate: the
//! expected share of false ones among those called significant. The adjusted value of the
//! i-th is `min_{j ≥ i} min(1, m·p₍ⱼ₎ / j)`. Rejecting where it is below q keeps that share
//! at most q (for independent tests; Benjamini & Hochberg 1995), with far more power than
//! Holm when many of the m are real changes.

/// Holm-adjusted p-values, in the order of `p`.
///
/// ```
/// let adj = evaltally_analyzer::stats::multiple::holm(&[0.01, 0.04, 0.03, 0.005]);
/// for (got, want) in adj.iter().zip([0.03, 0.06, 0.06, 0.02]) {
///     assert!((got - want).abs() < 1e-15);
/// }
/// ```
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running = 0.0_f64;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * p[i]).min(1.0);
        running = running.max(scaled);
        out[i] = running;
    }
    out
}

/// Benjamini–Hochberg adjusted p-values (q-values), in the order of `p`.
///
/// ```
/// let adj = evaltally_analyzer::stats::multiple::benjamini_hochberg(&[0.01, 0.04, 0.03, 0.005]);
/// for (got, want) in adj.iter().zip([0.02, 0.04, 0.04, 0.02]) {
///     assert!((got - want).abs() < 1e-15);
/// }
/// ```
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut out = vec![1.0; m];
    let mut running = 1.0_f64;
    for (rank, &i) in order.iter().enumerate().rev() {
        let scaled = (m as f64 * p[i] / (rank + 1) as f64).min(1.0);
        running = running.min(scaled);
        out[i] = running;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from statsmodels 0.15 `multipletests(p, method="holm")[1]`, computed by
    /// `xtask/stats/fixtures.py` (section `holm`).
    #[test]
    fn matches_statsmodels() {
        let cases: [(&[f64], &[f64]); 2] = [
            (
                &[4.713_242_239_575_157e-6, 0.803_619_384_765_625, 0.503_444_671_630_859_4, 0.0625, 0.02],
                &[2.356_621_119_787_578_5e-5, 1.0, 1.0, 0.1875, 0.08],
            ),
            (&[0.5, 0.5, 0.01], &[1.0, 1.0, 0.03]),
        ];
        for (p, want) in cases {
            let got = holm(p);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(want.iter()) {
                assert!((g - w).abs() < 1e-12, "{p:?}: {got:?} vs {want:?}");
            }
        }
        assert!(holm(&[]).is_empty());
    }

    /// Values from statsmodels `multipletests(p, method="fdr_bh")[1]` (section `bh` of
    /// `xtask/stats/fixtures.py`).
    #[test]
    fn benjamini_hochberg_matches_statsmodels() {
        let p = [4.713_242_239_575_157e-6, 0.803_619_384_765_625, 0.503_444_671_630_859_4, 0.0625, 0.02];
        let want = [2.356_621_12e-5, 0.803_619_385, 0.629_305_84, 0.104_166_667, 0.05];
        for (g, w) in benjamini_hochberg(&p).iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{g} vs {w}");
        }
        assert!(benjamini_hochberg(&[]).is_empty());
    }
}
