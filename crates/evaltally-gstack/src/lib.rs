#![doc = include_str!("../README.md")]

mod fast;
mod format;
pub mod js;
pub mod model;
pub mod normalize;
pub mod runs;
pub mod shards;
pub mod sources;
pub mod validate;

pub use format::{FORMAT, Gstack, is_partial};
pub use model::{GstackRun, GstackTest, Shape, detect};
pub use normalize::{Direction, NormalizeError};
pub use validate::{validate, validate_strict};
