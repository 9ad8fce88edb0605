#![doc = include_str!("../README.md")]

pub mod detect;
mod fast;
mod format;
pub mod markdown;
pub mod openhands;
pub mod records;
pub mod report;
pub mod sources;
pub mod validate;

pub use format::{SWEBENCH, SweBench};
