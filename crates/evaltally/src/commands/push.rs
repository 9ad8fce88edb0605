//! `evaltally push` and `evaltally runs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use evaltally_analyzer::validate;
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
        if !invalid.is_empty() {
            let mut msg = format!("{}: not pushed, invalid:\n", path.display());
            for f in invalid {
                for e in f.errors() {
                    let _ = writeln!(msg, "  {}: {e}", f.path.display());
                }
            }
            output::note(msg.trim_end());
            exit = crate::Exit::Problems;
            continue;
        }
        let formats: BTreeSet<&str> =
            validated.files.iter().map(|f| f.format.split('-').next().unwrap_or(&f.format)).collect();
        let format = formats.into_iter().collect::<Vec<_>>().join("+");
        let name = store::push(&dir, path, &format)?;
        output::print(&format!("pushed {} as store:{name}\n", path.display()))?;
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
            let mut out = format!("{} ({} entries)\n", dir.display(), entries.len());
            let w = entries.iter().map(|e| e.name.len()).max().unwrap_or(0).max(4);
            for e in &entries {
                let _ = writeln!(out, "  store:{:<w$}  {:<10}  {}", e.name, e.format, e.source);
            }
            out
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}
