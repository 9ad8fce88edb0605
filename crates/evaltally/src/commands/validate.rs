//! `evaltally validate`.

use evaltally_analyzer::validate;
use evaltally_report::{Style, validate as render};

use super::stability::explain;
use crate::cli::{ColorChoice, ValidateArgs, ValidateFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &ValidateArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let forced = super::stability::forced(args.as_format.as_deref())?;
    let (stored, files) = crate::store::split(&args.paths);
    let mut validated = if files.is_empty() && !stored.is_empty() {
        validate::Validated::default()
    } else {
        validate::validate_cached(&files, args.strict, forced, crate::cache::get()).map_err(|e| explain(&e))?
    };
    let only_stored = files.is_empty() && !stored.is_empty();
    if !stored.is_empty() {
        validated.files.extend(stored_checks(&stored)?);
    }
    let text = match args.format {
        ValidateFormat::Text => {
            let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
            render::text(&validated.files, style, output::verbose())
        }
        ValidateFormat::Json => render::json(&validated.files),
    };
    // The count line says "files"; with stored runs alone, it counts runs.
    let text = match text.trim_end().rsplit_once('\n') {
        Some((head, last)) if only_stored && args.format == ValidateFormat::Text => {
            let n = validated.files.len();
            let last = last.replacen(
                &format!("{n} file{}:", if n == 1 { "" } else { "s" }),
                &format!("{n} stored run{}:", if n == 1 { "" } else { "s" }),
                1,
            );
            format!("{head}\n{last}\n")
        }
        _ => text,
    };
    output::print(&text)?;
    output::report_diagnostics(&validated.diagnostics);
    let read = |f: &evaltally_format::FileValidation| f.findings.is_empty() || f.notes().count() < f.findings.len();
    if !validated.files.is_empty() && !validated.files.iter().any(read) {
        // Files of a format that hold no runs (set aside, `skipped: …`) are no unknown format.
        let set_aside = validated.files.iter().all(|f| f.notes().all(|n| n.set_aside().is_some()));
        let why = if set_aside {
            "the files found hold no runs (see above)"
        } else {
            "no file found is in a format evaltally reads"
        };
        return Err(crate::UsageError(format!("nothing to check in {}: {why}", output::shown_all(&args.paths))).into());
    }
    let invalid = validated.files.iter().any(|f| !f.is_valid());
    let warned = validated.files.iter().any(|f| f.warnings().next().is_some());
    let unreadable = validated.diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    Ok(if invalid || unreadable || (args.strict && warned) { Exit::Problems } else { Exit::Ok })
}

/// What `validate` says of runs in the PostgreSQL store: each selected run, checked where it
/// is stored (`Store::check`: statuses known, no test twice, rows of the run's model, sane
/// numbers, categories and their scored flag agreeing), as one entry named
/// `store:RUN (MODEL, id N)`.
fn stored_checks(stored: &[&std::path::Path]) -> anyhow::Result<Vec<evaltally_format::FileValidation>> {
    let (mut store, runs) = crate::store::stored_runs(stored)?;
    let checks = store.check(&runs).map_err(crate::store::store_error)?;
    Ok(runs
        .iter()
        .zip(checks)
        .map(|(run, check)| {
            let rows = check.rows();
            let categories = check.counts.len();
            evaltally_format::FileValidation::new(
                std::path::Path::new(&format!("store:{} ({}, id {})", run.run, run.model, run.id)),
                &format!(
                    "stored {} run: {rows} test{}, {categories} categor{}",
                    run.format,
                    if rows == 1 { "" } else { "s" },
                    if categories == 1 { "y" } else { "ies" }
                ),
                check.findings,
            )
        })
        .collect())
}
