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
    let records = super::stability::records(&args.paths, &filter)?;
    let bytes = match args.format {
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
        Some(out) => output::write_atomic(out, &bytes)?,
        None => output::print(&String::from_utf8_lossy(&bytes))?,
    }
    output::report_diagnostics(&records.diagnostics);
    Ok(if records.diagnostics.iter().any(evaltally_core::Diagnostic::is_error) { Exit::Problems } else { Exit::Ok })
}
