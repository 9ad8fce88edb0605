//! One entry file: a header naming what it is for, the stamps of the inputs it was read
//! from, the stored reading, and a checksum over all of it.
//!
//! ```text
//! b"evtcache"  u32 version
//! u32 length, identity bytes         (generation, options, the unit as discovered)
//! u32 count, stamps                  (one per input, fixed size)
//! reading                            (codec.rs)
//! u64 XXH3 of everything before
//! ```
//!
//! Entries are written to a temporary file in their folder and renamed into place, so a
//! reader sees a whole old entry, a whole new one, or none; entries are never changed in
//! place, which is what makes mapping them safe.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::codec::{Reader, Writer};
use crate::stamp::{STAMP_LEN, Stamp};

const MAGIC: &[u8; 8] = b"evtcache";

/// Bumped whenever the layout of an entry or of a stored reading changes.
pub(crate) const VERSION: u32 = 1;

/// The folder entries of this layout live in, below the cache's root.
pub(crate) fn layout_dir(root: &Path) -> PathBuf {
    root.join(format!("v{VERSION}"))
}

/// Where the entry for `identity` lives: `v1/<2 hex>/<30 hex>.entry`.
pub(crate) fn path_for(root: &Path, identity: &str) -> PathBuf {
    let hash = xxhash_rust::xxh3::xxh3_128(identity.as_bytes());
    let hex = format!("{hash:032x}");
    layout_dir(root).join(&hex[..2]).join(format!("{}.entry", &hex[2..]))
}

/// The entry's bytes for `identity`, `stamps` and an encoded reading.
pub(crate) fn encode(identity: &str, stamps: &[Stamp], reading: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + identity.len() + stamps.len() * STAMP_LEN + reading.len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut w = Writer::new(&mut out);
    w.bytes(identity.as_bytes());
    w.u32(stamps.len());
    for s in stamps {
        s.encode(&mut out);
    }
    out.extend_from_slice(reading);
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The stored reading's bytes, when `bytes` is a whole entry for `identity` whose stamps
/// equal `stamps`; `None` for anything else (damaged, foreign, another layout, stale).
pub(crate) fn reading<'a>(bytes: &'a [u8], identity: &str, stamps: &[Stamp]) -> Option<&'a [u8]> {
    let body_len = bytes.len().checked_sub(8)?;
    let (body, sum) = bytes.split_at(body_len);
    let mut r = Reader::new(body);
    if r.take(8)? != MAGIC || r.take(4)? != VERSION.to_le_bytes() || r.bytes()? != identity.as_bytes() {
        return None;
    }
    if u64::from_le_bytes(sum.try_into().ok()?) != xxhash_rust::xxh3::xxh3_64(body) {
        return None;
    }
    if r.u32()? != stamps.len() {
        return None;
    }
    let mut expected = Vec::with_capacity(STAMP_LEN);
    for s in stamps {
        expected.clear();
        s.encode(&mut expected);
        if r.take(STAMP_LEN)? != expected.as_slice() {
            return None;
        }
    }
    Some(r.rest())
}

/// Writes `bytes` as the entry at `path`: a temporary file in its folder, renamed over it.
/// Not synced to disk: after a crash an entry may be empty or partly written, which its
/// checksum catches (it is then read as a miss and rewritten); syncing every entry would
/// cost more than reading the files it spares.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Maps the entry at `path` (entries are only ever replaced by rename, never changed in
/// place), with its modification time (when it was written or last freshened), or `None`
/// when there is none or it cannot be opened.
pub(crate) fn map(path: &Path) -> Option<(memmap2::Mmap, std::time::SystemTime)> {
    let file = File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if meta.len() == 0 {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: the entry is evaltally's own file, written whole and renamed into place, and
    // never truncated or written in place by evaltally; another process doing so would be
    // tampering with the cache folder. A rename or delete leaves this mapping intact.
    let map = unsafe { memmap2::Mmap::map(&file) };
    Some((map.ok()?, meta.modified().ok()?))
}

/// Marks the entry at `path` as used now, for least-recently-used pruning.
pub(crate) fn freshen(path: &Path) {
    if let Ok(file) = File::options().write(true).open(path) {
        let _ = file.set_modified(std::time::SystemTime::now());
    }
}
