#![doc = include_str!("../README.md")]

pub mod compare;
pub mod cost;
pub mod html;
mod json;
pub mod plan;
pub mod show;
pub mod stability;
mod style;
pub mod subset;
pub mod summary;
pub mod trend;
pub mod validate;

use evaltally_core::text::and_more;
use json::pretty_json;
pub use style::{Listed, OUTCOMES_MAX, RUN_LIST_MAX, Style, outcomes_text, run_list};
use style::{MAX_COLUMN, diagnostics_markdown, group_digits, plural, thousands, width_of};

/// The JSON Schema of every document this crate writes, with its identifier (feature
/// `schema`; `cargo xtask schemas` writes them into `docs/schema/`).
#[cfg(feature = "schema")]
pub fn schemas() -> Vec<(evaltally_core::schema::SchemaId, serde_json::Value)> {
    use evaltally_core::schema::{SchemaId, document_schema};
    fn one<T: schemars::JsonSchema>(id: SchemaId) -> (SchemaId, serde_json::Value) {
        (id, document_schema::<T>(id))
    }
    vec![
        one::<stability::Document<'static>>(stability::SCHEMA),
        one::<stability::TestIds<'static>>(stability::TEST_IDS_SCHEMA),
        one::<compare::Document<'static>>(compare::SCHEMA),
        one::<show::Document<'static>>(show::SCHEMA),
        one::<trend::Document<'static>>(trend::SCHEMA),
        one::<cost::Document<'static>>(cost::SCHEMA),
        one::<plan::Document<'static>>(plan::SCHEMA),
        one::<validate::Document<'static>>(validate::SCHEMA),
        one::<summary::SfbenchDocument<'static>>(summary::SFBENCH_SCHEMA),
        one::<summary::SwebenchDocument<'static>>(summary::SWEBENCH_SCHEMA),
        one::<summary::stored::Document<'static>>(summary::stored::SCHEMA),
        one::<subset::CheckDocument<'static>>(subset::CHECK_SCHEMA),
        one::<subset::EstimateDocument<'static>>(subset::ESTIMATE_SCHEMA),
        one::<evaltally_analyzer::subset::Subset>(subset::SUBSET_SCHEMA),
    ]
}
