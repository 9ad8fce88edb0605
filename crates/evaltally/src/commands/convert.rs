//! `evaltally convert`.

use std::io::Write as _;

use evaltally_analyzer::{Filter, load};
use evaltally_convert::{Converted, gstack, sfbench, swebench};
use evaltally_core::RunRecord;
use evaltally_core::text::printable;
use evaltally_sfbench::detect::{Format as Detected, detect};
use evaltally_sfbench::migrate;

use super::stability::explain;
use crate::cli::{ConvertArgs, Target};
use crate::{Exit, UsageError, output};

pub(crate) fn run(args: &ConvertArgs) -> anyhow::Result<Exit> {
    if let Some(out) = &args.output {
        output::refuse_overwriting_input(out, std::slice::from_ref(&args.input))?;
    }
    let mut had_errors = false;
    let converted = if let Some(c) = v1_migration(args)? {
        c
    } else {
        let (run, errors) = pick_run(args)?;
        had_errors = errors;
        match args.to {
            Target::Gstack => gstack::convert(&run),
            Target::GstackLegacy => {
                let standard = gstack::convert(&run);
                let text = evaltally_gstack::normalize::to_legacy_text(&standard.text)
                    .map_err(|e| anyhow::anyhow!("the converted gstack result could not be normalised: {e}"))?;
                Converted { text, lost: standard.lost }
            }
            Target::Junit => {
                let unknown = run.tests.iter().filter(|t| t.duration_ms.is_none()).count();
                let lost = (unknown > 0)
                    .then(|| {
                        format!("duration of {unknown} test(s) unknown: written as time=\"0\", which reporters need")
                    })
                    .into_iter()
                    .collect();
                Converted { text: evaltally_junit::write(&run), lost }
            }
            Target::SfbenchV2 => sfbench::convert(&run),
            Target::Swebench => swebench::convert(&run),
        }
    };
    match &args.output {
        Some(out) => output::write_atomic(out, converted.text.as_bytes())?,
        None => output::print(&converted.text)?,
    }
    let mut err = std::io::stderr().lock();
    for line in &converted.lost {
        let _ = writeln!(err, "not carried over: {}", output::safe_lines(line));
    }
    // The run was converted, but files it came from had errors (parts left out): say so.
    Ok(if had_errors { Exit::Problems } else { Exit::Ok })
}

/// An SF-Bench v1 file converted to v2: the migration, which keeps more than a run does.
fn v1_migration(args: &ConvertArgs) -> anyhow::Result<Option<Converted>> {
    if args.to != Target::SfbenchV2 || !args.input.is_file() {
        return Ok(None);
    }
    let Ok(doc) = output::read_json(&args.input) else { return Ok(None) };
    match detect(&doc) {
        Some(Detected::SfbenchV1 | Detected::SfbenchLegacyEvaluate | Detected::SfbenchEngineSummary) => {
            let path = output::shown(&args.input);
            let m = migrate::migrate(&doc).ok_or_else(|| UsageError(format!("{path}: not an SF-Bench v1 file")))?;
            let mut text = migrate::to_json_pretty(&m.report);
            text.push('\n');
            let mut lost: Vec<String> = Vec::new();
            if !m.defaulted.is_empty() {
                lost.push(format!("defaulted (not in the input): {}", m.defaulted.join(", ")));
            }
            lost.extend(m.notes.into_iter().map(|n| format!("note: {n}")));
            Ok(Some(Converted { text, lost }))
        }
        Some(Detected::SfbenchV2) => {
            Err(UsageError(format!("{} is already an SF-Bench v2 report", output::shown(&args.input))).into())
        }
        _ => Ok(None),
    }
}

/// The one run of IN that `--model` and `--run` select, and whether reading IN gave errors.
fn pick_run(args: &ConvertArgs) -> anyhow::Result<(RunRecord, bool)> {
    let filter = Filter {
        models: args.model.iter().cloned().collect(),
        include_partial: args.include_partial,
        forced: super::stability::forced(args.as_format.as_deref())?,
        ..Filter::default()
    };
    let records = load::records(std::slice::from_ref(&args.input), &filter).map_err(|e| explain(&e))?;
    output::report_diagnostics(&records.diagnostics);
    let errors = records.diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    let mut runs: Vec<RunRecord> =
        records.runs.into_iter().filter(|r| args.run.as_ref().is_none_or(|name| &r.run == name)).collect();
    match runs.len() {
        1 => Ok((runs.remove(0), errors)),
        0 => Err(UsageError(format!("no run to convert in {}", output::shown(&args.input))).into()),
        n => {
            let names: Vec<String> =
                runs.iter().map(|r| format!("{} ({})", printable(&r.run), printable(&r.model))).collect();
            Err(UsageError(format!(
                "{} holds {n} runs: {}; pick one with --run NAME and --model M",
                output::shown(&args.input),
                names.join(", ")
            ))
            .into())
        }
    }
}
