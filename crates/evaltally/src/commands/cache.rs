//! `evaltally cache`: the digest cache's folder, what it holds, emptying and pruning it.

use std::fmt::Write as _;

use evaltally_cache::{Cache, Usage};
use evaltally_core::schema::{SchemaId, SortedKeys};
use serde::Serialize;

use crate::cli::{CacheAction, CacheArgs, InfoFormat};
use crate::{Exit, UsageError, output};

/// The identifier of [`InfoDocument`], `evaltally.cache-info/1`.
pub(crate) const INFO_SCHEMA: SchemaId = SchemaId::new("cache-info", 1);

/// The JSON document `evaltally cache info --format json` prints: the digest cache's
/// folder, what it holds and its size limit. Its keys are written sorted, the `schema`
/// key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct InfoDocument {
    /// The document's name and version, [`INFO_SCHEMA`].
    pub(crate) schema: SchemaId,
    /// The cache folder.
    pub(crate) folder: String,
    /// Stored readings.
    pub(crate) entries: u64,
    /// Pack files they are kept in.
    pub(crate) packs: u64,
    /// Bytes of the folder's current layout.
    pub(crate) bytes: u64,
    /// Bytes of an older evaltally's layout, which the next prune removes.
    pub(crate) stale_bytes: u64,
    /// The size a prune keeps the folder under.
    pub(crate) limit: u64,
}

pub(crate) fn run(args: &CacheArgs) -> anyhow::Result<Exit> {
    // The folder the analyses use, whether or not this command was given --no-cache.
    let root = Cache::default_root().ok_or_else(|| {
        UsageError(format!(
            "there is no cache folder: set {} (no home folder was found to keep it in)",
            evaltally_cache::ENV_DIR
        ))
    })?;
    let cache = Cache::new(&root, "").with_limit(crate::cache::limit()?);
    let folder = output::shown(&root);
    if !matches!(args.action, CacheAction::Dir) && root.exists() && !root.is_dir() {
        return Err(UsageError(format!(
            "the cache folder {folder} is not a folder: set {} to a folder (or remove the file)",
            evaltally_cache::ENV_DIR
        ))
        .into());
    }
    let usage = || cache.usage().unwrap_or_default();
    let text = match args.action {
        CacheAction::Dir => format!("{folder}\n"),
        CacheAction::Info { format: InfoFormat::Text } => info(&folder, &usage()),
        CacheAction::Info { format: InfoFormat::Json } => {
            let u = usage();
            let doc = InfoDocument {
                schema: INFO_SCHEMA,
                folder: root.to_string_lossy().into_owned(),
                entries: u.entries,
                packs: u.packs,
                bytes: u.bytes,
                stale_bytes: u.stale_bytes,
                limit: u.limit,
            };
            format!("{}\n", serde_json::to_string_pretty(&SortedKeys(&doc))?)
        }
        CacheAction::Clean => {
            let cleared = cache.clear()?;
            if cleared.files == 0 {
                format!("the cache in {folder} is empty already\n")
            } else {
                format!("removed {} ({}) from {folder}\n", count(cleared.files, "file"), size(cleared.bytes))
            }
        }
        CacheAction::Prune => {
            let before = usage();
            cache.compact_now()?;
            let after = usage();
            let line = |u: &Usage| {
                format!(
                    "{} in {}, {}",
                    count(u.entries, "reading"),
                    count(u.packs, "pack"),
                    size(u.bytes + u.stale_bytes)
                )
            };
            format!(
                "pruned {folder}\nbefore  {}\nafter   {} (limit {})\n",
                line(&before),
                line(&after),
                size(after.limit)
            )
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}

fn info(folder: &str, u: &Usage) -> String {
    let set = std::env::var_os(evaltally_cache::ENV_SIZE).is_some_and(|v| !v.is_empty());
    let env = evaltally_cache::ENV_SIZE;
    let mut text = format!(
        "folder    {folder}\nreadings  {}, in {}\nsize      {}\nlimit     {} ({})\n",
        u.entries,
        count(u.packs, "pack"),
        size(u.bytes),
        size(u.limit),
        if set { format!("from ${env}") } else { format!("the default; ${env} changes it") }
    );
    if u.stale_bytes > 0 {
        let _ = writeln!(
            text,
            "older     {} of an older evaltally's layout, removed by the next prune",
            size(u.stale_bytes)
        );
    }
    text
}

/// "1 pack" / "3 packs".
fn count(n: u64, word: &str) -> String {
    super::stability::plural(usize::try_from(n).unwrap_or(usize::MAX), word)
}

/// A size in powers of 1024, as the limit's default (1 GiB) is written: `512 B`,
/// `8.5 MiB`, `1 GiB`.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    #[allow(clippy::cast_precision_loss)]
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let shown = format!("{value:.1}");
    let shown = shown.strip_suffix(".0").unwrap_or(&shown);
    format!("{shown} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_are_shown_in_powers_of_1024() {
        for (bytes, shown) in [
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1 KiB"),
            (1536, "1.5 KiB"),
            (8_912_896, "8.5 MiB"),
            (1 << 30, "1 GiB"),
            (5 << 40, "5 TiB"),
            (5 << 50, "5120 TiB"),
        ] {
            assert_eq!(size(bytes), shown, "{bytes}");
        }
    }
}
