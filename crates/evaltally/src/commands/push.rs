//! `evaltally push` and `evaltally runs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use evaltally_analyzer::{Filter, validate};
use evaltally_core::Diagnostic;
use evaltally_core::text::printable;
use serde_json::json;

use super::stability::explain;
use crate::cli::{PushArgs, RunsArgs, ValidateFormat};
use crate::{Exit, output, store};

pub(crate) fn run(args: &PushArgs, explicit: Option<&Path>) -> anyhow::Result<Exit> {
    let dir = store::location(explicit)?;
    let mut exit = Exit::Ok;
    for path in &args.paths {
        let validated = validate::validate(std::slice::from_ref(path), false).map_err(|e| explain(&e))?;
        output::report_diagnostics(&validated.diagnostics);
        let invalid: Vec<_> = validated.files.iter().filter(|f| !f.is_valid()).collect();
        let unreadable: Vec<&Diagnostic> = validated.diagnostics.iter().filter(|d| d.is_error()).collect();
        if !invalid.is_empty() || !unreadable.is_empty() {
            let mut msg = format!("{}: not pushed, ", output::shown(path));
            if invalid.is_empty() {
                msg.push_str("files could not be read (see above)\n");
            } else {
                msg.push_str("invalid:\n");
            }
            for f in invalid {
                for e in f.errors() {
                    let _ = writeln!(msg, "  {}: {e}", output::shown(&f.path));
                }
            }
            output::note(msg.trim_end());
            exit = crate::Exit::Problems;
            continue;
        }
        let formats: BTreeSet<&str> =
            validated.files.iter().map(|f| f.format.split('-').next().unwrap_or(&f.format)).collect();
        let format = formats.into_iter().collect::<Vec<_>>().join("+");
        let runs = summaries(path);
        let pushed = store::push(&dir, path, &format, &runs)?;
        // The copy walks the run with the policy validation read it with: anything it left
        // out (a link leaving the run, a loop) was reported above, unless it is new.
        let new: Vec<Diagnostic> =
            pushed.diagnostics.into_iter().filter(|d| !validated.diagnostics.contains(d)).collect();
        output::report_diagnostics(&new);
        output::print(&format!("pushed {} as store:{}\n", output::shown(path), pushed.name))?;
    }
    Ok(exit)
}

/// What `runs` shows of each run below `path` (quietly: its files were checked already).
fn summaries(path: &Path) -> Vec<store::RunSummary> {
    let records = crate::cache::records(std::slice::from_ref(&path.to_path_buf()), &Filter::default());
    records.map(|r| r.runs.iter().map(store::RunSummary::of).collect()).unwrap_or_default()
}

/// One line of `runs`: an entry with what its runs say (the first run that says it).
struct Listed {
    entry: store::Entry,
    runs: Vec<store::RunSummary>,
}

impl Listed {
    fn first<'a>(&'a self, pick: impl Fn(&'a store::RunSummary) -> Option<&'a String>) -> Option<&'a str> {
        self.runs.iter().find_map(pick).map(String::as_str)
    }

    /// When the runs ran (the earliest timestamp), as gstack's list shows it.
    fn date(&self) -> Option<&str> {
        self.runs.iter().filter_map(|r| r.timestamp.as_deref()).min()
    }

    fn cost(&self) -> Option<f64> {
        let costs: Vec<f64> = self.runs.iter().filter_map(|r| r.cost_usd).collect();
        (!costs.is_empty()).then(|| costs.iter().sum())
    }
}

pub(crate) fn list(args: &RunsArgs, explicit: Option<&Path>) -> anyhow::Result<Exit> {
    let dir = store::location(explicit)?;
    let total = store::entries(&dir)?;
    let found = total.len();
    let mut listed: Vec<Listed> = total
        .into_iter()
        .map(|entry| {
            // An entry pushed before summaries were kept is read now.
            let runs = entry.runs.clone().unwrap_or_else(|| summaries(&dir.join(&entry.name)));
            Listed { entry, runs }
        })
        .filter(|l| {
            let matches = |want: &Option<String>, have: Option<&str>| want.as_deref().is_none_or(|w| have == Some(w));
            matches(&args.branch, l.first(|r| r.git_branch.as_ref()))
                && matches(&args.tier, l.first(|r| r.tier.as_ref()))
        })
        .collect();
    // Newest first by the date the runs record; entries without one after them, by name
    // (not by push time, which would make the order depend on the clock).
    listed.sort_by(|a, b| {
        b.date().cmp(&a.date()).then_with(|| evaltally_core::id::natural_str_cmp(&a.entry.name, &b.entry.name))
    });
    if args.limit > 0 {
        listed.truncate(args.limit);
    }
    let text = match args.format {
        ValidateFormat::Json => {
            let doc = json!({
                "store": dir.to_string_lossy(),
                "found": found,
                "entries": listed.iter().map(|l| json!({
                    "name": l.entry.name,
                    "format": l.entry.format,
                    "source": l.entry.source,
                    "pushed_at_unix": l.entry.pushed_at_unix,
                    "runs": l.runs,
                })).collect::<Vec<_>>(),
            });
            format!("{}\n", serde_json::to_string_pretty(&doc)?)
        }
        ValidateFormat::Text => list_text(&dir, &listed, found),
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}

fn list_text(dir: &Path, listed: &[Listed], found: usize) -> String {
    let shown_n = if listed.len() < found { format!(", showing {}", listed.len()) } else { String::new() };
    let mut out = format!("{} ({found} entries{shown_n})\n", output::shown(dir));
    if listed.is_empty() {
        return out;
    }
    let cell = |s: Option<&str>| s.map_or_else(|| "-".to_string(), |v| printable(v).into_owned());
    let rows: Vec<[String; 9]> = listed
        .iter()
        .map(|l| {
            let date = l.date().map(|d| d.replace('T', " ").chars().take(16).collect::<String>());
            let (passed, scored) = l.runs.iter().fold((0, 0), |(p, s), r| (p + r.passed, s + r.scored));
            [
                format!("store:{}", printable(&l.entry.name)),
                cell(date.as_deref()),
                cell(l.first(|r| r.git_branch.as_ref())),
                cell(l.first(|r| r.tier.as_ref())),
                if scored > 0 { format!("{passed}/{scored}") } else { "-".to_string() },
                l.cost().map_or_else(|| "-".to_string(), |c| format!("${c:.2}")),
                cell(l.first(|r| r.version.as_ref())),
                printable(&l.entry.format).into_owned(),
                printable(&l.entry.source).into_owned(),
            ]
        })
        .collect();
    let header = ["entry", "date", "branch", "tier", "pass", "cost", "version", "format", "source"];
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w.saturating_sub(c.chars().count()))))
            .collect();
        format!("  {}\n", padded.join("  ").trim_end())
    };
    out.push_str(&line(&header));
    for row in &rows {
        out.push_str(&line(&row.each_ref().map(String::as_str)));
    }
    out
}
