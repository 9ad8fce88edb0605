//! Renders evaltally analyses for people and programs.
//!
//! Every renderer returns a `String` (or a serializable document) and does no I/O, so the
//! same output can go to a terminal, a file or a CI job summary.
//!
//! Text from the input files (names, ids, messages, paths) goes through
//! [`evaltally_core::text`] in text and Markdown: control characters and bidirectional
//! overrides are shown escaped (`\u{1b}`), a `|` cannot end a Markdown table cell, URL
//! passwords are redacted. JSON documents keep every string exactly.
//!
//! * [`stability`]: the stability report as text (optionally coloured), Markdown, JSON,
//!   and the per-class id files (`stable_tests.json`, `flaky_tests.json`,
//!   `failing_tests.json`).
//! * [`show`]: one test across runs.
//! * [`summary`]: a report's recomputed summary (SF-Bench, SWE-bench).
//! * [`validate`]: validation findings per file.
//! * [`compare`]: regressions, improvements and their significance, as text, Markdown and
//!   JSON.
//! * [`plan`]: the runs and tests a target standard error needs (`evaltally plan`).
//! * [`html`]: the report people look at: one self-contained HTML page with the overview,
//!   a tests × runs heatmap, trends and the comparison, and its Markdown summary.
//!
//! ```
//! use evaltally_core::{CategoryRun, Outcome};
//! use evaltally_analyzer::stability;
//! use evaltally_report::{stability as render, Style};
//!
//! let mut run = CategoryRun::new("run-1", "m", "simple");
//! run.push("simple_0", Outcome::Pass, None);
//! let report = stability::analyze(&[run]);
//! let options = render::Options { style: Style::plain(), top_flaky: 0 };
//! let text = render::text(&report, options);
//! assert!(text.contains("simple"));
//! let md = render::markdown(&report, &[], options);
//! assert!(md.contains("| simple |"));
//! ```

pub mod compare;
pub mod cost;
pub mod html;
pub mod plan;
pub mod show;
pub mod stability;
mod style;
pub mod summary;
pub mod trend;
pub mod validate;

pub use style::{OUTCOMES_MAX, RUN_LIST_MAX, Style, outcomes_text, run_list};
use style::{diagnostics_markdown, errors, group_digits, pretty_json, thousands, warnings, width_of};
