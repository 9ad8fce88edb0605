//! [`Keys`]: what format detection asks of a JSON document.

use serde_json::Value;

use crate::format::Input;

/// What detection asks of a JSON document: its top-level keys, and, for an object with one
/// member, the keys of that member's value. Implemented for a parsed [`Value`] and for the
/// pipeline's byte view ([`Input`], scanned without parsing), so a format tells its
/// documents apart by one set of rules before and after parsing.
///
/// ```
/// use std::path::Path;
/// use evaltally_format::{Input, Keys};
///
/// let value = serde_json::json!({"django__django-1": {"resolved": true}});
/// let input = Input::new(Path::new("report.json"), br#"{"django__django-1": {"resolved": true}}"#, false);
/// assert!(value.has_key("django__django-1") && input.has_key("django__django-1"));
/// assert_eq!(value.only_child_has(&["resolved", "tests_status"]), Some(vec![true, false]));
/// assert_eq!(input.only_child_has(&["resolved", "tests_status"]), Some(vec![true, false]));
/// assert!(!Keys::is_object(&serde_json::json!([1])));
/// ```
pub trait Keys {
    /// Whether the top-level object has `key`; `false` when it is no object.
    fn has_key(&self, key: &str) -> bool;
    /// Whether the document is an object.
    fn is_object(&self) -> bool;
    /// Whether the only member's value has each of `keys`, when the object has exactly one
    /// member; `None` otherwise.
    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>>;
}

impl Keys for Value {
    fn has_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn is_object(&self) -> bool {
        self.is_object()
    }

    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>> {
        let m = self.as_object()?;
        if m.len() != 1 {
            return None;
        }
        let child = m.values().next()?;
        Some(keys.iter().map(|k| child.get(*k).is_some()).collect())
    }
}

impl Keys for Input<'_> {
    fn has_key(&self, key: &str) -> bool {
        self.has(key)
    }

    fn is_object(&self) -> bool {
        self.json_members().is_some()
    }

    fn only_child_has(&self, keys: &[&str]) -> Option<Vec<bool>> {
        let members = self.json_members()?;
        let [only] = members else { return None };
        let child = Input::new(self.path, &self.text_bytes()[only.value.clone()], false);
        Some(keys.iter().map(|k| child.has(k)).collect())
    }
}
