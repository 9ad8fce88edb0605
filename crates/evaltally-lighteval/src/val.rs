//! The values a details file holds, whether they come from Parquet columns or from the
//! Python reprs lighteval 0.4 – 0.7 wrote into string columns.

use serde_json::Value;

/// One value of a row: what a Parquet column (or a Python literal) gives, with lists and
/// structs built from the columns under them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    /// Absent, `None`, or a null in a nullable column.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number, NaN and infinities included.
    Float(f64),
    /// Text.
    Text(String),
    /// A list (or a Python tuple or set).
    List(Vec<Val>),
    /// A struct (or a Python dict), fields in the file's order.
    Map(Vec<(String, Val)>),
    /// A Python object that is no literal (`GenerativeCorpusMetricInput(golds=[...])`), as
    /// written.
    Object(String),
}

impl Val {
    /// The field `key` of a struct.
    pub(crate) fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Map(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as a number, when it is one (a boolean counts as 0 or 1).
    pub(crate) fn number(&self) -> Option<f64> {
        match self {
            Val::Bool(b) => Some(f64::from(u8::from(*b))),
            #[allow(clippy::cast_precision_loss)] // metric values are small integers
            Val::Int(i) => Some(*i as f64),
            Val::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Whether it is null.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Val::Null)
    }

    /// The value as text, when it is text.
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Val::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The value as JSON, for `show`: NaN and the infinities as the strings Python prints
    /// for them, a Python object as its repr.
    pub(crate) fn to_json(&self) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Int(i) => Value::from(*i),
            Val::Float(f) => {
                serde_json::Number::from_f64(*f).map_or_else(|| Value::String(python_float(*f)), Value::Number)
            }
            Val::Text(s) | Val::Object(s) => Value::String(s.clone()),
            Val::List(items) => Value::Array(items.iter().map(Val::to_json).collect()),
            Val::Map(fields) => Value::Object(fields.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }

    /// A short description of the value for messages: numbers as written, text quoted,
    /// containers by their shape.
    pub(crate) fn describe(&self) -> String {
        match self {
            Val::Null => "null".to_string(),
            Val::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Val::Int(i) => i.to_string(),
            Val::Float(f) => python_float(*f),
            Val::Text(s) => {
                let short: String = s.chars().take(40).collect();
                if short.len() < s.len() { format!("'{short}…'") } else { format!("'{short}'") }
            }
            Val::List(items) => format!("a list of {}", items.len()),
            Val::Map(fields) => {
                let keys: Vec<&str> = fields.iter().take(4).map(|(k, _)| k.as_str()).collect();
                let more = if fields.len() > 4 { ", …" } else { "" };
                format!("{{{}{more}}}", keys.join(", "))
            }
            Val::Object(repr) => {
                let name: String = repr.chars().take_while(|c| *c != '(').take(40).collect();
                format!("a {name} object")
            }
        }
    }
}

/// A float as Python's `repr` writes it, for the values that JSON has no number for.
fn python_float(f: f64) -> String {
    if f.is_nan() {
        "nan".to_string()
    } else if f.is_infinite() {
        if f > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        f.to_string()
    }
}

/// Lays `from` over `into`: the fields of structs joined, lists joined element by element
/// (a list of structs comes one column per field), a null giving way to a value.
pub(crate) fn merge(into: &mut Val, from: Val) {
    match (into, from) {
        (Val::Map(a), Val::Map(b)) => {
            for (k, v) in b {
                match a.iter_mut().find(|(key, _)| *key == k) {
                    Some((_, existing)) => merge(existing, v),
                    None => a.push((k, v)),
                }
            }
        }
        (Val::List(a), Val::List(b)) => {
            let mut b = b.into_iter();
            for item in a.iter_mut() {
                match b.next() {
                    Some(v) => merge(item, v),
                    None => break,
                }
            }
            a.extend(b);
        }
        (slot @ Val::Null, v) => *slot = v,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_joins_struct_fields_and_list_elements() {
        let mut a = Val::Map(vec![(
            "input".into(),
            Val::List(vec![Val::Map(vec![("role".into(), Val::Text("user".into()))])]),
        )]);
        let b = Val::Map(vec![(
            "input".into(),
            Val::List(vec![Val::Map(vec![("content".into(), Val::Text("hi".into()))])]),
        )]);
        merge(&mut a, b);
        assert_eq!(a.to_json(), serde_json::json!({"input": [{"role": "user", "content": "hi"}]}));
        let mut null = Val::Null;
        merge(&mut null, Val::Int(3));
        assert_eq!(null, Val::Int(3));
    }

    #[test]
    fn numbers_and_descriptions() {
        assert_eq!(Val::Bool(true).number(), Some(1.0));
        assert_eq!(Val::Text("1".into()).number(), None);
        assert_eq!(Val::Float(f64::NAN).describe(), "nan");
        assert_eq!(Val::Float(f64::NAN).to_json(), serde_json::json!("nan"));
        assert_eq!(
            Val::Object("GenerativeCorpusMetricInput(golds=['a'])".into()).describe(),
            "a GenerativeCorpusMetricInput object"
        );
        assert_eq!(
            Val::Map(vec![("golds".into(), Val::Null), ("preds".into(), Val::Null)]).describe(),
            "{golds, preds}"
        );
    }
}
