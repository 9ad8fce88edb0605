//! Lining up the tests of one (model, category) across runs.

use hashbrown::HashMap;

use evaltally_core::{CategoryRun, ErrorType, Outcome, id};
use rayon::prelude::*;

/// What one run says about one test, with "did not run" made explicit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// The test is absent from the run's result file.
    NotRun,
    /// Passed.
    Pass,
    /// Failed.
    Fail,
    /// Ran, but the run has no scores.
    Unscored,
    /// The harness or the inference failed: no judgement.
    Errored,
}

impl From<Outcome> for Cell {
    fn from(o: Outcome) -> Self {
        match o {
            Outcome::Pass => Cell::Pass,
            Outcome::Fail => Cell::Fail,
            Outcome::Unscored => Cell::Unscored,
            Outcome::Errored => Cell::Errored,
        }
    }
}

const ABSENT: u32 = u32::MAX;

/// The tests of one (model, category) × its runs.
///
/// Tests are in natural id order, runs in natural name order. The matrix borrows from the
/// [`CategoryRun`]s it was built from and copies no id.
#[derive(Debug)]
pub struct Matrix<'a> {
    /// The model.
    pub model: &'a str,
    /// The category.
    pub category: &'a str,
    /// The runs, in natural name order.
    pub runs: Vec<&'a CategoryRun>,
    /// Every test id seen in any run, in natural order.
    pub ids: Vec<&'a str>,
    cells: Vec<Cell>,
    positions: Vec<u32>,
}

impl<'a> Matrix<'a> {
    /// Lines up `runs`, which must all be of one (model, category).
    ///
    /// # Panics
    /// When `runs` is empty.
    pub fn new(mut runs: Vec<&'a CategoryRun>) -> Self {
        assert!(!runs.is_empty(), "a matrix needs at least one run");
        runs.sort_by(|a, b| id::natural_str_cmp(&a.run, &b.run));
        // Each run's tests as indexes into `ids`. Runs of one category mostly list their
        // tests in the same order: a run whose ids are those of the run before it, in the
        // same order, shares that run's indexes (one comparison of two buffers), and
        // otherwise a test at the position its id has in `ids` is taken from there without
        // hashing.
        let mut index: HashMap<&'a str, u32> = HashMap::with_capacity(runs[0].len());
        let mut ids: Vec<&'a str> = Vec::with_capacity(runs[0].len());
        let mut slots: Vec<Vec<u32>> = Vec::new();
        let mut slot_of: Vec<usize> = Vec::with_capacity(runs.len());
        for (r, run) in runs.iter().enumerate() {
            if r > 0 && run.ids() == runs[r - 1].ids() {
                slot_of.push(slots.len() - 1);
                continue;
            }
            let mut slot = Vec::with_capacity(run.len());
            for (pos, id) in run.ids().iter().enumerate() {
                let at = match ids.get(pos) {
                    Some(&known) if known == id => u32::try_from(pos).unwrap_or(ABSENT),
                    _ => *index.entry(id).or_insert_with(|| {
                        ids.push(id);
                        u32::try_from(ids.len() - 1).unwrap_or(ABSENT)
                    }),
                };
                slot.push(at);
            }
            slot_of.push(slots.len());
            slots.push(slot);
        }
        // Ids are mostly listed in their natural order already: checked in one pass, and
        // sorted (each id taken apart once) only when they are not.
        let keys: Vec<id::IdKey<'a>> = ids.iter().map(|id| id::IdKey::new(id)).collect();
        let mut order: Vec<u32> = (0..u32::try_from(ids.len()).unwrap_or(ABSENT)).collect();
        if !keys.is_sorted() {
            order.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
        }
        let mut rank = vec![0u32; ids.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i as usize] = u32::try_from(r).unwrap_or(ABSENT);
        }
        let width = runs.len();
        let mut cells = vec![Cell::NotRun; ids.len() * width];
        let mut positions = vec![ABSENT; ids.len() * width];
        for (col, (run, &slot)) in runs.iter().zip(&slot_of).enumerate() {
            for (pos, (&outcome, &at)) in run.outcomes().iter().zip(&slots[slot]).enumerate() {
                let row = rank[at as usize] as usize;
                cells[row * width + col] = outcome.into();
                positions[row * width + col] = u32::try_from(pos).unwrap_or(ABSENT);
            }
        }
        let sorted_ids = order.iter().map(|&i| ids[i as usize]).collect();
        Self { model: &runs[0].model, category: &runs[0].category, runs, ids: sorted_ids, cells, positions }
    }

    /// The cells of one test, one per run.
    pub fn row(&self, test: usize) -> &[Cell] {
        let w = self.runs.len();
        &self.cells[test * w..(test + 1) * w]
    }

    /// The cell of one test in one run.
    pub fn cell(&self, test: usize, run: usize) -> Cell {
        self.cells[test * self.runs.len() + run]
    }

    /// The error label of one test in one run, if it failed with one.
    pub fn error_type(&self, test: usize, run: usize) -> Option<&'a ErrorType> {
        let pos = self.positions[test * self.runs.len() + run];
        (pos != ABSENT).then(|| self.runs[run].error_type(pos as usize)).flatten()
    }
}

/// Groups category runs by (model, category) into matrices, sorted by model then
/// category. Matrices are built in parallel.
pub fn group(runs: &[CategoryRun]) -> Vec<Matrix<'_>> {
    let mut groups: std::collections::BTreeMap<(&str, &str), Vec<&CategoryRun>> = std::collections::BTreeMap::new();
    for run in runs {
        groups.entry((run.model.as_str(), run.category.as_str())).or_default().push(run);
    }
    let groups: Vec<Vec<&CategoryRun>> = groups.into_values().collect();
    groups.into_par_iter().map(Matrix::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, tests: &[(&str, Outcome, Option<&str>)]) -> CategoryRun {
        let mut r = CategoryRun::new(name, "m", "c");
        for (id, o, e) in tests {
            r.push(id, *o, *e);
        }
        r
    }

    #[test]
    fn lines_up_tests_across_runs() {
        let a = run("run-10", &[("c_10", Outcome::Pass, None), ("c_2", Outcome::Fail, Some("x:y"))]);
        let b = run("run-9", &[("c_2", Outcome::Pass, None), ("c_3", Outcome::Fail, None)]);
        let m = Matrix::new(vec![&a, &b]);
        assert_eq!(m.runs.iter().map(|r| r.run.as_str()).collect::<Vec<_>>(), ["run-9", "run-10"]);
        assert_eq!(m.ids, ["c_2", "c_3", "c_10"]);
        assert_eq!(m.row(0), [Cell::Pass, Cell::Fail]);
        assert_eq!(m.row(1), [Cell::Fail, Cell::NotRun]);
        assert_eq!(m.row(2), [Cell::NotRun, Cell::Pass]);
        assert_eq!(m.error_type(0, 1).map(ErrorType::as_str), Some("x:y"));
        assert_eq!(m.error_type(1, 1), None);
    }

    /// Runs listing the same ids as the run before them share its indexes; a run that lists
    /// other ids, or the same ones in another order, gets its own.
    #[test]
    fn runs_with_the_same_ids_line_up_like_the_others() {
        let a = run("r1", &[("t_1", Outcome::Pass, None), ("t_2", Outcome::Fail, None)]);
        let b = run("r2", &[("t_1", Outcome::Fail, None), ("t_2", Outcome::Pass, None)]);
        let c = run("r3", &[("t_2", Outcome::Pass, None), ("t_1", Outcome::Pass, Some("x"))]);
        let d = run("r4", &[("t_2", Outcome::Fail, Some("y")), ("t_1", Outcome::Pass, None)]);
        let e = run("r5", &[("t_3", Outcome::Pass, None)]);
        let m = Matrix::new(vec![&a, &b, &c, &d, &e]);
        assert_eq!(m.ids, ["t_1", "t_2", "t_3"]);
        let p = Cell::Pass;
        let f = Cell::Fail;
        let n = Cell::NotRun;
        assert_eq!(m.row(0), [p, f, p, p, n]);
        assert_eq!(m.row(1), [f, p, p, f, n]);
        assert_eq!(m.row(2), [n, n, n, n, p]);
        assert_eq!(m.error_type(0, 2).map(ErrorType::as_str), Some("x"));
        assert_eq!(m.error_type(1, 3).map(ErrorType::as_str), Some("y"));
        assert_eq!(m.error_type(0, 3), None);
    }
}
