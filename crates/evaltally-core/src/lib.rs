#![doc = include_str!("../README.md")]

pub mod date;
mod detail;
pub mod diag;
mod error_type;
mod finding;
mod group;
pub mod id;
mod meta;
mod outcome;
mod random;
mod record;
mod run;
pub mod schema;
pub mod text;

pub use detail::{Location, Message, Status, TestDetail};
pub use diag::{Diagnostic, Severity};
pub use error_type::ErrorType;
pub use finding::Finding;
pub use group::FoundTest;
pub use meta::RunMeta;
pub use outcome::Outcome;
pub use random::SplitMix64;
pub use record::{ModelCost, RunRecord, TestRecord, count_of, seconds_to_ms};
pub use run::{CategoryRun, IdList, IdPool, TestRef};
