//! `evaltally summary`.

use std::fmt::Write as _;

use evaltally_core::text::printable;
use evaltally_report::summary::{SfbenchSummary, stored, swebench_json, swebench_markdown, swebench_text};
use evaltally_sfbench::detect::{Format as Detected, detect};
use evaltally_sfbench::report::Report;
use evaltally_sfbench::{markdown, migrate};
use evaltally_swebench::detect::Format as Harness;
use evaltally_swebench::report::RunReport;

use crate::cli::{Format, SummaryArgs};
use crate::{Exit, UsageError, output};

pub(crate) fn run(args: &SummaryArgs) -> anyhow::Result<Exit> {
    if crate::store::selection_of(&args.file).is_some() {
        return from_store(args);
    }
    // Shown in messages and passed to the renderers, which escape it themselves.
    let path = args.file.to_string_lossy().into_owned();
    let shown = output::shown(&args.file);
    if args.file.is_dir() {
        return Err(crate::UsageError(format!(
            "{shown}: a folder; summary takes one report file (an SF-Bench or SWE-bench report)"
        ))
        .into());
    }
    let mut doc = output::read_json(&args.file)?;
    if matches!(
        detect(&doc),
        Some(Detected::SfbenchV1 | Detected::SfbenchLegacyEvaluate | Detected::SfbenchEngineSummary)
    ) && let Some(m) = migrate::migrate(&doc)
    {
        // A v1 file: summarise what it becomes in v2 (as `convert --to sfbench-v2` writes it).
        output::note(&format!("{shown}: an SF-Bench v1 file, summarised as migrated to v2"));
        doc = m.report;
    }
    let no_instances = |name: &str| {
        UsageError(format!(
            "{shown}: a {name} file has no instances to summarise; `evaltally convert {shown} --to sfbench-v2` migrates it first"
        ))
    };
    // SF-Bench's and SWE-bench's detections never both claim a document.
    let text = match (detect(&doc), evaltally_swebench::detect::detect(&doc)) {
        (Some(Detected::SfbenchV2), _) => {
            let report = Report::from_value(&doc);
            // What the reading tolerated (a `resolved` of "true", read as false) is said, as
            // every analysis says it: the counts below follow it.
            let tolerated: Vec<evaltally_core::Diagnostic> =
                report.notes.iter().map(|n| evaltally_core::Diagnostic::warning(&args.file, n.clone())).collect();
            output::report_diagnostics(&tolerated);
            let s = SfbenchSummary::new(&report);
            match args.format {
                Format::Text => s.text(&path),
                Format::Json => s.json(&path),
                Format::Markdown => markdown::render(&report, None),
            }
        }
        (Some(other), _) => return Err(no_instances(other.name()).into()),
        (None, Some(Harness::RunReport)) => {
            let run = RunReport::from_value(&doc);
            match args.format {
                Format::Text => {
                    let mut text = swebench_text(&path, &run);
                    // The report's own counts, against the lists they count and each other,
                    // as `validate` checks them.
                    let differ = evaltally_swebench::validate::stored_counts_that_differ(&doc);
                    let checks: Vec<_> = evaltally_swebench::validate::validate(&doc, Harness::RunReport)
                        .into_iter()
                        .filter(|f| f.path.ends_with("_instances") && f.severity != evaltally_core::Severity::Info)
                        .filter(|f| !differ.iter().any(|(key, ..)| f.path == format!("$.{key}")))
                        .collect();
                    if differ.is_empty() && checks.is_empty() {
                        text.push_str("\n  the stored counts agree with the lists they count\n");
                    } else {
                        text.push_str("\n  the stored counts do not add up:\n");
                        for (key, stored, listed) in differ {
                            let _ = writeln!(text, "    {key}: stored {stored}, counted {listed}");
                        }
                        for f in &checks {
                            let key = f.path.trim_start_matches("$.");
                            let _ = writeln!(text, "    {}: {}", printable(key), printable(&f.message));
                        }
                    }
                    text
                }
                Format::Json => swebench_json(&path, &run),
                Format::Markdown => swebench_markdown(&path, &run),
            }
        }
        (None, Some(other)) => return Err(no_instances(other.name()).into()),
        (None, None) => {
            return Err(UsageError(format!("{shown}: not an SF-Bench report or a SWE-bench run report")).into());
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}

/// `summary store:…`: the runs a PostgreSQL store holds, recomputed from their stored rows
/// (the report files themselves are not stored: their own summary fields, patches and logs
/// are not there to check).
fn from_store(args: &SummaryArgs) -> anyhow::Result<Exit> {
    let records = crate::store::records(&[args.file.as_path()])?;
    let text = match args.format {
        Format::Text => stored::text(&records),
        Format::Json => stored::json(&records),
        Format::Markdown => stored::markdown(&records),
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}
