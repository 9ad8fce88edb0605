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
