//! Loads many evaluation runs in parallel and analyses them.
//!
//! * [`load`] finds runs below the given paths, in every format the registry
//!   (`evaltally-formats`) lists, and reads every file once, in parallel with rayon
//!   (largest units first, one reusable buffer per worker).
//! * [`Matrix`] lines up the tests of one (model, category) across runs.
//! * [`stability`] sorts every test into stable pass, flaky or stable fail.
//! * [`compare`] matches two runs or groups test by test; [`stats`] says whether a change is
//!   more than noise.
//! * [`precision`] gives standard errors (naive and clustered, [`cluster`]) and the split of
//!   a score's variance into between-test and run-to-run parts; [`plan`] turns them into
//!   the runs or tests a target precision needs; [`bfcl_score`] recomputes BFCL's overall
//!   score with an interval.
//! * [`validate`] checks files of every format.
//!
//! The analyses are pure functions of the loaded [`CategoryRun`]s, so they can be fed
//! from any adapter.
//!
//! ```no_run
//! use evaltally_analyzer::{load, stability, Filter, NoProgress};
//!
//! let loaded = load::load(&["results".into()], &Filter::default(), &NoProgress)?;
//! let report = stability::analyze(&loaded.runs);
//! for model in &report.models {
//!     println!("{}: {} flaky of {}", model.model, model.overall.flaky, model.overall.total);
//! }
//! # Ok::<(), evaltally_analyzer::LoadError>(())
//! ```
//!
//! [`CategoryRun`]: evaltally_core::CategoryRun

pub mod bfcl_score;
pub mod cluster;
pub mod compare;
pub mod cost;
pub mod efficiency;
pub mod load;
mod matrix;
pub mod plan;
pub mod precision;
pub mod stability;
pub mod stats;
pub mod trend;
pub mod validate;

pub use load::{Filter, LoadError, Loaded, NoProgress, POOLED, Progress, Records, Shown};
pub use matrix::{Cell, Matrix, group};
