//! SF-Bench and SWE-bench are two adapter crates whose detection rules are one set, split
//! between them (SF-Bench's v2 report copies SWE-bench's id lists): every document is either
//! crate's or neither, never both, and exactly as the rules taken as one function say. The
//! same for places: SF-Bench never claims a path SWE-bench groups by its place.

use std::path::Path;

use evaltally_format::{Claim, Format as _, Keys};
use evaltally_sfbench::detect::Format as SfBench;
use evaltally_swebench::detect::Format as SweBench;

/// Every key the rules look at, and (last) a key none of them knows.
const KEYS: [&str; 21] = [
    "schema_version",
    "run_id",
    "summary",
    "resolved_ids",
    "completed_ids",
    "submitted_ids",
    "total_instances",
    "instances",
    "model_name",
    "dataset",
    "results",
    "total_tasks",
    "model",
    "statistics",
    "resolve_rate",
    "resolved_instances",
    "resolved",
    "patch_is_None",
    "patch_exists",
    "tests_status",
    "django__django-11099",
];

/// A JSON object by the keys it has: `top` and, when it has exactly one member, the keys of
/// that member's value (`child`), one bit per entry of [`KEYS`].
struct Doc {
    top: u32,
    child: u32,
}

fn bit(key: &str) -> Option<u32> {
    KEYS.iter().position(|k| *k == key).map(|i| 1 << i)
}

impl Keys for Doc {
    fn has_key(&self, key: &str) -> bool {
        bit(key).is_some_and(|b| self.top & b != 0)
    }

    fn is_object(&self) -> bool {
        true
    }

    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>> {
        self.top.is_power_of_two().then(|| keys.iter().map(|k| bit(k).is_some_and(|b| self.child & b != 0)).collect())
    }

    /// Every member's value has the child's keys.
    fn children_have(&self, keys: &[&str], first: usize) -> Option<(usize, Vec<Vec<bool>>)> {
        let members = self.top.count_ones() as usize;
        let found =
            (0..members.min(first)).map(|_| keys.iter().map(|k| bit(k).is_some_and(|b| self.child & b != 0)).collect());
        Some((members, found.collect()))
    }
}

/// The rules as one function, as they stood before the split (names as the formats give
/// them).
fn together(v: &impl Keys) -> Option<&'static str> {
    let has = |k: &str| v.has_key(k);
    let v2_header = has("schema_version") && has("run_id") && has("summary");
    if has("resolved_ids")
        && (has("completed_ids") || has("submitted_ids") || has("total_instances"))
        && !has("instances")
        && !v2_header
    {
        return Some("swebench-run-report");
    }
    if v2_header || has("instances") && (has("schema_version") || has("run_id") || has("summary")) {
        return Some("sfbench-v2");
    }
    if has("instances") && (has("model_name") || has("dataset")) {
        return Some("sfbench-v1");
    }
    if has("results") && (has("total_tasks") || has("model")) {
        return Some("sfbench-v1-evaluate");
    }
    if has("statistics") && has("results") {
        return Some("sfbench-v1-engine-summary");
    }
    if has("total_instances") && (has("resolve_rate") || has("resolved_instances")) {
        return Some("sfbench-v2-summary");
    }
    let instance = |found: &[bool]| found[0] && (found[1] || found[2] || found[3]);
    let keys = ["resolved", "patch_is_None", "patch_exists", "tests_status"];
    let own: Vec<bool> = keys.iter().map(|k| has(k)).collect();
    if instance(&own) || v.only_child_has(&keys).is_some_and(|found| instance(&found)) {
        return Some("swebench-instance-report");
    }
    // Two members or more, each an instance report's body: a merged map.
    if let Some((members, found)) = v.children_have(&keys, 8)
        && members >= 2
        && found.iter().all(|f| instance(f))
    {
        return Some("swebench-instance-map");
    }
    None
}

fn check(doc: &Doc) {
    let sf = evaltally_sfbench::detect::detect(doc);
    let swe = evaltally_swebench::detect::detect(doc);
    let names = (doc.top, doc.child);
    assert!(sf.is_none() || swe.is_none(), "{names:?}: both {sf:?} and {swe:?}");
    assert_eq!(sf.map(SfBench::name).or(swe.map(SweBench::name)), together(doc), "{names:?}");
    assert_eq!(evaltally_sfbench::detect::is_harness_report(doc), swe.is_some(), "{names:?}");
    assert_eq!(evaltally_sfbench::is_sfbench_document(doc), sf.is_some(), "{names:?}");
}

#[test]
fn every_document_is_one_crates_or_neither() {
    // Every set of top-level keys (a one-member object's member with no keys)...
    for top in 0..(1u32 << KEYS.len()) {
        check(&Doc { top, child: 0 });
    }
    // ...and every one-member object with every set of the keys its member may have.
    let inner =
        ["resolved", "patch_is_None", "patch_exists", "tests_status", "schema_version"].map(|k| bit(k).unwrap());
    for at in 0..KEYS.len() {
        for set in 0..(1u32 << inner.len()) {
            let child = inner.iter().enumerate().filter(|(i, _)| set & (1 << i) != 0).fold(0, |acc, (_, b)| acc | b);
            check(&Doc { top: 1 << at, child });
            // ...and two-member objects whose members have those keys (merged instance maps).
            for other in (at + 1)..KEYS.len() {
                check(&Doc { top: 1 << at | 1 << other, child });
            }
        }
    }
}

#[test]
fn sfbench_never_claims_a_place_swebench_groups() {
    let paths = [
        "logs/run_evaluation/run-1/acme/django__django-1/report.json",
        "out/logs/run_evaluation/run-1/acme/django__django-1/report.json",
        "run-1/logs/django__django-1/report.json",
        "logs/django__django-1/report.json",
        "run-1/logs/django__django-1/other.json",
        "sfbench-runs/run-1/report.json",
        "report.json",
        "/report.json",
        "a/report.json",
        "acme.run-1.json",
        "logs/run_evaluation/run-1/acme/x/report.JSON",
        "notes.txt",
    ];
    for path in paths {
        let path = Path::new(path);
        let sf = evaltally_sfbench::SFBENCH.claim(path);
        let swe = evaltally_swebench::SWEBENCH.claim(path);
        let json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
        let expected = match swe {
            Claim::Group => Claim::No,
            _ if json => Claim::Sniff,
            _ => Claim::No,
        };
        assert_eq!(sf, expected, "{} (SWE-bench: {swe:?})", path.display());
    }
}
