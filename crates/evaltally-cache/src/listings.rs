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

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use evaltally_format::walk::{EntryKind, FolderStamp, Listing};

use crate::codec::{Reader, Writer};

const MAGIC: &[u8; 8] = b"evtlist1";

/// The listings file is kept under this size: 16 MiB holds about a hundred thousand
/// folders of a few result files each.
pub(crate) const LIMIT: usize = 16 << 20;

/// The file's name in the cache's layout folder.
const FILE: &str = "listings";

/// The listings as stored, and what this process took and used.
#[derive(Debug, Default)]
pub(crate) struct Store {
    stored: OnceLock<HashMap<PathBuf, (FolderStamp, Listing)>>,
    taken: Mutex<Vec<(PathBuf, FolderStamp, Listing)>>,
    used: Mutex<HashSet<PathBuf>>,
}

impl Store {
    /// The stored listings, read from the layout folder `dir()` the first time.
    fn stored(&self, dir: impl FnOnce() -> PathBuf) -> &HashMap<PathBuf, (FolderStamp, Listing)> {
        self.stored.get_or_init(|| std::fs::read(dir().join(FILE)).ok().and_then(|b| decode(&b)).unwrap_or_default())
    }

    /// The listing stored for `folder` with `stamp`, if any (`dir`: the layout folder).
    pub(crate) fn find(&self, dir: impl FnOnce() -> PathBuf, folder: &Path, stamp: &FolderStamp) -> Option<Listing> {
        let (stored, listing) = self.stored(dir).get(folder)?;
        if stored != stamp {
            return None;
        }
        self.used.lock().unwrap_or_else(PoisonError::into_inner).insert(folder.to_path_buf());
        Some(listing.clone())
    }

    /// Keeps a listing just taken, to be written by [`Store::write`].
    pub(crate) fn keep(&self, folder: &Path, stamp: &FolderStamp, listing: &Listing) {
        self.taken.lock().unwrap_or_else(PoisonError::into_inner).push((folder.to_path_buf(), *stamp, listing.clone()));
    }

    /// Whether listings were taken since the last write.
    pub(crate) fn has_taken(&self) -> bool {
        !self.taken.lock().unwrap_or_else(PoisonError::into_inner).is_empty()
    }

    /// Writes the file again when listings were taken: those, then the stored ones used,
    /// then the others, while the file stays under [`LIMIT`].
    pub(crate) fn write(&self, dir: &Path) -> std::io::Result<()> {
        let taken = std::mem::take(&mut *self.taken.lock().unwrap_or_else(PoisonError::into_inner));
        if taken.is_empty() {
            return Ok(());
        }
        let stored = self.stored(|| dir.to_path_buf());
        let used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let fresh: HashSet<&Path> = taken.iter().map(|(p, _, _)| p.as_path()).collect();
        let mut old: Vec<(&PathBuf, &(FolderStamp, Listing))> =
            stored.iter().filter(|(p, _)| !fresh.contains(p.as_path())).collect();
        // Used ones first; then by path, so the file does not depend on map order.
        old.sort_by(|a, b| used.contains(b.0).cmp(&used.contains(a.0)).then_with(|| a.0.cmp(b.0)));
        let folders = taken.iter().map(|(p, s, l)| (p, s, l)).chain(old.into_iter().map(|(p, (s, l))| (p, s, l)));
        let bytes = encode(folders);
        std::fs::create_dir_all(dir)?;
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

/// The folders a file holds; `None` for anything but a whole listings file.
fn decode(bytes: &[u8]) -> Option<HashMap<PathBuf, (FolderStamp, Listing)>> {
    let (body, sum) = bytes.split_at(bytes.len().checked_sub(8)?);
    if u64::from_le_bytes(sum.try_into().ok()?) != xxhash_rust::xxh3::xxh3_64(body) {
        return None;
    }
    let mut r = Reader::new(body);
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let n = r.count(4 + 8 * 6 + 4)?;
    let mut out = HashMap::with_capacity(n);
    for _ in 0..n {
        let path = r.path()?;
        let (device, inode) = (r.u64()?, r.u64()?);
        let mut time = || -> Option<i128> {
            let (low, high) = (r.u64()?, r.u64()?);
            #[allow(clippy::cast_possible_wrap)] // the two halves
            Some((i128::from(high as i64) << 64) | i128::from(low))
        };
        let (modified, changed) = (time()?, time()?);
        let entries = r.count(1 + 4)?;
        let mut listing = Listing { entries: Vec::with_capacity(entries) };
        for _ in 0..entries {
            let kind = kind_from(r.u8()?)?;
            listing.entries.push((r.path()?.into_os_string(), kind));
        }
        out.insert(path, (FolderStamp { device, inode, modified, changed }, listing));
    }
    r.is_empty().then_some(out)
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
