//! One entry: a header naming what it is for, the stamps of the inputs it was read
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
//! Entries are stored in packs (`pack.rs`), many to a file.

use crate::codec::{Reader, Writer};
use crate::stamp::{STAMP_LEN, Stamp};

const MAGIC: &[u8; 8] = b"evtcache";

/// Bumped whenever the layout of an entry, a pack or a stored reading changes.
pub(crate) const VERSION: u32 = 6;

/// Appends the entry for `identity`, `stamps` and the reading `reading` appends; when that
/// says `false` (the reading cannot be stored), nothing is appended and the result is
/// `false`.
pub(crate) fn encode(
    out: &mut Vec<u8>,
    identity: &str,
    stamps: &[Stamp],
    reading: impl FnOnce(&mut Vec<u8>) -> bool,
) -> bool {
    let start = out.len();
    out.reserve(16 + identity.len() + stamps.len() * STAMP_LEN + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut w = Writer::new(out);
    w.bytes(identity.as_bytes());
    w.u32(stamps.len());
    for s in stamps {
        s.encode(out);
    }
    if !reading(out) {
        out.truncate(start);
        return false;
    }
    let sum = xxhash_rust::xxh3::xxh3_64(&out[start..]);
    out.extend_from_slice(&sum.to_le_bytes());
    true
}

/// The stored reading's bytes, when `bytes` is a whole entry for `identity` whose stamps
/// equal `stamps` (their content hashes too, where computed); `None` for anything else (damaged, foreign, another layout, stale).
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
        // A stamp taken without the content hash (see `Stamp::coarse_times`) compares the rest.
        let compared = if s.edges_known { STAMP_LEN } else { STAMP_LEN - 8 };
        if r.take(STAMP_LEN)?[..compared] != expected[..compared] {
            return None;
        }
    }
    Some(r.rest())
}
