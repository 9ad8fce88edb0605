//! JUnit XML for evaltally: reading the reports test runners and eval tools write, and
//! writing runs as reports CI systems show.
//!
//! JUnit XML has no formal standard; it descends from Ant and Surefire and every runner
//! writes its own dialect. This crate reads all the common ones and writes the subset every
//! reporter understands.
//!
//! * [`read`] / [`read_file`]: a document into a [`JunitRun`]: suites and test cases as
//!   written, with the dialect quirks smoothed over and reported in
//!   [`JunitRun::diagnostics`] ([`read`] lists them).
//! * [`JunitRun::category_runs`], [`JunitRun::record`], [`JunitRun::show`]: a read report
//!   in the evaltally model. The category is the innermost suite's name; failures and errors
//!   fail, labelled with their `type`; skipped tests did not run.
//! * [`write()`]: a [`RunRecord`](evaltally_core::RunRecord) as a report: one suite per
//!   category, tokens and costs as properties, messages escaped so that nothing can make the
//!   document invalid ([`xml_safe`]).
//! * [`looks_like_junit`]: a cheap test of whether a text is a JUnit report at all;
//!   [`JUNIT`]: the format as evaltally's reading pipeline (`evaltally-format`) sees it.
//!
//! Reading what [`write()`] wrote gives back the same outcomes per category, and the same
//! error types and messages (after [`xml_safe`]).
//!
//! ```
//! use std::path::Path;
//! use evaltally_core::{Outcome, RunRecord, TestRecord};
//!
//! let mut run = RunRecord { run: "nightly".into(), model: "acme-7b".into(), ..Default::default() };
//! for (id, outcome) in [("parse_1", Outcome::Pass), ("parse_2", Outcome::Fail), ("plan_1", Outcome::Unscored)] {
//!     let category = id.split('_').next().unwrap().to_string();
//!     run.tests.push(TestRecord { id: id.into(), category, outcome: Some(outcome), ..Default::default() });
//! }
//! let xml = evaltally_junit::write(&run);
//! assert!(evaltally_junit::looks_like_junit(&xml));
//!
//! let back = evaltally_junit::read(&xml, Path::new("nightly.xml")).unwrap();
//! assert_eq!((back.run_name(), back.model()), ("nightly".to_string(), Some("acme-7b")));
//! let cats = back.category_runs("nightly", "acme-7b");
//! assert_eq!((cats[0].category.as_str(), cats[0].passed(), cats[0].failed()), ("parse", 1, 1));
//! assert_eq!(cats[0].error_type(1).unwrap().as_str(), "failure");
//! assert_eq!(back.record("nightly", "acme-7b").tests[2].outcome, Some(Outcome::Unscored));
//! ```

mod convert;
mod error;
mod escape;
mod fast;
mod format;
mod model;
mod naming;
mod read;
mod seconds;
mod sniff;
mod write;

pub use convert::FORMAT;
pub use error::JunitError;
pub use escape::xml_safe;
pub use format::{JUNIT, JUNIT_WRITER, Junit, JunitWriter, KNOWN};
pub use model::{
    CaseStatus, Declared, JunitCase, JunitRun, JunitSuite, NOT_RUN_TYPE, Problem, ProblemKind, Property, UNSCORED_TYPE,
};
pub use read::{MAX_DEPTH, read, read_bytes, read_file};
pub use sniff::looks_like_junit;
pub use write::{HEADLINE_CHARS, write};
