//! `JSON.stringify(x, null, 2)` and `Number.prototype.toString()`.

use std::fmt::Write as _;

use super::JsValue;

/// A double as JavaScript prints it (`Number::toString(10)` in ECMA-262): the shortest
/// digits that read back to the same double, in plain notation for decimal exponents from
/// -7 to 20 and in exponent notation (`1e+21`, `1.5e-7`) outside; `-0` prints as `0`.
///
/// ```
/// use evaltally_gstack::js::number_to_string;
/// assert_eq!(number_to_string(893_400.0), "893400");
/// assert_eq!(number_to_string(893.4 * 1000.0), "893400");
/// assert_eq!(number_to_string(0.1 + 0.2), "0.30000000000000004");
/// assert_eq!(number_to_string(1e21), "1e+21");
/// assert_eq!(number_to_string(1.5e-7), "1.5e-7");
/// assert_eq!(number_to_string(0.000001), "0.000001");
/// assert_eq!(number_to_string(f64::NAN), "NaN");
/// ```
pub fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if x < 0.0 {
        return format!("-{}", number_to_string(-x));
    }
    let (digits, exp) = shortest_digits(x);
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    // ECMA-262's n: the value is 0.digits × 10^n.
    let n = exp + 1;
    let mut out = String::new();
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', usize::try_from(n - k).unwrap_or(0)));
    } else if 0 < n && n <= 21 {
        let split = usize::try_from(n).unwrap_or(0);
        out.push_str(&digits[..split]);
        out.push('.');
        out.push_str(&digits[split..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', usize::try_from(-n).unwrap_or(0)));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{}", if e < 0 { '-' } else { '+' }, e.abs());
    }
    out
}

/// Splits `{:e}` output (`1.2345e-7`) into its digits and decimal exponent.
fn split_sci(sci: &str) -> (String, i64) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    (mantissa.chars().filter(char::is_ascii_digit).collect(), exp.parse().unwrap_or(0))
}

/// The shortest digits that read back to `x` (positive, finite), and the decimal exponent
/// of the first. Rust's `{:e}` finds them; when two candidates are equally short and equally
/// close (`x` lies exactly halfway, as 247600580198296.625 does), ECMA-262 takes the even
/// one (…296.62) where Rust may take the other (…296.63).
fn shortest_digits(x: f64) -> (String, i64) {
    let (digits, exp) = split_sci(&format!("{x:e}"));
    let k = digits.len();
    // `x` exactly, to 20 digits past the shortest form (precision formatting is exact).
    let (long, long_exp) = split_sci(&format!("{:.*e}", k + 20, x));
    let tie = long.len() == k + 21 && long.as_bytes()[k] == b'5' && long.bytes().skip(k + 1).all(|b| b == b'0');
    if !tie {
        return (digits, exp);
    }
    let lower = &long[..k];
    let lower_even = lower.bytes().last().is_some_and(|d| (d - b'0').is_multiple_of(2));
    let (candidate, cand_exp) = if lower_even { (lower.to_string(), long_exp) } else { increment(lower, long_exp) };
    let trimmed = candidate.trim_end_matches('0');
    let reads_back = format!("{}.{}e{cand_exp}", &trimmed[..1], &trimmed[1..]).parse::<f64>() == Ok(x);
    if reads_back && !trimmed.is_empty() && trimmed.len() <= k {
        (trimmed.to_string(), cand_exp)
    } else {
        (digits, exp)
    }
}

/// `digits + 1` in the last place, with the exponent moving up on a carry (`999` → `1000`).
fn increment(digits: &str, exp: i64) -> (String, i64) {
    let mut d: Vec<u8> = digits.bytes().collect();
    for b in d.iter_mut().rev() {
        if *b == b'9' {
            *b = b'0';
        } else {
            *b += 1;
            return (String::from_utf8_lossy(&d).into_owned(), exp);
        }
    }
    d.insert(0, b'1');
    (String::from_utf8_lossy(&d).into_owned(), exp + 1)
}

/// Writes one character as `JSON.stringify` quotes it: `"`, `\` and the control
/// characters are escaped (`\b \t \n \f \r` by name, others as lowercase `\u00xx`);
/// nothing else is.
fn escape(out: &mut String, c: char) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        c if u32::from(c) < 0x20 => {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        }
        c => out.push(c),
    }
}

/// Writes a quoted string as `JSON.stringify` does.
fn quote(out: &mut String, s: &str) {
    out.push('"');
    s.chars().for_each(|c| escape(out, c));
    out.push('"');
}

/// [`quote`] for a string with lone surrogates: those are written as lowercase `\udxxx`
/// escapes, as the well-formed `JSON.stringify` of ES2019 does.
fn quote_utf16(out: &mut String, units: &[u16]) {
    out.push('"');
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) => escape(out, c),
            Err(e) => {
                let _ = write!(out, "\\u{:04x}", e.unpaired_surrogate());
            }
        }
    }
    out.push('"');
}

fn newline(out: &mut String, level: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', level * 2));
}

/// `JSON.stringify(v, null, 2)` at nesting `level`.
pub(super) fn write_pretty(out: &mut String, v: &JsValue, level: usize) {
    match v {
        // `JSON.stringify` writes NaN and the infinities as `null`.
        JsValue::Null => out.push_str("null"),
        JsValue::Number(n) if !n.is_finite() => out.push_str("null"),
        JsValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        JsValue::Number(n) => out.push_str(&number_to_string(*n)),
        JsValue::String(s) => quote(out, s),
        JsValue::Utf16(units) => quote_utf16(out, units),
        JsValue::Array(items) if items.is_empty() => out.push_str("[]"),
        JsValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                write_pretty(out, item, level + 1);
            }
            newline(out, level);
            out.push(']');
        }
        JsValue::Object(o) if o.is_empty() => out.push_str("{}"),
        JsValue::Object(o) => {
            out.push('{');
            for (i, (k, item)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                quote(out, k);
                out.push_str(": ");
                write_pretty(out, item, level + 1);
            }
            newline(out, level);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_like_javascript() {
        let cases = [
            (1.0, "1"),
            (-1.5, "-1.5"),
            (120_000.0, "120000"),
            (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-7"),
            (0.000_001_5, "0.0000015"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (-0.0, "0"),
            // Exactly halfway between two shortest forms: the even one.
            (1_980_804_641_586_373.0 / 8.0, "247600580198296.62"),
            (-169_567_821_416_361.0 / 16.0, "-10597988838522.562"),
            (5_095_251_893_745_789.0 / 4.0, "1273812973436447.2"),
            (0.5, "0.5"),
            (2.5, "2.5"),
            (f64::INFINITY, "Infinity"),
        ];
        for (x, want) in cases {
            assert_eq!(number_to_string(x), want, "{x:e}");
        }
    }

    #[test]
    fn strings_escape_as_json_stringify() {
        let mut out = String::new();
        quote(&mut out, "a\"b\\c\n\u{1}\u{7f}\u{2028}/é");
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\u0001\u{7f}\u{2028}/é\"");
    }

    #[test]
    fn non_finite_numbers_are_null() {
        let v = JsValue::Array(vec![JsValue::Number(f64::NAN), JsValue::Number(f64::NEG_INFINITY)]);
        assert_eq!(v.to_pretty_string(), "[\n  null,\n  null\n]");
    }
}
