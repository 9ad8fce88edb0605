//! `evaltally subset` and `evaltally estimate`.

use std::path::Path;

use evaltally_analyzer::subset::{self, Data, ModelEstimate, Subset};
use evaltally_core::CategoryRun;
use evaltally_core::text::printable;
use evaltally_report::subset as render;

use crate::cli::{EstimateArgs, FitFormat, SubsetArgs};
use crate::{Exit, UsageError, output};

/// `subset`: fits, and writes the subset (`-o`) or says how well it predicts (`--check`).
pub(crate) fn fit(args: &SubsetArgs) -> anyhow::Result<Exit> {
    let filter =
        super::stability::filter(&args.read, args.select.models.clone(), args.select.categories.clone(), false)?;
    let loaded = super::stability::load_runs(&args.paths, &filter, "fit a subset on")?;
    let data = Data::from_runs(&loaded.runs, false);
    if let Some(out) = &args.output {
        output::refuse_overwriting_input(out, &args.paths)?;
    }
    let too_little = |e: subset::SubsetError| UsageError(e.to_string());
    let text = if args.check {
        // One fit per model left out: a minute or more on dozens of models; said at a
        // terminal, so that it does not look stuck.
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            output::note("leaving each model out in turn, one fit each, beside random subsets: this takes a while");
        }
        let check = subset::check(&data, args.size()).map_err(too_little)?;
        match args.format {
            FitFormat::Json => render::check_json(&check, &loaded.diagnostics),
            FitFormat::Text => render::check_text(&check),
        }
    } else {
        String::new()
    };
    if args.output.is_some() || !args.check {
        let built = Subset::build(&data, args.size()).map_err(too_little)?;
        let mut json = serde_json::to_string_pretty(&built)?;
        json.push('\n');
        let shown = args.output.as_deref().map(output::shown);
        if let Some(out) = &args.output {
            output::write_atomic(out, json.as_bytes())?;
        }
        match (args.format, args.check) {
            (FitFormat::Json, false) if args.output.is_none() => output::print(&json)?,
            (_, false) => output::print(&render::fitted_text(&built, shown.as_deref()))?,
            (_, true) => {}
        }
    }
    if args.check {
        output::print(&text)?;
    }
    output::report_diagnostics(&loaded.diagnostics);
    Ok(super::stability::exit_code(&loaded.diagnostics, args.strict, false))
}

/// The subset file `evaltally subset -o` wrote (`estimate`, `report` and `serve` take it).
pub(crate) fn read(path: &Path) -> Result<Subset, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("cannot read the subset file {}: {e}", output::shown(path))))?;
    let subset: Subset = serde_json::from_str(&text)
        .map_err(|e| output::json_error(path, &e, "not a subset file `evaltally subset -o` writes"))?;
    subset.check_consistency().map_err(|e| UsageError(format!("{}: {e}", output::shown(path))))?;
    Ok(subset)
}

/// Each model's estimated full score for `report --subset`: none when no model ran an
/// anchor (said in a note).
pub(crate) fn estimates_for(
    subset: &Subset,
    runs: &[CategoryRun],
    pooled: bool,
) -> Result<Vec<ModelEstimate>, UsageError> {
    let estimates = subset.estimate(runs, pooled).map_err(|e| UsageError(e.to_string()))?;
    if estimates.is_empty() {
        output::note(&format!("no run holds a test of the subset's {} anchors: no estimate", subset.anchors.len()));
    }
    Ok(estimates)
}

/// `estimate`: each model's full score from its runs of the subset's anchors.
pub(crate) fn estimate(args: &EstimateArgs) -> anyhow::Result<Exit> {
    let subset = read(&args.subset)?;
    let filter =
        super::stability::filter(&args.read, args.select.models.clone(), args.select.categories.clone(), false)?;
    let loaded = super::stability::load_runs(&args.paths, &filter, "estimate")?;
    let estimates = subset.estimate(&loaded.runs, false).map_err(|e| UsageError(e.to_string()))?;
    if estimates.is_empty() {
        output::report_diagnostics(&loaded.diagnostics);
        return Err(UsageError(format!(
            "no run in {} holds a test of the subset's {} anchors",
            output::shown_all(&args.paths),
            subset.anchors.len()
        ))
        .into());
    }
    let out = match args.format {
        FitFormat::Json => render::estimate_json(&subset, &estimates, &loaded.diagnostics),
        FitFormat::Text => render::estimate_text(&estimates, args.detail),
    };
    output::print(&out)?;
    let mut unmatched: Vec<&str> = loaded.runs.iter().map(|r| r.model.as_str()).collect();
    unmatched.sort_unstable();
    unmatched.dedup();
    unmatched.retain(|m| !estimates.iter().any(|e| e.model == *m));
    if !unmatched.is_empty() {
        output::note(&format!(
            "no estimate for {}: their runs hold none of the subset's tests",
            unmatched.iter().map(|m| format!("`{}`", printable(m))).collect::<Vec<_>>().join(", ")
        ));
    }
    output::report_diagnostics(&loaded.diagnostics);
    Ok(super::stability::exit_code(&loaded.diagnostics, args.strict, false))
}
