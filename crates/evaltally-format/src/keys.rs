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
    /// The number of members of the top-level object and, for each of its first `first`
    /// members, whether its value has each of `keys` (all `false` for a value that is no
    /// object); `None` when the document is no object.
    ///
    /// ```
    /// use evaltally_format::Keys;
    /// let v = serde_json::json!({"a": {"resolved": true}, "b": {"x": 1}, "c": 3});
    /// assert_eq!(v.children_have(&["resolved"], 2), Some((3, vec![vec![true], vec![false]])));
    /// ```
    fn children_have(&self, keys: &[&str], first: usize) -> Option<(usize, Vec<Vec<bool>>)>;
}

/// Whether a document is a map of records: an object of two members or more whose first
/// `first` values each have key `key` and one of `any` (or, a record of another kind the map
/// may hold, key `instead`), and one of them at least the former.
///
/// ```
/// use evaltally_format::keys::map_of;
/// let merged = serde_json::json!({"a": {"resolved": true, "patch_exists": true}, "b": {"timed_out": true}});
/// assert!(map_of(&merged, "resolved", &["patch_exists", "tests_status"], Some("timed_out"), 8));
/// let counts = serde_json::json!({"x": {"resolved": 3, "total": 5}, "y": {"resolved": 1, "total": 2}});
/// assert!(!map_of(&counts, "resolved", &["patch_exists", "tests_status"], None, 8));
/// ```
pub fn map_of(v: &impl Keys, key: &str, any: &[&str], instead: Option<&str>, first: usize) -> bool {
    let mut keys = vec![key];
    keys.extend_from_slice(any);
    keys.extend(instead);
    let Some((members, found)) = v.children_have(&keys, first) else { return false };
    let record = |f: &[bool]| f[0] && f[1..=any.len()].iter().any(|b| *b);
    let other = |f: &[bool]| instead.is_some() && f[any.len() + 1];
    members >= 2 && found.iter().all(|f| record(f) || other(f)) && found.iter().any(|f| record(f))
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

    fn children_have(&self, keys: &[&str], first: usize) -> Option<(usize, Vec<Vec<bool>>)> {
        let m = self.as_object()?;
        let found =
            m.values().take(first).map(|child| keys.iter().map(|k| child.get(*k).is_some()).collect()).collect();
        Some((m.len(), found))
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

    fn children_have(&self, keys: &[&str], first: usize) -> Option<(usize, Vec<Vec<bool>>)> {
        let members = self.json_members()?;
        let text = self.text_bytes();
        let found = members
            .iter()
            .take(first)
            .map(|m| {
                let child = Input::new(self.path, &text[m.value.clone()], false);
                keys.iter().map(|k| child.has(k)).collect()
            })
            .collect();
        Some((members.len(), found))
    }
}
