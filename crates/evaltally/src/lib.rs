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

/// The JSON Schema of every document evaltally prints or writes, with its identifier, in
/// the order `docs/schema/README.md` lists them (feature `schema`; `cargo xtask schemas`
/// writes them into `docs/schema/`).
#[cfg(feature = "schema")]
pub fn schemas() -> Vec<(evaltally_core::schema::SchemaId, serde_json::Value)> {
    use evaltally_core::schema::{SchemaId, document_schema};
    fn one<T: schemars::JsonSchema>(id: SchemaId) -> (SchemaId, serde_json::Value) {
        (id, document_schema::<T>(id))
    }
    let mut all = evaltally_report::schemas();
    all.extend(evaltally_convert::schemas());
    all.extend([
        one::<commands::push::RunsDocument<'static>>(commands::push::RUNS_SCHEMA),
        one::<commands::formats::Document>(commands::formats::SCHEMA),
        one::<commands::cache::InfoDocument>(commands::cache::INFO_SCHEMA),
    ]);
    all.extend(evaltally_serve::schemas());
    all
}

/// The clap definition of the whole command line, for completions and man pages.
pub fn command() -> clap::Command {
    cli::Cli::command()
}

/// Exit codes shared by every command: 1 says something about the data (damaged files, a
/// tripped gate), 2 about the command line or the machine (a usage error, nothing to work
/// on, an I/O error, a full disk, a server lost or out of reach).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Success.
    Ok = 0,
    /// The work was done, but something was wrong with the data (errors, or warnings with
    /// `--strict`, or a gate such as `--fail-on` tripped).
    Problems = 1,
    /// Usage error, nothing to work on, or the machine failed the command.
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
    if let Err(err) = store::resolve_command_paths(&mut cli) {
        return fail(&err);
    }
    if let Err(err) = cache::init(cli.no_cache, exe) {
        return fail(&err);
    }
    let result = match cli.command {
        cli::Command::Stability(args) => commands::stability::run(&args, cli.color),
        cli::Command::Compare(args) => commands::compare::run(&args, cli.color),
        cli::Command::Plan(args) => commands::plan::run(&args, cli.color),
        cli::Command::Subset(args) => commands::subset::fit(&args),
        cli::Command::Estimate(args) => commands::subset::estimate(&args),
        cli::Command::Show(args) => commands::show::run(&args, cli.color),
        cli::Command::Trend(args) => commands::trend::run(&args, cli.color),
        cli::Command::Report(args) => commands::report::run(&args),
        cli::Command::Serve(args) => commands::serve::run(&args, cli.store.as_deref()),
        cli::Command::Cost(args) => commands::cost::run(&args, cli.color),
        cli::Command::Summary(args) => commands::summary::run(&args),
        cli::Command::Validate(args) => commands::validate::run(&args, cli.color),
        cli::Command::Convert(args) => commands::convert::run(&args),
        cli::Command::Export(args) => commands::export::run(&args),
        cli::Command::Push(args) => commands::push::run(&args, cli.store.as_deref()),
        cli::Command::Runs(args) => commands::push::list(&args, cli.store.as_deref()),
        cli::Command::Completions(args) => commands::completions::run(&args),
        cli::Command::Cache(args) => commands::cache::run(&args),
        cli::Command::Formats(args) => commands::formats::run(&args),
    };
    cache::settle();
    match result {
        Ok(exit) => exit as u8,
        Err(err) => fail(&err),
    }
}

/// Reports an error and picks the exit code: 1 for data the store holds that makes no run
/// (the data's fault), 2 for everything else a command stops on (usage errors, and the
/// machine's faults: I/O errors, a full disk, a server lost or out of reach; a command's
/// problems with its input files are diagnostics, not errors); a closed stdout pipe is not
/// an error. The message goes through `output::safe_lines`: an `io::Error` or a library
/// error may quote a path or a value from a file.
/// The error and its causes, each cause once: a library error that quotes its source in its
/// own message is not followed by the source again.
fn said(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let cause = cause.to_string();
        if !text.ends_with(&cause) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&cause);
        }
    }
    text
}

fn fail(err: &anyhow::Error) -> u8 {
    if output::is_broken_pipe(err) {
        return 0;
    }
    #[allow(clippy::print_stderr)]
    {
        eprintln!("error: {}", output::safe_lines(&said(err)));
    }
    let data = err.chain().any(|e| {
        matches!(e.downcast_ref::<evaltally_store::StoreError>(), Some(evaltally_store::StoreError::Data { .. }))
    });
    (if data { Exit::Problems } else { Exit::Usage }) as u8
}

#[cfg(test)]
mod tests {
    use super::said;

    #[test]
    fn a_cause_a_library_error_quotes_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let quoted = evaltally_cache::CacheError::Io { path: "/c/v2".into(), source: io };
        assert_eq!(said(&anyhow::Error::new(quoted).context("cache clean")), "cache clean: cache /c/v2: gone");
        let plain = anyhow::anyhow!("gone").context("reading a.json");
        assert_eq!(said(&plain), "reading a.json: gone");
    }
}
