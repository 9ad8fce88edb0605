//! JUnit `time` attributes (seconds, as decimal text) to and from milliseconds.
//!
//! Both directions move the decimal point in the text instead of multiplying or dividing
//! by 1000, so a duration survives a round trip bit for bit: `1234.5` ms is written as
//! `1.2345` and read back as `1234.5`, never `1234.4999999999998`.

/// Why a `time` attribute was read the way it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// A plain decimal number.
    Plain,
    /// `1,234.5`: commas as thousands separators (Maven Surefire before 2.22 wrote these).
    Thousands,
    /// `0,5`: a decimal comma (test runners in some locales).
    DecimalComma,
}

/// Shifts the decimal point of a string of ASCII digits with at most one `.` by `places`
/// to the right, giving a plain decimal without needless zeros.
fn shift_right(int: &str, frac: &str, places: usize) -> String {
    let moved: String = frac.chars().chain(std::iter::repeat('0')).take(places).collect();
    let rest = frac.get(places..).unwrap_or("");
    let int = format!("{int}{moved}");
    let int = int.trim_start_matches('0');
    let rest = rest.trim_end_matches('0');
    match (int.is_empty(), rest.is_empty()) {
        (true, true) => "0".to_string(),
        (true, false) => format!("0.{rest}"),
        (false, true) => int.to_string(),
        (false, false) => format!("{int}.{rest}"),
    }
}

/// Shifts the decimal point of a string of ASCII digits by `places` to the left.
fn shift_left(int: &str, frac: &str, places: usize) -> String {
    let int = int.trim_start_matches('0');
    let (new_int, moved) = if int.len() > places {
        (&int[..int.len() - places], format!("{}{frac}", &int[int.len() - places..]))
    } else {
        ("", format!("{}{int}{frac}", "0".repeat(places - int.len())))
    };
    let new_int = if new_int.is_empty() { "0" } else { new_int };
    let moved = moved.trim_end_matches('0');
    if moved.is_empty() { new_int.to_string() } else { format!("{new_int}.{moved}") }
}

/// Splits `digits[.digits]` into its two parts; `None` for anything else.
fn split_decimal(s: &str) -> Option<(&str, &str)> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    (digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty())).then_some((int, frac))
}

/// A `time` attribute in milliseconds, and how it was read; `None` when it is not a finite,
/// non-negative number.
///
/// Accepts `0.004360291`, `12`, `.5`, `1e-3`, `1,234.5` (thousands separators) and `0,5`
/// (decimal comma).
pub(crate) fn parse_ms(raw: &str) -> Option<(f64, Reading)> {
    let s = raw.trim();
    let (s, reading) = match (s.contains(','), s.contains('.')) {
        (true, false) if s.matches(',').count() == 1 => (s.replace(',', "."), Reading::DecimalComma),
        (true, _) => (s.replace(',', ""), Reading::Thousands),
        (false, _) => (s.to_string(), Reading::Plain),
    };
    let ms = if let Some((int, frac)) = split_decimal(&s) {
        shift_right(int, frac, 3).parse::<f64>().ok()?
    } else {
        let lower = s.to_ascii_lowercase();
        if lower.contains("inf") || lower.contains("nan") {
            return None;
        }
        s.parse::<f64>().ok()? * 1000.0
    };
    (ms.is_finite() && ms >= 0.0).then_some((ms, reading))
}

/// Milliseconds as a `time` attribute in seconds; `None` for negative or non-finite values.
pub(crate) fn format_ms(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms < 0.0 {
        return None;
    }
    // `Display` for f64 never uses an exponent and gives the shortest text that parses back
    // to the same value.
    let text = format!("{ms}");
    let (int, frac) = split_decimal(&text)?;
    Some(shift_left(int, frac, 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_moving_the_point() {
        let cases = [
            (0.0, "0"),
            (1.0, "0.001"),
            (1500.0, "1.5"),
            (4.360_291, "0.004360291"),
            (1234.5, "1.2345"),
            (123_456_789.0, "123456.789"),
            (1e-7, "0.0000000001"),
        ];
        for (ms, text) in cases {
            assert_eq!(format_ms(ms).as_deref(), Some(text), "{ms}");
            assert_eq!(parse_ms(text), Some((ms, Reading::Plain)), "{text}");
        }
        assert_eq!(format_ms(-1.0), None);
        assert_eq!(format_ms(f64::NAN), None);
    }

    #[test]
    fn parses_dialects() {
        assert_eq!(parse_ms("1,234.5"), Some((1_234_500.0, Reading::Thousands)));
        assert_eq!(parse_ms("34,953.254"), Some((34_953_254.0, Reading::Thousands)));
        assert_eq!(parse_ms("0,5"), Some((500.0, Reading::DecimalComma)));
        assert_eq!(parse_ms(" 2 "), Some((2000.0, Reading::Plain)));
        assert_eq!(parse_ms(".5"), Some((500.0, Reading::Plain)));
        assert_eq!(parse_ms("1e-3"), Some((1.0, Reading::Plain)));
        for bad in ["", "abc", "-1", "NaN", "inf", "1.2.3", "1s", "."] {
            assert_eq!(parse_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn round_trips_awkward_values() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let scaled = (x >> 24) as f64 / f64::from(1u32 << (x % 24));
            for ms in [scaled, f64::from_bits(x >> 2), f64::from_bits(x >> 1)] {
                if let Some(text) = format_ms(ms) {
                    assert_eq!(parse_ms(&text).map(|p| p.0), Some(ms), "{text}");
                }
            }
        }
    }
}
