//! Reads SF-Bench result reports into the evaltally model.
//!
//! SF-Bench's report schema v2 calls itself "SWE-bench compatible": it describes one run of a
//! model over a set of instances, each resolved or not, and copies SWE-bench's id lists.
//! SWE-bench's own harness reports are read by `evaltally-swebench`; this crate reads
//! SF-Bench's documents and never takes one of those for its own ([`detect`]):
//!
//! * [`report`]: the SF-Bench v2 report, typed, with both names of every aliased field and
//!   statuses in any letter case, and the keys of upstream's `to_dict()` in its order.
//! * [`detect`]: which SF-Bench document a JSON document is.
//! * [`summary`]: the summary object recomputed from the instances as upstream does, the id
//!   lists, stored-against-computed differences, and which "resolved" rule the flags follow.
//! * [`markdown`]: upstream's `summary.md`, with its wrong success criteria replaced by the rule
//!   the data follows.
//! * [`SFBENCH`]: the format plugged into evaltally's reading pipeline (`evaltally-format`);
//!   [`sources`]: reading reports as runs; [`records`]: the same runs with durations and
//!   messages, for `convert` and `export`.
//! * [`validate`]: what is wrong with a document of any of these formats, each finding located
//!   by a JSON path; SF-Bench's own `validate_schema` reproduced; documentation examples with
//!   `{...}` placeholders.
//! * [`v1`]: the three SF-Bench v1 shapes (the input of upstream's migration, the legacy file
//!   `scripts/evaluate.py` writes, the engine's `summary.json`) read into one representation.
//! * [`migrate`]: a v1 run to a complete v2 report, keeping what v1 knows and listing every
//!   defaulted field.
//!
//! Each run becomes [`CategoryRun`](evaltally_core::CategoryRun)s, one per task family
//! (`lwc-component-001` → `lwc`).
//!
//! ```
//! use evaltally_sfbench::detect::{Format, detect};
//! use evaltally_sfbench::report::Report;
//!
//! let doc = serde_json::json!({"schema_version": "2.0", "run_id": "night-1", "model_name": "acme",
//!     "instances": [
//!         {"instance_id": "lwc-component-001", "status": "resolved", "resolved": true},
//!         {"instance_id": "apex-trigger-001", "status": "fail", "resolved": false},
//!     ]});
//! assert_eq!(detect(&doc), Some(Format::SfbenchV2));
//! let runs = Report::from_value(&doc).category_runs("night-1");
//! let passed: Vec<(&str, usize)> = runs.iter().map(|r| (r.category.as_str(), r.passed())).collect();
//! assert_eq!(passed, [("apex", 0), ("lwc", 1)]);
//! ```

pub mod detect;
mod fast;
mod format;
pub mod markdown;
pub mod migrate;
pub mod records;
pub mod report;
pub mod sources;
pub mod summary;
pub mod v1;
pub mod validate;

mod error;

pub use error::SfbenchError;
pub use format::{SFBENCH, SfBench, is_sfbench_document};
