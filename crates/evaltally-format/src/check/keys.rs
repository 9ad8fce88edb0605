//! The keys a format's writers never produce, said once per key however many objects hold it.

use std::collections::HashMap;

use evaltally_core::Finding;
use serde_json::{Map, Value};

use super::{Checker, key_path};
use crate::json::without_bom;

/// One kind of object in a format's documents, where it sits and the keys its writers give
/// it, for [`KeyCheck`].
///
/// `at` is a path from the document's root `$`: `.name` steps into a member, `[*]` into
/// every item of a list, `.*` into every value of an object (`$.results.results[*]`,
/// `$.eval.*[*]`). A step that finds something else finds nothing.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    /// Where the objects are.
    pub at: &'static str,
    /// Every key their writers give them, in every version; an entry ending in `*` stands
    /// for every key that begins with the rest.
    pub known: &'static [&'static str],
    /// What they are, for the message (`promptfoo's EvaluateResult`).
    pub what: &'static str,
}

/// Finds the keys of a format's objects that no writer of the format gives, over one
/// document or many (the lines of a JSON Lines file), and says each once as a warning:
/// `$.results[*].extra: warning: unknown key: not a field of X (3 of 40 have it)`.
///
/// ```
/// use evaltally_format::check::{Checker, KeyCheck, Level};
///
/// const LEVELS: &[Level] = &[
///     Level { at: "$", known: &["results"], what: "a tally" },
///     Level { at: "$.results[*]", known: &["id", "ok"], what: "a tally's result" },
/// ];
/// let doc = serde_json::json!({"results": [{"id": 1, "ok": true, "note": "a"}, {"id": 2, "ok": false, "note": "b"}]});
/// let mut keys = KeyCheck::new(LEVELS);
/// keys.add(&doc);
/// let mut c = Checker::default();
/// keys.finish(&mut c);
/// let shown: Vec<String> = c.findings.iter().map(ToString::to_string).collect();
/// assert_eq!(shown, ["$.results[*].note: warning: unknown key: not a field of a tally's result (2 of 2 have it)"]);
/// ```
#[derive(Debug)]
pub struct KeyCheck<'l> {
    levels: &'l [Level],
    /// Per level: how many objects were seen, and each unknown key with how many had it.
    seen: Vec<(usize, Unknown)>,
}

/// The unknown keys of a level, in the order first met, with how many objects had each.
#[derive(Clone, Debug, Default)]
struct Unknown {
    order: Vec<String>,
    counts: HashMap<String, usize>,
}

/// The unknown keys said one by one at a level; the others are counted in one line (a file
/// of generated keys would otherwise give a line per key).
const SAID: usize = 20;

impl<'l> KeyCheck<'l> {
    /// A check of the objects at `levels`.
    pub fn new(levels: &'l [Level]) -> Self {
        Self { levels, seen: vec![(0, Unknown::default()); levels.len()] }
    }

    /// Tallies the keys of one document's objects.
    pub fn add(&mut self, doc: &Value) {
        self.add_at(doc, "$");
    }

    /// Tallies the keys of the objects in `v`, which sits at `at` in its document (one of a
    /// list's items at `$.results[*]`): the levels at or below `at`.
    ///
    /// ```
    /// use evaltally_format::check::{Checker, KeyCheck, Level};
    /// const LEVELS: &[Level] = &[Level { at: "$.results[*]", known: &["id"], what: "a result" }];
    /// let mut keys = KeyCheck::new(LEVELS);
    /// for item in [serde_json::json!({"id": 1}), serde_json::json!({"id": 2, "x": 0})] {
    ///     keys.add_at(&item, "$.results[*]");
    /// }
    /// let mut c = Checker::default();
    /// keys.finish(&mut c);
    /// assert_eq!(c.findings[0].to_string(), "$.results[*].x: warning: unknown key: not a field of a result (1 of 2 have it)");
    /// ```
    pub fn add_at(&mut self, v: &Value, at: &str) {
        for (level, (objects, unknown)) in self.levels.iter().zip(&mut self.seen) {
            if let Some(rest) = below(level.at, at) {
                each_at(v, rest, &mut |m| tally(level, objects, unknown, m.keys().map(String::as_str)));
            }
        }
    }

    /// Tallies the keys of the objects in the JSON text `bytes`, which sits at `at` in its
    /// document, as [`add_at`](Self::add_at) does with a parsed value, but reading only
    /// keys: values on no level's path are skipped unbuilt, so a sample's messages and events
    /// cost a scan, not a tree. `false` (and nothing tallied) when the text is not JSON.
    ///
    /// ```
    /// use evaltally_format::check::{Checker, KeyCheck, Level};
    /// const LEVELS: &[Level] = &[Level { at: "$.samples[*]", known: &["id", "messages"], what: "a sample" }];
    /// let mut keys = KeyCheck::new(LEVELS);
    /// assert!(keys.add_bytes(br#"{"samples": [{"id": 1, "messages": [{"x": 1}]}, {"id": 2, "seed": 7}]}"#, "$"));
    /// assert!(!keys.add_bytes(b"{", "$"));
    /// let mut c = Checker::default();
    /// keys.finish(&mut c);
    /// assert_eq!(c.findings[0].to_string(), "$.samples[*].seed: warning: unknown key: not a field of a sample (1 of 2 have it)");
    /// ```
    pub fn add_bytes(&mut self, bytes: &[u8], at: &str) -> bool {
        use serde::de::DeserializeSeed as _;
        let paths: Vec<(usize, &str)> =
            self.levels.iter().enumerate().filter_map(|(i, l)| below(l.at, at).map(|rest| (i, rest))).collect();
        // Tallied apart, and added only when the whole text parses.
        let mut seen = vec![(0, Unknown::default()); self.levels.len()];
        let mut de = serde_json::Deserializer::from_slice(without_bom(bytes));
        let walked = Walk { levels: self.levels, seen: &mut seen, paths }.deserialize(&mut de).and_then(|()| de.end());
        if walked.is_err() {
            return false;
        }
        for ((objects, unknown), (more, found)) in self.seen.iter_mut().zip(seen) {
            *objects += more;
            for key in found.order {
                unknown.count(&key, found.counts[&key]);
            }
        }
        true
    }

    /// Tallies the keys of one object at `at` exactly (one of the [`Level`]s' `at`), for a
    /// validator that holds its objects in another type than [`Value`] (a simd-json value,
    /// an XML element's attributes).
    ///
    /// ```
    /// use evaltally_format::check::{Checker, KeyCheck, Level};
    /// const LEVELS: &[Level] = &[Level { at: "$", known: &["id"], what: "a result line" }];
    /// let mut keys = KeyCheck::new(LEVELS);
    /// keys.add_keys("$", ["id", "seed"]);
    /// keys.add_keys("$", ["id"]);
    /// let mut c = Checker::default();
    /// keys.finish(&mut c);
    /// assert_eq!(c.findings[0].to_string(), "$.seed: warning: unknown key: not a field of a result line (1 of 2 have it)");
    /// ```
    pub fn add_keys<'k>(&mut self, at: &str, keys: impl IntoIterator<Item = &'k str>) {
        if let Some(i) = self.levels.iter().position(|l| l.at == at) {
            let (objects, unknown) = &mut self.seen[i];
            tally(&self.levels[i], objects, unknown, keys);
        }
    }

    /// The warnings [`finish`](Self::finish) adds.
    pub fn findings(self) -> Vec<Finding> {
        let mut c = Checker::default();
        self.finish(&mut c);
        c.findings
    }

    /// Adds one warning per unknown key, level by level, keys in the order first met; past
    /// 20 keys at a level, one warning counts the rest.
    pub fn finish(self, c: &mut Checker) {
        for (level, (objects, unknown)) in self.levels.iter().zip(self.seen) {
            for key in unknown.order.iter().take(SAID) {
                let n = unknown.counts[key];
                let count = if objects > 1 { format!(" ({n} of {objects} have it)") } else { String::new() };
                c.warn(key_path(level.at, key), format!("unknown key: not a field of {}{count}", level.what));
            }
            if let Some(more) = unknown.order.len().checked_sub(SAID).filter(|&n| n > 0) {
                c.warn(level.at, format!("{more} more unknown keys: not fields of {}", level.what));
            }
        }
    }
}

/// A position in a JSON text with the levels whose path goes on from it, each with the rest
/// of its path: [`KeyCheck::add_bytes`]'s walk.
struct Walk<'w, 'l> {
    levels: &'l [Level],
    seen: &'w mut Vec<(usize, Unknown)>,
    paths: Vec<(usize, &'l str)>,
}

impl<'de> serde::de::DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        if self.paths.is_empty() {
            <serde::de::IgnoredAny as serde::Deserialize>::deserialize(de)?;
            return Ok(());
        }
        de.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let ends: Vec<usize> = self.paths.iter().filter(|(_, rest)| rest.is_empty()).map(|&(i, _)| i).collect();
        for &i in &ends {
            self.seen[i].0 += 1;
        }
        while let Some(key) = map.next_key::<String>()? {
            for &i in &ends {
                if !known(self.levels[i].known, &key) {
                    self.seen[i].1.count(&key, 1);
                }
            }
            let paths: Vec<(usize, &str)> = self
                .paths
                .iter()
                .filter_map(|&(i, rest)| {
                    if let Some(next) = rest.strip_prefix(".*") {
                        return Some((i, next));
                    }
                    let name = rest.strip_prefix('.')?;
                    let end = name.find(['.', '[']).unwrap_or(name.len());
                    (name[..end] == *key).then(|| (i, &name[end..]))
                })
                .collect();
            map.next_value_seed(Walk { levels: self.levels, seen: &mut *self.seen, paths })?;
        }
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let paths: Vec<(usize, &str)> =
            self.paths.iter().filter_map(|&(i, rest)| rest.strip_prefix("[*]").map(|next| (i, next))).collect();
        while seq
            .next_element_seed(Walk { levels: self.levels, seen: &mut *self.seen, paths: paths.clone() })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

impl Unknown {
    /// Counts `n` more objects with `key`.
    fn count(&mut self, key: &str, n: usize) {
        if let Some(had) = self.counts.get_mut(key) {
            *had += n;
        } else {
            self.order.push(key.to_string());
            self.counts.insert(key.to_string(), n);
        }
    }
}

/// The rest of `level_at`'s path below `at` when the level lies at or below it.
fn below<'a>(level_at: &'a str, at: &str) -> Option<&'a str> {
    level_at.strip_prefix(at).filter(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Counts one object of `level` with `keys`, and each key its writers do not give.
fn tally<'k>(level: &Level, objects: &mut usize, unknown: &mut Unknown, keys: impl IntoIterator<Item = &'k str>) {
    *objects += 1;
    for k in keys.into_iter().filter(|k| !known(level.known, k)) {
        unknown.count(k, 1);
    }
}

/// Whether `key` is one of `known`, where an entry ending in `*` stands for every key that
/// begins with the rest (BFCL's `ret_fmt=*`, one key per prompt configuration).
fn known(known: &[&str], key: &str) -> bool {
    known.iter().any(|k| match k.strip_suffix('*') {
        Some(prefix) => key.starts_with(prefix),
        None => *k == key,
    })
}

/// The unknown keys of a JSON document's objects at `levels` (see [`KeyCheck`]), for a
/// validator that reads the document into its own types: the text is scanned again for its
/// keys ([`KeyCheck::add_bytes`]). Nothing when it does not parse (the reader says why).
///
/// ```
/// use evaltally_format::check::{Level, unknown_key_findings};
/// const LEVELS: &[Level] = &[Level { at: "$", known: &["id"], what: "a result" }];
/// let found = unknown_key_findings(br#"{"id": 1, "seed": 7}"#, LEVELS);
/// assert_eq!(found[0].to_string(), "$.seed: warning: unknown key: not a field of a result");
/// assert!(unknown_key_findings(b"{", LEVELS).is_empty());
/// ```
pub fn unknown_key_findings(bytes: &[u8], levels: &[Level]) -> Vec<Finding> {
    let mut keys = KeyCheck::new(levels);
    keys.add_bytes(bytes, "$");
    keys.findings()
}

/// The unknown keys of a parsed document's objects at `levels` (see [`KeyCheck`]).
///
/// ```
/// use evaltally_format::check::{Level, unknown_keys_in};
/// const LEVELS: &[Level] = &[Level { at: "$.runs[*]", known: &["id"], what: "a run" }];
/// let doc = serde_json::json!({"runs": [{"id": 1, "seed": 7}, {"id": 2, "seed": 8}]});
/// assert_eq!(unknown_keys_in(&doc, LEVELS)[0].to_string(), "$.runs[*].seed: warning: unknown key: not a field of a run (2 of 2 have it)");
/// ```
pub fn unknown_keys_in(doc: &Value, levels: &[Level]) -> Vec<Finding> {
    let mut keys = KeyCheck::new(levels);
    keys.add(doc);
    keys.findings()
}

/// The same over the lines of a JSON Lines file, each line a document: a key is said once
/// with how many lines have it. Lines that do not parse are passed over.
///
/// ```
/// use evaltally_format::check::{Level, unknown_line_key_findings};
/// const LEVELS: &[Level] = &[Level { at: "$", known: &["id"], what: "a result line" }];
/// let found = unknown_line_key_findings(b"{\"id\": 1, \"seed\": 7}\n{\"id\": 2}\nnot json\n", LEVELS);
/// assert_eq!(found[0].to_string(), "$.seed: warning: unknown key: not a field of a result line (1 of 2 have it)");
/// ```
pub fn unknown_line_key_findings(bytes: &[u8], levels: &[Level]) -> Vec<Finding> {
    let mut keys = KeyCheck::new(levels);
    for line in crate::bytes::lines(without_bom(bytes)) {
        keys.add_bytes(line, "$");
    }
    keys.findings()
}

/// Calls `f` with every object `path` (the steps after `$`) leads to from `v`.
fn each_at(v: &Value, path: &str, f: &mut dyn FnMut(&Map<String, Value>)) {
    if path.is_empty() {
        if let Value::Object(m) = v {
            f(m);
        }
        return;
    }
    if let Some(rest) = path.strip_prefix("[*]") {
        for item in v.as_array().into_iter().flatten() {
            each_at(item, rest, f);
        }
    } else if let Some(rest) = path.strip_prefix(".*") {
        for item in v.as_object().into_iter().flat_map(Map::values) {
            each_at(item, rest, f);
        }
    } else if let Some(rest) = path.strip_prefix('.') {
        let end = rest.find(['.', '[']).unwrap_or(rest.len());
        if let Some(next) = v.get(&rest[..end]) {
            each_at(next, &rest[end..], f);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn warnings(levels: &[Level], docs: &[Value]) -> Vec<String> {
        let mut keys = KeyCheck::new(levels);
        for doc in docs {
            keys.add(doc);
        }
        let mut c = Checker::default();
        keys.finish(&mut c);
        c.findings.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn every_step_of_a_path() {
        const LEVELS: &[Level] = &[
            Level { at: "$", known: &["eval"], what: "a document" },
            Level { at: "$.eval.*[*]", known: &["task_id"], what: "a sample" },
        ];
        let doc = json!({"eval": {"a": [{"task_id": "a"}, {"task_id": "a", "x": 1}], "b": [{"x": 2}]}, "date": 1});
        assert_eq!(
            warnings(LEVELS, &[doc]),
            [
                "$.date: warning: unknown key: not a field of a document",
                "$.eval.*[*].x: warning: unknown key: not a field of a sample (2 of 3 have it)",
            ]
        );
    }

    #[test]
    fn lines_count_together_and_odd_shapes_find_nothing() {
        const LEVELS: &[Level] = &[Level { at: "$", known: &["id"], what: "a result line" }];
        const DEEP: &[Level] = &[Level { at: "$.a[*].b", known: &[], what: "b" }];
        const ANY: &[Level] = &[Level { at: "$[*]", known: &["id", "ret_fmt=*"], what: "an entry" }];
        let lines = [json!({"id": 1, "z": 0}), json!({"id": 2}), json!([1]), json!({"id": 3, "z": 1, "y": 2})];
        assert_eq!(
            warnings(LEVELS, &lines),
            [
                "$.z: warning: unknown key: not a field of a result line (2 of 3 have it)",
                "$.y: warning: unknown key: not a field of a result line (1 of 3 have it)",
            ]
        );
        assert!(warnings(DEEP, &[json!({"a": {"b": {"x": 1}}}), json!({"a": [1, {"b": 2}]})]).is_empty());
        // A key of a known prefix is known; past 20 unknown keys the rest are counted.
        let many: Vec<Value> = (0..25).map(|i| json!({"id": i, "ret_fmt=a&b": 1, format!("k{i}"): 1})).collect();
        let said = warnings(ANY, &[Value::Array(many)]);
        assert_eq!(said.len(), 21, "{said:?}");
        assert_eq!(said[0], "$[*].k0: warning: unknown key: not a field of an entry (1 of 25 have it)");
        assert_eq!(said[20], "$[*]: warning: 5 more unknown keys: not fields of an entry");
    }
}
