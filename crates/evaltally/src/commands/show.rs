//! `evaltally show`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use evaltally_analyzer::load;
use evaltally_core::Status;
use evaltally_core::text::printable;
use evaltally_report::{Style, show as render};

use super::stability::explain;
use crate::cli::{ColorChoice, ShowArgs, ShowFormat};
use crate::output;
use crate::{Exit, UsageError};

pub(crate) fn run(args: &ShowArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let usage = "give the runs, then the test id: evaltally show PATH... TEST_ID";
    let Some((id, paths)) = args.args.split_last().filter(|(_, paths)| !paths.is_empty()) else {
        return Err(UsageError(usage.into()).into());
    };
    // The id given first (`show TEST_ID PATH`): said as such, not as a missing file.
    if std::path::Path::new(id).exists()
        && let Some(missing) = paths.iter().find(|p| !p.starts_with("store:") && !std::path::Path::new(p).exists())
    {
        return Err(UsageError(format!(
            "`{}` is no file or folder, and the test id comes last; {usage}",
            printable(missing)
        ))
        .into());
    }
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let filter = super::stability::filter(&args.read, args.models.clone(), args.categories.clone(), false)?;
    let (stored, files) = crate::store::split(&paths);
    let mut shown = if files.is_empty() && !stored.is_empty() {
        load::Shown::default()
    } else {
        load::show(&files, id, &filter).map_err(|e| explain(&e))?
    };
    if !stored.is_empty() {
        add_stored(&mut shown, crate::store::test_details(&stored, id)?, &filter);
    }
    if shown.details.iter().all(|d| d.status == Status::NotRun) {
        output::report_diagnostics(&shown.diagnostics);
        let near = if files.is_empty() { Vec::new() } else { near_ids(&files, id, &filter) };
        let near = match near.as_slice() {
            [] => String::new(),
            [one] => format!("; did you mean `{}`?", printable(one)),
            more => format!(
                "; ids like it: {}",
                more.iter().map(|i| format!("`{}`", printable(i))).collect::<Vec<_>>().join(", ")
            ),
        };
        return Err(UsageError(format!(
            "test `{}` is in none of the runs in {}{near}",
            printable(id),
            output::shown_all(&paths)
        ))
        .into());
    }
    if let Some(run) = &args.run
        && !shown.details.iter().any(|d| &d.run == run)
    {
        let mut runs: Vec<&str> = shown.details.iter().map(|d| d.run.as_str()).collect();
        runs.sort_by(|a, b| evaltally_core::id::natural_str_cmp(a, b));
        runs.dedup();
        let runs: Vec<_> = runs.into_iter().map(printable).collect();
        return Err(UsageError(format!(
            "no run `{}` holds `{}`; runs: {}",
            printable(run),
            printable(id),
            runs.join(", ")
        ))
        .into());
    }
    let text = match args.format {
        ShowFormat::Text => {
            let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
            render::text(&shown.details, args.run.as_deref(), style)
        }
        ShowFormat::Json => render::json(id, &shown.details, &shown.diagnostics),
    };
    output::print(&text)?;
    if !stored.is_empty() && args.format == ShowFormat::Text {
        output::note(
            "runs of the PostgreSQL store keep outcomes, errors, tokens and latency; prompts and answers \
             stay in the pushed files (`evaltally show PATH TEST_ID` on them)",
        );
    }
    output::report_diagnostics(&shown.diagnostics);
    Ok(if shown.diagnostics.iter().any(evaltally_core::Diagnostic::is_error) { Exit::Problems } else { Exit::Ok })
}

/// Up to three ids of the tests the runs below `files` hold that look like `id`, most alike
/// first: another case, a typo, a prefix left out (`simple_99` for `simple_python_99`). Only
/// ids with the same numbers are named: `django-11729` for `django-11728` would be another
/// test, not the one meant. Read through the digest cache, so a second look costs little;
/// nothing when the runs cannot be read.
fn near_ids(files: &[PathBuf], id: &str, filter: &load::Filter) -> Vec<String> {
    /// How alike two ids must be (Jaro–Winkler, 1 the same) to be named.
    const ALIKE: f64 = 0.8;
    let numbers = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty()).map(str::to_string).collect()
    };
    let Ok(loaded) = load::load_cached(files, filter, &evaltally_analyzer::NoProgress, crate::cache::get()) else {
        return Vec::new();
    };
    let ids: BTreeSet<&str> = loaded.runs.iter().flat_map(|r| r.tests().map(|t| t.id)).collect();
    let (wanted, digits) = (id.to_lowercase(), numbers(id));
    let mut scored: Vec<(f64, &str)> = ids
        .into_iter()
        .filter(|candidate| numbers(candidate) == digits)
        .map(|candidate| (strsim::jaro_winkler(&wanted, &candidate.to_lowercase()), candidate))
        .filter(|(alike, _)| *alike >= ALIKE)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| evaltally_core::id::natural_str_cmp(a.1, b.1)));
    scored.into_iter().take(3).map(|(_, i)| i.to_string()).collect()
}

/// Adds the details of runs read from the PostgreSQL store, kept and counted as `load::show`
/// keeps those it reads (filters, `--errors-as fail`, models that never listed the test left
/// out), in its order.
pub(crate) fn add_stored(shown: &mut load::Shown, details: Vec<evaltally_core::TestDetail>, filter: &load::Filter) {
    let keeps = |model: &str, category: &str| {
        (filter.models.is_empty() || filter.models.iter().any(|m| m == model))
            && (filter.categories.is_empty() || filter.categories.iter().any(|c| c == category))
    };
    for mut d in details {
        if !keeps(&d.model, &d.category) {
            continue;
        }
        if filter.errors_as_failures && d.status == Status::Errored {
            d.status = Status::Failed;
        }
        shown.details.push(d);
    }
    let models_with_test: BTreeSet<String> =
        shown.details.iter().filter(|d| d.status != Status::NotRun).map(|d| d.model.clone()).collect();
    shown.details.retain(|d| models_with_test.contains(&d.model));
    shown.details.sort_by(|a, b| {
        (a.model.as_str(), a.category.as_str())
            .cmp(&(b.model.as_str(), b.category.as_str()))
            .then_with(|| evaltally_core::id::natural_str_cmp(&a.run, &b.run))
    });
}
