//! Packs: many entries in one file, so storing a thousand readings creates one file, not a
//! thousand (creating a file costs about a millisecond of kernel time on some file systems,
//! more than reading a small report), and looking one up opens nothing.
//!
//! ```text
//! b"evtpack1"
//! entries, back to back                    (entry.rs: each with its own checksum)
//! index: per entry u128 identity hash, u64 offset, u64 length, u64 last use (seconds)
//! u64 entries, u64 index offset, u64 XXH3 of the index
//! b"evtpack1"
//! ```
//!
//! A pack is written once, to a temporary file renamed into place, and never changed:
//! packs are mapped while in use. Each process that stores readings adds one pack; when
//! there are more than [`MAX_PACKS`], or more bytes than the limit, [`compact`] merges them
//! into one, keeping the newest entry per identity and, over the limit, the most recently
//! used entries.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::Pruned;

const MAGIC: &[u8; 8] = b"evtpack1";
const INDEX_ROW: usize = 16 + 8 + 8 + 8;
/// The three u64 before the closing magic.
const FOOTER: usize = 8 * 3;

/// More packs than this are merged into one.
pub(crate) const MAX_PACKS: usize = 8;

/// How old a temporary file must be before it is taken for the leftover of an
/// interrupted write rather than a write in progress.
const STALE_TEMPORARY: Duration = Duration::from_hours(1);

/// An entry to store: its identity hash, when it was last used (seconds since the epoch)
/// and its bytes.
pub(crate) type Stored = (u128, u64, Vec<u8>);

/// One mapped pack and its index.
pub(crate) struct Pack {
    map: memmap2::Mmap,
    /// (identity hash, offset, length, last use) per entry.
    index: Vec<(u128, usize, usize, u64)>,
    path: PathBuf,
    size: u64,
}

impl std::fmt::Debug for Pack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pack")
            .field("path", &self.path)
            .field("size", &self.size)
            .field("entries", &self.index.len())
            .finish_non_exhaustive()
    }
}

impl Pack {
    /// The identity hashes of its entries, in index order.
    pub(crate) fn hashes(&self) -> impl Iterator<Item = u128> + '_ {
        self.index.iter().map(|e| e.0)
    }

    /// The bytes of entry `i` of the index.
    pub(crate) fn entry(&self, i: usize) -> Option<&[u8]> {
        let &(_, offset, len, _) = self.index.get(i)?;
        self.map.get(offset..offset.checked_add(len)?)
    }
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

/// Maps the pack at `path` and reads its index; `None` for anything that is not a whole
/// pack (another process's write in progress is never visible: packs are renamed whole).
pub(crate) fn open(path: &Path) -> Option<Pack> {
    let file = File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    if size < (MAGIC.len() * 2 + FOOTER) as u64 {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: packs are evaltally's own files, written whole and renamed into place, never
    // truncated or written in place by evaltally; another process doing so would be
    // tampering with the cache folder. A rename or delete leaves this mapping intact.
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    let bytes: &[u8] = &map;
    let end = bytes.len();
    if &bytes[..8] != MAGIC || &bytes[end - 8..] != MAGIC {
        return None;
    }
    let footer = end - 8 - FOOTER;
    let count = usize::try_from(u64_at(bytes, footer)?).ok()?;
    let index_at = usize::try_from(u64_at(bytes, footer + 8)?).ok()?;
    let sum = u64_at(bytes, footer + 16)?;
    let index_bytes = bytes.get(index_at..footer)?;
    if index_bytes.len() != count.checked_mul(INDEX_ROW)? || xxhash_rust::xxh3::xxh3_64(index_bytes) != sum {
        return None;
    }
    let mut index = Vec::with_capacity(count);
    for row in index_bytes.chunks_exact(INDEX_ROW) {
        let hash = u128::from_le_bytes(row[..16].try_into().ok()?);
        let offset = usize::try_from(u64_at(row, 16)?).ok()?;
        let len = usize::try_from(u64_at(row, 24)?).ok()?;
        let used = u64_at(row, 32)?;
        if offset < 8 || offset.checked_add(len)? > index_at {
            return None;
        }
        index.push((hash, offset, len, used));
    }
    Some(Pack { map, index, path: path.to_path_buf(), size })
}

/// The packs in `dir`, oldest first (their names begin with the time they were written).
pub(crate) fn list(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut packs: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "pack")).collect();
    packs.sort();
    packs
}

/// Writes `entries` as a new pack in `dir`; returns its path.
pub(crate) fn write(dir: &Path, entries: &[Stored]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    // The index, then the entries written from where they lie (a pack is as large as
    // everything stored at once: no copy of it is made).
    let mut index = Vec::with_capacity(entries.len() * INDEX_ROW + FOOTER + MAGIC.len());
    let mut offset = MAGIC.len() as u64;
    for (hash, used, bytes) in entries {
        index.extend_from_slice(&hash.to_le_bytes());
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        index.extend_from_slice(&used.to_le_bytes());
        offset += bytes.len() as u64;
    }
    let sum = xxhash_rust::xxh3::xxh3_64(&index);
    index.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    index.extend_from_slice(&offset.to_le_bytes());
    index.extend_from_slice(&sum.to_le_bytes());
    index.extend_from_slice(MAGIC);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    let parts = std::iter::once(&MAGIC[..]).chain(entries.iter().map(|e| e.2.as_slice())).chain([index.as_slice()]);
    write_all(tmp.as_file_mut(), parts)?;
    // The name sorts by time; the temporary file's random part keeps two at one instant apart.
    let unique = tmp.path().file_name().map(|n| n.to_string_lossy().trim_start_matches(".tmp-").to_string());
    let path = dir.join(format!("{nanos:024}-{}.pack", unique.unwrap_or_default()));
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

/// Writes `parts` one after the other, many to a system call.
fn write_all<'a>(file: &mut File, parts: impl Iterator<Item = &'a [u8]>) -> std::io::Result<()> {
    // At most this many slices a call (the system's limit is 1,024).
    const BATCH: usize = 512;
    let parts: Vec<&[u8]> = parts.filter(|p| !p.is_empty()).collect();
    for batch in parts.chunks(BATCH) {
        let mut slices: Vec<std::io::IoSlice<'_>> = batch.iter().map(|p| std::io::IoSlice::new(p)).collect();
        let mut rest = slices.as_mut_slice();
        while !rest.is_empty() {
            match file.write_vectored(rest) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => std::io::IoSlice::advance_slices(&mut rest, n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(())
}

/// Merges the packs in `dir` into one when there are more than [`MAX_PACKS`] or they hold
/// more than `limit` bytes (or always, with `force`): the newest entry of each identity, its
/// last use moved to now when `used_now` says this process used it; over the limit, the
/// least recently used entries are left out until 80% of it is left. Then removes the
/// merged packs, temporary files older than an hour, and folders of other layouts.
pub(crate) fn compact(
    root: &Path,
    dir: &Path,
    limit: u64,
    force: bool,
    used_now: &dyn Fn(u128) -> bool,
) -> std::io::Result<Pruned> {
    let mut pruned = Pruned::default();
    remove_leftovers(root, dir, &mut pruned);
    let paths = list(dir);
    let packs: Vec<Pack> = paths.iter().filter_map(|p| open(p)).collect();
    let bytes: u64 = packs.iter().map(|p| p.size).sum();
    let mut newest: HashMap<u128, (usize, usize, u64)> = HashMap::new();
    for (p, pack) in packs.iter().enumerate() {
        for (i, &(hash, _, _, used)) in pack.index.iter().enumerate() {
            newest.insert(hash, (p, i, used));
        }
    }
    pruned.entries = newest.len() as u64;
    pruned.bytes = bytes;
    if !force && paths.len() <= MAX_PACKS && bytes <= limit {
        return Ok(pruned);
    }
    let now = now_secs();
    let mut keep: Vec<(bool, u128, usize, usize, u64)> = newest
        .into_iter()
        .map(|(hash, (p, i, used))| {
            let now_used = used_now(hash);
            (now_used, hash, p, i, if now_used { now } else { used })
        })
        .collect();
    // What this process used first, then the most recently used; ties by hash, so the
    // result does not depend on map order.
    keep.sort_by(|a, b| b.0.cmp(&a.0).then(b.4.cmp(&a.4)).then(a.1.cmp(&b.1)));
    let target = if bytes > limit { limit / 5 * 4 } else { u64::MAX };
    let mut total = 0u64;
    let mut stored: Vec<Stored> = Vec::with_capacity(keep.len());
    for (_, hash, p, i, used) in keep {
        let Some(entry) = packs[p].entry(i) else { continue };
        let size = (entry.len() + INDEX_ROW) as u64;
        if total + size > target {
            pruned.removed += 1;
            pruned.freed += size;
            continue;
        }
        total += size;
        stored.push((hash, used, entry.to_vec()));
    }
    // Oldest use first, as `write` keeps them: the newest pack wins on a repeated hash.
    stored.reverse();
    if !stored.is_empty() {
        write(dir, &stored)?;
    }
    for pack in &packs {
        // Another process may have merged it already.
        let _ = std::fs::remove_file(&pack.path);
    }
    Ok(pruned)
}

fn remove_leftovers(root: &Path, dir: &Path, pruned: &mut Pruned) {
    if let Ok(top) = std::fs::read_dir(root) {
        for entry in top.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let layout = name.strip_prefix('v').is_some_and(|n| n.parse::<u32>().is_ok());
            if layout && entry.path() != dir && entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir_all(entry.path());
                pruned.removed += 1;
            }
        }
    }
    let Ok(files) = std::fs::read_dir(dir) else { return };
    for file in files.flatten() {
        let stale = file.file_name().to_string_lossy().starts_with(".tmp-")
            && file
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE_TEMPORARY);
        if stale {
            let _ = std::fs::remove_file(file.path());
            pruned.removed += 1;
        }
    }
}
