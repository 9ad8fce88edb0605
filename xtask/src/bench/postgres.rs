//! The PostgreSQL store's measurement in `cargo xtask bench` (and alone as `cargo xtask
//! bench-store`): `stability` over 1,000 stored runs of 4,000 tests, generated in SQL on the
//! server that `EVALTALLY_TEST_PG_URL` names; skipped, with a line saying so, without it.

use std::path::Path;

use anyhow::{Context, Result};

use super::measure::{Stats, measure};
use super::{command, os};

/// Stored runs and tests per run.
const RUNS: i32 = 1_000;
const TESTS: i32 = 4_000;

/// Measures `stability store:all` on the generated store; `None` when skipped.
pub(crate) fn run(evaltally: &Path, runs: usize) -> Result<Option<Stats>> {
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
    Ok(Some(stats))
}

/// The section of `docs/benchmarks.md` on the store: the figure, or why there is none.
pub(crate) fn section(stats: Option<&Stats>) -> String {
    let how = format!(
        "`EVALTALLY_STORE=URL evaltally stability store:all --format json` over {RUNS} stored runs of {TESTS} tests \
         each, generated in SQL (not pushed from files) into a database `evaltally_bench` on the server \
         `EVALTALLY_TEST_PG_URL` names (a local PostgreSQL from `.ci/postgres.sh`), measured as above."
    );
    match stats {
        Some(s) => {
            let rss = s.peak_rss_kib.map_or_else(String::new, |k| format!(", peak RSS {:.1} MiB", k as f64 / 1024.0));
            format!("{how}\n\nMedian {:.3} s (min {:.3}, max {:.3}){rss}.\n", s.median, s.min, s.max)
        }
        None => format!("{how}\n\nNot measured in this run: `EVALTALLY_TEST_PG_URL` was not set.\n"),
    }
}
