//! The cache folder seen by its owner: `usage` counts what reading stored, `clear` removes
//! all of evaltally's files and nothing else, and a cleared cache fills again.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use evaltally_cache::{Cache, Usage};
use evaltally_format::{Options, Scratch};
use evaltally_testkit::{files_and_bytes_below, testdata};

fn runs() -> PathBuf {
    testdata("gstack/standard")
}

/// Reads every unit below the gstack fixtures through `cache` and writes what it stored;
/// returns how many units there were.
fn read_all(cache: &Cache) -> u64 {
    let found = evaltally_formats::registry().discover_with(&[runs()], &Options::default(), cache).unwrap();
    let mut scratch = Scratch::default();
    for unit in &found.units {
        cache.read(unit.as_ref(), &mut scratch, &Options::default());
    }
    cache.flush();
    found.units.len() as u64
}

#[test]
fn usage_counts_what_was_stored_and_clear_removes_only_evaltallys_files() {
    let root = tempfile::tempdir().unwrap();
    let cache = || Cache::new(root.path(), "test").settle_after(Duration::ZERO).with_limit(1 << 20);
    assert_eq!(cache().usage(), Some(Usage { limit: 1 << 20, ..Usage::default() }), "nothing made yet");

    let units = read_all(&cache());
    assert!(units >= 2);
    // The layout folder is tagged for backup tools to leave out; the folder above, which
    // the user may have named, is not.
    let tag = fs::read_to_string(root.path().join(evaltally_cache::layout_folder()).join("CACHEDIR.TAG")).unwrap();
    assert!(tag.starts_with("Signature: 8a477f597d28d172789f06886806bc55"), "{tag}");
    assert!(!root.path().join("CACHEDIR.TAG").exists());
    let usage = cache().usage().unwrap();
    assert_eq!((usage.entries, usage.packs), (units, 1), "{usage:?}");
    assert_eq!(
        usage.bytes,
        files_and_bytes_below(&root.path().join(evaltally_cache::layout_folder())).1,
        "packs and listings"
    );
    assert_eq!(usage.stale_bytes, 0);

    // A second process reading the same runs stores nothing new; a layout of an older
    // evaltally is counted apart; a file of the user's own is not the cache's.
    read_all(&cache());
    fs::create_dir_all(root.path().join("v1/sub")).unwrap();
    fs::write(root.path().join("v1/sub/old.entry"), [0u8; 100]).unwrap();
    fs::write(root.path().join("notes.txt"), b"mine").unwrap();
    fs::create_dir(root.path().join("version-notes")).unwrap();
    let again = cache().usage().unwrap();
    assert_eq!((again.entries, again.packs, again.bytes), (usage.entries, 1, usage.bytes));
    assert_eq!(again.stale_bytes, 100);

    let cleared = cache().clear().unwrap();
    assert_eq!(cleared.bytes, usage.bytes + 100);
    assert!(cleared.files >= 4, "a pack, the listings, the tag and the old entry: {cleared:?}");
    assert!(!root.path().join(evaltally_cache::layout_folder()).exists() && !root.path().join("v1").exists());
    assert!(root.path().join("notes.txt").exists() && root.path().join("version-notes").exists());
    assert_eq!(cache().usage(), Some(Usage { limit: 1 << 20, ..Usage::default() }));
    assert_eq!(cache().clear().unwrap().files, 0, "clearing an empty cache removes nothing");

    // Cleared, it fills again: the runs are read, then found.
    let refill = cache();
    read_all(&refill);
    assert_eq!(refill.stats().misses, units);
    let warm = cache();
    read_all(&warm);
    assert_eq!(warm.stats().hits, units);
}

#[test]
fn a_disabled_cache_has_no_usage_and_clears_nothing() {
    let cache = Cache::disabled();
    assert_eq!(cache.usage(), None);
    assert_eq!(cache.clear().unwrap(), evaltally_cache::Cleared::default());
}
