//! The local results store: `push` copies validated runs into it, `runs` lists them, and
//! every command that takes runs accepts `store:<name>`.
//!
//! The store is a folder (`--store`, else `$EVALTALLY_STORE`, else
//! `$XDG_DATA_HOME/evaltally/store`, else `~/.local/share/evaltally/store`) holding one
//! folder per pushed entry: the pushed file or run folder, and `evaltally-entry.json`
//! saying what it is. Entries are built in a temporary folder and renamed into place, so a
//! reader never sees half of one, and a name already taken gets a numbered suffix.
//!
//! A store given as a URL (`postgres://…`, or any `scheme://…`) is never taken for a folder
//! name: there is no server store yet, so it is a usage error, which shows the URL with its
//! password replaced by `***`. A store path that exists but is not a folder is an error too.
//!
//! `push` copies what the one walk (`evaltally_format::walk`) lists, so it follows that walk's
//! policy: a link leaving the run folder, a loop or a broken link is reported and not
//! copied, and hidden entries are left out.

use std::path::{Path, PathBuf};

use anyhow::Context;
use evaltally_core::Diagnostic;
use evaltally_core::text::printable;
use serde_json::json;

use crate::UsageError;
use crate::output::shown;

/// The file inside each entry that describes it.
pub(crate) const ENTRY_FILE: &str = "evaltally-entry.json";

/// The store folder to use.
pub(crate) fn location(explicit: Option<&Path>) -> anyhow::Result<PathBuf> {
    if let Some(p) = explicit {
        return folder(p, "--store");
    }
    if let Some(p) = std::env::var_os("EVALTALLY_STORE").filter(|v| !v.is_empty()) {
        return folder(Path::new(&p), "EVALTALLY_STORE");
    }
    if let Some(p) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(p).join("evaltally").join("store"));
    }
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .ok_or_else(|| UsageError("no store folder: set --store, EVALTALLY_STORE, XDG_DATA_HOME or HOME".into()))?;
    Ok(PathBuf::from(home).join(".local").join("share").join("evaltally").join("store"))
}

/// The scheme of a `scheme://…` URL (RFC 3986: a letter, then letters, digits, `+`, `-`,
/// `.`), or `None`.
fn url_scheme(s: &str) -> Option<&str> {
    let (scheme, _) = s.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
        .then_some(scheme)
}

/// A store location the user gave (`from` says where): a folder path, never a URL, never a
/// file.
fn folder(p: &Path, from: &str) -> anyhow::Result<PathBuf> {
    let text = p.to_string_lossy();
    if let Some(scheme) = url_scheme(&text) {
        let what = match scheme.to_ascii_lowercase().as_str() {
            "postgres" | "postgresql" => "evaltally has no PostgreSQL store yet".to_string(),
            other => format!("evaltally has no `{}` store", printable(other)),
        };
        return Err(UsageError(format!(
            "{from} `{}` is a URL, not a folder: {what}; the store is a local folder (give its path)",
            printable(&text)
        ))
        .into());
    }
    if p.exists() && !p.is_dir() {
        return Err(
            UsageError(format!("{from} `{}` is not a folder: the store is a folder of entries", shown(p))).into()
        );
    }
    Ok(p.to_path_buf())
}

/// Replaces `store:<name>` arguments with the entry's folder.
pub(crate) fn resolve(paths: &[PathBuf], explicit: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    paths
        .iter()
        .map(|p| match p.to_str().and_then(|s| s.strip_prefix("store:")) {
            None => Ok(p.clone()),
            Some(name) => {
                let store = location(explicit)?;
                let dir = store.join(name);
                let plain = !matches!(name, "" | "." | "..") && !name.contains(['/', '\\']);
                if !plain || !dir.join(ENTRY_FILE).is_file() {
                    return Err(UsageError(format!(
                        "no entry `{}` in the store {}; `evaltally runs` lists them",
                        printable(name),
                        shown(&store)
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

/// Copies what the walk lists below `source` (or `source` itself, a file) to `to`; returns
/// what the walk reported (links not followed, folders that could not be listed).
fn copy_walked(source: &Path, to: &Path) -> anyhow::Result<Vec<Diagnostic>> {
    let walked = evaltally_format::walk::walk(&[source.to_path_buf()])?;
    for file in &walked.files {
        let target = if file.named {
            to.to_path_buf()
        } else {
            let rel = file
                .path
                .strip_prefix(source)
                .with_context(|| format!("{} is not below the run", shown(&file.path)))?;
            to.join(rel)
        };
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", shown(dir)))?;
        }
        std::fs::copy(&file.path, &target).with_context(|| format!("cannot copy {}", shown(&file.path)))?;
    }
    Ok(walked.diagnostics)
}

/// What a push did.
#[derive(Debug)]
pub(crate) struct Pushed {
    /// The new entry's name.
    pub(crate) name: String,
    /// What the walk reported while copying: links left out, folders not listed.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Copies `source` (a file or a run folder) into the store as a new entry named after it.
pub(crate) fn push(store: &Path, source: &Path, format: &str, runs: &[RunSummary]) -> anyhow::Result<Pushed> {
    std::fs::create_dir_all(store).with_context(|| format!("cannot create the store {}", shown(store)))?;
    let base = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = base.strip_suffix(".json").unwrap_or(&base);
    let base = safe_name(stem);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".push-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // The entry folder gets the mode of any new folder (0777 less the umask), not 0700.
        builder.permissions(std::fs::Permissions::from_mode(0o777));
    }
    let tmp = builder.tempdir_in(store).context("cannot create a temporary folder in the store")?;
    let target_name = source.file_name().map_or_else(|| "run".into(), std::ffi::OsStr::to_os_string);
    let diagnostics = copy_walked(source, &tmp.path().join(&target_name))?;
    let meta = json!({
        "source": source.to_string_lossy(),
        "format": format,
        "pushed_at_unix": std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        "runs": runs,
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
            Ok(()) => return Ok(Pushed { name, diagnostics }),
            // Someone took the name between the check and the rename: try the next one.
            Err(_) if dest.exists() => {}
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(e).with_context(|| format!("cannot move the entry into {}", shown(&dest)));
            }
        }
    }
}

/// What `runs` shows of one run an entry holds, written into the entry at push.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct RunSummary {
    pub(crate) run: String,
    pub(crate) model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) timestamp: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) git_branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tier: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<String>,
    pub(crate) passed: usize,
    /// Tests with a pass or fail outcome.
    pub(crate) scored: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cost_usd: Option<f64>,
}

impl RunSummary {
    /// The summary of a run read test by test.
    pub(crate) fn of(r: &evaltally_core::RunRecord) -> Self {
        let costs: Vec<f64> = r.tests.iter().filter_map(|t| t.cost_usd).collect();
        Self {
            run: r.run.clone(),
            model: r.model.clone(),
            timestamp: r.meta.timestamp.clone().or_else(|| r.started_at.clone()),
            git_branch: r.meta.git_branch.clone(),
            tier: r.meta.tier.clone(),
            version: r.meta.version.clone(),
            passed: r.passed(),
            scored: r.passed() + r.failed(),
            cost_usd: (!costs.is_empty()).then(|| costs.iter().sum()),
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
    /// The runs it holds (`None`: pushed before evaltally kept summaries).
    pub(crate) runs: Option<Vec<RunSummary>>,
}

/// The store's entries, by name.
pub(crate) fn entries(store: &Path) -> anyhow::Result<Vec<Entry>> {
    if !store.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for e in std::fs::read_dir(store).with_context(|| format!("cannot list {}", shown(store)))? {
        let e = e?;
        let meta_path = e.path().join(ENTRY_FILE);
        let Ok(text) = std::fs::read_to_string(&meta_path) else { continue };
        let meta: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        out.push(Entry {
            name: e.file_name().to_string_lossy().into_owned(),
            format: meta["format"].as_str().unwrap_or("unknown").to_string(),
            source: meta["source"].as_str().unwrap_or("").to_string(),
            pushed_at_unix: meta["pushed_at_unix"].as_u64().unwrap_or(0),
            runs: serde_json::from_value(meta["runs"].clone()).ok(),
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
