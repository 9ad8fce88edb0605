//! The timestamps Terminal-Bench writes (`datetime.isoformat()` of an aware UTC time,
//! `2025-09-22T02:29:33.174335+00:00`), as seconds since the Unix epoch, for durations.

/// Seconds since 1970-01-01T00:00:00Z of an ISO 8601 date and time with an offset (`Z` or
/// `±HH:MM`) or none (read as UTC); `None` for anything else.
///
/// ```
/// use evaltally_terminal_bench::seconds;
/// let start = seconds("2025-09-22T02:29:33.174335+00:00").unwrap();
/// let end = seconds("2025-09-22T04:36:35.5+02:00").unwrap();
/// assert!((end - start - 422.325665).abs() < 1e-6);
/// assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0.0));
/// assert_eq!(seconds("2025-09-22"), None);
/// assert_eq!(seconds("2025-13-01T00:00:00"), None);
/// ```
pub fn seconds(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b' ') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        if s.bytes().all(|c| c.is_ascii_digit()) { s.parse().ok() } else { None }
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &text[19..];
    let mut fraction = 0.0;
    if let Some(after) = rest.strip_prefix('.') {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        fraction = format!("0.{}", &after[..digits]).parse().ok()?;
        rest = &after[digits..];
    }
    let offset = match rest {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let hm = &rest[1..];
            let (h, m) = match hm.len() {
                5 if hm.as_bytes()[2] == b':' => (&hm[..2], &hm[3..]),
                4 => (&hm[..2], &hm[2..]),
                _ => return None,
            };
            let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
            sign * (h * 3600 + m * 60)
        }
    };
    let days = evaltally_core::date::days_from_civil(year, month, day);
    #[allow(clippy::cast_precision_loss)] // seconds of the years Terminal-Bench runs in
    let whole = (days * 86_400 + hour * 3600 + minute * 60 + second - offset) as f64;
    Some(whole + fraction)
}

/// The seconds from `start` to `end` when both read and the end is not before the start.
pub(crate) fn between(start: Option<&str>, end: Option<&str>) -> Option<f64> {
    let d = seconds(end?)? - seconds(start?)?;
    (d >= 0.0).then_some(d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_count_days_like_the_calendar() {
        assert_eq!(super::seconds("2024-02-29T12:00:00-01:30"), Some(1_709_213_400.0));
        assert_eq!(super::between(Some("2025-01-01T00:00:10Z"), Some("2025-01-01T00:00:00Z")), None);
    }
}
