//! Reads SF-Bench result reports and SWE-bench harness reports into the evaltally model.
//!
//! SF-Bench's report schema v2 calls itself "SWE-bench compatible": both describe one run of
//! a model over a set of instances, each resolved or not. This crate reads both:
//!
//! * [`report`]: the SF-Bench v2 report, typed, with both names of every aliased field and
//!   statuses in any letter case.
//! * [`swebench`]: SWE-bench run reports (`<model>.<run_id>.json`, every harness version),
//!   per-instance `report.json` files (wrapped in `{instance_id: …}` or not), and run folders
//!   `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`.
//! * [`detect`]: which of these formats a JSON document is.
//! * [`summary`]: the summary object recomputed from the instances as upstream does, the id
//!   lists, stored-against-computed differences, and which "resolved" rule the flags follow.
//! * [`markdown`]: upstream's `summary.md`, with its wrong success criteria replaced by the rule
//!   the data follows.
//! * [`SFBENCH`] and [`SWEBENCH`]: both formats plugged into evaltally's reading pipeline
//!   (`evaltally-format`); [`sources`]: reading reports as runs; [`records`]: the same
//!   runs with durations and messages, for `convert` and `export`.
//! * [`validate`]: what is wrong with a document of any of these formats, each finding located
//!   by a JSON path; SF-Bench's own `validate_schema` reproduced; documentation examples with
//!   `{...}` placeholders.
//! * [`v1`]: the three SF-Bench v1 shapes (the input of upstream's migration, the legacy file
//!   `scripts/evaluate.py` writes, the engine's `summary.json`) read into one representation.
//! * [`migrate`]: a v1 run to a complete v2 report, keeping what v1 knows and listing every
//!   defaulted field.
//!
//! Each run becomes [`CategoryRun`](evaltally_core::CategoryRun)s, one per category: the
//! instance's repository for SWE-bench (`django__django-11099` → `django/django`), the task
//! family for SF-Bench (`lwc-component-001` → `lwc`).

pub mod detect;
mod fast;
mod format;
pub mod markdown;
pub mod migrate;
pub mod records;
pub mod report;
pub mod sources;
pub mod summary;
pub mod swebench;
pub mod v1;
pub mod validate;

mod error;

pub use error::SfbenchError;
pub use format::{SFBENCH, SWEBENCH, SfBench, SweBench, is_sfbench_document};
