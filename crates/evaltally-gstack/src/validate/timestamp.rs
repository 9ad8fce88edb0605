//! ISO 8601 timestamps, as gstack writes them (`new Date().toISOString()`).

/// Whether `s` is an ISO 8601 calendar date or date-time in extended format:
/// `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` and a zone (`Z`, `±HH`, `±HH:MM`,
/// `±HHMM`). Days are checked against the month (and leap years).
///
/// ```
/// use evaltally_gstack::validate::is_iso8601;
/// assert!(is_iso8601("2026-03-15T10:30:00.000Z"));
/// assert!(is_iso8601("2025-05-01T12:00:00+02:00"));
/// assert!(is_iso8601("2024-02-29"));
/// assert!(!is_iso8601("2025-02-29"));
/// assert!(!is_iso8601("2026-03-15 10:30"));
/// assert!(!is_iso8601("March 15"));
/// ```
pub fn is_iso8601(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = b.get(from..from + len)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0, |acc, d| acc * 10 + u32::from(d - b'0')))
    };
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else { return false };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !(1..=12).contains(&month) {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days).contains(&day) {
        return false;
    }
    if b.len() == 10 {
        return true;
    }
    if b.get(10) != Some(&b'T') {
        return false;
    }
    let (Some(hour), Some(minute)) = (num(11, 2), num(14, 2)) else { return false };
    if b.get(13) != Some(&b':') || hour > 23 || minute > 59 {
        return false;
    }
    let mut i = 16;
    if b.get(i) == Some(&b':') {
        let Some(second) = num(i + 1, 2) else { return false };
        if second > 60 {
            return false;
        }
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return false;
            }
            i += 1 + digits;
        }
    }
    zone(&b[i..])
}

fn zone(z: &[u8]) -> bool {
    let two = |p: &[u8], max: u8| {
        p.len() == 2 && p.iter().all(u8::is_ascii_digit) && (p[0] - b'0') * 10 + (p[1] - b'0') <= max
    };
    match z {
        [] | [b'Z'] => true,
        [b'+' | b'-', rest @ ..] => match rest.len() {
            2 => two(rest, 23),
            4 => two(&rest[..2], 23) && two(&rest[2..], 59),
            5 => rest[2] == b':' && two(&rest[..2], 23) && two(&rest[3..], 59),
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_and_refused() {
        for ok in ["2026-03-15T10:30Z", "2026-03-15T10:30:59,5-0530", "2026-12-31T23:59:60+14", "2000-02-29T00:00:00"] {
            assert!(is_iso8601(ok), "{ok}");
        }
        for bad in [
            "",
            "2026-3-15",
            "2026-13-01",
            "2026-04-31",
            "1900-02-29",
            "2026-03-15T24:00",
            "2026-03-15T10:30:00.Z",
            "2026-03-15T10:30:00+2",
            "2026-03-15T10:30:00Zjunk",
            "2026-03-15t10:30",
            "١٢٣٤-03-15",
        ] {
            assert!(!is_iso8601(bad), "{bad}");
        }
    }
}
