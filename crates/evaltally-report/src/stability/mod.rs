//! The stability report: text ([`text`]), Markdown ([`markdown`]), JSON ([`json`]) and the
//! per-class id files ([`id_files`]).

mod markdown;
mod text;

use std::collections::BTreeMap;

use evaltally_analyzer::stability::{self, CategoryStability, ModelStability, StabilityReport, TestStability};
use evaltally_core::Diagnostic;
use serde::Serialize;

pub use markdown::markdown;
pub use text::text;

use crate::Style;

/// What to render besides the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Colours for text output.
    pub style: Style,
    /// List this many least stable tests per model (0: none).
    pub top_flaky: usize,
}

/// The JSON document `evaltally stability --format json` prints.
#[derive(Debug, Serialize)]
pub struct Document<'a> {
    /// Per-model stability.
    pub models: Vec<ModelDocument<'a>>,
    /// Warnings: what was tolerated.
    pub warnings: Vec<&'a Diagnostic>,
    /// Errors: what could not be read and was left out.
    pub errors: Vec<&'a Diagnostic>,
}

/// One model in the JSON document: its stability, plus the least stable tests when asked.
#[derive(Debug, Serialize)]
pub struct ModelDocument<'a> {
    /// The model's stability.
    #[serde(flatten)]
    pub stability: &'a ModelStability,
    /// The least stable tests, most unstable first (only with `--top-flaky`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub top_flaky: Vec<FlakyTest<'a>>,
}

/// One entry of the least-stable list.
#[derive(Debug, Serialize)]
pub struct FlakyTest<'a> {
    /// Its category.
    pub category: &'a str,
    /// The test.
    #[serde(flatten)]
    pub test: &'a TestStability,
}

fn top_flaky(model: &ModelStability, n: usize) -> Vec<FlakyTest<'_>> {
    stability::top_flaky(model, n).into_iter().map(|(c, test)| FlakyTest { category: &c.category, test }).collect()
}

/// Builds the JSON document.
pub fn document<'a>(report: &'a StabilityReport, diagnostics: &'a [Diagnostic], options: Options) -> Document<'a> {
    Document {
        models: report
            .models
            .iter()
            .map(|m| ModelDocument { stability: m, top_flaky: top_flaky(m, options.top_flaky) })
            .collect(),
        warnings: crate::warnings(diagnostics),
        errors: crate::errors(diagnostics),
    }
}

/// The JSON document as pretty-printed text with a final newline.
pub fn json(report: &StabilityReport, diagnostics: &[Diagnostic], options: Options) -> String {
    crate::pretty_json(&document(report, diagnostics, options))
}

/// The per-class id files for one model: (file name, JSON text) for
/// `stable_tests.json`, `flaky_tests.json` and `failing_tests.json`, each
/// `{category: [ids in natural order]}` with empty lists kept.
pub fn id_files(model: &ModelStability) -> [(&'static str, String); 3] {
    let file = |pick: fn(&CategoryStability) -> &Vec<String>| {
        let map: BTreeMap<&str, &Vec<String>> =
            model.categories.iter().map(|c| (c.category.as_str(), pick(c))).collect();
        let mut s = serde_json::to_string_pretty(&map).unwrap_or_default();
        s.push('\n');
        s
    };
    [
        ("stable_tests.json", file(|c| &c.ids.stable_pass)),
        ("flaky_tests.json", file(|c| &c.ids.flaky)),
        ("failing_tests.json", file(|c| &c.ids.stable_fail)),
    ]
}

/// "1 run" / "3 runs".
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The k values shown in text and Markdown (JSON has them all).
const SHOWN_K: [usize; 3] = [1, 3, 5];

/// A pass^k / pass@k value as a percentage, or `-` when k exceeds the runs.
fn k_cell(values: &[Option<f64>], k: usize) -> String {
    match values.get(k - 1).copied().flatten() {
        Some(v) => format!("{:.1}%", 100.0 * v),
        None => "-".to_string(),
    }
}
