//! The one walk: every command finds its files here, with one policy.
//!
//! * Every path given is walked (a file given is yielded itself, marked
//!   [`named`](WalkedFile::named)).
//! * Links are followed inside the tree. A link whose target lies outside the path given
//!   is reported as a warning naming the link and its target, and not followed, so nothing
//!   outside what the user named is read (or copied into a store). A link to a folder that
//!   contains it (a loop) is reported and not followed.
//! * Hidden entries (names starting with `.`) are skipped unless given by name.
//! * Folders that cannot be listed are errors naming the folder; the walk goes on.
//! * Only regular files are yielded (no FIFOs, sockets or devices), each once: a file
//!   reached twice (through a link, or two overlapping paths) is kept under the first path
//!   in order.
//! * The result is sorted (paths in the order given, then in natural order), whatever the
//!   file system's listing order or the threads' scheduling.
//!
//! The walk itself runs on [`ignore`]'s parallel walker (ripgrep's), with its ignore-file
//! rules off: result folders are data, not source trees.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use evaltally_core::Diagnostic;
use evaltally_core::id::natural_path_cmp;
use ignore::{WalkBuilder, WalkState};
use rayon::prelude::*;

/// One file the walk found.
#[derive(Clone, Debug)]
pub struct WalkedFile {
    /// The file, as reached from the path given.
    pub path: PathBuf,
    /// The path given that it was found below (the file itself when named).
    pub root: Arc<Path>,
    /// Its size in bytes when walked.
    pub size: u64,
    /// Whether the user named this file itself.
    pub named: bool,
    /// What the walk's one look at the file's metadata saw (links followed), so that
    /// nothing later has to ask the system again (the digest cache stamps files from it).
    pub meta: Option<std::fs::Metadata>,
}

/// Two walked files are equal when they are the same path found the same way, at the same
/// size; the metadata kept beside is not compared.
impl PartialEq for WalkedFile {
    fn eq(&self, other: &Self) -> bool {
        (&self.path, &self.root, self.size, self.named) == (&other.path, &other.root, other.size, other.named)
    }
}

impl Eq for WalkedFile {}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// The files, sorted: by the order of the paths given, then naturally by path.
    pub files: Vec<WalkedFile>,
    /// Links not followed, folders that could not be listed.
    pub diagnostics: Vec<Diagnostic>,
}

/// Why a path given could not be walked at all.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct WalkError {
    /// The path.
    pub path: PathBuf,
    /// The underlying error.
    #[source]
    pub source: std::io::Error,
}

/// A file found, with the index of the path given it was found below and its (device,
/// inode) identity where the platform has one.
type Entry = (usize, WalkedFile, Option<(u64, u64)>);

/// A directory entry that is not a folder, found below path `index` (`root`): a file once
/// its metadata says so.
type Listed = (usize, PathBuf, Arc<Path>);

#[derive(Default)]
struct Found {
    files: Vec<Entry>,
    listed: Vec<Listed>,
    diagnostics: Vec<Diagnostic>,
}

/// Walks `paths` (see the module documentation for the policy).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join("run-10"))?;
/// std::fs::create_dir_all(dir.path().join("run-2/.cache"))?;
/// std::fs::write(dir.path().join("run-10/a.json"), "{}")?;
/// std::fs::write(dir.path().join("run-2/a.json"), "{}")?;
/// std::fs::write(dir.path().join("run-2/.cache/x.json"), "{}")?;
/// let walked = evaltally_format::walk::walk(&[dir.path().to_path_buf()])?;
/// let names: Vec<_> = walked.files.iter().map(|f| f.path.strip_prefix(dir.path()).unwrap().to_path_buf()).collect();
/// assert_eq!(names, [std::path::Path::new("run-2/a.json"), std::path::Path::new("run-10/a.json")]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn walk(paths: &[PathBuf]) -> Result<Walked, WalkError> {
    let found = Mutex::new(Found::default());
    for (index, path) in paths.iter().enumerate() {
        let meta = std::fs::metadata(path).map_err(|source| WalkError { path: path.clone(), source })?;
        let root: Arc<Path> = Arc::from(path.as_path());
        if meta.is_file() {
            let id = identity(&meta);
            let file = WalkedFile { path: path.clone(), root, size: meta.len(), named: true, meta: Some(meta) };
            lock(&found).files.push((index, file, id));
            continue;
        }
        let canonical_root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        WalkBuilder::new(path).standard_filters(false).hidden(true).follow_links(true).build_parallel().run(|| {
            let found = &found;
            let root = Arc::clone(&root);
            let canonical_root = canonical_root.clone();
            Box::new(move |entry| visit(entry, index, &root, &canonical_root, found))
        });
    }
    let Found { mut files, listed, mut diagnostics } =
        found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    // The entries' metadata, looked at on every core: a folder of thousands of files is
    // listed by one thread, and each look costs a path lookup in the system.
    let examined: Vec<Result<Option<Entry>, Diagnostic>> = listed
        .into_par_iter()
        .map(|(index, path, root)| match std::fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                let id = identity(&meta);
                Ok(Some((index, WalkedFile { path, root, size: meta.len(), named: false, meta: Some(meta) }, id)))
            }
            Ok(_) => Ok(None),
            Err(e) => Err(Diagnostic::error(&path, format!("cannot read: {e}"))),
        })
        .collect();
    for entry in examined {
        match entry {
            Ok(file) => files.extend(file),
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }
    files.sort_unstable_by(|(a, fa, _), (b, fb, _)| a.cmp(b).then_with(|| natural_path_cmp(&fa.path, &fb.path)));
    let mut seen = HashSet::new();
    let files = files.into_iter().filter(|(_, _, id)| id.is_none_or(|id| seen.insert(id))).map(|(_, f, _)| f).collect();
    diagnostics.sort_by(|a, b| natural_path_cmp(&a.path, &b.path));
    diagnostics.dedup();
    Ok(Walked { files, diagnostics })
}

fn lock(found: &Mutex<Found>) -> std::sync::MutexGuard<'_, Found> {
    found.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A file's (device, inode): the same pair for two paths means one file (through a link
/// or a hard link). `None` where the platform has no such identity.
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)] // `None` on other platforms
pub fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    Some((meta.dev(), meta.ino()))
}

/// A file's (device, inode): `None` on this platform.
#[cfg(not(unix))]
pub fn identity(_meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

fn visit(
    entry: Result<ignore::DirEntry, ignore::Error>,
    index: usize,
    root: &Arc<Path>,
    canonical_root: &Path,
    found: &Mutex<Found>,
) -> WalkState {
    let entry = match entry {
        Ok(entry) => entry,
        Err(err) => {
            lock(found).diagnostics.push(walk_error(&err, root));
            return WalkState::Continue;
        }
    };
    if entry.depth() == 0 {
        return WalkState::Continue;
    }
    let path = entry.path();
    if entry.path_is_symlink() {
        match std::fs::canonicalize(path) {
            Ok(target) if !target.starts_with(canonical_root) => {
                lock(found).diagnostics.push(Diagnostic::warning(
                    path,
                    format!("link to {}, outside {}; not followed", target.display(), root.display()),
                ));
                return WalkState::Skip;
            }
            Ok(_) => {}
            Err(e) => {
                lock(found).diagnostics.push(Diagnostic::warning(path, format!("broken link ({e}); left out")));
                return WalkState::Skip;
            }
        }
    }
    if entry.file_type().is_some_and(|t| t.is_dir()) {
        return WalkState::Continue;
    }
    lock(found).listed.push((index, path.to_path_buf(), Arc::clone(root)));
    WalkState::Continue
}

/// A walk error as a diagnostic on the place it names.
fn walk_error(err: &ignore::Error, root: &Path) -> Diagnostic {
    let mut path = root;
    let mut err = err;
    loop {
        match err {
            ignore::Error::WithPath { path: p, err: inner } => {
                path = p;
                err = inner;
            }
            ignore::Error::WithDepth { err: inner, .. } | ignore::Error::WithLineNumber { err: inner, .. } => {
                err = inner;
            }
            _ => break,
        }
    }
    match err {
        ignore::Error::Loop { child, .. } => loop_warning(child),
        ignore::Error::Io(e) if e.raw_os_error() == Some(ELOOP) => {
            Diagnostic::warning(path, "link that leads back to itself (a loop); not followed")
        }
        ignore::Error::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Diagnostic::warning(path, format!("broken link ({e}); left out"))
        }
        ignore::Error::Io(e) if path.is_dir() => Diagnostic::error(path, format!("cannot list folder: {e}")),
        ignore::Error::Io(e) => Diagnostic::error(path, format!("cannot read: {e}")),
        other => Diagnostic::error(path, other.to_string()),
    }
}

/// `ELOOP`: too many levels of symbolic links (a link to itself).
const ELOOP: i32 = 40;

fn loop_warning(link: &Path) -> Diagnostic {
    Diagnostic::warning(link, "link to a folder that contains it (a loop); not followed")
}
