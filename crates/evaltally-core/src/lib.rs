//! The evaltally data model, shared by every adapter and analysis.
//!
//! This crate does no I/O and cannot fail on input: adapters turn files into the types
//! defined here ([`CategoryRun`], [`Diagnostic`]), and analyses consume them.
//!
//! * [`id`]: test ids and their natural order (`simple_python_2` before `simple_python_10`).
//! * [`ErrorType`]: an evaluator's error label and its family (`value_error:string` is in
//!   family `value_error`).
//! * [`Outcome`] and [`CategoryRun`]: what one run says about the tests of one
//!   (model, category).
//! * [`Diagnostic`]: a warning or error tied to a file, line and column.
//! * [`TestDetail`]: everything known about one test in one run, for `show`.
//! * [`Finding`]: a problem `validate` found, located by JSON path or line.
//! * [`RunRecord`] and [`TestRecord`]: a run with everything any format carries (durations,
//!   tokens, costs, messages), for `convert` and `export`.
//! * [`text`]: text from input files made safe to print (control characters escaped, URL
//!   passwords redacted), the one rule every text and Markdown output follows.
//!
//! ```
//! use evaltally_core::{id, CategoryRun, Outcome};
//!
//! let mut run = CategoryRun::new("v0.11.0", "openai_gpt-oss-120b", "simple_python");
//! run.push("simple_python_10", Outcome::Fail, Some("value_error:string"));
//! run.push("simple_python_2", Outcome::Pass, None);
//! assert_eq!(run.passed(), 1);
//! assert_eq!(run.error_type(0).map(|e| e.family()), Some("value_error"));
//!
//! let mut ids = vec!["simple_python_10", "simple_python_2"];
//! ids.sort_by(|a, b| id::natural_cmp(a, b));
//! assert_eq!(ids, ["simple_python_2", "simple_python_10"]);
//! ```

mod detail;
mod diag;
mod error_type;
mod finding;
pub mod id;
mod meta;
mod outcome;
mod record;
mod run;
pub mod text;

pub use detail::{Location, Message, Status, TestDetail};
pub use diag::{Diagnostic, Severity};
pub use error_type::ErrorType;
pub use finding::Finding;
pub use meta::RunMeta;
pub use outcome::Outcome;
pub use record::{ModelCost, RunRecord, TestRecord, seconds_to_ms};
pub use run::{CategoryRun, IdList, TestRef};
