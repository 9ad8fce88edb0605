//! `evaltally plan`.

use evaltally_analyzer::{plan, stability};
use evaltally_report::{Style, plan as render};

use crate::cli::{ColorChoice, Format, PlanArgs};
use crate::output;
use crate::{Exit, UsageError};

pub(crate) fn run(args: &PlanArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    if !(args.target_se.is_finite() && args.target_se > 0.0 && args.target_se < 1.0) {
        return Err(
            UsageError(format!("--target-se {}: give a standard error above 0 and below 1", args.target_se)).into()
        );
    }
    let filter = super::stability::filter(&args.read, args.models.clone(), args.categories.clone(), args.pool_models)?;
    let loaded = super::stability::load_runs(&args.paths, &filter, "plan")?;
    let report = plan::plan(&stability::analyze(&loaded.runs), args.target_se);
    let text = match args.format {
        Format::Text => render::text(&report, if output::use_color(color) { Style::colored() } else { Style::plain() }),
        Format::Json => render::json(&report, &loaded.diagnostics),
        Format::Markdown => render::markdown(&report, &loaded.diagnostics),
    };
    output::print(&text)?;
    output::report_diagnostics(&loaded.diagnostics);
    Ok(super::stability::exit_code(&loaded.diagnostics, args.strict, false))
}
