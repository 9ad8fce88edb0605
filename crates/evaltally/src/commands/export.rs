//! `evaltally export`.

use evaltally_convert::export;

use super::stability::explain;
use crate::cli::{ExportArgs, ExportFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &ExportArgs) -> anyhow::Result<Exit> {
    if let Some(out) = &args.output {
        output::refuse_overwriting_input(out, &args.paths)?;
    }
    let filter = super::stability::filter(&args.read, args.models.clone(), args.categories.clone(), false)?;
    let records = crate::cache::records(&args.paths, &filter).map_err(|e| explain(&e))?;
    let mut text = String::new();
    match args.format {
        ExportFormat::Jsonl => {
            for run in &records.runs {
                export::jsonl(run, &mut text);
            }
        }
    }
    match &args.output {
        Some(out) => output::write_atomic(out, text.as_bytes())?,
        None => output::print(&text)?,
    }
    output::report_diagnostics(&records.diagnostics);
    Ok(if records.diagnostics.iter().any(evaltally_core::Diagnostic::is_error) { Exit::Problems } else { Exit::Ok })
}
