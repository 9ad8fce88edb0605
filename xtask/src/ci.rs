//! `cargo xtask ci`: the full CI check, step by step, stopping at the first
//! failure (after a warning when the disk has less free space than a cold build takes): format, the JSON Schemas against the types, lints, API docs, doctests, the packaging of every publishable crate,
//! the format features one by one, the Python wheel, then the tests with the snapshot check.
//!
//! The last step is the snapshot check, whose test runner prints the final
//! summary line. Nothing is printed after it on success, because CI judges the
//! run by that line.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Result;

use crate::{cargo, features, relative, run_cmd, schemas, snapshots, target_dir, wheel};

/// Somewhat more than a cold `cargo xtask ci` leaves in the target folder (4.1 GB on a fresh
/// clone, `du -sh target` after the run), for what is linked and written meanwhile: a disk
/// with less free fails late and obscurely, the linker killed by a bus error as its mapped
/// output cannot grow.
const CI_NEEDS_GB: u64 = 6;

pub(crate) fn run() -> Result<()> {
    disk_check();
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

/// Warns, before the build starts, when the disk of the target folder has less free space than
/// a cold build takes. Only a warning: an incremental build needs less, and `df` may be missing.
fn disk_check() {
    let Ok(target) = target_dir() else { return };
    // The folder itself may not exist yet: its nearest existing ancestor is on the same disk.
    let Some(existing) = target.ancestors().find(|p| p.exists()) else { return };
    if let Some(free) = free_gb(existing)
        && free < CI_NEEDS_GB
    {
        eprintln!(
            "xtask: warning: {free} GB free on the disk of {}; a cold CI build needs about {CI_NEEDS_GB} GB, \
             and a full disk fails it late (the linker ends with `Bus error`)",
            relative(&target).display()
        );
    }
}

/// The free space, in whole GB (10^9 bytes), of the file system holding `path`, from POSIX
/// `df -Pk`.
fn free_gb(path: &Path) -> Option<u64> {
    let out = Command::new("df").arg("-Pk").arg(path).stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    available_kb(&String::from_utf8_lossy(&out.stdout)).map(|kb| kb * 1024 / 1_000_000_000)
}

/// The `Available` column (KB) of `df -Pk`'s one data line.
fn available_kb(df: &str) -> Option<u64> {
    df.lines().nth(1)?.split_whitespace().nth(3)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_available_column_of_df() {
        let df = "Filesystem     1024-blocks      Used Available Capacity Mounted on\n\
                  /dev/vda        263174212  90217676   3522164      97% /\n";
        assert_eq!(available_kb(df), Some(3_522_164));
        assert_eq!(available_kb("Filesystem 1024-blocks Used Available Capacity Mounted on\n"), None);
        assert_eq!(available_kb(""), None);
    }

    #[test]
    fn df_answers_for_the_workspace() {
        // Where `df` exists (every CI machine), the workspace's disk has some free space.
        if Command::new("df").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok() {
            assert!(free_gb(crate::workspace_root()).is_some());
        }
    }
}
