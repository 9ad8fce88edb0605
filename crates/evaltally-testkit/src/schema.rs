//! Validating evaltally's JSON documents against their schemas in `docs/schema/`.
//!
//! A document names its schema in its first key, `"schema": "evaltally.<name>/<version>"`;
//! [`check`] validates it against `docs/schema/<name>.schema.json` (draft 2020-12, with the
//! `boon` crate) and says where each error is, as a JSON pointer into the document.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde_json::Value;

/// The folder that holds the schemas.
pub fn folder() -> PathBuf {
    crate::workspace_root().join("docs").join("schema")
}

/// The compiled schemas of this test process, by document name.
struct Compiled {
    schemas: boon::Schemas,
    index: HashMap<String, boon::SchemaIndex>,
}

fn compiled() -> &'static Mutex<Compiled> {
    static KEPT: OnceLock<Mutex<Compiled>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(Compiled { schemas: boon::Schemas::new(), index: HashMap::new() }))
}

/// The document's name, from its `schema` key (`evaltally.<name>/<version>`).
pub fn name_of(doc: &Value) -> Option<&str> {
    let id = doc.get("schema")?.as_str()?.strip_prefix("evaltally.")?;
    id.split_once('/').map(|(name, _)| name)
}

/// The innermost errors of a validation error, each as `pointer: what`.
fn leaves(e: &boon::ValidationError<'_, '_>, out: &mut Vec<String>) {
    if e.causes.is_empty() {
        out.push(format!("{}: {}", e.instance_location, e.kind));
    }
    for cause in &e.causes {
        leaves(cause, out);
    }
}

/// Validates `doc` against the schema its `schema` key names. `Err` lists each problem
/// on a line: the JSON pointer of the value (empty for the whole document) and what is
/// wrong with it.
///
/// ```
/// let doc = serde_json::json!({"schema": "evaltally.serve-error/1", "error": "no such page"});
/// assert_eq!(evaltally_testkit::schema::check(&doc), Ok("serve-error".to_string()));
/// let wrong = serde_json::json!({"schema": "evaltally.serve-error/1", "error": 404});
/// let errors = evaltally_testkit::schema::check(&wrong).unwrap_err();
/// assert!(errors.starts_with("/error: "), "{errors}");
/// ```
pub fn check(doc: &Value) -> Result<String, String> {
    let Some(name) = name_of(doc) else {
        return Err(format!("no `schema` key of the form evaltally.<name>/<version>: {:.200}", doc.to_string()));
    };
    let mut kept = compiled().lock().unwrap_or_else(PoisonError::into_inner);
    let Compiled { schemas, index } = &mut *kept;
    let at = if let Some(at) = index.get(name) {
        *at
    } else {
        let path = folder().join(format!("{name}.schema.json"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("no schema for `{name}` ({}: {e}); run `cargo xtask schemas`", path.display()))?;
        let schema: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let url = format!("file:///evaltally/{name}.schema.json");
        let mut compiler = boon::Compiler::new();
        compiler.add_resource(&url, schema).map_err(|e| format!("{}: {e}", path.display()))?;
        let at = compiler.compile(&url, schemas).map_err(|e| format!("{}: not a schema: {e}", path.display()))?;
        index.insert(name.to_string(), at);
        at
    };
    match schemas.validate(doc, at) {
        Ok(()) => Ok(name.to_string()),
        Err(e) => {
            let mut errors = Vec::new();
            leaves(&e, &mut errors);
            Err(errors.join("\n"))
        }
    }
}

/// Validates `doc` as [`check`] does, and panics naming `what` (the command, the file)
/// and every problem when it is not valid. Returns the document's name.
///
/// # Panics
/// When `doc` has no `schema` key, its schema file is missing, or it does not validate.
pub fn assert_valid(doc: &Value, what: &str) -> String {
    match check(doc) {
        Ok(name) => name,
        Err(errors) => panic!("{what}: the document does not match its schema:\n{errors}"),
    }
}

/// Parses `text` as one JSON document and validates it as [`assert_valid`] does.
///
/// # Panics
/// When `text` is not JSON, or as [`assert_valid`].
pub fn assert_valid_text(text: &str, what: &str) -> String {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON ({e}):\n{text:.500}"));
    assert_valid(&doc, what)
}
