//! `evaltally`: the command-line front end. It parses arguments, wires the library crates
//! together, and maps outcomes to exit codes; all analysis lives in the libraries.

mod cache;
mod cli;
mod commands;
mod output;
mod progress;
mod store;

use std::process::ExitCode;

use clap::Parser;

/// Exit codes shared by every command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Success.
    Ok = 0,
    /// The work was done, but something was wrong (errors, or warnings with `--strict`,
    /// or a gate such as `--fail-on` tripped).
    Problems = 1,
    /// Usage error, or nothing to work on.
    Usage = 2,
    /// `compare --require-conclusive`: a verdict was inconclusive.
    Inconclusive = 3,
}

/// An error that ends a command with [`Exit::Usage`].
#[derive(Debug)]
pub(crate) struct UsageError(pub(crate) String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

fn main() -> ExitCode {
    let mut cli = cli::Cli::parse();
    store::init(cli.store.clone());
    if let Err(err) = cli.resolve_store_paths() {
        return fail(&err);
    }
    cache::init(cli.no_cache);
    let result = match cli.command {
        cli::Command::Stability(args) => commands::stability::run(&args, cli.color),
        cli::Command::Compare(args) => commands::compare::run(&args, cli.color),
        cli::Command::Plan(args) => commands::plan::run(&args, cli.color),
        cli::Command::Show(args) => commands::show::run(&args, cli.color),
        cli::Command::Trend(args) => commands::trend::run(&args, cli.color),
        cli::Command::Report(args) => commands::report::run(&args),
        cli::Command::Cost(args) => commands::cost::run(&args, cli.color),
        cli::Command::Summary(args) => commands::summary::run(&args),
        cli::Command::Validate(args) => commands::validate::run(&args, cli.color),
        cli::Command::Convert(args) => commands::convert::run(&args),
        cli::Command::Export(args) => commands::export::run(&args),
        cli::Command::Push(args) => commands::push::run(&args, cli.store.as_deref()),
        cli::Command::Runs(args) => commands::push::list(&args, cli.store.as_deref()),
    };
    match result {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(err) => fail(&err),
    }
}

/// Reports an error and picks the exit code: 2 for usage errors, 1 otherwise; a closed
/// stdout pipe is not an error. The message goes through `output::safe_lines`: an
/// `io::Error` or a library error may quote a path or a value from a file.
fn fail(err: &anyhow::Error) -> ExitCode {
    if output::is_broken_pipe(err) {
        return ExitCode::SUCCESS;
    }
    #[allow(clippy::print_stderr)]
    {
        eprintln!("error: {}", output::safe_lines(&format!("{err:#}")));
    }
    let usage = err.downcast_ref::<UsageError>().is_some();
    ExitCode::from(if usage { Exit::Usage } else { Exit::Problems } as u8)
}
