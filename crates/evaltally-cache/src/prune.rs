//! Keeping the cache folder under its size limit, least recently used entries first.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::CacheError;
use crate::entry::{VERSION, layout_dir};

/// How old a temporary file must be before pruning takes it for the leftover of an
/// interrupted write rather than a write in progress.
const STALE_TEMPORARY: Duration = Duration::from_hours(1);

/// What a prune found and removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Entries in the folder before pruning.
    pub entries: u64,
    /// Their total size in bytes.
    pub bytes: u64,
    /// Entries (and leftovers) removed.
    pub removed: u64,
    /// Bytes freed.
    pub freed: u64,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CacheError + '_ {
    move |source| CacheError::Io { path: path.to_path_buf(), source }
}

pub(crate) fn prune(root: &Path, limit: u64) -> Result<Pruned, CacheError> {
    let mut pruned = Pruned::default();
    let top = match std::fs::read_dir(root) {
        Ok(top) => top,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(pruned),
        Err(e) => return Err(io(root)(e)),
    };
    // Folders of other layouts: nothing reads them any more.
    for dir in top.flatten() {
        let name = dir.file_name();
        let name = name.to_string_lossy();
        let other_layout = name.strip_prefix('v').is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n != VERSION));
        if other_layout && dir.file_type().is_ok_and(|t| t.is_dir()) {
            let path = dir.path();
            std::fs::remove_dir_all(&path).map_err(io(&path))?;
            pruned.removed += 1;
        }
    }
    let layout = layout_dir(root);
    let shards = match std::fs::read_dir(&layout) {
        Ok(shards) => shards,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(pruned),
        Err(e) => return Err(io(&layout)(e)),
    };
    let now = SystemTime::now();
    let mut entries = Vec::new();
    for shard in shards.flatten() {
        let shard_path = shard.path();
        let Ok(files) = std::fs::read_dir(&shard_path) else { continue };
        for file in files.flatten() {
            let Ok(meta) = file.metadata() else { continue };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            let path = file.path();
            if file.file_name().to_string_lossy().starts_with(".tmp-") {
                if now.duration_since(used).is_ok_and(|age| age > STALE_TEMPORARY) {
                    std::fs::remove_file(&path).map_err(io(&path))?;
                    pruned.removed += 1;
                    pruned.freed += meta.len();
                }
                continue;
            }
            pruned.entries += 1;
            pruned.bytes += meta.len();
            entries.push((used, meta.len(), path));
        }
    }
    if pruned.bytes <= limit {
        return Ok(pruned);
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.2.cmp(&b.2)));
    let target = limit / 5 * 4;
    let mut left = pruned.bytes;
    for (_, size, path) in entries {
        if left <= target {
            break;
        }
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            // Another evaltally pruned it first.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&path)(e)),
        }
        left -= size;
        pruned.removed += 1;
        pruned.freed += size;
    }
    Ok(pruned)
}
