//! The files of the cache's layout folder: making it, and the files named by the time they
//! were finished, which packs, listings and use records are written as. Nothing here knows
//! what the files hold.

use std::path::{Path, PathBuf};

/// The tag that marks a folder as a cache, so that backup tools leave it out
/// (<https://bford.info/cachedir/>: `tar --exclude-caches`, restic's and borg's
/// `--exclude-caches`).
const CACHEDIR_TAG: &str = "Signature: 8a477f597d28d172789f06886806bc55\n\
# This file is a cache directory tag created by evaltally: the folder holds its digest cache.\n\
# For information about cache directory tags, see https://bford.info/cachedir/\n";

/// Makes the layout folder `dir` (and the cache folder above it) if need be, tagged as a
/// cache. Only evaltally's own layout folder is tagged: the cache folder may be one the
/// user named, holding other things.
pub(crate) fn make_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    // Whoever creates the file first writes it; for everyone after, it is there already.
    match std::fs::OpenOptions::new().write(true).create_new(true).open(dir.join("CACHEDIR.TAG")) {
        Ok(mut file) => std::io::Write::write_all(&mut file, CACHEDIR_TAG.as_bytes()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// The folders of `root` that evaltally made: one per layout (`v1`, `v2`, …), each with
/// whether it is the current one (`dir`).
pub(crate) fn own_folders(root: &Path, dir: &Path) -> Vec<(PathBuf, bool)> {
    let Ok(top) = std::fs::read_dir(root) else { return Vec::new() };
    let mut folders: Vec<_> = top
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let layout = name.to_str().and_then(|n| n.strip_prefix('v')).is_some_and(|n| n.parse::<u32>().is_ok());
            layout && e.file_type().is_ok_and(|t| t.is_dir())
        })
        .map(|e| {
            let path = e.path();
            let current = path == dir;
            (path, current)
        })
        .collect();
    folders.sort();
    folders
}

/// The files of `dir` named by [`persist_by_time`] with `extension`, oldest first.
pub(crate) fn by_time(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == extension)).collect();
    files.sort();
    files
}

/// Writes `bytes` as a new file of `dir` (made if need be) named by [`persist_by_time`]:
/// a temporary file renamed into place whole, so no mapping sees it change.
pub(crate) fn write_by_time(dir: &Path, bytes: &[u8], extension: &str) -> std::io::Result<PathBuf> {
    make_dir(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    persist_by_time(tmp, dir, extension)
}

/// Renames a finished temporary file in `dir` into place under a name that sorts by the
/// time it was finished (`<nanoseconds>-<random>.<extension>`; the temporary file's random
/// part keeps two finished at one instant apart); returns its path.
pub(crate) fn persist_by_time(file: tempfile::NamedTempFile, dir: &Path, extension: &str) -> std::io::Result<PathBuf> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let unique = file.path().file_name().map(|n| n.to_string_lossy().trim_start_matches(".tmp-").to_string());
    let path = dir.join(format!("{nanos:024}-{}.{extension}", unique.unwrap_or_default()));
    file.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}
