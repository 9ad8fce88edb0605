//! Fitting the category-aware two-parameter logistic model by alternating Newton steps.
//!
//! `P(model m passes test j) = σ(a_j (θ_{m,c(j)} − b_j))`, `a_j = exp(la_j)`, with one ability
//! per (model, category) tied across categories by the prior `θ_m ~ N(0, 1·1ᵀ + τ² I)`
//! (the overall ability plus a category deviation of sd τ), `la_j ~ N(0, 1)` and
//! `b_j ~ N(0, 3²)`. Each sweep takes one Newton step per model (abilities, items fixed),
//! then one per test on `(la_j, b_j)` with a backtracking line search (abilities fixed),
//! then centres each category's abilities at 0, moving the difficulties with them so that
//! no probability changes. It stops when no fitted probability moves by more than
//! [`TOLERANCE`] in a sweep. `docs/statistics.md` has the derivation.

use rayon::prelude::*;

use super::Data;
use super::linalg;

/// The convergence threshold on the largest change of a fitted probability in a sweep.
pub const TOLERANCE: f64 = 1e-4;
/// The most sweeps a fit takes.
pub const MAX_SWEEPS: usize = 300;
/// The prior sd of a test's log-discrimination.
const LA_SD: f64 = 1.0;
/// The prior sd of a test's difficulty.
const B_SD: f64 = 3.0;

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// Discrimination per test (`a_j`).
    pub a: Vec<f64>,
    /// Difficulty per test (`b_j`).
    pub b: Vec<f64>,
    /// Ability per (model, category), row-major: `theta[m * categories + c]`.
    pub theta: Vec<f64>,
    /// Sweeps taken.
    pub sweeps: usize,
    /// Whether the fit stopped on [`TOLERANCE`] rather than [`MAX_SWEEPS`].
    pub converged: bool,
}

/// `σ(x)`, with `x` clipped to ±30.
pub(crate) fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x.clamp(-30.0, 30.0)).exp())
}

/// `ln(1 + e^x)`, without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 { x } else { x.exp().ln_1p() }
}

fn logit(p: f64) -> f64 {
    (p / (1.0 - p)).ln()
}

/// The prior precision of a model's abilities: the inverse of `1·1ᵀ + τ² I`.
pub(crate) fn prior_precision(d: usize, tau: f64) -> Vec<f64> {
    let mut sigma = vec![1.0; d * d];
    for c in 0..d {
        sigma[c * d + c] += tau * tau;
    }
    linalg::inverse(&sigma, d).unwrap_or_else(|| identity(d))
}

pub(crate) fn identity(d: usize) -> Vec<f64> {
    let mut m = vec![0.0; d * d];
    for c in 0..d {
        m[c * d + c] = 1.0;
    }
    m
}

/// Fits the model to `data` with category deviations of prior sd `tau`.
pub fn fit(data: &Data, tau: f64) -> Fitted {
    let (m_count, j_count, d) = (data.models.len(), data.tests.len(), data.categories.len());
    let precision = prior_precision(d, tau);
    let mut theta = initial_abilities(data);
    let mut b: Vec<f64> = (0..j_count)
        .map(|j| {
            let (k, n) = (0..m_count).fold((0.0, 0.0), |(k, n), m| {
                let (km, nm) = data.cell(m, j);
                (k + f64::from(km), n + f64::from(nm))
            });
            -logit((k + 0.5) / (n + 1.0))
        })
        .collect();
    let mut la = vec![0.0; j_count];
    let mut previous: Option<Vec<f64>> = None;
    let mut sweeps = 0;
    let mut converged = false;
    while sweeps < MAX_SWEEPS {
        sweeps += 1;
        person_step(data, &la, &b, &precision, &mut theta);
        item_step(data, &theta, &mut la, &mut b);
        centre(data, &mut theta, &mut b);
        let p = probabilities(data, &la, &b, &theta);
        if let Some(prev) = &previous {
            let moved = p.iter().zip(prev).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            if moved < TOLERANCE {
                converged = true;
                break;
            }
        }
        previous = Some(p);
    }
    Fitted { a: la.iter().map(|l| l.exp()).collect(), b, theta, sweeps, converged }
}

/// Each model's pass rate per category on the logit scale, standardised over models.
fn initial_abilities(data: &Data) -> Vec<f64> {
    let (m_count, d) = (data.models.len(), data.categories.len());
    let mut theta = vec![0.0; m_count * d];
    for m in 0..m_count {
        let mut k = vec![0.0; d];
        let mut n = vec![0.0; d];
        for (j, test) in data.tests.iter().enumerate() {
            let (km, nm) = data.cell(m, j);
            k[test.category] += f64::from(km);
            n[test.category] += f64::from(nm);
        }
        for c in 0..d {
            theta[m * d + c] = logit((k[c] + 0.5) / (n[c] + 1.0));
        }
    }
    for c in 0..d {
        let mean = (0..m_count).map(|m| theta[m * d + c]).sum::<f64>() / m_count.max(1) as f64;
        let var = (0..m_count).map(|m| (theta[m * d + c] - mean).powi(2)).sum::<f64>() / m_count.max(1) as f64;
        let sd = var.sqrt();
        for m in 0..m_count {
            let z = &mut theta[m * d + c];
            *z = if sd > 1e-12 { (*z - mean) / sd } else { 0.0 };
        }
    }
    theta
}

/// One Newton step per model on its abilities, the items fixed.
fn person_step(data: &Data, la: &[f64], b: &[f64], precision: &[f64], theta: &mut [f64]) {
    let d = data.categories.len();
    let a: Vec<f64> = la.iter().map(|l| l.exp()).collect();
    theta.par_chunks_mut(d).enumerate().for_each(|(m, th)| {
        let mut g = vec![0.0; d];
        let mut w = vec![0.0; d];
        for (j, test) in data.tests.iter().enumerate() {
            let (k, n) = data.cell(m, j);
            if n == 0 {
                continue;
            }
            let a = a[j];
            let p = sigmoid(a * (th[test.category] - b[j]));
            let n = f64::from(n);
            g[test.category] += (f64::from(k) - n * p) * a;
            w[test.category] += n * p * (1.0 - p) * a * a;
        }
        newton_person(th, &g, &w, precision, d);
    });
}

/// `θ += H⁻¹ (g − P θ)` with `H = P + diag(w)`, the step scaled so that no component moves by
/// more than 1.
pub(crate) fn newton_person(th: &mut [f64], g: &[f64], w: &[f64], precision: &[f64], d: usize) -> f64 {
    let mut step: Vec<f64> = (0..d).map(|c| g[c] - (0..d).map(|e| precision[c * d + e] * th[e]).sum::<f64>()).collect();
    let mut h = precision.to_vec();
    for c in 0..d {
        h[c * d + c] += w[c];
    }
    let Some(l) = linalg::cholesky(&h, d) else { return 0.0 };
    linalg::solve(&l, d, &mut step);
    let largest = step.iter().fold(0.0_f64, |m, s| m.max(s.abs()));
    let scale = 1.0 / largest.max(1.0);
    for c in 0..d {
        th[c] += step[c] * scale;
    }
    largest * scale
}

/// The log-posterior of test `j` at `(la, b)`, the abilities fixed.
fn item_objective(data: &Data, theta: &[f64], j: usize, la: f64, b: f64) -> f64 {
    let d = data.categories.len();
    let c = data.tests[j].category;
    let a = la.exp();
    let mut f = 0.0;
    for m in 0..data.models.len() {
        let (k, n) = data.cell(m, j);
        if n == 0 {
            continue;
        }
        let eta = a * (theta[m * d + c] - b);
        // log p = −softplus(−η), log(1 − p) = −softplus(η); a term of no runs is 0 and
        // not computed (most cells are one run, a pass or a failure)
        let mut term = 0.0;
        if k > 0 {
            term += f64::from(k) * softplus(-eta);
        }
        if n > k {
            term += f64::from(n - k) * softplus(eta);
        }
        f -= term;
    }
    f - la * la / (2.0 * LA_SD * LA_SD) - b * b / (2.0 * B_SD * B_SD)
}

/// One Newton step per test on `(la_j, b_j)`, the abilities fixed: the observed
/// information where it is positive definite (else the expected), the step vector scaled
/// to at most 0.5 in `la` and 1 in `b`, then halved until the log-posterior rises enough.
fn item_step(data: &Data, theta: &[f64], la: &mut [f64], b: &mut [f64]) {
    let d = data.categories.len();
    la.par_iter_mut().zip(b.par_iter_mut()).enumerate().for_each(|(j, (la_j, b_j))| {
        let c = data.tests[j].category;
        let a = la_j.exp();
        let (mut g_la, mut g_b) = (-*la_j / (LA_SD * LA_SD), -*b_j / (B_SD * B_SD));
        let (mut i_ll, mut i_lb, mut i_bb) = (1.0 / (LA_SD * LA_SD), 0.0, 1.0 / (B_SD * B_SD));
        let (mut res_ae, mut res_a) = (0.0, 0.0);
        for m in 0..data.models.len() {
            let (k, n) = data.cell(m, j);
            if n == 0 {
                continue;
            }
            let e = theta[m * d + c] - *b_j;
            let p = sigmoid(a * e);
            let n = f64::from(n);
            let res = f64::from(k) - n * p;
            let info = n * p * (1.0 - p) * a * a;
            g_la += res * a * e;
            g_b -= res * a;
            res_ae += res * a * e;
            res_a += res * a;
            i_ll += info * e * e;
            i_lb -= info * e;
            i_bb += info;
        }
        let (o_ll, o_lb) = (i_ll - res_ae, i_lb + res_a);
        let (h_ll, h_lb) = if o_ll > 0.0 && o_ll * i_bb - o_lb * o_lb > 0.0 { (o_ll, o_lb) } else { (i_ll, i_lb) };
        let det = h_ll * i_bb - h_lb * h_lb;
        if det <= 0.0 || !det.is_finite() {
            return;
        }
        let mut s_la = (i_bb * g_la - h_lb * g_b) / det;
        let mut s_b = (h_ll * g_b - h_lb * g_la) / det;
        let scale = 1.0_f64.min(0.5 / s_la.abs().max(1e-300)).min(1.0 / s_b.abs().max(1e-300));
        s_la *= scale;
        s_b *= scale;
        let f0 = item_objective(data, theta, j, *la_j, *b_j);
        let slope = g_la * s_la + g_b * s_b;
        let mut t = 1.0;
        for _ in 0..=8 {
            if item_objective(data, theta, j, *la_j + t * s_la, *b_j + t * s_b) >= f0 + 1e-4 * t * slope {
                *la_j += t * s_la;
                *b_j += t * s_b;
                return;
            }
            t /= 2.0;
        }
    });
}

/// Moves each category's mean ability to 0, and its tests' difficulties with it.
fn centre(data: &Data, theta: &mut [f64], b: &mut [f64]) {
    let (m_count, d) = (data.models.len(), data.categories.len());
    let mut mean = vec![0.0; d];
    for m in 0..m_count {
        for c in 0..d {
            mean[c] += theta[m * d + c];
        }
    }
    for x in &mut mean {
        *x /= m_count.max(1) as f64;
    }
    for m in 0..m_count {
        for c in 0..d {
            theta[m * d + c] -= mean[c];
        }
    }
    for (j, test) in data.tests.iter().enumerate() {
        b[j] -= mean[test.category];
    }
}

/// The fitted probability of every observed cell, in (model, test) order (0 where
/// unobserved).
fn probabilities(data: &Data, la: &[f64], b: &[f64], theta: &[f64]) -> Vec<f64> {
    let (j_count, d) = (data.tests.len(), data.categories.len());
    let a: Vec<f64> = la.iter().map(|l| l.exp()).collect();
    let a = &a;
    (0..data.models.len())
        .into_par_iter()
        .flat_map_iter(|m| {
            (0..j_count).map(move |j| {
                let (_, n) = data.cell(m, j);
                if n == 0 { 0.0 } else { sigmoid(a[j] * (theta[m * d + data.tests[j].category] - b[j])) }
            })
        })
        .collect()
}
