//! `evaltally stability`.

use std::path::{Path, PathBuf};

use anyhow::Context;
use evaltally_analyzer::{Filter, LoadError, Loaded, load, stability};
use evaltally_core::text::printable;
use evaltally_format::DiscoverError;
use evaltally_report::{Style, stability as render};

use crate::cli::{ColorChoice, ErrorsAs, Format, ReadArgs, StabilityArgs};
use crate::output;
use crate::progress::Bar;
use crate::{Exit, UsageError};

pub(crate) fn run(args: &StabilityArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let filter = filter(&args.read, args.models.clone(), args.categories.clone(), args.pool_models)?;
    let loaded = load_runs(&args.paths, &filter, "analyse")?;
    let cluster_by = match args.cluster_by {
        crate::cli::ClusterBy::Test => evaltally_analyzer::cluster::ClusterBy::Test,
        crate::cli::ClusterBy::Group => evaltally_analyzer::cluster::ClusterBy::Group,
    };
    let report = stability::analyze_with(&loaded.runs, stability::Settings { cluster_by });

    let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
    let options = render::Options { style, top_flaky: args.top_flaky };
    let text = match args.format {
        Format::Text => render::text(&report, options),
        Format::Json => render::json(&report, &loaded.diagnostics, options),
        Format::Markdown => render::markdown(&report, &loaded.diagnostics, options),
    };
    if let Some(dir) = &args.out {
        write_id_files(dir, &report, &args.paths)?;
    }
    output::print(&text)?;
    output::report_diagnostics(&loaded.diagnostics);

    let exit = exit_code(&loaded.diagnostics, args.strict, false);
    // The process ends next: freeing thousands of runs one allocation at a time would cost
    // more than analysing them (5% of the time at 1,000 JUnit reports), and the OS takes the
    // memory back at once.
    std::mem::forget(loaded);
    std::mem::forget(report);
    Ok(exit)
}

/// The runs below `paths`; nothing read at all is a usage error (`nothing to VERB in …`),
/// after the diagnostics that say why.
pub(crate) fn load_runs(paths: &[PathBuf], filter: &Filter, verb: &str) -> anyhow::Result<Loaded> {
    // `store:…` arguments left unresolved are runs of the PostgreSQL store.
    let (stored, files) = crate::store::split(paths);
    let mut loaded = if files.is_empty() {
        Loaded::default()
    } else {
        let loaded = load::load_cached(&files, filter, &Bar::new(), crate::cache::get()).map_err(|e| explain(&e))?;
        crate::cache::settle();
        loaded
    };
    if !stored.is_empty() {
        load::add_runs(&mut loaded, crate::store::category_runs(&stored)?, filter);
    }
    if loaded.runs.is_empty() {
        output::report_diagnostics(&loaded.diagnostics);
        return Err(UsageError(format!(
            "nothing to {verb} in {}: no result file could be read (see the warnings above)",
            output::shown_all(paths)
        ))
        .into());
    }
    Ok(loaded)
}

/// The exit code of an analysis: 1 when a file had errors, when there were warnings and
/// `strict`, or when `tripped` (`compare --fail-on`); else 0.
pub(crate) fn exit_code(diagnostics: &[evaltally_core::Diagnostic], strict: bool, tripped: bool) -> Exit {
    let errors = diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    let warnings = diagnostics.iter().any(|d| !d.is_error());
    if tripped || errors || (strict && warnings) { Exit::Problems } else { Exit::Ok }
}

/// Turns "nothing found" into a usage error that says where it looked and what it knows.
pub(crate) fn explain(err: &LoadError) -> anyhow::Error {
    match err {
        LoadError::Discover(DiscoverError::NothingFound { .. }) => {
            UsageError(format!("{err}\n\nevaltally reads:\n{}", load::registry().describe())).into()
        }
        _ => UsageError(err.to_string()).into(),
    }
}

/// The filter the command's models, categories and reading options make.
pub(crate) fn filter(
    read: &ReadArgs,
    models: Vec<String>,
    categories: Vec<String>,
    pool_models: bool,
) -> anyhow::Result<Filter> {
    if read.pass_threshold.is_some_and(|t| !t.is_finite()) {
        return Err(UsageError("--pass-threshold must be a number".to_string()).into());
    }
    Ok(Filter {
        models,
        categories,
        pool_models,
        include_partial: read.include_partial,
        forced: forced(read.as_format.as_deref())?,
        errors_as_failures: read.errors_as == ErrorsAs::Fail,
        scoring: evaltally_format::Scoring { pass_threshold: read.pass_threshold, scorer: read.scorer.clone() },
    })
}

/// The format `--as` names, checked against the registry (a usage error listing the known
/// names otherwise).
pub(crate) fn forced(name: Option<&str>) -> anyhow::Result<Option<&'static str>> {
    let Some(name) = name else { return Ok(None) };
    let registry = load::registry();
    match registry.find(name) {
        Some(format) => Ok(Some(format.name())),
        None => Err(UsageError(format!(
            "--as {name}: not a format evaltally knows; known: {}",
            registry.names().join(", ")
        ))
        .into()),
    }
}

/// Writes the id files of every model, after checking that none of them would replace a
/// file the command read.
fn write_id_files(dir: &Path, report: &stability::StabilityReport, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let several = report.models.len() > 1;
    let mut files = Vec::new();
    for model in &report.models {
        let target = if several { dir.join(output::folder_name(&model.model)) } else { dir.to_path_buf() };
        for (name, contents) in render::id_files(model) {
            let path = target.join(name);
            output::refuse_overwriting_input(&path, inputs)?;
            files.push((path, contents, &model.model));
        }
    }
    for (path, contents, model) in files {
        output::write_atomic(&path, contents.as_bytes())
            .with_context(|| format!("writing --out files for model {}", printable(model)))?;
    }
    Ok(())
}
