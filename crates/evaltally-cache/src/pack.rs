//! Packs: many entries in one file, so storing a thousand readings creates one file, not a
//! thousand (creating a file costs about a millisecond of kernel time on some file systems,
//! more than reading a small report), and looking one up opens nothing.
//!
//! ```text
//! b"evtpack1"
//! entries, back to back                    (entry.rs: each with its own checksum)
//! index: per entry u128 identity hash, u64 offset, u64 length, u64 last use (seconds),
//!        sorted by hash (entries of one hash in the order written)
//! u64 entries, u64 index offset, u64 XXH3 of the index
//! b"evtpack1"
//! ```
//!
//! (the frame of `frame.rs`, which listings files share)
//!
//! A pack is written once, to a temporary file that entries are appended to a chunk at a
//! time ([`Writer`]), renamed into place whole and never changed after: packs are mapped
//! while in use. Each process that stores readings adds one pack; when there are more than
//! [`MAX_PACKS`], [`compact`] merges the newest ones (the large old ones stay as they are,
//! so adding a few runs never rewrites the whole cache), and when they hold more bytes
//! than the limit it merges them all, keeping the newest entry per identity and the most
//! recently used entries.
//!
//! A lookup searches the mapped index in place ([`Pack::find`], a binary search), so
//! opening a pack costs the same whether it holds ten entries or a million: an analysis
//! of a few runs does not pay for everything else the cache holds. The index's checksum is
//! checked where the whole index is read (merging, counting); a lookup needs no more than
//! the entry's own checksum and identity, which a damaged row cannot match. (Packs of
//! evaltally 0.1 before this order hold rows unsorted; the search may miss them, which
//! costs nothing: their entries are another build's, whose identities never match, and
//! merging writes them sorted.)

use hashbrown::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::Pruned;
use crate::frame::{self, u64_at, u128_at};

const MAGIC: &[u8; 8] = b"evtpack1";
const INDEX_ROW: usize = 16 + 8 + 8 + 8;

/// More packs than this are merged into one.
pub(crate) const MAX_PACKS: usize = 8;

/// How old a temporary file must be before it is taken for the leftover of an
/// interrupted write rather than a write in progress.
const STALE_TEMPORARY: Duration = Duration::from_hours(1);

/// One row of a pack's index: an entry's identity hash, where it is, and when it was last
/// used (seconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) hash: u128,
    offset: usize,
    len: usize,
    pub(crate) used: u64,
}

/// One mapped pack; its index is read in place.
pub(crate) struct Pack {
    map: memmap2::Mmap,
    /// Where the index starts in the map, and how many rows it has.
    index_at: usize,
    count: usize,
    path: PathBuf,
    size: u64,
}

impl std::fmt::Debug for Pack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pack")
            .field("path", &self.path)
            .field("size", &self.size)
            .field("entries", &self.count)
            .finish_non_exhaustive()
    }
}

impl Pack {
    /// The hash of row `i` (in bounds: `i < count`).
    fn hash_at(&self, i: usize) -> u128 {
        let at = self.index_at + i * INDEX_ROW;
        u128_at(&self.map, at).unwrap_or(0)
    }

    /// Row `i` of the index; `None` past the end or for a row pointing outside the entries.
    fn row(&self, i: usize) -> Option<Row> {
        if i >= self.count {
            return None;
        }
        let at = self.index_at + i * INDEX_ROW;
        let row = self.map.get(at..at + INDEX_ROW)?;
        let offset = usize::try_from(u64_at(row, 16)?).ok()?;
        let len = usize::try_from(u64_at(row, 24)?).ok()?;
        if offset < MAGIC.len() || offset.checked_add(len)? > self.index_at {
            return None;
        }
        Some(Row { hash: self.hash_at(i), offset, len, used: u64_at(row, 32)? })
    }

    /// The rows of its index, in order (rows pointing outside the entries left out).
    pub(crate) fn rows(&self) -> impl Iterator<Item = Row> + '_ {
        (0..self.count).filter_map(|i| self.row(i))
    }

    /// The bytes of an entry.
    pub(crate) fn entry(&self, row: &Row) -> Option<&[u8]> {
        self.map.get(row.offset..row.offset.checked_add(row.len)?)
    }

    /// The row of the entry for `hash`, the last written of that hash: a binary search of
    /// the sorted index.
    fn find_row(&self, hash: u128) -> Option<Row> {
        // The first row whose hash is greater; the one before it is the last of `hash`.
        let after = frame::first_row(self.count, |i| self.hash_at(i) > hash);
        self.row(after.checked_sub(1)?).filter(|row| row.hash == hash)
    }

    /// The bytes of the entry for `hash`, the last written of that hash.
    #[cfg(test)]
    pub(crate) fn find(&self, hash: u128) -> Option<&[u8]> {
        self.find_used(hash).map(|(entry, _)| entry)
    }

    /// The bytes of the entry for `hash`, the last written of that hash, and when its row
    /// says it was last used.
    pub(crate) fn find_used(&self, hash: u128) -> Option<(&[u8], u64)> {
        let row = self.find_row(hash)?;
        Some((self.entry(&row)?, row.used))
    }

    /// Whether the index's checksum holds (checked where the whole index is read).
    fn index_intact(&self) -> bool {
        frame::index_intact(&self.map, MAGIC, self.index_at)
    }
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What is at a pack's path.
enum Opened {
    Pack(Pack),
    /// The file was read and is not a whole pack: damaged since it was written (packs are
    /// renamed into place whole, so a write in progress is never seen).
    NotAPack,
    /// The file could not be opened or mapped (gone, or out of descriptors or memory):
    /// nothing is known of it.
    Unreadable,
}

/// Maps the pack at `path`. Only the ends are read: the index is searched in place.
fn open_at(path: &Path) -> Opened {
    match frame::map(path) {
        frame::Mapped::Bytes(map, size) => match frame::index(&map, MAGIC, INDEX_ROW) {
            Some((index_at, count)) => Opened::Pack(Pack { map, index_at, count, path: path.to_path_buf(), size }),
            None => Opened::NotAPack,
        },
        frame::Mapped::Empty => Opened::NotAPack,
        frame::Mapped::Unreadable => Opened::Unreadable,
    }
}

/// Maps the pack at `path`; `None` for anything that is not a whole pack or cannot be read.
pub(crate) fn open(path: &Path) -> Option<Pack> {
    match open_at(path) {
        Opened::Pack(pack) => Some(pack),
        Opened::NotAPack | Opened::Unreadable => None,
    }
}

/// [`open`], with the index's checksum checked: for reading the whole index.
fn open_checked(path: &Path) -> Option<Pack> {
    open(path).filter(Pack::index_intact)
}

/// The packs in `dir`, oldest first.
pub(crate) fn list(dir: &Path) -> Vec<PathBuf> {
    crate::files::by_time(dir, "pack")
}

/// How many packs `dir` holds, and how many entries they keep (the newest of each identity
/// counted once); what is not a whole pack is not counted.
pub(crate) fn count(dir: &Path) -> (u64, u64) {
    let packs: Vec<Pack> = list(dir).iter().filter_map(|p| open_checked(p)).collect();
    let entries: HashSet<u128> = packs.iter().flat_map(|p| p.rows().map(|r| r.hash)).collect();
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
    /// (identity hash, offset, length, last use) per entry appended, in the order appended.
    rows: Vec<(u128, u64, u64, u64)>,
}

impl Writer {
    /// Starts a pack in `dir` (created if need be).
    pub(crate) fn create(dir: &Path) -> std::io::Result<Self> {
        crate::files::make_dir(dir)?;
        let mut file = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
        file.as_file_mut().write_all(MAGIC)?;
        Ok(Self { file, dir: dir.to_path_buf(), end: MAGIC.len() as u64, rows: Vec::new() })
    }

    /// How many entries were appended.
    pub(crate) fn entries(&self) -> u64 {
        self.rows.len() as u64
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
        self.rows.extend(
            chunk.rows.iter().map(|&(hash, start, len, used)| (hash, self.end + start as u64, len as u64, used)),
        );
        self.end += chunk.bytes.len() as u64;
        Ok(())
    }

    /// Writes the index, sorted by hash (a stable sort: the last row of a hash is the one
    /// appended last), and renames the pack into place; returns its path.
    pub(crate) fn finish(mut self) -> std::io::Result<PathBuf> {
        self.rows.sort_by_key(|row| row.0);
        let mut tail = Vec::with_capacity(self.rows.len() * INDEX_ROW + 64);
        for &(hash, offset, len, used) in &self.rows {
            tail.extend_from_slice(&hash.to_le_bytes());
            tail.extend_from_slice(&offset.to_le_bytes());
            tail.extend_from_slice(&len.to_le_bytes());
            tail.extend_from_slice(&used.to_le_bytes());
        }
        frame::close(&mut tail, MAGIC, 0, self.end, self.rows.len() as u64);
        self.file.as_file_mut().write_all(&tail)?;
        crate::files::persist_by_time(self.file, &self.dir, "pack")
    }
}

/// The packs to merge when there are too many (sizes oldest first, more than one): the
/// newest ones from the oldest that holds no more than all the packs after it together.
/// Large old packs stay as they are, and the merged one joins them once it has grown as
/// large, so sizes fall off by about half from the oldest to the newest and an entry is
/// copied a few times over its life, not once per merge: a cache of a gigabyte is not
/// rewritten because a few runs were added.
pub(crate) fn newest_to_merge(sizes: &[u64]) -> usize {
    // At least the two newest.
    let last = sizes.len().saturating_sub(2);
    let (mut from, mut after) = (last, 0u64);
    for (i, &size) in sizes.iter().enumerate().rev() {
        if i <= last && size <= after {
            from = i;
        }
        after += size;
    }
    from
}

/// Keeps the packs in `dir` within bounds: when there are more than [`MAX_PACKS`], merges
/// the newest ones ([`newest_to_merge`]); when they hold more than `limit` bytes (or always,
/// with `force`), merges them all, leaving out the least recently used entries until 80%
/// of the limit is left. A merge keeps the newest entry of each identity, its last use
/// moved to `now` when `used` holds it, and to a later use the uses files record
/// (`uses.rs`); the entries in `used` that stay in older packs are copied into the merged
/// one too, so that their use is not forgotten. Then removes the merged packs, the uses
/// files when all the packs were merged (their uses are in the rows now), temporary files
/// older than an hour, and folders of other layouts.
pub(crate) fn compact(
    root: &Path,
    dir: &Path,
    limit: u64,
    force: bool,
    used: &HashSet<u128>,
    now: u64,
) -> std::io::Result<Pruned> {
    let mut pruned = Pruned::default();
    remove_leftovers(root, dir, &mut pruned);
    let mut packs: Vec<Pack> = Vec::new();
    for path in list(dir) {
        match open_at(&path) {
            Opened::Pack(pack) => packs.push(pack),
            Opened::NotAPack => pruned.removed += u64::from(std::fs::remove_file(&path).is_ok()),
            // Left as it is: it may be whole (a later merge sees it again).
            Opened::Unreadable => {}
        }
    }
    let bytes: u64 = packs.iter().map(|p| p.size).sum();
    pruned.bytes = bytes;
    // Only the ends of the packs were read so far: a run that stored a few readings in a
    // large cache does not read the whole index to learn there is nothing to merge.
    if !force && packs.len() <= MAX_PACKS && bytes <= limit {
        return Ok(pruned);
    }
    let all = force || bytes > limit;
    let from = if all { 0 } else { newest_to_merge(&packs.iter().map(|p| p.size).collect::<Vec<_>>()) };
    let (older, merged) = packs.split_at(from);
    // A pack whose index is damaged is not merged (it is removed with the others).
    let mut newest: HashMap<u128, (&Pack, Row)> = HashMap::new();
    for pack in merged.iter().filter(|pack| pack.index_intact()) {
        for row in pack.rows() {
            newest.insert(row.hash, (pack, row));
        }
    }
    for &hash in used {
        if !newest.contains_key(&hash)
            && let Some((pack, row)) = older.iter().rev().find_map(|pack| Some((pack, pack.find_row(hash)?)))
        {
            newest.insert(hash, (pack, row));
        }
    }
    pruned.entries = newest.len() as u64;
    let (recorded, uses_files) = crate::uses::recorded(dir);
    let mut keep: Vec<(bool, u128, &Pack, Row, u64)> = newest
        .into_iter()
        .map(|(hash, (pack, row))| {
            let now_used = used.contains(&hash);
            let last = if now_used { now } else { row.used.max(recorded.get(&hash).copied().unwrap_or(0)) };
            (now_used, hash, pack, row, last)
        })
        .collect();
    // What this process used first, then the most recently used; ties by hash, so the
    // result does not depend on map order.
    keep.sort_by(|a, b| b.0.cmp(&a.0).then(b.4.cmp(&a.4)).then(a.1.cmp(&b.1)));
    let target = if bytes > limit { limit / 5 * 4 } else { u64::MAX };
    let mut total = 0u64;
    let mut stored: Vec<(u128, u64, &[u8])> = Vec::with_capacity(keep.len());
    for (_, hash, pack, row, used) in keep {
        let Some(entry) = pack.entry(&row) else { continue };
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
    for pack in merged {
        // Another process may have merged it already.
        let _ = std::fs::remove_file(&pack.path);
    }
    if from == 0 {
        for path in uses_files {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(pruned)
}

fn remove_leftovers(root: &Path, dir: &Path, pruned: &mut Pruned) {
    for (older, current) in crate::files::own_folders(root, dir) {
        if !current {
            let _ = std::fs::remove_dir_all(older);
            pruned.removed += 1;
        }
    }
    // The one listings file of evaltally before listings were kept in several.
    pruned.removed += u64::from(std::fs::remove_file(dir.join("listings")).is_ok());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, entries: &[(u128, &[u8])]) -> PathBuf {
        let mut writer = Writer::create(dir).unwrap();
        let mut chunk = Chunk::default();
        for &(hash, bytes) in entries {
            chunk.push(hash, 7, |out| {
                out.extend_from_slice(bytes);
                true
            });
        }
        writer.append(&chunk).unwrap();
        writer.finish().unwrap()
    }

    #[test]
    fn every_entry_is_found_in_the_sorted_index_and_a_repeated_hash_gives_the_last_written() {
        let dir = tempfile::tempdir().unwrap();
        // Hashes in no order, and one written twice.
        let hashes: Vec<u128> =
            (0..1000u128).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835)).collect();
        let texts: Vec<String> = (0..1000).map(|i| format!("entry {i}")).collect();
        let mut entries: Vec<(u128, &[u8])> = hashes.iter().zip(&texts).map(|(&h, t)| (h, t.as_bytes())).collect();
        entries.push((hashes[10], b"entry 10, again"));
        let path = write(dir.path(), &entries);
        let pack = open(&path).unwrap();
        let rows: Vec<u128> = pack.rows().map(|r| r.hash).collect();
        assert_eq!(rows.len(), 1001);
        assert!(rows.is_sorted(), "the index is sorted by hash");
        for (i, &hash) in hashes.iter().enumerate() {
            let want: &[u8] = if i == 10 { b"entry 10, again" } else { texts[i].as_bytes() };
            assert_eq!(pack.find(hash), Some(want), "entry {i}");
        }
        assert_eq!(pack.find(12345), None);
        assert!(open_checked(&path).is_some());
    }

    #[test]
    fn a_damaged_index_fails_its_checksum_but_lookups_still_check_each_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), &[(1, b"one"), (2, b"two"), (3, b"three")]);
        let mut bytes = std::fs::read(&path).unwrap();
        let (index_at, _) = frame::index(&bytes, MAGIC, INDEX_ROW).unwrap();
        // Row 2's offset now points past the entries.
        bytes[index_at + INDEX_ROW + 16 + 7] = 0x7F;
        std::fs::write(&path, &bytes).unwrap();
        assert!(open_checked(&path).is_none(), "merging and counting leave it out");
        let pack = open(&path).unwrap();
        assert_eq!((pack.find(1), pack.find(2), pack.find(3)), (Some(&b"one"[..]), None, Some(&b"three"[..])));
    }

    #[test]
    fn compacting_under_the_limit_leaves_the_packs_as_they_are() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("v2");
        let a = write(&dir, &[(1, b"one")]);
        let b = write(&dir, &[(2, b"two")]);
        let none = HashSet::new();
        let pruned = compact(root.path(), &dir, u64::MAX, false, &none, now_secs()).unwrap();
        assert_eq!((pruned.entries, pruned.removed), (0, 0), "the index is not read: {pruned:?}");
        assert!(a.exists() && b.exists());
        let forced = compact(root.path(), &dir, u64::MAX, true, &none, now_secs()).unwrap();
        assert_eq!(forced.entries, 2);
        let merged = list(&dir);
        assert_eq!(merged.len(), 1);
        let pack = open(&merged[0]).unwrap();
        assert_eq!((pack.find(1), pack.find(2)), (Some(&b"one"[..]), Some(&b"two"[..])));
    }

    #[test]
    fn the_newest_packs_are_merged_from_the_oldest_no_larger_than_all_after_it() {
        assert_eq!(newest_to_merge(&[1000, 10, 1, 1, 1, 1, 1, 1, 1]), 2);
        assert_eq!(newest_to_merge(&[1000, 10, 7, 1, 1, 1, 1, 1, 1]), 1);
        assert_eq!(newest_to_merge(&[5, 1, 1, 1, 1, 1, 1, 1, 1]), 0);
        // Each pack larger than all after it: the two newest.
        assert_eq!(newest_to_merge(&[256, 128, 64, 32, 16, 8, 4, 2, 1]), 7);
        assert_eq!(newest_to_merge(&[3, 1]), 0);
    }

    #[test]
    fn too_many_packs_merge_the_small_new_ones_and_keep_what_was_used_in_the_old_one() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("v2");
        let big_texts: Vec<String> = (0..100).map(|i| format!("an old entry, number {i:>40}")).collect();
        let big_entries: Vec<(u128, &[u8])> =
            big_texts.iter().enumerate().map(|(i, t)| (1000 + i as u128, t.as_bytes())).collect();
        let big = write(&dir, &big_entries);
        let small: Vec<PathBuf> = (0..8u128).map(|i| write(&dir, &[(i, b"new")])).collect();
        // This process used entry 1003 of the old pack, and entry 2 of a new one.
        let used: HashSet<u128> = [1003, 2].into_iter().collect();
        let pruned = compact(root.path(), &dir, u64::MAX, false, &used, now_secs()).unwrap();
        assert_eq!((pruned.entries, pruned.removed), (9, 0), "{pruned:?}");
        assert!(big.exists(), "the old pack is left as it is");
        assert!(small.iter().all(|p| !p.exists()));
        let packs = list(&dir);
        assert_eq!(packs.len(), 2);
        let merged = open(&packs[1]).unwrap();
        let rows: Vec<Row> = merged.rows().collect();
        assert_eq!(rows.iter().map(|r| r.hash).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 6, 7, 1003]);
        let now = now_secs();
        for row in &rows {
            assert_eq!(row.used.abs_diff(now) <= 5, row.hash == 2 || row.hash == 1003, "{row:?}");
        }
        assert_eq!(merged.find(1003), Some(big_texts[3].as_bytes()));
    }

    #[test]
    fn a_file_that_is_no_whole_pack_is_removed_when_packs_are_merged() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("v2");
        let good = write(&dir, &[(1, b"one")]);
        let cut = dir.join("000000000000000000000001-cut.pack");
        std::fs::write(&cut, b"evtpack1 cut short").unwrap();
        let empty = dir.join("000000000000000000000002-empty.pack");
        std::fs::write(&empty, b"").unwrap();
        // Not a file that can be mapped: nothing is known of it, and it is left alone.
        let folder = dir.join("000000000000000000000003-folder.pack");
        std::fs::create_dir(&folder).unwrap();
        let pruned = compact(root.path(), &dir, u64::MAX, true, &HashSet::new(), now_secs()).unwrap();
        assert_eq!(pruned.removed, 2);
        assert!(!cut.exists() && !empty.exists() && !good.exists() && folder.is_dir());
        let merged: Vec<PathBuf> = list(&dir).into_iter().filter(|p| p.is_file()).collect();
        let [merged] = merged.try_into().unwrap();
        assert_eq!(open(&merged).unwrap().find(1), Some(&b"one"[..]));
    }

    /// Whatever byte is damaged or wherever the pack is cut, opening and searching it never
    /// panics, and what a lookup finds is an entry's bytes as written or bytes the entry's
    /// own checks refuse (a damaged row can point anywhere inside the entries).
    #[test]
    fn any_damaged_byte_is_opened_and_searched_without_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let texts: Vec<String> = (0..5).map(|i| format!("entry number {i}")).collect();
        let entries: Vec<(u128, &[u8])> =
            texts.iter().enumerate().map(|(i, t)| (i as u128 * 77, t.as_bytes())).collect();
        let path = write(dir.path(), &entries);
        let good = std::fs::read(&path).unwrap();
        let (index_at, _) = frame::index(&good, MAGIC, INDEX_ROW).unwrap();
        let damaged = dir.path().join("damaged.pack");
        let check = |bytes: &[u8]| {
            std::fs::write(&damaged, bytes).unwrap();
            let Some(pack) = open(&damaged) else { return };
            for (hash, _) in &entries {
                if let Some(found) = pack.find(*hash) {
                    // Never the index or the footer: a row points inside the entries.
                    assert!(found.len() <= index_at - MAGIC.len(), "{} bytes found", found.len());
                }
            }
            assert!(pack.rows().all(|row| row.offset >= MAGIC.len() && row.offset + row.len <= index_at));
            let _ = pack.index_intact();
        };
        for at in 0..good.len() {
            let mut bytes = good.clone();
            bytes[at] ^= 0xA5;
            check(&bytes);
        }
        for cut in 0..good.len() {
            check(&good[..cut]);
        }
    }
}
