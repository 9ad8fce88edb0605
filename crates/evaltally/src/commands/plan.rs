//! `evaltally plan`.

use std::collections::BTreeMap;

use evaltally_analyzer::cost::{RunCost, by_model, per_run, run_cost};
use evaltally_analyzer::{load, plan, stability};
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
    if args.budget.is_some_and(|b| !(b.is_finite() && b >= 0.0)) {
        return Err(UsageError("--budget: give an amount of dollars, 0 or more".to_string()).into());
    }
    let filter = super::stability::filter(
        &args.read,
        args.select.models.clone(),
        args.select.categories.clone(),
        args.pool_models,
    )?;
    // The runs, and of their records what they cost (read from the same reading of each file).
    let (stored, files) = crate::store::split(&args.paths);
    let (mut loaded, mut costs) = if files.is_empty() {
        (evaltally_analyzer::Loaded::default(), Vec::new())
    } else {
        let (loaded, costs) =
            load::load_reduced(&files, &filter, &crate::progress::Bar::new(), crate::cache::get(), run_cost)
                .map_err(|e| super::stability::explain(&e))?;
        (loaded, costs.into_iter().map(|c| RunCost { run: c.run, model: c.model, ..c.value }).collect())
    };
    if !stored.is_empty() {
        load::add_runs(&mut loaded, crate::store::category_runs(&stored)?, &filter);
        let mut records = load::Records::default();
        load::add_records(&mut records, crate::store::records(&stored)?, &filter);
        costs.extend(records.runs.iter().map(run_cost));
    }
    let loaded = super::stability::something_to(loaded, &args.paths, "plan")?;
    let mut report = plan::plan(&stability::analyze(&loaded.runs), args.target_se);
    if let Some(target) = args.subset_error {
        if !(target.is_finite() && target > 0.0 && target < 1.0) {
            return Err(UsageError(format!("--subset-error {target}: give an error above 0 and below 1")).into());
        }
        let data = evaltally_analyzer::subset::Data::from_runs(&loaded.runs, false);
        report.subset = Some(evaltally_analyzer::subset::plan(&data, target).map_err(|e| UsageError(e.to_string()))?);
    }
    let usd_per_run: BTreeMap<String, f64> =
        by_model(&per_run(costs)).into_iter().filter_map(|m| Some((m.model, m.usd_per_run?))).collect();
    plan::with_costs(&mut report, &usd_per_run, args.budget);
    if args.budget.is_some() && usd_per_run.is_empty() {
        output::note("--budget: no run records a cost, so there is no price per run to spend it at");
    }
    let text = match args.format {
        Format::Text => render::text(&report, if output::use_color(color) { Style::colored() } else { Style::plain() }),
        Format::Json => render::json(&report, &loaded.diagnostics),
        Format::Markdown => render::markdown(&report, &loaded.diagnostics),
    };
    output::print(&text)?;
    output::report_diagnostics(&loaded.diagnostics);
    Ok(super::stability::exit_code(&loaded.diagnostics, args.strict, false))
}
