//! The samples of a details file: its shape, each row's test id and metrics, and the
//! verdict of the metric that judges them.

use evaltally_core::Outcome;
use evaltally_format::Scoring;

use crate::pylit;
use crate::table::{Parquet, Top};
use crate::val::Val;

/// How a details file lays out its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// lighteval 0.11 and later: the columns `doc`, `metric` and `model_response`, each a
    /// struct; the test is `doc.id`.
    Struct,
    /// lighteval 0.1 – 0.3 and 0.8 – 0.10: one column per field of a sample, `metrics` a
    /// struct; no id, the test is the row's position.
    Flat,
    /// lighteval 0.4 – 0.7: the same columns, every one a string, `metrics` the Python repr
    /// of a dict (`"{'acc': 1}"`); the test is the row's position.
    FlatText,
}

impl Shape {
    /// The shape of a file with these top-level columns, or why it is none of lighteval's.
    pub(crate) fn of(tops: &[Top]) -> Result<Self, String> {
        let find = |name: &str| tops.iter().find(|t| t.name == name);
        if let Some(metric) = find("metric") {
            if metric.fields.is_none() {
                return Err("its `metric` column is not a struct of metrics".to_string());
            }
            return Ok(Shape::Struct);
        }
        match find("metrics") {
            Some(m) if m.fields.is_some() => Ok(Shape::Flat),
            Some(m) if m.text => Ok(Shape::FlatText),
            Some(_) => Err("its `metrics` column is neither a struct nor text".to_string()),
            None => {
                let names: Vec<&str> = tops.iter().map(|t| t.name.as_str()).collect();
                Err(format!(
                    "no `metric` or `metrics` column, where lighteval keeps each sample's scores (its columns: {})",
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                ))
            }
        }
    }

    /// The column holding the metrics.
    pub(crate) fn metrics_column(self) -> &'static str {
        if self == Shape::Struct { "metric" } else { "metrics" }
    }

    /// The shape's name in the catalogue (`docs/formats/lighteval.md`).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Struct => "details-parquet-struct",
            Shape::Flat => "details-parquet-flat-native",
            Shape::FlatText => "details-parquet-flat-str",
        }
    }
}

/// One row of a details file as `stability` needs it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sample {
    /// The test: `doc.id`, or the row's position, with `#<k>` for the k-th repeat of an id.
    pub(crate) id: String,
    /// The metrics, or why the row's metrics text is no Python dict.
    pub(crate) metrics: Result<Val, String>,
}

/// The samples of a details file and the names of its metrics.
#[derive(Debug)]
pub(crate) struct Samples {
    pub(crate) shape: Shape,
    pub(crate) rows: Vec<Sample>,
    /// The metrics, in the file's order (the struct's fields; for text, as first met).
    pub(crate) names: Vec<String>,
    /// How many rows repeat an id read before, and the first such id.
    pub(crate) repeated: (usize, Option<String>),
}

impl Samples {
    /// Reads the ids and metrics of every row of `parquet`.
    pub(crate) fn read(parquet: &Parquet) -> Result<Self, String> {
        let tops = parquet.tops();
        let shape = Shape::of(&tops)?;
        let column = shape.metrics_column();
        let rows = if shape == Shape::Struct {
            parquet.read(&[&["doc", "id"], &[column]])?
        } else {
            parquet.read(&[&[column]])?
        };
        let mut names: Vec<String> =
            tops.iter().find(|t| t.name == column).and_then(|t| t.fields.clone()).unwrap_or_default();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let mut repeated = (0, None);
        let mut out = Vec::with_capacity(rows.len());
        for (position, row) in rows.into_iter().enumerate() {
            let own = match row.get("doc").and_then(|d| d.get("id")) {
                Some(Val::Text(s)) if !s.is_empty() => s.clone(),
                Some(Val::Int(i)) => i.to_string(),
                _ => position.to_string(),
            };
            let k = seen.entry(own.clone()).or_insert(0);
            let id = if *k == 0 { own.clone() } else { format!("{own}#{k}") };
            if *k > 0 {
                repeated.0 += 1;
                repeated.1.get_or_insert(own);
            }
            *k += 1;
            let metrics = match row.get(column) {
                Some(Val::Text(text)) => pylit::parse(text).and_then(|v| match v {
                    Val::Map(_) => Ok(v),
                    Val::Null => Ok(Val::Map(Vec::new())),
                    other => Err(format!("{}, not a dict", other.describe())),
                }),
                Some(v @ Val::Map(_)) => Ok(v.clone()),
                _ => Ok(Val::Map(Vec::new())),
            };
            if shape == Shape::FlatText
                && let Ok(Val::Map(fields)) = &metrics
            {
                for (name, _) in fields {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
            }
            out.push(Sample { id, metrics });
        }
        Ok(Self { shape, rows: out, names, repeated })
    }
}

/// What one sample's value of the judging metric makes of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Passed or failed (with the value, for the failure's message).
    Judged(Outcome, String),
    /// A number neither 0 nor 1 (a fraction), with no threshold to judge it: unscored.
    Fraction(String),
    /// No number: a NaN, a list, a struct, an object (a corpus metric's inputs): unscored.
    NoScore(String),
    /// The row has no value for the metric: left out.
    Missing,
}

/// The verdict on a value of the metric: 1 passes, 0 fails; with `--pass-threshold`, any
/// number at or above it passes and any other fails.
pub(crate) fn verdict(value: Option<&Val>, scoring: &Scoring) -> Verdict {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Verdict::Missing };
    let number = match value {
        Val::Text(s) => text_number(s),
        other => other.number(),
    };
    let Some(n) = number.filter(|n| !n.is_nan()) else { return Verdict::NoScore(value.describe()) };
    let shown = value.describe();
    if scoring.pass_threshold.is_some() || n.abs() < 1e-9 || (n - 1.0).abs() < 1e-9 {
        let outcome = if scoring.passes(n) { Outcome::Pass } else { Outcome::Fail };
        Verdict::Judged(outcome, shown)
    } else {
        Verdict::Fraction(shown)
    }
}

/// A number written as text (in a struct column of strings).
fn text_number(s: &str) -> Option<f64> {
    match s.trim() {
        "True" | "true" => Some(1.0),
        "False" | "false" => Some(0.0),
        other => other.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_by_the_rule() {
        let strict = Scoring::default();
        let half = Scoring { pass_threshold: Some(0.5), ..Scoring::default() };
        assert_eq!(verdict(Some(&Val::Float(1.0)), &strict), Verdict::Judged(Outcome::Pass, "1".into()));
        assert_eq!(verdict(Some(&Val::Int(0)), &strict), Verdict::Judged(Outcome::Fail, "0".into()));
        assert_eq!(verdict(Some(&Val::Bool(true)), &strict), Verdict::Judged(Outcome::Pass, "True".into()));
        assert_eq!(verdict(Some(&Val::Float(0.25)), &strict), Verdict::Fraction("0.25".into()));
        assert_eq!(verdict(Some(&Val::Float(0.25)), &half), Verdict::Judged(Outcome::Fail, "0.25".into()));
        assert_eq!(verdict(Some(&Val::Float(0.75)), &half), Verdict::Judged(Outcome::Pass, "0.75".into()));
        assert_eq!(verdict(Some(&Val::Float(f64::NAN)), &half), Verdict::NoScore("nan".into()));
        assert_eq!(verdict(Some(&Val::List(vec![])), &strict), Verdict::NoScore("a list of 0".into()));
        assert_eq!(verdict(Some(&Val::Null), &strict), Verdict::Missing);
        assert_eq!(verdict(None, &strict), Verdict::Missing);
        assert_eq!(verdict(Some(&Val::Text("1.0".into())), &strict), Verdict::Judged(Outcome::Pass, "'1.0'".into()));
    }

    #[test]
    fn shapes_by_their_columns() {
        let top = |name: &str, fields: Option<&[&str]>, text: bool| Top {
            name: name.into(),
            fields: fields.map(|f| f.iter().map(|s| (*s).to_string()).collect()),
            text,
        };
        assert_eq!(
            Shape::of(&[top("doc", Some(&["id"]), false), top("metric", Some(&["acc"]), false)]),
            Ok(Shape::Struct)
        );
        assert_eq!(Shape::of(&[top("metrics", Some(&["acc"]), false)]), Ok(Shape::Flat));
        assert_eq!(Shape::of(&[top("metrics", None, true)]), Ok(Shape::FlatText));
        assert!(Shape::of(&[top("gold", None, true)]).unwrap_err().contains("its columns: gold"));
    }
}
