#![doc = include_str!("../README.md")]

mod codec;
mod entry;
mod files;
mod folder;
mod frame;
mod listings;
mod pack;
mod stamp;
mod uses;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use evaltally_core::IdPool;
use evaltally_format::walk::{FolderStamp, Listing};
use evaltally_format::{Options, Read, Records, Scratch, Unit, Validated};

pub use folder::{Cleared, ENV_SIZE, SizeError, Usage, parse_size};
use stamp::Stamp;

/// The size the cache folder is kept under by default: 1 GiB.
pub const DEFAULT_LIMIT: u64 = 1 << 30;

/// How recently an input may have changed and its reading still be stored, by default.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(100);

/// The environment variable that names the cache folder.
pub const ENV_DIR: &str = "EVALTALLY_CACHE";

/// What a prune found and removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Entries in the cache before pruning (the newest of each identity), counted when the
    /// packs were merged; 0 when there was nothing to merge (the index is not read then).
    pub entries: u64,
    /// The packs' total size in bytes.
    pub bytes: u64,
    /// Entries (and leftovers: temporary files, folders of other layouts) removed.
    pub removed: u64,
    /// Bytes freed by removing entries.
    pub freed: u64,
}

/// What went wrong pruning or clearing the cache folder.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// A folder or entry could not be listed or removed.
    #[error("cache {}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// What the cache did, for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Units whose stored reading was used.
    pub hits: u64,
    /// Units read from their files.
    pub misses: u64,
    /// Readings stored.
    pub stored: u64,
    /// Readings not stored because an input changed while or just before it was read.
    pub unsettled: u64,
    /// Entries that could not be written (the folder is read-only, the disk full).
    pub write_errors: u64,
    /// Folders whose stored listing the walk used instead of reading them.
    pub folders_reused: u64,
    /// Units whose files were read, with the cache or without it (a unit read once for
    /// both its readings, [`Cache::read_both`], counts once).
    pub units_read: u64,
}

#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    stored: AtomicU64,
    unsettled: AtomicU64,
    write_errors: AtomicU64,
    folders_reused: AtomicU64,
    units_read: AtomicU64,
}

/// The packs as this process found them (oldest first), opened on the first lookup.
#[derive(Debug, Default)]
struct Packs {
    packs: Vec<pack::Pack>,
}

/// The pack this process is writing: chunks of encoded readings that workers are filling,
/// and the temporary file the full ones went to.
#[derive(Debug, Default)]
struct Storing {
    /// Chunks not full yet, one taken by each worker that stores a reading.
    chunks: Mutex<Vec<pack::Chunk>>,
    /// Made when the first chunk is full; `None` again after a write failed (its entries
    /// are counted as write errors) or once the pack is finished.
    pack: Mutex<Option<pack::Writer>>,
}

/// A digest cache in one folder, or none ([`Cache::disabled`]): [`Cache::read`] then
/// always reads the files. Shared by the threads that read units in parallel.
#[derive(Debug)]
pub struct Cache {
    root: Option<PathBuf>,
    generation: String,
    limit: u64,
    settle: Duration,
    counters: Counters,
    /// The packs, opened on the first lookup and again after this process wrote one.
    packs: Mutex<Option<Arc<Packs>>>,
    storing: Storing,
    /// The identities this process used (for least-recently-used pruning).
    used: Mutex<hashbrown::HashSet<u128>>,
    /// Uses of entries whose rows are old, to record for pruning when nothing is stored.
    uses: uses::Store,
    /// The time of this process's uses, when told ([`Cache::clock`]); else the time now.
    clock: Option<u64>,
    /// Packs being finished in threads of their own ([`Cache::write_behind`]): how many
    /// entries each holds, and whether it was written.
    writing: Mutex<Vec<std::thread::JoinHandle<Written>>>,
    listings: listings::Store,
    /// Why the first entry that could not be written was not.
    first_write_error: Mutex<Option<String>>,
}

/// How many entries a pack held, and whether it was written (else why not).
type Written = (u64, std::io::Result<()>);

/// A unit being visited: its inputs, their stamps, and when they were taken.
struct Visit {
    inputs: Vec<PathBuf>,
    stamps: Vec<Stamp>,
    now: SystemTime,
}

/// Where an entry is kept: its identity text and the hash that indexes it.
struct Key {
    identity: String,
    hash: u128,
}

const READ: Kind<Read> = Kind { name: "read", encode: encode_read, decode: codec::decode_read };
const RECORDS: Kind<Records> = Kind { name: "records", encode: encode_records, decode: decode_records };
const VALIDATED: Kind<Validated> = Kind { name: "validated", encode: encode_validated, decode: decode_validated };

/// What is stored for a unit: a name that keeps its entries apart, and how to write and
/// restore it.
struct Kind<T> {
    name: &'static str,
    /// Appends the value's bytes; `false` when it cannot be stored.
    encode: fn(&T, &mut Vec<u8>) -> bool,
    /// Restores the value; runs share ids with those the worker's pool saw last.
    decode: fn(&[u8], &mut IdPool) -> Option<T>,
}

fn encode_read(read: &Read, out: &mut Vec<u8>) -> bool {
    codec::storable(read) && {
        codec::encode_read(read, out);
        true
    }
}

fn decode_records(bytes: &[u8], _: &mut IdPool) -> Option<Records> {
    codec::decode_records(bytes)
}

fn decode_validated(bytes: &[u8], _: &mut IdPool) -> Option<Validated> {
    codec::decode_validated(bytes)
}

fn encode_validated(validated: &Validated, out: &mut Vec<u8>) -> bool {
    codec::validated_storable(validated) && {
        codec::encode_validated(validated, out);
        true
    }
}

fn encode_records(records: &Records, out: &mut Vec<u8>) -> bool {
    codec::records_storable(records) && {
        codec::encode_records(records, out);
        true
    }
}

/// A per-thread buffer for stamping, kept in the worker's [`Scratch`].
#[derive(Default)]
struct Buffers {
    edges: Vec<u8>,
}

impl Cache {
    /// No cache: every unit is read from its files.
    pub fn disabled() -> Self {
        Self::in_folder(None, String::new())
    }

    /// A cache in `root` (created on first write) for readings made by `generation`: a
    /// string that changes whenever the code that reads files may have changed.
    pub fn new(root: impl Into<PathBuf>, generation: impl Into<String>) -> Self {
        Self::in_folder(Some(root.into()), generation.into())
    }

    fn in_folder(root: Option<PathBuf>, generation: String) -> Self {
        Self {
            root,
            generation,
            limit: DEFAULT_LIMIT,
            settle: DEFAULT_SETTLE,
            counters: Counters::default(),
            packs: Mutex::new(None),
            storing: Storing::default(),
            used: Mutex::new(hashbrown::HashSet::new()),
            uses: uses::Store::default(),
            clock: None,
            writing: Mutex::new(Vec::new()),
            listings: listings::Store::default(),
            first_write_error: Mutex::new(None),
        }
    }

    /// Keeps the folder under `bytes` when [`prune`](Self::prune)d (default
    /// [`DEFAULT_LIMIT`]).
    #[must_use]
    pub fn with_limit(mut self, bytes: u64) -> Self {
        self.limit = bytes;
        self
    }

    /// Stores a reading only when its inputs last changed more than `settle` before it was
    /// taken (default [`DEFAULT_SETTLE`]); tests that write files and read them at once
    /// use zero.
    #[must_use]
    pub fn settle_after(mut self, settle: Duration) -> Self {
        self.settle = settle;
        self
    }

    /// Takes `now` for the time of what this cache stores and uses, as pruning sees it,
    /// instead of the time of each write: for tests, and tools that replay past runs.
    #[must_use]
    pub fn clock(mut self, now: SystemTime) -> Self {
        self.clock = Some(now.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()));
        self
    }

    /// The time of a use or a write, in seconds.
    fn now(&self) -> u64 {
        self.clock.unwrap_or_else(pack::now_secs)
    }

    /// The folder the cache uses when nothing else is said: `$EVALTALLY_CACHE`, else the
    /// platform's cache folder (`$XDG_CACHE_HOME/evaltally`, `~/.cache/evaltally`,
    /// `~/Library/Caches/evaltally` on macOS, `%LOCALAPPDATA%\evaltally\cache` on Windows).
    pub fn default_root() -> Option<PathBuf> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(dir) = var(ENV_DIR) {
            return Some(dir);
        }
        if cfg!(windows) {
            return var("LOCALAPPDATA").map(|d| d.join("evaltally").join("cache"));
        }
        if cfg!(target_os = "macos") {
            return var("HOME").map(|h| h.join("Library/Caches/evaltally"));
        }
        var("XDG_CACHE_HOME")
            .filter(|d| d.is_absolute())
            .map(|d| d.join("evaltally"))
            .or_else(|| var("HOME").map(|h| h.join(".cache/evaltally")))
    }

    /// The folder, unless the cache is disabled.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// What the cache did so far, once the entries it is writing are written.
    pub fn stats(&self) -> Stats {
        self.flush();
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            hits: get(&c.hits),
            misses: get(&c.misses),
            stored: get(&c.stored),
            unsettled: get(&c.unsettled),
            write_errors: get(&c.write_errors),
            folders_reused: get(&c.folders_reused),
            units_read: get(&c.units_read),
        }
    }

    /// Finishes the pack of the readings stored so far, and writes the folder listings
    /// taken and the uses of old entries noted (`uses.rs`). [`stats`](Self::stats),
    /// [`prune`](Self::prune) and dropping the cache do it too; a process that keeps its
    /// cache in a `static` (never dropped) calls this before it exits.
    pub fn flush(&self) {
        let writing = std::mem::take(&mut *self.writing.lock().unwrap_or_else(PoisonError::into_inner));
        for handle in writing {
            // A writer that panicked wrote nothing that counts.
            let (n, written) =
                handle.join().unwrap_or_else(|_| (0, Err(std::io::Error::other("the cache writer panicked"))));
            self.written(n, written);
        }
        if let Some(root) = &self.root {
            let (n, written) = self.storing.take().finish(&entry_dir(root));
            self.written(n, written);
            if let Err(e) = self.listings.write(&entry_dir(root)) {
                self.failed(1, &e);
            }
            if let Err(e) = self.uses.write(&entry_dir(root), self.now()) {
                self.failed(1, &e);
            }
        }
    }

    /// Starts finishing the pack of the readings stored so far in a thread of its own, and
    /// returns at once: a caller that has read everything it will read calls this before
    /// its analysis, which then runs beside the last writes. [`flush`](Self::flush) (and so
    /// [`stats`](Self::stats), [`prune`](Self::prune) and dropping the cache) waits for it.
    /// Where no thread can be started, the pack is finished before this returns.
    pub fn write_behind(&self) {
        let Some(root) = &self.root else { return };
        let taken = self.storing.take();
        if taken.is_empty() {
            return;
        }
        let dir = entry_dir(root);
        // Shared with the writer so that it is not lost if the thread cannot be started.
        let shared = Arc::new(Mutex::new(Some(taken)));
        let theirs = Arc::clone(&shared);
        let started = std::thread::Builder::new().name("evaltally-cache-write".into()).spawn(move || {
            theirs.lock().unwrap_or_else(PoisonError::into_inner).take().map_or((0, Ok(())), |t| t.finish(&dir))
        });
        match started {
            Ok(handle) => self.writing.lock().unwrap_or_else(PoisonError::into_inner).push(handle),
            Err(_) => {
                if let Some(taken) = shared.lock().unwrap_or_else(PoisonError::into_inner).take() {
                    let (n, written) = taken.finish(&entry_dir(root));
                    self.written(n, written);
                }
            }
        }
    }

    /// Counts a pack of `n` entries as stored or not, and lets later lookups of this process
    /// see what it stored.
    fn written(&self, n: u64, written: std::io::Result<()>) {
        if n == 0 {
            return;
        }
        match written {
            Ok(()) => {
                *self.packs.lock().unwrap_or_else(PoisonError::into_inner) = None;
                self.counters.stored.fetch_add(n, Ordering::Relaxed);
            }
            Err(e) => self.failed(n, &e),
        }
    }

    /// Counts `n` entries that could not be written, keeping the first cause.
    fn failed(&self, n: u64, cause: &std::io::Error) {
        self.counters.write_errors.fetch_add(n, Ordering::Relaxed);
        let mut first = self.first_write_error.lock().unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(cause.to_string());
        }
    }

    /// Why the first entry that could not be written was not (the operating system's words:
    /// `No space left on device (os error 28)`), if one was not.
    pub fn write_error(&self) -> Option<String> {
        self.first_write_error.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Adds an entry to the pack being written: into a chunk of this worker's, appended to
    /// the pack's file once full.
    fn stage(&self, hash: u128, encode: impl FnOnce(&mut Vec<u8>) -> bool) {
        let Some(root) = &self.root else { return };
        let mut chunk = self.storing.chunks().pop().unwrap_or_default();
        chunk.push(hash, self.now(), encode);
        if chunk.is_full() {
            let mut pack = self.storing.pack();
            let before = pack.as_ref().map_or(0, pack::Writer::entries);
            if let Err(e) = pack::Writer::append_to(&mut pack, &entry_dir(root), &chunk) {
                self.failed(before + chunk.entries(), &e);
            }
            drop(pack);
            chunk.clear();
        }
        self.storing.chunks().push(chunk);
    }

    /// What reading `unit` with `options` gives ([`Unit::read`]): the stored reading when
    /// its inputs are unchanged, else read from the files and stored for next time. The
    /// result is the same either way, diagnostics included.
    pub fn read(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> Read {
        self.through(&READ, unit, scratch, options, |scratch| unit.read(scratch, options))
    }

    /// The unit's run records ([`Unit::records`]: every test with its error message,
    /// tokens, duration and cost), from the cache when its inputs are unchanged, as
    /// [`read`](Self::read) does.
    pub fn records(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> Records {
        self.through(&RECORDS, unit, scratch, options, |scratch| unit.records(scratch, options))
    }

    /// What validating the unit's files with `options` finds ([`Unit::validate`]: every
    /// file's findings), from the cache when its inputs are unchanged, as
    /// [`read`](Self::read) does: validating a folder again checks only what changed.
    pub fn validate(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> Validated {
        self.through(&VALIDATED, unit, scratch, options, |scratch| unit.validate(scratch, options))
    }

    /// [`read`](Self::read) and [`records`](Self::records) of one unit
    /// ([`Unit::read_both`]): its inputs are stamped once, and when either reading is not
    /// stored the unit's files are read once for both.
    pub fn read_both(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> (Read, Records) {
        let Some(mut visit) = self.visit(unit, scratch) else {
            return self.read_files(|| unit.read_both(scratch, options));
        };
        let (read_key, stored_read) = self.find(&READ, &visit, unit, options, scratch);
        let (records_key, stored_records) = self.find(&RECORDS, &visit, unit, options, scratch);
        let (read_missed, records_missed) = (stored_read.is_none(), stored_records.is_none());
        if let (Some(read), Some(records)) = (stored_read, stored_records) {
            return (read, records);
        }
        // Reading the files gives both; only what was not stored is stored.
        let (read, records) = self.read_files(|| unit.read_both(scratch, options));
        if read_missed {
            self.keep(&READ, &mut visit, &read_key, &read, scratch);
        }
        if records_missed {
            self.keep(&RECORDS, &mut visit, &records_key, &records, scratch);
        }
        (read, records)
    }

    /// One reading through the cache: stored when its inputs are unchanged, else `compute`d
    /// and stored.
    fn through<T>(
        &self,
        kind: &Kind<T>,
        unit: &dyn Unit,
        scratch: &mut Scratch,
        options: &Options,
        compute: impl FnOnce(&mut Scratch) -> T,
    ) -> T {
        let Some(mut visit) = self.visit(unit, scratch) else { return self.read_files(|| compute(scratch)) };
        let (key, found) = self.find(kind, &visit, unit, options, scratch);
        found.unwrap_or_else(|| {
            let value = self.read_files(|| compute(scratch));
            self.keep(kind, &mut visit, &key, &value, scratch);
            value
        })
    }

    /// Reads a unit's files with `read`, counted in [`Stats::units_read`].
    fn read_files<T>(&self, read: impl FnOnce() -> T) -> T {
        self.counters.units_read.fetch_add(1, Ordering::Relaxed);
        read()
    }

    /// The unit's inputs, stamped, when the cache is on and the unit may be stored.
    fn visit(&self, unit: &dyn Unit, scratch: &mut Scratch) -> Option<Visit> {
        self.root.as_ref()?;
        let inputs = unit.inputs();
        // A unit that lists no inputs could never be told changed: always read it.
        if inputs.is_empty() {
            return None;
        }
        let now = SystemTime::now();
        // Stamping reads a file only where its times are whole seconds. For a unit of many
        // small files that would be reading all of them, and storing on top: such a unit is
        // read directly, decided before any file is opened.
        let small = many_small(unit.size(), inputs.len());
        let hash = |s: &Stamp| !small && s.coarse_times();
        let stamps: Vec<Stamp> = {
            let buffers = scratch.slot::<Buffers>();
            inputs
                .iter()
                .enumerate()
                .map(|(i, p)| match unit.seen(i, p) {
                    Some(meta) => Stamp::from_seen(meta, p, &mut buffers.edges, hash),
                    None => Stamp::take_hashing(p, &mut buffers.edges, hash),
                })
                .collect()
        };
        if small && stamps.iter().any(Stamp::coarse_times) {
            return None;
        }
        Some(Visit { inputs, stamps, now })
    }

    /// The entry's key, and the stored reading when there is one that still holds
    /// (counted as a hit, or as a miss).
    fn find<T>(
        &self,
        kind: &Kind<T>,
        visit: &Visit,
        unit: &dyn Unit,
        options: &Options,
        scratch: &mut Scratch,
    ) -> (Key, Option<T>) {
        let mut identity = String::with_capacity(512);
        for part in [self.generation.as_str(), kind.name, &options_text(options)] {
            identity.push_str(part);
            identity.push('\n');
        }
        let _ = write!(identity, "{unit:?}");
        let hash = xxhash_rust::xxh3::xxh3_128(identity.as_bytes());
        let found = self.root.as_deref().and_then(|root| {
            self.lookup(root, hash, &identity, &visit.stamps, |bytes| (kind.decode)(bytes, scratch.slot::<IdPool>()))
        });
        if found.is_some() {
            self.counters.hits.fetch_add(1, Ordering::Relaxed);
            self.used.lock().unwrap_or_else(PoisonError::into_inner).insert(hash);
        } else {
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
        }
        (Key { identity, hash }, found)
    }

    /// Stores a reading just taken, when its inputs did not change while it was taken and
    /// had settled before.
    fn keep<T>(&self, kind: &Kind<T>, visit: &mut Visit, key: &Key, value: &T, scratch: &mut Scratch) {
        // What is stored carries the content hash of every input whose times are whole
        // seconds, taken after the reading: the inputs a lookup hashes (`Stamp::coarse_times`;
        // for the others the times decide, and a lookup that matches them finds them just
        // as fine). `still` below then says those files did not change from before the
        // reading to now. An input with finer times is not looked at again: it had settled
        // before the reading (`Stamp::settled`), so a write during or after it moves its
        // status-change time past the stamp's, and no lookup matches this entry again, the
        // rule every lookup already relies on. (A cold run of 10,000 per-instance reports
        // saves 10,000 `statx` calls.)
        let hashed = {
            let buffers = scratch.slot::<Buffers>();
            visit
                .inputs
                .iter()
                .zip(&mut visit.stamps)
                .all(|(p, s)| !s.coarse_times() || s.fill_edges(p, &mut buffers.edges))
        };
        let settled = hashed
            && visit.stamps.iter().all(|s| s.settled(visit.now, self.settle))
            && visit.inputs.iter().zip(&visit.stamps).all(|(p, s)| !s.coarse_times() || s.still(p));
        if !settled {
            self.counters.unsettled.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.stage(key.hash, |out| entry::encode(out, &key.identity, &visit.stamps, |out| (kind.encode)(value, out)));
    }

    fn lookup<T>(
        &self,
        root: &Path,
        hash: u128,
        identity: &str,
        stamps: &[Stamp],
        decode: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Option<T> {
        let packs = Arc::clone(
            self.packs
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(|| Arc::new(Packs::open(&entry_dir(root)))),
        );
        // The newest pack that holds the identity has its newest entry.
        let (bytes, used) = packs.packs.iter().rev().find_map(|pack| pack.find_used(hash))?;
        let found = entry::reading(bytes, identity, stamps).and_then(decode)?;
        self.uses.note(|| entry_dir(root), hash, used, self.now());
        Some(found)
    }

    /// Keeps the cache folder small: when it holds more than 8 packs (one is added by each
    /// process that stores readings), merges the newest ones, from the oldest no larger
    /// than all the packs after it (large old packs stay, so adding a few runs does not
    /// rewrite the cache), copying in the entries this process used from the packs left;
    /// when they hold more bytes than the limit, merges them all, keeping the newest entry
    /// of each unit and the most recently used entries until 80% of it is left; removes
    /// files that are not whole packs and leftovers (temporary files of interrupted
    /// writes older than an hour, folders of other layouts). Readings waiting to be stored
    /// are written first. Nothing to do for a disabled cache or a folder not made yet.
    pub fn prune(&self) -> Result<Pruned, CacheError> {
        self.compact(false)
    }

    /// [`prune`](Self::prune), merging the packs into one whatever their number and size.
    pub fn compact_now(&self) -> Result<Pruned, CacheError> {
        self.compact(true)
    }

    fn compact(&self, force: bool) -> Result<Pruned, CacheError> {
        self.flush();
        let Some(root) = &self.root else { return Ok(Pruned::default()) };
        let dir = entry_dir(root);
        let used = std::mem::take(&mut *self.used.lock().unwrap_or_else(PoisonError::into_inner));
        let mut pruned = match pack::compact(root, &dir, self.limit, force, &used, self.now()) {
            // Another process cleared the cache meanwhile: nothing is left to prune.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !dir.exists() => return Ok(Pruned::default()),
            done => done.map_err(|source| CacheError::Io { path: dir.clone(), source })?,
        };
        // The folder listings count against the limit too.
        match listings::trim(&dir, self.limit) {
            Ok((removed, freed)) => {
                pruned.removed += removed;
                pruned.freed += freed;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(CacheError::Io { path: dir, source }),
        }
        Ok(pruned)
    }
}

/// What [`Storing::take`] took: the pack written so far and the chunks not appended yet.
struct Taken {
    pack: Option<pack::Writer>,
    chunks: Vec<pack::Chunk>,
}

impl Storing {
    fn chunks(&self) -> std::sync::MutexGuard<'_, Vec<pack::Chunk>> {
        self.chunks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn pack(&self) -> std::sync::MutexGuard<'_, Option<pack::Writer>> {
        self.pack.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Everything stored so far, to finish as one pack; what is stored after starts another.
    fn take(&self) -> Taken {
        let chunks = std::mem::take(&mut *self.chunks());
        Taken { pack: self.pack().take(), chunks }
    }
}

impl Taken {
    fn is_empty(&self) -> bool {
        self.pack.is_none() && self.chunks.iter().all(|c| c.entries() == 0)
    }

    /// Appends the chunks and finishes the pack in `dir`: how many entries it holds, and
    /// whether it was written.
    fn finish(self, dir: &Path) -> (u64, std::io::Result<()>) {
        let n = self.pack.as_ref().map_or(0, pack::Writer::entries)
            + self.chunks.iter().map(pack::Chunk::entries).sum::<u64>();
        if n == 0 {
            return (0, Ok(()));
        }
        let mut pack = self.pack;
        let appended =
            self.chunks.iter().filter(|c| c.entries() > 0).try_for_each(|c| pack::Writer::append_to(&mut pack, dir, c));
        let written = appended.and_then(|()| match pack {
            Some(writer) => writer.finish().map(drop),
            None => Ok(()),
        });
        (n, written)
    }
}

/// The walk's folder listings: a folder whose device, inode and times are unchanged since
/// its listing was stored is not read again (see `listings.rs`).
impl evaltally_format::walk::Listings for Cache {
    fn enabled(&self) -> bool {
        self.root.is_some()
    }

    fn find(&self, folder: &Path, stamp: &FolderStamp) -> Option<Listing> {
        let root = self.root.as_deref()?;
        let found = self.listings.find(|| entry_dir(root), folder, stamp);
        if found.is_some() {
            self.counters.folders_reused.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn keep(&self, folder: &Path, stamp: &FolderStamp, listing: &Listing, listed_at: SystemTime) {
        if self.root.is_some() && stamp.settled(listed_at) {
            self.listings.keep(folder, stamp, listing);
        }
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The `Debug` form of `options`, written once per thread for the options a load reads
/// every unit with (thousands of identities per run).
fn options_text(options: &Options) -> std::rc::Rc<str> {
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Options, std::rc::Rc<str>)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| match last {
        Some((known, text)) if known == options => std::rc::Rc::clone(text),
        _ => {
            let text: std::rc::Rc<str> = format!("{options:?}").into();
            *last = Some((options.clone(), std::rc::Rc::clone(&text)));
            text
        }
    })
}

/// Whether a unit is many small files (a folder of SWE-bench per-instance reports, a few
/// KiB each): where stamping a file must read its head and tail (its times are whole
/// seconds), that is all of such a file, so the cache would cost what reading costs, and
/// more when storing. Where times are finer, the walk's metadata is the stamp, and such a
/// unit is cached like any other.
fn many_small(size: u64, inputs: usize) -> bool {
    inputs >= 64 && size < inputs as u64 * 2 * stamp::EDGE as u64
}

/// The folder the packs of this layout live in.
fn entry_dir(root: &Path) -> PathBuf {
    root.join(layout_folder())
}

/// The name of the folder below the cache's root that holds this build's packs (`v5`): a
/// build of another layout keeps its own beside it, and [`Cache::clear`] removes every one.
///
/// ```
/// assert!(evaltally_cache::layout_folder().starts_with('v'));
/// ```
pub fn layout_folder() -> String {
    format!("v{}", entry::VERSION)
}

impl Packs {
    fn open(dir: &Path) -> Self {
        Self { packs: pack::list(dir).iter().filter_map(|path| pack::open(path)).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::{many_small, options_text};
    use evaltally_format::{Options, Purpose};

    /// The options' text is their `Debug` form, written again when they change.
    #[test]
    fn options_text_follows_the_options() {
        let plain = Options::default();
        let strict = Options { purpose: Purpose::Validate, strict: true, ..Options::default() };
        for options in [&plain, &strict, &plain, &strict] {
            assert_eq!(&*options_text(options), format!("{options:?}"));
        }
    }

    #[test]
    fn only_units_of_many_small_files_bypass_the_cache() {
        assert!(many_small(500 * 3_000, 500), "a SWE-bench run of 500 reports of 3 KB");
        assert!(!many_small(500 * 40_000, 500), "500 files of 40 KB");
        assert!(!many_small(2 * 1_000, 2), "a small BFCL pair");
    }
}
