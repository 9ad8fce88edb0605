//! `evaltally report`.

use std::path::PathBuf;

use evaltally_analyzer::{Filter, Loaded, compare, load, stability};
use evaltally_core::{Diagnostic, RunRecord};
use evaltally_report::html;

use super::stability::{exit_code, explain, load_runs, something_to};
use crate::cli::{ReportArgs, ReportFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &ReportArgs) -> anyhow::Result<Exit> {
    let filter = super::stability::filter(
        &args.read,
        args.select.models.clone(),
        args.select.categories.clone(),
        args.pool_models,
    )?;
    let two_sides = !args.base.is_empty();
    // The heatmap's runs: the PATHs, else both sides of the comparison.
    let paths: Vec<PathBuf> =
        if args.paths.is_empty() { args.base.iter().chain(&args.new).cloned().collect() } else { args.paths.clone() };
    let inputs: Vec<PathBuf> = args.paths.iter().chain(&args.base).chain(&args.new).cloned().collect();
    output::refuse_overwriting_input(&args.output, &inputs)?;

    // Messages, tokens and latencies are in the records, taken from the same reading of
    // each file as the outcomes; the two sides of a comparison shown on their own are
    // read once with them.
    let sides_only = two_sides && args.paths.is_empty();
    let (loaded, records, sides) = if sides_only && crate::store::split(&paths).0.is_empty() {
        let (all, records, base, new) = load_sides(args, &filter)?;
        (all, records, Some((base, new)))
    } else {
        let (loaded, records) = load_runs_and_details(&paths, &filter, args.message_chars)?;
        (loaded, records, None)
    };
    let report = stability::analyze(&loaded.runs);
    let mut diagnostics: Vec<Diagnostic> = loaded.diagnostics.clone();
    let comparison = if two_sides {
        let (base, new) = match sides {
            Some(sides) => sides,
            None => (load_runs(&args.base, &filter, "compare")?, load_runs(&args.new, &filter, "compare")?),
        };
        if !args.paths.is_empty() {
            for d in base.diagnostics.iter().chain(&new.diagnostics) {
                if !diagnostics.contains(d) {
                    diagnostics.push(d.clone());
                }
            }
        }
        Some(compare::compare(&base.runs, &new.runs))
    } else {
        None
    };

    let estimates = match &args.subset {
        Some(path) => super::subset::estimates_for(&super::subset::read(path)?, &loaded.runs, args.pool_models)?,
        None => Vec::new(),
    };
    let shown: Vec<String> = paths.iter().map(|p| output::shown(p)).collect();
    let input = html::Input {
        stability: &report,
        runs: &loaded.runs,
        records: &records,
        compare: comparison.as_ref(),
        diagnostics: &diagnostics,
        inputs: &shown,
        estimates: &estimates,
    };
    let options = html::Options { message_chars: args.message_chars, ..html::Options::default() };
    let data = html::data(&input, &options);
    let page = html::page(&data)?;
    output::write_atomic(&args.output, page.as_bytes())?;

    let text = match args.format {
        ReportFormat::Text => {
            // Distinct tests: models that ran one benchmark share its tests.
            let tests = data
                .models
                .iter()
                .flat_map(|m| m.tests.iter().map(|t| (&m.categories[t.category].category, &t.id)))
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let runs = data.models.iter().map(|m| m.runs.len()).max().unwrap_or(0);
            format!(
                "wrote {} ({}): {} model{}, {} test{}, up to {} run{}{}\n",
                output::shown(&args.output),
                size(page.len()),
                data.models.len(),
                if data.models.len() == 1 { "" } else { "s" },
                tests,
                if tests == 1 { "" } else { "s" },
                runs,
                if runs == 1 { "" } else { "s" },
                if data.compare.is_some() { ", with the comparison" } else { "" }
            )
        }
        ReportFormat::Markdown => {
            let link = args.link.clone().unwrap_or_else(|| args.output.to_string_lossy().into_owned());
            html::markdown(&data, &link)
        }
    };
    output::print(&text)?;
    if page.len() > options.max_bytes {
        output::note(&format!(
            "{} is {}, over the 10 MB a report keeps to where it can: its runs' outcomes take that much; \
             `--model` or `--category` make a smaller one",
            output::shown(&args.output),
            size(page.len())
        ));
    } else if data.message_chars < args.message_chars {
        output::note(&if data.message_chars == 0 {
            "error messages were left out of the cell details to keep the file under 10 MB".to_string()
        } else {
            format!("error messages were cut to {} characters to keep the file under 10 MB", data.message_chars)
        });
    }
    output::report_diagnostics(&diagnostics);
    Ok(exit_code(&diagnostics, args.strict, false))
}

/// The runs, and of their records what the cells' details need ([`html::details_of`]):
/// each unit's records are cut down in the worker that read them, so the many passing tests
/// of thousands of runs are never held.
fn load_runs_and_details(paths: &[PathBuf], filter: &Filter, chars: usize) -> anyhow::Result<(Loaded, Vec<RunRecord>)> {
    let (stored, files) = crate::store::split(paths);
    let (mut loaded, mut details) = if files.is_empty() {
        (Loaded::default(), Vec::new())
    } else {
        let progress = crate::progress::Bar::new();
        let cache = crate::cache::get();
        let (loaded, reduced) = load::load_reduced(&files, filter, &progress, cache, |r| html::details_of(r, chars))
            .map_err(|e| explain(&e))?;
        let details = reduced.into_iter().map(|r| RunRecord { run: r.run, model: r.model, ..r.value }).collect();
        (loaded, details)
    };
    if !stored.is_empty() {
        load::add_runs(&mut loaded, crate::store::category_runs(&stored)?, filter);
        let mut records = load::Records::default();
        load::add_records(&mut records, crate::store::records(&stored)?, filter);
        details.extend(records.runs.iter().map(|r| html::details_of(r, chars)));
    }
    Ok((something_to(loaded, paths, "report on")?, details))
}

/// The runs of both sides together (for the heatmap) with their records, and each side's
/// own (for the comparison), from one reading of each file; a side with nothing to compare
/// is a usage error, as it is for `compare`.
fn load_sides(args: &ReportArgs, filter: &Filter) -> anyhow::Result<(Loaded, Vec<RunRecord>, Loaded, Loaded)> {
    let sides: [&[PathBuf]; 2] = [&args.base, &args.new];
    let loaded = load::load_groups_with_records(&sides, filter, &crate::progress::Bar::new(), crate::cache::get())
        .map_err(|e| explain(&e))?;
    let all_paths: Vec<PathBuf> = args.base.iter().chain(&args.new).cloned().collect();
    let all = something_to(loaded.all, &all_paths, "report on")?;
    let [base, new]: [Loaded; 2] = loaded.groups.try_into().map_err(|_| anyhow::anyhow!("two sides were loaded"))?;
    Ok((all, loaded.records.runs, something_to(base, &args.base, "compare")?, something_to(new, &args.new, "compare")?))
}

/// A file size for people: bytes, KB or MB (decimal).
fn size(bytes: usize) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}
