//! JSON as JavaScript sees it, for byte-exact reproductions of gstack's output.
//!
//! The workspace builds `serde_json` without `preserve_order`; this module is where key order
//! is kept.
//!
//! gstack writes its files with `JSON.stringify(x, null, 2) + "\n"`. Reproducing them byte
//! for byte needs three things [`serde_json::Value`] does not give:
//!
//! * **Key order.** A JavaScript object keeps its keys in insertion order, except that keys
//!   which are array indices (`"0"`, `"42"`) come first in ascending order. [`JsObject`]
//!   keeps that order, and [`parse`] builds it as `JSON.parse` does (a repeated key keeps
//!   its first place and takes its last value).
//! * **Numbers.** Every number is an IEEE double, printed by [`number_to_string`] as
//!   `Number.prototype.toString` does: `893400`, not `893400.0`; `1e+21`, not `1e21`.
//! * **`NaN`.** Arithmetic on a missing field gives `NaN`, which `JSON.stringify` writes
//!   as `null`; [`JsValue::Number`] can hold it.
//!
//! ```
//! use evaltally_gstack::js;
//! let v = js::parse(r#"{"b": 1.50, "a": [], "2": true, "1": null}"#).unwrap();
//! assert_eq!(v.to_pretty_string(), "{\n  \"1\": null,\n  \"2\": true,\n  \"b\": 1.5,\n  \"a\": []\n}");
//! ```

mod parse;
mod stringify;

use serde_json::Value;

pub use parse::{ParseError, parse};
pub use stringify::number_to_string;

/// A JSON value with JavaScript semantics: numbers are doubles and objects keep key order.
#[derive(Clone, Debug, PartialEq)]
pub enum JsValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A double; may be `NaN` or infinite (written as `null`).
    Number(f64),
    /// A string.
    String(String),
    /// A string holding lone UTF-16 surrogates, which a Rust `String` cannot: kept as
    /// UTF-16 code units so it is written back as `JSON.stringify` writes it (`"\ud83d"`).
    Utf16(Vec<u16>),
    /// An array.
    Array(Vec<JsValue>),
    /// An object.
    Object(JsObject),
}

/// An object's properties in JavaScript's enumeration order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsObject {
    entries: Vec<(String, JsValue)>,
}

/// Whether `key` is an array index (`"0"` … `"4294967294"`), which JavaScript orders first.
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty() && key.len() <= 10);
    if !canonical || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u64>().ok().filter(|n| *n < u64::from(u32::MAX)).and_then(|n| u32::try_from(n).ok())
}

impl JsObject {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of an own property.
    pub fn get(&self, key: &str) -> Option<&JsValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets a property as `obj[key] = value` does: an existing key keeps its place, a new
    /// array-index key goes among the index keys in ascending order, any other new key last.
    pub fn insert(&mut self, key: impl Into<String>, value: JsValue) {
        let key = key.into();
        if let Some(slot) = self.entries.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
            return;
        }
        let at = match array_index(&key) {
            Some(n) => self.entries.iter().position(|(k, _)| array_index(k).is_none_or(|m| m > n)),
            None => None,
        };
        match at {
            Some(pos) => self.entries.insert(pos, (key, value)),
            None => self.entries.push((key, value)),
        }
    }

    /// Sets a property when the value is defined (`Some`); `None` stands for `undefined`,
    /// which `JSON.stringify` leaves out.
    pub fn insert_defined(&mut self, key: &str, value: Option<JsValue>) {
        if let Some(v) = value {
            self.insert(key, v);
        }
    }

    /// The properties in enumeration order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &JsValue)> + '_ {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of properties.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no properties.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl JsValue {
    /// `typeof v` for a value that came from JSON: `null` and arrays are `"object"`.
    pub fn type_of(&self) -> &'static str {
        match self {
            JsValue::Null | JsValue::Array(_) | JsValue::Object(_) => "object",
            JsValue::Bool(_) => "boolean",
            JsValue::Number(_) => "number",
            JsValue::String(_) | JsValue::Utf16(_) => "string",
        }
    }

    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are falsy; every array
    /// and object (even empty) is truthy.
    pub fn is_truthy(&self) -> bool {
        match self {
            JsValue::Null => false,
            JsValue::Bool(b) => *b,
            JsValue::Number(n) => *n != 0.0 && !n.is_nan(),
            JsValue::String(s) => !s.is_empty(),
            JsValue::Utf16(u) => !u.is_empty(),
            JsValue::Array(_) | JsValue::Object(_) => true,
        }
    }

    /// The own property `key` of an object; `None` (JavaScript's `undefined`) for any other
    /// value, as reading `x.key` gives for the properties gstack reads.
    pub fn get(&self, key: &str) -> Option<&JsValue> {
        match self {
            JsValue::Object(o) => o.get(key),
            _ => None,
        }
    }

    /// JavaScript's `ToNumber`, as `x * 1000` or `x / 1000` applies it.
    ///
    /// ```
    /// use evaltally_gstack::js::JsValue;
    /// assert_eq!(JsValue::Null.to_number(), 0.0);
    /// assert_eq!(JsValue::String(" 1500 ".into()).to_number(), 1500.0);
    /// assert_eq!(JsValue::Array(vec![JsValue::Number(7.0)]).to_number(), 7.0);
    /// assert!(JsValue::String("12s".into()).to_number().is_nan());
    /// ```
    pub fn to_number(&self) -> f64 {
        match self {
            JsValue::Null => 0.0,
            JsValue::Bool(b) => f64::from(u8::from(*b)),
            JsValue::Number(n) => *n,
            JsValue::String(s) => string_to_number(s),
            JsValue::Utf16(_) | JsValue::Array(_) => string_to_number(&self.to_js_string()),
            JsValue::Object(_) => f64::NAN,
        }
    }

    /// JavaScript's `String(v)` for a value from JSON (arrays join with `,`).
    fn to_js_string(&self) -> String {
        match self {
            JsValue::Null => "null".to_string(),
            JsValue::Bool(b) => b.to_string(),
            JsValue::Number(n) => number_to_string(*n),
            JsValue::String(s) => s.clone(),
            JsValue::Utf16(u) => String::from_utf16_lossy(u),
            JsValue::Array(items) => items
                .iter()
                .map(|v| if matches!(v, JsValue::Null) { String::new() } else { v.to_js_string() })
                .collect::<Vec<_>>()
                .join(","),
            JsValue::Object(_) => "[object Object]".to_string(),
        }
    }

    /// `JSON.stringify(v, null, 2)`, without the trailing newline gstack adds.
    pub fn to_pretty_string(&self) -> String {
        let mut out = String::new();
        stringify::write_pretty(&mut out, self, 0);
        out
    }

    /// Converts from a serde value. Keys come in the serde map's order (sorted), then take
    /// JavaScript's order (array-index keys first).
    pub fn from_value(v: &Value) -> Self {
        match v {
            Value::Null => JsValue::Null,
            Value::Bool(b) => JsValue::Bool(*b),
            Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => JsValue::String(s.clone()),
            Value::Array(a) => JsValue::Array(a.iter().map(JsValue::from_value).collect()),
            Value::Object(m) => {
                let mut o = JsObject::new();
                for (k, v) in m {
                    o.insert(k.clone(), JsValue::from_value(v));
                }
                JsValue::Object(o)
            }
        }
    }

    /// Converts to a serde value: whole numbers below 2^53 become integers (so they print
    /// as `893400`), `NaN` and infinities become `null` as `JSON.stringify` writes them, and
    /// lone surrogates become U+FFFD.
    pub fn to_value(&self) -> Value {
        match self {
            JsValue::Null => Value::Null,
            JsValue::Bool(b) => Value::Bool(*b),
            JsValue::Number(n) => number_value(*n),
            JsValue::String(s) => Value::String(s.clone()),
            JsValue::Utf16(u) => Value::String(String::from_utf16_lossy(u)),
            JsValue::Array(a) => Value::Array(a.iter().map(JsValue::to_value).collect()),
            JsValue::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect()),
        }
    }
}

/// A double as a serde number: integers when whole and exact, `null` when not finite.
pub(crate) fn number_value(n: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.is_finite() && n.fract() == 0.0 && n.abs() < EXACT {
        // Whole and below 2^53: the cast is exact (and turns -0 into 0, as JS prints it).
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(n as i64);
    }
    serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// JavaScript's `StringToNumber`: trimmed, empty is 0, decimal or `0x`/`0o`/`0b` literals,
/// `Infinity`; anything else is `NaN`.
fn string_to_number(s: &str) -> f64 {
    // JavaScript's WhiteSpace and LineTerminator: Unicode spaces and BOM, but not U+0085.
    let t = s.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}');
    if t.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(digits) = t.strip_prefix(prefix) {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return f64::NAN;
            }
            return digits
                .chars()
                .filter_map(|c| c.to_digit(radix))
                .fold(0.0, |acc, d| acc * f64::from(radix) + f64::from(d));
        }
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return if t.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    if is_decimal_literal(unsigned) { t.parse().unwrap_or(f64::NAN) } else { f64::NAN }
}

/// `digits [. digits?] | . digits`, then an optional exponent.
fn is_decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(0);
    let mut i = int;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        frac = digits(i + 1);
        i += 1 + frac;
    }
    if int == 0 && frac == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    i == b.len()
}

/// `Math.round`: halves round toward +∞.
///
/// ```
/// use evaltally_gstack::js::math_round;
/// assert_eq!(math_round(1.5), 2.0);
/// assert_eq!(math_round(-1.5), -1.0);
/// assert_eq!(math_round(0.49999999999999994), 0.0);
/// assert!(math_round(f64::NAN).is_nan());
/// ```
pub fn math_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let floor = x.floor();
    if x - floor >= 0.5 { floor + 1.0 } else { floor }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // JavaScript's arithmetic is exact on these values
mod tests {
    use super::*;

    #[test]
    fn index_keys_come_first_in_ascending_order() {
        let mut o = JsObject::new();
        for k in ["b", "10", "a", "2", "01", "4294967295", "4294967294"] {
            o.insert(k, JsValue::Null);
        }
        let keys: Vec<&str> = o.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["2", "10", "4294967294", "b", "a", "01", "4294967295"]);
    }

    #[test]
    fn repeated_key_keeps_first_place_and_last_value() {
        let mut o = JsObject::new();
        o.insert("a", JsValue::Number(1.0));
        o.insert("b", JsValue::Number(2.0));
        o.insert("a", JsValue::Number(3.0));
        let got: Vec<(&str, &JsValue)> = o.iter().collect();
        assert_eq!(got, [("a", &JsValue::Number(3.0)), ("b", &JsValue::Number(2.0))]);
    }

    #[test]
    fn to_number_follows_javascript() {
        let n = |s: &str| JsValue::String(s.into()).to_number();
        assert_eq!(n(""), 0.0);
        assert_eq!(n("0x10"), 16.0);
        assert_eq!(n("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(n(".5"), 0.5);
        assert_eq!(n("5."), 5.0);
        assert!(n("inf").is_nan());
        assert!(n("-0x10").is_nan());
        assert!(n("1e").is_nan());
        assert_eq!(JsValue::Bool(true).to_number(), 1.0);
        assert_eq!(JsValue::Array(vec![]).to_number(), 0.0);
        assert!(JsValue::Array(vec![JsValue::Number(1.0), JsValue::Number(2.0)]).to_number().is_nan());
        assert!(JsValue::Object(JsObject::new()).to_number().is_nan());
    }

    #[test]
    fn numbers_become_integers_when_whole() {
        assert_eq!(number_value(893_400.0).to_string(), "893400");
        assert_eq!(number_value(-0.0).to_string(), "0");
        assert_eq!(number_value(1.5).to_string(), "1.5");
        assert_eq!(number_value(f64::NAN), Value::Null);
    }
}
