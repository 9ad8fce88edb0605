use std::fmt;

use serde::{Deserialize, Serialize};

/// An evaluator's error label, such as `value_error:string` or
/// `multi_turn:instance_state_mismatch`.
///
/// The family is the text before the first `:` (`value_error`), which groups the many
/// checker-specific labels into the kinds of mistake a model makes.
///
/// ```
/// use evaltally_core::ErrorType;
/// let e = ErrorType::new("multi_turn:irrelevance_error:decoder_success");
/// assert_eq!(e.family(), "multi_turn");
/// assert_eq!(ErrorType::new("inference_error").family(), "inference_error");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct ErrorType(String);

impl ErrorType {
    /// Wraps a label as read from a file.
    pub fn new(label: impl Into<String>) -> Self {
        Self(label.into())
    }

    /// The full label.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The family: the label up to its first `:`, or the whole label.
    pub fn family(&self) -> &str {
        family_of(&self.0)
    }
}

/// The family of an error label given as a plain string.
///
/// ```
/// assert_eq!(evaltally_core::ErrorType::new("type_error:nested").family(), "type_error");
/// ```
pub(crate) fn family_of(label: &str) -> &str {
    label.split(':').next().unwrap_or(label)
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for ErrorType {
    fn as_ref(&self) -> &str {
        &self.0
    }
}
