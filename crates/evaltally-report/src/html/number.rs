//! Numbers as the page's data holds them: six significant digits, so the data is the same on
//! every platform and stays small.

/// Six significant digits, so data is small and the same everywhere.
pub(crate) fn round(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return if x.is_finite() { 0.0 } else { x };
    }
    format!("{x:.5e}").parse().unwrap_or(x)
}

/// A rate, share or interval bound (between -1 and 1) to six decimals, so noise such as
/// `5.6e-17` reads 0.
pub(crate) fn unit(x: f64) -> f64 {
    if x.is_finite() { (x * 1e6).round() / 1e6 + 0.0 } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_six_significant_digits() {
        let r = |x: f64| round(x).to_string();
        assert_eq!(r(0.123_456_789), "0.123457");
        assert_eq!(r(1.0e-9 / 3.0), "0.000000000333333");
        assert_eq!(r(0.0), "0");
        assert_eq!(r(1700.0), "1700");
        assert_eq!(r(f64::NAN), "NaN");
        assert_eq!(unit(5.551_115_123_125_783e-17).to_string(), "0");
        assert_eq!(unit(-1e-9).to_string(), "0");
        assert_eq!(unit(0.938_507_9).to_string(), "0.938508");
    }
}
