//! The PostgreSQL store's measurement in `cargo xtask bench` (and alone as `cargo xtask
//! bench-store`): `stability` over 1,000 stored runs of 4,000 tests, generated in SQL on the
//! server that `EVALTALLY_TEST_PG_URL` names; skipped, with a line saying so, without it.

use std::path::Path;

use anyhow::{Context, Result};

use super::measure::measure;
use super::{command, os};

/// Stored runs and tests per run.
const RUNS: i32 = 1_000;
const TESTS: i32 = 4_000;

/// Measures `stability store:all` on the generated store; `None` when skipped.
pub(crate) fn run(evaltally: &Path, runs: usize) -> Result<Option<f64>> {
    let Some(base) = std::env::var("EVALTALLY_TEST_PG_URL").ok().filter(|v| !v.is_empty()) else {
        eprintln!("xtask: PostgreSQL store: skipped (EVALTALLY_TEST_PG_URL is not set)");
        return Ok(None);
    };
    let url = evaltally_store::testing::ensure_database(&base, "evaltally_bench")?;
    eprintln!("xtask: PostgreSQL store: generating {RUNS} runs x {TESTS} tests (kept for next time)");
    evaltally_store::testing::generate_runs(&url, RUNS, TESTS).context("generating the stored runs")?;
    let label = format!("stability store:all ({RUNS} stored runs x {TESTS} tests)");
    eprintln!("xtask: PostgreSQL store {label}: 1 warm-up + {runs} measured");
    let stats = measure(
        &|| {
            let mut cmd = command(evaltally, [os("stability"), os("store:all"), os("--format"), os("json")]);
            cmd.env("EVALTALLY_STORE", &url);
            vec![cmd]
        },
        runs,
    )?;
    eprintln!("xtask: PostgreSQL store {label}: median {:.3} s", stats.median);
    Ok(Some(stats.median))
}
