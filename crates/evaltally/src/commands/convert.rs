//! `evaltally convert`.

use std::io::Write as _;

use evaltally_sfbench::detect::{Format as Detected, detect};
use evaltally_sfbench::migrate;

use crate::cli::{ConvertArgs, Target};
use crate::{Exit, UsageError, output};

/// A converted document and what the conversion could not carry over.
struct Converted {
    text: String,
    /// Fields given defaults (JSON paths), and fields dropped for want of a counterpart.
    defaulted: Vec<String>,
    notes: Vec<String>,
}

pub(crate) fn run(args: &ConvertArgs) -> anyhow::Result<Exit> {
    let path = args.input.display().to_string();
    let doc = output::read_json(&args.input)?;
    let converted = match (args.to, detect(&doc)) {
        (
            Target::SfbenchV2,
            Some(Detected::SfbenchV1 | Detected::SfbenchLegacyEvaluate | Detected::SfbenchEngineSummary),
        ) => {
            let m = migrate::migrate(&doc).ok_or_else(|| UsageError(format!("{path}: not an SF-Bench v1 file")))?;
            let mut text = migrate::to_json_pretty(&m.report);
            text.push('\n');
            Converted { text, defaulted: m.defaulted, notes: m.notes }
        }
        (Target::SfbenchV2, Some(Detected::SfbenchV2)) => {
            return Err(UsageError(format!("{path} is already an SF-Bench v2 report")).into());
        }
        (Target::SfbenchV2, other) => {
            return Err(UsageError(format!(
                "{path}: cannot convert {} to sfbench-v2; expected an SF-Bench v1 file",
                other.map_or("this file", Detected::name)
            ))
            .into());
        }
    };
    match &args.output {
        Some(out) => output::write_atomic(out, converted.text.as_bytes())?,
        None => output::print(&converted.text)?,
    }
    let mut err = std::io::stderr().lock();
    if !converted.defaulted.is_empty() {
        let _ = writeln!(err, "defaulted (not in the input): {}", converted.defaulted.join(", "));
    }
    for note in &converted.notes {
        let _ = writeln!(err, "note: {note}");
    }
    Ok(Exit::Ok)
}
