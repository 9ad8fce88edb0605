//! Reads gstack eval results into the evaltally model, validates them as gstack does, and
//! converts between gstack's two shapes.
//!
//! gstack (`garrytan/gstack`) has two result formats:
//!
//! * the **legacy `EvalResult`** its test collector writes to `~/.gstack/projects/<slug>/evals/`
//!   (`branch`, `total_tests`, `total_duration_ms` in milliseconds, `tests[]`), which is
//!   what real gstack users have on disk;
//! * the **standard `StandardEvalResult`** of `docs/eval-result-format.md` (`git_branch`,
//!   `total`, `duration_seconds`, `all_results[]`, `costs[]`, …), defined with its validator
//!   and converters on the unmerged branch `team-supabase-store`.
//!
//! Modules:
//!
//! * [`model`]: typed, tolerant readers for both shapes and their common form [`GstackRun`];
//!   [`detect`] tells the shapes apart.
//! * [`validate`](mod@validate): gstack's `validateEvalResult` reproduced message for
//!   message, and [`validate_strict`] with the checks gstack lacks.
//! * [`normalize`]: gstack's `normalizeToLegacy` / `normalizeFromLegacy`, byte-exact, and
//!   what each conversion drops.
//! * [`runs`]: a run as [`CategoryRun`](evaltally_core::CategoryRun)s (one per suite), and
//!   one test's details for `show`.
//! * [`sources`]: finding result files (skipping `_partial` saves) and reading them.
//! * [`js`]: JSON with JavaScript's key order and number printing, which the byte-exact
//!   conversions need.
//!
//! ```
//! use evaltally_gstack::{detect, normalize, runs, validate, GstackRun, Shape};
//!
//! let text = r#"{"schema_version": 1, "version": "0.3.3", "git_branch": "main", "git_sha": "abc1234",
//!   "timestamp": "2025-05-01T12:00:00Z", "hostname": "ci", "tier": "e2e", "total": 2, "passed": 1,
//!   "failed": 1, "total_cost_usd": 1.50, "duration_seconds": 120, "all_results": [
//!     {"name": "login-flow", "suite": "auth", "passed": true, "duration_ms": 60000},
//!     {"name": "checkout-flow", "suite": "commerce", "passed": false, "error": "Timed out"}]}"#;
//! let doc: serde_json::Value = serde_json::from_str(text).unwrap();
//! assert_eq!(detect(&doc), Some(Shape::Standard));
//! assert!(validate(&doc).is_empty());
//!
//! let run = GstackRun::from_value(&doc).unwrap();
//! let cats = runs::category_runs(&run);
//! assert_eq!((cats[0].category.as_str(), cats[0].passed()), ("auth", 1));
//! assert_eq!(cats[1].error_type(0).unwrap().as_str(), "timed");
//!
//! let saved = normalize::to_legacy_text(text).unwrap();
//! assert!(saved.contains("\"total_duration_ms\": 120000,") && saved.ends_with("}\n"));
//! ```

mod fast;
mod format;
pub mod js;
pub mod model;
pub mod normalize;
pub mod runs;
pub mod sources;
pub mod validate;

pub use format::{FORMAT, Gstack, is_partial};
pub use model::{GstackRun, GstackTest, Shape, detect};
pub use normalize::{Direction, NormalizeError};
pub use validate::{validate, validate_strict};
