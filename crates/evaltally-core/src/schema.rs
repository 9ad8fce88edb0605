//! The name and version every JSON document of evaltally carries in its first key:
//! `"schema": "evaltally.<name>/<version>"`.
//!
//! Each document type defines its [`SchemaId`] as a const beside it, the one place its
//! version is kept. A renamed or removed key, or a key whose meaning changed, takes a new
//! version; an added key does not. `docs/schema/` holds the JSON Schema of every document,
//! made from the types (`cargo xtask schemas`), and `CHANGELOG.md` says what each version
//! changed.
//!
//! ```
//! use evaltally_core::schema::SchemaId;
//!
//! const STABILITY: SchemaId = SchemaId::new("stability", 1);
//! assert_eq!(STABILITY.to_string(), "evaltally.stability/1");
//! assert_eq!(serde_json::to_string(&STABILITY).unwrap(), r#""evaltally.stability/1""#);
//! assert_eq!(STABILITY.file_name(), "stability.schema.json");
//! assert_eq!(SchemaId::parse("evaltally.stability/2"), Some(("stability", 2)));
//! assert_eq!(SchemaId::parse("stability/2"), None);
//! ```

use std::fmt;

use serde::ser::{Error as _, SerializeMap as _};
use serde::{Serialize, Serializer};

/// The prefix of every document's identifier.
pub const PREFIX: &str = "evaltally.";

/// A document's name and version, written as the string `evaltally.<name>/<version>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SchemaId {
    /// The document's name: lower case words joined by `-` (`stability`, `serve-summary`).
    pub name: &'static str,
    /// Its version, from 1.
    pub version: u32,
}

impl SchemaId {
    /// The identifier of version `version` of document `name`.
    pub const fn new(name: &'static str, version: u32) -> Self {
        Self { name, version }
    }

    /// The file in `docs/schema/` that holds the document's JSON Schema:
    /// `<name>.schema.json` (one file per document, for its current version).
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.name)
    }

    /// The name and version an identifier string holds, `None` when it is not of the form
    /// `evaltally.<name>/<version>`.
    pub fn parse(text: &str) -> Option<(&str, u32)> {
        let (name, version) = text.strip_prefix(PREFIX)?.split_once('/')?;
        let named = !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        let numbered = !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit());
        (named && numbered).then(|| version.parse().ok().map(|v| (name, v))).flatten()
    }
}

impl fmt::Display for SchemaId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}/{}", self.name, self.version)
    }
}

impl Serialize for SchemaId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A document written with its keys sorted at every level, as a [`serde_json::Value`]
/// writes them, except its `schema` key, which comes first. The documents whose objects
/// are keyed by name rather than laid out field by field (the summaries, the store's
/// lists, `cache info`, serve's answers) are written this way.
///
/// ```
/// use evaltally_core::schema::{SchemaId, SortedKeys};
///
/// #[derive(serde::Serialize)]
/// struct Doc { schema: SchemaId, path: &'static str, format: &'static str }
/// let doc = Doc { schema: SchemaId::new("example", 1), path: "p", format: "f" };
/// assert_eq!(
///     serde_json::to_string(&SortedKeys(&doc)).unwrap(),
///     r#"{"schema":"evaltally.example/1","format":"f","path":"p"}"#
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SortedKeys<T>(pub T);

impl<T: Serialize> Serialize for SortedKeys<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match serde_json::to_value(&self.0).map_err(S::Error::custom)? {
            serde_json::Value::Object(mut map) => {
                let schema = map.remove("schema");
                let mut out = serializer.serialize_map(Some(map.len() + usize::from(schema.is_some())))?;
                if let Some(schema) = schema {
                    out.serialize_entry("schema", &schema)?;
                }
                for (key, value) in &map {
                    out.serialize_entry(key, value)?;
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(feature = "schema")]
mod json_schema {
    use std::borrow::Cow;

    use schemars::generate::SchemaSettings;
    use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
    use serde_json::Value;

    use super::SchemaId;

    impl JsonSchema for SchemaId {
        fn schema_name() -> Cow<'static, str> {
            "SchemaId".into()
        }

        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            json_schema!({
                "description": "The document's name and version: `evaltally.<name>/<version>`.",
                "type": "string",
                "pattern": "^evaltally\\.[a-z0-9-]+/[0-9]+$",
            })
        }
    }

    /// The JSON Schema (draft 2020-12) of document type `T`, whose identifier is `id`: what
    /// `T` serialises to (a field skipped when empty is optional), titled with the
    /// identifier, its `schema` property pinned to it and required. Descriptions are the
    /// types' and fields' documentation, without code examples and link brackets.
    pub fn document_schema<T: JsonSchema>(id: SchemaId) -> Value {
        let generator = SchemaGenerator::new(SchemaSettings::draft2020_12().for_serialize());
        let mut root = generator.into_root_schema_for::<T>().to_value();
        plain_descriptions(&mut root);
        if let Value::Object(map) = &mut root {
            map.insert("title".into(), Value::String(id.to_string()));
            let properties = map.entry("properties").or_insert_with(|| Value::Object(serde_json::Map::new()));
            if let Value::Object(properties) = properties {
                properties.insert(
                    "schema".into(),
                    serde_json::json!({
                        "description": "The document's name and version; a consumer checks it before reading the rest.",
                        "const": id.to_string(),
                    }),
                );
            }
            let required = map.entry("required").or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(required) = required {
                required.retain(|r| r != "schema");
                required.insert(0, Value::String("schema".into()));
            }
        }
        root
    }

    /// Every `description` made plain text: rustdoc's code examples left out, intra-doc
    /// links (``[`Type`]``, `[text](target)`) reduced to their text, and the lines of a
    /// paragraph joined. A `required` list names each key once (a flattened field may name
    /// a key its parent names again: the parent's, written last, is the one a reader gets).
    fn plain_descriptions(value: &mut Value) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    match v {
                        Value::String(text) if key == "description" => *text = plain(text),
                        Value::Array(names) if key == "required" => {
                            let mut seen: Vec<Value> = Vec::new();
                            names.retain(|n| {
                                let first = !seen.contains(n);
                                seen.push(n.clone());
                                first
                            });
                        }
                        _ => plain_descriptions(v),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
            _ => {}
        }
    }

    fn plain(doc: &str) -> String {
        let mut paragraphs: Vec<String> = Vec::new();
        let mut current: Vec<&str> = Vec::new();
        let mut in_code = false;
        for line in doc.lines() {
            let line = line.trim();
            if line.starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                continue;
            }
            if line.is_empty() {
                if !current.is_empty() {
                    paragraphs.push(current.join(" "));
                    current.clear();
                }
            } else {
                current.push(line);
            }
        }
        if !current.is_empty() {
            paragraphs.push(current.join(" "));
        }
        unlink(&paragraphs.join("\n\n"))
    }

    /// ``[`code`]`` and `[text](target)` as their text; other brackets (``[passed, judged]``
    /// in a code span) are kept.
    fn unlink(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('[') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find(']') else {
                out.push_str(&rest[open..]);
                return out;
            };
            let inner = &after[..close];
            let tail = &after[close + 1..];
            let target = tail.strip_prefix('(').and_then(|t| t.find(')').map(|end| &t[end + 1..]));
            let code = inner.len() > 1 && inner.starts_with('`') && inner.ends_with('`');
            if inner.contains('[') || !(code || target.is_some()) {
                out.push('[');
                rest = after;
                continue;
            }
            out.push_str(inner);
            rest = target.unwrap_or(tail);
        }
        out.push_str(rest);
        out
    }
}

#[cfg(feature = "schema")]
pub use json_schema::document_schema;
