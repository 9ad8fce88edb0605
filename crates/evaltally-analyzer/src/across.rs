//! Who is flaky, the model or the benchmark: flaky tests told apart across models.
//!
//! When two or more models (or configurations) judged the same tests, a test that flips
//! under most of them is the test's problem (its harness, its environment, its grading),
//! not a model's. A test is **benchmark-flaky** when it is flaky under at least two models
//! and under at least half of the models that judged it; a flaky test under fewer is the
//! model's own (**model-flaky**).

use std::collections::BTreeMap;

use hashbrown::HashMap;

use evaltally_core::id;
use serde::Serialize;

/// The fewest models that must find a test flaky for it to be the benchmark's.
pub const MIN_MODELS: usize = 2;

/// One category's flaky tests, told apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryAcross {
    /// The models that judged tests of the category, by name.
    pub models: Vec<String>,
    /// Flaky under at least two models and under at least half of those that judged it:
    /// the benchmark's (natural order).
    pub benchmark_flaky: Vec<String>,
    /// Per model, its flaky tests that are not the benchmark's (natural order); models
    /// without any are left out.
    pub model_flaky: BTreeMap<String, Vec<String>>,
    /// Per model, those of its [`model_flaky`](Self::model_flaky) tests that no other model
    /// judged: one model cannot tell whether the flipping is its own or the test's (natural
    /// order); models without any are left out, and the key is absent when none has any.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub alone: BTreeMap<String, Vec<String>>,
}

/// Whether a test flaky under `flaky` of the `judged` models that judged it is the
/// benchmark's.
///
/// ```
/// use evaltally_analyzer::across::benchmark_flaky;
/// assert!(benchmark_flaky(2, 3) && benchmark_flaky(2, 4) && benchmark_flaky(3, 3));
/// assert!(!benchmark_flaky(1, 1) && !benchmark_flaky(1, 2) && !benchmark_flaky(2, 5));
/// ```
pub fn benchmark_flaky(flaky: usize, judged: usize) -> bool {
    flaky >= MIN_MODELS && 2 * flaky >= judged
}

/// One model's judged tests of one category: each test's id and whether it is flaky there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged<'a> {
    /// The model.
    pub model: &'a str,
    /// The category.
    pub category: &'a str,
    /// Each judged test: its id, and whether it is flaky under this model.
    pub tests: Vec<(&'a str, bool)>,
}

/// The flaky tests of every category that two or more of the `judged` entries' models
/// judged, told apart (by category name; empty when no category was judged by two models),
/// and for each entry how many of its flaky tests are the benchmark's. `stability` calls it
/// and sets each category's and model's `benchmark_flaky` count from it.
///
/// ```
/// use evaltally_core::{CategoryRun, Outcome};
/// use evaltally_analyzer::stability;
///
/// // t0 flips under both models, t1 under model a only.
/// let mut runs = Vec::new();
/// for (model, t1) in [("a", [Outcome::Pass, Outcome::Fail]), ("b", [Outcome::Pass, Outcome::Pass])] {
///     for (i, t0) in [Outcome::Pass, Outcome::Fail].into_iter().enumerate() {
///         let mut r = CategoryRun::new(format!("run-{i}"), model, "c");
///         r.push("t0", t0, None);
///         r.push("t1", t1[i], None);
///         runs.push(r);
///     }
/// }
/// let report = stability::analyze(&runs);
/// let c = &report.across_models["c"];
/// assert_eq!(c.benchmark_flaky, ["t0"]);
/// assert_eq!(c.model_flaky["a"], ["t1"]);
/// assert_eq!(report.models[0].overall.benchmark_flaky, 1);
/// assert!(c.alone.is_empty()); // b ran t1 too, and it did not flip there
/// ```
pub fn classify(judged: &[Judged<'_>]) -> (BTreeMap<String, CategoryAcross>, Vec<usize>) {
    let mut by_category: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, j) in judged.iter().enumerate() {
        if !j.tests.is_empty() {
            by_category.entry(j.category).or_default().push(i);
        }
    }
    let mut counts = vec![0; judged.len()];
    let mut out = BTreeMap::new();
    for (category, entries) in by_category.into_iter().filter(|(_, e)| e.len() >= MIN_MODELS) {
        // Per test: how many models judged it, and the entries under which it is flaky.
        let mut tally: HashMap<&str, (usize, Vec<usize>)> = HashMap::new();
        for &e in &entries {
            for &(id, flaky) in &judged[e].tests {
                let t = tally.entry(id).or_default();
                t.0 += 1;
                if flaky {
                    t.1.push(e);
                }
            }
        }
        let mut across = CategoryAcross {
            models: entries.iter().map(|&e| judged[e].model.to_string()).collect(),
            ..CategoryAcross::default()
        };
        for (test, (models, flaky)) in &tally {
            if flaky.is_empty() {
                continue;
            }
            if benchmark_flaky(flaky.len(), *models) {
                across.benchmark_flaky.push((*test).to_string());
                for &e in flaky {
                    counts[e] += 1;
                }
            } else {
                for &e in flaky {
                    across.model_flaky.entry(judged[e].model.to_string()).or_default().push((*test).to_string());
                    if *models == 1 {
                        across.alone.entry(judged[e].model.to_string()).or_default().push((*test).to_string());
                    }
                }
            }
        }
        across.benchmark_flaky.sort_by(|a, b| id::natural_str_cmp(a, b));
        for ids in across.model_flaky.values_mut().chain(across.alone.values_mut()) {
            ids.sort_by(|a, b| id::natural_str_cmp(a, b));
        }
        out.insert(category.to_string(), across);
    }
    (out, counts)
}
