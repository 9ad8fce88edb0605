//! Reference runs: runs of a reference solution (SWE-bench's gold patches, a known-good
//! model). A test the reference fails or flips on is the benchmark's problem: it is said,
//! and left out of the models' verdicts.

use std::collections::{BTreeMap, BTreeSet};

use evaltally_core::{CategoryRun, Outcome, id};
use serde::Serialize;

/// What the reference runs say of the benchmark.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Reference {
    /// The reference runs, in natural order.
    pub runs: Vec<String>,
    /// Per category, the tests that failed in at least one reference run that judged them
    /// (natural order): the benchmark's, left out of the models' verdicts.
    pub broken: BTreeMap<String, Vec<String>>,
    /// How many (category, test) of the models' runs were left out.
    pub left_out: usize,
    /// Those (category, test), over every call of [`leave_out`](Self::leave_out).
    #[serde(skip)]
    taken: BTreeSet<(String, String)>,
}

impl Reference {
    /// The reference that `runs` (of any model) make: every test that failed in one of them.
    ///
    /// ```
    /// use evaltally_core::{CategoryRun, Outcome};
    /// use evaltally_analyzer::reference::Reference;
    /// let mut gold = CategoryRun::new("gold", "gold-patch", "django");
    /// gold.push("django-1", Outcome::Pass, None);
    /// gold.push("django-2", Outcome::Fail, None);
    /// let reference = Reference::of(&[gold]);
    /// assert_eq!(reference.broken["django"], ["django-2"]);
    /// ```
    pub fn of(runs: &[CategoryRun]) -> Self {
        let mut names = BTreeSet::new();
        let mut broken: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for r in runs.iter().filter(|r| r.scored) {
            names.insert(r.run.clone());
            for t in r.tests().filter(|t| t.outcome == Outcome::Fail) {
                broken.entry(r.category.clone()).or_default().insert(t.id.to_string());
            }
        }
        let sorted = |set: BTreeSet<String>| {
            let mut v: Vec<String> = set.into_iter().collect();
            v.sort_by(|a, b| id::natural_str_cmp(a, b));
            v
        };
        Self {
            runs: sorted(names),
            broken: broken.into_iter().map(|(c, ids)| (c, sorted(ids))).collect(),
            left_out: 0,
            taken: BTreeSet::new(),
        }
    }

    /// `runs` without the tests the reference fails or flips on; counts in
    /// [`left_out`](Self::left_out) the distinct (category, test) it took out, over every
    /// call (both sides of a comparison, say).
    ///
    /// ```
    /// use evaltally_core::{CategoryRun, Outcome};
    /// use evaltally_analyzer::reference::Reference;
    /// let mut gold = CategoryRun::new("gold", "gold-patch", "django");
    /// gold.push("django-2", Outcome::Fail, None);
    /// let mut reference = Reference::of(&[gold]);
    /// let mut run = CategoryRun::new("r1", "model-a", "django");
    /// run.push("django-1", Outcome::Pass, None);
    /// run.push("django-2", Outcome::Fail, None);
    /// let kept = reference.leave_out(&[run]);
    /// assert_eq!(kept[0].tests().map(|t| t.id).collect::<Vec<_>>(), ["django-1"]);
    /// assert_eq!(reference.left_out, 1);
    /// ```
    pub fn leave_out(&mut self, runs: &[CategoryRun]) -> Vec<CategoryRun> {
        let broken: BTreeMap<&str, BTreeSet<&str>> =
            self.broken.iter().map(|(c, ids)| (c.as_str(), ids.iter().map(String::as_str).collect())).collect();
        let mut taken = std::mem::take(&mut self.taken);
        let out = runs
            .iter()
            .map(|r| {
                let Some(ids) = broken.get(r.category.as_str()) else { return r.clone() };
                if !r.tests().any(|t| ids.contains(t.id)) {
                    return r.clone();
                }
                let mut kept = CategoryRun::new(r.run.clone(), r.model.clone(), r.category.clone());
                kept.sources.clone_from(&r.sources);
                kept.scored = r.scored;
                kept.meta.clone_from(&r.meta);
                for t in r.tests() {
                    if ids.contains(t.id) {
                        taken.insert((r.category.clone(), t.id.to_string()));
                    } else {
                        kept.push(t.id, t.outcome, t.error_type.map(evaltally_core::ErrorType::as_str));
                    }
                }
                kept
            })
            .collect();
        self.left_out = taken.len();
        self.taken = taken;
        out
    }
}
