use std::path::PathBuf;

use crate::{ErrorType, Outcome};

/// A compact list of test ids: one string buffer and the end offset of each id.
///
/// Reading a result file pushes thousands of short ids; keeping them in one buffer costs
/// two growing allocations per file instead of one per id, and the buffer can be reused.
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdList {
    buf: String,
    ends: Vec<usize>,
}

impl IdList {
    /// Makes room for `ids` more ids of `bytes` bytes in all, so that pushing them does not
    /// grow the buffers again.
    pub fn reserve(&mut self, ids: usize, bytes: usize) {
        self.buf.reserve(bytes);
        self.ends.reserve(ids);
    }

    /// Appends an id.
    pub fn push(&mut self, id: &str) {
        self.buf.push_str(id);
        self.ends.push(self.buf.len());
    }

    /// The id at `index`.
    ///
    /// # Panics
    /// When `index >= self.len()`.
    pub fn get(&self, index: usize) -> &str {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        &self.buf[start..self.ends[index]]
    }

    /// Number of ids.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The ids in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Removes every id, keeping the allocations.
    pub fn clear(&mut self) {
        self.buf.clear();
        self.ends.clear();
    }

    /// The list as its one string buffer and the end offset of each id, for storing it
    /// (the digest cache) and restoring it with [`IdList::from_parts`].
    pub fn as_parts(&self) -> (&str, &[usize]) {
        (&self.buf, &self.ends)
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
        (start == buf.len()).then_some(Self { buf, ends })
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
