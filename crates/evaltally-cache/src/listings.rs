//! Folder listings kept for the walk ([`evaltally_format::walk::Listings`]): a folder whose
//! device, inode and times are those its listing was stored with is not read again (the
//! files in it are still looked at one by one, so a file changed in place is seen).
//!
//! One file, `listings` beside the packs, read whole on the first lookup:
//!
//! ```text
//! b"evtlist1"
//! u32 folders; per folder:
//!   u32 length, path bytes; u64 device, u64 inode,
//!   u64 low + u64 high of the modification and status-change times (i128 nanoseconds),
//!   u32 entries; per entry: u8 kind, u32 length, name bytes
//! u64 XXH3 of everything before
//! ```
//!
//! A process that read folders writes the file again (a temporary file renamed into place):
//! the listings it took first, then those it used, then the others, up to [`LIMIT`] bytes.
//! A damaged or foreign file counts as empty and is replaced on the next write.

use std::collections::HashSet;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use evaltally_format::walk::{EntryKind, FolderStamp, Listing};

use crate::codec::{Reader, Writer, is_path, path_from};

const MAGIC: &[u8; 8] = b"evtlist1";

/// The listings file is kept under this size: 16 MiB holds about a hundred thousand
/// folders of a few result files each.
pub(crate) const LIMIT: usize = 16 << 20;

/// The file's name in the cache's layout folder.
const FILE: &str = "listings";

/// One stored folder: where its path and its entries lie in the file, and its stamp.
struct Record {
    path: Range<usize>,
    stamp: FolderStamp,
    entries: Range<usize>,
}

/// The file as read: its bytes, its folders indexed by the hash of their paths' bytes (a
/// `Path` hashes component by component), and which of them this process used.
#[derive(Default)]
struct Stored {
    bytes: Vec<u8>,
    records: Vec<Record>,
    index: hashbrown::HashTable<usize>,
    used: Vec<AtomicBool>,
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored")
            .field("bytes", &self.bytes.len())
            .field("folders", &self.records.len())
            .finish_non_exhaustive()
    }
}

fn hash(path: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(path)
}

impl Stored {
    fn read(path: &Path) -> Self {
        let Ok(bytes) = std::fs::read(path) else { return Self::default() };
        let Some(records) = index(&bytes) else { return Self::default() };
        let mut table = hashbrown::HashTable::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            table.insert_unique(hash(&bytes[r.path.clone()]), i, |&j| hash(&bytes[records[j].path.clone()]));
        }
        let used = records.iter().map(|_| AtomicBool::new(false)).collect();
        Self { bytes, records, index: table, used }
    }

    fn get(&self, path: &[u8]) -> Option<usize> {
        self.index.find(hash(path), |&i| &self.bytes[self.records[i].path.clone()] == path).copied()
    }

    /// The path of folder `i`.
    fn path(&self, i: usize) -> Option<PathBuf> {
        path_from(&self.bytes[self.records[i].path.clone()])
    }

    fn listing(&self, i: usize) -> Option<Listing> {
        decode_entries(&mut Reader::new(&self.bytes[self.records[i].entries.clone()]))
    }
}

/// The listings as stored, and what this process took.
#[derive(Debug, Default)]
pub(crate) struct Store {
    stored: OnceLock<Stored>,
    taken: Mutex<Vec<(PathBuf, FolderStamp, Listing)>>,
}

impl Store {
    /// The stored listings, read from the layout folder `dir()` the first time.
    fn stored(&self, dir: impl FnOnce() -> PathBuf) -> &Stored {
        self.stored.get_or_init(|| Stored::read(&dir().join(FILE)))
    }

    /// The listing stored for `folder` with `stamp`, if any (`dir`: the layout folder).
    pub(crate) fn find(&self, dir: impl FnOnce() -> PathBuf, folder: &Path, stamp: &FolderStamp) -> Option<Listing> {
        let stored = self.stored(dir);
        let i = stored.get(folder.as_os_str().as_encoded_bytes())?;
        if stored.records[i].stamp != *stamp {
            return None;
        }
        let listing = stored.listing(i)?;
        stored.used[i].store(true, Ordering::Relaxed);
        Some(listing)
    }

    /// Keeps a listing just taken, to be written by [`Store::write`].
    pub(crate) fn keep(&self, folder: &Path, stamp: &FolderStamp, listing: &Listing) {
        self.taken.lock().unwrap_or_else(PoisonError::into_inner).push((folder.to_path_buf(), *stamp, listing.clone()));
    }

    /// Writes the file again when listings were taken since the last write (else does
    /// nothing): those, then the stored ones used, then the others, while the file stays
    /// under [`LIMIT`].
    pub(crate) fn write(&self, dir: &Path) -> std::io::Result<()> {
        let taken = std::mem::take(&mut *self.taken.lock().unwrap_or_else(PoisonError::into_inner));
        if taken.is_empty() {
            return Ok(());
        }
        let stored = self.stored(|| dir.to_path_buf());
        let fresh: HashSet<&[u8]> = taken.iter().map(|(p, _, _)| p.as_os_str().as_encoded_bytes()).collect();
        let mut old: Vec<(bool, &[u8], usize)> = (0..stored.records.len())
            .map(|i| (stored.used[i].load(Ordering::Relaxed), &stored.bytes[stored.records[i].path.clone()], i))
            .filter(|(_, path, _)| !fresh.contains(path))
            .collect();
        // Used ones first; then by path, so the file does not depend on the order read.
        old.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let old: Vec<(PathBuf, FolderStamp, Listing)> = old
            .into_iter()
            .filter_map(|(_, _, i)| Some((stored.path(i)?, stored.records[i].stamp, stored.listing(i)?)))
            .collect();
        let bytes = encode(taken.iter().chain(&old).map(|(p, s, l)| (p, s, l)));
        crate::folder::make_dir(dir)?;
        let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
        tmp.write_all(&bytes)?;
        tmp.persist(dir.join(FILE)).map_err(|e| e.error)?;
        Ok(())
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
fn encode<'a>(folders: impl Iterator<Item = (&'a PathBuf, &'a FolderStamp, &'a Listing)>) -> Vec<u8> {
    let mut body = Vec::new();
    let mut count = 0;
    let mut one = Vec::new();
    for (path, stamp, listing) in folders {
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
        if MAGIC.len() + 4 + body.len() + one.len() + 8 > LIMIT {
            break;
        }
        body.extend_from_slice(&one);
        count += 1;
    }
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + body.len() + 8);
    out.extend_from_slice(MAGIC);
    Writer::new(&mut out).u32(count);
    out.extend_from_slice(&body);
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Where each folder of a file lies; `None` for anything but a whole listings file.
fn index(bytes: &[u8]) -> Option<Vec<Record>> {
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(8)?);
    if u64::from_le_bytes(sum.try_into().ok()?) != xxhash_rust::xxh3::xxh3_64(body) {
        return None;
    }
    let mut r = Reader::new(body);
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let n = r.count(4 + 8 * 6 + 4)?;
    let at = |r: &Reader<'_>| body.len() - r.rest_len();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let path_len = r.u32()?;
        let path = at(&r)..at(&r) + path_len;
        r.take(path_len)?;
        let (device, inode) = (r.u64()?, r.u64()?);
        let mut time = || -> Option<i128> {
            let (low, high) = (r.u64()?, r.u64()?);
            #[allow(clippy::cast_possible_wrap)] // the two halves
            Some((i128::from(high as i64) << 64) | i128::from(low))
        };
        let (modified, changed) = (time()?, time()?);
        // Checked here, decoded on a hit (most folders of a file are never looked up).
        let start = at(&r);
        each_entry(&mut r, |_, name| is_path(name).then_some(()))?;
        out.push(Record { path, stamp: FolderStamp { device, inode, modified, changed }, entries: start..at(&r) });
    }
    r.is_empty().then_some(out)
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

/// One folder's entries.
fn decode_entries(r: &mut Reader<'_>) -> Option<Listing> {
    let mut listing = Listing::default();
    each_entry(r, |kind, name| {
        listing.entries.push((path_from(name)?.into_os_string(), kind));
        Some(())
    })?;
    Some(listing)
}

/// The folders a file holds; `None` for anything but a whole listings file.
#[cfg(test)]
fn decode(bytes: &[u8]) -> Option<std::collections::HashMap<PathBuf, (FolderStamp, Listing)>> {
    let stored = Stored { records: index(bytes)?, bytes: bytes.to_vec(), ..Stored::default() };
    (0..stored.records.len()).map(|i| Some((stored.path(i)?, (stored.records[i].stamp, stored.listing(i)?)))).collect()
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
        assert!(decode(&flipped).is_none());
        assert!(decode(b"evtpack1 not a listing").is_none());
    }
}
