//! `cargo xtask features`: the format features build alone, and the smallest build stays
//! small. Part of `cargo xtask ci`.
//!
//! - the analyzer and the binary re-export every feature of `evaltally-formats` (read from
//!   `cargo metadata`, so a new format's feature is checked without being listed here);
//! - `evaltally-analyzer` is checked with no format at all and with each feature alone, so
//!   that no format quietly needs another;
//! - the binary builds with only `bfcl`;
//! - the BFCL-only analyzer's normal dependency tree (`cargo tree -e normal`, crates
//!   counted once, itself included) is at most [`MAX_BFCL_CRATES`];
//! - its example, `stability_bfcl`, runs over `testdata/bfcl/v4` with only that feature.

use std::collections::BTreeSet;
use std::process::Command;

use anyhow::{Context, Result, ensure};

use crate::{cargo, run_cmd, workspace_root};

/// The most crates a tool that reads BFCL results through the analyzer may pull in.
pub(crate) const MAX_BFCL_CRATES: usize = 50;

pub(crate) fn run() -> Result<()> {
    let check = |features: &str| {
        // clippy with warnings denied: a feature left out must not leave dead code behind.
        let mut args = vec!["clippy", "-p", "evaltally-analyzer", "--lib", "--no-default-features"];
        if !features.is_empty() {
            args.extend(["--features", features]);
        }
        args.extend(["--", "-D", "warnings"]);
        run_cmd(&mut cargo(&args))
    };
    let registry = reexported()?;
    check("")?;
    for feature in &registry {
        check(feature)?;
    }
    // The command line with one format: what a user building `evaltally` for BFCL alone gets.
    run_cmd(&mut cargo(&[
        "clippy",
        "-p",
        "evaltally",
        "--no-default-features",
        "--features",
        "bfcl",
        "--",
        "-D",
        "warnings",
    ]))?;
    let n = bfcl_crates()?;
    ensure!(
        n <= MAX_BFCL_CRATES,
        "evaltally-analyzer with only `bfcl` pulls in {n} crates (at most {MAX_BFCL_CRATES})"
    );
    eprintln!("xtask: evaltally-analyzer with only `bfcl`: {n} crates (at most {MAX_BFCL_CRATES})");
    run_cmd(&mut cargo(&[
        "run",
        "-p",
        "evaltally-analyzer",
        "--example",
        "stability_bfcl",
        "--no-default-features",
        "--features",
        "bfcl",
    ]))
}

/// The features of `evaltally-formats`, once it is checked that the analyzer and the binary
/// offer each of them too.
pub(crate) fn reexported() -> Result<BTreeSet<String>> {
    let registry = features_of("evaltally-formats")?;
    for package in ["evaltally-analyzer", "evaltally"] {
        let theirs = features_of(package)?;
        let missing: Vec<&String> = registry.difference(&theirs).collect();
        ensure!(missing.is_empty(), "{package} does not re-export the features {missing:?} of evaltally-formats");
    }
    Ok(registry)
}

/// The features of a workspace package, `default` left out.
fn features_of(package: &str) -> Result<BTreeSet<String>> {
    let out = Command::new(cargo_bin())
        .current_dir(workspace_root())
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline"])
        .output()
        .context("running cargo metadata")?;
    ensure!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).context("reading cargo metadata")?;
    let found = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == package))
        .and_then(|p| p["features"].as_object())
        .with_context(|| format!("cargo metadata has no features for {package}"))?;
    Ok(found.keys().filter(|k| *k != "default").cloned().collect())
}

fn cargo_bin() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The crates `evaltally-analyzer` with only `bfcl` depends on to build (each once, itself
/// included).
pub(crate) fn bfcl_crates() -> Result<usize> {
    let out = Command::new(cargo_bin())
        .current_dir(workspace_root())
        .args(["tree", "-p", "evaltally-analyzer", "-e", "normal", "--no-default-features", "--features", "bfcl"])
        .args(["--prefix", "none", "--offline"])
        .output()
        .context("running cargo tree")?;
    ensure!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let crates: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches(" (*)").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    Ok(crates.len())
}

#[cfg(test)]
mod tests {
    /// The acceptance of the small build: a tool reading BFCL pulls in at most 50 crates.
    #[test]
    fn the_bfcl_only_analyzer_stays_small() {
        let n = super::bfcl_crates().unwrap();
        assert!(n <= super::MAX_BFCL_CRATES, "{n} crates");
        assert!(n > 5, "cargo tree listed {n} crates: not the tree it meant");
    }

    /// A format's feature in the registry is one the analyzer and the binary offer too.
    #[test]
    fn every_format_feature_is_reexported() {
        let features = super::reexported().unwrap();
        assert!(features.contains("bfcl") && features.contains("convert"), "{features:?}");
    }
}
