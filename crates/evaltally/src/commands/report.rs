//! `evaltally report`.

use std::path::PathBuf;

use evaltally_analyzer::{compare, stability};
use evaltally_core::Diagnostic;
use evaltally_report::html;

use super::stability::{exit_code, load_runs, load_runs_and_records};
use crate::cli::{ReportArgs, ReportFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &ReportArgs) -> anyhow::Result<Exit> {
    let filter = super::stability::filter(&args.read, args.models.clone(), args.categories.clone(), args.pool_models)?;
    let two_sides = !args.base.is_empty();
    // The heatmap's runs: the PATHs, else both sides of the comparison.
    let paths: Vec<PathBuf> =
        if args.paths.is_empty() { args.base.iter().chain(&args.new).cloned().collect() } else { args.paths.clone() };
    let inputs: Vec<PathBuf> = args.paths.iter().chain(&args.base).chain(&args.new).cloned().collect();
    output::refuse_overwriting_input(&args.output, &inputs)?;

    // Messages, tokens and latencies are in the records, taken from the same reading of
    // each file as the outcomes.
    let (loaded, records) = load_runs_and_records(&paths, &filter, "report on")?;
    let records = records.runs;
    let report = stability::analyze(&loaded.runs);
    let mut diagnostics: Vec<Diagnostic> = loaded.diagnostics.clone();
    let comparison = if two_sides {
        let base = load_runs(&args.base, &filter, "compare")?;
        let new = load_runs(&args.new, &filter, "compare")?;
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

    let shown: Vec<String> = paths.iter().map(|p| output::shown(p)).collect();
    let input = html::Input {
        stability: &report,
        runs: &loaded.runs,
        records: &records,
        compare: comparison.as_ref(),
        diagnostics: &diagnostics,
        inputs: &shown,
    };
    let options = html::Options { message_chars: args.message_chars, ..html::Options::default() };
    let data = html::data(&input, &options);
    let page = html::page(&data)?;
    output::write_atomic(&args.output, page.as_bytes())?;

    let text = match args.format {
        ReportFormat::Text => {
            let tests: usize = data.models.iter().map(|m| m.tests.len()).sum();
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
    if data.message_chars < args.message_chars {
        output::note(&if data.message_chars == 0 {
            "error messages were left out of the cell details to keep the file under 10 MB".to_string()
        } else {
            format!("error messages were cut to {} characters to keep the file under 10 MB", data.message_chars)
        });
    }
    output::report_diagnostics(&diagnostics);
    Ok(exit_code(&diagnostics, args.strict, false))
}

/// A file size for people: bytes, KB or MB (decimal).
fn size(bytes: usize) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}
