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

use crate::stability::{Class, ModelStability};

/// The fewest models that must find a test flaky for it to be the benchmark's.
pub const MIN_MODELS: usize = 2;

/// One category's flaky tests, told apart.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CategoryAcross {
    /// The models that judged tests of the category, by name.
    pub models: Vec<String>,
    /// Flaky under at least two models and under at least half of those that judged it:
    /// the benchmark's (natural order).
    pub benchmark_flaky: Vec<String>,
    /// Per model, its flaky tests that are not the benchmark's (natural order); models
    /// without any are left out.
    pub model_flaky: BTreeMap<String, Vec<String>>,
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

/// The flaky tests of every category that two or more of `models` judged, told apart (by
/// category name; empty when no category was judged by two models), and each category's
/// and model's count of benchmark-flaky tests set (`benchmark_flaky` of
/// [`crate::stability::CategoryStability`] and of the model's overall counts).
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
/// ```
pub fn classify(models: &mut [ModelStability]) -> BTreeMap<String, CategoryAcross> {
    // Per category, the (model, category) entries that judged it.
    let mut by_category: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (m, model) in models.iter().enumerate() {
        for (c, cat) in model.categories.iter().enumerate() {
            if cat.judged().next().is_some() {
                by_category.entry(cat.category.clone()).or_default().push((m, c));
            }
        }
    }
    let mut out = BTreeMap::new();
    for (category, entries) in by_category.into_iter().filter(|(_, e)| e.len() >= MIN_MODELS) {
        // Per test: the models that judged it, and those under which it is flaky.
        let mut tally: HashMap<&str, (usize, Vec<usize>)> = HashMap::new();
        for &(m, c) in &entries {
            for t in models[m].categories[c].judged() {
                let e = tally.entry(t.id.as_str()).or_default();
                e.0 += 1;
                if t.class == Class::Flaky {
                    e.1.push(m);
                }
            }
        }
        let mut across = CategoryAcross {
            models: entries.iter().map(|&(m, _)| models[m].model.clone()).collect(),
            ..CategoryAcross::default()
        };
        let mut per_model: Vec<usize> = vec![0; models.len()];
        for (test, (judged, flaky)) in &tally {
            if flaky.is_empty() {
                continue;
            }
            if benchmark_flaky(flaky.len(), *judged) {
                across.benchmark_flaky.push((*test).to_string());
                for &m in flaky {
                    per_model[m] += 1;
                }
            } else {
                for &m in flaky {
                    across.model_flaky.entry(models[m].model.clone()).or_default().push((*test).to_string());
                }
            }
        }
        drop(tally);
        across.benchmark_flaky.sort_by(|a, b| id::natural_str_cmp(a, b));
        for ids in across.model_flaky.values_mut() {
            ids.sort_by(|a, b| id::natural_str_cmp(a, b));
        }
        for &(m, c) in &entries {
            models[m].categories[c].benchmark_flaky = per_model[m];
            models[m].overall.benchmark_flaky += per_model[m];
        }
        out.insert(category, across);
    }
    out
}
