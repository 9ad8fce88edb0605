//! A test's latency and token counts, read from its result line's raw values without
//! building them: records want them for every test, and a `serde_json::Value` for each
//! latency (a `Vec` for each list of a multi-turn test) was a tenth of what `compare`
//! spent.

use crate::lines::RawNumbers;
use crate::scan::int_value;

/// A test's latency (seconds) and input and output token counts, as its result line gives
/// them (multi-turn counts are lists per turn and step, summed).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Numbers {
    pub(crate) latency: Option<f64>,
    pub(crate) input: Option<u64>,
    pub(crate) output: Option<u64>,
    /// The key of a token count the line gives that no count can be (negative, or past
    /// `u64`): left out of the counts above, for the reader to say.
    pub(crate) not_a_count: Option<&'static str>,
}

impl Numbers {
    /// From the raw `latency`, `input_token_count` and `output_token_count` values.
    pub(crate) fn from_raw(raw: RawNumbers<'_>) -> Self {
        // `Some(None)`: the line gives a number, and no count can be it.
        let count = |raw: Option<&[u8]>| raw.and_then(sum).map(crate::show::to_count);
        let (input, output) = (count(raw[1]), count(raw[2]));
        Self {
            latency: raw[0].and_then(sum),
            input: input.flatten(),
            output: output.flatten(),
            not_a_count: if input == Some(None) {
                Some("input_token_count")
            } else if output == Some(None) {
                Some("output_token_count")
            } else {
                None
            },
        }
    }
}

/// The sum of every number in a raw JSON value: a number, or lists (of lists) of numbers
/// summed in order; `None` for anything else. What [`crate::show::sum`] of the parsed
/// value gives, from `serde_json`'s own reading of the numbers, without building the
/// value (a `Vec` per list).
pub(crate) fn sum(raw: &[u8]) -> Option<f64> {
    if let Some(n) = int_value(raw) {
        #[allow(clippy::cast_precision_loss)]
        return Some(n as f64);
    }
    serde_json::from_slice::<Sum>(raw).ok()?.0
}

/// A JSON value read as the sum of its numbers.
struct Sum(Option<f64>);

impl<'de> serde::Deserialize<'de> for Sum {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SumVisitor)
    }
}

struct SumVisitor;

impl<'de> serde::de::Visitor<'de> for SumVisitor {
    type Value = Sum;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a number or a list of numbers")
    }

    fn visit_f64<E>(self, x: f64) -> Result<Sum, E> {
        Ok(Sum(Some(x)))
    }

    #[allow(clippy::cast_precision_loss)]
    fn visit_u64<E>(self, x: u64) -> Result<Sum, E> {
        Ok(Sum(Some(x as f64)))
    }

    #[allow(clippy::cast_precision_loss)]
    fn visit_i64<E>(self, x: i64) -> Result<Sum, E> {
        Ok(Sum(Some(x as f64)))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Sum, A::Error> {
        // Every element is read (the list must be whole JSON); the first that is not a
        // number makes the sum nothing, as a fold over the parsed list does.
        let mut total = Some(0.0);
        while let Some(Sum(x)) = seq.next_element::<Sum>()? {
            total = total.and_then(|t| x.map(|x| t + x));
        }
        Ok(Sum(total))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Sum, A::Error> {
        while map.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
        Ok(Sum(None))
    }

    fn visit_str<E>(self, _: &str) -> Result<Sum, E> {
        Ok(Sum(None))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Sum, E> {
        Ok(Sum(None))
    }

    fn visit_unit<E>(self) -> Result<Sum, E> {
        Ok(Sum(None))
    }
}

#[cfg(test)]
mod tests {
    use super::{Numbers, sum};

    /// A token count no count can be is left out and named; a latency is left as it is.
    #[test]
    fn token_counts_that_are_no_counts_are_left_out_and_named() {
        let numbers = |input: &str, output: &str| {
            let n = Numbers::from_raw([Some(b"0.5".as_slice()), Some(input.as_bytes()), Some(output.as_bytes())]);
            (n.input, n.output, n.not_a_count)
        };
        assert_eq!(numbers("12", "[3, 4]"), (Some(12), Some(7), None));
        assert_eq!(numbers("-5", "3"), (None, Some(3), Some("input_token_count")));
        assert_eq!(numbers("99999999999999999999999", "3"), (None, Some(3), Some("input_token_count")));
        assert_eq!(
            numbers("10000000000000000000", "[1, -2]"),
            (Some(10_000_000_000_000_000_000), None, Some("output_token_count"))
        );
        assert_eq!(numbers("\"12\"", "null"), (None, None, None));
    }

    /// What the records read before: an integer as it is, else the value parsed by
    /// `serde_json` and summed.
    fn parsed(raw: &str) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)]
        crate::scan::int_value(raw.as_bytes())
            .map(|n| n as f64)
            .or_else(|| serde_json::from_str::<serde_json::Value>(raw).ok().as_ref().and_then(crate::show::sum))
    }

    #[test]
    fn sums_as_the_parsed_value_does() {
        let cases = [
            "0",
            "-0",
            "12",
            "1.5",
            "-2.25",
            "1e3",
            "2.5E-2",
            "1E+2",
            " 7 ",
            "[]",
            "[1, 2.5]",
            "[[1, 2], [3]]",
            "[[0.5], [], [[1]]]",
            " [ 1 , [ 2 ] ] ",
            "[1, \"2\"]",
            "[1, null]",
            "\"3\"",
            "null",
            "true",
            "{}",
            "{\"a\": 1}",
            "01",
            "+1",
            ".5",
            "1.",
            "1e",
            "-",
            "inf",
            "NaN",
            "1e400",
            "[1e400]",
            "[1,]",
            "[1 2]",
            "[1",
            "1 2",
            "",
            "[[1], 2",
            "18446744073709551615",
            "-9223372036854775808",
            "123456789012345678901234",
            "[1.0000000000000002, 3e-7, -4]",
        ];
        for case in cases {
            assert_eq!(sum(case.as_bytes()), parsed(case), "{case:?}");
        }
    }

    #[test]
    fn lists_nested_past_the_limit_are_refused_without_overflowing() {
        let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(sum(deep.as_bytes()), None);
        let within = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(sum(within.as_bytes()), parsed(&within));
    }
}
