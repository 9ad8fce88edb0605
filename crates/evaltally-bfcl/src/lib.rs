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

/// Whether BFCL's own evaluator never scores a category: `eval_runner.py` skipped every
/// category whose name holds `chatable` or `sql` from the first leaderboard (69710331,
/// 2024-04-01) to V4 (58f57e91, 2025-08-25), so their result files have no score file by
/// design. Their tests are unscored, a fact of the format rather than a missing file.
///
/// ```
/// assert!(evaltally_bfcl::never_scored("sql"));
/// assert!(evaltally_bfcl::never_scored("chatable"));
/// assert!(!evaltally_bfcl::never_scored("simple"));
/// ```
pub fn never_scored(category: &str) -> bool {
    category.contains("chatable") || category.contains("sql")
}

/// What is said of a result file without its score file in a category BFCL never scores.
pub(crate) fn never_scored_note(model: &str, category: &str, run: &str, tests: Option<usize>) -> String {
    let tests = tests.map_or_else(String::new, |n| format!(": {n} tests unscored, counted as neither pass nor fail"));
    format!(
        "no score file for model `{model}`, category `{category}` in run `{run}`, as BFCL's eval_runner.py never scores `sql` or `chatable` (it skips them){tests}"
    )
}
