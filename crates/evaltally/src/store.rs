//! The local results store: `push` copies validated runs into it, `runs` lists them, and
//! every command that takes runs accepts `store:<name>`.
//!
//! The store is a folder (`--store`, else `$EVALTALLY_STORE`, else
//! `$XDG_DATA_HOME/evaltally/store`, else `~/.local/share/evaltally/store`) holding one
//! folder per pushed entry: the pushed file or run folder, and `evaltally-entry.json`
//! saying what it is. Entries are built in a temporary folder and renamed into place, so a
//! reader never sees half of one, and a name already taken gets a numbered suffix.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::json;

use crate::UsageError;

/// The file inside each entry that describes it.
pub(crate) const ENTRY_FILE: &str = "evaltally-entry.json";

/// The store folder to use.
pub(crate) fn location(explicit: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("EVALTALLY_STORE").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p).join("evaltally").join("store"));
    }
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .ok_or_else(|| UsageError("no store folder: set --store, EVALTALLY_STORE, XDG_DATA_HOME or HOME".into()))?;
    Ok(PathBuf::from(home).join(".local").join("share").join("evaltally").join("store"))
}

/// Replaces `store:<name>` arguments with the entry's folder.
pub(crate) fn resolve(paths: &[PathBuf], explicit: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    paths
        .iter()
        .map(|p| match p.to_str().and_then(|s| s.strip_prefix("store:")) {
            None => Ok(p.clone()),
            Some(name) => {
                let dir = location(explicit)?.join(name);
                if name.is_empty() || name.contains('/') || !dir.join(ENTRY_FILE).is_file() {
                    return Err(UsageError(format!(
                        "no entry `{name}` in the store {}; `evaltally runs` lists them",
                        location(explicit)?.display()
                    ))
                    .into());
                }
                Ok(dir)
            }
        })
        .collect()
}

/// A name safe as a folder name: letters, digits, `.`, `_` and `-`; anything else becomes `-`.
fn safe_name(raw: &str) -> String {
    let s: String =
        raw.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' }).collect();
    let s = s.trim_matches(|c| c == '.' || c == '-').to_string();
    if s.is_empty() { "entry".to_string() } else { s }
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to)?;
        let mut entries: Vec<_> = std::fs::read_dir(from)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(|_| ())
    }
}

/// Copies `source` (a file or a run folder) into the store as a new entry named after it;
/// returns the entry's name.
pub(crate) fn push(store: &Path, source: &Path, format: &str) -> anyhow::Result<String> {
    std::fs::create_dir_all(store).with_context(|| format!("cannot create the store {}", store.display()))?;
    let base = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = base.strip_suffix(".json").unwrap_or(&base);
    let base = safe_name(stem);
    let tmp = tempfile::Builder::new()
        .prefix(".push-")
        .tempdir_in(store)
        .context("cannot create a temporary folder in the store")?;
    let target_name = source.file_name().map_or_else(|| "run".into(), std::ffi::OsStr::to_os_string);
    copy_tree(source, &tmp.path().join(&target_name)).with_context(|| format!("cannot copy {}", source.display()))?;
    let meta = json!({
        "source": source.to_string_lossy(),
        "format": format,
        "pushed_at_unix": std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
    });
    std::fs::write(tmp.path().join(ENTRY_FILE), format!("{}\n", serde_json::to_string_pretty(&meta)?))?;
    let tmp = tmp.keep();
    let mut n = 1;
    loop {
        let name = if n == 1 { base.clone() } else { format!("{base}-{n}") };
        n += 1;
        let dest = store.join(&name);
        if dest.exists() {
            continue;
        }
        match std::fs::rename(&tmp, &dest) {
            Ok(()) => return Ok(name),
            // Someone took the name between the check and the rename: try the next one.
            Err(_) if dest.exists() => {}
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(e).with_context(|| format!("cannot move the entry into {}", dest.display()));
            }
        }
    }
}

/// One store entry, for `runs`.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) format: String,
    pub(crate) source: String,
    pub(crate) pushed_at_unix: u64,
}

/// The store's entries, by name.
pub(crate) fn entries(store: &Path) -> anyhow::Result<Vec<Entry>> {
    if !store.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for e in std::fs::read_dir(store).with_context(|| format!("cannot list {}", store.display()))? {
        let e = e?;
        let meta_path = e.path().join(ENTRY_FILE);
        let Ok(text) = std::fs::read_to_string(&meta_path) else { continue };
        let meta: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        out.push(Entry {
            name: e.file_name().to_string_lossy().into_owned(),
            format: meta["format"].as_str().unwrap_or("unknown").to_string(),
            source: meta["source"].as_str().unwrap_or("").to_string(),
            pushed_at_unix: meta["pushed_at_unix"].as_u64().unwrap_or(0),
        });
    }
    out.sort_by(|a, b| evaltally_core::id::natural_str_cmp(&a.name, &b.name));
    Ok(out)
}

/// A store entry folder holding one pushed file stands for that file (for commands that
/// take a file).
pub(crate) fn entry_file(path: PathBuf) -> PathBuf {
    if !path.join(ENTRY_FILE).is_file() {
        return path;
    }
    let files: Vec<PathBuf> = std::fs::read_dir(&path)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| !p.ends_with(ENTRY_FILE)).collect())
        .unwrap_or_default();
    match files.as_slice() {
        [one] if one.is_file() => one.clone(),
        _ => path,
    }
}
