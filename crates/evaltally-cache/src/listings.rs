//! Folder listings kept for the walk ([`evaltally_format::walk::Listings`]): a folder whose
//! device, inode and times are those its listing was stored with is not read again (the
//! files in it are still looked at one by one, so a file changed in place is seen).
//!
//! Files beside the packs, `<time>-<random>.listings`, each mapped on the first lookup and
//! searched in place:
//!
//! ```text
//! b"evtlist2"
//! per folder, back to back:
//!   u32 length, path bytes; u64 device, u64 inode,
//!   u64 low + u64 high of the modification and status-change times (i128 nanoseconds),
//!   u32 entries; per entry: u8 kind, u32 length, name bytes
//!   u64 XXH3 of the folder's bytes before
//! index: per folder u64 XXH3 of the path bytes, u64 offset, u64 length (with the checksum),
//!        sorted by hash
//! u64 folders, u64 index offset, u64 XXH3 of the index
//! b"evtlist2"
//! ```
//!
//! A lookup is a binary search of each file's index, newest file first (the newest that
//! holds a folder decides), and the check of one folder's checksum, so it costs the same
//! whether the files hold ten folders or a hundred thousand: a walk of a few folders does
//! not read what the cache keeps for all the others.
//!
//! A process that listed folders writes what it listed as a new file (a temporary file
//! renamed into place, so a mapping never sees a file change), at the cost of those
//! folders alone. Past [`MAX_FILES`] files it merges the newest ones instead, as packs are
//! merged (`pack::newest_to_merge`: large old files stay as they are), and past [`LIMIT`]
//! bytes all of them: the listings it took first, then those it used, then the others,
//! newest first, while they fit. Stored folders are copied as they are, their checksums
//! checked. A damaged or foreign file counts as empty and is removed when it is merged; a
//! damaged folder is not found, and is left out of the next merge.

use std::collections::HashSet;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use evaltally_format::walk::{EntryKind, FolderStamp, Listing};

use crate::codec::{Reader, Writer, is_path, path_from};
use crate::frame::{self, u64_at};

const MAGIC: &[u8; 8] = b"evtlist2";

/// One index row: path hash, offset, length.
const ROW: usize = 8 * 3;

/// The listings files are kept under this size together: 24 MiB hold about a hundred
/// thousand folders of a few result files each (a SWE-bench instance's folder, with its
/// checksum and index row, takes about 210 bytes). Only a merge reads them whole.
pub(crate) const LIMIT: usize = 24 << 20;

/// More listings files than this are merged.
pub(crate) const MAX_FILES: usize = 8;

/// The extension of listings files in the cache's layout folder.
const EXTENSION: &str = "listings";

/// Removes the oldest listings files (their names start with the time they were written)
/// while the packs and the listings in `dir` together pass `limit`: they only save a walk
/// the listing of folders, which it does again. Returns the files removed and their bytes.
pub(crate) fn trim(dir: &Path, limit: u64) -> std::io::Result<(u64, u64)> {
    let mut packs = 0u64;
    let mut listings: Vec<(std::ffi::OsString, u64)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Ok(meta) = entry.metadata() else { continue };
        let path = entry.path();
        match path.extension().and_then(|e| e.to_str()) {
            Some(EXTENSION) => listings.push((entry.file_name(), meta.len())),
            Some("pack") => packs += meta.len(),
            _ => {}
        }
    }
    listings.sort();
    let mut total = packs + listings.iter().map(|(_, size)| size).sum::<u64>();
    let (mut removed, mut freed) = (0, 0);
    for (name, size) in listings {
        if total <= limit {
            break;
        }
        // Another process may have merged it away already.
        if std::fs::remove_file(dir.join(&name)).is_ok() {
            removed += 1;
            freed += size;
        }
        total -= size;
    }
    Ok((removed, freed))
}

/// One stored folder, read in place: its path's bytes, its stamp, and its entries' bytes
/// (decoded on a hit only).
struct Record<'a> {
    path: &'a [u8],
    stamp: FolderStamp,
    entries: &'a [u8],
}

/// One file as mapped, and which of its folders this process used (by index row).
struct Stored {
    bytes: Box<dyn Deref<Target = [u8]> + Send + Sync>,
    index_at: usize,
    count: usize,
    used: Vec<AtomicBool>,
    /// Where it is, and its size (a damaged file holds nothing but is still counted, and
    /// removed when merged).
    path: PathBuf,
    size: u64,
}

impl Default for Stored {
    fn default() -> Self {
        Self { bytes: Box::new(Vec::new()), index_at: 0, count: 0, used: Vec::new(), path: PathBuf::new(), size: 0 }
    }
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored").field("bytes", &self.bytes.len()).field("folders", &self.count).finish_non_exhaustive()
    }
}

fn hash(path: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(path)
}

impl Stored {
    /// The file at `path`: `None` when it cannot be opened or mapped (gone, or out of
    /// descriptors or memory: it is left alone), empty when it is no listings file (it is
    /// removed when merged).
    fn read(path: &Path) -> Option<Self> {
        let empty = |size| Self { path: path.to_path_buf(), size, ..Self::default() };
        match frame::map(path) {
            frame::Mapped::Bytes(map, size) => Some(match Self::parse(Box::new(map)) {
                Some(stored) => Self { path: path.to_path_buf(), size, ..stored },
                None => empty(size),
            }),
            frame::Mapped::Empty => Some(empty(0)),
            frame::Mapped::Unreadable => None,
        }
    }

    /// The file in `bytes`; `None` for anything but a whole listings file (its ends and
    /// index in place; each folder is checked when it is looked at).
    fn parse(bytes: Box<dyn Deref<Target = [u8]> + Send + Sync>) -> Option<Self> {
        let (index_at, count) = frame::index(&bytes, MAGIC, ROW)?;
        let used = (0..count).map(|_| AtomicBool::new(false)).collect();
        Some(Self { bytes, index_at, count, used, ..Self::default() })
    }

    fn hash_at(&self, i: usize) -> u64 {
        u64_at(&self.bytes, self.index_at + i * ROW).unwrap_or(0)
    }

    /// The bytes of folder `i` (by index row) with their checksum, when they are whole.
    fn raw(&self, i: usize) -> Option<&[u8]> {
        let row = self.index_at + i * ROW;
        let offset = usize::try_from(u64_at(&self.bytes, row + 8)?).ok()?;
        let len = usize::try_from(u64_at(&self.bytes, row + 16)?).ok()?;
        if offset < MAGIC.len() || offset.checked_add(len)? > self.index_at {
            return None;
        }
        let raw = self.bytes.get(offset..offset + len)?;
        let (body, sum) = raw.split_at(len.checked_sub(8)?);
        (u64::from_le_bytes(sum.try_into().ok()?) == xxhash_rust::xxh3::xxh3_64(body)).then_some(raw)
    }

    /// Folder `i` (by index row), when its bytes are whole.
    fn record(&self, i: usize) -> Option<Record<'_>> {
        let raw = self.raw(i)?;
        parse_record(&raw[..raw.len() - 8])
    }

    /// The stored folder at `path`, and its index row.
    fn find(&self, path: &[u8]) -> Option<(usize, Record<'_>)> {
        let h = hash(path);
        // The first row whose hash is not below `h`; rows of one hash are next to each other.
        let first = frame::first_row(self.count, |i| self.hash_at(i) >= h);
        (first..self.count)
            .take_while(|&i| self.hash_at(i) == h)
            .find_map(|i| self.record(i).filter(|r| r.path == path).map(|r| (i, r)))
    }
}

/// A folder's bytes (without the checksum) read in place; `None` when they are malformed.
fn parse_record(body: &[u8]) -> Option<Record<'_>> {
    let mut r = Reader::new(body);
    let path = r.bytes()?;
    let (device, inode) = (r.u64()?, r.u64()?);
    let mut time = || -> Option<i128> {
        let (low, high) = (r.u64()?, r.u64()?);
        #[allow(clippy::cast_possible_wrap)] // the two halves
        Some((i128::from(high as i64) << 64) | i128::from(low))
    };
    let (modified, changed) = (time()?, time()?);
    Some(Record { path, stamp: FolderStamp { device, inode, modified, changed }, entries: r.rest() })
}

/// The listings as stored, and what this process took.
#[derive(Debug, Default)]
pub(crate) struct Store {
    /// The files, oldest first.
    stored: OnceLock<Vec<Stored>>,
    taken: Mutex<Vec<(PathBuf, FolderStamp, Listing)>>,
}

impl Store {
    /// The stored listings, mapped from the layout folder `dir()` the first time.
    fn stored(&self, dir: impl FnOnce() -> PathBuf) -> &[Stored] {
        self.stored
            .get_or_init(|| crate::files::by_time(&dir(), EXTENSION).iter().filter_map(|p| Stored::read(p)).collect())
    }

    /// The listing stored for `folder` with `stamp`, if any (`dir`: the layout folder). The
    /// newest file that holds the folder decides.
    pub(crate) fn find(&self, dir: impl FnOnce() -> PathBuf, folder: &Path, stamp: &FolderStamp) -> Option<Listing> {
        let path = folder.as_os_str().as_encoded_bytes();
        let (file, i, record) =
            self.stored(dir).iter().rev().find_map(|file| file.find(path).map(|(i, record)| (file, i, record)))?;
        if record.stamp != *stamp {
            return None;
        }
        let listing = decode_entries(record.entries)?;
        file.used[i].store(true, Ordering::Relaxed);
        Some(listing)
    }

    /// Keeps a listing just taken, to be written by [`Store::write`].
    pub(crate) fn keep(&self, folder: &Path, stamp: &FolderStamp, listing: &Listing) {
        self.taken.lock().unwrap_or_else(PoisonError::into_inner).push((folder.to_path_buf(), *stamp, listing.clone()));
    }

    /// Writes the listings taken since the last write (if any) as a new file, or, past
    /// [`MAX_FILES`] files or [`LIMIT`] bytes, merges them with the newest files (all of
    /// them, past the limit): the taken ones (by path), then the stored ones used, then the
    /// others (newest file first, each in index order), while they fit under [`LIMIT`].
    pub(crate) fn write(&self, dir: &Path) -> std::io::Result<()> {
        let mut taken = std::mem::take(&mut *self.taken.lock().unwrap_or_else(PoisonError::into_inner));
        if taken.is_empty() {
            return Ok(());
        }
        taken.sort_by(|a, b| a.0.as_os_str().as_encoded_bytes().cmp(b.0.as_os_str().as_encoded_bytes()));
        taken.dedup_by(|a, b| a.0 == b.0);
        let stored = self.stored(|| dir.to_path_buf());
        let mut file = FileWriter::default();
        let mut full = false;
        for (path, stamp, listing) in &taken {
            full = full || !file.push_new(path, stamp, listing);
        }
        let mut sizes: Vec<u64> = stored.iter().map(|f| f.size).collect();
        sizes.push(file.body.len() as u64);
        let total: u64 = sizes.iter().sum();
        let from = if total > LIMIT as u64 {
            0
        } else if sizes.len() > MAX_FILES {
            crate::pack::newest_to_merge(&sizes)
        } else {
            stored.len()
        };
        let merged = &stored[from.min(stored.len())..];
        let mut seen: HashSet<&[u8]> = taken.iter().map(|(p, _, _)| p.as_os_str().as_encoded_bytes()).collect();
        'copy: for pass_used in [true, false] {
            for stored_file in merged.iter().rev() {
                for i in (0..stored_file.count).filter(|&i| stored_file.used[i].load(Ordering::Relaxed) == pass_used) {
                    if full {
                        break 'copy;
                    }
                    let Some(raw) = stored_file.raw(i) else { continue };
                    let Some(record) = parse_record(&raw[..raw.len() - 8]) else { continue };
                    if seen.insert(record.path) {
                        full = !file.push_raw(hash(record.path), raw);
                    }
                }
            }
        }
        crate::files::write_by_time(dir, &file.finish(), EXTENSION)?;
        for old in merged {
            // Another process may have merged it already.
            let _ = std::fs::remove_file(&old.path);
        }
        Ok(())
    }
}

/// A listings file being made: folders appended while they fit under [`LIMIT`], then the
/// sorted index.
struct FileWriter {
    body: Vec<u8>,
    /// (path hash, offset, length) per folder.
    rows: Vec<(u64, u64, u64)>,
    one: Vec<u8>,
}

impl Default for FileWriter {
    fn default() -> Self {
        Self { body: MAGIC.to_vec(), rows: Vec::new(), one: Vec::new() }
    }
}

impl FileWriter {
    /// Appends a folder's bytes (with their checksum) unless the file would pass
    /// [`LIMIT`]; says whether it did.
    fn push_raw(&mut self, path_hash: u64, raw: &[u8]) -> bool {
        // The index and the footer (three u64) and the closing magic follow.
        if self.body.len() + raw.len() + (self.rows.len() + 1) * ROW + 8 * 3 + MAGIC.len() > LIMIT {
            return false;
        }
        self.rows.push((path_hash, self.body.len() as u64, raw.len() as u64));
        self.body.extend_from_slice(raw);
        true
    }

    /// Appends a folder just listed, as [`push_raw`](Self::push_raw) does.
    fn push_new(&mut self, path: &Path, stamp: &FolderStamp, listing: &Listing) -> bool {
        let mut one = std::mem::take(&mut self.one);
        one.clear();
        let mut w = Writer::new(&mut one);
        w.path(path);
        w.u64(stamp.device);
        w.u64(stamp.inode);
        for t in [stamp.modified, stamp.changed] {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // the two halves
            {
                w.u64(t as u64);
                w.u64((t >> 64) as u64);
            }
        }
        w.u32(listing.entries.len());
        for (name, kind) in &listing.entries {
            w.u8(kind_byte(*kind));
            w.path(Path::new(name));
        }
        let sum = xxhash_rust::xxh3::xxh3_64(&one);
        one.extend_from_slice(&sum.to_le_bytes());
        let pushed = self.push_raw(hash(path.as_os_str().as_encoded_bytes()), &one);
        self.one = one;
        pushed
    }

    /// The whole file.
    fn finish(mut self) -> Vec<u8> {
        self.rows.sort_unstable();
        let index_at = self.body.len();
        for (h, offset, len) in &self.rows {
            for v in [h, offset, len] {
                self.body.extend_from_slice(&v.to_le_bytes());
            }
        }
        frame::close(&mut self.body, MAGIC, index_at, index_at as u64, self.rows.len() as u64);
        self.body
    }
}

fn kind_byte(kind: EntryKind) -> u8 {
    match kind {
        EntryKind::File => 0,
        EntryKind::Folder => 1,
        EntryKind::Link => 2,
        EntryKind::Other => 3,
    }
}

fn kind_from(byte: u8) -> Option<EntryKind> {
    Some(match byte {
        0 => EntryKind::File,
        1 => EntryKind::Folder,
        2 => EntryKind::Link,
        3 => EntryKind::Other,
        _ => return None,
    })
}

/// The file's bytes for `folders`, in order, as many as fit under [`LIMIT`].
#[cfg(test)]
fn encode<'a>(folders: impl Iterator<Item = (&'a PathBuf, &'a FolderStamp, &'a Listing)>) -> Vec<u8> {
    let mut file = FileWriter::default();
    for (path, stamp, listing) in folders {
        if !file.push_new(path, stamp, listing) {
            break;
        }
    }
    file.finish()
}

/// Reads one folder's entries, giving each one's kind and name bytes to `each`; `None` when
/// they are malformed or `each` refuses one.
fn each_entry<'a>(r: &mut Reader<'a>, mut each: impl FnMut(EntryKind, &'a [u8]) -> Option<()>) -> Option<()> {
    for _ in 0..r.count(1 + 4)? {
        let kind = kind_from(r.u8()?)?;
        each(kind, r.bytes()?)?;
    }
    Some(())
}

/// One folder's entries, from all of `bytes`.
fn decode_entries(bytes: &[u8]) -> Option<Listing> {
    let mut r = Reader::new(bytes);
    let mut listing = Listing::default();
    each_entry(&mut r, |kind, name| {
        is_path(name).then_some(())?;
        listing.entries.push((path_from(name)?.into_os_string(), kind));
        Some(())
    })?;
    r.is_empty().then_some(listing)
}

/// The whole folders a file holds; `None` for anything but a listings file.
#[cfg(test)]
fn decode(bytes: &[u8]) -> Option<std::collections::HashMap<PathBuf, (FolderStamp, Listing)>> {
    let stored = Stored::parse(Box::new(bytes.to_vec()))?;
    Some(
        (0..stored.count)
            .filter_map(|i| {
                let record = stored.record(i)?;
                Some((path_from(record.path)?, (record.stamp, decode_entries(record.entries)?)))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(names: &[(&str, EntryKind)]) -> Listing {
        Listing { entries: names.iter().map(|(n, k)| ((*n).into(), *k)).collect() }
    }

    fn stamp(n: i128) -> FolderStamp {
        FolderStamp { device: 7, inode: 9, modified: -n, changed: n << 70 }
    }

    #[test]
    fn trimming_removes_the_oldest_listings_until_the_limit_holds() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("0001-a.pack"), [0; 50]).unwrap();
        for name in ["0002-old.listings", "0003-mid.listings", "0004-new.listings"] {
            std::fs::write(dir.path().join(name), [0; 20]).unwrap();
        }
        // 50 + 3·20 = 110 bytes: within 110 nothing goes; under 100, the oldest; under 70,
        // the two oldest.
        assert_eq!(trim(dir.path(), 110).unwrap(), (0, 0));
        assert_eq!(trim(dir.path(), 100).unwrap(), (1, 20));
        assert!(!dir.path().join("0002-old.listings").exists());
        assert_eq!(trim(dir.path(), 70).unwrap(), (1, 20));
        assert!(dir.path().join("0004-new.listings").exists() && dir.path().join("0001-a.pack").exists());
    }

    #[test]
    fn listings_come_back_as_they_went_in() {
        let a =
            (PathBuf::from("runs/a"), stamp(3), listing(&[("x.json", EntryKind::File), ("sub", EntryKind::Folder)]));
        let b = (PathBuf::from("runs/b"), stamp(4), listing(&[("l", EntryKind::Link), ("p", EntryKind::Other)]));
        let empty = (PathBuf::from("runs/c"), stamp(5), Listing::default());
        let all = [&a, &b, &empty];
        let bytes = encode(all.iter().map(|(p, s, l)| (p, s, l)));
        let back = decode(&bytes).unwrap();
        assert_eq!(back.len(), 3);
        for (p, s, l) in all {
            assert_eq!(back[p], (*s, l.clone()));
        }
    }

    #[test]
    fn a_damaged_or_foreign_file_holds_nothing() {
        let a = (PathBuf::from("a"), stamp(1), listing(&[("x", EntryKind::File)]));
        let bytes = encode(std::iter::once((&a.0, &a.1, &a.2)));
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[12] ^= 1;
        assert_eq!(decode(&flipped).map(|found| found.len()), Some(0), "a damaged folder is not found");
        assert!(decode(b"evtpack1 not a listing").is_none());
    }

    #[test]
    fn each_of_many_folders_is_found_in_place_and_a_damaged_one_alone_is_lost() {
        let folders: Vec<(PathBuf, FolderStamp, Listing)> = (0..500)
            .map(|i| (PathBuf::from(format!("runs/run-{i}")), stamp(i), listing(&[("r.json", EntryKind::File)])))
            .collect();
        let mut bytes = encode(folders.iter().map(|(p, s, l)| (p, s, l)));
        let stored = Stored::parse(Box::new(bytes.clone())).unwrap();
        let hashes: Vec<u64> = (0..stored.count).map(|i| stored.hash_at(i)).collect();
        assert!(hashes.is_sorted(), "the index is sorted by hash");
        for (path, stamp, listing) in &folders {
            let (_, record) = stored.find(path.as_os_str().as_encoded_bytes()).unwrap();
            assert_eq!((record.stamp, decode_entries(record.entries).unwrap()), (*stamp, listing.clone()));
        }
        assert!(stored.find(b"runs/run-500").is_none());
        // Damage the bytes of run-7's folder: only that one is lost.
        let (i, _) = stored.find(b"runs/run-7").unwrap();
        let offset = usize::try_from(u64_at(&bytes, stored.index_at + i * ROW + 8).unwrap()).unwrap();
        bytes[offset + 6] ^= 0x20;
        let damaged = Stored::parse(Box::new(bytes)).unwrap();
        assert!(damaged.find(b"runs/run-7").is_none());
        assert_eq!(
            folders.iter().filter(|(p, _, _)| damaged.find(p.as_os_str().as_encoded_bytes()).is_some()).count(),
            499
        );
    }

    /// The listings files in `dir`, decoded, oldest first.
    fn files(dir: &Path) -> Vec<std::collections::HashMap<PathBuf, (FolderStamp, Listing)>> {
        crate::files::by_time(dir, EXTENSION).iter().map(|p| decode(&std::fs::read(p).unwrap()).unwrap()).collect()
    }

    fn write_one(dir: &Path, folders: &[(PathBuf, FolderStamp, Listing)]) {
        crate::files::write_by_time(dir, &encode(folders.iter().map(|(p, s, l)| (p, s, l))), EXTENSION).unwrap();
    }

    #[test]
    fn a_write_adds_a_file_of_what_was_listed_and_the_newest_file_decides() {
        let dir = tempfile::tempdir().unwrap();
        let old: Vec<(PathBuf, FolderStamp, Listing)> =
            (0..3).map(|i| (PathBuf::from(format!("old-{i}")), stamp(i), listing(&[("a", EntryKind::File)]))).collect();
        write_one(dir.path(), &old);
        let store = Store::default();
        assert!(store.find(|| dir.path().to_path_buf(), Path::new("old-1"), &stamp(1)).is_some());
        // `old-2` listed again with new times, and a new folder.
        store.keep(Path::new("old-2"), &stamp(9), &listing(&[("b", EntryKind::Folder)]));
        store.keep(Path::new("new"), &stamp(8), &Listing::default());
        store.write(dir.path()).unwrap();
        let files = files(dir.path());
        assert_eq!(files.len(), 2, "the old file stays as it is");
        assert_eq!(files[0].len(), 3);
        let mut names: Vec<&PathBuf> = files[1].keys().collect();
        names.sort();
        assert_eq!(names, [Path::new("new"), Path::new("old-2")], "only what was listed");
        let later = Store::default();
        let find = |path: &str, s: i128| later.find(|| dir.path().to_path_buf(), Path::new(path), &stamp(s));
        assert_eq!(find("old-2", 9), Some(listing(&[("b", EntryKind::Folder)])));
        assert_eq!(find("old-2", 2), None, "the newest file decides");
        assert_eq!(find("old-0", 0), Some(listing(&[("a", EntryKind::File)])));
        assert_eq!(find("new", 8), Some(Listing::default()));
    }

    #[test]
    fn past_eight_files_the_newest_are_merged_and_the_newest_of_each_folder_kept() {
        let dir = tempfile::tempdir().unwrap();
        // A large old file, then seven small ones; `f-3` is in two of them.
        let big: Vec<(PathBuf, FolderStamp, Listing)> = (0..200)
            .map(|i| (PathBuf::from(format!("big-{i}")), stamp(i), listing(&[("x", EntryKind::File)])))
            .collect();
        write_one(dir.path(), &big);
        for i in 0..7 {
            write_one(dir.path(), &[(PathBuf::from(format!("f-{i}")), stamp(i), Listing::default())]);
        }
        write_one(dir.path(), &[(PathBuf::from("f-3"), stamp(33), Listing::default())]);
        let store = Store::default();
        assert!(store.find(|| dir.path().to_path_buf(), Path::new("big-7"), &stamp(7)).is_some());
        store.keep(Path::new("taken"), &stamp(5), &Listing::default());
        store.write(dir.path()).unwrap();
        let files = files(dir.path());
        assert_eq!(files.len(), 2, "the small files and what was taken, merged into one");
        assert_eq!(files[0].len(), 200, "the large old file stays as it is");
        assert_eq!(files[1].len(), 8);
        assert_eq!(files[1][Path::new("f-3")].0, stamp(33), "the newest of a folder is kept");
        assert!(files[1].contains_key(Path::new("taken")));
    }

    /// Whatever byte is damaged or wherever the file is cut, a lookup gives the folder's
    /// listing as stored or nothing, never another listing or a panic.
    #[test]
    fn any_damaged_byte_gives_the_listing_as_stored_or_none() {
        let folders: Vec<(PathBuf, FolderStamp, Listing)> = (0..6usize)
            .map(|i| {
                let names = [("r.json", EntryKind::File), ("sub", EntryKind::Folder), ("l", EntryKind::Link)];
                let at = stamp(i128::try_from(i).unwrap());
                (PathBuf::from(format!("runs/run-{i}")), at, listing(&names[..=i % 3]))
            })
            .collect();
        let good = encode(folders.iter().map(|(p, s, l)| (p, s, l)));
        let check = |bytes: Vec<u8>, what: &str| {
            let Some(stored) = Stored::parse(Box::new(bytes)) else { return };
            for (path, stamp, listing) in &folders {
                if let Some((_, record)) = stored.find(path.as_os_str().as_encoded_bytes()) {
                    let found = decode_entries(record.entries);
                    assert!(
                        found.is_none() || (record.stamp == *stamp && found.as_ref() == Some(listing)),
                        "{what}: {} came back as {found:?}",
                        path.display()
                    );
                }
            }
        };
        for at in 0..good.len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut bytes = good.clone();
                bytes[at] ^= flip;
                check(bytes, &format!("byte {at} ^ {flip:#x}"));
            }
        }
        for cut in 0..good.len() {
            check(good[..cut].to_vec(), &format!("cut at {cut}"));
        }
    }
}
