//! Argument definitions (clap). Only types here; behaviour lives in `commands`.
//!
//! Doc comments here are `--help` text, read in a terminal, so they are not Markdown.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// The exit codes every command follows (docs/guarantees.md says more).
const EXIT_STATUS: &str = "Exit status: 0 done; 1 done, but the data is wrong (a damaged or invalid \
result file, a tripped gate); 2 not done: a usage error, or the machine failed (an I/O error, a full \
disk, a server out of reach or lost); 3 a comparison inconclusive under --require-conclusive.";

/// The exit codes, in one line of `-h`.
const EXIT_SHORT: &str =
    "Exit status: 0 done; 1 the data is wrong; 2 a usage error or the machine failed; 3 inconclusive";

/// The heading of the options every command takes, listed after the command's own.
const GLOBAL: &str = "Global options";

/// Reads LLM evaluation results and tells you what they mean.
#[derive(Debug, Parser)]
#[command(
    name = "evaltally",
    version = crate::VERSION,
    about = "Reads LLM evaluation results (`evaltally formats` lists them) and tells you what they mean",
    propagate_version = true,
    after_help = EXIT_SHORT,
    after_long_help = EXIT_STATUS
)]
pub(crate) struct Cli {
    /// When to colour text output: auto, always or never.
    ///
    /// auto colours a terminal only; never when NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, help_heading = GLOBAL, hide_possible_values = true)]
    pub(crate) color: ColorChoice,
    /// The results store: a folder or a postgres:// URL.
    ///
    /// A folder, or a PostgreSQL team store as a postgres:// URL (default: $EVALTALLY_STORE,
    /// else a folder under the user's data directory; other URLs are refused). Any PATH may
    /// be `store:<name>` or `store:<filters>`, e.g. `store:branch=main,last=20` (also model=,
    /// tier=, since=DATE, name=; `store:all`).
    #[arg(long, value_name = "DIR|URL", global = true, help_heading = GLOBAL)]
    pub(crate) store: Option<PathBuf>,
    /// Read every file, neither using nor filling the digest cache.
    ///
    /// The cache (in $EVALTALLY_CACHE, else the user's cache folder) keeps what reading each
    /// unchanged run gave, so analyses read only new or changed files; `evaltally cache`
    /// shows and empties it.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub(crate) no_cache: bool,
    /// List every problem and file not read, with why, and each format's facts.
    ///
    /// By default stderr says each kind of problem once (the first, then how many and in
    /// how many files) and counts the files not read in one line. With --verbose every
    /// warning and error is listed with its file and place, every file not read with the
    /// reason, and the facts of each file's format that are no problem (BFCL v1's `idx`
    /// keys, a score file without a final newline), which `validate` also says.
    #[arg(long, short = 'v', global = true, help_heading = GLOBAL)]
    pub(crate) verbose: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Which tests always pass, always fail, or flip across runs.
    ///
    /// Each PATH is a result file, a run folder or a folder of runs, of any format
    /// evaltally reads (`evaltally formats`; BFCL in every layout: `<root>/<run>/{result,score}/
    /// <model>/…`, `result-<run>/` with `score-<run>/`, a project folder holding `result/`
    /// and `score/`), or a `store:` selection. Several PATHs add up.
    ///
    /// With several models, one line per model (its overall counts) comes first, then each
    /// model's categories and its flaky tests.
    ///
    /// Columns: runs (that judged the category), tests, stable pass (passed in every run that
    /// judged it), flaky (passed in some, failed in others), stable fail (failed in every one),
    /// errored (errored in more than half of its runs). With --detail: pass^k (all of k runs
    /// pass) and pass@k (at least one does), means over tests; mean (pass rate), SE naive
    /// (results independent) and SE clust (results of one test correlated), in points;
    /// run noise (the share of one run's score variance that is run-to-run); one run (its
    /// 95% range from that noise) and runs seen (the range of the runs there are; ! when
    /// they spread further).
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors, when nothing was found, or when --out would write where it reads;
    /// 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Stability(StabilityArgs),
    /// What regressed and improved between two runs or groups, and whether it is noise.
    ///
    /// What regressed and improved between two runs, or two groups of runs, and whether the
    /// change is more than run-to-run noise.
    ///
    /// `evaltally compare BASE NEW` compares two run folders (exact McNemar test, Wilson
    /// intervals); `evaltally compare --base PATH... --new PATH...` compares two groups of
    /// runs (consistent regressions apart from flaky ones, paired bootstrap interval and
    /// sign-flip test with a fixed seed). Tests listed on one side only are reported apart,
    /// never as regressions or improvements.
    ///
    /// Each category also gets the paired standard error of its change, the minimum
    /// detectable effect (80% power) and a verdict: regression, improvement (p < 0.05 after
    /// the --correction), no change (a change of --effect would have been seen) or
    /// inconclusive.
    ///
    /// Exit status: 0 on success; 1 when --fail-on trips or files had errors (or warnings,
    /// with --strict); 2 on usage errors or when nothing was found; 3 with
    /// --require-conclusive when a verdict is inconclusive (and nothing else failed);
    /// 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Compare(CompareArgs),
    /// How many runs (or tests) a target precision needs, and what a budget buys.
    ///
    /// How many runs (or, for a new benchmark, tests) bring each category's standard error
    /// under a target, and the smallest change a comparison with the runs at hand detects.
    ///
    /// Reads runs as stability does (PATHs, --model, --category, …); needs at least two runs
    /// of a category to tell run-to-run variance from differences between tests.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors or when nothing was found; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Plan(PlanArgs),
    /// Fit a subset of the tests that predicts each model's full score.
    ///
    /// Fits an item response model (two-parameter logistic, one ability per model and
    /// category; a model's several runs of a test are binomial trials) on every model the
    /// PATHs hold, and chooses --size anchor tests spread evenly over the categories (in each,
    /// k-means on the tests' fitted curves, the test nearest each centre); `--size
    /// CATEGORY=N` gives a category N of them, the others share the rest. -o writes the
    /// subset file that `evaltally estimate` reads: the anchors, their weights, every test's
    /// parameters, the categories' sizes and what it was fitted on.
    ///
    /// --check leaves each model out in turn, fits on the others and estimates it from its
    /// anchors: the median and 90th-percentile error, Spearman's rank correlation, the
    /// intervals' coverage, and the same for random subsets of the size. docs/statistics.md
    /// says when not to trust it.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors, when nothing was found or there are too few models; 2 also when the
    /// machine fails it (an I/O error, a full disk, a server lost).
    Subset(SubsetArgs),
    /// Estimate each model's full score from its runs of a subset, with an interval.
    ///
    /// Reads runs that hold a subset's anchors (only those tests, or every test: only the
    /// anchors are read) and gives, per model and category and overall, the estimated full
    /// score: the anchors as observed and every other test at the pass probability the
    /// subset's model predicts from the model's abilities, with a 90% interval from the
    /// abilities' uncertainty and the chance variation of the tests not run. The overall
    /// score is the mean of the categories. Beside it, the anchor mean: the anchors alone,
    /// each weighted by the tests it stands for; far from the estimate, the model answers
    /// unlike the models the subset was fitted on, and the estimate is less sure than its
    /// interval says (docs/statistics.md, "When not to trust it"). So is a person fit below
    /// −3, said under the table: the model fails easy anchors as often as hard ones. Several
    /// models are a line each, their overall scores; --detail (or -m MODEL) gives each one's
    /// categories.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors, a subset file that cannot be used, or when nothing was found.
    Estimate(EstimateArgs),
    /// One test in every run: outcome, error, prompt, answer, tokens, latency.
    ///
    /// One test: its outcome in every run, error type and message, the prompt's question turns,
    /// the model's answer, the expected answer, tokens and latency.
    ///
    /// PATHs are run folders or folders of runs in any layout, or report and result files of
    /// any format; TEST_ID is the test id (`multi_turn_base_3`, `live_simple_29-7-2`,
    /// a SWE-bench instance id, a gstack test name).
    ///
    /// Exit status: 0 when the test was found; 1 when it was, but files had errors; 2 when
    /// it is in none of the runs (naming ids like it, with the same numbers); 2 also when the
    /// machine fails it (an I/O error, a full disk, a server lost).
    Show(ShowArgs),
    /// How each test moved over time: its rate, last runs, streak and status.
    ///
    /// How each test moved over time: per test its pass rate, the last runs as a ✓/✗ sparkline,
    /// the current streak, and a status decided as gstack's `eval trend` does (improving,
    /// degrading, flaky, stable-pass, stable-fail).
    ///
    /// PATHs are runs of any format, or folders of them (`store:<name>` too). Runs are
    /// ordered by their timestamp, then by name (runs without one, such as BFCL folders,
    /// last, in name order); only the last --limit runs of each model count.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors or when nothing was found; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Trend(TrendArgs),
    /// One self-contained HTML file to look at and share.
    ///
    /// One self-contained HTML file to look at and share: per model the stability overview, a
    /// tests × runs heatmap (flaky tests first; runs in time order; click a cell for the error
    /// type, message, tokens and latency of that test in that run), the least stable tests, the
    /// pass rate per category over time when runs are timed, and, with --base and --new, the
    /// comparison of two sides. It opens offline: nothing is loaded from anywhere.
    ///
    /// PATHs are runs of any format, or folders of them; with --base/--new and no PATH, the
    /// heatmap shows the runs of both sides. The file is written atomically to -o;
    /// `--format markdown` also prints a summary linking to it, for a CI job summary.
    ///
    /// Exit status: 0 on success; 1 when files had errors (or warnings, with --strict);
    /// 2 on usage errors, when nothing was found, or when -o would write where it reads;
    /// 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Report(ReportArgs),
    /// A live view in the browser of runs as they land.
    ///
    /// A live view in the browser of runs as they land: everything `report` shows, with trend,
    /// cost, each test in every run, search and filters.
    ///
    /// A local web server over the PATHs (runs, folders of runs, `store:` selections of
    /// the team store), read through the same pipeline and digest cache as every command.
    /// It prints its URL (127.0.0.1, a free port) and serves until stopped (Ctrl-C). When a
    /// file below a folder served is added or changed, or a run is pushed to the store,
    /// open pages show it within a couple of seconds, without a reload; only what changed
    /// is read again. The page asks for what is on screen only, so thousands of runs stay
    /// quick, and the whole view (tab, model, filters, search, test, comparison) is in its
    /// URL: send the link, and a teammate with access sees the same view.
    ///
    /// It is read-only and serves only the PATHs. --bind with an address other machines
    /// reach needs a token: --token, or one it makes and prints in the URL.
    ///
    /// Exit status: 2 on usage errors (a PATH that does not exist, an address that cannot be
    /// bound, a bad token); otherwise it serves until stopped.
    Serve(ServeArgs),
    /// What runs cost: tokens and dollars per model, per run and per passed test.
    ///
    /// One row per model: its runs' input and output tokens and dollars added up, dollars per
    /// run and per passed test. The figures come from each run's own accounting (gstack's
    /// `costs`) or are summed over its tests (BFCL token counts; per-test tokens and costs of
    /// gstack, JUnit, SF-Bench, inspect_ai, …). --detail adds each run's table of the models
    /// it called, with API calls (or the tests that record tokens).
    ///
    /// Exit status: 0 on success; 1 when files had errors; 2 on usage errors or when nothing
    /// was found; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Cost(CostArgs),
    /// Recompute an SF-Bench or SWE-bench report's summary.
    ///
    /// Recompute a report's summary: SF-Bench (every summary field as SF-Bench defines it, what
    /// the stored summary gets wrong, the resolved rule the data follows; `--format markdown`
    /// renders SF-Bench's summary.md) or a SWE-bench run report (counts, and the resolve rate
    /// over each denominator).
    ///
    /// Exit status: 0 on success; 2 when FILE cannot be read or is not such a report.
    Summary(SummaryArgs),
    /// Check files against their format, and say where they are wrong.
    ///
    /// Check files against their format: BFCL result and score files (every line parsed, the
    /// summary line against the files, every failure in the result file, no duplicate ids,
    /// categories matching file names), SF-Bench and SWE-bench reports, gstack results, JUnit
    /// XML reports; in every format, what its reader refused or read with a default, and the
    /// JSON keys its writers never give (a warning per key, with how many objects have it).
    ///
    /// Exit status: 0 when every file is valid; 1 when one is invalid (or has warnings, with
    /// --strict); 2 when nothing could be checked; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Validate(ValidateArgs),
    /// Convert a run to gstack, SF-Bench v2, SWE-bench or JUnit XML.
    ///
    /// Convert a run to another format. Every field with a counterpart is mapped; what has none
    /// (and what got a default) is listed on stderr.
    ///
    /// IN is any run evaltally reads: a BFCL run folder, an SF-Bench or SWE-bench report, a
    /// gstack result. `--to sfbench-v2` also migrates SF-Bench v1 files (the migrate-input
    /// shape, evaluate.py's legacy file, the engine's summary.json), keeping statuses,
    /// scores, durations and errors that SF-Bench's own migration loses.
    ///
    /// What the output cannot hold, or the run did not record, is said on stderr, one line
    /// each after a note.
    ///
    /// Exit status: 0 on success; 1 when files of IN had errors (what could be read is
    /// converted and written), or when the run has no test judged pass, fail or errored; 2 on
    /// usage errors, when IN holds no run or several, or when OUT
    /// would replace an input or sit in a folder read; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Convert(ConvertArgs),
    /// Export runs as JSON Lines or Parquet: one row per run and test.
    ///
    /// Export runs as JSON Lines: one normalised line per (run, test) with run, model,
    /// category, id, outcome, error type, duration, tokens and cost, the shape DuckDB, Spark or
    /// BigQuery load directly; or as Parquet, the same columns typed (--format parquet -o
    /// FILE). See docs/export.md.
    ///
    /// Exit status: 0 on success; 1 when files had errors (what could be read is exported);
    /// 2 on usage errors, when nothing was found, or when OUT would replace an input or sit in
    /// a folder read; 2 also when the machine fails it (an I/O error, a full disk, a server lost).
    Export(ExportArgs),
    /// Validate runs and save them in the results store.
    ///
    /// Validate runs, then save them into the results store: a folder, under names that never
    /// collide (written atomically; links that leave a run folder are reported and not copied),
    /// or a PostgreSQL team store, each PATH in one transaction, keyed by the digest of its
    /// files so that pushing it again adds nothing. Each PATH is a report file or a run folder.
    ///
    /// Exit status: 0 when every PATH was pushed; 1 when one was not (invalid, files that could
    /// not be read, or no result file evaltally reads); 2 on usage errors, a store URL that is not postgres://, a store that is
    /// not a folder, or a PostgreSQL store that cannot be used (password, server), and when
    /// the machine fails the push (a full disk, a connection lost): the message names the
    /// PATH and how many PATHs before it were stored, each whole.
    Push(PushArgs),
    /// List what the results store holds, newest first.
    ///
    /// List what the results store holds, newest first (by the date the runs record; entries
    /// whose runs record none after the others, last pushed first): per entry the date, branch, tier, passes out of scored tests, cost
    /// and version its runs record, its format and where it was pushed from; for a PostgreSQL
    /// store, one line per stored run.
    ///
    /// Exit status: 0; 2 for a store URL that is not postgres://, a store that is not a
    /// folder, a PostgreSQL store that cannot be used, or an I/O error.
    Runs(RunsArgs),
    /// Print a shell completion script.
    ///
    /// Print a shell completion script on stdout.
    ///
    /// bash: `evaltally completions bash > ~/.local/share/bash-completion/completions/evaltally`;
    /// zsh: `evaltally completions zsh > ~/.zfunc/_evaltally` (with `~/.zfunc` in $fpath);
    /// fish: `evaltally completions fish > ~/.config/fish/completions/evaltally.fish`;
    /// PowerShell: `evaltally completions powershell >> $PROFILE`; elvish: `evaltally
    /// completions elvish >> ~/.config/elvish/rc.elv`.
    ///
    /// Exit status: 0.
    Completions(CompletionsArgs),
    /// Look after the digest cache: where it is, what it holds, emptying it.
    ///
    /// Look after the digest cache: where it is, what it holds, emptying and pruning it.
    ///
    /// The cache is in $EVALTALLY_CACHE, else the user's cache folder, and is kept under
    /// $EVALTALLY_CACHE_SIZE (default 1GiB; K, M, G, T are powers of 1000, Ki, Mi, Gi, Ti
    /// of 1024) by leaving out what was used least recently. Deleting it is always safe.
    ///
    /// Exit status: 0; 2 when there is no cache folder (no $EVALTALLY_CACHE and no home
    /// folder), it is a file, $EVALTALLY_CACHE_SIZE is not a size, or the folder could not be
    /// emptied (an I/O error).
    Cache(CacheArgs),
    /// List the formats evaltally reads: their names, aliases and the files they claim.
    ///
    /// The names and aliases are what --as takes.
    ///
    /// Exit status: 0.
    Formats(FormatsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct FormatsArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatsFormat::Text)]
    pub(crate) format: FormatsFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatsFormat {
    /// One block per format.
    Text,
    /// One JSON document: {"schema", "formats": [{name, aliases, files}]}.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct CacheArgs {
    #[command(subcommand)]
    pub(crate) action: CacheAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum CacheAction {
    /// Print the cache folder's path.
    Dir,
    /// What the cache holds: its folder, the stored readings, the packs they are in, its
    /// size and its size limit.
    Info {
        /// Output format.
        #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
        format: InfoFormat,
    },
    /// Remove everything evaltally keeps in the cache folder (the folder and anything
    /// else in it stay). The next analysis reads every file again.
    Clean,
    /// Merge the packs into one and keep the cache under its size limit now, leaving out
    /// the readings used least recently (analyses do this when there are more than eight
    /// packs or the limit is passed).
    Prune,
}

/// What `subset` and `estimate` print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FitFormat {
    /// Tables, for people.
    Text,
    /// One JSON document on stdout.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum InfoFormat {
    /// One line per fact, for people.
    Text,
    /// {"schema", "folder", "entries", "packs", "bytes", "stale_bytes", "limit"}.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
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

/// How errored tests count: `--errors-as`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum ErrorsAs {
    /// Apart: an error judges nothing (its own column).
    #[default]
    Errored,
    /// As failures, the benchmarks' official counting.
    Fail,
}

/// How files are read: the options every command that reads runs shares.
/// `--model` and `--category`: what part of the runs a command answers for.
#[derive(Debug, Args)]
pub(crate) struct Select {
    /// Only this model (repeatable).
    #[arg(long = "model", short = 'm', value_name = "M")]
    pub(crate) models: Vec<String>,
    /// Only this category (repeatable).
    #[arg(long = "category", short = 'c', value_name = "C")]
    pub(crate) categories: Vec<String>,
}

#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// Also read gstack's incremental saves (`_partial-e2e.json`, or `"_partial": true`
    /// inside) of runs that had not finished; left out by default, as gstack's own readers do.
    #[arg(long)]
    pub(crate) include_partial: bool,
    /// Read every file as this format, without telling formats apart by content (a name or
    /// alias `evaltally formats` lists). Files of other formats are left out.
    #[arg(long = "as", value_name = "FORMAT", value_parser = format_names(), ignore_case = true)]
    pub(crate) as_format: Option<String>,
    /// How a test the harness or the inference failed on counts (inspect sample errors,
    /// promptfoo errors, BFCL inference errors, SWE-bench error instances): apart, or as a
    /// failure, the benchmarks' official counting.
    #[arg(long, value_enum, value_name = "HOW", default_value_t = ErrorsAs::Errored)]
    pub(crate) errors_as: ErrorsAs,
    /// For formats that record scores (inspect_ai, lm-eval, lighteval): a score at or above
    /// this passes. Default: only a full score (1).
    #[arg(long, value_name = "SCORE")]
    pub(crate) pass_threshold: Option<f64>,
    /// For logs with several scorers (inspect_ai) or metrics (lm-eval, lighteval): the one
    /// to read, or a key of the dictionaries a scorer gives (`KEY` or `SCORER/KEY`).
    /// Default: the first the log lists (for lm-eval, the first that is 0 or 1 for every
    /// document; for lighteval, the first the results file configures for the task).
    /// `--metric` is the same option.
    #[arg(long, visible_alias = "metric", value_name = "NAME")]
    pub(crate) scorer: Option<String>,
    /// Read files with the same bytes as one read before as runs of their own. By default
    /// such a file (one run saved twice under two names) is said and read once, so that it
    /// does not count twice as evidence; so is one with the same run id, tests and outcomes
    /// (an inspect_ai eval saved as `.eval` and as `.json`).
    #[arg(long)]
    pub(crate) keep_duplicates: bool,
}

/// When `compare` exits 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOn {
    /// Any regression (a consistent one, for groups) in any category.
    Regressions,
    /// A significant drop: a model's overall pass rate, or a category whose verdict is
    /// regression (p < 0.05 after --correction).
    Significant,
}

/// `--correction`: how p-values tested together are corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Correction {
    /// Holm–Bonferroni: the chance of any false "significant" at most 5%.
    Holm,
    /// Benjamini–Hochberg: the expected share of false ones among the "significant" at most 5%.
    Bh,
    /// None.
    None,
}

/// `--cluster-by`: the clusters of the clustered standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ClusterBy {
    /// Every test its own cluster.
    Test,
    /// Tests sharing context, read from their ids: SWE-bench repository, BFCL function
    /// document or memory scenario, HELM instance, promptfoo test case (docs/statistics.md).
    Group,
}

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// BASE and NEW: two run folders.
    #[arg(value_name = "RUN", num_args = 0..=2, conflicts_with_all = ["base", "new"])]
    pub(crate) runs: Vec<PathBuf>,
    /// The base group: run folders or folders of runs.
    #[arg(long, value_name = "PATH", num_args = 1.., requires = "new")]
    pub(crate) base: Vec<PathBuf>,
    /// The new group: run folders or folders of runs.
    #[arg(long, value_name = "PATH", num_args = 1.., requires = "base")]
    pub(crate) new: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Read every run as a run of one model ("all models"), e.g. to compare two groups of
    /// runs of different configurations.
    #[arg(long)]
    pub(crate) pool_models: bool,
    /// Exit 1 on any regression, or only on a significant drop: for CI gates.
    #[arg(long, value_enum, value_name = "WHEN")]
    pub(crate) fail_on: Option<FailOn>,
    /// Quarantined tests, which --fail-on regressions lets regress (and says so): a
    /// flaky_tests.json that `stability --out` wrote (evaltally.test-ids), or a folder holding
    /// one, or one per model in sub-folders (repeatable). Their ids count for every model.
    #[arg(long, value_name = "FILE")]
    pub(crate) known_flaky: Vec<PathBuf>,
    /// The change in pass rate (0.05 = 5 points) a comparison must be able to see to say
    /// "no change"; below that power it says "inconclusive".
    #[arg(long, value_name = "RATE", default_value_t = 0.05)]
    pub(crate) effect: f64,
    /// Correct p-values tested together: the categories' and, between groups, the tests'.
    /// Default: Holm across categories, Benjamini–Hochberg across tests.
    #[arg(long, value_enum)]
    pub(crate) correction: Option<Correction>,
    /// Exit 3 when a verdict is inconclusive: the data cannot tell a change of --effect from
    /// noise.
    #[arg(long)]
    pub(crate) require_conclusive: bool,
    /// Exit 1 when reading the files gave warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Runs of a reference solution (SWE-bench gold patches, a known-good model): a test
    /// that fails or flips under them is the benchmark's, said and left out of the models'
    /// verdicts. Give them apart from the PATHs (runs among both are taken as the reference's).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub(crate) reference: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

/// `stability --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StabilityFormat {
    /// A table per model, for the terminal.
    Text,
    /// One JSON document on stdout.
    Json,
    /// Markdown tables, fit for a CI job summary.
    Markdown,
    /// JUnit XML with one testcase per test: stable failures as <failure>, flaky tests as
    /// passes with one Surefire <flakyFailure> per failed run, tests that only errored as
    /// <error> (Jenkins, GitLab and GitHub test reporters).
    Junit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowFormat {
    /// A table of runs and the details of one run.
    Text,
    /// Every run's details as one JSON document.
    Json,
}

#[derive(Debug, Args)]
#[command(override_usage = "evaltally show [OPTIONS] <PATH>... <TEST_ID>")]
pub(crate) struct ShowArgs {
    /// Run folders or folders of runs (or `store:…` runs), then the test id.
    #[arg(required = true, num_args = 1.., value_name = "PATH")]
    pub(crate) args: Vec<String>,
    /// Only this model (repeatable).
    #[arg(long = "model", short = 'm', value_name = "M")]
    pub(crate) models: Vec<String>,
    /// Only this category (repeatable): where the id names a test in several (lighteval's,
    /// lm-eval's and inspect_ai's ids count within a task).
    #[arg(long = "category", short = 'c', value_name = "C")]
    pub(crate) categories: Vec<String>,
    /// Print the details of this run (default: the last run where the test failed or errored).
    #[arg(long, value_name = "NAME")]
    pub(crate) run: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub(crate) format: ShowFormat,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ValidateFormat {
    /// One line per file and its findings.
    Text,
    /// {"schema", "files": [{"path", "format", "valid", "errors", "warnings"}]}.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// Files, run folders or folders of reports (or `store:…` runs, checked where they are
    /// stored).
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub(crate) format: ValidateFormat,
    /// Also fail on warnings, and run the checks upstream validators lack.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Check every file as this format (a name or alias `evaltally formats` lists), so a file
    /// too broken to be recognised still gets that format's findings.
    #[arg(long = "as", value_name = "FORMAT", value_parser = format_names(), ignore_case = true)]
    pub(crate) as_format: Option<String>,
}

/// The shapes `convert --to` writes: the registry's writers, each with its description.
fn writers() -> clap::builder::PossibleValuesParser {
    let writers = evaltally_analyzer::load::registry().writers();
    clap::builder::PossibleValuesParser::new(
        writers.iter().map(|w| clap::builder::PossibleValue::new(w.name()).help(w.describe())),
    )
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// The file to convert.
    #[arg(value_name = "IN")]
    pub(crate) input: PathBuf,
    /// The format to write.
    #[arg(long, value_parser = writers())]
    pub(crate) to: String,
    /// Write here (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,
    /// The model to convert, when IN holds several.
    #[arg(long = "model", short = 'm', value_name = "M")]
    pub(crate) model: Option<String>,
    /// The run to convert, when IN holds several.
    #[arg(long, value_name = "NAME")]
    pub(crate) run: Option<String>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormat {
    /// JSON Lines.
    Jsonl,
    /// Parquet (needs -o): the same columns, typed.
    Parquet,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// Run folders, folders of runs, report files.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Output format (default: Parquet for an -o file named `.parquet`, else JSON Lines).
    #[arg(long, value_enum)]
    pub(crate) format: Option<ExportFormat>,
    /// Write here (atomically) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct PushArgs {
    /// Report files or run folders.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Record the runs as made on this git branch, where their files do not say (in CI:
    /// $GITHUB_REF_NAME, $CI_COMMIT_BRANCH), so that `store:branch=B` finds them.
    #[arg(long, value_name = "B")]
    pub(crate) branch: Option<String>,
    /// Record the runs as made at this git commit, where their files do not say (in CI:
    /// $GITHUB_SHA, $CI_COMMIT_SHA).
    #[arg(long, value_name = "SHA")]
    pub(crate) commit: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct RunsArgs {
    /// Only entries whose runs were on this git branch.
    #[arg(long, value_name = "B")]
    pub(crate) branch: Option<String>,
    /// Only entries of this tier (gstack: e2e, llm-judge).
    #[arg(long, value_name = "T")]
    pub(crate) tier: Option<String>,
    /// The N most recent entries (0: all).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub(crate) limit: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RunsFormat::Text)]
    pub(crate) format: RunsFormat,
}

/// How `runs` prints the store's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum RunsFormat {
    /// One line per entry (per run, for a PostgreSQL store): date, branch, tier, passes,
    /// cost, version, format and where it was pushed from.
    Text,
    /// {"schema", "store", "found", "entries": [{"name", "format", "source", "pushed_at_unix",
    /// "runs": [{"run", "model", "timestamp", "git_branch", "tier", "version", "passed",
    /// "scored", "cost_usd"}]}]}, newest first; fields a run does not record are left out.
    /// A PostgreSQL store: {"schema", "store", "found", "runs": [{"id", "run", "model", "format",
    /// "source", "pushed_at_unix", "timestamp", "git_branch", "git_sha", "tier", "version",
    /// "passed", "scored", "cost_usd"}]}.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct SummaryArgs {
    /// The report file (or `store:…` runs, recomputed from their stored rows).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
}

#[derive(Debug, Args)]
pub(crate) struct StabilityArgs {
    /// Run folders or folders of runs.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// Write stable_tests.json, flaky_tests.json and failing_tests.json here (one folder
    /// per model when there are several).
    #[arg(short = 'o', long, alias = "output", value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StabilityFormat::Text)]
    pub(crate) format: StabilityFormat,
    /// Read every run as a run of one model ("all models"): for runs of different
    /// configurations of one system, or reports whose file names do not name the model.
    #[arg(long)]
    pub(crate) pool_models: bool,
    /// Exit 1 when a test passed less than this share of the runs that judged it (0.8: 4
    /// of 5), listing those tests on stderr: a per-test repeat gate for CI. Tests in
    /// --known-flaky files are not held to it.
    #[arg(long, value_name = "RATE")]
    pub(crate) fail_under_test_rate: Option<f64>,
    /// Quarantined tests: a flaky_tests.json that --out wrote (evaltally.test-ids), or a
    /// folder holding one, or one per model in sub-folders (repeatable). Their ids count
    /// for every model.
    #[arg(long, value_name = "FILE")]
    pub(crate) known_flaky: Vec<PathBuf>,
    /// List the N least stable tests per model, with their per-run outcomes (text: 10 by
    /// default, 0 for none; JSON and Markdown: none by default).
    #[arg(long, value_name = "N")]
    pub(crate) top_flaky: Option<usize>,
    /// Text: add pass^k and pass@k, the precision of each pass rate, the most flaky and most
    /// stable category and, for BFCL, its overall score.
    #[arg(long)]
    pub(crate) detail: bool,
    /// The clusters of the clustered standard error: each test, or tests sharing context.
    #[arg(long, value_enum, default_value_t = ClusterBy::Test)]
    pub(crate) cluster_by: ClusterBy,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Runs of a reference solution (SWE-bench gold patches, a known-good model): a test
    /// that fails or flips under them is the benchmark's, said and left out of the models'
    /// verdicts. Give them apart from the PATHs (runs among both are taken as the reference's).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub(crate) reference: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// Run folders or folders of runs.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// The standard error to reach, as a rate (0.01 = 1 point).
    #[arg(long, value_name = "SE", default_value_t = 0.01)]
    pub(crate) target_se: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Read every run as a run of one model ("all models").
    #[arg(long)]
    pub(crate) pool_models: bool,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    /// What this many dollars buys: the runs, at the recorded cost per run, and the smallest
    /// change they detect against the runs at hand.
    #[arg(long, value_name = "USD")]
    pub(crate) budget: Option<f64>,
    /// The other axis: the smallest subset of tests (25, 50, 100, …) that predicts each
    /// model's full score to this median error, as a rate (0.02 = 2 points), each model left
    /// out in turn (`evaltally subset --check` at each size).
    #[arg(long, value_name = "ERROR")]
    pub(crate) subset_error: Option<f64>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct SubsetArgs {
    /// Runs of many models over the same tests, or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// How many anchor tests, spread evenly over the categories (default 100); CATEGORY=N
    /// gives that category N of them, the other categories share the rest (repeatable:
    /// `--size 120 --size relevance=20`).
    #[arg(long, value_name = "N|CATEGORY=N", value_parser = size_part)]
    pub(crate) size: Vec<SizePart>,
    /// Write the subset file here (atomically).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Leave each model out in turn and say how well the subset predicts it, beside random
    /// subsets of the same size.
    #[arg(long)]
    pub(crate) check: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FitFormat::Text)]
    pub(crate) format: FitFormat,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

/// One `--size` of `subset`: the total, or one category's count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SizePart {
    Total(usize),
    Category(String, usize),
}

/// `N` or `CATEGORY=N` (the category's name may itself hold `=`: the count is after the last).
fn size_part(s: &str) -> Result<SizePart, String> {
    let count =
        |n: &str| n.trim().parse::<usize>().map_err(|_| format!("expected a whole number of anchors, found `{n}`"));
    match s.rsplit_once('=') {
        None => count(s).map(SizePart::Total),
        Some(("", _)) => Err("expected CATEGORY=N, found no category".to_string()),
        Some((category, n)) => Ok(SizePart::Category(category.to_string(), count(n)?)),
    }
}

impl SubsetArgs {
    /// The anchors asked for: the last total given (100 without one), and each category's.
    pub(crate) fn size(&self) -> evaltally_analyzer::subset::Size {
        let total = self.size.iter().rev().find_map(|p| match p {
            SizePart::Total(n) => Some(*n),
            SizePart::Category(..) => None,
        });
        let mut size = evaltally_analyzer::subset::Size::from(total.unwrap_or(100));
        for part in &self.size {
            if let SizePart::Category(category, n) = part {
                size = size.with(category.clone(), *n);
            }
        }
        size
    }
}

#[derive(Debug, Args)]
pub(crate) struct EstimateArgs {
    /// Runs of the subset's anchors (or of every test), or folders of them.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// The subset file `evaltally subset -o` wrote.
    #[arg(long, value_name = "FILE")]
    pub(crate) subset: PathBuf,
    /// Text: each model's categories, not only its overall score (what one model gets).
    #[arg(long)]
    pub(crate) detail: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FitFormat::Text)]
    pub(crate) format: FitFormat,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// One line on stdout: where the report is and what it holds.
    Text,
    /// A Markdown summary on stdout that links to the HTML file, for a CI job summary.
    Markdown,
}

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// Runs, or folders of runs: the heatmap's (default with --base/--new: both sides).
    #[arg(value_name = "PATH", required_unless_present = "base")]
    pub(crate) paths: Vec<PathBuf>,
    /// The base side of a comparison: run folders or folders of runs.
    #[arg(long, value_name = "PATH", num_args = 1.., requires = "new")]
    pub(crate) base: Vec<PathBuf>,
    /// The new side of a comparison.
    #[arg(long, value_name = "PATH", num_args = 1.., requires = "base")]
    pub(crate) new: Vec<PathBuf>,
    /// Write the HTML file here (atomically).
    #[arg(short = 'o', long = "output", value_name = "FILE", required = true)]
    pub(crate) output: PathBuf,
    /// What to print on stdout.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub(crate) format: ReportFormat,
    /// The link to the HTML file in the Markdown summary (default: -o as given), e.g. the
    /// name of the CI artifact that holds it.
    #[arg(long, value_name = "URL")]
    pub(crate) link: Option<String>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// Read every run as a run of one model ("all models").
    #[arg(long)]
    pub(crate) pool_models: bool,
    /// Cut error messages in cell details to N characters (shorter still, down to none, if
    /// the file would pass 9.5 MB).
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub(crate) message_chars: usize,
    /// A subset file (`evaltally subset -o`): each model's overview carries its estimated
    /// full score from the anchors it ran.
    #[arg(long, value_name = "FILE")]
    pub(crate) subset: Option<PathBuf>,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Runs, folders of runs (watched for new ones), or `store:` selections.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// The port to listen on (default: a free one).
    #[arg(long, default_value_t = 0)]
    pub(crate) port: u16,
    /// The address to listen on. One that other machines reach needs a token.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub(crate) bind: std::net::IpAddr,
    /// The token every request must carry (at least 16 letters, digits, '-', '_', '.' or
    /// '~'); default with a --bind other machines reach: a new random one, in the URL printed.
    #[arg(long, value_name = "TOKEN")]
    pub(crate) token: Option<String>,
    /// Open the page in the default browser.
    #[arg(long)]
    pub(crate) open: bool,
    /// A subset file (`evaltally subset -o`): each model's overview carries its estimated
    /// full score from the anchors it ran.
    #[arg(long, value_name = "FILE")]
    pub(crate) subset: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// Read every run as a run of one model ("all models").
    #[arg(long)]
    pub(crate) pool_models: bool,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct CostArgs {
    /// Runs, or folders of runs.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// Only this model (repeatable).
    #[arg(long = "model", short = 'm', value_name = "M")]
    pub(crate) models: Vec<String>,
    /// Also each run: the models it called, with calls, tokens and dollars, and where its
    /// figures come from (text and Markdown; the JSON always has them).
    #[arg(long)]
    pub(crate) detail: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

#[derive(Debug, Args)]
pub(crate) struct TrendArgs {
    /// Runs, or folders of runs.
    #[arg(required = true, value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    /// The last N runs of each model (0: all).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub(crate) limit: usize,
    /// Only runs on this git branch (from the run's metadata).
    #[arg(long, value_name = "B")]
    pub(crate) branch: Option<String>,
    /// Only runs of this tier (gstack: e2e, llm-judge).
    #[arg(long, value_name = "T")]
    pub(crate) tier: Option<String>,
    /// Only tests whose id contains this text.
    #[arg(long, value_name = "TEXT")]
    pub(crate) test: Option<String>,
    #[command(flatten)]
    pub(crate) select: Select,
    /// Only tests with this status (repeatable).
    #[arg(long, value_name = "STATUS", value_parser = ["improving", "degrading", "flaky", "stable-pass", "stable-fail"])]
    pub(crate) status: Vec<String>,
    /// List the stable tests too: text and Markdown list the tests that moved (degrading,
    /// improving, flaky) and count the stable ones, unless --status names statuses.
    #[arg(long)]
    pub(crate) all: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// Exit 1 when there were warnings.
    #[arg(long)]
    pub(crate) strict: bool,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

/// The names `--as` takes, with their aliases (for the error of a name it does not know and
/// for shell completion): those of the registry's formats.
fn format_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        evaltally_analyzer::load::registry()
            .formats()
            .iter()
            .map(|f| clap::builder::PossibleValue::new(f.name()).aliases(f.aliases().iter().copied())),
    )
}
