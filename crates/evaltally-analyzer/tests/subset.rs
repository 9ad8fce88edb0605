//! The subset fit on data with planted parameters: it finds them, and a subset predicts a
//! left-out model's score.

use evaltally_analyzer::stats::SplitMix64;
use evaltally_analyzer::subset::{Data, Subset, Test, check, fit, spearman};

/// SplitMix64 and Box–Muller: planted data the same on every platform.
struct Rng(SplitMix64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform().max(1e-300), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Planted 2PL data: `models` × `tests` in `categories`, `runs` runs each; with the planted
/// difficulties and discriminations.
fn planted(models: usize, tests: usize, categories: usize, runs: u32, seed: u64) -> (Data, Vec<f64>, Vec<f64>) {
    let mut rng = Rng(SplitMix64::new(seed));
    let theta: Vec<f64> = (0..models).map(|_| rng.normal()).collect();
    let dev: Vec<f64> = (0..models * categories).map(|_| 0.5 * rng.normal()).collect();
    let b: Vec<f64> = (0..tests).map(|_| rng.normal()).collect();
    let a: Vec<f64> = (0..tests).map(|_| (0.5 * rng.normal()).exp()).collect();
    let cat: Vec<usize> = (0..tests).map(|j| j * categories / tests).collect();
    let mut k = vec![0; models * tests];
    let n = vec![runs; models * tests];
    for m in 0..models {
        for j in 0..tests {
            let p = 1.0 / (1.0 + (-(a[j] * (theta[m] + dev[m * categories + cat[j]] - b[j]))).exp());
            k[m * tests + j] = u32::try_from((0..runs).filter(|_| rng.uniform() < p).count()).unwrap();
        }
    }
    let data = Data::new(
        (0..models).map(|m| format!("model-{m:02}")).collect(),
        (0..categories).map(|c| format!("cat-{c}")).collect(),
        (0..tests).map(|j| Test { category: cat[j], id: format!("t{j:04}") }).collect(),
        k,
        n,
    );
    (data, a, b)
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

#[test]
fn the_fit_finds_the_planted_parameters() {
    let (data, a, b) = planted(40, 600, 3, 3, 7);
    let fitted = fit(&data, 1.0);
    assert!(fitted.converged, "{} sweeps", fitted.sweeps);
    let rb = pearson(&fitted.b, &b);
    let ra = pearson(&fitted.a, &a);
    assert!(rb > 0.9, "difficulty correlation {rb}");
    assert!(ra > 0.7, "discrimination correlation {ra}");
    // Deterministic: the same data gives the same fit.
    assert_eq!(fit(&data, 1.0), fitted);
}

#[test]
fn a_subset_predicts_a_left_out_model_better_than_random() {
    let (data, _, _) = planted(24, 600, 3, 3, 11);
    let checked = check(&data, 60).unwrap();
    assert_eq!(checked.models.len(), 24);
    assert!(checked.median_error < 0.03, "median error {}", checked.median_error);
    assert!(
        checked.median_error < checked.baseline.median_error,
        "{} vs random {}",
        checked.median_error,
        checked.baseline.median_error
    );
    assert!(checked.spearman > 0.9, "spearman {}", checked.spearman);
    assert!(checked.coverage_categories > 0.75, "coverage {}", checked.coverage_categories);
    // The figures are those of the models' own estimates.
    let truths: Vec<f64> = checked.models.iter().map(|m| m.truth).collect();
    let estimates: Vec<f64> = checked.models.iter().map(|m| m.estimate).collect();
    assert!((spearman(&truths, &estimates) - checked.spearman).abs() < 1e-12);
}

#[test]
fn a_subset_file_keeps_what_the_estimate_needs() {
    let (data, _, _) = planted(12, 90, 3, 2, 3);
    let subset = Subset::build(&data, 15).unwrap();
    assert_eq!(subset.anchors.len(), 15);
    assert_eq!(subset.categories.iter().map(|c| c.anchors).collect::<Vec<_>>(), [5, 5, 5]);
    assert_eq!(subset.tests.len(), 90);
    assert_eq!(subset.fitted_on.models.len(), 12);
    // A round trip through JSON gives the same subset (numbers to the last bit or so: JSON
    // readers round the last digit either way).
    let text = serde_json::to_string(&subset).unwrap();
    let back: Subset = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (&back.anchors, &back.categories, &back.fitted_on),
        (&subset.anchors, &subset.categories, &subset.fitted_on)
    );
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12 * x.abs().max(1.0);
    assert!(back.tests.iter().zip(&subset.tests).all(|(x, y)| x.id == y.id && close(x.a, y.a) && close(x.b, y.b)));
    back.check_consistency().unwrap();
}

/// A model whose runs hold none of the subset's tests gets no estimate (it would be the
/// prior alone); one that ran an anchor gets one.
#[test]
fn a_model_that_ran_none_of_the_subset_has_no_estimate() {
    let (data, _, _) = planted(12, 90, 3, 2, 3);
    let subset = Subset::build(&data, 15).unwrap();
    let anchor = &subset.anchors[0];
    let mut ran = evaltally_core::CategoryRun::new("r1", "ran-an-anchor", anchor.category.as_str());
    ran.push(&anchor.id, evaltally_core::Outcome::Pass, None);
    let mut other = evaltally_core::CategoryRun::new("r1", "ran-other-tests", "another-benchmark");
    other.push("t1", evaltally_core::Outcome::Pass, None);
    let estimates = subset.estimate(&[ran, other], false).unwrap();
    let models: Vec<&str> = estimates.iter().map(|e| e.model.as_str()).collect();
    assert_eq!(models, ["ran-an-anchor"]);
}
