//! `evaltally trend`.

use evaltally_analyzer::trend::{self, TrendOptions, TrendStatus};
use evaltally_report::{Style, trend as render};

use super::stability::{exit_code, load_runs};
use crate::cli::{ColorChoice, Format, TrendArgs};
use crate::{Exit, output};

pub(crate) fn run(args: &TrendArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let filter =
        super::stability::filter(&args.read, args.select.models.clone(), args.select.categories.clone(), false)?;
    let loaded = load_runs(&args.paths, &filter, "analyse")?;
    let options = TrendOptions { limit: args.limit, branch: args.branch.clone(), tier: args.tier.clone() };
    let mut report = trend::analyze(&loaded.runs, &options);
    let statuses: Vec<TrendStatus> = args.status.iter().filter_map(|s| TrendStatus::parse(s)).collect();
    for model in &mut report.models {
        model.tests.retain(|t| {
            args.test.as_ref().is_none_or(|want| t.id.contains(want.as_str()))
                && (statuses.is_empty() || statuses.contains(&t.status))
        });
    }
    let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
    // Asked for statuses, or for all: every test kept is listed.
    let every = args.all || !statuses.is_empty();
    let text = match args.format {
        Format::Text => render::text(&report, style, every),
        Format::Json => render::json(&report, &loaded.diagnostics),
        Format::Markdown => render::markdown(&report, &loaded.diagnostics, every),
    };
    output::print(&text)?;
    output::report_diagnostics(&loaded.diagnostics);
    Ok(exit_code(&loaded.diagnostics, args.strict, false))
}
