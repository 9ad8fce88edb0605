//! The digest cache every reading command shares: where it lives, whether it is on, and
//! what this build calls its generation.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use evaltally_analyzer::{Filter, Records, load};
use evaltally_cache::Cache;

static CACHE: OnceLock<Cache> = OnceLock::new();

/// Sets up the cache for this process: off with `--no-cache`; else in `$EVALTALLY_CACHE`
/// or the user's cache folder.
pub(crate) fn init(no_cache: bool) {
    let cache = match Cache::default_root() {
        Some(root) if !no_cache => Cache::new(root, generation()),
        _ => Cache::disabled(),
    };
    let _ = CACHE.set(cache);
}

/// The process's cache (disabled when [`init`] was not called).
pub(crate) fn get() -> &'static Cache {
    CACHE.get_or_init(Cache::disabled)
}

/// What makes this build's readings its own: the version, and the size and time of the
/// executable, so that a rebuilt evaltally (whose readers may have changed) never trusts
/// what an older one stored.
fn generation() -> String {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(p).ok());
    let (size, modified) = exe.map_or((0, None), |m| (m.len(), m.modified().ok()));
    let modified = modified.and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    format!("evaltally {} exe {size} {modified}", env!("CARGO_PKG_VERSION"))
}

/// After a command read runs: keeps the folder under its limit when this run stored
/// anything, and says once when entries could not be written (the analysis itself is
/// unaffected, so this is a note, not a warning that changes the exit code).
pub(crate) fn settle() {
    static NOTED: AtomicBool = AtomicBool::new(false);
    let cache = get();
    let stats = cache.stats();
    if stats.write_errors > 0
        && let Some(root) = cache.root()
        && !NOTED.swap(true, Ordering::Relaxed)
    {
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "note: the cache folder {} cannot be written; runs are read in full each time (set EVALTALLY_CACHE, or pass --no-cache)",
                crate::output::shown(root)
            );
        }
    }
    if stats.stored > 0 {
        let _ = cache.prune();
    }
}

/// The run records below `paths` ([`load::records`]) through the cache, and those the
/// `store:…` arguments left unresolved select in the PostgreSQL store; "nothing found" is
/// explained as a usage error.
pub(crate) fn records(paths: &[PathBuf], filter: &Filter) -> anyhow::Result<Records> {
    let (stored, files) = crate::store::split(paths);
    let mut records = if files.is_empty() {
        Records::default()
    } else {
        let records =
            load::records_cached(&files, filter, get()).map_err(|e| crate::commands::stability::explain(&e))?;
        settle();
        records
    };
    if !stored.is_empty() {
        load::add_records(&mut records, crate::store::records(&stored)?, filter);
    }
    Ok(records)
}
