//! The converters as [`Writer`]s of the registry (`convert --to NAME`).

use evaltally_core::RunRecord;
use evaltally_format::{Input, Writer, Written};
use evaltally_gstack::Shape;
use evaltally_gstack::normalize::{self, Direction};
use evaltally_sfbench::detect::{Format as Detected, detect};
use evaltally_sfbench::migrate;

/// A gstack document given to a gstack writer: converted whole by gstack's own normalizer
/// (byte for byte what `normalizeFromLegacy` / `normalizeToLegacy` and `JSON.stringify(…,
/// null, 2)` give), or kept as it is when it already has the shape asked; `None` for other
/// documents.
fn gstack_document(file: &Input<'_>, target: Shape) -> Option<Result<Written, String>> {
    let text = std::str::from_utf8(file.bytes).ok()?;
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let shape = evaltally_gstack::detect(&value)?;
    if shape == target {
        let mut text = text.to_string();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        return Some(Ok(Written { text, lost: Vec::new() }));
    }
    let (direction, converted) = match target {
        Shape::Legacy => (Direction::ToLegacy, normalize::to_legacy_text(text)),
        Shape::Standard => (Direction::FromLegacy, normalize::from_legacy_text(text)),
    };
    let dropped = normalize::dropped(&value, direction);
    let lost = if dropped.is_empty() {
        Vec::new()
    } else {
        vec![format!("gstack's normalizer drops: {}", dropped.join(", "))]
    };
    Some(converted.map(|text| Written { text, lost }).map_err(|e| format!("gstack's normalizer refuses it: {e}")))
}

/// gstack's standard eval result.
#[derive(Debug, Clone, Copy)]
pub struct Gstack;

/// The one [`Gstack`] writer.
pub static GSTACK: Gstack = Gstack;

impl Writer for Gstack {
    fn name(&self) -> &'static str {
        "gstack"
    }

    fn describe(&self) -> &'static str {
        "gstack's standard eval result (schema_version 1)"
    }

    fn write(&self, run: &RunRecord) -> Result<Written, String> {
        Ok(crate::gstack::convert(run))
    }

    /// A legacy gstack file becomes what gstack's `normalizeFromLegacy` makes of it; a
    /// standard one is kept as it is.
    fn migrate(&self, file: &Input<'_>) -> Option<Result<Written, String>> {
        gstack_document(file, Shape::Standard)
    }
}

/// gstack's legacy `EvalResult`, as `gstack eval push` saves it.
#[derive(Debug, Clone, Copy)]
pub struct GstackLegacy;

/// The one [`GstackLegacy`] writer.
pub static GSTACK_LEGACY: GstackLegacy = GstackLegacy;

impl Writer for GstackLegacy {
    fn name(&self) -> &'static str {
        "gstack-legacy"
    }

    fn describe(&self) -> &'static str {
        "gstack's legacy EvalResult, the file `gstack eval push` saves (byte for byte)"
    }

    fn write(&self, run: &RunRecord) -> Result<Written, String> {
        let standard = crate::gstack::convert(run);
        let text = evaltally_gstack::normalize::to_legacy_text(&standard.text)
            .map_err(|e| format!("the converted gstack result could not be normalised: {e}"))?;
        Ok(Written { text, lost: standard.lost })
    }

    /// A standard gstack file becomes what gstack's `normalizeToLegacy` makes of it; a
    /// legacy one is kept as it is.
    fn migrate(&self, file: &Input<'_>) -> Option<Result<Written, String>> {
        gstack_document(file, Shape::Legacy)
    }
}

/// An SF-Bench v2 report; a v1 file given as it is is migrated whole.
#[derive(Debug, Clone, Copy)]
pub struct SfbenchV2;

/// The one [`SfbenchV2`] writer.
pub static SFBENCH_V2: SfbenchV2 = SfbenchV2;

impl Writer for SfbenchV2 {
    fn name(&self) -> &'static str {
        "sfbench-v2"
    }

    fn describe(&self) -> &'static str {
        "SF-Bench result report, schema v2 (v1 files are migrated whole)"
    }

    fn write(&self, run: &RunRecord) -> Result<Written, String> {
        Ok(crate::sfbench::convert(run))
    }

    /// An SF-Bench v1 file becomes the v2 report SF-Bench's own migration makes, which
    /// keeps more than a run holds; a v2 file is refused (there is nothing to convert).
    fn migrate(&self, file: &Input<'_>) -> Option<Result<Written, String>> {
        let doc: serde_json::Value = serde_json::from_slice(file.text_bytes()).ok()?;
        match detect(&doc) {
            Some(Detected::SfbenchV1 | Detected::SfbenchLegacyEvaluate | Detected::SfbenchEngineSummary) => {
                let Some(m) = migrate::migrate(&doc) else {
                    return Some(Err("not an SF-Bench v1 file".to_string()));
                };
                let mut text = migrate::to_json_pretty(&m.report);
                text.push('\n');
                let mut lost: Vec<String> = Vec::new();
                if !m.defaulted.is_empty() {
                    lost.push(format!("defaulted (not in the input): {}", m.defaulted.join(", ")));
                }
                lost.extend(m.notes.into_iter().map(|n| format!("note: {n}")));
                Some(Ok(Written { text, lost }))
            }
            Some(Detected::SfbenchV2) => Some(Err("already an SF-Bench v2 report".to_string())),
            _ => None,
        }
    }
}

/// A SWE-bench harness run report.
#[derive(Debug, Clone, Copy)]
pub struct Swebench;

/// The one [`Swebench`] writer.
pub static SWEBENCH: Swebench = Swebench;

impl Writer for Swebench {
    fn name(&self) -> &'static str {
        "swebench"
    }

    fn describe(&self) -> &'static str {
        "a SWE-bench harness run report"
    }

    fn write(&self, run: &RunRecord) -> Result<Written, String> {
        Ok(crate::swebench::convert(run))
    }
}
