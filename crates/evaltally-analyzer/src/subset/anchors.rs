//! Choosing the anchor tests: how many per category, and which.

use evaltally_core::text::printable;

use super::fit::{Fitted, sigmoid};
use super::{Anchor, Data, SubsetError};

/// How many anchors each category gets of `size`: at least `min(4, size / categories)` each
/// (a category never more than it holds), then one at a time to the category with room
/// whose share is smallest (D'Hondt with equal weights: the overall score is the mean of
/// the categories, so each weighs the same). Ties go to the category listed first.
///
/// ```
/// use evaltally_analyzer::subset::allocate;
/// assert_eq!(allocate(&[50, 50, 40, 100], 20), [5, 5, 5, 5]);
/// assert_eq!(allocate(&[3, 100, 100], 20), [3, 9, 8]);
/// assert_eq!(allocate(&[10, 10], 100), [10, 10]);
/// ```
pub fn allocate(sizes: &[usize], size: usize) -> Vec<usize> {
    let c = sizes.len();
    if c == 0 {
        return Vec::new();
    }
    let floor = (size / c).min(4);
    let mut out: Vec<usize> = sizes.iter().map(|&t| t.min(floor)).collect();
    let mut left = size.saturating_sub(out.iter().sum());
    while left > 0 {
        let pick = (0..c).filter(|&i| out[i] < sizes[i]).min_by(|&x, &y| out[x].cmp(&out[y]).then(x.cmp(&y)));
        let Some(i) = pick else { break };
        out[i] += 1;
        left -= 1;
    }
    out
}

/// How many anchors a subset has: `total`, spread evenly over the categories
/// ([`allocate`]), except the categories [`Size::fixed`] names, which get the count given
/// out of the total (a category the subset should cover better, or one to leave to the
/// others).
///
/// ```
/// use evaltally_analyzer::subset::Size;
/// assert_eq!(Size::from(20).counts(&["a", "b", "c"], &[50, 50, 50]), Ok(vec![7, 7, 6]));
/// let size = Size::from(20).with("b", 10);
/// assert_eq!(size.counts(&["a", "b", "c"], &[50, 50, 50]), Ok(vec![5, 10, 5]));
/// assert!(Size::from(20).with("b", 30).counts(&["a", "b", "c"], &[50, 50, 50]).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Anchors in all.
    pub total: usize,
    /// Categories whose count is fixed, with the count (a category named twice: the last).
    pub fixed: Vec<(String, usize)>,
}

impl From<usize> for Size {
    fn from(total: usize) -> Self {
        Self { total, fixed: Vec::new() }
    }
}

impl Size {
    /// `self`, with `category`'s count fixed at `anchors`.
    #[must_use]
    pub fn with(mut self, category: impl Into<String>, anchors: usize) -> Self {
        self.fixed.push((category.into(), anchors));
        self
    }

    /// Each category's count, in the order of `categories`, which hold `tests` tests each:
    /// the fixed counts, and the rest of the total spread over the other categories
    /// ([`allocate`]).
    ///
    /// # Errors
    ///
    /// [`SubsetError::Size`] for a total of 0 or more than the tests,
    /// [`SubsetError::Category`] for a fixed category that is not among `categories` or has
    /// fewer tests than its count, [`SubsetError::Fixed`] when the fixed counts add up to
    /// more than the total.
    pub fn counts(&self, categories: &[impl AsRef<str>], tests: &[usize]) -> Result<Vec<usize>, SubsetError> {
        let all = tests.iter().sum();
        if self.total == 0 || self.total > all {
            return Err(SubsetError::Size { size: self.total, tests: all });
        }
        let mut fixed: Vec<Option<usize>> = vec![None; categories.len()];
        for (name, n) in &self.fixed {
            let Some(c) = categories.iter().position(|c| c.as_ref() == name) else {
                let known: Vec<_> = categories.iter().map(|c| printable(c.as_ref())).collect();
                return Err(SubsetError::Category(format!(
                    "no category `{}` in the runs (they have {})",
                    printable(name),
                    known.join(", ")
                )));
            };
            if *n > tests[c] {
                return Err(SubsetError::Category(format!(
                    "category `{}` has {} tests, fewer than the {n} anchors asked",
                    printable(name),
                    tests[c]
                )));
            }
            fixed[c] = Some(*n);
        }
        let taken: usize = fixed.iter().flatten().sum();
        if taken > self.total {
            return Err(SubsetError::Fixed { fixed: taken, total: self.total });
        }
        let others: Vec<usize> = (0..categories.len()).filter(|&c| fixed[c].is_none()).collect();
        let spread = allocate(&others.iter().map(|&c| tests[c]).collect::<Vec<_>>(), self.total - taken);
        for (c, n) in others.into_iter().zip(spread) {
            fixed[c] = Some(n);
        }
        Ok(fixed.into_iter().map(Option::unwrap_or_default).collect())
    }
}

/// The anchors of one category: `k` tests chosen by k-means on the tests' fitted item
/// characteristic curves (each test's pass probability for every fitted model), the test
/// nearest each centre, weighted by its cluster's size. Deterministic: the centres start at
/// evenly spaced ranks of the tests sorted by pass rate, and ties go to the lower index.
pub(crate) fn choose(data: &Data, fitted: &Fitted, category: usize, k: usize) -> Vec<Anchor> {
    let d = data.categories.len();
    let members: Vec<usize> = (0..data.tests.len()).filter(|&j| data.tests[j].category == category).collect();
    if k == 0 || members.is_empty() {
        return Vec::new();
    }
    let k = k.min(members.len());
    let m_count = data.models.len();
    // Features: the curve sampled at every model's ability.
    let features: Vec<Vec<f64>> = members
        .iter()
        .map(|&j| (0..m_count).map(|m| sigmoid(fitted.a[j] * (fitted.theta[m * d + category] - fitted.b[j]))).collect())
        .collect();
    let rate = |i: usize| -> f64 {
        let j = members[i];
        let (k, n) = (0..m_count).fold((0u64, 0u64), |(k, n), m| {
            let (km, nm) = data.cell(m, j);
            (k + u64::from(km), n + u64::from(nm))
        });
        if n == 0 { 0.5 } else { k as f64 / n as f64 }
    };
    let mut by_rate: Vec<usize> = (0..members.len()).collect();
    let rates: Vec<f64> = by_rate.iter().map(|&i| rate(i)).collect();
    by_rate.sort_by(|&x, &y| rates[x].total_cmp(&rates[y]));
    let t = members.len();
    let mut centres: Vec<Vec<f64>> = (0..k).map(|i| features[by_rate[((2 * i + 1) * t) / (2 * k)]].clone()).collect();
    let distance = |x: &[f64], y: &[f64]| -> f64 { x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum() };
    let nearest = |x: &[f64], centres: &[Vec<f64>]| -> usize {
        let mut best = 0;
        let mut best_d = f64::INFINITY;
        for (c, centre) in centres.iter().enumerate() {
            let dist = distance(x, centre);
            if dist < best_d {
                best = c;
                best_d = dist;
            }
        }
        best
    };
    let mut assigned: Vec<usize> = features.iter().map(|x| nearest(x, &centres)).collect();
    for _ in 0..100 {
        // New centres: the mean of each cluster; an empty one takes the point farthest from
        // its own centre.
        let mut sums = vec![vec![0.0; m_count]; k];
        let mut counts = vec![0usize; k];
        for (i, &c) in assigned.iter().enumerate() {
            counts[c] += 1;
            sums[c].iter_mut().zip(&features[i]).for_each(|(s, x)| *s += x);
        }
        for c in 0..k {
            if counts[c] > 0 {
                centres[c] = sums[c].iter().map(|s| s / counts[c] as f64).collect();
            } else {
                let far = (0..t)
                    .max_by(|&x, &y| {
                        distance(&features[x], &centres[assigned[x]])
                            .total_cmp(&distance(&features[y], &centres[assigned[y]]))
                            .then(y.cmp(&x))
                    })
                    .unwrap_or(0);
                centres[c].clone_from(&features[far]);
            }
        }
        let next: Vec<usize> = features.iter().map(|x| nearest(x, &centres)).collect();
        if next == assigned {
            break;
        }
        assigned = next;
    }
    let mut anchors = Vec::with_capacity(k);
    for (c, centre) in centres.iter().enumerate() {
        let in_cluster: Vec<usize> = (0..t).filter(|&i| assigned[i] == c).collect();
        let Some(&best) = in_cluster
            .iter()
            .min_by(|&&x, &&y| distance(&features[x], centre).total_cmp(&distance(&features[y], centre)))
        else {
            continue;
        };
        anchors.push(Anchor { test: members[best], weight: in_cluster.len() as f64 });
    }
    anchors.sort_by_key(|a| a.test);
    anchors
}
