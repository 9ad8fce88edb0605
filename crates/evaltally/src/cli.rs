//! Argument definitions (clap). Only types here; behaviour lives in `commands`.
//!
//! Doc comments here are `--help` text, read in a terminal, so they are not Markdown.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Reads LLM evaluation results and tells you what they mean.
#[derive(Debug, Parser)]
#[command(name = "evaltally", version, about, propagate_version = true)]
pub(crate) struct Cli {
    /// When to colour text output. Never when NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub(crate) color: ColorChoice,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Which tests always pass, always fail, or flip across runs.
    ///
    /// Each PATH is a run folder or a folder of runs, in any BFCL layout:
    /// `<root>/<run>/{result,score}/<model>/…`, `<root>/result-<run>/` with
    /// `<root>/score-<run>/`, or a BFCL project folder holding `result/` and `score/`.
    /// Several PATHs add up.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors or when nothing was found.
    Stability(StabilityArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// A table per model, for the terminal.
    Text,
    /// One JSON document on stdout.
    Json,
    /// Markdown tables, fit for a CI job summary.
    Markdown,
}

#[derive(Debug, Args)]
pub(crate) struct StabilityArgs {
    /// Run folders or folders of runs.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Only this model (repeatable).
    #[arg(long = "model", short = 'm', value_name = "M")]
    pub(crate) models: Vec<String>,
    /// Only this category (repeatable).
    #[arg(long = "category", short = 'c', value_name = "C")]
    pub(crate) categories: Vec<String>,
    /// Write stable_tests.json, flaky_tests.json and failing_tests.json here (one folder
    /// per model when there are several).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Also list the N least stable tests per model, with their per-run outcomes.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) top_flaky: usize,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
}
