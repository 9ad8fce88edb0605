//! Test ids and their natural order.
//!
//! Evaluators number their tests (`simple_python_0`, `live_simple_12-3-0`,
//! `multi_turn_base_104`), and a plain string sort puts `simple_python_10` before
//! `simple_python_2`. [`natural_cmp`] orders ids by their category prefix, then by the first
//! integer after it, then by the rest of the id compared with embedded numbers as numbers.

use std::cmp::Ordering;

/// The category part of a BFCL-style test id: the text before any `:`, up to its last `_`.
///
/// ```
/// use evaltally_core::id::category_of;
/// assert_eq!(category_of("simple_python_10"), "simple_python");
/// assert_eq!(category_of("live_simple_0-0-0"), "live_simple");
/// assert_eq!(category_of("format_sensitivity_3:ret_fmt=python:simple_1"), "format_sensitivity");
/// assert_eq!(category_of("plain"), "plain");
/// ```
pub fn category_of(id: &str) -> &str {
    let head = id.split(':').next().unwrap_or(id);
    match head.rfind('_') {
        Some(pos) => &head[..pos],
        None => head,
    }
}

/// Splits an id into (category, first integer after the category, rest).
fn key(id: &str) -> (&str, Option<u64>, &str) {
    let cat = category_of(id);
    let tail = id[cat.len()..].strip_prefix('_').unwrap_or(&id[cat.len()..]);
    let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 19 {
        return (cat, None, tail);
    }
    let number = tail[..digits].parse().ok();
    (cat, number, &tail[digits..])
}

/// Compares two test ids in natural order: category, then first integer, then the rest
/// (with digit runs compared as numbers), and finally byte-wise so the order is total.
///
/// ```
/// use std::cmp::Ordering;
/// use evaltally_core::id::natural_cmp;
/// assert_eq!(natural_cmp("simple_python_2", "simple_python_10"), Ordering::Less);
/// assert_eq!(natural_cmp("live_simple_9-1-0", "live_simple_10-0-0"), Ordering::Less);
/// assert_eq!(natural_cmp("live_simple_1-0-2", "live_simple_1-0-10"), Ordering::Less);
/// assert_eq!(natural_cmp("irrelevance_0", "live_simple_0-0-0"), Ordering::Less);
/// ```
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    IdKey::new(a).cmp(&IdKey::new(b))
}

/// A test id taken apart once for [`natural_cmp`]'s order: sorting thousands of ids by
/// their keys finds each one's category and number once, not at every comparison.
///
/// ```
/// use evaltally_core::id::{IdKey, natural_cmp};
/// let mut ids = ["simple_python_10", "live_simple_0-0-0", "simple_python_2"];
/// let keys: Vec<IdKey> = ids.iter().map(|id| IdKey::new(id)).collect();
/// let mut order: Vec<usize> = (0..ids.len()).collect();
/// order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
/// assert_eq!(order, [1, 2, 0]);
/// ids.sort_by(|a, b| natural_cmp(a, b));
/// assert_eq!(ids, ["live_simple_0-0-0", "simple_python_2", "simple_python_10"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdKey<'a> {
    id: &'a str,
    category: &'a str,
    number: Option<u64>,
    rest: &'a str,
}

impl<'a> IdKey<'a> {
    /// The key of `id`.
    pub fn new(id: &'a str) -> Self {
        let (category, number, rest) = key(id);
        Self { id, category, number, rest }
    }
}

impl Ord for IdKey<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.category
            .cmp(other.category)
            .then_with(|| match (self.number, other.number) {
                (Some(x), Some(y)) => x.cmp(&y),
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (None, None) => Ordering::Equal,
            })
            .then_with(|| natural_str_cmp(self.rest, other.rest))
            .then_with(|| self.id.cmp(other.id))
    }
}

impl PartialOrd for IdKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Compares two strings with runs of ASCII digits compared by numeric value.
///
/// Used for run names too (`run-2` before `run-10`).
///
/// ```
/// use std::cmp::Ordering;
/// use evaltally_core::id::natural_str_cmp;
/// assert_eq!(natural_str_cmp("run-2", "run-10"), Ordering::Less);
/// assert_eq!(natural_str_cmp("v0.10.2", "v0.9.1"), Ordering::Greater);
/// assert_eq!(natural_str_cmp("a", "a"), Ordering::Equal);
/// ```
pub fn natural_str_cmp(a: &str, b: &str) -> Ordering {
    natural_bytes_cmp(a.as_bytes(), b.as_bytes())
}

/// [`natural_str_cmp`] on paths, by their bytes (no conversion to text, so sorting
/// thousands of paths costs no more than comparing them).
///
/// ```
/// use std::cmp::Ordering;
/// use std::path::Path;
/// use evaltally_core::id::natural_path_cmp;
/// assert_eq!(natural_path_cmp(Path::new("runs/run-2/a.json"), Path::new("runs/run-10/a.json")), Ordering::Less);
/// ```
pub fn natural_path_cmp(a: &std::path::Path, b: &std::path::Path) -> Ordering {
    natural_bytes_cmp(a.as_os_str().as_encoded_bytes(), b.as_os_str().as_encoded_bytes())
}

/// Appends to `out` a key for `bytes` whose byte order is [`natural_path_cmp`]'s order:
/// for any `a` and `b`, comparing `(key(a), a)` with `(key(b), b)` gives what
/// `natural_bytes_cmp(a, b)` gives. Sorting thousands of paths by their keys compares
/// plain bytes instead of working out runs of digits at every comparison.
///
/// Every run of digits becomes a `0` (which compares with any other byte as every digit
/// does), the length of its number without leading zeros (4 bytes, big-endian) and that
/// number's digits; other bytes stay as they are. A key reads one way only from its start,
/// so two keys alike up to a byte are at the same place of the same layout there.
///
/// ```
/// use evaltally_core::id::{natural_key, natural_path_cmp};
/// use std::path::Path;
/// let key = |p: &str| { let mut k = Vec::new(); natural_key(p.as_bytes(), &mut k); (k, p.to_string()) };
/// let (a, b) = ("runs/run-2/a.json", "runs/run-10/a.json");
/// assert_eq!(key(a).cmp(&key(b)), natural_path_cmp(Path::new(a), Path::new(b)));
/// ```
pub fn natural_key(bytes: &[u8], out: &mut Vec<u8>) {
    let mut rest = bytes;
    while let Some(at) = rest.iter().position(u8::is_ascii_digit) {
        out.extend_from_slice(&rest[..at]);
        let digits = rest[at..].iter().take_while(|c| c.is_ascii_digit()).count();
        let number = trim_zeros(&rest[at..at + digits]);
        out.push(b'0');
        out.extend_from_slice(&u32::try_from(number.len()).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(number);
        rest = &rest[at + digits..];
    }
    out.extend_from_slice(rest);
}

fn natural_bytes_cmp(a: &[u8], b: &[u8]) -> Ordering {
    // Paths and run names share long prefixes (`results/run-0012/result/...`): skip the
    // bytes both start with, back to the start of a run of digits that prefix ends in.
    let mut start = common_prefix(a, b);
    while start > 0 && a[start - 1].is_ascii_digit() {
        start -= 1;
    }
    natural_from(a, b, start)
}

/// How many bytes `a` and `b` start with alike, compared eight at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut at = 0;
    while let (Some(x), Some(y)) =
        (a.get(at..).and_then(<[u8]>::first_chunk::<8>), b.get(at..).and_then(<[u8]>::first_chunk::<8>))
    {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return at + (diff.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    at + a[at..].iter().zip(&b[at..]).take_while(|(x, y)| x == y).count()
}

/// Compares `a` and `b` in natural order from byte `start` on (both start with the same
/// `start` bytes, which do not end inside a run of digits).
fn natural_from(a: &[u8], b: &[u8], start: usize) -> Ordering {
    let (mut x, mut y) = (&a[start..], &b[start..]);
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(cx), Some(cy)) if cx.is_ascii_digit() && cy.is_ascii_digit() => {
                let dx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let dy = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (nx, ny) = (trim_zeros(&x[..dx]), trim_zeros(&y[..dy]));
                let ord = nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny));
                if ord != Ordering::Equal {
                    return ord;
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(cx), Some(cy)) => {
                if cx != cy {
                    return cx.cmp(cy);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn trim_zeros(digits: &[u8]) -> &[u8] {
    let zeros = digits.iter().take_while(|&&c| c == b'0').count();
    &digits[zeros.min(digits.len().saturating_sub(1))..]
}

/// Sorts ids in place in natural order.
///
/// ```
/// let mut ids = vec!["multi_turn_base_10".to_string(), "multi_turn_base_9".to_string()];
/// evaltally_core::id::sort_natural(&mut ids);
/// assert_eq!(ids, ["multi_turn_base_9", "multi_turn_base_10"]);
/// ```
pub fn sort_natural<S: AsRef<str>>(ids: &mut [S]) {
    ids.sort_by(|a, b| natural_cmp(a.as_ref(), b.as_ref()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefix_in_words_and_bytes() {
        let long = b"results/run-0012/result/model/BFCL_v4_simple_result.json";
        for cut in 0..long.len() {
            let mut other = long.to_vec();
            other[cut] ^= 1;
            assert_eq!(common_prefix(long, &other), cut, "differs at {cut}");
            assert_eq!(common_prefix(&long[..cut], long), cut, "prefix of {cut} bytes");
        }
        assert_eq!(common_prefix(long, long), long.len());
        assert_eq!(common_prefix(b"", b"abc"), 0);
    }

    #[test]
    fn natural_order_of_real_ids() {
        let mut ids = vec![
            "simple_python_10",
            "live_simple_10-3-2",
            "simple_python_2",
            "live_simple_2-0-0",
            "live_simple_10-3-10",
            "irrelevance_100",
            "irrelevance_20",
            "memory_kv_11-customer-2",
            "memory_kv_2-student-0",
        ];
        sort_natural(&mut ids);
        assert_eq!(
            ids,
            [
                "irrelevance_20",
                "irrelevance_100",
                "live_simple_2-0-0",
                "live_simple_10-3-2",
                "live_simple_10-3-10",
                "memory_kv_2-student-0",
                "memory_kv_11-customer-2",
                "simple_python_2",
                "simple_python_10",
            ]
        );
    }

    #[test]
    fn order_is_total_and_consistent() {
        let ids = ["a_01", "a_1", "a_1x", "a_", "a", "_", "", "a_99999999999999999999999"];
        for x in ids {
            assert_eq!(natural_cmp(x, x), Ordering::Equal);
            for y in ids {
                assert_eq!(natural_cmp(x, y), natural_cmp(y, x).reverse(), "{x} vs {y}");
                if x != y {
                    assert_ne!(natural_cmp(x, y), Ordering::Equal, "{x} vs {y}");
                }
            }
        }
    }

    /// Keys order as the comparison does, on names that differ in every way it looks at.
    #[test]
    fn natural_keys_order_as_natural_bytes_cmp() {
        fn key(s: &str) -> (Vec<u8>, &str) {
            let mut k = Vec::new();
            natural_key(s.as_bytes(), &mut k);
            (k, s)
        }
        let names = [
            "",
            "0",
            "00",
            "000",
            "1",
            "01",
            "9",
            "10",
            "010",
            "a",
            "a0",
            "a00",
            "a1",
            "a01",
            "a1b",
            "a1/",
            "a1-",
            "a1:",
            "a/1",
            "a-1",
            "a:1",
            "a//",
            "run-2/x.json",
            "run-10/x.json",
            "run-010/x.json",
            "run-10a",
            "run-10/",
            "run-1/0",
            "x/run-9/a.json",
            "x/run_9/a.json",
            "x/run-9.5",
            "x/run-9.10",
            "99999999999",
            "099999999999",
            "django__django-11151/report.json",
            "django__django-1151/report.json",
            "é1",
            "é01",
        ];
        for a in names {
            for b in names {
                assert_eq!(key(a).cmp(&key(b)), natural_str_cmp(a, b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn leading_zeros_compare_by_value() {
        assert_eq!(natural_str_cmp("run-007", "run-10"), Ordering::Less);
        assert_eq!(natural_str_cmp("run-0", "run-00"), Ordering::Less);
    }

    /// Skipping the shared prefix gives what comparing from the first byte gives, wherever
    /// the prefix ends (inside a run of digits, at its end, before leading zeros).
    #[test]
    fn skipping_the_shared_prefix_changes_no_answer() {
        let names = [
            "run-9",
            "run-10",
            "run-010",
            "run-1",
            "run-12a",
            "run-123",
            "run-12",
            "r/run-2/x",
            "r/run-2",
            "r/run-20/x",
            "",
            "0",
            "00",
            "a0b",
            "a00b",
            "a1",
            "run-",
            "run-9z",
            "run-09",
        ];
        for a in names {
            for b in names {
                assert_eq!(natural_str_cmp(a, b), natural_from(a.as_bytes(), b.as_bytes(), 0), "{a} vs {b}");
            }
        }
    }
}
