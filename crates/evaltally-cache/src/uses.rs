//! Uses recorded without storing: what a process that only read from the cache used, so
//! that least-recently-used pruning sees it.
//!
//! A pack row keeps when its entry was last used, but a pack is never changed once
//! written: a row's time moves only when its entry is copied by a merge, and a process
//! that finds everything it needs in the cache stores nothing and so merges nothing. An
//! entry read every day would keep the time it was stored at, and pruning could drop it
//! before entries nobody has read for months.
//!
//! So a hit on a row whose last use is more than [`REFRESH`] old is noted, unless a uses
//! file already records a use of it that recent, and the process writes what it noted as a
//! new file beside the packs, `<time>-<random>.uses`:
//!
//! ```text
//! b"evtuses1"
//! index: per entry u128 identity hash, u64 use (seconds), sorted by hash
//! u64 entries, u64 index offset, u64 XXH3 of the index
//! b"evtuses1"
//! ```
//!
//! (the frame of `frame.rs`, with no records before the index). That costs a warm run
//! nothing while its entries' times are recent, and 24 bytes per entry about once a day
//! otherwise; a lookup searches the mapped files only for a row that is old. Past
//! [`MAX_FILES`] files a process merges them all into one (the latest use of each entry).
//! A merge of packs applies the recorded uses to the rows it writes, and a merge of all
//! the packs (over the size limit, or `evaltally cache prune`) has applied every one of
//! them, so it removes the files it read. A file that is not whole counts as empty and is
//! removed by the next merge of uses files.

use hashbrown::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::frame::{self, u64_at, u128_at};

const MAGIC: &[u8; 8] = b"evtuses1";

/// One index row: identity hash, time of use.
const ROW: usize = 16 + 8;

/// A use more recent than this is not recorded again: a day, so that a cache read daily
/// writes about one small file a day, and pruning knows each entry's last use to the day.
pub(crate) const REFRESH: u64 = 24 * 60 * 60;

/// More uses files than this are merged into one.
pub(crate) const MAX_FILES: usize = 8;

/// The extension of uses files in the cache's layout folder.
const EXTENSION: &str = "uses";

/// One uses file as mapped.
struct File {
    map: Option<memmap2::Mmap>,
    /// Where the index starts and how many rows it has (none when the file is not whole).
    index_at: usize,
    count: usize,
    path: PathBuf,
}

impl File {
    /// The file at `path`; `None` when it cannot be opened or mapped (it is left alone).
    fn read(path: &Path) -> Option<Self> {
        let empty = Self { map: None, index_at: 0, count: 0, path: path.to_path_buf() };
        match frame::map(path) {
            frame::Mapped::Bytes(map, _) => Some(match frame::index(&map, MAGIC, ROW) {
                Some((index_at, count)) if frame::index_intact(&map, MAGIC, index_at) => {
                    Self { map: Some(map), index_at, count, ..empty }
                }
                _ => empty,
            }),
            frame::Mapped::Empty => Some(empty),
            frame::Mapped::Unreadable => None,
        }
    }

    /// Row `i`: hash and time.
    fn row(&self, i: usize) -> (u128, u64) {
        let at = self.index_at + i * ROW;
        let bytes = self.map.as_deref().unwrap_or_default();
        (u128_at(bytes, at).unwrap_or(0), u64_at(bytes, at + 16).unwrap_or(0))
    }

    /// The use of `hash` this file records (a binary search of its index).
    fn find(&self, hash: u128) -> Option<u64> {
        let i = frame::first_row(self.count, |i| self.row(i).0 >= hash);
        (i < self.count).then(|| self.row(i)).filter(|row| row.0 == hash).map(|row| row.1)
    }

    fn rows(&self) -> impl Iterator<Item = (u128, u64)> + '_ {
        (0..self.count).map(|i| self.row(i))
    }
}

/// The uses files as found, and the uses this process noted.
#[derive(Default)]
pub(crate) struct Store {
    /// The files, mapped on the first old row looked up.
    files: OnceLock<Vec<File>>,
    noted: Mutex<Vec<u128>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("files", &self.files.get().map(Vec::len)).finish_non_exhaustive()
    }
}

impl Store {
    /// Notes a use at `now` of the entry `hash`, whose row says it was last used at
    /// `row_used`, when neither that nor a uses file in `dir()` says it was used within
    /// [`REFRESH`].
    pub(crate) fn note(&self, dir: impl FnOnce() -> PathBuf, hash: u128, row_used: u64, now: u64) {
        let recent = |t: u64| now.saturating_sub(t) < REFRESH;
        if recent(row_used) {
            return;
        }
        let files = self
            .files
            .get_or_init(|| crate::files::by_time(&dir(), EXTENSION).iter().filter_map(|p| File::read(p)).collect());
        if files.iter().filter_map(|f| f.find(hash)).any(recent) {
            return;
        }
        self.noted.lock().unwrap_or_else(PoisonError::into_inner).push(hash);
    }

    /// Writes the uses noted since the last write (if any), at `now`, as a new file in
    /// `dir`, or, past [`MAX_FILES`] files, merged with all the others.
    pub(crate) fn write(&self, dir: &Path, now: u64) -> std::io::Result<()> {
        let noted = std::mem::take(&mut *self.noted.lock().unwrap_or_else(PoisonError::into_inner));
        if noted.is_empty() {
            return Ok(());
        }
        let mut uses: HashMap<u128, u64> = noted.into_iter().map(|h| (h, now)).collect();
        let files = self.files.get().map_or(&[][..], Vec::as_slice);
        let merged = if files.len() >= MAX_FILES { files } else { &[] };
        for file in merged {
            keep_latest(&mut uses, file);
        }
        write_file(dir, &uses)?;
        for file in merged {
            // Another process may have merged it already.
            let _ = std::fs::remove_file(&file.path);
        }
        Ok(())
    }
}

/// Every use the uses files in `dir` record (the latest of each entry), and the files read,
/// for a merge of packs (which removes them once it has merged all the packs).
pub(crate) fn recorded(dir: &Path) -> (HashMap<u128, u64>, Vec<PathBuf>) {
    let mut uses: HashMap<u128, u64> = HashMap::new();
    let mut read = Vec::new();
    for path in crate::files::by_time(dir, EXTENSION) {
        let Some(file) = File::read(&path) else { continue };
        keep_latest(&mut uses, &file);
        read.push(path);
    }
    (uses, read)
}

/// Adds the uses `file` records to `uses`, keeping the latest of each entry.
fn keep_latest(uses: &mut HashMap<u128, u64>, file: &File) {
    for (hash, time) in file.rows() {
        let latest = uses.entry(hash).or_insert(time);
        *latest = (*latest).max(time);
    }
}

/// Writes `uses` as a new uses file in `dir`.
fn write_file(dir: &Path, uses: &HashMap<u128, u64>) -> std::io::Result<PathBuf> {
    let mut rows: Vec<(u128, u64)> = uses.iter().map(|(&h, &t)| (h, t)).collect();
    rows.sort_unstable();
    let mut bytes = Vec::with_capacity(MAGIC.len() * 2 + rows.len() * ROW + 24);
    bytes.extend_from_slice(MAGIC);
    let index_at = bytes.len();
    for (hash, time) in &rows {
        bytes.extend_from_slice(&hash.to_le_bytes());
        bytes.extend_from_slice(&time.to_le_bytes());
    }
    frame::close(&mut bytes, MAGIC, index_at, index_at as u64, rows.len() as u64);
    crate::files::write_by_time(dir, &bytes, EXTENSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = REFRESH;

    fn files(dir: &Path) -> Vec<PathBuf> {
        crate::files::by_time(dir, EXTENSION)
    }

    #[test]
    fn a_recent_row_notes_nothing_and_an_old_one_is_written_once_a_day() {
        let dir = tempfile::tempdir().unwrap();
        let now = 100 * DAY;
        let store = Store::default();
        store.note(|| dir.path().to_path_buf(), 1, now - DAY / 2, now);
        store.write(dir.path(), now).unwrap();
        assert!(files(dir.path()).is_empty(), "a row used half a day ago needs no record");
        store.note(|| dir.path().to_path_buf(), 1, now - 3 * DAY, now);
        store.note(|| dir.path().to_path_buf(), 2, now - 3 * DAY, now);
        store.write(dir.path(), now).unwrap();
        assert_eq!(files(dir.path()).len(), 1);
        let (uses, _) = recorded(dir.path());
        assert_eq!(uses, HashMap::from([(1, now), (2, now)]));
        // A later process, an hour on: the file says both were used, so nothing is written.
        let later = Store::default();
        for hash in [1, 2] {
            later.note(|| dir.path().to_path_buf(), hash, now - 3 * DAY, now + 3600);
        }
        later.write(dir.path(), now + 3600).unwrap();
        assert_eq!(files(dir.path()).len(), 1);
        // Two days on, the use is old again and is recorded again.
        let after = Store::default();
        after.note(|| dir.path().to_path_buf(), 2, now - 3 * DAY, now + 2 * DAY);
        after.write(dir.path(), now + 2 * DAY).unwrap();
        assert_eq!(files(dir.path()).len(), 2);
        assert_eq!(recorded(dir.path()).0, HashMap::from([(1, now), (2, now + 2 * DAY)]));
    }

    #[test]
    fn past_eight_files_they_are_merged_into_one_with_the_latest_use_of_each() {
        let dir = tempfile::tempdir().unwrap();
        let old = 0;
        for day in 1..=12u64 {
            let now = day * 2 * DAY;
            let store = Store::default();
            store.note(|| dir.path().to_path_buf(), u128::from(day % 3), old, now);
            store.note(|| dir.path().to_path_buf(), 1000 + u128::from(day), old, now);
            store.write(dir.path(), now).unwrap();
            assert!(files(dir.path()).len() <= MAX_FILES, "day {day}");
        }
        let (uses, _) = recorded(dir.path());
        for (hash, day) in [(0, 12), (1, 10), (2, 11), (1001, 1), (1012, 12)] {
            assert_eq!(uses.get(&hash), Some(&(day * 2 * DAY)), "{hash}");
        }
        assert_eq!(uses.len(), 3 + 12);
    }

    #[test]
    fn a_damaged_file_records_nothing_and_goes_with_the_next_merge() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::default();
        store.note(|| dir.path().to_path_buf(), 7, 0, 10 * DAY);
        store.write(dir.path(), 10 * DAY).unwrap();
        let path = files(dir.path()).remove(0);
        let mut bytes = std::fs::read(&path).unwrap();
        for at in 0..bytes.len() {
            bytes[at] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            // Every damaged byte is caught by the frame or the index checksum.
            assert!(recorded(dir.path()).0.is_empty(), "byte {at}");
            bytes[at] ^= 0x10;
        }
        for len in 0..bytes.len() {
            std::fs::write(&path, &bytes[..len]).unwrap();
            assert!(recorded(dir.path()).0.is_empty(), "cut at {len}");
        }
        std::fs::write(&path, b"no uses file").unwrap();
        for day in 11..11 + MAX_FILES as u64 {
            let store = Store::default();
            store.note(|| dir.path().to_path_buf(), 8, 0, day * DAY * 2);
            store.write(dir.path(), day * DAY * 2).unwrap();
        }
        assert!(!path.exists(), "the damaged file was merged away");
        assert_eq!(recorded(dir.path()).0.len(), 1);
    }
}
