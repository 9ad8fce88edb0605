//! Converts runs of any format evaltally reads into other formats, and exports them.
//!
//! Every converter takes a [`RunRecord`] (one run of one model, test by test, with what
//! any format can carry) and returns the document text plus the list of what had no
//! counterpart ([`Converted::lost`]), so nothing disappears silently.
//!
//! * [`gstack`]: gstack's standard eval result (`schema_version` 1): name = id, suite =
//!   category, passed, error, duration, token counts into `costs`.
//! * [`sfbench`]: an SF-Bench v2 report, with the summary and id lists SF-Bench computes.
//! * [`swebench`]: a SWE-bench harness run report.
//! * [`export`]: one normalised JSON line per (run, test), for DuckDB, Spark or BigQuery.
//! * [`GSTACK`], [`GSTACK_LEGACY`], [`SFBENCH_V2`], [`SWEBENCH`]: the converters as
//!   [`Writer`](evaltally_format::Writer)s, for the registry that `convert --to` asks.
//!
//! ```
//! use evaltally_core::{Outcome, RunRecord, TestRecord};
//! let run = RunRecord {
//!     run: "run-1".into(),
//!     model: "m".into(),
//!     tests: vec![TestRecord { id: "simple_0".into(), category: "simple".into(), outcome: Some(Outcome::Pass), ..Default::default() }],
//!     ..Default::default()
//! };
//! let out = evaltally_convert::swebench::convert(&run);
//! assert!(out.text.contains("\"resolved_ids\""));
//! ```
//!
//! [`RunRecord`]: evaltally_core::RunRecord

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
