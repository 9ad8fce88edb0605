//! Calendar arithmetic for the timestamps result files carry: days since the Unix epoch of a
//! proleptic Gregorian date and back (Howard Hinnant's algorithms), without a date crate.

/// Days since 1970-01-01 of the proleptic Gregorian date `y`-`m`-`d` (month 1 to 12);
/// negative before 1970.
///
/// ```
/// use evaltally_core::date::days_from_civil;
/// assert_eq!(days_from_civil(1970, 1, 1), 0);
/// assert_eq!(days_from_civil(2000, 3, 1), 11_017);
/// assert_eq!(days_from_civil(1969, 12, 31), -1);
/// ```
#[must_use]
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `(year, month, day)` of a count of days since 1970-01-01: the inverse of
/// [`days_from_civil`].
///
/// ```
/// use evaltally_core::date::{civil_from_days, days_from_civil};
/// assert_eq!(civil_from_days(0), (1970, 1, 1));
/// assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
/// ```
#[must_use]
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// A Unix time (seconds since 1970 UTC) as ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SSZ`: what
/// a run's timestamp is where its file records Unix seconds (the Evals API's `created_at`).
///
/// ```
/// use evaltally_core::date::iso_from_unix;
/// assert_eq!(iso_from_unix(0), "1970-01-01T00:00:00Z");
/// assert_eq!(iso_from_unix(1_744_700_001), "2025-04-15T06:53:21Z");
/// assert_eq!(iso_from_unix(-1), "1969-12-31T23:59:59Z");
/// ```
#[must_use]
pub fn iso_from_unix(seconds: i64) -> String {
    let (days, rem) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// The number of days of month `m` (1 to 12) of year `y` in the proleptic Gregorian calendar.
///
/// ```
/// use evaltally_core::date::days_in_month;
/// assert_eq!(days_in_month(2024, 2), 29);
/// assert_eq!(days_in_month(1900, 2), 28);
/// assert_eq!(days_in_month(2000, 2), 29);
/// assert_eq!(days_in_month(2025, 4), 30);
/// ```
#[must_use]
pub fn days_in_month(y: i64, m: i64) -> i64 {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, days_from_civil, days_in_month};

    #[test]
    fn every_day_of_four_centuries_follows_the_one_before_and_goes_there_and_back() {
        let mut expected = days_from_civil(1900, 1, 1);
        for y in 1900..2300 {
            for m in 1..=12 {
                for d in 1..=days_in_month(y, m) {
                    assert_eq!(days_from_civil(y, m, d), expected, "{y}-{m}-{d}");
                    assert_eq!(civil_from_days(expected), (y, m, d));
                    expected += 1;
                }
            }
        }
    }
}
