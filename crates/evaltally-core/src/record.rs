use std::path::PathBuf;

use serde::Serialize;

use crate::Outcome;

/// One test of a run with everything any format can carry: the form runs are converted
/// and exported from.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestRecord {
    /// The test id.
    pub id: String,
    /// The category (BFCL category, SWE-bench repository, gstack suite, JUnit testsuite).
    pub category: String,
    /// Pass, fail or unscored; `None` when the run lists the test without running it.
    pub outcome: Option<Outcome>,
    /// The error label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_type: Option<String>,
    /// The error message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// Wall time in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    /// Input tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Cost in US dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

/// One run of one model, test by test, with where it came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunRecord {
    /// The run's name.
    pub run: String,
    /// The model.
    pub model: String,
    /// The format it was read from (`bfcl`, `sfbench-v2`, `swebench-run-report`, `gstack`, …).
    pub format: String,
    /// The file or folder it was read from.
    #[serde(serialize_with = "crate::diag::lossy_path")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub source: PathBuf,
    /// When the run started, as written (ISO 8601 where the format has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// What the run says about itself (branch, commit, version, tier, host; its timestamp
    /// too, where the format has one).
    #[serde(skip_serializing_if = "crate::RunMeta::is_empty")]
    pub meta: crate::RunMeta,
    /// The run's own per-model accounting of calls, tokens and cost (gstack's `costs`),
    /// when it keeps one; per-test tokens and costs are in [`TestRecord`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub costs: Vec<ModelCost>,
    /// The tests, in the order the run lists them.
    pub tests: Vec<TestRecord>,
}

/// Calls, tokens and cost of one model in one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelCost {
    /// The model.
    pub model: String,
    /// API calls (or tests with token data, when summed from tests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls: Option<u64>,
    /// Input tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Cost in US dollars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl RunRecord {
    /// When the run ran, as it records it: its start ([`RunRecord::started_at`]), else its
    /// own timestamp ([`RunMeta::timestamp`](crate::RunMeta::timestamp)).
    ///
    /// ```
    /// let mut run = evaltally_core::RunRecord::default();
    /// run.meta.timestamp = Some("2024-02-20 16:09".into());
    /// assert_eq!(run.when(), Some("2024-02-20 16:09"));
    /// run.started_at = Some("2024-02-20T16:00:00".into());
    /// assert_eq!(run.when(), Some("2024-02-20T16:00:00"));
    /// ```
    pub fn when(&self) -> Option<&str> {
        self.started_at.as_deref().or(self.meta.timestamp.as_deref())
    }

    /// Number of tests that passed.
    pub fn passed(&self) -> usize {
        self.tests.iter().filter(|t| t.outcome == Some(Outcome::Pass)).count()
    }

    /// Number of tests that failed.
    pub fn failed(&self) -> usize {
        self.tests.iter().filter(|t| t.outcome == Some(Outcome::Fail)).count()
    }
}

/// `x` as a count when it is one: a whole number from 0 to 2^64 − 1 (`None` for a negative,
/// a fraction, a number past `u64` or not a number). A token count a file writes as a float
/// goes through it, rounded first where the format's floats are means.
///
/// ```
/// assert_eq!(evaltally_core::count_of(41.0), Some(41));
/// assert_eq!(evaltally_core::count_of(41.5), None);
/// assert_eq!(evaltally_core::count_of(-1.0), None);
/// assert_eq!(evaltally_core::count_of(2e19), None);
/// ```
pub fn count_of(x: f64) -> Option<u64> {
    // 2^64, the first value past `u64::MAX` (exact as a float).
    const PAST_U64: f64 = 18_446_744_073_709_551_616.0;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    ((0.0..PAST_U64).contains(&x) && x.fract() == 0.0).then_some(x as u64)
}

/// Seconds as milliseconds, rounded to the nanosecond so that decimal seconds give the
/// milliseconds they mean (`1.7` s is `1700` ms, not `1700.0000000000002`).
///
/// ```
/// assert_eq!(evaltally_core::seconds_to_ms(1.7), 1700.0);
/// assert_eq!(evaltally_core::seconds_to_ms(0.000_001_5), 0.0015);
/// ```
pub fn seconds_to_ms(seconds: f64) -> f64 {
    (seconds * 1e9).round() / 1e6
}
