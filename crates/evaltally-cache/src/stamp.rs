//! Stamps: what the cache knows of an input file without reading all of it.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use evaltally_format::walk::{Stat, restat};

/// How many bytes of a file's head, and of its tail, the content hash covers.
pub(crate) const EDGE: usize = 4096;

/// What kind of thing a path was when stamped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    /// Nothing there: a file the unit reads beside its own, when absent.
    Absent = 0,
    /// A regular file.
    File = 1,
    /// A folder or something else that is not a regular file.
    Other = 2,
    /// It could not be examined or opened: never stored, always read.
    Unknown = 3,
}

/// An input file's identity, size, times and a hash of its first and last [`EDGE`] bytes.
/// Two equal stamps of one path mean the file was not touched in between, with the
/// caveat [`Stamp::settled`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) kind: Kind,
    pub(crate) dev: u64,
    pub(crate) ino: u64,
    pub(crate) size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub(crate) mtime: i128,
    /// Status change time (Unix), nanoseconds since the epoch: any write, rename into place
    /// or `chmod` moves it, and no program can set it back.
    pub(crate) ctime: i128,
    /// XXH3 of the head and tail bytes.
    pub(crate) edges: u64,
    /// Whether `edges` was computed (not stored): a lookup on a file whose times can tell
    /// writes apart compares the metadata alone ([`Stamp::coarse_times`]).
    pub(crate) edges_known: bool,
}

/// The encoded size of a stamp.
pub(crate) const STAMP_LEN: usize = 1 + 8 * 3 + 16 * 2 + 8;

impl Stamp {
    const fn of(kind: Kind) -> Self {
        Self { kind, dev: 0, ino: 0, size: 0, mtime: 0, ctime: 0, edges: 0, edges_known: true }
    }

    /// Stamps `path`, following links: metadata, then (for a regular file) its head and
    /// tail. Never fails: what cannot be examined is [`Kind::Unknown`].
    #[cfg(test)]
    pub(crate) fn take(path: &Path, buf: &mut Vec<u8>) -> Self {
        Self::take_hashing(path, buf, |_| true)
    }

    /// Stamps `path` as a lookup does: its metadata, and the hash of its head and tail only
    /// where [`Stamp::coarse_times`] says the metadata cannot prove the file unchanged.
    #[cfg(test)]
    pub(crate) fn take_lazy(path: &Path, buf: &mut Vec<u8>) -> Self {
        Self::take_hashing(path, buf, Self::coarse_times)
    }

    /// [`Stamp::take_hashing`] from metadata already taken (by the walk, just before): the
    /// same stamp, without asking the system again.
    pub(crate) fn from_seen(meta: &Metadata, path: &Path, buf: &mut Vec<u8>, hash: impl Fn(&Self) -> bool) -> Self {
        Self::hashing(meta, path, buf, hash)
    }

    /// The metadata of `path`, and the content hash when `hash` says so for it
    /// ([`Stamp::coarse_times`] for a lookup).
    pub(crate) fn take_hashing(path: &Path, buf: &mut Vec<u8>, hash: impl Fn(&Self) -> bool) -> Self {
        match std::fs::metadata(path) {
            Ok(meta) => Self::hashing(&meta, path, buf, hash),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Self::of(Kind::Absent),
            Err(_) => Self::of(Kind::Unknown),
        }
    }

    /// The stamp of `meta` (of `path`; asked of the server again on a network file system,
    /// [`restat`]), and the content hash when `hash` says so for it.
    fn hashing(meta: &Metadata, path: &Path, buf: &mut Vec<u8>, hash: impl Fn(&Self) -> bool) -> Self {
        let mut stamp = match Self::checked(meta, path) {
            Ok(stamp) => stamp,
            Err(kind) => return Self::of(kind),
        };
        if hash(&stamp) && !stamp.fill_edges(path, buf) {
            return Self::of(Kind::Unknown);
        }
        stamp
    }

    /// Whether the file's times are whole seconds, and so cannot tell two writes apart: a
    /// lookup then hashes the file's head and tail, and compares only the metadata
    /// otherwise. A stored reading was taken from files last changed more than the settle
    /// window before ([`Stamp::settled`]), so any later write moves their status-change
    /// time, which no program can set back; that holds where times have sub-second
    /// precision. Where both times are whole seconds (FAT, some network file systems, or
    /// no status-change time at all) two writes within one second look alike, and the
    /// content hash decides.
    pub(crate) fn coarse_times(&self) -> bool {
        const SECOND: i128 = 1_000_000_000;
        self.mtime % SECOND == 0 && self.ctime % SECOND == 0
    }

    /// Computes the hash of a regular file's head and tail when it is not known yet;
    /// `false` when the file cannot be read.
    pub(crate) fn fill_edges(&mut self, path: &Path, buf: &mut Vec<u8>) -> bool {
        if self.edges_known {
            return true;
        }
        match edges(path, self.size, buf) {
            Ok(hash) => {
                (self.edges, self.edges_known) = (hash, true);
                true
            }
            Err(_) => false,
        }
    }

    /// The metadata part of a stamp (no content hash).
    pub(crate) fn from_meta(meta: &Metadata) -> Self {
        Self::from_stat(&Stat::of(meta))
    }

    fn from_stat(stat: &Stat) -> Self {
        let kind = if stat.is_file { Kind::File } else { Kind::Other };
        let Stat { device: dev, inode: ino, size, modified: mtime, changed: ctime, .. } = *stat;
        Self { kind, dev, ino, size, mtime, ctime, edges: 0, edges_known: kind != Kind::File }
    }

    /// The metadata part of the stamp of `path` from `meta`, or on a network file system
    /// from the server's answer ([`restat`]); the kind of stamp to give when that fails.
    fn checked(meta: &Metadata, path: &Path) -> Result<Self, Kind> {
        match restat(path, meta) {
            None => Ok(Self::from_meta(meta)),
            Some(Ok(stat)) => Ok(Self::from_stat(&stat)),
            Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => Err(Kind::Absent),
            Some(Err(_)) => Err(Kind::Unknown),
        }
    }

    /// Whether the metadata of `path` still matches this stamp (after the unit read it).
    pub(crate) fn still(&self, path: &Path) -> bool {
        let now = match std::fs::metadata(path) {
            Ok(meta) => Self::checked(&meta, path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Kind::Absent),
            Err(_) => Err(Kind::Unknown),
        };
        match now {
            Ok(now) => Self { edges: self.edges, edges_known: self.edges_known, ..now } == *self,
            Err(kind) => kind == Kind::Absent && self.kind == Kind::Absent,
        }
    }

    /// Whether a reading taken at `now` may be stored under this stamp: the input could be
    /// examined, and was last changed more than `settle` before `now`. File times have the
    /// granularity of the kernel's clock tick: a file rewritten twice within one tick, at
    /// the same size and with the same head and tail, keeps its stamp, so a reading taken
    /// within that tick is not trusted (the "racy" entries of git's index).
    pub(crate) fn settled(&self, now: SystemTime, settle: Duration) -> bool {
        match self.kind {
            Kind::Unknown => false,
            Kind::Absent => true,
            Kind::File | Kind::Other => {
                let limit = nanos(now) - i128::try_from(settle.as_nanos()).unwrap_or(i128::MAX);
                self.mtime.max(self.ctime) < limit
            }
        }
    }

    /// Appends the stamp's bytes.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.kind as u8);
        out.extend_from_slice(&self.dev.to_le_bytes());
        out.extend_from_slice(&self.ino.to_le_bytes());
        out.extend_from_slice(&self.size.to_le_bytes());
        out.extend_from_slice(&self.mtime.to_le_bytes());
        out.extend_from_slice(&self.ctime.to_le_bytes());
        out.extend_from_slice(&self.edges.to_le_bytes());
    }
}

/// Nanoseconds since the epoch (negative before it).
fn nanos(t: SystemTime) -> i128 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::try_from(d.as_nanos()).unwrap_or(i128::MAX),
        Err(e) => -i128::try_from(e.duration().as_nanos()).unwrap_or(i128::MAX),
    }
}

/// XXH3 of the file's first [`EDGE`] bytes and its last [`EDGE`] bytes (of what follows
/// the head), read with one open.
fn edges(path: &Path, size: u64, buf: &mut Vec<u8>) -> io::Result<u64> {
    let mut file = File::open(path)?;
    if buf.len() < 2 * EDGE {
        buf.resize(2 * EDGE, 0);
    }
    let head = read_up_to(&mut file, &mut buf[..EDGE])?;
    let mut len = head;
    if head == EDGE && size > EDGE as u64 {
        let from = size.saturating_sub(EDGE as u64).max(EDGE as u64);
        len += read_at(&file, &mut buf[EDGE..], from)?;
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&size.to_le_bytes());
    hasher.update(&buf[..len]);
    Ok(hasher.digest())
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    let mut file = file;
    file.seek(SeekFrom::Start(offset))?;
    read_up_to(&mut file, buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stamp made from the walk's metadata is the stamp a lookup takes itself, and tells
    /// a later change just as well.
    #[test]
    fn a_stamp_from_metadata_taken_before_is_the_lookup_stamp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'a'; 3 * EDGE]).unwrap();
        let mut buf = Vec::new();
        let seen = std::fs::metadata(&path).unwrap();
        assert_eq!(Stamp::from_seen(&seen, &path, &mut buf, Stamp::coarse_times), Stamp::take_lazy(&path, &mut buf));
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, vec![b'a'; 3 * EDGE]).unwrap();
        assert_ne!(Stamp::from_seen(&seen, &path, &mut buf, Stamp::coarse_times), Stamp::take_lazy(&path, &mut buf));
    }

    #[test]
    fn a_change_in_the_middle_of_a_file_at_the_same_size_moves_ctime_not_the_edges() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut body = vec![b'a'; 3 * EDGE];
        std::fs::write(&path, &body).unwrap();
        let mut buf = Vec::new();
        let before = Stamp::take(&path, &mut buf);
        body[EDGE + 10] = b'b';
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&path, &body).unwrap();
        let after = Stamp::take(&path, &mut buf);
        assert_eq!(before.edges, after.edges);
        assert_eq!(before.size, after.size);
        assert_ne!(before, after, "the write moved the file's times");
    }

    #[test]
    fn edges_see_the_head_and_the_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut buf = Vec::new();
        let mut body = vec![b'a'; 3 * EDGE];
        std::fs::write(&path, &body).unwrap();
        let first = Stamp::take(&path, &mut buf).edges;
        body[0] = b'x';
        std::fs::write(&path, &body).unwrap();
        let head = Stamp::take(&path, &mut buf).edges;
        body[3 * EDGE - 1] = b'y';
        std::fs::write(&path, &body).unwrap();
        let tail = Stamp::take(&path, &mut buf).edges;
        assert!(first != head && head != tail && first != tail);
    }

    #[test]
    fn absent_folders_and_fresh_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut buf = Vec::new();
        assert_eq!(Stamp::take(&dir.path().join("none"), &mut buf).kind, Kind::Absent);
        assert_eq!(Stamp::take(dir.path(), &mut buf).kind, Kind::Other);
        let path = dir.path().join("f");
        std::fs::write(&path, "x").unwrap();
        let stamp = Stamp::take(&path, &mut buf);
        assert!(!stamp.settled(SystemTime::now(), Duration::from_secs(5)), "just written");
        assert!(stamp.settled(SystemTime::now() + Duration::from_secs(10), Duration::from_secs(5)));
        assert!(stamp.still(&path));
        std::fs::write(&path, "xy").unwrap();
        assert!(!stamp.still(&path));
    }

    /// A lookup hashes a file's head and tail only where its times are whole seconds; an
    /// entry stored with the hash matches a stamp taken without it on everything else, and
    /// on the hash too where it was taken.
    #[test]
    fn lookups_hash_only_files_whose_times_cannot_tell_writes_apart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'a'; 3 * EDGE]).unwrap();
        let mut buf = Vec::new();
        let full = Stamp::take(&path, &mut buf);
        let lazy = Stamp::take_lazy(&path, &mut buf);
        assert!(full.edges_known);
        assert_eq!(lazy.edges_known, lazy.coarse_times(), "hashed exactly when the times are whole seconds");
        let whole = Stamp { mtime: 5_000_000_000, ctime: 7_000_000_000, ..lazy };
        assert!(whole.coarse_times());
        assert!(!Stamp { ctime: 7_000_000_001, ..whole }.coarse_times());

        let mut stored = Vec::new();
        assert!(crate::entry::encode(&mut stored, "id", &[full], |out| {
            out.extend_from_slice(b"reading");
            true
        }));
        assert!(!crate::entry::encode(&mut stored, "id", &[full], |_| false));
        assert_eq!(crate::entry::reading(&stored, "id", &[full]), Some(&b"reading"[..]), "nothing appended");
        let unhashed = Stamp { edges: 0, edges_known: false, ..full };
        assert_eq!(crate::entry::reading(&stored, "id", &[unhashed]), Some(&b"reading"[..]));
        let other_edges = Stamp { edges: full.edges ^ 1, ..full };
        assert_eq!(crate::entry::reading(&stored, "id", &[other_edges]), None, "a hash taken is compared");
        let moved = Stamp { ctime: full.ctime + 1, ..unhashed };
        assert_eq!(crate::entry::reading(&stored, "id", &[moved]), None, "the metadata always is");

        let mut filled = unhashed;
        assert!(filled.fill_edges(&path, &mut buf));
        assert_eq!(filled, full);
    }
}
