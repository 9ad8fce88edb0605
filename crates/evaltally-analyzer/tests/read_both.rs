//! `load_with_records` reads runs and records together (one reading of each file) and gives
//! exactly what `load` and `records` give apart, on every format's fixtures.

use evaltally_analyzer::Filter;
use evaltally_analyzer::load::{self, NoProgress};
use evaltally_cache::Cache;
use evaltally_testkit::testdata;

#[test]
fn runs_and_records_read_together_equal_those_read_apart() {
    let folders = ["bfcl/v4", "sfbench-runs", "swebench", "gstack", "junit", "taubench", "lmeval", "inspect", "helm"];
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
