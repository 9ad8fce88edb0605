//! Writing runs: what `convert --to NAME` asks of a format that can be written.

use evaltally_core::RunRecord;

use crate::format::Input;

/// A document written from a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The document, ending with a newline.
    pub text: String,
    /// What the target could not hold, or had to make up, in words: printed so that
    /// nothing disappears silently.
    pub lost: Vec<String>,
}

/// A shape a run can be written in (`gstack`, `gstack-legacy`, `junit`, …). Writers sit in
/// the [`Registry`](crate::Registry) beside the formats; the CLI asks it for the one
/// `--to` names and names no adapter itself.
///
/// ```
/// use evaltally_core::RunRecord;
/// use evaltally_format::{Registry, Writer, Written};
///
/// struct Tally;
/// impl Writer for Tally {
///     fn name(&self) -> &'static str { "tally" }
///     fn describe(&self) -> &'static str { "one `<id> pass|fail` line per test" }
///     fn write(&self, run: &RunRecord) -> Result<Written, String> {
///         let text = run.tests.iter().map(|t| format!("{} {:?}\n", t.id, t.outcome)).collect();
///         Ok(Written { text, lost: Vec::new() })
///     }
/// }
/// static TALLY: Tally = Tally;
/// let registry = Registry::new(Vec::new()).with_writers(vec![&TALLY]);
/// assert_eq!(registry.writer("TALLY").map(|w| w.name()), Some("tally"));
/// ```
pub trait Writer: Send + Sync {
    /// The name `--to` takes.
    fn name(&self) -> &'static str;

    /// One line on what is written, for `--help`.
    fn describe(&self) -> &'static str;

    /// The run as a document, and what had no counterpart; an error when it cannot be
    /// written at all.
    fn write(&self, run: &RunRecord) -> Result<Written, String>;

    /// A whole document in an older version of this shape converted as it stands (an
    /// SF-Bench v1 report to v2, which keeps more than a run holds): `Some` when `file` is
    /// one (the error says, without naming the file, why it cannot be converted). Other
    /// inputs are read into runs and written with [`write`](Self::write).
    fn migrate(&self, _file: &Input<'_>) -> Option<Result<Written, String>> {
        None
    }
}
