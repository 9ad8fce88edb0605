//! `evaltally convert`.

use std::io::Write as _;

use evaltally_analyzer::load;
use std::path::Path;

use evaltally_core::text::{first_of, printable};
use evaltally_core::{Outcome, RunRecord};
use evaltally_format::{Input, Writer, Written};

use crate::cli::ConvertArgs;
use crate::{Exit, UsageError, output};

pub(crate) fn run(args: &ConvertArgs) -> anyhow::Result<Exit> {
    if let Some(out) = &args.output {
        output::refuse_overwriting_input(out, std::slice::from_ref(&args.input))?;
    }
    let writer = load::registry()
        .writer(&args.to)
        .ok_or_else(|| UsageError(format!("--to {}: not a format evaltally writes", printable(&args.to))))?;
    let (converted, had_errors, judged) = if let Some(written) = migration(writer, &args.input)? {
        (written, false, true)
    } else {
        let (run, had_errors) = pick_run(args)?;
        let judged =
            run.tests.iter().any(|t| matches!(t.outcome, Some(Outcome::Pass | Outcome::Fail | Outcome::Errored)));
        (writer.write(&run).map_err(|e| anyhow::anyhow!(e))?, had_errors, judged)
    };
    match &args.output {
        Some(out) => {
            output::write_atomic(out, converted.text.as_bytes())?;
            output::print(&format!("wrote {} ({})\n", output::shown(out), printable(&args.to)))?;
        }
        None => output::print(&converted.text)?,
    }
    let mut err = std::io::stderr().lock();
    if !converted.lost.is_empty() {
        let _ = writeln!(
            err,
            "note: {} between the run and its {} output:",
            if converted.lost.len() == 1 {
                "1 difference".to_string()
            } else {
                format!("{} differences", converted.lost.len())
            },
            printable(&args.to)
        );
        for line in &converted.lost {
            let line = line.strip_prefix("note: ").unwrap_or(line);
            let _ = writeln!(err, "  {}", output::safe_lines(line));
        }
    }
    if !judged {
        let _ = writeln!(
            err,
            "warning: the run has no test judged pass, fail or errored: the {} output says nothing of its outcomes",
            printable(&args.to)
        );
    }
    // The run was converted, but files it came from had errors (parts left out), or nothing
    // it judged: say so.
    Ok(if had_errors || !judged { Exit::Problems } else { Exit::Ok })
}

/// A file the writer converts whole (an SF-Bench v1 report to v2, which keeps more than a
/// run does), when IN is one.
fn migration(writer: &dyn Writer, input: &Path) -> anyhow::Result<Option<Written>> {
    if !input.is_file() {
        return Ok(None);
    }
    let Ok(bytes) = std::fs::read(input) else { return Ok(None) };
    match writer.migrate(&Input::new(input, &bytes, true)) {
        Some(Ok(written)) => Ok(Some(written)),
        Some(Err(why)) => Err(UsageError(format!("{}: {why}", output::shown(input))).into()),
        None => Ok(None),
    }
}

/// The one run of IN that `--model` and `--run` select, and whether reading IN gave errors.
fn pick_run(args: &ConvertArgs) -> anyhow::Result<(RunRecord, bool)> {
    let filter = super::stability::filter(&args.read, args.model.iter().cloned().collect(), Vec::new(), false)?;
    let records = super::stability::records(std::slice::from_ref(&args.input), &filter)?;
    output::report_diagnostics(&records.diagnostics);
    let errors = records.diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    let mut runs: Vec<RunRecord> =
        records.runs.into_iter().filter(|r| args.run.as_ref().is_none_or(|name| &r.run == name)).collect();
    match runs.len() {
        1 => Ok((runs.remove(0), errors)),
        0 => {
            // A --run that names none: the runs there are.
            let all = super::stability::records(std::slice::from_ref(&args.input), &filter)?.runs;
            let mut names: Vec<String> = all.iter().map(|r| printable(&r.run).into_owned()).collect();
            names.dedup();
            let there = if args.run.is_some() && !names.is_empty() {
                format!("; its runs: {}", first_of(&names, 6))
            } else {
                String::new()
            };
            Err(UsageError(format!("no run to convert in {}{there}", output::shown(&args.input))).into())
        }
        n => {
            // Each name once, with how many runs share it (lm-eval: one per task file).
            let mut counted: Vec<(String, usize)> = Vec::new();
            for r in &runs {
                let name = format!("{} ({})", printable(&r.run), printable(&r.model));
                match counted.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, k)) => *k += 1,
                    None => counted.push((name, 1)),
                }
            }
            let names: Vec<String> =
                counted.into_iter().map(|(n, k)| if k > 1 { format!("{n} ×{k}") } else { n }).collect();
            // Only what tells the runs apart is asked for.
            let models: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.model.as_str()).collect();
            let names_of_runs: std::collections::BTreeSet<&str> = runs.iter().map(|r| r.run.as_str()).collect();
            let pick = match (models.len() > 1, names_of_runs.len() > 1) {
                (true, true) => "--run NAME and --model M",
                (true, false) => "--model M",
                (false, true) => "--run NAME",
                (false, false) => {
                    // One name and one model: the runs are files of their own (lm-eval's
                    // samples files, one per task), and only the file tells them apart.
                    let mut files: Vec<String> = runs.iter().map(|r| output::shown(&r.source)).collect();
                    files.dedup();
                    return Err(UsageError(format!(
                        "{} holds {n} runs named {} of {}, each from a file of its own: {}; give one of those files as IN",
                        output::shown(&args.input),
                        printable(&runs[0].run),
                        printable(&runs[0].model),
                        first_of(&files, 3)
                    ))
                    .into());
                }
            };
            Err(UsageError(format!(
                "{} holds {n} runs: {}; pick one with {pick}",
                output::shown(&args.input),
                first_of(&names, 6)
            ))
            .into())
        }
    }
}
