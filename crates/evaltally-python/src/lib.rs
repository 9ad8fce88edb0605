//! The Python package of evaltally: what the `evaltally` module's functions do, as plain
//! Rust functions that return JSON text (the Python side turns it into dicts and lists), and,
//! with the `python` feature, the `evaltally._native` extension module that exposes them
//! and the whole command line.
//!
//! The wheel is built with maturin from `pyproject.toml`; the workspace builds this crate
//! without Python.
//!
//! ```
//! let json = evaltally_python::stability(&["../../testdata/bfcl/v4".into()], r#"{"model": "acme_tiny-7b"}"#)?;
//! let doc: serde_json::Value = serde_json::from_str(&json)?;
//! assert_eq!(doc["schema"], "evaltally.stability/1");
//! assert_eq!(doc["models"][0]["model"], "acme_tiny-7b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

use evaltally_analyzer::{Filter, LoadError, Loaded, NoProgress, compare, load, stability};
use serde::Deserialize;

#[cfg(feature = "python")]
mod native;

/// Why a function of the module failed; Python sees a `ValueError` with this message.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The keyword arguments are not filters the module knows.
    #[error("filters: {0}")]
    Filters(String),
    /// Reading failed as a whole.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// Nothing could be read below the paths.
    #[error("nothing to read in {0}: no result file could be read")]
    Nothing(String),
}

/// A name or a list of names.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Names {
    One(String),
    Many(Vec<String>),
}

impl Names {
    fn into_vec(self) -> Vec<String> {
        match self {
            Names::One(name) => vec![name],
            Names::Many(names) => names,
        }
    }
}

/// The keyword arguments every function takes, as the command line's reading options.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Filters {
    model: Option<Names>,
    category: Option<Names>,
    #[serde(default)]
    pool_models: bool,
    errors_as: Option<String>,
    #[serde(default)]
    include_partial: bool,
    as_format: Option<String>,
    pass_threshold: Option<f64>,
    scorer: Option<String>,
    #[serde(default)]
    keep_duplicates: bool,
}

/// The [`Filter`] a JSON object of keyword arguments describes.
fn filter(filters: &str) -> Result<Filter, Error> {
    let f: Filters = serde_json::from_str(filters).map_err(|e| Error::Filters(e.to_string()))?;
    let errors_as_failures = match f.errors_as.as_deref() {
        None | Some("errored") => false,
        Some("fail") => true,
        Some(other) => return Err(Error::Filters(format!("errors_as={other:?}: give \"errored\" or \"fail\""))),
    };
    let forced = match f.as_format.as_deref() {
        None => None,
        Some(name) => Some(load::registry().find(name).map(evaltally_format::Format::name).ok_or_else(|| {
            Error::Filters(format!("as_format={name:?}: known: {}", load::registry().names().join(", ")))
        })?),
    };
    Ok(Filter {
        models: f.model.map(Names::into_vec).unwrap_or_default(),
        categories: f.category.map(Names::into_vec).unwrap_or_default(),
        pool_models: f.pool_models,
        include_partial: f.include_partial,
        forced,
        errors_as_failures,
        scoring: evaltally_format::Scoring { pass_threshold: f.pass_threshold, scorer: f.scorer },
        keep_duplicates: f.keep_duplicates,
        registry: None,
    })
}

/// The error for paths that gave no run.
fn nothing(paths: &[PathBuf]) -> Error {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    Error::Nothing(shown.join(", "))
}

fn read(paths: &[PathBuf], filter: &Filter) -> Result<Loaded, Error> {
    let loaded = load::load(paths, filter, &NoProgress)?;
    if loaded.runs.is_empty() {
        return Err(nothing(paths));
    }
    Ok(loaded)
}

/// [`read`], with the runs' records (durations, tokens, costs) read in the same pass.
fn read_with_records(paths: &[PathBuf], filter: &Filter) -> Result<(Loaded, load::Records), Error> {
    let (loaded, records) =
        load::load_with_records(paths, filter, &NoProgress, &evaltally_analyzer::Cache::disabled())?;
    if loaded.runs.is_empty() {
        return Err(nothing(paths));
    }
    Ok((loaded, records))
}

/// `evaltally stability --format json` on `paths` with `filters` (a JSON object of keyword
/// arguments).
pub fn stability(paths: &[PathBuf], filters: &str) -> Result<String, Error> {
    let loaded = read(paths, &filter(filters)?)?;
    let report = stability::analyze(&loaded.runs);
    Ok(evaltally_report::stability::json(&report, &loaded.diagnostics, evaltally_report::stability::Options::default()))
}

/// `evaltally compare --base BASE... --new NEW... --format json` with `filters`.
pub fn compare(base: &[PathBuf], new: &[PathBuf], filters: &str) -> Result<String, Error> {
    let filter = filter(filters)?;
    let (base, base_records) = read_with_records(base, &filter)?;
    let (new, new_records) = read_with_records(new, &filter)?;
    let mut report = compare::compare(&base.runs, &new.runs);
    // Cost, duration and tokens, as the command line's document has them.
    report.efficiency = evaltally_analyzer::efficiency::efficiency(&base_records.runs, &new_records.runs);
    let diagnostics: Vec<_> = base.diagnostics.into_iter().chain(new.diagnostics).collect();
    Ok(evaltally_report::compare::json(&report, &diagnostics))
}

/// `evaltally export` (JSON Lines, one row per run and test) on `paths` with `filters`.
pub fn load(paths: &[PathBuf], filters: &str) -> Result<String, Error> {
    let records = load::records(paths, &filter(filters)?)?;
    if records.runs.is_empty() {
        return Err(nothing(paths));
    }
    let mut out = String::new();
    for run in &records.runs {
        evaltally_convert::export::jsonl(run, &mut out);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4() -> Vec<PathBuf> {
        vec![PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/bfcl/v4"))]
    }

    #[test]
    fn filters_are_checked() {
        assert!(matches!(stability(&v4(), r#"{"modle": "x"}"#), Err(Error::Filters(_))));
        assert!(matches!(stability(&v4(), r#"{"errors_as": "maybe"}"#), Err(Error::Filters(_))));
        assert!(matches!(stability(&v4(), r#"{"model": "no-such-model"}"#), Err(Error::Nothing(_) | Error::Load(_))));
        let one: serde_json::Value = serde_json::from_str(
            &stability(&v4(), r#"{"model": ["acme_tiny-7b"], "category": "simple_python"}"#).unwrap(),
        )
        .unwrap();
        assert_eq!(one["models"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn compare_and_load() {
        let run = |n: &str| vec![v4()[0].join(n)];
        let doc: serde_json::Value =
            serde_json::from_str(&compare(&run("run-1"), &run("run-2"), "{}").unwrap()).unwrap();
        assert!(doc["models"].as_array().is_some_and(|m| !m.is_empty()));
        assert_eq!(doc["schema"], "evaltally.compare/1");
        // The command line's document: cost, duration and tokens too.
        assert!(doc["efficiency"].is_object(), "{doc}");
        let rows = load(&v4(), r#"{"model": "acme_tiny-7b"}"#).unwrap();
        assert!(rows.lines().count() > 10);
        assert!(rows.lines().all(|l| l.contains(r#""model":"acme_tiny-7b""#)));
        assert!(rows.lines().all(|l| l.starts_with(r#"{"schema":"evaltally.export-row/1","#)));
        // Nothing readable is an error (Python: ValueError), as for stability and compare.
        assert!(matches!(load(&v4(), r#"{"model": "no-such-model"}"#), Err(Error::Nothing(_) | Error::Load(_))));
    }
}
