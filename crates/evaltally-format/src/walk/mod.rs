//! The one walk: every command finds its files here, with one policy.
//!
//! * Every path given is walked (a file given is yielded itself, marked
//!   [`named`](WalkedFile::named)).
//! * Links are followed inside the tree. A link whose target lies outside the path given
//!   is reported as a warning naming the link and its target, and not followed, so nothing
//!   outside what the user named is read (or copied into a store). A link to a folder that
//!   contains it (a loop) is reported and not followed.
//! * Hidden entries (names starting with `.`) are skipped unless given by name.
//! * A broken link is a warning and is left out.
//! * Folders that cannot be listed are errors naming the folder; the walk goes on.
//! * Only regular files are yielded (no FIFOs, sockets or devices), each once: a file
//!   reached twice (through a link, or two overlapping paths) is kept under the first path
//!   in order.
//! * The result is sorted (paths in the order given, then in natural order), whatever the
//!   file system's listing order or the threads' scheduling.
//!
//! Folders are listed in parallel (rayon), each once; the files' metadata is taken on
//! every core. With [`walk_with`], a folder whose identity and times are those a stored
//! listing was taken with is not read again ([`Listings`], [`FolderStamp`]). That is why the
//! walk is evaltally's own rather than the `ignore` crate's (whose loop rule it keeps: a link
//! whose target is a folder on the way down is not followed): a warm run takes folder
//! listings from the digest cache.

mod listing;
mod stat;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use evaltally_core::Diagnostic;
use evaltally_core::id::{natural_key, natural_path_cmp};
use rayon::prelude::*;

pub use listing::{EntryKind, FOLDER_SETTLE, FolderStamp, Listing, Listings, NoListings};
pub use stat::{Stat, restat};

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

impl WalkedFile {
    /// What the walk saw of `input` when it is this file: the answer of
    /// [`Unit::seen`](crate::Unit::seen) for a unit that reads this file (and perhaps
    /// others beside it, which the walk did not see).
    pub fn meta_of(&self, input: &Path) -> Option<&std::fs::Metadata> {
        (input == self.path).then_some(self.meta.as_ref()).flatten()
    }
}

/// What the walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// The files, sorted: by the order of the paths given, then naturally by path.
    pub files: Vec<WalkedFile>,
    /// Links not followed, folders that could not be listed.
    pub diagnostics: Vec<Diagnostic>,
    /// Every folder listed (or whose stored listing was used), once each, sorted by bytes: what a watcher of
    /// the paths given watches, so that it lists no folder itself.
    pub folders: Vec<PathBuf>,
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

#[derive(Default)]
struct Found {
    files: Vec<Entry>,
    diagnostics: Vec<Diagnostic>,
    folders: Vec<PathBuf>,
}

/// Walks `paths` (see the module documentation for the policy), reading every folder.
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
    walk_with(paths, &NoListings)
}

/// [`walk`], taking a folder's listing from `listings` when one was stored with the
/// folder's present identity and times, and leaving there the listings it reads.
pub fn walk_with(paths: &[PathBuf], listings: &dyn Listings) -> Result<Walked, WalkError> {
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
        if !meta.is_dir() {
            continue;
        }
        let canonical_root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let walk = Walk { index, root, canonical_root, listings, found: &found };
        walk.folder(path, Some(meta), None);
    }
    let Found { files, mut diagnostics, mut folders } =
        found.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    // By bytes: comparing paths component by component cost every command 8% of a warm
    // run over 20,000 folders, for a list only a watcher reads.
    folders.par_sort_unstable_by(|a, b| a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()));
    folders.dedup();
    // Natural order, by keys made once per file (`natural_key`, all in one buffer): comparing
    // the paths themselves would take their runs of digits apart at every comparison. The
    // sort moves indices, not the files (a file's metadata is a few hundred bytes).
    let mut keys = Vec::new();
    let spans: Vec<(usize, usize)> = files
        .iter()
        .map(|(_, file, _)| {
            let start = keys.len();
            natural_key(file.path.as_os_str().as_encoded_bytes(), &mut keys);
            (start, keys.len())
        })
        .collect();
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.par_sort_unstable_by(|&x, &y| {
        let ((a, fa, _), (b, fb, _)) = (&files[x], &files[y]);
        let ((sa, ea), (sb, eb)) = (spans[x], spans[y]);
        a.cmp(b)
            .then_with(|| keys[sa..ea].cmp(&keys[sb..eb]))
            .then_with(|| fa.path.as_os_str().as_encoded_bytes().cmp(fb.path.as_os_str().as_encoded_bytes()))
    });
    let mut slots: Vec<Option<Entry>> = files.into_iter().map(Some).collect();
    let mut seen = HashSet::new();
    let files = order
        .into_iter()
        .filter_map(|at| slots[at].take())
        .filter(|(_, _, id)| id.is_none_or(|id| seen.insert(id)))
        .map(|(_, f, _)| f)
        .collect();
    diagnostics.sort_by(|a, b| natural_path_cmp(&a.path, &b.path));
    diagnostics.dedup();
    Ok(Walked { files, diagnostics, folders })
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

/// The walk of one path given.
struct Walk<'a> {
    index: usize,
    root: Arc<Path>,
    canonical_root: PathBuf,
    listings: &'a dyn Listings,
    found: &'a Mutex<Found>,
}

/// The folders from the path given down to one being walked, for telling a link that leads
/// back up (a loop).
struct Ancestors<'a> {
    folder: &'a Path,
    parent: Option<&'a Ancestors<'a>>,
}

impl Walk<'_> {
    fn warn(&self, path: &Path, message: String) {
        lock(self.found).diagnostics.push(Diagnostic::warning(path, message));
    }

    fn error(&self, path: &Path, message: String) {
        lock(self.found).diagnostics.push(Diagnostic::error(path, message));
    }

    /// Lists `folder` (or takes its stored listing), then walks its entries in parallel.
    /// `meta` is the folder's metadata when the caller has it.
    fn folder(&self, folder: &Path, meta: Option<std::fs::Metadata>, parent: Option<&Ancestors<'_>>) {
        let listed_at = SystemTime::now();
        let stamp = if self.listings.enabled() {
            meta.or_else(|| std::fs::metadata(folder).ok()).as_ref().and_then(|meta| match restat(folder, meta) {
                // On a network file system, the server's times: an entry added on another
                // machine must not leave a stored listing in use.
                Some(fresh) => fresh.ok().map(FolderStamp::from),
                None => FolderStamp::of(meta),
            })
        } else {
            None
        };
        let listing = match stamp.and_then(|s| self.listings.find(folder, &s)) {
            Some(listing) => listing,
            None => match list(folder) {
                Ok(listing) => {
                    if let Some(stamp) = &stamp {
                        self.listings.keep(folder, stamp, &listing, listed_at);
                    }
                    listing
                }
                Err(e) => {
                    self.error(folder, format!("cannot list folder: {e}"));
                    return;
                }
            },
        };
        lock(self.found).folders.push(folder.to_path_buf());
        let here = Ancestors { folder, parent };
        listing
            .entries
            .par_iter()
            .filter(|(name, _)| name.as_encoded_bytes().first() != Some(&b'.'))
            .for_each(|(name, kind)| self.entry(folder.join(name), *kind, &here));
    }

    fn entry(&self, path: PathBuf, kind: EntryKind, parent: &Ancestors<'_>) {
        match kind {
            EntryKind::Folder => self.folder(&path, None, Some(parent)),
            EntryKind::File => match std::fs::metadata(&path) {
                Ok(meta) => self.file(path, meta),
                Err(e) => self.error(&path, format!("cannot read: {e}")),
            },
            EntryKind::Link => self.link(path, parent),
            EntryKind::Other => {}
        }
    }

    /// Keeps `path` when it is a regular file.
    fn file(&self, path: PathBuf, meta: std::fs::Metadata) {
        if meta.is_file() {
            let id = identity(&meta);
            let file =
                WalkedFile { path, root: Arc::clone(&self.root), size: meta.len(), named: false, meta: Some(meta) };
            lock(self.found).files.push((self.index, file, id));
        }
    }

    /// Follows a link that stays inside the path given and does not lead back up.
    fn link(&self, path: PathBuf, parent: &Ancestors<'_>) {
        let target = match std::fs::canonicalize(&path) {
            Ok(target) => target,
            Err(e) if e.raw_os_error() == Some(ELOOP) => {
                self.warn(&path, "link that leads back to itself (a loop); not followed".to_string());
                return;
            }
            Err(e) => {
                self.warn(&path, format!("broken link ({e}); left out"));
                return;
            }
        };
        if !target.starts_with(&self.canonical_root) {
            let message = format!("link to {}, outside {}; not followed", target.display(), self.root.display());
            self.warn(&path, message);
            return;
        }
        let meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                self.warn(&path, format!("broken link ({e}); left out"));
                return;
            }
        };
        if !meta.is_dir() {
            self.file(path, meta);
            return;
        }
        let leads_up = identity(&meta).is_some_and(|id| {
            std::iter::successors(Some(parent), |a| a.parent)
                .any(|a| std::fs::metadata(a.folder).ok().and_then(|m| identity(&m)) == Some(id))
        });
        if leads_up {
            self.warn(&path, "link to a folder that contains it (a loop); not followed".to_string());
            return;
        }
        self.folder(&path, Some(meta), Some(parent));
    }
}

/// Reads a folder's entries and their kinds (links not followed).
fn list(folder: &Path) -> std::io::Result<Listing> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let kind = match entry.file_type() {
            Ok(t) if t.is_symlink() => EntryKind::Link,
            Ok(t) if t.is_dir() => EntryKind::Folder,
            Ok(t) if t.is_file() => EntryKind::File,
            Ok(_) => EntryKind::Other,
            // Gone since listed, or unreadable: its metadata will say which.
            Err(_) => EntryKind::File,
        };
        entries.push((entry.file_name(), kind));
    }
    Ok(Listing { entries })
}

/// `ELOOP`: too many levels of symbolic links (a link to itself).
const ELOOP: i32 = 40;
