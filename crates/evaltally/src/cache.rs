//! The digest cache every reading command shares: where it lives, whether it is on, and
//! what this build calls its generation.

use std::path::PathBuf;
use std::sync::OnceLock;

use evaltally_cache::{Cache, DEFAULT_LIMIT, ENV_SIZE, parse_size};

use crate::UsageError;

static CACHE: OnceLock<Cache> = OnceLock::new();

/// Sets up the cache for this process: off with `--no-cache`; else in `$EVALTALLY_CACHE`
/// or the user's cache folder, kept under [`limit`]. `exe` is the file that identifies this
/// build (default: the running executable).
pub(crate) fn init(no_cache: bool, exe: Option<PathBuf>) -> anyhow::Result<()> {
    let cache = match Cache::default_root() {
        Some(root) if !no_cache => Cache::new(root, generation(exe)).with_limit(limit()?),
        _ => Cache::disabled(),
    };
    let _ = CACHE.set(cache);
    Ok(())
}

/// The size the cache folder is kept under: `$EVALTALLY_CACHE_SIZE` (unset or empty: 1 GiB);
/// a value that is not a size is a usage error.
pub(crate) fn limit() -> anyhow::Result<u64> {
    let Some(value) = std::env::var_os(ENV_SIZE).filter(|v| !v.is_empty()) else { return Ok(DEFAULT_LIMIT) };
    let text = value.to_string_lossy();
    parse_size(&text).map_err(|e| {
        UsageError(format!(
            "{ENV_SIZE}={}: {e}; write a size such as 4GiB or 500M, or unset it for 1GiB",
            evaltally_core::text::printable(&text)
        ))
        .into()
    })
}

/// The process's cache (disabled when [`init`] was not called).
pub(crate) fn get() -> &'static Cache {
    CACHE.get_or_init(Cache::disabled)
}

/// What makes this build's readings its own: the version (with the commit), and the size
/// and time of the executable (or of `exe`), so that a rebuilt evaltally (whose readers may
/// have changed) never trusts what an older one stored.
fn generation(exe: Option<PathBuf>) -> String {
    let exe = exe.or_else(|| std::env::current_exe().ok()).and_then(|p| std::fs::metadata(p).ok());
    let (size, modified) = exe.map_or((0, None), |m| (m.len(), m.modified().ok()));
    let modified = modified.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    format!("evaltally {} exe {size} {modified}", crate::VERSION)
}

/// After the command, its output printed: waits for the entries still being written,
/// keeps the folder under its limit when this run stored anything, and says when entries
/// could not be written (the analysis itself is unaffected, so this is a note, not a
/// warning that changes the exit code).
pub(crate) fn settle() {
    let cache = get();
    let stats = cache.stats();
    if stats.write_errors > 0
        && let Some(root) = cache.root()
    {
        let cause = cache.write_error().unwrap_or_else(|| "unknown cause".to_string());
        let kept = stats.stored;
        let tried = kept + stats.write_errors;
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "note: the cache folder {} could not be written ({}): {kept} of {tried} readings were stored, the \
                 rest are read in full next time (free room or set EVALTALLY_CACHE, or pass --no-cache)",
                crate::output::shown(root),
                crate::output::safe_lines(&cause)
            );
        }
    }
    if stats.stored > 0 {
        let _ = cache.prune();
    }
    if std::env::var_os("EVALTALLY_CACHE_STATS").is_some_and(|v| !v.is_empty()) {
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "cache: {} hits, {} misses, {} stored, {} not settled, {} not written, {} folders reused, {} units read",
                stats.hits,
                stats.misses,
                stats.stored,
                stats.unsettled,
                stats.write_errors,
                stats.folders_reused,
                stats.units_read
            );
        }
    }
}
