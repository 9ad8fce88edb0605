//! The local results store: `push` copies validated runs into it, `runs` lists them, and
//! every command that takes runs accepts `store:<name>`.
//!
//! The store is a folder (`--store`, else `$EVALTALLY_STORE`, else
//! `$XDG_DATA_HOME/evaltally/store`, else `~/.local/share/evaltally/store`) holding one
//! folder per pushed entry: the pushed file or run folder, and `.evaltally-entry.json`
//! saying what it is (hidden, so that the walk over an entry does not take it for a result
//! file; entries that call it `evaltally-entry.json` are read too). Entries are built in a temporary folder and renamed into place, so a
//! reader never sees half of one, and a name already taken gets a numbered suffix.
//!
//! A store given as a `postgres://` (or `postgresql://`) URL is the team store in PostgreSQL
//! (`evaltally-store`): `push` and `runs` use it, and `store:…` arguments stay as they are
//! until the commands read them from it ([`category_runs`], [`records`], [`test_details`] for
//! `show`, [`stored_runs`] for `validate`'s checks). Any other URL
//! (`scheme://…`) is never taken for a folder name: it is a usage error, which shows the URL
//! with its password replaced by `***`. A store path that exists but is not a folder is an
//! error too.
//!
//! `store:` takes an entry name or filters (`store:branch=main,last=20`, see
//! [`evaltally_store::Selection`]), for both kinds of store.
//!
//! `push` copies what the one walk (`evaltally_format::walk`) lists, so it follows that walk's
//! policy: a link leaving the run folder, a loop or a broken link is reported and not
//! copied, and hidden entries are left out.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Context;
use evaltally_core::Diagnostic;
use evaltally_core::text::printable;
use evaltally_core::{CategoryRun, RunRecord};
use evaltally_store::{Selection, Store, StoreError, StoredRun};
use serde_json::json;

use crate::UsageError;
use crate::cli::{Cli, Command};
use crate::output::shown;

/// The file inside each entry that describes it.
pub(crate) const ENTRY_FILE: &str = ".evaltally-entry.json";
/// What an entry's file was called before it was hidden from the walk (which reported it as
/// a file no format reads): still read.
const OLD_ENTRY_FILE: &str = "evaltally-entry.json";

/// The file that says what the entry in `dir` is, under either name; `None` when `dir` is no
/// entry.
fn entry_meta(dir: &Path) -> Option<PathBuf> {
    [ENTRY_FILE, OLD_ENTRY_FILE].iter().map(|name| dir.join(name)).find(|p| p.is_file())
}

/// Where the store is.
#[derive(Clone, Debug)]
pub(crate) enum Location {
    /// A local folder of entries.
    Folder(PathBuf),
    /// A PostgreSQL database, by URL (which may hold a password: show it with
    /// [`evaltally_store::shown_url`]).
    Postgres(String),
}

/// `--store` as given, for the commands that read `store:` arguments late.
static EXPLICIT: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Remembers `--store` for [`category_runs`] and [`records`].
pub(crate) fn init(explicit: Option<PathBuf>) {
    let _ = EXPLICIT.set(explicit);
}

/// The store to use.
pub(crate) fn location(explicit: Option<&Path>) -> anyhow::Result<Location> {
    if let Some(p) = explicit {
        return folder(p, "--store");
    }
    if let Some(p) = std::env::var_os("EVALTALLY_STORE").filter(|v| !v.is_empty()) {
        return folder(Path::new(&p), "EVALTALLY_STORE");
    }
    if let Some(p) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(Location::Folder(PathBuf::from(p).join("evaltally").join("store")));
    }
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .ok_or_else(|| UsageError("no store folder: set --store, EVALTALLY_STORE, XDG_DATA_HOME or HOME".into()))?;
    Ok(Location::Folder(PathBuf::from(home).join(".local").join("share").join("evaltally").join("store")))
}

/// ` (EVALTALLY_STORE is set but empty, …)` when it is: a CI secret a job does not get (a
/// fork's pull request) leaves it so, and the default folder store is used instead.
fn empty_variable() -> &'static str {
    if std::env::var_os("EVALTALLY_STORE").is_some_and(|v| v.is_empty()) {
        " (EVALTALLY_STORE is set but empty, so this is the default folder store: a CI secret this job does not get?)"
    } else {
        ""
    }
}

/// A store error as the CLI reports it: connecting (URL, password, server) and selections
/// are usage errors (exit 2), on one line; a statement failing half way is not.
pub(crate) fn store_error(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::Query { .. } | StoreError::Data { .. } => anyhow::Error::new(e),
        _ => UsageError(e.to_string()).into(),
    }
}

/// Connects to the PostgreSQL store at `url` (schema brought up to date).
pub(crate) fn connect(url: &str) -> anyhow::Result<Store> {
    Store::connect(url).map_err(store_error)
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

/// A store location the user gave (`from` says where): a folder path or a PostgreSQL URL,
/// never another URL, never a file.
fn folder(p: &Path, from: &str) -> anyhow::Result<Location> {
    let text = p.to_string_lossy();
    if evaltally_store::is_postgres_url(&text) {
        return Ok(Location::Postgres(text.into_owned()));
    }
    if let Some(scheme) = url_scheme(&text) {
        return Err(UsageError(format!(
            "{from} `{}` is a URL, not a folder: evaltally has no `{}` store; the store is a local \
             folder (give its path) or a postgres:// URL",
            printable(&text),
            printable(scheme)
        ))
        .into());
    }
    if p.exists() && !p.is_dir() {
        return Err(
            UsageError(format!("{from} `{}` is not a folder: the store is a folder of entries", shown(p))).into()
        );
    }
    Ok(Location::Folder(p.to_path_buf()))
}

/// The selection of a `store:…` argument, or `None` for any other path.
pub(crate) fn selection_of(p: &Path) -> Option<&str> {
    p.to_str().and_then(|s| s.strip_prefix("store:"))
}

/// Parses a selection, as a usage error when it cannot be read.
fn parse_selection(text: &str) -> anyhow::Result<Selection> {
    Selection::parse(text).map_err(store_error)
}

/// The runs the `store:…` arguments among `paths` select in the PostgreSQL store, each once.
fn selected(store: &mut Store, paths: &[&Path]) -> anyhow::Result<Vec<StoredRun>> {
    select(store, paths, false)
}

/// The runs the `store:` paths select, each once; a selection that finds none is a usage
/// error unless `none_is_fine` (`serve`, for which runs land later).
pub(crate) fn select(store: &mut Store, paths: &[&Path], none_is_fine: bool) -> anyhow::Result<Vec<StoredRun>> {
    let mut runs: Vec<StoredRun> = Vec::new();
    for p in paths {
        let text = selection_of(p).unwrap_or_default();
        let found = store.select(&parse_selection(text)?).map_err(store_error)?;
        if found.is_empty() && !none_is_fine {
            return Err(UsageError(format!(
                "no run in the store {} matches `store:{}`; `evaltally runs` lists them",
                store.shown_url(),
                printable(text)
            ))
            .into());
        }
        for r in found {
            if !runs.iter().any(|have| have.id == r.id) {
                runs.push(r);
            }
        }
    }
    tell_apart(&mut runs);
    Ok(runs)
}

/// Gives runs of one model stored under one name (an evaluation that always writes its runs
/// to `run-1`) names of their own: the name, `@`, and the commit pushed with it, or the
/// store's id of the run where commits do not tell them apart (`run-1@1111111`,
/// `run-1#42`). Under one name they were one run, their counts averaged.
fn tell_apart(runs: &mut [StoredRun]) {
    let mut count: HashMap<(String, String), Vec<Option<String>>> = HashMap::new();
    for r in runs.iter() {
        let sha = r.meta.git_sha.as_deref().map(|s| s.chars().take(7).collect::<String>());
        count.entry((r.run.clone(), r.model.clone())).or_default().push(sha);
    }
    for r in runs.iter_mut() {
        let shas = &count[&(r.run.clone(), r.model.clone())];
        if shas.len() < 2 {
            continue;
        }
        let sha = r.meta.git_sha.as_deref().map(|s| s.chars().take(7).collect::<String>());
        let unique = sha.is_some() && shas.iter().filter(|s| **s == sha).count() == 1;
        r.run = match sha {
            Some(sha) if unique => format!("{}@{sha}", r.run),
            _ => format!("{}#{}", r.run, r.id),
        };
    }
}

/// A connection to the PostgreSQL store that `store:` paths name.
pub(crate) fn postgres() -> anyhow::Result<Store> {
    connect(&postgres_url()?)
}

/// Splits `paths` into `store:…` arguments left for the PostgreSQL store and the rest.
pub(crate) fn split(paths: &[PathBuf]) -> (Vec<&Path>, Vec<PathBuf>) {
    let (stored, files): (Vec<&PathBuf>, Vec<&PathBuf>) = paths.iter().partition(|p| selection_of(p).is_some());
    (stored.into_iter().map(PathBuf::as_path).collect(), files.into_iter().cloned().collect())
}

/// The PostgreSQL store's URL (`store:` arguments are only left unresolved for one).
fn postgres_url() -> anyhow::Result<String> {
    match location(EXPLICIT.get().and_then(Option::as_deref))? {
        Location::Postgres(url) => Ok(url),
        Location::Folder(dir) => Err(UsageError(format!("{} is a folder store", shown(&dir))).into()),
    }
}

/// The category runs the `store:…` arguments select in the PostgreSQL store.
pub(crate) fn category_runs(stored: &[&Path]) -> anyhow::Result<Vec<CategoryRun>> {
    let mut store = connect(&postgres_url()?)?;
    let runs = selected(&mut store, stored)?;
    store.category_runs(&runs).map_err(store_error)
}

/// The run records the `store:…` arguments select in the PostgreSQL store.
pub(crate) fn records(stored: &[&Path]) -> anyhow::Result<Vec<RunRecord>> {
    let mut store = connect(&postgres_url()?)?;
    let runs = selected(&mut store, stored)?;
    store.records(&runs).map_err(store_error)
}

/// The runs the `store:…` arguments select in the PostgreSQL store, with the connection.
pub(crate) fn stored_runs(stored: &[&Path]) -> anyhow::Result<(Store, Vec<StoredRun>)> {
    let mut store = connect(&postgres_url()?)?;
    let runs = selected(&mut store, stored)?;
    Ok((store, runs))
}

/// Test `test` in the runs the `store:…` arguments select in the PostgreSQL store.
pub(crate) fn test_details(stored: &[&Path], test: &str) -> anyhow::Result<Vec<evaltally_core::TestDetail>> {
    let (mut store, runs) = stored_runs(stored)?;
    store.test_details(&runs, test).map_err(store_error)
}

/// Replaces `store:<name>` arguments with the entry's folder, and `store:<filters>` with
/// the folders of the entries they select (newest first). With a PostgreSQL store they are
/// left as they are (checked), for [`category_runs`] and [`records`].
pub(crate) fn resolve(paths: &[PathBuf], explicit: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let Some(text) = selection_of(p) else {
            out.push(p.clone());
            continue;
        };
        let selection = parse_selection(text)?;
        let store = match location(explicit)? {
            Location::Postgres(_) => {
                out.push(p.clone());
                continue;
            }
            Location::Folder(store) => store,
        };
        let only_name = Selection { name: None, ..selection.clone() } == Selection::default();
        if let (Some(name), true) = (selection.name.as_deref(), only_name) {
            let dir = store.join(name);
            let plain = !matches!(name, "" | "." | "..") && !name.contains(['/', '\\']);
            if !plain || entry_meta(&dir).is_none() {
                return Err(UsageError(format!(
                    "no entry `{}` in the store {}{}; `evaltally runs` lists them",
                    printable(name),
                    shown(&store),
                    empty_variable()
                ))
                .into());
            }
            out.push(dir);
            continue;
        }
        let picked = select_entries(&store, &selection, text)?;
        if picked.is_empty() {
            return Err(UsageError(format!(
                "no entry in the store {}{} matches `store:{}`; `evaltally runs` lists them",
                shown(&store),
                empty_variable(),
                printable(text)
            ))
            .into());
        }
        out.extend(picked.into_iter().map(|name| store.join(name)));
    }
    Ok(out)
}

/// The warnings about runs read beyond a selection's filters said so far: each once per
/// process, as `serve` selects again at every load.
static READ_TOO_SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// The entries of a folder store that `selection` picks (any of its runs passing the
/// filters), newest first as `runs` lists them. An entry is read whole: runs in a picked
/// entry that do not pass are said in one warning.
fn select_entries(store: &Path, selection: &Selection, text: &str) -> anyhow::Result<Vec<String>> {
    let mut kept: Vec<(Option<String>, u64, String)> = Vec::new();
    // Runs of picked entries that the filters would leave out, as `entry: run (model)`.
    let mut others: Vec<(String, String)> = Vec::new();
    for entry in entries(store)? {
        let runs = entry.runs.clone().unwrap_or_default();
        let passes = |r: &RunSummary| {
            selection.keeps(
                &[entry.name.as_str(), r.run.as_str()],
                r.git_branch.as_deref(),
                &r.model,
                r.tier.as_deref(),
                r.timestamp.as_deref(),
            )
        };
        let keeps = runs.iter().any(passes)
            || (runs.is_empty()
                && selection == &Selection { name: selection.name.clone(), ..Selection::default() }
                && selection.name.as_deref().is_none_or(|n| n == entry.name));
        if keeps {
            let date = runs.iter().filter_map(|r| r.timestamp.clone()).min();
            others.extend(
                runs.iter().filter(|r| !passes(r)).map(|r| (entry.name.clone(), format!("{} ({})", r.run, r.model))),
            );
            kept.push((date, entry.pushed_at_unix, entry.name));
        }
    }
    kept.sort_by(|a, b| newest_first((a.0.as_deref(), a.1, &a.2), (b.0.as_deref(), b.1, &b.2)));
    if let Some(n) = selection.last {
        kept.truncate(n);
    }
    let read_too: Vec<String> = others
        .into_iter()
        .filter(|(entry, _)| kept.iter().any(|k| &k.2 == entry))
        .map(|(entry, run)| format!("{entry}: {run}"))
        .collect();
    if !read_too.is_empty() {
        let warning = format!(
            "store:{text}: a folder store reads the entries it picks whole, so {} run{} that the filters leave out {} read too ({})",
            read_too.len(),
            if read_too.len() == 1 { "" } else { "s" },
            if read_too.len() == 1 { "is" } else { "are" },
            evaltally_core::text::first_of(&read_too, 3)
        );
        let mut said = READ_TOO_SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !said.contains(&warning) {
            crate::output::warn(&warning);
            said.push(warning);
        }
    }
    Ok(kept.into_iter().map(|(_, _, name)| name).collect())
}

/// The order of a folder store's entries, newest first, as `runs` lists them and `last=N`
/// counts them: by the date their runs record, then (entries of formats that record none
/// after the dated ones, as a PostgreSQL store orders them) by when they were pushed, then
/// by name, a later `NAME-2` first. Each side is (date, pushed at, name).
pub(crate) fn newest_first(a: (Option<&str>, u64, &str), b: (Option<&str>, u64, &str)) -> std::cmp::Ordering {
    b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then_with(|| evaltally_core::id::natural_str_cmp(b.2, a.2))
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
    /// The new entry's name (or the name of the entry that already held the same files).
    pub(crate) name: String,
    /// Whether an entry of that name already held the same files, so nothing was added
    /// (a CI job retried).
    pub(crate) already: bool,
    /// What the walk reported while copying: links left out, folders not listed.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// The name every entry being built starts with: `.push-<pid>-<random>`, the process
/// building it named so that a later push can tell an abandoned one.
const BUILDING: &str = ".push-";

/// How long an entry being built may stay before a later push or `runs` removes it, whether
/// or not its writer is known to be gone.
const ABANDONED_AFTER: std::time::Duration = std::time::Duration::from_hours(1);

/// Removes the entries being built that no push will finish: their writer (the process
/// their name carries) is gone, or they are older than an hour (a push killed, or its
/// machine lost, while copying). Returns how many it removed; what it cannot remove is left
/// for the next time.
pub(crate) fn remove_abandoned(store: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(store) else { return 0 };
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(BUILDING)) else { continue };
        let Ok(meta) = entry.metadata() else { continue };
        let old =
            meta.modified().ok().and_then(|m| now.duration_since(m).ok()).is_some_and(|age| age > ABANDONED_AFTER);
        let writer_gone =
            rest.split_once('-').and_then(|(pid, _)| pid.parse::<u32>().ok()).is_some_and(|pid| !alive(pid));
        if meta.is_dir() && (old || writer_gone) && std::fs::remove_dir_all(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether process `pid` is running (on Linux, by its `/proc` entry; elsewhere assumed, so
/// only age removes an abandoned entry).
fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    if cfg!(target_os = "linux") { Path::new("/proc").join(pid.to_string()).exists() } else { true }
}

/// Flushes every file and folder below `dir`, and `dir` itself, to the disk: an entry
/// renamed into place afterwards holds what was written even after a power cut.
fn sync_tree(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            sync_tree(&entry.path())?;
        } else {
            std::fs::File::open(entry.path())?.sync_all()?;
        }
    }
    sync_folder(dir)
}

/// Flushes a folder's entries (its names) to the disk.
fn sync_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Copies `source` (a file or a run folder) into the store as a new entry named after it:
/// built in a folder of its own (`.push-<pid>-…`), flushed to the disk, then renamed into
/// place and the store folder flushed, so that an entry is whole before it is visible and
/// after a power cut. Entries being built that no push will finish are removed first.
pub(crate) fn push(store: &Path, source: &Path, format: &str, runs: &[RunSummary]) -> anyhow::Result<Pushed> {
    std::fs::create_dir_all(store).with_context(|| format!("cannot create the store {}", shown(store)))?;
    remove_abandoned(store);
    let base = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = base.strip_suffix(".json").unwrap_or(&base);
    let base = safe_name(stem);
    let mut builder = tempfile::Builder::new();
    let prefix = format!("{BUILDING}{}-", std::process::id());
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // The entry folder gets the mode of any new folder (0777 less the umask), not 0700.
        builder.permissions(std::fs::Permissions::from_mode(0o777));
    }
    let tmp = builder
        .tempdir_in(store)
        .with_context(|| format!("cannot create a temporary folder in the store {}", shown(store)))?;
    let target_name = source.file_name().map_or_else(|| "run".into(), std::ffi::OsStr::to_os_string);
    // On an error the temporary folder is removed as it drops.
    let diagnostics = copy_walked(source, &tmp.path().join(&target_name))?;
    let meta = json!({
        "source": source.to_string_lossy(),
        "format": format,
        "pushed_at_unix": std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        "runs": runs,
    });
    std::fs::write(tmp.path().join(ENTRY_FILE), format!("{}\n", serde_json::to_string_pretty(&meta)?))
        .with_context(|| format!("cannot write the entry in the store {}", shown(store)))?;
    sync_tree(tmp.path())
        .with_context(|| format!("cannot flush the entry to the disk of the store {}", shown(store)))?;
    // The same files pushed again (a CI job retried) add nothing: the entry that holds them
    // is named. The entry's own file (when it was pushed) is no part of the comparison.
    let mut n = 1;
    loop {
        let name = if n == 1 { base.clone() } else { format!("{base}-{n}") };
        n += 1;
        let dest = store.join(&name);
        if !dest.exists() {
            break;
        }
        if same_tree(&tmp.path().join(&target_name), &dest.join(&target_name)) {
            return Ok(Pushed { name, already: true, diagnostics });
        }
    }
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
            Ok(()) => {
                sync_folder(store)
                    .with_context(|| format!("cannot flush the store folder {} to the disk", shown(store)))?;
                return Ok(Pushed { name, already: false, diagnostics });
            }
            // Someone took the name between the check and the rename: try the next one.
            Err(_) if dest.exists() => {}
            Err(e) => {
                let _ = std::fs::remove_dir_all(&tmp);
                return Err(e).with_context(|| format!("cannot move the entry into {}", shown(&dest)));
            }
        }
    }
}

/// Whether the files below `a` and `b` are the same: the same names, folders and bytes.
fn same_tree(a: &Path, b: &Path) -> bool {
    match (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) {
        (Ok(ma), Ok(mb)) if ma.is_file() && mb.is_file() => {
            ma.len() == mb.len() && std::fs::read(a).ok().is_some_and(|x| std::fs::read(b).ok().is_some_and(|y| x == y))
        }
        (Ok(ma), Ok(mb)) if ma.is_dir() && mb.is_dir() => {
            let names = |p: &Path| -> Option<std::collections::BTreeSet<std::ffi::OsString>> {
                Some(std::fs::read_dir(p).ok()?.filter_map(|e| e.ok().map(|e| e.file_name())).collect())
            };
            match (names(a), names(b)) {
                (Some(x), Some(y)) => x == y && x.iter().all(|n| same_tree(&a.join(n), &b.join(n))),
                _ => false,
            }
        }
        _ => false,
    }
}

/// What `runs` shows of one run an entry holds, written into the entry at push.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct RunSummary {
    /// The run.
    pub(crate) run: String,
    /// The model.
    pub(crate) model: String,
    /// When it ran, as it records it (else when it started).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) timestamp: Option<String>,
    /// Its git branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) git_branch: Option<String>,
    /// Its git commit (as it records it, else as `push --commit` gave it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) git_sha: Option<String>,
    /// Its tier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tier: Option<String>,
    /// Its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<String>,
    /// Tests passed.
    pub(crate) passed: usize,
    /// Tests with a pass or fail outcome.
    pub(crate) scored: usize,
    /// Dollars over its tests, when they record them.
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
            git_sha: r.meta.git_sha.clone(),
            tier: r.meta.tier.clone(),
            version: r.meta.version.clone(),
            passed: r.passed(),
            scored: r.passed() + r.failed(),
            cost_usd: (!costs.is_empty()).then(|| costs.iter().sum()),
        }
    }
}

/// Gives the runs read from folder-store entries among `paths` the branch and commit their
/// push was labelled with (`push --branch`, `--commit`), where their files do not say them,
/// as a PostgreSQL store gives them back.
pub(crate) fn label_from_entries(runs: &mut [RunRecord], paths: &[PathBuf]) {
    for dir in paths {
        let Some(meta) = entry_meta(dir) else { continue };
        let Ok(text) = std::fs::read_to_string(&meta) else { continue };
        let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        let Ok(summaries) = serde_json::from_value::<Vec<RunSummary>>(doc["runs"].clone()) else { continue };
        for run in runs.iter_mut().filter(|r| r.source.starts_with(dir)) {
            let Some(s) = summaries.iter().find(|s| s.run == run.run && s.model == run.model) else { continue };
            if run.meta.git_branch.is_none() {
                run.meta.git_branch.clone_from(&s.git_branch);
            }
            if run.meta.git_sha.is_none() {
                run.meta.git_sha.clone_from(&s.git_sha);
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
        let Some(meta_path) = entry_meta(&e.path()) else { continue };
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
    if entry_meta(&path).is_none() {
        return path;
    }
    let files: Vec<PathBuf> = std::fs::read_dir(&path)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| !p.ends_with(ENTRY_FILE) && !p.ends_with(OLD_ENTRY_FILE))
                .collect()
        })
        .unwrap_or_default();
    match files.as_slice() {
        [one] if one.is_file() => one.clone(),
        _ => path,
    }
}

/// Replaces `store:<name>` paths of every command with the store entry's folder.
pub(crate) fn resolve_command_paths(cli: &mut Cli) -> anyhow::Result<()> {
    let store = cli.store.clone();
    let fix = |paths: &mut Vec<PathBuf>| -> anyhow::Result<()> {
        *paths = resolve(paths, store.as_deref())?;
        Ok(())
    };
    match &mut cli.command {
        Command::Stability(a) => {
            fix(&mut a.paths)?;
            fix(&mut a.reference)
        }
        Command::Plan(a) => fix(&mut a.paths),
        Command::Subset(a) => fix(&mut a.paths),
        Command::Estimate(a) => fix(&mut a.paths),
        Command::Trend(a) => fix(&mut a.paths),
        Command::Report(a) => {
            fix(&mut a.paths)?;
            fix(&mut a.base)?;
            fix(&mut a.new)
        }
        Command::Cost(a) => fix(&mut a.paths),
        Command::Compare(a) => {
            fix(&mut a.runs)?;
            fix(&mut a.base)?;
            fix(&mut a.new)?;
            fix(&mut a.reference)
        }
        Command::Show(a) => {
            // The last argument is the test id.
            let n = a.args.len().saturating_sub(1);
            let mut paths: Vec<PathBuf> = a.args[..n].iter().map(PathBuf::from).collect();
            fix(&mut paths)?;
            for (slot, p) in a.args.iter_mut().zip(paths) {
                *slot = p.to_string_lossy().into_owned();
            }
            Ok(())
        }
        Command::Summary(a) => {
            let mut v = vec![a.file.clone()];
            fix(&mut v)?;
            a.file = entry_file(v.remove(0));
            Ok(())
        }
        Command::Validate(a) => fix(&mut a.paths),
        Command::Convert(a) => {
            let mut v = vec![a.input.clone()];
            fix(&mut v)?;
            a.input = entry_file(v.remove(0));
            Ok(())
        }
        Command::Export(a) => fix(&mut a.paths),
        // `serve` resolves its `store:` paths at every load: entries keep landing.
        Command::Push(_)
        | Command::Runs(_)
        | Command::Completions(_)
        | Command::Cache(_)
        | Command::Serve(_)
        | Command::Formats(_) => Ok(()),
    }
}
