#![doc = include_str!("../README.md")]

pub mod export;
pub mod gstack;
pub mod sfbench;
pub mod swebench;

mod writers;

/// A converted document: the text and what the target could not hold, or had to make up.
pub use evaltally_format::Written as Converted;
pub use writers::{GSTACK, GSTACK_LEGACY, Gstack, GstackLegacy, SFBENCH_V2, SWEBENCH, SfbenchV2, Swebench};

/// Serializes with two-space indentation and a final newline, keys in the value's own
/// order (a struct's field order).
pub(crate) fn pretty(v: &impl serde::Serialize) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// Lists which optional fields some tests carry, for `lost` messages.
pub(crate) fn carried(run: &evaltally_core::RunRecord) -> Carried {
    let mut c = Carried::default();
    for t in &run.tests {
        c.error_type |= t.error_type.is_some();
        c.error_message |= t.error_message.is_some();
        c.duration |= t.duration_ms.is_some();
        c.tokens |= t.input_tokens.is_some() || t.output_tokens.is_some();
        c.cost |= t.cost_usd.is_some();
        c.not_run |= t.outcome.is_none();
        c.unscored |= t.outcome == Some(evaltally_core::Outcome::Unscored);
    }
    c
}

/// Which optional fields any test of a run carries.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Carried {
    pub(crate) error_type: bool,
    pub(crate) error_message: bool,
    pub(crate) duration: bool,
    pub(crate) tokens: bool,
    pub(crate) cost: bool,
    pub(crate) not_run: bool,
    pub(crate) unscored: bool,
}

/// The JSON Schema of every document this crate writes as evaltally's own (the exported
/// JSON Lines row; converted documents are other formats'), with its identifier (feature
/// `schema`; `cargo xtask schemas` writes them into `docs/schema/`).
#[cfg(feature = "schema")]
pub fn schemas() -> Vec<(evaltally_core::schema::SchemaId, serde_json::Value)> {
    vec![(export::SCHEMA, evaltally_core::schema::document_schema::<export::Line<'static>>(export::SCHEMA))]
}
