//! Tolerant field readers: a field of the wrong type reads as absent.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub(crate) type Obj = Map<String, Value>;

pub(crate) fn string(m: &Obj, k: &str) -> Option<String> {
    m.get(k).and_then(Value::as_str).map(str::to_string)
}

pub(crate) fn number(m: &Obj, k: &str) -> Option<f64> {
    m.get(k).and_then(Value::as_f64)
}

pub(crate) fn boolean(m: &Obj, k: &str) -> Option<bool> {
    m.get(k).and_then(Value::as_bool)
}

/// A whole, non-negative number (`3` or `3.0`).
pub(crate) fn count(m: &Obj, k: &str) -> Option<u64> {
    m.get(k).and_then(as_count)
}

pub(crate) fn as_count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        let f = v.as_f64()?;
        // Whole and in range: the cast is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        (f >= 0.0 && f.fract() == 0.0 && f < 1.8e19).then_some(f as u64)
    })
}

/// The strings of an array (other elements are passed over); `None` when not an array.
pub(crate) fn strings(m: &Obj, k: &str) -> Option<Vec<String>> {
    m.get(k).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
}

/// The numeric entries of an object (`{criterion: score}`); `None` when not an object.
pub(crate) fn scores(m: &Obj, k: &str) -> Option<BTreeMap<String, f64>> {
    m.get(k).and_then(Value::as_object).map(|o| o.iter().filter_map(|(k, v)| Some((k.clone(), v.as_f64()?))).collect())
}

/// The objects of an array, each read by `f`; `None` when not an array.
pub(crate) fn objects<T>(m: &Obj, k: &str, f: impl Fn(&Obj) -> T) -> Option<Vec<T>> {
    m.get(k).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_object).map(f).collect())
}
