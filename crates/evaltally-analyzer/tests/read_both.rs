//! `load_with_records` reads runs and records together (one reading of each file) and gives
//! exactly what `load` and `records` give apart, on every format's fixtures; and
//! `load_groups_with_records` gives, from one reading, what loading each group and all of
//! them together gives.

use evaltally_analyzer::Filter;
use evaltally_analyzer::load::{self, NoProgress};
use evaltally_cache::Cache;
use evaltally_testkit::testdata;

#[test]
fn runs_and_records_read_together_equal_those_read_apart() {
    let folders = [
        "bfcl/v4",
        "sfbench-runs",
        "swebench",
        "gstack",
        "junit",
        "taubench",
        "terminal-bench",
        "lmeval",
        "lighteval",
        "inspect",
        "helm",
    ];
    for folder in folders {
        let paths = [testdata(folder)];
        let filter = Filter::default();
        let apart = load::load(&paths, &filter, &NoProgress).unwrap();
        let records = load::records(&paths, &filter).unwrap();
        let (loaded, together) = load::load_with_records(&paths, &filter, &NoProgress, &Cache::disabled()).unwrap();
        assert!(!loaded.runs.is_empty(), "{folder}");
        assert_eq!(format!("{:?}", loaded.runs), format!("{:?}", apart.runs), "{folder}");
        assert_eq!(format!("{:?}", loaded.diagnostics), format!("{:?}", apart.diagnostics), "{folder}");
        assert_eq!(format!("{:?}", together.runs), format!("{:?}", records.runs), "{folder}");
    }
}

/// Runs of one category that list the same ids as the run read before them in it share
/// one buffer once loaded, cached or not; what they hold is what each run's files say.
#[test]
fn runs_listing_the_same_ids_share_them() {
    let paths = [testdata("bfcl/v4")];
    let filter = Filter::default();
    let store = tempfile::tempdir().unwrap();
    let cache = Cache::new(store.path(), "test").settle_after(std::time::Duration::ZERO);
    // One worker: which runs follow which in a category does not depend on scheduling.
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let plain = load::load(&paths, &filter, &NoProgress).unwrap();
    for pass in ["uncached", "cold", "warm"] {
        let loaded = one.install(|| match pass {
            "uncached" => load::load(&paths, &filter, &NoProgress),
            _ => load::load_cached(&paths, &filter, &NoProgress, &cache),
        });
        cache.flush();
        let runs = loaded.unwrap().runs;
        assert_eq!(runs, plain.runs, "{pass}");
        let pairs = |same: &dyn Fn(&evaltally_core::CategoryRun, &evaltally_core::CategoryRun) -> bool| {
            runs.iter()
                .enumerate()
                .flat_map(|(i, a)| runs[i + 1..].iter().map(move |b| (a, b)))
                .filter(|(a, b)| same(a, b))
                .count()
        };
        let shared = pairs(&|a, b| a.ids().shares_with(b.ids()));
        let equal = pairs(&|a, b| (&a.model, &a.category) == (&b.model, &b.category) && a.ids() == b.ids());
        assert!(shared > 0, "{pass}: no run shares its ids ({equal} pairs list the same)");
        assert!(shared <= equal, "{pass}: only runs of one category with the same ids share");
    }
    assert!(cache.stats().hits > 0, "the warm pass was read from the cache");
}

/// Groups loaded together (the sides of `report --base --new`) are what each gives loaded
/// alone, and what all of them give loaded together, records included, groups that overlap
/// too.
#[test]
fn groups_loaded_together_equal_each_loaded_alone_and_all_together() {
    let filter = Filter::default();
    let cases: Vec<Vec<Vec<std::path::PathBuf>>> = vec![
        vec![vec![testdata("bfcl/v4/run-1")], vec![testdata("bfcl/v4/run-2"), testdata("bfcl/v4/run-10")]],
        vec![vec![testdata("gstack/standard")], vec![testdata("gstack/evals"), testdata("gstack/quirks")]],
        vec![vec![testdata("junit")], vec![testdata("sfbench-runs")], vec![testdata("junit")]],
        // A folder of runs, and one of its runs again.
        vec![vec![testdata("bfcl/v4")], vec![testdata("bfcl/v4/run-1")]],
    ];
    for groups in &cases {
        let refs: Vec<&[std::path::PathBuf]> = groups.iter().map(Vec::as_slice).collect();
        let loaded = load::load_groups_with_records(&refs, &filter, &NoProgress, &Cache::disabled()).unwrap();
        let all: Vec<std::path::PathBuf> = groups.iter().flatten().cloned().collect();
        let (together, records) = load::load_with_records(&all, &filter, &NoProgress, &Cache::disabled()).unwrap();
        assert_eq!(loaded.all.runs, together.runs, "{groups:?}");
        assert_eq!(format!("{:?}", loaded.all.diagnostics), format!("{:?}", together.diagnostics), "{groups:?}");
        assert_eq!(format!("{:?}", loaded.records), format!("{records:?}"), "{groups:?}");
        assert_eq!(loaded.groups.len(), groups.len());
        for (group, own) in groups.iter().zip(&loaded.groups) {
            let alone = load::load(group, &filter, &NoProgress).unwrap();
            assert!(!own.runs.is_empty(), "{group:?}");
            assert_eq!(own.runs, alone.runs, "{group:?}");
            assert_eq!(format!("{:?}", own.diagnostics), format!("{:?}", alone.diagnostics), "{group:?}");
        }
    }
}
