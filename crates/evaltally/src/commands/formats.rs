//! `evaltally formats`: the registry's formats, as `--as` names them.

use std::fmt::Write as _;

use evaltally_analyzer::load;

use crate::cli::{FormatsArgs, FormatsFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &FormatsArgs) -> anyhow::Result<Exit> {
    let formats = load::registry().formats();
    let text = match args.format {
        FormatsFormat::Text => {
            let mut out = String::new();
            for f in formats {
                let aliases = f.aliases();
                let also = if aliases.is_empty() { String::new() } else { format!(" (also {})", aliases.join(", ")) };
                let _ = writeln!(out, "{}{also}\n{}", f.name(), f.describe());
            }
            out
        }
        FormatsFormat::Json => {
            let doc: Vec<serde_json::Value> = formats
                .iter()
                .map(|f| {
                    let files: Vec<&str> = f.describe().lines().map(str::trim).collect();
                    serde_json::json!({"name": f.name(), "aliases": f.aliases(), "files": files})
                })
                .collect();
            format!("{}\n", serde_json::to_string_pretty(&doc)?)
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}
