//! The comparison report: text ([`text`]), Markdown ([`markdown`]) and JSON ([`json`]).

mod efficiency;
mod markdown;
mod text;

use std::borrow::Cow;
use std::collections::BTreeMap;

use evaltally_analyzer::compare::{CompareReport, Mode, ModelCompare, Summary};
use evaltally_core::Diagnostic;
use evaltally_core::schema::SchemaId;
use evaltally_core::text::printable;
use serde::Serialize;

pub use markdown::markdown;
pub use text::text;

/// The identifier of [`Document`], `evaltally.compare/1`.
pub const SCHEMA: SchemaId = SchemaId::new("compare", 1);

/// The JSON document `evaltally compare --format json` prints: per model and category, the
/// pass rates of both sides, the tests that regressed and improved, and whether the change
/// is more than run-to-run noise.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Document<'a> {
    /// The document's name and version, [`SCHEMA`].
    pub schema: SchemaId,
    /// Single runs or groups.
    pub mode: Mode,
    /// Base runs.
    pub base_runs: &'a [String],
    /// New runs.
    pub new_runs: &'a [String],
    /// What each run records about itself, by run name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub run_meta: &'a BTreeMap<String, std::sync::Arc<evaltally_core::RunMeta>>,
    /// The effect size and correction the verdicts were decided with.
    pub settings: evaltally_analyzer::compare::Settings,
    /// Per-model comparison.
    pub models: &'a [ModelCompare],
    /// Cost, duration and token deltas, where the runs record them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub efficiency: Option<&'a evaltally_analyzer::efficiency::Efficiency>,
    /// What the gates given decided (`--fail-on`, `--require-conclusive`), when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gate: Option<&'a Gate>,
    /// What reading the files said: warnings, errors and the files not read.
    #[serde(flatten)]
    pub diagnostics: crate::Listed<'a>,
}

/// What `compare`'s gates decided, for a script that reads the JSON rather than the exit
/// code.
#[derive(Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Gate {
    /// `--fail-on`: `regressions` or `significant`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<&'static str>,
    /// Whether the `--fail-on` gate tripped.
    pub tripped: bool,
    /// `--require-conclusive` was given.
    pub require_conclusive: bool,
    /// Whether a model's overall or category verdict is inconclusive.
    pub inconclusive: bool,
    /// Regressions `--known-flaky` let through, as `model / category / id`.
    pub excused: Vec<String>,
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(report: &CompareReport, diagnostics: &[Diagnostic]) -> String {
    json_with_gate(report, diagnostics, None)
}

/// [`json`], with what the gates decided.
pub fn json_with_gate(report: &CompareReport, diagnostics: &[Diagnostic], gate: Option<&Gate>) -> String {
    let doc = Document {
        schema: SCHEMA,
        mode: report.mode,
        base_runs: &report.base_runs,
        new_runs: &report.new_runs,
        run_meta: &report.run_meta,
        settings: report.settings,
        models: &report.models,
        efficiency: report.efficiency.as_ref(),
        gate,
        diagnostics: crate::Listed::of(diagnostics),
    };
    crate::pretty_json(&doc)
}

/// "v0.11.0" for one run, "3 runs (a, b, c)" for a group; names shown with [`printable`].
fn side_name(runs: &[String]) -> String {
    match runs {
        [one] => printable(one).into_owned(),
        [] => "no runs".to_string(),
        many => format!("{} runs ({})", many.len(), crate::run_list(many)),
    }
}

/// A count, or a mean with one decimal when it is not whole.
fn num(x: f64) -> String {
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn signed(n: i64) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

/// A p-value for a table cell.
fn p_cell(p: f64) -> String {
    if p < 0.001 { "<0.001".to_string() } else { format!("{p:.3}") }
}

/// A p-value in a sentence.
fn p_text(p: f64) -> String {
    if p < 0.001 { format!("{p:.1e}") } else { format!("{p:.3}") }
}

/// `a 3, b 1` sorted by count, then name; each name shown with `show`.
fn by_count(map: &BTreeMap<String, usize>, show: fn(&str) -> Cow<'_, str>) -> String {
    let mut items: Vec<(&String, &usize)> = map.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    items.iter().map(|(k, v)| format!("{} {v}", show(k))).collect::<Vec<_>>().join(", ")
}

/// What the verdicts mean, with the effect size and correction used.
fn legend(report: &CompareReport) -> String {
    let s = report.settings;
    let correction = match s.correction {
        evaltally_analyzer::compare::Correction::Holm => "Holm-adjusted across each model's categories",
        evaltally_analyzer::compare::Correction::BenjaminiHochberg => {
            "Benjamini-Hochberg-adjusted across each model's categories"
        }
        evaltally_analyzer::compare::Correction::None => "not corrected across categories",
    };
    let tests = match (report.mode, s.test_correction) {
        (evaltally_analyzer::compare::Mode::Runs, _) => String::new(),
        (_, c) => format!(
            "; per test: Fisher's exact test of its pass rates, p-values {} across the comparison's tests, regressed \
             or improved below 0.05",
            match c {
                evaltally_analyzer::compare::Correction::Holm => "Holm-adjusted",
                evaltally_analyzer::compare::Correction::BenjaminiHochberg => "Benjamini-Hochberg-adjusted",
                evaltally_analyzer::compare::Correction::None => "not corrected",
            }
        ),
    };
    format!(
        "verdicts: regression/improvement when the p-value, {correction}, is below 0.05 (* marks them; \
         the p-values shown are each category's own); no change when a \
         {:.1}-point change would have been detected (MDE, 80% power) and the 95% interval stays within \
         ±{:.1} points; otherwise inconclusive (--effect){tests}",
        100.0 * s.effect,
        100.0 * s.effect
    )
}

/// BFCL's overall score on both sides and its change, in a sentence.
fn bfcl_sentence(b: &evaltally_analyzer::bfcl_score::BfclChange) -> String {
    let interval = match b.interval {
        Some([lo, hi]) => format!(" [{:+.1}, {:+.1}]", 100.0 * lo, 100.0 * hi),
        None => String::new(),
    };
    let p = b.p_value.map_or_else(String::new, |p| format!(", p = {}", p_text(p)));
    let missing = if b.missing.is_empty() {
        String::new()
    } else {
        format!(" ({} scoring categories not compared, 0 on both sides as BFCL counts them)", b.missing.len())
    };
    format!(
        "BFCL overall score{missing}: {} → {}; change on common tests {:+.1} points{interval}{p}",
        percent(b.base),
        percent(b.new),
        100.0 * b.difference
    )
}

/// The sentence with rates, intervals, difference and p-value.
fn statistics(s: &Summary, mode: Mode) -> String {
    let which = if mode == Mode::Groups { "mean pass rate" } else { "pass rate" };
    let rate = |r: f64, w: Option<[f64; 2]>, total: f64| match w {
        _ if total == 0.0 => "- (none judged)".to_string(),
        Some([lo, hi]) => format!("{} [{}, {}]", percent(r), percent(lo), percent(hi)),
        None => percent(r),
    };
    let diff = match s.difference_interval {
        Some([lo, hi]) => format!("{:+.1} points [{:+.1}, {:+.1}]", 100.0 * s.difference, 100.0 * lo, 100.0 * hi),
        None => format!("{:+.1} points", 100.0 * s.difference),
    };
    if s.common == 0 {
        return format!(
            "{which} {} → {}; no common tests",
            rate(s.base_rate, s.base_wilson, s.base_total),
            rate(s.new_rate, s.new_wilson, s.new_total)
        );
    }
    let adjusted = if (s.p_adjusted - s.p_value).abs() < 1e-15 {
        String::new()
    } else {
        format!(", {} adjusted", p_text(s.p_adjusted))
    };
    let verdict = if s.significant {
        format!("p = {}{adjusted} ({}): more than noise at 0.05", p_text(s.p_value), s.test)
    } else {
        format!("p = {}{adjusted} ({}): within noise at 0.05", p_text(s.p_value), s.test)
    };
    let power = match (s.se_difference, s.mde) {
        (Some(se), Some(mde)) => {
            format!("; paired SE {:.1} points, MDE {:.1} points: {}", 100.0 * se, 100.0 * mde, s.verdict.as_str())
        }
        _ => format!("; {}", s.verdict.as_str()),
    };
    format!(
        "{which} {} → {}; change on common tests {diff}; {verdict}{power}",
        rate(s.base_rate, s.base_wilson, s.base_total),
        rate(s.new_rate, s.new_wilson, s.new_total)
    )
}
