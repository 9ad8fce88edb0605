//! evaltally's task runner, invoked as `cargo xtask <command>` (see the alias in
//! `.cargo/config.toml`).
//!
//! Commands:
//! - `ci`: everything CI checks, in order, stopping at the first failure.
//! - `snapshots [--check|--review|--accept]`: run the tests against the insta
//!   snapshots and check, review or accept them.
//! - `features`: each format feature alone, the BFCL-only build's size and example.
//! - `wheel`: build the Python wheel, install it into a fresh virtual environment and run
//!   the `evaltally` command and module from it.
//! - `man [DIR]`: write evaltally's man pages (`evaltally.1`, one per subcommand).
//! - `fuzz [--seconds N] [TARGET...]`: run the cargo-fuzz targets in `fuzz/`.
//! - `bench [--runs N] [--quick] [--format NAME]... [--profile dist|release]`: time evaltally on large
//!   generated workloads of every format against a Python baseline and `cat`,
//!   after checking its counts against the generators' ground truth, and write
//!   `docs/benchmarks.md`; with `EVALTALLY_TEST_PG_URL` set, also the PostgreSQL store.
//! - `bench-store`: only the PostgreSQL store's measurement.
//! - `schemas [--check]`: write the JSON Schema of every document evaltally prints or
//!   writes into `docs/schema/`, or check that those files are the types'.
//!
//! This module holds the argument parsing and the small helpers the tasks share:
//! finding the workspace root and running a command with a one-line echo.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod ci;
mod features;
mod fuzz;
#[cfg(test)]
mod listing;
mod man;
#[cfg(test)]
mod modules;
mod schemas;
mod snapshots;
mod wheel;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::OnceLock;

use anyhow::{Context, Result, ensure};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  ci                    fmt, clippy, API docs (warnings denied), doctests, then
                        all tests with the snapshot check
  snapshots [--check]   run all tests; fail on snapshot mismatches, unreferenced
                        .snap files and leftover .snap.new / .pending-snap files
  snapshots --review    record changed snapshots as .snap.new and review them
                        (with `cargo insta review` when cargo-insta is installed)
  snapshots --accept    overwrite snapshots with the current output and delete
                        unreferenced .snap files
  bench [--runs N] [--quick] [--format NAME]... [--profile dist|release]
                        time evaltally against a Python baseline and `cat` on
                        generated workloads of every format, two per format,
                        the second with twice the runs (cached under
                        <target>/bench; docs/benchmarks.md lists them), after
                        checking evaltally's counts against the generators'
                        ground truth, and write docs/benchmarks.md; N measured
                        runs per command (default 5, Python at most 3);
                        --quick: only the smaller workload of each format;
                        --format (bfcl, gstack, junit, swebench, sfbench,
                        inspect, lmeval, lighteval, promptfoo, helm,
                        openai-evals, taubench, terminal-bench, evalplus;
                        repeatable or
                        comma-separated): only these
  bench-store           only the PostgreSQL store's measurement of bench:
                        stability over 1,000 stored runs x 4,000 tests on
                        the server EVALTALLY_TEST_PG_URL names (skipped
                        without it)
  fuzz [--seconds N] [TARGET...]
                        run each cargo-fuzz target in fuzz/ (the [[bin]]s
                        of fuzz/Cargo.toml, one or more per format; default
                        all) for N seconds (default 60) from a seed corpus
                        built from testdata/; needs nightly and cargo-fuzz
  schemas [--check]     write docs/schema/<name>.schema.json, the JSON Schema of
                        every document evaltally prints or writes, from the
                        Rust types; --check: write nothing, fail naming each
                        file that is stale, missing or extra
  features              check evaltally-analyzer with each format feature alone,
                        keep its BFCL-only dependency tree at most 50 crates, and
                        run its stability_bfcl example
  wheel                 build the Python wheel (maturin), install it into a fresh
                        virtual environment and run the evaltally command and the
                        evaltally module from it; skipped without maturin unless CI=true
  man [DIR]             write the man pages, evaltally.1 and evaltally-<command>.1,
                        into DIR (default <target>/man)
  help                  print this message
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        [] | ["help" | "-h" | "--help"] => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        ["ci"] => ci::run(),
        ["wheel"] => wheel::run(),
        ["features"] => features::run(),
        ["man"] => man::run(None),
        ["man", dir] if !dir.starts_with('-') => man::run(Some(Path::new(dir))),
        ["bench", flags @ ..] => match bench::Options::parse(flags) {
            Some(options) => bench::run(&options),
            None => return usage_error(&args),
        },
        ["bench-store"] => bench::run_store(3),
        ["fuzz", flags @ ..] => match fuzz::Options::parse(flags) {
            Some(options) => fuzz::run(&options),
            None => return usage_error(&args),
        },
        ["schemas", flags @ ..] => match schemas::Mode::parse(flags) {
            Some(mode) => schemas::run(mode),
            None => return usage_error(&args),
        },
        ["snapshots", flags @ ..] => match snapshots::Mode::parse(flags) {
            Some(mode) => snapshots::run(mode),
            None => return usage_error(&args),
        },
        _ => return usage_error(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error(args: &[&str]) -> ExitCode {
    eprintln!("xtask: unknown command `{}`\n\n{USAGE}", args.join(" "));
    ExitCode::from(2)
}

/// The workspace root: the parent of this crate's directory. `cargo run` sets
/// `CARGO_MANIFEST_DIR` at run time too; prefer that over the compile-time
/// value, which goes stale if the checkout moves but the build is reused.
pub(crate) fn workspace_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
            .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
        manifest_dir.parent().expect("xtask lives one level below the workspace root").to_path_buf()
    })
}

/// A `cargo <args>` command run from the workspace root, using the same cargo
/// that runs xtask (so the toolchain pinned by rust-toolchain.toml).
pub(crate) fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(args).current_dir(workspace_root());
    cmd
}

/// Whether `cmd` runs and exits successfully, with its output discarded.
pub(crate) fn succeeds(mut cmd: Command) -> bool {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|status| status.success())
}

/// Echoes `cmd` to stderr as `xtask: <command line>`, runs it and fails unless
/// it exits successfully.
pub(crate) fn run_cmd(cmd: &mut Command) -> Result<()> {
    let program = Path::new(cmd.get_program()).file_name().unwrap_or_else(|| cmd.get_program());
    let line = std::iter::once(program).chain(cmd.get_args()).map(OsStr::to_string_lossy).collect::<Vec<_>>().join(" ");
    eprintln!("xtask: {}{line}", env_prefix(cmd));
    let status = cmd.status().with_context(|| format!("could not start `{line}`"))?;
    ensure!(status.success(), "`{line}` failed ({status})");
    Ok(())
}

/// The environment changes of `cmd` as a shell prefix, e.g.
/// `env -u CI INSTA_UPDATE=new `.
fn env_prefix(cmd: &Command) -> String {
    let mut unset = Vec::new();
    let mut set = Vec::new();
    for (key, value) in cmd.get_envs() {
        let key = key.to_string_lossy();
        match value {
            Some(value) => set.push(format!("{key}={} ", value.to_string_lossy())),
            None => unset.push(format!("-u {key} ")),
        }
    }
    let env = if unset.is_empty() { "" } else { "env " };
    format!("{env}{}{}", unset.concat(), set.concat())
}

/// `$CARGO_TARGET_DIR` (relative to the current folder, as cargo reads it) or
/// `<root>/target`.
fn target_dir() -> Result<PathBuf> {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => Ok(std::env::current_dir().context("no current folder")?.join(dir)),
        None => Ok(workspace_root().join("target")),
    }
}

/// `path` relative to the workspace root when it lies inside it, for messages.
pub(crate) fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(workspace_root()).unwrap_or(path).to_path_buf()
}
