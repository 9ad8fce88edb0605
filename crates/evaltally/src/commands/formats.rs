//! `evaltally formats`: the registry's formats, as `--as` names them.

use std::fmt::Write as _;

use evaltally_analyzer::load;
use evaltally_core::schema::{SchemaId, SortedKeys};
use serde::Serialize;

use crate::cli::{FormatsArgs, FormatsFormat};
use crate::{Exit, output};

/// The identifier of [`Document`], `evaltally.formats/1`.
pub(crate) const SCHEMA: SchemaId = SchemaId::new("formats", 1);

/// The JSON document `evaltally formats --format json` prints: the formats evaltally reads,
/// as `--as` names them. Its keys are written sorted, the `schema` key first.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct Document {
    /// The document's name and version, [`SCHEMA`].
    pub(crate) schema: SchemaId,
    /// One entry per format, in the order formats are asked to claim a file.
    pub(crate) formats: Vec<FormatDocument>,
}

/// One format.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(crate) struct FormatDocument {
    /// Its name, as `--as` takes it.
    pub(crate) name: &'static str,
    /// Other names `--as` takes for it.
    pub(crate) aliases: Vec<&'static str>,
    /// The files it reads, one description a line.
    pub(crate) files: Vec<&'static str>,
}

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
            let formats = formats
                .iter()
                .map(|f| FormatDocument {
                    name: f.name(),
                    aliases: f.aliases().to_vec(),
                    files: f.describe().lines().map(str::trim).collect(),
                })
                .collect();
            format!("{}\n", serde_json::to_string_pretty(&SortedKeys(Document { schema: SCHEMA, formats }))?)
        }
    };
    output::print(&text)?;
    Ok(Exit::Ok)
}
