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
//! A pack is written once, to a temporary file that entries are appended to a chunk at a
//! time ([`Writer`]), renamed into place whole and never changed after: packs are mapped
//! while in use. Each process that stores readings adds one pack; when
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

/// How many packs `dir` holds, and how many entries they keep (the newest of each identity
/// counted once); what is not a whole pack is not counted.
pub(crate) fn count(dir: &Path) -> (u64, u64) {
    let packs: Vec<Pack> = list(dir).iter().filter_map(|p| open(p)).collect();
    let entries: std::collections::HashSet<u128> = packs.iter().flat_map(Pack::hashes).collect();
    (packs.len() as u64, entries.len() as u64)
}

/// Entries encoded one after another, waiting to be appended to a pack being written
/// ([`Writer`]). Each worker fills one and hands it on when it is full, so storing a
/// reading copies it once, into a buffer that is used again, and allocates nothing per
/// entry.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    bytes: Vec<u8>,
    /// (identity hash, offset in `bytes`, length, last use) per entry.
    rows: Vec<(u128, usize, usize, u64)>,
}

impl Chunk {
    /// A chunk this large is appended to its pack.
    pub(crate) const FULL: usize = 512 << 10;

    /// Appends the entry `encode` writes, unless it says `false` (nothing is kept then).
    pub(crate) fn push(&mut self, hash: u128, used: u64, encode: impl FnOnce(&mut Vec<u8>) -> bool) {
        let start = self.bytes.len();
        if encode(&mut self.bytes) {
            self.rows.push((hash, start, self.bytes.len() - start, used));
        } else {
            self.bytes.truncate(start);
        }
    }

    /// Whether it holds [`FULL`](Self::FULL) bytes or more.
    pub(crate) fn is_full(&self) -> bool {
        self.bytes.len() >= Self::FULL
    }

    /// How many entries it holds.
    pub(crate) fn entries(&self) -> u64 {
        self.rows.len() as u64
    }

    /// Empties it, keeping its buffers.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.rows.clear();
    }
}

/// A pack being written: chunks are appended as they fill, and [`finish`](Self::finish)
/// adds the index and renames the whole into place. Until then it is a temporary file
/// that no lookup sees; dropped unfinished, it is removed.
#[derive(Debug)]
pub(crate) struct Writer {
    file: tempfile::NamedTempFile,
    dir: PathBuf,
    /// Bytes written so far: where the next entry goes.
    end: u64,
    index: Vec<u8>,
    entries: u64,
}

impl Writer {
    /// Starts a pack in `dir` (created if need be).
    pub(crate) fn create(dir: &Path) -> std::io::Result<Self> {
        crate::folder::make_dir(dir)?;
        let mut file = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
        file.as_file_mut().write_all(MAGIC)?;
        Ok(Self { file, dir: dir.to_path_buf(), end: MAGIC.len() as u64, index: Vec::new(), entries: 0 })
    }

    /// How many entries were appended.
    pub(crate) fn entries(&self) -> u64 {
        self.entries
    }

    /// Appends `chunk` to the pack in `slot`, starting one in `dir` when there is none.
    /// On an error `slot` is emptied: a pack that took part of a chunk is never finished
    /// (dropped, its temporary file is removed).
    pub(crate) fn append_to(slot: &mut Option<Self>, dir: &Path, chunk: &Chunk) -> std::io::Result<()> {
        let appended = match slot {
            Some(writer) => writer.append(chunk),
            None => Self::create(dir).and_then(|mut writer| writer.append(chunk).map(|()| *slot = Some(writer))),
        };
        if appended.is_err() {
            *slot = None;
        }
        appended
    }

    /// Appends the chunk's entries; on an error the file may hold part of them, and the
    /// pack must be dropped unfinished ([`append_to`](Self::append_to) does).
    fn append(&mut self, chunk: &Chunk) -> std::io::Result<()> {
        self.file.as_file_mut().write_all(&chunk.bytes)?;
        for &(hash, start, len, used) in &chunk.rows {
            self.index.extend_from_slice(&hash.to_le_bytes());
            self.index.extend_from_slice(&(self.end + start as u64).to_le_bytes());
            self.index.extend_from_slice(&(len as u64).to_le_bytes());
            self.index.extend_from_slice(&used.to_le_bytes());
        }
        self.end += chunk.bytes.len() as u64;
        self.entries += chunk.entries();
        Ok(())
    }

    /// Writes the index and renames the pack into place; returns its path.
    pub(crate) fn finish(mut self) -> std::io::Result<PathBuf> {
        let sum = xxhash_rust::xxh3::xxh3_64(&self.index);
        let mut tail = std::mem::take(&mut self.index);
        tail.extend_from_slice(&self.entries.to_le_bytes());
        tail.extend_from_slice(&self.end.to_le_bytes());
        tail.extend_from_slice(&sum.to_le_bytes());
        tail.extend_from_slice(MAGIC);
        self.file.as_file_mut().write_all(&tail)?;
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        // The name sorts by time; the temporary file's random part keeps two at one instant
        // apart.
        let unique = self.file.path().file_name().map(|n| n.to_string_lossy().trim_start_matches(".tmp-").to_string());
        let path = self.dir.join(format!("{nanos:024}-{}.pack", unique.unwrap_or_default()));
        self.file.persist(&path).map_err(|e| e.error)?;
        Ok(path)
    }
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
    let mut stored: Vec<(u128, u64, &[u8])> = Vec::with_capacity(keep.len());
    for (_, hash, p, i, used) in keep {
        let Some(entry) = packs[p].entry(i) else { continue };
        let size = (entry.len() + INDEX_ROW) as u64;
        if total + size > target {
            pruned.removed += 1;
            pruned.freed += size;
            continue;
        }
        total += size;
        stored.push((hash, used, entry));
    }
    if !stored.is_empty() {
        let mut writer = Writer::create(dir)?;
        let mut chunk = Chunk::default();
        // Oldest use first: a lookup takes the last row of a repeated hash.
        for &(hash, used, entry) in stored.iter().rev() {
            chunk.push(hash, used, |out| {
                out.extend_from_slice(entry);
                true
            });
            if chunk.is_full() {
                writer.append(&chunk)?;
                chunk.clear();
            }
        }
        writer.append(&chunk)?;
        writer.finish()?;
    }
    for pack in &packs {
        // Another process may have merged it already.
        let _ = std::fs::remove_file(&pack.path);
    }
    Ok(pruned)
}

fn remove_leftovers(root: &Path, dir: &Path, pruned: &mut Pruned) {
    for (older, current) in crate::folder::own_folders(root, dir) {
        if !current {
            let _ = std::fs::remove_dir_all(older);
            pruned.removed += 1;
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
