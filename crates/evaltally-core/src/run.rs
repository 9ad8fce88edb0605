use std::path::PathBuf;
use std::sync::Arc;

use crate::{ErrorType, Outcome};

/// A compact list of test ids: one string buffer and the end offset of each id.
///
/// Reading a result file pushes thousands of short ids; keeping them in one buffer costs
/// two growing allocations per file instead of one per id, and the buffer can be reused.
/// The runs of one category mostly list the same ids: [`IdList::share`] lets such lists
/// share one buffer (a clone is then a reference count), and comparing two lists that
/// share one is a pointer comparison.
///
/// ```
/// use evaltally_core::IdList;
/// let mut ids = IdList::default();
/// ids.push("simple_python_0");
/// ids.push("simple_python_1");
/// assert_eq!(ids.len(), 2);
/// assert_eq!(ids.get(1), "simple_python_1");
/// assert_eq!(ids.iter().collect::<Vec<_>>(), ["simple_python_0", "simple_python_1"]);
/// ```
#[derive(Clone, Default)]
pub struct IdList {
    buf: String,
    ends: Vec<usize>,
    /// The buffers this list shares ([`IdList::share`]); `buf` and `ends` are then empty.
    shared: Option<Arc<(String, Vec<usize>)>>,
}

impl IdList {
    /// Makes room for `ids` more ids of `bytes` bytes in all, so that pushing them does not
    /// grow the buffers again.
    pub fn reserve(&mut self, ids: usize, bytes: usize) {
        self.own();
        self.buf.reserve(bytes);
        self.ends.reserve(ids);
    }

    /// Appends an id.
    pub fn push(&mut self, id: &str) {
        self.own();
        self.buf.push_str(id);
        self.ends.push(self.buf.len());
    }

    /// A shared list's buffers copied into this one, before it changes.
    #[inline]
    fn own(&mut self) {
        if let Some(shared) = self.shared.take() {
            (self.buf, self.ends) = Arc::unwrap_or_clone(shared);
        }
    }

    fn parts(&self) -> (&str, &[usize]) {
        match &self.shared {
            Some(shared) => (&shared.0, &shared.1),
            None => (&self.buf, &self.ends),
        }
    }

    /// The id at `index`.
    ///
    /// # Panics
    /// When `index >= self.len()`.
    pub fn get(&self, index: usize) -> &str {
        let (buf, ends) = self.parts();
        let start = if index == 0 { 0 } else { ends[index - 1] };
        &buf[start..ends[index]]
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.parts().1.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The ids in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Removes every id, keeping the allocations (of a list that shares none).
    pub fn clear(&mut self) {
        self.shared = None;
        self.buf.clear();
        self.ends.clear();
    }

    /// The list as its one string buffer and the end offset of each id, for storing it
    /// (the digest cache) and restoring it with [`IdList::from_parts`].
    pub fn as_parts(&self) -> (&str, &[usize]) {
        self.parts()
    }

    /// A list from a buffer and end offsets as [`IdList::as_parts`] gives them; `None`
    /// unless the offsets rise, end at the buffer's end and fall on character boundaries.
    ///
    /// ```
    /// use evaltally_core::IdList;
    /// let ids = IdList::from_parts("ab".into(), vec![1, 2]).unwrap();
    /// assert_eq!(ids.iter().collect::<Vec<_>>(), ["a", "b"]);
    /// assert!(IdList::from_parts("ab".into(), vec![2, 1]).is_none());
    /// assert!(IdList::from_parts("ab".into(), vec![1]).is_none());
    /// ```
    pub fn from_parts(buf: String, ends: Vec<usize>) -> Option<Self> {
        let mut start = 0;
        for &end in &ends {
            if end < start || !buf.is_char_boundary(end) {
                return None;
            }
            start = end;
        }
        (start == buf.len()).then_some(Self { buf, ends, shared: None })
    }

    /// This list, its buffers moved where other lists can share them: the list returned
    /// shares them too, and so do its clones, for the memory of one list. A list that
    /// shares buffers copies them before it changes ([`push`](Self::push),
    /// [`reserve`](Self::reserve)).
    ///
    /// ```
    /// use evaltally_core::IdList;
    /// let mut ids = IdList::from_parts("ab".into(), vec![1, 2]).unwrap();
    /// let same = ids.share();
    /// assert!(same.shares_with(&ids) && same == ids);
    /// let mut other = same.clone();
    /// other.push("c");
    /// assert!(!other.shares_with(&ids));
    /// assert_eq!(ids.iter().collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(other.iter().collect::<Vec<_>>(), ["a", "b", "c"]);
    /// ```
    #[must_use = "the list returned is what other lists share"]
    pub fn share(&mut self) -> IdList {
        if self.shared.is_none() {
            self.shared = Some(Arc::new((std::mem::take(&mut self.buf), std::mem::take(&mut self.ends))));
        }
        Self { buf: String::new(), ends: Vec::new(), shared: self.shared.clone() }
    }

    /// Whether the two lists share their buffers ([`share`](Self::share)), and so are
    /// equal without comparing them.
    pub fn shares_with(&self, other: &IdList) -> bool {
        matches!((&self.shared, &other.shared), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
    }
}

impl PartialEq for IdList {
    fn eq(&self, other: &Self) -> bool {
        self.shares_with(other) || self.parts() == other.parts()
    }
}

impl Eq for IdList {}

impl std::fmt::Debug for IdList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (buf, ends) = self.parts();
        f.debug_struct("IdList").field("buf", &buf).field("ends", &ends).finish()
    }
}

/// The id lists of the runs seen last, one per (model, category), for the runs read after
/// them to share ([`IdPool::share`]): the runs of a category mostly list the same tests, so
/// 200 runs keep one copy of each category's ids instead of 200. A reader keeps one per
/// thread. It holds one list per (model, category) it has seen, each shared with the runs
/// that hold it: no more memory than one run of each.
///
/// ```
/// use evaltally_core::{CategoryRun, IdPool, Outcome};
/// let mut pool = IdPool::default();
/// let runs: Vec<CategoryRun> = (0..3)
///     .map(|r| {
///         let mut run = CategoryRun::new(format!("run-{r}"), "m", "c");
///         run.push("t1", Outcome::Pass, None);
///         pool.share(&mut run);
///         run
///     })
///     .collect();
/// assert!(runs[2].ids().shares_with(runs[0].ids()));
/// assert_eq!(pool.find("m", "c"), Some(runs[0].ids()));
/// ```
#[derive(Debug, Default)]
pub struct IdPool {
    /// Model → category → list. Looked up for every run read or restored: hashbrown's
    /// default hasher (foldhash), not `std`'s `SipHash`, which was 5% of a warm run.
    lists: hashbrown::HashMap<String, hashbrown::HashMap<String, IdList>>,
}

impl IdPool {
    /// The list last seen for (`model`, `category`).
    pub fn find(&self, model: &str, category: &str) -> Option<&IdList> {
        self.lists.get(model)?.get(category)
    }

    /// Makes `run` share the ids of the last run seen of its (model, category) when it
    /// lists the same ones; otherwise its ids become those the next runs are compared with.
    pub fn share(&mut self, run: &mut CategoryRun) {
        if let Some(ids) = self.lists.get_mut(&run.model).and_then(|c| c.get_mut(&run.category)) {
            if !run.reuse_ids(ids) {
                *ids = run.share_ids();
            }
        } else {
            let ids = run.share_ids();
            self.set(&run.model, &run.category, ids);
        }
    }

    /// Keeps `ids` (from [`IdList::share`]) as the list last seen for (`model`,
    /// `category`).
    pub fn set(&mut self, model: &str, category: &str, ids: IdList) {
        let categories = match self.lists.get_mut(model) {
            Some(categories) => categories,
            None => self.lists.entry(model.to_string()).or_default(),
        };
        match categories.get_mut(category) {
            Some(slot) => *slot = ids,
            None => {
                categories.insert(category.to_string(), ids);
            }
        }
    }
}

/// One test as a [`CategoryRun`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestRef<'a> {
    /// The test id.
    pub id: &'a str,
    /// Pass, fail or unscored.
    pub outcome: Outcome,
    /// The evaluator's error label, for failures that carry one.
    pub error_type: Option<&'a ErrorType>,
}

/// What one run says about the tests of one (model, category): the unit every adapter
/// produces and every analysis consumes.
///
/// Tests are kept in the order the run listed them; each id appears once (adapters
/// report duplicates as diagnostics and keep the first).
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryRun {
    /// The run's name (a folder name, a run id, a file stem).
    pub run: String,
    /// The model the run evaluated.
    pub model: String,
    /// The test category (BFCL category, SWE-bench repository, gstack suite).
    pub category: String,
    /// The files this was read from, for messages and for `show`.
    pub sources: Vec<PathBuf>,
    /// Whether the run judged its tests. A BFCL result file without its score file is
    /// unscored: its tests ran, but count as neither pass nor fail.
    pub scored: bool,
    /// What the run says about itself (when, branch, version), shared by its category runs;
    /// `None` when its format records nothing.
    pub meta: Option<std::sync::Arc<crate::RunMeta>>,
    ids: IdList,
    outcomes: Vec<Outcome>,
    error_index: Vec<Option<u16>>,
    error_types: Vec<ErrorType>,
}

impl CategoryRun {
    /// An empty category run.
    pub fn new(run: impl Into<String>, model: impl Into<String>, category: impl Into<String>) -> Self {
        Self {
            run: run.into(),
            model: model.into(),
            category: category.into(),
            sources: Vec::new(),
            scored: true,
            meta: None,
            ids: IdList::default(),
            outcomes: Vec::new(),
            error_index: Vec::new(),
            error_types: Vec::new(),
        }
    }

    /// Makes room for `tests` more tests whose ids take `id_bytes` bytes in all (a reader
    /// that knows how many tests it will [`push`](Self::push) saves the growing).
    pub fn reserve(&mut self, tests: usize, id_bytes: usize) {
        self.ids.reserve(tests, id_bytes);
        self.outcomes.reserve(tests);
        self.error_index.reserve(tests);
    }

    /// Appends a test. The caller keeps ids unique.
    pub fn push(&mut self, id: &str, outcome: Outcome, error_type: Option<&str>) {
        self.ids.push(id);
        self.outcomes.push(outcome);
        let index = error_type.map(|label| self.intern_error(label));
        self.error_index.push(index);
    }

    fn intern_error(&mut self, label: &str) -> u16 {
        if let Some(pos) = self.error_types.iter().position(|e| e.as_str() == label) {
            return u16::try_from(pos).unwrap_or(u16::MAX);
        }
        if self.error_types.len() >= usize::from(u16::MAX) {
            // Tens of thousands of distinct labels in one file is not a real evaluator;
            // keep the last slot as a catch-all rather than growing without bound.
            return u16::MAX - 1;
        }
        self.error_types.push(ErrorType::new(label));
        u16::try_from(self.error_types.len() - 1).unwrap_or(u16::MAX)
    }

    /// Number of tests listed.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no test is listed.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The ids, in the order the run listed them.
    pub fn ids(&self) -> &IdList {
        &self.ids
    }

    /// Its ids, made shareable ([`IdList::share`]): a list that other runs of its
    /// category can [`reuse_ids`](Self::reuse_ids).
    pub fn share_ids(&mut self) -> IdList {
        self.ids.share()
    }

    /// Takes `ids` (from [`share_ids`](Self::share_ids)) in place of its own when they are
    /// the same ids in the same order, so that the two share one buffer; `false` (nothing
    /// changed) when they differ.
    ///
    /// ```
    /// use evaltally_core::{CategoryRun, Outcome};
    /// let mut a = CategoryRun::new("run-1", "m", "c");
    /// let mut b = CategoryRun::new("run-2", "m", "c");
    /// for run in [&mut a, &mut b] {
    ///     run.push("t1", Outcome::Pass, None);
    /// }
    /// let shared = a.share_ids();
    /// assert!(b.reuse_ids(&shared) && b.ids().shares_with(a.ids()));
    /// b.push("t2", Outcome::Fail, None);
    /// assert!(!b.reuse_ids(&shared) && b.len() == 2 && a.len() == 1);
    /// ```
    pub fn reuse_ids(&mut self, ids: &IdList) -> bool {
        if self.ids.shares_with(ids) {
            // Restored from the cache already sharing them: nothing to swap.
            return true;
        }
        let same = self.ids == *ids;
        if same {
            self.ids = ids.clone();
        }
        same
    }

    /// The outcome of the test at `index`.
    pub fn outcome(&self, index: usize) -> Outcome {
        self.outcomes[index]
    }

    /// The error label of the test at `index`, if it has one.
    pub fn error_type(&self, index: usize) -> Option<&ErrorType> {
        self.error_index[index].and_then(|i| self.error_types.get(usize::from(i)))
    }

    /// The tests in order.
    pub fn tests(&self) -> impl ExactSizeIterator<Item = TestRef<'_>> + '_ {
        (0..self.len()).map(|i| TestRef {
            id: self.ids.get(i),
            outcome: self.outcomes[i],
            error_type: self.error_type(i),
        })
    }

    /// Number of tests that passed.
    pub fn passed(&self) -> usize {
        self.outcomes.iter().filter(|o| **o == Outcome::Pass).count()
    }

    /// Number of tests that failed.
    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| **o == Outcome::Fail).count()
    }

    /// Number of tests that errored ([`Outcome::Errored`]).
    pub fn errored(&self) -> usize {
        self.outcomes.iter().filter(|o| **o == Outcome::Errored).count()
    }

    /// The outcomes, one per test in order.
    pub fn outcomes(&self) -> &[Outcome] {
        &self.outcomes
    }

    /// The distinct error labels, and per test the index of its label among them: the
    /// compact form [`CategoryRun::with_tests`] restores.
    pub fn error_parts(&self) -> (&[ErrorType], &[Option<u16>]) {
        (&self.error_types, &self.error_index)
    }

    /// Replaces the tests with stored columns (as [`CategoryRun::ids`],
    /// [`CategoryRun::outcomes`] and [`CategoryRun::error_parts`] give them), or `None`
    /// when they do not fit together: lengths that differ, an index past the labels.
    ///
    /// ```
    /// use evaltally_core::{CategoryRun, ErrorType, IdList, Outcome};
    /// let mut run = CategoryRun::new("run-1", "m", "c");
    /// run.push("a", Outcome::Pass, None);
    /// run.push("b", Outcome::Fail, Some("wrong"));
    /// let (labels, index) = run.error_parts();
    /// let copy = CategoryRun::new("run-1", "m", "c")
    ///     .with_tests(run.ids().clone(), run.outcomes().to_vec(), index.to_vec(), labels.to_vec())
    ///     .unwrap();
    /// assert_eq!(copy, run);
    /// assert!(CategoryRun::new("r", "m", "c").with_tests(IdList::default(), vec![Outcome::Pass], vec![None], vec![]).is_none());
    /// ```
    pub fn with_tests(
        mut self,
        ids: IdList,
        outcomes: Vec<Outcome>,
        error_index: Vec<Option<u16>>,
        error_types: Vec<ErrorType>,
    ) -> Option<Self> {
        let fits = outcomes.len() == ids.len()
            && error_index.len() == ids.len()
            && error_index.iter().flatten().all(|&i| usize::from(i) < error_types.len());
        if !fits {
            return None;
        }
        (self.ids, self.outcomes, self.error_index, self.error_types) = (ids, outcomes, error_index, error_types);
        Some(self)
    }

    /// Counts every errored test as failed ([`Outcome::errors_as_failures`]), error types
    /// kept: a benchmark's official counting.
    pub fn errors_as_failures(&mut self) {
        for o in &mut self.outcomes {
            *o = o.errors_as_failures();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CategoryRun, IdPool};
    use crate::Outcome;

    fn run(name: &str, model: &str, category: &str, ids: &[&str]) -> CategoryRun {
        let mut run = CategoryRun::new(name, model, category);
        for id in ids {
            run.push(id, Outcome::Pass, None);
        }
        run
    }

    /// However many categories and models a reader meets, each run shares the ids of the
    /// last run of its own (model, category) when they are the same, and only those.
    #[test]
    fn runs_share_ids_within_their_model_and_category_however_many_there_are() {
        let mut pool = IdPool::default();
        let keys: Vec<(String, String)> =
            (0..3).flat_map(|m| (0..100).map(move |c| (format!("m{m}"), format!("c{c}")))).collect();
        let mut first: Vec<CategoryRun> = keys.iter().map(|(m, c)| run("r1", m, c, &["a", "b"])).collect();
        for r in &mut first {
            pool.share(r);
        }
        for (r, (m, c)) in first.iter().zip(&keys) {
            let mut second = run("r2", m, c, &["a", "b"]);
            pool.share(&mut second);
            assert!(second.ids().shares_with(r.ids()), "{m}/{c}");
            let mut other = run("r3", m, c, &["b", "a"]);
            pool.share(&mut other);
            assert!(!other.ids().shares_with(r.ids()), "another order: {m}/{c}");
            assert!(pool.find(m, c).unwrap().shares_with(other.ids()), "the last run is the one compared");
        }
        assert!(!first[0].ids().shares_with(first[1].ids()), "equal ids of two categories stay apart");
    }

    /// A run that shares its ids and then changes them copies them first: the others keep
    /// theirs.
    #[test]
    fn a_shared_list_is_copied_before_it_changes() {
        let mut pool = IdPool::default();
        let mut a = run("r1", "m", "c", &["x"]);
        let mut b = run("r2", "m", "c", &["x"]);
        pool.share(&mut a);
        pool.share(&mut b);
        assert!(b.ids().shares_with(a.ids()));
        b.push("y", Outcome::Fail, Some("wrong"));
        assert_eq!(a.ids().iter().collect::<Vec<_>>(), ["x"]);
        assert_eq!(b.ids().iter().collect::<Vec<_>>(), ["x", "y"]);
        assert_eq!(pool.find("m", "c").unwrap().iter().collect::<Vec<_>>(), ["x"]);
        let mut cleared = a.ids().clone();
        cleared.clear();
        assert!(cleared.is_empty() && a.len() == 1);
    }
}
