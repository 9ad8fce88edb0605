//! `cargo xtask ci`: the full CI check, step by step, stopping at the first
//! failure: format, the JSON Schemas against the types, lints, API docs, doctests, the packaging of every publishable crate,
//! the format features one by one, the Python wheel, then the tests with the snapshot check.
//!
//! The last step is the snapshot check, whose test runner prints the final
//! summary line. Nothing is printed after it on success, because CI judges the
//! run by that line.

use anyhow::Result;

use crate::{cargo, features, run_cmd, schemas, snapshots, wheel};

pub(crate) fn run() -> Result<()> {
    run_cmd(&mut cargo(&["fmt", "--all", "--check"]))?;
    // docs/schema/ against the types (in this process: xtask is built with them), before
    // the tests validate every document against those files.
    schemas::run(schemas::Mode::Check)?;
    run_cmd(&mut cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    // Broken intra-doc links and malformed doc comments fail the build of the API docs.
    let mut doc = cargo(&["doc", "--workspace", "--no-deps"]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    run_cmd(&mut doc)?;
    // nextest does not run doctests, so they get their own step.
    run_cmd(&mut cargo(&["test", "--workspace", "--doc"]))?;
    // Every crate but the task runner, the test helpers and the Python package (a wheel) is
    // publishable: package them all as `cargo publish` would (the crates.io index is needed;
    // the crates depend on each other through a local overlay of the packaged ones) and stop
    // before uploading.
    // Without verification: compiling the packaged sources again would double the build,
    // and the build above already compiles them (the READMEs' examples as doctests).
    run_cmd(&mut cargo(&[
        "publish",
        "--workspace",
        "--exclude",
        "xtask",
        "--exclude",
        "evaltally-testkit",
        "--exclude",
        "evaltally-python",
        "--dry-run",
        "--no-verify",
        "--allow-dirty",
    ]))?;
    // Each format feature alone, and the smallest build's size and example.
    features::run()?;
    // The Python wheel, installed into a fresh virtual environment.
    wheel::run()?;
    snapshots::check()
}
