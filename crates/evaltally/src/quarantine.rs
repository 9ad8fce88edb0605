//! `--known-flaky`: the quarantined tests, read from the `flaky_tests.json` files that
//! `stability --out` writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::UsageError;
use crate::output;

/// The file `stability --out` writes the flaky tests' ids to.
const FILE_NAME: &str = "flaky_tests.json";

/// Quarantined (category, id) pairs; they count for every model.
#[derive(Debug, Default)]
pub(crate) struct Quarantine(BTreeSet<(String, String)>);

impl Quarantine {
    /// Reads every PATH: an id file ([`categories`]), or a folder holding `flaky_tests.json`
    /// and/or sub-folders (one per model) that do.
    pub(crate) fn read(paths: &[PathBuf]) -> anyhow::Result<Self> {
        let mut set = BTreeSet::new();
        for path in paths {
            let files = files(path)?;
            if files.is_empty() {
                return Err(UsageError(format!(
                    "--known-flaky {}: no {FILE_NAME} there, nor in its sub-folders",
                    output::shown(path)
                ))
                .into());
            }
            for file in files {
                let text = std::fs::read_to_string(&file)
                    .with_context(|| format!("--known-flaky: reading {}", output::shown(&file)))?;
                // Not JSON at all (cut short, say): where and what, as for every file read.
                if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
                    let at = output::json_error(&file, &e, "not JSON");
                    return Err(UsageError(format!("--known-flaky {at}")).into());
                }
                let map = categories(&text).map_err(|e| {
                    UsageError(format!(
                        "--known-flaky {}: not a flaky_tests.json as `stability --out` writes: {e}",
                        output::shown(&file)
                    ))
                })?;
                for (category, ids) in map {
                    set.extend(ids.into_iter().map(|id| (category.clone(), id)));
                }
            }
        }
        Ok(Self(set))
    }

    /// Whether test `id` of `category` is quarantined.
    pub(crate) fn contains(&self, category: &str, id: &str) -> bool {
        self.0.contains(&(category.to_string(), id.to_string()))
    }
}

/// The ids per category of an id file: an `evaltally.test-ids` document
/// (`{"schema", "categories": {category: [ids]}}`), or the bare `{category: [ids]}` of the
/// files evaltally wrote before documents named their schema.
fn categories(text: &str) -> Result<BTreeMap<String, Vec<String>>, String> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum IdFile {
        Named { schema: String, categories: BTreeMap<String, Vec<String>> },
        Bare(BTreeMap<String, Vec<String>>),
    }
    let expected = evaltally_report::stability::TEST_IDS_SCHEMA;
    match serde_json::from_str::<IdFile>(text) {
        Ok(IdFile::Named { schema, categories }) => match evaltally_core::schema::SchemaId::parse(&schema) {
            Some((name, version)) if name == expected.name && version <= expected.version => Ok(categories),
            Some((name, _)) if name == expected.name => Err(format!(
                "it is {schema}, written by a newer evaltally; this one reads version {}",
                expected.version
            )),
            _ => Err(format!("its schema is {schema:?}, not {expected}")),
        },
        Ok(IdFile::Bare(map)) => Ok(map),
        Err(_) => Err(format!("neither {expected} nor {{category: [ids]}}")),
    }
}

/// The id files `path` names: itself when a file, else `flaky_tests.json` in it and in its
/// sub-folders.
fn files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        if !path.exists() {
            return Err(UsageError(format!("--known-flaky {}: no such file", output::shown(path))).into());
        }
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = Vec::new();
    let own = path.join(FILE_NAME);
    if own.is_file() {
        files.push(own);
    }
    let entries = std::fs::read_dir(path).with_context(|| format!("--known-flaky: reading {}", output::shown(path)))?;
    let mut subs: Vec<PathBuf> =
        entries.filter_map(Result::ok).map(|e| e.path().join(FILE_NAME)).filter(|p| p.is_file()).collect();
    subs.sort();
    files.extend(subs);
    Ok(files)
}
