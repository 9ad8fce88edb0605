//! `evaltally completions`.

use crate::cli::CompletionsArgs;
use crate::{Exit, output};

pub(crate) fn run(args: &CompletionsArgs) -> anyhow::Result<Exit> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut crate::command(), "evaltally", &mut script);
    output::print(&String::from_utf8_lossy(&script))?;
    Ok(Exit::Ok)
}
