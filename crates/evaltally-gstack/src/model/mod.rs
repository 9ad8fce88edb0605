//! Typed, tolerant readers for gstack's two result shapes, and their common form
//! [`GstackRun`].
//!
//! * **Standard** (`StandardEvalResult`, `lib/eval-format.ts`): `git_branch`, `total`,
//!   `duration_seconds` (seconds, a float allowed), `all_results[]`, and the optional
//!   `label`, `prompt_sha`, `by_category`, `costs`, `comparison`, `failures`.
//! * **Legacy** (`EvalResult`, `test/helpers/eval-store.ts`): what gstack's collector
//!   writes to disk: `branch`, `total_tests`, `total_duration_ms` (milliseconds),
//!   `wall_clock_ms`, `tests[]` with transcripts, prompts and timing diagnostics.
//!
//! Reading never fails on a recognised document: a field of the wrong type reads as absent
//! (checking types is [`validate`](crate::validate())'s job). Durations are normalised: per
//! test in milliseconds (both shapes already are), per run in seconds.

pub(crate) mod fields;
mod parts;
mod test;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

pub use parts::{
    AbComparison, CategoryCounts, ComparisonEntry, CostEntry, CriterionScore, ExpectationFailure, FailureEntry,
    Harvest, ScoreDelta,
};
pub use test::GstackTest;

use fields::Obj;

/// Which of gstack's two result shapes a document has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// `StandardEvalResult`: `all_results`, `git_branch`, `total`, `duration_seconds`.
    Standard,
    /// The legacy `EvalResult`: `tests`, `branch`, `total_tests`, `total_duration_ms`.
    Legacy,
}

impl Shape {
    /// A name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Standard => "gstack standard eval result",
            Shape::Legacy => "gstack legacy EvalResult",
        }
    }

    /// The key of the test list: `all_results` or `tests`.
    pub fn tests_key(self) -> &'static str {
        match self {
            Shape::Standard => "all_results",
            Shape::Legacy => "tests",
        }
    }

    /// The key of the test count: `total` or `total_tests`.
    pub fn total_key(self) -> &'static str {
        match self {
            Shape::Standard => "total",
            Shape::Legacy => "total_tests",
        }
    }
}

/// Top-level keys of the standard format besides `all_results`.
pub(crate) const STANDARD_KEYS: [&str; 11] = [
    "schema_version",
    "version",
    "git_branch",
    "git_sha",
    "timestamp",
    "tier",
    "total",
    "passed",
    "failed",
    "total_cost_usd",
    "duration_seconds",
];

/// Which gstack shape `v` has, if any.
///
/// A standard result is an object with `all_results` and at least one other standard key;
/// a legacy one has a `tests` array and one of `branch`, `total_tests`, `total_duration_ms`.
/// A document with both `all_results` and `tests` counts as standard.
///
/// ```
/// use evaltally_gstack::{detect, Shape};
/// let std = serde_json::json!({"schema_version": 1, "all_results": []});
/// let legacy = serde_json::json!({"branch": "main", "tests": []});
/// assert_eq!(detect(&std), Some(Shape::Standard));
/// assert_eq!(detect(&legacy), Some(Shape::Legacy));
/// assert_eq!(detect(&serde_json::json!({"results": []})), None);
/// assert_eq!(detect(&serde_json::json!([])), None);
/// ```
pub fn detect(v: &Value) -> Option<Shape> {
    let m = v.as_object()?;
    if m.contains_key("all_results") && STANDARD_KEYS.iter().any(|k| m.contains_key(*k)) {
        return Some(Shape::Standard);
    }
    let legacy_key = ["branch", "total_tests", "total_duration_ms"].iter().any(|k| m.contains_key(*k));
    (legacy_key && m.get("tests").is_some_and(Value::is_array)).then_some(Shape::Legacy)
}

/// One gstack run, from either shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GstackRun {
    /// The shape it was read from.
    pub shape: Shape,
    /// The file it was read from, when read from a file.
    pub source: Option<PathBuf>,
    /// `schema_version` (1).
    pub schema_version: Option<f64>,
    /// Version of the system evaluated.
    pub version: Option<String>,
    /// Human-readable run label (standard only).
    pub label: Option<String>,
    /// `git_branch` (standard) or `branch` (legacy).
    pub git_branch: Option<String>,
    /// Commit.
    pub git_sha: Option<String>,
    /// ISO 8601 timestamp, as written.
    pub timestamp: Option<String>,
    /// Machine.
    pub hostname: Option<String>,
    /// Run tier: `e2e`, `llm-judge` or custom.
    pub tier: Option<String>,
    /// `total` (standard) or `total_tests` (legacy), as written.
    pub total: Option<u64>,
    /// Passed count, as written.
    pub passed: Option<u64>,
    /// Failed count, as written.
    pub failed: Option<u64>,
    /// Total cost in USD.
    pub total_cost_usd: Option<f64>,
    /// Run duration in seconds: `duration_seconds`, or legacy `total_duration_ms / 1000`
    /// (not rounded, unlike gstack's `normalizeFromLegacy`).
    pub duration_seconds: Option<f64>,
    /// Legacy: `wall_clock_ms / 1000`, from collector start to finish (less than the summed
    /// duration when tests ran in parallel).
    pub wall_clock_seconds: Option<f64>,
    /// The tests that are objects, in file order.
    pub tests: Vec<GstackTest>,
    /// SHA of the prompts (standard).
    pub prompt_sha: Option<String>,
    /// Per-category counts (standard), in either shape.
    pub by_category: BTreeMap<String, CategoryCounts>,
    /// Per-model costs (standard; legacy on the branch).
    pub costs: Vec<CostEntry>,
    /// Top-level comparison entries (TypeScript shape).
    pub comparison: Vec<ComparisonEntry>,
    /// Top-level failure entries (TypeScript shape).
    pub failures: Vec<FailureEntry>,
    /// Legacy (main): the shard slug.
    pub shard: Option<String>,
    /// `_partial: true`: an incremental save of a run that had not finished.
    pub partial: bool,
}

impl GstackRun {
    /// Reads a document that [`detect`] recognises; `None` otherwise.
    ///
    /// ```
    /// let v = serde_json::json!({"branch": "main", "tier": "e2e", "total_duration_ms": 1500, "wall_clock_ms": 900,
    ///     "tests": [{"name": "a", "suite": "core", "passed": true, "duration_ms": 1500}]});
    /// let run = evaltally_gstack::GstackRun::from_value(&v).unwrap();
    /// assert_eq!(run.git_branch.as_deref(), Some("main"));
    /// assert_eq!((run.duration_seconds, run.wall_clock_seconds), (Some(1.5), Some(0.9)));
    /// assert_eq!(run.tests[0].duration_ms, Some(1500.0));
    /// ```
    pub fn from_value(v: &Value) -> Option<Self> {
        Self::read(v, &mut Vec::new())
    }

    /// Like [`from_value`](Self::from_value), adding to `notes` what was left out or
    /// assumed (tests that are not objects or have no name, non-boolean `passed`, counts that
    /// disagree, `_partial`).
    pub fn read(v: &Value, notes: &mut Vec<String>) -> Option<Self> {
        let shape = detect(v)?;
        let m = v.as_object()?;
        Some(Self::read_as(m, shape, notes))
    }

    /// Reads `v` as a result of `shape` even when its keys do not say so (for `--as gstack`):
    /// an object with `tests` and no `all_results` as legacy, anything else as standard.
    /// `None` when `v` is not an object.
    pub fn read_forced(v: &Value, notes: &mut Vec<String>) -> Option<Self> {
        let m = v.as_object()?;
        let shape = if let Some(shape) = detect(v) {
            shape
        } else {
            let shape =
                if m.contains_key("tests") && !m.contains_key("all_results") { Shape::Legacy } else { Shape::Standard };
            notes.push(format!("read as a gstack {} result as asked, though its keys do not say so", shape.name()));
            shape
        };
        Some(Self::read_as(m, shape, notes))
    }

    fn read_as(m: &Obj, shape: Shape, notes: &mut Vec<String>) -> Self {
        let legacy = shape == Shape::Legacy;
        let key = shape.tests_key();
        let mut tests = Vec::new();
        match m.get(key).and_then(Value::as_array) {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    let Some(o) = item.as_object() else {
                        notes.push(format!("{key}[{i}] is not an object; left out"));
                        continue;
                    };
                    let t = GstackTest::from_object(i, o);
                    match &t.name {
                        None => notes.push(format!("{key}[{i}] has no string `name`; left out")),
                        Some(name) if t.passed.is_none() => notes
                            .push(format!("{key}[{i}] (`{name}`): `passed` is not true or false; counted as unscored")),
                        Some(_) => {}
                    }
                    tests.push(t);
                }
            }
            None => notes.push(format!("`{key}` is missing or not an array: the run lists no tests")),
        }
        let total = fields::count(m, shape.total_key());
        if let Some(total) = total
            && m.get(key).is_some_and(Value::is_array)
        {
            let listed = m.get(key).and_then(Value::as_array).map_or(0, Vec::len);
            if usize::try_from(total).ok() != Some(listed) {
                notes.push(format!("`{}` says {total} tests, `{key}` lists {listed}", shape.total_key()));
            }
        }
        let partial = fields::boolean(m, "_partial") == Some(true);
        if partial {
            notes.push("`_partial: true`: an incremental save of a run that had not finished".to_string());
        }
        let ms_to_s = |k: &str| fields::number(m, k).map(|ms| ms / 1000.0);
        Self {
            shape,
            source: None,
            schema_version: fields::number(m, "schema_version"),
            version: fields::string(m, "version"),
            label: if legacy { None } else { fields::string(m, "label") },
            git_branch: fields::string(m, if legacy { "branch" } else { "git_branch" }),
            git_sha: fields::string(m, "git_sha"),
            timestamp: fields::string(m, "timestamp"),
            hostname: fields::string(m, "hostname"),
            tier: fields::string(m, "tier"),
            total,
            passed: fields::count(m, "passed"),
            failed: fields::count(m, "failed"),
            total_cost_usd: fields::number(m, "total_cost_usd"),
            duration_seconds: if legacy { ms_to_s("total_duration_ms") } else { fields::number(m, "duration_seconds") },
            wall_clock_seconds: if legacy { ms_to_s("wall_clock_ms") } else { None },
            tests,
            prompt_sha: fields::string(m, "prompt_sha"),
            by_category: m
                .get("by_category")
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter().filter_map(|(k, v)| Some((k.clone(), CategoryCounts::read(v.as_object()?)))).collect()
                })
                .unwrap_or_default(),
            costs: fields::objects(m, "costs", CostEntry::read).unwrap_or_default(),
            comparison: fields::objects(m, "comparison", ComparisonEntry::read).unwrap_or_default(),
            failures: fields::objects(m, "failures", FailureEntry::read).unwrap_or_default(),
            shard: fields::string(m, "shard"),
            partial,
        }
    }

    /// What the run says about itself (timestamp, branch, commit, version, tier, host).
    pub fn meta(&self) -> evaltally_core::RunMeta {
        evaltally_core::RunMeta {
            timestamp: self.timestamp.clone(),
            git_branch: self.git_branch.clone(),
            git_sha: self.git_sha.clone(),
            version: self.version.clone(),
            tier: self.tier.clone(),
            hostname: self.hostname.clone(),
            prompt_sha: self.prompt_sha.clone(),
            duration_seconds: self.duration_seconds,
            total_cost_usd: self.total_cost_usd,
            test_set: None,
            setup: None,
            run_id: None,
        }
    }

    /// The run's name: its `label`, else the file stem, else `gstack`.
    pub fn name(&self) -> String {
        if let Some(label) = self.label.as_deref().filter(|l| !l.is_empty()) {
            return label.to_string();
        }
        self.source.as_deref().and_then(|p| p.file_name()).map_or_else(
            || "gstack".to_string(),
            |n| {
                let n = n.to_string_lossy();
                n.strip_suffix(".json").unwrap_or(&n).to_string()
            },
        )
    }

    /// The model: the tests' `model` when they all name the same one, else the single model
    /// of `costs` (the run's, or the tests' when the run has none), else `unknown`.
    ///
    /// ```
    /// let v = serde_json::json!({"schema_version": 1, "all_results": [],
    ///     "costs": [{"model": "claude-sonnet-4-6", "calls": 1, "input_tokens": 5, "output_tokens": 2}]});
    /// assert_eq!(evaltally_gstack::GstackRun::from_value(&v).unwrap().model(), "claude-sonnet-4-6");
    /// ```
    pub fn model(&self) -> String {
        let single = |models: &mut dyn Iterator<Item = &str>| {
            let mut distinct: Vec<&str> = models.collect();
            distinct.sort_unstable();
            distinct.dedup();
            (distinct.len() == 1).then(|| distinct[0].to_string())
        };
        if let Some(m) = single(&mut self.tests.iter().filter_map(|t| t.model.as_deref())) {
            return m;
        }
        let run_costs = &mut self.costs.iter().filter_map(|c| c.model.as_deref());
        let test_costs =
            &mut self.tests.iter().flat_map(|t| t.costs.iter().flatten()).filter_map(|c| c.model.as_deref());
        let costs: &mut dyn Iterator<Item = &str> = if self.costs.is_empty() { test_costs } else { run_costs };
        single(costs).unwrap_or_else(|| "unknown".to_string())
    }
}
