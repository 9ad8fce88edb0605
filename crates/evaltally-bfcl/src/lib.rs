#![doc = include_str!("../README.md")]

mod error;
mod format;
pub mod layout;
pub mod lines;
mod read;
pub mod records;
pub mod show;
pub mod validate;

pub use error::BfclError;
pub use evaltally_format::scan;
pub use format::{Bfcl, FORMAT};
pub use layout::{FilePair, RunDir};
pub use read::{PairOutcome, Scratch, read_pair, read_pair_bytes};

/// Whether a failure's error type says the inference itself failed (`inference_error`,
/// `multi_turn:inference_error`, …): such a test errored rather than failed
/// ([`evaltally_core::Outcome::Errored`]), as does one whose result is BFCL's
/// `"Error during inference: …"` marker.
///
/// ```
/// assert!(evaltally_bfcl::is_inference_error("multi_turn:inference_error"));
/// assert!(!evaltally_bfcl::is_inference_error("ast_decoder:decoder_failed"));
/// ```
pub fn is_inference_error(error_type: &str) -> bool {
    error_type.ends_with("inference_error")
}
