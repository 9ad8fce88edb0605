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
    let found = evaltally_formats::registry().discover(&[root.to_path_buf()], &Options::default()).unwrap();
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
    };
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

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(shards) = fs::read_dir(dir.join("v1")) else { return out };
    for shard in shards.flatten() {
        out.extend(fs::read_dir(shard.path()).unwrap().flatten().map(|e| e.path()));
    }
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
    assert_eq!(entries(store.path()).len(), 1);
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
fn damaged_foreign_and_misplaced_entries_are_ignored_and_rewritten() {
    let run = run();
    let store = tempfile::tempdir().unwrap();
    let cache = cache_in(store.path());
    let (expected, _) = read(&cache, &run.root);
    let [entry] = entries(store.path()).try_into().unwrap();
    let good = fs::read(&entry).unwrap();

    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x55;
    let cut = good[..good.len() / 3].to_vec();
    // A whole, valid entry, but for other options: what a hash collision would look like.
    let other = {
        let elsewhere = tempfile::tempdir().unwrap();
        let other_cache = Cache::new(elsewhere.path(), "another generation").settle_after(Duration::ZERO);
        read(&other_cache, &run.root);
        let [e] = entries(elsewhere.path()).try_into().unwrap();
        fs::read(e).unwrap()
    };
    for bad in [flipped, cut, b"not an entry at all".to_vec(), Vec::new(), other] {
        fs::write(&entry, &bad).unwrap();
        let (tests, stats) = read(&cache, &run.root);
        assert_eq!(tests, expected);
        assert_eq!((stats.hits, stats.misses, stats.stored), (0, 1, 1), "a bad entry was used");
        assert_eq!(fs::read(&entry).unwrap(), good, "the entry was rewritten");
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
    assert!(entries(store.path()).is_empty());
}

#[test]
fn pruning_removes_the_least_recently_used_entries_down_to_the_limit() {
    let store = tempfile::tempdir().unwrap();
    let runs: Vec<Run> = (0..4).map(|_| run()).collect();
    let cache = cache_in(store.path());
    for r in &runs {
        read(&cache, &r.root);
    }
    let all = entries(store.path());
    assert_eq!(all.len(), 4);
    let size = fs::metadata(&all[0]).unwrap().len();
    // The entry of run 0 was used long ago, the others in order since.
    for (i, r) in runs.iter().enumerate() {
        let identity_entry = entries(store.path())
            .into_iter()
            .find(|e| {
                fs::read(e)
                    .unwrap()
                    .windows(r.root.as_os_str().len())
                    .any(|w| w == r.root.as_os_str().as_encoded_bytes())
            })
            .unwrap();
        let used = SystemTime::now() - Duration::from_secs(1000 - i as u64 * 100);
        fs::File::options().write(true).open(identity_entry).unwrap().set_modified(used).unwrap();
    }
    let pruned = Cache::new(store.path(), "test").with_limit(3 * size).prune().unwrap();
    assert_eq!((pruned.entries, pruned.removed), (4, 2), "down to 80% of three entries: two left");
    let (_, stats) = read(&cache, &runs[0].root);
    assert_eq!(stats.hits, 0, "the least recently used entry went first");
    let (_, stats) = read(&cache, &runs[3].root);
    assert_eq!(stats.hits, 1, "the most recently used entry stayed");
}
