//! The frame packs and listings files share, and how they are mapped: records back to
//! back, then an index of fixed-size rows sorted by hash, searched in place, and a footer.
//!
//! ```text
//! magic (8 bytes)
//! records
//! index: count rows of a fixed size
//! u64 count, u64 index offset, u64 XXH3 of the index
//! magic
//! ```

use std::path::Path;

/// The three u64 before the closing magic.
const FOOTER: usize = 8 * 3;

/// The u64 at `at` in `bytes`, little-endian; `None` past the end.
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at.checked_add(8)?)?.try_into().ok()?))
}

/// The u128 at `at` in `bytes`, little-endian; `None` past the end.
pub(crate) fn u128_at(bytes: &[u8], at: usize) -> Option<u128> {
    Some(u128::from_le_bytes(bytes.get(at..at.checked_add(16)?)?.try_into().ok()?))
}

/// Where the index of the framed file `bytes` starts and how many rows of `row` bytes it
/// has; `None` unless both magics are there and the footer agrees with the size.
pub(crate) fn index(bytes: &[u8], magic: &[u8], row: usize) -> Option<(usize, usize)> {
    let end = bytes.len();
    if end < magic.len() * 2 + FOOTER || &bytes[..magic.len()] != magic || &bytes[end - magic.len()..] != magic {
        return None;
    }
    let footer = end - magic.len() - FOOTER;
    let count = usize::try_from(u64_at(bytes, footer)?).ok()?;
    let index_at = usize::try_from(u64_at(bytes, footer + 8)?).ok()?;
    if index_at < magic.len() || footer.checked_sub(index_at)? != count.checked_mul(row)? {
        return None;
    }
    Some((index_at, count))
}

/// Whether the index's checksum in the framed file `bytes` holds (its index at
/// `index_at`).
pub(crate) fn index_intact(bytes: &[u8], magic: &[u8], index_at: usize) -> bool {
    let Some(footer) = bytes.len().checked_sub(magic.len() + FOOTER) else { return false };
    let sum = u64_at(bytes, footer + 16);
    bytes.get(index_at..footer).is_some_and(|index| Some(xxhash_rust::xxh3::xxh3_64(index)) == sum)
}

/// Appends the footer and the closing magic to `out`, which holds the index (`count`
/// rows) from `index_from` on; the index starts at `index_at` in the file.
pub(crate) fn close(out: &mut Vec<u8>, magic: &[u8], index_from: usize, index_at: u64, count: u64) {
    let sum = xxhash_rust::xxh3::xxh3_64(&out[index_from..]);
    for v in [count, index_at, sum] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(magic);
}

/// The first of `count` index rows for which `is_at_or_past` holds, `count` when none does
/// (a binary search: it must hold for every row after one it holds for, as it does for a
/// bound on the hashes of an index sorted by hash).
pub(crate) fn first_row(count: usize, is_at_or_past: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if is_at_or_past(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// A framed file as mapped.
pub(crate) enum Mapped {
    /// Its bytes, and its size.
    Bytes(memmap2::Mmap, u64),
    /// It is empty: no frame.
    Empty,
    /// It could not be opened or mapped (gone, or out of descriptors or memory): nothing is
    /// known of it.
    Unreadable,
}

/// Maps the file at `path`, one of evaltally's framed files (a pack or a listings file).
pub(crate) fn map(path: &Path) -> Mapped {
    let Ok(file) = std::fs::File::open(path) else { return Mapped::Unreadable };
    let Ok(size) = file.metadata().map(|m| m.len()) else { return Mapped::Unreadable };
    if size == 0 {
        return Mapped::Empty;
    }
    #[allow(unsafe_code)]
    // SAFETY: packs and listings files are evaltally's own, written whole and renamed into
    // place, never truncated or written in place by evaltally; another process doing so
    // would be tampering with the cache folder. A rename or delete leaves this mapping
    // intact.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Mapped::Bytes(map, size),
        Err(_) => Mapped::Unreadable,
    }
}
