//! `evaltally validate`.

use evaltally_analyzer::validate;
use evaltally_report::{Style, validate as render};

use super::stability::explain;
use crate::cli::{ColorChoice, ValidateArgs, ValidateFormat};
use crate::{Exit, output};

pub(crate) fn run(args: &ValidateArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let forced = super::stability::forced(args.as_format.as_deref())?;
    let validated = validate::validate_as(&args.paths, args.strict, forced).map_err(|e| explain(&e))?;
    let text = match args.format {
        ValidateFormat::Text => {
            render::text(&validated.files, if output::use_color(color) { Style::colored() } else { Style::plain() })
        }
        ValidateFormat::Json => render::json(&validated.files),
    };
    output::print(&text)?;
    output::report_diagnostics(&validated.diagnostics);
    let invalid = validated.files.iter().any(|f| !f.is_valid());
    let warned = validated.files.iter().any(|f| f.warnings().next().is_some());
    let unreadable = validated.diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    Ok(if invalid || unreadable || (args.strict && warned) { Exit::Problems } else { Exit::Ok })
}
