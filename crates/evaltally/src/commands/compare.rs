//! `evaltally compare`.

use std::path::PathBuf;

use evaltally_analyzer::compare::Verdict;
use evaltally_analyzer::load::Records;
use evaltally_analyzer::{Filter, Loaded, compare, efficiency};
use evaltally_core::Diagnostic;
use evaltally_core::text::{first_of, printable};
use evaltally_report::{Style, compare as render};

use crate::cli::{ColorChoice, CompareArgs, Correction, FailOn, Format};
use crate::output;
use crate::quarantine::Quarantine;
use crate::{Exit, UsageError};

pub(crate) fn run(args: &CompareArgs, color: ColorChoice) -> anyhow::Result<Exit> {
    let filter = super::stability::filter(
        &args.read,
        args.select.models.clone(),
        args.select.categories.clone(),
        args.pool_models,
    )?;
    let quarantine = Quarantine::read(&args.known_flaky)?;
    let ((mut base, base_records), (mut new, new_records)) = match (args.runs.as_slice(), args.base.is_empty()) {
        ([base, new], true) => (load_one(base, "BASE", &filter)?, load_one(new, "NEW", &filter)?),
        ([], false) => (load_side(&args.base, &filter)?, load_side(&args.new, &filter)?),
        _ => {
            return Err(UsageError(
                "give two run folders (`compare BASE NEW`) or two groups (`compare --base PATH... --new PATH...`)"
                    .into(),
            )
            .into());
        }
    };
    if !(args.effect.is_finite() && args.effect > 0.0 && args.effect <= 1.0) {
        return Err(
            UsageError(format!("--effect {}: give a change in pass rate above 0 and at most 1", args.effect)).into()
        );
    }
    let chosen = args.correction.map(|c| match c {
        Correction::Holm => compare::Correction::Holm,
        Correction::Bh => compare::Correction::BenjaminiHochberg,
        Correction::None => compare::Correction::None,
    });
    let defaults = compare::Settings::default();
    let settings = compare::Settings {
        effect: args.effect,
        correction: chosen.unwrap_or(defaults.correction),
        test_correction: chosen.unwrap_or(defaults.test_correction),
    };
    // Reference runs: the tests they fail or flip on leave both sides.
    let mut reference = super::stability::with_reference(&mut base, &args.reference, &filter)?;
    if let Some(r) = reference.as_mut() {
        let theirs: std::collections::BTreeSet<&str> = r.runs.iter().map(String::as_str).collect();
        new.runs.retain(|run| !theirs.contains(run.run.as_str()));
        new.runs = r.leave_out(&new.runs);
    }
    let mut report = compare::compare_with(&base.runs, &new.runs, settings);
    report.reference = reference;
    // Cost, duration and tokens live in the runs' records, read with the runs; what reading
    // them says was said with the runs.
    report.efficiency = efficiency::efficiency(&base_records.runs, &new_records.runs);
    let mut diagnostics: Vec<Diagnostic> = base.diagnostics.into_iter().chain(new.diagnostics).collect();
    if same_files(&base.runs, &new.runs) {
        let given = args.runs.first().or(args.base.first()).cloned().unwrap_or_default();
        diagnostics.push(Diagnostic::warning(
            given,
            "BASE and NEW were read from the same files: every test compares with itself, so nothing can differ",
        ));
    }

    // Two sides with no test in common answer nothing, and a gate cannot pass on nothing:
    // the wrong folder given to a CI job must not read as "no regressions".
    let nothing_compared = report.models.iter().all(|m| m.overall.verdict == Verdict::NotCompared);
    let (counted, excused) = regressions(&report, &quarantine);
    let tripped = match args.fail_on {
        Some(FailOn::Regressions) => !counted.is_empty(),
        Some(FailOn::Significant) => report.models.iter().any(compare::ModelCompare::has_significant_regression),
        None => false,
    };
    let inconclusive = report.models.iter().any(compare::ModelCompare::is_inconclusive);
    let gate = (args.fail_on.is_some() || args.require_conclusive).then(|| render::Gate {
        fail_on: args.fail_on.map(|f| match f {
            FailOn::Regressions => "regressions",
            FailOn::Significant => "significant",
        }),
        tripped,
        require_conclusive: args.require_conclusive,
        inconclusive,
        excused: excused.clone(),
    });
    let text = match args.format {
        Format::Text => render::text(&report, if output::use_color(color) { Style::colored() } else { Style::plain() }),
        Format::Json => render::json_with_gate(&report, &diagnostics, gate.as_ref()),
        Format::Markdown => render::markdown(&report, &diagnostics),
    };
    let note = quarantine_note(&excused, args.fail_on == Some(FailOn::Regressions));
    match (&note, args.format) {
        // JSON keeps stdout one document; the note goes with the diagnostics.
        (Some(note), Format::Json) => {
            output::print(&text)?;
            #[allow(clippy::print_stderr)]
            {
                eprintln!("{note}");
            }
        }
        (Some(note), Format::Text | Format::Markdown) => output::print(&format!("{text}\n{note}\n"))?,
        (None, _) => output::print(&text)?,
    }
    output::report_diagnostics(&diagnostics);

    if nothing_compared {
        let pairs: Vec<String> = report.models.iter().map(|m| printable(&m.model).into_owned()).collect();
        say(&format!(
            "nothing compared: no test is in both BASE and NEW{}; check the paths",
            if pairs.is_empty() { String::new() } else { format!(" ({})", first_of(&pairs, 6)) }
        ));
        return Ok(Exit::Usage);
    }
    if tripped {
        gate_note(&report, args.fail_on, &counted);
    }
    let exit = super::stability::exit_code(&diagnostics, args.strict, tripped);
    if exit == Exit::Ok && args.require_conclusive && inconclusive {
        let which = verdicts(&report, compare::ModelCompare::is_inconclusive, Verdict::Inconclusive);
        say(&format!(
            "--require-conclusive: inconclusive for {which}: more runs would tell (`evaltally plan` says how many)"
        ));
        return Ok(Exit::Inconclusive);
    }
    Ok(exit)
}

/// Says on stderr why `--fail-on` failed the comparison, so that a CI log shows the reason
/// whatever went to stdout; `counted` are the regressions that count ([`regressions`]).
fn gate_note(report: &compare::CompareReport, fail_on: Option<FailOn>, counted: &[String]) {
    match fail_on {
        Some(FailOn::Regressions) => {
            let shown: Vec<String> = counted.iter().map(|r| printable(r).into_owned()).collect();
            say(&format!(
                "--fail-on regressions: {} regressed: {}",
                super::stability::plural(counted.len(), "test"),
                first_of(&shown, 10)
            ));
        }
        Some(FailOn::Significant) => {
            let which = verdicts(report, compare::ModelCompare::has_significant_regression, Verdict::Regression);
            say(&format!("--fail-on significant: a drop beyond noise for {which}"));
        }
        None => {}
    }
}

/// The models `model_has` holds for, each with `overall` when its overall verdict is `wanted`
/// (or, for a regression, its overall pass rate dropped significantly) and the categories
/// whose verdict is: `acme_tiny-7b (overall, simple_python)`.
fn verdicts(report: &compare::CompareReport, model_has: fn(&compare::ModelCompare) -> bool, wanted: Verdict) -> String {
    let models: Vec<String> = report
        .models
        .iter()
        .filter(|m| model_has(m))
        .map(|m| {
            let overall = m.overall.verdict == wanted || (wanted == Verdict::Regression && m.dropped_significantly());
            let mut parts: Vec<String> = overall.then(|| "overall".to_string()).into_iter().collect();
            parts.extend(
                m.categories
                    .iter()
                    .filter(|c| c.summary.verdict == wanted)
                    .map(|c| printable(&c.category).into_owned()),
            );
            format!("{} ({})", printable(&m.model), first_of(&parts, 6))
        })
        .collect();
    first_of(&models, 6)
}

/// One line on stderr.
fn say(line: &str) {
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{line}");
    }
}

/// Whether both sides were read from the same files (`compare run-1 run-1`, a group given
/// twice).
fn same_files(base: &[evaltally_core::CategoryRun], new: &[evaltally_core::CategoryRun]) -> bool {
    let files = |runs: &[evaltally_core::CategoryRun]| -> std::collections::BTreeSet<PathBuf> {
        runs.iter().flat_map(|r| &r.sources).map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())).collect()
    };
    let a = files(base);
    !a.is_empty() && a == files(new)
}

/// The regressions (consistent ones, for groups) of every model as `model / category / id`,
/// as written (the JSON keeps text exactly; messages escape it): those that count, and the
/// quarantined ones.
fn regressions(report: &compare::CompareReport, quarantine: &Quarantine) -> (Vec<String>, Vec<String>) {
    let mut counted = Vec::new();
    let mut excused = Vec::new();
    for model in &report.models {
        for category in &model.categories {
            for id in &category.regressions {
                let named = format!("{} / {} / {}", model.model, category.category, id);
                if quarantine.contains(&category.category, id) { excused.push(named) } else { counted.push(named) }
            }
        }
    }
    (counted, excused)
}

/// What `--known-flaky` let through, when it let anything through.
fn quarantine_note(excused: &[String], gating: bool) -> Option<String> {
    if excused.is_empty() {
        return None;
    }
    let what = if gating { "ignored by --fail-on regressions" } else { "counted above as usual" };
    Some(format!(
        "Quarantined by --known-flaky ({what}): {}:\n{}",
        super::stability::plural(excused.len(), "regression"),
        excused.iter().map(|e| format!("  {}", printable(e))).collect::<Vec<_>>().join("\n")
    ))
}

/// One side's runs and their records.
fn load_side(paths: &[PathBuf], filter: &Filter) -> anyhow::Result<(Loaded, Records)> {
    super::stability::load_runs_and_records(paths, filter, "compare")
}

/// Loads one side given as a single run folder, refusing a folder that holds several runs.
fn load_one(path: &PathBuf, label: &str, filter: &Filter) -> anyhow::Result<(Loaded, Records)> {
    let (loaded, records) = load_side(std::slice::from_ref(path), filter)?;
    let mut names: Vec<&str> = loaded.runs.iter().map(|r| r.run.as_str()).collect();
    names.sort_by(|a, b| evaltally_core::id::natural_str_cmp(a, b));
    names.dedup();
    if names.len() > 1 {
        let listed: Vec<String> = names.iter().map(|n| printable(n).into_owned()).collect();
        let listed = first_of(&listed, 6);
        // A file of several runs (τ-bench trials, inspect epochs, promptfoo repeats) has no
        // run folder to name: it is a group.
        let how = if path.is_file() {
            "a file of several runs (trials, epochs, repeats) compares as a group: `evaltally compare --base BASE --new NEW`"
        } else {
            "name one run folder, or compare groups with --base/--new"
        };
        return Err(UsageError(format!(
            "{label} `{}` holds {} runs ({listed}); {how}",
            output::shown(path),
            names.len()
        ))
        .into());
    }
    Ok((loaded, records))
}
