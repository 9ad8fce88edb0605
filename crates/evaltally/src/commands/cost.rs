//! `evaltally cost`.

use evaltally_analyzer::cost::{per_run, run_cost};
use evaltally_report::{Style, cost as render};

use super::stability::exit_code;
use crate::cli::{ColorChoice, CostArgs, Format};
use crate::{Exit, output};

pub(crate) fn run(args: &CostArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let filter = super::stability::filter(&args.read, args.models.clone(), Vec::new(), false)?;
    let records =
        super::stability::some_records(super::stability::records(&args.paths, &filter)?, &args.paths, "read")?;
    let runs = per_run(records.runs.iter().map(run_cost).collect());
    let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
    let text = match args.format {
        Format::Text => render::text(&runs, style, args.detail),
        Format::Json => render::json(&runs, &records.diagnostics),
        Format::Markdown => render::markdown(&runs, &records.diagnostics, args.detail),
    };
    output::print(&text)?;
    output::report_diagnostics(&records.diagnostics);
    Ok(exit_code(&records.diagnostics, false, false))
}
