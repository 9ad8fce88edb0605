//! How well a subset of a given size predicts: each model left out in turn, the subset
//! fitted on the others, the model estimated from its anchors and compared with its full
//! score; and the same for random subsets of the same size, the baseline to beat.

use rayon::prelude::*;
use serde::Serialize;

use super::{Data, Fitted, Size, Subset, SubsetError, TAU, fit};
use crate::stats::SplitMix64;

/// Seeds of the random baseline.
const SEEDS: u64 = 5;

/// One model left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckedModel {
    /// The model.
    pub model: String,
    /// Its full score (the mean of its categories).
    pub truth: f64,
    /// The estimate from its anchors.
    pub estimate: f64,
    /// The 90% interval's ends.
    pub low: f64,
    /// The upper end.
    pub high: f64,
    /// What its anchors say alone (the mean of the categories' weighted anchor means):
    /// far from `estimate`, the model answers unlike the others. Absent when it ran none
    /// of a category's anchors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor_mean: Option<f64>,
    /// Per category: (category, full score, estimate, low, high).
    pub categories: Vec<(String, f64, f64, f64, f64)>,
    /// Its person fit on the anchors ([`super::ModelEstimate::person_fit`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person_fit: Option<f64>,
}

impl CheckedModel {
    /// The absolute error of the overall estimate.
    pub fn error(&self) -> f64 {
        (self.estimate - self.truth).abs()
    }

    /// Its [`person_fit`](Self::person_fit) when it is below
    /// [`PERSON_FIT_WARN`](super::PERSON_FIT_WARN): it answers its anchors unlike the fitted
    /// models.
    pub fn misfit(&self) -> Option<f64> {
        super::estimate::below_warn(self.person_fit)
    }
}

/// The random baseline's figures, the mean over its seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Baseline {
    /// Seeds drawn.
    pub seeds: u64,
    /// Median absolute error of the overall score.
    pub median_error: f64,
    /// Its 90th percentile.
    pub p90_error: f64,
    /// The largest.
    pub worst_error: f64,
    /// Median absolute error over every (model, category).
    pub category_median_error: f64,
    /// Spearman's rank correlation of the estimates with the full scores.
    pub spearman: f64,
}

/// How well the subset predicts one category, over the models left out in turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryCheck {
    /// The category.
    pub category: String,
    /// Its tests.
    pub tests: usize,
    /// Its anchors.
    pub anchors: usize,
    /// Median absolute error of its score.
    pub median_error: f64,
    /// The largest.
    pub worst_error: f64,
    /// The share of its 90% intervals that cover the full score.
    pub coverage: f64,
    /// The random subsets' median error of its score (as many of its tests drawn as it has
    /// anchors).
    pub random_median_error: f64,
}

/// A model the check leaves out of its figures: it did not run every category, so it has
/// no full score to hold an estimate of the full score against (its runs still count in
/// every fit).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotChecked {
    /// The model.
    pub model: String,
    /// The categories it ran a test of.
    pub categories_run: usize,
    /// The categories of the data.
    pub categories: usize,
}

/// What leaving each model out gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Check {
    /// The subset size: its anchors in all.
    pub size: usize,
    /// Each model that ran every category.
    pub models: Vec<CheckedModel>,
    /// The models that did not, so are in no figure.
    pub not_checked: Vec<NotChecked>,
    /// Median absolute error of the overall score.
    pub median_error: f64,
    /// Its 90th percentile.
    pub p90_error: f64,
    /// The largest.
    pub worst_error: f64,
    /// Median absolute error over every (model, category).
    pub category_median_error: f64,
    /// Spearman's rank correlation of the estimates with the full scores.
    pub spearman: f64,
    /// The share of the categories' 90% intervals that cover the full score.
    pub coverage_categories: f64,
    /// The share of the overall intervals that do.
    pub coverage_overall: f64,
    /// A random subset of the same size, each category scored by the mean of its tests in it.
    pub baseline: Baseline,
    /// Each category's figures, in the order of the data's categories.
    pub categories: Vec<CategoryCheck>,
}

/// Leaves each model of `data` out in turn (in parallel; the result does not depend on the
/// order): fits a subset of `size` on the others and estimates the model from its anchors.
/// A model that did not run every category is not checked ([`Check::not_checked`]).
///
/// # Errors
///
/// [`SubsetError::TooLittle`] for fewer than three models that ran every category; what
/// [`Size::counts`] refuses.
pub fn check(data: &Data, size: impl Into<Size>) -> Result<Check, SubsetError> {
    if data.models.len() < 3 {
        return Err(SubsetError::TooLittle { needed: 3, models: data.models.len(), tests: data.tests.len() });
    }
    let counts = size.into().counts(&data.categories, &data.sizes())?;
    Ok(check_with(data, &LeftOut::fit(data)?, &counts))
}

/// Each checked model's fit on the other models: it does not depend on the subset's size,
/// so [`plan`] fits once for every size it tries.
struct LeftOut {
    /// The models checked, with the fit that leaves each out.
    fits: Vec<(usize, Fitted)>,
    not_checked: Vec<NotChecked>,
}

impl LeftOut {
    fn fit(data: &Data) -> Result<Self, SubsetError> {
        let (complete, not_checked) = completeness(data);
        if complete.len() < 3 {
            return Err(SubsetError::TooLittle { needed: 3, models: complete.len(), tests: data.tests.len() });
        }
        let fits = complete.par_iter().map(|&m| (m, fit(&data.without(m), TAU))).collect();
        Ok(Self { fits, not_checked })
    }
}

/// [`check`] on fits made once, with `counts[c]` anchors of each category `c`.
fn check_with(data: &Data, left: &LeftOut, counts: &[usize]) -> Check {
    let models: Vec<CheckedModel> = left
        .fits
        .par_iter()
        .map(|(m, fitted)| left_out(data, *m, &Subset::from_fit(&data.without(*m), fitted, counts)))
        .collect();
    let errors: Vec<f64> = models.iter().map(CheckedModel::error).collect();
    let category_errors: Vec<f64> =
        models.iter().flat_map(|m| m.categories.iter().map(|c| (c.2 - c.1).abs())).collect();
    let covered = models.iter().flat_map(|m| &m.categories).filter(|c| c.3 <= c.1 && c.1 <= c.4).count();
    let pairs = models.iter().map(|m| m.categories.len()).sum::<usize>();
    let truths: Vec<f64> = models.iter().map(|m| m.truth).collect();
    let estimates: Vec<f64> = models.iter().map(|m| m.estimate).collect();
    let (baseline, random_per) = baseline(data, &left.fits.iter().map(|(m, _)| *m).collect::<Vec<_>>(), counts);
    let tests = data.sizes();
    let categories = (0..data.categories.len())
        .map(|c| {
            let name = &data.categories[c];
            let cells: Vec<_> = models.iter().flat_map(|m| &m.categories).filter(|x| &x.0 == name).collect();
            let errors: Vec<f64> = cells.iter().map(|x| (x.2 - x.1).abs()).collect();
            let covered = cells.iter().filter(|x| x.3 <= x.1 && x.1 <= x.4).count();
            CategoryCheck {
                category: name.clone(),
                tests: tests[c],
                anchors: counts[c],
                median_error: quantile(&errors, 0.5),
                worst_error: errors.iter().copied().fold(0.0, f64::max),
                coverage: covered as f64 / cells.len().max(1) as f64,
                random_median_error: random_per[c],
            }
        })
        .collect();
    Check {
        size: counts.iter().sum(),
        median_error: quantile(&errors, 0.5),
        p90_error: quantile(&errors, 0.9),
        worst_error: errors.iter().copied().fold(0.0, f64::max),
        category_median_error: quantile(&category_errors, 0.5),
        spearman: spearman(&truths, &estimates),
        coverage_categories: covered as f64 / pairs.max(1) as f64,
        coverage_overall: models.iter().filter(|m| m.low <= m.truth && m.truth <= m.high).count() as f64
            / models.len().max(1) as f64,
        baseline,
        models,
        not_checked: left.not_checked.clone(),
        categories,
    }
}

/// The models that ran a test of every category, and the others.
fn completeness(data: &Data) -> (Vec<usize>, Vec<NotChecked>) {
    let mut complete = Vec::new();
    let mut not_checked = Vec::new();
    for m in 0..data.models.len() {
        let categories_run = data.score(m).0.iter().flatten().count();
        if categories_run == data.categories.len() {
            complete.push(m);
        } else {
            not_checked.push(NotChecked {
                model: data.models[m].clone(),
                categories_run,
                categories: data.categories.len(),
            });
        }
    }
    (complete, not_checked)
}

/// Model `m` estimated from its runs of `subset`'s anchors, beside its full score.
fn left_out(data: &Data, m: usize, subset: &Subset) -> CheckedModel {
    let (truth_per, truth) = data.score(m);
    let cells: Vec<(&str, &str, u32, u32)> = data
        .tests
        .iter()
        .enumerate()
        .filter_map(|(j, t)| {
            let (k, n) = data.cell(m, j);
            (n > 0).then(|| (data.categories[t.category].as_str(), t.id.as_str(), k, n))
        })
        .collect();
    let estimate = subset.prepare().estimate_model(&data.models[m], &cells);
    let categories = estimate
        .categories
        .iter()
        .zip(&truth_per)
        .filter_map(|(e, t)| Some((e.category.clone().unwrap_or_default(), (*t)?, e.estimate, e.low, e.high)))
        .collect();
    CheckedModel {
        model: data.models[m].clone(),
        truth: truth.unwrap_or(0.0),
        estimate: estimate.overall.estimate,
        low: estimate.overall.low,
        high: estimate.overall.high,
        anchor_mean: estimate.overall.anchor_mean,
        categories,
        person_fit: estimate.person_fit,
    }
}

/// The random baseline over the models `checked`: for each seed, `counts[c]` tests of each
/// category `c` drawn without replacement, as many as the subset's anchors; each category
/// scored by the mean of the model's pass rates on its drawn tests; with each category's
/// median error, the mean over the seeds.
fn baseline(data: &Data, checked: &[usize], counts: &[usize]) -> (Baseline, Vec<f64>) {
    let d = data.categories.len();
    let mut per_category = vec![0.0; d];
    let size = counts.iter().sum();
    let mut sums = Baseline {
        seeds: SEEDS,
        median_error: 0.0,
        p90_error: 0.0,
        worst_error: 0.0,
        category_median_error: 0.0,
        spearman: 0.0,
    };
    for seed in 0..SEEDS {
        let mut rng = SplitMix64::new(0x5eed_0000 + seed);
        let mut drawn: Vec<usize> = Vec::with_capacity(size);
        for (c, &k) in counts.iter().enumerate() {
            let mut members: Vec<usize> = (0..data.tests.len()).filter(|&j| data.tests[j].category == c).collect();
            // Fisher–Yates, the first `k`.
            for i in 0..k.min(members.len()) {
                let pick = i + usize::try_from(rng.next_u64() % (members.len() - i) as u64).unwrap_or(0);
                members.swap(i, pick);
            }
            drawn.extend(&members[..k.min(members.len())]);
        }
        let mut errors = Vec::new();
        let mut category_errors = Vec::new();
        let mut by_category: Vec<Vec<f64>> = vec![Vec::new(); d];
        let (mut truths, mut estimates) = (Vec::new(), Vec::new());
        for &m in checked {
            let (truth_per, truth) = data.score(m);
            let mut s = vec![0.0; d];
            let mut n = vec![0usize; d];
            for &j in &drawn {
                let (kk, nn) = data.cell(m, j);
                if nn > 0 {
                    s[data.tests[j].category] += f64::from(kk) / f64::from(nn);
                    n[data.tests[j].category] += 1;
                }
            }
            let per: Vec<Option<f64>> = (0..d).map(|c| (n[c] > 0).then(|| s[c] / n[c] as f64)).collect();
            let known: Vec<f64> = per.iter().flatten().copied().collect();
            let (Some(truth), false) = (truth, known.is_empty()) else { continue };
            let estimate = known.iter().sum::<f64>() / known.len() as f64;
            errors.push((estimate - truth).abs());
            truths.push(truth);
            estimates.push(estimate);
            for (c, (e, t)) in per.iter().zip(&truth_per).enumerate() {
                if let (Some(e), Some(t)) = (e, t) {
                    category_errors.push((e - t).abs());
                    by_category[c].push((e - t).abs());
                }
            }
        }
        for (sum, errors) in per_category.iter_mut().zip(&by_category) {
            *sum += quantile(errors, 0.5);
        }
        sums.median_error += quantile(&errors, 0.5);
        sums.p90_error += quantile(&errors, 0.9);
        sums.worst_error += errors.iter().copied().fold(0.0, f64::max);
        sums.category_median_error += quantile(&category_errors, 0.5);
        sums.spearman += spearman(&truths, &estimates);
    }
    let n = SEEDS as f64;
    let baseline = Baseline {
        seeds: SEEDS,
        median_error: sums.median_error / n,
        p90_error: sums.p90_error / n,
        worst_error: sums.worst_error / n,
        category_median_error: sums.category_median_error / n,
        spearman: sums.spearman / n,
    };
    (baseline, per_category.into_iter().map(|s| s / n).collect())
}

/// The smallest subset whose left-out models' median error reaches a target.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubsetPlan {
    /// The target: a median absolute error of the overall score, as a fraction.
    pub target_error: f64,
    /// Each size tried, in order (25, then doubling), until one reached the target.
    pub sizes: Vec<SizeTried>,
    /// The first size that reached it; `None` when none up to every test did.
    pub size: Option<usize>,
}

/// One size [`plan`] tried.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SizeTried {
    /// Anchors.
    pub size: usize,
    /// Median absolute error of the overall score when each model is left out.
    pub median_error: f64,
    /// The largest.
    pub worst_error: f64,
    /// The random subsets' median error at this size.
    pub random_median_error: f64,
}

/// Tries subsets of 25, 50, 100, … tests (up to every test) until the left-out models'
/// median error is at most `target_error`.
pub fn plan(data: &Data, target_error: f64) -> Result<SubsetPlan, SubsetError> {
    if data.models.len() < 3 {
        return Err(SubsetError::TooLittle { needed: 3, models: data.models.len(), tests: data.tests.len() });
    }
    let left = LeftOut::fit(data)?;
    let mut sizes = Vec::new();
    let mut size = 25.min(data.tests.len());
    loop {
        let c = check_with(data, &left, &Size::from(size).counts(&data.categories, &data.sizes())?);
        sizes.push(SizeTried {
            size,
            median_error: c.median_error,
            worst_error: c.worst_error,
            random_median_error: c.baseline.median_error,
        });
        if c.median_error <= target_error {
            return Ok(SubsetPlan { target_error, sizes, size: Some(size) });
        }
        if size >= data.tests.len() {
            return Ok(SubsetPlan { target_error, sizes, size: None });
        }
        size = (size * 2).min(data.tests.len());
    }
}

/// The `q` quantile of `values`, interpolating between order statistics (0 when empty).
pub(crate) fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let at = q.clamp(0.0, 1.0) * (v.len() - 1) as f64;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // 0 ≤ at ≤ len − 1
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (at - lo as f64)
}

/// Average ranks (ties share their mean rank).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]].total_cmp(&values[order[i]]).is_eq() {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rank correlation (Pearson's of the average ranks); 0 when either side is
/// constant.
///
/// ```
/// use evaltally_analyzer::subset::spearman;
/// assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 30.0, 20.0]) - 0.5).abs() < 1e-12);
/// ```
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    if vx == 0.0 || vy == 0.0 { 0.0 } else { cov / (vx * vy).sqrt() }
}
