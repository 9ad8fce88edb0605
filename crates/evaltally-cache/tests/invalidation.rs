//! The cache never trusts an entry for a file that changed: touching, growing, truncating,
//! rewriting in place or replacing an input makes the unit be read again, and a damaged,
//! foreign or misplaced entry is ignored and rewritten. Checked on a BFCL run (a unit of two
//! files) read through the real registry.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use evaltally_cache::{Cache, Stats};
use evaltally_core::Outcome;
use evaltally_format::walk::FOLDER_SETTLE;
use evaltally_format::{Options, Scratch};

struct Run {
    _dir: tempfile::TempDir,
    root: PathBuf,
    result: PathBuf,
    score: PathBuf,
}

/// One BFCL v4 run of 400 `simple_python` tests (a result file well over the 8 KiB the
/// content hash covers), of which `simple_python_1` failed.
fn run() -> Run {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run-1");
    let result = root.join("result/m/BFCL_v4_simple_python_result.json");
    let score = root.join("score/m/BFCL_v4_simple_python_score.json");
    fs::create_dir_all(result.parent().unwrap()).unwrap();
    fs::create_dir_all(score.parent().unwrap()).unwrap();
    let lines = (0..400).fold(String::new(), |mut lines, i| {
        let _ = writeln!(lines, "{{\"id\": \"simple_python_{i:03}\", \"result\": \"ok\"}}");
        lines
    });
    fs::write(&result, lines).unwrap();
    fs::write(
        &score,
        "{\"accuracy\": 0.9975, \"correct_count\": 399, \"total_count\": 400}\n\
         {\"id\": \"simple_python_001\", \"valid\": false, \"error_type\": \"value_error:string\"}\n",
    )
    .unwrap();
    let old = SystemTime::now() - Duration::from_mins(1);
    for f in [&result, &score] {
        fs::File::options().write(true).open(f).unwrap().set_modified(old).unwrap();
    }
    Run { _dir: dir, root, result, score }
}

/// Every (id, outcome) reading `root` gives, through `cache`, and what the cache did.
fn read(cache: &Cache, root: &Path) -> (Vec<(String, Outcome)>, Stats) {
    let before = cache.stats();
    let found = evaltally_formats::registry().discover_with(&[root.to_path_buf()], &Options::default(), cache).unwrap();
    let mut scratch = Scratch::default();
    let mut tests = Vec::new();
    for unit in &found.units {
        for run in cache.read(unit.as_ref(), &mut scratch, &Options::default()).runs {
            tests.extend(run.tests().map(|t| (t.id.to_string(), t.outcome)));
        }
    }
    let after = cache.stats();
    let delta = Stats {
        hits: after.hits - before.hits,
        misses: after.misses - before.misses,
        stored: after.stored - before.stored,
        unsettled: after.unsettled - before.unsettled,
        write_errors: after.write_errors - before.write_errors,
        folders_reused: after.folders_reused - before.folders_reused,
        units_read: after.units_read - before.units_read,
    };
    // Through the cache, a unit's files are read exactly when its reading was missing.
    if cache.root().is_some() {
        assert_eq!(delta.units_read, delta.misses, "{delta:?}");
    }
    (tests, delta)
}

fn fresh(root: &Path) -> Vec<(String, Outcome)> {
    read(&Cache::disabled(), root).0
}

fn outcome(tests: &[(String, Outcome)], id: &str) -> Option<Outcome> {
    tests.iter().find(|(t, _)| t == id).map(|(_, o)| *o)
}

fn cache_in(dir: &Path) -> Cache {
    Cache::new(dir, "test").settle_after(Duration::ZERO)
}

/// The cache's pack files.
fn packs(dir: &Path) -> Vec<PathBuf> {
    files(dir, "pack")
}

/// The cache's files with `extension`.
fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(files) = fs::read_dir(dir.join(evaltally_cache::layout_folder())) else { return Vec::new() };
    let mut out: Vec<PathBuf> =
        files.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == extension)).collect();
    out.sort();
    out
}

/// After a change made by `change`, the unit is read again, and gives what the files say.
fn changed_is_read_again(change: impl FnOnce(&Run)) {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let (first, stats) = read(&cache, &run.root);
    assert_eq!((stats.misses, stats.stored), (1, 1));
    let (again, stats) = read(&cache, &run.root);
    assert_eq!(again, first);
    assert_eq!(stats.hits, 1);
    // Times have the file system's tick: let a change land in another one.
    std::thread::sleep(Duration::from_millis(30));
    change(&run);
    let (after, stats) = read(&cache, &run.root);
    assert_eq!(stats.hits, 0, "an entry was trusted for a changed file");
    assert_eq!(after, fresh(&run.root));
}

#[test]
fn an_unchanged_run_is_read_from_the_cache_with_the_same_result() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let (cold, stats) = read(&cache, &run.root);
    assert_eq!(cold, fresh(&run.root));
    assert_eq!(cold.len(), 400);
    assert_eq!(outcome(&cold, "simple_python_001"), Some(Outcome::Fail));
    assert_eq!((stats.hits, stats.misses, stats.stored), (0, 1, 1));
    let (warm, stats) = read(&cache, &run.root);
    assert_eq!(warm, cold);
    assert_eq!((stats.hits, stats.misses, stats.stored), (1, 0, 0));
    assert_eq!(packs(store.path()).len(), 1, "one pack for what one process stored");
}

/// Readings written behind (in a thread of their own, while the caller goes on) are
/// counted once flushed, in one pack that a new process finds.
#[test]
fn readings_written_behind_are_stored_by_the_flush() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let found = evaltally_formats::registry()
        .discover_with(std::slice::from_ref(&run.root), &Options::default(), &cache)
        .unwrap();
    for unit in &found.units {
        cache.read(unit.as_ref(), &mut Scratch::default(), &Options::default());
    }
    cache.write_behind();
    let stats = cache.stats();
    assert_eq!((stats.misses, stats.stored, stats.write_errors), (1, 1, 0));
    assert_eq!(packs(store.path()).len(), 1);
    cache.write_behind();
    assert_eq!(cache.stats().stored, 1, "nothing left to write");
    let (tests, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(stats.hits, 1);
    assert_eq!(tests, fresh(&run.root));
}

#[test]
fn touching_a_file_invalidates_its_entry() {
    changed_is_read_again(|run| {
        fs::File::options().write(true).open(&run.score).unwrap().set_modified(SystemTime::now()).unwrap();
    });
}

#[test]
fn growing_a_file_invalidates_its_entry() {
    changed_is_read_again(|run| {
        let mut score = fs::read_to_string(&run.score).unwrap();
        score.push_str("{\"id\": \"simple_python_002\", \"valid\": false, \"error_type\": \"type_error\"}\n");
        fs::write(&run.score, score).unwrap();
    });
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    read(&cache, &run.root);
    let mut score = fs::read_to_string(&run.score).unwrap();
    score.push_str("{\"id\": \"simple_python_002\", \"valid\": false, \"error_type\": \"type_error\"}\n");
    fs::write(&run.score, score).unwrap();
    assert_eq!(outcome(&read(&cache, &run.root).0, "simple_python_002"), Some(Outcome::Fail));
}

#[test]
fn truncating_a_file_invalidates_its_entry() {
    changed_is_read_again(|run| {
        let score = fs::read_to_string(&run.score).unwrap();
        fs::write(&run.score, score.lines().next().unwrap()).unwrap();
    });
}

#[test]
fn rewriting_the_middle_of_a_file_in_place_at_the_same_size_invalidates_its_entry() {
    changed_is_read_again(|run| {
        let result = fs::read_to_string(&run.result).unwrap();
        assert!(result.len() > 3 * 4096);
        // Far from the head and the tail the content hash covers; same length.
        let changed = result.replacen("simple_python_200", "simple_python_999", 1);
        assert_eq!(changed.len(), result.len());
        fs::write(&run.result, changed).unwrap();
    });
}

#[test]
fn replacing_a_file_by_rename_invalidates_its_entry() {
    changed_is_read_again(|run| {
        let result = fs::read_to_string(&run.result).unwrap();
        let new = run.result.with_extension("tmp");
        fs::write(&new, result.replacen("simple_python_200", "simple_python_999", 1)).unwrap();
        let old = SystemTime::now() - Duration::from_mins(1);
        fs::File::options().write(true).open(&new).unwrap().set_modified(old).unwrap();
        fs::rename(&new, &run.result).unwrap();
    });
}

#[test]
fn a_score_file_appearing_beside_its_result_file_is_seen() {
    let run = run();
    let score = fs::read(&run.score).unwrap();
    fs::remove_file(&run.score).unwrap();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let (unscored, _) = read(&cache, &run.root);
    assert_eq!(outcome(&unscored, "simple_python_001"), Some(Outcome::Unscored));
    fs::write(&run.score, score).unwrap();
    let (scored, stats) = read(&cache, &run.root);
    assert_eq!(stats.hits, 0);
    assert_eq!(outcome(&scored, "simple_python_001"), Some(Outcome::Fail));
}

#[test]
fn damaged_foreign_and_misplaced_packs_are_ignored_and_rewritten() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let (expected, _) = read(&cache_in(store.path()), &run.root);
    let [pack] = packs(store.path()).try_into().unwrap();
    let good = fs::read(&pack).unwrap();

    let flip = |at: usize| {
        let mut bytes = good.clone();
        bytes[at] ^= 0x55;
        bytes
    };
    // A whole, valid pack, but for another generation: what a hash collision would look like.
    let other = {
        let elsewhere = tempfile::tempdir().unwrap();
        read(&Cache::new(elsewhere.path(), "another generation").settle_after(Duration::ZERO), &run.root);
        let [p] = packs(elsewhere.path()).try_into().unwrap();
        fs::read(p).unwrap()
    };
    let bad = [
        flip(good.len() / 3), // inside the entry: its checksum
        // Inside the index, the offset of the (one) row: what it points to is no entry. (A
        // lookup reads the index in place, unchecked; the entry's own checks refuse.)
        flip(good.len() - 8 - 24 - 40 + 16),
        good[..good.len() / 2].to_vec(),
        b"not a pack at all".to_vec(),
        Vec::new(),
        other,
    ];
    for (n, bytes) in bad.iter().enumerate() {
        for p in packs(store.path()) {
            fs::remove_file(p).unwrap();
        }
        fs::write(&pack, bytes).unwrap();
        let cache = cache_in(store.path());
        let (tests, stats) = read(&cache, &run.root);
        assert_eq!(tests, expected);
        assert_eq!((stats.hits, stats.misses, stats.stored), (0, 1, 1), "bad pack {n} was used");
        let (tests, stats) = read(&cache_in(store.path()), &run.root);
        assert_eq!(tests, expected);
        assert_eq!(stats.hits, 1, "the reading was stored again after bad pack {n}");
    }
}

#[test]
fn a_file_changed_just_before_it_was_read_is_not_stored() {
    let run = run();
    fs::write(&run.score, fs::read(&run.score).unwrap()).unwrap();
    let store = tempfile::tempdir().unwrap();
    let cache = Cache::new(store.path(), "test");
    let (_, stats) = read(&cache, &run.root);
    assert_eq!((stats.misses, stats.stored, stats.unsettled), (1, 0, 1));
    assert!(packs(store.path()).is_empty());
}

#[test]
fn pruning_keeps_what_was_used_last_down_to_the_limit() {
    let store = tempfile::tempdir().unwrap();
    let runs: Vec<Run> = (0..4).map(|_| run()).collect();
    {
        let cache = cache_in(store.path());
        for r in &runs {
            read(&cache, &r.root);
        }
    }
    let size: u64 = packs(store.path()).iter().map(|p| fs::metadata(p).unwrap().len()).sum();
    // A later process uses runs 3 and 2, then prunes to three quarters of the cache's size:
    // 80% of that holds two of the four entries.
    let cache = Cache::new(store.path(), "test").settle_after(Duration::ZERO).with_limit(size / 4 * 3);
    for r in [&runs[3], &runs[2]] {
        assert_eq!(read(&cache, &r.root).1.hits, 1);
    }
    let pruned = cache.prune().unwrap();
    assert_eq!((pruned.entries, pruned.removed), (4, 2), "{pruned:?}");
    assert_eq!(packs(store.path()).len(), 1, "merged into one pack");
    let later = cache_in(store.path());
    assert_eq!(read(&later, &runs[3].root).1.hits, 1, "a used entry stayed");
    assert_eq!(read(&later, &runs[2].root).1.hits, 1, "a used entry stayed");
    assert_eq!(read(&later, &runs[0].root).1.hits, 0, "an unused entry went");
}

/// A process that finds everything in the cache stores nothing, yet pruning must see what
/// it used: entries read every day outlive newer ones nobody reads.
#[test]
fn pruning_sees_the_uses_of_processes_that_only_read_from_the_cache() {
    let store = tempfile::tempdir().unwrap();
    let runs: Vec<Run> = (0..4).map(|_| run()).collect();
    let days_ago = |days: u64| SystemTime::now() - Duration::from_hours(24 * days);
    // Runs 2 and 3 stored ten days ago, runs 0 and 1 nine days ago.
    for (days, stored) in [(10, &runs[2..]), (9, &runs[..2])] {
        let cache = cache_in(store.path()).clock(days_ago(days));
        for r in stored {
            assert_eq!(read(&cache, &r.root).1.stored, 1);
        }
    }
    // Two days ago a process read runs 2 and 3 from the cache, and stored nothing.
    let reader = cache_in(store.path()).clock(days_ago(2));
    for r in &runs[2..] {
        let (_, stats) = read(&reader, &r.root);
        assert_eq!((stats.hits, stats.stored), (1, 0));
    }
    drop(reader);
    // (Written at each flush, and `read` flushes for its counts: one file per run here.)
    let recorded = files(store.path(), "uses");
    assert_eq!(recorded.len(), 2, "their uses are recorded");
    // An hour later another read run 3: that use is recent, so nothing more is written.
    let again = cache_in(store.path()).clock(days_ago(2) + Duration::from_hours(1));
    assert_eq!(read(&again, &runs[3].root).1.hits, 1);
    drop(again);
    assert_eq!(files(store.path(), "uses"), recorded);
    // Pruning to where two of the four entries stay keeps the two read two days ago.
    let size: u64 = packs(store.path()).iter().map(|p| fs::metadata(p).unwrap().len()).sum();
    let pruned = cache_in(store.path()).with_limit(size / 4 * 3).prune().unwrap();
    assert_eq!((pruned.entries, pruned.removed), (4, 2), "{pruned:?}");
    assert!(files(store.path(), "uses").is_empty(), "merging all the packs took the uses in");
    let later = cache_in(store.path());
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(read(&later, &r.root).1.hits, u64::from(i >= 2), "run {i}");
    }
}

#[test]
fn many_processes_storing_give_at_most_eight_packs() {
    let store = tempfile::tempdir().unwrap();
    let runs: Vec<Run> = (0..12).map(|_| run()).collect();
    for r in &runs {
        let cache = cache_in(store.path());
        read(&cache, &r.root);
        cache.prune().unwrap();
        assert!(packs(store.path()).len() <= 8);
    }
    let cache = cache_in(store.path());
    for r in &runs {
        assert_eq!(read(&cache, &r.root).1.hits, 1, "every run is still there after the merges");
    }
}

/// A unit that lists no input files (a third-party `Unit` that keeps the default) is read
/// every time: nothing could tell the cache that it changed.
#[test]
fn a_unit_without_inputs_is_never_stored() {
    use evaltally_format::{Read, Records, Shown, Unit, Validated};

    #[derive(Debug)]
    struct Opaque;
    impl Unit for Opaque {
        fn format(&self) -> &'static str {
            "opaque"
        }
        fn size(&self) -> u64 {
            0
        }
        fn label(&self) -> String {
            "opaque".into()
        }
        fn read(&self, _: &mut Scratch, _: &Options) -> Read {
            Read::default()
        }
        fn records(&self, _: &mut Scratch, _: &Options) -> Records {
            Records::default()
        }
        fn show(&self, _: &mut Scratch, _: &str, _: &Options) -> Shown {
            Shown::default()
        }
        fn validate(&self, _: &mut Scratch, _: &Options) -> Validated {
            Validated::default()
        }
    }
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    for _ in 0..2 {
        cache.read(&Opaque, &mut Scratch::default(), &Options::default());
    }
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.stored), (0, 0, 0));
    assert!(packs(store.path()).is_empty());
}

/// A unit of `files`, read by a closure-free test double: each file's text is a test id.
/// How often it was read is not part of its `Debug` form, which is its identity in the
/// cache; when `rewrite_while_read` is set, its first reading rewrites the first file
/// halfway, as a harness still writing would.
struct Small {
    files: Vec<PathBuf>,
    reads: std::sync::atomic::AtomicUsize,
    rewrite_while_read: bool,
}

impl std::fmt::Debug for Small {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Small").field("files", &self.files).finish_non_exhaustive()
    }
}

impl Small {
    /// `n` files of a few bytes in `dir`, last modified a minute ago (at a time with
    /// nanoseconds, as most file systems keep).
    fn new(dir: &Path, n: usize) -> Self {
        Self::padded(dir, n, 0)
    }

    /// [`new`](Self::new), each file's id padded with `pad` dashes.
    fn padded(dir: &Path, n: usize, pad: usize) -> Self {
        let old = SystemTime::now() - Duration::from_mins(1) + Duration::from_nanos(123_456_789);
        let files = (0..n)
            .map(|i| {
                let f = dir.join(format!("instance-{i:03}.json"));
                fs::write(&f, format!("instance-{i:03}{}", "-".repeat(pad))).unwrap();
                fs::File::options().write(true).open(&f).unwrap().set_modified(old).unwrap();
                f
            })
            .collect();
        Self { files, reads: std::sync::atomic::AtomicUsize::new(0), rewrite_while_read: false }
    }

    fn reads(&self) -> usize {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn ids(read: &evaltally_format::Read) -> Vec<String> {
        read.runs.iter().flat_map(|r| r.tests().map(|t| t.id.to_string())).collect()
    }
}

impl evaltally_format::Unit for Small {
    fn format(&self) -> &'static str {
        "small"
    }
    fn size(&self) -> u64 {
        self.files.iter().map(|f| fs::metadata(f).unwrap().len()).sum()
    }
    fn label(&self) -> String {
        "small".into()
    }
    fn inputs(&self) -> Vec<PathBuf> {
        self.files.clone()
    }
    fn read(&self, _: &mut Scratch, _: &Options) -> evaltally_format::Read {
        let first = self.reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 0;
        let mut run = evaltally_core::CategoryRun::new("r", "m", "c");
        for (i, f) in self.files.iter().enumerate() {
            run.push(&fs::read_to_string(f).unwrap(), Outcome::Pass, None);
            if first && self.rewrite_while_read && i == self.files.len() / 2 {
                // Let the write land in another tick of the file system's clock.
                std::thread::sleep(Duration::from_millis(30));
                fs::write(&self.files[0], "rewritten").unwrap();
            }
        }
        evaltally_format::Read { runs: vec![run], diagnostics: Vec::new() }
    }
    fn records(&self, _: &mut Scratch, _: &Options) -> evaltally_format::Records {
        evaltally_format::Records::default()
    }
    fn show(&self, _: &mut Scratch, _: &str, _: &Options) -> evaltally_format::Shown {
        evaltally_format::Shown::default()
    }
    fn validate(&self, _: &mut Scratch, _: &Options) -> evaltally_format::Validated {
        evaltally_format::Validated::default()
    }
}

/// A unit of many small files (a run of SWE-bench per-instance reports) is cached where
/// the files' times tell writes apart, as here: its stamps are the metadata alone, and a
/// warm read opens none of its files. (Where times are whole seconds, stamping would read
/// every file, and such a unit is read directly; no test can make a file's status-change
/// time a whole second.)
#[test]
fn a_unit_of_many_small_files_with_fine_times_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    // 500 reports of 12 bytes: far under the 8 KiB a file that `many_small` counts.
    let unit = Small::new(dir.path(), 500);
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let cold = cache.read(&unit, &mut Scratch::default(), &Options::default());
    cache.flush();
    let warm = cache.read(&unit, &mut Scratch::default(), &Options::default());
    assert_eq!(unit.reads(), 1, "the warm read opened the files");
    assert_eq!(Small::ids(&warm).len(), 500);
    assert_eq!(Small::ids(&warm), Small::ids(&cold));
    let stats = cache.stats();
    assert_eq!((stats.hits, stats.misses, stats.stored), (1, 1, 1));
    // A report rewritten is seen.
    std::thread::sleep(Duration::from_millis(30));
    fs::write(&unit.files[7], "rewritten").unwrap();
    let after = cache.read(&unit, &mut Scratch::default(), &Options::default());
    assert_eq!(unit.reads(), 2);
    assert!(Small::ids(&after).contains(&"rewritten".to_string()));
}

/// Readings are appended to the pack being written as they fill a chunk (so what waits to
/// be stored takes a chunk of memory, not a pack): readings of several chunks end up in
/// one pack, seen by no lookup before it is finished, and every one is found afterwards.
#[test]
fn readings_of_many_chunks_are_stored_in_one_pack() {
    let dir = tempfile::tempdir().unwrap();
    // Three units of 100 ids of 4 KiB: 400 KiB each, past the 512 KiB of a chunk twice.
    let units: Vec<Small> = (0..3)
        .map(|u| {
            let folder = dir.path().join(format!("run-{u}"));
            fs::create_dir(&folder).unwrap();
            Small::padded(&folder, 100, 4096)
        })
        .collect();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let cold: Vec<_> = units.iter().map(|u| cache.read(u, &mut Scratch::default(), &Options::default())).collect();
    assert!(packs(store.path()).is_empty(), "a pack seen before it was finished");
    let temporary = fs::read_dir(store.path().join(evaltally_cache::layout_folder()))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-") && e.metadata().unwrap().len() > 512 << 10)
        .count();
    assert_eq!(temporary, 1, "full chunks are written as they fill, not held until the flush");
    let stats = cache.stats();
    assert_eq!((stats.misses, stats.stored, stats.write_errors), (3, 3, 0));
    assert_eq!(packs(store.path()).len(), 1);
    let again = cache_in(store.path());
    for (unit, cold) in units.iter().zip(&cold) {
        let warm = again.read(unit, &mut Scratch::default(), &Options::default());
        assert_eq!(Small::ids(&warm), Small::ids(cold));
        assert_eq!(Small::ids(&warm).len(), 100);
        assert_eq!(unit.reads(), 1, "read again: its entry was not found");
    }
    assert_eq!(again.stats().hits, 3);
}

/// A file rewritten while its unit was read: whatever was stored of that reading is never
/// trusted afterwards, and the next reading gives what the files now say.
#[test]
fn a_file_rewritten_while_it_was_read_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let unit = Small { rewrite_while_read: true, ..Small::new(dir.path(), 8) };
    // Settled before the reading (status-change times older than the settle window), so
    // the reading is stored: under the stamps taken before the rewrite.
    std::thread::sleep(evaltally_cache::DEFAULT_SETTLE + Duration::from_millis(50));
    let store = tempfile::tempdir().unwrap();
    let cache = Cache::new(store.path(), "test");
    let during = cache.read(&unit, &mut Scratch::default(), &Options::default());
    assert_eq!(Small::ids(&during)[0], "instance-000", "read before the rewrite");
    assert_eq!(cache.stats().stored, 1);
    let after = cache.read(&unit, &mut Scratch::default(), &Options::default());
    assert_eq!(unit.reads(), 2, "the reading taken during the rewrite was trusted");
    assert_eq!(Small::ids(&after)[0], "rewritten");
}

/// Lets a run's folders settle: a listing is stored only for a folder whose times are
/// older than [`FOLDER_SETTLE`], as a finished run's are.
fn let_folders_settle() {
    std::thread::sleep(FOLDER_SETTLE + Duration::from_millis(50));
}

/// The folders of a run (`run-1`, `result`, `result/m`, `score`, `score/m`) are listed once,
/// then taken from the cache by later processes (each a new `Cache` on the same folder),
/// with the same result; not while they are new.
#[test]
fn an_unchanged_folder_is_not_listed_again() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let (first, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(stats.folders_reused, 0);
    let (_, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(stats.folders_reused, 0, "folders changed a moment ago are listed again");
    let_folders_settle();
    read(&cache_in(store.path()), &run.root);
    let (again, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(again, first);
    assert_eq!((stats.folders_reused, stats.hits), (5, 1));
}

/// A damaged byte in the stored listings costs the folder it falls in, and only that one:
/// it is listed again (its listing is never trusted) and stored anew, the others are still
/// taken.
#[test]
fn a_damaged_listing_is_listed_again_and_the_others_still_serve() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let_folders_settle();
    let (first, _) = read(&cache_in(store.path()), &run.root);
    let [file]: [std::path::PathBuf; 1] = fs::read_dir(store.path().join(evaltally_cache::layout_folder()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "listings"))
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    let mut bytes = fs::read(&file).unwrap();
    // Just past the magic: the first folder's path length.
    bytes[8] ^= 0x01;
    fs::write(&file, &bytes).unwrap();
    let (again, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(again, first);
    assert_eq!(stats.folders_reused, 4, "one folder listed again, four taken");
    let (_, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(stats.folders_reused, 5, "the folder listed again was stored again");
}

/// After a change made by `change` to a folder whose listing is stored, a new process sees
/// what the folder holds now.
fn folder_change_is_seen(change: impl FnOnce(&Run)) {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let_folders_settle();
    read(&cache_in(store.path()), &run.root);
    let (_, stats) = read(&cache_in(store.path()), &run.root);
    assert_eq!(stats.folders_reused, 5);
    change(&run);
    let (after, stats) = read(&cache_in(store.path()), &run.root);
    assert!(stats.folders_reused < 5, "a changed folder's listing was trusted");
    assert_eq!(after, fresh(&run.root));
}

#[test]
fn a_file_added_to_a_listed_folder_is_found() {
    folder_change_is_seen(|run| {
        let folder = run.result.parent().unwrap();
        fs::write(folder.join("BFCL_v4_multiple_result.json"), "{\"id\": \"multiple_0\", \"result\": 1}\n").unwrap();
    });
}

#[test]
fn a_file_removed_from_a_listed_folder_is_gone() {
    folder_change_is_seen(|run| fs::remove_file(&run.score).unwrap());
}

#[test]
fn a_file_renamed_in_a_listed_folder_is_seen_under_its_new_name() {
    folder_change_is_seen(|run| {
        fs::rename(&run.result, run.result.with_file_name("BFCL_v4_multiple_result.json")).unwrap();
    });
}

#[test]
fn a_folder_replaced_by_another_is_listed_again() {
    folder_change_is_seen(|run| {
        let folder = run.score.parent().unwrap();
        let other = run.root.join("other");
        fs::create_dir(&other).unwrap();
        fs::write(other.join("BFCL_v4_simple_python_score.json"), "{\"accuracy\": 1.0}\n").unwrap();
        fs::rename(folder, run.root.join("old")).unwrap();
        fs::rename(&other, folder).unwrap();
    });
}
