//! `evaltally stability`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use evaltally_analyzer::{Filter, LoadError, Loaded, Records, load, stability};
use evaltally_core::text::printable;
use evaltally_format::DiscoverError;
use evaltally_report::{Style, stability as render};

use crate::cli::{ColorChoice, ErrorsAs, ReadArgs, StabilityArgs, StabilityFormat};
use crate::output;
use crate::progress::Bar;
use crate::quarantine::Quarantine;
use crate::{Exit, UsageError};

pub(crate) fn run(args: &StabilityArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    if let Some(rate) = args.fail_under_test_rate
        && !(0.0..=1.0).contains(&rate)
    {
        return Err(UsageError(format!("--fail-under-test-rate {rate}: give a share from 0 to 1")).into());
    }
    let quarantine = Quarantine::read(&args.known_flaky)?;
    let filter = filter(&args.read, args.select.models.clone(), args.select.categories.clone(), args.pool_models)?;
    let mut loaded = load_runs(&args.paths, &filter, "analyse")?;
    let reference = with_reference(&mut loaded, &args.reference, &filter)?;
    let cluster_by = match args.cluster_by {
        crate::cli::ClusterBy::Test => evaltally_analyzer::cluster::ClusterBy::Test,
        crate::cli::ClusterBy::Group => evaltally_analyzer::cluster::ClusterBy::Group,
    };
    let mut report = stability::analyze_with(&loaded.runs, stability::Settings { cluster_by });
    report.reference = reference;

    let style = if output::use_color(color) { Style::colored() } else { Style::plain() };
    let options = render::Options { style, top_flaky: args.top_flaky, detail: args.detail };
    if let Some(dir) = &args.out {
        write_id_files(dir, &report, &args.paths)?;
    }
    match args.format {
        StabilityFormat::Text => output::print(&render::text(&report, options))?,
        // Megabytes at thousands of runs: written as it is made.
        StabilityFormat::Json => output::stream(|out| render::write_json(&report, &loaded.diagnostics, options, out))?,
        StabilityFormat::Markdown => output::print(&render::markdown(&report, &loaded.diagnostics, options))?,
        StabilityFormat::Junit => output::print(&render::junit(&report))?,
    }
    output::report_diagnostics(&loaded.diagnostics);

    let tripped = args.fail_under_test_rate.is_some_and(|rate| !under_rate(&report, rate, &quarantine));
    let exit = exit_code(&loaded.diagnostics, args.strict, tripped);
    // The process ends next: freeing thousands of runs one allocation at a time would cost
    // more than analysing them (5% of the time at 1,000 JUnit reports), and the OS takes the
    // memory back at once.
    std::mem::forget(loaded);
    std::mem::forget(report);
    Ok(exit)
}

/// The `--fail-under-test-rate` gate: whether every test judged by some run, quarantined
/// ones aside, passed at least `rate` of its judged runs. Lists on stderr those that did
/// not, and the quarantined tests let through.
fn under_rate(report: &stability::StabilityReport, rate: f64, quarantine: &Quarantine) -> bool {
    let mut below = Vec::new();
    let mut excused = 0;
    for model in &report.models {
        for category in &model.categories {
            for test in category.tests.iter().filter(|t| t.runs > 0 && t.pass_rate() < rate) {
                if quarantine.contains(&category.category, &test.id) {
                    excused += 1;
                    continue;
                }
                below.push(format!(
                    "  {} / {} / {}: passed {} of {} runs ({:.0}%)",
                    printable(&model.model),
                    printable(&category.category),
                    printable(&test.id),
                    test.passed,
                    test.runs,
                    100.0 * test.pass_rate()
                ));
            }
        }
    }
    let mut note = String::new();
    if !below.is_empty() {
        let _ = writeln!(
            note,
            "--fail-under-test-rate {rate}: {} passed less than {:.0}% of their runs:\n{}",
            plural(below.len(), "test"),
            100.0 * rate,
            below.join("\n")
        );
    }
    if excused > 0 {
        let _ = writeln!(
            note,
            "--fail-under-test-rate {rate}: {} below the rate not counted: quarantined by --known-flaky",
            plural(excused, "test")
        );
    }
    if !note.is_empty() {
        #[allow(clippy::print_stderr)]
        {
            eprint!("{note}");
        }
    }
    below.is_empty()
}

/// With `--reference PATH...`: the reference runs read (any model: the filter's models
/// aside), `loaded`'s runs of the same (model, run) taken out, and the tests the reference
/// fails or flips on left out of the rest. `None` without reference paths.
pub(crate) fn with_reference(
    loaded: &mut Loaded,
    paths: &[PathBuf],
    filter: &Filter,
) -> anyhow::Result<Option<evaltally_analyzer::reference::Reference>> {
    if paths.is_empty() {
        return Ok(None);
    }
    let any_model = Filter { models: Vec::new(), ..filter.clone() };
    let gold = load_runs(paths, &any_model, "use as the reference")?;
    for d in gold.diagnostics {
        if !loaded.diagnostics.contains(&d) {
            loaded.diagnostics.push(d);
        }
    }
    let theirs: std::collections::BTreeSet<(&str, &str)> =
        gold.runs.iter().map(|r| (r.model.as_str(), r.run.as_str())).collect();
    loaded.runs.retain(|r| !theirs.contains(&(r.model.as_str(), r.run.as_str())));
    let mut reference = evaltally_analyzer::reference::Reference::of(&gold.runs);
    loaded.runs = reference.leave_out(&loaded.runs);
    Ok(Some(reference))
}

/// "1 test" / "3 tests".
pub(crate) use evaltally_core::text::plural;

/// The runs below `paths`; nothing read at all is a usage error (`nothing to VERB in …`),
/// after the diagnostics that say why.
pub(crate) fn load_runs(paths: &[PathBuf], filter: &Filter, verb: &str) -> anyhow::Result<Loaded> {
    // `store:…` arguments left unresolved are runs of the PostgreSQL store.
    let (stored, files) = crate::store::split(paths);
    let mut loaded = if files.is_empty() {
        Loaded::default()
    } else {
        load::load_cached(&files, filter, &Bar::new(), crate::cache::get()).map_err(|e| explain(&e))?
    };
    if !stored.is_empty() {
        load::add_runs(&mut loaded, crate::store::category_runs(&stored)?, filter);
    }
    something_to(loaded, paths, verb)
}

/// [`load_runs`], with the runs' records (cost, duration, tokens) taken from the same
/// reading of each file.
pub(crate) fn load_runs_and_records(
    paths: &[PathBuf],
    filter: &Filter,
    verb: &str,
) -> anyhow::Result<(Loaded, load::Records)> {
    let (stored, files) = crate::store::split(paths);
    let (mut loaded, mut records) = if files.is_empty() {
        (Loaded::default(), load::Records::default())
    } else {
        load::load_with_records(&files, filter, &Bar::new(), crate::cache::get()).map_err(|e| explain(&e))?
    };
    if !stored.is_empty() {
        load::add_runs(&mut loaded, crate::store::category_runs(&stored)?, filter);
        load::add_records(&mut records, crate::store::records(&stored)?, filter);
    }
    Ok((something_to(loaded, paths, verb)?, records))
}

/// `loaded`, unless it holds no run: then a usage error after the diagnostics.
pub(crate) fn something_to(loaded: Loaded, paths: &[PathBuf], verb: &str) -> anyhow::Result<Loaded> {
    if loaded.runs.is_empty() {
        return Err(nothing_to(&loaded.diagnostics, paths, verb));
    }
    Ok(loaded)
}

/// `records`, unless they hold no run: then a usage error after the diagnostics, as
/// [`something_to`] for the commands that read runs test by test (`cost`, `export`).
pub(crate) fn some_records(records: Records, paths: &[PathBuf], verb: &str) -> anyhow::Result<Records> {
    if records.runs.is_empty() {
        return Err(nothing_to(&records.diagnostics, paths, verb));
    }
    Ok(records)
}

/// The usage error for paths that gave no run, said after what reading them said.
fn nothing_to(diagnostics: &[evaltally_core::Diagnostic], paths: &[PathBuf], verb: &str) -> anyhow::Error {
    output::report_diagnostics(diagnostics);
    let notes: Vec<&evaltally_core::Diagnostic> = diagnostics.iter().filter(|d| d.is_note()).collect();
    // Files of a format that hold no runs (lm-eval's aggregate results named alone).
    let set_aside: Vec<&str> = notes.iter().filter_map(|d| d.set_aside()).collect();
    let why = if output::has_problems(diagnostics) {
        "no result file could be read (see above)".to_string()
    } else if diagnostics.is_empty() {
        "the files found hold no runs".to_string()
    } else if let [what] = set_aside.as_slice()
        && notes.len() == 1
    {
        format!("the one file found holds no runs; it is {what}")
    } else if !set_aside.is_empty() && set_aside.len() == notes.len() {
        "the files found hold no runs (see the note above)".to_string()
    } else {
        "no file found is in a format evaltally reads (see the note above)".to_string()
    };
    UsageError(format!("nothing to {verb} in {}: {why}", output::shown_all(paths))).into()
}

/// The exit code of an analysis: 1 when a file had errors, when there were warnings and
/// `strict`, or when `tripped` (`compare --fail-on`); else 0.
pub(crate) fn exit_code(diagnostics: &[evaltally_core::Diagnostic], strict: bool, tripped: bool) -> Exit {
    let errors = diagnostics.iter().any(evaltally_core::Diagnostic::is_error);
    let warnings = diagnostics.iter().any(evaltally_core::Diagnostic::is_warning);
    if tripped || errors || (strict && warnings) { Exit::Problems } else { Exit::Ok }
}

/// Turns "nothing found" into a usage error that says where it looked and what it found,
/// after what the walk met on the way (a link it did not follow is often why).
pub(crate) fn explain(err: &LoadError) -> anyhow::Error {
    match err {
        LoadError::Discover(DiscoverError::NothingFound { diagnostics, searched, files, .. }) => {
            // A fact that is why nothing was found (reports a run report beside covers) is
            // said as a warning then.
            let said: Vec<evaltally_core::Diagnostic> = diagnostics
                .iter()
                .cloned()
                .map(|mut d| {
                    if d.is_info() {
                        d.severity = evaltally_core::Severity::Warning;
                    }
                    d
                })
                .collect();
            output::report_diagnostics(&said);
            UsageError(format!(
                "nothing to read in {}: {}; `evaltally formats` lists the formats evaltally reads and their files",
                output::shown_all(searched),
                looked_at(searched, files, !diagnostics.is_empty())
            ))
            .into()
        }
        _ => UsageError(err.to_string()).into(),
    }
}

/// What the paths hold, when none holds a file evaltally reads: `it holds no file`,
/// `its 2 files (README.md, x.py) are of no format evaltally reads`, `no format evaltally
/// reads finds runs in its one file (…_prereq_result.json)`, or for one file given `no
/// format evaltally reads finds runs in it`. `files` are those the walk found; `said`
/// tells that the walk reported something (a link it did not follow).
fn looked_at(paths: &[PathBuf], files: &evaltally_format::FilesFound, said: bool) -> String {
    if let [file] = paths
        && file.is_file()
    {
        return "no format evaltally reads finds runs in it".to_string();
    }
    let names: Vec<String> = files
        .first
        .iter()
        .map(|f| {
            let shown = paths.iter().find_map(|root| f.strip_prefix(root).ok()).unwrap_or(f);
            printable(&shown.to_string_lossy()).into_owned()
        })
        .collect();
    let (its, they) = if paths.len() == 1 { ("it holds", "its") } else { ("they hold", "their") };
    let listed = match files.count {
        1 => format!("{they} one file ({})", names.join(", ")),
        n => format!("{they} {n} files ({})", evaltally_core::text::and_more(&names, n)),
    };
    match files.count {
        0 if said => format!("{its} no file the walk could follow (see above)"),
        0 => format!("{its} no file"),
        1 if files.not_claimed == 1 => format!("{listed} is of no format evaltally reads"),
        n if files.not_claimed == n => format!("{listed} are of no format evaltally reads"),
        _ => format!("no format evaltally reads finds runs in {listed}"),
    }
}

/// The filter the command's models, categories and reading options make.
pub(crate) fn filter(
    read: &ReadArgs,
    models: Vec<String>,
    categories: Vec<String>,
    pool_models: bool,
) -> anyhow::Result<Filter> {
    if read.pass_threshold.is_some_and(|t| !t.is_finite()) {
        return Err(UsageError("--pass-threshold must be a number".to_string()).into());
    }
    Ok(Filter {
        models,
        categories,
        pool_models,
        include_partial: read.include_partial,
        forced: forced(read.as_format.as_deref())?,
        errors_as_failures: read.errors_as == ErrorsAs::Fail,
        keep_duplicates: read.keep_duplicates,
        scoring: evaltally_format::Scoring { pass_threshold: read.pass_threshold, scorer: read.scorer.clone() },
        registry: None,
    })
}

/// The format `--as` names, checked against the registry (a usage error listing the known
/// names otherwise).
pub(crate) fn forced(name: Option<&str>) -> anyhow::Result<Option<&'static str>> {
    let Some(name) = name else { return Ok(None) };
    let registry = load::registry();
    match registry.find(name) {
        Some(format) => Ok(Some(format.name())),
        None => Err(UsageError(format!(
            "--as {name}: not a format evaltally knows; known: {}",
            registry.names().join(", ")
        ))
        .into()),
    }
}

/// Writes the id files of every model, after checking that none of them would replace a
/// file the command read.
fn write_id_files(dir: &Path, report: &stability::StabilityReport, inputs: &[PathBuf]) -> anyhow::Result<()> {
    let several = report.models.len() > 1;
    let mut files = Vec::new();
    for model in &report.models {
        let target = if several { dir.join(output::folder_name(&model.model)) } else { dir.to_path_buf() };
        for (name, contents) in render::id_files(model) {
            let path = target.join(name);
            if path.is_dir() {
                let what = format!(
                    "--out {}: {} is a folder; move it, or give --out another folder",
                    output::shown(dir),
                    output::shown(&path)
                );
                return Err(crate::UsageError(what).into());
            }
            output::refuse_overwriting_input(&path, inputs)?;
            files.push((path, contents));
        }
    }
    // Every model's three files as one set: a quarantine list never mixes two analyses.
    let set: Vec<(PathBuf, &[u8])> = files.iter().map(|(path, contents)| (path.clone(), contents.as_bytes())).collect();
    output::write_atomic_set(&set).context("writing the --out files: none written")?;
    Ok(())
}

/// The run records below `paths` ([`load::records`]) through the cache, and those the
/// `store:…` arguments left unresolved select in the PostgreSQL store; "nothing found" is
/// explained as a usage error.
pub(crate) fn records(paths: &[PathBuf], filter: &Filter) -> anyhow::Result<Records> {
    let (stored, files) = crate::store::split(paths);
    let mut records = if files.is_empty() {
        Records::default()
    } else {
        load::records_cached(&files, filter, crate::cache::get()).map_err(|e| explain(&e))?
    };
    crate::store::label_from_entries(&mut records.runs, &files);
    if !stored.is_empty() {
        load::add_records(&mut records, crate::store::records(&stored)?, filter);
    }
    Ok(records)
}
