//! The cache folder as its owner sees it: how much it holds ([`Cache::usage`]), emptying it
//! ([`Cache::clear`]), and the size limit written as people write sizes ([`parse_size`]).

use std::path::Path;

use crate::files::own_folders;
use crate::{Cache, CacheError, entry_dir, pack};

/// The environment variable that sets the size the cache folder is kept under
/// ([`parse_size`] reads its value).
pub const ENV_SIZE: &str = "EVALTALLY_CACHE_SIZE";

/// What the cache folder holds ([`Cache::usage`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Stored readings: the newest entry of each identity (one per unit and kind of
    /// reading, for each generation and set of options).
    pub entries: u64,
    /// Pack files they are kept in.
    pub packs: u64,
    /// Bytes of everything in the folder's current layout: packs, folder listings and
    /// temporary files of writes in progress.
    pub bytes: u64,
    /// Bytes of older layouts, which the next prune removes.
    pub stale_bytes: u64,
    /// The size [`prune`](Cache::prune) keeps the folder under.
    pub limit: u64,
}

/// What [`Cache::clear`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    /// Files removed.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Why a size could not be read ([`parse_size`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// Nothing was given.
    #[error("no size given")]
    Empty,
    /// It does not begin with a number.
    #[error("`{0}` does not begin with a number")]
    NotANumber(String),
    /// The unit after the number is not one of `K`, `M`, `G`, `T` (powers of 1000) or
    /// `Ki`, `Mi`, `Gi`, `Ti` (powers of 1024), with or without a `B`.
    #[error("`{0}` is not a unit of size: use K, M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers of 1024)")]
    Unit(String),
    /// The size is zero (to keep nothing, turn the cache off instead).
    #[error("the size is zero")]
    Zero,
    /// The size does not fit in 64 bits.
    #[error("the size is too large")]
    TooLarge,
}

/// Reads a size as people write it: a number of bytes, optionally followed by a unit, `K`,
/// `M`, `G`, `T` (powers of 1000) or `Ki`, `Mi`, `Gi`, `Ti` (powers of 1024), with or
/// without a trailing `B`, in either case; the number may have a fraction.
///
/// ```
/// use evaltally_cache::{SizeError, parse_size};
///
/// assert_eq!(parse_size("4G"), Ok(4_000_000_000));
/// assert_eq!(parse_size("1.5 GiB"), Ok(3 << 29));
/// assert_eq!(parse_size("512mb"), Ok(512_000_000));
/// assert_eq!(parse_size("1048576"), Ok(1 << 20));
/// assert_eq!(parse_size("0"), Err(SizeError::Zero));
/// assert!(matches!(parse_size("4 parsecs"), Err(SizeError::Unit(_))));
/// ```
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(SizeError::Empty);
    }
    let digits = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: f64 = number.parse().map_err(|_| SizeError::NotANumber(text.to_string()))?;
    let unit_text = unit.trim();
    let lower = unit_text.to_ascii_lowercase();
    let unit = lower.strip_suffix('b').unwrap_or(&lower);
    let scale: f64 = match unit {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "g" => 1e9,
        "t" => 1e12,
        "ki" => 1024.0,
        "mi" => 1024.0 * 1024.0,
        "gi" => 1024.0 * 1024.0 * 1024.0,
        "ti" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return Err(SizeError::Unit(unit_text.to_string())),
    };
    let bytes = (number * scale).round();
    if bytes < 1.0 {
        return Err(SizeError::Zero);
    }
    // 2^64 is exactly representable; anything at or above it does not fit.
    if bytes >= 18_446_744_073_709_551_616.0 {
        return Err(SizeError::TooLarge);
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(bytes as u64)
}

impl Cache {
    /// What the cache folder holds; all zeros for a folder not made yet, and `None` for a
    /// disabled cache. Readings this process has not written yet are written first.
    ///
    /// ```
    /// use evaltally_cache::Cache;
    ///
    /// let root = tempfile::tempdir()?;
    /// let usage = Cache::new(root.path(), "example").usage().expect("an enabled cache");
    /// assert_eq!((usage.entries, usage.bytes), (0, 0));
    /// assert_eq!(usage.limit, evaltally_cache::DEFAULT_LIMIT);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn usage(&self) -> Option<Usage> {
        self.flush();
        let root = self.root.as_deref()?;
        let dir = entry_dir(root);
        let (packs, entries) = pack::count(&dir);
        let mut usage = Usage { entries, packs, limit: self.limit, ..Usage::default() };
        for (path, current) in own_folders(root, &dir) {
            let (_, bytes) = files_below(&path);
            if current {
                usage.bytes += bytes;
            } else {
                usage.stale_bytes += bytes;
            }
        }
        Some(usage)
    }

    /// Removes everything evaltally keeps in the cache folder (every layout's entries and
    /// listings), leaving the folder itself and anything else in it. Safe while other
    /// processes use the cache: a process that has a pack mapped keeps reading it, and one
    /// that is writing a pack counts it as not written. A disabled cache clears nothing.
    ///
    /// ```
    /// use evaltally_cache::Cache;
    ///
    /// let root = tempfile::tempdir()?;
    /// std::fs::create_dir_all(root.path().join("v2"))?;
    /// std::fs::write(root.path().join("v2/listings"), b"stored listings")?;
    /// let cleared = Cache::new(root.path(), "example").clear()?;
    /// assert_eq!((cleared.files, cleared.bytes), (1, 15));
    /// assert!(root.path().exists() && !root.path().join("v2").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn clear(&self) -> Result<Cleared, CacheError> {
        self.flush();
        let Some(root) = self.root.as_deref() else { return Ok(Cleared::default()) };
        let mut cleared = Cleared::default();
        for (path, _) in own_folders(root, &entry_dir(root)) {
            // Moved aside first, in one step: a process writing into the cache meanwhile
            // finds the layout folder gone and makes a new one, instead of adding files to
            // the folder being removed.
            let aside = root.join(format!(
                "{CLEARING}{}-{}",
                std::process::id(),
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
            match std::fs::rename(&path, &aside) {
                Ok(()) => {}
                // Another process cleared it first.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(source) => return Err(CacheError::Io { path, source }),
            }
            let (files, bytes) = files_below(&aside);
            match std::fs::remove_dir_all(&aside) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(CacheError::Io { path: aside, source: e });
                }
                _ => {}
            }
            cleared.files += files;
            cleared.bytes += bytes;
        }
        // Folders a killed clear left moved aside (where the system says which processes live).
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix(CLEARING)).and_then(|n| n.split('-').next());
            let gone =
                pid.is_some_and(|pid| Path::new("/proc/self").exists() && !Path::new("/proc").join(pid).exists());
            if gone {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Ok(cleared)
    }
}

/// How a layout folder being cleared is named while it is removed.
const CLEARING: &str = ".clearing-";

/// How many files `dir` holds, at any depth, and their bytes (symbolic links counted as
/// files, not followed).
fn files_below(dir: &Path) -> (u64, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else { return (0, 0) };
    let mut total = (0, 0);
    for entry in entries.flatten() {
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        let (files, bytes) = if meta.is_dir() { files_below(&entry.path()) } else { (1, meta.len()) };
        total.0 += files;
        total.1 += bytes;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::{SizeError, parse_size};

    #[test]
    fn sizes_are_read_in_both_kinds_of_units_and_anything_else_is_refused() {
        for (text, bytes) in [
            ("1", 1),
            ("1000", 1000),
            ("1k", 1000),
            ("1 KB", 1000),
            ("1KiB", 1024),
            ("2 M", 2_000_000),
            ("2mi", 2 << 20),
            ("0.5G", 500_000_000),
            ("1GiB", 1 << 30),
            ("1.5 gib", 3 << 29),
            ("3T", 3_000_000_000_000),
            ("1 TiB", 1 << 40),
            ("  7b  ", 7),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for (text, error) in [
            ("", SizeError::Empty),
            ("   ", SizeError::Empty),
            ("G", SizeError::NotANumber("G".into())),
            ("1.2.3G", SizeError::NotANumber("1.2.3G".into())),
            ("-1G", SizeError::NotANumber("-1G".into())),
            ("4 parsecs", SizeError::Unit("parsecs".into())),
            ("4 GB extra", SizeError::Unit("GB extra".into())),
            ("0", SizeError::Zero),
            ("0.1", SizeError::Zero),
            ("0 GiB", SizeError::Zero),
            ("20000000 TiB", SizeError::TooLarge),
        ] {
            assert_eq!(parse_size(text), Err(error), "{text:?}");
        }
    }
}
