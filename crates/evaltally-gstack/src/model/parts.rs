//! The nested records of a gstack result: costs, category counts, comparisons, failures.
//!
//! Two specs disagree on several of these (see the crate docs): the TypeScript types of
//! `lib/eval-format.ts` and the design doc `TEAM_COORDINATION_STORE.md`. Both shapes are
//! read; each type says which spec it follows.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::fields::{self, Obj};

/// Tokens and cost of one model (`CostEntry`), in `costs[]` at the top level (standard,
/// and the branch's legacy `EvalResult`) or per legacy test.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CostEntry {
    /// Model id, e.g. `claude-sonnet-4-6`.
    pub model: Option<String>,
    /// API calls.
    pub calls: Option<u64>,
    /// Input tokens.
    pub input_tokens: Option<u64>,
    /// Output tokens.
    pub output_tokens: Option<u64>,
    /// Input tokens read from the prompt cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_input_tokens: Option<u64>,
    /// Input tokens written to the prompt cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_creation_input_tokens: Option<u64>,
    /// Exact cost from the API, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl CostEntry {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            model: fields::string(m, "model"),
            calls: fields::count(m, "calls"),
            input_tokens: fields::count(m, "input_tokens"),
            output_tokens: fields::count(m, "output_tokens"),
            cache_read_input_tokens: fields::count(m, "cache_read_input_tokens"),
            cache_creation_input_tokens: fields::count(m, "cache_creation_input_tokens"),
            cost_usd: fields::number(m, "cost_usd"),
        }
    }
}

/// One entry of `by_category`: `{passed, failed}` in the TypeScript type and the format doc,
/// `{passed, total}` in the design doc and the SQL migration. Either is read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CategoryCounts {
    /// Tests passed.
    pub passed: Option<u64>,
    /// Tests failed, as written (TypeScript shape).
    pub failed: Option<u64>,
    /// Tests in the category, as written (design-doc shape).
    pub total: Option<u64>,
}

impl CategoryCounts {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            passed: fields::count(m, "passed"),
            failed: fields::count(m, "failed"),
            total: fields::count(m, "total"),
        }
    }

    /// Failed tests: as written, else `total - passed`.
    ///
    /// ```
    /// use evaltally_gstack::model::CategoryCounts;
    /// let c = CategoryCounts { passed: Some(16), failed: None, total: Some(17) };
    /// assert_eq!((c.failed_count(), c.total_count()), (Some(1), Some(17)));
    /// ```
    pub fn failed_count(&self) -> Option<u64> {
        self.failed.or_else(|| self.total?.checked_sub(self.passed?))
    }

    /// Tests in the category: as written, else `passed + failed`.
    pub fn total_count(&self) -> Option<u64> {
        self.total.or_else(|| self.passed?.checked_add(self.failed?))
    }
}

/// A top-level `comparison[]` entry (`ComparisonEntry` of the TypeScript type).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ComparisonEntry {
    /// Label of the compared run.
    pub label: Option<String>,
    /// Its model.
    pub model: Option<String>,
    /// Its score.
    pub score: Option<f64>,
    /// Its cost.
    pub cost_usd: Option<f64>,
}

impl ComparisonEntry {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            label: fields::string(m, "label"),
            model: fields::string(m, "model"),
            score: fields::number(m, "score"),
            cost_usd: fields::number(m, "cost_usd"),
        }
    }
}

/// A per-result `comparison` object of the design doc (`{type: "ab_test", …}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AbComparison {
    /// `type`: `ab_test` in the design doc.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Scores of the control arm, by criterion.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub control_scores: BTreeMap<String, f64>,
    /// Scores of the treatment arm, by criterion.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub treatment_scores: BTreeMap<String, f64>,
    /// Per-criterion differences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deltas: Vec<ScoreDelta>,
    /// How large a difference is tolerated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
}

impl AbComparison {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            kind: fields::string(m, "type"),
            control_scores: fields::scores(m, "control_scores").unwrap_or_default(),
            treatment_scores: fields::scores(m, "treatment_scores").unwrap_or_default(),
            deltas: fields::objects(m, "deltas", |d| ScoreDelta {
                criterion: fields::string(d, "criterion"),
                control: fields::number(d, "control"),
                treatment: fields::number(d, "treatment"),
                delta: fields::number(d, "delta"),
            })
            .unwrap_or_default(),
            tolerance: fields::number(m, "tolerance"),
        }
    }
}

/// One criterion of an [`AbComparison`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ScoreDelta {
    /// The criterion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criterion: Option<String>,
    /// Control score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub control: Option<f64>,
    /// Treatment score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub treatment: Option<f64>,
    /// `treatment - control`, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<f64>,
}

/// A top-level `failures[]` entry (`FailureEntry` of the TypeScript type).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FailureEntry {
    /// The failed test.
    pub test_name: Option<String>,
    /// What went wrong.
    pub error: Option<String>,
    /// Its category.
    pub category: Option<String>,
}

impl FailureEntry {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            test_name: fields::string(m, "test_name"),
            error: fields::string(m, "error"),
            category: fields::string(m, "category"),
        }
    }
}

/// A per-result `failures[]` entry of the design doc: one expectation a test missed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ExpectationFailure {
    /// `type`: the generic class, `threshold` or `deterministic`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The domain-specific check, e.g. `voice_check`, `body_contains`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expectation_type: Option<String>,
    /// Human-readable summary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The criterion that failed (threshold checks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criterion: Option<String>,
    /// Expected value, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// Actual value, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<Value>,
    /// Per-criterion breakdown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<CriterionScore>,
    /// All scores, by criterion.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub scores: BTreeMap<String, f64>,
    /// Deterministic check name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<String>,
    /// Pattern of a deterministic check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

impl ExpectationFailure {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            kind: fields::string(m, "type"),
            expectation_type: fields::string(m, "expectation_type"),
            message: fields::string(m, "message"),
            criterion: fields::string(m, "criterion"),
            expected: m.get("expected").cloned(),
            actual: m.get("actual").cloned(),
            details: fields::objects(m, "details", |d| CriterionScore {
                criterion: fields::string(d, "criterion"),
                score: fields::number(d, "score"),
                threshold: fields::number(d, "threshold"),
            })
            .unwrap_or_default(),
            scores: fields::scores(m, "scores").unwrap_or_default(),
            check: fields::string(m, "check"),
            pattern: fields::string(m, "pattern"),
        }
    }
}

/// One criterion of an [`ExpectationFailure`]'s breakdown.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CriterionScore {
    /// The criterion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criterion: Option<String>,
    /// Its score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The score it needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
}

/// A legacy test's worktree `harvest`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Harvest {
    /// `filesChanged`.
    #[serde(rename = "filesChanged", skip_serializing_if = "Option::is_none")]
    pub files_changed: Option<u64>,
    /// `patchPath`.
    #[serde(rename = "patchPath", skip_serializing_if = "Option::is_none")]
    pub patch_path: Option<String>,
    /// `isDuplicate`.
    #[serde(rename = "isDuplicate", skip_serializing_if = "Option::is_none")]
    pub is_duplicate: Option<bool>,
}

impl Harvest {
    pub(crate) fn read(m: &Obj) -> Self {
        Self {
            files_changed: fields::count(m, "filesChanged"),
            patch_path: fields::string(m, "patchPath"),
            is_duplicate: fields::boolean(m, "isDuplicate"),
        }
    }
}
