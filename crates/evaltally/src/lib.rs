//! `evaltally`'s command-line front end as a library: argument parsing, the wiring of the
//! library crates, and the mapping of outcomes to exit codes. All analysis lives in the
//! library crates; this one exists so that the `evaltally` executable, the Python wheel's
//! `evaltally` command and `cargo xtask man` share one definition of the command line.
//!
//! It is not a stable API for other tools: use the library crates (`evaltally-analyzer`,
//! `evaltally-report`, the format readers) instead.

mod cache;
mod cli;
mod commands;
mod output;
mod progress;
mod quarantine;
mod store;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

/// The version `--version` prints: the package version, then the git commit it was built
/// from when the build could tell (`0.1.0 (1a2b3c4)`).
pub const VERSION: &str = env!("EVALTALLY_VERSION");

/// The clap definition of the whole command line, for completions and man pages.
pub fn command() -> clap::Command {
    cli::Cli::command()
}

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

/// Runs `evaltally` with the process's arguments, as the executable does.
pub fn main() -> ExitCode {
    ExitCode::from(run(std::env::args_os(), None))
}

/// Runs `evaltally` with `args` (the first is the program name) and returns its exit code.
///
/// `exe` is the file whose size and time tell this build's digest-cache entries from an
/// older build's: the running executable when `None`; the Python wheel passes its native
/// module, since its process's executable is the Python interpreter.
pub fn run<I, T>(args: I, exe: Option<PathBuf>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version are "errors" that print to stdout and exit 0.
            let _ = err.print();
            return u8::try_from(err.exit_code()).unwrap_or(2);
        }
    };
    output::set_verbose(cli.verbose);
    store::init(cli.store.clone());
    if let Err(err) = cli.resolve_store_paths() {
        return fail(&err);
    }
    if let Err(err) = cache::init(cli.no_cache, exe) {
        return fail(&err);
    }
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
        cli::Command::Completions(args) => commands::completions::run(&args),
        cli::Command::Cache(args) => commands::cache::run(&args),
    };
    cache::settle();
    match result {
        Ok(exit) => exit as u8,
        Err(err) => fail(&err),
    }
}

/// Reports an error and picks the exit code: 2 for usage errors, 1 otherwise; a closed
/// stdout pipe is not an error. The message goes through `output::safe_lines`: an
/// `io::Error` or a library error may quote a path or a value from a file.
fn fail(err: &anyhow::Error) -> u8 {
    if output::is_broken_pipe(err) {
        return 0;
    }
    #[allow(clippy::print_stderr)]
    {
        eprintln!("error: {}", output::safe_lines(&format!("{err:#}")));
    }
    let usage = err.downcast_ref::<UsageError>().is_some();
    (if usage { Exit::Usage } else { Exit::Problems }) as u8
}
