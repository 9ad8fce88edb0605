//! `cargo xtask schemas [--check]`: the JSON Schema of every document evaltally prints or
//! writes, made from the Rust types that write them (`evaltally::schemas`, through each
//! crate's `schema` feature), as `docs/schema/<name>.schema.json`.
//!
//! Without `--check` it writes every file and removes the `*.schema.json` files of
//! documents that no longer exist. With `--check` it writes nothing and fails, naming each
//! file, when one is stale (the types changed since it was written), missing or extra.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::{relative, workspace_root};

/// What the task does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Write the files.
    Write,
    /// Fail when a file differs from what would be written.
    Check,
}

impl Mode {
    pub(crate) fn parse(flags: &[&str]) -> Option<Self> {
        match flags {
            [] => Some(Self::Write),
            ["--check"] => Some(Self::Check),
            _ => None,
        }
    }
}

/// The folder the schemas live in.
fn folder() -> PathBuf {
    workspace_root().join("docs").join("schema")
}

/// Every schema file's name and text (pretty-printed, with a final newline).
fn wanted() -> Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    for (id, schema) in evaltally::schemas() {
        let text = serde_json::to_string_pretty(&schema)? + "\n";
        if files.insert(id.file_name(), text).is_some() {
            bail!("two documents are named {}", id.name);
        }
    }
    Ok(files)
}

/// The `*.schema.json` files in the folder now.
fn present() -> Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    let dir = folder();
    if !dir.exists() {
        return Ok(files);
    }
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", relative(&dir).display()))? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if name.ends_with(".schema.json") {
            let text =
                std::fs::read_to_string(&path).with_context(|| format!("reading {}", relative(&path).display()))?;
            files.insert(name.to_string(), text);
        }
    }
    Ok(files)
}

pub(crate) fn run(mode: Mode) -> Result<()> {
    let wanted = wanted()?;
    let present = present()?;
    let dir = folder();
    let shown = |name: &str| relative(&dir.join(name)).display().to_string();
    let mut problems = Vec::new();
    for (name, text) in &wanted {
        match present.get(name) {
            None => problems.push(format!("{}: missing", shown(name))),
            Some(old) if old != text => problems.push(format!("{}: stale (its types changed)", shown(name))),
            Some(_) => {}
        }
    }
    for name in present.keys().filter(|n| !wanted.contains_key(*n)) {
        problems.push(format!("{}: extra (no document has this name)", shown(name)));
    }
    // The README's table names every document (a person reads it, not the files).
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap_or_default();
    let unlisted: Vec<&str> = wanted
        .keys()
        .map(|name| name.trim_end_matches(".schema.json"))
        .filter(|document| !readme.contains(&format!("| `{document}` |")))
        .collect();
    if !unlisted.is_empty() {
        bail!("{}: its table of documents lacks {}: add a row for each", shown("README.md"), unlisted.join(", "));
    }
    match mode {
        Mode::Check => {
            if !problems.is_empty() {
                bail!(
                    "the JSON Schemas in {} are not those of the types:\n  {}\nrun `cargo xtask schemas` and \
                     record the change of output in CHANGELOG.md",
                    relative(&dir).display(),
                    problems.join("\n  ")
                );
            }
            eprintln!("xtask: {} schemas in {} match the types", wanted.len(), relative(&dir).display());
        }
        Mode::Write => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", relative(&dir).display()))?;
            for (name, text) in &wanted {
                if present.get(name) != Some(text) {
                    std::fs::write(dir.join(name), text).with_context(|| format!("writing {}", shown(name)))?;
                }
            }
            for name in present.keys().filter(|n| !wanted.contains_key(*n)) {
                std::fs::remove_file(dir.join(name)).with_context(|| format!("removing {}", shown(name)))?;
            }
            for problem in &problems {
                eprintln!("xtask: {problem}, updated");
            }
            eprintln!("xtask: {} schemas in {}", wanted.len(), relative(&dir).display());
        }
    }
    Ok(())
}
