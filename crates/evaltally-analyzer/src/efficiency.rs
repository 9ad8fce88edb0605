//! Efficiency deltas between two sides of a comparison, where the runs record them: cost,
//! wall time and tokens, per run on average and per test, flagged the way gstack's compare
//! flags them (a change of at least 20% and 5 s in duration, 30% and $0.05 in cost, and, for
//! tokens, 20% and 500).

use evaltally_core::RunRecord;
use hashbrown::HashMap;
use serde::Serialize;

/// Totals of one side over the tests both sides ran (each test's figure averaged over the
/// side's runs that record it); `None` where no such test records the figure.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Totals {
    /// How many runs (by name) the side has.
    pub runs: usize,
    /// Cost in US dollars.
    pub cost_usd: Option<f64>,
    /// Wall time of the tests, in milliseconds.
    pub duration_ms: Option<f64>,
    /// Input plus output tokens.
    pub tokens: Option<f64>,
}

/// What one test took on each side (averaged over the side's runs that record it).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Figures {
    /// Cost in US dollars.
    pub cost_usd: Option<f64>,
    /// Wall time in milliseconds.
    pub duration_ms: Option<f64>,
    /// Input plus output tokens.
    pub tokens: Option<f64>,
}

/// A test whose cost, duration or tokens changed notably.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestChange {
    /// The model.
    pub model: String,
    /// The category.
    pub category: String,
    /// The test.
    pub id: String,
    /// Base figures.
    pub base: Figures,
    /// New figures.
    pub new: Figures,
    /// Which figures changed notably: `cost`, `duration`, `tokens`.
    pub changed: Vec<&'static str>,
}

/// The efficiency part of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Efficiency {
    /// How many tests both sides ran (the totals are over these).
    pub common: usize,
    /// Base totals.
    pub base: Totals,
    /// New totals.
    pub new: Totals,
    /// Tests that changed notably, by model, category and id.
    pub tests: Vec<TestChange>,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

fn sum(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    values.flatten().reduce(|a, b| a + b)
}

/// A test: (model, category, id), borrowed from the records.
type Key<'r> = (&'r str, &'r str, &'r str);

fn figures(runs: &[RunRecord]) -> HashMap<Key<'_>, Figures> {
    /// Each test's costs, durations and token counts, one per run that records them.
    type Seen = (Vec<f64>, Vec<f64>, Vec<f64>);
    let mut seen: HashMap<Key<'_>, Seen> = HashMap::new();
    for r in runs {
        for t in &r.tests {
            let e = seen.entry((r.model.as_str(), t.category.as_str(), t.id.as_str())).or_default();
            e.0.extend(t.cost_usd);
            e.1.extend(t.duration_ms);
            if t.input_tokens.is_some() || t.output_tokens.is_some() {
                // In floating point: counts near u64::MAX (a damaged file) do not overflow.
                e.2.push(t.input_tokens.unwrap_or(0) as f64 + t.output_tokens.unwrap_or(0) as f64);
            }
        }
    }
    seen.into_iter()
        .map(|(k, (c, d, t))| {
            (
                k,
                Figures {
                    cost_usd: mean(c.into_iter()),
                    duration_ms: mean(d.into_iter()),
                    tokens: mean(t.into_iter()),
                },
            )
        })
        .collect()
}

/// Whether `a` → `b` changed by at least `share` of `a` and at least `floor`.
fn notable(a: Option<f64>, b: Option<f64>, share: f64, floor: f64) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            let d = (b - a).abs();
            d >= floor && (a == 0.0 || d / a.abs() >= share)
        }
        _ => false,
    }
}

/// The efficiency deltas of `new` against `base`, or `None` when neither side records cost,
/// duration or tokens.
///
/// ```
/// use evaltally_analyzer::efficiency::efficiency;
/// use evaltally_core::{RunRecord, TestRecord};
/// let run = |ms: f64| RunRecord {
///     run: "r".into(), model: "m".into(),
///     tests: vec![TestRecord { id: "a".into(), category: "c".into(), duration_ms: Some(ms), ..Default::default() }],
///     ..Default::default()
/// };
/// let e = efficiency(&[run(10_000.0)], &[run(16_000.0)]).unwrap();
/// assert_eq!((e.base.duration_ms, e.new.duration_ms), (Some(10_000.0), Some(16_000.0)));
/// assert_eq!(e.tests[0].changed, ["duration"]);
/// assert!(efficiency(&[RunRecord::default()], &[RunRecord::default()]).is_none());
/// ```
pub fn efficiency(base: &[RunRecord], new: &[RunRecord]) -> Option<Efficiency> {
    let before = figures(base);
    let after = figures(new);
    // In (model, category, id) order: the totals are summed in it.
    let mut common: Vec<(Key<'_>, &Figures, &Figures)> =
        before.iter().filter_map(|(k, b)| after.get(k).map(|a| (*k, b, a))).collect();
    common.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let side = |runs: usize, new_side: bool| {
        let pick = |c: &(Key<'_>, &Figures, &Figures)| if new_side { c.2.clone() } else { c.1.clone() };
        Totals {
            runs,
            cost_usd: sum(common.iter().map(|c| pick(c).cost_usd)),
            duration_ms: sum(common.iter().map(|c| pick(c).duration_ms)),
            tokens: sum(common.iter().map(|c| pick(c).tokens)),
        }
    };
    let distinct =
        |runs: &[RunRecord]| runs.iter().map(|r| r.run.as_str()).collect::<std::collections::BTreeSet<_>>().len();
    let (b, n) = (side(distinct(base), false), side(distinct(new), true));
    let empty = |t: &Totals| t.cost_usd.is_none() && t.duration_ms.is_none() && t.tokens.is_none();
    if empty(&b) && empty(&n) {
        return None;
    }
    let tests = common
        .iter()
        .filter_map(|&(key, fb, fa)| {
            let mut changed = Vec::new();
            if notable(fb.cost_usd, fa.cost_usd, 0.3, 0.05) {
                changed.push("cost");
            }
            if notable(fb.duration_ms, fa.duration_ms, 0.2, 5000.0) {
                changed.push("duration");
            }
            if notable(fb.tokens, fa.tokens, 0.2, 500.0) {
                changed.push("tokens");
            }
            (!changed.is_empty()).then(|| TestChange {
                model: key.0.to_string(),
                category: key.1.to_string(),
                id: key.2.to_string(),
                base: fb.clone(),
                new: fa.clone(),
                changed,
            })
        })
        .collect();
    Some(Efficiency { common: common.len(), base: b, new: n, tests })
}
