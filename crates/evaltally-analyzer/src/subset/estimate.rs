//! A model's full score estimated from its runs of the anchors, with an interval.

use super::fit::{newton_person, sigmoid};
use super::linalg;

/// The z of a two-sided 90% interval.
pub const Z90: f64 = 1.644_853_626_951_472_2;

/// The fewest anchors a model must have run for its person fit to be given.
pub const PERSON_FIT_ANCHORS: usize = 20;

/// The person fit below which a model is said to answer unlike the fitted models.
pub const PERSON_FIT_WARN: f64 = -3.0;

/// `person_fit` when it is below [`PERSON_FIT_WARN`]: the model answers its anchors unlike
/// the fitted models.
pub(crate) fn below_warn(person_fit: Option<f64>) -> Option<f64> {
    person_fit.filter(|&z| z < PERSON_FIT_WARN)
}

/// One category's estimate, as fractions.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryEstimate {
    /// The estimated full score: the anchors run, as observed, and every other test at its
    /// predicted pass probability, over the category's tests.
    pub estimate: f64,
    /// Its standard error.
    pub se: f64,
    /// Anchors the model ran.
    pub tests_run: usize,
    /// The anchors' own mean, each weighted by its cluster's size (the tests it stands
    /// for), without the item model; `None` when the model ran none of the category's.
    pub anchor_mean: Option<f64>,
}

/// What the estimate needs of the subset: every test's parameters and category, the
/// categories' sizes and the prior of a model's abilities.
#[derive(Debug)]
pub(crate) struct Items<'a> {
    pub(crate) a: &'a [f64],
    pub(crate) b: &'a [f64],
    pub(crate) category: &'a [usize],
    pub(crate) categories: usize,
    /// The prior covariance of a model's abilities (categories × categories).
    pub(crate) covariance: &'a [f64],
    /// Each test's weight as an anchor (its cluster's size; 0 for a test that is none).
    pub(crate) weight: &'a [f64],
}

/// `(k, n)` passes and judged runs of each anchor the model ran, by test index.
pub(crate) type Observed = [(usize, u32, u32)];

/// The abilities that best explain `observed` under `items` (maximum a posteriori, the
/// items fixed), and their covariance (the inverse of the posterior's curvature there).
fn abilities(items: &Items<'_>, observed: &Observed) -> (Vec<f64>, Vec<f64>) {
    let d = items.categories;
    let precision = linalg::inverse(items.covariance, d).unwrap_or_else(|| super::fit::identity(d));
    let mut theta = vec![0.0; d];
    let curvature = |theta: &[f64]| -> (Vec<f64>, Vec<f64>) {
        let mut g = vec![0.0; d];
        let mut w = vec![0.0; d];
        for &(j, k, n) in observed {
            if n == 0 {
                continue;
            }
            let c = items.category[j];
            let p = sigmoid(items.a[j] * (theta[c] - items.b[j]));
            let n = f64::from(n);
            g[c] += (f64::from(k) - n * p) * items.a[j];
            w[c] += n * p * (1.0 - p) * items.a[j] * items.a[j];
        }
        (g, w)
    };
    for _ in 0..50 {
        let (g, w) = curvature(&theta);
        if newton_person(&mut theta, &g, &w, &precision, d) < 1e-6 {
            break;
        }
    }
    let (_, w) = curvature(&theta);
    let mut h = precision;
    for c in 0..d {
        h[c * d + c] += w[c];
    }
    let v = linalg::inverse(&h, d).unwrap_or_else(|| super::fit::identity(d));
    (theta, v)
}

/// The standardized log-likelihood of the anchors' outcomes at the abilities `theta`
/// (`l_z`, Drasgow, Levine and Williams 1985, with a test's runs as binomial trials): near 0
/// when the model answers as the item model expects, well below 0 when it fails tests the
/// model says it passes and passes ones it says it fails (a model that breaks the output
/// format fails easy and hard tests alike). `None` under [`PERSON_FIT_ANCHORS`] anchors.
fn person_fit(items: &Items<'_>, observed: &Observed, theta: &[f64]) -> Option<f64> {
    let (mut l, mut mean, mut var, mut anchors) = (0.0, 0.0, 0.0, 0);
    for &(j, k, n) in observed {
        if n == 0 {
            continue;
        }
        anchors += 1;
        let p = sigmoid(items.a[j] * (theta[items.category[j]] - items.b[j])).clamp(1e-9, 1.0 - 1e-9);
        let (k, n) = (f64::from(k), f64::from(n));
        let (lp, lq) = (p.ln(), (1.0 - p).ln());
        l += k * lp + (n - k) * lq;
        mean += n * (p * lp + (1.0 - p) * lq);
        var += n * p * (1.0 - p) * (lp - lq).powi(2);
    }
    (anchors >= PERSON_FIT_ANCHORS && var > 0.0).then(|| (l - mean) / var.sqrt())
}

/// What [`estimate`] gives.
pub(crate) struct Estimated {
    /// Per category.
    pub(crate) categories: Vec<CategoryEstimate>,
    /// The covariance of the categories' estimates (categories × categories).
    pub(crate) covariance: Vec<f64>,
    /// The model's person fit on the anchors ([`person_fit`]).
    pub(crate) person_fit: Option<f64>,
}

/// The estimate per category from the anchors `observed`, and the covariance of the
/// categories' estimates: the abilities' uncertainty carried to the scores (delta method),
/// plus the chance variation of the tests not run, as `runs` runs of each would give it.
pub(crate) fn estimate(items: &Items<'_>, observed: &Observed, runs: u32) -> Estimated {
    let d = items.categories;
    let (theta, v) = abilities(items, observed);
    let fit = person_fit(items, observed, &theta);
    let mut seen = vec![false; items.a.len()];
    let mut sums = vec![0.0; d];
    let mut sizes = vec![0usize; d];
    let mut tests_run = vec![0usize; d];
    // The anchors' weighted mean: Σ w·(k/n) and Σ w per category.
    let mut weighted = vec![(0.0, 0.0); d];
    for &(j, k, n) in observed {
        if n == 0 {
            continue;
        }
        seen[j] = true;
        let rate = f64::from(k) / f64::from(n);
        let c = items.category[j];
        sums[c] += rate;
        tests_run[c] += 1;
        let w = items.weight.get(j).copied().unwrap_or(0.0);
        weighted[c].0 += w * rate;
        weighted[c].1 += w;
    }
    // dS_c/dθ_c and the Bernoulli part, over the tests not run.
    let mut gradient = vec![0.0; d];
    let mut bernoulli = vec![0.0; d];
    let runs = f64::from(runs.max(1));
    for (j, &c) in items.category.iter().enumerate() {
        sizes[c] += 1;
        if seen[j] {
            continue;
        }
        let p = sigmoid(items.a[j] * (theta[c] - items.b[j]));
        sums[c] += p;
        gradient[c] += items.a[j] * p * (1.0 - p);
        bernoulli[c] += p * (1.0 - p) / runs;
    }
    let mut covariance = vec![0.0; d * d];
    for c in 0..d {
        let tc = sizes[c].max(1) as f64;
        for e in 0..d {
            let te = sizes[e].max(1) as f64;
            covariance[c * d + e] = gradient[c] / tc * v[c * d + e] * gradient[e] / te;
        }
        covariance[c * d + c] += bernoulli[c] / (tc * tc);
    }
    let estimates = (0..d)
        .map(|c| CategoryEstimate {
            estimate: sums[c] / sizes[c].max(1) as f64,
            se: covariance[c * d + c].max(0.0).sqrt(),
            tests_run: tests_run[c],
            anchor_mean: (weighted[c].1 > 0.0).then(|| weighted[c].0 / weighted[c].1),
        })
        .collect();
    Estimated { categories: estimates, covariance, person_fit: fit }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 40 anchors of one category, difficulties evenly from −2 to 2, discrimination 2.
    fn items<'a>(a: &'a [f64], b: &'a [f64], category: &'a [usize], weight: &'a [f64]) -> Items<'a> {
        Items { a, b, category, categories: 1, covariance: &[1.0], weight }
    }

    #[test]
    fn person_fit_tells_a_model_that_fails_easy_tests_from_one_that_fits() {
        let b: Vec<f64> = (0..40).map(|j| -2.0 + 4.0 * f64::from(j) / 39.0).collect();
        let (a, category, weight) = (vec![2.0; 40], vec![0; 40], vec![1.0; 40]);
        let items = items(&a, &b, &category, &weight);
        // Passes the easier half, fails the harder: as the item model expects.
        let fits: Vec<(usize, u32, u32)> = (0..40).map(|j| (j, u32::from(j < 20), 1)).collect();
        let z = estimate(&items, &fits, 1).person_fit.unwrap();
        assert!(z > -1.0, "{z}");
        // The same score, its passes spread over easy and hard tests alike.
        let spread: Vec<(usize, u32, u32)> = (0..40).map(|j| (j, u32::from(j % 2 == 0), 1)).collect();
        let z = estimate(&items, &spread, 1).person_fit.unwrap();
        assert!(z < PERSON_FIT_WARN, "{z}");
        // Too few anchors run: no figure.
        assert_eq!(estimate(&items, &fits[..PERSON_FIT_ANCHORS - 1], 1).person_fit, None);
    }
}
