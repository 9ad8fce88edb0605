//! `evaltally push` and `evaltally runs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use evaltally_analyzer::validate;
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
        let pushed = store::push(&dir, path, &format)?;
        // The copy walks the run with the policy validation read it with: anything it left
        // out (a link leaving the run, a loop) was reported above, unless it is new.
        let new: Vec<Diagnostic> =
            pushed.diagnostics.into_iter().filter(|d| !validated.diagnostics.contains(d)).collect();
        output::report_diagnostics(&new);
        output::print(&format!("pushed {} as store:{}\n", output::shown(path), pushed.name))?;
    }
    Ok(exit)
}

pub(crate) fn list(args: &RunsArgs, explicit: Option<&Path>) -> anyhow::Result<Exit> {
    let dir = store::location(explicit)?;
    let entries = store::entries(&dir)?;
    let text = match args.format {
        ValidateFormat::Json => {
            let doc = json!({
                "store": dir.to_string_lossy(),
                "entries": entries.iter().map(|e| json!({
                    "name": e.name, "format": e.format, "source": e.source, "pushed_at_unix": e.pushed_at_unix,
                })).collect::<Vec<_>>(),
            });
            format!("{}\n", serde_json::to_string_pretty(&doc)?)
        }
        ValidateFormat::Text => {
            let mut out = format!("{} ({} entries)\n", output::shown(&dir), entries.len());
            let w = entries.iter().map(|e| printable(&e.name).chars().count()).max().unwrap_or(0).max(4);
            for e in &entries {
                let _ = writeln!(
                    out,
                    "  store:{:<w$}  {:<10}  {}",
                    printable(&e.name),
                    printable(&e.format),
                    printable(&e.source)
                );
            }
            out
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}
