//! `cargo xtask snapshots`: run the whole test suite against the insta
//! snapshots under `crates/`.
//!
//! Unreferenced snapshots are found with insta's own mechanism (the one behind
//! `cargo insta test --unreferenced`): when `INSTA_SNAPSHOT_REFERENCES_FILE` is
//! set, every file-snapshot assertion appends the path of its `.snap` file to
//! that file (`insta::env::memoize_snapshot_file`, called from
//! `insta::runtime::assert_snapshot` before the comparison, so even failing
//! assertions are recorded). Any `.snap` file under `crates/` missing from that
//! list after a full run belongs to no test, unless some test skipped (no
//! PostgreSQL, no `../shared`, no Chromium): such a test says so in the file
//! `EVALTALLY_SKIPPED_TESTS` names, and then its snapshots are neither reported
//! nor deleted, only counted in a notice.
//!
//! Modes:
//! - `--check` (default): `INSTA_UPDATE=no`, fail on any mismatch, on
//!   unreferenced `.snap` files and on leftover `.snap.new` / `.pending-snap`.
//! - `--review`: record changes as `.snap.new` / `.pending-snap` and review them.
//! - `--accept`: overwrite `.snap` files, then delete the unreferenced ones.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{cargo, relative, run_cmd, succeeds, workspace_root};

/// What `cargo xtask snapshots` does after (or around) the test run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Mode {
    Check,
    Review,
    Accept,
}

impl Mode {
    /// Parses the flags after `snapshots`; `None` means a usage error.
    pub(crate) fn parse(flags: &[&str]) -> Option<Self> {
        match flags {
            [] | ["--check"] => Some(Self::Check),
            ["--review"] => Some(Self::Review),
            ["--accept"] => Some(Self::Accept),
            _ => None,
        }
    }
}

pub(crate) fn run(mode: Mode) -> Result<()> {
    match mode {
        Mode::Check => check(),
        Mode::Review => review(),
        Mode::Accept => accept(),
    }
}

/// Runs all tests without touching any snapshot, then fails if a `.snap` file
/// was not referenced or a pending snapshot file exists. Prints nothing after
/// the test runner's summary on success.
pub(crate) fn check() -> Result<()> {
    let refs = References::create()?;
    let mut tests = test_command(&refs);
    tests.env("INSTA_UPDATE", "no").env("INSTA_FORCE_PASS", "0");
    run_cmd(&mut tests)?;

    let pending = pending_files()?;
    let unreferenced = refs.unreferenced()?;
    let skips = refs.skips()?;
    let unreferenced = if skips.is_empty() {
        unreferenced
    } else {
        if !unreferenced.is_empty() {
            eprintln!(
                "xtask: notice: not checked whether {} snapshot(s) are still used, as tests skipped: {}",
                unreferenced.len(),
                skips.join("; ")
            );
        }
        Vec::new()
    };
    if unreferenced.is_empty() && pending.is_empty() {
        return Ok(());
    }
    let mut msg = String::from("snapshot check failed");
    if !unreferenced.is_empty() {
        msg += "\n\nunreferenced snapshots (no test asserted them):";
        msg += &list(&unreferenced);
    }
    if !pending.is_empty() {
        msg += "\n\npending snapshot files (review or delete them):";
        msg += &list(&pending);
    }
    msg += "\n\nrun `cargo xtask snapshots --review` or `cargo xtask snapshots --accept`";
    bail!(msg)
}

/// Records changed snapshots next to the old ones and opens `cargo insta
/// review` when it is installed.
fn review() -> Result<()> {
    let refs = References::create()?;
    let mut tests = test_command(&refs);
    tests.env("INSTA_UPDATE", "new").env("INSTA_FORCE_PASS", "1").env_remove("CI");
    // Review what was recorded even if some test failed for another reason.
    let tests_result = run_cmd(&mut tests);

    if succeeds(cargo(&["insta", "--version"])) {
        run_cmd(&mut cargo(&["insta", "review"]))?;
    } else {
        let pending = pending_files()?;
        if pending.is_empty() {
            eprintln!("xtask: no pending snapshots");
        } else {
            eprintln!("xtask: pending snapshots:{}", list(&pending));
            eprintln!(
                "xtask: install cargo-insta (`cargo install cargo-insta --locked`) to review \
                 them, or accept them all with `cargo xtask snapshots --accept`"
            );
        }
    }
    if tests_result.is_ok() && refs.skips()?.is_empty() {
        let unreferenced = refs.unreferenced()?;
        if !unreferenced.is_empty() {
            eprintln!("xtask: unreferenced snapshots (`--accept` deletes them):{}", list(&unreferenced));
        }
    }
    tests_result
}

/// Overwrites every file snapshot with the current output, then deletes the
/// `.snap` files no test referenced and stale `.snap.new` files.
fn accept() -> Result<()> {
    let refs = References::create()?;
    let mut tests = test_command(&refs);
    tests.env("INSTA_UPDATE", "always").env_remove("CI");
    // A test that fails before its assertions would leave its snapshots
    // unreferenced, so only delete after a fully green run.
    run_cmd(&mut tests).context("not deleting unreferenced snapshots")?;

    // Nor after a run where some test skipped: its snapshots were not asserted, not unused.
    let skips = refs.skips()?;
    let unreferenced = refs.unreferenced()?;
    if !skips.is_empty() && !unreferenced.is_empty() {
        eprintln!(
            "xtask: notice: kept {} unreferenced snapshot(s), as tests skipped: {}",
            unreferenced.len(),
            skips.join("; ")
        );
    }
    for path in unreferenced.into_iter().filter(|_| skips.is_empty()) {
        fs::remove_file(workspace_root().join(&path))
            .with_context(|| format!("could not delete {}", path.display()))?;
        eprintln!("xtask: deleted unreferenced snapshot {}", path.display());
    }
    // Every asserted file snapshot now holds the current output, so any
    // `.snap.new` left over from earlier runs is stale.
    for path in pending_files()? {
        if path.extension().is_some_and(|ext| ext == "new") {
            fs::remove_file(workspace_root().join(&path))
                .with_context(|| format!("could not delete {}", path.display()))?;
            eprintln!("xtask: deleted stale {}", path.display());
        } else {
            let path = path.display();
            eprintln!("xtask: kept {path}; inline snapshots need `cargo insta accept`");
        }
    }
    Ok(())
}

/// `cargo nextest run`, or `cargo test` when nextest is not installed, over
/// the whole workspace, recording snapshot references into `refs`.
fn test_command(refs: &References) -> Command {
    let mut cmd = if succeeds(cargo(&["nextest", "--version"])) {
        cargo(&["nextest", "run", "--workspace", "--no-fail-fast"])
    } else {
        eprintln!("xtask: cargo-nextest is not installed, falling back to cargo test");
        cargo(&["test", "--workspace", "--no-fail-fast"])
    };
    cmd.env("INSTA_SNAPSHOT_REFERENCES_FILE", &refs.0).env("EVALTALLY_SKIPPED_TESTS", &refs.1);
    cmd
}

/// A fresh, empty references file under the target directory, and beside it the file where
/// tests that skip say so (`evaltally_testkit::skipped`); both deleted on drop.
struct References(PathBuf, PathBuf);

impl References {
    fn create() -> Result<Self> {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| workspace_root().join("target"), |dir| workspace_root().join(dir));
        let dir = target.join("xtask");
        fs::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
        let path = dir.join(format!("snapshot-references-{}.txt", std::process::id()));
        fs::write(&path, "").with_context(|| format!("could not create {}", path.display()))?;
        let skips = dir.join(format!("skipped-tests-{}.txt", std::process::id()));
        fs::write(&skips, "").with_context(|| format!("could not create {}", skips.display()))?;
        Ok(Self(path, skips))
    }

    /// Why tests skipped part of their work in this run, each reason once, sorted.
    fn skips(&self) -> Result<Vec<String>> {
        let text = fs::read_to_string(&self.1).with_context(|| format!("could not read {}", self.1.display()))?;
        let reasons: BTreeSet<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        Ok(reasons.into_iter().map(str::to_owned).collect())
    }

    /// The `.snap` files under `crates/` that no assertion referenced,
    /// relative to the workspace root and sorted.
    fn unreferenced(&self) -> Result<Vec<PathBuf>> {
        let recorded = fs::read_to_string(&self.0).with_context(|| format!("could not read {}", self.0.display()))?;
        // insta records `<workspace>/<dir of the test file>/<snapshot_path>/...`,
        // which may contain `..`; canonicalize both sides before comparing.
        let referenced: HashSet<PathBuf> = recorded.lines().filter_map(|line| fs::canonicalize(line).ok()).collect();
        let mut unreferenced = Vec::new();
        for path in find_files(|name| Path::new(name).extension().is_some_and(|ext| ext == "snap"))? {
            let canonical = fs::canonicalize(workspace_root().join(&path))
                .with_context(|| format!("could not resolve {}", path.display()))?;
            if !referenced.contains(&canonical) {
                unreferenced.push(path);
            }
        }
        Ok(unreferenced)
    }
}

impl Drop for References {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
        let _ = fs::remove_file(&self.1);
    }
}

/// Leftover `.snap.new` and `.pending-snap` files under `crates/`, relative to
/// the workspace root and sorted.
fn pending_files() -> Result<Vec<PathBuf>> {
    find_files(|name| name.ends_with(".snap.new") || name.ends_with(".pending-snap"))
}

/// Files under `crates/` whose name matches, relative to the workspace root
/// and sorted; `target` directories are skipped and symlinks not followed.
fn find_files(matches: impl Fn(&str) -> bool) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, matches: &dyn Fn(&str) -> bool, found: &mut Vec<PathBuf>) -> Result<()> {
        let entries = fs::read_dir(dir).with_context(|| format!("could not read {}", dir.display()))?;
        for entry in entries {
            let entry = entry?;
            let kind = entry.file_type()?;
            let name = entry.file_name();
            if kind.is_dir() && name != "target" {
                walk(&entry.path(), matches, found)?;
            } else if kind.is_file() && matches(&name.to_string_lossy()) {
                found.push(relative(&entry.path()));
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(&workspace_root().join("crates"), &matches, &mut found)?;
    found.sort();
    Ok(found)
}

/// One path per line, indented, for messages.
fn list(paths: &[PathBuf]) -> String {
    paths.iter().fold(String::new(), |mut out, path| {
        let _ = write!(out, "\n  {}", path.display());
        out
    })
}
