#![doc = include_str!("../README.md")]

pub mod across;
pub mod bfcl_score;
pub mod cluster;
pub mod compare;
pub mod cost;
pub mod efficiency;
pub mod load;
mod matrix;
pub mod plan;
pub mod precision;
pub mod reference;
pub mod stability;
pub mod stats;
pub mod subset;
pub mod trend;
pub mod validate;

pub use evaltally_cache::Cache;
pub use evaltally_format::Scoring;
pub use load::{Filter, LoadError, Loaded, NoProgress, POOLED, Progress, Records, Shown};
pub use matrix::{Cell, Matrix, group};
