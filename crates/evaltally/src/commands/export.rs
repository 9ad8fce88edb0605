//! `evaltally export`.

use evaltally_convert::export;

use crate::cli::{ExportArgs, ExportFormat};
use crate::{Exit, UsageError, output};

pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<Exit> {
    if let Some(out) = &args.output {
        output::refuse_overwriting_input(out, &args.paths)?;
    }
    let filter =
        super::stability::filter(&args.read, args.select.models.clone(), args.select.categories.clone(), false)?;
    let records =
        super::stability::some_records(super::stability::records(&args.paths, &filter)?, &args.paths, "export")?;
    let named_parquet = args.output.as_deref().is_some_and(|o| evaltally_format::has_extension(o, "parquet"));
    let format = args.format.unwrap_or(if named_parquet { ExportFormat::Parquet } else { ExportFormat::Jsonl });
    let bytes = match format {
        ExportFormat::Jsonl => {
            let mut text = String::new();
            for run in &records.runs {
                export::jsonl(run, &mut text);
            }
            text.into_bytes()
        }
        ExportFormat::Parquet => {
            let Some(out) = &args.output else {
                return Err(UsageError("--format parquet writes a binary file: give it with -o FILE".into()).into());
            };
            export::parquet(&records.runs)
                .map_err(|e| anyhow::anyhow!("cannot write Parquet for {}: {e}", output::shown(out)))?
        }
    };
    match &args.output {
        Some(out) => {
            output::write_atomic(out, &bytes)?;
            let rows: usize = records.runs.iter().map(|r| r.tests.len()).sum();
            let what = if format == ExportFormat::Parquet { "Parquet" } else { "JSON Lines" };
            output::print(&format!(
                "wrote {} ({what}): {rows} row{}, {} run{}\n",
                output::shown(out),
                if rows == 1 { "" } else { "s" },
                records.runs.len(),
                if records.runs.len() == 1 { "" } else { "s" }
            ))?;
        }
        None => output::print(&String::from_utf8_lossy(&bytes))?,
    }
    output::report_diagnostics(&records.diagnostics);
    Ok(if records.diagnostics.iter().any(evaltally_core::Diagnostic::is_error) { Exit::Problems } else { Exit::Ok })
}
