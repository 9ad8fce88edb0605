#![doc = include_str!("../README.md")]

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
