//! Reads SWE-bench harness reports into the evaltally model.
//!
//! The harness (`swebench.harness.run_evaluation`) writes two kinds of JSON document, and this
//! crate reads both, alone or as a run's folder:
//!
//! * [`report`]: the run report `<model>.<run_id>.json` (every harness version, v2.1 to v5),
//!   which lists instance ids by outcome, and the per-instance `report.json` (wrapped in
//!   `{instance_id: …}` or not), which says whether one instance resolved, with its tests.
//! * [`detect`]: which of the two a JSON document is. SF-Bench's v2 report copies SWE-bench's
//!   id lists; the rules keep the two apart (SF-Bench's documents are `evaltally-sfbench`'s).
//! * [`SWEBENCH`]: the format plugged into evaltally's reading pipeline (`evaltally-format`):
//!   run reports are sniffed from their keys, per-instance reports known by their place
//!   (`logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json` or
//!   `<run>/logs/<instance_id>/report.json`) and grouped into one run per (run, model);
//!   [`sources`]: reading reports as runs; [`records`]: the same runs test by test, for
//!   `convert` and `export`.
//! * [`validate`]: what is wrong with a report, each finding located by a JSON path: counts
//!   against lists, ids in lists that exclude each other, the harness invariants.
//!
//! Each run becomes [`CategoryRun`](evaltally_core::CategoryRun)s, one per repository
//! (`django__django-11099` → `django/django`): resolved passes; unresolved, error and empty
//! patch fail, labelled so.
//!
//! ```
//! use evaltally_swebench::detect::{Format, detect};
//! use evaltally_swebench::report::RunReport;
//!
//! let doc = serde_json::json!({
//!     "resolved_ids": ["django__django-11099"],
//!     "unresolved_ids": ["astropy__astropy-12907"],
//!     "completed_ids": ["django__django-11099", "astropy__astropy-12907"],
//!     "schema_version": 2,
//! });
//! assert_eq!(detect(&doc), Some(Format::RunReport));
//! let runs = RunReport::from_value(&doc).category_runs("run-1", "acme-agent");
//! let passed: Vec<(&str, usize)> = runs.iter().map(|r| (r.category.as_str(), r.passed())).collect();
//! assert_eq!(passed, [("astropy/astropy", 0), ("django/django", 1)]);
//! let findings = evaltally_swebench::validate::validate(&doc, Format::RunReport);
//! assert!(findings.iter().all(|f| !f.is_error()));
//! ```

pub mod detect;
mod fast;
mod format;
pub mod records;
pub mod report;
pub mod sources;
pub mod validate;

pub use format::{SWEBENCH, SweBench};
