//! The standard normal distribution function, for normal-approximation p-values.

/// The complementary error function, `erfc(x) = 1 − erf(x)`, with relative error below
/// 1.2e-7 everywhere (Chebyshev fit, Press et al., *Numerical Recipes*, §6.2).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// `P(Z > z)` for a standard normal Z.
///
/// ```
/// let p = evaltally_analyzer::stats::normal::sf(1.959_963_984_540_054);
/// assert!((p - 0.025).abs() < 1e-8);
/// ```
pub fn sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The two-sided p-value of a z statistic, `2·P(Z > |z|)`; 1 for NaN.
///
/// ```
/// let p = evaltally_analyzer::stats::normal::two_sided_p(-2.5);
/// assert!((p - 0.012_419_330_651_552_265).abs() < 1e-8);
/// ```
pub fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() { 1.0 } else { (2.0 * sf(z.abs())).min(1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from scipy 1.17 `norm.sf(z)`, computed by `xtask/stats/fixtures.py`
    /// (section `normal`); the approximation is good to a relative 1.2e-7.
    #[test]
    fn matches_scipy() {
        for (z, want) in [
            (0.0, 0.5),
            (1.0, 0.158_655_253_931_457_07),
            (3.0, 0.001_349_898_031_630_093_3),
            (-1.5, 0.933_192_798_731_141_9),
            (6.0, 9.865_876_450_376_946e-10),
        ] {
            let got = sf(z);
            assert!((got - want).abs() <= 2e-7 * want, "sf({z}) = {got}, want {want}");
        }
    }
}
