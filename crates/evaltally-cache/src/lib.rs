#![doc = include_str!("../README.md")]

mod codec;
mod entry;
mod prune;
mod stamp;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use evaltally_format::{Options, Read, Records, Scratch, Unit};

pub use prune::Pruned;
use stamp::Stamp;

/// The size the cache folder is kept under by default: 1 GiB.
pub const DEFAULT_LIMIT: u64 = 1 << 30;

/// How recently an input may have changed and its reading still be stored, by default.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(100);

/// How often a used entry's time is moved forward for least-recently-used pruning.
const FRESHEN_AFTER: Duration = Duration::from_hours(1);

/// The environment variable that names the cache folder.
pub const ENV_DIR: &str = "EVALTALLY_CACHE";

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
}

#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    stored: AtomicU64,
    unsettled: AtomicU64,
    write_errors: AtomicU64,
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
}

/// What is stored for a unit: a name that keeps its entries apart, and how to write and
/// restore it.
struct Kind<T> {
    name: &'static str,
    /// Appends the value's bytes; `false` when it cannot be stored.
    encode: fn(&T, &mut Vec<u8>) -> bool,
    decode: fn(&[u8]) -> Option<T>,
}

fn encode_read(read: &Read, out: &mut Vec<u8>) -> bool {
    codec::storable(read) && {
        codec::encode_read(read, out);
        true
    }
}

fn encode_records(records: &Records, out: &mut Vec<u8>) -> bool {
    codec::records_storable(records) && {
        codec::encode_records(records, out);
        true
    }
}

/// Per-thread buffers for stamping and encoding, kept in the worker's [`Scratch`].
#[derive(Default)]
struct Buffers {
    edges: Vec<u8>,
    reading: Vec<u8>,
}

impl Cache {
    /// No cache: every unit is read from its files.
    pub fn disabled() -> Self {
        Self {
            root: None,
            generation: String::new(),
            limit: DEFAULT_LIMIT,
            settle: DEFAULT_SETTLE,
            counters: Counters::default(),
        }
    }

    /// A cache in `root` (created on first write) for readings made by `generation`: a
    /// string that changes whenever the code that reads files may have changed.
    pub fn new(root: impl Into<PathBuf>, generation: impl Into<String>) -> Self {
        Self { root: Some(root.into()), generation: generation.into(), ..Self::disabled() }
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

    /// What the cache did so far.
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            hits: get(&c.hits),
            misses: get(&c.misses),
            stored: get(&c.stored),
            unsettled: get(&c.unsettled),
            write_errors: get(&c.write_errors),
        }
    }

    /// What reading `unit` with `options` gives ([`Unit::read`]): the stored reading when
    /// its inputs are unchanged, else read from the files and stored for next time. The
    /// result is the same either way, diagnostics included.
    pub fn read(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> Read {
        let kind = Kind { name: "read", encode: encode_read, decode: codec::decode_read };
        self.through(&kind, unit, scratch, options, |scratch| unit.read(scratch, options))
    }

    /// The unit's run records ([`Unit::records`]: every test with its error message,
    /// tokens, duration and cost), from the cache when its inputs are unchanged, as
    /// [`read`](Self::read) does.
    pub fn records(&self, unit: &dyn Unit, scratch: &mut Scratch, options: &Options) -> Records {
        let kind = Kind { name: "records", encode: encode_records, decode: codec::decode_records };
        self.through(&kind, unit, scratch, options, |scratch| unit.records(scratch, options))
    }

    fn through<T>(
        &self,
        kind: &Kind<T>,
        unit: &dyn Unit,
        scratch: &mut Scratch,
        options: &Options,
        compute: impl FnOnce(&mut Scratch) -> T,
    ) -> T {
        let Some(root) = &self.root else { return compute(scratch) };
        let identity = format!("{}\n{}\n{options:?}\n{unit:?}", self.generation, kind.name);
        let path = entry::path_for(root, &identity);
        let inputs = unit.inputs();
        let now = SystemTime::now();
        let stamps: Vec<Stamp> = {
            let buffers = scratch.slot::<Buffers>();
            inputs.iter().map(|p| Stamp::take(p, &mut buffers.edges)).collect()
        };
        if let Some(value) = Self::lookup(&path, &identity, &stamps, kind.decode) {
            self.counters.hits.fetch_add(1, Ordering::Relaxed);
            return value;
        }
        self.counters.misses.fetch_add(1, Ordering::Relaxed);
        let value = compute(scratch);
        let settled =
            stamps.iter().all(|s| s.settled(now, self.settle)) && inputs.iter().zip(&stamps).all(|(p, s)| s.still(p));
        if !settled {
            self.counters.unsettled.fetch_add(1, Ordering::Relaxed);
            return value;
        }
        let buffers = scratch.slot::<Buffers>();
        buffers.reading.clear();
        if (kind.encode)(&value, &mut buffers.reading) {
            let bytes = entry::encode(&identity, &stamps, &buffers.reading);
            let counter = match entry::write_atomic(&path, &bytes) {
                Ok(()) => &self.counters.stored,
                Err(_) => &self.counters.write_errors,
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
        value
    }

    fn lookup<T>(path: &Path, identity: &str, stamps: &[Stamp], decode: fn(&[u8]) -> Option<T>) -> Option<T> {
        let (map, written) = entry::map(path)?;
        let value = entry::reading(&map, identity, stamps).and_then(decode)?;
        if written.elapsed().is_ok_and(|age| age > FRESHEN_AFTER) {
            entry::freshen(path);
        }
        Some(value)
    }

    /// Removes the least recently used entries until the folder holds at most 80% of the
    /// limit, when it holds more than the limit, and leftovers (temporary files of
    /// interrupted writes older than an hour, folders of other layouts). Nothing to do for
    /// a disabled cache or a folder not made yet.
    pub fn prune(&self) -> Result<Pruned, CacheError> {
        match &self.root {
            Some(root) => prune::prune(root, self.limit),
            None => Ok(Pruned::default()),
        }
    }
}
