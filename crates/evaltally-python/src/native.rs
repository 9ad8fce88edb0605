//! The `evaltally._native` extension module (feature `python`).

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(err: &crate::Error) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// Runs the `evaltally` command line with `args` (the first is the program name) and
/// returns its exit status. `exe` identifies the build for the digest cache.
#[pyfunction]
#[pyo3(signature = (args, exe = None))]
fn run_cli(args: Vec<String>, exe: Option<PathBuf>) -> u8 {
    evaltally::run(args, exe)
}

/// The stability document (JSON text) of the runs below `paths`.
#[pyfunction]
fn stability(paths: Vec<PathBuf>, filters: &str) -> PyResult<String> {
    crate::stability(&paths, filters).map_err(|e| value_error(&e))
}

/// The comparison document (JSON text) of two groups of runs.
#[pyfunction]
fn compare(base: Vec<PathBuf>, new: Vec<PathBuf>, filters: &str) -> PyResult<String> {
    crate::compare(&base, &new, filters).map_err(|e| value_error(&e))
}

/// One JSON line per (run, test) below `paths`.
#[pyfunction]
fn load(paths: Vec<PathBuf>, filters: &str) -> PyResult<String> {
    crate::load(&paths, filters).map_err(|e| value_error(&e))
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", evaltally::VERSION)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(stability, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    Ok(())
}
