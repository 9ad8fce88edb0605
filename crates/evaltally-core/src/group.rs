//! One run's tests, found in document order, made into its category runs.

use std::path::Path;
use std::sync::Arc;

use hashbrown::HashMap;

use crate::id::natural_str_cmp;
use crate::{CategoryRun, Outcome, RunMeta};

/// A test as a reader found it: its category, id, outcome and error label.
pub type FoundTest<'t> = (&'t str, &'t str, Outcome, Option<&'t str>);

impl CategoryRun {
    /// The category runs of one run (read from `source`, when given): one per category, in
    /// natural order of category names, with the tests of each in the order given. Each run
    /// is sized (tests and id bytes) before it is filled, and a reader's tests of one
    /// category, which mostly come together, find their run without a lookup. The caller
    /// keeps ids unique within a category.
    ///
    /// ```
    /// use std::path::Path;
    /// use evaltally_core::{CategoryRun, Outcome};
    /// let tests = [
    ///     ("suite-10", "a", Outcome::Pass, None),
    ///     ("suite-2", "b", Outcome::Fail, Some("timeout")),
    ///     ("suite-10", "c", Outcome::Pass, None),
    /// ];
    /// let runs = CategoryRun::from_tests(&tests, "night-1", "m", Some(Path::new("r.json")), None);
    /// let names: Vec<&str> = runs.iter().map(|c| c.category.as_str()).collect();
    /// assert_eq!(names, ["suite-2", "suite-10"]);
    /// assert_eq!((runs[1].len(), runs[1].ids().get(1)), (2, "c"));
    /// assert_eq!(runs[0].error_type(0).map(|e| e.as_str()), Some("timeout"));
    /// ```
    pub fn from_tests(
        tests: &[FoundTest<'_>],
        run: &str,
        model: &str,
        source: Option<&Path>,
        meta: Option<&Arc<RunMeta>>,
    ) -> Vec<CategoryRun> {
        let mut out: Vec<CategoryRun> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut sizes: Vec<(usize, usize)> = Vec::new();
        let mut last: Option<(&str, usize)> = None;
        let seats: Vec<usize> = tests
            .iter()
            .map(|&(category, id, _, _)| {
                let at = match last {
                    Some((name, at)) if name == category => at,
                    _ => *index.entry(category).or_insert_with(|| {
                        let mut c = CategoryRun::new(run, model, category);
                        c.sources.extend(source.map(Path::to_path_buf));
                        c.meta = meta.cloned();
                        out.push(c);
                        sizes.push((0, 0));
                        out.len() - 1
                    }),
                };
                last = Some((category, at));
                sizes[at].0 += 1;
                sizes[at].1 += id.len();
                at
            })
            .collect();
        for (c, &(tests, bytes)) in out.iter_mut().zip(&sizes) {
            c.reserve(tests, bytes);
        }
        for (&(_, id, outcome, label), at) in tests.iter().zip(seats) {
            out[at].push(id, outcome, label);
        }
        out.sort_by(|a, b| natural_str_cmp(&a.category, &b.category));
        out
    }
}
